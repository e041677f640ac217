//! The [`Writer`] a process keeps between files: one per policy, behind one
//! enum so the archive simulation handles every policy the same way.

use super::parallel::ParallelWriter;
use super::rait::RaitWriter;
use super::types::{FileSpec, Piece, Record, Tapes};
use super::vertical::VerticalWriter;
use crate::archive::{Policy, Scheme};
use crate::{Error, Result};

/// A process's open cartridges and position in its layout, kept between the
/// files it writes so consecutive files continue where the last one ended.
#[derive(Clone, Debug)]
pub enum Writer {
    /// RAIT.
    Rait(RaitWriter),
    /// PARALLEL.
    Parallel(ParallelWriter),
    /// VERTICAL.
    Vertical(VerticalWriter),
}

impl Writer {
    /// A writer with no cartridge open yet. `block` is B (ignored by VERTICAL).
    pub fn new(policy: Policy, scheme: Scheme, block: u64) -> Result<Self> {
        if block == 0 && policy != Policy::Vertical {
            return Err(Error::invalid("block_size", "must be positive"));
        }
        Ok(match policy {
            Policy::Rait => Writer::Rait(RaitWriter::new(scheme, block)),
            Policy::Parallel => Writer::Parallel(ParallelWriter::new(scheme, block)),
            Policy::Vertical => Writer::Vertical(VerticalWriter::new(scheme)),
        })
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
        match self {
            Writer::Rait(w) => w.write(file, tapes),
            Writer::Parallel(w) => w.write(file, tapes),
            Writer::Vertical(w) => w.write(file, tapes),
        }
    }

    /// Ends the process: VERTICAL writes the EC of its open group now;
    /// striped policies have nothing pending.
    pub fn close(&mut self, tapes: &mut Tapes) -> Vec<Piece> {
        match self {
            Writer::Vertical(w) => w.flush(tapes),
            _ => Vec::new(),
        }
    }

    /// Block-level units of a striped piece written for `file` (empty for
    /// VERTICAL pieces, which are byte ranges already).
    pub fn records(&self, file: &FileSpec, piece: &Piece) -> Vec<Record> {
        match self {
            Writer::Rait(w) => w.records(file, piece),
            Writer::Parallel(w) => w.records(file, piece),
            Writer::Vertical(_) => Vec::new(),
        }
    }
}
