"""A new GM's mistakes with the commands (issue 12): names typed with a trailing space or in
full-width letters, a wrong name, an action in Chinese, a wrong id among good ones, a command
on an announcement already out, an edited announcement, ``status | head``. Each gets one clear
line in Chinese saying what to do, never a traceback, and nothing is stored by a refusal."""

from __future__ import annotations

import io
import json
import sys

import pytest

from shenshi.cli import main
from tests.commands.conftest import cli


def _service():  # type: ignore[no-untyped-def]
    from shenshi.bootstrap import bootstrap, config_from_args

    service = bootstrap(config_from_args(None), forum=False)
    service.start()
    return service


def _propose(*drafts: tuple[str, str, str, str, str]) -> None:
    """Announcements in the outbox, as the daemon proposes them: (key, kind, where, to, text)."""
    from shenshi.daemon.announce import Draft
    from shenshi.daemon.referee import Effects

    service = _service()
    try:
        service._commit(Effects(drafts=[Draft(*d) for d in drafts]), "test", None)
    finally:
        service.close()


def _alerts(*kinds: str) -> None:
    service = _service()
    try:
        with service.store.transaction() as uow:
            for i, kind in enumerate(kinds):
                uow.alerts.add(service.game_id, f"a{i}", kind, f"提醒 {i}", subject="老王")
    finally:
        service.close()


def _events() -> list[str]:
    service = _service()
    try:
        return [e.payload for e in service.store.stream_events(service.game_id)]
    finally:
        service.close()


@pytest.mark.parametrize("written", ["老王 ", " 老王\u3000", "@老王", "老王"])
def test_a_name_with_spaces_or_an_at_sign_is_the_player(cfg, capsys, written: str) -> None:
    code, out, err = cli(capsys, "override", "exit", written)
    assert code == 0, err
    assert out.startswith("已记录：老王 退出游戏，没有替补")


def test_a_name_in_full_width_letters_or_another_case_is_the_player(cfg, capsys) -> None:
    code, out, err = cli(capsys, "override", "exit", "ｒｅｘ")
    assert code == 0, err
    assert out.startswith("已记录：Rex 退出游戏，没有替补")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("override", "exit", "老五"), "玩家「老五」不是本局玩家（相近：老王）；本局玩家："),
        (("override", "ballot", "Lily", "老王"), "投票人「Lily」不是本局玩家（相近：Lily99）"),
        (("override", "ballot", "老王", "kk大侠"), "投票对象「kk大侠」不是本局玩家（相近：kk_大侠）"),
        (("override", "void", "老王", "砍"), "「砍」不是本局的行动；可用：束魂（bind）、"),
        (("substitute", "Lily", "替补甲", "--offline"), "离开的玩家「Lily」不是本局玩家（相近：Lily99）"),
    ],
)
def test_a_wrong_name_or_action_is_refused_with_the_close_ones(cfg, capsys, argv, says) -> None:
    before = _events()
    code, out, err = cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"shenshi 出错：{says}") and err.count("\n") == 1, err
    assert err.rstrip().endswith("没有改动")
    assert _events() == before


def test_an_action_may_be_written_in_chinese(cfg, capsys) -> None:
    """``void 老王 杀`` means the kill (the refusal is the setup's, not an unknown action)."""
    code, _, err = cli(capsys, "override", "void", "老王 ", "杀")
    assert code == 2 and "作废 老王 本阶段的「杀」：开局前不能这样做" in err


def test_a_correction_with_too_few_arguments_shows_an_example(cfg, capsys) -> None:
    code, _, err = cli(capsys, "override", "ballot", "老王")
    assert code == 2
    assert "override ballot 需要 2 个参数，收到 1 个" in err
    assert "shenshi override ballot 老王 kk_大侠" in err


def test_a_substitutes_name_is_kept_without_its_spaces(cfg, capsys) -> None:
    code, out, err = cli(capsys, "substitute", "Rex ", "替补甲\u3000", "--uid", "99")
    assert code == 0, err
    assert out.startswith("替补甲 接替 Rex 的座位")


def test_ack_takes_the_good_ids_and_names_the_wrong_one(cfg, capsys) -> None:
    _alerts("unknown_name", "not_a_command")
    code, out, err = cli(capsys, "ack", "1", "7")
    assert code == 2
    assert out.startswith("已确认 1 条提醒：#1；还有 1 条未确认")
    assert err == "shenshi 出错：没有提醒 #7（shenshi status 列出未确认的提醒）\n"
    code, _, err = cli(capsys, "ack")
    assert code == 2 and "或 --all" in err


def test_a_reject_and_an_acknowledgement_can_be_taken_back(cfg, capsys) -> None:
    _propose(("k1", "night_result", "thread", "2", "【第1夜结果】"), ("k2", "receipt", "pm", "小明", "已收到"))
    assert cli(capsys, "reject", "1-2")[0] == 0
    code, out, err = cli(capsys, "reject", "--undo", "2")
    assert code == 0 and out.startswith("#2 待审（回执）"), err
    code, out, _ = cli(capsys, "review")
    assert "#2 [待审]" in out and "#1 [待审]" not in out
    code, _, err = cli(capsys, "reject", "--undo", "2")  # not rejected any more
    assert code == 2 and err == "shenshi 出错：#2：没有被放弃（待审），无需撤销\n"
    assert cli(capsys, "approve", "2")[0] == 0

    _alerts("unknown_name", "not_a_command")
    assert cli(capsys, "ack", "--all")[0] == 0
    code, out, err = cli(capsys, "ack", "--undo", "2", "9")
    assert code == 2 and out.startswith("已撤销确认：#2")
    assert err == "shenshi 出错：没有提醒 #9（shenshi status 列出未确认的提醒）\n"
    code, out, _ = cli(capsys, "status")
    assert "#2" in out and "#1 " not in out.split("提醒")[-1]
    code, _, err = cli(capsys, "ack", "--undo", "--all")
    assert code == 2 and "--undo 需要提醒编号" in err
    log = (cfg / "dry.jsonl").read_text(encoding="utf-8")
    assert '"restore"' in log and '"unack"' in log
    # the log names the command the GM typed, never one that does not exist (shenshi restore)
    said = [json.loads(line)["text"] for line in log.splitlines() if json.loads(line)["kind"] == "restore"]
    assert said and all(t.startswith("shenshi reject --undo：#2") for t in said), said
    assert "shenshi restore" not in log and "shenshi restore" not in (cfg / "dry.log").read_text(encoding="utf-8")


def test_outbox_refusals_say_why_and_the_others_go_through(cfg, capsys) -> None:
    _propose(("k1", "night_result", "thread", "2", "【第1夜结果】"), ("k2", "receipt", "pm", "小明", "已收到"))
    assert cli(capsys, "published", "1")[0] == 0
    code, out, err = cli(capsys, "approve", "1", "2", "99")
    assert code == 2
    assert out.startswith("#2 已批准（回执）")
    assert err.splitlines() == [
        "shenshi 出错：#1：已记为你手动发布，不能再批准；要更正，请在论坛上编辑或另发",
        "shenshi 出错：#99：没有这条公告/私信（shenshi review 列出待审的，shenshi review --all 列出全部）",
    ]
    code, _, err = cli(capsys, "edit", "1", "--text", "新的")
    assert code == 2 and err.startswith("shenshi 出错：#1：已记为你手动发布，不能再修改")
    code, _, err = cli(capsys, "published", "x1")
    assert code == 2 and "「x1」不是编号" in err


def test_an_edited_approved_announcement_needs_a_new_approval(cfg, capsys) -> None:
    _propose(("k1", "receipt", "pm", "小明", "已收到"))
    assert cli(capsys, "approve", "1")[0] == 0
    code, out, _ = cli(capsys, "edit", "1", "--text", "已收到：今晚占卜 Rex")
    assert code == 0
    assert "#1 已修改（待审）（改过的内容要重新批准）" in out
    assert "手动发私信 #1" in out  # dry-run, and a PM: not "发帖"
    code, out, _ = cli(capsys, "edit", "1", "--text", "已收到：今晚占卜 Rex")
    assert code == 0 and "内容没有变化" in out
    code, _, err = cli(capsys, "edit", "1", "--file", "absent.txt")
    assert code == 2 and "--file absent.txt：读不了" in err


def test_status_says_what_happens_next_and_which_pms_wait(cfg, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # one line each
    _propose(("k1", "receipt", "pm", "小明", "已收到"), ("k2", "receipt", "pm", "老王", "已收到"))
    code, out, _ = cli(capsys, "status")
    assert code == 0
    assert "要你手动发出的私信：2 条 #1-2" in out
    assert "守护进程开启第1夜" in out
    assert "它没在运行的话，请运行 shenshi run" in out  # it has never polled


def test_status_in_review_mode_gives_the_approve_command(cfg, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    config = cfg / "shenshi.toml"
    config.write_text(config.read_text(encoding="utf-8") + 'mode = "review"\n', encoding="utf-8")
    _propose(("k1", "receipt", "pm", "小明", "已收到"), ("k2", "receipt", "pm", "老王", "已收到"))
    out = cli(capsys, "status")[1]
    assert "待审：2 条（shenshi review 看内容）；私信：shenshi approve 1-2" in out


def test_status_into_a_closed_pipe_is_no_traceback(cfg, monkeypatch) -> None:
    """``shenshi status | head -3``: the reader leaves early; the command ends quietly."""

    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["status"]) == 0


def test_a_correction_while_the_daemon_runs_says_to_restart_it(cfg, capsys) -> None:
    import os
    import socket
    from datetime import timedelta

    assert "守护进程" not in cli(capsys, "override", "exit", "老王")[1]  # no daemon: nothing to say
    service = _service()
    running = f"{socket.gethostname()}:{os.getppid()}:a1b2c3"  # another live process of this host
    try:
        with service.store.transaction() as uow:  # a ``shenshi run`` of this host holds the game
            uow.leases.take(service.game_id, running, ttl=timedelta(minutes=15), at=service.clock())
    finally:
        service.close()
    code, out, _ = cli(capsys, "override", "exit", "Rex")
    assert code == 0
    assert "守护进程（shenshi run）正在运行：它在下一轮轮询开始时读到这次更正" in out


def test_check_config_names_the_option_when_the_second_login_fails(sandbox) -> None:
    """check-config logs in again to read the forum; that failure is explained like the first
    (a saved session of the other engine let the first one pass)."""
    from shenshi.adapters import errors
    from shenshi.config import load_config
    from shenshi.daemon.checks import check_forum
    from tests.commands.conftest import write_config

    _, base_url, tid, folder = sandbox
    write_config(folder, base_url, tid)

    class Refusing:
        own_uid = ""  # not logged in yet (check_forum logs in itself)

        def login(self) -> None:
            raise errors.PasswordRejected("密码错误", url=base_url)

    first = next(check_forum(load_config(folder / "shenshi.toml"), Refusing()))  # type: ignore[arg-type]
    assert not first.ok
    assert first.detail.startswith("[forum] password: 论坛拒绝了")


def test_status_shows_who_has_not_signed_in_while_the_window_is_open(tmp_path) -> None:
    from datetime import timedelta

    from shenshi.adapters.sandbox.clock import ManualClock
    from shenshi.bootstrap import bootstrap
    from shenshi.commands.status import render
    from shenshi.daemon.status import build_status
    from tests.daemon.helpers import START, config, post

    service = bootstrap(config(tmp_path), clock=ManualClock(START), forum=False)
    service.start()
    try:
        with service.store.transaction() as uow:  # 老王 and Rex reply to the player list
            uow.evidence.record(service.game_id, [(post("老王", "签到", 1), None), (post("Rex", "到", 2), None)])
        status = build_status(service, now=START + timedelta(hours=3))
        assert status.sign_in is not None
        assert set(status.sign_in.signed) == {"老王", "Rex"} and len(status.sign_in.missing) == 8
        text = "\n".join(render(status, 200))
        assert "签到（在帖子 2 回帖，12-02 20:00 截止；之后未签到的会被提议自动退出）：已签到 2/10" in text
        missing = text.split("未签到：")[1].split("\n\n")[0]
        assert "小明" in missing and "老王" not in missing
        assert build_status(service, now=START + timedelta(hours=25)).sign_in is None  # closed
    finally:
        service.close()


def test_status_groups_the_announcements_that_do_not_hold_the_game(cfg, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    _propose(*((f"s{i}", "signin", "thread", "2", f"玩家{i} 未签到") for i in range(3)))
    out = cli(capsys, "status")[1]
    assert "尚未发布的未签到：#1-3：手动发帖 #1-3（会被自动认出），或 shenshi published 1-3" in out
    assert out.count("未签到：#") == 1


def test_a_joint_unit_is_named_in_words() -> None:
    from shenshi.daemon.gm_text import refusal, who_name

    assert (who_name("killers"), who_name("老王")) == ("杀手方", "老王")
    over = refusal("the game is over (civilians won): only GM corrections are accepted")
    assert over == "游戏已经结束（好人方 获胜），不再受理"


def test_every_announcement_kind_the_daemon_proposes_has_words() -> None:
    """``shenshi review`` and ``status`` name what an announcement is (never ``vote_opened``)."""
    import re
    from pathlib import Path

    from shenshi.daemon.announce import kind_words
    from shenshi.wording import Templates

    daemon = Path(__file__).parents[2] / "shenshi" / "daemon"
    source = "".join(p.read_text(encoding="utf-8") for p in daemon.glob("*.py"))
    kinds = set(re.findall(r'Draft\(\s*[\w.()", ]*?"([a-z_]+)",\s*"(?:thread|pm)"', source))
    kinds |= {"lurk_warning", "lurk_replaced", "vote_opened", "signin", "lurk"}
    assert "vote_opened" in kinds and "night_deadlines" in kinds
    missing = sorted(k for k in kinds if kind_words(Templates(), k, "g1:day1:public") == k)
    assert not missing, missing


def test_review_says_what_to_do_with_the_ids_listed(cfg, capsys) -> None:
    _propose(("k1", "receipt", "pm", "小明", "已收到"))
    out = cli(capsys, "review")[1]
    assert out.rstrip().endswith(
        "下一步：手动发帖/发私信 #1（会被自动认出），或 shenshi published 1；不要的：shenshi reject ID"
    )


def test_review_all_names_only_what_still_waits(cfg, capsys) -> None:
    """Issue 20: ``review --all`` ended with ``approve 1-33`` including items already sent;
    its footer names only the announcements that still wait for the GM."""
    _propose(("k1", "night_result", "thread", "2", "【第1夜结果】"), ("k2", "receipt", "pm", "小明", "已收到"),
             ("k3", "receipt", "pm", "Rex", "已收到"))  # fmt: skip
    assert cli(capsys, "published", "1")[0] == 0
    assert cli(capsys, "reject", "3")[0] == 0
    out = cli(capsys, "review", "--all")[1]
    assert "#1 [已手动发布]" in out and "#3 [已放弃]" in out
    footer = out.rstrip().splitlines()[-1]
    assert footer == "下一步：手动发帖/发私信 #2（会被自动认出），或 shenshi published 2；不要的：shenshi reject ID"
    assert cli(capsys, "published", "2")[0] == 0
    assert cli(capsys, "review", "--all")[1].rstrip().splitlines()[-1] == "下一步：列出的都已发布或放弃；无需操作"


def test_the_dry_run_log_gets_a_proposal_or_an_alert_once(tmp_path) -> None:
    """Every tick after the sign-in window proposes the missed sign-ins again (idempotent in
    the outbox); the log records them once, not once a poll."""
    from datetime import timedelta

    from shenshi.adapters.sandbox.clock import ManualClock
    from shenshi.bootstrap import bootstrap
    from tests.daemon.helpers import START, config

    clock = ManualClock(START)
    service = bootstrap(config(tmp_path), clock=clock, forum=False)
    service.start()
    try:
        for hours in (25, 25.5, 26):
            clock.set(START + timedelta(hours=hours))
            service.tick()
        entries = service.drylog.entries()
    finally:
        service.close()
    proposed = [e for e in entries if e["kind"] == "signin" and not e["alert"]]
    alerts = [e for e in entries if e["kind"] == "signin" and e["alert"]]
    assert len(proposed) == len(alerts) == 10  # nobody signed in: one each, once


@pytest.mark.parametrize(
    ("key", "phase", "number", "first", "late"),
    [
        ("g1:day1:vote_open", "night", 2, "night", True),  # day 1's notice during night 2
        ("g1:day2:vote_open", "day", 2, "night", False),  # today's
        ("g1:night1:public", "dawn", 1, "night", False),  # the result waiting to be published
        ("g1:night1:deadlines", "day", 2, "day", True),  # chess32: day 1, night 1, day 2
        ("g1:day2.r1:public", "day", 2, "night", False),
        ("g1:receipt:5:0", "night", 3, "night", False),  # no step: a PM
        ("g1:day2:vote_open", "over", 2, "night", True),  # the game is over
        ("g1:day2:public", "over", 2, "night", False),  # its final result
    ],
)
def test_a_post_of_an_earlier_step_is_not_approved_unasked(key, phase, number, first, late) -> None:
    from types import SimpleNamespace

    from shenshi.commands._common import check_current
    from shenshi.errors import UserError
    from shenshi.rulesets.base import Phase

    service = SimpleNamespace(
        referee=SimpleNamespace(state=SimpleNamespace(phase=Phase(phase), number=number)),
        ruleset=SimpleNamespace(first_phase=Phase(first)),
    )
    kind = SimpleNamespace(value="user" if "receipt" in key else "thread")
    announcement = SimpleNamespace(id=33, key=key, destination_kind=kind, notes=None)
    if late:
        with pytest.raises(UserError, match="已过时：不发就 shenshi reject 33；一定要发：shenshi approve 33 --late"):  # noqa: E501
            check_current(service, announcement)
    else:
        check_current(service, announcement)


def test_refusals_with_one_reason_are_one_line(cfg, capsys) -> None:
    _propose(*((f"k{i}", "receipt", "pm", "小明", f"已收到 {i}") for i in range(4)))
    assert cli(capsys, "reject", "1-3")[0] == 0
    code, out, err = cli(capsys, "approve", "1-4")
    assert code == 2 and out.startswith("#4 已批准（回执）")
    assert err == "shenshi 出错：#1-3：已放弃（shenshi reject），不能再批准；要恢复：shenshi reject --undo ID\n"


def test_the_gm_writes_a_pm_from_the_command_line(cfg, capsys, tmp_path) -> None:
    """``shenshi message``: the words after the player's name, or a file; dry-run says to send it
    by hand; a file that cannot be read, two sources, or someone outside the game are refused."""
    code, out, _ = cli(capsys, "message", "小明", "今晚", "24:00", "截止")
    assert code == 0 and "已写好给 小明 的私信 #1（11 字）" in out and "手动" in out, out
    letter = tmp_path / "letter.txt"
    letter.write_text("第一行\n第二行\n", encoding="utf-8")
    code, out, _ = cli(capsys, "message", "老王", "--file", str(letter))
    assert code == 0 and "#2" in out
    code, _, err = cli(capsys, "message", "老王", "你好", "--file", str(letter))
    assert code == 2 and "只能选一种" in err
    code, _, err = cli(capsys, "message", "老王", "--file", "absent.txt")
    assert code == 2 and "--file absent.txt：读不了" in err and "没有发出" in err
    code, _, err = cli(capsys, "message", "路人丙", "你好")
    assert code == 2 and "不是本局玩家" in err
