"""The systemd unit of docs/serve.md: taken from the page, checked by
`systemd-analyze verify` where it is installed, and its ExecStart run with
the real CLI, so the documented unit cannot drift from what the command
accepts or from how it stops."""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from serve_support import CLEAN, stage_yaml, wait_up
from system_packages import ensure_debian_packages

ROOT = Path(__file__).resolve().parents[1]


def unit_from_docs() -> str:
    """The systemd unit of docs/serve.md (its one ```ini block)."""
    text = (ROOT / "docs" / "serve.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```ini\n")[1:]]
    assert len(blocks) == 1, "docs/serve.md should hold exactly one ```ini block: the unit"
    return blocks[0]


def test_the_systemd_unit_in_the_docs_runs_the_real_cli(tmp_path):
    """The unit's settings are the ones docs/serve.md promises; its
    ExecStart, run by the real CLI against a test config in its
    WorkingDirectory, serves, and its KillSignal stops it cleanly (exit 0 or
    by SIGTERM, which Restart=on-failure does not restart) within
    TimeoutStopSec; the exit code of a bad config is the one
    RestartPreventExitStatus names."""
    unit = configparser.ConfigParser(interpolation=None, strict=True)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(unit_from_docs())
    svc = unit["Service"]
    assert svc["Type"] in ("exec", "simple")
    assert svc["User"] not in ("", "root") and svc["Restart"] == "on-failure"
    assert svc["KillSignal"] == "SIGTERM" and Path(svc["WorkingDirectory"]).is_absolute()
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    argv = shlex.split(svc["ExecStart"])
    assert Path(argv[0]).is_absolute() and argv[0].endswith("/bin/seekplan")
    assert argv[1] == "serve" and argv[argv.index("--config") + 1].endswith("stage.yaml")

    workdir = tmp_path / "var-lib-seekplan"
    workdir.mkdir()
    cfg, port, _ = stage_yaml(workdir)
    args = [str(cfg) if a == argv[argv.index("--config") + 1] else a for a in argv[1:]]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "seekplan", *args], cwd=workdir, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    try:
        wait_up(proc, port)
        start = time.monotonic()
        proc.send_signal(getattr(signal, svc["KillSignal"]))
        _, err = proc.communicate(timeout=float(svc["TimeoutStopSec"]))
        assert proc.returncode in CLEAN and "Traceback" not in err.decode(), err.decode()
        assert time.monotonic() - start < float(svc["TimeoutStopSec"])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    (workdir / "stage.yaml").write_text("drivez: 3\n")
    bad = subprocess.run([sys.executable, "-m", "seekplan", *args], cwd=workdir, env=env,
                         capture_output=True, timeout=60)  # fmt: skip
    assert str(bad.returncode) in svc["RestartPreventExitStatus"].split()


def test_the_systemd_unit_in_the_docs_passes_systemd_analyze(tmp_path, request):
    """systemd's own check (unknown keys, bad values, a missing program); the
    program is swapped for one that exists here, the rest is the doc's.
    systemd-analyze comes with Debian's systemd, installed when missing."""
    if shutil.which("systemd-analyze") is None:
        ensure_debian_packages(["systemd"], "the systemd unit test", request.config)
    analyze = shutil.which("systemd-analyze")
    assert analyze is not None, "the systemd package gave no systemd-analyze"
    text = unit_from_docs()
    program = shlex.split(next(line for line in text.splitlines()
                               if line.startswith("ExecStart=")).split("=", 1)[1])[0]  # fmt: skip
    unit = tmp_path / "seekplan-stage.service"
    unit.write_text(text.replace(f"ExecStart={program}", f"ExecStart={sys.executable}", 1))
    r = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and not (r.stdout + r.stderr).strip(), r.stdout + r.stderr
