//! The hierarchical one-phase sweep shared by the clustered algorithms: the
//! head sweeps the disk (SCAN at the higher level), serving each C-request as
//! it is reached and, before it, clusters of D-requests in an in-cluster
//! order (OPT or SPTF at the lower level).
//!
//! Every cluster stops at the next C-request (CI clusters by definition; the
//! CLUST-REQ/CLUST-CYL clusters too, so that the head never runs past a
//! C-request and doubles back: the paper finds the two "almost identical").
//! One-phase (OPS) sweeps start at the disk edge, so D-requests between the
//! edge and the first C-request are in the sweep. Clusters are formed when the head
//! reaches them, from the D-requests that have arrived by then, so arrivals
//! during the round are served in it if the sweep has not passed them. When no C-request remains and nothing waits
//! ahead, the sweep reverses (LOOK) and serves D-requests until the round ends.

use super::opt::{cpu_cost, opt_order, Job};
use super::round::{Dir, Round};
use crate::model::disk::Cylinder;

/// How a cluster of D-requests is cut from those waiting ahead of the head.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Grouping {
    /// CI-OPT(max): the requests before the next C-request (its C-interval);
    /// if more than `max`, halved (first half kept) until at most `max`.
    Interval { max: usize },
    /// CLUST-REQ(max): the next `max` requests in the sweep direction, up to
    /// the next C-request.
    Requests { max: usize },
    /// CLUST-CYL(max|width): the next requests up to the next C-request, at
    /// most `max`, spanning at most `width` cylinders from the first.
    Cylinders { max: usize, width: u32 },
    /// CI-SPTF: all requests of the C-interval, served shortest positioning
    /// time first, re-chosen after every service.
    IntervalSptf,
}

/// Runs the sweep for the rest of the round. `opt6_cpu_s` is the CPU time an
/// OPT schedule of six requests costs (charged before each OPT cluster).
pub fn sweep(r: &mut Round, grouping: Grouping, opt6_cpu_s: f64) {
    loop {
        r.admit();
        let ahead = r.ahead();
        let next_c = r.c_plan.first().map(|c| c.addr.cylinder);
        let first_d = ahead.first().map(|&i| r.pending[i].addr.cylinder);
        match (next_c, first_d) {
            (Some(c), Some(d)) if !before(r.dir, d, c) => r.serve_c(0),
            (Some(_), None) => r.serve_c(0),
            (_, Some(_)) => {
                let limit = next_c;
                match grouping {
                    Grouping::IntervalSptf => interval_sptf(r, limit),
                    _ => {
                        let ids = cluster(r, &ahead, grouping, limit);
                        serve_opt(r, &ids, opt6_cpu_s);
                    }
                }
            }
            (None, None) => {
                if r.any_eligible() {
                    r.dir = r.dir.reversed();
                } else if !r.wait_for_arrival() {
                    return;
                }
            }
        }
    }
}

/// Whether cylinder `a` comes strictly before `b` in direction `dir`.
fn before(dir: Dir, a: Cylinder, b: Cylinder) -> bool {
    match dir {
        Dir::Up => a < b,
        Dir::Down => a > b,
    }
}

/// The (id, cylinder) of the requests forming the next cluster.
fn cluster(
    r: &Round,
    ahead: &[usize],
    grouping: Grouping,
    limit: Option<Cylinder>,
) -> Vec<(u64, Cylinder)> {
    let cyl = |i: usize| r.pending[i].addr.cylinder;
    let before_limit = |i: usize| limit.is_none_or(|c| before(r.dir, cyl(i), c));
    let picked: Vec<usize> = match grouping {
        Grouping::Interval { max } => {
            let mut n = ahead.iter().take_while(|&&i| before_limit(i)).count();
            while n > max {
                n = n.div_ceil(2);
            }
            ahead[..n].to_vec()
        }
        Grouping::Requests { max } => ahead
            .iter()
            .copied()
            .take_while(|&i| before_limit(i))
            .take(max)
            .collect(),
        Grouping::Cylinders { max, width } => {
            let first = cyl(ahead[0]);
            ahead
                .iter()
                .copied()
                .take_while(|&i| before_limit(i))
                .take(max)
                .take_while(|&i| cyl(i).0.abs_diff(first.0) <= width)
                .collect()
        }
        Grouping::IntervalSptf => unreachable!("CI-SPTF is served without a fixed cluster"),
    };
    picked
        .into_iter()
        .map(|i| (r.pending[i].id, cyl(i)))
        .collect()
}

/// Serves a cluster in the exact optimal order, each request only if it
/// leaves time for the remaining C-requests (otherwise it waits).
fn serve_opt(r: &mut Round, ids: &[(u64, Cylinder)], opt6_cpu_s: f64) {
    let cpu = cpu_cost(opt6_cpu_s, ids.len());
    let jobs: Vec<Job> = ids
        .iter()
        .map(|&(id, c)| {
            let d = &r.pending[r.find(id, c).expect("cluster member waits")];
            Job {
                addr: d.addr,
                bytes: d.bytes,
            }
        })
        .collect();
    let mut start = r.head;
    start.time_s += cpu;
    let order = opt_order(r.disk, start, &jobs);
    let mut charged = false;
    for k in order {
        let (id, c) = ids[k];
        let i = r.find(id, c).expect("cluster member waits");
        let extra = if charged { 0.0 } else { cpu };
        if r.fits_d(i, extra) {
            if !charged {
                r.charge_cpu(cpu);
                charged = true;
            }
            r.serve_d(i);
        } else {
            r.defer(i);
        }
    }
}

/// CI-SPTF: serves the C-interval ahead (up to `limit`, the next
/// C-request) shortest positioning time first until nothing in it fits.
fn interval_sptf(r: &mut Round, limit: Option<Cylinder>) {
    let entry = r.sweep_origin();
    // The interval as a cylinder range [lo, hi), whichever way the sweep goes.
    let (lo, hi) = match r.dir {
        Dir::Up => (entry.0, limit.map_or(u32::MAX, |l| l.0)),
        Dir::Down => (limit.map_or(0, |l| l.0 + 1), entry.0 + 1),
    };
    loop {
        r.admit();
        let from = r.pending.partition_point(|p| p.addr.cylinder.0 < lo);
        let to = r.pending.partition_point(|p| p.addr.cylinder.0 < hi);
        // Positioning times only change when the head moves: rank once,
        // then take the first that passes the admission check.
        let mut ranked: Vec<(f64, usize)> = (from..to.max(from))
            .filter(|&i| !r.pending[i].deferred)
            .map(|i| {
                let d = &r.pending[i];
                (r.disk.access(r.head, d.addr, d.bytes).positioning_s(), i)
            })
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let chosen = ranked.iter().position(|&(_, i)| r.fits_d(i, 0.0));
        let refused = chosen.unwrap_or(ranked.len());
        for &(_, i) in &ranked[..refused] {
            r.defer(i);
        }
        match chosen {
            Some(k) => r.serve_d(ranked[k].1),
            None => return,
        }
    }
}
