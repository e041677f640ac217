//! What is recalled: files at positions on tapes.

use super::room::{KeptRoom, RunRoom};
use super::LibrarySpec;
use crate::model::LinearModel;
use crate::{Error, Result};
use std::sync::OnceLock;

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

/// A request as the requester hands it to the tape system: the file and
/// where it lies, copied from the campaign when the request arrives so that
/// passing it on touches no other memory (a random read of the campaign per
/// request was the simulator's hot spot).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Request {
    /// The file (an index into the campaign's files).
    pub file: u32,
    /// Tape holding the file.
    pub tape: u32,
    /// First logical block of the file on its tape.
    pub block: u64,
    /// Size in bytes.
    pub size: u64,
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
/// Built once by [`Campaign::new`], which checks what does not depend on the
/// library and keeps what every run over it needs (files per tape, the
/// arrival order), so a sweep pays for that once.
#[derive(Clone, Debug, Default)]
pub struct Campaign {
    files: Vec<FileSpec>,
    tapes: Vec<TapeSpec>,
    files_per_tape: Vec<usize>,
    /// Files by arrival time, or None when they are listed in that order.
    arrival_order: Option<Vec<u32>>,
    /// Each file's request in arrival order (a random pick by rank is one
    /// read of memory, not two).
    arrival_requests: Vec<Request>,
    /// Tape of each file in arrival order.
    arrival_tapes: Vec<u32>,
    /// Each tape's requests in arrival order, tape after tape: tape `t`'s
    /// are `tape_requests[tape_start[t]..tape_start[t + 1]]`.
    tape_requests: Vec<Request>,
    tape_start: Vec<usize>,
    /// Tapes with requests, in the order of their first request's arrival.
    tapes_by_first_arrival: Vec<u32>,
    /// A block size in which every file was found to fit on its tape (the
    /// check reads every file; a sweep's runs share one block size).
    fits_in_blocks_of: OnceLock<u64>,
    /// The buffers of the last run over the campaign, for the next one.
    room: KeptRoom,
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
    /// The campaign of `files` (in request order) on `tapes`; errors name
    /// the file or tape that is wrong.
    pub fn new(files: Vec<FileSpec>, tapes: Vec<TapeSpec>) -> Result<Campaign> {
        if files.len() > u32::MAX as usize {
            return Err(Error::invalid("campaign", "more than 2^32 files"));
        }
        for (i, t) in tapes.iter().enumerate() {
            if t.used > t.capacity {
                return Err(Error::invalid(
                    "used",
                    format!("tape {i}: used {} exceeds capacity {}", t.used, t.capacity),
                ));
            }
        }
        let mut files_per_tape = vec![0usize; tapes.len()];
        for (i, f) in files.iter().enumerate() {
            let count = files_per_tape.get_mut(f.tape as usize).ok_or_else(|| {
                Error::invalid("tape", format!("file {i} is on unknown tape {}", f.tape))
            })?;
            *count += 1;
            if f.size == 0 {
                return Err(Error::invalid(
                    "size",
                    format!("file {i}: must be positive"),
                ));
            }
            if !(f.arrival_s.is_finite() && f.arrival_s >= 0.0) {
                return Err(Error::invalid(
                    "arrival",
                    format!("file {i}: must be a non-negative number of seconds"),
                ));
            }
        }
        let sorted = files.is_sorted_by(|a, b| a.arrival_s <= b.arrival_s);
        let arrival_order = (!sorted).then(|| {
            let mut order: Vec<u32> = (0..files.len() as u32).collect();
            order.sort_by(|&a, &b| {
                files[a as usize]
                    .arrival_s
                    .total_cmp(&files[b as usize].arrival_s)
            });
            order
        });
        let mut campaign = Campaign {
            files,
            tapes,
            files_per_tape,
            arrival_order,
            ..Campaign::default()
        };
        campaign.index_by_tape();
        Ok(campaign)
    }

    /// Builds the arrival-ordered views by tape (a counting sort), which
    /// strategies read instead of copying every request at each run.
    fn index_by_tape(&mut self) {
        let mut start = Vec::with_capacity(self.tapes.len() + 1);
        start.push(0);
        for &n in &self.files_per_tape {
            start.push(start.last().copied().unwrap_or(0) + n);
        }
        let mut next = start.clone();
        let n = self.files.len();
        let mut requests = vec![
            Request {
                file: 0,
                tape: 0,
                block: 0,
                size: 0,
            };
            n
        ];
        let mut tapes = Vec::with_capacity(n);
        let mut in_arrival_order = Vec::with_capacity(n);
        // The random strategy reads these at random: one TLB entry for 2 MiB
        // of them instead of 4 KiB.
        huge_pages(&mut in_arrival_order);
        let mut by_first_arrival = Vec::new();
        for rank in 0..n {
            let f = self.nth_arrival(rank).expect("rank within the campaign");
            let request = self.request(f);
            let t = request.tape as usize;
            if next[t] == start[t] {
                by_first_arrival.push(request.tape);
            }
            let slot = &mut next[t];
            requests[*slot] = request;
            *slot += 1;
            tapes.push(request.tape);
            in_arrival_order.push(request);
        }
        self.arrival_requests = in_arrival_order;
        self.arrival_tapes = tapes;
        self.tape_requests = requests;
        self.tape_start = start;
        self.tapes_by_first_arrival = by_first_arrival;
    }

    /// The buffers the last run over this campaign left (empty ones if
    /// none are kept); give them back with [`Campaign::keep_room`].
    pub(crate) fn take_room(&self) -> RunRoom {
        self.room.take()
    }

    /// Keeps a run's buffers for the next run over this campaign.
    pub(crate) fn keep_room(&self, room: RunRoom) {
        self.room.keep(room);
    }

    /// Requested files, in the order they were requested.
    pub fn files(&self) -> &[FileSpec] {
        &self.files
    }

    /// Tapes, indexed by `FileSpec::tape`.
    pub fn tapes(&self) -> &[TapeSpec] {
        &self.tapes
    }

    /// Number of requested files on each tape.
    pub fn files_per_tape(&self) -> &[usize] {
        &self.files_per_tape
    }

    /// The `i`-th file to arrive (ties in request order).
    pub fn nth_arrival(&self, i: usize) -> Option<u32> {
        match &self.arrival_order {
            Some(order) => order.get(i).copied(),
            None => (i < self.files.len()).then_some(i as u32),
        }
    }

    /// The request of the file ranked `rank` in arrival order (see
    /// [`Campaign::nth_arrival`]).
    pub fn nth_request(&self, rank: usize) -> Option<Request> {
        self.arrival_requests.get(rank).copied()
    }

    /// Tape of each file in arrival order (indexed like [`Campaign::nth_arrival`]).
    pub fn arrival_tapes(&self) -> &[u32] {
        &self.arrival_tapes
    }

    /// Tapes with requests, in the order their first request arrives (ties
    /// in request order): the order in which a requester receiving the whole
    /// campaign at once first sees each tape.
    pub fn tapes_by_first_arrival(&self) -> &[u32] {
        &self.tapes_by_first_arrival
    }

    /// Requests for `tape` in arrival order (ties in request order).
    pub fn tape_requests(&self, tape: u32) -> &[Request] {
        let t = tape as usize;
        &self.tape_requests[self.tape_start[t]..self.tape_start[t + 1]]
    }

    /// Every tape's [`Campaign::tape_requests`], tape after tape.
    pub fn requests_by_tape(&self) -> &[Request] {
        &self.tape_requests
    }

    /// Where `tape`'s requests start in [`Campaign::requests_by_tape`].
    pub fn tape_requests_start(&self, tape: u32) -> usize {
        self.tape_start[tape as usize]
    }

    /// Number of files that have arrived by `now`: the first rank of
    /// [`Campaign::nth_arrival`] arriving later.
    pub fn arrived_by(&self, now: f64) -> usize {
        let at = |rank: usize| {
            let f = self.nth_arrival(rank).expect("rank within the campaign");
            self.files[f as usize].arrival_s
        };
        let (mut lo, mut hi) = (0, self.files.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if at(mid) <= now {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Asks the memory for the request ranked `rank` in arrival order, to be
    /// read soon ([`Campaign::nth_request`]).
    pub fn prefetch(&self, rank: usize) {
        if let Some(r) = self.arrival_requests.get(rank) {
            prefetch(r);
        }
    }

    /// The request for `file`.
    pub fn request(&self, file: u32) -> Request {
        let f = &self.files[file as usize];
        Request {
            file,
            tape: f.tape,
            block: f.block,
            size: f.size,
        }
    }

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
        Campaign::new(files, tapes)
    }

    /// Checks that every file fits on its tape in the library's blocks and
    /// builds one locate model per tape.
    pub fn models(&self, spec: &LibrarySpec) -> Result<Vec<LinearModel>> {
        let (wind_s, overhead_s) = spec.read_model.locate_figures(spec.hardware.drive.rewind_s);
        let models = self
            .tapes
            .iter()
            .enumerate()
            .map(|(i, t)| {
                LinearModel::new(
                    t.capacity,
                    spec.block_bytes,
                    spec.hardware.drive.rate_bps,
                    wind_s,
                    overhead_s,
                )
                .map_err(|e| Error::invalid("capacity", format!("tape {i}: {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        if self.fits_in_blocks_of.get() == Some(&spec.block_bytes) {
            return Ok(models);
        }
        for (i, f) in self.files.iter().enumerate() {
            let capacity = crate::model::CostModel::capacity(&models[f.tape as usize]);
            let end = f.block.saturating_add(f.size.div_ceil(spec.block_bytes));
            if end > capacity {
                return Err(Error::invalid(
                    "block",
                    format!(
                        "file {i} at block {} ({} bytes) runs past the end of tape {} ({capacity} blocks)",
                        f.block, f.size, f.tape
                    ),
                ));
            }
        }
        // Another thread may have checked the same or another size first.
        let _ = self.fits_in_blocks_of.set(spec.block_bytes);
        Ok(models)
    }
}

/// Asks the kernel to back `v`'s room with 2 MiB pages where whole ones fit
/// (Linux; elsewhere, or below 4 MiB, nothing). Call it before the room is
/// first written.
fn huge_pages<T>(v: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = v.capacity() * std::mem::size_of::<T>();
        if bytes < 2 * HUGE {
            return;
        }
        let start = v.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let end = (start + bytes) / HUGE * HUGE;
        if end > first {
            // SAFETY: the range lies inside `v`'s allocation and is
            // page-aligned; the advice changes no contents.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Hints the cache to load `x`'s line (does nothing off x86-64).
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p: *const T = x;
        // SAFETY: SSE is part of x86-64, and a prefetch only hints the cache
        // (it never faults, here on a valid address anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
