"""The lexicon: the words players write, as data. :mod:`shenshi.intake.grammar` is built from it.

Every word is written folded (simplified, half-width, lower case: :func:`shenshi.intake.text.fold`),
since reading happens on the folded text. Adding a way of saying something is adding a word
here; a test reads every word of every list through the grammar.

* ``VERBS`` — PM and 功能树洞 command words and the actions they may mean, best first (the
  sender's powers pick one: ``查`` is a seer's ``divine`` and a horse's ``check``). A
  one-character word is *weak*: it needs a name or a separator right after it.
* ``VOTE_WORDS`` / ``VOTE_WEAK`` / ``VOTE_CHANGE_WORDS`` / ``ABSTAIN_WORDS`` — ballots in posts.
* ``FILLER_WORDS`` — words that may stand before a command word (我, 今晚, 就 …).
* ``QUESTION_MARKERS`` / ``CONDITION_MARKERS`` — a sentence holding one is not a command.
* ``PLATFORM_WORDS``, ``DECLARATION_WORDS``, ``LAST_WORDS``, ``ACCUSE_WORDS``,
  ``CONFIRM_WORDS``, ``SPEED_UP`` / ``SLOW_DOWN`` — the parts of special commands.
* ``COMMAND_WORDS`` — the form each action is written in the rule posts (the demo's players
  write these).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# -- ballots (thread posts) ---------------------------------------------------------------------
VOTE_WORD = "投票"  # also with a round before it and a link after it: 生死投票给 X
VOTE_ROUND_PREFIXES: tuple[str, ...] = ("生死", "第二轮", "二轮", "决胜", "复")
VOTE_LINKS: tuple[str, ...] = ("给", "为")
VOTE_WORDS: tuple[str, ...] = (
    "【投票】",
    "[投票]",
    "票投给",
    "票投",
    "投给",
    "我的票给",
    "vote for",
    "vote",
)
# 投 alone is a ballot unless a word follows that makes it another verb (投诉, 投入, 投了 …).
VOTE_WEAK = "投"
VOTE_WEAK_NOT_BEFORE = "票诉入资降了过的着"
VOTE_CHANGE_WORDS: tuple[str, ...] = (
    "更改投票", "修改投票", "改票", "改投", "换票", "换投", "票改",
)  # fmt: skip
VOTE_CHANGE_LINKS: tuple[str, ...] = ("为", "成", "给", "到")  # 改票为 X, 改投给 X
ABSTAIN_WORDS: tuple[str, ...] = ("弃权票", "弃权", "弃票", "abstain")
# Words that may stand between a ballot word and 弃权 (委托投票：弃权, 投弃权票).
ABSTAIN_LEADS: tuple[str, ...] = ("委托",)
ABSTAIN_VOTE_LEADS: tuple[str, ...] = ("投票", "投")  # 投票：弃权, 投弃权票

# -- what a clause may start with before its command word ---------------------------------------
FILLER_WORDS: tuple[str, ...] = (
    "今晚上", "今晚", "今夜", "今天", "今日", "本轮", "这轮", "这一夜", "这夜", "我们", "我",
    "要", "想", "选择", "选", "决定", "请", "帮我", "麻烦", "那么", "那", "就", "还是", "最终",
    "最后", "再", "继续", "仍然", "依然", "也", "先", "改为", "改成", "换成",
)  # fmt: skip
# 第N夜 / 第N晚 / 第N天 / 第N轮 before a command word
FILLER_ORDINAL_UNITS = "夜晚天轮"

# -- sentences that are not commands --------------------------------------------------------------
QUESTION_MARKERS: tuple[str, ...] = (
    "?", "吗", "请问", "想问", "问一下", "能不能", "可不可以", "可以吗", "能否", "是否",
    "是不是", "怎么", "为什么", "为啥", "什么时候", "多久",
)  # fmt: skip
QUESTION_FINAL: tuple[str, ...] = ("呢", "么")  # a question only at the end of its sentence
CONDITION_MARKERS: tuple[str, ...] = (
    "如果",
    "假如",
    "要是",
    "若是",
    "倘若",
    "万一",
    "除非",
    "的话",
)

# -- PM and 功能树洞 commands -----------------------------------------------------------------------
VERBS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("委托投票给", ("delegate_vote",)), ("委托投票", ("delegate_vote",)),
    ("委托投", ("delegate_vote",)), ("帮我投", ("delegate_vote",)), ("代我投", ("delegate_vote",)),
    ("【预言】", ("divine",)), ("【守护】", ("guard",)), ("【隔音】", ("silence_guard",)),
    ("【救药】", ("heal",)), ("【毒药】", ("poison",)), ("【杀人】", ("kill",)),
    ("【吹笛】", ("pipe",)), ("【金箭】", ("pair_lovers",)), ("【托孤】", ("lone_wolf",)),
    ("【孤刀】", ("lone_blade",)), ("【殉职】", ("sheriff_successor",)),
    ("占卜", ("divine",)), ("预言", ("divine",)), ("查验", ("divine", "check")),
    ("查证", ("check", "divine")), ("束魂", ("bind",)), ("诅咒", ("curse",)),
    ("庇佑", ("bless",)), ("保佑", ("bless",)), ("祈祷", ("pray",)), ("祈福", ("pray",)),
    ("炮打", ("cannon_kill",)), ("炮轰", ("cannon_kill",)), ("炮击", ("cannon_kill",)),
    ("开炮打", ("cannon_kill",)), ("开炮", ("cannon_kill",)),
    ("禁锢", ("imprison",)), ("救治", ("protect",)), ("保护", ("protect", "guard")),
    ("救药", ("heal",)), ("毒药", ("poison",)), ("毒杀", ("poison",)), ("抽将", ("swap_general",)),
    ("守护", ("guard",)), ("隔音", ("silence_guard",)), ("吹笛", ("pipe",)),
    ("金箭", ("pair_lovers",)), ("托孤", ("lone_wolf",)), ("孤刀", ("lone_blade",)),
    ("殉职", ("sheriff_successor",)), ("警徽移交给", ("sheriff_successor",)),
    ("警徽移交", ("sheriff_successor",)), ("警徽给", ("sheriff_successor",)),
    ("移交警徽给", ("sheriff_successor",)), ("移交警徽", ("sheriff_successor",)),
    ("杀人", ("kill", "cannon_kill")), ("击杀", ("kill", "cannon_kill")),
    ("刺杀", ("kill", "cannon_kill")),
    # weak (one character)
    ("杀", ("kill", "cannon_kill")), ("刀", ("kill",)), ("砍", ("kill",)),
    ("查", ("divine", "check")), ("验", ("divine", "check")), ("救", ("protect", "heal")),
    ("毒", ("poison",)), ("守", ("guard",)), ("吹", ("pipe",)), ("关", ("imprison",)),
    ("炮", ("cannon_kill",)),
)  # fmt: skip
# After a kill verb: 杀了X, 杀掉X.
VERB_PARTICLES: tuple[str, ...] = ("了", "掉")

# 为X祈祷 / 给X祈祷
PRAY_FOR_LEADS: tuple[str, ...] = ("为", "给", "替", "帮")
PRAY_FOR_WORDS: tuple[str, ...] = ("祈祷", "祈福", "祷告")

# A cannon's platform: 炮架子：Y; 以Y为炮架
PLATFORM_WORDS: tuple[str, ...] = ("炮架子", "炮架", "架子", "炮台", "架")
PLATFORM_LINKS: tuple[str, ...] = ("是", "为", "用", "选")  # 炮架子是Y
PLATFORM_AS_LEADS: tuple[str, ...] = ("以", "用", "拿", "让")
PLATFORM_AS_LINKS: tuple[str, ...] = ("作为", "作", "为", "做", "当")
PLATFORM_AS_WORDS: tuple[str, ...] = ("炮架子", "炮架", "架子")

# Kill declarations (family A 杀人宣言, chess 杀人帖) and stories (杀人剧情)
DECLARATION_WORDS: tuple[str, ...] = ("杀人宣言", "杀人剧情", "杀人帖", "宣言", "剧情")
STORY_WORD = "剧情"
DECLARATION_LEADS: tuple[str, ...] = ("如下",)

LAST_WORDS: tuple[str, ...] = ("【遗言】", "遗言")
ACCUSE_WORDS: tuple[str, ...] = ("指控", "指认")

# 委托阿杰帮我投: delegating to a player (D-D forbids it)
DELEGATE_TO_LEADS: tuple[str, ...] = ("委托", "让", "请", "拜托")
DELEGATE_TO_WORDS: tuple[str, ...] = ("帮我", "替我", "代我", "帮忙", "代")

CONFIRM_WORDS: tuple[str, ...] = ("确定", "确认", "锁定", "confirm")
SPEED_UP = ("同意", "加速")  # 同意第N天加速
SLOW_DOWN_LEADS: tuple[str, ...] = ("申请", "请求", "要求")
SLOW_DOWN = "减速"
DAY_UNITS = "天日"  # 第N天 / 第N日

# 自己 / 我自己 / 本人 name the sender
SELF_WORDS: tuple[str, ...] = ("我自己", "自己", "本人")

# Mentions of voting in a PM (a chess or werewolf player is told to post instead)
VOTE_MENTIONS: tuple[str, ...] = ("投票", "弃票", "弃权", "改票")

CN_DIGITS: Mapping[str, int] = MappingProxyType(
    {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
)

# -- how each action is written in the rule posts -----------------------------------------------
COMMAND_WORDS: Mapping[str, str] = MappingProxyType({
    "kill": "杀", "divine": "占卜", "bind": "束魂", "curse": "诅咒", "bless": "庇佑", "pray": "祈祷",
    "cannon_kill": "炮打", "imprison": "禁锢", "check": "查证", "protect": "救治",
    "swap_general": "抽将", "guard": "【守护】", "silence_guard": "【隔音】", "heal": "【救药】",
    "poison": "【毒药】", "pipe": "【吹笛】", "pair_lovers": "【金箭】", "lone_wolf": "【托孤】",
    "lone_blade": "【孤刀】", "sheriff_successor": "【殉职】",
})  # fmt: skip
