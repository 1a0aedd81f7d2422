"""``shenshi check-config`` fails what would break the game, naming the option and the cause:
a vote thread or role thread that does not exist, a role mix the ruleset does not deal, a
forum that cannot be reached, the other engine, a rejected password (also in ``run``)."""

from __future__ import annotations

from shenshi.cli import main
from tests.commands.conftest import CHINESE, ROLES, write_config


def check(capsys, *argv: str) -> tuple[int, str]:
    code = main(["check-config", *argv])
    out, err = capsys.readouterr()
    return code, out + err


def test_roles_may_be_chinese_and_the_mix_is_the_rulesets(sandbox, capsys) -> None:
    _, url, tid, folder = sandbox
    write_config(folder, url, tid, roles=CHINESE)
    code, out = check(capsys)
    assert code == 0, out
    assert (
        "正常 身份配置：2×杀手、1×占卜者、1×束魂者、1×诅咒者、1×庇佑者、4×庶民，与 game6-10 的配置一致"
        in out
    )


def test_a_role_mix_the_ruleset_does_not_deal_fails(sandbox, capsys) -> None:
    _, url, tid, folder = sandbox
    write_config(folder, url, tid, roles=["seer", "seer", *ROLES[2:]])  # a seer instead of a killer
    code, out = check(capsys, "--offline")
    assert code == 1
    assert "有误 身份配置：多了：1×占卜者；缺少：1×杀手" in out


def test_an_unknown_role_name_lists_the_rulesets_roles(sandbox, capsys) -> None:
    _, url, tid, folder = sandbox
    write_config(folder, url, tid, roles=["预言家", *ROLES[1:]])
    code, out = check(capsys, "--offline")
    assert code == 2 and out.count("\n") == 1
    assert '"预言家" 不是 game6-10 的角色' in out and "seer 占卜者" in out


def test_a_vote_thread_that_does_not_exist_fails(sandbox, capsys) -> None:
    _, url, _, folder = sandbox
    write_config(folder, url, 999)
    code, out = check(capsys)
    assert code == 1
    assert (
        "有误 投票帖：帖子 999 不存在（或已删除）：请检查帖子编号" in out
    )


def test_role_threads_that_do_not_exist_fail(sandbox, capsys) -> None:
    forum, url, tid, folder = sandbox
    seer = forum.create_thread("神的使者", 3, "先知功能树洞", "技能请回复在本帖。")
    write_config(folder, url, tid, roles=CHINESE,
                 extra=f'role_threads = {{ "占卜者" = {seer.tid}, seer_b = 998 }}')  # fmt: skip
    code, out = check(capsys)
    assert code == 1, out
    assert f"正常 [game] role_threads: seer 占卜者：帖子 {seer.tid}" in out
    assert "有误 [game] role_threads: seer_b：帖子 998 不存在" in out


def test_a_forum_that_cannot_be_reached_names_the_option(sandbox, capsys) -> None:
    _, _, tid, folder = sandbox
    write_config(folder, "http://127.0.0.1:9/", tid)
    code, out = check(capsys)
    assert code == 1
    assert "有误 登录：[forum] base_url: 连接被拒绝（http://127.0.0.1:9/）" in out
    assert "Traceback" not in out


def test_the_other_engine_is_named(sandbox, capsys) -> None:
    _, url, tid, folder = sandbox
    write_config(folder, url, tid, engine="discuz")
    code, out = check(capsys)
    assert code == 1
    assert (
        '有误 登录：[forum] engine: 这看起来是 phpwind 论坛，不是 Discuz!：请设 engine = "phpwind"'
        in out
    )


def test_a_rejected_password_is_one_line_in_check_config_and_in_run(
    sandbox, capsys, monkeypatch
) -> None:
    _, url, tid, folder = sandbox
    write_config(folder, url, tid)
    monkeypatch.setenv("SHENSHI_CHECK_TEST_PASSWORD", "not-the-password")
    code, out = check(capsys)
    assert (
        code == 1
        and "有误 登录：[forum] password: 论坛拒绝了" in out
    )
    assert "not-the-password" not in out
    code = main(["run", "--once"])
    out, err = capsys.readouterr()
    assert (
        code == 2 and err.startswith("shenshi 出错：[forum] password: ") and err.count("\n") == 1
    )
    assert "Traceback" not in out + err and "not-the-password" not in out + err
