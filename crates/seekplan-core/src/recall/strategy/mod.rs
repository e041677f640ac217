//! Requester strategies: what dCache passes on to the tape system, and when
//! (Morschel et al., §4.2 and §5.2).
//!
//! Each strategy is one file: a config struct (its YAML knobs, checked by
//! [`StrategyConfig::validate`]) that builds a [`Pending`] queue. The
//! [`strategies!`] list below is the registry: adding a strategy is its file
//! plus one line there (the variant's YAML name is the kebab-case of its
//! variant name), and a line in [`queues!`] for each queue type it builds.

mod by_dataset;
mod by_tapes;
mod clusters;
mod dcache;
mod random;

pub use by_dataset::ByDataset;
pub use by_tapes::ByTapes;
pub use dcache::DcacheRules;
pub use random::Random;

use by_dataset::{Fifo, InArrivalOrder};
use by_tapes::ByTapesPending;
use dcache::DcachePending;
use random::{Draw, RandomRanks};

use crate::library::{Campaign, Request, TapeSpec};
use crate::sim::Time;
use crate::Result;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Requests known to the requester but not yet passed to the tape system.
pub trait Pending {
    /// A request arrives at `now`; `tape_known` says whether the requester
    /// knows which tape holds it (dCache's tape information).
    fn arrive(&mut self, request: Request, tape_known: bool, now: Time);
    /// The files ranked `ranks` in `campaign`'s arrival order
    /// ([`Campaign::nth_arrival`]) arrive at `now`; `campaign` is the one
    /// the queue was built for. Queues built for a campaign get its requests
    /// only this way, in arrival order; the default hands each to `arrive`.
    fn admit(&mut self, campaign: &Campaign, ranks: Range<usize>, now: Time) {
        for rank in ranks {
            let f = campaign
                .nth_arrival(rank)
                .expect("rank within the campaign");
            let known = campaign.files()[f as usize].tapeinfo;
            self.arrive(campaign.request(f), known, now);
        }
    }
    /// The next request to pass on at `now`, if the strategy releases one.
    fn take(&mut self, now: Time) -> Option<Request>;
    /// Passes up to `n` requests on to `sink` at `now`, as `n` calls of
    /// [`Pending::take`] would (stopping at the first None). One call per
    /// refill rather than one a request: the run refills after every read.
    fn take_into(&mut self, now: Time, n: usize, mut sink: impl FnMut(Request))
    where
        Self: Sized,
    {
        for _ in 0..n {
            match self.take(now) {
                Some(f) => sink(f),
                None => break,
            }
        }
    }
    /// Seconds after which the strategy wants to be asked again although
    /// nothing else happened (time-based rules), or None.
    fn next_wake(&self) -> Option<f64>;
    /// Room for the ranks of waiting requests, left by an earlier run over
    /// the same campaign (its pages mapped already); queues that keep no
    /// ranks ignore it. Call it before the first request arrives.
    fn reuse_ranks(&mut self, _room: Vec<u32>) {}
    /// The queue's room for ranks, emptied, for the next run.
    fn ranks_room(&mut self) -> Vec<u32> {
        Vec::new()
    }
}

/// The tapes a pending queue serves: their capacities (some rules weigh a
/// tape's queued volume against them) and, when the whole campaign is known
/// up front, the campaign (whose requests then arrive through
/// [`Pending::admit`] and may be read from it instead of copied).
#[derive(Clone, Copy, Debug)]
pub struct Tapes<'s, 'c> {
    /// Every tape, indexed by `Request::tape`.
    pub specs: &'s [TapeSpec],
    /// The campaign whose requests the queue will hold, if known.
    pub campaign: Option<&'c Campaign>,
}

/// A strategy's config: checks its knobs and builds its pending queue.
pub trait StrategyConfig {
    /// Checks the knobs; errors name the field as users write it.
    fn validate(&self) -> Result<()>;
    /// An empty pending queue for requests on `tapes`, drawing from `rng`.
    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, rng: ChaCha8Rng) -> Queue<'a>;
    /// Seconds between the strategy's own wake-ups while requests wait, for
    /// strategies with time-based rules (a run's cost grows with their number).
    fn wake_interval_s(&self) -> Option<f64> {
        None
    }
}

/// Declares the registry: one variant per strategy, with its config type.
macro_rules! strategies {
    ($($(#[$doc:meta])* $variant:ident($config:ty),)+) => {
        /// How the requester chooses what to pass on to the tape system.
        #[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
        #[serde(tag = "name", rename_all = "kebab-case")]
        pub enum Strategy {
            $($(#[$doc])* $variant($config),)+
        }

        impl Strategy {
            fn config(&self) -> &dyn StrategyConfig {
                match self {
                    $(Strategy::$variant(c) => c,)+
                }
            }
        }
    };
}

strategies! {
    /// Requests in uniformly random order (the paper's benchmark).
    Random(Random),
    /// Requests in arrival order (the datasets in the order requested).
    ByDataset(ByDataset),
    /// Requests clustered by tape, `tapes` tapes at a time, round-robin.
    ByTapes(ByTapes),
    /// dCache's bring-online clustering rules.
    Dcache(DcacheRules),
}

impl Strategy {
    /// Checks the strategy's knobs.
    pub fn validate(&self) -> Result<()> {
        self.config().validate()
    }

    /// Seconds between the strategy's own wake-ups, if it has time-based rules.
    pub fn wake_interval_s(&self) -> Option<f64> {
        self.config().wake_interval_s()
    }

    /// The strategy's empty pending queue for requests on `tapes`.
    pub fn build<'a>(&self, tapes: &Tapes<'_, 'a>, rng: ChaCha8Rng) -> Queue<'a> {
        self.config().build(tapes, rng)
    }
}

/// Work to do with a pending queue as its own type ([`Queue::hand_to`]).
pub trait QueueJob<'a> {
    /// What the work gives.
    type Output;
    /// Does the work with `queue`.
    fn run<P: Pending + Send + 'a>(self, queue: P) -> Self::Output;
}

/// Declares [`Queue`]: one variant per pending-queue type.
macro_rules! queues {
    ($($(#[$doc:meta])* $variant:ident($queue:ty),)+) => {
        /// A strategy's pending queue, of whichever type the strategy built.
        /// A recall run is compiled once per type ([`Queue::hand_to`]), so
        /// that it calls the queue's methods directly, inlined: through a
        /// boxed trait object the Table-1 runs took 3-8 % more CPU
        /// (benchmarks/RESULTS.md, 2026-11-27). Elsewhere the queue is a
        /// [`Pending`] itself.
        pub enum Queue<'a> {
            $($(#[$doc])* $variant($queue),)+
        }

        impl<'a> Queue<'a> {
            /// Does `job` with the queue as its own type.
            pub fn hand_to<J: QueueJob<'a>>(self, job: J) -> J::Output {
                match self {
                    $(Queue::$variant(q) => job.run(q),)+
                }
            }
        }

        impl Pending for Queue<'_> {
            fn arrive(&mut self, request: Request, tape_known: bool, now: Time) {
                match self {
                    $(Queue::$variant(q) => q.arrive(request, tape_known, now),)+
                }
            }
            fn admit(&mut self, campaign: &Campaign, ranks: Range<usize>, now: Time) {
                match self {
                    $(Queue::$variant(q) => q.admit(campaign, ranks, now),)+
                }
            }
            fn take(&mut self, now: Time) -> Option<Request> {
                match self {
                    $(Queue::$variant(q) => q.take(now),)+
                }
            }
            fn next_wake(&self) -> Option<f64> {
                match self {
                    $(Queue::$variant(q) => q.next_wake(),)+
                }
            }
            fn reuse_ranks(&mut self, room: Vec<u32>) {
                match self {
                    $(Queue::$variant(q) => q.reuse_ranks(room),)+
                }
            }
            fn ranks_room(&mut self) -> Vec<u32> {
                match self {
                    $(Queue::$variant(q) => q.ranks_room(),)+
                }
            }
        }
    };
}

queues! {
    /// `random`'s, for requests handed in one by one.
    Draw(Draw<Request>),
    /// `random`'s, for a campaign known up front.
    RandomRanks(RandomRanks<'a>),
    /// `by-dataset`'s, for requests handed in one by one.
    Fifo(Fifo),
    /// `by-dataset`'s, for a campaign known up front.
    InArrivalOrder(InArrivalOrder<'a>),
    /// `by-tapes`'.
    ByTapes(ByTapesPending<'a>),
    /// `dcache`'s.
    Dcache(DcachePending<'a>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::FileSpec;
    use rand::{Rng, SeedableRng};

    /// A campaign listed out of arrival order, arriving in bursts.
    fn campaign() -> Campaign {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let files = (0..400)
            .map(|i| FileSpec {
                dataset: i / 50,
                tape: rng.gen_range(0..7),
                block: rng.gen_range(0..1000),
                size: rng.gen_range(1..100),
                arrival_s: f64::from(rng.gen_range(0..6u32)) * 10.0,
                tapeinfo: true,
            })
            .collect();
        let tape = TapeSpec {
            capacity: 10_000,
            used: 10_000,
        };
        Campaign::new(files, vec![tape; 7]).unwrap()
    }

    /// The files passed on when arrivals come in bursts and the tape
    /// system takes 45 requests after each.
    fn order(strategy: &Strategy, c: &Campaign, by_campaign: bool) -> Vec<u32> {
        order_in(strategy, c, by_campaign, Vec::new()).0
    }

    /// [`order`], the queue given `room` for its ranks first; also returns
    /// the room it gives back.
    fn order_in(
        strategy: &Strategy,
        c: &Campaign,
        by_campaign: bool,
        room: Vec<u32>,
    ) -> (Vec<u32>, Vec<u32>) {
        let tapes = Tapes {
            specs: c.tapes(),
            campaign: by_campaign.then_some(c),
        };
        let mut q = strategy.build(&tapes, ChaCha8Rng::seed_from_u64(9));
        q.reuse_ranks(room);
        let mut out = Vec::new();
        let mut rank = 0;
        for t in 0..8 {
            let now = f64::from(t) * 10.0;
            let arrived = c.arrived_by(now);
            if by_campaign {
                q.admit(c, rank..arrived, now);
            } else {
                for r in rank..arrived {
                    let f = c.nth_arrival(r).unwrap();
                    q.arrive(c.request(f), true, now);
                }
            }
            rank = arrived;
            out.extend(std::iter::from_fn(|| q.take(now)).take(45).map(|r| r.file));
        }
        (out, q.ranks_room())
    }

    #[test]
    fn a_kept_room_for_ranks_changes_nothing_and_comes_back_empty() {
        let c = campaign();
        let random = Strategy::Random(Random {});
        let fresh = order(&random, &c, true);
        let (first, room) = order_in(&random, &c, true, vec![7; 3]);
        assert_eq!(first, fresh);
        assert!(
            room.is_empty() && room.capacity() > 3,
            "the grown room comes back"
        );
        let capacity = room.capacity();
        let (again, room) = order_in(&random, &c, true, room);
        assert_eq!(again, fresh);
        assert_eq!(room.capacity(), capacity, "the room is reused, not regrown");
        let by_tapes = Strategy::ByTapes(ByTapes { tapes: 3 });
        let (clustered, room) = order_in(&by_tapes, &c, true, room);
        assert_eq!(clustered, order(&by_tapes, &c, true));
        assert_eq!(room.capacity(), 0, "queues without ranks keep no room");
    }

    #[test]
    fn campaign_queues_pass_on_what_copied_requests_would() {
        let c = campaign();
        for strategy in [
            Strategy::Random(Random {}),
            Strategy::ByDataset(ByDataset {}),
            Strategy::ByTapes(ByTapes { tapes: 3 }),
            Strategy::Dcache(DcacheRules {
                min_time_in_queue_s: 0.0,
                min_request_count: Some(5),
                ..DcacheRules::default()
            }),
        ] {
            let copied = order(&strategy, &c, false);
            assert_eq!(order(&strategy, &c, true), copied, "{strategy:?}");
            assert!(copied.len() > 200, "{strategy:?}");
        }
    }
}
