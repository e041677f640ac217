//! Every positioning cost of a problem, for the algorithms that consult costs
//! many times. The start and end positions are one depot node. Small batches
//! get the whole matrix, computed once; large batches on models that have
//! cached positions ([`CostModel::pos`]) keep each node's position and time
//! a move on demand, which is as fast as a lookup and needs no O(n²) memory.

use super::{Head, Problem};
use crate::model::{AlongBound, Block, Pos, PosCosts, PosJob};
use crate::stop::{Clock, Stop};
use std::sync::OnceLock;

/// Largest batch whose full matrix is computed: 1,000² costs take ~50 ms and
/// 8 MB; beyond it, models with cached positions are timed on demand.
pub(crate) const MATRIX_LIMIT: usize = 1_000;

/// Cached positions: where the head is after each node, where each request
/// starts, and where the schedule must end.
struct Positions<'p> {
    costs: PosCosts<'p>,
    /// Head after request i (index n: the start).
    from: Vec<Pos>,
    /// Start of request j.
    to: Vec<Pos>,
    /// How the schedule ends, if it must end somewhere.
    end: Option<End>,
}

/// Where a schedule timed from cached positions must end.
enum End {
    /// A locate to this position.
    At(Pos),
    /// A rewind the drive times on its own line: each request's cost to
    /// end after it (see [`Problem::finish`]).
    Rewind(Vec<f64>),
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
    /// Whether every move between two requests costs the same both ways,
    /// once asked ([`Dense::symmetric`]).
    symmetric: OnceLock<bool>,
}

impl<'p> Dense<'p> {
    fn with(n: usize, source: Source<'p>) -> Self {
        Dense {
            n,
            source,
            symmetric: OnceLock::new(),
        }
    }

    /// The costs of `problem`: the full matrix for small batches; for large
    /// ones, cached positions when the model has them, and the problem's own
    /// reads when it is an explicit matrix (a copy would double its memory:
    /// 800 MB more at 10,000 nodes).
    pub(crate) fn new(problem: &'p Problem<'p>) -> Self {
        let n = problem.len();
        if n > MATRIX_LIMIT {
            if let Some(source) = Self::positions(problem) {
                return Dense::with(n, source);
            }
            if problem.is_matrix() {
                return Dense::with(n, Source::Direct(problem));
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
        Dense::with(n, Source::Matrix(cost))
    }

    /// Costs computed when asked, never all at once: cached positions when
    /// the model has them, the problem's own locate otherwise (for
    /// algorithms that look at each cost about once, like SLTF).
    pub(crate) fn on_demand(problem: &'p Problem<'p>) -> Self {
        let source = Self::positions(problem).unwrap_or(Source::Direct(problem));
        Dense::with(problem.len(), source)
    }

    fn positions(problem: &'p Problem<'p>) -> Option<Source<'p>> {
        let n = problem.len();
        let model = problem.model()?;
        let costs = model.pos_costs()?;
        let at = |block: u64| model.pos(Block(block));
        let mut from = Vec::with_capacity(n + 1);
        for i in 0..n {
            from.push(at(problem.head_logical(Head::After(i))?)?);
        }
        from.push(at(problem.head_logical(Head::Start)?)?);
        let to = (0..n)
            .map(|j| at(problem.logical(j)?))
            .collect::<Option<Vec<_>>>()?;
        let end = match problem.end_logical() {
            Some(0) if model.rewind_s(Block(0)).is_some() => Some(End::Rewind(
                (0..n).map(|i| problem.finish(Head::After(i))).collect(),
            )),
            Some(b) => Some(End::At(at(b)?)),
            None => None,
        };
        Some(Source::Positions(Positions {
            costs,
            from,
            to,
            end,
        }))
    }

    /// A copy of the stored costs with each entry multiplied by its own
    /// random factor in [1, 1 + `noise`): a nearby problem whose local
    /// optima differ; `None` unless every cost is stored.
    pub(crate) fn perturbed(&self, noise: f64, rng: &mut impl rand::Rng) -> Option<Dense<'p>> {
        let Source::Matrix(cost) = &self.source else {
            return None;
        };
        let cost = cost
            .iter()
            .map(|&c| c * (1.0 + noise * rng.gen::<f64>()))
            .collect();
        Some(Dense::with(self.n, Source::Matrix(cost)))
    }

    /// Cached positions, when costs are timed on demand from them: where the
    /// head is after each node (the depot last) and where each request starts.
    pub(crate) fn cached_positions(&self) -> Option<(&[Pos], &[Pos])> {
        match &self.source {
            Source::Positions(p) => Some((&p.from, &p.to)),
            _ => None,
        }
    }

    /// The cached position where the schedule must end, if costs are
    /// timed from cached positions and it ends by a locate there.
    pub(crate) fn cached_end(&self) -> Option<Pos> {
        match &self.source {
            Source::Positions(Positions {
                end: Some(End::At(e)),
                ..
            }) => Some(*e),
            _ => None,
        }
    }

    /// The model's lower bound of a move by distance along the medium, when
    /// costs are timed on demand from cached positions.
    pub(crate) fn along_bound(&self) -> Option<AlongBound> {
        match &self.source {
            Source::Positions(p) => p.costs.along_bound(),
            _ => None,
        }
    }

    /// Whether every move between two requests costs the same both ways
    /// (the depot's moves aside): then reversing a stretch of requests
    /// changes nothing inside it ([`super::edge_sums`]). Read once, O(n²),
    /// on the first ask.
    pub(crate) fn symmetric(&self) -> bool {
        *self
            .symmetric
            .get_or_init(|| (0..self.n).all(|i| (0..i).all(|j| self.cost(i, j) == self.cost(j, i))))
    }

    /// Whether every cost is stored (lookups) rather than timed when asked.
    pub(crate) fn is_stored(&self) -> bool {
        matches!(self.source, Source::Matrix(_))
    }

    /// The depot node: start before the tour, end after it.
    pub(crate) fn depot(&self) -> usize {
        self.n
    }

    /// Number of requests (the depot not counted).
    pub(crate) fn len(&self) -> usize {
        self.n
    }

    /// Positioning cost from node `i` to node `j`. A stored matrix is read
    /// here, inlined into the searches' inner loops; the other sources are
    /// timed out of line ([`Dense::timed`]). With the whole match inlined
    /// the compiler kept it a call: inlining the read took DIMACS rtilt,
    /// stilt and crane at 316 nodes from 21.1 to 19.7-19.9 s and six helical
    /// 1,000-file seek matrices from 7.5-7.7 to 7.0 s, the same orders;
    /// drive batches timed on demand the same (2026-11-29).
    #[inline]
    pub(crate) fn cost(&self, i: usize, j: usize) -> f64 {
        match &self.source {
            Source::Matrix(cost) => cost[i * (self.n + 1) + j],
            _ => self.timed(i, j),
        }
    }

    /// [`Dense::cost`] where no matrix is stored: from cached positions or
    /// the problem itself.
    #[inline(never)]
    fn timed(&self, i: usize, j: usize) -> f64 {
        match &self.source {
            Source::Matrix(_) => unreachable!("a stored matrix is read by `cost` itself"),
            Source::Positions(p) => {
                let to = if j == self.n {
                    match &p.end {
                        Some(End::At(e)) if i != j => *e,
                        Some(End::Rewind(costs)) if i != j => return costs[i],
                        _ => return 0.0,
                    }
                } else {
                    p.to[j]
                };
                p.costs.locate(p.from[i], to)
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

    /// Costs from node `i` to every node, the depot last, into `out` (n + 1
    /// long): the values of [`Dense::cost`], an explicit or stored matrix
    /// read a row at a time.
    pub(crate) fn row(&self, i: usize, out: &mut [f64]) {
        let n = self.n;
        match &self.source {
            Source::Matrix(cost) => out.copy_from_slice(&cost[i * (n + 1)..(i + 1) * (n + 1)]),
            Source::Direct(problem) => {
                let head = if i == n { Head::Start } else { Head::After(i) };
                problem.locate_row(head, out);
                out[n] = if i == n { 0.0 } else { problem.finish(head) };
            }
            Source::Positions(_) => {
                for (j, o) in out.iter_mut().enumerate() {
                    *o = self.cost(i, j);
                }
            }
        }
    }

    /// For each place k of `order` (0..=len) where `r` could be inserted,
    /// calls `f(k, C(x,r), C(r,y))` with x, y its neighbours there (the depot
    /// at both ends): MPScan*'s inner loop, timed without a dispatch per move.
    pub(crate) fn around(&self, r: usize, order: &[usize], f: impl FnMut(usize, f64, f64)) {
        let depot = self.depot();
        let last = self.cost(r, depot);
        match &self.source {
            Source::Positions(p) => p.costs.run(Around {
                from: &p.from,
                to: &p.to,
                depot,
                r,
                order,
                last,
                f,
            }),
            Source::Matrix(cost) => {
                let w = self.n + 1;
                around(
                    |y| cost[y * w + r],
                    |y| cost[r * w + y],
                    depot,
                    order,
                    last,
                    f,
                );
            }
            Source::Direct(_) => around(
                |y| self.cost(y, r),
                |y| self.cost(r, y),
                depot,
                order,
                last,
                f,
            ),
        }
    }

    /// The place k in `among` of the cheapest move from node `i` (ties to
    /// the lower node): SLTF's inner loop, timed without a dispatch per move.
    pub(crate) fn cheapest(&self, i: usize, among: &[usize]) -> Option<usize> {
        match &self.source {
            Source::Positions(p) => p.costs.run(Cheapest {
                from: p.from[i],
                to: &p.to,
                among,
            }),
            Source::Matrix(cost) => {
                let row = &cost[i * (self.n + 1)..(i + 1) * (self.n + 1)];
                cheapest(among, |j| row[j])
            }
            Source::Direct(problem) if !among.contains(&self.n) => {
                let head = if i == self.n {
                    Head::Start
                } else {
                    Head::After(i)
                };
                let mut costs = vec![0.0; among.len()];
                problem.locate_among(head, among, &mut costs);
                cheapest_of(among, &costs)
            }
            Source::Direct(_) => cheapest(among, |j| self.cost(i, j)),
        }
    }

    /// Every cost as one row-major (n + 1)² matrix with the diagonal
    /// forbidden (infinite): the input of the assignment-based solvers.
    pub(crate) fn square(&self) -> Vec<f64> {
        self.square_until(&Stop::never()).expect("nothing stops it")
    }

    /// [`Dense::square`], or `None` once `stop` (a caller's time limit or
    /// cancel) is reached: on a drive model every entry is a locate timed
    /// from two positions, 0.4 s at 4,000 DLT7000 requests.
    pub(crate) fn square_until(&self, stop: &Stop) -> Option<Vec<f64>> {
        let m = self.n + 1;
        let mut cost = vec![f64::INFINITY; m * m];
        let mut clock = Clock::new(stop);
        for i in 0..m {
            clock.tick()?;
            for j in (0..m).filter(|&j| j != i) {
                cost[i * m + j] = self.cost(i, j);
            }
        }
        Some(cost)
    }
    /// The requests in tour order from a successor array over the n + 1
    /// nodes (the depot's successor first).
    pub(crate) fn path(&self, succ: &[usize]) -> Vec<usize> {
        let mut order = Vec::with_capacity(self.n);
        let mut v = succ[self.depot()];
        while v != self.depot() {
            order.push(v);
            v = succ[v];
        }
        order
    }

    /// Each node's successor (over the n + 1 nodes) on the tour depot →
    /// `order` → depot: the inverse of [`Dense::path`].
    pub(crate) fn successors(&self, order: &[usize]) -> Vec<usize> {
        let mut succ = vec![0; self.n + 1];
        let mut prev = self.depot();
        for &v in order {
            succ[prev] = v;
            prev = v;
        }
        succ[prev] = self.depot();
        succ
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

/// The loop of [`Dense::around`] on any cost: `into(y)` is C(y, r),
/// `out(y)` is C(r, y), `last` is C(r, depot).
#[inline]
fn around(
    into: impl Fn(usize) -> f64,
    out: impl Fn(usize) -> f64,
    depot: usize,
    order: &[usize],
    last: f64,
    mut f: impl FnMut(usize, f64, f64),
) {
    let mut cost_in = into(depot);
    for (k, &y) in order.iter().enumerate() {
        f(k, cost_in, out(y));
        cost_in = into(y);
    }
    f(order.len(), cost_in, last);
}

/// [`around`] on cached positions.
struct Around<'a, F> {
    from: &'a [Pos],
    to: &'a [Pos],
    depot: usize,
    r: usize,
    order: &'a [usize],
    last: f64,
    f: F,
}

impl<F: FnMut(usize, f64, f64)> PosJob for Around<'_, F> {
    type Out = ();

    fn run(self, locate: impl Fn(Pos, Pos) -> f64) {
        let (r_from, r_to) = (self.from[self.r], self.to[self.r]);
        around(
            |y| locate(self.from[y], r_to),
            |y| locate(r_from, self.to[y]),
            self.depot,
            self.order,
            self.last,
            self.f,
        );
    }
}

/// The place of the least `cost(j)` over `among`, ties to the lower `j`.
#[inline]
fn cheapest(among: &[usize], cost: impl Fn(usize) -> f64) -> Option<usize> {
    among
        .iter()
        .enumerate()
        .map(|(k, &j)| (k, (cost(j), j)))
        .min_by(|a, b| a.1.partial_cmp(&b.1).expect("finite costs"))
        .map(|(k, _)| k)
}

/// [`cheapest`] with the costs read beforehand: `costs[k]` is the cost
/// to `among[k]`.
fn cheapest_of(among: &[usize], costs: &[f64]) -> Option<usize> {
    among
        .iter()
        .zip(costs)
        .enumerate()
        .map(|(k, (&j, &c))| (k, (c, j)))
        .min_by(|a, b| a.1.partial_cmp(&b.1).expect("finite costs"))
        .map(|(k, _)| k)
}

/// [`cheapest`] on cached positions.
struct Cheapest<'a> {
    from: Pos,
    to: &'a [Pos],
    among: &'a [usize],
}

impl PosJob for Cheapest<'_> {
    type Out = Option<usize>;

    fn run(self, locate: impl Fn(Pos, Pos) -> f64) -> Option<usize> {
        cheapest(self.among, |j| locate(self.from, self.to[j]))
    }
}

#[cfg(test)]
mod tests;
