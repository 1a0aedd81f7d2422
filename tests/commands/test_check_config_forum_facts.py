"""``shenshi check-config`` against a sandbox forum: what the real forums showed it must say.

With two uids swapped in the players file it said "all good" and the daemon mixed the players
up; a Discuz inbox with no messages was "FAIL inbox: no PM list"; on a GBK forum whose server
says UTF-8 in the header, nobody could tell which charset was used.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve
from shenshi.adapters.sandbox.seed import GM_NAME, GM_PASSWORD, player_name
from shenshi.bootstrap import make_forum
from shenshi.cli import main
from shenshi.config import parse_config
from shenshi.daemon.checks import check_forum
from shenshi.demo import tomlfile
from tests.daemon.helpers import GAME6_10, START

PASSWORD_ENV = "SHENSHI_CHECK_CONFIG_TEST_PASSWORD"


@pytest.fixture(params=[("discuz", "utf-8"), ("phpwind", "utf-8"), ("phpwind", "gbk")], ids=["discuz", "phpwind", "phpwind-gbk"])
def forum(request, monkeypatch) -> Iterator[tuple[SandboxForum, str]]:  # type: ignore[no-untyped-def]
    engine, charset = request.param
    monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
    sandbox = SandboxForum(engine, clock=ManualClock(START), charset=charset)
    seed_demo(sandbox)
    sandbox.create_thread(GM_NAME, 3, "【游戏】游戏者名单与投票帖", "游戏者名单")
    with serve(sandbox) as base_url:
        yield sandbox, base_url


def raw_config(sandbox: SandboxForum, base_url: str, tmp_path, swap: tuple[str, str] | None = None) -> dict:  # type: ignore[no-untyped-def]
    uids = {n: str(sandbox.user(player_name(n, sandbox.engine)).uid) for n, _ in GAME6_10}
    if swap:
        a, b = swap
        uids[a], uids[b] = uids[b], uids[a]
    return {
        "forum": {"engine": sandbox.engine, "base_url": base_url, "username": GM_NAME,
                  "password_env": PASSWORD_ENV, "min_interval": 0, "timeout": 10},
        "game": {"name": "check", "ruleset": "game6-10", "board": 3, "vote_thread": 1,
                 "start": START.replace(tzinfo=None).isoformat(),
                 "players": [{"name": n, "uid": uids[n], "role": r} for n, r in GAME6_10]},
        "daemon": {"database": f"sqlite:///{tmp_path / 'game.sqlite3'}", "log": str(tmp_path / "dry.log")},
    }  # fmt: skip


def checks(sandbox: SandboxForum, base_url: str, tmp_path, **kwargs) -> dict[str, tuple[bool, str]]:  # type: ignore[no-untyped-def]
    config = parse_config(raw_config(sandbox, base_url, tmp_path, **kwargs), tmp_path)
    return {c.what: (c.ok, c.detail) for c in check_forum(config, make_forum(config))}


def test_swapped_uids_fail_and_name_both_players(forum, tmp_path) -> None:  # type: ignore[no-untyped-def]
    sandbox, base_url = forum
    found = checks(sandbox, base_url, tmp_path, swap=("小明", "阿杰"))
    assert found["player 小明"] == (False, f"论坛上 uid 4 是 {player_name('阿杰', sandbox.engine)}，不是 小明：请改正玩家文件")
    assert found["player 阿杰"][0] is False and "uid 3 是 小明" in found["player 阿杰"][1]
    others = [what for what, (ok, _) in found.items() if what.startswith("player ") and ok]
    assert len(others) == len(GAME6_10) - 2  # Tom_2 is tom_2 on phpwind: the same member


def test_an_empty_inbox_is_fine_and_the_charset_is_reported(forum, tmp_path) -> None:  # type: ignore[no-untyped-def]
    sandbox, base_url = forum
    found = checks(sandbox, base_url, tmp_path)
    assert all(ok for ok, _ in found.values()), found
    assert found["inbox"] == (True, "空的（还没有对话）")
    assert found["charset"][1].startswith(f"{sandbox.charset}（依据论坛页面自己的声明）")


def test_a_gbk_forum_whose_server_says_utf8_is_read_and_written_as_gbk(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """Issue 16: login failed with 用户"绁炵殑浣胯��"不存在 and no hint; the page's meta decides."""
    monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
    sandbox = SandboxForum("phpwind", clock=ManualClock(START), charset="gbk")
    seed_demo(sandbox)
    sandbox.create_thread(GM_NAME, 3, "【游戏】投票帖", "投票")
    sandbox.faults.header_charset = "UTF-8"
    with serve(sandbox) as base_url:
        raw = raw_config(sandbox, base_url, tmp_path)
        (tmp_path / "shenshi.toml").write_text(tomlfile.dumps(raw), encoding="utf-8")
        code = main(["check-config", "--config", str(tmp_path / "shenshi.toml")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"正常 登录：已登录为 {GM_NAME}" in out
    assert "正常 字符集：gbk（依据论坛页面自己的声明）；HTTP 头写的是 utf-8，以页面为准" in out
