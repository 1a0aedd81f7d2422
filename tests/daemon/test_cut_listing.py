"""A board listing cut short (Discuz HTML, no mobile API; phpwind) is no proof that a thread has
no new reply: the poll is incomplete, the phase clock holds, and the vote does not close
without a ballot that was in time (issue 22: ``阿杰：8 票 … 老王 自动退出游戏`` instead of
``阿杰：9 票``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import httpx
import pytest

from shenshi.adapters.sandbox.seed import PLAYERS, player_name
from shenshi.bootstrap import bootstrap
from shenshi.daemon.cycle import Cycle
from shenshi.rulesets.base import Phase
from tests.daemon.helpers import START, alerts, announcements
from tests.daemon.test_service_sandbox import sandbox_game

LISTING = {"discuz": b"mod=forumdisplay", "phpwind": b"/thread.php"}
FIRST_ROW = {"discuz": b'<tbody id="normalthread_', "phpwind": b'<tr class="tr3">'}


class CutListing(httpx.BaseTransport):
    """The forum, except that while ``armed`` its board listing stops just before the first
    thread's row (a connection cut mid-page): the list looks empty, not absent."""

    def __init__(self, engine: str) -> None:
        self.inner = httpx.HTTPTransport()
        self.engine = engine
        self.armed = False
        self.cuts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if not (self.armed and LISTING[self.engine] in request.url.raw_path):
            return response
        body = response.read()
        at = body.find(FIRST_ROW[self.engine])
        if at < 0:
            return response
        self.cuts += 1
        return httpx.Response(response.status_code, headers=response.headers, content=body[:at], request=request)


@pytest.mark.parametrize("engine", ["discuz", "phpwind"])
def test_a_cut_listing_does_not_close_the_vote_without_a_ballot_in_time(tmp_path, monkeypatch, engine) -> None:
    with sandbox_game(tmp_path, monkeypatch, engine=engine) as (clock, forum, tid, service):
        transport = CutListing(engine)
        service.close()
        config = replace(service.config, forum=replace(service.config.forum, use_mobile_api="no"))
        client = httpx.Client(transport=transport, follow_redirects=False)
        service = bootstrap(config, clock=clock, sleep=lambda s: clock.advance(seconds=s), client=client)
        service.adapter.login()
        service.start()
        name = {n: player_name(n, engine) for n in PLAYERS}
        cycle = Cycle(service, clock)
        clock.set(START + timedelta(minutes=5))
        cycle.run()
        clock.set(START + timedelta(hours=24, minutes=1))
        cycle.run()  # the night passes (nobody acted): its post opens the day
        cycle.run()
        assert service.referee.state.phase is Phase.DAY
        clock.advance(hours=13)
        cycle.run()  # the vote's opening post goes out: ballots count from it
        clock.advance(minutes=1)
        for n in PLAYERS:
            if n not in ("阿杰", "老王"):
                forum.post(name[n], tid, "投票：阿杰", at=clock())
                clock.advance(minutes=1)
        forum.post(name["阿杰"], tid, "投票：老王", at=clock())
        clock.advance(minutes=1)
        cycle.run()  # eight ballots read
        assert service.referee.state.phase is Phase.DAY
        deadline = service.next_deadline()
        forum.post(name["老王"], tid, "投票：阿杰", at=deadline - timedelta(minutes=5))  # in time
        clock.set(deadline + timedelta(minutes=1))
        transport.armed = True
        cycle.run()
        assert transport.cuts, "the listing was not cut"
        assert service.referee.state.phase is Phase.DAY, "the vote closed on a cut listing"
        assert any(a.kind == "unparsable_page" and "版块 3" in a.message and "不完整" in a.message for a in alerts(service))
        transport.armed = False
        clock.advance(minutes=2)
        cycle.run()
        assert service.referee.state.phase is not Phase.DAY
        tallies = [a.text for a in announcements(service) if "票" in a.text and a.kind != "receipt"]
        assert any(f"{name['阿杰']}：9 票" in t for t in tallies), tallies
        assert not any(f"{name['老王']} 自动退出" in t for t in tallies), tallies
        service.close()
