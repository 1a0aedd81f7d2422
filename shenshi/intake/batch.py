"""``shenshi intake --batch``: one JSON case in, the same intake code as the daemon, one JSON out.

A case names players by name (no uids). Required keys: ``id``, ``ruleset``, ``players``,
``roles``, ``dead``, ``channel`` (``post`` or ``pm``), ``from``, ``text``. Every optional key
is documented in ``docs/intake.md`` ("Batch cases"). Times are ISO 8601; a time without a
zone is the forum's clock (Asia/Shanghai), as in the scenario files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from shenshi.intake.context import (
    DAY,
    FORUM_TZ,
    GAME_THREAD,
    NIGHT,
    SIGNIN,
    UNKNOWN_TIME,
    VOTE_THREAD,
    CountedBallot,
    DeclaredKill,
    GameContext,
    PhaseFacts,
    PlayerInfo,
)
from shenshi.intake.model import IntakeResult
from shenshi.intake.names import nickname_map
from shenshi.intake.read import read_pm, read_post, read_post_edit
from shenshi.records import Post, PrivateMessage, Quote
from shenshi.rulesets.base import RulesetError
from shenshi.rulesets.registry import find_ruleset

REQUIRED = ("id", "ruleset", "players", "roles", "dead", "channel", "from", "text")
DECLARED_CHARS = 100  # a partner's declaration given by name only is long enough
THREAD_KINDS = ("vote", "game", "discussion", "chat", "signin")
CASE_TID = "case"


class CaseError(ValueError):
    """A case line that cannot be run; the message says what was expected and what was seen."""


def _time(value: Any, key: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise CaseError(f"{key} must be an ISO time string, got {value!r}")
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        raise CaseError(f"{key} is not an ISO time: {value!r}") from None
    return t.replace(tzinfo=FORUM_TZ) if t.tzinfo is None else t


def _names(value: Any, key: str) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CaseError(f"{key} must be a list of names, got {value!r}")
    return frozenset(value)


def _mapping(value: Any, key: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CaseError(f"{key} must be an object, got {value!r}")
    return value


def _phase_kind(value: Any) -> tuple[str | None, int | None]:
    if value is None:
        return None, None
    if isinstance(value, dict):
        kind, n = value.get("kind"), value.get("n")
    elif isinstance(value, str):
        head = value.rstrip("0123456789")
        kind, n = head, int(value[len(head) :]) if value[len(head) :] else None
    else:
        raise CaseError(f'phase must be like "night1" or {{"kind", "n"}}, got {value!r}')
    if kind not in (NIGHT, DAY, SIGNIN):
        raise CaseError(f"phase kind must be night, day or signin, got {kind!r}")
    return kind, n


def _ballots(value: Any) -> Mapping[str, tuple[CountedBallot, ...]]:
    out: dict[str, tuple[CountedBallot, ...]] = {}
    for voter, items in _mapping(value, "ballots").items():
        if not isinstance(items, list):
            items = [items]
        seq = []
        for item in items:
            if isinstance(item, dict):
                target, t = item.get("target"), _time(item.get("t"), "ballots.t")
            else:
                target, t = item, None
            seq.append(CountedBallot(None if target in (None, "ABSTAIN") else target, t))
        out[voter] = tuple(seq)
    return out


def _declared(value: Any) -> DeclaredKill:
    """``"老王"`` (a kill on 老王 with a declaration long enough) or ``{"target", "chars"}``."""
    if isinstance(value, str):
        return DeclaredKill(value, DECLARED_CHARS)
    if isinstance(value, dict) and isinstance(value.get("chars", DECLARED_CHARS), int):
        return DeclaredKill(value.get("target"), value.get("chars", DECLARED_CHARS))
    raise CaseError(f'declared: give a target name or {{"target", "chars"}}, got {value!r}')


def _nicknames(value: Any, players: list[str]) -> dict[str, str | tuple[str, ...]]:
    """``{nickname: name}``, or the configuration's shape ``{name: [nicknames]}`` (a nickname
    given to several players is ambiguous, as in the daemon)."""
    by_player: dict[str, list[str]] = {}
    for key, names in _mapping(value, "nicknames").items():
        if isinstance(names, str):
            by_player.setdefault(names, []).append(key)
        elif isinstance(names, list) and all(isinstance(n, str) for n in names):
            by_player.setdefault(key, []).extend(names)  # the configuration's shape
        else:
            raise CaseError(
                f"nicknames must be {{nickname: name}} or, as in the configuration, "
                f"{{name: [nicknames]}}; got {key!r}: {names!r}"
            )
    unknown = sorted(name for name in by_player if name not in players)
    if unknown:
        raise CaseError(f"nicknames name someone who is not a player: {', '.join(unknown)}")
    return nickname_map(by_player)


def build_context(case: Mapping[str, Any]) -> GameContext:
    """The :class:`GameContext` a case describes (the same one the daemon would build)."""
    try:
        info = find_ruleset(str(case["ruleset"])).info
    except KeyError as exc:
        raise CaseError(str(exc.args[0])) from None
    ruleset = info.name
    raw_players = case["players"]
    if not isinstance(raw_players, list) or not all(isinstance(p, str) for p in raw_players):
        raise CaseError(f"players must be a list of names, got {raw_players!r}")
    roles = _mapping(case["roles"], "roles")
    for name, role in roles.items():
        if role not in info.roles:
            raise CaseError(
                f"role {role!r} of {name} is not a {ruleset} role (known: {', '.join(info.roles)})"
            )
    dead = _names(case["dead"], "dead")
    teams = _mapping(case.get("teams"), "teams")
    addons = _mapping(case.get("addons"), "addons")
    players = []
    for name in raw_players:
        role = roles.get(name)
        team = teams.get(name) or (info.roles[role].team if role else None) or None
        players.append(
            PlayerInfo(name, None, role, team, name not in dead, frozenset(addons.get(name, ())))
        )
    kind, number = _phase_kind(case.get("phase"))
    window = _mapping(case.get("window"), "window")
    vote = case.get("vote", {} if kind == DAY else None)
    vote = _mapping(vote, "vote") if vote is not None else None
    xdiv = _mapping(case.get("extra_divination"), "extra_divination")
    last_words = _mapping(case.get("last_words"), "last_words")
    deadlines = {
        int(k): _time(v, "phase_deadlines")
        for k, v in _mapping(case.get("phase_deadlines"), "phase_deadlines").items()
    }
    vision = case.get("witch_vision")
    declared = {
        name: _declared(value) for name, value in _mapping(case.get("declared"), "declared").items()
    }
    phase = PhaseFacts(
        kind=kind,
        number=number,
        pm_window_open=_time(window.get("open"), "window.open"),
        pm_window_close=_time(window.get("close"), "window.close"),
        deadline=_time(case.get("deadline"), "deadline"),
        phase_deadlines=deadlines,
        vote_round=(vote.get("round", 1) if vote is not None else None),
        vote_open=_time(vote.get("open"), "vote.open") if vote else None,
        vote_close=_time(vote.get("close"), "vote.close") if vote else None,
        candidates=_names(vote.get("candidates"), "vote.candidates") if vote else frozenset(),
        ballots=_ballots(case.get("ballots")),
        delegations_published=_names(case.get("delegations_published"), "delegations_published"),
        bound=case.get("bound"),
        summoned=_names(case.get("summoned"), "summoned"),
        seer_answered=_names(case.get("seer_answered"), "seer_answered"),
        on_duty_killer=case.get("on_duty_killer"),
        declared=declared,
        extra_divination_actor=xdiv.get("actor"),
        extra_divination_deadline=_time(xdiv.get("deadline"), "extra_divination.deadline"),
        extra_divination_used=bool(xdiv.get("used", False)),
        last_words_granted=(
            _names(last_words["granted"], "last_words.granted")
            if last_words.get("granted") is not None else None
        ),
        last_words_deadline=_time(last_words.get("deadline"), "last_words.deadline"),
        swaps_left={k: int(v) for k, v in _mapping(case.get("swaps_left"), "swaps_left").items()},
        maddened=_names(case.get("maddened"), "maddened"),
        sent_off=_names(case.get("sent_off"), "sent_off"),
        guarded_before=_names(case.get("guarded_before"), "guarded_before"),
        silenced_before=_names(case.get("silenced_before"), "silenced_before"),
        used_skills=_names(case.get("used_skills"), "used_skills"),
        settled_skills=_names(case.get("settled_skills"), "settled_skills"),
        witch_vision=_names(vision, "witch_vision") if vision is not None else None,
        locked={k: frozenset(v) for k, v in _mapping(case.get("locked"), "locked").items()},
        extra_powers={
            k: frozenset(v) for k, v in _mapping(case.get("extra_powers"), "extra_powers").items()
        },
        taking_over={str(k): str(v) for k, v in _mapping(case.get("taking_over"), "taking_over").items()},
    )
    threads: dict[str, str] = {}
    role_threads: dict[str, frozenset[str]] = {}
    role_thread = case.get("role_thread")
    sender = case["from"]
    if role_thread:
        if role_thread is True:
            owners = frozenset({sender})
        elif isinstance(role_thread, str):
            owners = frozenset(p.name for p in players if p.role == role_thread)
        else:
            owners = _names(role_thread, "role_thread")
        role_threads[CASE_TID] = owners
    else:
        thread = case.get("thread", VOTE_THREAD if kind != SIGNIN else "signin")
        if thread not in THREAD_KINDS:
            raise CaseError(f"thread must be one of {', '.join(THREAD_KINDS)}, got {thread!r}")
        threads[CASE_TID] = thread if thread != "game" else GAME_THREAD
    gm = case.get("gm", ["神的使者"])
    settings = _mapping(case.get("rules"), "rules")
    try:
        find_ruleset(ruleset).profile(settings)
    except RulesetError as exc:
        raise CaseError(f"rules: {exc}") from None
    former = {k: tuple(v) for k, v in _mapping(case.get("former_names"), "former_names").items()}
    nicknames = _nicknames(case.get("nicknames"), raw_players)
    nicknames.update({old: holder for holder, olds in former.items() for old in olds if old not in raw_players})
    return GameContext(
        ruleset=ruleset,
        players=tuple(players),
        nicknames=nicknames,
        former_names=former,
        gm_names=frozenset([gm] if isinstance(gm, str) else gm),
        phase=phase,
        threads=threads,
        role_threads=role_threads,
        receipts=bool(case.get("receipts", True)),
        settings=settings,
        started=_time(case.get("started"), "started"),
    )


def _quotes(value: Any) -> tuple[Quote, ...]:
    out = []
    for q in value or ():
        if isinstance(q, str):
            out.append(Quote(None, None, q))
        elif isinstance(q, dict) and isinstance(q.get("text"), str):
            out.append(Quote(q.get("author"), q.get("pid"), q["text"]))
        else:
            raise CaseError(f'quotes must be texts or {{"author", "text"}}, got {q!r}')
    return tuple(out)


def run_case(case: Mapping[str, Any]) -> IntakeResult:
    """Run one case through :func:`read_post` or :func:`read_pm`."""
    return case_reader(case)()


def case_reader(case: Mapping[str, Any]) -> Callable[[], IntakeResult]:
    """The reading of one case, ready to run: its context, post or PM built, the call to
    :func:`read_post` / :func:`read_pm` / :func:`read_post_edit` left to make (the benchmark
    times only that call)."""
    if not isinstance(case, dict):
        raise CaseError(f"a case must be a JSON object, got {type(case).__name__}")
    missing = [k for k in REQUIRED if k not in case]
    if missing:
        raise CaseError(f"missing key(s): {', '.join(missing)}")
    for key in ("from", "text"):
        if not isinstance(case[key], str):
            raise CaseError(f"{key} must be a string, got {case[key]!r}")
    ctx = build_context(case)
    t = _time(case.get("t"), "t") or UNKNOWN_TIME
    channel = case["channel"]
    if channel == "post":
        post = Post(
            tid=CASE_TID, pid=str(case["id"]), floor=0, author=case["from"], author_uid="",
            posted_at=t, text=case["text"], quotes=_quotes(case.get("quotes")),
        )  # fmt: skip
        first_seen = case.get("first_seen")
        if first_seen is not None:
            if not isinstance(first_seen, str):
                raise CaseError(
                    f"first_seen must be the post's first-seen text, got {first_seen!r}"
                )
            first = replace(post, text=first_seen, quotes=())
            return lambda: read_post_edit(ctx, first, post)
        return lambda: read_post(ctx, post)
    if channel == "pm":
        pm = PrivateMessage(
            id=str(case["id"]), conversation=case["from"], sender=case["from"], sender_uid="",
            recipient="GM", recipient_uid=None, sent_at=t, text=case["text"],
        )  # fmt: skip
        return lambda: read_pm(ctx, pm)
    raise CaseError(f'channel must be "post" or "pm", got {channel!r}')


def result_json(case_id: Any, result: IntakeResult, with_receipts: bool = False) -> dict[str, Any]:
    """The output object of one case."""
    out: dict[str, Any] = {
        "id": case_id,
        "commands": [c.as_json() for c in result.commands],
        "alerts": [a.as_json() for a in result.alerts],
    }
    if with_receipts:
        out["receipts"] = [{"to": r.to, "text": r.text} for r in result.receipts]
    return out


def run_lines(
    lines: Iterable[str], with_receipts: bool = False
) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Run every non-blank line; yield ``(output object, error message or None)``.

    A malformed line yields ``{"id": <id or null>, "error": "line N: …"}`` and the other lines
    still run.
    """
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        case_id = None
        try:
            case = json.loads(line)
            case_id = case.get("id") if isinstance(case, dict) else None
            result = run_case(case)
        except json.JSONDecodeError as exc:
            msg = f"line {n}: not valid JSON ({exc.msg} at column {exc.colno})"
            yield {"id": None, "error": msg}, msg
            continue
        except CaseError as exc:
            msg = f"line {n}: {exc}"
            yield {"id": case_id, "error": msg}, msg
            continue
        yield result_json(case_id, result, with_receipts), None
