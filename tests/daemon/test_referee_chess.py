"""chess32 through the referee (issue 16): night victims' last words are recorded once and later
posts by the dead are flagged (C-D9); a lurking player is warned, and told of his replacement
at the second warning."""

from __future__ import annotations

from shenshi.daemon.hints import AlertFacts, Situation, advise
from shenshi.daemon.referee import Clockwork, Effects, PostCounts, Referee
from shenshi.rulesets.base import LastWordsRecorded, Phase
from tests.daemon.helpers import at, chess_referee, pm, post

POST = "深夜，项羽潜入了韩信的营帐，" + "刀光一闪，营帐里再无声息，" * 12


def everyone_abstains(ref: Referee, hours: float) -> None:
    for i, seat in enumerate(ref.state.alive()):
        assert ref.read_post(post(seat.name, "弃权", hours + i / 100), f"v{hours}-{i}").events


def counts(ref: Referee, quiet: str) -> dict[str, int]:
    return {s.name: 0 if s.name == quiet else 10 for s in ref.state.alive()}


def close_day(ref: Referee, window: tuple, quiet: str) -> Effects:
    out = ref.tick(window[1], Clockwork(activity=PostCounts(window, counts(ref, quiet))))
    assert ref.state.phase is Phase.DUSK
    return out


def night_one(ref: Referee) -> Effects:
    """Day 1 (everyone abstains, 小明 silent), night 1 (项羽 kills 韩信), the dawn post."""
    ref.tick(at(0), Clockwork())
    everyone_abstains(ref, 1)
    close_day(ref, (at(0), at(24)), "小明")
    ref.tick(at(25), Clockwork({"g1:day1:public": at(25)}))
    assert ref.read_pm(pm("项羽", f"杀 韩信\n杀人帖：\n{POST}", 26), "k").events
    return ref.tick(at(49), Clockwork())


def test_the_dawn_post_names_who_may_leave_last_words(tmp_path) -> None:
    ref = chess_referee(tmp_path)
    out = night_one(ref)
    public = next(d for d in out.drafts if d.key == "g1:night1:public")
    assert "韩信 死亡" in public.text and "韩信 可以留遗言（一帖或一个回复，仅一次）" in public.text


def test_a_night_victims_last_words_are_recorded_once_then_posts_are_flagged(tmp_path) -> None:
    ref = chess_referee(tmp_path)
    night_one(ref)
    ref.tick(at(50), Clockwork({"g1:night1:public": at(50)}))
    assert ref.state.phase is Phase.DAY
    words = ref.read_post(post("韩信", "遗言：我是汉方的车，大家小心萧何。", 51), "lw")
    assert [type(e) for e in words.events] == [LastWordsRecorded] and not words.alerts
    again = ref.read_post(post("韩信", "我再说一句：萧何很可疑。", 52), "lw2")
    assert not again.events and [a.kind for a in again.alerts] == ["dead_post"]  # C-D9


def test_a_player_who_never_had_last_words_is_flagged_when_dead(tmp_path) -> None:
    ref = chess_referee(tmp_path)
    night_one(ref)
    ref.tick(at(50), Clockwork({"g1:night1:public": at(50)}))
    words = ref.read_post(post("韩信", "遗言：再见。", 51), "lw")
    assert words.events
    ref.tick(at(73), Clockwork(activity=PostCounts((at(25), at(73)), counts(ref, "小明"))))
    ref.tick(at(74), Clockwork({"g1:day2:public": at(74)}))
    assert ref.state.phase is Phase.NIGHT and ref.state.number == 2
    late = ref.read_post(post("韩信", "遗言补充：其实我也怀疑刘邦。", 75), "lw3")
    assert not late.events and [a.kind for a in late.alerts] == ["dead_post"]


def test_a_lurker_is_warned_and_told_of_his_replacement_at_the_second_warning(tmp_path) -> None:
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    everyone_abstains(ref, 1)
    out = close_day(ref, (at(0), at(24)), "小明")
    (warning,) = [d for d in out.drafts if d.kind.startswith("lurk_")]
    assert (warning.kind, warning.channel, warning.destination) == ("lurk_warning", "pm", "小明")
    assert "第1天" in warning.text and "累计 1 次" in warning.text
    ref.tick(at(25), Clockwork({"g1:day1:public": at(25)}))
    ref.tick(at(49), Clockwork())
    ref.tick(at(49), Clockwork({"g1:night1:public": at(49)}))
    everyone_abstains(ref, 50)
    out = close_day(ref, (at(25), at(73)), "小明")
    (second,) = [d for d in out.drafts if d.kind.startswith("lurk_")]
    assert (second.kind, second.destination) == (
        "lurk_replaced",
        "小明",
    ) and "累计 2 次" in second.text
    # the GM replaces him (or drowns him): the alert's next steps say how
    alert = next(a for a in out.alerts if a.kind == "rule:lurking" and a.cause and a.cause.what == "seat")
    advice = advise(AlertFacts(alert.kind, alert.subject, alert.key, alert.cause), Situation("review", ref.state, ref.ruleset))
    assert any(h.command == "substitute" and h.args[0] == "小明" for h in advice.hints)
    assert any(h.argv()[:3] == ("override", "exit", "小明") for h in advice.hints)


def second_warning(tmp_path):
    """A chess32 referee whose 小明 lurked on days 1 and 2: ``(referee, effects)`` of day 2's
    close, which gives him his second warning (the replacement, C-D7)."""
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    everyone_abstains(ref, 1)
    close_day(ref, (at(0), at(24)), "小明")
    ref.tick(at(25), Clockwork({"g1:day1:public": at(25)}))
    ref.tick(at(49), Clockwork())
    ref.tick(at(49), Clockwork({"g1:night1:public": at(49)}))
    everyone_abstains(ref, 50)
    return ref, close_day(ref, (at(25), at(73)), "小明")


def test_the_replacement_pm_waits_for_the_gm_and_follows_what_he_decides(tmp_path) -> None:
    """chess32's second lurking warning tells the player he is replaced: that waits until the
    GM brings the substitute in (then it stands as it is), and a drowning instead (an exit)
    withdraws it (issue 20: proposals follow the state)."""
    from dataclasses import replace as changed

    from shenshi.daemon.superseding import Proposals
    from shenshi.rulesets.base import DeclareExit, Substitute
    from shenshi.store.outbox import AnnouncementState
    from shenshi.store.records import Announcement, DestinationKind

    ref, out = second_warning(tmp_path)
    (second,) = [d for d in out.drafts if d.kind == "lurk_replaced"]
    assert second.unconfirmed and "待天神确认" not in second.text
    stored = Announcement(1, 1, second.key, second.kind, DestinationKind.USER, "小明", None, second.text, (),
                          AnnouncementState.UNCONFIRMED, None, at(73), None, None, None, 0, None, None, None)
    assert Proposals(ref, "g").standing(stored).draft.unconfirmed  # nothing decided yet: it waits
    drowned = chess_referee(tmp_path)
    drowned.state, drowned.successors = ref.state, dict(ref.successors)
    drowned.announced = dict(ref.announced)
    drowned.apply(DeclareExit("小明"))
    withdrawn = Proposals(drowned, "g").standing(stored)
    assert withdrawn.draft is None and withdrawn.by == drowned.keys.exit("小明")
    ref.apply(Substitute("小明", "替补甲"))
    confirmed = Proposals(ref, "g").standing(stored).draft
    assert confirmed is not None and not confirmed.unconfirmed
    assert changed(confirmed, unconfirmed=True).text == second.text  # the same words, now true


def test_the_second_warnings_alert_closes_when_the_substitute_comes_in(tmp_path) -> None:
    """gmattack C1: after `substitute 小明 路人甲` the alert 「小明：潜水，须换人（第 2 次警告）」 still
    asked for it, and following it (`override exit 小明`) would now drown the substitute."""
    from shenshi.daemon.hints import resolutions
    from shenshi.rulesets.base import Substitute

    ref, out = second_warning(tmp_path)
    alert = next(a for a in out.alerts if a.kind == "rule:lurking" and a.cause and a.cause.what == "seat")
    before = ref.state
    events = ref.apply(Substitute("小明", "路人甲"))
    assert any(alert.cause.resolved_by(cause) for cause, _ in resolutions(events, before))
    seat = ref.state.seat("路人甲" if ref.state.has_player("路人甲") else "小明")
    carried = ref.ruleset.carried_over(ref.state, seat)
    assert ("substitute_warnings_fresh", {}) in carried  # RES-C33: he is told he starts with none


def test_a_void_change_of_ballot_is_told_to_the_voter(tmp_path) -> None:
    """gmattack3 F10: 「改票：刘邦，最后一小时改一下」 (C-D4: void in the round's last hour) and a
    second change were refused with no word; the voter believed he had changed his vote."""
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    voter, other, first, second, third = [s.name for s in ref.state.alive()][:5]
    assert ref.read_post(post(other, f"投票：{first}", 1), "o1").events
    assert ref.read_post(post(other, f"改票：{second}", 2), "o2").events  # the one change allowed
    again = ref.read_post(post(other, f"改票：{third}", 3), "o3")
    [told] = [d for d in again.drafts if d.kind == "vote_kept"]
    assert told.destination == other and "只能改一次" in told.text and f"仍是 {second}" in told.text, told.text
    assert ref.read_post(post(voter, f"投票：{first}", 4), "v1").events
    late = ref.read_post(post(voter, f"改票：{second}，最后一小时改一下", 23.5), "v2")
    [told] = [d for d in late.drafts if d.kind == "vote_kept"]
    assert told.destination == voter and "最后一小时" in told.text and f"仍是 {first}" in told.text, told.text
    assert [a.kind for a in late.alerts] == ["last_hour_change"]


def test_the_horses_disagreement_is_named_by_the_horses(tmp_path) -> None:
    """gmattack3 F9: the dawn alert read 「chu_horses：联合杀手意见不一…（已写进结果）」 — an
    internal id, the horses called killers, and a result post that says nothing of it."""
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    everyone_abstains(ref, 1)
    close_day(ref, (at(0), at(24)), "")
    ref.tick(at(25), Clockwork({"g1:day1:public": at(25)}))
    horses = [s for s in ref.state.alive() if s.role == "horse"]
    a, b = [h for h in horses if h.team == horses[0].team][:2]
    enemies = [s.name for s in ref.state.alive() if s.team != a.team]
    assert ref.read_pm(pm(a.name, f"查证 {enemies[0]}", 26), "h1").events
    assert ref.read_pm(pm(b.name, f"查证 {enemies[1]}", 26.5), "h2").events
    out = ref.tick(at(49), Clockwork())
    [alert] = [x for x in out.alerts if x.kind.startswith("rule:joint_disagreement")]
    assert a.name in alert.message and b.name in alert.message, alert.message
    assert "_horses" not in alert.message and "杀手" not in alert.message, alert.message
