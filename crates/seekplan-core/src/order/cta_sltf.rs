//! CTA-SLTF: the CERN Tape Archive's software RAO. Plain SLTF, deciding with
//! CTA's cost heuristic ([`CtaModel::ranking`]) rather than the drive model,
//! and starting from block 0 as CTA does (it does not ask where the head is).

use super::registry::{Needs, Orderer, Plan};
use super::Options;
use super::{sltf, Problem};
use crate::model::{Block, CtaModel};
use crate::stop::Stop;
use crate::{Error, Result};

/// The CTA-SLTF order; unsupported unless the problem's model has wrap
/// positions.
pub(crate) fn plan(problem: &Problem) -> Result<Vec<usize>> {
    plan_until(problem, &Stop::never()).map(|order| order.expect("nothing stops it"))
}

/// [`plan`], or `Ok(None)` once `stop` (a caller's time limit or cancel) is reached.
pub(crate) fn plan_until(problem: &Problem, stop: &Stop) -> Result<Option<Vec<usize>>> {
    let cta = problem
        .model()
        .and_then(CtaModel::ranking)
        .ok_or_else(|| Error::Unsupported {
            algo: "cta-sltf".into(),
            reason: "it needs an LTO wrap/LPOS model (an LTO drive, such as lto9)".into(),
        })?;
    let from_bot = problem
        .on_model(&cta, Block(0), None)
        .expect("a tape problem")?;
    Ok(sltf::plan_until(&from_bot, stop))
}

/// CTA-SLTF in the registry.
pub(crate) struct CtaSltf;

impl Orderer for CtaSltf {
    fn name(&self) -> &'static str {
        "cta-sltf"
    }

    fn needs(&self) -> Needs {
        Needs::Wraps
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        plan(problem).map(Plan::locate)
    }
}
