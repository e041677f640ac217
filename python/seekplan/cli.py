"""The `seekplan` command line: a thin layer over the Python API."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

from seekplan.errors import Interrupted, SeekplanError, quote
from seekplan.experiments import EXPERIMENTS, listing
from seekplan.io import (
    MAX_INT,
    output_dir,
    output_file,
    read_matrix,
    read_text,
    to_json,
    write_order,
)
from seekplan.ordering import (
    ALGORITHMS,
    DEFAULT_ALGO,
    MAX_GAP,
    MAX_ITERATIONS,
    MAX_TIME_LIMIT_S,
    order,
    order_matrix,
)
from seekplan.sites import (
    CTA_BLOCK_BYTES,
    MAX_CTA_BLOCK_BYTES,
    read_request_batch,
    request_format,
    write_parquet,
)
from seekplan.text import duration

if TYPE_CHECKING:
    import socket

    from rich.console import Console
    from rich.table import Table

    from seekplan.recall.config import RecallConfig

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Plan and simulate I/O on tape libraries and media-server disks.",
)


class _LazyConsole:
    """A rich Console made on first use: importing rich cost every command
    ~30 ms of start-up, and most runs of `order` print one line."""

    def __init__(self, stderr: bool = False) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return getattr(self._console, name)


console = cast("Console", _LazyConsole())
# Progress lines go to stderr, so stdout stays the order (or its JSON).
err_console = cast("Console", _LazyConsole(stderr=True))


def _table(*columns: str) -> Table:
    """A rich table with ``columns`` (rich imported on first use)."""
    from rich.table import Table

    return Table(*columns)


F = TypeVar("F", bound=Callable[..., Any])

DevicesOpt = Annotated[
    Path | None, typer.Option("--devices", help="Extra device catalog (TOML) to add or override")
]


def _reproductions_epilog() -> str:
    # \b keeps click from joining the lines into one paragraph.
    return "Papers (wall time on a 2-core machine):\n\n\b\n" + listing()


def friendly(fn: F) -> F:
    """Turns a SeekplanError into one line on stderr and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except SeekplanError as e:
            sys.stderr.write(f"error: {e}\n")
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


@contextmanager
def keep_partial(out: Path) -> Iterator[None]:
    """On Ctrl-C during a sweep, writes the points finished so far to
    ``out/partial.json``, says so, and exits with 130 (the shell's code for
    an interrupt)."""
    try:
        yield
    except Interrupted as e:
        from seekplan.io import write_json

        path = out / "partial.json"
        write_json(path, e.partial())
        sys.stderr.write(f"{e}; written {path}\n")
        raise typer.Exit(130) from None


def _position(value: str | None, option: str) -> int | None:
    if value is None:
        return None
    if value.strip().lower() == "bot":
        return 0
    try:
        block = int(value)
    except ValueError:
        raise SeekplanError(f"{option}: {value!r} is neither 'bot' nor a block number") from None
    if block < 0:
        raise SeekplanError(f"{option}: {block} is negative")
    return block


def _track_starts(path: Path | None) -> list[int] | None:
    return None if path is None else _track_file(path)[0]


def _track_file(path: Path) -> tuple[list[int], int | None]:
    """A track-start JSON's starts and its optional ``capacity`` (blocks on
    the measured tape), each checked."""
    text = read_text(path, "track-start JSON")
    try:
        data = json.loads(text)
        starts = data["track_starts"]
    except (ValueError, KeyError, TypeError, RecursionError) as e:
        raise SeekplanError(f"{path}: expected JSON with a 'track_starts' list ({e})") from e
    if not isinstance(starts, list):
        raise SeekplanError(f"{path}: 'track_starts' must be a list of block numbers")
    for i, block in enumerate(starts):
        if isinstance(block, bool) or not isinstance(block, int) or not 0 <= block <= MAX_INT:
            raise SeekplanError(
                f"{path}: track_starts[{i}]: {quote(block)} is not a block number "
                f"between 0 and {MAX_INT}"
            )
    capacity = data.get("capacity")
    if capacity is not None and (
        isinstance(capacity, bool) or not isinstance(capacity, int) or not 1 <= capacity <= MAX_INT
    ):
        raise SeekplanError(
            f"{path}: capacity: {quote(capacity)} is not a number of blocks between 1 and {MAX_INT}"
        )
    return starts, capacity


@app.command("order")
@friendly
def order_cmd(
    requests: Annotated[
        Path | None,
        typer.Argument(
            help="Requests: CSV or Parquet with columns id,block,size (bytes), or CTA's "
            "`cta-admin --json tapefile ls` output (see docs/sites.md)"
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option("--format", help="auto (by file name), csv, parquet or cta-tapefile"),
    ] = "auto",
    cta_block_bytes: Annotated[
        int,
        typer.Option(
            help="Bytes per block in CTA's blockId (cta-tapefile), at most 1 GiB",
            min=1,
            max=MAX_CTA_BLOCK_BYTES,
        ),
    ] = CTA_BLOCK_BYTES,
    drive: Annotated[str, typer.Option(help="Catalogued drive (see `seekplan drives`)")] = "mlr1",
    algo: Annotated[
        str, typer.Option(help=f"Ordering algorithm: {', '.join(ALGORITHMS)}")
    ] = DEFAULT_ALGO,
    start: Annotated[
        str, typer.Option(help="Head position: block or 'bot' (node for --matrix)")
    ] = "bot",
    end: Annotated[
        str | None, typer.Option(help="Finish here, e.g. 'bot' to rewind before unload")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write the order here (CSV, or Parquet for *.parquet)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
    matrix: Annotated[
        Path | None, typer.Option(help="Square CSV of locate times instead of a drive model")
    ] = None,
    track_starts: Annotated[
        Path | None, typer.Option(help="Tape geometry JSON from `seekplan fit track-starts`")
    ] = None,
    eowp: Annotated[
        Path | None,
        typer.Option(help="LTO end-of-wrap list: CSV, column last_block, one row per wrap"),
    ] = None,
    devices: DevicesOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed of best's local search")] = None,
    iterations: Annotated[
        int | None,
        typer.Option(
            help=f"Kicks of best's local search, at most {MAX_ITERATIONS:,} (default: a "
            "budget that grows with the gap still open, cut short by --gap)"
        ),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            help=f"Stop improving best's order SECONDS after it started, at most "
            f"{MAX_TIME_LIMIT_S:,.0f}; until "
            "then best keeps improving unless the order meets --gap or is proven optimal. "
            "SLTF's order comes first, so a limit shorter than SLTF takes SLTF's time"
        ),
    ] = None,
    gap: Annotated[
        float,
        typer.Option(
            help="best stops once its order is within this fraction of its lower bound "
            f"(0: only when proven optimal; 0.001 accepts 0.1 %), at most {MAX_GAP:g}"
        ),
    ] = 0.0,
    summary_csv: Annotated[
        Path | None, typer.Option("--summary", help="Write totals, bound and gap as CSV")
    ] = None,
    cost: Annotated[
        str,
        typer.Option(
            help="Who times a locate: 'drive' (its model), 'seek' (its seeks alone, never "
            "reading through a short gap) or 'cta' (CTA's heuristic)"
        ),
    ] = "drive",
) -> None:
    """Order a batch of reads on one tape (or the nodes of a cost matrix)."""
    if matrix is not None and out is not None:
        # --out's columns are a request's (id, block, size): a matrix run
        # wrote nothing there and exited 0.
        raise SeekplanError(
            "--out writes a request order (rank,id,block,size,start_s,end_s); "
            "a --matrix order is printed: use --json for its nodes"
        )
    inputs = (requests, matrix, track_starts, eowp, devices)
    if out is not None:
        output_file(out, inputs=inputs)
    if summary_csv is not None:
        output_file(summary_csv, "--summary", inputs=(*inputs, out))
    tuning: dict[str, Any] = {
        "seed": seed,
        "time_limit": time_limit,
        "iterations": iterations,
        "gap": gap,
    }
    start_pos = _position(start, "--start") or 0
    # The batch read in the order it was given (FIFO): for a CTA listing,
    # the files as written (fSeq); the baseline the printed saving is against.
    listed_s: float | None = None
    end_pos = _position(end, "--end")
    if matrix is not None:
        if requests is not None:
            raise SeekplanError("give either REQUESTS.csv or --matrix, not both")
        from seekplan.order_progress import search_progress

        costs = read_matrix(matrix)
        with search_progress(err_console, sys.stderr.isatty()) as progress:
            result = order_matrix(
                costs, algo=algo, start=start_pos, end=end_pos, progress=progress, **tuning
            )
    else:
        if requests is None:
            raise SeekplanError("missing REQUESTS.csv (or --matrix COSTS.csv)")
        from seekplan.catalog import make_drive
        from seekplan.order_progress import search_progress

        kind = request_format(requests, fmt)
        block_bytes = (
            make_drive(drive, devices=devices).block_bytes if kind == "cta-tapefile" else None
        )
        batch = read_request_batch(requests, kind, block_bytes, cta_block_bytes)
        if not batch:
            raise SeekplanError(f"{requests}: no requests to order (a header and no rows?)")
        layout, capacity = _layout(track_starts, eowp, drive, devices)
        setup: dict[str, Any] = {
            "drive": drive,
            "start": start_pos,
            "end": end_pos,
            "track_starts": layout,
            "capacity": capacity,
            "devices": devices,
            "cost": cost,
        }
        with search_progress(err_console, sys.stderr.isatty()) as progress:
            result = order(batch, algo=algo, progress=progress, **setup, **tuning)
        listed_s = (
            result.total_s
            if algo == "fifo"
            else order(batch, algo="fifo", bound=False, **setup).total_s
        )
        if out is not None:
            if out.suffix.lower() in (".parquet", ".pq"):
                write_parquet(out, result.rows)
            else:
                write_order(out, result.rows)
    summary = result.summary()
    cta_listing = matrix is None and kind == "cta-tapefile"
    if listed_s is not None:
        summary["fseq_order_s" if cta_listing else "fifo_s"] = listed_s
    if summary_csv is not None:
        result.write_summary(summary_csv)
    if as_json:
        sys.stdout.write(to_json(summary) + "\n")
        return
    if matrix is None and out is None:
        table = _table("rank", "id", "block", "size", "start_s", "end_s")
        for row in result.rows[:30]:
            table.add_row(
                *(str(row[c]) for c in ("rank", "id", "block", "size", "start_s", "end_s"))
            )
        console.print(table)
        if len(result.rows) > 30:
            console.print(f"... {len(result.rows) - 30} more (use --out FILE for all)")
    # Plain lines, not rich's: a terminal or a pipe gets them unwrapped, and
    # an order of a matrix or to --out never imports rich (~20 ms).
    typer.echo(
        f"{result.algo}: {result.n} requests, total {result.total_s:.1f} s "
        f"({duration(result.total_s)}; positioning {result.positioning_s:.1f} s), "
        f"CPU {result.cpu_s * 1000:.1f} ms"
        + (
            f", lower bound {result.lower_bound_s:.1f} s (gap {100 * result.gap:.2f} %)"
            if result.lower_bound_s is not None and result.gap is not None
            else ""
        )
        + (
            f", stopped: {result.stopped_because} (best found after {result.time_to_best_s:.2f} s)"
            if result.stopped_because is not None and result.time_to_best_s is not None
            else ""
        )
        + (f"; order {summary['order']}" if matrix is not None else "")
        + (
            "; every time here is CTA's cost heuristic's (--cost cta), not the drive model's"
            if cost == "cta" and matrix is None
            else ""
        )
    )
    if listed_s is not None and algo != "fifo":
        saving = 1 - result.total_s / listed_s if listed_s > 0 else 0.0
        if cta_listing:
            typer.echo(
                f"fSeq order (CTA's files as written) {listed_s:.1f} s: {result.algo} saves "
                f"{100 * saving:.1f} %. Read in this order of fSeq: "
                + " ".join(str(r["id"]) for r in result.rows[:40])
                + (" ..." if len(result.rows) > 40 else "")
            )
        else:
            typer.echo(
                f"as listed (FIFO) {listed_s:.1f} s ({duration(listed_s)}): "
                f"{result.algo} takes {100 * (1 - saving):.1f} % of that time"
            )


@app.command("drives")
@friendly
def drives_cmd(
    name: Annotated[str | None, typer.Argument(help="Show one drive or robot")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output")] = False,
    devices: DevicesOpt = None,
) -> None:
    """List the catalogued drives and robots, or show one with its sources."""
    from seekplan.catalog import drive_entry, load_catalog, load_robots

    if as_json:
        if name is not None:
            robots = load_robots(devices)
            entry = robots[name] if name in robots else drive_entry(name, devices)
            sys.stdout.write(json.dumps({"name": name, **entry.model_dump()}) + "\n")
        else:
            catalog = load_catalog(devices)
            sys.stdout.write(json.dumps({k: v.model_dump() for k, v in catalog.items()}) + "\n")
        return
    from seekplan.drives_view import print_catalog, print_entry

    if name is None:
        print_catalog(console, devices)
    else:
        print_entry(console, name, devices)


@app.command("reproduce", epilog=_reproductions_epilog())
@friendly
def reproduce_cmd(
    name: Annotated[str, typer.Argument(help=f"Which paper: {', '.join(EXPERIMENTS)}")],
    out: Annotated[Path, typer.Option(help="Directory for results.json, report.html, plots")],
    quick: Annotated[bool, typer.Option(help="Fewer runs: a fast, noisier check")] = False,
    workers: Annotated[int | None, typer.Option(help="Parallel processes (default: cores)")] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Dask scheduler address: run the sweep's points on that cluster "
            "(needs the dask extra)"
        ),
    ] = None,
) -> None:
    """Reproduce a seed paper's published results and compare them with ours."""
    from seekplan.experiments import runner
    from seekplan.sweep import Executor

    run = runner(name)
    output_dir(out)
    with keep_partial(out):
        results = run(out, quick, Executor(workers, scheduler))
    held = sum(c["holds"] for c in results["claims"])
    console.print(
        f"{name}: {held}/{len(results['claims'])} of the paper's findings hold; "
        f"see {out / 'report.html'}"
    )


@app.command("schema")
@friendly
def schema_cmd(
    name: Annotated[str | None, typer.Argument(help="Config name; omit to list them")] = None,
) -> None:
    """Print a config's JSON Schema (generated by the core), or list the configs."""
    from seekplan import _core

    if name is None:
        for config, description in _core.schema_names():
            sys.stdout.write(f"{config}\t{description}\n")
        return
    try:
        text = _core.schema(name)
    except ValueError as e:
        raise SeekplanError(str(e)) from None
    sys.stdout.write(text + "\n")


@app.command("demo")
@friendly
def demo_cmd(
    out: Annotated[Path, typer.Option(help="Directory for the demo's files")] = Path("demo-out"),
) -> None:
    """Order a batch on a catalogued drive, replay it, and write a report."""
    from seekplan.demo import run_demo

    output_dir(out)
    result = run_demo(out)
    for line in result.headlines:
        console.print(line)
    console.print(f"demo written: {result.report}")


simulate_app = typer.Typer(
    no_args_is_help=True, help="Simulate a system over time from a YAML config."
)
app.add_typer(simulate_app, name="simulate")
fit_app = typer.Typer(no_args_is_help=True, help="Fit drive models to measured timings.")
app.add_typer(fit_app, name="fit")
ltfs_app = typer.Typer(no_args_is_help=True, help="Read LTFS volumes in tape order.")
app.add_typer(ltfs_app, name="ltfs")

# ---- simulate recall (dCache / KIT) -------------------------------------


@simulate_app.command("recall")
@friendly
def simulate_recall_cmd(
    config: Annotated[Path, typer.Argument(help="Recall config (YAML); see docs/recall.md")],
    out: Annotated[Path, typer.Option(help="Directory for results.json and report.html")],
    trace: Annotated[
        Path | None,
        typer.Option(
            help="Replay this trace (CSV or .parquet; time,path,tape,block,size) "
            "through every strategy"
        ),
    ] = None,
    tape_capacity: Annotated[
        int,
        typer.Option(
            help="Bytes per tape for --trace (default: T10000D, 8.5 TB)", min=1, max=MAX_INT
        ),
    ] = 8_500_000_000_000,
    catalog: Annotated[
        Path | None,
        typer.Option(
            help="dCache's tapefiles (.txt or .json): recall every file it lists, "
            "through every strategy (needs --tapes)"
        ),
    ] = None,
    tapes: Annotated[
        Path | None, typer.Option(help="dCache's tapes file (.txt or .json) for --catalog")
    ] = None,
) -> None:
    """Simulate a tape recall campaign: a requester strategy in front of a library."""
    from seekplan.recall import load_config, simulate
    from seekplan.recall.report import write_run

    output_dir(out)
    cfg = load_config(config)
    if (catalog is None) != (tapes is None):
        raise SeekplanError("--catalog and --tapes go together (dCache's tapefiles and tapes)")
    if trace is not None and catalog is not None:
        raise SeekplanError("give either --trace or --catalog, not both")
    if trace is not None or catalog is not None:
        _every_strategy(cfg, trace, catalog, tapes, tape_capacity, out)
        return
    result = simulate(cfg)
    report = write_run(out, cfg.data, result)
    m = result["metrics"]
    console.print(
        f"{m['throughput_mb_s']:.0f} MB/s, {m['mounts']} mounts ({m['distinct_mounts']} tapes), "
        f"staging {m['staging_min']:.0f} min; see {report}"
    )


def _every_strategy(
    cfg: RecallConfig,
    trace: Path | None,
    catalog: Path | None,
    tapes: Path | None,
    tape_capacity: int,
    out: Path,
) -> None:
    """Runs a site's own campaign (a request trace, or dCache's tape-info
    files) through every requester strategy."""
    from seekplan.recall import simulate
    from seekplan.recall.report import why_nothing_staged, write_trace_runs
    from seekplan.recall.trace import configs, load_trace
    from seekplan.sites import dcache_campaign

    block_bytes = int(cfg.library["block_bytes"])
    if trace is not None:
        campaign = load_trace(trace, tape_capacity, block_bytes)
        source = str(trace)
    else:
        assert catalog is not None and tapes is not None
        campaign = dcache_campaign(catalog, tapes, block_bytes)
        source = f"{catalog} on {tapes}"
    run_configs = configs(cfg)
    runs = {name: simulate(c, campaign) for name, c in run_configs.items()}
    summary = {
        "path": source,
        "requests": campaign.files,
        "tapes": len(campaign.capacity),
        "span_h": float(campaign.arrival_s.max()) / 3600,
    }
    report = write_trace_runs(out, cfg.data, summary, runs)
    for name, r in runs.items():
        m = r["metrics"]
        if m["files_staged"] == 0:
            console.print(
                f"{name:>14}: nothing staged in {cfg.data['duration_h']:g} h"
                + why_nothing_staged(run_configs[name].data["strategy"])
            )
            continue
        console.print(
            f"{name:>14}: {m['throughput_mb_s']:.1f} MB/s, {m['mounts']} mounts, "
            f"{m['files_staged']} files, staging median {m['staging_p50_min']:.0f} min, "
            f"p90 {m['staging_p90_min']:.0f} min"
        )
    console.print(f"see {report}")


# ---- simulate archive (Blue Waters) -------------------------------------


@simulate_app.command("archive")
@friendly
def simulate_archive_cmd(
    config: Annotated[Path, typer.Argument(help="YAML config (see docs/archive.md)")],
    out: Annotated[Path, typer.Option(help="Directory for metrics.json and report.html")],
) -> None:
    """Simulate RAIT / PARALLEL / VERTICAL / HETERO archival on a tape platform."""
    from seekplan.archive import load_config, simulate
    from seekplan.archive.report import summary, write_run
    from seekplan.io import write_json

    output_dir(out)
    cfg = load_config(config)
    metrics = simulate(cfg)
    write_json(out / "metrics.json", {"config": cfg.data, **metrics})
    report = write_run(out, cfg.data, metrics, f"seekplan simulate archive {config} --out {out}")
    table = _table("metric", "value")
    for key, value in metrics.items():
        table.add_row(key, f"{value:.4g}" if isinstance(value, float) else str(value))
    console.print(table)
    console.print(summary(str(cfg.data.get("policy", "?")), metrics))
    console.print(f"written {out / 'metrics.json'} and {report}")


# ---- simulate media (Balafoutis) ----------------------------------------


@simulate_app.command("media")
@friendly
def simulate_media_cmd(
    config: Annotated[Path, typer.Argument(help="YAML study: algorithms, lambdas, disk, workload")],
    out: Annotated[Path, typer.Option(help="Directory for results.json and report.html")],
    workers: Annotated[int | None, typer.Option(help="Parallel processes (default: cores)")] = None,
) -> None:
    """Simulate mixed-media disk scheduling rounds (Balafoutis et al.)."""
    from seekplan.media import load_config, simulate
    from seekplan.media.report import write
    from seekplan.sweep import Executor

    output_dir(out)
    study = load_config(config)
    with keep_partial(out):
        results = simulate(study, Executor(workers))
    write(out, study, results, f"seekplan simulate media {config} --out {out}")
    if results["glitches_total"]:
        from seekplan.media.report import glitch_warning

        err_console.print(f"warning: {glitch_warning(results['glitches_total'])}")
    console.print(
        f"media: {len(study.algorithms)} algorithm(s) x {len(study.lambdas)} rate(s), "
        f"glitches {results['glitches_total']}; see {out / 'report.html'}"
    )


# ---- simulate mounts (cartridge management) -----------------------------


def _dismount(value: str) -> dict[str, Any]:
    """``--dismount``: immediate, adaptive, or a fixed delay in seconds."""
    if value in ("immediate", "adaptive"):
        return {
            "kind": value,
            **({"max_delay_s": 3600.0, "first_delay_s": 300.0} if value == "adaptive" else {}),
        }
    try:
        return {"kind": "fixed", "delay_s": float(value)}
    except ValueError:
        raise SeekplanError(
            f"--dismount: {value!r} is not immediate, adaptive or a number of seconds"
        ) from None


def _sweep_delays(value: str) -> list[float]:
    """``--sweep dismount_delay=0,60,300``: the delays, seconds."""
    key, _, values = value.partition("=")
    if key.strip() != "dismount_delay" or not values:
        raise SeekplanError(
            f"--sweep: {value!r}; expected dismount_delay=SECONDS,SECONDS,... "
            "(eviction policies are swept with --policy)"
        )
    try:
        return [float(v) for v in values.split(",")]
    except ValueError:
        raise SeekplanError(f"--sweep: {values!r} is not a list of seconds") from None


@simulate_app.command("mounts")
@friendly
def simulate_mounts_cmd(
    out: Annotated[Path, typer.Option(help="Directory for results.json and report.html")],
    trace: Annotated[
        Path | None,
        typer.Option(
            help="Mount log: CSV/Parquet time,cartridge,busy_s; ECMWF's "
            "cartridge;YYYYmmddTHHMMSS;seconds (plain, .bz2, .gz); or a recall trace "
            "time,path,tape,block,size"
        ),
    ] = None,
    synthetic: Annotated[
        int | None,
        typer.Option(
            help="No trace: this many synthetic requests (Zipf, diurnal, bursts)",
            min=1,
            max=10_000_000,
        ),
    ] = None,
    config: Annotated[
        Path | None, typer.Option(help="YAML config (see docs/mounts.md); options override it")
    ] = None,
    library: Annotated[
        str | None,
        typer.Option(help="Catalogued library, e.g. sl8500, sl8500x4, ts4500 (seekplan drives)"),
    ] = None,
    drives: Annotated[int | None, typer.Option(help="Tape drives", min=1, max=4096)] = None,
    drive: Annotated[
        str | None, typer.Option(help="Catalogued drive whose load/unload times apply")
    ] = None,
    policy: Annotated[
        str | None,
        typer.Option(help="Eviction policies, comma-separated: lru,lfu,fifo,random,arc,belady"),
    ] = None,
    dismount: Annotated[
        str | None, typer.Option(help="immediate, adaptive, or a fixed delay in seconds")
    ] = None,
    placement: Annotated[
        str | None, typer.Option(help="home, nearest-free or promote (needs a geometry)")
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(help="dismount_delay=0,60,300,900,3600: every delay x every --policy"),
    ] = None,
    workers: Annotated[int | None, typer.Option(help="Parallel processes (default: cores)")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address")] = None,
) -> None:
    """Replay a mount log: dismount, eviction and placement policies, with
    Belady's untimed floor beside them."""
    from seekplan.io import write_json
    from seekplan.mounts import POLICIES, load_trace, parse_config, synthetic_trace
    from seekplan.mounts import sweep as run_sweep
    from seekplan.mounts.report import best_online, delay_label, rule_label, write
    from seekplan.sweep import Executor

    output_dir(out)
    if (trace is None) == (synthetic is None):
        raise SeekplanError("give --trace FILE or --synthetic REQUESTS (one of them)")
    from seekplan.config import lines_of, load_yaml, settings

    origin = str(config) if config is not None else "options"
    options = {
        "library": library,
        "drives": drives,
        "placement": placement,
        "drive": drive,
        "dismount": None if dismount is None else _dismount(dismount),
    }
    given = {key for key, value in options.items() if value is not None}
    with lines_of(config, skip=given) if config is not None else nullcontext():
        data = dict(settings(load_yaml(config), origin)) if config is not None else {}
        data.update({key: value for key, value in options.items() if value is not None})
        cfg = parse_config(data, origin)
    delays = _sweep_delays(sweep) if sweep is not None else None
    if policy is not None:
        policies = [p.strip() for p in policy.split(",") if p.strip()]
    else:
        policies = list(POLICIES) if delays is not None else [cfg.eviction]
    # A site's whole log can take a while to decompress: say what is happening.
    with err_console.status("reading the trace"):
        t = load_trace(trace) if trace is not None else synthetic_trace(synthetic or 1)
    if t.resorted:
        err_console.print(f"note: {t.resorted:,} rows were out of time order and were sorted")
    executor = Executor(workers, scheduler)
    with keep_partial(out):
        study = run_sweep(cfg, t, policies, delays, executor)
    rule = rule_label(cfg.data["dismount"])
    summary = {
        "source": t.source,
        "requests": len(t),
        "cartridges": len(t.names),
        "span_s": t.span_s,
    }
    write_json(out / "results.json", {"config": cfg.data, "trace": summary, **study})
    command = "seekplan simulate mounts " + " ".join(sys.argv[3:])
    report = write(out, cfg.data, summary, study, command, rule)
    table = _table("eviction", "dismount", "loads", "latency mean", "p95")
    for r in study["runs"]:
        table.add_row(
            r["policy"],
            delay_label(r, rule),
            f"{r['loads']:,}",
            f"{r['latency_mean_s']:,.0f} s",
            f"{r['latency_p95_s']:,.0f} s",
        )
    console.print(table)
    best = best_online(study["runs"])
    console.print(
        f"untimed floor {study['floor_loads']:,} loads; best online: {best['policy']} at "
        f"{delay_label(best, rule)}, {best['loads']:,} loads, mean latency "
        f"{best['latency_mean_s']:,.0f} s; see {report}"
    )


# ---- fit (Johnson & Miller, Write-Turn / Read-Turn) ---------------------


def _warn(warnings: list[str]) -> None:
    for w in warnings:
        sys.stderr.write(f"warning: {w}\n")


@fit_app.command("seeks")
@friendly
def fit_seeks_cmd(
    log: Annotated[Path, typer.Argument(help="CSV with columns from_block,to_block,seconds")],
    tracks: Annotated[
        int | None,
        typer.Option(help="Serpentine tracks: fit Table 3's four regions (default: one line)"),
    ] = None,
    capacity: Annotated[
        int | None, typer.Option(help="Blocks on the tape (default: highest block + 1)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
) -> None:
    """Fit a seek model to measured seeks and print it like Table 3 (with R²)."""
    from seekplan.fit import fit_seeks, read_seek_log
    from seekplan.fit.seeks import REGION_TEXT

    result = fit_seeks(*read_seek_log(log), capacity=capacity, tracks=tracks)
    _warn(result.warnings)
    if as_json:
        sys.stdout.write(to_json(result.to_dict()) + "\n")
        return
    if result.model == "helical":
        line = result.lines[0]
        table = _table("model", "seek(d) seconds, d in tape lengths", "R²", "seeks")
        table.add_row(
            "linear", f"{line.startup_s:.2f} + {line.full_s:.2f} * d", f"{line.r2:.3f}", str(line.n)
        )
    else:
        table = _table("region", "seek(p', T') seconds", "when", "R²", "seeks")
        for line in result.lines:
            anchor = "p0" if line.region in (1, 4) else "1-p0"
            table.add_row(
                str(line.region),
                f"{line.startup_s:.2f} + {line.full_s:.2f} * |{anchor} - p'|",
                REGION_TEXT[line.region],
                f"{line.r2:.3f}",
                str(line.n),
            )
    console.print(table)


@fit_app.command("track-starts")
@friendly
def fit_track_starts_cmd(
    log: Annotated[Path, typer.Argument(help="CSV with columns block,seconds")],
    read: Annotated[
        bool, typer.Option("--read", help="A log of selected reads (Read-Turn), not a write log")
    ] = False,
    tracks: Annotated[int | None, typer.Option(help="Tracks on the tape, if known")] = None,
    capacity: Annotated[
        int | None, typer.Option(help="Blocks on the tape (default: last block + 1)")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write the geometry JSON (for `order --track-starts`)")
    ] = None,
    truth: Annotated[
        Path | None,
        typer.Option(help="Known geometry JSON: also print precision and recall of the starts"),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help='Print {"track_starts": [...]} only (with "score" if --truth)'),
    ] = False,
) -> None:
    """Find where each track starts from per-block write (or read) times."""
    from seekplan.fit import find_track_starts, read_block_log, score_track_starts
    from seekplan.io import write_json

    if out is not None:
        output_file(out, inputs=(log, truth))
    known = _track_starts(truth)
    result = find_track_starts(*read_block_log(log), read=read, tracks=tracks, capacity=capacity)
    _warn(result.warnings)
    if out is not None:
        write_json(out, result.geometry())
    score = None if known is None else score_track_starts(result.track_starts, known)
    if as_json:
        doc: dict[str, object] = {"track_starts": result.track_starts}
        if score is not None:
            doc["score"] = score.to_dict()
        sys.stdout.write(to_json(doc) + "\n")
        return
    method = "Read-Turn" if read else "Write-Turn"
    console.print(
        f"{method}: {len(result.track_starts)} tracks over {result.capacity} blocks; "
        f"starts {result.track_starts[:8]}{' ...' if len(result.track_starts) > 8 else ''}"
        + (f"; geometry written to {out}" if out else "")
    )
    if score is not None:
        console.print(
            f"against {truth}: precision {score.precision:.3f}, recall {score.recall:.3f} "
            f"({score.hits} of {score.true} true turns within {score.tolerance} blocks, "
            f"{score.found} found; block 0 not counted)"
        )


# ---- ltfs ---------------------------------------------------------------


def _eowp(path: Path | None, drive: str, devices: Path | None) -> list[int] | None:
    """The end-of-wrap list of --eowp, checked against the drive's model."""
    if path is None:
        return None
    from seekplan.lto import check_lto_drive, read_eowp

    check_lto_drive(drive, devices)
    return read_eowp(path)


def _layout(
    track_starts: Path | None, eowp: Path | None, drive: str, devices: Path | None
) -> tuple[list[int] | None, int | None]:
    """The tape layout `seekplan order` was given (track starts or an LTO
    end-of-wrap list) and the measured capacity in blocks, if the track-start
    file gives one."""
    if track_starts is not None and eowp is not None:
        raise SeekplanError("give either --track-starts (serpentine) or --eowp (LTO), not both")
    from seekplan.catalog import drive_entry

    if track_starts is not None and drive_entry(drive, devices).model == "lto":
        raise SeekplanError(
            f"--track-starts is serpentine geometry; {drive!r} is an LTO drive: "
            "give its end-of-wrap list with --eowp instead"
        )
    if track_starts is not None:
        # An empty list is the file's (and an error the core names), not "no file".
        return _track_file(track_starts)
    return _eowp(eowp, drive, devices), None


LtoDriveOpt = Annotated[str, typer.Option(help="Catalogued LTO drive")]
EowpOpt = Annotated[
    Path | None, typer.Option(help="End-of-wrap list CSV (column last_block, one row per wrap)")
]


@ltfs_app.command("plan")
@friendly
def ltfs_plan_cmd(
    directory: Annotated[Path, typer.Argument(help="A mounted LTFS volume (or a directory in it)")],
    drive: LtoDriveOpt = "lto9",
    algo: Annotated[
        str, typer.Option(help=f"Ordering algorithm: {', '.join(ALGORITHMS)}")
    ] = DEFAULT_ALGO,
    eowp: EowpOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
    devices: DevicesOpt = None,
) -> None:
    """Print the order to read a volume's files in, from their LTFS start blocks."""
    from seekplan.ltfs import plan

    p = plan(directory, drive, algo, _eowp(eowp, drive, devices), devices)
    if as_json:
        out = {
            "algo": p.algo,
            "total_s": p.total_s,
            "directory_order_s": p.directory_order_s,
            "files": [f.__dict__ for f in p.files],
        }
        sys.stdout.write(to_json(out) + "\n")
        return
    table = _table("rank", "path", "partition", "startblock", "size")
    for rank, f in enumerate(p.files):
        table.add_row(str(rank), f.path, f.partition, str(f.block), str(f.size))
    console.print(table)
    console.print(
        f"{p.algo}: {len(p.files)} files, about {p.total_s:.0f} s of tape time "
        f"(directory order: {p.directory_order_s:.0f} s)"
    )


@ltfs_app.command("copy")
@friendly
def ltfs_copy_cmd(
    directory: Annotated[Path, typer.Argument(help="A mounted LTFS volume (or a directory in it)")],
    dest: Annotated[Path, typer.Argument(help="Where to copy to; rerun to resume")],
    drive: LtoDriveOpt = "lto9",
    algo: Annotated[
        str, typer.Option(help=f"Ordering algorithm: {', '.join(ALGORITHMS)}")
    ] = DEFAULT_ALGO,
    eowp: EowpOpt = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar")] = True,
    verify: Annotated[
        bool,
        typer.Option(help="On resume, re-read copied files and check their SHA-256 too"),
    ] = False,
    devices: DevicesOpt = None,
) -> None:
    """Copy a volume's files in tape order; an interrupted copy resumes where it stopped."""
    from seekplan.ltfs import check_destination, copy, plan

    check_destination(directory, dest)
    output_dir(dest, "DEST")
    p = plan(directory, drive, algo, _eowp(eowp, drive, devices), devices)
    copied, skipped = copy(directory, dest, p, show_progress=progress, verify=verify)
    console.print(f"copied {copied} files to {dest}; {skipped} already there from an earlier run")


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: one the OS picks), before
    anything is built; an error naming why it cannot be (a name that does
    not resolve, an address not on this machine, a port in use), where the
    server would log it and exit with its own code."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as e:
        raise SeekplanError(f"cannot listen on {host}:{port}: {_reason(e)}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise SeekplanError(f"cannot listen on {host}:{port}: {_reason(e)}") from None
    return sock


def _reason(e: OSError | UnicodeError) -> str:
    return e.strerror if isinstance(e, OSError) and e.strerror else str(e)


@app.command("serve")
@friendly
def serve_cmd(
    catalog: Annotated[
        Path | None, typer.Option(help="Catalog CSV with columns path,tape,block,size")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(help="SQLite file or postgresql:// URL (default seekplan-stage.db)"),
    ] = None,
    port: Annotated[int | None, typer.Option(help="TCP port (default 8080)")] = None,
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default 127.0.0.1, loopback only)")
    ] = None,
    drives: Annotated[
        int | None, typer.Option(help="Tape drives (default: the library's 12)")
    ] = None,
    time_scale: Annotated[
        float | None, typer.Option(help="Simulated time runs this many times real time")
    ] = None,
    policy: Annotated[
        str | None,
        typer.Option(help="fifo, or a recall strategy name (default by-tapes, tapes: auto)"),
    ] = None,
    tokens: Annotated[
        Path | None, typer.Option(help="Bearer tokens file: 'CLIENT TOKEN' per line")
    ] = None,
    tls_cert: Annotated[
        Path | None,
        typer.Option(help="PEM certificate (chain): serve HTTPS; needs --tls-key"),
    ] = None,
    tls_key: Annotated[
        Path | None, typer.Option(help="PEM private key of --tls-cert (unencrypted)")
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", help="stage.yaml with the other settings")
    ] = None,
) -> None:
    """Run the tape-aware staging service (WLCG Tape REST API v1; status page at /)."""
    try:
        import uvicorn

        from seekplan.serve import build
        from seekplan.serve.config import LOOPBACK, load_stage_config
        from seekplan.serve.server import scheme, settle_interpreter, uvicorn_config
    except ModuleNotFoundError as e:
        raise SeekplanError(
            f"{e}: install the serve extra (pip install 'seekplan[serve]')"
        ) from None
    cfg = load_stage_config(
        config,
        {
            "catalog": None if catalog is None else str(catalog),
            "db": db,
            "port": port,
            "host": host,
            "drives": drives,
            "time_scale": time_scale,
            "policy": policy,
            "tokens": None if tokens is None else str(tokens),
            "tls_cert": None if tls_cert is None else str(tls_cert),
            "tls_key": None if tls_key is None else str(tls_key),
        },
    )
    with _listen(cfg.host, cfg.port) as sock:
        web, service = build(cfg)
        # Checked (TLS pair, access-log file) before the service starts.
        settings = uvicorn_config(web, cfg)
        # Started here, so that a refusal is this command's error; the app's
        # lifespan then finds it started.
        service.start()
        if cfg.host != LOOPBACK:
            sys.stderr.write(f"warning: listening on {cfg.host}, not only on loopback\n")
        # The port bound, which `--port 0` leaves to the OS.
        port = sock.getsockname()[1]
        sys.stderr.write(f"seekplan serve: status page at {scheme(cfg)}://{cfg.host}:{port}/\n")
        settle_interpreter()
        uvicorn.Server(settings).run(sockets=[sock])


def _group() -> None:
    """Plan and simulate I/O on tape libraries and media-server disks."""


def command_app(argv: list[str]) -> typer.Typer:
    """The app holding only the command (or command group) that ``argv``
    names first, or the whole app when it names none (``--help``, no
    arguments, a mistyped command: their output lists every command).
    Typer builds every command's click parameters before it runs one: with
    13 commands that was ~25 ms of each `seekplan order`'s start."""
    name = argv[0] if argv else None
    commands = [c for c in app.registered_commands if c.name == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    lean = typer.Typer(add_completion=False)
    # A callback keeps it a group: one command without one would run as the
    # program itself, and `seekplan order` would read "order" as an argument.
    lean.callback()(_group)
    lean.registered_commands = commands
    lean.registered_groups = groups
    return lean


def main() -> None:
    """Entry point of the `seekplan` command and `python -m seekplan`."""
    command_app(sys.argv[1:])()
