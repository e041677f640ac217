//! The event loop: pop the next event, hand it to the model, repeat.

use super::{Calendar, Time};

/// A simulated system: components addressed through the events of type
/// `Event`. `handle` reacts to one event and schedules follow-ups on `cal`.
pub trait Model {
    /// What components say to each other.
    type Event;
    /// Reacts to `event`, which fires at `cal.now()`.
    fn handle(&mut self, event: Self::Event, cal: &mut Calendar<Self::Event>);
    /// Whether the run should stop now, events left or not (default: never).
    fn finished(&self) -> bool {
        false
    }
}

/// What the event loop did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunStats {
    /// Events handled.
    pub events: u64,
    /// Simulated time at the end of the run.
    pub end: Time,
}

/// Runs `model` until no event is left, the next one is later than `until`,
/// or the model says it is finished. The clock ends at `until` if events
/// remained past it, else at the last event handled.
pub fn run<M: Model>(model: &mut M, cal: &mut Calendar<M::Event>, until: Time) -> RunStats {
    let mut events = 0u64;
    while let Some(t) = cal.peek_time() {
        if model.finished() {
            break;
        }
        if t > until {
            cal.advance_to(until);
            break;
        }
        let (_, event) = cal.pop().expect("peeked event");
        model.handle(event, cal);
        events += 1;
    }
    RunStats {
        events,
        end: cal.now(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Resource;
    use super::*;

    /// Customers arrive every second and each holds one of two servers 3 s.
    struct Shop {
        servers: Resource<u32>,
        log: Vec<(Time, u32, &'static str)>,
    }

    enum Ev {
        Arrive(u32),
        Done(u32),
    }

    impl Model for Shop {
        type Event = Ev;
        fn handle(&mut self, event: Ev, cal: &mut Calendar<Ev>) {
            match event {
                Ev::Arrive(c) => {
                    if let Some(c) = self.servers.acquire(c) {
                        self.log.push((cal.now(), c, "start"));
                        cal.schedule(3.0, Ev::Done(c));
                    }
                }
                Ev::Done(c) => {
                    self.log.push((cal.now(), c, "done"));
                    if let Some(next) = self.servers.release() {
                        self.log.push((cal.now(), next, "start"));
                        cal.schedule(3.0, Ev::Done(next));
                    }
                }
            }
        }
    }

    #[test]
    fn queueing_model_matches_hand_computation() {
        let mut shop = Shop {
            servers: Resource::new(2),
            log: vec![],
        };
        let mut cal = Calendar::new();
        for c in 0..4 {
            cal.schedule_at(c as f64, Ev::Arrive(c));
        }
        let stats = run(&mut shop, &mut cal, 100.0);
        assert_eq!(stats.events, 8);
        let starts: Vec<_> = shop
            .log
            .iter()
            .filter(|e| e.2 == "start")
            .map(|e| (e.0, e.1))
            .collect();
        // Customer 2 arrives at 2 but waits for customer 0 to finish at 3.
        assert_eq!(starts, vec![(0.0, 0), (1.0, 1), (3.0, 2), (4.0, 3)]);
        assert_eq!(stats.end, 7.0);
    }

    #[test]
    fn stops_at_horizon() {
        let mut shop = Shop {
            servers: Resource::new(1),
            log: vec![],
        };
        let mut cal = Calendar::new();
        for c in 0..10 {
            cal.schedule_at(c as f64, Ev::Arrive(c));
        }
        let stats = run(&mut shop, &mut cal, 4.5);
        assert_eq!(stats.end, 4.5);
        assert!(shop.log.iter().all(|e| e.0 <= 4.5));
        assert!(!cal.is_empty());
    }
}
