//! CI-OPT's exact in-cluster order: the order that finishes a cluster's
//! requests soonest, by Held-Karp dynamic programming.
//!
//! The cost of going from request i to j does not depend on the path: the
//! head leaves i at i's cylinder with the angle `angle_i + transfer_i /
//! rotation` whatever time it is, so the problem is an open asymmetric TSP on
//! a fixed cost matrix.

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
    let mut step = vec![0.0; n * n];
    for (i, a) in jobs.iter().enumerate() {
        let leave = Head {
            cylinder: a.addr.cylinder,
            time_s: a.addr.angle * disk.rotation_s + disk.transfer_s(a.bytes),
        };
        for (j, b) in jobs.iter().enumerate() {
            if i != j {
                step[i * n + j] = disk.access(leave, b.addr, b.bytes).total_s();
            }
        }
    }
    let full = 1usize << n;
    let mut best = vec![f64::INFINITY; full * n];
    let mut from = vec![0u8; full * n];
    for j in 0..n {
        best[(1 << j) * n + j] = first[j];
    }
    for mask in 1..full {
        let mut lasts = mask;
        while lasts != 0 {
            let last = lasts.trailing_zeros() as usize;
            lasts &= lasts - 1;
            let t = best[mask * n + last];
            let row = &step[last * n..last * n + n];
            let mut nexts = !mask & (full - 1);
            while nexts != 0 {
                let next = nexts.trailing_zeros() as usize;
                nexts &= nexts - 1;
                let cell = (mask | (1 << next)) * n + next;
                let t2 = t + row[next];
                if t2 < best[cell] {
                    best[cell] = t2;
                    from[cell] = last as u8;
                }
            }
        }
    }
    let all = full - 1;
    let mut last = (0..n)
        .min_by(|&a, &b| best[all * n + a].total_cmp(&best[all * n + b]))
        .expect("n >= 2");
    let mut mask = all;
    let mut order = Vec::with_capacity(n);
    loop {
        order.push(last);
        let prev = usize::from(from[mask * n + last]);
        mask &= !(1 << last);
        if mask == 0 {
            break;
        }
        last = prev;
    }
    order.reverse();
    order
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
