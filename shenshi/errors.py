"""Errors a user can cause, shown as one line without a traceback.

``UserError`` is raised for bad input that a person can fix: a malformed file, an unknown
option, a missing credential. The CLI prints ``shenshi 出错：<message>`` (:data:`ERROR_PREFIX`)
and exits 2.
Bugs are not ``UserError``: they keep their traceback.
"""

from __future__ import annotations

ERROR_PREFIX = "shenshi 出错："  # the one-line form every command's refusal is printed in


class UserError(Exception):
    """A mistake in the user's input, reported in one line."""


class ConfigError(UserError):
    """A missing or wrong option; the message names it (``[forum] engine: expected …``)."""
