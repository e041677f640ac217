//! The request stream of section 6.1: Poisson arrivals, log-uniform file
//! sizes, reads and writes, Table 1 schemes, per-file compression ratios,
//! over an archive that is full when the run starts.
//!
//! The stream depends on the seed and the workload only, never on the
//! policy: every policy of a sweep point sees the same arrivals (common
//! random numbers), which is what lets the reproduction compare policies
//! seed by seed.

use super::{ArchiveConfig, FileSpec, Policy, Scheme};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Fetch the whole file.
    Read,
    /// Archive the file (new, or a new version of an existing one).
    Write,
}

/// One request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Request {
    /// Arrival time, seconds.
    pub arrival_s: f64,
    /// Read or write.
    pub kind: Kind,
    /// File index: below [`Generated::initial`] a file archived before the
    /// run, above it one created during the run.
    pub file: usize,
    /// The file's size and compression ratios.
    pub spec: FileSpec,
    /// Policy and scheme: drawn for a write, the file's last write's for a read.
    pub policy: Policy,
    /// Resiliency scheme.
    pub scheme: Scheme,
}

/// The requests of one run, over `initial` files archived before it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Files archived at time 0 (laid out only when a request touches them).
    pub initial: usize,
    /// Requests in arrival order.
    pub requests: Vec<Request>,
}

/// The number of files a full archive holds: every cartridge's native
/// capacity divided by the mean of the log-uniform size distribution.
pub fn full_archive_files(cfg: &ArchiveConfig) -> u64 {
    let w = &cfg.workload;
    let (lo, hi) = (w.min_bytes as f64, w.max_bytes as f64);
    let mean = if hi > lo {
        (hi - lo) / (hi / lo).ln()
    } else {
        lo
    };
    let bytes = cfg.platform.tapes as f64 * cfg.platform.tape_capacity_bytes as f64;
    (bytes / mean).floor() as u64
}

fn draw_file(cfg: &ArchiveConfig, rng: &mut ChaCha8Rng) -> FileSpec {
    let w = &cfg.workload;
    let (lo, hi) = ((w.min_bytes as f64).ln(), (w.max_bytes as f64).ln());
    let bytes = if hi > lo {
        rng.gen_range(lo..hi).exp().round() as u64
    } else {
        w.min_bytes
    };
    let cd = w
        .data_compression
        .unwrap_or_else(|| rng.gen_range(1.0..=3.0));
    let ce = w.ec_compression.unwrap_or_else(|| rng.gen_range(1.0..=cd));
    FileSpec {
        bytes: bytes.clamp(w.min_bytes, w.max_bytes),
        data_compression: cd,
        ec_compression: ce,
    }
}

fn draw_scheme(cfg: &ArchiveConfig, rng: &mut ChaCha8Rng) -> Scheme {
    let shares = &cfg.workload.schemes;
    let total: f64 = shares.iter().map(|s| s.p).sum();
    let mut u = rng.gen_range(0.0..total);
    for s in shares {
        if u < s.p {
            return Scheme { x: s.x, y: s.y };
        }
        u -= s.p;
    }
    let last = shares.last().expect("validated: at least one scheme");
    Scheme {
        x: last.x,
        y: last.y,
    }
}

/// File `i` of the archive at time 0: its size, compression and scheme,
/// drawn from a stream of its own so that it does not depend on which other
/// files the run touches, or in what order.
fn initial_file(cfg: &ArchiveConfig, i: usize) -> (FileSpec, Scheme) {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed ^ 0x6172_6368_6976_6531);
    rng.set_stream(i as u64);
    let spec = draw_file(cfg, &mut rng);
    (spec, draw_scheme(cfg, &mut rng))
}

/// Draws the requests of a run (`cfg` validated).
pub fn generate(cfg: &ArchiveConfig, rng: &mut ChaCha8Rng) -> Generated {
    let w = &cfg.workload;
    let choice = cfg.choice();
    let initial = w
        .initial_files
        .unwrap_or_else(|| full_archive_files(cfg))
        .min(usize::MAX as u64) as usize;
    // Files created during the run, and files whose type or content a
    // request changed: (spec, scheme) by index.
    let mut created: Vec<(FileSpec, Scheme)> = Vec::new();
    let mut rewritten: HashMap<usize, Scheme> = HashMap::new();
    let file = |i: usize, created: &[(FileSpec, Scheme)], rewritten: &HashMap<usize, Scheme>| {
        let (spec, scheme) = if i < initial {
            initial_file(cfg, i)
        } else {
            created[i - initial]
        };
        (spec, rewritten.get(&i).copied().unwrap_or(scheme))
    };
    let mut t = 0.0;
    let rate_s = w.rate_per_hour / 3600.0;
    let cap = w.requests.map_or(usize::MAX, |n| n as usize);
    let mut requests = Vec::new();
    while requests.len() < cap {
        t += -(1.0 - rng.gen::<f64>()).ln() / rate_s;
        if t > w.duration_s {
            break;
        }
        let files = initial + created.len();
        let read = files > 0 && rng.gen_bool(w.read_fraction);
        let (i, kind) = if read {
            (rng.gen_range(0..files), Kind::Read)
        } else if files == 0 || rng.gen_bool(w.create_fraction) {
            let spec = draw_file(cfg, rng);
            created.push((spec, Scheme { x: 1, y: 0 }));
            (files, Kind::Write)
        } else {
            (rng.gen_range(0..files), Kind::Write)
        };
        if kind == Kind::Write {
            let scheme = draw_scheme(cfg, rng);
            rewritten.insert(i, scheme);
        }
        let (spec, scheme) = file(i, &created, &rewritten);
        requests.push(Request {
            arrival_s: t,
            kind,
            file: i,
            spec,
            policy: choice.for_size(spec.bytes),
            scheme,
        });
    }
    Generated { initial, requests }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::PolicyName;

    fn cfg(policy: PolicyName) -> ArchiveConfig {
        let mut c = ArchiveConfig {
            policy,
            ..ArchiveConfig::default()
        };
        c.workload.duration_s = 5.0 * 86_400.0;
        c.workload.warmup_s = 0.0;
        c
    }

    #[test]
    fn every_policy_sees_the_same_arrivals() {
        let stream = |p| {
            let g = generate(&cfg(p), &mut ChaCha8Rng::seed_from_u64(3));
            g.requests
                .iter()
                .map(|r| (r.arrival_s, r.kind, r.file, r.spec, r.scheme))
                .collect::<Vec<_>>()
        };
        let rait = stream(PolicyName::Rait);
        assert!(rait.len() > 1000);
        for p in [
            PolicyName::Parallel,
            PolicyName::Vertical,
            PolicyName::Hetero,
        ] {
            assert_eq!(rait, stream(p), "{p:?}");
        }
    }

    #[test]
    fn reads_of_a_full_archive_seldom_hit_files_written_in_the_run() {
        let c = cfg(PolicyName::Parallel);
        let g = generate(&c, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(g.initial as u64, full_archive_files(&c));
        assert!(g.initial > 1_000_000, "{}", g.initial);
        let reads: Vec<_> = g.requests.iter().filter(|r| r.kind == Kind::Read).collect();
        let recent = reads.iter().filter(|r| r.file >= g.initial).count();
        assert!(recent * 100 < reads.len(), "{recent} of {}", reads.len());
        assert!(g
            .requests
            .iter()
            .all(|r| r.arrival_s <= c.workload.duration_s));
    }

    #[test]
    fn a_read_sees_the_size_and_scheme_of_the_files_last_write() {
        let mut c = cfg(PolicyName::Parallel);
        c.workload.initial_files = Some(3);
        c.workload.requests = Some(400);
        let g = generate(&c, &mut ChaCha8Rng::seed_from_u64(5));
        let mut last: HashMap<usize, (FileSpec, Scheme)> = HashMap::new();
        for r in &g.requests {
            if let Some(&(spec, scheme)) = last.get(&r.file) {
                assert_eq!(r.spec, spec);
                if r.kind == Kind::Read {
                    assert_eq!(r.scheme, scheme);
                }
            }
            last.insert(r.file, (r.spec, r.scheme));
        }
        assert_eq!(g.requests.len(), 400);
    }
}
