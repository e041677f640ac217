//! Tests of the cost tables: stored, on demand and from cached positions agree.

use super::super::test_support::ampex;
use super::*;
use crate::model::{CostMatrix, CostModel, Extent};
use proptest::prelude::*;
use std::borrow::Cow;

/// A schedule that must end at BOT, on a drive whose rewinds have a
/// line of their own, ends by that rewind: the same from cached
/// positions as in the stored matrix, and here cheaper than the locate
/// to block 0, so the sparse assignment reads that column in full.
#[test]
fn a_schedule_ending_at_bot_rewinds() {
    let model = ampex();
    let requests = (1..40u64)
        .map(|k| Extent {
            start: Block(k * 900 + 7),
            bytes: 3 << 20,
        })
        .collect();
    let problem = Problem::tape(&model, requests, Block(500), Some(Block(0))).unwrap();
    let (cached, stored) = (Dense::on_demand(&problem), Dense::matrix(&problem));
    assert!(cached.cached_positions().is_some());
    assert!(cached.cached_end().is_none());
    let n = problem.len();
    for i in 0..n {
        let from = Block(problem.head_logical(Head::After(i)).unwrap());
        let rewind = model.rewind_s(from).unwrap();
        assert_eq!(cached.cost(i, n), rewind);
        assert_eq!(stored.cost(i, n), rewind);
        assert!(rewind < model.locate(from, Block(0)), "request {i}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Row reads give exactly the entry-by-entry costs, on f64 and f32
    /// matrices, with and without an end node, and SLTF's cheapest
    /// move is the same either way.
    #[test]
    fn row_reads_equal_entry_reads(
        n in 2usize..30,
        raw in proptest::collection::vec(0.0f32..1e4, 900),
        start in 0usize..30,
        end in proptest::option::of(0usize..30),
        among_keys in proptest::collection::vec(any::<bool>(), 30),
    ) {
        let (start, end) = (start % n, end.map(|e| e % n));
        let f32s: Vec<f32> = raw[..n * n].to_vec();
        let f64s: Vec<f64> = f32s.iter().map(|&v| f64::from(v)).collect();
        let matrices = [
            CostMatrix::from_flat(n, Cow::Owned(f64s)).unwrap(),
            CostMatrix::from_flat_f32(n, Cow::Owned(f32s)).unwrap(),
        ];
        for matrix in &matrices {
            let problem = Problem::matrix(matrix, start, end).unwrap();
            let d = Dense::with(problem.len(), Source::Direct(&problem));
            let stored = Dense::matrix(&problem);
            let m = d.len() + 1;
            let mut row = vec![0.0; m];
            let among: Vec<usize> = (0..d.len()).filter(|&j| among_keys[j]).collect();
            for i in 0..m {
                for costs in [&d, &stored] {
                    costs.row(i, &mut row);
                    for (j, &c) in row.iter().enumerate() {
                        if i != j {
                            prop_assert_eq!(c, d.cost(i, j));
                        }
                    }
                }
                let by_entry = cheapest(&among, |j| d.cost(i, j));
                prop_assert_eq!(d.cheapest(i, &among), by_entry);
            }
        }
    }
}
