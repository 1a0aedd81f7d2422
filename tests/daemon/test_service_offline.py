"""The game service without a forum: evidence in, events and proposals out, restart safety."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from shenshi.adapters.discuz import DiscuzAdapter
from shenshi.adapters.errors import UnexpectedPage
from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.config import PlayerEntry
from shenshi.daemon.deal import deal_roles
from shenshi.records import InboxCursor, InboxDelta
from shenshi.rulesets.base import Phase
from shenshi.rulesets.catalog import GAME6_10 as GAME6_10_INFO
from shenshi.store import Conflict
from shenshi.store.evidence import EvidenceRepository
from shenshi.store.games import GameRepository
from shenshi.store.records import EvidenceKind
from tests.daemon.helpers import GAME6_10, START, config, pm, post


def service_at(tmp_path, clock, **daemon):
    svc = bootstrap(config(tmp_path, **daemon), clock=clock, forum=False)
    svc.start()
    return svc


def feed_post(svc, p):
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(p, None)])
    svc.process()


def test_missed_sign_in_and_lurking_are_proposed_not_applied(tmp_path) -> None:
    clock = ManualClock(START)
    svc = service_at(tmp_path, clock)
    for name, _ in GAME6_10:
        if name not in ("Rex", "kk_大侠"):
            feed_post(svc, post(name, "签到", 2))
    clock.set(START + timedelta(hours=25))
    out = svc.tick()
    kinds = {(a.kind, a.subject) for a in out.alerts}
    assert {("signin", "Rex"), ("signin", "kk_大侠")} <= kinds
    assert svc.referee.state.is_alive("Rex")  # the GM confirms; nothing is applied
    again = svc.tick()
    with svc.store.snapshot() as uow:
        assert not [a for a in again.alerts if a.kind == "signin"] or all(
            uow.outbox.by_key(svc.game_id, d.key) for d in again.drafts
        )
    clock.set(START + timedelta(hours=51))
    feed_post(svc, post("小明", "我还在", 50))
    out = svc.tick()
    lurkers = {a.subject for a in out.alerts if a.kind == "lurk"}
    assert "小明" not in lurkers and "Tom_2" in lurkers


def test_unprocessed_evidence_is_processed_after_a_restart(tmp_path) -> None:
    clock = ManualClock(START + timedelta(minutes=1))
    svc = service_at(tmp_path, clock)
    svc.tick()
    assert svc.referee.state.phase is Phase.NIGHT
    message = pm("小明", "占卜 老王", 1)
    with svc.store.transaction() as uow:  # stored, then the process died
        [stored] = uow.evidence.record(svc.game_id, [(message, None)])
    assert stored.is_new
    again = service_at(tmp_path, clock)  # restart: the stored PM waits for the stream
    assert not again.referee.state.submissions
    assert again.process() == 1
    subs = again.referee.state.submissions
    assert [(s.actor, s.action, s.target) for s in subs] == [("小明", "divine", "老王")]
    third = service_at(tmp_path, clock)  # and once more: nothing is repeated
    assert third.process() == 0
    assert len(third.referee.state.submissions) == 1
    assert not list(third.store.stream_evidence(third.game_id, kind=EvidenceKind.PM, unprocessed=True))


def test_deal_is_seeded_and_secret_roles_go_by_pm(tmp_path) -> None:
    clock = ManualClock(START)
    cfg = config(tmp_path)
    unroled = tuple(PlayerEntry(p.name, p.uid) for p in cfg.game.players)
    cfg = replace(cfg, game=replace(cfg.game, players=unroled))
    svc = bootstrap(cfg, clock=clock, forum=False)
    dealt = svc.deal("seed-42")
    again = [d.role for d in deal_roles(GAME6_10_INFO, [p.name for p in unroled], "seed-42")]
    assert [d.role for d in dealt] == again
    assert sorted(again) == sorted(r for _, r in GAME6_10)
    with svc.store.snapshot() as uow:
        roles = [a for a in uow.outbox.announcements(svc.game_id) if a.kind == "role"]
        game = uow.games.find(cfg.game.name)
    assert len(roles) == 10 and all(a.destination_kind.value == "user" for a in roles)
    killers = [d.name for d in dealt if d.role == "killer"]
    pm_to_killer = next(a for a in roles if a.destination == killers[0])
    assert killers[1] in pm_to_killer.text  # the killers know each other (game6-10)
    assert game.deal_seed == "seed-42"
    assert "seed-42" not in (tmp_path / "dry.log").read_text(encoding="utf-8")


class _BrokenForum:
    """A forum whose vote thread page cannot be parsed; the inbox still works."""

    engine = "discuz"
    own_uid = "2"
    requests = 0
    time_precision = DiscuzAdapter.time_precision

    def poll_board(self, fid, cursors, discover=None):
        raise UnexpectedPage("no post container found", url="http://forum.example/t/2", snippet="<html>")

    def read_pms(self, cursor=None, since=None):
        return InboxDelta((pm("小明", "占卜 老王", 1),), (), InboxCursor(), 1)

    def mark_read(self, ids):
        pass

    def post_url(self, tid, pid):
        return f"http://forum.example/t/{tid}#{pid}"

    def pm_url(self, message):
        return f"http://forum.example/pm/{message.id}"


def test_a_page_that_cannot_be_parsed_is_an_alert_and_the_poll_goes_on(tmp_path) -> None:
    clock = ManualClock(START + timedelta(minutes=1))
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.adapter = _BrokenForum()
    svc.start()
    svc.tick()
    report = svc.poll()
    assert report.pms == 1  # the inbox was still read
    with svc.store.snapshot() as uow:
        alerts = uow.alerts.raised(svc.game_id)
    assert any(a.kind == "unparsable_page" and "http://forum.example/t/2" in a.message for a in alerts)
    log = (tmp_path / "dry.log").read_text(encoding="utf-8")
    assert "!! 提醒" in log and "http://forum.example/pm/" in log



def _stored_events(svc) -> list[str]:
    return [e.type for e in svc.store.stream_events(svc.game_id)]


def test_a_substitution_the_players_table_refuses_stores_no_event(tmp_path) -> None:
    """Rex, replaced before the game, cannot come back: his name stays in the players table.
    The refusal leaves the events, the table and the service's state as they were."""
    clock = ManualClock(START - timedelta(hours=1))  # before the start: the takeover is at once
    svc = service_at(tmp_path, clock)
    svc.substitute("Rex", "新人")
    before = _stored_events(svc)
    assert before[-1] == "SeatTakenOver"
    with pytest.raises(Conflict, match="'Rex' already plays"):
        svc.substitute("新人", "Rex")
    assert _stored_events(svc) == before
    assert svc.referee.state.has_player("新人") and not svc.referee.state.has_player("Rex")
    again = service_at(tmp_path, clock)  # a restart replays the same seats
    assert again.referee.state.has_player("新人") and not again.replay_differences()


def test_a_crash_inside_a_substitution_keeps_neither_half(tmp_path, monkeypatch) -> None:
    clock = ManualClock(START - timedelta(hours=1))
    svc = service_at(tmp_path, clock)
    before = _stored_events(svc)

    def crash(*args, **kwargs):
        raise RuntimeError("killed between the events and the players table")

    monkeypatch.setattr(GameRepository, "substitute", crash)
    with pytest.raises(RuntimeError, match="killed"):
        svc.substitute("Rex", "新人")
    monkeypatch.undo()
    assert _stored_events(svc) == before
    again = service_at(tmp_path, clock)
    assert again.referee.state.has_player("Rex") and not again.replay_differences()
    with again.store.snapshot() as uow:
        assert [p.name for p in uow.games.players(again.game_id) if p.name in ("Rex", "新人")] == [
            "Rex"
        ]


def test_an_outcome_is_stored_whole_or_not_at_all(tmp_path, monkeypatch) -> None:
    """A crash at the last write of an outcome (the processed mark) keeps none of it: no
    event, no receipt; the restart reads the PM again, and stores it once."""
    clock = ManualClock(START + timedelta(minutes=1))
    svc = service_at(tmp_path, clock)
    svc.tick()
    before = _stored_events(svc)
    message = pm("小明", "占卜 老王", 1)
    with svc.store.transaction() as uow:
        [stored] = uow.evidence.record(svc.game_id, [(message, None)])

    def crash(*args, **kwargs):
        raise RuntimeError("killed before the processed mark")

    monkeypatch.setattr(EvidenceRepository, "mark_processed", crash)
    with pytest.raises(RuntimeError, match="killed"):
        svc.process()
    monkeypatch.undo()
    assert _stored_events(svc) == before
    with svc.store.snapshot() as uow:
        assert not [a for a in uow.outbox.announcements(svc.game_id) if a.kind == "receipt"]
    again = service_at(tmp_path, clock)
    again.process()
    assert [(s.actor, s.action) for s in again.referee.state.submissions] == [("小明", "divine")]
    assert _stored_events(again) == [*before, "PowerSubmitted"]
