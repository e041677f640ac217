//! Bindings of the mount replay: the config as JSON, the trace as numpy
//! columns in; metrics as JSON, the untimed loads as an integer out.

use crate::{err, parse, parse_config};
use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::mounts::{
    check_untimed, replay, untimed_loads, EvictionPolicy, MountConfig, MountTrace,
};

/// The config with every default filled in, after the core's checks, as JSON.
#[pyfunction]
fn mounts_config(config_json: &str) -> PyResult<String> {
    let cfg: MountConfig = parse_config(config_json, "mounts")?;
    cfg.validate().map_err(err)?;
    serde_json::to_string(&cfg).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn trace(
    time_s: &PyReadonlyArray1<'_, f64>,
    cartridge: &PyReadonlyArray1<'_, u32>,
    busy_s: &PyReadonlyArray1<'_, f64>,
    cartridges: usize,
) -> MountTrace {
    MountTrace {
        time_s: time_s.as_array().to_vec(),
        cartridge: cartridge.as_array().to_vec(),
        busy_s: busy_s.as_array().to_vec(),
        cartridges,
    }
}

/// Replays a trace (parallel numpy columns: arrival seconds, cartridge
/// number below `cartridges`, busy seconds) under `config_json`; the
/// metrics as JSON.
#[pyfunction]
fn mounts_replay(
    py: Python<'_>,
    config_json: &str,
    time_s: PyReadonlyArray1<'_, f64>,
    cartridge: PyReadonlyArray1<'_, u32>,
    busy_s: PyReadonlyArray1<'_, f64>,
    cartridges: usize,
) -> PyResult<String> {
    let cfg: MountConfig = parse(config_json, "")?;
    let trace = trace(&time_s, &cartridge, &busy_s, cartridges);
    let metrics = py.allow_threads(|| replay(&cfg, &trace)).map_err(err)?;
    serde_json::to_string(&metrics).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Loads of eviction policy `policy` in the untimed model (drives as cache
/// slots, requests in order); `belady` gives the floor.
#[pyfunction]
fn mounts_untimed_loads(
    py: Python<'_>,
    cartridge: PyReadonlyArray1<'_, u32>,
    cartridges: usize,
    drives: usize,
    policy: &str,
    seed: u64,
) -> PyResult<u64> {
    let policy: EvictionPolicy = parse(
        &serde_json::to_string(policy).unwrap_or_default(),
        "eviction",
    )?;
    let carts = cartridge.as_array().to_vec();
    check_untimed(&carts, cartridges, drives).map_err(err)?;
    Ok(py.allow_threads(|| untimed_loads(&carts, cartridges, drives, policy, seed)))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mounts_config, m)?)?;
    m.add_function(wrap_pyfunction!(mounts_replay, m)?)?;
    m.add_function(wrap_pyfunction!(mounts_untimed_loads, m)?)
}
