//! What every layout shares, at the bottom of the layout folder: files,
//! cartridges, the pieces a write puts on them and their block-level units.

use crate::{Error, Result};

/// One cartridge, numbered in the order the library hands out empty ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TapeId(pub u64);

/// The library's supply of empty cartridges of one capacity.
#[derive(Clone, Debug)]
pub struct Tapes {
    first: u64,
    next: u64,
    /// Physical (compressed) bytes one cartridge holds.
    pub capacity: u64,
}

impl Tapes {
    /// A supply of cartridges of `capacity` physical bytes.
    pub fn new(capacity: u64) -> Result<Self> {
        if capacity == 0 {
            return Err(Error::invalid("tape_capacity", "must be positive"));
        }
        Ok(Tapes {
            first: 0,
            next: 0,
            capacity,
        })
    }

    /// A supply whose first cartridge is numbered `first` (a second supply
    /// whose numbers never meet the first's).
    pub fn starting_at(capacity: u64, first: u64) -> Result<Self> {
        let mut t = Tapes::new(capacity)?;
        t.first = first;
        t.next = first;
        Ok(t)
    }

    /// An empty cartridge never used before.
    pub fn fresh(&mut self) -> TapeId {
        self.next += 1;
        TapeId(self.next - 1)
    }

    /// Cartridges handed out so far.
    pub fn used(&self) -> u64 {
        self.next - self.first
    }
}

/// A file to write: its size and how well the drive compresses its data and
/// its erasure-code blocks (ratios >= 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FileSpec {
    /// Uncompressed size in bytes (> 0).
    pub bytes: u64,
    /// Compression ratio of data blocks.
    pub data_compression: f64,
    /// Compression ratio of EC blocks.
    pub ec_compression: f64,
}

/// Bytes `logical` uncompressed bytes occupy on tape at ratio `ratio`.
pub fn phys_bytes(logical: u64, ratio: f64) -> u64 {
    (logical as f64 / ratio).ceil() as u64
}

/// What a piece of tape holds, in the terms of the policy that wrote it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Content {
    /// RAIT: this slot's block of every stripe in `first..first+count` of
    /// the file; stripe k is rotated as stripe `shift + k` of the process.
    Rait { shift: u64, first: u64, count: u64 },
    /// PARALLEL: blocks `first..first+count` of data stripe (chunk) `chunk`.
    ParallelData { chunk: u32, first: u64, count: u64 },
    /// PARALLEL: EC row `row` of steps `first..first+count`.
    ParallelEc { row: u32, first: u64, count: u64 },
    /// VERTICAL: file bytes `start..start+len`, at `stream_offset` of the
    /// uncompressed stream of data tape `index` of EC group `group`.
    VerticalData {
        start: u64,
        len: u64,
        group: u64,
        index: u32,
        stream_offset: u64,
    },
    /// VERTICAL: bytes `start..start+len` of EC row `row` of group `group`.
    VerticalEc {
        group: u64,
        row: u32,
        start: u64,
        len: u64,
    },
}

impl Content {
    /// How many blocks of the transfer unit B a striped piece holds (RAIT,
    /// PARALLEL); `None` for VERTICAL, which streams its bytes.
    pub fn striped_blocks(&self) -> Option<u64> {
        match *self {
            Content::Rait { count, .. }
            | Content::ParallelData { count, .. }
            | Content::ParallelEc { count, .. } => Some(count),
            Content::VerticalData { .. } | Content::VerticalEc { .. } => None,
        }
    }

    /// Whether a read of the file must fetch this piece (EC is skipped by
    /// PARALLEL and VERTICAL reads; RAIT interleaves it, section 4.1).
    pub fn read_needed(&self) -> bool {
        !matches!(
            self,
            Content::ParallelEc { .. } | Content::VerticalEc { .. }
        )
    }
}

/// A contiguous run written on one cartridge by the drive of `slot`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    /// Drive of the writing process (0..X+Y; always 0 for VERTICAL).
    pub slot: u32,
    /// The cartridge.
    pub tape: TapeId,
    /// Physical offset of the first byte on the cartridge.
    pub offset: u64,
    /// Physical bytes the piece occupies.
    pub phys: u64,
    /// What the bytes are.
    pub content: Content,
}

/// One block-level unit of a striped (RAIT, PARALLEL) piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// File bytes `start..start+len`.
    Data { start: u64, len: u64 },
    /// EC row `row` of stripe (step) `stripe`, `len` uncompressed bytes.
    Ec { row: u32, stripe: u64, len: u64 },
}

/// A unit at its place on tape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Physical offset on the piece's cartridge.
    pub offset: u64,
    /// Physical bytes.
    pub phys: u64,
    /// What it is.
    pub unit: Unit,
}

/// Block geometry of one file cut in blocks of `block` bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks {
    pub bytes: u64,
    pub block: u64,
    /// Number of blocks, ceil(bytes / block).
    pub n: u64,
}

impl Blocks {
    pub fn new(bytes: u64, block: u64) -> Self {
        Blocks {
            bytes,
            block,
            n: bytes.div_ceil(block),
        }
    }

    /// Uncompressed length of block `d` (only the last may be short).
    pub fn len(&self, d: u64) -> u64 {
        if d + 1 == self.n {
            self.bytes - d * self.block
        } else {
            self.block
        }
    }
}

/// Largest `m` in `0..=hi` with `fits(m)`, for `fits` true at 0 and monotone.
pub(crate) fn largest_fit(hi: u64, fits: impl Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (0u64, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}
