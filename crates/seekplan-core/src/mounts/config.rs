//! What a mount replay is configured with: drives, the three cartridge
//! policies (dismount, eviction, placement) and the library's robotics.
//! The schema, defaults and checks live here; Python resolves catalog names.

use super::geometry::Geometry;
use crate::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most drives a replay may have: four SL8500s hold 256, a TFinity 480.
pub const MAX_DRIVES: usize = 4096;
/// Longest dismount delay or time figure accepted, in seconds (a year).
pub const MAX_SECONDS: f64 = 365.0 * 86_400.0;

/// One mount replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct MountConfig {
    /// Tape drives in the library.
    pub drives: usize,
    /// When a drive gives back a cartridge nobody is using.
    pub dismount: Dismount,
    /// Which idle cartridge makes room when a request finds no empty drive.
    pub eviction: EvictionPolicy,
    /// Where a dismounted cartridge goes.
    pub placement: Placement,
    /// Seconds a drive needs to load and thread a cartridge the robot put in.
    pub load_s: f64,
    /// Seconds a drive needs to rewind and unload before the robot can take it.
    pub unload_s: f64,
    /// The robotics: a constant move time, or a library's geometry.
    pub library: Library,
    /// Seed of the random eviction policy and of the home slots.
    pub seed: u64,
}

impl Default for MountConfig {
    fn default() -> Self {
        MountConfig {
            // [choice] a mid-sized library's drive count (ECMWF's complex had
            // more; `--drives` sets the site's own).
            drives: 16,
            dismount: Dismount::default(),
            eviction: EvictionPolicy::Lru,
            placement: Placement::Home,
            // [dC] the T10000D's load and unload (docs/catalog.md), the
            // recall simulator's default drive.
            load_s: 13.0,
            unload_s: 23.0,
            library: Library::default(),
            seed: 1,
        }
    }
}

/// When an idle cartridge leaves its drive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Dismount {
    /// As soon as its last queued request is done.
    Immediate,
    /// After `delay_s` seconds idle (HPSS, Enstore, CTA and TSM all have one).
    Fixed {
        /// Seconds a cartridge stays mounted with nothing to do.
        delay_s: f64,
    },
    /// Per cartridge, from its own re-reference gaps: a cartridge whose
    /// typical gap (an exponentially weighted mean, weight 1/2 on the newest)
    /// is at most `max_delay_s` waits twice that gap (capped at
    /// `max_delay_s`); one whose gap is longer leaves at once; one never
    /// re-referenced yet waits `first_delay_s`.
    Adaptive {
        /// Longest wait.
        max_delay_s: f64,
        /// Wait of a cartridge with no observed gap yet.
        first_delay_s: f64,
    },
}

impl Default for Dismount {
    fn default() -> Self {
        // [choice] five minutes: a common site setting (CTA's and Enstore's
        // defaults are of this order); the sweep shows the site its own.
        Dismount::Fixed { delay_s: 300.0 }
    }
}

/// Which idle cartridge is dismounted to make room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EvictionPolicy {
    /// Least recently used.
    Lru,
    /// Least frequently used (references so far; ties by recency).
    Lfu,
    /// Mounted longest ago.
    Fifo,
    /// Uniformly at random (seeded).
    Random,
    /// Adaptive Replacement Cache (Megiddo & Modha, FAST'03).
    Arc,
    /// Belady's offline choice: needed furthest in the future.
    Belady,
}

impl EvictionPolicy {
    /// Every policy, online ones first.
    pub const ALL: [EvictionPolicy; 6] = [
        EvictionPolicy::Lru,
        EvictionPolicy::Lfu,
        EvictionPolicy::Fifo,
        EvictionPolicy::Random,
        EvictionPolicy::Arc,
        EvictionPolicy::Belady,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            EvictionPolicy::Lru => "lru",
            EvictionPolicy::Lfu => "lfu",
            EvictionPolicy::Fifo => "fifo",
            EvictionPolicy::Random => "random",
            EvictionPolicy::Arc => "arc",
            EvictionPolicy::Belady => "belady",
        }
    }
}

/// Where a dismounted cartridge is put back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Its own home slot (ACSLS's fixed home cells).
    Home,
    /// The free slot nearest the drive it leaves (ACSLS's "float").
    NearestFree,
    /// Hot cartridges (referenced at least `hot_references` times, see
    /// [`HOT_REFERENCES`]) to the free slot nearest the drive; the rest home.
    Promote,
}

/// References that make a cartridge hot for [`Placement::Promote`].
/// [choice] two: a cartridge seen again is likely to be seen a third time
/// (the re-reference skew of tape traces); one would promote everything.
pub const HOT_REFERENCES: u32 = 2;

/// The robotics that move cartridges between slots and drives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Library {
    /// `arms` robots, each move a constant time wherever the cartridge is.
    Constant {
        /// Robots working at once.
        arms: usize,
        /// Seconds to bring a cartridge from its slot to a drive.
        fetch_s: f64,
        /// Seconds to take a cartridge from a drive back to a slot.
        return_s: f64,
    },
    /// Rails, handbots, elevators and pass-through ports: a move's time
    /// comes from the distance.
    Geometry(Geometry),
}

impl Default for Library {
    fn default() -> Self {
        // The SL8500's catalog figures (devices.toml: [ACSLS-L] 10-15 s a
        // move, four handbots).
        Library::Constant {
            arms: 4,
            fetch_s: 12.5,
            return_s: 12.5,
        }
    }
}

/// `v` as a person reads it: plain below a million, else in scientific
/// notation (`1e300`, not three hundred digits).
pub(crate) fn shown(v: f64) -> String {
    if v.is_finite() && v.abs() < 1e6 {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// Fails unless `v` is a finite number in `0..=MAX_SECONDS`.
pub(crate) fn check_seconds(field: &str, v: f64) -> Result<()> {
    if !v.is_finite() || !(0.0..=MAX_SECONDS).contains(&v) {
        return Err(Error::invalid(
            field,
            format!(
                "must be between 0 and {MAX_SECONDS} seconds (a year), got {}",
                shown(v)
            ),
        ));
    }
    Ok(())
}

impl MountConfig {
    /// Checks every value; the error names the field.
    pub fn validate(&self) -> Result<()> {
        if self.drives == 0 || self.drives > MAX_DRIVES {
            return Err(Error::invalid(
                "drives",
                format!("must be between 1 and {MAX_DRIVES}, got {}", self.drives),
            ));
        }
        match self.dismount {
            Dismount::Immediate => {}
            Dismount::Fixed { delay_s } => check_seconds("dismount.delay_s", delay_s)?,
            Dismount::Adaptive {
                max_delay_s,
                first_delay_s,
            } => {
                check_seconds("dismount.max_delay_s", max_delay_s)?;
                check_seconds("dismount.first_delay_s", first_delay_s)?;
            }
        }
        check_seconds("load_s", self.load_s)?;
        check_seconds("unload_s", self.unload_s)?;
        match &self.library {
            Library::Constant {
                arms,
                fetch_s,
                return_s,
            } => {
                if *arms == 0 || *arms > MAX_DRIVES {
                    return Err(Error::invalid(
                        "library.arms",
                        format!("must be between 1 and {MAX_DRIVES}, got {arms}"),
                    ));
                }
                check_seconds("library.fetch_s", *fetch_s)?;
                check_seconds("library.return_s", *return_s)?;
                if self.placement != Placement::Home {
                    return Err(Error::invalid(
                        "placement",
                        "a library without geometry has no slot positions: only `home` applies",
                    ));
                }
            }
            Library::Geometry(g) => {
                g.validate().map_err(|e| e.in_section("library"))?;
                if self.drives > g.drive_bays() {
                    return Err(Error::invalid(
                        "drives",
                        format!(
                            "the library has {} drive bays, got {} drives",
                            g.drive_bays(),
                            self.drives
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}
