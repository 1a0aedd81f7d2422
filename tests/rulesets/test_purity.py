"""The rules core is pure. Its imports are layer contracts (pyproject.toml ``[tool.importlinter]``,
run by ``make lint``; tests/test_layers.py); what an import contract cannot see are calls that
read the clock or open files through names already imported, looked for here."""

from __future__ import annotations

import re
from pathlib import Path

import shenshi.rulesets

CORE = Path(shenshi.rulesets.__file__).parent
CALLS = (r"datetime\.now\(", r"utcnow\(", r"date\.today\(", r"(?<![\w.])open\(", r"__import__\(")


def test_core_never_calls_the_clock_or_opens_files() -> None:
    calls = []
    for path in sorted(CORE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for needle in CALLS:
            if re.search(needle, text):
                calls.append(f"{path.relative_to(CORE)}: {needle}")
    assert not calls, calls
