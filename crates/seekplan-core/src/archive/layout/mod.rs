//! Where each block of a file goes on which cartridge, one file per policy
//! (RAIT, PARALLEL, VERTICAL). `types` holds what they share and depends on
//! none of them; `writer` is the trait they implement and the list of them.

mod parallel;
mod rait;
mod types;
mod vertical;
mod writer;

pub use parallel::ParallelWriter;
pub use rait::RaitWriter;
pub use types::{phys_bytes, Content, FileSpec, Piece, Record, TapeId, Tapes, Unit};
pub use vertical::VerticalWriter;
pub use writer::{Layout, Policy, PolicyName, Writer};
