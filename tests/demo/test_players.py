"""What the scripted players write: talk is never a command, mistakes are the intended ones."""

from __future__ import annotations

import random

import pytest

from shenshi.demo import texts
from shenshi.demo.players import _fullwidth, _misspelt
from shenshi.demo.script import load_script
from shenshi.intake.grammar import read_actions, read_votes
from shenshi.intake.names import NameIndex
from shenshi.intake.text import fold

SCRIPTS = ("game5", "game6-10", "game6-13", "chess32")


@pytest.mark.parametrize("ruleset", SCRIPTS)
def test_analysis_chat_and_last_words_hold_no_command(ruleset: str) -> None:
    names = load_script(ruleset).names
    index = NameIndex(names)
    rng = random.Random(1)
    for _ in range(200):
        for text in (texts.analysis(rng, names), texts.chat(rng)):
            assert not read_votes(text, index), text
            assert not read_actions(text, index), text


@pytest.mark.parametrize("chars", [60, 100, 150, 168])
def test_a_declaration_has_exactly_the_scripted_length(chars: int) -> None:
    text = texts.declaration(random.Random(chars), chars, "小明")
    assert texts.count_chars(text) == chars and text.startswith("关于小明")


@pytest.mark.parametrize("ruleset", SCRIPTS)
def test_a_misspelt_name_names_nobody(ruleset: str) -> None:
    names = load_script(ruleset).names
    index = NameIndex(names)
    rng = random.Random(7)
    for name in names:
        wrong = _misspelt(name, names, rng)
        assert wrong != name and not any(fold(n) in fold(wrong) for n in names)
        assert index.resolve(wrong) is None
        assert name in index.suggest(wrong) or len(name) <= 2


def test_a_fullwidth_name_still_resolves() -> None:
    index = NameIndex(["Tom_2", "Lily99", "小明"])
    assert _fullwidth("Tom_2") == "Ｔｏｍ＿２"
    assert index.resolve(_fullwidth("Tom_2")).player == "Tom_2"
    assert _fullwidth("小明") == "小明"
