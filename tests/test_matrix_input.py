"""Cost matrices as users hand them over: CSV parsed by the core in chunks,
.npy files memory-mapped, numpy arrays lent without a copy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekplan import _core
from seekplan.errors import SeekplanError
from seekplan.io import parse_matrix, read_matrix
from seekplan.ordering import order_matrix


def _random(n: int, seed: int, dtype: str = "float64") -> np.ndarray:
    m = np.random.default_rng(seed).uniform(0, 100, (n, n)).astype(dtype)
    np.fill_diagonal(m, 0)
    return m


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_npy_and_csv_give_the_same_order(tmp_path, dtype):
    m = _random(30, 1, dtype)
    np.save(tmp_path / "m.npy", m)
    np.savetxt(tmp_path / "m.csv", m.astype("float64"), delimiter=",", fmt="%.17g")
    from_npy = order_matrix(read_matrix(tmp_path / "m.npy"), algo="sltf")
    from_csv = order_matrix(read_matrix(tmp_path / "m.csv"), algo="sltf")
    assert from_npy.nodes == from_csv.nodes
    assert from_npy.total_s == pytest.approx(from_csv.total_s, rel=1e-12)


def test_a_c_ordered_array_is_lent_without_a_copy_and_a_fortran_one_is_copied():
    m = _random(12, 2)
    lent = _core.order_costs(m, "fifo", bound=False)
    assert lent["borrowed"] is True
    assert _core.order_costs(m.tolist(), "fifo", bound=False)["borrowed"] is False
    with pytest.raises(ValueError, match="not C-contiguous"):
        _core.order_costs(np.asfortranarray(m), "fifo", bound=False)
    # The Python API copies a Fortran-ordered array once and gets the same answer.
    assert order_matrix(np.asfortranarray(m)).nodes == order_matrix(m).nodes


@pytest.mark.parametrize(
    ("array", "needle"),
    [
        (np.zeros((3, 3), dtype=np.int64), "dtype int64"),
        (np.zeros((3, 3), dtype=np.complex128), "dtype complex128"),
        (np.zeros(4), r"shape \(4,\)"),
        (np.zeros((2, 2, 2)), r"shape \(2, 2, 2\)"),
        (np.zeros((2, 3)), r"shape \(2, 3\)"),
        (np.zeros((0, 0)), "is empty"),
        (np.array([[0.0, np.nan], [1.0, 0.0]]), r"entry \[0\]\[1\] = NaN"),
        (np.array([[0.0, -1.0], [1.0, 0.0]]), r"entry \[0\]\[1\] = -1"),
        (np.array([[0.0, np.inf], [1.0, 0.0]], dtype=np.float32), r"entry \[0\]\[1\] = inf"),
    ],
)
def test_bad_arrays_are_named(array, needle):
    with pytest.raises(SeekplanError, match=needle):
        order_matrix(array)


def test_bad_npy_files_exit_2_naming_the_problem(cli, tmp_path):
    cases = {
        "int.npy": (np.zeros((3, 3), dtype=np.int32), "dtype int32"),
        "obj.npy": (np.array([[0, "a"], ["b", 0]], dtype=object), "not a numeric .npy"),
        "flat.npy": (np.zeros(9), "shape (9,)"),
        "wide.npy": (np.zeros((2, 3)), "shape (2, 3)"),
    }
    for name, (array, needle) in cases.items():
        np.save(tmp_path / name, array, allow_pickle=True)
        r = cli("order", "--matrix", tmp_path / name)
        assert r.exit_code == 2 and needle in r.output, (name, r.output)
    (tmp_path / "junk.npy").write_bytes(b"not numpy at all")
    r = cli("order", "--matrix", tmp_path / "junk.npy")
    assert r.exit_code == 2 and "junk.npy" in r.output
    # An empty file: numpy raises EOFError, which click turned into "Aborted!", exit 1.
    (tmp_path / "empty.npy").write_bytes(b"")
    r = cli("order", "--matrix", tmp_path / "empty.npy")
    assert r.exit_code == 2 and "empty.npy: not a numeric .npy matrix" in r.output


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("0,1\n1,x\n", "line 2 column 2"),
        ("0,1\n1,nan\n", "line 2 column 2"),
        ("0,1\n1,inf\n", "line 2 column 2"),
        ("0,-1\n1,0\n", "line 1 column 2"),
        ("0,1,2\n1,0\n", "not square"),
        ("", "is empty"),
        ("\xff\n", "cannot read"),
    ],
)
def test_bad_csv_files_exit_2_naming_line_and_column(cli, tmp_path, text, needle):
    path = tmp_path / "m.csv"
    path.write_bytes(text.encode("latin-1"))
    r = cli("order", "--matrix", path)
    assert r.exit_code == 2, r.output
    assert needle in r.output or (needle == "cannot read" and "UTF-8" in r.output)


finite = st.floats(min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.lists(st.lists(finite, min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_csv_round_trips(rows):
    text = [",".join(repr(v) for v in row) + "\n" for row in rows]
    assert parse_matrix(text) == rows


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60), st.integers(1, 7))
def test_random_bytes_never_crash_the_reader(data, chunk):
    reader = _core.MatrixReader()
    try:
        for k in range(0, len(data), chunk):
            reader.feed(data[k : k + chunk])
        m = reader.finish()
    except ValueError:
        return
    assert m.ndim == 2 and m.shape[0] == m.shape[1] and (m >= 0).all()


def test_a_line_without_end_is_refused_before_it_fills_memory():
    """`--matrix /dev/zero` grew the unfinished line to 23 GB."""
    reader = _core.MatrixReader()
    zeros = bytes(1 << 20)
    with pytest.raises(ValueError, match="line 1: longer than 67108864 bytes"):
        for _ in range(65):
            reader.feed(zeros)


def test_a_wide_first_row_does_not_reserve_its_square(cli, tmp_path):
    """A 2 MB first row of a million entries reserved 8 TB for the matrix
    and aborted the process (exit 134); it is now past the node limit, and a
    row at the limit (a 20 GB square) reserves nothing it cannot have."""
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(["0"] * 1_000_000) + "\n")
    r = cli("order", "--matrix", wide)
    assert r.exit_code == 2 and "has 1000000 nodes, at most 50000" in r.output
    wide.write_text(",".join(["0"] * 50_000) + "\n")
    r = cli("order", "--matrix", wide)
    assert r.exit_code == 2 and "is not square: 1 rows of 50000 entries" in r.output


def test_a_long_bad_cell_is_quoted_cut_short(cli, tmp_path):
    """A 3 MB line of letters was echoed whole into the error."""
    p = tmp_path / "long.csv"
    p.write_text("x" * 3_000_000 + "\n")
    r = cli("order", "--matrix", p)
    assert r.exit_code == 2 and "line 1 column 1" in r.output and len(r.output) < 1_000


def test_out_with_a_matrix_is_refused_not_left_unwritten(cli, tmp_path):
    """`--matrix M --out o.csv` printed the order, wrote nothing and exited 0."""
    path = tmp_path / "m.csv"
    path.write_text("0,1,2\n1,0,1\n2,1,0\n")
    out = tmp_path / "o.csv"
    r = cli("order", "--matrix", path, "--out", out)
    assert r.exit_code == 2, r.output
    assert "--out writes a request order" in r.output and "--json" in r.output
    assert not out.exists()
