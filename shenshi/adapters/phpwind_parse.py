"""Pure parsers for phpwind 8.x: thread pages, board listings, PM inbox and conversations,
``提示信息`` message pages and ``<ajax>`` answers.

Bytes in, frozen records out; no I/O. Selectors are those of FORUMS.md (real 8.7 pages).
Floors: ``楼主`` is floor 1, ``沙发`` 2, ``板凳`` 3, ``地板`` 4 and ``N楼`` is floor N+1 (phpwind
counts replies). The first post's id is ``tpc``.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from shenshi.adapters import errors
from shenshi.adapters.messages import captcha, classify, flood, raise_as, rule
from shenshi.adapters.text import (
    decode_page,
    drop,
    element_text,
    has_class,
    html_tree,
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

ENGINE = "phpwind"

# --------------------------------------------------------------------------- page state


@dataclass(frozen=True)
class PageState:
    """Session facts of a phpwind page: ``winduid``, ``windid`` and the ``verify`` token."""

    uid: str | None
    username: str | None
    verify: str | None
    hexie: str | None = None

    @property
    def logged_in(self) -> bool:
        return bool(self.uid) and self.uid != "0"


_WINDUID = re.compile(r"winduid\s*=\s*'(\d*)'")
_WINDID = re.compile(r"windid\s*=\s*'([^']*)'")
_VERIFY = re.compile(r"verifyhash\s*=\s*'([0-9a-f]{8})'")
_VERIFY_INPUT = re.compile(r"""name=["']verify["']\s+value=["']([0-9a-f]{8})["']""")
_HEXIE = re.compile(r"_hexie\.value\s*=\s*'([0-9a-f]+)'")


def page_state(text: str) -> PageState:
    """Logged-in uid, name, ``verify`` and (on post forms) the real ``_hexie`` of a page."""
    uid, name = _WINDUID.search(text), _WINDID.search(text)
    verify = _VERIFY.search(text) or _VERIFY_INPUT.search(text)
    hexie = _HEXIE.search(text)
    return PageState(
        uid=uid.group(1) if uid else None,
        username=(name.group(1) or None) if name else None,
        verify=verify.group(1) if verify else None,
        hexie=hexie.group(1) if hexie else None,
    )


_UNREAD = re.compile(r"<a\s+href=[\"']message\.php[\"'][^>]*>\s*消息\s*\((\d+)\)\s*</a>")


def unread_messages(text: str) -> int | None:
    """The header's 消息(N) of a member's page: N unread messages (None: the page does not show
    it, e.g. a guest's)."""
    found = _UNREAD.search(text)
    return int(found.group(1)) if found else None


# --------------------------------------------------------------------------- messages

RULES = (
    # "在5秒内": whole seconds, the 5th included: wait 6
    rule(r"灌水预防机制已经打开，在\s*(\d+)\s*秒内不能发帖", flood(extra=1.0)),
    rule(r"验证码|认证码", captcha("posting")),
    rule(r"消息数已满", raise_as(errors.RecipientBoxFull)),  # "{name}消息数已满,不能接收你的消息"
    rule(r"非法请求", raise_as(errors.SessionExpired)),
    rule(r"没有登录|还没有登录|请先登录", raise_as(errors.NotLoggedIn)),
    rule(r"连续\s*\d+\s*次密码输入错误|尝试次数过多", raise_as(errors.LoginFailed)),  # login_forbid
    rule(r"用户名或密码错误|密码错误|安全问题错误|登录失败", raise_as(errors.PasswordRejected)),
    rule(r"帖子ID非法|数据已被删除|链接无效|空间不存在|不存在", raise_as(errors.NotFound)),
    rule(r"无权限|没有权限|等级不足|没有此管理权限", raise_as(errors.NoPermission)),
    rule(r"站点已关闭|论坛已关闭|站点关闭|暂时关闭|维护|升级中", raise_as(errors.ForumClosed)),
)

_AJAX = re.compile(r"<ajax>\s*<!\[CDATA\[(.*?)\]\]>\s*</ajax>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def ajax_body(text: str) -> str | None:
    """The CDATA text of an ``<ajax>`` answer, or None if this is not one."""
    match = _AJAX.search(text)
    return match.group(1) if match else None


@dataclass(frozen=True)
class AjaxResult:
    """A successful ajax answer: ``success\\tURL`` or ``{"bool": true, "message": …}``."""

    message: str
    url: str | None = None


def check_ajax(text: str, *, url: str | None = None) -> AjaxResult:
    """Read an ajax answer; raise the typed error it carries."""
    body = ajax_body(text)
    if body is None:
        check_page(text, url=url)
        raise errors.UnexpectedPage("expected an <ajax> answer", url=url, snippet=errors.snippet_of(text))
    body = body.strip()
    if body.startswith("{"):
        try:
            found = json.loads(body)
        except ValueError as exc:
            raise errors.UnexpectedPage("ajax JSON does not parse", url=url, snippet=body[:160]) from exc
        message = str(found.get("message") or "")
        if found.get("bool") is True:
            return AjaxResult(message)
        if found.get("bool") is None and "登录" in message:
            raise errors.NotLoggedIn(message, url=url)
        raise classify(message, RULES, url=url)
    if body.startswith("success"):
        parts = body.split("\t", 1)
        return AjaxResult("success", parts[1].strip() if len(parts) > 1 else None)
    if re.search(r"成功", body):
        return AjaxResult(squash(_TAGS.sub("", body)))
    raise classify(squash(_TAGS.sub("", body)), RULES, url=url)


# The ambiguous refusal of a PM (``_checkUserLevle``): the sender's daily limit, or his own box
# full, the PMs he sent counted in it.
SENDER_LIMIT = re.compile(r"每日发送消息数|消息总数已满")
_BOX_TOTAL = re.compile(r"您目前有消息\s*(\d+)\s*条")
_BOX_DAILY = re.compile(r"每日可发送消息\s*(\d+)\s*条")
_BOX_SIZE = re.compile(r"最多可存消息\s*(\d+)\s*条")


@dataclass(frozen=True)
class PmBox:
    """The GM's PM box as the clean-up page (``message.php?type=clear``) states it."""

    total: int  # messages in it, the sent ones included
    daily: int | None  # PMs a day the account may send
    size: int | None  # messages it holds (None: no limit)

    @property
    def full(self) -> bool:
        return self.size is not None and self.total >= self.size


def parse_pm_box(data: bytes | str, charset: str | None = None) -> PmBox:
    """The figures of the clean-up page's line ``您目前有消息N条,每日可发送消息M条,最多可存消息X条,…``."""
    text = data if isinstance(data, str) else decode_page(data, charset)
    total = _BOX_TOTAL.search(text)
    if total is None:
        check_page(text)
        raise errors.UnexpectedPage("no 您目前有消息N条 on the PM clean-up page", snippet=errors.snippet_of(text))
    daily, size = _BOX_DAILY.search(text), _BOX_SIZE.search(text)
    return PmBox(int(total.group(1)), int(daily.group(1)) if daily else None, int(size.group(1)) if size else None)


def message_of(text: str) -> tuple[str, str] | None:
    """``(kind, text)`` of a 提示信息 page (kind ``right`` or ``error``), None for other pages."""
    if "regTitle" not in text and "提示信息" not in text[:3000]:
        return None
    tree = html_tree(text)
    ok = tree.xpath(f"//div[{has_class('regCorrect')}]")
    if ok:
        first = ok[0].xpath(".//p")
        return "right", squash(first[0].text_content() if first else ok[0].text_content())
    bad = tree.xpath(f"//div[{has_class('regIgnore')}]")
    if bad:
        lines = [squash(el.text_content()) for el in bad[0].xpath(".//p[1] | .//div | .//li")]
        return "error", " ".join(line for line in lines if line) or squash(bad[0].text_content())
    return None


# The load guard of ``global.php`` (``pwDefendCc``, on while the load is above ``db_loadavg``):
# a bare line instead of the page, before the forum does anything (require/common.php).
_LOAD_GUARD = re.compile(r"\s*Forbidden, Please (?:Refresh|turn off CC)\s*\Z")


def is_load_guard(text: str) -> bool:
    """Whether an answer is the load guard's bare "Forbidden, Please Refresh" (or "…turn off
    CC") instead of a page."""
    return len(text) < 200 and _LOAD_GUARD.match(text) is not None


def check_page(text: str, *, url: str | None = None) -> str | None:
    """Raise the typed error a message page stands for; return a success message, or None."""
    if is_load_guard(text):
        raise errors.ForumBusy(f"the forum's load guard answered {text.strip()!r}", url=url)
    body = ajax_body(text)
    if body is not None:
        return check_ajax(text, url=url).message
    found = message_of(text)
    if found is None:
        return None
    kind, message = found
    if kind == "right":
        return message
    raise classify(message, RULES, url=url)


_LOGIN_CAPTCHA = re.compile(r"""name=["'](gdcode|ckcode|qanswer)["']""")


def login_has_captcha(text: str) -> bool:
    """True when the login form asks for a captcha (``gdcode``) or a security question."""
    return bool(_LOGIN_CAPTCHA.search(text))


def form_fields(data: bytes | str, form_name: str = "FORM", charset: str | None = None) -> dict[str, str]:
    """Every field of ``form[name=FORM]`` (hidden inputs, textarea), ``_hexie`` fixed from JS."""
    text = data if isinstance(data, str) else decode_page(data, charset)
    tree = html_tree(text)
    forms = tree.xpath(f"//form[@name='{form_name}']")
    if not forms:
        check_page(text)
        raise errors.UnexpectedPage(f"no form[name={form_name}]", snippet=errors.snippet_of(text))
    fields: dict[str, str] = {}
    for el in forms[0].xpath(".//input[@name] | .//textarea[@name] | .//select[@name]"):
        kind = (el.get("type") or "").lower()
        if kind in ("checkbox", "radio") and el.get("checked") is None:
            continue
        if kind in ("submit", "button", "file", "image"):
            continue
        if el.tag == "textarea":
            fields[el.get("name")] = el.text or ""
        elif el.tag == "select":
            chosen = el.xpath(".//option[@selected]/@value") or el.xpath(".//option/@value")
            fields[el.get("name")] = chosen[0] if chosen else ""
        else:
            fields[el.get("name")] = el.get("value") or ""
    state = page_state(text)
    if state.hexie and "_hexie" in fields:
        fields["_hexie"] = state.hexie
    return fields


# --------------------------------------------------------------------------- thread pages

_FLOOR_WORDS = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
_FLOOR_N = re.compile(r"(\d+)\s*楼")
_EDIT = re.compile(r"此帖被\s*(.+?)\s*在\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}(?::\d{2})?)\s*重新编辑")
_TID = re.compile(r"[?&]tid=(\d+)")


# What phpwind always prints after each list: a page without it was cut short (fetched again).
THREAD_END = ("<!--发帖回复-->", 'id="checkurl"')  # the reply bar; the link warning box
INBOX_END = ('id="showmessage"',)  # after the conversations' table
CONVERSATION_END = ('name="atc_content"',)  # the reply form, after the ids of the messages
BOARD_END = ("getObj('threadlist')",)  # the list's script (delload), after tbody#threadlist


def _load(data: bytes | str, charset: str | None = None) -> tuple[str, Any]:
    return load_page(data, charset)


def parse_thread_page(
    data: bytes | str, *, tz: tzinfo, now: datetime, tid: str | None = None, charset: str | None = None
) -> ThreadPage:
    """One thread page (``read.php?tid=T&page=N``): ``div.read_t#readfloor_{pid}`` per post."""
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, THREAD_END, "thread page", check_page)  # before parsing: a cut page is not read
    text, tree = _load(page)
    floors = tree.xpath(f"//div[starts-with(@id, 'readfloor_') and {has_class('read_t')}]")
    if not floors:
        check_page(text)
        raise errors.UnexpectedPage("no post (div.read_t#readfloor_N) on this thread page", snippet=errors.snippet_of(text))
    page, pages = pagination(tree)
    thread_tid = tid or _tid_of(tree, floors[0]) or ""
    posts = []
    for index, block in enumerate(floors):
        post = _post(block, tid=thread_tid, tz=tz, now=now)
        if post.floor <= 0:
            post = replace(post, floor=(page - 1) * len(floors) + index + 1)
        posts.append(post)
    crumbs = tree.xpath("//a[starts-with(@href, 'thread.php?fid=')]/@href")
    subject = tree.xpath("//h1[@id='subject_tpc'] | //*[@id='subject_tpc']")
    title = tree.xpath("//title/text()")
    name = squash(subject[0].text or "") if subject else ""
    if not name and title:
        name = squash(title[0].split("|")[0].split(" - ")[0])
    return ThreadPage(
        tid=thread_tid,
        page=page,
        pages=pages,
        posts=tuple(posts),
        subject=name or None,
        fid=url_param(crumbs[-1], "fid") if crumbs else None,
    )


def _tid_of(tree: Any, block: Any) -> str | None:
    for attr in block.xpath(".//a/@onclick | .//a/@href"):
        match = _TID.search(attr)
        if match:
            return match.group(1)
    links = tree.xpath("//a[starts-with(@href, 'read.php?tid=')]/@href")
    return url_param(links[-1], "tid") if links else None


def _post(block: Any, *, tid: str, tz: tzinfo, now: datetime) -> Post:
    pid = block.get("id")[len("readfloor_"):]
    names = block.xpath(f".//div[{has_class('readName')}]//a[starts-with(@href, 'u.php?uid=')]")
    if names:
        author, uid = squash(names[0].text_content()), url_param(names[0].get("href"), "uid") or "0"
    else:  # anonymous (匿名) post
        plain = block.xpath(f".//div[{has_class('readName')}]")
        author, uid = (squash(plain[0].text_content()) if plain else ""), "0"
    tip = block.xpath(f".//div[{has_class('tipTop')}]")
    if not tip:
        raise errors.UnexpectedPage(f"post {pid}: no div.tipTop (floor and time)")
    stamp = tip[0].xpath(".//span[@title]")
    if not stamp:
        raise errors.UnexpectedPage(f"post {pid}: no span[title] time in div.tipTop")
    try:
        posted_at = parse_forum_time(stamp[0].text_content(), title=stamp[0].get("title"), tz=tz, now=now)
    except ValueError as exc:
        raise errors.UnexpectedPage(f"post {pid}: {exc}") from exc
    label = tip[0].xpath(".//a[contains(@onclick, 'copyFloorUrl')]") or tip[0].xpath(f".//a[{has_class('s2')}]")
    floor = _floor(squash(label[0].text_content())) if label else 0
    body = block.xpath(f".//div[@id='read_{pid}']")
    if not body:
        raise errors.UnexpectedPage(f"post {pid}: no div#read_{pid} (post body)")
    edited = None
    for alert in block.xpath(f".//div[@id='alert_{pid}']"):
        found = _EDIT.search(squash(alert.text_content()))
        if found:
            edited = EditMark(by=found.group(1), at=parse_forum_time(found.group(2), tz=tz, now=now))
        drop(alert)
    quotes = tuple(_quote(el) for el in _outermost(body[0]))
    return Post(
        tid=tid,
        pid=pid,
        floor=floor,
        author=author,
        author_uid=uid,
        posted_at=posted_at,
        text=element_text(body[0]),
        quotes=quotes,
        edited=edited,
    )


def _floor(label: str) -> int:
    if label in _FLOOR_WORDS:
        return _FLOOR_WORDS[label]
    match = _FLOOR_N.search(label)
    return int(match.group(1)) + 1 if match else 0


def _outermost(body: Any) -> list[Any]:
    found = body.xpath(".//blockquote")
    members = set(found)
    return [el for el in found if not any(a in members for a in el.iterancestors())]


def _quote(block: Any) -> Quote:
    """Read and remove one ``blockquote.blockquote3`` (author link, ``:``, text, back-link)."""
    author = pid = None
    who = block.xpath(".//a[contains(@href, 'u.php?username=')]")
    if who:
        author = squash(who[0].text_content()) or None
        colon = who[0].getnext()
        if colon is not None and colon.tag == "span" and squash(colon.text_content()) in (":", "："):
            drop(colon)
        drop(who[0])
    back = block.xpath(".//a[contains(@href, 'action=topost')]")
    if back:
        pid = url_param(back[0].get("href"), "pid")
        drop(back[0])
    for header in block.xpath(f".//div[{has_class('quote')}]"):
        drop(header)
    text = element_text(block)
    drop(block)
    return Quote(author=author, pid=pid, text=text)


def pagination(tree: Any) -> tuple[int, int]:
    """``(current page, pages)`` from the first ``div.pages`` (none = one page)."""
    box = tree.xpath(f"//div[{has_class('pages')}][b or .//a[contains(@href, 'page=')]]")
    if not box:
        return 1, 1
    current = box[0].xpath("./b/text()")
    page = int(current[0]) if current and current[0].strip().isdigit() else 1
    numbers = [int(n) for n in re.findall(r"\d+", " ".join(box[0].xpath(".//a/text()")))]
    numbers += [int(p) for p in (url_param(h, "page") for h in box[0].xpath(".//a/@href")) if p and p.isdigit()]
    return page, max([page, *numbers])


# --------------------------------------------------------------------------- board


def parse_board(
    data: bytes | str, *, tz: tzinfo, now: datetime, charset: str | None = None
) -> list[BoardThread]:
    """The threads of a board page (``thread.php?fid=F``): ``<em>replies</em>/hits``, last post.

    A listing cut short is refused (:class:`~shenshi.adapters.errors.IncompletePage`): a
    thread missing from it would look like a thread with no new reply."""
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, BOARD_END, "board listing", check_page)  # before parsing: a cut page is not read
    text, tree = _load(page)
    rows = tree.xpath(f"//tbody[@id='threadlist']/tr[{has_class('tr3')}]")
    if not rows and not tree.xpath("//tbody[@id='threadlist']"):
        check_page(text)
        raise errors.UnexpectedPage("no tbody#threadlist on this board page", snippet=errors.snippet_of(text))
    threads = []
    for row in rows:
        subject = row.xpath(f".//td[{has_class('subject')}]//a[{has_class('subject_t')}]")
        num = row.xpath(f".//td[{has_class('num')}]/em/text()")
        if not subject or not num:
            continue
        cell = row.xpath(f".//td[{has_class('subject')}]")[0]
        tid = (cell.get("id") or "")[len("td_"):] or url_param(subject[0].get("href"), "tid") or ""
        authors = row.xpath(f".//td[{has_class('author')}]")
        author = authors[0].xpath(".//a/text()") if authors else []
        last_by = authors[-1].xpath("./a/text()") if len(authors) > 1 else []
        last_at = None
        stamp = authors[-1].xpath(".//p//a[@title] | .//p//span[@title]") if len(authors) > 1 else []
        if stamp:
            try:
                last_at = parse_forum_time(stamp[0].text_content(), title=stamp[0].get("title"), tz=tz, now=now)
            except ValueError:
                last_at = None
        threads.append(
            BoardThread(
                tid=tid,
                subject=squash(subject[0].text_content()),
                author=squash(author[0]) if author else None,
                replies=int(num[0].strip()),
                last_post_at=last_at,
                last_poster=squash(last_by[0]) if last_by else None,
            )
        )
    return threads


# --------------------------------------------------------------------------- PMs


def parse_inbox(
    data: bytes | str, *, tz: tzinfo, now: datetime, charset: str | None = None
) -> list[ConversationSummary]:
    """The PM inbox (``message.php?type=sms``): ``tr.tr3#sms_{rid}`` per conversation.

    ``ref`` holds the row's link (it carries ``rid`` and ``mid``) to open the conversation.
    """
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, INBOX_END, "PM list", check_page)  # before parsing: a cut page is not read
    text, tree = _load(page)
    rows = tree.xpath(f"//tr[starts-with(@id, 'sms_') and {has_class('tr3')}]")
    if not rows and "message.php?type=sms" not in text:
        check_page(text)
        raise errors.UnexpectedPage("no PM rows (tr.tr3#sms_N) on this page", snippet=errors.snippet_of(text))
    if not rows and "regIgnore" in text:
        check_page(text)
    conversations = []
    for row in rows:
        rid = row.get("id")[len("sms_"):]
        partner = row.xpath(f".//td[{has_class('name')}]//a[starts-with(@href, 'u.php?')]")
        link = row.xpath(f".//td[{has_class('value')}]//h4//a[@href]")
        if not partner or not link:
            raise errors.UnexpectedPage(f"PM row {rid}: no sender link or subject link")
        stamp = row.xpath(f".//td[{has_class('name')}]//span[@title]")
        flag = row.xpath(f".//td[{has_class('value')}]//h4//em")
        conversations.append(
            ConversationSummary(
                id=rid,
                partner=squash(partner[0].text_content()),
                partner_uid=url_param(partner[0].get("href"), "uid") or "",
                unread=bool(flag) and "未读" in flag[0].text_content(),
                last_at=parse_forum_time(stamp[0].text_content(), title=stamp[0].get("title"), tz=tz, now=now)
                if stamp
                else None,
                count=None,
                ref=link[0].get("href"),
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
    """One conversation (``message.php?type=sms&action=info…``): ``table#smsListTable tr.tr3``.

    The first row is the conversation's first message (``parentMid``); each reply written with
    the 回复 button inside the conversation comes as a pair of rows: ``tr#sms_0_N`` (collapsed,
    its sender link in a plain ``td``) and ``tr#sms_1_N`` (expanded, ``td.name`` as usual, no
    title). The collapsed twin is skipped. Rows carry no message ids the inbox shares: the first
    is ``parentMid``, replies get ``{parentMid}.{n}`` in page order. The conversation is
    ``parentMid`` (every inbox row of it, ``RE:`` rows included, opens the same page), else
    ``conversation``, else the page's ``rid``.
    """
    page = data if isinstance(data, str) else decode_page(data, charset)
    require_complete(page, CONVERSATION_END, "conversation page", check_page)  # before parsing: a cut page is not read
    text, tree = _load(page)
    table = tree.xpath("//table[@id='smsListTable']")
    if not table:
        check_page(text)
        raise errors.UnexpectedPage("no table#smsListTable on this conversation page", snippet=errors.snippet_of(text))
    state = page_state(text)
    me_uid, me = state.uid or "", state.username or ""
    rid = tree.xpath("//input[@name='rid']/@value")
    parent = tree.xpath("//input[@name='parentMid']/@value")
    parent_id = parent[0] if parent else (conversation or (rid[0] if rid else ""))
    conversation = parent_id or conversation or ""
    people = [
        squash(a.text_content())
        for a in tree.xpath("//a[starts-with(@href, 'u.php?username=')]")
        if a.getparent() is not None and "参与者" in (a.getparent().text_content() or "")
    ]
    partner = next((p for p in people if p not in ("我", me)), "")
    rows = [
        row
        for row in table[0].xpath(f"./tr[{has_class('tr3')}] | ./tbody/tr[{has_class('tr3')}]")
        if not (row.get("id") or "").startswith("sms_0_")  # the collapsed twin of sms_1_N
    ]
    read = [_message_row(row, index) for index, row in enumerate(rows)]
    partner_uid = next((uid for _, uid, _, _, _ in read if uid != me_uid), None)
    if not partner:
        partner = next((name for name, uid, _, _, _ in read if uid != me_uid), "")
    messages = []
    for index, (sender, sender_uid, stamp, body, subject) in enumerate(read):
        mine = sender_uid == me_uid
        messages.append(
            PrivateMessage(
                id=parent_id if index == 0 else f"{parent_id}.{index}",
                conversation=conversation,
                sender=sender,
                sender_uid=sender_uid,
                recipient=partner if mine else me,
                recipient_uid=partner_uid if mine else (me_uid or None),
                sent_at=parse_forum_time(stamp.text_content(), title=stamp.get("title"), tz=tz, now=now),
                text=element_text(body),
                subject=subject,
            )
        )
    return messages


def _message_row(row: Any, index: int) -> tuple[str, str, Any, Any, str | None]:
    """``(sender, sender uid, time element, text element, subject)`` of one message row."""
    where = f"PM row {index + 1} ({row.get('id') or 'the first message'})"
    who = row.xpath(f".//td[{has_class('name')}]//a[starts-with(@href, 'u.php?uid=')]")
    if not who:
        raise errors.UnexpectedPage(f"{where}: no sender link (td.name a[href^=u.php?uid=])")
    stamp = row.xpath(f".//td[{has_class('name')}]//span[@title]")
    if not stamp:
        raise errors.UnexpectedPage(f"{where}: no time (td.name span[title])")
    box = row.xpath(f".//div[{has_class('textMes')}]")
    if not box:
        raise errors.UnexpectedPage(f"{where}: no div.textMes")
    heading = box[0].xpath("./h1")
    subject = squash(heading[0].text_content()) if heading else None
    for el in heading:
        drop(el)
    return squash(who[0].text_content()), url_param(who[0].get("href"), "uid") or "", stamp[0], box[0], subject


def parse_member_name(data: bytes | str, uid: str, *, charset: str | None = None) -> str:
    """The name on member ``uid``'s space page (``u.php?uid=U``: ``Addtoie(URL, 'NAME的个人主页')``)."""
    text, _ = _load(data, charset)
    found = re.search(rf"Addtoie\('[^']*u\.php\?uid={re.escape(uid)}'\s*,\s*'(.+?)的个人主页'\)", text)
    if not found:
        check_page(text)
        raise errors.UnexpectedPage(f"no name of uid {uid} on this space page", snippet=errors.snippet_of(text))
    return html.unescape(found.group(1))
