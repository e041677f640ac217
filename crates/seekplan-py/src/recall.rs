//! Bindings of the recall simulator: the user's config as JSON and the
//! campaign as a core handle built once from numpy columns in, the outcome as
//! JSON out.

use crate::err;
use numpy::{Element, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::library::{Campaign, CampaignColumns};
use seekplan_core::recall::{run, RecallConfig};

/// A RecallConfig from JSON; a serde error names the field's path. The
/// position serde_json appends is in the JSON Python made, not in the user's
/// YAML, so it is dropped.
fn parse(config: &str) -> PyResult<RecallConfig> {
    let de = &mut serde_json::Deserializer::from_str(config);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(m, _)| m);
        PyValueError::new_err(format!("{path}: {message}"))
    })
}

/// The config with every default filled in, after the core's checks, as JSON.
#[pyfunction]
fn recall_config(config: &str) -> PyResult<String> {
    let cfg = parse(config)?;
    cfg.to_spec().map_err(err)?;
    serde_json::to_string(&cfg).map_err(|e| PyValueError::new_err(e.to_string()))
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
/// outcome as JSON.
#[pyfunction]
fn simulate_recall(py: Python<'_>, config: &str, campaign: &RecallCampaign) -> PyResult<String> {
    let cfg = parse(config)?;
    let outcome = py
        .allow_threads(|| run(&cfg, &campaign.inner))
        .map_err(err)?;
    serde_json::to_string(&outcome).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RecallCampaign>()?;
    m.add_function(wrap_pyfunction!(recall_config, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_recall, m)?)
}
