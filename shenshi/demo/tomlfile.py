"""Writing a configuration as TOML (the standard library only reads it): tables, arrays of
tables, strings, numbers, booleans and lists of those. Enough for ``shenshi.toml``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def dumps(data: Mapping[str, Any]) -> str:
    """``data`` as a TOML document (top-level values must be tables)."""
    out: list[str] = []
    for name, table in data.items():
        _table(out, name, table)
    return "\n".join(out).strip() + "\n"


def _table(out: list[str], path: str, table: Mapping[str, Any], header: str | None = None) -> None:
    out.append(header or f"[{path}]")
    later: list[tuple[str, Any]] = []
    for key, value in table.items():
        if isinstance(value, Mapping) or (
            isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value)
        ):
            later.append((key, value))
        else:
            out.append(f"{_key(key)} = {_value(value)}")
    out.append("")
    for key, value in later:
        sub = f"{path}.{_key(key)}"
        if isinstance(value, Mapping):
            _table(out, sub, value)
        else:
            for item in value:
                _table(out, sub, item, header=f"[[{sub}]]")


def _key(key: str) -> str:
    return (
        key
        if key.replace("_", "").replace("-", "").isalnum() and key.isascii()
        else json.dumps(key, ensure_ascii=False)
    )


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
