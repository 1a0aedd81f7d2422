"""Hostile or odd text (issue 11, issue 13): invisible characters, names that run on, quotes at
any depth, ???? from a utf8mb3 forum. Each is read as a person sees it, never guessed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shenshi.intake import GameContext, PhaseFacts, PlayerInfo, read_pm, read_post
from shenshi.records import Post, PrivateMessage

T = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
PLAYERS = (
    PlayerInfo("小明", None, "seer"), PlayerInfo("老王", None, "commoner"),
    PlayerInfo("阿杰", None, "commoner"), PlayerInfo("Lily99", None, "killer"),
    PlayerInfo("夜行者", None, "killer"), PlayerInfo("月光", None, "binder"),
)  # fmt: skip
DAY = GameContext("game6-10", PLAYERS, phase=PhaseFacts(kind="day", number=2, vote_round=1))
NIGHT = GameContext("game6-10", PLAYERS, phase=PhaseFacts(kind="night", number=2))
# Format and invisible characters: zero-width space, non-joiner, joiner, word joiner, BOM, soft
# hyphen, combining grapheme joiner, Mongolian vowel separator, bidi marks, embeddings,
# overrides and isolates, the Arabic letter mark, a variation selector.
INVISIBLE = [
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u180e", "\u200e",
    "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
    "\u2069", "\u061c", "\ufe0f",
]  # fmt: skip


def ballot(text: str, ctx: GameContext = DAY) -> tuple[list, list]:
    result = read_post(ctx, Post("t", "1", 2, "阿杰", "", T, text))
    return [(c.action, c.target) for c in result.commands], [a.kind for a in result.alerts]


def action(text: str, sender: str = "小明") -> tuple[list, list]:
    result = read_pm(NIGHT, PrivateMessage("m", "c", sender, "", "GM", None, T, text))
    return [(c.action, c.target) for c in result.commands], [a.kind for a in result.alerts]


@pytest.mark.parametrize("mark", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_an_invisible_character_changes_nothing_a_person_sees(mark: str) -> None:
    assert ballot(f"投{mark}票：老王") == ([("vote", "老王")], [])
    assert ballot(f"投票：{mark}老王{mark}") == ([("vote", "老王")], [])
    assert ballot(f"投票：小明{mark}明") == ([], ["unknown_name"])  # it shows as 小明明
    assert action(f"占{mark}卜 老王") == ([("divine", "老王")], [])
    assert action(f"占卜 老{mark}王王") == ([], ["unknown_name"])


@given(
    st.sampled_from(["投票：老王", "我投老王一票", "投票：老王，理由：他是不是杀手？"]),
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(INVISIBLE)), max_size=6),
)
def test_invisible_characters_anywhere_read_as_without_them(text: str, marks: list) -> None:
    marked = text
    for pos, mark in marks:
        at = pos % (len(marked) + 1)
        marked = marked[:at] + mark + marked[at:]
    assert ballot(marked) == ballot(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("投票：老王王", ([], ["unknown_name"])),
        ("投票：小明明", ([], ["unknown_name"])),
        ("投票：老王他最可疑", ([], ["unknown_name"])),
        ("投票：老王2", ([], ["unknown_name"])),
        ("投票：老王，他最可疑", ([("vote", "老王")], [])),
        ("投票：老王 他最可疑", ([("vote", "老王")], [])),
        ("投票：老王因为他乱跳", ([("vote", "老王")], [])),
        ("投老王一票", ([("vote", "老王")], [])),
        ("投老王吧", ([("vote", "老王")], [])),
        ("投票：Lily99了", ([("vote", "Lily99")], [])),
        ("投票：老王或者阿杰", ([], ["alternatives"])),
    ],
)
def test_a_name_that_runs_on_is_read_whole(text: str, expected: tuple) -> None:
    assert ballot(text) == expected


def test_the_whole_token_comes_with_suggestions() -> None:
    result = read_pm(NIGHT, PrivateMessage("m", "c", "小明", "", "GM", None, T, "占卜 小明明"))
    assert result.alerts[0].suggestions[:1] == ("小明",)
    assert "小明明" in result.alerts[0].message


@pytest.mark.parametrize(
    "text",
    [
        "[quote][quote]投票：小明[/quote]投票：月光[/quote]投票：老王",
        "[quote=阿杰][quote][quote]投票：小明[/quote][/quote]投票：月光[/quote]\n投票：老王",
        "[QUOTE]投票：小明[/QUOTE]投票：老王",
    ],
)
def test_quoted_text_never_counts_at_any_depth(text: str) -> None:
    assert ballot(text) == ([("vote", "老王")], [])


def test_an_unclosed_quote_hides_what_follows() -> None:
    # What it hid may be the author's own second ballot: it does not count, the GM is told.
    assert ballot("投票：老王\n[quote]投票：小明") == ([("vote", "老王")], ["unclosed_quote"])
    assert ballot("[quote]投票：小明\n投票：老王") == ([], ["unclosed_quote"])
    assert ballot("投票：老王\n[quote]说得好") == ([("vote", "老王")], [])
    assert action("[quote][quote]占卜 老王[/quote]占卜 月光[/quote]") == ([], ["not_a_command"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("投票：老王????", ([("vote", "老王")], [])),  # an emoji a utf8mb3 forum could not store
        ("投票：老王????????", ([("vote", "老王")], [])),
        ("投票：老王????？", ([], ["conditional_vote"])),  # an emoji, then a question
        ("投票：老王???", ([], ["conditional_vote"])),  # three real question marks
        ("投票：老王?", ([], ["conditional_vote"])),
    ],
)
def test_question_marks_that_replaced_characters_are_not_a_question(text: str, expected) -> None:
    assert ballot(text) == expected


def test_the_original_text_is_what_the_gm_is_shown() -> None:
    result = read_pm(NIGHT, PrivateMessage("m", "c", "小明", "", "GM", None, T, "占卜 小明\u200b明"))
    assert "小明\u200b明" in result.alerts[0].message  # the evidence as written, mark included


def test_thousands_of_changes_in_one_pm_are_read_to_the_last() -> None:
    """A PM of thousands of 改成X lines (it was read in quadratic time: 2 s at 1,000 lines,
    minutes at 8,000; bench/bench_intake_hostile.py prints the times): the last one counts."""
    commands, _ = action("占卜 老王\n" + "改成阿杰\n" * 3000 + "改成月光")
    assert commands == [("divine", "月光")]

# Long runs (a hostile post, or a careless one): names separated by commas, spaces, 、 or new
# lines, command words, brackets, corrections, offers and subjects. Each is read as its short form
# is (or as the lead-ins' limit makes it), in linear time: a comma-separated run of names made
# every clause walk the rest of the run as a possible subject (12k characters took 6 s, 48k 100 s).
# The run of that shape is 50,000 characters long, the others 12,000 (bench/bench_intake_runs.py
# times them all at 50,000; tests never time anything).
VOTE = GameContext(
    "game6-10", PLAYERS, phase=PhaseFacts(kind="day", number=2, vote_round=1), threads={"t": "vote"}
)


def _long(unit: str, prefix: str = "", suffix: str = "", size: int = 12_000) -> str:
    return prefix + unit * (size // len(unit)) + suffix


def _short_id(v: object) -> str | None:
    return (v[:6] + "…" + v[-4:]).replace("\n", "⏎") if isinstance(v, str) else None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_long("老王，小明，", "投票：", size=50_000), ([], ["vote_conflict"])),
        (_long("老王 小明 ", "投票："), ([], ["vote_conflict"])),
        (_long("老王、小明、", "投票："), ([], ["vote_conflict"])),
        (_long("老王\n小明\n", "投票："), ([], ["vote_conflict"])),
        (_long("老王，小明，"), ([], [])),  # two players named, no ballot word: nothing to read
        (_long("投票"), ([], ["unread_command"])),
        (_long("投票："), ([], ["unknown_name"])),
        (_long("改投 "), ([], ["unknown_name"])),
        (_long("投票，"), ([], ["unread_command"])),
        (_long("【", "投票：", "老王" + "】" * 6_000), ([], ["missing_target"])),
        (_long("（", suffix="投票：老王"), ([], ["unread_command"])),  # past the lead-ins' limit
        (_long("（小明）", "投票：老王"), ([], ["alternatives"])),
        (_long("，算了", "投票：老王"), ([("vote", "老王")], [])),
        (_long("，或者小明，要么老王", "投票：老王"), ([], ["alternatives"])),
        (_long("我，", suffix="投票：老王"), ([("vote", "老王")], [])),
    ],
    ids=_short_id,
)
def test_a_long_run_in_the_vote_thread_reads_as_its_short_form(text: str, expected: tuple) -> None:
    assert ballot(text, VOTE) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_long("老王，阿杰，", "占卜："), ([], ["action_conflict"])),
        (_long("老王 阿杰 ", "占卜 "), ([], ["action_conflict"])),
        (_long("老王\n阿杰\n", "占卜："), ([], ["action_conflict"])),
        (_long("占卜"), ([], ["not_a_command"])),
        (_long("改杀 "), ([], ["no_power"])),
        (_long("(", suffix="占卜老王" + ")" * 12_000), ([], ["not_a_command"])),
        (_long("，改成阿杰，改成老王", "占卜老王"), ([("divine", "老王")], [])),
    ],
    ids=_short_id,
)
def test_a_long_run_in_a_pm_reads_as_its_short_form(text: str, expected: tuple) -> None:
    assert action(text) == expected
