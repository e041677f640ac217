//! The requester: requests wait here until the strategy passes them on.

use super::{DcacheRules, Strategy};
use crate::library::Campaign;
use crate::sim::Time;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Requests known to the requester but not yet passed to the tape system.
pub struct Requester<'a> {
    campaign: &'a Campaign,
    kind: Kind,
    rng: ChaCha8Rng,
}

enum Kind {
    Random(Vec<u32>),
    Fifo(VecDeque<u32>),
    Clustered(Box<Clusters>),
}

/// Pending requests grouped by tape, with the active tapes being drained.
struct Clusters {
    rules: Option<DcacheRules>,
    max_active: usize,
    tapes: Vec<TapePending>,
    /// Tapes in the order their oldest pending request arrived (may hold
    /// stale entries; checked on use).
    first_seen: VecDeque<u32>,
    active: Vec<u32>,
    turn: usize,
    /// Requests without tape information, with their arrival times.
    untaped: VecDeque<(u32, Time)>,
    /// Last time a selection found nothing eligible (skip re-scans then).
    fruitless_at: Option<Time>,
}

#[derive(Clone, Default)]
struct TapePending {
    files: VecDeque<u32>,
    arrivals: VecDeque<Time>,
    bytes: u64,
    last_arrival: Time,
    listed: bool,
    active: bool,
}

impl<'a> Requester<'a> {
    /// An empty requester following `strategy`, drawing from `rng`.
    pub fn new(strategy: &Strategy, campaign: &'a Campaign, rng: ChaCha8Rng) -> Self {
        let clusters = |rules: Option<DcacheRules>, max_active: usize| {
            Kind::Clustered(Box::new(Clusters {
                rules,
                max_active,
                tapes: vec![TapePending::default(); campaign.tapes.len()],
                first_seen: VecDeque::new(),
                active: Vec::new(),
                turn: 0,
                untaped: VecDeque::new(),
                fruitless_at: None,
            }))
        };
        let kind = match strategy {
            Strategy::Random => Kind::Random(Vec::new()),
            Strategy::ByDataset => Kind::Fifo(VecDeque::new()),
            Strategy::ByTapes { tapes } => clusters(None, *tapes),
            Strategy::Dcache(r) => clusters(Some(r.clone()), r.max_active_tapes),
        };
        Requester {
            campaign,
            kind,
            rng,
        }
    }

    /// A request for `file` arrives at `now`.
    pub fn arrive(&mut self, file: u32, now: Time) {
        match &mut self.kind {
            Kind::Random(v) => v.push(file),
            Kind::Fifo(q) => q.push_back(file),
            Kind::Clustered(c) => {
                let f = self.campaign.files[file as usize];
                if c.rules.is_some() && !f.tapeinfo {
                    c.untaped.push_back((file, now));
                    return;
                }
                let t = &mut c.tapes[f.tape as usize];
                t.files.push_back(file);
                t.arrivals.push_back(now);
                t.bytes += f.size;
                t.last_arrival = now;
                if !t.listed && !t.active {
                    t.listed = true;
                    c.first_seen.push_back(f.tape);
                }
                c.fruitless_at = None;
            }
        }
    }

    /// The next request to pass on at `now`, if the strategy releases one.
    pub fn take(&mut self, now: Time) -> Option<u32> {
        match &mut self.kind {
            Kind::Random(v) => {
                if v.is_empty() {
                    None
                } else {
                    let i = self.rng.gen_range(0..v.len());
                    Some(v.swap_remove(i))
                }
            }
            Kind::Fifo(q) => q.pop_front(),
            Kind::Clustered(c) => c.take(self.campaign, now),
        }
    }

    /// Whether requests wait here that only time can release (dCache rules).
    pub fn waits_on_time(&self) -> Option<f64> {
        match &self.kind {
            Kind::Clustered(c) => c.rules.as_ref().and_then(|r| {
                let waiting = !c.untaped.is_empty() || c.tapes.iter().any(|t| !t.files.is_empty());
                waiting.then_some(r.check_interval_s)
            }),
            _ => None,
        }
    }
}

impl Clusters {
    fn take(&mut self, campaign: &Campaign, now: Time) -> Option<u32> {
        if let Some(rules) = &self.rules {
            let timeout = rules
                .tapeinfo_timeout_s
                .unwrap_or(rules.max_time_in_queue_s);
            if let Some(&(file, at)) = self.untaped.front() {
                if now - at >= timeout {
                    self.untaped.pop_front();
                    return Some(file);
                }
            }
        }
        while self.active.len() < self.max_active && self.fruitless_at != Some(now) {
            match self.select(campaign, now) {
                Some(t) => {
                    self.tapes[t as usize].active = true;
                    self.tapes[t as usize].listed = false;
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
        let file = pending
            .files
            .pop_front()
            .expect("active tapes have requests");
        pending.arrivals.pop_front();
        pending.bytes -= campaign.files[file as usize].size;
        if pending.files.is_empty() {
            pending.active = false;
            self.active.remove(self.turn);
        } else {
            self.turn += 1;
        }
        Some(file)
    }

    /// The next tape to activate, or None if no tape is eligible now.
    fn select(&mut self, campaign: &Campaign, now: Time) -> Option<u32> {
        let Some(rules) = &self.rules else {
            // by-tapes: the tape whose oldest pending request came first.
            while let Some(t) = self.first_seen.pop_front() {
                let p = &self.tapes[t as usize];
                if p.listed && !p.active && !p.files.is_empty() {
                    return Some(t);
                }
            }
            return None;
        };
        let candidates = || {
            self.tapes
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.active && !p.files.is_empty())
        };
        // 1. A tape with an expired request: the one with the oldest request.
        let expired = candidates()
            .filter(|(_, p)| now - p.arrivals[0] >= rules.max_time_in_queue_s)
            .min_by(|a, b| a.1.arrivals[0].total_cmp(&b.1.arrivals[0]));
        if let Some((t, _)) = expired {
            return Some(t as u32);
        }
        // 2. Among tapes quiet for min_time_in_queue, the one with the most
        //    requested volume, if it passes the volume threshold.
        let quiet =
            || candidates().filter(|(_, p)| now - p.last_arrival >= rules.min_time_in_queue_s);
        let passes_volume = |t: usize, p: &TapePending| {
            let tape = campaign.tapes[t];
            let bytes = p.bytes as f64;
            bytes >= rules.min_tape_recall_pct / 100.0 * tape.capacity as f64
                || bytes >= rules.min_used_pct / 100.0 * tape.used as f64
        };
        let top = quiet().max_by(|a, b| a.1.bytes.cmp(&b.1.bytes).then(b.0.cmp(&a.0)));
        if let Some((t, p)) = top {
            if passes_volume(t, p) {
                return Some(t as u32);
            }
        }
        // 3. Otherwise a tape with enough requests: the one with most volume.
        let min_count = rules.min_request_count?;
        quiet()
            .filter(|(_, p)| p.files.len() >= min_count)
            .max_by(|a, b| a.1.bytes.cmp(&b.1.bytes).then(b.0.cmp(&a.0)))
            .map(|(t, _)| t as u32)
    }
}
