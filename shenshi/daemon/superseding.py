"""Proposals follow the state (issue 20): every pending proposal is what the current state
would propose now, and nothing a later event made moot is ever sent.

After every change of the game (a post or PM read, the clock, a GM correction), the service
asks :class:`Proposals` what the current state proposes in place of each pending announcement,
and :func:`reconcile` brings the outbox in line, in the transaction that stores the change:

- the same text: it stands (an unconfirmed one that the state now confirms is confirmed);
- another text or recipient: the pending one is *superseded* by the new one, which takes its
  key (every lookup by key finds what stands now); a PM the GM approved stays approved in its
  new words (a substitute's role PM as his seat's state changes, a receipt once the step settled);
- nothing: it is *withdrawn* (superseded, pointing at what says it now, if anything);
- what the state proposes that nothing says yet is proposed (a substitute's role PM).

A superseded announcement keeps its text and what superseded it (the replacing announcement,
and the event in the GM's words), as a code-review tool marks a comment outdated; it is never
approved, sent, or listed to publish by hand. So a GM correction never leaves two proposals
that say different things about one seat.

What is derived again (everything else is about an input at its time, or a result as the rules
gave it, and stands as proposed)::

    role PMs           deal:{name}               the role, the partners as they play now; a
                                                 substitute's with his seat's state
    sign-in, lurking   {signin|lurk}:{name}:…    while he holds his living seat (unconfirmed:
                                                 ``override exit`` confirms, a substitute or an
                                                 exit replaces it)
    substitutions      substitution:{old}:{new}  with the deadlines the substitution moved;
                                                 withdrawn if the seat died before he entered
                       (…:seat_taken, the PM to the player who leaves: withdrawn alike)
    PMs to a seat      {label}:{kind}:{to}:{i}   to whoever holds the seat now (answers,
                                                 notices); a receipt to one who left, withdrawn
    the vote opening   day{n}:vote_open          with the round's close as it is now
    receipts           …:receipt:…               「结算前可更改」 once the step settled early:
                                                 「不能再更改」; for an action the GM voided,
                                                 withdrawn (one already out: the player is told,
                                                 ``voided:{evidence}:{action}``)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING

from shenshi.daemon import notices, stray
from shenshi.daemon.announce import Draft, Templates, corrected_text, seats_renamed
from shenshi.daemon.deal import role_text
from shenshi.daemon.gm_text import event_words, step_name
from shenshi.daemon.keys import step_label
from shenshi.daemon.referee import NOT_YET, Referee, runoff_candidates, stand_ins
from shenshi.daemon.situation import RECEIPT_KINDS
from shenshi.rulesets.base import (
    ABSTAIN,
    Ballot,
    BallotCast,
    Event,
    GameState,
    Phase,
    PhaseTimes,
    PowerSubmitted,
    Resolved,
    Seat,
)
from shenshi.rulesets.catalog import KILL
from shenshi.rulesets.profile import SkillChannel
from shenshi.store.announcements import original_key
from shenshi.store.outbox import PENDING, AnnouncementState
from shenshi.store.records import Announcement, DestinationKind

if TYPE_CHECKING:
    from shenshi.store.unit_of_work import UnitOfWork

# PMs about the person, not his seat: they stay his when he leaves it.
PERSONAL = frozenset({"lurk_warning", "lurk_replaced", "seat_taken", "gm_message"})
# PMs that name the recipient's partner, whom he must be able to reach (the lovers).
PARTNER_NOTICES = frozenset({"lover_partner"})
# A player's answer to his own post or PM: moot once he has left his seat.
REPLIES = RECEIPT_KINDS
ABSENCES = {"signin": "signin_missed", "lurk": "lurking"}
# What a receipt promises until its step settles, and what it says once the step has settled.
SETTLED_PROMISES = (
    ("receipt_until_settled", "receipt_until_settled_done"),
    ("receipt_until_closing", "receipt_until_settled_done"),
    ("receipt_until_answer", "receipt_until_done"),
    ("receipt_until_dawn", "receipt_until_done"),
    ("receipt_until_dawn_10", "receipt_until_done"),
    ("receipt_until_deadline_confirm", "receipt_until_done"),
    ("receipt_until_deadline", "receipt_until_done"),
)
# The same, with the time in them (werewolf: 夜晚2截止（…）前可更改; adversary6 C14).
SETTLED_TIMED_PROMISES = (("receipt_until_phase", "receipt_until_done"), ("receipt_until_time", "receipt_until_done"))
# Private results a seat received: a substitute's role PM repeats them.
EARLIER = frozenset({"divination", "extra_divination", "check", "death_identity", "prophecy",
                     "witch_vision", "lover_partner"})  # fmt: skip


@dataclass(frozen=True)
class Standing:
    """What the current state proposes in place of one pending announcement: ``draft``, or
    nothing (withdrawn; ``by``: the key of the announcement that says it now, if any)."""

    draft: Draft | None
    by: str | None = None


@dataclass
class Reconciled:
    """What :func:`reconcile` changed: ``superseded`` pairs (the old, its replacement or
    None when withdrawn), the drafts newly ``proposed``, and the ``confirmed`` ones."""

    superseded: list[tuple[Announcement, Announcement | None]] = field(default_factory=list)
    proposed: list[Draft] = field(default_factory=list)
    confirmed: list[Announcement] = field(default_factory=list)


class Proposals:
    """What the referee's current state proposes, for the announcements it derives again.

    ``game``: the game's name (role PMs); ``earlier``: private results already out, by
    recipient (a substitute's role PM repeats his seat's)."""

    def __init__(
        self,
        referee: Referee,
        game: str,
        earlier: Mapping[str, Sequence[str]] | None = None,
        lurking: frozenset[str] | None = None,
        answered: frozenset[str] = frozenset(),
        now: datetime | None = None,
        received: frozenset[str] = frozenset(),
        disagreed: frozenset[str] = frozenset(),
    ) -> None:
        self.referee = referee
        self.state = referee.state
        self.game = game
        self.earlier = earlier or {}
        # the lurking proposals the clock proposes now (``None``: not known): one whose player
        # has posted since is withdrawn
        self.lurking = lurking
        # the posts and PMs that had a receipt (not one the GM dropped): a voided action's
        # player is told (evidence ids)
        self.answered = answered
        self.received = received | answered  # … and those whose receipt waits (or was withdrawn)
        self.disagreed = disagreed  # the players told tonight that their joint unit disagrees
        self.now = now  # the phase clock (a vote that opened by now is open, not「届时」)
        state = self.state
        self.acting = {new: old for new, old in stand_ins(state).items() if state.is_alive(old)}
        self.leaving = {old: new for new, old in self.acting.items()}
        # a seat that went out while its substitute was entering: he was playing it, so what
        # the seat is told after (its last words, its successor as sheriff) is his to answer,
        # and his replies count for it (recheck R7a); the players still name it as they knew it
        self.played_out = {new: old for new, old in stand_ins(state).items() if not state.is_alive(old)}
        self.left_out = {old: new for new, old in self.played_out.items()}
        self.came_in = {new: old for old, new in referee.successors.items()}

    # -- who plays which seat ------------------------------------------------------------------

    def seat_of(self, name: str) -> Seat | None:
        """The seat ``name`` plays now (a substitute still entering: the one he acts for)."""
        state = self.state
        if name in self.acting or name in self.played_out:
            return state.seat(self.acting.get(name) or self.played_out[name])
        if state.has_player(name) and name not in self.leaving and name not in self.left_out:
            return state.seat(name)
        return None

    def player_of(self, seat: Seat) -> str:
        """Who plays ``seat`` now (its substitute already, if one is entering)."""
        return self.leaving.get(seat.name) or self.left_out.get(seat.name, seat.name)

    def successor(self, name: str) -> str | None:
        """Who plays the seat ``name`` left, if he left it for a substitute who plays it."""
        seen = {name}
        nxt = self.referee.successors.get(name)
        while nxt is not None and nxt not in seen:
            if self.seat_of(nxt) is not None:
                return nxt
            seen.add(nxt)
            nxt = self.referee.successors.get(nxt)
        return None

    # -- what stands ---------------------------------------------------------------------------

    def standing(self, a: Announcement) -> Standing | None:
        """What stands now in place of pending announcement ``a`` (``None``: it is not derived
        again, it stands as proposed)."""
        parts = original_key(a.key).split(":")
        if a.kind == "role":
            return self._role(a)
        if a.kind in ABSENCES and len(parts) >= 3:
            return self._absence(a, parts[2])
        if a.kind == "substitution" and len(parts) >= 4:
            return self._substitution(a, parts[2], parts[3])
        if a.kind == "seat_taken" and len(parts) >= 4:  # the PM to who leaves: while he does
            return None if self._substitution(a, parts[2], parts[3]).draft is not None else Standing(None)
        if a.kind == "vote_opened":
            return self._vote_opened(a, parts)
        if a.kind == "night_deadlines":
            return self._night_deadlines(a, parts)
        if a.kind == "round_result" and (text := self.referee.next_round_now(a.text)) != a.text:
            return Standing(replace(_draft_of(a), text=text))  # a substitution lengthened the next round
        if (fix := self.referee.corrected.get(original_key(a.key))) is not None and a.kind == "day_result":
            text = corrected_text(a.text, *fix)  # the GM corrected the settled day's execution
            return None if text == a.text else Standing(replace(_draft_of(a), text=text))
        if a.kind in stray.KINDS and len(parts) >= 5 and not stray.stands(self.referee, a.destination, parts[-1]):
            return Standing(None)  # he voted since, the GM counted it, or the round is over
        if a.kind == "joint_disagreement":
            return None if a.key in self._disagreement_keys() else Standing(None)
        if a.kind == "ballot_entered" and len(parts) >= 5:
            return None if self._entry_stands(parts) else Standing(None)
        if a.kind == "joint_agreed":
            return None if a.key in self._agreement_keys() else Standing(None)
        if a.kind == "declaration_lost":  # (he sent his own since, or the night is over)
            return None if a.key in self._declarations_lost() else Standing(None)
        if a.kind == "receipt" and (voided := self._voided(a)) is not None:
            return Standing(None, self.referee.keys.voided(*voided))  # the action no longer stands
        if a.kind == "receipt" and self._entry_voided(a):
            return Standing(None)  # the GM's entry for him, voided since
        if a.kind == "receipt" and (early := self._declaration_came_first(a)) is not None:
            return Standing(replace(_draft_of(a), text=early))
        if len(parts) >= 3 and (corrected := self.referee.result_pms.get(parts[1])) is not None:
            kinds, keys = corrected  # a PM of a day whose execution the GM corrected
            if a.kind in kinds and original_key(a.key) not in keys:
                return Standing(None, self.referee.keys.public(parts[1]))
        if a.destination_kind is DestinationKind.USER:
            return self._to_seat(a, parts) or self._receipt_now(a)
        return None

    def _receipt_now(self, a: Announcement) -> Standing | None:
        """A receipt as it reads now, each change on top of the last: a missing declaration a
        partner has sent since, then the step settled (or the unit disagreeing) — so that one
        rewrite never hides another (recheck3 F2: 「杀人宣言已由 老王 提交」 beside 「结算前可更改」
        once the night had settled)."""
        if a.kind != "receipt":
            return None
        if self._gone_with_his_exit(a):
            return Standing(None)
        now = a
        if (covered := self._declared_by_partner(a)) is not None:
            now = replace(a, text=covered)
        found = self._settled_receipt(now) or self._disagreeing_receipt(now)
        if found is not None and found.draft is not None:
            now = replace(now, text=found.draft.text)
        return None if now.text == a.text else Standing(replace(_draft_of(a), text=now.text))

    def _entry_stands(self, parts: Sequence[str]) -> bool:
        """The ballot the GM entered (``{game}:day1.r1:ballot_entered:{to}:{seq}``) is still
        the voter's latest of its round (no later entry or ballot of his since)."""
        if not parts[-1].isdigit() or parts[-1] == "0":
            return True  # (a PM proposed before entries were numbered: as it was)
        seq = int(parts[-1])
        entry = next((b for b in self.state.ballots if b.seq == seq), None)
        if entry is None:
            return False
        return not any(b.voter == entry.voter and b.round == entry.round and b.sort_key() > entry.sort_key()
                       for b in self.state.ballots)  # fmt: skip

    def _gone_with_his_exit(self, a: Announcement) -> bool:
        """A receipt saying 「已收到」 for an action of a player the GM put out this step
        (``override exit``: his actions go out with him): it would tell him his action stands
        and will be answered (gmattack3 F12)."""
        referee = self.referee
        if referee.keys.exit(a.destination) not in referee.exits_in_step:
            return False
        if self.state.is_alive(a.destination):
            return False
        accepted = referee.templates.render("receipt_accepted", what="\x00", note="").split("\x00")[0]
        evidence = {str(e) for e in a.evidence_ids}
        posthumous = referee.profile.skills.posthumous  # (what one out may still do stands)
        return a.text.startswith(accepted) and not any(
            str(x.evidence) in evidence and x.action in posthumous for x in self.state.submissions
        )

    def _declared_by_partner(self, a: Announcement) -> str | None:
        """A killer's receipt that says his kill has no declaration and asks for one, once a
        partner's kill of the same target came with it (A-J3: one of them writes it): it says
        who sent it, without the reminder (``None``: not such a receipt, or no partner's)."""
        post = self.referee.profile.kill_post
        t = self.referee.templates
        if post is None or (missing := t.render("receipt_post_missing", label=post.label)) not in a.text:
            return None
        evidence = {str(e) for e in a.evidence_ids}
        mine = next((s for s in self.state.submissions if str(s.evidence) in evidence and s.action in post.skills), None)
        if mine is None:
            return None
        partners = set(self.referee.partners(mine.actor, self.state))
        declared = next((s for s in self.state.submissions if s.actor in partners and s.action == mine.action
                         and s.target == mine.target and s.extra.get("declaration_chars")), None)  # fmt: skip
        if declared is None:
            return None
        text = a.text.replace(missing, t.render("receipt_post_partner", label=post.label, partner=declared.actor))
        reminder, sep = t.render("note_post_missing", label=post.label), t.render("receipt_note_separator")
        for cut in (sep + reminder, reminder + sep, reminder):
            text = text.replace(cut, "", 1) if cut in text else text
        return text.removesuffix(t.render("receipt_notes", text="", notes=""))  # 。提醒： with no notes left

    def _declaration_came_first(self, a: Announcement) -> str | None:
        """A declaration refused for want of a kill, still to be sent, once his unit's kill came
        (recheck3 F1: 「还没有收到你们的杀人指令」 beside his partner's 「杀 老王」 received): it
        says to send the declaration again, now that it has a kill to go with."""
        t = self.referee.templates
        if t.render("reason_declaration_without_kill") not in a.text or self.state.phase is not Phase.NIGHT:
            return None
        seat = self.seat_of(a.destination)
        if seat is None or not seat.alive:
            return None
        unit = {seat.name, *self.referee.partners(seat.name)}
        if not any(s.actor in unit and s.action == KILL and s.target for s in self.state.submissions):
            return None
        return a.text.replace(t.render("reason_declaration_without_kill"), t.render("reason_declaration_before_kill"))

    # -- an action the GM voided ----------------------------------------------------------------

    def _voided(self, a: Announcement) -> tuple[str, str] | None:
        """The voided action (evidence, action) receipt ``a`` confirms, if any: the receipt
        of a PM whose action the GM voided, naming that action."""
        info = self.referee.ruleset.info
        for e in a.evidence_ids:
            found = self.referee.voided.get(str(e))
            told = found is not None and original_key(a.key) == self.referee.keys.voided(str(e), found[1])
            if found is not None and not told and info.action_name(found[1]) in a.text:
                return str(e), found[1]
        return None

    def _entry_voided(self, a: Announcement) -> bool:
        """Receipt ``a`` tells its player of an action the GM entered for him, voided since."""
        t, info = self.referee.templates, self.referee.ruleset.info
        entered = t.render("receipt_entered", written="\x00", text="\x00").split("\x00")[0]
        return a.text.startswith(entered) and any(
            actor == a.destination and f"{info.action_name(action)} " in a.text for actor, action in self.referee.voided_entries
        )  # fmt: skip

    def _void_notices(self) -> list[Draft]:
        """To each player whose PM had a receipt (out, or waiting: withdrawn by the void) for
        an action the GM then voided: that it no longer counts (gmattack3 F3: a receipt withdrawn
        and nothing in its place left him believing his kill stood)."""
        referee, info = self.referee, self.referee.ruleset.info
        out = []
        for evidence, (actor, action, target) in referee.voided.items():
            if evidence not in self.received or not self.state.has_player(actor):
                continue
            what = f"{info.action_name(action)} {self._shown(target)}".strip()
            tree_hole = referee.profile.skills.channel is not SkillChannel.PM
            name = "receipt_voided" if evidence in self.answered else "receipt_voided_unanswered"
            text = referee.templates.render(f"{name}_tree_hole" if tree_hole else name, action=what)
            if self.player_of(self.state.seat(actor)) != actor:
                continue  # he left the seat: his receipts are moot, his successor never had one
            out.append(Draft(referee.keys.voided(evidence, action), "receipt", "pm", actor, text, (evidence,)))
        return out

    # -- a joint unit that disagrees (A-J2) -----------------------------------------------------

    def _disagreements(self) -> list[tuple[list[str], str]]:
        """Each joint unit whose members' latest choices differ while its step is open: the
        players who play its seats, and the choices as the players read them."""
        state = self.state
        if state.phase is not Phase.NIGHT or state.outcome:
            return []
        info, t = self.referee.ruleset.info, self.referee.templates
        out = []
        for members, subs in self.referee.disagreements(state):
            players = [self.player_of(s) for m in members if (s := state.seat(m)) is not None]
            # in seat order, not time order: a declaration sent on its own re-dates a kill but
            # changes no choice, and the notice already sent stands (newcomer N-19)
            subs = sorted(subs, key=lambda x: seat.number if (seat := state.seat(x.actor)) else 0)
            choices = t.render("receipt_name_separator").join(
                f"{self._shown(x.actor)} {info.action_name(x.action)} {self._shown(x.target)}".strip() for x in subs
            )
            out.append((players, choices))
        return out

    def _disagreement_keys(self) -> dict[str, Draft]:
        keys, label = self.referee.keys, step_label(Phase.NIGHT, self.state.number)
        text = self.referee.templates.render
        return {
            (key := keys.disagreement(label, who, choices)): Draft(
                key, "joint_disagreement", "pm", who, text("joint_disagreement_notice", choices=choices))
            for players, choices in self._disagreements() for who in players
        }  # fmt: skip

    def _agreement_keys(self) -> dict[str, Draft]:
        """To each member of a joint unit told tonight that it disagreed (A-J2), once its choices
        agree again while the night is open (a partner changed his, or the GM voided one):
        what stands now, so that no PM he read promises a forfeit that will not happen
        (gmattack3 F3)."""
        state, referee = self.state, self.referee
        if state.phase is not Phase.NIGHT or state.outcome or not self.disagreed:
            return {}
        disagreeing = {p for players, _ in self._disagreements() for p in players}
        info, t = referee.ruleset.info, referee.templates
        label = step_label(Phase.NIGHT, state.number)
        out = {}
        for who in sorted(self.disagreed - disagreeing):
            seat = self.seat_of(who)
            if seat is None or not seat.alive:
                continue
            members = {seat.name, *referee.partners(seat.name, state)}
            latest = {(x.actor, x.action): x for x in sorted(state.submissions, key=lambda x: x.sort_key())
                      if x.actor in members and state.is_alive(x.actor)}  # fmt: skip
            if not latest:
                continue  # (nothing stands: nothing is promised either way)
            choices = t.render("receipt_name_separator").join(
                f"{self._shown(x.actor)} {info.action_name(x.action)} {self._shown(x.target)}".strip()
                for x in sorted(latest.values(), key=lambda x: x.sort_key())
            )
            key = f"{referee.keys.game}:{label}:joint_agreed:{who}:{choices}"
            out[key] = Draft(key, "joint_agreed", "pm", who, t.render("joint_agreed_notice", choices=choices))
        return out

    def _disagreeing_receipt(self, a: Announcement) -> Standing | None:
        """A receipt of a member of a unit that disagrees promises no early close (RULES.md
        "Early close": the step runs to its deadline); once they agree, it promises it again."""
        t = self.referee.templates
        settled, agreed = t.render("receipt_until_settled"), t.render("receipt_until_agreed")
        disagreeing = any(a.destination in players for players, _ in self._disagreements())
        old, new = (settled, agreed) if disagreeing else (agreed, settled)
        if old not in a.text:
            return None
        return Standing(replace(_draft_of(a), text=a.text.replace(old, new, 1)))

    def _settled_receipt(self, a: Announcement) -> Standing | None:
        """A receipt that says the action may change until the step settles (「结算前可更改」,
        「即将结算」, 「天神答复前可更改」…), once the step has settled: it reaches the player after
        the result, so it says that the step is settled and nothing changes any more (RULES.md
        "Early close": no receipt promises what can no longer happen)."""
        state = self.state
        answered_in = (a.notes or {}).get("step")
        moved_on = answered_in is not None and state.phase in (Phase.NIGHT, Phase.DAY) \
            and answered_in != step_label(state.phase, state.number)  # (its step over, the next open: wolfadv W1)
        if a.kind != "receipt" or not (state.phase in (Phase.DAWN, Phase.DUSK) or state.outcome or moved_on):
            return None
        text = settled_text(self.referee.templates, a.text)
        return Standing(replace(_draft_of(a), text=text)) if text is not None else None

    def fresh(self) -> list[Draft]:
        """What the state proposes whatever is pending: each substitute's role PM; to each
        member of a joint unit that disagrees, that it does (A-J2: void unless they agree); to
        each player whose receipt went out for an action the GM voided, that it is void."""
        # (a seat out already takes no role PM: proposed and withdrawn at every event, recheck2 N1)
        roles = [self.role_draft(new, seat) for new in self.came_in
                 if (seat := self.seat_of(new)) is not None and seat.alive]  # fmt: skip
        lost = list(self._declarations_lost().values())
        agreed = list(self._agreement_keys().values())
        return roles + self._partners_told() + list(self._disagreement_keys().values()) + agreed + self._void_notices() + lost

    def _partners_told(self) -> list[Draft]:
        """To each living partner of a seat a substitute took over where substitutions are not
        announced (werewolf, chess32): who plays it now. His role PM named the one who left,
        the partner he acts with or shares the pack's kill with (a lover too) (gmattack2 F6 F14)."""
        referee, state = self.referee, self.state
        info, out = referee.ruleset.info, []
        for new, old in self.came_in.items():
            seat = self.seat_of(new)
            if seat is None or not seat.alive or referee.ruleset.substitution_report(old, new).public_facts:
                continue
            role = info.roles[seat.role]
            partners = [s for s in state.alive() if s.number != seat.number and role.knows_partners
                        and s.role == seat.role and (s.team == seat.team or role.pack)]  # fmt: skip
            partners += [s for s in state.alive() if s.number != seat.number and "lover" in s.addons
                         and "lover" in seat.addons]  # fmt: skip
            for p in dict.fromkeys(partners):
                to = self.player_of(p)
                text = referee.templates.render("partner_seat_taken", old=old, new=new)
                out.append(Draft(f"{referee.keys.game}:partner_seat:{to}:{new}", "partner_seat", "pm", to, text))
        return out

    def _declarations_lost(self) -> dict[str, Draft]:
        """To a killer told his partner's kill declaration covered his kill (A-J3), once that
        partner went out during the night: it no longer does, and he may still send his own
        (gmattack A10: told nothing, the kill voided at dawn for a missing declaration)."""
        state, referee = self.state, self.referee
        if state.phase is not Phase.NIGHT or state.outcome:
            return {}
        label = step_label(Phase.NIGHT, state.number)
        latest = {(x.actor, x.action): x for x in sorted(state.submissions, key=lambda x: x.sort_key())}
        out: dict[str, Draft] = {}
        for sub in latest.values():
            partner = sub.extra.get("declaration_by")
            if not partner or sub.extra.get("declaration") or not state.has_player(partner) or state.is_alive(partner):
                continue
            if any(x.actor == partner and x.extra.get("declaration") and state.is_alive(x.actor) for x in latest.values()):
                continue
            seat = state.seat(sub.actor)
            if not seat.alive:
                continue
            who = self.player_of(seat)
            key = referee.keys.private(label, "declaration_lost", who, 0)
            text = referee.templates.render("declaration_lost_notice", partner=self._shown(partner))
            out[key] = Draft(key, "declaration_lost", "pm", who, text)
        return out

    def _role(self, a: Announcement) -> Standing | None:
        seat = self.seat_of(a.destination)
        if seat is not None and not seat.alive:
            return Standing(None)  # out before it went (a send that kept failing): moot (adversary5 B5)
        if seat is not None:
            return Standing(self.role_draft(a.destination, seat))
        nxt = self.successor(a.destination)
        if nxt is not None:
            return Standing(None, self.referee.keys.role(nxt))
        if a.destination in self.came_in and not self.state.has_player(a.destination):
            return Standing(None)  # his seat died before he entered: he never plays
        return None

    def _absence(self, a: Announcement, name: str) -> Standing | None:
        keys = self.referee.keys
        seat = self.seat_of(name)
        if a.kind == "lurk" and self.lurking is not None and original_key(a.key) not in self.lurking:
            return Standing(None)  # he has posted since: no longer lurking
        if seat is not None and seat.alive and not (a.kind == "signin" and name in self.came_in):
            text = self.referee.templates.render(ABSENCES[a.kind], name=name)
            return Standing(Draft(original_key(a.key), a.kind, "thread", a.destination, text, unconfirmed=True))
        if name in self.referee.successors:
            return Standing(None, keys.substitution(name, self.referee.successors[name]))
        if keys.exit(name) in self.referee.announced:
            return Standing(None, keys.exit(name))
        return Standing(None)

    def _substitution(self, a: Announcement, old: str, new: str) -> Standing:
        state = self.state
        enters = self.acting.get(new) == old or (state.has_player(new) and self.came_in.get(new) == old)
        if not enters:
            return Standing(None)  # the seat died before he entered: nobody replaces anyone
        text = self.referee.substitution_text(old, new)
        return Standing(Draft(original_key(a.key), a.kind, "thread", a.destination, text))

    def _night_deadlines(self, a: Announcement, parts: Sequence[str]) -> Standing | None:
        """A night's deadlines post still waiting: what is still ahead of it (newcomer4 W6: one
        approved after 夜晚1 closed promised 「00:00 前」 twenty minutes late); withdrawn once every
        deadline it names has passed, or its night is over."""
        state, times = self.state, self.referee.times()
        if len(parts) < 2 or parts[1] != step_label(Phase.NIGHT, state.number) or state.phase is not Phase.NIGHT:
            return Standing(None)
        if times is None or self.now is None:
            return None
        text = self.referee.night_deadlines_text(state, times, self.now)
        if text is None:
            return Standing(None)
        return None if text == a.text else Standing(replace(_draft_of(a), text=text))

    def _vote_opened(self, a: Announcement, parts: Sequence[str]) -> Standing | None:
        state = self.state
        times = self.referee.times()
        if len(parts) >= 2 and parts[1] == f"day{state.number}" and (
            (state.phase is Phase.DAY and state.round > 1) or state.phase in (Phase.DUSK, Phase.OVER)
        ):  # fmt: skip
            return Standing(None)  # its round closed before it went out: moot (gmattack A7)
        if state.phase is not Phase.DAY or state.round != 1 or times is None or len(parts) < 2:
            return None
        if parts[1] != f"day{state.number}" or 1 not in times.rounds:
            return None
        opens, closes = times.rounds[1]
        text = self.referee.vote_opened_text(state, opens, closes)
        return Standing(Draft(original_key(a.key), a.kind, "thread", a.destination, text))

    def _to_seat(self, a: Announcement, parts: Sequence[str]) -> Standing | None:
        """A PM to a player: it stays his while he plays; once he left his seat, what the seat
        is told goes to whoever plays it now, and the answer to his own input is withdrawn."""
        keys = self.referee.keys
        who = a.destination
        if a.kind == "lurk_replaced":
            return self._replaced(a, who)
        if a.kind in PERSONAL:
            return None
        if self.seat_of(who) is not None:
            return self._partner_now(a)
        nxt = self.successor(who)
        if nxt is None:
            return None  # out of the game: what he is told stays true
        if a.kind in REPLIES:
            return Standing(None, keys.role(nxt))
        key = list(parts)
        if len(key) > 3 and key[3] == who:
            key[3] = nxt
        else:
            key.append(nxt)
        draft = replace(_draft_of(a), key=":".join(key), destination=nxt)
        return Standing(replace(draft, text=self._partners_renamed(a.kind, draft.text)))

    def _partner_now(self, a: Announcement) -> Standing | None:
        """A PM naming its recipient's partner (the lovers, RES-W25), with the partner's seat
        named by whoever plays it now (gmattack W3: 「你的情侣是：Tom_2」, who had left)."""
        text = self._partners_renamed(a.kind, a.text)
        return None if text == a.text else Standing(replace(_draft_of(a), text=text))

    def _partners_renamed(self, kind: str, text: str) -> str:
        if kind not in PARTNER_NOTICES:
            return text
        now = {old: self.player_of(seat) for old in self.referee.successors
               if (seat := self._seat_left(old)) is not None and self.player_of(seat) != old}
        return seats_renamed(text, now)

    def _seat_left(self, name: str) -> Seat | None:
        """The seat ``name`` left for a substitute (who plays it now, or a later one)."""
        nxt = self.successor(name)
        return self.seat_of(nxt) if nxt is not None else None

    def _replaced(self, a: Announcement, who: str) -> Standing:
        """chess32's second lurking warning: true once the GM brings the substitute in, moot
        once he drowns the player instead (an exit)."""
        keys = self.referee.keys
        if who in self.referee.successors:
            return Standing(replace(_draft_of(a), unconfirmed=False))
        if keys.exit(who) in self.referee.announced:
            return Standing(None, keys.exit(who))
        return Standing(replace(_draft_of(a), unconfirmed=True))

    # -- role PMs ------------------------------------------------------------------------------

    def role_draft(self, name: str, seat: Seat) -> Draft:
        """The role PM of ``name``, who plays ``seat``: his role and camp, the partners his
        role knows as they play now; a substitute's also says whose seat he took over and what
        of it stands (its ballot or night actions, the deadlines it moved, its earlier
        answers)."""
        referee = self.referee
        info = referee.ruleset.info
        role = info.roles[seat.role]
        known = [
            self.player_of(s) for s in self.state.seats
            if role.knows_partners and s.number != seat.number and s.role == seat.role
            and (s.team == seat.team or (role.pack and s.alive))  # a pack shares its kill whatever the camp (RES-W26)
        ]  # fmt: skip
        text = role_text(referee.templates, self.game, info, seat.role, seat.team, known)
        old = self.came_in.get(name)
        if old is not None:
            text += "\n" + "\n".join(self._seat_lines(old, seat))
        return Draft(referee.keys.role(name), "role", "pm", name, text)

    def _vote_opens(self, times: PhaseTimes) -> str | None:
        """The hour the first round opens where it opens later than the day (game6: the 13th
        hour; a ballot before it is not counted) and the clock has not reached it yet, as the
        rules schedule it; else ``None`` (the vote is open now)."""
        scheduled = self.referee.scheduled_times() or times
        if self.state.round != 1 or 1 not in scheduled.rounds or scheduled.rounds[1][0] <= scheduled.opens:
            return None
        opens = scheduled.rounds[1][0]
        if self.now is not None and self.now >= opens:
            return None
        return notices.clock_time(opens, self.referee.tz)

    def _seat_lines(self, old: str, seat: Seat) -> list[str]:
        referee, state = self.referee, self.state
        t, info = referee.templates, referee.ruleset.info
        lines = [t.render("substitute_seat", old=old)]
        times = referee.times()
        if state.phase is Phase.DAY and state.round and times is not None:
            cast = sorted((b for b in state.ballots if b.voter == seat.name and b.round == state.round),
                          key=lambda b: b.sort_key())  # fmt: skip
            if referee.summoning():
                lines.append(t.render("substitute_summoning"))  # only the summoned victims vote
            elif cast:  # the ballot that counts for the seat (chess32: after its one change, gmattack2 F11)
                counted = referee.ruleset.standing_vote(state).counted.get(seat.name, cast[0])
                target = t.render("abstain_word") if counted.target == ABSTAIN else counted.target
                lines.append(t.render("substitute_ballot_stands", target=self._shown(target)))
            elif state.round in times.rounds and times.rounds[state.round][1] < NOT_YET:
                closes = notices.clock_time(times.rounds[state.round][1], referee.tz)
                opens = self._vote_opens(times)
                if opens is not None:  # a vote that opens later than the day: from when, too
                    lines.append(t.render("substitute_ballot_due_from", opens=opens, closes=closes))
                else:
                    lines.append(t.render("substitute_ballot_due", closes=closes))
            elif (length := self._next_round_length()) is not None:
                # a round not announced yet: it opens with the last round's result, for so long
                names = t.render("list_separator").join(self._shown(n) for n in runoff_candidates(state))
                lines.append(t.render("substitute_next_round", names=names or "—", hours=f"{length:g}"))
            lines[1:1] = [  # what the seat voted in the rounds before (they stand)
                t.render("substitute_ballot_earlier", round=b.round, target=self._shown(b.target))
                for b in self._earlier_ballots(seat)
            ]
        if state.phase is Phase.NIGHT:
            mine = sorted((s for s in state.submissions if s.actor == seat.name), key=lambda s: s.sort_key())
            latest = list({s.action: s for s in mine}.values())  # the one that counts, per action
            if latest:
                words = [f"{info.action_name(s.action)} {self._shown(s.target)}".strip() for s in latest]
                how = t.render(f"skill_channel_{referee.profile.skills.channel.value}")
                lines.append(t.render("substitute_actions", actions=t.render("list_separator").join(words), how=how))
        earlier = [text for n in self._holders(seat)[1:] for text in self.earlier.get(n, ())]
        carried = [t.render(name, **{k: self._shown(v) for k, v in values.items()})
                   for name, values in referee.ruleset.carried_over(state, seat)]  # fmt: skip
        lines += [line for line in carried if not any(line in text for text in earlier)]  # (said once)
        moved = referee.moved_deadlines(old, referee.successors[old])
        if moved:
            lines.append(moved)
        if earlier:
            results = "\n".join(t.render("substitute_earlier_line", text=line)
                                for text in earlier for line in text.splitlines())  # fmt: skip
            lines.append(t.render("substitute_earlier", results=results))
        return lines

    def _earlier_ballots(self, seat: Seat) -> list[Ballot]:
        """The ballot that stood for ``seat`` in each of today's rounds before the open one."""
        state = self.state
        first: dict[int, Ballot] = {}
        for b in sorted((b for b in state.ballots if b.voter == seat.name and b.round < state.round),
                        key=lambda b: b.sort_key()):  # fmt: skip
            first.setdefault(b.round, b)
        return [first[r] for r in sorted(first)]

    def _next_round_length(self) -> float | None:
        """How many hours the open round lasts from its announcement, while it is not
        announced yet (the rules' length, with the extensions of the substitutions made in it)."""
        scheduled = self.referee.scheduled_times()
        rnd = self.state.round
        if scheduled is None or rnd not in scheduled.rounds:
            return None
        opens, closes = scheduled.rounds[rnd]
        return (closes - opens).total_seconds() / 3600

    def _shown(self, name: str | None) -> str:
        """A player as the players know him now (a seat being taken over: its substitute)."""
        return self.leaving.get(name, name) if name else ""

    def _holders(self, seat: Seat) -> list[str]:
        """Who plays ``seat`` now, then who held it before him, latest first."""
        names = [self.player_of(seat)]
        while names[-1] in self.came_in and self.came_in[names[-1]] not in names:
            names.append(self.came_in[names[-1]])
        return names


def settled_text(t: Templates, text: str) -> str | None:
    """A receipt ``text`` that promises a change until the step settles, as it reads once the
    step has settled (「本阶段已结算，不能再更改」), or ``None`` if it promises nothing; a
    promise with its time in it (werewolf: 夜晚2截止（…）前可更改) too."""
    for promise, done in SETTLED_PROMISES:
        if (said := t.render(promise)) in text:
            return text.replace(said, t.render(done), 1)
    for promise, done in SETTLED_TIMED_PROMISES:
        marked = re.escape(t.render(promise, phase="\x00", deadline="\x00"))
        # a blank is a phase or a time (12-07 21:04), never the words before it (gmattack2 F14:
        # 「已收到：今晚查证 青衣，12-07 21:04 前可更改」 became 「本阶段已结算，不能再更改」 alone)
        found = re.search(marked.replace(re.escape("\x00"), r"[0-9:\-/ .年月日时分]+?"), text)
        if found:
            return text.replace(found.group(0), t.render(done), 1)
    return None


def subject_of(a: Announcement) -> str:
    """Whom an announcement is about: the player a sign-in or lurking post names (in its
    key), else its recipient (a PM) or its thread."""
    parts = original_key(a.key).split(":")
    if a.kind in ABSENCES and len(parts) >= 3:
        return parts[2]
    return a.destination


def _draft_of(a: Announcement) -> Draft:
    """A stored announcement as a draft (its original key)."""
    channel = "thread" if a.destination_kind is DestinationKind.THREAD else "pm"
    return Draft(original_key(a.key), a.kind, channel, a.destination, a.text,
                 tuple(str(i) for i in a.evidence_ids), a.state is AnnouncementState.UNCONFIRMED,
                 a.notes)  # fmt: skip


def because(events: Iterable[Event], acting: Mapping[str, str] | None = None, state: GameState | None = None) -> str:
    """What superseded a proposal: the events of the change, in the GM's words (a GM
    correction first); ``acting``: seats played by a substitute still entering (old → new),
    whose ballots and actions are his; ``state``: the game after them (names a resolution's
    step)."""
    words = []
    for e in events:
        if isinstance(e, Resolved) and state is not None:
            done = {Phase.DAWN: Phase.NIGHT, Phase.DUSK: Phase.DAY}.get(state.phase, state.phase)
            words.append(f"{step_name(done, state.number)}结算")
        elif w := event_words(_as_played(e, acting or {})):
            words.append(w)
    gm = [w for w in words if "shenshi" in w or "天神" in w]
    chosen = list(dict.fromkeys(gm or words))
    return "；".join(chosen[:3]) or "局面变化"


def _as_played(event: Event, acting: Mapping[str, str]) -> Event:
    """``event`` with a seat's ballot or action named by the substitute who made it."""
    if isinstance(event, BallotCast) and event.ballot.voter in acting:
        return replace(event, ballot=replace(event.ballot, voter=acting[event.ballot.voter]))
    if isinstance(event, PowerSubmitted) and event.submission.actor in acting:
        return replace(event, submission=replace(event.submission, actor=acting[event.submission.actor]))
    return event


def reconcile(
    uow: UnitOfWork, game_id: int, proposals: Proposals, why: str, row: Callable[[Draft], dict]
) -> Reconciled:
    """Bring the outbox's pending announcements in line with ``proposals`` (see the module),
    in ``uow``; ``why``: the change in the GM's words; ``row``: a draft as the outbox's
    ``propose`` takes it."""
    out = Reconciled()
    for d in proposals.fresh():
        if uow.outbox.propose(game_id, **row(d))[1]:
            out.proposed.append(d)
    replaced: list[tuple[Announcement, Draft]] = []
    withdrawn: list[tuple[Announcement, str | None]] = []
    for a in uow.outbox.announcements(game_id, PENDING):
        standing = proposals.standing(a)
        if standing is None:
            continue
        d = standing.draft
        if d is None:
            withdrawn.append((a, standing.by))
            continue
        same_place = d.key == original_key(a.key) and d.destination == a.destination
        if same_place and (d.text == a.text or a.edited_at is not None):  # (the GM's edit stands)
            if a.state is AnnouncementState.UNCONFIRMED and not d.unconfirmed:
                out.confirmed.append(uow.outbox.confirm(a.id))
            continue
        replaced.append((a, d))
    for a, d in replaced:
        old = uow.outbox.supersede(a.id, why)
        new, created = uow.outbox.propose(game_id, **row(d))
        if created and a.state is AnnouncementState.APPROVED and a.destination_kind is DestinationKind.USER \
                and new.state is AnnouncementState.PROPOSED:  # fmt: skip
            # the GM approved this PM (a role PM, a receipt): what replaces it for the seat as it
            # is now is his approved PM too, not one more to approve (gmattack2 F15, newcomer2 F20)
            new = uow.outbox.approve(new.id)
        out.superseded.append((uow.outbox.link_superseded(old.id, new.id), new))
        if created:
            out.proposed.append(d)
    for a, by in withdrawn:
        found = uow.outbox.by_key(game_id, by) if by else None
        out.superseded.append((uow.outbox.supersede(a.id, why, by=found.id if found else None), found))
    return out


__all__ = ["EARLIER", "Proposals", "Reconciled", "Standing", "because", "reconcile", "subject_of"]
