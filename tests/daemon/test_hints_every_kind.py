"""Every alert kind, in every mode and situation, gets advice that fits (issue 20): its hints
are commands of that mode (dry-run never approves, review never sends by hand, live does
neither), a correction only while the rules take it, a night action's never a ballot's, a post
is never said to have a receipt; the words are Chinese and name every kind."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

import pytest

from shenshi.daemon import gm_text
from shenshi.daemon.hints import (
    BY_HAND,
    COMMANDS,
    AlertFacts,
    Outgoing,
    Situation,
    advise,
    cause_of,
    intake_cause,
    rule_cause,
)
from shenshi.daemon.keys import GameKeys
from shenshi.intake.alerts import ALERT_KINDS
from shenshi.rulesets.base import (
    CastBallot,
    CloseNight,
    OpenDay,
    OpenNight,
    PlayerSpec,
    Submit,
    frozen_map,
)
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import GAME6_10, TZ

RULES = find_ruleset("game6-10")
DAEMON_KINDS = ("send_failed", "thread_changed", "unparsable_page", "undecodable_bytes", "cycle_failed",
                "login_failed", "forum_unreachable", "pm_game_unknown", "earlier_version_on_forum",
                "forum_clock_ahead", "order_uncertain", "signin", "lurk", "lurk_warning", "lurk_replaced",
                "last_words_after_post", "question")  # fmt: skip
RULE_KINDS = tuple(f"rule:{r}" for r in gm_text.RULE_NAMES)
KINDS = sorted(set(ALERT_KINDS) | set(gm_text.ALERT_NAMES) | set(DAEMON_KINDS) | set(RULE_KINDS))
MODES = ("dry-run", "review", "live")
# What each mode lets the GM do about an announcement.
NOT_IN = {"dry-run": {"approve"}, "review": {"post", "send_pm", "by_hand", "published"},
          "live": {"approve", "published", "post", "send_pm", "by_hand"}}  # fmt: skip
T = datetime(2026, 12, 1, 20, 30, tzinfo=TZ)


def states():
    """Night 1 (月光 bound 老王), day 1 with the vote open (老王 voted), the game decided."""
    state = RULES.new_game([PlayerSpec(n, r, RULES.info.roles[r].team) for n, r in GAME6_10])
    night = RULES.apply(state, OpenNight(1, frozen_map({"opened_at": T, "window_open": T})))[0]
    night = RULES.apply(night, Submit("月光", "bind", "老王", t=T))[0]
    dawn = RULES.apply(night, CloseNight(T))[0]
    day = RULES.apply(dawn, OpenDay(1, frozen_map({"opened_at": T})))[0]
    day = RULES.apply(day, CastBallot("老王", "Rex", T))[0]
    over = replace(day, outcome=RULES.check_win(day) or _decided(day))
    return {"night": night, "day": day, "over": over}


def _decided(state):
    from shenshi.rulesets.base import Outcome

    return Outcome("decided", "civilians")


STATES = states()


def alert_of(kind: str, state, channel: str):
    """An alert of ``kind`` as the daemon raises it in ``state`` (the cause it stores)."""
    keys = GameKeys("g1")
    # intake raises a stray ballot (a ballot outside the vote thread) about a ballot only
    action = "vote" if state.phase.value == "day" or kind == "vote_wrong_thread" else "bind"
    if kind.startswith("rule:"):
        cause = rule_cause(kind, "月光", "exit", "night1")
        return AlertFacts(kind, "月光", keys.rule_alert(state.phase, state.number, 1, "月光", kind[5:], "7"), cause, 7)
    key = keys.send_failed(3) if kind == "send_failed" else keys.intake_alert("7", 0)
    cause = cause_of(kind, key, "月光") or intake_cause(
        kind, "月光", action, "老五", ("老王",), state, channel, T, 7
    )
    return AlertFacts(kind, "月光", key, cause, 7)


def receipts(case: str) -> dict:
    return {"none": {}, "waiting": {7: (Outgoing(5, "proposed", False),)}, "out": {7: (Outgoing(5, "sent", False),)}}[case]


SITUATIONS = [(when, channel, sent) for when in STATES for channel in ("pm", "post")
              for sent in ("none", "waiting", "out") if not (channel == "post" and sent != "none")]  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_every_alert_kind_has_chinese_words(kind) -> None:
    name = gm_text.alert_name(kind)
    assert name != kind and not re.search(r"[A-Za-z_]{3,}", name), (kind, name)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_advice_fits_the_mode_the_channel_and_what_happened(kind, mode) -> None:
    for when, channel, sent in SITUATIONS:
        check(kind, mode, when, channel, sent)


def check(kind: str, mode: str, when: str, channel: str, sent: str) -> None:
    state = STATES[when]
    sit = Situation(mode, state, RULES, bench=("替补甲",), receipts=receipts(sent))
    alert = alert_of(kind, state, channel)
    advice = advise(alert, sit)
    text = advice.text()
    assert advice.note, (kind, "says nothing")
    if advice.hints:
        assert "无需" not in text, (kind, text)  # nothing to do, and a step to take: not both
    words = re.sub(r"shenshi [^，；）]*|password_\w+|-v\b", "", text)  # commands are commands
    assert not re.search(r"[A-Za-z_]{3,}", words), (kind, text)  # no English in the GM's words
    for hint in advice.hints:
        assert hint.command in COMMANDS | BY_HAND, hint
        assert hint.command not in NOT_IN[mode], (kind, mode, hint.text())
        for blank in hint.blanks:
            assert blank.choices or blank.long or blank.what in ("分数", "ID", "新玩家"), (kind, hint.text())
    if mode != "dry-run":
        assert "演练" not in text and "手动发" not in text, (kind, mode, text)
    if sent == "none":
        assert "回执 #" not in text, (kind, text)  # no receipt is promised that does not exist
    if state.outcome is not None:  # after the end: no correction of a ballot or an action
        assert not any(h.args[:1] in (("ballot",), ("action",)) for h in advice.hints), (kind, text)
    action = alert.cause.action if alert.cause else ""
    if action and action != "vote":  # a night action's alert never suggests a ballot
        assert "override ballot" not in text and "投票" not in advice.note, (kind, text)
    if alert.cause and alert.cause.what == "ballot" and not sit.ballot_open(alert.cause):
        assert not any(h.args[:1] == ("ballot",) for h in advice.hints), (kind, text)


def test_a_resolved_alert_suggests_nothing() -> None:
    sit = Situation("review", STATES["night"], RULES)
    alert = replace(alert_of("unknown_name", STATES["night"], "pm"), resolved=True)
    assert advise(alert, sit).hints == () and "已解决" in advise(alert, sit).note


def stray(state, target="Rex"):
    """月光's 「投票：Rex」 posted outside the vote thread, as the daemon stores its alert."""
    cause = intake_cause("vote_wrong_thread", "月光", "vote", target, (), state, "post", T, 7)
    return AlertFacts("vote_wrong_thread", "月光", GameKeys("g1").intake_alert("7", 0), cause, 7)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pm", ["none", "proposed", "approved", "sent", "superseded"])
def test_a_stray_ballot_may_be_counted_while_its_round_is_open(mode, pm) -> None:
    """A ballot outside the vote thread does not count (D-I); while its round takes ballots the
    GM may count it (``override ballot 月光 Rex``, the target filled in), and the PM that tells
    the voter goes out as the mode wants (dry-run: by hand; review: approve; live: by itself).
    A PM withdrawn (superseded) is never said to have told him."""
    day = STATES["day"]
    outbox = {} if pm == "none" else {7: (Outgoing(5, pm, False),)}
    advice = advise(stray(day), Situation(mode, day, RULES, receipts=outbox))
    text = advice.text()
    assert advice.hints[0].argv()[:4] == ("override", "ballot", "月光", "Rex"), text
    assert advice.hints[0].label == gm_text.LABELS["count_anyway"]
    assert "不计票" in advice.note and "代记" in advice.note and "无需" not in text, text
    sending = [h.command for h in advice.hints[1:]]
    if pm == "proposed":
        assert sending == {"dry-run": ["send_pm", "published"], "review": ["approve"], "live": []}[mode], text
        assert "#5" in advice.note and ("会自动发出" in advice.note) == (mode == "live"), text
    elif pm == "approved":
        assert sending == {"dry-run": ["send_pm", "published"], "review": [], "live": []}[mode], text
    else:
        assert sending == [], text
    if pm == "sent":
        assert "#5 已请他" in advice.note, text
    if pm in ("none", "superseded"):
        assert "#5" not in advice.note and "私信" not in advice.note, text


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("when", ["night", "over"])
def test_a_stray_ballot_without_an_open_round_does_not_count(mode, when) -> None:
    """No round open (the night, the game over, or a round that closed since): it does not
    count, and no correction is offered."""
    state = STATES[when]
    advice = advise(stray(state), Situation(mode, state, RULES, receipts={7: (Outgoing(5, "sent", False),)}))
    assert advice.hints == () and advice.note == gm_text.NOTES["stray_closed"], advice.text()
    day = STATES["day"]
    alert = stray(day)
    closed = replace(alert, cause=replace(alert.cause, step="day1.r2"))  # an earlier round's ballot
    advice = advise(closed, Situation(mode, day, RULES))
    assert advice.hints == () and "不能代记" in advice.note, advice.text()


def test_a_stray_ballot_naming_nobody_known_offers_the_choices() -> None:
    """A stray ballot whose name matches no player: the GM picks whom it counts for."""
    day = STATES["day"]
    advice = advise(stray(day, target=""), Situation("review", day, RULES))
    (blank,) = advice.hints[0].blanks
    assert "Rex" in blank.choices and advice.hints[0].args[:2] == ("ballot", "月光")
