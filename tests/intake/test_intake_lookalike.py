"""What a reader sees (issue 24): names read through the UTS #39 confusables skeleton.

A look-alike counts for the player it looks like (with an alert naming the look-alike letters),
a skeleton two players share names neither, a name written exactly always wins, and a name run
on past a player's name is never the shorter player.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shenshi.intake.lookalike import describe, lookalike_letters, seen
from shenshi.intake.names import NameIndex
from shenshi.intake.text import Folded, fold


def _read(index: NameIndex, written: str) -> tuple[str | None, int, bool] | None:
    match = index.match_at(Folded.of(written), 0)
    return None if match is None else (match.player, match.end, match.lookalike)


def test_the_skeleton_is_icus_uts39_skeleton_case_folded() -> None:
    assert seen("Annа") == seen("Anna") == "anna"  # Cyrillic а
    assert seen("Iris") == seen("lris") != seen("iris")  # a capital I looks like l
    assert seen("エ藤") == seen("工藤")  # katakana エ, CJK 工
    assert seen("0leg") == seen("Oleg")
    assert seen("m") == seen("rn")
    assert seen("韓信") == seen("韩信")  # traditional → simplified first, as intake folds


def test_a_longer_look_alike_is_the_longer_player_never_the_shorter() -> None:
    index = NameIndex(["Ann", "Anna"])
    assert _read(index, "Annа") == ("Anna", 4, True)
    assert _read(index, "Anna") == ("Anna", 4, False)
    assert _read(index, "Ann") == ("Ann", 3, False)


def test_a_name_written_exactly_wins_over_a_look_alike_twin() -> None:
    index = NameIndex(["Kira", "Кira"])  # the second with a Cyrillic К
    assert _read(index, "Kira") == ("Kira", 4, False)
    assert _read(index, "Кira") == ("Кira", 4, False)
    assert _read(index, "Κira") == (None, 4, True)  # a Greek Κ: both look alike, neither
    assert set(index.suggest("Κira")[:2]) == {"Kira", "Кira"}


def test_nicknames_are_read_through_the_skeleton_too() -> None:
    index = NameIndex(["老K", "糖糖"], {"K哥": "老K"})
    assert _read(index, "Κ哥") == ("老K", 2, True)


def test_suggestions_put_the_players_a_run_on_name_begins_with_first() -> None:
    index = NameIndex(["老K", "老王", "Ann"])
    assert index.suggest("老K喵")[0] == "老K"
    assert index.suggest("Annа")[0] == "Ann"


def test_the_alert_names_each_look_alike_letter() -> None:
    assert lookalike_letters("Annа", ("Anna",)) == ("а",)
    assert lookalike_letters("LiIy", ("Lily",)) == ("I",)
    assert lookalike_letters("Тirn", ("Tim",)) == ("Т", "r", "n")
    assert lookalike_letters("Κ妹", ("Kira", "K妹")) == ("Κ",)
    assert describe(("а",)) == "а (U+0430 CYRILLIC SMALL LETTER A)"


# Names and writings drawn from letters that look alike across scripts.
_LETTERS = "AaаАIlІ1|0OОoοKΚКmrnエ工力カ"
_names = st.text(alphabet=_LETTERS, min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(names=st.lists(_names, min_size=1, max_size=5, unique=True), written=_names)
def test_a_name_read_is_one_the_writing_is_or_looks_like(names: list[str], written: str) -> None:
    """Whatever is written, the player read is one whose folded name, or whose skeleton, is
    exactly what was read; a skeleton shared by two players names neither."""
    index = NameIndex(names)
    folded = Folded.of(written)
    match = index.match_at(folded, 0)
    if match is None or match.player is None:
        return
    read = folded.original_slice(0, match.end)
    if match.lookalike:
        assert seen(read) == seen(match.player)
        assert [n for n in names if seen(n) == seen(read)] == [match.player]
    else:
        assert fold(read) == fold(match.player) or read == match.player
