"""Frozen databases: games written by an older shenshi still read the same with today's code.

``frozen/`` holds six demo games (one per ruleset) as shenshi stored them before its type
tags, with what that code read from each (``FINGERPRINT.py.txt``, README.md there). Each is
opened with today's code: every stored event decodes to the value the old code read (compared
in a neutral shape: tags and fields), the game replays through the service as through the bare
rules core to the stored winner, and the outbox is intact. The files are never regenerated.

The old games name their classes ``module:Qualname``, and only rules-core classes: the move of
the forum records out of ``shenshi.adapters`` and the renaming of the referee's ``Outcome`` to
``Effects`` (commit 7beb46b) touched nothing stored, which the first test checks.
"""

from __future__ import annotations

import dataclasses
import enum
import gzip
import json
import shutil
import tomllib
from datetime import datetime
from pathlib import Path
from types import MappingProxyType

import pytest

from shenshi.adapters.sandbox.clock import ManualClock
from shenshi.bootstrap import bootstrap
from shenshi.config import parse_config
from shenshi.rulesets.base import PlayerSpec
from shenshi.rulesets.registry import find_ruleset
from shenshi.store import open_store
from shenshi.store.codec import TYPE, decode
from shenshi.store.tags import FORMER_NAMES, TAG_OF

FROZEN = Path(__file__).with_name("frozen")
# Fields the core's classes gained after the frozen games were written (all with defaults).
ADDED_FIELDS = {
    "DaemonNote": ("seq",),
    "FamilyAMemory": ("runoff_voters", "missed_ballot"),
    "PrivateResult": ("about",),
    "PublicFact": ("source",),
    "LastWordsRecorded": ("text",),
    "ChessMemory": ("last_words",),
}
GAMES = sorted(p.name.removesuffix(".sqlite3.gz") for p in FROZEN.glob("*.sqlite3.gz"))


def neutral(value):
    """``FINGERPRINT.py.txt``'s neutral shape, a class named by its tag (which is the name the
    old code's class had). A field added since (with a default) is left out while it holds its
    default: an old game reads as it was written."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"__class__": TAG_OF[type(value)]}
        for f in dataclasses.fields(value):
            current = getattr(value, f.name)
            if f.name in ADDED_FIELDS.get(type(value).__name__, ()) and current == _default(f):
                continue
            out[f.name] = neutral(current)
        return out
    if isinstance(value, enum.Enum):
        return neutral(value.value)
    if isinstance(value, (list, tuple)):
        return [neutral(x) for x in value]
    if isinstance(value, (set, frozenset)):
        key = lambda x: json.dumps(x, sort_keys=True, ensure_ascii=False)  # noqa: E731
        return sorted((neutral(x) for x in value), key=key)
    if isinstance(value, (dict, MappingProxyType)):
        return {str(k): neutral(x) for k, x in value.items()}
    if isinstance(value, datetime):
        return value.isoformat()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _default(f: dataclasses.Field):
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def _names(payload, found: set[str]) -> set[str]:
    """Every type name (``$type``, ``$enum``) in a stored payload."""
    if isinstance(payload, dict):
        for key in (TYPE, "$enum"):
            if isinstance(payload.get(key), str):
                found.add(payload[key])
        for value in payload.values():
            _names(value, found)
    elif isinstance(payload, list):
        for value in payload:
            _names(value, found)
    return found


@pytest.fixture(params=GAMES)
def frozen(request, tmp_path):
    """A copy of one frozen database, its configuration (paths rewritten) and what the old code
    read from it."""
    name = request.param
    db = tmp_path / "shenshi.sqlite3"
    with gzip.open(FROZEN / f"{name}.sqlite3.gz") as src, db.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    with gzip.open(FROZEN / f"{name}.expected.json.gz", "rt", encoding="utf-8") as f:
        expected = json.load(f)
    raw = tomllib.loads((FROZEN / f"{name}.toml").read_text(encoding="utf-8"))
    forum = {k: raw["forum"][k] for k in ("engine", "base_url", "username")}
    daemon = {"database": f"sqlite:///{db}", "log": str(tmp_path / "dry.log"), "mode": "review"}
    config = parse_config({"forum": forum, "game": raw["game"], "daemon": daemon}, tmp_path)
    return config, expected


def test_the_frozen_games_are_there():
    assert len(GAMES) == 6


def test_every_event_decodes_as_the_old_code_read_it(frozen):
    config, expected = frozen
    with open_store(config.daemon.database, create=False) as store:
        with store.snapshot() as uow:
            game = uow.games.find(config.game.name)
        stored = list(store.stream_events(game.id))
    names = set().union(*(_names(e.payload, set()) for e in stored))
    assert names <= set(FORMER_NAMES), "the frozen games hold only the former names"
    assert [neutral(decode(e.payload)) for e in stored] == expected["events"]


def test_the_game_replays_to_its_end_and_the_outbox_is_intact(frozen):
    config, expected = frozen
    service = bootstrap(config, clock=ManualClock(config.game.start), forum=False)
    try:
        state = service.start().state
        game_id = service.game_id
        events = [decode(e.payload) for e in service.store.stream_events(game_id)]
        with service.store.snapshot() as uow:
            players = uow.games.players(game_id, current_only=False)
            outbox = uow.outbox.announcements(game_id)
        differences = service.replay_differences()
    finally:
        service.close()
    assert len(events) == len(expected["events"])  # starting added nothing
    # the bare rules core folds the same events to the same state
    ruleset = find_ruleset(config.game.ruleset)
    first = {}
    for p in sorted(players, key=lambda p: (p.seat, p.joined_at, p.id)):
        first.setdefault(p.seat, p)
    specs = [PlayerSpec(p.name, p.role, p.team, True, p.addons) for _, p in sorted(first.items())]
    folded = ruleset.new_game(specs, config.game.rules)
    for event in events:
        folded = ruleset.evolve(folded, event)
    assert folded == state
    winners = [e["outcome"]["winner"] for e in expected["events"] if e.get("outcome")]
    assert state.winner is not None and state.winner == winners[-1]
    assert differences == []
    fields = ("key", "kind", "destination_kind", "destination", "text", "state")
    assert [{f: str(getattr(a, f)) for f in fields} for a in outbox] == expected["announcements"]
