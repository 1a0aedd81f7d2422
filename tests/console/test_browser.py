"""The console in a real headless Chromium (Debian's, driven by Playwright): the console is
served for real over the store a daemon writes, with its own game service (as ``shenshi run
--console`` and ``shenshi console`` have). Skipped with the reason where Chromium or
Playwright is absent."""

from __future__ import annotations

import pytest

from shenshi.bootstrap import bootstrap
from shenshi.store.outbox import AnnouncementState
from tests.console.browser import chromium, skip_without_browser
from tests.console.conftest import feed
from tests.console.serving import served, signed_in_url
from tests.daemon.helpers import announcements, at, post

pytestmark = pytest.mark.slow  # (make e2e-ci: CI plays it; make test stays short)


@pytest.fixture
def console(game, clock):
    """The console, served on a free loopback port, over the game's store and clock."""
    skip_without_browser()
    service = bootstrap(game.config, store=game.store, clock=clock, forum=False)
    service.start()
    with served([service]) as console:
        yield console


@pytest.fixture
def page(console):
    with chromium() as context:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=console.url)
        page = context.new_page()
        page.goto(signed_in_url(console))
        yield page


def item(page, ident: int):
    return page.locator(f"#a{ident}")


def test_the_first_visit_signs_in_and_forgets_the_token(page, console) -> None:
    assert page.url == f"{console.url}/g/1/"
    assert "token" not in page.url
    assert page.locator("header.top").inner_text().startswith("《test game》")
    page.goto(f"{console.url}/g/1/review")  # the cookie keeps the browser signed in
    assert page.locator("h1").inner_text() == "审核"


def test_review_copy_publish_edit_reject_approve(page, console, game) -> None:
    page.goto(f"{console.url}/g/1/review")
    result = next(a for a in announcements(game) if a.kind == "night_result")
    box = item(page, result.id)
    box.locator("button.copy").click()
    box.locator("button.copy", has_text="已复制").wait_for(timeout=5000)  # (set once the clipboard took it)
    assert box.locator("button.copy").inner_text() == "已复制"
    assert page.evaluate("navigator.clipboard.readText()") == result.text
    box.locator("button.published").click()
    assert f"#{result.id} 已记为发布于" in page.locator(".note").inner_text()

    receipts = [a for a in announcements(game) if a.state is AnnouncementState.PROPOSED]
    first, second, third = receipts[:3]
    edit = item(page, first.id)
    edit.locator("details.edit summary").click()
    edit.locator("textarea[name=text]").fill("[b]改过的[/b]回执")
    edit.locator("button.save").click()
    assert "已修改" in page.locator(".note").inner_text()
    assert item(page, first.id).locator(".rendered strong").inner_text() == "改过的"

    page.once("dialog", lambda dialog: dialog.accept())
    item(page, second.id).locator("button.reject").click()
    assert "已放弃" in page.locator(".note").inner_text()
    assert item(page, second.id).count() == 0  # no longer waiting

    item(page, third.id).locator("button.approve").click()
    assert f"#{third.id} 已批准" in page.locator(".note").inner_text()
    found = {a.id: a for a in announcements(game)}
    assert found[result.id].published_at is not None and found[first.id].text == "[b]改过的[/b]回执"
    assert found[second.id].state is AnnouncementState.REJECTED
    assert found[third.id].state is AnnouncementState.APPROVED


def test_acknowledging_an_alert_lowers_the_count(page, console) -> None:
    page.goto(f"{console.url}/g/1/alerts")
    count = int(page.locator("#alert-count").inner_text())
    first = page.locator("article.alert-item").first
    assert "非玩家的指令" in first.inner_text()
    first.locator("button.ack").click()
    assert int(page.locator("#alert-count").inner_text()) == count - 1


def test_a_role_shows_only_when_clicked(page, console) -> None:
    page.goto(f"{console.url}/g/1/players")
    row = page.locator("table.seats tbody tr").first
    assert "杀手" not in page.content()
    row.locator("button.reveal").click()
    role = row.locator(".role")
    role.wait_for(state="visible")
    assert role.inner_text() == "杀手"


def test_a_ballot_appears_after_a_poll(page, console, game, clock) -> None:
    result = next(a for a in announcements(game) if a.kind == "night_result")
    feed(game, post("神的使者", result.text, 24.6))  # the GM posted the night's result
    clock.set(at(37))
    game.tick()  # the vote opens
    page.goto(f"{console.url}/g/1/")
    assert "还没有选票" in page.locator("table.tally").inner_text()
    feed(game, post("小明", "投票：老王", 37.1))  # the daemon's next poll reads a ballot
    clock.set(at(37.2))
    page.reload()
    tally = page.locator("table.tally tbody tr").first
    assert tally.locator("td.name").inner_text() == "老王"
    assert "小明" in tally.inner_text() and tally.locator("a").get_attribute("href").startswith("http://forum.example/")
