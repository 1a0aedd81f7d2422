"""Telling the GM when the game waits for him (``[notify]``), through the channels he names.

A GM runs shenshi as a service and does not watch it. After each round of the daemon, what is
new since the last message (:func:`news`) goes out as **one** message per channel set: a
proposal waiting for him (to approve, or to post by hand in dry-run), a new alert, a send the
forum refused, the forum unreadable, the game over; with the console's link. Nothing secret is
in it: no text of an announcement or alert (they name actions and roles), no recipient of a
PM (a receipt tells who acted), no password or token; only ids, counts and the kinds in the
GM's words (:data:`shenshi.daemon.gm_text.NOTIFY`).

Delivery is Apprise's (WeCom/企业微信, DingTalk, Feishu/Lark, Bark, Telegram, e-mail, ntfy, a
plain webhook…: one URL per channel), on a worker thread: a channel that fails or hangs is
logged (WARNING, its URL never) and never holds up or stops the daemon; the message is not
retried (the console and ``shenshi status`` show everything).

What was told is kept in the store (the ``notify`` cursor: the last alert and proposal told,
the failed sends told, whether the forum was down and the game over), so a restart does not
repeat it.

Map::

    news(service, forum_down)     what is new for the GM since the last message, and the cursor
    Notifier(urls)                one set of channels; send(title, body), flush(), close()
    Notices.for_services(services, console_url)   the daemon's notifiers, by channel set
    Notices.after_round(results)  one message per channel set for the round
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shenshi.daemon import gm_text
from shenshi.daemon.announce import kind_words
from shenshi.daemon.gm_commands import id_ranges
from shenshi.store.outbox import AnnouncementState
from shenshi.store.records import DestinationKind

if TYPE_CHECKING:
    from shenshi.daemon.cycle import CycleResult
    from shenshi.daemon.service import GameService

log = logging.getLogger(__name__)

CURSOR = "notify"  # the store cursor that keeps what was told
FLUSH_SECONDS = 20.0  # at shutdown, how long the last messages may take


@dataclass(frozen=True)
class News:
    """What one game has new for the GM: lines in his words (no secret), and the cursor to
    keep once they are handed to the channels."""

    game: str
    lines: tuple[str, ...]
    seen: Mapping[str, Any]
    link: str | None = None
    changed: bool = True  # the cursor moved (kept even when nothing is worth a message)

    def __bool__(self) -> bool:
        return bool(self.lines)


def news(service: GameService, forum_down: str | None = None, link: str | None = None) -> News:
    """What is new for the GM in ``service``'s game since the last message (``forum_down``:
    why the forum could not be read this round, if it could not)."""
    wanted = set(service.config.notify.on)
    mode = service.config.daemon.mode
    with service.store.snapshot() as uow:
        cursor = uow.evidence.cursor(service.game_id, CURSOR)
        outbox = uow.outbox.announcements(service.game_id)
        alerts = uow.alerts.raised(service.game_id, unacknowledged=True)
    seen: dict[str, Any] = dict(cursor.value) if cursor else {}
    last_alert, last_proposal = seen.get("alert", 0), seen.get("proposal", 0)
    told_failed = set(seen.get("failed", ()))
    words = gm_text.NOTIFY
    lines: list[str] = []

    waiting_states = {AnnouncementState.PROPOSED} | ({AnnouncementState.APPROVED} if mode == "dry-run" else set())
    fresh = [a for a in outbox if a.id > last_proposal and a.state in waiting_states]
    confirm = [a for a in outbox if a.id > last_proposal and a.state is AnnouncementState.UNCONFIRMED]
    if "waiting" in wanted:  # (in live mode only what waits for his confirmation)
        verb = words["verb_dry_run"] if mode == "dry-run" else words["verb_review"]
        lines += _waiting(service, [] if mode == "live" else fresh, verb)
        lines += _waiting(service, confirm, words["verb_confirm"])
    fresh_alerts = [a for a in alerts if a.id > last_alert]
    if "alert" in wanted and fresh_alerts:
        kinds: dict[str, int] = {}
        for a in fresh_alerts:
            name = gm_text.alert_name(a.kind)
            kinds[name] = kinds.get(name, 0) + 1
        shown = "、".join(f"{name}×{n}" if n > 1 else name for name, n in kinds.items())
        lines.append(words["alerts"].format(count=len(fresh_alerts), ids=_ids(a.id for a in fresh_alerts), kinds=shown))
    failed = [a for a in outbox if a.state is AnnouncementState.FAILED]
    fresh_failed = [a for a in failed if a.id not in told_failed]
    if "send_failed" in wanted and fresh_failed:
        lines.append(words["send_failed"].format(count=len(fresh_failed), ids=_ids(a.id for a in fresh_failed)))
    was_down = bool(seen.get("down"))
    if "forum_down" in wanted and forum_down and not was_down:
        lines.append(words["forum_down"].format(why=forum_down))
    elif "forum_down" in wanted and was_down and not forum_down:
        lines.append(words["forum_back"])
    state = service.referee.state if service.referee is not None else None
    over = bool(state is not None and state.winner)
    if "game_over" in wanted and over and not seen.get("over"):
        lines.append(words["game_over"])
    if lines:
        lines.insert(0, words["step"].format(step=_step(service)))
    new_seen = {
        "alert": max([last_alert, *(a.id for a in alerts)]),
        "proposal": max([last_proposal, *(a.id for a in outbox)]),
        "failed": sorted(a.id for a in failed),
        "down": bool(forum_down),
        "over": over,
    }
    return News(service.config.game.name, tuple(lines), new_seen, link, changed=new_seen != seen)


def _waiting(service: GameService, found: list[Any], verb: str) -> list[str]:
    """Proposals waiting for the GM: public posts by kind (ids), PMs only counted (a receipt's
    recipient tells who acted)."""
    words = gm_text.NOTIFY
    lines = []
    by_kind: dict[str, list[int]] = {}
    for a in found:
        if a.destination_kind is DestinationKind.THREAD:
            by_kind.setdefault(kind_words(service.templates, a.kind, a.key), []).append(a.id)
    for what, ids in by_kind.items():
        if len(ids) == 1:
            lines.append(words["post_waiting"].format(id=ids[0], what=what, verb=verb))
        else:
            lines.append(words["posts_waiting"].format(count=len(ids), ids=_ids(ids), what=what, verb=verb))
    pms = [a.id for a in found if a.destination_kind is not DestinationKind.THREAD]
    if pms:
        lines.append(words["pms_waiting"].format(count=len(pms), ids=_ids(pms), verb=verb))
    return lines


def keep(service: GameService, found: News) -> None:
    """Remember what ``found`` told (the ``notify`` cursor), so it is not told again."""
    with service.store.transaction() as uow:
        uow.evidence.set_cursor(service.game_id, CURSOR, dict(found.seen))


def message(found: Sequence[News]) -> tuple[str, str]:
    """The title and body of one message for the games in ``found`` (each with news)."""
    words = gm_text.NOTIFY
    title = words["title"].format(game="、".join(f"《{n.game}》" for n in found))
    parts = []
    for n in found:
        head = f"《{n.game}》" if len(found) > 1 else ""
        body = "\n".join(n.lines)
        link = words["link"].format(url=n.link) if n.link else words["no_link"]
        parts.append(f"{head}\n{body}\n{link}".strip())
    return title, "\n\n".join(parts)


def _ids(ids: Any) -> str:
    return " ".join(f"#{part}" for part in id_ranges(ids).split())


def _step(service: GameService) -> str:
    state = service.referee.state if service.referee is not None else None
    if state is None:
        return ""
    return gm_text.step_name(state.phase, state.number, state.round)


# -- delivery ----------------------------------------------------------------------------------------


class Notifier:
    """One set of channels (Apprise URLs), delivering on a worker thread."""

    def __init__(self, urls: Sequence[str]) -> None:
        import apprise

        self.channels = apprise.Apprise()
        self.schemes: list[str] = []
        for url in urls:
            scheme = url.split("://", 1)[0] if "://" in url else "?"
            if self.channels.add(url):
                self.schemes.append(scheme)
            else:  # the URL itself is never logged: it may hold a token
                log.warning("通知渠道 %s:// 读不懂，跳过（检查 [notify] 的 URL）", scheme)
        self._queue: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.sent = 0
        self.failed = 0

    def __bool__(self) -> bool:
        return len(self.channels) > 0

    def send(self, title: str, body: str) -> None:
        """Hand a message to the worker (returns at once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="shenshi-notify", daemon=True)
            self._thread.start()
        self._queue.put((title, body))

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            try:
                self.deliver(*item)
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def deliver(self, title: str, body: str) -> bool:
        """Send now, on every channel; a failure is logged, never raised."""
        try:
            ok = bool(self.channels.notify(title=title, body=body))
        except Exception as exc:  # noqa: BLE001 - a channel must never stop the daemon
            log.warning("通知发送出错（%s）：%s", "、".join(self.schemes), type(exc).__name__)
            ok = False
        if ok:
            self.sent += 1
        else:
            self.failed += 1
            log.warning("通知没有发出去（渠道 %s 中至少一个失败）；游戏照常进行", "、".join(self.schemes))
        return ok

    def flush(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Wait until every message handed over is delivered (or failed); whether it was."""
        done = threading.Event()

        def wait() -> None:
            self._queue.join()
            done.set()

        threading.Thread(target=wait, daemon=True).start()
        return done.wait(timeout)

    def close(self, timeout: float = FLUSH_SECONDS) -> None:
        """Deliver what is queued (at most ``timeout`` seconds), then stop the worker."""
        if self._thread is None:
            return
        self.flush(timeout)
        self._queue.put(None)
        self._thread.join(timeout=1)


@dataclass
class Notices:
    """The daemon's notifiers: the games grouped by their channels (one message per group and
    round), with each game's console link."""

    groups: list[tuple[Notifier, list[GameService]]] = field(default_factory=list)
    links: dict[int, str] = field(default_factory=dict)  # id(service) → its console page

    @classmethod
    def for_services(cls, services: Sequence[GameService], console_url: str | None = None) -> Notices:
        """Notifiers for the games whose ``[notify]`` names channels (a bad ``urls_file`` is a
        :class:`~shenshi.errors.ConfigError` at start-up)."""
        notices = cls()
        by_urls: dict[tuple[str, ...], list[GameService]] = {}
        for number, service in enumerate(services, start=1):
            settings = service.config.notify
            if not settings.configured:
                continue
            urls = settings.channel_urls()
            if not urls:
                log.warning("[notify] 没有给出任何通知渠道（urls、urls_file、urls_env 都是空的）")
                continue
            by_urls.setdefault(urls, []).append(service)
            base = settings.console_url or console_url
            if base:
                notices.links[id(service)] = f"{base}/g/{number}/"
        for urls, games in by_urls.items():
            notifier = Notifier(urls)
            if notifier:
                notices.groups.append((notifier, games))
        return notices

    def after_round(self, results: Mapping[str, CycleResult]) -> int:
        """One message per channel set for what the round brought; how many were handed over."""
        from shenshi.daemon.forum_problems import explain

        handed = 0
        for notifier, games in self.groups:
            found = []
            for service in games:
                result = results.get(service.config.game.name)
                if result is None or result.held_by:
                    continue
                down = explain(service.config, result.forum_error) if result.forum_error is not None else None
                try:
                    n = news(service, down, self.links.get(id(service)))
                except Exception as exc:  # noqa: BLE001 - the store may be what failed: next round
                    log.warning("没能整理给天神的通知：%s", exc)
                    continue
                if n:
                    found.append(n)
                if n.changed:
                    keep(service, n)
            if found:
                notifier.send(*message(found))
                handed += 1
        return handed

    def close(self) -> None:
        """Deliver what is queued, then stop."""
        for notifier, _ in self.groups:
            notifier.close()
