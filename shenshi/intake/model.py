"""What intake gives back: commands for the rules core, alerts for the GM, receipts for players.

Intake never guesses. A text it understands and that the game allows becomes an
:class:`IntakeCommand`; anything it cannot be sure of becomes an :class:`Alert` (never a
command); every PM action, accepted or rejected, gets a proposed :class:`Receipt` (回执) that
the daemon puts in its outbox.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

# Actions intake adds to the FORMAT.md vocabulary.
VOTE = "vote"  # 投票
ABSTAIN = "abstain"  # 弃权 / 弃票 (chess32 only)
DELEGATE_VOTE = "delegate_vote"  # 委托投票 (family A, by PM)
SIGN_IN = "sign_in"  # 签到
LAST_WORDS = "last_words"  # 遗言
KILL_DECLARATION = "kill_declaration"  # a 杀人宣言 sent apart from its 杀 line
SPEED_UP = "speed_up"  # werewolf 同意第N天加速
SLOW_DOWN = "slow_down"  # werewolf 减速 (recorded for the host only)

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class IntakeCommand:
    """One game command read from a post or PM.

    ``action`` is a FORMAT.md action id or one of the intake actions above; ``actor`` and
    ``target`` are canonical player names (``target`` is ``None`` for abstain, last words …).
    ``extra`` holds ``t`` (forum-local ISO time), ``platform``, ``declaration``,
    ``declaration_chars``, ``declaration_missing``, ``story``, ``confirm``, ``accused``,
    ``target2``, ``change``, ``extra_divination``, ``via`` as they apply.
    """

    action: str
    actor: str
    target: str | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def as_json(self) -> dict[str, Any]:
        """The batch tool's shape: ``{"action", "target", "extra"}``."""
        return {"action": self.action, "target": self.target, "extra": dict(self.extra)}


@dataclass(frozen=True)
class Alert:
    """Something the GM must look at. ``kind`` is documented in ``docs/intake.md``.

    ``subject`` is the player (or forum user) the alert is about; ``suggestions`` are fuzzy
    name matches, offered to the GM and never used as a target. ``action`` is the command it
    is about (``vote``, ``kill``…; ``None``: none), ``target`` the name as written: the GM's
    next step is built from them (``shenshi override action 月光 杀 对象``).
    """

    kind: str
    message: str
    subject: str | None = None
    suggestions: tuple[str, ...] = ()
    action: str | None = None
    target: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The batch tool's shape: ``{"kind", "message"}`` (plus suggestions when any)."""
        out: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.suggestions:
            out["suggestions"] = list(self.suggestions)
        return out


@dataclass(frozen=True)
class Receipt:
    """A proposed PM (回执) to a player: what was understood, or why it was refused.

    ``command`` is the index in ``IntakeResult.commands`` of the command it acknowledges
    (``None`` for a refusal): if the rules core refuses that command, the receipt is not sent.
    """

    to: str
    text: str
    command: int | None = None


@dataclass(frozen=True)
class IntakeResult:
    """Everything one post or PM produced."""

    commands: tuple[IntakeCommand, ...] = ()
    alerts: tuple[Alert, ...] = ()
    receipts: tuple[Receipt, ...] = ()

    def __add__(self, other: IntakeResult) -> IntakeResult:
        shift = len(self.commands)
        moved = tuple(
            r if r.command is None else Receipt(r.to, r.text, r.command + shift)
            for r in other.receipts
        )
        return IntakeResult(
            self.commands + other.commands, self.alerts + other.alerts, self.receipts + moved
        )

    @property
    def empty(self) -> bool:
        """True when the text held nothing for the game (chat, greetings, questions)."""
        return not (self.commands or self.alerts or self.receipts)
