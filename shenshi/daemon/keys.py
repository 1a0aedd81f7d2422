"""Idempotency keys: every announcement, alert and stored batch of a game has one, built here.

A key is deterministic: deriving the same effect again after a restart gives the same key, so
the store never proposes, raises or commits anything twice. Keys are stored in each game's
database, so these formats never change (a changed format would make a restarted daemon
propose again what it proposed before)::

    g{id}                                   a game
    {game}:{step}:public                    a step's result post; step = night1, day1, day1.r1
    {game}:{step}:{kind}:{to}:{i}           a private result of a step (divination, check…)
    {game}:answer{seq}:{kind}:{to}:{i}      an answer given at once (the penalty divination)
    {game}:night{n}:{kind}:{to}             a result due when a night phase closes (【通灵】)
    {game}:{step}:{what}                    a notice of the clock: day1:vote_open, night2:deadlines
    {game}:reply:{evidence}:{what}          a notice or alert about one post (vote_not_open, …)
    {game}:receipt:{evidence}:{i}           a receipt for a post or PM
    {game}:intake:{evidence}:{i}            an alert intake raised on a post or PM
    {game}:edit:{evidence}:{rev}:{i}        an alert on an edited post (rev: its text, hashed)
    {game}:refused:{evidence}:{action}      a command the phase did not allow
    {game}:rule:{phase}{n}.r{round}:{who}:{rule}:{evidence or i}   a rules-core decision
    {game}:thread:{tid}:{what}:{floor}      a thread deleted, moved or shrunk
    {game}:unparsable:{what}:{hour}         a page shenshi cannot read
    {game}:undecodable:{evidence}           a post or PM with bytes its page's charset cannot decode
    {game}:order:{evidence}                 a PM counted though its order with a boundary is unknown
    {game}:pm_game:{pm}                     a PM that may belong to another game of the GM
    {game}:daemon:{kind}:{hour}             the daemon's own trouble (a failed cycle, the forum down)
    {game}:send:{announcement}              an announcement not delivered yet (one alert, however
                                            many tries; it closes itself once delivered)
    {game}:send:{announcement}:{attempt}    (before issue 22: one alert per failed try)
    {game}:{signin|lurk}:{name}:{minute}    a missed sign-in or a lurker
    {game}:deal:{name}                      a role PM of ``shenshi deal``
    {game}:exit:{name}                      an exit without substitute (``override exit``)
    {game}:substitution:{old}:{new}         a substitute taking over a seat (``substitute``)
    {game}:message:{to}:{at}:{text}         the GM's own PM (``message``; at: its second,
                                            text: its words, hashed)

    evidence:{id}, tick:{seq}, gm:{seq}:{command}, deal:{id}    the batches of commit_outcome
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from shenshi.rulesets.base import Phase

PUBLIC = "public"


def game_key(game_id: int) -> str:
    """The key of a game: ``g{id}``."""
    return f"g{game_id}"


def step_label(phase: Phase, number: int, round: int | None = None) -> str:
    """``night1``, ``day1``, or a day's round that leads to another: ``day1.r1``."""
    label = f"{phase.value}{number}"
    return f"{label}.r{round}" if round else label


def answer_label(seq: int) -> str:
    """The label of an answer given as soon as its submission arrives."""
    return f"answer{seq}"


@dataclass(frozen=True)
class GameKeys:
    """The keys of one game's announcements and alerts (``game``: :func:`game_key`)."""

    game: str

    def public(self, label: str) -> str:
        """A step's result post."""
        return f"{self.game}:{label}:{PUBLIC}"

    def private(self, label: str, kind: str, to: str, i: int) -> str:
        """The ``i``-th private result of a step (or of an answer)."""
        return f"{self.game}:{label}:{kind}:{to}:{i}"

    def night_phase_result(self, night: int, kind: str, to: str) -> str:
        """A private result due as a phase of night ``night`` closes."""
        return f"{self.game}:night{night}:{kind}:{to}"

    def disagreement(self, label: str, to: str, choices: str) -> str:
        """The notice to a member of a joint unit whose choices differ (one per disagreement:
        ``choices`` names it)."""
        return f"{self.game}:{label}:joint_disagreement:{to}:{choices}"

    def notice(self, label: str, what: str) -> str:
        """A public notice of the phase clock (the vote opens, a night's deadlines)."""
        return f"{self.game}:{label}:{what}"

    def reply(self, evidence: str, what: str) -> str:
        """A notice to a player about one of his posts (a ballot before the vote opened), or
        an alert about it the referee raises (last words after the post that publishes them)."""
        return f"{self.game}:reply:{evidence}:{what}"

    def receipt(self, evidence: str, i: int) -> str:
        """The ``i``-th receipt for a post or PM."""
        return f"{self.game}:receipt:{evidence}:{i}"

    def intake_alert(self, evidence: str, i: int) -> str:
        """The ``i``-th alert intake raised on a post or PM."""
        return f"{self.game}:intake:{evidence}:{i}"

    def edit_alert(self, evidence: str, revision: str, i: int) -> str:
        """The ``i``-th alert on an edited post's revision (its text): a second edit of the same
        post is a new alert, the same revision seen again is not."""
        digest = hashlib.sha256(revision.encode("utf-8")).hexdigest()[:12]
        return f"{self.game}:edit:{evidence}:{digest}:{i}"

    def refused(self, evidence: str, action: str) -> str:
        """A command the open phase did not allow."""
        return f"{self.game}:refused:{evidence}:{action}"

    def rule_alert(self, phase: Phase, number: int, round: int, who: str, rule: str, tail: str) -> str:
        """A decision of the rules core (``tail``: its evidence, or its place in the step)."""
        return f"{self.game}:rule:{phase.value}{number}.r{round}:{who}:{rule}:{tail}"

    def thread_changed(self, tid: str, what: str, floor: int) -> str:
        """A thread that was deleted, moved or lost posts."""
        return f"{self.game}:thread:{tid}:{what}:{floor}"

    def unparsable(self, what: str, hour: str) -> str:
        """A page shenshi cannot read (``hour``: ``YYYYMMDDHH``, one alert an hour)."""
        return f"{self.game}:unparsable:{what}:{hour}"

    def undecodable(self, evidence: str) -> str:
        """A post or PM with bytes its page's charset cannot decode."""
        return f"{self.game}:undecodable:{evidence}"

    def clock_ahead(self, evidence: str) -> str:
        """A post or PM the forum dates later than the daemon first had it in hand."""
        return f"{self.game}:clock_ahead:{evidence}"
    def renamed(self, uid: str, name: str) -> str:
        """A player the forum shows under another name (same uid): learned once per name."""
        return f"{self.game}:renamed:{uid}:{name}"

    def pm_game(self, pm_id: str) -> str:
        """A PM that may belong to this game or another of the same GM account."""
        return f"{self.game}:pm_game:{pm_id}"

    def voided(self, evidence: str, action: str) -> str:
        """The PM telling a player that the GM voided the action his receipt confirmed."""
        return f"{self.game}:voided:{evidence}:{action}"

    def which_game(self, pm_id: str) -> str:
        """The receipt telling a player in several games how to name the game of his PM."""
        return f"{self.game}:pm_game:{pm_id}:receipt"

    def order_uncertain(self, evidence: str) -> str:
        """A PM counted although its order with a boundary of the step cannot be known."""
        return f"{self.game}:order:{evidence}"

    def daemon_trouble(self, kind: str, hour: str) -> str:
        """The daemon's own trouble (``hour``: ``YYYYMMDDHH``, one alert an hour)."""
        return f"{self.game}:daemon:{kind}:{hour}"

    def send_failed(self, announcement: int) -> str:
        """An announcement the forum has not taken yet: one alert however many tries fail."""
        return f"{self.game}:send:{announcement}"

    def earlier_version(self, announcement: int) -> str:
        """An edited announcement held: the forum may show its earlier text."""
        return f"{self.game}:send:{announcement}:earlier"

    def absence(self, kind: str, name: str, minute: str) -> str:
        """A missed sign-in or a lurker (``minute``: ``YYYYMMDDHHMM`` of the last post)."""
        return f"{self.game}:{kind}:{name}:{minute}"

    def role(self, name: str) -> str:
        """The role PM of ``shenshi deal``."""
        return f"{self.game}:deal:{name}"

    def exit(self, name: str) -> str:
        """The announcement of an exit without substitute (the seat dies when it is out)."""
        return f"{self.game}:exit:{name}"

    def ruling(self, kind: str, name: str, i: int) -> str:
        """The announcement of the ``i``-th public GM ruling ``kind`` on ``name`` (werewolf:
        警徽 handed over, 判罚, 罚下); an exit is :meth:`exit`."""
        return f"{self.game}:ruling:{kind}:{name}:{i}"

    def substitution(self, old: str, new: str) -> str:
        """The announcement of a substitute taking over ``old``'s seat."""
        return f"{self.game}:substitution:{old}:{new}"

    def message(self, to: str, at: str, text: str) -> str:
        """The GM's own PM to ``to`` written at ``at`` (``YYYYMMDDHHMMSS``): one per text and
        second, so that the same command run twice in one second proposes it once."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
        return f"{self.game}:message:{to}:{at}:{digest}"


def evidence_batch(evidence_id: int) -> str:
    """The batch of one post or PM's effects."""
    return f"evidence:{evidence_id}"


def tick_batch(seq: int) -> str:
    """The batch of a clock tick after event ``seq``."""
    return f"tick:{seq}"


def gm_batch(seq: int, command: str) -> str:
    """The batch of a GM command after event ``seq``."""
    return f"gm:{seq}:{command}"


def deal_batch(game_id: int) -> str:
    """The batch of ``shenshi deal``."""
    return f"deal:{game_id}"


__all__ = [
    "GameKeys",
    "answer_label",
    "deal_batch",
    "evidence_batch",
    "game_key",
    "gm_batch",
    "step_label",
    "tick_batch",
]
