"""The dry-run log: everything that changes the game, for the GM to read, on the forum's clock.

Two files side by side, both created with mode 0600 because they hold secrets (roles, night
actions, kill declarations): a human-readable log (``shenshi-dryrun.log``) and its JSON-lines
twin (``.jsonl``). Entries:

- ``[提议]`` an announcement the daemon proposes (a post to a thread, or a PM to whom), its
  exact text, and its evidence: each post and PM it came from, labelled with what it did
  (``月光 杀 老王 → PM 3``; a vote result lists every ballot, ``老王 投 kk_大侠 → 12楼``);
- ``[已发送]`` what the daemon sent (review and live modes);
- ``[已发布]`` an announcement the daemon recognised as published by the GM by hand (his post
  in a game thread, his PM from his outbox), with the time the game counts from;
- ``!! 提醒`` a GM alert, with its id (``shenshi ack ID``), evidence and next command;
- ``[已解决]`` an alert closed because its cause was resolved (a corrected ballot, a send);
- ``[天神]`` a GM command (published, approve, reject, edit, override, substitute, ack);
- ``[阶段]`` a phase change (a night or day opens, a step is resolved).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any

from shenshi.daemon import gm_text
from shenshi.daemon.links import EvidenceLink
from shenshi.rulesets.base import Event, GameState, PhaseOpened, Resolved

PROPOSED, SENT, ALERT, GM, PHASE = "proposed", "sent", "alert", "gm", "phase"
PUBLISHED, RESOLVED, SUPERSEDED = "published", "resolved", "superseded"
HEADS = {PROPOSED: "[提议]", SENT: "[已发送]", GM: "[天神]", PHASE: "[阶段]", PUBLISHED: "[已发布]", RESOLVED: "[已解决]", SUPERSEDED: "[已被取代]"}


def open_private(path: Path) -> int:
    """Open ``path`` for appending, created (or tightened) to mode 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.fchmod(fd, 0o600)
    return fd


def where_to(thread: bool, destination: str) -> str:
    """Where an announcement goes, in the GM's words: ``帖子 2`` or ``私信给 小明``."""
    return f"帖子 {destination}" if thread else f"私信给 {destination}"


@dataclass(frozen=True)
class LogEntry:
    """One entry of the dry-run log."""

    at: datetime
    kind: str  # announcement kind, alert kind, the GM's command, or "phase"
    where: str  # "帖子 2", "私信给 小明", "天神"
    text: str
    state: str = PROPOSED  # proposed | sent | alert | gm | phase (or an outbox state)
    ident: str = ""  # announcement or alert id, for `shenshi approve ID` / `shenshi ack ID`
    evidence: Sequence[EvidenceLink | str] = field(default=())  # labelled links to posts and PMs
    alert: bool = False
    title: str = ""  # the kind in the GM's words (第1天第一轮结果), for the human-readable log
    hint: str = ""  # the next steps in words (alerts)
    hints: Sequence[Any] = ()  # … as data (hints.Hint), in the JSON twin for the console
    notes: Sequence[str] = field(default=())  # for the GM beside the text (gm_text.gm_notes)

    def to_json(self, tz: tzinfo = UTC) -> dict[str, Any]:
        """The JSON-lines form (times with the forum's offset)."""
        return {
            "at": self.at.astimezone(tz).isoformat(),
            "id": self.ident,
            "kind": self.kind,
            "alert": self.alert,
            "state": self.state,
            "where": self.where,
            "text": self.text,
            "evidence": [_link_json(e) for e in self.evidence],
            **({"hint": self.hint} if self.hint else {}),
            **({"hints": [h.to_json() for h in self.hints]} if self.hints else {}),
            **({"notes": list(self.notes)} if self.notes else {}),
        }

    def to_text(self, tz: tzinfo = UTC) -> str:
        """The human-readable form, on the forum's clock."""
        ident = f" #{self.ident}" if self.ident else ""
        if self.alert:
            head = f"!! 提醒{ident} {gm_text.alert_name(self.kind)}"  # (its id is in the JSON twin)
        else:
            kind = "" if self.state in (GM, PHASE, RESOLVED) else f" {self.title or self.kind} → {self.where}"
            head = f"{HEADS.get(self.state, f'[{self.state}]')}{ident}{kind}"
        lines = [f"{self.at.astimezone(tz):%Y-%m-%d %H:%M:%S%z} {head}"]
        lines += ["    " + line for line in self.text.splitlines() or [""]]
        lines += [f"    证据：{link}" for link in self.evidence]
        lines += [f"    （只给你看）{note}" for note in self.notes]
        if self.alert:
            after = f"看完后 shenshi ack {self.ident}" if self.ident else ""
            lines.append("    下一步：" + "；".join(x for x in (self.hint, after) if x))
        return "\n".join(lines) + "\n\n"


def _link_json(link: EvidenceLink | str) -> dict[str, Any] | str:
    if isinstance(link, EvidenceLink):
        return {"id": link.id, "label": link.label, "url": link.url}
    return link


class DryRunLog:
    """Appends entries to the human-readable log and its JSON-lines twin (forum clock ``tz``)."""

    def __init__(self, path: Path, tz: tzinfo = UTC) -> None:
        self.path = path
        self.jsonl = path.with_suffix(".jsonl")
        self.tz = tz

    def write(self, entry: LogEntry) -> None:
        """Append one entry to both files (each write is one ``os.write``)."""
        for target, data in (
            (self.path, entry.to_text(self.tz)),
            (self.jsonl, json.dumps(entry.to_json(self.tz), ensure_ascii=False) + "\n"),
        ):
            fd = open_private(target)
            try:
                os.write(fd, data.encode("utf-8"))
            finally:
                os.close(fd)

    def gm(self, at: datetime, command: str, text: str, by: str = "", typed: str = "") -> None:
        """A GM command and what it did (``approve`` → ``#3 #5 已批准``); ``by``: where the GM
        gave it when not on the command line (``控制台``); ``typed``: the command as the GM
        types it, when that is not ``command`` (``restore`` is ``reject --undo``)."""
        via = f"（{by}）" if by else ""
        self.write(LogEntry(at, command, f"天神{via}", f"shenshi {typed or command}{via}：{text}", GM))

    def published(self, at: datetime, announcement: Any, title: str = "") -> None:
        """An announcement the GM published by hand, recognised by the daemon (``announcement``:
        the outbox's record, its ``published_at`` the time the game counts from)."""
        a = announcement
        thread = getattr(a.destination_kind, "value", a.destination_kind) == "thread"
        how = "你在论坛上的帖子" if thread else "你发出的私信"
        when = a.published_at.astimezone(self.tz) if a.published_at else at.astimezone(self.tz)
        text = f"认出{how}（{when:%m-%d %H:%M:%S}）：记为已发布，时间从此算起"
        self.write(LogEntry(at, a.kind, where_to(thread, a.destination), text, PUBLISHED,
                            str(a.id), title=title))  # fmt: skip

    def phases(
        self, at: datetime, events: Iterable[Event], after: GameState, runoff: str = "生死投票"
    ) -> None:
        """The phase changes among ``events`` (``after``: the state once they applied)."""
        for event in events:
            if isinstance(event, PhaseOpened):
                name = gm_text.step_name(event.phase, event.n)
                opened = event.params.get("opened_at")
                since = (
                    f"（从 {opened.astimezone(self.tz):%m-%d %H:%M} 算起）"
                    if isinstance(opened, datetime)
                    else ""
                )
                self.write(LogEntry(at, PHASE, "", f"{name} 开始{since}", PHASE))
            elif isinstance(event, Resolved):
                if event.next_round:
                    text = f"第{after.number}天 进入{gm_text.round_name(event.next_round, runoff)}（公布结果后开始）"
                elif event.outcome is not None:
                    text = "游戏结束（结果公布后）"
                else:
                    text = f"{gm_text.step_name(after.phase, after.number)}：等待公布结果，下一阶段从公布时算起"
                self.write(LogEntry(at, PHASE, "", text, PHASE))

    def entries(self) -> list[dict[str, Any]]:
        """Every entry written so far (from the JSON lines)."""
        if not self.jsonl.exists():
            return []
        return [
            json.loads(line) for line in self.jsonl.read_text(encoding="utf-8").splitlines() if line
        ]
