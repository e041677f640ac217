"""The set-up script's own fault paths (the suite runs the script itself in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_clippy_driver_stops_before_any_build_naming_the_fix(tmp_path):
    """`./dev test` and `./dev fuzz` lint the build with clippy-driver; on a
    PATH without it the script stops at once, says how to install it, and
    builds nothing."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "dirname", "od", "tr"):
        found = shutil.which(tool)
        assert found, f"{tool} is needed to run ./dev"
        (bin_dir / tool).symlink_to(found)
    done = subprocess.run(
        [str(ROOT / "dev"), "fuzz"],
        env={**os.environ, "PATH": str(bin_dir)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "clippy-driver not found" in done.stderr
    assert "rustup component add clippy" in done.stderr
    assert "Compiling" not in done.stderr
