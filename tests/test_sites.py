"""The sites' own files (issue 19): Parquet batches and orders, CTA's
tapefile listing, dCache's tape-info files; each valid and malformed, with
the line, row or entry named."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from seekplan.errors import SeekplanError
from seekplan.io import Request, read_requests
from seekplan.sites import (
    cta_requests,
    dcache_campaign,
    read_cta_tapefiles,
    read_dcache_tapefiles,
    read_dcache_tapes,
    read_parquet_requests,
    read_request_batch,
    request_format,
)

EXAMPLES = Path(__file__).parent.parent / "examples" / "sites"


def test_parquet_requests_read_like_the_csv(tmp_path):
    (tmp_path / "r.csv").write_text("id,block,size\na,10,100\nb,5,7\n")
    pq.write_table(
        pa.table({"id": ["a", "b"], "block": [10, 5], "size": [100, 7]}), tmp_path / "r.parquet"
    )
    assert read_parquet_requests(tmp_path / "r.parquet") == read_requests(tmp_path / "r.csv")
    assert read_request_batch(tmp_path / "r.parquet") == [Request("a", 10, 100), Request("b", 5, 7)]


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"id": ["a", "b"], "block": [1, -1], "size": [1, 1]}, "row 2: column 'block'"),
        ({"id": ["a", "b"], "block": [1, 2], "size": [1, 0]}, "row 2: column 'size'"),
        ({"id": ["a", "a"], "block": [1, 2], "size": [1, 1]}, "row 2: duplicate id 'a'"),
        ({"id": ["a", None], "block": [1, 2], "size": [1, 1]}, "row 2: column 'id' is empty"),
        ({"id": ["a", "b"], "block": [1.0, 2.5], "size": [1, 1]}, "row 2: column 'block'"),
        ({"id": ["a", "b"], "block": ["1", "2"], "size": [1, 1]}, "'block' holds string"),
        ({"id": ["a"], "block": [1]}, "missing column(s) size"),
        ({"id": ["a"], "block": [2**64 - 1], "size": [1]}, "row 1: column 'block'"),
    ],
)
def test_bad_parquet_requests_name_the_row(tmp_path, table, words):
    if table.get("block") == [2**64 - 1]:
        table = {**table, "block": pa.array(table["block"], pa.uint64())}
    pq.write_table(pa.table(table), tmp_path / "bad.parquet")
    with pytest.raises(SeekplanError, match=words.replace("(", r"\(").replace(")", r"\)")):
        read_parquet_requests(tmp_path / "bad.parquet")


def test_a_parquet_column_given_twice_is_named_on_one_line(tmp_path):
    """pyarrow's error listed the whole schema over many lines."""
    names = ["id", "block", "size", "size"]
    table = pa.table([pa.array(["a"]), pa.array([1]), pa.array([1]), pa.array([5])], names=names)
    pq.write_table(table, tmp_path / "twin.parquet")
    with pytest.raises(SeekplanError, match=r"twin.parquet: column 'size' appears twice$"):
        read_parquet_requests(tmp_path / "twin.parquet")


def test_a_parquet_declaring_too_many_rows_is_refused_before_reading(tmp_path, monkeypatch):
    """A 4 MB Parquet file of 300 million compressed zeros was read whole:
    7 GB of columns. The cap (10 million) is lowered here to keep the file small."""
    from seekplan import io

    monkeypatch.setattr(io, "MAX_PARQUET_ROWS", 5)
    p = tmp_path / "bomb.parquet"
    pq.write_table(pa.table({"id": list(range(6)), "block": [0] * 6, "size": [1] * 6}), p)
    with pytest.raises(SeekplanError, match="declares 6 rows, more than 5"):
        read_request_batch(p)
    monkeypatch.setattr(io, "MAX_PARQUET_ROWS", 6)
    assert len(read_request_batch(p)) == 6


def test_a_cta_listing_is_a_batch_in_fseq_order_on_the_drives_blocks():
    files = read_cta_tapefiles(EXAMPLES / "cta-tapefile-L90001.json")
    assert len(files) == 40 and {f.vid for f in files} == {"L90001"}
    reqs = cta_requests(files, drive_block_bytes=524_288)
    assert [int(r.id) for r in reqs] == sorted(f.fseq for f in files)
    first = min(files, key=lambda f: f.fseq)
    assert reqs[0] == Request(str(first.fseq), first.block_id // 2, first.size)
    assert request_format(EXAMPLES / "cta-tapefile-L90001.json") == "cta-tapefile"


def test_cta_json_lines_and_snake_case_fields_are_read_too(tmp_path):
    item = {"af": {"size": 10}, "df": {"path": "/a"}, "tf": {"vid": "V", "f_seq": 3, "block_id": 7}}
    (tmp_path / "l.json").write_text(
        json.dumps(item)
        + "\n\n"
        + json.dumps({**item, "tf": {"vid": "V", "fSeq": "4", "blockId": "9"}})
        + "\n"
    )
    files = read_cta_tapefiles(tmp_path / "l.json")
    assert [(f.fseq, f.block_id, f.size) for f in files] == [(3, 7, 10), (4, 9, 10)]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[{"af": {"size": "1"}, "df": {}, "tf": {"fSeq": "x", "blockId": "1"}}]',
            "item 1: tf.fSeq",
        ),
        (
            '[{"af": {"size": "0"}, "df": {}, "tf": {"fSeq": "1", "blockId": "1"}}]',
            "item 1: af.size",
        ),
        # A JSON true said "af.size is missing" before.
        (
            '[{"af": {"size": true}, "df": {}, "tf": {"fSeq": "1", "blockId": "1"}}]',
            "item 1: af.size True is not a whole number >= 1",
        ),
        (
            '[{"af": {"size": "1"}, "df": {}, "tf": {"blockId": "1"}}]',
            "item 1: tf.fSeq is missing",
        ),
        ('[{"af": {"size": "1"}, "df": {}}]', "item 1: expected objects"),
        ("[1]", "item 1: expected an object"),
        ("[]", "no files"),
        # Past the recursion limit, or an integer past Python's digit limit:
        # tracebacks (RecursionError, ValueError) before.
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('[{"af": {"size": ' + "9" * 5000 + "}}]", "not valid JSON"),
        ('{"af": {}}\n' + "[" * 100_000 + "]" * 100_000 + "\n", "line 2: nested too deeply"),
        ('{"af": {}}\n{oops}\n', "line 2: not JSON"),
        (
            '[{"af": {"size": "1"}, "df": {}, "tf": {"vid": "A", "fSeq": "1", "blockId": "1"}},'
            ' {"af": {"size": "1"}, "df": {}, "tf": {"vid": "B", "fSeq": "2", "blockId": "1"}}]',
            "several tapes",
        ),
        (
            '[{"af": {"size": "1"}, "df": {}, "tf": {"fSeq": "1", "blockId": "1"}},'
            ' {"af": {"size": "1"}, "df": {}, "tf": {"fSeq": "1", "blockId": "5"}}]',
            "fSeq 1 twice",
        ),
        (
            '[{"af": {"size": "1"}, "df": {},'
            ' "tf": {"fSeq": "1", "blockId": "1", "blockId": "9"}}]',
            "key 'blockId' appears twice",
        ),
    ],
)
def test_bad_cta_listings_name_the_item(tmp_path, text, words):
    (tmp_path / "bad.json").write_text(text)
    with pytest.raises(SeekplanError, match=words):
        read_cta_tapefiles(tmp_path / "bad.json")


def test_dcache_csv_and_json_tape_info_agree_and_make_a_campaign():
    for ext in ("txt", "json"):
        tapes = read_dcache_tapes(EXAMPLES / f"tapes.{ext}")
        files = read_dcache_tapefiles(EXAMPLES / f"tapefiles.{ext}")
        assert len(tapes) == 4 and len(files) == 60
        assert tapes["VT0000"][0] == 18 * 10**12  # 18,000,000,000 kB
    c = dcache_campaign(EXAMPLES / "tapefiles.json", EXAMPLES / "tapes.json", 262_144)
    assert c.files == 60 and len(c.capacity) == 4
    # A tape's files lie back to back in the order listed.
    on0 = c.tape == 0
    blocks, sizes = c.block[on0].astype(int), c.size[on0].astype(int)
    assert blocks[0] == 0 and all(blocks[1:] == blocks[:-1] + (sizes[:-1] + 262_143) // 262_144)


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("tapes.txt", "T1,100,50\nT2,100\n", "line 2: expected 3 fields"),
        ("tapes.txt", "T1,100,500\n", "line 1: filled"),
        ("tapes.txt", "T1,1x0,5\n", "line 1: capacity"),
        ("tapes.txt", "T1,100,5\nT1,100,5\n", "line 2: tape 'T1' listed twice"),
        ("tapes.json", '{"T1": {"capacity": 100}}', "entry 'T1': expected an object"),
        ("tapes.json", '{"T1": {"capacity": 100, "filled": 5},}', "line 1: not JSON"),
        ("tapefiles.txt", "/a,10,T1\n/b,0,T1\n", "line 2: size must be positive"),
        ("tapefiles.txt", "/a,10,T1\n/a,10,T1\n", "line 2: file '/a' listed twice"),
        ("tapefiles.json", '{"/a": {"size": true, "tapeid": "T"}}', "entry '/a': size True"),
        ("tapes.json", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("tapefiles.txt", "/a," + "1" * 5000 + ",T1\n", r"\(5,002 characters\) is out of range"),
        # A key given twice: json.loads kept the last, so the listing lost
        # a tape or a file where the CSV form says "listed twice".
        (
            "tapes.json",
            '{"T1": {"capacity": 100, "filled": 5}, "T1": {"capacity": 90, "filled": 5}}',
            "key 'T1' appears twice",
        ),
        (
            "tapefiles.json",
            '{"/a": {"size": 1, "tapeid": "T"}, "/a": {"size": 2, "tapeid": "T"}}',
            "key '/a' appears twice",
        ),
    ],
)
def test_bad_dcache_files_name_the_line(tmp_path, name, text, words):
    (tmp_path / name).write_text(text)
    reader = read_dcache_tapes if name.startswith("tapes.") else read_dcache_tapefiles
    with pytest.raises(SeekplanError, match=words):
        reader(tmp_path / name)


def test_order_reads_a_cta_listing_and_reports_the_saving_over_fseq(cli, tmp_path):
    listing = EXAMPLES / "cta-tapefile-L90001.json"
    r = cli("order", listing, "--drive", "lto9", "--algo", "sltf", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["fseq_order_s"] > out["total_s"]
    r = cli("order", listing, "--drive", "lto9", "--algo", "sltf", "--out", tmp_path / "o.parquet")
    assert r.exit_code == 0 and "fSeq order" in r.output, r.output
    rows = pq.read_table(tmp_path / "o.parquet").to_pylist()
    assert sorted(int(row["id"]) for row in rows) == sorted(
        f.fseq for f in read_cta_tapefiles(listing)
    )


def test_simulate_recall_runs_a_dcache_sites_layout(cli, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("duration_h: 12\n")
    r = cli(
        "simulate",
        "recall",
        cfg,
        "--out",
        tmp_path / "o",
        "--catalog",
        EXAMPLES / "tapefiles.json",
        "--tapes",
        EXAMPLES / "tapes.json",
    )
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "o" / "results.json").read_text())
    assert res["trace"]["requests"] == 60 and res["trace"]["tapes"] == 4
    assert res["strategies"]["random"]["metrics"]["files_staged"] == 60
    r = cli(
        "simulate", "recall", cfg, "--out", tmp_path / "p", "--catalog", EXAMPLES / "tapefiles.json"
    )
    assert r.exit_code == 2 and "--tapes" in r.output
