"""A werewolf game's first nights decided in the console alone, in Chromium (issue 23): the
demo's werewolf script on the sandbox forum (its players reply in their 功能树洞 threads), the
daemon in review mode, the GM approving, editing, rejecting and undoing in the console, and
handing out a referee's penalty point from its form (the werewolf rulings are offered; game6's
are not). The forum then holds the night's result and the PMs he approved."""

from __future__ import annotations

from contextlib import ExitStack
from datetime import timedelta

import pytest

from shenshi.demo import director
from shenshi.demo.game import play
from shenshi.rulesets.base import Phase
from tests.console.browser import skip_without_browser
from tests.console.test_whole_game import EDITED, ConsoleGM

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


class WerewolfGM(ConsoleGM):
    """The console GM, who also gives one penalty point on the first day (no substitute)."""

    def __init__(self, stack) -> None:  # type: ignore[no-untyped-def]
        super().__init__(stack)
        self.substituted = "nobody"  # (the werewolf script's seats are all played)
        self.penalised: str | None = None
        self.forms: set[str] = set()

    def decide(self, daemon) -> int:  # type: ignore[no-untyped-def]
        approved = super().decide(daemon)
        state = daemon.referee.state
        if self.penalised is None and state.phase is Phase.DAY:
            self._penalty(daemon, next(s.name for s in state.alive()))
        return approved

    def _penalty(self, daemon, name: str) -> None:  # type: ignore[no-untyped-def]
        self.go("corrections")
        self.forms = {c.split("override-")[1] for c in self.page.locator("form.correction-form").evaluate_all(
            "forms => forms.map(f => f.className)") for c in c.split() if c.startswith("override-")}  # fmt: skip
        form = self.page.locator("form.override-penalty")
        form.locator("select[name=arg0]").select_option(name)
        form.locator("[name=arg1]").fill("1")
        form.locator("[name=reason]").fill("发言违规")
        form.locator("button").click()
        said = self.page.locator(".note").inner_text()
        assert f"已记录：{name} 罚分 1" in said, said
        self.penalised = name
        daemon.read_corrections()


def test_a_werewolf_night_decided_in_the_console(tmp_path, monkeypatch) -> None:
    skip_without_browser()
    with ExitStack() as stack:
        gm = WerewolfGM(stack)
        monkeypatch.setattr(director, "approve_all", gm.decide)
        run = play("werewolf", "discuz", seed=3, workdir=tmp_path, setup=gm.setup,
                   limit=timedelta(days=3, hours=14))  # fmt: skip
    assert gm.penalised, "a day came and the GM gave the point from its form"
    assert {"penalty", "send-off", "sheriff"} <= gm.forms and "extra-divination" not in gm.forms
    assert {"edit", "reject", "undo"} <= set(gm.done)
    pms = set(run.gm_pms)
    assert any(text.endswith(EDITED) for _, text in pms)  # the edited PM, as edited
    assert gm.kept["reject"] not in pms and gm.kept["undo"] in pms
    assert len(run.gm_posts) >= 2  # night 0's end and night 1's result, approved in the console
    entries = [e for e in _entries(run.log_path) if e["state"] == "gm" and e["kind"] != "deal"]
    assert entries and all(e["where"] == "天神（控制台）" for e in entries)
    assert any(e["kind"] == "override" and "罚分 1" in e["text"] for e in entries)


def _entries(path) -> list[dict]:  # type: ignore[no-untyped-def]
    import json

    jsonl = path.with_suffix(".jsonl")
    return [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line]
