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
