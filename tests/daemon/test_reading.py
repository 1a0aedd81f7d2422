"""Reading the forum: one bad byte spoils one post, not the page (decoded by the page's own
charset, the bad bytes replaced, the GM told which post); a page cut short is fetched again and
never stored."""

from __future__ import annotations

from datetime import timedelta

import httpx

from shenshi.adapters.text import decode_page
from shenshi.bootstrap import bootstrap
from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from shenshi.store.records import EvidenceKind
from tests.daemon import test_service_sandbox
from tests.daemon.helpers import START, alerts, open_vote_on_forum
from tests.daemon.test_service_polls import night_one

world = test_service_sandbox.world  # the fixture: a game6-10 game on the sandbox, live mode

SPOILED = "今天天气不错".encode()


class Rewriting(httpx.BaseTransport):
    """The forum's answers, passed through ``rewrite(bytes) -> bytes``."""

    def __init__(self, rewrite) -> None:
        self.inner = httpx.HTTPTransport()
        self.rewrite = rewrite

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        content = response.read()
        return httpx.Response(response.status_code, headers=response.headers, content=self.rewrite(content),
                              request=request)  # fmt: skip


def _through(service, clock, rewrite):
    service.close()
    again = bootstrap(service.config, clock=clock, sleep=lambda s: clock.advance(seconds=s),
                      client=httpx.Client(transport=Rewriting(rewrite), follow_redirects=False))  # fmt: skip
    again.adapter.login()
    again.start()
    return again


def test_a_utf8_page_with_one_bad_byte_loses_only_that_post(world) -> None:
    clock, forum, tid, service = world
    night_one(clock, forum, service)
    service.poll()
    assert service.referee.state.phase is Phase.DAY
    service = _through(
        service, clock, lambda page: page.replace(SPOILED, SPOILED[:4] + b"\xff" + SPOILED[5:])
    )
    clock.advance(hours=13, minutes=5)
    open_vote_on_forum(service, clock)  # ballots count from its opening post
    forum.post("Tom_2", tid, "投票：阿杰", at=clock())
    spoiled = forum.post("白色的猫", tid, "今天天气不错，投票：老王", at=clock())
    forum.post("Rex", tid, "投票：阿杰", at=clock())
    clock.advance(minutes=2)
    Cycle(service, clock).run()
    ballots = {(b.voter, b.target) for b in service.referee.state.ballots}
    assert {("Tom_2", "阿杰"), ("Rex", "阿杰"), ("白色的猫", "老王")} <= ballots  # not mojibake
    [alert] = [a for a in alerts(service) if a.kind == "undecodable_bytes"]
    assert f"pid={spoiled.pid}" in alert.message or str(spoiled.pid) in alert.message
    stored = [
        e
        for e in service.store.stream_evidence(service.game_id, kind=EvidenceKind.POST)
        if "投票：老王" in e.text
    ]
    assert "\ufffd" in stored[0].text  # the evidence keeps what the page showed
    service.close()


def test_decoding_replaces_bad_bytes_only() -> None:
    page = '<html><head><meta charset="utf-8"></head><body>小明 投票：阿杰 \xff 老王</body></html>'
    data = page.encode("utf-8").replace("\xff".encode(), b"\xff")
    text = decode_page(data)
    assert "小明 投票：阿杰 \ufffd 老王" in text
    gbk = '<meta charset="gbk">祈禱 誠'.encode("gbk") + b"\x81"
    assert decode_page(gbk).startswith('<meta charset="gbk">祈禱 誠')


def test_a_page_cut_short_is_fetched_again_and_never_stored(world) -> None:
    clock, forum, tid, service = world
    cuts = []

    def cut_once(page: bytes) -> bytes:  # the thread (the mobile API's JSON) cut once
        if b'"postlist"' in page and not cuts:
            cuts.append(1)
            return page[: page.index("签到".encode()) + 3]
        return page

    service = _through(service, clock, cut_once)
    clock.set(START + timedelta(minutes=5))
    forum.post("Tom_2", tid, "签到", at=clock())
    clock.advance(minutes=1)
    assert Cycle(service, clock).run().polled
    assert cuts  # the thread page came cut short once …
    posts = [e.text for e in service.store.stream_evidence(service.game_id, kind=EvidenceKind.POST)]
    assert "签到" in posts  # … and was read again whole
    assert not [a for a in alerts(service) if a.kind == "unparsable_page"]
    service.close()
