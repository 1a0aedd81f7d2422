"""docs/intake.md documents every alert kind intake can raise."""

from __future__ import annotations

from pathlib import Path

from shenshi.intake import ALERT_KINDS

DOC = Path(__file__).parents[2] / "docs" / "intake.md"


def test_every_alert_kind_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [kind for kind in ALERT_KINDS if f"| `{kind}` |" not in text]
    assert missing == []
