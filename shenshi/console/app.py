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
    POST /g/N/announcements/ID/(approve|reject|edit|published), /g/N/announcements/approve
         (several ids), /g/N/alerts/ack,
         /g/N/substitute, /g/N/override    the GM's actions
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping
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
NOTES_KEPT = 64  # notes waiting to be shown (one per action; the oldest are dropped)
ID_LIMIT = 500  # ids in one form (as the CLI's ranges)
PAGES = (("now", "", "现在"), ("review", "review", "审核"), ("alerts", "alerts", "提醒"),
         ("players", "players", "玩家"), ("timeline", "timeline", "时间线"),
         ("corrections", "corrections", "更正"))  # fmt: skip
CORRECTION_FORMS = {
    "void": ("作废一个行动", ("玩家", "行动")), "execute": ("改为处决", ("玩家",)),
    "cancel-execution": ("今天不处决", ()), "exit": ("自动退出（无替补）", ("玩家",)),
    "answered": ("已提前答复占卜", ("占卜者",)), "penalty": ("罚分（狼人）", ("玩家", "分数")),
    "send-off": ("罚下（狼人）", ("玩家",)), "sheriff": ("交警徽（狼人）", ("玩家",)),
    "extra-divination": ("额外占卜（抽中的庶民）", ("玩家",)),
    "ballot": ("补记选票", ("投票人", "投给（或 弃权）")),
}  # fmt: skip


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
    env.globals.update(STATES=gm_text.STATES, MODE=gm_text.MODE, ACTION_NAMES=ACTION_NAMES,
                       CORRECTION_FORMS=CORRECTION_FORMS, PAGES=PAGES)  # fmt: skip
    return env


class Notes:
    """What the last actions said, kept on the server until their page shows them."""

    def __init__(self) -> None:
        self._notes: OrderedDict[str, Said] = OrderedDict()

    def keep(self, said: Said) -> str:
        """Keep ``said``; the key that shows it once."""
        key = secrets.token_urlsafe(8)
        self._notes[key] = said
        while len(self._notes) > NOTES_KEPT:
            self._notes.popitem(last=False)
        return key

    def take(self, key: str | None) -> Said | None:
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
                return render(template, game=number, s=status, note=note,
                              csrf=key.csrf, csrf_field=CSRF_FIELD, path=request.url.path,
                              several=len(desk.services) > 1, **context)  # fmt: skip

            return await run_in_threadpool(work)

        return endpoint

    def now(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        return {"page": "now"}

    def review(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        every = request.query_params.get("all") == "1"
        return {"page": "review", "items": views.review_items(service, every), "every": every}

    def alerts(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        ids = {a.evidence.id for a in status.alerts if a.evidence is not None}
        return {"page": "alerts", "texts": views.evidence_views(service, ids)}

    def players(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        return {"page": "players", "seats": views.players(service, status),
                "activity": views.activity(service, status)}  # fmt: skip

    def steps(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        return {"page": "timeline", "steps": timeline(service)}

    def corrections(service: GameService, status: GameStatus, request: Request) -> Mapping[str, Any]:
        return {"page": "corrections", "seats": views.players(service, status)}

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

    def action(operation: Callable[[GameService, Mapping[str, str], Mapping[str, Any]], Said]):  # type: ignore[no-untyped-def]
        """A POST endpoint: the CSRF token checked, the operation run under the desk's lock, a
        refusal kept as the note, and a redirect back to the page it came from."""

        async def endpoint(request: Request) -> Response:
            form = await request.form()
            fields = {k: str(v) for k, v in form.multi_items() if isinstance(v, str)}
            if not key.is_csrf(fields.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER)):
                return PlainTextResponse("refused: a missing or wrong CSRF token", status_code=403)
            number = request.path_params["game"]
            fields["ids"] = " ".join(str(v) for k, v in form.multi_items() if k == "id")

            def work() -> Said:
                with desk.game(number) as service:
                    try:
                        return operation(service, fields, request.path_params)
                    except UserError as exc:
                        return Said(refused=(str(exc),))

            try:
                said = await run_in_threadpool(work)
            except UnknownGame as exc:
                return PlainTextResponse(str(exc), status_code=404)
            back = fields.get("back", "")
            if not back.startswith(f"/g/{number}/") or "//" in back or "\\" in back:
                back = f"/g/{number}/"
            back = back.split("?")[0]
            return RedirectResponse(f"{back}?note={notes.keep(said)}", status_code=303)

        return endpoint

    def announcement(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        ident, what = params["ident"], params["what"]
        if what in ops.OUTBOX_ACTIONS:
            return ops.outbox_action(service, what, [ident], by=CONSOLE)
        if what == "edit":
            return ops.edit_text(service, ident, form.get("text", "").replace("\r\n", "\n"), by=CONSOLE)
        if what == "published":
            when = ops.parse_when(form.get("at"), service.config.forum.tz)
            return ops.mark_published(service, [ident], when, by=CONSOLE)
        raise UserError(f"unknown action {what!r}")

    def approve_all(service: GameService, form: Mapping[str, str], params: Mapping[str, Any]) -> Said:
        ids = _ids(form.get("ids", ""))
        if not ids:
            raise UserError("没有选中公告")
        return ops.outbox_action(service, "approve", ids, by=CONSOLE)

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
        Route("/g/{game:int}/announcements/{ident:int}/{what}", action(announcement), methods=["POST"]),
        Route("/g/{game:int}/alerts/ack", action(acknowledge), methods=["POST"]),
        Route("/g/{game:int}/substitute", action(substitute), methods=["POST"]),
        Route("/g/{game:int}/override", action(override), methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.desk = desk
    return Gate(app, key, home)


def _ids(text: str) -> list[int]:
    """The ids of a form (checkboxes named ``id``), at most :data:`ID_LIMIT`."""
    found = [int(x) for x in text.split() if x.isdigit()]
    if len(found) > ID_LIMIT:
        raise UserError(f"too many ids at once (at most {ID_LIMIT})")
    return found


