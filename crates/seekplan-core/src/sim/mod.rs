//! A small, fast discrete-event engine: a simulated clock in seconds, an event
//! calendar with deterministic tie-breaking (a heap of any events, or fixed
//! slots of one event each), FIFO resources, and a [`Model`] trait through
//! which components talk by scheduling events.
//!
//! The engine knows nothing about tapes: a model defines its own event type
//! (usually an enum naming the component each event is for) and handles one
//! event at a time, scheduling more on the [`Calendar`] it is given.

mod calendar;
mod resource;
mod run;
mod slots;

pub use calendar::{Calendar, EventId};
pub use resource::Resource;
pub use run::{run, Model, RunStats};
pub use slots::SlotCalendar;

/// Simulated time in seconds since the start of a run.
pub type Time = f64;
