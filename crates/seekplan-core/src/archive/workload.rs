//! The request stream of section 6.1: Poisson arrivals, log-uniform file
//! sizes, reads and writes, Table 1 schemes, per-file compression ratios.

use super::{ArchiveConfig, FileSpec, Policy, Scheme};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

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
    /// File index.
    pub file: usize,
    /// Policy and scheme: drawn for a write, the file's last write's for a read.
    pub policy: Policy,
    /// Resiliency scheme.
    pub scheme: Scheme,
}

/// Files and requests of one run: `files[i]` is file i; the first
/// `initial` files exist at time 0, written with `initial_types`.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Every file.
    pub files: Vec<FileSpec>,
    /// Policy and scheme of the initially archived files.
    pub initial_types: Vec<(Policy, Scheme)>,
    /// Requests in arrival order.
    pub requests: Vec<Request>,
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

/// Draws the files and requests of a run (`cfg` validated).
pub fn generate(cfg: &ArchiveConfig, rng: &mut ChaCha8Rng) -> Generated {
    let w = &cfg.workload;
    let choice = cfg.choice();
    let mut files = Vec::new();
    let mut types = Vec::new();
    for _ in 0..w.initial_files {
        let f = draw_file(cfg, rng);
        types.push((choice.for_size(f.bytes), draw_scheme(cfg, rng)));
        files.push(f);
    }
    let initial_types = types.clone();
    let mut t = 0.0;
    let rate_s = w.rate_per_hour / 3600.0;
    let mut requests = Vec::with_capacity(w.requests as usize);
    for _ in 0..w.requests {
        t += -(1.0 - rng.gen::<f64>()).ln() / rate_s;
        let read = !files.is_empty() && rng.gen_bool(w.read_fraction);
        let (file, kind) = if read {
            (rng.gen_range(0..files.len()), Kind::Read)
        } else if files.is_empty() || rng.gen_bool(w.create_fraction) {
            let f = draw_file(cfg, rng);
            files.push(f);
            types.push((choice.for_size(f.bytes), Scheme { x: 1, y: 0 }));
            (files.len() - 1, Kind::Write)
        } else {
            (rng.gen_range(0..files.len()), Kind::Write)
        };
        if kind == Kind::Write {
            types[file].1 = draw_scheme(cfg, rng);
        }
        let (policy, scheme) = types[file];
        requests.push(Request {
            arrival_s: t,
            kind,
            file,
            policy,
            scheme,
        });
    }
    Generated {
        files,
        initial_types,
        requests,
    }
}
