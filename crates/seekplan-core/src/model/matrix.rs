//! An explicit cost matrix: measured locate times between nodes, the general
//! asymmetric problem with no drive model behind it.
//!
//! The entries are stored row-major as `f64` or `f32`, owned or borrowed: a
//! caller holding a large matrix (a memory-mapped `.npy` file, a numpy array)
//! lends it without a copy, and a CSV text is parsed straight into one flat
//! buffer (a 10,000-node matrix is 800 MB as `f64`, never a vector of rows).

use crate::{Error, Result};
use std::borrow::Cow;

/// The entries of a matrix, row-major.
#[derive(Clone, Debug, PartialEq)]
enum Entries<'a> {
    F64(Cow<'a, [f64]>),
    F32(Cow<'a, [f32]>),
}

/// A square matrix of non-negative costs; `get(i, j)` is the cost from i to j.
#[derive(Clone, Debug, PartialEq)]
pub struct CostMatrix<'a> {
    n: usize,
    entries: Entries<'a>,
}

impl CostMatrix<'static> {
    /// Builds a matrix from its rows; names the first bad row or entry.
    pub fn from_rows(rows: Vec<Vec<f64>>) -> Result<Self> {
        let n = rows.len();
        let mut data = Vec::with_capacity(n * n);
        for (i, row) in rows.into_iter().enumerate() {
            if row.len() != n {
                return Err(not_square(i, row.len(), n));
            }
            data.extend(row);
        }
        CostMatrix::from_flat(n, Cow::Owned(data))
    }

    /// Parses CSV text without a header (see [`CsvMatrixReader`]).
    pub fn parse_csv(text: &[u8]) -> Result<Self> {
        let mut reader = CsvMatrixReader::default();
        reader.feed(text)?;
        reader.finish()
    }
}

/// Most nodes of an explicit matrix: 50,000 nodes are 2.5·10⁹ entries (10 GB
/// as float32) and `best` over them takes many minutes; a larger batch is
/// ordered on a drive model, which builds no matrix. A sparse `.npy` file
/// declaring 100,000 × 100,000 ran without end before this limit.
pub const MAX_NODES: usize = 50_000;

/// Longest line of a CSV matrix: a row of three million entries of twenty
/// characters, beyond any matrix that fits in memory. Past it the input is
/// not a matrix (`/dev/zero` grew the unfinished line to 23 GB).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Parses a CSV cost matrix fed in chunks of any size, so a large file is
/// never held in memory beside the matrix: one row per line, comma-separated
/// seconds, no header. Blank lines are skipped and a UTF-8 byte-order mark at
/// the start is ignored; errors name the line and column (both from 1).
#[derive(Debug, Default)]
pub struct CsvMatrixReader {
    data: Vec<f64>,
    n: usize,
    rows: usize,
    lines: usize,
    /// The last, unfinished line of the chunks fed so far.
    partial: Vec<u8>,
}

impl CsvMatrixReader {
    /// Parses every complete line of `chunk` (after what earlier chunks left).
    pub fn feed(&mut self, chunk: &[u8]) -> Result<()> {
        let mut rest = chunk;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            if self.partial.is_empty() {
                self.line(&rest[..at])?;
            } else {
                let mut line = std::mem::take(&mut self.partial);
                line.extend_from_slice(&rest[..at]);
                self.line(&line)?;
            }
            rest = &rest[at + 1..];
        }
        self.partial.extend_from_slice(rest);
        if self.partial.len() > MAX_LINE_BYTES {
            return Err(Error::invalid(
                "matrix",
                format!(
                    "line {}: longer than {MAX_LINE_BYTES} bytes without a line break \
                     (not a CSV matrix?)",
                    self.lines + 1
                ),
            ));
        }
        Ok(())
    }

    /// The matrix, once every chunk has been fed.
    pub fn finish(mut self) -> Result<CostMatrix<'static>> {
        let last = std::mem::take(&mut self.partial);
        self.line(&last)?;
        if self.rows != self.n {
            return Err(Error::invalid(
                "matrix",
                format!("is not square: {} rows of {} entries", self.rows, self.n),
            ));
        }
        CostMatrix::from_flat(self.n, Cow::Owned(self.data))
    }

    fn line(&mut self, raw: &[u8]) -> Result<()> {
        self.lines += 1;
        let number = self.lines;
        let mut line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if number == 1 {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let before = self.data.len();
        for (col, cell) in line.split(|&b| b == b',').enumerate() {
            self.data.push(parse_cell(cell, number, col + 1)?);
        }
        let width = self.data.len() - before;
        if self.rows == 0 {
            check_nodes(width)?;
            self.n = width;
            let want = width.saturating_mul(width).saturating_sub(self.data.len());
            // A reservation the allocator refuses is skipped, and the rows
            // grow the vector as they come: a 2 MB first row of a million
            // entries asked for 8 TB, and `reserve` aborted the process.
            let _ = self.data.try_reserve(want);
        } else if width != self.n {
            return Err(Error::invalid(
                "matrix",
                format!(
                    "is not square: line {number} has {width} entries, expected {} (the first row's)",
                    self.n
                ),
            ));
        }
        self.rows += 1;
        if self.rows > self.n {
            return Err(Error::invalid(
                "matrix",
                format!(
                    "is not square: line {number} is row {} of {} columns",
                    self.rows, self.n
                ),
            ));
        }
        Ok(())
    }
}

impl<'a> CostMatrix<'a> {
    /// A matrix over `n * n` row-major `f64` entries, owned or borrowed;
    /// every entry is checked (finite, non-negative).
    pub fn from_flat(n: usize, data: Cow<'a, [f64]>) -> Result<Self> {
        check_shape(n, data.len())?;
        check_entries(n, data.iter().copied())?;
        Ok(CostMatrix {
            n,
            entries: Entries::F64(data),
        })
    }

    /// A matrix over `n * n` row-major `f32` entries, owned or borrowed;
    /// every entry is checked (finite, non-negative).
    pub fn from_flat_f32(n: usize, data: Cow<'a, [f32]>) -> Result<Self> {
        check_shape(n, data.len())?;
        check_entries(n, data.iter().map(|&v| f64::from(v)))?;
        Ok(CostMatrix {
            n,
            entries: Entries::F32(data),
        })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always false: a matrix has at least one node.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Cost from node `i` to node `j`.
    #[inline(always)]
    pub fn get(&self, i: usize, j: usize) -> f64 {
        let k = i * self.n + j;
        match &self.entries {
            Entries::F64(d) => d[k],
            Entries::F32(d) => f64::from(d[k]),
        }
    }

    /// Costs from node `i` to each node `to` yields, into `out` (one per
    /// node): one row slice, its storage type matched once, rather than a
    /// [`CostMatrix::get`] per entry.
    pub fn gather(&self, i: usize, to: impl IntoIterator<Item = usize>, out: &mut [f64]) {
        let row = i * self.n..(i + 1) * self.n;
        match &self.entries {
            Entries::F64(d) => {
                let r = &d[row];
                for (o, j) in out.iter_mut().zip(to) {
                    *o = r[j];
                }
            }
            Entries::F32(d) => {
                let r = &d[row];
                for (o, j) in out.iter_mut().zip(to) {
                    *o = f64::from(r[j]);
                }
            }
        }
    }

    /// Costs from node `i` to nodes `first`, `first + 1`, … into `out` (one
    /// per node): [`CostMatrix::gather`] for a run of consecutive nodes,
    /// copied as one slice.
    pub fn copy_run(&self, i: usize, first: usize, out: &mut [f64]) {
        let run = i * self.n + first..i * self.n + first + out.len();
        match &self.entries {
            Entries::F64(d) => out.copy_from_slice(&d[run]),
            Entries::F32(d) => {
                for (o, &x) in out.iter_mut().zip(&d[run]) {
                    *o = f64::from(x);
                }
            }
        }
    }

    /// The entries, row-major, as an owned `f64` vector (no copy when they
    /// already are one).
    pub fn into_flat(self) -> Vec<f64> {
        match self.entries {
            Entries::F64(d) => d.into_owned(),
            Entries::F32(d) => d.iter().map(|&v| f64::from(v)).collect(),
        }
    }

    /// Whether the entries are borrowed from the caller (no copy was made).
    pub fn is_borrowed(&self) -> bool {
        matches!(
            &self.entries,
            Entries::F64(Cow::Borrowed(_)) | Entries::F32(Cow::Borrowed(_))
        )
    }
}

fn not_square(row: usize, len: usize, n: usize) -> Error {
    Error::invalid(
        "matrix",
        format!("is not square: row {row} has {len} entries, expected {n}"),
    )
}

fn check_nodes(n: usize) -> Result<()> {
    if n > MAX_NODES {
        return Err(Error::invalid(
            "matrix",
            format!(
                "has {n} nodes, at most {MAX_NODES}: order a larger batch on a drive model (--drive)"
            ),
        ));
    }
    Ok(())
}

fn check_shape(n: usize, len: usize) -> Result<()> {
    if n == 0 {
        return Err(Error::invalid("matrix", "is empty"));
    }
    check_nodes(n)?;
    if n.checked_mul(n) != Some(len) {
        return Err(Error::invalid(
            "matrix",
            format!("has {len} entries, not {n} x {n}"),
        ));
    }
    Ok(())
}

/// Every entry finite and non-negative, and the sum of the row maxima finite:
/// it bounds every order's total, which must not overflow to infinity.
fn check_entries(n: usize, values: impl Iterator<Item = f64>) -> Result<()> {
    let mut row_max = 0.0f64;
    let mut bound = 0.0f64;
    for (k, v) in values.enumerate() {
        if !(v.is_finite() && v >= 0.0) {
            let (i, j) = (k / n, k % n);
            return Err(Error::invalid(
                "matrix",
                format!("entry [{i}][{j}] = {v} must be a finite, non-negative time"),
            ));
        }
        row_max = row_max.max(v);
        if k % n == n - 1 {
            bound += row_max;
            row_max = 0.0;
        }
    }
    if !bound.is_finite() {
        return Err(Error::invalid(
            "matrix",
            "costs too large: a total over them overflows to infinity; rescale them",
        ));
    }
    Ok(())
}

/// Characters of a bad cell quoted back in an error.
const QUOTED_CHARS: usize = 40;

fn parse_cell(cell: &[u8], line: usize, col: usize) -> Result<f64> {
    let text = std::str::from_utf8(cell)
        .map_err(|_| Error::invalid("matrix", format!("line {line} column {col}: not UTF-8")))?;
    let v: f64 = text.trim().parse().map_err(|_| {
        // At most QUOTED_CHARS of the cell: a 3 MB "cell" was echoed whole.
        let shown: String = text.trim().chars().take(QUOTED_CHARS).collect();
        let cut = if shown.len() < text.trim().len() {
            "..."
        } else {
            ""
        };
        Error::invalid(
            "matrix",
            format!("line {line} column {col}: {shown:?}{cut} is not a number"),
        )
    })?;
    if !(v.is_finite() && v >= 0.0) {
        return Err(Error::invalid(
            "matrix",
            format!("line {line} column {col}: {v} must be a finite time >= 0"),
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_parses_into_the_same_matrix_as_rows() {
        let m = CostMatrix::parse_csv(b"\xEF\xBB\xBF0,1.5\r\n\n2, 0\n").unwrap();
        let r = CostMatrix::from_rows(vec![vec![0.0, 1.5], vec![2.0, 0.0]]).unwrap();
        assert_eq!(m, r);
    }

    #[test]
    fn matrices_past_the_node_limit_are_refused_before_their_entries_are_read() {
        let n = MAX_NODES + 1;
        let e = CostMatrix::from_flat_f32(n, Cow::Owned(Vec::new())).unwrap_err();
        assert!(e.to_string().contains("at most 50000"), "{e}");
        let row = vec!["0"; n].join(",");
        let e = CostMatrix::parse_csv(row.as_bytes()).unwrap_err();
        assert!(e.to_string().contains(&format!("has {n} nodes")), "{e}");
    }

    #[test]
    fn a_long_bad_cell_is_quoted_cut_short() {
        let text = vec![b'x'; 1 << 20];
        let e = CostMatrix::parse_csv(&text).unwrap_err().to_string();
        assert!(e.len() < 200 && e.contains("\"... is not a number"), "{e}");
    }

    #[test]
    fn csv_errors_name_the_line_and_column() {
        let cases: [(&[u8], &str); 7] = [
            (b"0,1\n1,x\n", "line 2 column 2"),
            (b"0,1\n1,nan\n", "line 2 column 2"),
            (b"0,-1\n1,0\n", "line 1 column 2"),
            (b"0,1\n1\n", "not square: line 2 has 1 entries"),
            (b"0,1\n1,0\n1,0\n", "line 3"),
            (b"0,1,2\n1,0,2\n", "not square"),
            (b"\n \n", "is empty"),
        ];
        for (text, expected) in cases {
            let e = CostMatrix::parse_csv(text).unwrap_err().to_string();
            assert!(e.contains(expected), "{e:?} lacks {expected:?}");
        }
    }

    #[test]
    fn chunks_cut_anywhere_parse_like_the_whole_text() {
        let text = b"\xEF\xBB\xBF0,1.25,3\r\n2,0,4\n\n5,6,0";
        let whole = CostMatrix::parse_csv(text).unwrap();
        for size in 1..text.len() {
            let mut r = CsvMatrixReader::default();
            for chunk in text.chunks(size) {
                r.feed(chunk).unwrap();
            }
            assert_eq!(r.finish().unwrap(), whole, "chunks of {size}");
        }
    }

    #[test]
    fn borrowed_entries_are_not_copied_and_read_like_owned() {
        let data = [0.0f32, 1.0, 2.5, 0.0];
        let m = CostMatrix::from_flat_f32(2, Cow::Borrowed(&data)).unwrap();
        assert!(m.is_borrowed());
        assert_eq!(m.get(1, 0), 2.5);
        assert!(CostMatrix::from_flat_f32(2, Cow::Borrowed(&data[..3])).is_err());
    }

    #[test]
    fn sums_that_overflow_are_refused() {
        let e = CostMatrix::from_rows(vec![vec![0.0, f64::MAX], vec![f64::MAX, 0.0]]);
        assert!(e.unwrap_err().to_string().contains("overflows"));
    }
}
