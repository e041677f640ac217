"""A catalog's paths by row, and the row of a path, without a Python object
per path.

A million paths as Python strings in a dict took 146 MB (the strings and
the table, tracemalloc); here they are one Arrow string array and two sorted
columns of 64-bit hashes and rows, 61.0 MB (their ``nbytes``, for the
1,000,000 paths of ``benchmarks/bench_serve_wlcg.py``'s catalog). A lookup hashes the asked paths,
finds their hashes by binary search and compares the paths found with the
asked ones in one Arrow call, so a path that only shares a hash is never
taken for another; the few hashes two catalogued paths share are kept
aside with all their rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: Paths hashed per batch while the index is built: the Python strings of
#: one batch exist at a time, not a million of them.
BUILD_BATCH = 1 << 16
#: Paths looked up per batch: the Arrow array of a batch's paths is built
#: in one call that holds the interpreter lock (27.8 ms for a 100,000-file
#: request, which a release sent meanwhile waited for; a GIL probe in the
#: server, 2026-11-28).
LOOKUP_BATCH = 4096


def _hash(path: str) -> int:
    """A path's 64-bit key (Python's string hash)."""
    return hash(path)


def _hashes(paths: Sequence[str]) -> np.ndarray:
    return np.fromiter(map(_hash, paths), dtype=np.int64, count=len(paths))


class PathIndex:
    """Distinct paths numbered by row (their order as given)."""

    def __init__(self, paths: pa.Array | pa.ChunkedArray | Sequence[str]) -> None:
        if isinstance(paths, pa.Array | pa.ChunkedArray):
            array = paths.cast(pa.large_string())
        else:
            array = pa.array(list(paths), type=pa.large_string())
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        self._paths: pa.LargeStringArray = array
        n = len(array)
        hashes = np.empty(n, dtype=np.int64)
        for start in range(0, n, BUILD_BATCH):
            hashes[start : start + BUILD_BATCH] = _hashes(
                array.slice(start, BUILD_BATCH).to_pylist()
            )
        order = np.argsort(hashes, kind="stable")
        self._sorted = hashes[order]
        self._rows = order.astype(np.int64)
        #: Hashes two or more paths share, with all their rows.
        self._shared: dict[int, list[int]] = {}
        same = np.flatnonzero(self._sorted[1:] == self._sorted[:-1])
        for k in same.tolist():
            rows = self._shared.setdefault(int(self._sorted[k]), [int(self._rows[k])])
            rows.append(int(self._rows[k + 1]))

    def __len__(self) -> int:
        return len(self._paths)

    def path(self, row: int) -> str:
        """The path of ``row``."""
        return str(self._paths[row].as_py())

    def all_paths(self) -> list[str]:
        """Every path in row order (a Python string each: for tests and
        small catalogs)."""
        return [str(p) for p in self._paths.to_pylist()]

    def rows(self, paths: Sequence[str]) -> np.ndarray:
        """The row of each of ``paths`` (-1 for a path not indexed), looked
        up :data:`LOOKUP_BATCH` at a time."""
        n = len(paths)
        if n == 0 or len(self._sorted) == 0:
            return np.full(n, -1, dtype=np.int64)
        if n > LOOKUP_BATCH:
            return np.concatenate(
                [self.rows(paths[i : i + LOOKUP_BATCH]) for i in range(0, n, LOOKUP_BATCH)]
            )
        wanted = _hashes(paths)
        at = np.minimum(np.searchsorted(self._sorted, wanted), len(self._sorted) - 1)
        rows = np.where(self._sorted[at] == wanted, self._rows[at], -1)
        found = np.flatnonzero(rows >= 0)
        if found.size:
            asked = pa.array([paths[k] for k in found.tolist()], type=pa.large_string())
            same = pc.equal(self._paths.take(pa.array(rows[found])), asked)
            rows[found[~same.to_numpy(zero_copy_only=False)]] = -1
        if self._shared:
            for k in np.flatnonzero(np.isin(wanted, list(self._shared))).tolist():
                rows[k] = self._shared_row(paths[k], int(wanted[k]))
        return rows

    def _shared_row(self, path: str, key: int) -> int:
        for row in self._shared[key]:
            if self.path(row) == path:
                return row
        return -1

    def row(self, path: str) -> int | None:
        """The row of ``path``, or None: one binary search and one comparison
        (a cancel of a large request looks its paths up one by one; through
        :meth:`rows` that took 54 us a path, here a few)."""
        key = _hash(path)
        at = int(np.searchsorted(self._sorted, key))
        if at == len(self._sorted) or self._sorted[at] != key:
            return None
        if key in self._shared:
            row = self._shared_row(path, key)
            return None if row < 0 else row
        row = int(self._rows[at])
        return row if self.path(row) == path else None
