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
HELP = "批准待审的公告/私信（按编号；审核模式下由守护进程发出）"
# What ``shenshi approve --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi approve 编号…：让守护进程发出这些公告/私信（审核模式）。可写编号和范围（shenshi approve 3 5-9）；不能批准的会说明原因，其余照常批准。前一阶段没发布的帖子（如第2夜时第1天的投票帖开放通知）会被拒绝，免得一个范围把它迟发出去：放弃它，或用 --late 批准。演练模式下什么都不发：请手动发帖。'
ORDER = 31


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return register_outbox_action(subparsers, NAME, HELP, DESCRIPTION, "approve")
