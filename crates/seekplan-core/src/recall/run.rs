//! One recall run: requester + library on the event engine.

use super::{Metrics, Pending, Series, Strategy, Tapes};
use crate::library::{Campaign, Completion, LibEvent, LibrarySpec, TapeSystem};
use crate::sim::{self, Calendar, Model};
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

#[derive(Clone, Copy, Debug)]
enum Ev {
    /// Requests whose arrival time has come reach the requester.
    Arrivals,
    /// The requester re-runs its rules (dCache timers).
    Tick,
    /// Time-series sample.
    Sample,
    Lib(LibEvent),
}

impl From<LibEvent> for Ev {
    fn from(e: LibEvent) -> Self {
        Ev::Lib(e)
    }
}

struct Recall<'a> {
    campaign: &'a Campaign,
    next_arrival: usize,
    requester: Box<dyn Pending + Send + 'a>,
    library: TapeSystem<'a>,
    tick_pending: bool,
    sample_s: f64,
    done: Vec<Completion>,
    bytes: u64,
    files: u64,
    last_staged_s: Option<f64>,
    staging_sum_s: f64,
    /// Staging time of every staged file (for its quantiles).
    staging_s: Vec<f64>,
    bytes_at_sample: u64,
    series: Series,
    error: Option<Error>,
}

impl Recall<'_> {
    /// Passes requests on while the tape-system queue has room.
    fn fill(&mut self, cal: &mut Calendar<Ev>) {
        while self.library.room() > 0 {
            match self.requester.take(cal.now()) {
                Some(f) => self.library.submit(f, cal),
                None => break,
            }
        }
        if !self.tick_pending {
            if let Some(dt) = self.requester.next_wake() {
                self.tick_pending = true;
                cal.schedule(dt, Ev::Tick);
            }
        }
    }
}

impl Model for Recall<'_> {
    type Event = Ev;

    fn handle(&mut self, event: Ev, cal: &mut Calendar<Ev>) {
        if self.error.is_some() {
            return;
        }
        match event {
            Ev::Arrivals => {
                let now = cal.now();
                let arrived = self.campaign.arrived_by(now);
                self.requester
                    .admit(self.campaign, self.next_arrival..arrived, now);
                self.next_arrival = arrived;
                if let Some(f) = self.campaign.nth_arrival(arrived) {
                    cal.schedule_at(self.campaign.files()[f as usize].arrival_s, Ev::Arrivals);
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
                cal.schedule(self.sample_s, Ev::Sample);
            }
            Ev::Lib(e) => {
                let mut done = std::mem::take(&mut self.done);
                if let Err(err) = self.library.handle(e, cal, &mut done) {
                    self.error = Some(err);
                    return;
                }
                let any = !done.is_empty();
                if any {
                    self.last_staged_s = Some(cal.now());
                }
                for c in done.drain(..) {
                    self.bytes += c.bytes;
                    self.files += 1;
                    self.staging_sum_s += c.staging_s;
                    self.staging_s.push(c.staging_s);
                }
                self.done = done;
                if any {
                    self.fill(cal);
                    if let Err(err) = self.library.resume(cal) {
                        self.error = Some(err);
                    }
                }
            }
        }
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
    let library = TapeSystem::new(&spec.library, campaign)?;
    let tapes = Tapes {
        specs: campaign.tapes(),
        campaign: Some(campaign),
    };
    let mut model = Recall {
        campaign,
        next_arrival: 0,
        requester: spec
            .strategy
            .build(&tapes, ChaCha8Rng::seed_from_u64(spec.seed)),
        library,
        tick_pending: false,
        sample_s: spec.sample_s,
        done: Vec::new(),
        bytes: 0,
        files: 0,
        last_staged_s: None,
        staging_sum_s: 0.0,
        // Room for every file: the vector never moves (untouched room
        // costs no memory).
        staging_s: Vec::with_capacity(campaign.files().len()),
        bytes_at_sample: 0,
        series: Series::default(),
        error: None,
    };
    let mut cal = Calendar::new();
    cal.schedule(0.0, Ev::Arrivals);
    cal.schedule(spec.sample_s, Ev::Sample);
    let stats = sim::run(&mut model, &mut cal, spec.duration_s);
    if let Some(e) = model.error {
        return Err(e);
    }
    model.library.finish(spec.duration_s);
    let capacities: Vec<u64> = campaign.tapes().iter().map(|t| t.capacity).collect();
    let metrics = Metrics::from_run(
        spec.duration_s,
        model.bytes,
        model.files,
        model.last_staged_s,
        model.staging_sum_s,
        &mut model.staging_s,
        &model.library.mounts,
        &capacities,
        model.library.busy_s,
        spec.library.hardware.drives,
        campaign.files().len() as u64,
    );
    Ok(RecallOutcome {
        metrics,
        series: model.series,
        events: stats.events,
    })
}
