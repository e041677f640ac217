//! The mixed-media schedulers as one table: each row names an algorithm,
//! says what it is, and composes it from the shared machinery (the flat
//! guarded queue of `flat.rs`, the sweep of `sweep.rs`, or a policy of its
//! own). Adding an algorithm is one row of [`algorithms!`] here (plus one
//! file if it needs new machinery); [`Algorithm`] and its `ALL` list are
//! generated from the rows.

use super::flat::{flat, Rule};
use super::round::Round;
use super::sweep::{sweep, Grouping};
use super::{famish, gss, MediaConfig, Policy};

/// How a composed algorithm serves a round.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// One guarded queue over C- and D-requests, picking by a rule.
    Flat(Rule),
    /// One sweep (OPS) from the disk edge: C-requests in SCAN order,
    /// D-request clusters between.
    Sweep(Grouping),
    /// Two phases (TPS): every C-request first, then a sweep of D-requests.
    TwoPhase(Grouping),
}

/// A [`Plan`] with the CPU cost of an OPT(6) schedule it charges.
struct Composed {
    plan: Plan,
    opt6_cpu_s: f64,
}

impl Policy for Composed {
    fn run(&self, r: &mut Round) {
        match self.plan {
            Plan::Flat(rule) => flat(r, rule),
            Plan::Sweep(g) => {
                r.sweep_from_edge();
                sweep(r, g, self.opt6_cpu_s);
            }
            Plan::TwoPhase(g) => {
                r.serve_all_c();
                sweep(r, g, self.opt6_cpu_s);
            }
        }
    }
}

/// One registered algorithm.
pub struct Row {
    /// Which algorithm.
    pub algo: Algorithm,
    /// The name users type.
    pub name: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// The scheduler with its parameters taken from the config.
    build: fn(&MediaConfig) -> Box<dyn Policy>,
}

impl Row {
    /// The scheduler for a run of `cfg`.
    pub(super) fn policy(&self, cfg: &MediaConfig) -> Box<dyn Policy> {
        (self.build)(cfg)
    }
}

/// CPU seconds of an OPT(6) schedule on the run's (projected) CPU.
fn opt6(cfg: &MediaConfig) -> f64 {
    cfg.opt6_cpu_s * cfg.projection.cpu_factor()
}

fn composed(plan: Plan, opt6_cpu_s: f64) -> Box<dyn Policy> {
    Box::new(Composed { plan, opt6_cpu_s })
}

fn flat_rule(rule: Rule) -> Box<dyn Policy> {
    composed(Plan::Flat(rule), 0.0)
}

/// Declares [`Algorithm`] (one variant per row, with its doc), its `ALL`
/// list in report order, and [`ROWS`], the row behind each variant.
macro_rules! algorithms {
    ($($(#[doc = $doc:literal])+ $variant:ident {
        name: $name:expr,
        description: $description:expr,
        build: $build:expr $(,)?
    },)+) => {
        /// The mixed-media schedulers, by the names users type.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl Algorithm {
            /// Every algorithm, in the order reports list them.
            pub const ALL: [Algorithm; [$(stringify!($variant)),+].len()] =
                [$(Algorithm::$variant),+];
        }

        /// Every algorithm, in the order reports list them.
        pub const ROWS: [Row; Algorithm::ALL.len()] = [
            $(Row {
                algo: Algorithm::$variant,
                name: $name,
                description: $description,
                build: $build,
            },)+
        ];
    };
}

algorithms! {
    /// TPS SCAN/SCAN.
    TpsScanScan {
        name: "tps-scan-scan",
        description: "TPS SCAN/SCAN: every C-request in one SCAN, then a SCAN of D-requests",
        build: |_| composed(Plan::TwoPhase(Grouping::Requests { max: 1 }), 0.0),
    },
    /// TPS SCAN/[SCAN/CI-OPT(M)].
    TpsScanCiOpt {
        name: "tps-ci-opt",
        description: "TPS SCAN/[SCAN/CI-OPT(M)]: C-requests first, then D-requests by CI-OPT",
        build: |c| {
            let g = Grouping::Interval { max: c.cluster_max };
            composed(Plan::TwoPhase(g), opt6(c))
        },
    },
    /// OPS FAMISH.
    Famish {
        name: "famish",
        description: "OPS FAMISH: D-requests in arrival order slotted into the C-request SCAN",
        build: |_| Box::new(famish::Famish),
    },
    /// OPS SCAN/CI-SPTF.
    CiSptf {
        name: "ci-sptf",
        description: "OPS SCAN/CI-SPTF: each C-interval's D-requests shortest positioning first",
        build: |_| composed(Plan::Sweep(Grouping::IntervalSptf), 0.0),
    },
    /// OPS SCAN/CI-OPT(M).
    CiOpt {
        name: "ci-opt",
        description:
            "OPS SCAN/CI-OPT(M): each C-interval's D-requests (halved to <= M) in optimal order",
        build: |c| {
            composed(
                Plan::Sweep(Grouping::Interval { max: c.cluster_max }),
                opt6(c),
            )
        },
    },
    /// OPS SCAN/CLUST-REQ(M).
    ClustReq {
        name: "clust-req",
        description: "OPS SCAN/CLUST-REQ(M): the next M D-requests in optimal order",
        build: |c| {
            composed(
                Plan::Sweep(Grouping::Requests { max: c.cluster_max }),
                opt6(c),
            )
        },
    },
    /// OPS SCAN/CLUST-CYL(M|T).
    ClustCyl {
        name: "clust-cyl",
        description:
            "OPS SCAN/CLUST-CYL(M|T): up to M D-requests within T cylinders, optimal order",
        build: |c| {
            let g = Grouping::Cylinders {
                max: c.cluster_max,
                width: c.cluster_cylinders,
            };
            composed(Plan::Sweep(g), opt6(c))
        },
    },
    /// Flat SPTF with the C-request guard.
    Sptf {
        name: "sptf",
        description: "Flat SPTF over C- and D-requests with the C-request guard",
        build: |_| flat_rule(Rule::Sptf),
    },
    /// First come, first served.
    Fcfs {
        name: "fcfs",
        description: "First come, first served",
        build: |_| flat_rule(Rule::Fcfs),
    },
    /// Shortest seek time first.
    Sstf {
        name: "sstf",
        description: "Shortest seek distance first, over C- and D-requests alike",
        build: |_| flat_rule(Rule::Sstf),
    },
    /// Elevator to the disk's edges.
    Scan {
        name: "scan",
        description: "Elevator travelling to the disk's edge before reversing",
        build: |_| flat_rule(Rule::Scan),
    },
    /// One-way elevator.
    CScan {
        name: "c-scan",
        description: "One-way elevator upwards, returning to the lowest waiting request",
        build: |_| flat_rule(Rule::CScan),
    },
    /// Elevator reversing at the last request.
    Look {
        name: "look",
        description: "Elevator reversing at the last request in its direction",
        build: |_| flat_rule(Rule::Look),
    },
    /// Earliest deadline first.
    Edf {
        name: "edf",
        description: "Earliest deadline first (D-requests due d_deadline_s after arrival)",
        build: |c| {
            flat_rule(Rule::Edf {
                deadline_s: c.d_deadline_s,
            })
        },
    },
    /// EDF with SCAN among equal deadlines.
    ScanEdf {
        name: "scan-edf",
        description: "EDF with deadlines rounded to round ends, ties served by SCAN",
        build: |c| {
            flat_rule(Rule::ScanEdf {
                deadline_s: c.d_deadline_s,
                round_s: c.round_s,
            })
        },
    },
    /// Group sweeping scheduling.
    Gss {
        name: "gss",
        description: "Group sweeping scheduling with gss_groups groups",
        build: |c| {
            Box::new(gss::Gss {
                groups: c.gss_groups,
            })
        },
    },
}

/// The row of `algo`.
pub fn row(algo: Algorithm) -> &'static Row {
    ROWS.iter()
        .find(|r| r.algo == algo)
        .expect("every algorithm has a row (checked by a test)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::request::{Class, Request};
    use crate::media::round::Dir;
    use crate::media::Metrics;
    use crate::model::disk::{Cylinder, DiskAddress, DiskSpec, Head};

    fn request(id: u64, class: Class, cylinder: u32) -> Request {
        Request {
            id,
            class,
            addr: DiskAddress {
                cylinder: Cylinder(cylinder),
                angle: 0.0,
            },
            bytes: 50_000,
            arrival_s: 0.0,
            stream: 0,
            deferred: false,
        }
    }

    /// The head mid-disk, C-requests at 3,000 and 5,000, a D-request at 100
    /// (between the edge and the first C-request): which is served first?
    fn first_served(name: &str) -> u64 {
        let disk = DiskSpec::default();
        let algo: Algorithm = name.parse().unwrap();
        let cfg = MediaConfig::default();
        let mut metrics = Metrics::new(1.0).traced();
        metrics.round_begin(0.0, 1.0);
        let head = Head {
            cylinder: Cylinder(4000),
            time_s: 0.0,
        };
        let cs = vec![
            request(1, Class::Continuous, 3000),
            request(2, Class::Continuous, 5000),
        ];
        let mut round = Round::new(
            &disk,
            head,
            0.0,
            1.0,
            Dir::Up,
            cs,
            vec![request(3, Class::Discrete, 100)],
            Vec::new(),
            &mut metrics,
        );
        algo.policy(&cfg).run(&mut round);
        drop(round.finish());
        metrics.take_trace().unwrap()[0].served[0].id
    }

    #[test]
    fn one_phase_sweeps_start_at_the_disk_edge() {
        for name in ["ci-opt", "ci-sptf", "clust-req", "clust-cyl"] {
            assert_eq!(first_served(name), 3, "{name} skipped the edge side");
        }
        // The two-phase schemes serve every C-request first.
        assert_eq!(first_served("tps-scan-scan"), 1);
    }

    #[test]
    fn rows_follow_all_one_to_one() {
        let algos: Vec<_> = ROWS.iter().map(|r| r.algo).collect();
        assert_eq!(algos, Algorithm::ALL.to_vec());
        for (i, r) in ROWS.iter().enumerate() {
            assert!(
                ROWS[..i].iter().all(|o| o.name != r.name),
                "{} twice",
                r.name
            );
            assert!(!r.description.is_empty());
        }
    }
}
