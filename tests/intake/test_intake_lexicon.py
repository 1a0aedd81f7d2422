"""The grammar is built from the lexicon: every word of it is read as what it says."""

from __future__ import annotations

import pytest

from shenshi.intake import lexicon
from shenshi.intake.grammar import read_actions, read_votes
from shenshi.intake.names import NameIndex
from shenshi.intake.text import fold

INDEX = NameIndex(["小明", "阿杰", "老王"])


@pytest.mark.parametrize(("word", "intents"), lexicon.VERBS, ids=[w for w, _ in lexicon.VERBS])
def test_every_command_word_reads_its_action(word: str, intents: tuple[str, ...]) -> None:
    assert fold(word) == word, "lexicon words are written folded"
    found = read_actions(f"{word} 老王", INDEX)
    assert [(p.intents, p.target.player if p.target else None) for p in found] == [
        (intents, "老王")
    ]


BALLOT_WORDS = [
    *lexicon.VOTE_WORDS,
    lexicon.VOTE_WORD,
    *(p + lexicon.VOTE_WORD for p in lexicon.VOTE_ROUND_PREFIXES),
    *(lexicon.VOTE_WORD + link for link in lexicon.VOTE_LINKS),
    lexicon.VOTE_WEAK,
]


@pytest.mark.parametrize("word", BALLOT_WORDS)
def test_every_ballot_word_reads_a_ballot(word: str) -> None:
    found = read_votes(f"{word} 老王", INDEX)
    assert [(p.intents, p.target.player if p.target else None) for p in found] == [
        (("vote",), "老王")
    ]


@pytest.mark.parametrize("word", lexicon.VOTE_CHANGE_WORDS)
def test_every_change_word_reads_a_changed_ballot(word: str) -> None:
    found = read_votes(f"{word} 老王", INDEX)
    assert [(p.intents, p.change, p.target.player if p.target else None) for p in found] == [
        (("vote",), True, "老王")
    ]


@pytest.mark.parametrize("word", lexicon.ABSTAIN_WORDS)
def test_every_abstention_word_reads_an_abstention(word: str) -> None:
    assert [p.intents for p in read_votes(word, INDEX)] == [("abstain",)]


@pytest.mark.parametrize("marker", lexicon.QUESTION_MARKERS)
def test_a_question_before_a_ballot_makes_it_conditional(marker: str) -> None:
    text = f"投票：老王{marker}" if marker == "?" else f"{marker}，投票：老王"
    found = read_votes(text, INDEX)
    assert found and all(p.conditional for p in found)


@pytest.mark.parametrize("marker", lexicon.QUESTION_FINAL)
def test_a_question_particle_ending_the_ballot_makes_it_conditional(marker: str) -> None:
    found = read_votes(f"投老王{marker}，大家说", INDEX)
    assert found and all(p.conditional for p in found)


def test_a_question_in_the_reason_does_not_qualify_the_ballot() -> None:
    found = read_votes("投票：老王，理由：他是不是杀手大家心里有数吗？", INDEX)
    assert [(p.target.player, p.conditional) for p in found] == [("老王", False)]


@pytest.mark.parametrize("marker", lexicon.CONDITION_MARKERS)
def test_a_condition_marker_makes_a_ballot_conditional(marker: str) -> None:
    found = read_votes(f"{marker}大家都同意，投票：老王", INDEX)
    assert found and all(p.conditional for p in found)


@pytest.mark.parametrize("filler", lexicon.FILLER_WORDS)
def test_filler_words_may_stand_before_a_command_word(filler: str) -> None:
    assert [p.intents for p in read_actions(f"{filler}占卜 老王", INDEX)] == [("divine",)]


@pytest.mark.parametrize("confirm", lexicon.CONFIRM_WORDS)
def test_every_confirm_word_locks_the_command_before_it(confirm: str) -> None:
    assert [p.confirm for p in read_actions(f"【杀人】老王\n{confirm}", INDEX)] == [True]


@pytest.mark.parametrize("word", lexicon.PLATFORM_WORDS)
def test_every_platform_word_names_a_platform(word: str) -> None:
    found = read_actions(f"炮打老王，{word}：小明", INDEX)
    assert [(p.target.player, p.platform.player if p.platform else None) for p in found] == [
        ("老王", "小明")
    ]


@pytest.mark.parametrize("word", lexicon.DECLARATION_WORDS)
def test_every_declaration_word_opens_a_declaration(word: str) -> None:
    found = read_actions(f"杀 老王\n{word}：月黑风高", INDEX)
    assert [(p.intents[0], p.declaration) for p in found] == [("kill", "月黑风高")]


def test_the_demo_players_write_the_lexicon_s_command_words() -> None:
    from shenshi.demo.players import VERB

    assert VERB is lexicon.COMMAND_WORDS
    for action, word in lexicon.COMMAND_WORDS.items():
        assert action in dict(lexicon.VERBS).get(fold(word), ()), (action, word)
