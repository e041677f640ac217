"""The catalog's path index (``serve.path_index``): rows found by hash and
confirmed by the path itself, so a path that shares a hash with a
catalogued one is never taken for it."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from seekplan.serve import path_index
from seekplan.serve.path_index import PathIndex

PATHS = [f"/data/run{i // 7}/f{i}.root" for i in range(300)] + ["/ü/naïve", "/a b"]


@pytest.mark.parametrize("given", ["list", "arrow", "chunked"])
def test_every_path_is_found_at_its_row_and_others_are_not(given):
    source = {
        "list": PATHS,
        "arrow": pa.array(PATHS),
        "chunked": pa.chunked_array([PATHS[:100], PATHS[100:]]),
    }[given]
    index = PathIndex(source)
    assert len(index) == len(PATHS) and index.all_paths() == PATHS
    asked = PATHS[::-1] + ["/data/run0/f0.roo", "", "/nope"]
    expected = list(range(len(PATHS)))[::-1] + [-1, -1, -1]
    assert index.rows(asked).tolist() == expected
    assert index.row("/ü/naïve") == len(PATHS) - 2 and index.row("/x") is None
    assert [index.row(p) for p in PATHS] == list(range(len(PATHS)))
    assert index.path(5) == PATHS[5]
    assert index.rows([]).tolist() == []


def test_paths_sharing_a_hash_are_told_apart(monkeypatch):
    # Three hash values for everything: most paths share theirs.
    monkeypatch.setattr(path_index, "_hash", lambda p: len(p) % 3)
    index = PathIndex(PATHS)
    rng = np.random.default_rng(1)
    picks = rng.integers(0, len(PATHS), 50).tolist()
    asked = [PATHS[k] for k in picks] + ["/zz", "/zzz", "/zzzz"]
    assert index.rows(asked).tolist() == picks + [-1, -1, -1]
    assert [index.row(p) for p in asked] == picks + [None, None, None]


def test_an_empty_index_finds_nothing():
    assert PathIndex([]).rows(["/a"]).tolist() == [-1]


def test_a_lookup_larger_than_a_batch_gives_every_row():
    paths = [f"/big/{i}" for i in range(3 * path_index.LOOKUP_BATCH + 5)]
    index = PathIndex(paths)
    asked = paths[::-1] + ["/nope"]
    assert index.rows(asked).tolist() == list(range(len(paths)))[::-1] + [-1]
