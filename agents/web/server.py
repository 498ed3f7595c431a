"""The web table's HTTP side (Starlette): the page and a small JSON API.

``GET /`` the page; ``POST /api/games`` a new game; ``GET /api/games/{id}``
its state; ``POST /api/games/{id}/move`` ``{"version", "action"}`` the
person's move; ``POST /api/games/{id}/advance`` ``{"version"}`` one bot move.
Every answer is the human seat's view (:mod:`.seat_payload`); a refused
request gets a 4xx with ``{"error": message}`` and changes nothing. POSTs
must be JSON, so another site's page cannot send them without the browser
asking first.
"""

from __future__ import annotations

import json

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from meeplezoo.agents.web.static_files import page
from meeplezoo.agents.web.table import TableError
from meeplezoo.agents.web.tables import Tables, TableSettings


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, *fields: str) -> dict:
    """The JSON object of a POST, with an integer for each of ``fields``."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise TableError(415, "send the request body as application/json")
    try:
        body = json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise TableError(400, "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise TableError(400, "the request body must be a JSON object")
    for name in fields:
        value = body.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise TableError(400, f"the request needs an integer {name!r}")
    return body


def create_app(settings: TableSettings, allowed_hosts: list[str] | None = None) -> Starlette:
    """The web table app; ``allowed_hosts`` limits the Host header (a server
    on the loopback answers only to loopback names)."""
    tables = Tables(settings)
    html = page(
        "table.html",
        title="meeplezoo table",
        styles=["common.css", "table.css"],
        scripts=["board_fit.js", "table.js"],
    )

    async def index(request: Request):
        return HTMLResponse(html)

    async def new_game(request: Request):
        await _body(request)
        table = await run_in_threadpool(tables.create)
        return JSONResponse(await run_in_threadpool(table.payload), status_code=201)

    async def show(request: Request):
        table = tables.get(request.path_params["table_id"])
        return JSONResponse(await run_in_threadpool(table.payload))

    async def move(request: Request):
        table = tables.get(request.path_params["table_id"])
        body = await _body(request, "version", "action")
        return JSONResponse(await run_in_threadpool(table.play, body["version"], body["action"]))

    async def advance(request: Request):
        table = tables.get(request.path_params["table_id"])
        body = await _body(request, "version")
        return JSONResponse(await run_in_threadpool(table.advance, body["version"]))

    async def table_error(request: Request, exc: TableError):
        return _error(exc.status, str(exc))

    async def http_error(request: Request, exc: HTTPException):
        return _error(exc.status_code, exc.detail)

    middleware = []
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(
        routes=[
            Route("/", index, methods=["GET"]),
            Route("/api/games", new_game, methods=["POST"]),
            Route("/api/games/{table_id}", show, methods=["GET"]),
            Route("/api/games/{table_id}/move", move, methods=["POST"]),
            Route("/api/games/{table_id}/advance", advance, methods=["POST"]),
        ],
        middleware=middleware,
        exception_handlers={TableError: table_error, HTTPException: http_error},
    )
    app.state.tables = tables
    return app
