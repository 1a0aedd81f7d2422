"""The configuration file (TOML): forum, game, daemon and templates.

``load_config(path)`` reads and checks it; every problem is a :class:`ConfigError` that names
the option and says what is expected, in Chinese, e.g. ``[forum] engine: 应为 "discuz" 或
"phpwind"，得到 "vbulletin"``. ``config.example.toml`` documents every option.

One schema (pydantic v2 dataclasses, frozen, unknown keys refused; :mod:`shenshi.schema`):
``[forum]`` is the adapter's own :class:`~shenshi.adapters.settings.ForumSettings`;
``[game]``, ``[daemon]`` and ``[templates]`` are defined here. ``[game.rules]`` is checked
against the settings the ruleset declares (each with its type and range,
:mod:`shenshi.rulesets.settings`), then judged whole by the ruleset; unknown keys are refused.

Secrets never live in the file itself: the forum password comes from an environment variable
(``password_env``) or a file readable only by its owner (``password_file``, mode 0600).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.dataclasses import dataclass

from shenshi.adapters.settings import ForumSettings
from shenshi.errors import ConfigError, os_reason, toml_reason
from shenshi.schema import (
    TABLE,
    ConfigPath,
    ForumId,
    IdText,
    PositiveSeconds,
    Seconds,
    explain,
    keys_at,
    problem,
    quoted_choices,
    unknown,
)

__all__ = [
    "DEFAULT_CONFIG", "Config", "ConfigError", "DaemonConfig", "ForumSettings", "GameConfig", "NotifyConfig",
    "PlayerEntry", "in_file", "load_config", "load_players", "parse_config", "read_utf8",
]

DEFAULT_CONFIG = Path("shenshi.toml")  # where every command looks without --config
SECTIONS = ("forum", "game", "daemon", "notify", "templates")
# What the GM can be told of (``[notify] on``): a proposal waiting for him, a new alert, a send
# that failed, the forum unreadable, the game over.
NOTIFY_EVENTS = ("waiting", "alert", "send_failed", "forum_down", "game_over")


@dataclass(frozen=True, config=TABLE)
class PlayerEntry:
    """One line of the players file: name, optional forum uid, role (and team/camp)."""

    name: str
    uid: ForumId | None = None
    role: str | None = None  # None: dealt by ``shenshi deal``
    team: str | None = None  # chess camp (chu/han); werewolf camp; family A: from the role
    addons: tuple[str, ...] = ()

    @field_validator("name")
    @classmethod
    def _named(cls, value: str) -> str:
        if not value.strip():
            raise problem("名字是空的")
        return value.strip()

    @field_validator("uid", "role", "team", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if value == "" else value


def _players_named_once(players: tuple[PlayerEntry, ...]) -> tuple[PlayerEntry, ...]:
    from shenshi.intake.text import fold

    seen: dict[str, str] = {}  # folded as intake reads names → the name as listed
    uids: dict[str, str] = {}
    for player in players:
        if player.name in seen.values():
            raise problem(f"玩家 {player.name} 列了两次")
        key = fold(player.name)
        if key in seen:
            raise problem(
                f"{seen[key]} 和 {player.name} 读起来是同一个名字（大小写、全角半角、繁简不分）："
                "写这个名字的选票分不清是谁的；请把其中一个改成别的名字"
            )
        seen[key] = player.name
        if player.uid is not None and player.uid in uids:
            raise problem(
                f"{uids[player.uid]} 和 {player.name} 的 uid 都是 {player.uid}：一个论坛账号只能坐一个座位"
                "（uid 写错了？不确定就删掉它，shenshi 会按名字去论坛查）"
            )
        if player.uid is not None:
            uids[player.uid] = player.name
    return players


@dataclass(frozen=True, config=TABLE)
class PlayersFile:
    """A players file: ``[[player]]`` tables."""

    player: tuple[PlayerEntry, ...] = ()

    _named_once = field_validator("player")(_players_named_once)


@dataclass(frozen=True, kw_only=True, config=TABLE)
class GameConfig:
    """``[game]``: the ruleset, the players and the game's threads."""

    ruleset: str
    board: ForumId
    vote_thread: ForumId
    start: datetime  # the player list post (forum clock; the forum's zone when the file gives none)
    name: str = "shenshi game"
    players_file: ConfigPath | None = None  # read into ``players``
    players: tuple[PlayerEntry, ...] = ()
    player_list_thread: ForumId | None = None
    counted_threads: tuple[ForumId, ...] = ()  # empty: every thread on the board counts
    uncounted_threads: tuple[ForumId, ...] = ()  # 灌水 threads
    role_threads: Mapping[str, ForumId] = Field(default_factory=dict)  # werewolf 功能树洞
    nicknames: Mapping[str, tuple[str, ...]] = Field(default_factory=dict)
    rules: Mapping[str, Any] = Field(default_factory=dict)  # [game.rules]: the ruleset's declared settings
    receipts: bool = Field(default=True, strict=True)
    substitutes: tuple[IdText, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _read_players_file(cls, data: Any, info: ValidationInfo) -> Any:
        if isinstance(data, Mapping) and data.get("players_file"):
            try:
                path = TypeAdapter(ConfigPath).validate_python(data["players_file"], context=info.context)
            except ValidationError:
                return data  # the field's own validation says what is wrong
            data = {**data, "players": load_players(path)}
        return data

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        from shenshi.rulesets.registry import RULESETS, find_ruleset

        try:
            return find_ruleset(value).name  # an alias (g6-10, 楚汉, ww…) names the same ruleset
        except KeyError:
            names = quoted_choices(tuple(r.name for r in RULESETS))
            raise problem(f'应为 {names}（或它们的别名），得到 "{value}"') from None

    @field_validator("start", mode="before")
    @classmethod
    def _iso_time(cls, value: Any) -> Any:
        if isinstance(value, datetime):
            return value
        try:
            return datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise problem(f'应为 ISO 格式的时间（如 "2026-12-01T20:00"），得到 "{value}"') from None

    @field_validator("players")
    @classmethod
    def _some_players(cls, players: tuple[PlayerEntry, ...]) -> tuple[PlayerEntry, ...]:
        if not players:
            raise problem("没有玩家（给出 players_file，或 players 列表）")
        return _players_named_once(players)

    @model_validator(mode="after")
    def _role_ids(self) -> GameConfig:
        """Roles may be written by id or in Chinese (``seer`` or ``占卜者``); role threads may be
        keyed by a role in Chinese too. Stored as ids."""
        from dataclasses import replace

        from shenshi.rulesets.registry import find_ruleset

        info = find_ruleset(self.ruleset).info
        players = []
        for p in self.players:
            role = info.role_id(p.role) if p.role else None
            if p.role and role is None:
                raise problem(
                    f'玩家 {p.name}："{p.role}" 不是 {self.ruleset} 的角色'
                    f"（角色有：{info.role_list()}）",
                    at="players",
                )
            players.append(replace(p, role=role) if role != p.role else p)
        threads = {info.role_id(owner) or owner: tid for owner, tid in self.role_threads.items()}
        object.__setattr__(self, "players", tuple(players))
        object.__setattr__(self, "role_threads", threads)
        return self

    @model_validator(mode="after")
    def _rules_declared(self) -> GameConfig:
        """``[game.rules]`` against the ruleset's declared settings (types, ranges, keys), then
        what the ruleset refuses of the whole: a bad value is refused here, not by a cycle."""
        from shenshi.rulesets.registry import find_ruleset

        found = find_ruleset(self.ruleset).check_settings(self.rules)
        if found:
            first = found[0]
            raise problem(first.reason, at=f"rules.{first.key}" if first.key else "rules")
        return self

    @field_validator("nicknames", mode="before")
    @classmethod
    def _alias_lists(cls, value: Any) -> Any:
        if not isinstance(value, Mapping):
            return value
        lists = {}
        for name, aliases in value.items():
            if isinstance(aliases, str):
                aliases = [aliases]
            if not isinstance(aliases, list | tuple) or not all(isinstance(a, str) for a in aliases):
                raise problem("应为名字的列表", at=name)
            lists[name] = tuple(aliases)
        return lists


@dataclass(frozen=True, kw_only=True, config=TABLE)
class DaemonConfig:
    """``[daemon]``: mode, polling, storage and logs."""

    mode: Literal["dry-run", "review", "live"] = "dry-run"
    poll_interval: PositiveSeconds = 120.0
    fast_poll_interval: PositiveSeconds = 30.0
    fast_poll_window: Seconds = 1800.0  # seconds before a deadline when polls speed up
    # a relative SQLite file is relative to the configuration file
    database: str = Field(default="sqlite:///shenshi.sqlite3", validate_default=True)
    log: ConfigPath = Field(default=Path("shenshi-dryrun.log"), validate_default=True)
    early_close: bool = Field(default=True, strict=True)
    # rehearsals only: read the forum's time from this file (``shenshi sandbox --clock-factor``)
    clock_file: ConfigPath | None = None

    @field_validator("database")
    @classmethod
    def _sqlite_beside_the_file(cls, value: str, info: ValidationInfo) -> str:
        base = info.context.get("base") if info.context else None
        if base is None or not value.startswith("sqlite:///") or value.startswith("sqlite:////"):
            return value
        relative = value[len("sqlite:///"):]
        if not relative or relative == ":memory:" or Path(relative).is_absolute():
            return value
        return f"sqlite:///{Path(base) / relative}"


@dataclass(frozen=True, kw_only=True, config=TABLE)
class NotifyConfig:
    """``[notify]``: how the GM is told when the game waits for him (Apprise URLs: WeCom,
    DingTalk, Feishu, Bark, Telegram, e-mail, ntfy, a webhook…). A URL that holds a token
    belongs in ``urls_file`` (mode 0600) or ``urls_env``, never in the file itself."""

    urls: tuple[str, ...] = ()  # channels whose URL holds no secret
    urls_file: ConfigPath | None = None  # one URL a line, readable only by its owner
    urls_env: str | None = None  # an environment variable holding URLs (space-separated)
    console_url: str | None = None  # the console's address in messages (default: run --console's)
    on: tuple[str, ...] = NOTIFY_EVENTS

    @field_validator("on")
    @classmethod
    def _known_events(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for event in value:
            if event not in NOTIFY_EVENTS:
                raise problem(unknown("通知事件", event, NOTIFY_EVENTS, "可以用：" + "、".join(NOTIFY_EVENTS)))
        return value

    @field_validator("console_url")
    @classmethod
    def _http(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise problem(f'应为 http:// 或 https:// 开头的网址，得到 "{value}"')
        return value.rstrip("/") if value else value

    @property
    def configured(self) -> bool:
        """Whether any channel is named (the URLs themselves are read when sending starts)."""
        return bool(self.urls or self.urls_file or self.urls_env)

    def channel_urls(self) -> tuple[str, ...]:
        """Every channel's Apprise URL: ``urls``, then the 0600 ``urls_file``'s lines, then
        ``$urls_env`` (a missing file or a file others can read is a :class:`ConfigError`)."""
        import os
        import stat

        found = list(self.urls)
        if self.urls_file is not None:
            path = self.urls_file.expanduser()
            try:
                mode = path.stat().st_mode
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise ConfigError(f"[notify] urls_file: 读不了 {path}：{os_reason(exc)}") from None
            if mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise ConfigError(f"[notify] urls_file: {path} 别人也能读；请运行 chmod 600 {path}")
            found += [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        if self.urls_env:
            found += os.environ.get(self.urls_env, "").split()
        return tuple(dict.fromkeys(found))


@dataclass(frozen=True, kw_only=True, config=TABLE)
class Config:
    """The whole configuration."""

    forum: ForumSettings
    game: GameConfig
    daemon: DaemonConfig = Field(default_factory=DaemonConfig)
    notify: NotifyConfig = Field(default_factory=NotifyConfig)
    templates: Mapping[str, str] = Field(default_factory=dict)
    path: Path | None = None  # the file it was read from (not an option)

    @model_validator(mode="before")
    @classmethod
    def _not_from_the_file(cls, data: Any, info: ValidationInfo) -> Any:
        if isinstance(data, Mapping):
            extra = sorted(set(data) - set(SECTIONS))
            if extra:
                raise problem(unknown(f"配置节 [{extra[0]}]", extra[0], SECTIONS))
            path = info.context.get("path") if info.context else None
            data = {**data, "daemon": data.get("daemon", {}), "path": path}
        return data

    @field_validator("templates")
    @classmethod
    def _known_templates(cls, templates: Mapping[str, str]) -> Mapping[str, str]:
        from shenshi.wording import TEMPLATES, TemplateError, check_overrides

        extra = sorted(set(templates) - set(TEMPLATES))
        if extra:
            listed = "所有模板见 docs/templates.md"
            raise problem(unknown("模板", extra[0], TEMPLATES, listed), at=extra[0])
        try:
            check_overrides(templates)
        except TemplateError as exc:
            raise problem(exc.reason, at=exc.name) from None
        return dict(templates)

    @model_validator(mode="after")
    def _start_on_the_forum_clock(self) -> Config:
        if self.game.start.tzinfo is None:
            from dataclasses import replace

            game = replace(self.game, start=self.game.start.replace(tzinfo=self.forum.tz))
            object.__setattr__(self, "game", game)
        return self


_CONFIG = TypeAdapter(Config)
_PLAYERS_FILE = TypeAdapter(PlayersFile)


def load_config(path: Path | str) -> Config:
    """Read and check a configuration file."""
    path = Path(path)
    try:
        raw = tomllib.loads(read_utf8(path))
    except OSError as exc:
        raise ConfigError(f"读不了配置文件 {path}：{os_reason(exc)}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {toml_reason(exc)}") from None
    return parse_config(raw, path.parent, path)


def read_utf8(path: Path) -> str:
    """The text of a TOML file (UTF-8, as TOML is); a file in another encoding is a
    :class:`ConfigError` naming it and the first byte that is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")  # (Notepad saves UTF-8 with a byte-order mark)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}: 第 {line} 行不是 UTF-8 编码（第 {exc.start + 1} 个字节 0x{data[exc.start]:02x}）："
            "TOML 文件必须用 UTF-8 保存（GBK 等编码请另存为 UTF-8）"
        ) from None


def parse_config(raw: Mapping[str, Any], base: Path, path: Path | None = None) -> Config:
    """Build the configuration from parsed TOML (paths relative to ``base``); every problem
    names the file (``path``, when there is one) and the option."""
    context = {"base": base, "from_file": True, "path": path}
    try:
        return _CONFIG.validate_python(raw, context=context)
    except ValidationError as exc:
        found = explain(exc, _option, order=_section_order, known=_keys)
        raise in_file(found, path) from None


def in_file(error: ConfigError, path: Path | None) -> ConfigError:
    """``error`` with each of its lines naming the file it is about (``shenshi.toml: [game] …``)."""
    if path is None:
        return error
    return ConfigError("\n".join(f"{path}: {line}" for line in str(error).splitlines()))


def load_players(path: Path) -> tuple[PlayerEntry, ...]:
    """The players file (TOML: ``[[player]] name, uid, role, team``)."""
    try:
        raw = tomllib.loads(read_utf8(path))
    except ConfigError as exc:
        raise problem(str(exc), at="players_file") from None
    except OSError as exc:
        raise problem(f"读不了 {path}：{os_reason(exc)}", at="players_file") from None
    except tomllib.TOMLDecodeError as exc:
        raise problem(f"{path}: {toml_reason(exc)}", at="players_file") from None
    try:
        return _PLAYERS_FILE.validate_python(raw).player
    except ValidationError as exc:
        found = explain(
            exc, lambda loc: _player_option(path.name, loc), known=lambda loc: keys_at(PlayersFile, loc)
        )
        raise problem(str(found), at="players_file") from None


def _keys(loc: tuple[Any, ...]) -> tuple[str, ...]:
    """The keys a file may give in the table at ``loc`` (for suggestions)."""
    return keys_at(Config, loc, hidden=("password", "path"))


def _section_order(loc: tuple[Any, ...]) -> int:
    """Problems are reported section by section, as the file reads."""
    return SECTIONS.index(loc[0]) if loc and loc[0] in SECTIONS else -1


def _option(loc: tuple[Any, ...]) -> str:
    """``[game] vote_thread`` for a pydantic location (``("game", "vote_thread")``)."""
    if not loc:
        return "配置文件"
    section, rest = str(loc[0]), loc[1:]
    if section == "game" and rest[:1] == ("players",) and len(rest) > 1:
        return _player_option("[game] players", rest[1:])
    if section == "game" and rest and str(rest[0]).split(".")[0] == "rules":
        key = ".".join(str(part) for part in rest)[len("rules"):].lstrip(".")
        return f"[game.rules] {key}".rstrip()
    if not rest:
        return f"[{section}]"
    option = ".".join(str(part) for part in rest if not isinstance(part, int))
    items = "".join(f": 第 {part + 1} 项" for part in rest if isinstance(part, int))
    return f"[{section}] {option}{items}"


def _player_option(where: str, loc: tuple[Any, ...]) -> str:
    """``players.toml: player 2: name`` for a location inside a list of players."""
    parts = [where]
    for part in loc:
        if part == "player":
            continue
        parts.append(f"第 {part + 1} 个玩家" if isinstance(part, int) else str(part))
    return ": ".join(parts)
