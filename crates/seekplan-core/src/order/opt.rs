//! OPT: the exact minimum-cost order by Held–Karp dynamic programming,
//! O(n² 2ⁿ) time, so only for small batches.

use super::dense::Dense;
use super::Problem;
use crate::{Error, Result};

/// Largest batch OPT accepts: 2¹⁶ × 16 states fit in a few MB and take well
/// under a second; every extra request doubles both.
pub const OPT_LIMIT: usize = 16;

/// The order with the least total positioning cost.
pub(crate) fn plan(problem: &Problem) -> Result<Vec<usize>> {
    let n = problem.len();
    if n > OPT_LIMIT {
        return Err(Error::TooLarge {
            algo: "opt".into(),
            n,
            limit: OPT_LIMIT,
        });
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let d = Dense::new(problem);
    let full = (1usize << n) - 1;
    let mut best = vec![f64::INFINITY; (full + 1) * n];
    let mut parent = vec![usize::MAX; (full + 1) * n];
    for j in 0..n {
        best[(1 << j) * n + j] = d.cost(d.depot(), j);
    }
    for mask in 1..=full {
        for last in 0..n {
            let here = best[mask * n + last];
            if mask & (1 << last) == 0 || here.is_infinite() {
                continue;
            }
            for next in 0..n {
                if mask & (1 << next) != 0 {
                    continue;
                }
                let cand = here + d.cost(last, next);
                let slot = (mask | 1 << next) * n + next;
                if cand < best[slot] {
                    best[slot] = cand;
                    parent[slot] = last;
                }
            }
        }
    }
    let total = |j: usize| best[full * n + j] + d.cost(j, d.depot());
    let mut last = (0..n)
        .min_by(|&a, &b| total(a).partial_cmp(&total(b)).expect("finite costs"))
        .expect("n > 0");
    let mut mask = full;
    let mut order = Vec::with_capacity(n);
    while last != usize::MAX {
        order.push(last);
        let prev = parent[mask * n + last];
        mask &= !(1 << last);
        last = prev;
    }
    order.reverse();
    Ok(order)
}
