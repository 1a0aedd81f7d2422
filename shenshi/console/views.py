"""What the console's pages show, read from the store (the status itself is
:func:`shenshi.daemon.status.build_status`'s model, rendered as it is).

Map::

    review_items(service, every)   the outbox: where each goes (the thread's title), its text, its
                                   evidence, an edit's diff, what superseded it; filters
    thread_names(service)          each game thread's title as the forum shows it
    alert_history(service)         every alert, acknowledged ones too, grouped by step
    players(service, status)       seats, holders and substitutes, alive/out as published
    activity(service, days)        counted posts per player per forum day, with the thresholds
    role_of(service, seat)         one seat's role (shown only when the GM asks)
    next_words(status)             what happens at the next deadline and what the GM then does
    health_words(status)           why the daemon seems not to poll, in the console's words
    still_to_act(service, status)  who has not acted this night, by what they may still send
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from shenshi.daemon import gm_text
from shenshi.daemon.announce import kind_words
from shenshi.daemon.gm_text import STATES
from shenshi.daemon.links import EvidenceLink, evidence_links
from shenshi.daemon.service import GameService
from shenshi.daemon.status import GameStatus
from shenshi.rulesets.base import Phase
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import Announcement, DestinationKind, Evidence, EvidenceKind

OPEN_STATES = (AnnouncementState.PROPOSED, AnnouncementState.APPROVED, AnnouncementState.FAILED,
               AnnouncementState.UNCONFIRMED)  # fmt: skip
TITLE = "title:"  # the store cursor that keeps a thread's title as the forum shows it
_STEP = re.compile(r":(night|day)(\d+)")
ACTIVITY_DAYS = 14  # forum days shown in the activity chart, the latest last


# -- the 现在 page ------------------------------------------------------------------------------


def next_words(status: GameStatus) -> str:
    """What happens at the next deadline and what the GM then does, as the console says it
    (his step a button on the page, never a command to type); '' when the game is over, waits
    for a post of the GM (the page shows it with its buttons) or has no deadline."""
    if status.winner or status.waiting or not status.deadlines:
        return ""
    return gm_text.next_step(status.deadlines[0].what, status.mode, status.health.ok, console=True)


def health_words(status: GameStatus) -> str:
    """Why the daemon seems not to be polling, for the page's head ('' when it polls)."""
    health = status.health
    if health.ok:
        return ""
    if health.last_poll is None:
        return "还没有成功读取过论坛：它没在运行的话，请在服务器上启动守护进程"
    return health.problem


def still_to_act(service: GameService, status: GameStatus) -> list[tuple[str, list[str]]]:
    """Who has sent nothing yet this night, grouped by what their role may send (``祈祷``:
    a game6 庶民's prayer, ``杀``…), as the status model groups them for the command line too:
    a GM reads what is missing, not a list of names he takes for a fault."""
    if status.night is None:
        return []
    return [(words, list(names)) for words, names in status.night.still_to_send]


# -- the review queue ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    """A text of a post or PM: as first seen (number 0), or a later edit."""

    number: int
    seen_at: datetime
    text: str


@dataclass(frozen=True)
class EvidenceView:
    """A post or PM an announcement came from, as the GM checks it."""

    id: int
    label: str  # 月光 杀 老王 → PM 3
    url: str | None
    kind: str  # 帖子 | 私信
    author: str
    at: datetime  # when it was written (forum clock)
    versions: tuple[Version, ...]  # first seen, then each edit

    @property
    def edited(self) -> bool:
        """Whether the post or PM changed after it was first seen."""
        return len(self.versions) > 1


@dataclass(frozen=True)
class DiffLine:
    """One line of an edit's diff: ``-`` as proposed, ``+`` as the GM wrote it, `` `` kept."""

    sign: str
    text: str


@dataclass(frozen=True)
class ReviewItem:
    """An announcement of the outbox with everything the GM needs to decide on it."""

    id: int
    kind: str
    what: str  # 第1夜结果
    where: str  # 《第3期 投票帖》 / 私信给 小明
    to_thread: bool
    state: str
    state_words: str
    text: str
    created_at: datetime
    published_at: datetime | None
    sent_at: datetime | None
    last_error: str | None
    evidence: tuple[EvidenceView, ...]
    step: str = ""  # the step it belongs to (第1夜), '' when not tied to one
    edited_at: datetime | None = None
    diff: tuple[DiffLine, ...] = ()  # the GM's edit against the proposed text (when known)
    superseded_by: int | None = None
    superseded_because: str | None = None
    notes: tuple[str, ...] = ()  # for the GM only (what is missing, ballots not counted)
    late: bool = False  # a post of an earlier step never published: approving it needs "late"
    late_why: str = ""  # … why (它给的期限 06:00 已过, 这是第1天的帖子…), for the confirmation

    @property
    def open(self) -> bool:
        """Whether the GM can still decide on it (approve, edit, reject, publish)."""
        return self.state in {s.value for s in OPEN_STATES}


def batch_words(items: Sequence[ReviewItem]) -> str:
    """What a batch approval sends, by kind, public posts first: ``第2夜结果（帖子）#44；占卜答复
    #45；回执 7 条 #46 #47 …``: the GM confirms what he approves, not a list of numbers."""
    groups: dict[tuple[bool, str], list[int]] = {}
    for item in items:
        groups.setdefault((not item.to_thread, item.what), []).append(item.id)
    out = []
    for (private, what), ids in sorted(groups.items(), key=lambda g: g[0][0]):
        shown = " ".join(f"#{i}" for i in ids)
        where = "" if private else "（帖子）"
        out.append(f"{what}{where} {shown}" if len(ids) == 1 else f"{what}{where} {len(ids)} 条 {shown}")
    return "；".join(out)


# What the review page filters by: its state words, and "open" (what waits for the GM).
STATE_FILTERS = {"open": "待处理", "proposed": "待审", "unconfirmed": "待确认", "approved": "已批准",
                 "failed": "发送失败", "sent": "已发送", "published": "已手动发布", "rejected": "已放弃",
                 "superseded": "已被取代", "all": "全部"}  # fmt: skip


def review_items(
    service: GameService, every: bool = False, *, state: str | None = None, step: str | None = None
) -> list[ReviewItem]:
    """The announcements waiting for the GM (``every`` or ``state="all"``: whatever their
    state; ``state``: only that one), of ``step`` if given (``第1夜``), oldest first."""
    tz = service.config.forum.tz
    wanted: list[AnnouncementState] | None = list(OPEN_STATES)
    if every or state == "all":
        wanted = None
    elif state and state != "open":
        wanted = [AnnouncementState(state)]
    with service.store.snapshot() as uow:
        items = uow.outbox.announcements(service.game_id, wanted)
    views = evidence_views(service, {i for a in items for i in a.evidence_ids})
    titles = thread_names(service)
    first = _first_texts(service, {a.id for a in items if a.edited_at is not None})
    out = [_item(service, a, views, tz, titles, first.get(a.id)) for a in items]
    return [i for i in out if not step or i.step == step]


def steps_of(items: list[ReviewItem]) -> list[str]:
    """The steps the items belong to, in order of appearance (the phase filter's choices)."""
    return list(dict.fromkeys(i.step for i in items if i.step))


def _item(service: GameService, a: Announcement, views: dict[int, EvidenceView], tz, titles: dict[str, str],  # type: ignore[no-untyped-def]
          proposed: str | None) -> ReviewItem:  # fmt: skip
    thread = a.destination_kind is DestinationKind.THREAD
    found = _STEP.search(a.key)
    step = gm_text.step_name(Phase.NIGHT if found.group(1) == "night" else Phase.DAY, int(found.group(2))) if found else ""
    diff: tuple[DiffLine, ...] = ()
    if proposed is not None and proposed != a.text:
        diff = tuple(DiffLine(line[0], line[2:]) for line in difflib.ndiff(proposed.splitlines(), a.text.splitlines())
                     if line[:1] in "+- ")  # fmt: skip
    late, late_why = False, ""
    if a.state is AnnouncementState.PROPOSED:  # a post of an earlier step, a PM past its deadline
        from shenshi.daemon.gm_commands import check_current
        from shenshi.errors import UserError

        try:
            check_current(service, a)
        except UserError as exc:
            late, late_why = True, str(exc).split("：", 1)[0]
    return ReviewItem(
        id=a.id, kind=a.kind, what=kind_words(service.templates, a.kind, a.key),
        where=titles.get(a.destination, f"帖子 {a.destination}") if thread else f"私信给 {a.destination}",
        to_thread=thread, state=a.state.value,
        state_words=STATES.get(a.state.value, a.state.value), text=a.text,
        created_at=a.created_at.astimezone(tz),
        published_at=a.published_at.astimezone(tz) if a.published_at else None,
        sent_at=a.sent_at.astimezone(tz) if a.sent_at else None, last_error=a.last_error,
        evidence=tuple(views[i] for i in a.evidence_ids if i in views), step=step,
        edited_at=a.edited_at.astimezone(tz) if a.edited_at else None, diff=diff,
        superseded_by=getattr(a, "superseded_by", None), superseded_because=getattr(a, "superseded_because", None),
        notes=tuple(gm_text.gm_notes(a)), late=late, late_why=late_why,
    )  # fmt: skip


def thread_names(service: GameService) -> dict[str, str]:
    """Each thread the game posts in or reads, by id: its title as the forum last showed it
    (kept by the poller), with what it is for the game (投票帖, 功能树洞…); ``帖子 N`` for a
    thread never read yet."""
    game = service.config.game
    roles: dict[str, str] = {str(game.vote_thread): "投票帖"}
    if game.player_list_thread:
        roles.setdefault(str(game.player_list_thread), "游戏者名单")
    info = service.ruleset.info
    for role, tid in game.role_threads.items():
        roles.setdefault(str(tid), f"{info.roles[role].chinese if role in info.roles else role}功能树洞")
    with service.store.snapshot() as uow:
        titles = {c.source.removeprefix(TITLE): c.value.get("subject") for c in uow.evidence.cursors(service.game_id)
                  if c.source.startswith(TITLE) and isinstance(c.value, dict)}  # fmt: skip
    out = {}
    for tid in set(roles) | set(titles):
        title, role = titles.get(tid), roles.get(tid)
        if title:
            out[tid] = f"《{title}》" + (f"（{role}）" if role else "")
        else:
            out[tid] = f"{role}（帖子 {tid}）" if role else f"帖子 {tid}"
    return out


def _first_texts(service: GameService, ids: set[int]) -> dict[int, str]:
    """The text each announcement was proposed with, from the dry-run log's JSON lines (the
    outbox keeps only the current text); an announcement the log does not have is left out."""
    if not ids:
        return {}
    path = service.config.daemon.log.with_suffix(".jsonl")
    found: dict[int, str] = {}
    try:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if '"proposed"' not in line:
                    continue
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                ident = str(entry.get("ident") or entry.get("id") or "")
                if entry.get("state") == "proposed" and ident.isdigit() and int(ident) in ids:
                    found.setdefault(int(ident), entry.get("text", ""))
    except OSError:
        return {}
    return found


def evidence_views(service: GameService, ids: set[int]) -> dict[int, EvidenceView]:
    """The posts and PMs with these ids, labelled, with their first-seen text and edits."""
    if not ids:
        return {}
    tz = service.config.forum.tz
    links = {link.id: link for link in evidence_links(service.store, service.game_id, sorted(ids))}
    out: dict[int, EvidenceView] = {}
    with service.store.snapshot() as uow:
        for ident, link in links.items():
            e: Evidence = uow.evidence.get(ident)
            versions = [Version(0, e.first_seen_at.astimezone(tz), e.text)]
            versions += [Version(r.number, r.seen_at.astimezone(tz), r.text)
                         for r in uow.evidence.revisions(ident)]  # fmt: skip
            out[ident] = EvidenceView(
                ident, link.label, link.url, "私信" if e.kind is EvidenceKind.PM else "帖子",
                e.author, e.posted_at.astimezone(tz), tuple(versions),
            )  # fmt: skip
    return out


# -- players --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """A seat: who holds it now, who held it before (substitutes), alive or out as published."""

    seat: int  # from 1
    name: str
    uid: str | None
    standing: str  # alive | out | out_unpublished
    before: tuple[str, ...]  # earlier holders, first first


def players(service: GameService, status: GameStatus) -> list[SeatView]:
    """Every seat, in seat order; ``standing`` as the players know it (a death counts from its
    publication; ``out_unpublished``: dead, not yet announced, for the GM only)."""
    with service.store.snapshot() as uow:
        everyone = uow.games.players(service.game_id, current_only=False)
    seats: dict[int, list] = {}
    for p in everyone:
        seats.setdefault(p.seat, []).append(p)
    out = []
    for seat, holders in sorted(seats.items()):
        current = next((p for p in holders if p.current), holders[-1])
        if current.name in status.unannounced_deaths:
            standing = "out_unpublished"
        elif current.name in status.dead:
            standing = "out"
        else:
            standing = "alive"
        before = tuple(p.name for p in holders if p is not current)
        out.append(SeatView(seat + 1, current.name, current.uid, standing, before))
    return out


def role_of(service: GameService, seat: int) -> tuple[str, str]:
    """The name and role (in Chinese) of seat ``seat`` (from 1) as the game holds it now."""
    state = service.referee.state
    if not 1 <= seat <= len(state.seats):
        raise LookupError(f"no seat {seat}")
    s = state.seats[seat - 1]
    info = service.ruleset.info
    role = info.roles[s.role].chinese if s.role in info.roles else s.role
    return s.name, role


# -- activity ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActivityRow:
    """One player's counted posts per forum day, and his lurking line (family A)."""

    name: str
    posts: tuple[int, ...]  # one per day of :attr:`Activity.days`
    last_post: datetime | None
    lurk_at: datetime | None  # when the lurking rule would catch him (no post until then)


@dataclass(frozen=True)
class Activity:
    """Counted posts per day for the living, and the ruleset's thresholds on the same axis."""

    days: tuple[datetime, ...]  # the start of each forum day (midnight, forum clock)
    end: datetime  # the end of the axis: tomorrow's end (where the next lurking lines fall)
    now: datetime
    rows: tuple[ActivityRow, ...]
    sign_in_at: datetime | None  # the sign-in deadline (family A)
    lurking: timedelta | None  # the lurking window (family A); None once the game is over
    day_minimum: int | None = None  # fewer counted posts a day can be lurking (chess32)
    over: bool = False  # the game ended: no lurking line any more

    def x(self, at: datetime) -> float:
        """Where ``at`` falls on the axis, from 0 to 1."""
        start = self.days[0]
        span = (self.end - start).total_seconds() or 1.0
        return min(1.0, max(0.0, (at - start).total_seconds() / span))

    @property
    def span_days(self) -> int:
        """How many days the axis shows (the days counted, and tomorrow)."""
        return max(1, round((self.end - self.days[0]).total_seconds() / 86400))

    @property
    def most(self) -> int:
        """The highest count of a day (the chart's scale)."""
        return max((n for r in self.rows for n in r.posts), default=0)


def activity(service: GameService, status: GameStatus, days: int = ACTIVITY_DAYS) -> Activity:
    """Counted posts (the game board's counted threads, never the uncounted ones) per living
    player per forum day, from the game's start (the last ``days`` days)."""
    game = service.config.game
    tz = service.config.forum.tz
    now = status.now
    first = max(game.start.astimezone(tz).date(), (now - timedelta(days=days - 1)).date())
    starts = []
    day = first
    while day <= now.date():
        starts.append(datetime.combine(day, time(), tzinfo=tz))
        day += timedelta(days=1)
    clock = service.referee.profile.clock
    with service.store.snapshot() as uow:
        names = {p.uid: p.name for p in uow.games.players(service.game_id, current_only=False) if p.uid}
        counts: list[dict[str, int]] = []
        for lo in starts:
            rows = uow.evidence.activity(
                service.game_id, max(lo, game.start), lo + timedelta(days=1),
                sources=list(game.counted_threads) or None, exclude_sources=list(game.uncounted_threads),
            )  # fmt: skip
            counts.append({names.get(a.author_uid, a.author): a.posts for a in rows})
    last = {a.name: a.last_post for a in status.activity}
    over = status.winner is not None
    lurking = None if over else clock.lurking
    rows = tuple(
        ActivityRow(
            name, tuple(c.get(name, 0) for c in counts), last.get(name),
            (max(last.get(name) or game.start, game.start) + lurking) if lurking else None,
        )
        for name in status.living
    )  # fmt: skip
    sign_in_at = (game.start + clock.sign_in).astimezone(tz) if clock.sign_in and not over else None
    end = starts[-1] + timedelta(days=2)
    return Activity(tuple(starts), end, now, rows, sign_in_at, lurking, None if over else clock.day_minimum, over)



# -- alerts, history included ----------------------------------------------------------------------


@dataclass(frozen=True)
class AlertRow:
    """An alert as the alerts page shows it: its kind and subject in the GM's words."""

    id: int
    kind: str
    name: str  # 名字对不上玩家
    message: str
    subject: str | None  # 杀手方 for ``killers``
    at: datetime
    evidence: EvidenceLink | None
    acknowledged_at: datetime | None
    resolved_at: datetime | None
    resolution: str | None = None  # what resolved it (its cause happened)


def alert_history(service: GameService) -> list[tuple[str, list[AlertRow]]]:
    """Every alert of the game, acknowledged or resolved ones too, grouped by the step they
    were raised in (the latest step first, its newest alert first)."""
    from shenshi.console.timeline import step_starts

    tz = service.config.forum.tz
    with service.store.snapshot() as uow:
        raised = uow.alerts.raised(service.game_id)
    links = {link.id: link for link in evidence_links(service.store, service.game_id, [a.evidence_id for a in raised])}
    starts = step_starts(service)
    groups: dict[str, list[AlertRow]] = {}
    for a in raised:
        at = a.created_at.astimezone(tz)
        step = next((name for opened, name in reversed(starts) if opened <= at), "开局前")
        groups.setdefault(step, []).append(AlertRow(
            a.id, a.kind, gm_text.alert_name(a.kind), a.message,
            gm_text.who_name(a.subject) if a.subject else None, at, links.get(a.evidence_id),
            a.acknowledged_at.astimezone(tz) if a.acknowledged_at else None,
            a.resolved_at.astimezone(tz) if a.resolved_at else None, getattr(a, "resolution", None),
        ))  # fmt: skip
    order = {name: i for i, (_, name) in enumerate(starts)}
    return [(name, sorted(rows, key=lambda r: -r.id))
            for name, rows in sorted(groups.items(), key=lambda g: -order.get(g[0], -1))]  # fmt: skip


# -- corrections ---------------------------------------------------------------------------------------

# The console's correction forms: ``override`` kind → (title, its fields). A field is
# ``player`` (a picker of the living), ``action`` (the ruleset's actions), ``target`` (a player
# or 弃权), ``points``, ``optional`` (free text that may stay empty) or ``text``.
CORRECTIONS = {
    "action": ("补录行动（读不出的指令）", (("玩家", "player"), ("行动", "action"), ("对象（可空）", "optional"))),
    "void": ("作废一个行动", (("玩家", "player"), ("行动", "action"))),
    "execute": ("改为处决", (("玩家", "player"),)),
    "cancel-execution": ("今天不处决", ()),
    "exit": ("退出（无替补；本人退出、确认未签到或潜水）", (("玩家", "player"),)),
    "ballot": ("补记选票", (("投票人", "player"), ("投给", "target"))),
    "answered": ("已提前答复占卜", (("占卜者", "player"),)),
    "extra-divination": ("额外占卜（抽中的庶民）", (("玩家", "player"),)),
    "penalty": ("罚分", (("玩家", "player"), ("分数", "points"))),
    "send-off": ("罚下", (("玩家", "player"),)),
    "sheriff": ("交警徽", (("玩家", "player"),)),
}  # fmt: skip
COMMON = ("action", "void", "execute", "cancel-execution", "exit", "ballot")  # every ruleset takes these


def corrections_for(service: GameService) -> dict[str, tuple[str, tuple[tuple[str, str], ...]]]:
    """The correction forms this game's ruleset takes: the common ones and the rulings it
    declares (``Ruleset.gm_rulings``: no werewolf 罚分 on a game6 game)."""
    declared = {kind.replace("_", "-") for kind in service.ruleset.gm_rulings}
    return {what: form for what, form in CORRECTIONS.items() if what in COMMON or what in declared}


@dataclass(frozen=True)
class EntryWords:
    """How the action-entry form speaks in this ruleset (newcomer4 C1: a werewolf game read
    私信, 杀人宣言 and a chess example): what an action arrives as, the kill post's label (''
    where there is none), an example of the target."""

    source: str  # 私信 / 功能树洞的回复
    kill_post: str
    example: str


def entry_words(service: GameService) -> EntryWords:
    """The action-entry form's words for this game's ruleset."""
    from shenshi.rulesets.profile import SkillChannel

    profile = service.referee.profile
    tree_hole = profile.skills.channel is not SkillChannel.PM
    examples = {"chess32": "如 老王；炮打 X 炮架子 Y", "werewolf": "如 老王；金箭 两人：老王 Lily99"}
    return EntryWords("功能树洞的回复" if tree_hole else "私信", profile.kill_post.label if profile.kill_post else "",
                      examples.get(service.ruleset.info.name, "如 老王"))  # fmt: skip


def action_choices(service: GameService) -> list[tuple[str, str]]:
    """The ruleset's actions a GM may void: (id, Chinese name)."""
    from shenshi.rulesets.catalog import ACTION_NAMES

    info = service.ruleset.info
    ids = {a for role in info.roles.values() for a in getattr(role, "powers", ())}
    return sorted(((a, ACTION_NAMES.get(a, a)) for a in ids), key=lambda x: x[1]) or sorted(ACTION_NAMES.items())


@dataclass(frozen=True)
class Correction:
    """A correction the GM made: when, in which step, in his words."""

    at: datetime | None
    step: str
    words: str


def corrections_made(service: GameService) -> list[Correction]:
    """Every correction of the game (substitutes included), the latest first."""
    from shenshi.console.timeline import timeline

    out = [Correction(e.at, step.name, e.text) for step in timeline(service) for e in step.entries if e.kind == "correction"]
    return out[::-1]
