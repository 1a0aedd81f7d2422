"""gmattack A2/A4: `override answered` accepted a player who has no divination, and the werewolf
rulings on a game6 game were refused in English (「game6-10 has no GM ruling 'sheriff'」)."""

from __future__ import annotations

import pytest

from shenshi.daemon import gm_commands
from shenshi.errors import UserError
from tests.daemon.helpers import at, started


def test_only_a_seer_is_answered(tmp_path) -> None:
    svc, clock = started(tmp_path)
    clock.set(at(1))
    with pytest.raises(UserError) as refused:
        gm_commands.correct(svc, "answered", ["Lily99"])  # the blesser
    assert "不是占卜者" in str(refused.value) and "没有改动" in str(refused.value), refused.value
    assert "已记录" in gm_commands.correct(svc, "answered", ["小明"]).lines[0]  # the seer


@pytest.mark.parametrize(("what", "args", "word"), [
    ("sheriff", ["小明"], "交警徽"), ("penalty", ["小明", "3"], "罚分"), ("send-off", ["小明"], "罚下"),
])  # fmt: skip
def test_a_werewolf_ruling_on_another_game_is_refused_in_chinese(tmp_path, what, args, word) -> None:
    svc, clock = started(tmp_path)
    clock.set(at(1))
    with pytest.raises(UserError) as refused:
        gm_commands.correct(svc, what, args, reason="测试")
    said = str(refused.value)
    assert f"「{word}」" in said and "GM ruling" not in said, said


def test_a_family_a_ruling_on_a_werewolf_game_is_refused_in_its_words(tmp_path) -> None:
    """recheck2 A4: 「这个规则集没有「extra_divination」这一更正（只有狼人杀有）」: the id, and the
    wrong way round."""
    from shenshi.demo.script import load_script

    svc, clock = started(tmp_path, "werewolf", script=load_script("werewolf"))
    with pytest.raises(UserError) as refused:
        gm_commands.correct(svc, "extra-divination", ["小明"])
    said = str(refused.value)
    assert "「额外占卜」" in said and "游戏五" in said and "只有狼人杀有" not in said, said
