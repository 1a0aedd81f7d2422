"""Fuzz: any text at all (lone surrogates, controls, combining marks, private-use and unassigned
code points, command words in any order) is read without an exception, in every ruleset, in
posts, PMs and 功能树洞 replies, and what comes out can be written as UTF-8 JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from shenshi.intake import GameContext, IntakeResult, PhaseFacts, PlayerInfo, read_pm, read_post
from shenshi.intake.batch import result_json
from shenshi.records import Post, PrivateMessage, Quote

T = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
NAMES = ["老王", "阿杰", "小明", "Mia", "Mia2", "[SK]Leo", "@小白", "如果", "Zoë", "木头"]
ROLES = {
    "game5": ["commoner", "commoner", "seer", "binder", "killer", "killer", "curser", "blesser",
              "commoner", "commoner"],
    "game6-8": ["killer", "killer", "seer", "binder", "curser", "blesser", "commoner", "commoner",
                None, None],
    "game6-13": ["alliance_killer", "alliance_killer", "independent_killer", "seer", "seer",
                 "binder", "binder", "curser", "blesser", "commoner"],
    "chess32": ["general", "cannon", "chariot", "horse", "horse", "elephant", "left_advisor",
                "right_advisor", "soldier", "general"],
    "werewolf": ["werewolf", "werewolf", "seer", "witch", "guard", "cupid", "piper", "villager",
                 "villager", "villager"],
}  # fmt: skip
FRAGMENTS = [
    "投票", "投", "改投", "票：", "弃权", "占卜", "束魂", "祈祷", "杀", "宣言：", "杀人帖：", "炮打",
    "炮架子：", "抽将", "【预言】", "【杀人】", "【金箭】", "确定", "【确定】", "同意加速", "遗言：",
    "指控", "委托投票：", "改成", "不对，", "算了", "更正：", "如果", "的话", "除非", "就", "吗", "？",
    "?", "，", "。", "\n", " ", "、", "vs", "+", "|", "[quote]", "[/quote]", "[b]", "????", "😀",
    "\u200b", "\u202e", "\ufe0f", "\u0301", "\r", "\u2028", "\x85", "\x1b[31m", "\x00", "\ufffd",
    "\ud800", "\udfff", "\U000e0001", "\U0010ffff", "\ue000", "1、", "PS：", "@神的使者 ", "（",
    *NAMES,
]  # fmt: skip
odd = st.one_of(
    st.characters(),
    st.integers(0xD800, 0xDFFF).map(chr),  # lone surrogates (st.characters() leaves them out)
    st.integers(0, 0x10FFFF).map(chr),
)
texts = st.lists(st.sampled_from(FRAGMENTS) | odd | st.text(max_size=4), max_size=24).map("".join)


def _ctx(ruleset: str, kind: str) -> GameContext:
    players = tuple(
        PlayerInfo(n, None, r, "chu" if ruleset == "chess32" and k < 9 else None)
        for k, (n, r) in enumerate(zip(NAMES, ROLES[ruleset], strict=True))
    )
    phase = PhaseFacts(kind=kind, number=2, vote_round=1 if kind == "day" else None)
    return GameContext(
        ruleset, players, {"小王": ("老王", "阿杰"), "木木": "木头"}, phase=phase,
        role_threads={"tree": frozenset({NAMES[0], NAMES[1]})},
    )  # fmt: skip


def _check(result: IntakeResult) -> None:
    """Commands name players only; the output encodes as UTF-8 (strict: no lone surrogate
    reaches an alert, a receipt or a command)."""
    for cmd in result.commands:
        assert cmd.actor in NAMES and (cmd.target is None or cmd.target in NAMES), cmd
    line = json.dumps(result_json("x", result, with_receipts=True), ensure_ascii=False)
    assert line.encode("utf-8").decode("utf-8") == line


@settings(max_examples=300, deadline=None)
@given(
    texts,
    st.sampled_from(sorted(ROLES)),
    st.sampled_from(["day", "night"]),
    st.sampled_from(NAMES + ["路人", "老王\ud800", "\udc00"]),
    st.lists(texts, max_size=2),
)
def test_any_text_is_read_without_an_exception(
    text: str, ruleset: str, kind: str, sender: str, quoted: list[str]
) -> None:
    ctx = _ctx(ruleset, kind)
    quotes = tuple(Quote(q[:5] or None, None, q) for q in quoted)
    for tid in ("t", "tree"):  # a game-thread post, a 功能树洞 reply
        _check(read_post(ctx, Post(tid, "p", 2, sender, "", T, text, quotes=quotes)))
    _check(read_pm(ctx, PrivateMessage("m", "c", sender, "", "GM", None, T, text)))


# A command followed by changes of mind, offers, questions and agreement in any order (占卜X
# 要不改成Y？, 杀X，或者换成Y了 算了改Z): the grammar's own words, so the reader's correction
# and offer paths are exercised, not only its tolerance of odd characters.
COMMANDS = ["杀", "占卜", "束魂", "投票：", "【杀人】", "诅咒", "确定占卜", "我和阿杰杀", "炮打", "轰"]
SEPARATORS = ["", " ", "，", "。", "\n", "（", "：", "…"]
LEADS = [
    "", "要不", "要不要", "或者", "不对", "算了", "还是", "再", "我", "那就", "万一", "如果", "明天",
    "可能", "哦对了", "确定", "以这个为准", "重新决定", "不", "别",
]  # fmt: skip
CHANGES = ["", "改杀", "改成", "换成", "改投", "改为", "杀", "占卜", "投", "换", "改", "取消", "撤回", "更正："]
TARGETS = ["老王", "阿杰", "Mia", "Mia2", "小明", "他", "", "谁"]
ENDS = ["", "？", "吧", "呢", "吗", "）", "的话", "了", "。"]
changes = st.tuples(
    st.sampled_from(SEPARATORS), st.sampled_from(LEADS), st.sampled_from(CHANGES),
    st.sampled_from(TARGETS), st.sampled_from(ENDS),
).map("".join)  # fmt: skip
changed_commands = st.tuples(
    st.sampled_from(COMMANDS), st.sampled_from(TARGETS), st.lists(changes, min_size=1, max_size=3)
).map(lambda t: t[0] + t[1] + "".join(t[2]))


@settings(max_examples=400, deadline=None)
@given(changed_commands, st.sampled_from(sorted(ROLES)), st.sampled_from(["day", "night"]),
       st.sampled_from(NAMES[:5]))  # fmt: skip
def test_any_change_of_mind_is_read_without_an_exception(
    text: str, ruleset: str, kind: str, sender: str
) -> None:
    ctx = _ctx(ruleset, kind)
    for tid in ("t", "tree"):
        _check(read_post(ctx, Post(tid, "p", 2, sender, "", T, text)))
    _check(read_pm(ctx, PrivateMessage("m", "c", sender, "", "GM", None, T, text)))
