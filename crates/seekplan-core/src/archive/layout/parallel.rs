//! PARALLEL (section 4.2): a file of n blocks is cut in X contiguous chunks of
//! ceil(n/X) or floor(n/X) blocks, one per data tape; at step s the drives
//! write block s of every chunk and the Y EC blocks computed from them on Y
//! dedicated EC tapes. When a data block does not fit, every tape is
//! replaced; when an EC block does not fit (EC compresses worse than data),
//! only that EC tape is replaced and the block goes on the new one.

use super::types::{largest_fit, Blocks};
use super::types::{phys_bytes, Content, FileSpec, Piece, Record, TapeId, Tapes, Unit};
use super::writer::Layout;
use crate::archive::Scheme;
use crate::{Error, Result};

/// Open cartridges of one PARALLEL process.
#[derive(Clone, Debug)]
pub struct ParallelWriter {
    scheme: Scheme,
    block: u64,
    /// (cartridge, physical bytes used): X data drives then Y EC drives.
    slots: Vec<(TapeId, u64)>,
}

/// How a file's blocks split into X chunks.
struct Chunks {
    b: Blocks,
    x: u64,
    q: u64,
    r: u64,
}

impl Chunks {
    fn new(b: Blocks, x: u64) -> Self {
        Chunks {
            b,
            x,
            q: b.n / x,
            r: b.n % x,
        }
    }
    fn size(&self, i: u64) -> u64 {
        self.q + u64::from(i < self.r)
    }
    fn start(&self, i: u64) -> u64 {
        i * self.q + i.min(self.r)
    }
    fn steps(&self) -> u64 {
        self.size(0)
    }
    /// Uncompressed length of the EC blocks of step `s`: the longest data
    /// block of the step (blocks shorter than it are zero-padded).
    fn ec_len(&self, s: u64) -> u64 {
        (0..self.x)
            .filter(|&i| s < self.size(i))
            .map(|i| self.b.len(self.start(i) + s))
            .max()
            .unwrap_or(0)
    }
    /// Physical bytes of one EC row for steps `s0..s1`: every step but the
    /// last has a full block in chunk 0, so only the last may be shorter.
    fn ec_phys(&self, f: &FileSpec, s0: u64, s1: u64) -> u64 {
        if s1 <= s0 {
            return 0;
        }
        let last = self.steps() - 1;
        let full = s1.min(last) - s0.min(last);
        let tail = if s1 > last {
            phys_bytes(self.ec_len(last), f.ec_compression)
        } else {
            0
        };
        full * phys_bytes(self.b.block, f.ec_compression) + tail
    }
    /// Physical bytes of chunk `i`'s blocks in steps `s0..s1`.
    fn data_phys(&self, f: &FileSpec, i: u64, s0: u64, s1: u64) -> u64 {
        let end = s1.min(self.size(i));
        if end <= s0 {
            return 0;
        }
        let last = self.start(i) + end - 1;
        (end - s0 - 1) * phys_bytes(self.b.block, f.data_compression)
            + phys_bytes(self.b.len(last), f.data_compression)
    }
}

impl ParallelWriter {
    fn fresh_all(&mut self, tapes: &mut Tapes) {
        self.slots = (0..self.scheme.width())
            .map(|_| (tapes.fresh(), 0))
            .collect();
    }
}

impl Layout for ParallelWriter {
    const NAME: &'static str = "parallel";
    const BLOCKS: bool = true;

    /// A writer for `scheme` with block size `block`.
    fn new(scheme: Scheme, block: u64) -> Self {
        ParallelWriter {
            scheme,
            block,
            slots: Vec::new(),
        }
    }

    fn write(&mut self, f: &FileSpec, tapes: &mut Tapes) -> Result<Vec<Piece>> {
        let x = u64::from(self.scheme.x);
        let c = Chunks::new(Blocks::new(f.bytes, self.block), x);
        let cap = tapes.capacity;
        let too_big = || {
            Error::invalid(
                "block_size",
                format!(
                    "a PARALLEL block of {} bytes does not fit on a {cap}-byte tape",
                    c.b.block
                ),
            )
        };
        if self.slots.is_empty() {
            self.fresh_all(tapes);
        }
        let mut pieces = Vec::new();
        let mut s = 0;
        while s < c.steps() {
            let fits = |m: u64| {
                (0..x).all(|i| self.slots[i as usize].1 + c.data_phys(f, i, s, s + m) <= cap)
            };
            let m = largest_fit(c.steps() - s, fits);
            if m == 0 {
                if self.slots[..x as usize].iter().all(|t| t.1 == 0) {
                    return Err(too_big());
                }
                self.fresh_all(tapes);
                continue;
            }
            for i in 0..x {
                let phys = c.data_phys(f, i, s, s + m);
                if phys == 0 {
                    continue;
                }
                let (tape, fill) = &mut self.slots[i as usize];
                pieces.push(Piece {
                    slot: i as u32,
                    tape: *tape,
                    offset: *fill,
                    phys,
                    content: Content::ParallelData {
                        chunk: i as u32,
                        first: s,
                        count: m.min(c.size(i).saturating_sub(s)),
                    },
                });
                *fill += phys;
            }
            for row in 0..self.scheme.y {
                let slot = (x + u64::from(row)) as usize;
                let mut e = s;
                while e < s + m {
                    let ec_phys = |k: u64| c.ec_phys(f, e, e + k);
                    let room = cap - self.slots[slot].1;
                    let k = largest_fit(s + m - e, |k| ec_phys(k) <= room);
                    if k == 0 {
                        if self.slots[slot].1 == 0 {
                            return Err(too_big());
                        }
                        self.slots[slot] = (tapes.fresh(), 0);
                        continue;
                    }
                    let phys = ec_phys(k);
                    let (tape, fill) = &mut self.slots[slot];
                    pieces.push(Piece {
                        slot: slot as u32,
                        tape: *tape,
                        offset: *fill,
                        phys,
                        content: Content::ParallelEc {
                            row,
                            first: e,
                            count: k,
                        },
                    });
                    *fill += phys;
                    e += k;
                }
            }
            s += m;
            if s < c.steps() {
                self.fresh_all(tapes);
            }
        }
        Ok(pieces)
    }

    fn records(&self, f: &FileSpec, p: &Piece) -> Vec<Record> {
        let c = Chunks::new(Blocks::new(f.bytes, self.block), u64::from(self.scheme.x));
        let mut offset = p.offset;
        let mut out = Vec::new();
        let mut push = |unit: Unit, ratio: f64| {
            let len = match unit {
                Unit::Data { len, .. } | Unit::Ec { len, .. } => len,
            };
            let phys = phys_bytes(len, ratio);
            out.push(Record { offset, phys, unit });
            offset += phys;
        };
        match p.content {
            Content::ParallelData {
                chunk,
                first,
                count,
            } => {
                for s in first..first + count {
                    let d = c.start(u64::from(chunk)) + s;
                    push(
                        Unit::Data {
                            start: d * c.b.block,
                            len: c.b.len(d),
                        },
                        f.data_compression,
                    );
                }
            }
            Content::ParallelEc { row, first, count } => {
                for s in first..first + count {
                    push(
                        Unit::Ec {
                            row,
                            stripe: s,
                            len: c.ec_len(s),
                        },
                        f.ec_compression,
                    );
                }
            }
            _ => {}
        }
        out
    }
}
