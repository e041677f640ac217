"""Every failure the HTTP side can meet answered as an RFC 7807 problem
document, never as a traceback: the service's own errors (:class:`ApiError`),
a database or disk that fails (disk full, I/O error, read-only file: 503
with Retry-After, so FTS tries again later), a client that disconnects
before its body arrived (one log line), and anything unforeseen (500, one
log line naming the request)."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request, Response
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PROBLEM = "application/problem+json"
#: Seconds a client is told to wait after a storage failure.
STORAGE_RETRY_AFTER_S = 60

log = logging.getLogger("seekplan.serve")


def problem(status: int, title: str, detail: str | None = None, **headers: str) -> Response:
    """An RFC 7807 response."""
    return Response(
        _problem_body(status, title, detail), status_code=status, media_type=PROBLEM,
        headers=headers,
    )  # fmt: skip


def _problem_body(status: int, title: str, detail: str | None) -> bytes:
    body: dict[str, Any] = {"status": status, "title": title}
    if detail is not None:
        body["detail"] = detail
    return json.dumps(body).encode()


def storage_detail(e: BaseException) -> str:
    """The first line of a database or disk error, without the statement."""
    inner = getattr(e, "orig", None) or e
    text = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {text[0] if text else 'no detail'}"


class CrashAsProblem:
    """ASGI middleware: an exception nothing else handled becomes a 500
    problem document and one log line (Starlette's own handler answers
    plain text and logs a traceback)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as e:
            log.error(
                "%s %s failed: %s: %s", scope.get("method"), scope.get("path"), type(e).__name__, e
            )
            if started:
                return
            body = _problem_body(500, "Internal error", f"{type(e).__name__}: {e}")
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [(b"content-type", PROBLEM.encode())],
                }
            )
            await send({"type": "http.response.body", "body": body})


def install(app: FastAPI) -> None:
    """Registers the handlers for storage failures and client disconnects,
    and the catch-all middleware."""

    def unavailable(what: str) -> Callable[[Request, Exception], Awaitable[Response]]:
        async def handler(r: Request, e: Exception) -> Response:
            detail = storage_detail(e)
            log.error("%s %s: %s failed: %s", r.method, r.url.path, what, detail)
            return problem(
                503, f"{what.capitalize()} unavailable", f"the service's {what} failed ({detail})",
                **{"Retry-After": str(STORAGE_RETRY_AFTER_S)},
            )  # fmt: skip

        return handler

    app.add_exception_handler(sa.exc.SQLAlchemyError, unavailable("database"))
    app.add_exception_handler(OSError, unavailable("storage"))

    @app.exception_handler(ClientDisconnect)
    async def _gone(r: Request, _e: ClientDisconnect) -> Response:
        host = r.client.host if r.client else "a client"
        log.warning("%s %s: %s disconnected before sending its whole body", r.method,
                    r.url.path, host)  # fmt: skip
        return problem(400, "Client disconnected", "the body was cut short")

    app.add_middleware(CrashAsProblem)
