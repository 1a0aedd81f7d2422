"""Sub-commands of the ``shenshi`` CLI, one module each (discovered by :mod:`shenshi.cli`).

Every module defines ``NAME``, ``HELP``, optionally ``ORDER`` (for ``--help``), and
``register(subparsers)``. Use :func:`add_config_option` so every command takes ``--config``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shenshi.config import DEFAULT_CONFIG


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """Add the ``--config PATH`` option that every command accepts."""
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="PATH",
        help=f"configuration file (default: ./{DEFAULT_CONFIG} if present)",
    )
