//! Bindings of the Tape REST API body decoding the staging service uses.

use pyo3::prelude::*;

/// The paths of a plain stage body (`{"files": [{"path": ...}, ...]}` and
/// nothing else), decoded while other Python threads run; None for any
/// other body.
#[pyfunction]
fn plain_stage_paths(py: Python<'_>, body: &[u8]) -> Option<Vec<String>> {
    py.allow_threads(|| {
        seekplan_core::tape_rest::plain_stage_paths(body)
            .map(|paths| paths.into_iter().map(|p| p.into_owned()).collect())
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(plain_stage_paths, m)?)
}
