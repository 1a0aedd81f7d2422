"""Evidence: every post and PM as first seen, each later change as a revision, and the poll
cursors that say how far each source was read.

Recording is idempotent by (kind, source, forum id): seeing a post again is not new, and a
changed text, quotes or edit mark becomes the next revision. Cursors belong here because a
cursor is only ever moved after the evidence it covers is stored.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from shenshi.records import EditMark, Post, PrivateMessage, Quote
from shenshi.store import models as m
from shenshi.store.records import (
    Activity,
    Cursor,
    Evidence,
    EvidenceKind,
    RecordResult,
    Revision,
)
from shenshi.store.rows import (
    Repository,
    added,
    aware,
    evidence_row,
    game_row,
    json_copy,
    to_cursor,
    to_evidence,
    to_revision,
)

Content = tuple[str, list[dict[str, Any]], dict[str, str] | None]


class EvidenceRepository(Repository):
    """Posts, PMs, their revisions and the poll cursors, in the unit of work's transaction."""

    # -- recording -----------------------------------------------------------------------------

    def record(
        self,
        game_id: int,
        items: Iterable[tuple[Post | PrivateMessage, str | None]],
        *,
        seen_at: datetime | None = None,
    ) -> list[RecordResult]:
        """Keep each ``(post or private message, url)`` as first seen, in order; a change
        since last seen becomes a :class:`~shenshi.store.records.Revision`, returned in the
        result."""
        when = self._now(seen_at, "seen_at")
        parts = [_parts(item, url) for item, url in items]
        if not parts:
            return []
        game_row(self.session, game_id, lock=True)
        return [self._record(game_id, fields, content, when) for fields, content in parts]

    def _record(
        self, game_id: int, fields: dict[str, Any], content: Content, when: datetime
    ) -> RecordResult:
        s = self.session
        text, quotes, edited = content
        row = s.scalar(
            select(m.Evidence).where(
                m.Evidence.game_id == game_id,
                m.Evidence.kind == fields["kind"],
                m.Evidence.source == fields["source"],
                m.Evidence.forum_id == fields["forum_id"],
            )
        )
        if row is None:
            row = added(
                s,
                m.Evidence(
                    game_id=game_id, **fields, text=text, quotes=quotes, edited=edited,
                    first_seen_at=when, revisions=0,
                ),
            )  # fmt: skip
            return RecordResult(to_evidence(row), is_new=True)
        latest: Any = row
        if row.revisions:
            latest = s.scalar(
                select(m.EvidenceRevision).where(
                    m.EvidenceRevision.evidence_id == row.id,
                    m.EvidenceRevision.number == row.revisions,
                )
            )
        if (latest.text, latest.quotes, latest.edited) == (text, quotes, edited):
            return RecordResult(to_evidence(row), is_new=False)
        row.revisions += 1
        revision = added(
            s,
            m.EvidenceRevision(
                evidence_id=row.id, number=row.revisions, text=text, quotes=quotes,
                edited=edited, seen_at=when,
            ),
        )  # fmt: skip
        return RecordResult(to_evidence(row), is_new=False, revision=to_revision(revision))

    def mark_processed(self, evidence_id: int, at: datetime | None = None) -> Evidence:
        """Intake has turned this evidence into events or alerts (the first time is kept)."""
        when = self._now(at, "at")
        row = evidence_row(self.session, evidence_id)
        if row.processed_at is None:
            row.processed_at = when
        return to_evidence(row)

    # -- reading -------------------------------------------------------------------------------

    def get(self, evidence_id: int) -> Evidence:
        """The evidence with this id (:class:`~shenshi.store.errors.NotFound` if none)."""
        return to_evidence(evidence_row(self.session, evidence_id))

    def revisions(self, evidence_id: int) -> list[Revision]:
        """The later versions of a post or PM (its edits), in the order seen."""
        q = select(m.EvidenceRevision).where(m.EvidenceRevision.evidence_id == evidence_id)
        return [to_revision(r) for r in self.session.scalars(q.order_by(m.EvidenceRevision.number))]

    def page(
        self,
        game_id: int,
        *,
        after_id: int = 0,
        limit: int,
        kind: EvidenceKind | str | None = None,
        sources: Collection[str] | None = None,
        unprocessed: bool = False,
    ) -> list[Evidence]:
        """Up to ``limit`` pieces of evidence past ``after_id``, in the order recorded.

        ``unprocessed`` keeps what :meth:`mark_processed` has not marked: after a restart the
        daemon re-runs intake over those (the event batch keys make that safe).
        """
        q = select(m.Evidence).where(m.Evidence.game_id == game_id, m.Evidence.id > after_id)
        if kind is not None:
            q = q.where(m.Evidence.kind == EvidenceKind(kind).value)
        if sources is not None:
            q = q.where(m.Evidence.source.in_(list(sources)))
        if unprocessed:
            q = q.where(m.Evidence.processed_at.is_(None))
        rows = self.session.scalars(q.order_by(m.Evidence.id).limit(limit))
        return [to_evidence(r) for r in rows]

    def activity(
        self,
        game_id: int,
        start: datetime,
        end: datetime,
        *,
        sources: Collection[str] | None = None,
        exclude_sources: Collection[str] = (),
    ) -> list[Activity]:
        """Posts per author (forum uid) posted in ``[start, end)``, most active first.

        ``sources`` keeps only the counted threads (None: every thread), ``exclude_sources``
        drops uncounted ones (灌水 threads). Posts gone from the forum are left out.
        """
        lo, hi = aware(start, "start"), aware(end, "end")
        e = m.Evidence
        q = (
            select(
                e.author_uid, e.author, func.count(e.id), func.min(e.posted_at),
                func.max(e.posted_at),
            )
            .where(
                e.game_id == game_id, e.kind == EvidenceKind.POST.value, e.posted_at >= lo,
                e.posted_at < hi, e.deleted_at.is_(None),
            )
            .group_by(e.author_uid, e.author)
        )  # fmt: skip
        if sources is not None:
            q = q.where(e.source.in_(list(sources)))
        if exclude_sources:
            q = q.where(e.source.not_in(list(exclude_sources)))
        merged: dict[str, Activity] = {}
        for uid, name, posts, first, last in self.session.execute(q).all():
            seen = merged.get(uid)
            if seen is None:
                merged[uid] = Activity(uid, name, posts, first, last)
                continue
            merged[uid] = Activity(
                uid,
                name if last > seen.last_at else seen.author,
                seen.posts + posts,
                min(first, seen.first_at),
                max(last, seen.last_at),
            )
        return sorted(merged.values(), key=lambda a: (-a.posts, a.author_uid))

    def names_of(self, game_id: int, uids: Collection[str]) -> list[tuple[str, str, datetime]]:
        """Every name the forum showed for each of ``uids`` on the game's posts and PMs
        (their authors): ``(uid, name, first posted_at)``, oldest first (a renamed member
        shows his new name on what he writes after the rename)."""
        if not uids:
            return []
        e = m.Evidence
        q = (
            select(e.author_uid, e.author, func.min(e.posted_at))
            .where(e.game_id == game_id, e.author_uid.in_(list(uids)))
            .group_by(e.author_uid, e.author)
        )
        rows = [(uid, name, first) for uid, name, first in self.session.execute(q).all()]
        return sorted(rows, key=lambda row: (row[2], row[0], row[1]))

    # -- cursors -------------------------------------------------------------------------------

    def cursor(self, game_id: int, source: str) -> Cursor | None:
        """Where the poll of ``source`` stopped, if it ever ran."""
        row = self.session.get(m.Cursor, (game_id, source))
        return to_cursor(row) if row else None

    def cursors(self, game_id: int) -> list[Cursor]:
        """Every poll cursor of the game, by source."""
        q = select(m.Cursor).where(m.Cursor.game_id == game_id).order_by(m.Cursor.source)
        return [to_cursor(r) for r in self.session.scalars(q)]

    def set_cursor(
        self, game_id: int, source: str, value: Any, *, at: datetime | None = None
    ) -> Cursor:
        """Record where the poll of ``source`` stopped (any JSON value)."""
        when = self._now(at, "at")
        stored = json_copy(value)
        s = self.session
        game_row(s, game_id, lock=True)
        row = s.get(m.Cursor, (game_id, source))
        if row is None:
            row = added(s, m.Cursor(game_id=game_id, source=source, value=stored, updated_at=when))
        else:
            row.value, row.updated_at = stored, when
        return to_cursor(row)


# -- evidence content ----------------------------------------------------------------------------


def _parts(item: Post | PrivateMessage, url: str | None) -> tuple[dict[str, Any], Content]:
    """The evidence columns of a post or PM, and its content (what a revision compares)."""
    if isinstance(item, Post):
        kind, source, forum_id = EvidenceKind.POST, item.tid, item.pid
        author, uid, at, what = item.author, item.author_uid, item.posted_at, "post.posted_at"
        extra: dict[str, Any] = {"floor": item.floor}
        content = _content(item.text, item.quotes, item.edited)
    else:
        kind, source, forum_id = EvidenceKind.PM, item.conversation, item.id
        author, uid, at, what = item.sender, item.sender_uid, item.sent_at, "pm.sent_at"
        extra = {"recipient": item.recipient, "recipient_uid": item.recipient_uid}
        content = _content(item.text, (), None)
    fields = {
        "kind": kind.value, "source": str(source), "forum_id": str(forum_id), "author": author,
        "author_uid": str(uid), "posted_at": aware(at, what), "url": url, **extra,
    }  # fmt: skip
    return fields, content


def _content(text: str, quotes: Iterable[Quote], edited: EditMark | None) -> Content:
    """The parts of a post whose change makes a revision, as stored (JSON-ready)."""
    q = [{"author": x.author, "pid": x.pid, "text": x.text} for x in quotes]
    e = (
        None
        if edited is None
        else {"by": edited.by, "at": aware(edited.at, "edited.at").isoformat()}
    )
    return text, q, e
