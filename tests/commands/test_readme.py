"""The README's role ids are the catalog's: the table between the ``roles`` markers is generated
from :mod:`shenshi.rulesets.catalog`, so it cannot drift. ``python -m tests.commands.test_readme``
prints the table to paste."""

from __future__ import annotations

import re
from pathlib import Path

from shenshi.rulesets.registry import RULESETS

README = Path(__file__).parents[2] / "README.md"
BLOCK = re.compile(r"(<!-- roles:begin[^>]*-->\n)(.*?)(<!-- roles:end -->)", re.S)


def role_table() -> str:
    """The markdown table of every ruleset's roles, their Chinese names and counts."""
    lines = ["| ruleset | roles (id 中文 ×count) |", "|---|---|"]
    for ruleset in RULESETS:
        info = ruleset.info
        roles = ", ".join(
            f"`{role.id}` {role.chinese} ×{info.composition.get(role.id, 0)}"
            for role in info.roles.values()
        )
        per = " (each camp: " + ", ".join(info.teams) + ")" if info.composition_per_team else ""
        aliases = ", ".join(f"`{a}`" for a in getattr(ruleset, "aliases", ()))
        lines.append(
            f"| `{ruleset.name}` {info.chinese}{f' ({aliases})' if aliases else ''} | {roles}{per} |"
        )
    return "\n".join(lines) + "\n"


def test_the_readme_lists_every_rulesets_role_ids() -> None:
    found = BLOCK.search(README.read_text(encoding="utf-8"))
    assert found, "README.md has no roles block"
    assert found.group(2) == role_table(), "regenerate: python -m tests.commands.test_readme"


if __name__ == "__main__":  # pragma: no cover
    text = README.read_text(encoding="utf-8")
    README.write_text(
        BLOCK.sub(lambda m: m.group(1) + role_table() + m.group(3), text), encoding="utf-8"
    )
    print(role_table(), end="")
