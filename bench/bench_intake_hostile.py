"""Benchmark: intake on hostile posts of growing size (nested [quote], condition spam, long
lines of names and commands). Prints the time of ``read_post`` / ``read_pm`` for each size and
the growth from one size to the next (2.0 when the size doubles means linear time).

Figures only, no assertions (tests never time anything). Before the quote handling was made
one pass over the tags, nested quotes grew quadratically: 60k characters took 2.7 s and 300k
took 68 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from shenshi.intake import GameContext, PhaseFacts, PlayerInfo, read_pm, read_post
from shenshi.records import Post, PrivateMessage

T = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
NAMES = ["老王", "阿杰", "小明", "Rex", "小鱼", "小鱼儿", "Mia", "Mia2", "[SK]Leo", "如果"]
ROLES = ["commoner", "commoner", "seer", "binder", "killer", "killer", "curser", "blesser",
         "commoner", "commoner"]  # fmt: skip
PLAYERS = tuple(PlayerInfo(n, None, r) for n, r in zip(NAMES, ROLES, strict=True))
DAY = GameContext("game5", PLAYERS, phase=PhaseFacts(kind="day", number=2, vote_round=1))
NIGHT = GameContext("game5", PLAYERS, phase=PhaseFacts(kind="night", number=2))
SIZES = (1000, 2000, 4000, 8000, 20000)


def post(text: str) -> None:
    read_post(DAY, Post("t", "p", 2, "Rex", "", T, text))


def pm(text: str) -> None:
    read_pm(NIGHT, PrivateMessage("m", "c", "小明", "", "GM", None, T, text))


SHAPES: dict[str, tuple[Callable[[int], str], Callable[[str], None]]] = {
    "nested [quote] (post)": (
        lambda n: "[quote]" * n + "投票：阿杰" + "[/quote]" * n + "投票：老王", post
    ),
    "unclosed [quote] (post)": (lambda n: "投票：老王" + "[quote]投票：阿杰" * n, post),
    "如果 spam (post)": (lambda n: "如果" * n + "投老王", post),
    "ballots on one line (post)": (lambda n: "投票：老王 " * n, post),
    "names listed (post)": (lambda n: "投票：" + "、".join(["老王", "阿杰"] * (n // 2)), post),
    "clauses (post)": (lambda n: "，".join(["我觉得小鱼有问题"] * n), post),
    "emoji lead-ins (post)": (lambda n: "😀" * n + "投票：老王", post),
    "corrections (PM)": (lambda n: "占卜 老王\n" + "改成阿杰\n" * n, pm),
    "kill with a long declaration (PM)": (
        lambda n: "杀 老王\n" + "月黑风高，杀手潜入了老王的房间。\n" * (n // 16) + "改杀阿杰", pm
    ),
}


def seconds(run: Callable[[str], None], text: str) -> float:
    start = time.perf_counter()
    run(text)
    return time.perf_counter() - start


def main() -> None:
    print(f"sizes (repetitions): {', '.join(map(str, SIZES))}")
    for name, (make, run) in SHAPES.items():
        figures = []
        for n in SIZES:
            text = make(n)
            figures.append((len(text), seconds(run, text)))
        cells = "  ".join(f"{chars // 1000}k:{t * 1000:.0f}ms" for chars, t in figures)
        (c1, t1), (c2, t2) = figures[-2], figures[-1]
        growth = (t2 / t1) / (c2 / c1) if t1 > 0 else float("nan")
        print(f"{name:36} {cells}   last step vs linear: {growth:.2f}x")


if __name__ == "__main__":
    main()
