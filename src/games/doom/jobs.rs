//! Dice of Doom's commands besides `sim` and `compare` (which every game shares): the exact
//! analysis of a turn, of a game of two played to win or of a small game of three, advice on
//! one roll, and the audit dossier.

use super::model::Model;
use super::rules::DoomRules;
use super::strategy::DoomStrategy;
use super::{advise, audit, report};
use crate::job::{plot_error, Ctx, Error, Job, Outcome, Outputs, Status};

/// What `exact doom` solves.
pub enum Analysis {
    /// One turn played for points: the optimal policy, these strategies' policies beside it,
    /// and the bank-at sweep up to `sweep_max` points.
    Turn {
        strategies: Vec<DoomStrategy>,
        sweep_max: u32,
    },
    /// A game of two played to win: win probabilities and banking thresholds, solved with
    /// these options (progress as the command's context says), the table kept in `store`.
    Win {
        opts: super::win::WinOptions,
        store: super::win::TableStore,
    },
    /// A game of `players` (2 or 3) played to win at a small target, solved exactly, and
    /// each strategy played by one seat against exact seats.
    Small {
        players: usize,
        strategies: Vec<DoomStrategy>,
        /// A stopped run's progress kept in the cache folder, to resume from (not with
        /// `--no-cache`).
        keep: bool,
    },
}

/// `exact doom`.
pub struct ExactJob {
    pub rules: DoomRules,
    pub analysis: Analysis,
    pub outputs: Outputs,
}

impl Job for ExactJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let model = Model::new(&self.rules);
        Ok(match self.analysis {
            Analysis::Win { opts, store } => {
                let opts = super::win::WinOptions {
                    progress: ctx.progress,
                    ..opts
                };
                super::win::WinSolution::solvable(&model)?;
                // A signal stops the solve at the end of a sum of scores, its progress kept to
                // resume from (where a table is kept).
                let stop = match store {
                    super::win::TableStore::Fresh => None,
                    _ => {
                        (ctx.graceful)();
                        Some(ctx.stop)
                    }
                };
                let x = report::win_model_kept(&model, &opts, &store, stop)?;
                Outcome::Report {
                    report: report::render_win(&x),
                    plots: Box::new(move || {
                        report::win_plots(&x).map_err(plot_error("cannot draw the plots"))
                    }),
                    status: Status::Done,
                    unsaved: None,
                }
            }
            Analysis::Small {
                players,
                strategies,
                keep,
            } => {
                // A signal stops the solve or the evaluation in progress at the end of a sum of
                // scores, the progress kept in the cache to resume from; without the cache, it
                // stops the run after the strategy in progress, the report kept.
                let cache = match keep {
                    true => {
                        Some(crate::door::cache::Cache::open().map_err(report::SmallError::from)?)
                    }
                    false => None,
                };
                (ctx.graceful)();
                let _stopping = keep.then(|| {
                    crate::job::stopping(
                        "saving the progress of the game",
                        "the game's progress since this run began is lost",
                    )
                });
                let x = report::small_model(
                    &model,
                    players,
                    &strategies,
                    ctx.progress,
                    ctx.stop,
                    cache.as_ref(),
                )?;
                let status = Status::ran(x.interrupted);
                Outcome::report(report::render_small(&x), status)
            }
            Analysis::Turn {
                strategies,
                sweep_max,
            } => {
                let opts = report::ExactOptions {
                    strategies,
                    sweep_max,
                };
                let x = report::exact_model(&model, &opts);
                Outcome::Report {
                    report: report::render_exact(&x),
                    plots: Box::new(move || {
                        report::exact_plots(&x).map_err(plot_error("the thresholds' plots"))
                    }),
                    status: Status::Done,
                    unsaved: None,
                }
            }
        })
    }
}

/// `advise doom`: every legal set-aside of a roll followed by bank or roll, valued by the
/// turn's expected points, or by the chance of winning when the game's scores are given.
pub struct AdviseJob {
    pub rules: DoomRules,
    pub request: advise::DoomAdviseRequest,
    /// Where the two-player table is kept (advice to win).
    pub table: super::win::TableStore,
    pub outputs: Outputs,
}

impl Job for AdviseJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let model = Model::new(&self.rules);
        // The advice to win reads the solved table where it is kept, or solves the whole game
        // first (minutes at large targets) and keeps it.
        let opts = super::win::WinOptions {
            progress: ctx.progress,
            ..super::win::WinOptions::fast()
        };
        // A signal stops a solve at the end of a sum of scores, its progress kept to resume
        // from (where a table is kept), as `exact doom` does.
        let stop = match self.table {
            super::win::TableStore::Fresh => None,
            _ => Some(ctx.stop),
        };
        let get = || {
            if stop.is_some() {
                (ctx.graceful)();
            }
            super::win::kept::solve_kept(&model, &opts, &self.table, stop).map(|t| t.0)
        };
        let solved = advise::Solved {
            get_win: Some(&get),
            ..Default::default()
        };
        let a = advise::advise(&model, &self.request, solved)?;
        let report = advise::render(&a, &self.rules.summary());
        Ok(Outcome::report(report, Status::Done))
    }
}

/// `audit doom`: the verification dossier (a signal stops it gracefully throughout: its exact
/// part is short).
pub struct AuditJob {
    pub config: audit::DoomAuditConfig,
    pub outputs: Outputs,
}

impl Job for AuditJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let model = audit::audit(&self.config, ctx.stop)?;
        let report = audit::render(&model);
        let status = Status::ran(model.identity.interrupted);
        Ok(Outcome::Report {
            report,
            plots: Box::new(move || {
                audit::plots(&model).map_err(plot_error("the dossier's plots"))
            }),
            status,
            unsaved: None,
        })
    }
}
