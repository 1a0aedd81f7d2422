"""Probes of the classes of fault an adversarial black-box test found (notes of 2026-12,
``tests/intake/corpus/adversary.jsonl`` holds its own cases), written again with other words, other
players and other rulesets, each read as RULES.md means it.

Same notation as :mod:`tests.intake.phrasings` (``"vote 老王"``, ``"!conditional_vote"``,
``"kill 老王 declaration_missing=false & !declaration_short"``, ``""`` for nothing at all).
The classes:

* A — a change of mind in one PM: the latest target counts (改一下, 写错了, 以最后为准 …);
* B — the lines after a kill are its declaration unless they are commands (抽将, 改杀, a
  second 杀, a new platform, a condition);
* C — two names or two commands where one is meant: read both, then an alert;
* D — lead-ins before a command word (◆, 2., （二）, @主办, 第一条：) and odd separators;
* E — a post in the vote thread meant as a ballot without a command word: an alert;
* F — a condition or a question after the command (只要…, 视情况, unless, …吗): an alert, while a
  reason or a remark after it (理由：除非…, 。如果他是好人，我道歉) never drops the ballot;
* G/H — names: a longer player's name written with a gap (Ann 3), a mark that makes another
  letter (Zoe + U+0308 is Zoë), a nickname of two players, names with brackets, @ or a grammar
  word (除非);
* I — odd code points never crash (see also the property test);
* J/K/L — context checks, natural phrasings, chess32 post flags.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.intake.phrasings import DAY, DAY_PM, DECL, GAMES, NIGHT, POST, parse_expectation

TREEHOLE = {"phase": "night2", "channel": "post"}
NIGHT0 = {"phase": "night0", "channel": "post"}
DISCUSSION = {**DAY, "thread": "discussion"}
_NAMES_ROLES = {
    "Ann": "killer", "木头": "killer", "大白": "seer", "大白兔": "binder", "Zoe": "curser",
    "Zoë": "blesser", "Ann3": "commoner", "【狼】阿飞": "commoner", "@夜猫": "commoner",
    "除非": "commoner",
}  # fmt: skip
# Players whose names are hard to read: a longer name holding a shorter one, a bracket or an @
# in the name, a grammar word, two names that differ by a diaeresis.
NAMES_GAME = {
    "ruleset": "game6-10", "players": list(_NAMES_ROLES), "roles": _NAMES_ROLES, "dead": [],
    "nicknames": {"Ann": ["小安"], "Ann3": ["小安"]},
}  # fmt: skip
ALL_GAMES = {**GAMES, "names": NAMES_GAME}

Row = tuple[str, dict[str, Any], str, str, str, dict[str, Any]]


def _rows() -> Iterator[Row]:  # noqa: PLR0915 - a table of probes
    none: dict[str, Any] = {}
    ww, wolves, own = "werewolf", {"role_thread": "werewolf"}, {"role_thread": True}
    ok = "declaration_missing=false"
    # --- A: a change of mind in the same PM -------------------------------------------------
    for game, actor, text, expect in [
        ("game6-13", "赵六", "占卜 王五\n改一下，占卜张三", "divine 张三"),
        ("game6-13", "孙八", "束魂冯二\n写错了，是陈三", "bind 陈三"),
        ("game6-8", "Sunny", "诅咒 糖糖。抱歉，应该是老K", "curse 老K"),
        ("game6-8", "木头人", "庇佑 糖糖\n以最后为准：老K", "bless 老K"),
        ("chess32", "韩信", "禁锢项伯\n重选：项庄", "imprison 项庄"),
        ("chess32", "张良", "查证 项伯\n不对不对，查项庄", "check 项庄"),
        ("chess32", "曹参", "救治 彭越\n算了还是救治郦食其吧", "protect 郦食其"),
        ("chess32", "刘邦", "抽将 彭越\n换成郦食其", "swap_general 郦食其"),
        ("game5", "阿杰", "为Rex祈祷\n发错了，为月光祈祷", "pray 月光"),
        ("game6-10", "月光", "占卜 老王\n如果来得及的话改成Rex", "divine 老王 & !conditional_action"),
        ("game6-10", "月光", "占卜 老王 说错了 占卜Rex", "divine Rex"),
        ("game6-10", "月光", "占卜 老王\n我改主意了，占卜Rex", "divine Rex"),
        ("game6-10", "Lily99", f"杀 小明\n{DECL}\n更正：杀阿杰", f"kill 阿杰 {ok}"),
        ("game6-10", "Lily99", f"杀 小明\n{DECL}\n改杀阿杰，宣言同上", f"kill 阿杰 {ok}"),
        ("game6-10", "月光", "占卜 老王\n手滑了，占卜Rex", "divine Rex"),
        ("game6-10", "月光", "占卜 老王\n哦对了改成Rex", "divine Rex"),
        ("game6-10", "月光", "占卜 老王\n我要改：Rex", "divine Rex"),
        ("game6-13", "赵六", "占卜 王五\n占卜修改为张三", "divine 张三"),
        # a change of mind naming nobody: what stood is no longer certain (the GM is told)
        ("game6-10", "月光", "占卜 老王\n算了", "!conditional_action"),
        ("game6-10", "月光", "占卜 老王，取消占卜", "!conditional_action"),
        ("chess32", "韩信", "禁锢 项伯\n算了，不禁锢了", "!conditional_action"),
        ("game6-10", "月光", "占卜 老王\n占卜Rex\n以第一条为准",
         "!conditional_action & !conditional_action"),
        ("game6-10", "月光", "占卜 老王\n如果老王死了就算了", "divine 老王"),
        ("game6-10", "月光", "占卜 老王\n确定\n算了", "divine 老王 confirm=true"),
        ("game6-10", "月光", "占卜 老王，抱歉", "divine 老王"),
    ]:
        yield game, NIGHT, actor, text, expect, none
    yield "game6-10", DAY_PM, "阿杰", "委托投票：Rex\n之前的作废，改成老王", "delegate_vote 老王", none
    for actor, text, expect, facts in [
        ("铁卫", "【守护】小麦\n改成稻草", "guard 稻草", {}),
        ("笛手", "【吹笛】小麦\n更正为阿土", "pipe 阿土", {}),
        ("巫婆婆", "【毒药】阿狼\n不对，毒灰狼", "poison 灰狼", {}),
        ("星星", "【预言】阿狼\n确定\n改成灰狼", "divine 阿狼 confirm=true & !locked", {}),
        ("星星", "【预言】阿狼\n改成灰狼\n确定", "divine 灰狼 confirm=true", {}),
    ]:
        yield ww, TREEHOLE, actor, text, expect, {**own, **facts}
    # --- B: the lines after a kill -----------------------------------------------------------
    c, pf = "chess32", "platform=彭越"
    for actor, text, expect in [
        ("刘邦", f"杀 项伯\n{POST}\n抽将 郦食其", "kill 项伯 & swap_general 郦食其"),
        ("刘邦", f"杀：项伯\n抽将：彭越\n{POST}", "kill 项伯 & swap_general 彭越"),
        ("刘邦", f"杀 项伯\n抽将 彭越\n抽将 郦食其\n{POST}", "kill 项伯 & !action_conflict"),
        ("樊哙", f"炮打项伯，炮架：彭越\n{POST}\n改成炮打项庄，炮架：彭越", f"cannon_kill 项庄 {pf}"),
        ("樊哙", f"炮打项伯，炮架：彭越\n{POST}\n炮架改成郦食其", "cannon_kill 项伯 platform=郦食其"),
        ("樊哙", f"炮打项伯，炮架：彭越\n{POST}\n炮架：郦食其", "!action_conflict"),
        ("樊哙", f"砲轟项伯，砲架：彭越\n{POST}", f"cannon_kill 项伯 {pf}"),
        ("刘邦", f"杀 项伯\n{POST}\n另外今晚抽将彭越", "kill 项伯 & swap_general 彭越"),
    ]:
        yield c, NIGHT, actor, text, expect, none
    for game, actor, text, expect, facts in [
        ("game5", "Lily99", f"杀 小明\n{DECL}\n\n杀 老王", "!action_conflict", none),
        ("game6-13", "王五", f"{DECL}\n杀 赵六\n换成杀钱七", f"kill 钱七 {ok}", none),
        ("game6-8", "阿狸", f"杀 糖糖\n{DECL}\n算了，杀老K吧", f"kill 老K {ok}", none),
        ("game6-10", "Lily99", f"杀 小明\n{DECL}\n（要是小明被束魂了就杀阿杰）",
         f"kill 小明 {ok} & !conditional_action", none),
        ("game5", "夜行者", f"杀人剧情：{DECL[3:]}\n杀 小明\n改杀 老王", "kill 老王 story=true", none),
        ("game6-10", "Lily99", f"杀 小明\n{DECL}\n杀了小明。", f"kill 小明 {ok}", none),
        ("game6-10", "Lily99", f"杀 小明\n{DECL}\n确定", f"kill 小明 {ok} confirm=true", none),
    ]:  # fmt: skip
        yield game, NIGHT, actor, text, expect, facts
    # --- C: two names or two commands where one is meant --------------------------------------
    for game, text, expect in [
        ("werewolf", "投票：阿狼/灰狼", "!vote_conflict"),
        ("werewolf", "我投阿狼＋灰狼", "!vote_conflict"),
        ("chess32", "投票：项伯 VS 项庄", "!vote_conflict"),
        ("chess32", "投票：项伯｜项庄", "!vote_conflict"),
        ("game6-8", "投票：糖糖\n老K", "!vote_conflict"),
        ("game6-8", "投票：糖糖\n糖糖", "vote 糖糖"),
        ("game5", "投票：老王 投阿杰一票", "!vote_conflict"),
        ("game5", "投票：老王 投票：老王", "vote 老王"),
        ("game6-10", "[del]投票：Rex[/del] 投票：老王", "!vote_conflict"),
        ("game5", "投票：老王\n\n（修改：改投Rex）", "!vote_conflict"),
        ("game5", "投票：老王\nedit: 改投Rex", "!vote_conflict"),
        ("game6-10", "投票：老王 or Rex", "!alternatives"),
        ("game6-10", "投老王，或者投Rex", "!alternatives"),
        ("game6-10", "投票：老王 Rex二选一", "!alternatives"),
        ("game6-10", "投票：老王、Rex都行", "!alternatives"),
        ("game6-10", "投票：老王（Rex也行）", "!alternatives"),
        ("game6-10", "投票：老王（或者Rex）", "!alternatives"),
        ("game6-10", "投票：老王（理由：Rex说他划水）", "vote 老王"),
        ("game6-10", "投票：白色的猫（猫猫）", "vote 白色的猫"),
        ("game6-10", "投票：老王或者老王", "vote 老王"),
        ("game6-10", "投票：老王 → Rex", "!vote_conflict"),
        ("game6-10", "嗯 投票：老王", "vote 老王"),
    ]:
        sender = {"werewolf": "小麦", "chess32": "郦食其", "game6-8": "木头人"}.get(game, "阿杰")
        yield game, DAY, sender, text, expect, none
    for game, actor, text, expect in [
        ("game6-10", "月光", "占卜 Rex & 老王", "!action_conflict"),
        ("game6-13", "孙八", "束魂 冯二 束魂 陈三", "!action_conflict"),
        ("chess32", "韩信", "禁锢 项伯 禁锢 项庄", "!action_conflict"),
        ("game6-10", "月光", "占卜 老王\nRex", "!action_conflict"),
        ("game6-10", "月光", "占卜老王，或者占卜Rex", "!alternatives"),
        ("chess32", "韩信", "禁锢 项伯(项庄也行)", "!alternatives"),
        ("chess32", "韩信", "禁锢 项伯（项庄昨天跳了）", "imprison 项伯"),
    ]:
        yield game, NIGHT, actor, text, expect, none
    yield ww, TREEHOLE, "星星", "【预言】阿狼 灰狼二选一", "!alternatives", own
    yield ww, TREEHOLE, "铁卫", "【守护】小麦 【守护】稻草", "guard 稻草", own
    yield ww, NIGHT0, "丘比", "【金箭】小麦、小麦", "!invalid_target", own
    # --- D: lead-ins and separators -------------------------------------------------------------
    for game, sender, text, target in [
        ("chess32", "郦食其", "◆投票：项伯", "项伯"),
        ("chess32", "郦食其", "2、 投票：项伯", "项伯"),
        ("werewolf", "小麦", "（二）投票：阿狼", "阿狼"),
        ("werewolf", "小麦", "@主办 投票：阿狼", "阿狼"),
        ("werewolf", "小麦", "D3 投票：阿狼", "阿狼"),
        ("game6-13", "冯二", "第一条：投票：王五", "王五"),
        ("game6-13", "冯二", "【今日投票】王五", "王五"),
        ("game6-8", "木头人", "PS: 投票: 糖糖", "糖糖"),
        ("game6-8", "木头人", "投票 ; 老K", "老K"),
        ("game6-10", "阿杰", "投票‥老王", "老王"),
        ("game5", "阿杰", "✅投票：Rex", "Rex"),
        ("game5", "阿杰", "Re: 投票：Rex", "Rex"),
        ("game5", "阿杰", "投票：\n\n\nRex", "Rex"),
        ("game6-10", "阿杰", "①投票：老王", "老王"),
        ("game6-10", "阿杰", "a) 投票：老王", "老王"),
        ("game6-10", "阿杰", "投票：**老王**", "老王"),
    ]:
        yield game, DAY, sender, text, f"vote {target}", none
    for game, actor, text, expect in [
        ("chess32", "韩信", "⭐禁锢：项伯", "imprison 项伯"),
        ("game6-13", "赵六", "@天神 占卜：王五", "divine 王五"),
        ("game6-10", "月光", "月光：占卜 老王", "divine 老王"),
        ("game5", "阿杰", "🙏祈祷老王🙏", "pray 老王"),
        ("game6-10", "Rex", "束魂，老王", "bind 老王"),
    ]:
        yield game, NIGHT, actor, text, expect, none
    yield ww, TREEHOLE, "铁卫", "1、【守护】小麦", "guard 小麦", own
    # --- E: meant as a ballot, without a command word -----------------------------------------
    for game, sender, text, expect, facts in [
        ("chess32", "郦食其", "项伯。", "!possible_ballot", none),
        ("werewolf", "小麦", "阿狼！！！", "!possible_ballot", none),
        ("game6-8", "木头人", "附议", "!possible_ballot", {"quotes": ["投票：糖糖"]}),
        ("game6-13", "冯二", "同楼上", "!possible_ballot", none),
        ("game6-10", "阿杰", "支持 老王", "!possible_ballot", none),
        ("game5", "阿杰", "老王（理由：发言矛盾）", "!possible_ballot", none),
        ("game6-10", "阿杰", "老王和小明都很可疑", "", none),
        ("game6-10", "阿杰", "老王 老王 老王", "!possible_ballot", none),
        ("game6-10", "阿杰", "老王，你为什么不说话", "", none),
        ("game6-10", "阿杰", "我选择相信老王", "", none),
        ("game6-10", "阿杰", "老王", "", {"vote": None}),
    ]:
        yield game, DAY, sender, text, expect, facts
    yield "chess32", DISCUSSION, "郦食其", "项伯", "", none
    # --- F: conditions and questions after the command; reasons and remarks ---------------------
    for game, actor, text, expect in [
        ("chess32", "郦食其", "祈祷 项伯，只要他今晚还活着", "!conditional_action"),
        ("chess32", "樊哙", f"炮打项伯，炮架：彭越吗\n{POST}", "!conditional_action"),
        ("game6-10", "月光", "占卜 老王 unless he dies", "!conditional_action"),
        ("game6-13", "孙八", "要是冯二今晚被杀，束魂陈三", "!conditional_action"),
        ("game6-10", "月光", "占卜 老王，谢谢，辛苦了", "divine 老王"),
        ("game6-10", "月光", "占卜 老王。如果他是杀手请告诉我", "divine 老王"),
    ]:
        yield game, NIGHT, actor, text, expect, none
    for game, sender, text, expect in [
        ("game6-8", "木头人", "投票：糖糖，假如她今天不跳的话", "!conditional_vote"),
        ("game6-13", "冯二", "投票：王五，要是他不解释", "!conditional_vote"),
        ("game6-10", "阿杰", "老王不投票的话我就投他", "!conditional_vote"),
        ("game6-10", "阿杰", "投票：老王。如果他是好人，我道歉。", "vote 老王"),
        ("game5", "阿杰", "投票：老王\n理由：除非他能解释昨晚的事，否则他最可疑", "vote 老王"),
        ("game6-10", "阿杰", "投票：老王，暂定", "vote 老王"),
        ("game6-10", "阿杰", "投票：老王，假如我错了请大家原谅", "vote 老王"),
        ("game6-10", "阿杰", "投票：老王\n如果大家有不同意见可以讨论", "vote 老王"),
        ("game6-10", "阿杰", "投票：老王，如果大家都同意的话", "!conditional_vote"),
        ("game6-10", "阿杰", "投票：老王（如果他明天还不跳的话）", "!conditional_vote"),
        ("game6-10", "阿杰", "投票：老王，待定", "!conditional_vote"),
        ("chess32", "郦食其", "投票：项伯，视情况改票", "!conditional_vote"),
    ]:
        yield game, DAY, sender, text, expect, none
    yield ww, TREEHOLE, "星星", "【预言】阿狼，视情况而定", "!conditional_action", own
    yield ww, TREEHOLE, "小麦", "同意第3天加速吗", "!conditional_action", own
    yield ww, TREEHOLE, "小麦", "大家都同意加速的话我也同意加速", "!conditional_action", own
    yield ww, TREEHOLE, "小麦", "同意加速！", "speed_up day=3", own
    yield ww, TREEHOLE, "小麦", "嗯，我也同意加速", "speed_up day=3", own
    # an agreement taken back (adversary3 A9): never read as 同意, the day runs to its deadline
    yield ww, TREEHOLE, "小麦", "不同意第3天加速", "speed_up day=3 withdrawn=true", own
    yield ww, TREEHOLE, "小麦", "撤回加速", "speed_up day=3 withdrawn=true", own
    yield ww, TREEHOLE, "小麦", "取消同意加速！", "speed_up day=3 withdrawn=true", own
    yield ww, TREEHOLE, "小麦", "我收回同意第3天加速", "speed_up day=3 withdrawn=true", own
    # --- G/H: names ---------------------------------------------------------------------------
    n = "names"
    for text, expect in [
        ("投票：Ann 3", "!ambiguous_name"),
        ("投票：大白 兔", "!ambiguous_name"),
        ("投票：大白【兔】", "!ambiguous_name"),
        ("投票：大白 兔子好可爱", "vote 大白"),
        ("投票：【狼】阿飞", "vote 【狼】阿飞"),
        ("投票：@夜猫", "vote @夜猫"),
        ("投票：夜猫", "!unknown_name"),
        ("投票：除非", "vote 除非"),
        ("投票：ZOË", "vote Zoë"),
        ("投票：小安", "!ambiguous_name"),
        ("投票：Ann-3", "!ambiguous_name"),
        ("投票：大白·兔", "!ambiguous_name"),
    ]:
        yield n, DAY, "Ann3", text, expect, none
    for text, expect in [
        ("占卜 除非", "divine 除非"),
        ("占卜 Zoe\u0308", "divine Zoë"),
        ("占卜 Zoe", "divine Zoe"),
        ("占卜 大白(兔)", "!ambiguous_name"),
        ("占卜 [狼]阿飞", "divine 【狼】阿飞"),
    ]:
        yield n, NIGHT, "大白", text, expect, none
    # --- I: odd code points ---------------------------------------------------------------------
    for text, expect in [
        ("投票：老王\udfff", "vote 老王"),
        ("\U000e0001投票：老王", "vote 老王"),
        ("投票：老王\x00", "vote 老王"),
        ("\x1b[1m投票\x1b[0m：老王", "vote 老王"),
        ("投票：老\udc80王", "!unknown_name"),
    ]:
        yield "game6-10", DAY, "阿杰", text, expect, none
    yield "game6-10", DAY, "阿\ud800杰", "投票：老王", "!not_a_player", none
    # --- J/K/L: context, natural phrasings, chess32 posts -------------------------------------
    yield ww, TREEHOLE, "巫婆婆", "拿毒药毒阿狼", "poison 阿狼", own
    yield ww, TREEHOLE, "巫婆婆", "对小麦用救药", "heal 小麦", {**own, "witch_vision": ["小麦"]}
    yield ww, TREEHOLE, "灰狼", "【杀人】小麦", "!locked", {**wolves, "locked": {"阿狼": ["kill"]}}
    yield ww, TREEHOLE, "星星", "【预言】阿狼\n[确定]", "divine 阿狼 confirm=true", own
    yield ww, {"phase": "day2", "channel": "pm"}, "小麦", "申请减速", "!wrong_channel", none
    yield ww, DAY, "小麦", "汪\u2060阿狼", "vote 阿狼", {"maddened": ["小麦"]}
    yield "game6-10", DAY_PM, "阿杰", "委托投票：弃票", "!abstain_not_allowed", none
    yield "game6-8", NIGHT, "大熊", DECL, "!off_duty_killer", none
    yield "game6-8", NIGHT, "大熊", f"杀 糖糖\n{DECL}", f"kill 糖糖 {ok}", {"dead": ["阿狸"]}
    # an answer to the unit's divination locks both seers of it (RES-A21, decided 2026-12-01)
    yield "game6-13", NIGHT, "钱七", "占卜 王五", "!seer_locked", {"seer_answered": ["赵六"]}
    yield "game6-13", NIGHT, "赵六", "占卜 王五", "!seer_locked", {"seer_answered": ["赵六"]}
    window = {"window": {"open": "2026-03-02T20:00:25", "close": "2026-03-03T20:00:00"}}
    yield "game6-10", NIGHT, "阿杰", "祈祷 老王", "pray 老王", {**window, "t": "2026-03-02T20:00:00"}
    yield "game6-10", NIGHT, "阿杰", "祈祷 老王", "!pm_window", {**window, "t": "2026-03-02T19:59:00"}
    yield "game6-10", NIGHT, "阿杰", "祈祷 老王", "!pm_window", {**window, "t": "2026-03-02T20:00:10"}
    yield "game6-10", DAY_PM, "小明", "遗言：我是好人", "!last_words_not_granted", {
        "dead": ["小明"], "last_words": {"granted": []},
    }
    yield "game6-10", DAY_PM, "小明", "遗言：我是好人", "last_words", {
        "dead": ["小明"], "last_words": {"granted": ["小明"]},
    }
    for text, expect, facts in [
        ("酱油路过~", "!content_free_post", none),
        (":-) ^_^", "!content_free_post", none),
        ("我昨天那段话再补充一句", "", {"quotes": [{"author": "郦食其", "text": "分析" * 100}]}),
        ("楼上说得不对", "!long_quote", {"quotes": [{"author": "彭越", "text": "分析" * 100}]}),
    ]:
        yield "chess32", DISCUSSION, "郦食其", text, expect, facts


def cases() -> list[dict[str, Any]]:
    """Every probe as a full batch case with its expectation (``expect``)."""
    out = []
    for k, (game, phase, sender, text, expect, facts) in enumerate(_rows(), start=1):
        case = {"id": f"probe-{k:03d}", **ALL_GAMES[game], **phase, **facts, "from": sender}
        case["text"] = text
        case["expect"] = parse_expectation(expect)
        out.append(case)
    return out
