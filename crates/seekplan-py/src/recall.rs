//! Bindings of the recall simulator: a JSON spec and the campaign as parallel
//! columns in, the outcome as JSON out.

use crate::err;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::library::{Campaign, FileSpec, TapeSpec};
use seekplan_core::recall::{simulate, RecallSpec};

/// Runs one recall campaign; `spec` is a RecallSpec as JSON, files and tapes
/// are parallel columns. Returns the outcome as JSON.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn simulate_recall(
    py: Python<'_>,
    spec: &str,
    dataset: Vec<u32>,
    tape: Vec<u32>,
    block: Vec<u64>,
    size: Vec<u64>,
    arrival_s: Vec<f64>,
    tapeinfo: Vec<bool>,
    capacity: Vec<u64>,
    used: Vec<u64>,
) -> PyResult<String> {
    let n = dataset.len();
    if [
        tape.len(),
        block.len(),
        size.len(),
        arrival_s.len(),
        tapeinfo.len(),
    ]
    .iter()
    .any(|&l| l != n)
        || capacity.len() != used.len()
    {
        return Err(PyValueError::new_err("campaign columns differ in length"));
    }
    let spec: RecallSpec = serde_json::from_str(spec)
        .map_err(|e| PyValueError::new_err(format!("invalid recall spec: {e}")))?;
    let files = (0..n)
        .map(|i| FileSpec {
            dataset: dataset[i],
            tape: tape[i],
            block: block[i],
            size: size[i],
            arrival_s: arrival_s[i],
            tapeinfo: tapeinfo[i],
        })
        .collect();
    let tapes = capacity
        .into_iter()
        .zip(used)
        .map(|(capacity, used)| TapeSpec { capacity, used })
        .collect();
    let campaign = Campaign { files, tapes };
    let outcome = py
        .allow_threads(|| simulate(&spec, &campaign))
        .map_err(err)?;
    serde_json::to_string(&outcome).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_recall, m)?)
}
