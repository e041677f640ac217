//! The one error type every fallible core function returns.

use thiserror::Error as ThisError;

/// What went wrong, phrased for the person who supplied the input.
#[derive(Debug, Clone, PartialEq, ThisError)]
pub enum Error {
    /// A value supplied by the user is invalid; `field` names it.
    #[error("invalid {field}: {message}")]
    Invalid { field: String, message: String },
    /// An exact algorithm was asked to solve a problem larger than it allows.
    #[error(
        "{algo} is exact and limited to {limit} requests; got {n} (use `best` for large batches)"
    )]
    TooLarge {
        algo: String,
        n: usize,
        limit: usize,
    },
    /// The algorithm needs something this problem does not provide.
    #[error("{algo} cannot run here: {reason}")]
    Unsupported { algo: String, reason: String },
}

impl Error {
    /// Shorthand for [`Error::Invalid`].
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error with an invalid field named from the config's top:
    /// `section.field` (other errors unchanged).
    pub fn in_section(self, section: &str) -> Self {
        match self {
            Error::Invalid { field, message } => Error::Invalid {
                field: format!("{section}.{field}"),
                message,
            },
            other => other,
        }
    }
}

/// The longest any single step of a drive, robot or tape model may take, in
/// seconds (about 32 years; real steps take seconds to minutes). Every
/// timing figure is bounded by it, so that no sum of a run's or a
/// schedule's steps overflows to infinity: a seek startup of 1e308 s made a
/// sum of two seeks infinite, and the local search then "improved" a tour
/// by an infinite gain forever.
pub const MAX_STEP_S: f64 = 1e9;

/// The slowest a drive may read or move data, in bytes a second: with
/// [`MAX_STEP_S`] it keeps a read of any file of up to 2^64 bytes finite.
pub const MIN_RATE_BPS: f64 = 1.0;

/// Checks that every named figure is a number of seconds in
/// [0, [`MAX_STEP_S`]]; names the first that is not.
pub fn require_seconds(figures: &[(&str, f64)]) -> Result<()> {
    match figures
        .iter()
        .find(|(_, v)| !(*v >= 0.0 && *v <= MAX_STEP_S))
    {
        Some((field, v)) => Err(Error::invalid(
            *field,
            format!("must be a number of seconds in [0, {MAX_STEP_S:e}], got {v:?}"),
        )),
        None => Ok(()),
    }
}

/// Checks that every named figure is a rate of at least [`MIN_RATE_BPS`]
/// bytes a second (and finite); names the first that is not.
pub fn require_rate(figures: &[(&str, f64)]) -> Result<()> {
    match figures
        .iter()
        .find(|(_, v)| !(v.is_finite() && *v >= MIN_RATE_BPS))
    {
        Some((field, v)) => Err(Error::invalid(
            *field,
            format!("must be at least {MIN_RATE_BPS} byte a second, got {v:?}"),
        )),
        None => Ok(()),
    }
}

/// Checks that every named figure is finite and positive; names the first that is not.
pub fn require_positive(figures: &[(&str, f64)]) -> Result<()> {
    match figures.iter().find(|(_, v)| !(v.is_finite() && *v > 0.0)) {
        Some((field, v)) => Err(Error::invalid(
            *field,
            format!("must be positive, got {v:?}"),
        )),
        None => Ok(()),
    }
}

/// Checks that every named figure is finite and not negative; names the first that is.
pub fn require_non_negative(figures: &[(&str, f64)]) -> Result<()> {
    match figures.iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0)) {
        Some((field, v)) => Err(Error::invalid(*field, format!("must be >= 0, got {v:?}"))),
        None => Ok(()),
    }
}

/// The member of `all` whose `name` is `s`, or an error for `field` that
/// lists every name (for enums users pick by name: algorithms, policies).
pub fn parse_named<T: Copy>(
    all: &[T],
    name: impl Fn(T) -> &'static str,
    s: &str,
    field: &str,
) -> Result<T> {
    all.iter().copied().find(|&a| name(a) == s).ok_or_else(|| {
        let names: Vec<_> = all.iter().map(|&a| name(a)).collect();
        Error::invalid(
            field,
            format!("unknown {s:?}; choose one of {}", names.join(", ")),
        )
    })
}

/// Result with the core's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_and_tiny_figures_are_named_in_scientific_notation() {
        let e = require_non_negative(&[("x", -1.7e308)]).unwrap_err();
        assert!(e.to_string().ends_with("got -1.7e308"), "{e}");
        let e = require_positive(&[("y", -1e-300)]).unwrap_err();
        assert!(e.to_string().ends_with("got -1e-300"), "{e}");
        let e = require_positive(&[("z", -2.5)]).unwrap_err();
        assert!(e.to_string().ends_with("got -2.5"), "{e}");
    }
}
