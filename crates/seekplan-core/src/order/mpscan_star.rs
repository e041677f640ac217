//! MPScan*: MPScan, then repeatedly remove the last scan and insert each of
//! its requests where it adds the least positioning time (Figure 5), keeping
//! the cheapest schedule seen (Figure 4).

use super::dense::Dense;
use super::registry::{Needs, Orderer, Plan};
use super::Options;
use super::{mpscan, Problem};
use crate::stop::Stop;
use crate::Result;

/// The MPScan* order.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    improve(mpscan::plan(problem), &Dense::new(problem), &Stop::never())
}

/// MPScan* from an MPScan schedule, costs taken from `d` (best shares both
/// with its other candidates); once `stop` (a caller's time limit or cancel)
/// is reached, the cheapest schedule seen so far (each pass folds a scan in
/// O(n²) at worst, and a batch has dozens of scans).
pub(crate) fn improve(scans: mpscan::Scans, d: &Dense, stop: &Stop) -> Vec<usize> {
    let mpscan::Scans {
        mut order,
        mut scan,
    } = scans;
    if order.len() < 2 {
        return order;
    }
    let depot = d.depot();
    // edges[k]: the cost of the move into order[k] (into the depot at the end).
    let mut edges: Vec<f64> = (0..=order.len())
        .map(|k| {
            let x = if k == 0 { depot } else { order[k - 1] };
            d.cost(x, order.get(k).copied().unwrap_or(depot))
        })
        .collect();
    let mut best = order.clone();
    let mut best_cost = edges.iter().sum::<f64>();
    // Scans of the schedule, empty ones included (an MPScan from BOT whose
    // first forward pass finds nothing labels its first request scan 1):
    // Figure 4 removes the last scan while more than one remains, so a
    // schedule of one non-empty scan after an empty pass is folded too.
    let mut scans = scan.last().expect("non-empty") + 1;
    while scans > 1 && !stop.reached() {
        let last = scans - 1;
        let cut = scan.iter().position(|&s| s >= last).unwrap_or(order.len());
        let removed = order.split_off(cut);
        scan.truncate(cut);
        edges.truncate(cut);
        let tail = order.last().copied().unwrap_or(depot);
        edges.push(d.cost(tail, depot));
        for r in removed {
            let (k, into, out) = cheapest_insertion(d, &order, &edges, r);
            let joined = match k {
                _ if scan.is_empty() => last - 1,
                0 => scan[0],
                _ => scan[k - 1],
            };
            order.insert(k, r);
            scan.insert(k, joined);
            edges[k] = into;
            edges.insert(k + 1, out);
        }
        let cost = edges.iter().sum::<f64>();
        if cost < best_cost {
            best_cost = cost;
            best.clone_from(&order);
        }
        scans -= 1;
    }
    best
}

/// Where in `order` inserting `r` adds the least cost (C(x,r) + C(r,y) −
/// C(x,y) for neighbours x, y; the depot at both ends; `edges[k]` is
/// C(x,y) for the move into position k), with the two new moves' costs.
fn cheapest_insertion(d: &Dense, order: &[usize], edges: &[f64], r: usize) -> (usize, f64, f64) {
    let mut best = (f64::INFINITY, 0, 0.0, 0.0);
    d.around(r, order, |k, into, out| {
        let added = into + out - edges[k];
        if added < best.0 {
            best = (added, k, into, out);
        }
    });
    (best.1, best.2, best.3)
}

/// MPScan* in the registry.
pub(crate) struct MpScanStar;

impl Orderer for MpScanStar {
    fn name(&self) -> &'static str {
        "mpscan-star"
    }

    fn needs(&self) -> Needs {
        Needs::Tracks
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Block, CostModel, Extent};
    use crate::order::test_support::mlr1;
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Figure 4 folds scans while more than one remains, the empty forward
    /// pass from BOT included: with two requests in two scans the fold
    /// tries both orders, so MPScan* is optimal (it stopped at 7.3 % above
    /// OPT before the empty pass counted). Two requests MPScan reads in one
    /// scan (forward to the one, back to the other) are never folded:
    /// MPScan* keeps MPScan's order, which can be the slower one (a far-end
    /// forward request, then a reverse one mid-tape: 164 s against OPT's
    /// 124 s). Returns whether MPScan folded.
    fn check_two_requests(seed: u64) -> std::result::Result<bool, TestCaseError> {
        let model = mlr1();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let requests = (0..2)
            .map(|_| Extent {
                start: Block(rng.gen_range(0..model.capacity())),
                bytes: model.block_bytes(),
            })
            .collect();
        let problem = Problem::tape(&model, requests, Block(0), None).unwrap();
        let d = Dense::new(&problem);
        let scans = mpscan::plan(&problem);
        let folded = scans.scan.last().is_some_and(|&s| s >= 1);
        let mpscan_order = scans.order.clone();
        let star = improve(scans, &d, &Stop::never());
        let opt = super::super::opt::plan(&problem).unwrap();
        if folded {
            prop_assert!(d.tour(&star) <= d.tour(&opt) + 1e-9, "{star:?} {opt:?}");
        } else {
            prop_assert_eq!(star, mpscan_order);
        }
        Ok(folded)
    }

    #[test]
    fn two_reverse_requests_are_folded_and_one_scan_is_kept() {
        // Two requests on reverse tracks after an empty forward pass (the
        // case that was 7.3 % above OPT), and the one-scan case above.
        assert!(check_two_requests(9_821_501_968_118_382_281).unwrap());
        assert!(!check_two_requests(8_418_871_980_013_424_235).unwrap());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn two_requests_in_two_scans_are_ordered_optimally(seed in any::<u64>()) {
            check_two_requests(seed)?;
        }
    }
}
