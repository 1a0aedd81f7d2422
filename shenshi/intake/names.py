"""Name resolution: which player a written name means, or why it cannot be said.

Layers, strictest first: the exact name; then the folded name (case-insensitive, full-width to
half-width by NFKC, traditional to simplified), with a leading ``@`` and surrounding brackets
or quotes removed by the grammar (unless they belong to the name: ``[SK]Leo``, ``@小白``); then
the GM's nicknames from the config; then what a reader sees, the Unicode confusables skeleton
(:mod:`shenshi.intake.lookalike`), where it reads further than the folded name: ``Annа`` (a
Cyrillic а) is Anna even when Ann plays too, and is marked ``lookalike`` for an alert; a skeleton
two players share names neither. A folded name or nickname that fits two players is
*ambiguous*, and so is a name written with a space or brackets inside that could be a longer
player's (``Mia 2`` with Mia and Mia2). Fuzzy matching (rapidfuzz) only ever yields suggestions
for an alert, never a player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from shenshi.intake.lookalike import seen, seen_char, seen_piece
from shenshi.intake.text import Folded, fold

SUGGESTION_CUTOFF = 50  # WRatio: two-character Chinese names that share one character score 50
MAX_SUGGESTIONS = 3


_BRACKET_SWAP = str.maketrans("【】[]", "[]【】")
# What may stand inside a name as written without being part of it (Mia 2, 小鱼(儿)).
_INNER_GAPS = frozenset(" \t()[]【】「」-_.·・")


def _squeeze(key: str) -> str:
    return "".join(c for c in key if c not in _INNER_GAPS)


# What joins the parts of one name: a middle dot (Tom·Lee, 阿尔伯特·爱因斯坦) before any letter,
# a hyphen or a dot before a capitalised Latin word (Tom-Lee).
_NAME_JOINERS = "·・•"
_LATIN_JOINERS = "-."


def squeezed(name: str) -> str:
    """``name`` as the index compares it: folded, with what may stand inside a name dropped."""
    return _squeeze(fold(name))


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


@dataclass(frozen=True)
class NameMatch:
    """The outcome of reading a name at a position of a folded text.

    ``player`` is set when exactly one player fits; ``ambiguous`` lists the players when
    several do; ``end`` is the folded position just after the name. ``lookalike``: read through
    the confusables skeleton (a player then, or nobody when two players share it).
    """

    player: str | None
    end: int
    ambiguous: tuple[str, ...] = ()
    lookalike: bool = False


_SCORES_KEPT = 4096  # best_score answers kept per index


class NameIndex:
    """All the ways the players of one game can be written."""

    def __init__(
        self, names: Iterable[str], nicknames: Mapping[str, str | tuple[str, ...]] | None = None
    ):
        self.names: tuple[str, ...] = tuple(names)
        self._scores: dict[str, float] = {}  # best_score, for the tokens last asked about
        keys: dict[str, set[str]] = {}
        for name in self.names:
            keys.setdefault(fold(name), set()).add(name)
        for nick, named in (nicknames or {}).items():
            for name in (named,) if isinstance(named, str) else named:
                if name in self.names and fold(nick):
                    keys.setdefault(fold(nick), set()).add(name)
        for key in list(keys):  # 【狼】阿飞 may be written [狼]阿飞, and the other way round
            other = key.translate(_BRACKET_SWAP)
            if other != key:
                keys.setdefault(other, set()).update(keys[key])
        self._keys = {k: frozenset(v) for k, v in keys.items() if k}
        # Longest keys first so that "小明明" wins over "小明" at the same position; bucketed by
        # their first character so that reading a position looks at a few keys only.
        self._ordered = sorted(self._keys, key=len, reverse=True)
        self._by_first: dict[str, list[str]] = {}
        for key in self._ordered:
            self._by_first.setdefault(key[0], []).append(key)
        self._longest = len(self._ordered[0]) if self._ordered else 0
        self._by_squeezed: dict[str, list[tuple[str, str]]] = {}
        for key in self._ordered:
            sq = _squeeze(key)
            if sq:
                self._by_squeezed.setdefault(sq[0], []).append((sq, key))
        # What a reader sees: the skeleton of every name and nickname, and the players it fits.
        seen_keys: dict[str, set[str]] = {}
        for name in self.names:
            seen_keys.setdefault(seen(name), set()).add(name)
        for nick, named in (nicknames or {}).items():
            for name in (named,) if isinstance(named, str) else named:
                if name in self.names and seen(nick):
                    seen_keys.setdefault(seen(nick), set()).add(name)
        self._seen = {k: frozenset(v) for k, v in seen_keys.items() if k}
        self._seen_prefixes = {key[:i] for key in self._seen for i in range(1, len(key) + 1)}
        # Names that hold a space (Bob Lee): what stands before each space, and whether the word
        # after it is written in Latin letters (the word after "Bob " may still be the name).
        self._space_heads: dict[str, set[bool]] = {}
        for key in self._ordered:
            for i, ch in enumerate(key):
                if ch == " " and 0 < i < len(key) - 1 and key[i + 1] != " ":
                    self._space_heads.setdefault(key[:i], set()).add(_is_word_char(key[i + 1]))

    def match_at(self, folded: Folded, pos: int) -> NameMatch | None:
        """The name written at folded position ``pos``, or ``None`` if no name starts there: the
        longest folded name or nickname, unless what a reader sees there (the skeleton) reads
        a longer name (``Annа`` is Anna, not Ann) or the only one."""
        text = folded.text
        if pos >= len(text) or (
            pos > 0 and _is_word_char(text[pos - 1]) and _is_word_char(text[pos])
        ):
            return None
        exact = None
        for key in self._by_first.get(text[pos], ()):
            if not text.startswith(key, pos):
                continue
            end = pos + len(key)
            if _is_word_char(key[-1]) and end < len(text) and _is_word_char(text[end]):
                continue  # "tom_23" is not "Tom_2"
            exact = self._match(folded, pos, key)
            break
        if exact is not None and (exact.end >= len(text) or not text[exact.end].isalnum()):
            return exact  # nothing after it that a longer look-alike could be read from
        looks = self._seen_at(folded, pos)
        if looks is None or (exact is not None and looks[1] <= exact.end):
            return exact
        players, end = looks
        if len(players) > 1:  # a skeleton two players share: neither
            return NameMatch(None, end, lookalike=True)
        return NameMatch(next(iter(players)), end, lookalike=True)

    def could_begin(self, folded: Folded, pos: int) -> bool:
        """A quick look at one character: whether a name could begin at ``pos`` at all (as
        written or as a reader sees it); :meth:`match_at` says which."""
        ch = folded.text[pos]
        if ch in self._by_first:
            return True
        first = self._seen_prefixes
        return (
            seen_char(ch)[:1] in first
            or seen_char(folded.original[folded.origin[pos]])[:1] in first
        )

    def _seen_at(self, folded: Folded, pos: int) -> tuple[frozenset[str], int] | None:
        """The players whose skeleton is the longest one read at ``pos``, and where it ends
        (read one written character at a time while it can still begin a name's skeleton)."""
        text, origin, original = folded.text, folded.origin, folded.original
        if pos > 0 and origin[pos - 1] == origin[pos]:
            return None  # inside a written character
        first = self._seen_prefixes  # a quick look at the first character alone
        if (
            seen_char(text[pos])[:1] not in first
            and seen_char(original[origin[pos]])[:1] not in first
        ):
            return None
        found = None
        so_far = ""
        p = pos
        while p < len(text):
            q = p + 1
            while q < len(text) and origin[q] == origin[p]:
                q += 1
            so_far += seen_piece(original, origin[p], text[p:q])
            if so_far not in self._seen_prefixes:
                break
            players = self._seen.get(so_far)
            if players and not (
                _is_word_char(text[q - 1]) and q < len(text) and _is_word_char(text[q])
            ):
                found = (players, q)
            p = q
        return found

    def _match(self, folded: Folded, pos: int, key: str) -> NameMatch:
        end = pos + len(key)
        players = self._keys[key]
        if len(players) == 1:
            return NameMatch(next(iter(players)), end)
        written = folded.original_slice(pos, end)
        exact = [p for p in players if p == written]
        if len(exact) == 1:
            return NameMatch(exact[0], end)
        return NameMatch(None, end, tuple(sorted(players)))

    def longer_across(self, folded: Folded, pos: int, match: NameMatch) -> tuple[tuple[str, ...], int]:
        """Players whose longer name is written at ``pos`` with a space, a dash or brackets
        inside it (``Mia 2`` or ``Mia-2`` for Mia2, ``小鱼(儿)`` for 小鱼儿, ``Tom-2`` for Tom_2,
        when ``match`` read Mia / 小鱼 / Tom), and the folded position where that writing ends;
        ``((), pos)`` when there is none. Names are compared without those gaps."""
        text = folded.text
        squeezed: list[str] = []
        ends: list[int] = []
        i = pos
        while i < len(text) and len(squeezed) < self._longest and text[i] != "\n":
            if text[i] not in _INNER_GAPS:
                squeezed.append(text[i])
                ends.append(i + 1)
            i += 1
        written = "".join(squeezed)
        shorter = len(_squeeze(text[pos : match.end]))
        mine = set(match.ambiguous or (match.player,))
        found: set[str] = set()
        end = pos
        for sq, key in self._by_squeezed.get(written[:1], ()):
            if len(sq) <= shorter or not written.startswith(sq) or self._keys[key] <= mine:
                continue
            stop = ends[len(sq) - 1]
            if _is_word_char(sq[-1]) and stop < len(text) and _is_word_char(text[stop]):
                continue
            found.update(self._keys[key])
            end = max(end, stop)
        others = found - mine
        return (tuple(sorted(others)), end) if others else ((), pos)

    def runs_past_space(self, folded: Folded, pos: int, match: NameMatch) -> int | None:
        """Where a name written at ``pos`` ends when it goes on past a space or a joiner into
        a word, or ``None``: a space ends a name (``Bob 理由``, ``Tom lol``) unless a player's
        name holds a space right there (``Bob Leo`` where Bob Lee plays: the whole is what was
        written, not Bob) or a capitalised Latin word that is no player's name follows a Latin
        name (``Tom Lee`` where only Tom plays: that is how a full name is written, and the forum
        shows a name nobody has). So does a hyphen or a dot before a capitalised Latin word
        (``Tom-Lee``), and a name's middle dot before any letter (``Tom·Lee``, ``白菜·李``)."""
        text = folded.text
        if match.end >= len(text):
            return None
        gap = text[match.end]
        word = match.end + 1
        if gap == " ":
            while word < len(text) and text[word] == " ":
                word += 1
        elif gap not in _NAME_JOINERS + _LATIN_JOINERS:
            return None
        if word >= len(text):
            return None
        kinds = self._space_heads.get(text[pos : match.end]) if gap == " " else None
        if not kinds:
            if gap in _NAME_JOINERS:
                if not text[word].isalnum():
                    return None
                kinds = {_is_word_char(text[word])}
            elif not (
                _is_word_char(text[match.end - 1]) and text[word].isalpha() and text[word].isascii()
                and folded.original_slice(word, word + 1)[:1].isupper()
                and self.match_at(folded, word) is None
            ):
                return None  # fmt: skip
            else:
                kinds = {True}
        if _is_word_char(text[word]) not in kinds:
            return None
        latin = _is_word_char(text[word])
        end = word
        while end < len(text) and (
            _is_word_char(text[end]) if latin else (text[end].isalnum() and not text[end].isascii())
        ):
            end += 1
        return end if end > word else None

    def resolve(self, token: str) -> NameMatch | None:
        """A whole token (already stripped of ``@`` and brackets) read as one name."""
        folded = Folded.of(token.strip())
        match = self.match_at(folded, 0)
        if match is not None and match.end == len(folded.text):
            return match
        return None

    def find_all(
        self, folded: Folded, start: int = 0, end: int | None = None
    ) -> list[tuple[int, NameMatch]]:
        """Every name written in ``folded.text[start:end]``, left to right, not overlapping."""
        stop = len(folded.text) if end is None else end
        found: list[tuple[int, NameMatch]] = []
        pos = start
        while pos < stop:
            match = self.match_at(folded, pos)
            if match is not None and match.end <= stop:
                found.append((pos, match))
                pos = match.end
            else:
                pos += 1
        return found

    def suggest(self, token: str) -> tuple[str, ...]:
        """Players whose name or nickname looks like ``token`` (for an alert only): first those
        whose skeleton it has or begins with (``Annа``: Anna, Ann), then fuzzy matches."""
        key = fold(token.strip().lstrip("@"))
        if not key:
            return ()
        looks = seen(token.strip().lstrip("@"))
        out: list[str] = sorted(
            {p for k, players in self._seen.items() if looks.startswith(k) for p in players},
            key=lambda p: -len(seen(p)),
        )
        hits = process.extract(
            key, list(self._keys), scorer=fuzz.WRatio, limit=8, score_cutoff=SUGGESTION_CUTOFF
        )
        for k, _score, _ in hits:
            for name in sorted(self._keys[k]):
                if name not in out:
                    out.append(name)
        return tuple(out[:MAX_SUGGESTIONS])

    def best_score(self, token: str) -> float:
        """The best fuzzy score of ``token`` against any name (0 when there is none). The
        scores of the tokens last asked about are kept: a hostile text asks about the same
        token again and again."""
        try:
            return self._scores[token]
        except KeyError:
            pass
        key = fold(token.strip())
        hit = process.extractOne(key, list(self._keys), scorer=fuzz.WRatio) if key else None
        if len(self._scores) >= _SCORES_KEPT:
            self._scores.clear()
        score = self._scores[token] = float(hit[1]) if hit else 0.0
        return score


def nickname_map(by_player: Mapping[str, Iterable[str]]) -> dict[str, str | tuple[str, ...]]:
    """The configuration's ``{name: [nicknames]}`` turned round: ``{nickname: name}``, or, for a
    nickname the GM gave to several players, ``{nickname: (name, …)}`` (it is then ambiguous)."""
    owners: dict[str, list[str]] = {}
    for name, nicks in by_player.items():
        for nick in nicks:
            if name not in owners.setdefault(nick, []):
                owners[nick].append(name)
    return {nick: names[0] if len(names) == 1 else tuple(names) for nick, names in owners.items()}
