"""``shenshi substitute``: the newcomer's forum account is looked up first; the substitution is
announced (a proposal in the outbox) where the ruleset publishes it."""

from __future__ import annotations

from shenshi.cli import main
from tests.commands.conftest import write_config


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_account_the_forum_does_not_know_is_refused(sandbox, capsys) -> None:
    forum, url, tid, folder = sandbox
    write_config(folder, url, tid)
    code, out, err = run(capsys, "substitute", "小明", "替补不存在")
    assert code == 2 and out == ""
    assert (
        err
        == "shenshi 出错：论坛上没有名为 替补不存在 的账号：检查拼写，或让他先注册；没有改动\n"
    )
    forum.add_user("替补甲", "Sub_pw1")
    code, out, err = run(capsys, "substitute", "小明", "替补甲")
    assert code == 0, err
    assert out.startswith("替补甲 接替 小明 的座位，立即生效：从现在起由 替补甲 替 小明 的座位投票和行动") and "已提出公告 #1" in out
    code, out, _ = run(capsys, "review")
    assert "#1 [待审] 替补公告 → 帖子" in out and "小明 退出，由替补 替补甲 接替。" in out


def test_offline_or_unreachable_says_the_account_was_not_checked(sandbox, capsys) -> None:
    _, _, tid, folder = sandbox
    write_config(folder, "http://127.0.0.1:9/", tid)
    code, out, err = run(capsys, "substitute", "小明", "替补乙")
    assert code == 0, err
    assert "无法检查论坛账号：[forum] base_url: 连接被拒绝" in out
    code, out, _ = run(capsys, "substitute", "阿杰", "替补丙", "--offline")
    assert code == 0 and "没有检查论坛账号（--offline）" in out
