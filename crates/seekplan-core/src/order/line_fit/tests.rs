//! The fit against lines drawn at random, exact and rounded, mirrored and
//! with reads that start where others end, and against matrices that are
//! no line; where it fits, the line's bound is checked against every order.

use super::*;
use crate::order::on_line;
use crate::order::test_support::permute;
use proptest::prelude::*;

/// A line's costs as rows (requests, then the head): `startup` plus
/// `rate` times the distance from each end to each start, nothing where
/// they meet; each entry passed through `finish` (rounding, perturbing).
fn line_rows(
    startup: f64,
    rate: f64,
    reads: &[(f64, f64)],
    head: f64,
    finish: impl Fn(usize, usize, f64) -> f64,
) -> Vec<Vec<f64>> {
    let ends: Vec<f64> = reads.iter().map(|r| r.1).chain([head]).collect();
    ends.iter()
        .enumerate()
        .map(|(u, &e)| {
            reads
                .iter()
                .enumerate()
                .map(|(v, &(s, _))| {
                    if u == v || e == s {
                        0.0
                    } else {
                        finish(u, v, startup + rate * (e - s).abs())
                    }
                })
                .collect()
        })
        .collect()
}

fn fit_rows(rows: &[Vec<f64>]) -> Option<OnSeekLine> {
    fit(rows.len() - 1, &Stop::never(), |u, out| {
        out.copy_from_slice(&rows[u])
    })
}

/// The least cost of any order of the reads from the head, by trying every one.
fn cheapest(rows: &[Vec<f64>]) -> f64 {
    let n = rows.len() - 1;
    let mut least = f64::INFINITY;
    permute(&mut (0..n).collect(), 0, &mut |order| {
        least = least.min(cost_of(rows, order));
    });
    least
}

fn cost_of(rows: &[Vec<f64>], order: &[usize]) -> f64 {
    let mut at = rows.len() - 1;
    order
        .iter()
        .map(|&v| {
            let c = rows[at][v];
            at = v;
            c
        })
        .sum()
}

/// Whether no read starts where another read or the head ends (no zero
/// entry off the diagonal): then the line's bound meets its order.
fn apart(rows: &[Vec<f64>]) -> bool {
    rows.iter().flatten().filter(|&&c| c == 0.0).count() == rows.len() - 1
}

/// Reads from (start, length) pairs, some starting where the one before
/// ends (`chained`), all run backward when `mirrored`.
fn reads_of(raw: &[(u16, u16)], chained: &[bool], mirrored: bool) -> Vec<(f64, f64)> {
    let mut reads: Vec<(f64, f64)> = Vec::new();
    for (k, &(s, len)) in raw.iter().enumerate() {
        let s = match reads.last() {
            Some(&(_, e)) if chained[k] => e,
            _ => f64::from(s),
        };
        reads.push((s, s + f64::from(len) + 1.0));
    }
    if mirrored {
        reads = reads.into_iter().map(|(s, e)| (-s, -e)).collect();
    }
    reads
}

/// Whether the startup can be told from the rows the fit reads: some end
/// (a read's or the head's) lies strictly between two starts of other
/// reads, leaving out the one that ends farthest from the rest (the fit's
/// anchor, whose start it learns only after the startup). Where none does,
/// the costs fit many lines.
fn identifiable(reads: &[(f64, f64)], head: f64) -> bool {
    let ends: Vec<f64> = reads.iter().map(|r| r.1).chain([head]).collect();
    let far = |e: f64| reads.iter().map(|r| (e - r.0).abs()).fold(0.0, f64::max);
    let anchor = (0..ends.len())
        .max_by(|&a, &b| far(ends[a]).total_cmp(&far(ends[b])).then(b.cmp(&a)))
        .expect("a head");
    ends.iter().enumerate().any(|(u, &e)| {
        let mut starts = (0..reads.len())
            .filter(|&v| v != anchor && v != u)
            .map(|v| reads[v].0);
        starts.clone().any(|s| s < e) && starts.any(|s| s > e)
    })
}

/// Checks the line fitted through `rows`: its bound lies below every order,
/// and within `slack` of the cheapest; the best of its orders costs at most
/// `slack` above the cheapest.
fn check_bound(rows: &[Vec<f64>], on: &OnSeekLine, slack: f64) -> Result<(), TestCaseError> {
    let least = cheapest(rows);
    let (orders, bound) = on_line::plan(on).expect("a short walk");
    prop_assert!(bound <= least + 1e-9 * least, "bound {bound} above {least}");
    prop_assert!(least - bound <= slack, "bound {bound} far below {least}");
    let best = orders
        .iter()
        .map(|o| cost_of(rows, o))
        .fold(f64::INFINITY, f64::min);
    prop_assert!(best - least <= slack, "order {best} against {least}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Costs exactly on a line are fitted, whichever way the reads run:
    /// the line's order is the cheapest and its bound meets it (reads
    /// apart: where some start where others end, the bound holds).
    #[test]
    fn an_exact_line_is_fitted_and_ordered_exactly(
        raw in prop::collection::vec((0u16..1000, 0u16..80), 3..8),
        chained in prop::collection::vec(prop::bool::weighted(0.05), 8),
        head in 0u16..1100,
        startup in 0.5f64..20.0,
        rate in 0.001f64..2.0,
        mirrored: bool,
    ) {
        let reads = reads_of(&raw, &chained, mirrored);
        let head = if mirrored { -f64::from(head) } else { f64::from(head) };
        let rows = line_rows(startup, rate, &reads, head, |_, _, c| c);
        let Some(on) = fit_rows(&rows) else {
            prop_assert!(!identifiable(&reads, head), "an exact line is fitted");
            return Ok(());
        };
        let top = rows.iter().flatten().copied().fold(0.0, f64::max);
        prop_assert!(on.slack_s <= 1e-12 * top, "slack {} of {top}", on.slack_s);
        // The bound is lowered a little for rounding (`bound::rounded_down`).
        let slack = if apart(&rows) { 1e-9 * cheapest(&rows) } else { f64::INFINITY };
        check_bound(&rows, &on, slack)?;
    }

    /// Costs of a line rounded to whole units are fitted with a slack, and
    /// the bound stays below every order.
    #[test]
    fn a_rounded_line_keeps_a_valid_bound(
        raw in prop::collection::vec((0u16..1000, 0u16..80), 3..8),
        head in 0u16..1100,
        startup in 5.0f64..50.0,
    ) {
        let reads = reads_of(&raw, &[false; 8], false);
        // Thousandths of a unit: entries of 5,000-1,050,000.
        let rows = line_rows(startup, 1.0, &reads, f64::from(head), |_, _, c| (c * 1000.0).round());
        let Some(on) = fit_rows(&rows) else {
            prop_assert!(!identifiable(&reads, f64::from(head)), "a line rounded finely is fitted");
            return Ok(());
        };
        prop_assert!(on.slack_s <= 4.0, "slack {}", on.slack_s);
        let slack = if apart(&rows) { 10.0 * rows.len() as f64 } else { f64::INFINITY };
        check_bound(&rows, &on, slack)?;
    }

    /// Whatever the costs, a fitted line's bound lies below every order:
    /// a line with one entry moved, by little or by much.
    #[test]
    fn a_fit_never_bounds_above_the_cheapest_order(
        raw in prop::collection::vec((0u16..1000, 0u16..80), 3..7),
        head in 0u16..1100,
        at in (0usize..8, 0usize..7),
        by in -1.0f64..1.0,
        scale in prop::sample::select(vec![1e-7, 1e-5, 1e-3, 1e-1]),
    ) {
        let reads = reads_of(&raw, &[false; 8], false);
        let n = reads.len();
        let (u, v) = (at.0 % (n + 1), at.1 % n);
        let rows = line_rows(10.0, 1.0, &reads, f64::from(head), |i, j, c| {
            if (i, j) == (u, v) { (c * (1.0 + by * scale)).max(0.0) } else { c }
        });
        if let Some(on) = fit_rows(&rows) {
            check_bound(&rows, &on, f64::INFINITY)?;
        }
    }

    /// Random costs are no line.
    #[test]
    fn random_costs_are_not_fitted(raw in prop::collection::vec(1u32..1000, 30..=30)) {
        let rows: Vec<Vec<f64>> = raw.chunks(5).map(|r| r.iter().map(|&c| f64::from(c)).collect()).collect();
        prop_assert!(fit_rows(&rows).is_none());
    }
}

/// Moving forward cheaper than back is no line: the fit assumes one rate.
#[test]
fn two_rates_are_not_a_line() {
    let reads: Vec<(f64, f64)> = (0..6)
        .map(|k| (100.0 * k as f64, 100.0 * k as f64 + 10.0))
        .collect();
    let ends: Vec<f64> = reads.iter().map(|r| r.1).chain([250.0]).collect();
    let rows: Vec<Vec<f64>> = ends
        .iter()
        .map(|&e| {
            reads
                .iter()
                .map(|&(s, _)| 1.0 + if s > e { s - e } else { 3.0 * (e - s) })
                .collect()
        })
        .collect();
    assert!(fit_rows(&rows).is_none());
}

/// Reads running both ways cannot be taken by the line's order.
#[test]
fn reads_both_ways_are_left_to_the_search() {
    let reads = [(0.0, 10.0), (50.0, 40.0), (60.0, 70.0)];
    let rows = line_rows(2.0, 1.0, &reads, 30.0, |_, _, c| c);
    assert!(fit_rows(&rows).is_none());
}

/// Empty, one-request and all-zero matrices are no line; a negative or
/// infinite entry ends the fit.
#[test]
fn degenerate_matrices_are_not_fitted() {
    assert!(fit_rows(&[vec![0.0]]).is_none());
    assert!(fit_rows(&[vec![0.0], vec![3.0]]).is_none());
    assert!(fit_rows(&vec![vec![0.0; 3]; 4]).is_none());
    let mut rows = line_rows(
        1.0,
        1.0,
        &[(0.0, 1.0), (5.0, 6.0), (9.0, 10.0)],
        3.0,
        |_, _, c| c,
    );
    rows[1][2] = -1.0;
    assert!(fit_rows(&rows).is_none());
    rows[1][2] = f64::INFINITY;
    assert!(fit_rows(&rows).is_none());
}

/// A caller's stop (a time limit spent, a cancel) ends the fit: no line,
/// even where the costs lie on one.
#[test]
fn a_stop_reached_ends_the_fit() {
    let reads = [(0.0, 10.0), (40.0, 45.0), (20.0, 30.0), (70.0, 71.0)];
    let rows = line_rows(2.0, 1.0, &reads, 35.0, |_, _, c| c);
    assert!(fit_rows(&rows).is_some());
    let spent = Stop::at(Some(std::time::Instant::now()));
    assert!(fit(rows.len() - 1, &spent, |u, out| out
        .copy_from_slice(&rows[u]))
    .is_none());
}

/// A line whose entries are mostly zeros (many reads starting where many
/// others end) is left to the search past [`ZEROS_PER_ROW`]; with fewer it
/// is fitted.
#[test]
fn a_line_of_mostly_zeros_is_not_fitted() {
    let many = |k: usize| -> Vec<(f64, f64)> {
        let into: Vec<(f64, f64)> = (0..k).map(|_| (0.0, 5.0)).collect();
        let out = (0..k).map(|_| (5.0, 10.0));
        // One read ending between two starts, so the startup shows.
        into.into_iter().chain(out).chain([(2.0, 3.0)]).collect()
    };
    let few = line_rows(1.0, 1.0, &many(2), 20.0, |_, _, c| c);
    assert!(fit_rows(&few).is_some());
    let crowded = line_rows(1.0, 1.0, &many(6), 20.0, |_, _, c| c);
    assert!(fit_rows(&crowded).is_none());
}
