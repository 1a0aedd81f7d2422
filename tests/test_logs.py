"""What the long-running commands log: no token of a URL, whoever logs it."""

from __future__ import annotations

import io
import logging

from shenshi.logs import command_logging


def test_tokens_in_any_logged_url_are_redacted() -> None:
    out = io.StringIO()
    with command_logging(verbose=1, stream=out):
        logging.getLogger("httpx").info(
            'HTTP Request: GET %s "HTTP/1.1 200 OK"',
            "http://bbs.example/forum.php?mod=post&formhash=24d65264&sid=Zq81x&tid=7",
        )
        try:
            raise RuntimeError("http://bbs.example/login.php?action=quit&verify=b0bd0165&verifyhash=77aa")
        except RuntimeError:
            logging.getLogger("shenshi.daemon").warning("cycle failed", exc_info=True)
    text = out.getvalue()
    assert "HTTP Request: GET" in text and "tid=7" in text and "cycle failed" in text
    for secret in ("24d65264", "Zq81x", "b0bd0165", "77aa"):
        assert secret not in text


def test_under_systemd_each_record_is_one_journal_entry_with_its_priority_and_game() -> None:
    from shenshi.logs import game_context

    out = io.StringIO()
    with command_logging(stream=out, journal=True):
        with game_context("第2局"):
            logging.getLogger("shenshi.daemon.cycle").warning("the forum could not be read")
            try:
                raise RuntimeError("boom")
            except RuntimeError:
                logging.getLogger("shenshi.daemon.cycle").info("a cycle failed", exc_info=True)
        logging.getLogger("shenshi.daemon.fleet").info("outside any game")
    lines = out.getvalue().splitlines()
    assert lines[0] == "<4>WARNING shenshi.daemon.cycle: [第2局] the forum could not be read"
    assert lines[1] == "<6>INFO shenshi.daemon.cycle: [第2局] a cycle failed"
    assert lines[2].startswith("    Traceback") and lines[-2].startswith("    RuntimeError: boom")
    assert lines[-1] == "<6>INFO shenshi.daemon.fleet: outside any game"
    assert not any(line[:1].isdigit() for line in lines)  # no time stamp: journald keeps its own
