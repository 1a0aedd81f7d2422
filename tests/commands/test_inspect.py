"""``shenshi inspect``: the JSON shapes of the issue, and one line plus exit 2 on a bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_thread_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "inspect", "thread", "--engine", "discuz", str(FIXTURES / "discuz/x3.5/viewthread_p3.html"), "--now", "2026-11-29T18:42:12+08:00")
    assert code == 0
    found = json.loads(out)
    assert (found["page"], found["pages"]) == (3, 7)
    edited = next(p for p in found["posts"] if p["pid"] == "96")
    assert edited["floor"] == 28 and edited["author_uid"] == "3"
    assert edited["edited"] == {"by": "小明", "at": "2026-11-29T18:39:00+08:00"}
    assert found["posts"][0]["quotes"] == [{"author": "白色的猫", "pid": "75", "text": "喵～ 白色的猫来了。我觉得阿杰跳得太快了，先记一笔。"}]
    assert all(p["edited"] is None for p in found["posts"] if p["pid"] != "96")


def test_inbox_and_conversation_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "inspect", "inbox", "--engine", "phpwind", str(FIXTURES / "phpwind/8.7/pm_inbox_unread.html"), "--now", "2026-11-29 18:50")
    assert code == 0
    rows = json.loads(out)["conversations"]
    assert rows[0] == {"id": "38", "partner": "阿杰", "partner_uid": "4", "unread": True, "last_at": "2026-11-29T18:49:00+08:00", "count": None}
    code, out, _ = run(capsys, "inspect", "conversation", "--engine", "discuz", str(FIXTURES / "discuz/x3.5/api_mypm_view_touid11.json"), "--now", "2026-11-29T18:42:12+08:00")
    messages = json.loads(out)["messages"]
    assert [m["sender"] for m in messages] == ["月光", "月光", "神的使者"]
    assert set(messages[0]) == {"id", "sender", "sender_uid", "sent_at", "text"}


def test_unparseable_file_gives_one_line_and_nonzero_exit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "inspect", "inbox", "--engine", "discuz", str(FIXTURES / "discuz/x3.5/viewthread_p3.html"))
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and "cannot parse" in err


def test_message_page_says_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "inspect", "thread", "--engine", "phpwind", str(FIXTURES / "phpwind/8.7/thread_404_nonexistent_tid.html"))
    assert code == 2 and "NotFound" in err and "帖子ID非法" in err
