"""The console's pages and actions over plain HTTP (Starlette's TestClient): what each page
shows, that every action is the CLI's operation (the same store change, the same dry-run log
line, marked 控制台), and that player text comes out escaped."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from shenshi.console.app import create_app
from shenshi.console.auth import COOKIE, CSRF_FIELD
from shenshi.console.desk import Desk
from shenshi.store.outbox import AnnouncementState
from tests.console.conftest import midgame
from tests.daemon.helpers import announcements

PAGES = ["/g/1/", "/g/1/review", "/g/1/review?all=1", "/g/1/alerts", "/g/1/players",
         "/g/1/timeline", "/g/1/corrections"]  # fmt: skip


def form(client, key, path: str, **fields) -> object:
    """POST a form with the CSRF token, as the page's forms do."""
    return client.post(path, data={CSRF_FIELD: key.csrf, **fields})


def note(client, response) -> str:
    """The page an action redirected to, with what the action said."""
    assert response.status_code == 303, response.text
    return client.get(response.headers["location"]).text


def by_state(game, state: AnnouncementState) -> list:
    return [a for a in announcements(game) if a.state is state]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_with_the_header_counts(client, game, path) -> None:
    r = client.get(path)
    assert r.status_code == 200
    html = r.text
    assert "《test game》" in html and "第1夜（已结算，待公布）" in html
    proposed = len(by_state(game, AnnouncementState.PROPOSED))
    assert re.search(rf'title="待审">{proposed}<', html)
    assert 'id="alert-count"' in html


def test_a_single_game_opens_at_its_page(client) -> None:
    r = client.get("/")
    assert r.status_code == 303 and r.headers["location"] == "/g/1/"


def test_now_renders_the_status_model(client) -> None:
    html = client.get("/g/1/").text
    assert "等待你发布" in html and "第1夜结果" in html
    assert "已结算、尚未公布的出局（只有你知道）：Rex" in html
    assert '<meta http-equiv="refresh" content="60">' in html  # it follows the game by itself
    assert "http-equiv" not in client.get("/g/1/review").text  # never under the GM's typing


def test_the_review_queue_shows_destination_text_and_evidence_first_seen_and_edited(client, game) -> None:
    html = client.get("/g/1/review").text
    result = next(a for a in announcements(game) if a.kind == "night_result")
    block = html.split(f'id="a{result.id}"')[1].split("</article>")[0]
    assert "第1夜结果" in block and "帖子 2" in block
    assert "夜行者 杀 Rex → PM" in block  # the evidence, labelled
    assert "http://forum.example/" in block  # with its forum link
    # the seer's PM: as first seen (it counts) and as edited later
    assert "首次看到（算数的版本）" in block and "占卜 老王" in block
    assert "第 1 次编辑" in block and "占卜 月光" in block
    assert "私信给 小明" in html  # a PM's destination


def test_player_text_is_escaped_everywhere(client) -> None:
    for path in PAGES:
        html = client.get(path).text
        assert "<script>alert" not in html, path
    review = client.get("/g/1/review").text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in review
    assert "<strong>粗</strong>" in review  # BBCode rendered, after escaping


def test_approve_is_the_cli_operation_and_is_logged_as_the_consoles(client, key, game) -> None:
    a = by_state(game, AnnouncementState.PROPOSED)[0]
    page = note(client, form(client, key, f"/g/1/announcements/{a.id}/approve", back="/g/1/review"))
    assert f"#{a.id} 已批准" in page and "演练模式" in page
    assert next(x for x in announcements(game) if x.id == a.id).state is AnnouncementState.APPROVED
    [entry] = [e for e in game.drylog.entries() if e["kind"] == "approve"]
    assert entry["where"] == "天神（控制台）" and entry["text"] == f"shenshi approve（控制台）：#{a.id} 已批准"


def test_edit_reject_and_published(client, key, game) -> None:
    first, second, third = by_state(game, AnnouncementState.PROPOSED)[:3]
    note(client, form(client, key, f"/g/1/announcements/{first.id}/edit", text="新的内容\r\n第二行"))
    note(client, form(client, key, f"/g/1/announcements/{second.id}/reject"))
    page = note(client, form(client, key, f"/g/1/announcements/{third.id}/published", at=""))
    assert f"#{third.id} 已记为发布于" in page
    found = {a.id: a for a in announcements(game)}
    assert found[first.id].text == "新的内容\n第二行"
    assert found[second.id].state is AnnouncementState.REJECTED
    assert found[third.id].published_at is not None
    kinds = [e["kind"] for e in game.drylog.entries() if e["state"] == "gm"]
    assert kinds == ["edit", "reject", "published"]


def test_a_refused_action_says_why_and_changes_nothing(client, key, game) -> None:
    a = by_state(game, AnnouncementState.PROPOSED)[0]
    note(client, form(client, key, f"/g/1/announcements/{a.id}/reject"))
    page = note(client, form(client, key, f"/g/1/announcements/{a.id}/published"))
    assert "没有执行：" in page and "已放弃" in page
    page = note(client, form(client, key, f"/g/1/announcements/{a.id}/edit", text="   "))
    assert "新内容是空的" in page
    page = note(client, form(client, key, "/g/1/announcements/9999/approve"))
    assert "没有执行：#9999" in page
    page = note(client, form(client, key, "/g/1/announcements/1/published", at="2999-01-01T00:00"))
    assert "在未来" in page


def test_acknowledge_one_alert_then_all(client, key, game) -> None:
    html = client.get("/g/1/alerts").text
    ids = [int(x) for x in re.findall(r'id="alert(\d+)"', html)]
    assert len(ids) > 1 and "非玩家的指令" in html
    page = note(client, form(client, key, "/g/1/alerts/ack", id=str(ids[0]), back="/g/1/alerts"))
    assert f"已确认 1 条提醒：#{ids[0]}" in page and f'id="alert{ids[0]}"' not in page
    page = note(client, form(client, key, "/g/1/alerts/ack", all="1", back="/g/1/alerts"))
    assert "没有未确认的提醒" in page and 'id="alert-count"' not in page


def test_substitute_and_override_through_the_forms(client, key, game) -> None:
    page = note(client, form(client, key, "/g/1/substitute", old="Tom_2", new="替补甲", uid="77",
                             back="/g/1/corrections"))  # fmt: skip
    assert "替补甲 接替 Tom_2 的座位" in page
    players = client.get("/g/1/players").text
    assert "替补甲" in players and "接替 Tom_2" in players
    page = note(client, form(client, key, "/g/1/override", what="cancel-execution"))
    assert "没有执行：今天不处决任何人" in page  # not at dawn: the rules refuse, nothing stored
    page = note(client, form(client, key, "/g/1/override", what="exit", arg0=""))
    assert "没有执行：" in page and "参数是空的" in page and "empty" not in page
    page = note(client, form(client, key, "/g/1/override", what="nonsense"))
    assert "本局规则没有这种更正：nonsense" in page
    entries = [e["kind"] for e in game.drylog.entries() if e["state"] == "gm"]
    assert entries == ["substitute"]


def test_roles_are_not_on_the_page_until_asked(client, game) -> None:
    html = client.get("/g/1/players").text
    for role in ("杀手", "占卜者", "束魂者", "诅咒者", "庇佑者", "庶民"):
        assert role not in html
    r = client.get("/g/1/players/1/role")
    assert r.status_code == 200 and r.json() == {"seat": 1, "name": "夜行者", "role": "杀手"}
    assert r.headers["cache-control"] == "no-store"
    assert client.get("/g/1/players/99/role").status_code == 404


def test_the_activity_chart_draws_the_thresholds(client) -> None:
    html = client.get("/g/1/players").text
    assert html.count('<svg class="chart"') == 10
    assert 'class="signin"' in html and 'class="lurk"' in html and "签到截止" in html


def test_the_timeline_names_each_step_and_its_deaths(client) -> None:
    html = client.get("/g/1/timeline").text
    assert "第1夜" in html and "出局：Rex" in html


def test_an_unknown_game_is_404(client) -> None:
    assert client.get("/g/7/").status_code == 404
    assert client.get("/g/7/players/1/role").status_code == 404


def test_no_approve_all_in_dry_run(client) -> None:
    html = client.get("/g/1/review").text
    assert "全部批准" not in html and "复制原文" in html


@pytest.fixture
def review_game(tmp_path, clock):
    svc = midgame(tmp_path / "review", clock, mode="review")
    yield svc
    svc.close()


def test_approve_every_proposal_at_once(review_game, key) -> None:
    game = review_game
    with TestClient(create_app(Desk([game]), key), follow_redirects=False) as client:
        client.cookies.set(COOKIE, key.cookie)
        _approve_all(client, key, game)


def _approve_all(client, key, game) -> None:
    html = client.get("/g/1/review").text
    proposed = by_state(game, AnnouncementState.PROPOSED)
    assert f"全部批准（{len(proposed)} 条待审）" in html
    assert f'data-confirm="批准这 {len(proposed)} 条' in html  # asked before approving many
    # naming what goes out (newcomer3 N30: a public result among receipts), public posts first
    confirm = html.split('data-confirm="批准这 ')[1].split('"')[0]
    result = next(a for a in proposed if a.kind == "night_result")
    assert confirm.split("：", 1)[1].startswith(f"第1夜结果（帖子） #{result.id}"), confirm
    assert "回执" in confirm
    ids = [str(a.id) for a in proposed]
    r = client.post("/g/1/announcements/approve", data={CSRF_FIELD: key.csrf, "id": ids, "back": "/g/1/review"})
    assert f"#{ids[0]} 已批准" in note(client, r)
    assert not by_state(game, AnnouncementState.PROPOSED)
    [entry] = [e for e in game.drylog.entries() if e["kind"] == "approve"]
    assert entry["text"].startswith(f"shenshi approve（控制台）：#{ids[0]} #{ids[1]}")
