//! CI-OPT's exact in-cluster order: the order that finishes a cluster's
//! requests soonest, by Held-Karp dynamic programming ([`held_karp`]).
//!
//! The cost of going from request i to j does not depend on the path: the
//! head leaves i at i's cylinder with the angle `angle_i + transfer_i /
//! rotation` whatever time it is, so the problem is an open asymmetric TSP on
//! a fixed cost matrix.

use crate::atsp::held_karp;
use crate::model::disk::{DiskAddress, DiskSpec, Head};

/// Largest cluster the exact solver accepts (2^n * n^2 work).
pub const OPT_MAX: usize = 12;

/// A request as the solver sees it: where it starts and its size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    /// Where the data starts.
    pub addr: DiskAddress,
    /// Size in bytes.
    pub bytes: u64,
}

/// The order of `jobs` (indices) that completes all of them soonest when
/// the head starts at `head`. Panics above [`OPT_MAX`] jobs.
pub fn opt_order(disk: &DiskSpec, head: Head, jobs: &[Job]) -> Vec<usize> {
    let n = jobs.len();
    assert!(n <= OPT_MAX, "opt_order is limited to {OPT_MAX} jobs");
    if n <= 1 {
        return (0..n).collect();
    }
    let first: Vec<f64> = jobs
        .iter()
        .map(|j| disk.access(head, j.addr, j.bytes).total_s())
        .collect();
    let leave: Vec<Head> = jobs
        .iter()
        .map(|a| Head {
            cylinder: a.addr.cylinder,
            time_s: a.addr.angle * disk.rotation_s + disk.transfer_s(a.bytes),
        })
        .collect();
    held_karp(
        n,
        |j| first[j],
        |i, j| disk.access(leave[i], jobs[j].addr, jobs[j].bytes).total_s(),
        |_| 0.0,
    )
}

/// When serving `jobs` in `order` from `head` finishes, and the mean
/// completion time measured from the start (the cluster's mean response).
pub fn evaluate(disk: &DiskSpec, head: Head, jobs: &[Job], order: &[usize]) -> (f64, f64) {
    let mut h = head;
    let mut sum = 0.0;
    for &i in order {
        h = disk.serve(h, jobs[i].addr, jobs[i].bytes).0;
        sum += h.time_s - head.time_s;
    }
    (h.time_s, sum / order.len().max(1) as f64)
}

/// CPU seconds to compute an OPT schedule of `k` requests, given the cost
/// `opt6_s` of a 6-request cluster: scaled by k! * k (brute force work).
pub fn cpu_cost(opt6_s: f64, k: usize) -> f64 {
    if k < 2 {
        return 0.0;
    }
    let work = |n: usize| (1..=n).map(|x| x as f64).product::<f64>() * n as f64;
    opt6_s * work(k) / work(6)
}
