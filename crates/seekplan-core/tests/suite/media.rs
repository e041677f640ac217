//! Mixed-media disk scheduling: the disk model, exact CI-OPT against brute
//! force, and whole runs of every algorithm (no glitches, sane metrics).

use proptest::prelude::*;
use seekplan_core::media::opt::{evaluate, opt_order, Job};
use seekplan_core::media::{cluster_study, fairness, simulate, Algorithm, MediaConfig};
use seekplan_core::model::disk::{Cylinder, DiskAddress, DiskSpec, Head, Projection};

fn small(algo_lambda: f64, rounds: u32, seed: u64) -> MediaConfig {
    MediaConfig {
        lambda: algo_lambda,
        rounds,
        seed,
        queue_limit: 300,
        ..Default::default()
    }
}

#[test]
fn seek_curve_pieces_meet_and_are_in_seconds() {
    let d = DiskSpec::default();
    assert_eq!(d.seek_s(0), 0.0);
    assert!((d.seek_s(1) - 0.0019985).abs() < 1e-6);
    let short = d.short_a_s + d.short_b_s * 1344f64.sqrt();
    let long = d.long_a_s + d.long_b_s * 1344.0;
    assert!((short - long).abs() < 2e-5, "{short} vs {long}");
    let full = d.seek_s(6719);
    assert!(full > 0.017 && full < 0.019, "full stroke {full}");
    for x in 1..6719 {
        assert!(
            d.seek_s(x + 1) + 2e-5 >= d.seek_s(x),
            "seek not monotone at {x}"
        );
    }
}

#[test]
fn rotation_tracks_the_sector_under_the_head() {
    let d = DiskSpec::default();
    let to = DiskAddress {
        cylinder: Cylinder(10),
        angle: 0.5,
    };
    // No seek, head at angle 0.25: a quarter turn to wait.
    let head = Head {
        cylinder: Cylinder(10),
        time_s: 0.25 * d.rotation_s + 7.0 * d.rotation_s,
    };
    let a = d.access(head, to, 17_000);
    assert!((a.rotation_s - 0.25 * d.rotation_s).abs() < 1e-12);
    assert!((a.transfer_s - 0.001).abs() < 1e-12);
    // Just past the sector: almost a full turn.
    let late = Head {
        cylinder: Cylinder(10),
        time_s: 0.51 * d.rotation_s,
    };
    assert!(d.access(late, to, 1).rotation_s > 0.98 * d.rotation_s);
}

#[test]
fn projection_scales_each_component() {
    let d = DiskSpec::default();
    let p = Projection {
        years: 4.0,
        ..Default::default()
    };
    let f = d.projected(&p);
    assert!((f.seek_s(100) / d.seek_s(100) - 0.92f64.powi(4)).abs() < 1e-12);
    assert!((d.rotation_s / f.rotation_s - 1.2f64.powi(4)).abs() < 1e-12);
    assert!((f.rate_bps / d.rate_bps - 1.2f64.powi(4)).abs() < 1e-9);
    assert!((p.cpu_factor() - 1.5f64.powi(-4)).abs() < 1e-12);
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}

fn jobs_strategy() -> impl Strategy<Value = (Vec<(u32, f64, u64)>, u32, f64)> {
    (
        prop::collection::vec((0u32..2000, 0.0f64..1.0, 1_000u64..150_000), 1..=6),
        0u32..2000,
        0.0f64..1.0,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// CI-OPT(6) is exactly optimal: no permutation finishes sooner.
    #[test]
    fn opt_matches_brute_force((raw, start, t) in jobs_strategy()) {
        let d = DiskSpec::default();
        let head = Head { cylinder: Cylinder(start), time_s: 100.0 + t };
        let jobs: Vec<Job> = raw.iter().map(|&(c, a, b)| Job {
            addr: DiskAddress { cylinder: Cylinder(c), angle: a }, bytes: b }).collect();
        let order = opt_order(&d, head, &jobs);
        let mut sorted = order.clone();
        sorted.sort();
        prop_assert_eq!(sorted, (0..jobs.len()).collect::<Vec<_>>());
        let got = evaluate(&d, head, &jobs, &order).0;
        let brute = permutations(jobs.len()).iter()
            .map(|p| evaluate(&d, head, &jobs, p).0)
            .fold(f64::INFINITY, f64::min);
        prop_assert!((got - brute).abs() < 1e-9, "opt {} brute {}", got, brute);
    }

    /// Fairness index (eq. 2) lies in (0, 1] and is 1 for equal values.
    #[test]
    fn fairness_bounds(xs in prop::collection::vec(0.001f64..10.0, 1..50)) {
        let s: f64 = xs.iter().sum();
        let q: f64 = xs.iter().map(|x| x * x).sum();
        let f = fairness(s, q, xs.len() as u64);
        prop_assert!(f > 0.0 && f <= 1.0 + 1e-12);
        let same = fairness(3.0 * xs.len() as f64, 9.0 * xs.len() as f64, xs.len() as u64);
        prop_assert!((same - 1.0).abs() < 1e-12);
    }
}

#[test]
fn no_algorithm_ever_glitches() {
    for lambda in [10.0, 45.0] {
        for algo in Algorithm::ALL {
            let s = simulate(&small(lambda, 300, 7), algo).unwrap();
            assert_eq!(s.glitches, 0, "{algo} at lambda {lambda}");
            assert_eq!(s.c_served, 25 * s.rounds, "{algo} served every C-request");
            if !s.saturated {
                assert!(s.d_served > 0, "{algo} served D-requests");
                assert!(s.fairness > 0.0 && s.fairness <= 1.0, "{algo} fairness");
                assert!(s.d_mean_response_s > 0.0);
            }
        }
    }
}

#[test]
fn no_glitches_with_many_streams_and_projection() {
    let cfg = MediaConfig {
        c_requests: 35,
        lambda: 65.0,
        rounds: 200,
        projection: Projection {
            years: 4.0,
            ..Default::default()
        },
        ..Default::default()
    };
    for algo in Algorithm::ALL {
        assert_eq!(simulate(&cfg, algo).unwrap().glitches, 0, "{algo}");
    }
}

#[test]
fn scan_of_25_takes_about_45pct() {
    let s = simulate(&small(0.0, 2000, 3), Algorithm::TpsScanScan).unwrap();
    assert!(
        (0.42..0.50).contains(&s.c_scan_fraction),
        "C-only SCAN takes {:.3} of a round",
        s.c_scan_fraction
    );
    assert!((s.c_busy_fraction - s.c_scan_fraction).abs() < 1e-6);
}

#[test]
fn runs_are_deterministic_and_share_the_workload() {
    let a = simulate(&small(30.0, 200, 11), Algorithm::ClustReq).unwrap();
    let b = simulate(&small(30.0, 200, 11), Algorithm::ClustReq).unwrap();
    assert_eq!(a, b);
    let c = simulate(&small(30.0, 200, 12), Algorithm::ClustReq).unwrap();
    assert_ne!(a, c);
    // FAMISH serves no D-request that arrived during its round, so every
    // response spans at least part of a round boundary.
    let f = simulate(&small(30.0, 200, 11), Algorithm::Famish).unwrap();
    assert!(f.d_mean_response_s > a.d_mean_response_s);
}

#[test]
fn overload_saturates_instead_of_running_forever() {
    let cfg = MediaConfig {
        lambda: 200.0,
        rounds: 5000,
        queue_limit: 300,
        ..Default::default()
    };
    let s = simulate(&cfg, Algorithm::TpsScanScan).unwrap();
    assert!(s.saturated && s.rounds < 5000);
    assert_eq!(s.glitches, 0);
}

#[test]
fn bad_configs_name_the_field() {
    let bad = [
        (
            MediaConfig {
                round_s: 0.0,
                ..Default::default()
            },
            "round_s",
        ),
        (
            MediaConfig {
                lambda: -1.0,
                ..Default::default()
            },
            "lambda",
        ),
        (
            MediaConfig {
                cluster_max: 40,
                ..Default::default()
            },
            "cluster_max",
        ),
        (
            MediaConfig {
                rounds: u32::MAX,
                ..Default::default()
            },
            "rounds",
        ),
        (
            MediaConfig {
                disk: DiskSpec {
                    rate_bps: 0.0,
                    ..Default::default()
                },
                ..Default::default()
            },
            "rate_bps",
        ),
    ];
    for (cfg, field) in bad {
        let e = simulate(&cfg, Algorithm::Sptf).unwrap_err().to_string();
        assert!(e.contains(field), "{e}");
    }
    let e = "nope".parse::<Algorithm>().unwrap_err().to_string();
    assert!(e.contains("clust-req"), "{e}");
    for a in Algorithm::ALL {
        assert_eq!(a.name().parse::<Algorithm>().unwrap(), a);
    }
}

#[test]
fn opt_beats_scan_inside_compact_clusters() {
    let d = DiskSpec::default();
    let g = cluster_study(&d, 6, 200, 300, (70_000.0, 20_000.0), 5).unwrap();
    assert!(g.opt_mean_response_s < g.scan_mean_response_s);
    assert!(cluster_study(&d, 0, 200, 10, (70_000.0, 20_000.0), 5).is_err());
}
