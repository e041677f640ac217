//! RAIT (section 4.1): the file is cut in blocks of B bytes; each stripe of X
//! data blocks gets Y EC blocks, and the X+Y blocks of stripe g go to the X+Y
//! drives rotated by g, so that over X+Y stripes every tape receives X data
//! and Y EC blocks. Consecutive files of a process continue the rotation.
//! When a block does not fit on its tape, every tape is replaced.

use super::types::{largest_fit, Blocks};
use super::types::{phys_bytes, Content, FileSpec, Piece, Record, TapeId, Tapes, Unit};
use super::writer::Layout;
use crate::archive::Scheme;
use crate::{Error, Result};

/// Open cartridges of one RAIT process.
#[derive(Clone, Debug)]
pub struct RaitWriter {
    scheme: Scheme,
    block: u64,
    /// (cartridge, physical bytes used) per drive.
    slots: Vec<(TapeId, u64)>,
    /// Stripes written so far by this process (the rotation).
    shift: u64,
}

impl RaitWriter {
    fn n(&self) -> u64 {
        u64::from(self.scheme.width())
    }

    /// Shard index held by drive `slot` in process stripe `g`: data
    /// 0..X, EC X..X+Y.
    fn shard(&self, slot: u64, g: u64) -> u64 {
        let n = self.n();
        (slot + n - g % n) % n
    }

    /// The unit of file stripe `k` on drive `slot`, if any.
    fn unit(&self, b: &Blocks, shift: u64, slot: u64, k: u64) -> Option<Unit> {
        let x = u64::from(self.scheme.x);
        let s = self.shard(slot, shift + k);
        if s < x {
            let d = k * x + s;
            (d < b.n).then(|| Unit::Data {
                start: d * b.block,
                len: b.len(d),
            })
        } else {
            Some(Unit::Ec {
                row: (s - x) as u32,
                stripe: k,
                len: b.len(k * x),
            })
        }
    }

    fn unit_phys(u: &Unit, f: &FileSpec) -> u64 {
        match *u {
            Unit::Data { len, .. } => phys_bytes(len, f.data_compression),
            Unit::Ec { len, .. } => phys_bytes(len, f.ec_compression),
        }
    }

    /// Physical bytes drive `slot` writes for file stripes `k0..k1`:
    /// closed form for the full stripes, unit by unit for the last one.
    fn slot_phys(&self, b: &Blocks, f: &FileSpec, slot: u64, k0: u64, k1: u64) -> u64 {
        let (n, x) = (self.n(), u64::from(self.scheme.x));
        let stripes = b.n.div_ceil(x);
        let full_end = k1.min(stripes - 1);
        let mut total = 0;
        if full_end > k0 {
            let m = full_end - k0;
            let mut data = (m / n) * x;
            for k in k0 + (m / n) * n..full_end {
                if self.shard(slot, self.shift + k) < x {
                    data += 1;
                }
            }
            total += data * phys_bytes(b.block, f.data_compression)
                + (m - data) * phys_bytes(b.block, f.ec_compression);
        }
        if k1 == stripes && k0 < stripes {
            if let Some(u) = self.unit(b, self.shift, slot, stripes - 1) {
                total += Self::unit_phys(&u, f);
            }
        }
        total
    }
}

impl Layout for RaitWriter {
    const NAME: &'static str = "rait";
    const BLOCKS: bool = true;

    /// A writer for `scheme` with block size `block`.
    fn new(scheme: Scheme, block: u64) -> Self {
        RaitWriter {
            scheme,
            block,
            slots: Vec::new(),
            shift: 0,
        }
    }

    fn write(&mut self, f: &FileSpec, tapes: &mut Tapes) -> Result<Vec<Piece>> {
        let b = Blocks::new(f.bytes, self.block);
        let stripes = b.n.div_ceil(u64::from(self.scheme.x));
        let cap = tapes.capacity;
        if self.slots.is_empty() {
            self.slots = (0..self.n()).map(|_| (tapes.fresh(), 0)).collect();
        }
        let mut pieces = Vec::new();
        let mut k = 0;
        while k < stripes {
            let fits = |m: u64| {
                (0..self.n())
                    .all(|j| self.slots[j as usize].1 + self.slot_phys(&b, f, j, k, k + m) <= cap)
            };
            let m = largest_fit(stripes - k, fits);
            if m == 0 {
                if self.slots.iter().all(|s| s.1 == 0) {
                    return Err(Error::invalid(
                        "block_size",
                        format!(
                            "a RAIT block of {} bytes does not fit on a {cap}-byte tape",
                            self.block
                        ),
                    ));
                }
                self.slots = (0..self.n()).map(|_| (tapes.fresh(), 0)).collect();
                continue;
            }
            for j in 0..self.n() {
                let phys = self.slot_phys(&b, f, j, k, k + m);
                if phys == 0 {
                    continue;
                }
                let (tape, fill) = &mut self.slots[j as usize];
                pieces.push(Piece {
                    slot: j as u32,
                    tape: *tape,
                    offset: *fill,
                    phys,
                    content: Content::Rait {
                        shift: self.shift,
                        first: k,
                        count: m,
                    },
                });
                *fill += phys;
            }
            k += m;
        }
        self.shift += stripes;
        Ok(pieces)
    }

    fn records(&self, f: &FileSpec, p: &Piece) -> Vec<Record> {
        let Content::Rait {
            shift,
            first,
            count,
        } = p.content
        else {
            return Vec::new();
        };
        let b = Blocks::new(f.bytes, self.block);
        let mut offset = p.offset;
        let mut out = Vec::new();
        for k in first..first + count {
            if let Some(unit) = self.unit(&b, shift, u64::from(p.slot), k) {
                let phys = Self::unit_phys(&unit, f);
                out.push(Record { offset, phys, unit });
                offset += phys;
            }
        }
        out
    }
}
