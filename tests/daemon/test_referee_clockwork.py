"""The referee's clock is told, not calling back: it asks (``wants``) for publication times
and post counts, and the shell answers with plain data (``Clockwork``)."""

from __future__ import annotations

from shenshi.daemon.keys import (
    GameKeys,
    answer_label,
    deal_batch,
    evidence_batch,
    game_key,
    gm_batch,
    step_label,
    tick_batch,
)
from shenshi.daemon.referee import Clockwork, PostCounts, Wants
from shenshi.rulesets.base import ActivityRecorded, Phase
from tests.daemon.helpers import at, chess_referee

COUNTS = {"老王": 7}


def test_the_first_round_asks_for_its_post_counts_when_it_closes(tmp_path) -> None:
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    assert ref.state.phase is Phase.DAY
    assert ref.wants(at(12)) == Wants()  # nothing due yet
    window = (at(0), at(24))
    assert ref.wants(at(25)) == Wants(activity=window)  # a late tick still counts up to the close
    assert not ref.tick(at(25), Clockwork(activity=PostCounts((at(0), at(20)), COUNTS))).events
    assert ref.state.phase is Phase.DAY  # counts of another window: wait to be asked again
    out = ref.tick(at(25), Clockwork(activity=PostCounts(window, COUNTS)))
    recorded = [e for e in out.events if isinstance(e, ActivityRecorded)]
    assert [dict(e.post_counts) for e in recorded] == [COUNTS]
    assert ref.state.phase is Phase.DUSK


def test_a_day_that_opens_and_is_over_in_one_tick_waits_for_its_counts(tmp_path) -> None:
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    ref.tick(at(24), Clockwork(activity=PostCounts((at(0), at(24)), {})))  # day 1 closes
    day1 = GameKeys("g1").public("day1")
    assert ref.wants(at(25)).announcements == {day1}
    ref.tick(at(25), Clockwork({day1: at(25)}))  # night 1 opens at the publication …
    night1 = GameKeys("g1").public("night1")
    ref.tick(at(49), Clockwork())  # … and resolves at dawn
    assert ref.state.phase is Phase.DAWN
    late = at(49 + 30)  # a long outage: the result was posted at 49 h, day 2 closed at 73 h
    wants = ref.wants(late)
    assert wants == Wants(frozenset({night1}))
    ref.tick(late, Clockwork({night1: at(49)}, PostCounts(wants.activity)))
    assert ref.state.phase is Phase.DAY and ref.state.number == 2  # open, not closed blind
    again = ref.wants(late)
    assert again.activity == (at(25), at(73))  # the night's posts count toward the day (RES-C19)
    ref.tick(late, Clockwork(activity=PostCounts(again.activity, COUNTS)))
    assert ref.state.phase is Phase.DUSK


def test_without_counts_kept_a_round_closes_without_recording(tmp_path) -> None:
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    out = ref.tick(at(24), Clockwork())
    assert ref.state.phase is Phase.DUSK
    assert not [e for e in out.events if isinstance(e, ActivityRecorded)]


def test_key_formats_never_change() -> None:
    """Keys are stored in every game's database: the same effect must get the same key."""
    keys = GameKeys(game_key(7))
    assert [
        keys.public(step_label(Phase.NIGHT, 1)),
        keys.public(step_label(Phase.DAY, 2, 1)),
        keys.private(answer_label(12), "extra_divination", "小明", 0),
        keys.night_phase_result(3, "witch_vision", "阿杰"),
        keys.receipt("41", 0),
        keys.intake_alert("41", 1),
        keys.edit_alert("41", "投票：老王", 0),
        keys.refused("41", "kill"),
        keys.rule_alert(Phase.DAY, 2, 1, "Rex", "lurking", "0"),
        keys.thread_changed("5", "deleted", 30),
        keys.unparsable("inbox", "2026120108"),
        keys.absence("lurk", "Rex", "202612010800"),
        keys.role("Rex"),
        keys.notice(step_label(Phase.DAY, 2), "vote_open"),
        keys.reply("41", "vote_not_open"),
        evidence_batch(41),
        tick_batch(9),
        gm_batch(9, "Substitute"),
        deal_batch(7),
    ] == [
        "g7:night1:public",
        "g7:day2.r1:public",
        "g7:answer12:extra_divination:小明:0",
        "g7:night3:witch_vision:阿杰",
        "g7:receipt:41:0",
        "g7:intake:41:1",
        "g7:edit:41:6dcfd14a829a:0",
        "g7:refused:41:kill",
        "g7:rule:day2.r1:Rex:lurking:0",
        "g7:thread:5:deleted:30",
        "g7:unparsable:inbox:2026120108",
        "g7:lurk:Rex:202612010800",
        "g7:deal:Rex",
        "g7:day2:vote_open",
        "g7:reply:41:vote_not_open",
        "evidence:41",
        "tick:9",
        "gm:9:Substitute",
        "deal:7",
    ]
