//! The archive simulation: hand-computed timings, bad configs, determinism
//! and the Load-Balancer at work.

use seekplan_core::archive::{simulate, ArchiveConfig, PolicyName, SchemeShare};

fn tiny(policy: PolicyName) -> ArchiveConfig {
    let mut c = ArchiveConfig {
        policy,
        ..ArchiveConfig::default()
    };
    c.platform.movers = 5;
    c.platform.drives_per_mover = 10;
    c.platform.robot_arms = 2;
    c.workload.requests = 300;
    c.workload.rate_per_hour = 20.0;
    c.workload.min_bytes = 10_000_000;
    c.workload.max_bytes = 1_000_000_000;
    c.workload.initial_files = 50;
    c.block_bytes = 16_000_000;
    c
}

#[test]
fn one_write_alone_costs_arm_load_and_transfer() {
    let mut c = tiny(PolicyName::Vertical);
    c.platform.movers = 1;
    c.platform.drives_per_mover = 1;
    c.workload.requests = 1;
    c.workload.initial_files = 0;
    c.workload.min_bytes = 1_200_000_000;
    c.workload.max_bytes = 1_200_000_000;
    c.workload.data_compression = Some(2.0);
    c.workload.ec_compression = Some(1.0);
    c.workload.schemes = vec![SchemeShare { x: 1, y: 0, p: 1.0 }];
    let m = simulate(&c).unwrap();
    // arm 10 s + load 16 s + 600 MB at 120 MB/s = 5 s.
    assert!(
        (m.mean_response_s - 31.0).abs() < 1e-6,
        "{}",
        m.mean_response_s
    );
    assert_eq!(m.mounts, 1);
    assert!((m.weighted_response_s_per_gb - 31.0 / 1.2).abs() < 1e-6);
}

#[test]
fn same_seed_same_numbers_and_every_request_served() {
    for policy in [
        PolicyName::Rait,
        PolicyName::Parallel,
        PolicyName::Vertical,
        PolicyName::Hetero,
    ] {
        let c = tiny(policy);
        let a = simulate(&c).unwrap();
        assert_eq!(a, simulate(&c).unwrap());
        assert_eq!(a.requests, 300);
        assert!(
            a.drive_utilisation > 0.0 && a.drive_utilisation <= 1.0,
            "{policy:?} {}",
            a.drive_utilisation
        );
        assert!(a.mean_stretch >= 1.0 - 1e-9);
        assert!(!a.saturated, "{policy:?} at 20/h on a tiny system: {a:?}");
    }
}

#[test]
fn overload_is_detected_as_saturation() {
    let mut c = tiny(PolicyName::Vertical);
    c.workload.min_bytes = 100_000_000_000;
    c.workload.max_bytes = 500_000_000_000;
    c.workload.rate_per_hour = 200.0;
    let m = simulate(&c).unwrap();
    assert!(m.saturated, "{m:?}");
    assert!(m.load_balancer_runs > 0);
}

#[test]
fn bad_configs_name_the_field() {
    let mut c = tiny(PolicyName::Parallel);
    c.platform.drives_per_mover = 8;
    let e = simulate(&c).unwrap_err().to_string();
    assert!(
        e.contains("8+2 needs 10 drives") && e.contains("mover has 8"),
        "{e}"
    );

    let mut c = tiny(PolicyName::Rait);
    c.workload.rate_per_hour = -1.0;
    assert!(simulate(&c)
        .unwrap_err()
        .to_string()
        .contains("workload.rate_per_hour"));

    let mut c = tiny(PolicyName::Vertical);
    c.platform.tapes = 10;
    c.workload.max_bytes = 20_000_000_000_000;
    let e = simulate(&c).unwrap_err().to_string();
    assert!(e.contains("larger than the whole archive"), "{e}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// Whatever the policy, load and scheduler settings: every request is
    /// served, none finishes before it started its own service, drives are
    /// never busier than the run is long, and the run is reproducible.
    #[test]
    fn any_small_config_serves_every_request_consistently(
        policy in 0usize..4,
        rate in 0.5f64..500.0,
        light in 0u32..4,
        lb_hours in 1.0f64..200.0,
        req_count in 0u32..60,
        seed in 0u64..1000,
    ) {
        let mut c = tiny([PolicyName::Rait, PolicyName::Parallel, PolicyName::Vertical, PolicyName::Hetero][policy]);
        c.workload.requests = 80;
        c.workload.rate_per_hour = rate;
        c.scheduler.max_light_load = light;
        c.scheduler.min_lb_interval_s = lb_hours * 3600.0;
        c.scheduler.max_req_count = req_count;
        c.seed = seed;
        let m = simulate(&c).unwrap();
        proptest::prop_assert_eq!(m.requests, 80);
        proptest::prop_assert!(m.mean_stretch >= 1.0 - 1e-9);
        proptest::prop_assert!(m.drive_utilisation > 0.0 && m.drive_utilisation <= 1.0);
        proptest::prop_assert!(m.mounts > 0 && m.tapes_used > 0);
        proptest::prop_assert_eq!(&m, &simulate(&c).unwrap());
    }
}
