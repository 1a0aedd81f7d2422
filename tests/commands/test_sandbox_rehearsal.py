"""``shenshi sandbox``: its help says how to log in as the players; ``--rehearsal DIR
--clock-factor X`` serves a forum with a game's threads on a shared fast clock and writes a
configuration that ``check-config``, ``deal`` and ``status`` work with at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import pytest

from shenshi.cli import main


def test_the_help_says_how_to_log_in_as_the_players(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["sandbox", "--help"])
    out = capsys.readouterr().out
    for needed in ("神的使者", "GmPass_2024", "Player_pw1", "Player_pw10", "小明", "Rex",
                   "member.php?mod=logging&action=login", "login.php", "--rehearsal", "--clock-factor"):  # fmt: skip
        assert needed in out, needed


def test_a_rehearsal_forum_and_its_configuration(tmp_path) -> None:
    folder = tmp_path / "rehearsal"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "shenshi", "sandbox", "--rehearsal", str(folder), "--clock-factor", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        lines = []
        for line in proc.stdout:  # type: ignore[union-attr]
            lines.append(line)
            if line.startswith("Ctrl-C stops it."):
                break
        out = "".join(lines)
        assert "sandbox discuz forum at http://127.0.0.1:" in out, out + proc.stderr.read()  # type: ignore[union-attr]
        assert "600 倍速" in out and "shenshi check-config && shenshi deal && shenshi run" in out
        config = (folder / "shenshi.toml").read_text(encoding="utf-8")
        assert 'mode = "dry-run"' in config and "clock_file" in config
        assert oct(os.stat(folder / "shenshi.toml").st_mode & 0o777) == "0o600"
        cwd = os.getcwd()
        os.chdir(folder)
        os.environ["SHENSHI_DEMO_PASSWORD"] = "GmPass_2024"
        try:
            assert main(["check-config"]) == 0
            assert main(["deal", "--seed", "x"]) == 0
            first = _forum_now()
            # the game opens in the evening, as GMs open theirs (gmattack W1: a werewolf night 0
            # of 14 minutes when the sandbox started at 05:46)
            local = first.astimezone(timezone(timedelta(hours=8)))
            assert local.hour == 20 and local.minute < 30, local
            time.sleep(0.2)  # 0.2 s at 600×: two forum minutes
            assert (_forum_now() - first).total_seconds() >= 100
        finally:
            os.chdir(cwd)
            del os.environ["SHENSHI_DEMO_PASSWORD"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


def _forum_now() -> datetime:
    """The forum's time as ``shenshi status --json`` says it (the shared clock file)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["status", "--json"])
    return datetime.fromisoformat(json.loads(out.getvalue())["now"])
