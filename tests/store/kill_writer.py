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
    game = store.find_game(GAME) or store.create_game(GAME, "game5")
    i = start
    while True:
        post = Post("100", str(i), i + 1, "甲", "11", T0 + timedelta(minutes=i), f"第{i}楼 " * 20)
        evidence = store.record_post(game.id, post).evidence
        if i % 3 == 0:  # the author edits it: a revision
            store.record_post(game.id, replace(post, text=post.text + "（编辑）"))
        events = [{"type": "tick", "i": i, "part": k, "pad": "x" * 200} for k in range(BATCH)]
        seqs = store.append_events(game.id, events, evidence.id, key=f"batch-{i}")
        ann, _ = store.propose(
            game.id, f"ann-{i}", "note", "thread", "100", f"公告 {i} " * 30, [evidence.id]
        )
        if i % 2 == 0 and ann.state in (AnnouncementState.PROPOSED, AnnouncementState.APPROVED):
            store.approve(ann.id)  # a no-op if a killed run already approved it
            store.mark_sending(ann.id)
        store.set_cursor(game.id, "thread:100", {"last": i})
        print(f"acked {i} {seqs[0]}", flush=True)
        i += 1


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
