"""Every alert kind intake raises, with the Chinese reason a rejection receipt gives.

The kinds reuse the daemon rule ids of ``scenarios/FORMAT.md`` where one exists (without the
round suffix): ``pm_window``, ``seer_locked``, ``declaration_short`` … ``docs/intake.md``
documents each kind; ``tests/intake`` checks that the corpus covers all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# kind -> (what it means for the GM, the reason given to the player in a rejection receipt;
#          None when the kind never produces a receipt)
ALERT_KINDS: Mapping[str, tuple[str, str | None]] = MappingProxyType({
    # names
    "unknown_name": ("a name that matches no player (fuzzy suggestions attached)", "没有找到玩家「{written}」"),
    "ambiguous_name": ("a name that fits more than one player", "「{written}」可能指多名玩家：{players}"),
    "missing_target": ("a command word with no name after it", "没有写明对象"),
    # who may act
    "not_a_player": ("a command from a forum user who is not a player of this game", None),
    "dead_actor": ("an action or ballot by a dead (out) player (A-S5)", "你已出局，不能再行动"),
    "no_power": ("the sender's role does not have this power (or the ruleset has no such command)", "你的身份不能使用「{verb}」"),
    "sent_off": ("werewolf: a sent-off (罚下) character discussed, voted or used a skill", "你已被罚下，不能发言、投票或使用技能"),
    "not_eligible": ("a ballot by a player who may not vote now (the bound survivor)", "你今天不能投票"),
    # when
    "pm_window": ("a PM action outside its window (A-S1), or at the wrong time of day", "不在提交时间内"),
    "after_deadline": ("chess32: an action after dawn − 10 min (RES-C32)", "已过天亮前10分钟的截止时间"),
    "phase_deadline": ("werewolf: a skill reply after its night phase's deadline", "已过本阶段的截止时间"),
    "wrong_phase": ("a skill of another phase (night 0 only, day only, …)", "该技能现在不能使用"),
    "extra_divination_deadline": ("the penalty divination came after its deadline (RES-A19)", "已过额外占卜的截止时间"),
    "extra_divination_used": ("the penalty divination was already used (only the first is answered)", "额外占卜机会已经用过"),
    "seer_locked": ("the seer changed target after the GM had answered (A-S2)", "天神已答复今晚的占卜，不能再更改"),
    "locked": ("werewolf: a change after the target was locked with 确定", "目标已用「确定」锁定，不能再更改"),
    "wrong_channel": ("a command sent where it does not count (a ballot by PM in chess/werewolf; a skill by PM instead of the 功能树洞)", "请在规定的帖子里提交"),
    "action_conflict": ("one PM names different targets for the same action", "同一条消息里「{verb}」写了不同的对象"),
    # targets
    "dead_target": ("the target is dead / out", "{target} 已出局"),
    "self_target": ("a self-target the rules forbid (chess general, cannon, chariot, horse; 孤刀; 殉职)", "不能以自己为对象"),
    "general_target": ("chess32: imprison, protect or pray aimed at a general", "不能对帅使用该能力"),
    "invalid_platform": ("chess32: a cannon with no, or an invalid, platform (the whole kill is forfeited)", "炮架子无效：{reason}"),
    "invalid_target": ("a target the skill cannot take (托孤 on a non-werewolf, 金箭 without two names …)", "对象无效：{reason}"),
    "lone_killer_suicide": ("the last killer targets himself (game5, game6-10; RES-A4)", "杀手仅剩一人时不能自杀"),
    "off_duty_killer": ("game6-8: a kill by the killer whose night it is not (RES-A1)", "今晚不是你的杀人夜"),
    "no_swaps_left": ("chess32: a swap (抽将) after both uses", "抽将次数已用完"),
    "swap_enemy": ("chess32: a swap naming an enemy (accepted; the swap will fail and the general die)", None),
    "guard_once": ("werewolf: 【守护】 on a character already guarded", "{target} 已被守护过"),
    "silence_once": ("werewolf: 【隔音】 on a character already silenced", "{target} 已被隔音过"),
    "heal_not_in_vision": ("werewolf: 【救药】 on a character not on tonight's 【通灵】 list", "{target} 不在今晚的通灵名单中"),
    "skill_used": ("werewolf: a single-use skill (救药, 毒药, 托孤, 孤刀) already spent", "该技能已经用过"),
    # declarations and texts
    "declaration_missing": ("family A: a kill with no declaration (forfeited unless one arrives by the deadline)", None),
    "declaration_short": ("family A: a kill declaration under 100 characters (flag for the GM's penalty)", None),
    "kill_post_short": ("chess32: a kill post under 150 characters, or none (flag only, RES-C18)", None),
    "last_words_not_granted": ("last words from someone who may not leave them", "你没有遗言权"),
    "last_words_late": ("last words after their deadline", "已过遗言截止时间"),
    "last_words_too_long": ("werewolf: last words over 3000 characters", "遗言超过3000字"),
    # ballots (thread posts)
    "no_vote_open": ("a ballot while no vote is open (night, before the vote thread, after close)", "现在不是投票时间"),
    "vote_wrong_thread": ("a ballot outside the vote thread", None),
    "vote_conflict": ("two different targets in one post: no vote", None),
    "conditional_vote": ("a ballot written as a condition or a question: no vote", None),
    "abstain_not_allowed": ("an abstention where the ruleset forbids it (family A, werewolf)", "本局不能弃票"),
    "not_a_candidate": ("a round-2 / runoff ballot for a player who is not a candidate", "{target} 不是本轮候选人"),
    "vote_immutable": ("family A: a second, different ballot (the first is final, D-I)", None),
    "change_limit": ("chess32: a second change of ballot in one round", None),
    "last_hour_change": ("chess32: a change of ballot in the last hour of the round", None),
    "delegation_overridden": ("a delegated vote from a player who already voted in the thread", "你已在投票帖投票，委托无效"),
    "delegation_published": ("a delegated vote changed after the GM published it", "委托投票已公布，不能再更改"),
    "delegation_to_player": ("a delegation to another player (not allowed, D-D)", "不能委托其他玩家代投"),
    "vote_closed": ("a delegated vote after the vote closed", "投票已经截止"),
    # speech rules (one post)
    "dead_post": ("chess32 / werewolf: a dead or out player posted in the game (C-D9)", None),
    "spectator_post": ("chess32: a non-player posted in the game room (§7.1)", None),
    "maddened_speech": ("werewolf: a maddened character wrote other than the allowed characters (W-D5)", None),
    "content_free_post": ("chess32: a post of only quotes, emoticons or numbers, or 路过 (§4.8)", None),
    "long_quote": ("chess32: a long quote block of another player's post (§7.1)", None),
    # evidence
    "edited_vote": ("a post edited after it was first seen, changing a ballot or an action", None),
})  # fmt: skip


def reason(kind: str, **fields: object) -> str | None:
    """The player-facing reason for ``kind``, filled in; ``None`` when it has none."""
    template = ALERT_KINDS[kind][1]
    if template is None:
        return None
    try:
        return template.format(**fields)
    except (KeyError, IndexError):
        return template
