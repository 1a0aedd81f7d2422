"""The console on its own (issue 23): what the GM needs after each action is on the page (a
button, a prefilled form), nothing sends him back to the terminal. Over HTTP (Starlette's test
client) on the mid-game of :mod:`tests.console.conftest`."""

from __future__ import annotations

import re
from types import SimpleNamespace

from markupsafe import escape

from shenshi.console import views
from shenshi.rulesets.registry import find_ruleset
from shenshi.store.outbox import AnnouncementState
from tests.console.test_app import by_state, form, note
from tests.daemon.helpers import announcements, at


def block(html: str, ident: int) -> str:
    return html.split(f'id="a{ident}"')[1].split("</article>")[0]


def test_the_target_is_the_threads_title(client, game) -> None:
    with game.store.transaction() as uow:
        uow.evidence.set_cursor(game.game_id, "title:2", {"subject": "【第3期】投票专用帖"})
    result = next(a for a in announcements(game) if a.kind == "night_result")
    html = client.get("/g/1/review").text
    assert "《【第3期】投票专用帖》（投票帖）" in block(html, result.id)
    assert "帖子 2<" not in block(html, result.id)


def test_the_publication_time_is_labelled_on_the_forums_clock(client) -> None:
    html = client.get("/g/1/review").text
    assert 'type="datetime-local"' not in html
    assert "发布时间（论坛时间 Asia/Shanghai；空着＝现在）" in html
    assert 'placeholder="2026-12-02 20:30"' in html  # the format, by example


def test_a_publication_time_typed_as_shown_is_taken(client, key, game, clock) -> None:
    a = by_state(game, AnnouncementState.PROPOSED)[0]  # (proposed at 20:30, the mid-game's now)
    clock.advance(minutes=10)  # typed, not the time of the click
    page = note(client, form(client, key, f"/g/1/announcements/{a.id}/published", at="2026-12-02 20:30"))
    assert f"#{a.id} 已记为发布于 2026-12-02 20:30" in page


def test_an_edited_card_is_marked_with_its_diff(client, key, game) -> None:
    receipt = by_state(game, AnnouncementState.PROPOSED)[0]
    before = receipt.text
    note(client, form(client, key, f"/g/1/announcements/{receipt.id}/edit", text=before + "\n天神补充的一行"))
    card = block(client.get("/g/1/review").text, receipt.id)
    assert "已修改" in card and "你的修改（和提出时相比）" in card
    assert '<span class="dadd">+ 天神补充的一行</span>' in card
    assert 'class="ddel"' not in card  # nothing was taken out


def test_a_reject_is_undone_from_the_note_and_from_the_card(client, key, game) -> None:
    a = by_state(game, AnnouncementState.PROPOSED)[0]
    page = note(client, form(client, key, f"/g/1/announcements/{a.id}/reject", back="/g/1/review"))
    assert f'action="/g/1/announcements/{a.id}/restore"' in page and f"撤销放弃 #{a.id}" in page
    assert "shenshi" not in page.split('class="note"')[1].split("</div>")[0]  # no command to type
    page = note(client, form(client, key, f"/g/1/announcements/{a.id}/restore", back="/g/1/review"))
    assert f"#{a.id} 待审" in page
    assert next(x for x in announcements(game) if x.id == a.id).state is AnnouncementState.PROPOSED
    note(client, form(client, key, f"/g/1/announcements/{a.id}/reject"))
    rejected = client.get("/g/1/review?state=rejected").text
    assert f'id="a{a.id}"' in rejected and "撤销放弃" in block(rejected, a.id)
    kinds = [e["kind"] for e in game.drylog.entries() if e["state"] == "gm"]
    assert kinds == ["reject", "restore", "reject"]


def test_review_filters_by_state_and_step(client, key, game) -> None:
    everything = client.get("/g/1/review?state=all").text
    assert '<option value="第1夜"' in everything
    night = client.get("/g/1/review?state=all&step=第1夜").text
    result = next(a for a in announcements(game) if a.kind == "night_result")
    assert f'id="a{result.id}"' in night
    nothing = client.get("/g/1/review?state=sent").text
    assert "没有「已发送」的公告或私信" in nothing and "看待处理的" in nothing  # (said as the filter it is: newcomer4 G8)
    a = by_state(game, AnnouncementState.PROPOSED)[0]
    r = form(client, key, f"/g/1/announcements/{a.id}/reject", back="/g/1/review?state=all&step=第1夜")
    assert r.headers["location"].startswith("/g/1/review?state=all&step=") and "note=" in r.headers["location"]


def test_an_acknowledgement_is_undone_and_the_history_is_grouped_by_step(client, key, game) -> None:
    html = client.get("/g/1/alerts").text
    first = int(re.findall(r'id="alert(\d+)"', html)[0])
    page = note(client, form(client, key, "/g/1/alerts/ack", id=str(first), back="/g/1/alerts"))
    assert f"撤销确认 #{first}" in page and 'action="/g/1/alerts/unack"' in page
    history = client.get("/g/1/alerts?show=all").text
    assert "<h2>第1夜（" in history
    card = history.split(f'id="alert{first}"')[1].split("</article>")[0]
    assert "已确认" in card and "撤销确认" in card
    page = note(client, form(client, key, "/g/1/alerts/unack", id=str(first), back="/g/1/alerts"))
    assert f"已撤销确认：#{first}" in page and f'id="alert{first}"' in page


def test_alerts_speak_the_gms_words_and_show_each_evidence_once(client, game) -> None:
    from shenshi.daemon.status import build_status

    html = client.get("/g/1/alerts").text
    assert "not_a_player" not in html and "unknown_name" not in html
    with_evidence = [a for a in build_status(game).alerts if a.evidence is not None]
    assert with_evidence
    for a in with_evidence:
        card = html.split(f'id="alert{a.id}"')[1].split("</article>")[0]
        assert card.count(str(escape(a.evidence.label))) == 1, card


def test_the_corrections_are_the_rulesets_own(client, game) -> None:
    html = client.get("/g/1/corrections").text
    assert "override-extra-divination" in html and "override-answered" in html
    for werewolf in ("override-penalty", "override-send-off", "override-sheriff"):
        assert werewolf not in html
    ww = SimpleNamespace(ruleset=find_ruleset("werewolf"))
    forms = views.corrections_for(ww)  # type: ignore[arg-type]
    assert {"penalty", "send-off", "sheriff"} <= set(forms) and "extra-divination" not in forms
    assert set(views.corrections_for(SimpleNamespace(ruleset=find_ruleset("chess32")))) == set(views.COMMON)  # type: ignore[arg-type]


def test_a_correction_not_in_the_ruleset_is_refused(client, key) -> None:
    page = note(client, form(client, key, "/g/1/override", what="penalty", arg0="老王", arg1="3"))
    assert "没有执行：本局规则没有这种更正：penalty" in page


def test_players_are_picked_not_typed(client) -> None:
    html = client.get("/g/1/corrections").text
    ballot = html.split("override-ballot")[1].split("</form>")[0]
    assert '<select name="arg0"' in ballot and '<option value="老王"' in ballot
    # game6-10 has no abstention (RULES.md D-E, 不能弃权): the form does not offer it (N40)
    assert '<option value="弃权"' not in ballot.split('name="arg1"')[1]
    assert '<option value="老王"' in ballot.split('name="arg1"')[1]
    void = html.split("override-void")[1].split("</form>")[0]
    assert '<option value="kill"' in void and "杀" in void


def test_a_refused_form_keeps_what_the_gm_typed(client, key) -> None:
    r = form(client, key, "/g/1/override", what="execute", arg0="老王", reason="他自己认了", back="/g/1/corrections")
    page = note(client, r)
    assert "没有执行：" in page
    execute = page.split("override-execute")[1].split("</form>")[0]
    assert '<option value="老王" selected>' in execute and 'value="他自己认了"' in execute
    other = page.split("override-exit")[1].split("</form>")[0]
    assert "selected>" not in other  # only the form he sent


def test_the_corrections_made_are_listed(client, key) -> None:
    assert "还没有更正" in client.get("/g/1/corrections").text
    note(client, form(client, key, "/g/1/substitute", old="Tom_2", new="替补甲", uid="77"))
    made = client.get("/g/1/corrections").text.split("已做的更正（1）")[1].split("</section>")[0]
    assert "替补甲 接替 Tom_2" in made and "第1夜" in made


def test_the_timeline_names_causes_and_times_every_line(client) -> None:
    html = client.get("/g/1/timeline").text
    assert "出局：Rex（被杀）" in html
    assert "killer" not in html and "auto_exit" not in html
    lines = re.findall(r'<div class="result"><span class="when">([^<]+)</span>', html)
    assert lines and all(re.fullmatch(r"\d\d-\d\d \d\d:\d\d", t) for t in lines)


def test_the_activity_chart_has_day_labels_and_a_legend(client) -> None:
    html = client.get("/g/1/players").text
    assert 'class="day">12-01<' in html and "红色名字" in html


def test_chess32_declares_its_days_minimum() -> None:
    chess = find_ruleset("chess32")
    assert chess.profile(chess.default_config()).clock.day_minimum == 5
    game6 = find_ruleset("game6-10")
    assert game6.profile(game6.default_config()).clock.day_minimum is None


def test_a_stale_post_is_approved_late_from_its_card(tmp_path, key) -> None:
    """A PM whose deadline has passed (a 遗言期限 notice: wolfadv W12) is refused by a plain
    approve; its card offers 「仍然补发」, which approves it late. (A vote-opening post whose
    round closed first is withdrawn instead: gmattack A7.)"""
    from datetime import datetime, timedelta

    from starlette.testclient import TestClient

    from shenshi.console.app import create_app
    from shenshi.console.auth import COOKIE
    from shenshi.console.desk import Desk
    from tests.daemon.helpers import lover_left

    game, clock, notice = lover_left(tmp_path)
    clock.set(datetime.fromisoformat(notice.notes["deadline"]) + timedelta(minutes=3))
    with TestClient(create_app(Desk([game]), key), follow_redirects=False) as client:
        client.cookies.set(COOKIE, key.cookie)
        html = client.get("/g/1/review").text
        assert "仍然补发" in block(html, notice.id)
        page = note(client, form(client, key, f"/g/1/announcements/{notice.id}/approve", late="1", back="/g/1/review"))
        assert f"#{notice.id} 已批准" in page
    game.close()


def vote_open(game, clock) -> None:
    """The night's result posted by the GM; day 1's vote opens."""
    from tests.console.conftest import feed
    from tests.daemon.helpers import post

    result = next(a for a in announcements(game) if a.kind == "night_result")
    feed(game, post("神的使者", result.text, 24.6))
    clock.set(at(37))
    game.tick()


def test_an_alert_carries_its_fix_as_a_prefilled_form(client, key, game, clock) -> None:
    from tests.console.conftest import feed
    from tests.daemon.helpers import post

    vote_open(game, clock)
    feed(game, post("小明", "投票：老望", 37.1))  # a misspelt name: an alert, no ballot
    html = client.get("/g/1/alerts").text
    card = next(c for c in html.split("<article")[1:] if "名字对不上玩家" in c)
    fix = card.split('action="/g/1/hint"')[1].split("</form>")[0]
    assert 'name="command" value="override"' in fix and 'name="arg" value="ballot"' in fix
    assert '<option value="老王" selected>老王（建议）</option>' in fix  # the suggestion chosen
    assert "shenshi override" not in card  # a form, not a command to type
    ident = int(re.search(r'id="alert(\d+)"', card).group(1))
    r = client.post("/g/1/hint", data={"csrf": key.csrf, "command": "override", "arg": ["ballot", "小明", "老王"],
                                       "back": "/g/1/alerts"})  # fmt: skip
    page = note(client, r)
    assert "已记录：小明 的选票改记为 老王" in page
    assert "名字对不上玩家" not in page.split("<main>")[1].split('class="note"')[0]
    now = client.get("/g/1/").text
    assert "小明" in now.split("table class=\"tally\"")[1].split("</table>")[0]
    closed = client.get("/g/1/alerts").text.split(f'id="alert{ident}"')[1].split("</article>")[0]
    assert "已解决" in closed and 'action="/g/1/hint"' not in closed  # the fix closed it: no step left
    history = client.get("/g/1/alerts?show=all").text.split(f'id="alert{ident}"')[1].split("</article>")[0]
    assert "已解决" in history


def test_a_hint_the_console_cannot_run_is_refused(client, key) -> None:
    r = client.post("/g/1/hint", data={"csrf": key.csrf, "command": "run", "back": "/g/1/"})
    assert "没有执行：这一步不能在这里执行：run" in note(client, r)
