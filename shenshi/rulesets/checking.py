"""Compare ``shenshi simulate`` output with a scenario's ``expect`` (FORMAT.md "Checking")."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

SET_KEYS = frozenset(
    {"deaths", "saved", "private_results", "public_facts", "daemon", "exits", "replaced",
     "last_words", "madness"}
)  # fmt: skip
TALLY_KEYS = frozenset({"vote_tally", "runoff_tally", "final_tally"})
SUBKEY_KEYS = frozenset({"states", "camps", "schedule"})  # each asserted sub-key (or label)


def _canon(value: Any) -> str:
    return json.dumps(_normalise(value), sort_keys=True, ensure_ascii=False)


def _normalise(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {k: _normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalise(v) for v in value]
    return value


def _as_set(value: Any) -> set[str]:
    return {_canon(v) for v in value or ()}


def _tally(value: Any) -> dict[str, Any]:
    return {k: _normalise(v) for k, v in (value or {}).items() if v}


def mismatches(expect: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """Every asserted key of ``expect`` that ``actual`` does not match, as readable lines."""
    problems: list[str] = []
    for label, wanted in expect.items():
        got = actual.get(label)
        if got is None:
            problems.append(f"{label}: step missing from the output")
            continue
        for key, want in wanted.items():
            if key not in got:
                problems.append(f"{label}.{key}: not printed (expected {_canon(want)})")
                continue
            have = got[key]
            if key in SET_KEYS:
                ok = _as_set(want) == _as_set(have)
            elif key in TALLY_KEYS:
                ok = _tally(want) == _tally(have)
            elif key in SUBKEY_KEYS:
                ok = all(
                    (_as_set(v) == _as_set((have or {}).get(k)))
                    if isinstance(v, list)
                    else _canon(v) == _canon((have or {}).get(k))
                    for k, v in (want or {}).items()
                )
            else:
                ok = _canon(want) == _canon(have)
            if not ok:
                problems.append(f"{label}.{key}: expected {_canon(want)}, got {_canon(have)}")
    return problems
