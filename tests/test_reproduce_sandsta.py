"""`seekplan reproduce sandsta --quick` writes the promised results and report."""

from __future__ import annotations

import json
import re

from seekplan.experiments.sandsta import OPT_MAX, SIZES


def test_quick_reproduction_writes_results_claims_and_report(cli, tmp_path):
    out = tmp_path / "sandsta"
    r = cli("reproduce", "sandsta", "--quick", "--out", out, "--workers", "2")
    assert r.exit_code == 0, r.output
    data = json.loads((out / "results.json").read_text())
    per, cpu = data["per_request_s"], data["cpu_s"]
    for algo in ("read", "fifo", "sort", "scan", "loss", "sltf", "mpscan", "mpscan-star"):
        assert sorted(map(int, per[algo])) == SIZES
        assert sorted(map(int, cpu[algo])) == SIZES
    assert max(map(int, per["opt"])) == OPT_MAX
    # OPT is exact: no heuristic beats it on the same lists.
    for n in per["opt"]:
        assert per["opt"][n] <= per["sltf"][n] + 1e-9
        assert per["opt"][n] <= per["mpscan-star"][n] + 1e-9
    assert all(per["best"][n] <= per["mpscan-star"][n] + 1e-9 for n in per["best"])
    claims = data["claims"]
    assert len(claims) >= 5
    assert all(set(c) == {"id", "text", "holds", "evidence"} for c in claims)
    assert {"mpscan-star-best-to-1000", "table1-mlr1"} <= {c["id"] for c in claims}
    assert "table1" in data and "dlt2000" in data["table1"]
    # LOSS vs MPScan* is judged on paired lists, its interval around its mean.
    for n, ci in data["loss_vs_mpscan_star"].items():
        assert n in ("1024", "2048") and ci["lists"] >= 1
        assert ci["lo"] <= ci["ratio"] <= ci["hi"]
    # The Table 1 sizes calibrated on are named, not counted as evidence.
    table1 = next(c for c in claims if c["id"] == "table1-mlr1")["evidence"]
    for n, paper in ((1, 63.2), (1024, 5.4)):
        assert re.search(rf"\b{n}: [\d.]+ s vs {paper} \([^)]*\) calibrated", table1)
    html = (out / "report.html").read_text()
    assert "Table 1" in html and "data:image/png;base64" in html
    assert (out / "fig8_per_request.png").stat().st_size > 1000


def test_unknown_reproduction_is_a_clear_error(cli, tmp_path):
    r = cli("reproduce", "nosuchpaper", "--out", tmp_path)
    assert r.exit_code == 2 and "unknown reproduction" in r.output


def test_demo_writes_a_report(cli, tmp_path):
    r = cli("demo", "--out", tmp_path / "demo")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "demo" / "report.html").exists()
    rows = (tmp_path / "demo" / "order.csv").read_text().splitlines()
    assert rows[0] == "rank,id,block,size,start_s,end_s" and len(rows) == 201
    # The headline figures are printed, and best is measured faster than FIFO.
    best, fifo = re.search(r"best ([\d.]+) min, FIFO ([\d.]+) min", r.output).groups()
    assert float(best) < float(fifo)
    assert re.search(r"by 4 tapes \d+ MB/s, random \d+ MB/s", r.output)
