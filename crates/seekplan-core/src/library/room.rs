//! Memory a campaign keeps from one run over it for the next.
//!
//! A run fills its tapes' queues and its list of staging times, and the
//! kernel maps each page of them on first touch. A sweep runs one campaign
//! under many configurations, and the system allocator hands large freed
//! blocks back to the kernel after each run, so every run used to pay those
//! page faults again (about 1,000 a run at queue 30,000, 1-3 µs each on a
//! virtual machine). The campaign keeps the buffers of its last run
//! instead: they live as long as the campaign, and two runs at once over
//! one campaign simply do not share them.

use super::system::Stop;
use std::sync::Mutex;

/// Buffers a run leaves behind, emptied but with their room: the tapes'
/// queue buffers (stacked by the tape system for its next run; a run
/// clears each before use), the tape system's sort keys, the staging times
/// and the requester's ranks.
#[derive(Default)]
pub(crate) struct RunRoom {
    /// Per-tape buffers of queued reads.
    pub queues: Vec<Vec<Stop>>,
    /// Scratch keys for sorting a batch.
    pub keys: Vec<u64>,
    /// Staging times as bits.
    pub times: Vec<u64>,
    /// The requester's ranks of waiting requests (the random strategy's).
    pub ranks: Vec<u32>,
}

/// The room kept by a campaign: at most one [`RunRoom`], taken by a run at
/// its start and given back at its end.
pub(crate) struct KeptRoom(Mutex<Option<RunRoom>>);

impl KeptRoom {
    /// The kept room, or an empty one if none is kept (or another run holds
    /// it).
    pub fn take(&self) -> RunRoom {
        match self.0.try_lock() {
            Ok(mut kept) => kept.take().unwrap_or_default(),
            Err(_) => RunRoom::default(),
        }
    }

    /// Keeps `room` for the next run (its contents are cleared on use).
    pub fn keep(&self, room: RunRoom) {
        if let Ok(mut kept) = self.0.try_lock() {
            *kept = Some(room);
        }
    }
}

impl Default for KeptRoom {
    fn default() -> Self {
        KeptRoom(Mutex::new(None))
    }
}

/// A copy of a campaign starts with no room of its own.
impl Clone for KeptRoom {
    fn clone(&self) -> Self {
        KeptRoom::default()
    }
}

impl std::fmt::Debug for KeptRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptRoom")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_is_taken_once_and_kept_for_the_next_run() {
        let kept = KeptRoom::default();
        let mut room = kept.take();
        room.times.reserve(1000);
        kept.keep(room);
        assert!(kept.take().times.capacity() >= 1000);
        assert_eq!(kept.take().times.capacity(), 0, "taken already");
    }
}
