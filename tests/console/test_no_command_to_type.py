"""Every console page, in the states a game goes through, tells the GM his next step as a
button, a prefilled form or words, never as a command to type (issue 23, newcomer finding F11:
the 现在 page said ``或之后 shenshi published ID``).

The game (game6-10, dry-run, offline on a manual clock) is walked mid-night, at dawn with the
night's result waiting for the GM, mid-vote, after corrections made from the console's own
forms, and over; at each state every page is read as the GM reads it (the text he sees, the
confirmations the buttons ask, the fields' labels), and after each action the note it leaves.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from starlette.testclient import TestClient

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.console.app import create_app
from shenshi.console.auth import COOKIE, ConsoleKey
from shenshi.console.desk import Desk
from shenshi.daemon.status import build_status
from shenshi.store.outbox import AnnouncementState
from tests.console.conftest import KILL, TOKEN, feed
from tests.daemon.helpers import START, announcements, at, config, pm, post

# ``shenshi`` followed by one of its commands (or an option), as the GM would type it.
COMMAND = re.compile(r"shenshi\s+(?:[a-z][a-z-]+|--?[a-z])")
PAGES = ("/g/1/", "/g/1/review", "/g/1/review?state=all", "/g/1/alerts", "/g/1/alerts?show=all",
         "/g/1/players", "/g/1/timeline", "/g/1/corrections")  # fmt: skip
SHOWN_ATTRIBUTES = ("title", "placeholder", "data-confirm", "aria-label", "value")


class Seen(HTMLParser):
    """What a page shows the GM: its text (scripts and styles aside) and the words its
    buttons and fields carry (a confirmation, a placeholder, a button's value)."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        kind = dict(attrs).get("type")
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value and not (name == "value" and kind == "hidden"):
                self.words.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.words.append(data)


def seen(html: str) -> str:
    parser = Seen()
    parser.feed(html)
    return "\n".join(w.strip() for w in parser.words if w.strip())


def commands_on(client: TestClient, path: str) -> list[str]:
    """The commands to type that the page at ``path`` shows, each with its line."""
    r = client.get(path)
    assert r.status_code == 200, (path, r.status_code)
    return [line for line in seen(r.text).splitlines() if COMMAND.search(line)]


def walk(client: TestClient, state: str) -> dict[str, list[str]]:
    """Every page of the console in this state: the commands it tells the GM to type."""
    found = {f"{state} {path}": commands_on(client, path) for path in PAGES}
    return {page: lines for page, lines in found.items() if lines}


def act(client: TestClient, key: ConsoleKey, path: str, **fields: str) -> list[str]:
    """Post a console form; the commands to type in the note the page then shows."""
    r = client.post(path, data={"csrf": key.csrf, "back": "/g/1/", **fields})
    assert r.status_code == 303, (path, r.status_code, r.text)
    page = client.get(r.headers["location"])
    note = page.text.split('<div class="note"', 1)
    assert len(note) == 2, f"{path}: no note shown"
    return [line for line in seen(note[1].split('<section', 1)[0]).splitlines() if COMMAND.search(line)]


@pytest.fixture
def played(tmp_path):
    """A dry-run game6-10 on a manual clock, and a signed-in console over it."""
    clock = ManualClock(START)
    service = bootstrap(config(tmp_path, mode="dry-run"), clock=clock, forum=False)
    service.start()
    key = ConsoleKey(TOKEN)
    with TestClient(create_app(Desk([service]), key), follow_redirects=False) as client:
        client.cookies.set(COOKIE, key.cookie)
        yield service, clock, client, key
    service.close()


def publish_waiting(service, client: TestClient, key: ConsoleKey) -> dict[str, list[str]]:
    """The GM marks every public post waiting for him as published (「我已发布」), as he does in
    dry-run after posting it by hand; the notes it left that name a command."""
    found: dict[str, list[str]] = {}
    for a in announcements(service, [AnnouncementState.PROPOSED]):
        if a.destination_kind.value == "thread":
            lines = act(client, key, f"/g/1/announcements/{a.id}/published")
            if lines:
                found[f"note after published #{a.id}"] = lines
    return found


def test_no_page_tells_the_gm_a_command_to_type(played) -> None:
    service, clock, client, key = played
    leaks: dict[str, list[str]] = {}
    clock.set(at(0.02))
    service.tick()
    feed(service, pm("夜行者", KILL, 0.05))
    feed(service, pm("小明", "占卜 老王", 0.1))
    feed(service, pm("路人甲", "杀 小明", 0.3))  # not a player: an alert
    clock.set(at(2))
    leaks |= walk(client, "mid-night")
    clock.set(at(24.5))
    service.tick()  # the night resolves; its result waits for the GM
    assert build_status(service).waiting
    leaks |= walk(client, "dawn, the result waiting")
    leaks |= publish_waiting(service, client, key)
    service.tick()
    leaks |= walk(client, "day 1, before the vote")
    clock.set(at(36.5))
    service.tick()  # the vote opens
    leaks |= publish_waiting(service, client, key)
    service.tick()
    feed(service, post("老王", "投票：小明", 37))
    feed(service, post("月光", "投票：老王", 37.1))
    feed(service, post("阿杰", "投个 老玩", 37.2))  # a misspelt name: an alert with its fix
    clock.set(at(38))
    assert build_status(service).vote is not None
    leaks |= walk(client, "mid-vote")
    for what, fields in (("ballot", {"arg0": "阿杰", "arg1": "老王"}), ("exit", {"arg0": "老王"}),
                         ("execution", {"arg0": "夜行者"})):  # fmt: skip
        lines = act(client, key, "/g/1/override", what=what, reason="测试", **fields)
        if lines:
            leaks[f"note after override {what}"] = lines
        leaks |= walk(client, f"after override {what}")
    lines = act(client, key, "/g/1/substitute", old="白色的猫", new="路人乙", uid="77", offline="1")
    if lines:
        leaks["note after substitute"] = lines
    open_alerts = build_status(service).alerts
    assert open_alerts
    lines = act(client, key, "/g/1/alerts/ack", id=str(open_alerts[0].id))
    if lines:
        leaks["note after ack"] = lines
    leaks |= walk(client, "after a substitution")
    service.tick()
    leaks |= publish_waiting(service, client, key)
    service.tick()
    clock.set(at(80))
    service.tick()
    leaks |= publish_waiting(service, client, key)
    assert build_status(service).winner, "the game should be over"
    leaks |= walk(client, "game over")
    shown = {line: page for page, lines in leaks.items() for line in lines}
    assert not shown, "\n".join(f"{page}: {line}" for line, page in shown.items())
