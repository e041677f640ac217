//! PyO3 bindings: convert Python values, call one core function, convert back.
//! No logic lives here.

mod archive;
mod catalog;
mod drive;
mod lto;
mod media;
mod mounts;
mod recall;
mod schema;
mod tape_rest;

use drive::Drive;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use seekplan_core::model::{Block, CostMatrix, CsvMatrixReader, Extent};
use seekplan_core::order::{
    order_matrix_with, order_tape_with, positioning_matrix, Algorithm, Options, Progress, Snapshot,
    DEFAULT_SEED, MAX_GAP, MAX_ITERATIONS, MAX_TIME_LIMIT_S,
};
use seekplan_core::{Error, Schedule};
use std::borrow::Cow;
use std::sync::{Arc, Mutex};

/// A value from JSON; an error names the field's path under `prefix`. The
/// position serde_json appends is in the JSON Python made, not in the user's
/// YAML, so it is dropped.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(json: &str, prefix: &str) -> PyResult<T> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let mut path = e.path().to_string();
        let message = e.into_inner().to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(m, _)| m);
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
            if let Some(field) = field_of(&value, &path, message) {
                path = field;
            }
        }
        PyValueError::new_err(format!("{prefix}{path}: {message}"))
    })
}

/// The field under `path` holding the value serde's `message` quotes, when
/// serde could name only the section around it: an internally tagged enum
/// (`strategy: {name: by-tapes, tapes: -1}`) is read whole before its
/// variant is known, so the path stops at `strategy`. Found only when
/// exactly one value under the section is the one quoted.
fn field_of(root: &serde_json::Value, path: &str, message: &str) -> Option<String> {
    let quoted = quoted_value(message)?;
    let mut node = root;
    if path != "." {
        for part in path.split('.') {
            let mut pieces = part.split('[');
            let key = pieces.next()?;
            if !key.is_empty() {
                node = node.get(key)?;
            }
            for index in pieces {
                node = node.get(index.strip_suffix(']')?.parse::<usize>().ok()?)?;
            }
        }
    }
    let mut found = Vec::new();
    leaves_equal(node, &quoted, path.to_string(), &mut found);
    match found.as_slice() {
        [only] if only != path => Some(only.clone()),
        _ => None,
    }
}

/// The value in a serde message such as ``invalid value: integer `-1`,
/// expected usize`` or `invalid type: string "x", expected f64`.
fn quoted_value(message: &str) -> Option<serde_json::Value> {
    let rest = message
        .strip_prefix("invalid value: ")
        .or_else(|| message.strip_prefix("invalid type: "))?;
    if let Some(s) = rest.strip_prefix("string \"") {
        return Some(serde_json::Value::String(s.split_once('"')?.0.to_string()));
    }
    let (kind, tail) = rest.split_once(" `")?;
    let text = tail.split_once('`')?.0;
    match kind {
        "integer" => text
            .parse::<i64>()
            .map(Into::into)
            .ok()
            .or_else(|| text.parse::<u64>().map(Into::into).ok()),
        "floating point" => text.parse::<f64>().ok().map(Into::into),
        "boolean" => text.parse::<bool>().ok().map(Into::into),
        _ => None,
    }
}

fn leaves_equal(
    node: &serde_json::Value,
    want: &serde_json::Value,
    at: String,
    found: &mut Vec<String>,
) {
    let join = |key: &str| {
        if at == "." {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    match node {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                leaves_equal(v, want, join(k), found);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                leaves_equal(v, want, format!("{at}[{i}]"), found);
            }
        }
        leaf => {
            let same = match (leaf.as_f64(), want.as_f64()) {
                (Some(a), Some(b)) => a == b,
                _ => leaf == want,
            };
            if same {
                found.push(at);
            }
        }
    }
}

/// A user-facing config (`seekplan schema NAME`) from JSON: a list where its
/// schema wants a mapping is refused first (serde would read it by field
/// order), then errors are [`parse`]'s. JSON serde_json cannot read (a NaN
/// Python wrote) is left to `parse`, which names the field.
pub(crate) fn parse_config<T: serde::de::DeserializeOwned>(json: &str, name: &str) -> PyResult<T> {
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
        seekplan_core::schema::check_lists(name, &value).map_err(err)?;
    }
    parse(json, "")
}

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
    if let Some(search) = &s.search {
        d.set_item("stopped_because", search.stopped_because.name())?;
        d.set_item("time_to_best_s", search.time_to_best_s)?;
        let phases = PyDict::new(py);
        for (name, cpu) in &search.phases {
            phases.set_item(name, cpu)?;
        }
        d.set_item("phases_cpu_s", phases)?;
    }
    Ok(d)
}

/// Where a Python progress callback's exception waits until the core
/// returns, to be raised then (a Ctrl-C in the callback stops the search).
type Raised = Arc<Mutex<Option<PyErr>>>;

/// Ordering options from keyword arguments (time limit in seconds; the
/// progress callback hears `(phase, best_total_s, bound_s, elapsed_s)`), and
/// where an exception of that callback is kept.
fn options(
    seed: u64,
    iterations: Option<usize>,
    time_limit: Option<f64>,
    bound: bool,
    gap: f64,
    progress: Option<PyObject>,
) -> PyResult<(Options, Raised)> {
    let time_limit = time_limit
        .map(|t| {
            std::time::Duration::try_from_secs_f64(t).map_err(|_| {
                PyValueError::new_err(format!("time_limit: {t:e} seconds is not a duration"))
            })
        })
        .transpose()?;
    let raised: Raised = Arc::default();
    let sink = Arc::clone(&raised);
    // Always a callback, with or without the caller's: the core calls it
    // now and then from its long steps, and a Ctrl-C pending in Python is
    // heard there (without it a 10,000-request order kept Ctrl-C waiting
    // 6.5 s).
    let progress = Progress(Arc::new(move |snap: Snapshot| {
        Python::with_gil(|py| {
            let args = (snap.phase, snap.best_total_s, snap.bound_s, snap.elapsed_s);
            let heard = py.check_signals().and_then(|()| match &progress {
                Some(callback) => callback.call1(py, args).map(drop),
                None => Ok(()),
            });
            match heard {
                Ok(()) => true,
                Err(e) => {
                    *sink.lock().expect("not poisoned") = Some(e);
                    false
                }
            }
        })
    }) as Arc<dyn Fn(Snapshot) -> bool + Send + Sync>);
    let options = Options {
        seed,
        iterations,
        time_limit,
        bound,
        gap,
        progress: Some(progress),
    };
    Ok((options, raised))
}

/// The callback's exception, if it raised one, else `result`.
fn unless_raised<T>(raised: &Raised, result: PyResult<T>) -> PyResult<T> {
    match raised.lock().expect("not poisoned").take() {
        Some(e) => Err(e),
        None => result,
    }
}

/// Orders requests (parallel lists of first blocks and sizes in bytes) on `drive`.
#[pyfunction]
#[pyo3(signature = (drive, blocks, sizes, algo, start=0, end=None, seed=DEFAULT_SEED, iterations=None, time_limit=None, bound=true, gap=0.0, progress=None))]
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
    iterations: Option<usize>,
    time_limit: Option<f64>,
    bound: bool,
    gap: f64,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyDict>> {
    let algo: Algorithm = algo.parse().map_err(err)?;
    let (options, raised) = options(seed, iterations, time_limit, bound, gap, progress)?;
    let requests = extents(blocks, sizes)?;
    let schedule = py.allow_threads(|| {
        order_tape_with(
            drive.model.as_ref(),
            requests,
            Block(start),
            end.map(Block),
            algo,
            &options,
        )
    });
    let schedule = unless_raised(&raised, schedule.map_err(err))?;
    schedule_dict(py, &schedule)
}

/// A cost matrix as Python hands it over: a 2-D numpy array of float64 or
/// float32 (lent without a copy) or a list of rows.
enum Costs<'py> {
    F64(PyReadonlyArray2<'py, f64>),
    F32(PyReadonlyArray2<'py, f32>),
    Rows(Vec<Vec<f64>>),
}

impl<'py> FromPyObject<'py> for Costs<'py> {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        // Lists first: asking whether a list is an array imports numpy,
        // which costs more than ordering a small matrix.
        if ob.is_instance_of::<PyList>() {
            return Ok(Costs::Rows(ob.extract()?));
        }
        if let Ok(a) = ob.extract() {
            return Ok(Costs::F64(a));
        }
        if let Ok(a) = ob.extract() {
            return Ok(Costs::F32(a));
        }
        Ok(Costs::Rows(ob.extract()?))
    }
}

/// The square side of a 2-D array, or an error naming its shape.
fn square_side(shape: &[usize]) -> PyResult<usize> {
    match shape {
        [r, c] if r == c => Ok(*r),
        _ => Err(PyValueError::new_err(format!(
            "invalid matrix: shape {shape:?} is not square"
        ))),
    }
}

impl Costs<'_> {
    /// The core's matrix, borrowing the array's memory where there is one
    /// (rows are moved into it, not copied).
    fn matrix(&mut self) -> PyResult<CostMatrix<'_>> {
        let contiguous = || PyValueError::new_err("invalid matrix: array is not C-contiguous");
        match self {
            Costs::F64(a) => {
                let n = square_side(a.shape())?;
                if !a.is_c_contiguous() {
                    return Err(contiguous());
                }
                let data = a.as_slice().map_err(|_| contiguous())?;
                CostMatrix::from_flat(n, Cow::Borrowed(data)).map_err(err)
            }
            Costs::F32(a) => {
                let n = square_side(a.shape())?;
                if !a.is_c_contiguous() {
                    return Err(contiguous());
                }
                let data = a.as_slice().map_err(|_| contiguous())?;
                CostMatrix::from_flat_f32(n, Cow::Borrowed(data)).map_err(err)
            }
            Costs::Rows(rows) => CostMatrix::from_rows(std::mem::take(rows)).map_err(err),
        }
    }
}

/// Parses a CSV cost matrix fed in chunks (the file is never whole in memory).
#[pyclass]
struct MatrixReader(Option<CsvMatrixReader>);

#[pymethods]
impl MatrixReader {
    #[new]
    fn new() -> Self {
        MatrixReader(Some(CsvMatrixReader::default()))
    }

    /// Parses the complete lines of `chunk`, keeping an unfinished last line.
    fn feed(&mut self, chunk: &[u8]) -> PyResult<()> {
        self.reader()?.feed(chunk).map_err(err)
    }

    /// The matrix as lists of rows, once every chunk is fed: for small
    /// matrices, whose order should not wait for numpy's import.
    fn finish_rows(&mut self) -> PyResult<Vec<Vec<f64>>> {
        self.reader()?;
        let matrix = self.0.take().expect("checked").finish().map_err(err)?;
        let n = matrix.len();
        let flat = matrix.into_flat();
        Ok(flat.chunks(n.max(1)).map(<[f64]>::to_vec).collect())
    }

    /// The matrix as a float64 array (n x n), once every chunk is fed.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.reader()?;
        let matrix = self.0.take().expect("checked").finish().map_err(err)?;
        let n = matrix.len();
        PyArray1::from_vec(py, matrix.into_flat()).reshape([n, n])
    }
}

impl MatrixReader {
    fn reader(&mut self) -> PyResult<&mut CsvMatrixReader> {
        self.0
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("this matrix reader has already finished"))
    }
}

/// Orders the nodes of a square cost matrix of seconds (see [`Costs`]).
#[pyfunction]
#[pyo3(signature = (costs, algo, start=0, end=None, seed=DEFAULT_SEED, iterations=None, time_limit=None, bound=true, gap=0.0, progress=None))]
#[allow(clippy::too_many_arguments)]
fn order_costs<'py>(
    py: Python<'py>,
    mut costs: Costs<'py>,
    algo: &str,
    start: usize,
    end: Option<usize>,
    seed: u64,
    iterations: Option<usize>,
    time_limit: Option<f64>,
    bound: bool,
    gap: f64,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyDict>> {
    let algo: Algorithm = algo.parse().map_err(err)?;
    let (options, raised) = options(seed, iterations, time_limit, bound, gap, progress)?;
    let matrix = costs.matrix()?;
    let found = py.allow_threads(|| order_matrix_with(&matrix, start, end, algo, &options));
    let (schedule, nodes) = unless_raised(&raised, found.map_err(err))?;
    let d = schedule_dict(py, &schedule)?;
    d.set_item("nodes", nodes)?;
    d.set_item("borrowed", matrix.is_borrowed())?;
    Ok(d)
}

/// Positioning costs between requests over n + 1 nodes (node n: start/end),
/// as a float64 array: a list of lists of 10,000² costs would be 3 GB of
/// Python floats.
#[pyfunction]
#[pyo3(signature = (drive, blocks, sizes, start=0, end=None))]
fn locate_matrix<'py>(
    py: Python<'py>,
    drive: &Drive,
    blocks: Vec<u64>,
    sizes: Vec<u64>,
    start: u64,
    end: Option<u64>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let requests = extents(blocks, sizes)?;
    let rows = positioning_matrix(drive.model.as_ref(), requests, Block(start), end.map(Block))
        .map_err(err)?;
    let m = rows.len();
    let flat: Vec<f64> = rows.into_iter().flatten().collect();
    PyArray1::from_vec(py, flat).reshape([m, m])
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
    mounts::register(m)?;
    recall::register(m)?;
    schema::register(m)?;
    tape_rest::register(m)?;
    m.add_function(wrap_pyfunction!(order, m)?)?;
    m.add_function(wrap_pyfunction!(order_costs, m)?)?;
    m.add_class::<MatrixReader>()?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(locate_matrix, m)?)?;
    // The ordering options' limits, so Python's messages name the same ones.
    m.add("MAX_ITERATIONS", MAX_ITERATIONS)?;
    m.add("MAX_TIME_LIMIT_S", MAX_TIME_LIMIT_S)?;
    m.add("MAX_GAP", MAX_GAP)?;
    // Whether this build checks debug assertions (`./dev test`'s ci
    // profile): benchmarks refuse such a build (seekplan.build).
    m.add("DEBUG_ASSERTIONS", cfg!(debug_assertions))?;
    Ok(())
}
