"""Receipts say exactly what happened and what the player can still do (issue 12), and only
what the player may know (issue 16): checked over every corpus case, and case by case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.intake.batch import run_case
from shenshi.rulesets.catalog import TEAM_NAMES
from tests.intake.phrasings import GAMES, NIGHT, cases
from tests.intake.probes import cases as probes

CORPUS = Path(__file__).parent / "corpus"
ALL = [
    json.loads(line)
    for name in ("captured.jsonl", "written.jsonl", "adversary.jsonl")
    for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()
    if line.strip()
] + cases() + probes()
PMS = [c for c in ALL if c["channel"] == "pm" or c.get("role_thread")]


@pytest.mark.parametrize("case", PMS, ids=[c["id"] for c in PMS])
def test_every_receipt_says_what_happened(case: dict) -> None:
    result = run_case(case)
    acknowledged = [r.command for r in result.receipts if r.command is not None]
    # RES-A4: the last killer's self-target is refused at once (a refusal receipt) and still
    # reaches the rules core, because it supersedes his earlier target.
    superseding = [i for i, c in enumerate(result.commands) if c.actor == c.target
                   and any(a.kind == "lone_killer_suicide" for a in result.alerts)]  # fmt: skip
    assert sorted(acknowledged + superseding) == list(range(len(result.commands))), "one receipt per command"
    if superseding:
        assert any(r.command is None for r in result.receipts), "the self-target is answered as refused"
    for r in result.receipts:
        assert r.to == case["from"]
        if r.command is None:
            assert r.text.startswith("未受理") and "已收到" not in r.text, r.text
        else:
            assert r.text.startswith("已收到") and "未受理" not in r.text, r.text
        assert "如需更改请重新发送" not in r.text and "规定的帖子" not in r.text, r.text
        # Only what the player may know: never a camp (§4.1: camps are secret while alive).
        assert not any(name in r.text for name in TEAM_NAMES.values()), r.text
        assert "己方" not in r.text and "对方" not in r.text, r.text


def _night(ruleset: str, sender: str, text: str, **facts) -> dict:
    return {**GAMES[ruleset], **NIGHT, "id": "r", "from": sender, "text": text, **facts}


def receipts(case: dict) -> list[str]:
    return [r.text for r in run_case(case).receipts]


def test_a_dead_player_is_not_invited_to_change_anything() -> None:
    [text] = receipts(_night("game6-10", "阿杰", "祈祷 老王", dead=["阿杰"]))
    assert "你已出局，不能再行动" in text and "更改" not in text


def test_a_locked_target_is_not_said_to_be_changeable() -> None:
    case = {
        **GAMES["werewolf"], **NIGHT, "channel": "post", "role_thread": "werewolf", "id": "w",
        "from": "阿狼", "text": "【杀人】稻草", "locked": {"阿狼": ["kill"]},
    }  # fmt: skip
    [text] = receipts(case)
    assert text.startswith("未受理") and "锁定" in text and "重新发送" not in text


def test_a_villager_without_the_skill_is_told_so_not_where_to_post() -> None:
    case = {**GAMES["werewolf"], **NIGHT, "id": "w", "from": "小麦", "text": "【预言】阿狼"}
    result = run_case(case)
    assert [a.kind for a in result.alerts] == ["no_power"]
    assert "不能使用" in result.receipts[0].text
    seer = run_case({**case, "from": "星星"})
    assert [a.kind for a in seer.alerts] == ["wrong_channel"]
    assert "功能树洞" in seer.receipts[0].text


def test_speed_up_names_the_day() -> None:
    base = {**GAMES["werewolf"], "channel": "post", "role_thread": True, "id": "w", "from": "小麦"}
    assert receipts({**base, "phase": "day3", "text": "同意加速"}) == ["已收到：同意第3天加速"]
    assert receipts({**base, "phase": "night3", "text": "同意加速"}) == ["已收到：同意第4天加速"]
    assert receipts({**base, "phase": "day3", "text": "同意第2天加速"}) == ["已收到：同意第2天加速"]


def test_a_swap_on_an_enemy_does_not_tell_the_general_the_camp() -> None:
    result = run_case(_night("chess32", "刘邦", "抽将：项伯"))
    assert [a.kind for a in result.alerts] == ["swap_enemy"]  # the GM knows
    [text] = [r.text for r in result.receipts]
    assert text.startswith("已收到：今晚抽将 项伯") and "提醒" not in text
    assert text == receipts(_night("chess32", "刘邦", "抽将：彭越"))[0].replace("彭越", "项伯")


def test_a_refused_name_suggests_the_player_and_what_to_do() -> None:
    [text] = receipts(_night("game6-10", "月光", "占卜 老王王"))
    assert text.startswith("未受理：占卜 老王王") and "是否指：老王" in text and "重新发送" in text


def test_conflicting_lines_leave_no_received_receipt() -> None:
    result = run_case(_night("game6-10", "阿杰", "祈祷：老王\n祈祷：小明"))
    assert result.commands == ()
    assert [r.text[:3] for r in result.receipts] == ["未受理"]


def test_chess_receipts_use_chess_words() -> None:
    setup = {**GAMES["chess32"], "phase": "signin", "channel": "pm", "id": "c", "from": "韩信"}
    [text] = receipts({**setup, "text": "禁锢：项伯"})
    assert "天亮前10分钟" not in text
    [text] = receipts(_night("chess32", "刘邦", "杀人帖：月黑风高"))
    assert text.startswith("已收到杀人帖") and "宣言" not in text
    [text] = receipts(_night("chess32", "樊哙", "炮打项伯，炮架：彭越"))
    assert "杀人帖" in text and "宣言" not in text


def test_a_refused_lone_wolf_skill_does_not_tell_the_size_of_the_pack() -> None:
    # RES-W12: 托孤 counts the wolf camp after 私奔; a wolf who eloped is not the others' to know.
    base = {**GAMES["werewolf"], "phase": "night0", "channel": "post", "role_thread": True,
            "id": "w", "from": "阿狼", "text": "【托孤】灰狼"}  # fmt: skip
    for facts in ({}, {"addons": {"灰狼": ["lover"], "小麦": ["lover"]}}):
        result = run_case({**base, **facts})
        assert [a.kind for a in result.alerts] == ["invalid_target"]
        assert "不超过" in result.alerts[0].message  # the GM is told why
        [text] = [r.text for r in result.receipts]
        assert text.startswith("未受理") and not any(w in text for w in ("不超过", "2人", "情侣", "私奔"))


def test_a_correction_is_acknowledged_with_the_latest_target_only() -> None:
    result = run_case(_night("game6-10", "月光", "占卜 老王\n不对，改成Rex"))
    assert [r.text for r in result.receipts] == ["已收到：今晚占卜 Rex，天神答复前可更改"]
    both = run_case(_night("chess32", "刘邦", "杀 项伯\n抽将 彭越"))
    texts = sorted(r.text for r in both.receipts)
    assert texts[0].startswith("已收到：今晚抽将 彭越") and texts[1].startswith("已收到：今晚杀 项伯")


@pytest.mark.parametrize(
    ("sender", "text", "quoted"),
    [
        ("Rex", "今晚我想束魂 月光，白天可以先报吗？", "束魂 月光"),  # F16: not 「今晚我想束魂」
        ("小明", "天神你好，白天能先把今晚的诅咒报给你吗？诅咒 阿杰", "诅咒 阿杰"),  # F29: the target too
        ("小明", "诅咒 阿杰", "诅咒 阿杰"),
    ],
)
def test_a_night_action_sent_by_day_is_refused_quoting_the_command_as_read(sender, text, quoted) -> None:
    from tests.intake.phrasings import DAY_PM

    case = {**GAMES["game6-10"], **DAY_PM, "id": "r", "from": sender, "text": text}
    [receipt] = receipts(case)
    assert receipt.startswith(f"未受理：{quoted}——"), receipt
    result = run_case(case)
    assert all("今晚我想" not in a.message for a in result.alerts)
