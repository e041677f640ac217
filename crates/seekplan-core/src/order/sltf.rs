//! SLTF: shortest locate time first, the greedy baseline (Hillyer & Silberschatz).

use super::dense::Dense;
use super::registry::{Orderer, Plan};
use super::Options;
use super::Problem;
use crate::model::{AlongBound, Pos};
use crate::Result;

/// From the head, repeatedly serve the request with the least locate time.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    plan_with(&Dense::on_demand(problem))
}

/// SLTF on the costs `d` (best shares them among seeds); ties go to the
/// lower request. With cached positions and a model that bounds a move by
/// its distance along the medium, each step looks only at the requests
/// near the head (the same order, found in O(n log n) rather than O(n²)).
pub(crate) fn plan_with(d: &Dense) -> Vec<usize> {
    match (d.cached_positions(), d.along_bound()) {
        (Some((from, to)), Some(bound)) => by_distance(d, from, to, bound),
        _ => by_scan(d),
    }
}

/// SLTF by scanning every remaining request at each step.
fn by_scan(d: &Dense) -> Vec<usize> {
    let mut remaining: Vec<usize> = (0..d.len()).collect();
    let mut order = Vec::with_capacity(remaining.len());
    let mut head = d.depot();
    while let Some(k) = d.cheapest(head, &remaining) {
        let j = remaining.swap_remove(k);
        order.push(j);
        head = j;
    }
    order
}

/// SLTF that walks outwards from the head along the medium, left and right
/// by increasing distance, and stops once the model's bound for every
/// request further out exceeds the cheapest move found (`from`: the head
/// after each node, `to`: each request's start).
fn by_distance(d: &Dense, from: &[Pos], to: &[Pos], mut bound: AlongBound) -> Vec<usize> {
    let n = d.len();
    let mut sorted: Vec<usize> = (0..n).collect();
    sorted.sort_by(|&a, &b| to[a].along.total_cmp(&to[b].along).then(a.cmp(&b)));
    let keys: Vec<f64> = sorted.iter().map(|&j| to[j].along).collect();
    let sides: Vec<u8> = sorted.iter().map(|&j| to[j].side).collect();
    let tracks: Vec<u32> = sorted.iter().map(|&j| to[j].track).collect();
    // Sides ordered along the medium (LTO's halves of the tape) let the
    // bound tell moves within a side from moves between sides; otherwise
    // every move is bounded as if between sides.
    let two_halves = sides.windows(2).all(|w| w[0] <= w[1]) && sides.last() <= Some(&1);
    if !two_halves {
        bound.base = bound.base.min(bound.other_side_base);
    }
    // First place of side 1 (the far half): the sides' boundary.
    let boundary = sides.partition_point(|&s| s == 0);
    let mut live = Live::new(n);
    let mut order = Vec::with_capacity(n);
    let mut head = d.depot();
    for _ in 0..n {
        let (at, head_side, head_track) = (from[head].along, from[head].side, from[head].track);
        // The bound of the request at place `k` (`delta` away), and where
        // on this side the other half of the tape begins with its bound:
        // a request beyond k can only beat this one's bound over there.
        let bounds = |k: usize, delta: f64, rightwards: bool| {
            let own = bound.at(delta, two_halves && sides[k] != head_side);
            let other = match (two_halves, head_side, rightwards) {
                (true, 0, true) if boundary < n && k < boundary => {
                    Some((boundary, bound.at(keys[boundary] - at, true)))
                }
                (true, 1, false) if boundary > 0 && k >= boundary => {
                    Some((boundary - 1, bound.at(at - keys[boundary - 1], true)))
                }
                _ => None,
            };
            (own, other)
        };
        let split = keys.partition_point(|&k| k < at);
        let mut left = live.before(split);
        let mut right = live.from(split);
        let mut best: Option<(f64, usize, usize)> = None;
        // The last place timed and its move: requests at one place (many
        // files in one block) cost the same, so the move is timed once.
        let mut timed: Option<(Pos, f64)> = None;
        loop {
            let dl = left.map(|k| at - keys[k]);
            let dr = right.map(|k| keys[k] - at);
            let (k, delta, go_left) = match (dl, dr) {
                (Some(l), Some(r)) if l <= r => (left.unwrap(), l, true),
                (_, Some(r)) => (right.unwrap(), r, false),
                (Some(l), None) => (left.unwrap(), l, true),
                (None, None) => break,
            };
            let mut skip = false;
            if let Some((c, _, _)) = best {
                let (own, other) = bounds(k, delta, !go_left);
                if own > c {
                    // Nothing more on this half of this side can win: jump
                    // to the other half if it might, else close the side.
                    let jump = other.filter(|&(_, b)| b <= c).map(|(place, _)| place);
                    if go_left {
                        left = jump.and_then(|p| live.before(p + 1));
                    } else {
                        right = jump.and_then(|p| live.from(p));
                    }
                    continue;
                }
                // This one alone cannot win if leaving the track costs it
                // more (the search goes on past it: the bound of those
                // further out does not know their tracks).
                skip = tracks[k] != head_track && own + bound.other_track_extra > c;
            }
            if !skip {
                let j = sorted[k];
                let c = match timed {
                    Some((place, c)) if same_place(place, to[j]) => c,
                    _ => {
                        let c = d.cost(head, j);
                        timed = Some((to[j], c));
                        c
                    }
                };
                if best.is_none_or(|(bc, bj, _)| (c, j) < (bc, bj)) {
                    best = Some((c, j, k));
                }
            }
            if go_left {
                left = live.before(k);
            } else {
                right = live.from(k + 1);
            }
        }
        let (_, j, k) = best.expect("a request remains");
        live.remove(k);
        order.push(j);
        head = j;
    }
    order
}

/// Whether two positions are the same place to the bit (so every move
/// there from one head takes the same time).
fn same_place(a: Pos, b: Pos) -> bool {
    a.along.to_bits() == b.along.to_bits() && (a.track, a.zone, a.side) == (b.track, b.zone, b.side)
}

/// The live places of a sorted array: the nearest live one at or after,
/// or before, a place, with removals (union-find with path halving).
struct Live {
    /// next[k]: a place ≥ k that is live or closer to one (n: none).
    next: Vec<usize>,
    /// prev[k + 1]: a place < k + 1 that is live or closer to one (0: none).
    prev: Vec<usize>,
}

impl Live {
    fn new(n: usize) -> Self {
        Live {
            next: (0..=n).collect(),
            prev: (0..=n).collect(),
        }
    }

    /// The first live place at or after `k`.
    fn from(&mut self, mut k: usize) -> Option<usize> {
        while self.next[k] != k {
            self.next[k] = self.next[self.next[k]];
            k = self.next[k];
        }
        (k + 1 < self.next.len()).then_some(k)
    }

    /// The last live place before `k`.
    fn before(&mut self, k: usize) -> Option<usize> {
        // prev works on places shifted by one: slot 0 means "none".
        let mut s = k;
        while self.prev[s] != s {
            self.prev[s] = self.prev[self.prev[s]];
            s = self.prev[s];
        }
        (s > 0).then(|| s - 1)
    }

    /// Marks place `k` dead.
    fn remove(&mut self, k: usize) {
        self.next[k] = k + 1;
        self.prev[k + 1] = k;
    }
}

/// SLTF in the registry.
pub(crate) struct Sltf;

impl Orderer for Sltf {
    fn name(&self) -> &'static str {
        "sltf"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_places_skip_removed_ones() {
        let mut live = Live::new(5);
        assert_eq!((live.from(0), live.before(0)), (Some(0), None));
        live.remove(1);
        live.remove(2);
        assert_eq!(live.from(1), Some(3));
        assert_eq!(live.before(3), Some(0));
        live.remove(4);
        assert_eq!(live.from(4), None);
        assert_eq!(live.before(5), Some(3));
        live.remove(0);
        assert_eq!(live.before(3), None);
    }
}
