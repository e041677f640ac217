//! The recall config as users write it (YAML field names and units), with the
//! defaults of the dCache paper's T10000D library at KIT (Morschel et al.).
//! This is the schema of `seekplan simulate recall`: `seekplan schema recall`
//! prints it, and [`RecallConfig::to_spec`] turns it into the run's SI spec.

use super::{simulate, ByTapes, RecallOutcome, RecallSpec, Strategy};
use crate::library::MAX_DRIVES;
use crate::library::{
    Arrivals, Campaign, DriveTiming, Hardware, LibrarySpec, ReadModel, RobotTiming,
};
use crate::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most time-series samples a run may record (`duration_h` / `sample_s`):
/// a million samples is 24 MB of series, more than any plot shows.
pub const MAX_SAMPLES: f64 = 1e6;

/// Most wake-ups a time-based strategy may cause (`duration_h` / its check
/// interval): ten million is a few seconds of CPU.
pub const MAX_WAKES: f64 = 1e7;

/// Most events a run may be estimated to handle ([`RecallConfig::estimated_events`]):
/// a billion is minutes of CPU; the KIT campaign's 495,049 files need at most 4e6.
pub const MAX_EVENTS: f64 = 1e9;

/// The most events one requested file can cause: its arrival, its read, the
/// library's wake-ups around its submission and its read, and (each mount
/// reads at least one file) one mount of its tape: rewind and unload (one
/// event), the arm's return and fetch (one), load and thread (one). Rounded
/// up; a property test holds every run to the estimate it gives.
pub const EVENTS_PER_FILE: f64 = 8.0;

/// Robot arms moving cartridges between slots and drives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RobotConfig {
    /// Number of robot arms.
    pub arms: usize,
    /// Seconds for an arm to fetch a cartridge from its slot to a drive.
    pub fetch_s: f64,
    /// Seconds for an arm to return a cartridge from a drive to its slot.
    pub return_s: f64,
}

impl Default for RobotConfig {
    fn default() -> Self {
        // The paper gives no robot figures: its mount cost is the drive's
        // load time alone, so arm moves cost nothing by default.
        RobotConfig {
            arms: 1,
            fetch_s: 0.0,
            return_s: 0.0,
        }
    }
}

/// Drives and tape-system queue; defaults are KIT's 12 T10000D drives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LibraryConfig {
    /// Number of tape drives (KIT: 12, §4.2); at most 10,000.
    pub drives: usize,
    /// Drive read rate in MB/s (T10000D nominal, uncompressed: 252, §4.2).
    pub rate_mb_s: f64,
    /// Seconds to load a cartridge (T10000D: 13, §4.2).
    pub load_s: f64,
    /// Seconds to thread the tape after loading (the 13 s load already is
    /// "load and thread to ready" on the T10000D data sheet: 0).
    pub thread_s: f64,
    /// Seconds to unload a rewound cartridge (T10000D: 23, §4.2).
    pub unload_s: f64,
    /// Seconds to rewind before unloading (T10000D average: 97, §4.2).
    pub rewind_s: f64,
    /// How long reading a file takes: `session-fraction` (the paper's
    /// model, §3.2; default) or `positional` (locate + read).
    pub read_model: ReadModel,
    /// Requests arriving for a tape whose batch is being read: `next-batch`
    /// (default: they wait, Figure 3) or `insert` (cheapest insertion).
    pub arrivals: Arrivals,
    /// Bytes per logical block (the unit of `block` in files.csv).
    pub block_bytes: u64,
    /// Maximum requests in the tape system (KIT before 2020: 2000, §4.2).
    pub queue_size: usize,
    /// Per-tape ordering algorithm: fifo, sort, scan, sltf or mpscan.
    pub order: String,
    /// The robot.
    pub robot: RobotConfig,
}

impl Default for LibraryConfig {
    fn default() -> Self {
        LibraryConfig {
            drives: 12,
            rate_mb_s: 252.0,
            load_s: 13.0,
            thread_s: 0.0,
            unload_s: 23.0,
            rewind_s: 97.0,
            read_model: ReadModel::default(),
            arrivals: Arrivals::default(),
            block_bytes: 262_144,
            queue_size: 2000,
            order: "scan".into(),
            robot: RobotConfig::default(),
        }
    }
}

impl LibraryConfig {
    /// The library's drives and robot (SI units: bytes per second), as the
    /// simulator and the staging service's simulated backend time them.
    pub fn hardware(&self) -> Hardware {
        Hardware {
            drives: self.drives,
            drive: DriveTiming {
                rate_bps: self.rate_mb_s * 1e6,
                load_s: self.load_s,
                thread_s: self.thread_s,
                unload_s: self.unload_s,
                rewind_s: self.rewind_s,
            },
            robot: RobotTiming {
                arms: self.robot.arms,
                fetch_s: self.robot.fetch_s,
                return_s: self.robot.return_s,
            },
        }
    }

    /// The core's library spec (SI units: bytes per second).
    pub fn to_spec(&self) -> LibrarySpec {
        LibrarySpec {
            hardware: self.hardware(),
            read_model: self.read_model.clone(),
            arrivals: self.arrivals,
            block_bytes: self.block_bytes,
            queue_size: self.queue_size,
            order: self.order.clone(),
        }
    }
}

/// Where the campaign comes from (read by the Python side: it is I/O).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Workload {
    /// A seeded KIT-like campaign (§4.1); `scale` shrinks it for quick runs.
    Kit {
        /// Seed of the generator.
        #[serde(default = "one")]
        seed: u64,
        /// Fraction of the full campaign, in (0, 1].
        #[serde(default = "unit_scale")]
        scale: f64,
        /// Order of a dataset's files in the request stream.
        #[serde(default)]
        dataset_order: DatasetOrder,
    },
    /// A campaign from files.csv (file,dataset,tape,block,size[,arrival_s]
    /// [,tapeinfo]) and tapes.csv (tape,capacity,used); paths relative to
    /// the config.
    Files {
        /// Path of files.csv.
        files: String,
        /// Path of tapes.csv.
        tapes: String,
    },
}

/// The order in which a dataset's files are requested (the generated
/// campaign's; the datasets themselves come one after the other, §4.2).
/// `spread` (default): interleaved across the dataset's tapes, as its parts
/// were written in parallel (§2.1); the paper's 1,221 mounts of 77 tapes for
/// by-dataset at queue 2,000 (Table 1, 16 mounts per tape) need a request
/// stream that keeps returning to each tape. `tape-by-tape`: one tape's part
/// after the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DatasetOrder {
    /// Interleaved across the dataset's tapes.
    #[default]
    Spread,
    /// One tape's part after the other.
    TapeByTape,
}

fn one() -> u64 {
    1
}

fn unit_scale() -> f64 {
    1.0
}

/// One recall simulation, as written in a YAML config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RecallConfig {
    /// The library.
    pub library: LibraryConfig,
    /// The requester's strategy (default: by-tapes with 12 tapes).
    pub strategy: Strategy,
    /// Where the campaign comes from (default: the KIT generator, seed 1).
    pub workload: Workload,
    /// Virtual duration of each run in hours (paper: 60, §4.2).
    pub duration_h: f64,
    /// Interval of the time series in seconds; a run records at most a
    /// million samples (`duration_h` × 3600 / `sample_s`).
    pub sample_s: f64,
    /// Seed of the run's random draws.
    pub seed: u64,
}

impl Default for RecallConfig {
    fn default() -> Self {
        RecallConfig {
            library: LibraryConfig::default(),
            strategy: Strategy::ByTapes(ByTapes { tapes: 12 }),
            workload: Workload::Kit {
                seed: 1,
                scale: 1.0,
                dataset_order: DatasetOrder::Spread,
            },
            duration_h: 60.0,
            sample_s: 600.0,
            seed: 1,
        }
    }
}

impl RecallConfig {
    /// Checks every figure (errors name the field as users write it) and
    /// returns the run's SI spec.
    pub fn to_spec(&self) -> Result<RecallSpec> {
        for (field, v) in [("duration_h", self.duration_h), ("sample_s", self.sample_s)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::invalid(field, format!("must be > 0, got {v:?}")));
            }
        }
        if let Workload::Kit { scale, .. } = self.workload {
            if !(scale > 0.0 && scale <= 1.0) {
                return Err(Error::invalid(
                    "workload.scale",
                    format!("must be in (0, 1], got {scale:?}"),
                ));
            }
        }
        self.check_cost()?;
        let library = self.library.to_spec();
        library
            .validate()
            .map_err(|e| user_field(e, &self.library))?;
        self.strategy.validate()?;
        Ok(RecallSpec {
            library,
            strategy: self.strategy.clone(),
            duration_s: self.duration_h * 3600.0,
            sample_s: self.sample_s,
            seed: self.seed,
        })
    }
}

impl RecallConfig {
    /// Refuses runs whose size the config alone makes unreasonable, saying
    /// which field to change.
    fn check_cost(&self) -> Result<()> {
        if self.library.drives > MAX_DRIVES {
            return Err(Error::invalid(
                "library.drives",
                format!("at most {MAX_DRIVES}, got {}", self.library.drives),
            ));
        }
        let duration_s = self.duration_h * 3600.0;
        let samples = duration_s / self.sample_s;
        if samples > MAX_SAMPLES {
            return Err(Error::invalid(
                "sample_s",
                format!(
                    "{samples:.3e} samples over duration_h {} (at most {MAX_SAMPLES:.0e}): raise sample_s to at least {:.3} or shorten duration_h",
                    self.duration_h,
                    duration_s / MAX_SAMPLES
                ),
            ));
        }
        if let Some(every) = self.strategy.wake_interval_s() {
            let wakes = duration_s / every;
            if every > 0.0 && wakes > MAX_WAKES {
                return Err(Error::invalid(
                    "strategy.check_interval_s",
                    format!(
                        "{wakes:.3e} wake-ups over duration_h {} (at most {MAX_WAKES:.0e}): raise it to at least {:.3} or shorten duration_h",
                        self.duration_h,
                        duration_s / MAX_WAKES
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl RecallConfig {
    /// An upper bound on the events a run over `files` requested files
    /// handles, from the config alone: [`EVENTS_PER_FILE`] per file, one per
    /// sample and one per wake-up of a time-based strategy. Meaningful for
    /// a config [`RecallConfig::to_spec`] accepts.
    pub fn estimated_events(&self, files: usize) -> f64 {
        let duration_s = self.duration_h * 3600.0;
        let wakes = self
            .strategy
            .wake_interval_s()
            .map_or(0.0, |every| duration_s / every);
        files as f64 * EVENTS_PER_FILE + duration_s / self.sample_s + wakes + 2.0
    }

    /// Refuses a run over `files` files estimated past [`MAX_EVENTS`],
    /// saying what to change.
    pub fn check_events(&self, files: usize) -> Result<()> {
        let events = self.estimated_events(files);
        if events > MAX_EVENTS {
            return Err(Error::invalid(
                "workload",
                format!(
                    "{files} files make an estimated {events:.3e} events, at most {MAX_EVENTS:.0e}: \
                     recall fewer files (split workload.files, or lower workload.scale)"
                ),
            ));
        }
        Ok(())
    }
}

/// Runs a user's config on a campaign: the one entry point of the bindings.
/// A run estimated past [`MAX_EVENTS`] is refused before it starts.
pub fn run(config: &RecallConfig, campaign: &Campaign) -> Result<RecallOutcome> {
    let spec = config.to_spec()?;
    config.check_events(campaign.files().len())?;
    simulate(&spec, campaign)
}

/// Renames a core library field to the path and unit users write.
fn user_field(e: Error, lib: &LibraryConfig) -> Error {
    match e {
        Error::Invalid { field, message } => {
            let (path, message) = match field.as_str() {
                "rate_bps" => (
                    "library.rate_mb_s".to_string(),
                    format!("must be positive, got {:?}", lib.rate_mb_s),
                ),
                "arms" | "fetch_s" | "return_s" => (format!("library.robot.{field}"), message),
                _ => (format!("library.{field}"), message),
            };
            Error::invalid(path, message)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_config_is_the_papers_library() {
        let cfg: RecallConfig = serde_json::from_str("{}").unwrap();
        assert_eq!(cfg, RecallConfig::default());
        let spec = cfg.to_spec().unwrap();
        assert_eq!(spec.library.hardware.drive.rate_bps, 252e6);
        assert_eq!(spec.duration_s, 60.0 * 3600.0);
    }

    #[test]
    fn runs_estimated_past_a_billion_events_are_refused_naming_the_workload() {
        let cfg = RecallConfig::default();
        // The KIT campaign at full scale is well inside the limit.
        assert!(cfg.check_events(495_049).is_ok());
        assert!(cfg.estimated_events(495_049) < 1e7);
        let Err(Error::Invalid { field, message }) = cfg.check_events(150_000_000) else {
            panic!("150 million files accepted");
        };
        assert_eq!(field, "workload");
        assert!(message.contains("split workload.files"), "{message}");
    }

    #[test]
    fn unknown_fields_and_bad_values_name_the_field() {
        let e = serde_json::from_str::<RecallConfig>(r#"{"library": {"robot": {"armz": 2}}}"#)
            .unwrap_err();
        assert!(e.to_string().contains("armz"), "{e}");
        let cfg: RecallConfig =
            serde_json::from_str(r#"{"library": {"robot": {"arms": 0}}}"#).unwrap();
        let e = cfg.to_spec().unwrap_err().to_string();
        assert!(e.contains("library.robot.arms"), "{e}");
    }

    #[test]
    fn runs_too_big_for_their_config_say_which_field_to_change() {
        let field = |json: &str| {
            let cfg: RecallConfig = serde_json::from_str(json).unwrap();
            match cfg.to_spec().unwrap_err() {
                Error::Invalid { field, message } => (field, message),
                other => panic!("{other}"),
            }
        };
        let (f, m) = field(r#"{"library": {"drives": 10001}}"#);
        assert_eq!(f, "library.drives", "{m}");
        let (f, m) = field(r#"{"sample_s": 0.1}"#);
        assert_eq!(f, "sample_s");
        assert!(m.contains("at least 0.216"), "{m}");
        let (f, m) = field(r#"{"strategy": {"name": "dcache", "check_interval_s": 0.01}}"#);
        assert_eq!(f, "strategy.check_interval_s", "{m}");
        // Just inside every limit is accepted.
        let ok = r#"{"library": {"drives": 10000}, "sample_s": 0.216,
                     "strategy": {"name": "dcache", "check_interval_s": 0.0216}}"#;
        let cfg: RecallConfig = serde_json::from_str(ok).unwrap();
        cfg.to_spec().unwrap();
    }
}
