"""The rules core is pure: it imports only the standard library and itself."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import shenshi.rulesets

CORE = Path(shenshi.rulesets.__file__).parent
FORBIDDEN_STDLIB = {"random", "time", "socket", "sqlite3", "subprocess", "logging", "os", "urllib", "http"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_core_imports_only_stdlib_and_itself() -> None:
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if name.startswith("shenshi.rulesets") or name == "__future__":
                continue
            if top not in sys.stdlib_module_names:
                offenders.append(f"{path.relative_to(CORE)}: {name}")
    assert not offenders, offenders


def test_core_has_no_clock_io_or_randomness() -> None:
    offenders = [
        f"{path.relative_to(CORE)}: {name}"
        for path in sorted(CORE.rglob("*.py"))
        for name in _imports(path)
        if name.split(".")[0] in FORBIDDEN_STDLIB
    ]
    assert not offenders, offenders


def test_core_never_calls_now() -> None:
    calls = []
    for path in sorted(CORE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for needle in (r"datetime\.now\(", r"utcnow\(", r"date\.today\(", r"(?<![\w.])open\("):
            if re.search(needle, text):
                calls.append(f"{path.relative_to(CORE)}: {needle}")
    assert not calls, calls
