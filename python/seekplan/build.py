"""Which build of the core is loaded. `./dev test` builds it in the ci
profile (debug assertions on, no LTO), `./dev demo` and wheels in release;
a benchmark measures only the release build."""

from __future__ import annotations

import sys


def debug_assertions() -> bool:
    """Whether the loaded core checks debug assertions (a ci or dev build)."""
    from seekplan import _core

    return bool(_core.DEBUG_ASSERTIONS)


def require_release_build() -> None:
    """Exits with a message when the loaded core is not a release build:
    its times would be the test build's, slower and not what users run."""
    if debug_assertions():
        sys.exit(
            "this core was built by ./dev test (ci profile, debug assertions on); benchmarks "
            "measure the release build: run ./dev demo (or maturin develop --release) first"
        )
