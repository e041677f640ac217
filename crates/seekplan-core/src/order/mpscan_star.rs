//! MPScan*: MPScan, then repeatedly remove the last scan and insert each of
//! its requests where it adds the least positioning time (Figure 5), keeping
//! the cheapest schedule seen (Figure 4).

use super::dense::Dense;
use super::{mpscan, Problem};

/// The MPScan* order.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    let mpscan::Scans {
        mut order,
        mut scan,
    } = mpscan::plan(problem);
    if order.len() < 2 {
        return order;
    }
    let d = Dense::new(problem);
    let mut best = order.clone();
    let mut best_cost = d.tour(&order);
    loop {
        let last = *scan.last().expect("non-empty");
        if scan.iter().all(|&s| s == last) {
            break;
        }
        let cut = scan.iter().position(|&s| s == last).expect("present");
        let removed = order.split_off(cut);
        scan.truncate(cut);
        for r in removed {
            let k = cheapest_insertion(&d, &order, r);
            let joined = if k == 0 { scan[0] } else { scan[k - 1] };
            order.insert(k, r);
            scan.insert(k, joined);
        }
        let cost = d.tour(&order);
        if cost < best_cost {
            best_cost = cost;
            best.clone_from(&order);
        }
    }
    best
}

/// The position in `order` where inserting `r` adds the least cost
/// (C(x,r) + C(r,y) − C(x,y) for neighbours x, y; the depot at both ends).
pub(crate) fn cheapest_insertion(d: &Dense, order: &[usize], r: usize) -> usize {
    let depot = d.depot();
    let mut best = (f64::INFINITY, 0);
    for k in 0..=order.len() {
        let x = if k == 0 { depot } else { order[k - 1] };
        let y = order.get(k).copied().unwrap_or(depot);
        let added = d.cost(x, r) + d.cost(r, y) - d.cost(x, y);
        if added < best.0 {
            best = (added, k);
        }
    }
    best.1
}
