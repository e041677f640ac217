//! Set-up shared by the local searches' unit tests.

use super::dense::Dense;
use super::neighbours::Neighbours;
use super::tour::Tour;
use super::Problem;
use crate::model::{CostMatrix, HelicalModel, HelicalSpec, SerpentineModel, SerpentineSpec};

/// The model parameters of the catalogued drive `name` (from the package's
/// devices.toml).
fn catalogued<T: serde::de::DeserializeOwned>(name: &str) -> T {
    let devices = include_str!("../../../../python/seekplan/data/devices.toml");
    let doc: serde_json::Value = basic_toml::from_str(devices).expect("catalog parses");
    serde_json::from_value(doc["drives"][name]["params"].clone()).expect("a spec of its model")
}

/// The catalogued MLR1 drive with a nominal tape.
pub(crate) fn mlr1() -> SerpentineModel {
    SerpentineModel::nominal(catalogued::<SerpentineSpec>("mlr1")).expect("valid spec")
}

/// The catalogued Ampex DST 310: a helical drive whose rewinds have a line
/// of their own.
pub(crate) fn ampex() -> HelicalModel {
    HelicalModel::new(catalogued::<HelicalSpec>("ampex-dst310")).expect("valid spec")
}

/// `f` on the closed tour (from node 0 back to it) over the cost matrix
/// `rows`, given as dense costs and their neighbour lists.
pub(crate) fn on_closed_tour<R>(
    rows: Vec<Vec<f64>>,
    f: impl FnOnce(&Dense, &Neighbours) -> R,
) -> R {
    let matrix = CostMatrix::from_rows(rows).unwrap();
    let problem = Problem::matrix(&matrix, 0, Some(0)).unwrap();
    let d = Dense::new(&problem);
    let near = Neighbours::new(&d);
    f(&d, &near)
}

/// A tilted-drilling-like matrix over `n` scattered points: Manhattan
/// distances with upward moves dearer, so nearly symmetric (the searches
/// that use reversals and α candidates run on it).
pub(crate) fn tilted(n: u32) -> Vec<Vec<f64>> {
    let pts: Vec<(f64, f64)> = (0..n)
        .map(|k| (f64::from(k * 37 % 101), f64::from(k * 59 % 97)))
        .collect();
    pts.iter()
        .map(|a| {
            pts.iter()
                .map(|b| (b.0 - a.0).abs() + if b.1 > a.1 { 2.0 } else { 1.0 } * (b.1 - a.1).abs())
                .collect()
        })
        .collect()
}

/// Checks that `improve`, run from the identity order on the closed tour
/// over `rows`, gains something, gains exactly what the tour loses, and
/// leaves a permutation.
pub(crate) fn improves_the_identity_tour(
    rows: Vec<Vec<f64>>,
    improve: impl FnOnce(&Dense, &Neighbours, &mut Tour) -> f64,
) {
    on_closed_tour(rows, |d, near| {
        let order: Vec<usize> = (0..d.len()).collect();
        let mut tour = Tour::new(d.depot(), &order);
        let gain = improve(d, near, &mut tour);
        assert!(gain > 0.0);
        assert!((d.tour(&order) - gain - d.tour(tour.order())).abs() < 1e-6);
        let mut sorted = tour.order().to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, order);
    });
}

/// The `n` × `n` cost matrix whose off-diagonal entries are `raw` read row
/// by row (`raw[i * n + j]`; at least n² entries), zero on the diagonal.
pub(crate) fn square_rows(n: usize, raw: &[u32]) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i == j {
                        0.0
                    } else {
                        f64::from(raw[i * n + j])
                    }
                })
                .collect()
        })
        .collect()
}

/// Calls `f` on every order of `v` that keeps `v[..k]` in place, for
/// brute-force searches (k = 0: every permutation).
pub(crate) fn permute(v: &mut Vec<usize>, k: usize, f: &mut impl FnMut(&[usize])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, f);
        v.swap(k, i);
    }
}
