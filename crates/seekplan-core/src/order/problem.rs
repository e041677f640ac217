//! One single-device ordering problem: where the head is, what to read, where
//! the head must end. Schedulers read costs from here; the costs come from a
//! [`CostModel`] or from an explicit [`CostMatrix`].

use super::bound::Relaxation;
use super::line_fit;
use super::on_line::OnSeekLine;
use crate::atsp::{sparse_assignment_within, Assignment, Costs};
use crate::model::{classify, Block, CostMatrix, CostModel, Extent, Physical, SeekClass};
use crate::stop::Stop;
use crate::{Error, Moves, Result};
use std::sync::OnceLock;

/// Where the head is before a move: at the start position or after a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// The start position.
    Start,
    /// Just after reading request `i`.
    After(usize),
}

enum Source<'a> {
    Tape {
        model: &'a dyn CostModel,
        requests: Vec<Extent>,
        ends: Vec<Block>,
        start: Block,
        end: Option<Block>,
    },
    Matrix {
        matrix: &'a CostMatrix<'a>,
        nodes: Vec<usize>,
        start: usize,
        end: Option<usize>,
    },
}

/// A batch of requests to order on one device.
pub struct Problem<'a> {
    source: Source<'a>,
    /// The assignment lower bound, once computed (see [`super::bound`]):
    /// `best` computes it first and the schedule's report reuses it.
    relaxation: OnceLock<Option<Relaxation>>,
}

impl<'a> Problem<'a> {
    /// Requests on a tape described by `model`, head at `start`, optionally
    /// returning to `end` (e.g. BOT before unload).
    pub fn tape(
        model: &'a dyn CostModel,
        requests: Vec<Extent>,
        start: Block,
        end: Option<Block>,
    ) -> Result<Self> {
        for (i, r) in requests.iter().enumerate() {
            model.check(*r).map_err(|e| match e {
                Error::Invalid { field, message } => {
                    Error::invalid(field, format!("request {i}: {message}"))
                }
                other => other,
            })?;
        }
        for (name, b) in [("start", Some(start)), ("end", end)] {
            if let Some(b) = b {
                if b.0 > model.capacity() {
                    return Err(Error::invalid(
                        name,
                        format!(
                            "block {} is past the end of the tape ({} blocks)",
                            b.0,
                            model.capacity()
                        ),
                    ));
                }
            }
        }
        let ends = requests.iter().map(|r| model.read(*r).end).collect();
        Ok(Problem {
            source: Source::Tape {
                model,
                requests,
                ends,
                start,
                end,
            },
            relaxation: OnceLock::new(),
        })
    }

    /// The general asymmetric problem: visit every node of `matrix` once,
    /// starting at node `start`, finishing at node `end` when given.
    pub fn matrix(matrix: &'a CostMatrix<'a>, start: usize, end: Option<usize>) -> Result<Self> {
        let n = matrix.len();
        for (name, node) in [("start", Some(start)), ("end", end)] {
            if let Some(v) = node {
                if v >= n {
                    return Err(Error::invalid(
                        name,
                        format!("node {v} is not in the {n}x{n} matrix"),
                    ));
                }
            }
        }
        let nodes = (0..n).filter(|&v| v != start && Some(v) != end).collect();
        Ok(Problem {
            source: Source::Matrix {
                matrix,
                nodes,
                start,
                end,
            },
            relaxation: OnceLock::new(),
        })
    }

    /// The model's seek line, the head's block and each request's (start,
    /// end) blocks, when the costs lie on a [`crate::model::SeekLine`] and
    /// the schedule may end anywhere ([`super::on_line`] orders these
    /// exactly); for a matrix, the line fitted through its costs, if they
    /// lie on one ([`super::line_fit`], O(n²); `None` once `stop` is
    /// reached).
    pub(crate) fn on_seek_line(&self, stop: &Stop) -> Option<OnSeekLine> {
        match &self.source {
            Source::Tape {
                model,
                requests,
                ends,
                start,
                end: None,
            } if !requests.is_empty() => {
                let reads = requests.iter().zip(ends).map(|(r, e)| (r.start.0, e.0));
                Some(OnSeekLine {
                    line: model.seek_line()?,
                    head: start.0,
                    reads: reads.collect(),
                    slack_s: 0.0,
                })
            }
            Source::Matrix { end: None, .. } => {
                let n = self.len();
                let head = |u: usize| if u == n { Head::Start } else { Head::After(u) };
                line_fit::fit(n, stop, |u, out| self.locate_row(head(u), out))
            }
            _ => None,
        }
    }

    /// Number of requests to order.
    pub fn len(&self) -> usize {
        match &self.source {
            Source::Tape { requests, .. } => requests.len(),
            Source::Matrix { nodes, .. } => nodes.len(),
        }
    }

    /// True when there is nothing to order.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the schedule must finish at a given position.
    pub fn has_end(&self) -> bool {
        match &self.source {
            Source::Tape { end, .. } => end.is_some(),
            Source::Matrix { end, .. } => end.is_some(),
        }
    }

    /// Whether the costs come from an explicit matrix (no drive model).
    pub fn is_matrix(&self) -> bool {
        matches!(self.source, Source::Matrix { .. })
    }

    /// The optimal assignment of the positioning costs over the requests
    /// and the start/end depot (node n): each node's successor, from the
    /// sparse solver checked against every cost. `None` when the sparse
    /// solver finds none (see [`sparse_assignment_within`]) or `stop`
    /// is reached first. The lower bound keeps it ([`Problem::relaxation_until`]).
    pub(crate) fn positioning_assignment(&self, stop: &Stop) -> Option<Assignment> {
        sparse_assignment_within(self.len() + 1, Positioning(self), usize::MAX, stop)
    }

    /// The assignment lower bound and the locate assignment behind it,
    /// computed on first use and kept; given up (`None`, and not kept: a
    /// later call starts again) once `stop`, a caller's time limit or
    /// cancel, is reached while it is solved (on an explicit matrix of 10,000 nodes it
    /// takes over a second).
    pub(crate) fn relaxation_until(&self, stop: &Stop) -> Option<&Relaxation> {
        if self.relaxation.get().is_none() {
            let found = super::bound::relaxation(self, stop);
            if found.is_none() && stop.reached() {
                return None;
            }
            let _ = self.relaxation.set(found);
        }
        self.relaxation.get().and_then(Option::as_ref)
    }

    /// Seconds to position from `head` to the start of request `j`.
    #[inline(always)]
    pub fn locate(&self, head: Head, j: usize) -> f64 {
        match &self.source {
            Source::Tape {
                model,
                requests,
                ends,
                start,
                ..
            } => model.locate(self.tape_head(head, *start, ends), requests[j].start),
            Source::Matrix {
                matrix,
                nodes,
                start,
                ..
            } => matrix.get(matrix_node(head, *start, nodes), nodes[j]),
        }
    }

    /// Seconds to position from `head` to each request of `among`, into
    /// `out` (as long as `among`): the same values as [`Problem::locate`],
    /// read from one row of an explicit matrix at a time.
    pub fn locate_among(&self, head: Head, among: &[usize], out: &mut [f64]) {
        self.locate_each(head, among.iter().copied(), out);
    }

    /// Seconds to position from `head` to every request, in request order,
    /// into `out` (at least [`Problem::len`] long): as
    /// [`Problem::locate_among`] over all requests.
    pub fn locate_row(&self, head: Head, out: &mut [f64]) {
        let n = self.len();
        match &self.source {
            // The requests are a run of the matrix's nodes (all but a
            // start and an end at either side; `nodes` ascends, so first
            // and last n - 1 apart means a run): one slice, not a gather
            // through `nodes`. The sparse assignment reads whole rows this
            // way: on the DLT4000 seek matrix of 5,000 gaussian files
            // (seed 1) it took 1.17-1.19 s, 1.29-1.31 s gathering
            // (2026-11-29).
            Source::Matrix {
                matrix,
                nodes,
                start,
                ..
            } if n > 0 && nodes[n - 1] - nodes[0] == n - 1 => {
                matrix.copy_run(matrix_node(head, *start, nodes), nodes[0], &mut out[..n]);
            }
            _ => self.locate_each(head, 0..n, &mut out[..n]),
        }
    }

    fn locate_each(&self, head: Head, requests: impl Iterator<Item = usize>, out: &mut [f64]) {
        match &self.source {
            Source::Matrix {
                matrix,
                nodes,
                start,
                ..
            } => {
                let from = matrix_node(head, *start, nodes);
                matrix.gather(from, requests.map(|j| nodes[j]), out);
            }
            Source::Tape { .. } => {
                for (o, j) in out.iter_mut().zip(requests) {
                    *o = self.locate(head, j);
                }
            }
        }
    }

    /// Seconds to position from `head` to the end position (0 with no end):
    /// a locate, or to BOT the drive's rewind where it times rewinds apart
    /// ([`crate::model::CostModel::rewind_s`]).
    pub fn finish(&self, head: Head) -> f64 {
        match &self.source {
            Source::Tape {
                model,
                ends,
                start,
                end,
                ..
            } => end.map_or(0.0, |e| {
                let from = self.tape_head(head, *start, ends);
                let rewind = (e == Block(0)).then(|| model.rewind_s(from)).flatten();
                rewind.unwrap_or_else(|| model.locate(from, e))
            }),
            Source::Matrix {
                matrix,
                nodes,
                start,
                end,
            } => end.map_or(0.0, |e| matrix.get(matrix_node(head, *start, nodes), e)),
        }
    }

    /// Seconds to read request `j` once positioned (0 for matrix nodes).
    pub fn service(&self, j: usize) -> f64 {
        match &self.source {
            Source::Tape {
                model, requests, ..
            } => model.read(requests[j]).seconds,
            Source::Matrix { .. } => 0.0,
        }
    }

    /// Seconds to reach request `j` from `head` moving as `moves` says: a
    /// locate, or streaming forward when `j` lies ahead.
    pub fn position(&self, head: Head, j: usize, moves: Moves) -> f64 {
        let locate = self.locate(head, j);
        match moves {
            Moves::Locate => locate,
            Moves::ReadThrough => self.read_through(head, j).unwrap_or(locate),
        }
    }

    /// Seconds to reach request `j` from `head` by streaming forward, when the
    /// request lies logically ahead; `None` otherwise or for matrix problems.
    pub fn read_through(&self, head: Head, j: usize) -> Option<f64> {
        match &self.source {
            Source::Tape {
                model,
                requests,
                ends,
                start,
                ..
            } => {
                let from = self.tape_head(head, *start, ends);
                let to = requests[j].start;
                (to >= from).then(|| model.read_through(from, to))
            }
            Source::Matrix { .. } => None,
        }
    }

    /// First logical block of request `j` (tape problems only).
    pub fn logical(&self, j: usize) -> Option<u64> {
        match &self.source {
            Source::Tape { requests, .. } => Some(requests[j].start.0),
            Source::Matrix { .. } => None,
        }
    }

    /// Logical block of the head (tape problems only).
    pub fn head_logical(&self, head: Head) -> Option<u64> {
        match &self.source {
            Source::Tape { ends, start, .. } => Some(self.tape_head(head, *start, ends).0),
            Source::Matrix { .. } => None,
        }
    }

    /// Physical position of the head (tape problems with a linear model).
    pub fn head_physical(&self, head: Head) -> Option<Physical> {
        match &self.source {
            Source::Tape {
                model, ends, start, ..
            } => model.physical(self.tape_head(head, *start, ends)),
            Source::Matrix { .. } => None,
        }
    }

    /// Physical position of request `j` and of the key point preceding it.
    pub fn target_physical(&self, j: usize) -> Option<(Physical, f64)> {
        match &self.source {
            Source::Tape {
                model, requests, ..
            } => {
                let p = model.physical(requests[j].start)?;
                Some((p, p.preceding_keypoint(model.keypoint_spacing())))
            }
            Source::Matrix { .. } => None,
        }
    }

    /// The same requests on another model of the same tape, head at
    /// `start`, finishing at `end` (tape problems only): how an algorithm
    /// decides with someone else's costs, as CTA-SLTF does with CTA's.
    pub fn on_model<'m>(
        &self,
        model: &'m dyn CostModel,
        start: Block,
        end: Option<Block>,
    ) -> Option<Result<Problem<'m>>> {
        match &self.source {
            Source::Tape { requests, .. } => {
                Some(Problem::tape(model, requests.clone(), start, end))
            }
            Source::Matrix { .. } => None,
        }
    }

    /// The same requests numbered in the order `ids` lists them (request
    /// `ids[k]` becomes request k; `ids` is a permutation): tape problems
    /// only.
    pub(crate) fn renumbered(&self, ids: &[usize]) -> Option<Result<Problem<'a>>> {
        match &self.source {
            Source::Tape {
                model,
                requests,
                start,
                end,
                ..
            } => {
                let sorted = ids.iter().map(|&i| requests[i]).collect();
                Some(Problem::tape(*model, sorted, *start, *end))
            }
            Source::Matrix { .. } => None,
        }
    }

    /// The tape's cost model (tape problems only).
    pub fn model(&self) -> Option<&'a dyn CostModel> {
        match &self.source {
            Source::Tape { model, .. } => Some(*model),
            Source::Matrix { .. } => None,
        }
    }

    /// Logical block of the end position (tape problems that have one).
    pub fn end_logical(&self) -> Option<u64> {
        match &self.source {
            Source::Tape { end, .. } => end.map(|b| b.0),
            Source::Matrix { .. } => None,
        }
    }

    /// The seek class of the move from `head` to request `j`, if the model is linear.
    pub fn seek_class(&self, head: Head, j: usize) -> Option<SeekClass> {
        let from = self.head_physical(head)?;
        let (to, keypoint) = self.target_physical(j)?;
        Some(classify(&from, &to, keypoint))
    }

    /// The matrix node each request stands for, with start (and end) around
    /// it, for matrix problems; `None` for tape problems.
    pub fn node_sequence(&self, order: &[usize]) -> Option<Vec<usize>> {
        match &self.source {
            Source::Matrix {
                nodes, start, end, ..
            } => {
                let mut seq = Vec::with_capacity(order.len() + 2);
                seq.push(*start);
                seq.extend(order.iter().map(|&j| nodes[j]));
                if let Some(e) = end {
                    if *e != *start || !order.is_empty() {
                        seq.push(*e);
                    }
                }
                Some(seq)
            }
            Source::Tape { .. } => None,
        }
    }

    fn tape_head(&self, head: Head, start: Block, ends: &[Block]) -> Block {
        match head {
            Head::Start => start,
            Head::After(i) => ends[i],
        }
    }
}

/// A problem's positioning costs over its requests and the start/end depot
/// (node n), as the sparse assignment reads them: whole rows at a time.
struct Positioning<'p, 'a>(&'p Problem<'a>);

impl Positioning<'_, '_> {
    fn head(&self, i: usize) -> Head {
        if i == self.0.len() {
            Head::Start
        } else {
            Head::After(i)
        }
    }
}

impl Costs for Positioning<'_, '_> {
    fn cost(&self, i: usize, j: usize) -> f64 {
        if j == self.0.len() {
            self.0.finish(self.head(i))
        } else {
            self.0.locate(self.head(i), j)
        }
    }

    fn row(&self, i: usize, out: &mut [f64]) {
        let n = self.0.len();
        let head = self.head(i);
        self.0.locate_row(head, out);
        out[n] = self.0.finish(head);
    }
}

/// The matrix node the head is at: the start node, or the node of the
/// request read last.
#[inline(always)]
fn matrix_node(head: Head, start: usize, nodes: &[usize]) -> usize {
    match head {
        Head::Start => start,
        Head::After(i) => nodes[i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// Whether the requests run consecutively through the matrix's nodes
    /// (start and end at either side) or not, `locate_row` reads what
    /// `locate` does, from every head, in f64 and f32 storage.
    #[test]
    fn a_row_of_locates_matches_each_locate_wherever_start_and_end_lie() {
        let n = 7;
        let flat: Vec<f64> = (0..n * n).map(|k| ((k * 37) % 101) as f64 + 0.5).collect();
        let narrow: Vec<f32> = flat.iter().map(|&x| x as f32).collect();
        let matrices = [
            CostMatrix::from_flat(n, Cow::Borrowed(&flat)).expect("square"),
            CostMatrix::from_flat_f32(n, Cow::Borrowed(&narrow)).expect("square"),
        ];
        for matrix in &matrices {
            for (start, end) in [
                (0, None),
                (6, None),
                (3, None),
                (0, Some(6)),
                (6, Some(0)),
                (2, Some(5)),
            ] {
                let problem = Problem::matrix(matrix, start, end).expect("valid nodes");
                let k = problem.len();
                let heads = std::iter::once(Head::Start).chain((0..k).map(Head::After));
                for head in heads {
                    let mut row = vec![f64::NAN; k];
                    problem.locate_row(head, &mut row);
                    let each: Vec<f64> = (0..k).map(|j| problem.locate(head, j)).collect();
                    assert_eq!(row, each, "start {start}, end {end:?}, head {head:?}");
                }
            }
        }
    }
}
