"""The HTTP side: the WLCG Tape REST API v1 under ``/api/v1``, discovery,
the hand-written OpenAPI document, the status page and Prometheus metrics.

Every error is an RFC 7807 problem document (``status``, ``title``,
``detail``). Request bodies are read as plain JSON so that unknown fields
(``targetedMetadata``, ``diskLifetime``, anything a client adds) are accepted
and ignored, as the reference document requires.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import HTMLResponse

from seekplan import _core
from seekplan.errors import SeekplanError
from seekplan.io import read_text
from seekplan.serve.catalog import sanitise
from seekplan.serve.config import duration_s
from seekplan.serve.db import name_too_long
from seekplan.serve.page import render_page
from seekplan.serve.problems import install as install_problem_handlers
from seekplan.serve.problems import problem
from seekplan.serve.service import ApiError, Service

OPENAPI = Path(__file__).with_name("openapi.yaml")
API = "/api/v1"
T = TypeVar("T")
#: The client name requests get when the service runs without tokens.
ANONYMOUS = "anonymous"


def load_tokens(path: str | Path) -> dict[str, str]:
    """Bearer tokens from a file: ``CLIENT TOKEN`` per line, ``#`` comments;
    returns token -> client. Errors name the line and the field; a token or
    client name must be printable ASCII (a bearer token is, RFC 6750's
    b64token), so none can hide a NUL, a control character or a look-alike."""
    p = Path(path)
    lines = read_text(p, "tokens file").split("\n")
    tokens: dict[str, str] = {}
    for n, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip(" \t")
        if not text:
            continue
        parts = _FIELD_SEP.split(text)
        if len(parts) != 2:
            raise SeekplanError(f"{p} line {n}: expected 'CLIENT TOKEN', got {len(parts)} fields")
        client, token = parts
        for field, value in (("client", client), ("token", token)):
            bad = _NOT_PRINTABLE_ASCII.search(value)
            if bad is not None:
                raise SeekplanError(
                    f"{p} line {n}: {field}: character {bad.start() + 1} is "
                    f"U+{ord(bad.group()):04X}; expected printable ASCII"
                )
        if too_long := name_too_long(client):
            raise SeekplanError(f"{p} line {n}: client: {too_long}")
        if len(token) < 16:
            raise SeekplanError(f"{p} line {n}: token of {client!r} is shorter than 16 characters")
        if token in tokens:
            raise SeekplanError(f"{p} line {n}: token appears twice")
        tokens[token] = client
    if not tokens:
        raise SeekplanError(f"{p}: no tokens")
    return tokens


#: What separates a tokens file's fields: spaces and tabs (any other
#: character, whitespace or not, is part of a field and checked).
_FIELD_SEP = re.compile(r"[ \t]+")
#: Anything but printable ASCII (0x21-0x7e).
_NOT_PRINTABLE_ASCII = re.compile(r"[^\x21-\x7e]")


#: Longest path accepted (Linux's PATH_MAX).
MAX_PATH_BYTES = 4096


def _json_error(detail: str) -> ApiError:
    return ApiError(400, "JSON Validation error", detail)


def _is_json(content_type: str | None) -> bool:
    """Whether a Content-Type names JSON; a body without one is read as JSON
    too (clients such as curl --data omit it)."""
    if content_type is None:
        return True
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


async def _body(request: Request, limit: int, decode: Callable[[bytes], T]) -> T:
    """The request's JSON body read, decoded and checked by ``decode``: 415 for a body
    that says it is not JSON, 413 past ``limit`` bytes (refused on
    Content-Length before reading, or as soon as a streamed body passes it),
    400 for anything but JSON. Decoding and checking run on a worker thread:
    a 100,000-file body takes a few hundred milliseconds, which on the event
    loop would hold up every other request (a release waited behind it)."""
    if not _is_json(request.headers.get("content-type")):
        raise ApiError(
            415,
            "Unsupported Media Type",
            f"the body must be application/json, not {request.headers['content-type']!r}",
        )
    too_large = ApiError(413, "Content Too Large", f"the body is larger than {limit:,} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise too_large
    return await run_in_threadpool(decode, bytes(raw))


def _parse_json(raw: bytes, parse: Callable[[Any], T]) -> T:
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        # ValueError covers bad UTF-8 and integers past Python's digit limit;
        # RecursionError a body nested thousands deep.
        raise _json_error("the body is not valid JSON") from None
    return parse(doc)


def _decode_paths(raw: bytes) -> list[str]:
    """A body's ``paths`` (release, cancel, archiveinfo)."""
    return _parse_json(raw, _paths)


def _decode_stage(raw: bytes) -> tuple[list[str], dict[str, float]]:
    """A stage body's paths and diskLifetimes. The plain shape (paths only,
    as FTS sends them) is decoded by the core while other threads run: a
    100,000-file body held the interpreter lock for 30-50 ms in
    ``json.loads``, and a release sent meanwhile waited for it. Every other
    body goes through ``json.loads`` and :func:`_stage_files`."""
    paths = _core.plain_stage_paths(raw)
    if paths is None:
        return _parse_json(raw, _stage_files)
    return [_check_path(p, f"files[{i}].path") for i, p in enumerate(paths)], {}


def _check_path(path: str, field: str) -> str:
    """``path`` if it can name a catalogued file: no NUL, no ``..`` segment
    (nothing may step out of the buffer), UTF-8, at most MAX_PATH_BYTES."""
    if "\x00" in path:
        raise _json_error(f"{field} - contains a NUL character")
    if ".." in sanitise(path).split("/"):
        raise _json_error(f"{field} - contains a '..' segment")
    try:
        size = len(path.encode("utf-8"))
    except UnicodeEncodeError:
        raise _json_error(f"{field} - is not valid Unicode (a lone surrogate)") from None
    if size > MAX_PATH_BYTES:
        raise _json_error(f"{field} - longer than {MAX_PATH_BYTES} bytes")
    return path


def _paths(body: Any) -> list[str]:
    paths = body.get("paths") if isinstance(body, dict) else None
    if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
        raise _json_error("paths - Field does not exist or is not a valid non-empty array")
    return [_check_path(p, f"paths[{i}]") for i, p in enumerate(paths)]


def _stage_files(body: Any) -> tuple[list[str], dict[str, float]]:
    """The paths of a stage body, and the diskLifetime (seconds) of those
    that give one."""
    files = body.get("files") if isinstance(body, dict) else None
    if not isinstance(files, list) or not files:
        raise _json_error("files - Field does not exist or is not a valid non-empty array")
    out = []
    lifetimes: dict[str, float] = {}
    for i, f in enumerate(files):
        path = f.get("path") if isinstance(f, dict) else None
        if not isinstance(path, str):
            raise _json_error(f"files[{i}].path - Field does not exist or is not a string")
        if "targetedMetadata" in f and not isinstance(f["targetedMetadata"], dict):
            raise _json_error(f"files[{i}].targetedMetadata - not an object")
        out.append(_check_path(path, f"files[{i}].path"))
        if "diskLifetime" in f:
            try:
                lifetimes[sanitise(path)] = duration_s(f["diskLifetime"])
            except ValueError as e:
                raise _json_error(f"files[{i}].diskLifetime - {e}") from None
    return out, lifetimes


def create_app(
    service: Service,
    sitename: str,
    description: str,
    tokens: dict[str, str] | None,
    max_body_bytes: int,
) -> FastAPI:
    """The ASGI app over ``service``; its lifespan starts and stops the
    service. Request bodies past ``max_body_bytes`` are refused (413)."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.start()
        try:
            yield
        finally:
            await run_in_threadpool(service.stop)

    app = FastAPI(
        title="seekplan staging service",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.service = service

    @app.exception_handler(ApiError)
    async def _api_error(_r: Request, e: ApiError) -> Response:
        return problem(e.status, e.title, e.detail, **e.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_r: Request, e: StarletteHTTPException) -> Response:
        titles = {404: "Not found", 405: "Method not allowed"}
        return problem(
            e.status_code, titles.get(e.status_code, "Error"), str(e.detail), **(e.headers or {})
        )

    install_problem_handlers(app)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_r: Request, e: RequestValidationError) -> Response:
        return problem(400, "Validation error", str(e.errors()[0].get("msg")))

    def client_of(request: Request) -> str:
        if tokens is None:
            return ANONYMOUS
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        client = tokens.get(token.strip()) if scheme.lower() == "bearer" else None
        if client is None:
            raise ApiError(
                401,
                "Unauthorized",
                "a valid bearer token is required",
                {"WWW-Authenticate": 'Bearer realm="seekplan"'},
            )
        return client

    async def threaded(fn: Callable[..., Any], *args: Any) -> Any:
        return await run_in_threadpool(fn, *args)

    @app.get("/.well-known/wlcg-tape-rest-api")
    async def discovery(request: Request) -> dict[str, Any]:
        return {
            "sitename": sitename,
            "description": description,
            "endpoints": [
                {
                    "uri": f"{str(request.base_url).rstrip('/')}{API}",
                    "version": "v1",
                    "metadata": {},
                }
            ],
        }

    @app.get("/openapi.yaml")
    async def openapi() -> Response:
        return Response(OPENAPI.read_bytes(), media_type="application/yaml")

    @app.post(f"{API}/stage", status_code=201)
    @app.post(f"{API}/stage/", status_code=201)  # as gfal2 sends it: no 307
    async def stage(request: Request) -> Response:
        client = client_of(request)
        paths, lifetimes = await _body(request, max_body_bytes, _decode_stage)
        rid = await threaded(service.stage, client, paths, lifetimes)
        location = f"{str(request.base_url).rstrip('/')}{API}/stage/{rid}"
        return Response(
            json.dumps({"requestId": rid}),
            status_code=201,
            media_type="application/json",
            headers={"Location": location},
        )

    @app.get(f"{API}/stage/{{request_id}}")
    async def stage_status(request_id: str, request: Request) -> Response:
        client = client_of(request)
        body = service.cached_status(client, request_id)
        if body is None:
            body = await threaded(service.status, client, request_id)
        return Response(body, media_type="application/json")

    @app.post(f"{API}/stage/{{request_id}}/cancel")
    async def cancel(request_id: str, request: Request) -> Response:
        client = client_of(request)
        paths = await _body(request, max_body_bytes, _decode_paths)
        await threaded(service.cancel, client, request_id, paths)
        return Response(status_code=200)

    @app.delete(f"{API}/stage/{{request_id}}")
    async def delete(request_id: str, request: Request) -> Response:
        await threaded(service.delete, client_of(request), request_id)
        return Response(status_code=200)

    @app.post(f"{API}/release/{{request_id}}")
    async def release(request_id: str, request: Request) -> Response:
        client = client_of(request)
        paths = await _body(request, max_body_bytes, _decode_paths)
        await threaded(service.release, client, request_id, paths)
        return Response(status_code=200)

    @app.post(f"{API}/archiveinfo")
    @app.post(f"{API}/archiveinfo/")  # as gfal2 sends it: no 307
    async def archiveinfo(request: Request) -> Response:
        client_of(request)
        paths = await _body(request, max_body_bytes, _decode_paths)
        return Response(json.dumps(service.archiveinfo(paths)), media_type="application/json")

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(generate_latest(service.stats.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/", response_class=HTMLResponse)
    async def page() -> HTMLResponse:
        snap = await threaded(service.snapshot)
        return HTMLResponse(render_page(snap, sitename))

    return app
