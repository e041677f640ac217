//! Bindings of the archive simulation: a JSON config in, JSON metrics out.
//! The config's schema, defaults and checks are the core's
//! (`archive::ArchiveConfig`).

use crate::{err, parse, parse_config};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::archive::{simulate, ArchiveConfig};

/// The config with every default filled in, after the core's checks, as JSON.
#[pyfunction]
fn archive_config(config_json: &str) -> PyResult<String> {
    let cfg: ArchiveConfig = parse_config(config_json, "archive")?;
    cfg.validate().map_err(err)?;
    serde_json::to_string(&cfg).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs one archive simulation; `config_json` holds ArchiveConfig fields.
#[pyfunction]
fn archive_simulate(py: Python<'_>, config_json: &str) -> PyResult<String> {
    let cfg: ArchiveConfig = parse(config_json, "")?;
    let metrics = py.allow_threads(|| simulate(&cfg)).map_err(err)?;
    serde_json::to_string(&metrics).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(archive_config, m)?)?;
    m.add_function(wrap_pyfunction!(archive_simulate, m)?)
}
