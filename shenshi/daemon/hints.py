"""The GM's next steps as data: what shenshi suggests after an alert, a refusal or a command's
answer is a :class:`Hint` (a ``shenshi`` command, or something done by hand, with its
arguments), never a sentence to parse. The command line renders it as text
(:meth:`Hint.text`), the web console as a button or a prefilled form (:meth:`Hint.to_json`).

Every hint is derived from one model, the :class:`Situation`: the mode (dry-run, review,
live), the game's state (which step is open, who may still vote or act), what the alert is
about (its :class:`Cause`: a ballot, a night action, a declaration, a send, a seat; the
channel it came by) and what already happened (the receipt proposed or sent, the alert
resolved). A correction is offered only when the rules core would take it now (it is decided
against the state, as the command itself would be), so a hint is never refused.

An alert knows what resolves it (its :class:`Cause`, stored with it): the events a GM
correction or a player's new post brings (:func:`resolutions`), a delivered or published
announcement (:meth:`Cause.sent`), close it. Closed alerts stay viewable (history).

Map::

    Hint, Blank, Advice                 the data (text, argv, JSON)
    Cause                               what an alert is about, and what resolves it
    resolutions(events, before)         the causes some events resolve
    cause_of(kind, key, …)              the cause of an alert raised without one
    Situation, advise(alert, situation) the next steps for an alert, now
    publish_hints(mode, ids, …)         how the GM publishes announcements in a mode
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from shenshi.daemon import gm_text
from shenshi.daemon.keys import step_label
from shenshi.rulesets.base import (
    BallotCast,
    BallotOverridden,
    Command,
    DeclareExit,
    Event,
    ExitDeclared,
    GameState,
    GmRuling,
    IllegalActionError,
    OverrideBallot,
    Phase,
    PowerSubmitted,
    Ruleset,
    SeatTakenOver,
    Submission,
    SubmissionVoided,
    Substitute,
    SubstitutionScheduled,
    VoidAction,
)
from shenshi.rulesets.catalog import PAIR_LOVERS
from shenshi.rulesets.profile import SkillChannel

# -- the data ----------------------------------------------------------------------------------

UNDO = "--undo"  # ``reject --undo``: take a drop back
# Commands of ``shenshi`` a hint may name, and the acts the GM does by hand on the forum.
COMMANDS = frozenset({"override", "substitute", "approve", "reject", "edit", "published", "ack",
                      "message", "review", "status", "run"})  # fmt: skip
BY_HAND = frozenset({
    "pm",  # 私信回复 a player on the forum (args: the player; one of the game: ``message``)
    "forum",  # 打开论坛查看 (args: a url, if known)
    "post",  # 手动发帖 an announcement (ids)
    "by_hand",  # 手动发帖/发私信 announcements of both kinds (ids)
    "send_pm",  # 手动发私信 an announcement (ids)
    "ask_player",  # 请玩家按格式重发 (args: the player)
    "maintainer",  # 交给维护者
    "password",  # 改好论坛密码
})  # fmt: skip


@dataclass(frozen=True)
class Blank:
    """An argument the GM fills in (对象, 新玩家); ``choices``: the values that fit (the rules
    core takes each of them now), for a form's list."""

    what: str
    choices: tuple[str, ...] = ()
    suggested: tuple[str, ...] = ()  # the likely ones (a misspelt name's close matches, the bench)
    long: bool = False  # a text of several lines (a PM's words), not a word

    def to_json(self) -> dict[str, Any]:
        shown = {"blank": self.what, "choices": list(self.choices), "suggested": list(self.suggested)}
        return shown | ({"long": True} if self.long else {})


Arg = str | Blank


@dataclass(frozen=True)
class Hint:
    """One next step: ``shenshi COMMAND ARGS… IDS… [--late] [OPTIONS]``, or an act done by hand
    (:data:`BY_HAND`). ``ids`` are announcement or alert ids; ``label`` is what it does, in the
    GM's words (a button's text)."""

    command: str
    args: tuple[Arg, ...] = ()
    ids: tuple[int, ...] = ()
    late: bool = False
    options: tuple[tuple[str, str], ...] = ()
    label: str = ""

    @property
    def by_hand(self) -> bool:
        """Done by the GM on the forum, not a ``shenshi`` command."""
        return self.command in BY_HAND

    @property
    def blanks(self) -> tuple[Blank, ...]:
        """The arguments still to fill in."""
        return tuple(a for a in self.args if isinstance(a, Blank))

    def fill(self, *values: str) -> Hint:
        """The hint with its blanks filled in, in order."""
        it = iter(values)
        args = tuple(next(it) if isinstance(a, Blank) else a for a in self.args)
        return replace(self, args=args)

    def caption(self) -> str:
        """What a button does beyond its label, in the GM's words: the arguments already filled
        in (``月光 祈祷 小明``) and the time it is entered at, so that the GM never clicks blind
        (newcomer2 F9: 「补录行动 月光」 hid the action, its target and its time)."""
        if self.command == "override" and self.args and self.args[0] != "count-pm":  # (a PM's number)
            shown = [str(a) for a in self.args[1:] if not isinstance(a, Blank)]
        elif self.command in ("substitute", "message"):
            shown = [str(a) for a in self.args[:1] if not isinstance(a, Blank)]
        else:
            return ""
        notes = []
        for name, value in self.options:
            if name == "--at":  # (forum time, ISO: 2026-12-05T18:34:00)
                notes.append(f"按 {value[5:16].replace('T', ' ')} 的时间")
            elif name == "--pm":
                notes.append(f"按私信 {value} 的时间和杀人宣言")
            elif name == "--declaration":
                notes.append("含杀人宣言")
        return " ".join(shown) + (f"（{'，'.join(notes)}）" if notes else "")

    def argv(self) -> tuple[str, ...]:
        """The command's words after ``shenshi`` (a blank must be filled in first)."""
        if self.by_hand:
            raise ValueError(f"{self.command} is done by hand, not a shenshi command")
        if self.blanks:
            raise ValueError(f"fill in {', '.join(b.what for b in self.blanks)} first")
        words = [self.command, *(str(a) for a in self.args)]
        words += [str(i) for i in self.ids]
        if self.late:
            words.append("--late")
        for name, value in self.options:
            words += [name, value] if value else [name]  # (a flag: --ends-game)
        return tuple(words)

    def text(self) -> str:
        """The hint as the command line shows it: ``shenshi override ballot 老王 对象``."""
        if self.by_hand:
            return gm_text.by_hand(self.command, [_shown(a) for a in self.args], self.ids)
        # a blank with one likely value is written with it, to run as it stands once checked
        # (newcomer2 F4: 「override ballot 阿杰 对象（对象：老王）」 could not be pasted)
        words = [self.command, *(_written(a) for a in self.args)]
        if self.ids:
            words.append(gm_text.id_ranges(self.ids))
        if self.late:
            words.append("--late")
        for name, value in self.options:
            words += [name, _quoted(value)] if value else [name]
        likely = [(gm_text.SUGGESTED_ONE if len(b.suggested) == 1 else gm_text.SUGGESTED).format(
            what=b.what, names="、".join(b.suggested)) for b in self.blanks if b.suggested]  # fmt: skip
        return "shenshi " + " ".join(words) + "".join(likely)

    def to_json(self) -> dict[str, Any]:
        """The console's shape: the command, its arguments (blanks as forms), ids, flags."""
        return {
            "command": self.command,
            "args": [a.to_json() if isinstance(a, Blank) else a for a in self.args],
            "ids": list(self.ids),
            "late": self.late,
            "options": dict(self.options),
            "label": self.label,
            "by_hand": self.by_hand,
            "text": self.text(),
        }


def _quoted(value: str) -> str:
    """An option's value as the shell takes it in one piece (a declaration with spaces)."""
    return shlex.quote(value) if any(c.isspace() or c in "'\"$`\\;&|<>()*?!#~" for c in value) else value


def _shown(arg: Arg) -> str:
    return arg.what if isinstance(arg, Blank) else str(arg)


def _written(arg: Arg) -> str:
    """An argument as the command line is written: a blank by its one likely value, if it has one."""
    if isinstance(arg, Blank) and len(arg.suggested) == 1:
        return _quoted(arg.suggested[0])
    return _shown(arg)


@dataclass(frozen=True)
class Advice:
    """What the GM reads about an alert: ``note`` (what happened, what the rules did; words
    only, never a command) and the next steps, each a :class:`Hint` (any one of them)."""

    note: str = ""
    hints: tuple[Hint, ...] = ()
    waits: bool = False  # the note names what waits for the GM (never followed by 无需操作)

    def text(self) -> str:
        """``看原帖…；shenshi override ballot 老王 对象，或 …`` (the CLI's 下一步 line); with no
        step to take, the note and ``无需操作`` (unless the note says what waits for him)."""
        steps = gm_text.OR.join(h.text() for h in self.hints) or ("" if self.waits else gm_text.NOTHING_TO_DO)
        return "；".join(x for x in (self.note, steps) if x)

    def to_json(self) -> dict[str, Any]:
        return {"note": self.note, "hints": [h.to_json() for h in self.hints], "text": self.text()}


# -- what an alert is about, and what resolves it ------------------------------------------------------

BALLOT, ACTION, DECLARATION, SENT, SEAT, RECEIPT = "ballot", "action", "declaration", "sent", "seat", "receipt"
ENTERED = "entered"  # an action the GM entered for a player (a PM he judged to be meant as one)
REPLIED = "replied"  # the GM wrote to a player (``message``): his PM that was no command is answered


@dataclass(frozen=True)
class Cause:
    """What an alert is about, stored with it: what resolves it, and what its hints need.

    ``what``: ``ballot`` (``who``'s ballot of ``step``, e.g. ``day1.r1``), ``action`` (``who``'s
    ``action`` of ``step``, e.g. ``night1``), ``declaration`` (the kill declaration of ``who``
    for ``step``), ``sent`` (announcement ``announcement`` delivered or published), ``receipt``
    (an answer to post or PM ``evidence`` delivered: a refused command's receipt), ``seat``
    (``who``'s seat exited or taken over). ``target`` and ``channel`` (``pm`` | ``post``) are
    what the alert saw; ``suggestions`` the names that came close. A cause with another
    ``what`` (``""``) is resolved by nothing: it is read, then acknowledged.
    """

    what: str = ""
    who: str = ""
    step: str = ""
    action: str = ""
    target: str = ""
    channel: str = ""
    announcement: int | None = None
    suggestions: tuple[str, ...] = ()
    at: str = ""  # when the post or PM was sent (forum time, ISO): an entered action's time
    evidence: int | None = None  # the post or PM (``receipt``: its answer delivered)
    declared: str = ""  # the kill declaration the PM held (the GM's entry of the kill carries it)

    # The alert is resolved by a cause equal to it on these fields (an action's own only if set).
    def resolved_by(self, other: Cause) -> bool:
        """Whether ``other`` (something that happened) resolves an alert about this."""
        if other.what == REPLIED:  # a PM (or 功能树洞 reply) holding no command, answered
            return self.what == ENTERED and self.who == other.who
        if not self.what or other.what != self.what:
            return False
        if self.what == SENT:
            return self.announcement == other.announcement
        if self.what == RECEIPT:
            return self.evidence is not None and self.evidence == other.evidence
        if self.what == SEAT:  # an exit or a substitute settles the seat whichever step it was in
            return self.who == other.who  # (gmattack C1: chess's second lurking warning stayed open)
        if self.who != other.who or (self.step and self.step != other.step and not (
                self.what == BALLOT and "." not in self.step and other.step.startswith(self.step + "."))):
            return False  # (a ballot before the day's vote opened is of the day: its first round settles it)
        return not (self.what == ACTION and self.action and other.action and self.action != other.action)

    @staticmethod
    def ballot(step: str, who: str, target: str = "", **kw: Any) -> Cause:
        return Cause(BALLOT, who, step, target=target, **kw)

    @staticmethod
    def of_action(step: str, who: str, action: str = "", target: str = "", **kw: Any) -> Cause:
        return Cause(ACTION, who, step, action, target, **kw)

    @staticmethod
    def declaration(step: str, who: str) -> Cause:
        return Cause(DECLARATION, who, step)

    @staticmethod
    def sent(announcement: int) -> Cause:
        """An announcement on the forum (sent by the daemon, or published by the GM)."""
        return Cause(SENT, announcement=announcement)

    @staticmethod
    def seat(who: str) -> Cause:
        return Cause(SEAT, who)

    def to_json(self) -> dict[str, Any]:
        """The stored shape (only the fields that are set)."""
        out: dict[str, Any] = {"what": self.what}
        for name in ("who", "step", "action", "target", "channel", "at", "declared"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        for name in ("announcement", "evidence"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.suggestions:
            out["suggestions"] = list(self.suggestions)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> Cause | None:
        if not data:
            return None
        return Cause(
            str(data.get("what") or ""), str(data.get("who") or ""), str(data.get("step") or ""),
            str(data.get("action") or ""), str(data.get("target") or ""), str(data.get("channel") or ""),
            data.get("announcement"), tuple(data.get("suggestions") or ()), str(data.get("at") or ""),
            data.get("evidence"), str(data.get("declared") or ""),
        )  # fmt: skip


def ballot_step(state: GameState, round: int | None = None) -> str:
    """The step of a ballot: ``day1.r1`` (the open round, or ``round``)."""
    return step_label(Phase.DAY, state.number, round if round is not None else state.round)


def action_step(state: GameState) -> str:
    """The step of a night (or day) action: ``night1``, ``day2``."""
    phase = state.phase if state.phase in (Phase.NIGHT, Phase.DAY) else _open_before(state.phase)
    return step_label(phase, state.number)


def _open_before(phase: Phase) -> Phase:
    return Phase.DAY if phase is Phase.DUSK else Phase.NIGHT


Happening = tuple[Cause, str]  # something that happened, and its words (what resolved an alert)


def _choice(s: Submission) -> tuple[Any, Any]:
    """What a joint unit's member chose: the target (and a cannon's platform)."""
    return s.target, s.extra.get("platform")


def resolutions(
    events: Iterable[Event], before: GameState, joint: Mapping[str, Sequence[str]] | None = None
) -> list[Happening]:
    """What ``events`` (applied to ``before``) resolve, with their words: a ballot cast or set
    by the GM, an action submitted (a player's, or the GM's ``override action``) or voided, a
    declaration that arrived (for the whole joint unit: ``joint`` maps a player to his
    partners, where a partner's choice names the same target: A-J3), a seat exited or taken
    over."""
    found: list[Happening] = []
    joint = joint or {}
    chosen = {(s.actor, s.action): s for s in sorted(before.submissions, key=lambda x: x.sort_key())}
    for event in events:
        if isinstance(event, (BallotCast, BallotOverridden)):
            b = event.ballot
            words = gm_text.describe_ballot(b)
            if isinstance(event, BallotOverridden):
                words = gm_text.RESOLVED["gm"].format(what=words)
            found.append((Cause.ballot(step_label(Phase.DAY, before.number, b.round), b.voter), words))
        elif isinstance(event, PowerSubmitted):
            s = event.submission
            step = action_step(before)
            words = gm_text.describe_submission(s)
            if s.extra.get("gm"):
                words = gm_text.RESOLVED["gm"].format(what=words)
            found.append((Cause.of_action(step, s.actor, s.action), words))
            if s.extra.get("gm"):  # the GM entered it: a PM he judged to be meant as one is answered
                found.append((Cause(ENTERED, s.actor, step), words))
            earlier = chosen.get((s.actor, s.action))
            if joint.get(s.actor) and (earlier is None or _choice(earlier) != _choice(s)):
                # the unit's choice changed: a disagreement is over, or it is another one now
                others = {_choice(c) for p in joint[s.actor] if (c := chosen.get((p, s.action))) is not None}
                said = words if others <= {_choice(s)} else gm_text.RESOLVED["still_disagreeing"].format(what=words)
                found.append((Cause.of_action(step, unit_of(s.actor, joint[s.actor]), s.action), said))
            chosen[(s.actor, s.action)] = s
            partners = [c for p in joint.get(s.actor, ()) if (c := chosen.get((p, s.action))) is not None]
            if _declared(s):
                # it covers a partner's kill only where that names the same target (A-J3)
                covered = [p for p in joint.get(s.actor, ()) if getattr(chosen.get((p, s.action)), "target", s.target) == s.target]
                for who in (s.actor, *covered):
                    found.append((Cause.declaration(step, who), gm_text.RESOLVED["declaration"].format(who=s.actor)))
            elif any(_declared(c) and c.target == s.target for c in partners):  # he joins the declared kill
                declared_by = next(c.actor for c in partners if _declared(c) and c.target == s.target)
                found.append((Cause.declaration(step, s.actor), gm_text.RESOLVED["declaration"].format(who=declared_by)))
        elif isinstance(event, SubmissionVoided):
            words = gm_text.RESOLVED["void"].format(who=event.actor, action=gm_text.action_words(event.action))
            found.append((Cause.of_action(action_step(before), event.actor, event.action), words))
            if joint.get(event.actor):
                unit = unit_of(event.actor, joint[event.actor])
                found.append((Cause.of_action(action_step(before), unit, event.action), words))
        elif isinstance(event, ExitDeclared):
            found.append((Cause.seat(event.name), gm_text.RESOLVED["exit"].format(who=event.name)))
        elif isinstance(event, (SubstitutionScheduled, SeatTakenOver)):
            found.append((Cause.seat(event.old), gm_text.RESOLVED["substitute"].format(who=event.old, new=event.new)))
    return found


def _declared(sub: Any) -> bool:
    """A kill that carries its declaration (杀人宣言)."""
    return bool(sub.extra.get("declaration") or sub.extra.get("declaration_chars"))


def unit_of(actor: str, partners: Iterable[str]) -> str:
    """A joint unit as an alert's cause names it: its members, sorted (``夜行者、老王``)."""
    return "、".join(sorted({actor, *partners}))


def settle(uow: Any, game_id: int, happened: Sequence[Happening], *, at: Any = None) -> list[Any]:
    """Close, in the unit of work ``uow``, the game's open alerts that ``happened`` resolves
    (each noted with what resolved it); returns the closed alerts. The one way alerts close
    themselves: the daemon calls it with the events it stores and the announcements it sees
    out (``(Cause.sent(id), words)``)."""
    if not happened:
        return []

    def resolution(alert: Any) -> str | None:
        cause = Cause.from_json(alert.cause)
        if cause is None:
            return None
        return next((words for c, words in happened if cause.resolved_by(c)), None)

    return uow.alerts.resolve(game_id, resolution, at=at)


def delivered(announcement: int, published_by_hand: bool = False) -> Happening:
    """An announcement that is on the forum (sent by the daemon, or published by the GM)."""
    return Cause.sent(announcement), gm_text.RESOLVED["published" if published_by_hand else "sent"].format(id=announcement)


def answered(announcement: int, evidence: Iterable[int], published_by_hand: bool = False) -> list[Happening]:
    """A receipt (or another answer to posts and PMs ``evidence``) that is on the forum: it
    settles the alerts about those commands' refusal, and those about its own sending."""
    out = [delivered(announcement, published_by_hand)]
    words = gm_text.RESOLVED["receipt"].format(id=announcement)
    return out + [(Cause(RECEIPT, evidence=e), words) for e in evidence]


def replied(who: str, announcement: int) -> Happening:
    """The GM wrote to ``who`` (``message``, announcement ``announcement``): the alerts about
    his PMs that held no command (a question, a note) are answered."""
    return Cause(REPLIED, who), gm_text.RESOLVED["replied"].format(id=announcement)


def superseded(announcement: int) -> Happening:
    """An announcement a later event made moot (never sent): an alert about sending it is moot."""
    return Cause.sent(announcement), gm_text.RESOLVED["superseded"].format(id=announcement)


def kept(announcement: Any) -> Happening:
    """A missed sign-in's or a lurker's exit the GM dropped: he keeps the player, and the
    alert that asked him to decide is settled (newcomer N14)."""
    who = announcement.key.split(":")[-2]  # {game}:{kind}:{name}:{minute}
    return Cause.seat(who), gm_text.RESOLVED["kept"].format(who=who, id=announcement.id)


def dropped(announcement: int) -> Happening:
    """An announcement the GM rejected: an alert about sending it is moot."""
    return Cause.sent(announcement), gm_text.RESOLVED["rejected"].format(id=announcement)


BALLOT_ACTIONS = frozenset({"vote", "abstain", "delegate_vote"})
# Intake's alerts about a ballot or an action that a later one (or the GM's entry) settles;
# the others (a refusal, a speech rule) are read and acknowledged, nothing resolves them.
SETTLED_BY_NEW = frozenset({
    "unknown_name", "ambiguous_name", "missing_target", "vote_conflict", "conditional_vote",
    "alternatives", "conditional_action", "action_conflict", "unclosed_quote", "possible_ballot",
    "unread_command", "vote_wrong_thread", "self_by_other_name",
    # a ballot that did not count, its voter told to vote again (newcomer4 G9: open after he did)
    "no_vote_open", "not_a_candidate",
})  # fmt: skip


# Commands the rules refused: the player's receipt says why, and its delivery settles the alert.
REFUSED_KINDS = frozenset({
    "dead_actor", "no_power", "sent_off", "after_deadline", "phase_deadline", "phase_not_open",
    "wrong_phase", "dead_target", "self_target", "general_target", "invalid_platform",
    "invalid_target", "off_duty_killer", "no_swaps_left", "guard_once", "silence_once",
    "heal_not_in_vision", "skill_used", "wrong_channel", "extra_divination_deadline",
    "extra_divination_used", "last_words_not_granted", "last_words_late", "last_words_too_long",
    "lone_killer_suicide", "not_in_phase", "not_eligible", "pm_window", "seer_locked", "locked",
})  # fmt: skip


def intake_cause(
    kind: str, subject: str | None, action: str | None, target: str | None, suggestions: Sequence[str],
    state: GameState, channel: str, at: datetime | None = None, evidence: int | None = None,
) -> Cause | None:
    """What an alert intake raised on a post or PM (``channel``) is about, in ``state``: the
    ballot or action it concerns (settled by a new one, for the kinds that a new one settles),
    the missing kill declaration, or only the step it was read in."""
    if not subject:
        return None
    sent = at.strftime("%Y-%m-%dT%H:%M:%S") if at is not None else ""
    extra = {"target": target or "", "channel": channel, "suggestions": tuple(suggestions), "at": sent}
    if kind == "declaration_missing":
        return Cause(DECLARATION, subject, action_step(state), action or "", channel=channel, at=sent)
    if kind in ("not_a_command", "question"):  # read by the GM; settled by his entering it or his answer
        return Cause(ENTERED, subject, action_step(state), **extra)
    if kind in REFUSED_KINDS:
        step = ballot_step(state) if action in BALLOT_ACTIONS else action_step(state)
        return Cause(RECEIPT, subject, step, action or "", evidence=evidence, **extra)
    settles = kind in SETTLED_BY_NEW
    if action in BALLOT_ACTIONS or (action is None and kind in ("possible_ballot", "vote_wrong_thread")):
        return Cause(BALLOT if settles else "", subject, ballot_step(state), **extra)
    return Cause(ACTION if settles and action else "", subject, action_step(state), action or "", **extra)


def rule_kind(kind: str) -> str:
    """An alert kind without a rules-core round suffix (``rule:no_vote_r1`` → ``rule:no_vote``)."""
    if kind.startswith("rule:"):
        return "rule:" + gm_text.without_round(kind.removeprefix("rule:"))
    return kind


SEAT_VERDICTS = frozenset({"exit", "replaced"})  # rules-core decisions that take a seat


def rule_cause(kind: str, who: str, verdict: str, step: str) -> Cause:
    """What a rules-core decision is about: a seat it takes (no vote, a second lurking
    warning: settled by an exit or a substitute), else only its step."""
    return Cause(SEAT if verdict in SEAT_VERDICTS else "", who, step)


def cause_of(kind: str, key: str, subject: str | None) -> Cause | None:
    """The cause of an alert raised without one, from its kind and key (the formats of
    :mod:`shenshi.daemon.keys` never change): a failed send is resolved by its delivery."""
    if kind == "send_failed":
        parts = key.split(":")
        if len(parts) >= 3 and parts[-2] == "send" and parts[-1].isdigit():  # {game}:send:{id}
            return Cause.sent(int(parts[-1]))
        if len(parts) >= 4 and parts[-3] == "send" and parts[-2].isdigit():  # …:{attempt}, before
            return Cause.sent(int(parts[-2]))
    if kind in ("signin", "lurk") and subject:
        return Cause.seat(subject)
    return None


# -- the situation, and the advice it gives ----------------------------------------------------------


@dataclass(frozen=True)
class Outgoing:
    """An announcement as hints need it: id, state, and whether it is a public post."""

    id: int
    state: str
    thread: bool
    key: str = ""


@dataclass(frozen=True)
class AlertFacts:
    """An alert as advice needs it (a stored alert, or one about to be stored)."""

    kind: str
    subject: str | None = None
    key: str = ""
    cause: Cause | None = None
    evidence: int | None = None
    resolved: bool = False


@dataclass(frozen=True)
class Situation:
    """The one model every hint is derived from: the mode, the game's state and rules, the
    substitutes on the bench, and what the outbox holds for each post or PM (its receipts)
    and by key."""

    mode: str
    state: GameState
    ruleset: Ruleset
    bench: tuple[str, ...] = ()
    game: str = ""  # the game's name (a hint for one game of several names it: --game)
    receipts: Mapping[int, tuple[Outgoing, ...]] = field(default_factory=dict)  # evidence → receipts
    outbox: Mapping[str, Outgoing] = field(default_factory=dict)  # key → announcement
    voting: bool = True  # the open round takes ballots now (its vote has opened)
    # since when the open round takes ballots, on the forum's clock as a Cause's ``at`` ('': unknown)
    voting_since: str = ""
    closed_actions: frozenset[str] = frozenset()  # night actions whose submission phase has closed
    # who took over whose seat (old → new, every substitution of the game): an alert about one
    # who left is about his seat, which the GM names by whoever plays it now (gmattack3 F1)
    successors: Mapping[str, str] = field(default_factory=dict)

    def core_name(self, name: str) -> str:
        """The name the rules core knows ``name``'s seat by now: his, or (he left it) his
        successor's once that one entered."""
        seen = {name}
        while not self.state.has_player(name) and name in self.successors and self.successors[name] not in seen:
            name = self.successors[name]
            seen.add(name)
        return name

    def typed_name(self, name: str) -> str:
        """How the GM names the seat ``name`` in a command now: a substitute still entering
        plays it already, under his own name (the GM's commands refuse the one who left)."""
        return dict(self.state.pending_substitutions).get(name, name)

    def legal(self, command: Command) -> bool:
        """Whether the rules core takes ``command`` now (decided against the state, unchanged)."""
        try:
            self.ruleset.decide(self.state, command)
        except (IllegalActionError, KeyError, ValueError, AttributeError):
            return False
        return True

    def ballot_open(self, cause: Cause) -> bool:
        """The round of a ballot alert is still open."""
        s = self.state
        return s.phase is Phase.DAY and bool(s.round) and cause.step == ballot_step(s) and s.outcome is None

    def action_open(self, cause: Cause) -> bool:
        """The step of an action alert is still open (its actions can still be entered)."""
        s = self.state
        return (s.phase in (Phase.NIGHT, Phase.DAY) and cause.step == action_step(s) and s.outcome is None
                and cause.action not in self.closed_actions)  # fmt: skip

    def submitted(self, who: str, action: str = "") -> bool:
        """``who`` has a submission (of ``action``) in the open step."""
        return any(x.actor == who and (not action or x.action == action) for x in self.state.submissions)


def advise(alert: AlertFacts, situation: Situation) -> Advice:
    """The next steps for ``alert`` now: a note and the hints that fit the mode, the channel,
    the action and what already happened (a resolved alert: only the note that it is)."""
    if alert.resolved:
        return Advice(gm_text.NOTES["resolved"])
    kind = rule_kind(alert.kind)
    alert = _about_the_seat(replace(alert, kind=kind), situation)
    handler = _BY_KIND.get(kind) or _BY_KIND.get(kind.removeprefix("rule:"))
    if handler is not None:
        return _as_typed(handler(alert, situation), situation)
    note = gm_text.NOTES.get(kind) or gm_text.NOTES.get(kind.removeprefix("rule:"))
    return Advice(note) if note else _default(alert, situation)


def _about_the_seat(alert: AlertFacts, sit: Situation) -> AlertFacts:
    """``alert`` about the seat its player left, under the name the rules core knows it by now
    (a substitution completed since it was raised)."""
    if not sit.successors:
        return alert
    cause = alert.cause
    if cause is not None and cause.who and (now := sit.core_name(cause.who)) != cause.who:
        cause = replace(cause, who=now)
    subject = sit.core_name(alert.subject) if alert.subject else alert.subject
    return replace(alert, cause=cause, subject=subject)


def _as_typed(advice: Advice, sit: Situation) -> Advice:
    """``advice`` with each seat its hints name written as the GM types it now (a substitute
    still entering: his own name, gmattack3 F1: 「override void 小红 占卜」 was refused with
    「请写 admin」)."""
    renamed = dict(sit.state.pending_substitutions)
    if not renamed or not advice.hints:
        return advice
    def typed(a: Arg) -> Arg:
        if isinstance(a, str):
            return sit.typed_name(a)
        return replace(a, choices=tuple(map(sit.typed_name, a.choices)), suggested=tuple(map(sit.typed_name, a.suggested)))

    return replace(advice, hints=tuple(replace(h, args=tuple(map(typed, h.args))) for h in advice.hints))


def _who(alert: AlertFacts) -> str:
    return (alert.cause.who if alert.cause and alert.cause.who else alert.subject) or ""


def _default(alert: AlertFacts, sit: Situation) -> Advice:
    """An alert kind without advice of its own: the words that name it, nothing to run."""
    return Advice(gm_text.NOTES["read"])


# What can be done about an unreadable ballot or action: the player writes again, or the GM
# enters it (override ballot / override action), while its step is open.


def _unreadable(alert: AlertFacts, sit: Situation) -> Advice:
    cause = alert.cause
    who = _who(alert)
    if cause is None or not who:
        return Advice(gm_text.NOTES["read"])
    if cause.what == BALLOT:
        if not sit.ballot_open(cause):
            return Advice(gm_text.NOTES["round_closed"])
        if not sit.voting:  # before the vote opens nothing is a ballot, and none is entered
            return Advice(gm_text.NOTES["vote_not_open_yet"])
        hint = _ballot_hint(sit, who, cause.suggestions)
        return Advice(gm_text.NOTES["ballot_again"], (hint,) if hint else ())
    if cause.what == ACTION:
        if not sit.action_open(cause):
            return Advice(gm_text.NOTES["step_closed"])
        hint = _action_hint(sit, who, cause.action, cause.suggestions, cause.at, cause.declared, alert.evidence)
        where = "action_again" if sit.ruleset.profile(sit.state.config).skills.channel is SkillChannel.PM else "action_again_tree_hole"
        return Advice(gm_text.NOTES[where], (hint,) if hint else ())
    return Advice(gm_text.NOTES["read"])


def _ballot_hint(sit: Situation, who: str, suggestions: Sequence[str] = (), target: str = "") -> Hint | None:
    """``shenshi override ballot WHO 对象`` if the rules take a ballot of ``who`` now (and
    the vote has opened: before it nothing is a ballot)."""
    if not sit.voting:
        return None
    living = [s.name for s in sit.state.alive()]
    probe = target or next(iter(suggestions), "") or next((n for n in living if n != who), who)
    if not sit.legal(OverrideBallot(who, probe)):
        return None
    choices = tuple(dict.fromkeys(n for n in (*suggestions, *living) if sit.legal(OverrideBallot(who, n))))
    arg: Arg = target if target and sit.legal(OverrideBallot(who, target)) else Blank(
        gm_text.BLANKS["target"], choices, tuple(n for n in suggestions if n in choices)
    )
    return Hint("override", ("ballot", who, arg), label=gm_text.LABELS["override_ballot"])


def _action_hint(
    sit: Situation, who: str, action: str = "", suggestions: Sequence[str] = (), at: str = "",
    declaration: str = "", pm: int | None = None,
) -> Hint | None:
    """``shenshi override action WHO 行动 对象 [--at TIME] [--declaration TEXT]`` while the step
    takes actions: the time the player sent it (so it is judged and ordered as his PM), the kill
    declaration he wrote in it, and the target filled in when one living name came close. A
    declaration is taken from the PM itself (``--pm N``: its time too), so that the command
    is short enough to paste (newcomer2 F1: a wrapped 150-character declaration)."""
    if not sit.state.has_player(who) or sit.state.phase not in (Phase.NIGHT, Phase.DAY):
        return None
    role = sit.ruleset.info.roles.get(sit.state.seat(who).role)
    night0 = sit.ruleset.profile(sit.state.config).skills.night0  # (金箭 after night 0: never taken)
    powers = tuple(p for p in role.powers if not (p in night0 and sit.state.number > 0)) if role else ()
    if action and action not in powers:
        action = ""
    what: Arg = sit.ruleset.info.action_name(action) if action else Blank(
        gm_text.BLANKS["action"], tuple(sit.ruleset.info.action_name(p) for p in powers)
    )
    if not powers:
        return None
    living = tuple(s.name for s in sit.state.alive())
    close = tuple(n for n in suggestions if n in living)
    target: Arg = close[0] if len(close) == 1 and not isinstance(what, Blank) else Blank(
        gm_text.BLANKS["target"], tuple(dict.fromkeys((*suggestions, *living))), close
    )
    options = (("--at", at),) if at else ()
    if action == PAIR_LOVERS:  # 金箭 takes two (newcomer4 W1: the fix offered one, and failed)
        target2 = Blank(gm_text.BLANKS["target2"], tuple(n for n in living if n != who))
        return Hint("override", ("action", who, what, target, target2), options=options,
                    label=gm_text.LABELS["override_action"])  # fmt: skip
    if declaration.strip():
        options = (("--pm", str(pm)),) if pm is not None else (*options, ("--declaration", " ".join(declaration.split())))
    return Hint("override", ("action", who, what, target), options=options, label=gm_text.LABELS["override_action"])


def _void_hint(sit: Situation, who: str, action: str) -> Hint | None:
    """``shenshi override void WHO 行动`` if ``who`` has such a submission to void now."""
    if not (who and action) or action in sit.closed_actions or not sit.legal(VoidAction(who, action)):
        return None
    return Hint("override", ("void", who, sit.ruleset.info.action_name(action)), label=gm_text.LABELS["void"])


# A command the rules refused: the player's receipt says why (PMs, tree-hole replies); a post
# gets no receipt. What the GM does about the receipt depends on the mode.


def _refused(alert: AlertFacts, sit: Situation) -> Advice:
    """The rules refused a command: the receipt (a PM's, never a post's) says why; the GM
    sends it as the mode wants, or nothing is left to do."""
    receipts = sit.receipts.get(alert.evidence or -1, ())
    return Advice(_receipt_note(sit.mode, receipts), _receipt_hints(sit.mode, receipts))


def _receipt_note(mode: str, receipts: Sequence[Outgoing], what: str = "refused") -> str:
    """What became of the receipts of a refused command (``what``: ``not_counted``, of a
    ballot not counted), in words."""
    receipts = [r for r in receipts if r.state not in ("superseded", "rejected")]  # never sent
    if not receipts:
        return gm_text.NOTES["refused_no_receipt"] if what == "refused" else gm_text.NOTES[what]
    ids = " ".join(f"#{r.id}" for r in receipts)
    waiting = [r for r in receipts if r.state in ("proposed", "approved", "failed")]
    if not waiting:
        return gm_text.NOTES[f"{what}_receipt_out"].format(ids=ids)
    if mode == "live" or (mode == "review" and all(r.state != "proposed" for r in waiting)):
        return gm_text.NOTES[f"{what}_receipt_auto"].format(ids=ids)
    return gm_text.NOTES[f"{what}_receipt"].format(ids=ids)


def _receipt_hints(mode: str, receipts: Sequence[Outgoing]) -> tuple[Hint, ...]:
    """How the receipts of a post or PM reach the player in ``mode`` (nothing left: none)."""
    waiting = tuple(r for r in receipts if r.state in ("proposed", "approved", "failed"))
    if not waiting:
        return ()
    if mode == "dry-run":
        ids = tuple(r.id for r in waiting)
        return (Hint("send_pm", ids=ids, label=gm_text.LABELS["send_pm"]),
                Hint("published", ids=ids, label=gm_text.LABELS["published"]))  # fmt: skip
    if mode == "review":
        ids = tuple(r.id for r in waiting if r.state == "proposed")
        return (Hint("approve", ids=ids, label=gm_text.LABELS["approve"]),) if ids else ()
    return ()


def _accepted(alert: AlertFacts, sit: Situation) -> Advice:
    """A command accepted with a flag for the GM (抽将 of an enemy): nothing was refused."""
    return Advice(gm_text.NOTES.get(alert.kind.removeprefix("rule:"), gm_text.NOTES["accepted"]))


def _not_counted(alert: AlertFacts, sit: Situation) -> Advice:
    """A ballot the rules do not count: the GM may count it while the round is open."""
    cause = alert.cause
    who = _who(alert)
    receipts = sit.receipts.get(alert.evidence or -1, ())  # the PM that tells him (too early, too late…)
    note = _receipt_note(sit.mode, receipts, "not_counted")
    sending = _receipt_hints(sit.mode, receipts)
    if cause is None or cause.what != BALLOT or not who or not sit.ballot_open(cause):
        return Advice(note, sending)
    hint = _ballot_hint(sit, who, cause.suggestions, cause.target)
    return Advice(note, (*((replace(hint, label=gm_text.LABELS["count_anyway"]),) if hint else ()), *sending))


def _stray_ballot(alert: AlertFacts, sit: Situation) -> Advice:
    """A ballot posted outside the vote thread (D-I: it does not count): while its round takes
    ballots the GM may count it anyway; the PM that tells the voter goes out as the mode wants.
    Otherwise it does not count, and nothing is left to do."""
    cause = alert.cause
    who = _who(alert)
    if cause is None or cause.what != BALLOT or not who or not sit.ballot_open(cause) or not sit.voting:
        return Advice(gm_text.NOTES["stray_closed"])
    if cause.at and sit.voting_since and cause.at < sit.voting_since:  # posted before the vote opened
        return Advice(gm_text.NOTES["stray_early"])  # (never a ballot: newcomer2 F10)
    hint = _ballot_hint(sit, who, cause.suggestions, cause.target)
    receipts = tuple(r for r in sit.receipts.get(alert.evidence or -1, ()) if r.state not in ("superseded", "rejected"))
    note = _receipt_note(sit.mode, receipts, "stray") if receipts else gm_text.NOTES["stray_open"]
    counting = (replace(hint, label=gm_text.LABELS["count_anyway"]),) if hint else ()
    return Advice(note, (*counting, *_receipt_hints(sit.mode, receipts)))


def _recorded_action(alert: AlertFacts, sit: Situation) -> Advice:
    """An action refused although the player had one recorded before (a change after the
    seer's answer, after 确定, outside the window): the earlier one stands; the GM may void it."""
    cause = alert.cause
    who = _who(alert)
    note = gm_text.NOTES.get(alert.kind.removeprefix("rule:"), "")
    hints: list[Hint] = []
    void = _void_hint(sit, who, cause.action) if cause is not None and sit.action_open(cause) else None
    if void is not None:
        hints.append(void)
    receipts = sit.receipts.get(alert.evidence or -1, ())
    hints += _receipt_hints(sit.mode, receipts)
    earlier = gm_text.NOTES["earlier_stands"] if void is not None else ""
    return Advice("；".join(x for x in (note, _receipt_note(sit.mode, receipts), earlier) if x), tuple(hints))


def _judge(alert: AlertFacts, sit: Situation) -> Advice:
    """Speech rules: the GM judges whether to penalise (a ruling the ruleset knows, if any)."""
    who = _who(alert)
    hints = []
    if who and sit.legal(GmRuling("penalty", who, {"points": 1})):  # type: ignore[arg-type]
        hints.append(Hint("override", ("penalty", who, Blank(gm_text.BLANKS["points"])),
                          label=gm_text.LABELS["penalty"]))  # fmt: skip
    return Advice(gm_text.NOTES["judge"], tuple(hints))


def _declaration_missing(alert: AlertFacts, sit: Situation) -> Advice:
    cause = alert.cause
    if cause is not None and sit.action_open(cause):
        return Advice(gm_text.NOTES["declaration_pending"])
    return Advice(gm_text.NOTES["declaration_closed"])


def _declaration_short(alert: AlertFacts, sit: Situation) -> Advice:
    """A short declaration: the GM may draw a civilian for the penalty divination (RES-A19),
    when the rules take that ruling now."""
    civilians = tuple(s.name for s in sit.state.alive() if sit.legal(GmRuling("extra_divination", s.name)))
    if not civilians:
        return Advice(gm_text.NOTES["declaration_short_later"])
    hint = Hint("override", ("extra-divination", Blank(gm_text.BLANKS["civilian"], civilians)),
                label=gm_text.LABELS["extra_divination"])  # fmt: skip
    return Advice(gm_text.NOTES["declaration_short"], (hint,))


def _seat_hints(sit: Situation, who: str) -> list[Hint]:
    """Exit without substitute, or a substitute, for ``who``'s seat if the rules take them now."""
    hints: list[Hint] = []
    if not who:
        return hints
    if sit.legal(DeclareExit(who)):
        hints.append(Hint("override", ("exit", who), label=gm_text.LABELS["exit"]))
    if (substitute := substitute_hint(sit, who)) is not None:
        hints.append(substitute)
    return hints


def substitute_hint(sit: Situation, who: str) -> Hint | None:
    """A substitute for ``who``'s seat (the bench offered), if the rules take one now."""
    probe = next((b for b in sit.bench if not sit.state.has_player(b)), "替补")
    if not sit.legal(Substitute(who, probe)):
        return None
    bench = tuple(b for b in sit.bench if not sit.state.has_player(b))
    return Hint("substitute", (who, Blank(gm_text.BLANKS["newcomer"], bench, bench[:1])), label=gm_text.LABELS["substitute"])


def confirmation_hints(sit: Situation, kind: str, who: str, ident: int) -> tuple[Hint, ...]:
    """What confirms an unconfirmed proposal ``ident`` of ``kind`` about ``who`` (it goes out
    only then): a missed sign-in or a lurker's exit is confirmed by ``override exit`` (a
    substitute supersedes it instead), chess32's replacement PM by the substitute (an exit
    supersedes it); or the GM drops it."""
    hints = _seat_hints(sit, who)
    if kind == "lurk_replaced":
        hints.sort(key=lambda h: h.command != "substitute")
    return (*hints, Hint("reject", ids=(ident,), label=gm_text.LABELS["keep_player"]))


def _absence(alert: AlertFacts, sit: Situation) -> Advice:
    """A missed sign-in or a lurker: confirm the exit, bring a substitute, or keep him (the
    proposed post is then rejected)."""
    who = _who(alert)
    if sit.state.outcome is not None:
        return Advice(gm_text.NOTES["game_over"])
    if not who or not sit.state.is_alive(who):
        return Advice(gm_text.NOTES["seat_done"])
    hints = _seat_hints(sit, who)
    post = sit.outbox.get(alert.key)
    if post is not None and post.state in ("unconfirmed", "proposed", "approved", "failed"):
        hints.append(Hint("reject", ids=(post.id,), label=gm_text.LABELS["keep_player"]))
    return Advice(gm_text.NOTES[alert.kind], tuple(hints))


def _rule_seat(alert: AlertFacts, sit: Situation) -> Advice:
    """A rules-core decision that removes a player (no vote, lurking): a substitute keeps the
    seat while the step is open."""
    who = _who(alert)
    if alert.kind == "rule:missing_ballot":  # (werewolf: a breach the GM judges, no exit, no PM)
        return Advice(gm_text.NOTES[alert.kind])
    if alert.cause is None or alert.cause.what != SEAT:  # a warning: the player is told
        return Advice(gm_text.NOTES["lurk_warning"])
    if sit.state.outcome is not None:
        return Advice(gm_text.NOTES["game_over"])
    if not who or not sit.state.is_alive(who):
        return Advice(gm_text.NOTES["seat_done"])
    hints = [h for h in _seat_hints(sit, who) if h.command == "substitute" or alert.kind in ("rule:lurking", "substitute_no_vote")]
    return Advice(gm_text.NOTES.get(alert.kind, ""), tuple(hints))


def _send_failed(alert: AlertFacts, sit: Situation) -> Advice:
    cause = alert.cause
    ident = cause.announcement if cause is not None else None
    if ident is None:
        return Advice(gm_text.NOTES["send_failed"], (Hint("review", label=gm_text.LABELS["review"]),))
    return Advice(gm_text.NOTES["send_failed"], (
        Hint("edit", ids=(ident,), label=gm_text.LABELS["edit"]),
        Hint("reject", ids=(ident,), label=gm_text.LABELS["reject"]),
    ))  # fmt: skip


def _order_uncertain(alert: AlertFacts, sit: Situation) -> Advice:
    cause = alert.cause
    who = _who(alert)
    hint = _void_hint(sit, who, cause.action) if cause is not None and cause.action else None
    return Advice(gm_text.NOTES["order_uncertain"], (hint,) if hint else ())


def _words_after_post(alert: AlertFacts, sit: Situation) -> Advice:
    dawn = next((a for a in sit.outbox.values() if a.thread and a.state in ("proposed", "approved")
                 and a.key.endswith(":public") and ":night" in a.key), None)  # fmt: skip
    if dawn is None:
        return Advice(gm_text.NOTES["last_words_after_post_out"])
    return Advice(gm_text.NOTES["last_words_after_post"], (Hint("edit", ids=(dawn.id,), label=gm_text.LABELS["edit"]),))


def _player_pm(alert: AlertFacts, sit: Situation) -> Advice:
    """A PM holding no command (a question, a note): read it; answer by hand; if it was meant
    as an action, the GM may enter it."""
    who = _who(alert)
    hints = [_reply_hint(sit, who)] if who else []
    cause = alert.cause
    enter = _action_hint(sit, who, at=cause.at) if cause is not None and who and sit.action_open(cause) else None
    if enter is not None:
        hints.append(enter)
    return Advice(gm_text.NOTES[alert.kind], tuple(hints))


def _reply_hint(sit: Situation, who: str) -> Hint:
    """A reply to ``who``'s PM: written in shenshi (``message``) to one who holds a seat, by
    hand on the forum to anyone else."""
    if any(s.name == who for s in sit.state.seats):
        return Hint("message", (who, Blank(gm_text.BLANKS["text"], long=True)), label=gm_text.LABELS["pm"])
    return Hint("pm", (who,), label=gm_text.LABELS["pm"])


def _edited(alert: AlertFacts, sit: Situation) -> Advice:
    cause = alert.cause
    who = _who(alert)
    if cause is not None and cause.what == BALLOT and who and sit.ballot_open(cause):
        hint = _ballot_hint(sit, who, cause.suggestions, cause.target)
        return Advice(gm_text.NOTES["edited_vote"], (hint,) if hint else ())
    return Advice(gm_text.NOTES["edited_vote"])


def _pm_game(alert: AlertFacts, sit: Situation) -> Advice:
    """A PM of a player seated in several games that could be any of them: the GM counts it
    in the game it belongs to (``shenshi override count-pm PM --game NAME``)."""
    pm_id = alert.key.rsplit(":pm_game:", 1)[-1] if ":pm_game:" in alert.key else ""
    if not pm_id or alert.cause is None or not alert.cause.who:
        return Advice(gm_text.NOTES["pm_game_unknown"])
    options = (("--game", sit.game),) if sit.game else ()
    hint = Hint("override", ("count-pm", pm_id), options=options, label=gm_text.LABELS["count_in_game"])
    return Advice(gm_text.NOTES["pm_game_unknown"], (hint,))


def _note(name: str):  # type: ignore[no-untyped-def]
    return lambda alert, sit: Advice(gm_text.NOTES[name])


_UNREADABLE = ("unknown_name", "ambiguous_name", "missing_target", "vote_conflict", "conditional_vote",
               "alternatives", "conditional_action", "action_conflict", "unclosed_quote", "possible_ballot",
               "unread_command", "self_by_other_name")  # fmt: skip
_REFUSED = tuple(REFUSED_KINDS - {"pm_window", "seer_locked", "locked"})
_NOT_COUNTED = ("vote_immutable", "no_vote_open", "not_a_candidate", "vote_closed",
                "change_limit", "last_hour_change", "abstain_not_allowed", "delegation_published",
                "delegation_to_player", "delegation_overridden")  # fmt: skip
_RECORDED = ("pm_window", "seer_locked", "locked")  # refused, an earlier one may stand
_JUDGE = ("dead_post", "spectator_post", "maddened_speech", "content_free_post", "long_quote",
          "kill_post_short")  # fmt: skip

_BY_KIND: dict[str, Any] = {
    **{k: _unreadable for k in _UNREADABLE},
    **{k: _refused for k in _REFUSED},
    **{k: _not_counted for k in _NOT_COUNTED},
    **{k: _recorded_action for k in _RECORDED},
    **{k: _judge for k in _JUDGE},
    "swap_enemy": _accepted, "lookalike_name": _accepted,
    "declaration_missing": _declaration_missing,
    "declaration_short": _declaration_short,
    "signin": _absence, "lurk": _absence,
    "rule:no_vote": _rule_seat, "rule:missing_ballot": _rule_seat, "rule:lurking": _rule_seat,
    "substitute_no_vote": _rule_seat,
    "send_failed": _send_failed,
    "order_uncertain": _order_uncertain,
    "last_words_after_post": _words_after_post,
    "not_a_command": _player_pm, "question": _player_pm,
    "edited_vote": _edited,
    "joint_disagreement": lambda alert, sit: _disagreeing(alert, sit),
    "pm_game_unknown": _pm_game,
    "vote_wrong_thread": _stray_ballot,
}  # fmt: skip


def _disagreeing(alert: AlertFacts, sit: Situation) -> Advice:
    """A joint unit that disagrees while its step is open: they may still agree; the GM may
    take one member's choice (voiding the other's)."""
    cause = alert.cause
    if cause is None or not sit.action_open(cause):
        return Advice(gm_text.NOTES["rule:joint_disagreement"])
    members = cause.who.split("、")
    hints = tuple(h for m in members if (h := _void_hint(sit, m, cause.action)) is not None)
    return Advice(gm_text.NOTES["joint_disagreement"], hints)


# -- announcements ------------------------------------------------------------------------------------


def publish_hints(mode: str, ids: Sequence[int], private: bool = False) -> tuple[Hint, ...]:
    """How the GM gets announcements ``ids`` out in ``mode``: by hand then ``published``
    (dry-run), ``approve`` (review), nothing (live: the daemon sends)."""
    ids = tuple(ids)
    if not ids:
        return ()
    if mode == "dry-run":
        by_hand = "send_pm" if private else "post"
        return (Hint(by_hand, ids=ids, label=gm_text.LABELS[by_hand]),
                Hint("published", ids=ids, label=gm_text.LABELS["published"]))  # fmt: skip
    if mode == "review":
        return (Hint("approve", ids=ids, label=gm_text.LABELS["approve"]),)
    return ()


def publish_advice(mode: str, ids: Sequence[int], private: bool = False, state: str = "proposed") -> Advice:
    """:func:`publish_hints` for announcements in ``state``, with what the mode does by
    itself: live sends, and so does review once approved (a failed send is retried)."""
    if state in ("unconfirmed", "superseded"):  # never sent or published as it stands
        return Advice(gm_text.NOTES.get(state, ""))
    if mode == "live" or (mode == "review" and state in ("approved", "failed", "sending")):
        return Advice(gm_text.NOTES["sent_by_daemon"])
    return Advice("", publish_hints(mode, ids, private))


def pending_advice(mode: str, items: Sequence[tuple[int, str, bool]]) -> Advice:
    """What the GM does with listed announcements ``(id, state, private)``: only those still
    waiting for him are named (none that is sent, published or rejected), as ``mode`` wants."""
    waiting = {"dry-run": ("proposed", "approved", "failed"), "review": ("proposed",)}.get(mode, ())
    ids = [i for i, state, _ in items if state in waiting]
    unconfirmed = [i for i, state, _ in items if state == "unconfirmed"]
    if not ids and unconfirmed:  # never "nothing to do" under an exit waiting for him (newcomer N13)
        ids_text = "、".join(f"#{i}" for i in unconfirmed)
        return Advice(gm_text.NOTES["awaits_confirmation"].format(ids=ids_text), waits=True)
    if not ids:
        names = {"dry-run": "nothing_to_publish", "review": "nothing_to_approve"}
        return Advice(gm_text.NOTES[names[mode]] if mode in names else gm_text.NOTES["sent_by_daemon"])
    advice = publish_advice(mode, ids)
    if mode == "dry-run":  # posts and PMs alike are sent by hand, then recorded
        advice = Advice("", (Hint("by_hand", ids=tuple(ids), label=gm_text.LABELS["by_hand"]),
                             Hint("published", ids=tuple(ids), label=gm_text.LABELS["published"])))  # fmt: skip
    return advice


def drop_hint() -> Hint:
    """``shenshi reject ID``: an announcement the GM does not want."""
    return Hint("reject", (Blank(gm_text.BLANKS["id"]),), label=gm_text.LABELS["reject"])


def restore_hint(ident: int) -> Hint:
    """``shenshi reject --undo ID``: an announcement the GM dropped, waiting for approval again."""
    return Hint("reject", ids=(ident,), options=((UNDO, ""),), label=gm_text.LABELS["restore"])


def rejected_gate_advice(mode: str, ident: int) -> Advice:
    """The post the next step waits for, dropped by the GM (gmattack3 F2: the game stalled with
    no word): nothing moves on until the players read it; take the drop back (then publish it
    as the mode wants)."""
    return Advice(gm_text.NOTES["gate_rejected"].format(id=ident), (restore_hint(ident),))


def stale_hints(ident: int) -> tuple[Hint, ...]:
    """A post of an earlier step never published: drop it, or send it late on purpose."""
    return (Hint("reject", ids=(ident,), label=gm_text.LABELS["reject"]),
            Hint("approve", ids=(ident,), late=True, label=gm_text.LABELS["approve_late"]))  # fmt: skip


def render(hints: Iterable[Hint]) -> str:
    """Hints as the command line shows them, joined by ``，或``."""
    return gm_text.OR.join(h.text() for h in hints)


__all__ = [
    "ACTION", "BALLOT", "RECEIPT", "REFUSED_KINDS", "BY_HAND", "COMMANDS", "DECLARATION", "SEAT", "SENT",
    "Advice", "AlertFacts", "Arg", "Blank", "Cause", "Hint", "Outgoing", "Situation",
    "UNDO", "Happening", "restore_hint", "rejected_gate_advice", "unit_of", "action_step", "advise", "answered", "replied", "confirmation_hints", "superseded", "ballot_step", "cause_of", "delivered", "dropped", "rule_cause", "intake_cause", "drop_hint", "pending_advice", "settle", "publish_advice", "publish_hints", "render", "resolutions", "stale_hints",
]  # fmt: skip
