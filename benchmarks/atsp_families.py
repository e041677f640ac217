"""Random asymmetric TSP instance families of the DIMACS ATSP challenge.

Written from the descriptions in Cirasella, Johnson, McGeoch & Zhang, "The
Asymmetric Traveling Salesman Problem: Algorithms, Instance Generators, and
Tests" (ALENEX 2001), and Johnson, Gutin, McGeoch, Yeo, Zhang & Zverovitch,
"Experimental analysis of heuristics for the ATSP" (2002): our own code, not
the challenge's generators, so instances are the same *kind*, not the same
bytes. Where a description leaves a constant open, the choice is written
beside it. Every generator takes n and a numpy Generator and returns an n x n
float64 matrix (diagonal 0).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

RANGE = 1_000_000  # amat/tmat/shop-scale integer costs, as in the papers


def amat(n: int, rng: np.random.Generator) -> np.ndarray:
    """Independent uniform integers in [0, 10^6)."""
    return rng.integers(0, RANGE, size=(n, n)).astype(np.float64)


def tmat(n: int, rng: np.random.Generator) -> np.ndarray:
    """amat closed under shortest paths, so the triangle inequality holds."""
    d = amat(n, rng)
    np.fill_diagonal(d, 0)
    for k in range(n):
        np.minimum(d, d[:, k, None] + d[None, k, :], out=d)
    return d


def shop(n: int, rng: np.random.Generator, machines: int = 50) -> np.ndarray:
    """No-wait flow shop: n jobs on 50 machines (the papers' count), times
    uniform in [0, 1000); the cost from job i to job j is the least delay
    between their starts that lets j run through every machine without
    waiting behind i: max over k of (i's time on machines 1..k minus j's
    on machines 1..k-1)."""
    p = rng.integers(0, 1000, size=(n, machines)).astype(np.float64)
    done = np.cumsum(p, axis=1)  # i finishes machine k at done[i, k]
    before = done - p  # j reaches machine k at before[j, k]
    cost = np.full((n, n), -np.inf)
    for k in range(machines):
        np.maximum(cost, done[:, k, None] - before[None, :, k], out=cost)
    return cost


def disk(n: int, rng: np.random.Generator) -> np.ndarray:
    """Disk-drive head: each city is a file at a random track and angle with
    a random length; the cost from i to j is the seek to j's track (linear
    in track distance, a full-stroke seek one revolution: our choice) plus
    the wait for j's first sector to come round after i's last one."""
    rev = 1000.0
    track = rng.uniform(0, 1, n)
    start = rng.uniform(0, rev, n)
    end = (start + rng.uniform(0, rev, n)) % rev
    seek = rev * np.abs(track[:, None] - track[None, :])
    wait = (start[None, :] - (end[:, None] + seek)) % rev
    return np.rint(seek + wait)


def super_(n: int, rng: np.random.Generator, length: int = 20) -> np.ndarray:
    """Shortest common superstring: random binary strings of 20 symbols; the
    cost from i to j is 20 minus the longest suffix of i that is a prefix
    of j."""
    s = rng.integers(0, 2, size=(n, length))
    cost = np.full((n, n), float(length))
    for k in range(1, length):
        match = (s[:, None, length - k :] == s[None, :, :k]).all(axis=2)
        cost = np.where(match, float(length - k), cost)
    return cost


def _points(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return rng.uniform(0, RANGE, n), rng.uniform(0, RANGE, n)


def rtilt(n: int, rng: np.random.Generator) -> np.ndarray:
    """Tilted drilling machine, additive norm: points in the square; moving
    up costs twice moving down, x and y add (rectilinear)."""
    x, y = _points(n, rng)
    dy = y[None, :] - y[:, None]
    return np.rint(np.abs(x[None, :] - x[:, None]) + np.where(dy > 0, 2 * dy, -dy))


def stilt(n: int, rng: np.random.Generator) -> np.ndarray:
    """Tilted drilling machine, sup norm: as rtilt but the axes move at once."""
    x, y = _points(n, rng)
    dy = y[None, :] - y[:, None]
    return np.rint(np.maximum(np.abs(x[None, :] - x[:, None]), np.where(dy > 0, 2 * dy, -dy)))


def crane(n: int, rng: np.random.Generator) -> np.ndarray:
    """Stacker crane: each city is a job carrying a load from a source to a
    destination at most 10 % of the square away (our choice: the papers
    use short hauls); the cost from i to j is the empty move from i's
    destination to j's source plus j's haul."""
    sx, sy = _points(n, rng)
    angle = rng.uniform(0, 2 * np.pi, n)
    reach = rng.uniform(0, 0.1 * RANGE, n)
    tx, ty = sx + reach * np.cos(angle), sy + reach * np.sin(angle)
    empty = np.hypot(tx[:, None] - sx[None, :], ty[:, None] - sy[None, :])
    return np.rint(empty + reach[None, :])


def coin(n: int, rng: np.random.Generator, block: int = 1000) -> np.ndarray:
    """Pay-phone coin collection: n phones on the streets of a city grid of
    g x g blocks (g the least odd number from sqrt(n): our choice, about
    one phone a block), every street one-way, the east-west ones alternately
    east- and westbound from an eastbound south edge, the north-south ones
    alternately north- and southbound from a southbound west edge (our
    choice of one-way pattern: with g odd the city's edge is a loop, so
    every corner reaches every other); each phone lies on a random block side at a random
    integer distance along it. The cost from phone i to phone j is the
    shortest drive: straight on to j if j lies ahead on i's block side,
    else on to the block side's end, the shortest path through the one-way
    grid to the start of j's block side, and along it to j."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import shortest_path

    g = max(3, int(np.ceil(np.sqrt(n))) | 1)
    side = g + 1  # intersections per row and column

    def node(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y * side + x

    # Directed block sides as (start, end) intersections: east-west street
    # y runs east when y is even; north-south street x runs north when x is
    # odd.
    x, y = (a.ravel() for a in np.meshgrid(np.arange(g), np.arange(side), indexing="ij"))
    east = y % 2 == 0
    ew = np.stack([node(np.where(east, x, x + 1), y), node(np.where(east, x + 1, x), y)], 1)
    x, y = (a.ravel() for a in np.meshgrid(np.arange(side), np.arange(g), indexing="ij"))
    north = x % 2 == 1
    ns = np.stack([node(x, np.where(north, y, y + 1)), node(x, np.where(north, y + 1, y))], 1)
    sides = np.concatenate([ew, ns])
    graph = coo_matrix(
        (np.full(len(sides), float(block)), (sides[:, 0], sides[:, 1])),
        shape=(side * side, side * side),
    )
    between = shortest_path(graph.tocsr(), method="D")
    on = rng.integers(0, len(sides), n)
    at = rng.integers(0, block, n).astype(np.float64)
    start, end = sides[on, 0], sides[on, 1]
    cost = (block - at)[:, None] + between[end[:, None], start[None, :]] + at[None, :]
    ahead = (on[:, None] == on[None, :]) & (at[None, :] >= at[:, None])
    return np.where(ahead, at[None, :] - at[:, None], cost)


FAMILIES: dict[str, Callable[[int, np.random.Generator], np.ndarray]] = {
    "amat": amat,
    "tmat": tmat,
    "shop": shop,
    "disk": disk,
    "super": super_,
    "rtilt": rtilt,
    "stilt": stilt,
    "crane": crane,
    "coin": coin,
}


def instance(family: str, n: int, seed: int) -> np.ndarray:
    """One instance of `family` with n cities (diagonal 0)."""
    d = FAMILIES[family](n, np.random.default_rng(seed))
    np.fill_diagonal(d, 0)
    return d
