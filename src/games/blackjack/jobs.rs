//! Blackjack's commands besides `sim` (which every game shares, `game::SimJob`): the exact
//! analysis, strategy files (charts and index plays), advice on one hand, the audit dossier,
//! optimal bet ramps, and the configurations a comparison runs.

use std::path::{Path, PathBuf};

use super::count::{CountError, CountSpec, CountSystem, TcRounding};
use super::derive::{
    chart_header, derive_chart, derive_indices_and_ev, index_rounding_note, IndexRequest,
    RiskAverse,
};
use super::exact_report::ExactConfig;
use super::indices::Play;
use super::kept::Kept;
use super::ramp::{
    ramp_file, ramp_model, render, CountRow, FitTable, Holdout, RampRequest, TableSource,
};
use super::rules::{Rules, Shuffle};
use super::strategy::{Chart, StrategySpec};
use super::{audit, BjConfig, BjError};
use crate::job::{plot_error, Ctx, Error, Job, Outcome, Outputs, Status};

/// `exact blackjack`.
pub struct ExactJob {
    pub config: ExactConfig,
    pub outputs: Outputs,
}

impl Job for ExactJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        super::exact::check_exact(&self.config.rules)?;
        let model = super::exact_report::exact_model(&self.config, ctx.progress, ctx.stop);
        Ok(Outcome::Report {
            report: super::exact_report::render(&model),
            plots: Box::new(move || {
                super::exact_report::plots(&model).map_err(plot_error("the sensitivity plot"))
            }),
            status: Status::Done,
            unsaved: None,
        })
    }
}

/// `strategies derive blackjack`: the best total-dependent chart for the rules, as CSV.
pub struct DeriveJob {
    pub rules: Rules,
    /// Where the file goes (`output`; format and folder are not used).
    pub outputs: Outputs,
    /// Where the printable card goes (`--card`), if anywhere.
    pub card: Option<PathBuf>,
}

/// Write the strategy card to `--card` (SVG, or HTML for a `.html` name).
fn write_card(ctx: &Ctx, path: &Path, card: &super::card::Card) -> Result<(), Error> {
    let text = super::card::card_for(path, card);
    ctx.door
        .write("--card", text.as_bytes())
        .map_err(|e| Error::Write(format!("cannot write --card {}: {e}", path.display())))
}

impl Job for DeriveJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let chart = derive_chart(&self.rules, ctx.progress);
        if let Some(p) = &self.card {
            let rules = self.rules.to_string();
            write_card(
                ctx,
                p,
                &super::card::Card {
                    title: "Basic strategy",
                    rules: &rules,
                    chart: &chart,
                    plays: &[],
                    count_key: "",
                },
            )?;
        }
        Ok(Outcome::Text(chart.to_csv(&chart_header(&self.rules))))
    }
}

/// `strategies indices blackjack`: the index plays of a count against a chart, as the file
/// `--indices` reads.
pub struct IndicesJob {
    pub rules: Rules,
    pub system: CountSystem,
    pub chart: Chart,
    /// Decks left where the counts are evaluated (`None`: half the shoe).
    pub decks_left: Option<f64>,
    pub rounding: TcRounding,
    /// The counts evaluated, `lo..=hi`.
    pub range: (i32, i32),
    /// What the indices maximise.
    pub objective: IndexObjective,
    /// Check each index by simulation (`--verify`).
    pub verify: Option<Verify>,
    /// Where the file goes (`output`).
    pub outputs: Outputs,
    /// Where the printable card of the chart and its index plays goes (`--card`), if anywhere.
    pub card: Option<PathBuf>,
}

/// How much `--verify` simulates, from which seed, and the rules of the shoes dealt (the
/// cut card's place checked).
#[derive(Clone, Debug)]
pub struct Verify {
    pub shoes: u64,
    pub hands: u64,
    pub seed: u64,
    pub rules: Rules,
}

/// What generated indices maximise: the EV of each hand, or SCORE under a ramp (risk-averse
/// indices), whose EV and variance per round come from a counting simulation of the chart
/// with that ramp (`config.count`).
pub enum IndexObjective {
    Ev,
    Score {
        config: Box<BjConfig>,
        spec: crate::game::RunSpec,
    },
}

/// The figures of the ramp risk-averse indices are made for: EV and SD per round (table
/// minimums) and the rounds they come from.
struct RampGame {
    ramp: super::count::Ramp,
    ev: f64,
    ev_se: f64,
    sd: f64,
    rounds: u64,
    seed: u64,
    interrupted: bool,
}

impl IndicesJob {
    /// The counting simulation of the ramp (for `IndexObjective::Score`).
    fn ramp_game(&self, ctx: &Ctx) -> Result<Option<RampGame>, Error> {
        let IndexObjective::Score { config, spec } = &self.objective else {
            return Ok(None);
        };
        (ctx.graceful)();
        let run = crate::game::simulate::<super::Blackjack>((**config).clone(), spec, ctx.stop)?;
        let cfg = &run.config;
        let no_count = || BjError::from(CountError::Option("no count given".into()));
        let count = cfg.count.as_ref().ok_or_else(no_count)?;
        let m = super::report::counting_model(&cfg.rules, Some(count), &run.acc)
            .ok_or_else(no_count)?;
        if m.ev_per_round.is_nan() || m.ev_per_round <= 0.0 {
            return Err(BjError::from(CountError::Option(format!(
                "--objective score: the ramp {} loses at these rules (EV {:+.5} table minimums a round over {} rounds), so it has no SCORE to maximise; use a ramp that wins, or --objective ev",
                count.ramp,
                m.ev_per_round,
                crate::report::count(m.rounds_played)
            )))
            .into());
        }
        Ok(Some(RampGame {
            ramp: count.ramp.clone(),
            ev: m.ev_per_round,
            ev_se: m.ev_per_round_se,
            sd: m.sd_per_round,
            rounds: m.rounds_played,
            seed: spec.seed,
            interrupted: run.meta.interrupted,
        }))
    }
}

impl Job for IndicesJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let decks_left = self
            .decks_left
            .unwrap_or_else(|| super::derive::default_decks_left(self.rules.decks));
        let game = self.ramp_game(ctx)?;
        let (found, ev_found) = derive_indices_and_ev(&IndexRequest {
            rules: &self.rules,
            system: &self.system,
            chart: &self.chart,
            decks_left,
            rounding: self.rounding,
            lo: self.range.0,
            hi: self.range.1,
            progress: ctx.progress,
            risk_averse: game.as_ref().map(|g| RiskAverse {
                ramp: &g.ramp,
                per_unit: g.ev / (2.0 * g.sd * g.sd),
            }),
        })?;
        // Beside risk-averse indices, the EV ones.
        let ev_found = game.is_some().then_some(ev_found);
        let key = if self.system.balanced() {
            "true count"
        } else {
            "running count"
        };
        let mut text = format!(
            "# rtplab index plays (format: strategies/README.md, 'Index plays')\n\
             # Computed by `rtplab strategies indices blackjack` from the exact analysis for:\n\
             # {}\n\
             # count {} ({key}, {} rounding), chart {}, shoes depleted to each count with {decks_left} decks left\n\
             # (composition tilted to the count, composition-dependent play after the first decision).\n",
            self.rules,
            self.system.label,
            self.rounding.name(),
            self.chart.name,
        );
        match &game {
            None => {
                text += &format!(
                    "# Each comment gives the real-valued {key} where the two plays' EVs cross.\n"
                )
            }
            Some(g) => text += &risk_averse_note(g, key),
        }
        for line in index_rounding_note(&self.system, self.rounding) {
            text += &format!("# {line}\n");
        }
        text += "hand,up,play,when\n";
        for g in &found {
            let ev = ev_found.as_ref().map(|all| {
                let same = all.iter().find(|e| {
                    e.entry.row == g.entry.row
                        && e.entry.up == g.entry.up
                        && (e.entry.play == Play::Surrender) == (g.entry.play == Play::Surrender)
                });
                match same {
                    Some(e) => format!(" (EV: {} at {:+.2})", e.entry, e.crossing),
                    None => " (no EV index)".to_string(),
                }
            });
            text += &format!(
                "{:<20} # crossing {:+.2}{}\n",
                g.entry.to_string(),
                g.crossing,
                ev.unwrap_or_default()
            );
        }
        if let Some(p) = &self.card {
            let rules = self.rules.to_string();
            let title = format!("{} index plays", self.system.label);
            let count_key = format!("{}, {key}", self.system.label);
            let plays: Vec<_> = found.iter().map(|g| g.entry).collect();
            write_card(
                ctx,
                p,
                &super::card::Card {
                    title: &title,
                    rules: &rules,
                    chart: &self.chart,
                    plays: &plays,
                    count_key: &count_key,
                },
            )?;
        }
        if let Some(v) = &self.verify {
            use super::index_check::{check, comments, CheckRequest};
            let req = CheckRequest {
                rules: &v.rules,
                system: &self.system,
                chart: &self.chart,
                plays: found.iter().map(|g| (g.entry, g.crossing)).collect(),
                risk_averse: game.as_ref().map(|g| (&g.ramp, g.ev / (2.0 * g.sd * g.sd))),
                shoes: v.shoes,
                hands: v.hands,
                seed: v.seed,
                progress: ctx.progress,
            };
            (ctx.graceful)();
            let c = check(&req, ctx.stop)?;
            text += &comments(&c, key);
            if c.shoes < v.shoes {
                text += &format!(
                    "# INTERRUPTED: the check was stopped after {} of {} shoes.\n",
                    crate::report::count(c.shoes),
                    crate::report::count(v.shoes)
                );
            }
        }
        if game.as_ref().is_some_and(|g| g.interrupted) {
            text += "# INTERRUPTED: the ramp's simulation was stopped early; its EV and SD cover the rounds done.\n";
        }
        Ok(Outcome::Text(text))
    }
}

/// The head lines of a risk-averse index file: the objective and the ramp's figures.
fn risk_averse_note(g: &RampGame, key: &str) -> String {
    let per_unit = g.ev / (2.0 * g.sd * g.sd);
    format!(
        "# Objective: SCORE under the ramp {} (risk-averse indices): a play is taken at a count where its EV gain\n\
         # per unit beats b·Δm·E/(2V) = b·Δm·{per_unit:.3e}, b the ramp's bet there, Δm the rise of the hand's second\n\
         # moment, E = {:.5} (SE {:.5}) and SD = {:.4} table minimums a round from a counting simulation of {} rounds\n\
         # (seed {}).\n\
         # Splits and insurance are on EV (a split's two hands are not followed jointly).\n\
         # Each comment gives the real-valued {key} of the risk-averse crossing, and the EV index beside it.\n",
        g.ramp,
        g.ev,
        g.ev_se,
        g.sd,
        crate::report::count(g.rounds),
        g.seed
    )
}

/// `strategies metrics blackjack`: the effects of removal of the rules with a chart, and the
/// betting correlation, playing efficiency and insurance correlation of counts.
pub struct MetricsJob {
    pub rules: Rules,
    pub chart: Chart,
    pub systems: Vec<CountSystem>,
    /// Side bets whose effects of removal and counts are wanted (`--side`).
    pub sides: Vec<crate::sidebet::SideBet>,
    /// Where the effects of removal are kept (computed once per rules and chart).
    pub tables: Kept,
    pub outputs: Outputs,
}

impl Job for MetricsJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, _: &Ctx) -> Result<Outcome, Error> {
        use super::metrics::{metrics_model, render, Effects};
        super::exact::check_exact(&self.rules)?;
        let effects = super::kept::effects(&self.rules, &self.chart, &self.tables, || {
            Effects::compute(&self.rules, &self.chart)
        });
        let mut model = metrics_model(&self.rules, &effects, &self.systems);
        for b in &self.sides {
            if b.table.scope() == crate::sidebet::Scope::DealerHand {
                return Err(BjError::from(crate::sidebet::SideBetError::Invalid(
                    b.table.name.clone(),
                    "a wager on the dealer's finished hand has no effects of removal here: give a wager on the round's first cards".into(),
                ))
                .into());
            }
            model
                .side_bets
                .push(super::sidebets::side_count(&b.table, self.rules.decks));
        }
        Ok(Outcome::report(render(&model), Status::Done))
    }
}

/// `advise blackjack`: every legal action's exact EV for a hand against an up card, from the
/// shoe less the cards shown and removed, with the chart's action beside.
pub struct AdviseJob {
    pub rules: Rules,
    pub strategy: StrategySpec,
    /// The hand, the up card and the cards removed, as given (`A`, `2`-`9`, `T`/`J`/`Q`/`K`).
    pub hand: String,
    pub up: String,
    pub removed: String,
    pub outputs: Outputs,
}

impl Job for AdviseJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, _: &Ctx) -> Result<Outcome, Error> {
        use super::advise::{advise, parse_card, parse_cards, render, AdviseRequest};
        let req = AdviseRequest {
            rules: &self.rules,
            hand: parse_cards(&self.hand)?,
            up: parse_card(&self.up)?,
            removed: parse_cards(&self.removed)?,
        };
        let model = crate::with_strategy!(&self.strategy, self.rules.h17, |s| advise(&req, s))?;
        let report = render(&model, &self.rules, &self.strategy.name());
        Ok(Outcome::report(report, Status::Done))
    }
}

/// `audit blackjack`: the verification dossier. Its exact part has no partial result: a
/// signal ends it at once until the simulation starts (`Ctx::graceful`).
pub struct AuditJob {
    pub config: audit::AuditConfig,
    pub outputs: Outputs,
}

impl Job for AuditJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let config = audit::AuditConfig {
            on_simulation: Some(ctx.graceful),
            ..self.config
        };
        let model = audit::audit(&config, ctx.stop)?;
        let report = audit::render(&model);
        let status = Status::ran(model.identity.interrupted);
        Ok(Outcome::Report {
            report,
            plots: Box::new(move || {
                audit::plots(&model).map_err(crate::job::plot_error("the dossier's plots"))
            }),
            status,
            unsaved: None,
        })
    }
}

/// The configurations `compare blackjack` runs: every strategy at every penetration (none
/// given: the rules' own) with every counting request (`None`: not counting), in that order,
/// each playing `rounds` rounds (shoes of the first penetration's length: every configuration
/// plays the same shoes).
pub fn compare_configs(
    rules: &Rules,
    rounds: u64,
    strategies: &[String],
    penetrations: &[f64],
    counts: &[Option<CountSpec>],
    tables: &Kept,
) -> Result<Vec<BjConfig>, BjError> {
    let basic = ["basic".to_string()];
    let strategies = if strategies.is_empty() {
        &basic[..]
    } else {
        strategies
    };
    let none = [None];
    let counts = if counts.is_empty() { &none[..] } else { counts };
    let mut configs = Vec::new();
    for strategy in strategies {
        let mut each = vec![rules.clone()];
        if !penetrations.is_empty() {
            each = penetrations
                .iter()
                .map(|&penetration| {
                    let mut r = rules.clone();
                    r.shuffle = Shuffle::CutCard { penetration };
                    r.validate().map(|_| r)
                })
                .collect::<Result<_, _>>()?;
        }
        for rules in each {
            let spec = super::resolve::resolve_strategy(strategy, &rules, tables)?;
            for count in counts {
                let mut cfg = BjConfig::new(rules.clone(), spec.clone(), rounds);
                cfg.count = count.clone();
                cfg.tables = tables.clone();
                configs.push(cfg);
            }
        }
    }
    Ok(configs)
}

/// Where `strategies ramp blackjack` gets its count table.
pub enum RampSource {
    /// A flat-bet counting simulation (the configuration's ramp is `0:1`).
    Simulate {
        config: Box<BjConfig>,
        spec: crate::game::RunSpec,
    },
    /// A counting run's JSON report (`--from`).
    Report(PathBuf),
}

/// `strategies ramp blackjack`: the SCORE-optimal bet ramp within a spread, from a counting
/// table, its report, and the ramp file `--ramp` reads.
pub struct RampJob {
    pub source: RampSource,
    pub request: RampRequest,
    /// Where the ramp file goes (none: the report only).
    pub ramp_out: Option<PathBuf>,
    /// Pool the table's tails where a count's EV has an SE above this (0: never).
    pub pool_se: f64,
    pub outputs: Outputs,
}

impl Job for RampJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        self.request.spread.validate().map_err(BjError::from)?;
        let (table, rows, _, holdout) = count_table(self.source, ctx)?;
        let status = signalled(ctx);
        let fit = FitTable {
            max_se: self.pool_se,
            holdout,
        };
        let model = ramp_model(table, rows, &self.request, &fit);
        // A ramp that cannot be written is kept elsewhere and said; the report still goes out.
        let unsaved = self.ramp_out.as_ref().and_then(|p| {
            ctx.door
                .write_or_keep("--ramp-out", p, ramp_file(&model).as_bytes())
                .err()
        });
        Ok(Outcome::Report {
            report: render(&model),
            plots: Box::new(move || {
                super::ramp::plots(&model).map_err(plot_error("the ramp's plots"))
            }),
            status,
            unsaved,
        })
    }
}

/// Interrupted when a signal stopped this command's simulation; a table read from the report
/// of an interrupted run is marked so in what is made from it, but this command ran to its end.
fn signalled(ctx: &Ctx) -> Status {
    Status::ran(ctx.stop.load(std::sync::atomic::Ordering::SeqCst))
}

/// `strategies bets blackjack`: the bet sheet in money for a bankroll, the table's limits
/// and a chip, sized to a target risk of ruin or a fraction of Kelly.
pub struct BetsJob {
    pub source: RampSource,
    pub request: super::bets::BetsRequest,
    /// Where the sheet goes as a ramp file (none: the report only).
    pub bets_out: Option<PathBuf>,
    /// Pool the table's tails where a count's EV has an SE above this (0: never).
    pub pool_se: f64,
    pub outputs: Outputs,
}

impl Job for BetsJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        use super::bets::{bets_model, ramp_file, render};
        self.request.validate()?;
        let money = self.request.money;
        if self.bets_out.is_some() && !money.as_units() {
            return Err(super::bets::BetsError::NoRamp(money.chip, money.table_min).into());
        }
        let (table, rows, share, holdout) = count_table(self.source, ctx)?;
        let status = signalled(ctx);
        let fit = FitTable {
            max_se: self.pool_se,
            holdout,
        };
        let model = bets_model(table, rows, share, &self.request, ctx.progress, &fit);
        // A ramp that cannot be written is kept elsewhere and said; the report still goes out.
        let unsaved = match (&self.bets_out, ramp_file(&model)) {
            (Some(p), Some(text)) => ctx
                .door
                .write_or_keep("--bets-out", p, text.as_bytes())
                .err(),
            _ => None,
        };
        Ok(Outcome::Report {
            report: render(&model),
            plots: Box::new(|| Ok(Vec::new())),
            status,
            unsaved,
        })
    }
}

/// A count table and where it came from.
type Table = (TableSource, Vec<CountRow>, f64, Option<Holdout>);

/// The counting model of a flat-bet simulation of `config` on `spec`.
fn counted(
    config: BjConfig,
    spec: &crate::game::RunSpec,
    ctx: &Ctx,
) -> Result<(super::report::CountingModel, u64, bool, BjConfig), Error> {
    let run = crate::game::simulate::<super::Blackjack>(config, spec, ctx.stop)?;
    let m = super::report::counting_model(&run.config.rules, run.config.count.as_ref(), &run.acc)
        .ok_or_else(|| BjError::from(CountError::Option("no count given".into())))?;
    Ok((m, run.acc.counts.rounds, run.meta.interrupted, run.config))
}

/// The rows of a counting model.
fn rows_of(m: &super::report::CountingModel) -> Vec<CountRow> {
    m.by_true_count
        .iter()
        .map(|t| CountRow {
            tc: t.tc,
            share: t.share,
            played: t.played,
            ev: t.ev,
            variance: t.variance,
        })
        .collect()
}

/// The count table a ramp or a bet sheet is made from, with the share of the rounds dealt
/// that its player played (1 when the report does not say), and for a simulated table a
/// second one of the same size from the next seed, to score the fit on.
fn count_table(source: RampSource, ctx: &Ctx) -> Result<Table, Error> {
    match source {
        RampSource::Simulate { config, spec } => {
            // A signal stops the simulation with the table of the rounds done.
            (ctx.graceful)();
            let second = (*config).clone();
            let (m, rounds, interrupted, cfg) = counted(*config, &spec, ctx)?;
            let rows = rows_of(&m);
            // The second table: skipped when a signal stopped the first.
            let holdout = if ctx.stop.load(std::sync::atomic::Ordering::SeqCst) {
                None
            } else {
                let seed = spec.seed.wrapping_add(1);
                let spec2 = crate::game::RunSpec {
                    seed,
                    label: Some(format!("second table (seed {seed})")),
                    ..spec.clone()
                };
                let (m2, _, stopped, _) = counted(second, &spec2, ctx)?;
                (!stopped).then(|| Holdout {
                    seed,
                    rows: rows_of(&m2),
                    rounds_played: m2.rounds_played,
                })
            };
            let played_share = played_share(m.rounds_played, m.rounds_observed);
            let table = TableSource {
                source: format!(
                    "a flat-bet simulation of {} rounds (seed {})",
                    crate::report::count(rounds),
                    spec.seed
                ),
                count: m.count,
                count_key: m.count_key.into(),
                rules: Some(cfg.rules.to_string()),
                rounds_played: m.rounds_played,
                interrupted,
            };
            Ok((table, rows, played_share, holdout))
        }
        RampSource::Report(path) => {
            let (t, rows, share) = table_from_report(&path)?;
            Ok((t, rows, share, None))
        }
    }
}

/// Rounds played over rounds dealt (1 when either is unknown).
fn played_share(played: u64, observed: u64) -> f64 {
    if played > 0 && observed >= played {
        played as f64 / observed as f64
    } else {
        1.0
    }
}

/// What `--from` reads of a counting run's JSON report (`SimModel` with its flattened
/// `CountingModel`, as `sim blackjack --count SYSTEM --format json` writes it): typed, so a
/// field renamed there fails `the_optimal_ramp_beats_the_common_ones_and_sim_reads_its_file`
/// (tests/it/counting.rs), which reads a report back into the same ramp.
#[derive(serde::Deserialize)]
struct CountReportIn {
    #[serde(default)]
    count: String,
    #[serde(default)]
    count_key: String,
    rules: Option<Rules>,
    #[serde(default)]
    rounds_played: u64,
    #[serde(default)]
    rounds_observed: u64,
    #[serde(default)]
    interrupted: bool,
    by_true_count: Vec<TcRowIn>,
}

/// One `by_true_count` row as `TcRow` writes it (EV and SE null where nothing was played;
/// the variance absent in a report from before it was written).
#[derive(serde::Deserialize)]
struct TcRowIn {
    tc: i64,
    share: f64,
    played: u64,
    ev: Option<f64>,
    #[serde(default)]
    se: Option<f64>,
    #[serde(default)]
    variance: Option<f64>,
}

impl TcRowIn {
    /// The ramp's row: a row without its EV (never played) weighs nothing; the variance of a
    /// report from before it was written is SE² × rounds played.
    fn row(&self) -> CountRow {
        CountRow {
            tc: self.tc.clamp(-100, 100) as i32,
            share: self.share,
            played: if self.ev.is_some() { self.played } else { 0 },
            ev: self.ev.unwrap_or(0.0),
            variance: self
                .variance
                .or_else(|| self.se.map(|se| se * se * self.played as f64))
                .unwrap_or(0.0),
        }
    }
}

/// The count table of a counting run's JSON report: its `by_true_count` rows.
fn table_from_report(path: &Path) -> Result<(TableSource, Vec<CountRow>, f64), Error> {
    let text = crate::door::input::read_text(
        path,
        "counting report",
        crate::door::input::MAX_SHARD_BYTES,
    )?;
    let bad = |msg: &str| {
        Error::from(BjError::from(CountError::Option(format!(
            "--from {}: {msg}",
            path.display()
        ))))
    };
    let make = "make one with `rtplab sim blackjack --count SYSTEM --format json`";
    let v: CountReportIn = serde_json::from_str(&text).map_err(|e| match e.classify() {
        // JSON, but not a counting report's.
        serde_json::error::Category::Data => {
            bad(&format!("not a counting run's JSON report ({e}): {make}"))
        }
        _ => bad(&format!("not JSON: {make}")),
    })?;
    let mut rows: Vec<CountRow> = v.by_true_count.iter().map(TcRowIn::row).collect();
    rows.sort_by_key(|r| r.tc);
    if rows.iter().all(|r| r.played == 0) {
        return Err(bad("no count was played"));
    }
    let table = TableSource {
        source: format!("the report {}", path.display()),
        count: v.count,
        count_key: match v.count_key {
            k if k.is_empty() => "true count".into(),
            k => k,
        },
        rules: v.rules.map(|r| r.to_string()),
        rounds_played: rows.iter().map(|r| r.played).sum(),
        interrupted: v.interrupted,
    };
    let share = played_share(v.rounds_played, v.rounds_observed);
    Ok((table, rows, share))
}
