"""Solves the MLR1's three calibrated figures from three published targets of
Sandstå & Midtstraum (docs/calibration.md):

- one random 32 KB request from BOT: 63.2 s (Table 1, 1 request);
- FIFO per request: about 45 s (section 5);
- MPScan* per request at 1024 requests: 5.4 s (Table 1).

The unknowns are ``traverse_s`` (T), ``reverse_s`` (R) and the per-locate
fixed cost ``locate_overhead_s`` (c); every other figure stays as in
devices.toml. Each target is measured on the model (the third by running
MPScan* on seeded lists), and Newton steps with a finite-difference Jacobian
solve the three together. Prints every step and the final figures.

    python benchmarks/calibrate_mlr1.py [--lists 8] [--steps 2]
"""

from __future__ import annotations

import argparse
import tempfile
import tomllib
from pathlib import Path

import numpy as np

from seekplan.build import require_release_build
from seekplan.catalog import make_drive
from seekplan.ordering import order
from seekplan.workload import uniform_batch

TARGETS = np.array([63.2, 45.0, 5.4])
FIGURES = ("traverse_s", "reverse_s", "locate_overhead_s")
BLOCK = 32 * 1024
SHIPPED = Path(__file__).parents[1] / "python/seekplan/data/devices.toml"


def _catalog(x: np.ndarray, where: Path) -> Path:
    """A devices file holding drive 'mlr1cal': the MLR1 with figures ``x``."""
    params = tomllib.loads(SHIPPED.read_text())["drives"]["mlr1"]["params"]
    params.update(dict(zip(FIGURES, (float(v) for v in x), strict=True)))
    body = "\n".join(f"{k} = {v!r}" for k, v in params.items())
    path = where / "devices.toml"
    head = '[drives.mlr1cal]\ntitle = "MLR1 under calibration"\nmodel = "serpentine"\n'
    path.write_text(f"{head}[drives.mlr1cal.params]\n{body}\n")
    return path


def measure(x: np.ndarray, lists: int, where: Path) -> np.ndarray:
    """The three targets' values on the model with figures ``x``."""
    devices = _catalog(x, where)
    drive = make_drive("mlr1cal", devices=devices)
    rng = np.random.default_rng(1)
    blocks = [int(b) for b in rng.integers(0, drive.capacity - 1, size=40_000)]
    from_bot = float(np.mean([drive.locate(0, b) + drive.read(b, BLOCK) for b in blocks]))
    pairs = zip(blocks, blocks[1:], strict=False)
    fifo = float(np.mean([drive.locate(a, b) + drive.read(b, BLOCK) for a, b in pairs]))
    n = 1024
    per = [
        order(
            uniform_batch(drive.capacity, n, BLOCK, 1_000_003 * n + k),
            drive="mlr1cal",
            algo="mpscan-star",
            devices=devices,
            bound=False,
        ).total_s
        / n
        for k in range(lists)
    ]
    return np.array([from_bot, fifo, float(np.mean(per))])


def _show(x: np.ndarray, y: np.ndarray) -> str:
    """Figures ``x`` and the targets' values ``y`` they give, rounded."""
    return f"{dict(zip(FIGURES, x.round(3).tolist(), strict=True))} -> {y.round(2).tolist()}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lists", type=int, default=8, help="MPScan* lists of 1024 per measure")
    ap.add_argument("--steps", type=int, default=2, help="Newton steps")
    args = ap.parse_args()
    params = tomllib.loads(SHIPPED.read_text())["drives"]["mlr1"]["params"]
    x = np.array([float(params[f]) for f in FIGURES])
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        y = measure(x, args.lists, where)
        print(f"start {_show(x, y)}")
        for step in range(args.steps):
            jac = np.empty((3, 3))
            for j, h in enumerate((1.0, 0.5, 0.25)):
                dx = np.zeros(3)
                dx[j] = h
                jac[:, j] = (measure(x + dx, args.lists, where) - y) / h
            x = x + np.linalg.solve(jac, TARGETS - y)
            y = measure(x, args.lists, where)
            print(f"step {step + 1} {_show(x, y)}")
    print(f"targets {TARGETS.tolist()}")


if __name__ == "__main__":
    require_release_build()
    main()
