//! Resiliency schemes X+Y.

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

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
