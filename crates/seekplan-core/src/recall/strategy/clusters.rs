//! Requests grouped by tape, with a set of active tapes whose requests are
//! passed on round-robin: the machinery shared by the clustering strategies
//! (by-tapes and dcache), which differ only in which tape they activate next.

use super::Tapes;
use crate::library::{Request, TapeSpec};
use crate::sim::Time;
use std::collections::VecDeque;

/// The pending requests of one tape.
#[derive(Clone, Default)]
pub(super) struct TapePending {
    /// Requests in arrival order.
    pub files: VecDeque<Request>,
    /// Arrival time of each file in `files`.
    pub arrivals: VecDeque<Time>,
    /// Bytes pending.
    pub bytes: u64,
    /// Arrival of the newest pending request.
    pub last_arrival: Time,
    /// Whether the tape's requests are being passed on.
    pub active: bool,
}

/// Pending requests by tape and the active tapes being drained.
pub(super) struct Clusters {
    /// Every tape's capacity and use.
    pub specs: Vec<TapeSpec>,
    pub tapes: Vec<TapePending>,
    max_active: usize,
    active: Vec<u32>,
    turn: usize,
    /// Requests pending over all tapes.
    waiting: usize,
    /// Last time a selection found nothing eligible (skip re-scans then).
    fruitless_at: Option<Time>,
}

impl Clusters {
    /// No pending requests; at most `max_active` tapes active at a time.
    pub fn new(tapes: &Tapes<'_>, max_active: usize) -> Self {
        // Room for every expected request of each tape up front: arrivals
        // then never grow a queue (a whole campaign may arrive at time 0).
        let queue = |n: usize| TapePending {
            files: VecDeque::with_capacity(n),
            arrivals: VecDeque::with_capacity(n),
            ..TapePending::default()
        };
        let tapes_pending = match tapes.expected {
            Some(expected) => expected.iter().map(|&n| queue(n)).collect(),
            None => vec![TapePending::default(); tapes.specs.len()],
        };
        Clusters {
            specs: tapes.specs.to_vec(),
            tapes: tapes_pending,
            max_active,
            active: Vec::new(),
            turn: 0,
            waiting: 0,
            fruitless_at: None,
        }
    }

    /// Files a request under its tape, arrived at `now`.
    pub fn add(&mut self, f: Request, now: Time) {
        let t = &mut self.tapes[f.tape as usize];
        t.files.push_back(f);
        t.arrivals.push_back(now);
        t.bytes += f.size;
        t.last_arrival = now;
        self.waiting += 1;
        self.fruitless_at = None;
    }

    /// Whether any request is pending.
    pub fn any_waiting(&self) -> bool {
        self.waiting > 0
    }

    /// Tapes with pending requests that are not active, with their indices.
    pub fn candidates(&self) -> impl Iterator<Item = (usize, &TapePending)> {
        self.tapes
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.active && !p.files.is_empty())
    }

    /// Fills the free active slots with the tapes `select` picks (None: no
    /// tape is eligible now), then passes on the next request of the active
    /// tapes in round-robin order.
    pub fn take(
        &mut self,
        now: Time,
        mut select: impl FnMut(&Self, Time) -> Option<u32>,
    ) -> Option<Request> {
        while self.active.len() < self.max_active && self.fruitless_at != Some(now) {
            match select(self, now) {
                Some(t) => {
                    self.tapes[t as usize].active = true;
                    self.active.push(t);
                }
                None => self.fruitless_at = Some(now),
            }
        }
        if self.active.is_empty() {
            return None;
        }
        self.turn %= self.active.len();
        let t = self.active[self.turn] as usize;
        let pending = &mut self.tapes[t];
        let request = pending
            .files
            .pop_front()
            .expect("active tapes have requests");
        pending.arrivals.pop_front();
        pending.bytes -= request.size;
        self.waiting -= 1;
        if pending.files.is_empty() {
            pending.active = false;
            self.active.remove(self.turn);
        } else {
            self.turn += 1;
        }
        Some(request)
    }
}
