//! Figure 3's experiment: how much an optimal in-cluster order gains over
//! SCAN, for clusters of a given number of requests and width in cylinders.

use super::opt::{evaluate, opt_order, Job};
use crate::model::disk::{Cylinder, DiskAddress, DiskSpec, Head};
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};
use serde::Serialize;

/// Mean response times (from the cluster's start) of both orders.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClusterGain {
    /// Mean response with the optimal (soonest-finishing) order, seconds.
    pub opt_mean_response_s: f64,
    /// Mean response with SCAN (increasing cylinder) order, seconds.
    pub scan_mean_response_s: f64,
}

/// Samples `samples` clusters of `k` D-requests (Normal sizes of mean
/// `size_mean`, sd `size_sd`) uniform over `width` cylinders, the head at
/// the cluster's lower edge at a random angle, and serves each by OPT and
/// by SCAN.
pub fn cluster_study(
    disk: &DiskSpec,
    k: usize,
    width: u32,
    samples: u32,
    size: (f64, f64),
    seed: u64,
) -> crate::Result<ClusterGain> {
    disk.validate()?;
    if !(1..=super::opt::OPT_MAX).contains(&k) {
        return Err(crate::Error::invalid(
            "k",
            format!("must be 1..=12, got {k}"),
        ));
    }
    if width == 0 || width >= disk.cylinders {
        return Err(crate::Error::invalid("width", "must be 1..cylinders"));
    }
    let sizes =
        Normal::new(size.0, size.1).map_err(|e| crate::Error::invalid("size", e.to_string()))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut opt_sum, mut scan_sum) = (0.0, 0.0);
    for _ in 0..samples {
        let head = Head {
            cylinder: Cylinder(0),
            time_s: rng.gen::<f64>() * disk.rotation_s,
        };
        let mut jobs: Vec<Job> = (0..k)
            .map(|_| Job {
                addr: DiskAddress {
                    cylinder: Cylinder(rng.gen_range(0..=width)),
                    angle: rng.gen(),
                },
                bytes: sizes.sample(&mut rng).max(512.0).round() as u64,
            })
            .collect();
        jobs.sort_by_key(|j| j.addr.cylinder);
        let scan: Vec<usize> = (0..k).collect();
        let opt = opt_order(disk, head, &jobs);
        opt_sum += evaluate(disk, head, &jobs, &opt).1;
        scan_sum += evaluate(disk, head, &jobs, &scan).1;
    }
    let n = f64::from(samples.max(1));
    Ok(ClusterGain {
        opt_mean_response_s: opt_sum / n,
        scan_mean_response_s: scan_sum / n,
    })
}
