"""Per-drive summaries from the catalog (Johnson & Miller §5.7): the file
location overhead of one fetch (robot fetch + mount + seek to a random
position), the minimum reasonable file size (that overhead times the
transfer rate) and that size as a share of the tape (Table 5)."""

from __future__ import annotations

from typing import Any

from seekplan.catalog import DriveEntry, RobotEntry

#: [J&M §5.7] "We assume that the time to fetch a tape is 10 seconds" unless
#: the drive names the robot it was measured in (the Ampex's faster robot).
DEFAULT_FETCH_S = 10.0


def file_fetch(entry: DriveEntry, robots: dict[str, RobotEntry]) -> dict[str, float] | None:
    """Table 5's row for one drive, or None without mechanics or a locate time.

    Seek = Table 4's startup + half the full-tape seek (a random position,
    §5.7), or the catalogued average locate for drives without Table 4 figures."""
    m = entry.mechanics
    if m is None or m.mean_locate_s() is None:
        return None
    fetch = robots[m.robot].fetch.mean_s if m.robot in robots else DEFAULT_FETCH_S
    locate = float(m.mean_locate_s() or 0.0)
    overhead = fetch + m.load_s + locate
    min_file = overhead * m.rate_bps
    return {
        "fetch_s": fetch,
        "mount_s": m.load_s,
        "locate_s": locate,
        "overhead_s": overhead,
        "rate_mb_s": m.rate_bps / 1e6,
        "min_file_mb": min_file / 1e6,
        "pct_of_tape": 100.0 * min_file / m.capacity_bytes,
    }


def table5(catalog: dict[str, DriveEntry], robots: dict[str, RobotEntry]) -> dict[str, Any]:
    """Table 5 for every catalogued drive that has the figures, by name."""
    rows = {name: file_fetch(entry, robots) for name, entry in sorted(catalog.items())}
    return {name: row for name, row in rows.items() if row is not None}
