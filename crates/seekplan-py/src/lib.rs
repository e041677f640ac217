//! PyO3 bindings: convert Python values, call one core function, convert back.
//! No logic lives here.

mod archive;
mod catalog;
mod drive;
mod lto;
mod media;
mod recall;
mod schema;

use drive::Drive;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use seekplan_core::model::{Block, CostMatrix, Extent};
use seekplan_core::order::{
    order_matrix_with, order_tape_with, positioning_matrix, Algorithm, Options, DEFAULT_SEED,
};
use seekplan_core::{Error, Schedule};

/// A core error as a Python ValueError (the Python side turns it into a
/// SeekplanError with the same message).
pub(crate) fn err(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn schedule_dict<'py>(py: Python<'py>, s: &Schedule) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("order", &s.order)?;
    d.set_item(
        "start_s",
        s.steps.iter().map(|x| x.start_s).collect::<Vec<_>>(),
    )?;
    d.set_item("end_s", s.steps.iter().map(|x| x.end_s).collect::<Vec<_>>())?;
    d.set_item("position_s", s.positioning_s())?;
    d.set_item("finish_s", s.finish_s)?;
    d.set_item("total_s", s.total_s)?;
    d.set_item("moves", s.moves.name())?;
    d.set_item("lower_bound_s", s.lower_bound_s)?;
    d.set_item("gap", s.gap)?;
    Ok(d)
}

/// Ordering options from keyword arguments (time limit in seconds).
fn options(seed: u64, time_limit: Option<f64>, bound: bool) -> PyResult<Options> {
    let time_limit = time_limit
        .map(|t| {
            std::time::Duration::try_from_secs_f64(t)
                .map_err(|_| PyValueError::new_err(format!("time_limit: {t} is not a duration")))
        })
        .transpose()?;
    Ok(Options {
        seed,
        iterations: None,
        time_limit,
        bound,
    })
}

/// Orders requests (parallel lists of first blocks and sizes in bytes) on `drive`.
#[pyfunction]
#[pyo3(signature = (drive, blocks, sizes, algo, start=0, end=None, seed=DEFAULT_SEED, time_limit=None, bound=true))]
#[allow(clippy::too_many_arguments)]
fn order<'py>(
    py: Python<'py>,
    drive: &Drive,
    blocks: Vec<u64>,
    sizes: Vec<u64>,
    algo: &str,
    start: u64,
    end: Option<u64>,
    seed: u64,
    time_limit: Option<f64>,
    bound: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let algo: Algorithm = algo.parse().map_err(err)?;
    let options = options(seed, time_limit, bound)?;
    let requests = extents(blocks, sizes)?;
    let schedule = py
        .allow_threads(|| {
            order_tape_with(
                drive.model.as_ref(),
                requests,
                Block(start),
                end.map(Block),
                algo,
                &options,
            )
        })
        .map_err(err)?;
    schedule_dict(py, &schedule)
}

/// Orders the nodes of a square cost matrix (rows of seconds).
#[pyfunction]
#[pyo3(signature = (rows, algo, start=0, end=None, seed=DEFAULT_SEED, time_limit=None, bound=true))]
#[allow(clippy::too_many_arguments)]
fn order_costs<'py>(
    py: Python<'py>,
    rows: Vec<Vec<f64>>,
    algo: &str,
    start: usize,
    end: Option<usize>,
    seed: u64,
    time_limit: Option<f64>,
    bound: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let algo: Algorithm = algo.parse().map_err(err)?;
    let options = options(seed, time_limit, bound)?;
    let matrix = CostMatrix::from_rows(rows).map_err(err)?;
    let (schedule, nodes) = py
        .allow_threads(|| order_matrix_with(&matrix, start, end, algo, &options))
        .map_err(err)?;
    let d = schedule_dict(py, &schedule)?;
    d.set_item("nodes", nodes)?;
    Ok(d)
}

/// Positioning costs between requests over n + 1 nodes (node n: start/end).
#[pyfunction]
#[pyo3(signature = (drive, blocks, sizes, start=0, end=None))]
fn locate_matrix(
    drive: &Drive,
    blocks: Vec<u64>,
    sizes: Vec<u64>,
    start: u64,
    end: Option<u64>,
) -> PyResult<Vec<Vec<f64>>> {
    let requests = extents(blocks, sizes)?;
    positioning_matrix(drive.model.as_ref(), requests, Block(start), end.map(Block)).map_err(err)
}

fn extents(blocks: Vec<u64>, sizes: Vec<u64>) -> PyResult<Vec<Extent>> {
    if blocks.len() != sizes.len() {
        return Err(PyValueError::new_err("blocks and sizes differ in length"));
    }
    Ok(blocks
        .into_iter()
        .zip(sizes)
        .map(|(b, s)| Extent {
            start: Block(b),
            bytes: s,
        })
        .collect())
}

/// Names of every ordering algorithm.
#[pyfunction]
fn algorithms() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|a| a.name()).collect()
}

/// The compiled core of seekplan.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Drive>()?;
    // One line per area: each area's bindings live in their own file.
    archive::register(m)?;
    catalog::register(m)?;
    lto::register(m)?;
    media::register(m)?;
    recall::register(m)?;
    schema::register(m)?;
    m.add_function(wrap_pyfunction!(order, m)?)?;
    m.add_function(wrap_pyfunction!(order_costs, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(locate_matrix, m)?)?;
    Ok(())
}
