"""The access log: one line per HTTP request (client, method, path, status,
duration), written when the response ends.

An ASGI middleware rather than uvicorn's access logger: uvicorn's line has no
duration and no way to add one, and it is written when the response starts.
Behind a trusted proxy, uvicorn's proxy-headers middleware runs first, so
the client logged is the one the proxy names in X-Forwarded-For. Anything a
client controls (the percent-decoded path, a forwarded address) is escaped,
so no request can forge or split a line of the log.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

from seekplan.errors import SeekplanError

#: ASGI's callables, loosely typed (starlette's own types say no more).
Scope = dict[str, Any]
Receive = Any
Send = Any

LOGGER = "seekplan.serve.access"


def escape(text: str) -> str:
    """``text`` with everything but printable ASCII, ``"`` and ``\\``
    written as an escape: one line, quotable, unambiguous."""
    out = []
    for c in text:
        if c in '"\\' or not " " <= c <= "~":
            out.append("\\" + c if c in '"\\' else c.encode("unicode_escape").decode("ascii"))
        else:
            out.append(c)
    return "".join(out)


def access_logger(setting: bool | str) -> logging.Logger | None:
    """The logger of ``access_log``: true -> stderr, false -> None, a path ->
    that file, appended to (opened now: an unwritable file is an error
    before the service starts)."""
    if setting is False:
        return None
    handler: logging.Handler
    if setting is True:
        handler = logging.StreamHandler(sys.stderr)
    else:
        try:
            handler = logging.FileHandler(Path(setting), mode="a", encoding="utf-8")
        except OSError as e:
            raise SeekplanError(
                f"access_log: cannot open {setting} for appending ({e.strerror or e})"
            ) from None
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    logger = logging.getLogger(LOGGER)
    logger.handlers = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return logger


class AccessLog:
    """ASGI middleware: logs each HTTP request to ``logger`` as
    ``CLIENT "METHOD PATH HTTP/V" STATUS MS ms`` once its response ended (or
    the connection did: status ``-`` if none was sent)."""

    def __init__(self, app: Any, logger: logging.Logger) -> None:
        self.app = app
        self.logger = logger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Passes the request on, timing it and noting its status."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status: list[int] = []

        async def noting(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, noting)
        finally:
            self.logger.info(
                '%s "%s %s HTTP/%s" %s %.1f ms',
                _client(scope),
                escape(scope.get("method", "")),
                escape(scope.get("path", "")),
                escape(scope.get("http_version", "")),
                status[0] if status else "-",
                (time.perf_counter() - start) * 1000,
            )


def _client(scope: Scope) -> str:
    client = scope.get("client")
    if not client:
        return "-"
    host, port = client
    return escape(f"{host}:{port}")
