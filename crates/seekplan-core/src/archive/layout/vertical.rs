//! VERTICAL (section 4.3): files are written contiguously, one drive, filling
//! data tapes one after another; the Y EC streams of the current group of X
//! data tapes are kept up to date on the mover's disk and written on Y EC
//! tapes (each row starting on a fresh tape, continuing on new tapes when
//! one fills) once the X-th data tape is full or the process ends.
//!
//! EC row r of a group is Reed-Solomon parity over the uncompressed streams
//! of its data tapes (zero-padded to the longest), so its length is that of
//! the longest stream. Its compressed size is that of the longest stream's
//! bytes at their files' EC ratios (choice: the paper does not say how EC
//! of mixed files compresses; this keeps "EC compresses worse" per file).

use super::types::{phys_bytes, Content, FileSpec, Piece, TapeId, Tapes};
use super::writer::Layout;
use crate::archive::Scheme;
use crate::Result;

/// One data tape of the open group.
#[derive(Clone, Debug)]
struct DataTape {
    tape: TapeId,
    fill: u64,
    logical: u64,
    ec_phys: f64,
}

/// Open group of one VERTICAL process.
#[derive(Clone, Debug)]
pub struct VerticalWriter {
    scheme: Scheme,
    group: u64,
    data: Vec<DataTape>,
}

impl VerticalWriter {
    /// Uncompressed bytes the open group's EC rows will hold (what the
    /// mover's disk keeps per row).
    pub fn pending_ec_bytes(&self) -> u64 {
        self.data.iter().map(|d| d.logical).max().unwrap_or(0)
    }

    /// Writes the EC rows of the open group and starts a new group.
    pub(crate) fn flush(&mut self, tapes: &mut Tapes) -> Vec<Piece> {
        let len = self.pending_ec_bytes();
        let mut pieces = Vec::new();
        if len > 0 {
            let longest = self
                .data
                .iter()
                .max_by_key(|d| d.logical)
                .expect("a non-empty group");
            // Uncompressed EC bytes per physical byte of this group.
            let ratio = (len as f64 / longest.ec_phys.ceil().max(1.0)).max(1.0);
            let per_tape = ((tapes.capacity as f64 * ratio).floor() as u64).max(1);
            for row in 0..self.scheme.y {
                let mut start = 0;
                while start < len {
                    let chunk = per_tape.min(len - start);
                    pieces.push(Piece {
                        slot: 0,
                        tape: tapes.fresh(),
                        offset: 0,
                        phys: phys_bytes(chunk, ratio).min(tapes.capacity),
                        content: Content::VerticalEc {
                            group: self.group,
                            row,
                            start,
                            len: chunk,
                        },
                    });
                    start += chunk;
                }
            }
        }
        self.group += 1;
        self.data.clear();
        pieces
    }
}

impl Layout for VerticalWriter {
    const NAME: &'static str = "vertical";
    const BLOCKS: bool = false;

    fn drives(_scheme: Scheme) -> u32 {
        1
    }

    fn holds(scheme: Scheme, _block: u64, tape_capacity: u64) -> (u64, u64) {
        (0, u64::from(scheme.y).saturating_mul(tape_capacity))
    }

    /// A writer for `scheme` (VERTICAL writes bytes, not blocks).
    fn new(scheme: Scheme, _block: u64) -> Self {
        VerticalWriter {
            scheme,
            group: 0,
            data: Vec::new(),
        }
    }

    fn write(&mut self, f: &FileSpec, tapes: &mut Tapes) -> Result<Vec<Piece>> {
        let cap = tapes.capacity;
        let mut pieces = Vec::new();
        let (mut pos, mut rem) = (0u64, f.bytes);
        while rem > 0 {
            if self.data.is_empty() {
                self.data.push(DataTape {
                    tape: tapes.fresh(),
                    fill: 0,
                    logical: 0,
                    ec_phys: 0.0,
                });
            }
            let index = (self.data.len() - 1) as u32;
            let cur = self.data.last_mut().expect("a data tape is open");
            let space = cap - cur.fill;
            let mut fit = (space as f64 * f.data_compression).floor() as u64;
            while fit > 0 && phys_bytes(fit, f.data_compression) > space {
                fit -= 1;
            }
            let take = rem.min(fit);
            if take > 0 {
                let phys = phys_bytes(take, f.data_compression);
                pieces.push(Piece {
                    slot: 0,
                    tape: cur.tape,
                    offset: cur.fill,
                    phys,
                    content: Content::VerticalData {
                        start: pos,
                        len: take,
                        group: self.group,
                        index,
                        stream_offset: cur.logical,
                    },
                });
                cur.fill += phys;
                cur.logical += take;
                cur.ec_phys += take as f64 / f.ec_compression;
                pos += take;
                rem -= take;
            }
            if rem > 0 {
                if self.data.len() as u32 == self.scheme.x {
                    pieces.extend(self.flush(tapes));
                }
                self.data.push(DataTape {
                    tape: tapes.fresh(),
                    fill: 0,
                    logical: 0,
                    ec_phys: 0.0,
                });
            }
        }
        Ok(pieces)
    }

    /// Writes the EC of the open group now.
    fn close(&mut self, tapes: &mut Tapes) -> Vec<Piece> {
        self.flush(tapes)
    }
}
