"""Property tests: the parsers never crash on arbitrary text; they either
return valid requests or raise a SeekplanError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from seekplan.errors import SeekplanError
from seekplan.io import parse_matrix, parse_requests

cells = st.one_of(st.integers(-(10**12), 10**12).map(str), st.text(max_size=6))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(cells, min_size=0, max_size=4), max_size=8), st.booleans())
def test_request_parser_never_crashes(rows, header):
    lines = (["id,block,size"] if header else []) + [",".join(r) for r in rows]
    try:
        reqs = parse_requests([line + "\n" for line in lines])
    except SeekplanError:
        return
    assert all(r.block >= 0 and r.size > 0 and r.id for r in reqs)
    assert len({r.id for r in reqs}) == len(reqs)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.one_of(st.floats(allow_nan=True).map(str), cells), max_size=4), max_size=5)
)
def test_matrix_parser_never_crashes(rows):
    try:
        m = parse_matrix([",".join(r) + "\n" for r in rows])
    except SeekplanError:
        return
    assert all(len(r) == len(m) for r in m)
    assert all(v >= 0 for r in m for v in r)
