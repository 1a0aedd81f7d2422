"""``make screenshots``: the console's main pages in headless Chromium, as PNGs for the README.

``python -m tests.console.screenshots FOLDER`` plays a game6-10 offline to the second day's
vote (the night by PM, the seer's PM edited, a stranger's PM, sign-in posts, ballots), serves
the console over it and saves each page. Never run by the tests (they never rewrite tracked
files).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.daemon.status import record_poll
from tests.console.browser import chromium, missing
from tests.console.conftest import feed, midgame
from tests.console.serving import served, signed_in_url
from tests.daemon.helpers import START, announcements, at, post

PAGES = {"now": "", "review": "review", "alerts": "alerts", "players": "players",
         "timeline": "timeline", "corrections": "corrections"}  # fmt: skip
SIGN_IN = {"夜行者": 1, "老王": 2, "小明": 3, "月光": 1, "阿杰": 2, "Lily99": 1, "白色的猫": 2, "kk_大侠": 1}
BALLOTS = (("小明", "老王", 37.1), ("月光", "老王", 37.3), ("老王", "小明", 37.4), ("阿杰", "老王", 38.0))


def showcase(folder: Path):
    """A game at day 2's vote, as the README's screenshots show it."""
    clock = ManualClock(START)
    game = midgame(folder, clock)
    hours = 1.0
    for name, posts in SIGN_IN.items():  # sign-in and chatter on the game board
        for _ in range(posts):
            hours += 0.7
            feed(game, post(name, f"签到，{name} 在此。", hours))
    result = next(a for a in announcements(game) if a.kind == "night_result")
    feed(game, post("神的使者", result.text, 24.6))
    clock.set(at(37))
    game.tick()
    for voter, target, when in BALLOTS:
        feed(game, post(voter, f"投票：{target}\n理由：[b]发言太少[/b]", when))
    clock.set(at(38.5))
    record_poll(game.store, game.game_id, clock())  # the daemon is polling
    return game


def main(argv: list[str]) -> int:
    """Write one PNG per page into the folder named by ``argv[0]``."""
    reason = missing()
    if reason:
        print(f"screenshots: {reason}", file=sys.stderr)
        return 2
    out = Path(argv[0] if argv else "docs/console")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        game = showcase(Path(tmp))
        with served([game]) as console, chromium(1200, 800) as context:
            page = context.new_page()
            page.goto(signed_in_url(console))
            for name, path in PAGES.items():
                page.goto(f"{console.url}/g/1/{path}")
                if name == "review":
                    page.locator("details.evidence").first.evaluate("d => d.open = true")
                if name == "players":
                    page.locator("button.reveal").nth(2).click()
                    page.locator(".role:visible").first.wait_for()
                target = out / f"{name}.png"
                page.screenshot(path=str(target), full_page=name not in ("review",))
                print(target)
        game.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
