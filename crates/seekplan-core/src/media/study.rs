//! A media study: every listed algorithm at every listed arrival rate, each
//! `runs` times, on one base config. The spec `seekplan simulate media`
//! reads, with its defaults and checks, so Python keeps no mirror of it.
//!
//! A study file is one mapping: the three [`StudyAxes`] keys and the base
//! [`MediaConfig`]'s keys side by side. The two halves are read apart (the
//! caller splits the mapping by [`StudyAxes::KEYS`]), because serde's
//! `flatten` would accept unknown keys and lose the field path of errors.

use super::{Algorithm, MediaConfig};
use crate::{Error, Result};
use schemars::{schema_for, JsonSchema, Schema};
use serde::{Deserialize, Serialize};

/// At most this many C-requests per round: far beyond what a round of any
/// disk serves (the paper's serves about 45); a billion exhausted memory.
pub const MAX_C_REQUESTS: u32 = 10_000;

/// At most this many runs in one study (algorithms x lambdas x runs): far
/// beyond a paper's sweep (Balafoutis's is a few hundred); each run is a
/// point the sweep keeps in memory, and `runs: 1000000000` exhausted it.
pub const MAX_STUDY_RUNS: u64 = 100_000;

/// What a study compares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct StudyAxes {
    /// Algorithms to compare (`seekplan simulate media --help` lists them).
    pub algorithms: Vec<String>,
    /// D-request arrival rates per round, lambda (each >= 0); a study sets
    /// each run's `lambda` from these.
    pub lambdas: Vec<f64>,
    /// Runs per (algorithm, rate); run k has seed `seed + k`.
    pub runs: u32,
}

impl Default for StudyAxes {
    fn default() -> Self {
        StudyAxes {
            algorithms: vec!["ci-opt".into(), "clust-req".into(), "sptf".into()],
            lambdas: vec![10.0, 30.0, 50.0],
            runs: 2,
        }
    }
}

impl StudyAxes {
    /// The keys of a study mapping that belong to the axes.
    pub const KEYS: [&'static str; 3] = ["algorithms", "lambdas", "runs"];
}

/// A study: its axes and the settings every run shares.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaStudy {
    /// What is compared.
    pub axes: StudyAxes,
    /// Every run's settings (`lambda` and `seed` are set per run).
    pub base: MediaConfig,
}

impl MediaStudy {
    /// Checks every value; the error names the field.
    pub fn validate(&self) -> Result<()> {
        let a = &self.axes;
        if a.algorithms.is_empty() {
            return Err(Error::invalid("algorithms", "list at least one algorithm"));
        }
        for (i, name) in a.algorithms.iter().enumerate() {
            name.parse::<Algorithm>()
                .map_err(|e| Error::invalid(format!("algorithms[{i}]"), e.to_string()))?;
        }
        if a.lambdas.is_empty() {
            return Err(Error::invalid("lambdas", "list at least one rate"));
        }
        for (i, &lam) in a.lambdas.iter().enumerate() {
            if !(lam.is_finite() && lam >= 0.0) {
                return Err(Error::invalid(
                    format!("lambdas[{i}]"),
                    format!("arrival rate {lam} must be >= 0"),
                ));
            }
        }
        if a.runs == 0 {
            return Err(Error::invalid("runs", "must be at least 1"));
        }
        let total = a.algorithms.len() as u64 * a.lambdas.len() as u64 * u64::from(a.runs);
        if total > MAX_STUDY_RUNS {
            return Err(Error::invalid(
                "runs",
                format!(
                    "{} algorithm(s) x {} lambda(s) x {} run(s) are {total} runs, \
                     more than {MAX_STUDY_RUNS}",
                    a.algorithms.len(),
                    a.lambdas.len(),
                    a.runs
                ),
            ));
        }
        if self.base.c_requests > MAX_C_REQUESTS {
            return Err(Error::invalid(
                "c_requests",
                format!("at most {MAX_C_REQUESTS}, got {}", self.base.c_requests),
            ));
        }
        // Every run's config, checked at the heaviest rate (the cost cap
        // grows with lambda).
        let heaviest = a.lambdas.iter().copied().fold(0.0, f64::max);
        self.run_config(heaviest, 0).validate()
    }

    /// The config of run `run` at rate `lambda`.
    pub fn run_config(&self, lambda: f64, run: u32) -> MediaConfig {
        MediaConfig {
            lambda,
            seed: self.base.seed.wrapping_add(u64::from(run)),
            ..self.base.clone()
        }
    }

    /// The JSON Schema of a study mapping: the base config's, with the
    /// axes' properties beside its own and `lambda` left out (the axes set it).
    pub fn schema() -> Schema {
        let mut schema = schema_for!(MediaConfig);
        let axes = schema_for!(StudyAxes);
        if let (Some(props), Some(extra)) = (
            schema.get_mut("properties").and_then(|p| p.as_object_mut()),
            axes.get("properties").and_then(|p| p.as_object()),
        ) {
            props.remove("lambda");
            for (k, v) in extra {
                props.insert(k.clone(), v.clone());
            }
        }
        schema
    }
}
