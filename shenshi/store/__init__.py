"""The store: everything the daemon keeps (SQLAlchemy 2.x, SQLite by default).

``open_store(url)`` gives a :class:`Store` on a migrated database; its units of work
(:mod:`shenshi.store.unit_of_work`) hold one repository per aggregate (games and players,
evidence and cursors, events, the outbox, alerts). Records come back as frozen dataclasses
(:mod:`shenshi.store.records`); :mod:`shenshi.store.codec` turns the rules core's events into
JSON and back, naming each class by its stable tag (:mod:`shenshi.store.tags`). The store holds no game logic: the game state
is derived by replaying events through the rules core.
"""

from shenshi.store.engine import open_store
from shenshi.store.errors import (
    Conflict,
    DatabaseMissing,
    IllegalTransition,
    LeaseHeld,
    NotFound,
    SchemaTooNew,
    SendClaimed,
    StoreError,
)
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import (
    Activity,
    Alert,
    Announcement,
    Cursor,
    DestinationKind,
    Evidence,
    EvidenceKind,
    Game,
    Lease,
    Player,
    RecordResult,
    Revision,
    StoredEvent,
)
from shenshi.store.unit_of_work import Store, UnitOfWork

__all__ = [
    "Activity",
    "Alert",
    "Announcement",
    "AnnouncementState",
    "Conflict",
    "Cursor",
    "DatabaseMissing",
    "DestinationKind",
    "Evidence",
    "EvidenceKind",
    "Game",
    "IllegalTransition",
    "Lease",
    "LeaseHeld",
    "NotFound",
    "Player",
    "RecordResult",
    "Revision",
    "SchemaTooNew",
    "SendClaimed",
    "Store",
    "StoreError",
    "StoredEvent",
    "UnitOfWork",
    "open_store",
]
