"""Debian packages a test needs, installed at its set-up when missing.

CI runs the tests as root on a fresh Debian machine, so a test that talks to
a real client (gfal2, a browser) installs that client itself. Only missing
packages are installed, without recommends, to keep the set-up short. The
test is skipped, naming the packages and the command, only when they cannot
be installed here (no apt-get, not root, no package mirror)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence

import pytest


def say(config: pytest.Config | None, message: str) -> None:
    """Prints ``message`` past pytest's capture, so the set-up says what it does."""
    capman = config.pluginmanager.getplugin("capturemanager") if config else None
    if capman is None:
        print(message, flush=True)
        return
    with capman.global_and_fixture_disabled():
        print(message, flush=True)


def missing_debian_packages(packages: Sequence[str]) -> list[str]:
    """The packages of ``packages`` that dpkg does not list as installed."""
    if shutil.which("dpkg-query") is None:
        return list(packages)
    missing = []
    for pkg in packages:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True, timeout=60
        )
        if out.returncode != 0 or not out.stdout.endswith(" installed"):
            missing.append(pkg)
    return missing


def ensure_debian_packages(
    packages: Sequence[str], why: str, config: pytest.Config | None = None
) -> None:
    """Installs whichever of ``packages`` are missing (``apt-get update``, then
    ``apt-get install -y --no-install-recommends``); skips the calling test,
    naming the packages, when that cannot be done here."""
    missing = missing_debian_packages(packages)
    if not missing:
        return
    hint = f"apt-get install --no-install-recommends {' '.join(missing)}"
    if shutil.which("apt-get") is None:
        pytest.skip(f"{why} needs the Debian packages {' '.join(missing)}: no apt-get here")
    if os.geteuid() != 0:
        pytest.skip(
            f"{why} needs the Debian packages {' '.join(missing)}, and only root can "
            f"install them: run '{hint}' as root"
        )
    say(config, f"\n{why}: installing the Debian packages {' '.join(missing)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    steps = (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
    )
    for cmd in steps:
        say(config, "+ " + " ".join(cmd))
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
        except subprocess.TimeoutExpired:
            pytest.skip(f"{why}: '{' '.join(cmd)}' took over 15 minutes; run '{hint}'")
        if out.returncode != 0:
            pytest.skip(
                f"{why} needs the Debian packages {' '.join(missing)}, which could not be "
                f"installed ('{' '.join(cmd)}' exited {out.returncode}: "
                f"{(out.stderr or out.stdout).strip()[-400:]}); run '{hint}'"
            )
    still = missing_debian_packages(missing)
    if still:
        # apt-get said it installed them: a package that is still missing is a
        # broken installation, not an environment without a mirror.
        pytest.fail(f"apt-get installed {' '.join(missing)} but dpkg lists {still} as missing")
    say(config, f"{why}: installed {' '.join(missing)}")


def chromium_path() -> str:
    """Debian's chromium, installed here if missing; fails (not skips) when
    it cannot be installed: the page checks are part of what CI proves."""
    found = shutil.which("chromium")
    if found:
        return found
    steps = (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"])
    for cmd in steps:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            pytest.fail(
                f"cannot install Debian's chromium for the page tests ({' '.join(cmd)}: "
                f"{out.stderr.strip()[-500:]}); install it with 'apt-get install chromium'"
            )
    found = shutil.which("chromium")
    if not found:
        pytest.fail("apt-get installed chromium but no 'chromium' executable is on PATH")
    return found
