//! Resiliency schemes X+Y and the policy names.

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A resiliency scheme: `x` data blocks protected by `y` erasure-code blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Scheme {
    /// Data blocks per stripe (>= 1).
    pub x: u32,
    /// Erasure-code blocks per stripe.
    pub y: u32,
}

impl Scheme {
    /// A checked scheme (x >= 1; x + y <= 255, the Reed-Solomon GF(2^8) limit).
    pub fn new(x: u32, y: u32) -> Result<Self> {
        // Saturating: x + y of two u32 from a config can overflow (and then
        // wrap to a sum that passes in a release build).
        if x == 0 || x.saturating_add(y) > 255 {
            return Err(Error::invalid(
                "scheme",
                format!("{x}+{y}: need X >= 1 and X+Y <= 255"),
            ));
        }
        Ok(Scheme { x, y })
    }

    /// Tapes touched by one stripe, X+Y.
    pub fn width(&self) -> u32 {
        self.x + self.y
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.x, self.y)
    }
}

/// The layout a single write uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Policy {
    /// Blocks of size B striped over X+Y tapes, EC rotated (section 4.1).
    Rait,
    /// X contiguous stripes on X data tapes, EC on Y dedicated tapes (4.2).
    Parallel,
    /// Data contiguous on one tape, EC written after X data tapes (4.3).
    Vertical,
}

impl Policy {
    /// Drives a process of this policy holds for scheme `s`.
    pub fn drives(&self, s: Scheme) -> u32 {
        match self {
            Policy::Rait | Policy::Parallel => s.width(),
            Policy::Vertical => 1,
        }
    }

    /// Lower-case name.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Rait => "rait",
            Policy::Parallel => "parallel",
            Policy::Vertical => "vertical",
        }
    }
}

/// The policy a configuration asks for: one of the three for every file, or
/// HETERO (section 6.3), which picks by file size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum PolicyChoice {
    /// Every file uses this policy.
    Single(Policy),
    /// VERTICAL for files smaller than `threshold` bytes, PARALLEL otherwise.
    Hetero {
        /// Size (bytes) from which a file uses PARALLEL.
        threshold: u64,
    },
}

impl PolicyChoice {
    /// The policy used for a file of `bytes`.
    pub fn for_size(&self, bytes: u64) -> Policy {
        match *self {
            PolicyChoice::Single(p) => p,
            PolicyChoice::Hetero { threshold } if bytes < threshold => Policy::Vertical,
            PolicyChoice::Hetero { .. } => Policy::Parallel,
        }
    }
}

impl FromStr for Policy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "rait" => Ok(Policy::Rait),
            "parallel" => Ok(Policy::Parallel),
            "vertical" => Ok(Policy::Vertical),
            _ => Err(Error::invalid(
                "policy",
                format!("{s:?}: choose rait, parallel, vertical or hetero"),
            )),
        }
    }
}
