"""A JSON codec for the rules core's frozen values, so stored events round-trip exactly.

``decode(encode(x))`` rebuilds ``x`` with the same types: commands, events, the Report and its
items, family memories, Seat, Outcome… Plain JSON stands for itself where it is unambiguous;
everything else is a one-tag object::

    None, bool, int, str, finite float     themselves
    tuple                                  a JSON array (the core's sequences are tuples)
    list                                   {"$list": [...]}
    dict with str keys not starting "$"    a JSON object; other dicts: {"$dict": [[k, v], ...]}
    MappingProxyType (frozen_map)          {"$frozenmap": <the dict>}
    set / frozenset                        {"$set": [...]} / {"$frozenset": [...]}, sorted
    datetime                               {"$datetime": iso} (+ "zone": IANA key, "fold": 1,
                                           "offset_us" for an offset in seconds)
    date / timedelta                       {"$date": iso} / {"$timedelta": [days, s, µs]}
    NaN, ±inf                              {"$float": "nan" | "inf" | "-inf"}
    enum member (Phase…)                   {"$enum": "Phase", "value": ...}
    UNSET (rulesets.base)                  {"$unset": true}
    dataclass instance                     {"$type": "SeatTakenOver", field: value, ...}

Classes are named by their stable tag (:mod:`shenshi.store.tags`), never by module, so a class
can move or be renamed without making old games unreadable; the ``module:Qualname`` names that
older databases hold are read through the frozen table of former names. Only the classes listed
there are encoded or decoded: a crafted database cannot make :func:`decode` import or call
anything else. Every field of a dataclass is written, defaults included: a changed default
never changes history. An aware datetime keeps its IANA zone (``ZoneInfo``) or, for any other
tzinfo, its UTC offset.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta, timezone
from enum import Enum
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo

from shenshi.rulesets.base import UNSET
from shenshi.store.tags import FORMER_NAMES, TAG_OF, TAGS

TYPE = "$type"


class CodecError(ValueError):
    """A value the codec cannot encode, or stored data it will not decode."""


# -- encode ------------------------------------------------------------------------------------


def encode(obj: Any) -> Any:
    """``obj`` as a JSON-able value (see the module docstring for the shapes)."""
    kind = type(obj)
    if obj is None or kind is bool or kind is int or kind is str:
        return obj
    if kind is float:
        return obj if math.isfinite(obj) else {"$float": repr(obj)}
    if kind is tuple:
        return [encode(v) for v in obj]
    if obj is UNSET:
        return {"$unset": True}
    if isinstance(obj, Enum):
        return {"$enum": _tag_of(kind), "value": encode(obj.value)}
    if kind is dict:
        return _encode_dict(obj)
    if kind is MappingProxyType:
        return {"$frozenmap": _encode_dict(dict(obj))}
    if kind is list:
        return {"$list": [encode(v) for v in obj]}
    if kind is frozenset or kind is set:
        tag = "$frozenset" if kind is frozenset else "$set"
        return {tag: sorted((encode(v) for v in obj), key=_sort_key)}
    if kind is datetime:
        return _encode_datetime(obj)
    if kind is date:
        return {"$date": obj.isoformat()}
    if kind is timedelta:
        return {"$timedelta": [obj.days, obj.seconds, obj.microseconds]}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {TYPE: _tag_of(kind)}
        for name in _field_names(kind):
            out[name] = encode(getattr(obj, name))
        return out
    raise CodecError(f"cannot encode a {kind.__module__}.{kind.__qualname__}: {obj!r:.80}")


def _encode_dict(obj: dict[Any, Any]) -> Any:
    if all(type(k) is str and not k.startswith("$") for k in obj):
        return {k: encode(v) for k, v in obj.items()}
    return {"$dict": [[encode(k), encode(v)] for k, v in obj.items()]}


def _encode_datetime(obj: datetime) -> dict[str, Any]:
    out: dict[str, Any] = {"$datetime": obj.isoformat()}
    tz = obj.tzinfo
    if isinstance(tz, ZoneInfo) and tz.key:
        out["zone"] = tz.key
    elif tz is not None:
        offset = obj.utcoffset()
        if offset is not None and (offset.seconds % 60 or offset.microseconds):
            out["offset_us"] = offset // timedelta(microseconds=1)  # beyond what ISO parsing keeps
    if obj.fold:
        out["fold"] = 1
    return out


def _sort_key(encoded: Any) -> str:
    return json.dumps(encoded, sort_keys=True)


_FIELDS: dict[type, tuple[str, ...]] = {}


def _tag_of(cls: type) -> str:
    """The stable tag of a stored class (:mod:`shenshi.store.tags`)."""
    tag = TAG_OF.get(cls)
    if tag is None:
        raise CodecError(
            f"cannot encode a {cls.__module__}.{cls.__qualname__}: it has no stable tag "
            "(a class stored in events needs one in shenshi/store/tags.py)"
        )
    return tag


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


# -- decode ------------------------------------------------------------------------------------


_PLAIN = frozenset({str, int, bool, float, type(None)})  # JSON values that stand for themselves


def decode(data: Any) -> Any:
    """The value :func:`encode` made ``data`` from; :class:`CodecError` for foreign data."""
    kind = type(data)
    if kind in _PLAIN:
        return data
    if kind is list:
        return tuple([v if type(v) in _PLAIN else decode(v) for v in data])
    if kind is dict:
        if TYPE in data:
            return _decode_dataclass(data)
        if len(data) == 1 and "$unset" in data:  # the commonest tag (a Report's unset fields)
            return UNSET
        tags = [k for k in data if k[:1] == "$"]
        if not tags:
            return {k: v if type(v) in _PLAIN else decode(v) for k, v in data.items()}
        if len(tags) > 1 or tags[0] not in _TAGS:
            raise CodecError(f"unknown codec tag(s) {', '.join(tags)}")
        try:
            return _TAGS[tags[0]](data)
        except CodecError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            raise CodecError(f"bad {tags[0]} value {data!r:.80}: {exc}") from None
    raise CodecError(f"not codec data: a {kind.__name__}")


def type_name(payload: Any) -> str | None:
    """The tag of an encoded dataclass (``"PowerSubmitted"``; a former ``module:Qualname``
    gives today's tag), else None."""
    if isinstance(payload, Mapping):
        name = payload.get(TYPE)
        if isinstance(name, str):
            return FORMER_NAMES.get(name, name)
    return None


def _decode_dataclass(data: dict[str, Any]) -> Any:
    name = data[TYPE]
    rebuild = _REBUILD.get(name) if type(name) is str else None
    if rebuild is None:
        rebuild = _rebuilder(name)
    return rebuild(data)


_REBUILD: dict[str, Callable[[dict[str, Any]], Any]] = {}


def _rebuilder(name: Any) -> Callable[[dict[str, Any]], Any]:
    """How to rebuild the dataclass stored under ``name`` (made once per tag, then kept)."""
    cls = _class_of(name)
    if not dataclasses.is_dataclass(cls):
        raise CodecError(f"{name!r} is not a stored dataclass")
    init, late = _decode_fields(cls)
    plain = _PLAIN
    # A plain frozen dataclass given every field is filled in directly (its generated __init__
    # would set each field through object.__setattr__, a third of a replay's decoding); one
    # with a __post_init__, slots or a missing field (an older event) goes through __init__.
    direct = not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__") and not late
    whole = len(init)
    new = object.__new__

    def rebuild(data: dict[str, Any]) -> Any:
        kwargs: dict[str, Any] = {}
        after: dict[str, Any] | None = None
        for key, value in data.items():
            if key in init:
                kwargs[key] = value if type(value) in plain else decode(value)
            elif key == TYPE:
                continue
            elif key in late:
                if after is None:
                    after = {}
                after[key] = decode(value)
            else:
                raise CodecError(f"{name} has no field {key!r}")
        if direct and len(kwargs) == whole:
            obj = new(cls)
            obj.__dict__.update(kwargs)
            return obj
        try:
            obj = cls(**kwargs)
        except TypeError as exc:
            raise CodecError(f"cannot rebuild {name}: {exc}") from None
        if after:
            for key, value in after.items():
                object.__setattr__(obj, key, value)
        return obj

    _REBUILD[name] = rebuild
    return rebuild


_INIT_FIELDS: dict[type, tuple[frozenset[str], frozenset[str]]] = {}


def _decode_fields(cls: type) -> tuple[frozenset[str], frozenset[str]]:
    """The names of ``cls``'s fields taken by ``__init__``, and of the others."""
    split = _INIT_FIELDS.get(cls)
    if split is None:
        fields = dataclasses.fields(cls)
        split = _INIT_FIELDS[cls] = (
            frozenset(f.name for f in fields if f.init),
            frozenset(f.name for f in fields if not f.init),
        )
    return split


def _decode_enum(data: dict[str, Any]) -> Any:
    cls = _class_of(data["$enum"])
    if not issubclass(cls, Enum):
        raise CodecError(f"{data['$enum']!r} is not a stored enum")
    return cls(decode(data["value"]))


def _decode_datetime(data: dict[str, Any]) -> datetime:
    value = datetime.fromisoformat(data["$datetime"])
    zone, offset = data.get("zone"), data.get("offset_us")
    if zone is not None:
        value = value.replace(tzinfo=ZoneInfo(zone))
    elif offset is not None:
        value = value.replace(tzinfo=timezone(timedelta(microseconds=offset)))
    if data.get("fold"):
        value = value.replace(fold=1)
    return value


def _decode_float(data: dict[str, Any]) -> float:
    text = data["$float"]
    if text not in ("nan", "inf", "-inf"):
        raise CodecError(f"bad $float {text!r}")
    return float(text)


def _decode_dict(data: dict[str, Any]) -> dict[Any, Any]:
    return {decode(k): decode(v) for k, v in data["$dict"]}


def _decode_frozenmap(data: dict[str, Any]) -> MappingProxyType:
    inner = decode(data["$frozenmap"])
    if type(inner) is not dict:
        raise CodecError("$frozenmap must hold a dict")
    return MappingProxyType(inner)


def _decode_unset(data: dict[str, Any]) -> Any:
    return UNSET


_TAGS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "$list": lambda d: [decode(v) for v in d["$list"]],
    "$dict": _decode_dict,
    "$frozenmap": _decode_frozenmap,
    "$set": lambda d: {decode(v) for v in d["$set"]},
    "$frozenset": lambda d: frozenset(decode(v) for v in d["$frozenset"]),
    "$datetime": _decode_datetime,
    "$date": lambda d: date.fromisoformat(d["$date"]),
    "$timedelta": lambda d: timedelta(*d["$timedelta"]),
    "$float": _decode_float,
    "$enum": _decode_enum,
    "$unset": _decode_unset,
}


# -- type resolution ---------------------------------------------------------------------------


def _class_of(name: Any) -> type:
    """The class stored under ``name``: a tag, or a former ``module:Qualname``. Nothing is
    imported: only the listed classes qualify."""
    cls = TAGS.get(FORMER_NAMES.get(name, name)) if isinstance(name, str) else None
    if cls is None:
        raise CodecError(f"refusing type {name!r}: not a stored type (shenshi.store.tags)")
    return cls
