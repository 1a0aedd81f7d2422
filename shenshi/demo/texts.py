"""What the scripted players write: analysis, chat, kill declarations, last words.

Every text is drawn from a seeded :class:`random.Random`, so one seed always gives the same
game. Analysis and chat never hold a command at the start of a clause (no 投…, 杀…, 占卜…):
they are talk, and intake must read them as talk.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

_ANALYSIS = (
    "我觉得{a}昨天的发言有点飘，像是在带节奏，大家多留意一下。",
    "从票型来看，{a}和{b}的站边很一致，可能是一伙的。",
    "{a}一直在划水，这种时候不说话很可疑。",
    "个人认为{a}是好人，逻辑很清楚，没有必要怀疑。",
    "回顾一下昨晚的情况：{a}的死亡说明杀手在针对发言积极的人。",
    "{a}说的有道理，但是{b}的反应太快了，像是提前知道了什么。",
    "今天先听听大家的意见，我暂时倾向于怀疑{a}。",
    "整理一下目前的信息：{a}、{b}的发言都值得再看一遍。",
)
_CHAT = (
    "今天天气不错，大家加油～",
    "路过看看，这局好激烈啊。",
    "晚上好，刚下班，补一下前面的帖子。",
    "哈哈哈，楼上说得太对了。",
    "这局的剧情越来越精彩了，期待后续。",
    "有人一起吃宵夜吗？",
)
_STORY = (
    "那一夜风雨交加，雷声在远处的山谷里回荡。",
    "一个黑影悄悄穿过小镇的石板路，脚步轻得像猫。",
    "窗外的月光被乌云遮住，屋里只剩下一盏昏黄的油灯。",
    "他推开吱呀作响的木门，闻到了空气里淡淡的茶香。",
    "桌上摊着一封没有写完的信，墨迹还没有干透。",
    "远处传来几声犬吠，很快又归于沉寂。",
    "刀锋在黑暗中闪过一道冷光，一切都结束得很快。",
    "第二天清晨，人们在井边发现了一张黑色的纸条。",
    "纸条上只写着一句话：欠下的，总要还。",
    "镇上的钟楼敲了三下，没有人知道夜里发生了什么。",
)
_LAST_WORDS = (
    "我是好人，死得不明不白。",
    "昨晚的情况大家心里有数。",
    "希望好人们擦亮眼睛。",
)


def count_chars(text: str) -> int:
    """Characters that count toward a declaration's length (non-whitespace, RES-A29)."""
    return sum(1 for ch in text if not ch.isspace())


def declaration(rng: random.Random, chars: int, victim: str) -> str:
    """A kill declaration (杀人宣言) of exactly ``chars`` counted characters naming ``victim``."""
    opening = f"关于{victim}："
    parts = [opening]
    while count_chars("".join(parts)) < chars:
        parts.append(rng.choice(_STORY))
    text = "".join(parts)
    out, n = [], 0
    for ch in text:
        if n >= chars:
            break
        out.append(ch)
        if not ch.isspace():
            n += 1
    return "".join(out)


def analysis(rng: random.Random, names: Sequence[str]) -> str:
    """An analysis post naming one or two players (never a command)."""
    a, b = rng.sample(list(names), 2) if len(names) >= 2 else (names[0], names[0])
    return rng.choice(_ANALYSIS).format(a=a, b=b)


def chat(rng: random.Random) -> str:
    """A chat (灌水) post."""
    return rng.choice(_CHAT)


def last_words(rng: random.Random, accused: Sequence[str]) -> str:
    """遗言 accusing ``accused`` (遗言计票)."""
    text = "遗言：" + rng.choice(_LAST_WORDS)
    if accused:
        text += "我指控 " + "、".join(accused) + "。"
    return text
