"""The codec: exact round-trips of the rules core's values (hypothesis over every stored
dataclass), real events of replayed scenarios, stable type tags (every class an event can hold
has one; the names older databases hold still decode, without importing anything), and refusal
of data that names a type not stored."""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import pkgutil
import types
import typing
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta, timezone
from enum import Enum
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shenshi.rulesets
from shenshi.rulesets.base import UNSET, Event, Phase, PlayerSpec, Report, Ruleset, Seat
from shenshi.rulesets.family_a.memory import FamilyAMemory, LastWords
from shenshi.rulesets.registry import RULESETS, find_ruleset
from shenshi.rulesets.scenario import run_scenario
from shenshi.store.codec import CodecError, decode, encode, type_name
from shenshi.store.rows import dumps_json
from shenshi.store.tags import FORMER_NAMES, TAG_OF, TAGS

SCENARIOS = Path(__file__).parents[1] / "rulesets" / "scenarios" / "shared"


# -- strictly the same value -----------------------------------------------------------------


def assert_same(a, b, where="value"):
    """``a`` and ``b`` are equal *and* of the same types all the way down."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, float):
        assert (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        ), where
    elif isinstance(a, datetime):
        assert (a, a.fold, a.utcoffset()) == (b, b.fold, b.utcoffset()), where
        assert (a.replace(tzinfo=None), a.tzinfo) == (b.replace(tzinfo=None), b.tzinfo), where
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, (dict, MappingProxyType)):
        assert list(a) == list(b), where
        for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True):
            assert_same(ka, kb, f"{where} key")
            assert_same(va, vb, f"{where}[{ka!r}]")
    elif isinstance(a, (set, frozenset)):
        key = lambda v: json.dumps(encode(v), sort_keys=True)  # noqa: E731
        assert_same(sorted(a, key=key), sorted(b, key=key), where)
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    else:
        assert a == b, where


def round_trip(value):
    """Encode, go through the JSON text the database stores, decode; check it is the same."""
    stored = json.loads(dumps_json(encode(value)))
    back = decode(stored)
    assert_same(back, value)
    assert encode(back) == stored
    return back


# -- strategies ----------------------------------------------------------------------------------

offsets = st.timedeltas(
    min_value=timedelta(hours=-23, minutes=-59), max_value=timedelta(hours=23, minutes=59)
)
zones = st.timezones() | st.just(UTC) | st.builds(timezone, offsets)
datetimes = st.datetimes() | st.datetimes(timezones=zones)
hashable = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | datetimes
    | st.sampled_from(Phase)
)
scalars = (
    hashable
    | st.floats(allow_nan=False)
    | st.dates()
    | st.timedeltas()
    | st.just(UNSET)
    | st.builds(
        Seat, st.integers(0, 40), st.text(max_size=4), st.text(max_size=4), st.text(max_size=4)
    )
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        | st.dictionaries(hashable, inner, max_size=4)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4).map(MappingProxyType)
        | st.frozensets(hashable, max_size=4)
        | st.sets(hashable, max_size=4)
    ),
    max_leaves=12,
)
field_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=2).map(tuple) | st.dictionaries(hashable, inner, max_size=2)
    ),
    max_leaves=3,
)  # for ``Any`` fields: a Report has fourteen of them


def _core_classes() -> list[type]:
    """Every public dataclass and enum of the rules core (found by walking the package)."""
    modules = [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(shenshi.rulesets.__path__, "shenshi.rulesets.")
    ]
    return [
        obj
        for module in modules
        for obj in vars(module).values()
        if isinstance(obj, type)
        and (dataclasses.is_dataclass(obj) or issubclass(obj, Enum))
        and obj.__module__ == module.__name__
        and not obj.__name__.startswith("_")
    ]


CORE_CLASSES = _core_classes()
STORED_DATACLASSES = [cls for cls in TAGS.values() if dataclasses.is_dataclass(cls)]


def strategy_for(hint) -> st.SearchStrategy:
    """A strategy for a field's type hint (``Any`` gets every kind of value)."""
    if hint is typing.Any:
        return field_values
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([strategy_for(a) for a in args])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(strategy_for(args[0]), max_size=3).map(tuple)
        return st.tuples(*(strategy_for(a) for a in args))
    if origin is list:
        return st.lists(strategy_for(args[0]), max_size=3)
    if origin is frozenset:
        return st.frozensets(strategy_for(args[0]), max_size=3)
    if origin in (dict, Mapping, typing.Mapping) or hint is Mapping:
        keys, vals = (
            (strategy_for(a) for a in args) if args else (st.text(max_size=6), field_values)
        )
        plain = st.dictionaries(keys, vals, max_size=3)
        return plain if origin is dict else plain | plain.map(MappingProxyType)
    if hint is datetime:
        return datetimes
    if hint is float:
        return st.floats(allow_nan=False)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return st.deferred(lambda: instances(hint))
    return st.from_type(hint)


def instances(cls: type) -> st.SearchStrategy:
    """Instances of a core dataclass with every field drawn from its type hint."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: strategy_for(hints[f.name]) for f in dataclasses.fields(cls) if f.init}
    return st.builds(cls, **fields)


# -- hypothesis round-trips ----------------------------------------------------------------------


@given(values)
def test_any_value_round_trips(value):
    round_trip(value)


@pytest.mark.parametrize("cls", STORED_DATACLASSES, ids=lambda c: c.__qualname__)
@settings(max_examples=6)  # a Report's dozens of fields make each example slow: a few in make test
@given(data=st.data())
def test_every_stored_dataclass_round_trips(cls, data):
    round_trip(data.draw(instances(cls)))


@pytest.mark.slow
@pytest.mark.parametrize("cls", STORED_DATACLASSES, ids=lambda c: c.__qualname__)
@settings(max_examples=30)
@given(data=st.data())
def test_every_stored_dataclass_round_trips_at_length(cls, data):
    round_trip(data.draw(instances(cls)))


@given(st.sampled_from([math.nan, math.inf, -math.inf, -0.0]))
def test_special_floats(value):
    encoded = encode(value)
    dumps_json(encoded)  # storable: no bare NaN
    assert_same(decode(encoded), value)


# -- the shapes ------------------------------------------------------------------------------------


def test_shapes_are_readable_json():
    t = datetime(2024, 3, 1, 20, 0)
    assert encode((1, "a")) == [1, "a"]
    assert encode([1]) == {"$list": [1]}
    assert encode({"a": 1}) == {"a": 1}
    assert encode({1: "a"}) == {"$dict": [[1, "a"]]}
    assert encode({"$type": 1}) == {"$dict": [["$type", 1]]}
    assert encode(MappingProxyType({"a": 1})) == {"$frozenmap": {"a": 1}}
    assert encode(frozenset({2, 1})) == {"$frozenset": [1, 2]}
    assert encode(t) == {"$datetime": "2024-03-01T20:00:00"}
    assert encode(date(2024, 3, 1)) == {"$date": "2024-03-01"}
    assert encode(Phase.NIGHT) == {"$enum": "Phase", "value": "night"}
    assert encode(UNSET) == {"$unset": True}
    assert encode(Seat(0, "甲", "killer", "killers")) == {
        "$type": "Seat",
        "number": 0,
        "name": "甲",
        "role": "killer",
        "team": "killers",
        "alive": True,
        "addons": {"$frozenset": []},
    }
    assert type_name(encode(Seat(0, "甲", "killer", "killers"))) == "Seat"
    assert type_name({"type": "x"}) is None


def test_zone_is_kept():
    from zoneinfo import ZoneInfo

    t = datetime(2024, 11, 3, 1, 30, tzinfo=ZoneInfo("America/New_York"), fold=1)
    data = encode(t)
    assert data == {"$datetime": "2024-11-03T01:30:00-05:00", "zone": "America/New_York", "fold": 1}
    assert_same(decode(data), t)


def test_nested_core_values():
    memory = FamilyAMemory(
        killer_order=(2, 5),
        victims=((1, (3,)),),
        last_words=(LastWords(3, ("乙",)),),
        prize=frozenset({1, 4}),
        first_round_voters=((0, "乙"),),
    )
    report = Report(vote_tally={"乙": 3, "丙": 1.5}, winner=None, x={"chu": 2, "han": None})
    back = round_trip((memory, report))
    assert back[1].bound is UNSET


# -- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "os:system",
        "subprocess:Popen",
        "shenshi:__version__",
        "shenshi.__main__:main",  # importing it would run the CLI
        "shenshi.rulesets._private:X",
        "shenshi.rulesets.base:dataclasses",  # a module, not a class
        "shenshi.rulesets.base:datetime",  # a class, but not shenshi's
        "shenshi.rulesets.base:Ruleset",  # shenshi's, but not a dataclass
        "shenshi.rulesets.base:Seat.__init__",
        "shenshi.rulesets.nope:Seat",
        "shenshi.rulesets.registry:Ruleset",  # imported there, defined elsewhere
        "shenshi.rulesets.base:GameState",  # a core dataclass, but never stored
        "GameState",
        "shenshi.rulesets.chess.memory:Seat",  # a stored class, under a name it never had
        "seat",
        "",
        "shenshi.rulesets.base",
    ],
)
def test_foreign_types_are_refused(name):
    with pytest.raises(CodecError):
        decode({"$type": name})
    with pytest.raises(CodecError):
        decode({"$enum": name, "value": "x"})


@pytest.mark.parametrize(
    "data",
    [
        {"$bogus": 1},
        {"$list": [1], "$set": [2]},
        {"$float": "1e3"},
        {"$datetime": "not a time"},
        {"$datetime": "2024-03-01T00:00:00", "zone": "../../etc/passwd"},
        {"$frozenmap": [1, 2]},
        {"$frozenset": [{"$list": [1]}]},  # unhashable
        {"$type": "Seat", "number": 1},  # missing fields
        {"$type": "shenshi.rulesets.base:Seat", "number": 1},
        {"$type": "Outcome", "winner": "a", "termination": "b", "x": 1},
        {"$type": "Phase", "value": "night"},  # an enum is not a dataclass
        {"$enum": "Seat", "value": 1},
        {"$type": ["Seat"]},
        {"$enum": "Phase", "value": "noon"},
    ],
)
def test_bad_data_is_refused(data):
    with pytest.raises(CodecError):
        decode(data)


def test_values_outside_the_codec_are_refused():
    @dataclasses.dataclass(frozen=True)
    class Local:
        x: int

    for value in (Local(1), object(), b"bytes", Ruleset(), {1, 2}.__iter__()):
        with pytest.raises(CodecError):
            encode(value)
    with pytest.raises(CodecError, match="no stable tag.*shenshi/store/tags.py"):
        encode(PlayerSpec("甲", "killer", "killers"))


# -- stable tags -------------------------------------------------------------------------------


def _stored_roots() -> set[type]:
    """What a stored event can hold at the top: every event class, and each ruleset's memory."""
    found, todo = set(), [Event]
    while todo:
        cls = todo.pop()
        found.add(cls)
        todo.extend(cls.__subclasses__())
    found.discard(Event)
    for ruleset in RULESETS:
        found.add(typing.get_type_hints(type(ruleset).initial_memory)["return"])
    return found


def _reachable(roots: set[type]) -> set[type]:
    """``roots`` and every dataclass or enum their fields' type hints name, transitively."""
    seen: set[type] = set()

    def walk_hint(hint) -> None:
        if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or issubclass(hint, Enum)):
            walk(hint)
        for arg in typing.get_args(hint):
            walk_hint(arg)

    def walk(cls: type) -> None:
        if cls in seen:
            return
        seen.add(cls)
        if dataclasses.is_dataclass(cls):
            hints = typing.get_type_hints(cls)
            for f in dataclasses.fields(cls):
                walk_hint(hints[f.name])

    for root in roots:
        walk(root)
    return seen


def test_every_class_an_event_can_hold_has_a_tag():
    missing = {f"{c.__module__}.{c.__qualname__}" for c in _reachable(_stored_roots())} - {
        f"{c.__module__}.{c.__qualname__}" for c in TAGS.values()
    }
    assert not missing, f"add a stable tag in shenshi/store/tags.py for {sorted(missing)}"


def test_tags_name_one_class_each_and_only_core_values():
    assert len(TAG_OF) == len(TAGS)
    for tag, cls in TAGS.items():
        assert TAG_OF[cls] == tag and cls in CORE_CLASSES
        assert tag.isidentifier() and ":" not in tag


def test_the_former_names_are_frozen_and_decode_without_importing(monkeypatch):
    """Databases written before the tags say ``module:Qualname``: each such name still decodes
    to the class its tag names, and nothing is imported to find it."""
    assert set(FORMER_NAMES.values()) <= set(TAGS)
    assert all(name.startswith("shenshi.rulesets.") for name in FORMER_NAMES)
    assert len(FORMER_NAMES) == 30  # frozen: entries are never removed or changed

    def no_import(name, *args, **kwargs):
        raise AssertionError(f"decode imported {name}")

    monkeypatch.setattr(importlib, "import_module", no_import)
    seat = {"number": 0, "name": "甲", "role": "killer", "team": "killers", "alive": True}
    old = {"$type": "shenshi.rulesets.base:Seat", **seat, "addons": {"$frozenset": []}}
    assert decode(old) == decode(encode(Seat(0, "甲", "killer", "killers")))
    assert encode(decode(old))["$type"] == "Seat"  # written back under its tag
    assert decode({"$enum": "shenshi.rulesets.base:Phase", "value": "night"}) is Phase.NIGHT
    assert type_name(old) == "Seat"
    for name, tag in FORMER_NAMES.items():
        cls = TAGS[tag]
        if issubclass(cls, Enum):
            member = next(iter(cls))
            assert decode({"$enum": name, "value": member.value}) is member


# -- real events from replayed scenarios -------------------------------------------------------------


def _runnable_scenarios() -> list[Path]:
    """Scenarios of a ruleset the core has, with at least one night or day (not timeline-only)."""
    out = []
    for path in sorted(SCENARIOS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        try:
            find_ruleset(document["ruleset"])
        except KeyError:
            continue
        if any(step.get("phase") in ("night", "day") for step in document["steps"]):
            out.append(path)
    return out


RUNNABLE = _runnable_scenarios()


def _replay_capturing(path: Path, monkeypatch) -> list[tuple]:
    """Run a scenario and capture every (state before, events, state after) of the core."""
    steps: list[tuple] = []
    apply = Ruleset.apply

    def capturing(self, state, command):
        after, events = apply(self, state, command)
        steps.append((self, state, events, after))
        return after, events

    monkeypatch.setattr(Ruleset, "apply", capturing)
    run_scenario(json.loads(path.read_text(encoding="utf-8")))
    return steps


def test_scenarios_were_found():
    assert len(RUNNABLE) >= 20


@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: p.stem)
def test_replayed_events_round_trip_and_rebuild_the_state(path, monkeypatch, tmp_path):
    """Decoded events, folded from the initial state through ``evolve``, give exactly the state
    the live run reached, after going through a real store."""
    from shenshi.store import open_store

    steps = _replay_capturing(path, monkeypatch)
    assert steps, "the scenario ran no command"
    ruleset, initial = steps[0][0], steps[0][1]
    events = [event for _, _, evs, _ in steps for event in evs]
    with open_store(f"sqlite:///{tmp_path / 'replay.db'}") as store:
        with store.transaction() as uow:
            game = uow.games.create(path.stem, ruleset.name)
            for i, (_, _, evs, _) in enumerate(steps):
                uow.events.append(game.id, [encode(e) for e in evs], key=f"command:{i}")
        stored = [decode(e.payload) for e in store.stream_events(game.id)]
    state = initial
    for original, back in zip(events, stored, strict=True):
        assert_same(back, original, type(original).__name__)
        state = ruleset.evolve(state, back)
    assert_same(state, steps[-1][3], "final state")
