//! One round's state and the moves every algorithm is built from: admit
//! arrivals, check that a request still leaves time for the C-requests, serve.
//!
//! The admission rule that keeps glitches at zero: the remaining C-requests,
//! served in the round's C-plan order from wherever the head would be, must
//! finish by the round's end. It holds when the round starts (if the C-plan
//! alone fits) and every serve keeps it, except the forced serve of the plan's
//! next C-request, which keeps it by definition.

use super::metrics::Metrics;
use super::request::{Class, Request};
use super::trace::Served;
use crate::model::disk::{Access, Cylinder, DiskSpec, Head};
use std::collections::VecDeque;

/// Sweep direction over the cylinders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Towards higher cylinder numbers.
    Up,
    /// Towards lower cylinder numbers.
    Down,
}

impl Dir {
    /// The other direction.
    pub fn reversed(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
        }
    }

    /// Cylinders from `from` forward to `to`, or None if `to` is behind.
    pub fn ahead(self, from: Cylinder, to: Cylinder) -> Option<u32> {
        match self {
            Dir::Up if to >= from => Some(to.0 - from.0),
            Dir::Down if to <= from => Some(from.0 - to.0),
            _ => None,
        }
    }
}

/// The state of one round while an algorithm schedules it.
pub struct Round<'a> {
    /// The disk being scheduled.
    pub disk: &'a DiskSpec,
    /// Where the head is and what time it is.
    pub head: Head,
    /// When the round began.
    pub start_s: f64,
    /// When the round ends: the C-requests' deadline.
    pub end_s: f64,
    /// Current sweep direction.
    pub dir: Dir,
    /// C-requests not yet served, in the order the safety plan serves them.
    pub c_plan: Vec<Request>,
    /// Where the sweep starts before the head has served anything this
    /// round: the disk edge, for a SCAN from the edge (section 3.2: clusters
    /// are served "in some order (which in this paper is SCAN)").
    sweep_from: Option<Cylinder>,
    /// D-requests that have arrived and wait, sorted by cylinder.
    pub pending: Vec<Request>,
    incoming: VecDeque<Request>,
    ub_tail_s: f64,
    c_transfer_s: f64,
    max_seek_s: f64,
    /// Sums the run reports.
    pub metrics: &'a mut Metrics,
}

impl<'a> Round<'a> {
    /// A round from `start_s` to `end_s` with its C-plan (already ordered),
    /// the waiting D-requests (sorted by cylinder) and this round's arrivals.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        disk: &'a DiskSpec,
        head: Head,
        start_s: f64,
        end_s: f64,
        dir: Dir,
        c_plan: Vec<Request>,
        pending: Vec<Request>,
        arrivals: Vec<Request>,
        metrics: &'a mut Metrics,
    ) -> Self {
        let mut r = Round {
            disk,
            head: Head {
                cylinder: head.cylinder,
                time_s: head.time_s.max(start_s),
            },
            start_s,
            end_s,
            dir,
            c_plan,
            sweep_from: None,
            pending,
            incoming: arrivals.into(),
            ub_tail_s: 0.0,
            c_transfer_s: 0.0,
            max_seek_s: disk.seek_s(disk.cylinders - 1),
            metrics,
        };
        r.refresh_bound();
        r.admit();
        r
    }

    /// Ends the round: counts missed C-requests and returns the head and the
    /// D-requests still waiting (arrivals included).
    pub fn finish(mut self) -> (Head, Vec<Request>) {
        self.metrics.c_missed(self.c_plan.len());
        while let Some(d) = self.incoming.pop_front() {
            self.insert(d);
        }
        for d in &mut self.pending {
            d.deferred = false;
        }
        (self.head, self.pending)
    }

    fn insert(&mut self, d: Request) {
        let at = self
            .pending
            .partition_point(|p| p.addr.cylinder <= d.addr.cylinder);
        self.pending.insert(at, d);
    }

    /// Moves requests that have arrived by now into `pending`.
    pub fn admit(&mut self) {
        while self
            .incoming
            .front()
            .is_some_and(|d| d.arrival_s <= self.head.time_s)
        {
            let d = self.incoming.pop_front().expect("front exists");
            self.insert(d);
        }
    }

    /// Idles until the next arrival if one comes before the round ends.
    pub fn wait_for_arrival(&mut self) -> bool {
        match self.incoming.front() {
            Some(d) if d.arrival_s < self.end_s => {
                self.head.time_s = self.head.time_s.max(d.arrival_s);
                self.admit();
                true
            }
            _ => false,
        }
    }

    /// Spends `seconds` of CPU time (the disk waits for the schedule).
    pub fn charge_cpu(&mut self, seconds: f64) {
        self.head.time_s += seconds;
    }

    /// Upper bound of the C-plan's time after its first seek: cheap check
    /// that avoids simulating the plan while the round has time to spare.
    fn refresh_bound(&mut self) {
        let mut tail = 0.0;
        self.c_transfer_s = 0.0;
        let mut prev: Option<Cylinder> = None;
        for c in &self.c_plan {
            if let Some(p) = prev {
                tail += self.disk.seek_s(p.0.abs_diff(c.addr.cylinder.0));
            }
            let transfer = self.disk.transfer_s(c.bytes);
            self.c_transfer_s += transfer;
            tail += self.disk.rotation_s + transfer;
            prev = Some(c.addr.cylinder);
        }
        self.ub_tail_s = tail;
    }

    /// When the C-plan, minus entry `skip`, ends if started from `head`.
    pub fn plan_end(&self, mut head: Head, skip: Option<usize>) -> f64 {
        for (i, c) in self.c_plan.iter().enumerate() {
            if Some(i) != skip {
                head = self.disk.serve(head, c.addr, c.bytes).0;
            }
        }
        head.time_s
    }

    fn plan_fits_from(&self, head: Head, skip: Option<usize>) -> bool {
        // The plan needs at least its transfers: a cheap exact refusal.
        let skipped = skip.map_or(0.0, |i| self.disk.transfer_s(self.c_plan[i].bytes));
        if head.time_s + self.c_transfer_s - skipped > self.end_s + 1e-12 {
            return false;
        }
        if self.c_plan.is_empty()
            || (skip.is_none() && head.time_s + self.max_seek_s + self.ub_tail_s <= self.end_s)
        {
            return true;
        }
        self.plan_end(head, skip) <= self.end_s
    }

    /// Whether serving D-request `pending[i]` after `extra_s` seconds of CPU
    /// leaves time for every remaining C-request.
    pub fn fits_d(&self, i: usize, extra_s: f64) -> bool {
        let d = &self.pending[i];
        let start = Head {
            cylinder: self.head.cylinder,
            time_s: self.head.time_s + extra_s,
        };
        let (after, _) = self.disk.serve(start, d.addr, d.bytes);
        self.plan_fits_from(after, None)
    }

    /// Whether serving `c_plan[i]` now (out of plan order) keeps the rule.
    pub fn fits_c(&self, i: usize) -> bool {
        if i == 0 {
            return true;
        }
        let c = &self.c_plan[i];
        let (after, _) = self.disk.serve(self.head, c.addr, c.bytes);
        self.plan_fits_from(after, Some(i))
    }

    /// Serves D-request `pending[i]` and records its response time.
    pub fn serve_d(&mut self, i: usize) {
        let d = self.pending.remove(i);
        debug_assert_eq!(d.class, Class::Discrete);
        let (after, access) = self.disk.serve(self.head, d.addr, d.bytes);
        self.record(&d, access, after);
        self.head = after;
        self.sweep_from = None;
        self.metrics.d_done(self.head.time_s - d.arrival_s);
        self.admit();
    }

    /// Marks `pending[i]` as refused until the next C-request is served.
    pub fn defer(&mut self, i: usize) {
        self.pending[i].deferred = true;
    }

    /// Serves `c_plan[i]`; re-admits deferred D-requests.
    pub fn serve_c(&mut self, i: usize) {
        let c = self.c_plan.remove(i);
        let (after, access) = self.disk.serve(self.head, c.addr, c.bytes);
        self.record(&c, access, after);
        self.head = after;
        self.sweep_from = None;
        self.metrics
            .c_done(access.total_s(), after.time_s > self.end_s + 1e-12);
        for d in &mut self.pending {
            d.deferred = false;
        }
        self.refresh_bound();
        self.admit();
    }

    /// Records serving `q` from the current head (only when tracing).
    fn record(&mut self, q: &Request, access: Access, after: Head) {
        if self.metrics.is_tracing() {
            self.metrics.record(Served {
                id: q.id,
                class: q.class,
                from: self.head.cylinder,
                addr: q.addr,
                bytes: q.bytes,
                arrival_s: q.arrival_s,
                start_s: self.head.time_s,
                seek_s: access.seek_s,
                rotation_s: access.rotation_s,
                transfer_s: access.transfer_s,
                end_s: after.time_s,
            });
        }
    }

    /// Serves every remaining C-request in plan order.
    pub fn serve_all_c(&mut self) {
        while !self.c_plan.is_empty() {
            self.serve_c(0);
        }
    }

    /// Index in `pending` of the request with this id.
    pub fn find(&self, id: u64, cylinder: Cylinder) -> Option<usize> {
        let from = self.pending.partition_point(|p| p.addr.cylinder < cylinder);
        self.pending[from..]
            .iter()
            .take_while(|p| p.addr.cylinder == cylinder)
            .position(|p| p.id == id)
            .map(|k| from + k)
    }

    /// Starts this round's sweep at the disk edge it runs from (the lowest
    /// cylinder going up, the highest going down), so that every request on
    /// the disk is ahead of it, not only those past the head.
    pub fn sweep_from_edge(&mut self) {
        self.sweep_from = Some(match self.dir {
            Dir::Up => Cylinder(0),
            Dir::Down => Cylinder(self.disk.cylinders - 1),
        });
    }

    /// Where the sweep is: the edge it starts from until the head serves
    /// something, then the head.
    pub fn sweep_origin(&self) -> Cylinder {
        self.sweep_from.unwrap_or(self.head.cylinder)
    }

    /// Indices of eligible (not deferred) D-requests ahead of the sweep in the
    /// current direction, nearest first.
    pub fn ahead(&self) -> Vec<usize> {
        let h = self.sweep_origin();
        match self.dir {
            Dir::Up => {
                let from = self.pending.partition_point(|p| p.addr.cylinder < h);
                (from..self.pending.len())
                    .filter(|&i| !self.pending[i].deferred)
                    .collect()
            }
            Dir::Down => {
                let to = self.pending.partition_point(|p| p.addr.cylinder <= h);
                (0..to)
                    .rev()
                    .filter(|&i| !self.pending[i].deferred)
                    .collect()
            }
        }
    }

    /// Whether any D-request waits that has not been refused.
    pub fn any_eligible(&self) -> bool {
        self.pending.iter().any(|d| !d.deferred)
    }
}
