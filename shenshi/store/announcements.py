"""The outbox: announcements proposed, reviewed and sent (the state machine is
:mod:`shenshi.store.outbox`).

Proposing is idempotent by the announcement's key; every transition locks the announcement's
row and asks the state table, so a repeat is a no-op and anything else not allowed raises
:class:`~shenshi.store.errors.IllegalTransition` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from shenshi.store import models as m
from shenshi.store.errors import Conflict, IllegalTransition, NotFound, SendClaimed
from shenshi.store.outbox import AnnouncementState, OutboxAction, next_state
from shenshi.store.records import Announcement, DestinationKind
from shenshi.store.rows import Repository, added, aware, game_row, json_copy, to_announcement


class OutboxRepository(Repository):
    """The games' announcements, in the unit of work's transaction."""

    def propose(
        self,
        game_id: int,
        key: str,
        kind: str,
        destination_kind: DestinationKind | str,
        destination: str,
        text: str,
        evidence_ids: Iterable[int] = (),
        *,
        destination_uid: str | None = None,
        created_at: datetime | None = None,
        unconfirmed: bool = False,
        notes: Mapping[str, Any] | None = None,
    ) -> tuple[Announcement, bool]:
        """Put an announcement in the outbox as ``proposed`` (``unconfirmed``: waiting for the
        GM to confirm it with a correction); ``(announcement, created)``. ``notes``: what the
        GM reads beside it (never sent).

        Idempotent by ``key`` (deterministic, e.g. ``"night3:results"``): re-proposing an
        existing key returns the stored announcement unchanged (it may have been edited or
        sent since) with ``created=False``. A superseded announcement gave its key up
        (:meth:`supersede`): its key proposes anew.
        """
        dest_kind = DestinationKind(destination_kind).value
        ids = [int(i) for i in evidence_ids]
        when = self._now(created_at, "created_at")
        game_row(self.session, game_id, lock=True)
        row = self._by_key(game_id, key)
        if row is not None:
            return to_announcement(row), False
        row = added(
            self.session,
            m.Announcement(
                game_id=game_id, key=key, kind=kind, destination_kind=dest_kind,
                destination=destination, destination_uid=destination_uid, text=text,
                evidence_ids=ids, created_at=when, attempts=0, notes=json_copy(notes) if notes else None,
                state=(AnnouncementState.UNCONFIRMED if unconfirmed else AnnouncementState.PROPOSED).value,
            ),
        )  # fmt: skip
        return to_announcement(row), True

    # -- reading -------------------------------------------------------------------------------

    def get(self, announcement_id: int) -> Announcement:
        """The announcement with this id (:class:`NotFound` if none)."""
        return to_announcement(self._row(announcement_id))

    def by_key(self, game_id: int, key: str) -> Announcement | None:
        """The announcement proposed under ``key``, if any."""
        row = self._by_key(game_id, key)
        return to_announcement(row) if row else None

    def announcements(
        self, game_id: int, states: Iterable[AnnouncementState | str] | None = None
    ) -> list[Announcement]:
        """The game's announcements (in the given states, if any), oldest first."""
        q = select(m.Announcement).where(m.Announcement.game_id == game_id)
        if states is not None:
            q = q.where(m.Announcement.state.in_([AnnouncementState(s).value for s in states]))
        return [to_announcement(r) for r in self.session.scalars(q.order_by(m.Announcement.id))]

    # -- transitions ---------------------------------------------------------------------------

    def approve(self, announcement_id: int, *, at: datetime | None = None) -> Announcement:
        """The GM approved it (``shenshi approve ID``); live mode approves before sending."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.approved_at = when

        return self._transition(announcement_id, OutboxAction.APPROVE, apply)

    def reject(self, announcement_id: int, *, at: datetime | None = None) -> Announcement:
        """The GM rejected it: it will never be sent."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.rejected_at = when

        return self._transition(announcement_id, OutboxAction.REJECT, apply)

    def edit(self, announcement_id: int, text: str, *, at: datetime | None = None) -> Announcement:
        """The GM changed the text. An approved announcement goes back to ``proposed``; the
        same text again changes nothing."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.text, row.edited_at = text, when

        return self._transition(
            announcement_id, OutboxAction.EDIT, apply, unchanged=lambda row: row.text == text
        )

    def mark_sending(
        self, announcement_id: int, *, owner: str | None = None, at: datetime | None = None
    ) -> Announcement:
        """About to send it: counts an attempt. Call before the request, so a crash leaves it
        ``sending`` and the daemon checks the forum before any resend.

        ``owner`` names the daemon that sends it. One claimant only: an announcement already
        ``sending`` by another owner raises :class:`SendClaimed` (the same owner again is a
        no-op). A daemon that takes over a dead one's game finds out whether the forum has it,
        then marks it failed, then sending."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.attempts += 1
            row.sending_owner, row.attempted_at, row.retry_at = owner, when, None

        def unchanged(row: m.Announcement) -> bool:
            if row.state != AnnouncementState.SENDING:
                return False
            if row.sending_owner != owner:
                raise SendClaimed(
                    f"announcement #{announcement_id} is being sent by {row.sending_owner or 'another daemon'}"
                )
            return True

        return self._transition(announcement_id, OutboxAction.SEND, apply, unchanged=unchanged)

    def mark_sent(
        self, announcement_id: int, forum_id: str, *, at: datetime | None = None
    ) -> Announcement:
        """The forum accepted it as ``forum_id`` (pid or PM id). Repeating it with the same id
        is a no-op; another id raises :class:`Conflict`."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.forum_id, row.sent_at, row.last_error = forum_id, when, None

        def unchanged(row: m.Announcement) -> bool:
            if row.state == AnnouncementState.SENT and row.forum_id != forum_id:
                raise Conflict(
                    f"announcement #{announcement_id} was already sent as {row.forum_id!r}, "
                    f"not {forum_id!r}"
                )
            return False

        return self._transition(announcement_id, OutboxAction.SENT, apply, unchanged=unchanged)

    def mark_failed(
        self, announcement_id: int, error: str, *, retry_at: datetime | None = None
    ) -> Announcement:
        """Sending failed (the error is kept, and when it is tried again); ``mark_sending``
        retries it."""

        def apply(row: m.Announcement) -> None:
            row.last_error, row.retry_at, row.sending_owner = error, retry_at, None

        def unchanged(row: m.Announcement) -> bool:
            return (
                row.state == AnnouncementState.FAILED
                and row.last_error == error
                and _same_time(row.retry_at, retry_at)
            )

        return self._transition(announcement_id, OutboxAction.FAIL, apply, unchanged=unchanged)

    def confirm(self, announcement_id: int) -> Announcement:
        """What an unconfirmed announcement waited for happened: it is an ordinary proposal now
        (a proposed one stays as it is)."""
        return self._transition(announcement_id, OutboxAction.CONFIRM, lambda row: None)

    def supersede(
        self,
        announcement_id: int,
        because: str,
        *,
        by: int | None = None,
        at: datetime | None = None,
    ) -> Announcement:
        """A later event made it moot: it is never sent. ``by``: the announcement that replaces
        it (None: withdrawn); ``because``: that event in the GM's words. Its key is given up
        (``KEY~ID``) so that the replacement can take it: every lookup by key finds what
        stands now."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.superseded_at, row.superseded_by, row.superseded_because = when, by, because
            row.key = superseded_key(row.key, row.id)

        return self._transition(announcement_id, OutboxAction.SUPERSEDE, apply)

    def link_superseded(self, announcement_id: int, by: int) -> Announcement:
        """Name the announcement that replaces a superseded one (proposed after it gave its
        key up)."""
        row = self._row(announcement_id, lock=True)
        if row.state != AnnouncementState.SUPERSEDED:
            raise IllegalTransition(f"announcement #{announcement_id} is {row.state}: not superseded")
        row.superseded_by = by
        return to_announcement(row)

    def replaced_by(self, announcement_id: int) -> Announcement | None:
        """The announcement that stands now for one that was superseded (following a chain of
        replacements), or None when it was withdrawn."""
        seen = set()
        row = self._row(announcement_id)
        while row.superseded_by is not None and row.id not in seen:
            seen.add(row.id)
            row = self._row(row.superseded_by)
        return None if row.id == announcement_id or row.state == AnnouncementState.SUPERSEDED else to_announcement(row)

    def counts(self, game_id: int) -> dict[AnnouncementState, int]:
        """How many of the game's announcements stand in each state (``status``: failed sends
        among them)."""
        rows = self.session.execute(
            select(m.Announcement.state, func.count())
            .where(m.Announcement.game_id == game_id)
            .group_by(m.Announcement.state)
        )
        return {AnnouncementState(state): n for state, n in rows}

    def mark_published(
        self, announcement_id: int, at: datetime | None = None, *, forum_id: str | None = None
    ) -> Announcement:
        """The GM posted it by hand (dry-run): ``shenshi published ID [--at TIME]``, or the
        daemon recognised the GM's own post (``forum_id``). The first time recorded is kept."""
        when = self._now(at, "at")

        def apply(row: m.Announcement) -> None:
            row.published_at = when
            if forum_id is not None:
                row.forum_id = forum_id

        return self._transition(announcement_id, OutboxAction.PUBLISH, apply)

    def _transition(
        self,
        announcement_id: int,
        action: OutboxAction,
        apply: Callable[[m.Announcement], None],
        *,
        unchanged: Callable[[m.Announcement], bool] | None = None,
    ) -> Announcement:
        """Apply one outbox action; the state table decides, a repeat is a no-op."""
        row = self._row(announcement_id, lock=True)
        state = AnnouncementState(row.state)
        after = next_state(state, action, f"#{announcement_id}")
        if unchanged is not None and unchanged(row):
            return to_announcement(row)
        if after is state and action not in (OutboxAction.EDIT, OutboxAction.FAIL):
            return to_announcement(row)  # a repeat: approve twice, sent twice…
        apply(row)
        row.state = after.value
        return to_announcement(row)

    # -- rows ----------------------------------------------------------------------------------

    def _row(self, announcement_id: int, *, lock: bool = False) -> m.Announcement:
        row = self.session.get(m.Announcement, announcement_id, with_for_update=lock or None)
        if row is None:
            raise NotFound(f"no announcement #{announcement_id}")
        return row

    def _by_key(self, game_id: int, key: str) -> m.Announcement | None:
        return self.session.scalar(
            select(m.Announcement).where(
                m.Announcement.game_id == game_id, m.Announcement.key == key
            )
        )


def superseded_key(key: str, announcement_id: int) -> str:
    """The key a superseded announcement keeps (its own, given up to its replacement)."""
    return f"{key}~{announcement_id}"


def original_key(key: str) -> str:
    """The key an announcement was proposed under (a superseded one's without its ``~ID``)."""
    return key.split("~", 1)[0]


def _same_time(a: datetime | None, b: datetime | None) -> bool:
    if a is None or b is None:
        return a is b
    return aware(a, "retry_at") == aware(b, "retry_at")
