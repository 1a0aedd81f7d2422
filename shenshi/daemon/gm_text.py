"""Words for the GM, in one place: how ``shenshi status``, the dry-run log, the command answers
and the rules core's alerts speak to the GM, in Chinese, with the next command to run.

Nothing here is sent to players (their texts are the announcement templates and intake's
receipts). Internal ids (``delegation_r1``, ``VoidAction``) never reach the GM: each has its
words here, and an id without words is shown as it is, so that a new one is still visible.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

from shenshi.rulesets.base import (
    ABSTAIN,
    Ballot,
    BallotCast,
    BallotOverridden,
    Event,
    ExecutionForced,
    ExitDeclared,
    GmAnswerRecorded,
    Phase,
    PhaseOpened,
    PowerSubmitted,
    Resolved,
    RulingApplied,
    SeatTakenOver,
    Submission,
    SubmissionVoided,
    SubstitutionScheduled,
)
from shenshi.rulesets.catalog import ACTION_NAMES, TEAM_NAMES

# -- the game's steps ------------------------------------------------------------------------

MODE = MappingProxyType({"dry-run": "演练（不发送，天神手动发布）", "review": "审核（批准后发送）",
                         "live": "自动（直接发送）"})  # fmt: skip


def step_name(phase: Phase, number: int, round: int = 0, runoff: str = "生死投票", settled: str = "") -> str:
    """``第1夜``, ``第2天 第1轮投票``, ``第2天 生死投票``, ``第1夜（已结算，待公布）``…; a settled
    step's ``settled``: ``published`` (its result is out, the next step opens at the next
    cycle) or the time its result is announced at (werewolf: ``06:00``)."""
    between = {"published": "结果已公布，下一阶段即将开始", "": "已结算，待公布"}
    note = between.get(settled) or f"已结算，{settled} 公布"
    match phase:
        case Phase.SETUP:
            return "开局前（签到）"
        case Phase.NIGHT:
            return f"第{number}夜"
        case Phase.DAWN:
            return f"第{number}夜（{note}）"
        case Phase.DAY:
            return f"第{number}天 {round_name(round, runoff)}" if round else f"第{number}天"
        case Phase.DUSK:
            return f"第{number}天（{note}）"
    return "游戏结束"


# Words of a step that are not a round (``第1天 讨论``: the vote opens later than the day).
STEP_WORDS: Mapping[str, str] = MappingProxyType({"discussion": "讨论（投票未开放）"})


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
    "dry-run": "你手动发帖（会被自动认出；或之后 shenshi published ID）",
    "review": "你 shenshi approve ID 后守护进程发出",
    "live": "守护进程直接发出",
})  # fmt: skip
# The same in the console, where each step is a button on the page (never a command to type).
PUBLISH_IN_CONSOLE = MappingProxyType({
    "dry-run": "你手动发帖（会被自动认出；或之后在「审核」里点「我已发布」）",
    "review": "你在「审核」里批准后守护进程发出",
    "live": "守护进程直接发出",
})  # fmt: skip
# What the GM's publication starts, where he publishes (dry-run, review): a result opens the
# next step when it is out; the vote's opening post opens nothing, the vote opens and closes at
# the rules' hours whenever it is out (the post says them).
FROM_PUBLICATION = MappingProxyType({"dry-run": "下一步从你发帖的时间算起", "review": "下一步从发出的时间算起"})
FIXED_HOURS = MappingProxyType({"vote_opens": "投票的开放和截止时间按规则固定，不随发帖时间改变"})
NOT_POLLING = {
    "cli": "注意：守护进程已有一阵没有读论坛（见最后一行）；它没在运行的话，请运行 shenshi run",
    "console": "注意：守护进程已有一阵没有读论坛（见页首）；它没在运行的话，请在服务器上重新启动守护进程",
}


def next_step(what: str | None, mode: str, polling: bool, *, console: bool = False) -> str:
    """What happens at the next deadline and what the GM then does: ``守护进程结算这一夜，提出
    夜晚结果；然后你手动发帖…，下一步从你发帖的时间算起`` (the vote's opening: its hours are
    fixed, :data:`FIXED_HOURS`). ``what`` is the deadline's kind (``None``: there is none);
    ``console``: the GM reads it in the console, where his step is a button, not a command."""
    if what is None:
        return ""
    does, proposes = AT_DEADLINE.get(what, ("处理", False))
    text = f"守护进程{does}"
    if proposes:
        text += f"；然后{(PUBLISH_IN_CONSOLE if console else PUBLISH).get(mode, '')}"
        if mode in FROM_PUBLICATION:  # what his publication starts, if anything (FIXED_HOURS)
            text += f"，{FIXED_HOURS.get(what) or FROM_PUBLICATION[mode]}"
    if not polling:
        text += "。" + NOT_POLLING["console" if console else "cli"]
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


# How a player left the game (a death's cause in the rules core), in the GM's words.
DEATH_CAUSES = MappingProxyType({
    "killer": "被杀", "kill": "被杀", "bind_failure": "束魂失败", "execution": "处决", "vote_out": "被投票出局",
    "auto_exit": "自动退出", "poison": "被毒死", "lone_blade": "孤刀", "lovers_suicide": "殉情",
    "general": "被帅吃掉", "cannon": "被炮打", "mine": "踩雷", "swap": "抽将", "pray": "祈祷",
})  # fmt: skip


def death_cause(cause: str, info: Any = None) -> str:
    """A death's cause in words (``auto_exit`` → 自动退出); a role's name where the cause is
    a role (``info``: the ruleset's catalog), else the id as it is."""
    if cause in DEATH_CAUSES:
        return DEATH_CAUSES[cause]
    if info is not None and cause in getattr(info, "roles", {}):
        return info.role_name(cause)
    return ACTION_NAMES.get(cause, cause)


def who_name(who: str) -> str:
    """Who a rules-core decision is about: a player's name, or a joint unit in words
    (``killers`` → 杀手方)."""
    return TEAM_NAMES.get(who, who)


def describe_ballot(ballot: Ballot) -> str:
    """``老王 投 kk_大侠``; a delegated ballot ``老王 委托投 kk_大侠``; ``老王 弃权``."""
    if ballot.target == ABSTAIN:
        return f"{ballot.voter} 弃权"
    verb = {"pm_delegate": "委托投", "summon": "招魂投"}.get(ballot.via, "投")
    recorded = "（天神补记）" if ballot.via == "gm" else ""
    return f"{ballot.voter} {verb} {ballot.target}{recorded}"


def describe_submission(sub: Submission) -> str:
    """``月光 杀 老王``, ``小明 占卜 Rex``, ``帅 炮打 X（炮架子 Y）``; a 杀人宣言 sent apart from its kill:
    ``月光 补交杀人宣言（杀 老王）``."""
    verb = ACTION_NAMES.get(sub.action, sub.action)
    if "declaration_for" in sub.extra:  # a 杀人宣言 sent apart, completing his earlier kill
        return f"{sub.actor} 补交杀人宣言（{verb} {sub.target}）"
    text = f"{sub.actor} {verb} {sub.target}" if sub.target else f"{sub.actor} {verb}"
    platform = sub.extra.get("platform")
    if platform:
        text += f"（炮架子 {platform}）"
    if sub.extra.get("target2"):
        text += f"、{sub.extra['target2']}"
    return text


def event_words(event: Event) -> str | None:
    """What one event did, in the GM's words, as the reason a proposal was superseded
    (``路人甲 接替 kk_大侠``, ``天神补记 老王 的选票：Rex``); ``None``: nothing to name."""
    match event:
        case SubstitutionScheduled(old=old, new=new):
            return f"天神安排 {new} 接替 {old}"
        case SeatTakenOver(old=old, new=new):
            return f"{new} 入座（接替 {old}）"
        case ExitDeclared(name=name):
            return f"天神更正：{name} 退出游戏"
        case BallotOverridden(ballot=b):
            return f"天神补记 {b.voter} 的选票：{'弃权' if b.target == ABSTAIN else b.target}"
        case SubmissionVoided(actor=actor, action=action, by_player=True):
            return f"{actor} 撤回「{ACTION_NAMES.get(action, action)}」"
        case SubmissionVoided(actor=actor, action=action):
            return f"天神作废 {actor} 的「{ACTION_NAMES.get(action, action)}」"
        case ExecutionForced(name=name):
            return f"天神更正处决：{name}" if name else "天神取消今天的处决"
        case GmAnswerRecorded(actor=actor):
            return f"天神已答复 {actor}"
        case RulingApplied(kind=kind, name=name):
            return f"天神裁定（{kind}）：{name}"
        case PowerSubmitted(submission=sub):
            return describe_submission(sub)
        case BallotCast(ballot=b):
            return describe_ballot(b)
        case Resolved():
            return "结算"
        case PhaseOpened(phase=phase, n=n):
            return f"{step_name(phase, n)}开始"
    return None


# -- alerts ---------------------------------------------------------------------------------------

# Short names of the alert kinds (intake's, the daemon's, and the rules core's ``rule:…``).
ALERT_NAMES: Mapping[str, str] = MappingProxyType({
    "unknown_name": "名字对不上玩家", "ambiguous_name": "名字可指多人", "missing_target": "没写对象",
    "self_by_other_name": "写了接替前的名字（即自己）", "substitute_no_vote": "替补没有投票",
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
    "lookalike_name": "名字里有形近字", "unread_command": "有指令词却读不出指令",
    "conditional_action": "带条件的行动", "order_uncertain": "先后顺序无法确定",
    "cycle_failed": "守护进程一轮工作失败", "login_failed": "论坛拒绝登录",
    "forum_unreachable": "论坛无法访问", "undecodable_bytes": "读不懂的字符",
    "login_page_changed": "论坛登录页面变了", "forum_busy": "论坛负载保护", "own_box_full": "天神的短消息箱满了",
    "last_words_after_post": "遗言在公告之后到", "lurk_warning": "潜水警告", "lurk_replaced": "潜水换人",
    "joint_disagreement": "联合行动意见不一", "pm_game_unknown": "不知属于哪一局的私信", "earlier_version_on_forum": "论坛上可能有改前的版本",
    "forum_clock_ahead": "论坛时钟超前", "possible_ballot": "可能是投票", "unclosed_quote": "引用没有闭合",
    "left_seat": "已离开座位者的指令",
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
    "summoned_twice": "被招魂者的第一张票为准", "summoned_later_night": "招魂只计更近一夜已上线的死者",
    "not_drawn": "未被抽中额外占卜", "no_vote": "未投票", "mutual_overlap_later": "互相重叠（后者无效）",
    "missing_ballot": "未投票", "lurking": "潜水", "lovers_exist": "已有情侣", "last_words_twice": "第二份遗言",
    "last_words_long": "遗言太长", "joint_disagreement": "联合行动意见不一", "forced_default": "强制技能没有使用",
    "delegation": "委托投票", "blade_no_effect": "孤刀无效", "blade_unusable": "孤刀不能使用",
    "wolf_camp_too_small": "狼人阵营人数不足",
})  # fmt: skip
VERDICTS: Mapping[str, str] = MappingProxyType({
    "rejected": "不计", "void": "作废", "flag": "请天神留意", "forfeit": "本次行动作废",
    "exit": "将随今日结果自动退出", "warning": "警告一次", "replaced": "须换人",
    "overridden": "被本人的投票取代", "delegated": "已计入",
})  # fmt: skip
_ROUND_SUFFIXES = ("_r1", "_r2", "_runoff")


def without_round(rule: str) -> str:
    """``delegation_r1`` → ``delegation`` (a round suffix dropped)."""
    for suffix in _ROUND_SUFFIXES:
        if rule.endswith(suffix):
            return rule.removesuffix(suffix)
    return rule


def rule_name(rule: str) -> str:
    """The words of a rules-core decision id (``delegation_r1`` → 委托投票)."""
    rule = without_round(rule)
    return RULE_NAMES.get(rule) or ALERT_NAMES.get(rule, rule)


def alert_name(kind: str) -> str:
    """The short name of an alert kind (``rule:…`` ones by their decision)."""
    if kind.startswith("rule:"):
        return rule_name(kind.removeprefix("rule:"))
    return ALERT_NAMES.get(kind, kind)


def verdict_name(verdict: str) -> str:
    """The words of a rules-core verdict (``delegated`` → 已计入)."""
    return VERDICTS.get(verdict, verdict)


# What the GM reads about an alert (:class:`~shenshi.daemon.hints.Advice`): the note says what
# happened and what the rules did (words only); the next steps are hints, data rendered below.
NOTES: Mapping[str, str] = MappingProxyType({
    "resolved": "已解决",
    "read": "请阅读",
    "round_closed": "这一轮投票已截止，不能再补记",
    "step_closed": "这一阶段已结算，不能再补录",
    "ballot_again": "看原帖；玩家可在截止前重新投票，或由你代记",
    "substitute_keeps_seat": "由替补 {new} 接替，座位不退出",
    "lurker_posted": "玩家已重新发帖，不再潜水",
    "published_moves": "公告发布了，下一轮的截止时间随之确定",
    "corrections_read": "按守护进程所知的最新局面重新核对",
    "vote_opened": "投票按时开放了", "to_the_seats": "寄给座位现在的玩家",
    "vote_opens_at": "投票 {at} 才开放，之前不能代记选票（开放前的帖子不计票）",
    "vote_not_open_yet": "投票还没开放：这条不计票，也不能代记；开放后玩家在投票帖投票才计入",
    "action_again": "看原私信；玩家可在截止前重新发送，或由你补录",
    "action_again_tree_hole": "看功能树洞里的原帖；玩家可在截止前重新回复，或由你补录",
    "refused": "按规则不受理",
    "refused_receipt": "按规则不受理，回执 {ids} 写明了原因",
    "refused_receipt_out": "按规则不受理，回执 {ids} 已发出",
    "refused_receipt_auto": "按规则不受理，回执 {ids} 会自动发出",
    "refused_no_receipt": "按规则不受理（没有回执）",
    "accepted": "已受理",
    "swap_enemy": "已受理：抽将会无效，帅仍会阵亡（规则如此）",
    "lookalike_name": "已按字形计入：请核对对象是否就是玩家想写的人；读错了就按正确的对象补记",
    "not_counted": "按规则不计",
    "not_counted_receipt": "按规则不计，私信 {ids} 写明了为什么（还没发出）",
    "not_counted_receipt_out": "按规则不计，私信 {ids} 已告诉他为什么",
    "not_counted_receipt_auto": "按规则不计，私信 {ids} 会自动发出告诉他为什么",
    "not_counted_closed": "按规则不计；这一轮已截止",
    "stray": "投票帖以外的投票不计票（规则 D-I）",
    "stray_receipt": "投票帖以外的投票不计票，私信 {ids} 请他截票前到投票帖投票（还没发出）；你也可以决定代记",
    "stray_receipt_out": "投票帖以外的投票不计票，私信 {ids} 已请他截票前到投票帖投票；你也可以决定代记",
    "stray_receipt_auto": "投票帖以外的投票不计票，私信 {ids} 会自动发出，请他截票前到投票帖投票；你也可以决定代记",
    "stray_open": "投票帖以外的投票不计票；玩家可在截票前到投票帖投票，你也可以决定代记",
    "stray_closed": "投票帖以外的投票不计票；现在没有开放的投票，不能代记",
    "stray_early": "投票帖以外、投票开始之前的投票，按规则不计票，也不能代记；玩家要在投票帖里重新投票",
    "pm_window": "不在提交时间内",
    "seer_locked": "天神答复后才更改：之前的占卜有效",
    "locked": "「确定」后才更改：锁定的目标有效",
    "judge": "由你判断是否处罚（规则 §7）",
    "declaration_pending": "截止前补交杀人宣言则有效，否则本次杀人作废",
    "declaration_closed": "这一夜已结算：没有宣言的杀人已按规则处理",
    "declaration_short": "由你判断是否罚：抽一名平民（好人方）做额外占卜",
    "declaration_short_later": "由你判断是否罚；现在不能指定额外占卜",
    "signin": "未签到：确认退出、换人，或保留他（放弃这条公告）",
    "lurk": "潜水：确认退出、换人，或保留他（放弃这条公告）",
    "seat_done": "这个座位已处理（退出或换人）",
    "rule:no_vote": "未投票的玩家将随今日结果自动退出；如需替补（不退出），在今日结果前换人",
    "substitute_no_vote": "替补入座的这一阶段按规则不因缺票退出；他若不再出现，可以再换人，或让他退出",
    "rule:missing_ballot": "本规则没有自动退出：未投票违反「必须投票」，是否判罚由你决定",
    "rule:lurking": "两次潜水警告：换人或淹死",
    "rule:delegation": "委托投票已按规则计入",
    "rule:declaration_missing": "按规则本夜杀人作废（已写进夜晚结果）",
    "rule:forced_default": "强制技能到截止时没有使用：按规则由你按事先公布的默认方式处理，shenshi 没有替他选择",
    "rule:joint_disagreement": "到截止时仍不一致：按规则本夜这一行动作废",
    "joint_disagreement": "截止前统一目标则有效，否则这一行动作废；如你判断以其中一人为准，作废另一人的",
    "send_failed": "守护进程会自动重试",
    "order_uncertain": "已按有利于玩家计入；如你判断不该计入，可作废",
    "last_words_after_post": "遗言在天亮公告提出之后才到：把它加进公告",
    "last_words_after_post_out": "天亮公告已发出：遗言请另行公布",
    "not_a_command": "读一下这条私信，需要的话私信回复；如果它其实是行动，可以补录",
    "question": "玩家提问：私信回复",
    "edited_vote": "首次看到的内容为准；看原帖与修改",
    "not_a_player": "非本局玩家的指令，不计入",
    "lurk_warning": "警告私信已提出",
    "lurk_replaced": "两次潜水警告：须换人",
    "left_seat": "他已由替补接替，这条不计入",
    "unconfirmed": "要你先确认（确认之前不会发出）",
    "delegation_overridden": "本人的投票为准",
    "thread_changed": "打开论坛查看（shenshi run -v 看详情）",
    "unparsable_page": "打开链接查看（shenshi run -v 看详情）",
    "undecodable_bytes": "打开链接核对原文",
    "cycle_failed": "守护进程会自动重试；反复出现时请把 shenshi run -v 的输出交给维护者",
    "login_failed": "论坛拒绝登录：改好密码（password_file，或 password_env 后重启 shenshi run）",
    "forum_unreachable": "会自动重试；打开论坛看看是否能访问",
    "renamed": "已按论坛账号认出是同一个玩家",
    "pm_game_unknown": "这条私信没有计入任何一局（玩家已被告知怎样写明是哪一局）：它属于哪一局，就在那一局计入",
    "earlier_version_on_forum": "论坛上可能已有改之前的版本：核对后记为已发布或放弃",
    "forum_clock_ahead": "论坛时钟快了或跳变：请核对论坛时间",
    "sent_by_daemon": "守护进程会自动发送",
    "game_over": "游戏已结束：不能再更正",
    "earlier_stands": "他之前的行动仍然有效（如你判断也不该计，可作废）",
    "nothing_to_publish": "列出的都已发布或放弃",
    "nothing_to_approve": "列出的都已批准、发出或放弃",
    "awaits_confirmation": "待你确认：{ids}（确认前不会发出，做法见各条）",
    "login_page_changed": "不会自己好：核对配置里论坛的地址；地址没错的话，把 shenshi run -v 的输出交给维护者",
    "forum_busy": "会自动重试；一直如此时，请在论坛后台调高负载保护的阈值",
    "own_box_full": "登录论坛删除已发送的私信，腾出空间；没送到的私信之后自动重发",
    "night_phase_closed": "夜晚的一个阶段已截止",
    "gate_rejected": "你放弃了 #{id}，但游戏要等玩家看到它才能进入下一步（放弃不会撤销结果）：撤销放弃后再发布",
})  # fmt: skip

# What each hint does, in the GM's words (a button's text), by command or purpose.
LABELS: Mapping[str, str] = MappingProxyType({
    "override_ballot": "代记选票", "override_action": "补录行动", "void": "作废行动",
    "count_anyway": "仍然计票", "penalty": "罚分", "extra_divination": "抽额外占卜",
    "exit": "确认退出", "substitute": "换人", "keep_player": "保留他（放弃公告）",
    "approve": "批准发送", "approve_late": "仍然发送（已过时）", "reject": "放弃", "edit": "修改",
    "published": "记为已发布", "post": "手动发帖", "send_pm": "手动发私信", "review": "查看",
    "pm": "私信回复", "forum": "打开论坛", "ask_player": "请玩家重发", "ack": "确认已读",
    "maintainer": "交给维护者", "password": "改密码", "count_in_game": "计入这一局",
    "by_hand": "手动发帖/发私信", "restore": "撤销放弃",
})  # fmt: skip
# What a blank argument stands for.
BLANKS: Mapping[str, str] = MappingProxyType({
    "target": "对象", "action": "行动", "points": "分数", "civilian": "平民（好人方）", "newcomer": "新玩家",
    "id": "ID", "text": "私信内容", "target2": "第二个对象",
})  # fmt: skip
OR = "，或 "
# What keeps an open step from ending early (the rules core's ``Waiting``), for the GM.
WAITING: Mapping[str, str] = MappingProxyType({
    "no_action": "还没有行动", "rejected": "行动被退回、可以重发", "joint_disagreement": "联合行动意见不一",
    "declaration_missing": "还没有杀人宣言", "no_ballot": "还没有投票", "no_consent": "还没有同意加速",
    "undecided": "剩下的票仍可能改变结果",
})  # fmt: skip
NOTHING_TO_DO = "无需操作"
# What an open night's kill still lacks, in status (the players were told they may fix it).
NIGHT_TROUBLES: Mapping[str, str] = MappingProxyType({
    "joint_disagreement": "联合行动意见不一（{unit}）：{choices}；截止前不统一则本次行动作废",
    "declaration_missing": "{what} 还没有杀人宣言：截止前不补交则本次杀人作废",
    # RULES.md "Early close": a refused PM its sender was told to send again keeps the step open
    "resend_awaited": "{who} 的私信被退回（{kind}），回执里请他重新发送：他重发、或你补录/作废他的行动之前，本阶段不提前结束",
    "early_close_off": "行动已全部到齐，但提前结算已关闭（[daemon] early_close = false）：到截止时结算",
    "exit_unpublished": "行动已全部到齐，但 {who} 的退出公告还没发出：发出后才算出局，这一夜才提前结算",
})  # fmt: skip
SUGGESTED = "（{what}：{names}）"
SUGGESTED_ONE = "（{what}填了 {names}，确认无误再运行）"
# What resolved an alert (kept with it, shown in its history).
RESOLVED: Mapping[str, str] = MappingProxyType({
    "gm": "天神补记：{what}", "declaration": "{who} 的杀人宣言已到", "still_disagreeing": "{what}：仍不一致，见新的提醒", "void": "已作废 {who} 的「{action}」",
    "exit": "{who} 已确认退出", "substitute": "{new} 已接替 {who}", "sent": "#{id} 已发出",
    "published": "#{id} 已记为发布", "rejected": "#{id} 已放弃", "kept": "保留 {who}（#{id} 已放弃）", "receipt": "回执 #{id} 已送达",
    "superseded": "#{id} 已被取代（不会发送）", "replied": "已私信回复（#{id}）",
    "counted": "天神把这条私信计入了《{game}》",
    "resent_naming": "玩家重发了这条私信并写明《{game}》，已在那一局计入",
})  # fmt: skip


def action_words(action: str) -> str:
    """An action id in Chinese (``kill`` → 杀), as the catalog names it."""
    return ACTION_NAMES.get(action, action)


def id_ranges(ids: Iterable[int]) -> str:
    """``[3, 4, 5, 9]`` → ``3-5 9``: ids as the commands take them."""
    runs: list[list[int]] = []
    for i in sorted(set(ids)):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return " ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


def by_hand(command: str, args: Sequence[str], ids: Sequence[int]) -> str:
    """A step the GM does on the forum, in words (``私信回复 老王``, ``手动发帖 #3（会被自动认出）``)."""
    shown = " ".join(f"#{run}" for run in id_ranges(ids).split())
    who = args[0] if args else "玩家"
    return {
        "pm": f"私信回复 {who}",
        "post": f"手动发帖 {shown}（会被自动认出）",
        "by_hand": f"手动发帖/发私信 {shown}（会被自动认出）",
        "send_pm": f"手动发私信 {shown}（会被自动认出）",
        "forum": f"打开论坛查看 {who}" if args else "打开论坛查看",
        "ask_player": f"请 {who} 按格式重发",
        "maintainer": "把 shenshi run -v 的输出交给维护者",
        "password": "改好密码（password_file，或 password_env 后重启 shenshi run）",
    }.get(command, command)


# -- what the rules core refused ------------------------------------------------------------------

PHASES = MappingProxyType({"setup": "开局前", "night": "夜晚", "dawn": "夜晚结算后（待公布）",
                           "day": "白天", "dusk": "白天结算后（待公布）", "over": "游戏结束后"})  # fmt: skip
# The werewolf host's rulings (``override penalty|send-off|sheriff``) as the GM calls them.
_RULINGS = MappingProxyType({"penalty": "罚分", "send_off": "罚下", "sheriff": "交警徽",
                             "extra_divination": "额外占卜", "answered": "提前答复"})  # fmt: skip
_RULING_GAMES = MappingProxyType({"penalty": "只有狼人杀有", "send_off": "只有狼人杀有", "sheriff": "只有狼人杀有",
                                  "extra_divination": "只有游戏五、游戏六有"})  # fmt: skip
_REFUSALS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"\w+ is not allowed during the (\w+)(?: \d+)?"), lambda m: f"{PHASES.get(m[1], m[1])}不能这样做"),
    (re.compile(r"the game is over \((\w+) won\).*"), lambda m: f"游戏已经结束（{TEAM_NAMES.get(m[1], m[1])} 获胜），不再受理"),
    (re.compile(r"(\w+) cannot happen during the (\w+)"), lambda m: f"{PHASES.get(m[2], m[2])}不能这样做"),
    (re.compile(r"'(.+)' is not a living (?:player|character)"), lambda m: f"{m[1]} 不是存活的玩家"),
    (re.compile(r"'(.+)' is not a player of this game"), lambda m: f"{m[1]} 不是本局玩家"),
    (re.compile(r"'(.+)' is out and cannot be sheriff"), lambda m: f"{m[1]} 已出局，不能当警长"),
    (re.compile(r"'(.+)' already plays in this game"), lambda m: f"{m[1]} 已经在本局中"),
    (re.compile(r"'(.+)' is dead: a substitute takes over a living seat"),
     lambda m: f"{m[1]} 已出局：替补只能接替存活的座位"),
    (re.compile(r"(.+) has no (\w+) submission to void"),
     lambda m: f"{m[1]} 本阶段没有「{ACTION_NAMES.get(m[2], m[2])}」可以作废"),
    (re.compile(r"only today's execution can be corrected"), lambda m: "只能更正今天的处决"),
    (re.compile(r"today's vote elects the sheriff: the badge is handed over after it"),
     lambda m: "今天的投票选举警长：警徽只能在选举结束后移交"),
    (re.compile(r"no voting round is open on day (\d+)"), lambda m: f"第{m[1]}天现在没有进行中的投票"),
    (re.compile(r"today's vote elects the sheriff: nobody goes out today"),
     lambda m: "今天的投票只选举警长，没有人出局：不能处决"),
    (re.compile(r"day (\d+)'s vote elects the first sheriff: no badge before it"),
     lambda m: f"还没有警长：第{m[1]}天的投票选出第一位警长，之前不能移交警徽"),
    (re.compile(r"(\S+) has no GM ruling '(\w+)'"),
     lambda m: f"这个规则集没有「{_RULINGS.get(m[2], m[2])}」这一更正（{_RULING_GAMES.get(m[2], '别的规则集才有')}）"),
    (re.compile(r"'(.+)' is the sheriff in play: the badge passes when he goes out"),
     lambda m: f"警长 {m[1]} 还在场：警徽只在警长出局时移交（【殉职】，或按默认）"),
    (re.compile(r"'(.+)' has no divination to answer"), lambda m: f"{m[1]} 不是占卜者（预言家），没有占卜可以答复"),
    (re.compile(r"(\S+) does not allow abstaining"), lambda m: "这个规则集不能弃权（每位存活玩家都必须投给一名玩家），请写投票对象"),
    (re.compile(r"'(.+)' is out: only characters in play are penalised"), lambda m: f"{m[1]} 已出局：只能处罚在场的角色"),
)  # fmt: skip


# The rules core's details (English, as the pure core writes them) in the GM's words.
_DETAILS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"(\d+) characters"), lambda m: f"{m[1]} 字"),
    (re.compile(r"(\d+) members"), lambda m: f"只有 {m[1]} 人"),
    (re.compile(r"(\d+) warnings"), lambda m: f"第 {m[1]} 次警告"),
    (re.compile(r"sent off: (\w+)"), lambda m: f"已被罚下，不能用「{ACTION_NAMES.get(m[1], m[1])}」"),
    (re.compile(r"phase (\w+)"), lambda m: f"夜晚{m[1]}已截止"),
    (re.compile(r"after dawn − 10 min"), lambda m: "晚于天亮前10分钟"),
    (re.compile(r"penalty divination sent at night"), lambda m: "额外占卜在夜里发出"),
    (re.compile(r"two characters"), lambda m: "要写两个对象"),
    (re.compile(r"a werewolf"), lambda m: "【托孤】只能给狼人阵营的狼人"),
    (re.compile(r"another character"), lambda m: "不能以自己为对象"),
    (re.compile(r"no (【.+】) reply"), lambda m: f"没有回复{m[1]}，没有替他选择"),
    (re.compile(r"no successor named"), lambda m: "还没有用【殉职】指定继任者：结果公布前他仍可回复，之后警徽按规则流失；也可以用 override sheriff 交警徽"),
    (re.compile(r"no power by day"), lambda m: "白天不能使用能力"),
    (re.compile(r"the partner horse"), lambda m: "不能以同伴的马为对象"),
    (re.compile(r"the witch is dying"), lambda m: "女巫本人被杀、濒死，毒药失效"),
    (re.compile(r"ballot"), lambda m: "不能投票"),
    (re.compile(r"not the last wolf"), lambda m: "被放逐的不是狼人阵营最后一只狼，【孤刀】不能用"),
)  # fmt: skip


def detail_words(detail: str) -> str:
    """A rules-core decision's detail (``60 characters``) in the GM's words (``60 字``); a
    name or a detail without words is kept as it is."""
    for pattern, words in _DETAILS:
        found = pattern.fullmatch(detail.strip())
        if found:
            return words(found)
    return detail


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
    "unconfirmed": "待你确认", "superseded": "已被取代",
})  # fmt: skip


# Why an outbox action does not apply to an announcement in a state (``shenshi approve 3`` on
# one already sent), and what to do instead: ``(action, state) → words``; ``*`` any action.
_OUTBOX_REFUSALS: Mapping[tuple[str, str], str] = MappingProxyType({
    ("*", "sent"): "已由守护进程发出，不能再{verb}；要更正，请在论坛上编辑或另发",
    ("*", "published"): "已记为你手动发布，不能再{verb}；要更正，请在论坛上编辑或另发",
    ("*", "sending"): "正在发送中，不能{verb}：等守护进程确认（shenshi status）",
    ("*", "rejected"): "已放弃（shenshi reject），不能再{verb}；要恢复：shenshi reject --undo ID",
    ("*", "superseded"): "已被后来的事取代（shenshi review --all 看取代它的是哪条），不会发送，不能再{verb}",
    ("approve", "unconfirmed"): "要你先确认，不能直接批准：{confirm}",
    ("publish", "unconfirmed"): "要你先确认，不能记为发布：{confirm}",
    ("approve", "failed"): "发送失败，已在重试队列中（无需再批准）",
    ("restore", "proposed"): "没有被放弃（待审），无需撤销",
    ("restore", "approved"): "没有被放弃（已批准），无需撤销",
    ("restore", "failed"): "没有被放弃（发送失败，重试中），无需撤销",
})  # fmt: skip
OUTBOX_VERBS = MappingProxyType({"approve": "批准", "reject": "放弃", "edit": "修改",
                                 "publish": "记为发布", "restore": "撤销放弃"})  # fmt: skip
# A substitute plays his seat from the moment he is brought in (RULES.md "The substitute's own
# clocks"): the command, status and the README say it in these words.
SUBSTITUTE_PLAYS = "从现在起由 {new} 替 {old} 的座位投票和行动，{old} 的帖子和私信不再计入"


def substitute_plays(new: str, old: str) -> str:
    """What a substitute does from now on, in the GM's words (one truth for every place)."""
    return SUBSTITUTE_PLAYS.format(new=new, old=old)


def seat_played(seat: str, by: str = "") -> str:
    """A seat as status lists it: its name, and the substitute who plays it (``kk_大侠（替补 路人甲）``)."""
    return f"{seat}（替补 {by}）" if by else seat


# An outbox action as the GM types it (the dry-run log names the command that exists).
OUTBOX_COMMANDS = MappingProxyType({"restore": "reject --undo"})


def outbox_command(action: str) -> str:
    """The ``shenshi`` command (after ``shenshi``) that applies outbox ``action``."""
    return OUTBOX_COMMANDS.get(action, action)


def outbox_refusal(action: str, state: str, confirm: str = "") -> str:
    """Why ``action`` (approve, reject, edit, publish) does not apply to an announcement in
    ``state``, in the GM's words with what to do instead (``confirm``: what confirms an
    unconfirmed one, :func:`~shenshi.daemon.hints.confirmation_hints`)."""
    words = _OUTBOX_REFUSALS.get((action, state)) or _OUTBOX_REFUSALS.get(("*", state))
    verb = OUTBOX_VERBS.get(action, action)
    return (words or f"现在是「{STATES.get(state, state)}」，不能{verb}").format(verb=verb, confirm=confirm)


GM_ONLY = "┄┄┄┄ 以上是发出的原文；以下只给你看，不要复制 ┄┄┄┄"


def gm_notes(announcement: Any, labels: Mapping[str, str] | None = None) -> list[str]:
    """What the GM reads beside an announcement and the players never do (its ``notes``):
    what is missing from it, the ballots he recorded himself (天神补记), and the ballots not
    counted under a ``不计`` heading, each with the reason (``labels``: evidence id → its
    labelled link, where known)."""
    notes = getattr(announcement, "notes", None) or {}
    lines = list(notes.get("missing", ()))
    lines += [f"计入（按天神的记录，不按帖子）：{w}" for w in notes.get("recorded", ())]
    uncounted = notes.get("uncounted", ())
    if uncounted:
        lines.append("不计：")
        for u in uncounted:
            shown = (labels or {}).get(str(u.get("id"))) or u.get("words", "")
            lines.append(f"  {shown}（{u.get('reason', '不计')}）")
    return lines




# -- the daemon's own log ------------------------------------------------------------------------


def cycle_parts(result: object, *, once: bool = False) -> list[str]:
    """What a daemon cycle did, in the GM's words: read, proposed, sent, alerted, the step it
    moved to (``once``: also the new events, and that a poll found nothing new). ``result`` is
    a :class:`~shenshi.daemon.cycle.CycleResult`."""
    from shenshi.daemon.gm_commands import id_ranges

    parts = []
    posts, pms = getattr(result, "posts", 0), getattr(result, "pms", 0)
    if posts or pms:
        parts.append("读到 " + "、".join(p for p in (f"{posts} 帖" if posts else "", f"{pms} 条私信" if pms else "") if p))
    elif once and getattr(result, "polled", False):
        parts.append("论坛上没有新帖或私信")
    if once and getattr(result, "events", 0):
        parts.append(f"新事件 {result.events}")
    for field, words in (("proposed", "提出"), ("sent_ids", "发出"), ("alerts", "提醒")):
        found = getattr(result, field, ())
        if found:
            parts.append(f"{words} " + " ".join(f"#{x}" for x in id_ranges(found).split()))
    if step := getattr(result, "step", ""):
        parts.append(f"进入 {step}")
    return parts


def cycle_line(result: object, at: datetime) -> str:
    """One line for the daemon's log, on the forum's clock (``at``): ``12-02 20:15（论坛时间）
    读到 3 帖、2 条私信；提出 #12 #13；发出 #9；提醒 #5；进入 第2天``; '' for a quiet cycle."""
    parts = cycle_parts(result)
    return f"{at.strftime('%m-%d %H:%M')}（论坛时间）" + "；".join(parts) if parts else ""


def once_summary(result: object) -> str:
    """``shenshi run --once``'s line (``读到 2 帖、3 条私信；新事件 4；提出 #12 #13``)."""
    return "；".join(cycle_parts(result, once=True)) or "没有新变化"


# -- notifications ([notify]) ----------------------------------------------------------------------

# One message per round, to the GM's channels (e-mail, WeCom…): ids, counts and kinds only,
# never an announcement's or alert's text (actions, roles) nor a PM's recipient.
NOTIFY = MappingProxyType({
    "title": "神使：{game} 有事等你",
    "step": "现在：{step}",
    "verb_dry_run": "等你手动发布",
    "verb_review": "等你审核",
    "verb_confirm": "等你确认（退出或换人）",
    "post_waiting": "#{id} {what} {verb}",
    "posts_waiting": "{count} 个「{what}」帖子{verb}（{ids}）",
    "pms_waiting": "{count} 条私信{verb}（{ids}）",
    "alerts": "新提醒 {count} 条（{ids}）：{kinds}",
    "send_failed": "发送失败 {count} 条（{ids}），守护进程会重试",
    "forum_down": "守护进程读不到论坛：{why}",
    "forum_back": "论坛又能读了",
    "game_over": "游戏已结束：请在控制台查看并发布最终结果",
    "link": "控制台：{url}",
    "no_link": "（用 shenshi console 打开控制台；[notify] console_url 可以让这里带上链接）",
})  # fmt: skip


__all__ = [
    "ALERT_NAMES", "AT_DEADLINE", "BLANKS", "DEADLINES", "LABELS", "NOTES", "NOTHING_TO_DO", "OR", "WAITING", "SUGGESTED", "SUGGESTED_ONE", "PUBLISH", "FROM_PUBLICATION", "FIXED_HOURS", "RESOLVED", "action_words", "next_step", "MODE", "RULE_NAMES", "STATES", "VERDICTS",
    "PHASES", "OUTBOX_VERBS", "alert_name", "by_hand", "id_ranges", "outbox_refusal", "describe_ballot", "describe_submission", "left", "without_round", "detail_words",
    "refusal", "who_name", "round_name", "rule_name", "step_name", "verdict_name",
    "DEATH_CAUSES", "NOTIFY", "cycle_line", "cycle_parts", "death_cause", "gm_notes", "once_summary",
]  # fmt: skip
