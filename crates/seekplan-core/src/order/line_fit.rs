//! Costs of an explicit matrix that lie on a seek line: every locate from
//! the end of one request to the start of another costs a startup plus
//! the distance between them, nothing onto the place the head is on. A
//! matrix exported from such a model (a helical drive's seeks without its
//! short-seek line, a tape taken as a line) carries no positions, but they
//! follow from the costs, and [`super::on_line`] then orders the reads
//! exactly instead of searching.
//!
//! The fit, on costs `C[u][v]` (u a request or the head, v a request):
//!
//! 1. The row of the largest entry is a head place at an end of the line
//!    (reads run forward, so the last end lies past every start; run
//!    backward, mirrored): there every start lies to one side and
//!    `s_v = -C[r][v]` up to a shift, the startup cancelling.
//! 2. The startup: for a row with starts on both sides of its end,
//!    `(min_v(C + s_v) + min_v(C - s_v)) / 2` is exactly the startup, and
//!    above it otherwise; the least over the rows (at most the least
//!    positive entry).
//! 3. Each end from its row (from either side, whichever fits it), the
//!    anchor's own start from its column.
//! 4. Places joined by a zero entry are made one.
//! 5. Every entry is checked against the line through places quantized to
//!    blocks. Where the matrix was rounded, the largest amount by which the
//!    line overstates an entry becomes a slack every move may save, so the
//!    line's bound stays a bound on the matrix.

use super::on_line::{OnSeekLine, Parts};
use crate::model::SeekLine;
use crate::stop::Stop;

/// Largest difference between an entry and the fitted line, as a fraction
/// of the largest entry, for the matrix to count as a line: costs rounded
/// to the millisecond (`bench_linear_seek.py`'s nine batches of 100-1,000
/// files, entries up to ~10⁶ ms) pass; a serpentine tape's locates (the
/// LTO-9 seek matrices), seconds apart from any line, do not. A choice, not a measured optimum: the bound's slack grows
/// with it (each move may save up to this much).
const TOLERANCE: f64 = 1e-4;

/// Places are quantized to blocks of the line's span over 2⁵⁰: each move's
/// length is then exact to ~10⁻¹⁵ of the span, near the places' own
/// rounding. With 2⁴⁰ the slack of an exact line's 100 moves (files on
/// [0, 1000] and a startup of 5, `bench_linear_seek.py`'s model unrounded)
/// lowered its bound by 5·10⁻¹¹ of the total, and with the billionth every
/// line bound gives up (`bound::rounded_down`) that was past the rounding
/// the watch allows a proof (`watch::ROUNDING`, 10⁻⁹).
const QUANTUM_BITS: i32 = 50;

/// Pairs of neighbouring rows, spread over the matrix, that must pass
/// [`may_share_a_line`] before the fit reads every row: a matrix that is no
/// line costs it ~16 rows rather than two passes over the whole matrix
/// (LTO-9 seek matrix of 5,000 files: 0.2 s).
const PAIRS: usize = 8;

/// How much looser than [`TOLERANCE`] (of the largest entry of the two
/// rows) that check is: a pair's difference or sum carries two entries'
/// errors, and its widest difference two more. Lenient: the fit checks
/// every entry after.
const PAIR_SLACK: f64 = 8.0;

/// Most zero entries (places joined) per row, on average, the fit accepts:
/// a line has one per read that starts where another ends; a matrix of
/// mostly zeros is no line worth ordering on.
const ZEROS_PER_ROW: usize = 2;

/// The seek line through the costs of `n` requests, if they lie on one
/// within [`TOLERANCE`], with every read running the same way; `None` also
/// once `stop` is reached. `row(u, out)` fills `out[..n]` with the costs
/// from request `u` (from the head when `u == n`) to every request;
/// `out[u]` is not read.
pub(crate) fn fit(n: usize, stop: &Stop, row: impl FnMut(usize, &mut [f64])) -> Option<OnSeekLine> {
    if n < 2 {
        return None;
    }
    // Every row read gives up at the stop, and reads 0 on the diagonal: no
    // cost, as a locate onto the head's own place, skipped with those.
    let mut row = {
        let mut row = row;
        move |u: usize, out: &mut [f64]| {
            row(u, out);
            if u < n {
                out[u] = 0.0;
            }
            !stop.reached()
        }
    };
    let m = n + 1;
    let mut buf = vec![0.0; n];
    let mut other = vec![0.0; n];
    for k in 0..PAIRS.min(m) {
        let u = k * m / PAIRS.min(m);
        if !(row(u, &mut buf) && row((u + 1) % m, &mut other)) {
            return None;
        }
        let scale = buf.iter().chain(&other).copied().fold(0.0, f64::max);
        if !may_share_a_line(&buf, &other, PAIR_SLACK * TOLERANCE * scale) {
            return None;
        }
    }
    let (top, anchor, least_positive) = extremes(n, &mut row, &mut buf)?;
    let tol = TOLERANCE * top;
    // Starts up to a shift, from the anchor's row; its own start and those
    // where its row is zero wait for the startup.
    if !row(anchor, &mut buf) {
        return None;
    }
    let mut start: Vec<f64> = (0..n)
        .map(|v| {
            if v == anchor || buf[v] == 0.0 {
                f64::NAN
            } else {
                -buf[v]
            }
        })
        .collect();
    let zero_in_anchor: Vec<usize> = (0..n).filter(|&v| v != anchor && buf[v] == 0.0).collect();
    let mut sides = Vec::with_capacity(m);
    for u in 0..m {
        if !row(u, &mut buf) {
            return None;
        }
        sides.push(sides_of(&buf, &start));
    }
    // Where no end has starts on both sides, any startup up to the least
    // positive entry fits: half of it keeps apart the places those
    // entries separate.
    let startup = sides
        .iter()
        .filter(|(p, q)| p.is_finite() && q.is_finite())
        .map(|(p, q)| (p + q) / 2.0)
        .reduce(f64::min)
        .map_or(least_positive / 2.0, |s| s.min(least_positive));
    if startup < -tol {
        return None;
    }
    let startup = startup.max(0.0);
    // The anchor's end sits at -startup in these coordinates.
    for v in zero_in_anchor {
        start[v] = -startup;
    }
    // Each end from its row, from either side; the anchor's column and
    // the zero entries on the way.
    let mut ends = Vec::with_capacity(m);
    let mut to_anchor = vec![f64::NAN; m];
    let mut zeros: Vec<(usize, usize)> = Vec::new();
    for u in 0..m {
        if !row(u, &mut buf) {
            return None;
        }
        let (p, q) = sides[u];
        let both = [p - startup, startup - q].map(|e| Scored {
            at: e,
            worst: worst_in_row(&buf, &start, startup, e),
        });
        // A row neither side fits: no line (most matrices end here, after
        // their first row).
        if both.iter().all(|e| e.worst > tol) {
            return None;
        }
        ends.push(both);
        if u != anchor && anchor < n {
            to_anchor[u] = buf[anchor];
        }
        for v in (0..n).filter(|&v| v != u && buf[v] == 0.0) {
            zeros.push((u, v));
            if zeros.len() > ZEROS_PER_ROW * m {
                return None;
            }
        }
    }
    // The head has no start; a request as the anchor has, from its column
    // and the ends its row tells apart; the others' ends then with that
    // column too.
    if anchor < n {
        let at = anchor_start(&to_anchor, &ends, startup, anchor, tol)?;
        start[anchor] = at;
        for (both, c) in ends.iter_mut().zip(&to_anchor).filter(|(_, c)| !c.is_nan()) {
            for e in both.iter_mut() {
                e.worst = e.worst.max((startup + (e.at - at).abs() - c).abs());
            }
        }
    }
    // An end its row leaves open is a place a zero entry joins it to, or
    // else the side on which it reads the way the others do (both fit
    // every entry of its row).
    let end: Vec<f64> = ends.iter().map(|e| Scored::clear(e, tol)).collect();
    let way: f64 = (0..n)
        .filter(|&u| !end[u].is_nan())
        .map(|u| (end[u] - start[u]).signum())
        .sum();
    let fallback = ends
        .iter()
        .enumerate()
        .map(|(u, both)| {
            let against = |e: f64| u < n && (e - start[u]) * way < 0.0;
            best_of(both.map(|e| (e.at, e.worst + if against(e.at) { top } else { 0.0 })))
        })
        .collect();
    let places = Fitted::joined(end, fallback, start, &zeros, tol)?;
    let mut on = places.on_blocks(startup, top)?;
    on.slack_s = shortfall(n, &mut row, &mut buf, &on, tol)?;
    Some(on)
}

/// The largest entry, the row it lies in, and the least positive entry;
/// `None` if an entry is negative or not finite, or every entry is zero.
fn extremes(
    n: usize,
    row: &mut impl FnMut(usize, &mut [f64]) -> bool,
    buf: &mut [f64],
) -> Option<(f64, usize, f64)> {
    let (mut top, mut anchor, mut least_positive) = (0.0, 0, f64::INFINITY);
    for u in 0..=n {
        if !row(u, buf) {
            return None;
        }
        let (valid, most, least) = row_extremes(buf);
        if !valid {
            return None;
        }
        if most > top {
            (top, anchor) = (most, u);
        }
        least_positive = least_positive.min(least);
    }
    (top > 0.0).then_some((top, anchor, least_positive))
}

/// `min_v(C[u][v] + s_v)` and `min_v(C[u][v] - s_v)` over the known starts
/// and positive entries of a row (`cost`): the end plus the startup when
/// a start lies before the end, the startup less the end when one lies
/// after it.
fn sides_of(cost: &[f64], start: &[f64]) -> (f64, f64) {
    let (mut p, mut q) = (f64::INFINITY, f64::INFINITY);
    for (&c, &s) in cost.iter().zip(start) {
        // An unknown start (NaN) fails both comparisons.
        if c > 0.0 {
            p = if c + s < p { c + s } else { p };
            q = if c - s < q { c - s } else { q };
        }
    }
    (p, q)
}

/// Whether every entry of a row is finite and not negative, its largest
/// entry and its least positive one.
fn row_extremes(row: &[f64]) -> (bool, f64, f64) {
    let (mut valid, mut most, mut least) = (true, 0.0f64, f64::INFINITY);
    for &c in row {
        valid &= (0.0..f64::INFINITY).contains(&c);
        most = if c > most { c } else { most };
        least = if c > 0.0 && c < least { c } else { least };
    }
    (valid, most, least)
}

/// Whether two rows of costs, `a` and `b`, could come from one line within
/// `tol`: every start lies beside both ends (the rows differ by the
/// distance D between the ends, one way or the other) or between them
/// (the rows sum to a constant: twice the startup plus D). O(n), with no
/// places known: most matrices that are no line fail it at the first pair
/// of rows tried, before any pass over the whole matrix.
fn may_share_a_line(a: &[f64], b: &[f64], tol: f64) -> bool {
    let live = || a.iter().zip(b).filter(|(&x, &y)| x > 0.0 && y > 0.0);
    let apart = live().map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    let mut between: Option<f64> = None;
    live()
        .filter(|(x, y)| apart - (*x - *y).abs() > tol)
        .all(|(x, y)| (x + y - *between.get_or_insert(x + y)).abs() <= 2.0 * tol)
}

/// A place one side of a row or column gives, and its worst difference
/// from that row's or column's entries.
#[derive(Clone, Copy)]
struct Scored {
    at: f64,
    worst: f64,
}

impl Scored {
    /// The place of `both` sides' candidates that fits, if only one does
    /// or both agree (within `tol`); NaN where neither or both fit apart
    /// (a row whose known starts lie to one side fits either).
    fn clear(both: &[Scored; 2], tol: f64) -> f64 {
        let fits = |s: &Scored| s.at.is_finite() && s.worst <= tol;
        match both {
            [a, b] if fits(a) && fits(b) => {
                if (a.at - b.at).abs() <= tol {
                    a.at
                } else {
                    f64::NAN
                }
            }
            [a, _] if fits(a) => a.at,
            [_, b] if fits(b) => b.at,
            _ => f64::NAN,
        }
    }
}

/// Of the finite candidates (place, worst difference), the place that
/// differs least; NaN if none is finite.
fn best_of(candidates: [(f64, f64); 2]) -> f64 {
    candidates
        .into_iter()
        .filter(|c| c.0.is_finite())
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(f64::NAN, |c| c.0)
}

/// The largest difference between a row's positive entries (`cost`) over
/// known starts and the line with the head at `end`.
fn worst_in_row(cost: &[f64], start: &[f64], startup: f64, end: f64) -> f64 {
    // Branch-free: an unknown start (NaN) drops out of `max`.
    cost.iter()
        .zip(start)
        .map(|(&c, &s)| {
            let off = (startup + (end - s).abs() - c).abs();
            if c > 0.0 {
                off
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max)
}

/// The anchor's start from its column (`to_anchor[u]`, the cost from each
/// request or the head `u`, whose end its row gives as `ends[u]`): where
/// an entry is zero the start is that end; else from either side, as the
/// ends are from their rows, taken from the ends their rows tell apart
/// and chosen by how well the whole column then fits, each row at its
/// better end (a row and the column may each fit either way alone).
fn anchor_start(
    to_anchor: &[f64],
    ends: &[[Scored; 2]],
    startup: f64,
    anchor: usize,
    tol: f64,
) -> Option<f64> {
    let rows = || {
        to_anchor
            .iter()
            .zip(ends)
            .enumerate()
            .filter(|&(u, (c, _))| u != anchor && !c.is_nan())
            .map(|(_, (&c, both))| (c, both))
    };
    let clear = || {
        rows()
            .map(|(c, both)| (c, Scored::clear(both, tol)))
            .filter(|(_, e)| !e.is_nan())
    };
    if let Some((_, e)) = clear().find(|&(c, _)| c == 0.0) {
        return Some(e);
    }
    let high = clear().map(|(c, e)| c + e).fold(f64::INFINITY, f64::min) - startup;
    let low = startup - clear().map(|(c, e)| c - e).fold(f64::INFINITY, f64::min);
    let worst = |s: f64| {
        rows()
            .map(|(c, both)| {
                both.iter()
                    .filter(|e| e.at.is_finite())
                    .map(|e| e.worst.max((startup + (e.at - s).abs() - c).abs()))
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(0.0, f64::max)
    };
    let at = best_of([(high, worst(high)), (low, worst(low))]);
    at.is_finite().then_some(at)
}

/// Every place of the fit: `end[u]` of each request and the head (last),
/// `start[v]` of each request.
struct Fitted {
    end: Vec<f64>,
    start: Vec<f64>,
}

impl Fitted {
    /// The places (NaN: not known from a row or column), with those a
    /// zero entry joins moved to the mean of the known ones; an end no
    /// known place joins takes its `fallback`. `None` where a joined place
    /// lies more than `tol` from that mean or a place stays unknown.
    fn joined(
        end: Vec<f64>,
        fallback: Vec<f64>,
        start: Vec<f64>,
        zeros: &[(usize, usize)],
        tol: f64,
    ) -> Option<Self> {
        let m = end.len();
        let mut sets = Parts::new(m + start.len());
        for &(u, v) in zeros {
            sets.join(u, m + v);
        }
        let mut x: Vec<f64> = end.into_iter().chain(start).collect();
        let mut sum = vec![(0.0, 0usize); x.len()];
        for (i, &xi) in x.iter().enumerate().filter(|(_, xi)| !xi.is_nan()) {
            let r = sets.root(i);
            sum[r] = (sum[r].0 + xi, sum[r].1 + 1);
        }
        for i in 0..x.len() {
            let (total, count) = sum[sets.root(i)];
            let mean = total / count as f64;
            x[i] = match fallback.get(i) {
                Some(&f) if count == 0 => f,
                _ if count == 0 || (x[i] - mean).abs() > tol => return None,
                _ => mean,
            };
            if x[i].is_nan() {
                return None;
            }
        }
        let start = x.split_off(m);
        Some(Fitted { end: x, start })
    }

    /// The places as blocks of a [`SeekLine`] (startup `startup`, a block
    /// 2⁻⁵⁰ of the span or of `top`, the largest entry, if that is longer),
    /// mirrored so that every read runs forward, without slack yet; `None`
    /// where reads run both ways.
    fn on_blocks(&self, startup: f64, top: f64) -> Option<OnSeekLine> {
        let all = || self.end.iter().chain(&self.start);
        let lo = all().copied().fold(f64::INFINITY, f64::min);
        let hi = all().copied().fold(f64::NEG_INFINITY, f64::max);
        let quantum = (hi - lo).max(top) * 2f64.powi(-QUANTUM_BITS);
        let block = |x: f64| ((x - lo) / quantum).round() as u64;
        let mut end: Vec<u64> = self.end.iter().map(|&x| block(x)).collect();
        let mut start: Vec<u64> = self.start.iter().map(|&x| block(x)).collect();
        let forward = start.iter().zip(&end).all(|(s, e)| s <= e);
        if !forward {
            let last = block(hi);
            for b in end.iter_mut().chain(start.iter_mut()) {
                *b = last - *b;
            }
            if !start.iter().zip(&end).all(|(s, e)| s <= e) {
                return None;
            }
        }
        let head = end.pop().expect("the head's end is last");
        Some(OnSeekLine {
            line: SeekLine {
                startup_s: startup,
                per_block_s: quantum,
            },
            head,
            reads: start.into_iter().zip(end).collect(),
            slack_s: 0.0,
        })
    }
}

/// How much `on`'s line overstates any entry at most (never below zero);
/// `None` where it misses an entry by more than `tol`.
fn shortfall(
    n: usize,
    row: &mut impl FnMut(usize, &mut [f64]) -> bool,
    buf: &mut [f64],
    on: &OnSeekLine,
    tol: f64,
) -> Option<f64> {
    let OnSeekLine {
        line, head, reads, ..
    } = on;
    let mut slack: f64 = 0.0;
    for u in 0..=n {
        if !row(u, buf) {
            return None;
        }
        let from = if u == n { *head } else { reads[u].1 };
        for (v, &c) in buf.iter().enumerate().filter(|&(v, _)| v != u) {
            let to = reads[v].0;
            let on_line = if from == to {
                0.0
            } else {
                line.least(1, u128::from(from.abs_diff(to)))
            };
            if (on_line - c).abs() > tol {
                return None;
            }
            slack = slack.max(on_line - c);
        }
    }
    Some(slack)
}

#[cfg(test)]
mod tests;
