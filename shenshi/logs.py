"""Logging for the long-running commands (``shenshi run``): what is shown.

shenshi's own loggers speak at INFO; the libraries under it (httpx, httpcore, alembic,
apscheduler) only from WARNING, so a poll does not print every request, unless ``-v`` asks
(``-v``: their INFO too, ``-vv``: everything at DEBUG).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

LIBRARIES = ("httpx", "httpcore", "alembic", "apscheduler")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


@contextmanager
def command_logging(verbose: int = 0, stream: TextIO | None = None) -> Iterator[logging.Handler]:
    """Log to ``stream`` (stderr) while the command runs; levels are put back afterwards."""
    root = logging.getLogger()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    ours = logging.DEBUG if verbose >= 2 else logging.INFO
    theirs = {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)
    before = {name: logging.getLogger(name).level for name in ("", *LIBRARIES)}
    root.setLevel(ours)
    for name in LIBRARIES:
        logging.getLogger(name).setLevel(theirs)
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)
