//! Raw speed of the discrete-event engine: a closed queueing network of
//! `jobs` jobs cycling through `servers` FIFO servers with seeded random
//! service times; prints events per second. Used by benchmarks/bench_recall.py.
//!
//!     cargo run --release -p seekplan-core --example sim_events [EVENTS]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seekplan_core::sim::{run, Calendar, Model, Resource};
use std::time::Instant;

struct Network {
    servers: Resource<u32>,
    rng: ChaCha8Rng,
}

enum Ev {
    Arrive(u32),
    Done(u32),
}

impl Model for Network {
    type Event = Ev;
    fn handle(&mut self, event: Ev, cal: &mut Calendar<Ev>) {
        match event {
            Ev::Arrive(j) => {
                if let Some(j) = self.servers.acquire(j) {
                    cal.schedule(self.rng.gen_range(1.0..3.0), Ev::Done(j));
                }
            }
            Ev::Done(j) => {
                cal.schedule(self.rng.gen_range(0.0..1.0), Ev::Arrive(j));
                if let Some(next) = self.servers.release() {
                    cal.schedule(self.rng.gen_range(1.0..3.0), Ev::Done(next));
                }
            }
        }
    }
}

fn main() {
    let target: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000.0);
    let mut model = Network {
        servers: Resource::new(12),
        rng: ChaCha8Rng::seed_from_u64(1),
    };
    let mut cal = Calendar::new();
    for j in 0..1000 {
        cal.schedule(0.0, Ev::Arrive(j));
    }
    // About 1000 jobs / 2 s service x 12 servers: ~12 events per time unit.
    let start = Instant::now();
    let stats = run(&mut model, &mut cal, target / 12.0);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{{\"events\": {}, \"seconds\": {secs:.4}, \"events_per_s\": {:.0}}}",
        stats.events,
        stats.events as f64 / secs
    );
}
