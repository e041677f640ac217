//! The cost models a drive catalog names: one list of the kinds, each with
//! its figures (spec) and how a drive of it is built for a tape. Adding a
//! model is its file plus one row in [`models!`]'s invocation below (and the
//! schema of its params in Python's catalog, which names the bad field).

use super::{
    CostModel, FourRegionModel, FourRegionSpec, HelicalModel, HelicalSpec, LtoModel, LtoSpec,
    ReadThrough, SerpentineModel, SerpentineSpec,
};
use crate::{Error, Result};
use serde::Deserialize;

/// The tape a drive is built for, and how its short seeks are timed.
#[derive(Clone, Debug, Default)]
pub struct Tape {
    /// The tape's layout as its drive reports it (a serpentine tape's track
    /// start addresses, an LTO tape's end-of-wrap list); None: nominal.
    pub layout: Option<Vec<u64>>,
    /// Blocks on a measured serpentine tape (default: the drive's nominal).
    pub capacity: Option<u64>,
    /// Whether short forward seeks read through when that is faster, for
    /// the models measured that way (helical, four-region); a seek
    /// measurement sees the drive without it.
    pub read_through: bool,
}

/// Refuses a layout for a model that has none.
fn no_layout(kind: &str, tape: &Tape) -> Result<()> {
    match tape.layout {
        Some(_) => Err(Error::invalid(
            "track_starts",
            format!("the {kind} model takes no track starts"),
        )),
        None => Ok(()),
    }
}

/// `model`, reading through short seeks when `tape` asks for it.
fn reading_through<M: CostModel + 'static>(model: M, tape: &Tape) -> Box<dyn CostModel> {
    if tape.read_through {
        Box::new(ReadThrough::new(model))
    } else {
        Box::new(model)
    }
}

/// How one kind builds its drive from its spec, for a tape.
type Build<S> = fn(S, Tape) -> Result<Box<dyn CostModel>>;

/// Declares [`ModelSpec`] (one variant per row: the kind's name in snake
/// case, its spec type) and the constructor behind each variant.
macro_rules! models {
    ($($(#[doc = $doc:literal])+ $variant:ident($spec:ty) => $build:expr,)+) => {
        /// A drive's figures, tagged by the kind of model the catalog names:
        /// `{"model": "serpentine", "params": {...}}`.
        #[derive(Clone, Debug, Deserialize)]
        #[serde(tag = "model", content = "params", rename_all = "snake_case")]
        pub enum ModelSpec {
            $($(#[doc = $doc])+ $variant($spec),)+
        }

        impl ModelSpec {
            /// The drive's cost model for `tape`.
            pub fn build(self, tape: Tape) -> Result<Box<dyn CostModel>> {
                match self {
                    $(ModelSpec::$variant(spec) => {
                        let build: Build<$spec> = $build;
                        build(spec, tape)
                    })+
                }
            }
        }
    };
}

models! {
    /// Sandstå & Midtstraum's key-point serpentine model.
    Serpentine(SerpentineSpec) => |spec, tape| {
        Ok(Box::new(SerpentineModel::for_tape(spec, tape.layout, tape.capacity)?))
    },
    /// Johnson & Miller's helical-scan model.
    Helical(HelicalSpec) => |spec, tape| {
        no_layout("helical", &tape)?;
        Ok(reading_through(HelicalModel::new(spec)?, &tape))
    },
    /// A serpentine drive in Johnson & Miller's four-region form (Table 3).
    FourRegion(FourRegionSpec) => |spec, tape| {
        no_layout("four_region", &tape)?;
        Ok(reading_through(FourRegionModel::new(spec)?, &tape))
    },
    /// The LTO wrap/LPOS model.
    Lto(LtoSpec) => |spec, tape| Ok(Box::new(LtoModel::for_tape(spec, tape.layout)?)),
}
