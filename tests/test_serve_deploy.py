"""`seekplan serve` in production (issue 35, item 6): HTTPS through uvicorn's
TLS, the access log, X-Forwarded-* from allowed proxies only, gfal2's
and gfal2's trailing-slash routes -- against real server processes where the
transport matters."""

from __future__ import annotations

import logging
import shutil
import signal
import ssl
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient
from serve_support import CLEAN, server, stage_yaml, stderr_of, write_catalog
from system_packages import ensure_debian_packages

from seekplan.serve import build
from seekplan.serve.access_log import AccessLog, escape
from seekplan.serve.config import load_stage_config

API = "/api/v1"
DISCOVERY = "/.well-known/wlcg-tape-rest-api"
ROOT = Path(__file__).resolve().parents[1]


def self_signed(directory: Path, name: str = "server") -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl req)."""
    if shutil.which("openssl") is None:
        ensure_debian_packages(["openssl"], "the TLS tests (a test certificate)")
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def stop(proc: subprocess.Popen[bytes], config: Path) -> str:
    """SIGTERM, the exit checked, and what the server of ``config`` wrote
    to stderr."""
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    err = stderr_of(config).read_text()
    assert proc.returncode in CLEAN and "Traceback" not in err, err
    return err


def test_https_discovery_stage_and_poll(tmp_path):
    cert, key = self_signed(tmp_path)
    cfg, port, paths = stage_yaml(tmp_path, tls_cert="server.pem", tls_key="server.key")
    trust = ssl.create_default_context(cafile=str(cert))
    base = f"https://127.0.0.1:{port}"
    with server(cfg, port, scheme="https", verify=trust) as proc:
        with httpx.Client(base_url=base, verify=trust, timeout=10) as c:
            uri = c.get(DISCOVERY).json()["endpoints"][0]["uri"]
            assert uri == f"{base}{API}"
            r = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths[:3]]})
            assert r.status_code == 201 and r.headers["location"].startswith(f"{base}{API}/")
            deadline = time.monotonic() + 30
            while "completedAt" not in (doc := c.get(r.headers["location"]).json()):
                assert time.monotonic() < deadline, doc
                time.sleep(0.05)
            assert {f["state"] for f in doc["files"]} == {"COMPLETED"}
        # plain HTTP is not served on the TLS port
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}{DISCOVERY}", timeout=2)
        err = stop(proc, cfg)
    assert f"status page at https://127.0.0.1:{port}/" in err
    # the access log is on by default, on stderr
    assert '"POST /api/v1/stage HTTP/1.1" 201' in err


def _cli_error(cli, tmp_path, *args):
    write_catalog(tmp_path / "catalog.csv", per_tape=1)
    r = cli("serve", "--catalog", tmp_path / "catalog.csv", "--db", tmp_path / "s.db",
            "--port", "0", *args)  # fmt: skip
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    return r.output


def test_tls_errors_exit_2_before_serving(cli, tmp_path):
    cert, key = self_signed(tmp_path)
    other_cert, _ = self_signed(tmp_path, "other")
    out = _cli_error(cli, tmp_path, "--tls-cert", cert)
    assert "tls_key: tls_cert is given without it" in out
    out = _cli_error(cli, tmp_path, "--tls-key", key)
    assert "tls_cert: tls_key is given without it" in out
    out = _cli_error(cli, tmp_path, "--tls-cert", other_cert, "--tls-key", key)
    assert f"tls_cert {other_cert} and tls_key {key}: not a PEM certificate and its key" in out
    out = _cli_error(cli, tmp_path, "--tls-cert", cert, "--tls-key", tmp_path / "missing.key")
    assert "missing.key: cannot read (No such file or directory)" in out
    out = _cli_error(cli, tmp_path, "--tls-cert", tmp_path / "catalog.csv", "--tls-key", key)
    assert "not a PEM certificate" in out


def test_an_encrypted_key_is_refused_not_prompted_for(cli, tmp_path):
    cert, key = self_signed(tmp_path)
    locked = tmp_path / "locked.key"
    subprocess.run(["openssl", "pkey", "-in", str(key), "-out", str(locked), "-aes256",
                    "-passout", "pass:secret"], check=True, capture_output=True)  # fmt: skip
    out = _cli_error(cli, tmp_path, "--tls-cert", cert, "--tls-key", locked)
    assert "the key is encrypted" in out


def test_tls_paths_in_the_config_are_relative_to_it(tmp_path):
    (tmp_path / "etc").mkdir()
    cfg = tmp_path / "etc" / "stage.yaml"
    settings = {"tls_cert": "tls/c.pem", "tls_key": "tls/k.pem", "access_log": "access.log"}
    cfg.write_text(yaml.safe_dump({"catalog": "c.csv", **settings}))
    loaded = load_stage_config(cfg, {})
    assert loaded.tls_cert == str(tmp_path / "etc" / "tls" / "c.pem")
    assert loaded.tls_key == str(tmp_path / "etc" / "tls" / "k.pem")
    assert loaded.access_log == str(tmp_path / "etc" / "access.log")


def test_forwarded_proto_is_believed_only_from_allowed_addresses(tmp_path):
    """From 127.0.0.1 (allowed by default) X-Forwarded-Proto: https makes
    discovery say https and X-Forwarded-For names the client in the log;
    from 127.0.0.2 both are ignored."""
    cfg, port, _ = stage_yaml(tmp_path, access_log="access.log")
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}
    with server(cfg, port) as proc:
        proxy = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.1"))
        stranger = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        url = f"http://127.0.0.1:{port}{DISCOVERY}"
        with proxy, stranger:
            allowed = proxy.get(url, headers=forwarded).json()["endpoints"][0]["uri"]
            refused = stranger.get(url, headers=forwarded).json()["endpoints"][0]["uri"]
            plain = proxy.get(url).json()["endpoints"][0]["uri"]
        stop(proc, cfg)
    assert allowed == f"https://127.0.0.1:{port}{API}"
    assert refused == plain == f"http://127.0.0.1:{port}{API}"
    log = (tmp_path / "access.log").read_text().splitlines()
    assert len(log) >= 3  # wait_up's discovery polls too
    assert f'192.0.2.7:0 "GET {DISCOVERY} HTTP/1.1" 200' in log[-3]
    assert "127.0.0.2:" in log[-2] and "192.0.2.7" not in log[-2]


def test_forwarded_allow_ips_can_name_another_proxy(tmp_path):
    """With only 127.0.0.2 allowed, the loopback client's headers are ignored."""
    cfg, port, _ = stage_yaml(tmp_path, forwarded_allow_ips=["127.0.0.2/32"], access_log=False)
    with server(cfg, port) as proc:
        url = f"http://127.0.0.1:{port}{DISCOVERY}"
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as proxy:
            via_proxy = proxy.get(url, headers={"X-Forwarded-Proto": "https"}).json()
        direct = httpx.get(url, headers={"X-Forwarded-Proto": "https"}).json()
        err = stop(proc, cfg)
    assert via_proxy["endpoints"][0]["uri"].startswith("https://")
    assert direct["endpoints"][0]["uri"].startswith("http://")
    assert DISCOVERY not in err  # access_log: false


@pytest.mark.parametrize(
    ("value", "needle"),
    [("10.0.0.0/33", "neither an IP address"), ("proxy.example", "neither an IP address"),
     ("", "give true, false or a file")],
)  # fmt: skip
def test_bad_proxy_and_log_settings_name_the_field(tmp_path, value, needle):
    field = "access_log" if value == "" else "forwarded_allow_ips"
    with pytest.raises(Exception, match=f"{field}.*{needle}"):
        load_stage_config(None, {"catalog": "c.csv", field: value})


def test_an_unwritable_access_log_exits_2(cli, tmp_path):
    cfg, _, _ = stage_yaml(tmp_path, access_log="no/such/dir/access.log")
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2 and "access_log: cannot open" in r.output, r.output


def test_gfal2s_trailing_slash_routes_answer_without_a_redirect(tmp_path):
    catalog = tmp_path / "catalog.csv"
    paths = write_catalog(catalog, per_tape=1)
    app, _ = build(load_stage_config(None, {"catalog": str(catalog), "db": str(tmp_path / "d.db"),
                                            "time_scale": 1e5}))  # fmt: skip
    with TestClient(app, follow_redirects=False) as c:
        r = c.post(f"{API}/stage/", json={"files": [{"path": paths[0]}]})
        assert r.status_code == 201 and r.json()["requestId"], r.text
        assert r.headers["location"].endswith(f"{API}/stage/{r.json()['requestId']}")
        r = c.post(f"{API}/archiveinfo/", json={"paths": [paths[0]]})
        assert r.status_code == 200 and r.json()[0]["path"] == paths[0], r.text


def test_the_access_log_escapes_what_a_client_controls_and_times_each_request(tmp_path):
    catalog = tmp_path / "catalog.csv"
    write_catalog(catalog, per_tape=1)
    app, _ = build(load_stage_config(None, {"catalog": str(catalog), "db": str(tmp_path / "d.db")}))
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("test.access")
    logger.addHandler(Keep())
    logger.setLevel(logging.INFO)
    logger.propagate = False
    with TestClient(AccessLog(app, logger)) as c:
        c.get(f"{API}/stage/x%0A127.0.0.1%20%22GET%20%2F%22%20200%1b%5B2J")
        c.post(f"{API}/stage", content=b"[")
    assert len(lines) == 2, lines
    forged, bad = lines
    assert "\n" not in forged and "\x1b" not in forged
    assert r'"GET /api/v1/stage/x\n127.0.0.1 \"GET /\" 200\x1b[2J HTTP/1.1" 404 ' in forged
    assert bad.startswith("testclient:") and '"POST /api/v1/stage HTTP/1.1" 400 ' in bad
    assert bad.endswith(" ms") and float(bad.split()[-2]) >= 0


def test_escape_keeps_printable_ascii():
    assert escape("/a b/c-d_e.f~") == "/a b/c-d_e.f~"
    assert escape('a"b\\c\x00\x7fé\u2028') == 'a\\"b\\\\c\\x00\\x7f\\xe9\\u2028'
