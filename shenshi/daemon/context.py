"""The intake view of a running game: a :class:`~shenshi.intake.GameContext` built from the
rules core's state, the configuration and the forum uids."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from datetime import datetime, tzinfo
from typing import Any

from shenshi.config import GameConfig
from shenshi.intake import CountedBallot as IntakeBallot
from shenshi.intake import GameContext, PhaseFacts, PlayerInfo
from shenshi.intake.context import (
    CHAT_THREAD,
    DAY,
    DISCUSSION_THREAD,
    NIGHT,
    ROLE_THREAD,
    SIGNIN,
    SIGNIN_THREAD,
    VOTE_THREAD,
    DeclaredKill,
)
from shenshi.intake.names import nickname_map
from shenshi.rulesets.base import ABSTAIN, GameState, Phase, PhaseTimes, Ruleset
from shenshi.rulesets.profile import LastWordsNotice
from shenshi.wording import Templates


def thread_kinds(game: GameConfig) -> dict[str, str]:
    """tid → thread kind for intake (vote, sign-in, chat, role threads)."""
    kinds = {game.vote_thread: VOTE_THREAD}
    if game.player_list_thread and game.player_list_thread != game.vote_thread:
        kinds[game.player_list_thread] = SIGNIN_THREAD
    for tid in game.counted_threads:
        kinds.setdefault(tid, DISCUSSION_THREAD)
    for tid in game.uncounted_threads:
        kinds.setdefault(tid, CHAT_THREAD)
    for tid in game.role_threads.values():
        kinds[tid] = ROLE_THREAD
    return kinds


def build_context(
    ruleset: Ruleset,
    state: GameState,
    game: GameConfig,
    *,
    uids: Mapping[str, str],
    gm_name: str,
    gm_uid: str | None,
    times: PhaseTimes | None,
    now: datetime,
    tz: tzinfo,
    templates: Templates | None = None,
    stand_ins: Mapping[str, str] | None = None,
    early_close: bool = False,
    forum_names: Mapping[str, tuple[str, ...]] | None = None,
    former_names: Mapping[str, tuple[str, ...]] | None = None,
    told_dead: Collection[str] = (),
) -> GameContext:
    """Everything intake needs to read and validate one post or PM at ``now``.

    ``forum_names``: other names the forum showed for a player's uid (a rename): each is read
    as that player's, like a nickname the GM gave, unless it is another player's name.
    ``former_names``: the players whose seat each player took over; read the same way, except
    by the holder himself (:attr:`GameContext.former_names`).

    The living are the living as the players know them: a death takes effect when the GM
    publishes it, so between a resolution and its publication (dawn, dusk, a game just over) the
    step's dead are still alive here, and no alert or receipt can reveal an unpublished death.

    ``stand_ins``: substitutes entering when the open step ends, each with the seat he acts
    for until then (new → old): he is a player of that seat already (his ballots and actions
    are the seat's, RULES.md "The substitute's own clocks"), and the seat's ballots are his.
    ``early_close``: the GM lets a step end once all its activity is in (``[daemon]
    early_close``), where the ruleset allows it. ``told_dead``: the dead a post already out
    told the players of."""
    unpublished = unpublished_deaths(state, told_dead)
    players = tuple(
        PlayerInfo(s.name, uids.get(s.name), s.role, s.team, s.alive or s.name in unpublished,
                   frozenset(s.addons))  # fmt: skip
        for s in state.seats
    )
    acting = dict(stand_ins or {})
    by_name = {p.name: p for p in players}
    players += tuple(
        replace(by_name[old], name=new, uid=uids.get(new)) for new, old in acting.items() if old in by_name
    )
    seated = {s.name for s in state.seats} | set(acting)
    aliases = {name: list(nicks) for name, nicks in game.nicknames.items()}
    for names in (forum_names or {}, former_names or {}):
        for name, shown in names.items():
            aliases.setdefault(name, []).extend(n for n in shown if n not in seated)
    nicknames = nickname_map(aliases)  # a nickname given to two players is ambiguous
    role_threads: dict[str, frozenset[str]] = {}
    for owner, tid in game.role_threads.items():
        owners = {s.name for s in state.seats if s.role == owner or s.name == owner}
        role_threads[tid] = frozenset(owners | {new for new, old in acting.items() if old in owners})
    return GameContext(
        ruleset=state.ruleset,
        players=players,
        nicknames=nicknames,
        former_names=dict(former_names or {}),
        gm_names=frozenset({gm_name}),
        gm_uids=frozenset({gm_uid} if gm_uid else ()),
        phase=_seats_facts(replace(phase_facts(ruleset, state, times, now, early_close),
                                   told_out=told_out(ruleset, state)), acting),
        threads=thread_kinds(game),
        other_threads=DISCUSSION_THREAD,
        role_threads=role_threads,
        receipts=game.receipts,
        tz=tz,
        settings=state.config,
        templates=templates or Templates(),
        started=game.start,
    )


def phase_facts(
    ruleset: Ruleset, state: GameState, times: PhaseTimes | None, now: datetime, early_close: bool = False
) -> PhaseFacts:
    """The facts of the open step that single-post checks need (``early_close``: the GM ends a
    step once all its activity is in, where the ruleset allows it)."""
    facts: dict[str, Any] = {"number": state.number}
    # (the profile says so; asking ``Ruleset.completion`` would judge the whole step per post)
    facts["closes_early"] = early_close and ruleset.profile(state.config).clock.early_close and state.phase in (
        Phase.NIGHT, Phase.DAY,
    )
    params = state.params
    if state.phase is Phase.SETUP:
        facts["kind"] = SIGNIN
    elif state.phase is Phase.NIGHT:
        facts["kind"] = NIGHT
        facts["pm_window_open"] = params.get("window_open")
        if times is not None:
            facts["deadline"] = times.input_deadline
            facts["phase_deadlines"] = {int(k): v for k, v in times.phase_deadlines.items()}
    elif state.phase is Phase.DAY:
        facts["kind"] = DAY
        if times is not None and state.round in times.rounds:
            opens, closes = times.rounds[state.round]
            if opens <= now:
                facts.update(vote_round=state.round, vote_open=opens, vote_close=closes)
        facts["ballots"] = _ballots(state)
        facts["candidates"] = _candidates(state) if state.round > 1 else frozenset()
    else:  # dawn or dusk: between steps nothing is open
        facts["kind"] = None
        if state.phase is Phase.DAWN and times is not None and times.phase_deadlines:
            # a settled night's phases are over: a reply is late for its own (wolfadv W10)
            facts["phase_deadlines"] = {int(k): v for k, v in times.phase_deadlines.items()}
    facts["declared"] = _declared(state)
    answered = params.get("gm_answered") or {}
    facts["seer_answered"] = frozenset(answered)
    facts.update(ruleset.intake_facts(state))  # bound survivor, swaps left, madness…
    return PhaseFacts(**facts)


def unpublished_deaths(state: GameState, told: Collection[str] = ()) -> set[str]:
    """The settled step's dead, not published yet (the players still know them alive);
    ``told``: those a post already out said are out (a GM's exit posted during the step:
    newcomer2 F6)."""
    if state.phase not in (Phase.DAWN, Phase.DUSK, Phase.OVER):
        return set()
    return {d.name for d in state.step_report.deaths} - set(told)


def told_out(ruleset: Ruleset, state: GameState) -> frozenset[str]:
    """The characters the settled step put out who were told so by PM (werewolf's notice with
    the last words' deadline) before its post: they know they are out (adversary6 C3,
    adversary7 D3)."""
    if ruleset.profile(state.config).last_words.notice is not LastWordsNotice.PM:
        return frozenset()
    return frozenset(unpublished_deaths(state) & set(state.step_report.last_words or ()))


def _seats_facts(facts: PhaseFacts, acting: Mapping[str, str]) -> PhaseFacts:
    """The open step's facts with each substitute still entering given what they say of his
    seat: its ballots, its candidacy (a runoff ballot naming the substitute of a candidate is a
    ballot for that seat, as the substitution post told the players: adversary3 A3), its
    answered divination, locks, spent or extra powers, last words, its being out (recheck R7a:
    the substitute of a sheriff put out names the successor)."""
    if not acting:
        return facts

    def names(held: frozenset[str]) -> frozenset[str]:
        return held | {new for new, old in acting.items() if old in held}

    def keyed(held: Mapping[str, Any]) -> dict[str, Any]:
        return {**held, **{new: held[old] for new, old in acting.items() if old in held}}

    granted = facts.last_words_granted
    return replace(
        facts, ballots=keyed(facts.ballots), declared=keyed(facts.declared), locked=keyed(facts.locked),
        swaps_left=keyed(facts.swaps_left), extra_powers=keyed(facts.extra_powers),
        candidates=names(facts.candidates), seer_answered=names(facts.seer_answered),
        delegations_published=names(facts.delegations_published), maddened=names(facts.maddened),
        sent_off=names(facts.sent_off), told_out=names(facts.told_out), summoned=names(facts.summoned),
        last_words_granted=None if granted is None else names(granted), taking_over=dict(acting),
    )  # fmt: skip


def _ballots(state: GameState) -> dict[str, tuple[IntakeBallot, ...]]:
    out: dict[str, list[IntakeBallot]] = {}
    for b in state.ballots:
        if b.round == state.round and b.via in ("post", "gm"):
            out.setdefault(b.voter, []).append(IntakeBallot(None if b.target == ABSTAIN else b.target, b.t))
    return {k: tuple(v) for k, v in out.items()}


def _declared(state: GameState) -> dict[str, DeclaredKill]:
    """Each killer's latest kill of the step that came with a declaration (A-J3, 宣言同上),
    and whether it is still his latest kill."""
    with_text: dict[str, tuple[int, DeclaredKill]] = {}
    latest: dict[str, int] = {}
    for s in sorted(state.submissions, key=lambda s: s.sort_key()):
        if "declaration_chars" not in s.extra:
            continue
        latest[s.actor] = s.seq
        if not s.extra.get("declaration_missing"):
            chars = int(s.extra["declaration_chars"] or 0)
            with_text[s.actor] = (s.seq, DeclaredKill(s.target, chars))
    return {
        actor: replace(kill, latest=seq == latest[actor])
        for actor, (seq, kill) in with_text.items()
    }


def _candidates(state: GameState) -> frozenset[str]:
    for fact in reversed(state.step_report.public_facts):
        if fact.kind == "runoff":
            return frozenset(fact.get("candidates") or ())
    return frozenset()


__all__ = ["DAY", "NIGHT", "build_context", "phase_facts", "thread_kinds"]
