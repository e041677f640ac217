"""`seekplan serve` against its own OpenAPI document (schemathesis, stateful
links stage -> get / cancel / delete / release), a hypothesis state machine
on the request lifecycle, and the status page in a real browser."""

from __future__ import annotations

import time

import hypothesis.strategies as st
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from schemathesis.specs.openapi.checks import positive_data_acceptance
from serve_support import write_catalog
from system_packages import chromium_path

from seekplan.serve import build
from seekplan.serve.config import load_stage_config

API = "/api/v1"
TERMINAL = {"CANCELLED", "FAILED", "COMPLETED"}
RANK = {"SUBMITTED": 0, "STARTED": 1, "CANCELLED": 2, "FAILED": 2, "COMPLETED": 2}


def make(tmp_path, db_url, **over):
    cat = tmp_path / "catalog.csv"
    paths = write_catalog(cat, per_tape=4)
    settings_ = {
        "catalog": str(cat),
        "db": db_url,
        "buffer": str(tmp_path / "buffer"),
        "time_scale": 50_000.0,
        "drives": 2,
        **over,
    }
    app, svc = build(load_stage_config(None, settings_))
    return app, svc, paths


def test_schemathesis_stateful(tmp_path, db_url):
    """Every response conforms to openapi.yaml (status codes, content types,
    bodies, headers) and no call is a server error, along the document's
    links from a created request to get, cancel, delete and release."""
    app, _svc, paths = make(tmp_path, db_url)
    with TestClient(app):
        schema = schemathesis.openapi.from_asgi("/openapi.yaml", app)
        machine = schema.as_state_machine()

        class Machine(machine):  # type: ignore[misc, valid-type]
            def before_call(self, case):  # noqa: D102
                # Real catalog paths in stage bodies, so files get read, not
                # only failed.
                if case.operation.path == f"{API}/stage" and case.method == "POST":
                    body = case.body if isinstance(case.body, dict) else None
                    if body and isinstance(body.get("files"), list):
                        for i, f in enumerate(body["files"]):
                            if isinstance(f, dict) and "path" in f:
                                f["path"] = paths[i % len(paths)]

            def validate_response(self, response, case, **kwargs):  # noqa: D102
                # The document requires a 400 for a schema-valid cancel
                # naming a path that is not in the request: that check's
                # "valid data must be accepted" does not apply.
                case.validate_response(response, excluded_checks=[positive_data_acceptance])

        runner = Machine.TestCase
        runner.settings = settings(
            max_examples=10,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
            derandomize=True,
        )
        runner().runTest()


def test_schemathesis_each_operation(tmp_path):
    """Each operation alone, with generated (valid) inputs."""
    app, _svc, _paths = make(tmp_path, str(tmp_path / "ops.db"))
    with TestClient(app):
        schema = schemathesis.openapi.from_asgi("/openapi.yaml", app)
        for op in schema.get_all_operations():
            operation = op.ok()

            @settings(
                max_examples=15,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                database=None,
                derandomize=True,
            )
            @given(case=operation.as_strategy())
            def check(case):
                response = case.call()
                case.validate_response(response, excluded_checks=[positive_data_acceptance])

            check()


class Lifecycle(RuleBasedStateMachine):
    """Stage, cancel, delete, release and poll in any order, with the drives
    going down and up: a file's state only moves forward (SUBMITTED ->
    STARTED -> one terminal state, never changed again), counts add up, a
    deleted request is 404, a path not in a request cannot be cancelled."""

    tmp = None
    #: Makes a fresh database URL for each run (SQLite file or PostgreSQL).
    fresh = None

    @initialize()
    def start(self):
        tmp = Lifecycle.tmp / f"run{time.monotonic_ns()}"
        tmp.mkdir()
        self.app, self.svc, self.paths = make(tmp, Lifecycle.fresh(tmp), time_scale=5_000.0)
        self.client = TestClient(self.app)
        self.client.__enter__()
        self.seen: dict[str, dict[str, str]] = {}
        # What each request asked for, in creation order: the rules draw
        # from these (never from the server's timing-dependent answers or
        # from random request ids), so Hypothesis can replay a run.
        self.order: list[str] = []
        self.asked: dict[str, list[str]] = {}
        self.deleted: set[str] = set()

    def teardown(self):
        if hasattr(self, "client"):
            self.client.__exit__(None, None, None)

    @rule(picks=st.lists(st.integers(0, 15), min_size=1, max_size=6), bogus=st.booleans())
    def stage(self, picks, bogus):
        files = [{"path": self.paths[i]} for i in picks] + ([{"path": "/bogus"}] if bogus else [])
        r = self.client.post(f"{API}/stage", json={"files": files})
        assert r.status_code == 201
        rid = r.json()["requestId"]
        self.seen[rid] = {}
        self.order.append(rid)
        self.asked[rid] = sorted({f["path"] for f in files})
        self.poll_one(rid)

    def live(self):
        return [rid for rid in self.order if rid not in self.deleted]

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def cancel(self, data):
        rid = data.draw(st.sampled_from(self.live()))
        chosen = data.draw(st.lists(st.sampled_from(self.asked[rid]), min_size=1, max_size=3))
        before = self.poll_one(rid)
        r = self.client.post(f"{API}/stage/{rid}/cancel", json={"paths": chosen})
        assert r.status_code == 200
        after = self.poll_one(rid)
        for p in chosen:
            assert after[p] in TERMINAL
            if before[p] in TERMINAL:
                assert after[p] == before[p]

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def cancel_foreign_path(self, data):
        rid = data.draw(st.sampled_from(self.live()))
        before = self.poll_one(rid)
        r = self.client.post(f"{API}/stage/{rid}/cancel", json={"paths": ["/not/in/any"]})
        assert r.status_code == 400
        after = self.poll_one(rid)
        assert all(after[p] != "CANCELLED" or before[p] == "CANCELLED" for p in after)

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def delete(self, data):
        rid = data.draw(st.sampled_from(self.live()))
        assert self.client.delete(f"{API}/stage/{rid}").status_code == 200
        self.deleted.add(rid)
        assert self.client.get(f"{API}/stage/{rid}").status_code == 404

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def release(self, data):
        rid = data.draw(st.sampled_from(self.live()))
        paths = self.asked[rid]
        assert self.client.post(f"{API}/release/{rid}", json={"paths": paths}).status_code == 200

    @rule(down=st.booleans())
    def drives(self, down):
        self.svc.pause(down)

    @rule()
    def wait(self):
        time.sleep(0.05)

    def poll_one(self, rid):
        r = self.client.get(f"{API}/stage/{rid}")
        assert r.status_code == 200
        doc = r.json()
        now = {f["path"]: f["state"] for f in doc["files"]}
        for path, old in self.seen[rid].items():
            new = now[path]
            assert RANK[new] >= RANK[old], (path, old, new)
            if old in TERMINAL:
                assert new == old
        self.seen[rid] = now
        done = all(s in TERMINAL for s in now.values())
        assert ("completedAt" in doc) == done
        return now

    @invariant()
    def polls_are_consistent(self):
        if not hasattr(self, "seen"):
            return
        for rid in self.live():
            self.poll_one(rid)
        totals = self.svc.totals
        assert all(v >= 0 for v in totals.values())
        assert sum(totals.values()) == sum(s.n_files for s in self.svc.summaries.values())


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_lifecycle_state_machine(tmp_path, store, request):
    Lifecycle.tmp = tmp_path
    if store == "sqlite":
        Lifecycle.fresh = staticmethod(lambda d: str(d / "s.db"))
    else:
        pg = request.getfixturevalue("postgres")
        Lifecycle.fresh = staticmethod(lambda d: pg.fresh())
    Lifecycle.TestCase.settings = settings(
        max_examples=12,
        stateful_step_count=12,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
        derandomize=True,
    )
    Lifecycle.TestCase().runTest()


def test_status_page_in_chromium(tmp_path):
    """The status page in a real browser: the queues table lists the tapes
    with their planned order, and a screenshot of it is not blank."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    # 20x real time: a mount takes 0.65 s and a 2 GB read 0.4 s, so after
    # 1.5 s both drives have a tape mounted and its plan made.
    app, svc, paths = make(tmp_path, str(tmp_path / "p.db"), time_scale=20.0)
    port = __import__("serve_support").free_port()
    import threading

    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not srv.started and time.monotonic() < deadline:
            time.sleep(0.05)
        svc.pause(True)
        svc.stage("anonymous", paths)
        # Let each drive take a tape (and plan it), then stop them.
        svc.pause(False)
        time.sleep(1.5)
        svc.pause(True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/")
            rows = page.locator("#queues tr").all_inner_texts()
            shot = tmp_path / "status.png"
            page.screenshot(path=str(shot), full_page=True)
            table = page.locator("#queues").screenshot()
            browser.close()
        tapes_shown = {r.split("\t")[0] for r in rows[1:]}
        assert tapes_shown & {"T0", "T1", "T2", "T3"}, rows
        assert any("/data/T" in r and "@" in r for r in rows[1:]), rows
        from PIL import Image

        img = Image.open(shot)
        assert img.size[0] >= 1000 and img.size[1] >= 400
        import io

        crop = Image.open(io.BytesIO(table)).convert("L")
        lo, hi = crop.getextrema()
        assert hi - lo > 100, "the queue table rendered blank"
    finally:
        srv.should_exit = True
        thread.join(timeout=20)
