"""Proposals follow the state, as a property (issue 20): random corrections (substitute, exit,
ballot, void, answered, action) injected at random moments of random games (sign-ins, night
PMs, ballots, delegations, talk, the clock running, sends going out), and after every step:

- every pending proposal equals what the current state would propose now (so no two pending
  proposals say different things about one seat, no exit is proposed for a seat a substitute
  took, no PM waits for a player who left);
- nothing a later event made moot is ever sent, even when the correction comes while the
  daemon is sending (the GM's command in another process, between two sends).

The game runs in live mode on a forum that only records what it is sent."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shenshi.adapters.base import TimePrecision
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon import gm_commands
from shenshi.daemon.publisher import Publisher
from shenshi.daemon.superseding import PERSONAL
from shenshi.errors import UserError
from shenshi.records import Post, PrivateMessage
from shenshi.rulesets.base import Phase
from shenshi.store.announcements import original_key
from shenshi.store.outbox import PENDING, AnnouncementState
from shenshi.store.records import DestinationKind
from tests.daemon.helpers import START, UIDS, config

S = AnnouncementState
BENCH = [f"替补{i}" for i in range(1, 6)]
DECLARATION = "杀人宣言：" + "夜色深沉，风声鹤唳，" * 12
ROLE_PM = {
    "killer": "杀 {t}\n" + DECLARATION, "seer": "占卜 {t}", "binder": "束魂 {t}", "curser": "诅咒 {t}",
    "blesser": "庇佑 {t}", "commoner": "祈祷 {t}",
}  # fmt: skip
ids = count(10_000)
# What happens next, as often as it happens in a game: mostly players and the clock, now and
# then a correction (an exit rarely: it ends short games).
STEPS = (["wait"] * 7 + ["night"] * 4 + ["ballot"] * 4 + ["signin"] * 2 + ["delegate", "talk"]
         + ["substitute"] * 2 + ["gm_ballot"] * 2 + ["void", "answered", "action", "exit", "send_then_correct"])  # fmt: skip


class RecordingForum:
    """A forum that takes every post and PM and remembers it (the publisher's adapter)."""

    flood_interval = 0
    time_precision = TimePrecision(*(timedelta(seconds=1),) * 4)
    own_uid = "2"

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []  # (where, to, text)

    def fit_min_length(self, text: str, padding: str) -> str:
        return text

    def post_reply(self, tid: str, text: str) -> str:
        self.sent.append(("thread", tid, text))
        return str(next(ids))

    def send_pm(self, to: str, text: str) -> str:
        self.sent.append(("pm", to, text))
        return str(next(ids))


@dataclass
class Game:
    """One random game: the daemon's service, a second one for the GM's commands (as the CLI
    would be), the forum, the clock."""

    svc: object
    gm: object
    forum: RecordingForum
    clock: ManualClock
    sent_ids: set[int] = field(default_factory=set)
    bench: list[str] = field(default_factory=lambda: list(BENCH))
    corrections: list[str] = field(default_factory=list)
    inject: list = field(default_factory=list)  # corrections to make between two sends

    def feed(self, record) -> None:
        with self.svc.store.transaction() as uow:
            uow.evidence.record(self.svc.game_id, [(record, None)])
        self.svc.process()

    def publish(self) -> None:
        self.svc.read_corrections()
        self.svc.publisher.publish()

    # -- who is who ------------------------------------------------------------------------------

    @property
    def state(self):  # type: ignore[no-untyped-def]
        return self.svc.referee.state

    def playing(self) -> list[str]:
        """Who plays a living seat now (a substitute still entering: him)."""
        leaving = {old: new for old, new in self.state.pending_substitutions if self.state.is_alive(old)}
        return [leaving.get(s.name, s.name) for s in self.state.alive()]

    def seats(self) -> list[str]:
        return [s.name for s in self.state.alive() if s.name not in {o for o, _ in self.state.pending_substitutions}]

    def role_of(self, name: str) -> str:
        acting = {new: old for old, new in self.state.pending_substitutions}
        return self.state.seat(acting.get(name, name)).role


def start(tmp_path) -> Game:
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path, mode="live"), clock=clock, forum=False)
    svc.start()
    forum = RecordingForum()
    game = Game(svc, None, forum, clock)

    def between_sends() -> None:  # the GM corrects while the daemon sends (another process)
        while game.inject:
            game.inject.pop(0)()

    svc.publisher = Publisher(
        svc.config, svc.store, forum, svc.game_id, clock, svc.raise_alerts, drylog=svc.drylog,
        templates=svc.templates, sleep=None, owner="daemon", hold=between_sends, refresh=lambda: None,
        polled_at=lambda: clock(), sent=svc._published_by_sending,
    )  # fmt: skip
    game.gm = bootstrap(svc.config, store=svc.store, clock=clock, forum=False)
    game.gm.start()
    return game


# -- the steps ----------------------------------------------------------------------------------


def step(game: Game, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(STEPS))
    players = game.playing()
    if not players:
        return
    who = data.draw(st.sampled_from(players))
    target = data.draw(st.sampled_from(players))
    at = (game.clock() - START).total_seconds() / 3600
    if kind == "wait":
        game.clock.advance(hours=data.draw(st.sampled_from([2, 6, 13, 25])))
        game.svc.tick()
    elif kind == "signin":
        game.feed(_post(who, "签到", at))
    elif kind == "night":
        text = ROLE_PM.get(game.role_of(who), "祈祷 {t}").format(t=target)
        game.feed(_pm(who, text, at))
    elif kind == "ballot":
        game.feed(_post(who, f"投票：{target}", at))
    elif kind == "delegate":
        game.feed(_pm(who, f"委托投票：{target}", at))
    elif kind == "talk":
        game.feed(_post(who, "我再看看大家的发言。", at, tid="77"))
    elif kind == "send_then_correct":  # a correction arrives between two sends
        game.inject.append(lambda: correct(game, data.draw(st.sampled_from(["substitute", "exit", "gm_ballot"])), data))
    else:
        correct(game, kind, data)
    game.publish()


def correct(game: Game, kind: str, data: st.DataObject) -> None:
    """One GM correction through the GM's own service (the CLI's way); a correction the rules
    refuse changes nothing."""
    seats = game.seats()
    if not seats:
        return
    gm = game.gm
    gm.read_corrections()
    try:
        if kind == "substitute" and game.bench:
            old = data.draw(st.sampled_from(seats))
            new = game.bench.pop(0)
            gm_commands.substitute(gm, old, new, uid=UIDS[new])
        elif kind == "exit":
            gm_commands.correct(gm, "exit", [data.draw(st.sampled_from(seats))], ends_game=data.draw(st.booleans()))
        elif kind == "gm_ballot":
            gm_commands.correct(gm, "ballot", [data.draw(st.sampled_from(seats)), data.draw(st.sampled_from(seats))])
        elif kind == "void" and game.state.submissions:
            sub = data.draw(st.sampled_from(game.state.submissions))
            gm_commands.correct(gm, "void", [sub.actor, sub.action])
        elif kind == "action":  # what intake could not read, entered by the GM (override action)
            actor = data.draw(st.sampled_from(seats))
            role = game.state.seat(actor).role
            if game.state.phase is not Phase.NIGHT or role not in ROLE_PM:
                return
            word = ROLE_PM[role].split()[0]
            extra = {"declaration": DECLARATION.split("：", 1)[1]} if role == "killer" else {}
            gm_commands.enter_action(gm, [actor, word, data.draw(st.sampled_from(seats))], **extra)
        elif kind == "answered":
            seers = [s.name for s in game.state.alive() if s.role == "seer"]
            if seers:
                gm_commands.correct(gm, "answered", [seers[0]])
        else:
            return
    except UserError:
        return  # refused: nothing changed
    game.corrections.append(kind)


def _post(who: str, text: str, hours: float, tid: str = "2") -> Post:
    n = next(ids)
    return Post(tid, str(n), n, who, UIDS.get(who, "999"), START + timedelta(hours=hours), text)


def _pm(who: str, text: str, hours: float) -> PrivateMessage:
    n = next(ids)
    uid = UIDS.get(who, "999")
    return PrivateMessage(str(n), f"c{uid}", who, uid, "神的使者", "2", START + timedelta(hours=hours), text)


# -- what must hold -----------------------------------------------------------------------------


def check(game: Game) -> None:
    svc = game.svc
    svc.read_corrections()
    with svc.store.snapshot() as uow:
        proposals = svc.proposals(uow)
        everything = uow.outbox.announcements(svc.game_id)
    pending = [a for a in everything if a.state in PENDING]
    # every pending proposal is what the current state proposes now
    for a in pending:
        standing = proposals.standing(a)
        if standing is None:
            continue
        assert standing.draft is not None, (a.id, a.kind, a.key, "is moot but pending")
        d = standing.draft
        assert (d.key, d.destination) == (original_key(a.key), a.destination), (a.id, a.kind, d.key)
        assert d.text == a.text or a.edited_at is not None, (a.id, a.kind, a.text, d.text)
        assert (a.state is S.UNCONFIRMED) == d.unconfirmed or a.state is not S.UNCONFIRMED, (a.id, a.kind)
    keys = {a.key for a in everything}
    for d in proposals.fresh():
        assert d.key in keys, ("not proposed", d.key)
    # one story per seat: no exit proposed for a seat that is taken over or already out
    seats_told = {}
    for a in pending:
        if a.kind in ("signin", "lurk", "exit", "substitution"):
            name = original_key(a.key).split(":")[2]
            seats_told.setdefault(name, set()).add(a.kind)
    for name, kinds in seats_told.items():
        assert not ({"signin", "lurk"} & kinds and {"exit", "substitution"} & kinds), (name, kinds)
        if {"signin", "lurk"} & kinds:
            assert proposals.seat_of(name) is not None, (name, "left or out, still proposed to exit")
    # no PM waits for a player who left his seat
    for a in pending:
        if a.destination_kind is DestinationKind.USER and a.kind not in PERSONAL:  # (about him: his)
            left = a.destination in svc.referee.successors and proposals.successor(a.destination) is not None
            assert not left, (a.id, a.kind, a.destination)
    # nothing moot was ever sent: every send is of an announcement that stands as sent
    sent_texts = [text for _, _, text in game.forum.sent]
    by_state = {a.id: a for a in everything}
    for a in everything:
        if a.state is S.SUPERSEDED:
            assert a.sent_at is None and a.forum_id is None, (a.id, a.kind)
        if a.sent_at is not None:
            assert a.state is S.SENT and a.text in sent_texts
    assert len(sent_texts) == len([a for a in by_state.values() if a.state is S.SENT])


def play(tmp_path_factory, data: st.DataObject) -> None:
    """One random game, checked after every step."""
    saved = dict(UIDS)
    UIDS.update({name: str(200 + i) for i, name in enumerate(BENCH)})
    try:
        game = start(tmp_path_factory.mktemp("prop"))
        try:
            for _ in range(data.draw(st.integers(min_value=20, max_value=45))):
                step(game, data)
                check(game)
                if game.state.phase is Phase.OVER:
                    break
        finally:
            game.svc.close()
    finally:
        UIDS.clear()
        UIDS.update(saved)


SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]}


@settings(max_examples=3, derandomize=True, **SETTINGS)  # (a few in make test, the same each run; the slow twin explores)
@given(data=st.data())
def test_every_pending_proposal_is_what_the_state_proposes_now(tmp_path_factory, data) -> None:
    play(tmp_path_factory, data)


@pytest.mark.slow
@settings(max_examples=80, **SETTINGS)
@given(data=st.data())
def test_many_random_games_with_corrections(tmp_path_factory, data) -> None:
    play(tmp_path_factory, data)
