"""One forum account, one seat: two players with the same uid are refused, whether the file
gives the uids or the forum's lookup finds them, and a substitute already seated is refused
(issue 22: the real account otherwise became "not a player")."""

from __future__ import annotations

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.config import ConfigError, parse_config
from shenshi.errors import UserError
from tests.daemon.helpers import GAME6_10, START, UIDS, config


class Lookups:
    """A forum whose member lookup answers from a table (everything else unused here)."""

    own_uid = "2"

    def __init__(self, uids: dict[str, str]) -> None:
        self.uids = uids

    def lookup_uid(self, name: str) -> str:
        return self.uids[name]


def test_two_players_with_one_uid_in_the_file_are_refused(tmp_path) -> None:
    raw = {
        "forum": {"engine": "discuz", "base_url": "http://127.0.0.1:1/", "username": "神的使者"},
        "game": {"ruleset": "game6-10", "board": 3, "vote_thread": 2, "start": "2026-12-01T20:00",
                 "players": [{"name": n, "uid": UIDS["老王"] if n == "Rex" else UIDS[n], "role": r} for n, r in GAME6_10]},
    }  # fmt: skip
    with pytest.raises(ConfigError, match=r"\[game\] players: 老王 和 Rex 的 uid 都是 4"):
        parse_config(raw, tmp_path)


def test_a_lookup_that_finds_one_account_for_two_players_stops_the_start(tmp_path) -> None:
    cfg = config(tmp_path)
    players = tuple(p if p.name not in ("Rex", "Tom_2") else type(p)(p.name, None, p.role) for p in cfg.game.players)
    from dataclasses import replace

    cfg = replace(cfg, game=replace(cfg.game, players=players))
    svc = bootstrap(cfg, clock=ManualClock(START), forum=False)
    svc.adapter = Lookups({"Rex": "77", "Tom_2": "77"})
    with pytest.raises(UserError, match=r"Tom_2 和 Rex 在论坛上是同一个账号（uid 77）"):
        svc.start()
    with svc.store.snapshot() as uow:
        assert uow.games.find(cfg.game.name) is None  # nothing half made
    svc.close()


def test_a_substitute_who_already_holds_a_seat_is_refused(tmp_path) -> None:
    svc = bootstrap(config(tmp_path), clock=ManualClock(START), forum=False)
    svc.start()
    with pytest.raises(UserError, match=r"和 小明 是同一个账号（uid 5）"):
        svc.substitute("Rex", "小明的马甲", uid=UIDS["小明"])
    assert svc.referee.state.has_player("Rex") and not svc.referee.state.has_player("小明的马甲")
    svc.substitute("Rex", "新人", uid="88")  # another account: taken
    with svc.store.snapshot() as uow:
        assert "新人" in {p.name for p in uow.games.players(svc.game_id, current_only=False)}
    svc.close()
