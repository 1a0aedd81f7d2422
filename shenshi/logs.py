"""Logging for the long-running commands (``shenshi run``): what is shown, and no secrets.

shenshi's own loggers speak at INFO; the libraries under it (httpx, httpcore, alembic,
apscheduler) only from WARNING, so a poll does not print every request, unless ``-v`` asks
(``-v``: their INFO too, ``-vv``: everything at DEBUG).

Whoever logs a URL (httpx's request lines, an error's message, a traceback), its tokens are
replaced by ``***`` in what is written (:func:`redact`): anti-CSRF tokens (``formhash``,
``verify``, ``*hash``), session ids and cookies (``sid``, ``*_auth``, ``*_winduser``,
``saltkey``) and passwords.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

LIBRARIES = ("httpx", "httpcore", "alembic", "apscheduler")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# A parameter or cookie name that is a secret, alone or as the suffix of a longer name
# (Discuz ``Jx2P_2132_auth``, ``loginhash``; phpwind ``b7689_winduser``), then its value.
_SECRET = re.compile(
    r"(?<![\w])((?:\w+_)?(?:\w*hash|verify|auth|sid|saltkey|winduser|password|passwd|pwpwd|token)=)"
    r"[^&#;\s'\"]*",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """``text`` fit for logs: the values of token, session and password parameters as ``***``."""
    return _SECRET.sub(r"\1***", text)


class RedactingFormatter(logging.Formatter):
    """Formats a record (message, arguments and traceback alike), then redacts it."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


@contextmanager
def command_logging(verbose: int = 0, stream: TextIO | None = None) -> Iterator[logging.Handler]:
    """Log to ``stream`` (stderr), redacted, while the command runs; levels are put back after."""
    root = logging.getLogger()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter(FORMAT))
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
