"""A whole sandbox game in which the GM makes every decision in the console, in Chromium.

The demo's game6-10 plays on the sandbox forum (scripted players, the daemon in review mode in
this process, as :func:`shenshi.demo.game.play` runs it); where the demo's GM approves every
proposal by itself (``approve_all``), here the GM works the console served over the daemon's
store: he edits one PM, rejects one, marks one published by hand, approves the rest (one by
one and all at once), acknowledges the alerts, and puts a substitute in a survivor's seat at a
dawn. The daemon sends what he approved to the sandbox; the game ends as the script says.
"""

from __future__ import annotations

import pytest

from shenshi.bootstrap import bootstrap
from shenshi.demo import director
from shenshi.demo.game import play
from shenshi.demo.world import STRANGER
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import DestinationKind
from tests.console.browser import chromium, skip_without_browser
from tests.console.serving import served, signed_in_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
EDITED = "\n（天神在控制台审核过）"


class ConsoleGM:
    """The GM in the browser: :meth:`decide` replaces the demo's ``approve_all``."""

    def __init__(self, stack) -> None:  # type: ignore[no-untyped-def]
        self.stack = stack  # closes the console and the browser at the end
        self.world = None
        self.page = None
        self.console = None
        self.done: dict[str, int] = {}  # decision → announcement id
        self.kept: dict[str, tuple[str, str]] = {}  # decision → (recipient, text) of that PM
        self.acked = 0
        self.unacked = 0
        self.fixed: list[str] = []  # alerts fixed from their form
        self.typo_open = 0  # misspelt-ballot alerts seen open, with their fix
        self.substituted: str | None = None
        self.clicks = 0

    def setup(self, world) -> None:  # type: ignore[no-untyped-def]
        self.world = world

    def _open(self, daemon) -> None:  # type: ignore[no-untyped-def]
        service = bootstrap(daemon.config, store=daemon.store, clock=daemon.clock, forum=False)
        service.start()
        self.console = self.stack.enter_context(served([service]))
        context = self.stack.enter_context(chromium())
        self.page = context.new_page()
        self.page.on("dialog", lambda dialog: dialog.accept())  # he confirms what he is asked
        self.page.goto(signed_in_url(self.console))

    def go(self, path: str) -> None:
        self.page.goto(f"{self.console.url}/g/1/{path}")

    def click(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.clicks += 1

    def decide(self, daemon) -> int:  # type: ignore[no-untyped-def]
        """The GM's turn after a daemon cycle; how many he approved."""
        if self.page is None:
            self._open(daemon)
        if self.substituted is None and daemon.referee.state.phase is Phase.DAWN:
            self._substitute(daemon)
        approved = self._review(daemon)
        self._alerts(daemon)
        return approved

    def _proposed(self, daemon) -> list:  # type: ignore[no-untyped-def]
        with daemon.store.snapshot() as uow:
            return uow.outbox.announcements(daemon.game_id, [AnnouncementState.PROPOSED])

    def _review(self, daemon) -> int:  # type: ignore[no-untyped-def]
        proposed = self._proposed(daemon)
        if not proposed:
            return 0
        self.go("review")
        pms = [a for a in proposed if a.destination_kind is DestinationKind.USER]
        for decision in ("edit", "reject", "undo", "published"):
            if decision in self.done or not pms:
                continue
            a = pms.pop(0)
            box = f"#a{a.id}"
            if decision == "edit":
                self.click(f"{box} details.edit summary")
                self.page.locator(f"{box} textarea[name=text]").fill(a.text + EDITED)
                self.click(f"{box} button.save")
                assert "shenshi" not in self.page.locator(".note").inner_text()  # no command to type
                self.click(f"{box} button.approve")
            elif decision == "reject":
                self.click(f"{box} button.reject")
            elif decision == "undo":  # rejected by mistake, taken back from the note's button
                self.click(f"{box} button.reject")
                self.click(f".note button.offer >> text=撤销放弃 #{a.id}")
                assert f"#{a.id} 待审" in self.page.locator(".note").inner_text()
            else:
                self.click(f"{box} button.published")
            assert "没有执行" not in self.page.locator(".note").inner_text()
            self.done[decision] = a.id
            self.kept[decision] = (a.destination, a.text)
        left = self._proposed(daemon)
        if len(left) > 1:
            self.click("form.approve-all button")  # (asked first: he confirms)
        elif left:
            self.click(f"#a{left[0].id} button.approve")
        assert not self._proposed(daemon)
        return len(proposed)

    def _alerts(self, daemon) -> None:  # type: ignore[no-untyped-def]
        with daemon.store.snapshot() as uow:
            waiting = uow.alerts.raised(daemon.game_id, unacknowledged=True)
        if not waiting:
            return
        self.go("alerts")
        self._fix_from_the_alert()
        if len(waiting) > 1:
            self.click("article.alert-item >> nth=0 >> button.ack")
            self.acked += 1
            if not self.unacked:  # read too fast: taken back from the note, then read again
                self.click(".note button.offer")
                self.unacked += 1
                self.click("article.alert-item >> nth=0 >> button.ack")
        self.click("form button.ack-all" if len(waiting) > 1 else "button.ack")
        self.acked += len(waiting) - (1 if len(waiting) > 1 else 0)
        assert self.page.locator("#alert-count").count() == 0

    def _fix_from_the_alert(self) -> None:
        """A misspelt ballot's alert carries its fix (代记选票, the close name chosen): he
        submits it as it is prefilled."""
        for card in self.page.locator("article.alert-item").all():
            if "名字对不上玩家" not in card.inner_text() or card.locator("form.hint-form").count() == 0:
                continue
            self.typo_open += 1
            form = card.locator("form.hint-form").first
            chosen = form.locator("select option:checked").first.inner_text() if form.locator("select").count() else ""
            form.locator("button.hint-button").click()
            self.clicks += 1
            said = self.page.locator(".note").inner_text()
            assert "没有执行" not in said and "已记录" in said, said
            self.fixed.append(chosen)
            return

    def _substitute(self, daemon) -> None:  # type: ignore[no-untyped-def]
        """A survivor of the whole script leaves at a dawn; the spectator takes his seat."""
        script = self.world.script
        dead = {n for e in script.expected.values() for n in e.deaths}
        leaving = next(n for n in script.names if n not in dead)
        self.go("corrections")
        form = "form.substitute"
        self.page.locator(f"{form} select[name=old]").select_option(leaving)  # picked, not typed
        self.page.locator(f"{form} input[name=new]").fill(STRANGER)
        self.page.locator(f"{form} input[name=uid]").fill(str(self.world.forum.user(STRANGER).uid))
        self.click(f"{form} button")
        assert f"{STRANGER} 接替 {leaving} 的座位，立即生效" in self.page.locator(".note").inner_text()
        self.substituted = leaving
        account = self.world.account  # from now on the spectator plays the seat
        self.world.account = lambda name: STRANGER if name == leaving else account(name)
        daemon.read_corrections()  # what the daemon's next cycle does first


def test_a_whole_game_decided_in_the_console(tmp_path, monkeypatch) -> None:
    skip_without_browser()
    from contextlib import ExitStack

    with ExitStack() as stack:
        gm = ConsoleGM(stack)
        monkeypatch.setattr(director, "approve_all", gm.decide)
        run = play("game6-10", "discuz", seed=3, workdir=tmp_path, setup=gm.setup)
    assert run.direction.finished and run.forum_record.winner == run.script.winner
    assert set(gm.done) == {"edit", "reject", "undo", "published"} and gm.substituted and gm.acked
    assert gm.unacked == 1
    # a misspelt ballot still open when he looked was fixed from its alert (the player's own
    # correction may close it first: tests/console/test_browser_corrections.py always fixes one)
    assert gm.fixed or not gm.typo_open
    sent = {text for _, text in run.gm_pms}
    assert any(text.endswith(EDITED) for text in sent)  # the edited PM, as edited
    pms = set(run.gm_pms)
    assert gm.kept["reject"] not in pms  # the rejected PM never reached the forum
    assert gm.kept["undo"] in pms  # the one taken back was approved and sent
    log = [e for e in _entries(run.log_path) if e["state"] == "gm"]
    by = {e["kind"] for e in log if e["where"] == "天神（控制台）"}
    assert {"approve", "edit", "reject", "published", "ack", "substitute"} <= by
    assert all(e["where"] == "天神（控制台）" for e in log if e["kind"] != "deal")


def _entries(path) -> list[dict]:  # type: ignore[no-untyped-def]
    import json

    jsonl = path.with_suffix(".jsonl")
    return [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line]
