"""The demo reads the GM's posts through the templates the daemon wrote them with: a GM who
changes a title or a cause still has his game read right, and a reader with other templates
does not mistake them."""

from __future__ import annotations

from datetime import datetime

from shenshi.daemon.announce import public_text
from shenshi.demo.record import forum_outcome
from shenshi.wording import Templates
from tests.demo.test_record import a_family_a_game

AT = datetime(2026, 12, 8, 20, 0)
NAMES = ["小明", "阿杰", "Rex", "老王"]
OURS = Templates({
    "night_title": "◆ 第${n}晚 天亮了 ◆",
    "day_title": "◆ 第${n}日 投票结果 ◆",
    "cause_killer": "倒在了杀手的刀下",
    "executed": "今日处决：${name}（${value}）",
    "winner": "游戏结束，${camp}胜！",
    "runoff": "平票：${names}，明日再投",
})  # fmt: skip


def posts(t: Templates) -> list[tuple[str, datetime]]:
    night, runoff, final = a_family_a_game()
    return [
        (public_text(t, t.render("night_title", n=1), night, {}), AT),
        (public_text(t, t.render("day_title", n=1), runoff, {}), AT),
        (public_text(t, t.render("day_title", n=1), final, {}), AT),
    ]


def test_the_gm_s_own_templates_are_read_back() -> None:
    record = forum_outcome(posts(OURS), NAMES, OURS)
    assert record.comparable() == [
        ("night1", (("Rex", "killer"), ("老王", "bind_failure")), None, False),
        ("day1", (("阿杰", "execution"),), "阿杰", True),
        ("winner", "civilians"),
    ]


def test_posts_in_other_words_are_not_read_as_results() -> None:
    assert forum_outcome(posts(OURS), NAMES, Templates()).steps == []
    assert forum_outcome(posts(Templates()), NAMES, OURS).steps == []
