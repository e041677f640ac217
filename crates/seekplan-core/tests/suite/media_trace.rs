//! Every media algorithm's schedule, re-timed from the disk model alone:
//! each served request's seek, rotational delay and transfer are recomputed
//! from the disk's figures (eq. 1, sector tracking, constant rate) and must
//! match what the scheduler reported, as must each round's totals; every
//! request is served at most once, every C-request within its round, and
//! the trace is exactly the requests the run counted as served.

use proptest::prelude::*;
use seekplan_core::media::{
    simulate, simulate_traced, Algorithm, Class, MediaConfig, Request, RoundTrace, Served, Workload,
};
use seekplan_core::model::disk::{Cylinder, DiskSpec, Projection};
use std::collections::{HashMap, HashSet};

const TOL_S: f64 = 1e-9;

/// Seek, rotational delay and transfer of `s`, from the disk's figures only.
fn retime(d: &DiskSpec, s: &Served) -> (f64, f64, f64) {
    let dist = s.from.0.abs_diff(s.addr.cylinder.0);
    let seek = if dist == 0 {
        0.0
    } else if dist <= d.short_max {
        d.short_a_s + d.short_b_s * f64::from(dist).sqrt()
    } else {
        d.long_a_s + d.long_b_s * f64::from(dist)
    };
    let turns = (s.start_s + seek) / d.rotation_s;
    let gap = s.addr.angle - (turns - turns.floor());
    let rotation = if gap < 0.0 { gap + 1.0 } else { gap } * d.rotation_s;
    (seek, rotation, s.bytes as f64 / d.rate_bps)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL_S
}

/// Checks one algorithm's whole run against the model and the workload.
fn check(cfg: &MediaConfig, algo: Algorithm) -> Result<(), TestCaseError> {
    let (summary, trace) = simulate_traced(cfg, algo).unwrap();
    // Tracing must not change what the run measures (Debug: NaN == NaN).
    let plain = simulate(cfg, algo).unwrap();
    prop_assert_eq!(format!("{summary:?}"), format!("{plain:?}"), "{}", algo);
    prop_assert_eq!(trace.len() as u64, summary.rounds, "{}", algo);

    let disk = cfg.disk.projected(&cfg.projection);
    let edges = [Cylinder(0), Cylinder(disk.cylinders - 1)];
    let mut workload = Workload::new(cfg).unwrap();
    let mut known: HashMap<u64, Request> = HashMap::new();
    let mut served: HashSet<u64> = HashSet::new();
    let (mut cylinder, mut free_s) = (Cylinder(0), 0.0f64);
    let (mut c_total, mut d_total) = (0u64, 0u64);
    for (k, round) in trace.iter().enumerate() {
        let RoundTrace { start_s, end_s, .. } = *round;
        prop_assert_eq!(start_s, k as f64 * cfg.round_s);
        let cs = workload.c_requests(start_s);
        let c_ids: HashSet<u64> = cs.iter().map(|q| q.id).collect();
        known.extend(
            cs.into_iter()
                .chain(workload.d_arrivals(end_s))
                .map(|q| (q.id, q)),
        );
        let (mut c_busy, mut d_response) = (0.0, 0.0);
        let mut c_here = HashSet::new();
        for s in &round.served {
            let q = known.get(&s.id);
            prop_assert!(
                q.is_some(),
                "{} round {}: unknown request {}",
                algo,
                k,
                s.id
            );
            let q = q.unwrap();
            prop_assert!(
                q.class == s.class && q.addr == s.addr && q.bytes == s.bytes,
                "{} round {}: request {} altered",
                algo,
                k,
                s.id
            );
            prop_assert_eq!(q.arrival_s, s.arrival_s);
            prop_assert!(served.insert(s.id), "{} served {} twice", algo, s.id);
            // The head moves only by serving, except SCAN's run to an edge.
            prop_assert!(
                s.from == cylinder || (algo == Algorithm::Scan && edges.contains(&s.from)),
                "{} round {}: head jumped {:?} -> {:?}",
                algo,
                k,
                cylinder,
                s.from
            );
            prop_assert!(s.start_s >= free_s.max(start_s) && s.start_s >= s.arrival_s);
            let (seek, rotation, transfer) = retime(&disk, s);
            let end = s.start_s + seek + rotation + transfer;
            prop_assert!(
                close(seek, s.seek_s)
                    && close(rotation, s.rotation_s)
                    && close(transfer, s.transfer_s)
                    && close(end, s.end_s),
                "{} round {}: request {} timed {:?}, model says ({}, {}, {}, end {})",
                algo,
                k,
                s.id,
                s,
                seek,
                rotation,
                transfer,
                end
            );
            match s.class {
                Class::Continuous => {
                    prop_assert!(c_ids.contains(&s.id), "{} served a C-request late", algo);
                    prop_assert!(
                        s.end_s <= end_s + 1e-12 && end <= end_s + TOL_S,
                        "{} round {}: glitch, C-request {} ends {}",
                        algo,
                        k,
                        s.id,
                        end
                    );
                    c_here.insert(s.id);
                    c_busy += seek + rotation + transfer;
                    c_total += 1;
                }
                Class::Discrete => {
                    prop_assert!(s.arrival_s < end_s);
                    d_response += end - s.arrival_s;
                    d_total += 1;
                }
            }
            (cylinder, free_s) = (s.addr.cylinder, s.end_s);
        }
        prop_assert_eq!(&c_here, &c_ids, "{} round {}: C-set not served", algo, k);
        prop_assert_eq!(round.glitches, 0, "{} round {}", algo, k);
        prop_assert!(
            close(c_busy, round.c_busy_s) && close(d_response, round.d_response_s),
            "{} round {}: totals C {} vs {}, D {} vs {}",
            algo,
            k,
            c_busy,
            round.c_busy_s,
            d_response,
            round.d_response_s
        );
    }
    prop_assert_eq!(c_total, summary.c_served, "{}", algo);
    prop_assert_eq!(d_total, summary.d_served, "{}", algo);
    prop_assert_eq!(summary.glitches, 0, "{}", algo);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Every algorithm's schedules re-time exactly from the disk model.
    #[test]
    fn every_schedule_retimes_from_the_disk_model(
        seed in any::<u64>(),
        lambda in 5.0f64..60.0,
        c_requests in 5u32..=35,
        cluster_max in 2usize..=6,
        years in prop::sample::select(vec![0.0, 4.0]),
    ) {
        let cfg = MediaConfig {
            seed,
            lambda,
            c_requests,
            cluster_max,
            rounds: 30,
            projection: Projection { years, ..Default::default() },
            ..Default::default()
        };
        for algo in Algorithm::ALL {
            check(&cfg, algo)?;
        }
    }
}

/// The one-phase sweeps (SCAN over clusters): no D-request served between
/// two C-requests lies outside them, and none served before the first lies
/// past it, so no cluster runs past a C-request and the head never doubles
/// back across one (section 3.2: clusters served in SCAN order).
fn clusters_stay_between_c_requests(trace: &[RoundTrace]) -> Result<(), TestCaseError> {
    for round in trace {
        let cs: Vec<(usize, u32)> = round
            .served
            .iter()
            .enumerate()
            .filter(|(_, s)| s.class == Class::Continuous)
            .map(|(i, s)| (i, s.addr.cylinder.0))
            .collect();
        let Some(up) = cs
            .windows(2)
            .map(|w| w[1].1.cmp(&w[0].1))
            .find(|o| o.is_ne())
        else {
            continue;
        };
        let up = up.is_gt();
        for (k, &(i, c)) in cs.iter().enumerate() {
            let from = if k == 0 { 0 } else { cs[k - 1].0 + 1 };
            let lo_hi = if k == 0 {
                if up {
                    (0, c)
                } else {
                    (c, u32::MAX)
                }
            } else {
                let p = cs[k - 1].1;
                (p.min(c), p.max(c))
            };
            for s in &round.served[from..i] {
                let d = s.addr.cylinder.0;
                prop_assert!(
                    lo_hi.0 <= d && d <= lo_hi.1,
                    "D at cylinder {d} served between C-requests bounding [{}, {}] ({} sweep)",
                    lo_hi.0,
                    lo_hi.1,
                    if up { "up" } else { "down" }
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// CI-OPT, CI-SPTF, CLUST-REQ and CLUST-CYL sweep from the disk edge and
    /// cut every cluster at the next C-request.
    #[test]
    fn one_phase_clusters_never_cross_a_c_request(
        seed in any::<u64>(),
        lambda in 5.0f64..60.0,
        c_requests in 5u32..=35,
    ) {
        let cfg = MediaConfig { seed, lambda, c_requests, rounds: 30, ..Default::default() };
        for name in ["ci-opt", "ci-sptf", "clust-req", "clust-cyl"] {
            let (_, trace) = simulate_traced(&cfg, name.parse().unwrap()).unwrap();
            clusters_stay_between_c_requests(&trace)?;
        }
    }
}
