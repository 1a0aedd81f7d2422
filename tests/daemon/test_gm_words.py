"""No English inside the GM's Chinese (issue 20): the rules core's details ("60 characters",
"no 【金箭】 reply"), an announcement's kind in a failed send ("death_identity（私信给 刘邦）"),
a team in the role mix ("帅(chu)") are all said in Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shenshi.daemon import gm_text
from shenshi.daemon.announce import Draft, Templates
from shenshi.daemon.keys import GameKeys
from shenshi.daemon.referee import Effects, _note_alert
from shenshi.rulesets.base import DaemonNote
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import alerts
from tests.daemon.test_service_sandbox import world  # noqa: F401 - the fixture

ENGLISH = re.compile(r"[A-Za-z]{3,}")


def details_in_the_core() -> list[str]:
    """Every detail the rules core writes as words (``f"{n} characters"`` …), filled in."""
    core = Path(gm_text.__file__).parents[1] / "rulesets"
    found = set()
    for path in core.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'note\(\s*[^,]+,\s*f?"[\w{}]+",\s*"\w+",\s*(f?"[^"]*")', text):
            literal = m.group(1)
            if "log_only=True" in text[m.end() : m.end() + 40] and "【" not in literal:
                continue  # (kept in the log only, never an alert)
            found.add(re.sub(r"\{[^}]*\}", "7", literal.removeprefix("f").strip('"')))
    return sorted(found)


@pytest.mark.parametrize("detail", details_in_the_core())
def test_every_detail_the_rules_core_writes_reaches_the_gm_in_chinese(detail) -> None:
    assert not ENGLISH.search(gm_text.detail_words(detail)), (detail, gm_text.detail_words(detail))


def test_a_short_declaration_alert_counts_in_chinese() -> None:
    state = find_ruleset("game6-10").new_game([])
    note = DaemonNote("killers", "declaration_short", "flag", "60 characters")
    message = _note_alert(Templates(), GameKeys("g1"), state, note, 0, None).message
    assert message == "杀手方：杀人宣言太短，请天神留意（60 字）"
    forced = DaemonNote("白色的猫", "forced_default", "flag", "no 【金箭】 reply")
    message = _note_alert(Templates(), GameKeys("g1"), state, forced, 0, None).message
    assert not ENGLISH.search(message) and "没有回复【金箭】" in message and "按默认处理" not in message


def test_a_failed_send_names_the_announcement_in_chinese(world) -> None:  # noqa: F811
    clock, forum, tid, service = world
    service._commit(Effects(drafts=[Draft("k1", "death_identity", "pm", "没有这个人", "韩信 是 车")]), "t", None)
    service.publish()
    [failed] = [a for a in alerts(service) if a.kind == "send_failed"]
    assert "阵亡者身份（私信给 没有这个人）" in failed.message and "death_identity" not in failed.message


def test_the_role_mix_names_teams_in_chinese(tmp_path) -> None:
    from shenshi.daemon.game_checks import _mix

    info = find_ruleset("chess32").info
    from collections import Counter

    text = _mix(Counter({("general", "chu"): 1, ("general", "han"): 1}), info)
    assert "chu" not in text and "han" not in text and "帅" in text
