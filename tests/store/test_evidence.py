"""Evidence: every post and PM as first seen, each later change a revision, activity counts."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from store_helpers import T0, pm, post

from shenshi.records import EditMark, Quote
from shenshi.store import EvidenceKind, NotFound

URL = "http://forum.example/viewthread.php?tid=100&page=1#pid1001"


def test_a_post_is_recorded_as_first_seen(store, game, clock):
    p = post(
        quotes=(Quote("乙", "999", "投票 丙"),), edited=EditMark("甲", T0 + timedelta(minutes=5))
    )
    result = store.record_post(game.id, p, URL)
    assert result.is_new and not result.changed
    e = result.evidence
    assert (e.kind, e.source, e.forum_id, e.floor) == (EvidenceKind.POST, "100", "1001", 2)
    assert (e.author, e.author_uid, e.text, e.url) == ("甲", "11", "投票 乙", URL)
    assert e.quotes == p.quotes and e.edited == p.edited
    assert e.posted_at == T0 and e.first_seen_at == clock.now
    assert e.revisions == 0 and e.deleted_at is None and e.processed_at is None
    assert e.as_post() == p
    assert store.evidence(e.id) == e
    assert store.find_evidence(game.id, "post", "100", "1001") == e


def test_times_come_back_aware_utc(store, game):
    shanghai = datetime(2024, 3, 1, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    e = store.record_post(game.id, post(at=shanghai)).evidence
    assert e.posted_at == shanghai
    assert e.posted_at.tzinfo is UTC
    assert e.posted_at.hour == 12


def test_naive_times_are_refused(store, game):
    with pytest.raises(ValueError, match="timezone-aware"):
        store.record_post(game.id, post(at=datetime(2024, 3, 1, 20, 0)))
    assert list(store.iter_evidence(game.id)) == []


def test_the_same_post_twice_is_not_new(store, game, clock):
    first = store.record_post(game.id, post(), URL)
    clock.advance(minutes=2)
    again = store.record_post(game.id, post(), URL)
    assert not again.is_new and not again.changed
    assert again.evidence == first.evidence
    assert store.revisions(first.evidence.id) == []


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
    first = store.record_post(game.id, post()).evidence
    clock.advance(minutes=10)
    edited = replace(post(), **change)
    result = store.record_post(game.id, edited)
    assert not result.is_new and result.changed
    rev = result.revision
    assert (rev.number, rev.evidence_id, rev.seen_at) == (1, first.id, clock.now)
    assert (rev.text, rev.quotes, rev.edited) == (edited.text, edited.quotes, edited.edited)
    # the evidence keeps the first-seen text
    assert result.evidence.text == "投票 乙" and result.evidence.revisions == 1
    # the same revision seen again is not another one
    again = store.record_post(game.id, edited)
    assert not again.changed
    assert store.revisions(first.id) == [rev]


def test_revisions_are_numbered_in_the_order_seen(store, game, clock):
    store.record_post(game.id, post(text="v1"))
    for text in ("v2", "v3", "v1"):  # back to the first text is a change too
        clock.advance(minutes=1)
        store.record_post(game.id, post(text=text))
    e = store.find_evidence(game.id, EvidenceKind.POST, "100", "1001")
    revisions = store.revisions(e.id)
    assert [(r.number, r.text) for r in revisions] == [(1, "v2"), (2, "v3"), (3, "v1")]
    assert e.revisions == 3 and e.text == "v1"


def test_a_pm_is_recorded(store, game):
    m = pm()
    result = store.record_pm(game.id, m, "http://forum.example/pm?c=c11")
    e = result.evidence
    assert result.is_new
    assert (e.kind, e.source, e.forum_id, e.floor) == (EvidenceKind.PM, "c11", "5001", None)
    assert (e.recipient, e.recipient_uid) == ("天神", "1")
    assert e.as_pm() == m
    assert not store.record_pm(game.id, m).is_new
    assert store.record_pm(game.id, replace(m, text="查验 丙")).revision.text == "查验 丙"


def test_posts_and_pms_with_the_same_ids_are_distinct(store, game):
    a = store.record_post(game.id, post(pid="7", tid="7"))
    b = store.record_pm(game.id, pm(id="7", conversation="7"))
    assert a.is_new and b.is_new and a.evidence.id != b.evidence.id
    other = store.create_game("another", "game5")
    assert store.record_post(other.id, post(pid="7", tid="7")).is_new


def test_a_page_in_one_transaction(store, game):
    page = [(post(pid=str(i), floor=i, text=f"post {i}"), f"u{i}") for i in range(1, 6)]
    results = store.record_posts(game.id, page)
    assert [r.is_new for r in results] == [True] * 5
    again = store.record_posts(game.id, page[:2] + [(post(pid="3", floor=3, text="changed"), None)])
    assert [(r.is_new, r.changed) for r in again] == [(False, False), (False, False), (False, True)]


def test_mark_deleted_and_processed_keep_the_first_time(store, game, clock):
    e = store.record_post(game.id, post()).evidence
    first = store.mark_deleted(e.id)
    assert first.deleted_at == clock.now
    clock.advance(hours=1)
    assert store.mark_deleted(e.id).deleted_at == first.deleted_at
    assert store.mark_processed(e.id).processed_at == clock.now
    clock.advance(hours=1)
    assert store.mark_processed(e.id).processed_at == clock.now - timedelta(hours=1)
    with pytest.raises(NotFound):
        store.mark_deleted(999)


def test_iter_evidence_filters_and_pages(store, game):
    for i in range(7):
        store.record_post(game.id, post(pid=str(i), tid="100" if i % 2 else "200"))
    store.record_pm(game.id, pm())
    everything = list(store.iter_evidence(game.id, page=3))
    assert len(everything) == 8
    assert [e.id for e in everything] == sorted(e.id for e in everything)
    assert len(list(store.iter_evidence(game.id, kind="pm"))) == 1
    assert [e.forum_id for e in store.iter_evidence(game.id, sources=["100"], page=2)] == [
        "1",
        "3",
        "5",
    ]
    store.mark_processed(everything[0].id)
    assert len(list(store.iter_evidence(game.id, unprocessed=True))) == 7
    assert len(list(store.iter_evidence(game.id, after_id=everything[5].id))) == 2


# -- activity (lurking counts) ----------------------------------------------------------------


def _posts(store, game, author, uid, tid, hours):
    for h in hours:
        store.record_post(
            game.id,
            post(
                pid=f"{uid}-{tid}-{h}", tid=tid, author=author, uid=uid, at=T0 + timedelta(hours=h)
            ),
        )


def test_activity_counts_posts_per_author_in_the_window(store, game):
    _posts(store, game, "甲", "11", "100", [0, 1, 2, 30])
    _posts(store, game, "乙", "12", "100", [5])
    _posts(store, game, "乙", "12", "300", [6, 7])  # 灌水 thread
    store.record_pm(game.id, pm(uid="12", at=T0 + timedelta(hours=3)))
    day = store.activity(game.id, T0, T0 + timedelta(hours=24))
    assert [(a.author_uid, a.author, a.posts) for a in day] == [("11", "甲", 3), ("12", "乙", 3)]
    counted = store.activity(game.id, T0, T0 + timedelta(hours=24), sources=["100"])
    assert [(a.author_uid, a.posts) for a in counted] == [("11", 3), ("12", 1)]
    excluded = store.activity(game.id, T0, T0 + timedelta(hours=24), exclude_sources=["300"])
    assert [(a.author_uid, a.posts) for a in excluded] == [("11", 3), ("12", 1)]
    jia = day[0]
    assert (jia.first_at, jia.last_at) == (T0, T0 + timedelta(hours=2))
    pms = store.activity(game.id, T0, T0 + timedelta(hours=24), kind="pm")
    assert [(a.author_uid, a.posts) for a in pms] == [("12", 1)]


def test_activity_window_is_half_open_and_skips_deleted(store, game):
    _posts(store, game, "甲", "11", "100", [0, 24])
    assert [a.posts for a in store.activity(game.id, T0, T0 + timedelta(hours=24))] == [1]
    e = store.find_evidence(game.id, "post", "100", "11-100-0")
    store.mark_deleted(e.id)
    assert store.activity(game.id, T0, T0 + timedelta(hours=24)) == []
    assert [
        a.posts for a in store.activity(game.id, T0, T0 + timedelta(hours=1), include_deleted=True)
    ] == [1]


def test_activity_follows_a_renamed_author_by_uid(store, game):
    store.record_post(game.id, post(pid="1", author="旧名", uid="11", at=T0))
    store.record_post(game.id, post(pid="2", author="新名", uid="11", at=T0 + timedelta(hours=1)))
    (a,) = store.activity(game.id, T0, T0 + timedelta(days=1))
    assert (a.author_uid, a.author, a.posts) == ("11", "新名", 2)


def test_activity_accepts_any_time_zone(store, game):
    _posts(store, game, "甲", "11", "100", [0])
    shanghai = ZoneInfo("Asia/Shanghai")
    start = T0.astimezone(shanghai)
    assert [a.posts for a in store.activity(game.id, start, start + timedelta(minutes=1))] == [1]
    with pytest.raises(ValueError):
        store.activity(game.id, T0.replace(tzinfo=None), T0 + timedelta(days=1))
