"""`seekplan serve` under a real client: gfal2, the library FTS stages with
(Debian's gfal2 2.21: its http plugin, its Python bindings and the gfal-*
command-line tools, installed by the set-up if missing).

gfal2 is pointed at plain http on loopback: its http plugin finds the Tape
REST endpoint from `/.well-known/wlcg-tape-rest-api` at the URL's own
scheme://host:port and then calls the `uri` that discovery names, so no TLS is
needed. A recording proxy sits between gfal2 and the server, and every test
asserts the requests gfal2 really sent; the module prints them as a table
(docs/serve.md, "Client quirks", keeps it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml
from serve_support import Call, RecordingProxy, free_port, server, write_catalog
from system_packages import ensure_debian_packages, say

#: Debian packages of the client: the http plugin (Tape REST API), the Python
#: bindings, and the gfal-* tools (which pull in gfal2-util's Python modules).
PACKAGES = ("gfal2-plugin-http", "python3-gfal2", "gfal2-util-scripts")
#: The bindings are a system package: they load into Debian's own Python.
SYSTEM_PYTHON = "/usr/bin/python3"
DRIVER = Path(__file__).with_name("gfal2_driver.py")
API = "/api/v1"
SITENAME = "seekplan-gfal2-test"
#: gfal2's names for a file's `user.status` (gfal_constants.h).
ONLINE_AND_NEARLINE, NEARLINE = "ONLINE_AND_NEARLINE", "NEARLINE"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass
class Gfal2:
    """The installed client: the bindings (through tests/gfal2_driver.py) and
    the command-line tools."""

    env: dict[str, str] = field(repr=False)  # the environment: kept out of failure reports

    def run(self, *steps: dict[str, Any]) -> list[dict[str, Any]]:
        """Runs ``steps`` in one gfal2 context; their results."""
        out = subprocess.run(
            [SYSTEM_PYTHON, str(DRIVER), json.dumps(list(steps))],
            capture_output=True, text=True, timeout=60, env=self.env,
        )  # fmt: skip
        assert out.returncode == 0, f"gfal2 driver failed ({out.returncode}): {out.stderr}"
        return json.loads(out.stdout)

    def cli(self, tool: str, *args: str) -> subprocess.CompletedProcess[str]:
        """Runs the command-line tool ``tool`` (gfal-evict, gfal-xattr, ...)."""
        return subprocess.run(
            [tool, *args], capture_output=True, text=True, timeout=60, env=self.env
        )


@pytest.fixture(scope="session")
def gfal2(request: pytest.FixtureRequest) -> Gfal2:
    """gfal2 with its http plugin, bindings and tools, installed if missing."""
    ensure_debian_packages(PACKAGES, "the gfal2 client tests", request.config)
    # The gfal-* scripts run the first `python`/`python3` on PATH that imports
    # gfal2, else /usr/bin/python (absent on bookworm): a venv or pyenv python
    # first on PATH would make them fail, so they are told which one to use.
    # The project's PYTHONPATH/PYTHONHOME are no business of Debian's python.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["GFAL_PYTHONBIN"] = SYSTEM_PYTHON
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import gfal2, gfal2_util; print(gfal2.get_version())"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    if probe.returncode != 0:
        pytest.fail(f"{' '.join(PACKAGES)} are installed but gfal2 does not load: {probe.stderr}")
    for tool in ("gfal-bringonline", "gfal-evict", "gfal-xattr", "gfal-archivepoll"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing although gfal2-util-scripts is installed")
    return Gfal2(env)


@dataclass
class Site:
    """A live `seekplan serve` and the recording proxy gfal2 talks to."""

    base: str  # the proxy: what gfal2 is pointed at
    direct: str  # the server itself: the service's own view, not recorded
    proxy: RecordingProxy
    paths: list[str] = field(repr=False)
    table: dict[str, list[str]] = field(default_factory=dict, repr=False)
    calls: dict[str, list[Call]] = field(default_factory=dict, repr=False)

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def on_tape(self, tape: str, n: int, skip: int = 0) -> list[str]:
        """``n`` catalogued paths on ``tape``, after the first ``skip``."""
        return [p for p in self.paths if p.startswith(f"/data/{tape}/")][skip : skip + n]

    def sent(self, operation: str) -> list[str]:
        """What gfal2 sent since the last call, as `METHOD PATH -> STATUS`
        lines (request ids as {id}, repeated polls once); kept for the table."""
        lines: list[str] = []
        self.calls[operation] = self.proxy.take()
        for call in self.calls[operation]:
            line = describe(call)
            if not lines or lines[-1] != line:
                lines.append(line)
        self.table[operation] = lines
        return lines

    def stage_doc(self, rid: str) -> dict[str, Any]:
        r = httpx.get(f"{self.direct}{API}/stage/{rid}", timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def locality(self, paths: list[str]) -> list[str]:
        r = httpx.post(f"{self.direct}{API}/archiveinfo", json={"paths": paths}, timeout=10)
        assert r.status_code == 200, r.text
        return [i.get("locality", i.get("error")) for i in r.json()]


def describe(call: Call) -> str:
    """``call`` as a line of the table: ids replaced, redirects named."""
    line = f"{call.method} {call.path} -> {call.status}"
    if call.location:
        line += f" to {urlsplit(call.location).path}"
    return UUID.sub("{id}", line)


@pytest.fixture(scope="module")
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, gfal2: Gfal2
) -> Iterator[Site]:
    d = tmp_path_factory.mktemp("gfal2")
    paths = write_catalog(d / "catalog.csv")
    port = free_port()
    # 50x: a mount (13 s) and a read (~8 s) take ~0.4 s of real time, long
    # enough for an abort sent right after its stage to find nothing read yet.
    config = {
        "sitename": SITENAME,
        "catalog": str(d / "catalog.csv"),
        "db": str(d / "stage.db"),
        "buffer": str(d / "buffer"),
        "time_scale": 50.0,
        "library": {"drives": 2},
        "port": port,
    }
    (d / "stage.yaml").write_text(yaml.safe_dump(config))
    with server(d / "stage.yaml", port):
        proxy = RecordingProxy(port)
        s = Site(f"http://127.0.0.1:{proxy.port}", f"http://127.0.0.1:{port}", proxy, paths)
        try:
            yield s
        finally:
            proxy.close()
            rows = [f"{op}: {line}" for op, lines in s.table.items() for line in lines]
            say(request.config, "\nwhat gfal2 sent:\n  " + "\n  ".join(rows))


def test_missing_packages_are_named_when_they_cannot_be_installed(monkeypatch):
    """Not root: no apt-get is run, and the skip names the packages and the
    command (a CI run as root installs them instead)."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    ran = []
    monkeypatch.setattr(subprocess, "run", _recording_run(ran))
    with pytest.raises(pytest.skip.Exception) as skipped:
        ensure_debian_packages(["seekplan-no-such-package", "dpkg"], "a test")
    msg = str(skipped.value)
    assert "seekplan-no-such-package" in msg and "root" in msg, msg
    assert " dpkg" not in msg  # installed: not named
    assert "apt-get install --no-install-recommends seekplan-no-such-package" in msg
    assert all(cmd[0] == "dpkg-query" for cmd in ran), ran


def _recording_run(ran: list[list[str]]) -> Any:
    real = subprocess.run

    def run(cmd: list[str], *args: Any, **kwargs: Any) -> Any:
        ran.append(cmd)
        return real(cmd, *args, **kwargs)

    return run


def test_gfal2_finds_the_endpoint_by_discovery_over_plain_http(site, gfal2):
    url = site.url(site.paths[0])
    (res,) = gfal2.run(
        {"op": "getxattr", "urls": [url] * 3, "name": "taperestapi.uri"},
    )
    assert res["errors"] == [None] * 3
    assert res["values"][0] == f"{site.base}{API}"
    ver, name = (
        gfal2.cli("gfal-xattr", url, attr).stdout.strip()
        for attr in ("taperestapi.version", "taperestapi.sitename")
    )
    assert (ver, name) == ("v1", SITENAME)
    # One discovery per process (the driver's and each tool's), none per look-up.
    assert site.sent("discovery (taperestapi.* xattrs)") == [
        "GET /.well-known/wlcg-tape-rest-api -> 200"
    ]
    assert len(site.calls["discovery (taperestapi.* xattrs)"]) == 3


def test_bring_online_poll_status_and_release_with_the_request_id(site, gfal2):
    """Four files on two tapes: one stage request, polled until every file is
    on disk; user.status follows the pins; a release with the id unpins one."""
    paths = site.on_tape("T0", 2) + site.on_tape("T1", 2)
    urls = [site.url(p) for p in paths]

    (staged,) = gfal2.run({"op": "bring_online", "urls": urls})
    assert staged["errors"] == [None] * 4
    rid = staged["token"]
    assert UUID.fullmatch(rid), rid
    assert [f["path"] for f in site.stage_doc(rid)["files"]] == paths
    assert site.sent("bring-online") == [
        "GET /.well-known/wlcg-tape-rest-api -> 200",
        f"POST {API}/stage/ -> 201 to {API}/stage/{{id}}",
    ]
    body = json.loads(site.calls["bring-online"][-1].body)
    assert body == {"files": [{"path": p} for p in paths]}  # no diskLifetime

    (polled,) = gfal2.run({"op": "poll", "urls": urls, "token": rid, "timeout_s": 30})
    assert polled["errors"] == [None] * 4, polled
    doc = site.stage_doc(rid)
    assert "completedAt" in doc
    assert [f["state"] for f in doc["files"]] == ["COMPLETED"] * 4
    assert site.sent("poll") == [
        "GET /.well-known/wlcg-tape-rest-api -> 200",
        f"GET {API}/stage/{{id}} -> 200",
    ]

    other = site.url(site.on_tape("T2", 1)[0])
    (status,) = gfal2.run({"op": "getxattr", "urls": [*urls, other], "name": "user.status"})
    assert status["values"] == [ONLINE_AND_NEARLINE] * 4 + [NEARLINE]
    assert site.sent("user.status xattr") == [
        "GET /.well-known/wlcg-tape-rest-api -> 200",
        f"POST {API}/archiveinfo/ -> 200",
    ]

    (released,) = gfal2.run({"op": "release", "urls": urls[:1], "token": rid})
    assert released["errors"] == [None]
    assert site.sent("release with the request id") == [
        "GET /.well-known/wlcg-tape-rest-api -> 200",
        f"POST {API}/release/{{id}} -> 200",
    ]
    assert site.locality(paths) == ["TAPE"] + ["DISK_AND_TAPE"] * 3
    cli = gfal2.cli("gfal-xattr", urls[0], "user.status")
    assert (cli.returncode, cli.stdout.strip()) == (0, NEARLINE), cli.stderr
    site.sent("user.status xattr (gfal-xattr)")


def test_abort_cancels_the_request(site, gfal2):
    """An abort sent right after the stage (one process, milliseconds apart;
    the first read ends ~0.4 s after it): every file CANCELLED, which a poll
    then reports as an error per file, and nothing stays pinned."""
    paths = site.on_tape("T3", 4)
    urls = [site.url(p) for p in paths]
    staged, aborted = gfal2.run(
        {"op": "bring_online", "urls": urls},
        {"op": "abort", "urls": urls, "token": "$token"},
    )
    assert staged["errors"] == aborted["errors"] == [None] * 4
    sent = site.sent("abort (after its bring-online)")
    assert sent[-1] == f"POST {API}/stage/{{id}}/cancel -> 200"
    assert json.loads(site.calls["abort (after its bring-online)"][-1].body) == {"paths": paths}
    rid = staged["token"]
    doc = site.stage_doc(rid)
    assert [f["state"] for f in doc["files"]] == ["CANCELLED"] * 4, doc

    (polled,) = gfal2.run({"op": "poll", "urls": urls, "token": rid})
    assert all(e is not None and "cancel" in e["message"].lower() for e in polled["errors"]), polled
    site.sent("poll of a cancelled request")
    assert site.locality(paths) == ["TAPE"] * 4


def test_archive_poll(site, gfal2):
    """A catalogued file is on tape (READY); an empty file's NONE and an
    unknown path's error are errors per file, as gfal2 defines them."""
    on_tape = site.url(site.on_tape("T2", 1, skip=1)[0])
    cli = gfal2.cli("gfal-archivepoll", on_tape)
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.strip() == f"{on_tape} READY"
    assert site.sent("archive-poll (gfal-archivepoll)") == [
        "GET /.well-known/wlcg-tape-rest-api -> 200",
        f"POST {API}/archiveinfo/ -> 200",
    ]
    (res,) = gfal2.run(
        {"op": "archive_poll", "urls": [on_tape, site.url("/data/empty"), site.url("/no/such")]}
    )
    ok, empty, unknown = res["errors"]
    assert ok is None
    assert empty is not None and "NONE" in empty["message"], res
    assert unknown is not None and "catalog" in unknown["message"], res
    site.sent("archive-poll (bindings, three files)")
    assert json.loads(site.calls["archive-poll (bindings, three files)"][-1].body) == {
        "paths": [site.on_tape("T2", 1, skip=1)[0], "/data/empty", "/no/such"]
    }


def test_evict_without_a_request_id_unpins_the_file(site, gfal2):
    """`gfal-evict URL` with no request id -- what a user or FTS's eviction
    sends -- releases the client's pin on the file: its locality becomes TAPE.
    gfal2 puts a made-up id in the URL (gfal2-placeholder-id)."""
    path = site.on_tape("T0", 1, skip=5)[0]
    url = site.url(path)
    online = gfal2.cli("gfal-bringonline", url, "--polling-timeout", "30")
    assert online.returncode == 0, online.stderr
    assert online.stdout.strip().splitlines()[-1] == f"{url} READY", online.stdout
    site.sent("bring-online (gfal-bringonline)")
    assert site.locality([path]) == ["DISK_AND_TAPE"]

    evict = gfal2.cli("gfal-evict", url)
    sent = site.sent("evict without a request id (gfal-evict URL)")
    assert sent[-1].startswith(f"POST {API}/release/gfal2-placeholder-id -> ")
    assert json.loads(site.calls["evict without a request id (gfal-evict URL)"][-1].body) == {
        "paths": [path]
    }
    assert evict.returncode == 0, f"gfal-evict failed: {evict.stderr.strip()}"
    assert site.locality([path]) == ["TAPE"]
    status = gfal2.cli("gfal-xattr", url, "user.status")
    assert status.stdout.strip() == NEARLINE, status.stderr
