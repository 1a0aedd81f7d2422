"""Forum ids are comparable only within one kind of destination: a post whose pid equals the id
of a PM the daemon sent (or the other way round) is still recognised as ours after an unclear
answer, and never sent twice (issue 22: 5 of 17 "stored, then kill -9" trials posted twice,
exactly those whose pid matched a receipt's PM id)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.sandbox import SandboxForum
from shenshi.adapters.sandbox.seed import GM_PASSWORD, player_name
from shenshi.daemon.cycle import Cycle
from shenshi.daemon.forum_ids import ForumRef, claimed, evidence_ref, pm_ref, post_ref  # noqa
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import DestinationKind
from tests.daemon.helpers import START, announcement, announcements
from tests.daemon.test_found_on_forum import restarted
from tests.daemon.test_service_sandbox import sandbox_game

S = AnnouncementState
DAWN = "g1:night1:public"


def next_ids_collide(forum: SandboxForum, at: int = 1000) -> None:
    """The forum's next post and next PM both get id ``at + 1`` (its two numberings meet)."""
    forum._counters["pid"] = forum._counters["mid"] = at


def gm_posts(forum: SandboxForum, tid: int, needle: str) -> list[str]:
    gm = forum.user("神的使者").uid
    return [p.text for p in forum.visible_posts(tid) if p.author_uid == gm and needle in p.text]


def gm_pms(forum: SandboxForum, text: str) -> list[str]:
    gm = forum.user("神的使者").uid
    return [m.text for m in forum.messages.values() if m.sender_uid == gm and m.text == text]


class Killed(BaseException):
    """The daemon process dies here (nothing catches it, as nothing survives a SIGKILL)."""


def die_after(monkeypatch, adapter, name: str) -> None:
    """The next ``adapter.name`` (``post_reply``/``send_pm``) reaches the forum, then the
    daemon dies before recording it."""
    send = getattr(adapter, name)

    def stored_then_killed(*args, **kwargs):
        send(*args, **kwargs)
        raise Killed

    monkeypatch.setattr(adapter, name, stored_then_killed)


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_post_whose_pid_is_a_receipts_pm_id_is_not_posted_twice(tmp_path, monkeypatch, engine) -> None:
    """The receipt to 小明 went out as PM 1001; the dawn post was stored as post 1001 and the
    daemon was killed before recording it. Looking for it after the restart, the post is ours
    and no announcement records *post* 1001: it is the dawn post, not sent again."""
    with sandbox_game(tmp_path, monkeypatch, engine=engine) as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        forum.send_pm(player_name("小明", engine), "神的使者", "占卜 老王", at=clock())
        next_ids_collide(forum)
        clock.advance(minutes=10)
        cycle.run()
        [receipt] = [a for a in announcements(service) if a.kind == "receipt"]
        assert receipt.state is S.SENT and receipt.forum_id.split(".")[0] == "1001"
        clock.set(START + timedelta(hours=24, minutes=1))
        die_after(monkeypatch, service.adapter, "post_reply")
        with pytest.raises(Killed):
            cycle.run()  # the night closes; its post is stored as 1001, then the daemon dies
        assert announcement(service, DAWN).state is S.SENDING
        assert [p.pid for p in forum.visible_posts(tid) if "【第1夜结果】" in p.text] == [1001]
        monkeypatch.undo()
        monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
        service = restarted(service, clock)
        clock.advance(minutes=1)
        Cycle(service, clock).run()
        assert len(gm_posts(forum, tid, "【第1夜结果】")) == 1
        dawn = announcement(service, DAWN)
        assert (dawn.state, dawn.forum_id) == (S.SENT, "1001")
        service.close()


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_receipt_whose_pm_id_is_a_posts_pid_is_not_sent_twice(tmp_path, monkeypatch, engine) -> None:
    """The other way round: the dawn post went out as post 1001; the next receipt was stored as
    PM 1001 and the daemon killed before recording it. After the restart it is found
    among our PMs and recorded, not sent again."""
    with sandbox_game(tmp_path, monkeypatch, engine=engine) as (clock, forum, tid, service):
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        next_ids_collide(forum)
        clock.set(START + timedelta(hours=24, minutes=1))
        cycle.run()
        dawn = announcement(service, DAWN)
        assert (dawn.state, dawn.forum_id) == (S.SENT, "1001")
        cycle.run()  # the day opens
        # by day: refused. Its PM is 1000, the answer 1001: the number of the dawn post
        forum._counters["mid"] = int(dawn.forum_id) - 2
        forum.send_pm(player_name("小明", engine), "神的使者", "占卜 老王", at=clock())
        clock.advance(minutes=10)
        die_after(monkeypatch, service.adapter, "send_pm")
        with pytest.raises(Killed):
            cycle.run()
        [pm] = [a for a in announcements(service) if a.destination_kind is DestinationKind.USER]
        assert pm.state is S.SENDING
        monkeypatch.undo()
        monkeypatch.setenv("SHENSHI_TEST_PASSWORD", GM_PASSWORD)
        service = restarted(service, clock)
        clock.advance(minutes=1)
        Cycle(service, clock).run()
        assert len(gm_pms(forum, pm.text)) == 1
        pm = announcement(service, pm.key)
        posts = {a.forum_id for a in announcements(service) if a.destination_kind is DestinationKind.THREAD}
        assert pm.state is S.SENT and pm.forum_id.split(".")[0] in posts
        service.close()


def test_refs_compare_within_one_kind_of_destination() -> None:
    """Post 42 of thread 7 is neither PM 42 nor post 42 of thread 8 (phpwind names the first
    post of every thread ``tpc``); a PM's id is one numbering for the whole forum."""
    assert post_ref("7", "42") != pm_ref("42")
    assert post_ref("7", "tpc") != post_ref("8", "tpc")
    assert pm_ref("42") == ForumRef(DestinationKind.USER, "", "42")
    assert post_ref("7", "42") == ForumRef(DestinationKind.THREAD, "7", "42")


def test_claimed_keeps_each_announcements_kind(tmp_path, monkeypatch) -> None:
    with sandbox_game(tmp_path, monkeypatch) as (clock, forum, tid, service):
        clock.set(START + timedelta(minutes=5))
        Cycle(service, clock).run()
        forum.send_pm("小明", "神的使者", "占卜 老王", at=clock())
        clock.advance(minutes=10)
        Cycle(service, clock).run()
        [receipt] = [a for a in announcements(service) if a.kind == "receipt"]
        taken = claimed(announcements(service))
        assert pm_ref(receipt.forum_id) in taken
        assert post_ref(str(tid), receipt.forum_id) not in taken
        assert claimed(announcements(service), besides=receipt.id) == set()
        ours = [e for e in service.store.stream_evidence(service.game_id) if e.recipient == "小明"]
        clock.advance(minutes=10)
        Cycle(service, clock).run()  # our PM, as the forum shows it
        ours = [e for e in service.store.stream_evidence(service.game_id) if e.recipient == "小明"]
        assert [evidence_ref(e) for e in ours] == [pm_ref(receipt.forum_id)]
