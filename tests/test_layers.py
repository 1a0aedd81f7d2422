"""The layer contracts (``[tool.importlinter]`` in pyproject.toml, run by ``make lint``) hold,
and the rules core's contract forbids every third-party package the project imports anywhere:
with that, "the standard library and shenshi.rulesets only" is exactly what it checks."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import grimp
import pytest

PYPROJECT = Path(__file__).parents[1] / "pyproject.toml"


def _contracts() -> dict[str, dict]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["name"]: c for c in config["contracts"]}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("shenshi", include_external_packages=True)


def test_every_third_party_package_is_forbidden_to_the_rules_core(graph: grimp.ImportGraph) -> None:
    pure = next(c for name, c in _contracts().items() if name.startswith("rulesets are pure"))
    third_party = {
        m for m in graph.modules if m.split(".")[0] != "shenshi" and m not in sys.stdlib_module_names
    }
    missing = sorted(third_party - set(pure["forbidden_modules"]))
    assert not missing, f"add {missing} to the rulesets contract's forbidden_modules"


def test_the_contracts_name_real_layers(graph: grimp.ImportGraph) -> None:
    named = set()
    for contract in _contracts().values():
        for key in ("source_modules", "layers"):
            named.update(contract.get(key, ()))
    assert named and all(name in graph.modules for name in named), sorted(named - graph.modules)
