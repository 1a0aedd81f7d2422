"""Which games a command works on: the configurations named by ``--config`` (repeatable) and
``--games DIR`` (every ``*.toml`` in it), and the one ``--game NAME`` picks.

``shenshi run`` serves every game named; every other command works on one game: the one
``--game`` names (by its ``[game] name`` or its file's stem), or the only one. Several games
without ``--game`` is a clear error listing them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shenshi.config import DEFAULT_CONFIG, Config, ConfigError, load_config

__all__ = ["game_configs", "pick_game"]


def game_configs(paths: Sequence[Path] = (), folder: Path | None = None) -> list[Config]:
    """Every configuration named: the files, then the folder's ``*.toml`` (sorted by name);
    ``./shenshi.toml`` when neither is given. Two games with one name in one database are
    refused (the database tells games apart by name)."""
    files = list(paths)
    if folder is not None:
        if not folder.is_dir():
            raise ConfigError(f"--games {folder}: not a folder of game configurations")
        found = sorted(p for p in folder.glob("*.toml") if p.is_file())
        if not found:
            raise ConfigError(f"--games {folder}: no *.toml game configuration in it")
        files += found
    if not files:
        files = [DEFAULT_CONFIG]
    configs = []
    for path in dict.fromkeys(p.resolve() if p.exists() else p for p in files):
        if not path.exists():
            raise ConfigError(
                f"no configuration at {path}: copy config.example.toml to {DEFAULT_CONFIG} "
                "and edit it, or pass --config PATH (or --games DIR)"
            )
        configs.append(load_config(path))
    seen: dict[tuple[str, str], Config] = {}
    for config in configs:
        key = (config.daemon.database, config.game.name)
        if key in seen:
            raise ConfigError(
                f'two configurations name the game "{config.game.name}" in one database: '
                f"{seen[key].path} and {config.path} (give each [game] name its own)"
            )
        seen[key] = config
    return configs


def pick_game(configs: Sequence[Config], name: str | None) -> Config:
    """The game ``name`` names (its ``[game] name`` or its file's stem), or the only one."""
    if name is not None:
        wanted = name.strip()
        found = [c for c in configs if c.game.name == wanted] or [
            c for c in configs if c.path is not None and c.path.stem == wanted
        ]
        if len(found) == 1:
            return found[0]
        raise ConfigError(f'--game {name}: {"no" if not found else "more than one"} such game; '
                          f"the games: {listing(configs)}")  # fmt: skip
    if len(configs) == 1:
        return configs[0]
    raise ConfigError(f"{len(configs)} games: pick one with --game NAME ({listing(configs)})")


def listing(configs: Sequence[Config]) -> str:
    """The games' names, with their files: ``"第1期" (a.toml), "第2期" (b.toml)``."""
    return ", ".join(
        f'"{c.game.name}"' + (f" ({c.path.name})" if c.path is not None else "") for c in configs
    )
