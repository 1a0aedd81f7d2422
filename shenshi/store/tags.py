"""Stable type tags: the names under which the codec stores the rules core's values.

A stored event says ``{"$type": "SeatTakenOver", ...}``; the tag, not the class's module or
name, is what the database keeps, so a class can move to another module or be renamed (keep
its tag here) without making old games unreadable. Every class that can appear in a stored
event is listed in :data:`TAGS`, explicitly: the codec encodes nothing else and decodes
nothing else, so a crafted database cannot make it import or build anything unlisted.

Databases written before the tags (shenshi up to commit 7beb46b) name each class
``module:Qualname``; :data:`FORMER_NAMES` maps those names, frozen as they were written, to
today's tags. Never edit an entry of it: add a tag for a new class, keep the tag of a moved or
renamed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from shenshi.rulesets import base
from shenshi.rulesets.registry import RULESETS

TAGS: Mapping[str, type] = MappingProxyType(
    {
        # events
        "PhaseOpened": base.PhaseOpened,
        "PowerSubmitted": base.PowerSubmitted,
        "GmAnswerRecorded": base.GmAnswerRecorded,
        "BallotCast": base.BallotCast,
        "BallotOverridden": base.BallotOverridden,
        "LastWordsRecorded": base.LastWordsRecorded,
        "ActivityRecorded": base.ActivityRecorded,
        "Resolved": base.Resolved,
        "SubmissionVoided": base.SubmissionVoided,
        "SubstitutionScheduled": base.SubstitutionScheduled,
        "SeatTakenOver": base.SeatTakenOver,
        "ExecutionForced": base.ExecutionForced,
        "ExitDeclared": base.ExitDeclared,
        "RulingApplied": base.RulingApplied,
        # what events hold
        "Phase": base.Phase,
        "Seat": base.Seat,
        "Submission": base.Submission,
        "Ballot": base.Ballot,
        "Outcome": base.Outcome,
        "Report": base.Report,
        "Death": base.Death,
        "Saved": base.Saved,
        "PrivateResult": base.PrivateResult,
        "PublicFact": base.PublicFact,
        "DaemonNote": base.DaemonNote,
        # each ruleset's memory, tagged by the ruleset (Ruleset.stored_types)
        **{tag: cls for ruleset in RULESETS for tag, cls in ruleset.stored_types.items()},
    }
)
"""Every stored class by its tag (dataclasses, and enums such as :class:`Phase`)."""

TAG_OF: Mapping[type, str] = MappingProxyType({cls: tag for tag, cls in TAGS.items()})
"""The tag of each stored class."""

FORMER_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "shenshi.rulesets.base:PhaseOpened": "PhaseOpened",
        "shenshi.rulesets.base:PowerSubmitted": "PowerSubmitted",
        "shenshi.rulesets.base:GmAnswerRecorded": "GmAnswerRecorded",
        "shenshi.rulesets.base:BallotCast": "BallotCast",
        "shenshi.rulesets.base:LastWordsRecorded": "LastWordsRecorded",
        "shenshi.rulesets.base:ActivityRecorded": "ActivityRecorded",
        "shenshi.rulesets.base:Resolved": "Resolved",
        "shenshi.rulesets.base:SubmissionVoided": "SubmissionVoided",
        "shenshi.rulesets.base:SubstitutionScheduled": "SubstitutionScheduled",
        "shenshi.rulesets.base:SeatTakenOver": "SeatTakenOver",
        "shenshi.rulesets.base:ExecutionForced": "ExecutionForced",
        "shenshi.rulesets.base:ExitDeclared": "ExitDeclared",
        "shenshi.rulesets.base:RulingApplied": "RulingApplied",
        "shenshi.rulesets.base:Phase": "Phase",
        "shenshi.rulesets.base:Seat": "Seat",
        "shenshi.rulesets.base:Submission": "Submission",
        "shenshi.rulesets.base:Ballot": "Ballot",
        "shenshi.rulesets.base:Outcome": "Outcome",
        "shenshi.rulesets.base:Report": "Report",
        "shenshi.rulesets.base:Death": "Death",
        "shenshi.rulesets.base:Saved": "Saved",
        "shenshi.rulesets.base:PrivateResult": "PrivateResult",
        "shenshi.rulesets.base:PublicFact": "PublicFact",
        "shenshi.rulesets.base:DaemonNote": "DaemonNote",
        "shenshi.rulesets.family_a.memory:FamilyAMemory": "FamilyAMemory",
        "shenshi.rulesets.family_a.memory:LastWords": "LastWords",
        "shenshi.rulesets.chess.memory:ChessMemory": "ChessMemory",
        "shenshi.rulesets.chess.memory:PendingSwap": "PendingSwap",
        "shenshi.rulesets.werewolf.memory:WerewolfMemory": "WerewolfMemory",
        "shenshi.rulesets.werewolf.memory:DaySnapshot": "DaySnapshot",
    }
)
"""``module:Qualname`` as stored before the tags (frozen) → today's tag."""
