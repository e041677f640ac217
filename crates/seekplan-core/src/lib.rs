//! seekplan-core: what a storage device costs, in what order to serve it, and
//! how a whole system behaves over time. Pure Rust: no I/O, no globals.

pub mod archive;
pub mod atsp;
pub mod error;
pub mod library;
pub mod media;
pub mod model;
pub mod mounts;
pub mod order;
pub mod recall;
pub mod schema;
pub mod sim;
pub mod stop;
pub mod tape_rest;

pub use error::{Error, Result};
pub use order::{Moves, Schedule, Step};
