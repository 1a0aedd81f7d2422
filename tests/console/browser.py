"""The real browser for the console's tests: Debian's Chromium, driven by Playwright for
Python (its own driver; no browser is ever downloaded). Where either is missing, the browser
tests skip with the reason."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


def missing() -> str | None:
    """Why the browser tests cannot run here (``None``: they can)."""
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        return f"no Chromium at {CHROMIUM} (Debian package chromium; .ci/run installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright)"
    return None


def skip_without_browser() -> None:
    """Skip the calling test, with the reason, where the browser cannot run."""
    reason = missing()
    if reason:
        pytest.skip(reason)


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[object]:
    """A new browser context (its own cookies) on headless Chromium."""
    from playwright.sync_api import sync_playwright

    executable = str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
            context.set_default_timeout(15_000)
            yield context
            context.close()
        finally:
            browser.close()
