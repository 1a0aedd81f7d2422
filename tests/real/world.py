"""A real forum dressed as the demo's world: the scripted players (shenshi/demo/players.py) act
on it through the client that played them on the real installs (tests/forumctl.py), and read
what the GM published from the forum's database.

:class:`RealForum` offers what :class:`~shenshi.demo.players.ScriptedPlayers` asks of the
sandbox forum (``post``, ``send_pm``, ``edit_post``, ``visible_posts``, ``get_post``, ``users``…);
:func:`open_world` makes the GM open the game's threads on the board, at the forum's time.
Flood control is never waited out in real time: the shared fake clock jumps instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from shenshi.demo.script import GameScript
from shenshi.demo.world import World
from shenshi.rulesets.profile import SkillChannel
from shenshi.rulesets.registry import find_ruleset
from tests.forumctl import Discuz, FloodError, ForumError, Phpwind, Web, parse
from tests.real import truth
from tests.real.forums import OffsetClock, RealForumSpec

T = TypeVar("T")
TZ = ZoneInfo("Asia/Shanghai")
FLOOD_TRIES = 6


@dataclass(frozen=True)
class Account:
    """A member of the real forum, as the players' code knows the sandbox's users."""

    uid: int
    name: str


@dataclass(frozen=True)
class Posted:
    """What a reply made (the players keep its pid to edit or quote it)."""

    pid: Any
    tid: int


@dataclass
class RealForum:
    """One real forum, driven the way people use it."""

    spec: RealForumSpec
    clock: OffsetClock
    users: dict[int, Account] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    _clients: dict[str, Discuz | Phpwind] = field(default_factory=dict)
    _threads: dict[Any, int] = field(default_factory=dict)  # pid → tid of the players' posts

    def __post_init__(self) -> None:
        names = [self.spec.gm, self.spec.stranger, *self.spec.players]
        found = truth.members(self.spec.db, self.spec.engine, names)
        missing = [n for n in names if n not in found]
        if missing:
            raise ForumError(f"{self.spec.label}: no such members: {', '.join(missing)} (see tests/real/accounts.py)")
        self.users = {uid: Account(uid, name) for name, uid in found.items()}

    # -- what the players' code reads ------------------------------------------------------------

    @property
    def engine(self) -> str:
        return self.spec.engine

    @property
    def base_url(self) -> str:
        return self.spec.base_url

    def find_user(self, name: str) -> Account | None:
        return next((a for a in self.users.values() if a.name.casefold() == name.casefold()), None)

    def user(self, name: str) -> Account:
        found = self.find_user(name)
        if found is None:
            raise KeyError(f"no member {name!r} on {self.spec.label}")
        return found

    def visible_posts(self, tid: int) -> list[truth.StoredPost]:
        """The thread's posts as the forum holds them (the players read the GM's results)."""
        return [_readable(p) for p in truth.thread_posts(self.spec.db, self.engine, tid)]

    def get_post(self, pid: Any) -> truth.StoredPost:
        tid = self._threads[pid]
        return next(p for p in self.visible_posts(tid) if str(p.pid) == str(pid))

    # -- what the players do ------------------------------------------------------------------------

    def client(self, name: str) -> Discuz | Phpwind:
        """``name``'s browser, logged in (each member keeps one session)."""
        if name not in self._clients:
            web = Web(self.base_url, timeout=60)
            member = Discuz(web) if self.engine == "discuz" else Phpwind(web)
            member.retries = 0  # flood: the clock jumps instead (_unflooded)
            password = self.spec.gm_password if name == self.spec.gm else self.spec.player_password
            member.login(name, password)
            self._clients[name] = member
        return self._clients[name]

    def post(self, who: str, tid: int, text: str, *, at: datetime | None = None) -> Posted:
        text = self._long_enough(text)
        result = self._unflooded(lambda: self.client(who).reply(int(tid), text, fid=self.spec.board))
        pid = result["pid"]
        self._threads[pid] = int(tid)
        self.log.append(f"{who} posted in {tid}: {text[:30]!r}")
        return Posted(pid, int(tid))

    def send_pm(self, who: str, to: str, text: str, subject: str | None = None, *, at: datetime | None = None) -> None:
        self._unflooded(lambda: self.client(who).send_pm(to, text, subject))
        self.log.append(f"{who} PM to {to}: {text[:30]!r}")

    def edit_post(self, pid: Any, text: str, by: str | None = None) -> None:
        author, text = by or self.spec.gm, self._long_enough(text)
        self._unflooded(lambda: self.client(author).edit(self._threads[pid], int(pid), text, fid=self.spec.board))

    def create_thread(self, who: str, subject: str, text: str) -> int:
        result = self._unflooded(lambda: self.client(who).new_thread(self.spec.board, subject, text))
        return int(result["tid"])

    def reply_in_conversation(self, who: str, to: str, text: str) -> None:
        """phpwind's 回复 inside ``who``'s newest conversation with ``to`` (a reply row)."""
        if self.engine != "phpwind":
            raise ForumError("only phpwind has replies inside a conversation")
        member = self.client(who)
        _, outbox = member.w.get("message.php?type=sms&action=outbox")
        rows = parse(outbox).xpath(f"//tr[starts-with(@id,'sms_')][.//td[contains(@class,'name')]//a[normalize-space(.)='{to}']]")
        if not rows:
            raise ForumError(f"{who} has no conversation with {to} in the outbox")
        link = rows[0].xpath(".//td[contains(@class,'value')]//h4//a/@href")[0]
        _, page = member.w.get(link)
        form = parse(page).xpath("//form[contains(@action, 'postReply')]")[0]
        fields = [("verify", member.verify(page) or ""), ("tid", ""),
                  ("rid", form.xpath(".//input[@name='rid']/@value")[0]),
                  ("parentMid", form.xpath(".//input[@name='parentMid']/@value")[0]), ("atc_content", text)]
        _, answer = member.w.post("message.php?type=ajax&action=postReply", fields)
        if '"bool":true' not in answer.replace(" ", ""):
            raise ForumError(f"reply in conversation refused: {member.message(answer)}")
        self.log.append(f"{who} replied inside the conversation with {to}: {text[:30]!r}")

    def empty_pm_box(self, name: str) -> int:
        """phpwind: ``name`` deletes every message of their box (a 新手上路 box holds 10, and a
        full box refuses the GM's PMs: 消息数已满), as players do between games."""
        if self.engine != "phpwind":
            return 0
        member, deleted = self.client(name), 0
        for _ in range(50):
            rids = []
            for box in ("message.php?type=sms", "message.php?type=sms&action=outbox"):
                _, page = member.w.get(box)
                rids += parse(page).xpath("//input[@name='rids']/@value")
            if not rids:
                return deleted
            _, page = member.w.get("message.php?type=sms")
            fields = [("verify", member.verify(page) or ""), *(("rids[]", rid) for rid in dict.fromkeys(rids))]
            member.w.post("message.php?type=ajax&action=del", fields)
            deleted += len(set(rids))
        raise ForumError(f"{name}'s PM box does not empty")

    def _long_enough(self, text: str) -> str:
        """A post as long as the forum's minimum (Discuz: 10 bytes; 签到 and a 癫狂 player's bare
        name are shorter): padded with empty BBCode, which counts but shows nothing, so the
        daemon reads exactly what the script wrote."""
        minimum = 10 if self.engine == "discuz" else 2
        while len(text.encode("utf-8")) < minimum:
            text += "[b][/b]"
        return text

    def _unflooded(self, act: Callable[[], T]) -> T:
        """Do ``act``; on the forum's flood control let the fake clock jump, then again."""
        for _ in range(FLOOD_TRIES):
            try:
                return act()
            except FloodError as exc:
                self.clock.advance((exc.wait or 16.0) + 1)
        raise ForumError(f"still refused by flood control after {FLOOD_TRIES} tries")


def _readable(post: truth.StoredPost) -> truth.StoredPost:
    from dataclasses import replace

    text = re.sub(r"\[/?(?:b|i|u|color|size|font)(?:=[^\]]*)?\]", "", truth.plain_lines(post.text))
    return replace(post, text=text, posted_at=post.posted_at.astimezone(TZ))


def next_monday_evening(now: datetime) -> datetime:
    """The next Monday 20:00 on the forum's clock (chess32 pauses at weekends; the demo's start)."""
    local = now.astimezone(TZ)
    days = (7 - local.weekday()) % 7 or 7
    return (local + timedelta(days=days)).replace(hour=20, minute=0, second=0, microsecond=0)


def open_world(forum: RealForum, script: GameScript) -> World:
    """Jump to a Monday evening and let the GM open the game's threads, as on the sandbox: the
    player list and vote thread, the discussion and chat threads, werewolf role threads."""
    clock = forum.clock
    clock.set(next_monday_evening(clock()))
    gm = forum.spec.gm
    ruleset = find_ruleset(script.ruleset)
    info = ruleset.info
    title = info.chinese
    stamp = f"{clock():%m%d}"
    roster = "、".join(script.names)
    vote = forum.create_thread(gm, f"【{title}】{stamp} 游戏者名单与投票帖",
                               f"[b]游戏者名单[/b]\n{roster}\n\n请在本帖签到、投票。投票格式：投票：某某")
    start = clock()
    discussion = forum.create_thread(gm, f"【{title}】{stamp} 讨论帖", "分析请发在这里。")
    chat = forum.create_thread(gm, f"【{title}】{stamp} 灌水专贴", "灌水请发在这里。")
    world = World(forum, script, start, vote, discussion, chat, gm=gm, stranger=forum.spec.stranger)  # type: ignore[arg-type]
    if ruleset.profile(script.rules).skills.channel is SkillChannel.ROLE_THREAD:
        for role in sorted({s.role for s in script.seats}):
            name = info.roles[role].chinese
            world.role_threads[role] = forum.create_thread(gm, f"【{title}】{stamp} {name}功能树洞", "技能请回复在本帖。")
    return world


def cast_onto(script: GameScript, accounts: tuple[str, ...]) -> GameScript | None:
    """The script played by the forum's accounts: a seat keeps its name where an account has
    it (case-insensitive, phpwind's tom_2), else takes the next free account. ``None``: too
    few accounts."""
    folded = {a.casefold(): a for a in accounts}
    taken = {folded[n.casefold()] for n in script.names if n.casefold() in folded}
    free = [a for a in accounts if a not in taken and a.casefold() not in {n.casefold() for n in script.names}]
    mapping = {}
    for name in script.names:
        if name.casefold() in folded:
            mapping[name] = folded[name.casefold()]
        elif free:
            mapping[name] = free.pop(0)
        else:
            return None
    return script.renamed(mapping)
