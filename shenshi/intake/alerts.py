"""Every alert kind intake raises, with what it means for the GM.

The kinds reuse the daemon rule ids of ``scenarios/FORMAT.md`` where one exists (without the
round suffix): ``pm_window``, ``seer_locked``, ``declaration_short`` … ``docs/intake.md``
documents each kind; ``tests/intake`` checks that the corpus covers all of them. The texts are
templates (:mod:`shenshi.wording`): the GM's alert is ``alert_<kind>`` (or a variant), and the
reason a rejection receipt gives the player is ``reason_<kind>``; a kind without a
``reason_<kind>`` template never produces a receipt.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# kind -> what it means for the GM
ALERT_KINDS: Mapping[str, str] = MappingProxyType({
    # names
    "unknown_name": "a name that matches no player (fuzzy suggestions attached), a look-alike of two players, or a player's name run on into more of a name",
    "lookalike_name": "a name written with look-alike letters (UTS #39 skeleton: Cyrillic а for a): counted for the player it looks like",
    "ambiguous_name": "a name that fits more than one player",
    "missing_target": "a command word with no name after it",
    "self_by_other_name": "a substitute named the player whose seat he took over (himself now): asked to write his own name",
    # who may act
    "not_a_player": "a command from a forum user who is not a player of this game",
    "dead_actor": "an action or ballot by a dead (out) player (A-S5)",
    "no_power": "the sender's role does not have this power (or the ruleset has no such command)",
    "sent_off": "werewolf: a sent-off (罚下) character discussed, voted or used a skill",
    "not_eligible": "a ballot by a player who may not vote now (the bound survivor)",
    # when
    "pm_window": "a PM action outside its window (A-S1), or at the wrong time of day",
    "after_deadline": "chess32: an action after dawn − 10 min (RES-C32)",
    "phase_deadline": "werewolf: a skill reply after its night phase's deadline",
    "phase_not_open": "werewolf: a witch's reply before 夜晚2 opens (before 夜晚1 closes, RES-W3)",
    "wrong_phase": "a skill of another phase (night 0 only, day only, …)",
    "extra_divination_deadline": "the penalty divination came after its deadline (RES-A19)",
    "extra_divination_used": "the penalty divination was already used (only the first is answered)",
    "seer_locked": "the seer changed target after the GM had answered (A-S2)",
    "locked": "werewolf: a change after the target was locked with 确定",
    "wrong_channel": "a command sent where it does not count (a ballot by PM in chess/werewolf; a skill by PM instead of the 功能树洞)",
    "action_conflict": "one PM names different targets for the same action",
    "alternatives": "alternatives instead of one target (投票：A或者B, 炮架子：A或B): nothing counts",
    "conditional_action": "a command written as a condition or a question (如果…就束魂X, 祈祷 X?): nothing counts",
    "not_a_command": "a PM (or a reply in one's own 功能树洞) holding no command: a question or a note for the GM to read",
    "unread_command": "a player's post in the vote thread, reply in a 功能树洞 or PM that holds a command word (in the vote thread: a ballot word) but yields no command: the GM reads it",
    "unclosed_quote": "a typed [quote] never closed hides the rest of a post or PM, which holds a ballot or a command: the GM reads it",
    # targets
    "dead_target": "the target is dead / out",
    "self_target": "a self-target the rules forbid (chess general, cannon, chariot, horse; 孤刀; 殉职)",
    "general_target": "chess32: imprison, protect or pray aimed at a general",
    "invalid_platform": "chess32: a cannon with no, or an invalid, platform (the whole kill is forfeited)",
    "invalid_target": "a target the skill cannot take (托孤 on a non-werewolf, 金箭 without two names …)",
    "lone_killer_suicide": "the last killer targets himself (game5, game6-10; RES-A4)",
    "off_duty_killer": "game6-8: a kill by the killer whose night it is not (RES-A1)",
    "no_swaps_left": "chess32: a swap (抽将) after both uses",
    "swap_enemy": "chess32: a swap naming an enemy (accepted; the swap will fail and the general die)",
    "guard_once": "werewolf: 【守护】 on a character already guarded",
    "silence_once": "werewolf: 【隔音】 on a character already silenced",
    "heal_not_in_vision": "werewolf: 【救药】 on a character not on tonight's 【通灵】 list",
    "skill_used": "werewolf: a single-use skill (救药, 毒药, 托孤, 孤刀) already spent",
    # declarations and texts
    "declaration_missing": "family A: a kill with no declaration (forfeited unless one arrives by the deadline)",
    "declaration_short": "family A: a kill declaration under 100 characters (flag for the GM's penalty)",
    "kill_post_short": "chess32: a kill post under 150 characters, or none (flag only, RES-C18)",
    "last_words_not_granted": "last words from someone who may not leave them",
    "last_words_late": "last words after their deadline",
    "last_words_too_long": "werewolf: last words over 3000 characters",
    # ballots (thread posts)
    "no_vote_open": "a ballot while no vote is open (night, before the vote thread, after close)",
    "vote_wrong_thread": "a ballot outside the vote thread",
    "vote_conflict": "two different targets in one post: no vote",
    "possible_ballot": "a post in the vote thread that looks meant as a ballot without a command word (a bare name, 同上, +1, 我选X): the GM decides",
    "conditional_vote": "a ballot written as a condition or a question: no vote",
    "abstain_not_allowed": "an abstention where the ruleset forbids it (family A, werewolf)",
    "not_a_candidate": "a round-2 / runoff ballot for a player who is not a candidate",
    "vote_immutable": "family A: a second, different ballot (the first is final, D-I)",
    "change_limit": "chess32: a second change of ballot in one round",
    "last_hour_change": "chess32: a change of ballot in the last hour of the round",
    "delegation_overridden": "a delegated vote from a player who already voted in the thread",
    "delegation_published": "a delegated vote changed after the GM published it",
    "delegation_to_player": "a delegation to another player (not allowed, D-D)",
    "vote_closed": "a delegated vote after the vote closed",
    # speech rules (one post)
    "dead_post": "chess32 / werewolf: a dead or out player posted in the game (C-D9)",
    "spectator_post": "chess32: a non-player posted in the game room (§7.1), a ballot in it too",
    "maddened_speech": "werewolf: a maddened character wrote other than the allowed characters (W-D5)",
    "content_free_post": "chess32: a post of only quotes, emoticons or numbers, or 路过 (§4.8)",
    "long_quote": "chess32: a long quote block of another player's post (§7.1)",
    # evidence
    "edited_vote": "a post edited after it was first seen, changing a ballot or an action",
})  # fmt: skip
