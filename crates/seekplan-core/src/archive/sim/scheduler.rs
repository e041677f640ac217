//! The Main-Scheduler and Load-Balancer of section 5, behind a trait so
//! that another placement or rebalancing rule is one file and one line of
//! [`SCHEDULERS`].

use super::state::{Archive, Ev, LOAD_BALANCER, NO_PROCESS};
use super::Type;
use crate::sim::Calendar;
use crate::{Error, Result};
use std::collections::{BTreeMap, HashSet};

/// Where requests go and when processes are rebuilt.
pub(super) trait Scheduler: Sync {
    /// Maps request `r` on a process at its arrival (creating one if the
    /// rule says so); false if it must wait.
    fn place(&self, a: &mut Archive<'_>, r: usize, cal: &mut Calendar<Ev>) -> bool;
    /// Whether a rebalance is due at a periodic check at `now`.
    fn balance_due(&self, a: &Archive<'_>, now: f64) -> bool;
    /// Rebuilds the processes and maps the waiting and queued requests.
    fn balance(&self, a: &mut Archive<'_>, cal: &mut Calendar<Ev>);
}

/// The paper's Main-Scheduler and Load-Balancer (section 5).
pub(super) struct Paper;

/// Every scheduler, by the name `scheduler.algorithm` takes.
pub(super) const SCHEDULERS: &[(&str, &dyn Scheduler)] = &[("paper", &Paper)];

/// The names `scheduler.algorithm` takes, in registry order.
pub(crate) fn scheduler_names() -> Vec<&'static str> {
    SCHEDULERS.iter().map(|(n, _)| *n).collect()
}

/// The scheduler called `name`; the error lists the known names.
pub(super) fn by_name(name: &str) -> Result<&'static dyn Scheduler> {
    SCHEDULERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .ok_or_else(|| {
            Error::invalid(
                "scheduler.algorithm",
                format!(
                    "unknown scheduler {name:?}; choose one of {}",
                    scheduler_names().join(", ")
                ),
            )
        })
}

impl Scheduler for Paper {
    /// Main-Scheduler: a process of the type with a light load, else a new
    /// process, else any process of the type (section 5).
    fn place(&self, a: &mut Archive<'_>, r: usize, cal: &mut Calendar<Ev>) -> bool {
        let req = a.gen.requests[r];
        let ty = (req.policy, req.scheme);
        let live: Vec<usize> = a.by_type.get(&ty).cloned().unwrap_or_default();
        let lightest = live.iter().copied().min_by_key(|&p| a.load(p));
        if let Some(p) = lightest.filter(|&p| a.load(p) <= a.cfg.scheduler.max_light_load as usize)
        {
            a.assign(p, r, cal);
        } else if let Some(p) = a.create(ty) {
            a.assign(p, r, cal);
        } else if let Some(p) = lightest {
            a.assign(p, r, cal);
        } else {
            a.waits[r] |= NO_PROCESS;
            return false;
        }
        true
    }

    fn balance_due(&self, a: &Archive<'_>, now: f64) -> bool {
        let s = &a.cfg.scheduler;
        let oldest = a.waiting.iter().min().copied();
        let stale = oldest.is_some_and(|r| {
            let q = a.gen.requests[r];
            now - q.arrival_s > s.max_waiting_time_s && !a.file_running.contains(&q.file)
        });
        stale || a.waiting.len() > s.max_req_count as usize || imbalance(a) > s.max_imbalance
    }

    /// Load-Balancer (section 5): every pending request becomes unscheduled,
    /// every process ends (running ones after their request), one process
    /// per required type is created, then more for the most loaded types
    /// while drives remain, and the requests are mapped again.
    fn balance(&self, a: &mut Archive<'_>, cal: &mut Calendar<Ev>) {
        let now = cal.now();
        a.lb_runs += 1;
        let mut pending: Vec<usize> = a.waiting.drain(..).collect();
        for p in 0..a.procs.len() {
            let Some(pr) = a.procs[p].as_mut() else {
                continue;
            };
            for r in pr.queue.drain(..) {
                a.waits[r] |= LOAD_BALANCER;
                pending.push(r);
            }
            if pr.running.is_some() {
                pr.terminating = true;
                let ty = pr.ty;
                if let Some(list) = a.by_type.get_mut(&ty) {
                    list.retain(|&q| q != p);
                }
            } else {
                a.close(p, now);
            }
        }
        pending.sort_unstable();
        let mut wanted: BTreeMap<Type, usize> = BTreeMap::new();
        for &r in &pending {
            let q = a.gen.requests[r];
            *wanted.entry((q.policy, q.scheme)).or_default() += 1;
        }
        // One process per required type, the type of the oldest pending
        // request first (the paper leaves the order open; most-requested
        // first livelocks when the drives are too few for one process per
        // type: the oldest request's type may never get one).
        let mut required: Vec<Type> = Vec::new();
        for &r in &pending {
            let q = a.gen.requests[r];
            if !required.contains(&(q.policy, q.scheme)) {
                required.push((q.policy, q.scheme));
            }
        }
        for ty in required {
            a.create(ty);
        }
        loop {
            let mut order: Vec<(f64, Type)> = wanted
                .iter()
                .map(|(ty, &n)| {
                    (
                        n as f64 / a.by_type.get(ty).map_or(0, Vec::len).max(1) as f64,
                        *ty,
                    )
                })
                .collect();
            order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            if !order.iter().any(|&(_, ty)| a.create(ty).is_some()) {
                break;
            }
        }
        let mut blocked_files = HashSet::new();
        for r in pending {
            let q = a.gen.requests[r];
            let target = a
                .by_type
                .get(&(q.policy, q.scheme))
                .and_then(|ps| ps.iter().copied().min_by_key(|&p| a.load(p)));
            let free = !a.file_running.contains(&q.file)
                && !blocked_files.contains(&q.file)
                && !a.blocked(r, now);
            match target.filter(|_| free) {
                Some(p) => a.assign(p, r, cal),
                None => a.waiting.push_back(r),
            }
            blocked_files.insert(q.file);
        }
    }
}

/// Load-per-process imbalance between request types.
fn imbalance(a: &Archive<'_>) -> f64 {
    let mut reqs: BTreeMap<Type, (usize, usize)> = BTreeMap::new();
    for (ty, ps) in &a.by_type {
        let e = reqs.entry(*ty).or_default();
        e.1 += ps.len();
        e.0 += ps.iter().map(|&p| a.load(p)).sum::<usize>();
    }
    for &r in &a.waiting {
        let q = a.gen.requests[r];
        reqs.entry((q.policy, q.scheme)).or_default().0 += 1;
    }
    let loads: Vec<f64> = reqs
        .values()
        .map(|&(n, p)| n as f64 / p.max(1) as f64)
        .collect();
    let max = loads.iter().copied().fold(f64::MIN, f64::max);
    let min = loads.iter().copied().fold(f64::MAX, f64::min);
    if loads.is_empty() {
        0.0
    } else {
        max - min
    }
}
