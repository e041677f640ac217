"""A progress line for long `best` runs: the phase, the best total so far and
its gap to the lower bound, shown only once a run has taken a while."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from seekplan.ordering import ProgressCallback

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

# Runs shorter than this print nothing: most batches finish well inside it,
# and a bar that flashes for a fraction of a second is noise.
SHOW_AFTER_S = 2.0


def describe(phase: str, best_s: float | None, bound_s: float | None, elapsed_s: float) -> str:
    """One line on a running search: phase, best total, gap to the bound,
    seconds since the run started."""
    text = f"best: {phase}"
    if best_s is not None:
        text += f", best total {best_s:,.1f} s"
        if bound_s is not None and bound_s > 0:
            text += f", gap {100 * (best_s / bound_s - 1):.3f} %"
    return f"{text} ({elapsed_s:.0f} s)"


@contextmanager
def search_progress(console: Console, enabled: bool = True) -> Iterator[ProgressCallback | None]:
    """A progress callback for :func:`seekplan.order` that draws a transient
    line on ``console`` once the run passes :data:`SHOW_AFTER_S`; ``None``
    when disabled (e.g. ``--json`` or a console that is not a terminal)."""
    if not enabled:
        yield None
        return
    bar: Progress | None = None
    task = None

    def update(phase: str, best_s: float | None, bound_s: float | None, elapsed: float) -> None:
        nonlocal bar, task
        if elapsed < SHOW_AFTER_S:
            return
        line = describe(phase, best_s, bound_s, elapsed)
        if bar is None:
            # rich is imported here, not with the module: most runs end
            # before the line is due, and the import cost every `order` ~20 ms.
            from rich.progress import Progress, SpinnerColumn, TextColumn

            bar = Progress(
                SpinnerColumn(), TextColumn("{task.description}"), console=console, transient=True
            )
            bar.start()
            task = bar.add_task(line, total=None)
        assert task is not None
        bar.update(task, description=line)

    try:
        yield update
    finally:
        if bar is not None:
            bar.stop()
