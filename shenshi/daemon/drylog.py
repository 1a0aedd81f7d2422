"""The dry-run log: what the daemon proposes and what it could not decide, for the GM to read.

Two files side by side, both created with mode 0600 because they hold secrets (roles, night
actions, kill declarations): a human-readable log (``shenshi-dryrun.log``) and its JSON-lines
twin (``.jsonl``). Each entry says when, what kind, where it would go (a thread, or a PM to
whom), the exact text, and the evidence it came from (links to the posts and PMs). GM alerts
stand in the same log, marked ``!! ALERT``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any


def open_private(path: Path) -> int:
    """Open ``path`` for appending, created (or tightened) to mode 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.fchmod(fd, 0o600)
    return fd


@dataclass(frozen=True)
class LogEntry:
    """One entry of the dry-run log."""

    at: datetime
    kind: str  # announcement kind, or "alert"
    where: str  # "thread 2", "PM to 小明", or "GM"
    text: str
    state: str = "proposed"
    ident: str = ""  # announcement or alert id, for `shenshi approve ID`
    evidence: Sequence[str] = field(default=())  # URLs of the posts and PMs
    alert: bool = False
    title: str = ""  # the kind in the GM's words (第1天第一轮结果), for the human-readable log

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "id": self.ident,
            "kind": self.kind,
            "alert": self.alert,
            "state": self.state,
            "where": self.where,
            "text": self.text,
            "evidence": list(self.evidence),
        }

    def to_text(self) -> str:
        head = "!! ALERT" if self.alert else f"[{self.state}]"
        ident = f" #{self.ident}" if self.ident else ""
        lines = [f"{self.at:%Y-%m-%d %H:%M:%S%z} {head}{ident} {self.title or self.kind} → {self.where}"]
        lines += ["    " + line for line in self.text.splitlines() or [""]]
        lines += [f"    evidence: {url}" for url in self.evidence]
        return "\n".join(lines) + "\n\n"


class DryRunLog:
    """Appends entries to the human-readable log and its JSON-lines twin."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.jsonl = path.with_suffix(".jsonl")

    def write(self, entry: LogEntry) -> None:
        """Append one entry to both files (each write is one ``os.write``)."""
        for target, data in (
            (self.path, entry.to_text()),
            (self.jsonl, json.dumps(entry.to_json(), ensure_ascii=False) + "\n"),
        ):
            fd = open_private(target)
            try:
                os.write(fd, data.encode("utf-8"))
            finally:
                os.close(fd)

    def entries(self) -> list[dict[str, Any]]:
        """Every entry written so far (from the JSON lines)."""
        if not self.jsonl.exists():
            return []
        return [json.loads(line) for line in self.jsonl.read_text(encoding="utf-8").splitlines() if line]
