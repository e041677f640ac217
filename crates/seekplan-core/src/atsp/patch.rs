//! Karp's cycle patching (Karp 1979): an assignment is a set of cycles;
//! merging each into the largest by the cheapest exchange of successors
//! turns it into one tour, typically a few percent above the assignment
//! bound on asymmetric costs, and a strong start for local search.

/// The cycles of a successor array, each listed from its lowest node.
pub fn cycles(succ: &[usize]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; succ.len()];
    let mut out = Vec::new();
    for s in 0..succ.len() {
        if seen[s] {
            continue;
        }
        let mut cycle = Vec::new();
        let mut v = s;
        while !seen[v] {
            seen[v] = true;
            cycle.push(v);
            v = succ[v];
        }
        out.push(cycle);
    }
    out
}

/// Patches the cycles of `succ` (a permutation) into one: the cycles are
/// taken largest first (ties: lowest node) and each is merged into the tour
/// so far by exchanging the successors of one node `a` of the tour and one
/// node `b` of the cycle, choosing the pair that adds the least cost
/// `c(a, succ[b]) + c(b, succ[a]) − c(a, succ[a]) − c(b, succ[b])`. Where
/// every exchange costs an infinite (forbidden) edge, the cycle is still
/// merged, at its first nodes: the result is always one tour.
pub fn patch(succ: &mut [usize], cost: impl Fn(usize, usize) -> f64) {
    let all = cycles(succ);
    merge_cycles(succ, &all, |at| {
        Some(cheapest_exchange(at.tour, at.cycle, at.succ, &cost))
    });
}

/// Where a merge of cycles stands ([`merge_cycles`]): the cycle to join,
/// the nodes of the tour so far, and each node's successor, predecessor
/// and whether the tour holds it.
pub struct Merge<'a> {
    /// The cycle to join.
    pub cycle: &'a [usize],
    /// The nodes of the tour so far.
    pub tour: &'a [usize],
    /// Each node's successor.
    pub succ: &'a [usize],
    /// Each node's predecessor.
    pub pred: &'a [usize],
    /// Whether the tour so far holds each node.
    pub in_tour: &'a [bool],
}

/// The frame of Karp's patching and of its variants that search fewer
/// exchanges: the cycles of `succ` ([`cycles`] of it) are taken largest
/// first (ties: lowest node) and each is joined to the tour so far by swapping the successors
/// of the pair (a of the tour, b of the cycle) that `pick` names. False,
/// the cycles left apart from there on, when `pick` names none.
pub fn merge_cycles(
    succ: &mut [usize],
    cycles: &[Vec<usize>],
    mut pick: impl FnMut(&Merge) -> Option<(usize, usize)>,
) -> bool {
    let mut all: Vec<&Vec<usize>> = cycles.iter().collect();
    all.sort_by(|x, y| y.len().cmp(&x.len()).then(x[0].cmp(&y[0])));
    let mut pred = vec![0; succ.len()];
    for (v, &s) in succ.iter().enumerate() {
        pred[s] = v;
    }
    let mut in_tour = vec![false; succ.len()];
    let mut iter = all.into_iter();
    let Some(first) = iter.next() else {
        return true;
    };
    let mut tour = first.clone();
    for &v in &tour {
        in_tour[v] = true;
    }
    for cycle in iter {
        let at = Merge {
            cycle,
            tour: &tour,
            succ,
            pred: &pred,
            in_tour: &in_tour,
        };
        let Some((a, b)) = pick(&at) else {
            return false;
        };
        succ.swap(a, b);
        pred[succ[a]] = a;
        pred[succ[b]] = b;
        for &v in cycle {
            in_tour[v] = true;
        }
        tour.extend(cycle);
    }
    true
}

/// The nodes `a` of `tour` and `b` of `cycle` whose exchange of successors
/// adds the least cost (the first pair where every exchange is infinite),
/// searched over every pair: Karp's merge step.
pub fn cheapest_exchange(
    tour: &[usize],
    cycle: &[usize],
    succ: &[usize],
    cost: impl Fn(usize, usize) -> f64,
) -> (usize, usize) {
    let mut best = (f64::INFINITY, tour[0], cycle[0]);
    for &a in tour {
        let (sa, ca) = (succ[a], cost(a, succ[a]));
        for &b in cycle {
            let sb = succ[b];
            let added = cost(a, sb) + cost(b, sa) - ca - cost(b, sb);
            if added < best.0 {
                best = (added, a, b);
            }
        }
    }
    (best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patching_leaves_one_cycle_through_every_node() {
        // Three cycles: (0 1) (2 3 4) (5).
        let mut succ = vec![1, 0, 3, 4, 2, 5];
        let cost = |a: usize, b: usize| ((a * 7 + b * 3) % 11) as f64;
        patch(&mut succ, cost);
        let c = cycles(&succ);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].len(), 6);
    }

    #[test]
    fn cycles_are_merged_even_when_every_exchange_is_forbidden() {
        // Two cycles, (0 1) and (2 3), with no finite edge between them.
        let mut succ = vec![1, 0, 3, 2];
        let cost = |a: usize, b: usize| {
            if (a < 2) == (b < 2) {
                1.0
            } else {
                f64::INFINITY
            }
        };
        patch(&mut succ, cost);
        assert_eq!(cycles(&succ).len(), 1);
    }
}
