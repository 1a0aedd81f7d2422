"""``shenshi check-config`` and ``shenshi run --once`` against the loopback sandbox forum."""

from __future__ import annotations

import logging
import re

import pytest

from shenshi.adapters.sandbox.seed import GM_PASSWORD
from shenshi.cli import main
from tests.commands.conftest import write_config


@pytest.fixture
def forum_config(sandbox):
    """The sandbox with a game6-10 configuration written for it (roles given)."""
    forum, base_url, tid, folder = sandbox
    write_config(folder, base_url, tid)
    return forum, folder


def test_check_config_against_the_forum(forum_config, capsys) -> None:
    code = main(["check-config"])
    out, _ = capsys.readouterr()
    assert code == 0, out
    assert "正常 登录：已登录为 神的使者（uid 2）" in out
    assert "正常 玩家 小明：uid 3" in out
    assert GM_PASSWORD not in out


def test_run_once_polls_and_opens_the_first_night(forum_config, capsys) -> None:
    forum, tmp_path = forum_config
    code = main(["run", "--once"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    said = out.strip().splitlines()[-1]  # what the cycle did, in words (not "events: 0, sent: 0")
    assert "进入 第1夜" in said and "日志：" in said and "events:" not in out, out
    code = main(["status"])
    out, _ = capsys.readouterr()
    assert "第1夜" in out and "下一个截止：第1夜结束" in out
    for name in ("dry.log", "dry.jsonl", "g.sqlite3"):
        path = tmp_path / name
        assert not path.exists() or GM_PASSWORD.encode() not in path.read_bytes()


def test_run_once_counts_the_pms_it_read(forum_config, capsys) -> None:
    """Issue 23: the summary says what the cycle read (not "events: 0, sent: 0" after PMs)."""
    from shenshi.adapters.sandbox.seed import PLAYERS

    forum, _ = forum_config
    assert main(["run", "--once"]) == 0
    capsys.readouterr()
    forum.send_pm(PLAYERS[2], "神的使者", "请问今晚几点截止？")
    forum.send_pm(PLAYERS[3], "神的使者", "我还在")
    assert main(["run", "--once"]) == 0
    said = capsys.readouterr().out.strip().splitlines()[-1]
    assert "读到 2 条私信" in said and "events" not in said and "sent" not in said, said


@pytest.mark.parametrize(("flags", "libraries_shown"), [((), False), (("-v",), True)])
def test_run_keeps_the_libraries_quiet_unless_asked(forum_config, caplog, flags, libraries_shown) -> None:
    caplog.set_level(logging.INFO)
    assert main(["run", "--once", *flags]) == 0
    below_warning = {r.name.split(".")[0] for r in caplog.records if r.levelno < logging.WARNING}
    assert ("httpx" in below_warning) is libraries_shown
    assert logging.getLogger("httpx").level == logging.NOTSET  # put back when the command ends


def test_run_with_a_clock_factor_keeps_the_rehearsal_clock_in_a_file(forum_config, capsys) -> None:
    from shenshi.rehearsal import RehearsalClock

    _, tmp_path = forum_config
    assert main(["run", "--once", "--clock-factor", "60"]) == 0
    out, _ = capsys.readouterr()
    assert "60 倍速" in out and "clock_file" in out  # the other commands need it in the config
    assert RehearsalClock.open(tmp_path / "rehearsal-clock.json").factor == 60
    assert main(["run", "--once", "--clock-factor", "60"]) == 0  # joins the same clock
    assert main(["run", "--once", "--clock-factor", "30"]) == 2
    assert "按 60 倍速走" in capsys.readouterr().err


def test_a_clock_factor_is_refused_on_a_real_forum(forum_config, capsys) -> None:
    _, tmp_path = forum_config
    path = tmp_path / "shenshi.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'base_url = "[^"]+"', 'base_url = "https://bbs.example.com/"', text), encoding="utf-8")
    assert main(["run", "--once", "--clock-factor", "60"]) == 2
    assert "只用于在沙盒论坛" in capsys.readouterr().err
    assert not (tmp_path / "rehearsal-clock.json").exists()
