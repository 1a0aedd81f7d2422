"""Sub-commands of the ``shenshi`` CLI, one module each (discovered by :mod:`shenshi.cli`).

Every module defines ``NAME``, ``HELP``, optionally ``ORDER`` (for ``--help``), and
``register(subparsers)``. Use :func:`add_config_option` so every command takes ``--config``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shenshi.config import DEFAULT_CONFIG


class _ConfigFiles(argparse.Action):
    """``--config PATH``, repeatable: every path in ``configs``, the first also in ``config``."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        paths = [*(getattr(namespace, "configs", None) or ()), values]
        namespace.configs = paths
        namespace.config = paths[0]


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """Add the options every command accepts: ``--config PATH`` (repeatable), ``--games DIR``
    (a folder of game configurations) and ``--game NAME`` (which of them)."""
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        action=_ConfigFiles,
        metavar="文件",
        help=f"配置文件（默认：当前目录的 {DEFAULT_CONFIG}）；几局游戏就写几次",
    )  # fmt: skip
    parser.set_defaults(configs=None)
    parser.add_argument("--games", type=Path, default=None, metavar="文件夹",
                        help="放游戏配置的文件夹（其中每个 *.toml）")  # fmt: skip
    parser.add_argument("--game", default=None, metavar="局名",
                        help="配置了几局时，选哪一局（[game] name 或配置文件名）")  # fmt: skip
