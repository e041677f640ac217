//! `best`'s bound-first search: PATCH's tour and Or-opt on it, branch and
//! bound where the gap is narrow, then the improving phases.

use super::improve::{alpha_follows, improve};
use crate::atsp::Assignment;
use crate::order::bnb::{Patience, BNB_LIMIT};
use crate::order::dense::Dense;
use crate::order::edge_bounds::EdgeBounds;
use crate::order::local_search::{descend, reversals_pay};
use crate::order::neighbours::Neighbours;
use crate::order::watch::Watch;
use crate::order::{bnb, patch, sltf, Options, Problem};
use crate::Moves;
use std::time::Instant;

/// Largest batch on a drive model that gets a PATCH seed above
/// [`BNB_LIMIT`]: its sparse assignment reads the moves its bound by
/// distance along the tape cannot rule out (0.4-0.9 n² at 6,000-12,000
/// requests; on explicit matrices it always runs: reading them is what a
/// matrix costs anyway). Where a batch leaves much of the tape unread the
/// seed leads to far shorter tours; where it covers the tape, reading it
/// all in one sweep is about as good and the seed only costs time.
/// `bench_large_batch.py DRIVE N best` (2026-11-28), this limit against
/// 12,000: LTO-10 at 16,000 / 20,000 requests 15.3 / 16.7 % shorter (4.3
/// -> 5.0 s, 5.7 -> 6.9 s), LTO-10P at 20,000 14.0 % (6.1 -> 6.4 s), LTO-9
/// at 16,000 / 20,000 6.9 / 2.1 % (3.5 -> 4.3 s, 4.4 -> 6.1 s); the same
/// totals on the other drives measured at up to 6 s more (DLT7000 at
/// 20,000 2.1 -> 8.3 s, Sony DTF 5.6 -> 11.9 s). At 30,000 LTO-10P would
/// still gain 13 % and LTO-10 5 %, but Sony DTF took 19.6 s and 4mm DAT
/// 18.6 s for the same totals, at the edge of the 20 s a batch of 100,000
/// may take.
const SPARSE_PATCH_LIMIT: usize = 20_000;

/// Branch and bound runs from the patched tour's local optimum, before the
/// constructive seeds, when that tour is at most this far above the bound
/// (a fraction of its total); otherwise after the seeds, from the cheapest
/// of them. LTO seek matrices of 100-1,000 nodes leave 0.02-3 % open
/// there, and branch and bound proves many of them optimal at once; the
/// DIMACS tilted families leave 18-22 % and crane at 100 nodes 11 %, where
/// branch and bound rarely finishes and the tour it returns seeds the local
/// search: from the constructive seeds, as before, rtilt at 316 nodes ends
/// 0.008 % shorter. Shop, coin and crane at 316 nodes (0.7-4.8 %) take the
/// early path and end on the same tours as before (2026-11-28).
const NARROW_GAP: f64 = 0.05;

/// `best`'s search once the bound and the candidate lists `near` are
/// known: PATCH's tour and Or-opt on it, branch and bound where the gap is
/// narrow, then the improving phases ([`improve`]), each only while the
/// gap is open and the time holds. Adds every tour to `candidates`;
/// whether an exact search proved its tour optimal.
pub(super) fn search(
    problem: &Problem,
    d: &Dense,
    near: Neighbours,
    sltf: Option<Vec<usize>>,
    watch: &mut Watch,
    options: &Options,
    candidates: &mut Vec<(Vec<usize>, Moves)>,
) -> bool {
    let n = problem.len();
    let mut proven = false;
    let stop = watch.stop();
    let reversals = reversals_pay(problem, d, &near);
    watch.phase("patching");
    let patching = n <= SPARSE_PATCH_LIMIT || problem.is_matrix();
    let root = patching
        .then(|| patch::stored_assignment(problem, d, &stop))
        .flatten();
    let mut first = patching
        .then(|| bnb::patched(d, &near, root.as_ref(), &stop))
        .flatten();
    let scope = Scope {
        problem,
        d,
        root: root.as_ref(),
        options,
    };
    // The tour branch and bound returns, where it ran; PATCH's otherwise:
    // the later phases' strongest seed.
    let mut searched = None;
    if let Some(order) = &mut first {
        watch.offer(d.tour(order));
        if !watch.done() {
            watch.phase("local search");
            descend(d, &near, order, reversals, &stop);
            watch.offer(d.tour(order));
        }
    }
    let narrow = first
        .as_ref()
        .and_then(|o| watch.open_gap(d.tour(o)))
        .is_some_and(|g| g <= NARROW_GAP);
    if n <= BNB_LIMIT && narrow && !watch.done() {
        // Branch and bound from the patched tour's local optimum (its
        // root's own patched assignment is its first incumbent): where
        // the gap is narrow it often proves the optimum in a fraction
        // of what the other phases would spend. Where the α ascent's
        // stronger bound follows, briefly: it proves the rest.
        let length = if alpha_follows(d, reversals) {
            Length::Brief
        } else {
            Length::Budgeted
        };
        let (order, optimal) = branch_and_bound(scope, first.as_deref(), None, watch, length);
        proven = optimal;
        searched = Some(order);
    }
    if !watch.done() {
        let before = Searched {
            tour: searched.clone().or_else(|| first.clone()),
            bnb_after_seeds: n <= BNB_LIMIT && !narrow,
            proven,
            sltf,
        };
        improve(scope, near, reversals, before, watch, candidates);
    } else if !watch.reached() {
        // Out of time before the seeds: SLTF's order at least, so the
        // result is never worse than it.
        let order = sltf.unwrap_or_else(|| sltf::plan_with(d));
        candidates.push((order, Moves::Locate));
    }
    candidates.extend(first.map(|o| (o, Moves::Locate)));
    candidates.extend(searched.map(|o| (o, Moves::Locate)));
    proven
}

/// What every phase of `best`'s search reads: the batch, its costs, the
/// root assignment where it was solved (see [`patch::stored_assignment`])
/// and the caller's options.
#[derive(Clone, Copy)]
pub(super) struct Scope<'s> {
    pub(super) problem: &'s Problem<'s>,
    pub(super) d: &'s Dense<'s>,
    pub(super) root: Option<&'s Assignment>,
    pub(super) options: &'s Options,
}

/// What the search left for the improving phases ([`improve`]).
pub(super) struct Searched {
    /// The tour they start from: branch and bound's where it ran, else the
    /// patched tour's local optimum.
    pub(super) tour: Option<Vec<usize>>,
    /// Branch and bound runs from that tour after the seeds (the gap was
    /// too wide for it to run first).
    pub(super) bnb_after_seeds: bool,
    /// An exact search proved its tour optimal.
    pub(super) proven: bool,
    /// SLTF's order, where known.
    pub(super) sltf: Option<Vec<usize>>,
}

/// How long one of `best`'s branch and bound searches goes on.
#[derive(Clone, Copy, Debug)]
pub(super) enum Length {
    /// Its own budget, within the time left ([`Patience::Budgeted`]).
    Budgeted,
    /// A short try before a stronger bound ([`Patience::Brief`]).
    Brief,
    /// Without a budget of its own until then: a caller's time limit
    /// spent on a proof.
    ProofUntil(Instant),
}

/// BNB from `incumbent` (and `scope`'s root assignment; `edges`, where the
/// α ascent ran, leaves out the edges no cheaper tour takes) as one phase
/// of `watch`, for `length`; whether it proved its tour optimal. That
/// proof is a bound on locate orders the tour meets, which ends the
/// search (on a drive's batch, where streaming cannot go below it).
pub(super) fn branch_and_bound(
    scope: Scope,
    incumbent: Option<&[usize]>,
    edges: Option<&EdgeBounds>,
    watch: &mut Watch,
    length: Length,
) -> (Vec<usize>, bool) {
    let Scope { d, root, .. } = scope;
    let (stop, patience) = match length {
        Length::Budgeted => (watch.stop(), Patience::Budgeted),
        Length::Brief => (watch.stop(), Patience::Brief),
        Length::ProofUntil(until) => (watch.stop_at(until), Patience::UntilStop),
    };
    watch.phase("branch and bound");
    let (order, optimal) = bnb::plan_with(d, incumbent, root, edges, &stop, patience);
    watch.offer(d.tour(&order));
    if optimal {
        watch.bound(d.tour(&order));
    }
    (order, optimal)
}
