//! The write policies: one trait every layout implements and one list naming
//! them. Adding a policy is its own file (a writer implementing [`Layout`])
//! plus one row in [`layouts!`]'s invocation below; [`Policy`], its name,
//! parsing, the config's [`PolicyName`] (and so the JSON schema) and the
//! [`Writer`] the archive simulation keeps per process follow.

use super::parallel::ParallelWriter;
use super::rait::RaitWriter;
use super::types::{FileSpec, Piece, Record, Tapes};
use super::vertical::VerticalWriter;
use crate::archive::Scheme;
use crate::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// One write policy: its name, what a process of it holds, and its writer (a
/// process's open cartridges and position in the layout, kept between the
/// files it writes so consecutive files continue where the last one ended).
pub trait Layout: Sized {
    /// The lower-case name users type.
    const NAME: &'static str;
    /// Whether files are cut in blocks of B bytes (then B must be positive).
    const BLOCKS: bool;

    /// Drives a process of this policy holds for scheme `scheme`; by default
    /// a striped layout's: one per block of a stripe.
    fn drives(scheme: Scheme) -> u32 {
        scheme.width()
    }

    /// Mover RAM and mover disk bytes a process holds, as `(ram, disk)`, for
    /// block size `block` and tapes of `tape_capacity` bytes; by default a
    /// striped layout's: one stripe of blocks in RAM, no disk.
    fn holds(scheme: Scheme, block: u64, _tape_capacity: u64) -> (u64, u64) {
        (u64::from(scheme.width()).saturating_mul(block), 0)
    }

    /// A writer with no cartridge open yet, for block size `block`.
    fn new(scheme: Scheme, block: u64) -> Self;

    /// Lays out a checked `file` on the open cartridges (taking fresh ones
    /// from `tapes` when they fill) and returns the pieces written, in order.
    fn write(&mut self, file: &FileSpec, tapes: &mut Tapes) -> Result<Vec<Piece>>;

    /// Ends the process, returning what it still had to write.
    fn close(&mut self, _tapes: &mut Tapes) -> Vec<Piece> {
        Vec::new()
    }

    /// Block-level units of a piece written for `file` (empty for layouts
    /// whose pieces are byte ranges already).
    fn records(&self, _file: &FileSpec, _piece: &Piece) -> Vec<Record> {
        Vec::new()
    }
}

/// Declares [`Policy`] (one variant per row), its `ALL` list, [`Writer`],
/// which holds the writer behind each variant, and [`PolicyName`], what a
/// config names (each policy for every file, with the doc in braces, or
/// HETERO). The serde name of a row is its variant in lower case.
macro_rules! layouts {
    ($($(#[doc = $doc:literal])+ $variant:ident => $imp:ty { $(#[$cdoc:meta])+ },)+) => {
        /// Which policy the archive uses.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        #[serde(rename_all = "lowercase")]
        pub enum PolicyName {
            $($(#[$cdoc])+ $variant,)+
            /// VERTICAL below `hetero_threshold_bytes`, PARALLEL above.
            Hetero,
        }

        impl PolicyName {
            /// The policy used for every file, or None for HETERO.
            pub fn single(self) -> Option<Policy> {
                match self {
                    $(PolicyName::$variant => Some(Policy::$variant),)+
                    PolicyName::Hetero => None,
                }
            }
        }

        /// The layout a single write uses.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        pub enum Policy {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl Policy {
            /// Every policy, in the order of the list.
            pub const ALL: [Policy; [$(stringify!($variant)),+].len()] =
                [$(Policy::$variant),+];

            /// Lower-case name.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Policy::$variant => <$imp as Layout>::NAME,)+
                }
            }

            /// Whether files are cut in blocks of B bytes.
            pub fn blocks(&self) -> bool {
                match self {
                    $(Policy::$variant => <$imp as Layout>::BLOCKS,)+
                }
            }

            /// Drives a process of this policy holds for scheme `s`.
            pub fn drives(&self, s: Scheme) -> u32 {
                match self {
                    $(Policy::$variant => <$imp as Layout>::drives(s),)+
                }
            }

            /// Mover RAM and disk bytes a process holds, as `(ram, disk)`.
            pub fn holds(&self, s: Scheme, block: u64, tape_capacity: u64) -> (u64, u64) {
                match self {
                    $(Policy::$variant => <$imp as Layout>::holds(s, block, tape_capacity),)+
                }
            }
        }

        /// A process's writer, whichever its policy.
        #[derive(Clone, Debug)]
        pub enum Writer {
            $($(#[doc = $doc])+ $variant($imp),)+
        }

        impl Writer {
            fn open(policy: Policy, scheme: Scheme, block: u64) -> Self {
                match policy {
                    $(Policy::$variant => Writer::$variant(<$imp as Layout>::new(scheme, block)),)+
                }
            }

            fn write_file(&mut self, file: &FileSpec, tapes: &mut Tapes) -> Result<Vec<Piece>> {
                match self {
                    $(Writer::$variant(w) => w.write(file, tapes),)+
                }
            }

            fn close_process(&mut self, tapes: &mut Tapes) -> Vec<Piece> {
                match self {
                    $(Writer::$variant(w) => w.close(tapes),)+
                }
            }

            fn piece_records(&self, file: &FileSpec, piece: &Piece) -> Vec<Record> {
                match self {
                    $(Writer::$variant(w) => w.records(file, piece),)+
                }
            }
        }
    };
}

layouts! {
    /// Blocks of size B striped over X+Y tapes, EC rotated (section 4.1).
    Rait => RaitWriter {
        /// RAIT for every file.
    },
    /// X contiguous stripes on X data tapes, EC on Y dedicated tapes (4.2).
    Parallel => ParallelWriter {
        /// PARALLEL for every file.
    },
    /// Data contiguous on one tape, EC written after X data tapes (4.3).
    Vertical => VerticalWriter {
        /// VERTICAL for every file.
    },
}

impl Writer {
    /// A writer with no cartridge open yet. `block` is B (ignored by
    /// policies that do not cut files in blocks).
    pub fn new(policy: Policy, scheme: Scheme, block: u64) -> Result<Self> {
        if block == 0 && policy.blocks() {
            return Err(Error::invalid("block_size", "must be positive"));
        }
        Ok(Writer::open(policy, scheme, block))
    }

    /// Lays out `file` on the open cartridges (taking fresh ones from
    /// `tapes` when they fill) and returns the pieces written, in order.
    pub fn write(&mut self, file: &FileSpec, tapes: &mut Tapes) -> Result<Vec<Piece>> {
        if file.bytes == 0 || !(file.data_compression >= 1.0 && file.ec_compression >= 1.0) {
            return Err(Error::invalid(
                "file",
                format!(
                    "size must be positive and compression ratios >= 1, got {} bytes, {} and {}",
                    file.bytes, file.data_compression, file.ec_compression
                ),
            ));
        }
        self.write_file(file, tapes)
    }

    /// Ends the process: VERTICAL writes the EC of its open group now;
    /// striped policies have nothing pending.
    pub fn close(&mut self, tapes: &mut Tapes) -> Vec<Piece> {
        self.close_process(tapes)
    }

    /// Block-level units of a striped piece written for `file` (empty for
    /// VERTICAL pieces, which are byte ranges already).
    pub fn records(&self, file: &FileSpec, piece: &Piece) -> Vec<Record> {
        self.piece_records(file, piece)
    }
}

impl FromStr for Policy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.to_ascii_lowercase();
        Policy::ALL
            .into_iter()
            .find(|p| p.name() == lower)
            .ok_or_else(|| {
                let names: Vec<&str> = Policy::ALL.iter().map(Policy::name).collect();
                Error::invalid(
                    "policy",
                    format!("{s:?}: choose {} or hetero", names.join(", ")),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_names_are_the_layout_names() {
        for p in Policy::ALL {
            let name = PolicyName::deserialize(serde_json::Value::from(p.name())).unwrap();
            assert_eq!(name.single(), Some(p));
            assert_eq!(p.name().parse::<Policy>().unwrap(), p);
        }
    }
}
