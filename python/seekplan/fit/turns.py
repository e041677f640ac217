"""Track start addresses from per-block timings: Write-Turn (a write log of
every block) and Read-Turn (read timings of selected parts of the tape),
Sandstå & Midtstraum §3 after Hillyer & Silberschatz. S&M give no more of
the method than "logging and analyzing the write times"; ours (see
docs/fit.md) is a change-point selection in which a turn must persist:

1. *Baseline.* The expected time per block is the median of each run of
   ``BASELINE_ROWS`` rows, interpolated between runs, so slow drift of the
   block time is not read as turns.
2. *Events.* A row's excess is its seconds less the expected time of the
   blocks it covers (in a write log, every block since the previous row:
   a row after dropped rows covers them too). Rows more than
   ``SPIKE_SIGMAS`` robust standard deviations above it, closer than
   ``MERGE_BLOCKS``, form one event with the summed excess.
3. *Selection.* A turn starts a track, and a track persists: it is at
   least ``MIN_TRACK`` of the typical track length L long, and tracks of
   one tape are nearly equal. Dynamic programming picks the events that
   maximise the sum of each one's turn-likeness (its excess over the
   typical turn's, at most 1, less ``TURN_FLOOR``) minus
   ``LENGTH_WEIGHT`` * ((length - L) / L)² for every track they delimit.
   An isolated spike, a retry or a dropped row mid-track would split a
   track into two short ones and is left out, whatever its size. The
   typical turn and L start from first guesses and are re-taken from the
   turns chosen until they settle.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from seekplan.errors import SeekplanError

#: an event stands this many robust standard deviations above the baseline
SPIKE_SIGMAS = 8.0
#: slow rows closer than this many blocks are one event (a turn may slow a few)
MERGE_BLOCKS = 8
#: rows per median of the baseline: ~22 s of MLR1 writing, far shorter than
#: any drift worth following, far longer than the few slow rows of a turn
BASELINE_ROWS = 1024
#: an event under this fraction of the typical turn's excess costs more than
#: it earns: taken only if it mends a track twice too long (a missed turn)
TURN_FLOOR = 0.5
#: the shortest track, as a fraction of the typical one: tracks of one tape
#: differ by a few per cent (S&M §3), so half a track is far outside
MIN_TRACK = 0.5
#: the cost of a track of length l is LENGTH_WEIGHT * ((l - L) / L)²: a
#: track 10 % off costs 0.04, one split in two halves at least 2, more than
#: any event earns (at most 1 - TURN_FLOOR)
LENGTH_WEIGHT = 4.0
#: rounds of re-estimating the typical turn from the turns chosen (it
#: settles in one or two on every synthetic family; see docs/fit.md)
REFINE_ROUNDS = 4
#: quantiles of the gaps between turn-sized events tried as the typical
#: track length when the number of tracks is not given
L_QUANTILES = (25, 50, 75, 90)
#: a found start within this many blocks of a true one is a hit (scoring);
#: a turn inside dropped rows is placed at the next logged row
MATCH_BLOCKS = 8


@dataclass
class TurnFit:
    """Track starts found in a log, the tape's capacity, and warnings."""

    track_starts: list[int]
    capacity: int
    warnings: list[str] = field(default_factory=list)

    def geometry(self) -> dict[str, object]:
        """The per-tape geometry file `seekplan order --track-starts` reads."""
        return {"track_starts": self.track_starts, "capacity": self.capacity}


@dataclass(frozen=True)
class TurnScore:
    """Found track starts against known ones (block 0, always a start, left
    out of both): precision = hits / found, recall = hits / true."""

    precision: float
    recall: float
    hits: int
    found: int
    true: int
    #: the largest distance of a hit from its true start, None without hits
    max_offset: int | None
    tolerance: int

    def to_dict(self) -> dict[str, object]:
        """The score as a JSON-ready dict."""
        return asdict(self)


def score_track_starts(
    found: list[int], truth: list[int], tolerance: int = MATCH_BLOCKS
) -> TurnScore:
    """Match found starts one-to-one to true ones within ``tolerance``
    blocks (in order along the tape, which is optimal on a line)."""
    f = sorted(set(found) - {0})
    t = sorted(set(truth) - {0})
    i = j = hits = 0
    offsets = []
    while i < len(f) and j < len(t):
        d = f[i] - t[j]
        if abs(d) <= tolerance:
            hits += 1
            offsets.append(abs(d))
            i += 1
            j += 1
        elif d < 0:
            i += 1
        else:
            j += 1
    return TurnScore(
        precision=hits / len(f) if f else 1.0,
        recall=hits / len(t) if t else 1.0,
        hits=hits,
        found=len(f),
        true=len(t),
        max_offset=max(offsets) if offsets else None,
        tolerance=tolerance,
    )


def _baseline(rate: np.ndarray) -> np.ndarray:
    """Expected seconds per block at each row: medians of runs of rows."""
    n, k = rate.size, BASELINE_ROWS
    if n < 2 * k:
        return np.full(n, float(np.median(rate)))
    runs = n // k
    medians = np.median(rate[: runs * k].reshape(runs, k), axis=1)
    return np.interp(np.arange(n), np.arange(runs) * k + (k - 1) / 2, medians)


def _events(blocks: np.ndarray, seconds: np.ndarray, read: bool) -> tuple[np.ndarray, np.ndarray]:
    """(block of each event's slowest row, each event's summed excess s)."""
    if read:  # selected reads: each row times its own block, gaps are expected
        covered = np.ones(blocks.size)
    else:
        covered = np.diff(blocks, prepend=blocks[0] - 1).astype(float)
    base = _baseline(seconds / covered)
    excess = seconds - covered * base
    sigma = 1.4826 * float(np.median(np.abs(excess - np.median(excess))))
    sigma = max(sigma, 1e-3 * max(float(np.median(base)), 1e-9))
    cand = np.nonzero(excess > SPIKE_SIGMAS * sigma * np.sqrt(covered))[0]
    cand = cand[blocks[cand] > blocks[0]]  # the first block starts track 0 anyway
    if cand.size == 0:
        return cand, np.zeros(0)
    groups = np.split(cand, np.nonzero(np.diff(blocks[cand]) > MERGE_BLOCKS)[0] + 1)
    where = np.array([blocks[g[np.argmax(excess[g])]] for g in groups])
    return where, np.array([float(excess[g].sum()) for g in groups])


def _first_turn_guess(excess: np.ndarray) -> float:
    """A first guess of the typical turn's excess: the median of the upper
    of two classes of log excess split where their between-class variance
    is largest (Otsu), so many small spikes do not pull it down."""
    if excess.size < 2:
        return float(excess.max())
    x = np.sort(np.log(excess))
    k = np.arange(1, x.size)
    c = np.cumsum(x)
    low, high = c[:-1] / k, (c[-1] - c[:-1]) / (x.size - k)
    cut = int(np.argmax(k * (x.size - k) * (low - high) ** 2)) + 1
    return float(np.exp(np.median(x[cut:])))


def _select(
    where: np.ndarray, reward: np.ndarray, length: float, end: int
) -> tuple[np.ndarray, float]:
    """Indexes of the events that best start tracks of typical ``length``,
    and the objective they reach (see module doc)."""
    pos = np.concatenate([[0], where]).astype(float)
    gain = np.concatenate([[0.0], reward])
    best = np.full(pos.size, -np.inf)
    best[0] = 0.0
    prev = np.zeros(pos.size, dtype=np.int64)
    for j in range(1, pos.size):
        hi = int(np.searchsorted(pos, pos[j] - MIN_TRACK * length, side="right"))
        # predecessors more than 3 tracks back cost >= 4 * LENGTH_WEIGHT:
        # only looked at when nothing nearer is reachable
        lo = int(np.searchsorted(pos, pos[j] - 3 * length))
        if lo >= hi or not np.isfinite(best[lo:hi]).any():
            lo = 0
        if hi == 0:
            continue
        cand = best[lo:hi] - LENGTH_WEIGHT * ((pos[j] - pos[lo:hi] - length) / length) ** 2
        i = int(np.argmax(cand))
        best[j], prev[j] = cand[i] + gain[j], lo + i
    tail = np.maximum(end - pos - length, 0.0) / length  # a short last track may be cut off
    total = best - LENGTH_WEIGHT * tail**2
    j = int(np.argmax(total))
    objective = float(total[j])
    chosen = []
    while j != 0:
        chosen.append(j - 1)
        j = int(prev[j])
    return np.array(chosen[::-1], dtype=np.int64), objective


def _turns(
    where: np.ndarray, excess: np.ndarray, tracks: int | None, capacity: int, end: int
) -> tuple[np.ndarray, int]:
    """Block of each turn taken, and how many turn-sized events were not.
    The typical turn and track length start from first guesses and are
    then taken from the turns chosen, until they settle."""
    if where.size == 0:
        return where, 0
    turn = _first_turn_guess(excess)
    chosen = np.zeros(0, dtype=np.int64)
    for _ in range(REFINE_ROUNDS):
        reward = np.minimum(excess / turn, 1.0) - TURN_FLOOR
        if tracks is not None:
            lengths = [capacity / tracks]
        else:  # tracks unknown: try gaps between turn-sized events (spurious
            # ones shorten gaps, missed ones lengthen them), and the median
            # track of the last round; keep the best objective
            gaps = np.diff(np.concatenate([[0], where[excess >= TURN_FLOOR * turn]]))
            lengths = [float(np.percentile(gaps, q)) for q in L_QUANTILES] if gaps.size else []
            if chosen.size >= 2:
                lengths.append(float(np.median(np.diff(where[chosen]))))
            lengths = sorted({x for x in lengths if x > 0}) or [float(end)]
        chosen = max((_select(where, reward, x, end) for x in lengths), key=lambda t: t[1])[0]
        settled = float(np.median(excess[chosen])) if chosen.size else turn
        if abs(settled / turn - 1) < 0.05:
            break
        turn = settled
    if tracks is not None and chosen.size > tracks - 1:
        chosen = np.sort(chosen[np.argsort(excess[chosen])[::-1][: tracks - 1]])
    big = excess >= TURN_FLOOR * turn
    left_out = int(big.sum()) - int(big[chosen].sum())
    return where[chosen], left_out


def find_track_starts(
    blocks: np.ndarray,
    seconds: np.ndarray,
    read: bool = False,
    tracks: int | None = None,
    capacity: int | None = None,
) -> TurnFit:
    """Track starts (the first is 0) from a write log (Write-Turn) or, with
    ``read``, a log of selected reads (Read-Turn).

    ``tracks`` (if known) fixes the typical track length and keeps at most
    ``tracks - 1`` turns; ``capacity`` (blocks) defaults to the last logged
    block + 1."""
    if blocks.size < 2:
        raise SeekplanError("track log: needs at least two blocks")
    last = int(blocks[-1]) + 1
    if capacity is None:
        capacity = last
    elif last > capacity:
        raise SeekplanError(f"track log: block {last - 1} lies beyond the capacity {capacity}")
    if tracks is not None and not 1 <= tracks <= capacity:
        # 10^11 tracks on a 10,800-block tape was accepted and ignored.
        raise SeekplanError(f"--tracks {tracks}: must be between 1 and the capacity {capacity}")
    warnings: list[str] = []
    gaps = np.diff(blocks)
    if not read and np.any(gaps > 1):
        i = int(np.argmax(gaps > 1))
        warnings.append(
            f"write log skips {int(np.sum(gaps - 1))} blocks, first after block {blocks[i]}: "
            "each row's seconds is taken to cover the blocks since the previous row; "
            "if it times its own block only, a turn in a skipped block cannot be seen "
            "(use --read for logs of selected reads)"
        )
    where, excess = _events(blocks, seconds, read)
    turns, left_out = _turns(where, excess, tracks, capacity, capacity if read else last)
    starts = [0, *(int(b) for b in turns)]
    if len(starts) == 1:
        warnings.append(
            "no track turn found: the log is too short (truncated) or too noisy "
            "for turns to stand out"
        )
        return TurnFit(starts, capacity, warnings)
    if left_out:
        warnings.append(
            f"{left_out} stall(s) of at least half a turn were not taken as turns: "
            "each would have split a track (retries or buffer flushes in a noisy log?)"
        )
    lengths = np.diff([*starts, capacity])
    typical = float(np.median(lengths))
    if tracks is not None and len(starts) != tracks:
        warnings.append(f"found {len(starts)} tracks, expected {tracks}: noisy or truncated log")
    if not read and last < capacity:
        warnings.append(
            f"log ends at block {last - 1} of {capacity}: truncated, later track starts are unknown"
        )
    if lengths[-1] < 0.5 * typical and capacity == last:
        warnings.append(
            f"last track has {int(lengths[-1])} blocks against a typical {typical:.0f}: "
            "the log looks truncated"
        )
    inner = lengths[:-1]
    if inner.size >= 2 and (inner.max() > 1.5 * typical or inner.min() < 0.5 * typical):
        warnings.append(
            f"track lengths range from {int(inner.min())} to {int(inner.max())} blocks: "
            "turns were missed or spurious spikes taken (noisy log?)"
        )
    return TurnFit(starts, capacity, warnings)
