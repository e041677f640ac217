"""Runs tape operations through gfal2's Python bindings (Debian's
python3-gfal2) and prints their results as JSON: the client FTS uses, driven
from tests/test_serve_gfal2.py. Run by the system's /usr/bin/python3, not the
project's venv (the bindings are a system package):

    /usr/bin/python3 gfal2_driver.py '[{"op": "bring_online", "urls": [...]}, ...]'

Steps run in order in one gfal2 context (so discovery is asked once, as in
one FTS process); a token "$token" stands for the last bring_online's request
id. Each step's result is {"errors": [null | {"code", "message"}], ...}."""

from __future__ import annotations

import errno
import json
import sys
import time
from typing import Any

import gfal2


def _error(e: Any) -> dict[str, Any] | None:
    return None if e is None else {"code": e.code, "message": e.message}


def _step(ctx: Any, step: dict[str, Any], token: str) -> dict[str, Any]:
    op, urls = step["op"], step["urls"]
    tok = token if step.get("token") == "$token" else step.get("token", "")
    if op == "bring_online":
        errors, rid = ctx.bring_online(urls, step.get("pin", 3600), step.get("timeout", 600), True)
        return {"token": rid, "errors": [_error(e) for e in errors]}
    if op == "poll":
        # As gfal-bringonline and FTS do: poll until no file is still EAGAIN.
        deadline = time.monotonic() + step.get("timeout_s", 30)
        polls = 0
        while True:
            errors = ctx.bring_online_poll(urls, tok)
            polls += 1
            pending = [e for e in errors if e is not None and e.code == errno.EAGAIN]
            if not pending or time.monotonic() > deadline:
                return {"errors": [_error(e) for e in errors], "polls": polls}
            time.sleep(0.05)
    if op == "abort":
        return {"errors": [_error(e) for e in ctx.abort_bring_online(urls, tok)]}
    if op == "release":
        return {"errors": [_error(e) for e in ctx.release(urls, tok)]}
    if op == "archive_poll":
        return {"errors": [_error(e) for e in ctx.archive_poll(urls)]}
    if op == "getxattr":
        values: list[str | None] = []
        errs: list[dict[str, Any] | None] = []
        for url in urls:
            try:
                values.append(ctx.getxattr(url, step["name"]))
                errs.append(None)
            except gfal2.GError as e:
                values.append(None)
                errs.append(_error(e))
        return {"values": values, "errors": errs}
    raise SystemExit(f"unknown op {op!r}")


def main() -> None:
    steps = json.loads(sys.argv[1])
    ctx = gfal2.creat_context()
    token = ""
    results = []
    for step in steps:
        result = _step(ctx, step, token)
        token = result.get("token", token)
        results.append(result)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
