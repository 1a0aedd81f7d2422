"""The console's web application (Starlette): server-rendered pages, one form per GM action.

Pages (GET) read; actions (POST) change the game through the very operations of the CLI
commands (:mod:`shenshi.daemon.gm_commands`), with ``by="控制台"`` in the dry-run log. Every
action checks the CSRF token (:func:`action`) and answers with a redirect back to the page it
came from (post/redirect/get), carrying what the operation said in a note kept on the server.

Map::

    create_app(desk, key)                  the ASGI application behind the Gate
    /                                      the games of the store (a single game: its page)
    /g/N/  review  alerts  players  timeline  corrections      the pages of game N
    /g/N/players/SEAT/role                 one role, when the GM clicks (JSON)
    POST /g/N/announcements/ID/(approve|reject|restore|edit|published),
         /g/N/announcements/approve (several ids), /g/N/alerts/ack, /g/N/alerts/unack,
         /g/N/substitute, /g/N/override    the GM's actions

After an action the page shows what it said and, as buttons, what can follow it (undo a reject
or an acknowledgement, approve an edit); a refused form comes back filled in as the GM left it.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from shenshi.console import bbcode, views
from shenshi.console.auth import CSRF_FIELD, CSRF_HEADER, ConsoleKey, Gate
from shenshi.console.desk import Desk, UnknownGame
from shenshi.console.timeline import timeline
from shenshi.daemon import gm_commands as ops
from shenshi.daemon import gm_text
from shenshi.daemon.gm_commands import CONSOLE, Said
from shenshi.daemon.service import GameService
from shenshi.daemon.status import GameStatus, build_status
from shenshi.errors import UserError
from shenshi.rulesets.catalog import ACTION_NAMES

HERE = Path(__file__).parent
SEP = "\x1f"  # between the values of a repeated form field (a hint's arguments)
# The commands a hint's button may run here (the others are shown as links or words).
RUNNABLE = frozenset({"override", "substitute", "approve", "reject", "published", "ack", "message"})
NOTES_KEPT = 64  # notes waiting to be shown (one per action; the oldest are dropped)
ID_LIMIT = 500  # ids in one form (as the CLI's ranges)
PAGES = (("now", "", "现在"), ("review", "review", "审核"), ("alerts", "alerts", "提醒"),
         ("players", "players", "玩家"), ("timeline", "timeline", "时间线"),
         ("corrections", "corrections", "更正"))  # fmt: skip



def environment() -> Environment:
    """The templates (autoescaped: player text is hostile), with the console's filters."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["bbcode"] = bbcode.render
    env.filters["t"] = lambda at: at.strftime("%m-%d %H:%M") if at else "—"
    env.filters["left"] = gm_text.left
    env.filters["votes"] = lambda v: str(int(v)) if float(v).is_integer() else f"{v:g}"
    env.filters["batch"] = views.batch_words
    env.filters["tz"] = lambda at: at.strftime("%Y-%m-%d %H:%M") if at else ""
    env.globals.update(STATES=gm_text.STATES, MODE=gm_text.MODE, ACTION_NAMES=ACTION_NAMES,
                       PAGES=PAGES, STATE_FILTERS=views.STATE_FILTERS)  # fmt: skip
    return env


@dataclass(frozen=True)
class Offer:
    """A button the note after an action offers: what it does, where it posts, its fields."""

    label: str
    action: str
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Note:
    """What an action said, what may follow it (buttons), and the form as the GM sent it
    (kept when refused, so nothing he typed is lost)."""

    said: Said
    offers: tuple[Offer, ...] = ()
    form: Mapping[str, str] = field(default_factory=dict)

    @property
    def lines(self) -> tuple[str, ...]:
        return self.said.lines

    @property
    def refused(self) -> tuple[str, ...]:
        return self.said.refused


class Notes:
    """What the last actions said, kept on the server until their page shows them."""

    def __init__(self) -> None:
        self._notes: OrderedDict[str, Note] = OrderedDict()

    def keep(self, note: Note) -> str:
        """Keep ``note``; the key that shows it once."""
        key = secrets.token_urlsafe(8)
        self._notes[key] = note
        while len(self._notes) > NOTES_KEPT:
            self._notes.popitem(last=False)
        return key

    def take(self, key: str | None) -> Note | None:
        """The note under ``key``, removed (``None``: none)."""
        return self._notes.pop(key, None) if key else None


def create_app(desk: Desk, key: ConsoleKey, home: str | None = None) -> Gate:
    """The console for ``desk``'s games, behind the token gate (``home``: the console's own
    host name, :class:`~shenshi.console.auth.Gate`; None: any name)."""
    env = environment()
    notes = Notes()

    def render(name: str, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context))

    # -- pages ------------------------------------------------------------------------------------

    async def games(request: Request) -> Response:
        def work() -> Response:
            with desk.lock:
                listed = desk.games()
            configured = [g for g in listed if g.configured]
            if len(listed) == 1 and len(configured) == 1:
                return RedirectResponse("/g/1/", status_code=303)
            return render("games.html", games=[(g, desk.number(g)) for g in listed])

        return await run_in_threadpool(work)

    def page(template: str, build: Callable[[GameService, GameStatus, Request], Mapping[str, Any]]):  # type: ignore[no-untyped-def]
        async def endpoint(request: Request) -> Response:
            number = request.path_params["game"]

            def work() -> Response:
                try:
                    with desk.game(number) as service:
                        status = build_status(service)
                        context = dict(build(service, status, request))
                except UnknownGame as exc:
                    return PlainTextResponse(str(exc), status_code=404)
                note = notes.take(request.query_params.get("note"))
                kept = dict(note.form) if note is not None and note.refused else {}
                return render(template, game=number, s=status, note=note, kept=kept,
                              next_words=views.next_words(status), health=views.health_words(status),
                              csrf=key.csrf, csrf_field=CSRF_FIELD, path=request.url.path,
                              several=len(desk.services) > 1, **context)  # fmt: skip

            return await run_in_threadpool(work)

        return endpoint

    def now(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        return {"page": "now", "still_to_act": views.still_to_act(service, status)}

    def review(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        state = request.query_params.get("state") or ("all" if request.query_params.get("all") == "1" else "open")
        if state not in views.STATE_FILTERS:
            state = "open"
        step = request.query_params.get("step") or ""
        every = views.review_items(service, state="all")
        items = [i for i in views.review_items(service, state=state) if not step or i.step == step]
        return {"page": "review", "items": items, "every": state == "all", "state": state, "step": step,
                "steps": views.steps_of(every)}  # fmt: skip

    def alerts(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        history = views.alert_history(service) if request.query_params.get("show") == "all" else []
        ids = {a.evidence.id for a in status.alerts if a.evidence is not None}
        ids |= {r.evidence.id for _, rows in history for r in rows if r.evidence is not None}
        return {"page": "alerts", "texts": views.evidence_views(service, ids), "history": history,
                "open_subjects": {a.id: gm_text.who_name(a.subject) if a.subject else None for a in status.alerts}}  # fmt: skip

    def players(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        return {"page": "players", "seats": views.players(service, status),
                "activity": views.activity(service, status)}  # fmt: skip

    def steps(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        return {"page": "timeline", "steps": timeline(service)}

    def corrections(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        seats = views.players(service, status)
        return {"page": "corrections", "seats": seats, "forms": views.corrections_for(service),
                "actions": views.action_choices(service), "made": views.corrections_made(service),
                "living": [p.name for p in seats if p.standing == "alive"],
                "abstain": service.referee.profile.ballots.abstain,
                "bench": list(service.config.game.substitutes),
                "entry": views.entry_words(service)}  # fmt: skip

    async def role(request: Request) -> Response:
        number, seat = request.path_params["game"], request.path_params["seat"]

        def work() -> Response:
            try:
                with desk.game(number) as service:
                    name, role = views.role_of(service, seat)
            except (UnknownGame, LookupError) as exc:
                return JSONResponse({"error": str(exc)}, status_code=404)
            return JSONResponse({"seat": seat, "name": name, "role": role})

        return await run_in_threadpool(work)

    # -- actions ----------------------------------------------------------------------------------

    def action(operation: Callable[[GameService, Mapping[str, str], Mapping[str, Any]], Said],  # type: ignore[no-untyped-def]
               offers: Callable[[int, Said, Mapping[str, str], Mapping[str, Any]], tuple[Offer, ...]] | None = None):  # fmt: skip
        """A POST endpoint: the CSRF token checked, the operation run under the desk's lock, a
        refusal kept as the note, and a redirect back to the page it came from."""

        async def endpoint(request: Request) -> Response:
            form = await request.form()
            fields = {k: str(v) for k, v in form.multi_items() if isinstance(v, str)}
            if not key.is_csrf(fields.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER)):
                return PlainTextResponse("refused: a missing or wrong CSRF token", status_code=403)
            number = request.path_params["game"]
            fields["ids"] = " ".join(str(v) for k, v in form.multi_items() if k == "id")
            fields["args"] = SEP.join(str(v) for k, v in form.multi_items() if k == "arg")
            fields["options"] = SEP.join(str(v) for k, v in form.multi_items() if k == "option")

            def work() -> Said:
                with desk.game(number) as service:
                    try:
                        return operation(service, fields, request.path_params)
                    except UserError as exc:  # (one that asks to be confirmed offers the confirmation)
                        return Said(refused=(getattr(exc, "short", str(exc)),), hints=getattr(exc, "hints", ()))

            try:
                said = await run_in_threadpool(work)
            except UnknownGame as exc:
                return PlainTextResponse(str(exc), status_code=404)
            back = fields.get("back", "")
            if not back.startswith(f"/g/{number}/") or "//" in back or "\\" in back:
                back = f"/g/{number}/"
            back, _, query = back.partition("?")
            kept = {k: v for k, v in fields.items() if k not in (CSRF_FIELD, "back", "ids", "args", "options")}
            follow = offers(number, said, fields, request.path_params) if offers and not said.refused else ()
            note = notes.keep(Note(said, follow, kept))
            keep_query = "&".join(p for p in query.split("&") if p.split("=")[0] in ("state", "step", "show"))
            return RedirectResponse(f"{back}?{keep_query + '&' if keep_query else ''}note={note}", status_code=303)

        return endpoint

    def announcement(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        ident, what = params["ident"], params["what"]
        if what in ops.OUTBOX_ACTIONS:
            return ops.outbox_action(service, what, [ident], by=CONSOLE, late=form.get("late") == "1")
        if what == "edit":
            return ops.edit_text(service, ident, form.get("text", "").replace("\r\n", "\n"), by=CONSOLE)
        if what == "published":
            when = ops.parse_when(form.get("at"), service.config.forum.tz)
            return ops.mark_published(service, [ident], when, by=CONSOLE)
        raise UserError(f"没有这种操作：{what}")

    def approve_all(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        ids = _ids(form.get("ids", ""))
        if not ids:
            raise UserError("没有选中公告")
        return ops.outbox_action(service, "approve", ids, by=CONSOLE)

    def run_hint(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        """A next step's button or prefilled form (a hint of :mod:`shenshi.daemon.hints`, as the
        page rendered it): the very operation the CLI command it names runs."""
        from shenshi.daemon.hints import Hint

        command = form.get("command", "")
        if command not in RUNNABLE:
            raise UserError(f"这一步不能在这里执行：{command or '（空）'}")
        args = tuple(form["args"].replace("\r\n", "\n").split(SEP)) if form.get("args") else ()
        options = tuple(tuple(o.split("=", 1)) for o in form.get("options", "").split(SEP) if "=" in o)
        hint = Hint(command, args, tuple(_ids(form.get("ids", ""))), late=form.get("late") == "1",
                    options=options)  # type: ignore[arg-type]  # fmt: skip
        return ops.run_hint(service, hint, by=CONSOLE)

    def unacknowledge(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        ids = _ids(form.get("ids", ""))
        if not ids:
            raise UserError("没有选中提醒")
        return ops.unacknowledge(service, ids, by=CONSOLE)

    def acknowledge(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        if form.get("all") == "1":
            return ops.acknowledge(service, None, by=CONSOLE)
        ids = _ids(form.get("ids", ""))
        if not ids:
            raise UserError("没有选中提醒")
        return ops.acknowledge(service, ids, by=CONSOLE)

    def substitute(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        uid = form.get("uid", "").strip() or None
        return ops.substitute(service, form.get("old", ""), form.get("new", ""), uid,
                              offline=form.get("offline") == "1", by=CONSOLE)  # fmt: skip

    def override(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        what = form.get("what", "")
        if what not in views.corrections_for(service):
            raise UserError(f"本局规则没有这种更正：{what}")
        if what == "action":  # ACTOR ACTION [what the action takes, as the player writes it]
            args = [form.get("arg0", ""), form.get("arg1", ""), *form.get("arg2", "").split()]
            return ops.enter_action(service, args, form.get("reason", "").strip(), form.get("at") or None,
                                    by=CONSOLE, declaration=form.get("declaration", "").strip() or None)  # fmt: skip
        need = ops.CORRECTIONS.get(what, 0)
        args = [form.get(f"arg{i}", "") for i in range(need)]
        return ops.correct(service, what, args, form.get("reason", "").strip(),
                           form.get("at") or None, by=CONSOLE)  # fmt: skip

    routes = [
        Route("/", games),
        Route("/g/{game:int}/", page("now.html", now)),
        Route("/g/{game:int}/review", page("review.html", review)),
        Route("/g/{game:int}/alerts", page("alerts.html", alerts)),
        Route("/g/{game:int}/players", page("players.html", players)),
        Route("/g/{game:int}/timeline", page("timeline.html", steps)),
        Route("/g/{game:int}/corrections", page("corrections.html", corrections)),
        Route("/g/{game:int}/players/{seat:int}/role", role),
        Route("/g/{game:int}/announcements/approve", action(approve_all), methods=["POST"]),
        Route("/g/{game:int}/announcements/{ident:int}/{what}", action(announcement, _announcement_offers), methods=["POST"]),
        Route("/g/{game:int}/alerts/ack", action(acknowledge, _ack_offers), methods=["POST"]),
        Route("/g/{game:int}/alerts/unack", action(unacknowledge), methods=["POST"]),
        Route("/g/{game:int}/hint", action(run_hint, _hint_offers), methods=["POST"]),
        Route("/g/{game:int}/substitute", action(substitute), methods=["POST"]),
        Route("/g/{game:int}/override", action(override), methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.desk = desk
    return Gate(app, key, home)


def _announcement_offers(game: int, said: Said, form: Mapping[str, str], params: Mapping[str, Any]) -> tuple[Offer, ...]:
    """What may follow an action on an announcement: a reject can be taken back; an edited
    one approved (or marked published) from the note."""
    ident, what = params["ident"], params["what"]
    base = f"/g/{game}/announcements/{ident}"
    if what == "reject" and said.ids:
        return (Offer(f"撤销放弃 #{ident}", f"{base}/restore"),)
    if what == "edit" and said.ids:
        return (Offer(f"批准 #{ident}", f"{base}/approve"),)
    return ()


def _hint_offers(game: int, said: Said, form: Mapping[str, str], params: Mapping[str, Any]) -> tuple[Offer, ...]:
    """What may follow a next step: an acknowledgement or a reject can be taken back."""
    if form.get("command") == "ack":
        return _ack_offers(game, said, form, params)
    if form.get("command") == "reject" and said.ids:
        return tuple(Offer(f"撤销放弃 #{i}", f"/g/{game}/announcements/{i}/restore") for i in said.ids[:5])
    return ()


def _ack_offers(game: int, said: Said, form: Mapping[str, str], params: Mapping[str, Any]) -> tuple[Offer, ...]:
    """An acknowledgement can be taken back from the note."""
    if not said.ids:
        return ()
    shown = " ".join(f"#{i}" for i in said.ids[:10]) + ("…" if len(said.ids) > 10 else "")
    return (Offer(f"撤销确认 {shown}", f"/g/{game}/alerts/unack", tuple(("id", str(i)) for i in said.ids)),)


def _ids(text: str) -> list[int]:
    """The ids of a form (checkboxes named ``id``), at most :data:`ID_LIMIT`."""
    found = [int(x) for x in text.split() if x.isdigit()]
    if len(found) > ID_LIMIT:
        raise UserError(f"一次选中的编号太多（最多 {ID_LIMIT} 个）")
    return found


