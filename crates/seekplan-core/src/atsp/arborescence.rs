//! Minimum spanning arborescences (Chu & Liu 1965, Edmonds 1967): the
//! second half of Fischetti & Toth's additive bound for the asymmetric TSP
//! (Mathematical Programming 53, 1992). A tour through a root, less the
//! edge into the root, is an arborescence out of it, so on an optimal
//! assignment's reduced costs (all non-negative) the cheapest arborescence
//! is a lower bound on what any tour adds to the assignment.

use super::{cycles, Assignment};
use crate::stop::Stop;

/// What every tour through the `m` nodes of the row-major `cost` costs at
/// least beyond its optimal assignment `a`: the cheapest arborescence on
/// `a`'s reduced costs out of `root` or, transposed, into it, whichever is
/// more (0 where `a` is one cycle or neither exists). Add it to `a.total`
/// for the bound. Each of `a`'s cycles is taken as one node (and the
/// root's as the root): inside a cycle its own edges join every node at no
/// cost, and between cycles the cheapest reduced cost stands for them all,
/// so the contracted graph has the same cheapest arborescence. One pass
/// over the costs, then Chu-Liu on as many nodes as `a` has cycles; once
/// `stop` (a caller's time limit or cancel) is reached, what its rounds
/// summed so far, still a bound.
pub fn additive_bound(m: usize, cost: &[f64], a: &Assignment, root: usize, stop: &Stop) -> f64 {
    assert_eq!(cost.len(), m * m, "cost is not m x m");
    let cycles = cycles(&a.succ);
    let k = cycles.len();
    if k <= 1 {
        return 0.0;
    }
    let of = cycle_of(m, &cycles);
    let mut joins = Joins::new(k);
    joins.add_every(cost, &of, &a.row, &a.col);
    joins.arborescences(of[root], stop).unwrap_or(0.0)
}

/// Each of the `m` nodes' place among `cycles`.
pub(crate) fn cycle_of(m: usize, cycles: &[Vec<usize>]) -> Vec<usize> {
    let mut of = vec![0; m];
    for (k, cycle) in cycles.iter().enumerate() {
        for &v in cycle {
            of[v] = k;
        }
    }
    of
}

/// The cheapest reduced cost from each cycle of an assignment to each
/// other: what the additive bound is taken from, at the root
/// ([`additive_bound`]) and in branch and bound's nodes.
pub(crate) struct Joins {
    count: usize,
    /// Row-major, `count` × `count`.
    between: Vec<f64>,
}

impl Joins {
    /// No edge yet between `count` cycles.
    pub(crate) fn new(count: usize) -> Self {
        Joins {
            count,
            between: vec![f64::INFINITY; count * count],
        }
    }

    /// An edge from cycle `a` to cycle `b` of reduced cost `r` (rounding
    /// may leave it just below zero: taken as zero).
    pub(crate) fn add(&mut self, a: usize, b: usize, r: f64) {
        let at = a * self.count + b;
        self.between[at] = self.between[at].min(r.max(0.0));
    }

    /// Every finite edge of the row-major square `cost` between two of the
    /// cycles `of` names, at its reduced cost under the potentials `u`
    /// (rows) and `v` (columns).
    pub(crate) fn add_every(&mut self, cost: &[f64], of: &[usize], u: &[f64], v: &[f64]) {
        for (i, row) in cost.chunks(of.len()).enumerate() {
            for (j, &x) in row.iter().enumerate() {
                if of[i] != of[j] && x.is_finite() {
                    self.add(of[i], of[j], x - u[i] - v[j]);
                }
            }
        }
    }

    /// The larger of the cheapest arborescences out of and into cycle
    /// `root` over these edges (each cycle one node), `None` where some
    /// cycle cannot be reached; once `stop` is reached, see
    /// [`min_arborescence`].
    pub(crate) fn arborescences(&self, root: usize, stop: &Stop) -> Option<f64> {
        let k = self.count;
        let into: Vec<f64> = (0..k * k)
            .map(|at| self.between[at % k * k + at / k])
            .collect();
        let out = min_arborescence(k, &self.between, root, stop)?;
        Some(out.max(min_arborescence(k, &into, root, stop)?))
    }

    /// The most of: the sums of the cheapest edges out of each cycle and
    /// into each, and [`Joins::arborescences`] out of `root`; infinite
    /// where a cycle cannot be left, entered or reached.
    pub(crate) fn least(&self, root: usize) -> f64 {
        let k = self.count;
        let out: f64 = (0..k)
            .map(|a| {
                self.between[a * k..(a + 1) * k]
                    .iter()
                    .copied()
                    .fold(f64::INFINITY, f64::min)
            })
            .sum();
        let inn: f64 = (0..k)
            .map(|b| {
                (0..k)
                    .map(|a| self.between[a * k + b])
                    .fold(f64::INFINITY, f64::min)
            })
            .sum();
        let trees = self
            .arborescences(root, &Stop::never())
            .unwrap_or(f64::INFINITY);
        out.max(inn).max(trees)
    }
}

/// The least total weight of an arborescence rooted at `root` spanning the
/// `m` nodes of the row-major `w` (`w[u * m + v]` the edge u → v; infinite
/// entries and the diagonal are ignored, the rest non-negative), or `None`
/// where some node cannot be reached from the root. O(m²) a round; each
/// round contracts every cycle of the cheapest edges into one node. Once
/// `stop` is reached it returns what the rounds so far summed: each adds
/// every node's cheapest edge in, all non-negative, so that is a lower
/// bound on the whole.
pub(crate) fn min_arborescence(m: usize, w: &[f64], root: usize, stop: &Stop) -> Option<f64> {
    assert_eq!(w.len(), m * m, "w is not m x m");
    let mut n = m;
    let mut w = w.to_vec();
    let mut root = root;
    let mut total = 0.0;
    const NONE: usize = usize::MAX;
    loop {
        if n < m && stop.reached() {
            return Some(total);
        }
        // Each node's cheapest edge in.
        let mut inw = vec![f64::INFINITY; n];
        let mut pre = vec![NONE; n];
        for (u, row) in w.chunks(n).enumerate() {
            for (v, &x) in row.iter().enumerate() {
                if u != v && x < inw[v] {
                    inw[v] = x;
                    pre[v] = u;
                }
            }
        }
        inw[root] = 0.0;
        pre[root] = NONE;
        if (0..n).any(|v| v != root && pre[v] == NONE) {
            return None;
        }
        total += inw.iter().sum::<f64>();
        // The cycles of `pre`, each numbered; the other nodes after them.
        let mut id = vec![NONE; n];
        let mut seen = vec![NONE; n];
        let mut count = 0;
        for v in 0..n {
            let mut x = v;
            while x != root && id[x] == NONE && seen[x] != v {
                seen[x] = v;
                x = pre[x];
            }
            if x != root && id[x] == NONE {
                // x lies on a cycle first met from v.
                let mut y = x;
                loop {
                    id[y] = count;
                    y = pre[y];
                    if y == x {
                        break;
                    }
                }
                count += 1;
            }
        }
        if count == 0 {
            return Some(total);
        }
        for x in id.iter_mut().filter(|x| **x == NONE) {
            *x = count;
            count += 1;
        }
        // Contract: every edge into v now costs what it adds over v's
        // cheapest.
        let mut next = vec![f64::INFINITY; count * count];
        for (u, row) in w.chunks(n).enumerate() {
            for (v, &x) in row.iter().enumerate() {
                let (a, b) = (id[u], id[v]);
                if a != b && x.is_finite() {
                    let y = x - inw[v];
                    if y < next[a * count + b] {
                        next[a * count + b] = y;
                    }
                }
            }
        }
        w = next;
        n = count;
        root = id[root];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsp::assignment;
    use crate::atsp::test_costs::{exact, rings};
    use proptest::prelude::*;

    /// The cheapest arborescence by trying every parent choice.
    fn brute(m: usize, w: &[f64], root: usize) -> Option<f64> {
        fn go(
            v: usize,
            m: usize,
            root: usize,
            w: &[f64],
            pre: &mut Vec<usize>,
            best: &mut Option<f64>,
        ) {
            if v == m {
                // Every node must reach the root through its parents.
                for s in 0..m {
                    let (mut x, mut steps) = (s, 0);
                    while x != root {
                        x = pre[x];
                        steps += 1;
                        if steps > m {
                            return;
                        }
                    }
                }
                let cost: f64 = (0..m)
                    .filter(|&x| x != root)
                    .map(|x| w[pre[x] * m + x])
                    .sum();
                if best.is_none_or(|b| cost < b) {
                    *best = Some(cost);
                }
                return;
            }
            if v == root {
                return go(v + 1, m, root, w, pre, best);
            }
            for u in (0..m).filter(|&u| u != v && w[u * m + v].is_finite()) {
                pre[v] = u;
                go(v + 1, m, root, w, pre, best);
            }
        }
        let mut best = None;
        go(0, m, root, w, &mut vec![usize::MAX; m], &mut best);
        best
    }

    #[test]
    fn rings_joined_dearly_are_bounded_by_what_joining_them_costs() {
        // Three rings of four nodes, 1 around each ring, 100 between: the
        // assignment (12) is the rings, and every tour pays about 99 on
        // top to enter each of the two rings the root is not on.
        let m = 12;
        let cost = rings(3, 4);
        let a = assignment(m, &cost);
        let bound = a.total + additive_bound(m, &cost, &a, 0, &Stop::never());
        assert!(bound > a.total + 190.0, "{bound} over {}", a.total);
        assert!(bound <= exact(m, &cost) + 1e-9);
    }

    proptest! {
        #[test]
        fn the_additive_bound_is_below_every_tour(
            m in 2usize..9,
            raw in proptest::collection::vec(0u32..1000, 81),
            small in any::<bool>(),
            root in 0usize..9,
        ) {
            let cost: Vec<f64> = (0..m * m)
                .map(|k| {
                    if k / m == k % m {
                        f64::INFINITY
                    } else {
                        f64::from(if small { raw[k] % 5 } else { raw[k] })
                    }
                })
                .collect();
            let a = assignment(m, &cost);
            let bound = a.total + additive_bound(m, &cost, &a, root % m, &Stop::never());
            prop_assert!(bound >= a.total);
            prop_assert!(bound <= exact(m, &cost) + 1e-9, "{} above {}", bound, exact(m, &cost));
        }

        #[test]
        fn finds_the_cheapest_arborescence(
            m in 1usize..7,
            raw in proptest::collection::vec(0u32..20, 36),
            gaps in proptest::collection::vec(any::<bool>(), 36),
            root in 0usize..7,
        ) {
            let root = root % m;
            let w: Vec<f64> = (0..m * m)
                .map(|k| if gaps[k] && k % 3 == 0 { f64::INFINITY } else { f64::from(raw[k]) })
                .collect();
            let want = brute(m, &w, root);
            let got = min_arborescence(m, &w, root, &Stop::never());
            // Stopped after its first round: a bound on the whole.
            let first = min_arborescence(m, &w, root, &Stop::at(Some(std::time::Instant::now())));
            if let (Some(f), Some(g)) = (first, got) {
                prop_assert!(f <= g + 1e-9, "{f} above {g}");
            }
            match (want, got) {
                (Some(a), Some(b)) => prop_assert!((a - b).abs() < 1e-9, "{a} vs {b}"),
                (a, b) => prop_assert_eq!(a.is_some(), b.is_some()),
            }
        }
    }
}
