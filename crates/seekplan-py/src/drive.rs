//! The Drive class: a cost model behind a Python handle.

use crate::err;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use seekplan_core::model::{Block, CostModel, Extent, ModelSpec, Tape};

/// A drive with a tape mounted: the cost model schedulers consult.
#[pyclass(frozen)]
pub(crate) struct Drive {
    pub(crate) model: Box<dyn CostModel>,
}

impl Drive {
    /// Wraps any core cost model; other areas' constructors use this.
    pub(crate) fn new(model: impl CostModel + 'static) -> Self {
        Drive {
            model: Box::new(model),
        }
    }
}

#[pymethods]
impl Drive {
    /// A drive of any catalogued model from its spec (a JSON object
    /// `{"model": KIND, "params": {...}}`, see `model::ModelSpec`), for a
    /// tape's layout (serpentine track starts, LTO end-of-wrap list;
    /// nominal without) and capacity; `read_through=False` gives the drive
    /// as a seek measurement sees it.
    #[staticmethod]
    #[pyo3(signature = (spec_json, layout=None, capacity=None, read_through=true))]
    fn catalog(
        spec_json: &str,
        layout: Option<Vec<u64>>,
        capacity: Option<u64>,
        read_through: bool,
    ) -> PyResult<Self> {
        let spec: ModelSpec = serde_json::from_str(spec_json)
            .map_err(|e| PyValueError::new_err(format!("invalid drive spec: {e}")))?;
        let tape = Tape {
            layout,
            capacity,
            read_through,
        };
        Ok(Drive {
            model: spec.build(tape).map_err(err)?,
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
