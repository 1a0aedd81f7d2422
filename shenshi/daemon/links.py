"""Evidence links for the GM: each post or PM behind a result, an alert or a tally, labelled
with what it did (``月光 杀 老王 → PM 3``, ``老王 投 kk_大侠 → 12楼``).

The label comes from the events the post or PM produced (a ballot, an action, last words);
a post or PM that produced none (an alert's) is labelled with its author and the start of its
text. The dry-run log and ``shenshi status`` (and the console) show the same links.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from shenshi.daemon.gm_text import describe_ballot, describe_submission
from shenshi.rulesets.base import BallotCast, Event, LastWordsRecorded, PowerSubmitted
from shenshi.store import codec
from shenshi.store.records import Evidence, EvidenceKind
from shenshi.store.unit_of_work import Store

SNIPPET = 24  # characters of a post or PM shown when it did nothing the log can name


@dataclass(frozen=True)
class EvidenceLink:
    """One post or PM, labelled for the GM, with its address on the forum."""

    id: int  # the evidence id in the store
    label: str  # 月光 杀 老王 → PM 3
    url: str | None
    at: datetime  # when it was written (forum record, aware)

    def __str__(self) -> str:
        return f"{self.label}  {self.url}" if self.url else self.label


def place(evidence: Evidence) -> str:
    """Where a post or PM is, in the GM's words: ``PM 3`` (the forum's message id), ``12楼``."""
    if evidence.kind is EvidenceKind.PM:
        return f"PM {evidence.forum_id}"
    return f"{evidence.floor}楼" if evidence.floor else f"帖子 {evidence.forum_id}"


def describe(event: Event) -> str | None:
    """What one event of a post or PM did, in the GM's words (``None``: nothing to name)."""
    if isinstance(event, BallotCast):
        return describe_ballot(event.ballot)
    if isinstance(event, PowerSubmitted):
        return describe_submission(event.submission)
    if isinstance(event, LastWordsRecorded):
        return f"{event.author} 遗言"
    return None


def snippet(text: str) -> str:
    """The start of a text on one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "…"


def evidence_links(store: Store, game_id: int, ids: Iterable[object]) -> tuple[EvidenceLink, ...]:
    """The labelled links of these evidence ids (strings or ints; others are skipped), in the
    order given; an id the store does not know is left out."""
    wanted = [int(str(i)) for i in ids if str(i).isdigit()]
    if not wanted:
        return ()
    with store.snapshot() as uow:
        rows: dict[int, Evidence] = {}
        for ident in dict.fromkeys(wanted):
            try:
                rows[ident] = uow.evidence.get(ident)
            except LookupError:
                continue
        events = uow.events.of_evidence(game_id, rows)
    did: dict[int, list[str]] = {}
    for stored in events:
        what = describe(codec.decode(stored.payload))
        if what and stored.evidence_id is not None:
            did.setdefault(stored.evidence_id, []).append(what)
    links = []
    for ident, e in rows.items():
        what = "，".join(dict.fromkeys(did.get(ident, ()))) or f"{e.author}：{snippet(e.text)}"
        links.append(EvidenceLink(ident, f"{what} → {place(e)}", e.url, e.posted_at))
    return tuple(links)
