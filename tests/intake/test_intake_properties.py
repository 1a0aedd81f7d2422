"""Properties: a text naming no player never yields a command with a target; a quote of
someone else's vote never changes what a post or PM yields."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from shenshi.intake import GameContext, PhaseFacts, PlayerInfo, read_pm, read_post
from shenshi.intake.text import fold
from shenshi.records import Post, PrivateMessage, Quote

T = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
NAMES = ["阿狸", "大熊", "小鱼儿", "南风", "Sunny", "老K", "糖糖", "木头人"]
ROLES = {
    "game5": ["commoner", "binder", "curser", "seer", "blesser", "killer", "killer", "commoner"],
    "chess32": [
        "soldier",
        "elephant",
        "left_advisor",
        "horse",
        "right_advisor",
        "general",
        "cannon",
        "chariot",
    ],
    "werewolf": ["villager", "guard", "witch", "seer", "villager", "werewolf", "werewolf", "piper"],
}
NICKNAMES = {"K哥": "老K"}
FRAGMENTS = [
    "投票", "投", "我投", "票投", "投给", "改票", "弃票", "弃权", "vote", "占卜", "查", "验", "杀", "刀",
    "束魂", "诅咒", "庇佑", "祈祷", "为", "炮打", "炮架子", "架", "禁锢", "救", "救治", "抽将", "【守护】",
    "【预言】", "【杀人】", "【金箭】", "遗言", "指控", "委托投票", "宣言", "确定", "同意第2天加速",
    "：", ":", " ", "，", "。", "！", "？", "\n", "「", "」", "【", "】", "@", "（", "）", "、",
    "小鸣", "阿离", "路人乙", "GM", "大家", "今晚", "明天", "理由", "好人", "杀手", "狼", "😂", "123",
    "Tom", "lily", "猫", "月光", "哈哈", "不对", "如果", "吗",
]  # fmt: skip


def _ctx(ruleset: str, kind: str) -> GameContext:
    players = tuple(PlayerInfo(n, None, r) for n, r in zip(NAMES, ROLES[ruleset], strict=True))
    vote = 1 if kind == "day" else None
    return GameContext(
        ruleset, players, NICKNAMES, phase=PhaseFacts(kind=kind, number=1, vote_round=vote)
    )


def _names_no_player(text: str) -> bool:
    folded = fold(text)
    keys = [fold(n) for n in NAMES + list(NICKNAMES)] + ["自己", "本人"]
    return not any(k in folded for k in keys)


texts = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=3), max_size=14).map("".join)
rulesets = st.sampled_from(sorted(ROLES))
kinds = st.sampled_from(["day", "night"])
senders = st.sampled_from(NAMES)


@given(texts, rulesets, kinds, senders)
def test_no_player_named_no_target(text: str, ruleset: str, kind: str, sender: str) -> None:
    if not _names_no_player(text):
        return
    ctx = _ctx(ruleset, kind)
    post = Post("t", "p", 2, sender, "", T, text)
    pm = PrivateMessage("m", "c", sender, "", "GM", None, T, text)
    for result in (read_post(ctx, post), read_pm(ctx, pm)):
        for cmd in result.commands:
            assert cmd.target is None, (text, cmd)
            assert "platform" not in cmd.extra and "target2" not in cmd.extra


votes = st.tuples(
    st.sampled_from(["投票：", "投 ", "我投", "投票:", "改票：", "弃票"]),
    st.sampled_from(NAMES + ["小鸣"]),
)


@given(
    texts | st.sampled_from(["投票：老K", "我投糖糖，理由见分析", "弃权", "占卜 南风"]),
    votes,
    rulesets,
    kinds,
    senders,
)
def test_quoted_vote_changes_nothing(
    text: str, vote: tuple[str, str], ruleset: str, kind: str, sender: str
) -> None:
    ctx = _ctx(ruleset, kind)
    others = [n for n in NAMES if n != sender]
    quoted = vote[0] + (vote[1] if vote[0] != "弃票" else "")
    plain = Post("t", "p", 2, sender, "", T, text)
    with_quote = Post("t", "p", 2, sender, "", T, text, quotes=(Quote(others[0], "9", quoted),))
    assert read_post(ctx, with_quote) == read_post(ctx, plain)
    pm_plain = PrivateMessage("m", "c", sender, "", "GM", None, T, text)
    pm_quote = PrivateMessage(
        "m", "c", sender, "", "GM", None, T, f"[quote]{others[0]}：{quoted}[/quote]\n{text}"
    )
    assert read_pm(ctx, pm_quote) == read_pm(ctx, pm_plain)
