"""Run many independent points in parallel with a progress bar: local
processes by default, a Dask cluster when a scheduler address is given."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

T = TypeVar("T")


def _progress(label: str, quiet: bool) -> Progress:
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=quiet,
        transient=False,
    )


def run_points(
    fn: Callable[[Any], T],
    points: Sequence[Any],
    label: str = "running",
    workers: int | None = None,
    scheduler: str | None = None,
    quiet: bool = False,
) -> list[T]:
    """``[fn(p) for p in points]``, in parallel, results in input order.

    ``workers=1`` runs in this process (handy for debugging); ``scheduler``
    is a Dask scheduler address (needs the ``dask`` extra).
    """
    results: list[Any] = [None] * len(points)
    with _progress(label, quiet) as bar:
        task = bar.add_task(label, total=len(points))
        if scheduler:
            from dask.distributed import Client
            from dask.distributed import as_completed as dask_completed

            with Client(scheduler) as client:
                futures = client.map(fn, points, pure=False)
                index = {f.key: i for i, f in enumerate(futures)}
                for fut in dask_completed(futures):
                    results[index[fut.key]] = fut.result()
                    bar.advance(task)
        elif workers == 1 or len(points) <= 1:
            for i, p in enumerate(points):
                results[i] = fn(p)
                bar.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futs = {pool.submit(fn, p): i for i, p in enumerate(points)}
                for fut in as_completed(futs):
                    results[futs[fut]] = fut.result()
                    bar.advance(task)
    return results


@dataclass(frozen=True)
class Executor:
    """Where a sweep's points run: ``workers`` local processes (default: one
    per core; 1 runs in this process), or the Dask cluster at ``scheduler``.
    Every reproduction takes one, so each runs on a cluster the same way."""

    workers: int | None = None
    scheduler: str | None = None

    def map(
        self, fn: Callable[[Any], T], points: Sequence[Any], label: str, quiet: bool = False
    ) -> list[T]:
        """``[fn(p) for p in points]`` here or on the cluster, in input order."""
        return run_points(
            fn, points, label=label, workers=self.workers, scheduler=self.scheduler, quiet=quiet
        )
