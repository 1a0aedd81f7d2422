"""Every next step the daemon derives (:mod:`shenshi.daemon.hints`: the advice of every alert
kind in every mode and situation, of game6-10 and of werewolf, the steps that publish, confirm
or drop an announcement) as the console shows it (issue 23): a step the console runs is a
button or a prefilled form whose fields are the hint's data, and the form, posted as the GM
sends it, is the very hint again (its blanks as he picks them): no hint text is parsed. A step
done on the forum is said in words or a link. No page tells the GM to type a command."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

import pytest

from shenshi.console import app as console_app
from shenshi.console.app import RUNNABLE, environment
from shenshi.daemon import gm_commands, gm_text
from shenshi.daemon.gm_commands import CONSOLE, Said
from shenshi.daemon.hints import (
    AlertFacts,
    Blank,
    Hint,
    Situation,
    advise,
    confirmation_hints,
    intake_cause,
    pending_advice,
    publish_advice,
    stale_hints,
)
from shenshi.daemon.keys import GameKeys
from shenshi.rulesets.base import OpenNight, PlayerSpec, frozen_map
from shenshi.rulesets.registry import find_ruleset
from tests.console.test_app import note
from tests.daemon.test_hints_every_kind import (
    KINDS,
    MODES,
    RULES,
    SITUATIONS,
    STATES,
    T,
    alert_of,
    receipts,
)

WEREWOLF = find_ruleset("werewolf")


class Forms(HTMLParser):
    """The forms of a page: each one's action, its fields as the browser sends them (a select
    sends its chosen option), the labelled blanks, and its button's text; the words outside."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.words: list[str] = []
        self._select: dict | None = None
        self._option: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action"), "fields": [], "blanks": [], "button": ""})
        elif tag == "input" and self.forms and a.get("name"):
            value = a.get("value") or ""
            self.forms[-1]["fields"].append([a["name"], value])
            if a.get("type") != "hidden":
                self.forms[-1]["blanks"].append(self.forms[-1]["fields"][-1])
        elif tag == "textarea" and self.forms and a.get("name"):  # (its text: none, the GM writes it)
            self.forms[-1]["fields"].append([a["name"], ""])
            self.forms[-1]["blanks"].append(self.forms[-1]["fields"][-1])
        elif tag == "select" and self.forms:
            self._select = {"field": [a["name"], ""], "first": None}
            self.forms[-1]["fields"].append(self._select["field"])
            self.forms[-1]["blanks"].append(self._select["field"])
        elif tag == "option" and self._select is not None:
            self._option = a.get("value") or ""
            if self._option and self._select["first"] is None:
                self._select["first"] = self._option
            if "selected" in a:
                self._select["field"][1] = self._option

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            self._select["chosen"] = self._select["field"][1] or self._select["first"] or ""
            self._select = None

    def handle_data(self, data: str) -> None:
        if self.forms and self._select is None and data.strip():
            self.forms[-1]["button"] += data.strip()
        self.words.append(data)


def shown(hint: Hint) -> Forms:
    """``hint`` as the console's ``_hint.html`` renders it."""
    html = environment().get_template("_hint.html").render(h=hint, game=1, csrf="c", csrf_field="csrf",
                                                            path="/g/1/alerts")  # fmt: skip
    page = Forms()
    page.feed(html)
    page.html = html  # type: ignore[attr-defined]
    return page


def every_hint() -> dict[str, Hint]:
    """Every hint the daemon derives here, by how the CLI would print it (one of each)."""
    found: dict[str, Hint] = {}

    def take(hints) -> None:
        for h in hints:
            found.setdefault(h.text(), h)

    for ruleset, states in ((RULES, STATES), (WEREWOLF, werewolf_states())):
        for kind in KINDS:
            for mode in MODES:
                for when, channel, sent in SITUATIONS:
                    if when not in states:
                        continue
                    sit = Situation(mode, states[when], ruleset, bench=("替补甲", "替补乙"), game="一局",
                                    receipts=receipts(sent))  # fmt: skip
                    take(advise(alert_of(kind, states[when], channel), sit).hints)
    for mode in MODES:
        sit = Situation(mode, STATES["night"], RULES, bench=("替补甲",), game="一局")
        take(advise(pm_game_alert(), sit).hints)
        for private in (False, True):
            take(publish_advice(mode, (3, 4), private).hints)
        take(pending_advice(mode, [(3, "proposed", False), (4, "proposed", True)]).hints)
        for kind in ("signin", "lurk", "lurk_replaced"):
            take(confirmation_hints(sit, kind, "月光", 9))
    take(stale_hints(5))
    return found


def werewolf_states() -> dict:
    """A werewolf night 1 whose players carry the names the alerts name (月光 a wolf)."""
    cast = (("月光", "werewolf", "wolves"), ("老王", "seer", "village"), ("小明", "witch", "village"),
            ("Rex", "guard", "village"), ("老五", "werewolf", "wolves"), ("阿花", "villager", "village"),
            ("老六", "villager", "village"), ("老七", "villager", "village"))  # fmt: skip
    state = WEREWOLF.new_game([PlayerSpec(n, r, t) for n, r, t in cast])
    return {"night": WEREWOLF.apply(state, OpenNight(1, frozen_map({"opened_at": T, "window_open": T})))[0]}


def pm_game_alert() -> AlertFacts:
    """A PM of a player seated in two games that could be either (issue 22's count-pm)."""
    cause = intake_cause("pm_game_unknown", "月光", "bind", "老王", (), STATES["night"], "pm", T, 7)
    return AlertFacts("pm_game_unknown", "月光", GameKeys("g1").pm_game("8812"), cause, 7)


HINTS = every_hint()


def test_the_hints_cover_every_kind_of_step() -> None:
    kinds = {(h.command, h.args[0] if h.command == "override" and h.args else None, h.late) for h in HINTS.values()}
    for wanted in [("override", "ballot", False), ("override", "action", False), ("override", "void", False),
                   ("override", "count-pm", False), ("override", "exit", False), ("override", "penalty", False),
                   ("override", "extra-divination", False), ("substitute", None, False), ("approve", None, False),
                   ("approve", None, True), ("reject", None, False), ("published", None, False)]:  # fmt: skip
        assert wanted in kinds, (wanted, sorted(kinds, key=str))


@pytest.mark.parametrize("text", sorted(HINTS))
def test_a_step_is_a_button_or_words_never_a_command_to_type(text) -> None:
    hint = HINTS[text]
    page = shown(hint)
    assert "shenshi " not in "".join(page.words) or hint.command in ("maintainer", "password"), page.html
    if hint.command in RUNNABLE:
        [form] = page.forms
        assert form["action"] == "/g/1/hint" and form["button"], page.html
        assert hint.label and hint.label in form["button"], page.html  # the GM's words, not argv
        assert all(c not in form["button"] for c in ("--", "count-pm", "override")), form["button"]
        for blank, field in zip(hint.blanks, form["blanks"], strict=False):  # a blank is prefilled with its suggestion
            assert field[1] == (blank.suggested[0] if blank.suggested else ""), (blank, field)
    else:
        assert not page.forms, page.html


@pytest.mark.parametrize("text", sorted(t for t, h in HINTS.items() if h.command in RUNNABLE))
def test_the_form_posted_is_the_hint_itself(text, client, key, monkeypatch) -> None:
    hint = HINTS[text]
    page = shown(hint)
    [form] = page.forms
    picked = []
    for blank, field in zip(hint.blanks, form["blanks"], strict=False):  # the GM keeps the suggestion or picks
        if not field[1]:
            field[1] = blank.choices[0] if blank.choices else "2"
        picked.append(field[1])
    ran: list[Hint] = []
    monkeypatch.setattr(console_app.ops, "run_hint", lambda service, h, by="": ran.append(h) or Said(("好",)))
    data: dict[str, list[str]] = {}
    for name, value in form["fields"]:
        data.setdefault(name, []).append(value)
    data["csrf"] = [key.csrf]
    page_after = note(client, client.post("/g/1/hint", data=data))
    assert "没有执行" not in page_after
    [posted] = ran
    assert replace(posted, label=hint.label) == replace(hint.fill(*picked), args=tuple(map(str, hint.fill(*picked).args)))


@pytest.mark.parametrize("kind", ["lookalike_name", "unread_command", "renamed", "pm_game_unknown",
                                  "login_page_changed", "forum_busy"])  # fmt: skip
def test_the_new_alert_kinds_are_in_the_gms_words(kind) -> None:
    name = gm_text.alert_name(kind)
    assert name != kind and kind not in name and all(ord(c) > 127 for c in name if c.isalpha())
    for mode in MODES:
        sit = Situation(mode, STATES["night"], RULES, game="一局")
        alert = pm_game_alert() if kind == "pm_game_unknown" else alert_of(kind, STATES["night"], "pm")
        advice = advise(alert, sit)
        assert kind not in advice.note and advice.note, (kind, advice.note)
        for h in advice.hints:
            assert "shenshi" not in "".join(shown(h).words), h


def test_count_pm_from_its_alert_counts_the_pm_in_this_game(client, key, monkeypatch) -> None:
    """The count-pm button of a PM that could belong to either game runs issue 22's count-pm."""
    [hint] = advise(pm_game_alert(), Situation("review", STATES["night"], RULES, game="一局")).hints
    form = shown(hint).forms[0]
    assert [f for f in form["fields"] if f[0] in ("arg", "option")] == [["arg", "count-pm"], ["arg", "8812"],
                                                                         ["option", "--game=一局"]]  # fmt: skip
    assert form["button"] == gm_text.LABELS["count_in_game"]  # the PM's number is no name to show
    counted: list[tuple] = []
    monkeypatch.setattr(gm_commands, "count_pm", lambda service, pm, by: counted.append((pm, by)) or Said(("已计入",)))
    r = client.post("/g/1/hint", data={"csrf": key.csrf, "command": "override", "arg": ["count-pm", "8812"],
                                       "option": "--game=一局", "back": "/g/1/alerts"})  # fmt: skip
    assert "已计入" in note(client, r) and counted == [("8812", CONSOLE)]


def test_a_blank_without_choices_is_a_labelled_field() -> None:
    hint = Hint("override", ("penalty", "月光", Blank(gm_text.BLANKS["points"])), label=gm_text.LABELS["penalty"])
    page = shown(hint)
    assert gm_text.BLANKS["points"] in page.html and page.forms[0]["blanks"] == [["arg", ""]]


def test_too_many_ids_at_once_is_refused_in_chinese(client, key) -> None:
    r = client.post("/g/1/alerts/ack", data={"csrf": key.csrf, "id": [str(i) for i in range(1, 600)],
                                              "back": "/g/1/alerts"})  # fmt: skip
    assert "一次选中的编号太多（最多 500 个）" in note(client, r)


def test_an_exit_waiting_for_confirmation_is_never_followed_by_nothing_to_do() -> None:
    """newcomer N13: 「下一步：列出的都已批准、发出或放弃；无需操作」 under #34 [待你确认]."""
    text = pending_advice("review", [(33, "sent", False), (34, "unconfirmed", False)]).text()
    assert "#34" in text and "待你确认" in text and "无需操作" not in text


def test_a_button_says_what_it_records_and_when() -> None:
    """newcomer2 F9: 「补录行动 月光」 hid the action, its target and its time."""
    entry = Hint("override", ("action", "月光", "祈祷", "小明"), options=(("--at", "2026-12-05T18:34:00"),),
                 label=gm_text.LABELS["override_action"])  # fmt: skip
    [form] = shown(entry).forms
    assert form["button"] == "补录行动 月光 祈祷 小明（按 12-05 18:34 的时间）", form["button"]
    from_pm = replace(entry, options=(("--pm", "3"),))
    assert shown(from_pm).forms[0]["button"].endswith("（按私信 3 的时间和杀人宣言）")
    blank = Hint("override", ("ballot", "阿杰", Blank("对象", ("老王", "Rex"))), label=gm_text.LABELS["override_ballot"])
    assert shown(blank).forms[0]["button"].endswith("代记选票 阿杰")  # the blank is the form's field, not the caption
    count = Hint("override", ("count-pm", "8812"), label=gm_text.LABELS["count_in_game"])
    assert shown(count).forms[0]["button"] == "计入这一局"
