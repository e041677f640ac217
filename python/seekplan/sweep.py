"""Run many independent points in parallel with a progress bar: local
processes by default, a Dask cluster when a scheduler address is given."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from seekplan.errors import Interrupted, SeekplanError

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
    is a Dask scheduler address (needs the ``dask`` extra). Ctrl-C stops the
    sweep (pending points are cancelled) and raises :class:`Interrupted`
    with the points finished so far.
    """
    results: list[Any] = [None] * len(points)
    done: dict[int, Any] = {}
    try:
        with _progress(label, quiet) as bar:
            task = bar.add_task(label, total=len(points))
            for i, r in _results(fn, points, workers, scheduler):
                results[i] = done[i] = r
                bar.advance(task)
    except KeyboardInterrupt:
        raise Interrupted(label, list(points), done) from None
    return results


def _results(
    fn: Callable[[Any], T], points: Sequence[Any], workers: int | None, scheduler: str | None
) -> Iterator[tuple[int, T]]:
    """(index, result) of every point, in the order they finish."""
    if scheduler:
        from dask.distributed import Client
        from dask.distributed import as_completed as dask_completed

        try:
            client = Client(scheduler)
        except (OSError, ValueError, TypeError) as e:
            # OSError: nothing answers there; ValueError/TypeError: not an address.
            raise SeekplanError(f"--scheduler {scheduler}: cannot connect ({e})") from None
        with client:
            futures = client.map(fn, points, pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            try:
                for fut in dask_completed(futures):
                    yield index[fut.key], fut.result()
            finally:
                client.cancel(futures)
    elif workers == 1 or len(points) <= 1:
        for i, p in enumerate(points):
            yield i, fn(p)
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
        try:
            futs = {pool.submit(fn, p): i for i, p in enumerate(points)}
            for fut in as_completed(futs):
                yield futs[fut], fut.result()
        finally:
            # On Ctrl-C, do not wait for the points still queued.
            pool.shutdown(wait=True, cancel_futures=True)


#: Local processes per core at most: the points are CPU-bound, and the pool
#: starts a process per queued point up to --workers (a reproduction queues
#: hundreds: --workers 100000 would start hundreds of ~80 MB interpreters).
WORKERS_PER_CORE = 4


def max_workers() -> int:
    """The most local worker processes a sweep may ask for on this machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


@dataclass(frozen=True)
class Executor:
    """Where a sweep's points run: ``workers`` local processes (default: one
    per core; 1 runs in this process), or the Dask cluster at ``scheduler``.
    Every reproduction takes one, so each runs on a cluster the same way."""

    workers: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.workers is None:
            return
        if self.workers < 1:
            raise SeekplanError(f"--workers: must be at least 1, got {self.workers}")
        if self.workers > max_workers():
            raise SeekplanError(
                f"--workers: at most {max_workers()} ({WORKERS_PER_CORE} per core here), "
                f"got {self.workers}"
            )

    def map(
        self, fn: Callable[[Any], T], points: Sequence[Any], label: str, quiet: bool = False
    ) -> list[T]:
        """``[fn(p) for p in points]`` here or on the cluster, in input order."""
        return run_points(
            fn, points, label=label, workers=self.workers, scheduler=self.scheduler, quiet=quiet
        )
