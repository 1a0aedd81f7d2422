"""The default text of every template, with what it is for (the table ``docs/templates.md`` is
generated from, by ``python -m shenshi.wording``).

Groups, by reader:

* ``announcement`` — the GM's public posts (night and day results, the winner);
* ``kind`` — what each announcement is, as the GM's review and dry-run log name it;
* ``cause`` — how a death is announced (``$cause`` of ``death``);
* ``answer`` — private results by PM (divination, checks, identities, 【通灵】);
* ``role`` — the role PMs of the deal;
* ``receipt`` — receipts (回执) to a player for a PM or a 功能树洞 reply;
* ``reason`` — why a command was refused, in a receipt (``reason_<alert kind>``);
* ``alert`` — GM alerts (``alert_<alert kind>`` and variants);
* ``forum`` — what is added to a post for the forum's sake.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from shenshi.wording.templates import TemplateSpec

GROUPS = {
    "announcement": "Public posts of the GM",
    "kind": "What each announcement is, in the GM's review and dry-run log",
    "cause": "Causes of death (the $cause of `death`)",
    "answer": "Private results (PMs)",
    "role": "Role PMs",
    "receipt": "Receipts to players (回执)",
    "reason": "Why a command was refused (in a receipt)",
    "alert": "GM alerts",
    "notice": "Notices to players (PMs): what the rules say they must be told",
    "forum": "Forum",
}

_SPECS: list[TemplateSpec] = []


def _group(group: str, *rows: tuple[str, str, str] | tuple[str, str, str, tuple[str, ...]]) -> None:
    for row in rows:
        name, default, doc = row[:3]
        extra = row[3] if len(row) > 3 else ()
        _SPECS.append(TemplateSpec(name, group, default, doc, extra))  # type: ignore[arg-type]


_group(
    "announcement",
    ("night_title", "【第${n}夜结果】", "title of a night's result post ($n: the night)"),
    ("day_title", "【第${n}天投票结果】", "title of a day's vote result post ($n: the day)"),
    (
        "execution_ruled",
        "天神裁定：${line}",
        "a day's execution the GM decided after the count (`override execute`), in the result",
    ),
    (
        "execution_corrected_title",
        "【第${n}天投票结果·更正】天神更正今天的处决：",
        "title of a post that corrects a day's execution already published (`override execute`)",
    ),
    ("death", "${name} ${cause}。", "a night death with its cause (a `cause_*` text)"),
    (
        "death_camp",
        "${name} 死亡，所属阵营：${camp}。",
        "a death announced with the camp (chess32)",
    ),
    (
        "kill_declaration",
        "杀人宣言（${victim}）：\n${text}",
        "a kill declaration published with its death",
    ),
    (
        "quoted_line",
        "｜${line}",
        "each line of a player's text a GM post repeats (kill declarations): never the GM's own",
    ),
    ("no_death", "昨夜无人死亡。", "nobody died in the night"),
    ("kill_failed", "杀手杀人失败。", "game5: a bind success (with `bound`)"),
    ("bound", "${name} 被束魂，今日可以发言，但不能投票。", "the bound survivor of the night"),
    ("tally_line", "${name}：${votes} 票", "one line of the first-round tally"),
    ("curse_applied", "${name} 获得诅咒附加的一票。", "a curse that counted in the tally"),
    ("bless_applied", "${name} 因庇佑减少一票。", "a bless that counted in the tally"),
    (
        "runoff",
        "${names} 平票，进入生死投票（只能投给以上玩家）。",
        "a tie leading to the runoff (生死投票)",
    ),
    (
        "round2",
        "${names} 平票且达到30%，进入第二轮投票（只能投给以上玩家或弃权）。",
        "chess32: a tie leading to round 2",
    ),
    (
        "runoff_tally",
        "生死投票：${tally}",
        "the runoff's tally ($tally: `tally_item`s joined by `list_separator`)",
    ),
    ("round2_tally", "第二轮：${tally}", "chess32: round 2's tally"),
    ("kill_post", "杀人帖（${victim}）：\n${text}", "chess32: a kill post published with its death"),
    ("final_tally", "计入遗言与招魂后：${tally}", "the runoff's tally after 遗言计票 and 招魂"),
    (
        "final_tally_last_words",
        "计入遗言后：${tally}",
        "the runoff's tally after 遗言计票, when it decided (no 招魂 took place)",
    ),
    (
        "summoning",
        "${names} 仍然平票，进入招魂：${victims}。被招魂者请在本帖发出后 ${hours} 小时内到投票帖投给 ${names} 之一"
        "（每人一票；先计最近一夜的死者，这一夜无人上线才计更早一夜的死者）。",
        "a runoff still tied after the last words goes on to the summoning (招魂, D-4): whom it "
        "calls ($victims: `summoning_night`s, the latest first), for which candidates, how long",
    ),
    (
        "next_round_length",
        "${round}自本帖发出起持续 ${hours} 小时，请在投票帖投票。",
        "a round's result that leads to a runoff (chess32: round 2): how long it lasts from the post",
    ),
    (
        "summoning_nobody",
        "仍然平票，没有可以招魂的死者（此前没有夜间死者）。",
        "a runoff still tied after the last words when no night has had a victim: no summoning, no execution",
    ),
    ("summoning_night", "第${n}夜死者 ${names}", "the victims of one night a summoning calls"),
    ("tally_item", "${name} ${votes} 票", "one candidate in a runoff tally"),
    ("list_separator", "，", "between the items of a tally"),
    (
        "executed",
        "${name} 被处决，身份：${value}。",
        "an execution with the published identity (杀手/平民)",
    ),
    ("executed_camp", "${name} 被处决，所属阵营：${camp}。", "chess32: an execution with the camp"),
    ("no_execution", "本日无人被处决，直接进入黑夜。", "a day without an execution"),
    ("exit", "${name} 自动退出游戏。", "an automatic exit"),
    ("exit_by_gm", "${name} 退出游戏。", "an exit the GM declared without a reason or a pending notice"),
    ("exit_because", "${name} 退出游戏（${reason}）。", "an exit the GM declared with a reason (a player who quit)"),
    ("substitution", "${out} 退出，由替补 ${in} 接替。", "a substitute takes over a seat"),
    (
        "seat_taken_over",
        "${new}（接替 ${old}）",
        "a seat a substitute is taking over, as the posts and answers of the step he entered in name it "
        "(its ballots were cast under the old name; from the next step on it is the substitute's)",
    ),
    (
        "substitution_deadline",
        "本阶段因替补延长${hours}小时：${moments}。",
        "a substitution that moved the open step's deadlines (+12 h, A-D13): in its post and in the "
        "substitute's role PM ($moments: `moved_*` joined by `list_separator`)",
    ),
    ("moved_vote_opens", "投票开始改为 ${at}", "a deadline moved: the vote opens"),
    ("moved_vote_closes", "${round}截止改为 ${at}", "a deadline moved: the open voting round closes ($round: 投票, 生死投票, 招魂)"),
    ("moved_day_end", "第${n}天结束改为 ${at}", "a deadline moved: the day ends"),
    (
        "substitution_round_over",
        "替补带来的延长属于第${round}轮投票，这一轮已经结束。",
        "a substitution's post when the round it extended has closed (early) before the post is out",
    ),
    (
        "moved_round_length",
        "下一轮投票改为从上一轮结果公布起持续 ${hours} 小时",
        "a deadline moved: the next round (not announced yet) lasts longer",
    ),
    ("moved_night_end", "第${n}夜结束改为 ${at}", "a deadline moved: the night ends"),
    ("moved_action_deadline", "夜间行动截止改为 ${at}", "a deadline moved: night actions are due"),
    ("moved_night_phase", "夜晚${phase}截止改为 ${at}", "a deadline moved: a night phase closes"),
    ("out", "${name} 出局。", "werewolf: a character goes out"),
    ("sheriff", "${name} 成为警长。", "werewolf: the new sheriff"),
    ("penalty", "${name} 被判罚，累计 ${points} 分。", "werewolf: penalty points the referee gave (§5.8, public)"),
    ("sent_off", "${name} 被罚下：不能再发言、投票或使用技能。", "werewolf: a character sent off (罚下, §5.3)"),
    ("ruling_reason", "理由：${reason}", "werewolf: the reason of a penalty or a send-off, published with it (§5.8)"),
    ("madness_lifted", "吹笛者出局，所有癫狂状态解除。", "werewolf: the piper went out"),
    ("winner", "【游戏结束】${camp}获胜！", "the end of the game and the winning camp"),
    ("draw", "【游戏结束】双方帅同时阵亡，和棋。", "chess32: both generals died the same night"),
    ("signature", "\n\n—— 神的使者", "added at the end of every public post"),
    (
        "signin_missed",
        "${name} 未在游戏者名单公布后24小时内签到，视为自动退出游戏。",
        "a player who did not sign in",
    ),
    (
        "lurking",
        "${name} 已超过48小时未在杀人版发帖，视为自动退出游戏。",
        "a player who lurked too long",
    ),
)
_group(
    "kind",
    ("kind_night_result", "第${n}夜结果", "a night's result post"),
    ("kind_day_result", "第${n}天投票结果", "a day's (last) vote result post"),
    ("kind_round_result", "第${n}天第${round}轮结果", "the result of a day's round that leads to another"),
    ("kind_receipt", "回执", "a receipt"),
    ("kind_divination", "占卜答复", "the seer's answer"),
    ("kind_extra_divination", "额外占卜答复", "the penalty divination's answer"),
    ("kind_check", "查证结果", "chess32: the horses' check"),
    ("kind_death_identity", "阵亡者身份", "chess32: a dead player's identity, to his general"),
    ("kind_prophecy", "预言结果", "werewolf: the seer's 【预言】"),
    ("kind_witch_vision", "通灵名单", "werewolf: the witch's 【通灵】 list"),
    ("kind_lover_partner", "情侣告知", "werewolf: each lover's partner"),
    ("kind_camp_changed", "阵营变更告知", "werewolf: a character told his new camp"),
    ("kind_entrust_failed", "托孤作废告知", "werewolf: a wolf told his 托孤 was voided"),
    ("kind_role", "身份通知", "a role PM of the deal"),
    ("kind_signin", "未签到", "a player who did not sign in"),
    ("kind_lurk", "潜水", "a player who lurked too long"),
    ("kind_substitution", "替补公告", "a substitute takes over a seat"),
    ("kind_gm_message", "天神私信", "the GM's own PM to a player (shenshi message)"),
    ("kind_seat_taken", "座位被接替通知", "a PM to the player whose seat a substitute takes over"),
    ("kind_partner_seat", "同伴换人通知", "a PM to a partner of a seat a substitute took over (not announced)"),
    ("kind_ballot_entered", "代记选票通知", "a PM to a voter whose ballot the GM recorded"),
    ("kind_round_closed", "提前截票通知", "a PM to a substitute whose extended round closed early"),
    ("kind_exit", "退出公告", "a player's exit"),
    ("kind_ruling", "天神判定公告", "werewolf: the GM's public ruling (警徽移交, 判罚, 罚下)"),
    ("kind_vote_opened", "第${n}天开放投票", "game6: the post that opens the vote thread"),
    ("kind_vote_not_open", "投票未开放提醒", "a PM to whoever voted before the vote opened"),
    ("kind_vote_kept", "投票未计入提醒", "a PM to whoever changed a ballot the GM recorded for him"),
    ("kind_vote_closed", "投票已截止提醒", "a PM to whoever voted after the round closed"),
    ("kind_vote_wrong_thread", "投错帖提醒", "a PM to whoever voted outside the vote thread while the round is open"),
    ("kind_vote_unread", "投票未计入提醒", "a PM to whoever posted a ballot in the vote thread that could not be counted"),
    ("kind_joint_disagreement", "联合行动意见不一提醒", "a PM to each member of a joint unit whose choices differ"),
    ("kind_joint_agreed", "联合行动已一致通知", "a PM to a member told of a disagreement, once the unit agrees again"),
    ("kind_declaration_lost", "宣言失效提醒", "a PM to a killer whose partner's declaration no longer covers his kill"),
    ("kind_night_deadlines", "第${n}夜阶段截止", "werewolf: the night's phase deadlines post"),
    ("kind_last_words_notice", "遗言期限", "werewolf: until when last words are accepted"),
    ("kind_successor_notice", "警徽移交提醒", "werewolf: a sheriff put out names his successor"),
    ("kind_maddened_notice", "癫狂通知", "werewolf: a maddened character's notice"),
    ("kind_lurk_warning", "潜水警告", "chess32: a lurking warning"),
    ("kind_lurk_replaced", "潜水换人", "chess32: a lurker replaced"),
)
_group(
    "cause",
    ("cause_killer", "被杀手杀害", "family A: killed by the killers"),
    ("cause_bind_failure", "束魂失败，死于束魂者之手", "family A: a two-night bind failure"),
    ("cause_execution", "被处决", "executed"),
    ("cause_auto_exit", "自动退出游戏", "an automatic exit"),
    ("cause_general", "被帅所杀", "chess32: killed by a general"),
    ("cause_cannon", "被炮击杀", "chess32: killed by a cannon"),
    ("cause_mine", "兑子同归于尽", "chess32: died with the MINE player he killed"),
    ("cause_swap", "被抽将", "chess32: grabbed by the general's swap"),
    ("cause_kill", "被杀", "werewolf: 【杀人】"),
    ("cause_poison", "被毒杀", "werewolf: 【毒药】"),
    ("cause_lovers_suicide", "殉情", "werewolf: the lover's partner went out"),
    ("cause_vote_out", "被投票出局", "werewolf: voted out"),
    ("cause_lone_blade", "被孤刀带走", "werewolf: 【孤刀】"),
    ("cause_unknown", "死亡", "a cause with no text of its own"),
)
_group(
    "answer",
    (
        "divination",
        "天神答复：你占卜的对象 ${name} ${value}杀手。",
        "the seer's answer ($value: 是/不是)",
    ),
    (
        "extra_divination",
        "天神答复（额外占卜）：你占卜的对象 ${name} ${value}杀手。",
        "the penalty divination's answer",
    ),
    ("check", "查证结果：${name} 是 ${camp}的${identity}。", "chess32: the horses' check"),
    (
        "death_identity",
        "你方阵亡的 ${name} 的身份是：${identity}。",
        "chess32: a dead player's identity, to his general",
    ),
    ("prophecy", "【预言】结果：${name} 属于${value}。", "werewolf: the seer's 【预言】"),
    (
        "witch_vision",
        "【通灵】今夜被【杀人】选中的角色：${names}",
        "werewolf: the witch's 【通灵】 list",
    ),
    ("witch_vision_empty", "（无）", "an empty 【通灵】 list"),
    ("lover_partner", "你的情侣是：${name}。", "werewolf: each lover's partner"),
    (
        "entrust_failed",
        "你的【托孤】没有生效：第0夜结算后狼人阵营不足3人，按规则托孤作废。",
        "werewolf: an accepted 托孤 the night-0 settlement voided (N0.4)",
    ),
    (
        "camp_changed",
        "你的阵营已变为${camp}（第0夜结算的结果），胜负按新的阵营判定。请妥善保密。",
        "werewolf: a character whose camp the night changed (私奔: the lovers and cupid)",
    ),
)
_group(
    "role",
    (
        "role",
        "你在《${game}》中的身份是：${role}（${team}）。请妥善保密。",
        "the role PM of the deal",
    ),
    ("partners", "你的同伴：${names}。", "added to the role PM of a joint unit or pack"),
    (
        "substitute_seat",
        "你作为替补接替 ${old} 的座位：身份、同伴、标记和这个座位已有的投票与行动都由你继承。",
        "the role PM of a substitute (替补): whose seat he takes over (RES-A18)",
    ),
    (
        "ballot_entered",
        "天神已把你本轮的投票记为 ${target}，这一票有效，不必再投。",
        "to a voter whose ballot the GM recorded (override ballot): what counts for him now",
    ),
    (
        "partner_seat_taken",
        "你的同伴 ${old} 的座位现在由 ${new} 接替（这个替换不公开）：之后和你一起行动、联系的是 ${new}。",
        "to a partner (a joint unit, the pack, a lover) of a seat a substitute took over where substitutions are not announced",
    ),
    (
        "substitute_ballot_stands",
        "这个座位本轮已投票（${target}），按规则这一票仍然有效，你不必再投。",
        "a substitute's role PM: the seat's ballot of the open round stands",
    ),
    (
        "substitute_ballot_due",
        "这个座位本轮还没有投票：投票已经开放，请你在投票帖投票（${closes} 截止）。",
        "a substitute's role PM: the seat has not voted in the open round",
    ),
    (
        "substitute_ballot_due_from",
        "这个座位本轮还没有投票：投票帖 ${opens} 开放投票（之前的投票不计），"
        "请你届时在投票帖投票（${closes} 截止）。",
        "a substitute's role PM: the seat has not voted, and the vote opens later than the day (game6)",
    ),
    (
        "substitute_ballot_earlier",
        "这个座位今天第${round}轮投了 ${target}（这一票有效）。",
        "a substitute's role PM: the seat's ballot of an earlier round of the day",
    ),
    (
        "substitute_next_round",
        "这个座位还要参加下一轮投票（只能投给 ${names}）：它在上一轮结果公布后开始，持续 ${hours} 小时，请届时在投票帖投票。",
        "a substitute's role PM: the next round (a runoff) is not announced yet",
    ),
    (
        "substitute_summoning",
        "今天的投票已经进入招魂：只有被招魂的死者投票，这个座位今天不用再投票。",
        "a substitute's role PM during the summoning (招魂): the seat votes no more today",
    ),
    (
        "substitute_actions",
        "这个座位今晚现在有效的行动：${actions}。你可以${how}提交你自己的来更改（以最后一条为准）。",
        "a substitute's role PM: the seat's night actions of the open night (the latest of each, which counts;"
        " $how: `skill_channel_pm` or `skill_channel_role_thread`)",
    ),
    ("skill_channel_pm", "私信天神", "how skills are sent (family A, chess32): by PM"),
    (
        "skill_channel_role_thread",
        "在你的功能树洞回复",
        "how skills are sent (werewolf): a reply in the role's own 功能树洞",
    ),
    (
        "substitute_earlier",
        "这个座位此前收到的私信：\n${results}",
        "a substitute's role PM: the private results the seat received before (answers, checks)",
    ),
    (
        "substitute_sheriff",
        "这个座位是警长：你的投票算 2.1 票；你出局时要在功能树洞回复「【殉职】角色名」指定继任的警长。",
        "werewolf: a substitute in the sheriff's seat inherits the badge (RES-W25)",
    ),
    (
        "substitute_warnings_fresh",
        "潜水警告不随座位继承：你从 0 次警告开始。",
        "chess32: a substitute starts with no lurking warnings (RES-C33)",
    ),
    (
        "substitute_bind_streak",
        "这个座位上一夜束魂了 ${name}，他没有被杀手选中：今夜若再束魂 ${name} 而他仍没被杀手选中，他会因束魂失败死亡（连续两夜束魂同一人）。",
        "a substitute in the binder's seat: the bind streak he inherits (RES-A10, RES-A18)",
    ),
    ("substitute_earlier_line", "｜${text}", "one earlier private result, in `substitute_earlier`"),
    (
        "seat_taken",
        "替补 ${new} 接替了你的座位：你已退出本局，之后的私信和投票不再计入。请继续为本局保密。",
        "a PM to the player whose seat a substitute takes over, with the substitution's post",
    ),
)
_group(
    "receipt",
    (
        "receipt_voided",
        "天神已作废你本阶段的「${action}」，它不会计入结算，之前的回执不再算数。如仍要行动，请在截止前重新发私信。",
        "to a player whose receipt already went out, when the GM voids that action (override void)",
    ),
    (
        "receipt_voided_unanswered",
        "天神已作废你本阶段的「${action}」，它不会计入结算。如仍要行动，请在截止前重新发私信。",
        "the same, to a player whose receipt had not gone out yet (it is withdrawn: gmattack3 F3)",
    ),
    (
        "receipt_voided_unanswered_tree_hole",
        "天神已作废你本阶段的「${action}」，它不会计入结算。如仍要行动，请在截止前在你的功能树洞重新回复。",
        "werewolf: the same, where skills are replies in the 功能树洞",
    ),
    (
        "receipt_voided_tree_hole",
        "天神已作废你本阶段的「${action}」，它不会计入结算，之前的回执不再算数。如仍要行动，请在截止前在你的功能树洞重新回复。",
        "werewolf: the same, where skills are replies in the 功能树洞 (a PM would not count)",
    ),
    (
        "receipt_which_game",
        "你同时在${games}里，这条私信（${time}）算哪一局无法确定，暂时没有计入，天神已收到提醒。"
        "如果它是行动，请重发一次，在开头写上游戏名，例如：${example}",
        "a PM of a player seated in several games that fits more than one (or none) of them",
    ),
    (
        "receipt_accepted",
        "已收到：${what}，${note}",
        "an accepted command ($what: a `receipt_what*` text, $note: until when it may change)",
    ),
    (
        "receipt_entered",
        "天神已按你的私信「${written}」代为记录——${text}",
        "a command the GM entered for a player whose PM could not be read ($text: the "
        "`receipt_accepted` of what was recorded, $written: the PM's first line); replaces "
        "the refusal receipt of that PM if it was not sent yet",
    ),
    (
        "receipt_notes",
        "${text}。提醒：${notes}",
        "an accepted command the GM will still look at ($notes joined by `receipt_note_separator`)",
    ),
    ("receipt_note_separator", "；", "between notes"),
    ("receipt_tonight", "今晚", "$when of a night command"),
    ("receipt_today", "今天", "$when of a day command"),
    ("receipt_what", "${when}${verb} ${target}", "what was accepted"),
    (
        "receipt_what_untimed",
        "${verb} ${target}",
        "what was accepted, for a skill not bound to tonight (殉职, 孤刀, 托孤)",
    ),
    ("receipt_what_pray", "${when}为 ${target} 祈祷", "a prayer"),
    (
        "receipt_what_cannon",
        "${when}${verb} ${target}，炮架子 ${platform}",
        "a cannon's kill and platform",
    ),
    ("receipt_what_lovers", "${verb} ${target} 与 ${target2}", "werewolf 【金箭】"),
    (
        "receipt_post_chars",
        "（${label} ${chars} 字）",
        "after a kill: the length of its declaration",
    ),
    ("receipt_post_missing", "（未收到${label}）", "after a kill: no declaration yet"),
    (
        "receipt_post_partner",
        "（${label}已由 ${partner} 提交）",
        "after a joint unit's kill: the partner sent the declaration (A-J3)",
    ),
    (
        "receipt_pack_kill",
        "（狼人共用一次杀人：以任何一名狼人最后提交的目标为准，先用「确定」锁定的优先）",
        "after a werewolf's kill: the pack has one kill, the last target any wolf sent (RES-W7), so a "
        "pack-mate's later target replaces his",
    ),
    (
        "receipt_post_same",
        "（${label}同上一条，${chars} 字）",
        "after a kill: the declaration of the sender's earlier kill PM stands (宣言同上)",
    ),
    ("receipt_until_locked", "已锁定，不能再更改", "a command locked with 确定"),
    ("receipt_until_at_once", "立即生效，不能再更改", "a skill applied as it arrives (werewolf 【殉职】: the badge passes at once)"),
    (
        "receipt_until_first",
        "额外占卜以第一次为准，不能更改",
        "the penalty divination (only the first counts)",
    ),
    ("receipt_until_answer", "天神答复前可更改", "the seer (until the GM answers)"),
    ("receipt_until_time", "${deadline} 前可更改", "a command that may change until a known time"),
    ("receipt_until_dawn", "天亮前可更改", "family A: until dawn"),
    ("receipt_until_dawn_10", "天亮前10分钟内可更改", "chess32: until dawn − 10 min"),
    ("receipt_until_deadline", "截止前可更改", "until the deadline"),
    (
        "receipt_until_settled",
        "结算前可更改（行动全部到齐后会提前结算）",
        "a step that ends once everything is in (RULES.md Early close): until it is settled",
    ),
    (
        "receipt_until_closing",
        "行动已全部到齐，即将结算，不能再更改",
        "the command that completed a step that ends once everything is in",
    ),
    (
        "receipt_until_settled_done",
        "行动已全部到齐，本阶段已提前结算，不能再更改",
        "a receipt still unsent when its step settled early (it reaches the player after the result)",
    ),
    (
        "receipt_until_done",
        "本阶段已结算，不能再更改",
        "a receipt still unsent when its step settled (it reaches the player after the result)",
    ),
    (
        "receipt_until_deadline_confirm",
        "截止前可更改，另起一行写「确定」可锁定",
        "werewolf: until the phase's deadline, or 确定",
    ),
    (
        "receipt_delegation",
        "已收到：${verb} ${target}，天神公布前可更改；你本人在投票帖投票则委托作废",
        "an accepted delegated ballot",
    ),
    ("receipt_last_words", "已收到遗言（${chars} 字）${accused}", "accepted last words"),
    ("receipt_accused", "，指控：${names}", "the $accused of `receipt_last_words`"),
    (
        "receipt_declaration",
        "已收到${label}（${chars} 字）",
        "a kill declaration sent apart from its kill",
    ),
    ("receipt_plain", "已收到：${verb}", "an accepted 减速 (or 加速 with no day known)"),
    ("withdrawn_by_player", "本人撤回", "the reason recorded when a player takes his skill back (不救了)"),
    (
        "receipt_withdrawn",
        "已收到：撤回${when}的${verb}，现在没有有效的${verb}；${note}",
        "a skill taken back (不救了, 取消【救药】): nothing of it stands now ($note: until when it may change)",
    ),
    (
        "receipt_speed_up",
        "已收到：同意第${day}天加速",
        "werewolf: an accepted 同意加速, with its day",
    ),
    (
        "receipt_speed_up_withdrawn",
        "已收到：撤回第${day}天加速（你不再同意加速，除非再回复同意）",
        "werewolf: an agreement to speed the day up taken back (撤回加速, 不同意第N天加速)",
    ),
    (
        "receipt_rejected",
        "未受理：${what}——${why}。",
        "a refused command ($why: a `reason_*` text, which says what the player can still do)",
    ),
    ("receipt_command_word", "指令", "a refused command whose action is not known, in a receipt"),
    ("receipt_hint", "（是否指：${names}？）", "name suggestions in a refusal"),
    ("receipt_name_separator", "、", "between names in a receipt or an alert"),
    (
        "note_post_missing",
        "请在截止前补交${label}，否则本次杀人作废",
        "a kill without its declaration",
    ),
    (
        "note_post_short",
        "${label}只有 ${chars} 字，不足 ${minimum} 字，天神可以据此处罚",
        "a kill with a short declaration",
    ),
    (
        "note_declaration_short",
        "只有 ${chars} 字，不足 ${minimum} 字，天神可以据此处罚",
        "a declaration sent apart that is short",
    ),
)
_group(
    "reason",
    (
        "reason_unknown_name",
        "没有找到玩家「${written}」${suggested}，请写对名字后重新发送",
        "no player of that name ($suggested: `receipt_hint` or empty)",
    ),
    (
        "reason_ambiguous_name",
        "「${written}」可能指多名玩家：${players}，请写全名后重新发送",
        "a name that fits several players",
    ),
    (
        "reason_self_by_other_name",
        "「${written}」现在就是你自己（${own}）的座位；如果确实要对自己使用，请写你的名字「${own}」重新发送，"
        "否则请写你要的玩家",
        "a command naming the player whose seat the sender took over (himself now)",
    ),
    ("reason_missing_target", "没有写明对象，请写上玩家名后重新发送", "a command without a name"),
    ("reason_pronoun_target", "「${written}」没有写明是谁，请写上玩家名后重新发送", "a command naming 他/她 (nobody)"),
    ("reason_dead_actor", "你已出局，不能再行动", "a dead player's command"),
    ("reason_no_power", "你的身份不能使用「${verb}」", "a power the role does not have"),
    ("reason_sent_off", "你已被罚下，不能发言、投票或使用技能", "werewolf: a sent-off character"),
    ("reason_not_eligible", "你今天不能投票", "the bound survivor"),
    ("reason_pm_window", "不在提交时间内，本次提交无效", "outside the PM window"),
    (
        "receipt_next_window",
        "；下一夜的私信时间从今天的投票结果公布时开始（最早 ${opens}），请在那之后重新发送",
        "added to a refusal for a night PM sent by day: when the next window opens (A-S1)",
    ),
    (
        "receipt_next_window_later",
        "；下一夜的私信时间从今天的投票结果公布时开始（今天还有一轮投票），请在那之后重新发送",
        "added to a refusal for a night PM sent by day while the next voting round is not announced yet",
    ),
    (
        "reason_after_deadline",
        "已过天亮前10分钟的截止时间，本次提交无效",
        "chess32: after dawn − 10 min",
    ),
    (
        "reason_phase_deadline",
        "已过本阶段的截止时间，本次提交无效",
        "werewolf: after the night phase's deadline",
    ),
    (
        "reason_phase_not_open",
        "夜晚${phase}尚未开始（夜晚1截止、收到通灵名单后开始），本次提交无效",
        "werewolf: a witch's reply before 夜晚2 opens",
    ),
    ("reason_wrong_phase", "该技能现在不能使用", "a skill of another phase"),
    (
        "reason_step_settled",
        "本阶段已经截止，不再计入",
        "a command after the step that decided the game closed, before its end is published",
    ),
    ("reason_game_over", "游戏已经结束，不再受理", "a command after the game's end was published"),
    (
        "reason_declaration_before_kill",
        "这份宣言比你们的杀人指令先到，没有计入；现在请再发一次宣言，它会跟随已收到的杀人指令",
        "a 杀人宣言 refused for want of a kill, once the unit's kill came: send it again",
    ),
    (
        "reason_declaration_without_kill",
        "今晚还没有收到你们的杀人指令，这份宣言没有可以跟随的杀人：请把它和「杀 玩家名」写在同一条私信里发来（杀手方还没有行动，不会提前结算）",
        "a 杀人宣言 sent alone before any kill of the sender or his partner: nothing recorded",
    ),
    (
        "reason_seat_ballot_stands",
        "你接替的座位本轮已由 ${old} 投票（${target}），按规则这一票有效",
        "a substitute's ballot where the seat he took over had voted already (RULES.md "
        "\"The substitute's own clocks\")",
    ),
    (
        "reason_night_settled",
        "这一夜已经结算，不再计入；下一夜的行动请在下一夜开始后发送",
        "a night action after its night was settled, before the day opens",
    ),
    (
        "reason_not_in_phase",
        "天神正在结算或公布结果，现在不能提交；请在下一阶段开始后重新发送",
        "a command between two steps (the rules core refused it)",
    ),
    (
        "reason_extra_divination_deadline",
        "已过额外占卜的截止时间",
        "the penalty divination came late",
    ),
    ("reason_extra_divination_used", "额外占卜机会已经用过", "the penalty divination was used"),
    ("reason_seer_locked", "天神已答复今晚的占卜，不能再更改", "the seer after the GM's answer"),
    ("reason_locked", "目标已用「确定」锁定，不能再更改", "werewolf: after 确定"),
    ("reason_wrong_channel", "请在规定的地方提交", "a command sent where it does not count"),
    ("reason_wrong_channel_pm", "技能请回复在你的功能树洞，短消息不算", "werewolf: a skill by PM"),
    (
        "reason_wrong_channel_thread",
        "请回复在你自己的功能树洞",
        "werewolf: a skill in another's 功能树洞",
    ),
    (
        "reason_wrong_channel_post",
        "行动请私信天神，写在公开帖里不算",
        "a night action of his role posted in the vote thread",
    ),
    (
        "reason_wrong_channel_post_tree_hole",
        "技能请回复在你的功能树洞，写在公开帖里不算",
        "werewolf: a skill or 加速 posted in the day thread",
    ),
    (
        "reason_wrong_channel_ballot",
        "投票请在投票帖发帖",
        "a ballot by PM or in a 功能树洞 (chess32, werewolf)",
    ),
    (
        "reason_action_conflict",
        "同一条消息里「${verb}」写了不同的对象，请只写一个后重新发送",
        "different targets in one PM",
    ),
    (
        "reason_alternatives",
        "「${verb}」写了几个备选对象（${names}），请只写一个后重新发送",
        "alternatives (X或者Y)",
    ),
    (
        "reason_conditional_action",
        "带条件或疑问的「${verb}」不能受理；如要行动，请直接写明对象重新发送（你的问题天神会看到）",
        "a command written as a condition or a question",
    ),
    (
        "reason_change_unclear",
        "「${change} ${new}」写在炮架子之后，看不出改的是目标还是炮架子，不能受理；"
        "请写「改打 ${new}」或「炮架改成 ${new}」后重新发送",
        "a bare change right after a cannon's platform (target or platform?)",
    ),
    ("reason_dead_target", "${target} 已出局，请换一个对象", "a dead target"),
    ("reason_self_target", "不能以自己为对象，请换一个对象", "a self-target the rules forbid"),
    ("reason_general_target", "不能对帅使用该能力，请换一个对象", "chess32: a power on a general"),
    (
        "reason_invalid_platform",
        "炮架子无效：${reason}，请重新发送炮打的对象和炮架子",
        "chess32: an invalid platform",
    ),
    ("reason_invalid_target", "对象无效：${reason}", "a target the skill cannot take"),
    (
        "reason_lone_killer_suicide",
        "杀手仅剩一人时不能自杀，请换一个对象",
        "the last killer on himself",
    ),
    ("reason_off_duty_killer", "今晚不是你的杀人夜", "game6-8: the off-duty killer"),
    ("reason_no_swaps_left", "抽将次数已用完", "chess32: no swap left"),
    ("reason_guard_once", "${target} 已被守护过，请换一个对象", "werewolf: guarded before"),
    ("reason_silence_once", "${target} 已被隔音过，请换一个对象", "werewolf: silenced before"),
    (
        "reason_heal_not_in_vision",
        "${target} 不在今晚的通灵名单中",
        "werewolf: not on the 【通灵】 list",
    ),
    ("reason_skill_used", "该技能已经用过", "werewolf: a single-use skill spent"),
    ("reason_last_words_not_granted", "你没有遗言权", "last words not granted"),
    ("reason_last_words_late", "已过遗言截止时间", "last words too late"),
    (
        "reason_last_words_too_long",
        "遗言超过${maximum}字，请删减后重新发送",
        "werewolf: last words too long",
    ),
    ("reason_no_vote_open", "现在不是投票时间", "no vote open"),
    (
        "reason_abstain_not_allowed",
        "本局不能弃票，请写明投给谁",
        "an abstention where none is allowed",
    ),
    (
        "reason_not_a_candidate",
        "${target} 不是本轮候选人，请投给候选人",
        "a runoff ballot for a non-candidate",
    ),
    (
        "reason_delegation_overridden",
        "你已在投票帖投票，委托无效",
        "a delegation after a posted ballot",
    ),
    (
        "reason_delegation_published",
        "委托投票已公布，不能再更改",
        "a delegation changed after its publication",
    ),
    (
        "reason_delegation_to_player",
        "不能委托其他玩家代投，请直接把要投的人发给天神",
        "a delegation to a player",
    ),
    ("reason_vote_closed", "投票已经截止", "a delegation after the close"),
    (
        "reason_delegation_not_open",
        "现在是夜晚，还没有开放的投票：请在投票开放后（投票帖会公布时间）再发委托投票",
        "a delegation sent at night, before the next vote opens",
    ),
)
_group(
    "alert",
    # names
    (
        "alert_missing_target",
        "${player}：「${what}」没有写对象",
        "missing_target ($what: the command word)",
    ),
    (
        "alert_pronoun_target",
        "${player}：「${what}」的对象写的是「${written}」，没有写明是谁",
        "unknown_name, written as a pronoun (投他)",
    ),
    (
        "alert_ambiguous_name",
        "${player}：「${what}」的对象「${written}」可指 ${players}",
        "ambiguous_name",
    ),
    (
        "alert_unknown_name",
        "${player}：「${what}」的对象「${written}」不是本局玩家${hint}",
        "unknown_name ($hint: `alert_hint` or empty)",
    ),
    ("alert_hint", "（相近：${names}）", "name suggestions in an alert"),
    (
        "alert_substitute_no_vote",
        "${new}（接替 ${old}）没有投票：替补入座的这一阶段，座位按规则不因缺票退出",
        "a substitute entered to vote for his seat and did not (RES-A18: the seat taken over does not exit)",
    ),
    (
        "alert_self_by_other_name",
        "${player}：「${what}」的对象「${written}」是他接替的座位原来的玩家，也就是他自己（不计，已请他写明）",
        "self_by_other_name: the sender named the player whose seat he took over (himself now)",
    ),
    (
        "alert_lookalike_name",
        "${player}：「${what}」的对象「${written}」含形近字 ${letters}，按字形读作 ${target}（已计入，请核对）",
        "lookalike_name ($letters: each look-alike letter with its code point and Unicode name)",
    ),
    (
        "alert_pm_game_unknown",
        "${sender} 的私信（PM ${pm}，${time}）可能属于${games}中的任何一局，没有计入任何一局：「${text}」",
        "pm_game_unknown: a PM of a player seated in several games, not certainly one game's",
    ),
    (
        "alert_renamed",
        "论坛上 ${player}（uid ${uid}）现在显示为「${shown}」：写「${shown}」的选票和行动都算作 ${player}",
        "renamed: a player's forum account shown under another name (same uid)",
    ),
    # who may act
    (
        "alert_not_a_player_signin",
        "${author} 不是本局玩家，却在签到帖回帖（替补？请天神确认）",
        "not_a_player (a sign-in reply)",
    ),
    (
        "alert_not_a_player_pm",
        "${author}（uid ${uid}）不是本局玩家，却发来「${command}」",
        "not_a_player (a PM)",
    ),
    (
        "alert_not_a_player_post",
        "${author} 不是本局玩家，却在帖子里投票",
        "not_a_player (a ballot)",
    ),
    (
        "alert_spectator_post",
        "非玩家 ${author} 在游戏区发帖（旁观者请到旁观灌水帖）",
        "spectator_post",
    ),
    ("alert_dead_actor", "${player} 已出局，其「${verb}」无效", "dead_actor (a command)"),
    ("alert_dead_actor_ballot", "${player} 已出局，其投票无效", "dead_actor (a ballot)"),
    ("alert_no_power", "${player}（${role}）没有「${verb}」的能力", "no_power"),
    ("alert_sent_off", "${player} 已被罚下，不能使用技能", "sent_off (a skill)"),
    ("alert_sent_off_ballot", "${player} 已被罚下，不能投票", "sent_off (a ballot)"),
    ("alert_sent_off_post", "已被罚下的 ${player} 仍在发言", "sent_off (a post)"),
    ("alert_not_eligible", "${player} 今天被束魂，不能投票", "not_eligible"),
    # when
    (
        "alert_out_of_step",
        "${player} 的「${verb}」${why}",
        "a skill out of its step ($why: the ruleset's `alert_why_*` text)",
    ),
    ("alert_why_not_now", "不能在现在使用", "why a skill is out of its step (default)"),
    ("alert_why_day_not_night", "白天提交，不在夜间提交时间内", "family A: a night power by day"),
    ("alert_why_day_privilege", "白天提交，特权只能在夜间使用", "chess32: a privilege by day"),
    ("alert_pm_window", "${player} 的「${verb}」不在提交时间内", "pm_window"),
    ("alert_after_deadline", "${player} 的「${verb}」晚于天亮前10分钟", "after_deadline"),
    ("alert_phase_deadline", "${player} 的「${verb}」晚于夜晚${phase}的截止时间", "phase_deadline"),
    ("alert_phase_not_open", "${player} 的「${verb}」早于夜晚${phase}开始", "phase_not_open"),
    ("alert_seer_locked", "${player} 在天神答复后更改占卜", "seer_locked"),
    ("alert_locked", "${player} 的「${verb}」没有计入：目标已用「确定」锁定（本人或同伴锁定的）", "locked"),
    (
        "alert_off_duty_killer",
        "${player} 不是今晚的执行杀手（今晚：${on_duty}）",
        "off_duty_killer",
    ),
    ("alert_skill_used", "${player} 的「${verb}」已经用过", "skill_used"),
    ("alert_extra_divination_used", "${player} 的额外占卜已用过", "extra_divination_used"),
    (
        "alert_extra_divination_deadline",
        "${player} 的额外占卜晚于截止时间",
        "extra_divination_deadline",
    ),
    (
        "alert_wrong_channel_pm",
        "${player} 用短消息提交「${verb}」；技能须回复在功能树洞",
        "wrong_channel (a skill by PM)",
    ),
    (
        "alert_wrong_channel_ballot_pm",
        "${player} 用短消息投票；本规则的投票必须在投票帖发帖",
        "wrong_channel (a ballot by PM)",
    ),
    (
        "alert_wrong_channel_summoned_pm",
        "${player}（被招魂）用短消息投票；招魂投票必须在投票帖发帖，已请他到投票帖投票",
        "wrong_channel (a summoned victim's ballot by PM)",
    ),
    (
        "alert_wrong_channel_thread",
        "${player} 在别人的功能树洞提交「${verb}」",
        "wrong_channel (another's 功能树洞)",
    ),
    (
        "alert_wrong_channel_post",
        "${player} 在公开帖里写了「${verb}」；行动须私信天神，公开帖里的不算",
        "wrong_channel (a night action of his role posted in the vote thread)",
    ),
    (
        "alert_wrong_channel_post_tree_hole",
        "${player} 在公开帖里写了「${verb}」；技能须回复在功能树洞，公开帖里的不算",
        "wrong_channel (werewolf: a skill or 加速 posted in the day thread)",
    ),
    (
        "alert_wrong_channel_ballot_thread",
        "${player} 在功能树洞投票；投票须在投票帖",
        "wrong_channel (a ballot in a 功能树洞)",
    ),
    (
        "alert_action_conflict",
        "${player}：「${verb}」写了多个对象：${names}",
        "action_conflict (a list)",
    ),
    (
        "alert_action_conflict_lines",
        "${player}：同一条消息里「${verb}」写了不同的对象：${names}",
        "action_conflict (several lines)",
    ),
    # targets
    (
        "alert_target",
        "${player}：「${verb}」${why}",
        "a target rule broken ($why: an `alert_why_*` text)",
    ),
    ("alert_why_dead_target", "的对象 ${target} 已出局", "dead_target"),
    ("alert_why_self_target", "不能以自己为对象", "self_target"),
    ("alert_why_lone_killer", "：仅剩的杀手不能自杀", "lone_killer_suicide"),
    ("alert_why_partner", "：${role}不能查自己的搭档 ${target}", "self_target (the partner horse)"),
    ("alert_why_general", "不能对${target_role} ${target} 使用", "general_target"),
    ("alert_why_no_swaps", "：两次抽将已用完", "no_swaps_left"),
    ("alert_why_guarded", "：${target} 已被守护过", "guard_once"),
    ("alert_why_silenced", "：${target} 已被隔音过", "silence_once"),
    ("alert_why_not_in_vision", "：${target} 不在通灵名单中", "heal_not_in_vision"),
    ("alert_why_not_werewolf", "：${target} 不是狼人", "invalid_target (托孤)"),
    ("alert_why_few_wolves", "：狼人阵营不超过2人，不能托孤", "invalid_target (托孤)"),
    ("alert_pair_lovers_one", "${player}：${why}", "invalid_target (金箭 with one name)"),
    ("why_pair_lovers_one", "金箭需要两个对象", "why 金箭 needs two names"),
    ("why_pair_lovers_same", "金箭要射向两名不同的角色", "why 金箭 needs two different names"),
    (
        "alert_no_platform",
        "${player}：炮打 ${target} 没有写炮架子（整次炮击作废）",
        "invalid_platform (none)",
    ),
    ("why_no_platform", "没有写炮架子", "why: no platform"),
    ("alert_invalid_platform", "${player}：炮架子无效，${why}（整次炮击作废）", "invalid_platform"),
    ("why_platform_dead", "${platform} 已出局", "a dead platform"),
    ("why_platform_general", "帅不能做炮架子", "a general as platform"),
    ("why_platform_target", "炮架子不能是炮打的对象", "the target as platform"),
    ("why_platform_self", "炮不能给自己做炮架子", "the cannon as its own platform"),
    ("alert_swap_enemy", "${player} 抽将 ${target} 是对方的人：抽将会无效，帅仍会死", "swap_enemy"),
    # declarations and texts
    (
        "alert_declaration_missing",
        "${player} 杀 ${target}，没有${label}（截止前未补交则本次杀人作废）",
        "declaration_missing",
    ),
    (
        "alert_post_short",
        "${player} 的${label}只有 ${chars} 字（不足 ${minimum} 字）",
        "declaration_short / kill_post_short",
    ),
    (
        "alert_no_power_declaration",
        "${player}（${role}）没有杀人能力，却发来杀人宣言",
        "no_power (a declaration)",
    ),
    (
        "alert_dead_actor_declaration",
        "${player} 已出局，其杀人宣言无效",
        "dead_actor (a declaration)",
    ),
    ("alert_last_words_not_granted", "${player} 没有遗言权", "last_words_not_granted"),
    ("alert_last_words_late", "${player} 的遗言晚于截止时间", "last_words_late"),
    (
        "alert_last_words_too_long",
        "${player} 的遗言有 ${chars} 字（上限 ${maximum}）",
        "last_words_too_long",
    ),
    # ballots
    ("alert_no_vote_open", "${player} 在非投票时间投票", "no_vote_open"),
    ("alert_no_vote_open_late", "${player} 的投票晚于截票时间", "no_vote_open (after the close)"),
    (
        "alert_no_vote_open_early",
        "${player} 的投票早于投票开始",
        "no_vote_open (before the opening)",
    ),
    (
        "alert_vote_wrong_thread",
        "${player} 在投票帖以外投票：「${ballot}」（不计票）",
        "vote_wrong_thread",
    ),
    (
        "alert_vote_conflict_correction",
        "${player} 的帖子先投 ${first}，又更正为 ${second}，但${why}（不计票，请天神判断）",
        "vote_conflict (a correction that did not replace the ballot before it)",
    ),
    ("why_correction_qualified", "更正带条件或是疑问", "why a correction in a post did not count"),
    (
        "why_correction_edited",
        "更正写在编辑说明里（帖子发出后改过，请比对版本）",
        "why a correction after an edit note did not count",
    ),
    (
        "alert_vote_conflict",
        "${player} 的帖子里有不同的投票对象：${names}（不计票）",
        "vote_conflict",
    ),
    (
        "alert_possible_ballot",
        "${player} 在投票帖的发言像是投票，但没有投票格式（未计票），请天神判断：「${text}」",
        "possible_ballot",
    ),
    (
        "alert_conditional_vote",
        "${player} 的投票带条件或是疑问句（不计票）：${ballot}",
        "conditional_vote",
    ),
    ("alert_abstain_not_allowed", "${player} 弃票；本规则不能弃权", "abstain_not_allowed"),
    ("alert_dead_target_ballot", "${player} 投票给已出局的 ${target}", "dead_target (a ballot)"),
    ("alert_not_a_candidate", "${player} 投票给非候选人 ${target}", "not_a_candidate"),
    (
        "alert_vote_immutable",
        "${player} 改投 ${target}（原投 ${was}）；首次投票为准",
        "vote_immutable",
    ),
    ("alert_change_limit", "${player} 第二次改票为 ${target}（本轮只能改一次）", "change_limit"),
    (
        "alert_last_hour_change",
        "${player} 在最后一小时改票为 ${target}（无效）",
        "last_hour_change",
    ),
    ("abstain_word", "弃权", "an abstention in a GM alert"),
    (
        "alert_delegation_abstain",
        "${player} 委托弃票；本规则不能弃权",
        "abstain_not_allowed (by PM)",
    ),
    ("alert_delegation_dead", "${player} 已出局，不能委托投票", "dead_actor (a delegation)"),
    ("alert_vote_closed", "${player} 的委托投票不在投票时间内", "vote_closed"),
    ("alert_delegation_published", "${player} 的委托投票已公布，不能更改", "delegation_published"),
    ("alert_delegation_overridden", "${player} 已在投票帖投票，委托无效", "delegation_overridden"),
    (
        "alert_delegation_dead_target",
        "${player} 委托投票给已出局的 ${target}",
        "dead_target (a delegation)",
    ),
    (
        "alert_delegation_not_a_candidate",
        "${player} 委托投票给非候选人 ${target}",
        "not_a_candidate (a delegation)",
    ),
    (
        "alert_delegation_to_player",
        "${player} 想委托 ${delegate} 代投：规则不允许委托其他玩家",
        "delegation_to_player",
    ),
    # speech
    ("alert_dead_post", "已出局的 ${player} 在游戏区发帖", "dead_post"),
    ("alert_maddened_speech", "癫狂的 ${player} 写了不允许的字：${chars}", "maddened_speech"),
    (
        "alert_content_free_post",
        "${player} 的帖子没有实际内容（只有引用、表情、数字或“路过”）",
        "content_free_post",
    ),
    ("alert_long_quote", "${player} 大段引用他人帖子（${chars} 字）", "long_quote"),
    (
        "alert_edited_vote",
        "${author} 编辑了帖子 ${pid}，改变了投票/行动（以首次所见为准）：原文「${old}」→ 新文「${new}」",
        "edited_vote",
    ),
    (
        "alert_conditional_action",
        "${player} 的「${command}」带条件或是疑问句（不受理）",
        "conditional_action",
    ),
    (
        "alert_change_unclear",
        "${player}：「${change} ${new}」紧跟在炮架子 ${platform} 之后，读不出改的是炮击目标"
        "（原为 ${old_target}）还是炮架子（不受理，请天神确认）",
        "conditional_action (a bare change right after a cannon's platform)",
    ),
    ("alert_alternatives", "${player} 写了几个备选对象：${names}（不受理）", "alternatives"),
    ("alert_not_a_command", "${player} 发来的不是指令，请天神阅读：「${text}」", "not_a_command"),
    (
        "alert_unread_command",
        "${player} 写了指令词「${word}」，但读不出指令（未计入），请天神阅读：「${text}」",
        "unread_command",
    ),
    (
        "alert_unclosed_quote",
        "${player} 的 [quote] 没有闭合，其后的指令或投票未计入，请天神判断：「${text}」",
        "unclosed_quote",
    ),
    (
        "alert_not_a_player_thread",
        "${author} 不是本局玩家，却在功能树洞提交「${command}」",
        "not_a_player (a 功能树洞 reply)",
    ),
    ("platform_word", "炮架子", "what a cannon's platform is called in alerts"),
    # the referee's alerts
    (
        "alert_not_in_phase",
        "${error}",
        "a command the rules core refused in this phase ($error: its reason)",
        ("player", "verb"),
    ),
    (
        "alert_rule",
        "${who}：${rule}，${verdict}${detail}",
        "a decision of the rules core (rule:<id>; $rule and $verdict in the GM's words, "
        "shenshi/daemon/gm_text.py)",
    ),
    ("alert_rule_detail", "（${detail}）", "the $detail of `alert_rule`, when there is one"),
)
_group(
    "forum",
    (
        "padding",
        "（神使）",
        "added to a post shorter than the forum's minimum until it is long enough",
    ),
)

# -- the phase clock's posts and notices, the voting record, last words -------------------------
_group(
    "announcement",
    (
        "vote_opened",
        "【第${n}天】投票帖自 ${opens} 起开放投票（此后的投票均有效），${closes} 截止。",
        "the vote thread opens for ballots later than the day (game6: the 13th hour; $opens: the "
        "rules' hour, true even when the GM publishes it late; $closes: when the round closes, "
        "which moves with the day's opening and each substitution)",
        ("opens", "closes"),
    ),
    (
        "sheriff_election_opened",
        "【第${n}天】天亮了。今天竞选警长：在投票帖投票，得票最多的角色当选警长，今天无人出局；"
        "${closes} 截止，截止前可以改票。",
        "werewolf day 1, whose night 0 has no result post: the day and its vote open at dawn (RES-W5: the "
        "election of the sheriff; RES-W6: the latest ballot counts)",
        ("closes",),
    ),
    (
        "night_deadlines",
        "【第${n}夜】行动截止时间：\n${phases}\n天亮（${dawn}）公布结果。",
        "werewolf: a night's phase deadlines, when it opens ($phases: `night_phase_deadline`s)",
    ),
    (
        "night_phase_deadline",
        "夜晚${phase}（${skills}）：${deadline} 前",
        "one night phase: its skills and its deadline",
    ),
    ("night_phase_separator", "\n", "between the night phases of `night_deadlines`"),
    (
        "vote_record",
        "投票记录：\n${lines}",
        "werewolf: every counted ballot, published with the count (§5.6)",
    ),
    ("vote_record_line", "${voter} → ${target}", "one counted ballot"),
    ("last_words_published", "【遗言】${name}：\n${text}", "werewolf: last words, the next day"),
    (
        "last_words_granted",
        "${names} 可以留遗言（一帖或一个回复，仅一次）。",
        "chess32: the night victims who may post their last words",
    ),
)
_group(
    "notice",
    (
        "last_words_notice",
        "你已出局。你可以留遗言：请在 ${deadline} 前在功能树洞回复，以「遗言」开头，"
        "不超过 ${maximum} 字；逾期无效。",
        "werewolf: a character who may leave last words, and until when (§5.4)",
    ),
    (
        "maddened_notice",
        "你已陷入癫狂：从现在起你只能写投票对象的名字、表情，以及这20个字："
        "啊嗷嘎咯咕呱哼咴叽啾哩喵咩哞嘶汪嗡喔喳吱（可用空格和换行）。",
        "werewolf: a character the piper maddened (§5.3)",
    ),
    (
        "successor_notice",
        "你是出局的警长：请在本阶段结果公布前在功能树洞回复「【殉职】角色名」，指定一名未出局的角色继任警长；"
        "结果公布后警徽按规则流失（无人继任）。",
        "werewolf: the sheriff put out, to name a successor (【殉职】, RES-W21)",
    ),
    (
        "lurk_warning",
        "你在第${n}天发言太少（不足5帖，且不足当天平均的20%），记潜水警告一次（累计 ${count} 次）；"
        "累计两次将由替补接替。",
        "chess32: a lurking day's warning (§4.8)",
    ),
    (
        "lurk_replaced",
        "你在第${n}天再次潜水，累计 ${count} 次警告：按规则由替补接替你的位置。"
        "请继续为本局保密。",
        "chess32: the second warning means replacement (§4.8); substitutions are not announced",
    ),
    (
        "vote_not_open_notice",
        "你在 ${at} 的投票没有计入：投票帖 ${opens} 开放投票，届时请重新投票。",
        "a ballot posted before the vote thread opened",
    ),
    (
        "summoning_only_notice",
        "你在 ${at} 的投票没有计入：现在是招魂，只有被招魂的死者（${called}）可以投票。",
        "a living player's ballot during the summoning (招魂), or before its post is out",
    ),
    (
        "vote_between_rounds_notice",
        "你在 ${at} 的投票没有计入：上一轮投票已经结束，下一轮投票在它的结果公布后才开始，届时请在投票帖重新投票。",
        "a ballot posted after a round closed (early) and before the next round is announced",
    ),
    (
        "round_closed_early_notice",
        "今天的${round}已于 ${at} 提前结束，原定的截止时间 ${was} 不再适用；${next}",
        "a PM to a substitute told his round's close, when it closed early (every ballot in, werewolf 加速; newcomer4 W8: no 「含替补延长」 where nothing was extended) ($round: 投票, 生死投票, 招魂)",
    ),
    ("round_closed_next_round", "下一轮投票在这一轮结果公布后开始，请留意投票帖。", "in `round_closed_early_notice`: a runoff follows"),
    ("round_closed_day_over", "今天的结果请看投票帖。", "in `round_closed_early_notice`: the day's vote is over"),
    (
        "not_a_candidate_notice",
        "你在 ${at} 投 ${target} 的帖子没有计入：${target} 不是这一轮的候选人，只能投给 ${names}。"
        "请在截止前到投票帖重新投票，否则视为未投票。",
        "a runoff ballot for a player who is no candidate (RES-A14: it must be cast again)",
    ),
    (
        "vote_kept_notice",
        "你在 ${at} 投 ${target} 的帖子没有计入：本轮天神已为你记下一票（${was}），按规则首次投票为准。",
        "a ballot refused as a change where the ballot that stands is one the GM recorded",
    ),
    (
        "vote_change_refused_notice",
        "你在 ${at} 改投 ${target} 的帖子没有计入：${why}，你本轮的投票仍是 ${was}。",
        "chess32: a change of ballot the rules void ($why: a `vote_change_refused_*`)",
    ),
    ("vote_change_refused_last_hour_change", "截票前最后一小时内不能改票", "why a change was void: the round's last hour"),
    ("vote_change_refused_change_limit", "本轮只能改一次票", "why a change was void: the round's one change is used"),
    (
        "vote_closed_notice",
        "你在 ${at} 的投票没有计入：本轮投票已经截止。",
        "a ballot posted after its round closed",
    ),
    (
        "declaration_lost_notice",
        "${partner} 已出局，他的杀人宣言不再计入你今晚的杀人：请在截止前补交杀人宣言，否则本次杀人作废。",
        "to a killer whose kill the partner's declaration covered (A-J3), once that partner went out in the night",
        ("partner",),
    ),
    (
        "vote_after_game_notice",
        "你在 ${at} 的投票没有计入：游戏已经结束。",
        "a ballot posted after the post announcing the game's end",
    ),
    (
        "vote_wrong_thread_notice",
        "你在 ${at} 发在${thread}的投票没有计入：只有投票帖里的投票才计票。请在 ${closes} 截票前到投票帖投票。",
        "a ballot posted outside the vote thread (discussion, chat) while the round is open",
    ),
    (
        "vote_wrong_thread_early_notice",
        "你在 ${at} 发在${thread}的投票没有计入：只有投票帖里、投票开始后的投票才计票。请在 ${opens} 到 ${closes} "
        "之间到投票帖投票。",
        "a ballot posted outside the vote thread before the day's vote opened",
    ),
    (
        "vote_unread_notice",
        "你在 ${at} 发在投票帖的投票没有计入：${why}。请在 ${closes} 截票前在投票帖重新投票（写「投票：玩家名」）。",
        "a ballot in the vote thread that could not be counted, while the round is open ($why: a `vote_unread_*`)",
    ),
    ("vote_unread_unknown_name", "写的名字对不上任何玩家", "why a ballot was not counted: no such player"),
    ("vote_unread_ambiguous_name", "写的名字可能是好几位玩家", "why a ballot was not counted: the name fits several"),
    ("vote_unread_missing_target", "没有写投给谁", "why a ballot was not counted: no name"),
    ("vote_unread_vote_conflict", "一帖里投给了不同的人", "why a ballot was not counted: two targets in one post"),
    ("vote_unread_conditional_vote", "投票带了条件", "why a ballot was not counted: a condition"),
    ("vote_unread_alternatives", "写了几个可选的人", "why a ballot was not counted: alternatives (A或B)"),
    ("vote_unread_possible_ballot", "没有写成投票的格式", "why a post was not counted as a ballot: no command word"),
    ("vote_unread_pronoun", "没有写明投给谁（写的是「他」这样的代词）", "why a ballot was not counted: 他 names nobody"),
    ("vote_unread_dead_target", "${target} 已经出局，不能投给他", "why a ballot was not counted: its target is out"),
    (
        "vote_unread_self_by_other_name",
        "写的是你接替的座位原来的玩家，也就是你自己；要投自己请写你的名字，否则写你要投的玩家",
        "why a substitute's ballot was not counted: it named his own seat by its former holder",
    ),
    ("thread_word_discussion", "讨论帖", "a discussion or analysis thread, in a PM to a player"),
    ("thread_word_chat", "灌水帖", "the chat (灌水) thread, in a PM to a player"),
)
_group(
    "alert",
    (
        "kill_declaration_missing",
        "${victim} 死于杀手，但没有记录到杀人宣言：公告里没有写宣言；要补上请 shenshi edit 这条公告",
        "a result whose death's kill declaration is not on record (a note for the GM, never posted)",
    ),
    (
        "kill_post_missing",
        "${victim} 被杀，但没有记录到杀人帖：公告里没有写；要补上请 shenshi edit 这条公告",
        "chess32: a result whose death's kill post is not on record (a note for the GM, never posted)",
    ),
    (
        "alert_left_seat",
        "${player} 已由替补 ${substitute} 接替，这条不再计入（座位由 ${substitute} 行使）",
        "a player who left his seat to a substitute still sends a command (not counted)",
    ),
    (
        "alert_joint_disagreement",
        "联合行动意见不一：${choices}",
        "a joint unit's members name different targets while the step is open ($choices: each latest)",
    ),
    (
        "alert_last_words_after_post",
        "${player} 的遗言在天亮公告提出之后才到（仍在期限内）：请用 shenshi edit 加进公告",
        "werewolf: last words in time, after the dawn post was proposed",
    ),
)
_group(
    "receipt",
    (
        "receipt_until_agreed",
        "截止前可更改（同伴选的目标与你不同：统一之前不会提前结算）",
        "a joint unit whose members name different targets (A-J2): the step runs to its deadline",
    ),
    (
        "joint_disagreement_notice",
        "你们的联合行动意见不一：${choices}。请在截止前统一目标，否则本夜这一行动作废（统一之前不会提前结算）。",
        "to each member of a joint unit whose latest choices differ (A-J2; $choices: each member's)",
    ),
    (
        "joint_agreed_notice",
        "你们的联合行动现在一致了：${choices}（按规则有效；截止前仍可更改，再不一致则作废）。",
        "to a member told that his joint unit disagreed, once its choices agree again (a partner changed, or the GM voided one)",
    ),
    (
        "receipt_until_phase",
        "夜晚${phase}截止（${deadline}）前可更改，另起一行写「确定」可锁定",
        "werewolf: a skill kept by a night phase, until that phase closes",
    ),
)

TEMPLATES: Mapping[str, TemplateSpec] = MappingProxyType({s.name: s for s in _SPECS})
if len(TEMPLATES) != len(_SPECS):  # pragma: no cover - a name given twice is a typo here
    raise RuntimeError("a template name is defined twice in shenshi/wording/defaults.py")
