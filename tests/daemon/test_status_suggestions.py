"""``shenshi status`` never suggests a command the program refuses (issue 20): every command
its text names (``shenshi approve 21-22``, ``reject``, ``published``, ``ack``) and every next
step its model holds (the console's buttons, blanks filled with a value that fits) is run, each
on a fresh copy of the same game, in review, dry-run and live mode, at the moments a newcomer
GM met: the dawn after night 1 with two sign-ins missed (the exits wait for his confirmation),
and the day after the result is out, with a ballot that intake could not read."""

from __future__ import annotations

import re
from itertools import count

import pytest

from shenshi.commands.status import render
from shenshi.daemon.gm_commands import acknowledge, mark_published, outbox_action, run_hint
from shenshi.daemon.status import build_status
from shenshi.errors import UserError
from tests.daemon.helpers import announcement, at, post, started
from tests.daemon.test_status import feed

SIGNED = ["夜行者", "老王", "小明", "月光", "阿杰", "Lily99", "Tom_2", "白色的猫"]  # kk_大侠, Rex miss it
MOMENTS = ("dawn", "day")


def game(tmp_path, mode: str, moment: str):
    """The game at ``moment``, in ``mode``."""
    svc, clock = started(tmp_path, mode=mode)
    for i, name in enumerate(SIGNED):
        feed(svc, post(name, "签到", 0.1 + i / 100))
    clock.set(at(24.5))
    svc.tick()  # night 1 settles; the two missed sign-ins are proposed, unconfirmed
    if moment == "day":
        mark_published(svc, [announcement(svc, svc.referee.gate_key()).id])
        clock.set(at(37))
        svc.tick()  # the vote opens
        feed(svc, post("小明", "投票：Rex", 37.1))
        feed(svc, post("月光", "投票：夜行着", 37.2))  # a misspelt name: an alert
        clock.set(at(37.5))
        svc.tick()
    return svc


IDS = re.compile(r"shenshi (approve|reject|published|ack)((?: \d+(?:-\d+)?(?:,\d+(?:-\d+)?)*)+)( --late)?")


def ids_of(text: str) -> list[int]:
    out: list[int] = []
    for part in re.split(r"[ ,]+", text.strip()):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def suggestions(svc) -> list[list[tuple[str, object]]]:
    """Every command the status suggests, as groups of alternatives (the text's commands one
    group each; each alert's or announcement's next steps one group, blanks filled)."""
    status = build_status(svc)
    text = "\n".join(render(status, 400))
    groups: list[list[tuple[str, object]]] = [
        [(m.group(0), (m.group(1), ids_of(m.group(2)), bool(m.group(3))))] for m in IDS.finditer(text)
    ]
    newcomers = count(1)
    for hints in [w.hints for w in status.waiting] + [a.advice.hints for a in status.alerts]:
        group = []
        for h in hints:
            if h.by_hand or h.command in ("review", "status", "run", "edit"):
                continue
            fill = [b.suggested[0] if b.suggested else (b.choices[0] if b.choices else f"路人{next(newcomers)}")
                    for b in h.blanks]  # (a newcomer each: no seat is taken twice)
            group.append((h.text(), h.fill(*fill)))
        groups.append(group)
    return [g for g in groups if g]


def run(svc, suggestion) -> tuple[str, ...]:
    """Run one suggestion; what it refused (a UserError is a refusal of all of it)."""
    try:
        if isinstance(suggestion, tuple):
            command, ids, late = suggestion
            if command in ("approve", "reject"):
                return outbox_action(svc, command, ids, late=late).refused
            if command == "published":
                return mark_published(svc, ids).refused
            return acknowledge(svc, ids).refused
        return run_hint(svc, suggestion, offline=True).refused
    except UserError as exc:
        return (str(exc),)


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("mode", ["review", "dry-run", "live"])
def test_every_command_status_suggests_is_taken(tmp_path, mode, moment) -> None:
    svc = game(tmp_path / "first", mode, moment)
    groups = suggestions(svc)
    assert groups, "status suggested nothing"
    if moment == "dawn":  # the missed sign-ins wait for a confirmation, not an approval
        assert not [t for g in groups for t, _ in g if t.startswith("shenshi approve") and re.search(r"\b[23]\b", t)]
    # the k-th alternative of every group, on a game as it stood (alternatives exclude each other)
    for k in range(max(len(g) for g in groups)):
        fresh = svc if k == 0 else game(tmp_path / f"copy{k}", mode, moment)
        chosen = dict(g[k] for g in groups if len(g) > k)  # (one step named twice runs once)
        for text, suggestion in chosen.items():
            assert run(fresh, suggestion) == (), (mode, moment, text)
