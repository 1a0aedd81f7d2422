"""The Chinese command grammar: where a command starts, what it says, which names it names.

Built from the words of :mod:`shenshi.intake.lexicon`. Reading happens on the folded text
(:mod:`shenshi.intake.text`). A command word counts only at the start of a clause (the start of
a line, or after 。！？；，, or after 就 / …的话 in a sentence with a condition), optionally
after a lead-in (numbering, 【第二天】, PS：, @神的使者, emoji and other symbols) and a few filler
words (我, 今晚, 天神 …): "昨天投白色的猫很奇怪" is talk, "我投白色的猫，理由：…" is a ballot. A
command word followed by something that is not a player's name is talk, unless it is plainly
meant as a command (a separator such as ``：`` or a space follows the word, or the text looks
like a misspelt name): then it is an unresolved name for an alert. After a command, a second
one on the same line (``投票：A 投票：B``, ``祈祷 A 为B祈祷``) is read too when it names a player.

Only the command itself can make it conditional: a condition before it in its sentence (如果…
就投X, X不解释的话投X), a question around it (请问投X可以吗, 投X？), a qualifier right after
it (投X，除非…; 投X，如果他不解释的话), or alternatives (X或者Y). A reason after it
(投票：X，理由：他是不是杀手大家心里有数) is not read. A name followed by characters that could
extend it is read whole (``老王王`` is not ``老王``), unless what follows is plainly not part of
a name (a reason marker, 一票, a particle before a break …).

A change of mind in the same text (改成X, 不对，是X, 算了还是占卜X吧, 更正：X) is a *correction*:
the latest target counts, and the command it corrects is dropped; a change written as a verb
(改杀X, 换成X, 改投X) is one wherever the writer writes it in a clause. Framing before a command
word (法官您好, 麻烦主办：, 帮我们, 我和X, the author's own name) frames it; agreement after it
(以这个为准, 就这个, 确定) confirms it; a reason after it, in brackets or after an @-mention,
never qualifies it; a clause opening with a cannon platform (炮架子选Y) is the platform.
Where a name is written, a player's name wins over a marker word (炮架做炮架 where 炮架
plays), a marker word inside a name never marks, and a name that is a marker word with
another player's name in the word's slot is an ambiguous name (see :func:`_marker_or_name`).

Positions (sentence and clause bounds, condition and question markers, names, platforms, words
that say something, 宣言同上 and words of time to come) are looked up in tables built once per
text, a subject is walked once from each of its units, and a run of correction words is read at
most ``_MAX_RUN`` at a time, so a hostile text of many clauses, names, markers or commands is read
in linear time (``bench/bench_intake_runs.py``).

This module only reads; :mod:`shenshi.intake.actions` and ``ballots`` decide what the game allows.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, insort
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from shenshi.intake import lexicon
from shenshi.intake.names import NameIndex, NameMatch
from shenshi.intake.text import Folded, fold

# A name that is not a player's is still treated as meant when it scores this close to one.
MEANT_SCORE = 75
MAX_TOKEN = 16
SELF = "\x00self"  # NameRef.player for 自己 / 我自己: the sender, filled in by validation
# A line of a kill's declaration is a command line (抽将 X, 改杀 X, a second 杀 X), not part of
# the declaration, when at most this many of its characters are neither commands nor particles.
COMMAND_LINE_SLACK = 2

_CLAUSE_BREAK = "。.!?;,~…\n"
# Words that may be repeated across commas (嗯，算了，不对，…) are read at most this many times at
# one place: a longer run is read from a later clause of it (each clause of a run is read once).
_MAX_RUN = 8
_SENTENCE_BREAK = "。!?\n"
_SEP = re.compile(r"[ \t:=\-—>→~・·*]*(?:一下|一个|一次|一位|下)?[ \t:*]*")
# Pictographs and arrows between a command word and its name (占卜👉老王): skipped, but they do
# not make a weak word a command the way a separator does.
_DECOR = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\ufffd\ufe0f]+")
# A weaker separator after a command word (投票，X / 投票；X / 投票、X): only a player's name
# after it makes a command.
_WEAK_SEP = re.compile(r"[ \t]*[,;、.。…>》~]+[ \t]*")
_OPEN = {"「": "」", "『": "』", "【": "】", "“": "”", '"': '"', "'": "'", "‘": "’", "《": "》",
         "(": ")", "<": ">", "[": "]", "〈": "〉", "〔": "〕"}  # fmt: skip
_TOKEN_END = re.compile(r"[\s。.!?;,~、/()\[\]【】「」『』“”\"'‘’《》<>:…\ufffd]")
_NUMERAL = r"(?:\d{1,3}|[一二三四五六七八九十]{1,3})"


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first (a space matches any spacing)."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s*") for w in ordered) + ")"


def _alt_bounded(words: Iterable[str]) -> str:
    """Like :func:`_alt`, with a Latin word ending at a word boundary (``if`` is not ``ifa``)."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "(?:" + "|".join(
        re.escape(w) + ("(?![a-z0-9_])" if w[-1].isascii() and w[-1].isalnum() else "")
        for w in ordered
    ) + ")"


_ALTERNATIVE = re.compile(r"[ \t]*" + _alt_bounded(lexicon.ALTERNATIVE_WORDS) + r"[ \t]*")
_LIST_SEP = re.compile(
    r"[ \t]*(?:" + _alt_bounded(lexicon.LIST_WORDS) + "|"
    + _alt_bounded(lexicon.ALTERNATIVE_WORDS) + r"|[ \t])[ \t]*"
)  # fmt: skip
_SELF = re.compile(_alt(lexicon.SELF_WORDS) + "(?!人)")
_PRONOUN = re.compile(
    "(?:" + _alt(lexicon.PRONOUNS) + "(?=$|[^\\w]|一票)|" + _alt(lexicon.THIRD_PERSON)
    + "(?=[" + lexicon.NAME_PARTICLES + "]+(?!\\w)))"  # 投他吧 (投你了 is said to someone: talk)
)
_QUESTION = re.compile(_alt(lexicon.QUESTION_MARKERS))
_CONDITION = re.compile(_alt(lexicon.CONDITION_MARKERS))
_CONDITION_OPENS = re.compile(_alt(w for w in lexicon.CONDITION_MARKERS if w != "的话"))
_CONSEQUENT = re.compile(_alt(lexicon.CONDITION_CONSEQUENTS))
_IF_ENDS = "的话"  # …的话 ends a condition: what follows in its clause is qualified
_TAIL_QUALIFIER = re.compile(_alt_bounded(lexicon.TAIL_QUALIFIERS))
_THIRD_PERSON = re.compile(_alt(lexicon.THIRD_PERSON))
_AFTER_COMMAND = re.compile(r"[ \t]*[,;.。\n(]?[ \t]*")
_TARGET_QUESTION = re.compile(_alt(lexicon.TARGET_QUESTIONS) + r"[ \t]*[?吗]?")
_TARGET_QUESTION_ENDS = re.compile(_alt(lexicon.TARGET_QUESTIONS) + r"[ \t]*[?吗]?[ \t]*$")
_QUESTION_ASKS = re.compile(_alt_bounded(lexicon.QUESTION_ASKS + lexicon.QUESTION_FINAL + ("吗",)))
_FOLLOWER = re.compile(
    _alt(lexicon.NAME_FOLLOWERS) + "|" + _alt(lexicon.NAME_FOLLOWERS_AT_END)
    + "(?=[" + lexicon.NAME_PARTICLES + r"]*(?:$|[^\w]))"
)
# ... followed by nothing that could extend a name: a break, punctuation, an emoji (投老王吧😂)
_PARTICLE = re.compile("[" + lexicon.NAME_PARTICLES + r"]+(?!\w)")
# Framing: 法官您好 / 天神大人 / 麻烦主办 (an address, with a greeting), 麻烦 / 帮我们 / 一起 …
_ADDRESSED = (
    _alt(lexicon.ADDRESS_WORDS) + _alt(lexicon.HONORIFICS) + "?" + _alt(lexicon.GREETINGS) + "?"
)
# Agreement before the command word (确定杀X, 确认占卜X) frames it too, and confirms it.
_CONFIRM_FIRST = tuple(w for w in lexicon.CONFIRM_WORDS if not w.isascii())
_CONFIRM_FIRST_RE = re.compile(_alt(_CONFIRM_FIRST))
_FILLER = (
    r"(?:(?:" + _alt(lexicon.FILLER_WORDS + lexicon.POLITE_WORDS + lexicon.HELP_WORDS
                     + lexicon.JOINT_WORDS + _CONFIRM_FIRST)
    + "|" + _ADDRESSED
    + r"|第[一二三四五六七八九十\d]+[" + lexicon.FILLER_ORDINAL_UNITS + r"])[ \t]*)*"
)  # fmt: skip
# A short framing ending in a colon before a command (我帮朋友发一下：占卜X): the command counts
# when it names a player; reported speech (他说：投X) is not the writer's command.
_FRAMED_COLON = re.compile(r"[^\s:。.!?;,~…\n]{1," + str(lexicon.FRAMING_MAX) + r"}:[ \t]*")
_REPORTED_SPEECH = re.compile(_alt(lexicon.REPORTED_SPEECH))
_PARTNER = re.compile(_alt(lexicon.PARTNER_WORDS))
# The subject before a command word (我和X, Ann和我, 我们两个（老K和Ann）, 灰狼、Wolf一致同意 …).
_WRITER = re.compile(_alt(lexicon.WRITER_WORDS))
_FILLER_WORDS = frozenset(lexicon.FILLER_WORDS + lexicon.JOINT_WORDS)
_WRITER_FIRST = frozenset(w[0] for w in lexicon.WRITER_WORDS)
_SUBJECT_LINK = re.compile(r"[ \t]*" + _alt(lexicon.SUBJECT_LINKS) + r"[ \t]*")
_SUBJECT_ASIDE = re.compile(r"[ \t]*\([^()\n]{1," + str(lexicon.SUBJECT_ASIDE_MAX) + r"}\)")
_SUBJECT_TAIL = re.compile(
    r"(?:[ \t]*(?:" + _alt(lexicon.SUBJECT_TAILS) + "|" + re.escape(lexicon.REPRESENT_WORD)
    + _alt(lexicon.REPRESENTED) + "?))+" + r"[ \t:]*"
)  # fmt: skip
_OBJECT = (
    "(?:" + _alt(lexicon.OBJECT_SUFFIXES) + r"(?:[ \t]*" + _alt(lexicon.OBJECT_LINKS) + ")?)?"
)  # 占卜对象：X, 炮打对象选X

# Vote words (thread posts). 投票 may be written with a space inside (投  票：X).
_VOTE_WORD = r"[ \t]*".join(re.escape(c) for c in lexicon.VOTE_WORD)
_HEADER_GAP = "[^】\\n]{0," + str(lexicon.VOTE_HEADER_MAX) + "}"
_VOTE_HEADER = "【" + _HEADER_GAP + _VOTE_WORD + _HEADER_GAP + "】"  # 【今日投票】X
_VOTE_CHANGE = re.compile(
    _FILLER + _alt(lexicon.VOTE_CHANGE_WORDS) + _alt(lexicon.VOTE_CHANGE_LINKS) + "?"
)
_VOTE_STRONG_WORD = re.compile(
    _FILLER + _alt(lexicon.VOTE_ROUND_PREFIXES) + "?"
    + "(?:" + _VOTE_WORD + _alt(lexicon.VOTE_LINKS) + "?|" + _alt(lexicon.VOTE_WORDS) + ")"
)  # fmt: skip
_VOTE_STRONG = re.compile(_VOTE_STRONG_WORD.pattern + _OBJECT)
# Weak: a player's name must follow (跟投X; 【今日投票】X, not 【第2天投票结果】).
_VOTE_WEAK = re.compile(
    _FILLER + "(?:" + _alt(lexicon.VOTE_WEAK_WORDS) + "(?![" + lexicon.VOTE_WEAK_NOT_BEFORE + "])|"
    + _VOTE_HEADER + "[ \t:]*)"
)  # fmt: skip
_ABSTAIN = re.compile(
    _FILLER
    + _alt(lexicon.ABSTAIN_LEADS) + "?"
    + "(?:" + _alt(lexicon.ABSTAIN_VOTE_LEADS) + r"[ \t:]*)?"
    + _alt(lexicon.ABSTAIN_WORDS) + "(?:[ \t]*" + _alt(lexicon.ABSTAIN_WORDS) + ")*"  # 弃权弃权
    + "(?=[" + lexicon.NAME_PARTICLES + "]*" + _alt(lexicon.RESIGNATION_TAILS) + "?["
    + lexicon.NAME_PARTICLES + r"]*(?:$|[^\w]|票))"  # (弃权吧😅: a particle, an emoji; 弃权算了)
)  # fmt: skip

# PM verbs: folded text -> intents (resolved against the sender's powers by validation).
# Single-character verbs are "weak": they need a name or a separator right after them.
_VERBS_ALT = _alt(w for w, _ in lexicon.VERBS)
# A command word as written, or any command word in 【】 (【占卜】老王).
_VERB_RE = re.compile(
    _FILLER + "(?:(?!" + _alt(lexicon.VERB_NOUNS) + ")(" + _VERBS_ALT + r")|[【\[](" + _VERBS_ALT
    + r")[】\]])" + _OBJECT
)
_VERB_INTENTS = dict(lexicon.VERBS)
_WEAK_VERB = re.compile(_alt(w for w, _ in lexicon.VERBS if len(w) == 1))
_VERB_PARTICLE = re.compile(_alt(lexicon.VERB_PARTICLES))
# A change said as done (改票了, 改投了啦): 了 and any particles after it.
_DONE_PARTICLE = re.compile("了[" + lexicon.NAME_PARTICLES + "]*")
# 【殉职】 said as a sentence: 我把警徽移交给X, 交给X, 警徽传给X (the one it names follows 给)
_HANDOVER = re.compile(r"(?:我)?(?:要|想|决定)?(?:把)?(?:警徽)?(?:移交|转交|交|传|留)?给")
# Any command word (no filler before it): where a command may start inside a condition's clause
# (如果他不解释投老王).
_COMMAND_WORD = re.compile(
    "(?:" + _VOTE_WORD + "|" + _alt(lexicon.VOTE_WORDS + lexicon.VOTE_CHANGE_WORDS)
    + "|" + re.escape(lexicon.VOTE_WEAK) + "|" + _VERBS_ALT + ")"
)  # fmt: skip
# A change of target written as a verb (改杀 / 改成 / 换成 / 改为 X, 改投 X), not negated (不改杀).
_CHANGE_VERB = re.compile(
    "(?:(?<![" + lexicon.CHANGE_NOT_AFTER + "])"
    + "".join("(?<!" + re.escape(w) + ")" for w in lexicon.CHANGE_NEGATIONS)
    + "|" + "|".join("(?<=" + re.escape(w) + ")" for w in lexicon.CHANGE_OFFERED_AFTER)
    + ")(?:" + _alt(lexicon.CHANGE_LEADS) + "(?=" + _VERBS_ALT
    + ")|" + _alt(lexicon.CHANGE_PARTICLES + lexicon.VOTE_CHANGE_WORDS) + ")"
)  # fmt: skip
# What may stand between a word and the name it takes: separators, a mention's @, an opening
# bracket or quote (炮架子「乌骓」, 改成@周勃).
_NAME_OPENING = r"?[ \t:@「『“\"'(【\[]*$"
# A command word or a change verb right before a name: the name is its target (杀Bob, 改投 B).
_OBJECT_BEFORE = re.compile(
    "(?:" + _COMMAND_WORD.pattern + "|" + _CHANGE_VERB.pattern + ")"
    + _alt(lexicon.VERB_PARTICLES) + _NAME_OPENING
)  # fmt: skip
_OPENING_COMMANDS = (_VOTE_CHANGE, _VOTE_STRONG, _VOTE_WEAK, _ABSTAIN, _VERB_RE)
# A platform word right before a change verb: the platform is changed (炮架子改成Y, 炮架就换成Y).
_PLATFORM_BEFORE = re.compile(
    _alt(lexicon.PLATFORM_WORDS) + r"[】\]]?[ \t]*" + _alt(lexicon.PLATFORM_FILLERS) + r"?[ \t]*$"
)
# A platform word right before a name (炮架子乌骓, 炮架子：Y, 炮架子选Y): the name is the
# platform, not a clause's subject (炮打X 炮架子Y 改打Z changes the target).
_PLATFORM_OBJECT = re.compile(
    _alt(lexicon.PLATFORM_WORDS) + r"[】\]]?[ \t:]*" + _alt(lexicon.PLATFORM_FILLERS) + "?"
    + _alt(lexicon.PLATFORM_LINKS) + _NAME_OPENING
)  # fmt: skip
_NAME_FIRST = tuple(
    (re.compile(_FILLER + _alt(leads)), re.compile(r"[ \t]*" + _alt(tails)), intents)
    for leads, tails, intents in lexicon.NAME_FIRST
)
_PLATFORM = re.compile(
    r"[【\[]?" + _alt(lexicon.PLATFORM_WORDS) + r"[】\]]?[ \t]*" + _alt(lexicon.PLATFORM_FILLERS) + "?"
    + "(?:(" + _alt(lexicon.PLATFORM_CHANGE_LINKS) + ")|" + _alt(lexicon.PLATFORM_LINKS) + ")?"
)  # fmt: skip
# The marker words alone (炮架子, 隔着; 目标 after a command word): where one ends, to tell it from
# a player's name written at the same place (see _marker_or_name).
_PLATFORM_WORD = re.compile(
    r"[【\[]?" + _alt(lexicon.PLATFORM_WORDS) + "|" + _alt(lexicon.PLATFORM_ACROSS)
)  # fmt: skip
_OBJECT_WORD = re.compile(_alt(lexicon.OBJECT_SUFFIXES))
# A player's name in a list (炮打A，炮架：Y) that is a marker word with a player's name after it:
# the marker, not another name.
_MARKER_WORD = re.compile(
    "(?:" + _VERBS_ALT + "|" + _alt(lexicon.PLATFORM_WORDS + lexicon.OBJECT_SUFFIXES) + ")"
)  # fmt: skip
_PLATFORM_LEAD = re.compile(
    "(?:" + _alt(lexicon.PLATFORM_AS_LEADS + lexicon.PLATFORM_ACROSS) + r"|[【\[]?"
    + _alt(lexicon.PLATFORM_WORDS) + r"[】\]]?)[ \t:]*"
)  # fmt: skip
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
_CONFIRM = re.compile(r"[ \t]*[【\[]?" + _alt(lexicon.CONFIRM_WORDS) + r"[】\]]?[ \t。.!]*")
_AGREEMENT = re.compile(
    r"[ \t(]*[【\[]?" + _alt_bounded(lexicon.CONFIRM_WORDS + lexicon.AGREEMENT_WORDS)
    + r"[】\]]?[ \t。.!~)" + lexicon.NAME_PARTICLES + "]*"
)  # fmt: skip
_SPEED_UP = re.compile(
    _FILLER + re.escape(lexicon.SPEED_UP[0])
    + r"(?:第([一二三四五六七八九十\d]+)[" + lexicon.DAY_UNITS + "])?"
    + re.escape(lexicon.SPEED_UP[1])
)  # fmt: skip
_BALLOT_INTENTS = frozenset({"vote", "abstain", "delegate_vote", "delegate_abstain", "delegate_to_player"})
# A skill taken back (不救了, 取消【救药】, 救药不用了): the verb, in 【】 or not.
_ANY_VERB_WRITTEN = r"(?:[【\[](" + _VERBS_ALT + r")[】\]]|(" + _VERBS_ALT + "))"
_SKILL_WITHDRAWN = re.compile(
    _FILLER + "(?:" + _alt(lexicon.SKILL_WITHDRAWN_LEADS) + r"[ \t,]*){0," + str(_MAX_RUN) + "}"
    + "(?:" + _alt(lexicon.SKILL_WITHDRAWN_BEFORE) + r")[ \t]*" + _ANY_VERB_WRITTEN
    + "(?:了|啦|吧)?"
    + "|" + _FILLER + _ANY_VERB_WRITTEN + r"[ \t]*(?:" + _alt(lexicon.SKILL_WITHDRAWN_AFTER) + ")(?:了|吧)?"
)  # fmt: skip
_WITHDRAWAL_LEAD = re.compile(
    r"(?:" + _alt(lexicon.SKILL_WITHDRAWN_LEADS) + "|[" + lexicon.CORRECTION_PARTICLES + r"]|[\W\s])*"
)
_SPEED_UP_WITHDRAWN = re.compile(
    _FILLER + _alt(lexicon.SPEED_UP_WITHDRAWN) + "(?:" + re.escape(lexicon.SPEED_UP[0]) + ")?"
    + r"(?:第([一二三四五六七八九十\d]+)[" + lexicon.DAY_UNITS + "])?"
    + re.escape(lexicon.SPEED_UP[1])
)  # fmt: skip
_SLOW_DOWN = re.compile(
    _FILLER + _alt(lexicon.SLOW_DOWN_LEADS) + "?" + re.escape(lexicon.SLOW_DOWN)
)
# What may follow a whole-clause command such as 同意加速 (a particle, 了, 吧, emoticons).
_CLAUSE_TAIL = re.compile("[ \t" + lexicon.NAME_PARTICLES + r"\W]*")
# A change of mind: 不对，改成X / 算了还是X吧 / 更正：X / 不，是X (atomic: no backtracking; at
# most _MAX_RUN lead-ins and words at one place).
_POINTING = (
    re.escape(lexicon.CORRECTION_POINTING[0]) + r"[^,.!?;。\n]{1,8}?"
    + re.escape(lexicon.CORRECTION_POINTING[1])
)  # fmt: skip
_CORRECTION_RUN = (
    r"(?>(?:" + _alt(lexicon.CORRECTION_WORDS) + "|" + _POINTING + "|"
    + re.escape(lexicon.CORRECTION_NO) + r"(?=[ \t]*[,.!;:]))"
    + "[" + lexicon.CORRECTION_PARTICLES + r"]?[ \t,.!;:]*){1," + str(_MAX_RUN) + "}"
)  # fmt: skip
# (the words alone first, then after lead-ins: a word may begin as a lead-in does, 再三考虑 / 再,
# 后来决定 / 后来, and the lead-ins are atomic)
_CORRECTION = re.compile(
    "(?:" + _CORRECTION_RUN + "|"
    + r"(?>(?:" + _alt(lexicon.CORRECTION_LEADS) + r"[ \t,]*){1," + str(_MAX_RUN) + "})" + _CORRECTION_RUN + ")"
    + _alt(lexicon.CORRECTION_MODALS) + "?"
    + "(?:" + _alt(lexicon.CORRECTION_MEANT_LEADS) + "?(?:" + _VOTE_WORD + "|" + _alt(w for w, _ in lexicon.VERBS)
    + "|" + re.escape(lexicon.VOTE_WEAK) + ")" + _alt(lexicon.CORRECTION_MEANT_TAILS) + ")?"
    + _alt(lexicon.CORRECTION_LINKS) + r"?[ \t:]*"
)  # fmt: skip
# What may follow a correction word that names nobody: 取消占卜, 算了不占卜了
_CANCELLED = re.compile(
    r"[ \t,]*(?:" + _alt(lexicon.CANCEL_NEGATIONS) + ")?(?:" + _VERBS_ALT + ")?"
)  # fmt: skip
_ANY_VERB = re.compile(_VERBS_ALT)
_ALTERNATIVE_LEAD = re.compile(
    _alt(lexicon.ALTERNATIVE_LEADS) + r"[ \t,:]*"
    + "(?:" + _alt(lexicon.ALTERNATIVE_LEAD_LINKS) + r"[ \t:]*)?"
)  # fmt: skip
_OTHERWISE = re.compile(_alt(lexicon.ALTERNATIVE_OTHERWISE))
_ALTERNATIVE_FOLLOWER = re.compile(r"[ \t]*" + _alt(lexicon.ALTERNATIVE_FOLLOWERS))
_OTHER_CHOICE = re.compile(_alt(lexicon.PRONOUNS + lexicon.ABSTAIN_WORDS))  # X或者他 / X或者弃权
# What may stand before a command word at the start of a clause (see lexicon.LEAD_WORDS).
_LEADS = (
    re.compile(_alt_bounded(lexicon.LEAD_WORDS) + r"[ \t]*:+[ \t]*"),
    re.compile(  # 麻烦主办：, 法官大人：, 天神您好：
        _alt(lexicon.POLITE_WORDS + ("请",)) + "?" + _ADDRESSED + r"[ \t]*[:~]+[ \t]*"
    ),
    # a greeting alone, the address before it being a mention (@主办 您好：预言X)
    re.compile(_alt(lexicon.HONORIFICS) + "?" + _alt(lexicon.GREETINGS) + "[" + lexicon.GREETING_PARTICLES
               + r"]*[ \t]*[:~]+[ \t]*"),
    re.compile(_NUMERAL + r"[ \t]*[、)][ \t]*"),
    re.compile(r"[a-h][)、][ \t]*"),  # a) b) c)
    re.compile(r"\d{1,3}[ \t]*"),  # ① (folded: 1), #2
    re.compile(r"\([ \t]*" + _NUMERAL + r"[ \t]*\)[ \t]*"),
    re.compile(r"第" + _NUMERAL + r"[条点项][ \t:、]*"),
    re.compile(r"@[^\s:@]{1,24}(?:[ \t]+|:[ \t]*)"),
    re.compile(r"【[^】\n]{1,12}】[ \t]*"),
    re.compile(r"\[[^\]\n]{1,12}\][ \t]*"),
    re.compile(_alt(lexicon.LEAD_DAY_WORDS) + r"[ \t]*\d{1,2}(?![a-z0-9_])[ \t:]*"),
    re.compile(r"[^\w\s【\[\"'“‘「『《<(@]+[ \t]*"),
    re.compile(r"\([ \t]*"),
)
_MAX_LEADS = 8
_ANY_LEAD = re.compile("|".join("(?:" + lead.pattern + ")" for lead in _LEADS))
_EDIT_NOTE = re.compile(_alt_bounded(lexicon.EDIT_NOTES) + r"[ \t]*:")
_ECHO = re.compile(_alt(lexicon.ECHO_WORDS))
_BALLOT_HINT = re.compile(
    _alt(lexicon.BALLOT_HINTS) + "[" + lexicon.BALLOT_HINT_TAIL + "]*"
    + _alt(lexicon.BALLOT_HINT_LINKS) + r"?(?:[ \t]*[,;、.。…~]+)?"
)  # fmt: skip
# A word of choice where a command word may stand: after fillers (还是选X, 我们推X, 最终就他了：X).
_BALLOT_HINT_AT = re.compile(_FILLER + _BALLOT_HINT.pattern)
_ASKED_AFTER = re.compile("[?吗呢么]")
_TRAILING_SYMBOLS = re.compile(r"[^\w?]+$")  # spaces, brackets, emoji, punctuation at the end
_OUT_WISH = re.compile(r"[ \t,]*(?:" + _alt(lexicon.OUT_WISH_FILLERS) + r")*" + _alt(lexicon.OUT_WISHES))
_SEND_OFF_WHOLE = re.compile(_FILLER + _alt(lexicon.SEND_OFF_WHOLE) + r"[ \t]*")
_SEND_OFF = re.compile(_FILLER + _alt(lexicon.SEND_OFF_LEADS) + r"[ \t]*")
_SEND_OFF_TAIL = re.compile(r"[ \t]*" + _alt(lexicon.SEND_OFF_TAILS))
_REASON_AFTER_NAME = re.compile(r"[ \t]*[,;:。.(]?[ \t]*" + _alt(("理由", "因为", "原因")))
_CN_DIGITS = lexicon.CN_DIGITS
_KILLS = ("kill", "cannon_kill")


def _after_sep(text: str, pos: int) -> int:
    """The position after the separators (spaces, colons, arrows, 一下) at ``pos``."""
    m = _SEP.match(text, pos)
    return m.end() if m else pos


def _skip_decor(text: str, pos: int) -> int:
    m = _DECOR.match(text, pos)
    return m.end() if m else pos


@lru_cache(maxsize=1024)
def lead_positions(text: str, pos: int) -> tuple[int, ...]:
    """``pos`` and each position after a lead-in there (numbering, PS：, @someone, 【第二天】,
    Day2, symbols and emoji), in order: a command may start at any of them (🔮【预言】X).
    One read asks for the same position about twice (clause starts, then each command): the
    answers for the texts being read are kept."""
    found = [pos]
    for _ in range(_MAX_LEADS):
        if _ANY_LEAD.match(text, pos) is None:
            break  # (one look for the most common case: no lead-in)
        for lead in _LEADS:
            m = lead.match(text, pos)
            if m and m.end() > pos:
                pos = m.end()
                found.append(pos)
                break
        else:
            break
    return tuple(found)


def skip_lead(text: str, pos: int) -> int:
    """The position after every lead-in at ``pos`` (``pos`` when there is none)."""
    return lead_positions(text, pos)[-1]


def _extends_a_name(ch: str) -> bool:
    """Whether ``ch`` could be part of a name (a CJK character, a letter or a digit)."""
    return ch.isalnum() or unicodedata.category(ch) == "Lo"


def _word_chars(text: str) -> int:
    """Characters of ``text`` that say something (not spaces, punctuation, emoji, particles)."""
    return sum(1 for c in text if _extends_a_name(c) and c not in lexicon.NAME_PARTICLES)


@dataclass(frozen=True)
class NameRef:
    """A name as written after a command word.

    Exactly one of these holds: ``player`` is set (resolved), ``ambiguous`` is non-empty, or the
    name is unknown (``written`` is what was written, possibly empty: missing).
    """

    written: str
    player: str | None = None
    ambiguous: tuple[str, ...] = ()
    lookalike: bool = False  # read through the confusables skeleton: the GM is told

    @property
    def resolved(self) -> bool:
        return self.player is not None

    @property
    def names_someone(self) -> bool:
        """Whether it names a player, or several (not an unknown or a missing name)."""
        return self.player is not None or bool(self.ambiguous)


@dataclass(frozen=True)
class Parsed:
    """One command as written, before the game decides whether it counts."""

    intents: tuple[str, ...]  # candidate actions, best first (empty: a correction of a name only)
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
    withdrawn: bool = False  # 撤回加速 / 不同意第N天加速: an agreement taken back
    accused: tuple[NameRef, ...] = ()
    number: int | None = None  # speed-up day
    correction: bool = False  # 改成X / 不对，是X: replaces the command before it
    offered: bool = False  # 或者X after a command: another target offered, alternatives
    # a bare change (改成X) written right after a cannon's platform: X, which may mean the target
    # or the platform (never guessed: the command is not certain, the GM is told)
    unclear_change: tuple[str, NameRef] | None = None  # (the change as written, X)
    meant: bool = False  # a name after a correction word and a colon (更正为：X): a target
    # a declaration alone after text holding a command word in which nothing was read (我和老K
    #都…杀X⏎宣言：…): that word, for an unread_command alert (a kill is never lost in silence)
    unread: str | None = None

    @property
    def names_players(self) -> bool:
        """Whether every name of the command names a player (a command line of a declaration
        must; prose that happens to start with a command word does not)."""
        refs = [r for r in (self.target, self.target2, *self.more_targets) if r is not None]
        return bool(refs) and all(r.names_someone for r in refs)


def _marker_spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


class _Words:
    """Literal words looked for within a span again and again (:meth:`_Reader.written_within`)."""

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words), key=len)
        self._first = frozenset(w[0] for w in ordered)
        self._shortest = re.compile("|".join(map(re.escape, ordered)))

    def table(self, text: str) -> tuple[list[int], list[int]]:
        """Where one of the words starts in ``text``, and where the shortest one there ends."""
        starts: list[int] = []
        ends: list[int] = []
        for i, c in enumerate(text):
            if c in self._first:
                m = self._shortest.match(text, i)
                if m:
                    starts.append(i)
                    ends.append(m.end())
        return starts, ends


_LATER_WORDS = _Words(lexicon.LATER_WORDS)
_LATER_ANY = re.compile(_alt(lexicon.LATER_WORDS))
_REFLECTIONS = re.compile(_alt(lexicon.REFLECTIONS))
_DECLARATION_SAME_WORDS = _Words(lexicon.DECLARATION_SAME)


# command_starts of the texts last read: (text, names, author) -> (starts, weak starts)
_Starts = tuple[tuple[int, ...], frozenset[int]]
_STARTS_KEPT: dict[tuple[str, NameIndex, tuple[str, ...]], _Starts] = {}


@dataclass(frozen=True)
class _SubjectUnit:
    """One unit of a subject (我, a player's name, a partner word): whether it is the writer,
    where its word ends, where it ends (after an aside), and where the next unit may start after
    a link (和, 、, a comma), if one follows."""

    writer: bool
    first_end: int
    end: int
    linked_to: int | None


@dataclass(frozen=True)
class _Subject:
    """A subject from one of its units on: where it ends, whether it holds the writer, where its
    first unit's word ends, and whether more units are linked to that one."""

    end: int
    writer: bool
    first_end: int
    linked: bool


def _within(table: tuple[list[int], list[int]], start: int, stop: int) -> bool:
    """Whether one of the spans of ``table`` (their starts and ends, by start) lies within
    ``[start, stop)``."""
    starts, ends = table
    i = bisect_left(starts, start)
    while i < len(starts) and starts[i] < stop:
        if ends[i] <= stop:
            return True
        i += 1
    return False


@dataclass
class _Reader:
    folded: Folded
    index: NameIndex
    _names: list[tuple[int, int]] = field(default_factory=list)  # names read, sorted
    # Starts inside a condition's clause (如果他不解释投X): only a command naming a player there
    weak_starts: set[int] = field(default_factory=set)
    _probing: bool = False  # reading ahead for _command_inside: no further look-ahead
    author_keys: tuple[str, ...] = ()  # the writer's own name and nicknames, folded
    declarations: bool = True  # a kill's next lines are its declaration (not werewolf's)

    _matches: dict[int, NameMatch | None] = field(default_factory=dict)  # name_at, memoized
    _word_tables: dict[_Words, tuple[list[int], list[int]]] = field(default_factory=dict)
    # _with_platform: spans -> what the platforms named there say
    platforms_said: dict[tuple[tuple[int, int], ...], tuple] = field(default_factory=dict)
    # _subject_at, memoized per author: unit start -> the subject from there (None: no unit)
    _subjects: dict[tuple[str, ...], dict[int, _Subject | None]] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.folded.text

    def name_at(self, pos: int) -> NameMatch | None:
        """The player's name written at ``pos`` (:meth:`NameIndex.match_at`), looked up once."""
        try:
            return self._matches[pos]
        except KeyError:
            found = self._matches[pos] = self.index.match_at(self.folded, pos)
            return found

    # -- positions (tables built once per text) ----------------------------------------------
    @cached_property
    def _change_verbs(self) -> list[int]:
        """Where a change of target is written as a verb by the writer himself, whatever stands
        before it (a comma, a space or nothing: 杀Bob 改杀X): not after a third person or a
        player's name that is the clause's subject (Rex昨天改投老K is about Rex) — a name after
        the writer's own command opening the clause is that command's target (投票：A 不对
        改投B) —, nor right after a platform word (炮架子改成Y changes the platform)."""
        found = []
        subject_at: dict[int, int] = {}  # clause start -> where a third person is first named
        text = self.text
        for m in _CHANGE_VERB.finditer(text):
            begin, stop = self._bounds(self._clause_breaks, m.start())
            if _PLATFORM_BEFORE.search(text, max(begin, m.start() - 12), m.start()):
                continue
            if begin not in subject_at:
                opens = self._opens_with_command(begin)
                subject_at[begin] = self._first_subject(begin, stop, opens)
            if subject_at[begin] >= m.start():
                found.append(m.start())
        return found

    def for_later(self, p: Parsed, end: int) -> Parsed:
        """``p`` (read up to ``end``), conditional when it is a change said for later or as a
        possibility (明天可能改投X, 到时候再改成X): a change verb in it with a word of time to
        come before it in its clause."""
        if not p.correction or p.conditional:
            return p
        change = _CHANGE_VERB.search(self.text, p.pos, end)
        at = change.start() if change else p.pos
        begin = self._bounds(self._clause_breaks, at)[0]
        if not self.written_within(_LATER_WORDS, begin, at):
            return p
        # (a reflection done is no time to come: 再三考虑还是X, 重新考虑之后，改投X)
        said = _REFLECTIONS.sub("", self.text[begin:at])
        return _with(p, conditional=True) if _LATER_ANY.search(said) else p

    def _opens_with_command(self, begin: int) -> bool:
        """Whether the clause at ``begin`` opens (after its lead-in and fillers) with a command
        word of the writer's: 杀Bob…, 投票：A…."""
        text = self.text
        return any(
            pattern.match(text, at)
            for at in lead_positions(text, _first_non_space(text, begin))
            for pattern in _OPENING_COMMANDS
        )

    def _first_subject(self, begin: int, stop: int, opened: bool) -> int:
        """Where a third person (他, a player's name) is first written in ``[begin, stop)`` as
        a subject: when the clause ``opened`` with the writer's own command, a name right after
        a command word or a change verb is its target, not a subject (投票：A 不对 改投B; but
        投票：A 他们都改投B了 names a subject)."""
        text = self.text
        pos = begin
        while pos < stop:
            third = _THIRD_PERSON.match(text, pos)
            name = None if third else self.name_at(pos)
            if third is None and name is None:
                pos += 1
                continue
            window = max(begin, pos - 12)
            if not opened or not (
                _OBJECT_BEFORE.search(text, window, pos) or _PLATFORM_OBJECT.search(text, window, pos)
            ):
                return pos
            pos = third.end() if third is not None else max(name.end, pos + 1) if name else pos + 1
        return stop

    @cached_property
    def platforms(self) -> list[tuple[list[int], list[tuple[int, int, _Platform]]]]:
        """Every platform named in the text (:func:`_all_platforms`), read once, with where each
        starts (for a bisection): :func:`_platforms_in` answers for a span from them."""
        return [([at for at, _, _ in hits], hits) for hits in _all_platforms(self)]

    @cached_property
    def _name_starts(self) -> tuple[list[int], list[int]]:
        """Every position where a player's name starts (overlapping ones too), and its end."""
        starts: list[int] = []
        ends: list[int] = []
        for pos in range(len(self.text)):
            match = self.name_at(pos)
            if match is not None:
                starts.append(pos)
                ends.append(match.end)
        return starts, ends

    def names_between(self, start: int, stop: int) -> bool:
        """Whether a player's name is written within ``[start, stop)`` (as
        :meth:`NameIndex.find_all` over that span would find one)."""
        return _within(self._name_starts, start, stop)

    def written_within(self, words: _Words, start: int, stop: int) -> bool:
        """Whether one of ``words`` is written within ``[start, stop)`` (as a search of their
        alternation there would find it), from a table of where each may be read, made once
        per text: a text of many commands in one long clause or line asks again and again."""
        table = self._word_tables.get(words)
        if table is None:
            table = self._word_tables[words] = words.table(self.text)
        return _within(table, start, stop)

    @cached_property
    def _word_positions(self) -> list[int]:
        """Where the characters that say something are (:func:`_word_chars`), in order."""
        particles = lexicon.NAME_PARTICLES
        return [i for i, c in enumerate(self.text) if _extends_a_name(c) and c not in particles]

    @property
    def first_word_char(self) -> int:
        """Where the first character that says something is, or the length of the text."""
        return self._word_positions[0] if self._word_positions else len(self.text)

    def says_something(self, start: int, stop: int) -> bool:
        """Whether ``[start, stop)`` holds a character that says something (``_word_chars``
        of it is not 0), looked up in the table rather than counted again each time."""
        words = self._word_positions
        i = bisect_left(words, start)
        return i < len(words) and words[i] < stop

    @cached_property
    def withdrawal_lead_end(self) -> int:
        """How far the text opens with nothing but a withdrawal's lead-in (算了，/ 我 …):
        ``_WITHDRAWAL_LEAD`` may match the text up to a position only up to here."""
        return _WITHDRAWAL_LEAD.match(self.text).end()

    def next_clause(self, start: int) -> int | None:
        """The first of :meth:`clause_starts` from ``start`` (a clause's break), without reading
        the rest of the text: the first character there that is no break and no space (a start
        inside a clause, after 就 or a change verb, comes after it), or ``None``."""
        text = self.text
        for i in range(start, len(text)):
            if text[i] not in _CLAUSE_BREAK and not text[i].isspace():
                return i
        return None

    @cached_property
    def _colon_written(self) -> bool:
        return ":" in self.text

    @cached_property
    def _newlines(self) -> list[int]:
        return [i for i, c in enumerate(self.text) if c == "\n"]

    @cached_property
    def _sentence_breaks(self) -> list[int]:
        return [i for i, c in enumerate(self.text) if c in _SENTENCE_BREAK]

    @cached_property
    def _clause_breaks(self) -> list[int]:
        return [i for i, c in enumerate(self.text) if c in _CLAUSE_BREAK]

    @cached_property
    def _conditions(self) -> list[tuple[int, int]]:
        return _marker_spans(_CONDITION, self.text)

    @cached_property
    def _questions(self) -> list[tuple[int, int]]:
        return _marker_spans(_QUESTION, self.text)

    def _bounds(self, breaks: list[int], pos: int) -> tuple[int, int]:
        i = bisect_left(breaks, pos)
        begin = breaks[i - 1] + 1 if i > 0 else 0
        return begin, breaks[i] if i < len(breaks) else len(self.text)

    def line_bounds(self, pos: int) -> tuple[int, int]:
        return self._bounds(self._newlines, pos)

    def sentence_bounds(self, pos: int) -> tuple[int, int]:
        return self._bounds(self._sentence_breaks, pos)

    def clause_end(self, pos: int) -> int:
        """The end of the clause holding ``pos`` (its break, or the end of the text)."""
        return self._bounds(self._clause_breaks, pos)[1]

    def _marked(self, markers: list[tuple[int, int]], begin: int, end: int) -> bool:
        """Whether a marker lies in ``[begin, end)`` outside every name read there (a player
        called 如果 is a name, not a condition)."""
        i = bisect_left(markers, (begin, -1))
        while i < len(markers) and markers[i][0] < end:
            start, stop = markers[i]
            if stop <= end and not self._in_a_name(start, stop):
                return True
            i += 1
        return False

    def _in_a_name(self, start: int, stop: int) -> bool:
        i = bisect_left(self._names, (start + 1, -1))
        return i > 0 and self._names[i - 1][0] <= start and stop <= self._names[i - 1][1]

    def _read_a_name(self, start: int, end: int) -> None:
        insort(self._names, (start, end))

    def clause_starts(self, start: int = 0, end: int | None = None) -> list[int]:
        """Where clauses start: after a clause break, after 就 following a condition, after a
        condition's …的话, and at a command word inside a condition's clause (如果他不解释投X)."""
        text = self.text
        stop = len(text) if end is None else end
        starts = []
        at_start = True
        for i in range(start, stop):
            ch = text[i]
            if ch in _CLAUSE_BREAK:
                at_start = True
                continue
            if at_start and not ch.isspace():
                starts.append(i)
                at_start = False
        for m in _CONSEQUENT.finditer(text, start, stop):
            begin = self.sentence_bounds(m.start())[0]
            if self._marked(self._conditions, begin, m.start()) and m.end() < stop:
                starts.append(m.end())
        clause_done = start
        inside: set[int] = set()
        conditions = self._conditions
        for k in range(bisect_left(conditions, (start, -1)), len(conditions)):
            cstart, cend = conditions[k]
            if cstart >= stop:
                break
            if cstart < clause_done:
                continue
            clause_done = min(self.clause_end(cend), stop)
            inside.update(w.start() for w in _COMMAND_WORD.finditer(text, cend, clause_done))
            ends = text.find(_IF_ENDS, cstart, clause_done)
            if ends >= 0 and ends + len(_IF_ENDS) < clause_done:  # …的话改成X
                inside.add(_first_non_space(text, ends + len(_IF_ENDS)))
        # A change of mind written as a verb is a command wherever it stands in its clause
        # (之前说杀老王，现在改杀Rex; 想了想还是改投Rex), when it names a player.
        changes = self._change_verbs
        i = bisect_left(changes, start)
        while i < len(changes) and changes[i] < stop:
            inside.add(changes[i])
            i += 1
        self.weak_starts.update(inside - set(starts))
        return sorted({*starts, *inside})

    def command_starts(self, author_keys: tuple[str, ...] = ()) -> list[int]:
        """Every position a command may start at: each clause start (after the author's own
        "名字：" at a line start), and the same after its lead-in (1、 PS： 😀 …).

        The same text is read for ballots and for commands (a post in the vote thread): the
        starts of the texts last read, and the weak starts they hold, are kept."""
        key = (self.text, self.index, author_keys)
        kept = _STARTS_KEPT.get(key)
        if kept is None:
            saved, self.weak_starts = self.weak_starts, set()
            try:
                starts = self._command_starts(author_keys)
                kept = (tuple(starts), frozenset(self.weak_starts))
            finally:
                saved.update(self.weak_starts)
                self.weak_starts = saved
            if len(_STARTS_KEPT) >= 8:
                _STARTS_KEPT.clear()
            _STARTS_KEPT[key] = kept
        self.weak_starts.update(kept[1])
        return list(kept[0])

    def _command_starts(self, author_keys: tuple[str, ...]) -> list[int]:
        starts: set[int] = set()
        labelled: set[int] = set()  # after a short framing that ends in a colon: weak starts
        begin = 0
        text = self.text
        for line_end in [*self._newlines, len(text)]:
            first = _skip_own_prefix(self, begin, author_keys)
            for s in self.clause_starts(first, line_end):
                for lead in lead_positions(text, s):
                    starts.add(lead)
                    starts.update(self._after_subject(lead, author_keys))
                framed = _FRAMED_COLON.match(text, s) if self._colon_written else None
                if (
                    framed and not _REPORTED_SPEECH.search(text, s, framed.end())
                    and not self._names_another(s, framed.end())
                ):  # 我帮朋友发一下：占卜X; not 他说：投X, nor another player's words (老王：投X)
                    labelled.add(framed.end())
            begin = line_end + 1
        self.weak_starts.update(labelled - starts)
        return sorted(s for s in starts | labelled if s < len(text))

    def _names_another(self, start: int, stop: int) -> bool:
        """Whether ``[start, stop)`` names a player other than one the writer acts with
        (我和X): then a colon after it gives that player's words, not the writer's."""
        text = self.text
        return any(
            not any(text.endswith(link, start, at) for link in lexicon.JOINT_LINKS)
            for at, _ in self.index.find_all(self.folded, start, stop)
        )

    def _after_subject(self, pos: int, author_keys: tuple[str, ...]) -> list[int]:
        """Where a command may start after the subject written at ``pos``, when the subject
        holds the writer: the author's own name (老王祈祷老王, 七七来投票：X), or 我/我们/两人
        alone or linked with players and partners (我和卢绾今晚查证：X, Ann和我杀X, 灰狼、灰狼王、
        Wolf一致同意【杀人】X), with an aside in brackets (我们两个（老K和Ann）决定杀X, 我（月亮）
        投票：X), and the words after it that say they agree or come to it (都, 一致同意,
        商量好了：, 代表狼队, 来, 的). A subject of other players only (Rex和老K都投X) is talk
        about them."""
        text = self.text
        if pos >= len(text):
            return []
        if text[pos] not in _WRITER_FIRST and not self.index.could_begin(self.folded, pos):
            return []
        subject = self._subject_at(pos, author_keys)
        if subject is None or not subject.writer:
            return []
        subject_end, first_end = subject.end, subject.first_end
        tail = _SUBJECT_TAIL.match(text, subject_end)
        alone = not subject.linked and subject_end == first_end and tail is None
        if alone and text[pos:first_end] in _FILLER_WORDS:
            return []  # 我投X: the filler reads it
        found = [_first_non_space(text, subject_end)]
        if tail is not None:
            found.append(_first_non_space(text, tail.end()))
        return found

    def _subject_at(self, pos: int, author_keys: tuple[str, ...]) -> _Subject | None:
        """The subject whose units (我, a player's name, a partner word, each with an aside in
        brackets) start at ``pos``, linked by 和/、/, …; ``None`` when no unit starts there.

        A subject is the same from each of its units on, whatever stands before: the units of a
        long run (老王，阿杰，老王，… where each name opens a clause) are walked once, and each
        unit's subject is kept (a walk per clause would be quadratic in the run's length)."""
        known = self._subjects.setdefault(author_keys, {})
        walked: list[tuple[int, _SubjectUnit]] = []  # the units not known yet, in order
        at: int | None = pos
        after: _Subject | None = None  # the subject from the unit after the last one walked
        while at is not None and at < len(self.text):
            if at in known:
                after = known[at]
                break
            unit = self._subject_unit(at, author_keys)
            if unit is None:
                known[at] = None
                break
            walked.append((at, unit))
            at = unit.linked_to
        for start, unit in reversed(walked):
            if after is None:  # the last unit (or the next one is no unit): the subject ends here
                after = _Subject(unit.end, unit.writer, unit.first_end, False)
            else:
                after = _Subject(after.end, unit.writer or after.writer, unit.first_end, True)
            known[start] = after
        return known.get(pos)

    def _subject_unit(self, at: int, author_keys: tuple[str, ...]) -> _SubjectUnit | None:
        """One unit of a subject at ``at`` (see :meth:`_after_subject`), or ``None``."""
        text = self.text
        writer = False
        unit = _WRITER.match(text, at) if text[at] in _WRITER_FIRST else None
        if unit is not None:
            writer, stop = True, unit.end()
        else:
            name = self.name_at(at)
            if name is not None:
                if any(at + len(k) == name.end and text.startswith(k, at) for k in author_keys if k):
                    writer = True
                stop = name.end
            else:
                word = _PARTNER.match(text, at)
                if word is None:
                    return None
                stop = word.end()
        first_end = stop
        aside = _SUBJECT_ASIDE.match(text, stop)
        end = aside.end() if aside else stop
        if unit is not None:  # 我Momo投票：X: the writer's own name after 我
            named = _first_non_space(text, end)
            own = next((k for k in author_keys if k and text.startswith(k, named)), None)
            if own is not None and self.name_at(named) is not None:
                end = named + len(own)
        link = _SUBJECT_LINK.match(text, end)
        return _SubjectUnit(writer, first_end, end, link.end() if link else None)

    def next_on_line(self, end: int) -> list[int]:
        """Where a second command may start after one that ended at ``end`` on the same line
        (after spaces or symbols: 投票：A 投票：B, 【杀人】A 【杀人】B)."""
        text = self.text
        pos = end
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        return [
            p for p in lead_positions(text, pos)
            if p > end and p < len(text) and text[p] not in _CLAUSE_BREAK
        ]  # fmt: skip

    def qualified(self, pos: int, end: int, conditions: bool = True) -> bool:
        """Whether the command written in ``[pos, end)`` is qualified: a condition before it or
        in it (if ``conditions``), a question before it in its sentence, its clause asking (a ?
        or 吗 at its end), or a qualifier right after it (，除非…; ，如果他不解释的话). Reasons and
        remarks in later clauses do not count."""
        begin = self.sentence_bounds(pos)[0]
        text = self.text
        if conditions and self._marked(self._conditions, begin, end):
            return True
        if self._marked(self._questions, begin, pos):
            return True
        if pos > begin and text[pos - 1] in lexicon.QUESTION_FINAL:
            return True
        if conditions and not self._probing and self._qualified_after(end):
            return True
        return self._asks(end)

    def _asks(self, end: int) -> bool:
        """Whether the command ending at ``end`` is itself asked: its clause ends in a question
        (? 吗 呢 么) with nothing between the command and it but words that ask about the
        command (可以吗, 行不行) — not a reason or remark of its own words, in brackets or not
        (投票：X（他为什么不说话？）, 投 @X 你们不觉得他很怪吗)."""
        text = self.text
        stop = self.clause_end(end)
        tail = text[max(end, stop - 40) : stop]
        # (what ends it after the question word is no word: 投X吗🤔 asks, as 投X吗 does)
        rest = _TRAILING_SYMBOLS.sub("", _TARGET_QUESTION.sub("", tail))
        # (the question a divination asks of its target is no question to the GM: 占卜X是不是杀手？)
        asked = text[stop : stop + 1] == "?" and not _TARGET_QUESTION_ENDS.search(tail)
        if not (asked or rest.endswith(("?", *lexicon.QUESTION_FINAL, "吗"))):
            return False
        return _word_chars(_QUESTION_ASKS.sub("", rest)) == 0

    def _qualified_after(self, end: int) -> bool:
        """A clause right after the command that qualifies it: 除非…, 前提是…, 看情况, if …; or
        a condition with no consequent of its own: one ending in 的话 (，如果他不解释的话), or one
        about a third person that ends its sentence (，要是他不解释). A remark about the writer
        or the others (，如果我错了请原谅; 如果大家有意见可以讨论; 如果他是好人我道歉) is not."""
        text = self.text
        at = _AFTER_COMMAND.match(text, end)
        pos = at.end() if at else end
        if _TAIL_QUALIFIER.match(text, pos):
            return True
        cond = _CONDITION_OPENS.match(text, pos)
        if cond is None or self._in_a_name(cond.start(), cond.end()):
            return False
        stop = self.clause_end(cond.end())
        if _CONSEQUENT.search(text, cond.end(), stop) or self._command_inside(cond.start(), stop):
            return False  # a conditional command of its own (如果来得及的话改成X), read apart
        if text.endswith(_IF_ENDS, 0, stop):
            return True
        if self._asked_aloud(cond.end(), stop):
            return False  # 万一他是杀手呢 / 要是她是狼怎么办？: the reason's question, a musing
        about = _after_sep(text, cond.end())
        third = _THIRD_PERSON.match(text, about) or self.name_at(about)
        return (
            third is not None and lexicon.FIRST_PERSON not in text[about:stop]
            and stop >= self.sentence_bounds(pos)[1]
        )  # fmt: skip

    def _asked_aloud(self, start: int, stop: int) -> bool:
        """Whether the clause ``[start, stop)`` after a condition word asks a question of its
        own (…呢, …吗, …怎么办？): then the condition is the subject of a question in the
        reason, not a condition the command waits on."""
        text = self.text
        if text[stop : stop + 1] == "?" or self._marked(self._questions, start, stop):
            return True
        return text[start:stop].rstrip(" \t)]】~…!").endswith(lexicon.QUESTION_FINAL)

    def _command_inside(self, begin: int, stop: int) -> bool:
        """Whether a command naming a player starts inside a condition's clause."""
        starts = [w.start() for w in _COMMAND_WORD.finditer(self.text, begin, stop)]
        ends = self.text.find(_IF_ENDS, begin, stop)
        if ends >= 0:
            starts.append(_first_non_space(self.text, ends + len(_IF_ENDS)))
        self._probing = True
        try:
            for at in starts[:_MAX_LEADS]:
                hit = _read_correction_or_command(self, at)
                if hit is not None and hit[0].names_players:
                    return True
            return False
        finally:
            self._probing = False

    # -- names ------------------------------------------------------------------------------
    def _whole_token(self, pos: int) -> int:
        tok = _TOKEN_END.search(self.text, pos, pos + MAX_TOKEN + 1)
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
            or _CHANGE_VERB.match(text, end)  # 占卜Bob改成Anna: a change begins
        )

    def _runs_on(self, end: int) -> bool:
        """Whether a word goes on at ``end`` (小明 明天再说 is 小明 and 明天, not 小明明 + 天)."""
        text = self.text
        return (
            end < len(text) and _extends_a_name(text[end])
            and not (_FOLLOWER.match(text, end) or _PARTICLE.match(text, end))
        )  # fmt: skip

    def _name_at(self, pos: int) -> tuple[NameRef, int] | None:
        """The player's name written at ``pos`` (the longest), read whole: one that runs on
        (老王王) is an unknown token; one that could be a longer player's name written with a
        space or brackets inside (Mia 2, 小鱼(儿)) is ambiguous."""
        match = self.name_at(pos)
        if match is None:
            return None
        longer, stop = self.index.longer_across(self.folded, pos, match)
        if longer and not self._runs_on(stop):
            if stop < len(self.text) and self.text[stop] in ")]】」":
                stop += 1
            players = tuple(sorted({*longer, *(match.ambiguous or (match.player,))} - {None}))
            return NameRef(self.folded.original_slice(pos, stop), None, players), stop
        if self.name_continues(match.end):
            end = self._whole_token(pos)
            return NameRef(self.folded.original_slice(pos, end)), end
        past = self.index.runs_past_space(self.folded, pos, match)
        if past is not None:  # Bob Leo where Bob Lee plays: not Bob
            return NameRef(self.folded.original_slice(pos, past)), past
        self._read_a_name(pos, match.end)
        written = self.folded.original_slice(pos, match.end)
        return NameRef(written, match.player, match.ambiguous, match.lookalike), match.end

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
        if after < len(text) and _DECOR.match(text, after):
            named = self._name_at(after)  # a name that starts with a symbol: 🍉西瓜, ☆星星☆
            if named is not None and named[0].names_someone:
                return named
        pos = _skip_decor(text, after)
        if pos < len(text) and (text[pos] == "@" or text[pos] in _OPEN):
            whole = self._name_at(pos)  # a name that starts with @ or a bracket: [SK]Leo
            if whole is not None:
                return whole
        if pos < len(text) and text[pos] == "@":
            pos += 1
            had_sep = True
        if pos < len(text) and text[pos] in _OPEN:
            close = _OPEN[text[pos]]
            end = text.find(close, pos + 1, pos + 26)
            line_end = self.line_bounds(pos)[1]
            if 0 < end <= line_end and end - pos - 1 <= 24:
                inner = self.folded.original_slice(pos + 1, end).strip().lstrip("@＠")
                match = self.index.resolve(inner)
                if match is not None:
                    self._read_a_name(pos + 1, end)
                    return NameRef(inner, match.player, match.ambiguous, match.lookalike), end + 1
                if inner:
                    return NameRef(inner), end + 1
        found = self._name_at(pos)
        if found is not None:
            return found
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

    def read_name_after_weak_sep(self, pos: int) -> tuple[NameRef | None, int]:
        """A player's name after a weak separator (投票，X / 投票；X); ``(None, pos)`` if none."""
        m = _WEAK_SEP.match(self.text, pos)
        if not m or m.end() == pos:
            return None, pos
        ref, end = self.read_name(m.end(), strict=False)
        if ref is not None and ref.names_someone:
            return ref, end
        return None, pos

    def read_more_names(self, pos: int, reasons: bool = True) -> tuple[list[NameRef], int, bool]:
        """Names listed right after a first one (``阿杰、小明``, ``阿杰 vs 小明``, ``阿杰+小明``),
        where the list ends, and whether they were alternatives (``阿杰或者小明``).

        A name opening a clause of its own (after a comma) that goes on with words of a sentence
        is in a reason, not a listed name: ``投票：阿杰，Rex 验出来的`` as ``投票：阿杰，Rex验出来的``
        (a space after the name does not end its clause, :meth:`_reason_goes_on`). Names
        separated by a space only stay a list (``投票：阿杰 Rex 验出来的``); so do all of them
        with ``reasons=False`` (指控 X，Y 都是杀手: a list by nature)."""
        more: list[NameRef] = []
        alternatives = False
        while True:
            m = _LIST_SEP.match(self.text, pos)
            nxt = m.end() if m else pos
            if nxt < len(self.text) and self.text[nxt] in _OPEN and not (m and m.group(0).strip()):
                # "花间（昨天发言太水）": a reason in brackets, not a name; "项伯(项庄也行)":
                # another name offered
                offered = self._offered_in_brackets(nxt)
                if offered is not None:
                    more.append(offered[0])
                    return more, offered[1], True
                return more, pos, alternatives
            if not m or m.end() == pos:
                return more, pos, alternatives
            if nxt < len(self.text) and self.text[nxt] in _OPEN:  # 阿杰、【小明】
                ref, end = self.read_name(nxt, strict=False)
            else:
                mention = self.text.startswith("@", nxt) and self.name_at(nxt) is None
                match = self.name_at(nxt + 1 if mention else nxt)
                if mention and match is not None and self.says_something(match.end, self.line_bounds(match.end)[1]):
                    return more, pos, alternatives  # 投票：X @Y 你怎么看？: a word to Y, not a name
                nxt += mention  # 投票：@大壮 @Kiki: a second mention alone is a second name (variants)
                if match is None:
                    other = self._offered_other(nxt) if _ALTERNATIVE.fullmatch(m.group(0)) else None
                    if other is not None:  # 投票：X或者他 / 投票：X或者弃权: no one choice
                        return [*more, other[0]], other[1], True
                    return more, pos, alternatives
                if self._correction_before_a_name(nxt, match.end):
                    return more, pos, alternatives  # 占卜老王 改成 投票君 where 改成 plays; 炮架：Y
                written = self.folded.original_slice(nxt, match.end)
                ref, end = NameRef(written, match.player, match.ambiguous, match.lookalike), match.end
                self._read_a_name(nxt, match.end)
            if ref is None:
                return more, pos, alternatives
            nxt_sep = _LIST_SEP.match(self.text, end)
            alternative = bool(_ALTERNATIVE.fullmatch(m.group(0)))
            offered = _ALTERNATIVE_FOLLOWER.match(self.text, end)
            if offered:  # 阿狼 灰狼二选一, 阿狼、灰狼都行
                more.append(ref)
                return more, offered.end(), True
            if not alternative and (  # 老王或者小明都行: alternatives, whatever follows
                (
                    end < len(self.text)
                    and self.text[end] not in _CLAUSE_BREAK + " \t、"
                    and (m.group(0).strip() == "" or _extends_a_name(self.text[end]))
                    and not (nxt_sep and nxt_sep.end() > end)
                )
                or (reasons and m.group(0).strip() == "," and self._reason_goes_on(end))
            ):
                # "投 阿杰 老王也可疑", "投票：老王，小明也可疑", "投票：阿杰，Rex 验出来的": a
                # sentence, not a list
                return more, pos, alternatives
            alternatives = alternatives or alternative
            more.append(ref)
            pos = end

    def _offered_other(self, pos: int) -> tuple[NameRef, int] | None:
        """After an alternative word (X或者…, X，要么…), a choice that is no player's name: 他
        or an abstention (X或者他吧, X，或者弃权也行), as written, and where it ends."""
        text = self.text
        m = _OTHER_CHOICE.match(text, pos)
        if m is None:
            return None
        end = m.end()
        if end < len(text) and _extends_a_name(text[end]) and not (
            _PARTICLE.match(text, end) or _ALTERNATIVE_FOLLOWER.match(text, end)
        ):
            return None  # 他们, 弃权票数: more of a word
        return NameRef(self.folded.original_slice(pos, end)), end

    def _reason_goes_on(self, end: int) -> bool:
        """Whether the clause of a name ending at ``end`` goes on, past a space or past more names
        listed in it, with words of a sentence (``Rex 验出来的``, ``老王 昨天就跳了``, ``Rex 你怎么
        看``, ``Rex和老王都验过``): the clause is a reason about them. Not when it ends with the
        names, or goes on with a reason marker, a particle or 也行 (``Rex 理由：…``, ``Rex 吧``,
        ``Rex 老王都行``): those end a listed name, as a break does; nor when the clause holds a
        ballot word, a change verb or a condition (it is read as before)."""
        text = self.text
        at = end
        while True:  # 阿杰，Rex和老王都验过: past the names listed in the reason's own clause
            sep = _LIST_SEP.match(text, at)
            if sep is None or any(c in _CLAUSE_BREAK for c in sep.group(0)):
                break  # (the clause ends there: a name after it opens a clause of its own)
            match = self.name_at(sep.end())
            if match is None or match.player is None:
                break
            at = match.end
        while at < len(text) and text[at] in " \t":
            at += 1
        return (
            at < len(text) and _extends_a_name(text[at]) and self.name_at(at) is None
            and not _FOLLOWER.match(text, at) and not _PARTICLE.match(text, at)
            and not self._ballot_or_condition_in(end, self.clause_end(at))
        )  # fmt: skip

    def _ballot_or_condition_in(self, start: int, stop: int) -> bool:
        """Whether ``[start, stop)`` holds, outside a player's name, a ballot word (Rex 投票：老王,
        Rex 投的也是他), a change verb (Rex 改投老王了) or a condition or qualifier (Rex 要是不解释的话):
        a clause that may be a ballot, a change or a condition of its own is no plain reason."""
        text = self.text
        names = [(at, m.end) for at, m in self.index.find_all(self.folded, start, stop)]
        for pattern in (_ANY_BALLOT_WORD, _CHANGE_VERB, _CONDITION, _TAIL_QUALIFIER):
            for m in pattern.finditer(text, start, stop):
                if not any(at <= m.start() and m.end() <= end for at, end in names):
                    return True
        return False

    def _correction_before_a_name(self, start: int, end: int) -> bool:
        """Whether the player's name at ``[start, end)`` is a correction word (改成, 换成) or
        another marker word (炮架, 目标, a command word) with another player's name after it:
        then it is the word, changing to that player or marking him (炮打A，炮架：炮架)."""
        if not (
            _CORRECTION.fullmatch(self.text, start, end) or _MARKER_WORD.fullmatch(self.text, start, end)
        ):
            return False
        after = _after_sep(self.text, end)
        return after > end and self.name_at(after) is not None

    def _offered_in_brackets(self, pos: int) -> tuple[NameRef, int] | None:
        """A player offered in brackets after a name: (项庄也行) / (或者项庄) / (项庄) — the name
        and where the brackets end; ``None`` for a reason in brackets."""
        close = _OPEN[self.text[pos]]
        end = self.text.find(close, pos + 1, pos + 30)
        if end < 0:
            return None
        start = pos + 1
        lead = _ALTERNATIVE_LEAD.match(self.text, start)
        at = lead.end() if lead else start
        match = self.name_at(at)
        if match is None or match.player is None:
            return None
        rest = self.text[match.end : end]
        if not (lead or _ALTERNATIVE_FOLLOWER.match(self.text, match.end) or not rest.strip()):
            return None
        ref = NameRef(self.folded.original_slice(at, match.end), match.player, match.ambiguous, match.lookalike)
        return ref, end + 1

    def lone_name_lines(self, pos: int) -> tuple[list[NameRef], int]:
        """Lines from ``pos`` on that hold nothing but one player's name (a ballot's name on the
        next line, and another on the line after: 投票：⏎老王⏎阿杰)."""
        names: list[NameRef] = []
        text = self.text
        while pos < len(text):
            begin = pos + 1 if text[pos] == "\n" else pos
            begin, end = self.line_bounds(begin)
            line = text[begin:end].strip()
            if not line:
                if end >= len(text):
                    break
                pos = end
                continue
            first = begin + len(text[begin:end]) - len(text[begin:end].lstrip())
            if text.startswith("@", first) and self.name_at(first) is None:
                first += 1  # 占卜：⏎@豆豆
            match = self.name_at(first)
            if match is None or _word_chars(text[match.end : end]) > 0:
                break
            names.append(NameRef(self.folded.original_slice(first, match.end), match.player,
                                 match.ambiguous, match.lookalike))  # fmt: skip
            pos = end
        return names, pos


def _skip_own_prefix(reader: _Reader, start: int, author_keys: tuple[str, ...]) -> int:
    """Skip "Lily99：" at a line start (players often sign their posts and PMs that way)."""
    for key in author_keys:
        if key and reader.text.startswith(key, start):
            rest = start + len(key)
            if rest < len(reader.text) and reader.text[rest] == ":":
                return rest + 1
    return start


def _after_a_question(text: str, pos: int) -> bool:
    """Whether ``pos`` comes right after a question mark (spaces aside)."""
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i >= 0 and text[i] == "?"


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


# -- thread posts ------------------------------------------------------------------------------
def read_votes(text: str, index: NameIndex, author_keys: tuple[str, ...] = ()) -> list[Parsed]:
    """Every ballot written in a post's own text (quotes and BBCode already removed).

    Each item has intents ``("vote",)`` or ``("abstain",)``; ``change`` marks 改票 (and a
    correction after an earlier ballot of the post: 更正：X); ``conditional`` a ballot qualified
    by a condition or a question; ``more_targets`` further listed names (``alternatives``:
    written as alternatives). A second ballot on the same line (投票：A 投票：B) is read when it
    names a player.
    """
    reader = _Reader(Folded.of(text), index)
    starts = reader.command_starts(author_keys)
    second: set[int] = set()  # starts after a ballot on its line: only a named player counts
    found: list[Parsed] = []
    consumed = 0
    i = 0
    while i < len(starts):
        pos = starts[i]
        i += 1
        if pos < consumed:
            continue
        hit = _read_ballot_correction(reader, pos) if found else None
        hit = hit or _read_ballot(reader, pos)
        if hit is None and found:
            offered = _offered_ballot(reader, pos)  # 投X，或者投Y / 投票：X，要么Y: alternatives
            if offered is not None and not (
                offered[2] and _command_between(reader, starts, consumed, pos)
            ):  # (a name alone offers another choice for the ballot right before it)
                q = found[-1]
                found[-1] = _with(q, more_targets=q.more_targets + offered[0], alternatives=True)
                consumed = offered[1]
                continue
        if hit is None or (
            (pos in second or pos in reader.weak_starts)
            and hit[0].intents == ("vote",) and not _names_a_choice(hit[0])
            and not hit[0].correction  # 更正：投他: meant, an alert (never the first in silence)
        ) or (found and _pronoun_again(hit[0])):  # fmt: skip
            continue
        parsed, end = hit
        parsed = reader.for_later(parsed, end)
        if (
            parsed.correction and not parsed.conditional
            and not _EDIT_NOTE.search(reader.text, consumed, end)
        ):  # fmt: skip
            # 投票：A，改投B / 投票：A 不对 改投B: the writer's own change before posting, the
            # last one counts; after an edit note (（编辑：改投B）) it is a second ballot
            found = []
        consumed = end
        found.append(parsed)
        for nxt in reader.next_on_line(consumed):
            if nxt not in second:
                second.add(nxt)
                insort(starts, nxt, lo=i)
    return [_one_choice(p) for p in found]


def _pronoun_again(p: Parsed) -> bool:
    """A ballot for 他 after a ballot naming a player (投票：阿杰，我也投他): it says the same
    ballot again, not a second one naming nobody (recheck3 F5: the post counted for nothing
    and its writer was removed for not voting). A change to 他 (改投他) stays an alert."""
    target = p.target
    return (
        p.intents == ("vote",) and not p.change and not p.correction and target is not None
        and target.player is None and fold(target.written).strip() in lexicon.PRONOUNS and not p.more_targets
    )  # fmt: skip


def _offered_ballot(reader: _Reader, pos: int) -> tuple[tuple[NameRef, ...], int, bool] | None:
    """Another choice offered by the clause at ``pos`` after a ballot (投X，或者投Y, 投票：X，要么Y,
    投票：X，或者弃权): the names offered (他 or an abstention as written), where they end, and
    whether they are written alone (no ballot word after the lead)."""
    alt = _alternative_lead(reader, pos)
    if alt is None:
        return None
    offered = _read_ballot(reader, alt)
    if offered is not None and offered[0].target is not None:
        return (offered[0].target, *offered[0].more_targets), offered[1], False
    named = _offered_names(reader, pos, alt)
    return (*named, True) if named is not None else None


def _command_between(reader: _Reader, starts: list[int], start: int, stop: int) -> bool:
    """Whether a clause starting within ``[start, stop)`` opens with a command word: then a name
    offered after it (投票：X，占卜Y，或者Z) is offered for that command, not the one before."""
    text = reader.text
    i = bisect_left(starts, start)
    while i < len(starts) and starts[i] < stop:
        if any(pattern.match(text, starts[i]) for pattern in _OPENING_COMMANDS):
            return True
        i += 1
    return False


def _names_a_choice(p: Parsed) -> bool:
    """Whether ``p`` names players, or a player and other choices (投票：X或者弃权, 占卜X或者他):
    a command where a command word may be only talk (a second one on a line) is read then."""
    return p.names_players or (p.alternatives and p.target is not None and p.target.names_someone)


def _alternative_lead(reader: _Reader, pos: int) -> int | None:
    """Where the alternative lead opening the clause at ``pos`` ends (或者 / 要么就 / 或是), or
    ``None``: none there, a question (要不要), or a player's whole name written there."""
    text = reader.text
    lead = _ALTERNATIVE_LEAD.match(text, pos)
    if lead is None or lead.end() == pos or text.startswith(lexicon.ALTERNATIVE_NOT, pos):
        return None
    otherwise = _OTHERWISE.match(text, pos)
    if otherwise and _CHANGE_VERB.match(text, otherwise.end()):
        return None  # 要不改杀Y: a change offered (as 要不要改成Y), not a second choice
    return None if _whole_name_at(reader, pos) else lead.end()


def _offered_names(reader: _Reader, pos: int, at: int) -> tuple[tuple[NameRef, ...], int] | None:
    """The names a clause opening with an alternative lead at ``pos`` offers, read from ``at``
    (after the lead), when no command word follows it (投票：X，或者Y / 占卜X，要么Y吧): a player's
    name (or 自己, 他, an abstention) and the names listed after it, and where they end.
    ``None`` when no player's name follows (或许Y也有问题: a name run on into more words is none), or when the
    lead also says "otherwise" and the clause goes on as a sentence (投票：X，要不然Y 明天就被刀了:
    a reason about Y)."""
    ref, end = reader.read_name(at, strict=False)
    if ref is None or not ref.names_someone:
        other = reader._offered_other(at)
        if other is None:
            return None
        ref, end = other
    more, end, _ = reader.read_more_names(end)
    if _OTHERWISE.match(reader.text, pos) and reader._reason_goes_on(end):
        return None
    return (ref, *more), end


def cast_as_a_ballot(p: Parsed) -> bool:
    """Whether a ballot read where ballots do not count (the discussion and chat threads) was
    cast there as one, by mistake, rather than talked about: it names a player or abstains,
    and is neither asked nor qualified (要不要投X？), said as an intention (我想投X) nor told as
    done (昨天我改投了X)."""
    if p.conditional or not (p.names_players or p.intents == ("abstain",)):
        return False
    verb = fold(p.verb)
    return not _INTENTION.search(verb) and not _DONE_AT_END.search(verb)


_INTENTION = re.compile(_alt(lexicon.INTENTION_WORDS))
_DONE_AT_END = re.compile("了[" + lexicon.NAME_PARTICLES + "]*$")


def _one_choice(p: Parsed) -> Parsed:
    """Alternatives that all name the same player are that player: a nickname in brackets
    (``白色的猫（猫猫）``) or a name offered twice (``老王或者老王``)."""
    if not p.alternatives or p.platforms or p.target is None:
        return p
    players = {r.player for r in (p.target, *p.more_targets)}
    if len(players) != 1 or None in players:
        return p
    return _with(p, more_targets=(), alternatives=False)


def _read_ballot(
    reader: _Reader, pos: int, conditions: bool = True
) -> tuple[Parsed, int] | None:
    text = reader.text
    m = _ABSTAIN.match(text, pos)
    if m:
        return _abstention(reader, pos, m.end(), conditions), m.end()
    change = False
    ambiguous: NameRef | None = None
    done = _change_done(reader, pos)
    if done is not None and reader.name_at(_after_sep(text, done.end())) is None:
        return None  # 改票了不投自己, 我改票了哈: a remark that the ballot was changed
    m = done or _VOTE_CHANGE.match(text, pos)  # (改投了X, 改票了：X: a change to X)
    if m:
        change = True
        after = _after_sep(text, m.end())
        stop = _abstention_at(text, after)
        if stop is not None:
            abstention = _abstention(reader, pos, stop, conditions, change=True)
            return _with(abstention, correction=True), stop
        inner = _VOTE_STRONG.match(text, after) or _VOTE_WEAK.match(text, after)
        end = inner.end() if inner else m.end()
        strict = True
    else:
        m = _VOTE_STRONG.match(text, pos)
        strict = bool(m)
        if m:
            stop = _abstention_at(text, _after_sep(text, m.end()))
            if stop is not None:
                return _abstention(reader, pos, stop, conditions), stop
        m = m or _VOTE_WEAK.match(text, pos)
        if not m:
            return None
        end = m.end()
        if strict:  # 投票给目标：X, 【投票】目标 where 目标 plays
            word = _VOTE_STRONG_WORD.match(text, pos)
            end, ambiguous = _object_slot(reader, word.end() if word else end, end)
        at = _after_sep(text, end)
        again = _VOTE_WEAK.match(text, at) if strict else None
        if again and again.end() > at and _marker_or_name(reader, at, again.end(), again.end()) != NAME:
            end = again.end()  # the ballot word said twice: 生死投票我投X, 生死投票：投X
    verb = reader.folded.original_slice(pos, end)
    correction = bool(_CHANGE_VERB.search(text, pos, end))  # 改投X, 改为投X
    if not strict and not change and _relative_clause(reader, end):
        return None  # 投Kiki的都是杀手: those who vote for Kiki, said of them (talk)
    ref, after = reader.read_name(end, strict=False, pronouns=True)
    if ambiguous is not None and ref is not None:
        ref = ambiguous
    if (ref is None or not ref.written) and strict:
        ref2, after2 = reader.read_name_after_weak_sep(end)  # 投票，X / 投票；X
        if ref2 is not None:
            ref, after = ref2, after2
    if ref is not None and not strict and not ref.names_someone and not m.group(0).endswith(
        lexicon.VOTE_WEAK
    ):
        return None  # 跟投 / 跟票 take a player's name only (我跟票是因为… is talk)
    line_end = reader.line_bounds(end)[1]
    more: list[NameRef] = []
    if (ref is None or not ref.written) and strict and not text[end:line_end].strip(" \t:"):
        # "投票：" ends its line: the name may stand alone on a later line, else it is missing.
        names, after_lines = reader.lone_name_lines(line_end)
        if not names:
            return Parsed(("vote",), verb, pos, NameRef(""), change=change), end
        ref, more, after = names[0], names[1:], after_lines
    if ref is None:
        return None
    alternatives = False
    if ref.written and not more:
        more, after, alternatives = reader.read_more_names(after)
        after = _names_on_next_lines(reader, ref, more, after)
    return Parsed(
        ("vote",), verb, pos, ref, tuple(more), change=change, alternatives=alternatives,
        conditional=reader.qualified(pos, after, conditions), correction=correction,
    ), after  # fmt: skip


def _relative_clause(reader: _Reader, end: int) -> bool:
    """Whether a bare 投 at ``end`` opens a relative clause (投X的都是杀手, 投X的人): a player's
    name, then 的 and more words of its sentence, not a ballot."""
    at = _after_sep(reader.text, end)
    named = reader.name_at(at)
    if named is None or not reader.text.startswith("的", named.end):
        return False
    return reader.says_something(named.end + 1, reader.clause_end(named.end))


def _change_done(reader: _Reader, pos: int) -> re.Match[str] | None:
    """A ballot's change said as done at ``pos`` (改票了, 我改投了啦): the change word's match
    through 了 and the particles after it, or ``None``. A remark unless a player's name follows
    (改投了X, 改票了：X)."""
    m = _VOTE_CHANGE.match(reader.text, pos)
    return _DONE_PARTICLE.match(reader.text, m.end()) if m else None


def _abstention_at(text: str, pos: int) -> int | None:
    """Where an abstention written where a name would be ends: 弃权, or in brackets or quotes
    as a name may be (投票：（弃权）, 投票：「弃权」); ``None`` if there is none."""
    m = _ABSTAIN.match(text, pos)
    if m:
        return m.end()
    if pos < len(text) and text[pos] in _OPEN:
        m = _ABSTAIN.match(text, pos + 1)
        if m and text.startswith(_OPEN[text[pos]], m.end()):
            return m.end() + 1
    return None


def _names_on_next_lines(reader: _Reader, ref: NameRef, more: list[NameRef], end: int) -> int:
    """When a command's line ends with its name, further lines of nothing but another player's
    name are more names of it (投票：老王⏎阿杰: two targets); adds them to ``more`` and returns
    where they end (``end`` when there are none)."""
    text = reader.text
    line_end = reader.line_bounds(end)[1] if end < len(text) else len(text)
    if line_end >= len(text) or reader.says_something(end, line_end):
        return end
    names, stop = reader.lone_name_lines(line_end)
    seen = {ref.player, *(r.player for r in more)}
    different = [n for n in names if n.player not in seen]
    more.extend(different)
    return stop if different else end


def _read_ballot_correction(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """A correction after an earlier ballot of the same post: 更正：X / 不对，是X, or a ballot
    after the correction word (更正：投X, 写错了，应该投X, 还是投X吧, 打错了，应为X). Marked
    ``correction``: the post's last ballot is the one meant (``read_votes``). A player's name
    written right there is a name even when it opens with a ballot word (改成投票君)."""
    text = reader.text
    m = _CORRECTION.match(text, pos)
    if not m or m.end() == pos or _change_done(reader, pos) is not None:
        return None  # (改票了…: read as a ballot or a remark by _read_ballot)
    stop = _correction_end(reader, pos, m.end())
    verb = reader.folded.original_slice(pos, stop)
    abstained = _abstention_at(text, stop)
    if abstained is not None:  # 更正：弃权
        abstention = _abstention(reader, pos, abstained, True, change=True)
        return _with(abstention, correction=True), abstained
    for after in lead_positions(text, stop):
        if _whole_name_at(reader, after):
            break
        hit = _read_ballot(reader, after)
        if hit is not None and hit[0].target is not None and hit[0].target.written:
            return _with(hit[0], pos=pos, change=True, correction=True), hit[1]
        word = _VOTE_STRONG.match(text, after) or _VOTE_WEAK.match(text, after)
        if word is not None:  # 更正：投王老五: meant as a ballot, whatever the name is
            ref, end = reader.read_name(word.end(), strict=True, pronouns=True)
            if ref is not None and ref.written:
                verb = reader.folded.original_slice(pos, word.end())
                return Parsed(
                    ("vote",), verb, pos, ref, change=True, correction=True,
                    conditional=reader.qualified(pos, end),
                ), end  # fmt: skip
    # a separator after the correction word (更正：X) means a name follows, whatever it is
    strict = text[stop - 1] == ":"
    ref, end = reader.read_name(stop, strict=strict)
    if ref is None or not (ref.names_someone or (strict and ref.written)):
        return None
    # 还是X或者Y吧 / 更正：X、Y: the names listed after it, as after a ballot word
    more, end, alternatives = reader.read_more_names(end)
    conditional = reader.qualified(pos, end)
    return Parsed(
        ("vote",), verb, pos, ref, tuple(more), change=True, conditional=conditional,
        correction=True, alternatives=alternatives,
    ), end  # fmt: skip


def _correction_end(reader: _Reader, pos: int, end: int) -> int:
    """Where the correction words matched in ``[pos, end)`` end: before a player's whole name
    that runs to their end, written after a separator or a whole correction (更正：改成,
    改成改成 where 改成 plays: the name, not a second correction word)."""
    text = reader.text
    for k in range(pos + 1, end):
        match = reader.name_at(k)
        if (
            match is not None and match.end >= end and _whole_name_at(reader, k)
            and (text[k - 1] in ": \t," or _CORRECTION.fullmatch(text, pos, k))
        ):  # fmt: skip
            return k
    return end


def _whole_name_at(reader: _Reader, pos: int) -> bool:
    """Whether a player's whole name is written at ``pos`` and ends its word there (投票君 where
    投票君 plays): a command word it opens with is part of the name."""
    match = reader.name_at(pos)
    if match is None or match.player is None:
        return False
    text, end = reader.text, match.end
    return (
        end >= len(text) or not _extends_a_name(text[end]) or text[end] in lexicon.NAME_PARTICLES
        or _FOLLOWER.match(text, end) is not None
    )  # fmt: skip


MARKER, NAME, BOTH = "marker", "name", "both"


def _marker_or_name(reader: _Reader, start: int, word_end: int, slot: int) -> str:
    """What a marker word written at ``[start, word_end)`` is (炮架子, 目标 after a command
    word), its own name slot starting at ``slot`` (after its links: 炮架子选|Y), where a
    player's name may be written at ``start`` too:

    * ``MARKER`` — no player's whole name starts there, or a shorter one (炮架 in 炮架子：Y);
    * ``NAME`` — a player's whole name that goes on past the marker word (炮架子王, 老炮 …: a
      command word inside a name never marks), or the marker word itself with no player's name
      in its slot (炮架做炮架, 炮打目标，炮架：Y where 炮架 / 目标 plays);
    * ``BOTH`` — the marker word itself, with a player's name in its slot too (炮架：炮架,
      炮打目标：项伯 where 目标 plays): where ``start`` is a name slot, neither is guessed.

    The marker word itself with a colon and a word after it that is no player's name
    (投票给目标：老K) is the ``MARKER``: that name is read, and told as unknown."""
    match = reader.name_at(start)
    if match is None or match.end < word_end or not _whole_name_at(reader, start):
        return MARKER
    if match.end > word_end:
        return NAME
    text = reader.text
    after = _after_sep(text, slot)
    if reader.name_at(after) is not None:
        return BOTH
    meant = ":" in text[slot:after] and after < len(text) and _extends_a_name(text[after])
    return MARKER if meant else NAME


def _abstention(
    reader: _Reader, pos: int, end: int, conditions: bool, change: bool = False
) -> Parsed:
    verb = reader.folded.original_slice(pos, end)
    conditional = reader.qualified(pos, end, conditions)
    return Parsed(("abstain",), verb, pos, change=change, conditional=conditional)


def read_possible_ballot(text: str, index: NameIndex) -> tuple[str, str | None] | None:
    """Why a post with no ballot in it still looks meant as one, and the one player it names
    (``None`` for an echo of the ballot above), or ``None``: only a player's name (with
    punctuation and emoticons), a name followed by a reason (老王，理由：…), a word of choice
    before one name (我选老王, 支持老王, 还是选老王吧), or an echo of the ballot above (同上, +1).

    Such a phrase is read where a command word is: at the start of the post or of any clause,
    after the lead-in clauses the writer opens with (想了很久，/ 纠结了半天，/ 综合来看，/ 算了，),
    which hold no ballot word (a clause about voting that yields nothing is ``unread_command``'s),
    and after lead-ins and fillers. A lone name is one only when the post names no other player;
    a reason after a name or a word of choice may name others (就他了：阿杰，Rex 验出来的), but
    not a list of names (选了老王和阿杰)."""
    folded = Folded.of(text)
    if not folded.text.strip():
        return None
    post = _PossiblePost(_Reader(folded, index))
    for clause in post.lead_in_ends():
        found = post.ballot_at(clause)
        if found is not None:
            return found
    return None


class _PossiblePost:
    """One post read for a possible ballot (:func:`read_possible_ballot`), with the tables that
    keep the reading linear in the post's length: its names, where its last word outside a name
    is, where its word characters are."""

    _ECHO_MAX = max(6, *(len(w) for w in lexicon.ECHO_WORDS))

    def __init__(self, reader: _Reader) -> None:
        self.reader = reader
        text = reader.text
        self.names = reader.index.find_all(reader.folded)
        self.starts = [at for at, _ in self.names]
        self.players = {m.player for _, m in self.names}
        named = bytearray(len(text))
        for at, m in self.names:
            named[at : m.end] = b"\x01" * (m.end - at)
        words = [i for i, c in enumerate(text) if _extends_a_name(c) or c == "+"]
        self.words = words  # (+ for +1)
        self.last_unnamed = max((i for i in words if not named[i] and text[i] != "+"), default=-1)
        self.ballot_word = len(text)
        for m in _ANY_BALLOT_WORD.finditer(text):
            k = bisect_left(self.starts, m.start() + 1) - 1
            if k < 0 or m.end() > self.names[k][1].end:  # not inside a player's name (投票君)
                self.ballot_word = m.start()
                break

    def _nothing_after(self, end: int) -> bool:
        """Whether nothing but punctuation, particles and emoji follows ``end``."""
        text = self.reader.text
        if _ASKED_AFTER.search(text, end):
            return False  # 阿杰出局了吗？ asks
        return all(text[i] in lexicon.NAME_PARTICLES for i in self.words[bisect_left(self.words, end):])

    def lead_in_ends(self) -> Iterable[int]:
        """The start of the post and of each clause after lead-in clauses: clauses holding no
        ballot word (想了很久，/ 算了，)."""
        text = self.reader.text
        clause = _first_non_space(text, 0)
        while clause < len(text) and clause <= self.ballot_word:
            yield clause
            while clause < len(text) and text[clause] not in _CLAUSE_BREAK:
                clause += 1
            clause = _first_non_space(text, clause + 1)

    def ballot_at(self, clause: int) -> tuple[str, str | None] | None:
        """The possible ballot written from ``clause`` to the end of the post, or ``None``."""
        reader, text = self.reader, self.reader.text
        k = bisect_left(self.words, clause)
        if len(self.words) - k <= self._ECHO_MAX:  # 同上 / +1 / 看了半天，同上
            words = "".join(text[i] for i in self.words[k:])
            if _ECHO.fullmatch(words) or (_ECHO.match(words) and len(words) <= 6):
                return "echo", None
        start = skip_lead(text, clause)
        k = bisect_left(self.starts, start)
        if k == len(self.names) or self.names[k][1].player is None:
            return None
        pos, match = self.names[k]
        player = match.player
        if self.players == {player} and self.last_unnamed < start:
            return "name", player  # 老王 / 老王！ / 老王 老王 老王 / 想了很久，老王
        if pos == start and _REASON_AFTER_NAME.match(text, match.end):
            return "name", player  # 老王，理由：划水 (the reason may name others)
        wish = _OUT_WISH.match(text, match.end) if pos == start else None
        if wish is not None and (self._nothing_after(wish.end()) or _REASON_AFTER_NAME.match(text, wish.end())):
            return "name", player  # 阿杰出局吧 / Rex，就是你了 / 墨鱼今天出局吧，理由：划水
        send = _SEND_OFF.match(text, start)
        if send is not None and send.end() == pos and self.players == {player}:
            tail = _SEND_OFF_TAIL.match(text, match.end)
            if tail is not None and self._nothing_after(tail.end()):
                return "name", player  # 送老王走 / 请Rex出局
        whole = _SEND_OFF_WHOLE.match(text, start)
        if whole is not None and whole.end() == pos and self.players == {player} and self._nothing_after(match.end):
            return "name", player  # 送走阿莲(吧)
        hint = _BALLOT_HINT_AT.match(text, start)
        if hint is None:
            return None
        chosen = reader.name_at(_after_sep(text, hint.end()))
        if chosen is None or chosen.player is None:
            return None
        more, _, _ = reader.read_more_names(chosen.end)
        if any(r.player != chosen.player for r in more):
            return None  # 选了老王和阿杰: a list, not one choice
        return "hint", chosen.player


# -- PMs and werewolf skill replies ------------------------------------------------------------
def read_actions(
    text: str, index: NameIndex, kill_posts: bool = True, author_keys: tuple[str, ...] = ()
) -> list[Parsed]:
    """Every command written in a PM (or a 功能树洞 reply), in order, corrections applied.

    With ``kill_posts`` (the ruleset's kills come with a declaration), a kill's declaration is
    the text after a declaration marker (杀人宣言：…), else the lines after the kill (and a long
    remark on its own line); a declaration block *before* the kill line counts too. A line of
    the declaration that is itself a command (抽将 X, 改杀 X, a second 杀 X, a condition) is read
    as one and is not part of the declaration. A line "确定" locks the command before it
    (``confirm``). Vote words in a PM are delegated votes. A cannon's platform may be written
    anywhere in the commands (炮架子：Y, 以Y为炮架, 隔着Y打X). A correction (改成X, 不对，是X)
    replaces the command before it.
    """
    reader = _Reader(Folded.of(text), index, author_keys=author_keys, declarations=kill_posts)
    text_f = reader.text
    found: list[Parsed] = []
    decl_before: tuple[int, int, int] | None = None  # marker, body start, body end
    consumed_to = 0
    starts = reader.command_starts(author_keys)
    second: set[int] = set()  # starts after a command on its line: only a named player counts
    kill: tuple[int, int] | None = None  # the first kill: its index in found, where it ends
    i = 0
    while i < len(starts):
        pos = starts[i]
        i += 1
        if pos < consumed_to:
            continue
        line_begin, line_end = reader.line_bounds(pos)
        if pos == _first_non_space(text_f, line_begin) and _CONFIRM.fullmatch(
            text_f, line_begin, line_end
        ):
            if found:
                found[-1] = _with(found[-1], confirm=True)
            consumed_to = line_end
            continue
        m = _LAST_WORDS.match(text_f, pos)
        if m:
            found.append(_read_last_words(reader, pos, m.end()))
            break
        m = _DECLARATION.match(text_f, pos)
        if kill_posts and m and pos == _first_non_space(text_f, line_begin):
            nxt_kill = _find_kill_after(reader, m.end())
            if nxt_kill is None:
                decl = _split_declaration(reader, m.end(), len(text_f), marked=True)
                word = None if found else _ANY_COMMAND_WORD.search(text_f, 0, pos)
                found.append(
                    Parsed(
                        ("kill_declaration",),
                        reader.folded.original_slice(pos, m.end()),
                        pos,
                        declaration=decl.body,
                        story=lexicon.STORY_WORD in text_f[pos : m.end()],
                        unread=reader.folded.original_slice(*word.span()) if word else None,
                    )
                )
                found.extend(decl.commands)
                break
            decl_before = (pos, m.end(), nxt_kill)
            consumed_to = nxt_kill
            continue
        clause_end = reader.clause_end(pos)
        if found and _AGREEMENT.fullmatch(text_f, pos, clause_end):
            # 以这个为准 / 就这个 / 确定 after a command: that command, confirmed, stands
            found[-1] = _with(found[-1], confirm=True, correction=True)
            consumed_to = clause_end
            continue
        special = _read_clause_command(reader, pos)
        if special is not None:
            found.append(special)
            consumed_to = clause_end
            continue
        command_at = _after_platform(reader, pos)
        if command_at == pos and _PLATFORM.match(text_f, pos):
            # 炮架子选樊哙，目标：张良: a platform, read with the cannon's command; a command
            # may follow its name on the same clause (炮架：白马 / 目标：萧何)
            platform = _platform_at(reader, pos, clause_end)
            for nxt in reader.next_on_line(platform.end) if platform is not None else ():
                if nxt not in second:
                    second.add(nxt)
                    insort(starts, nxt, lo=i)
            continue
        hit = _read_correction_or_command(reader, command_at, bool(found))
        if hit is None or (
            (pos in second or pos in reader.weak_starts)
            and not (
                _names_a_choice(hit[0]) or hit[0].offered
                or _cancels_a_command(hit[0]) or _names_anew(hit[0])
            )
        ):
            continue
        if _offered_alone(hit[0]) and _command_between(reader, starts, consumed_to, pos):
            continue  # 杀X，占卜Y，或者Z: offered for 占卜Y (unread), not for 杀X
        parsed, end = hit
        parsed = reader.for_later(parsed, end)
        if kill_posts and set(parsed.intents) & set(_KILLS):
            kill = (len(found), end)
            found.append(parsed)
            break
        if "cannon_kill" in parsed.intents:
            parsed = _with_platform(reader, parsed, [(0, len(text_f))])
        found.append(parsed)
        consumed_to = end
        for nxt in reader.next_on_line(end):
            if nxt not in second:
                second.add(nxt)
                insort(starts, nxt, lo=i)
    if kill is not None:
        found = _kill_and_after(reader, found, kill, decl_before)
    found = _after_platforms(reader, found)
    if found and found[0].correction and not found[0].intents and found[0].target is not None:
        found[0] = _with_mentioned_verb(reader, found[0])
    return [_one_choice(p) for p in apply_corrections(found)]


def _after_platforms(reader: _Reader, found: list[Parsed]) -> list[Parsed]:
    """A bare change (改成X, 换成X: no command word, a name) is the writer changing the last
    thing he named; when that is a cannon's platform (炮打A，炮架子Y，改成X / 炮架子Y，改成X), it
    may change the platform or the target, and neither is guessed: ``unclear_change``. A change
    verb says what it changes (改打X: the target; 炮架改成X: the platform). A name offered
    right after a platform (炮打A，炮架子：Y，或者Z) is another platform.

    The platforms named before each change are taken as the changes come, in order of
    position (a text of many platforms and many changes is read in linear time)."""
    asks = sorted(
        (p.pos, k) for k, p in enumerate(found)
        if (p.correction or p.offered) and not p.intents and p.target is not None and p.target.written
    )  # fmt: skip
    if not asks:
        return found
    hits = sorted(
        (needs, rank, hit)
        for rank, (_, needs, hit) in enumerate(h for _, group in reader.platforms for h in group)
    )
    if not hits:
        return found
    out = list(found)
    ends: list[tuple[int, int, _Platform]] = []  # the platforms read so far: (end, -rank, hit)
    furthest = -1  # the furthest end of a platform read so far
    i = 0
    for pos, k in asks:
        while i < len(hits) and hits[i][0] <= pos:  # (a platform read before pos)
            _, rank, hit = hits[i]
            insort(ends, (hit.end, -rank, hit))
            furthest = max(furthest, hit.end)
            i += 1
        j = bisect_left(ends, (pos + 1,)) - 1
        out[k] = _after_a_platform(reader, found[k], furthest > pos, ends[j][2] if j >= 0 else None)
    return out


def _after_a_platform(reader: _Reader, p: Parsed, inside: bool, last: _Platform | None) -> Parsed:
    """``p``, a bare change or an offered name (see :func:`_after_platforms`), given whether a
    platform named before it runs on past it (``inside``: it was read with that platform) and the
    platform named last before it (the one ending last, the first of them written)."""
    if p.offered and inside:
        return _with(p, offered=False)  # read with the platform it follows on its line
    if last is None:
        return p
    if reader.names_between(last.end, p.pos):
        return p  # a name after the platform (炮架子Y，炮打A，改成X): the command is changed
    if p.offered:
        return _with(p, platform=last.names[0])
    return _with(
        p, intents=("cannon_kill",), unclear_change=(p.verb, p.target), platform=last.names[0]
    )


def _with_mentioned_verb(reader: _Reader, p: Parsed) -> Parsed:
    """A change naming only a player, with no command before it (本来想占卜糖糖的，临时改成老K):
    the command word written last before it, if any, is the one changed."""
    words = list(_ANY_VERB.finditer(reader.text, 0, p.pos))
    if not words:
        return p
    return _with(p, intents=_VERB_INTENTS[words[-1].group(0)])


def _read_clause_command(reader: _Reader, pos: int) -> Parsed | None:
    """Commands that are a whole clause: 同意第N天加速 / 同意加速 (a question or a condition
    makes it conditional; 同意加速的请回复 is not consent), its withdrawal (撤回加速, 不同意第N天
    加速) and 申请减速."""
    text = reader.text
    stop = reader.clause_end(pos)
    for pattern, action in ((_SPEED_UP_WITHDRAWN, "speed_up"), (_SPEED_UP, "speed_up"), (_SLOW_DOWN, "slow_down")):
        m = pattern.match(text, pos)
        if not m:
            continue
        tail = _CLAUSE_TAIL.match(text, m.end(), stop)
        if tail is None or tail.end() < stop:
            return None  # 同意加速的请回复: talk about it, not consent
        number = _cn_number(m.group(1)) if action == "speed_up" else None
        verb = reader.folded.original_slice(pos, m.end())
        return Parsed((action,), verb, pos, number=number, conditional=reader.qualified(pos, m.end()),
                      withdrawn=pattern is _SPEED_UP_WITHDRAWN)  # fmt: skip
    return _skill_withdrawn(reader, pos, stop)


def _skill_withdrawn(reader: _Reader, pos: int, stop: int) -> Parsed | None:
    """A skill taken back, the whole clause and no name (不救了, 取消【救药】, 救药不用了): the
    actor's standing one of that skill no longer counts (the latest reply counts). A ballot
    is never taken back this way (D-I; elsewhere a ballot is changed, not withdrawn)."""
    text = reader.text
    m = _SKILL_WITHDRAWN.match(text, pos, stop)
    if not m:
        return None
    tail = _CLAUSE_TAIL.match(text, m.end(), stop)
    if tail is None or tail.end() < stop:
        return None  # a name or more words follow: not a bare withdrawal
    word = next(g for g in m.groups() if g)
    after_verb = text.find(word, pos) + len(word)
    if any(_whole_name_at(reader, p) for p in range(after_verb, m.end())):
        return None  # 【守护】算了 where 算了 plays: the player
    if not _only_commands_around(reader, pos, stop):
        return None  # 今晚先不验了，好纠结，明天再说吧: talk about it, for the GM to read

    intents = tuple(i for i in _VERB_INTENTS[word] if i not in _BALLOT_INTENTS)
    if not intents:
        return None
    verb = reader.folded.original_slice(pos, m.end()).strip(" \t,，:：")
    return Parsed(intents, verb, pos, withdrawn=True, conditional=reader.qualified(pos, m.end()))


def _only_commands_around(reader: _Reader, pos: int, stop: int) -> bool:
    """Whether a withdrawal in ``[pos, stop)`` opens the text and only a command (or a change:
    改成【毒药】X) follows it. After a command in the same text (占卜X，取消占卜) the command
    before it is no longer certain instead, and the GM is told (docs/intake.md)."""
    text = reader.text
    if reader.first_word_char < pos and not (
        pos <= reader.withdrawal_lead_end and _WITHDRAWAL_LEAD.fullmatch(text, 0, pos)
    ):
        return False  # (算了，不束魂了: a lead-in only)
    later = reader.next_clause(stop)
    if later is None:
        return True
    return (
        _read_correction_or_command(reader, later) is not None
        or _read_clause_command(reader, later) is not None
    )


def _read_correction_or_command(
    reader: _Reader, pos: int, after_command: bool = False
) -> tuple[Parsed, int] | None:
    """A command at ``pos``, or a correction there (改成X, 不对，改杀X, 更正：X, 还是阿杰吧)
    marked ``correction`` (with no intents when only a name follows: the command before it is
    meant; with no target either when nothing follows: 算了, 以第一条为准). After a command
    (``after_command``), a clause offering another target (或者占卜X) is marked ``offered``."""
    text = reader.text
    if after_command:
        alt = _alternative_lead(reader, pos)
        if alt is not None:
            hit = _read_correction_or_command(reader, alt)
            if hit is not None and hit[0].target is not None:
                return _with(hit[0], offered=True, correction=False), hit[1]
            bare = hit is None or hit[0].target is None  # 或者Y / 或者弃权: no command word
            named = _offered_names(reader, pos, alt) if bare else None
            if named is not None:  # 占卜X，要么Y / 委托投票：X，或者弃权: for the command before it
                verb = reader.folded.original_slice(pos, alt).strip(" \t,，:：")
                refs, end = named
                return Parsed((), verb, pos, refs[0], refs[1:], offered=True), end
    m = _CORRECTION.match(text, pos)
    fixed = _correction_end(reader, pos, m.end()) if m else pos
    if fixed > pos:
        verb = reader.folded.original_slice(pos, fixed).strip(" \t,，:：")
        stop = reader.clause_end(fixed)
        cancelled = _CANCELLED.match(text, fixed, stop)
        if (
            after_command and cancelled and not reader.says_something(cancelled.end(), stop)
            and not _after_a_question(text, pos)  # 要是她是狼怎么办？算了: the worry, dismissed
            and not _resigned(text, pos, cancelled.end())  # 弃权算了: the command, resigned to
        ):
            # 算了 / 以第一条为准 / 取消占卜 / 算了不占卜了: the target is no longer certain
            conditional = reader.qualified(pos, stop)
            verb = reader.folded.original_slice(pos, cancelled.end()).strip(" \t,，:：")
            return Parsed((), verb, pos, correction=True, conditional=conditional), stop
        for after in lead_positions(text, fixed):
            if _whole_name_at(reader, after):
                break  # 改成 投票君 where 投票君 plays: the name, not 投票 + 君
            hit = _read_command(reader, _after_platform(reader, after))
            if hit is not None:
                return _with(hit[0], correction=True), hit[1]
        # a separator after the correction word (更正为：X) means a name follows, whatever it is
        meant = text[fixed - 1] == ":"
        ref, end = reader.read_name(fixed, strict=meant)
        if ref is not None and ref.written:
            more, end, alternatives = reader.read_more_names(end)
            conditional = reader.qualified(pos, end)
            return Parsed(
                (), verb, pos, ref, tuple(more), alternatives=alternatives,
                conditional=conditional, correction=True, meant=meant,
            ), end  # fmt: skip
    return _read_command(reader, pos)


def _resigned(text: str, pos: int, end: int) -> bool:
    """A resignation tail written right after a command, with no break (弃权算了, 投老王得了):
    not a cancel."""
    return pos > 0 and not text[pos - 1].isspace() and _RESIGNATION.fullmatch(text, pos, end) is not None


_RESIGNATION = re.compile(_alt(lexicon.RESIGNATION_TAILS) + "[" + lexicon.NAME_PARTICLES + "]*")


def apply_corrections(found: list[Parsed]) -> list[Parsed]:
    """The commands that stand once every correction replaced the command it corrects: the
    latest target counts. A correction naming only a player takes the command before it; one
    with nothing before it is dropped; one naming nobody (算了, 以第一条为准) leaves the command
    before it uncertain (conditional: the GM is told). A conditional correction replaces
    nothing (it is refused on its own, and the command before it stands), nor does any
    correction replace a command locked with 确定 (the lock decides, W-D1). A target offered
    after a command (或者X) makes it alternatives."""
    out: list[Parsed] = []
    unclear = any(p.unclear_change is not None for p in found)
    # the commands a bare cancel left uncertain (祈祷 A⏎作废⏎祈祷 B): a later command of their
    # kind replaces them, as a correction would (nothing uncertain is left to tell the GM)
    withdrawn: list[Parsed] = []

    def last_targeted() -> int | None:  # the command before, with a target
        return next(
            (k for k in range(len(out) - 1, -1, -1) if out[k].intents and is_targeted(out[k])),
            None,
        )

    for p in found:
        if p.unclear_change is not None and not p.conditional:
            # 炮打A，炮架子Y，改成X: the target or the platform? The cannon is not certain.
            cannon = next((k for k in range(len(out) - 1, -1, -1) if "cannon_kill" in out[k].intents), None)
            if cannon is not None:
                out[cannon] = _with(out[cannon], unclear_change=p.unclear_change)
                continue
        if p.correction and not p.intents:
            before_at = last_targeted()
            if before_at is None:
                continue
            before = out[before_at]
            if p.target is None:  # a bare 算了 / 以第一条为准: what stands is no longer certain
                if not p.conditional:  # (如果X死了就算了: it stands)
                    out = [_with(q, conditional=True) if _uncertain_now(q) else q for q in out]
                    withdrawn = [q for q in out if q.conditional]
                continue
            p = _with(
                before, verb=p.verb, pos=p.pos, target=p.target, more_targets=p.more_targets,
                alternatives=p.alternatives, conditional=p.conditional, confirm=p.confirm,
                correction=True, change=False,
            )  # fmt: skip
        if p.offered:
            same = next(
                (k for k in range(len(out) - 1, -1, -1) if _kinds(out[k]) & _kinds(p)),
                None,
            ) if p.intents else last_targeted()  # 要不改成X？: another target for the command before
            if same is not None:
                q = out[same]
                offered = tuple(r for r in (p.target, *p.more_targets) if r is not None)
                if p.platform is not None and not p.intents:  # 炮架子：Y，或者Z: platforms
                    out[same] = _with(q, platforms=q.platforms + offered, alternatives=True)
                else:
                    out[same] = _with(q, more_targets=q.more_targets + offered, alternatives=True)
                continue
        if not p.intents:
            continue  # a name offered with no command before it to take
        if unclear and "cannon_kill" in p.intents and p.unclear_change is None:
            # 炮架子Y，改成B，炮打A: the platform is not certain for the cannon written after it
            alone = next((q for q in out if q.unclear_change is not None and q.correction), None)
            if alone is not None:
                out.remove(alone)
                p = _with(p, unclear_change=alone.unclear_change)
        if p.correction and not p.conditional:  # a command locked with 确定 stays: see locked
            out = [q for q in out if q.confirm or not set(q.intents) & set(p.intents)]
        elif withdrawn and not p.conditional:
            out = [q for q in out if not (any(q is w for w in withdrawn) and set(q.intents) & set(p.intents))]
        out.append(p)
    return out


def _offered_alone(p: Parsed) -> bool:
    """A name offered with no command word after its lead (占卜X，要么Y): for the command right
    before it."""
    return p.offered and not p.intents


def _kinds(p: Parsed) -> set[str]:
    """The kinds of command ``p`` may be, a delegated ballot or abstention being one (弃权，或者
    委托投票：X offers another choice for the same ballot)."""
    return {"delegate" if i.startswith("delegate") else i for i in p.intents}


def _names_anew(p: Parsed) -> bool:
    """A correction naming a target that is no player's (更正为：王老五): meant, so an alert for
    the GM, never the corrected command in silence."""
    return p.correction and p.meant and not p.intents and p.target is not None


def _cancels_a_command(p: Parsed) -> bool:
    """A correction naming nobody that names a command (取消占卜, 算了不占卜了): it counts on the
    command's own line too (a bare 算了 there may be talk)."""
    return p.correction and p.target is None and bool(_ANY_VERB.search(fold(p.verb)))


def _uncertain_now(p: Parsed) -> bool:
    """Whether a bare 算了 / 以第一条为准 after ``p`` makes it uncertain: a command with a
    target, not locked with 确定."""
    return bool(p.intents) and is_targeted(p) and not p.confirm


def is_targeted(p: Parsed) -> bool:
    """A command with a target (not last words, a declaration alone or a speed-up)."""
    return p.intents[0] not in ("last_words", "kill_declaration", "speed_up", "slow_down")


def _read_command(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """The command starting at ``pos``, and where it ends."""
    hit = (
        _read_pm_abstention(reader, pos)
        or _read_delegate_to(reader, pos)
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
    word_at = m.start(1) if m.group(1) else m.start(2) - 1
    word_end = m.end(1) if m.group(1) else m.end(2) + 1
    if weak and _marker_or_name(reader, word_at, word_end, word_end) == NAME and not reader.name_at(word_end):
        return None  # 炮架 where 炮架 plays: a name, not 炮 + 架…
    start, ambiguous = _object_slot(reader, word_end, m.end())
    # 再改杀X, 改为庇佑X: a change verb in the framing is a correction (the last one counts);
    # 确定杀X: agreement in the framing confirms the command
    change = bool(_CHANGE_VERB.search(text, pos, m.end()))
    confirm = bool(_CONFIRM_FIRST_RE.search(text, pos, word_at))
    particle = _VERB_PARTICLE.match(text, start)
    named = reader.name_at(start) if particle else None
    if (
        particle and (not word.startswith("【") or particle.group(0) in lexicon.CHANGE_PARTICLES)
        and (named is None or named.end < particle.end() or not _whole_name_at(reader, start))
    ):  # fmt: skip  (炮打改成 where 改成 plays: the name)
        start = particle.end()  # 杀了老王, 祈祷给老王, 占卜改成老王
        change = change or particle.group(0) in lexicon.CHANGE_PARTICLES
    twice = _after_sep(text, start)
    again = _WEAK_VERB.match(text, twice) or _ANY_VERB.match(text, twice)
    if (
        again and not weak and set(_VERB_INTENTS.get(again.group(0), ())) & set(intents)
        and reader.name_at(twice) is None  # 【守护】守门员: a name
    ):  # fmt: skip
        # 用毒药毒X, 用救药救X, 【殉职】警徽移交给X: the verb said twice
        start = _after_sep(text, again.end())
        if (particle := _VERB_PARTICLE.match(text, start)) is not None:
            start = particle.end()
    elif (
        "sheriff_successor" in intents and reader.name_at(twice) is None
        and (handover := _HANDOVER.match(text, twice)) is not None
    ):  # fmt: skip
        start = _after_sep(text, handover.end())  # 【殉职】我把警徽移交给X
    ref, end = reader.read_name(start, strict=bracketed, pronouns=True)
    if ambiguous is not None and ref is not None:
        ref = ambiguous
    if (ref is None or not ref.written) and not weak:
        ref2, end2 = reader.read_name_after_weak_sep(start)
        if ref2 is not None:
            ref, end = ref2, end2
    if ref is None or not ref.written:
        line_end = reader.line_bounds(m.end())[1]
        if not weak and _after_sep(text, m.end()) >= line_end:  # (诅咒一下⏎X: 一下 is no name)
            topic = _topic_before(reader, pos)  # Zoe，占卜: the player named first
            # the name alone on the next line (祈祷⏎X), as a ballot's may be (投票：⏎X)
            # (a kill's next lines are its declaration, where kills have one)
            lone = topic is None and not (reader.declarations and set(intents) & set(_KILLS))
            names, after = reader.lone_name_lines(line_end) if lone else ([], 0)
            if names:
                return Parsed(intents, verb, pos, names[0], tuple(names[1:])), after
            return Parsed(intents, verb, pos, topic or NameRef("")), m.end()  # "占卜：" alone
    if ref is None:
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
        if not (reader.declarations and set(intents) & set(_KILLS)):  # (its declaration)
            end = _names_on_next_lines(reader, ref, more, end)
    return Parsed(
        intents, verb, pos, ref, tuple(more), alternatives=alternatives, correction=change,
        confirm=confirm,
    ), end


def _object_slot(reader: _Reader, word_end: int, end: int) -> tuple[int, NameRef | None]:
    """Where the name of a command word ending at ``word_end`` is read, when an object word
    (目标, 对象：) was read after it up to ``end``: there (炮打目标：X), or at ``word_end`` when
    a player's name is written there (炮打目标 where 目标 plays); with an ambiguous name when
    either may be meant (炮打目标：项伯 where 目标 plays)."""
    if end <= word_end:
        return end, None
    suffix = _OBJECT_WORD.match(reader.text, word_end)
    said = _marker_or_name(reader, word_end, suffix.end() if suffix else end, end)
    if said == NAME:
        return word_end, None
    return end, (_either_name(reader, word_end, end) if said == BOTH else None)


def _either_name(reader: _Reader, start: int, slot: int) -> NameRef | None:
    """A player's name written where a marker word is too, with another player's name in the
    marker's slot (炮打目标：项伯 where 目标 plays): either may be meant, an ambiguous name
    (``None`` when both name the same player)."""
    first, other = reader.name_at(start), reader.name_at(_after_sep(reader.text, slot))
    players = {p for m in (first, other) if m is not None for p in (m.ambiguous or (m.player,))}
    if len(players) < 2:
        return None  # 占卜对象：对象 where 对象 plays: the same player either way
    stop = other.end if other is not None else slot
    written = reader.folded.original_slice(start, stop)
    return NameRef(written, None, tuple(sorted(p for p in players if p is not None)))


def _topic_before(reader: _Reader, pos: int) -> NameRef | None:
    """The player named first on the line of a command word that ends it with no name
    (``Zoe，占卜`` in a PM to the GM: topic first), or ``None``: only one player's name, not the
    writer's own, and a comma or a space before the command word (``Zoe：占卜`` is a label)."""
    text = reader.text
    first = _first_non_space(text, reader.line_bounds(pos)[0])
    match = reader.name_at(first)
    if (
        match is None or match.player is None or match.end > pos
        or text[match.end : pos].strip(" \t,、") != ""
    ):  # fmt: skip
        return None
    if any(k and first + len(k) == match.end and text.startswith(k, first) for k in reader.author_keys):
        return None
    written = reader.folded.original_slice(first, match.end)
    return NameRef(written, match.player, lookalike=match.lookalike)


def _read_name_first(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """Commands written name first: 为X祈祷, 抓X替我抽将 (lexicon ``NAME_FIRST``)."""
    for lead, tail, intents in _NAME_FIRST:
        m = lead.match(reader.text, pos)
        if not m:
            continue
        start = _after_sep(reader.text, m.end())
        match = reader.name_at(start)
        if match is None:
            continue
        after = tail.match(reader.text, match.end)
        if not after:
            continue
        written = reader.folded.original_slice(start, match.end)
        verb = reader.folded.original_slice(pos, after.end())
        ref = NameRef(written, match.player, match.ambiguous, match.lookalike)
        return Parsed(intents, verb, pos, ref), after.end()
    return None


def _read_delegate_to(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """委托阿杰帮我投 …: delegating to another player, which the rules forbid (D-D)."""
    m = _DELEGATE_TO.match(reader.text, pos)
    if not m:
        return None
    start = _after_sep(reader.text, m.end())
    match = reader.name_at(start)
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
            NameRef(written, match.player, match.ambiguous, match.lookalike),
        ),
        line_end,
    )


def _read_pm_abstention(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    """弃权 / 委托投票：弃权 in a PM: a delegated abstention (family A refuses it)."""
    m = _ABSTAIN.match(reader.text, pos)
    if not m:
        return None
    return _with(_abstention(reader, pos, m.end(), False), intents=("delegate_abstain",)), m.end()


def _read_pm_vote(reader: _Reader, pos: int) -> tuple[Parsed, int] | None:
    hit = _read_ballot(reader, pos, conditions=False)
    if hit is None:
        return None
    parsed, end = hit
    intents = ("delegate_vote",) if parsed.intents == ("vote",) else ("delegate_abstain",)
    return _with(parsed, intents=intents), end


# -- cannon platforms --------------------------------------------------------------------------
def _after_platform(reader: _Reader, pos: int) -> int:
    """Where the command of a clause starts when the clause opens with its platform: 隔着Y打X,
    架 Y 打 X, 用Y当炮架子打X (else ``pos``)."""
    m = _PLATFORM_LEAD.match(reader.text, pos)
    if not m:
        return pos
    match = reader.name_at(m.end())
    if match is None:
        return pos
    end = match.end
    as_word = _PLATFORM_AS_AFTER.match(reader.text, end)
    if as_word:
        end = as_word.end()
    nxt = _after_sep(reader.text, end)
    return nxt if _VERB_RE.match(reader.text, nxt) else pos


@dataclass(frozen=True)
class _Platform:
    """A platform as written: its names (more than one: a list), where it ends, whether they
    are alternatives (炮架子：Y或者Z) and whether it is asked (炮架子：Y？)."""

    names: tuple[NameRef, ...]
    end: int
    alternatives: bool
    asked: bool
    corrected: bool = False  # 炮架改成Y, 更正：炮架子：Y: replaces the platforms before it
    slot: int = 0  # where its name is written


def _platform_at(reader: _Reader, pos: int, stop: int) -> _Platform | None:
    """The platform named at ``pos`` (炮架子：Y, 隔着Y), or ``None``."""
    text = reader.text
    m = _PLATFORM.match(text, pos) or _PLATFORM_ACROSS.match(text, pos)
    if not m:
        return None
    word = _PLATFORM_WORD.match(text, pos)
    if word is not None and _marker_or_name(reader, pos, word.end(), m.end()) == NAME:
        return None  # a player's name (炮架做炮架, 炮架子王 where they play), not the word
    name_at = m.end()
    changed = bool(m.lastindex and m.group(1))
    if changed and _whole_name_at(reader, m.start(1)) and reader.name_at(m.start(1)).end >= m.end():
        name_at, changed = m.start(1), False  # 炮架子改成 where 改成 plays: the name
    if name_at >= stop:
        return None
    ref, end = reader.read_name(name_at, strict=bool(_PLATFORM.match(text, pos)))
    if ref is None or not (ref.resolved or ref.written):
        return None
    more, end, alternatives = reader.read_more_names(end)
    offered = _offered_on_line(reader, end)  # 炮架子：Y，或者Z
    if offered is not None:
        more, end, alternatives = [*more, *offered[0]], offered[1], True
    asked = reader.qualified(pos, end, conditions=False)
    line_begin = reader.line_bounds(pos)[0]
    corrected = changed or bool(
        _CORRECTION.fullmatch(text, _first_non_space(text, line_begin), pos)
    )
    return _Platform((ref, *more), end, alternatives, asked, corrected, name_at)


def _offered_on_line(reader: _Reader, end: int) -> tuple[tuple[NameRef, ...], int] | None:
    """The names a clause right after ``end`` on its line offers (炮架子：Y，或者Z: another
    platform), and where they end."""
    at = _OFFER_GAP.match(reader.text, end).end()
    alt = _alternative_lead(reader, at) if at > end else None
    return _offered_names(reader, at, alt) if alt is not None else None


_OFFER_GAP = re.compile(r"[ \t]*[,;.。、~…]*[ \t]*")


def _platform_mentions(reader: _Reader, spans: Iterable[tuple[int, int]]) -> list[_Platform]:
    """Every platform named in the ``[start, stop)`` spans, in order."""
    found: list[tuple[int, _Platform]] = []
    for start, stop in spans:
        found.extend(_platforms_in(reader, start, stop))
    return [hit for _, hit in sorted(found, key=lambda f: f[0])]


def _platforms_in(reader: _Reader, start: int, stop: int) -> list[tuple[int, _Platform]]:
    """The platforms named in ``[start, stop)`` (where each starts, and the platform): those
    written with a platform word (炮架子：Y, 隔着Y) whose name is written before ``stop``, then
    those written name first (Y为炮架) whose name ends by ``stop``."""
    found: list[tuple[int, _Platform]] = []
    for starts, hits in reader.platforms:
        i = bisect_left(starts, start)
        while i < len(starts) and starts[i] < stop:
            at, needs, hit = hits[i]
            if needs <= stop:
                found.append((at, hit))
            i += 1
    return found


def _all_platforms(reader: _Reader) -> list[list[tuple[int, int, _Platform]]]:
    """Every platform named in the text, read once: those written with a platform word, then
    those written name first, each in order, as (where it starts, how far the text must reach
    for it to be read, the platform)."""
    text = reader.text
    if not _PLATFORM_ANY.search(text):
        return [[], []]
    marked: list[tuple[int, int, _Platform]] = []
    names = reader.index.find_all(reader.folded)
    # a platform word inside a player's whole name (老炮架, 让架子) never marks a platform
    inside = {k for at, match in names if _whole_name_at(reader, at) for k in range(at + 1, match.end)}
    for pos in range(len(text)):
        if (pos > 0 and text[pos - 1] not in _CLAUSE_BREAK + " \t:(（[【以用拿让") or pos in inside:
            continue
        hit = _platform_at(reader, pos, len(text))
        if hit is not None:
            marked.append((pos, hit.slot + 1, hit))
    name_first: list[tuple[int, int, _Platform]] = []
    for pos, match in names:
        if _PLATFORM_AS_AFTER.match(text, match.end):
            ref = NameRef(reader.folded.original_slice(pos, match.end), match.player, match.ambiguous, match.lookalike)
            hit = _Platform((ref,), match.end, False, False, slot=pos)
            name_first.append((pos, match.end, hit))
    return [marked, name_first]


_PLATFORM_ANY = re.compile(
    _alt(lexicon.PLATFORM_WORDS + lexicon.PLATFORM_ACROSS + lexicon.PLATFORM_AS_WORDS)
)


def _with_platform(
    reader: _Reader, parsed: Parsed, spans: Iterable[tuple[int, int]]
) -> Parsed:
    """The cannon's platform (and any other, different platform named), from the spans: a list
    of platforms (炮架子：Y、Z) or two different ones are a conflict, alternatives (Y或者Z) are
    alternatives, an asked one (炮架子：Y？) makes the command conditional, a corrected one
    (炮架改成Y) replaces those before it."""
    key = tuple(spans)
    said = reader.platforms_said.get(key)
    if said is None:  # (the cannons of one line share its platforms: read them once)
        said = reader.platforms_said[key] = _platforms_said(reader, key)
    return _with_said(parsed, said)


def _with_said(parsed: Parsed, said: tuple) -> Parsed:
    """``parsed`` with what the platforms named for it say (:func:`_platforms_said`)."""
    if not said:
        return parsed
    first, others, alternatives, asked = said
    intents = ("cannon_kill",) + tuple(i for i in parsed.intents if i != "cannon_kill")
    return _with(
        parsed, intents=intents, platform=first, platforms=others,
        alternatives=parsed.alternatives or alternatives, conditional=parsed.conditional or asked,
    )  # fmt: skip


def _platforms_said(
    reader: _Reader, spans: tuple[tuple[int, int], ...]
) -> tuple[NameRef, tuple[NameRef, ...], bool, bool] | tuple[()]:
    """What the platforms named in the spans say (see :func:`_with_platform`): the platform,
    the other, different ones, whether they are alternatives and whether one is asked; ``()``
    when none is named."""
    mentions = _platform_mentions(reader, spans)
    last_fix = max((k for k, hit in enumerate(mentions) if hit.corrected), default=0)
    mentions = mentions[last_fix:]
    if not mentions:
        return ()
    names = [ref for hit in mentions for ref in hit.names]
    first = names[0]
    others = tuple(ref for ref in names[1:] if ref.written != first.written)
    if len(mentions[0].names) > 1 and not others:
        others = tuple(mentions[0].names[1:])
    alternatives = any(hit.alternatives for hit in mentions)
    return first, others, alternatives, any(hit.asked for hit in mentions)


# -- declarations ------------------------------------------------------------------------------
def _kill_and_after(
    reader: _Reader,
    found: list[Parsed],
    kill: tuple[int, int],
    decl_before: tuple[int, int, int] | None,
) -> list[Parsed]:
    """The first kill of a PM with its declaration, and the commands written after it: on the
    lines before a later declaration marker, and the lines of the declaration that are
    commands (抽将 X, 改杀 X, a second 杀 X). Every kill gets the declaration."""
    text = reader.text
    at, end = kill
    parsed = found[at]
    region, body_start, story = _declaration_start(reader, end)
    after: list[Parsed] = []
    body_at = body_start  # where the declaration begins
    if decl_before is not None:
        marker, start, stop = decl_before
        body_at = start
        body = reader.folded.original_slice(start, stop).strip()
        story = lexicon.STORY_WORD in text[marker:start]
        region = len(text)
        rest = min(reader.line_bounds(end)[1] + 1, len(text))
        decl = _split_declaration(reader, rest, len(text), marked=True)
        after.extend(decl.commands)
    else:
        kill_line_end = reader.line_bounds(end)[1]
        # a change of mind on the kill's own line (杀李白……不对，换成杜甫吧), or a second
        # command there naming a player (杀李白，杀杜甫: a conflict, never the first in silence)
        after.extend(
            p for p in read_actions_between(reader, end, kill_line_end, after_command=True)
            if p.correction or p.offered or p.names_players
        )  # fmt: skip
        if region > kill_line_end:  # lines between the kill and a later marker
            after.extend(read_actions_between(reader, kill_line_end, region))
        decl = _split_declaration(reader, body_start, len(text), marked=story is not None)
        body = decl.body
        if story is None:
            body = _with_kill_line_remark(reader, body, end)
        if not body.strip() and at == 0:  # (the declaration written first, the kill under it)
            body = _block_before(reader, parsed.pos)
        after.extend(decl.commands)
    platform_lines = [] if decl_before is not None else decl.platform_lines
    same = bool(_DECLARATION_SAME.search(text, end, reader.line_bounds(end)[1]))
    parsed = _with(parsed, declaration=body, story=bool(story), declaration_same=same,
                   confirm=parsed.confirm or decl.confirmed)  # fmt: skip
    parsed = _with_platform(reader, parsed, [(0, region), *platform_lines])
    kills = []
    has_body = bool(body.strip())
    below: tuple | None = None  # what the platform lines alone say (read once)
    for p in after:
        if set(p.intents) & set(_KILLS):
            line_begin, line_end = reader.line_bounds(p.pos)
            # 改杀X，宣言同上 after a declaration in this PM means that one
            above = has_body and body_at < line_begin
            same_p = not above and reader.written_within(_DECLARATION_SAME_WORDS, p.pos, line_end)
            p = _with(p, declaration=body, story=bool(story), declaration_same=same_p)
            if "cannon_kill" in p.intents:
                if platform_lines and not _platforms_in(reader, line_begin, line_end):
                    below = _platforms_said(reader, tuple(platform_lines)) if below is None else below
                    p = _with_said(p, below)  # (none on its own line: the platform lines' own)
                else:
                    p = _with_platform(reader, p, [(line_begin, line_end), *platform_lines])
        kills.append(p)
    return [*found[:at], parsed, *kills]


def _block_before(reader: _Reader, kill_at: int) -> str:
    """The lines before a kill's line, when they are a declaration block written first with no
    marker (a story of DECLARATION_BEFORE_MIN characters or more, then 杀 X: docs/intake.md),
    or '' (a greeting or a short remark before the kill is no declaration)."""
    begin = reader.line_bounds(kill_at)[0]
    if _first_non_space(reader.text, begin) < kill_at and not _LEADING_ONLY.fullmatch(reader.text, begin, kill_at):
        return ""  # the kill is not at its line's start: what precedes it is its own clause
    block = reader.folded.original_slice(0, begin).strip()
    return block if len(block) >= lexicon.DECLARATION_BEFORE_MIN else ""


_LEADING_ONLY = re.compile(r"[\s\W]*")


def read_actions_between(
    reader: _Reader, start: int, stop: int, after_command: bool = False
) -> list[Parsed]:
    """The commands written in ``[start, stop)`` of an already read text (a kill's lines
    before its declaration marker); ``after_command``: a command ends at ``start``, and what
    follows it on its line may be a change (杀A 改B)."""
    out: list[Parsed] = []
    consumed = start
    starts = [p for p in reader.command_starts() if start <= p < stop]
    if after_command:
        starts = sorted({*starts, *(p for p in reader.next_on_line(start) if p < stop)})
    queued = set(starts)
    i = 0
    while i < len(starts):
        pos = starts[i]
        i += 1
        if pos < consumed:
            continue
        if _after_platform(reader, pos) == pos and _PLATFORM.match(reader.text, pos):
            continue  # a platform (炮架子：Y), read with the cannon's command
        hit = _read_correction_or_command(reader, pos, after_command=True)
        if hit is not None and _offered_alone(hit[0]) and _command_between(reader, starts, consumed, pos):
            continue  # (offered for the unread command between)
        if hit is not None and (_names_a_choice(hit[0]) or hit[0].offered or _names_anew(hit[0])):
            out.append(reader.for_later(*hit))
            consumed = hit[1]
            for nxt in reader.next_on_line(consumed):  # 改杀B 不对还是A吧: on the same line
                if nxt < stop and nxt not in queued:
                    queued.add(nxt)
                    insort(starts, nxt, lo=i)
    return out


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


@dataclass(frozen=True)
class _Declaration:
    """A kill's declaration as split from the lines after the kill: its text, the lines that are
    commands (read), the lines that name a platform, and whether a 确定 line locks the kill."""

    body: str
    commands: list[Parsed]
    platform_lines: list[tuple[int, int]]
    confirmed: bool


def _split_declaration(reader: _Reader, start: int, stop: int, marked: bool) -> _Declaration:
    """The declaration written in ``[start, stop)`` and the commands among its lines.

    A line is a command, not part of the declaration, when it is nothing but commands with
    named players (抽将 X, 改杀 X, a second 杀 X); the last line also when it ends with one
    (队友说杀X，那就杀X吧, （如果X被束魂就改杀Y）). A 确定 line locks the command before it.
    Without a marker, platform lines are commands too.
    """
    text = reader.text
    lines: list[tuple[int, int]] = []
    pos = start
    while pos <= stop and pos < len(text):
        end = min(reader.line_bounds(pos)[1], stop)
        lines.append((pos, end))
        pos = end + 1
    last = max((k for k, (b, e) in enumerate(lines) if text[b:e].strip()), default=-1)
    kept: list[tuple[int, int]] = []
    commands: list[Parsed] = []
    platform_lines: list[tuple[int, int]] = []
    confirmed = False  # a 确定 line before any command of the region: the kill's
    for k, (b, e) in enumerate(lines):
        if _CONFIRM.fullmatch(text, b, e) and text[b:e].strip():
            if commands:
                commands[-1] = _with(commands[-1], confirm=True)
            else:
                confirmed = True
            continue
        line_commands = _command_line(reader, b, e, loose=k == last)
        if line_commands:
            commands.extend(line_commands)
        elif _platform_line(reader, b, e):
            platform_lines.append((b, e))
        elif not (not marked and _is_platform_line(reader.folded.original_slice(b, e))):
            kept.append((b, e))
    body = "\n".join(reader.folded.original_slice(b, e) if e > b else "" for b, e in kept)
    return _Declaration(body.strip(), commands, platform_lines, confirmed)


def _platform_line(reader: _Reader, begin: int, end: int) -> bool:
    """Whether a line is only a platform naming a player (炮架子：Y, 炮架改成Y, 更正：炮架子：Y)."""
    text = reader.text
    start = _first_non_space(text, begin)
    fix = _CORRECTION.match(text, start)
    hit = _platform_at(reader, fix.end() if fix else start, end)
    return (
        hit is not None and hit.names[0].names_someone
        and _word_chars(text[hit.end : end]) <= COMMAND_LINE_SLACK
    )  # fmt: skip


def _command_line(reader: _Reader, begin: int, end: int, loose: bool) -> list[Parsed]:
    """The commands of a line of a declaration, if the line is commands (see
    :func:`_split_declaration`), else ``[]``."""
    text = reader.text
    if not text[begin:end].strip():
        return []
    hits: list[tuple[Parsed, int]] = []
    covered = bytearray(end - begin)  # 1: part of a command (or a platform) of the line

    def cover(start: int, stop: int) -> None:
        lo, hi = max(start, begin) - begin, min(stop, end) - begin
        if hi > lo:
            covered[lo:hi] = b"\x01" * (hi - lo)

    for pos in reader.clause_starts(begin, end):
        for s in lead_positions(text, pos):
            if s >= end or covered[s - begin]:
                break
            platform = _platform_at(reader, s, end)
            if platform is not None and platform.names[0].names_someone:
                cover(pos, platform.end)
                break
            hit = _read_correction_or_command(reader, _after_platform(reader, s), True)
            if hit is None or not hit[0].names_players:
                continue
            p, stop = reader.for_later(*hit), hit[1]
            hits.append((p, stop))
            cover(reader.sentence_bounds(s)[0] if p.conditional else pos, stop)
            break
    if not hits:
        return []

    def uncovered(start: int) -> int:
        rest = "".join(
            c for i, c in enumerate(text[start:end], start=start) if not covered[i - begin]
        )
        return _word_chars(_CORRECTION.sub("", rest))

    for same in _DECLARATION_SAME.finditer(text, begin, end):  # 改杀X，宣言同上
        cover(same.start(), same.end())
    last_end = max(stop for _, stop in hits)
    if uncovered(last_end) > COMMAND_LINE_SLACK or (
        not loose and uncovered(begin) > COMMAND_LINE_SLACK
    ):
        return []
    return [p for p, _ in hits]


def _with_kill_line_remark(reader: _Reader, body: str, end: int) -> str:
    """Without a marker, a remark on the kill's own line counts as declaration only if it is
    long (not …炮架子：Y。明天见)."""
    text = reader.text
    line_end = reader.line_bounds(end)[1] if end < len(text) else len(text)
    platform = _PLATFORM.search(text, end, line_end)
    tail = reader.folded.original_slice(end, line_end).strip(" \t。.,，:：!！")
    if platform is None and sum(1 for c in tail if not c.isspace()) >= lexicon.DECLARATION_TAIL_MIN:
        body = (tail + "\n" + body).strip()
    return body


def _is_platform_line(line: str) -> bool:
    folded = Folded.of(line.strip()).text
    return bool(_PLATFORM.match(folded)) and len(folded) <= 16


def _find_kill_after(reader: _Reader, pos: int) -> int | None:
    for start in [0, *(i + 1 for i in reader._newlines)]:
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
        more, _, _ = reader.read_more_names(after, reasons=False)  # 指控 X Y 都是杀手: both
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
    return NameRef(folded.original_slice(pos, match.end), match.player, match.ambiguous, match.lookalike)


def has_vote_words(text: str) -> bool:
    """True when a PM mentions voting at all (used to tell chess/werewolf players to post)."""
    return bool(_VOTE_MENTION.search(Folded.of(text).text))


_VOTE_MENTION = re.compile(_alt(lexicon.VOTE_MENTIONS))


def command_word(
    text: str, ballots_only: bool = False, index: NameIndex | None = None
) -> str | None:
    """The first of the lexicon's command words in ``text`` as written (only ballot words with
    ``ballots_only``), or ``None``: a text holding one was meant to say something to the game.
    With the players' ``index``, a word inside a player's name is no command word (投票君今天
    一直在划水 names the player 投票君)."""
    folded = Folded.of(text)
    pattern = _ANY_BALLOT_WORD if ballots_only else _ANY_COMMAND_WORD
    names = [(at, m.end) for at, m in index.find_all(folded)] if index is not None else []
    for m in pattern.finditer(folded.text):
        if not any(at <= m.start() and m.end() <= end for at, end in names):
            return folded.original_slice(m.start(), m.end())
    return None


_ANY_BALLOT_WORD = re.compile(
    "(?:" + _VOTE_WORD + "|" + _alt(lexicon.VOTE_WORDS + lexicon.VOTE_CHANGE_WORDS
    + lexicon.ABSTAIN_WORDS + lexicon.VOTE_WEAK_WORDS) + ")"
)  # fmt: skip
_ANY_COMMAND_WORD = re.compile("(?:" + _ANY_BALLOT_WORD.pattern + "|" + _VERBS_ALT + ")")
