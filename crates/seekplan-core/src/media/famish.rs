//! OPS FAMISH (FAir MIXed-scan Scheduling): the round's C-requests in SCAN
//! order; D-requests, taken strictly in arrival order, are slotted into the
//! SCAN at their cylinder while the whole schedule still ends within the
//! round. The first that does not fit stops the insertion, so no D-request
//! is served in an earlier round than one that arrived before it.
//!
//! The plan is made once, at the round's start, from the D-requests waiting
//! then (the paper's steps 1-5); later arrivals wait for the next round.

use super::request::Request;
use super::round::{Dir, Round};
use super::Policy;
use crate::model::disk::Head;

/// OPS FAMISH.
pub struct Famish;

impl Policy for Famish {
    fn run(&self, r: &mut Round) {
        let dir = r.dir;
        let mut queue: Vec<Request> = r.pending.clone();
        queue.sort_by(|a, b| a.arrival_s.total_cmp(&b.arrival_s).then(a.id.cmp(&b.id)));
        let mut plan: Vec<Request> = r.c_plan.clone();
        // heads[k]: the head after the first k entries of `plan`.
        let mut heads: Vec<Head> = vec![r.head];
        for q in &plan {
            let last = *heads.last().expect("non-empty");
            heads.push(r.disk.serve(last, q.addr, q.bytes).0);
        }
        for d in queue {
            let key = |q: &Request| match dir {
                Dir::Up => q.addr.cylinder.0 as i64,
                Dir::Down => -(q.addr.cylinder.0 as i64),
            };
            let at = plan.partition_point(|q| key(q) <= key(&d));
            let mut h = heads[at];
            let mut tail = Vec::with_capacity(plan.len() - at + 1);
            for q in std::iter::once(&d).chain(&plan[at..]) {
                h = r.disk.serve(h, q.addr, q.bytes).0;
                tail.push(h);
            }
            if h.time_s > r.end_s {
                break;
            }
            plan.insert(at, d);
            heads.truncate(at + 1);
            heads.extend(tail);
        }
        for q in plan {
            match r.find(q.id, q.addr.cylinder) {
                Some(i) => r.serve_d(i),
                None => r.serve_c(0),
            }
        }
    }
}
