"""Proposals follow the state (issue 20): a correction supersedes what it made moot, a
substitute's flow is whole, and the GM is told what replaced what.

Each test plays a game6-10 offline (the store, the referee, the GM's commands; no forum) up to
the situation the issue describes, and checks what the outbox holds: what is pending says one
thing per seat, and what a later event made moot is superseded (never sent) with the event."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon import gm_commands
from shenshi.daemon.status import build_status
from shenshi.rulesets.base import BallotCast, Phase
from shenshi.store import codec
from shenshi.store.outbox import PENDING, AnnouncementState
from tests.daemon.helpers import (
    GAME6_10,
    START,
    UIDS,
    alerts,
    announcement,
    announcements,
    config,
    pm,
    post,
    publish_vote_opening,
)

S = AnnouncementState
NEWCOMER, NEWCOMER_UID = "路人甲", "77"


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A game6-10 in review mode whose night 1 is over and published, day 1 open, with
    kk_大侠 and 白色的猫 proposed as automatic exits for a missed sign-in."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    return day_one(config(tmp_path, mode="review"), [n for n, _ in GAME6_10 if n not in ("kk_大侠", "白色的猫")])


def night_one(cfg, signing_in):
    """The game of ``cfg`` (offline, on a manual clock) in night 1, ``signing_in`` signed in
    at hour 1: ``(service, clock)``."""
    clock = ManualClock(START)
    svc = bootstrap(cfg, clock=clock, forum=False)
    svc.start()
    for name in signing_in:
        feed(svc, post(name, "签到", 1))
    return svc, clock


def to_day_one(svc, clock) -> None:
    """Night 1 over (at its deadline) and its result published: day 1 opens."""
    clock.set(START + timedelta(hours=25))
    svc.tick()
    publish(svc, "night_result", clock)
    clock.advance(hours=1)
    svc.tick()
    assert svc.referee.state.phase is Phase.DAY


def day_one(cfg, signing_in):
    """The game of ``cfg`` whose night 1 is over and published, day 1 open; ``signing_in``
    signed in at hour 1: ``(service, clock)``."""
    svc, clock = night_one(cfg, signing_in)
    to_day_one(svc, clock)
    return svc, clock


def feed(svc, record) -> None:
    with svc.store.transaction() as uow:
        uow.evidence.record(svc.game_id, [(record, None)])
    svc.process()


def publish(svc, kind: str, clock) -> None:
    [a] = [a for a in announcements(svc, PENDING) if a.kind == kind]
    with svc.store.transaction() as uow:
        uow.outbox.mark_published(a.id, clock())


def pending(svc, kind: str | None = None):
    return [a for a in announcements(svc, PENDING) if kind is None or a.kind == kind]


def about(a) -> str:
    """The player a seat's announcement is about (its key names him)."""
    return a.key.split(":")[2]


def test_a_substitute_replaces_the_pending_exit_and_gets_his_role_pm(game) -> None:
    svc, clock = game
    [signin] = [a for a in pending(svc, "signin") if about(a) == "kk_大侠"]
    assert signin.state is S.UNCONFIRMED and "待天神确认" not in signin.text
    said = gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    text = "\n".join(said.lines)
    # the pending exit is superseded by the substitution, which says who replaces whom and the
    # deadline it moved (+12 h, A-D13); the command says so too
    old = svc.followed.superseded[0][0]
    assert old.id == signin.id and old.state is S.SUPERSEDED and "接替" in old.superseded_because
    [notice] = pending(svc, "substitution")
    assert old.superseded_by == notice.id
    assert notice.text.startswith(f"kk_大侠 退出，由替补 {NEWCOMER} 接替。")
    assert "本阶段因替补延长12小时：投票截止改为" in notice.text
    assert f"#{signin.id}（未签到）已被 #{notice.id} 取代" in text and "投票截止改为" in text
    # the substitute's role PM: his role, whose seat, what of it stands, the new deadline
    [role] = pending(svc, "role")
    assert role.destination == NEWCOMER and "庶民" in role.text and "接替 kk_大侠 的座位" in role.text
    assert "这个座位本轮还没有投票" in role.text and "投票截止改为" in role.text
    assert f"#{notice.id}" in text and f"#{role.id}" in text
    # one story per seat: nothing pending says kk_大侠 exits
    assert not [a for a in pending(svc) if a.kind in ("signin", "lurk", "exit") and about(a) == "kk_大侠"]
    # the status knows the substitute and the moved deadline
    status = build_status(svc)
    [sub] = status.substitutes
    assert (sub.old, sub.new, sub.entering) == ("kk_大侠", NEWCOMER, True) and "投票截止改为" in sub.moved
    assert status.vote is not None and status.vote.played_by == {"kk_大侠": NEWCOMER}
    [moot] = status.superseded  # for the console: what replaced it, and why
    assert (moot.id, moot.by, moot.what) == (signin.id, notice.id, "未签到") and "接替" in moot.because


def test_the_substitute_votes_for_his_seat_and_has_his_own_clocks(game) -> None:
    svc, clock = game
    before = {a.id for a in alerts(svc)}  # (kk_大侠's missed sign-in among them)
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)  # ballots count from the vote's opening post (F37)
    feed(svc, post(NEWCOMER, "投票：老王", 38.1))
    assert not [a for a in alerts(svc) if a.kind == "not_a_player"]
    [ballot] = [b for b in svc.referee.state.ballots if b.voter == "kk_大侠"]
    assert ballot.target == "老王"  # the seat's ballot, cast by its substitute
    # the replaced player can no longer act for the seat he left
    feed(svc, post("kk_大侠", "投票：Rex", 38.2))
    assert [b.target for b in svc.referee.state.ballots if b.voter == "kk_大侠"] == ["老王"]
    assert [a for a in alerts(svc) if a.kind == "left_seat" and a.subject == "kk_大侠"]
    # the day ends (+12 h): no "未投票…自动退出" for the seat, no sign-in or lurking for either
    for name, _ in GAME6_10:
        if name not in ("kk_大侠", "白色的猫"):
            feed(svc, post(name, "投票：老王", 38.3))
    clock.set(START + timedelta(hours=25 + 1 + 36 + 12 + 1))
    svc.tick()
    assert svc.referee.state.has_player(NEWCOMER) and not svc.referee.state.has_player("kk_大侠")
    kinds = {(a.kind, a.subject) for a in alerts(svc) if a.id not in before}
    assert not {k for k in kinds if k[1] in ("kk_大侠", NEWCOMER) and k[0] in ("signin", "lurk", "rule:no_vote")}
    assert not [a for a in announcements(svc) if a.kind in ("signin", "lurk") and about(a) == NEWCOMER]


def test_a_substitutes_lurking_clock_starts_when_he_enters(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    for name, _ in GAME6_10:
        feed(svc, post(name, "签到", 1))
    clock.set(START + timedelta(hours=25))
    svc.tick()
    assert svc.referee.state.phase is Phase.DAWN  # between steps: he takes the seat at once
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    assert svc.referee.state.has_player(NEWCOMER)
    clock.set(START + timedelta(hours=49))  # 48 h after the player list, 24 h after he entered
    svc.tick()
    lurkers = {about(a) for a in announcements(svc) if a.kind == "lurk"}
    assert NEWCOMER not in lurkers and "Tom_2" in lurkers  # the others posted last at hour 1
    assert not [a for a in announcements(svc) if a.kind == "signin" and about(a) == NEWCOMER]
    clock.set(START + timedelta(hours=25 + 48, minutes=1))
    svc.tick()
    [lurk] = [a for a in announcements(svc) if a.kind == "lurk" and about(a) == NEWCOMER]
    assert lurk.state is S.UNCONFIRMED and lurk.key.endswith(":202612022100")  # since he entered (hour 25)


def test_a_lurking_proposal_is_withdrawn_once_the_player_posts(game) -> None:
    """newcomer3 N23: a lurker who posts again is no longer proposed to exit; the pending
    proposal is withdrawn (never sent), saying why, though no game event happened."""
    svc, clock = game
    clock.set(START + timedelta(hours=49.5))  # 48 h after the sign-ins at hour 1
    svc.tick()
    [lurk] = [a for a in pending(svc, "lurk") if about(a) == "Tom_2"]
    feed(svc, post("Tom_2", "我还在，昨晚在加班，今天补分析。", 49.6))
    clock.set(START + timedelta(hours=49.7))
    svc.tick()
    assert not [a for a in pending(svc, "lurk") if about(a) == "Tom_2"]
    [gone] = [a for a in announcements(svc) if a.id == lurk.id]
    assert gone.state is S.SUPERSEDED and gone.superseded_because == "玩家已重新发帖，不再潜水"
    assert [a for a in pending(svc, "lurk") if about(a) == "Rex"]  # who did not post stays


def test_override_exit_replaces_the_pending_exit_proposal(game) -> None:
    svc, clock = game
    [signin] = [a for a in pending(svc, "signin") if about(a) == "白色的猫"]
    said = gm_commands.correct(svc, "exit", ["白色的猫"])
    text = "\n".join((*said.lines, *said.cli))  # what the command line prints
    [exit_] = [a for a in pending(svc, "exit")]
    assert exit_.text.startswith(signin.text)  # the notice the GM confirmed, with its reason (F15)
    with svc.store.snapshot() as uow:
        old = uow.outbox.get(signin.id)
    assert old.state is S.SUPERSEDED and old.superseded_by == exit_.id
    assert not [a for a in pending(svc) if a.kind == "signin" and about(a) == "白色的猫"]
    # review mode: the way to send it is to approve it, not to post it by hand
    assert "演练模式" not in text and f"shenshi approve {exit_.id}" in text
    assert f"#{signin.id}（未签到）已被 #{exit_.id} 取代" in text


def test_approve_asks_for_the_confirmation_and_skips_what_was_superseded(game) -> None:
    svc, clock = game
    [kk] = [a for a in pending(svc, "signin") if about(a) == "kk_大侠"]
    [cat] = [a for a in pending(svc, "signin") if about(a) == "白色的猫"]
    said = gm_commands.outbox_action(svc, "approve", [kk.id, cat.id])
    assert all("要你先确认" in line and "shenshi override exit" in line for line in said.refused)
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    ids = [a.id for a in announcements(svc)]
    said = gm_commands.outbox_action(svc, "approve", ids)
    assert any(line.startswith(f"#{kk.id}（未签到）已被 #") and "不会发送" in line for line in said.lines)
    assert not [line for line in said.refused if f"#{kk.id}" in line]
    with svc.store.snapshot() as uow:
        assert uow.outbox.get(kk.id).state is S.SUPERSEDED  # never approved, never sent


def test_two_substitutions_leave_one_deadline(game) -> None:
    svc, clock = game
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    [first] = pending(svc, "substitution")
    gm_commands.substitute(svc, "Rex", "路人乙", uid="78")
    notices = pending(svc, "substitution")
    assert len(notices) == 2 and first.id not in {a.id for a in notices}
    deadlines = {a.text.split("投票截止改为 ")[1].split("。")[0] for a in notices}
    assert len(deadlines) == 1  # both say the deadline as it is now (+24 h)
    roles = pending(svc, "role")
    assert {a.destination for a in roles} == {NEWCOMER, "路人乙"}
    assert all(deadlines.pop() in a.text for a in roles[:1])


def test_a_ballot_the_gm_recorded_is_marked_and_the_evidence_lists_what_counted(game) -> None:
    svc, clock = game
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)  # ballots count from the vote's opening post (F37)
    feed(svc, pm("Tom_2", "委托投票：老王", 38.05))  # his seat exits before the close
    gm_commands.correct(svc, "exit", ["Tom_2"])
    gm_commands.mark_published(svc, [announcement(svc, svc.referee.keys.exit("Tom_2")).id])  # (out once announced)
    feed(svc, post("Lily99", "我觉得老王很可疑，就投他吧？", 38.1))  # not read: the GM records it
    gm_commands.correct(svc, "ballot", ["Lily99", "老王"])
    vote = build_status(svc).vote
    recorded = [b for c in vote.tally for b in c.voters if b.voter == "Lily99"]
    assert recorded and recorded[0].via == "gm"
    voters = [n for n in svc.referee.state.alive() if n.name not in ("Lily99",)]
    for seat in voters:
        feed(svc, post(seat.name, "投票：老王" if seat.name != "老王" else "投票：Rex", 38.2))
    clock.set(START + timedelta(hours=60))
    svc.tick()
    [result] = [a for a in announcements(svc) if a.kind == "day_result"]
    assert "计入（按天神的记录，不按帖子）：Lily99 投 老王（天神补记）" in _notes(result)
    uncounted = result.notes["uncounted"]
    assert uncounted == [{"id": uncounted[0]["id"], "words": "Tom_2 委托投 老王", "reason": "投票人已出局"}]
    with svc.store.snapshot() as uow:
        counted = [codec.decode(e.payload) for e in uow.events.of_evidence(svc.game_id, result.evidence_ids)]
    assert all(isinstance(e, BallotCast) and e.ballot.voter != "Tom_2" for e in counted)
    assert "天神" not in result.text and "不计" not in result.text  # for the GM only


def test_a_delegated_ballot_that_counted_is_evidence_not_under_uncounted(game) -> None:
    """newcomer N16: Rex's delegation, the deciding ballot, was listed under 不计 with the
    reason 「委托投票：已计入」 and left out of the evidence."""
    svc, clock = game
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)
    feed(svc, pm("Rex", "委托投票：老王", 38.05))  # he does not post: the GM casts it at the close
    for seat in svc.referee.state.alive():
        if seat.name != "Rex":
            feed(svc, post(seat.name, "投票：老王" if seat.name != "老王" else "投票：Rex", 38.2))
    clock.set(START + timedelta(hours=60))
    svc.tick()
    [result] = [a for a in announcements(svc) if a.kind == "day_result"]
    assert "uncounted" not in (result.notes or {})
    with svc.store.snapshot() as uow:
        counted = [codec.decode(e.payload) for e in uow.events.of_evidence(svc.game_id, result.evidence_ids)]
    assert any(isinstance(e, BallotCast) and e.ballot.voter == "Rex" for e in counted)


def _notes(a) -> list[str]:
    from shenshi.daemon.gm_text import gm_notes

    return gm_notes(a)


def test_the_penalty_divination_is_answered_with_one_pm(game) -> None:
    svc, clock = game
    gm_commands.correct(svc, "extra-divination", ["Tom_2"])
    feed(svc, pm("Tom_2", "占卜 老王", 27))
    to_him = [a for a in announcements(svc) if a.destination == "Tom_2"]
    assert [a.kind for a in to_him] == ["extra_divination"]


def test_a_substitute_at_night_gets_the_seats_actions_and_its_answer(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path, mode="live"), clock=clock, forum=False)
    svc.start()
    clock.set(START + timedelta(hours=1))
    svc.tick()
    feed(svc, pm("小明", "占卜 老王", 1.5))
    gm_commands.substitute(svc, "小明", NEWCOMER, uid=NEWCOMER_UID)
    [role] = pending(svc, "role")
    assert "占卜者" in role.text and "这个座位今晚现在有效的行动：占卜 老王" in role.text
    feed(svc, pm(NEWCOMER, "占卜 夜行者", 2))  # his own counts for the seat (the latest)
    assert [(s.actor, s.target) for s in svc.referee.state.submissions] == [("小明", "老王"), ("小明", "夜行者")]
    clock.set(START + timedelta(hours=36, minutes=1))
    svc.tick()
    answers = [a for a in announcements(svc) if a.kind == "divination"]
    standing = [a for a in answers if a.state in PENDING]
    assert [a.destination for a in standing] == [NEWCOMER] and "夜行者" in standing[0].text
    assert all(a.state is S.SUPERSEDED for a in answers if a.destination == "小明")


def test_a_substitution_whose_seat_dies_first_is_withdrawn(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    clock.set(START + timedelta(hours=1))
    svc.tick()
    decl = "杀人宣言：" + "夜" * 120
    feed(svc, pm("夜行者", f"杀 Rex\n{decl}", 1.2))
    feed(svc, pm("老王", "杀 Rex", 1.3))
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    [notice] = pending(svc, "substitution")
    clock.set(START + timedelta(hours=36, minutes=1))
    svc.tick()
    assert not svc.referee.state.is_alive("Rex") and not svc.referee.state.has_player(NEWCOMER)
    with svc.store.snapshot() as uow:
        withdrawn = uow.outbox.get(notice.id)
    assert withdrawn.state is S.SUPERSEDED and withdrawn.superseded_by is None
    assert not pending(svc, "substitution") and not [a for a in pending(svc, "role") if a.destination == NEWCOMER]
    # the players table agrees (adversary3 A6: replay found 「Rex：事件里出局，玩家表里存活」)
    assert svc.replay_differences() == []
    with svc.store.snapshot() as uow:
        seated = {p.name: p.alive for p in uow.games.players(svc.game_id)}
    assert seated.get("Rex") is False and NEWCOMER not in seated


def test_a_seat_takes_one_substitute_and_his_name_means_the_seat(game) -> None:
    """A second substitute for a seat whose substitute is entering is refused in Chinese, and
    the refusal leaves nothing behind (the game as before); the GM may name the seat by its
    entering substitute in every correction."""
    from shenshi.errors import UserError

    svc, clock = game
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    before = dict(svc.referee.successors)
    with pytest.raises(UserError, match="一个座位只能换一次人"):
        gm_commands.substitute(svc, NEWCOMER, "路人乙", uid="78")
    assert svc.referee.successors == before and len(pending(svc, "substitution")) == 1
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)  # ballots count from the vote's opening post (F37)
    said = gm_commands.correct(svc, "ballot", [NEWCOMER, "老王"])
    assert [b.target for b in svc.referee.state.ballots if b.voter == "kk_大侠"] == ["老王"]
    assert f"{NEWCOMER}（接替 kk_大侠） 的选票改记为 老王" in said.lines[0]  # (gmattack A11)
    # he quits before entering: the seat exits; what said he would enter is withdrawn
    gm_commands.correct(svc, "exit", [NEWCOMER])
    assert not svc.referee.state.is_alive("kk_大侠")
    assert not pending(svc, "substitution") and not [a for a in pending(svc, "role") if a.destination == NEWCOMER]


def test_a_pending_role_pm_tells_the_runoffs_close_once_the_runoff_is_announced(game) -> None:
    """A substitute's role PM still waiting for the GM says what the seat must do now: when
    round 1 ties, the runoff's close is known only once its announcement is published (it opens
    with it), and the pending PM is derived again then (no event happens at that moment)."""
    svc, clock = game
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)
    gm_commands.substitute(svc, "kk_大侠", NEWCOMER, uid=NEWCOMER_UID)
    votes = {"夜行者": "Rex", "老王": "Rex", "小明": "Rex", "月光": "Rex", "白色的猫": "Rex",
             "阿杰": "老王", "Lily99": "老王", "Tom_2": "老王", "Rex": "老王", NEWCOMER: "老王"}  # fmt: skip
    for i, (name, target) in enumerate(votes.items()):
        feed(svc, post(name, f"投票：{target}", 38.1 + i / 100))
    clock.set(START + timedelta(hours=38 + 24 + 1))  # past the close, +12 h for the substitution
    svc.tick()
    assert svc.referee.state.round == 2, "a 5:5 tie goes to the runoff"
    [role] = pending(svc, "role")
    assert "截止" not in role.text.split("接替 kk_大侠 的座位")[1]  # its close is not known yet
    [result] = [a for a in pending(svc) if a.destination_kind.value == "thread" and "生死投票" in a.text]
    with svc.store.transaction() as uow:
        uow.outbox.mark_published(result.id, clock())
    clock.advance(minutes=5)
    svc.tick()
    [role] = pending(svc, "role")
    assert "这个座位本轮还没有投票" in role.text and "截止" in role.text
    [*_, before] = [a for a in announcements(svc) if a.kind == "role" and a.state is S.SUPERSEDED]
    assert before.superseded_by == role.id and "公告发布了" in before.superseded_because


def test_a_seat_gets_one_exit_proposal_for_its_first_cause(game) -> None:
    """newcomer3 N24: kk_大侠 missed the sign-in and then lurked 48 h: one exit proposal (the
    missed sign-in), not a second one for lurking beside it."""
    svc, clock = game
    clock.set(START + timedelta(hours=49.5))
    svc.tick()
    told = [a.kind for a in pending(svc) if a.kind in ("signin", "lurk") and about(a) == "kk_大侠"]
    assert told == ["signin"], told
    assert [a for a in pending(svc, "lurk") if about(a) == "Tom_2"]  # lurking alone is proposed


def test_a_ballot_written_before_the_substitution_counts_for_the_seat_however_late_it_is_read(game) -> None:
    """adversary3 A4: the GM substitutes a player seconds after his ballot was posted, before the
    daemon read it: the ballot is the seat's (RULES.md "The substitute's own clocks": one the
    replaced player already cast stands) and the substitute is told the seat has voted; what he
    writes after the substitution no longer counts."""
    svc, clock = game
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)
    clock.set(START + timedelta(hours=38, seconds=30))
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    feed(svc, post("Rex", "投票：老王", 38 + 24 / 3600))  # written 6 s before, read after
    assert [b.target for b in svc.referee.state.ballots if b.voter == "Rex"] == ["老王"]
    assert not [a for a in alerts(svc) if a.kind == "left_seat"]
    [role] = pending(svc, "role")
    assert "这个座位本轮已投票（老王）" in role.text, role.text
    feed(svc, post("Rex", "投票：月光", 38 + 60 / 3600))  # after it: the substitute plays the seat
    assert [a for a in alerts(svc) if a.kind == "left_seat"]
    svc.close()
    again = bootstrap(svc.config, clock=clock, forum=False)  # a restart knows when he left
    again.start()
    assert again.referee.left_at["Rex"] == START + timedelta(hours=38, seconds=30)
    again.close()


def runoff_of_rex_and_laowang(svc, clock) -> None:
    """Day 1's first round tied 5–5 between Rex and 老王, the runoff's post published."""
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)
    votes = {"夜行者": "Rex", "老王": "Rex", "小明": "Rex", "月光": "Rex", "白色的猫": "Rex",
             "阿杰": "老王", "Lily99": "老王", "Tom_2": "老王", "Rex": "老王", "kk_大侠": "老王"}  # fmt: skip
    for i, (name, target) in enumerate(votes.items()):
        feed(svc, post(name, f"投票：{target}", 38.1 + i / 100))
    clock.set(START + timedelta(hours=38 + 12 + 1))
    svc.tick()
    assert svc.referee.state.round == 2
    [result] = [a for a in pending(svc) if a.destination_kind.value == "thread" and "生死投票" in a.text]
    with svc.store.transaction() as uow:
        uow.outbox.mark_published(result.id, clock())
    clock.advance(minutes=5)
    svc.tick()


def test_a_runoff_ballot_naming_a_candidates_substitute_is_a_ballot_for_the_seat(game) -> None:
    """adversary3 A3: after 「Rex 退出，由替补 路人甲 接替」 during the runoff, 「投票：路人甲」 is a
    ballot for the candidate seat (RES-A18: the substitute inherits the seat), not a ballot for
    a non-candidate thrown away."""
    svc, clock = game
    runoff_of_rex_and_laowang(svc, clock)
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    feed(svc, post("Lily99", f"投票：{NEWCOMER}", 51.2))
    assert not [a for a in alerts(svc) if a.kind == "not_a_candidate"]
    assert [b.target for b in svc.referee.state.ballots if b.voter == "Lily99" and b.round == 2] == ["Rex"]


def test_a_seat_executed_as_its_substitute_enters_agrees_with_the_players_table(game) -> None:
    """adversary3 A6: a seat substituted during the day and executed at its end: replay and
    the players table agree on who holds it and that he is out."""
    svc, clock = game
    clock.set(START + timedelta(hours=38))
    svc.tick()
    publish_vote_opening(svc)
    gm_commands.substitute(svc, "老王", NEWCOMER, uid=NEWCOMER_UID)
    for i, (name, _) in enumerate(GAME6_10):
        if name not in ("老王", "白色的猫", "kk_大侠"):
            feed(svc, post(name, "投票：老王", 38.1 + i / 100))
    feed(svc, post(NEWCOMER, "投票：Rex", 38.2))
    clock.set(START + timedelta(hours=38 + 24 + 12 + 1))  # (+12 h for the substitution)
    svc.tick()
    result = [a for a in pending(svc) if a.kind == "day_result"]
    if result:
        with svc.store.transaction() as uow:
            uow.outbox.mark_published(result[0].id, clock())
    clock.advance(minutes=5)
    svc.tick()
    assert [s.alive for s in svc.referee.state.seats if s.number == 1] == [False], svc.referee.state.seats[1]
    assert svc.replay_differences() == []


def test_status_asks_no_substitute_to_sign_in(tmp_path, monkeypatch) -> None:
    """adversary3 A12: right after `substitute` during the sign-in window, status listed the
    substitute under 未签到 (he never signs in; the daemon proposes no exit for him)."""
    monkeypatch.setitem(UIDS, NEWCOMER, NEWCOMER_UID)
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path), clock=clock, forum=False)
    svc.start()
    for name, _ in GAME6_10:
        if name != "Rex":
            feed(svc, post(name, "签到", 1))
    clock.set(START + timedelta(hours=2))
    svc.tick()
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    sign_in = build_status(svc).sign_in
    assert sign_in is not None and NEWCOMER not in sign_in.missing and "Rex" not in sign_in.missing, sign_in


@pytest.mark.parametrize("written", [f"{NEWCOMER}（接替 Rex）", f"{NEWCOMER}(接替Rex)", "Rex", NEWCOMER])
def test_a_runoff_ballot_naming_the_candidate_as_the_post_shows_it_counts(game, written) -> None:
    """recheck2 A11: the runoff's post names a candidate seat as the players read it,
    「路人甲（接替 Rex）」; a ballot copying that name from the post is a ballot for the seat."""
    svc, clock = game
    runoff_of_rex_and_laowang(svc, clock)
    gm_commands.substitute(svc, "Rex", NEWCOMER, uid=NEWCOMER_UID)
    feed(svc, post("Lily99", f"投票：{written}", 51.2))
    assert not [(a.kind, a.message) for a in alerts(svc) if a.subject == "Lily99"]
    assert [b.target for b in svc.referee.state.ballots if b.voter == "Lily99" and b.round == 2] == ["Rex"]
