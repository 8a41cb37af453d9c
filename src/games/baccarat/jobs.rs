//! Baccarat's commands besides `sim` and `compare` (which every game shares): the exact
//! analysis.

use super::exact_report::{exact_model, render};
use super::rules::BacRules;
use crate::job::{Ctx, Error, Job, Outcome, Outputs, Status};

/// `exact baccarat`: every bet's RTP by complete enumeration of the shoe.
pub struct ExactJob {
    pub rules: BacRules,
    /// Side bets to value (`--side`).
    pub sides: Vec<crate::sidebet::SideBet>,
    pub outputs: Outputs,
}

impl Job for ExactJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, _: &Ctx) -> Result<Outcome, Error> {
        let report = render(&exact_model(&self.rules, &self.sides));
        Ok(Outcome::report(report, Status::Done))
    }
}

/// `sim baccarat --log-out FILE`: the run, its report, and its round log (every logged coup's
/// cards, stakes and payments: `log::write`), streamed through the door (gzip when FILE ends
/// `.gz`, Zstandard when it ends `.zst`).
pub struct SimLogJob {
    pub sim: crate::game::SimJob<super::Baccarat>,
    /// The log's path (its name says how it is compressed).
    pub log_out: std::path::PathBuf,
    pub log: super::log::write::LogOptions,
}

impl Job for SimLogJob {
    fn outputs(&self) -> &Outputs {
        &self.sim.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        use crate::logfile::{Compression, Encoder};
        let SimLogJob { sim, log_out, log } = self;
        let run = crate::game::simulate::<super::Baccarat>(sim.config, &sim.spec, ctx.stop)?;
        let (cfg, plan, seed) = (run.config.clone(), run.plan, run.meta.seed);
        let start = run.meta.chunk_range[0];
        let chunks = start..start + run.meta.chunks_done;
        let mut rendered = crate::game::rendered(run, sim.claim)?;
        let mut summary = None;
        ctx.door
            .write_stream("--log-out", &mut |w| {
                let mut enc = Encoder::new(Compression::of_name(log_out.as_os_str()), w);
                let s = super::log::write::write_log(
                    &mut enc,
                    &cfg,
                    &plan,
                    seed,
                    chunks.clone(),
                    log,
                    sim.claim,
                    ctx.stop,
                )?;
                enc.finish()?;
                summary = Some(s);
                Ok(())
            })
            .map_err(|e| {
                Error::Write(format!("cannot write --log-out {}: {e}", log_out.display()))
            })?;
        if let Some(s) = summary {
            let r = &mut rendered.report;
            r.notes.push(format!(
                "Round log: {} of {} written to {}{}{}.",
                crate::report::plural(s.coups, "coup"),
                crate::report::plural(s.shoes, "shoe"),
                log_out.display(),
                if s.complete { "" } else { " (stopped before the run's end)" },
                if s.disagreements > 0 {
                    format!(
                        "; {} the rules' replay settles otherwise than the simulator (a bug: `rtplab verify baccarat` lists them)",
                        crate::report::plural(s.disagreements, "coup")
                    )
                } else {
                    String::new()
                }
            ));
            if let Some(o) = r.json.as_object_mut() {
                o.insert(
                    "round_log".into(),
                    serde_json::json!({
                        "path": log_out.display().to_string(),
                        "shoes": s.shoes,
                        "coups": s.coups,
                        "every_shoe": log.every_shoe,
                        "complete": s.complete,
                        "disagreements": s.disagreements,
                    }),
                );
            }
        }
        Ok(rendered.into())
    }
}
