#!/usr/bin/env python3
"""forumctl.py - a small command-line CLIENT for Discuz! X3.x and phpwind 8.x forums.

(Vendored from ../shared/realforum/forumctl.py, with the CC guard waited out (issue 22): the
generic forum client that played the players on the real installs. The sandbox must serve it as
the real Discuz and phpwind do (tests/sandbox/test_generic_client.py); the real-forum suite
(tests/real/) plays its players with it. Keep it as close to the original as possible.)

Requirements
  * Python >= 3.11
  * httpx >= 0.24          (pip install httpx)
  * lxml  >= 4.9           (pip install lxml)
  * the `mysql` command-line client (MariaDB or MySQL) on PATH, only for the db-truth / db-pms subcommands
It talks to a running forum over HTTP exactly as a browser would (login form, formhash / verify tokens,
cookies) and, for db-truth / db-pms, reads the forum's database with the mysql CLI.  It contains no forum
code and installs nothing.

Usage
  forumctl.py --engine discuz|phpwind --base URL --user NAME --password PW post-reply TID "text" [--quote PID] [--fid FID]
  forumctl.py ... send-pm TO_NAME "text" [--title T]            (phpwind needs a title; default: start of the text)
  forumctl.py ... new-thread FID "subject" "text"
  forumctl.py ... edit-post TID PID "new text" [--fid FID]
  forumctl.py ... list-inbox [--max-pages N]
  forumctl.py --engine E --db-user U --db-password P --db-name D --prefix pre_ db-truth TID
  forumctl.py --engine E --db-user U --db-password P --db-name D --prefix pw_ db-pms USERNAME
Every subcommand prints one JSON document on stdout; errors go to stderr as JSON {"ok": false, "error": ...}
and the exit status is 1 (2 for usage errors).

Behaviour worth knowing
  * Discuz: logs in through member.php?mod=logging&action=login (the form's loginhash + formhash). A login or
    post captcha (seccode) cannot be solved: the command fails with a clear message.
  * phpwind: its anti-CSRF `verify` token is md5(uid + siteid + User-Agent), so one fixed User-Agent is sent on
    every request of a run (--user-agent to change it). Post forms also carry `_hexie`, set by inline JS.
  * Flood control: on "抱歉，您两次发表间隔少于 N 秒" / "两次发送短消息太快" (Discuz) or
    "灌水预防机制已经打开，在N秒内不能发帖" (phpwind) the command waits (N+1 s, or --flood-wait) and retries,
    up to --retries times; the JSON result reports how long it waited.
  * Pages are decoded with the charset the page declares (phpwind sites are often GBK) and forms are sent back
    in that charset.
"""
from __future__ import annotations

import argparse
import binascii
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass

import httpx
import lxml.html

# A plain desktop browser string. Do not append a tool name: Discuz's checkmobile() matches substrings such as
# 'ctl', 'lg', 'mot', 'sed' anywhere in the User-Agent and then serves its WML/touch pages instead of the PC ones.
DEFAULT_UA = ('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) '
              'Chrome/120.0 Safari/537.36')


class ForumError(Exception):
    """A forum refused an action or answered something unexpected."""


class FloodError(ForumError):
    def __init__(self, message: str, wait: float | None):
        super().__init__(message)
        self.wait = wait


def _text(s: str | None) -> str:
    return re.sub(r'\s+', ' ', s or '').strip()


def _strip_tags(s: str) -> str:
    return _text(re.sub(r'<[^>]+>', ' ', s))


# ----------------------------------------------------------------------------------------------------------------
# HTTP session shared by both engines
# ----------------------------------------------------------------------------------------------------------------
class Web:
    def __init__(self, base: str, user_agent: str = DEFAULT_UA, timeout: float = 60.0, verbose: bool = False):
        if not base.endswith('/'):
            base += '/'
        self.base = base
        self.verbose = verbose
        self.client = httpx.Client(headers={'User-Agent': user_agent, 'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.5'},
                                   timeout=timeout, follow_redirects=False)
        self.charset = 'utf-8'

    def url(self, path: str) -> str:
        return path if re.match(r'https?://', path) else urllib.parse.urljoin(self.base, path.lstrip('/'))

    def _log(self, *a):
        if self.verbose:
            print('[forumctl]', *a, file=sys.stderr)

    def decode(self, r: httpx.Response) -> str:
        cs = None
        ct = r.headers.get('content-type', '')
        m = re.search(r'charset=([\w-]+)', ct, re.I)
        if m:
            cs = m.group(1)
        else:
            head = r.content[:4096].decode('ascii', 'replace')
            m = (re.search(r'<meta[^>]+charset=["\']?([\w-]+)', head, re.I)
                 or re.search(r'<\?xml[^>]+encoding=["\']([\w-]+)', head, re.I))
            if m:
                cs = m.group(1)
        cs = (cs or 'utf-8').lower()
        if cs == 'gb2312':
            cs = 'gbk'
        if r.headers.get('content-type', '').startswith('text/html') or cs != 'utf-8':
            self.charset = cs  # forms go back in the declared charset, as a browser sends them
        # GB18030 decodes everything GBK does; encoding stays GBK so that characters outside it
        # become &#N; references (what browsers send), not GB18030 four-byte sequences
        return r.content.decode('gb18030' if cs == 'gbk' else cs, 'replace')

    def get(self, path: str, follow: bool = True) -> tuple[httpx.Response, str]:
        url = self.url(path)
        for _ in range(10):
            self._log('GET', url)
            r = self.client.get(url)
            if follow and r.status_code in (301, 302, 303, 307) and r.headers.get('location'):
                url = urllib.parse.urljoin(url, r.headers['location'])
                continue
            if self._guarded(r, url):
                continue
            return r, self.decode(r)
        raise ForumError('too many redirects: ' + url)

    def _guarded(self, r: httpx.Response, url: str) -> bool:
        """(added in /work/realforum; issue 22) phpwind's CC guard (on while the server's load
        average > db_loadavg) answered instead of the page, before the forum did anything: it
        sets its c_stamp cookie, and a request that carries it passes. Wait a moment and send
        the request again, as a person pressing refresh; its bytes never set the charset."""
        if not r.content.startswith(b'Forbidden, Please'):
            self._guards = 0
            return False
        self._guards = getattr(self, '_guards', 0) + 1
        if self._guards > 8:
            raise ForumError('phpwind CC guard answered %r for %s again and again: set db_loadavg=0 (or wait for '
                             'the load to drop)' % (r.content[:40].decode('ascii', 'replace'), url))
        self._log('CC guard', url)
        time.sleep(1.5)
        return True

    def post(self, path: str, fields, referer: str | None = None) -> tuple[httpx.Response, str]:
        url = self.url(path)
        items = list(fields.items()) if isinstance(fields, dict) else list(fields)
        enc = self.charset if self.charset != 'utf-8' else 'utf-8'
        body = urllib.parse.urlencode([(k, '' if v is None else str(v)) for k, v in items], encoding=enc,
                                      errors='xmlcharrefreplace')
        headers = {'Content-Type': 'application/x-www-form-urlencoded', 'Referer': referer or url,
                   'Origin': self.base.rstrip('/')}
        self._log('POST', url, [k for k, _ in items])
        while True:
            r = self.client.post(url, content=body.encode('ascii'), headers=headers)
            if not self._guarded(r, url):
                return r, self.decode(r)

    def cookie_endswith(self, suffix: str) -> str | None:
        for c in self.client.cookies.jar:
            if c.name.endswith(suffix) and c.value and c.value != 'deleted':
                return c.value
        return None


def parse(html: str):
    return lxml.html.fromstring(html or '<html></html>')


def form_fields(form) -> list[tuple[str, str]]:
    """The fields a browser would submit for an lxml <form> (no submit buttons, only checked boxes)."""
    out = []
    for el in form.iter('input', 'textarea', 'select'):
        name = el.get('name')
        if not name:
            continue
        if el.tag == 'input':
            t = (el.get('type') or 'text').lower()
            if t in ('submit', 'button', 'image', 'file', 'reset'):
                continue
            if t in ('checkbox', 'radio') and el.get('checked') is None:
                continue
            out.append((name, el.get('value', '')))
        elif el.tag == 'textarea':
            out.append((name, el.text or ''))
        else:
            opts = el.xpath('.//option[@selected]') or el.xpath('.//option')
            if opts:
                out.append((name, opts[0].get('value', opts[0].text or '')))
    return out


def set_field(fields: list[tuple[str, str]], name: str, value) -> list[tuple[str, str]]:
    value = '' if value is None else str(value)
    out, done = [], False
    for k, v in fields:
        if k == name:
            if not done:
                out.append((k, value))
                done = True
        else:
            out.append((k, v))
    if not done:
        out.append((name, value))
    return out


def get_field(fields, name, default=None):
    for k, v in fields:
        if k == name:
            return v
    return default


# ----------------------------------------------------------------------------------------------------------------
# Discuz! X3.x
# ----------------------------------------------------------------------------------------------------------------
DZ_FLOOD_RE = re.compile(r'间隔少于\s*(\d+)\s*秒|两次发送短消息太快|请稍候再发|post_flood_ctrl')


class Discuz:
    engine = 'discuz'

    def __init__(self, web: Web, flood_wait: float = 16.0):
        self.w = web
        self.flood_wait = flood_wait
        self.uid = 0
        self.username = None

    # -- helpers
    @staticmethod
    def message(html: str) -> str:
        """The text of a Discuz message page / inajax answer."""
        m = re.search(r'<!\[CDATA\[(.*?)\]\]>', html, re.S)
        if m and '<div id="messagetext"' not in html:
            inner = m.group(1)
            m2 = re.search(r"(?:errorhandle|succeedhandle)_\w*\('(?:[^']*)',\s*'([^']*)'", inner) or \
                re.search(r"(?:errorhandle|succeedhandle)_\w*\('([^']*)'", inner)
            return _strip_tags(m2.group(1) if m2 else inner)
        m = re.search(r'<div id="messagetext"[^>]*>(.*?)</div>', html, re.S)
        if m:
            p = re.search(r'<p>(.*?)</p>', m.group(1), re.S)
            return _strip_tags(p.group(1) if p else m.group(1))
        m = re.search(r'<div class="alert_\w+"[^>]*>(.*?)</div>', html, re.S)
        if m:
            return _strip_tags(m.group(1))
        t = re.search(r'<title>(.*?)</title>', html, re.S)
        return _strip_tags(t.group(1)) if t else _strip_tags(html[:300])

    def check_flood(self, msg: str):
        m = DZ_FLOOD_RE.search(msg)
        if m:
            wait = float(m.group(1)) + 1 if m.group(1) else self.flood_wait
            raise FloodError(msg, wait)

    @staticmethod
    def formhash(html: str) -> str | None:
        m = re.search(r'name="formhash" value="([0-9a-zA-Z]+)"', html) or re.search(r'formhash=([0-9a-zA-Z]{8})', html)
        return m.group(1) if m else None

    def _uid_of(self, html: str) -> int:
        m = re.search(r"discuz_uid\s*=\s*'(\d+)'", html)
        return int(m.group(1)) if m else 0

    # -- login
    def login(self, username: str, password: str):
        r, html = self.w.get('member.php?mod=logging&action=login')
        doc = parse(html)
        forms = [f for f in doc.xpath('//form') if 'loginsubmit=yes' in (f.get('action') or '')]
        if not forms:
            if self._uid_of(html):
                self.uid = self._uid_of(html)
                return
            raise ForumError('login form not found: ' + self.message(html))
        form = forms[0]
        if form.xpath('.//input[starts-with(@name,"seccodeverify")]') or 'seccode_' in lxml.html.tostring(form, encoding='unicode'):
            raise ForumError('this Discuz asks for a captcha (seccode) on login; switch it off or reuse a session')
        fields = form_fields(form)
        for k, v in (('loginfield', 'username'), ('username', username), ('password', password), ('questionid', '0'),
                     ('answer', ''), ('cookietime', '2592000')):
            fields = set_field(fields, k, v)
        if not get_field(fields, 'referer'):
            fields = set_field(fields, 'referer', self.w.url('forum.php'))
        if not get_field(fields, 'formhash'):
            fields = set_field(fields, 'formhash', self.formhash(html) or '')
        r, html2 = self.w.post(form.get('action'), fields, referer=str(r.url))
        if not self.w.cookie_endswith('_auth'):
            raise ForumError('login failed: ' + self.message(html2))
        self.username = username
        r, html3 = self.w.get('home.php?mod=spacecp&ac=profile')
        self.uid = self._uid_of(html3)
        if not self.uid:
            raise ForumError('login looked successful but the pages still show a guest')

    # -- posting
    def _submit_postform(self, form_path: str, setter, success_re: str, what: str):
        """GET a page with form#postform, fill it, POST it; retry on flood. Returns (location, waited_seconds)."""
        waited = 0.0
        for attempt in range(self.retries + 1):
            r, html = self.w.get(form_path)
            doc = parse(html)
            forms = doc.xpath('//form[@id="postform"]')
            if not forms:
                raise ForumError(f'{what}: no post form: ' + self.message(html))
            form = forms[0]
            if form.xpath('.//input[starts-with(@name,"seccodeverify")]'):
                raise ForumError(f'{what}: this Discuz asks for a captcha (seccode) when posting')
            fields = setter(form_fields(form))
            fields = set_field(fields, 'posttime', int(time.time()))
            fields = set_field(fields, 'wysiwyg', '0')
            r2, html2 = self.w.post(form.get('action'), fields, referer=str(r.url))
            loc = r2.headers.get('location', '')
            if r2.status_code in (301, 302) and re.search(success_re, loc):
                return urllib.parse.urljoin(str(r2.url), loc), waited
            msg = self.message(html2)
            try:
                self.check_flood(msg)
            except FloodError as e:
                if attempt >= self.retries:
                    raise
                time.sleep(e.wait)
                waited += e.wait
                continue
            raise ForumError(f'{what} failed: HTTP {r2.status_code}: {msg}')
        raise ForumError(f'{what}: gave up')

    retries = 5

    def reply(self, tid: int, text: str, quote_pid: int | None = None, fid: int | None = None) -> dict:
        path = f'forum.php?mod=post&action=reply&tid={tid}' + (f'&fid={fid}' if fid else '') + \
               (f'&repquote={quote_pid}' if quote_pid else '')

        def setter(f):
            f = set_field(f, 'message', text)
            f = set_field(f, 'subject', get_field(f, 'subject', '') if quote_pid else '')
            return set_field(f, 'replysubmit', 'yes')
        loc, waited = self._submit_postform(path, setter, r'pid=\d+', 'reply')
        pid = int(re.search(r'pid=(\d+)', loc).group(1))
        page = re.search(r'[?&]page=(\d+)', loc)
        return {'ok': True, 'engine': self.engine, 'action': 'post-reply', 'tid': tid, 'pid': pid,
                'page': int(page.group(1)) if page else None, 'url': loc, 'flood_waited_s': waited}

    def new_thread(self, fid: int, subject: str, text: str) -> dict:
        def setter(f):
            f = set_field(f, 'subject', subject)
            f = set_field(f, 'message', text)
            return set_field(f, 'topicsubmit', 'yes')
        loc, waited = self._submit_postform(f'forum.php?mod=post&action=newthread&fid={fid}', setter, r'tid=\d+',
                                            'new-thread')
        tid = int(re.search(r'tid=(\d+)', loc).group(1))
        return {'ok': True, 'engine': self.engine, 'action': 'new-thread', 'fid': fid, 'tid': tid, 'url': loc,
                'flood_waited_s': waited}

    def edit(self, tid: int, pid: int, text: str, fid: int | None = None) -> dict:
        path = f'forum.php?mod=post&action=edit&tid={tid}&pid={pid}' + (f'&fid={fid}' if fid else '')

        def setter(f):
            f = set_field(f, 'message', text)
            return set_field(f, 'editsubmit', 'yes')
        loc, waited = self._submit_postform(path, setter, r'tid=\d+', 'edit-post')
        return {'ok': True, 'engine': self.engine, 'action': 'edit-post', 'tid': tid, 'pid': pid, 'url': loc,
                'flood_waited_s': waited}

    # -- private messages
    def send_pm(self, to_name: str, text: str, title: str | None = None) -> dict:
        waited = 0.0
        for attempt in range(self.retries + 1):
            r, html = self.w.get('home.php?mod=spacecp&ac=pm')
            forms = parse(html).xpath('//form[@id="pmform_0"]')
            if not forms:
                raise ForumError('send-pm: no PM form: ' + self.message(html))
            fields = form_fields(forms[0])
            fields = set_field(fields, 'username', to_name)
            fields = set_field(fields, 'message', text)
            fields = set_field(fields, 'pmsubmit', 'true')
            if not get_field(fields, 'formhash'):
                fields = set_field(fields, 'formhash', self.formhash(html))
            r2, html2 = self.w.post(forms[0].get('action'), fields, referer=str(r.url))
            loc = r2.headers.get('location', '')
            if r2.status_code in (301, 302) and 'do=pm' in loc:
                return {'ok': True, 'engine': self.engine, 'action': 'send-pm', 'to': to_name,
                        'url': urllib.parse.urljoin(str(r2.url), loc), 'flood_waited_s': waited}
            msg = self.message(html2)
            try:
                self.check_flood(msg)
            except FloodError as e:
                if attempt >= self.retries:
                    raise
                time.sleep(e.wait)
                waited += e.wait
                continue
            raise ForumError(f'send-pm failed: HTTP {r2.status_code}: {msg}')
        raise ForumError('send-pm: gave up')

    def list_inbox(self, max_pages: int = 20) -> dict:
        items, page = [], 1
        while page <= max_pages:
            r, html = self.w.get(f'home.php?mod=space&do=pm&page={page}')
            if not self._uid_of(html):
                raise ForumError('list-inbox: not logged in: ' + self.message(html))
            doc = parse(html)
            dls = [d for d in doc.xpath('//dl[starts-with(@id,"pmlist_")]') if re.fullmatch(r'pmlist_\d+', d.get('id'))]
            for dl in dls:
                plid = int(dl.get('id').split('_')[1])
                dd = dl.xpath('.//dd[contains(@class,"pm_c")]')
                dd = dd[0] if dd else dl
                raw = lxml.html.tostring(dd, encoding='unicode')
                names = [a for a in dd.xpath('.//a[contains(@href,"mod=space") and contains(@href,"uid=")]')
                         if _text(a.text_content())]
                partner = _text(names[0].text_content()) if names else None
                puid = int(re.search(r'uid=(\d+)', names[0].get('href')).group(1)) if names else None
                head = raw.split('说 :', 1)[0]
                last_from_me = bool(re.search(r'<span class="xi2 xw1">您</span>\s*对', head))
                body = re.search(r'说 :<br\s*/?>(.*?)<br\s*/?>\s*<span class="xg1">', raw, re.S)
                tspan = dd.xpath('.//span[contains(@class,"xg1")]/span[@title]')
                count = re.search(r'共\s*(\d+)\s*条', raw)
                link = dl.xpath(f'.//a[@id="pmlist_{plid}_a"]')
                items.append({
                    'conversation_id': plid, 'partner': partner, 'partner_uid': puid,
                    # every row has a div.newpm_avt; only unread conversations have the class "newpm" on the <dl>
                    'unread': 'newpm' in (dl.get('class') or '').split(),
                    'last_from': self.username if last_from_me else partner,
                    'last_message': lxml.html.fromstring('<div>' + body.group(1) + '</div>').text_content().replace('\xa0', ' ').strip() if body else None,
                    'time': tspan[0].get('title') if tspan else None,
                    'time_text': _text(tspan[0].text_content()).replace('\xa0', ' ') if tspan else None,
                    'messages': int(count.group(1)) if count else None,
                    'url': self.w.url(link[0].get('href')) if link else None,
                })
            nxt = doc.xpath('//div[contains(@class,"pg")]//a[contains(@class,"nxt")]')
            if not dls or not nxt:
                break
            page += 1
        return {'ok': True, 'engine': self.engine, 'action': 'list-inbox', 'user': self.username, 'uid': self.uid,
                'count': len(items), 'conversations': items}


# ----------------------------------------------------------------------------------------------------------------
# phpwind 8.x
# ----------------------------------------------------------------------------------------------------------------
PW_FLOOD_RE = re.compile(r'灌水预防机制已经打开，在\s*(\d+)\s*秒内不能发帖|灌水预防')


class Phpwind:
    engine = 'phpwind'
    retries = 5

    def __init__(self, web: Web, flood_wait: float = 6.0):
        self.w = web
        self.flood_wait = flood_wait
        self.uid = 0
        self.username = None

    @staticmethod
    def message(html: str) -> str:
        m = re.search(r'<ajax><!\[CDATA\[(.*?)\]\]></ajax>', html, re.S)
        if m:
            return m.group(1).strip()
        for pat in (r'<p class="f14 mb10">(.*?)</p>', r'<div class="f14 mb10">(.*?)</div>', r'<div id="showmsg"[^>]*>(.*?)</div>'):
            m = re.search(pat, html, re.S)
            if m:
                return _strip_tags(m.group(1))
        t = re.search(r'<title>(.*?)</title>', html, re.S)
        return _strip_tags(t.group(1)) if t else _strip_tags(html[:300])

    @staticmethod
    def verify(html: str) -> str | None:
        m = re.search(r'name="verify" value="([0-9a-f]+)"', html) or re.search(r"verifyhash\s*=\s*'([0-9a-f]+)'", html)
        return m.group(1) if m else None

    @staticmethod
    def hexie(html: str) -> str:
        m = re.search(r"_hexie\.value\s*=\s*'([0-9a-zA-Z]+)'", html)
        return m.group(1) if m else ''

    def _uid_of(self, html: str) -> int:
        m = re.search(r"winduid\s*=\s*'(\d+)'", html)
        return int(m.group(1)) if m else 0

    def check_flood(self, msg: str):
        m = PW_FLOOD_RE.search(msg)
        if m:
            raise FloodError(msg, float(m.group(1)) + 1.5 if m.group(1) else self.flood_wait)

    def login(self, username: str, password: str):
        r, html = self.w.get('login.php')
        doc = parse(html)
        if doc.xpath('//input[@name="gdcode"]'):
            raise ForumError('this phpwind asks for a captcha (gdcode) on login')
        fields = [('forward', ''), ('jumpurl', self.w.url('index.php')), ('step', '2'), ('lgt', '0'),
                  ('pwuser', username), ('pwpwd', password), ('hideid', '0'), ('cktime', '31536000')]
        r2, html2 = self.w.post('login.php?', fields, referer=str(r.url))
        if not self.w.cookie_endswith('winduser'):
            raise ForumError('login failed: ' + self.message(html2))
        self.username = username
        r3, html3 = self.w.get('index.php')
        self.uid = self._uid_of(html3)
        if not self.uid:
            raise ForumError('login looked successful but the pages still show a guest')

    def fid_of_thread(self, tid: int) -> int:
        r, html = self.w.get(f'read.php?tid={tid}')
        m = re.search(r"\bfid\s*=\s*'(\d+)'", html) or re.search(r'post\.php\?action=reply&(?:amp;)?fid=(\d+)', html) \
            or re.search(r'thread\.php\?fid=(\d+)', html)
        if not m:
            raise ForumError(f'thread {tid}: cannot find its board: ' + self.message(html))
        return int(m.group(1))

    def _submit(self, form_path: str, setter, what: str) -> tuple[str, float]:
        waited = 0.0
        for attempt in range(self.retries + 1):
            r, html = self.w.get(form_path)
            forms = parse(html).xpath('//form[@name="FORM"]')
            if not forms:
                raise ForumError(f'{what}: no post form: ' + self.message(html))
            form = forms[0]
            fields = form_fields(form)
            fields = set_field(fields, '_hexie', self.hexie(html))
            if not get_field(fields, 'verify'):
                fields = set_field(fields, 'verify', self.verify(html))
            fields = setter(fields)
            fields = set_field(fields, 'ajax', '1')
            fields = [(k, v) for k, v in fields if k != 'atc_attachment']
            r2, html2 = self.w.post(form.get('action') or 'post.php?', fields, referer=str(r.url))
            msg = self.message(html2)
            if msg.startswith('success'):
                return msg, waited
            try:
                self.check_flood(msg)
            except FloodError as e:
                if attempt >= self.retries:
                    raise
                time.sleep(e.wait)
                waited += e.wait
                continue
            raise ForumError(f'{what} failed: HTTP {r2.status_code}: {msg}')
        raise ForumError(f'{what}: gave up')

    def _my_last_pid(self, tid: int) -> tuple[int | None, int | None]:
        r, html = self.w.get(f'read.php?tid={tid}&page=e')
        doc = parse(html)
        best = None
        for div in doc.xpath('//div[starts-with(@id,"readfloor_")]'):
            pid = div.get('id').split('_', 1)[1]
            a = div.xpath('.//div[contains(@class,"readName")]//a[starts-with(@href,"u.php?uid=")]')
            if a and pid.isdigit() and int(re.search(r'uid=(\d+)', a[0].get('href')).group(1)) == self.uid:
                best = max(best or 0, int(pid))
        page = doc.xpath('//div[contains(@class,"pages")]//b')
        return best, (int(page[0].text) if page and (page[0].text or '').isdigit() else 1)

    def reply(self, tid: int, text: str, quote_pid: int | None = None, fid: int | None = None) -> dict:
        fid = fid or self.fid_of_thread(tid)
        if quote_pid:
            path = f'post.php?action=quote&fid={fid}&tid={tid}&pid={quote_pid}'
        else:
            path = f'post.php?action=reply&fid={fid}&tid={tid}'

        def setter(f):
            # the quote form pre-fills atc_content with [quote]...[/quote]; keep it and add the text after it
            prefix = get_field(f, 'atc_content', '') if quote_pid else ''
            if prefix and not prefix.endswith('\n'):
                prefix += '\n'
            f = set_field(f, 'atc_content', prefix + text)
            return set_field(f, 'atc_title', get_field(f, 'atc_title', '') if quote_pid else '')
        msg, waited = self._submit(path, setter, 'reply')
        pid, page = self._my_last_pid(tid)
        return {'ok': True, 'engine': self.engine, 'action': 'post-reply', 'tid': tid, 'fid': fid, 'pid': pid,
                'page': page, 'url': self.w.url(msg.split('\t', 1)[1]) if '\t' in msg else None, 'flood_waited_s': waited}

    def new_thread(self, fid: int, subject: str, text: str) -> dict:
        def setter(f):
            f = set_field(f, 'atc_title', subject)
            return set_field(f, 'atc_content', text)
        msg, waited = self._submit(f'post.php?fid={fid}', setter, 'new-thread')
        m = re.search(r'tid=(\d+)', msg)
        return {'ok': True, 'engine': self.engine, 'action': 'new-thread', 'fid': fid, 'tid': int(m.group(1)) if m else None,
                'url': self.w.url(msg.split('\t', 1)[1]) if '\t' in msg else None, 'flood_waited_s': waited}

    def edit(self, tid: int, pid: int, text: str, fid: int | None = None) -> dict:
        fid = fid or self.fid_of_thread(tid)
        path = f'post.php?action=modify&fid={fid}&tid={tid}&pid={pid}'

        def setter(f):
            return set_field(f, 'atc_content', text)
        msg, waited = self._submit(path, setter, 'edit-post')
        return {'ok': True, 'engine': self.engine, 'action': 'edit-post', 'tid': tid, 'pid': pid,
                'url': self.w.url(msg.split('\t', 1)[1]) if '\t' in msg else None, 'flood_waited_s': waited}

    def send_pm(self, to_name: str, text: str, title: str | None = None) -> dict:
        if not title:
            title = _text(text)[:20] or '消息'
        waited = 0.0
        for attempt in range(self.retries + 1):
            r, html = self.w.get('message.php?type=post&username=' + urllib.parse.quote(to_name, encoding=self.w.charset))
            v = self.verify(html)
            if not v:
                raise ForumError('send-pm: no verify token (not logged in?): ' + self.message(html))
            fields = [('verify', v), ('step', '2'), ('_usernames[]', to_name), ('atc_title', title), ('atc_content', text)]
            r2, html2 = self.w.post('message.php?type=ajax&action=post', fields, referer=str(r.url))
            msg = self.message(html2)
            try:
                res = json.loads(msg)
            except ValueError:
                res = {'bool': False, 'message': msg}
            if res.get('bool') is True:
                return {'ok': True, 'engine': self.engine, 'action': 'send-pm', 'to': to_name, 'title': title,
                        'message': res.get('message'), 'flood_waited_s': waited}
            try:
                self.check_flood(str(res.get('message')))
            except FloodError as e:
                if attempt >= self.retries:
                    raise
                time.sleep(e.wait)
                waited += e.wait
                continue
            raise ForumError(f'send-pm failed: {res.get("message")}')
        raise ForumError('send-pm: gave up')

    def list_inbox(self, max_pages: int = 20) -> dict:
        items, seen, page = [], set(), 1
        total = None
        while page <= max_pages:
            r, html = self.w.get(f'message.php?type=sms&action=&page={page}')
            if not self._uid_of(html):
                raise ForumError('list-inbox: not logged in: ' + self.message(html))
            doc = parse(html)
            if total is None:
                m = re.search(r'站内信</span>\(共(\d+)条', html)
                total = int(m.group(1)) if m else None
            rows = doc.xpath('//tr[starts-with(@id,"sms_")]')
            new = 0
            for tr in rows:
                rid = int(tr.get('id').split('_')[1])
                if rid in seen:
                    continue
                seen.add(rid)
                new += 1
                who = tr.xpath('.//td[contains(@class,"name")]//a[starts-with(@href,"u.php?uid=")]')
                ts = tr.xpath('.//td[contains(@class,"name")]//span[@title]')
                link = tr.xpath('.//td[contains(@class,"value")]//h4//a')
                href = link[0].get('href') if link else ''
                mid = re.search(r'mid=(\d+)', href)
                em = tr.xpath('.//td[contains(@class,"value")]//h4//em')
                prev = tr.xpath('.//td[contains(@class,"value")]//p')
                label = _text(tr.xpath('.//td[contains(@class,"name")]/p')[0].text_content()) if tr.xpath('.//td[contains(@class,"name")]/p') else ''
                items.append({
                    'conversation_id': int(mid.group(1)) if mid else None, 'rid': rid,
                    'partner': _text(who[0].text_content()) if who else None,
                    'partner_uid': int(re.search(r'uid=(\d+)', who[0].get('href')).group(1)) if who else None,
                    'direction': 'from' if label.startswith('来自') else ('to' if label.startswith('发给') else label.split(':')[0]),
                    'unread': bool(em and '未读' in em[0].text_content()),
                    'subject': _text(link[0].text_content()) if link else None,
                    'last_message': _text(prev[0].text_content()) if prev else None,
                    'time': ts[0].get('title') if ts else None,
                    'time_text': _text(ts[0].text_content()) if ts else None,
                    'url': self.w.url(href) if href else None,
                })
            if not rows or not new or (total is not None and len(items) >= total):
                break
            page += 1
        return {'ok': True, 'engine': self.engine, 'action': 'list-inbox', 'user': self.username, 'uid': self.uid,
                'count': len(items), 'total_reported': total, 'conversations': items}


# ----------------------------------------------------------------------------------------------------------------
# Ground truth straight from the database (mysql CLI)
# ----------------------------------------------------------------------------------------------------------------
@dataclass
class DB:
    user: str
    password: str
    name: str
    prefix: str
    host: str = '127.0.0.1'
    port: int = 3306
    mysql: str = 'mysql'
    socket: str | None = None

    def query(self, sql: str) -> list[list[str]]:
        cmd = [self.mysql, '--batch', '--skip-column-names', '--default-character-set=utf8mb4', '-u', self.user]
        if self.socket:
            cmd += ['--socket', self.socket]
        else:
            cmd += ['-h', self.host, '-P', str(self.port)]
        cmd += ['-e', sql, self.name]
        env = dict(os.environ, MYSQL_PWD=self.password or '')
        p = subprocess.run(cmd, capture_output=True, env=env)
        if p.returncode != 0:
            raise ForumError('mysql failed: ' + p.stderr.decode('utf-8', 'replace').strip())
        out = p.stdout.decode('utf-8', 'replace')
        return [line.split('\t') for line in out.split('\n') if line != '']


def unhex(h: str) -> str:
    if h in ('NULL', ''):
        return ''
    return binascii.unhexlify(h).decode('utf-8', 'replace')


def utc8(ts: int) -> str:
    return time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(int(ts) + 8 * 3600))


def ident(s: str) -> str:
    if not re.fullmatch(r'[A-Za-z0-9_]*', s):
        raise ForumError('bad table prefix: ' + s)
    return s


def truth_thread(engine: str, db: DB, tid: int) -> list[dict]:
    p = ident(db.prefix)
    tid = int(tid)
    posts = []
    if engine == 'discuz':
        row = db.query(f'SELECT posttableid, maxposition FROM {p}forum_thread WHERE tid={tid}')
        if not row:
            raise ForumError(f'no thread {tid}')
        ptid, maxpos = int(row[0][0] or 0), int(row[0][1] or 0)
        table = f'{p}forum_post' + (f'_{ptid}' if ptid else '')
        order = 'position, pid' if maxpos else 'dateline, pid'
        rows = db.query(f'SELECT pid, tid, position, HEX(author), authorid, dateline, HEX(message), first '
                        f'FROM {table} WHERE tid={tid} AND invisible=0 ORDER BY {order}')
        for i, r in enumerate(rows, 1):
            posts.append({'pid': int(r[0]), 'tid': int(r[1]), 'floor': int(r[2]) if maxpos else i,
                          'author': unhex(r[3]), 'authorid': int(r[4]), 'dateline_unix': int(r[5]),
                          'dateline_utc8': utc8(r[5]), 'message_raw': unhex(r[6]), 'first': r[7] == '1'})
    elif engine == 'phpwind':
        row = db.query(f'SELECT t.tid, HEX(t.author), t.authorid, t.postdate, t.ptable, HEX(m.content), HEX(m.alterinfo) '
                       f'FROM {p}threads t LEFT JOIN {p}tmsgs m ON m.tid=t.tid WHERE t.tid={tid}')
        if not row:
            raise ForumError(f'no thread {tid}')
        r = row[0]
        ptable = int(r[4] or 0)
        posts.append({'pid': 0, 'tid': tid, 'floor': 1, 'author': unhex(r[1]), 'authorid': int(r[2]),
                      'dateline_unix': int(r[3]), 'dateline_utc8': utc8(r[3]), 'message_raw': unhex(r[5]),
                      'first': True, 'alterinfo': unhex(r[6])})
        table = f'{p}posts' + (str(ptable) if ptable else '')
        rows = db.query(f"SELECT pid, tid, HEX(author), authorid, postdate, HEX(content), HEX(alterinfo) FROM {table} "
                        f"WHERE tid={tid} AND ifcheck='1' ORDER BY postdate, pid")
        for i, r in enumerate(rows, 2):
            posts.append({'pid': int(r[0]), 'tid': int(r[1]), 'floor': i, 'author': unhex(r[2]), 'authorid': int(r[3]),
                          'dateline_unix': int(r[4]), 'dateline_utc8': utc8(r[4]), 'message_raw': unhex(r[5]),
                          'first': False, 'alterinfo': unhex(r[6])})
    else:
        raise ForumError('unknown engine ' + engine)
    return posts


def _php_unserialize_strings(s: str) -> list[str]:
    """Enough of PHP unserialize() for phpwind's recipient lists a:N:{i:0;s:L:"name";...} (L counts bytes)."""
    out, b, i = [], s.encode('utf-8'), 0
    while True:
        m = re.compile(rb's:(\d+):"').search(b, i)
        if not m:
            return out
        n = int(m.group(1))
        start = m.end()
        out.append(b[start:start + n].decode('utf-8', 'replace'))
        i = start + n


def truth_pms(engine: str, db: DB, username: str) -> list[dict]:
    p = ident(db.prefix)
    uname_hex = username.encode('utf-8').hex()
    out = []
    if engine == 'discuz':
        uc = p + 'ucenter_'
        row = db.query(f"SELECT uid FROM {uc}members WHERE username=UNHEX('{uname_hex}')") or \
            db.query(f"SELECT uid FROM {p}common_member WHERE username=UNHEX('{uname_hex}')")
        if not row:
            raise ForumError('no such user ' + username)
        uid = int(row[0][0])
        names = {int(r[0]): unhex(r[1]) for r in db.query(f'SELECT uid, HEX(username) FROM {uc}members')}
        lists = db.query(f'SELECT l.plid, l.min_max, l.pmtype FROM {uc}pm_lists l JOIN {uc}pm_members m ON m.plid=l.plid '
                         f'WHERE m.uid={uid} ORDER BY l.plid')
        for plid, min_max, pmtype in lists:
            members = [int(x) for x in min_max.split('_') if x.isdigit()]
            rows = db.query(f'SELECT pmid, authorid, dateline, HEX(message), delstatus FROM {uc}pm_messages_{int(plid) % 10} '
                            f'WHERE plid={int(plid)} ORDER BY dateline, pmid')
            for pmid, authorid, dateline, msg, delstatus in rows:
                authorid = int(authorid)
                others = [m for m in members if m != authorid] or [authorid]
                to = others[0]
                out.append({'id': int(pmid), 'from': names.get(authorid), 'fromid': authorid, 'to': names.get(to),
                            'toid': to, 'dateline_unix': int(dateline), 'dateline_utc8': utc8(dateline),
                            'message_raw': unhex(msg), 'conversation_id': int(plid)})
    elif engine == 'phpwind':
        row = db.query(f"SELECT uid FROM {p}members WHERE username=UNHEX('{uname_hex}')")
        if not row:
            raise ForumError('no such user ' + username)
        uid = int(row[0][0])
        names = {int(r[0]): unhex(r[1]) for r in db.query(f'SELECT uid, HEX(username) FROM {p}members')}
        by_name = {v: k for k, v in names.items()}
        # conversations = root messages (typeid 100 = private message) that the user created or received
        roots = db.query(f'SELECT DISTINCT m.mid, m.create_uid, HEX(m.extra) FROM {p}ms_messages m '
                         f'JOIN {p}ms_relations r ON r.mid=m.mid WHERE r.uid={uid} AND r.typeid=100 AND r.relation=1 '
                         f'ORDER BY m.mid')
        for mid, cuid, extra in roots:
            mid, cuid = int(mid), int(cuid)
            recips = [by_name.get(n) for n in _php_unserialize_strings(unhex(extra))]
            members = [cuid] + [u for u in recips if u is not None]
            rows = db.query(f'SELECT id, create_uid, created_time, HEX(content), HEX(title) FROM {p}ms_replies '
                            f'WHERE parentid={mid} ORDER BY created_time, id')
            for rid, ruid, created, content, title in rows:
                ruid = int(ruid)
                others = [m for m in members if m != ruid] or [ruid]
                to = others[0]
                out.append({'id': int(rid), 'from': names.get(ruid), 'fromid': ruid, 'to': names.get(to), 'toid': to,
                            'dateline_unix': int(created), 'dateline_utc8': utc8(created), 'message_raw': unhex(content),
                            'title': unhex(title), 'conversation_id': mid})
    else:
        raise ForumError('unknown engine ' + engine)
    out.sort(key=lambda x: (x['dateline_unix'], x['conversation_id'], x['id']))
    return out


# ----------------------------------------------------------------------------------------------------------------
# CLI
# ----------------------------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog='forumctl.py', description='Client for Discuz! X3.x / phpwind 8.x forums.')
    ap.add_argument('--engine', required=True, choices=['discuz', 'phpwind'])
    ap.add_argument('--base', help='forum base URL, e.g. http://127.0.0.1:8081/')
    ap.add_argument('--user', help='forum user name')
    ap.add_argument('--password', help='forum password')
    ap.add_argument('--user-agent', default=DEFAULT_UA, help='User-Agent sent on every request (phpwind ties its verify token to it)')
    ap.add_argument('--retries', type=int, default=5, help='retries after a flood-control refusal (default 5)')
    ap.add_argument('--flood-wait', type=float, default=None,
                    help='seconds to wait on a flood refusal that names no interval (default 16 discuz, 6 phpwind)')
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('--verbose', '-v', action='store_true', help='log requests on stderr')
    ap.add_argument('--db-host', default='127.0.0.1')
    ap.add_argument('--db-port', type=int, default=3306)
    ap.add_argument('--db-socket', default=None)
    ap.add_argument('--db-user')
    ap.add_argument('--db-password', default='')
    ap.add_argument('--db-name')
    ap.add_argument('--prefix', help='table prefix, e.g. pre_ (Discuz) or pw_ (phpwind)')
    ap.add_argument('--mysql', default='mysql', help='path of the mysql client')
    sub = ap.add_subparsers(dest='cmd', required=True)
    s = sub.add_parser('post-reply', help='reply to a thread')
    s.add_argument('tid', type=int)
    s.add_argument('text')
    s.add_argument('--quote', type=int, default=None, metavar='PID', help='quote this post (its text goes first)')
    s.add_argument('--fid', type=int, default=None)
    s = sub.add_parser('send-pm', help='send a private message by user name')
    s.add_argument('to')
    s.add_argument('text')
    s.add_argument('--title', default=None, help='subject (phpwind requires one; default: the start of the text)')
    s = sub.add_parser('new-thread', help='start a thread')
    s.add_argument('fid', type=int)
    s.add_argument('subject')
    s.add_argument('text')
    s = sub.add_parser('edit-post', help='replace the text of one of your posts')
    s.add_argument('tid', type=int)
    s.add_argument('pid', type=int)
    s.add_argument('text')
    s.add_argument('--fid', type=int, default=None)
    s = sub.add_parser('list-inbox', help='list the private-message inbox (all pages)')
    s.add_argument('--max-pages', type=int, default=20)
    s = sub.add_parser('db-truth', help='posts of a thread in display order, from the database')
    s.add_argument('tid', type=int)
    s = sub.add_parser('db-pms', help='every private message to or from a user, from the database')
    s.add_argument('username')
    return ap


def main(argv=None) -> int:
    ap = build_parser()
    a = ap.parse_args(argv)
    try:
        if a.cmd in ('db-truth', 'db-pms'):
            for k in ('db_user', 'db_name', 'prefix'):
                if getattr(a, k) is None:
                    ap.error(f'{a.cmd} needs --db-user, --db-name and --prefix')
            db = DB(a.db_user, a.db_password, a.db_name, a.prefix, a.db_host, a.db_port, a.mysql, a.db_socket)
            res = truth_thread(a.engine, db, a.tid) if a.cmd == 'db-truth' else truth_pms(a.engine, db, a.username)
            json.dump(res, sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write('\n')
            return 0
        if not (a.base and a.user and a.password is not None):
            ap.error(f'{a.cmd} needs --base, --user and --password')
        web = Web(a.base, a.user_agent, a.timeout, a.verbose)
        if a.engine == 'discuz':
            fc = Discuz(web, a.flood_wait if a.flood_wait is not None else 16.0)
        else:
            fc = Phpwind(web, a.flood_wait if a.flood_wait is not None else 6.0)
        fc.retries = a.retries
        fc.login(a.user, a.password)
        if a.cmd == 'post-reply':
            res = fc.reply(a.tid, a.text, quote_pid=a.quote, fid=a.fid)
        elif a.cmd == 'send-pm':
            res = fc.send_pm(a.to, a.text, a.title)
        elif a.cmd == 'new-thread':
            res = fc.new_thread(a.fid, a.subject, a.text)
        elif a.cmd == 'edit-post':
            res = fc.edit(a.tid, a.pid, a.text, fid=a.fid)
        elif a.cmd == 'list-inbox':
            res = fc.list_inbox(a.max_pages)
        else:
            ap.error('unknown command')
        res.setdefault('user', a.user)
        json.dump(res, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write('\n')
        return 0
    except FloodError as e:
        json.dump({'ok': False, 'error': str(e), 'flood': True, 'wait_s': e.wait}, sys.stderr, ensure_ascii=False)
        sys.stderr.write('\n')
        return 1
    except (ForumError, httpx.HTTPError) as e:
        json.dump({'ok': False, 'error': f'{type(e).__name__}: {e}'}, sys.stderr, ensure_ascii=False)
        sys.stderr.write('\n')
        return 1


if __name__ == '__main__':
    try:
        sys.exit(main())
    except BrokenPipeError:          # e.g. `forumctl.py ... | head`
        sys.exit(0)
