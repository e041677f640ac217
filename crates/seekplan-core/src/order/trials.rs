//! Diversified restarts of iterated local search, for tour merging
//! ([`super::merge`]) on nearly symmetric matrices whose searches do not
//! use α-nearness candidates (those take trials from walks instead,
//! [`super::walks`]: on stilt at 316 nodes these restarts left `best`
//! 0.49–0.82 % above LKH-3, the walks 0.16–0.19 % on three of four kick
//! seeds, 2026-11-25). There ILS stalls in
//! one basin whatever its kick seed: on the DIMACS stilt family at 100
//! nodes its tour shared 80 % of its edges with LKH-3's undirected but 26 %
//! directed (long stretches ran the other way), and every seed ended in
//! the same tour. Each trial runs ILS on a copy of the costs with each
//! entry raised by up to [`NOISE`] at random (the perturbation of
//! Codenotti et al., 1996), so it settles in another basin, then polishes
//! the result by ILS on the true costs. Trials start in turn from the best
//! tour reversed, from the perturbed costs' assignment patched into a tour
//! (Karp), and from the best tour itself. Seeded from the caller's seed, so
//! the same input and options give the same tours.

use super::dense::Dense;
use super::ils;
use super::neighbours::Neighbours;
use super::Options;
use crate::atsp::{assignment, patch};
use crate::stop::Stop;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Most restarts: with 6, stilt at 316 nodes ended 0.02–1.0 % above LKH-3
/// over kick seeds 1–4 and the default; with 9, 0.19–0.59 %; crane at
/// 100 went from 0.6–1.1 % to 0.00–0.04 % only once trials also started
/// from patched assignments (2026-11-25).
const TRIALS: usize = 9;
/// The trials' kicks times nodes stay under this: 9 trials up to ~330
/// nodes, 4 at 500, 1 at 1,000 and so none ([`MIN_TRIALS`]; on rtilt at
/// 1,000 nodes the main search alone takes 20 s).
const WORK: usize = 6_000_000;
/// Fewer trials than this do not run: the single one that fits at 1,000
/// nodes cost 40–70 % more CPU on rtilt, stilt and crane and moved no tour
/// by more than 0.02 % (2026-11-25).
const MIN_TRIALS: usize = 2;
/// Trials stop after this many in a row found no tour cheaper than the
/// best so far: where the main search already holds LKH-3's tour (rtilt),
/// the rest cost CPU for nothing (rtilt at 316 nodes: 30 s with all nine,
/// 11–20 s so; stilt at 316 ended 0.21–0.44 % above LKH-3 over seeds 1–4
/// and the default, no worse than with all nine).
const PATIENCE: usize = 3;
/// Largest relative rise of a perturbed cost: 5–20 % gave alike tours.
const NOISE: f64 = 0.1;
/// Each trial's kicks on the perturbed costs and then on the true ones,
/// as fractions of the main search's budget (10 kicks per node on these
/// matrices).
const PERTURBED_SHARE: usize = 2;
const POLISH_SHARE: usize = 10;

/// Tours from `best` (an ILS optimum on `d`), one per trial (see
/// [`PATIENCE`]), each an Or-opt, Or-3opt and Lin–Kernighan optimum on
/// `d`; none when `d` does not store its costs (a perturbed copy would be
/// n² more). `kicks` is the
/// main search's budget (with the size, it sets the number of trials); a
/// caller's time limit bounds the trials together.
pub(crate) fn trials(
    d: &Dense,
    near: &Neighbours,
    best: &[usize],
    kicks: usize,
    options: &Options,
    stop: &Stop,
) -> Vec<Vec<usize>> {
    let n = d.len().max(1);
    let per_trial = (kicks / PERTURBED_SHARE + kicks / POLISH_SHARE).max(1);
    let count = match TRIALS.min(WORK / (per_trial * n)) {
        c if c < MIN_TRIALS => 0,
        c => c,
    };
    let mut seeds = ChaCha8Rng::seed_from_u64(options.seed);
    let mut tours = Vec::with_capacity(count);
    let (mut record, mut since) = (d.tour(best), 0);
    for t in 0..count {
        if since >= PATIENCE {
            break;
        }
        if stop.reached() {
            break;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seeds.gen());
        let Some(perturbed) = d.perturbed(NOISE, &mut rng) else {
            break;
        };
        let mut order = match t % 3 {
            0 => best.iter().rev().copied().collect(),
            1 => patched(&perturbed),
            _ => best.to_vec(),
        };
        // The candidates stay; their edges' costs are the perturbed ones.
        let perturbed_near = near.with_costs(&perturbed);
        for (costs, near, share) in [
            (&perturbed, &perturbed_near, PERTURBED_SHARE),
            (d, near, POLISH_SHARE),
        ] {
            let budget = Options {
                seed: rng.gen(),
                iterations: Some(kicks / share),
                ..options.clone()
            };
            ils::iterated(costs, near, &mut order, &budget, stop, true, true, None);
        }
        let cost = d.tour(&order);
        if cost < record - 1e-9 * record.abs() {
            (record, since) = (cost, 0);
        } else {
            since += 1;
        }
        tours.push(order);
    }
    tours
}

/// The optimal assignment of `d`'s costs patched into one tour.
fn patched(d: &Dense) -> Vec<usize> {
    let m = d.len() + 1;
    let cost = d.square();
    let mut succ = assignment(m, &cost).succ;
    patch(&mut succ, |i, j| cost[i * m + j]);
    d.path(&succ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::test_support::{on_closed_tour, tilted};

    #[test]
    fn trials_are_seeded_permutations_within_the_work_budget() {
        on_closed_tour(tilted(40), |d, near| {
            let best: Vec<usize> = (0..d.len()).collect();
            let options = Options::default();
            let tours = trials(d, near, &best, 50, &options, &Stop::never());
            assert!(!tours.is_empty() && tours.len() <= TRIALS);
            assert_eq!(tours, trials(d, near, &best, 50, &options, &Stop::never()));
            for t in &tours {
                let mut seen = t.clone();
                seen.sort_unstable();
                assert_eq!(seen, best);
            }
            assert!(trials(d, near, &best, 10 * WORK, &options, &Stop::never()).is_empty());
            // Room for one trial (99,999 kicks x 40 nodes) is none.
            assert!(trials(d, near, &best, 166_667, &options, &Stop::never()).is_empty());
        });
    }
}
