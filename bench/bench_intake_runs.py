"""Benchmark: intake on long runs, hostile or careless, of 12k, 25k and 50k characters: names
separated by commas, spaces, 、 or new lines; command words; brackets; corrections, offers and
subjects repeated; a chess32 cannon PM of many lines. Prints the CPU time of one reading
(``read_post`` in the vote thread, where a post is read for ballots and for misplaced commands;
``read_pm`` at night) for each size, and the growth of the last step (2.0 when the size doubles
means linear time).

Figures only, no assertions (tests never time anything; ``tests/intake/test_intake_hostile.py``
checks what these texts read as). Before the fix, ``投票：老王，阿杰，…`` in the vote thread took
0.8 s at 3k characters, 14 s at 12k and 57 s at 24k: each clause of the run walked the rest of it
as a possible subject (``_Reader._after_subject``).

    python bench/bench_intake_runs.py [SHAPE-SUBSTRING …]   # default: every shape
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from shenshi.intake.batch import case_reader
from shenshi.intake.model import IntakeResult

SIZES = (12_000, 25_000, 50_000)
ROUNDS = 3  # the best of a few readings: the machine is shared

_GAME5 = {
    "ruleset": "game5", "dead": [],
    "players": ["老王", "阿杰", "糖糖", "小雪", "雪球", "Rex", "白菜", "大熊", "Ivy", "Momo"],
    "roles": {"老王": "killer", "阿杰": "killer", "糖糖": "seer", "小雪": "binder", "雪球": "curser",
              "Rex": "blesser", "白菜": "commoner", "大熊": "commoner", "Ivy": "commoner",
              "Momo": "commoner"},
}  # fmt: skip
VOTE = {
    **_GAME5, "channel": "post", "phase": "day1", "vote": {"round": 1}, "thread": "vote",
    "from": "白菜",
}  # fmt: skip
SEER_VOTE = {**VOTE, "from": "糖糖"}  # a post in the vote thread may hold a misplaced 占卜
SEER = {**_GAME5, "channel": "pm", "phase": "night1", "from": "糖糖"}
KILLER = {**_GAME5, "channel": "pm", "phase": "night1", "from": "老王"}
_CHESS = ["项羽", "炮仗", "乌骓", "踏雪", "刘季", "陈平", "樊哙"]
CANNON = {
    "ruleset": "chess32", "dead": [], "players": _CHESS,
    "roles": dict(zip(_CHESS, ["general", "cannon", "horse", "horse", "general", "left_advisor",
                                "right_advisor"], strict=True)),
    "teams": dict(zip(_CHESS, ["chu"] * 4 + ["han"] * 3, strict=True)),
    "channel": "pm", "phase": "night1", "from": "炮仗",
}  # fmt: skip


def run(unit: str, prefix: str = "", suffix: str = "", close: str = "") -> Callable[[int], str]:
    """A text of about ``size`` characters: ``unit`` repeated between ``prefix`` and ``suffix``
    (and ``close`` repeated as often as ``unit``: brackets closed)."""
    def make(size: int) -> str:
        times = size // len(unit + close)
        return prefix + unit * times + suffix + close * times

    return make


SHAPES: dict[str, tuple[dict, Callable[[int], str]]] = {
    # names (the shape of the defect, and its neighbours)
    "投票：老王，阿杰，… (vote thread)": (VOTE, run("老王，阿杰，", "投票：")),
    "投票：老王 阿杰 …": (VOTE, run("老王 阿杰 ", "投票：")),
    "投票：老王、阿杰、…": (VOTE, run("老王、阿杰、", "投票：")),
    "投票：老王⏎阿杰⏎…": (VOTE, run("老王\n阿杰\n", "投票：")),
    "老王，阿杰，… (no ballot word)": (VOTE, run("老王，阿杰，")),
    "占卜：老王，阿杰，… (PM)": (SEER, run("老王，阿杰，", "占卜：")),
    "占卜 老王⏎阿杰⏎… (PM)": (SEER, run("老王\n阿杰\n", "占卜 ")),
    # command words
    "投票投票投票…": (VOTE, run("投票")),
    "投票：投票：…": (VOTE, run("投票：")),
    "投票，投票，…": (VOTE, run("投票，")),
    "改投 改投 …": (VOTE, run("改投 ")),
    "占卜占卜… (PM)": (SEER, run("占卜")),
    "改杀 改杀 … (PM)": (SEER, run("改杀 ")),
    # brackets
    "投票：【【【…老王】】】": (VOTE, run("【", "投票：", "老王", "】")),
    "（（（…投票：老王": (VOTE, run("（", suffix="投票：老王")),
    "投票：老王（阿杰）（阿杰）…": (VOTE, run("（阿杰）", "投票：老王")),
    "(((…占卜老王))) (PM)": (SEER, run("(", suffix="占卜老王", close=")")),
    # corrections, offers, subjects, kills
    "投票：老王，算了，算了，…": (VOTE, run("，算了", "投票：老王")),
    "投票：老王，改，改，…": (VOTE, run("，改", "投票：老王")),
    "投票：老王，或者阿杰，要么老王，…": (VOTE, run("，或者阿杰，要么老王", "投票：老王")),
    "我，我，…投票：老王": (VOTE, run("我，", suffix="投票：老王")),
    "占卜老王，占卜阿杰，… (seer, vote thread)": (SEER_VOTE, run("占卜老王，占卜阿杰，")),
    "占卜老王，改成阿杰，改成老王，… (PM)": (SEER, run("，改成阿杰，改成老王", "占卜老王")),
    "不占卜了，不占卜了，… (PM)": (SEER, run("不占卜了，")),
    "杀阿杰，杀老王，… (PM)": (KILLER, run("杀阿杰，杀老王，")),
    "炮打陈平⏎炮架子乌骓⏎… (chess32 PM)": (CANNON, run("炮打陈平\n炮架子乌骓\n")),
}


def seconds(read: Callable[[], IntakeResult]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        read()
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str]) -> None:
    print(f"CPU seconds of one reading, best of {ROUNDS}; sizes in characters")
    for name, (context, make) in SHAPES.items():
        if argv and not any(a in name for a in argv):
            continue
        figures = []
        for size in SIZES:
            text = make(size)
            read = case_reader({**context, "id": name, "text": text})
            figures.append((len(text), seconds(read)))
        cells = "  ".join(f"{chars // 1000:>2}k:{t:6.3f}s" for chars, t in figures)
        (c1, t1), (c2, t2) = figures[-2], figures[-1]
        growth = (t2 / t1) / (c2 / c1) if t1 > 0 else float("nan")
        print(f"{name:34} {cells}   last step vs linear: {growth:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
