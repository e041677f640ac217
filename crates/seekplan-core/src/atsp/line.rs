//! Costs whose rows and columns lie on a line, with a lower bound on an
//! entry by the distance between its row's place and its column's (a seek
//! along a tape costs at least what its length does). The sparse
//! assignment then reads only the entries that bound cannot rule out,
//! where it would read every entry of the matrix ([`super::sparse_lap`]).
//!
//! Places are grouped into buckets of consecutive places; a bucket is
//! ruled out as a whole by the bound at its nearest place.

/// Places per bucket: one bound test stands for this many reads. Set, not
/// tuned: on made-up seek costs of 3,000 nodes (an early form of the tests'
/// `Seeks`, 22.0 million reads with 64), buckets of 16 and 4 read 4 % and
/// 7 % less, with four and sixteen times the bound tests.
const BUCKET: usize = 64;

/// A set of points on a line, sorted by place and grouped into buckets.
pub struct Line {
    /// The points by place.
    sorted: Vec<usize>,
    /// Each bucket's first index into `sorted` (one more at the end).
    starts: Vec<usize>,
    /// Each bucket's least and greatest place.
    lo: Vec<f64>,
    hi: Vec<f64>,
}

impl Line {
    /// The points `(id, place)` (places finite).
    pub fn new(points: impl IntoIterator<Item = (usize, f64)>) -> Self {
        let mut points: Vec<(usize, f64)> = points.into_iter().collect();
        points.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let starts: Vec<usize> = (0..points.len())
            .step_by(BUCKET)
            .chain([points.len()])
            .collect();
        let buckets = starts.windows(2);
        Line {
            lo: buckets.clone().map(|w| points[w[0]].1).collect(),
            hi: buckets.map(|w| points[w[1] - 1].1).collect(),
            sorted: points.into_iter().map(|p| p.0).collect(),
            starts,
        }
    }

    /// Number of buckets.
    pub fn buckets(&self) -> usize {
        self.lo.len()
    }

    /// The points of bucket `b`.
    pub fn members(&self, b: usize) -> &[usize] {
        &self.sorted[self.starts[b]..self.starts[b + 1]]
    }

    /// The least `bound(delta, forward)` over bucket `b`'s places seen
    /// from place `at`: at its nearest place, forward when it lies beyond
    /// `at`; the lesser of both ways at 0 when it reaches `at` (so the
    /// bound holds whichever side of a move is `at`).
    pub fn bound_of(&self, b: usize, at: f64, bound: &dyn Fn(f64, bool) -> f64) -> f64 {
        if at < self.lo[b] {
            bound(self.lo[b] - at, true)
        } else if at > self.hi[b] {
            bound(at - self.hi[b], false)
        } else {
            bound(0.0, true).min(bound(0.0, false))
        }
    }

    /// The bucket where a walk outwards from `at` starts: the first whose
    /// greatest place is at or beyond `at` (`buckets()` when none is).
    fn split(&self, at: f64) -> usize {
        self.hi.partition_point(|&h| h < at)
    }

    /// Walks the buckets outwards from place `at`, the one `bound` puts
    /// lowest first, calling `visit(bucket)` while that bound is at most
    /// `limit()` (asked again at each step: a walk for the least entries
    /// tightens it as it goes). `bound(delta, forward)` must not fall as
    /// `delta` grows.
    pub fn outwards(
        &self,
        at: f64,
        bound: &dyn Fn(f64, bool) -> f64,
        mut limit: impl FnMut() -> f64,
        mut visit: impl FnMut(usize),
    ) {
        let lb = |b: usize| self.bound_of(b, at, bound);
        let split = self.split(at);
        let (mut left, mut right) = (split.checked_sub(1), split);
        loop {
            let l = left.map(|b| (lb(b), b));
            let r = (right < self.buckets()).then(|| (lb(right), right));
            let (cost, b) = match (l, r) {
                (Some(l), Some(r)) => {
                    if l.0 < r.0 {
                        l
                    } else {
                        r
                    }
                }
                (Some(l), None) => l,
                (None, Some(r)) => r,
                (None, None) => return,
            };
            if cost > limit() {
                return;
            }
            visit(b);
            if Some(b) == left {
                left = b.checked_sub(1);
            } else {
                right += 1;
            }
        }
    }
}

/// A cost matrix's rows and columns placed on a line, and the bound.
pub struct OnLine<'a> {
    /// Each row's place.
    pub row_at: Vec<f64>,
    /// Each column's place, if it has one.
    pub col_at: Vec<Option<f64>>,
    /// The rows, and the columns that have a place, on the line.
    pub rows: Line,
    pub cols: Line,
    /// The columns without a place: read in every row.
    pub unplaced: Vec<usize>,
    /// A lower bound on an entry whose row and column lie `delta` apart,
    /// its column at or beyond its row's place when `forward`; it must not
    /// fall as `delta` grows.
    pub bound: Box<dyn Fn(f64, bool) -> f64 + 'a>,
}

impl<'a> OnLine<'a> {
    /// Rows and columns at these places (finite), bounded by `bound`.
    pub fn new(
        row_at: Vec<f64>,
        col_at: Vec<Option<f64>>,
        bound: Box<dyn Fn(f64, bool) -> f64 + 'a>,
    ) -> Self {
        let placed = col_at
            .iter()
            .enumerate()
            .filter_map(|(j, at)| at.map(|a| (j, a)));
        OnLine {
            rows: Line::new(row_at.iter().copied().enumerate()),
            cols: Line::new(placed),
            unplaced: (0..col_at.len()).filter(|&j| col_at[j].is_none()).collect(),
            row_at,
            col_at,
            bound,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_outwards_visits_buckets_by_their_bound_until_the_limit() {
        let line = Line::new((0..640).map(|k| (k, k as f64)));
        assert_eq!(line.buckets(), 10);
        assert_eq!(line.members(3), &(192..256).collect::<Vec<_>>()[..]);
        // Going back costs three times as much as going forward, and at
        // least 1.
        let bound = |delta: f64, forward: bool| if forward { delta } else { 1.0 + 3.0 * delta };
        assert_eq!(line.bound_of(3, 100.0, &bound), 92.0);
        assert_eq!(line.bound_of(0, 100.0, &bound), 112.0);
        assert_eq!(line.bound_of(1, 100.0, &bound), 0.0);
        let mut seen = Vec::new();
        line.outwards(300.0, &bound, || 100.0, |b| seen.push(b));
        // 300 is in bucket 4 (256..320); bucket 5 is 20 ahead, 6 is 84;
        // bucket 3 is 45 back (136), beyond the limit.
        assert_eq!(seen, vec![4, 5, 6]);
        let mut seen = Vec::new();
        line.outwards(1000.0, &bound, || f64::INFINITY, |b| seen.push(b));
        assert_eq!(seen, (0..10).rev().collect::<Vec<_>>());
    }
}
