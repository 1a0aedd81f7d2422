"""The real adapters against the sandbox forum over loopback HTTP: one contract suite, every site.

Parametrised over Discuz! X3.5 (HTML and the mobile JSON API), phpwind 8.7 in UTF-8 and phpwind
8.7 in GBK (no charset configured: the pages say it). The forum and the adapter share one
:class:`ManualClock`; the adapter's ``sleep`` advances it, so pacing, back-off and flood waits take
no real time. Request budgets are counted twice: by the adapter and by the sandbox server.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sandbox_helpers import START, client, discuz_login, phpwind_login, post_form

from shenshi.adapters import errors
from shenshi.adapters.base import ForumAdapter, ForumSettings, make_adapter
from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve
from shenshi.adapters.sandbox.seed import BOARD_FID, GM_NAME, GM_PASSWORD
from shenshi.records import InboxCursor, ThreadCursor

SITES = {
    "discuz-html": ("discuz", "utf-8", "no"),
    "discuz-api": ("discuz", "utf-8", "yes"),
    "phpwind": ("phpwind", "utf-8", "no"),
    "phpwind-gbk": ("phpwind", "gbk", "no"),
}
FID = str(BOARD_FID)


@dataclass
class Site:
    """One sandbox forum on loopback and what it takes to drive a real adapter against it."""

    forum: SandboxForum
    clock: ManualClock
    base_url: str
    use_mobile_api: str
    slept: list[float] = field(default_factory=list)
    adapters: list[Any] = field(default_factory=list)

    @property
    def engine(self) -> str:
        return self.forum.engine

    def sleep(self, seconds: float) -> None:
        """The adapter's injected sleep: nothing waits, the shared clock moves on."""
        self.slept.append(seconds)
        self.clock.advance(seconds=max(seconds, 0.0))

    def adapter(self, **overrides: Any) -> Any:
        """A real adapter for this site, logged in as the GM (``overrides``: ForumSettings fields)."""
        settings = ForumSettings(
            engine=self.engine, base_url=self.base_url, username=GM_NAME,
            password=overrides.pop("password", GM_PASSWORD), use_mobile_api=self.use_mobile_api,
            timeout=overrides.pop("timeout", 5.0), **overrides,
        )
        adapter = make_adapter(settings, clock=self.clock, sleep=self.sleep)
        self.adapters.append(adapter)
        adapter.login()
        return adapter

    def close(self) -> None:
        for adapter in self.adapters:
            adapter.http.client.close()

    def served(self) -> int:
        """Requests the sandbox has answered so far."""
        return len(self.forum.requests)

    def logins(self) -> int:
        """Login form submissions the sandbox has answered so far."""
        marker = "loginsubmit=yes" if self.engine == "discuz" else "login.php"
        return sum(1 for method, target in self.forum.requests if method == "POST" and marker in target)

    def name(self, player: str) -> str:
        """A player's account name as this engine stores it (phpwind lower-cases)."""
        return self.forum.user(player).name

    def per_page(self) -> int:
        return 20 if self.use_mobile_api == "yes" else 10

    def thread(self, posts: int, author: str = GM_NAME) -> int:
        """A game thread by ``author`` with ``posts`` posts in all, one minute apart."""
        thread = self.forum.create_thread(author, BOARD_FID, "【杀人游戏】第一局", "[b]第一局 开始[/b]\n投票格式：投票：玩家名")
        self.replies(thread.tid, posts - 1)
        return thread.tid

    def replies(self, tid: int, count: int, start: int = 0) -> list[int]:
        """``count`` player replies (the control API has no flood control), one minute apart."""
        players = [u.name for u in self.forum.users.values() if u.uid >= 3]
        pids = []
        for n in range(start, start + count):
            self.clock.advance(minutes=1)
            pids.append(self.forum.post(players[n % len(players)], tid, f"投票：{players[(n + 3) % len(players)]}\n第 {n} 条").pid)
        return pids


@pytest.fixture(params=list(SITES))
def site(request: pytest.FixtureRequest) -> Iterator[Site]:
    engine, charset, api = SITES[request.param]
    clock = ManualClock(START)
    forum = SandboxForum(engine, clock=clock, charset=charset)
    seed_demo(forum)
    with serve(forum) as base_url:
        site = Site(forum, clock, base_url, api)
        yield site
        site.close()


def _pid(site: Site, post_pid: int) -> str:
    """The pid an adapter reports for a stored post (a phpwind thread's first post is ``tpc``)."""
    post = site.forum.posts[post_pid]
    return "tpc" if site.engine == "phpwind" and post.first else str(post_pid)


# --------------------------------------------------------------------------- login


def test_login_learns_own_uid_and_name(site: Site) -> None:
    adapter = site.adapter()
    assert isinstance(adapter, ForumAdapter)
    assert (adapter.own_uid, adapter.own_name) == ("2", GM_NAME)
    assert site.logins() == 1


def test_wrong_password_is_login_failed(site: Site) -> None:
    with pytest.raises(errors.LoginFailed):
        site.adapter(password="not the password")


def test_captcha_on_login_says_what_to_do(site: Site) -> None:
    site.forum.faults.captcha(True, login=True, post=False)
    with pytest.raises(errors.CaptchaRequired) as caught:
        site.adapter()
    assert "exempt" in str(caught.value) and "cookies" in str(caught.value)
    assert site.logins() == 0  # it never sent the password into a captcha form


# --------------------------------------------------------------------------- reading threads


def test_read_whole_thread_then_quiet_polls(site: Site) -> None:
    tid = site.thread(posts=27)
    adapter = site.adapter()
    before, served = adapter.requests, site.served()
    delta = adapter.read_thread(str(tid))
    stored = site.forum.visible_posts(tid)
    assert [p.floor for p in delta.posts] == list(range(1, 28))
    assert [p.pid for p in delta.posts] == [_pid(site, p.pid) for p in stored]
    assert [p.author for p in delta.posts] == [site.forum.users[p.author_uid].name for p in stored]
    assert [p.author_uid for p in delta.posts] == [str(p.author_uid) for p in stored]
    assert [p.posted_at for p in delta.posts] == [p.posted_at.replace(microsecond=0) for p in stored]
    assert delta.posts[0].text == "第一局 开始\n投票格式：投票：玩家名"
    assert delta.posts[5].text == site.forum.posts[stored[5].pid].text
    pages = math.ceil(27 / site.per_page())
    assert adapter.requests - before == site.served() - served == pages
    cursor = ThreadCursor.from_json(delta.cursor.to_json())
    for _ in range(2):
        before = adapter.requests
        quiet = adapter.read_thread(str(tid), cursor)
        assert quiet.posts == () and not quiet.shrunk
        assert adapter.requests - before == 1  # only the incomplete last page, never a complete one
        cursor = quiet.cursor


@pytest.mark.parametrize("start", [17, 20])
@pytest.mark.parametrize("k", [1, 9, 10, 23])
def test_catching_up_k_posts_costs_at_most_one_page_more_than_they_need(site: Site, start: int, k: int) -> None:
    tid = site.thread(posts=start)
    adapter = site.adapter()
    cursor = adapter.read_thread(str(tid)).cursor
    new = site.replies(tid, k, start=start)
    before, served = adapter.requests, site.served()
    delta = adapter.read_thread(str(tid), cursor)
    assert [p.pid for p in delta.posts] == [str(pid) for pid in new]
    assert [p.floor for p in delta.posts] == list(range(start + 1, start + k + 1))
    assert adapter.requests - before == site.served() - served
    assert adapter.requests - before <= math.ceil(k / site.per_page()) + 1
    assert delta.cursor.floor == start + k


def test_poll_board_reads_only_threads_that_moved(site: Site) -> None:
    game, talk, quiet = site.thread(posts=12), site.thread(posts=3), site.thread(posts=2)
    adapter = site.adapter()
    cursors = {str(t): adapter.read_thread(str(t)).cursor for t in (game, talk, quiet)}
    new = site.replies(talk, 2)
    before = adapter.requests
    found = adapter.poll_board(FID, cursors)
    assert set(found) == {str(talk)}
    assert [p.pid for p in found[str(talk)].posts] == [str(pid) for pid in new]
    assert adapter.requests - before == 2  # the board, then the one page that moved


def test_a_quiet_poll_of_board_and_inbox_costs_at_most_two_requests(site: Site) -> None:
    game, talk = site.thread(posts=15), site.thread(posts=4)
    site.forum.send_pm("月光", GM_NAME, "占卜 夜行者")
    site.forum.send_pm(site.name("Lily99"), GM_NAME, "杀 老王")
    adapter = site.adapter()
    cursors = {str(t): adapter.read_thread(str(t)).cursor for t in (game, talk)}
    inbox = adapter.read_pms()
    assert len(inbox.messages) == 2
    cursors = {tid: ThreadCursor.from_json(c.to_json()) for tid, c in cursors.items()}
    stored = InboxCursor.from_json(inbox.cursor.to_json())
    for _ in range(2):
        site.clock.advance(minutes=5)
        before, served = adapter.requests, site.served()
        assert adapter.poll_board(FID, cursors) == {}
        quiet = adapter.read_pms(stored)
        assert quiet.messages == ()
        assert adapter.requests - before == site.served() - served <= 2


def test_list_board_gives_reply_counts_and_last_posts(site: Site) -> None:
    game = site.thread(posts=12)
    site.clock.advance(hours=1)
    talk = site.thread(posts=3, author="小明")
    adapter = site.adapter()
    rows = {row.tid: row for row in adapter.list_board(FID)}
    assert (rows[str(game)].replies, rows[str(talk)].replies) == (11, 2)
    last = site.forum.last_post(talk)
    assert rows[str(talk)].last_poster == site.forum.users[last.author_uid].name
    assert rows[str(talk)].last_post_at is not None
    assert abs(rows[str(talk)].last_post_at - last.posted_at) < timedelta(minutes=1)
    assert rows[str(talk)].author == "小明"


def _quote_as_player(site: Site, player: str, password: str, tid: int, pid: int, text: str) -> None:
    """A player quotes post ``pid`` through the forum's own quote form, over HTTP."""
    with client(site.base_url) as http:
        _quote_over(site, http, player, password, tid, pid, text)


def _quote_over(site: Site, http: httpx.Client, player: str, password: str, tid: int, pid: int, text: str) -> None:
    from shenshi.adapters import phpwind_parse

    if site.engine == "discuz":
        discuz_login(http, player, password)
        form = http.get(f"forum.php?mod=post&action=reply&fid={FID}&tid={tid}&repquote={pid}").text
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
        fields = {k: html.unescape(v) for k, v in fields.items()}
        answer = http.post(f"forum.php?mod=post&action=reply&fid={FID}&tid={tid}&extra=&replysubmit=yes",
                           data={**fields, "message": text})
        assert answer.status_code == 301
        return
    phpwind_login(http, site.name(player), password, site.forum.charset)
    ref = "tpc" if site.forum.posts[pid].first else str(pid)
    form = http.get(f"post.php?action=quote&fid={FID}&tid={tid}&pid={ref}&article=1")
    fields = phpwind_parse.form_fields(form.content)
    answer = post_form(http, "post.php?", {**fields, "atc_content": fields["atc_content"] + text, "ajax": "1"},
                       site.forum.charset)
    assert "success" in answer.text


def test_quotes_are_separated_from_the_authors_text(site: Site) -> None:
    tid = site.thread(posts=3)
    quoted = site.forum.visible_posts(tid)[1]
    site.clock.advance(minutes=1)
    _quote_as_player(site, "小明", "Player_pw1", tid, quoted.pid, "我不同意，投票：阿杰")
    adapter = site.adapter()
    last = adapter.read_thread(str(tid)).posts[-1]
    assert (last.author, last.text) == (site.name("小明"), "我不同意，投票：阿杰")
    (quote,) = last.quotes
    assert quote.author == site.forum.users[quoted.author_uid].name
    assert quote.pid == str(quoted.pid)
    assert quote.text.startswith(site.forum.posts[quoted.pid].text.split("\n")[0])
    assert "投票：阿杰" not in quote.text


def test_reread_pages_shows_an_edit_that_changed_no_reply_count(site: Site) -> None:
    tid = site.thread(posts=14)
    adapter = site.adapter()
    cursor = adapter.read_thread(str(tid)).cursor
    target = site.forum.visible_posts(tid)[11]  # floor 12, page 2
    author = site.forum.users[target.author_uid].name
    site.clock.advance(minutes=3)
    site.forum.edit_post(target.pid, "改票：阿杰", by=author)
    assert adapter.read_thread(str(tid), cursor).posts == ()  # edits are invisible to catch-up
    assert adapter.pages_of(12, 12) == [2]  # HTML pages, even when read_thread uses the API's 20
    (page,) = adapter.reread_pages(str(tid), adapter.pages_of(12, 12))
    edited = next(p for p in page.posts if p.pid == str(target.pid))
    assert edited.text == "改票：阿杰"
    assert edited.edited is not None and edited.edited.by == author
    assert edited.edited.at == site.clock().replace(second=0, microsecond=0)
    assert all(p.edited is None for p in page.posts if p.pid != str(target.pid))


def test_reread_of_no_pages_is_the_last_page(site: Site) -> None:
    """After a crash mid-send the daemon looks for its own post where it would be: the last page."""
    tid = site.thread(posts=23)
    adapter = site.adapter()
    pid = adapter.post_reply(str(tid), "【公告】第二天开始。")
    before = adapter.requests
    (page,) = adapter.reread_pages(str(tid), [])
    assert adapter.requests - before == 1
    assert (page.page, page.pages) == (3, 3)
    assert page.posts[-1].pid == pid and page.posts[-1].author_uid == adapter.own_uid


def test_deleted_thread_is_reported_not_raised(site: Site) -> None:
    tid = site.thread(posts=5)
    adapter = site.adapter()
    cursor = adapter.read_thread(str(tid)).cursor
    site.forum.delete_thread(tid)
    delta = adapter.read_thread(str(tid), cursor)
    assert delta.deleted and delta.posts == ()


def test_a_deleted_post_neither_hides_nor_repeats_new_ones(site: Site) -> None:
    tid = site.thread(posts=14)
    adapter = site.adapter()
    cursor = adapter.read_thread(str(tid)).cursor
    site.forum.delete_post(site.forum.visible_posts(tid)[3].pid)
    new = site.replies(tid, 2, start=20)
    delta = adapter.read_thread(str(tid), cursor)
    assert [p.pid for p in delta.posts] == [str(pid) for pid in new]
    # phpwind renumbers the floors after a deletion (reported); Discuz keeps them, with a gap.
    assert delta.shrunk == (site.engine == "phpwind")


# --------------------------------------------------------------------------- PMs


def test_read_pms_both_directions_with_the_cursor(site: Site) -> None:
    adapter = site.adapter()
    site.forum.send_pm("月光", GM_NAME, "占卜 夜行者", subject="夜间行动")
    site.clock.advance(minutes=1)
    site.forum.send_pm(site.name("Lily99"), GM_NAME, "杀 老王。杀人宣言：你第一天就在控场。", subject="杀人")
    site.clock.advance(minutes=1)
    first = adapter.read_pms()
    assert sorted((m.sender, m.text) for m in first.messages) == sorted(
        [("月光", "占卜 夜行者"), (site.name("Lily99"), "杀 老王。杀人宣言：你第一天就在控场。")])
    assert all(m.recipient == GM_NAME and m.recipient_uid == "2" for m in first.messages)
    cursor = InboxCursor.from_json(first.cursor.to_json())
    # The GM answers inside 月光's conversation, then 月光 writes again: both directions arrive.
    conversation = next(c for c in site.forum.conversations_of(GM_NAME) if c.partner_of(2) == site.forum.user("月光").uid)
    site.clock.advance(minutes=20)  # past flood control
    site.forum.reply_pm(GM_NAME, conversation.cid, "收到：夜行者 是好人。")
    site.clock.advance(minutes=1)
    site.forum.reply_pm("月光", conversation.cid, "谢谢")
    second = adapter.read_pms(cursor)
    assert [(m.sender, m.sender_uid, m.recipient, m.text) for m in second.messages] == [
        (GM_NAME, "2", "月光", "收到：夜行者 是好人。"),
        ("月光", str(site.forum.user("月光").uid), GM_NAME, "谢谢"),
    ]
    assert len({m.id for m in first.messages + second.messages}) == 4
    before = adapter.requests
    assert adapter.read_pms(InboxCursor.from_json(second.cursor.to_json())).messages == ()
    assert adapter.requests - before == 1


def test_a_long_conversation_is_read_to_its_first_message(site: Site) -> None:
    """Discuz opens a conversation on its newest page (10 a page): older pages are walked back."""
    sent = site.forum.send_pm("月光", GM_NAME, "第 0 条", subject="夜间行动")
    for n in range(1, 23):
        site.clock.advance(minutes=1)
        site.forum.reply_pm("月光" if n % 3 else GM_NAME, sent.cid, f"第 {n} 条")
    adapter = site.adapter()
    first = adapter.read_pms()
    assert [m.text for m in first.messages] == [f"第 {n} 条" for n in range(23)]
    site.clock.advance(minutes=1)
    site.forum.reply_pm("月光", sent.cid, "第 23 条")
    before = adapter.requests
    assert [m.text for m in adapter.read_pms(first.cursor).messages] == ["第 23 条"]
    assert adapter.requests - before == 2  # the inbox and the newest page only


def test_a_quiet_poll_reads_one_inbox_page_however_many_conversations(site: Site) -> None:
    """More conversations than an inbox page holds (Discuz 15, phpwind 20): quiet still costs one."""
    for n in range(24):
        name = f"旁观者{n}"
        site.forum.add_user(name, "Watcher_pw1")
        site.clock.advance(minutes=1)
        site.forum.send_pm(name, GM_NAME, f"请问能旁观吗？（{n}）", subject="旁观")
    adapter = site.adapter()
    first = adapter.read_pms()
    assert len(first.messages) == 24
    before = adapter.requests
    assert adapter.read_pms(first.cursor).messages == ()
    assert adapter.requests - before == 1
    site.clock.advance(minutes=1)
    oldest = min(site.forum.conversations.values(), key=lambda c: c.cid)  # on the last inbox page
    site.forum.reply_pm(GM_NAME, oldest.cid, "可以")
    site.clock.advance(minutes=1)
    site.forum.reply_pm("旁观者0", oldest.cid, "谢谢")
    before = adapter.requests
    assert [m.text for m in adapter.read_pms(first.cursor).messages] == ["可以", "谢谢"]
    assert adapter.requests - before == 2  # the first inbox page (it moved to the top) and it


def test_a_pm_the_gm_sent_comes_back_with_its_answer(site: Site) -> None:
    adapter = site.adapter()
    cursor = adapter.read_pms().cursor
    adapter.send_pm("小明", "请确认你的身份牌")
    site.clock.advance(minutes=1)
    mine = next(c for c in site.forum.conversations_of(GM_NAME))
    site.forum.reply_pm("小明", mine.cid, "确认，收到")
    found = adapter.read_pms(cursor)
    assert [(m.sender, m.recipient, m.text) for m in found.messages] == [
        (GM_NAME, "小明", "请确认你的身份牌"), ("小明", GM_NAME, "确认，收到")]


def test_reading_a_conversation_the_forum_then_shows_as_read_skips_nothing(site: Site) -> None:
    """Discuz marks a conversation read when it is viewed: the stored cursor decides, not the flag."""
    adapter = site.adapter()
    site.forum.send_pm("夜行者", GM_NAME, "杀 阿杰")
    lost = adapter.read_pms()  # read, then the daemon died before storing anything
    assert [m.text for m in lost.messages] == ["杀 阿杰"]
    rows = {c.partner: c for c in adapter.read_pms().conversations}
    assert rows["夜行者"].unread is False  # viewing it marked it read on the forum
    again = adapter.read_pms()  # the same (empty) cursor: the message is still delivered
    assert [m.text for m in again.messages] == ["杀 阿杰"]
    assert adapter.read_pms(again.cursor).messages == ()


def test_mark_read(site: Site) -> None:
    adapter = site.adapter()
    sent = site.forum.send_pm("月光", GM_NAME, "救 月光", subject="夜间行动")
    rows = adapter.read_pms().conversations
    site.clock.advance(minutes=1)
    site.forum.reply_pm("月光", sent.cid, "补充：今晚救我自己")  # unread again, not yet read
    assert site.forum.unread_count(GM_NAME) == 1
    before = adapter.requests
    adapter.mark_read([r.id for r in rows])
    if site.engine == "discuz":
        assert adapter.requests == before  # there is no mark-read call: viewing marks read
        assert site.forum.unread_count(GM_NAME) == 1
    else:
        assert adapter.requests - before == 1  # message.php?type=ajax&action=mark
        # The reply written inside the conversation is an inbox row of its own ("RE:"), as on
        # the real 8.7: still unread until it is marked too.
        assert site.forum.unread_count(GM_NAME) == 1
        adapter.mark_read([r.id for r in adapter.read_pms().conversations])
        assert site.forum.unread_count(GM_NAME) == 0


# --------------------------------------------------------------------------- writing


def test_post_reply_returns_the_new_pid(site: Site) -> None:
    tid = site.thread(posts=13)
    adapter = site.adapter()
    text = "【第一天结果】阿杰 得票 6 票，被放逐。\n天黑请闭眼。"
    pid = adapter.post_reply(str(tid), text)
    post = site.forum.posts[int(pid)]
    assert (post.tid, post.author_uid, post.text) == (tid, 2, text)
    assert site.forum.visible_posts(tid)[-1].pid == int(pid)


def test_characters_the_charset_cannot_hold_do_not_fail_a_post(site: Site) -> None:
    """An emoji on a GBK forum goes out as a character reference (the forum shows it); a
    UTF-8 phpwind keeps its own utf8mb3 habit of storing it as ????, but the post is made."""
    tid = site.thread(posts=2)
    adapter = site.adapter()
    pid = adapter.post_reply(str(tid), "【游戏结束】好人方获胜！🎉")
    stored = site.forum.posts[int(pid)].text
    expected = {"discuz": "🎉", "phpwind": "????"}[site.engine] if site.forum.charset != "gbk" else "&#127881;"
    assert stored == "【游戏结束】好人方获胜！" + expected
    assert adapter.send_pm("月光", "恭喜🎉") is not None or site.engine == "phpwind"


def test_send_pm_by_name_and_lookup_uid(site: Site) -> None:
    adapter = site.adapter()
    assert adapter.lookup_uid("小明") == str(site.forum.user("小明").uid)
    assert adapter.lookup_uid("Tom_2") == str(site.forum.user("Tom_2").uid)  # phpwind stores tom_2
    result = adapter.send_pm("月光", "收到：占卜 夜行者 的结果是【好人】。")
    conversation = site.forum.conversation_with(GM_NAME, "月光") if site.engine == "discuz" else site.forum.conversations_of(GM_NAME)[0]
    assert conversation is not None
    (message,) = site.forum.conversation_messages(conversation.cid)
    assert (message.sender_uid, message.recipient_uid) == (2, site.forum.user("月光").uid)
    assert message.text == "收到：占卜 夜行者 的结果是【好人】。"
    assert result == (str(message.mid) if site.engine == "discuz" else None)
    with pytest.raises((errors.NotFound, errors.Rejected)):
        adapter.send_pm("没有这个人", "你好")


def test_a_pm_sent_before_a_crash_is_found_again(site: Site) -> None:
    """Crash recovery: the GM's sent PM is found (phpwind: in the outbox, before any answer)."""
    adapter = site.adapter()
    since = site.clock()
    site.clock.advance(minutes=1)
    adapter.send_pm("月光", "已收到：今晚占卜 夜行者，天亮前可更改")
    found = adapter.find_sent_pm("月光", "已收到：今晚占卜  夜行者，天亮前可更改", since)
    assert found is not None
    assert adapter.find_sent_pm("月光", "已收到：今晚占卜 小明", since) is None
    assert adapter.find_sent_pm("阿杰", "已收到：今晚占卜 夜行者，天亮前可更改", since) is None
    later = site.clock() + timedelta(minutes=5)
    assert adapter.find_sent_pm("月光", "已收到：今晚占卜 夜行者，天亮前可更改", later) is None


# --------------------------------------------------------------------------- faults


def test_session_expiring_mid_poll_logs_in_again_transparently(site: Site) -> None:
    tid = site.thread(posts=8)
    adapter = site.adapter()
    cursor = adapter.read_thread(str(tid)).cursor
    inbox = adapter.read_pms().cursor
    new = site.replies(tid, 3)
    site.forum.send_pm("月光", GM_NAME, "占卜 Lily99")
    site.forum.expire_sessions()
    delta = adapter.poll_board(FID, {str(tid): cursor})
    assert [p.pid for p in delta[str(tid)].posts] == [str(pid) for pid in new]
    assert [m.text for m in adapter.read_pms(inbox).messages] == ["占卜 Lily99"]
    assert site.logins() == 2  # the first login and one transparent re-login
    assert adapter.own_uid == "2"


def test_a_stale_token_on_posting_logs_in_again_and_posts_once(site: Site) -> None:
    tid = site.thread(posts=3)
    adapter = site.adapter()
    adapter.read_thread(str(tid))
    site.forum.faults.expire_before_next("POST")  # the session ends between form and submit
    pid = adapter.post_reply(str(tid), "投票：阿杰 理由见上")
    assert site.logins() == 2
    mine = [p for p in site.forum.visible_posts(tid) if p.author_uid == 2 and not p.first]
    assert [p.pid for p in mine] == [int(pid)]


def test_flood_control_on_the_gms_posts_is_waited_out(site: Site) -> None:
    tid = site.thread(posts=3, author="小明")
    adapter = site.adapter(min_interval=0)  # no pacing: the second post comes at once
    first = adapter.post_reply(str(tid), "第一条公告：天亮了。")
    second = adapter.post_reply(str(tid), "第二条公告：请开始投票。")
    wait = 15.0 if site.engine == "discuz" else 6.0
    assert wait in site.slept  # the stated wait, through the injected sleep
    texts = [site.forum.posts[int(pid)].text for pid in (first, second)]
    assert texts == ["第一条公告：天亮了。", "第二条公告：请开始投票。"]


def test_flood_control_on_a_pm_is_waited_out(site: Site) -> None:
    adapter = site.adapter(min_interval=0)
    tid = site.thread(posts=2, author="小明")
    adapter.post_reply(str(tid), "公告：今晚 22:00 截票。")
    adapter.send_pm("月光", "收到")  # Discuz counts posts and PMs together
    if site.engine == "discuz":
        assert 15.0 in site.slept
    assert [m.text for m in site.forum.messages.values()] == ["收到"]


def test_a_burst_of_5xx_then_success(site: Site) -> None:
    tid = site.thread(posts=4)
    adapter = site.adapter()
    site.forum.faults.fail_next(2, status=502)
    served = site.served()
    delta = adapter.read_thread(str(tid))
    assert len(delta.posts) == 4
    assert site.served() - served == 3  # two failures, then the page
    assert len([s for s in site.slept if s > 0]) >= 2  # backed off twice


def test_a_slow_response_times_out_and_is_retried(site: Site) -> None:
    tid = site.thread(posts=4)
    adapter = site.adapter(timeout=1.0)
    site.forum.faults.slow_next(1, 2.5)  # real seconds: an HTTP timeout is wall-clock time
    served = site.served()
    delta = adapter.read_thread(str(tid))
    assert len(delta.posts) == 4
    assert site.served() - served >= 2  # the slow answer timed out and the request was sent again


def test_maintenance_page_is_forum_closed(site: Site) -> None:
    tid = site.thread(posts=4)
    adapter = site.adapter()
    site.forum.faults.maintenance(True)
    with pytest.raises(errors.ForumClosed):
        adapter.read_thread(str(tid))
    with pytest.raises(errors.ForumClosed):
        adapter.read_pms()
    site.forum.faults.maintenance(False)
    assert len(adapter.read_thread(str(tid)).posts) == 4


def test_captcha_on_posting_says_what_to_do(site: Site) -> None:
    tid = site.thread(posts=2)
    adapter = site.adapter()
    site.forum.faults.captcha(True, login=False, post=True)
    with pytest.raises(errors.CaptchaRequired) as caught:
        adapter.post_reply(str(tid), "投票：阿杰 理由见上")
    assert "exempt" in str(caught.value) and "cookies" in str(caught.value)
    assert len(site.forum.visible_posts(tid)) == 2
