//! Request bodies of the WLCG Tape REST API that the staging service
//! (`seekplan serve`) reads in bulk. A stage request of 100,000 files is a
//! 3 MB body; decoding it in Python held the interpreter lock for 30-50 ms,
//! which a release sent meanwhile waited for. The plain shape of such a
//! body is decoded here instead, where the caller can let other threads
//! run; any other body is left to the service's own decoder, whose errors
//! name the field.

use serde::Deserialize;
use std::borrow::Cow;

/// `{"files": [...]}` and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StageBody<'a> {
    #[serde(borrow)]
    files: Vec<StageFile<'a>>,
}

/// `{"path": "..."}` and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StageFile<'a> {
    #[serde(borrow)]
    path: Cow<'a, str>,
}

/// The paths, in order, of a stage body that is exactly
/// `{"files": [{"path": "..."}, ...]}` with at least one file and no other
/// field anywhere (no `diskLifetime`, no `targetedMetadata`, no repeated
/// key), as UTF-8 JSON. None for every other body, valid or not: the
/// service then decodes it itself, so what it accepts and how it words a
/// refusal does not depend on this shortcut.
pub fn plain_stage_paths(body: &[u8]) -> Option<Vec<Cow<'_, str>>> {
    let parsed: StageBody = serde_json::from_slice(body).ok()?;
    if parsed.files.is_empty() {
        return None;
    }
    Some(parsed.files.into_iter().map(|f| f.path).collect())
}
