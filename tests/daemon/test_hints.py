"""Hints are data (issue 20): a next step is a command with its arguments, rendered as text by
the command line and as a form by the console; an alert knows what resolves it and closes
itself when that happens, staying viewable."""

from __future__ import annotations

import json

from shenshi.daemon.hints import Blank, Cause, Hint, delivered
from shenshi.daemon.status import build_status, to_json
from tests.daemon.helpers import alerts, at, pm, started
from tests.daemon.test_status import feed


def night_one(tmp_path, mode: str = "review"):
    return started(tmp_path, mode=mode)


def test_a_hint_is_a_command_with_arguments_and_blanks() -> None:
    hint = Hint("override", ("ballot", "老王", Blank("对象", ("kk_大侠", "Rex"), ("kk_大侠",))))
    assert hint.text() == "shenshi override ballot 老王 kk_大侠（对象填了 kk_大侠，确认无误再运行）"
    assert hint.fill("Rex").argv() == ("override", "ballot", "老王", "Rex")
    data = hint.to_json()
    assert data["args"][2] == {"blank": "对象", "choices": ["kk_大侠", "Rex"], "suggested": ["kk_大侠"]}
    assert Hint("approve", ids=(3, 4, 5, 9), late=True).text() == "shenshi approve 3-5 9 --late"
    assert Hint("approve", ids=(3, 9), late=True).argv() == ("approve", "3", "9", "--late")
    assert Hint("pm", ("老王",)).by_hand and Hint("pm", ("老王",)).text() == "私信回复 老王"


def test_a_cause_is_stored_as_json_and_knows_what_resolves_it() -> None:
    cause = Cause.of_action("night1", "月光", "kill", target="夜行着", channel="pm", suggestions=("夜行者",))
    assert Cause.from_json(json.loads(json.dumps(cause.to_json()))) == cause
    assert cause.resolved_by(Cause.of_action("night1", "月光", "kill"))
    assert not cause.resolved_by(Cause.of_action("night2", "月光", "kill"))  # another night
    assert not cause.resolved_by(Cause.of_action("night1", "小明", "kill"))
    assert not cause.resolved_by(Cause.ballot("night1", "月光"))
    assert Cause.sent(4).resolved_by(delivered(4)[0]) and not Cause.sent(4).resolved_by(Cause.sent(5))


def test_a_misspelt_kill_pm_points_to_override_action_and_a_new_pm_closes_it(tmp_path) -> None:
    svc, clock = night_one(tmp_path)
    feed(svc, pm("夜行者", "杀 夜行着", 0.05))
    [view] = build_status(svc).alerts
    assert [h.args[:2] for h in view.advice.hints] == [("action", "夜行者")]
    assert "override ballot" not in view.hint and "投票" not in view.hint
    data = to_json(build_status(svc))["alerts"][0]["advice"]["hints"][0]
    assert data["command"] == "override" and data["args"][2] == "杀" and data["args"][3] == "夜行者"  # the close name
    feed(svc, pm("夜行者", "杀 Rex\n杀人宣言：" + "夜" * 120, 0.2))  # he writes again, plainly
    [closed] = alerts(svc)
    assert closed.resolved_at is not None and closed.resolution == "夜行者 杀 Rex"
    [view] = build_status(svc).alerts
    assert view.resolution == "夜行者 杀 Rex" and view.advice.hints == ()
    log = [json.loads(line) for line in (tmp_path / "dry.jsonl").read_text(encoding="utf-8").splitlines()]
    [raised] = [e for e in log if e["alert"]]
    assert raised["hints"][0]["command"] == "override"
    assert any(e["state"] == "resolved" and e["id"] == str(closed.id) for e in log)


def test_a_failed_send_closes_when_it_is_delivered_published_or_dropped(tmp_path) -> None:
    """The trust issue's ``send_failed``: an alert whose cause is a send closes itself when the
    announcement reaches the forum (the daemon's send, the GM's own post) or is rejected."""
    from shenshi.daemon.announce import Draft
    from shenshi.daemon.gm_commands import mark_published, outbox_action
    from shenshi.daemon.referee import Effects, GmAlert
    from tests.daemon.helpers import announcements

    svc, clock = night_one(tmp_path)
    svc._commit(Effects(drafts=[Draft(f"k{i}", "receipt", "pm", "小明", f"已收到 {i}") for i in range(3)]), "t", None)
    ids = [a.id for a in announcements(svc) if a.key.startswith("k")]
    svc.raise_alerts([GmAlert(svc.referee.keys.send_failed(i), "send_failed", "论坛拒绝") for i in ids])
    [first, second, third] = alerts(svc)
    assert [h.command for h in build_status(svc).alerts[0].advice.hints] == ["edit", "reject"]
    svc._published_by_sending("k0")  # the publisher got it out
    mark_published(svc, [ids[1]])
    outbox_action(svc, "reject", [ids[2]])
    assert [a.resolution for a in alerts(svc)] == [f"#{ids[0]} 已发出", f"#{ids[1]} 已记为发布", f"#{ids[2]} 已放弃"]


def test_a_stale_post_refused_by_approve_carries_its_two_ways_out_as_hints(tmp_path) -> None:
    """A post of an earlier step never published: ``approve`` refuses it, and its answer holds
    the hints (drop it, or send it late on purpose) as data, the console's buttons."""
    from shenshi.daemon.gm_commands import mark_published, outbox_action, run_hint
    from tests.daemon.helpers import announcement

    svc, clock = night_one(tmp_path)
    clock.set(at(24.5))
    svc.tick()  # night 1's result
    stale = announcement(svc, svc.referee.gate_key())
    mark_published(svc, [stale.id])
    clock.set(at(37))
    svc.tick()
    assert svc.referee.state.phase.value == "day"
    from shenshi.daemon.announce import Draft
    from shenshi.daemon.referee import Effects

    svc._commit(Effects(drafts=[Draft("g1:night1:vote_note", "notice", "thread", "2", "第1夜的旧帖")]), "t", None)
    old = announcement(svc, "g1:night1:vote_note")
    said = outbox_action(svc, "approve", [old.id])
    assert said.refused and [(h.command, h.late) for h in said.hints] == [("reject", False), ("approve", True)]
    assert not run_hint(svc, said.hints[1]).refused  # sent late, on purpose
