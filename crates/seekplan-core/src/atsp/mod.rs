//! Solvers for asymmetric travelling-salesman paths over any cost function:
//! they know nothing of tapes or disks. Ordering (`order/`) and the media
//! server's in-cluster scheduler (`media/`) both call them.

mod arborescence;
mod bnb;
mod held_karp;
mod lap;
mod line;
mod patch;
mod reduced;
mod relaxation;
mod sparse_lap;
mod sparse_reads;
#[cfg(test)]
mod test_costs;

pub use arborescence::additive_bound;
pub use bnb::{branch_and_bound, branch_and_bound_from, Budget, Search};
pub use held_karp::{held_karp, MAX_NODES};
pub use lap::{assignment, assignment_until, Assignment};
pub use line::{Line, OnLine};
pub use patch::{cheapest_exchange, cycles, merge_cycles, patch, Merge};
pub use sparse_lap::{sparse_assignment, sparse_assignment_within, Costs};
