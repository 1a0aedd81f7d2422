"""docs/intake.md documents every alert kind intake can raise, with the reason its receipt gives
(the table is generated from the code, so it cannot drift)."""

from __future__ import annotations

from pathlib import Path

from shenshi.intake import ALERT_KINDS
from shenshi.wording.docs import alert_table

DOC = Path(__file__).parents[2] / "docs" / "intake.md"


def test_every_alert_kind_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [kind for kind in ALERT_KINDS if f"| `{kind}` |" not in text]
    assert missing == []


def test_the_alert_table_is_the_generated_one() -> None:
    assert alert_table() in DOC.read_text(encoding="utf-8"), (
        "docs/intake.md: replace the alert table with shenshi.wording.docs.alert_table()"
    )
