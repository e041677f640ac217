//! A list where a config's schema wants a mapping is refused, naming the
//! field: serde reads a struct from a list by field order, so
//! `library: [3]` ran with 3 drives.

use seekplan_core::schema::check_lists;
use seekplan_core::Error;
use serde_json::json;

fn field_of(name: &str, value: serde_json::Value) -> Option<String> {
    match check_lists(name, &value) {
        Ok(()) => None,
        Err(Error::Invalid { field, message }) => {
            assert_eq!(message, "expected a mapping of settings, got a list");
            Some(field)
        }
        Err(e) => panic!("unexpected error {e}"),
    }
}

#[test]
fn lists_where_mappings_go_are_named_at_every_level() {
    let cases = [
        ("recall", json!({"library": [3]}), "library"),
        (
            "recall",
            json!({"library": {"robot": [2]}}),
            "library.robot",
        ),
        (
            "recall",
            json!({"library": {"read_model": [1]}}),
            "library.read_model",
        ),
        ("recall", json!({"strategy": ["by-tapes", 3]}), "strategy"),
        ("recall", json!({"workload": []}), "workload"),
        ("recall", json!([]), "config"),
        ("archive", json!({"platform": [1, 2]}), "platform"),
        ("archive", json!({"scheduler": []}), "scheduler"),
        ("archive", json!({"workload": [20]}), "workload"),
        ("media", json!({"disk": [1]}), "disk"),
    ];
    for (name, value, field) in cases {
        assert_eq!(
            field_of(name, value.clone()).as_deref(),
            Some(field),
            "{name} {value}"
        );
    }
}

#[test]
fn lists_where_lists_go_and_every_example_pass() {
    for (name, value) in [
        ("recall", json!({})),
        (
            "recall",
            json!({"library": {"drives": 2}, "strategy": {"name": "dcache"}}),
        ),
        (
            "media",
            json!({"algorithms": ["sptf"], "lambdas": [1.0, 2.0]}),
        ),
        (
            "archive",
            json!({"policy": "hetero", "workload": {"rate_per_hour": 20}}),
        ),
    ] {
        assert_eq!(field_of(name, value.clone()), None, "{name} {value}");
    }
}
