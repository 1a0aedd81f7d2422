"""Which forum engine a page comes from: ``shenshi check-config`` says "this looks like a
Discuz forum" when ``[forum] engine`` names the other one.

The marks are what every page of a default install carries (the ``generator`` meta tag and the
``Powered by`` footer, as the captured pages in ``fixtures/`` show).
"""

from __future__ import annotations

import re

import httpx

from shenshi.adapters.settings import DEFAULT_USER_AGENT

MARKS: dict[str, tuple[re.Pattern[str], ...]] = {
    "discuz": (
        re.compile(r'name="generator" content="Discuz!', re.I),
        re.compile(r"Powered by Discuz!", re.I),
    ),
    "phpwind": (
        re.compile(r'name="generator" content="phpwind', re.I),
        re.compile(r"Powered by phpwind", re.I),
    ),
}
NAMES = {"discuz": "Discuz!", "phpwind": "phpwind"}


def guess_engine(page: str) -> str | None:
    """``discuz`` or ``phpwind`` if ``page`` carries that engine's marks (and not the other's)."""
    found = {engine for engine, marks in MARKS.items() if any(m.search(page) for m in marks)}
    return found.pop() if len(found) == 1 else None


def engine_at(
    base_url: str, client: httpx.Client | None = None, user_agent: str = DEFAULT_USER_AGENT
) -> str | None:
    """The engine the forum's front page shows (``None``: unknown, or the page cannot be read)."""
    own = client is None
    client = client or httpx.Client(timeout=15.0, follow_redirects=True)
    try:
        response = client.get(base_url, headers={"User-Agent": user_agent})
        return guess_engine(response.text)
    except httpx.HTTPError:
        return None
    finally:
        if own:
            client.close()
