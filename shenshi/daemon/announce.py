"""Announcements in Chinese, in the style of the rule posts, from the rules core's reports.

A :class:`Draft` is one proposed public post or PM. :func:`drafts_for_step` turns the
:class:`~shenshi.rulesets.base.Report` of a resolution into drafts: the dawn post (deaths
with their kill declarations, 无人死亡, the bound survivor), the tally with its curse and
bless notes, the runoff, the execution (杀手/平民, or the chess camp), the winner, and the
private answers (seer 是/不是, chess identities and checks, werewolf prophecy and vision).

Every text comes from a template of :mod:`shenshi.wording` (``$name`` placeholders) that the GM
may override in the config's ``[templates]`` table (``docs/templates.md`` lists them all); role
and camp names come from the rulesets' catalog.
Each draft has a deterministic key, so re-deriving after a restart never proposes it twice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from shenshi.daemon.keys import GameKeys
from shenshi.intake.text import is_invisible
from shenshi.rulesets.base import PrivateResult, PublicFact, Report
from shenshi.rulesets.catalog import TEAM_NAMES, Role
from shenshi.wording import Templates

CAMP = TEAM_NAMES  # the role PM's team name (the deal)


@dataclass(frozen=True)
class Draft:
    """One proposed announcement: a public post to a thread, or a PM to a player."""

    key: str  # deterministic: game, step, kind, recipient
    kind: str  # night_result, day_result, divination, receipt, …
    channel: str  # "thread" or "pm"
    destination: str  # thread id, or the recipient's name
    text: str
    evidence: tuple[str, ...] = field(default=())
    # Waits for the GM to confirm it with a correction (a missed sign-in is an exit once
    # ``shenshi override exit`` says so): never approved, sent or published by hand before.
    unconfirmed: bool = False
    # What the GM reads beside it, never sent (records.Announcement.notes).
    notes: Mapping[str, Any] | None = None


# Player text in a GM post cannot form markup on either engine: no BBCode tag, HTML tag, @
# mention or smiley code can be written with these (full-width look-alikes).
_INERT = str.maketrans({"[": "［", "]": "］", "<": "＜", ">": "＞", "@": "＠", "{": "｛", "}": "｝"})


def quote_player_text(t: Templates, text: str) -> str:
    """What a player wrote (a kill declaration, last words), as a GM post may repeat it: no
    invisible or bidi characters, no character that could form markup, and every line set off
    by the ``quoted_line`` template, so that no line of it can pass for the GM's own
    (``【游戏结束】…``, ``—— 神的使者``)."""
    clean = "".join(c for c in text if not is_invisible(c)).translate(_INERT)
    return "\n".join(t.render("quoted_line", line=line) for line in clean.splitlines() or [""])


def _camp(camp: str) -> str:
    return TEAM_NAMES.get(camp, camp)


def _cause(t: Templates, cause: str) -> str:
    name = f"cause_{cause}"
    return t.render(name if name in t.specs else "cause_unknown")


def _fact_line(t: Templates, fact: PublicFact, declarations: Mapping[str, str]) -> str | None:
    f = dict(fact.fields)
    match fact.kind:
        case "death" if "camp" in f:
            return t.render("death_camp", name=f["name"], camp=_camp(f["camp"]))
        case "death":
            return t.render("death", name=f["name"], cause=_cause(t, f.get("cause", "")))
        case "kill_declaration" | "kill_post":  # family A 杀人宣言, chess32 杀人帖
            text = declarations.get(f["victim"])
            if text is None:
                return None  # not on record: the GM is told beside the post (missing_texts)
            return t.render(fact.kind, victim=f["victim"], text=quote_player_text(t, text))
        case "no_death" | "kill_failed" | "no_execution" | "madness_lifted":
            return t.render(fact.kind)
        case "bound" | "curse_applied" | "bless_applied" | "exit" | "out" | "sheriff" | "sent_off":
            return t.render(fact.kind, name=f["name"])
        case "penalty":
            return t.render("penalty", name=f["name"], points=f.get("points", ""))
        case "executed" if "camp" in f:
            return t.render("executed_camp", name=f["name"], camp=_camp(f["camp"]))
        case "executed":
            return t.render("executed", name=f["name"], value=f["value"])
        case "substitution":
            return t.render("substitution", out=f["out"], **{"in": f["in"]})
    return None


# The fields of a public fact that name a seat (a name, or a list of names).
_NAME_FIELDS = frozenset({"name", "victim", "candidates"})


def seat_names(t: Templates, taken_over: Mapping[str, str]) -> dict[str, str]:
    """How a post or PM names each seat a substitute is taking over (old → new) while the
    step he entered in is open: ``路人甲（接替 kk_大侠）``, so that the players, told of the
    substitution, read one name for the seat everywhere (the rules core knows it under the
    replaced player's name until the step ends)."""
    return {old: t.render("seat_taken_over", old=old, new=new) for old, new in taken_over.items()}


def seats_renamed(text: str, names: Mapping[str, str]) -> str:
    """A post ``text`` written before a substitution, with each seat of ``names`` (old →
    shown) named as shown where it stands as a whole name (``Rex：5 票``, ``Rex、老王``); a
    text that already names the seat as shown is left as it is."""
    for old, shown in names.items():
        if shown in text:
            continue
        text = re.sub(rf"(?<![\w]){re.escape(old)}(?![\w])", lambda _m, s=shown: s, text)
    return text


def shown_as(report: Report, names: Mapping[str, str], declarations: Mapping[str, str] | None = None,
             ) -> tuple[Report, dict[str, str]]:
    """``report`` and ``declarations`` (by victim) with the seats of ``names`` (old → shown)
    named as shown, in every tally, fact and private answer; the rest as it is."""
    declared = dict(declarations or {})
    if not names:
        return report, declared

    def name(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, (list, tuple)):
            return type(value)(name(v) for v in value)
        return value

    def tally(counts: Any) -> Any:
        return {name(k): v for k, v in counts.items()} if isinstance(counts, Mapping) else counts

    facts = tuple(
        replace(f, fields=tuple((k, name(v) if k in _NAME_FIELDS else v) for k, v in f.fields))
        for f in report.public_facts
    )
    answers = tuple(replace(r, about=name(r.about)) for r in report.private_results)
    shown = replace(report, public_facts=facts, private_results=answers, vote_tally=tally(report.vote_tally),
                    runoff_tally=tally(report.runoff_tally), final_tally=tally(report.final_tally))  # fmt: skip
    return shown, {name(k): v for k, v in declared.items()}


# Public facts that say what became of the day's vote (an execution, or none).
EXECUTION_FACTS = frozenset({"executed", "no_execution"})


def execution_lines(t: Templates, report: Report) -> list[str]:
    """The lines of a day's result that say who was executed (or nobody) and the winner."""
    lines = [line for f in report.public_facts if f.kind in EXECUTION_FACTS and (line := _fact_line(t, f, {}))]
    if report.winner:
        lines.append(t.render("draw") if report.winner == "draw" else t.render("winner", camp=_camp(report.winner)))
    return lines


def corrected_text(text: str, was: Sequence[str], now: Sequence[str]) -> str:
    """A day's result ``text`` with the lines ``was`` (its execution and winner) replaced by
    ``now`` where the first of them stood (before the signature if none is there); a text that
    already says ``now`` is returned as it is."""
    lines = text.split("\n")
    if all(line in lines for line in now) and not any(line in lines for line in was if line not in now):
        return text
    at = next((i for i, line in enumerate(lines) if line in was), None)
    kept = [line for line in lines if line not in was]
    if at is None:
        at = next((i for i, line in enumerate(kept) if not line.strip()), len(kept))  # the signature's gap
    else:
        at = sum(1 for line in lines[:at] if line not in was)
    return "\n".join(kept[:at] + list(now) + kept[at:])


def missing_texts(t: Templates, report: Report, declarations: Mapping[str, str]) -> list[str]:
    """For the GM, beside a result post: the kill declarations (chess32: kill posts) its
    deaths should publish and that are not on record (never in the post itself)."""
    return [
        t.render(f"{fact.kind}_missing", victim=fact.get("victim"))
        for fact in report.public_facts
        if fact.kind in ("kill_declaration", "kill_post") and fact.get("victim") not in declarations
    ]


def public_text(
    t: Templates,
    title: str,
    report: Report,
    declarations: Mapping[str, str],
    runoff_template: str = "runoff",
    extra: Sequence[str] = (),
    lead: Sequence[str] = (),
) -> str:
    """The public post for one step: title, tallies, ``lead`` lines (why the tallies decided
    nothing), facts in order, ``extra`` lines (the voting record, who may leave last words,
    last words published, what round comes next), the winner.

    ``runoff_template`` names how the ruleset announces a runoff (its profile's
    ``ballots.runoff_template``: 生死投票, or chess32's round 2)."""
    lines = [title]
    if report.vote_tally:
        # a player the tally's curse or bless names is counted, even at 0 (庇佑 took his one vote)
        named = {f.get("name"): 0 for f in report.public_facts if f.kind in TALLY_FACTS and f.get("name")}
        tally = {**named, **report.vote_tally}
        lines += [t.render("tally_line", name=n, votes=_num(v)) for n, v in _sorted_tally(tally)]
    if report.runoff_tally:  # 生死投票, or chess32's 第二轮
        lines.append(t.render(f"{runoff_template}_tally", tally=_tally_items(t, report.runoff_tally)))
    if report.final_tally and report.final_tally != report.runoff_tally:
        # 遗言计票 (with the runoff's count), then 招魂: why a tie still executed someone
        which = "final_tally_last_words" if report.runoff_tally else "final_tally"
        lines.append(t.render(which, tally=_tally_items(t, report.final_tally)))
    lines += lead
    for fact in report.public_facts:
        if fact.kind == "runoff":
            lines.append(t.render(runoff_template, names="、".join(fact.get("candidates"))))
            continue
        line = _fact_line(t, fact, declarations)
        if line:
            lines.append(line)
    lines += extra
    if report.winner:
        lines.append(t.render("draw") if report.winner == "draw" else t.render("winner", camp=_camp(report.winner)))
    return "\n".join(lines) + t.render("signature")


def private_text(
    t: Templates,
    result: PrivateResult,
    target: str | None = None,
    roles: Mapping[str, Role] | None = None,
) -> str:
    """The PM text of one private result (``target``: whom the divination or check was about;
    ``roles``: the ruleset's roles, for the names of identities)."""
    v = result.value
    name = target or result.about or ""

    def identity(role: str) -> str:
        found = (roles or {}).get(role)
        return found.chinese if found is not None else role

    match result.text_kind:
        case "divination" | "extra_divination":
            return t.render(result.text_kind, name=name, value="是" if v == "是" else "不是")
        case "check":
            return t.render("check", name=name, camp=_camp(v.get("camp")), identity=identity(v.get("identity")))
        case "death_identity":
            return t.render("death_identity", name=v["name"], identity=identity(v["identity"]))
        case "prophecy":
            return t.render("prophecy", name=name, value=v)
        case "witch_vision":
            return t.render("witch_vision", names="、".join(v) if v else t.render("witch_vision_empty"))
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
    roles: Mapping[str, Role] | None = None,
    extra: Sequence[str] = (),
    notes: Mapping[str, Any] | None = None,
    lead: Sequence[str] = (),
) -> list[Draft]:
    """Every announcement a resolved step proposes: one public post (with ``extra`` lines;
    ``notes`` for the GM beside it) and its private PMs."""
    drafts: list[Draft] = []
    keys = GameKeys(game)
    if has_public_post(report):
        missing = missing_texts(t, report, declarations or {})
        gm_notes = {**(notes or {}), **({"missing": missing} if missing else {})}
        drafts.append(
            Draft(
                keys.public(label),
                _result_kind(label),
                "thread",
                thread,
                public_text(t, title, report, declarations or {}, runoff_template, extra, lead),
                tuple(evidence),
                notes=gm_notes or None,
            )
        )
    for i, result in enumerate(report.private_results):
        drafts.append(
            Draft(
                keys.private(label, result.text_kind, result.to, i),
                result.text_kind,
                "pm",
                result.to,
                private_text(t, result, (targets or {}).get((result.to, result.text_kind)), roles),
                tuple(evidence),
            )
        )
    return drafts


def has_public_post(report: Report) -> bool:
    """Whether a step's report is announced in a public post: its facts, a tally (a runoff
    still tied goes on to the summoning, 招魂, and says so), or the end of the game."""
    return bool(report.public_facts or report.vote_tally or report.runoff_tally or report.final_tally or report.winner)


def _result_kind(label: str) -> str:
    """The kind of a step's result post: ``night_result``, ``day_result``, or ``round_result``
    for a day's round that leads to another (``day1.r1``)."""
    if ".r" in label:
        return "round_result"
    return f"{label.rstrip('0123456789')}_result"


_ROUND_WORDS = "一二三四五六七八九十"


# A step's result whose key does not name the step (the GM's words without the number).
_UNNUMBERED = {"night_result": "夜晚结果", "day_result": "投票结果", "round_result": "本轮投票结果"}


def kind_words(t: Templates, kind: str, key: str) -> str:
    """What an announcement is, in the GM's words (``第1天第一轮结果``, ``回执``), from its kind
    and its key (which holds the step: ``g1:day1.r1:public``); an unknown kind stays as it is."""
    step = re.search(r":(night|day)(\d+)(?:\.r(\d+))?:", key)
    if step is None and kind in _UNNUMBERED:
        return _UNNUMBERED[kind]  # a step's result whose key names no step
    values = {"n": step.group(2) if step else "", "round": ""}
    if step and step.group(3):
        r = int(step.group(3))
        values["round"] = _ROUND_WORDS[r - 1] if 0 < r <= len(_ROUND_WORDS) else str(r)
    name = f"kind_{kind}"
    return t.render(name, **values) if name in t.specs else kind


def _tally_items(t: Templates, tally: Mapping[str, float]) -> str:
    items = [t.render("tally_item", name=n, votes=_num(v)) for n, v in _sorted_tally(tally)]
    return t.render("list_separator").join(items)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# Public facts that explain a count of the first round's tally (curse +1, bless −1).
TALLY_FACTS = frozenset({"curse_applied", "bless_applied"})


def _sorted_tally(tally: Mapping[str, float]) -> list[tuple[str, float]]:
    return sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
