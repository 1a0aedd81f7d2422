"""Which games a command works on: the configurations named by ``--config`` (repeatable) and
``--games DIR`` (every game configuration in it), and the one ``--game NAME`` picks.

A games folder holds game configurations, and may hold other TOML files beside them: the
players files they name (``players.toml``, the example's default) and anything else. A file
is a game configuration when it has a ``[forum]`` or ``[game]`` table; a players file
(``[[player]]`` tables only) is left alone, and any other TOML file is skipped with a warning
that names it. A game configuration with a mistake is an error that names its file.

``shenshi run`` serves every game named; every other command works on one game: the one
``--game`` names (by its ``[game] name`` or its file's stem), or the only one. Several games
without ``--game`` is a clear error listing them.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Sequence
from pathlib import Path

from shenshi.config import DEFAULT_CONFIG, SECTIONS, Config, ConfigError, load_config, read_utf8

log = logging.getLogger(__name__)

__all__ = ["game_configs", "pick_game"]


def game_configs(paths: Sequence[Path] = (), folder: Path | None = None) -> list[Config]:
    """Every configuration named: the files, then the folder's ``*.toml`` (sorted by name);
    ``./shenshi.toml`` when neither is given. Two games with one name in one database are
    refused (the database tells games apart by name)."""
    files = list(paths)
    if folder is not None:
        if not folder.is_dir():
            raise ConfigError(f"--games {folder}: 不是一个放游戏配置的文件夹")
        found = folder_games(folder)
        if not found:
            raise ConfigError(f"--games {folder}: 里面没有 *.toml 游戏配置")
        files += found
    if not files:
        files = [DEFAULT_CONFIG]
    configs = []
    for path in dict.fromkeys(p.resolve() if p.exists() else p for p in files):
        if not path.exists():
            raise ConfigError(
                f"{path} 处没有配置文件：把 config.example.toml 复制为 {DEFAULT_CONFIG} 再编辑，"
                "或用 --config 文件（或 --games 文件夹）指定"
            )
        configs.append(load_config(path))
    seen: dict[tuple[str, str], Config] = {}
    for config in configs:
        key = (config.daemon.database, config.game.name)
        if key in seen:
            raise ConfigError(
                f'两个配置在同一个数据库里都叫 "{config.game.name}"：'
                f"{seen[key].path} 和 {config.path}（给每局的 [game] name 起不同的名字）"
            )
        seen[key] = config
    return configs


def folder_games(folder: Path) -> list[Path]:
    """The game configurations among the folder's ``*.toml`` files, sorted by name (see the
    module's docstring: players files are left alone, other files skipped with a warning)."""
    games = []
    for path in sorted(p for p in folder.glob("*.toml") if p.is_file()):
        kind = toml_kind(path)
        if kind == "game":
            games.append(path)
        elif kind == "other":
            log.warning("%s：不是游戏配置（没有 [forum] 或 [game] 表），跳过", path)
    return games


def toml_kind(path: Path) -> str:
    """``"game"`` (a ``[forum]`` or ``[game]`` table, or a file that cannot be read as TOML:
    loading it says what is wrong, naming it), ``"players"`` (``[[player]]`` tables only) or
    ``"other"``."""
    try:
        tables = set(tomllib.loads(read_utf8(path)))
    except (OSError, ConfigError, tomllib.TOMLDecodeError):
        return "game"
    if tables & set(SECTIONS[:2]):
        return "game"
    return "players" if tables == {"player"} else "other"


def pick_game(configs: Sequence[Config], name: str | None) -> Config:
    """The game ``name`` names (its ``[game] name`` or its file's stem), or the only one."""
    if name is not None:
        wanted = name.strip()
        found = [c for c in configs if c.game.name == wanted] or [
            c for c in configs if c.path is not None and c.path.stem == wanted
        ]
        if len(found) == 1:
            return found[0]
        raise ConfigError(f'--game {name}: {"没有" if not found else "不止一局"}叫这个名字的游戏；'
                          f"现有的游戏：{listing(configs)}")  # fmt: skip
    if len(configs) == 1:
        return configs[0]
    raise ConfigError(f"配置了 {len(configs)} 局游戏：用 --game 局名 选一局（{listing(configs)}）")


def listing(configs: Sequence[Config]) -> str:
    """The games' names, with their files: ``"第1期" (a.toml), "第2期" (b.toml)``."""
    return ", ".join(
        f'"{c.game.name}"' + (f" ({c.path.name})" if c.path is not None else "") for c in configs
    )
