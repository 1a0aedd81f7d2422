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
        metavar="PATH",
        help=f"configuration file (default: ./{DEFAULT_CONFIG} if present); repeat it for "
             "several games",
    )  # fmt: skip
    parser.set_defaults(configs=None)
    parser.add_argument("--games", type=Path, default=None, metavar="DIR",
                        help="a folder of game configurations (every *.toml in it)")  # fmt: skip
    parser.add_argument("--game", default=None, metavar="NAME",
                        help="which game ([game] name or file name) when several are configured")  # fmt: skip
