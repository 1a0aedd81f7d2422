"""Anti-drift: sandbox pages parsed beside the real captures with the same selectors (FORUMS.md).

Every check is an XPath (lxml) and a pattern: it must find at least one node in the captured page
*and* in the page the sandbox renders, and every value found must match the pattern in both. The
adapters' own parsers read sandbox pages beside the captures, record by record, in
:mod:`test_sandbox_drift_records`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import html as lxml_html
from sandbox_helpers import build_game_thread, client, discuz_login, phpwind_login

from shenshi.adapters.sandbox import ManualClock, SandboxForum, seed_demo, serve

# The captured pages are the adapters' fixtures (one copy in the project).
FIXTURES = Path(__file__).parents[2] / "fixtures"
CAPTURES = {"discuz": FIXTURES / "discuz" / "x3.5", "phpwind": FIXTURES / "phpwind" / "8.7"}
DZ_TIME = r"\d{4}-\d{1,2}-\d{1,2} \d{2}:\d{2}:\d{2}"
DZ_MINUTE = r"\d{4}-\d{1,2}-\d{1,2} \d{2}:\d{2}"
PW_TIME = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"
PW_MINUTE = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}"


@dataclass(frozen=True)
class Check:
    name: str
    xpath: str
    pattern: str = r"(?s).+"
    regex: bool = False  # xpath is a regex over the raw page instead


def values(page: str, check: Check) -> list[str]:
    if check.regex:
        return re.findall(check.xpath, page)
    tree = lxml_html.fromstring(page)
    found = tree.xpath(check.xpath)
    return [v if isinstance(v, str) else v.text_content() for v in found]


DISCUZ_THREAD = [
    Check("discuz_uid JS", r"discuz_uid = '(\d+)'", r"[1-9]\d*", regex=True),
    Check("formhash input", "//input[@name='formhash']/@value", r"[0-9a-f]{8}"),
    Check("post container", "//div[starts-with(@id,'post_')]/table[starts-with(@id,'pid') and contains(@class,'plhin')]/@id", r"pid\d+"),
    Check("author name", "//td[@class='pls']//div[@class='authi']/a[@class='xw1']", r"\S+"),
    Check("author uid", "//td[@class='pls']//div[@class='authi']/a[@class='xw1']/@href", r"home\.php\?mod=space&uid=\d+"),
    Check("time title", "//em[starts-with(@id,'authorposton')]/span/@title", DZ_TIME),
    Check("time text", "//em[starts-with(@id,'authorposton')]", rf"发表于 ({DZ_TIME}|\d+\xa0(秒|分钟|小时|天)前|半小时前|(昨天|前天)\xa0\d\d:\d\d|刚刚)"),
    Check("floor", "//a[starts-with(@id,'postnum')]", r"\s*(楼主|沙发|板凳|地板|\d+#)\s*"),
    Check("body", "//td[contains(@class,'t_f') and starts-with(@id,'postmessage_')]/@id", r"postmessage_\d+"),
    Check("edit mark", "//td[contains(@class,'t_f')]/i[@class='pstatus']", rf" 本帖最后由 \S+ 于 {DZ_MINUTE} 编辑 "),
    Check("quote", "//div[@class='quote']/blockquote/font[@size='2']/a[contains(@href,'goto=findpost')]/font[@color='#999999']", rf"\S+ 发表于 {DZ_MINUTE}"),
    Check("subject", "//span[@id='thread_subject']", r".+"),
    Check("current page", "//div[@class='pg']/strong", r"\d+"),
    Check("page total", "//div[@class='pg']//span/@title", r"共 \d+ 页"),
    Check("next link", "//div[@class='pg']/a[@class='nxt']/@href", r"forum\.php\?mod=viewthread&tid=\d+&extra=page%3D1&page=\d+"),
    Check("fast reply form", "//form[@id='fastpostform']/@action", r"forum\.php\?mod=post&action=reply&fid=\d+&tid=\d+&extra=page%3D1&replysubmit=yes&infloat=yes&handlekey=fastpost"),
]
DISCUZ_BOARD = [
    Check("thread row", "//tbody[starts-with(@id,'normalthread_')]/@id", r"normalthread_\d+"),
    Check("title", "//tbody[starts-with(@id,'normalthread_')]//a[contains(@class,'xst')]", r".+"),
    Check("replies", "//tbody[starts-with(@id,'normalthread_')]//td[@class='num']/a", r"\d+"),
    Check("views", "//tbody[starts-with(@id,'normalthread_')]//td[@class='num']/em", r"\d+"),
    Check("last poster", "//tbody[starts-with(@id,'normalthread_')]//td[@class='by'][2]/cite/a", r"\S+"),
    Check("last post time", "//tbody[starts-with(@id,'normalthread_')]//td[@class='by'][2]//a[contains(@href,'goto=lastpost')]/span/@title", DZ_MINUTE),
]
DISCUZ_INBOX = [
    Check("conversation", "//dl[starts-with(@id,'pmlist_')]/@id", r"pmlist_\d+"),
    Check("unread", "//dl[starts-with(@id,'pmlist_') and contains(concat(' ',@class,' '),' newpm ')]/@id", r"pmlist_\d+"),
    Check("partner", "//dl[starts-with(@id,'pmlist_')]//dd[contains(@class,'pm_c')]/a[contains(@href,'home.php?mod=space&uid=')]/@href", r"home\.php\?mod=space&uid=\d+"),
    Check("time", "//dl[starts-with(@id,'pmlist_')]//span[@class='xg1']/span/@title", DZ_MINUTE),
    Check("count", "//dl[starts-with(@id,'pmlist_')]//span[@class='xg1 z']", r"共 \d+ 条"),
    Check("open link", "//a[starts-with(@id,'pmlist_') and substring(@id, string-length(@id)-1)='_a']/@href", r"home\.php\?mod=space&do=pm&subop=view&touid=\d+#last"),
    Check("banner", "//a[contains(@href,'filter=newpm')]/strong[@class='xi1']", r"\d+"),
]
DISCUZ_VIEW = [
    Check("message", "//div[@id='pm_ul']/dl[starts-with(@id,'pmlist_')]/@id", r"pmlist_\d+"),
    Check("sender", "//div[@id='pm_ul']//dd[@class='ptm']/a[@class='xw1']", r"\S+"),
    Check("time", "//div[@id='pm_ul']//dd[@class='ptm']/span[@class='xg1']/span/@title", DZ_MINUTE),
]
PHPWIND_READ = [
    Check("winduid JS", r"winduid = '(\d+)'", r"[1-9]\d*", regex=True),
    Check("verifyhash JS", r"verifyhash = '(\w+)'", r"[0-9a-f]{8}", regex=True),
    Check("_hexie JS", r"document\.FORM\._hexie\.value\s*=\s*'(\w+)'", r"[0-9a-f]{8}", regex=True),
    Check("post container", "//div[contains(@class,'read_t') and starts-with(@id,'readfloor_')]/@id", r"readfloor_(tpc|\d+)"),
    Check("post id cell", "//td[contains(@class,'floot_right') and starts-with(@id,'td_')]/@id", r"td_(tpc|\d+)"),
    Check("anchor", "//a[starts-with(@name,'post_')]/@name", r"post_(tpc|\d+)"),
    Check("author", "//div[contains(@class,'readName')]/a[starts-with(@href,'u.php?uid=')]/@href", r"u\.php\?uid=\d+"),
    Check("time title", "//div[contains(@class,'tipTop')]//span[@title]/@title", PW_TIME),
    Check("time text", "//div[contains(@class,'tipTop')]//span[@title]", r"发表于: (\d\d-\d\d|\d+(秒|分钟|小时)前|昨天 \d\d:\d\d|\d{4}-\d\d-\d\d)"),
    Check("floor", "//div[contains(@class,'tipTop')]/a[contains(@class,'s2') and contains(@class,'b') and contains(@class,'cp')]", r"楼主|沙发|板凳|地板|\d+楼"),
    Check("body", "//div[contains(@class,'f14') and starts-with(@id,'read_')]/@id", r"read_(tpc|\d+)"),
    Check("pages", "//div[@class='pages']/b", r"\d+"),
]
PHPWIND_READ_EXTRAS = [  # on the captured page 3 and sandbox page 2
    Check("edit mark", "//div[starts-with(@id,'alert_')]", rf"\[ 此帖被\S+在{PW_MINUTE}重新编辑 \]"),
    Check("quote author", "//blockquote[@class='blockquote3']/div[@class='text']/a[contains(@href,'u.php?username=')]", r"\S+"),
    Check("quote back-link", "//blockquote[@class='blockquote3']//a[contains(@href,'job.php?action=topost')]/@href", r".*job\.php\?action=topost&tid=\d+&pid=\d+"),
]
PHPWIND_LIST = [
    Check("row", "//tbody[@id='threadlist']/tr[@class='tr3']/td[@class='subject']/@id", r"td_\d+"),
    Check("title", "//a[starts-with(@id,'a_ajax_')]/@href", r"read\.php\?tid=\d+"),
    Check("replies", "//tbody[@id='threadlist']//td[@class='num']/em", r"\d+"),
    Check("last post", "//tbody[@id='threadlist']//td[@class='author'][2]/p/a/@title", PW_MINUTE),
]
PHPWIND_INBOX = [
    Check("row", "//tr[@class='tr3' and starts-with(@id,'sms_')]/@id", r"sms_\d+"),
    Check("sender", "//tr[starts-with(@id,'sms_')]/td[@class='name']//a[starts-with(@href,'u.php?uid=')]/@href", r"u\.php\?uid=\d+"),
    Check("time", "//tr[starts-with(@id,'sms_')]/td[@class='name']//span/@title", PW_MINUTE),
    Check("link", "//tr[starts-with(@id,'sms_')]/td[@class='value']/h4/a/@href", r"message\.php\?type=sms&action=info&boxname=inbox&page=1&rid=\d+&itype=inbox&smstype=&mid=\d+&redirect=1"),
    Check("unread", "//tr[starts-with(@id,'sms_')]/td[@class='value']/h4/em", r"\(未读\)"),
    Check("preview", "//tr[starts-with(@id,'sms_')]/td[@class='value']/p[contains(@class,'lh_18')]", r".+"),
]
PHPWIND_VIEW = [
    Check("message", "//table[@id='smsListTable']//tr[@class='tr3']//td[@class='name']//a[starts-with(@href,'u.php?uid=')]/@href", r"u\.php\?uid=\d+"),
    Check("time", "//table[@id='smsListTable']//span/@title", PW_MINUTE),
    Check("title", "//table[@id='smsListTable']//div[@class='textMes']/h1", r".+"),
]


@pytest.fixture(scope="module")
def discuz_pages() -> Iterator[dict[str, str]]:
    clock = ManualClock(__import__("sandbox_helpers").START)
    forum = SandboxForum("discuz", clock=clock)
    seed_demo(forum)
    with serve(forum) as base_url:
        tid = build_game_thread(forum, clock)
        forum.send_pm("月光", "神的使者", "占卜 夜行者")
        forum.send_pm("神的使者", "阿杰", "收到")
        http = client(base_url)
        discuz_login(http, "神的使者", "GmPass_2024")
        yield {
            "thread": http.get(f"forum.php?mod=viewthread&tid={tid}&extra=page%3D1&page=2").text,
            "board": http.get("forum.php?mod=forumdisplay&fid=3").text,
            "inbox": http.get("home.php?mod=space&do=pm").text,
            "view": http.get("home.php?mod=space&do=pm&subop=view&touid=11").text,
            "api_view": http.get(f"api/mobile/index.php?version=4&module=viewthread&tid={tid}&page=1").text,
            "api_mypm": http.get("api/mobile/index.php?version=4&module=mypm").text,
        }


@pytest.fixture(scope="module")
def phpwind_pages() -> Iterator[dict[str, str]]:
    clock = ManualClock(__import__("sandbox_helpers").START)
    forum = SandboxForum("phpwind", clock=clock)
    seed_demo(forum)
    with serve(forum) as base_url:
        tid = build_game_thread(forum, clock)
        forum.send_pm("月光", "神的使者", "占卜 夜行者", subject="夜间行动")
        http = client(base_url)
        phpwind_login(http, "神的使者", "GmPass_2024")
        inbox = http.get("message.php?type=sms").text
        link = re.search(r'href="(message\.php\?type=sms&action=info[^"]*)"', inbox).group(1)  # type: ignore[union-attr]
        yield {
            "read": http.get(f"read.php?tid={tid}&page=2").text,
            "list": http.get("thread.php?fid=3").text,
            "inbox": inbox,
            "view": http.get(link.replace("&amp;", "&")).text,
        }


def capture(engine: str, name: str) -> str:
    return (CAPTURES[engine] / name).read_text(encoding="utf-8")


def assert_same_shape(captured: str, rendered: str, checks: list[Check]) -> None:
    for check in checks:
        for label, page in (("capture", captured), ("sandbox", rendered)):
            found = values(page, check)
            assert found, f"{check.name}: {check.xpath!r} found nothing in the {label}"
            bad = [v for v in found if not re.fullmatch(check.pattern, v)]
            assert not bad, f"{check.name} in the {label}: {bad[:3]} do not match {check.pattern!r}"


@pytest.mark.parametrize(("page", "capture_name", "checks"), [
    ("thread", "viewthread_p3.html", DISCUZ_THREAD),
    ("board", "forumdisplay_fid3.html", DISCUZ_BOARD),
    ("inbox", "pm_inbox_unread.html", DISCUZ_INBOX),
    ("view", "pm_conversation_view_touid11_yueguang.html", DISCUZ_VIEW),
])
def test_discuz_pages_match_the_captures(discuz_pages: dict[str, str], page: str, capture_name: str,
                                         checks: list[Check]) -> None:
    assert_same_shape(capture("discuz", capture_name), discuz_pages[page], checks)


@pytest.mark.parametrize(("page", "capture_name", "checks"), [
    ("read", "read_p3.html", PHPWIND_READ + PHPWIND_READ_EXTRAS),
    ("list", "thread_list_fid3.html", PHPWIND_LIST),
    ("inbox", "pm_inbox_unread.html", PHPWIND_INBOX),
    ("view", "pm_conversation_view.html", PHPWIND_VIEW),
])
def test_phpwind_pages_match_the_captures(phpwind_pages: dict[str, str], page: str, capture_name: str,
                                          checks: list[Check]) -> None:
    assert_same_shape(capture("phpwind", capture_name), phpwind_pages[page], checks)


def _shape(value: object) -> object:
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return type(value).__name__


def _covers(captured: object, rendered: object, path: str = "") -> list[str]:
    """Keys of ``captured`` the adapters may read that ``rendered`` lacks or types differently."""
    if isinstance(captured, dict) and isinstance(rendered, dict):
        return [m for k in captured if k in rendered for m in _covers(captured[k], rendered[k], f"{path}.{k}")] + [
            f"{path}.{k}" for k in captured if k not in rendered]
    if isinstance(captured, list) and isinstance(rendered, list):
        return _covers(captured[0], rendered[0], path + "[]") if captured and rendered else []
    return [] if captured == rendered or "NoneType" in (captured, rendered) else [f"{path}: {captured} vs {rendered}"]


@pytest.mark.parametrize(("page", "capture_name", "required"), [
    ("api_view", "api_viewthread_p1.json",
     {"Variables": {"formhash": 0, "member_uid": 0, "ppp": 0, "thread": {"replies": 0, "subject": 0},
                    "postlist": [{"pid": 0, "author": 0, "authorid": 0, "dateline": 0, "dbdateline": 0,
                                  "message": 0, "number": 0, "first": 0}]}}),
    ("api_mypm", "api_mypm_list.json",
     {"Variables": {"list": [{"plid": 0, "isnew": 0, "touid": 0, "tousername": 0, "msgfrom": 0,
                              "msgfromid": 0, "message": 0, "vdateline": 0}], "count": 0}}),
])
def test_discuz_mobile_json_keeps_the_captured_shape(discuz_pages: dict[str, str], page: str,
                                                     capture_name: str, required: dict) -> None:
    captured = _shape(json.loads(capture("discuz", capture_name)))
    rendered = _shape(json.loads(discuz_pages[page]))
    assert not _covers(_pick(captured, required), rendered)


def _pick(shape: object, required: object) -> object:
    if isinstance(required, dict) and isinstance(shape, dict):
        return {k: _pick(shape[k], v) for k, v in required.items()}
    if isinstance(required, list) and isinstance(shape, list):
        return [_pick(shape[0], required[0])]
    return shape
