//! Bindings for round-based mixed-media disk scheduling (Balafoutis et al.).

use crate::{err, parse, parse_config};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::media::{
    cluster_study, simulate, Algorithm, MediaConfig, MediaStudy, StudyAxes,
};
use seekplan_core::model::disk::DiskSpec;

fn json_err(e: serde_json::Error) -> PyErr {
    PyValueError::new_err(format!("invalid media config: {e}"))
}

/// A study, as the axes' and the base config's JSON halves (the caller
/// splits the mapping by `media_study_keys`), with every default filled in
/// after the core's checks: `(axes_json, base_json)`.
#[pyfunction]
fn media_study(axes_json: &str, base_json: &str) -> PyResult<(String, String)> {
    let study = MediaStudy {
        axes: parse_config::<StudyAxes>(axes_json, "media")?,
        base: parse_config::<MediaConfig>(base_json, "media")?,
    };
    study.validate().map_err(err)?;
    Ok((
        serde_json::to_string(&study.axes).map_err(json_err)?,
        serde_json::to_string(&study.base).map_err(json_err)?,
    ))
}

/// The keys of a study mapping that belong to the axes.
#[pyfunction]
fn media_study_keys() -> Vec<&'static str> {
    StudyAxes::KEYS.to_vec()
}

/// Runs one simulation: `config_json` holds MediaConfig fields; returns the
/// summary as a JSON object string.
#[pyfunction]
fn media_simulate(py: Python<'_>, config_json: &str, algo: &str) -> PyResult<String> {
    let cfg: MediaConfig = serde_json::from_str(config_json).map_err(json_err)?;
    let algo: Algorithm = algo.parse().map_err(err)?;
    let summary = py.allow_threads(|| simulate(&cfg, algo)).map_err(err)?;
    serde_json::to_string(&summary).map_err(json_err)
}

/// Mean in-cluster response of OPT and SCAN orders (Figure 3), as JSON.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn media_cluster_study(
    py: Python<'_>,
    disk_json: &str,
    k: usize,
    width: u32,
    samples: u32,
    size_mean: f64,
    size_sd: f64,
    seed: u64,
) -> PyResult<String> {
    let disk: DiskSpec = parse(disk_json, "")?;
    disk.validate().map_err(err)?;
    let gain = py
        .allow_threads(|| cluster_study(&disk, k, width, samples, (size_mean, size_sd), seed))
        .map_err(err)?;
    serde_json::to_string(&gain).map_err(json_err)
}

/// Names of the mixed-media scheduling algorithms.
#[pyfunction]
fn media_algorithms() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|a| a.name()).collect()
}

/// Adds this area's functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(media_study, m)?)?;
    m.add_function(wrap_pyfunction!(media_study_keys, m)?)?;
    m.add_function(wrap_pyfunction!(media_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(media_cluster_study, m)?)?;
    m.add_function(wrap_pyfunction!(media_algorithms, m)?)?;
    Ok(())
}
