"""What the forum shows of a message we sent is still that message (shenshi.sent_text)."""

from __future__ import annotations

import pytest

from shenshi.sent_text import same_message

PAD = "（神使）"


@pytest.mark.parametrize(
    ("shown", "sent"),
    [
        ("昨夜 无人\n死亡。", "昨夜无人死亡。"),  # reflowed
        ("平安夜（神使）", "平安夜"),  # padded to the forum's minimum
        ("平安（神使）（神使）", "平安"),
        (
            "【第1夜结果】\n昨夜无人死亡。",
            "[b][color=Red]【第1夜结果】[/color][/b]\n昨夜无人死亡。",
        ),
        ("小明 被杀手杀害", "&#23567;明 被杀手杀害"),  # a reference shown as the character
        ("&#23567;明", "&#23567;明"),  # … or escaped, as it was sent
        ("A & B", "A &amp; B"),
        ("看这里", "[url=http://x.example/]看这里[/url]"),
        ("结果如下", "[quote]原帖[/quote]结果如下"),
    ],
)
def test_the_forums_rendering_of_what_we_sent_is_recognised(shown: str, sent: str) -> None:
    assert same_message(shown, sent, PAD)


@pytest.mark.parametrize(
    ("shown", "sent"),
    [
        ("昨夜无人死亡。", "昨夜小明死亡。"),
        ("平安夜（神使）", "平安夜（神使）（神使）"),  # not padding: shorter than what was sent
        ("平安夜（神使）多", "平安夜"),
        ("平安夜", "平安夜（神使）"),
    ],
)
def test_another_message_is_not_ours(shown: str, sent: str) -> None:
    assert not same_message(shown, sent, PAD)
