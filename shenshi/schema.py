"""What the configuration's tables share: pydantic v2 value types and the wording of problems.

Each table is a frozen pydantic dataclass (``[forum]``: :class:`shenshi.adapters.settings.
ForumSettings`; the rest: :mod:`shenshi.config`) with unknown keys refused (:data:`TABLE`).
A validator that finds a problem raises :func:`problem` with a message in the configuration's
own words, in Chinese (``应为 http:// 或 https:// 开头的网址，得到 "ftp://x"``); :func:`explain`
turns pydantic's errors into lines that name each option where it sits (``[game] vote_thread:
缺少（必填）``).

Validation context (``TypeAdapter.validate_python(raw, context=FILE_CONTEXT | {...})``):
``base`` is the folder relative paths start from (the configuration file's); ``from_file`` is
true when the values come from a file (a secret must not).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import fields, is_dataclass
from pathlib import Path
from types import NoneType, UnionType
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from pydantic import BeforeValidator, ConfigDict, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError

from shenshi.errors import ConfigError

TABLE = ConfigDict(extra="forbid")  # unknown keys are refused


def problem(message: str, *, at: str | None = None) -> PydanticCustomError:
    """A validation error whose message is shown as it is, after the option's name; ``at``
    names a key below the one being validated (a table validator's finding about one entry)."""
    if at is None:
        return PydanticCustomError("shenshi", message, None)
    escaped = message.replace("{", "{{").replace("}", "}}")
    return PydanticCustomError("shenshi", escaped, {"at": at})


def from_file(info: ValidationInfo) -> bool:
    """Whether the values being validated come from a configuration file."""
    return bool(info.context and info.context.get("from_file"))


# --------------------------------------------------------------------------- value types


def _id_text(value: Any) -> Any:
    # Thread ids, boards and uids may be written as numbers.
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _path(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, Path):
        value = str(value)
    if not isinstance(value, str) or not value:
        raise problem(f"应为文件路径，得到 {shown(value)}")
    path = Path(value).expanduser()
    base = info.context.get("base") if info.context else None
    return path if path.is_absolute() or base is None else Path(base) / path


MAX_SECONDS = 7 * 24 * 3600.0  # no wait, interval or timeout of shenshi's is longer than a week


def _seconds(positive: bool) -> Callable[[Any], Any]:
    wording = "大于 0 的秒数" if positive else "秒数（0 或更多）"

    def check(value: Any) -> Any:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and not math.isfinite(value):
            raise problem(f"应为有限的秒数（0 到 {MAX_SECONDS:.0f} 之间），得到 {value!r}")
        if not number or value < 0 or (positive and value == 0):
            raise problem(f"应为{wording}，得到 {shown(value)}")
        if value > MAX_SECONDS:
            raise problem(f"秒数太大：最多 {MAX_SECONDS:.0f}（一周），得到 {value!r}")
        return float(value)

    return check


def _forum_id(value: Any) -> Any:
    # A board, thread or member of the forum: its number (written as a number or as digits).
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return str(value)
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and int(value) > 0:
        return str(int(value))
    shown = f'"{value}"' if isinstance(value, str) else repr(value)
    raise problem(f"应为论坛上的数字编号（正整数），得到 {shown}")


def _count(least: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise problem(f"应为不小于 {least} 的整数，得到 {shown(value)}")
        return value

    return check


IdText = Annotated[str, BeforeValidator(_id_text)]  # "3" or 3
ForumId = Annotated[str, BeforeValidator(_forum_id)]  # a fid, tid or uid: 3 or "3", never "abc" or -3
ConfigPath = Annotated[Path, BeforeValidator(_path)]  # relative to the configuration file
Seconds = Annotated[float, BeforeValidator(_seconds(positive=False))]
PositiveSeconds = Annotated[float, BeforeValidator(_seconds(positive=True))]
Count = Annotated[int, BeforeValidator(_count(0))]
PositiveCount = Annotated[int, BeforeValidator(_count(1))]


# --------------------------------------------------------------------------- messages


def shown(value: Any) -> str:
    """A value as a message quotes it: text in double quotes (as the TOML file writes it)."""
    return f'"{value}"' if isinstance(value, str) else repr(value)


def quoted_choices(choices: Sequence[str]) -> str:
    """``"a" 或 "b"``: the choices as the messages show them."""
    return " 或 ".join(f'"{c}"' for c in choices)


def unknown(
    what: str, key: str, known: Collection[str], listed: str = "config.example.toml 列出了每个选项"
) -> str:
    """``不认识的选项；是不是 "vote_thread"？`` (the close known key, when there is one;
    else where the known ones are ``listed``)."""
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    if close:
        return f'不认识的{what}；是不是 "{close[0]}"？'
    return f"不认识的{what}（{listed}）"


def keys_at(table: type, loc: Sequence[Any], hidden: Collection[str] = ()) -> tuple[str, ...]:
    """The keys of the table at ``loc`` below the dataclass ``table`` (``()``: not a table).

    ``("game", "players", 0)`` leads from the whole configuration to one player's keys;
    ``hidden`` fields (set in code, never in a file) are not offered as suggestions.
    """
    kind: Any = table
    for part in loc:
        if isinstance(part, int):
            kind = next(iter(get_args(kind)), None)  # tuple[X, ...]: an entry of the list
        else:
            kind = get_type_hints(kind).get(str(part)) if is_dataclass(kind) else None
        kind = _required(kind)
    if not is_dataclass(kind):
        return ()
    return tuple(f.name for f in fields(kind) if f.name not in hidden)


def _required(kind: Any) -> Any:
    """``X`` of ``X | None``."""
    if get_origin(kind) in (Union, UnionType):
        kinds = [k for k in get_args(kind) if k is not NoneType]
        return kinds[0] if len(kinds) == 1 else kind
    return kind


def explain(
    error: ValidationError,
    where: Callable[[tuple[Any, ...]], str],
    *,
    order: Callable[[tuple[Any, ...]], int] = lambda loc: 0,
    known: Callable[[tuple[Any, ...]], Collection[str]] = lambda loc: (),
) -> ConfigError:
    """One :class:`ConfigError` with a line per problem, in ``order(loc)`` (stable).

    ``where(loc)`` names the option; ``known(loc)`` gives the keys of the table at ``loc``,
    from which an unknown key's close one is suggested.
    """
    lines = []
    for found in sorted(error.errors(include_url=False), key=lambda found: order(found["loc"])):
        loc = tuple(found["loc"])
        if found["type"] == "shenshi" and found.get("ctx"):
            loc += (found["ctx"]["at"],)
        if found["type"] in ("unexpected_keyword_argument", "extra_forbidden"):
            wording = unknown("选项", str(loc[-1]), known(loc[:-1]))
        else:
            wording = _wording(found)
        lines.append(f"{where(loc)}: {wording}")
    return ConfigError("\n".join(dict.fromkeys(lines)))


def _wording(found: Any) -> str:
    kind, seen = found["type"], found.get("input")
    if kind == "shenshi":
        return str(found["msg"])
    if kind == "missing":
        return "缺少（必填）"
    if kind == "literal_error":
        choices = re.findall(r"'([^']*)'", str(found["ctx"]["expected"]))
        return f'应为 {quoted_choices(choices)}，得到 "{seen}"'
    expected = _EXPECTED.get(kind)
    if expected:
        return f"应为{expected}，得到 {shown(seen)}"
    return f"{found['msg']}，得到 {shown(seen)}"


_EXPECTED = {
    "string_type": "文字",
    "bool_type": " true 或 false",
    "bool_parsing": " true 或 false",
    "int_type": "整数",
    "int_parsing": "整数",
    "float_type": "数字",
    "float_parsing": "数字",
    "list_type": "列表",
    "tuple_type": "列表",
    "dict_type": "表（[节] 或 { 键 = 值 }）",
    "dataclass_type": "表（[节] 或 { 键 = 值 }）",
    "dataclass_args_type": "表（[节] 或 { 键 = 值 }）",
    "datetime_type": "时间",
}
