//! Cached positions: what schedulers keep per request so that timing a move
//! costs no more than a lookup. A model that has them fills a [`Pos`] per
//! block and says how to time a move between two ([`PosCosts`]).

use super::cta::cta_cost;
use super::lto::LtoModel;
use super::Block;

/// A cached position on a medium, in units its model chooses: schedulers
/// keep one per request and time moves with the model's [`PosCosts`].
/// Only `along` means something outside the model: the longitudinal
/// coordinate, so that positions near each other on the medium have near
/// values (schedulers look for a request's neighbours among these).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pos {
    /// Longitudinal coordinate along the medium.
    pub along: f64,
    /// Model-defined (LTO: the wrap).
    pub track: u32,
    /// Model-defined (LTO: the data band).
    pub zone: u32,
    /// Model-defined (LTO: the half of the tape).
    pub side: u8,
}

impl Pos {
    /// A position that stands for `block` itself, at longitudinal
    /// coordinate `along`: for models whose locate on blocks needs no
    /// mapping worth caching (helical, four-region), which time a move from
    /// the two blocks. The block rides in `track` and `zone`, which such
    /// models define so.
    pub fn of_block(block: Block, along: f64) -> Pos {
        Pos {
            along,
            track: (block.0 >> 32) as u32,
            zone: block.0 as u32,
            side: 0,
        }
    }

    /// The block of a position made by [`Pos::of_block`].
    pub fn block(self) -> Block {
        Block((u64::from(self.track) << 32) | u64::from(self.zone))
    }

    /// Whether `other` is the same place to the bit (so every move there
    /// from one head takes the same time).
    pub fn same_place(self, other: Pos) -> bool {
        self.along.to_bits() == other.along.to_bits()
            && (self.track, self.zone, self.side) == (other.track, other.zone, other.side)
    }
}

/// A lower bound on a model's locate time by longitudinal distance alone:
/// no move between positions `delta` apart along the medium takes less than
/// `base + per_along * delta` seconds, or `other_side_base + per_along *
/// delta` when the two positions differ in `Pos::side`. Schedulers use it to
/// stop searching once every position further away must cost more than one
/// already found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlongBound {
    /// Seconds every move within one side takes at least (may be negative).
    pub base: f64,
    /// The same for a move between sides (at most `base`).
    pub other_side_base: f64,
    /// Seconds per unit of `along` at least.
    pub per_along: f64,
    /// Seconds a move to another `Pos::track` adds at least (0: no more
    /// than a move along one track).
    pub other_track_extra: f64,
    /// Seconds per unit of `along` of a second line through 0 s, if any,
    /// for moves to an equal or larger `along`: the bound is then the
    /// lesser of the two lines. For moves that either creep from nothing
    /// (reading through, one block at a time) or pay a fixed start (a
    /// seek), which one line through 0 s bounds only at the seek's slope.
    pub near_per_along: Option<f64>,
    /// The same for moves to a smaller `along`. It differs where reading
    /// through creeps forward only and `along` follows the blocks (helical
    /// tapes): a move back is a seek and pays its start.
    pub near_back_per_along: Option<f64>,
}

impl AlongBound {
    /// A bound that does not depend on sides.
    pub fn uniform(base: f64, per_along: f64) -> Self {
        AlongBound {
            base,
            other_side_base: base,
            per_along,
            other_track_extra: 0.0,
            near_per_along: None,
            near_back_per_along: None,
        }
    }

    /// This bound with a line through 0 s of `per_along` seconds per unit
    /// in both directions.
    pub fn with_near(self, per_along: f64) -> Self {
        AlongBound {
            near_per_along: Some(per_along),
            near_back_per_along: Some(per_along),
            ..self
        }
    }

    /// The bound for any two positions `delta` apart (to an equal or larger
    /// `along` when `forward`), whatever their sides and tracks: the lesser
    /// of the two sides' bounds, no track change added.
    pub fn any_side(&self, delta: f64, forward: bool) -> f64 {
        self.at(delta, false, forward)
            .min(self.at(delta, true, forward))
    }

    /// The bound for positions `delta` apart (between sides or not; to an
    /// equal or larger `along` when `forward`), shaved by a relative 1e-9 so
    /// that rounding in a model's own sum never puts a cost below it.
    #[inline]
    pub fn at(&self, delta: f64, other_side: bool, forward: bool) -> f64 {
        let base = if other_side {
            self.other_side_base
        } else {
            self.base
        };
        let mut b = base + self.per_along * delta;
        let near = if forward {
            self.near_per_along
        } else {
            self.near_back_per_along
        };
        if let Some(near) = near {
            b = b.min(near * delta);
        }
        b - b.abs() * 1e-9
    }
}

/// Times a move between two positions of one model (the extension point
/// for models without an inlined kernel in [`PosCosts`]).
pub trait LocatePos: Sync {
    /// Seconds to locate from `from` to `to`.
    fn locate_pos(&self, from: Pos, to: Pos) -> f64;

    /// A lower bound of [`LocatePos::locate_pos`] by distance along the
    /// medium, if the model has one (faster SLTF on large batches).
    fn along_bound(&self) -> Option<AlongBound> {
        None
    }
}

/// How a model times a move between two of its positions. The kernels of
/// the models that have positions are listed so that schedulers' inner
/// loops inline them: timing every move through a trait object instead
/// made CTA-SLTF 2x and `best` on 4,000 LTO requests ~40 % slower. Any
/// other model can give its own [`LocatePos`] (one indirect call a move).
#[derive(Clone, Copy)]
pub enum PosCosts<'a> {
    /// The LTO wrap/LPOS model's physical locate.
    Lto(&'a LtoModel),
    /// CTA's cost heuristic, never below `floor`.
    Cta {
        /// Least cost of a move (0 as a judge, −∞ when ranking like CTA).
        floor: f64,
    },
    /// Any other model's own timing.
    Other(&'a dyn LocatePos),
}

/// A loop over many moves, compiled once per kernel with the kernel inlined
/// (see [`PosCosts::run`]).
pub trait PosJob {
    /// What the loop returns.
    type Out;
    /// Runs the loop, timing moves with `locate`.
    fn run(self, locate: impl Fn(Pos, Pos) -> f64) -> Self::Out;
}

impl PosCosts<'_> {
    /// Runs `job` with this kernel as a plain function: one dispatch for
    /// the whole loop rather than one per move.
    #[inline]
    pub fn run<J: PosJob>(&self, job: J) -> J::Out {
        match *self {
            PosCosts::Lto(lto) => job.run(|a, b| lto.locate_between(a.into(), b.into())),
            PosCosts::Cta { floor } => job.run(move |a, b| cta_cost(a.into(), b.into()).max(floor)),
            PosCosts::Other(m) => job.run(|a, b| m.locate_pos(a, b)),
        }
    }

    /// A lower bound of [`PosCosts::locate`] by distance along the medium.
    pub fn along_bound(&self) -> Option<AlongBound> {
        match self {
            PosCosts::Lto(lto) => Some(lto.along_bound()),
            PosCosts::Cta { .. } => Some(super::cta::along_bound()),
            PosCosts::Other(m) => m.along_bound(),
        }
    }

    /// Seconds to locate from `from` to `to`.
    #[inline]
    pub fn locate(&self, from: Pos, to: Pos) -> f64 {
        match self {
            PosCosts::Lto(lto) => lto.locate_between(from.into(), to.into()),
            PosCosts::Cta { floor } => cta_cost(from.into(), to.into()).max(*floor),
            PosCosts::Other(m) => m.locate_pos(from, to),
        }
    }
}
