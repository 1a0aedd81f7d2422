"""No English inside the GM's Chinese alerts (gmattack2 F9: 「警长默认处理，请天神留意（no successor
named）」): every detail the rules core writes as a literal is said in the GM's words."""

from __future__ import annotations

import re
from pathlib import Path

from shenshi.daemon.gm_text import detail_words

CORE = Path(__file__).resolve().parents[2] / "shenshi" / "rulesets"
# note(who, rule, verdict, "a detail", …): the literal details, not the verdicts
VERDICTS = {"rejected", "flag", "void", "forfeit", "warning", "exit", "delegated", "overridden", "replaced", "horse"}


def literal_details() -> set[str]:
    found = set()
    call = re.compile(r'note\(\s*[^()"]*?,\s*"[a-z_]+",\s*"[a-z_]+",\s*"([^"]+)"', re.S)
    for path in CORE.rglob("*.py"):
        found.update(m[1] for m in call.finditer(path.read_text(encoding="utf-8")))
    return found - VERDICTS


def test_every_literal_detail_of_the_rules_core_is_said_in_chinese() -> None:
    details = literal_details()
    assert "no successor named" in details  # (the scan finds them)
    said = {d: re.sub(r"override [a-z-]+", "", detail_words(d)) for d in details}  # (a command to type)
    english = {d: words for d, words in said.items() if re.search(r"[A-Za-z]{3,}", words)}
    assert not english, english


def test_a_night_phase_whose_close_is_done_is_not_said_to_be_due(tmp_path) -> None:
    """gmattack2 F9: 「已到期：夜晚1截止…（下次轮询时处理）」 stayed for polls after the close had
    proposed the witch's 【通灵】 list, in the daemon and in a status run beside it."""
    from datetime import timedelta

    from shenshi.daemon.status import build_status
    from tests.daemon.helpers import werewolf_night_one

    svc, clock = werewolf_night_one(tmp_path, {"seer": "41"})
    first = svc.referee.times().phase_deadlines["1"]
    clock.set(first + timedelta(minutes=5))
    svc.tick()
    labels = [d.label for d in build_status(svc).deadlines]
    assert not [x for x in labels if "夜晚1" in x], labels
    svc.rebuild()  # another process (shenshi status) reads the same
    labels = [d.label for d in build_status(svc).deadlines]
    assert not [x for x in labels if "夜晚1" in x], labels
