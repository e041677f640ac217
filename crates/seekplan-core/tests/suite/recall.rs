//! The library simulator and requester strategies, checked against hand
//! computations and against the properties the paper relies on.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seekplan_core::library::{
    Arrivals, Campaign, DriveTiming, FileSpec, Hardware, LibrarySpec, ReadModel, RobotTiming,
    TapeSpec,
};
use seekplan_core::recall::{
    run, simulate, ByDataset, ByTapes, DcacheRules, Random, RecallConfig, RecallSpec, Strategy,
};
use seekplan_core::Error;

const MB: u64 = 1_000_000;

fn library(drives: usize, queue_size: usize) -> LibrarySpec {
    LibrarySpec {
        hardware: Hardware {
            drives,
            drive: DriveTiming {
                rate_bps: 100.0 * MB as f64,
                load_s: 13.0,
                thread_s: 2.0,
                unload_s: 23.0,
                rewind_s: 97.0,
            },
            robot: RobotTiming {
                arms: 1,
                fetch_s: 5.0,
                return_s: 5.0,
            },
        },
        read_model: ReadModel::Positional {
            wind_s: 100.0,
            locate_overhead_s: 0.0,
        },
        arrivals: Arrivals::Insert,
        block_bytes: MB,
        queue_size,
        order: "scan".into(),
    }
}

fn spec(lib: LibrarySpec, strategy: Strategy, duration_s: f64) -> RecallSpec {
    RecallSpec {
        library: lib,
        strategy,
        duration_s,
        sample_s: 600.0,
        seed: 7,
    }
}

fn file(tape: u32, block: u64, size: u64) -> FileSpec {
    FileSpec {
        dataset: 0,
        tape,
        block,
        size,
        arrival_s: 0.0,
        tapeinfo: true,
    }
}

/// `tapes` tapes of 1,000 blocks, `per_tape` files of 1 MB each at random
/// blocks, requested in random order.
fn campaign(tapes: u32, per_tape: u32, seed: u64) -> Campaign {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut files: Vec<FileSpec> = (0..tapes)
        .flat_map(|t| (0..per_tape).map(move |_| t))
        .map(|t| file(t, rng.gen_range(0..999), MB))
        .collect();
    for i in (1..files.len()).rev() {
        files.swap(i, rng.gen_range(0..=i));
    }
    Campaign::new(
        files,
        vec![
            TapeSpec {
                capacity: 1000 * MB,
                used: 1000 * MB
            };
            tapes as usize
        ],
    )
    .unwrap()
}

/// Two 100 MB files at blocks 500 and 100 of one 1,000 MB tape.
fn two_files_on_one_tape() -> Campaign {
    Campaign::new(
        vec![file(0, 500, 100 * MB), file(0, 100, 100 * MB)],
        vec![TapeSpec {
            capacity: 1000 * MB,
            used: 1000 * MB,
        }],
    )
    .unwrap()
}

#[test]
fn one_drive_one_tape_matches_hand_timing() {
    let c = two_files_on_one_tape();
    let out = simulate(
        &spec(library(1, 10), Strategy::ByDataset(ByDataset {}), 1e5),
        &c,
    )
    .unwrap();
    // fetch 5 + load 13 + thread 2 = 20 s; scan from block 0: block 100
    // (locate 10 s, read 1 s), then block 500 (locate 100*(500-200)/1000 =
    // 30 s, read 1 s). Staging: 31 s and 62 s.
    let m = &out.metrics;
    assert_eq!(m.files_staged, 2);
    assert!(
        (m.staging_min * 60.0 - (31.0 + 62.0) / 2.0).abs() < 1e-9,
        "{m:?}"
    );
    assert_eq!(m.mounts, 1);
    assert!((m.pct_recalled_per_mount - 20.0).abs() < 1e-9);
    // The tape stays mounted (idle) until the end of the run.
    assert!((m.mount_min * 60.0 - (1e5 - 20.0)).abs() < 1e-6);
    assert!((m.drive_utilisation - 62.0 / 1e5).abs() < 1e-9);
}

#[test]
fn everything_is_staged_and_counts_add_up() {
    let c = campaign(8, 50, 1);
    for strategy in [
        Strategy::Random(Random {}),
        Strategy::ByDataset(ByDataset {}),
        Strategy::ByTapes(ByTapes { tapes: 2 }),
    ] {
        let out = simulate(&spec(library(3, 40), strategy.clone(), 1e6), &c).unwrap();
        let m = &out.metrics;
        assert_eq!(m.files_staged, 400, "{strategy:?}");
        assert_eq!(m.bytes_staged, 400 * MB);
        assert!(m.distinct_mounts == 8 && m.mounts >= 8, "{m:?}");
        let total: f64 = out.series.throughput_mb_s.iter().sum::<f64>() * 600.0;
        assert!((total - 400.0).abs() < 1e-6, "series adds up to {total}");
        assert!(out.series.busy_drives.iter().all(|&b| b <= 3));
    }
}

#[test]
fn clustering_by_tape_mounts_less_than_random() {
    let c = campaign(20, 100, 2);
    let run = |s: Strategy| simulate(&spec(library(4, 50), s, 1e6), &c).unwrap().metrics;
    let random = run(Strategy::Random(Random {}));
    let by_tapes = run(Strategy::ByTapes(ByTapes { tapes: 4 }));
    assert!(
        random.mounts > 3 * by_tapes.mounts,
        "{random:?} {by_tapes:?}"
    );
    assert!(by_tapes.staging_min < random.staging_min);
}

#[test]
fn larger_queue_is_never_slower_to_finish_here() {
    let c = campaign(20, 100, 3);
    let run = |q: usize| {
        simulate(
            &spec(library(4, q), Strategy::Random(Random {}), 20_000.0),
            &c,
        )
        .unwrap()
        .metrics
    };
    let (small, large) = (run(20), run(2000));
    assert!(
        large.throughput_mb_s > small.throughput_mb_s,
        "{small:?} {large:?}"
    );
    assert!(large.mounts < small.mounts);
}

#[test]
fn every_queue_algorithm_stages_everything() {
    let c = campaign(4, 40, 9);
    for algo in seekplan_core::library::QUEUE_ALGORITHMS {
        let mut lib = library(2, 30);
        lib.order = algo.name().into();
        let out = simulate(&spec(lib, Strategy::ByTapes(ByTapes { tapes: 2 }), 1e6), &c).unwrap();
        assert_eq!(out.metrics.files_staged, 160, "{algo}");
    }
}

#[test]
fn same_seed_same_run_other_seed_other_run() {
    let c = campaign(10, 30, 4);
    let mut s = spec(library(2, 25), Strategy::Random(Random {}), 5_000.0);
    let a = simulate(&s, &c).unwrap();
    let b = simulate(&s, &c).unwrap();
    assert_eq!(a.metrics, b.metrics);
    assert_eq!(a.series, b.series);
    s.seed = 8;
    let d = simulate(&s, &c).unwrap();
    assert_ne!(a.metrics, d.metrics);
}

#[test]
fn runs_over_one_campaign_leave_each_other_nothing_but_room() {
    // The campaign keeps a run's buffers for the next run: a run after runs
    // of other configurations (larger queues, other strategies, a run cut
    // short with requests still queued) is the run on a fresh copy.
    let c = campaign(12, 40, 6);
    let configs = [
        spec(
            library(3, 200),
            Strategy::ByTapes(ByTapes { tapes: 2 }),
            2_000.0,
        ),
        spec(library(2, 15), Strategy::Random(Random {}), 1e6),
        spec(library(4, 60), Strategy::ByDataset(ByDataset {}), 500.0),
    ];
    for s in &configs {
        for earlier in &configs {
            simulate(earlier, &c).unwrap();
            let again = simulate(s, &c).unwrap();
            let fresh = simulate(s, &c.clone()).unwrap();
            assert_eq!(again.metrics, fresh.metrics);
            assert_eq!(again.series, fresh.series);
            assert_eq!(again.events, fresh.events);
        }
    }
}

/// One 1,000 MB tape with a 1 MB file at each of `blocks`, requested in that order.
fn on_one_tape(blocks: &[u64]) -> Campaign {
    let files = blocks.iter().map(|&b| file(0, b, MB)).collect();
    let tape = TapeSpec {
        capacity: 1000 * MB,
        used: 1000 * MB,
    };
    Campaign::new(files, vec![tape]).unwrap()
}

#[test]
fn requests_for_a_mounted_tape_are_reordered() {
    // Blocks 900, 100, 500 requested in that order.
    let c = on_one_tape(&[900, 100, 500]);
    let run = |q: usize| {
        simulate(
            &spec(library(1, q), Strategy::ByDataset(ByDataset {}), 1e5),
            &c,
        )
        .unwrap()
    };
    // Locate seconds: busy time minus mount (20 s) and reads (3 x 0.01 s).
    let locate = |q: usize| run(q).metrics.drive_utilisation * 1e5 - 20.0 - 0.03;
    // Queue 1: served as requested, 0->900 (90 s), 901->100 (80.1), 101->500 (39.9).
    assert!((locate(1) - 210.0).abs() < 1e-6, "{}", locate(1));
    // Queue 2: 900 and 100 queued, scan reads 100 first; 500 arrives while
    // the tape is mounted and is re-ordered before 900: 10 + 39.9 + 39.9.
    assert!((locate(2) - 89.8).abs() < 1e-6, "{}", locate(2));
    assert!((locate(3) - 89.8).abs() < 1e-6, "{}", locate(3));
}

fn dcache(max_active_tapes: usize, min_request_count: Option<usize>) -> Strategy {
    Strategy::Dcache(DcacheRules {
        max_active_tapes,
        min_time_in_queue_s: 120.0,
        max_time_in_queue_s: 3_600.0,
        min_tape_recall_pct: 60.0,
        min_used_pct: 95.0,
        min_request_count,
        tapeinfo_timeout_s: Some(600.0),
        check_interval_s: 60.0,
    })
}

#[test]
fn dcache_waits_for_quiet_period_then_selects_by_count() {
    let c = campaign(4, 30, 5);
    let out = simulate(&spec(library(2, 100), dcache(1, Some(10)), 1e5), &c).unwrap();
    assert_eq!(out.metrics.files_staged, 120);
    // Nothing is passed on before the quiet period of 120 s.
    assert_eq!(
        out.series.busy_drives.len() as f64,
        (1e5 / 600.0f64).floor()
    );
    // One active tape at a time: each tape is mounted once.
    assert_eq!(out.metrics.mounts, 4);
}

#[test]
fn dcache_holds_small_tapes_until_they_expire() {
    let c = campaign(3, 5, 6);
    // 5 requests of 1 MB are far below 60 % and below 10 requests: they wait
    // for the maximum time in queue (3,600 s) before being selected.
    let out = simulate(&spec(library(1, 100), dcache(1, Some(10)), 3_000.0), &c).unwrap();
    assert_eq!(out.metrics.files_staged, 0);
    let out = simulate(&spec(library(1, 100), dcache(1, Some(10)), 20_000.0), &c).unwrap();
    assert_eq!(out.metrics.files_staged, 15);
    // Selected by count as soon as they are quiet when the count is 5.
    let out = simulate(&spec(library(1, 100), dcache(1, Some(5)), 3_000.0), &c).unwrap();
    assert_eq!(out.metrics.files_staged, 15);
}

#[test]
fn dcache_releases_untaped_requests_after_timeout() {
    let c = campaign(1, 3, 7);
    let mut files = c.files().to_vec();
    for f in &mut files {
        f.tapeinfo = false;
    }
    let c = Campaign::new(files, c.tapes().to_vec()).unwrap();
    let out = simulate(&spec(library(1, 100), dcache(1, None), 590.0), &c).unwrap();
    assert_eq!(out.metrics.files_staged, 0);
    let out = simulate(&spec(library(1, 100), dcache(1, None), 2_000.0), &c).unwrap();
    assert_eq!(out.metrics.files_staged, 3);
}

fn field_of(e: Error) -> String {
    match e {
        Error::Invalid { field, .. } => field,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn bad_configs_name_the_field() {
    let c = campaign(2, 3, 8);
    let bad = |lib: LibrarySpec, s: Strategy, c: &Campaign| {
        field_of(simulate(&spec(lib, s, 100.0), c).unwrap_err())
    };
    assert_eq!(
        bad(library(0, 10), Strategy::Random(Random {}), &c),
        "drives"
    );
    assert_eq!(
        bad(library(1, 0), Strategy::Random(Random {}), &c),
        "queue_size"
    );
    assert_eq!(
        bad(library(1, 10), Strategy::ByTapes(ByTapes { tapes: 0 }), &c),
        "strategy.tapes"
    );
    let mut lib = library(1, 10);
    lib.order = "nope".into();
    assert_eq!(bad(lib, Strategy::Random(Random {}), &c), "order");
    let mut lib = library(1, 10);
    lib.order = "best".into();
    assert_eq!(bad(lib, Strategy::Random(Random {}), &c), "order");
    let mut files = c.files().to_vec();
    files[0].tape = 9;
    let unknown = Campaign::new(files, c.tapes().to_vec()).unwrap_err();
    assert_eq!(field_of(unknown), "tape");
    let mut files = c.files().to_vec();
    files[0].block = 999;
    files[0].size = 2 * MB;
    let past = Campaign::new(files, c.tapes().to_vec()).unwrap();
    assert_eq!(
        bad(library(1, 10), Strategy::Random(Random {}), &past),
        "block"
    );
}

/// The paper's read model (§3.2) with its default curve.
fn session_fraction() -> ReadModel {
    ReadModel::SessionFraction {
        floor: 0.15,
        full_at: 0.8,
        exponent: 1.0,
    }
}

#[test]
fn session_fraction_curve_is_floor_to_full_rate_at_80_pct() {
    let m = session_fraction();
    assert!((m.efficiency(0.0) - 0.15).abs() < 1e-12);
    assert!((m.efficiency(0.4) - (0.15 + 0.85 * 0.5)).abs() < 1e-12);
    assert_eq!(m.efficiency(0.8), 1.0);
    assert_eq!(m.efficiency(0.95), 1.0);
    let mut last = 0.0;
    for i in 0..=100 {
        let e = m.efficiency(i as f64 / 100.0);
        assert!(e >= last && e <= 1.0, "not monotone at {i} %");
        last = e;
    }
}

#[test]
fn session_fraction_times_reads_by_the_sessions_share_of_the_tape() {
    let c = two_files_on_one_tape();
    let mut lib = library(1, 10);
    lib.read_model = session_fraction();
    let out = simulate(&spec(lib, Strategy::ByDataset(ByDataset {}), 1e5), &c).unwrap();
    // Mount 20 s. The session recalls 200 MB of 1,000 MB: 20 %, efficiency
    // 0.15 + 0.85 * 0.2 / 0.8 = 0.3625; each 100 MB read takes
    // 1 s / 0.3625, locates are inside the curve.
    let read = 1.0 / 0.3625;
    let m = &out.metrics;
    assert_eq!(m.files_staged, 2);
    let staging = (20.0 + read + 20.0 + 2.0 * read) / 2.0;
    assert!((m.staging_min * 60.0 - staging).abs() < 1e-9, "{m:?}");
    assert!((m.drive_utilisation * 1e5 - (20.0 + 2.0 * read)).abs() < 1e-6);
    // Nearest-rank quantiles of the two staging times.
    let minutes = |q: Option<f64>| q.expect("files were staged") * 60.0;
    assert!((minutes(m.staging_p50_min) - (20.0 + read)).abs() < 1e-9);
    assert!((minutes(m.staging_p99_min) - (20.0 + 2.0 * read)).abs() < 1e-9);
}

#[test]
fn arrivals_wait_for_the_next_batch_when_configured() {
    // As requests_for_a_mounted_tape_are_reordered, queue 2: 900 and 100 form
    // the first batch (100 first); 500 arrives while 100 is read and waits
    // for the next batch: 0->100 (10 s), 101->900 (79.9), 901->500 (40.1).
    let c = on_one_tape(&[900, 100, 500]);
    let mut lib = library(1, 2);
    lib.arrivals = Arrivals::NextBatch;
    let out = simulate(&spec(lib, Strategy::ByDataset(ByDataset {}), 1e5), &c).unwrap();
    let locate = out.metrics.drive_utilisation * 1e5 - 20.0 - 0.03;
    assert!((locate - 130.0).abs() < 1e-6, "{locate}");
}

#[test]
fn both_read_models_and_arrival_rules_stage_everything() {
    let c = campaign(6, 40, 11);
    for read_model in [session_fraction(), library(1, 1).read_model] {
        for arrivals in [Arrivals::Insert, Arrivals::NextBatch] {
            let mut lib = library(2, 30);
            lib.read_model = read_model.clone();
            lib.arrivals = arrivals;
            let out = simulate(&spec(lib, Strategy::Random(Random {}), 1e6), &c).unwrap();
            assert_eq!(out.metrics.files_staged, 240, "{read_model:?} {arrivals:?}");
        }
    }
}

#[test]
fn bad_read_model_names_the_field() {
    let c = campaign(2, 3, 8);
    let mut lib = library(1, 10);
    lib.read_model = ReadModel::SessionFraction {
        floor: 0.0,
        full_at: 0.8,
        exponent: 1.0,
    };
    let e = simulate(&spec(lib, Strategy::Random(Random {}), 100.0), &c).unwrap_err();
    assert_eq!(field_of(e), "read_model.floor");
}

#[test]
fn a_run_that_remounts_for_every_file_stays_within_its_event_estimate() {
    // One drive, a queue of one, files in random order over 40 tapes: almost
    // every file costs a mount, the most events a file can cause.
    let cfg: RecallConfig = serde_json::from_value(serde_json::json!({
        "library": {"drives": 1, "queue_size": 1},
        "strategy": {"name": "by-dataset"},
        "duration_h": 1e4,
        "sample_s": 1e6,
    }))
    .unwrap();
    let c = campaign(40, 10, 3);
    let out = run(&cfg, &c).unwrap();
    assert_eq!(out.metrics.files_staged, 400);
    assert!(out.metrics.mounts > 300, "{} mounts", out.metrics.mounts);
    let estimate = cfg.estimated_events(400);
    assert!(out.events as f64 <= estimate, "{} > {estimate}", out.events);
    // And not uselessly loose for this worst case (1,604 events of 3,238).
    assert!(
        out.events as f64 * 4.0 >= estimate,
        "{} << {estimate}",
        out.events
    );
}

#[test]
fn nth_request_is_the_request_of_the_nth_arrival() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let files: Vec<FileSpec> = (0..200)
        .map(|i| FileSpec {
            // Few distinct times, so that ties keep request order.
            arrival_s: f64::from(rng.gen_range(0..20u8)),
            ..file(i % 7, u64::from(i), MB)
        })
        .collect();
    let c = Campaign::new(
        files,
        vec![
            TapeSpec {
                capacity: 1000 * MB,
                used: 0
            };
            7
        ],
    )
    .unwrap();
    for rank in 0..200 {
        let f = c.nth_arrival(rank).unwrap();
        assert_eq!(c.nth_request(rank), Some(c.request(f)), "rank {rank}");
    }
    assert_eq!(c.nth_request(200), None);
}
