"""Players named after the lexicon's marker words (issue 24).

A player whose forum name is, or holds, a word that marks a name slot in a command — a cannon's
platform word (炮架, 炮架子, 架子, 炮台, 隔着), an object word (目标, 对象), a role noun (杀手,
占卜师), a command or ballot word (守护, 投票君 …) — is read as the target or the platform in
the usual phrasings of every ruleset: a player's name wins over a command word where a name is
written, and a command word inside a player's name never marks anything. Where both readings name
a player (炮打目标：项伯 where 目标 plays), the GM is told (``ambiguous_name``), never a guess.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from shenshi.intake import lexicon
from shenshi.intake.batch import run_case
from shenshi.intake.model import IntakeResult
from tests.intake.phrasings import DAY, GAMES, NIGHT, POST, TREEHOLE

# The marker words of the lexicon that open or mark a name slot, as a player may be called.
MARKER_WORDS = tuple(sorted({
    *lexicon.PLATFORM_WORDS, *lexicon.PLATFORM_AS_WORDS, *lexicon.PLATFORM_ACROSS,
    *lexicon.OBJECT_SUFFIXES, *lexicon.VERB_NOUNS, "投票君", "占卜师", "守护", "占卜", "禁锢",
}))  # fmt: skip
# Every other command word a name could hold (bracketed and Latin words are no forum names).
COMMAND_WORDS = tuple(sorted(
    w for w in {
        *(w for w, _ in lexicon.VERBS), *lexicon.VOTE_WORDS, lexicon.VOTE_WORD,
        *lexicon.VOTE_WEAK_WORDS, *lexicon.VOTE_CHANGE_WORDS, *lexicon.CORRECTION_WORDS,
    }
    if not w.isascii() and not set(w) & set("【】[]") and w not in MARKER_WORDS
))  # fmt: skip


def names_holding(word: str) -> tuple[str, ...]:
    """Player names that are or hold ``word``: itself, and with characters before and after."""
    return word, "老" + word, word + "君"


def _game(game: str, renamed: dict[str, str]) -> dict[str, Any]:
    """A named game of :mod:`tests.intake.phrasings` with some players renamed."""
    g = json.loads(json.dumps(GAMES[game]))
    g.pop("nicknames", None)
    g["players"] = [renamed.get(p, p) for p in g["players"]]
    for key in ("roles", "teams"):
        if key in g:
            g[key] = {renamed.get(p, p): v for p, v in g[key].items()}
    return g


def read(
    game: str, phase: dict[str, Any], sender: str, text: str, renamed: dict[str, str]
) -> IntakeResult:
    """``text`` from ``sender`` in ``game`` during ``phase``, some players renamed."""
    case = {"id": "marker-names", **_game(game, renamed), **phase, "from": sender, "text": text}
    return run_case(case)


def summary(result: IntakeResult) -> list[str]:
    """The commands (action, target, platform) and alert kinds of a reading."""
    out = []
    for c in result.commands:
        platform = c.extra.get("platform")
        out.append(f"{c.action} {c.target}" + (f" platform={platform}" if platform else ""))
    return out + ["!" + a.kind for a in result.alerts]


_OWN = {**TREEHOLE, "role_thread": True}
_WOLVES = {**TREEHOLE, "role_thread": "werewolf"}
# (game, phase, sender, the player renamed, phrasings with {p} for him, what they mean)
_TARGETS: tuple[tuple[str, dict[str, Any], str, str, tuple[str, ...], str], ...] = (
    ("game6-10", DAY, "小明", "阿杰", (
        "投票：{p}", "投票 {p}", "我投{p}一票", "投票给{p}", "投票：{p}，理由：发言太水", "【投票】{p}",
    ), "vote {p}"),
    ("game6-10", NIGHT, "月光", "阿杰", ("占卜：{p}", "占卜 {p}", "今晚占卜{p}", "占卜对象：{p}", "目标：{p}"), "divine {p}"),
    ("game6-10", NIGHT, "Rex", "阿杰", ("束魂：{p}", "束魂 {p}"), "bind {p}"),
    ("chess32", NIGHT, "韩信", "项伯", ("禁锢：{p}", "禁锢 {p}", "今晚禁锢{p}", "目标：{p}"), "imprison {p}"),
    ("werewolf", _OWN, "铁卫", "小麦", ("【守护】{p}", "守护：{p}", "今晚守护{p}"), "guard {p}"),
    ("werewolf", _OWN, "星星", "小麦", ("【预言】{p}", "预言：{p}"), "divine {p}"),
    ("werewolf", _WOLVES, "阿狼", "小麦", ("【杀人】{p}", "杀人：{p}"), "kill {p}"),
    ("chess32", NIGHT, "樊哙", "彭越", (
        "炮打项伯，炮架：{p}", "炮架子选{p}，目标：项伯", "炮架子：{p}\n炮打：项伯", "炮打项伯，{p}做炮架",
        "以{p}为炮架，炮打项伯", "目标：项伯\n炮架子：{p}", "炮打项伯，炮架子{p}", "隔着{p}打项伯",
        "炮打项伯（炮架：{p}）", "炮打：项伯\n炮架：{p}", "用{p}当炮架子，炮打项伯", "炮架：{p}，炮打项伯",
    ), "cannon_kill 项伯 platform={p}"),
    ("chess32", NIGHT, "樊哙", "项伯", (
        "炮打{p}，炮架：彭越", "炮架子选彭越，目标：{p}", "炮架子：彭越\n炮打：{p}", "炮打{p}，彭越做炮架",
        "以彭越为炮架，炮打{p}", "目标：{p}\n炮架子：彭越", "隔着彭越打{p}", "炮打：{p}\n炮架：彭越",
        "炮打{p}（炮架：彭越）",
    ), "cannon_kill {p} platform=彭越"),
)  # fmt: skip


def _readings(name: str, each: int | None = None) -> Iterator[tuple[str, IntakeResult, str]]:
    """The usual phrasings naming a player called ``name`` (the first ``each`` of every
    command's): the text, its reading, the meaning."""
    for game, phase, sender, renamed, phrasings, meaning in _TARGETS:
        for phrasing in phrasings[:each]:
            text = phrasing.format(p=name)
            if sender == "樊哙":  # a cannon's kill comes with its kill post
                text += "\n" + POST
            yield text, read(game, phase, sender, text, {renamed: name}), meaning.format(p=name)


@pytest.mark.parametrize("word", MARKER_WORDS)
def test_a_player_named_after_a_marker_word_is_read_where_his_name_is_written(word: str) -> None:
    wrong = [
        (text.split("\n")[0], name, summary(result))
        for name in names_holding(word)
        for text, result, meaning in _readings(name)
        if summary(result) != [meaning]
    ]
    assert wrong == []


@pytest.mark.parametrize("word", COMMAND_WORDS)
def test_a_command_word_in_a_players_name_never_puts_a_command_on_another_player(word: str) -> None:
    """Whatever a name holds, a reading is the meant command, or no command and an alert."""
    wrong = []
    for name in names_holding(word):
        for text, result, meaning in _readings(name, each=1):
            got = summary(result)
            if got != [meaning] and (result.commands or not result.alerts):
                wrong.append((text.split("\n")[0], name, got))
    assert wrong == []


# The examples, with the players 炮架, 炮架子, 老炮 and 目标 in one game.
_CHESS_NAMES = {"彭越": "炮架", "郦食其": "炮架子", "卢绾": "老炮", "纪信": "目标"}


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("炮架子选炮架，目标：项伯", "cannon_kill 项伯 platform=炮架"),
        ("炮架子选老炮，目标：张良", "cannon_kill 张良 platform=老炮"),
        ("炮架：炮架子，炮打项伯", "cannon_kill 项伯 platform=炮架子"),
        ("炮打老炮，炮架：炮架", "cannon_kill 老炮 platform=炮架"),
        ("炮打目标，炮架子：老炮", "cannon_kill 目标 platform=老炮"),
        ("炮打项伯，炮架子做炮架", "cannon_kill 项伯 platform=炮架子"),
        ("炮打项伯，炮架做炮架子", "cannon_kill 项伯 platform=炮架"),
        ("以老炮为炮架，炮打目标", "cannon_kill 目标 platform=老炮"),
        ("目标：炮架子\n炮架：炮架", "cannon_kill 炮架子 platform=炮架"),
    ],
)
def test_platform_and_target_named_after_platform_words(text: str, meant: str) -> None:
    assert summary(read("chess32", NIGHT, "樊哙", f"{text}\n{POST}", _CHESS_NAMES)) == [meant]


@pytest.mark.parametrize(
    ("game", "phase", "sender", "text", "players"),
    [
        ("chess32", NIGHT, "樊哙", "炮打目标：项伯，炮架：炮架", {"目标", "项伯"}),
        ("game6-10", DAY, "Rex", "投票给目标：老王", {"目标", "老王"}),
        ("game6-10", NIGHT, "月光", "占卜对象：目标", {"对象", "目标"}),
        ("game6-10", NIGHT, "月光", "占卜目标 对象", {"对象", "目标"}),
    ],
)
def test_a_marker_word_that_is_a_name_with_another_name_after_it_is_told_not_guessed(
    game: str, phase: dict[str, Any], sender: str, text: str, players: set[str]
) -> None:
    renamed = _CHESS_NAMES if game == "chess32" else {"阿杰": "目标", "小明": "对象"}
    result = read(game, phase, sender, text + ("\n" + POST if sender == "樊哙" else ""), renamed)
    assert result.commands == ()
    [alert] = result.alerts
    assert alert.kind == "ambiguous_name"
    assert all(p in alert.message for p in players)


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("投票给目标：老K", "!unknown_name"),  # 老K plays in no game here: the name is told
        ("投票：目标", "vote 目标"),
        ("投票对象：对象", "vote 对象"),  # the same player either way
        ("投票：投票君", "vote 投票君"),
    ],
)
def test_ballots_for_players_named_after_ballot_and_object_words(text: str, meant: str) -> None:
    result = read("game6-10", DAY, "Rex", text, {"阿杰": "目标", "老王": "对象", "小明": "投票君"})
    assert summary(result) == [meant]
