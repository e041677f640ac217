//! The flat (one-level) engine behind SPTF and the classic single-class
//! schedulers: at each step every waiting request, C or D, gets a priority
//! key from the rule; the best one that keeps the admission rule is served.
//! If none does, the C-plan's next C-request is served.

use super::request::{Class, Request};
use super::round::{Dir, Round};
use crate::model::disk::{Cylinder, Head};

/// A flat scheduler's priority rule (lower key first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// Shortest positioning (seek + rotation) time first.
    Sptf,
    /// First come, first served (C-requests arrive when their round starts).
    Fcfs,
    /// Shortest seek distance first.
    Sstf,
    /// Elevator reversing at the last request (LOOK).
    Look,
    /// Elevator travelling to the disk's edge before reversing (SCAN).
    Scan,
    /// One-way elevator: upwards, then back to the lowest request (C-SCAN).
    CScan,
    /// Earliest deadline first; a D-request is due `deadline_s` after arrival.
    Edf { deadline_s: f64 },
    /// EDF with deadlines rounded up to round ends, ties served by SCAN.
    ScanEdf { deadline_s: f64, round_s: f64 },
}

impl Rule {
    fn key(&self, r: &Round, q: &Request) -> Option<(f64, f64)> {
        let h = r.head.cylinder;
        let c = q.addr.cylinder;
        let deadline = |deadline_s: f64| match q.class {
            Class::Continuous => r.end_s,
            Class::Discrete => q.arrival_s + deadline_s,
        };
        let sweep = || match r.dir.ahead(h, c) {
            Some(d) => f64::from(d),
            None => f64::from(r.disk.cylinders) + f64::from(h.0.abs_diff(c.0)),
        };
        match *self {
            Rule::Sptf => Some((r.disk.access(r.head, q.addr, q.bytes).positioning_s(), 0.0)),
            Rule::Fcfs => Some((q.arrival_s, sweep())),
            Rule::Sstf => Some((f64::from(h.0.abs_diff(c.0)), 0.0)),
            Rule::Look | Rule::Scan => r.dir.ahead(h, c).map(|d| (f64::from(d), 0.0)),
            Rule::CScan => Some((
                f64::from((c.0 + r.disk.cylinders - h.0) % r.disk.cylinders),
                0.0,
            )),
            Rule::Edf { deadline_s } => Some((deadline(deadline_s), q.arrival_s)),
            Rule::ScanEdf {
                deadline_s,
                round_s,
            } => Some(((deadline(deadline_s) / round_s - 1e-9).ceil(), sweep())),
        }
    }
}

/// Which waiting request a key belongs to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pick {
    C(usize),
    D(usize),
}

/// Runs `rule` for the rest of the round.
pub fn flat(r: &mut Round, rule: Rule) {
    if rule == Rule::CScan {
        r.dir = Dir::Up;
    }
    loop {
        r.admit();
        // Keys only change when the head moves, so one sorted list serves
        // every admission check until something is served.
        match ranked(r, rule).into_iter().find(|&p| match p {
            Pick::C(i) => r.fits_c(i),
            Pick::D(i) => r.fits_d(i, 0.0),
        }) {
            Some(Pick::C(i)) => r.serve_c(i),
            Some(Pick::D(i)) => r.serve_d(i),
            None => {
                // Nothing keyed fits: those D-requests are refused until the
                // next C-request. C(0) always fits, so C-requests remain only
                // if C(0) has no key: an elevator with it behind.
                for i in 0..r.pending.len() {
                    if rule.key(r, &r.pending[i]).is_some() {
                        r.defer(i);
                    }
                }
                if matches!(rule, Rule::Look | Rule::Scan) && has_behind(r, rule) {
                    turn(r, rule);
                } else if !r.c_plan.is_empty() {
                    r.serve_c(0);
                } else {
                    for i in 0..r.pending.len() {
                        r.defer(i);
                    }
                    if !r.wait_for_arrival() {
                        return;
                    }
                }
            }
        }
    }
}

/// Whether an elevator has requests behind it that were not yet refused.
fn has_behind(r: &Round, rule: Rule) -> bool {
    r.c_plan.iter().any(|q| rule.key(r, q).is_none())
        || r.pending
            .iter()
            .any(|q| !q.deferred && rule.key(r, q).is_none())
}

/// Reverses an elevator; SCAN first travels to the disk's edge if that
/// keeps the admission rule.
fn turn(r: &mut Round, rule: Rule) {
    if rule == Rule::Scan {
        let edge = match r.dir {
            Dir::Up => Cylinder(r.disk.cylinders - 1),
            Dir::Down => Cylinder(0),
        };
        let seek = r.disk.seek_s(r.head.cylinder.0.abs_diff(edge.0));
        let after = Head {
            cylinder: edge,
            time_s: r.head.time_s + seek,
        };
        let fits = after.time_s <= r.end_s && r.plan_end(after, None) <= r.end_s;
        if fits {
            r.head = after;
        }
    }
    r.dir = r.dir.reversed();
}

/// The waiting requests that have a key, best first.
fn ranked(r: &Round, rule: Rule) -> Vec<Pick> {
    let cs = r
        .c_plan
        .iter()
        .enumerate()
        .filter_map(|(i, q)| rule.key(r, q).map(|k| (k, Pick::C(i))));
    let ds = r
        .pending
        .iter()
        .enumerate()
        .filter(|(_, q)| !q.deferred)
        .filter_map(|(i, q)| rule.key(r, q).map(|k| (k, Pick::D(i))));
    let mut all: Vec<_> = cs.chain(ds).collect();
    all.sort_by(|a, b| a.0 .0.total_cmp(&b.0 .0).then(a.0 .1.total_cmp(&b.0 .1)));
    all.into_iter().map(|(_, p)| p).collect()
}
