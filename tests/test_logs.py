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
