"""Words for the GM, in one place: how ``shenshi status``, the dry-run log, the command answers
and the rules core's alerts speak to the GM, in Chinese, with the next command to run.

Nothing here is sent to players (their texts are the announcement templates and intake's
receipts). Internal ids (``delegation_r1``, ``VoidAction``) never reach the GM: each has its
words here, and an id without words is shown as it is, so that a new one is still visible.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from shenshi.rulesets.base import ABSTAIN, Ballot, Phase, Submission
from shenshi.rulesets.catalog import ACTION_NAMES, TEAM_NAMES

# -- the game's steps ------------------------------------------------------------------------

MODE = MappingProxyType({"dry-run": "演练（不发送，天神手动发布）", "review": "审核（批准后发送）",
                         "live": "自动（直接发送）"})  # fmt: skip


def step_name(phase: Phase, number: int, round: int = 0, runoff: str = "生死投票") -> str:
    """``第1夜``, ``第2天 第1轮投票``, ``第2天 生死投票``, ``第1夜（已结算，待公布）``…"""
    match phase:
        case Phase.SETUP:
            return "开局前（签到）"
        case Phase.NIGHT:
            return f"第{number}夜"
        case Phase.DAWN:
            return f"第{number}夜（已结算，待公布）"
        case Phase.DAY:
            return f"第{number}天 {round_name(round, runoff)}" if round else f"第{number}天"
        case Phase.DUSK:
            return f"第{number}天（已结算，待公布）"
    return "游戏结束"


def round_name(round: int, runoff: str = "生死投票") -> str:
    """A voting round: 投票, the runoff (生死投票, or chess32's 第二轮投票), 招魂."""
    return {1: "投票", 2: runoff, 3: "招魂"}.get(round, f"第{round}轮投票")


# What a deadline is for (the ``what`` of a status deadline) and its words.
DEADLINES = MappingProxyType({
    "game_start": "游戏开始（第一步开启）",
    "night_phase": "夜晚{k}截止",
    "action_deadline": "夜间行动截止",
    "night_end": "第{n}夜结束",
    "vote_opens": "{round}开始",
    "vote_closes": "{round}截止",
    "day_end": "第{n}天结束",
})  # fmt: skip


# What the daemon does when a deadline comes (the ``what`` of a status deadline), and whether
# it proposes a result the GM then publishes.
AT_DEADLINE = MappingProxyType({
    "game_start": ("开启第1夜", False),
    "night_phase": ("结束这一阶段的行动", False),
    "action_deadline": ("不再受理夜间行动", False),
    "night_end": ("结算这一夜，提出夜晚结果", True),
    "vote_opens": ("开放投票，提出开放投票的帖子", True),
    "vote_closes": ("计票，提出投票结果", True),
    "day_end": ("结束这一天，提出结果", True),
})  # fmt: skip
PUBLISH = MappingProxyType({
    "dry-run": "你手动发帖（会被自动认出；或之后 shenshi published ID），下一步从你发帖的时间算起",
    "review": "你 shenshi approve ID 后守护进程发出，下一步从发出的时间算起",
    "live": "守护进程直接发出",
})  # fmt: skip


def next_step(what: str | None, mode: str, polling: bool) -> str:
    """What happens at the next deadline and what the GM then does: ``守护进程结算这一夜，提出
    夜晚结果；然后你手动发帖…``. ``what`` is the deadline's kind (``None``: there is none)."""
    if what is None:
        return ""
    does, proposes = AT_DEADLINE.get(what, ("处理", False))
    text = f"守护进程{does}"
    if proposes:
        text += f"；然后{PUBLISH.get(mode, '')}"
    if not polling:
        text += "。注意：守护进程已有一阵没有读论坛（见最后一行）；它没在运行的话，请运行 shenshi run"
    return text


def left(seconds: float) -> str:
    """How long is left, for people: ``3小时12分``, ``45分``, ``已过 5分``."""
    late = seconds < 0
    minutes = int(abs(seconds) // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = (f"{days}天" if days else "") + (f"{hours}小时" if hours else "") + f"{mins}分"
    return f"已过 {parts}" if late else parts


# -- what players did ----------------------------------------------------------------------------


def who_name(who: str) -> str:
    """Who a rules-core decision is about: a player's name, or a joint unit in words
    (``killers`` → 杀手方)."""
    return TEAM_NAMES.get(who, who)


def describe_ballot(ballot: Ballot) -> str:
    """``老王 投 kk_大侠``; a delegated ballot ``老王 委托投 kk_大侠``; ``老王 弃权``."""
    if ballot.target == ABSTAIN:
        return f"{ballot.voter} 弃权"
    verb = {"pm_delegate": "委托投", "summon": "招魂投"}.get(ballot.via, "投")
    return f"{ballot.voter} {verb} {ballot.target}"


def describe_submission(sub: Submission) -> str:
    """``月光 杀 老王``, ``小明 占卜 Rex``, ``帅 炮打 X（炮架子 Y）``."""
    verb = ACTION_NAMES.get(sub.action, sub.action)
    text = f"{sub.actor} {verb} {sub.target}" if sub.target else f"{sub.actor} {verb}"
    platform = sub.extra.get("platform")
    if platform:
        text += f"（炮架子 {platform}）"
    if sub.extra.get("target2"):
        text += f"、{sub.extra['target2']}"
    return text


# -- alerts ---------------------------------------------------------------------------------------

# Short names of the alert kinds (intake's, the daemon's, and the rules core's ``rule:…``).
ALERT_NAMES: Mapping[str, str] = MappingProxyType({
    "unknown_name": "名字对不上玩家", "ambiguous_name": "名字可指多人", "missing_target": "没写对象",
    "not_a_player": "非玩家的指令", "dead_actor": "出局者的行动", "no_power": "身份没有此能力",
    "sent_off": "被罚下者的行动", "not_eligible": "今天不能投票", "pm_window": "不在提交时间内",
    "after_deadline": "过了截止时间", "phase_deadline": "过了本阶段截止", "phase_not_open": "夜晚2尚未开始",
    "wrong_phase": "现在不能用的技能",
    "extra_divination_deadline": "额外占卜过时", "extra_divination_used": "额外占卜已用",
    "seer_locked": "占卜已答复后更改", "locked": "确定后更改", "wrong_channel": "发错地方",
    "action_conflict": "一条消息两个对象", "dead_target": "对象已出局", "self_target": "不能对自己",
    "general_target": "不能对帅", "invalid_platform": "炮架子无效", "invalid_target": "对象无效",
    "lone_killer_suicide": "最后的杀手自杀", "off_duty_killer": "不是他的杀人夜",
    "no_swaps_left": "抽将已用完", "swap_enemy": "抽将点了敌方", "guard_once": "已守护过",
    "silence_once": "已隔音过", "heal_not_in_vision": "救药不在通灵名单", "skill_used": "技能已用过",
    "declaration_missing": "缺杀人宣言", "declaration_short": "杀人宣言太短",
    "kill_post_short": "杀人帖太短", "last_words_not_granted": "无遗言权", "last_words_late": "遗言过时",
    "last_words_too_long": "遗言太长", "no_vote_open": "现在不是投票时间",
    "vote_wrong_thread": "在别的帖子投票", "vote_conflict": "一帖两票", "conditional_vote": "带条件的投票",
    "abstain_not_allowed": "本局不能弃权", "not_a_candidate": "不是候选人", "vote_immutable": "改票（首票为准）",
    "change_limit": "改票次数用完", "last_hour_change": "最后一小时改票",
    "delegation_overridden": "委托被本人投票取代", "delegation_published": "委托公布后更改",
    "delegation_to_player": "委托给其他玩家", "vote_closed": "投票已截止", "dead_post": "出局者发言",
    "spectator_post": "观众发言", "maddened_speech": "癫狂者违规发言", "content_free_post": "无内容帖",
    "long_quote": "长引用", "edited_vote": "编辑过的投票或行动", "not_in_phase": "现在不受理的指令",
    "thread_changed": "帖子被删、移动或少了楼层", "unparsable_page": "读不懂的页面",
    "signin": "未签到", "lurk": "潜水", "send_failed": "发送失败", "question": "玩家提问",
    "not_a_command": "不是指令的私信", "alternatives": "写了几个备选对象",
    "conditional_action": "带条件的行动", "order_uncertain": "先后顺序无法确定",
    "cycle_failed": "守护进程一轮工作失败", "login_failed": "论坛拒绝登录",
    "forum_unreachable": "论坛无法访问", "undecodable_bytes": "读不懂的字符",
    "last_words_after_post": "遗言在公告之后到", "lurk_warning": "潜水警告", "lurk_replaced": "潜水换人",
    "renamed": "玩家在论坛上改了名",
})  # fmt: skip

# The rules core's decisions (``rule:<id>``; a round suffix ``_r1``/``_r2``/``_runoff`` is
# dropped to find the words) where they differ from the alert of the same id, and its verdicts.
RULE_NAMES: Mapping[str, str] = MappingProxyType({
    "pm_window": "私信不在提交时间内", "target_not_alive": "对象已死", "single_use": "一次性技能已用",
    "no_power": "没有此能力", "late_ballot": "截止后的投票", "dead_voter": "出局者投票", "bad_target": "对象无效",
    "invalid_ballot": "无效投票", "format": "投票格式不对", "successor_out": "警徽继承人已出局",
    "sheriff_default": "警长默认处理", "sent_off": "已被罚下", "poison_failed": "毒药无效",
    "pipe_no_effect": "吹笛无效", "overlap_lots": "重叠时抽签", "not_summoned": "未被招魂", "not_now": "现在不能用",
    "not_drawn": "未被抽中额外占卜", "no_vote": "未投票", "mutual_overlap_later": "互相重叠（后者无效）",
    "missing_ballot": "未投票", "lurking": "潜水", "lovers_exist": "已有情侣", "last_words_twice": "第二份遗言",
    "last_words_long": "遗言太长", "joint_disagreement": "联合杀手意见不一", "forced_default": "按默认处理",
    "delegation": "委托投票", "blade_no_effect": "孤刀无效", "blade_unusable": "孤刀不能使用",
    "wolf_camp_too_small": "狼人阵营人数不足",
})  # fmt: skip
VERDICTS: Mapping[str, str] = MappingProxyType({
    "rejected": "不计", "void": "作废", "flag": "请天神留意", "forfeit": "本次行动作废",
    "exit": "将随今日结果自动退出", "warning": "警告一次", "replaced": "须换人",
    "overridden": "被本人的投票取代", "delegated": "已计入",
})  # fmt: skip
_ROUND_SUFFIXES = ("_r1", "_r2", "_runoff")


def _without_round(rule: str) -> str:
    """``delegation_r1`` → ``delegation`` (a round suffix dropped)."""
    for suffix in _ROUND_SUFFIXES:
        if rule.endswith(suffix):
            return rule.removesuffix(suffix)
    return rule


def rule_name(rule: str) -> str:
    """The words of a rules-core decision id (``delegation_r1`` → 委托投票)."""
    rule = _without_round(rule)
    return RULE_NAMES.get(rule) or ALERT_NAMES.get(rule, rule)


def alert_name(kind: str) -> str:
    """The short name of an alert kind (``rule:…`` ones by their decision)."""
    if kind.startswith("rule:"):
        return rule_name(kind.removeprefix("rule:"))
    return ALERT_NAMES.get(kind, kind)


def verdict_name(verdict: str) -> str:
    """The words of a rules-core verdict (``delegated`` → 已计入)."""
    return VERDICTS.get(verdict, verdict)


# What the GM can do about an alert, by kind (``{who}``: its subject). Every alert ends with
# ``shenshi ack ID`` once read.
_BALLOT = "看原帖；玩家可在投票时间内重新投票，或由你代记：shenshi override ballot {who} 对象"
_NOT_COUNTED = "按规则不计；如你判断应计：shenshi override ballot {who} 对象"
_ACTION = "看原帖；如需作废已记下的行动：shenshi override void {who} 行动"
_REFUSED = "按规则不受理，回执已写明原因（演练模式请手动发出回执）；无需操作"
_JUDGE = "由你判断是否处罚（规则 §7）；无需操作"
HINTS: Mapping[str, str] = MappingProxyType({
    "unknown_name": _BALLOT, "ambiguous_name": _BALLOT, "missing_target": _BALLOT,
    "vote_conflict": _BALLOT, "conditional_vote": _BALLOT, "alternatives": _BALLOT,
    "vote_immutable": _NOT_COUNTED, "no_vote_open": _NOT_COUNTED, "not_eligible": "按规则不计（今天被束魂）；无需操作",
    "not_a_candidate": _NOT_COUNTED, "vote_closed": _NOT_COUNTED, "vote_wrong_thread": _NOT_COUNTED,
    "change_limit": _NOT_COUNTED, "last_hour_change": _NOT_COUNTED,
    "abstain_not_allowed": _NOT_COUNTED, "delegation_overridden": "本人的投票为准；无需操作",
    "delegation_published": _NOT_COUNTED, "delegation_to_player": _NOT_COUNTED,
    "edited_vote": "首次看到的内容为准；看原帖与修改",
    "not_a_player": "非本局玩家，无需处理", "question": "私信回复该玩家",
    "not_a_command": "读一下这条私信，需要的话私信回复该玩家；如果它其实是行动，请让玩家按格式重发",
    "conditional_action": "不受理带条件的行动：请让玩家重发一个确定的行动",
    "pm_window": _ACTION, "seer_locked": _ACTION, "locked": _ACTION, "action_conflict": _ACTION,
    "order_uncertain": "已按有利于玩家计入；如你判断不该计入：shenshi override void {who} 行动",
    "dead_actor": _REFUSED, "no_power": _REFUSED, "sent_off": _REFUSED, "after_deadline": _REFUSED,
    "phase_deadline": _REFUSED, "wrong_phase": _REFUSED, "dead_target": _REFUSED,
    "self_target": _REFUSED, "general_target": _REFUSED, "invalid_platform": _REFUSED,
    "invalid_target": _REFUSED, "off_duty_killer": _REFUSED, "no_swaps_left": _REFUSED,
    "swap_enemy": _REFUSED, "guard_once": _REFUSED, "silence_once": _REFUSED,
    "heal_not_in_vision": _REFUSED, "skill_used": _REFUSED, "wrong_channel": _REFUSED,
    "extra_divination_deadline": _REFUSED, "extra_divination_used": _REFUSED,
    "last_words_not_granted": _REFUSED, "last_words_late": _REFUSED,
    "last_words_too_long": _REFUSED, "lone_killer_suicide": _REFUSED, "not_in_phase": _REFUSED,
    "dead_post": _JUDGE, "spectator_post": _JUDGE, "maddened_speech": _JUDGE,
    "content_free_post": _JUDGE, "long_quote": _JUDGE, "kill_post_short": _JUDGE,
    "declaration_missing": "截止前补交则有效，否则本次杀人作废（无需操作）",
    "declaration_short": "天神判断是否罚：shenshi override extra-divination 抽中的平民",
    "signin": "确认退出：shenshi override exit {who}，或换人：shenshi substitute {who} 新玩家",
    "lurk": "确认退出：shenshi override exit {who}，或换人：shenshi substitute {who} 新玩家",
    "lurk_warning": "警告私信已提出（演练模式请手动发出）；无需操作",
    "lurk_replaced": "换人：shenshi substitute {who} 新玩家",
    "last_words_after_post": "用 shenshi edit ID 把遗言加进天亮公告",
    "rule:no_vote": "如需替补（不退出）：在今日结果前 shenshi substitute {who} 新玩家",
    "rule:missing_ballot": "如需替补（不退出）：在今日结果前 shenshi substitute {who} 新玩家",
    "rule:lurking": "换人：shenshi substitute {who} 新玩家，或 shenshi override exit {who}",
    "rule:delegation": "委托投票已按规则计入；无需操作",
    "rule:declaration_missing": "按规则本夜杀人作废（已写进夜晚结果）；无需操作",
    "send_failed": "会自动重试；shenshi review 查看，shenshi edit ID 修改或 shenshi reject ID 放弃",
    "thread_changed": "打开论坛查看；shenshi run -v 看详情",
    "unparsable_page": "打开链接查看；shenshi run -v 看详情",
    "undecodable_bytes": "打开链接核对原文；无需操作",
    "cycle_failed": "守护进程会自动重试；反复出现时请把 shenshi run -v 的输出交给维护者",
    "login_failed": "改好密码（password_file，或 password_env 后重启 shenshi run）",
    "forum_unreachable": "会自动重试；打开论坛看看是否能访问",
    "renamed": "已按 uid 认出；无需操作",
})  # fmt: skip


def hint(kind: str, subject: str | None) -> str:
    """The next command for an alert of ``kind`` about ``subject`` ('' when none applies)."""
    text = HINTS.get(kind) or HINTS.get(_without_round(kind), "")
    return text.replace("{who}", subject or "玩家")


# -- what the rules core refused ------------------------------------------------------------------

PHASES = MappingProxyType({"setup": "开局前", "night": "夜晚", "dawn": "夜晚结算后（待公布）",
                           "day": "白天", "dusk": "白天结算后（待公布）", "over": "游戏结束后"})  # fmt: skip
_REFUSALS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"\w+ is not allowed during the (\w+)(?: \d+)?"), lambda m: f"{PHASES.get(m[1], m[1])}不能这样做"),
    (re.compile(r"the game is over \((\w+) won\).*"), lambda m: f"游戏已经结束（{TEAM_NAMES.get(m[1], m[1])} 获胜），不能再改"),
    (re.compile(r"(\w+) cannot happen during the (\w+)"), lambda m: f"{PHASES.get(m[2], m[2])}不能这样做"),
    (re.compile(r"'(.+)' is not a living (?:player|character)"), lambda m: f"{m[1]} 不是存活的玩家"),
    (re.compile(r"'(.+)' is not a player of this game"), lambda m: f"{m[1]} 不是本局玩家"),
    (re.compile(r"'(.+)' already plays in this game"), lambda m: f"{m[1]} 已经在本局中"),
    (re.compile(r"'(.+)' is dead: a substitute takes over a living seat"),
     lambda m: f"{m[1]} 已出局：替补只能接替存活的座位"),
    (re.compile(r"(.+) has no (\w+) submission to void"),
     lambda m: f"{m[1]} 本阶段没有「{ACTION_NAMES.get(m[2], m[2])}」可以作废"),
    (re.compile(r"only today's execution can be corrected"), lambda m: "只能更正今天的处决"),
    (re.compile(r"no voting round is open on day (\d+)"), lambda m: f"第{m[1]}天现在没有进行中的投票"),
)  # fmt: skip


def refusal(message: str) -> str:
    """The rules core's refusal (``ForceExecution is not allowed during the setup``) in the
    GM's words (``开局前不能这样做``); a message without words is kept as it is."""
    for pattern, words in _REFUSALS:
        found = pattern.fullmatch(message.strip())
        if found:
            return words(found)
    return message


# -- announcements -------------------------------------------------------------------------------

# -- outbox -------------------------------------------------------------------------------------

STATES = MappingProxyType({
    "proposed": "待审", "approved": "已批准", "sending": "发送中", "sent": "已发送",
    "failed": "发送失败", "rejected": "已放弃", "published": "已手动发布",
})  # fmt: skip


# Why an outbox action does not apply to an announcement in a state (``shenshi approve 3`` on
# one already sent), and what to do instead: ``(action, state) → words``; ``*`` any action.
_OUTBOX_REFUSALS: Mapping[tuple[str, str], str] = MappingProxyType({
    ("*", "sent"): "已由守护进程发出，不能再{verb}；要更正，请在论坛上编辑或另发",
    ("*", "published"): "已记为你手动发布，不能再{verb}；要更正，请在论坛上编辑或另发",
    ("*", "sending"): "正在发送中，不能{verb}：等守护进程确认（shenshi status）",
    ("*", "rejected"): "已放弃（shenshi reject），不能再{verb}",
    ("approve", "failed"): "发送失败，已在重试队列中（无需再批准）",
})  # fmt: skip
OUTBOX_VERBS = MappingProxyType({"approve": "批准", "reject": "放弃", "edit": "修改",
                                 "publish": "记为发布"})  # fmt: skip


def outbox_refusal(action: str, state: str) -> str:
    """Why ``action`` (approve, reject, edit, publish) does not apply to an announcement in
    ``state``, in the GM's words with what to do instead."""
    words = _OUTBOX_REFUSALS.get((action, state)) or _OUTBOX_REFUSALS.get(("*", state))
    verb = OUTBOX_VERBS.get(action, action)
    return (words or f"现在是「{STATES.get(state, state)}」，不能{verb}").format(verb=verb)


def publish_hint(mode: str, ident: int, private: bool = False) -> str:
    """How the GM publishes announcement ``ident`` in ``mode`` (a PM when ``private``)."""
    if mode == "dry-run":
        how = "发私信" if private else "发帖"
        return f"请手动{how}（会被自动认出），或发出后 shenshi published {ident}"
    if mode == "review":
        return f"shenshi approve {ident}（或 shenshi edit {ident} 后批准）"
    return "会自动发送"


__all__ = [
    "ALERT_NAMES", "AT_DEADLINE", "DEADLINES", "PUBLISH", "next_step", "HINTS", "MODE", "RULE_NAMES", "STATES", "VERDICTS",
    "PHASES", "OUTBOX_VERBS", "alert_name", "outbox_refusal", "describe_ballot", "describe_submission", "hint", "left",
    "publish_hint", "refusal", "who_name", "round_name", "rule_name", "step_name", "verdict_name",
]  # fmt: skip
