"""Every correction of a game6-10 from its form in the console, in a real Chromium (issue 23):
the GM picks the players from lists, never types a command. The game runs offline on a manual
clock (the daemon's cycles stand in as ``tick``); what the corrections change is read back from
the store: the night's result, the proposals, the timeline, the log marked as the console's.
Skipped with the reason where Chromium or Playwright is absent."""

from __future__ import annotations

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.daemon.status import build_status
from shenshi.store.outbox import AnnouncementState
from tests.console.browser import chromium, skip_without_browser
from tests.console.conftest import KILL, feed
from tests.console.serving import served, signed_in_url
from tests.daemon.helpers import START, announcements, at, config, pm, post

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # (make e2e-ci: CI plays it in Chromium; make test stays short)


class Console:
    """The GM in the console's corrections page."""

    def __init__(self, page, url: str) -> None:  # type: ignore[no-untyped-def]
        self.page, self.url = page, url

    def correct(self, what: str, *values: str, reason: str = "") -> str:
        """Fill the correction form ``what`` (its pickers by the values given) and send it."""
        self.page.goto(f"{self.url}/g/1/corrections")
        form = self.page.locator(f"form.override-{what}")
        for i, value in enumerate(values):
            field = form.locator(f"[name=arg{i}]")
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
        if reason:
            form.locator("[name=reason]").fill(reason)
        form.locator("button").click()
        return self.page.locator(".note").inner_text()


@pytest.fixture
def night(tmp_path):
    """A game6-10 in review mode at night 1: a kill and a divination have come in."""
    skip_without_browser()
    clock = ManualClock(START)
    game = bootstrap(config(tmp_path, mode="review"), clock=clock, forum=False)
    game.start()
    clock.set(at(0.02))
    game.tick()
    feed(game, pm("夜行者", KILL, 0.05))
    feed(game, pm("小明", "占卜 老王", 0.1))
    console_service = bootstrap(game.config, store=game.store, clock=clock, forum=False)
    console_service.start()
    with served([console_service]) as console, chromium() as context:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(signed_in_url(console))
        yield game, clock, Console(page, console.url)
    game.close()


def test_every_correction_from_its_form(night) -> None:
    game, clock, gm = night
    page = gm.page
    # the night: an action intake could not read entered, a mistaken kill voided, the seer
    # answered early, the penalty divination drawn
    entered = gm.correct("action", "月光", "bind", "老王")
    assert "已记录：" in entered and "月光" in entered and "老王" in entered, entered
    assert "已记录：作废 夜行者 本阶段的「杀」（理由：发错了）" in gm.correct("void", "夜行者", "kill", reason="发错了")
    assert "已记录：天神已答复 小明" in gm.correct("answered", "小明")
    assert "已记录：抽中 Tom_2 做额外占卜" in gm.correct("extra-divination", "Tom_2")
    refused = gm.correct("void", "老王", "kill")  # he sent nothing: refused, the form kept
    assert "没有执行" in refused
    assert page.locator("form.override-void select[name=arg0]").input_value() == "老王"
    game.read_corrections()
    clock.set(at(24.5))
    game.tick()  # the night resolves without the voided kill
    result = next(a for a in announcements(game) if a.kind == "night_result")
    assert "Rex" not in result.text

    # the night's result approved from its card; the day's vote opens
    page.goto(f"{gm.url}/g/1/review")
    page.locator(f"#a{result.id} button.approve").click()
    assert f"#{result.id} 已批准" in page.locator(".note").inner_text()
    game.read_corrections()
    with game.store.transaction() as uow:  # the daemon sends it (offline: marked as sent)
        uow.outbox.mark_sending(result.id)
        uow.outbox.mark_sent(result.id, "9001")
    clock.set(at(37))
    game.tick()
    feed(game, post("小明", "投票：老王", 37.1))
    feed(game, post("月光", "投票：老望", 37.2))  # misspelt: an alert with its fix

    # the day: a ballot entered, an exit, an execution forced then cancelled, a substitute
    assert "已记录：阿杰 的选票改记为 老王" in gm.correct("ballot", "阿杰", "老王")
    assert "已记录：白色的猫 退出游戏" in gm.correct("exit", "白色的猫")
    assert "已记录：今天处决 老王" in gm.correct("execute", "老王")
    assert "已记录：今天不处决任何人" in gm.correct("cancel-execution")
    page.goto(f"{gm.url}/g/1/corrections")
    form = page.locator("form.substitute")
    form.locator("select[name=old]").select_option("Rex")
    form.locator("[name=new]").fill("路人乙")
    form.locator("[name=uid]").fill("88")
    form.locator("button").click()
    assert "路人乙 接替 Rex" in page.locator(".note").inner_text()

    # the misspelt ballot fixed from its alert, the suggestion as prefilled
    page.goto(f"{gm.url}/g/1/alerts")
    card = page.locator("article.alert-item", has_text="名字对不上玩家").first
    card.locator("form.hint-form button").first.click()
    assert "已记录：月光 的选票改记为 老王" in page.locator(".note").inner_text()

    game.read_corrections()
    status = build_status(game)
    tally = {c.name: {b.voter for b in c.voters} for c in status.vote.tally}
    assert {"小明", "阿杰", "月光"} <= tally["老王"]
    made = page.goto(f"{gm.url}/g/1/corrections") and page.locator("table.made").inner_text()
    for words in ("月光", "作废 夜行者", "天神已答复 小明", "阿杰 的选票改记为 老王", "白色的猫 退出游戏",
                  "今天不处决任何人", "路人乙 接替 Rex", "抽中 Tom_2 做额外占卜", "作废 夜行者 的「杀」"):  # fmt: skip
        assert words in made, words
    timeline = page.goto(f"{gm.url}/g/1/timeline") and page.locator("ol.timeline").inner_text()
    assert "天神更正：作废 夜行者 的「杀」" in timeline and "无人死亡" in timeline
    assert "kill" not in timeline and "extra_divination" not in timeline
    console = [e for e in game.drylog.entries() if e["state"] == "gm"]
    assert console and all(e["where"] == "天神（控制台）" for e in console)
    assert not [a for a in announcements(game) if a.state is AnnouncementState.SENDING]


def test_a_stale_post_is_sent_late_from_its_card(tmp_path) -> None:
    """A 遗言期限 PM past its deadline (wolfadv W12): its card asks before sending it late."""
    skip_without_browser()
    from datetime import datetime, timedelta

    from tests.daemon.helpers import lover_left

    game, clock, notice = lover_left(tmp_path)
    clock.set(datetime.fromisoformat(notice.notes["deadline"]) + timedelta(minutes=3))
    console_service = bootstrap(game.config, store=game.store, clock=clock, forum=False)
    console_service.start()
    with served([console_service]) as console, chromium() as context:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())  # "…已过…。仍然补发？" — yes
        page.goto(signed_in_url(console))
        page.goto(f"{console.url}/g/1/review")
        late = page.locator(f'article[data-id="{notice.id}"] button.late')
        ident = notice.id
        late.click()
        assert f"#{ident} 已批准" in page.locator(".note").inner_text()
    assert next(x for x in announcements(game) if x.id == ident).state is AnnouncementState.APPROVED
    game.close()
