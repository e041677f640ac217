//! Seeded request generators: C-requests per round (Gamma sizes, random
//! cylinders) and Poisson D-request arrivals (Normal sizes, uniform cylinders).

use super::request::{Class, Request};
use super::MediaConfig;
use crate::model::disk::{Cylinder, DiskAddress};
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Exp, Gamma, Normal};

/// Smallest D-request size: a Normal(70 KB, 20 KB) draw is negative with
/// probability 1e-4; such draws are clamped to one 512-byte sector.
const MIN_BYTES: f64 = 512.0;

/// Generates a run's requests. C and D draws use separate ChaCha8 streams of
/// the same seed, so every algorithm sees the same workload for a seed.
pub struct Workload {
    c_rng: ChaCha8Rng,
    d_rng: ChaCha8Rng,
    c_size: Gamma<f64>,
    d_size: Normal<f64>,
    gap: Option<Exp<f64>>,
    cylinders: u32,
    streams: u32,
    next_arrival_s: f64,
    next_id: u64,
}

impl Workload {
    /// A generator for `cfg` (already validated).
    pub fn new(cfg: &MediaConfig) -> crate::Result<Self> {
        // Gamma with mean m and sd s: shape (m/s)^2, scale s^2/m.
        let shape = (cfg.c_size_mean / cfg.c_size_sd).powi(2);
        let scale = cfg.c_size_sd.powi(2) / cfg.c_size_mean;
        let c_size = Gamma::new(shape, scale)
            .map_err(|e| crate::Error::invalid("c_size_sd", e.to_string()))?;
        let d_size = Normal::new(cfg.d_size_mean, cfg.d_size_sd)
            .map_err(|e| crate::Error::invalid("d_size_sd", e.to_string()))?;
        let gap = if cfg.lambda > 0.0 {
            Some(
                Exp::new(cfg.lambda / cfg.round_s)
                    .map_err(|e| crate::Error::invalid("lambda", e.to_string()))?,
            )
        } else {
            None
        };
        let mut c_rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        c_rng.set_stream(1);
        let mut d_rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        d_rng.set_stream(2);
        let mut w = Workload {
            c_rng,
            d_rng,
            c_size,
            d_size,
            gap,
            cylinders: cfg.disk.cylinders,
            streams: cfg.c_requests,
            next_arrival_s: f64::INFINITY,
            next_id: 0,
        };
        w.next_arrival_s = w.draw_gap();
        Ok(w)
    }

    fn draw_gap(&mut self) -> f64 {
        match self.gap {
            Some(g) => g.sample(&mut self.d_rng),
            None => f64::INFINITY,
        }
    }

    fn address(rng: &mut ChaCha8Rng, cylinders: u32) -> DiskAddress {
        DiskAddress {
            cylinder: Cylinder(rng.gen_range(0..cylinders)),
            angle: rng.gen::<f64>(),
        }
    }

    /// The C-requests of the round starting at `start_s`: one per stream.
    pub fn c_requests(&mut self, start_s: f64) -> Vec<Request> {
        (0..self.streams)
            .map(|stream| {
                let addr = Self::address(&mut self.c_rng, self.cylinders);
                let bytes = self.c_size.sample(&mut self.c_rng).max(MIN_BYTES).round() as u64;
                self.next_id += 1;
                Request {
                    id: self.next_id,
                    class: Class::Continuous,
                    addr,
                    bytes,
                    arrival_s: start_s,
                    stream,
                    deferred: false,
                }
            })
            .collect()
    }

    /// The D-requests arriving before `end_s`, in arrival order.
    pub fn d_arrivals(&mut self, end_s: f64) -> Vec<Request> {
        let mut out = Vec::new();
        while self.next_arrival_s < end_s {
            let addr = Self::address(&mut self.d_rng, self.cylinders);
            let bytes = self.d_size.sample(&mut self.d_rng).max(MIN_BYTES).round() as u64;
            self.next_id += 1;
            out.push(Request {
                id: self.next_id,
                class: Class::Discrete,
                addr,
                bytes,
                arrival_s: self.next_arrival_s,
                stream: 0,
                deferred: false,
            });
            self.next_arrival_s += self.draw_gap();
        }
        out
    }
}
