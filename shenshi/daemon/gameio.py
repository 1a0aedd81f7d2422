"""What the poller and the publisher share: one game's configuration, store and forum adapter,
the clock, and where GM alerts go."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from shenshi.adapters.base import ForumAdapter
from shenshi.config import Config
from shenshi.daemon.keys import GameKeys, game_key
from shenshi.daemon.referee import GmAlert
from shenshi.store.unit_of_work import Store


class GameIO:
    """Base of the parts of the shell that talk to the forum for one game."""

    def __init__(
        self,
        config: Config,
        store: Store,
        adapter: ForumAdapter,
        game_id: int,
        clock: Callable[[], datetime],
        alert: Callable[[Iterable[GmAlert]], None],
    ) -> None:
        self.config = config
        self.store = store
        self.adapter = adapter
        self.game_id = game_id
        self.clock = clock
        self.alert = alert  # store GM alerts (each once) and log them
        self.keys = GameKeys(game_key(game_id))
