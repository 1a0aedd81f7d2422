"""The GM's commands as operations on a started :class:`~shenshi.daemon.service.GameService`:
one function each, shared by the CLI commands (``shenshi approve`` …) and the web console, so
the two never disagree.

Each operation applies the same outbox transition or event as the CLI always did, writes the
GM's command to the dry-run log with who gave it (``by``: empty for the command line,
``控制台`` for the console), and returns what it did as a :class:`Said`: the lines the CLI
prints (``lines``) and the ids it refused with the reason (``refused``). A command refused as a
whole raises :class:`~shenshi.errors.UserError` and changes nothing.

Map::

    outbox_action(service, "approve"|"reject"|"restore", ids, by, late)  the outbox (review
                                                           mode; restore: a reject undone)
    editable(service, ident)                               the announcement, if it can be edited
    edit_text(service, ident, text, by)                    an announcement's new text
    mark_published(service, ids, when, by)                 posted by hand (dry-run)
    acknowledge(service, ids | None, by)                   alerts read (None: every one)
    unacknowledge(service, ids, by)                        an acknowledgement undone
    correct(service, what, args, reason, at, by)           ``shenshi override …``
    substitute(service, old, new, uid, offline, by)        替补

Names and actions are read as intake reads the players' (:mod:`shenshi.daemon.gm_names`);
refusals are in Chinese, one line per reason (``#3-9：…``); a correction while a daemon holds
the game says that the daemon reads it at its next cycle.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from shenshi.daemon.announce import kind_words, seat_names
from shenshi.daemon.gm_names import SPACES, action_id, seat_name
from shenshi.daemon.gm_text import (
    NOTES,
    STATES,
    describe_ballot,
    describe_submission,
    id_ranges,
    outbox_command,
    outbox_refusal,
    refusal,
    rule_name,
    step_name,
    substitute_plays,
    verdict_name,
)
from shenshi.daemon.hints import (
    UNDO,
    Hint,
    confirmation_hints,
    dropped,
    kept,
    pending_advice,
    publish_advice,
    publish_hints,
    render,
    stale_hints,
    substitute_hint,
)
from shenshi.daemon.situation import on_forum, phase_closed, situation_of
from shenshi.daemon.superseding import ABSENCES, subject_of
from shenshi.errors import UserError
from shenshi.rulesets import base
from shenshi.store.announcements import original_key
from shenshi.store.errors import IllegalTransition, NotFound, StoreError
from shenshi.store.outbox import TRANSITIONS, OutboxAction
from shenshi.store.records import Announcement

if TYPE_CHECKING:
    from shenshi.daemon.referee import Effects
    from shenshi.daemon.service import GameService

CONSOLE = "控制台"  # ``by`` for the web console's actions
OUTBOX_ACTIONS = ("approve", "reject", "restore")  # restore: a reject taken back
# The proposals that wait for the GM's confirmation (an exit for a missed sign-in or lurking,
# chess32's replacement): one taken back from a reject waits for it again.
WAITS_FOR_CONFIRMATION = frozenset({*ABSENCES, "lurk_replaced"})
# ``shenshi override WHAT ARG…``: how many arguments each correction takes.
CORRECTIONS = {
    "action": -2,  # ACTOR ACTION and what the action takes (a negative count: at least that many)
    "void": 2, "execute": 1, "cancel-execution": 0, "exit": 1, "answered": 1,
    "penalty": 2, "send-off": 1, "sheriff": 1, "extra-divination": 1, "ballot": 2, "count-pm": 1,
}  # fmt: skip
# … and how to write them, said when the count is wrong.
USAGE = {
    "action": "ACTOR ACTION [TARGET…]（如 shenshi override action 月光 杀 老王，"
              "shenshi override action 帅 炮打 X 炮架子 Y）",
    "void": "ACTOR ACTION（如 shenshi override void 月光 杀）", "execute": "NAME",
    "cancel-execution": "（不带参数）", "exit": "NAME", "answered": "SEER [--at TIME]",
    "penalty": "NAME POINTS", "send-off": "NAME", "sheriff": "NAME", "extra-divination": "NAME",
    "ballot": "VOTER TARGET（如 shenshi override ballot 老王 kk_大侠；弃权写 弃权）",
    "count-pm": "PM（提醒里的私信编号，如 shenshi override count-pm 3 --game 第1局）",
}  # fmt: skip
# Which arguments of each correction are players' names (checked and written as the game
# spells them: ``老王 `` or ``ｋｋ＿大侠`` are 老王 and kk_大侠).
NAMES = {"void": (0,), "execute": (0,), "exit": (0,), "answered": (0,), "penalty": (0,),
         "send-off": (0,), "sheriff": (0,), "extra-divination": (0,), "ballot": (0, 1)}  # fmt: skip
ABSTAIN_WORDS = ("弃权", "弃票", "abstain", base.ABSTAIN)
# Corrections that put a seat out for good: one that would end the game is asked to be
# confirmed first (recheck2 N4: it cannot be taken back, and no substitute can take the seat).
SEAT_OUT = {"exit": "退出", "send-off": "罚下", "penalty": "罚分"}
ENDS_GAME_OPTION = "--ends-game"


class NeedsConfirmation(UserError):
    """A correction refused until the GM confirms what it does; ``hints``: the confirmation
    and what else he may do instead."""

    def __init__(self, message: str, hints: tuple[Hint, ...], short: str = "") -> None:
        super().__init__(message)
        self.hints = hints
        self.short = short or message  # without the commands (the console shows them as buttons)


@dataclass(frozen=True)
class Said:
    """What a GM command did: lines for the GM, and the ids it refused with the reason."""

    lines: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    ids: tuple[int, ...] = field(default=())  # the announcements or alerts it changed
    hints: tuple[Hint, ...] = ()  # the next steps it names, as data (the console's buttons)
    # What only the command line adds after ``lines``: the next steps written as commands (the
    # console shows ``hints`` as buttons instead, and never a command to type).
    cli: tuple[str, ...] = ()


def gm_log(service: GameService, command: str, text: str, by: str = "") -> None:
    """Record a GM command and what it did in the dry-run log (``by``: who, if not the CLI),
    named as the GM types it (``reject --undo``, never a command that does not exist)."""
    service.drylog.gm(service.clock(), command, text, by=by, typed=outbox_command(command))


def fmt_time(t: datetime | None, tz: tzinfo) -> str:
    """A time on the forum's clock, for people."""
    return t.astimezone(tz).strftime("%Y-%m-%d %H:%M") if t else "—"


def parse_when(text: str | None, tz: tzinfo) -> datetime | None:
    """``--at TIME``: an ISO time on the forum's clock (or with its own offset)."""
    if text is None or not text.strip():
        return None
    try:
        when = datetime.fromisoformat(text.strip().replace("/", "-"))
    except ValueError:
        raise UserError(
            f'--at: 应为论坛时间，如 "2026-12-02T20:15"，得到 "{text}"'
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=tz)


def running_daemon_note(service: GameService) -> str:
    """A note when a daemon (``shenshi run``) holds the game: it reads the correction at the
    start of its next cycle, before the next step ('' when no daemon runs the game)."""
    from shenshi.daemon.lease import gone

    with service.store.snapshot() as uow:
        lease = uow.leases.holder(service.game_id)
    if lease is None or lease.expires_at <= service.clock() or gone(lease.owner):
        return ""
    return ("守护进程（shenshi run）正在运行：它在下一轮轮询开始时读到这次更正（不必重启），"
            "之后的结算都按更正后的局面")  # fmt: skip


def proposed(service: GameService, outcome: Effects) -> list[Announcement]:
    """The announcements an outcome proposed, as stored."""
    with service.store.snapshot() as uow:
        found = [uow.outbox.by_key(service.game_id, d.key) for d in outcome.drafts]
    return [a for a in found if a is not None]


def proposed_ids(service: GameService, outcome: Effects) -> str:
    """The ids of the announcements an outcome proposed (``#12 #13``)."""
    return " ".join(f"#{a.id}" for a in proposed(service, outcome))


def proposed_advice(service: GameService, outcome: Effects) -> tuple[str, tuple[Hint, ...], str]:
    """The line saying what an outcome proposed, its hints, and how it gets out in this mode
    as the command line says it ('' when it proposed nothing)."""
    found = proposed(service, outcome)
    if not found:
        return "", (), ""
    mode = service.config.daemon.mode
    posts = [a.id for a in found if a.destination_kind.value == "thread"]
    pms = [a.id for a in found if a.destination_kind.value != "thread"]
    # every one of them goes out: one hint for all (not one per kind, as if either would do)
    if mode == "dry-run" and posts and pms:
        hints = pending_advice(mode, [(i, "proposed", i in pms) for i in (*posts, *pms)]).hints
    else:
        hints = publish_advice(mode, posts + pms, private=not posts).hints
    how = publish_advice(mode, posts + pms).text() if mode == "live" else render(hints)
    shown = " ".join(f"#{a.id}" for a in found)
    if mode == "live":
        return f"已提出公告 {shown}：{how}", hints, ""
    return f"已提出公告 {shown}", hints, f"（shenshi review 查看）：{how}"


# -- the outbox ---------------------------------------------------------------------------------


def outbox_action(
    service: GameService, action: str, ids: Sequence[int], by: str = "", *, late: bool = False
) -> Said:
    """Apply ``action`` (approve, reject, restore) to every id; an id that cannot take it is refused
    with the reason (one line per reason) and the others still go through. A post of an
    earlier step that was never published is approved only when ``late``."""
    from shenshi.daemon.publisher import retry_note

    if action not in OUTBOX_ACTIONS:
        raise UserError(f"没有这种操作：{action}（可以用：{'、'.join(OUTBOX_ACTIONS)}）")
    done: list[Announcement] = []
    refused: list[tuple[str, int]] = []
    moot: list[str] = []
    hints: list[Hint] = []  # what to do instead, as data: a stale post dropped or sent late
    for ident in ids:
        try:
            with service.store.transaction() as uow:
                item = outbox_item(service, uow, ident)
                if item.state.value == "superseded":  # (in a range: said, not refused)
                    moot.append(superseded_words(service, uow, item))
                    continue
                if action == "approve" and item.state.value == "proposed" and not late:
                    check_current(service, item)
                if action == "restore":  # a sign-in or lurking exit waits for his confirmation again
                    a = uow.outbox.restore(ident, unconfirmed=item.kind in WAITS_FOR_CONFIRMATION)
                else:
                    a = getattr(uow.outbox, action)(ident)
        except (UserError, StoreError) as exc:
            refused.append((refused_words(service, ident, action, exc), ident))
            if isinstance(exc, StalePost):
                hints += stale_hints(ident)
            continue
        done.append(a)
        if action == "restore" and a.destination_kind.value == "thread" and a.published_at is None:
            service.referee.pending_public[a.key] = a.text  # the GM's own post may publish it
    lines = list(moot)
    for a in done:
        lines.append(f"#{a.id} {STATES.get(a.state.value, a.state.value)}（{kind_words(service.templates, a.kind, a.key)}）")
        if action == "approve" and a.last_error and (note := retry_note(a, service.config.forum.tz)):
            lines.append(f"  上次发送失败（{a.last_error}）：{note}")
    if done:
        shown = " ".join(f"#{a.id}" for a in done)
        gm_log(service, action, f"{shown} {STATES.get(done[0].state.value, '')}", by)
    for a in done:  # a correction stands whatever becomes of its post (gmattack A1, recheck2 A5)
        if action == "reject" and (stands := STANDS_WITHOUT_POST.get(a.kind)):
            lines.append(f"注意：放弃 #{a.id} 不会撤销这次{stands}；"
                         f"要让玩家知道，shenshi reject --undo {a.id} 后发出")
    if action == "reject" and done:  # an alert about a send the GM dropped is moot
        service.resolve_alerts([dropped(a.id) for a in done] + [kept(a) for a in done if a.kind in ("signin", "lurk")])
    cli: list[str] = []
    if action == "approve" and done and service.config.daemon.mode == "dry-run":
        lines.append("注意：现在是演练模式（dry-run），批准的内容不会发送：请手动发帖/发私信（会被自动认出），再记为已发布")
        cli.append("发出后 shenshi published ID；要让守护进程发送，把 [daemon] mode 改为 review 并重启 shenshi run。")
        hints += publish_hints("dry-run", [a.id for a in done])
    elif action == "approve" and done:
        lines.append("守护进程会在下次轮询时按论坛的发帖间隔发送")
        cli.append("shenshi status 查看")
    return Said(tuple(lines), _grouped(refused), tuple(a.id for a in done), hints=tuple(hints), cli=tuple(cli))


class StalePost(UserError):
    """A post of an earlier step that was never published: approved only with ``--late``."""


def superseded_words(service: GameService, uow, a: Announcement) -> str:  # type: ignore[no-untyped-def]
    """A superseded announcement in the GM's words: what replaced it and why (never sent)."""
    what = kind_words(service.templates, a.kind, original_key(a.key))
    now = uow.outbox.replaced_by(a.id)
    instead = f"已被 #{now.id} 取代" if now is not None else "已撤回"
    return f"#{a.id}（{what}）{instead}（{a.superseded_because or '局面变化'}），不会发送"


def _grouped(refused: list[tuple[str, int]]) -> tuple[str, ...]:
    """Refusals with the same reason on one line (``approve 3-43`` is not 30 lines)."""
    groups: dict[str, list[int]] = {}
    for reason, ident in refused:
        groups.setdefault(reason, []).append(ident)
    return tuple(f"#{id_ranges(ids)}：{reason}" for reason, ids in groups.items())


_STEP = re.compile(r":(night|day)(\d+)(?:\.r\d+)?:")


def check_current(service: GameService, a: Announcement) -> None:
    """Refuse a post of an earlier step that was never published (a 投票帖开放 notice of day 1
    during night 2), or a PM whose deadline has passed (a 遗言期限 notice approved after it:
    wolfadv W12): approving a range should not send them late. ``approve --late`` sends it."""
    deadline = (a.notes or {}).get("deadline")
    if deadline and datetime.fromisoformat(deadline) <= service.clock():
        drop, send = stale_hints(a.id)
        shown = fmt_time(datetime.fromisoformat(deadline), service.config.forum.tz)
        raise StalePost(f"它给的期限 {shown} 已过，发出也来不及了：不发就 {drop.text()}；一定要发：{send.text()}")
    found = _STEP.search(a.key)
    if found is None or a.destination_kind.value != "thread":
        return
    state = service.referee.state
    day_first = service.ruleset.first_phase is base.Phase.DAY
    order = {base.Phase.NIGHT: int(day_first), base.Phase.DAWN: int(day_first),
             base.Phase.DAY: int(not day_first), base.Phase.DUSK: int(not day_first)}  # fmt: skip
    phase = base.Phase.NIGHT if found.group(1) == "night" else base.Phase.DAY
    step = step_name(phase, int(found.group(2)))
    drop, send = stale_hints(a.id)
    late = f"不发就 {drop.text()}；一定要发：{send.text()}"
    if state.phase is base.Phase.OVER and not a.key.endswith(":public"):  # only the result still
        raise StalePost(f"游戏已经结束，这条{step}的帖子已过时：{late}")
    if state.phase not in order:
        return
    if (int(found.group(2)), order[phase]) < (state.number, order[state.phase]):
        raise StalePost(
            f"这是{step}的帖子，现在已是{step_name(state.phase, state.number)}，已过时：{late}"
        )


def outbox_item(service: GameService, uow, ident: int) -> Announcement:  # type: ignore[no-untyped-def]
    """Announcement ``ident`` of this game, or a :class:`UserError` saying where to find ids."""
    try:
        a = uow.outbox.get(ident)
    except NotFound:
        a = None
    if a is None or a.game_id != service.game_id:
        raise UserError("没有这条公告/私信（shenshi review 列出待审的，shenshi review --all 列出全部）")
    return a


def refused_words(service: GameService, ident: int, action: str, exc: Exception) -> str:
    """Why ``action`` did not apply to announcement ``ident``, in the GM's words (an
    unconfirmed one: what confirms it)."""
    if not isinstance(exc, IllegalTransition):
        return str(exc)
    with service.store.snapshot() as uow:
        a = uow.outbox.get(ident)
    return outbox_refusal(action, a.state.value, confirm_words(service, a))


def confirm_words(service: GameService, a: Announcement) -> str:
    """What confirms unconfirmed announcement ``a`` now, in the GM's words ('' otherwise)."""
    if a.state.value != "unconfirmed":
        return ""
    return render(confirmation_hints(service.situation(), a.kind, subject_of(a), a.id))


def followed_lines(service: GameService) -> list[str]:
    """What the GM's last correction superseded, in his words (``#26 已被 #28 取代，不会发送``)."""
    lines = []
    for old, by in service.followed.superseded:
        what = kind_words(service.templates, old.kind, original_key(old.key))
        instead = f"已被 #{by.id} 取代" if by is not None else "已撤回"
        lines.append(f"#{old.id}（{what}）{instead}，不会发送")
    for a in service.followed.confirmed:
        lines.append(f"#{a.id}（{kind_words(service.templates, a.kind, a.key)}）已确认")
    return lines


def editable(service: GameService, ident: int) -> Announcement:
    """Announcement ``ident`` if its text can still be changed (checked before an editor
    opens), else a :class:`UserError` saying why."""
    with service.store.snapshot() as uow:
        try:
            current = outbox_item(service, uow, ident)
        except UserError as exc:
            raise UserError(f"#{ident}：{exc}") from None
    if OutboxAction.EDIT not in TRANSITIONS[current.state]:
        raise UserError(f"#{ident}：{outbox_refusal('edit', current.state.value)}")
    return current


def edit_text(service: GameService, ident: int, text: str, by: str = "") -> Said:
    """Replace announcement ``ident``'s text (an empty text is refused; the same text is said
    so and changes nothing); an approved one then needs approving again."""
    if not text.strip():
        raise UserError("新内容是空的：没有改动")
    current = editable(service, ident)
    if text == current.text:
        return Said((f"#{ident} 内容没有变化，没有改动",))
    try:
        with service.store.transaction() as uow:
            a = uow.outbox.edit(ident, text)
    except StoreError as exc:
        raise UserError(f"#{ident}：{exc}") from None
    state = STATES.get(a.state.value, a.state.value)
    gm_log(service, "edit", f"#{a.id} 改为：\n{text}", by)
    again = "（改过的内容要重新批准）" if current.state.value == "approved" else ""
    private = a.destination_kind.value != "thread"
    advice = publish_advice(service.config.daemon.mode, (a.id,), private, a.state.value)
    return Said((f"#{a.id} 已修改（{state}）{again}",), ids=(a.id,), hints=advice.hints, cli=(advice.text(),))


def mark_published(
    service: GameService, ids: Sequence[int], when: datetime | None = None, by: str = ""
) -> Said:
    at = when is not None
    """The GM posted these announcements by hand at ``when`` (default: now). A time in the
    future is refused; so is, id by id, an announcement already out, rejected, being sent, or
    proposed after ``when``. One that is out already (the daemon recognised the GM's post or
    PM) is said so and left as it is, unless ``at`` was given: its time cannot change."""
    tz = service.config.forum.tz
    now = service.clock()
    when = when or now
    if when > now:
        raise UserError(
            f"--at {fmt_time(when, tz)} 在未来（现在是 {fmt_time(now, tz)}）：请给出你发帖的时间"
        )
    done: list[Announcement] = []
    already: list[str] = []
    refused: list[str] = []
    for ident in ids:
        try:
            with service.store.snapshot() as uow:
                first = outbox_item(service, uow, ident)
            confirm = confirm_words(service, first)  # (it reads the store itself: not inside a unit of work)
            with service.store.transaction() as uow:
                a = outbox_item(service, uow, ident)
                out = _already_out(a, tz)
                if out is not None:
                    reason = f"{out}：时间不能再改，没有改动" if at else None
                elif (reason := _not_publishable(a, when, tz, confirm)) is None:
                    a = uow.outbox.mark_published(ident, when)
        except (UserError, StoreError) as exc:
            out, reason = None, str(exc)
        if reason:
            refused.append(f"#{ident}：{reason}")
        elif out is not None:
            already.append(f"#{ident} {out}，无需再记（{kind_words(service.templates, a.kind, a.key)}）")
        else:
            service.referee.pending_public.pop(a.key, None)
            done.append(a)
    if done:
        service.resolve_alerts([h for a in done for h in on_forum(a, by_hand=True)])
    lines = [
        f"#{a.id} 已记为发布于 {fmt_time(a.published_at, tz)}（{kind_words(service.templates, a.kind, a.key)}）"
        for a in done
    ] + already  # fmt: skip
    if done:
        shown = " ".join(f"#{a.id}" for a in done)
        gm_log(service, "published", f"{shown} 发布于 {fmt_time(when, tz)}", by)
        opening = service.referee.wants(when).announcements if service.referee is not None else frozenset()
        # (a role PM or a receipt opens nothing; nor does the vote's opening post, whose round
        # opens and closes at the rules' hours whenever it is out: the clock only learns it)
        if any(original_key(a.key) in opening and a.kind != "vote_opened" for a in done):
            lines.append("下一阶段从发布时间算起")
    cli = ("shenshi run 会继续推进（shenshi status 查看）",) if done else ()
    return Said(tuple(lines), tuple(refused), tuple(a.id for a in done), cli=cli)


def _already_out(a: Announcement, tz: tzinfo) -> str | None:
    """How ``a`` is out already (recognised or recorded, or sent), or ``None``."""
    if a.published_at is not None:
        return f"已在 {fmt_time(a.published_at, tz)} 记为发布"
    if a.sent_at is not None:
        return f"守护进程已在 {fmt_time(a.sent_at, tz)} 发出"
    return None


def _not_publishable(a: Announcement, when: datetime, tz: tzinfo, confirm: str = "") -> str | None:
    """Why ``a`` (not out yet) cannot be marked published at ``when`` (``None``: it can;
    ``confirm``: what confirms it, if it waits for that)."""
    if a.state.value == "rejected":
        return "已放弃（shenshi reject），不能记为发布"
    if a.state.value in ("superseded", "unconfirmed"):
        return outbox_refusal("publish", a.state.value, confirm)
    if a.state.value == "sending":
        return "正在发送中：等守护进程确认，或查看论坛"
    if when < a.created_at:
        return f"它在 {fmt_time(a.created_at, tz)} 才提出，不可能更早发布：检查 --at"
    return None


# -- alerts -----------------------------------------------------------------------------------------


def unacknowledge(service: GameService, ids: Sequence[int], by: str = "") -> Said:
    """Take back the acknowledgement of these alerts: ``shenshi status`` and the console show
    them again; ids this game has no alert for are refused."""
    with service.store.transaction() as uow:
        known = {a.id: a for a in uow.alerts.raised(service.game_id)}
        missing = [i for i in ids if i not in known]
        wanted = [i for i in ids if i in known and known[i].acknowledged_at is not None]
        unread = [i for i in ids if i in known and known[i].acknowledged_at is None]
        done = uow.alerts.unacknowledge(service.game_id, wanted) if wanted else []
    shown = " ".join(f"#{a.id}" for a in done)
    if done:
        gm_log(service, "unack", f"撤销确认 {shown}", by)
    lines = [f"已撤销确认：{shown}（重新显示为未确认）"] if done else []
    if unread:
        lines.append(f"{' '.join(f'#{i}' for i in unread)} 本来就是未确认的，没有改动")
    refused = (f"没有提醒 {' '.join(f'#{i}' for i in missing)}（shenshi status 列出未确认的提醒）",) if missing else ()
    return Said(tuple(lines), refused, tuple(a.id for a in done))


def acknowledge(service: GameService, ids: Sequence[int] | None, by: str = "") -> Said:
    """The GM has read these alerts (``None``: every unacknowledged one); the good ids are
    acknowledged and the ones this game has no alert for are refused."""
    with service.store.transaction() as uow:
        if ids is None:
            wanted = [a.id for a in uow.alerts.raised(service.game_id, unacknowledged=True)]
        else:
            wanted = list(ids)
        known = {a.id for a in uow.alerts.raised(service.game_id)}
        missing = [i for i in wanted if i not in known]
        wanted = [i for i in wanted if i in known]
        done = uow.alerts.acknowledge(service.game_id, wanted, at=service.clock()) if wanted else []
        left = len(uow.alerts.raised(service.game_id, unacknowledged=True))
    shown = " ".join(f"#{a.id}" for a in done)
    gm_log(service, "ack", f"已确认提醒 {shown}" if done else "没有未确认的提醒", by)
    line = f"已确认 {len(done)} 条提醒{'：' + shown if done else ''}；还有 {left} 条未确认"
    refused = (
        (f"没有提醒 {' '.join(f'#{i}' for i in missing)}（shenshi status 列出未确认的提醒）",)
        if missing
        else ()
    )
    return Said((line,), refused, tuple(a.id for a in done))


# -- corrections ------------------------------------------------------------------------------------


def correction(
    what: str, args: Sequence[str], reason: str = "", at: str | None = None, tz: tzinfo | None = None
) -> base.Command:
    """The rules core's command for ``shenshi override WHAT ARG…`` (the arguments checked)."""
    check_arguments(what, args)
    a = [x.strip() for x in args]
    if any(not x for x in a):
        raise UserError(_empty_argument(what))
    match what:
        case "void":
            return base.VoidAction(a[0], a[1], reason)
        case "execute":
            return base.ForceExecution(a[0], reason)
        case "cancel-execution":
            return base.ForceExecution(None, reason)
        case "exit":
            return base.DeclareExit(a[0], reason)
        case "penalty":
            if not a[1].isdigit():
                raise UserError(f"override penalty 的分数应为整数，收到「{a[1]}」：shenshi override penalty {USAGE['penalty']}")
            return base.GmRuling("penalty", a[0], base.frozen_map({"points": int(a[1])}), reason)
        case "send-off":
            return base.GmRuling("send_off", a[0], reason=reason)
        case "sheriff":
            return base.GmRuling("sheriff", a[0], reason=reason)
        case "extra-divination":
            return base.GmRuling("extra_divination", a[0], reason=reason)
        case "ballot":
            target = base.ABSTAIN if a[1] in ABSTAIN_WORDS else a[1]
            return base.OverrideBallot(a[0], target, reason)
    return base.GmAnswered(a[0], parse_when(at, tz) if tz is not None else None)


def _empty_argument(what: str) -> str:
    """A correction with an argument left empty (a console form's field), said with how to write it."""
    return f"override {what} 有一个参数是空的（没有填写）：shenshi override {what} {USAGE[what]}；没有改动"


def check_arguments(what: str, args: Sequence[str]) -> None:
    """A known correction with the number of arguments it takes (said with an example)."""
    if what not in CORRECTIONS:
        raise UserError(f"没有这种更正：{what}（可以用：{'、'.join(CORRECTIONS)}）")
    wanted = CORRECTIONS[what]
    if (len(args) < -wanted) if wanted < 0 else (len(args) != wanted):
        count = f"至少需要 {-wanted}" if wanted < 0 else f"需要 {wanted}"
        raise UserError(f"override {what} {count} 个参数，收到 {len(args)} 个："
                        f"shenshi override {what} {USAGE[what]}")  # fmt: skip


def resolved(service: GameService, what: str, args: Sequence[str]) -> list[str]:
    """The arguments with players' names and actions as the game spells them."""
    check_arguments(what, args)
    if any(not x.strip() for x in args):
        raise UserError(_empty_argument(what))
    a = list(args)
    for i in NAMES.get(what, ()):
        if what == "ballot" and i == 1 and a[1].strip(SPACES) in ABSTAIN_WORDS:
            a[1] = base.ABSTAIN
            continue
        a[i] = seat_name(service, a[i], ("投票人", "投票对象")[i] if what == "ballot" else "玩家")
    if what == "void":
        a[1] = action_id(service, a[1])
    return a


def correction_words(what: str, args: Sequence[str], reason: str = "") -> str:
    """The correction in the GM's words (``作废 老王 本阶段的「杀」``)."""
    from shenshi.rulesets.catalog import ACTION_NAMES

    a = list(args)
    why = f"（理由：{reason}）" if reason else ""
    said = {
        "action": lambda: f"补录 {a[0]} 的行动：{' '.join(a[1:])}（代替读不出的私信）",
        "void": lambda: f"作废 {a[0]} 本阶段的「{ACTION_NAMES.get(a[1], a[1])}」",
        "execute": lambda: f"今天处决 {a[0]}（代替计票结果）",
        "cancel-execution": lambda: "今天不处决任何人",
        "exit": lambda: f"{a[0]} 退出游戏，没有替补（公布时出局；记录后不能撤销，座位也不能再换替补）",
        "answered": lambda: f"天神已答复 {a[0]} 的占卜（之后的更改不再受理）",
        "penalty": lambda: f"{a[0]} 罚分 {a[1]}",
        "send-off": lambda: f"{a[0]} 被罚下",
        "sheriff": lambda: f"警徽交给 {a[0]}",
        "extra-divination": lambda: f"抽中 {a[0]} 做额外占卜",
        "ballot": lambda: f"{a[0]} 的选票改记为 {'弃权' if a[1] == base.ABSTAIN else a[1]}（代替没能计入的那一票）",
    }[what]()
    return said + why


# The posts of a correction recorded in the game: rejecting the post leaves the correction as it
# is (the seat out, the substitute in, the penalty counted), only unannounced.
STANDS_WITHOUT_POST = {
    "exit": "退出：它已记录在局面里（出局，只是玩家还不知道）",
    "substitution": "替补：它已记录在局面里（替补照样接替这个位置，只是玩家还不知道）",
    "ruling": "裁决：它已记录在局面里（照样生效，只是玩家还不知道）",
}


def correct(
    service: GameService,
    what: str,
    args: Sequence[str],
    reason: str = "",
    at: str | None = None,
    by: str = "",
    *,
    ends_game: bool = False,
) -> Said:
    """Record a GM correction (an event like any other) and what it proposed; a correction
    the rules refuse changes nothing (:class:`UserError` with the rules' reason). Players'
    names and actions are read as intake reads them (:func:`resolved`). A correction that
    would end the game (:data:`SEAT_OUT`) is recorded only with ``ends_game``
    (:class:`NeedsConfirmation` otherwise)."""
    if what == "action":
        return enter_action(service, args, reason, at, by)
    args = resolved(service, what, args)
    command = correction(what, args, reason, at, service.config.forum.tz)
    referee = service.referee
    # said as the GM wrote it: a seat being taken over by the one who plays it now (gmattack A11)
    playing = seat_names(service.templates, {old: new for old, new in referee.state.pending_substitutions
                                             if referee.state.is_alive(old)})  # fmt: skip
    said = correction_words(what, [playing.get(x, x) for x in args], reason)
    if referee.state.outcome is not None and referee.end_published():  # (gmattack A9: a game restarted)
        winner = referee.state.outcome.winner
        shown = "和棋" if winner in (None, "draw") else f"{service.ruleset.info.team_name(winner)} 获胜"
        raise UserError(f"{said}：游戏已经结束（{shown}），"
                        "结束的帖子已经公布：不能再更正；没有改动")
    if what == "ballot":
        _check_voting(service, said)
    if what == "void":
        _check_phase_open(service, args[1] if len(args) > 1 else "", said)
    if what in ("penalty", "send-off") and args[0] in referee.context(service.clock()).phase.sent_off:
        raise UserError(f"{said}：{args[0]} 已被罚下，不能再罚分或罚下；没有改动")  # (recheck3 F12)
    if what in SEAT_OUT and not ends_game:
        _check_not_ending(service, command, what, args, reason, said)
    dropped = _actions_dropped(service, args[0]) if what in SEAT_OUT and args else ""
    try:
        outcome = service.gm(command)
    except base.IllegalActionError as exc:
        raise UserError(f"{said}：{refusal(str(exc))}；没有改动") from None
    return recorded(service, outcome, said, by, flags=(dropped,) if dropped else ())


def _actions_dropped(service: GameService, name: str) -> str:
    """What ``name`` submitted in the open night, which his exit makes void (an action of one
    out at the night's end is not counted), in the GM's words; '' if nothing (newcomer2 F18:
    the curse his receipt had accepted was dropped at dawn, and nobody said so when he left)."""
    state = service.referee.state
    if state.phase is not base.Phase.NIGHT or not state.is_alive(name):
        return ""
    subs = [describe_submission(x).removeprefix(f"{name} ") for x in state.submissions if x.actor == name]
    return f"{name} 今晚已提交的行动（{'；'.join(subs)}）随他出局不再计入" if subs else ""


def _check_not_ending(service: GameService, command: base.Command, what: str, args: Sequence[str],
                      reason: str, said: str) -> None:  # fmt: skip
    """Refuse ``command`` (with how to confirm it) if it would end the game: the seat it puts
    out is out for good, and the end's post follows (recheck2 N4: a GM who meant to find a
    substitute had no way back)."""
    referee = service.referee
    try:
        events = referee.ruleset.decide(referee.state, command)
    except base.IllegalActionError:
        return  # refused by the rules below, with their reason
    state = referee.state
    for event in events:
        state = referee.ruleset.evolve(state, event)
    if state.outcome is None or referee.state.outcome is not None:
        return
    winner = state.outcome.winner
    shown = "和棋" if winner in (None, "draw") else f"{service.ruleset.info.team_name(winner)}获胜"
    options = ((("--reason", reason),) if reason else ()) + ((ENDS_GAME_OPTION, ""),)
    confirm = Hint("override", (what, *args), options=options, label=f"确认{SEAT_OUT[what]}并结束游戏")
    hints = (confirm,)
    name = args[0] if args else ""
    if what == "exit" and name and (substitute := substitute_hint(situation_of(service), name)) is not None:
        hints += (substitute,)
    instead = f"要换替补：shenshi substitute {name} 新玩家；" if len(hints) > 1 else ""
    why = f"{said}：这会让游戏立即结束（{shown}），记录后不能撤销，这个座位也不能再由替补接替"
    raise NeedsConfirmation(f"{why}；{instead}确认结束游戏：{confirm.text()}；没有改动", hints, f"{why}；没有改动")


def _pm_as_read(service: GameService, pm: str, actor: str) -> tuple[str, str]:
    """When PM ``pm`` was sent and the kill declaration written in it, as the alert about it
    from ``actor`` read them (``--pm``)."""
    from shenshi.daemon.hints import Cause

    if not pm.strip().lstrip("#").isdigit():
        raise UserError(f"--pm 要写私信的编号（提醒里的“私信 N”），收到「{pm}」；没有改动")
    number = int(pm.strip().lstrip("#"))
    with service.store.snapshot() as uow:
        raised = [a for a in uow.alerts.raised(service.game_id) if a.subject == actor and a.evidence_id is not None]
        # the number as the alert's evidence shows it (「→ PM 44」: the forum's) or as stored
        ids = {number} | {a.evidence_id for a in raised
                          if (e := uow.evidence.get(a.evidence_id)).kind.value == "pm" and e.forum_id == str(number)}  # fmt: skip
    alerts = [a for a in raised if a.evidence_id in ids]
    causes = [c for a in alerts if (c := Cause.from_json(a.cause)) is not None and c.who == actor]
    if not causes:
        raise UserError(f"没有 {actor} 第 {number} 条私信的提醒：--pm 只用于提醒里给出的那条私信；没有改动")
    cause = next((c for c in causes if c.declared), causes[0])
    return cause.at, cause.declared


def _check_voting(service: GameService, said: str) -> None:
    """A ballot is entered only while its round takes ballots: before the vote opens a post
    is no ballot (the player's first ballot in the window counts), so none is recorded."""
    referee = service.referee
    assert referee is not None
    opens = referee.ballots_from()
    if opens is None or opens <= service.clock():
        return  # no round: the rules refuse it with their reason
    when = NOTES["vote_opens_at"].format(at=fmt_time(opens, service.config.forum.tz))
    raise UserError(f"{said}：{when}；没有改动")


def _check_phase_open(service: GameService, action: str, said: str) -> None:
    """A night action of a submission phase that has closed (werewolf 夜晚1 at 00:00) is no
    longer voided or entered: what that phase's close sent stands on it (the witch's 【通灵】
    list names its kills, RES-W3; wolfadv W17: a kill voided after the list went out fell back
    to another wolf's target the witch was never shown)."""
    if service.referee.state.phase is base.Phase.DAWN:  # settled, not announced: what can be done (wolfadv W9)
        raise UserError(
            f"{said}：这一夜已按截止时的提交结算（结果待公布），不能再补录或作废行动；结算有误的话，结果帖提出后、"
            "发出前用 shenshi edit ID 改写它，或 shenshi reject ID 后在论坛上说明；没有改动"
        )
    action = action_id(service, action) if action else action
    closed = phase_closed(service, action) if action else None
    if closed is not None:
        which = service.referee.profile.skills.night_phases.get(action)
        raise UserError(
            f"{said}：夜晚{which} 已在 {fmt_time(closed, service.config.forum.tz)} 截止，这一阶段的行动已按截止时的"
            "样子定下（女巫的通灵名单随之发出）：不能再作废或补录；没有改动"
        )


def recorded(service: GameService, outcome: Effects, said: str, by: str = "", flags: Sequence[str] = ()) -> Said:
    """A correction stored: logged, and told to the GM with what it superseded and what it
    proposed (and how that gets out in this mode), the state's own proposals among it (a
    voided action's player told); ``flags``: what it was accepted with."""
    keys = {d.key for d in outcome.drafts}
    outcome = replace(outcome, drafts=outcome.drafts + [d for d in service.followed.proposed if d.key not in keys])
    ids = proposed_ids(service, outcome)
    gm_log(service, "override", said + (f"；公告 {ids}" if ids else ""), by)
    lines = [f"已记录：{said}"] + [f"注意：{flag}" for flag in flags]
    lines += [note] if (note := running_daemon_note(service)) else []
    lines += followed_lines(service)
    line, hints, how = proposed_advice(service, outcome)
    if line:
        lines.append(line)
    return Said(tuple(lines), hints=hints, cli=(how,) if how else ())


def enter_action(
    service: GameService,
    args: Sequence[str],
    reason: str = "",
    at: str | None = None,
    by: str = "",
    declaration: str | None = None,
    pm: str | None = None,
) -> Said:
    """``shenshi override action ACTOR ACTION [TARGET…]``: the GM enters a player's action
    that intake could not read (a misspelt name, a garbled PM), by the action's id or its
    Chinese word, with what the action takes written as the player writes it (``炮打 X 炮架子
    Y``; a kill's declaration by ``declaration``). It is read and validated as the player's own
    PM (or 功能树洞 reply) sent at ``at`` (default: now) would be, then checked by the
    ruleset as his submission; it is an event like every correction (replay rebuilds it), and
    the alert it answers closes itself. ``pm``: the number of the PM it stands for, whose
    time and kill declaration (as its alert read them) it takes where not given."""
    from shenshi.intake import read_gm_entry
    from shenshi.intake.lexicon import DECLARATION_WORDS

    check_arguments("action", args)
    actor = seat_name(service, args[0], "玩家")
    if pm is not None:
        sent, written = _pm_as_read(service, pm, actor)
        at, declaration = at or sent or None, declaration or written or None
    action = action_id(service, args[1])
    info = service.ruleset.info
    rest = " ".join(a.strip(SPACES) for a in args[2:] if a.strip(SPACES))
    text = f"{info.action_name(action)} {rest}".strip()
    if declaration:
        text += f"\n{DECLARATION_WORDS[0]}：{declaration.strip()}"
    tz = service.config.forum.tz
    when = parse_when(at, tz) or service.clock()
    referee = service.referee
    said = correction_words("action", [actor, text.splitlines()[0]], reason)
    _check_phase_open(service, action, said)
    result = read_gm_entry(referee.context(when), actor, text, when)
    entered = [c for c in result.commands if c.action == action] or list(result.commands)
    if not entered and result.alerts:
        raise UserError(f"{said}：{'；'.join(a.message for a in result.alerts)}；没有改动")
    if not entered:
        raise UserError(f"{said}：读不出行动，写法：shenshi override action {USAGE['action']}；没有改动")
    flags = [a.message for a in result.alerts]  # accepted with a flag (a missing declaration…)
    outcome = None
    for command in entered:
        core = referee.translate(command, None, when)
        if not isinstance(core, base.Submit):
            continue
        core = replace(core, extra=base.frozen_map({**core.extra, "gm": True, **({"reason": reason} if reason else {})}))
        problem = service.ruleset.check_submission(
            referee.state, base.Submission(core.actor, core.action, core.target, core.extra, core.t)
        )
        if problem is not None and problem.verdict == "rejected":
            raise UserError(f"{said}：{rule_name(problem.rule)}（{verdict_name(problem.verdict)}）；没有改动")
        try:
            outcome = service.gm(core)
        except base.IllegalActionError as exc:
            raise UserError(f"{said}：{refusal(str(exc))}；没有改动") from None
    if outcome is None:
        raise UserError(f"{said}：读不出行动；没有改动")
    return recorded(service, outcome, said, by, flags)



def count_pm(service: GameService, pm_id: str, by: str = "") -> Said:
    """``shenshi override count-pm PM``: the GM says that PM ``PM`` (the forum's id, as the
    alert shows it), kept aside as maybe another game's (a player seated in several games), is
    this game's: it is read now as the player's own PM sent at its time (an action, a
    delegated vote…), and the alerts about it close in every game of the database."""
    ident = pm_id.strip().upper().removeprefix("PM").strip()
    outcome = service.count_pm(ident)
    said = f"PM {ident} 计入《{service.config.game.name}》"
    done = [describe_submission(e.submission) for e in outcome.events if isinstance(e, base.PowerSubmitted)]
    done += [describe_ballot(e.ballot) for e in outcome.events if isinstance(e, base.BallotCast)]
    gm_log(service, "override", said + (f"：{'；'.join(done)}" if done else ""), by)
    lines = [f"已记录：{said}"] + [f"读到：{d}" for d in done]
    lines += [f"提醒：{a.message}" for a in outcome.alerts]
    receipts = proposed(service, outcome)
    if receipts:
        lines.append(f"回执 {' '.join(f'#{a.id}' for a in receipts)}")
    lines += [note] if (note := running_daemon_note(service)) else []
    return Said(tuple(lines), ids=tuple(a.id for a in receipts))


def substitute(
    service: GameService,
    old: str,
    new: str,
    uid: str | None = None,
    *,
    offline: bool = False,
    by: str = "",
) -> Said:
    """替补: ``new`` takes over ``old``'s seat, his forum account looked up first (unless
    ``uid`` is given, or ``offline``); a name the forum does not know is refused. ``old`` is
    read as intake reads players' names."""
    old = seat_name(service, old, "离开的玩家")
    new = new.strip(SPACES)
    if not new:
        raise UserError("替补的论坛名字是空的：shenshi substitute OLD NEW")
    if service.referee.is_gm_name(new):  # (its posts are the announcements; it cannot PM itself: recheck R1a)
        raise UserError(f"{new} 是天神（神的使者）的账号，不能当替补：请换一名替补；没有改动")
    with service.store.snapshot() as uow:
        former = next((p for p in uow.games.players(service.game_id, current_only=False)
                       if p.name == new and p.left_at is not None), None)  # fmt: skip
    if former is not None and former.replaced_by is None:  # his seat went out before he entered (RES-A18)
        raise UserError(f"{new} 已是本局的替补（接替的座位在他入座前出局）：一人只能接替一次；请换一名替补；没有改动")
    if former is not None:  # (one who plays now is refused by the rules: he holds a seat)
        raise UserError(f"{new} 曾在本局坐过一个座位、已经离开（由替补接替）：离开的玩家不能再作为替补回到本局；"
                        "请换一名替补；没有改动")
    pending = dict(service.referee.state.pending_substitutions)
    if new in pending.values():
        raise UserError(f"{new} 已经在本局中（正在接替 {next(o for o, n in pending.items() if n == new)} 的座位）：请换一名替补；没有改动")
    entering = pending.get(old)
    if entering is not None and not service.referee.state.is_alive(old):  # (gmattack3 F6: no 「本阶段结束后」)
        raise UserError(f"{old}（由替补 {entering} 在玩）的座位在本阶段已出局：替补只能接替存活的座位；没有改动")
    if entering is not None:  # (gmattack2 F1: said as it is, not 「入座后」 beside 「立即生效」)
        raise UserError(f"{old} 的座位已由替补 {entering} 接替，从接替时起由他投票和行动；同一阶段里一个座位只能换一次人："
                        f"本阶段结束后可以用 shenshi substitute {entering} 新玩家 换下他；没有改动")
    note = ""
    if uid is None:
        uid, note = _look_up(service, new, offline=offline)
    try:
        outcome = service.substitute(old, new, uid)
    except base.IllegalActionError as exc:
        if service.referee.keys.exit(old) in service.referee.exits_unpublished():  # (gmattack2 F16)
            raise UserError(f"{new} 接替 {old}：{old} 已用 override exit 记为退出、没有替补（退出帖还没发出）；"
                            "记录了的退出不能撤销，这个座位不能再换替补；没有改动") from None
        raise UserError(f"{new} 接替 {old}：{refusal(str(exc))}；没有改动") from None
    when = substitute_plays(new, old)  # at once, whether or not the step has resolved (RULES.md)
    lines = [f"{new} 接替 {old} 的座位，立即生效：{when}"] + ([note] if note else [])
    cli: tuple[str, ...] = ()
    if moved := service.referee.moved_deadlines(old, new):
        lines.append(f"{moved}（已写进替补公告和 {new} 的身份私信）")
        cli = ("shenshi status 显示新的截止时间",)
    if running := running_daemon_note(service):
        lines.append(running)
    lines += followed_lines(service)
    proposed = [d for d in (*outcome.drafts, *service.followed.proposed)]
    ids = proposed_ids(service, replace(outcome, drafts=proposed))
    gm_log(service, "substitute", f"{new} 接替 {old}（{when}）" + (f"；公告 {ids}" if ids else ""), by)
    line, hints, how = proposed_advice(service, replace(outcome, drafts=proposed))
    if line:
        lines.append(line)
    return Said(tuple(lines), hints=hints, cli=cli + ((how,) if how else ()))


def _look_up(service: GameService, name: str, *, offline: bool) -> tuple[str | None, str]:
    """The newcomer's uid from the forum; a name the forum does not know is refused."""
    from shenshi.adapters.errors import ForumError, NotFound
    from shenshi.bootstrap import make_forum
    from shenshi.daemon.forum_problems import explain

    # (what happens if the name is wrong: his PMs fail, each with an alert; gmattack A5)
    later = "名字写错的话，给他的私信会发送失败（会有提醒）；发出替补公告前请先确认这个账号存在"
    if offline:
        return None, f"没有检查论坛账号（--offline）；{later}"
    forum = make_forum(service.config)
    try:
        forum.login()
        return forum.lookup_uid(name), ""
    except NotFound:
        raise UserError(f"论坛上没有名为 {name} 的账号：检查拼写，或让他先注册；没有改动") from None
    except ForumError as exc:
        return None, f"无法检查论坛账号：{explain(service.config, exc)}；{later}"
    finally:
        close = getattr(forum, "close", None)
        if close is not None:
            close()


# -- hints ------------------------------------------------------------------------------------------


def run_hint(service: GameService, hint: Hint, by: str = "", *, text: str | None = None,
             offline: bool = False) -> Said:  # fmt: skip
    """Do what a hint suggests (its blanks filled in first: :meth:`Hint.fill`), as the command
    line would: the console's button and the CLI run the same operation. ``text``: an edit's
    new text; ``offline``: a substitute's forum account is not looked up. A hint done by hand
    on the forum, or one that only shows something, is refused with what to do instead."""
    if hint.blanks:
        raise UserError(f"先填写：{'、'.join(b.what for b in hint.blanks)}")
    args = [str(a) for a in hint.args]
    options = dict(hint.options)
    match hint.command:
        case "override" if len(args) == 2 and args[0] == "count-pm":
            return count_pm(service, args[1], by)
        case "override" if args and args[0] == "action":
            return enter_action(service, args[1:], options.get("--reason", ""), options.get("--at"), by,
                                declaration=options.get("--declaration"), pm=options.get("--pm"))  # fmt: skip
        case "override" if args:
            return correct(service, args[0], args[1:], options.get("--reason", ""), options.get("--at"), by,
                           ends_game=ENDS_GAME_OPTION in options)  # fmt: skip
        case "substitute" if len(args) == 2:
            return substitute(service, args[0], args[1], options.get("--uid"), offline=offline, by=by)
        case "reject" if UNDO in options:
            return outbox_action(service, "restore", hint.ids, by)
        case "approve" | "reject":
            return outbox_action(service, hint.command, hint.ids, by, late=hint.late)
        case "published":
            return mark_published(service, hint.ids, by=by)
        case "ack":
            return acknowledge(service, hint.ids, by)
        case "message" if len(args) == 2:
            from shenshi.daemon.gm_message import message

            return message(service, args[0], args[1], by)
        case "edit" if text is not None and len(hint.ids) == 1:
            return edit_text(service, hint.ids[0], text, by)
    raise UserError(f"这一步不是一条可以直接执行的命令：{hint.text()}")
