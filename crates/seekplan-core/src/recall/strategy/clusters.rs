//! Requests grouped by tape, with a set of active tapes whose requests are
//! passed on round-robin: the machinery shared by the clustering strategies
//! (by-tapes and dcache), which differ only in which tape they activate next.
//!
//! Requests handed in one by one ([`Clusters::add`]) are kept per tape. A
//! queue built for a campaign keeps no copies: a campaign's requests arrive
//! in arrival order, so each tape's pending requests are always a run of the
//! campaign's [`Campaign::tape_requests`], and [`Clusters::admit`] only moves
//! the end of that run.

use super::Tapes;
use crate::library::{prefetch, Campaign, Request, TapeSpec};
use crate::sim::Time;
use std::collections::VecDeque;

/// How many requests ahead of a tape's next one [`Clusters::take`] asks the
/// memory for (a few cache lines).
const PREFETCH_AHEAD: usize = 8;

/// The pending requests of one tape.
#[derive(Clone, Default)]
pub(super) struct TapePending {
    /// Requests in arrival order (queues without a campaign).
    pub files: VecDeque<Request>,
    /// Arrival time of each file in `files`.
    pub arrivals: VecDeque<Time>,
    /// Bytes pending (queues without a campaign).
    pub bytes: u64,
    /// Index of the tape's next pending request in the campaign's
    /// [`Campaign::requests_by_tape`] (queues built for a campaign): one
    /// index into one array, where a tape's own slice cost a take two more
    /// loads and three bounds checks.
    next: usize,
    /// Requests pending.
    pub len: usize,
    /// Arrival of the newest pending request.
    pub last_arrival: Time,
    /// Whether the tape's requests are being passed on.
    pub active: bool,
}

/// Pending requests by tape and the active tapes being drained.
pub(super) struct Clusters<'a> {
    /// Every tape's capacity and use.
    pub specs: Vec<TapeSpec>,
    pub tapes: Vec<TapePending>,
    /// The campaign whose requests the queue holds by position, if any.
    campaign: Option<&'a Campaign>,
    max_active: usize,
    active: Vec<u32>,
    turn: usize,
    /// Requests pending over all tapes.
    waiting: usize,
    /// Last time a selection found nothing eligible (skip re-scans then).
    fruitless_at: Option<Time>,
}

impl<'a> Clusters<'a> {
    /// No pending requests; at most `max_active` tapes active at a time.
    /// With `by_position`, requests come from `tapes.campaign` through
    /// [`Clusters::admit`]; otherwise they are copied in by [`Clusters::add`].
    pub fn new(tapes: &Tapes<'_, 'a>, max_active: usize, by_position: bool) -> Self {
        let campaign = tapes.campaign.filter(|_| by_position);
        // Room for every expected request of each tape up front: arrivals
        // then never grow a queue (a whole campaign may arrive at time 0).
        let queue = |n: usize| TapePending {
            files: VecDeque::with_capacity(n),
            arrivals: VecDeque::with_capacity(n),
            ..TapePending::default()
        };
        let tapes_pending = match (tapes.campaign, campaign) {
            (Some(c), None) => c.files_per_tape().iter().map(|&n| queue(n)).collect(),
            (_, Some(c)) => (0..tapes.specs.len() as u32)
                .map(|t| TapePending {
                    next: c.tape_requests_start(t),
                    ..TapePending::default()
                })
                .collect(),
            (None, None) => vec![TapePending::default(); tapes.specs.len()],
        };
        Clusters {
            specs: tapes.specs.to_vec(),
            tapes: tapes_pending,
            campaign,
            max_active,
            active: Vec::new(),
            turn: 0,
            waiting: 0,
            fruitless_at: None,
        }
    }

    /// Files a request under its tape, arrived at `now`.
    pub fn add(&mut self, f: Request, now: Time) {
        debug_assert!(self.campaign.is_none(), "campaign requests are admitted");
        let t = &mut self.tapes[f.tape as usize];
        t.files.push_back(f);
        t.arrivals.push_back(now);
        t.bytes += f.size;
        self.arrived(f.tape, now);
    }

    /// The campaign's next requests arrived at `now`: `arrivals` gives,
    /// in arrival order, a tape and how many of its requests arrived (a run
    /// of requests on one tape may come as one entry); `then` sees each
    /// tape's pending requests after the entry, in the same pass. The
    /// counts shared by all move once (a whole campaign may arrive at once).
    pub fn admit(
        &mut self,
        arrivals: impl IntoIterator<Item = (u32, usize)>,
        now: Time,
        mut then: impl FnMut(u32, &TapePending),
    ) {
        debug_assert!(
            self.campaign.is_some(),
            "only campaign requests are admitted"
        );
        let mut arrived = 0;
        for (tape, n) in arrivals {
            let t = &mut self.tapes[tape as usize];
            t.len += n;
            t.last_arrival = now;
            arrived += n;
            then(tape, t);
        }
        if arrived > 0 {
            self.waiting += arrived;
            self.fruitless_at = None;
        }
    }

    fn arrived(&mut self, tape: u32, now: Time) {
        let t = &mut self.tapes[tape as usize];
        t.len += 1;
        t.last_arrival = now;
        self.waiting += 1;
        self.fruitless_at = None;
    }

    /// At most `max_active` tapes active from now on. Lowering it
    /// deactivates no tape: the active ones are drained to the end, their
    /// requests kept together, and no other is activated meanwhile.
    pub fn set_max_active(&mut self, max_active: usize) {
        self.max_active = max_active;
    }

    /// How many tapes may be active at a time.
    pub fn max_active(&self) -> usize {
        self.max_active
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
            .filter(|(_, p)| !p.active && p.len > 0)
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
        // A take moves the turn one on or removes the tape at it, so the
        // turn is at most one past the end: wrap without a division.
        if self.turn >= self.active.len() {
            self.turn = 0;
        }
        let t = self.active[self.turn];
        let pending = &mut self.tapes[t as usize];
        let request = match self.campaign {
            Some(c) => {
                let requests = c.requests_by_tape();
                let request = requests[pending.next];
                pending.next += 1;
                // The tape's requests are read in order, a turn apart: ask
                // for the next lines ahead of time (past the tape's last,
                // the next tape's first: a harmless hint).
                if let Some(ahead) = requests.get(pending.next + PREFETCH_AHEAD) {
                    prefetch(ahead);
                }
                request
            }
            None => {
                pending.arrivals.pop_front();
                let request = pending
                    .files
                    .pop_front()
                    .expect("active tapes have requests");
                pending.bytes -= request.size;
                request
            }
        };
        pending.len -= 1;
        self.waiting -= 1;
        if pending.len == 0 {
            pending.active = false;
            self.active.remove(self.turn);
        } else {
            self.turn += 1;
        }
        Some(request)
    }
}
