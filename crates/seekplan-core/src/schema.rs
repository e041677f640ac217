//! The JSON Schemas of every user-facing config, derived from the serde
//! structs the core deserializes (so they cannot drift). One registry list:
//! a new config is one line in [`SCHEMAS`].

use crate::{Error, Result};
use schemars::{schema_for, Schema};
use serde_json::Value;

/// A user-facing config: its name (as in `seekplan schema NAME`), what it
/// configures, and its schema.
pub struct ConfigSchema {
    /// Name users type.
    pub name: &'static str,
    /// One line on what the config drives.
    pub description: &'static str,
    /// Builds the JSON Schema.
    pub schema: fn() -> Schema,
}

/// Every user-facing config spec.
pub const SCHEMAS: &[ConfigSchema] = &[
    ConfigSchema {
        name: "recall",
        description: "seekplan simulate recall: a requester strategy in front of a tape library",
        schema: || schema_for!(crate::recall::RecallConfig),
    },
    ConfigSchema {
        name: "archive",
        description:
            "seekplan simulate archive: archival write policies on the Blue Waters platform",
        schema: || schema_for!(crate::archive::ArchiveConfig),
    },
    ConfigSchema {
        name: "media",
        description: "seekplan simulate media: disk schedulers compared over arrival rates",
        schema: crate::media::MediaStudy::schema,
    },
    ConfigSchema {
        name: "mounts",
        description: "seekplan simulate mounts: dismount, eviction and placement on a mount trace",
        schema: || schema_for!(crate::mounts::MountConfig),
    },
];

/// Names of the registered configs, in registry order.
pub fn schema_names() -> Vec<&'static str> {
    SCHEMAS.iter().map(|s| s.name).collect()
}

/// The schema of the config called `name`.
pub fn schema(name: &str) -> Result<Schema> {
    SCHEMAS
        .iter()
        .find(|s| s.name == name)
        .map(|s| (s.schema)())
        .ok_or_else(|| {
            Error::invalid(
                "schema",
                format!(
                    "unknown config {name:?}; choose one of {}",
                    schema_names().join(", ")
                ),
            )
        })
}

/// Fails, naming the field, where `value` (a config called `name`, as
/// JSON) holds a list and its schema allows a mapping there but no list:
/// serde reads a struct from a list by field order, so `library: [3]` ran
/// with 3 drives and `disk: [1]` read as `cylinders: 1`.
pub fn check_lists(name: &str, value: &Value) -> Result<()> {
    let root = schema(name)?;
    walk(value, root.as_value(), root.as_value(), "")
}

/// The schemas `schema` stands for: its `$ref` followed, its `anyOf`,
/// `oneOf` and `allOf` alternatives (and itself, which may carry
/// properties of its own) gathered.
fn leaves<'a>(schema: &'a Value, root: &'a Value, out: &mut Vec<&'a Value>) {
    let target = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer));
    if let Some(target) = target {
        leaves(target, root, out);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for alternative in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            leaves(alternative, root, out);
        }
    }
    out.push(schema);
}

/// Whether a leaf schema admits a JSON value of `kind` (one without a
/// `type` admits anything).
fn admits(leaf: &Value, kind: &str) -> bool {
    match leaf.get("type") {
        None => true,
        Some(Value::String(t)) => t == kind,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == kind),
        Some(_) => false,
    }
}

fn walk(value: &Value, schema: &Value, root: &Value, path: &str) -> Result<()> {
    let mut all = Vec::new();
    leaves(schema, root, &mut all);
    // A `$ref` or a bare alternative list carries no type of its own.
    let typed: Vec<&Value> = all
        .into_iter()
        .filter(|l| l.get("type").is_some())
        .collect();
    match value {
        Value::Array(items) => {
            if !typed.is_empty()
                && typed.iter().any(|l| admits(l, "object"))
                && !typed.iter().any(|l| admits(l, "array"))
            {
                let field = if path.is_empty() { "config" } else { path };
                return Err(Error::invalid(
                    field,
                    "expected a mapping of settings, got a list",
                ));
            }
            for leaf in &typed {
                if let Some(item) = leaf.get("items") {
                    for (i, v) in items.iter().enumerate() {
                        walk(v, item, root, &format!("{path}[{i}]"))?;
                    }
                }
            }
        }
        Value::Object(map) => {
            for (key, v) in map {
                let inner = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                for leaf in &typed {
                    if let Some(property) = leaf.get("properties").and_then(|p| p.get(key)) {
                        walk(v, property, root, &inner)?;
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_builds_and_names_are_unique() {
        let names = schema_names();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n} registered twice");
            let s = schema(n).unwrap();
            assert!(s.get("properties").is_some(), "{n} has no properties");
        }
        assert!(schema("nope").is_err());
    }

    #[test]
    fn recall_schema_carries_user_names_and_defaults() {
        let s = serde_json::to_value(schema("recall").unwrap()).unwrap();
        assert_eq!(s["properties"]["duration_h"]["default"], 60.0);
        let lib = serde_json::to_string(&s).unwrap();
        assert!(lib.contains("rate_mb_s") && lib.contains("arms"));
    }
}
