//! Replays every hand-picked hostile input in `tests/corpus/` through every
//! parser and check of the core that takes user input (issue 16 item 3):
//! the CSV cost matrix (whole and fed in chunks), the recall, archive and
//! media configs, the drive specs (the file's fields over a catalogued
//! drive's), and end-of-wrap and track start lists. None may panic; every
//! refusal by a check names its field. A new hostile input is one new file.

use crate::common;

use seekplan_core::archive::ArchiveConfig;
use seekplan_core::media::{MediaConfig, MediaStudy, StudyAxes};
use seekplan_core::model::{
    CostMatrix, CsvMatrixReader, FourRegionModel, HelicalModel, LtoModel, SerpentineModel,
};
use seekplan_core::recall::RecallConfig;
use seekplan_core::Error;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

const LTO: &str = include_str!("../../../../python/seekplan/data/lto.toml");

/// The `params` table of a catalogued drive as JSON.
fn params(catalog: &str, drive: &str) -> Value {
    let doc: serde_json::Value = basic_toml::from_str(catalog).expect("catalog parses");
    doc["drives"][drive]["params"].clone()
}

/// `Ok` when accepted or refused with a named field, else what went wrong.
fn named<T>(r: Result<T, Error>) -> Result<(), String> {
    match r {
        Ok(_) => Ok(()),
        Err(Error::Invalid { field, .. }) if !field.is_empty() => Ok(()),
        Err(e) => Err(format!("not a field error: {e}")),
    }
}

/// A spec from `base` with the fields of `bytes` (a JSON object) laid over it.
fn over<T: DeserializeOwned>(base: &Value, bytes: &[u8]) -> Option<T> {
    let Ok(Value::Object(fields)) = serde_json::from_slice(bytes) else {
        return None;
    };
    let mut v = base.clone();
    for (k, x) in fields {
        v[k] = x;
    }
    serde_json::from_value(v).ok()
}

/// One parser and its checks over a file's bytes: `Err` on a failure.
type Parse = Box<dyn Fn(&[u8]) -> Result<(), String>>;

/// Every parser and check the core offers for user input, by name.
fn parsers() -> Vec<(&'static str, Parse)> {
    let lto9 = params(LTO, "lto9");
    let dlt = params(common::DEVICES, "dlt4000");
    let dat = params(common::DEVICES, "4mm-dat");
    let four = params(common::DEVICES, "dlt4000-t3");
    let (lto9b, dltb) = (lto9.clone(), dlt.clone());
    vec![
        ("csv matrix", Box::new(|b| named(CostMatrix::parse_csv(b)))),
        (
            "csv matrix in 7-byte chunks",
            Box::new(|b| {
                let mut reader = CsvMatrixReader::default();
                let fed = b.chunks(7).try_for_each(|c| reader.feed(c));
                named(fed.and_then(|()| reader.finish()))
            }),
        ),
        (
            "recall config",
            Box::new(|b| match serde_json::from_slice::<RecallConfig>(b) {
                Ok(cfg) => named(cfg.to_spec()),
                Err(_) => Ok(()),
            }),
        ),
        (
            "archive config",
            Box::new(|b| match serde_json::from_slice::<ArchiveConfig>(b) {
                Ok(cfg) => named(cfg.validate()),
                Err(_) => Ok(()),
            }),
        ),
        (
            "media study",
            Box::new(|b| {
                let Ok(Value::Object(mut base)) = serde_json::from_slice(b) else {
                    return Ok(());
                };
                let axes: serde_json::Map<_, _> = StudyAxes::KEYS
                    .iter()
                    .filter_map(|k| base.remove(*k).map(|v| (k.to_string(), v)))
                    .collect();
                match (
                    serde_json::from_value(Value::Object(axes)),
                    serde_json::from_value::<MediaConfig>(Value::Object(base)),
                ) {
                    (Ok(axes), Ok(base)) => named(MediaStudy { axes, base }.validate()),
                    _ => Ok(()),
                }
            }),
        ),
        (
            "lto spec",
            Box::new(move |b| match over(&lto9, b) {
                Some(spec) => named(LtoModel::nominal(spec)),
                None => Ok(()),
            }),
        ),
        (
            "serpentine spec",
            Box::new(move |b| match over(&dlt, b) {
                Some(spec) => named(SerpentineModel::nominal(spec)),
                None => Ok(()),
            }),
        ),
        (
            "helical spec",
            Box::new(move |b| match over(&dat, b) {
                Some(spec) => named(HelicalModel::new(spec)),
                None => Ok(()),
            }),
        ),
        (
            "four-region spec",
            Box::new(move |b| match over(&four, b) {
                Some(spec) => named(FourRegionModel::new(spec)),
                None => Ok(()),
            }),
        ),
        (
            "end-of-wrap list",
            Box::new(move |b| match serde_json::from_slice::<Vec<u64>>(b) {
                Ok(list) => {
                    let spec = serde_json::from_value(lto9b.clone()).expect("catalogued");
                    named(LtoModel::new(spec, list))
                }
                Err(_) => Ok(()),
            }),
        ),
        (
            "track start list",
            Box::new(move |b| match serde_json::from_slice::<Vec<u64>>(b) {
                Ok(list) => {
                    let spec = serde_json::from_value(dltb.clone()).expect("catalogued");
                    named(SerpentineModel::for_tape(spec, Some(list), None))
                }
                Err(_) => Ok(()),
            }),
        ),
    ]
}

#[test]
fn every_hostile_input_is_refused_or_accepted_by_every_parser_without_a_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 50, "the corpus lost files: {}", files.len());
    let parsers = parsers();
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("readable");
        let name = path.file_name().expect("a file").to_string_lossy();
        for (parser, parse) in &parsers {
            match catch_unwind(AssertUnwindSafe(|| parse(&bytes))) {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failures.push(format!("{name} / {parser}: {e}")),
                Err(_) => failures.push(format!("{name} / {parser}: panicked")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
