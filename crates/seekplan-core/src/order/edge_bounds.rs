//! Lagrangian edge fixing: what the α ascent's 1-tree ([`super::alpha`])
//! says of each edge, and the edges branch and bound may leave out.

/// For each edge u→v of the (n + 1)-node problem, a lower bound on every
/// tour that takes it: the 1-tree's bound plus α(u→v), the least a 1-tree
/// forced to contain the edge costs more. No tour cheaper than a known one
/// takes an edge whose bound exceeds that tour's cost, so branch and bound
/// may forbid it. Where the 1-tree bound is close and the assignment bound
/// is not (nearly symmetric costs: 0.04-0.6 % against 1-3 % below the tour
/// on LTO seek matrices of 100 files), few edges a node may take remain,
/// and the children's assignments close in on the tour.
pub(crate) struct EdgeBounds {
    m: usize,
    bound: f64,
    alpha: Vec<f64>,
}

/// Rounding room (relative) of [`EdgeBounds::forbid_above`]: far above what
/// summing the same edges in another order changes, far below any gap
/// between tours.
const FIXING_EPS: f64 = 1e-9;

impl EdgeBounds {
    /// The bounds from a 1-tree's `bound` and the α of each edge (row-major
    /// over the `m` nodes).
    pub(super) fn new(m: usize, bound: f64, alpha: Vec<f64>) -> Self {
        debug_assert_eq!(alpha.len(), m * m);
        EdgeBounds { m, bound, alpha }
    }

    /// The least a tour through u→v can cost.
    #[cfg(test)]
    fn through(&self, u: usize, v: usize) -> f64 {
        self.bound + self.alpha[u * self.m + v]
    }

    /// Forbids (makes infinite) in the row-major (n + 1)² `cost` every
    /// edge no tour cheaper than `tour` (each node's successor) takes,
    /// never one of `tour`'s own: whatever the rounding, the search keeps
    /// its incumbent. How many it forbade.
    pub(crate) fn forbid_above(&self, cost: &mut [f64], tour: &[usize]) -> usize {
        let m = self.m;
        debug_assert_eq!(cost.len(), m * m);
        let upper: f64 = tour.iter().enumerate().map(|(u, &v)| cost[u * m + v]).sum();
        let limit = upper + FIXING_EPS * upper.abs().max(1.0);
        let mut forbidden = 0;
        for (k, (c, alpha)) in cost.iter_mut().zip(&self.alpha).enumerate() {
            if c.is_finite() && self.bound + alpha > limit && tour[k / m] != k % m {
                *c = f64::INFINITY;
                forbidden += 1;
            }
        }
        forbidden
    }
}

#[cfg(test)]
mod tests {
    use super::super::alpha::candidates;
    use super::super::bnb::{plan_with, Patience};
    use super::super::local_search::descend;
    use super::super::test_support::{on_closed_tour, permute, square_rows, tilted};
    use super::EdgeBounds;
    use crate::stop::Stop;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// No tour through an edge costs less than the edge's bound (every
        /// tour, by brute force), and branch and bound with the edges
        /// above its start forbidden still ends on the optimum.
        #[test]
        fn no_tour_through_an_edge_costs_less_than_its_bound(
            n in 3usize..7,
            raw in proptest::collection::vec(1u32..1000, 49),
        ) {
            on_closed_tour(square_rows(n, &raw), |d, _| {
                let start: Vec<usize> = (0..d.len()).collect();
                let edges = candidates(d, d.tour(&start), 3, &Stop::never()).edges;
                let mut order = start.clone();
                let mut optimum = f64::INFINITY;
                let mut failure = None;
                permute(&mut order, 0, &mut |o| {
                    let cost = d.tour(o);
                    optimum = optimum.min(cost);
                    for (u, &v) in d.successors(o).iter().enumerate() {
                        if edges.through(u, v) > cost + 1e-6 {
                            failure = Some(format!("{o:?} costs {cost} through {u}→{v}"));
                        }
                    }
                });
                prop_assert!(failure.is_none(), "{}", failure.unwrap_or_default());
                let (found, optimal) =
                    plan_with(d, Some(&start), None, Some(&edges), &Stop::never(), Patience::UntilStop);
                prop_assert!(optimal);
                prop_assert!((d.tour(&found) - optimum).abs() < 1e-6);
                Ok(())
            })?;
        }
    }

    /// Checks that every edge of the tour `tour` (each node's successor)
    /// is still allowed in the square matrix `cost`.
    fn assert_keeps_its_edges(cost: &[f64], tour: &[usize]) {
        let m = tour.len();
        for (u, &v) in tour.iter().enumerate() {
            assert!(
                cost[u * m + v].is_finite(),
                "the tour's own edge {u}→{v} went"
            );
        }
    }

    /// Bounds that rule out every edge (as rounding could, at the margin)
    /// still leave the incumbent's own: the search keeps its tour and
    /// returns it rather than finding no assignment.
    #[test]
    fn bounds_above_every_tour_leave_the_incumbent() {
        on_closed_tour(tilted(12), |d, _| {
            let order: Vec<usize> = (0..d.len()).rev().collect();
            let m = d.len() + 1;
            let over = EdgeBounds::new(m, 2.0 * d.tour(&order) + 1.0, vec![0.0; m * m]);
            let tour = d.successors(&order);
            let mut cost = d.square();
            let forbidden = over.forbid_above(&mut cost, &tour);
            assert_eq!(forbidden, m * (m - 1) - m, "all but the tour's edges go");
            assert_keeps_its_edges(&cost, &tour);
            let (found, _) = plan_with(
                d,
                Some(&order),
                None,
                Some(&over),
                &Stop::never(),
                Patience::Budgeted,
            );
            assert_eq!(found, order);
        });
    }

    /// On nearly symmetric costs, from a good tour, most edges go.
    #[test]
    fn a_good_tour_forbids_most_edges() {
        on_closed_tour(tilted(40), |d, near| {
            let mut order: Vec<usize> = (0..d.len()).collect();
            descend(d, near, &mut order, true, &Stop::never());
            let found = candidates(d, d.tour(&order), 5, &Stop::never());
            let mut cost = d.square();
            let m = d.len() + 1;
            let tour = d.successors(&order);
            let forbidden = found.edges.forbid_above(&mut cost, &tour);
            assert!(
                forbidden > m * (m - 1) / 2,
                "only {forbidden} of {} edges",
                m * (m - 1)
            );
            assert_keeps_its_edges(&cost, &tour);
        });
    }
}
