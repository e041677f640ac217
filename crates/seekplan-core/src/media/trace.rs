//! An optional record of every service a run made, in order, so a schedule
//! can be re-timed from the disk model alone (tests, debugging). Recorded
//! only when asked for ([`super::simulate_traced`]).

use super::request::Class;
use crate::model::disk::{Cylinder, DiskAddress};

/// One served request, timed as the scheduler timed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Served {
    /// The request's id.
    pub id: u64,
    /// Continuous or discrete.
    pub class: Class,
    /// Cylinder the head was on when the service began.
    pub from: Cylinder,
    /// Where the data starts.
    pub addr: DiskAddress,
    /// Size in bytes.
    pub bytes: u64,
    /// When the request arrived.
    pub arrival_s: f64,
    /// When the seek began.
    pub start_s: f64,
    /// Seek seconds.
    pub seek_s: f64,
    /// Rotational delay seconds.
    pub rotation_s: f64,
    /// Transfer seconds.
    pub transfer_s: f64,
    /// When the transfer ended.
    pub end_s: f64,
}

/// One round: its bounds, its services in order, and the totals the run's
/// metrics counted for it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundTrace {
    /// When the round began.
    pub start_s: f64,
    /// When the round ended (the C-requests' deadline).
    pub end_s: f64,
    /// The services, in the order they were made.
    pub served: Vec<Served>,
    /// Service seconds counted for C-requests.
    pub c_busy_s: f64,
    /// Sum of the D-requests' response times counted.
    pub d_response_s: f64,
    /// Glitches counted.
    pub glitches: u64,
}
