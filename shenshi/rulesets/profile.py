"""What a ruleset tells the world outside the rules core: its profile.

Intake, the daemon and the demo never ask which ruleset (or family of rulesets) is running:
they read the running ruleset's :class:`RulesetProfile`, which ``ruleset.profile(settings)``
builds from the ruleset's own declarations and the GM's settings (``[game.rules]``), as a
python-chess variant carries its own rules. Every field has a default that means "no such
rule", so a ruleset declares only the rules it has.

Map::

    RulesetProfile      the whole declaration (frozen, plain data)
      skills            SkillRules: the channel, when each skill may be used, single-use skills,
                        night phases, the PM window, answer locks
      targets           TargetRules: whom a skill may not take
      kill_post         KillPost or None: the 杀人宣言 / 杀人帖 a kill comes with
      ballots           BallotRules: abstention, changes, delegation by PM, the runoff's wording
      last_words        LastWordsRules: where they are written, how long, accusations
      speech            SpeechRules: which single-post rules apply
      clock             ClockRules: early close, 加速, activity, sign-in and lurking, silent steps
      players           the seats the rules require (None: any)

The hooks that need the game's state (``check_submission``, ``intake_facts``,
``completion``, ``night_phase_closed``…) are methods of
:class:`~shenshi.rulesets.base.Ruleset`, each declared there with a default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import Any


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


class SkillChannel(StrEnum):
    """Where players use their skills."""

    PM = "pm"  # a private message (短消息) to the GM
    ROLE_THREAD = "role_thread"  # a reply in the role's own 功能树洞 thread (werewolf)


class LastWordsNotice(StrEnum):
    """How the characters who may leave last words learn it (the report's ``last_words``)."""

    NONE = "none"  # no grant of its own (family A: a victim's marked post the next day)
    PM = "pm"  # each is told by PM, with the deadline (werewolf, §5.4 "notified")
    PUBLIC = "public"  # the result post names them (chess32: night victims, once)


class LastWordsPost(StrEnum):
    """How a dead player's post in a game thread is read."""

    NONE = "none"  # last words are written elsewhere (werewolf: the 功能树洞)
    MARKED = "marked"  # a post with a 遗言 line (family A)
    WHOLE = "whole"  # the whole post is the last words (chess32, §4.6 step 10)


@dataclass(frozen=True)
class Refusal:
    """An alert for a command refused at this time, and the reason the GM reads."""

    alert: str  # an intake alert kind (``pm_window``, ``wrong_phase``…)
    reason: str  # the template of the reason the GM reads (shenshi.wording: ``alert_why_*``)


@dataclass(frozen=True)
class SkillRules:
    """When and how the roles' skills are used (intake's timing checks, the demo's players).

    A skill in none of ``night0``, ``day`` and ``anytime`` is a night skill: nights from
    night 1 on (and the sign-in step before night 1).
    """

    channel: SkillChannel = SkillChannel.PM
    night0: frozenset[str] = frozenset()  # only on night 0 (werewolf 【金箭】 【托孤】)
    day: frozenset[str] = frozenset()  # only by day (werewolf 【孤刀】)
    anytime: frozenset[str] = frozenset()  # at any step (werewolf 【殉职】)
    posthumous: frozenset[str] = frozenset()  # also by a player already out (【殉职】)
    single_use: frozenset[str] = frozenset()  # once a game (werewolf 救药 毒药 托孤 孤刀)
    # skill → the night phase (夜晚1, 夜晚2) whose deadline it keeps (werewolf ``night_phases``)
    night_phases: Mapping[str, int] = field(default_factory=_empty)
    pm_window: bool = False  # night PMs count only inside the night's PM window (A-S1)
    answer_locks: frozenset[str] = frozenset()  # no change once the GM answered (A-S2: 占卜)
    # A night skill used by day (or a skill out of its step): the alert and its reason.
    out_of_step: Refusal = Refusal("wrong_phase", "alert_why_not_now")
    # The receipt's note on until when a skill may change (a shenshi.wording template).
    change_note: str = "receipt_until_deadline"
    # Several lines for one skill in one reply: the last counts (werewolf W-D1) rather than
    # being a conflict that voids them all.
    latest_line_counts: bool = False

    def second_phase(self) -> frozenset[str]:
        """Skills kept for a later night phase than the first (werewolf 夜晚2: the witch)."""
        first = min(self.night_phases.values(), default=0)
        return frozenset(s for s, phase in self.night_phases.items() if phase > first)


@dataclass(frozen=True)
class TargetRules:
    """Whom a skill may not take (besides the dead), RULES.md §4.3, §5.4, RES-A4."""

    no_self: frozenset[str] = frozenset()  # skills never taking the actor (抽将 孤刀 殉职)
    not_on_partner: frozenset[str] = frozenset()  # not on the actor's own pair (chess 查证)
    # skill → roles it may not take (chess: 禁锢 救治 祈祷 never on a 帅)
    not_on_roles: Mapping[str, frozenset[str]] = field(default_factory=_empty)
    # skill → team whose last living member may not take himself (杀手, RES-A4)
    last_of_team_not_self: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True)
class KillPost:
    """The text a kill comes with: 杀人宣言 (family A, RES-A29) or 杀人帖 (chess32, RES-C18)."""

    label: str  # the word players and receipts use
    minimum: int  # characters without whitespace
    skills: frozenset[str]  # the kills that come with one
    required: bool = False  # none at all: the kill is forfeited unless one arrives in time
    story_exempt: bool = False  # a story (杀人剧情) needs no minimum length
    short_alert: str = "kill_post_short"  # the alert kind for one under the minimum


@dataclass(frozen=True)
class BallotRules:
    """The day vote as intake and the announcements see it (RULES.md §1.6, §4.7, §5.6)."""

    abstain: bool = False  # 弃权 is a ballot (chess32)
    record_published: bool = False  # every counted ballot is published with the count (werewolf)
    # None: the latest ballot counts (werewolf, RES-W6); 0: the first is final (family A,
    # D-I); n: n changes a round (chess32, RES-C28).
    changes: int | None = None
    no_change_before_close: timedelta | None = None  # chess32: none in the last hour
    delegated: bool = False  # 委托投票 by PM (family A, D-D); elsewhere: the wrong channel
    runoff_template: str = "runoff"  # how a runoff is announced (chess32: ``round2``)


@dataclass(frozen=True)
class LastWordsRules:
    """Last words (遗言)."""

    post: LastWordsPost = LastWordsPost.NONE
    accusations: bool = False  # 指控 in them count at the vote (family A 遗言计票)
    max_chars: int | None = None  # werewolf ``last_words_chars``
    # Who may leave them is named by the report (``last_words``) and told this way; a ruleset
    # that names them grants nobody else.
    notice: LastWordsNotice = LastWordsNotice.NONE
    until_next_day: bool = False  # void once the next day opens (werewolf W-D6)
    published: bool = False  # written in private: the GM publishes them the next day (werewolf)


@dataclass(frozen=True)
class SpeechRules:
    """Which single-post rules of the game threads apply."""

    dead_posts: bool = False  # a dead player's post is flagged (chess32 C-D9, werewolf)
    spectators: bool = False  # a non-player's post in the game room is flagged (chess32 §7.1)
    content: bool = False  # content-free posts and long quotes are flagged (chess32 §4.8)


@dataclass(frozen=True)
class ClockRules:
    """What the daemon's clock does beyond the ruleset's phase times."""

    early_close: bool = False  # a step may close once all its activity is in (family A)
    speed_up: bool = False  # 加速 by everyone's agreement (werewolf W-D7); 减速 is recorded
    # Counted posts per game day reach the core as round 1 closes (chess32 lurking); a day's
    # window opens with the night before it (RES-C19).
    records_activity: bool = False
    sign_in: timedelta | None = None  # 签到 within this long of the player list (family A)
    lurking: timedelta | None = None  # this long without a post is an exit (family A)
    # Fewer counted posts than this in a game day can be lurking (chess32 §4.8, with the share
    # of the day's average); the console draws it on the activity chart.
    day_minimum: int | None = None
    # Steps that end with no result post of their own, as (phase, number): werewolf night 0.
    unannounced: frozenset[tuple[str, int]] = frozenset()
    # The post that opens the day after such a step, telling the players its vote is open and
    # when it closes (a template: werewolf ``sheriff_election_opened``, day 1 elects the sheriff).
    first_light: str | None = None
    death_causes_public: bool = True  # deaths are announced with their cause (not the camp)
    # A night settles when its last submission phase closes, and its result is announced at
    # the night's close (werewolf: 夜晚2 closes at 03:00, leaving the characters put out time
    # for 殉职 and last words before the 06:00 announcement, §5.4).
    settles_at_last_phase: bool = False

    def announced(self, phase: str, number: int) -> bool:
        """Whether step ``phase`` ``number`` ends with a result post."""
        return (phase, number) not in self.unannounced


@dataclass(frozen=True)
class RulesetProfile:
    """Everything intake, the daemon and the demo need to know about a ruleset in force."""

    name: str
    skills: SkillRules = field(default_factory=SkillRules)
    targets: TargetRules = field(default_factory=TargetRules)
    kill_post: KillPost | None = None
    ballots: BallotRules = field(default_factory=BallotRules)
    last_words: LastWordsRules = field(default_factory=LastWordsRules)
    speech: SpeechRules = field(default_factory=SpeechRules)
    clock: ClockRules = field(default_factory=ClockRules)
    players: int | None = None  # the seats the rules require; None: any (werewolf, RES-W1)


__all__ = [
    "BallotRules",
    "ClockRules",
    "KillPost",
    "LastWordsRules",
    "LastWordsNotice",
    "LastWordsPost",
    "Refusal",
    "RulesetProfile",
    "SkillChannel",
    "SkillRules",
    "SpeechRules",
    "TargetRules",
]
