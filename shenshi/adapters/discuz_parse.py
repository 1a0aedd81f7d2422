"""Pure parsers for Discuz! X3.x: thread pages, board listings, PM inbox and conversations,
the mobile JSON API (``api/mobile/index.php?version=4``) and message / error pages.

Bytes in, frozen records out; no I/O. Selectors are those of FORUMS.md (real X3.5 pages).
Anything missing raises :class:`~shenshi.adapters.errors.UnexpectedPage`, never an
``AttributeError``.
"""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from lxml import etree

from shenshi.adapters import errors
from shenshi.adapters.messages import captcha, classify, flood, raise_as, rule
from shenshi.adapters.text import (
    decode_page,
    drop,
    element_text,
    fragment_tree,
    from_unix,
    has_class,
    load_page,
    parse_forum_time,
    require_complete,
    squash,
    url_param,
)
from shenshi.records import (
    BoardThread,
    ConversationSummary,
    EditMark,
    Post,
    PrivateMessage,
    Quote,
    ThreadPage,
)

ENGINE = "discuz"

# --------------------------------------------------------------------------- page state


@dataclass(frozen=True)
class PageState:
    """Session facts every Discuz page carries: who is logged in and the anti-CSRF token."""

    uid: str | None  # None or "0" = guest
    username: str | None
    formhash: str | None

    @property
    def logged_in(self) -> bool:
        return bool(self.uid) and self.uid != "0"


_UID = re.compile(r"discuz_uid\s*=\s*'(\d*)'")
_FORMHASH = re.compile(r"""name=["']formhash["']\s+value=["']([0-9a-f]{8})["']""")
_FORMHASH_LINK = re.compile(r"formhash=([0-9a-f]{8})")
_VWMY = re.compile(r'class="vwmy[^"]*"><a [^>]*>([^<]+)</a>')


def page_state(text: str) -> PageState:
    """Logged-in uid (``discuz_uid``), user name and ``formhash`` of a decoded page."""
    uid = _UID.search(text)
    formhash = _FORMHASH.search(text) or _FORMHASH_LINK.search(text)
    name = _VWMY.search(text)
    return PageState(
        uid=uid.group(1) if uid else None,
        username=name.group(1).strip() if name else None,
        formhash=formhash.group(1) if formhash else None,
    )


# --------------------------------------------------------------------------- messages

RULES = (
    rule(r"间隔少于\s*(\d+)\s*秒", flood()),
    rule(r"两次发送短消息太快", flood()),
    rule(r"见习期间，需要等待\s*(\d+)\s*(分钟|秒|小时)", flood()),
    rule(r"验证码", captcha("posting")),
    rule(r"非法字符|表单验证串不符|请求来路不正确", raise_as(errors.SessionExpired)),
    rule(r"尚未登录|请先登录|需要先登录|登录后才能", raise_as(errors.NotLoggedIn)),
    rule(r"密码错误次数过多|尝试次数过多", raise_as(errors.LoginFailed)),  # login_strike: locked
    rule(r"登录失败|密码错误|密码空或包含非法字符", raise_as(errors.PasswordRejected)),
    rule(r"不存在|已被删除|正在被审核", raise_as(errors.NotFound)),
    rule(r"没有权限|无权", raise_as(errors.NoPermission)),
    rule(r"站点关闭|暂时关闭|站点维护|维护中|升级中|board_closed", raise_as(errors.ForumClosed)),
)

_CDATA = re.compile(r"<!\[CDATA\[(.*)\]\]>", re.S)
_ERRORHANDLE = re.compile(r"errorhandle_\w*\('((?:[^'\\]|\\.)*)'\s*,\s*(\{[^}]*\})?")
_SUCCEEDHANDLE = re.compile(r"succeedhandle_\w*\('((?:[^'\\]|\\.)*)'\s*,\s*'((?:[^'\\]|\\.)*)'\s*,\s*(\{[^}]*\})?")
_JS_PAIRS = re.compile(r"'(\w+)'\s*:\s*'([^']*)'")


def unwrap_ajax(text: str) -> str:
    """The HTML inside an ``inajax=1`` XML answer (``<root><![CDATA[…]]></root>``), else the text."""
    stripped = text.lstrip()
    if stripped.startswith("<?xml"):
        match = _CDATA.search(stripped)
        if match:
            return match.group(1)
    return text


@dataclass(frozen=True)
class AjaxResult:
    """A ``succeedhandle_…`` answer of an ``inajax`` POST."""

    url: str
    message: str
    values: dict[str, str]


def check_ajax(text: str, *, url: str | None = None) -> AjaxResult:
    """Read an ``inajax`` answer: the success callback, or raise the typed error it carries."""
    inner = unwrap_ajax(text)
    ok = _SUCCEEDHANDLE.search(inner)
    if ok:
        return AjaxResult(ok.group(1), ok.group(2).strip(), dict(_JS_PAIRS.findall(ok.group(3) or "")))
    bad = _ERRORHANDLE.search(inner)
    if bad:
        values = dict(_JS_PAIRS.findall(bad.group(2) or ""))
        if "floodctrl" in values:
            raise errors.FloodControl(bad.group(1), float(values["floodctrl"]), url=url)
        raise classify(bad.group(1), RULES, url=url)
    check_page(inner, url=url)
    raise errors.UnexpectedPage(
        "expected a succeedhandle_/errorhandle_ answer", url=url, snippet=errors.snippet_of(inner)
    )


_MESSAGETEXT = re.compile(
    r'<div id="messagetext" class="alert_(\w+)">\s*<p>(.*?)</p>', re.S
)
_TAGS = re.compile(r"<[^>]+>")
_SEC_LOGIN = re.compile(r"seccode\(|id=\"seccode_|name=\"seccodeverify\"")


def message_of(text: str) -> tuple[str, str] | None:
    """``(kind, text)`` of a message page (``div#messagetext``), or None for a normal page."""
    if "System Error" in text[:2000] and "非法字符" in text:
        return "error", "您当前的访问请求当中含有非法字符，已经被系统拒绝"
    match = _MESSAGETEXT.search(text)
    if not match:
        return None
    kind, body = match.group(1), match.group(2)
    if kind == "right":
        location = re.search(r"succeedlocation'\)\.innerHTML = '([^']*)'", body)
        return kind, location.group(1) if location else squash(_TAGS.sub(" ", body))
    return kind, squash(_TAGS.sub(" ", re.sub(r"<script.*?</script>", "", body, flags=re.S)))


def check_page(text: str, *, url: str | None = None) -> str | None:
    """Raise the typed error a message page stands for; return a success message, or None."""
    found = message_of(text)
    if found is None:
        if "<title>" in text[:3000] and "System Error" in text[:3000]:
            raise errors.TransportError("Discuz! System Error page", url=url)
        return None
    kind, message = found
    if kind == "right":
        return message
    raise classify(message, RULES, url=url)


def login_has_captcha(text: str) -> bool:
    """True when a login page or form asks for a seccode (captcha)."""
    return bool(_SEC_LOGIN.search(text))


# --------------------------------------------------------------------------- thread pages

_FLOOR_WORDS = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
_EDIT = re.compile(r"本帖最后由\s*(.+?)\s*于\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}(?::\d{2})?)\s*编辑")
_QUOTE_HEAD = re.compile(r"^(.*?)\s*发表于\s*(.*)$")
_PAGES = re.compile(r"共\s*(\d+)\s*页")


def _load(data: bytes | str, charset: str | None = None) -> tuple[str, Any]:
    text = data if isinstance(data, str) else decode_page(data, charset)
    return load_page(unwrap_ajax(text))


# What Discuz always prints after each list: a page without it was cut short (fetched again).
THREAD_END = ('id="postlistreply"', "]]></root>")  # a full page; the viewpid ajax answer
INBOX_END = ("addBlockLink('deletepmform'", '<div class="emp">')  # the list's form; "no PMs"
CONVERSATION_END = ('id="pm_append"',)
BOARD_END = ('id="fd_page_bottom"',)  # the pager under the list (every branch of forumdisplay_list)


def parse_thread_page(
    data: bytes | str, *, tz: tzinfo, now: datetime, tid: str | None = None, charset: str | None = None
) -> ThreadPage:
    """One thread page (``forum.php?mod=viewthread``, also the ``viewpid`` ajax XML)."""
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, THREAD_END, "thread page", check_page)  # before parsing: a cut page is not read
    text, tree = _load(_thread_region(page))
    tables = [t for t in _X_POSTLIST(tree) if "plhin" in (t.get("class") or "").split()] or _X_POST_TABLES(tree)
    if not tables:
        check_page(text)
        raise errors.UnexpectedPage(
            "no post (table.plhin#pidN) on this thread page", snippet=errors.snippet_of(text)
        )
    page, pages = pagination(tree)
    posts = []
    for index, table in enumerate(tables):
        post = _html_post(table, tz=tz, now=now, tid=tid)
        if post.floor <= 0:  # unlabelled floor: count from the page start
            post = _replace(post, floor=(page - 1) * len(tables) + index + 1)
        posts.append(post)
    crumbs = [h for h in _X_CRUMBS(tree) if "mod=viewthread" in h]
    thread_tid = tid or posts[0].tid or (url_param(crumbs[-1], "tid") if crumbs else "") or ""
    posts = [p if p.tid else _replace(p, tid=thread_tid) for p in posts]
    subject = _X_ID(tree, id="thread_subject")
    return ThreadPage(
        tid=thread_tid,
        page=page,
        pages=pages,
        posts=tuple(posts),
        subject=squash(subject[0].text_content()) if subject else None,
        fid=_fid_of(tree),
    )


def _thread_region(page: str) -> str:
    """What a thread page's parse needs: from the breadcrumbs (``div#pt``) to the end of the
    post list (``#postlistreply``, the completeness marker found from the end): the head's
    scripts and the footer are not parsed. A page without them (the ``viewpid`` XML) whole."""
    start = page.find('<div id="pt"')
    end = page.rfind('id="postlistreply"')
    if start < 0 or end < start:
        return page
    return page[start : page.rfind("<", start, end)]


def _replace(post: Post, **changes: Any) -> Post:
    from dataclasses import replace

    return replace(post, **changes)


def _fid_of(tree: Any) -> str | None:
    links = [h for h in _X_CRUMBS(tree) if "mod=forumdisplay" in h]
    return url_param(links[-1], "fid") if links else None


# Compiled once, and by id where the page has one (``id()`` is a look-up in the parser's table
# of ids; ``//…`` walks the whole page): per-post lookups are the hot path (ten posts a page).
_X_ID = etree.XPath("id($id)")
_X_POSTLIST = etree.XPath("id('postlist')/div/table[starts-with(@id, 'pid')]")
_X_POST_TABLES = etree.XPath(f"//table[starts-with(@id, 'pid') and {has_class('plhin')}]")  # (viewpid XML)
_X_CRUMBS = etree.XPath("id('pt')//a/@href")
_X_FAVATAR_AUTHOR = etree.XPath("id($id)//div[@class='authi']/a")  # td.pls > div#favatar{pid}
_X_AUTHOR = etree.XPath(f".//td[{has_class('pls')}]//div[{has_class('authi')}]/a")
_X_AUTHI = etree.XPath(f".//td[{has_class('pls')}]//div[{has_class('authi')}]")
_X_POSTED = _X_ID
_X_TITLE = etree.XPath(".//span[@title]")
_X_FLOOR = _X_ID
_X_BODY = _X_ID
_X_LOCKED = etree.XPath(f".//div[{has_class('locked')}]")
_X_PSTATUS = etree.XPath(f".//i[{has_class('pstatus')}]")


def _html_post(table: Any, *, tz: tzinfo, now: datetime, tid: str | None) -> Post:
    pid = table.get("id")[3:]
    if not pid.isdigit():
        raise errors.UnexpectedPage(f"post table id {table.get('id')!r} is not pidN")
    author_links = _X_FAVATAR_AUTHOR(table, id=f"favatar{pid}") or _X_AUTHOR(table)
    if author_links:
        author = squash(author_links[0].text_content())
        uid = url_param(author_links[0].get("href"), "uid") or "0"
    else:  # anonymous (匿名) or a deleted member
        authi = _X_AUTHI(table)
        author, uid = (squash(authi[0].text_content()) if authi else ""), "0"
    posted = _X_POSTED(table, id=f"authorposton{pid}")
    if not posted:
        raise errors.UnexpectedPage(f"post {pid}: no em#authorposton{pid} (post time)")
    span = _X_TITLE(posted[0])
    try:
        posted_at = parse_forum_time(
            posted[0].text_content(), title=span[0].get("title") if span else None, tz=tz, now=now
        )
    except ValueError as exc:
        raise errors.UnexpectedPage(f"post {pid}: {exc}") from exc
    floor_link = _X_FLOOR(table, id=f"postnum{pid}")
    floor = _floor(floor_link[0]) if floor_link else 0
    href = floor_link[0].get("href") if floor_link else None
    thread = url_param(href, "ptid") or url_param(href, "tid")
    body = _X_BODY(table, id=f"postmessage_{pid}")
    if body:
        text, quotes, edited = _body(body[0], tz=tz, now=now)
    else:  # banned author / hidden post: the forum shows a notice instead of the body
        locked = _X_LOCKED(table)
        text, quotes, edited = (element_text(locked[0]) if locked else ""), (), None
    return Post(
        tid=tid or thread or "",
        pid=pid,
        floor=floor,
        author=author,
        author_uid=uid,
        posted_at=posted_at,
        text=text,
        quotes=quotes,
        edited=edited,
    )


def _floor(link: Any) -> int:
    number = link.xpath(".//em/text()")
    if number and number[0].strip().isdigit():
        return int(number[0].strip())
    label = squash(link.text_content()).rstrip("#").strip()
    if label.isdigit():
        return int(label)
    return _FLOOR_WORDS.get(label, 0)


def _body(body: Any, *, tz: tzinfo, now: datetime) -> tuple[str, tuple[Quote, ...], EditMark | None]:
    edited = None
    for mark in _X_PSTATUS(body):
        found = _EDIT.search(squash(mark.text_content()))
        if found and edited is None:
            edited = EditMark(
                by=found.group(1), at=parse_forum_time(found.group(2), tz=tz, now=now)
            )
        drop(mark)
    quotes = tuple(_quote(el) for el in _outermost(body, f"div[{has_class('quote')}] | .//div[{has_class('reply_wrap')}]"))
    return element_text(body), quotes, edited


def _outermost(body: Any, expr: str) -> list[Any]:
    """Quote blocks of a body, outermost only (a quote inside a quote belongs to its parent)."""
    found = body.xpath(".//" + expr)
    members = set(found)
    return [el for el in found if not any(a in members for a in el.iterancestors())]


def _quote(block: Any) -> Quote:
    """Read and remove one quote block (HTML ``div.quote`` or API ``div.reply_wrap``)."""
    author = pid = None
    link = block.xpath(".//a[contains(@href, 'findpost')]")
    if link:
        pid = url_param(link[0].get("href"), "pid")
        head = _QUOTE_HEAD.match(squash(link[0].text_content()))
        author = head.group(1) if head else squash(link[0].text_content()) or None
        header = link[0]
        while header.getparent() is not None and header.getparent().tag == "font":
            header = header.getparent()
        following = header.getnext()
        if following is not None and following.tag == "br" and not (header.tail or "").strip():
            drop(following)
        drop(header)
    text = element_text(block)
    drop(block)
    return Quote(author=author, pid=pid, text=text)


_X_PG_TOP = etree.XPath(f"id('pgt')//div[{has_class('pg')}]")  # the pager above the list
_X_PG = etree.XPath(f"//div[{has_class('pg')}]")


def pagination(tree: Any) -> tuple[int, int]:
    """``(current page, number of pages)`` from the first ``div.pg`` (none = one page)."""
    pg = _X_PG_TOP(tree) or _X_PG(tree)
    if not pg:
        return 1, 1
    current = pg[0].xpath("./strong/text()")
    page = int(current[0]) if current and current[0].strip().isdigit() else 1
    total = _PAGES.search(" ".join(pg[0].xpath(".//span/@title")))
    if total:
        return page, int(total.group(1))
    numbers = [int(n) for n in re.findall(r"\d+", " ".join(pg[0].xpath(".//a/text()")))]
    return page, max([page, *numbers])


# --------------------------------------------------------------------------- board


def parse_board(
    data: bytes | str, *, tz: tzinfo, now: datetime, charset: str | None = None
) -> list[BoardThread]:
    """The threads of a board page (``forum.php?mod=forumdisplay``): reply counts, last post.

    A listing cut short is refused (:class:`~shenshi.adapters.errors.IncompletePage`): a
    thread missing from it would look like a thread with no new reply."""
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, BOARD_END, "board listing", check_page)  # before parsing: a cut page is not read
    text, tree = _load(page)
    bodies = tree.xpath("//tbody[starts-with(@id, 'normalthread_') or starts-with(@id, 'stickthread_')]")
    if not bodies and not tree.xpath("//*[@id='threadlisttableid' or @id='threadlist']"):
        check_page(text)
        raise errors.UnexpectedPage("no thread list on this board page", snippet=errors.snippet_of(text))
    threads = []
    for body in bodies:
        tid = body.get("id").rsplit("_", 1)[1]
        title = body.xpath(f".//a[{has_class('xst')}]")
        bys = body.xpath(f".//td[{has_class('by')}]")
        num = body.xpath(f".//td[{has_class('num')}]/a/text()")
        if not title or not num:
            continue  # a moved-thread stub or an ad row
        author = bys[0].xpath(".//cite//a/text()") if bys else []
        last_by = bys[-1].xpath(".//cite//a/text()") if len(bys) > 1 else []
        last_at = None
        if len(bys) > 1:
            em = bys[-1].xpath(".//em")
            span = bys[-1].xpath(".//em//span[@title]/@title")
            try:
                last_at = parse_forum_time(
                    em[0].text_content() if em else None, title=span[0] if span else None, tz=tz, now=now
                )
            except ValueError:
                last_at = None
        threads.append(
            BoardThread(
                tid=tid,
                subject=squash(title[0].text_content()),
                author=squash(author[0]) if author else None,
                replies=int(num[0].strip()),
                last_post_at=last_at,
                last_poster=squash(last_by[0]) if last_by else None,
            )
        )
    return threads


# --------------------------------------------------------------------------- PMs

_COUNT = re.compile(r"共\s*(\d+)\s*条")
# An empty inbox (a fresh account, or every conversation deleted) has no PM list and no
# form#deletepmform: the main column says 当前没有相应的短消息 in a div.emp.
_X_EMPTY_LIST = f"//div[@id='ct']//div[{has_class('mn')}]//div[{has_class('emp')}]"


def parse_inbox(
    data: bytes | str, *, tz: tzinfo, now: datetime, charset: str | None = None
) -> list[ConversationSummary]:
    """The GM's PM list (``home.php?mod=space&do=pm``): one ``dl#pmlist_{plid}`` per conversation.

    ``unread`` comes from the ``newpm`` class of the ``<dl>`` (every row has a ``newpm_avt`` div).
    """
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, INBOX_END, "PM list", check_page)  # before parsing: a cut page is not read
    text, tree = _load(page)
    rows = tree.xpath("//dl[starts-with(@id, 'pmlist_')]")
    if not rows and "deletepmform" not in text:
        check_page(text)
        if tree.xpath(_X_EMPTY_LIST):  # 当前没有相应的短消息: no list at all, not even its form
            return []
        raise errors.UnexpectedPage("no PM list (form#deletepmform) on this page", snippet=errors.snippet_of(text))
    conversations = []
    for row in rows:
        plid = row.get("id")[len("pmlist_"):]
        body = row.xpath(f"./dd[{has_class('ptm')}]")
        if not body:
            raise errors.UnexpectedPage(f"PM row {plid}: no dd.ptm")
        partner = body[0].xpath(".//a[contains(@href, 'mod=space') and contains(@href, 'uid=')]")
        if not partner:
            raise errors.UnexpectedPage(f"PM row {plid}: no partner link")
        # Relative with a titled span; after a week the absolute time alone (as in conversations).
        when = body[0].xpath(f".//span[{has_class('xg1')}]/span[@title]") or body[0].xpath(
            f".//span[{has_class('xg1')}][not(*)]"
        )
        last_at = None
        if when:
            last_at = parse_forum_time(when[0].text_content(), title=when[0].get("title"), tz=tz, now=now)
        count = _COUNT.search(body[0].text_content())
        conversations.append(
            ConversationSummary(
                id=plid,
                partner=squash(partner[0].text_content()),
                partner_uid=url_param(partner[0].get("href"), "uid") or "",
                unread="newpm" in (row.get("class") or "").split(),
                last_at=last_at,
                count=int(count.group(1)) if count else None,
            )
        )
    return conversations


def parse_conversation(
    data: bytes | str,
    *,
    tz: tzinfo,
    now: datetime,
    conversation: str | None = None,
    charset: str | None = None,
) -> list[PrivateMessage]:
    """One conversation (``…do=pm&subop=view&touid=U``): ``div#pm_ul > dl#pmlist_{pmid}``.

    The GM's own messages show "您" instead of a link: they get the logged-in member's name and
    uid. ``conversation`` defaults to the partner's uid (the inbox's plid is not on this page).
    """
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, CONVERSATION_END, "conversation page", check_page)  # before parsing: a cut page is not read
    text, tree = _load(page)
    box = tree.xpath("//div[@id='pm_ul']")
    if not box:
        check_page(text)
        raise errors.UnexpectedPage("no div#pm_ul on this conversation page", snippet=errors.snippet_of(text))
    state = page_state(text)
    me_uid, me = state.uid or "", state.username or ""
    head = tree.xpath("//span[@id='membernum']/following-sibling::a[contains(@href, 'uid=')]")
    partner = squash(head[0].text_content()) if head else ""
    partner_uid = url_param(head[0].get("href"), "uid") if head else None
    conversation = conversation or partner_uid or ""
    messages = []
    for row in box[0].xpath("./dl[starts-with(@id, 'pmlist_')]"):
        pmid = row.get("id")[len("pmlist_"):]
        body = row.xpath(f"./dd[{has_class('ptm')}]")
        if not body:
            raise errors.UnexpectedPage(f"PM {pmid}: no dd.ptm")
        body = body[0]
        sender_link = body.xpath(f"./a[{has_class('xw1')}]")
        if sender_link:
            sender = squash(sender_link[0].text_content())
            sender_uid = url_param(sender_link[0].get("href"), "uid") or ""
            recipient, recipient_uid = me, me_uid or None
        else:  # "您": the logged-in member wrote it
            avatar = row.xpath(f"./dd[{has_class('avt')}]//a/@href")
            sender, sender_uid = me, (url_param(avatar[0], "uid") if avatar else None) or me_uid
            recipient, recipient_uid = partner, partner_uid
        # A recent time is relative text with the absolute time in a title; after a week the
        # forum prints the absolute time itself, without the inner span.
        when = body.xpath(f".//span[{has_class('xg1')}]/span[@title]") or body.xpath(
            f"./span[{has_class('xg1')}]"
        )
        if not when:
            raise errors.UnexpectedPage(f"PM {pmid}: no time (span.xg1)")
        sent_at = parse_forum_time(when[0].text_content(), title=when[0].get("title"), tz=tz, now=now)
        for el in body.xpath(f"./a[{has_class('xw1')}] | ./span[{has_class('xw1')}] | ./span[{has_class('xg1')}]"):
            drop(el)
        messages.append(
            PrivateMessage(
                id=pmid,
                conversation=conversation,
                sender=sender,
                sender_uid=sender_uid,
                recipient=recipient,
                recipient_uid=recipient_uid,
                sent_at=sent_at,
                text=element_text(body),
            )
        )
    return messages


def conversation_pages(data: bytes | str, charset: str | None = None) -> tuple[int, int]:
    """``(page, pages)`` of a conversation page (the forum opens the newest page).

    A conversation's pager is ``pmmulti()`` of ``space_pm.php``: only ``上一页`` (in ``span.pgb``)
    and ``下一页`` (``a.nxt``) links, no page numbers. The page is one after the previous link's,
    or one before the next link's; ``pages`` is at least one more than the page when there is a
    next link. A full ``multi()`` pager (``strong`` current page) is read as usual.
    """
    _, tree = _load(data, charset)
    pg = tree.xpath(f"//div[{has_class('pg')}]")
    if not pg or pg[0].xpath("./strong"):
        return pagination(tree)
    previous = _page_number(pg[0].xpath(f".//span[{has_class('pgb')}]/a/@href"))
    following = _page_number(pg[0].xpath(f".//a[{has_class('nxt')}]/@href"))
    if previous is not None:
        page = previous + 1
    elif following is not None:
        page = following - 1
    else:
        return pagination(tree)
    return page, max(page, following or page)


def _page_number(hrefs: list[str]) -> int | None:
    found = url_param(hrefs[0], "page") if hrefs else None
    return int(found) if found and found.isdigit() else None


def parse_member_name(data: bytes | str, uid: str, *, charset: str | None = None) -> str:
    """The name on member ``uid``'s profile page (``home.php?mod=space&uid=U&do=profile``)."""
    text, tree = _load(data, charset)
    heading = tree.xpath(
        f"//div[{has_class('avt')}]/a[contains(@href, 'uid={uid}')]/../following-sibling::h2[1]"
    )
    if not heading:
        check_page(text)
        raise errors.UnexpectedPage(f"no name of uid {uid} on this profile page", snippet=errors.snippet_of(text))
    return squash(heading[0].text_content())


# --------------------------------------------------------------------------- mobile API


def api_load(data: bytes | str) -> dict[str, Any]:
    """The decoded JSON of a mobile API answer, or ``UnexpectedPage`` (HTML error pages too)."""
    text = data if isinstance(data, str) else decode_page(data, "utf-8")
    try:
        found = json.loads(text)
    except ValueError as exc:
        check_page(text)
        if text.lstrip().startswith("{"):  # it began as JSON and did not end: cut short
            raise errors.IncompletePage("mobile API JSON cut short", snippet=errors.snippet_of(text[-200:])) from exc
        raise errors.UnexpectedPage("expected mobile API JSON", snippet=errors.snippet_of(text)) from exc
    if not isinstance(found, dict) or not isinstance(found.get("Variables"), dict):
        raise errors.UnexpectedPage("mobile API JSON without Variables", snippet=errors.snippet_of(text))
    return found


API_RULES = (
    rule(r"flood", flood()),
    rule(r"seccode|secqaa", captcha("posting")),
    rule(r"nonexistence|not_found|nonexist", raise_as(errors.NotFound)),
    rule(r"login_strike", raise_as(errors.LoginFailed)),
    rule(r"login_invalid", raise_as(errors.PasswordRejected)),
    rule(r"to_login|nologin|not_login", raise_as(errors.NotLoggedIn)),
    rule(r"nopermission|noperm|no_privilege", raise_as(errors.NoPermission)),
    rule(r"closed", raise_as(errors.ForumClosed)),
    rule(r"formhash|submit_invalid", raise_as(errors.SessionExpired)),
)

API_SUCCESS = re.compile(r"succeed|success")


def api_check(found: dict[str, Any], *, url: str | None = None) -> str | None:
    """Raise the error a ``Message.messageval`` means; return it when it reports success."""
    message = found.get("Message") or {}
    value = str(message.get("messageval") or "")
    if not value:
        return None
    if API_SUCCESS.search(value):
        return value
    raise classify(value, API_RULES, url=url)


def api_plain(value: Any) -> str:
    """A plain-text field of an API answer (subject, names): escaped once by the forum, as stored."""
    return html.unescape(str(value)) if value else ""


def api_unread_pms(found: dict[str, Any]) -> int | None:
    """``Variables.notice.newpm`` of an API answer: the member's new PMs (None: not said)."""
    notice = (found.get("Variables") or {}).get("notice")
    value = notice.get("newpm") if isinstance(notice, dict) else None
    return int(value) if str(value or "").isdigit() else None


def api_state(found: dict[str, Any]) -> PageState:
    """Session facts of an API answer (``member_uid`` "0" = guest)."""
    variables = found["Variables"]
    return PageState(
        uid=str(variables.get("member_uid") or "0"),
        username=variables.get("member_username") or None,
        formhash=variables.get("formhash") or None,
    )


def parse_api_thread(
    data: bytes | str | dict[str, Any], *, tz: tzinfo, now: datetime, page: int | None = None
) -> ThreadPage:
    """A ``module=viewthread`` answer as a :class:`ThreadPage` (no edit marks: the API lacks them)."""
    found = data if isinstance(data, dict) else api_load(data)
    api_check(found)
    variables = found["Variables"]
    thread = variables.get("thread") or {}
    rows = variables.get("postlist")
    if not isinstance(rows, list):
        raise errors.UnexpectedPage("viewthread answer without postlist")
    ppp = int(variables.get("ppp") or 10)
    posts = tuple(_api_post(row, tz=tz, now=now) for row in rows)
    total = int(thread.get("replies") or 0) + 1
    pages = max(1, math.ceil(total / ppp))
    if page is None:
        page = (posts[0].floor - 1) // ppp + 1 if posts else 1
    return ThreadPage(
        tid=str(thread.get("tid") or (posts[0].tid if posts else "")),
        page=page,
        pages=max(pages, page),
        posts=posts,
        subject=api_plain(thread.get("subject")) or None,
        fid=str(thread.get("fid") or variables.get("fid") or "") or None,
        per_page=ppp,
    )


def _api_post(row: dict[str, Any], *, tz: tzinfo, now: datetime) -> Post:
    try:
        if row.get("dbdateline"):
            posted_at = from_unix(row["dbdateline"], tz)
        else:
            posted_at = parse_forum_time(row.get("dateline"), tz=tz, now=now)
        # The API escapes a post's already escaped text again (mobile discuzcode.func.php:52,
        # dhtmlspecialchars): undo that once and the message is the page's HTML.
        body = fragment_tree(html.unescape(row.get("message") or ""))
        quotes = tuple(_quote(el) for el in _outermost(body, f"div[{has_class('reply_wrap')}] | .//div[{has_class('quote')}]"))
        return Post(
            tid=str(row["tid"]),
            pid=str(row["pid"]),
            floor=int(row.get("number") or row.get("position") or 0),
            author=api_plain(row.get("author")),
            author_uid=str(row.get("authorid") or "0"),
            posted_at=posted_at,
            text=element_text(body),
            quotes=quotes,
            edited=None,
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise errors.UnexpectedPage(f"unexpected postlist entry: {exc}", snippet=str(row)[:160]) from exc


def parse_api_board(data: bytes | str | dict[str, Any], *, tz: tzinfo, now: datetime) -> list[BoardThread]:
    """A ``module=forumdisplay`` answer as board rows."""
    found = data if isinstance(data, dict) else api_load(data)
    api_check(found)
    rows = found["Variables"].get("forum_threadlist")
    if not isinstance(rows, list):
        raise errors.UnexpectedPage("forumdisplay answer without forum_threadlist")
    return [
        BoardThread(
            tid=str(row["tid"]),
            subject=api_plain(row.get("subject")),
            author=api_plain(row.get("author")) or None,
            replies=int(row.get("replies") or 0),
            last_post_at=from_unix(row["dblastpost"], tz) if row.get("dblastpost") else None,
            last_poster=api_plain(row.get("lastposter")) or None,
        )
        for row in rows
    ]


def parse_api_inbox(data: bytes | str | dict[str, Any], *, tz: tzinfo, now: datetime) -> list[ConversationSummary]:
    """A ``module=mypm`` answer as inbox rows (times are relative there: resolved against ``now``)."""
    found = data if isinstance(data, dict) else api_load(data)
    api_check(found)
    rows = found["Variables"].get("list")
    if not isinstance(rows, list):
        raise errors.UnexpectedPage("mypm answer without list")
    return [
        ConversationSummary(
            id=str(row["plid"]),
            partner=api_plain(row.get("tousername")),
            partner_uid=str(row.get("touid") or ""),
            unread=str(row.get("isnew") or "0") not in ("", "0"),
            last_at=parse_forum_time(row.get("vdateline"), tz=tz, now=now) if row.get("vdateline") else None,
            count=None,
        )
        for row in rows
    ]


def parse_api_conversation(
    data: bytes | str | dict[str, Any], *, tz: tzinfo, now: datetime
) -> list[PrivateMessage]:
    """A ``module=mypm&subop=view`` answer as messages (relative times resolved against ``now``)."""
    found = data if isinstance(data, dict) else api_load(data)
    api_check(found)
    variables = found["Variables"]
    rows = variables.get("list")
    if not isinstance(rows, list):
        raise errors.UnexpectedPage("mypm view answer without list")
    me_uid = str(variables.get("member_uid") or "")
    me = variables.get("member_username") or ""
    partner = next((r for r in rows if str(r.get("msgfromid")) != me_uid), None)
    partner_name = api_plain(partner.get("msgfrom")) if partner else ""
    messages = []
    for row in rows:
        mine = str(row.get("msgfromid")) == me_uid
        messages.append(
            PrivateMessage(
                id=str(row["pmid"]),
                conversation=str(row.get("plid") or ""),
                sender=api_plain(row.get("msgfrom")),
                sender_uid=str(row.get("msgfromid") or ""),
                recipient=partner_name if mine else me,
                recipient_uid=str(row.get("touid") or "") or None,
                sent_at=parse_forum_time(row.get("vdateline"), tz=tz, now=now),
                text=element_text(fragment_tree(row.get("message") or "")),
            )
        )
    return messages


def api_kind(found: dict[str, Any]) -> str | None:
    """Which inspectable record an API answer holds: thread, inbox, conversation or board."""
    variables = found.get("Variables") or {}
    if "postlist" in variables:
        return "thread"
    if "forum_threadlist" in variables:
        return "board"
    if isinstance(variables.get("list"), list):
        rows = variables["list"]
        if rows and "isnew" in rows[0]:
            return "inbox"
        return "conversation" if rows and "msgfromid" in rows[0] and "isnew" not in rows[0] else "inbox"
    return None
