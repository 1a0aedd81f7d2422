"""The Chinese command grammar: where a command starts, what it says, which names it names.

Reading happens on the folded text (:mod:`shenshi.intake.text`). A command word counts only
at the start of a clause (the start of a line, or after 。！？；，), optionally after a few
filler words (我, 今晚, 就 …): "昨天投白色的猫很奇怪" is talk, "我投白色的猫，理由：…" is a
ballot. Questions (？, 吗, 请问 …) are never commands. A command word followed by something
that is not a player's name is talk, unless it is plainly meant as a command (a separator
such as ``：`` or a space follows the word, or the text looks like a misspelt name): then it
is an unresolved name for an alert.

This module only reads; :mod:`shenshi.intake.validate` decides what the game allows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from shenshi.intake import lexicon
from shenshi.intake.names import NameIndex
from shenshi.intake.text import Folded

# A name that is not a player's is still treated as meant when it scores this close to one.
MEANT_SCORE = 75
MAX_TOKEN = 16
SELF = "\x00self"  # NameRef.player for 自己 / 我自己: the sender, filled in by validation

_CLAUSE_BREAK = "。.!?;,~…\n"
_SEP = re.compile(r"[ \t:=\-—>→~・·]*(?:一下|下)?[ \t:]*")
_OPEN = {"「": "」", "『": "』", "【": "】", "“": "”", '"': '"', "'": "'", "‘": "’", "《": "》",
         "(": ")", "<": ">", "[": "]", "〈": "〉", "〔": "〕"}  # fmt: skip
_TOKEN_END = re.compile(r"[\s。.!?;,~、/()\[\]【】「」『』“”\"'‘’《》<>:…]")
_LIST_SEP = re.compile(r"[ \t]*(?:、|,|/|&|和|与|跟|及|以及|或者?|还有|[ \t])[ \t]*")


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first (a space matches any spacing)."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s*") for w in ordered) + ")"


_SELF = re.compile(_alt(lexicon.SELF_WORDS) + "(?!人)")
_QUESTION = re.compile(
    _alt(lexicon.QUESTION_MARKERS) + "|" + _alt(lexicon.QUESTION_FINAL) + "$"
)
_CONDITION = re.compile(_alt(lexicon.CONDITION_MARKERS))
_FILLER = (
    r"(?:(?:" + _alt(lexicon.FILLER_WORDS)
    + r"|第[一二三四五六七八九十\d]+[" + lexicon.FILLER_ORDINAL_UNITS + r"])[ \t]*)*"
)

# Vote words (thread posts).
_VOTE_CHANGE = re.compile(
    _FILLER + _alt(lexicon.VOTE_CHANGE_WORDS) + _alt(lexicon.VOTE_CHANGE_LINKS) + "?"
)
_VOTE_STRONG = re.compile(
    _FILLER
    + "(?:" + _alt(lexicon.VOTE_ROUND_PREFIXES) + "?" + re.escape(lexicon.VOTE_WORD)
    + _alt(lexicon.VOTE_LINKS) + "?|" + _alt(lexicon.VOTE_WORDS) + ")"
)
_VOTE_WEAK = re.compile(
    _FILLER + re.escape(lexicon.VOTE_WEAK) + "(?![" + lexicon.VOTE_WEAK_NOT_BEFORE + "])"
)
_ABSTAIN = re.compile(
    _FILLER
    + _alt(lexicon.ABSTAIN_LEADS) + "?"
    + "(?:" + _alt(lexicon.ABSTAIN_VOTE_LEADS) + r"[ \t:]*)?"
    + _alt(lexicon.ABSTAIN_WORDS)
    + r"(?=$|[\s。.!?;,~、()\[\]【】…]|票)"
)

# PM verbs: folded text -> intents (resolved against the sender's powers by validate).
# Single-character verbs are "weak": they need a name or a separator right after them.
_VERB_RE = re.compile(_FILLER + "(" + _alt(w for w, _ in lexicon.VERBS) + ")")
_VERB_INTENTS = dict(lexicon.VERBS)
_VERB_PARTICLES = tuple(lexicon.VERB_PARTICLES)
_PRAY_FOR = re.compile(_FILLER + _alt(lexicon.PRAY_FOR_LEADS))  # 为X祈祷
_PRAY_AFTER = re.compile(r"[ \t]*" + _alt(lexicon.PRAY_FOR_WORDS))
_PLATFORM = re.compile(
    _alt(lexicon.PLATFORM_WORDS) + r"[ \t]*" + _alt(lexicon.PLATFORM_LINKS) + "?"
)
_DECLARATION = re.compile(
    _alt(lexicon.DECLARATION_WORDS) + r"[ \t]*" + _alt(lexicon.DECLARATION_LEADS) + r"?[ \t:]*"
)
_LAST_WORDS = re.compile(_FILLER + _alt(lexicon.LAST_WORDS) + r"[ \t:]*")
_ACCUSE = re.compile(r"(?:我)?" + _alt(lexicon.ACCUSE_WORDS) + r"[ \t:]*")
_DELEGATE_TO = re.compile(_FILLER + _alt(lexicon.DELEGATE_TO_LEADS))
_DELEGATE_TO_AFTER = re.compile(r"[ \t]*" + _alt(lexicon.DELEGATE_TO_WORDS) + r"[ \t]*投")
_CONFIRM = re.compile(r"^[ \t]*" + _alt(lexicon.CONFIRM_WORDS) + r"[ \t。.!]*$")
_SPEED_UP = re.compile(
    re.escape(lexicon.SPEED_UP[0])
    + r"(?:第([一二三四五六七八九十\d]+)[" + lexicon.DAY_UNITS + "])?"
    + re.escape(lexicon.SPEED_UP[1])
)
_SLOW_DOWN = re.compile(_alt(lexicon.SLOW_DOWN_LEADS) + "?" + re.escape(lexicon.SLOW_DOWN))
_CN_DIGITS = lexicon.CN_DIGITS


def _after_sep(text: str, pos: int) -> int:
    """The position after the separators (spaces, colons, arrows, 一下) at ``pos``."""
    m = _SEP.match(text, pos)
    return m.end() if m else pos


@dataclass(frozen=True)
class NameRef:
    """A name as written after a command word.

    Exactly one of these holds: ``player`` is set (resolved), ``ambiguous`` is non-empty, or the
    name is unknown (``written`` is what was written, possibly empty: missing).
    """

    written: str
    player: str | None = None
    ambiguous: tuple[str, ...] = ()

    @property
    def resolved(self) -> bool:
        return self.player is not None


@dataclass(frozen=True)
class Parsed:
    """One command as written, before the game decides whether it counts."""

    intents: tuple[str, ...]  # candidate actions, best first
    verb: str  # the command word as written
    pos: int  # folded position of the command word (ordering)
    target: NameRef | None = None
    more_targets: tuple[NameRef, ...] = ()  # further names listed after the first
    platform: NameRef | None = None
    target2: NameRef | None = None
    change: bool = False
    conditional: bool = False
    declaration: str | None = None  # kills: the rest of the PM; last words: their text
    story: bool = False
    confirm: bool = False
    accused: tuple[NameRef, ...] = ()
    number: int | None = None  # speed-up day


@dataclass
class _Reader:
    folded: Folded
    index: NameIndex
    found: list[Parsed] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.folded.text

    # -- positions ---------------------------------------------------------------------------
    def clause_starts(self, start: int = 0, end: int | None = None) -> list[int]:
        stop = len(self.text) if end is None else end
        starts = []
        at_start = True
        for i in range(start, stop):
            ch = self.text[i]
            if ch in _CLAUSE_BREAK:
                at_start = True
                continue
            if at_start and not ch.isspace():
                starts.append(i)
                at_start = False
        return starts

    def line_bounds(self, pos: int) -> tuple[int, int]:
        begin = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        return begin, len(self.text) if end < 0 else end

    def sentence_bounds(self, pos: int) -> tuple[int, int]:
        begin = max(self.text.rfind(c, 0, pos) for c in "。!?\n") + 1
        ends = [i for i in (self.text.find(c, pos) for c in "。!?\n") if i >= 0]
        return begin, min(ends) if ends else len(self.text)

    def sentence(self, pos: int) -> str:
        begin, end = self.sentence_bounds(pos)
        return self.text[begin:end]

    def is_question(self, pos: int) -> bool:
        """True when the sentence holding ``pos`` asks something."""
        begin, end = self.sentence_bounds(pos)
        return bool(_QUESTION.search(self.text[begin:end])) or self.text[end : end + 1] == "?"

    # -- names ------------------------------------------------------------------------------
    def read_name(self, pos: int, strict: bool) -> tuple[NameRef | None, int]:
        """Read one name at ``pos`` (after separators, ``@`` and an opening bracket).

        Returns ``(None, pos)`` when nothing there is meant as a name. ``strict`` says the
        command word was followed by a separator: then any token is meant as a name.
        """
        text = self.text
        after = _after_sep(text, pos)
        had_sep = strict or after > pos
        pos = after
        if pos < len(text) and text[pos] == "@":
            pos += 1
            had_sep = True
        if pos < len(text) and text[pos] in _OPEN:
            close = _OPEN[text[pos]]
            end = text.find(close, pos + 1)
            line_end = self.line_bounds(pos)[1]
            if 0 < end <= line_end and end - pos - 1 <= 24:
                inner = self.folded.original_slice(pos + 1, end).strip().lstrip("@＠")
                match = self.index.resolve(inner)
                if match is not None:
                    return NameRef(inner, match.player, match.ambiguous), end + 1
                if inner:
                    return NameRef(inner), end + 1
        match = self.index.match_at(self.folded, pos)
        if match is not None:
            written = self.folded.original_slice(pos, match.end)
            return NameRef(written, match.player, match.ambiguous), match.end
        me = _SELF.match(text, pos)
        if me:
            return NameRef(self.folded.original_slice(pos, me.end()), SELF), me.end()
        tok = _TOKEN_END.search(text, pos)
        tok_end = min(tok.start() if tok else len(text), pos + MAX_TOKEN)
        written = self.folded.original_slice(pos, tok_end).strip()
        if not written:
            return (NameRef("") if had_sep else None), pos
        if had_sep or self.index.best_score(written) >= MEANT_SCORE:
            return NameRef(written), tok_end
        return None, pos

    def read_more_names(self, pos: int) -> tuple[list[NameRef], int]:
        """Names listed right after a first one (``阿杰、小明``, ``阿杰 和 小明``)."""
        more: list[NameRef] = []
        while True:
            m = _LIST_SEP.match(self.text, pos)
            if not m or m.end() == pos:
                return more, pos
            nxt = m.end()
            if nxt < len(self.text) and self.text[nxt] in _OPEN:
                if not m.group(0).strip():
                    return more, pos  # "花间（昨天发言太水）": a reason in brackets, not a name
                ref, end = self.read_name(nxt, strict=False)
            else:
                match = self.index.match_at(self.folded, nxt)
                if match is None:
                    return more, pos
                written = self.folded.original_slice(nxt, match.end)
                ref, end = NameRef(written, match.player, match.ambiguous), match.end
            if ref is None:
                return more, pos
            if (
                m.group(0).strip() == ""
                and end < len(self.text)
                and self.text[end] not in _CLAUSE_BREAK + " \t、"
            ):
                return more, pos  # "投 阿杰 老王也可疑": a space then a sentence, not a list
            more.append(ref)
            pos = end


def _skip_own_prefix(reader: _Reader, start: int, author_keys: tuple[str, ...]) -> int:
    """Skip "Lily99：" at a line start (players often sign their posts that way)."""
    for key in author_keys:
        if key and reader.text.startswith(key, start):
            rest = start + len(key)
            if rest < len(reader.text) and reader.text[rest] == ":":
                return rest + 1
    return start


def _line_starts(text: str) -> list[int]:
    return [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]


# -- thread posts ------------------------------------------------------------------------------
def read_votes(text: str, index: NameIndex, author_keys: tuple[str, ...] = ()) -> list[Parsed]:
    """Every ballot written in a post's own text (quotes already removed).

    Each item has intents ``("vote",)`` or ``("abstain",)``; ``change`` marks 改票;
    ``conditional`` a ballot inside an if-sentence; ``more_targets`` further listed names.
    """
    reader = _Reader(Folded.of(text), index)
    text_f = reader.text
    starts: list[int] = []
    for ls in _line_starts(text_f):
        begin = _skip_own_prefix(reader, ls, author_keys)
        line_end = reader.line_bounds(begin)[1] if begin < len(text_f) else begin
        starts.extend(reader.clause_starts(begin, line_end))
    found: list[Parsed] = []
    for pos in starts:
        parsed = _read_ballot(reader, pos)
        if parsed is not None:
            # A ballot asked as a question ("投阿杰？") is not a ballot the GM can count.
            found.append(_with(parsed, conditional=True) if reader.is_question(pos) else parsed)
    return found


def _abstention(
    reader: _Reader, pos: int, end: int, conditional: bool, change: bool = False
) -> Parsed:
    verb = reader.folded.original_slice(pos, end)
    return Parsed(("abstain",), verb, pos, change=change, conditional=conditional)


def _read_ballot(reader: _Reader, pos: int) -> Parsed | None:
    text = reader.text
    conditional = bool(_CONDITION.search(reader.sentence(pos)))
    m = _ABSTAIN.match(text, pos)
    if m:
        return _abstention(reader, pos, m.end(), conditional)
    change = False
    m = _VOTE_CHANGE.match(text, pos)
    if m:
        change = True
        after = _after_sep(text, m.end())
        inner = _ABSTAIN.match(text, after)
        if inner:
            return _abstention(reader, pos, inner.end(), conditional, change=True)
        inner = _VOTE_STRONG.match(text, after) or _VOTE_WEAK.match(text, after)
        end = inner.end() if inner else m.end()
        strict = True
    else:
        m = _VOTE_STRONG.match(text, pos)
        strict = bool(m)
        if m:
            inner = _ABSTAIN.match(text, _after_sep(text, m.end()))
            if inner:
                return _abstention(reader, pos, inner.end(), conditional)
        m = m or _VOTE_WEAK.match(text, pos)
        if not m:
            return None
        end = m.end()
    verb = reader.folded.original_slice(pos, end)
    ref, after = reader.read_name(end, strict=False)
    if ref is None:
        # A strong word with nothing after it on its clause ("投票：") is a vote missing its name.
        rest = text[end:].split("\n", 1)[0]
        if strict and not rest.strip(" \t:："):
            return Parsed(("vote",), verb, pos, NameRef(""), change=change, conditional=conditional)
        return None
    more, _ = reader.read_more_names(after) if ref.written else ([], after)
    return Parsed(("vote",), verb, pos, ref, tuple(more), change=change, conditional=conditional)


# -- PMs and werewolf skill replies ------------------------------------------------------------
def read_actions(text: str, index: NameIndex) -> list[Parsed]:
    """Every command written in a PM (or a 功能树洞 reply), in order.

    After a kill line everything that follows is its declaration. A line "确定" locks the
    command before it (``confirm``). Vote words in a PM are delegated votes.
    """
    reader = _Reader(Folded.of(text), index)
    text_f = reader.text
    found: list[Parsed] = []
    decl_before: tuple[int, int, int] | None = None  # marker, body start, body end
    pos_list = reader.clause_starts()
    consumed_to = 0
    for pos in pos_list:
        if pos < consumed_to:
            continue
        line_begin, line_end = reader.line_bounds(pos)
        if _CONFIRM.match(text_f[line_begin:line_end]) and pos == _first_non_space(
            text_f, line_begin
        ):
            if found:
                found[-1] = _with(found[-1], confirm=True)
            continue
        if reader.is_question(pos):
            continue
        m = _LAST_WORDS.match(text_f, pos)
        if m:
            found.append(_read_last_words(reader, pos, m.end()))
            break
        m = _DECLARATION.match(text_f, pos)
        if m and pos == _first_non_space(text_f, line_begin):
            nxt_kill = _find_kill_after(reader, m.end())
            stop = nxt_kill if nxt_kill is not None else len(text_f)
            decl_before = (pos, m.end(), stop)
            if nxt_kill is None:
                body = reader.folded.original_slice(m.end(), stop).strip()
                found.append(
                    Parsed(
                        ("kill_declaration",),
                        reader.folded.original_slice(pos, m.end()),
                        pos,
                        declaration=body,
                        story=lexicon.STORY_WORD in text_f[pos : m.end()],
                    )
                )
                break
            consumed_to = nxt_kill
            continue
        speed = _SPEED_UP.match(text_f, pos)
        if speed:
            found.append(
                Parsed(
                    ("speed_up",),
                    reader.folded.original_slice(pos, speed.end()),
                    pos,
                    number=_cn_number(speed.group(1)),
                )
            )
            continue
        slow = _SLOW_DOWN.match(text_f, pos)
        if slow:
            found.append(Parsed(("slow_down",), reader.folded.original_slice(pos, slow.end()), pos))
            continue
        hit = (
            _read_delegate_to(reader, pos)
            or _read_pray_for(reader, pos)
            or _read_verb(reader, pos)
            or _read_pm_vote(reader, pos)
        )
        if hit is None:
            continue
        parsed, end = hit
        if "kill" in parsed.intents or "cannon_kill" in parsed.intents:
            parsed, end = _attach_platform(reader, parsed, end)
            if decl_before is not None:
                marker, body_start, body_end = decl_before
                body = reader.folded.original_slice(body_start, body_end).strip()
                story = lexicon.STORY_WORD in text_f[marker:body_start]
            else:
                body, story = _declaration_after(reader, end)
            found.append(_with(parsed, declaration=body, story=story))
            # The declaration may still hold a 确定 line at its very end (werewolf).
            tail_lines = text_f[end:].rstrip().split("\n")
            if len(tail_lines) > 1 and _CONFIRM.match(tail_lines[-1]):
                found[-1] = _with(found[-1], confirm=True)
            break
        found.append(parsed)
        consumed_to = end
    return found


def _first_non_space(text: str, begin: int) -> int:
    i = begin
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _with(p: Parsed, **changes) -> Parsed:
    return Parsed(**{**p.__dict__, **changes})


def _cn_number(s: str | None) -> int | None:
    if not s:
        return None
    if s.isdigit():
        return int(s)
    if s in _CN_DIGITS:
        return _CN_DIGITS[s]
    if s.startswith("十"):
        return 10 + _CN_DIGITS.get(s[1:], 0)
    return None


def _read_verb(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    text = reader.text
    m = _VERB_RE.match(text, pos)
    if not m:
        return None
    word = m.group(1)
    intents = _VERB_INTENTS[word]
    verb = reader.folded.original_slice(pos, m.end())
    weak = len(word) == 1
    start = m.end()
    if text.startswith(_VERB_PARTICLES, start) and not word.startswith("【"):
        start += 1  # 杀了老王 / 杀掉老王
    ref, end = reader.read_name(start, strict=not weak and word.startswith("【"))
    if ref is None:
        rest = text[m.end() :].split("\n", 1)[0]
        if not weak and not rest.strip(" \t:"):
            return Parsed(intents, verb, pos, NameRef("")), m.end()  # "占卜：" and nothing
        return None
    if "pair_lovers" in intents:
        more, end2 = reader.read_more_names(end)
        if not more:
            ref2, end2b = reader.read_name(end, strict=False)
            if ref2 is not None:
                more, end2 = [ref2], end2b
        target2 = more[0] if more else None
        return Parsed(intents, verb, pos, ref, tuple(more[1:]), target2=target2), end2
    more, end = (
        reader.read_more_names(end) if ref.written and "delegate_vote" not in intents else ([], end)
    )
    return Parsed(intents, verb, pos, ref, tuple(more)), end


def _read_pray_for(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """为X祈祷 / 给X祈祷."""
    m = _PRAY_FOR.match(reader.text, pos)
    if not m:
        return None
    match = reader.index.match_at(reader.folded, _after_sep(reader.text, m.end()))
    if match is None:
        return None
    after = _PRAY_AFTER.match(reader.text, match.end)
    if not after:
        return None
    start = _after_sep(reader.text, m.end())
    written = reader.folded.original_slice(start, match.end)
    verb = reader.folded.original_slice(pos, after.end())
    return Parsed(
        ("pray",), verb, pos, NameRef(written, match.player, match.ambiguous)
    ), after.end()


def _read_delegate_to(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """委托阿杰帮我投 …: delegating to another player, which the rules forbid (D-D)."""
    m = _DELEGATE_TO.match(reader.text, pos)
    if not m:
        return None
    start = _after_sep(reader.text, m.end())
    match = reader.index.match_at(reader.folded, start)
    if match is None:
        return None
    after = _DELEGATE_TO_AFTER.match(reader.text, match.end)
    if not after:
        return None
    written = reader.folded.original_slice(start, match.end)
    line_end = reader.line_bounds(pos)[1]
    return (
        Parsed(
            ("delegate_to_player",),
            reader.folded.original_slice(pos, after.end()),
            pos,
            NameRef(written, match.player, match.ambiguous),
        ),
        line_end,
    )


def _read_pm_vote(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    parsed = _read_ballot(reader, pos)
    if parsed is None:
        return None
    end = pos + len(parsed.verb)
    intents = ("delegate_vote",) if parsed.intents == ("vote",) else ("delegate_abstain",)
    return _with(parsed, intents=intents), reader.line_bounds(pos)[1] if parsed.target else end


_PLATFORM_AS = re.compile(_alt(lexicon.PLATFORM_AS_LEADS) + r"[ \t]*")
_PLATFORM_AS_AFTER = re.compile(
    r"[ \t]*" + _alt(lexicon.PLATFORM_AS_LINKS) + r"[ \t]*" + _alt(lexicon.PLATFORM_AS_WORDS)
)


def _attach_platform(reader: _Reader, parsed: Parsed, end: int) -> tuple[Parsed, int]:
    """炮打X，炮架子：Y / 炮 X 架 Y / 以Y为炮架 / a next line "炮架子 Y"."""
    text = reader.text
    line_end = reader.line_bounds(end)[1] if end < len(text) else end
    search_end = line_end
    nxt_end = text.find("\n", line_end + 1)
    nxt_end = len(text) if nxt_end < 0 else nxt_end
    if line_end < len(text):
        nxt_first = _first_non_space(text, line_end + 1)
        if _PLATFORM.match(text, nxt_first):
            search_end = nxt_end
    pos = end
    while pos < search_end:
        m = _PLATFORM_AS.match(text, pos)
        if m and "cannon_kill" in parsed.intents:
            match = reader.index.match_at(reader.folded, m.end())
            after = _PLATFORM_AS_AFTER.match(text, match.end) if match else None
            if match is not None and after is not None:
                written = reader.folded.original_slice(m.end(), match.end)
                ref = NameRef(written, match.player, match.ambiguous)
                intents = ("cannon_kill",) + tuple(i for i in parsed.intents if i != "cannon_kill")
                return _with(parsed, platform=ref, intents=intents), after.end()
        m = _PLATFORM.match(text, pos)
        if m and (pos == end or text[pos - 1] in _CLAUSE_BREAK + " \t:"):
            ref, ref_end = reader.read_name(m.end(), strict=True)
            if ref is not None:
                if "cannon_kill" not in parsed.intents:
                    return parsed, end
                intents = ("cannon_kill",) + tuple(i for i in parsed.intents if i != "cannon_kill")
                return _with(parsed, platform=ref, intents=intents), ref_end
        pos += 1
    return parsed, end


def _declaration_after(reader: _Reader, end: int) -> tuple[str, bool]:
    text = reader.text
    pos = end
    while pos < len(text) and (text[pos] in _CLAUSE_BREAK + " \t:)】」』”" or text[pos] == "\n"):
        pos += 1
    m = _DECLARATION.match(text, pos)
    story = False
    if m:
        story = lexicon.STORY_WORD in text[pos : m.end()]
        pos = m.end()
    body = reader.folded.original_from(pos).strip()
    lines = body.split("\n")
    if len(lines) > 1 and _CONFIRM.match(lines[-1]):
        body = "\n".join(lines[:-1]).rstrip()
    return body, story


def _find_kill_after(reader: _Reader, pos: int) -> int | None:
    for start in _line_starts(reader.text):
        if start <= pos:
            continue
        first = _first_non_space(reader.text, start)
        m = _VERB_RE.match(reader.text, first)
        if m and (
            "kill" in _VERB_INTENTS[m.group(1)] or "cannon_kill" in _VERB_INTENTS[m.group(1)]
        ):
            ref, _ = reader.read_name(m.end(), strict=False)
            if ref is not None:
                return first
    return None


def _read_last_words(reader: _Reader, pos: int, body_start: int) -> Parsed:
    text = reader.text
    accused: list[NameRef] = []
    for m in _ACCUSE.finditer(text, body_start):
        ref, after = reader.read_name(m.end(), strict=True)
        if ref is None or not ref.written:
            continue
        accused.append(ref)
        more, _ = reader.read_more_names(after)
        accused.extend(more)
    body = reader.folded.original_from(body_start).strip()
    return Parsed(
        ("last_words",),
        reader.folded.original_slice(pos, body_start),
        pos,
        declaration=body,
        accused=tuple(accused),
    )


def read_accusations(text: str, index: NameIndex) -> tuple[NameRef, ...]:
    """指控 X、Y in a text that is last words as a whole (a chess victim's post)."""
    reader = _Reader(Folded.of(text), index)
    return _read_last_words(reader, 0, 0).accused


def has_vote_words(text: str) -> bool:
    """True when a PM mentions voting at all (used to tell chess/werewolf players to post)."""
    return bool(_VOTE_MENTION.search(Folded.of(text).text))


_VOTE_MENTION = re.compile(_alt(lexicon.VOTE_MENTIONS))
