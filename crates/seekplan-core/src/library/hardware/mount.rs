//! Mount and unmount (Johnson & Miller §5.3, Table 4): load and unload are
//! nearly deterministic; what happens to the tape before unload depends on
//! the package: cartridges rewind, the Ampex cassette moves to the nearest
//! landing zone, the Sony cassette rewinds or moves to end-of-data,
//! whichever is nearer.

use serde::{Deserialize, Serialize};

/// What the drive does with the tape before an unload without a rewind.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum UnmountPolicy {
    /// The tape must be rewound (cartridges, 4mm DAT).
    Rewind,
    /// Move to the nearest landing ("system") zone; zones every `spacing` of
    /// the tape length, starting at BOT (Ampex DST 310).
    LandingZones {
        /// Distance between zones as a fraction of the tape length.
        spacing: f64,
    },
    /// Rewind or move to end-of-data, whichever is nearer (Sony DTF).
    NearerOfBotOrEod,
}

/// Seconds of the tape motions a mount or unmount needs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MountSpec {
    /// From the robot's insert to ready.
    pub load_s: f64,
    /// From the unload command (tape at BOT or in a zone) to ejectable.
    pub unload_s: f64,
    /// Startup of a wind to BOT, a zone or EOD.
    pub wind_startup_s: f64,
    /// Added seconds to wind the whole tape length.
    pub wind_full_s: f64,
    /// What the drive does before unloading mid-tape.
    pub policy: UnmountPolicy,
    /// Extra seconds on the first seek after a mount at mid-tape (Ampex: 25 s, §5.4.1).
    #[serde(default)]
    pub midtape_first_seek_s: f64,
}

impl MountSpec {
    fn wind(&self, distance: f64) -> f64 {
        if distance <= 0.0 {
            0.0
        } else {
            self.wind_startup_s + self.wind_full_s * distance
        }
    }

    /// Seconds to unmount with the head at longitudinal position `lpos` (0 =
    /// BOT, 1 = EOT) after a rewind to BOT.
    pub fn unmount_rewound_s(&self, lpos: f64) -> f64 {
        self.wind(lpos) + self.unload_s
    }

    /// Seconds to unmount without a rewind where the drive allows it (falls
    /// back to a rewind for cartridges); `eod` is the end-of-data position.
    /// Also returns where the tape rests, for the next mount.
    pub fn unmount_s(&self, lpos: f64, eod: f64) -> (f64, f64) {
        match self.policy {
            UnmountPolicy::Rewind => (self.unmount_rewound_s(lpos), 0.0),
            UnmountPolicy::LandingZones { spacing } => {
                let zone = if spacing > 0.0 {
                    ((lpos / spacing).round() * spacing).min(1.0)
                } else {
                    0.0
                };
                (self.wind((lpos - zone).abs()) + self.unload_s, zone)
            }
            UnmountPolicy::NearerOfBotOrEod => {
                let to_eod = (eod - lpos).abs();
                if to_eod < lpos {
                    (self.wind(to_eod) + self.unload_s, eod)
                } else {
                    (self.unmount_rewound_s(lpos), 0.0)
                }
            }
        }
    }

    /// Seconds from insert to ready, plus the first-seek penalty when the tape
    /// rests away from BOT.
    pub fn mount_s(&self, rest_lpos: f64) -> f64 {
        self.load_s
            + if rest_lpos > 0.0 {
                self.midtape_first_seek_s
            } else {
                0.0
            }
    }
}
