"""Sub-commands of the ``shenshi`` CLI, one module each (discovered by :mod:`shenshi.cli`).

Every module defines ``NAME``, ``HELP``, optionally ``ORDER`` (for ``--help``), and
``register(subparsers)``. Use :func:`add_config_option` so every command takes ``--config``
(``--games``, ``--game``); the ``shenshi`` parser takes them too, before the command's name.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shenshi.config import DEFAULT_CONFIG

# Where the options every command takes are kept when given before the command's name
# (``shenshi --config X status``): apart, so that the command's own (its defaults too) do not
# overwrite them; :func:`take_options_before_command` then fills in what the command was not given.
BEFORE = "before_command_"
COMMON = ("configs", "config", "games", "game")  # the names those options are kept under


class _ConfigFiles(argparse.Action):
    """``--config PATH``, repeatable: every path in ``configs``, the first also in ``config``
    (``before_command_configs`` and ``before_command_config`` before the command's name)."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        prefix = self.dest.removesuffix("config")
        paths = [*(getattr(namespace, f"{prefix}configs", None) or ()), values]
        setattr(namespace, f"{prefix}configs", paths)
        setattr(namespace, self.dest, paths[0])


def add_config_option(parser: argparse.ArgumentParser, *, before_command: bool = False) -> None:
    """Add the options every command accepts: ``--config PATH`` (repeatable), ``--games DIR``
    (a folder of game configurations) and ``--game NAME`` (which of them). ``before_command``:
    the ``shenshi`` parser's own, given before the command's name (kept apart, see
    :data:`BEFORE`)."""
    prefix = BEFORE if before_command else ""
    both = "；也可以写在命令名之后，前后都写时以之后的为准" if before_command else ""
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        action=_ConfigFiles,
        dest=f"{prefix}config",
        metavar="文件",
        help=f"配置文件（默认：当前目录的 {DEFAULT_CONFIG}）；几局游戏就写几次{both}",
    )  # fmt: skip
    parser.set_defaults(**{f"{prefix}configs": None})
    parser.add_argument("--games", type=Path, default=None, dest=f"{prefix}games", metavar="文件夹",
                        help=f"放游戏配置的文件夹（其中每个 *.toml）{both}")  # fmt: skip
    parser.add_argument("--game", default=None, dest=f"{prefix}game", metavar="局名",
                        help=f"配置了几局时，选哪一局（[game] name 或配置文件名）{both}")  # fmt: skip


def take_options_before_command(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with the options given before the command's name (``shenshi --config X
    status``) where the command was not given them after it: the one after the name wins
    (``--config``, repeatable, as a whole: the files after the name, else those before)."""
    before = {name: vars(args).pop(BEFORE + name, None) for name in COMMON}
    if before["configs"] is not None and getattr(args, "configs", None) is None:
        args.configs, args.config = before["configs"], before["config"]
    for name in ("games", "game"):
        if before[name] is not None and getattr(args, name, None) is None:
            setattr(args, name, before[name])
    return args
