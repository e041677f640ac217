//! The CERN Tape Archive's published cost heuristic for LTO locates, the
//! cost its software RAO (greedy shortest-locate-time-first) decides with:
//!
//! cost = 4.29 + 6.69·wrapChange + 3.2·bandChange − 6.04·landingZoneChange
//!        + 5.22·directionChange + 11.32·stepBack + 0.0006192·|ΔLPOS|
//!
//! in seconds, fitted by CTA on LTO-7M media (CTA `CTACostHeuristic`, issue
//! #4). Each indicator compares the end of one file with the start of the
//! next: wrap, data band, half of the tape ("landing zone"), wrap parity
//! (direction), and a step back (same wrap, target behind the head).

use super::lto::{LtoModel, WrapPosition};
use super::{Block, CostModel, Extent, Physical, Pos, PosCosts, Read};

/// Constant term of every move.
const BASE_S: f64 = 4.29;
/// Moving to another wrap.
const WRAP_CHANGE_S: f64 = 6.69;
/// Moving to another data band.
const BAND_CHANGE_S: f64 = 3.2;
/// Moving to the other half of the tape (negative in CTA's fit).
const LANDING_ZONE_CHANGE_S: f64 = -6.04;
/// Moving to a wrap read the other way.
const DIRECTION_CHANGE_S: f64 = 5.22;
/// Moving back on the same wrap.
const STEP_BACK_S: f64 = 11.32;
/// Seconds per LPOS step travelled.
const PER_LPOS_S: f64 = 0.0006192;

/// A lower bound of CTA's cost by LPOS distance: every indicator adds
/// nothing or more except the landing-zone change (positions whose `side`,
/// the half of the tape, differs), which can only lower it, and a move to
/// another wrap (`track`) adds its wrap change at least; a floor above the
/// cost only raises it further.
pub fn along_bound() -> super::AlongBound {
    super::AlongBound {
        base: BASE_S,
        other_side_base: BASE_S + LANDING_ZONE_CHANGE_S,
        per_along: PER_LPOS_S,
        other_track_extra: WRAP_CHANGE_S,
        near_per_along: None,
        near_back_per_along: None,
    }
}

/// CTA's estimate of the seconds from `from` (end of a file) to `to`.
pub fn cta_cost(from: WrapPosition, to: WrapPosition) -> f64 {
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let step_back = from.wrap == to.wrap && (to.lpos - from.lpos) * from.direction().sign() < 0.0;
    BASE_S
        + WRAP_CHANGE_S * flag(from.wrap != to.wrap)
        + BAND_CHANGE_S * flag(from.band != to.band)
        + LANDING_ZONE_CHANGE_S * flag(from.half != to.half)
        + DIRECTION_CHANGE_S * flag(from.wrap % 2 != to.wrap % 2)
        + STEP_BACK_S * flag(step_back)
        + PER_LPOS_S * (to.lpos - from.lpos).abs()
}

/// A tape whose locates are timed by CTA's heuristic instead of a physical
/// model, on the wrap positions of the model `M` it wraps (LTO's); reads are
/// that model's. CTA's fit goes negative for short moves ahead across the
/// middle of the tape: as a judge of time ([`CtaModel::new`]) a locate never
/// costs less than nothing, so it is clamped at 0; as CTA's own RAO ranks
/// candidates ([`CtaModel::ranking`]) the raw value is kept, as CTA does.
#[derive(Clone, Debug)]
pub struct CtaModel<M = LtoModel> {
    base: M,
    /// Least cost of a locate: 0 as a judge, −∞ when ranking like CTA.
    floor: f64,
}

impl CtaModel<LtoModel> {
    /// CTA's costs on the tape `lto` describes, clamped at 0.
    pub fn new(lto: LtoModel) -> Self {
        CtaModel {
            base: lto,
            floor: 0.0,
        }
    }
}

impl<M: CostModel> CtaModel<M> {
    /// CTA's raw heuristic (unclamped, what CTA's RAO compares) on the tape
    /// `base` describes; `None` unless `base` has wrap positions.
    pub fn ranking(base: M) -> Option<Self> {
        base.wrap_position(Block(0))?;
        Some(CtaModel {
            base,
            floor: f64::NEG_INFINITY,
        })
    }

    fn wrap(&self, block: Block) -> WrapPosition {
        self.base
            .wrap_position(block)
            .expect("the base model has wrap positions")
    }
}

impl<M: CostModel> CostModel for CtaModel<M> {
    fn capacity(&self) -> u64 {
        self.base.capacity()
    }

    fn block_bytes(&self) -> u64 {
        self.base.block_bytes()
    }

    fn locate(&self, from: Block, to: Block) -> f64 {
        cta_cost(self.wrap(from), self.wrap(to)).max(self.floor)
    }

    fn read(&self, extent: Extent) -> Read {
        self.base.read(extent)
    }

    fn physical(&self, block: Block) -> Option<Physical> {
        self.base.physical(block)
    }

    fn keypoint_spacing(&self) -> f64 {
        0.0
    }

    fn wrap_position(&self, block: Block) -> Option<WrapPosition> {
        Some(self.wrap(block))
    }

    fn pos(&self, block: Block) -> Option<Pos> {
        Some(self.wrap(block).into())
    }

    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        Some(PosCosts::Cta { floor: self.floor })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(wrap: u32, band: u32, lpos: f64, half: u8) -> WrapPosition {
        WrapPosition {
            wrap,
            band,
            lpos,
            half,
        }
    }

    #[test]
    fn each_term_adds_its_published_coefficient() {
        let base = cta_cost(at(0, 0, 100.0, 0), at(0, 0, 100.0, 0));
        assert!((base - 4.29).abs() < 1e-12);
        let ahead = cta_cost(at(0, 0, 100.0, 0), at(0, 0, 1100.0, 0));
        assert!((ahead - 4.29 - 0.6192).abs() < 1e-9);
        let back = cta_cost(at(0, 0, 1100.0, 0), at(0, 0, 100.0, 0));
        assert!((back - ahead - 11.32).abs() < 1e-9);
        // Odd wraps run backwards: a lower LPOS is ahead, not a step back.
        let odd = cta_cost(at(1, 0, 1100.0, 0), at(1, 0, 100.0, 0));
        assert!((odd - ahead).abs() < 1e-9);
        let all = cta_cost(at(0, 0, 100.0, 0), at(41, 1, 100.0, 1));
        assert!((all - (4.29 + 6.69 + 3.2 - 6.04 + 5.22)).abs() < 1e-9);
    }
}
