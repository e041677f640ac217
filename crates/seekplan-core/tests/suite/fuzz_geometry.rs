//! Hostile drive figures and tape geometries (issue 16 item 3): a catalogued
//! spec with extreme values in any of its fields, and end-of-wrap lists or
//! track start lists of any shape. Building the model either fails with a
//! named field or gives a model whose every locate and read, even to blocks
//! past the end of the tape, is a time that is not NaN and not negative.

use crate::common;

use proptest::prelude::*;
use seekplan_core::model::{
    Block, CostModel, Extent, FourRegionModel, FourRegionSpec, HelicalModel, HelicalSpec, LtoModel,
    LtoSpec, SerpentineModel,
};
use seekplan_core::Error;
use serde_json::{json, Value};

const LTO: &str = include_str!("../../../../python/seekplan/data/lto.toml");

/// The `params` table of a catalogued drive as JSON.
fn params(catalog: &str, drive: &str) -> Value {
    let doc: serde_json::Value = basic_toml::from_str(catalog).expect("catalog parses");
    doc["drives"][drive]["params"].clone()
}

/// What a user may type where a number is expected.
fn extreme() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => prop_oneof![
            Just(json!(0)),
            Just(json!(-1)),
            Just(json!(1)),
            Just(json!(2)),
            Just(json!(1e-300)),
            Just(json!(1e300)),
            Just(json!(u32::MAX)),
            Just(json!(u64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!(0.5)),
            (0u64..100_000).prop_map(|x| json!(x)),
        ],
        1 => prop_oneof![Just(json!("x")), Just(json!(null)), Just(json!([])), Just(json!({}))],
    ]
}

/// `base` with up to three of its fields replaced by extremes.
fn mutated(base: Value) -> impl Strategy<Value = Value> {
    let keys: Vec<String> = base.as_object().expect("a table").keys().cloned().collect();
    prop::collection::vec((prop::sample::select(keys), extreme()), 0..4).prop_map(move |kv| {
        let mut v = base.clone();
        for (k, x) in kv {
            v[k] = x;
        }
        v
    })
}

/// A list of block numbers: sorted or not, small or past any capacity.
fn block_list() -> impl Strategy<Value = Vec<u64>> {
    let entry = prop_oneof![
        Just(0u64),
        Just(u64::MAX),
        Just(u64::MAX - 1),
        Just(u64::from(u32::MAX)),
        0u64..5_000_000,
    ];
    (prop::collection::vec(entry, 0..300), any::<bool>()).prop_map(|(mut v, sort)| {
        if sort {
            v.sort_unstable();
            v.dedup();
        }
        v
    })
}

/// Blocks to probe a model at: its edges, past its end, and inside it.
fn probes(capacity: u64, picks: &[u64]) -> Vec<Block> {
    let mut out = vec![0, 1, capacity.saturating_sub(1), capacity, u64::MAX];
    out.extend(picks.iter().map(|p| p % capacity.max(1)));
    out.into_iter().map(Block).collect()
}

/// Every locate and read between the probes is a time, not NaN or negative.
fn times_are_sane(model: &dyn CostModel, picks: &[u64]) -> Result<(), TestCaseError> {
    let blocks = probes(model.capacity(), picks);
    for &from in &blocks {
        for &to in &blocks {
            let t = model.locate(from, to);
            prop_assert!(t >= 0.0, "locate {from:?} -> {to:?} = {t}");
        }
        for bytes in [0, 1, model.block_bytes(), u64::MAX] {
            let r = model.read(Extent { start: from, bytes });
            prop_assert!(r.seconds >= 0.0, "read {from:?} {bytes} = {}", r.seconds);
        }
    }
    Ok(())
}

/// A build that failed must name its field.
fn named(e: &Error) -> Result<(), TestCaseError> {
    match e {
        Error::Invalid { field, .. } => prop_assert!(!field.is_empty()),
        other => prop_assert!(false, "not a field error: {other}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::seeded(300))]

    #[test]
    fn lto_specs_and_end_of_wrap_lists(
        spec in mutated(params(LTO, "lto9")),
        eowp in prop::option::of(block_list()),
        picks in prop::collection::vec(any::<u64>(), 3),
    ) {
        let Ok(spec) = serde_json::from_value::<LtoSpec>(spec) else { return Ok(()) };
        match LtoModel::for_tape(spec, eowp) {
            Ok(model) => times_are_sane(&model, &picks)?,
            Err(e) => named(&e)?,
        }
    }

    #[test]
    fn serpentine_specs_and_track_starts(
        spec in mutated(params(common::DEVICES, "dlt4000")),
        starts in prop::option::of(block_list()),
        capacity in prop::option::of(prop_oneof![Just(0u64), Just(u64::MAX), 0u64..5_000_000]),
        picks in prop::collection::vec(any::<u64>(), 3),
    ) {
        let Ok(spec) = serde_json::from_value(spec) else { return Ok(()) };
        match SerpentineModel::for_tape(spec, starts, capacity) {
            Ok(model) => times_are_sane(&model, &picks)?,
            Err(e) => named(&e)?,
        }
    }

    #[test]
    fn helical_and_four_region_specs(
        helical in mutated(params(common::DEVICES, "4mm-dat")),
        four in mutated(params(common::DEVICES, "dlt4000-t3")),
        picks in prop::collection::vec(any::<u64>(), 3),
    ) {
        if let Ok(spec) = serde_json::from_value::<HelicalSpec>(helical) {
            match HelicalModel::new(spec) {
                Ok(model) => times_are_sane(&model, &picks)?,
                Err(e) => named(&e)?,
            }
        }
        if let Ok(spec) = serde_json::from_value::<FourRegionSpec>(four) {
            match FourRegionModel::new(spec) {
                Ok(model) => times_are_sane(&model, &picks)?,
                Err(e) => named(&e)?,
            }
        }
    }
}

#[test]
fn a_zero_block_size_with_measured_track_starts_is_a_field_error() {
    // Found by the fuzzing above: the nominal capacity was computed (a
    // division by the block size) before the spec was checked.
    let mut spec = params(common::DEVICES, "dlt4000");
    spec["block_bytes"] = json!(0);
    let spec = serde_json::from_value(spec).unwrap();
    match SerpentineModel::for_tape(spec, Some(vec![0, 1_000]), None) {
        Err(Error::Invalid { field, .. }) => assert_eq!(field, "block_bytes"),
        other => panic!("expected a block_bytes error, got {other:?}"),
    }
}
