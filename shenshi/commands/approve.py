"""``shenshi approve ID...``: let the daemon send these announcements (review mode).

Ids and ranges (``shenshi approve 3 5-9``); an id that cannot be approved is said with the
reason and the others go through. A post of an earlier step that was never published (day 1's
投票帖开放 notice during night 2) is refused, so that a range does not post it late: reject it,
or approve it with ``--late``. In dry-run mode nothing is sent: post it by hand.
"""

from __future__ import annotations

import argparse

from shenshi.commands._common import register_outbox_action

NAME = "approve"
HELP = "approve proposed announcements by id (sent by the daemon in review mode)"
ORDER = 31


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return register_outbox_action(subparsers, NAME, HELP, __doc__, "approve")
