//! Bindings of the Johnson & Miller drive models (the helical and
//! four-region drives themselves are built by `Drive.catalog`): short-seek
//! crossover, mount/unmount, robot, compression and
//! read-delay models. Each function converts JSON specs and calls one core
//! function.

use crate::drive::Drive;
use crate::err;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::library::mount::MountSpec;
use seekplan_core::library::robot::RobotSpec;
use seekplan_core::model::compression::CompressionSpec;
use seekplan_core::model::read_delay::ReadDelaySpec;
use seekplan_core::model::{crossover_blocks, Block, TrackGrid};
use serde::de::DeserializeOwned;

fn spec<T: DeserializeOwned>(json: &str, what: &str) -> PyResult<T> {
    serde_json::from_str(json).map_err(|e| PyValueError::new_err(format!("invalid {what}: {e}")))
}

/// J&M §5.4.3 from `block` on `drive`, trying every forward distance up to
/// `within` blocks: (first distance where seeking beats reading through,
/// last distance it keeps winning to), or None when reading always wins.
#[pyfunction]
fn crossover(drive: &Drive, block: u64, within: u64) -> Option<(u64, u64)> {
    crossover_blocks(drive.model.as_ref(), Block(block), within).map(|c| (c.blocks, c.holds_to))
}

/// Regions (1..=4) and distances (track lengths) of Table 3 for seek pairs.
#[pyfunction]
fn four_region_features(
    tracks: u32,
    capacity: u64,
    froms: Vec<u64>,
    tos: Vec<u64>,
) -> PyResult<(Vec<u8>, Vec<f64>)> {
    if froms.len() != tos.len() {
        return Err(PyValueError::new_err("froms and tos differ in length"));
    }
    let grid = TrackGrid::new(tracks, capacity).map_err(err)?;
    Ok(froms
        .into_iter()
        .zip(tos)
        .map(|(f, t)| grid.region(Block(f), Block(t)))
        .unzip())
}

/// (seconds, rest position) of an unmount at `lpos` with end-of-data at `eod`.
#[pyfunction]
fn unmount_s(spec_json: &str, lpos: f64, eod: f64) -> PyResult<(f64, f64)> {
    Ok(spec::<MountSpec>(spec_json, "mount spec")?.unmount_s(lpos, eod))
}

/// `n` seeded (fetch, return) seconds of a robot.
#[pyfunction]
fn robot_draws(spec_json: &str, n: usize, seed: u64) -> PyResult<Vec<(f64, f64)>> {
    Ok(spec::<RobotSpec>(spec_json, "robot spec")?.draws(n, seed))
}

/// (drive ratio, read bytes/s, write bytes/s) for data of gzip ratio `gzip`.
#[pyfunction]
fn compression_at(spec_json: &str, gzip: f64) -> PyResult<(f64, f64, f64)> {
    let c: CompressionSpec = spec(spec_json, "compression spec")?;
    Ok((
        c.drive_ratio(gzip),
        c.read.rate_bps(gzip),
        c.write.rate_bps(gzip),
    ))
}

/// Throughput (bytes/s) of a read-then-wait loop under a read-delay model.
#[pyfunction]
fn read_delay_throughput(
    spec_json: &str,
    bytes: u64,
    rate_bps: f64,
    delay_s: f64,
) -> PyResult<f64> {
    Ok(spec::<ReadDelaySpec>(spec_json, "read-delay spec")?
        .throughput_bps(bytes, rate_bps, delay_s))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(crossover, m)?)?;
    m.add_function(wrap_pyfunction!(four_region_features, m)?)?;
    m.add_function(wrap_pyfunction!(unmount_s, m)?)?;
    m.add_function(wrap_pyfunction!(robot_draws, m)?)?;
    m.add_function(wrap_pyfunction!(compression_at, m)?)?;
    m.add_function(wrap_pyfunction!(read_delay_throughput, m)?)?;
    Ok(())
}
