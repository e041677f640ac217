//! What is recalled: files at positions on tapes.

use super::LibrarySpec;
use crate::model::LinearModel;
use crate::{Error, Result};

/// One requested file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FileSpec {
    /// Dataset the file belongs to (an index).
    pub dataset: u32,
    /// Tape holding the file (an index into the campaign's tapes).
    pub tape: u32,
    /// First logical block of the file on its tape.
    pub block: u64,
    /// Size in bytes.
    pub size: u64,
    /// Seconds after the start at which the request reaches the requester.
    pub arrival_s: f64,
    /// Whether the requester knows which tape holds the file.
    pub tapeinfo: bool,
}

/// One cartridge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TapeSpec {
    /// Capacity in bytes.
    pub capacity: u64,
    /// Bytes written on the tape.
    pub used: u64,
}

/// A recall campaign: files in request order and the tapes they live on.
#[derive(Clone, Debug, Default)]
pub struct Campaign {
    /// Requested files, in the order they were requested.
    pub files: Vec<FileSpec>,
    /// Tapes, indexed by `FileSpec::tape`.
    pub tapes: Vec<TapeSpec>,
}

/// A campaign as parallel columns, borrowed from their owner (numpy arrays
/// on the Python side): one entry per file in the first six, one per tape
/// in the last two.
#[derive(Clone, Copy, Debug, Default)]
pub struct CampaignColumns<'a> {
    /// Dataset of each file.
    pub dataset: &'a [u32],
    /// Tape of each file.
    pub tape: &'a [u32],
    /// First block of each file.
    pub block: &'a [u64],
    /// Size of each file in bytes.
    pub size: &'a [u64],
    /// Arrival of each request, seconds.
    pub arrival_s: &'a [f64],
    /// Whether each file's tape is known to the requester.
    pub tapeinfo: &'a [bool],
    /// Capacity of each tape in bytes.
    pub capacity: &'a [u64],
    /// Bytes written on each tape.
    pub used: &'a [u64],
}

impl Campaign {
    /// The campaign the columns describe; columns of different lengths are an error.
    pub fn from_columns(c: CampaignColumns<'_>) -> Result<Campaign> {
        let n = c.dataset.len();
        let file_lengths = [
            c.tape.len(),
            c.block.len(),
            c.size.len(),
            c.arrival_s.len(),
            c.tapeinfo.len(),
        ];
        if file_lengths.iter().any(|&l| l != n) || c.capacity.len() != c.used.len() {
            return Err(Error::invalid(
                "campaign",
                "campaign columns differ in length",
            ));
        }
        let files = (0..n)
            .map(|i| FileSpec {
                dataset: c.dataset[i],
                tape: c.tape[i],
                block: c.block[i],
                size: c.size[i],
                arrival_s: c.arrival_s[i],
                tapeinfo: c.tapeinfo[i],
            })
            .collect();
        let tapes = c
            .capacity
            .iter()
            .zip(c.used)
            .map(|(&capacity, &used)| TapeSpec { capacity, used })
            .collect();
        Ok(Campaign { files, tapes })
    }

    /// Checks the campaign against the library and builds one locate model per tape.
    pub fn models(&self, spec: &LibrarySpec) -> Result<Vec<LinearModel>> {
        let (wind_s, overhead_s) = spec.read_model.locate_figures(spec.rewind_s);
        let models = self
            .tapes
            .iter()
            .enumerate()
            .map(|(i, t)| {
                if t.used > t.capacity {
                    return Err(Error::invalid(
                        "used",
                        format!("tape {i}: used {} exceeds capacity {}", t.used, t.capacity),
                    ));
                }
                LinearModel::new(
                    t.capacity,
                    spec.block_bytes,
                    spec.rate_bps,
                    wind_s,
                    overhead_s,
                )
                .map_err(|e| Error::invalid("capacity", format!("tape {i}: {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        for (i, f) in self.files.iter().enumerate() {
            let model = models.get(f.tape as usize).ok_or_else(|| {
                Error::invalid("tape", format!("file {i} is on unknown tape {}", f.tape))
            })?;
            if f.size == 0 {
                return Err(Error::invalid(
                    "size",
                    format!("file {i}: must be positive"),
                ));
            }
            let end = f.block.saturating_add(f.size.div_ceil(spec.block_bytes));
            if end > crate::model::CostModel::capacity(model) {
                return Err(Error::invalid(
                    "block",
                    format!(
                        "file {i} at block {} ({} bytes) runs past the end of tape {} ({} blocks)",
                        f.block,
                        f.size,
                        f.tape,
                        crate::model::CostModel::capacity(model)
                    ),
                ));
            }
            if !(f.arrival_s.is_finite() && f.arrival_s >= 0.0) {
                return Err(Error::invalid(
                    "arrival",
                    format!("file {i}: must be a non-negative number of seconds"),
                ));
            }
        }
        Ok(models)
    }
}
