"""A PM's title where the engine requires one (phpwind): its first clause within 20 characters,
never cut inside a word, a number or a bracket (issue 20: titles cut mid-word at 20)."""

from __future__ import annotations

import pytest

from shenshi.adapters.text import pm_title


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("已收到：今晚杀 Rex（杀人宣言 120 字），结算前可更改", "已收到：今晚杀 Rex"),
        ("【第1夜结果】\n平安夜，无人死亡。", "【第1夜结果】"),
        ("你在《test game》中的身份是：杀手（杀手方）。请妥善保密。", "你在《test game》中的身份是"),
        ("你的同伴：Lily99、kk_大侠、Tom_2、白色的猫。", "你的同伴：Lily99、kk_大侠"),
        ("韩信 是 车", "韩信 是 车"),
        ("", "消息"),
    ],
)
def test_a_title_ends_at_a_clause(text, title) -> None:
    assert pm_title(text) == title
    assert len(pm_title(text)) <= 20
