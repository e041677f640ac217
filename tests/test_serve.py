"""`seekplan serve`: the WLCG Tape REST API flow a CTA-style client runs,
errors, limits and tokens, the scheduler, crash recovery -- each against
SQLite and against a throwaway PostgreSQL 15 cluster."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from unittest import mock

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient
from serve_support import (
    free_port,
    make_service,
    reads,
    server,
    wait_done,
    wait_up,
    write_catalog,
)

from seekplan.errors import SeekplanError
from seekplan.serve import build
from seekplan.serve.catalog import parse_catalog
from seekplan.serve.config import load_stage_config

API = "/api/v1"


@pytest.fixture
def catalog(tmp_path):
    p = tmp_path / "catalog.csv"
    return p, write_catalog(p)


make = make_service


def states(doc):
    return {f["path"]: f["state"] for f in doc["files"]}


def test_cta_client_flow(tmp_path, db_url, catalog):
    """Discovery, archiveinfo, stage -> poll -> COMPLETED, release, and a
    cancel while the drives are down."""
    app, svc = make(tmp_path, db_url, catalog)
    paths = catalog[1]
    with TestClient(app) as c:
        disc = c.get("/.well-known/wlcg-tape-rest-api").json()
        assert disc["sitename"] and disc["endpoints"][0]["version"] == "v1"
        assert disc["endpoints"][0]["uri"].endswith("/api/v1")
        info = c.post(f"{API}/archiveinfo", json={"paths": [paths[0], "/nope"]}).json()
        assert info[0] == {"path": paths[0], "locality": "TAPE"}
        assert "error" in info[1] and "locality" not in info[1]

        body = {
            "files": [
                {"path": p, "diskLifetime": "PT1H", "targetedMetadata": {"x": {"a": 1}}}
                for p in paths[:6]
            ]
            + [{"path": "/nope"}, {"path": "/data/empty"}, {"path": "//data//T0/f0000/"}],
            "someFutureField": True,
        }
        r = c.post(f"{API}/stage", json=body)
        assert r.status_code == 201, r.text
        rid = r.json()["requestId"]
        assert r.headers["location"].endswith(f"/api/v1/stage/{rid}")
        doc = wait_done(c, rid)
        got = states(doc)
        assert len(doc["files"]) == 8  # the sanitised twin of f0000 is the same file
        assert all(got[p] == "COMPLETED" for p in paths[:6])
        assert got["/nope"] == "FAILED" and got["/data/empty"] == "FAILED"
        for f in doc["files"]:
            assert ("state" in f) != ("onDisk" in f)
            assert f["startedAt"] <= f["finishedAt"]
            assert ("error" in f) == (f["state"] == "FAILED")
        assert doc["createdAt"] <= doc["startedAt"] <= doc["completedAt"]
        info = c.post(f"{API}/archiveinfo", json={"paths": [paths[0]]}).json()
        assert info[0]["locality"] == "DISK_AND_TAPE"
        assert c.post(f"{API}/release/{rid}", json={"paths": paths[:6]}).status_code == 200
        info = c.post(f"{API}/archiveinfo", json={"paths": [paths[0], "/data/empty"]}).json()
        assert [i["locality"] for i in info] == ["TAPE", "NONE"]

        # Drives down: a new request waits; cancelling part of it works.
        svc.pause(True)
        rid2 = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths[6:10]]}).json()[
            "requestId"
        ]
        bad = c.post(f"{API}/stage/{rid2}/cancel", json={"paths": [paths[6], "/not/in/it"]})
        assert bad.status_code == 400
        assert bad.headers["content-type"].startswith("application/problem+json")
        assert bad.json()["status"] == 400 and "detail" in bad.json()
        assert set(states(c.get(f"{API}/stage/{rid2}").json()).values()) == {"SUBMITTED"}
        assert c.post(f"{API}/stage/{rid2}/cancel", json={"paths": paths[6:8]}).status_code == 200
        got = states(c.get(f"{API}/stage/{rid2}").json())
        assert [got[p] for p in paths[6:10]] == ["CANCELLED"] * 2 + ["SUBMITTED"] * 2
        svc.pause(False)
        got = states(wait_done(c, rid2))
        assert [got[p] for p in paths[6:10]] == ["CANCELLED"] * 2 + ["COMPLETED"] * 2
        assert svc.stats.staged._value.get() == 8  # the cancelled two were never read

        # DELETE cancels, then the request is gone.
        svc.pause(True)
        rid3 = c.post(f"{API}/stage", json={"files": [{"path": paths[20]}]}).json()["requestId"]
        assert c.delete(f"{API}/stage/{rid3}").status_code == 200
        gone = c.get(f"{API}/stage/{rid3}")
        assert gone.status_code == 404 and gone.json()["title"] == "Not found"
        svc.pause(False)
        page = c.get("/")
        assert page.status_code == 200 and "Tape queues" in page.text
        metrics = c.get("/metrics").text
        assert "seekplan_stage_mounts_total" in metrics
        values = dict(
            line.rsplit(" ", 1) for line in metrics.splitlines() if not line.startswith("#")
        )
        assert float(values["seekplan_stage_files_staged_total"]) == 8
        assert float(values["seekplan_stage_bytes_read_total"]) == 8 * 2e9
        assert float(values["seekplan_stage_mounts_total"]) >= 2


def test_a_move_the_database_did_not_make_leaves_the_counts_alone(tmp_path, db_url, catalog):
    """Two callers moving the same file (a cancel racing a completion): the
    second finds the row already moved, and the request's counts follow the
    database, never going below zero."""
    app, svc = make(tmp_path, db_url, catalog)
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": catalog[1][0]}]}).json()["requestId"]
        fid = svc.store.open_files(0, svc.store.next_file_id)[0][0]
        move = [(fid, rid, "SUBMITTED", "CANCELLED", None)]
        svc.store.transition(move, time.time())
        svc.store.transition(move, time.time())
        counts = svc.summaries[rid].counts
        assert counts["SUBMITTED"] == 0 and counts["CANCELLED"] == 1
        assert min(svc.totals.values()) == 0
        assert states(c.get(f"{API}/stage/{rid}").json()) == {catalog[1][0]: "CANCELLED"}


def test_a_completion_the_database_did_not_make_pins_nothing(tmp_path, db_url, catalog):
    """A completion that finds its file already moved (cancelled, or
    completed by another caller) neither counts nor pins the buffer copy:
    a pin it left would keep the copy until someone released a file that
    never held it."""
    app, svc = make(tmp_path, db_url, catalog)
    with TestClient(app) as c:
        svc.pause(True)
        paths = catalog[1][:2]
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]}).json()[
            "requestId"
        ]
        ids = {row[2]: row[0] for row in svc.store.open_files(0, svc.store.next_file_id)}
        done, gone = ids[paths[0]], ids[paths[1]]
        complete = [(done, rid, "SUBMITTED", "COMPLETED", None)]
        svc.store.transition(complete, time.time(), {done: "copy-a"})
        svc.store.transition(complete, time.time(), {done: "copy-a"})
        assert svc.store.disk == {"copy-a": 1}
        svc.store.transition([(gone, rid, "SUBMITTED", "CANCELLED", None)], time.time())
        late = [(gone, rid, "SUBMITTED", "COMPLETED", None)]
        svc.store.transition(late, time.time(), {gone: "copy-b"})
        assert "copy-b" not in svc.store.disk
        assert svc.summaries[rid].counts["COMPLETED"] == 1


def test_errors_are_rfc7807(tmp_path, db_url, catalog):
    app, _ = make(tmp_path, db_url, catalog)
    with TestClient(app) as c:
        for r in (
            c.post(f"{API}/stage", content=b"{not json"),
            c.post(f"{API}/stage", json={"files": []}),
            c.post(f"{API}/stage", json={"files": [{"nopath": 1}]}),
            c.post(f"{API}/archiveinfo", json={"paths": "x"}),
            c.get(f"{API}/stage/no-such-id"),
            c.get("/api/v1/nothing-here"),
        ):
            assert r.status_code in (400, 404), r.text
            assert r.headers["content-type"].startswith("application/problem+json")
            body = r.json()
            assert body["status"] == r.status_code and body["title"]


def test_limits_and_tokens(tmp_path, db_url, catalog):
    tokens = tmp_path / "tokens"
    tokens.write_text("# client token\nalice aaaaaaaaaaaaaaaaaaaa\nbob bbbbbbbbbbbbbbbbbbbbbb\n")
    app, svc = make(
        tmp_path,
        db_url,
        catalog,
        tokens=str(tokens),
        limits={"max_files_per_request": 3, "max_active_requests_per_client": 2},
    )
    alice = {"Authorization": "Bearer aaaaaaaaaaaaaaaaaaaa"}
    bob = {"Authorization": "Bearer bbbbbbbbbbbbbbbbbbbbbb"}
    paths = catalog[1]
    with TestClient(app) as c:
        svc.pause(True)
        one = {"files": [{"path": paths[0]}]}
        assert c.post(f"{API}/stage", json=one).status_code == 401
        r = c.post(f"{API}/stage", json=one, headers={"Authorization": "Bearer wrong"})
        assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
        r = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths[:4]]}, headers=alice)
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
        rid = c.post(f"{API}/stage", json=one, headers=alice).json()["requestId"]
        assert c.post(f"{API}/stage", json=one, headers=alice).status_code == 201
        r = c.post(f"{API}/stage", json=one, headers=alice)
        assert r.status_code == 429 and r.json()["status"] == 429
        assert c.post(f"{API}/stage", json=one, headers=bob).status_code == 201
        assert c.get(f"{API}/stage/{rid}", headers=bob).status_code == 403
        assert c.delete(f"{API}/stage/{rid}", headers=bob).status_code == 403
        assert (
            c.post(f"{API}/release/{rid}", json={"paths": ["/x"]}, headers=bob).status_code == 403
        )
        assert c.get(f"{API}/stage/{rid}", headers=alice).status_code == 200
        # A finished request no longer counts against the cap.
        assert c.delete(f"{API}/stage/{rid}", headers=alice).status_code == 200
        assert c.post(f"{API}/stage", json=one, headers=alice).status_code == 201
        assert "refused with 429" in c.get("/").text


def _interleaved_run(tmp_path, db_url, catalog, policy):
    app, svc = make(tmp_path, db_url, catalog, policy=policy, drives=1, library={"queue_size": 6})
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in catalog[1]]}).json()[
            "requestId"
        ]
        svc.pause(False)
        wait_done(c, rid, timeout=60)
        return svc.stats.mounts._value.get()


def test_tape_aware_policy_mounts_each_tape_once(tmp_path, catalog):
    """With a small tape-system queue, FIFO keeps switching tapes; by-tapes
    (one tape at a time) mounts each tape once."""
    fifo = _interleaved_run(tmp_path / "a", str(tmp_path / "a.db"), catalog, "fifo")
    aware = _interleaved_run(
        tmp_path / "b", str(tmp_path / "b.db"), catalog, {"name": "by-tapes", "tapes": 1}
    )
    assert aware == 4
    assert fifo > aware


def test_read_order_on_a_tape_is_the_cores(tmp_path):
    """One tape's batch is read in the core's `best` order, which here is
    ascending block order from BOT (the files lie forward on one wrap)."""
    cat = tmp_path / "c.csv"
    blocks = [9000, 100, 5000, 300, 7000, 2000]
    cat.write_text("path,tape,block,size\n" + "".join(f"/f{b},T,{b},1000000\n" for b in blocks))
    app, svc = make(tmp_path, str(tmp_path / "o.db"), (cat, None), drives=1)
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": f"/f{b}"} for b in blocks]}).json()[
            "requestId"
        ]
        svc.pause(False)
        wait_done(c, rid)
    read = [int(p[2:]) for p in reads(tmp_path / "buffer")]
    assert read == sorted(blocks)


def test_catalog_errors_name_the_line():
    with pytest.raises(SeekplanError, match="line 3: column 'block': 'x'"):
        parse_catalog(["path,tape,block,size", "/a,T,1,2", "/b,T,x,2"])
    with pytest.raises(SeekplanError, match="line 1: missing column"):
        parse_catalog(["path,tape,size", "/a,T,2"])
    with pytest.raises(SeekplanError, match="line 3: path '/a' appears twice"):
        parse_catalog(["path,tape,block,size", "/a,T,1,2", "//a,T,1,2"])
    with pytest.raises(SeekplanError, match="line 2: column 'path': 'rel' is not an absolute"):
        parse_catalog(["path,tape,block,size", "rel,T,1,2"])


def test_cli_errors_exit_2(cli, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("path,tape,block,size\n/a,T,-1,5\n")
    r = cli("serve", "--catalog", bad, "--db", tmp_path / "x.db")
    assert r.exit_code == 2 and "line 2: column 'block'" in r.output
    cfg = tmp_path / "stage.yaml"
    cfg.write_text(yaml.safe_dump({"catalog": "c.csv", "drivez": 3}))
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2 and "drivez" in r.output and "Traceback" not in r.output
    cfg.write_text(yaml.safe_dump({"catalog": "c.csv", "policy": {"name": "by-tapes", "tapes": 0}}))
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2 and "policy.tapes" in r.output
    cfg.write_text(yaml.safe_dump({"catalog": "c.csv", "library": {"rate_mb_s": -1}}))
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2 and "library.rate_mb_s" in r.output
    r = cli("serve", "--db", tmp_path / "x.db")
    assert r.exit_code == 2 and "catalog" in r.output


@pytest.mark.parametrize(
    ("setting", "needle"),
    [
        # Infinity passed gt=0: the clock thread died with the server up.
        ({"time_scale": float("inf")}, "time_scale: Input should be a finite number"),
        # An OverflowError traceback (bytes of inf GB).
        ({"tape_capacity_gb": float("inf")}, "tape_capacity_gb: Input should be a finite number"),
        ({"tape_capacity_gb": 1e300}, "tape_capacity_gb: Input should be less than or equal"),
        # A FileExistsError traceback from mkdir.
        ({"buffer": "CATALOG"}, "is a file; expected a directory"),
        # uvicorn logged it and exited with 3.
        ({"host": "no such host!"}, "cannot listen on no such host!"),
    ],
)
def test_hostile_settings_exit_2_before_serving(cli, tmp_path, catalog, setting, needle):
    cfg = tmp_path / "stage.yaml"
    setting = {k: str(catalog[0]) if v == "CATALOG" else v for k, v in setting.items()}
    cfg.write_text(
        yaml.safe_dump({"catalog": str(catalog[0]), "db": str(tmp_path / "s.db"), **setting})
    )
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output


def test_a_catalog_line_without_end_is_refused_before_it_fills_memory(cli, tmp_path):
    """`--catalog /dev/zero` read one endless line: 19 GB in a minute."""
    from seekplan.io import MAX_LINE_CHARS

    zeros = tmp_path / "zeros.csv"
    zeros.write_bytes(bytes(MAX_LINE_CHARS + 10))
    r = cli("serve", "--catalog", zeros, "--db", tmp_path / "s.db")
    assert r.exit_code == 2 and "zeros.csv line 1: longer than" in r.output


def test_a_port_in_use_exits_2(cli, tmp_path, catalog):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = cli("serve", "--catalog", catalog[0], "--db", tmp_path / "s.db", "--port", port)
    assert r.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in r.output


def test_a_tokens_file_is_read_with_a_size_cap(tmp_path):
    """It was read whole: --tokens /dev/zero filled memory."""
    from seekplan import io
    from seekplan.serve.api import load_tokens

    big = tmp_path / "tokens"
    big.write_text("a " + "t" * (io.MAX_TEXT_CHARS + 1))
    with pytest.raises(SeekplanError, match="larger than"):
        load_tokens(big)


def test_schema_matches_migrations(tmp_path):
    """The tables the code uses are the ones alembic's migrations create."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from seekplan.serve import db

    engine = db.connect(str(tmp_path / "m.db"))
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == []


def test_kill_9_and_restart(tmp_path, db_url, catalog):
    """Under load the server is killed with SIGKILL and restarted: every
    accepted request and file is there, every file finishes, and no file is
    read twice to the buffer."""
    port = free_port()
    cfg = tmp_path / "stage.yaml"
    cfg.write_text(
        yaml.safe_dump(
            {
                "catalog": str(catalog[0]),
                "db": db_url,
                "buffer": str(tmp_path / "buffer"),
                "port": port,
                # 48 files of 2 GB on 2 drives are minutes of modelled tape
                # time: seconds at 300x, so the kill lands mid-work (the
                # modelled clock does not slow down with the machine's load).
                "time_scale": 300.0,
                "library": {"drives": 2},
            }
        )
    )
    base = f"http://127.0.0.1:{port}{API}"
    paths = catalog[1]
    accepted: dict[str, list[str]] = {}
    # One client for all calls: each new one loads the CA bundle (~40 ms of CPU).
    with server(cfg, port) as proc, httpx.Client() as c:
        for i in range(0, len(paths), 4):
            chunk = paths[i : i + 4]
            r = c.post(f"{base}/stage", json={"files": [{"path": p} for p in chunk]})
            assert r.status_code == 201
            accepted[r.json()["requestId"]] = chunk
        time.sleep(0.15)
        before = {rid: states(c.get(f"{base}/stage/{rid}").json()) for rid in accepted}
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finished = Counter(s for st in before.values() for s in st.values() if s == "COMPLETED")
    assert finished["COMPLETED"] < len(paths), "the kill came too late to test anything"
    with server(cfg, port), httpx.Client() as c:
        for rid, chunk in accepted.items():
            deadline = time.monotonic() + 60
            while True:
                doc = c.get(f"{base}/stage/{rid}").json()
                if "completedAt" in doc or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            got = states(doc)
            assert sorted(got) == sorted(chunk)
            assert set(got.values()) == {"COMPLETED"}, got
            for p, s in before[rid].items():
                if s == "COMPLETED":
                    assert got[p] == "COMPLETED"
    read = Counter(reads(tmp_path / "buffer"))
    assert set(read) == set(paths)
    assert max(read.values()) == 1


def test_serve_cli_listens_on_loopback(tmp_path, catalog):
    port = free_port()
    cfg = tmp_path / "s.yaml"
    cfg.write_text(yaml.safe_dump({"catalog": str(catalog[0]), "db": str(tmp_path / "d.db"),
                                   "port": port}))  # fmt: skip
    with server(cfg, port) as proc:
        wait_up(proc, port)
        spec = httpx.get(f"http://127.0.0.1:{port}/openapi.yaml")
        assert spec.status_code == 200 and "openapi: 3.0.3" in spec.text


def test_known_optional_fields_are_type_checked(tmp_path, catalog):
    app, _ = make(tmp_path, str(tmp_path / "k.db"), catalog)
    with TestClient(app) as c:
        for f in ({"diskLifetime": True}, {"targetedMetadata": "x"}):
            r = c.post(f"{API}/stage", json={"files": [{"path": catalog[1][0], **f}]})
            assert r.status_code == 400 and r.json()["title"] == "JSON Validation error"


@pytest.mark.parametrize(
    ("backend", "needle"),
    [("tapeless", "unknown backend 'tapeless'; choose one of simulated, ltfs"),
     ("ltfs", "'ltfs' needs ltfs_root")],
)  # fmt: skip
def test_backends_are_named_from_the_registry(tmp_path, catalog, backend, needle):
    with pytest.raises(SeekplanError, match=needle):
        load_stage_config(None, {"catalog": str(catalog[0]), "backend": backend})


@pytest.mark.parametrize("scale", [1e308, 1e7])
def test_a_time_scale_past_a_million_is_refused_before_starting(catalog, scale):
    """At 1e308 the service started, its clock reached infinity within a
    second and every drive worker died with a traceback, the service still
    up and staging nothing."""
    with pytest.raises(SeekplanError, match="time_scale: Input should be less than or equal"):
        load_stage_config(None, {"catalog": str(catalog[0]), "time_scale": scale})


def test_the_ltfs_backend_runs_in_real_time_on_its_volumes(tmp_path, catalog):
    from seekplan.serve.backend import LtfsBackend

    root = tmp_path / "volumes"
    (root / "T1").mkdir(parents=True)
    (root / "T1" / "f").write_bytes(b"x" * 10)
    os.setxattr(root / "T1" / "f", "user.ltfs.startblock", b"5")
    settings = {"ltfs_root": str(root), "db": f"sqlite:///{tmp_path / 'l.db'}",
                "buffer": str(tmp_path / "buffer"), "backend": "ltfs"}  # fmt: skip
    _app, svc = build(load_stage_config(None, settings))
    assert isinstance(svc.backend, LtfsBackend) and svc.backend.root == root
    assert svc.clock.scale == 1.0
    assert svc.catalog.get("/T1/f") is not None


def test_a_catalogued_library_is_named_as_in_a_recall_config(cli, tmp_path, catalog):
    """`library.robot: NAME` takes the catalogued library's arms and move
    times (the recall config's code path); an unknown name exits 2 listing
    the catalogued ones."""
    from seekplan.catalog import load_robots

    tfinity = load_robots()["tfinity"]
    app, svc = make(tmp_path, str(tmp_path / "r.db"), catalog, library={"robot": "tfinity"})
    assert svc.hardware["robot"]["arms"] == (tfinity.arms or 1)
    assert (svc.backend.fetch_s, svc.backend.return_s) == (tfinity.fetch.mean_s, tfinity.ret.mean_s)
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": catalog[1][0]}]}).json()["requestId"]
        assert states(wait_done(c, rid)) == {catalog[1][0]: "COMPLETED"}
        # the one mount took the TFinity's fetch before the drive's load
        assert svc.clock.now() >= tfinity.fetch.mean_s + svc.hardware["drive"]["load_s"]
    cfg = tmp_path / "stage.yaml"
    cfg.write_text(yaml.safe_dump({"catalog": str(catalog[0]), "library": {"robot": "tfinty"}}))
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2, r.output
    assert "library.robot: unknown library 'tfinty'" in r.output
    assert "scalar-i6000" in r.output and "tfinity" in r.output


@pytest.mark.parametrize(
    "model",
    [{"kind": "session-fraction"},
     {"kind": "session-fraction", "floor": 0.3, "full_at": 0.5, "exponent": 2.0}],
)  # fmt: skip
def test_session_efficiency_agrees_with_the_cores_read_model(model):
    """The backend's e(f) against the core's ReadModel::efficiency, read off
    the recall simulator: one file of f x capacity alone on a tape, robot and
    drive times zero, so its staging time is size / (rate * e(f))."""
    import numpy as np

    from seekplan.recall.config import parse_config
    from seekplan.recall.run import simulate
    from seekplan.recall.workload import Campaign
    from seekplan.serve.backend import session_efficiency

    capacity = 10**12
    zero = {"load_s": 0, "thread_s": 0, "unload_s": 0, "rewind_s": 0, "drives": 1}
    cfg = parse_config({"library": {**zero, "read_model": model}, "duration_h": 100,
                        "strategy": {"name": "by-dataset"}})  # fmt: skip
    rate = cfg.library["rate_mb_s"] * 1e6
    for fraction in (0.001, 0.05, 0.2, 0.25, 0.4, 0.5, 0.7, 0.8, 0.9, 0.99):
        size = int(fraction * capacity)
        one = Campaign(
            dataset=np.zeros(1, np.uint32), tape=np.zeros(1, np.uint32),
            block=np.zeros(1, np.uint64), size=np.array([size], np.uint64),
            arrival_s=np.zeros(1), tapeinfo=np.ones(1, bool),
            capacity=np.array([capacity], np.uint64), used=np.array([capacity], np.uint64),
            tape_names=["T"],
        )  # fmt: skip
        seconds = simulate(cfg, one)["metrics"]["last_staged_s"]
        core = size / (rate * seconds)
        ours = session_efficiency(cfg.library["read_model"], size / capacity)
        assert ours == pytest.approx(core, rel=1e-9), fraction


def test_the_simulated_backend_times_reads_by_the_configured_read_model(tmp_path, catalog):
    """Default (the recall default, session-fraction): size / (rate * e(f)),
    f = the session's bytes over the tape's capacity, with the session
    counted by the scheduler as bytes read since the mount plus bytes queued
    for the tape. `positional`: the drive's locate plus size / rate."""
    from seekplan.serve.backend import ReadJob, session_efficiency

    paths = [p for p in catalog[1] if p.startswith("/data/T1/")]
    app, svc = make(tmp_path, str(tmp_path / "m.db"), catalog, drives=1)
    b = svc.backend
    assert b.read_model["kind"] == "session-fraction"
    job = ReadJob("/x", "T", 1000, 2 * 10**9, 0, b.capacity_bytes // 4)
    assert b.read_seconds(job) == pytest.approx(
        2e9 / (b.rate_bps * session_efficiency(b.read_model, 0.25))
    )
    assert b.read_seconds(job) > b.read_seconds(
        ReadJob("/x", "T", 1000, 2 * 10**9, 0, b.capacity_bytes // 2)
    )
    seen: list[int] = []
    read = b.read
    b.read = lambda d, j: (seen.append(j.session_bytes), read(d, j))[1]
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]}).json()
        svc.pause(False)
        wait_done(c, rid["requestId"])
    # one mount, nothing arriving meanwhile: every read sees the whole batch
    assert seen == [2 * 10**9 * len(paths)] * len(paths)
    _app, pos = make(tmp_path / "p", str(tmp_path / "p.db"), catalog,
                     library={"read_model": {"kind": "positional"}})  # fmt: skip
    assert pos.backend.read_seconds(job) == pytest.approx(
        pos.backend.model.locate(0, 1000) + 2e9 / pos.backend.rate_bps
    )


def test_the_status_estimate_is_the_backends_read_model(tmp_path, catalog):
    """While the first file of a one-tape batch is read, the page estimates
    the rest of the plan with the backend's own timing (session-fraction by
    default: each read sees the whole batch as its session), not full rate."""
    import threading

    from seekplan.serve.backend import ReadJob

    paths = [p for p in catalog[1] if p.startswith("/data/T1/")]
    app, svc = make(tmp_path, str(tmp_path / "e.db"), catalog, drives=1)
    b = svc.backend
    reading, release = threading.Event(), threading.Event()
    read = b.read

    def held_read(d, job):
        reading.set()
        release.wait(10)
        read(d, job)

    b.read = held_read
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]}).json()
        svc.pause(False)
        assert reading.wait(10)
        snap = svc.snapshot(plan_rows=100)
        release.set()
        wait_done(c, rid["requestId"])
    (tape,) = [t for t in snap["tapes"] if t["drive"] == 0]
    assert len(tape["next"]) == len(paths) - 1
    session = 2 * 10**9 * len(paths)
    current = next(p for p in paths if p not in {n[0] for n in tape["next"]})
    head = svc.sched.end_block(svc.catalog.get(current))
    want = 0.0
    for path, block, size in tape["next"]:
        want += b.read_seconds(ReadJob(path, tape["tape"], block, size, head, session))
        head = block + max(1, -(-size // svc.sched.block_bytes))
    assert tape["estimate_s"] == pytest.approx(want, rel=1e-9)
    full_rate = sum(size for _p, _b, size in tape["next"]) / b.rate_bps
    assert tape["estimate_s"] > 1.05 * full_rate


def test_the_tape_capacity_is_the_read_models_denominator(tmp_path, catalog):
    """`tape_capacity_gb` sets what a session's volume is a fraction of (KIT's
    8.5 TB cartridges under an LTO-9 locate model); by default the drive's."""
    from seekplan.serve.backend import ReadJob

    _app, lto = make(tmp_path / "a", str(tmp_path / "a.db"), catalog)
    assert lto.backend.capacity_bytes == int(lto.sched.model.capacity) * lto.sched.block_bytes
    _app, kit = make(tmp_path / "b", str(tmp_path / "b.db"), catalog, tape_capacity_gb=8500)
    assert kit.backend.capacity_bytes == 8_500 * 10**9
    job = ReadJob("/x", "T", 0, 10**9, 0, 4 * 10**12)  # 47 % of 8.5 TB, 22 % of 18 TB
    assert kit.backend.read_seconds(job) < lto.backend.read_seconds(job)
    with pytest.raises(SeekplanError, match="tape_capacity_gb"):
        make(tmp_path / "c", str(tmp_path / "c.db"), catalog, tape_capacity_gb=0)


def test_the_service_measures_the_model_not_the_machine(tmp_path):
    """A KIT-like campaign staged in random order through the service at
    200,000x real time reads as fast as the core's recall simulator says it
    should (same campaign, drives, queue, 8.5 TB tapes, arrivals inserted into
    the plan being read). On a wall clock the service's own CPU time, times
    200,000, would swamp the modelled time (4 s of CPU is 800,000 virtual s
    against about 34,000 modelled)."""
    import random

    from seekplan.catalog import make_drive
    from seekplan.recall import generate_kit
    from seekplan.recall.config import parse_config
    from seekplan.recall.run import simulate

    camp = generate_kit(1, 0.005)
    ratio = 262_144 / int(make_drive("lto9").block_bytes)
    cat = tmp_path / "kit.csv"
    rows = ["path,tape,block,size"]
    for i in range(len(camp.tape)):
        name = camp.tape_names[int(camp.tape[i])]
        rows.append(f"/k/{i},{name},{int(int(camp.block[i]) * ratio)},{int(camp.size[i])}")
    cat.write_text("\n".join(rows) + "\n")
    paths = [r.split(",")[0] for r in rows[1:]]
    random.Random(1).shuffle(paths)
    _app, svc = build(load_stage_config(None, {
        "catalog": str(cat), "db": str(tmp_path / "k.db"), "buffer": str(tmp_path / "kb"),
        "time_scale": 200_000.0, "order": "sltf", "drives": 2, "policy": "fifo",
        "tape_capacity_gb": 8500, "library": {"queue_size": 100},
    }))  # fmt: skip
    # the virtual time each read ends, taken by the drive's own thread (the
    # clock runs on, unwatched, once the drives are idle)
    ends: list[float] = []
    read = svc.backend.read
    svc.backend.read = lambda d, job: (read(d, job), ends.append(svc.clock.now()))[0]
    svc.pause(True)
    svc.start()
    try:
        rid = svc.stage("t", paths)
        t0 = svc.clock.now()
        svc.pause(False)
        deadline = time.monotonic() + 120
        while svc.summaries[rid].completed_at is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert svc.summaries[rid].completed_at is not None
        service_mb_s = svc.stats.bytes_read._value.get() / 1e6 / (max(ends) - t0)
    finally:
        svc.stop()
    core = parse_config({
        "library": {"drives": 2, "queue_size": 100, "arrivals": "insert"},
        "workload": {"kind": "kit", "seed": 1, "scale": 0.005},
        "strategy": {"name": "random"}, "duration_h": 10_000,
    })  # fmt: skip
    m = simulate(core)["metrics"]
    assert m["files_staged"] == len(paths)
    assert service_mb_s == pytest.approx(m["bytes_staged"] / 1e6 / m["last_staged_s"], rel=0.03)


def test_drives_past_the_cap_or_the_system_limits_are_clear_errors(tmp_path, catalog):
    """The service runs a worker thread per drive: more drives than it takes
    name the field, and a thread the system refuses stops the service with
    a message instead of a traceback from the web server."""
    from seekplan.serve.config import MAX_DRIVES

    with pytest.raises(SeekplanError, match=f"library.drives: {MAX_DRIVES + 1} drives"):
        make(tmp_path, str(tmp_path / "a.db"), catalog, drives=MAX_DRIVES + 1)
    _app, svc = make(tmp_path, str(tmp_path / "b.db"), catalog, drives=3)
    started = []
    real_start = threading.Thread.start

    def refuse_third(thread):
        if len(started) == 3:  # the resume thread, then drives 1 and 2
            raise RuntimeError("can't start new thread")
        started.append(thread)
        real_start(thread)

    with mock.patch.object(threading.Thread, "start", refuse_third):
        with pytest.raises(SeekplanError, match="drive 3 of 3 .*can't start new thread"):
            svc.start()
    assert all(not t.is_alive() for t in started)


def test_port_0_says_the_port_the_os_picked_and_serves_there(tmp_path):
    """`--port 0` printed http://127.0.0.1:0/ (the port asked for, not the
    port bound)."""
    catalog = tmp_path / "catalog.csv"
    write_catalog(catalog)
    proc = subprocess.Popen(
        [sys.executable, "-m", "seekplan", "serve", "--catalog", str(catalog),
         "--db", str(tmp_path / "s.db"), "--port", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline().decode()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match and match.group(1) != "0", line
        wait_up(proc, int(match.group(1)))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
