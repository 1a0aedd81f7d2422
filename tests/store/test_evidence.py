"""Evidence: every post and PM as first seen, each later change a revision, activity counts."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update
from store_helpers import T0, pm, post, record

from shenshi.records import EditMark, Quote
from shenshi.store import EvidenceKind, NotFound
from shenshi.store import models as m
from shenshi.store import unit_of_work as uow_module

URL = "http://forum.example/viewthread.php?tid=100&page=1#pid1001"


def _one(store, game, item, url=None):
    with store.transaction() as uow:
        [result] = uow.evidence.record(game.id, [(item, url)])
    return result


def test_a_post_is_recorded_as_first_seen(store, game, clock):
    p = post(
        quotes=(Quote("乙", "999", "投票 丙"),), edited=EditMark("甲", T0 + timedelta(minutes=5))
    )
    result = _one(store, game, p, URL)
    assert result.is_new and not result.changed
    e = result.evidence
    assert (e.kind, e.source, e.forum_id, e.floor) == (EvidenceKind.POST, "100", "1001", 2)
    assert (e.author, e.author_uid, e.text, e.url) == ("甲", "11", "投票 乙", URL)
    assert e.quotes == p.quotes and e.edited == p.edited
    assert e.posted_at == T0 and e.first_seen_at == clock.now
    assert e.revisions == 0 and e.deleted_at is None and e.processed_at is None
    assert e.as_post() == p
    with store.snapshot() as uow:
        assert uow.evidence.get(e.id) == e
        with pytest.raises(NotFound):
            uow.evidence.get(999)


def test_times_come_back_aware_utc(store, game):
    shanghai = datetime(2024, 3, 1, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    e = _one(store, game, post(at=shanghai)).evidence
    assert e.posted_at == shanghai
    assert e.posted_at.tzinfo is UTC
    assert e.posted_at.hour == 12


def test_naive_times_are_refused(store, game):
    with pytest.raises(ValueError, match="timezone-aware"):
        _one(store, game, post(at=datetime(2024, 3, 1, 20, 0)))
    assert list(store.stream_evidence(game.id)) == []


def test_the_same_post_twice_is_not_new(store, game, clock):
    first = _one(store, game, post(), URL)
    clock.advance(minutes=2)
    again = _one(store, game, post(), URL)
    assert not again.is_new and not again.changed
    assert again.evidence == first.evidence


@pytest.mark.parametrize(
    "change",
    [
        {"text": "投票 丙"},
        {"quotes": (Quote("乙", "999", "投票 丙"),)},
        {"edited": EditMark("甲", T0 + timedelta(minutes=3))},
    ],
    ids=["text", "quotes", "edit-mark"],
)
def test_a_change_is_a_revision(store, game, clock, change):
    first = _one(store, game, post()).evidence
    clock.advance(minutes=10)
    edited = replace(post(), **change)
    result = _one(store, game, edited)
    assert not result.is_new and result.changed
    rev = result.revision
    assert (rev.number, rev.evidence_id, rev.seen_at) == (1, first.id, clock.now)
    assert (rev.text, rev.quotes, rev.edited) == (edited.text, edited.quotes, edited.edited)
    # the evidence keeps the first-seen text
    assert result.evidence.text == "投票 乙" and result.evidence.revisions == 1
    # the same revision seen again is not another one
    again = _one(store, game, edited)
    assert not again.changed and again.evidence.revisions == 1


def test_revisions_are_numbered_in_the_order_seen(store, game, clock):
    _one(store, game, post(text="v1"))
    revisions = []
    for text in ("v2", "v3", "v1"):  # back to the first text is a change too
        clock.advance(minutes=1)
        revisions.append(_one(store, game, post(text=text)).revision)
    assert [(r.number, r.text) for r in revisions] == [(1, "v2"), (2, "v3"), (3, "v1")]
    (e,) = store.stream_evidence(game.id)
    assert e.revisions == 3 and e.text == "v1"


def test_a_pm_is_recorded(store, game):
    message = pm()
    result = _one(store, game, message, "http://forum.example/pm?c=c11")
    e = result.evidence
    assert result.is_new
    assert (e.kind, e.source, e.forum_id, e.floor) == (EvidenceKind.PM, "c11", "5001", None)
    assert (e.recipient, e.recipient_uid) == ("天神", "1")
    assert e.as_pm() == message
    assert not _one(store, game, message).is_new
    assert _one(store, game, replace(message, text="查验 丙")).revision.text == "查验 丙"


def test_posts_and_pms_with_the_same_ids_are_distinct(store, game):
    a, b = record(store, game.id, post(pid="7", tid="7"), pm(id="7", conversation="7"))
    assert a.is_new and b.is_new and a.evidence.id != b.evidence.id
    with store.transaction() as uow:
        other = uow.games.create("another", "game5")
    assert _one(store, other, post(pid="7", tid="7")).is_new


def test_a_page_in_one_transaction(store, game):
    page = [(post(pid=str(i), floor=i, text=f"post {i}"), f"u{i}") for i in range(1, 6)]
    with store.transaction() as uow:
        results = uow.evidence.record(game.id, page)
    assert [r.is_new for r in results] == [True] * 5
    with store.transaction() as uow:
        again = uow.evidence.record(
            game.id, page[:2] + [(post(pid="3", floor=3, text="changed"), None)]
        )
    assert [(r.is_new, r.changed) for r in again] == [(False, False), (False, False), (False, True)]


def test_processed_keeps_the_first_time(store, game, clock):
    e = _one(store, game, post()).evidence
    with store.transaction() as uow:
        assert uow.evidence.mark_processed(e.id).processed_at == clock.now
    clock.advance(hours=1)
    with store.transaction() as uow:
        assert uow.evidence.mark_processed(e.id).processed_at == clock.now - timedelta(hours=1)
    with pytest.raises(NotFound), store.transaction() as uow:
        uow.evidence.mark_processed(999)


def test_stream_evidence_filters_and_pages(store, game, monkeypatch):
    record(store, game.id, *(post(pid=str(i), tid="100" if i % 2 else "200") for i in range(7)))
    record(store, game.id, pm())
    monkeypatch.setattr(uow_module, "PAGE", 3)
    everything = list(store.stream_evidence(game.id))
    assert len(everything) == 8
    assert [e.id for e in everything] == sorted(e.id for e in everything)
    assert len(list(store.stream_evidence(game.id, kind="pm"))) == 1
    monkeypatch.setattr(uow_module, "PAGE", 2)
    assert [e.forum_id for e in store.stream_evidence(game.id, sources=["100"])] == [
        "1",
        "3",
        "5",
    ]
    with store.transaction() as uow:
        uow.evidence.mark_processed(everything[0].id)
    assert len(list(store.stream_evidence(game.id, unprocessed=True))) == 7
    with store.snapshot() as uow:
        assert len(uow.evidence.page(game.id, after_id=everything[5].id, limit=10)) == 2


# -- activity (lurking counts) ----------------------------------------------------------------


def _posts(store, game, author, uid, tid, hours):
    record(
        store,
        game.id,
        *(
            post(
                pid=f"{uid}-{tid}-{h}", tid=tid, author=author, uid=uid, at=T0 + timedelta(hours=h)
            )
            for h in hours
        ),
    )


def _activity(store, game, start, end, **kw):
    with store.snapshot() as uow:
        return uow.evidence.activity(game.id, start, end, **kw)


def test_activity_counts_posts_per_author_in_the_window(store, game):
    _posts(store, game, "甲", "11", "100", [0, 1, 2, 30])
    _posts(store, game, "乙", "12", "100", [5])
    _posts(store, game, "乙", "12", "300", [6, 7])  # 灌水 thread
    record(store, game.id, pm(uid="12", at=T0 + timedelta(hours=3)))  # PMs never count
    day = _activity(store, game, T0, T0 + timedelta(hours=24))
    assert [(a.author_uid, a.author, a.posts) for a in day] == [("11", "甲", 3), ("12", "乙", 3)]
    counted = _activity(store, game, T0, T0 + timedelta(hours=24), sources=["100"])
    assert [(a.author_uid, a.posts) for a in counted] == [("11", 3), ("12", 1)]
    excluded = _activity(store, game, T0, T0 + timedelta(hours=24), exclude_sources=["300"])
    assert [(a.author_uid, a.posts) for a in excluded] == [("11", 3), ("12", 1)]
    jia = day[0]
    assert (jia.first_at, jia.last_at) == (T0, T0 + timedelta(hours=2))


def test_activity_window_is_half_open_and_skips_deleted(store, game):
    _posts(store, game, "甲", "11", "100", [0, 24])
    assert [a.posts for a in _activity(store, game, T0, T0 + timedelta(hours=24))] == [1]
    with store.engine.begin() as conn:  # a post gone from the forum
        conn.execute(
            update(m.Evidence).where(m.Evidence.forum_id == "11-100-0").values(deleted_at=T0)
        )
    assert _activity(store, game, T0, T0 + timedelta(hours=24)) == []


def test_activity_follows_a_renamed_author_by_uid(store, game):
    record(
        store,
        game.id,
        post(pid="1", author="旧名", uid="11", at=T0),
        post(pid="2", author="新名", uid="11", at=T0 + timedelta(hours=1)),
    )
    (a,) = _activity(store, game, T0, T0 + timedelta(days=1))
    assert (a.author_uid, a.author, a.posts) == ("11", "新名", 2)


def test_activity_accepts_any_time_zone(store, game):
    _posts(store, game, "甲", "11", "100", [0])
    shanghai = ZoneInfo("Asia/Shanghai")
    start = T0.astimezone(shanghai)
    assert [a.posts for a in _activity(store, game, start, start + timedelta(minutes=1))] == [1]
    with pytest.raises(ValueError):
        _activity(store, game, T0.replace(tzinfo=None), T0 + timedelta(days=1))
