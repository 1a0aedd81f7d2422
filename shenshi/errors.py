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
    """A missing or wrong option; the message names it (``[forum] engine: 应为 …``)."""


# The operating system's and the TOML reader's reasons, in the words the rest of a message uses.
_OS_REASONS = {2: "文件不存在", 13: "没有读取权限", 21: "这是一个文件夹，不是文件"}


def os_reason(exc: OSError) -> str:
    """Why a file could not be read, in Chinese (the system's own words for a rare reason)."""
    return _OS_REASONS.get(exc.errno or 0) or exc.strerror or str(exc)


def toml_reason(exc: ValueError) -> str:
    """``不是有效的 TOML（第 10 行第 11 列：…）``: where the TOML reader stopped, and its words."""
    import re

    text = str(exc)
    where = re.search(r"\(at line (\d+), column (\d+)\)", text)
    detail = re.sub(r"\s*\(at (?:line \d+, column \d+|end of document)\)", "", text)
    if where:
        return f"不是有效的 TOML（第 {where[1]} 行第 {where[2]} 列：{detail}）"
    place = "文件末尾：" if "end of document" in text else ""
    return f"不是有效的 TOML（{place}{detail}）"
