"""``shenshi approve ID...``: let the daemon send these announcements (review mode)."""

from __future__ import annotations

import argparse

from shenshi.commands._common import register_outbox_action

NAME = "approve"
HELP = "approve proposed announcements by id (sent by the daemon in review mode)"
ORDER = 31


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return register_outbox_action(subparsers, NAME, HELP, __doc__, "approve")
