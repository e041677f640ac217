//! GSS (Group Sweeping Scheduling): the streams are split into G groups
//! (stream i in group i mod G); the groups are served in turn, each by SCAN.
//! GSS schedules continuous data only, so D-requests are served after the
//! C-requests, by SCAN, until the round ends (a two-phase round).

use super::request::Request;
use super::round::{Dir, Round};
use super::sweep::{sweep, Grouping};
use super::Policy;

/// Group sweeping scheduling with `groups` groups.
pub struct Gss {
    /// Number of groups G (1 is SCAN, one per stream is round-robin).
    pub groups: u32,
}

impl Policy for Gss {
    fn order_c(&self, plan: &mut [Request], dir: Dir) {
        let g = self.groups.max(1);
        plan.sort_by_key(|q| {
            let c = q.addr.cylinder.0 as i64;
            (q.stream % g, if dir == Dir::Up { c } else { -c })
        });
    }

    fn run(&self, r: &mut Round) {
        r.serve_all_c();
        sweep(r, Grouping::Requests { max: 1 }, 0.0);
    }
}
