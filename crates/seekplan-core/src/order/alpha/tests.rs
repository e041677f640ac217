//! The 1-trees and α values against Kruskal's algorithm on the explicit
//! graph, and the ascent's bound against every tour.

use super::one_tree::Special;
use super::*;
use crate::order::test_support::{on_closed_tour, permute, square_rows};
use proptest::prelude::*;

/// The minimum spanning tree's cost on the explicit 2m-node graph (in-node
/// 2v, out-node 2v + 1) over every node but `special`, containing every
/// fixed edge and `forced` edges, by Kruskal's algorithm.
fn kruskal(g: &Graph, pen: &Penalties, special: usize, forced: &[(usize, usize)]) -> f64 {
    let m = g.m;
    let mut edges: Vec<(f64, usize, usize)> = Vec::new();
    for u in 0..m {
        for v in (0..m).filter(|&v| v != u) {
            edges.push((pen.weight(g, u, v), 2 * u + 1, 2 * v));
        }
    }
    edges.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut root: Vec<usize> = (0..2 * m).collect();
    fn find(root: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while root[x] != x {
            x = root[x];
        }
        x
    }
    let mut total = 0.0;
    let mut join = |root: &mut Vec<usize>, w: f64, a: usize, b: usize| {
        let (ra, rb) = (find(root, a), find(root, b));
        if ra != rb && a != special && b != special {
            root[ra] = rb;
            total += w;
        }
    };
    for v in 0..m {
        join(&mut root, pen.out[v] + pen.inn[v], 2 * v, 2 * v + 1);
    }
    for &(u, v) in forced {
        join(&mut root, pen.weight(g, u, v), 2 * u + 1, 2 * v);
    }
    for (w, a, b) in edges {
        join(&mut root, w, a, b);
    }
    total
}

/// The 1-tree's cost around `special` (2m-node numbering) with `forced`
/// edges, from [`kruskal`] and the special node's two edges.
fn one_tree_cost(g: &Graph, pen: &Penalties, special: usize, forced: &[(usize, usize)]) -> f64 {
    let m = g.m;
    let k = special / 2;
    let at_special: Vec<(usize, usize)> = forced
        .iter()
        .copied()
        .filter(|&(u, v)| 2 * u + 1 == special || 2 * v == special)
        .collect();
    let elsewhere: Vec<(usize, usize)> = forced
        .iter()
        .copied()
        .filter(|e| !at_special.contains(e))
        .collect();
    let other = match at_special.first() {
        Some(&(u, v)) => pen.weight(g, u, v),
        None => (0..m)
            .filter(|&j| j != k)
            .map(|j| {
                if special % 2 == 1 {
                    pen.weight(g, k, j)
                } else {
                    pen.weight(g, j, k)
                }
            })
            .fold(f64::INFINITY, f64::min),
    };
    kruskal(g, pen, special, &elsewhere) + pen.out[k] + pen.inn[k] + other
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// α computed from the tree equals the rise of the 1-tree's cost
    /// when the edge is forced in, recomputed by Kruskal's algorithm on
    /// the explicit 2m-node graph, under random penalties.
    #[test]
    fn alpha_is_the_rise_of_the_one_tree_with_the_edge_forced(
        n in 2usize..6,
        raw in proptest::collection::vec(0u32..50, 36),
        pens in proptest::collection::vec(-20i32..20, 12),
    ) {
        let g = on_closed_tour(square_rows(n, &raw), |d, _| Graph::new(d));
        let m = g.m;
        let pen = Penalties {
            out: (0..m).map(|k| f64::from(pens[k])).collect(),
            inn: (0..m).map(|k| f64::from(pens[6 + k])).collect(),
        };
        let tree = OneTree::new(&g, &pen);
        let special = match tree.special {
            Special::Out(k) => 2 * k + 1,
            Special::In(k) => 2 * k,
        };
        let base = one_tree_cost(&g, &pen, special, &[]);
        let penalties: f64 = pen.out.iter().chain(&pen.inn).sum();
        prop_assert!((tree.bound - (base - 2.0 * penalties)).abs() < 1e-9);
        let alpha = tree.alphas(&g, &pen);
        for u in 0..m {
            for v in (0..m).filter(|&v| v != u) {
                let forced = one_tree_cost(&g, &pen, special, &[(u, v)]);
                prop_assert!((alpha[u * m + v] - (forced - base)).abs() < 1e-9,
                    "α({u}→{v}) = {} but forcing it costs {}", alpha[u * m + v], forced - base);
            }
        }
    }

    /// Hints left by earlier trees under other penalties (as the
    /// ascent carries them) give the tree and leaf a fresh search
    /// gives, ties included (small integer costs tie often).
    #[test]
    fn hints_from_earlier_trees_change_no_tree(
        n in 2usize..9,
        raw in proptest::collection::vec(0u32..8, 81),
        pens in proptest::collection::vec(proptest::collection::vec(-3i32..4, 20), 1..6),
    ) {
        let g = on_closed_tour(square_rows(n, &raw), |d, _| Graph::new(d));
        let m = g.m;
        let mut hints = Hints::new(m);
        for p in &pens {
            let pen = Penalties {
                out: (0..m).map(|k| f64::from(p[k])).collect(),
                inn: (0..m).map(|k| f64::from(p[10 + k])).collect(),
            };
            let (hinted, fresh) = (OneTree::build(&g, &pen, &mut hints), OneTree::new(&g, &pen));
            prop_assert_eq!(&hinted.dad, &fresh.dad);
            prop_assert_eq!(&hinted.forward, &fresh.forward);
            prop_assert_eq!(hinted.special, fresh.special);
            prop_assert_eq!(hinted.extra, fresh.extra);
            prop_assert_eq!(hinted.bound, fresh.bound);
        }
    }

    /// Candidates are other valid nodes, α is never negative and is
    /// zero on the 1-tree's edges, and the ascent's bound is at most
    /// the optimal tour (by brute force).
    #[test]
    fn candidates_are_valid_and_the_bound_holds(
        n in 3usize..7,
        raw in proptest::collection::vec(1u32..1000, 49),
    ) {
        on_closed_tour(square_rows(n, &raw), |d, _| {
            let g = Graph::new(d);
            let m = g.m;
            let mut order: Vec<usize> = (0..d.len()).collect();
            let mut optimum = f64::INFINITY;
            permute(&mut order, 0, &mut |o| optimum = optimum.min(d.tour(o)));
            let near = candidates(d, d.tour(&order), 3, &Stop::never()).near;
            let (pen, bound) = ascent(&g, d.tour(&order), &Stop::never(), Effort::Quick);
            prop_assert!(bound <= optimum + 1e-6, "bound {bound} above the optimum {optimum}");
            let (_, long) = ascent(&g, d.tour(&order), &Stop::never(), Effort::Long);
            prop_assert!(long <= optimum + 1e-6, "long bound {long} above the optimum {optimum}");
            for u in 0..m {
                prop_assert_eq!(near.succs[u].len(), 3.min(m - 1));
                prop_assert_eq!(near.preds[u].len(), 3.min(m - 1));
                for &v in near.succs[u].iter().chain(&near.preds[u]) {
                    prop_assert!(v < m && v != u);
                }
            }
            let tree = OneTree::new(&g, &pen);
            let alpha = tree.alphas(&g, &pen);
            for u in 0..m {
                for v in (0..m).filter(|&v| v != u) {
                    prop_assert!(alpha[u * m + v] >= 0.0);
                    if tree.has(u, v) {
                        prop_assert_eq!(alpha[u * m + v], 0.0);
                    }
                }
            }
            Ok(())
        })?;
    }
}
