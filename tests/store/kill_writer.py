"""A writer for the kill -9 test: loops over writes of every kind and acknowledges each step
on stdout only after the store returned (so everything printed was committed).

    python kill_writer.py URL START

Step ``i`` records a post (every third one edited: a revision), appends a batch of 3 events keyed ``batch-i``, proposes
``ann-i``, and walks even announcements to ``sending``.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from shenshi.records import Post
from shenshi.store import AnnouncementState, open_store

GAME = "kill-9"
T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
BATCH = 3


def main(url: str, start: int) -> None:
    store = open_store(url)
    with store.transaction() as uow:
        game = uow.games.find(GAME) or uow.games.create(GAME, "game5")
    i = start
    while True:
        post = Post("100", str(i), i + 1, "甲", "11", T0 + timedelta(minutes=i), f"第{i}楼 " * 20)
        with store.transaction() as uow:
            [recorded] = uow.evidence.record(game.id, [(post, None)])
        evidence = recorded.evidence
        if i % 3 == 0:  # the author edits it: a revision
            with store.transaction() as uow:
                uow.evidence.record(game.id, [(replace(post, text=post.text + "（编辑）"), None)])
        events = [{"type": "tick", "i": i, "part": k, "pad": "x" * 200} for k in range(BATCH)]
        with store.transaction() as uow:
            seqs = uow.events.append(game.id, events, evidence.id, key=f"batch-{i}")
        with store.transaction() as uow:
            ann, _ = uow.outbox.propose(
                game.id, f"ann-{i}", "note", "thread", "100", f"公告 {i} " * 30, [evidence.id]
            )
        if i % 2 == 0 and ann.state in (AnnouncementState.PROPOSED, AnnouncementState.APPROVED):
            with store.transaction() as uow:
                uow.outbox.approve(ann.id)  # a no-op if a killed run already approved it
            with store.transaction() as uow:
                uow.outbox.mark_sending(ann.id)
        with store.transaction() as uow:
            uow.evidence.set_cursor(game.id, "thread:100", {"last": i})
        print(f"acked {i} {seqs[0]}", flush=True)
        i += 1


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
