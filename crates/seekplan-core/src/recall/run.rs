//! One recall run: requester + library on a calendar of fixed slots (the
//! library's, then the run's own events).

use super::metrics::time_bits;
use super::strategy::QueueJob;
use super::{Metrics, Pending, Series, Strategy, Tapes};
use crate::library::{Campaign, LibrarySpec, TapeSystem};
use crate::sim::SlotCalendar;
use crate::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Everything a recall run needs besides the campaign.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecallSpec {
    /// The library.
    pub library: LibrarySpec,
    /// The requester's strategy.
    pub strategy: Strategy,
    /// Virtual duration of the run in seconds.
    pub duration_s: f64,
    /// Interval of the time series in seconds.
    pub sample_s: f64,
    /// Seed of the run's random draws.
    pub seed: u64,
}

/// A run's summary, its time series and how much work the engine did.
#[derive(Clone, Debug, Serialize)]
pub struct RecallOutcome {
    /// Summary figures.
    pub metrics: Metrics,
    /// Sampled time series.
    pub series: Series,
    /// Events handled by the engine.
    pub events: u64,
}

/// The run's own events, in the calendar slots after the library's.
#[derive(Clone, Copy, Debug)]
enum Ev {
    /// Requests whose arrival time has come reach the requester.
    Arrivals,
    /// The requester re-runs its rules (dCache timers).
    Tick,
    /// Time-series sample.
    Sample,
}

impl Ev {
    const ALL: [Ev; 3] = [Ev::Arrivals, Ev::Tick, Ev::Sample];
}

struct Recall<'a, P> {
    campaign: &'a Campaign,
    next_arrival: usize,
    requester: P,
    library: TapeSystem<'a>,
    tick_pending: bool,
    sample_s: f64,
    bytes: u64,
    files: u64,
    last_staged_s: Option<f64>,
    staging_sum_s: f64,
    /// Staging time of every staged file, as [`time_bits`] (for its
    /// quantiles).
    staging_bits: Vec<u64>,
    bytes_at_sample: u64,
    series: Series,
}

impl<P: Pending> Recall<'_, P> {
    /// The calendar slot of the run's event `ev`.
    fn slot(&self, ev: Ev) -> usize {
        self.library.slots() + ev as usize
    }

    /// Passes requests on while the tape-system queue has room.
    fn fill(&mut self, cal: &mut SlotCalendar) {
        let (library, now) = (&mut self.library, cal.now());
        self.requester
            .take_into(now, library.room(), |f| library.submit(f, cal));
        if !self.tick_pending {
            if let Some(dt) = self.requester.next_wake() {
                self.tick_pending = true;
                cal.schedule(self.slot(Ev::Tick), dt);
            }
        }
    }

    /// Reacts to the event of calendar slot `slot`, which fires at `cal.now()`.
    fn handle(&mut self, slot: usize, cal: &mut SlotCalendar) -> Result<()> {
        let first = self.library.slots();
        if slot < first {
            if let Some(c) = self.library.handle(slot, cal)? {
                self.last_staged_s = Some(cal.now());
                self.bytes += c.bytes;
                self.files += 1;
                self.staging_sum_s += c.staging_s;
                self.staging_bits.push(time_bits(c.staging_s));
                self.fill(cal);
                self.library.resume(cal)?;
            }
            return Ok(());
        }
        match Ev::ALL[slot - first] {
            Ev::Arrivals => {
                let now = cal.now();
                let arrived = self.campaign.arrived_by(now);
                self.requester
                    .admit(self.campaign, self.next_arrival..arrived, now);
                self.next_arrival = arrived;
                if let Some(f) = self.campaign.nth_arrival(arrived) {
                    let at = self.campaign.files()[f as usize].arrival_s;
                    cal.schedule_at(slot, at);
                }
                self.fill(cal);
            }
            Ev::Tick => {
                self.tick_pending = false;
                self.fill(cal);
            }
            Ev::Sample => {
                let staged = self.bytes - self.bytes_at_sample;
                self.bytes_at_sample = self.bytes;
                self.series.t_s.push(cal.now());
                self.series
                    .throughput_mb_s
                    .push(staged as f64 / 1e6 / self.sample_s);
                self.series.busy_drives.push(self.library.busy_drives());
                cal.schedule(slot, self.sample_s);
            }
        }
        Ok(())
    }
}

/// Runs a recall campaign through a library with a requester strategy.
pub fn simulate(spec: &RecallSpec, campaign: &Campaign) -> Result<RecallOutcome> {
    spec.strategy.validate()?;
    if !(spec.duration_s.is_finite() && spec.duration_s > 0.0) {
        return Err(Error::invalid("duration_s", "must be positive"));
    }
    if !(spec.sample_s.is_finite() && spec.sample_s > 0.0) {
        return Err(Error::invalid("sample_s", "must be positive"));
    }
    let tapes = Tapes {
        specs: campaign.tapes(),
        campaign: Some(campaign),
    };
    spec.strategy
        .build(&tapes, ChaCha8Rng::seed_from_u64(spec.seed))
        .hand_to(Run { spec, campaign })
}

/// A recall run, given its requester's queue as the queue's own type.
struct Run<'a> {
    spec: &'a RecallSpec,
    campaign: &'a Campaign,
}

impl<'a> QueueJob<'a> for Run<'a> {
    type Output = Result<RecallOutcome>;

    fn run<P: Pending + Send + 'a>(self, requester: P) -> Result<RecallOutcome> {
        run(self.spec, self.campaign, requester)
    }
}

/// The events of a run up to its horizon, with `requester` in front of the
/// library.
fn run<P: Pending>(
    spec: &RecallSpec,
    campaign: &Campaign,
    mut requester: P,
) -> Result<RecallOutcome> {
    let mut room = campaign.take_room();
    let library = TapeSystem::new(&spec.library, campaign, &mut room)?;
    // Room for every file: the vector never moves (untouched room costs no
    // memory).
    let mut staging_bits = std::mem::take(&mut room.times);
    staging_bits.clear();
    staging_bits.reserve(campaign.files().len());
    requester.reuse_ranks(std::mem::take(&mut room.ranks));
    let mut model = Recall {
        campaign,
        next_arrival: 0,
        requester,
        library,
        tick_pending: false,
        sample_s: spec.sample_s,
        bytes: 0,
        files: 0,
        last_staged_s: None,
        staging_sum_s: 0.0,
        staging_bits,
        bytes_at_sample: 0,
        series: Series::default(),
    };
    let mut cal = SlotCalendar::new(model.slot(Ev::Sample) + 1);
    cal.schedule(model.slot(Ev::Arrivals), 0.0);
    cal.schedule(model.slot(Ev::Sample), spec.sample_s);
    // Events up to the horizon; the books close at it (`finish`).
    let mut events = 0u64;
    while let Some((t, slot)) = cal.peek() {
        if t > spec.duration_s {
            break;
        }
        cal.pop();
        model.handle(slot, &mut cal)?;
        events += 1;
    }
    model.library.finish(spec.duration_s);
    let capacities: Vec<u64> = campaign.tapes().iter().map(|t| t.capacity).collect();
    let metrics = Metrics::from_run(
        spec.duration_s,
        model.bytes,
        model.files,
        model.last_staged_s,
        model.staging_sum_s,
        &mut model.staging_bits,
        &model.library.mounts,
        &capacities,
        model.library.busy_s,
        spec.library.hardware.drives,
        campaign.files().len() as u64,
    );
    model.library.leave_room(&mut room);
    room.times = model.staging_bits;
    room.ranks = model.requester.ranks_room();
    campaign.keep_room(room);
    Ok(RecallOutcome {
        metrics,
        series: model.series,
        events,
    })
}
