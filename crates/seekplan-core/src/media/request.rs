//! The two kinds of request a media-server disk serves.

use crate::model::disk::DiskAddress;

/// Continuous (a stream's next fragment, due by the round's end) or discrete
/// (best effort, measured by response time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A continuous-media fragment: missing the round is a glitch.
    Continuous,
    /// A discrete request (text, image): best effort.
    Discrete,
}

/// One request: where its data lies, how big it is and when it arrived.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Request {
    /// Unique within a run.
    pub id: u64,
    /// Continuous or discrete.
    pub class: Class,
    /// Where the data starts on the disk.
    pub addr: DiskAddress,
    /// Size in bytes.
    pub bytes: u64,
    /// Arrival time in seconds (a C-request arrives when its round begins).
    pub arrival_s: f64,
    /// For a C-request, the stream it belongs to (0-based); 0 for D-requests.
    pub stream: u32,
    /// Set when an admission check failed; cleared when the next C-request is
    /// served, so a refused request is not re-tried at every step.
    pub(crate) deferred: bool,
}
