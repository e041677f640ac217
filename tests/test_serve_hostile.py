"""`seekplan serve` under hostile requests (issue 16 item 3): oversized and
deeply nested bodies, bytes that are not UTF-8, file lists past the cap,
paths with NUL or `..`, wrong content types, wrong JSON types, ids that are
not ids, malformed tokens. Each is answered with a 4xx RFC 7807 problem
document, never a 500, and leaves the database as it was: afterwards the
service holds no request but the ones it accepted, and stages a normal
request to the end."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from serve_support import write_catalog

from seekplan.serve import build, db
from seekplan.serve.config import load_stage_config

API = "/api/v1"
TOKEN = "t" * 20
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def service(tmp_path, db_url):
    """A started service (tokens on, at most 3 files a request, 4 KB bodies)
    and a client; yields (client, service, catalogued paths)."""
    catalog = tmp_path / "catalog.csv"
    paths = write_catalog(catalog)
    tokens = tmp_path / "tokens"
    tokens.write_text(f"alice {TOKEN}\n")
    cfg = load_stage_config(
        None,
        {
            "catalog": str(catalog),
            "db": db_url,
            "buffer": str(tmp_path / "buffer"),
            "time_scale": 20_000.0,
            "drives": 2,
            "tokens": str(tokens),
            "limits": {"max_files_per_request": 3, "max_body_bytes": 4096},
        },
    )
    app, svc = build(cfg)
    with TestClient(app) as client:
        yield client, svc, paths


def assert_problem(r, *statuses):
    """``r`` is a problem document with one of ``statuses`` (all 4xx)."""
    assert r.status_code in statuses, (r.status_code, r.text[:300])
    assert 400 <= r.status_code < 500
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers
    body = r.json()
    assert body["status"] == r.status_code
    assert body["title"] and body["detail"], body


def stored_requests(svc) -> int:
    with svc.engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(db.requests)).scalar_one()


def stored_files(svc) -> int:
    with svc.engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(db.files)).scalar_one()


def stage_to_the_end(client, paths):
    """A normal request still stages (the service survived the sweep)."""
    r = client.post(f"{API}/stage", json={"files": [{"path": paths[0]}]}, headers=AUTH)
    assert r.status_code == 201, r.text
    rid = r.json()["requestId"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        doc = client.get(f"{API}/stage/{rid}", headers=AUTH).json()
        if "completedAt" in doc:
            assert doc["files"][0]["state"] == "COMPLETED", doc
            return
        time.sleep(0.05)
    raise AssertionError(f"request {rid} did not complete")


JSON = {"Content-Type": "application/json", **AUTH}

# Bodies that must be refused on every endpoint taking one.
BAD_BODIES = {
    "deeply nested array": b"[" * 100_000 + b"]" * 100_000,
    "deeply nested object": b'{"files":' * 50_000 + b"1" + b"}" * 50_000,
    "not UTF-8": b'{"files": [{"path": "/data/\xff\xfe"}], "paths": ["/data/\xff"]}',
    "UTF-16": '{"files": [], "paths": []}'.encode("utf-16"),
    "empty": b"",
    "NaN": b'{"files": NaN, "paths": NaN}',
    "huge number": b'{"files": 1e999999, "paths": 1e999999}',
    "huge integer": b'{"files": ' + b"9" * 5000 + b', "paths": 1}',
    "top-level array": b"[]",
    "top-level string": b'"files"',
    "top-level null": b"null",
    "numbers for strings": b'{"files": [{"path": 5}], "paths": [5]}',
    "objects for strings": b'{"files": [{"path": {}}], "paths": [{}]}',
    "a list of lists": b'{"files": [[]], "paths": [[]]}',
    "NUL in a path": b'{"files": [{"path": "/data/T0/f0000\\u0000"}], '
    b'"paths": ["/data/T0/f0000\\u0000"]}',
    "lone surrogate": b'{"files": [{"path": "/data/\\ud800"}], "paths": ["/data/\\ud800"]}',
    "dot-dot": b'{"files": [{"path": "/data/../../etc/passwd"}], "paths": ["/data/../etc"]}',
    "relative dot-dot": b'{"files": [{"path": "../T0/f0000"}], "paths": ["../x"]}',
    "dot-dot before a space": b'{"files": [{"path": "/data/T0/.. "}], "paths": ["/x/..  "]}',
    "over 4 KB": b'{"files": [{"path": "/' + b"a" * 5000 + b'"}], "paths": ["/a"]}',
}


def endpoints(rid: str) -> list[str]:
    return [
        f"{API}/stage",
        f"{API}/stage/{rid}/cancel",
        f"{API}/release/{rid}",
        f"{API}/archiveinfo",
    ]


def test_bad_bodies_are_problems_and_change_nothing(service):
    client, svc, paths = service
    r = client.post(f"{API}/stage", json={"files": [{"path": paths[1]}]}, headers=AUTH)
    rid = r.json()["requestId"]
    before = (stored_requests(svc), stored_files(svc))
    for name, body in BAD_BODIES.items():
        for url in endpoints(rid):
            r = client.post(url, content=body, headers=JSON)
            assert r.status_code in (400, 413), (name, url, r.status_code, r.text[:200])
            assert_problem(r, 400, 413)
    assert (stored_requests(svc), stored_files(svc)) == before


def test_sweep_leaves_the_service_working(service):
    client, svc, paths = service
    for body in BAD_BODIES.values():
        client.post(f"{API}/stage", content=body, headers=JSON)
    assert stored_requests(svc) == 0 and stored_files(svc) == 0
    stage_to_the_end(client, paths)


def test_an_oversized_body_is_refused_before_it_is_read(service):
    client, svc, _ = service

    def chunks():
        yield b'{"files": ['
        for _ in range(10_000):
            yield b'{"path": "/data/T0/f0000"},'
        yield b"]}"

    # Streamed (no Content-Length), and with a Content-Length that says so.
    assert_problem(client.post(f"{API}/stage", content=chunks(), headers=JSON), 413)
    big = b" " * 10_000 + b"{}"
    assert_problem(client.post(f"{API}/stage", content=big, headers=JSON), 413)
    assert stored_requests(svc) == 0


def test_more_files_than_the_cap(service):
    client, svc, paths = service
    body = {"files": [{"path": p} for p in paths[:4]]}
    r = client.post(f"{API}/stage", json=body, headers=AUTH)
    assert_problem(r, 429)
    assert int(r.headers["retry-after"]) > 0
    assert stored_requests(svc) == 0


WRONG_TYPES = [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/xml",
    "image/png",
]


def test_wrong_content_types_are_415(service):
    client, svc, paths = service
    body = b'{"files": [{"path": "%s"}]}' % paths[0].encode()
    for content_type in WRONG_TYPES:
        headers = {**AUTH, "Content-Type": content_type}
        assert_problem(client.post(f"{API}/stage", content=body, headers=headers), 415)
    assert stored_requests(svc) == 0


def test_json_content_types_and_none_are_accepted(service):
    client, _, paths = service
    body = b'{"files": [{"path": "%s"}]}' % paths[0].encode()
    for content_type in (None, "application/json", "application/json; charset=utf-8"):
        headers = dict(AUTH) if content_type is None else {**AUTH, "Content-Type": content_type}
        r = client.post(f"{API}/stage", content=body, headers=headers)
        assert r.status_code == 201, (content_type, r.text)


def test_unknown_fields_are_ignored_as_the_reference_document_requires(service):
    client, _, paths = service
    body = {"files": [{"path": paths[0], "colour": 1}], "priority": "high", "x": [1, {}]}
    assert client.post(f"{API}/stage", json=body, headers=AUTH).status_code == 201


NOT_IDS = ["x", "0", "-1", "' OR 1=1 --", "%00", "%2e%2e%2f%2e%2e", "a" * 5000, "ü" * 100,
           "00000000-0000-0000-0000-000000000000", "%ff", "%0a"]  # fmt: skip


def test_ids_that_are_not_ids_are_404(service):
    client, svc, _ = service
    for rid in NOT_IDS:
        for r in (
            client.get(f"{API}/stage/{rid}", headers=AUTH),
            client.delete(f"{API}/stage/{rid}", headers=AUTH),
            client.post(f"{API}/stage/{rid}/cancel", json={"paths": ["/x"]}, headers=AUTH),
            client.post(f"{API}/release/{rid}", json={"paths": ["/x"]}, headers=AUTH),
        ):
            assert r.status_code == 404, (rid[:20], r.request.method, r.text[:200])
            assert_problem(r, 404)
            # The id is quoted cut short, not echoed whole (5,000 characters were).
            assert len(r.text) < 1_000
    assert stored_requests(svc) == 0


BAD_AUTH = ["", "Bearer", "Bearer ", f"bearer  {TOKEN}x", f"Basic {TOKEN}",
            "Bearer " + "x" * 10_000, f"{TOKEN}", "Bearer \t",
            "Bearer tttttttttttttttttttt\u00e9".encode("latin-1")]  # fmt: skip


def test_malformed_tokens_are_401(service):
    client, svc, paths = service
    for auth in BAD_AUTH:
        headers = {"Authorization": auth} if auth else {}
        r = client.post(f"{API}/stage", json={"files": [{"path": paths[0]}]}, headers=headers)
        assert r.status_code == 401, (auth[:20], r.text[:200])
        assert_problem(r, 401)
        assert r.headers["www-authenticate"].startswith("Bearer")
    assert stored_requests(svc) == 0
