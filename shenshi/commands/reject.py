"""``shenshi reject ID...``: never send these announcements; ``--undo`` takes a reject back (the
announcements are proposed again, to review)."""

from __future__ import annotations

import argparse

from shenshi.commands._common import register_outbox_action

NAME = "reject"
HELP = "放弃待审的公告/私信（按编号；不会发出，可用 --undo 撤销）"
# What ``shenshi reject --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi reject 编号…：这些公告/私信不发了；--undo 撤销放弃（回到待审）。'
ORDER = 32


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return register_outbox_action(subparsers, NAME, HELP, DESCRIPTION, "reject")
