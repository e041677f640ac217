"""Shared pieces of the `seekplan serve` tests: a catalog, a throwaway
PostgreSQL 15 cluster, a real server in a subprocess, and a recording proxy
that shows what a real client sends."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

PG_BIN = Path("/usr/lib/postgresql/15/bin")
#: Tapes and files of the test catalog: 4 tapes, files interleaved so that
#: arrival order (FIFO) keeps switching tapes.
TAPES = ("T0", "T1", "T2", "T3")
FILES_PER_TAPE = 12


def write_catalog(path: Path, tapes: tuple[str, ...] = TAPES, per_tape: int = FILES_PER_TAPE):
    """A catalog CSV; returns the paths in interleaved (tape-switching) order."""
    rows, order = [], []
    for i in range(per_tape):
        for t, tape in enumerate(tapes):
            p = f"/data/{tape}/f{i:04d}"
            # 2 GB files spread along an LTO-9 tape (blocks of 512 KiB).
            rows.append(f"{p},{tape},{(per_tape - i) * 40_000 + t * 7},{2_000_000_000}")
            order.append(p)
    rows.append("/data/empty,T0,0,0")
    path.write_text("path,tape,block,size\n" + "\n".join(rows) + "\n")
    return order


def reads(buffer: Path) -> list[str]:
    """The paths the simulated backend's read log says were read, in order
    (each line ``read\t"<JSON path>"``)."""
    import json

    out = []
    for line in (buffer / "reads.log").read_text().splitlines():
        what, _, raw = line.partition("\t")
        if what == "read":
            out.append(json.loads(raw))
    return out


def make_service(tmp_path: Path, db_url: str, catalog: tuple[Path, object], **over: object):
    """An app and its service (not started: TestClient's lifespan starts it)
    on ``catalog`` (its file first), fast and with 2 drives unless ``over``
    says otherwise."""
    from seekplan.serve import build
    from seekplan.serve.config import load_stage_config

    settings = {
        "catalog": str(catalog[0]),
        "db": db_url,
        "buffer": str(tmp_path / "buffer"),
        "time_scale": 20_000.0,
        "drives": 2,
        **over,
    }
    return build(load_stage_config(None, settings))


def wait_done(c, rid: str, headers: dict[str, str] | None = None, timeout: float = 60.0):
    """The status document of request ``rid`` once it has completedAt."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc = c.get(f"/api/v1/stage/{rid}", headers=headers).json()
        if "completedAt" in doc:
            return doc
        time.sleep(0.05)
    raise AssertionError(f"request {rid} not completed: {doc}")


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    """A PostgreSQL 15 cluster in a temporary directory, reached by its socket."""

    def __init__(self) -> None:
        if not (PG_BIN / "initdb").exists():
            pytest.fail(f"PostgreSQL 15 is expected at {PG_BIN} (Debian package postgresql-15)")
        self.dir = Path(tempfile.mkdtemp(prefix="seekplan-pg-"))
        self.port = free_port()
        # initdb refuses to run as root: the cluster runs as 'nobody' then.
        self.user = "nobody" if os.geteuid() == 0 else None
        if self.user is not None:
            shutil.chown(self.dir, self.user)
        data = self.dir / "data"
        self._run(PG_BIN / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8")
        opts = f"-k {self.dir} -p {self.port} -c listen_addresses='' -c fsync=off"
        self._run(PG_BIN / "pg_ctl", "-D", data, "-o", opts, "-l", self.dir / "log", "-w", "start")

    def _run(self, *args: object) -> None:
        out = subprocess.run(
            [str(a) for a in args], capture_output=True, text=True, user=self.user, timeout=120
        )
        if out.returncode != 0:
            pytest.fail(f"{args[0]} failed ({out.returncode}): {out.stderr or out.stdout}")

    def url(self, db: str = "postgres") -> str:
        """A postgresql:// URL of database ``db`` over the socket."""
        return f"postgresql://postgres@/{db}?host={self.dir}&port={self.port}"

    def fresh(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(host=str(self.dir), port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as conn:  # fmt: skip
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        """Stops the cluster and removes its directory."""
        self._run(PG_BIN / "pg_ctl", "-D", self.dir / "data", "-m", "fast", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


def stderr_of(config: Path) -> Path:
    """Where :func:`server` writes the stderr of the server of ``config``."""
    return config.with_name(f"{config.name}.stderr")


@contextmanager
def server(
    config: Path, env_port: int, scheme: str = "http", verify: ssl.SSLContext | bool = True
) -> Iterator[subprocess.Popen[bytes]]:
    """`seekplan serve --config CONFIG` in a subprocess, up and answering
    (over https, checked by ``verify``, an SSL context, for ``scheme="https"``).
    Its stderr (the access log among it) is appended to :func:`stderr_of`
    ``CONFIG``: a pipe nobody reads would stop the server once full."""
    with stderr_of(config).open("ab") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "seekplan", "serve", "--config", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        wait_up(proc, env_port, scheme=scheme, verify=verify, errors=stderr_of(config))
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_up(
    proc: subprocess.Popen[bytes],
    port: int,
    timeout: float = 60,
    scheme: str = "http",
    verify: ssl.SSLContext | bool = True,
    errors: Path | None = None,
) -> None:
    """Waits until the server answers discovery (fails if it exits first,
    with its stderr: the pipe's, or the file ``errors``)."""
    deadline = time.monotonic() + timeout
    url = f"{scheme}://127.0.0.1:{port}/.well-known/wlcg-tape-rest-api"
    # One client for every try: each new one loads the CA bundle (~40 ms of
    # CPU), and a server takes a second or more to come up.
    with httpx.Client(timeout=1, verify=verify) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                if errors is not None:
                    err += errors.read_text(errors="replace")
                pytest.fail(f"server exited with {proc.returncode}: {err}")
            try:
                client.get(url)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
    pytest.fail("server did not come up")


#: Headers that belong to one hop, not to the request (RFC 9110 7.6.1).
HOP_BY_HOP = frozenset(
    ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer",
     "upgrade", "proxy-authenticate", "proxy-authorization", "content-length"]
)  # fmt: skip


@dataclass(frozen=True)
class Call:
    """One request a client sent through a `RecordingProxy`, and the answer."""

    method: str
    path: str
    body: bytes
    status: int
    location: str | None

    def __str__(self) -> str:
        to = f" -> {self.location}" if self.location else ""
        body = f" {self.body.decode(errors='replace')}" if self.body else ""
        return f"{self.method} {self.path}{body} => {self.status}{to}"


class RecordingProxy:
    """An HTTP/1.1 relay on loopback in front of the server at ``upstream_port``
    that records every request: what a client really sends (method, path,
    trailing slashes, body, redirects followed). The Host header is passed on,
    so URLs the server builds from it (discovery, Location) name the proxy."""

    def __init__(self, upstream_port: int) -> None:
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        proxy = self

        class Relay(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _body(self) -> bytes:
                if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                    parts = []
                    while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                        parts.append(self.rfile.read(size))
                        self.rfile.readline()
                    while self.rfile.readline().strip():  # trailers
                        pass
                    return b"".join(parts)
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def _relay(self) -> None:
                body = self._body()
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                if body or self.command in ("POST", "PUT", "PATCH"):
                    headers["Content-Length"] = str(len(body))
                conn = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30)
                try:
                    conn.request(self.command, self.path, body=body, headers=headers)
                    resp = conn.getresponse()
                    data = resp.read()
                finally:
                    conn.close()
                call = Call(self.command, self.path, body, resp.status, resp.getheader("Location"))
                with proxy._lock:
                    proxy.calls.append(call)
                self.send_response(resp.status, resp.reason)
                for k, v in resp.getheaders():
                    if k.lower() not in HOP_BY_HOP and k.lower() not in ("server", "date"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_POST = do_DELETE = do_PUT = do_HEAD = do_PATCH = _relay

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Relay)
        self._server.daemon_threads = True
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def take(self) -> list[Call]:
        """The calls recorded since the last `take`, oldest first."""
        with self._lock:
            calls, self.calls = self.calls, []
        return calls

    def close(self) -> None:
        """Stops listening."""
        self._server.shutdown()
        self._server.server_close()


def stage_yaml(directory: Path, **settings: object) -> tuple[Path, int, list[str]]:
    """A stage.yaml in ``directory`` on a free port with a small test
    catalog (relative paths, resolved against the file); its path, port
    and the catalog's paths."""
    import yaml

    paths = write_catalog(directory / "catalog.csv", per_tape=2)
    port = free_port()
    cfg = directory / "stage.yaml"
    cfg.write_text(yaml.safe_dump({"catalog": "catalog.csv", "db": "s.db", "port": port,
                                   "time_scale": 100_000.0, **settings}))  # fmt: skip
    return cfg, port, paths


#: How a graceful stop on SIGTERM ends: uvicorn shuts down (the lifespan
#: stops the service), then raises the signal again, as a process that did
#: not catch it would end; systemd counts SIGTERM as a clean stop.
CLEAN = (0, -signal.SIGTERM)


class FifoRequester:
    """Passes files on in arrival order; records the parallel tapes it is set to."""

    def __init__(self) -> None:
        self.keys: list[int] = []
        self.parallel: list[int] = []

    def arrive(self, key: int, tape: int, block: int, size: int, now: float) -> None:
        self.keys.append(key)

    def take(self, now: float) -> int | None:
        return self.keys.pop(0) if self.keys else None

    def next_wake(self) -> float | None:
        return None

    def set_parallel_tapes(self, tapes: int) -> None:
        self.parallel.append(tapes)
