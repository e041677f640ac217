"""`seekplan serve` at WLCG's agreed tape load, on loopback, with the
defaults (issue 35, item 4): a real server process on a catalog of
``--catalog-files`` files; one client stages ``--requests`` requests of
``--files-per-request`` files (WLCG: 5,000 x 200 per VO) from ``--clients``
threads; then polls; then the server is killed (SIGKILL) and restarted.

    python benchmarks/bench_serve_wlcg.py [--db sqlite|postgresql] [--requests 5000]
        [--files-per-request 200] [--catalog-files 1000000] [--clients 8] [--json out.json]

Reported: seconds from the process start to serving (the catalog load
included), files accepted per second, 429s (none expected), polls per
second while it holds the load, the server's RSS, and after the kill the
seconds to serving again and to every open file queued again. Every loop
is bounded in count and time; traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import yaml

from seekplan.build import require_release_build

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from serve_support import Postgres, free_port  # noqa: E402

API = "/api/v1"


def write_catalog(path: Path, n: int, tapes: int = 500) -> list[str]:
    """A catalog of ``n`` 1 GB files on ``tapes`` LTO-9 tapes; the paths."""
    paths = [f"/atlas/data/run{i // 1000:05d}/file{i:07d}.root" for i in range(n)]
    with path.open("w") as f:
        f.write("path,tape,block,size\n")
        for i, p in enumerate(paths):
            f.write(f"{p},T{i % tapes:04d},{(i // tapes) * 2000},1000000000\n")
    return paths


def rss_mb(pid: int) -> float:
    """The resident set of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(cfg: Path, port: int, log: Path, limit_s: float = 300) -> tuple[subprocess.Popen, float]:
    """`seekplan serve` started; seconds until discovery answered."""
    t = time.perf_counter()
    with log.open("ab") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "seekplan", "serve", "--config", str(cfg)],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    while time.perf_counter() - t < limit_s:
        if proc.poll() is not None:
            raise SystemExit(f"server exited {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/.well-known/wlcg-tape-rest-api", timeout=1)
            return proc, time.perf_counter() - t
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("server did not come up")


def stage_all(base: str, paths: list[str], requests: int, per: int, clients: int) -> dict:
    """Stages ``requests`` requests of ``per`` paths from ``clients``
    threads; their ids, the seconds taken and the answers by status."""
    bodies = [
        {"files": [{"path": p} for p in paths[k * per : (k + 1) * per]]} for k in range(requests)
    ]
    ids: list[str] = []
    codes: dict[int, int] = {}
    lock = threading.Lock()
    work = iter(range(requests))

    def client() -> None:
        with httpx.Client(timeout=120) as c:
            while True:
                with lock:
                    k = next(work, None)
                if k is None:
                    return
                r = c.post(f"{base}/stage", json=bodies[k])
                with lock:
                    codes[r.status_code] = codes.get(r.status_code, 0) + 1
                    if r.status_code == 201:
                        ids.append(r.json()["requestId"])

    t = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return {"ids": ids, "seconds": time.perf_counter() - t, "codes": codes}


def poll_rate(base: str, ids: list[str], seconds: float, pollers: int) -> float:
    """Status polls per second of ``pollers`` threads on random requests."""
    counts = [0] * pollers
    stop = time.monotonic() + seconds

    def poll(k: int) -> None:
        rng = random.Random(k)
        with httpx.Client(timeout=30) as c:
            while time.monotonic() < stop:
                c.get(f"{base}/stage/{rng.choice(ids)}").raise_for_status()
                counts[k] += 1

    threads = [threading.Thread(target=poll, args=(k,)) for k in range(pollers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return sum(counts) / seconds


def run(args: argparse.Namespace, db: str, tmp: Path) -> dict:
    """One measurement on database ``db``."""
    cat = tmp / "catalog.csv"
    paths = write_catalog(cat, args.catalog_files)
    random.Random(1).shuffle(paths)  # requests span tapes, as a dataset's files do
    need = args.requests * args.files_per_request
    assert need <= len(paths), "more files requested than catalogued"
    port = free_port()
    cfg = tmp / "stage.yaml"
    # The defaults, but for the port, the database and no access log (a
    # million lines to a file cost the run, not the service).
    cfg.write_text(
        yaml.safe_dump(
            {"catalog": str(cat), "db": db, "port": port, "access_log": False,
             "buffer": str(tmp / "buffer")}
        )
    )  # fmt: skip
    log = tmp / "serve.log"
    base = f"http://127.0.0.1:{port}{API}"
    proc, up_s = start(cfg, port, log)
    try:
        cpu0, own0 = cpu_s(proc.pid), time.process_time()
        staged = stage_all(base, paths, args.requests, args.files_per_request, args.clients)
        server_cpu, client_cpu = cpu_s(proc.pid) - cpu0, time.process_time() - own0
        polls = poll_rate(base, staged["ids"], args.poll_s, args.pollers)
        rss = rss_mb(proc.pid)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, restart_s = start(cfg, port, log)
    try:
        t = time.perf_counter()
        httpx.get(f"{base}/stage/{staged['ids'][-1]}", timeout=60).raise_for_status()
        first_poll_s = restart_s + time.perf_counter() - t
        while "Resuming after a start" in httpx.get(f"http://127.0.0.1:{port}/", timeout=60).text:
            if time.perf_counter() - t > args.limit_s:
                break
            time.sleep(0.5)
        requeued_s = restart_s + time.perf_counter() - t
        rss_after = rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return {
        "db": db.split(":")[0] if "://" in db else "sqlite",
        "catalog_files": args.catalog_files,
        "requests": args.requests,
        "files_per_request": args.files_per_request,
        "clients": args.clients,
        "start_to_serving_s": round(up_s, 2),
        "accepted": len(staged["ids"]),
        "answers": staged["codes"],
        "stage_s": round(staged["seconds"], 2),
        "files_per_s": round(len(staged["ids"]) * args.files_per_request / staged["seconds"]),
        "server_cpu_s_staging": round(server_cpu, 1),
        "client_cpu_s_staging": round(client_cpu, 1),
        "polls_per_s": round(polls),
        "rss_mb_at_load": round(rss),
        "restart_to_serving_s": round(restart_s, 2),
        "restart_to_first_poll_s": round(first_poll_s, 2),
        "restart_to_all_requeued_s": round(requeued_s, 2),
        "rss_mb_after_restart": round(rss_after),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--files-per-request", type=int, default=200)
    ap.add_argument("--catalog-files", type=int, default=1_000_000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--pollers", type=int, default=4)
    ap.add_argument("--poll-s", type=float, default=5.0)
    ap.add_argument("--limit-s", type=float, default=300.0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        pg = Postgres() if args.db == "postgresql" else None
        try:
            db = pg.fresh() if pg is not None else str(tmp / "stage.db")
            out = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count(), **run(args, db, tmp)}
        finally:
            if pg is not None:
                pg.stop()
    print(json.dumps(out), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    require_release_build()
    main()
