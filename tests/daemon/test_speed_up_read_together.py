"""wolfadv W7 W13 W20: a werewolf day all had agreed to speed up closed at the moment of the
ballot that decided it, so the ballots posted after it (seconds to hours later, before anyone
could see the close, and read by the same poll) were refused as 「本轮投票已经截止」 and their
authors flagged 未投票. A step complete after one item of a read ends on the clock's own tick,
after every item read with it."""

from __future__ import annotations

from shenshi.demo.script import load_script
from shenshi.rulesets.base import Phase, Submit, frozen_map
from tests.daemon.helpers import alerts, announcements, at, post, started
from tests.daemon.test_stream import _fed


def test_ballots_read_with_the_one_that_decided_a_speed_up_all_count(tmp_path) -> None:
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    clock.set(at(10.6))  # day 1: the sheriff's election
    svc.tick()
    living = [s.name for s in svc.referee.state.alive()]
    for name in living:  # (each replied 同意第1天加速 in his 功能树洞)
        svc.gm(Submit(name, "speed_up", None, frozen_map({"day": 1}), at(10.7)))
    choice = living[0]
    clock.set(at(13))  # one poll reads every ballot, written a minute apart
    _fed(svc, *[post(n, f"投票：{choice}", 11 + i / 60) for i, n in enumerate(living)])
    assert svc.referee.state.phase is Phase.DAY  # nothing ended between two items of the read
    svc.tick()
    assert svc.referee.state.phase is not Phase.DAY  # 加速: the election is decided, the day ends
    late = [a for a in announcements(svc) if a.kind == "vote_closed"]
    assert not late, [(a.destination, a.text) for a in late]
    assert not [a for a in alerts(svc) if a.kind in ("no_vote_open", "rule:no_vote")]
    [result] = [a for a in announcements(svc) if a.kind == "day_result"]
    record = [line for line in result.text.splitlines() if line.endswith(f"→ {choice}")]
    assert len(record) >= 10 and f"{choice}：{len(record)} 票" in result.text, result.text


def test_a_speed_up_close_flags_nobody_for_a_missing_ballot(tmp_path) -> None:
    """recheck: the day all agreed to end 36 hours early flagged the two who had not voted yet
    as 「未投票，请天神留意」, with a next step 「警告私信已提出」 naming a PM that did not exist."""
    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    clock.set(at(10.6))
    svc.tick()
    living = [s.name for s in svc.referee.state.alive()]
    for name in living:
        svc.gm(Submit(name, "speed_up", None, frozen_map({"day": 1}), at(10.7)))
    _fed(svc, *[post(n, f"投票：{living[0]}", 11 + i / 60) for i, n in enumerate(living[:-2])])
    clock.set(at(13))
    svc.tick()
    assert svc.referee.state.phase is not Phase.DAY
    assert not [a for a in alerts(svc) if "missing_ballot" in a.kind or a.message.startswith(f"{living[-1]}：未投票")]


def test_a_missing_ballot_at_the_deadline_is_the_gms_to_judge_no_exit_no_pm(tmp_path) -> None:
    from shenshi.daemon.status import build_status

    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    clock.set(at(10.6))
    svc.tick()
    living = [s.name for s in svc.referee.state.alive()]
    _fed(svc, *[post(n, f"投票：{living[0]}", 11 + i / 60) for i, n in enumerate(living[:-1])])
    clock.set(at(49.1))  # the deadline
    svc.tick()
    [view] = [v for v in build_status(svc).alerts if v.subject == living[-1]]
    assert "没有自动退出" in view.advice.note and "警告私信" not in view.advice.note, view.advice.note
