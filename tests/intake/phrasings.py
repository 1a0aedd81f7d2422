"""Phrasings written from the rule texts (RULES.md), as players write them, with what each means.

Written before reading the grammar (issue 12), grouped by ruleset and command. Each entry is a
batch case (``docs/intake.md``, "Batch cases") built from a named game below plus the case's own
facts, and an expectation in a short notation::

    "vote 老王"                       one command, action and target
    "kill 老王 declaration_missing=false"   extras checked where given (JSON values)
    "!conditional_vote"               an alert kind, no command
    "cannon_kill 项伯 platform=彭越 & !kill_post_short"   commands and alerts together
    ""                                nothing at all: no command, no alert

:func:`cases` gives the full batch cases (``python -m tests.intake.phrasings > x.jsonl`` writes
them for ``shenshi intake --batch``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

# ---------------------------------------------------------------------------------------------
# Games

_G10_PLAYERS = ["小明", "阿杰", "Tom_2", "白色的猫", "老王", "Lily99", "夜行者", "kk_大侠", "月光", "Rex"]
_G10_ROLES = {
    "Lily99": "killer", "夜行者": "killer", "月光": "seer", "Rex": "binder", "小明": "curser",
    "老王": "blesser", "阿杰": "commoner", "Tom_2": "commoner", "白色的猫": "commoner",
    "kk_大侠": "commoner",
}  # fmt: skip
_G8_PLAYERS = ["阿狸", "大熊", "小鱼儿", "南风", "Sunny", "木头人", "糖糖", "老K"]
_G8_ROLES = {
    "阿狸": "killer", "大熊": "killer", "小鱼儿": "seer", "南风": "binder", "Sunny": "curser",
    "木头人": "blesser", "糖糖": "commoner", "老K": "commoner",
}  # fmt: skip
_G13_PLAYERS = [
    "张三", "李四", "王五", "赵六", "钱七", "孙八", "周九", "吴十", "郑一", "冯二", "陈三",
    "褚四", "卫五",
]  # fmt: skip
_G13_ROLES = {
    "张三": "alliance_killer", "李四": "alliance_killer", "王五": "independent_killer",
    "赵六": "seer", "钱七": "seer", "孙八": "binder", "周九": "binder", "吴十": "curser",
    "郑一": "blesser", "冯二": "commoner", "陈三": "commoner", "褚四": "commoner",
    "卫五": "commoner",
}  # fmt: skip
_CHU = {
    "项羽": "general", "范增": "chariot", "龙且": "chariot", "英布": "horse", "季布": "horse",
    "钟离昧": "cannon", "虞子期": "cannon", "项伯": "elephant", "项庄": "elephant",
    "曹咎": "left_advisor", "周兰": "right_advisor", "桓楚": "soldier", "丁公": "soldier",
    "陈婴": "soldier", "武涉": "soldier", "项声": "soldier",
}  # fmt: skip
_HAN = {
    "刘邦": "general", "韩信": "chariot", "萧何": "chariot", "张良": "horse", "陈平": "horse",
    "樊哙": "cannon", "周昌": "cannon", "曹参": "elephant", "周勃": "elephant",
    "夏侯婴": "left_advisor", "灌婴": "right_advisor", "彭越": "soldier", "郦食其": "soldier",
    "卢绾": "soldier", "纪信": "soldier", "王陵": "soldier",
}  # fmt: skip
_WW_ROLES = {
    "阿狼": "werewolf", "灰狼": "werewolf", "星星": "seer", "巫婆婆": "witch", "铁卫": "guard",
    "丘比": "cupid", "笛手": "piper", "小麦": "villager", "稻草": "villager", "阿土": "villager",
}  # fmt: skip

GAMES: dict[str, dict[str, Any]] = {
    "game6-10": {
        "ruleset": "game6-10", "players": _G10_PLAYERS, "roles": _G10_ROLES, "dead": [],
        "nicknames": {"猫猫": "白色的猫", "大侠": "kk_大侠"},
    },
    "game5": {"ruleset": "game5", "players": _G10_PLAYERS, "roles": _G10_ROLES, "dead": []},
    "game6-8": {
        "ruleset": "game6-8", "players": _G8_PLAYERS, "roles": _G8_ROLES, "dead": [],
        "on_duty_killer": "阿狸",
    },
    "game6-13": {"ruleset": "game6-13", "players": _G13_PLAYERS, "roles": _G13_ROLES, "dead": []},
    "chess32": {
        "ruleset": "chess32", "players": [*_CHU, *_HAN], "roles": {**_CHU, **_HAN}, "dead": [],
        "teams": {**dict.fromkeys(_CHU, "chu"), **dict.fromkeys(_HAN, "han")},
    },
    "werewolf": {"ruleset": "werewolf", "players": list(_WW_ROLES), "roles": _WW_ROLES, "dead": []},
}  # fmt: skip

# A kill declaration of 100+ characters (family A) and a kill post of 150+ (chess32).
DECL = (
    "宣言：老王你第一天劝大家冷静，表面上是在维持秩序，实际上是在控场引导票型，你的存在对我们"
    "杀手阵营是最大的威胁，所以今晚必须让你出局。月黑风高，我在你家楼下的梧桐树旁等了很久，"
    "直到你房间的灯熄灭，才轻轻推开那扇没有上锁的门。"
)
POST = (
    "杀人帖：子时三刻，楚营大帐外风雪交加，巡营的士兵刚刚走过。项伯解下披风准备歇息，帐帘"
    "忽然被掀开，一道寒光直取咽喉。项伯反手拔剑，却只来得及格开半招，第二剑已经刺穿了他的"
    "胸口。刺客蒙着面，一言不发，在雪地上留下了一串很浅的脚印，一直延伸到汉营的方向。天亮"
    "以后，巡营的士兵才发现帐中的血迹，雪已经把脚印盖住了一半，只剩下帐前那柄断剑。"
)

# ---------------------------------------------------------------------------------------------
# Phases a case runs in (merged under the case's own facts)

DAY = {"phase": "day2", "vote": {"round": 1}, "channel": "post", "thread": "vote"}
NIGHT = {"phase": "night2", "channel": "pm"}
DAY_PM = {"phase": "day2", "vote": {"round": 1}, "channel": "pm"}
SIGNIN = {"phase": "signin", "channel": "post", "thread": "signin"}
TREEHOLE = {"phase": "night2", "channel": "post"}

# (game, phase, sender, text, expectation, case facts)
Row = tuple[str, dict[str, Any], str, str, str, dict[str, Any]]


def _rows() -> Iterator[Row]:
    g, d, n, dp = "game6-10", DAY, NIGHT, DAY_PM
    none: dict[str, Any] = {}
    # --- family A ballots in the vote thread (game6-10, round 1) ---------------------------
    for text in [
        "投票：老王", "投票:老王", "投票 老王", "投票老王", "投票：【老王】", "投票：「老王」",
        "投票：老王。", "投票：老王！", "票：老王", "票投老王", "我投老王", "我投老王一票",
        "我的一票投给老王", "这一票投给老王", "投票对象：老王", "投票给老王", "投给老王",
        "【投票】老王", "投票——老王", "投票->老王", "投票 → 老王", "投老王。", "投票：@老王",
        "投票：老王（理由：划水）", "投票：老王，理由：他是不是杀手大家心里有数",
        "投票：老王 没什么好说的了", "投票：老王\n你们有什么想法就说", "投票：老王，不管怎么样都是他",
        "投票：老王\n理由：昨天他说自己是庶民，今天又改口说是职业者，前后矛盾。",
        "投票：老王。如果他是好人，我认了。", "投票：老王，有问题吗？",
        "投票：老王\n理由：如果他是好人，为什么昨天不跳？", "投票：老王（先投着）",
        "投票：老王。理由见楼上", "投票：老王，他最可疑", "投票：老王 他最可疑",
        "投票：老王因为他昨天乱跳", "投票：老王\n另外我觉得小明也很可疑",
        "投票：老王\n\n----\n签名：人生如戏，全靠演技",
        "[color=red][b]投票：老王[/b][/color]", "[size=5]投票：[color=blue]老王[/color][/size]",
        "[b]投票[/b]：老王", "[align=center][font=黑体]投票：老王[/font][/align]",
        "投票：老王????", "投票：老王😂", "投票：老王 :)", "投票：老王[s:12]", "投票：老王~~~",
        "投\u200b票：老王", "投票：\u202e老王\u202c", "投票：老王\u00ad", "投票：\ufeff老王",
        "[quote]投票：小明[/quote]\n投票：老王",
        "[quote][quote]投票：Rex[/quote]投票：小明[/quote]投票：老王",
    ]:
        yield g, d, "阿杰", text, "vote 老王 round=1", none
    for text, target in [
        ("投票：kk_大侠，理由：他是不是杀手大家心里有数", "kk_大侠"),
        ("投票：kk_大侠 没什么好说的了", "kk_大侠"),
        ("投票：kk_大侠\n你们有什么想法就说", "kk_大侠"),
        ("投票：kk_大侠，不管怎么样都是他", "kk_大侠"),
        ("投票：KK_大侠", "kk_大侠"), ("投票：ｋｋ_大侠", "kk_大侠"), ("投票：大侠", "kk_大侠"),
        ("投票：猫猫", "白色的猫"), ("投票：tom_2", "Tom_2"), ("投票：lily99", "Lily99"),
        ("投票：Rex", "Rex"), ("投票：Rex，理由：Rex 和 老王 是一伙的", "Rex"),
        ("票：Lily99", "Lily99"), ("我的一票投给夜行者", "夜行者"), ("投票对象：月光", "月光"),
        ("投票：阿杰", "阿杰"),
    ]:  # fmt: skip
        yield g, d, "阿杰", text, f"vote {target} round=1", none
    for text, expect in [
        ("投票：老王？", "!conditional_vote"),
        ("投票：老王?", "!conditional_vote"),
        ("如果老王不解释，我就投老王", "!conditional_vote"),
        ("要是今天没人跳，投票：老王", "!conditional_vote"),
        ("投票：老王 小明", "!vote_conflict"),
        ("投票：老王\n投票：小明", "!vote_conflict"),
        ("投票：老王或者小明", "!alternatives"),
        ("投票：老王或小明", "!alternatives"),
        ("投票：老王王", "!unknown_name"),
        ("投票：小明明", "!unknown_name"),
        ("投票：小明\u200b明", "!unknown_name"),
        ("投票：张三", "!unknown_name"),
        ("投票：kk大侠", "!unknown_name"),
        ("投票：弃权", "!abstain_not_allowed"),
        ("我弃权", "!abstain_not_allowed"),
        ("我觉得老王很可疑，大家怎么看？", ""),
        ("老王昨天说的话前后矛盾", ""),
        ("投票结果出来了吗？", "!unread_command"),  # a ballot word, no ballot: the GM reads it
        ("[quote]投票：老王[/quote]\n同意楼上", "!possible_ballot"),  # an echo of a ballot
    ]:
        yield g, d, "阿杰", text, expect, none
    yield g, d, "阿杰", "投票：白色的猫", "!dead_target", {"dead": ["白色的猫"]}
    yield g, d, "白色的猫", "投票：老王", "!dead_actor", {"dead": ["白色的猫"]}
    yield g, d, "Rex", "投票：老王", "!not_eligible", {"bound": "Rex"}
    yield g, d, "路人丙", "投票：老王", "!not_a_player", none
    yield g, d, "神的使者", "投票开始，格式：投票：玩家名", "", none
    yield g, d, "阿杰", "同意楼上", "!possible_ballot", {"quotes": ["投票：老王"]}
    yield g, d, "阿杰", "投票：老王", "!vote_wrong_thread", {"thread": "discussion"}
    yield g, d, "阿杰", "投票：老王", "!no_vote_open", {"vote": None}
    yield g, d, "阿杰", "投票：老王", "!vote_immutable", {"ballots": {"阿杰": ["小明"]}}
    yield g, d, "阿杰", "改投小明", "!vote_immutable", {"ballots": {"阿杰": ["老王"]}}
    runoff = {"vote": {"round": 2, "candidates": ["老王", "小明"]}}
    yield g, d, "阿杰", "投票：Rex", "!not_a_candidate", runoff
    yield g, d, "阿杰", "投票：老王", "vote 老王 round=2", runoff
    yield g, d, "阿杰", "生死投票：小明", "vote 小明 round=2", runoff
    yield g, d, "白色的猫", "投票：老王", "vote 老王 round=2 summoned=true", {
        **runoff, "dead": ["白色的猫"], "summoned": ["白色的猫"],
    }
    yield g, d, "月光", "投票：月光", "vote 月光", none
    # --- family A delegated ballots by PM ---------------------------------------------------
    for text in [
        "委托投票：老王", "委托天神帮我投老王", "委托投票给老王", "请天神帮我投老王，我明天上不了线",
        "明天出差，委托投票：老王", "委托投票：老王，谢谢", "代投：老王", "投票：老王",
        "我的一票投给老王，明天上不了线", "委托投票对象：老王", "麻烦天神代我投老王一票",
        "如果我明天没上线，就帮我投老王",
    ]:
        yield g, dp, "阿杰", text, "delegate_vote 老王", none
    yield g, dp, "Tom_2", "委托阿杰帮我投票", "!delegation_to_player", none
    yield g, dp, "阿杰", "委托投票：老王或者小明", "!alternatives", none
    yield g, dp, "阿杰", "委托投票：小明", "!delegation_published", {
        "delegations_published": ["阿杰"],
    }
    yield g, dp, "阿杰", "委托投票：老王", "!delegation_overridden", {"ballots": {"阿杰": ["Rex"]}}
    yield g, dp, "阿杰", "委托投票：老王", "!vote_closed", {
        "vote": {"round": 1, "close": "2026-03-03T20:00:00"}, "t": "2026-03-03T20:05:00",
    }
    yield g, dp, "阿杰", "请问今天几点截票？", "!not_a_command", none
    # --- family A night actions by PM (game6-10, night 2) -----------------------------------
    for actor, verb, words in [
        ("月光", "divine", [
            "占卜：老王", "占卜 老王", "占卜老王", "今晚占卜老王", "我要占卜老王", "占卜对象：老王",
            "占卜：老王是不是杀手", "占卜：老王，谢谢天神", "【占卜】老王", "查老王", "验老王",
            "老王", "占卜：老王\u200d", "[quote]占卜 Rex[/quote]占卜 老王", "占卜：【老王】",
            "[b]占卜：老王[/b]", "占卜：老王\n（如果老王被杀了就算了）", "今晚想占卜一下老王",
        ]),
        ("Rex", "bind", [
            "束魂：老王", "束魂 老王", "今晚束魂老王", "束魂对象：老王", "老王", "束魂：老王。",
            "我束魂老王",
        ]),
        ("小明", "curse", ["诅咒：老王", "诅咒 老王", "今晚诅咒老王", "诅咒对象：老王", "老王"]),
        ("阿杰", "pray", [
            "祈祷：老王", "祈祷 老王", "今晚祈祷对象：老王🙏", "祈祷老王", "为老王祈祷",
            "祈禱：老王", "老王", "祈祷对象：老王", "我祈祷给老王", "今晚祈祷：老王，保佑他平安",
            "祈祷：老王????",
        ]),
    ]:  # fmt: skip
        for text in words:
            yield g, n, actor, text, f"{verb} 老王", none
    for actor, verb, words in [
        ("老王", "bless", ["庇佑：小明", "庇佑 小明", "今晚庇佑小明", "庇佑对象：小明", "小明"]),
        ("月光", "divine", ["改占卜小明", "占卜改成小明", "占卜：小明", "占卜：猫猫"]),
    ]:
        for text in words:
            target = "白色的猫" if "猫" in text else "小明"
            yield g, n, actor, text, f"{verb} {target}", none
    yield g, n, "月光", "占卜 Tom_2", "divine Tom_2", none
    yield g, n, "月光", "占卜：tom_2", "divine Tom_2", none
    yield g, n, "月光", "占卜：月光", "divine 月光", none
    yield g, n, "Rex", "束魂：Rex", "bind Rex", none
    yield g, n, "阿杰", "祈祷：阿杰", "pray 阿杰", none
    for actor, text, expect in [
        ("月光", "占卜：老王或者小明", "!alternatives"),
        ("月光", "占卜：老王王", "!unknown_name"),
        ("月光", "占卜 小明明", "!unknown_name"),
        ("月光", "占卜：kk大侠", "!unknown_name"),
        ("月光", "请问占卜结果什么时候发？", "!not_a_command"),
        ("月光", "如果老王今晚没被杀，就占卜小明", "!conditional_action"),
        ("月光", "[quote][quote]占卜 老王[/quote]占卜 Rex[/quote]", "!not_a_command"),
        ("Rex", "如果老王今晚没被杀，就束魂小明", "!conditional_action"),
        ("Rex", "束魂：老王或小明", "!alternatives"),
        ("阿杰", "祈祷 老王?", "!conditional_action"),
        ("阿杰", "祈祷：老王？", "!conditional_action"),
        ("阿杰", "请问祈祷可以给自己吗？", "!not_a_command"),
        ("阿杰", "祈祷：老王 小明", "!action_conflict"),
        ("阿杰", "祈祷：老王\n祈祷：小明", "!action_conflict"),
        ("阿杰", "占卜：老王", "!no_power"),
        ("阿杰", "杀：老王", "!no_power"),
        ("阿杰", "谢谢天神！", "!not_a_command"),
        ("阿杰", "天神辛苦了", "!not_a_command"),
        ("阿杰", "收到", "!not_a_command"),
        ("路人丙", "祈祷 老王", "!not_a_player"),
    ]:
        yield g, n, actor, text, expect, none
    yield g, n, "月光", "占卜：白色的猫", "!dead_target", {"dead": ["白色的猫"]}
    yield g, n, "白色的猫", "祈祷：老王", "!dead_actor", {"dead": ["白色的猫"]}
    yield g, n, "月光", "占卜：Rex", "!seer_locked", {"seer_answered": ["月光"]}
    window = {"window": {"open": "2026-03-02T20:00:00", "close": "2026-03-03T20:00:00"}}
    yield g, n, "阿杰", "祈祷：老王", "!pm_window", {**window, "t": "2026-03-03T21:00:00"}
    yield g, n, "阿杰", "祈祷：老王", "pray 老王", {**window, "t": "2026-03-03T08:00:00"}
    yield g, n, "阿杰", "祈祷：老王", "", {"started": "2026-03-01T00:00:00", "t": "2026-02-20T21:00:00"}
    # killers (game6-10: a joint unit of Lily99 and 夜行者)
    ok = "declaration_missing=false"
    for text in [
        f"杀：老王\n{DECL}", f"杀人：老王\n杀人{DECL}", f"今晚杀老王\n{DECL[3:]}",
        f"杀人对象：老王\n{DECL}", f"杀 老王。杀人{DECL}", f"【杀人】老王\n{DECL}", f"{DECL}\n杀：老王",
    ]:
        yield g, n, "Lily99", text, f"kill 老王 {ok}", none
    for text in ["改杀 小明，宣言同上一条", "改杀小明，宣言不变", "改杀：小明（宣言同上）"]:
        yield g, n, "Lily99", text, f"kill 小明 {ok}", {"declared": {"Lily99": "老王"}}
    yield g, n, "Lily99", "杀：Lily99\n" + DECL, f"kill Lily99 {ok}", none
    yield g, n, "Lily99", "杀：老王", "kill 老王 & !declaration_missing", none
    yield g, n, "Lily99", "老王", "kill 老王 & !declaration_missing", none
    yield g, n, "Lily99", "杀：老王\n宣言：太短了", "kill 老王 & !declaration_short", none
    yield g, n, "夜行者", "杀：老王", "kill 老王 declaration_by=Lily99", {"declared": {"Lily99": "老王"}}
    yield g, n, "夜行者", "杀：老王", "kill 老王 & !declaration_missing", {"declared": {"Lily99": "小明"}}
    yield g, n, "Lily99", DECL, "kill_declaration", none
    yield g, n, "Lily99", "杀：Lily99\n" + DECL, "kill Lily99 & !lone_killer_suicide", {"dead": ["夜行者"]}
    yield g, n, "Lily99", "杀：老王或者小明\n" + DECL, "!alternatives", none
    yield g, n, "Lily99", "如果月光今晚跳了，就杀月光", "!conditional_action", none
    # more of the same kinds, tried after the grammar was changed
    for text, expect in [
        ("要不投老王？", "!conditional_vote"), ("投票：\n老王", "vote 老王"),
        ("我决定投老王。", "vote 老王"), ("投票：老王或小明吧", "!alternatives"),
        ("投票：老王、小明", "!vote_conflict"), ("投票：老王吧？", "!conditional_vote"),
    ]:
        yield g, d, "阿杰", text, expect, none
    yield g, dp, "阿杰", "委托：老王", "delegate_vote 老王", none
    yield g, dp, "阿杰", "天神，请帮我投老王一票，谢谢", "delegate_vote 老王", none
    yield g, n, "阿杰", "今晚我祈祷的对象是老王", "pray 老王", none
    yield g, n, "月光", "占卜对象是老王", "divine 老王", none
    yield g, n, "Rex", "束魂老王或者小明都行", "!alternatives", none
    yield g, n, "Lily99", f"今晚的目标：老王\n杀人{DECL}", f"kill 老王 {ok}", none
    yield g, n, "Lily99", "杀人：小明，宣言和之前一样", f"kill 小明 {ok}", {"declared": {"Lily99": "老王"}}
    yield g, n, "Lily99", "改杀 小明，宣言同上", "kill 小明 & !declaration_missing", none
    # --- game5 -------------------------------------------------------------------------------
    g = "game5"
    yield g, d, "阿杰", "投票：老王", "vote 老王", none
    yield g, d, "阿杰", "票：老王，理由：昨天划水", "vote 老王", none
    yield g, n, "月光", "占卜：老王", "divine 老王", none
    yield g, n, "阿杰", "今晚祈祷对象：老王🙏", "pray 老王", none
    yield g, dp, "阿杰", "委托天神帮我投老王", "delegate_vote 老王", none
    xdiv = {"extra_divination": {"actor": "阿杰", "deadline": "2026-03-03T19:00:00"}}
    yield g, dp, "阿杰", "占卜：老王", "divine 老王 extra_divination=true", {
        **xdiv, "t": "2026-03-03T12:00:00",
    }
    yield g, dp, "阿杰", "额外占卜：老王", "divine 老王 extra_divination=true", xdiv
    yield g, dp, "阿杰", "占卜：老王", "!extra_divination_deadline", {
        **xdiv, "t": "2026-03-03T19:30:00",
    }
    yield g, dp, "阿杰", "占卜：老王", "!extra_divination_used", {
        "extra_divination": {"actor": "阿杰", "used": True},
    }
    # --- game6-8 -----------------------------------------------------------------------------
    g = "game6-8"
    yield g, n, "阿狸", f"杀：糖糖\n{DECL}", f"kill 糖糖 {ok}", none
    yield g, n, "阿狸", f"杀：阿狸\n{DECL}", f"kill 阿狸 {ok}", none
    yield g, n, "大熊", f"杀：糖糖\n{DECL}", "!off_duty_killer", none
    yield g, n, "小鱼儿", "占卜：大熊", "divine 大熊", none
    yield g, n, "南风", "糖糖", "bind 糖糖", none
    yield g, n, "Sunny", "诅咒：糖糖", "curse 糖糖", none
    yield g, n, "木头人", "庇佑：糖糖", "bless 糖糖", none
    yield g, n, "糖糖", "祈祷：老K", "pray 老K", none
    yield g, d, "糖糖", "投票：老K", "vote 老K", none
    yield g, d, "糖糖", "我的一票投给老K", "vote 老K", none
    yield g, d, "糖糖", "投票：老k", "vote 老K", none
    # --- game6-13 ----------------------------------------------------------------------------
    g = "game6-13"
    yield g, n, "张三", f"杀：赵六\n{DECL}", f"kill 赵六 {ok}", none
    yield g, n, "王五", f"杀：赵六\n{DECL}", f"kill 赵六 {ok}", none
    yield g, n, "王五", f"杀：王五\n{DECL}", f"kill 王五 {ok}", none
    yield g, n, "李四", "杀：赵六", "kill 赵六 declaration_by=张三", {"declared": {"张三": "赵六"}}
    yield g, n, "王五", "杀：赵六", "kill 赵六 & !declaration_missing", {"declared": {"张三": "赵六"}}
    yield g, n, "赵六", "占卜：王五", "divine 王五", none
    yield g, n, "钱七", "占卜 张三", "divine 张三", none
    yield g, n, "赵六", "张三", "divine 张三", none
    yield g, n, "孙八", "束魂 冯二", "bind 冯二", none
    yield g, n, "冯二", "祈祷：陈三", "pray 陈三", none
    yield g, n, "吴十", "诅咒：张三", "curse 张三", none
    yield g, d, "冯二", "投票：王五", "vote 王五", none
    yield g, d, "冯二", "票：王五", "vote 王五", none
    yield g, d, "冯二", "投票：王五，理由：昨晚他跳得太急", "vote 王五", none
    # --- sign-in (game6-10) -----------------------------------------------------------------
    g = "game6-10"
    for text in ["签到", "到", "报到！", "签到，大家好", "签到～这局请多指教", "[b]签到[/b]"]:
        yield g, SIGNIN, "阿杰", text, "sign_in", none
    # --- chess32 night actions by PM --------------------------------------------------------
    g = "chess32"
    yield g, n, "刘邦", f"杀：项伯\n{POST}", "kill 项伯", none
    yield g, n, "刘邦", f"杀人：项伯\n{POST}", "kill 项伯", none
    yield g, n, "刘邦", f"今晚杀项伯\n{POST}", "kill 项伯", none
    yield g, n, "刘邦", "杀：项伯", "kill 项伯 & !kill_post_short", none
    yield g, n, "刘邦", f"杀：刘邦\n{POST}", "!self_target", none
    for text in ["抽将：彭越", "抓彭越替我抽将", "抽将 彭越", "抽彭越", "今晚抽将：彭越"]:
        yield g, n, "刘邦", text, "swap_general 彭越", none
    yield g, n, "刘邦", "抽将：项伯", "swap_general 项伯 & !swap_enemy", none
    yield g, n, "刘邦", "抽将：彭越", "!no_swaps_left", {"swaps_left": {"刘邦": 0}}
    yield g, n, "刘邦", "项伯", "!not_a_command", none
    pf = "platform=彭越"
    for text in [
        "炮打项伯，炮架：彭越", "炮打项伯，彭越做炮架", "炮打项伯（炮架：彭越）",
        "以彭越为炮架，炮打项伯", "用彭越当炮架子，炮打项伯", "炮架子：彭越\n炮打：项伯",
        "目标：项伯\n炮架子：彭越", "架 彭越 打 项伯", "用彭越当炮架子，打项伯", "隔着彭越打项伯",
        "炮：项伯（架子：彭越）", "炮打项伯，架子彭越", "炮打：项伯\n炮架：彭越",
        "炮架：彭越，炮打项伯",
    ]:
        yield g, n, "樊哙", f"{text}\n{POST}", f"cannon_kill 项伯 {pf}", none
    yield g, n, "樊哙", "炮打项伯，炮架子：彭越。明天见", (
        f"cannon_kill 项伯 {pf} declaration_chars=0 & !kill_post_short"
    ), none
    yield g, n, "樊哙", f"炮打项伯\n{POST}", "!invalid_platform", none
    for text in ["炮轰项伯，以彭越为架", "拿彭越做炮架子打项伯", "隔彭越打项伯", "目标项伯，炮架彭越"]:
        yield g, n, "樊哙", f"{text}\n{POST}", f"cannon_kill 项伯 {pf}", none
    for text, expect in [
        ("炮打项伯，炮架：彭越或者郦食其", "!alternatives"),
        ("炮打项伯，炮架：刘邦", "!invalid_platform"),
        ("炮打项伯，炮架：项伯", "!invalid_platform"),
        ("炮打项伯，炮架：樊哙", "!invalid_platform"),
        ("炮打樊哙，炮架：彭越", "!self_target"),
        ("如果项伯今晚没死，炮打项庄，炮架：彭越", "!conditional_action"),
    ]:
        yield g, n, "樊哙", f"{text}\n{POST}", expect, none
    yield g, n, "樊哙", f"炮打项伯，炮架：彭越\n{POST}", "!invalid_platform", {"dead": ["彭越"]}
    for actor, verb, words in [
        ("韩信", "imprison", ["禁锢：项伯", "禁锢 项伯", "今晚禁锢项伯", "项伯", "禁锢对象：项伯"]),
        ("张良", "check", ["查证：项伯", "查证 项伯", "查项伯", "项伯", "今晚查证项伯"]),
        ("曹参", "protect", ["救治：项伯", "保护：项伯", "救 项伯", "项伯", "今晚救治项伯"]),
        ("夏侯婴", "curse", ["诅咒：项伯", "诅咒 项伯", "项伯"]),
        ("灌婴", "bless", ["庇佑：项伯", "庇佑 项伯", "项伯"]),
        ("郦食其", "pray", ["祈祷：项伯", "祈祷 项伯", "项伯", "今晚祈祷对象：项伯🙏", "为项伯祈祷"]),
    ]:  # fmt: skip
        for text in words:
            yield g, n, actor, text, f"{verb} 项伯", none
    for actor, text, expect in [
        ("韩信", "禁锢：项羽", "!general_target"),
        ("韩信", "禁锢：韩信", "!self_target"),
        ("张良", "查证：陈平", "!self_target"),
        ("曹参", "救治：刘邦", "!general_target"),
        ("曹参", "救治：曹参", "protect 曹参"),
        ("郦食其", "祈祷 项伯?", "!conditional_action"),
        ("郦食其", "祈祷：刘邦", "!general_target"),
        ("郦食其", "祈祷：项伯或者项庄", "!alternatives"),
    ]:
        yield g, n, actor, text, expect, none
    deadline = {"deadline": "2026-03-03T05:50:00"}
    yield g, n, "郦食其", "祈祷：项伯", "!after_deadline", {**deadline, "t": "2026-03-03T05:55:00"}
    yield g, n, "卢绾", "祈祷：项伯", "!dead_actor", {"dead": ["卢绾"]}
    # --- chess32 ballots in the vote thread --------------------------------------------------
    for text in [
        "投票：项伯", "票：项伯", "我的一票投给项伯", "投票对象：项伯",
        "[color=red][b]投票：项伯[/b][/color]", "投票：项伯，理由：昨天他一直在带节奏",
    ]:
        yield g, d, "郦食其", text, "vote 项伯", none
    for text in ["弃权", "投票：弃权", "弃票", "我弃权"]:
        yield g, d, "郦食其", text, "abstain", none
    yield g, d, "郦食其", "投票：项伯？", "!conditional_vote", none
    yield g, d, "郦食其", "如果项伯不解释就投他", "!conditional_vote", none
    yield g, d, "郦食其", "改投项庄", "vote 项庄 change=true", {"ballots": {"郦食其": ["项伯"]}}
    yield g, d, "郦食其", "改投季布", "!change_limit", {"ballots": {"郦食其": ["项伯", "项庄"]}}
    yield g, d, "郦食其", "改投项庄", "!last_hour_change", {
        "ballots": {"郦食其": ["项伯"]}, "vote": {"round": 1, "close": "2026-03-03T20:00:00"},
        "t": "2026-03-03T19:30:00",
    }
    yield g, d, "郦食其", "投票：英布", "!not_a_candidate", {
        "vote": {"round": 2, "candidates": ["项伯", "项庄"]},
    }
    yield g, d, "路人丙", "投票：项伯", "!spectator_post", none
    yield g, dp, "郦食其", "投票：项伯", "!wrong_channel", none
    yield g, d, "郦食其", "路过", "!content_free_post", none
    # --- werewolf: 功能树洞 replies and day ballots --------------------------------------------
    g, t = "werewolf", TREEHOLE
    wolves = {"role_thread": "werewolf"}
    own = {"role_thread": True}
    for text, expect in [
        ("【杀人】小麦", "kill 小麦"),
        ("【杀人】小麦\n【杀人】稻草", "kill 稻草"),
        ("【杀人】小麦\n【杀人】稻草\n确定", "kill 稻草 confirm=true"),
        ("【杀人】小麦\n确定", "kill 小麦 confirm=true"),
        ("杀人：小麦", "kill 小麦"),
        ("【杀人】：小麦", "kill 小麦"),
        ("【杀人】小麦\n（今晚月色真好，就他了）", "kill 小麦"),
        ("【杀人】小麦或者稻草", "!alternatives"),
        ("【杀人】小麦\n确定\n【杀人】稻草", "kill 小麦 confirm=true & !locked"),
    ]:
        yield g, t, "阿狼", text, expect, wolves
    yield g, t, "阿狼", "【杀人】稻草", "!locked", {**wolves, "locked": {"阿狼": ["kill"]}}
    yield g, t, "路人丙", "【杀人】小麦", "!not_a_player", wolves
    for actor, text, expect, facts in [
        ("星星", "【预言】阿狼", "divine 阿狼", {}),
        ("星星", "预言：阿狼", "divine 阿狼", {}),
        ("星星", "【预言】阿狼\n确定", "divine 阿狼 confirm=true", {}),
        ("巫婆婆", "【救药】小麦", "heal 小麦", {"witch_vision": ["小麦"]}),
        ("巫婆婆", "【救药】稻草", "!heal_not_in_vision", {"witch_vision": ["小麦"]}),
        ("巫婆婆", "【毒药】阿狼", "poison 阿狼", {}),
        ("巫婆婆", "【毒药】阿狼", "!skill_used", {"used_skills": ["poison"]}),
        ("铁卫", "【守护】小麦", "guard 小麦", {}),
        ("铁卫", "【守护】小麦", "!guard_once", {"guarded_before": ["小麦"]}),
        ("铁卫", "【隔音】小麦", "silence_guard 小麦", {}),
        ("笛手", "【吹笛】小麦", "pipe 小麦", {}),
        ("小麦", "同意第2天加速", "speed_up day=2", {}),
        ("小麦", "同意加速", "speed_up day=2", {"phase": "day2"}),
        ("小麦", "减速", "slow_down", {"phase": "day2"}),
        ("小麦", "请问今晚截止时间是几点？", "!not_a_command", {}),
    ]:
        yield g, t, actor, text, expect, {**own, **facts}
    for text in ["投票：阿狼", "票：阿狼", "投票：阿狼????????", "我的一票投给阿狼", "投票对象：阿狼"]:
        yield g, d, "小麦", text, "vote 阿狼", none
    yield g, d, "小麦", "投票：阿狼????？", "!conditional_vote", none  # an emoji, then a question
    yield g, d, "小麦", "投票：灰狼", "vote 灰狼", {"ballots": {"小麦": ["阿狼"]}}
    yield g, d, "稻草", "投票：阿狼", "!sent_off", {"sent_off": ["稻草"]}


def cases() -> list[dict[str, Any]]:
    """Every phrasing as a full batch case with its expectation (``expect``)."""
    out = []
    for n, (game, phase, sender, text, expect, facts) in enumerate(_rows(), start=1):
        case = {"id": f"rules-{n:03d}", **GAMES[game], **phase, **facts, "from": sender}
        case["text"] = text
        case["expect"] = parse_expectation(expect)
        out.append(case)
    return out


def _value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def parse_expectation(notation: str) -> dict[str, Any]:
    """``"kill 老王 confirm=true & !locked"`` → ``{"commands": [...], "alerts": [...]}``."""
    commands: list[dict[str, Any]] = []
    alerts: list[str] = []
    for part in filter(None, (p.strip() for p in notation.split("&"))):
        if part.startswith("!"):
            alerts.append(part[1:])
            continue
        action, *rest = part.split()
        target = rest[0] if rest and "=" not in rest[0] else None
        extra = dict(w.split("=", 1) for w in rest if "=" in w)
        commands.append(
            {"action": action, "target": target, "extra": {k: _value(v) for k, v in extra.items()}}
        )
    return {"commands": commands, "alerts": alerts}


if __name__ == "__main__":  # pragma: no cover - writes the batch file
    for case in cases():
        sys.stdout.write(json.dumps(case, ensure_ascii=False) + "\n")
