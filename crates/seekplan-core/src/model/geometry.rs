//! Physical positions on a linear (serpentine) tape and the eight seek classes
//! of Sandstå & Midtstraum, Figure 2.

use serde::Serialize;

/// Direction the tape moves under the head while reading a track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Direction {
    /// From BOT towards EOT.
    Forward,
    /// From EOT towards BOT.
    Reverse,
}

impl Direction {
    /// The other direction.
    pub fn flip(self) -> Self {
        match self {
            Direction::Forward => Direction::Reverse,
            Direction::Reverse => Direction::Forward,
        }
    }

    /// +1 for forward, -1 for reverse: the sign of travel along the tape.
    pub fn sign(self) -> f64 {
        match self {
            Direction::Forward => 1.0,
            Direction::Reverse => -1.0,
        }
    }
}

/// Where a block lies: its track, the track's direction, and the longitudinal
/// position as a fraction of the track length (0 = BOT end, 1 = EOT end).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Physical {
    /// Logical track (or wrap) number.
    pub track: u32,
    /// Reading direction of that track.
    pub direction: Direction,
    /// Longitudinal position in track lengths from BOT, in [0, 1].
    pub lpos: f64,
}

impl Physical {
    /// How far `other` lies ahead of this position in this position's direction.
    pub fn ahead(&self, other_lpos: f64) -> f64 {
        (other_lpos - self.lpos) * self.direction.sign()
    }

    /// Longitudinal position of the key point preceding this position on its
    /// track, for key points `spacing` track lengths apart from the track's
    /// start (0 spacing: the drive needs none, the position itself).
    pub fn preceding_keypoint(&self, spacing: f64) -> f64 {
        if spacing <= 0.0 {
            return self.lpos;
        }
        let along = match self.direction {
            Direction::Forward => self.lpos,
            Direction::Reverse => 1.0 - self.lpos,
        };
        let keypoint = ((along / spacing + 1e-9).floor() * spacing).min(1.0);
        match self.direction {
            Direction::Forward => keypoint,
            Direction::Reverse => 1.0 - keypoint,
        }
    }
}

/// The eight disjoint seek classes of Figure 2, relative to the head's position
/// and direction. "Key point" means the nearest key point preceding the
/// target in the target track's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SeekClass {
    /// 1: further down the same track: streams, no key point.
    SameTrackAhead,
    /// 2: earlier on the same track: two reversals and a key point.
    SameTrackBehind,
    /// 3: ahead on a co-directional track, but its key point is behind the head.
    CoTrackAheadNearKeypoint,
    /// 4: ahead on a co-directional track, key point ahead: no reversal.
    CoTrackAhead,
    /// 5: behind on a co-directional track: two reversals.
    CoTrackBehind,
    /// 6: ahead on an anti-directional track: run on to its key point, reverse once.
    AntiTrackAhead,
    /// 7: behind on an anti-directional track, its key point still ahead of the head.
    AntiTrackBehindNearKeypoint,
    /// 8: behind on an anti-directional track, key point behind: reverse at once.
    AntiTrackBehind,
}

impl SeekClass {
    /// The class number used in the paper's Figure 2 (1..=8).
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
}

/// Classifies a seek from head position `from` to target `to` whose preceding
/// key point lies at `keypoint` (longitudinal position).
pub fn classify(from: &Physical, to: &Physical, keypoint: f64) -> SeekClass {
    let target_ahead = from.ahead(to.lpos) >= 0.0;
    let keypoint_ahead = from.ahead(keypoint) >= 0.0;
    if to.direction == from.direction {
        if to.track == from.track {
            if target_ahead {
                SeekClass::SameTrackAhead
            } else {
                SeekClass::SameTrackBehind
            }
        } else if !target_ahead {
            SeekClass::CoTrackBehind
        } else if keypoint_ahead {
            SeekClass::CoTrackAhead
        } else {
            SeekClass::CoTrackAheadNearKeypoint
        }
    } else if target_ahead {
        SeekClass::AntiTrackAhead
    } else if keypoint_ahead {
        SeekClass::AntiTrackBehindNearKeypoint
    } else {
        SeekClass::AntiTrackBehind
    }
}
