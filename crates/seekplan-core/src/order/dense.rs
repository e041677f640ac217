//! Every positioning cost of a problem, for the algorithms that consult costs
//! many times. The start and end positions are one depot node. Small batches
//! get the whole matrix, computed once; large batches on models with wrap
//! positions (LTO) cache each node's position and time a move on demand,
//! which is as fast as a lookup and needs no O(n²) memory.

use super::{Head, Problem};
use crate::model::{Block, CostModel, LtoModel, WrapPosition};

/// Largest batch whose full matrix is computed: 1,000² costs take ~50 ms and
/// 8 MB; beyond it, models with wrap positions are timed on demand.
const MATRIX_LIMIT: usize = 1_000;

/// Cached wrap positions: where the head is after each node, where each
/// request starts, and where the schedule must end.
struct Positions<'p> {
    model: &'p dyn CostModel,
    /// The same model when it is LTO's, for direct calls.
    lto: Option<&'p LtoModel>,
    /// Head after request i (index n: the start).
    from: Vec<WrapPosition>,
    /// Start of request j.
    to: Vec<WrapPosition>,
    /// The end position, if any.
    end: Option<WrapPosition>,
}

enum Source<'p> {
    Matrix(Vec<f64>),
    Positions(Positions<'p>),
    Direct(&'p Problem<'p>),
}

/// Positioning costs between requests, with the depot as node `n`:
/// `cost(n, j)` is from the start, `cost(i, n)` is to the end position.
pub(crate) struct Dense<'p> {
    n: usize,
    source: Source<'p>,
}

impl<'p> Dense<'p> {
    /// The costs of `problem`: the full matrix for small batches, cached
    /// positions for large ones when the model has them.
    pub(crate) fn new(problem: &'p Problem<'p>) -> Self {
        let n = problem.len();
        if n > MATRIX_LIMIT {
            if let Some(source) = Self::positions(problem) {
                return Dense { n, source };
            }
        }
        Self::matrix(problem)
    }

    /// The full matrix whatever the size (for algorithms that sort rows).
    pub(crate) fn matrix(problem: &'p Problem<'p>) -> Self {
        let n = problem.len();
        let mut cost = vec![0.0; (n + 1) * (n + 1)];
        for i in 0..=n {
            let head = if i == n { Head::Start } else { Head::After(i) };
            let row = &mut cost[i * (n + 1)..(i + 1) * (n + 1)];
            for (j, c) in row.iter_mut().enumerate().take(n) {
                if i != j {
                    *c = problem.locate(head, j);
                }
            }
            row[n] = if i == n { 0.0 } else { problem.finish(head) };
        }
        Dense {
            n,
            source: Source::Matrix(cost),
        }
    }

    /// Costs computed when asked, never all at once: cached positions when
    /// the model has them, the problem's own locate otherwise (for
    /// algorithms that look at each cost about once, like SLTF).
    pub(crate) fn on_demand(problem: &'p Problem<'p>) -> Self {
        let source = Self::positions(problem).unwrap_or(Source::Direct(problem));
        Dense {
            n: problem.len(),
            source,
        }
    }

    fn positions(problem: &'p Problem<'p>) -> Option<Source<'p>> {
        let n = problem.len();
        let at = |block: u64| problem.wrap_at(Block(block));
        let mut from = Vec::with_capacity(n + 1);
        for i in 0..n {
            from.push(at(problem.head_logical(Head::After(i))?)?);
        }
        from.push(at(problem.head_logical(Head::Start)?)?);
        let to = (0..n)
            .map(|j| at(problem.logical(j)?))
            .collect::<Option<Vec<_>>>()?;
        let end = match problem.end_logical() {
            Some(b) => Some(at(b)?),
            None => None,
        };
        let model = problem.model()?;
        // Only when the model times moves between positions itself.
        model.locate_wrap(from[n], from[n])?;
        Some(Source::Positions(Positions {
            model,
            lto: model.as_lto(),
            from,
            to,
            end,
        }))
    }

    /// Cached positions, when costs are timed on demand from them: where the
    /// head is after each node (the depot last) and where each request starts.
    pub(crate) fn wrap_positions(&self) -> Option<(&[WrapPosition], &[WrapPosition])> {
        match &self.source {
            Source::Positions(p) => Some((&p.from, &p.to)),
            _ => None,
        }
    }

    /// The depot node: start before the tour, end after it.
    pub(crate) fn depot(&self) -> usize {
        self.n
    }

    /// Number of requests (the depot not counted).
    pub(crate) fn len(&self) -> usize {
        self.n
    }

    /// Positioning cost from node `i` to node `j`.
    #[inline]
    pub(crate) fn cost(&self, i: usize, j: usize) -> f64 {
        match &self.source {
            Source::Matrix(cost) => cost[i * (self.n + 1) + j],
            Source::Positions(p) => {
                let to = if j == self.n {
                    match p.end {
                        Some(e) if i != j => e,
                        _ => return 0.0,
                    }
                } else {
                    p.to[j]
                };
                match p.lto {
                    Some(lto) => lto.locate_between(p.from[i], to),
                    None => p.model.locate_wrap(p.from[i], to).expect("checked"),
                }
            }
            Source::Direct(problem) => {
                let head = if i == self.n {
                    Head::Start
                } else {
                    Head::After(i)
                };
                if j == self.n {
                    if i == self.n {
                        0.0
                    } else {
                        problem.finish(head)
                    }
                } else {
                    problem.locate(head, j)
                }
            }
        }
    }

    /// For each place k of `order` (0..=len) where `r` could be inserted,
    /// calls `f(k, C(x,r), C(r,y))` with x, y its neighbours there (the depot
    /// at both ends): MPScan*'s inner loop, timed without a dispatch per move.
    pub(crate) fn around(&self, r: usize, order: &[usize], mut f: impl FnMut(usize, f64, f64)) {
        let depot = self.depot();
        match &self.source {
            Source::Positions(Positions {
                lto: Some(lto),
                from,
                to,
                ..
            }) => {
                let (r_from, r_to) = (from[r], to[r]);
                let mut into = lto.locate_between(from[depot], r_to);
                for (k, &y) in order.iter().enumerate() {
                    f(k, into, lto.locate_between(r_from, to[y]));
                    into = lto.locate_between(from[y], r_to);
                }
                f(order.len(), into, self.cost(r, depot));
            }
            Source::Matrix(cost) => {
                let w = self.n + 1;
                let mut into = cost[depot * w + r];
                for (k, &y) in order.iter().enumerate() {
                    f(k, into, cost[r * w + y]);
                    into = cost[y * w + r];
                }
                f(order.len(), into, cost[r * w + depot]);
            }
            _ => {
                let mut into = self.cost(depot, r);
                for (k, &y) in order.iter().enumerate() {
                    f(k, into, self.cost(r, y));
                    into = self.cost(y, r);
                }
                f(order.len(), into, self.cost(r, depot));
            }
        }
    }

    /// Positioning cost of serving `order` from the start to the end.
    pub(crate) fn tour(&self, order: &[usize]) -> f64 {
        let mut prev = self.depot();
        let mut total = 0.0;
        for &j in order {
            total += self.cost(prev, j);
            prev = j;
        }
        total + self.cost(prev, self.depot())
    }
}
