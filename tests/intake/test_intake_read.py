"""read_post / read_pm / read_post_edit as the daemon calls them: uids, threads, receipts."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from shenshi.intake import (
    CountedBallot,
    GameContext,
    PhaseFacts,
    PlayerInfo,
    read_pm,
    read_post,
    read_post_edit,
)
from shenshi.intake.context import ROLE_THREAD, SIGNIN_THREAD
from shenshi.records import EditMark, Post, PrivateMessage

T = datetime(2026, 11, 21, 14, 0, tzinfo=UTC)  # 22:00 forum time
PLAYERS = (
    PlayerInfo("小明", "3", "seer", "civilians"),
    PlayerInfo("阿杰", "4", "commoner", "civilians"),
    PlayerInfo("Lily99", "8", "killer", "killers"),
    PlayerInfo("夜行者", "9", "killer", "killers"),
    PlayerInfo("老王", "7", "commoner", "civilians", alive=False),
)
NIGHT = PhaseFacts(kind="night", number=1)
DAY = PhaseFacts(kind="day", number=1, vote_round=1)
CTX = GameContext("game5", PLAYERS, gm_uids=frozenset({"2"}), phase=NIGHT)


def pm(text: str, sender: str = "小明", uid: str = "3", t: datetime = T) -> PrivateMessage:
    return PrivateMessage("1", "c", sender, uid, "神的使者", "2", t, text)


def post(text: str, author: str = "小明", uid: str = "3", tid: str = "2") -> Post:
    return Post(tid, "100", 5, author, uid, T, text)


def test_identity_is_the_uid_not_the_display_name() -> None:
    # A renamed account keeps its uid; someone else using the name is not the player.
    assert read_pm(CTX, pm("占卜 阿杰", sender="小明改名了", uid="3")).commands[0].actor == "小明"
    impostor = read_pm(CTX, pm("占卜 阿杰", sender="小明", uid="99"))
    assert [a.kind for a in impostor.alerts] == ["not_a_player"] and not impostor.commands


def test_gm_texts_are_never_input() -> None:
    assert read_pm(CTX, pm("杀 阿杰", sender="神的使者", uid="2")).empty
    assert read_post(replace(CTX, phase=DAY), post("投票格式：投票：玩家名", "神的使者", "2")).empty


def test_accepted_pm_gets_a_receipt() -> None:
    result = read_pm(CTX, pm("[b]占卜 阿杰[/b]"))
    assert result.commands[0].action == "divine"
    assert result.commands[0].extra["t"] == "2026-11-21T22:00:00"
    assert [r.to for r in result.receipts] == ["小明"]
    assert result.receipts[0].text.startswith("已收到：今晚占卜 阿杰")


def test_rejected_pm_gets_a_receipt_saying_why() -> None:
    result = read_pm(CTX, pm("占卜 阿姐"))
    assert [a.kind for a in result.alerts] == ["unknown_name"]
    assert result.alerts[0].suggestions == ("阿杰",)
    text = result.receipts[0].text
    assert text.startswith("未受理：占卜 阿姐") and "阿杰" in text


def test_receipts_can_be_switched_off() -> None:
    quiet = replace(CTX, receipts=False)
    assert read_pm(quiet, pm("占卜 阿杰")).receipts == ()
    assert read_pm(quiet, pm("占卜 老王")).receipts == ()


def test_short_declaration_is_accepted_and_flagged_in_the_receipt() -> None:
    result = read_pm(CTX, pm("杀 阿杰\n宣言：就是你了", sender="Lily99", uid="8"))
    assert result.commands[0].extra["declaration_chars"] == 4
    assert [a.kind for a in result.alerts] == ["declaration_short"]
    assert "提醒" in result.receipts[0].text


def test_questions_and_greetings_are_for_the_gm_to_read() -> None:
    for text in ("GM 你好！", "请问今晚还能改占卜吗？", "谢谢天神"):
        result = read_pm(CTX, pm(text))
        assert (result.commands, result.receipts) == ((), ()), text
        assert [a.kind for a in result.alerts] == ["not_a_command"], text
        assert text in result.alerts[0].message


def test_a_command_asked_as_a_question_is_not_taken() -> None:
    result = read_pm(CTX, pm("占卜 阿杰？"))
    assert result.commands == ()
    assert [a.kind for a in result.alerts] == ["conditional_action"]
    assert "不能受理" in result.receipts[0].text


def test_vote_in_quote_block_of_a_pm_is_ignored() -> None:
    result = read_pm(CTX, pm("[quote]杀 阿杰[/quote]\n谢谢", sender="Lily99", uid="8"))
    assert result.commands == () and [a.kind for a in result.alerts] == ["not_a_command"]
    assert "阿杰" not in result.alerts[0].message


def test_signin_thread_reply_is_a_sign_in() -> None:
    ctx = replace(CTX, threads={"50": SIGNIN_THREAD})
    result = read_post(ctx, post("阿杰报到！", "阿杰", "4", tid="50"))
    assert [(c.action, c.actor) for c in result.commands] == [("sign_in", "阿杰")]


def test_day_ballot_respects_earlier_ballots() -> None:
    ctx = replace(
        CTX, phase=replace(DAY, ballots={"小明": (CountedBallot("阿杰", T - timedelta(hours=1)),)})
    )
    assert [a.kind for a in read_post(ctx, post("投票：Lily99")).alerts] == ["vote_immutable"]
    assert read_post(ctx, post("投票：阿杰")).empty


def test_werewolf_role_thread_by_tid() -> None:
    players = (
        PlayerInfo("月影", "1", "seer", "village"),
        PlayerInfo("灰狼", "2", "werewolf", "wolves"),
    )
    ctx = GameContext("werewolf", players, role_threads={"77": frozenset({"月影"})}, phase=NIGHT)
    mine = read_post(ctx, Post("77", "1", 2, "月影", "1", T, "【预言】灰狼\n确定"))
    assert [(c.action, c.target, c.extra.get("confirm")) for c in mine.commands] == [
        ("divine", "灰狼", True)
    ]
    other = read_post(ctx, Post("77", "2", 3, "灰狼", "2", T, "【杀人】月影"))
    assert [a.kind for a in other.alerts] == ["wrong_channel"]
    assert ctx.threads.get("77", ROLE_THREAD) == ROLE_THREAD


def test_edit_that_changes_a_vote_is_shown_with_both_versions() -> None:
    ctx = replace(CTX, phase=DAY)
    first = post("投票：阿杰")
    revised = replace(first, text="投票：Lily99", edited=EditMark("小明", T + timedelta(minutes=5)))
    result = read_post_edit(ctx, first, revised)
    assert [a.kind for a in result.alerts] == ["edited_vote"]
    assert "投票：阿杰" in result.alerts[0].message and "投票：Lily99" in result.alerts[0].message
    assert not result.commands
    assert read_post_edit(ctx, first, replace(first, text="投票：阿杰\n补充理由")).empty


def test_a_stranger_s_command_in_a_role_thread_is_an_alert() -> None:
    """Issue 12: a non-player posting a command in a 功能树洞 raises an alert, as a PM does."""
    players = (PlayerInfo("月影", "1", "seer", "village"),)
    ctx = GameContext("werewolf", players, role_threads={"77": frozenset({"月影"})}, phase=NIGHT)
    out = read_post(ctx, Post("77", "9", 4, "路人甲", "13", T, "【预言】月影"))
    assert [a.kind for a in out.alerts] == ["not_a_player"] and not out.commands
    assert "路人甲" in out.alerts[0].message
    assert read_post(ctx, Post("77", "10", 5, "路人甲", "13", T, "围观一下")).empty


def test_a_ballot_in_the_discussion_thread_is_quoted_with_whom_it_names() -> None:
    """The GM reads which ballot was posted in the wrong thread: 「投票 阿杰」, not the bare
    command word (issue 20's newcomer read 「投票」)."""
    from shenshi.intake.context import DISCUSSION_THREAD

    ctx = replace(CTX, phase=DAY, threads={"60": DISCUSSION_THREAD})
    [alert] = read_post(ctx, post("投票：阿杰", tid="60")).alerts
    assert alert.kind == "vote_wrong_thread" and "「投票 阿杰」" in alert.message, alert.message


def test_an_edit_that_changes_the_second_lover_is_shown() -> None:
    """gmattack2 F5: 「【金箭】小红 kk_大侠」 edited to 「【金箭】小红 Rex」 after its phase closed was
    not shown to the GM (only the first name was compared)."""
    players = (PlayerInfo("丘比", "1", "cupid", "village"), PlayerInfo("小红", "2", "villager", "village"),
               PlayerInfo("kk_大侠", "3", "villager", "village"), PlayerInfo("Rex", "4", "werewolf", "wolves"))  # fmt: skip
    ctx = GameContext("werewolf", players, role_threads={"77": frozenset({"丘比"})}, phase=replace(NIGHT, number=0))
    first = Post("77", "1", 2, "丘比", "1", T, "【金箭】小红 kk_大侠")
    revised = replace(first, text="【金箭】小红 Rex", edited=EditMark("丘比", T + timedelta(hours=5)))
    assert [a.kind for a in read_post_edit(ctx, first, revised).alerts] == ["edited_vote"]
