"""The daemon's CLI commands on a real configuration file and database (no forum needed)."""

from __future__ import annotations

import json
import os
import stat

import pytest

from tests.commands import conftest
from tests.commands.conftest import cli as run

cfg = conftest.cfg  # the fixture, as tests/daemon/test_sending.py takes it from here


def test_status_shows_the_game_and_the_database_is_private(cfg, capsys) -> None:
    code, out, _ = run(capsys, "status")
    assert code == 0
    assert "《cli game》 游戏六（10人）" in out and "开局前" in out
    assert "夜行者" in out
    mode = stat.S_IMODE(os.stat(cfg / "game.sqlite3").st_mode)
    assert mode == 0o600


def test_override_and_substitute_are_events_and_replay_agrees(cfg, capsys) -> None:
    code, out, err = run(capsys, "substitute", "Rex", "替补甲", "--uid", "99")
    assert code == 0, err
    assert "替补甲 接替 Rex 的座位，立即生效" in out
    code, out, _ = run(capsys, "status")
    living = out.split("存活")[1].split("\n\n")[0]
    assert "替补甲" in living and "Rex" not in living
    code, out, _ = run(capsys, "replay")
    assert code == 0 and "没有差异" in out


def test_illegal_override_is_one_clear_line(cfg, capsys) -> None:
    code, out, err = run(capsys, "override", "cancel-execution")
    assert code == 2 and err.startswith("shenshi 出错：") and err.count("\n") == 1
    code, _, err = run(capsys, "override", "exit")
    assert code == 2 and "override exit 需要 1 个参数，收到 0 个：shenshi override exit NAME" in err


def stored_events(cfg) -> list[str]:
    """The stored game's events, as stored."""
    from shenshi.bootstrap import bootstrap, config_from_args

    service = bootstrap(config_from_args(None), forum=False)
    service.start()
    try:
        return [e.payload for e in service.store.stream_events(service.game_id)]
    finally:
        service.close()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("override", "execute", "老王"), "今天处决 老王（代替计票结果）：开局前不能这样做；没有改动"),
        (("override", "void", "老王", "kill"), "作废 老王 本阶段的「杀」：开局前不能这样做；没有改动"),
        (("override", "exit", "Rex"), "玩家「Rex」的座位已由 替补甲 接替：请写 替补甲；没有改动"),
        (("substitute", "老王", "替补甲", "--offline"), "替补甲 接替 老王：替补甲 已经在本局中；没有改动"),
        (("override", "ballot", "老王", "小明"), "老王 的选票改记为 小明（代替没能计入的那一票）：开局前不能这样做；没有改动"),
    ],
)
def test_an_illegal_correction_leaves_the_stored_game_as_it_was(cfg, capsys, argv, says) -> None:
    assert run(capsys, "substitute", "Rex", "替补甲", "--uid", "99")[0] == 0
    before = stored_events(cfg)
    assert before  # the substitution is stored
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err == f"shenshi 出错：{says}\n", err  # one clear line, no traceback
    assert stored_events(cfg) == before


def test_review_approve_reject_published(cfg, capsys) -> None:
    from shenshi.bootstrap import bootstrap, config_from_args
    from shenshi.daemon.announce import Draft
    from shenshi.daemon.referee import Effects

    service = bootstrap(config_from_args(None), forum=False)
    service.start()
    drafts = [Draft("k1", "night_result", "thread", "2", "【第1夜结果】\n昨夜无人死亡。"), Draft("k2", "receipt", "pm", "小明", "已收到")]
    service._commit(Effects(drafts=drafts), "test", None)
    code, out, _ = run(capsys, "review")
    assert code == 0 and "#1 [待审] 夜晚结果 → 帖子 2" in out and "私信给 小明" in out
    code, out, _ = run(capsys, "approve", "1")
    assert out.startswith("#1 已批准（夜晚结果）\n") and "不会发送" in out  # dry-run
    assert run(capsys, "reject", "2")[1].startswith("#2 已放弃（回执）\n放错了可以撤销：shenshi reject --undo 2")
    code, _, err = run(capsys, "approve", "2")
    assert code == 2 and err == "shenshi 出错：#2：已放弃（shenshi reject），不能再批准；要恢复：shenshi reject --undo ID\n"
    code, _, err = run(capsys, "published", "1", "--at", "2999-01-01T20:15")
    assert code == 2 and "在未来" in err
    code, out, _ = run(capsys, "published", "1")
    assert code == 0 and out.startswith("#1 已记为发布于")
    code, out, err = run(capsys, "published", "1")  # a second time: said, not an error
    assert code == 0 and err == "" and "#1 已在" in out and "无需再记" in out
    code, _, err = run(capsys, "published", "1", "--at", "2026-01-01T20:30")
    assert code == 2 and "#1：已在" in err and "时间不能再改，没有改动" in err
    entries = [json.loads(line) for line in (cfg / "dry.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [e["kind"] for e in entries if e["state"] != "gm"] == ["night_result", "receipt"]
    assert [e["text"].split("：")[0] for e in entries if e["state"] == "gm"] == [
        "shenshi approve", "shenshi reject", "shenshi published"
    ]


def test_check_config_offline_names_the_missing_password(cfg, capsys, monkeypatch) -> None:
    monkeypatch.delenv("SHENSHI_CLI_TEST_PASSWORD", raising=False)
    code, out, _ = run(capsys, "check-config", "--offline")
    assert code == 1 and "有误 密码：没有密码：请设置 $SHENSHI_CLI_TEST_PASSWORD" in out
    monkeypatch.setenv("SHENSHI_CLI_TEST_PASSWORD", "secret-value")
    code, out, _ = run(capsys, "check-config", "--offline")
    assert code == 0 and "secret-value" not in out and "全部正常" in out


def test_check_config_offline_refuses_a_cookies_file_others_can_read(cfg, capsys, monkeypatch) -> None:
    monkeypatch.delenv("SHENSHI_CLI_TEST_PASSWORD", raising=False)
    text = (cfg / "shenshi.toml").read_text(encoding="utf-8")
    (cfg / "shenshi.toml").write_text(text.replace("[game]", 'cookies_file = "cookies.txt"\n\n[game]'), encoding="utf-8")
    (cfg / "cookies.txt").write_text("# Netscape HTTP Cookie File\n", encoding="utf-8")
    os.chmod(cfg / "cookies.txt", 0o644)
    code, out, _ = run(capsys, "check-config", "--offline")
    assert code == 1 and "有误 密码：" in out and "cookies.txt 别人也能读；请运行 chmod 600" in out
    os.chmod(cfg / "cookies.txt", 0o600)
    code, out, _ = run(capsys, "check-config", "--offline")
    assert code == 0 and "用 cookies 文件" in out


def test_a_wrong_option_is_named(cfg, capsys) -> None:
    text = (cfg / "shenshi.toml").read_text(encoding="utf-8").replace('engine = "discuz"', 'engine = "vbulletin"')
    (cfg / "shenshi.toml").write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "status")
    assert code == 2 and '[forum] engine: 应为 "discuz" 或 "phpwind"，得到 "vbulletin"' in err


def test_missing_configuration_says_what_to_do(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "status")
    assert code == 2 and "把 config.example.toml 复制为" in err


def test_review_takes_ids_and_ranges_and_sets_the_gms_notes_apart_from_the_text(cfg, capsys) -> None:
    """F3: ``shenshi review 2-3`` lists those (whatever their state), as README groups it with
    the commands taking ids and ranges; F32: what only the GM reads is below a rule, not in the
    block of text he copies."""
    from shenshi.bootstrap import bootstrap, config_from_args
    from shenshi.daemon.announce import Draft
    from shenshi.daemon.gm_text import GM_ONLY
    from shenshi.daemon.referee import Effects

    service = bootstrap(config_from_args(None), forum=False)
    service.start()
    notes = {"recorded": ["阿杰 投 白色的猫（天神补记）"]}
    drafts = [Draft("k1", "night_result", "thread", "2", "【第1夜结果】\n昨夜无人死亡。"),
              Draft("k2", "day_result", "thread", "2", "【第1天投票结果】\n白色的猫：6 票", notes=notes),
              Draft("k3", "receipt", "pm", "小明", "已收到")]  # fmt: skip
    service._commit(Effects(drafts=drafts), "test", None)
    assert run(capsys, "reject", "3")[0] == 0
    code, out, err = run(capsys, "review", "2-3")
    assert code == 0, err
    assert "#1 " not in out and "#2 [待审]" in out and "#3 [已放弃]" in out
    text, _, below = out.partition(GM_ONLY)
    assert "白色的猫：6 票" in text and "天神" not in text.split("#2 ")[1]
    assert "（只给你看）计入（按天神的记录，不按帖子）：阿杰 投 白色的猫（天神补记）" in below
    code, out, _ = run(capsys, "review", "#9")
    assert code == 0 and "没有编号为 #9 的公告或私信" in out
    code, _, err = run(capsys, "review", "x")
    assert code == 2 and "「x」不是编号" in err
