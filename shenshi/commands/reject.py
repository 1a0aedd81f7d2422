"""``shenshi reject ID...``: never send these announcements; ``--undo`` takes a reject back (the
announcements are proposed again, to review)."""

from __future__ import annotations

import argparse

from shenshi.commands._common import register_outbox_action

NAME = "reject"
HELP = "reject proposed announcements by id (never sent)"
ORDER = 32


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return register_outbox_action(subparsers, NAME, HELP, __doc__, "reject")
