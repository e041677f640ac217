//! Bindings of the recall simulator: the user's config as JSON and the
//! campaign as a core handle built once from numpy columns in, the outcome as
//! Python dicts and lists out.

use crate::{err, parse, parse_config};
use numpy::{Element, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::library::{Campaign, CampaignColumns, ReadModel, Request, TapeSpec};
use seekplan_core::recall::{run, LiveRequester, RecallConfig, Strategy};
use std::sync::Mutex;

/// The config with every default filled in, after the core's checks, as JSON.
#[pyfunction]
fn recall_config(config: &str) -> PyResult<String> {
    let cfg: RecallConfig = parse_config(config, "recall")?;
    cfg.to_spec().map_err(err)?;
    serde_json::to_string(&cfg).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The library hardware (drives, drive timing, robot) of a recall config,
/// checked, as JSON: the figures the recall simulator runs on.
#[pyfunction]
fn recall_hardware(config: &str) -> PyResult<String> {
    let cfg: RecallConfig = parse(config, "")?;
    let spec = cfg.to_spec().map_err(err)?;
    serde_json::to_string(&spec.library.hardware).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The share of the drive's rate a session reaches when it recalls
/// `fraction` of the tape, by the read model given as JSON (the recall
/// config's `library.read_model`, checked): `ReadModel::efficiency`.
#[pyfunction]
fn read_efficiency(read_model: &str, fraction: f64) -> PyResult<f64> {
    let model: ReadModel = parse(read_model, "read_model.")?;
    model.validate().map_err(err)?;
    Ok(model.efficiency(fraction))
}

/// The memory of a numpy column (Python passes contiguous arrays).
fn column<'a, T: Element>(a: &'a PyReadonlyArray1<'_, T>, name: &str) -> PyResult<&'a [T]> {
    a.as_slice()
        .map_err(|e| PyValueError::new_err(format!("campaign column {name}: {e}")))
}

/// A recall campaign held by the core: built once from numpy columns and
/// shared by every run over it, so a sweep does not copy 495,000 file
/// records per run.
#[pyclass(frozen)]
pub(crate) struct RecallCampaign {
    inner: Campaign,
}

#[pymethods]
impl RecallCampaign {
    /// The campaign from parallel contiguous numpy columns: one entry per
    /// file in the first six (dtypes uint32, uint32, uint64, uint64, float64,
    /// bool), one per tape in the last two (uint64, uint64).
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        dataset: PyReadonlyArray1<'_, u32>,
        tape: PyReadonlyArray1<'_, u32>,
        block: PyReadonlyArray1<'_, u64>,
        size: PyReadonlyArray1<'_, u64>,
        arrival_s: PyReadonlyArray1<'_, f64>,
        tapeinfo: PyReadonlyArray1<'_, bool>,
        capacity: PyReadonlyArray1<'_, u64>,
        used: PyReadonlyArray1<'_, u64>,
    ) -> PyResult<Self> {
        let columns = CampaignColumns {
            dataset: column(&dataset, "dataset")?,
            tape: column(&tape, "tape")?,
            block: column(&block, "block")?,
            size: column(&size, "size")?,
            arrival_s: column(&arrival_s, "arrival_s")?,
            tapeinfo: column(&tapeinfo, "tapeinfo")?,
            capacity: column(&capacity, "capacity")?,
            used: column(&used, "used")?,
        };
        let inner = Campaign::from_columns(columns).map_err(err)?;
        Ok(RecallCampaign { inner })
    }

    /// Number of requested files.
    fn __len__(&self) -> usize {
        self.inner.files().len()
    }
}

/// Runs one recall campaign; `config` is a RecallConfig as JSON. Returns the
/// outcome as Python objects (dicts, lists, numbers and None), built from
/// the outcome directly: writing it as JSON and parsing that in Python was
/// 0.2 ms a run, 2-4 % of a Table-1 run.
#[pyfunction]
fn simulate_recall<'py>(
    py: Python<'py>,
    config: &str,
    campaign: &RecallCampaign,
) -> PyResult<Bound<'py, PyAny>> {
    let cfg: RecallConfig = parse(config, "")?;
    let outcome = py
        .allow_threads(|| run(&cfg, &campaign.inner))
        .map_err(err)?;
    pythonize::pythonize(py, &outcome).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A live requester for a staging service: one of the recall simulator's
/// strategies (the same code the simulations run) holding requests as they
/// arrive and releasing them in the order the strategy chooses.
#[pyclass]
pub(crate) struct Requester {
    /// Behind a lock because Python objects may be shared between threads.
    inner: Mutex<LiveRequester>,
}

#[pymethods]
impl Requester {
    /// A requester running `strategy` (a JSON object as under `strategy:` in
    /// a recall config) for tapes of the given capacities and bytes used.
    #[new]
    #[pyo3(signature = (strategy, capacity, used, seed=0))]
    fn new(strategy: &str, capacity: Vec<u64>, used: Vec<u64>, seed: u64) -> PyResult<Self> {
        let strategy: Strategy = parse(strategy, "strategy.")?;
        if capacity.len() != used.len() {
            return Err(PyValueError::new_err("capacity and used differ in length"));
        }
        let tapes: Vec<TapeSpec> = capacity
            .iter()
            .zip(&used)
            .map(|(&capacity, &used)| TapeSpec { capacity, used })
            .collect();
        let inner = LiveRequester::new(&strategy, &tapes, seed).map_err(err)?;
        Ok(Requester {
            inner: Mutex::new(inner),
        })
    }

    /// A request for `file` (the caller's id) at `block` of `tape` (an index
    /// into the tapes), `size` bytes, arrives at `now` seconds (never
    /// earlier than a previous call's `now`).
    #[pyo3(signature = (file, tape, block, size, now, tape_known=true))]
    #[allow(clippy::too_many_arguments)]
    fn arrive(
        &self,
        file: u32,
        tape: u32,
        block: u64,
        size: u64,
        now: f64,
        tape_known: bool,
    ) -> PyResult<()> {
        let request = Request {
            file,
            tape,
            block,
            size,
        };
        self.lock().arrive(request, tape_known, now).map_err(err)
    }

    /// The next request to pass on at `now` as (file, tape, block, size), or
    /// None if the strategy holds everything back for now.
    fn take(&self, now: f64) -> PyResult<Option<(u32, u32, u64, u64)>> {
        let next = self.lock().take(now).map_err(err)?;
        Ok(next.map(|r| (r.file, r.tape, r.block, r.size)))
    }

    /// Seconds after which the strategy wants to be asked again although
    /// nothing arrived (time-based rules), or None.
    fn next_wake(&self) -> Option<f64> {
        self.lock().next_wake()
    }

    /// Passes on the requests of `tapes` tapes in parallel from now on
    /// (by-tapes only; ValueError otherwise or for 0). Lowering it
    /// interrupts no tape: the active ones are passed on to their end.
    fn set_parallel_tapes(&self, tapes: usize) -> PyResult<()> {
        self.lock().set_parallel_tapes(tapes).map_err(err)
    }

    /// The number of tapes by-tapes passes on in parallel; None for other
    /// strategies.
    fn parallel_tapes(&self) -> Option<usize> {
        self.lock().parallel_tapes()
    }
}

impl Requester {
    /// The requester. A poisoned lock means a core panic already surfaced as
    /// a Python exception; the requester is used as that call left it.
    fn lock(&self) -> std::sync::MutexGuard<'_, LiveRequester> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RecallCampaign>()?;
    m.add_class::<Requester>()?;
    m.add_function(wrap_pyfunction!(recall_config, m)?)?;
    m.add_function(wrap_pyfunction!(recall_hardware, m)?)?;
    m.add_function(wrap_pyfunction!(read_efficiency, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_recall, m)?)
}
