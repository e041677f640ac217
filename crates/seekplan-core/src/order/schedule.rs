//! A served order with its timing, always recomputed from the cost source so
//! that no algorithm can report a cost it did not earn.

use super::{Head, Problem, SearchReport};
use crate::{Error, Result};
use serde::Serialize;

/// How the head moves between consecutive requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Moves {
    /// Every move is a locate command.
    Locate,
    /// Stream forward by reading when the next request lies logically ahead
    /// (what the READ strategy does); locate otherwise.
    ReadThrough,
}

impl Moves {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Moves::Locate => "locate",
            Moves::ReadThrough => "read-through",
        }
    }
}

/// One served request.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Step {
    /// Index of the request in the problem's input.
    pub request: usize,
    /// Seconds spent positioning before this request.
    pub position_s: f64,
    /// Time the read of this request starts, from the schedule's start.
    pub start_s: f64,
    /// Time the read of this request ends.
    pub end_s: f64,
}

/// An order of service and what it costs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Schedule {
    /// Request indices in service order.
    pub order: Vec<usize>,
    /// Per-request timing, in service order.
    pub steps: Vec<Step>,
    /// Seconds to reach the end position after the last request (0 with none).
    pub finish_s: f64,
    /// Total seconds: positioning, reading, and reaching the end position.
    pub total_s: f64,
    /// How the head moved between requests.
    pub moves: Moves,
    /// A certified lower bound on the total of any schedule of the same
    /// problem (the assignment bound plus the reads), when computed; on an
    /// explicit matrix whose order an exact search (OPT, or BNB finishing)
    /// proved optimal, that order's own total.
    pub lower_bound_s: Option<f64>,
    /// `total_s / lower_bound_s − 1`: at most this far from optimal.
    pub gap: Option<f64>,
    /// Why the search that found this order stopped, and what it spent
    /// (`best`; None for the single-pass algorithms).
    pub search: Option<SearchReport>,
}

impl Schedule {
    /// Times `order` on `problem`; fails unless `order` is a permutation of
    /// the problem's requests.
    pub fn evaluate(problem: &Problem, order: Vec<usize>, moves: Moves) -> Result<Schedule> {
        check_permutation(&order, problem.len())?;
        let mut steps = Vec::with_capacity(order.len());
        let mut head = Head::Start;
        let mut clock = 0.0;
        for &j in &order {
            let position_s = problem.position(head, j, moves);
            let start_s = clock + position_s;
            let end_s = start_s + problem.service(j);
            steps.push(Step {
                request: j,
                position_s,
                start_s,
                end_s,
            });
            clock = end_s;
            head = Head::After(j);
        }
        let finish_s = problem.finish(head);
        Ok(Schedule {
            order,
            steps,
            finish_s,
            total_s: clock + finish_s,
            moves,
            lower_bound_s: None,
            gap: None,
            search: None,
        })
    }

    /// Records a lower bound on the problem's total, and the gap to it.
    pub fn with_bound(mut self, lower_bound_s: Option<f64>) -> Schedule {
        self.lower_bound_s = lower_bound_s;
        self.gap = lower_bound_s
            .filter(|&b| b > 0.0)
            .map(|b| self.total_s / b - 1.0);
        self
    }

    /// Seconds spent positioning (total minus reading).
    pub fn positioning_s(&self) -> f64 {
        self.steps.iter().map(|s| s.position_s).sum::<f64>() + self.finish_s
    }
}

fn check_permutation(order: &[usize], n: usize) -> Result<()> {
    if order.len() != n {
        return Err(Error::invalid(
            "order",
            format!("has {} entries for {n} requests", order.len()),
        ));
    }
    let mut seen = vec![false; n];
    for &j in order {
        if j >= n || std::mem::replace(&mut seen[j], true) {
            return Err(Error::invalid(
                "order",
                format!("request {j} is missing, repeated or unknown"),
            ));
        }
    }
    Ok(())
}
