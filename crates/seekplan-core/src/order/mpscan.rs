//! MPScan: a multi-pass elevator that never breaks streaming (section 4.3).
//! Each step serves, among the requests further down the current track
//! (seek class 1) and on co-directional tracks beyond their key point (class
//! 4), the one physically closest ahead; when none is left, a scan in the
//! opposite direction starts from that end of the tape.

use super::registry::{Needs, Orderer, Plan};
use super::Options;
use super::{Head, Problem};
use crate::model::{classify, Physical, SeekClass};
use crate::stop::{Clock, Stop};
use crate::Result;

/// An MPScan order and the scan each served request belongs to.
#[derive(Clone)]
pub(crate) struct Scans {
    /// Requests in service order.
    pub(crate) order: Vec<usize>,
    /// Scan number of each entry of `order` (0-based, non-decreasing).
    pub(crate) scan: Vec<usize>,
}

/// The MPScan schedule of a problem with a linear tape geometry.
pub(crate) fn plan(problem: &Problem) -> Scans {
    plan_until(problem, &Stop::never()).expect("nothing stops it")
}

/// [`plan`], or `None` once `stop` (a caller's time limit or cancel) is reached:
/// each step looks at every remaining request, 1.4 s at 20,000 MLR1
/// requests.
pub(crate) fn plan_until(problem: &Problem, stop: &Stop) -> Option<Scans> {
    let n = problem.len();
    let targets: Vec<(Physical, f64)> = (0..n)
        .map(|j| problem.target_physical(j).expect("checked by run()"))
        .collect();
    let after: Vec<Physical> = (0..n)
        .map(|i| {
            problem
                .head_physical(Head::After(i))
                .expect("checked by run()")
        })
        .collect();
    let mut head = problem
        .head_physical(Head::Start)
        .expect("checked by run()");
    // At the start of a later scan the head is taken to be at the tape end the
    // scan starts from, so every request on its tracks is a candidate.
    let mut scan_start = false;
    let mut remaining: Vec<usize> = (0..n).collect();
    let mut order = Vec::with_capacity(n);
    let mut scan = Vec::with_capacity(n);
    let mut current = 0;
    let mut clock = Clock::new(stop);
    while !remaining.is_empty() {
        clock.tick()?;
        let candidate = remaining
            .iter()
            .enumerate()
            .filter(|(_, &j)| {
                let (to, keypoint) = targets[j];
                if scan_start {
                    to.direction == head.direction
                } else {
                    matches!(
                        classify(&head, &to, keypoint),
                        SeekClass::SameTrackAhead | SeekClass::CoTrackAhead
                    )
                }
            })
            .map(|(k, &j)| (k, head.ahead(targets[j].0.lpos), j))
            .min_by(|a, b| {
                (a.1, a.2)
                    .partial_cmp(&(b.1, b.2))
                    .expect("finite positions")
            });
        match candidate {
            Some((k, _, j)) => {
                remaining.swap_remove(k);
                order.push(j);
                scan.push(current);
                head = after[j];
                scan_start = false;
            }
            None => {
                current += 1;
                let direction = head.direction.flip();
                head = Physical {
                    track: u32::MAX,
                    direction,
                    lpos: if direction.sign() > 0.0 { 0.0 } else { 1.0 },
                };
                scan_start = true;
            }
        }
    }
    Some(Scans { order, scan })
}

/// MPScan in the registry.
pub(crate) struct MpScan;

impl Orderer for MpScan {
    fn name(&self) -> &'static str {
        "mpscan"
    }

    fn needs(&self) -> Needs {
        Needs::Tracks
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem).order))
    }
}
