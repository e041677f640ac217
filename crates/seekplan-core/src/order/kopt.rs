//! Sequential reversal-free k-opt, k = 3 to 5: the exchanges a
//! Lin–Kernighan search makes on the 2n-node symmetric transformation of
//! the asymmetric problem (Jonker & Volgenant, 1983: each node becomes an
//! in-node and an out-node joined by a fixed edge), which is how LKH-3
//! searches asymmetric instances with its 5-opt move (Helsgaun, "An
//! effective implementation of K-opt moves", 2009). On that graph a
//! feasible sequential exchange never reverses a stretch of the original
//! tour: it removes edges x₁→y₁, …, x_k→y_k (y_i the successor of x_i)
//! and adds x_{i+1}→y_i and x₁→y_k. Each step's only choice is x_{i+1}
//! among y_i's cheapest predecessors; y_{i+1} follows. Or-3opt
//! ([`super::local_search::or_3opt`]) is the k = 3 case; at k = 4 and 5
//! the move rearranges up to four segments in any order that leaves one
//! tour, which the chains of swaps to the right ([`super::or_chain`]) do
//! not reach.

use super::dense::Dense;
use super::neighbours::Neighbours;
use super::tour::Tour;
use super::EPS;

/// Most edges exchanged at once.
const K: usize = 5;
/// Predecessors tried as x₂, x₃, x₄ and x₅ (the most gaining first). On
/// stilt at 316 nodes, instance seed 2, kick seeds 1–4, `best` ended
/// 0.95–1.63 % above LKH-3 without these moves, 0.83–1.24 % with breadths
/// 5, 5, 3, 2, 0.55–0.90 % with these and 0.20–0.74 % with 16, 12, 8, 4
/// at about 1.3 times the CPU (2026-11-25).
const BREADTH: [usize; K - 1] = [10, 8, 5, 3];

/// Largest tour (requests) these moves run on. At 1,000 nodes (rtilt,
/// stilt, crane, instance seed 1) they cost 23–108 % more CPU for tours
/// from 0.15 % longer to 0.5 % shorter (2026-11-25); the restarts of
/// [`super::trials`] stop short of that size too.
const MAX_NODES: usize = 500;

/// Improves the tour by sequential reversal-free k-opt moves until none
/// helps (on tours of at most [`MAX_NODES`] requests); returns the gain.
/// With `focus`, only moves from those nodes and from nodes next to a
/// change are tried (after a kick); without, from every node, in rounds
/// until one moves nothing.
pub(crate) fn k_opt(d: &Dense, near: &Neighbours, tour: &mut Tour, focus: Option<&[usize]>) -> f64 {
    if tour.len() < 5 || tour.len() > MAX_NODES + 1 {
        return 0.0;
    }
    tour.improve_by_chains(focus, |tour, x1, touched| {
        let mut search = Search {
            d,
            near,
            tour,
            xs: [x1; K],
            ys: [0; K],
            best: EPS,
            best_k: 0,
            best_xs: [0; K],
            best_ys: [0; K],
        };
        search.ys[0] = tour.at(tour.pos[x1] + 1);
        search.extend(1, d.cost(x1, search.ys[0]));
        let (gain, k) = (search.best, search.best_k);
        if k == 0 {
            return 0.0;
        }
        let (xs, ys) = (search.best_xs, search.best_ys);
        apply(tour, &xs[..k], &ys[..k]);
        touched.extend_from_slice(&xs[..k]);
        touched.extend_from_slice(&ys[..k]);
        gain
    })
}

/// The depth-first search for the best move from one x₁.
struct Search<'a> {
    d: &'a Dense<'a>,
    near: &'a Neighbours,
    tour: &'a Tour,
    /// The tails and heads of the edges removed so far.
    xs: [usize; K],
    ys: [usize; K],
    /// The best closing gain found and its move.
    best: f64,
    best_k: usize,
    best_xs: [usize; K],
    best_ys: [usize; K],
}

impl Search<'_> {
    /// With `i` edges chosen and gain `g` (their costs removed, the edges
    /// x_{j+1}→y_j added), records the closed move if it is the best one
    /// yet and leaves one tour, then tries one more edge.
    fn extend(&mut self, i: usize, g: f64) {
        let (d, tour) = (self.d, self.tour);
        let y = self.ys[i - 1];
        if i >= 3 {
            let closed = g - d.cost(self.xs[0], y);
            if closed > self.best && feasible(tour, &self.xs[..i]) {
                self.best = closed;
                self.best_k = i;
                self.best_xs = self.xs;
                self.best_ys = self.ys;
            }
        }
        if i == K {
            return;
        }
        let mut next: Vec<(f64, usize, usize)> = Vec::with_capacity(self.near.preds[y].len());
        for &x in &self.near.preds[y] {
            if self.xs[..i].contains(&x) {
                continue;
            }
            let opened = g - d.cost(x, y);
            if opened <= EPS {
                continue;
            }
            let after = tour.at(tour.pos[x] + 1);
            next.push((opened + d.cost(x, after), x, after));
        }
        next.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(gain, x, after) in next.iter().take(BREADTH[i - 1]) {
            self.xs[i] = x;
            self.ys[i] = after;
            self.extend(i + 1, gain);
        }
    }
}

/// The removed edges' order along the tour: indices into `xs` by position.
fn by_position(tour: &Tour, xs: &[usize]) -> ([usize; K], [usize; K]) {
    let k = xs.len();
    let mut order = [0; K];
    for (r, o) in order.iter_mut().enumerate().take(k) {
        *o = r;
    }
    order[..k].sort_unstable_by_key(|&j| tour.pos[xs[j]]);
    let mut rank = [0; K];
    for (r, &j) in order[..k].iter().enumerate() {
        rank[j] = r;
    }
    (order, rank)
}

/// Whether removing x_j→y_j and adding x_{j+1}→y_j, x₁→y_k leaves one
/// tour. Segment r runs from the head of the r-th removed edge along the
/// tour to the tail of the next; following the new edges from segment 0
/// must visit all k segments before it returns.
fn feasible(tour: &Tour, xs: &[usize]) -> bool {
    let k = xs.len();
    let (order, rank) = by_position(tour, xs);
    let (mut r, mut steps) = (0, 0);
    loop {
        // Segment r ends at x of the next removed edge, which now leads
        // to y of the edge chosen before it.
        let tail = order[(r + 1) % k];
        r = rank[(tail + k - 1) % k];
        steps += 1;
        if r == 0 {
            return steps == k;
        }
    }
}

/// Makes the move: the segment through the depot (position 0) stays, the
/// others are laid out after it in their new order.
fn apply(tour: &mut Tour, xs: &[usize], ys: &[usize]) {
    let k = xs.len();
    let (order, rank) = by_position(tour, xs);
    let first = tour.pos[xs[order[0]]];
    let last = tour.pos[xs[order[k - 1]]];
    let mut stretch = Vec::with_capacity(last - first);
    // After the fixed segment's end x comes the segment headed by the
    // y its new edge leads to, and so on until the fixed one again.
    let mut tail = order[0];
    loop {
        let r = rank[(tail + k - 1) % k];
        if r == k - 1 {
            break;
        }
        let from = tour.pos[ys[order[r]]];
        let to = tour.pos[xs[order[r + 1]]];
        stretch.extend_from_slice(&tour.t[from..=to]);
        tail = order[r + 1];
    }
    tour.replace(first + 1, &stretch);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::test_support::on_closed_tour;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// On random matrices the moves gain exactly what the tour loses,
        /// keep a permutation, and undo back to the start.
        #[test]
        fn moves_gain_what_the_tour_loses_and_undo(
            n in 4usize..40,
            raw in proptest::collection::vec(0u32..1000, 40 * 40),
            keys in proptest::collection::vec(any::<u32>(), 40),
        ) {
            let rows = (0..n)
                .map(|i| (0..n).map(|j| if i == j { 0.0 } else { f64::from(raw[i * 40 + j]) }).collect())
                .collect();
            on_closed_tour(rows, |d, near| {
                let mut order: Vec<usize> = (0..d.len()).collect();
                order.sort_by_key(|&v| keys[v]);
                let mut tour = Tour::new(d.depot(), &order);
                let gain = k_opt(d, near, &mut tour, None);
                prop_assert!(gain >= 0.0);
                prop_assert!((d.tour(&order) - gain - d.tour(tour.order())).abs() < 1e-6);
                let mut sorted = tour.order().to_vec();
                sorted.sort_unstable();
                prop_assert_eq!(sorted, (0..d.len()).collect::<Vec<_>>());
                tour.undo();
                prop_assert_eq!(tour.order(), &order[..]);
                Ok(())
            })?;
        }
    }

    /// Every feasible sequential reversal-free exchange of k ≤ 5 of a
    /// 7-node cycle's edges, checked against following the successors.
    #[test]
    fn feasibility_matches_following_the_successors() {
        let order: Vec<usize> = (0..6).collect();
        let tour = Tour::new(6, &order);
        let nodes = tour.len();
        let succ = |v: usize| tour.at(tour.pos[v] + 1);
        let mut xs = Vec::new();
        fn each(xs: &mut Vec<usize>, nodes: usize, f: &mut impl FnMut(&[usize])) {
            if xs.len() >= 3 {
                f(xs);
            }
            if xs.len() == K {
                return;
            }
            for x in 0..nodes {
                if !xs.contains(&x) {
                    xs.push(x);
                    each(xs, nodes, f);
                    xs.pop();
                }
            }
        }
        let mut found = [0; K + 1];
        each(&mut xs, nodes, &mut |xs| {
            let k = xs.len();
            let mut next: Vec<usize> = (0..nodes).map(succ).collect();
            for j in 0..k {
                next[xs[(j + 1) % k]] = succ(xs[j]);
            }
            let (mut v, mut steps) = (0, 0);
            loop {
                v = next[v];
                steps += 1;
                if v == 0 {
                    break;
                }
            }
            let one = steps == nodes;
            assert_eq!(feasible(&tour, xs), one, "{xs:?}");
            if one {
                found[k] += 1;
                let mut moved = Tour::new(6, &order);
                let ys: Vec<usize> = xs.iter().map(|&x| succ(x)).collect();
                apply(&mut moved, xs, &ys);
                for (v, &after) in next.iter().enumerate() {
                    assert_eq!(moved.at(moved.pos[v] + 1), after);
                }
            }
        });
        assert!(found[3] > 0 && found[5] > 0);
    }
}
