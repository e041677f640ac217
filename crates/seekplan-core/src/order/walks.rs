//! Trials from random walks (after LKH: Helsgaun, "An effective
//! implementation of the Lin–Kernighan traveling salesman heuristic",
//! 2000, §5), merged and polished in rounds, for the nearly symmetric
//! matrices whose moves come from α-nearness candidates ([`super::alpha`]).
//!
//! A trial builds a new start tour by a random walk guided by the best
//! tour so far: from the current node it takes the best tour's edge when
//! that edge is also a zero-α candidate (on a minimum 1-tree, so likely on
//! every good tour) and its head is not yet on the walk, else a random
//! candidate not yet on it, else a random node not yet on it. Where the
//! best tour and the 1-tree agree the start copies the best tour; elsewhere
//! it is rebuilt at random from the candidates, so a trial re-decides at
//! once the stretches the relaxation does not confirm, which the local
//! kicks of iterated local search ([`super::ils`]) change one at a time.
//! Our local search alone does not bring such a start back near the best
//! tour (on stilt at 316 nodes plain descents ended 2–9 % above it, LKH-3's
//! Lin–Kernighan gets there in one trial), so each trial is improved by
//! ILS with a share of the main search's kicks; the trials' tours differ
//! from the best in a sixth to a half of their edges at nearly its cost,
//! which is what tour merging ([`super::merge`]) recombines. Each round
//! merges its trials' tours with the best, polishes the merged tour by ILS
//! (merging joins stretches no local search has seen together) and goes on
//! from the result.

use super::dense::Dense;
use super::ils;
use super::merge;
use super::neighbours::Neighbours;
use super::Options;
use crate::stop::Stop;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Trials per round. With 6 trials of half the main search's kicks each,
/// 3 rounds, stilt at 316 nodes (instance seed 2, kick seeds 1–4) ended
/// 0.05–0.19 % above LKH-3 (0.49–0.82 % with the restarts of
/// [`super::trials`]; 2026-11-25).
const TRIALS: usize = 6;
/// Most rounds; a round runs after one that did not shorten the best tour
/// only if that one's trials all ended on tours never seen before (see
/// [`search`]). On stilt at 316 nodes (instance seed 2, kick seeds 1–8)
/// 3 rounds ended 0.01–0.69 % above LKH-3, 5 rounds 0.00–0.42 %: its
/// rounds gain after one or two fruitless ones (2026-11-27).
const ROUNDS: usize = 5;
/// A round's trials stop once this many of them ended on the cost of a
/// tour seen before while none shortened the best tour: on rtilt, whose
/// trials keep re-finding the same few tours, this took the CPU at 100
/// nodes from 2.2–2.5 s to 1.1–1.5 s and at 316 nodes from 13.9–29.5 s
/// to 11.2–26.0 s, every tour as long as before; stilt's trials never
/// repeated a cost (2026-11-27, `benchmarks/RESULTS.md`).
const REPEATS: usize = 2;
/// Two tour costs this close, relative to their size, count as the same
/// tour found again.
const SAME: f64 = 1e-9;
/// A trial's ILS, and the polish of a round's merged tour, get the main
/// search's kicks divided by this.
const SHARE: usize = 2;
/// Seed offset between rounds, so each round draws other walks and kicks.
const ROUND_SEED: u64 = 7919;
/// Mixed into the seed of a round's polish, apart from its trials' seeds.
const POLISH_SEED: u64 = 0xabc;
/// Mixed into the seed of the walks, apart from the main search's kicks.
const WALK_SEED: u64 = 0x005e_ed0f_7a1a;

/// A start tour (an order of the requests; the depot is node
/// `succ.len() - 1`) from a random walk over the cycle of all nodes,
/// begun at a random node: `succ` is the best tour's successor of each
/// node, `zero[u][k]` whether `near.succs[u][k]` has α zero.
pub(crate) fn walk(
    near: &Neighbours,
    zero: &[Vec<bool>],
    succ: &[usize],
    rng: &mut impl Rng,
) -> Vec<usize> {
    let nodes = succ.len();
    let depot = nodes - 1;
    // Nodes not yet on the walk, with each one's place in `free`, so a
    // random one is drawn and removed in O(1).
    let mut free: Vec<usize> = (0..nodes).collect();
    let mut slot: Vec<usize> = (0..nodes).collect();
    let mut on = vec![false; nodes];
    let take = |v: usize, free: &mut Vec<usize>, slot: &mut [usize], on: &mut [bool]| {
        let s = slot[v];
        let last = *free.last().expect("a free node");
        free.swap_remove(s);
        if last != v {
            slot[last] = s;
        }
        on[v] = true;
    };
    let first = free[rng.gen_range(0..nodes)];
    take(first, &mut free, &mut slot, &mut on);
    let mut cycle = Vec::with_capacity(nodes);
    cycle.push(first);
    let mut options: Vec<usize> = Vec::new();
    let mut u = first;
    while !free.is_empty() {
        let s = succ[u];
        let follow = !on[s]
            && near.succs[u]
                .iter()
                .zip(&zero[u])
                .any(|(&v, &z)| v == s && z);
        let next = if follow {
            s
        } else {
            options.clear();
            options.extend(near.succs[u].iter().copied().filter(|&v| !on[v]));
            if options.is_empty() {
                free[rng.gen_range(0..free.len())]
            } else {
                options[rng.gen_range(0..options.len())]
            }
        };
        take(next, &mut free, &mut slot, &mut on);
        cycle.push(next);
        u = next;
    }
    let at = cycle.iter().position(|&v| v == depot).expect("the depot");
    cycle[at + 1..]
        .iter()
        .chain(&cycle[..at])
        .copied()
        .collect()
}

/// [`TRIALS`] trials from `best` (a tour on `d`), each improved by ILS with
/// the kicks of `options`, fewer if [`REPEATS`] of them end on known tours
/// first; `best` becomes any trial's tour that is cheaper. With
/// `reversed_first`, one more trial, the first, starts from `best` reversed
/// instead of a walk: on stilt at 100 nodes ILS stalled in a tour sharing 80 % of
/// LKH-3's edges undirected but 26 % directed, and only that start left it
/// (see [`super::trials`]). Returns every trial's tour, and whether any
/// ended on the cost of a tour in `seen` (the costs of the search's earlier
/// trials and best tours; new costs are added to it). `stop` ends them
/// early (a caller's time limit or cancel).
#[allow(clippy::too_many_arguments)]
fn trials(
    d: &Dense,
    near: &Neighbours,
    zero: &[Vec<bool>],
    best: &mut Vec<usize>,
    reversed_first: bool,
    options: &Options,
    stop: &Stop,
    seen: &mut Vec<f64>,
) -> (Vec<Vec<usize>>, bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ WALK_SEED);
    let mut record = d.tour(best);
    let mut succ = d.successors(best);
    let count = TRIALS + usize::from(reversed_first);
    let mut tours = Vec::with_capacity(count);
    let (mut repeats, mut shortened) = (0, false);
    for t in 0..count {
        if repeats >= REPEATS && !shortened {
            break;
        }
        if stop.reached() {
            break;
        }
        let mut order = if t == 0 && reversed_first {
            best.iter().rev().copied().collect()
        } else {
            walk(near, zero, &succ, &mut rng)
        };
        let budget = Options {
            seed: rng.gen(),
            ..options.clone()
        };
        ils::iterated(d, near, &mut order, &budget, stop, true, true, None);
        let cost = d.tour(&order);
        repeats += usize::from(!novel(seen, cost));
        if cost < record - SAME * record.abs() {
            record = cost;
            succ = d.successors(&order);
            *best = order.clone();
            shortened = true;
        }
        tours.push(order);
    }
    (tours, repeats > 0)
}

/// Whether `cost` is the cost of none of the tours in `seen` (then it is
/// added to them).
fn novel(seen: &mut Vec<f64>, cost: f64) -> bool {
    let new = seen.iter().all(|&c| (c - cost).abs() > SAME * cost.abs());
    if new {
        seen.push(cost);
    }
    new
}

/// Rounds of trials from `best` (an ILS optimum on `d`, which becomes the
/// cheapest tour found), each merging its trials' tours with the best and
/// polishing the merged tour. After a round that did not shorten the best
/// tour the search goes on only if every trial of that round ended on a
/// tour cost not seen before in the search: on stilt no two of 31 trials
/// ended on the same cost, and its rounds gain again after fruitless ones;
/// on rtilt, where the trials keep finding the same few tours (the best
/// among them), further rounds gained nothing and cost 7–10 s each at 316
/// nodes (2026-11-27).
/// `zero` flags the zero-α candidates ([`super::alpha::candidates`]);
/// `options` carry the main search's kick budget and seed. Returns every
/// tour made, merged ones included, for the caller to choose from.
pub(crate) fn search(
    d: &Dense,
    near: &Neighbours,
    zero: &[Vec<bool>],
    best: &mut Vec<usize>,
    options: &Options,
    stop: &Stop,
) -> Vec<Vec<usize>> {
    let kicks = ils::kicks(d.len(), true, options) / SHARE;
    let mut found = Vec::new();
    let mut seen = Vec::new();
    for round in 0..ROUNDS {
        let start = d.tour(best);
        novel(&mut seen, start);
        let opts = Options {
            seed: options.seed.wrapping_add(ROUND_SEED * round as u64),
            iterations: Some(kicks),
            ..options.clone()
        };
        let (made, repeated) = trials(d, near, zero, best, round == 0, &opts, stop, &mut seen);
        let mut tours = vec![best.clone()];
        tours.extend(made);
        let mut shorter = false;
        if let Some(mut merged) = merge::merge(d, &tours, stop) {
            let polish = Options {
                seed: opts.seed ^ POLISH_SEED,
                ..opts.clone()
            };
            ils::iterated(d, near, &mut merged, &polish, stop, true, true, None);
            if d.tour(&merged) < d.tour(best) {
                *best = merged.clone();
            }
            shorter = d.tour(best) < start - SAME * start.abs();
            found.push(merged);
        }
        found.extend(tours);
        if !shorter && repeated {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::alpha;
    use crate::order::test_support::{on_closed_tour, tilted};

    fn is_permutation(order: &[usize], n: usize) -> bool {
        let mut seen = order.to_vec();
        seen.sort_unstable();
        seen == (0..n).collect::<Vec<_>>()
    }

    #[test]
    fn walks_are_seeded_permutations_that_follow_the_confirmed_edges() {
        on_closed_tour(tilted(40), |d, _| {
            let m = d.len() + 1;
            let best: Vec<usize> = (0..d.len()).map(|k| k * 7 % d.len()).collect();
            let succ = d.successors(&best);
            // Each node's best-tour successor among its candidates.
            let near = Neighbours::from_lists(
                d,
                vec![Vec::new(); m],
                (0..m)
                    .map(|u| vec![(u + 3) % m, succ[u], (u + 5) % m])
                    .collect(),
            );
            let flags = |z: bool| vec![vec![z; 3]; m];
            let walk_with = |zero: &[Vec<bool>], seed| {
                walk(&near, zero, &succ, &mut ChaCha8Rng::seed_from_u64(seed))
            };
            // Confirmed everywhere: the walk is the best tour, the depot
            // at both ends, wherever it began.
            for seed in 0..5 {
                assert_eq!(walk_with(&flags(true), seed), best);
            }
            // Confirmed nowhere: other permutations, the same for a seed.
            let other = walk_with(&flags(false), 1);
            assert!(is_permutation(&other, d.len()));
            assert_eq!(other, walk_with(&flags(false), 1));
            assert!((0..5).any(|seed| walk_with(&flags(false), seed) != best));
        });
    }

    #[test]
    fn only_costs_not_seen_before_are_novel() {
        let mut seen = Vec::new();
        assert!(novel(&mut seen, 1e6));
        assert!(!novel(&mut seen, 1e6 + 1e-6));
        assert!(novel(&mut seen, 1e6 + 1.0));
        assert!(!novel(&mut seen, 1e6));
        assert_eq!(seen, [1e6, 1e6 + 1.0]);
    }

    #[test]
    fn no_round_follows_a_fruitless_one_that_found_a_known_tour() {
        let kicks = Options {
            iterations: Some(20),
            ..Options::default()
        };
        let made = |rows: Vec<Vec<f64>>| {
            on_closed_tour(rows, |d, _| {
                let mut best: Vec<usize> = (0..d.len()).collect();
                let alpha::Candidates { near, zero, .. } =
                    alpha::candidates(d, d.tour(&best), 5, &Stop::never());
                search(d, &near, &zero, &mut best, &kicks, &Stop::never()).len()
            })
        };
        // Every tour costs the same: the first round's trials repeat it
        // and cannot shorten it, so they stop after REPEATS of them and no
        // second round runs (the search returns them, the best tour they
        // began from and their merge).
        let flat = (0..12)
            .map(|i| (0..12).map(|j| f64::from(u8::from(i != j))).collect())
            .collect();
        assert_eq!(made(flat), REPEATS + 2);
        // On distinct costs the trials end on new tours: more than the
        // first round's (its merge, the best tour and TRIALS + 1 trials).
        assert!(made(tilted(40)) > TRIALS + 3);
    }

    #[test]
    fn the_search_keeps_a_permutation_never_worse_than_its_start() {
        on_closed_tour(tilted(40), |d, _| {
            let start: Vec<usize> = (0..d.len()).rev().collect();
            let alpha::Candidates { near, zero, .. } =
                alpha::candidates(d, d.tour(&start), 5, &Stop::never());
            let options = Options {
                iterations: Some(40),
                ..Options::default()
            };
            let mut best = start.clone();
            let tours = search(d, &near, &zero, &mut best, &options, &Stop::never());
            assert!(d.tour(&best) <= d.tour(&start) + 1e-9);
            assert!(is_permutation(&best, d.len()));
            assert!(tours.iter().all(|t| is_permutation(t, d.len())));
            assert!(tours.iter().all(|t| d.tour(&best) <= d.tour(t) + 1e-9));
            let mut again = start.clone();
            assert_eq!(
                tours,
                search(d, &near, &zero, &mut again, &options, &Stop::never())
            );
            assert_eq!(best, again);
        });
    }
}
