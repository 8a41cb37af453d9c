//! Baccarat's commands besides `sim` and `compare` (which every game shares): the exact
//! analysis.

use super::exact_report::{exact_model, render};
use super::rules::BacRules;
use crate::job::{Ctx, Error, Job, Outcome, Outputs, Status};

/// `exact baccarat`: every bet's RTP by complete enumeration of the shoe.
pub struct ExactJob {
    pub rules: BacRules,
    pub outputs: Outputs,
}

impl Job for ExactJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, _: &Ctx) -> Result<Outcome, Error> {
        let report = render(&exact_model(&self.rules));
        Ok(Outcome::report(report, Status::Done))
    }
}
