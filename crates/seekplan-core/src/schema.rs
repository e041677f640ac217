//! The JSON Schemas of every user-facing config, derived from the serde
//! structs the core deserializes (so they cannot drift). One registry list:
//! a new config is one line in [`SCHEMAS`].

use crate::{Error, Result};
use schemars::{schema_for, Schema};

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
