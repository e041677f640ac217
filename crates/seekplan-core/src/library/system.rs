//! The tape system: its bounded request queue, the drives and the robot.
//!
//! A drive keeps its tape mounted while the tape has queued requests; when it
//! runs dry the drive takes the unmounted tape with the most queued bytes
//! (ties: the tape whose oldest queued request came first). Each tape's
//! requests are ordered from the head's position by the configured
//! algorithm, and re-ordered before the next read whenever new requests for
//! it arrived.

use super::{Campaign, LibrarySpec};
use crate::model::{Block, CostModel, Extent, LinearModel};
use crate::order::{order_tape, Algorithm};
use crate::sim::{Calendar, Resource, Time};
use crate::Result;

/// Events the library schedules for itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibEvent {
    /// The drive with this index finished its current step.
    Drive(usize),
    /// The robot arm serving the drive with this index finished its move.
    Arm(usize),
    /// Free drives look for work (deferred so that a burst of submissions at
    /// one instant is seen whole).
    Wake,
}

/// A request the library finished reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Completion {
    /// The file read.
    pub file: u32,
    /// Seconds from entering the tape-system queue to the end of its read.
    pub staging_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Empty,
    Idle,
    Reading(u32),
    /// Just finished a read; chooses the next one once the requester has
    /// refilled the queue (so refills for this tape are ordered in).
    Choosing,
    Rewinding,
    Unloading,
    WaitArm,
    Robot,
    Loading,
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
}

#[derive(Clone, Debug, Default)]
struct TapeQueue {
    /// Ordered requests, next one last.
    plan: Vec<u32>,
    /// Requests that arrived since the last ordering.
    fresh: Vec<u32>,
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
    campaign: &'a Campaign,
    models: Vec<LinearModel>,
    algo: Algorithm,
    tapes: Vec<TapeQueue>,
    drives: Vec<Drive>,
    robot: Resource<usize>,
    in_queue: usize,
    seq: u64,
    enqueued_at: Vec<Time>,
    wake_pending: bool,
    /// Finished mounts, in the order they ended.
    pub mounts: Vec<MountRecord>,
    /// Drive-seconds spent doing something (not idle or empty).
    pub busy_s: f64,
}

impl<'a> TapeSystem<'a> {
    /// An idle library with every tape in its slot.
    pub fn new(spec: &'a LibrarySpec, campaign: &'a Campaign) -> Result<Self> {
        let algo = spec.validate()?;
        let models = campaign.models(spec)?;
        Ok(TapeSystem {
            spec,
            campaign,
            models,
            algo,
            tapes: vec![TapeQueue::default(); campaign.tapes.len()],
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
                };
                spec.drives
            ],
            robot: Resource::new(spec.arms),
            in_queue: 0,
            seq: 0,
            enqueued_at: vec![0.0; campaign.files.len()],
            wake_pending: false,
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
        self.drives.iter().filter(|d| is_busy(d.phase)).count()
    }

    /// Puts `file` into the tape-system queue (the caller checks `room`).
    pub fn submit<E: From<LibEvent>>(&mut self, file: u32, cal: &mut Calendar<E>) {
        debug_assert!(self.in_queue < self.spec.queue_size);
        let f = self.campaign.files[file as usize];
        let q = &mut self.tapes[f.tape as usize];
        if q.len() == 0 {
            q.oldest = self.seq;
        }
        self.seq += 1;
        q.fresh.push(file);
        q.bytes += f.size;
        self.in_queue += 1;
        self.enqueued_at[file as usize] = cal.now();
        let wake = match q.holder {
            Some(d) => self.drives[d].phase == Phase::Idle,
            None => self
                .drives
                .iter()
                .any(|d| matches!(d.phase, Phase::Empty | Phase::Idle)),
        };
        if wake && !self.wake_pending {
            self.wake_pending = true;
            cal.schedule(0.0, LibEvent::Wake.into());
        }
    }

    /// Reacts to one of the library's own events; finished reads go to `done`.
    pub fn handle<E: From<LibEvent>>(
        &mut self,
        ev: LibEvent,
        cal: &mut Calendar<E>,
        done: &mut Vec<Completion>,
    ) -> Result<()> {
        match ev {
            LibEvent::Wake => {
                self.wake_pending = false;
                // Drives already holding a tape with work first, then empty
                // drives, then idle ones (which would give up their tape).
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
            }
            LibEvent::Arm(d) => {
                if let Some(t) = self.drives[d].returning.take() {
                    self.tapes[t as usize].holder = None;
                    if self.tapes[t as usize].len() > 0 && !self.wake_pending {
                        self.wake_pending = true;
                        cal.schedule(0.0, LibEvent::Wake.into());
                    }
                }
                if let Some(next) = self.robot.release() {
                    self.start_arm(next, cal);
                }
                self.step(d, Phase::Loading, self.spec.load_s, cal);
            }
            LibEvent::Drive(d) => match self.drives[d].phase {
                Phase::Reading(file) => {
                    let f = self.campaign.files[file as usize];
                    let drive = &mut self.drives[d];
                    drive.mount_bytes += f.size;
                    let q = &mut self.tapes[f.tape as usize];
                    q.bytes -= f.size;
                    self.in_queue -= 1;
                    done.push(Completion {
                        file,
                        staging_s: cal.now() - self.enqueued_at[file as usize],
                    });
                    self.step(d, Phase::Choosing, 0.0, cal);
                }
                Phase::Choosing => self.dispatch(d, cal)?,
                Phase::Rewinding => {
                    self.step(d, Phase::Unloading, self.spec.unload_s, cal);
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
                Phase::Loading => {
                    self.step(d, Phase::Threading, self.spec.thread_s, cal);
                }
                Phase::Threading => {
                    let drive = &mut self.drives[d];
                    drive.mounted = drive.target.take();
                    drive.head = Block(0);
                    drive.mount_start = cal.now();
                    drive.mount_bytes = 0;
                    self.dispatch(d, cal)?;
                }
                other => unreachable!("drive {d} got an event while {other:?}"),
            },
        }
        Ok(())
    }

    /// Closes the books at the end of a run: mounts still in drives end now
    /// and busy drives stop counting.
    pub fn finish(&mut self, now: Time) {
        for d in &mut self.drives {
            if is_busy(d.phase) {
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

    fn has_own_work(&self, d: usize) -> bool {
        self.drives[d]
            .mounted
            .is_some_and(|t| self.tapes[t as usize].len() > 0)
    }

    /// Gives drive `d`, which just became free, its next piece of work.
    fn dispatch<E: From<LibEvent>>(&mut self, d: usize, cal: &mut Calendar<E>) -> Result<()> {
        if let Some(t) = self.drives[d].mounted {
            if let Some(file) = self.next_request(t, self.drives[d].head)? {
                let f = self.campaign.files[file as usize];
                let model = &self.models[t as usize];
                let extent = Extent {
                    start: Block(f.block),
                    bytes: f.size,
                };
                let read = model.read(extent);
                let secs = model.locate(self.drives[d].head, extent.start) + read.seconds;
                self.drives[d].head = read.end;
                self.step(d, Phase::Reading(file), secs, cal);
                return Ok(());
            }
        }
        let Some(next) = self.most_relevant_tape() else {
            let phase = if self.drives[d].mounted.is_some() {
                Phase::Idle
            } else {
                Phase::Empty
            };
            self.set_phase(d, phase, cal.now());
            return Ok(());
        };
        self.tapes[next as usize].holder = Some(d);
        self.drives[d].target = Some(next);
        if self.drives[d].mounted.is_some() {
            self.step(d, Phase::Rewinding, self.spec.rewind_s, cal);
        } else {
            self.request_arm(d, cal);
        }
        Ok(())
    }

    /// The unheld tape with the most queued bytes; ties go to the tape whose
    /// oldest queued request is older.
    fn most_relevant_tape(&self) -> Option<u32> {
        self.tapes
            .iter()
            .enumerate()
            .filter(|(_, q)| q.holder.is_none() && q.len() > 0)
            .max_by(|(_, a), (_, b)| a.bytes.cmp(&b.bytes).then(b.oldest.cmp(&a.oldest)))
            .map(|(i, _)| i as u32)
    }

    /// The next request to read on tape `t` with the head at `head`,
    /// re-ordering first if requests arrived since the last ordering.
    fn next_request(&mut self, t: u32, head: Block) -> Result<Option<u32>> {
        let q = &mut self.tapes[t as usize];
        if !q.fresh.is_empty() {
            let mut files = std::mem::take(&mut q.plan);
            files.append(&mut q.fresh);
            let extents = files
                .iter()
                .map(|&f| {
                    let f = self.campaign.files[f as usize];
                    Extent {
                        start: Block(f.block),
                        bytes: f.size,
                    }
                })
                .collect();
            let schedule = order_tape(&self.models[t as usize], extents, head, None, self.algo)?;
            q.plan = schedule.order.iter().rev().map(|&i| files[i]).collect();
        }
        Ok(q.plan.pop())
    }

    fn request_arm<E: From<LibEvent>>(&mut self, d: usize, cal: &mut Calendar<E>) {
        if self.robot.acquire(d).is_some() {
            self.start_arm(d, cal);
        } else {
            self.set_phase(d, Phase::WaitArm, cal.now());
        }
    }

    fn start_arm<E: From<LibEvent>>(&mut self, d: usize, cal: &mut Calendar<E>) {
        let drive = &self.drives[d];
        let secs = self.spec.fetch_s
            + if drive.returning.is_some() {
                self.spec.return_s
            } else {
                0.0
            };
        self.set_phase(d, Phase::Robot, cal.now());
        cal.schedule(secs, LibEvent::Arm(d).into());
    }

    fn step<E: From<LibEvent>>(
        &mut self,
        d: usize,
        phase: Phase,
        secs: f64,
        cal: &mut Calendar<E>,
    ) {
        self.set_phase(d, phase, cal.now());
        cal.schedule(secs, LibEvent::Drive(d).into());
    }

    fn set_phase(&mut self, d: usize, phase: Phase, now: Time) {
        let drive = &mut self.drives[d];
        match (is_busy(drive.phase), is_busy(phase)) {
            (false, true) => drive.busy_since = now,
            (true, false) => self.busy_s += now - drive.busy_since,
            _ => {}
        }
        drive.phase = phase;
    }
}

fn is_busy(phase: Phase) -> bool {
    !matches!(phase, Phase::Empty | Phase::Idle)
}
