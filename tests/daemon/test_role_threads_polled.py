"""Werewolf 功能树洞 threads on a private board: read directly until their board is known, then
only when that board's listing shows a new reply (a quiet cycle costs one listing for the
board, not one request per tree-hole)."""

from __future__ import annotations

from datetime import timedelta

from tests.daemon.helpers import START
from tests.daemon.test_service_sandbox import restarted, world  # noqa: F401 - the fixture

PRIVATE_BOARD = 7


def test_tree_holes_are_read_only_when_their_boards_listing_moves(world) -> None:  # noqa: F811
    clock, forum, tid, daemon = world
    forum.create_board("功能树洞", fid=PRIVATE_BOARD)
    holes = {role: forum.create_thread("神的使者", PRIVATE_BOARD, f"【{role}】功能树洞", "回复本帖行动", at=START).tid
             for role in ("seer", "witch", "guard")}  # fmt: skip
    service = restarted(world, role_threads=holes)
    try:
        clock.set(START + timedelta(minutes=5))
        service.poll()  # the first read of each tree-hole: directly (its board is learnt)
        before = service.adapter.requests
        service.poll()
        quiet = service.adapter.requests - before
        before = service.adapter.requests
        service.poll()
        assert service.adapter.requests - before == quiet  # (steady)

        forum.post("小明", holes["seer"], "【预言】老王", at=clock())
        clock.advance(minutes=1)
        before = service.adapter.requests
        report = service.poll()
        assert report.posts == 1, "the reply in the tree-hole is read"
        assert service.adapter.requests - before == quiet + 1  # that one thread, no other
    finally:
        service.close()

    # Without the private board's listing (three tree-holes read directly) a quiet poll costs
    # two requests more than with it (one listing instead of three threads).
    assert quiet <= 3, quiet
