"""The real-forum suite (``make test-real``): runs only against forums the environment names
(tests/real/forums.py, the README); every test is marked ``real`` and left out of ``make test``.
The summary lines (one per forum and game) are printed at the end of the run."""

from __future__ import annotations

import pytest

from tests.real.forums import configured

SUMMARY: list[str] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/real/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.real)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``real_forum``: each configured forum (the engines a test wants); ``real_game``: each
    configured forum with each game it plays (``GAMES`` of the test module). Nothing
    configured: one skipped case saying which variables are missing."""
    wants_game = "real_game" in metafunc.fixturenames
    if "real_forum" not in metafunc.fixturenames and not wants_game:
        return
    marker = metafunc.definition.get_closest_marker("engines")
    wanted = set(marker.args) if marker else None
    found, missing = configured()
    chosen = [s for s in found if wanted is None or s.engine in wanted or s.id in wanted]
    if wants_game:
        games = getattr(metafunc.module, "GAMES", {})
        cases = [(s, ruleset) for s in chosen for ruleset in games.get(s.id, ())]
        ids = [f"{s.id}-{ruleset}" for s, ruleset in cases]
        name, values = "real_game", cases
    else:
        name, values, ids = "real_forum", chosen, [s.id for s in chosen]
    if values:
        metafunc.parametrize(name, values, ids=ids)
        return
    reason = ("no real forum configured (" + "; ".join(missing) + ")") if not found else "no configured forum applies"
    metafunc.parametrize(name, [pytest.param(None, marks=pytest.mark.skip(reason=reason))], ids=["none"])


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if SUMMARY:
        terminalreporter.section("shenshi on real forums")
        for line in SUMMARY:
            terminalreporter.write_line(line)
