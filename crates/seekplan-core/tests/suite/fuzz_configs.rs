//! Hostile archive and media configs (issue 16 item 3): JSON built from each
//! config's own schema (its sections and field names, and strays), with an
//! extreme value or a wrong type in any field. Deserialising and checking
//! either fail with a named field or give a config that runs: each accepted
//! config runs briefly (a few requests or rounds), so a config the checks let
//! through cannot panic or hang the run either.

use crate::common;

use proptest::prelude::*;
use seekplan_core::archive::{simulate as archive_run, ArchiveConfig};
use seekplan_core::media::{simulate as media_run, Algorithm, MediaConfig, MediaStudy, StudyAxes};
use seekplan_core::schema::schema;
use seekplan_core::Error;
use serde_json::{json, Map, Value};

/// A config's field names: (section, its fields) pairs and top-level fields,
/// read from its JSON Schema.
struct Fields {
    sections: Vec<(String, Vec<String>)>,
    top: Vec<String>,
}

fn fields(name: &str) -> Fields {
    let s = serde_json::to_value(schema(name).expect("registered")).expect("JSON");
    let defs = s.get("$defs").cloned().unwrap_or(json!({}));
    let props = |node: &Value| -> Vec<String> {
        let node = match node["$ref"].as_str() {
            Some(r) => &defs[r.rsplit('/').next().expect("a ref")],
            None => node,
        };
        node["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    };
    let (mut sections, mut top) = (Vec::new(), Vec::new());
    for (key, node) in s["properties"].as_object().expect("properties") {
        let inner = props(node);
        if inner.is_empty() {
            top.push(key.clone());
        } else {
            sections.push((key.clone(), inner));
        }
    }
    assert!(!sections.is_empty() && !top.is_empty(), "{name}");
    Fields { sections, top }
}

/// What users and attackers type where a value is expected.
fn extreme() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => number(),
        2 => prop_oneof![
            Just(json!("x")),
            Just(json!("sptf")),
            Just(json!(null)),
            Just(json!(true)),
            Just(json!([])),
            Just(json!([0])),
            Just(json!([1e300, -1])),
            Just(json!({})),
        ],
        // A list of archive schemes (or of anything with their keys).
        1 => prop::collection::vec((number(), number(), number()), 1..3).prop_map(|v| {
            v.into_iter()
                .map(|(x, y, p)| json!({"x": x, "y": y, "p": p}))
                .collect()
        }),
    ]
}

/// A number from the extremes.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(1)),
        Just(json!(3)),
        Just(json!(60)),
        Just(json!(1e-300)),
        Just(json!(0.001)),
        Just(json!(1e8)),
        Just(json!(1e300)),
        Just(json!(u32::MAX)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(0.5)),
        (0.0f64..1e4).prop_map(|x| json!(x)),
    ]
}

/// Pairs of (key from `keys` or a stray, extreme value).
fn entries(keys: Vec<String>) -> impl Strategy<Value = Map<String, Value>> {
    let keys: Vec<String> = keys.into_iter().chain(["stray".to_string()]).collect();
    prop::collection::vec((prop::sample::select(keys), extreme()), 0..4)
        .prop_map(|kv| kv.into_iter().collect())
}

/// A config mapping near the schema `name`.
fn near(name: &str) -> impl Strategy<Value = Value> {
    let Fields { sections, top } = fields(name);
    let section_maps: Vec<_> = sections
        .into_iter()
        .map(|(key, inner)| entries(inner).prop_map(move |m| (key.clone(), Value::Object(m))))
        .collect();
    let sections = prop::collection::vec(prop::strategy::Union::new(section_maps), 0..3);
    (entries(top), sections).prop_map(|(mut top, sections)| {
        top.extend(sections);
        Value::Object(top)
    })
}

/// A refusal must name its field.
fn named(e: &Error, cfg: &Value) -> Result<(), TestCaseError> {
    match e {
        Error::Invalid { field, .. } => prop_assert!(!field.is_empty(), "{cfg}"),
        other => prop_assert!(false, "{cfg}: not a field error: {other}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::seeded(200))]

    #[test]
    fn archive_configs_are_refused_with_a_field_or_run(cfg in near("archive")) {
        let Ok(mut config) = serde_json::from_value::<ArchiveConfig>(cfg.clone()) else {
            return Ok(());
        };
        if let Err(e) = config.validate() {
            return named(&e, &cfg);
        }
        // A few requests only, so that the run stays short.
        config.workload.requests = Some(config.workload.requests.unwrap_or(20).min(20));
        match archive_run(&config) {
            Ok(m) => prop_assert!(m.arrivals <= 20, "{cfg}"),
            Err(e) => named(&e, &cfg)?,
        }
    }

    #[test]
    fn media_studies_are_refused_with_a_field_or_run(cfg in near("media")) {
        let mut axes = Map::new();
        let mut base = cfg.as_object().cloned().unwrap_or_default();
        for k in StudyAxes::KEYS {
            if let Some(v) = base.remove(k) {
                axes.insert(k.to_string(), v);
            }
        }
        let (Ok(axes), Ok(base)) = (
            serde_json::from_value::<StudyAxes>(Value::Object(axes)),
            serde_json::from_value::<MediaConfig>(Value::Object(base)),
        ) else {
            return Ok(());
        };
        let study = MediaStudy { axes, base };
        if let Err(e) = study.validate() {
            return named(&e, &cfg);
        }
        // Every algorithm at the heaviest rate, for two rounds.
        let heaviest = study.axes.lambdas.iter().copied().fold(0.0, f64::max);
        let mut run = study.run_config(heaviest, 0);
        run.rounds = run.rounds.min(2);
        for name in &study.axes.algorithms {
            let algo: Algorithm = name.parse().expect("validated");
            if let Err(e) = media_run(&run, algo) {
                named(&e, &cfg)?;
            }
        }
    }
}
