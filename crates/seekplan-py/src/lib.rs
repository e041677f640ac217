//! PyO3 bindings: convert Python values, call one core function, convert back.
//! No logic lives here.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use seekplan_core::model::{
    Block, CostMatrix, CostModel, Extent, SerpentineModel, SerpentineSpec, TapeLayout,
};
use seekplan_core::order::{order_matrix, order_tape, Algorithm};
use seekplan_core::{Error, Schedule};

fn err(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A drive with a tape mounted: the cost model schedulers consult.
#[pyclass(frozen)]
struct Drive {
    model: Box<dyn CostModel>,
}

#[pymethods]
impl Drive {
    /// A serpentine drive from its spec (a JSON object of SerpentineSpec
    /// fields) and optionally a tape's track start addresses and capacity.
    #[staticmethod]
    #[pyo3(signature = (spec_json, track_starts=None, capacity=None))]
    fn serpentine(
        spec_json: &str,
        track_starts: Option<Vec<u64>>,
        capacity: Option<u64>,
    ) -> PyResult<Self> {
        let spec: SerpentineSpec = serde_json::from_str(spec_json)
            .map_err(|e| PyValueError::new_err(format!("invalid drive spec: {e}")))?;
        let model = match track_starts {
            Some(starts) => {
                let capacity = capacity.unwrap_or_else(|| spec.capacity_blocks());
                SerpentineModel::new(
                    spec,
                    TapeLayout {
                        track_starts: starts,
                        capacity,
                    },
                )
            }
            None => SerpentineModel::nominal(spec),
        }
        .map_err(err)?;
        Ok(Drive {
            model: Box::new(model),
        })
    }

    /// Blocks on the mounted tape.
    #[getter]
    fn capacity(&self) -> u64 {
        self.model.capacity()
    }

    /// Bytes per logical block.
    #[getter]
    fn block_bytes(&self) -> u64 {
        self.model.block_bytes()
    }

    /// Seconds to locate from block `src` to block `dst`.
    fn locate(&self, src: u64, dst: u64) -> f64 {
        self.model.locate(Block(src), Block(dst))
    }

    /// Seconds to read `size` bytes starting at `block`.
    fn read(&self, block: u64, size: u64) -> f64 {
        self.model
            .read(Extent {
                start: Block(block),
                bytes: size,
            })
            .seconds
    }

    /// (track, forward?, longitudinal position) of a block.
    fn physical(&self, block: u64) -> Option<(u32, bool, f64)> {
        self.model
            .physical(Block(block))
            .map(|p| (p.track, p.direction.sign() > 0.0, p.lpos))
    }
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
    Ok(d)
}

/// Orders requests (parallel lists of first blocks and sizes in bytes) on `drive`.
#[pyfunction]
#[pyo3(signature = (drive, blocks, sizes, algo, start=0, end=None))]
fn order<'py>(
    py: Python<'py>,
    drive: &Drive,
    blocks: Vec<u64>,
    sizes: Vec<u64>,
    algo: &str,
    start: u64,
    end: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    if blocks.len() != sizes.len() {
        return Err(PyValueError::new_err("blocks and sizes differ in length"));
    }
    let algo: Algorithm = algo.parse().map_err(err)?;
    let requests = blocks
        .into_iter()
        .zip(sizes)
        .map(|(b, s)| Extent {
            start: Block(b),
            bytes: s,
        })
        .collect();
    let schedule = py
        .allow_threads(|| {
            order_tape(
                drive.model.as_ref(),
                requests,
                Block(start),
                end.map(Block),
                algo,
            )
        })
        .map_err(err)?;
    schedule_dict(py, &schedule)
}

/// Orders the nodes of a square cost matrix (rows of seconds).
#[pyfunction]
#[pyo3(signature = (rows, algo, start=0, end=None))]
fn order_costs<'py>(
    py: Python<'py>,
    rows: Vec<Vec<f64>>,
    algo: &str,
    start: usize,
    end: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let algo: Algorithm = algo.parse().map_err(err)?;
    let matrix = CostMatrix::from_rows(rows).map_err(err)?;
    let (schedule, nodes) = py
        .allow_threads(|| order_matrix(&matrix, start, end, algo))
        .map_err(err)?;
    let d = schedule_dict(py, &schedule)?;
    d.set_item("nodes", nodes)?;
    Ok(d)
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
    m.add_function(wrap_pyfunction!(order, m)?)?;
    m.add_function(wrap_pyfunction!(order_costs, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    Ok(())
}
