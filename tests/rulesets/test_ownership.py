"""Rulesets own their rules: outside ``shenshi/rulesets/`` no code asks which ruleset (or
family of rulesets) is running, probes a ruleset for a hook, or reaches into one ruleset's
modules. What the rest of the code needs is the ruleset's profile and the hooks declared on
:class:`~shenshi.rulesets.base.Ruleset` (python-chess ``variant.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shenshi.rulesets.base import Ruleset
from shenshi.rulesets.registry import RULESETS

PACKAGE = Path(__file__).resolve().parents[2] / "shenshi"
OUTSIDE = sorted(p for p in PACKAGE.rglob("*.py") if "rulesets" not in p.relative_to(PACKAGE).parts)
NAMES = {r.name for r in RULESETS} | {a for r in RULESETS for a in r.aliases} | {"A", "chess"}
HOOKS = {
    name
    for r in (Ruleset, *(type(r) for r in RULESETS))
    for name, value in vars(r).items()
    if callable(value) and not name.startswith("__")
}
INTERNALS = ("shenshi.rulesets.family_a", "shenshi.rulesets.chess", "shenshi.rulesets.werewolf")


def _strings(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {s for e in node.elts for s in _strings(e)}
    return set()


def leaks(source: str) -> list[tuple[int, str]]:
    """Where ``source`` branches on the ruleset or its family, or probes a ruleset hook."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "family":
            found.append((node.lineno, ".family"))
        elif isinstance(node, ast.Name) and node.id == "family":
            found.append((node.lineno, "a variable named family"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            about = any("ruleset" in ast.unparse(s) or "family" in ast.unparse(s) for s in sides)
            named = set().union(*(_strings(s) for s in sides)) & NAMES
            if about and named:
                found.append((node.lineno, f"a comparison with the ruleset name {sorted(named)[0]!r}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and _strings(node.args[1]) & HOOKS
        ):
            found.append((node.lineno, f"{node.func.id}() probing a ruleset hook"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(m.startswith(INTERNALS) for m in modules):
                found.append((node.lineno, f"an import of one ruleset's modules ({modules[0]})"))
    return found


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_ruleset_knowledge_outside_the_rulesets(path: Path) -> None:
    where = [f"{path.name}:{line}: {what}" for line, what in leaks(path.read_text(encoding="utf-8"))]
    assert not where, "\n".join(where)


@pytest.mark.parametrize(
    "source",
    [
        'if ctx.family == "A": pass',
        "x = ruleset_info(name).family",
        'if self.script.ruleset == "werewolf": pass',
        'causes = args.ruleset not in ("chess32", "werewolf")',
        'vision = getattr(self.ruleset, "witch_vision", None)',
        'ok = hasattr(rules, "completion")',
        "from shenshi.rulesets.family_a.clock import SIGN_IN",
        "import shenshi.rulesets.werewolf.settings",
    ],
)
def test_the_check_finds_each_kind_of_leak(source: str) -> None:
    assert leaks(source)


def test_the_check_leaves_other_code_alone() -> None:
    source = (
        'if target.role != "werewolf": pass\n'  # a role, not the ruleset
        'adapter = getattr(self.adapter, "own_uid", None)\n'
        "from shenshi.rulesets.profile import SkillChannel\n"
    )
    assert leaks(source) == []
