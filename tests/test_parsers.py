"""Property tests: the parsers never crash on arbitrary text; they either
return valid requests or raise a SeekplanError."""

from __future__ import annotations

import json
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from seekplan.errors import SeekplanError
from seekplan.fit.logs import parse_seek_log
from seekplan.io import Request, parse_matrix, parse_requests, to_json
from seekplan.lto import parse_eowp
from seekplan.ordering import order, order_matrix

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


header_names = st.sampled_from(["id", "block", "size", "extra", "\ufeffid", ""])


@settings(max_examples=300, deadline=None)
@given(st.lists(header_names, min_size=1, max_size=5), st.booleans())
def test_request_header_is_accepted_only_with_each_column_once(names, bom):
    text = ("\ufeff" if bom else "") + ",".join(names) + "\n"
    row = ",".join(["1"] * len(names)) + "\n"
    try:
        reqs = parse_requests([text, row])
    except SeekplanError as e:
        assert "line 1" in str(e) or "line 2" in str(e)
        return
    # One byte-order mark at the very start of the file is dropped: the
    # added one, or else the first name's own.
    header = list(names)
    if not bom:
        header[0] = header[0].removeprefix("\ufeff")
    assert len(header) == len(set(header))
    assert {"id", "block", "size"} <= set(header)
    assert reqs == [Request("1", 1, 1)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(cells, st.just("\ufeff")), max_size=6), st.booleans())
def test_end_of_wrap_parser_never_crashes(values, bom):
    lines = [("\ufeff" if bom else "") + "last_block\n"] + [v + "\n" for v in values]
    try:
        blocks = parse_eowp(lines)
    except SeekplanError:
        return
    assert blocks and all(b >= 0 for b in blocks)
    assert all(a < b for a, b in zip(blocks, blocks[1:], strict=False))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.one_of(st.floats().map(str), cells), min_size=3, max_size=3), max_size=6),
    st.booleans(),
)
def test_seek_log_parser_never_crashes(rows, bom):
    lines = [("\ufeff" if bom else "") + "from_block,to_block,seconds\n"]
    lines += [",".join(r) + "\n" for r in rows]
    try:
        froms, tos, seconds = parse_seek_log(lines)
    except SeekplanError:
        return
    assert len(froms) == len(tos) == len(seconds) == len(rows)
    assert (froms >= 0).all() and (tos >= 0).all() and np.isfinite(seconds).all()


api_values = st.one_of(
    st.integers(-(2**64), 2**64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=3), api_values, api_values), max_size=4))
def test_order_api_takes_only_whole_numbers_in_range(requests):
    try:
        result = order(requests, algo="fifo")
    except SeekplanError:
        return
    for (_, block, size), row in zip(requests, result.rows, strict=True):
        assert not isinstance(block, bool | str) and block == row["block"] >= 0
        assert not isinstance(size, bool | str) and size == row["size"] >= 1


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 3).flatmap(
        lambda n: st.lists(
            st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=n, max_size=n),
            min_size=n,
            max_size=n,
        )
    )
)
def test_order_matrix_total_is_always_finite_json(costs):
    try:
        result = order_matrix(costs, algo="fifo")
    except SeekplanError:
        return
    assert math.isfinite(result.total_s)
    assert json.loads(to_json(result.summary()))["total_s"] == result.total_s
