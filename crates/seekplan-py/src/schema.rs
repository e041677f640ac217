//! Bindings of the config schema registry.

use crate::err;
use pyo3::prelude::*;

/// The JSON Schema of the config called `name`, as pretty JSON.
#[pyfunction]
fn schema(name: &str) -> PyResult<String> {
    let s = seekplan_core::schema::schema(name).map_err(err)?;
    serde_json::to_string_pretty(&s)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

/// (name, description) of every config with a schema.
#[pyfunction]
fn schema_names() -> Vec<(&'static str, &'static str)> {
    seekplan_core::schema::SCHEMAS
        .iter()
        .map(|s| (s.name, s.description))
        .collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(schema_names, m)?)
}
