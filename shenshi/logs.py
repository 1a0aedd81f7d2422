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
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO

LIBRARIES = ("httpx", "httpcore", "alembic", "apscheduler", "apprise")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(game)s%(message)s"
# Under systemd (``JOURNAL_STREAM`` set) journald stamps the time and reads the priority from an
# ``<N>`` prefix (sd-daemon(3)): one line per record, continuation lines indented.
JOURNAL_FORMAT = "<%(priority)d>%(levelname)s %(name)s: %(game)s%(message)s"
PRIORITIES = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}

_GAME: ContextVar[str | None] = ContextVar("shenshi_game", default=None)


@contextmanager
def game_context(name: str) -> Iterator[None]:
    """Log records written meanwhile name the game (``[第1期] …``): one daemon serves many."""
    token = _GAME.set(name)
    try:
        yield
    finally:
        _GAME.reset(token)

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
        game = _GAME.get()
        record.game = f"[{game}] " if game else ""
        record.priority = PRIORITIES.get(record.levelno, 6)
        text = redact(super().format(record))
        if self._fmt == JOURNAL_FORMAT:
            text = text.replace("\n", "\n    ")  # a traceback stays one journal entry's lines
        return text


def journald() -> bool:
    """Whether stderr goes to the systemd journal (``JOURNAL_STREAM`` names its device:inode)."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    device, _, inode = stream.partition(":")
    try:
        st = os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return bool(stream) and f"{st.st_dev}:{st.st_ino}" == f"{device}:{inode}"


@contextmanager
def command_logging(
    verbose: int = 0, stream: TextIO | None = None, *, journal: bool | None = None
) -> Iterator[logging.Handler]:
    """Log to ``stream`` (stderr), redacted, while the command runs; levels are put back after.

    ``journal``: the systemd journal's format (a ``<N>`` priority, no time stamp); by default
    when stderr is the journal (:func:`journald`)."""
    root = logging.getLogger()
    handler = logging.StreamHandler(stream or sys.stderr)
    if journal is None:
        journal = stream is None and journald()
    handler.setFormatter(RedactingFormatter(JOURNAL_FORMAT if journal else FORMAT))
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
