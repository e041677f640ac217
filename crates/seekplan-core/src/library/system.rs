//! The tape system: its bounded request queue, the drives and the robot.
//!
//! A drive keeps its tape mounted while the tape has queued requests; when it
//! runs dry the drive takes the unmounted tape with the most queued bytes
//! (ties: the tape whose oldest queued request came first). As in the dCache
//! paper's simulator (Morschel et al., §4.2, Figure 3) a drive takes its
//! tape's queued requests as a batch, orders them once from the head's
//! position with the configured algorithm and reads them; requests arriving
//! for the tape meanwhile are inserted into the batch where they add least
//! locate time, or wait for the next batch ([`Arrivals`]). How long a read
//! takes is the [`ReadModel`]'s.
use super::relevance::{self, Relevance};
use super::scan::scan_linear;
use super::{
    prefetch, ArmPool, Arrivals, Campaign, FifoArms, LibrarySpec, Move, ReadModel, Request, RunRoom,
};
use crate::model::{Block, BlockSize, CostModel, Extent, LinearModel};
use crate::order::{order_tape, Algorithm};
use crate::sim::{SlotCalendar, Time};
use crate::Result;

/// How many stops before a batch's next read [`TapeSystem::next_request`]
/// asks the memory for: two cache lines of 32-byte stops (8 ahead, chosen
/// for 40-byte stops, ran about 1 % slower on every Table-1 run once they
/// shrank; 16 ahead 1-2 % slower still).
const PLAN_PREFETCH_AHEAD: usize = 4;

/// How many stops past a tape's newest queued request a submission asks
/// the memory for: with twelve tapes' queues growing at once (by-12-tapes)
/// each push wrote to a line not yet in the cache; asking ahead took a
/// queue-30,000 run from 12.0-12.6 ms to 10.6 ms (4 and 8 ahead alike).
const FRESH_PREFETCH_AHEAD: usize = 4;

/// A request the library finished reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Completion {
    /// The file read.
    pub file: u32,
    /// Its size in bytes.
    pub bytes: u64,
    /// Seconds from entering the tape-system queue to the end of its read.
    pub staging_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Empty,
    Idle,
    Reading(Stop),
    /// Just finished a read; chooses the next one in [`TapeSystem::resume`],
    /// once the requester has refilled the queue.
    Choosing,
    /// Rewinding, then unloading: one event at the end of both (nothing
    /// between them can change what the drive does).
    Unloading,
    WaitArm,
    Robot,
    /// Loading, then threading: one event at the end of both.
    Threading,
}

#[derive(Clone, Debug)]
struct Drive {
    phase: Phase,
    /// Tape in the drive, from the end of threading to the end of unloading.
    mounted: Option<u32>,
    /// Tape to mount next, while a swap is under way.
    target: Option<u32>,
    /// Tape the robot is returning to its slot for this drive.
    returning: Option<u32>,
    head: Block,
    busy_since: Time,
    mount_start: Time,
    mount_bytes: u64,
    /// The session's volume the drive's read rate was last worked out for
    /// and that rate (bytes a second), for the session-fraction model: a
    /// read leaves the volume as it was (read since the mount grows by what
    /// the tape's queue loses), so only a request joining the tape's queue
    /// changes it, and working the rate out is skipped otherwise.
    rate_for: (u64, f64),
}

/// A queued read: the file, its first block, its size and when it entered
/// the queue (kept together so a read touches one record). Where it ends
/// follows from its start and size ([`Stop::end`]): without the end a stop
/// is 32 bytes, not 40, and the queues of a busy library move a fifth less
/// memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stop {
    file: u32,
    start: u64,
    size: u64,
    enqueued: Time,
}

impl Stop {
    /// The block after the stop's last, on a tape of `block`-byte blocks
    /// (where the tape models' `read` ends it).
    fn end(&self, block: BlockSize) -> u64 {
        self.start.saturating_add(block.blocks_of(self.size))
    }
}

#[derive(Clone, Debug, Default)]
struct TapeQueue {
    /// The batch being read, in order, next one last.
    plan: Vec<Stop>,
    /// Queued requests not in a batch yet.
    fresh: Vec<Stop>,
    /// Bytes queued (in the batch or not), including the read under way.
    bytes: u64,
    /// Sequence number of the oldest request queued (smaller is older).
    oldest: u64,
    /// Drive that holds (mounts or is mounting) the tape.
    holder: Option<usize>,
}

impl TapeQueue {
    fn len(&self) -> usize {
        self.plan.len() + self.fresh.len()
    }

    /// How relevant the tape is for a free drive ([`relevance::key`]:
    /// more queued bytes first, then the older oldest request; sequence
    /// numbers are unique, so no two tapes with requests tie).
    fn key(&self) -> u128 {
        relevance::key(self.bytes, self.oldest)
    }
}

/// One finished mount: how long the tape stayed in a drive and what it gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MountRecord {
    /// The tape.
    pub tape: u32,
    /// Seconds from threaded to unloaded (or to the end of the run).
    pub duration_s: f64,
    /// Bytes read during the mount.
    pub bytes: u64,
}

/// The state of the simulated library.
pub struct TapeSystem<'a> {
    spec: &'a LibrarySpec,
    models: Vec<LinearModel>,
    algo: Algorithm,
    tapes: Vec<TapeQueue>,
    drives: Vec<Drive>,
    /// Arms handed to drives first come, first served as moves end.
    robot: FifoArms<usize>,
    in_queue: usize,
    seq: u64,
    wake_pending: bool,
    /// Drives that are empty or idle (free for another tape), kept by
    /// `set_phase` so a submission need not look at every drive.
    free_drives: usize,
    /// The drive that finished a read and chooses its next in `resume`.
    choosing: Option<usize>,
    /// Unheld tapes with queued requests by relevance (see
    /// [`TapeSystem::most_relevant_tape`]).
    relevance: Relevance,
    /// Tapes whose rise in rank `relevance` has not heard of yet, and
    /// whether each tape is among them ([`TapeSystem::rerank`]).
    stale_ranks: Vec<u32>,
    rank_stale: Vec<bool>,
    /// The library's block size, for a stop's end.
    block_size: BlockSize,
    /// Each tape's [`ReadModel::per_full_volume`].
    per_full_volume: Vec<f64>,
    /// Scratch room of [`scan_linear`].
    scan_keys: Vec<u64>,
    /// Finished mounts, in the order they ended.
    pub mounts: Vec<MountRecord>,
    /// Drive-seconds spent doing something (not idle or empty).
    pub busy_s: f64,
}

impl<'a> TapeSystem<'a> {
    /// An idle library with every tape in its slot, its queues' buffers
    /// taken from `room` (a previous run's, whose pages are mapped already,
    /// or empty ones); give them back with [`TapeSystem::leave_room`].
    pub(crate) fn new(
        spec: &'a LibrarySpec,
        campaign: &'a Campaign,
        room: &mut RunRoom,
    ) -> Result<Self> {
        let algo = spec.validate()?;
        let models = campaign.models(spec)?;
        // Room for as many requests as a tape can have queued, so that
        // queueing never grows a vector (untouched room costs no memory).
        let mut buffer = |n: usize| {
            let mut b = room.queues.pop().unwrap_or_default();
            b.clear();
            b.reserve(n);
            b
        };
        let tapes = campaign
            .files_per_tape()
            .iter()
            .map(|&n| TapeQueue {
                fresh: buffer(n.min(spec.queue_size)),
                plan: buffer(0),
                ..TapeQueue::default()
            })
            .collect();
        let mut scan_keys = std::mem::take(&mut room.keys);
        scan_keys.clear();
        Ok(TapeSystem {
            spec,
            models,
            algo,
            tapes,
            drives: vec![
                Drive {
                    phase: Phase::Empty,
                    mounted: None,
                    target: None,
                    returning: None,
                    head: Block(0),
                    busy_since: 0.0,
                    mount_start: 0.0,
                    mount_bytes: 0,
                    rate_for: (u64::MAX, 0.0),
                };
                spec.hardware.drives
            ],
            robot: FifoArms::new(spec.hardware.robot.arms),
            in_queue: 0,
            seq: 0,
            wake_pending: false,
            free_drives: spec.hardware.drives,
            choosing: None,
            relevance: Relevance::new(campaign.tapes().len()),
            stale_ranks: Vec::new(),
            rank_stale: vec![false; campaign.tapes().len()],
            block_size: BlockSize::new(spec.block_bytes),
            per_full_volume: campaign
                .tapes()
                .iter()
                .map(|t| spec.read_model.per_full_volume(t.capacity))
                .collect(),
            scan_keys,
            mounts: Vec::new(),
            busy_s: 0.0,
        })
    }

    /// Free places in the tape-system queue.
    pub fn room(&self) -> usize {
        self.spec.queue_size - self.in_queue
    }

    /// Number of drives doing something right now.
    pub fn busy_drives(&self) -> usize {
        self.drives.len() - self.free_drives
    }

    /// Puts a request into the tape-system queue (the caller checks `room`).
    /// Always inlined, as [`TapeSystem::handle`] is (see there).
    #[inline(always)]
    pub fn submit(&mut self, f: Request, cal: &mut SlotCalendar) {
        debug_assert!(self.in_queue < self.spec.queue_size);
        let t = f.tape as usize;
        // The drive reading a batch of this tape, if any (only `insert`
        // arrivals ask).
        let reading = match self.spec.arrivals {
            Arrivals::Insert => self.tapes[t].holder.filter(|&d| {
                let drive = &self.drives[d];
                drive.mounted == Some(f.tape)
                    && matches!(drive.phase, Phase::Reading(_) | Phase::Choosing)
            }),
            Arrivals::NextBatch => None,
        };
        let stop = self.stop(f, cal.now());
        let q = &mut self.tapes[t];
        if q.len() == 0 {
            q.oldest = self.seq;
        }
        self.seq += 1;
        q.bytes += f.size;
        self.in_queue += 1;
        match reading {
            Some(d) => {
                let (head, model) = (self.drives[d].head, &self.models[t]);
                cheapest_insertion(&mut q.plan, stop, head, model, self.block_size);
            }
            None => {
                q.fresh.push(stop);
                if let Some(ahead) = q.fresh.spare_capacity_mut().get(FRESH_PREFETCH_AHEAD) {
                    prefetch(ahead);
                }
            }
        }
        let wake = match q.holder {
            Some(d) => self.drives[d].phase == Phase::Idle,
            None => {
                self.rerank(f.tape);
                self.free_drives > 0
            }
        };
        if wake && !self.wake_pending {
            self.wake_pending = true;
            cal.schedule(self.wake_slot(), 0.0);
        }
    }

    /// Slots of the library's events in the calendar: `0..slots()`. Slot
    /// `d < drives` is drive `d`'s (its step or, while the robot serves it,
    /// its arm move ends); the last one wakes the free drives (deferred so
    /// that a burst of submissions at one instant is seen whole).
    pub fn slots(&self) -> usize {
        self.drives.len() + 1
    }

    fn wake_slot(&self) -> usize {
        self.drives.len()
    }

    /// Reacts to the event of slot `slot` (below [`TapeSystem::slots`]);
    /// returns the read it finished, if any.
    ///
    /// Always inlined into the run's event loop, its one caller, as is
    /// [`TapeSystem::submit`]: LLVM kept both out of line, and the calls'
    /// register saves and the completion passed through memory cost a
    /// by-12-tapes event at queue 30,000 709 instead of 656 instructions and
    /// the Table-1 by-tapes runs 5-7 % more CPU (callgrind and A/B timing,
    /// 2026-11-27). Inlining `dispatch` as well, or by-tapes' `take`, was
    /// slower (more code in the loop, more spills).
    #[inline(always)]
    pub fn handle(&mut self, slot: usize, cal: &mut SlotCalendar) -> Result<Option<Completion>> {
        if slot == self.wake_slot() {
            self.wake(cal)?;
            return Ok(None);
        }
        let d = slot;
        match self.drives[d].phase {
            Phase::Robot => self.arm_done(d, cal),
            Phase::Reading(stop) => {
                let drive = &mut self.drives[d];
                drive.mount_bytes += stop.size;
                let tape = drive.mounted.expect("reading a mounted tape");
                self.tapes[tape as usize].bytes -= stop.size;
                self.in_queue -= 1;
                self.set_phase(d, Phase::Choosing, cal.now());
                self.choosing = Some(d);
                return Ok(Some(Completion {
                    file: stop.file,
                    bytes: stop.size,
                    staging_s: cal.now() - stop.enqueued,
                }));
            }
            Phase::Unloading => {
                let drive = &mut self.drives[d];
                let tape = drive.mounted.take().expect("unloading a mounted tape");
                self.mounts.push(MountRecord {
                    tape,
                    duration_s: cal.now() - drive.mount_start,
                    bytes: drive.mount_bytes,
                });
                drive.returning = Some(tape);
                self.request_arm(d, cal);
            }
            Phase::Threading => {
                let drive = &mut self.drives[d];
                drive.mounted = drive.target.take();
                drive.head = Block(0);
                drive.mount_start = cal.now();
                drive.mount_bytes = 0;
                drive.rate_for = (u64::MAX, 0.0);
                self.dispatch(d, cal)?;
            }
            other => unreachable!("drive {d} got an event while {other:?}"),
        }
        Ok(None)
    }

    /// Free drives look for work.
    fn wake(&mut self, cal: &mut SlotCalendar) -> Result<()> {
        self.wake_pending = false;
        // Drives already holding a tape with work first, then empty drives,
        // then idle ones (which would give up their tape).
        for d in 0..self.drives.len() {
            if self.drives[d].phase == Phase::Idle && self.has_own_work(d) {
                self.dispatch(d, cal)?;
            }
        }
        for phase in [Phase::Empty, Phase::Idle] {
            for d in 0..self.drives.len() {
                if self.drives[d].phase == phase {
                    self.dispatch(d, cal)?;
                }
            }
        }
        Ok(())
    }

    /// The arm serving drive `d` finished its move: the drive's old tape (if
    /// any) is back in its slot and its next one in the drive.
    fn arm_done(&mut self, d: usize, cal: &mut SlotCalendar) {
        if let Some(t) = self.drives[d].returning.take() {
            self.tapes[t as usize].holder = None;
            if self.tapes[t as usize].len() > 0 {
                self.rerank(t);
                if !self.wake_pending {
                    self.wake_pending = true;
                    cal.schedule(self.wake_slot(), 0.0);
                }
            }
        }
        if let Some(next) = self.robot.done(cal.now()) {
            self.start_arm(next, cal);
        }
        let drive = &self.spec.hardware.drive;
        self.two_steps(d, Phase::Threading, drive.load_s, drive.thread_s, cal);
    }

    /// Lets the drive that finished a read choose its next step; call it
    /// after every [`TapeSystem::handle`] that completed a read, once the
    /// requester has refilled the queue.
    pub fn resume(&mut self, cal: &mut SlotCalendar) -> Result<()> {
        if let Some(d) = self.choosing.take() {
            self.dispatch(d, cal)?;
        }
        Ok(())
    }

    /// Closes the books at the end of a run: mounts still in drives end now
    /// and busy drives stop counting.
    pub fn finish(&mut self, now: Time) {
        for d in &mut self.drives {
            if !is_free(d.phase) {
                self.busy_s += now - d.busy_since;
            }
            // A tape counts as mounted from the end of threading to the end
            // of unloading; one still being loaded is not counted.
            if let Some(tape) = d.mounted {
                self.mounts.push(MountRecord {
                    tape,
                    duration_s: now - d.mount_start,
                    bytes: d.mount_bytes,
                });
            }
        }
    }

    /// Gives the queues' buffers and sort keys to `room`, for the next run:
    /// stacked so that [`TapeSystem::new`] pops each tape's own buffers
    /// back, the larger one for its queue. Stacked in tape order, every
    /// tape got another tape's buffers in the next run, and growing them
    /// copied whole blocks (780 instead of 734 instructions an event at
    /// queue 2,000, by-12-tapes; callgrind, 2026-11-27).
    pub(crate) fn leave_room(self, room: &mut RunRoom) {
        for q in self.tapes.into_iter().rev() {
            let (small, large) = if q.plan.capacity() > q.fresh.capacity() {
                (q.fresh, q.plan)
            } else {
                (q.plan, q.fresh)
            };
            room.queues.push(small);
            room.queues.push(large);
        }
        room.keys = self.scan_keys;
    }

    fn has_own_work(&self, d: usize) -> bool {
        self.drives[d]
            .mounted
            .is_some_and(|t| self.tapes[t as usize].len() > 0)
    }

    /// Gives drive `d`, which just became free, its next piece of work.
    fn dispatch(&mut self, d: usize, cal: &mut SlotCalendar) -> Result<()> {
        if let Some(t) = self.drives[d].mounted {
            if let Some(other) = self.outranking_tape(t) {
                return self.swap(d, other, cal);
            }
            if let Some(stop) = self.next_request(t, self.drives[d].head)? {
                let secs = self.read_seconds(d, t, stop);
                self.drives[d].head = Block(stop.end(self.block_size));
                self.step(d, Phase::Reading(stop), secs, cal);
                return Ok(());
            }
        }
        match self.most_relevant_tape() {
            Some(next) => self.swap(d, next, cal),
            None => {
                let phase = if self.drives[d].mounted.is_some() {
                    Phase::Idle
                } else {
                    Phase::Empty
                };
                self.set_phase(d, phase, cal.now());
                Ok(())
            }
        }
    }

    /// Sends drive `d` to mount tape `next` (unmounting its tape first).
    fn swap(&mut self, d: usize, next: u32, cal: &mut SlotCalendar) -> Result<()> {
        self.tapes[next as usize].holder = Some(d);
        self.relevance.remove(next);
        self.drives[d].target = Some(next);
        if self.drives[d].mounted.is_some() {
            let drive = &self.spec.hardware.drive;
            self.two_steps(d, Phase::Unloading, drive.rewind_s, drive.unload_s, cal);
        } else {
            self.request_arm(d, cal);
        }
        Ok(())
    }

    /// With `next-batch` arrivals, a drive whose batch on tape `t` is done is
    /// assigned "the next most relevant cartridge" (Figure 3, step 3): an
    /// unheld tape that outranks its own queued requests, if there is one.
    fn outranking_tape(&mut self, t: u32) -> Option<u32> {
        let own = &self.tapes[t as usize];
        if self.spec.arrivals != Arrivals::NextBatch || !own.plan.is_empty() || own.fresh.is_empty()
        {
            return None;
        }
        let own = (own.key(), t);
        self.most_relevant_tape()
            .filter(|&o| (self.tapes[o as usize].key(), o) > own)
    }

    /// Notes that unheld tape `t`, which has queued requests, rose in rank;
    /// `relevance` hears of it when a drive next looks for a tape
    /// ([`TapeSystem::most_relevant_tape`]). A tape the requester feeds
    /// rises with every request, and drives look rarely (when a batch ends),
    /// so each tape's rises between two looks reach `relevance` once.
    fn rerank(&mut self, t: u32) {
        let stale = &mut self.rank_stale[t as usize];
        if !*stale {
            *stale = true;
            self.stale_ranks.push(t);
        }
    }

    /// The unheld tape with the most queued bytes; ties go to the tape whose
    /// oldest queued request is older. Passes the rises noted since the last
    /// look ([`TapeSystem::rerank`]) on to `relevance` first.
    fn most_relevant_tape(&mut self) -> Option<u32> {
        for t in self.stale_ranks.drain(..) {
            self.rank_stale[t as usize] = false;
            let q = &self.tapes[t as usize];
            // Taken by a drive since its rise (then it is no candidate).
            if q.holder.is_none() {
                self.relevance.raise(t, q.key());
            }
        }
        self.relevance.top()
    }

    /// The next request to read on tape `t` with the head at `head`; when
    /// the batch is done, the tape's queued requests become the next batch,
    /// ordered once.
    fn next_request(&mut self, t: u32, head: Block) -> Result<Option<Stop>> {
        let q = &mut self.tapes[t as usize];
        if q.plan.is_empty() && !q.fresh.is_empty() {
            if self.algo == Algorithm::Scan {
                scan_linear(
                    &mut q.fresh,
                    head.0,
                    |s| s.start,
                    &mut self.scan_keys,
                    &mut q.plan,
                );
            } else {
                let batch = std::mem::take(&mut q.fresh);
                let schedule = order_tape(
                    &self.models[t as usize],
                    extents(&batch),
                    head,
                    None,
                    self.algo,
                )?;
                q.plan = schedule.order.iter().rev().map(|&i| batch[i]).collect();
            }
        }
        // The batch is read from its end, one stop per read: ask the memory
        // for the stops a few reads ahead (the 12 drives' batches and the
        // queues between them overflow the cache; the load of the next
        // stop was a fifth of a drive's dispatch in perf samples).
        if let Some(ahead) = q.plan.len().checked_sub(PLAN_PREFETCH_AHEAD) {
            prefetch(&q.plan[ahead]);
        }
        Ok(q.plan.pop())
    }

    /// The read of request `f`, queued at `now`.
    fn stop(&self, f: Request, now: Time) -> Stop {
        Stop {
            file: f.file,
            start: f.block,
            size: f.size,
            enqueued: now,
        }
    }

    /// Seconds drive `d` takes to position for and read `stop` on tape `t`.
    fn read_seconds(&mut self, d: usize, t: u32, stop: Stop) -> f64 {
        match self.spec.read_model {
            ReadModel::Positional { .. } => {
                let model = &self.models[t as usize];
                let read = model.read(Extent {
                    start: Block(stop.start),
                    bytes: stop.size,
                });
                model.locate(self.drives[d].head, Block(stop.start)) + read.seconds
            }
            ReadModel::SessionFraction { .. } => {
                // The session's volume: read since the mount plus queued for
                // the tape (this file included).
                let session = self.drives[d].mount_bytes + self.tapes[t as usize].bytes;
                let (known, mut rate) = self.drives[d].rate_for;
                if known != session {
                    let share = session as f64 * self.per_full_volume[t as usize];
                    rate = self.spec.hardware.drive.rate_bps
                        * self.spec.read_model.efficiency_of_full(share);
                    self.drives[d].rate_for = (session, rate);
                }
                stop.size as f64 / rate
            }
        }
    }

    /// Drive `d` asks for an arm: to return its tape (if it unloaded one)
    /// and fetch the next. It waits if every arm is busy.
    fn request_arm(&mut self, d: usize, cal: &mut SlotCalendar) {
        let robot = &self.spec.hardware.robot;
        let secs = robot.fetch_s
            + if self.drives[d].returning.is_some() {
                robot.return_s
            } else {
                0.0
            };
        match self.robot.request(d, cal.now(), secs) {
            Some(arm) => self.start_arm(arm, cal),
            None => self.set_phase(d, Phase::WaitArm, cal.now()),
        }
    }

    /// The arm move of `arm.waiter` starts now; it ends with a
    /// [`LibEvent::Arm`].
    fn start_arm(&mut self, arm: Move<usize>, cal: &mut SlotCalendar) {
        self.set_phase(arm.waiter, Phase::Robot, cal.now());
        cal.schedule_at(arm.waiter, arm.end);
    }

    fn step(&mut self, d: usize, phase: Phase, secs: f64, cal: &mut SlotCalendar) {
        self.set_phase(d, phase, cal.now());
        cal.schedule(d, secs);
    }

    /// Two steps of `first` then `second` seconds with nothing to decide
    /// between them, as one event: at the time the two would have ended
    /// (the same sum, so the same bits).
    fn two_steps(
        &mut self,
        d: usize,
        phase: Phase,
        first: f64,
        second: f64,
        cal: &mut SlotCalendar,
    ) {
        self.set_phase(d, phase, cal.now());
        cal.schedule_at(d, (cal.now() + first) + second);
    }

    fn set_phase(&mut self, d: usize, phase: Phase, now: Time) {
        let drive = &mut self.drives[d];
        match (is_free(drive.phase), is_free(phase)) {
            (true, false) => {
                drive.busy_since = now;
                self.free_drives -= 1;
            }
            (false, true) => {
                self.busy_s += now - drive.busy_since;
                self.free_drives += 1;
            }
            _ => {}
        }
        drive.phase = phase;
    }
}

/// A drive that is doing nothing and could take another tape.
fn is_free(phase: Phase) -> bool {
    matches!(phase, Phase::Empty | Phase::Idle)
}

/// The extents of a batch's stops, as the orderer takes them.
fn extents(batch: &[Stop]) -> Vec<Extent> {
    batch
        .iter()
        .map(|s| Extent {
            start: Block(s.start),
            bytes: s.size,
        })
        .collect()
}

/// Inserts `stop` into `plan` (next read last; the head is at `head`) where
/// it adds the least locate time on `model` (of `block`-byte blocks); ties
/// go to the earlier read.
fn cheapest_insertion(
    plan: &mut Vec<Stop>,
    stop: Stop,
    head: Block,
    model: &LinearModel,
    block: BlockSize,
) {
    let cost = |from: u64, to: u64| model.locate(Block(from), Block(to));
    let n = plan.len();
    // Visiting order: head, plan[n-1], ..., plan[0]. Inserting after the
    // j-th visit (j = 0 is the head) puts the stop at index n - j.
    let mut prev_end = head.0;
    let mut best = (f64::INFINITY, n);
    for j in 0..=n {
        let delta = if j < n {
            let next = plan[n - 1 - j];
            cost(prev_end, stop.start) + cost(stop.end(block), next.start)
                - cost(prev_end, next.start)
        } else {
            cost(prev_end, stop.start)
        };
        if delta < best.0 {
            best = (delta, n - j);
        }
        if j < n {
            prev_end = plan[n - 1 - j].end(block);
        }
    }
    plan.insert(best.1, stop);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Locate seconds of visiting `plan` (next read last) from `head`.
    fn route(plan: &[Stop], head: u64, model: &LinearModel) -> f64 {
        let mut at = head;
        let mut total = 0.0;
        for s in plan.iter().rev() {
            total += model.locate(Block(at), Block(s.start));
            at = s.end(BlockSize::new(1));
        }
        total
    }

    #[test]
    fn scan_linear_is_the_scan_orderer_on_a_linear_tape() {
        let model = LinearModel::new(10_000, 1, 1.0, 100.0, 2.0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for case in 0..300 {
            // Every other batch nearly in block order, as the clustering
            // strategies pass them on.
            let sorted = case % 2 == 0;
            let batch: Vec<Stop> = (0..case % 40)
                .map(|i| {
                    // Few distinct blocks, so that ties occur.
                    let start = if sorted && !rng.gen_bool(0.05) {
                        u64::from(i) * 100
                    } else {
                        rng.gen_range(0..50) * 100
                    };
                    Stop {
                        file: i,
                        start,
                        size: 1,
                        enqueued: 0.0,
                    }
                })
                .collect();
            let head = Block(rng.gen_range(0..5_000));
            let schedule =
                order_tape(&model, extents(&batch), head, None, Algorithm::Scan).unwrap();
            let expected: Vec<u32> = schedule.order.iter().map(|&i| batch[i].file).collect();
            let mut plan = Vec::new();
            scan_linear(
                &mut batch.clone(),
                head.0,
                |s| s.start,
                &mut Vec::new(),
                &mut plan,
            );
            let ours: Vec<u32> = plan.iter().rev().map(|s| s.file).collect();
            assert_eq!(ours, expected, "case {case}");
        }
    }

    #[test]
    fn cheapest_insertion_matches_brute_force() {
        let model = LinearModel::new(10_000, 1, 1.0, 100.0, 2.0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let stop = |rng: &mut ChaCha8Rng, file| {
            let start = rng.gen_range(0..9_990);
            // Blocks of a byte: the stop spans `size` blocks.
            Stop {
                file,
                start,
                size: rng.gen_range(1..10),
                enqueued: 0.0,
            }
        };
        for case in 0..300 {
            let n = case % 12;
            let plan: Vec<Stop> = (0..n).map(|i| stop(&mut rng, i as u32)).collect();
            let new = stop(&mut rng, 99);
            let head = rng.gen_range(0..10_000);
            let best = (0..=n)
                .map(|i| {
                    let mut p = plan.clone();
                    p.insert(i, new);
                    route(&p, head, &model)
                })
                .fold(f64::INFINITY, f64::min);
            let mut p = plan.clone();
            cheapest_insertion(&mut p, new, Block(head), &model, BlockSize::new(1));
            assert_eq!(p.len(), n + 1);
            assert!((route(&p, head, &model) - best).abs() < 1e-9, "case {case}");
        }
    }
}
