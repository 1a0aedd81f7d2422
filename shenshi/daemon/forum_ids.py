"""Forum ids with what they number: a post id means something only among posts of its thread, a
PM id only among PMs.

A forum numbers its posts and its PMs separately (Discuz: ``pid`` and UCenter's ``pmid``;
phpwind: ``pid`` and the message ``mid``), so post 42 and PM 42 are two things, and phpwind calls
the first post of *every* thread ``tpc``. Wherever the daemon asks "is this message of ours on
the forum already the record of another announcement?" (the publisher looking for what it
tried, a PM the GM sent by hand, the GM's own post publishing a draft), it compares
:class:`ForumRef` values, never bare ids::

    ForumRef(THREAD, "7", "42")   post 42 of thread 7
    ForumRef(USER, "", "42")      PM 42 (both engines number PMs once per forum)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shenshi.store.records import Announcement, DestinationKind, Evidence, EvidenceKind


@dataclass(frozen=True)
class ForumRef:
    """One message on the forum: the kind of destination, the numbering it belongs to (the
    thread of a post; ``""`` for PMs) and its id there."""

    kind: DestinationKind
    scope: str
    id: str


def ref(kind: DestinationKind, destination: str, forum_id: str) -> ForumRef:
    """The message ``forum_id`` sent to ``destination`` (a thread's tid, or a player)."""
    return ForumRef(kind, str(destination) if kind is DestinationKind.THREAD else "", str(forum_id))


def announcement_ref(a: Announcement) -> ForumRef | None:
    """What the forum holds of announcement ``a``, once recorded (None before)."""
    return ref(a.destination_kind, a.destination, a.forum_id) if a.forum_id else None


def evidence_ref(e: Evidence) -> ForumRef:
    """A stored post or PM as a :class:`ForumRef` (a post's source is its thread)."""
    if e.kind is EvidenceKind.POST:
        return ref(DestinationKind.THREAD, e.source, e.forum_id)
    return ref(DestinationKind.USER, "", e.forum_id)


def post_ref(tid: str, pid: str) -> ForumRef:
    """Post ``pid`` of thread ``tid``."""
    return ref(DestinationKind.THREAD, tid, pid)


def pm_ref(pm_id: str) -> ForumRef:
    """PM ``pm_id``."""
    return ref(DestinationKind.USER, "", pm_id)


def claimed(announcements: Iterable[Announcement], *, besides: int | None = None) -> set[ForumRef]:
    """The messages already recorded by ``announcements`` (other than announcement ``besides``)."""
    return {r for a in announcements if a.id != besides and (r := announcement_ref(a)) is not None}
