//! Twenty One's commands besides `sim` (which every game shares): the exact analysis, the
//! sweep of the row-optimal policy's cost per roll, and advice on one roll.

use super::advise::{self, TwentyOneAdviseRequest};
use super::game::TwentyOneConfig;
use super::rules::TwentyOneRules;
use super::strategy::RowTable;
use crate::game::RunSpec;
use crate::job::{plot_error, Ctx, Error, Job, Outcome, Outputs, Status};

/// `exact twenty-one`: single-roll event probabilities, and the row-optimal policy's table at
/// a cost per roll `row_policy` if given.
pub struct ExactJob {
    pub rules: TwentyOneRules,
    pub row_policy: Option<f64>,
    pub outputs: Outputs,
}

impl Job for ExactJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, _: &Ctx) -> Result<Outcome, Error> {
        self.rules
            .validate(1)
            .map_err(super::TwentyOneError::Rules)?;
        let report = super::report::exact_report(&self.rules, self.row_policy);
        Ok(Outcome::report(report, Status::Done))
    }
}

/// `sim twenty-one --sweep-c`: the games of `config` once for each cost per roll of its
/// row-optimal seats.
pub struct SweepJob {
    pub config: TwentyOneConfig,
    pub costs: Vec<f64>,
    pub spec: RunSpec,
    pub outputs: Outputs,
}

impl Job for SweepJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let model = super::game::sweep(&self.config, &self.costs, &self.spec, ctx.stop)?;
        let status = Status::ran(model.interrupted);
        Ok(Outcome::Report {
            report: super::report::render_sweep(&model),
            plots: Box::new(move || {
                super::report::sweep_plots(&model).map_err(plot_error("the sweep's plot"))
            }),
            status,
            unsaved: None,
        })
    }
}

/// `advise twenty-one`: every legal write of a roll, the cross-out and the re-roll, valued
/// under the row-optimal policy at cost per roll `c`.
pub struct AdviseJob {
    pub rules: TwentyOneRules,
    pub request: TwentyOneAdviseRequest,
    pub c: f64,
    pub outputs: Outputs,
}

impl Job for AdviseJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, _: &Ctx) -> Result<Outcome, Error> {
        let table = RowTable::new(self.c, self.rules.rerolls);
        let a = advise::advise(&table, &self.request)?;
        let report = advise::render(&a, &self.request);
        Ok(Outcome::report(report, Status::Done))
    }
}
