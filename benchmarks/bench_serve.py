"""`seekplan serve` on loopback: how long a 100,000-file stage takes to be
accepted and polled, how many polls per second it answers, and -- with the
simulated backend on a KIT-like campaign -- tape-aware vs FIFO throughput and
mounts. Every loop is bounded in count and time; traffic goes to 127.0.0.1 only.

    python benchmarks/bench_serve.py [--files 100000] [--kit-scale 0.02] [--order dataset|random]
        [--drive lto9] [--algo best] [--drives 4] [--queue 2000] [--horizon-h H]
        [--json out.json]                                        (--files 0: the policy runs only)

The simulated backend runs on the modelled clock, which stands still while
the service computes, so ordering (``best`` needs seconds for 1,500 files),
commits and lock waits cost wall time, not drive time: the figures are the
model's. Tapes hold what the campaign's hold (KIT's 8.5 TB), the ordering
drive's locate model (``--drive``) orders and, for the positional read
model, times the reads.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import yaml

from seekplan.build import require_release_build

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from bench_serve_wlcg import poll_rate  # noqa: E402
from serve_support import free_port, wait_up  # noqa: E402

from seekplan.catalog import make_drive  # noqa: E402
from seekplan.recall import generate_kit  # noqa: E402
from seekplan.serve import build  # noqa: E402
from seekplan.serve.config import load_stage_config  # noqa: E402

API = "/api/v1"


def api_bench(
    tmp: Path, n_files: int, poll_s: float, pollers: int, time_scale: float
) -> dict[str, float]:
    """A real server process: one n-file stage with releases of another
    request's file sent during it (their latency), its GET, then polls/s."""
    cat = tmp / "catalog.csv"
    with cat.open("w") as f:
        f.write("path,tape,block,size\n")
        for i in range(n_files):
            # 1 GB files (1,908 LTO-9 blocks) 2,000 blocks apart: no two overlap
            f.write(f"/bench/f{i:07d},T{i % 100:03d},{(i // 100) * 2000},{1_000_000_000}\n")
    port = free_port()
    cfg = tmp / "stage.yaml"
    # No access log: nobody reads the stderr pipe, and the figures in
    # RESULTS.md were measured without one.
    settings = {
        "catalog": str(cat),
        "db": str(tmp / "b.db"),
        "port": port,
        "time_scale": time_scale,
        "access_log": False,
    }
    cfg.write_text(yaml.safe_dump(settings))
    proc = subprocess.Popen(
        [sys.executable, "-m", "seekplan", "serve", "--config", str(cfg)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_up(proc, port)
        base = f"http://127.0.0.1:{port}{API}"
        body = {"files": [{"path": f"/bench/f{i:07d}"} for i in range(n_files)]}
        with httpx.Client(timeout=60) as c:
            # Released before it is staged (at the default 1x the first
            # mount takes a minute): each release takes the same locks as
            # one of a staged file.
            pinned = c.post(f"{base}/stage", json={"files": [{"path": "/bench/f0000000"}]})
            pinned_id = pinned.json()["requestId"]
            t = time.perf_counter()
            result: list[httpx.Response] = []
            # Encoded before the clock starts: encoding 3 MB of JSON in the
            # poster thread held this process's interpreter lock for tens of
            # milliseconds, and the release thread's own timing waited for it.
            raw = json.dumps(body).encode()
            releases = releases_while(
                base,
                pinned_id,
                lambda: result.append(
                    httpx.post(
                        f"{base}/stage",
                        content=raw,
                        headers={"content-type": "application/json"},
                        timeout=120,
                    )
                ),
            )
            stage_s = time.perf_counter() - t
            r = result[0]
            assert r.status_code == 201, r.text
            rid = r.json()["requestId"]
            t = time.perf_counter()
            doc = c.get(f"{base}/stage/{rid}").json()
            get_s = time.perf_counter() - t
            assert len(doc["files"]) == n_files
            t = time.perf_counter()
            c.get(f"{base}/stage/{rid}")
            get_again_s = time.perf_counter() - t
            small = c.post(f"{base}/stage", json={"files": [{"path": "/bench/f0000001"}]})
            small_id = small.json()["requestId"]
            t = time.perf_counter()
            deleted: list[httpx.Response] = []
            delete_releases = releases_while(
                base,
                pinned_id,
                lambda: deleted.append(httpx.delete(f"{base}/stage/{rid}", timeout=120)),
            )
            delete_s = time.perf_counter() - t
            assert deleted[0].status_code == 200, deleted[0].text
        polls_per_s = poll_rate(base, [small_id], poll_s, pollers)
        return {
            "files": n_files,
            "stage_s": stage_s,
            "stage_files_per_s": n_files / stage_s,
            "releases_during_stage": len(releases),
            "release_median_ms": 1000 * releases[len(releases) // 2],
            "release_max_ms": 1000 * releases[-1],
            "delete_s": delete_s,
            "releases_during_delete": len(delete_releases),
            "release_during_delete_max_ms": 1000 * delete_releases[-1],
            "get_s": get_s,
            "get_cached_s": get_again_s,
            "polls_per_s": polls_per_s,
            "pollers": pollers,
        }
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def releases_while(base: str, pinned_id: str, work: Callable[[], None]) -> list[float]:
    """Runs ``work`` on a thread and, until it ends, releases a file of
    request ``pinned_id`` every 10 ms; the releases' seconds, sorted."""
    releases: list[float] = []
    worker = threading.Thread(target=work)
    worker.start()
    with httpx.Client(timeout=60) as client:
        while worker.is_alive():
            t = time.perf_counter()
            rel = client.post(f"{base}/release/{pinned_id}", json={"paths": ["/bench/f0000000"]})
            rel.raise_for_status()
            releases.append(time.perf_counter() - t)
            time.sleep(0.01)
    worker.join()
    return sorted(releases)


def kit_catalog(tmp: Path, scale: float, drive: str) -> tuple[Path, list[str], float]:
    """A KIT-like campaign (the recall generator) as a serve catalog on
    ``drive``'s tapes, in request order (datasets one after the other,
    spread across their tapes), and the campaign's tape capacity in GB (the
    service's ``tape_capacity_gb``, so that its session-fraction reads divide
    by what the core's do)."""
    camp = generate_kit(1, scale)
    model = make_drive(drive)
    ratio = 262_144 / int(model.block_bytes)
    paths = []
    cat = tmp / "kit.csv"
    with cat.open("w") as f:
        f.write("path,tape,block,size\n")
        for i in range(len(camp.tape)):
            p = f"/kit/{i:07d}"
            block = int(int(camp.block[i]) * ratio)
            f.write(f"{p},{camp.tape_names[int(camp.tape[i])]},{block},{int(camp.size[i])}\n")
            paths.append(p)
    return cat, paths, float(camp.capacity.max()) / 1e9


def policy_bench(
    tmp: Path, cat: Path, paths: list[str], policy: object, drives: int, queue: int, scale: float,
    limit_s: float, drive: str, algo: str, capacity_gb: float, horizon_h: float | None,
) -> dict[str, object]:  # fmt: skip
    """The whole campaign staged at once through the service (no HTTP): the
    virtual time to read it all (or what it reads in ``horizon_h`` virtual
    hours), its throughput and mounts."""
    cfg = load_stage_config(
        None,
        {
            "catalog": str(cat),
            "db": str(tmp / f"policy-{time.monotonic_ns()}.db"),
            "buffer": str(tmp / f"buffer-{time.monotonic_ns()}"),
            "time_scale": scale,
            "drive": drive,
            "tape_capacity_gb": capacity_gb,
            "order": algo,
            "drives": drives,
            "policy": policy,
            "library": {"queue_size": queue},
            "limits": {"max_files_per_request": max(len(paths), 1)},
        },
    )
    _app, svc = build(cfg)
    # The read time the model asked for, summed over the drives: what the
    # virtual time would be made of without the service's own CPU time.
    modelled = [0.0]
    model_seconds = svc.backend.read_seconds

    def counted(job: object) -> float:
        seconds = model_seconds(job)
        modelled[0] += seconds
        return seconds

    svc.backend.read_seconds = counted
    # the virtual time each read ends, taken by the drive's own thread: once
    # the drives are idle the clock runs on between this loop's polls
    ends = [0.0]
    read = svc.backend.read

    def timed_read(d: int, job: object) -> None:
        read(d, job)
        ends.append(svc.clock.now())

    svc.backend.read = timed_read
    svc.pause(True)
    svc.start()
    rid = svc.stage("bench", paths)
    t0, real0 = svc.clock.now(), time.monotonic()
    svc.pause(False)
    deadline = real0 + limit_s
    horizon = math.inf if horizon_h is None else horizon_h * 3600

    def running() -> bool:
        if svc.clock.now() - t0 >= horizon:
            return False
        return svc.summaries[rid].completed_at is None and time.monotonic() < deadline

    while running():
        time.sleep(0.05)
    svc.pause(True)
    done = svc.summaries[rid].counts["COMPLETED"]
    virtual = (max(ends) if done == len(paths) else svc.clock.now()) - t0
    out = {
        "policy": policy,
        "files": len(paths),
        "completed": done,
        "virtual_h": virtual / 3600,
        "real_s": time.monotonic() - real0,
        "mounts": int(svc.stats.mounts._value.get()),
        "mb_s": svc.stats.bytes_read._value.get() / 1e6 / virtual,
        # share of the drives' virtual time spent in modelled reads
        "reading_share": modelled[0] / (drives * virtual),
    }
    svc.stop()
    return out


def core_bench(
    scale: float, order: str, drives: int, queue: int, horizon_h: float | None
) -> list[dict[str, object]]:
    """The same campaign, drives and queue in the core's recall simulator
    (its own tapes, 8.5 TB each), with the service's dispatch (arrivals
    inserted into the plan being read): the model's answer. FIFO over a
    shuffled list is the core's `random` requester, over the dataset order
    its `by-dataset`."""
    from seekplan.recall.config import parse_config
    from seekplan.recall.run import simulate

    fifo = {"name": "random" if order == "random" else "by-dataset"}
    rows = []
    for strategy in (fifo, {"name": "by-tapes", "tapes": 2}, {"name": "by-tapes", "tapes": drives}):
        cfg = parse_config(
            {
                # the service inserts arrivals into a mounted tape's plan
                "library": {"drives": drives, "queue_size": queue, "arrivals": "insert"},
                "workload": {"kind": "kit", "seed": 1, "scale": scale},
                "strategy": strategy,
                "duration_h": 1000 if horizon_h is None else horizon_h,
            }
        )
        m = simulate(cfg)["metrics"]
        hours = m["last_staged_s"] / 3600 if horizon_h is None else horizon_h
        rows.append(
            {
                "core": strategy,
                "virtual_h": hours,
                "mb_s": m["bytes_staged"] / 1e6 / (hours * 3600),
                "mounts": m["mounts"],
                "completed": m["files_staged"],
            }
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--poll-s", type=float, default=5.0)
    ap.add_argument("--pollers", type=int, default=4)
    ap.add_argument("--kit-scale", type=float, default=0.02)
    ap.add_argument(
        "--order",
        choices=("dataset", "random"),
        default="dataset",
        help="order the client lists the files in: datasets one after the other, or "
        "shuffled (seeded), as the paper's 'random' requester",
    )
    ap.add_argument("--drives", type=int, default=4)
    ap.add_argument(
        "--drive",
        default="lto9",
        help="catalogued drive of the service: its locates order reads, and its capacity is "
        "the tape capacity the session-fraction read model divides by (KIT's tapes: 8.5 TB)",
    )
    ap.add_argument("--queue", type=int, default=2000)
    ap.add_argument("--algo", default="best", help="ordering algorithm on a mounted tape")
    ap.add_argument("--time-scale", type=float, default=5000.0)
    ap.add_argument("--limit-s", type=float, default=240.0)
    ap.add_argument(
        "--horizon-h",
        type=float,
        help="stop after this many virtual hours (the paper's Table 1: 60) instead of at "
        "the last file; throughput is then bytes read over the horizon",
    )
    ap.add_argument("--json", type=Path)
    ap.add_argument("--api-only", action="store_true", help="skip the policy runs")
    ap.add_argument(
        "--api-time-scale",
        type=float,
        default=1.0,
        help="the API run's time scale (1: the service's default, drives at real speed)",
    )
    args = ap.parse_args()
    out: dict[str, object] = {"date": time.strftime("%Y-%m-%d")}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if args.files > 0:
            out["api"] = api_bench(tmp, args.files, args.poll_s, args.pollers, args.api_time_scale)
            print(json.dumps(out["api"]), flush=True)
        if args.api_only:
            return
        cat, paths, capacity_gb = kit_catalog(tmp, args.kit_scale, args.drive)
        if args.order == "random":
            random.Random(1).shuffle(paths)
        out["order"] = args.order
        out["drive"] = args.drive
        out["algo"] = args.algo
        out["time_scale"] = args.time_scale
        runs = []
        # by-tapes with 2 tapes (the paper's best at queue 30,000) and with as
        # many tapes as drives (its best at queue 2,000, §4.3).
        policies = (
            "fifo",
            {"name": "by-tapes", "tapes": 2},
            {"name": "by-tapes", "tapes": args.drives},
        )
        for policy in policies:
            r = policy_bench(
                tmp,
                cat,
                paths,
                policy,
                args.drives,
                args.queue,
                args.time_scale,
                args.limit_s,
                args.drive,
                args.algo,
                capacity_gb,
                args.horizon_h,
            )
            print(json.dumps(r), flush=True)
            runs.append(r)
        out["policies"] = runs
        out["core"] = core_bench(
            args.kit_scale, args.order, args.drives, args.queue, args.horizon_h
        )
        for row in out["core"]:
            print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    require_release_build()
    main()
