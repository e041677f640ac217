//! Bindings of the archive simulation: a JSON config in, JSON metrics out.

use crate::err;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::archive::{simulate, ArchiveConfig};

/// Runs one archive simulation; `config_json` holds ArchiveConfig fields.
#[pyfunction]
fn archive_simulate(py: Python<'_>, config_json: &str) -> PyResult<String> {
    let cfg: ArchiveConfig = serde_json::from_str(config_json)
        .map_err(|e| PyValueError::new_err(format!("invalid archive config: {e}")))?;
    let metrics = py.allow_threads(|| simulate(&cfg)).map_err(err)?;
    serde_json::to_string(&metrics).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(archive_simulate, m)?)
}
