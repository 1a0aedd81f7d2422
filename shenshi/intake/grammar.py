"""The Chinese command grammar: where a command starts, what it says, which names it names.

Built from the words of :mod:`shenshi.intake.lexicon`. Reading happens on the folded text
(:mod:`shenshi.intake.text`). A command word counts only at the start of a clause (the start of
a line, or after 。！？；，, or after 就 in a sentence with a condition), optionally after a few
filler words (我, 今晚, 天神 …): "昨天投白色的猫很奇怪" is talk, "我投白色的猫，理由：…" is a
ballot. A command word followed by something that is not a player's name is talk, unless it is
plainly meant as a command (a separator such as ``：`` or a space follows the word, or the text
looks like a misspelt name): then it is an unresolved name for an alert.

Only the command itself can make it conditional: a condition before it in its sentence (如果…
就投X), a question around it (请问投X可以吗, 投X？), or alternatives (X或者Y). A reason after it
(投票：X，理由：他是不是杀手大家心里有数) is not read. A name followed by characters that could
extend it is read whole (``老王王`` is not ``老王``), unless what follows is plainly not part of
a name (a reason marker, 一票, a particle before a break …).

This module only reads; :mod:`shenshi.intake.actions` and ``ballots`` decide what the game allows.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

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
_TOKEN_END = re.compile(r"[\s。.!?;,~、/()\[\]【】「」『』“”\"'‘’《》<>:…\ufffd]")


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first (a space matches any spacing)."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s*") for w in ordered) + ")"


_ALTERNATIVE = re.compile(r"[ \t]*" + _alt(lexicon.ALTERNATIVE_WORDS) + r"[ \t]*")
_LIST_SEP = re.compile(
    r"[ \t]*(?:、|,|/|&|和|与|跟|及|以及|还有|" + _alt(lexicon.ALTERNATIVE_WORDS) + r"|[ \t])[ \t]*"
)
_SELF = re.compile(_alt(lexicon.SELF_WORDS) + "(?!人)")
_PRONOUN = re.compile(_alt(lexicon.PRONOUNS) + r"(?=$|[\s。.!?;,~、…)\]】」』]|一票)")
_QUESTION = re.compile(_alt(lexicon.QUESTION_MARKERS) + "|" + _alt(lexicon.QUESTION_FINAL) + "$")
_CONDITION = re.compile(_alt(lexicon.CONDITION_MARKERS))
_CONSEQUENT = re.compile(_alt(lexicon.CONDITION_CONSEQUENTS))
_TARGET_QUESTION = re.compile(_alt(lexicon.TARGET_QUESTIONS) + r"[ \t]*[?吗]?")
_FOLLOWER = re.compile(_alt(lexicon.NAME_FOLLOWERS))
_PARTICLE = re.compile(
    "[" + lexicon.NAME_PARTICLES + r"]+(?=$|[\s。.!?;,~、…)\]】」』\ufffd])"
)
_FILLER = (
    r"(?:(?:" + _alt(lexicon.FILLER_WORDS)
    + r"|第[一二三四五六七八九十\d]+[" + lexicon.FILLER_ORDINAL_UNITS + r"])[ \t]*)*"
)  # fmt: skip
_OBJECT = _alt(lexicon.OBJECT_SUFFIXES) + "?"

# Vote words (thread posts).
_VOTE_CHANGE = re.compile(
    _FILLER + _alt(lexicon.VOTE_CHANGE_WORDS) + _alt(lexicon.VOTE_CHANGE_LINKS) + "?"
)
_VOTE_STRONG = re.compile(
    _FILLER
    + "(?:" + _alt(lexicon.VOTE_ROUND_PREFIXES) + "?" + re.escape(lexicon.VOTE_WORD)
    + _alt(lexicon.VOTE_LINKS) + "?|" + _alt(lexicon.VOTE_WORDS) + ")" + _OBJECT
)  # fmt: skip
_VOTE_WEAK = re.compile(
    _FILLER + re.escape(lexicon.VOTE_WEAK) + "(?![" + lexicon.VOTE_WEAK_NOT_BEFORE + "])"
)
_ABSTAIN = re.compile(
    _FILLER
    + _alt(lexicon.ABSTAIN_LEADS) + "?"
    + "(?:" + _alt(lexicon.ABSTAIN_VOTE_LEADS) + r"[ \t:]*)?"
    + _alt(lexicon.ABSTAIN_WORDS)
    + r"(?=$|[\s。.!?;,~、()\[\]【】…]|票)"
)  # fmt: skip

# PM verbs: folded text -> intents (resolved against the sender's powers by validation).
# Single-character verbs are "weak": they need a name or a separator right after them.
_VERBS_ALT = _alt(w for w, _ in lexicon.VERBS)
# A command word as written, or any command word in 【】 (【占卜】老王).
_VERB_RE = re.compile(_FILLER + "(?:(" + _VERBS_ALT + ")|【(" + _VERBS_ALT + ")】)" + _OBJECT)
_VERB_INTENTS = dict(lexicon.VERBS)
_VERB_PARTICLE = re.compile(_alt(lexicon.VERB_PARTICLES))
_NAME_FIRST = tuple(
    (re.compile(_FILLER + _alt(leads)), re.compile(r"[ \t]*" + _alt(tails)), intents)
    for leads, tails, intents in lexicon.NAME_FIRST
)
_PLATFORM = re.compile(
    _alt(lexicon.PLATFORM_WORDS) + r"[ \t]*" + _alt(lexicon.PLATFORM_LINKS) + "?"
)
_PLATFORM_LEAD = re.compile(
    _alt(lexicon.PLATFORM_AS_LEADS + lexicon.PLATFORM_ACROSS + lexicon.PLATFORM_WORDS) + r"[ \t:]*"
)
_PLATFORM_AS_AFTER = re.compile(
    r"[ \t]*" + _alt(lexicon.PLATFORM_AS_LINKS) + r"[ \t]*" + _alt(lexicon.PLATFORM_AS_WORDS)
)
_PLATFORM_ACROSS = re.compile(_alt(lexicon.PLATFORM_ACROSS) + r"[ \t]*")
_DECLARATION = re.compile(
    _alt(lexicon.DECLARATION_WORDS) + r"[ \t]*" + _alt(lexicon.DECLARATION_LEADS) + r"?[ \t:]*"
)
_DECLARATION_SAME = re.compile(_alt(lexicon.DECLARATION_SAME))
_LAST_WORDS = re.compile(_FILLER + _alt(lexicon.LAST_WORDS) + r"[ \t:]*")
_ACCUSE = re.compile(r"(?:我)?" + _alt(lexicon.ACCUSE_WORDS) + r"[ \t:]*")
_DELEGATE_TO = re.compile(_FILLER + _alt(lexicon.DELEGATE_TO_LEADS))
_DELEGATE_TO_AFTER = re.compile(r"[ \t]*" + _alt(lexicon.DELEGATE_TO_WORDS) + r"[ \t]*投")
_CONFIRM = re.compile(r"^[ \t]*" + _alt(lexicon.CONFIRM_WORDS) + r"[ \t。.!]*$")
_SPEED_UP = re.compile(
    re.escape(lexicon.SPEED_UP[0])
    + r"(?:第([一二三四五六七八九十\d]+)[" + lexicon.DAY_UNITS + "])?"
    + re.escape(lexicon.SPEED_UP[1])
)  # fmt: skip
_SLOW_DOWN = re.compile(_alt(lexicon.SLOW_DOWN_LEADS) + "?" + re.escape(lexicon.SLOW_DOWN))
_CN_DIGITS = lexicon.CN_DIGITS
_KILLS = ("kill", "cannon_kill")


def _after_sep(text: str, pos: int) -> int:
    """The position after the separators (spaces, colons, arrows, 一下) at ``pos``."""
    m = _SEP.match(text, pos)
    return m.end() if m else pos


def _extends_a_name(ch: str) -> bool:
    """Whether ``ch`` could be part of a name (a CJK character, a letter or a digit)."""
    return ch.isalnum() or unicodedata.category(ch) == "Lo"


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
    platforms: tuple[NameRef, ...] = ()  # further, different platforms named in the text
    target2: NameRef | None = None
    change: bool = False
    conditional: bool = False  # a condition or a question qualifies the command itself
    alternatives: bool = False  # X或者Y: the names are alternatives, not a list
    declaration: str | None = None  # kills: their declaration; last words: their text
    declaration_same: bool = False  # 宣言同上: the declaration of the sender's earlier kill PM
    story: bool = False
    confirm: bool = False
    accused: tuple[NameRef, ...] = ()
    number: int | None = None  # speed-up day


@dataclass
class _Reader:
    folded: Folded
    index: NameIndex

    @property
    def text(self) -> str:
        return self.folded.text

    # -- positions ---------------------------------------------------------------------------
    def clause_starts(self, start: int = 0, end: int | None = None) -> list[int]:
        """Where clauses start: after a clause break, and after 就 following a condition."""
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
        for m in _CONSEQUENT.finditer(self.text, start, stop):
            begin = self.sentence_bounds(m.start())[0]
            if _CONDITION.search(self.text, begin, m.start()) and m.end() < stop:
                starts.append(m.end())
        return sorted(set(starts))

    def line_bounds(self, pos: int) -> tuple[int, int]:
        begin = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        return begin, len(self.text) if end < 0 else end

    def sentence_bounds(self, pos: int) -> tuple[int, int]:
        begin = max(self.text.rfind(c, 0, pos) for c in "。!?\n") + 1
        ends = [i for i in (self.text.find(c, pos) for c in "。!?\n") if i >= 0]
        return begin, min(ends) if ends else len(self.text)

    def clause_end(self, pos: int) -> int:
        """The end of the clause holding ``pos`` (its break, or the end of the text)."""
        for i in range(pos, len(self.text)):
            if self.text[i] in _CLAUSE_BREAK:
                return i
        return len(self.text)

    def qualified(self, pos: int, end: int, conditions: bool = True) -> bool:
        """Whether the command written in ``[pos, end)`` is qualified: a condition before it or
        in it (if ``conditions``), a question before it in its sentence, or its clause asking
        (a ? or 吗 at its end). Reasons and remarks in later clauses do not count."""
        begin = self.sentence_bounds(pos)[0]
        text = self.text
        if conditions and _CONDITION.search(text, begin, end):
            return True
        if _QUESTION.search(text[begin:pos]):
            return True
        stop = self.clause_end(end)
        rest = _TARGET_QUESTION.sub("", text[end:stop]).rstrip()
        return text[stop : stop + 1] == "?" or rest.endswith(lexicon.QUESTION_FINAL + ("吗",))

    # -- names ------------------------------------------------------------------------------
    def _whole_token(self, pos: int) -> int:
        tok = _TOKEN_END.search(self.text, pos)
        return min(tok.start() if tok else len(self.text), pos + MAX_TOKEN)

    def name_continues(self, end: int) -> bool:
        """Whether the characters at ``end`` would extend a name just read (老王|王)."""
        text = self.text
        if end >= len(text) or not _extends_a_name(text[end]) or not _extends_a_name(text[end - 1]):
            return False
        if text[end - 1].isascii() and text[end].isascii():
            return False  # the name index already wants a word boundary there
        return not (
            _FOLLOWER.match(text, end)
            or _PARTICLE.match(text, end)
            or _TARGET_QUESTION.match(text, end)
            or (text[end - 1].isascii() != text[end].isascii() and not text[end].isdigit())
        )

    def read_name(
        self, pos: int, strict: bool, pronouns: bool = False
    ) -> tuple[NameRef | None, int]:
        """Read one name at ``pos`` (after separators, ``@`` and an opening bracket).

        Returns ``(None, pos)`` when nothing there is meant as a name. ``strict`` says the
        command word was followed by a separator: then any token is meant as a name.
        ``pronouns``: 他/她 there is an unresolved name (a ballot for 他 names nobody).
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
            if self.name_continues(match.end):
                end = self._whole_token(pos)
                return NameRef(self.folded.original_slice(pos, end)), end
            written = self.folded.original_slice(pos, match.end)
            return NameRef(written, match.player, match.ambiguous), match.end
        me = _SELF.match(text, pos)
        if me:
            return NameRef(self.folded.original_slice(pos, me.end()), SELF), me.end()
        if pronouns:
            mp = _PRONOUN.match(text, pos)
            if mp:
                return NameRef(self.folded.original_slice(pos, mp.end())), mp.end()
        tok_end = self._whole_token(pos)
        written = self.folded.original_slice(pos, tok_end).strip()
        if not written:
            return (NameRef("") if had_sep else None), pos
        if had_sep or self.index.best_score(written) >= MEANT_SCORE:
            return NameRef(written), tok_end
        return None, pos

    def read_more_names(self, pos: int) -> tuple[list[NameRef], int, bool]:
        """Names listed right after a first one (``阿杰、小明``, ``阿杰 和 小明``), where the list
        ends, and whether they were alternatives (``阿杰或者小明``)."""
        more: list[NameRef] = []
        alternatives = False
        while True:
            m = _LIST_SEP.match(self.text, pos)
            if not m or m.end() == pos:
                return more, pos, alternatives
            nxt = m.end()
            if nxt < len(self.text) and self.text[nxt] in _OPEN:
                if not m.group(0).strip():
                    # "花间（昨天发言太水）": a reason in brackets, not a name
                    return more, pos, alternatives
                ref, end = self.read_name(nxt, strict=False)
            else:
                match = self.index.match_at(self.folded, nxt)
                if match is None:
                    return more, pos, alternatives
                written = self.folded.original_slice(nxt, match.end)
                ref, end = NameRef(written, match.player, match.ambiguous), match.end
            if ref is None:
                return more, pos, alternatives
            nxt_sep = _LIST_SEP.match(self.text, end)
            alternative = bool(_ALTERNATIVE.fullmatch(m.group(0)))
            if (
                not alternative  # 老王或者小明都行: alternatives, whatever follows
                and end < len(self.text)
                and self.text[end] not in _CLAUSE_BREAK + " \t、"
                and (m.group(0).strip() == "" or _extends_a_name(self.text[end]))
                and not (nxt_sep and nxt_sep.end() > end)
            ):
                # "投 阿杰 老王也可疑", "投票：老王，小明也可疑": a sentence, not a list
                return more, pos, alternatives
            alternatives = alternatives or alternative
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
    """Every ballot written in a post's own text (quotes and BBCode already removed).

    Each item has intents ``("vote",)`` or ``("abstain",)``; ``change`` marks 改票;
    ``conditional`` a ballot qualified by a condition or a question; ``more_targets`` further
    listed names (``alternatives``: written as alternatives).
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
            found.append(parsed)
    return found


def _read_ballot(reader: _Reader, pos: int, conditions: bool = True) -> Parsed | None:
    text = reader.text
    m = _ABSTAIN.match(text, pos)
    if m:
        return _abstention(reader, pos, m.end(), conditions)
    change = False
    m = _VOTE_CHANGE.match(text, pos)
    if m:
        change = True
        after = _after_sep(text, m.end())
        inner = _ABSTAIN.match(text, after)
        if inner:
            return _abstention(reader, pos, inner.end(), conditions, change=True)
        inner = _VOTE_STRONG.match(text, after) or _VOTE_WEAK.match(text, after)
        end = inner.end() if inner else m.end()
        strict = True
    else:
        m = _VOTE_STRONG.match(text, pos)
        strict = bool(m)
        if m:
            inner = _ABSTAIN.match(text, _after_sep(text, m.end()))
            if inner:
                return _abstention(reader, pos, inner.end(), conditions)
        m = m or _VOTE_WEAK.match(text, pos)
        if not m:
            return None
        end = m.end()
    verb = reader.folded.original_slice(pos, end)
    ref, after = reader.read_name(end, strict=False, pronouns=True)
    rest = text[end:].split("\n", 1)[0]
    if (ref is None or not ref.written) and strict and not rest.strip(" \t:："):
        # "投票：" ends its line: the name may stand alone on the next one, else it is missing.
        nxt = end + len(rest) + 1
        match = reader.index.match_at(reader.folded, _first_non_space(text, nxt)) if nxt < len(text) else None
        if match is None:
            return Parsed(("vote",), verb, pos, NameRef(""), change=change)
        ref, after = reader.read_name(_first_non_space(text, nxt), strict=False)
    if ref is None:
        return None
    more, after, alternatives = reader.read_more_names(after) if ref.written else ([], after, False)
    return Parsed(
        ("vote",), verb, pos, ref, tuple(more), change=change, alternatives=alternatives,
        conditional=reader.qualified(pos, after, conditions),
    )  # fmt: skip


def _abstention(
    reader: _Reader, pos: int, end: int, conditions: bool, change: bool = False
) -> Parsed:
    verb = reader.folded.original_slice(pos, end)
    conditional = reader.qualified(pos, end, conditions)
    return Parsed(("abstain",), verb, pos, change=change, conditional=conditional)


# -- PMs and werewolf skill replies ------------------------------------------------------------
def read_actions(text: str, index: NameIndex, kill_posts: bool = True) -> list[Parsed]:
    """Every command written in a PM (or a 功能树洞 reply), in order.

    With ``kill_posts`` (the ruleset's kills come with a declaration), a kill's declaration is
    the text after a declaration marker (杀人宣言：…), else the lines after the kill (and a long
    remark on its own line); a declaration block *before* the kill line counts too. A line
    "确定" locks the command before it (``confirm``). Vote words in a PM are delegated votes. A
    cannon's platform may be written anywhere in the commands (炮架子：Y, 以Y为炮架, 隔着Y打X).
    """
    reader = _Reader(Folded.of(text), index)
    text_f = reader.text
    found: list[Parsed] = []
    decl_before: tuple[int, int, int] | None = None  # marker, body start, body end
    consumed_to = 0
    for pos in reader.clause_starts():
        if pos < consumed_to:
            continue
        line_begin, line_end = reader.line_bounds(pos)
        if _CONFIRM.match(text_f[line_begin:line_end]) and pos == _first_non_space(
            text_f, line_begin
        ):
            if found:
                found[-1] = _with(found[-1], confirm=True)
            continue
        m = _LAST_WORDS.match(text_f, pos)
        if m:
            found.append(_read_last_words(reader, pos, m.end()))
            break
        m = _DECLARATION.match(text_f, pos)
        if kill_posts and m and pos == _first_non_space(text_f, line_begin):
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
            number = _cn_number(speed.group(1))
            found.append(
                Parsed(("speed_up",), reader.folded.original_slice(pos, speed.end()), pos, number=number)
            )
            continue
        slow = _SLOW_DOWN.match(text_f, pos)
        if slow:
            found.append(Parsed(("slow_down",), reader.folded.original_slice(pos, slow.end()), pos))
            continue
        hit = _read_command(reader, _after_platform(reader, pos))
        if hit is None:
            continue
        parsed, end = hit
        if kill_posts and set(parsed.intents) & set(_KILLS):
            region, body_start, story = _declaration_start(reader, end)
            if decl_before is not None:
                marker, start, stop = decl_before
                body = reader.folded.original_slice(start, stop).strip()
                story = lexicon.STORY_WORD in text_f[marker:start]
                region = len(text_f)
            else:
                body = _declaration_body(reader, body_start, end, marked=story is not None)
            same = bool(_DECLARATION_SAME.search(text_f, end, reader.line_bounds(end)[1]))
            parsed = _with(parsed, declaration=body, story=bool(story), declaration_same=same)
            found.append(_with_platform(reader, parsed, region))
            # The declaration may still hold a 确定 line at its very end.
            tail_lines = text_f[end:].rstrip().split("\n")
            if len(tail_lines) > 1 and _CONFIRM.match(tail_lines[-1]):
                found[-1] = _with(found[-1], confirm=True)
            break
        if "cannon_kill" in parsed.intents:
            parsed = _with_platform(reader, parsed, len(text_f))
        found.append(parsed)
        consumed_to = end
    return found


def _read_command(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """The command starting at ``pos``, and where it ends."""
    hit = (
        _read_delegate_to(reader, pos)
        or _read_name_first(reader, pos)
        or _read_verb(reader, pos)
        or _read_pm_vote(reader, pos)
    )
    if hit is None:
        return None
    parsed, end = hit
    delegated = parsed.intents[0].startswith("delegate")
    # A delegation is conditional by nature (如果我明天没上线就帮我投X): only a question counts.
    conditional = parsed.conditional or reader.qualified(pos, end, conditions=not delegated)
    return _with(parsed, conditional=conditional), end


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
    word = m.group(1) or m.group(2)
    intents = _VERB_INTENTS[word]
    verb = reader.folded.original_slice(pos, m.end())
    bracketed = m.group(2) is not None or word.startswith("【")
    weak = len(word) == 1 and not bracketed
    start = m.end()
    particle = _VERB_PARTICLE.match(text, start)
    if particle and not word.startswith("【"):
        start = particle.end()  # 杀了老王, 祈祷给老王, 占卜改成老王
    ref, end = reader.read_name(start, strict=bracketed)
    if ref is None:
        rest = text[m.end() :].split("\n", 1)[0]
        if not weak and not rest.strip(" \t:"):
            return Parsed(intents, verb, pos, NameRef("")), m.end()  # "占卜：" and nothing
        return None
    if "pair_lovers" in intents:
        more, end2, _ = reader.read_more_names(end)
        if not more:
            ref2, end2b = reader.read_name(end, strict=False)
            if ref2 is not None:
                more, end2 = [ref2], end2b
        target2 = more[0] if more else None
        return Parsed(intents, verb, pos, ref, tuple(more[1:]), target2=target2), end2
    more: list[NameRef] = []
    alternatives = False
    if ref.written:
        more, end, alternatives = reader.read_more_names(end)
    if "delegate_vote" in intents and more and not alternatives:
        more = []
    return Parsed(intents, verb, pos, ref, tuple(more), alternatives=alternatives), end


def _read_name_first(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """Commands written name first: 为X祈祷, 抓X替我抽将 (lexicon ``NAME_FIRST``)."""
    for lead, tail, intents in _NAME_FIRST:
        m = lead.match(reader.text, pos)
        if not m:
            continue
        start = _after_sep(reader.text, m.end())
        match = reader.index.match_at(reader.folded, start)
        if match is None:
            continue
        after = tail.match(reader.text, match.end)
        if not after:
            continue
        written = reader.folded.original_slice(start, match.end)
        verb = reader.folded.original_slice(pos, after.end())
        ref = NameRef(written, match.player, match.ambiguous)
        return Parsed(intents, verb, pos, ref), after.end()
    return None


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
    parsed = _read_ballot(reader, pos, conditions=False)
    if parsed is None:
        return None
    end = pos + len(parsed.verb)
    intents = ("delegate_vote",) if parsed.intents == ("vote",) else ("delegate_abstain",)
    return _with(parsed, intents=intents), reader.line_bounds(pos)[1] if parsed.target else end


# -- cannon platforms --------------------------------------------------------------------------
def _after_platform(reader: _Reader, pos: int) -> int:
    """Where the command of a clause starts when the clause opens with its platform: 隔着Y打X,
    架 Y 打 X, 用Y当炮架子打X (else ``pos``)."""
    m = _PLATFORM_LEAD.match(reader.text, pos)
    if not m:
        return pos
    match = reader.index.match_at(reader.folded, m.end())
    if match is None:
        return pos
    end = match.end
    as_word = _PLATFORM_AS_AFTER.match(reader.text, end)
    if as_word:
        end = as_word.end()
    nxt = _after_sep(reader.text, end)
    return nxt if _VERB_RE.match(reader.text, nxt) else pos


def _platform_mentions(reader: _Reader, stop: int) -> list[tuple[NameRef, bool]]:
    """Every platform named before ``stop``, each with whether alternatives follow it."""
    text = reader.text
    found: list[tuple[int, NameRef, bool]] = []
    for pos in range(stop):
        if pos > 0 and text[pos - 1] not in _CLAUSE_BREAK + " \t:(（[【以用拿让":
            continue
        m = _PLATFORM.match(text, pos) or _PLATFORM_ACROSS.match(text, pos)
        if m and m.end() < stop:
            ref, end = reader.read_name(m.end(), strict=bool(_PLATFORM.match(text, pos)))
            if ref is not None and (ref.resolved or ref.written):
                _, _, alternatives = reader.read_more_names(end)
                found.append((pos, ref, alternatives))
    for pos, match in reader.index.find_all(reader.folded, 0, stop):
        if _PLATFORM_AS_AFTER.match(text, match.end):
            written = reader.folded.original_slice(pos, match.end)
            found.append((pos, NameRef(written, match.player, match.ambiguous), False))
    return [(ref, alternatives) for _, ref, alternatives in sorted(found, key=lambda f: f[0])]


def _with_platform(reader: _Reader, parsed: Parsed, stop: int) -> Parsed:
    """The cannon's platform (and any other, different platform named), from the commands."""
    mentions = _platform_mentions(reader, stop)
    if not mentions:
        return parsed
    intents = ("cannon_kill",) + tuple(i for i in parsed.intents if i != "cannon_kill")
    first, alternatives = mentions[0]
    others = tuple(ref for ref, _ in mentions[1:] if ref.written != first.written)
    return _with(
        parsed, intents=intents, platform=first, platforms=others,
        alternatives=parsed.alternatives or alternatives,
    )  # fmt: skip


# -- declarations ------------------------------------------------------------------------------
def _declaration_start(reader: _Reader, end: int) -> tuple[int, int, bool | None]:
    """Where the commands of a kill written up to ``end`` stop, where its declaration text
    begins, and whether it is a story (``None``: no marker): after a marker (杀人宣言：) opening
    a later clause, else the lines after the kill's (a platform line is still a command)."""
    text = reader.text
    for pos in reader.clause_starts(end):
        m = _DECLARATION.match(text, pos)
        if m:
            return pos, m.end(), lexicon.STORY_WORD in text[pos : m.end()]
    stop = reader.line_bounds(end)[1] if end < len(text) else len(text)
    while stop < len(text):  # platform lines right after the kill line are commands too
        nxt = reader.line_bounds(stop + 1)[1]
        if not _is_platform_line(reader.folded.original_slice(stop + 1, nxt)):
            break
        stop = nxt
    return stop, min(stop + 1, len(text)), None


def _declaration_body(reader: _Reader, start: int, end: int, marked: bool) -> str:
    """The declaration from ``start`` on (a 确定 line at its end left out); without a marker,
    a remark on the kill's own line counts only if it is long (not …炮架子：Y。明天见)."""
    text = reader.text
    body = reader.folded.original_from(start).strip()
    lines = body.split("\n")
    if len(lines) > 1 and _CONFIRM.match(lines[-1]):
        body = "\n".join(lines[:-1]).rstrip()
    line_end = reader.line_bounds(end)[1] if end < len(text) else len(text)
    if not marked:  # no marker: the kill's own line may carry the declaration
        platform = _PLATFORM.search(text, end, line_end)
        tail = reader.folded.original_slice(end, line_end).strip(" \t。.,，:：!！")
        if platform is None and sum(1 for c in tail if not c.isspace()) >= lexicon.DECLARATION_TAIL_MIN:
            body = (tail + "\n" + body).strip()
        lines = [ln for ln in body.split("\n") if not _is_platform_line(ln)]
        body = "\n".join(lines).strip()
    return body


def _is_platform_line(line: str) -> bool:
    folded = Folded.of(line.strip()).text
    return bool(_PLATFORM.match(folded)) and len(folded) <= 16


def _find_kill_after(reader: _Reader, pos: int) -> int | None:
    for start in _line_starts(reader.text):
        if start <= pos:
            continue
        first = _first_non_space(reader.text, start)
        m = _VERB_RE.match(reader.text, first)
        if m and set(_VERB_INTENTS[m.group(1) or m.group(2)]) & set(_KILLS):
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
        more, _, _ = reader.read_more_names(after)
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


def read_lone_name(text: str, index: NameIndex) -> NameRef | None:
    """The one player a text names when it holds nothing else (a PM of only ``老王``, with
    punctuation and emoticons around it), else ``None``."""
    folded = Folded.of(text)
    found = index.find_all(folded)
    if len(found) != 1:
        return None
    pos, match = found[0]
    rest = folded.text[:pos] + folded.text[match.end :]
    if any(_extends_a_name(c) for c in rest):
        return None
    return NameRef(folded.original_slice(pos, match.end), match.player, match.ambiguous)


def has_vote_words(text: str) -> bool:
    """True when a PM mentions voting at all (used to tell chess/werewolf players to post)."""
    return bool(_VOTE_MENTION.search(Folded.of(text).text))


_VOTE_MENTION = re.compile(_alt(lexicon.VOTE_MENTIONS))
