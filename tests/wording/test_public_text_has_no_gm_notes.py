"""Public text has no GM notes (issue 20): no post or PM a player reads contains anything of a
text written for the GM only (what he must confirm, the next command, the outbox's states, his
notes beside a proposal).

The GM-only texts are the whole set the daemon writes to the GM (``gm_text``'s hints,
confirmations, publishing instructions, outbox states and modes, the notes beside a proposal,
the GM-note templates), cut into their fragments of four characters or more; every
player-facing template (announcements, answers, role PMs, receipts, reasons, notices) rendered,
and every announcement a game stores in every state it can reach, is compared with all of
them. A few fragments are game facts that both the players and the GM are told: they are
listed, with why."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon import gm_commands, gm_text
from shenshi.store.outbox import AnnouncementState
from shenshi.wording import Templates
from shenshi.wording.defaults import TEMPLATES
from tests.daemon.helpers import GAME6_10, START, UIDS, announcements, config, pm, post

PLAYER_GROUPS = {"announcement", "cause", "answer", "role", "receipt", "reason", "notice", "forum"}
GM_NOTE_TEMPLATES = ("kill_declaration_missing", "kill_post_missing", "alert_left_seat", "alert_last_words_after_post")
# Facts both read: the killer is told his kill falls without a declaration (receipt) and the
# GM's hint says the same; the vote thread's opening is a public post and a deadline's name.
SHARED_FACTS = {
    "否则本次杀人作废": "a rule the killer and the GM are both told",
    "不在提交时间内": "a rule the player's receipt and the GM's note both state",
    "开放投票": "a public post's name",
}
# Words that address the GM whatever the sentence around them.
MARKERS = re.compile(r"shenshi|待天神|天神确认|天神补|法官补|请天神|只给你看|要你确认|无需操作|守护进程|演练模式|已被取代"
                     r"|§|RES-[A-Z]+\d|RULES\.md|\b[A-Z]{1,2}-[A-Z]{0,2}\d+\b")  # (the spec's own references: wolfadv W2)
SAMPLE = {"name": "老王", "player": "老王", "victim": "老王", "who": "老王", "old": "kk_大侠", "new": "路人甲",
          "in": "路人甲", "out": "kk_大侠", "substitute": "路人甲", "target": "Rex", "n": "1", "round": "1"}


def _fragments(text: str) -> set[str]:
    """The literal runs of a text between its placeholders and punctuation, 4 characters on."""
    text = re.sub(r"\$\{?\w+\}?|\{\w+\}", "\0", text)
    runs = re.split(r"[\0\s，。；：、（）()！？!?,.;:“”\"'「」【】\[\]/|｜→\-]+", text)
    return {r for r in runs if len(r) >= 4}


def gm_only_texts() -> list[str]:
    """Every text the daemon writes for the GM only."""
    t = Templates()
    texts = [t.text(name) for name in GM_NOTE_TEMPLATES]
    for table in (gm_text.NOTES, gm_text.LABELS, gm_text.RESOLVED, gm_text.PUBLISH, gm_text.FROM_PUBLICATION,
                  gm_text.FIXED_HOURS, gm_text.STATES, gm_text.MODE):
        texts += list(table.values())
    texts += [does for does, _ in gm_text.AT_DEADLINE.values()]
    texts += [gm_text.outbox_refusal(a, s, "shenshi override exit {who}") for a in gm_text.OUTBOX_VERBS for s in gm_text.STATES]
    notes = {"missing": [t.text("kill_declaration_missing")], "recorded": ["{a} 投 {b}（天神补记）"],
             "uncounted": [{"id": "3", "words": "{a} 委托投 {b}", "reason": "出局者投票：不计"}]}  # fmt: skip
    texts += gm_text.gm_notes(type("A", (), {"notes": notes})())
    texts += [h.text() for h in _sample_hints()]
    return texts


def _sample_hints():  # type: ignore[no-untyped-def]
    """The hints of a game (confirming an exit, a substitute, publishing, dropping), with
    blanks for the names."""
    from shenshi.daemon.hints import (
        Situation,
        confirmation_hints,
        drop_hint,
        publish_hints,
        stale_hints,
    )
    from shenshi.rulesets.base import PlayerSpec
    from shenshi.rulesets.registry import find_ruleset

    rules = find_ruleset("game6-10")
    state = rules.new_game([PlayerSpec(n, r, rules.info.roles[r].team) for n, r in GAME6_10], {})
    sit = Situation("review", state, rules, bench=("{new}",))
    hints = [*confirmation_hints(sit, "signin", "{who}", 7), *confirmation_hints(sit, "lurk_replaced", "{who}", 7)]
    hints += [*publish_hints("dry-run", (7,)), *publish_hints("review", (7,)), drop_hint(), *stale_hints(7)]
    return hints


# (a command's words alone, ``approve`` or ``review``, may be a player's name: the commands
# are found by the ``shenshi`` marker)
GM_ONLY = {f for text in gm_only_texts() for f in _fragments(text) if not f.isascii()} - set(SHARED_FACTS)


def leaks(text: str) -> list[str]:
    """What of the GM-only texts ``text`` contains."""
    found = sorted(f for f in GM_ONLY if f in text)
    return found + MARKERS.findall(text)


def test_the_gm_only_set_is_the_whole_set() -> None:
    assert len(GM_ONLY) > 80  # every hint, confirmation, state and note, not one phrase
    assert {"待你确认", "已被取代", "天神补记", "确认退出"} <= GM_ONLY


@pytest.mark.parametrize("name", sorted(n for n, s in TEMPLATES.items() if s.group in PLAYER_GROUPS))
def test_every_player_facing_template_is_free_of_gm_notes(name: str) -> None:
    spec = TEMPLATES[name]
    text = Templates().render(name, **{p: SAMPLE.get(p, f"<{p}>") for p in spec.placeholders})
    assert not leaks(text), (name, leaks(text))


def test_the_gm_note_templates_are_not_player_facing() -> None:
    assert {TEMPLATES[n].group for n in GM_NOTE_TEMPLATES} == {"alert"}


def test_what_a_game_stores_is_free_of_gm_notes_in_every_state(tmp_path, monkeypatch) -> None:
    """A game reaching every state a proposal can be in (unconfirmed exits, superseded ones,
    a substitution with its moved deadline and role PM, a confirmed exit, a result with a
    ballot the GM recorded and one not counted, approved, rejected): no stored text, whatever
    its state, holds a GM note."""
    monkeypatch.setitem(UIDS, "路人甲", "77")
    clock = ManualClock(START)
    svc = bootstrap(config(tmp_path, mode="review"), clock=clock, forum=False)
    svc.start()

    def feed(record) -> None:
        with svc.store.transaction() as uow:
            uow.evidence.record(svc.game_id, [(record, None)])
        svc.process()

    for name, _ in GAME6_10:
        if name not in ("kk_大侠", "白色的猫", "Rex"):
            feed(post(name, "签到", 1))
    feed(pm("夜行者", "杀 Tom_2\n杀人宣言：太短", 2))
    feed(pm("老王", "杀 Tom_2", 2.5))
    clock.set(START + timedelta(hours=25))
    svc.tick()
    [night] = [a for a in announcements(svc) if a.kind == "night_result"]
    with svc.store.transaction() as uow:
        uow.outbox.mark_published(night.id, clock())
    clock.advance(hours=1)
    svc.tick()
    gm_commands.substitute(svc, "kk_大侠", "路人甲", uid="77")
    gm_commands.correct(svc, "exit", ["白色的猫"])
    clock.set(START + timedelta(hours=38))
    svc.tick()
    from tests.daemon.helpers import publish_vote_opening

    publish_vote_opening(svc)  # ballots count from the vote's opening post (F37)
    feed(post("路人甲", "投票：老王", 38.1))
    gm_commands.correct(svc, "ballot", ["月光", "老王"])
    proposed = [a.id for a in announcements(svc, [AnnouncementState.PROPOSED])]
    gm_commands.outbox_action(svc, "approve", proposed[: len(proposed) // 2])
    gm_commands.outbox_action(svc, "reject", proposed[len(proposed) // 2 :][:1])
    clock.set(START + timedelta(hours=60))
    svc.tick()
    stored = announcements(svc)
    states = {a.state for a in stored}
    assert {AnnouncementState.UNCONFIRMED, AnnouncementState.SUPERSEDED, AnnouncementState.PROPOSED,
            AnnouncementState.APPROVED, AnnouncementState.REJECTED, AnnouncementState.PUBLISHED} <= states  # fmt: skip
    for a in stored:
        assert not leaks(a.text), (a.id, a.kind, a.state, leaks(a.text))
