//! An explicit cost matrix: measured locate times between nodes, the general
//! asymmetric problem with no drive model behind it.

use crate::{Error, Result};

/// A square matrix of non-negative costs; `get(i, j)` is the cost from i to j.
#[derive(Clone, Debug, PartialEq)]
pub struct CostMatrix {
    n: usize,
    data: Vec<f64>,
}

impl CostMatrix {
    /// Builds a matrix from its rows; names the first bad row or entry.
    pub fn from_rows(rows: Vec<Vec<f64>>) -> Result<Self> {
        let n = rows.len();
        if n == 0 {
            return Err(Error::invalid("matrix", "is empty"));
        }
        let mut data = Vec::with_capacity(n * n);
        for (i, row) in rows.into_iter().enumerate() {
            if row.len() != n {
                return Err(Error::invalid(
                    "matrix",
                    format!(
                        "is not square: row {i} has {} entries, expected {n}",
                        row.len()
                    ),
                ));
            }
            for (j, &v) in row.iter().enumerate() {
                if !(v.is_finite() && v >= 0.0) {
                    return Err(Error::invalid(
                        "matrix",
                        format!("entry [{i}][{j}] = {v} must be a finite, non-negative time"),
                    ));
                }
            }
            data.extend(row);
        }
        Ok(CostMatrix { n, data })
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
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.n + j]
    }
}
