//! Hostile input to the core's parsers and config checks (issue 16 item 3):
//! arbitrary CSV bytes cut into arbitrary chunks, and recall configs with
//! extreme values in every field. Nothing may panic; a config the checks
//! refuse names the field, and one they accept runs to its end on a small
//! campaign (the cost caps keep every such run short). Campaigns with
//! extreme blocks, sizes, arrival times and tapes are refused with a field
//! or run to their end. Cost matrices with extreme entries are refused or
//! ordered by every matrix algorithm to a finite total.

use crate::common;

use proptest::prelude::*;
use seekplan_core::library::{Campaign, FileSpec, TapeSpec};
use seekplan_core::model::{CostMatrix, CsvMatrixReader};
use seekplan_core::order::{self, Algorithm, Needs, Problem};
use seekplan_core::recall::{run, RecallConfig};
use seekplan_core::Error;
use serde_json::{json, Map, Value};

/// Bytes that look like a CSV matrix often enough to reach deep parser states.
fn csv_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just(b"0".to_vec()),
        Just(b"1.5".to_vec()),
        Just(b"-2".to_vec()),
        Just(b"1e308".to_vec()),
        Just(b"nan".to_vec()),
        Just(b",".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b" ".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(token, 0..60).prop_map(|t| t.concat())
}

/// A JSON value from the extremes users and attackers type: mostly numbers
/// (which reach the checks and the run), sometimes another type.
fn extreme() -> impl Strategy<Value = Value> {
    let number = prop_oneof![
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(1)),
        Just(json!(12)),
        Just(json!(1e-300)),
        Just(json!(0.001)),
        Just(json!(1e300)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(0.5)),
        (0.0f64..1e4).prop_map(|x| json!(x)),
    ];
    let other = prop_oneof![
        Just(json!("x")),
        Just(json!(null)),
        Just(json!(true)),
        Just(json!([])),
        Just(json!({})),
    ];
    prop_oneof![8 => number, 1 => other]
}

/// Keys of the recall config by section (a few misspelt on purpose).
const LIBRARY_KEYS: &[&str] = &[
    "drives",
    "rate_mb_s",
    "load_s",
    "thread_s",
    "unload_s",
    "rewind_s",
    "block_bytes",
    "queue_size",
    "order",
];
const TOP_KEYS: &[&str] = &["duration_h", "sample_s", "seed"];
const DCACHE_KEYS: &[&str] = &[
    "check_interval_s",
    "max_active_tapes",
    "max_time_in_queue_s",
    "min_request_count",
    "min_tape_recall_pct",
    "min_time_in_queue_s",
    "tapeinfo_timeout_s",
];

fn section(keys: &'static [&'static str]) -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec((prop::sample::select(keys), extreme()), 0..4)
        .prop_map(|kv| kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn recall_config() -> impl Strategy<Value = Value> {
    let strategy = prop_oneof![
        Just(json!({"name": "random"})),
        Just(json!({"name": "by-dataset"})),
        extreme().prop_map(|t| json!({"name": "by-tapes", "tapes": t})),
        section(DCACHE_KEYS).prop_map(|mut m| {
            m.insert("name".into(), json!("dcache"));
            Value::Object(m)
        }),
    ];
    (section(LIBRARY_KEYS), section(TOP_KEYS), strategy).prop_map(|(lib, top, strategy)| {
        let mut cfg = top;
        cfg.insert("library".into(), Value::Object(lib));
        cfg.insert("strategy".into(), strategy);
        Value::Object(cfg)
    })
}

/// Three tapes of 1 GB with five 10 MB files each, all requested at once.
fn small_campaign() -> Campaign {
    let files = (0..15)
        .map(|i| FileSpec {
            dataset: i % 2,
            tape: i % 3,
            block: u64::from(i / 3) * 40,
            size: 10_000_000,
            arrival_s: 0.0,
            tapeinfo: i % 4 != 0,
        })
        .collect();
    let tape = TapeSpec {
        capacity: 1_000_000_000,
        used: 1_000_000_000,
    };
    Campaign::new(files, vec![tape; 3]).unwrap()
}

proptest! {
    #![proptest_config(common::seeded(300))]

    #[test]
    fn csv_matrices_never_panic_and_chunking_never_changes_the_answer(
        text in csv_bytes(),
        chunk in 1usize..17,
    ) {
        let whole = CostMatrix::parse_csv(&text);
        let mut reader = CsvMatrixReader::default();
        let mut fed = Ok(());
        for part in text.chunks(chunk) {
            fed = fed.and_then(|()| reader.feed(part));
        }
        let chunked = fed.and_then(|()| reader.finish());
        match (whole, chunked) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert!(false, "whole {:?} vs chunked {:?}", a.is_ok(), b.is_ok()),
        }
    }
}

proptest! {
    #![proptest_config(common::seeded(500))]

    #[test]
    fn recall_configs_are_refused_with_a_field_or_run_to_their_end(cfg in recall_config()) {
        let Ok(config) = serde_json::from_value::<RecallConfig>(cfg.clone()) else {
            return Ok(());
        };
        match run(&config, &small_campaign()) {
            Ok(out) => {
                prop_assert!(out.metrics.files_staged <= 15);
                prop_assert!(out.events as f64 <= config.estimated_events(15), "{cfg}");
                prop_assert!(out.metrics.throughput_mb_s.is_finite(), "{cfg}");
            }
            Err(Error::Invalid { field, .. }) => prop_assert!(!field.is_empty()),
            Err(other) => prop_assert!(false, "{cfg}: {other}"),
        }
    }
}

/// A file with extreme block, size and arrival time on one of four tapes
/// (some of which do not exist).
fn hostile_file() -> impl Strategy<Value = FileSpec> {
    let big = prop_oneof![
        Just(0u64),
        Just(1),
        Just(u64::MAX),
        Just(1u64 << 63),
        0u64..1 << 40
    ];
    let arrival = prop_oneof![
        Just(0.0),
        Just(-1.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(1e300),
        0.0f64..1e6,
    ];
    (0u32..3, 0u32..4, big.clone(), big, arrival, any::<bool>()).prop_map(
        |(dataset, tape, block, size, arrival_s, tapeinfo)| FileSpec {
            dataset,
            tape,
            block,
            size,
            arrival_s,
            tapeinfo,
        },
    )
}

fn hostile_tape() -> impl Strategy<Value = TapeSpec> {
    let bytes = prop_oneof![Just(0u64), Just(u64::MAX), 0u64..1 << 45];
    (bytes.clone(), bytes).prop_map(|(capacity, used)| TapeSpec { capacity, used })
}

proptest! {
    #![proptest_config(common::seeded(200))]

    #[test]
    fn campaigns_are_refused_with_a_field_or_run_to_their_end(
        files in prop::collection::vec(hostile_file(), 0..12),
        tapes in prop::collection::vec(hostile_tape(), 1..4),
    ) {
        let n = files.len() as u64;
        let campaign = match Campaign::new(files, tapes) {
            Ok(c) => c,
            Err(Error::Invalid { field, .. }) => {
                prop_assert!(!field.is_empty());
                return Ok(());
            }
            Err(other) => return Err(TestCaseError::fail(other.to_string())),
        };
        let config: RecallConfig = serde_json::from_value(json!({"duration_h": 1e6})).unwrap();
        match run(&config, &campaign) {
            Ok(out) => {
                prop_assert!(out.metrics.files_staged <= n);
                prop_assert!(out.events as f64 <= config.estimated_events(n as usize));
            }
            Err(Error::Invalid { field, .. }) => prop_assert!(!field.is_empty()),
            Err(other) => prop_assert!(false, "{other}"),
        }
    }
}

/// A cost matrix entry as users' files have them, extremes included.
fn entry() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(1.0),
        Just(-1.0),
        Just(1e308),
        Just(f64::MAX),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(5e-324),
        0.0f64..1e4,
    ]
}

proptest! {
    #![proptest_config(common::seeded(200))]

    #[test]
    fn matrices_are_refused_with_a_field_or_ordered_to_a_finite_total(
        square in (1usize..7).prop_flat_map(|n| {
            prop::collection::vec(prop::collection::vec(entry(), n), n)
        }),
        clean in prop::bool::weighted(0.7),
        ragged in prop::bool::weighted(0.1),
        start in 0usize..7,
        end in prop::option::of(0usize..7),
    ) {
        // Mostly valid matrices (large entries kept), so that most reach the
        // algorithms; some ragged or with NaN, infinities or negatives.
        let mut rows = square;
        if clean {
            for x in rows.iter_mut().flatten() {
                if !(x.is_finite() && *x >= 0.0) {
                    *x = 1e308;
                }
            }
        }
        if ragged {
            rows[0].push(1.0);
        }
        let fail = |e: Error| match e {
            Error::Invalid { field, .. } => {
                prop_assert!(!field.is_empty());
                Ok(())
            }
            Error::TooLarge { .. } | Error::Unsupported { .. } => Ok(()),
        };
        let m = match CostMatrix::from_rows(rows) {
            Ok(m) => m,
            Err(e) => return fail(e),
        };
        let problem = match Problem::matrix(&m, start, end) {
            Ok(p) => p,
            Err(e) => return fail(e),
        };
        for algo in Algorithm::ALL.iter().filter(|a| a.needs() == Needs::Costs) {
            match order::run(&problem, *algo) {
                Ok(s) => prop_assert!(
                    s.total_s.is_finite() && s.total_s >= 0.0,
                    "{algo}: total {}", s.total_s
                ),
                Err(e) => fail(e)?,
            }
        }
    }
}
