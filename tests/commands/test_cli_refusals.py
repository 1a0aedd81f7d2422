"""The daemon's start-up refusals and the GM commands' own refusals in Chinese (issue 23), in
the one-line form configuration errors use (``[forum] option: reason``)."""

from __future__ import annotations

import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from shenshi.cli import main
from shenshi.daemon.gm_commands import check_arguments, parse_when
from shenshi.errors import ERROR_PREFIX, UserError
from tests.commands.test_bad_configs import CONFIG, players


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "players.toml").write_text(players(), encoding="utf-8")
    (tmp_path / "shenshi.toml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.delenv("SHENSHI_TEST_NOPASSWORD", raising=False)
    return tmp_path


def test_a_daemon_without_a_password_says_so_in_one_line(folder: Path, capsys) -> None:
    assert main(["run", "--once", "--config", str(folder / "shenshi.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{ERROR_PREFIX}[forum]: 没有配置密码") and err.count("\n") == 1, err
    assert "password_env" in err and not re.search(r"\b(?:no|password configured|session)\b", err)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: parse_when("tomorrow", ZoneInfo("Asia/Shanghai")), '--at: 应为论坛时间，如 "2026-12-02T20:15"，得到 "tomorrow"'),
    (lambda: check_arguments("pardon", []), "没有这种更正：pardon（可以用：action、void"),
])  # fmt: skip
def test_a_gm_commands_refusal_is_chinese(call, words) -> None:
    with pytest.raises(UserError) as refused:
        call()
    assert words in str(refused.value)
