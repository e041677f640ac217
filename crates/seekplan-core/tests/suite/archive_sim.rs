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
    c.workload.requests = Some(300);
    c.workload.warmup_s = 0.0;
    c.workload.rate_per_hour = 20.0;
    c.workload.min_bytes = 10_000_000;
    c.workload.max_bytes = 1_000_000_000;
    c.workload.initial_files = Some(50);
    c.block_bytes = 16_000_000;
    c
}

/// One write of a `bytes`-byte file (scheme 1+0, data compressing
/// `compression`:1) on a mover of one drive.
fn one_write(policy: PolicyName, bytes: u64, compression: f64) -> ArchiveConfig {
    let mut c = tiny(policy);
    c.platform.movers = 1;
    c.platform.drives_per_mover = 1;
    c.workload.requests = Some(1);
    c.workload.initial_files = Some(0);
    c.workload.min_bytes = bytes;
    c.workload.max_bytes = bytes;
    c.workload.data_compression = Some(compression);
    c.workload.ec_compression = Some(1.0);
    c.workload.schemes = vec![SchemeShare { x: 1, y: 0, p: 1.0 }];
    c
}

#[test]
fn one_write_alone_costs_arm_load_and_transfer() {
    let m = simulate(&one_write(PolicyName::Vertical, 1_200_000_000, 2.0)).unwrap();
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

    // Figures that make one request take longer than 30 days: a load of
    // 2^64 s hung a 20-request run (Load-Balancer runs while it waited).
    let mut c = tiny(PolicyName::Parallel);
    c.platform.load_s = u64::MAX as f64;
    let e = simulate(&c).unwrap_err().to_string();
    assert!(
        e.contains("platform.load_s") && e.contains("30 days"),
        "{e}"
    );
    let mut c = tiny(PolicyName::Parallel);
    c.platform.drive_rate_bps = 1e-3;
    let e = simulate(&c).unwrap_err().to_string();
    assert!(e.contains("platform.drive_rate_bps"), "{e}");

    // Schemes of two u32 whose sum overflows are refused, not wrapped.
    let mut c = tiny(PolicyName::Vertical);
    c.workload.schemes[0].x = u32::MAX;
    let e = simulate(&c).unwrap_err().to_string();
    assert!(e.contains("workload.schemes[0]"), "{e}");
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
        c.workload.requests = Some(80);
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

/// The response to one 160 MB write alone, at block size `block`.
fn one_striped_write(policy: PolicyName, block: u64) -> f64 {
    let mut c = one_write(policy, 160_000_000, 1.0);
    c.block_bytes = block;
    simulate(&c).unwrap().mean_response_s
}

#[test]
fn blocks_shorter_than_s_cost_a_backhitch_each_and_only_when_striped() {
    // 160 MB in 16 MB blocks: 10 start/stops of 2 s below S = 192 MB.
    for policy in [PolicyName::Rait, PolicyName::Parallel] {
        let short = one_striped_write(policy, 16_000_000);
        let long = one_striped_write(policy, 192_000_000);
        assert!(
            (short - long - 20.0).abs() < 1e-6,
            "{policy:?}: {short} vs {long}"
        );
        // arm 10 s + load 16 s + 160 MB at 120 MB/s.
        assert!((long - (26.0 + 160.0 / 120.0)).abs() < 1e-6, "{long}");
    }
    let v_short = one_striped_write(PolicyName::Vertical, 16_000_000);
    let v_long = one_striped_write(PolicyName::Vertical, 192_000_000);
    assert!((v_short - v_long).abs() < 1e-9);
}

#[test]
fn requests_of_the_warm_up_are_served_but_not_measured() {
    let mut c = tiny(PolicyName::Parallel);
    c.workload.requests = Some(200);
    c.workload.warmup_s = 5.0 * 3600.0; // 20/h: about 100 arrive in the warm-up
    let m = simulate(&c).unwrap();
    assert_eq!(m.arrivals, 200);
    assert!(m.requests > 50 && m.requests < 150, "{}", m.requests);
    assert_eq!(m.censored, 0);
    for f in [
        m.drive_utilisation,
        m.mover_utilisation,
        m.mover_disk_utilisation,
        m.arm_utilisation,
    ] {
        assert!((0.0..=1.0).contains(&f), "{f}");
    }
    assert!(m.mover_utilisation >= m.drive_utilisation);
    // PARALLEL reserves RAM, not disk; VERTICAL reserves Y tapes of disk.
    assert_eq!(m.mover_disk_utilisation, 0.0);
    c.policy = PolicyName::Vertical;
    assert!(simulate(&c).unwrap().mover_disk_utilisation > 0.0);
}

#[test]
fn an_overloaded_run_stops_at_max_backlog_saturated_with_censored_requests() {
    let mut c = tiny(PolicyName::Rait);
    c.platform.movers = 1;
    c.workload.requests = None;
    c.workload.rate_per_hour = 5_000.0;
    c.workload.duration_s = 86_400.0;
    c.max_backlog = 50;
    let m = simulate(&c).unwrap();
    assert!(m.stopped && m.saturated);
    assert!(m.censored > 0 && m.censored <= 51, "{}", m.censored);
    assert!(m.arrivals < 5_000 * 24);
}

#[test]
fn waits_are_attributed_to_their_cause() {
    // One mover with one drive, many reads and rewrites of three files:
    // requests wait on the same file and on missing processes.
    let mut c = tiny(PolicyName::Vertical);
    c.platform.movers = 1;
    c.platform.drives_per_mover = 1;
    c.workload.initial_files = Some(3);
    c.workload.create_fraction = 0.0;
    c.workload.requests = Some(200);
    c.workload.rate_per_hour = 200.0;
    // Three rewrites of two files with three schemes: most-requested-first
    // process creation never served them (a livelock); oldest-first does.
    let m = simulate(&c).unwrap();
    assert_eq!(m.requests, 200);
    assert!(m.waited_same_file > 0.2, "{}", m.waited_same_file);
    for f in [
        m.waited_same_file,
        m.waited_tape_in_use,
        m.waited_no_process,
        m.waited_load_balancer,
    ] {
        assert!((0.0..=1.0).contains(&f), "{f}");
    }
    assert!(m.mean_wait_s > 0.0);
}

#[test]
fn duration_and_caps_are_checked_naming_the_field() {
    let mut c = tiny(PolicyName::Parallel);
    c.workload.requests = None;
    c.workload.rate_per_hour = 1e6;
    c.workload.duration_s = 1e9;
    let e = simulate(&c).unwrap_err().to_string();
    assert!(e.contains("workload.duration_s"), "{e}");
    let mut c = tiny(PolicyName::Parallel);
    c.workload.warmup_s = c.workload.duration_s;
    let e = simulate(&c).unwrap_err().to_string();
    assert!(e.contains("workload.warmup_s"), "{e}");
}
