//! Constructors of LTO drives: the wrap/LPOS model and CTA's cost heuristic.

use crate::drive::Drive;
use crate::err;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::model::{CtaModel, LtoModel, LtoSpec};

fn model(spec_json: &str, eowp: Option<Vec<u64>>) -> PyResult<LtoModel> {
    let spec: LtoSpec = serde_json::from_str(spec_json)
        .map_err(|e| PyValueError::new_err(format!("invalid LTO spec: {e}")))?;
    LtoModel::for_tape(spec, eowp).map_err(err)
}

/// An LTO drive from its spec (JSON of LtoSpec fields) and optionally the
/// tape's end-of-wrap list (last block of each wrap); nominal without it.
#[pyfunction]
#[pyo3(signature = (spec_json, eowp=None))]
fn lto_drive(spec_json: &str, eowp: Option<Vec<u64>>) -> PyResult<Drive> {
    Ok(Drive::new(model(spec_json, eowp)?))
}

/// The same tape with locates timed by CTA's published cost heuristic.
#[pyfunction]
#[pyo3(signature = (spec_json, eowp=None))]
fn cta_drive(spec_json: &str, eowp: Option<Vec<u64>>) -> PyResult<Drive> {
    Ok(Drive::new(CtaModel::new(model(spec_json, eowp)?)))
}

/// Adds this area's functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(lto_drive, m)?)?;
    m.add_function(wrap_pyfunction!(cta_drive, m)?)?;
    Ok(())
}
