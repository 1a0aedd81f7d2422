"""Announcements in Chinese, in the style of the rule posts, from the rules core's reports.

A :class:`Draft` is one proposed public post or PM. :func:`drafts_for_step` turns the
:class:`~shenshi.rulesets.base.Report` of a resolution into drafts: the dawn post (deaths
with their kill declarations, 无人死亡, the bound survivor), the tally with its curse and
bless notes, the runoff, the execution (杀手/平民, or the chess camp), the winner, and the
private answers (seer 是/不是, chess identities and checks, werewolf prophecy and vision).

Every text comes from a template (``string.Template``, ``$name`` placeholders) that the GM may
override in the config's ``[templates]`` table; :data:`DEFAULT_TEMPLATES` lists them all.
Each draft has a deterministic key, so re-deriving after a restart never proposes it twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from string import Template
from typing import Any

from shenshi.daemon.keys import GameKeys
from shenshi.rulesets.base import PrivateResult, PublicFact, Report

CAMP = {
    "chu": "楚方", "han": "汉方", "killers": "杀手方", "civilians": "好人方",
    "village": "村民阵营", "wolves": "狼人阵营", "lovers": "情侣阵营", "piper": "吹笛阵营",
    "draw": "和棋",
}  # fmt: skip
CAUSE = {
    "killer": "被杀手杀害", "bind_failure": "束魂失败，死于束魂者之手", "execution": "被处决",
    "auto_exit": "自动退出游戏", "general": "被帅所杀", "cannon": "被炮击杀", "mine": "兑子同归于尽",
    "swap": "被抽将", "kill": "被杀", "poison": "被毒杀", "lovers_suicide": "殉情",
    "vote_out": "被投票出局", "lone_blade": "被孤刀带走",
}  # fmt: skip
IDENTITY = {
    "general": "帅", "chariot": "车", "horse": "马", "cannon": "炮", "elephant": "相",
    "left_advisor": "左士", "right_advisor": "右士", "soldier": "兵",
}  # fmt: skip

DEFAULT_TEMPLATES: Mapping[str, str] = {
    "night_title": "【第${n}夜结果】",
    "day_title": "【第${n}天投票结果】",
    "death": "${name} ${cause}。",
    "death_camp": "${name} 死亡，所属阵营：${camp}。",
    "kill_declaration": "杀人宣言（${victim}）：\n${text}",
    "kill_declaration_missing": "（${victim} 的杀人宣言待天神补充）",
    "no_death": "昨夜无人死亡。",
    "kill_failed": "杀手杀人失败。",
    "bound": "${name} 被束魂，今日可以发言，但不能投票。",
    "tally_line": "${name}：${votes} 票",
    "curse_applied": "${name} 获得诅咒附加的一票。",
    "bless_applied": "${name} 因庇佑减少一票。",
    "runoff": "${names} 平票，进入生死投票（只能投给以上玩家）。",
    "round2": "${names} 平票且达到30%，进入第二轮投票（只能投给以上玩家或弃权）。",
    "executed": "${name} 被处决，身份：${value}。",
    "executed_camp": "${name} 被处决，所属阵营：${camp}。",
    "no_execution": "本日无人被处决，直接进入黑夜。",
    "exit": "${name} 自动退出游戏。",
    "substitution": "${out} 退出，由替补 ${in} 接替。",
    "out": "${name} 出局。",
    "sheriff": "${name} 成为警长。",
    "madness_lifted": "吹笛者出局，所有癫狂状态解除。",
    "winner": "【游戏结束】${camp}获胜！",
    "draw": "【游戏结束】双方帅同时阵亡，和棋。",
    "divination": "天神答复：你占卜的对象 ${name} ${value}杀手。",
    "extra_divination": "天神答复（额外占卜）：你占卜的对象 ${name} ${value}杀手。",
    "check": "查证结果：${name} 是 ${camp}的${identity}。",
    "death_identity": "你方阵亡的 ${name} 的身份是：${identity}。",
    "prophecy": "【预言】结果：${name} 属于${value}。",
    "witch_vision": "【通灵】今夜被【杀人】选中的角色：${names}",
    "lover_partner": "你的情侣是：${name}。",
    "signin_missed": "${name} 未在游戏者名单公布后24小时内签到，视为自动退出游戏（待天神确认）。",
    "lurking": "${name} 已超过48小时未在杀人版发帖，视为自动退出游戏（待天神确认）。",
    "role": "你在《${game}》中的身份是：${role}（${team}）。请妥善保密。",
    "partners": "你的同伴：${names}。",
    "signature": "\n\n—— 神的使者",
}


@dataclass(frozen=True)
class Draft:
    """One proposed announcement: a public post to a thread, or a PM to a player."""

    key: str  # deterministic: game, step, kind, recipient
    kind: str  # night_result, day_result, divination, receipt, …
    channel: str  # "thread" or "pm"
    destination: str  # thread id, or the recipient's name
    text: str
    evidence: tuple[str, ...] = field(default=())


class Templates:
    """The announcement texts, defaults overridden by the config's ``[templates]`` table."""

    def __init__(self, overrides: Mapping[str, str] | None = None) -> None:
        unknown = set(overrides or {}) - set(DEFAULT_TEMPLATES)
        if unknown:
            raise ValueError(f"unknown template(s): {', '.join(sorted(unknown))}")
        self._texts = {**DEFAULT_TEMPLATES, **dict(overrides or {})}

    def render(self, template: str, **values: Any) -> str:
        """One template with its ``$placeholders`` filled in."""
        return Template(self._texts[template]).safe_substitute({k: str(v) for k, v in values.items()})


def _fact_line(t: Templates, fact: PublicFact, declarations: Mapping[str, str]) -> str | None:
    f = dict(fact.fields)
    match fact.kind:
        case "death" if "camp" in f:
            return t.render("death_camp", name=f["name"], camp=CAMP.get(f["camp"], f["camp"]))
        case "death":
            return t.render("death", name=f["name"], cause=CAUSE.get(f.get("cause", ""), "死亡"))
        case "kill_declaration" | "kill_post":
            text = declarations.get(f["victim"])
            if text is None:
                return t.render("kill_declaration_missing", victim=f["victim"])
            return t.render("kill_declaration", victim=f["victim"], text=text)
        case "no_death" | "kill_failed" | "no_execution" | "madness_lifted":
            return t.render(fact.kind)
        case "bound" | "curse_applied" | "bless_applied" | "exit" | "out" | "sheriff":
            return t.render(fact.kind, name=f["name"])
        case "executed" if "camp" in f:
            return t.render("executed_camp", name=f["name"], camp=CAMP.get(f["camp"], f["camp"]))
        case "executed":
            return t.render("executed", name=f["name"], value=f["value"])
        case "substitution":
            return t.render("substitution", out=f["out"], **{"in": f["in"]})
    return None


def public_text(
    t: Templates,
    title: str,
    report: Report,
    declarations: Mapping[str, str],
    runoff_template: str = "runoff",
) -> str:
    """The public post for one step: title, tallies, facts in order, the winner.

    ``runoff_template`` names how the ruleset announces a runoff (its profile's
    ``ballots.runoff_template``: 生死投票, or chess32's round 2)."""
    lines = [title]
    if report.vote_tally:
        lines += [t.render("tally_line", name=n, votes=_num(v)) for n, v in _sorted_tally(report.vote_tally)]
    if report.runoff_tally:
        lines.append("生死投票/第二轮：" + "，".join(f"{n} {_num(v)} 票" for n, v in _sorted_tally(report.runoff_tally)))
    if report.final_tally:  # 遗言计票 and 招魂: why a tied runoff still executed someone
        lines.append("计入遗言与招魂后：" + "，".join(f"{n} {_num(v)} 票" for n, v in _sorted_tally(report.final_tally)))
    for fact in report.public_facts:
        if fact.kind == "runoff":
            lines.append(t.render(runoff_template, names="、".join(fact.get("candidates"))))
            continue
        line = _fact_line(t, fact, declarations)
        if line:
            lines.append(line)
    if report.winner:
        lines.append(t.render("draw") if report.winner == "draw" else t.render("winner", camp=CAMP.get(report.winner, report.winner)))
    return "\n".join(lines) + t.render("signature")


def private_text(t: Templates, result: PrivateResult, target: str | None = None) -> str:
    """The PM text of one private result (``target``: whom the divination or check was about)."""
    v = result.value
    name = target or ""
    match result.text_kind:
        case "divination" | "extra_divination":
            return t.render(result.text_kind, name=name, value="是" if v == "是" else "不是")
        case "check":
            return t.render("check", name=name, camp=CAMP.get(v.get("camp"), v.get("camp")),
                            identity=IDENTITY.get(v.get("identity"), v.get("identity")))  # fmt: skip
        case "death_identity":
            return t.render("death_identity", name=v["name"], identity=IDENTITY.get(v["identity"], v["identity"]))
        case "prophecy":
            return t.render("prophecy", name=name, value=v)
        case "witch_vision":
            return t.render("witch_vision", names="、".join(v) if v else "（无）")
        case "lover_partner":
            return t.render("lover_partner", name=v)
    return f"{result.text_kind}: {v}"


def drafts_for_step(
    t: Templates,
    *,
    game: str,
    label: str,
    title: str,
    thread: str,
    report: Report,
    declarations: Mapping[str, str] | None = None,
    runoff_template: str = "runoff",
    evidence: Sequence[str] = (),
    targets: Mapping[tuple[str, str], str] | None = None,
) -> list[Draft]:
    """Every announcement a resolved step proposes: one public post and its private PMs."""
    drafts: list[Draft] = []
    keys = GameKeys(game)
    if report.public_facts or report.vote_tally or report.winner:
        drafts.append(
            Draft(
                keys.public(label),
                f"{label.rstrip('0123456789')}_result",
                "thread",
                thread,
                public_text(t, title, report, declarations or {}, runoff_template),
                tuple(evidence),
            )
        )
    for i, result in enumerate(report.private_results):
        drafts.append(
            Draft(
                keys.private(label, result.text_kind, result.to, i),
                result.text_kind,
                "pm",
                result.to,
                private_text(t, result, (targets or {}).get((result.to, result.text_kind))),
                tuple(evidence),
            )
        )
    return drafts


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _sorted_tally(tally: Mapping[str, float]) -> list[tuple[str, float]]:
    return sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
