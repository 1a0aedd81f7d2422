"""The ``shenshi`` command line.

Each sub-command is a module of :mod:`shenshi.commands` that defines ``NAME``, ``HELP`` and
``register(subparsers) -> argparse.ArgumentParser`` (the parser's default ``func(args) -> int``
runs it). Modules are discovered, so adding a command means adding one module.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from shenshi import __version__, commands
from shenshi.errors import ERROR_PREFIX, UserError


def _command_modules() -> list:
    found = []
    for info in pkgutil.iter_modules(commands.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "register"):
            found.append(module)
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 50), m.NAME))


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every discovered sub-command."""
    parser = argparse.ArgumentParser(
        prog="shenshi",
        description="神使: runs forum Mafia games (版杀) beside a phpwind or Discuz! forum.",
    )
    parser.add_argument("--version", action="version", version=f"shenshi {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules():
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"{ERROR_PREFIX}{exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ``shenshi status | head``: the reader left, nothing to report
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush does not fail again."""
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
