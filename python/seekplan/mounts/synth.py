"""A synthetic mount trace for the demo and tests: Zipf cartridge
popularity, a diurnal arrival rate, bursts of one cartridge, and busy
times with the spread of a real mount log. Seeded: same arguments, same
trace."""

from __future__ import annotations

import numpy as np

from seekplan.errors import ArgumentError, SeekplanError
from seekplan.mounts.trace import MountTrace, from_columns

DAY_S = 86_400.0
#: Most requests (and cartridges) a synthetic trace may have: `--synthetic`'s bound.
MAX_REQUESTS = 10_000_000
#: [choice] Zipf exponent of cartridge popularity: a few cartridges take
#: most requests, as in archive traces; 1.1 keeps a long tail of cold ones.
ZIPF_S = 1.1
#: Busy seconds: lognormal with the median (182 s) and 90th percentile
#: (560 s) of the public 250,000-line sample of ECMWF's trace shipped with
#: Mäsker et al.'s simulator (github.com/maesker/RoboticTapeLibrary,
#: src/traces/io_events_sample_250k.csv.bz2), read with our own load_trace
#: (command in benchmarks/RESULTS.md, "Mount replay"); the trace itself is
#: not ours to ship.
BUSY_MEDIAN_S = 182.0
BUSY_SIGMA = float(np.log(560.0 / 182.0) / 1.2816)
#: [choice] The most a cartridge's expected busy time may take of the
#: trace's span: a cartridge busier than one drive can serve would queue
#: without end (its requests share its one drive), which no real log shows.
MAX_CARTRIDGE_SHARE = 0.25
#: [choice] Diurnal swing: the rate at the day's peak is three times the
#: night's (1 ± 0.5).
DIURNAL_SWING = 0.5
#: [choice] Share of requests that start a burst, burst length 2-6, and the
#: mean gap (s) between a burst's requests: a user reading several files
#: of one cartridge in turn.
BURST_SHARE = 0.1
BURST_GAP_S = 120.0


def synthetic_trace(
    requests: int = 20_000,
    cartridges: int = 5_000,
    days: float = 7.0,
    seed: int = 1,
) -> MountTrace:
    """``requests`` requests for ``cartridges`` cartridges over ``days``."""
    for name, value, kinds in (
        ("requests", requests, int),
        ("cartridges", cartridges, int),
        ("days", days, int | float),
        ("seed", seed, int),
    ):
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise ArgumentError(f"synthetic trace: {name} must be a number, got {value!r}")
    if not 0 <= seed < 2**63 or requests > MAX_REQUESTS or cartridges > MAX_REQUESTS:
        raise SeekplanError(
            f"synthetic trace: at most {MAX_REQUESTS:,} requests and cartridges, seed in 0..2**63"
        )
    if requests < 1 or cartridges < 1 or not 0 < days <= 3650:
        raise SeekplanError(
            "synthetic trace: requests and cartridges must be at least 1, days in (0, 3650]"
        )
    rng = np.random.default_rng(seed)
    span = days * DAY_S
    # Base arrivals, thinned against the diurnal rate, plus their bursts
    # (1-5 more requests each, 3 on average) make about `requests`; the
    # first `requests` in time are kept.
    base = int(requests / (1 + 3 * BURST_SHARE) * 1.05) + 1
    while True:
        times, carts = _arrivals(rng, base, span, cartridges, requests)
        if len(times) >= requests:
            break
        base = int(base * 1.1) + 1
    first = np.argsort(times, kind="stable")[:requests]
    times, carts = times[first], carts[first]
    busy = np.maximum(1.0, rng.lognormal(np.log(BUSY_MEDIAN_S), BUSY_SIGMA, size=len(times)))
    labels = [f"C{c:06d}" for c in carts]
    return from_columns(times, labels, busy, f"synthetic(seed={seed})")


def _popularity(cartridges: int, requests: int, span: float) -> np.ndarray:
    """Zipf shares, the hottest capped at :data:`MAX_CARTRIDGE_SHARE` of
    the span's busy time (what is cut goes to the others, in proportion)."""
    p = 1.0 / np.arange(1, cartridges + 1) ** ZIPF_S
    p /= p.sum()
    mean_busy = BUSY_MEDIAN_S * np.exp(BUSY_SIGMA**2 / 2) * (1 + BURST_SHARE * 3)
    cap = max(MAX_CARTRIDGE_SHARE * span / (requests * mean_busy), 1.0 / cartridges)
    for _ in range(100):
        over = p > cap
        if not over.any():
            break
        excess = float((p[over] - cap).sum())
        p[over] = cap
        p[~over] += excess * p[~over] / p[~over].sum()
    return p / p.sum()


def _arrivals(
    rng: np.random.Generator, base: int, span: float, cartridges: int, requests: int
) -> tuple[np.ndarray, np.ndarray]:
    """``base`` diurnal arrivals over ``span`` with Zipf cartridges, and
    the bursts some of them start."""
    times = np.empty(0)
    while len(times) < base:
        t = rng.uniform(0.0, span, size=2 * base)
        rate = 1.0 + DIURNAL_SWING * np.sin(2 * np.pi * t / DAY_S - np.pi / 2)
        keep = rng.uniform(0.0, 1.0 + DIURNAL_SWING, size=len(t)) < rate
        times = np.concatenate([times, t[keep]])
    times = times[:base]
    carts = rng.choice(cartridges, size=base, p=_popularity(cartridges, requests, span))
    starts = np.flatnonzero(rng.uniform(size=base) < BURST_SHARE)
    extra_t, extra_c = [], []
    for i in starts:
        gaps = rng.exponential(BURST_GAP_S, size=int(rng.integers(1, 6)))
        extra_t.append(times[i] + np.cumsum(gaps))
        extra_c.append(np.full(len(gaps), carts[i]))
    return np.concatenate([times, *extra_t]), np.concatenate([carts, *extra_c])
