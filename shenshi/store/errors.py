"""Errors of the store, one module for the layer.

Hierarchy::

    StoreError                     anything the store refuses
     ├── DatabaseMissing           open_store(create=False) found no shenshi database
     ├── SchemaTooNew              the database was migrated by a newer shenshi
     ├── NotFound                  no game / player / evidence / announcement with that id or name
     ├── Conflict                  a write that contradicts what is stored (name taken, a key
     │    │                        reused for different content, a seat already replaced…)
     │    └── SendClaimed          an announcement another daemon is sending already
     ├── LeaseHeld                 another daemon holds the game's lease (holder, expires_at)
     └── IllegalTransition         an outbox action the announcement's state does not allow

``DatabaseMissing``, ``NotFound``, ``Conflict`` and ``IllegalTransition`` are also
:class:`shenshi.errors.UserError`: a GM who types ``shenshi approve 99`` for an announcement
that does not exist, or approves one already sent, gets one line, not a traceback. Messages say
what was expected and what was found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shenshi.errors import UserError

if TYPE_CHECKING:
    from shenshi.store.records import Lease


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class DatabaseMissing(StoreError, UserError):
    """``open_store(url, create=False)`` and there is no shenshi database at ``url``."""


class SchemaTooNew(StoreError):
    """The database carries a migration this version of shenshi does not know."""


class NotFound(StoreError, UserError, LookupError):
    """No record with that id, key or name."""


class Conflict(StoreError, UserError):
    """A write that contradicts the stored record (it is left unchanged)."""


class SendClaimed(Conflict):
    """``mark_sending`` on an announcement another owner is sending: only one may."""


class LeaseHeld(StoreError, UserError):
    """Another daemon holds the game's lease; ``lease`` says who, and until when."""

    def __init__(self, lease: Lease) -> None:
        self.lease = lease
        super().__init__(
            f"game #{lease.game_id} is run by {lease.owner} (renewed {lease.renewed_at:%Y-%m-%d %H:%M:%S} UTC, "
            f"until {lease.expires_at:%Y-%m-%d %H:%M:%S} UTC)"
        )


class IllegalTransition(StoreError, UserError):
    """An outbox action not allowed in the announcement's current state (nothing changed)."""
