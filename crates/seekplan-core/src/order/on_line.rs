//! The exact locate order when the tape is a line: every locate costs a
//! startup plus a price per block travelled, either way ([`SeekLine`]: the
//! helical drives of Johnson & Miller §5.4 without a short-seek line, and
//! the linear model). Ordering the reads is then the stacker-crane problem
//! on a line, which is solved exactly rather than searched (Atallah &
//! Kosaraju, "Efficient solutions to some transportation problems with
//! applications to minimizing robot arm travel", SIAM J. Comput. 17(5),
//! 1988, solve the closed tour; this is the open path from the head).
//!
//! The head's walk crosses each gap between two neighbouring places on the
//! tape some number of times forward and back. Every read covering the gap
//! crosses it forward; a walk from the head's place to the place `t` where
//! it ends crosses it once more forward than back when the gap lies
//! between the two, once less when `t` lies before the head, as often
//! otherwise. So, besides the reads, the walk crosses each gap at least
//! `|covering reads - that net crossing|` times, and where that leaves
//! places unconnected, a gap crossed there and back joins them (the
//! cheapest such gaps: a minimum spanning tree over the parts). A walk of
//! exactly that length exists (an Euler path over those crossings and the
//! reads, from the head to `t`), and the order in which it takes the reads
//! travels no further. The least over every `t` (the end of a read) is the
//! shortest travel of any order; a sum of gap lengths, it is exact in
//! blocks. Startups are bounded apart: a locate is free only onto the
//! block the head is on, which a read's start can offer at most once per
//! read ending (or the head) at that block.

use super::bound::rounded_down;
use crate::model::SeekLine;

/// Union-find steps the search over end places may take (each end tried
/// costs one pass over the places): enough to try every end of batches up
/// to 1,000 reads; beyond, the ends with the least crossing are tried and
/// the bound is the least total any end can still reach. Measured against
/// 20,000,000 (`bench_seek_line.py --sizes 100,1000,5000`, the same totals
/// and stop reasons): 5,000 reads 0.24-0.33 -> 0.03-0.04 s of `best`;
/// 20,000 and 100,000 reads (Sony DTF uniform) 0.41 -> 0.07 s and
/// 0.56 -> 0.17 s. (2,000,000 tried only 999 of the 1,000 ends of a batch
/// of 1,000 reads, 2,001 places, and fell back to that weaker bound:
/// 1-3 % below the order on `bench_linear_seek.py --unrounded`'s batches
/// of 1,000 files, seeds 1-3.)
const JOIN_WORK: usize = 2_001_000;

/// Steps of the Euler walk allowed per place and read: reads that pile up
/// (every read covering most of the tape) would need a walk of reads ×
/// places steps; past this the line is left to the search.
const WALK_PER_PLACE: u64 = 16;

/// Blocks travelled, summed: wide enough for any tape's blocks times any
/// number of crossings.
pub(crate) type Travel = u128;

/// Reads on a tape whose locates lie on a [`SeekLine`], as
/// [`super::Problem::on_seek_line`] gives them.
pub(crate) struct OnSeekLine {
    /// The model's seek line.
    pub line: SeekLine,
    /// The head's block.
    pub head: u64,
    /// Each read's (start, end) blocks.
    pub reads: Vec<(u64, u64)>,
    /// Seconds any locate may cost less than the line says: 0 on a model's
    /// own line, the most a matrix's rounded costs fall short of the line
    /// fitted through them ([`super::line_fit`]).
    pub slack_s: f64,
}

/// A short-travel order of reads on a line, and the least travel of any.
#[derive(Debug)]
pub(crate) struct LineOrder {
    /// The reads, by index, in the order to take them.
    pub order: Vec<usize>,
    /// No order travels less (the blocks `order` travels, but on the
    /// largest batches, where not every end was tried).
    pub least: Travel,
}

/// The locate order of least travel for reads `(start, end)` (blocks,
/// `start <= end`, read forward) from the head at block `head`, ending
/// wherever the last read ends; `None` when reads pile up so that its walk
/// would be too long (see [`WALK_PER_PLACE`]).
pub(crate) fn shortest(head: u64, reads: &[(u64, u64)]) -> Option<LineOrder> {
    let places = reads.len() * 2 + 1;
    shortest_trying(head, reads, (JOIN_WORK / places).max(8))
}

/// [`shortest`], trying at most `tries` end places.
fn shortest_trying(head: u64, reads: &[(u64, u64)], tries: usize) -> Option<LineOrder> {
    let line = Places::new(head, reads);
    let places = line.length.len() as u64 + 1;
    let covered: u64 = line.cover.iter().sum();
    if covered > WALK_PER_PLACE * (places + reads.len() as u64) {
        return None;
    }
    // The least travel of each end place, tried from the least crossing
    // cost up; once that alone reaches the best total, no later end can win.
    let crossing = line.crossings();
    let mut ends: Vec<(Travel, usize)> = line
        .end_places()
        .into_iter()
        .map(|t| (crossing(t), t))
        .collect();
    ends.sort_unstable();
    let by_length = line.gaps_by_length();
    let mut best: Option<(Travel, usize, Vec<bool>)> = None;
    let mut least = None;
    for (k, &(cross, t)) in ends.iter().enumerate() {
        if best.as_ref().is_some_and(|b| cross >= b.0) {
            break;
        }
        if k == tries {
            least = Some(cross);
            break;
        }
        let (join, joined) = line.joins(t, &by_length);
        let total = cross + 2 * join;
        if best.as_ref().is_none_or(|b| total < b.0) {
            best = Some((total, t, joined));
        }
    }
    let (total, t, joined) = best.expect("a read ends somewhere");
    let order = line.euler_order(t, &joined);
    // The walk to `t` may go on past the last read's end; every end tried,
    // the order travels exactly `total`.
    debug_assert!(travel_of(head, reads, &order) <= total);
    Some(LineOrder {
        order,
        least: least.map_or(total, |l| l.min(total)),
    })
}

/// Blocks the head travels taking `reads` in `order` from `head`.
pub(crate) fn travel_of(head: u64, reads: &[(u64, u64)], order: &[usize]) -> Travel {
    let mut at = head;
    let mut total = 0;
    for &i in order {
        total += Travel::from(at.abs_diff(reads[i].0));
        at = reads[i].1;
    }
    total
}

/// Which read can follow which without a locate: a read starting on the
/// block where the head or another read ends, matched one to one (equal
/// blocks pairwise, as in a merge). No order has more free locates than
/// there are links, and reading each chain of links through has them all.
struct Links {
    /// The read starting where the head is, if any.
    first: Option<usize>,
    /// The read linked after each read.
    next: Vec<Option<usize>>,
    /// Whether each read is linked after the head or another read.
    follows: Vec<bool>,
}

impl Links {
    fn new(head: u64, reads: &[(u64, u64)]) -> Self {
        let n = reads.len();
        let mut next: Vec<Option<usize>> = vec![None; n];
        let mut follows = vec![false; n];
        let mut by_start: Vec<usize> = (0..n).collect();
        by_start.sort_unstable_by_key(|&i| (reads[i].0, i));
        let first = by_start.iter().copied().find(|&j| reads[j].0 == head);
        if let Some(j) = first {
            follows[j] = true;
        }
        let mut by_end: Vec<usize> = (0..n).collect();
        by_end.sort_unstable_by_key(|&i| (reads[i].1, i));
        // A chain's blocks only grow, so it never closes on itself.
        let (mut a, mut b) = (0, 0);
        while a < n && b < n {
            let (j, i) = (by_start[a], by_end[b]);
            if follows[j] || reads[j].0 < reads[i].1 {
                a += 1;
            } else if reads[j].0 > reads[i].1 {
                b += 1;
            } else {
                next[i] = Some(j);
                follows[j] = true;
                a += 1;
                b += 1;
            }
        }
        Links {
            first,
            next,
            follows,
        }
    }

    /// At most how many locates of an order can be free.
    fn count(&self) -> usize {
        usize::from(self.first.is_some()) + self.next.iter().flatten().count()
    }

    /// The reads linked from `i` on, `i` first.
    fn chain(&self, mut i: usize) -> Vec<usize> {
        let mut out = vec![i];
        while let Some(j) = self.next[i] {
            out.push(j);
            i = j;
        }
        out
    }
}

/// Orders of the reads on a seek line and a lower bound on the positioning
/// of every locate order (less the line's slack for each move): the order
/// of least travel and, where some read starts where another read or the
/// head ends, the least-travel order of the chains such reads form. An
/// order is optimal when its positioning meets the bound (the first always
/// is when no read starts where another read or the head ends; else,
/// often, the second).
pub(crate) fn plan(on: &OnSeekLine) -> Option<(Vec<Vec<usize>>, f64)> {
    let (head, reads) = (on.head, on.reads.as_slice());
    let found = shortest(head, reads)?;
    let links = Links::new(head, reads);
    let slack = on.slack_s * reads.len() as f64;
    let bound = on.line.least(reads.len() - links.count(), found.least) - slack;
    let mut orders = vec![found.order];
    if links.count() > 0 {
        orders.extend(chained(head, reads, &links));
    }
    Some((orders, rounded_down(bound)))
}

/// The least-travel order of the chains of `links`, each chain read
/// through without a locate, the chain from the head first.
fn chained(head: u64, reads: &[(u64, u64)], links: &Links) -> Option<Vec<usize>> {
    let mut order = links.first.map(|j| links.chain(j)).unwrap_or_default();
    let from = order.last().map_or(head, |&i| reads[i].1);
    let chains: Vec<Vec<usize>> = (0..reads.len())
        .filter(|&i| !links.follows[i])
        .map(|i| links.chain(i))
        .collect();
    if !chains.is_empty() {
        let spans: Vec<(u64, u64)> = chains
            .iter()
            .map(|c| (reads[c[0]].0, reads[c[c.len() - 1]].1))
            .collect();
        for k in shortest(from, &spans)?.order {
            order.extend(&chains[k]);
        }
    }
    Some(order)
}

/// The places reads start and end at, and the head's, in order along the
/// line; the gaps between neighbours.
struct Places {
    /// Each read as (start place, end place), indices into the sorted places.
    reads: Vec<(usize, usize)>,
    /// The head's place.
    head: usize,
    /// Each gap's length in blocks (gap `g` lies between places `g` and `g + 1`).
    length: Vec<u64>,
    /// How many reads cover each gap.
    cover: Vec<u64>,
}

impl Places {
    fn new(head: u64, reads: &[(u64, u64)]) -> Self {
        let mut at: Vec<u64> = reads
            .iter()
            .flat_map(|r| [r.0, r.1])
            .chain([head])
            .collect();
        at.sort_unstable();
        at.dedup();
        let place = |x: u64| at.binary_search(&x).expect("every block is a place");
        let reads: Vec<(usize, usize)> = reads.iter().map(|r| (place(r.0), place(r.1))).collect();
        let mut change = vec![0i64; at.len()];
        for &(s, e) in &reads {
            change[s] += 1;
            change[e] -= 1;
        }
        let mut running = 0i64;
        let cover = change[..at.len() - 1]
            .iter()
            .map(|c| {
                running += c;
                running as u64
            })
            .collect();
        Places {
            head: place(head),
            length: at.windows(2).map(|w| w[1] - w[0]).collect(),
            cover,
            reads,
        }
    }

    /// The distinct places some read ends at.
    fn end_places(&self) -> Vec<usize> {
        let mut ends: Vec<usize> = self.reads.iter().map(|r| r.1).collect();
        ends.sort_unstable();
        ends.dedup();
        ends
    }

    /// The walk's net crossings of gap `g` when it ends at place `t`:
    /// forward once between the head and `t`, back once between `t` and
    /// the head.
    fn net(&self, g: usize, t: usize) -> i64 {
        if self.head <= g && g < t {
            1
        } else if t <= g && g < self.head {
            -1
        } else {
            0
        }
    }

    /// Crossings of gap `g`, besides the reads', that a walk ending at `t`
    /// cannot do without.
    fn extra(&self, g: usize, t: usize) -> u64 {
        (self.cover[g] as i64 - self.net(g, t)).unsigned_abs()
    }

    /// Blocks of the crossings a walk ending at `t` cannot do without, for
    /// every `t` from prefix sums: each gap's covering reads' worth, less
    /// one crossing of a covered gap (one more of a bare one) between the
    /// head and a later `t`, one more of each gap between an earlier `t`
    /// and the head.
    fn crossings(&self) -> impl Fn(usize) -> Travel + '_ {
        let base: Travel = self
            .length
            .iter()
            .zip(&self.cover)
            .map(|(&l, &c)| Travel::from(l) * Travel::from(c))
            .sum();
        let mut ahead = vec![0i128; self.length.len() + 1];
        let mut behind = vec![0; self.length.len() + 1];
        for g in 0..self.length.len() {
            let l = i128::from(self.length[g]);
            ahead[g + 1] = ahead[g] + if self.cover[g] == 0 { l } else { -l };
            behind[g + 1] = behind[g] + Travel::from(self.length[g]);
        }
        move |t| {
            if t >= self.head {
                (base as i128 + ahead[t] - ahead[self.head]) as Travel
            } else {
                base + behind[self.head] - behind[t]
            }
        }
    }

    /// The gaps, shortest first (ties by position).
    fn gaps_by_length(&self) -> Vec<usize> {
        let mut gaps: Vec<usize> = (0..self.length.len()).collect();
        gaps.sort_by_key(|&g| (self.length[g], g));
        gaps
    }

    /// The blocks of the cheapest gaps that, each crossed there and back,
    /// join every place for a walk ending at `t`, and which gaps they are.
    fn joins(&self, t: usize, by_length: &[usize]) -> (Travel, Vec<bool>) {
        let mut parts = Parts::new(self.length.len() + 1);
        for &(s, e) in &self.reads {
            parts.join(s, e);
        }
        for g in 0..self.length.len() {
            if self.extra(g, t) > 0 {
                parts.join(g, g + 1);
            }
        }
        let mut joined = vec![false; self.length.len()];
        let mut blocks = 0;
        for &g in by_length {
            if self.extra(g, t) == 0 && parts.join(g, g + 1) {
                joined[g] = true;
                blocks += Travel::from(self.length[g]);
            }
        }
        (blocks, joined)
    }

    /// The reads in the order an Euler path takes them: from the head to
    /// `t` over the reads, each gap's unavoidable crossings and a crossing
    /// there and back over each `joined` gap.
    fn euler_order(&self, t: usize, joined: &[bool]) -> Vec<usize> {
        let gaps = self.length.len();
        let mut forward = vec![0u64; gaps];
        let mut back = vec![0u64; gaps];
        for g in 0..gaps {
            let net = self.net(g, t);
            let cover = self.cover[g] as i64;
            if cover >= net {
                back[g] = (cover - net) as u64;
            } else {
                forward[g] = (net - cover) as u64;
            }
            if joined[g] {
                forward[g] += 1;
                back[g] += 1;
            }
        }
        // Reads leaving each place, the lowest index taken first.
        let mut leaving: Vec<Vec<usize>> = vec![Vec::new(); gaps + 1];
        for (i, &(s, _)) in self.reads.iter().enumerate().rev() {
            leaving[s].push(i);
        }
        // Hierholzer's algorithm; a read is preferred at each place, so a
        // read that starts where the last one ended tends to follow it.
        let mut stack: Vec<(usize, Option<usize>)> = vec![(self.head, None)];
        let mut trail: Vec<usize> = Vec::with_capacity(self.reads.len());
        while let Some(&(v, _)) = stack.last() {
            if let Some(i) = leaving[v].pop() {
                stack.push((self.reads[i].1, Some(i)));
            } else if v < gaps && forward[v] > 0 {
                forward[v] -= 1;
                stack.push((v + 1, None));
            } else if v > 0 && back[v - 1] > 0 {
                back[v - 1] -= 1;
                stack.push((v - 1, None));
            } else if let (_, Some(i)) = stack.pop().expect("the stack is not empty") {
                trail.push(i);
            }
        }
        trail.reverse();
        trail
    }
}

/// Union-find over places (also the matrix fit's, [`super::line_fit`]).
pub(super) struct Parts {
    parent: Vec<usize>,
}

impl Parts {
    pub(super) fn new(n: usize) -> Self {
        Parts {
            parent: (0..n).collect(),
        }
    }

    pub(super) fn root(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    /// Joins the parts of `a` and `b`; whether they were apart.
    pub(super) fn join(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.root(a), self.root(b));
        self.parent[ra] = rb;
        ra != rb
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The least travel over every order, by trying them all.
    fn brute_force(head: u64, reads: &[(u64, u64)]) -> Travel {
        fn go(
            at: u64,
            reads: &[(u64, u64)],
            left: &mut Vec<usize>,
            so_far: Travel,
            best: &mut Travel,
        ) {
            if so_far >= *best {
                return;
            }
            if left.is_empty() {
                *best = so_far;
                return;
            }
            for k in 0..left.len() {
                let i = left.swap_remove(k);
                let hop = Travel::from(at.abs_diff(reads[i].0));
                go(reads[i].1, reads, left, so_far + hop, best);
                left.push(i);
                let last = left.len() - 1;
                left.swap(k, last);
            }
        }
        let mut best = Travel::MAX;
        go(head, reads, &mut (0..reads.len()).collect(), 0, &mut best);
        best
    }

    /// Reads as (start, end) from (start, length).
    fn spans(raw: &[(u64, u64)]) -> Vec<(u64, u64)> {
        raw.iter().map(|&(s, len)| (s, s + len)).collect()
    }

    /// The locates of `order` onto the block the head is on.
    fn free_in(head: u64, reads: &[(u64, u64)], order: &[usize]) -> usize {
        let mut at = head;
        order
            .iter()
            .filter(|&&i| {
                let free = at == reads[i].0;
                at = reads[i].1;
                free
            })
            .count()
    }

    fn is_permutation(order: &[usize], n: usize) -> bool {
        let mut seen = vec![false; n];
        order.len() == n
            && order
                .iter()
                .all(|&i| i < n && !std::mem::replace(&mut seen[i], true))
    }

    /// `best` on a seek-line model: the line's order, proven optimal where
    /// no read starts where another ends, never dearer than SLTF; with a
    /// short-seek line the costs leave the line and no line phase runs.
    #[test]
    fn best_stops_at_the_line_order_on_a_seek_line() {
        use crate::model::{Block, Extent, HelicalModel, HelicalSpec, LinearModel, LinearSeek};
        use crate::order::{order_tape, Algorithm, StopReason};
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let spec = HelicalSpec {
            capacity_bytes: 1 << 30,
            block_bytes: 1 << 16,
            // Slow enough that streaming past a gap never beats seeking it.
            rate_bps: 1e5,
            seek: LinearSeek {
                startup_s: 4.0,
                full_s: 60.0,
            },
            short_seek: None,
            rewind: LinearSeek {
                startup_s: 4.0,
                full_s: 50.0,
            },
        };
        let helical = HelicalModel::new(spec.clone()).unwrap();
        let linear = LinearModel::new(1 << 30, 1 << 16, 1e5, 60.0, 4.0).unwrap();
        let short = HelicalModel::new(HelicalSpec {
            short_seek: Some(LinearSeek {
                startup_s: 1.0,
                full_s: 400.0,
            }),
            ..spec
        })
        .unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..12 {
            // Disjoint reads: every locate moves, so the bound is exact.
            let mut blocks: Vec<u64> = (0..60).map(|_| rng.gen_range(0..8_000) * 2).collect();
            blocks.sort_unstable();
            blocks.dedup();
            let requests: Vec<Extent> = blocks
                .iter()
                .map(|&b| Extent {
                    start: Block(b),
                    bytes: 1 << 16,
                })
                .collect();
            let head = Block(rng.gen_range(0..8_000) * 2 + 1);
            for model in [&helical as &dyn crate::model::CostModel, &linear] {
                let best =
                    order_tape(model, requests.clone(), head, None, Algorithm::Best).unwrap();
                let sltf =
                    order_tape(model, requests.clone(), head, None, Algorithm::Sltf).unwrap();
                let report = best.search.as_ref().unwrap();
                assert!(report.phases.iter().any(|p| p.0 == "line"), "case {case}");
                assert_eq!(report.stopped_because, StopReason::Optimal, "case {case}");
                assert!(best.total_s <= sltf.total_s + 1e-9, "case {case}");
            }
            let best = order_tape(&short, requests, head, None, Algorithm::Best).unwrap();
            assert!(!best.search.unwrap().phases.iter().any(|p| p.0 == "line"));
        }
    }

    /// Where reading through the gaps is quick, streaming through the batch
    /// positions for less than the line's bound on every locate order:
    /// `best` returns it at once, saying why, without searching.
    #[test]
    fn best_streams_when_no_locate_order_can_beat_it() {
        use crate::model::{Block, Extent, HelicalModel, HelicalSpec, LinearSeek};
        use crate::order::{order_tape, Algorithm, Moves, StopReason};
        let seek = LinearSeek {
            startup_s: 4.0,
            full_s: 60.0,
        };
        let model = HelicalModel::new(HelicalSpec {
            capacity_bytes: 1 << 30,
            block_bytes: 1 << 16,
            rate_bps: 1e9,
            seek,
            short_seek: None,
            rewind: seek,
        })
        .unwrap();
        let requests: Vec<Extent> = (0..200)
            .map(|i| Extent {
                start: Block(i * 80),
                bytes: 1 << 16,
            })
            .collect();
        let best = order_tape(&model, requests, Block(0), None, Algorithm::Best).unwrap();
        let report = best.search.unwrap();
        assert_eq!(report.stopped_because, StopReason::Streaming);
        assert_eq!(best.moves, Moves::ReadThrough);
        assert!(!report
            .phases
            .iter()
            .any(|p| p.0 == "local search" || p.0 == "kicks"));
    }

    #[test]
    fn blocks_near_the_end_of_the_widest_tape_do_not_overflow() {
        let top = u64::MAX;
        let reads = [
            (top - 1, top),
            (0, 1),
            (top / 2, top / 2 + 1),
            (top / 4, top / 4 + 1),
        ];
        for head in [0, top / 3, top] {
            let found = shortest(head, &reads).unwrap();
            assert_eq!(travel_of(head, &reads, &found.order), found.least);
            assert_eq!(found.least, brute_force(head, &reads));
        }
    }

    #[test]
    fn reads_piled_over_the_whole_tape_are_left_to_the_search() {
        let piled: Vec<(u64, u64)> = (0..200).map(|i| (i, 1_000 + i)).collect();
        assert!(shortest(0, &piled).is_none());
        let apart: Vec<(u64, u64)> = (0..200).map(|i| (10 * i, 10 * i + 5)).collect();
        assert!(shortest(0, &apart).is_some());
    }

    #[test]
    fn a_read_behind_the_head_is_taken_on_the_way_back() {
        // Reads [0,3] and [1,2], head at 0: read [0,3], back to 1, read [1,2].
        let found = shortest(0, &[(0, 3), (1, 2)]).unwrap();
        assert_eq!(found.least, 2);
        assert_eq!(found.order, vec![0, 1]);
    }

    proptest! {
        /// The travel is the least of every order's, and the order found
        /// travels exactly that far, on small lines where reads overlap,
        /// nest, share ends and abut.
        #[test]
        fn the_order_travels_least_of_all_orders(
            head in 0u64..30,
            reads in prop::collection::vec((0u64..30, 1u64..12), 1..7),
        ) {
            let reads = spans(&reads);
            let found = shortest(head, &reads).unwrap();
            prop_assert!(is_permutation(&found.order, reads.len()));
            prop_assert_eq!(travel_of(head, &reads, &found.order), found.least);
            prop_assert_eq!(found.least, brute_force(head, &reads));
        }

        /// Trying one end only, the least travel stays a bound on every
        /// order's and the order travels no less than it.
        #[test]
        fn a_search_cut_short_still_bounds_the_travel(
            head in 0u64..30,
            reads in prop::collection::vec((0u64..30, 1u64..12), 1..7),
        ) {
            let reads = spans(&reads);
            let found = shortest_trying(head, &reads, 1).unwrap();
            prop_assert!(is_permutation(&found.order, reads.len()));
            prop_assert!(found.least <= brute_force(head, &reads));
            prop_assert!(travel_of(head, &reads, &found.order) >= found.least);
        }

        /// On larger lines the order found travels exactly the least
        /// travel computed (no brute force there).
        #[test]
        fn the_order_travels_the_travel_computed(
            head in 0u64..40_000,
            reads in prop::collection::vec((0u64..40_000, 1u64..80), 1..200),
        ) {
            let reads = spans(&reads);
            let found = shortest(head, &reads).unwrap();
            prop_assert!(is_permutation(&found.order, reads.len()));
            prop_assert_eq!(travel_of(head, &reads, &found.order), found.least);
        }

        /// The chained order takes every read once and has as many free
        /// locates as any order can.
        #[test]
        fn chained_orders_read_every_read_once(
            head in 0u64..20,
            reads in prop::collection::vec((0u64..20, 1u64..5), 1..30),
        ) {
            let reads = spans(&reads);
            let links = Links::new(head, &reads);
            if let Some(order) = chained(head, &reads, &links) {
                prop_assert!(is_permutation(&order, reads.len()));
                prop_assert_eq!(free_in(head, &reads, &order), links.count());
            }
        }

        /// No order has more free locates than the bound allows.
        #[test]
        fn links_bound_every_orders_free_locates(
            head in 0u64..8,
            reads in prop::collection::vec((0u64..8, 1u64..4), 1..6),
        ) {
            let reads = spans(&reads);
            let limit = Links::new(head, &reads).count();
            let n = reads.len();
            let mut order: Vec<usize> = (0..n).collect();
            // Every order of up to 5 reads, by Heap's algorithm.
            let mut c = vec![0; n];
            let free = |order: &[usize]| free_in(head, &reads, order);
            prop_assert!(free(&order) <= limit);
            let mut k = 0;
            while k < n {
                if c[k] < k {
                    if k % 2 == 0 { order.swap(0, k) } else { order.swap(c[k], k) }
                    prop_assert!(free(&order) <= limit);
                    c[k] += 1;
                    k = 0;
                } else {
                    c[k] = 0;
                    k += 1;
                }
            }
        }
    }
}
