"""The collector every check writes into: commands, alerts and receipts for one text."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from shenshi.intake import lexicon, receipts
from shenshi.intake.context import UNKNOWN_TIME, GameContext, PlayerInfo
from shenshi.intake.grammar import SELF, NameRef
from shenshi.intake.lookalike import describe, lookalike_letters
from shenshi.intake.model import Alert, IntakeCommand, IntakeResult, Receipt
from shenshi.intake.names import NameIndex, squeezed
from shenshi.intake.text import fold


@lru_cache(maxsize=64)
def _index(names: tuple[str, ...], nicknames: tuple[tuple[str, str], ...]) -> NameIndex:
    return NameIndex(names, dict(nicknames))


def name_index(ctx: GameContext) -> NameIndex:
    """The name index of this game's players and the GM's nicknames (cached)."""
    return _index(tuple(p.name for p in ctx.players), tuple(sorted(ctx.nicknames.items())))


def identify(ctx: GameContext, name: str, uid: str | None) -> PlayerInfo | None:
    """The player who wrote a text: by forum uid when the game knows uids, else by name."""
    if ctx.has_uids and uid:
        return ctx.player_by_uid(uid)
    player = ctx.player(name)
    if player is not None:
        return player
    folded = [p for p in ctx.players if fold(p.name) == fold(name)]
    return folded[0] if len(folded) == 1 else None


@dataclass
class Collector:
    """Commands, alerts and receipts of one post or PM, in the order they arose."""

    ctx: GameContext
    sender: PlayerInfo | None
    t: datetime | None
    receipts_on: bool = True
    doing: str | None = None  # the command being read (its alerts are about it)
    commands: list[IntakeCommand] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    receipts: list[Receipt] = field(default_factory=list)
    _receipt_of: dict[int, Receipt] = field(default_factory=dict)  # id(command) → its receipt

    def __post_init__(self) -> None:
        if self.t == UNKNOWN_TIME:
            self.t = None

    def result(self) -> IntakeResult:
        """What was read: the commands, the alerts, and the receipts (each linked to the
        command it acknowledges)."""
        index = {id(self._receipt_of[id(c)]): i for i, c in enumerate(self.commands)
                 if id(c) in self._receipt_of}  # fmt: skip
        receipts = tuple(Receipt(r.to, r.text, index.get(id(r))) for r in self.receipts)
        return IntakeResult(tuple(self.commands), tuple(self.alerts), receipts)

    def base_extra(self) -> dict:
        iso = self.ctx.local_iso(self.t)
        return {"t": iso} if iso else {}

    def accept(self, cmd: IntakeCommand, notes: list[str] | tuple[str, ...] = ()) -> None:
        """Keep ``cmd`` and propose its receipt (with ``notes`` for the player, if any)."""
        self.commands.append(cmd)
        if not self.receipts_on:
            return
        text = receipts.with_notes(self.ctx, receipts.accepted(self.ctx, cmd), notes)
        receipt = Receipt(cmd.actor, text)
        self.receipts.append(receipt)
        self._receipt_of[id(cmd)] = receipt

    def drop(self, command_ids: set[int]) -> None:
        """Forget the commands with these ``id()``s, and their receipts."""
        gone = {id(self._receipt_of[i]) for i in command_ids if i in self._receipt_of}
        self.commands[:] = [c for c in self.commands if id(c) not in command_ids]
        self.receipts[:] = [r for r in self.receipts if id(r) not in gone]

    def render(self, template: str, **values: object) -> str:
        """One of the game's templates (:mod:`shenshi.wording`), filled in."""
        return self.ctx.templates.render(template, **values)

    def alert(
        self,
        kind: str,
        template: str | None = None,
        *,
        suggestions: tuple[str, ...] = (),
        verb: str | None = None,
        target: str | None = None,
        reason_template: str | None = None,
        **fields: object,
    ) -> None:
        """Raise an alert whose message is ``template`` (default ``alert_<kind>``) filled with
        the sender (``$player``), ``verb``, ``target`` and ``fields``; with ``verb`` given, also
        propose a rejection receipt giving the reason ``reason_template`` (default
        ``reason_<kind>``; a kind without one gives no receipt)."""
        subject = self.sender.name if self.sender else None
        values = {"player": subject or "?", "verb": verb or "", "target": target or "", **fields}
        message = self.render(template or f"alert_{kind}", **values)
        self.alerts.append(Alert(kind, message, subject, suggestions, self.doing, target))
        if verb is None or not self.receipts_on or self.sender is None:
            return
        reason = reason_template or f"reason_{kind}"
        if reason in self.ctx.templates.specs:
            hint = receipts.names(self.ctx, suggestions)
            values["suggested"] = self.render("receipt_hint", names=hint) if suggestions else ""
            why = self.render(reason, **values)
            text = receipts.rejected(self.ctx.templates, verb, target, why)
            self.receipts.append(Receipt(self.sender.name, text))

    def name_problem(self, ref: NameRef | None, what: str, verb: str | None = None) -> bool:
        """Alert when ``ref`` does not name exactly one player; True if it did not. A name
        read through the confusables skeleton (a look-alike) names its player, with an alert
        naming the look-alike letters.

        ``自己`` (``SELF``) names the sender; callers read the player from :meth:`player_of`.
        """
        if ref is None or not ref.written:
            self.alert("missing_target", verb=verb, what=what)
            return True
        if ref.ambiguous:
            self.alert(
                "ambiguous_name",
                suggestions=ref.ambiguous,
                verb=verb,
                target=ref.written,
                what=what,
                written=ref.written,
                players=receipts.names(self.ctx, ref.ambiguous),
            )
            return True
        if ref.player == SELF:
            return self.sender is None
        if self.names_own_seat(ref):
            assert self.sender is not None
            self.alert(
                "self_by_other_name", verb=verb, target=ref.written, what=what, written=ref.written,
                own=self.sender.name,
            )  # fmt: skip
            return True
        if ref.player is not None and ref.lookalike:
            nicknames = tuple(n for n, p in self.ctx.nicknames.items() if p == ref.player)
            letters = lookalike_letters(ref.written, (ref.player, *nicknames))
            self.alert(
                "lookalike_name", target=ref.player, what=what, written=ref.written,
                letters=describe(letters),
            )  # fmt: skip
            return False
        if ref.player is None and fold(ref.written).strip() in lexicon.PRONOUNS:
            # 投他: nobody named; said so, not 「他」不是本局玩家 (fresh-f2 K9)
            self.alert("unknown_name", "alert_pronoun_target", verb=verb, what=what, written=ref.written,
                       reason_template="reason_pronoun_target")  # fmt: skip
            return True
        if ref.player is None:
            hints = name_index(self.ctx).suggest(ref.written)
            names = receipts.names(self.ctx, hints)
            self.alert(
                "unknown_name",
                suggestions=hints,
                verb=verb,
                target=ref.written,
                what=what,
                written=ref.written,
                hint=self.render("alert_hint", names=names) if hints else "",
            )
            return True
        return False

    def names_own_seat(self, ref: NameRef) -> bool:
        """Whether ``ref`` names the sender's own seat by the player he took it over from:
        路人甲, in 夜行者's seat, writing 诅咒 夜行者 most likely means 夜行者 as he was, not
        himself (he is asked to write his own name), also while he is still taking it over."""
        if self.sender is None or ref.player is None or ref.lookalike:
            return False
        me = self.sender.name
        if self.ctx.phase.taking_over.get(me) == ref.player:
            return True  # the seat he acts for until the step ends
        written = squeezed(ref.written)
        return ref.player == me and written in {squeezed(n) for n in self.ctx.former_names.get(me, ())}

    def player_of(self, ref: NameRef) -> PlayerInfo:
        """The player a resolved ``ref`` names (``自己`` is the sender)."""
        if ref.player == SELF and self.sender is not None:
            return self.sender
        player = self.ctx.player(ref.player or "")
        assert player is not None, ref
        return player
