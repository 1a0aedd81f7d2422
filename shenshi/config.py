"""The configuration file (TOML): forum, game, daemon and templates.

``load_config(path)`` reads and checks it; every problem is a :class:`ConfigError` that names
the option and says what is expected, e.g. ``[forum] engine: expected "discuz" or "phpwind",
got "vbulletin"``. ``config.example.toml`` documents every option.

Secrets never live in the file itself: the forum password comes from an environment variable
(``password_env``) or a file readable only by its owner (``password_file``, mode 0600).
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shenshi.errors import UserError

ENGINES = ("discuz", "phpwind")
MODES = ("dry-run", "review", "live")
DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)


class ConfigError(UserError):
    """A missing or wrong option; the message names it."""


@dataclass(frozen=True)
class ForumConfig:
    """``[forum]``: which forum, and how to log in."""

    engine: str
    base_url: str
    username: str
    password_env: str | None = None
    password_file: Path | None = None
    cookies_file: Path | None = None
    charset: str | None = None  # None: from the page's own declaration
    timezone: str = "Asia/Shanghai"
    user_agent: str = DEFAULT_USER_AGENT
    min_interval: float = 2.0
    timeout: float = 30.0
    use_mobile_api: str = "auto"

    @property
    def tz(self) -> ZoneInfo:
        """The forum's time zone."""
        return ZoneInfo(self.timezone)

    def password(self) -> str | None:
        """The password from the environment or the 0600 file (never from the config)."""
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value:
                return value
        if self.password_file:
            path = self.password_file.expanduser()
            try:
                mode = path.stat().st_mode
            except OSError as exc:
                raise ConfigError(f"[forum] password_file: cannot read {path}: {exc.strerror}") from None
            if mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise ConfigError(
                    f"[forum] password_file: {path} is readable by others; run: chmod 600 {path}"
                )
            return path.read_text(encoding="utf-8").strip()
        return None


@dataclass(frozen=True)
class PlayerEntry:
    """One line of the players file: name, optional forum uid, role (and team/camp)."""

    name: str
    uid: str | None = None
    role: str | None = None  # None: dealt by ``shenshi deal``
    team: str | None = None  # chess camp (chu/han); werewolf camp; family A: from the role
    addons: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameConfig:
    """``[game]``: the ruleset, the players and the game's threads."""

    name: str
    ruleset: str
    board: str
    vote_thread: str
    players: tuple[PlayerEntry, ...]
    start: datetime  # the player list post (forum clock, aware)
    player_list_thread: str | None = None
    counted_threads: tuple[str, ...] = ()  # empty: every thread on the board counts
    uncounted_threads: tuple[str, ...] = ()  # 灌水 threads
    role_threads: Mapping[str, str] = field(default_factory=dict)  # werewolf 功能树洞
    nicknames: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    rules: Mapping[str, Any] = field(default_factory=dict)  # ruleset settings
    receipts: bool = True
    substitutes: tuple[str, ...] = ()


@dataclass(frozen=True)
class DaemonConfig:
    """``[daemon]``: mode, polling, storage and logs."""

    mode: str = "dry-run"
    poll_interval: float = 120.0
    fast_poll_interval: float = 30.0
    fast_poll_window: float = 1800.0  # seconds before a deadline when polls speed up
    database: str = "sqlite:///shenshi.sqlite3"
    log: Path = Path("shenshi-dryrun.log")
    early_close: bool = True


@dataclass(frozen=True)
class Config:
    """The whole configuration."""

    forum: ForumConfig
    game: GameConfig
    daemon: DaemonConfig
    templates: Mapping[str, str]
    path: Path | None = None


# --------------------------------------------------------------------------------------------


class _Section:
    """Typed access to one TOML table with messages that name the option."""

    def __init__(self, name: str, data: Any, base: Path) -> None:
        if not isinstance(data, Mapping):
            raise ConfigError(f"[{name}]: expected a table")
        self.name, self.data, self.base = name, data, base
        self.used: set[str] = set()

    def _where(self, key: str) -> str:
        return f"[{self.name}] {key}"

    def get(self, key: str, default: Any = ..., kind: type | tuple[type, ...] = str) -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is ...:
                raise ConfigError(f"{self._where(key)}: missing (required)")
            return default
        value = self.data[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if kind is str and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # thread ids and boards may be written as numbers
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise ConfigError(f"{self._where(key)}: expected {names}, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: Any = ...) -> str:
        value = self.get(key, default)
        if value not in choices:
            expected = " or ".join(f'"{c}"' for c in choices)
            raise ConfigError(f'{self._where(key)}: expected {expected}, got "{value}"')
        return value

    def path(self, key: str, default: Any = None) -> Path | None:
        value = self.get(key, default)
        if value in (None, ""):
            return None
        p = Path(value).expanduser()
        return p if p.is_absolute() else self.base / p

    def ids(self, key: str) -> tuple[str, ...]:
        value = self.get(key, [], list)
        return tuple(str(v) for v in value)

    def finish(self) -> None:
        unknown = set(self.data) - self.used
        if unknown:
            raise ConfigError(f"[{self.name}]: unknown option(s): {', '.join(sorted(unknown))}")


def load_config(path: Path | str) -> Config:
    """Read and check a configuration file."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the configuration {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    return parse_config(raw, path.parent, path)


def parse_config(raw: Mapping[str, Any], base: Path, path: Path | None = None) -> Config:
    """Build the configuration from parsed TOML (paths relative to ``base``)."""
    unknown = set(raw) - {"forum", "game", "daemon", "templates"}
    if unknown:
        raise ConfigError(f"unknown section(s): {', '.join(sorted(unknown))}")
    forum = _forum(_Section("forum", raw.get("forum", {}), base))
    game = _game(_Section("game", raw.get("game", {}), base), forum)
    daemon = _daemon(_Section("daemon", raw.get("daemon", {}), base))
    templates = raw.get("templates", {})
    if not isinstance(templates, Mapping) or not all(isinstance(v, str) for v in templates.values()):
        raise ConfigError("[templates]: expected a table of strings")
    from shenshi.daemon.announce import DEFAULT_TEMPLATES

    unknown_t = set(templates) - set(DEFAULT_TEMPLATES)
    if unknown_t:
        raise ConfigError(f"[templates]: unknown template(s): {', '.join(sorted(unknown_t))}")
    return Config(forum, game, daemon, dict(templates), path)


def _forum(s: _Section) -> ForumConfig:
    base_url = s.get("base_url")
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f'[forum] base_url: expected an http(s) URL, got "{base_url}"')
    timezone = s.get("timezone", "Asia/Shanghai")
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f'[forum] timezone: unknown time zone "{timezone}"') from None
    charset = s.get("charset", "auto")
    config = ForumConfig(
        engine=s.choice("engine", ENGINES),
        base_url=base_url if base_url.endswith("/") else base_url + "/",
        username=s.get("username"),
        password_env=s.get("password_env", None) or None,
        password_file=s.path("password_file"),
        cookies_file=s.path("cookies_file"),
        charset=None if charset == "auto" else charset,
        timezone=timezone,
        user_agent=s.get("user_agent", DEFAULT_USER_AGENT),
        min_interval=s.get("min_interval", 2.0, float),
        timeout=s.get("timeout", 30.0, float),
        use_mobile_api=s.choice("use_mobile_api", ("auto", "yes", "no"), "auto"),
    )
    if "password" in s.data:
        raise ConfigError(
            "[forum] password: never put the password in the file; use password_env or a 0600 password_file"
        )
    s.finish()
    return config


def _game(s: _Section, forum: ForumConfig) -> GameConfig:
    from shenshi.rulesets.registry import RULESETS, find_ruleset

    written = s.get("ruleset")
    try:
        ruleset = find_ruleset(written).name  # an alias (g6-10, 楚汉, ww…) names the same ruleset
    except KeyError:
        expected = " or ".join(f'"{r.name}"' for r in RULESETS)
        raise ConfigError(f'[game] ruleset: expected {expected} (or an alias), got "{written}"') from None
    start_text = s.get("start")
    try:
        start = datetime.fromisoformat(start_text)
    except ValueError:
        raise ConfigError(f'[game] start: expected an ISO time like "2026-12-01T20:00", got "{start_text}"') from None
    if start.tzinfo is None:
        start = start.replace(tzinfo=forum.tz)
    players_file = s.path("players_file")
    if players_file is not None:
        players = load_players(players_file)
    else:
        players = _players(s.get("players", [], list), "[game] players")
    nick_raw = s.get("nicknames", {}, dict)
    nicknames = {}
    for name, aliases in nick_raw.items():
        if isinstance(aliases, str):
            aliases = [aliases]
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise ConfigError(f"[game] nicknames.{name}: expected a list of names")
        nicknames[name] = tuple(aliases)
    role_threads = {str(k): str(v) for k, v in s.get("role_threads", {}, dict).items()}
    config = GameConfig(
        name=s.get("name", "shenshi game"),
        ruleset=ruleset,
        board=s.get("board"),
        vote_thread=s.get("vote_thread"),
        players=players,
        start=start,
        player_list_thread=s.get("player_list_thread", None),
        counted_threads=s.ids("counted_threads"),
        uncounted_threads=s.ids("uncounted_threads"),
        role_threads=role_threads,
        nicknames=nicknames,
        rules=dict(s.get("rules", {}, dict)),
        receipts=s.get("receipts", True, bool),
        substitutes=tuple(str(x) for x in s.get("substitutes", [], list)),
    )
    s.finish()
    if not players:
        raise ConfigError("[game] players: no players (give players_file or a players list)")
    return config


def load_players(path: Path) -> tuple[PlayerEntry, ...]:
    """The players file (TOML: ``[[player]] name, uid, role, team``)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"[game] players_file: cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"[game] players_file: {path} is not valid TOML ({exc})") from None
    return _players(raw.get("player", []), f"{path.name}")


def _players(items: Any, where: str) -> tuple[PlayerEntry, ...]:
    if not isinstance(items, list):
        raise ConfigError(f"{where}: expected a list of players")
    out, seen = [], set()
    for i, p in enumerate(items, 1):
        if not isinstance(p, Mapping) or not isinstance(p.get("name"), str) or not p["name"].strip():
            raise ConfigError(f"{where}: player {i} needs a name")
        name = p["name"].strip()
        if name in seen:
            raise ConfigError(f"{where}: player {name!r} is listed twice")
        seen.add(name)
        unknown = set(p) - {"name", "uid", "role", "team", "addons"}
        if unknown:
            raise ConfigError(f"{where}: player {name!r}: unknown key(s) {', '.join(sorted(unknown))}")
        uid = p.get("uid")
        out.append(
            PlayerEntry(
                name,
                None if uid in (None, "") else str(uid),
                p.get("role") or None,
                p.get("team") or None,
                tuple(p.get("addons", ())),
            )
        )
    return tuple(out)


def _daemon(s: _Section) -> DaemonConfig:
    config = DaemonConfig(
        mode=s.choice("mode", MODES, "dry-run"),
        poll_interval=s.get("poll_interval", 120.0, float),
        fast_poll_interval=s.get("fast_poll_interval", 30.0, float),
        fast_poll_window=s.get("fast_poll_window", 1800.0, float),
        database=s.get("database", "sqlite:///shenshi.sqlite3"),
        log=s.path("log", "shenshi-dryrun.log") or Path("shenshi-dryrun.log"),
        early_close=s.get("early_close", True, bool),
    )
    if config.poll_interval <= 0 or config.fast_poll_interval <= 0:
        raise ConfigError("[daemon] poll_interval: expected a positive number of seconds")
    if config.database.startswith("sqlite:///") and not config.database.startswith("sqlite:////"):
        rel = config.database[len("sqlite:///"):]
        if rel and rel != ":memory:":
            config = DaemonConfig(**{**config.__dict__, "database": f"sqlite:///{(s.base / rel)}"})
    s.finish()
    return config
