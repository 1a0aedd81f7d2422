"""The lexicon: the words players write, as data. :mod:`shenshi.intake.grammar` is built from it.

Every word is written folded (simplified, half-width, lower case: :func:`shenshi.intake.text.fold`),
since reading happens on the folded text. Adding a way of saying something is adding a word
here; a test reads every word of every list through the grammar.

* ``VERBS`` — PM and 功能树洞 command words and the actions they may mean, best first (the
  sender's powers pick one: ``查`` is a seer's ``divine`` and a horse's ``check``). A
  one-character word is *weak*: it needs a name or a separator right after it.
* ``VOTE_WORDS`` / ``VOTE_WEAK`` / ``VOTE_CHANGE_WORDS`` / ``ABSTAIN_WORDS`` — ballots in posts.
* ``FILLER_WORDS`` — words that may stand before a command word (我, 今晚, 就 …); framing
  (``ADDRESS_WORDS`` + ``GREETINGS``, ``POLITE_WORDS``, ``HELP_WORDS``, ``JOINT_WORDS``,
  ``JOINT_LINKS`` + a player or ``PARTNER_WORDS``, a colon after at most ``FRAMING_MAX``
  characters that are not ``REPORTED_SPEECH``) too.
* ``CHANGE_LEADS`` / ``CHANGE_PARTICLES`` — a change of target written as a verb (改杀X, 换成X).
* ``QUESTION_ASKS`` — words that ask about the command itself (可以吗); ``AGREEMENT_WORDS`` —
  agreement that confirms it (以这个为准).
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
VOTE_ROUND_PREFIXES: tuple[str, ...] = ("生死", "第二轮", "二轮", "决胜", "复", "招魂", "高票辩论", "试探性", "试探")
VOTE_LINKS: tuple[str, ...] = ("给", "为")
# 【今日投票】X, 【第二天投票】X: a header in 【】 holding 投票 is a vote word.
VOTE_HEADER_MAX = 8
VOTE_WORDS: tuple[str, ...] = (
    "【投票】", "[投票]", "票投给", "票投", "投给", "我的票给", "我的一票投给", "我的一票给",
    "这一票投给", "这一票给", "这票投给", "这票就给", "这票给", "这票投", "这一票投", "一票投给",
    "这一票我投给", "这一票我给", "这一票我投", "这票我投给", "这票我给", "这票我投",
    "我把票投给", "我把票给", "把票投给", "把票给", "我把这一票投给", "把这一票投给", "我把这票投给", "把这票投给",
    "这一票", "这票",
    "票给", "一票给", "一票", "投个票给", "投个票", "投一票给", "投一票", "投上一票给", "投上一票",
    "票", "vote for", "vote",
)  # fmt: skip
# 投 alone is a ballot unless a word follows that makes it another verb (投诉, 投入, 投了 …).
# Weak words need a player's name right after them (跟投老王; 我跟票是因为… is talk).
VOTE_WEAK = "投"
VOTE_WEAK_WORDS: tuple[str, ...] = ("跟投", "跟票", VOTE_WEAK)
VOTE_WEAK_NOT_BEFORE = "票诉入资降了过的着"
VOTE_CHANGE_WORDS: tuple[str, ...] = (
    "更改投票", "修改投票", "改票", "改投", "换票", "换投", "票改", "改回", "换回", "投回",
)  # fmt: skip
VOTE_CHANGE_LINKS: tuple[str, ...] = ("为", "成", "给", "到")  # 改票为 X, 改投给 X
# A note that the post was edited after it was posted (（编辑：改投X）): a change after it is a
# second ballot (vote_conflict), while a change written in the post itself (投票：A，改投B) is the
# writer's own correction before posting, and the last one counts.
EDIT_NOTES: tuple[str, ...] = ("编辑", "修改", "edit", "更新", "update", "补充")
# Where ballots do not count (the discussion and chat threads), a ballot said as an intention
# (我想投X, 打算投X) or proposed to the others (我们投X吧, 咱们一起投X) is talk, like one asked or
# qualified (要不要投X？).
INTENTION_WORDS: tuple[str, ...] = (
    "想", "打算", "准备", "倾向", "应该", "建议", "考虑", "可能", "我们", "咱们", "咱", "一起",
)  # fmt: skip
ABSTAIN_WORDS: tuple[str, ...] = ("弃权票", "弃权", "弃票", "abstain")
# Words that may stand between a ballot word and 弃权 (委托投票：弃权, 投弃权票).
ABSTAIN_LEADS: tuple[str, ...] = ("委托",)
ABSTAIN_VOTE_LEADS: tuple[str, ...] = ("投票", "投")  # 投票：弃权, 投弃权票

# -- what a clause may start with before its command word ---------------------------------------
FILLER_WORDS: tuple[str, ...] = (
    "今晚上", "今晚", "今夜", "今天", "今日", "本轮", "这轮", "这一夜", "这夜", "我们", "我",
    "要", "想", "选择", "选", "决定", "请", "帮我", "麻烦", "那么", "那", "就", "还是", "最终",
    "最后", "再", "继续", "仍然", "依然", "也", "先", "改为", "改成", "换成", "改", "天神",
    "委托", "法官", "gm", "要不然", "要不", "不如", "今晚的", "今天的", "我的", "这次", "这回",
    "本次", "暂时", "暂且", "暂", "用", "使用", "拿", "另外", "顺便", "对了", "还有", "同时", "然后",
    "哦", "噢", "嗯", "呃", "诶", "哎", "都",
    # the writer thought again (再想了想祈祷X: a command; after another, a change or a conflict)
    "仔细想了想", "仔细想想", "想了想", "想了一下", "想了下", "想想", "考虑了一下", "考虑了下",
    "思考了一下", "考虑再三", "再三考虑", "后来",
    # a conjunction that links the command to the talk before it (…，但我投票：X; 所以投X)
    "但是", "但", "不过", "可是", "所以", "因此", "因而", "于是", "反正", "总之", "总而言之",
)  # fmt: skip
# Framing before a command word: a greeting or an address to the GM (法官您好, 天神晚上好,
# 麻烦主办：), a polite request (麻烦/请/拜托 …, 帮我们), or the writer acting with others
# (我们俩, 一起, 我和X / 我跟队友: a player's name or a partner word after 我和). Framing frames the
# command; it never makes it talk.
ADDRESS_WORDS: tuple[str, ...] = (
    "天神", "神使", "神的使者", "法官", "主办", "主持人", "主持", "裁判", "上帝", "gm", "版主",
    "管理员", "大大",
)  # fmt: skip
HONORIFICS: tuple[str, ...] = ("大人", "大大", "您")
GREETINGS: tuple[str, ...] = (
    "您好", "你好", "晚上好", "早上好", "上午好", "下午好", "中午好", "晚好", "早", "好", "辛苦了",
    "辛苦", "在吗", "嗨", "哈喽", "hello", "hi",
)  # fmt: skip
GREETING_PARTICLES = "呀啊哈哦~"  # 你好呀：, 早上好啊～
POLITE_WORDS: tuple[str, ...] = (
    "麻烦您", "麻烦你", "麻烦", "劳驾", "拜托您", "拜托你", "拜托", "烦请", "有劳", "请您", "请你",
    "委托您", "委托你",
)  # fmt: skip
HELP_WORDS: tuple[str, ...] = (
    "帮我们", "帮咱们", "替我们", "替我", "给我们", "代我们", "帮忙", "帮个忙",
)  # fmt: skip
JOINT_WORDS: tuple[str, ...] = (
    "我们俩", "我俩", "我们两个", "咱们俩", "咱俩", "咱们", "我们一起", "一起", "一同", "共同",
    "联合", "一个人", "独自", "自己", "商量后", "商量过后", "讨论后",
)  # fmt: skip
# A short framing that ends in a colon (我帮朋友发一下：占卜X) frames a command naming a player;
# not reported speech (他说：投X, 楼上问：…).
FRAMING_MAX = 12
REPORTED_SPEECH: tuple[str, ...] = (
    "说", "讲", "问", "写", "道", "表示", "认为", "觉得", "称", "喊", "吼", "回答", "回复", "引用",
)  # fmt: skip
JOINT_LINKS: tuple[str, ...] = ("我和", "我跟", "我与", "我同")  # 我和卢绾今晚查证：X
PARTNER_WORDS: tuple[str, ...] = ("队友", "搭档", "同伴", "伙伴", "另一位", "另一个", "partner")
# The subject of a command, before its command word: the writer alone or with others, linked
# (我和卢绾, Ann和我, 灰狼、灰狼王、Wolf), with an aside in brackets (我们两个（老K和Ann）, 我（月亮）),
# then words saying they agree or come to it (都, 一致同意, 商量好了：, 代表狼队, 来, 的). It
# frames the command only when it holds the writer (a WRITER_WORDS word or the author's own name):
# Rex和老K都投X is talk about others.
WRITER_WORDS: tuple[str, ...] = (
    "我们两个", "我们两人", "我们二人", "我们俩", "咱们俩", "咱们两个", "我俩", "咱俩", "咱们", "我们",
    "两个人", "两人", "俩人", "二人", "本人", "我",
    # the writer's team (in a PM or the wolves' 功能树洞): 狼队决定【杀人】X
    "我们狼队", "狼队", "狼人们", "我们杀手", "杀手们", "全队", "我方",
    "我们狼人阵营", "狼人阵营", "我们狼人", "我们俩狼", "我们两狼", "狼人", "咱们狼人", "咱们狼队", "咱狼队",
    "我们狼", "我们几个", "我们三个", "我们仨", "咱们几个", "咱们三个",
)  # fmt: skip
SUBJECT_LINKS: tuple[str, ...] = ("和", "跟", "与", "同", "及", "以及", "、", ",", "&")
SUBJECT_ASIDE_MAX = 16  # characters of an aside in brackets after a subject: 我们（老K和Ann）
SUBJECT_TAILS: tuple[str, ...] = (
    "一致同意", "都同意", "同意", "一致决定", "一致", "都", "也", "一起", "一同", "共同", "商量好了",
    "商量过了", "商量好", "商量了", "商量后", "讨论好了", "讨论过了", "讨论后", "决定好了", "决定",
    "在此", "这边", "这里", "正式", "郑重", "现在", "来", "的",
)  # fmt: skip
# Speaking for others (Wolf代表狼队【杀人】X): 代表 and whom.
REPRESENT_WORD = "代表"
REPRESENTED: tuple[str, ...] = (
    "狼队", "狼人", "狼人阵营", "全队", "队友们", "队友", "大家", "团队", "全体", "我方", "我们",
    "杀手们", "杀手方", "本队",
)  # fmt: skip
# After a condition (如果…就…), these start the clause that holds the command.
CONDITION_CONSEQUENTS: tuple[str, ...] = ("那就", "就", "便")
# 第N夜 / 第N晚 / 第N天 / 第N轮 before a command word
FILLER_ORDINAL_UNITS = "夜晚天轮"

# -- sentences that are not commands --------------------------------------------------------------
QUESTION_MARKERS: tuple[str, ...] = (
    "?", "吗", "请问", "想问", "问一下", "能不能", "可不可以", "可以吗", "能否", "是否", "要不要",
    "是不是", "怎么", "为什么", "为啥", "什么时候", "多久",
)  # fmt: skip
QUESTION_FINAL: tuple[str, ...] = ("呢", "么")  # a question only at the end of its sentence
# Right after a command, the words that ask about the command itself (投老王可以吗, 投票：老王
# 行不行？). A question of any other words after the command (投票：老王（他为什么不说话？）,
# 投 @老王 你们不觉得他很怪吗) is the reason's, and never qualifies the command.
QUESTION_ASKS: tuple[str, ...] = (
    "可不可以", "可以不可以", "行不行", "好不好", "对不对", "成不成", "能不能", "可以", "行",
    "好", "对", "成", "妥", "如何", "怎么样", "咋样", "没问题", "合适", "合理", "ok", "okay",
    "这样", "这么投", "这样投", "吧",
)  # fmt: skip
CONDITION_MARKERS: tuple[str, ...] = (
    "如果", "假如", "要是", "若是", "倘若", "万一", "除非", "的话", "假设", "如若", "前提是",
)  # fmt: skip
# A clause right after a command that qualifies it (投票：X，除非他解释清楚 / 束魂 X if he lives).
# A clause after it that opens with a CONDITION_MARKERS word qualifies it too when the condition
# has no consequent of its own (投票：X，如果他不解释的话), not when it has (投票：X。如果他是好人，我认了).
TAIL_QUALIFIERS: tuple[str, ...] = (
    "除非", "前提是", "前提", "只要", "看情况", "视情况", "看具体情况", "取决于", "待定", "未定",
    "再议", "再看看", "unless", "if", "only if", "provided",
)  # fmt: skip

# -- a change of mind in the same text ------------------------------------------------------------
# A clause opening with one of these replaces the command before it (the latest target counts):
# 占卜 老王⏎改成阿杰, 算了还是占卜阿杰吧, 束魂 老王 不对 是阿杰, 更正：阿杰. 不 counts only before a
# break (不，是阿杰), never before a verb (不占卜了 is not a command).
CORRECTION_WORDS: tuple[str, ...] = (
    "更正为", "更正", "修改为", "修改成", "修改", "纠正", "改正", "更改为", "更改成", "更改", "更换为",
    "更换成", "改成", "改为", "换成", "换为", "改回", "换回", "改一下", "改", "换", "不对", "算了", "还是", "刚才发错了",
    "刚刚发错了", "刚才写错了", "发错了", "写错了", "打错了", "说错了", "上面那个作废", "上面的作废",
    "上面作废", "上一条作废", "上条作废", "前面的作废", "刚才那条作废", "之前的作废", "作废",
    "上面那个不算", "上面的不算", "上面那条不算", "上一条不算", "前面的不算", "刚才那条不算", "之前的不算",
    "以这条为准", "以这个为准", "以此为准", "以下面为准", "以最后为准", "最终为", "应该是", "重新选",
    "重选", "重来", "重新决定", "重新考虑了一下", "重新考虑了下", "重新考虑后决定", "重新考虑之后",
    "重新考虑后", "重新考虑", "重新想了想", "再三考虑后", "再三考虑", "后来决定", "最后决定", "还是决定", "改变决定", "sorry", "抱歉", "我改主意了", "改主意了", "改主意", "改变主意", "换个人", "换人",
    "修正", "订正", "手滑了", "手滑", "更新", "update", "编辑", "edit", "取消", "不要了", "撤回", "收回",
)  # fmt: skip
# 以第一条为准 / 以最后一条为准: a correction pointing somewhere (with no name after it, the
# commands before it are no longer certain)
CORRECTION_POINTING = ("以", "为准")
# What may stand before a correction word: 哦对了改…, 我要改：X, 那就改成X
CORRECTION_LEADS: tuple[str, ...] = (
    "哦", "噢", "喔", "啊", "嗯", "呃", "额", "诶", "欸", "唉", "哎", "对了", "我要", "我想", "我",
    "那就", "那", "再次", "再",
    # the writer thought again, or goes on to what he settled on: 再想了想还是X, 最后还是X, 不过还是X吧
    "仔细想了想", "仔细想想", "想了想", "想了一下", "想了下", "想想", "考虑了一下", "考虑了下",
    "思考了一下", "考虑再三", "后来", "最后", "最终", "不过", "但是", "可是", "然后",
)  # fmt: skip
# A clause opening with one of these offers another target (投X，或者投Y / 投票：X，要么Y /
# 占卜X 或是Y吧), after a comma, any other break, a space or a symbol: alternatives.
ALTERNATIVE_LEADS: tuple[str, ...] = ("或者", "或是", "要么", "要不然", "要不", "或")
# ... possibly with a link before the name offered (或者是Y, 要么就Y吧)
ALTERNATIVE_LEAD_LINKS: tuple[str, ...] = ("就是", "是", "就")
# ... but these also say "otherwise" (投票：X，要不然Y明天就被刀了): a name after them offers
# another target only when its clause ends with the names (a particle, 也行 …), not when it goes
# on as a sentence (a reason about Y, as 投票：X，Y 验出来的 is).
ALTERNATIVE_OTHERWISE: tuple[str, ...] = ("要不然", "要不")
# ... but these ask (要不要改成Y: a question about a change, conditional, not another target)
ALTERNATIVE_NOT: tuple[str, ...] = ("要不要",)
# After a correction word that names nobody, a negated command word: 取消占卜, 算了不占卜了.
CANCEL_NEGATIONS: tuple[str, ...] = ("不要", "不再", "不用", "不", "别")
CORRECTION_NO = "不"  # 不，是阿杰 (only before a break)
CORRECTION_PARTICLES = "吧啊呀哦"  # after a correction word: 不对吧，X / 算了吧
CORRECTION_LINKS: tuple[str, ...] = ("是", "为", "成", "选")  # 不，是阿杰
# What the writer meant, said after the correction word (打错了，应为X / 写错了，应该投X / 不对，其实是X):
# before the link or the new command.
CORRECTION_MODALS: tuple[str, ...] = ("应该", "应当", "本应", "本该", "应", "其实", "实际上", "实际")
# ... or as the command meant, named again before the name (说错了，我投的是X / 我要占卜的是X):
# these, a ballot word or a command word, then a CORRECTION_MEANT_TAILS word.
CORRECTION_MEANT_LEADS: tuple[str, ...] = ("我要", "我想", "我本来要", "我本来想", "我", "要", "想")
CORRECTION_MEANT_TAILS: tuple[str, ...] = ("的应该是", "的是", "的为", "的")

# -- what may stand before a command word at the start of a line or clause ---------------------
# Words with a colon (PS：投票：X, 回复：…, （编辑：改投X）), numbering (1、 一、 (1) 第一条), a
# mention (@神的使者 投票：X), a header in brackets (【第二天】), a day tag (Day2), and any run of
# symbols or emoji (※ ★ → —— 》 # 😀 ????) are skipped before a command word.
LEAD_WORDS: tuple[str, ...] = (
    "ps", "p.s.", "pps", "re", "回复", "回覆", "答复", "编辑", "edit", "更新", "补充", "附", "另",
    "另外", "注", "备注", "修改", "update",
)  # fmt: skip
LEAD_DAY_WORDS: tuple[str, ...] = ("day", "d", "night", "n")  # Day2 投票：X

# -- a post in the vote thread that looks meant as a ballot, without a command word ---------------
# (the GM is told: possible_ballot). Echoes of the ballot above (同上, +1) and words that say
# "this is my choice" before a single player's name (我选X, 支持X). Read where a command word is:
# at the start of the post or of any clause after the writer's lead-in clauses (想了很久，就他了：X),
# after FILLER_WORDS (还是选X吧).
ECHO_WORDS: tuple[str, ...] = (
    "同上", "+1", "附议", "同意楼上", "跟楼上", "同楼上", "楼上+1", "跟上", "me too", "同意",
)  # fmt: skip
BALLOT_HINTS: tuple[str, ...] = (
    "我的选择", "选择", "我选", "选", "支持", "处决", "出", "推", "归票", "就他", "就是他", "跟", "定", "锁",
    # a conclusion before the name (结论：X, 最终决定：X, 综上所述：X, 锁定X: recheck)
    "我的结论", "结论", "我的决定", "最终决定", "决定", "最终", "综上所述", "综上", "锁定", "认定",
)  # fmt: skip
# A particle after the word of choice, before the name (就他了：X, 就他吧，X, 选了X, 定了：X).
BALLOT_HINT_TAIL = "了吧啊啦呀"
BALLOT_HINT_LINKS: tuple[str, ...] = ("的是", "是", "为")  # 我的选择是X, 我选的是X

# -- PM and 功能树洞 commands -----------------------------------------------------------------------
# Nouns that open with a command word (杀手 is the role, not 杀 + 手…): never a command word
# (我们杀手今晚杀X: the command is the second 杀).
VERB_NOUNS: tuple[str, ...] = ("杀手", "占卜师", "预言家", "炮手", "炮灰")
# What 目标：X means: the one power of the sender (a general's 目标 is his kill, not 抽将).
TARGET_INTENTS: tuple[str, ...] = (
    "kill", "cannon_kill", "divine", "bind", "curse", "bless", "pray", "imprison", "check",
    "protect", "guard", "pipe",
)  # fmt: skip
VERBS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("委托投票给", ("delegate_vote",)), ("委托投票", ("delegate_vote",)),
    ("委托投", ("delegate_vote",)), ("帮我投", ("delegate_vote",)), ("代我投", ("delegate_vote",)),
    ("【预言】", ("divine",)), ("【守护】", ("guard",)), ("【隔音】", ("silence_guard",)),
    ("【救药】", ("heal",)), ("【毒药】", ("poison",)), ("【杀人】", ("kill",)),
    ("【吹笛】", ("pipe",)), ("【金箭】", ("pair_lovers",)), ("【托孤】", ("lone_wolf",)),
    ("【孤刀】", ("lone_blade",)), ("【殉职】", ("sheriff_successor",)),
    ("占卜", ("divine",)), ("额外占卜", ("divine",)), ("预言", ("divine",)), ("查验", ("divine", "check")),
    ("查证", ("check", "divine")), ("束魂", ("bind",)), ("诅咒", ("curse",)),
    ("庇佑", ("bless",)), ("保佑", ("bless",)), ("祈祷", ("pray",)), ("祈福", ("pray",)),
    ("炮打", ("cannon_kill",)), ("炮轰", ("cannon_kill",)), ("炮击", ("cannon_kill",)),
    ("轰击", ("cannon_kill",)),
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
    ("炮", ("cannon_kill",)), ("打", ("cannon_kill",)), ("轰", ("cannon_kill",)),
    ("抽", ("swap_general",)),
    # the target of whatever power the sender has (目标：X, a cannon's platform on the next line)
    ("目标是", TARGET_INTENTS), ("目标为", TARGET_INTENTS), ("对象是", TARGET_INTENTS),
    ("对象为", TARGET_INTENTS), ("目标", TARGET_INTENTS), ("对象", TARGET_INTENTS),
    ("代投", ("delegate_vote",)),
    ("委托", ("delegate_vote",)),
)  # fmt: skip
# After a command word, before the name: 杀了X, 杀掉X, 杀死X, 祈祷给X, 占卜改成X; 占卜对象：X
# (not where a player's name starts with it: 祈祷给力 where 给力 plays).
VERB_PARTICLES: tuple[str, ...] = (
    "的对象是", "的对象为", "的目标是", "的目标为", "改成", "改为", "换成", "换为", "修改为", "修改成",
    "更改为", "更改成", "更正为", "变更为", "改回", "换回", "改一下", "换一下", "改下", "换下", "要改成",
    "要改为", "要换成", "要改", "要换", "带走", "了", "掉", "死", "给",
)  # fmt: skip
# Particles that change the target of the command before (占卜改成X): a correction.
CHANGE_PARTICLES: tuple[str, ...] = (
    "改成", "改为", "换成", "换为", "修改为", "修改成", "更改为", "更改成", "更正为", "变更为",
    "改回", "换回", "改一下", "换一下", "改下", "换下",
)  # fmt: skip
# 改 / 换 before a command word (改杀X, 换占卜X) changes its target; anywhere in a clause, as the
# CHANGE_PARTICLES and VOTE_CHANGE_WORDS, unless negated (不改杀, 别换成).
CHANGE_LEADS: tuple[str, ...] = ("改", "换")
CHANGE_NOT_AFTER = "不别没未勿"
# ... nor after a negation of two characters (不要改杀X, 不用换成X, 不想改投X)
CHANGE_NEGATIONS: tuple[str, ...] = ("不要", "不用", "不必", "不再", "不想", "无需", "不会")
# ... except 要不 before it, which offers the change (要不改杀X？, 要不要换成X): no negation, but a
# possibility (LATER_WORDS), so it corrects nothing and the GM is told.
CHANGE_OFFERED_AFTER: tuple[str, ...] = ("要不", "要不要")
# A change said for later or as a possibility (明天可能改投X, 到时候再改成X, 我会改杀X) is no change
# now: it corrects nothing and the GM is told (as for a conditional change).
LATER_WORDS: tuple[str, ...] = (
    "明天", "明日", "后天", "明晚", "下一轮", "下轮", "可能", "也许", "或许", "说不定", "到时候", "到时",
    "待会儿", "待会", "等会儿", "等会", "一会儿", "晚点", "之后", "以后", "回头", "打算", "考虑",
    "准备", "估计", "大概", "要不", "会",
)  # fmt: skip
# ... but these are thinking done, not a time to come (再三考虑还是X, 重新考虑之后，改投X): a
# LATER_WORDS word inside one of them says nothing of later.
REFLECTIONS: tuple[str, ...] = (
    "再三考虑后", "再三考虑", "考虑再三", "重新考虑了一下", "重新考虑了下", "重新考虑后", "重新考虑之后",
    "重新考虑", "考虑了一下", "考虑了下", "考虑过后", "考虑过了", "考虑好了", "仔细考虑后", "仔细考虑过",
)  # fmt: skip
OBJECT_SUFFIXES: tuple[str, ...] = ("对象是", "对象为", "目标是", "目标为", "对象", "目标")
OBJECT_LINKS: tuple[str, ...] = ("选择", "选", "定为", "定", "就是")  # 炮打对象选X

# Commands written name first: 为X祈祷, 抓X替我抽将. (leads, tails, intents)
NAME_FIRST: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    (("为", "给", "替", "帮"), ("祈祷", "祈福", "祷告"), ("pray",)),
    (("对", "给"), ("用救药", "使用救药", "用解药", "使用解药"), ("heal",)),  # 对X用救药
    (("对", "给"), ("用毒药", "使用毒药", "下毒"), ("poison",)),
    (("抓", "抽", "拉"), ("替我抽将", "帮我抽将", "来抽将", "抽将", "替死"), ("swap_general",)),
)

# After a second name, these make the names alternatives (投票：A B二选一, (B也行)).
ALTERNATIVE_FOLLOWERS: tuple[str, ...] = (
    "也行", "也可以", "都行", "都可以", "二选一", "选一个", "随便", "皆可",
)  # fmt: skip
# Resignation written right after a command, ending its clause (弃权算了, 投老王得了, 就占卜他算了):
# the command stands; only after a break is 算了 a cancel (占卜 X⏎算了).
RESIGNATION_TAILS: tuple[str, ...] = ("算了", "得了", "拉倒", "就算了")
# What may follow a name without being part of it (投票：老王，理由 …, 投老王一票, 占卜老王是不是杀手).
# Any other character that could extend a name makes the whole token the name (老王王 is not 老王).
NAME_FOLLOWERS: tuple[str, ...] = (
    "理由", "因为", "原因", "由于", "一票", "这票", "祈祷", "祈福", "祷告", "替我", "帮我",
    *ALTERNATIVE_FOLLOWERS,
    "抽将", "做炮架", "当炮架", "为炮架", "作为炮架", "作炮架", "打", "或者", "或是", "或",
    "还是", "和", "与", "跟", "以及", "及", "还有", "平安", "好运", "顺利", "活过", "度过", "挺过",
)  # fmt: skip
# ... and these when the clause ends after them (我投Kiki自己, 占卜老王本人吧; not 老王自己说的那个人).
NAME_FOLLOWERS_AT_END: tuple[str, ...] = ("自己", "本人", *RESIGNATION_TAILS)
# A vote-thread post wishing one player out, with no ballot word (阿杰出局吧, Rex，就是你了,
# 送老王走): a possible ballot for the GM, never a ballot (issue 24: nothing dropped in silence).
OUT_WISHES: tuple[str, ...] = (
    "就是你了", "就是你", "出局吧", "出局", "走吧", "走好", "出去吧", "去死吧", "去死", "下车吧", "下车",
    "慢走", "再见", "拜拜", "上路吧", "上路",
)  # fmt: skip
SEND_OFF_LEADS: tuple[str, ...] = ("送", "请", "让")  # 送老王走, 请Rex出局
SEND_OFF_WHOLE: tuple[str, ...] = ("送走", "请走", "赶走", "投出去", "票出去")  # 送走老王(吧)
# Words between the name and the wish (墨鱼今天出局吧, Rex就下车吧).
OUT_WISH_FILLERS: tuple[str, ...] = ("今天", "今晚", "这轮", "就", "赶紧", "快点", "快", "还是", "先", "必须")
SEND_OFF_TAILS: tuple[str, ...] = ("出局", "出去", "上路", "下车", "走")
# Sentence particles after a name, when the clause ends right after them (投老王吧).
NAME_PARTICLES = "吧啊呀哦了啦嘛吗呢么哈"
# The question a divination asks, after its target: not a question to the GM.
TARGET_QUESTIONS: tuple[str, ...] = (
    "是不是杀手", "是否是杀手", "是否杀手", "是杀手吗", "是不是好人", "是好人吗", "是不是狼人",
    "是不是狼", "是不是坏人", "的身份", "是什么身份",
)  # fmt: skip
# Separators of alternatives (A或者B): no target is certain.
ALTERNATIVE_WORDS: tuple[str, ...] = ("或者", "或是", "或", "还是", "or")
# Who a condition after a command is about: a third person qualifies the command (，要是他不解释);
# one holding the writer (我) is a remark (，如果我错了请原谅 / 如果他是好人我道歉).
THIRD_PERSON: tuple[str, ...] = ("他", "她", "它", "ta", "对方", "此人", "这人")
FIRST_PERSON = "我"
# A ballot for 他/她 names nobody for certain.
PRONOUNS: tuple[str, ...] = ("他", "她", "它", "ta", "你")
# Separators of a list of names (投票：A、B / A vs B / A+B): two targets where one is meant.
LIST_WORDS: tuple[str, ...] = (
    "、", ",", "/", "&", "+", "|", "\\", "vs.", "vs", "v.s.", "and", "和", "与", "跟", "及", "以及",
    "还有", "→", "->", "=>", "⇒", "-->",
)  # fmt: skip

# A cannon's platform: 炮架子：Y; 以Y为炮架
PLATFORM_WORDS: tuple[str, ...] = ("炮架子", "炮架", "架子", "炮台", "架")
PLATFORM_LINKS: tuple[str, ...] = ("是", "为", "用", "选")  # 炮架子是Y
PLATFORM_FILLERS: tuple[str, ...] = ("就", "还是", "先", "暂时", "仍然", "依然", "继续")  # 炮架就选Y
PLATFORM_CHANGE_LINKS: tuple[str, ...] = ("改成", "改为", "换成", "换为", "改", "换")  # 炮架改成Y
PLATFORM_AS_LEADS: tuple[str, ...] = ("以", "用", "拿", "让")
PLATFORM_AS_LINKS: tuple[str, ...] = ("作为", "作", "为", "做", "当")
PLATFORM_AS_WORDS: tuple[str, ...] = ("炮架子", "炮架", "架子", "架")
PLATFORM_ACROSS: tuple[str, ...] = ("隔着", "隔")  # 隔着Y打X

# Kill declarations (family A 杀人宣言, chess 杀人帖) and stories (杀人剧情)
DECLARATION_WORDS: tuple[str, ...] = ("杀人宣言", "杀人剧情", "杀人帖", "宣言", "剧情")
STORY_WORD = "剧情"
DECLARATION_LEADS: tuple[str, ...] = ("如下",)
# The declaration of one's own earlier kill PM still stands (改杀 X，宣言同上一条).
DECLARATION_SAME: tuple[str, ...] = (
    "宣言同上一条", "宣言同上", "宣言不变", "宣言照旧", "宣言沿用", "宣言同前", "宣言和上次一样",
    "宣言和之前一样", "宣言跟之前一样", "宣言跟上次一样", "宣言用上一条", "宣言用之前的",
    "同上一条", "同上",
)  # fmt: skip  # fmt: skip
# A remark on a command's own line shorter than this is not its declaration (…炮架子：Y。明天见).
DECLARATION_TAIL_MIN = 20
# A declaration block written before the 杀 line with no marker counts from this length (a
# greeting or a remark before the kill is no declaration: 神使晚上好⏎杀 X).
DECLARATION_BEFORE_MIN = 50

LAST_WORDS: tuple[str, ...] = ("【遗言】", "遗言")
ACCUSE_WORDS: tuple[str, ...] = ("指控", "指认")

# 委托阿杰帮我投: delegating to a player (D-D forbids it)
DELEGATE_TO_LEADS: tuple[str, ...] = ("委托", "让", "请", "拜托")
DELEGATE_TO_WORDS: tuple[str, ...] = ("帮我", "替我", "代我", "帮忙", "代")

CONFIRM_WORDS: tuple[str, ...] = ("确定", "确认", "锁定", "confirm")  # also in 【】
# Agreement after a command (a clause of its own, in brackets or not): it confirms the command
# before it, which then stands over earlier ones (束魂：X（和队友商量过了，以这个为准））. Never a
# condition, nor a change of mind.
AGREEMENT_WORDS: tuple[str, ...] = (
    "以这个为准", "以这条为准", "以此为准", "以本条为准", "以这次为准", "就这个了", "就这个",
    "就这样吧", "就这样", "就这么定了", "就这么办", "就定这个", "定了", "不改了", "不变了", "不变",
    "最终决定", "确定了", "确认了", "决定了", "没问题", "ok",
    # the latest line, named (the latest counts anyway, A-S2): 占卜 A⏎占卜 B⏎以最后一条为准
    "以最后一条为准", "以最后一个为准", "以最后这条为准", "以最后这个为准", "以最后一次为准",
    "以最后的为准", "以最新的为准", "以最新一条为准", "以最新这条为准", "以最新为准",
    "以后面这条为准", "以后面这个为准", "以后面的为准", "以后一条为准", "以下面这条为准",
)  # fmt: skip
SPEED_UP = ("同意", "加速")  # 同意第N天加速 (a whole clause: 同意加速的请回复 is not consent)
# A skill taken back, as a whole clause with no name (the latest reply counts: nothing stands):
# 不救了 / 取消【救药】 / 今晚不占卜了 / 算了不杀了 (before the verb), 救药不用了 / 【守护】取消 (after it).
SKILL_WITHDRAWN_BEFORE: tuple[str, ...] = (
    "取消", "撤回", "撤销", "收回", "不要", "不再", "不用", "不想", "不打算", "不", "别",
)  # fmt: skip
SKILL_WITHDRAWN_AFTER: tuple[str, ...] = (
    "取消", "撤回", "撤销", "作废", "不要了", "不用了", "不用", "不要", "算了",
)  # fmt: skip
SKILL_WITHDRAWN_LEADS: tuple[str, ...] = ("算了", "我", "今晚", "今天", "还是")
# 同意加速 taken back (撤回加速, 不同意第N天加速, 取消同意加速): the day runs to its deadline again
SPEED_UP_WITHDRAWN: tuple[str, ...] = ("不同意", "撤回", "取消", "收回")
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

# -- spelling ---------------------------------------------------------------------------------------
# Characters folded to another before reading (variants the traditional→simplified table keeps,
# colon look-alikes): 砲打韓信 reads as 炮打韩信, 投票︰X as 投票:X.
CHAR_VARIANTS: Mapping[str, str] = MappingProxyType(
    {"砲": "炮", "︰": ":", "∶": ":", "꞉": ":", "﹕": ":"}
)
