//! Blackjack as a [`Game`]: configuration, plan, simulation (one concrete strategy type per
//! run), report, baselines.

use serde::{Deserialize, Serialize};

use super::count::{CountSpec, Counting};
use super::exact::{analyze, DealerTable, Follow};
use super::kept::Kept;
use super::report::{counting_model, model, render, BehindFollows, RunInfo, SideBets, SimModel};
use super::resolve::{cells_off_basic, resolve_strategy};
use super::rules::{Rules, Shuffle};
use super::sim::{plan, BjAcc, BjSim, Plan};
use super::strategy::Strategy;
use super::strategy::{AlwaysInsure, AutoPlay, Chart, MimicDealer, NeverBust, Seats, StrategySpec};
use super::BjError;
use crate::engine::Simulation;
use crate::game::{percent4, BoxedSim, Expected, Game, Headline, HeadlineKind, Run};
use crate::report::{PlotError, Report};
use crate::rng::Rng;

/// The live-casino blackjack table and every variation of its rules.
pub struct Blackjack;

/// A blackjack run request: rules, the strategy every seat plays, the wagers, the rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BjConfig {
    pub rules: Rules,
    #[serde(with = "spec_serde")]
    pub strategy: StrategySpec,
    pub bets: SideBets,
    pub rounds: u64,
    /// Card counting (a counter plays the strategy and bets from a ramp); absent: every seat
    /// bets one initial bet, as before counting existed (and the key is unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<CountSpec>,
    /// Side bets from paytables (`--side`), placed by every seat that bets; absent: none (and
    /// the key is unchanged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<crate::sidebet::SideBet>,
    /// Mistakes (`--errors`): every seat plays the strategy with them; absent: none (and the
    /// key is unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<super::mistakes::ErrorModel>,
    /// Where the solved tables of the rules (the derived chart, the count metrics' effects)
    /// are kept (not part of what is simulated: they are the same wherever they are kept).
    #[serde(skip)]
    pub tables: Kept,
    /// A strategy per seat (`--seat`), in seat order, one per player (`strategy` and `count`
    /// then unused); absent: every seat plays `strategy` (and the key is unchanged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<super::seats::SeatSpec>,
    /// The seat (1-based) the bet behind is placed on, its RTP that seat's play (with
    /// `seats`); absent: behind every seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behind_seat: Option<u8>,
}

impl BjConfig {
    /// Whether a counter plays at the table (`count`, or a seat's).
    pub fn counts(&self) -> bool {
        self.count.is_some() || self.seats.iter().any(|s| s.count.is_some())
    }

    /// `rounds` rounds of `strategy` under `rules`, main bet only.
    pub fn new(rules: Rules, strategy: StrategySpec, rounds: u64) -> BjConfig {
        BjConfig {
            rules,
            strategy,
            bets: SideBets::none(),
            rounds,
            count: None,
            sides: Vec::new(),
            errors: None,
            tables: Kept::Fresh,
            seats: Vec::new(),
            behind_seat: None,
        }
    }
}

/// A strategy in a run key: its kind, its name (a label: not part of the run's identity), and
/// for a chart its content and hash (the content is what the run played, wherever it was read).
pub(crate) mod spec_serde {
    use super::*;
    use serde::{Deserializer, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Repr {
        kind: String,
        label: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hash: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chart: Option<String>,
    }

    pub fn serialize<S: Serializer>(spec: &StrategySpec, s: S) -> Result<S::Ok, S::Error> {
        let (kind, chart) = match spec {
            StrategySpec::Chart(c) => ("chart", Some(c.to_csv(""))),
            StrategySpec::AutoPlay => ("autoplay", None),
            StrategySpec::MimicDealer => ("mimic-dealer", None),
            StrategySpec::NeverBust => ("never-bust", None),
        };
        Repr {
            kind: kind.into(),
            label: spec.name(),
            hash: spec.info().hash,
            chart,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<StrategySpec, D::Error> {
        use serde::de::Error;
        let r = Repr::deserialize(d)?;
        Ok(match r.kind.as_str() {
            "chart" => {
                let text = r.chart.ok_or_else(|| D::Error::missing_field("chart"))?;
                let mut chart = Chart::parse(&text, &r.label).map_err(D::Error::custom)?;
                let hash = format!("{:016x}", chart.hash);
                if r.hash.as_deref() != Some(hash.as_str()) {
                    return Err(D::Error::custom(format!(
                        "the chart's content does not match its hash {}",
                        r.hash.unwrap_or_default()
                    )));
                }
                chart.name = r.label;
                StrategySpec::Chart(Box::new(chart))
            }
            "autoplay" => StrategySpec::AutoPlay,
            "mimic-dealer" => StrategySpec::MimicDealer,
            "never-bust" => StrategySpec::NeverBust,
            k => return Err(D::Error::custom(format!("unknown strategy kind '{k}'"))),
        })
    }
}

/// A blackjack simulation that owns its rules and its players (any `Seats`: a fixed strategy
/// or a stateful player).
struct Owned<S: Seats> {
    rules: Rules,
    strategy: S,
    shoes_per_chunk: u64,
    bankroll: Option<super::count::Bankroll>,
    sides: Vec<crate::sidebet::SideBet>,
}

impl<S: Seats + Send> Simulation for Owned<S> {
    type Acc = BjAcc;
    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut BjAcc) {
        BjSim {
            rules: &self.rules,
            strategy: &self.strategy,
            shoes_per_chunk: self.shoes_per_chunk,
            bankroll: self.bankroll,
            sides: &self.sides,
        }
        .run_chunk(chunk, rng, acc)
    }
}

/// Plan the run of one concrete strategy type and box its simulation.
fn boxed<S: Seats + Send + 'static>(
    cfg: &BjConfig,
    strategy: S,
    seed: u64,
    chunk: Option<u64>,
    shards: u64,
) -> Result<(Plan, BoxedSim<BjAcc>), BjError> {
    let p = plan(&cfg.rules, &strategy, seed, cfg.rounds, chunk);
    p.check(cfg.rounds, chunk, shards)?;
    let sim = Owned {
        rules: cfg.rules.clone(),
        strategy,
        shoes_per_chunk: p.shoes_per_chunk,
        bankroll: cfg.count.as_ref().and_then(|c| c.bankroll),
        sides: cfg.sides.clone(),
    };
    Ok((p, Box::new(sim)))
}

/// Seat `strategy` as it is, or as a card counter's chart when the run counts; with
/// mistakes when the run has an error model.
fn seat<S: Strategy + Send + 'static>(
    cfg: &BjConfig,
    strategy: S,
    seed: u64,
    chunk: Option<u64>,
    shards: u64,
) -> Result<(Plan, BoxedSim<BjAcc>), BjError> {
    use super::mistakes::WithErrors;
    match (&cfg.count, &cfg.errors) {
        (None, None) => boxed(cfg, strategy, seed, chunk, shards),
        (None, Some(e)) => boxed(cfg, WithErrors::new(strategy, e), seed, chunk, shards),
        (Some(c), None) => {
            let counting = Counting::new(strategy, c.clone(), cfg.rules.decks);
            boxed(cfg, counting, seed, chunk, shards)
        }
        (Some(c), Some(e)) => {
            // The counter's own errors are the count's settings: its miscounts and its
            // estimate of the decks left.
            let mut c = c.clone();
            if e.miscount > 0.0 {
                c.miscount = Some(e.miscount);
            }
            let mut counting = Counting::new(strategy, c, cfg.rules.decks);
            if e.discard_bias != 0.0 {
                counting = counting.with_discard_estimate(e.discard_bias);
            }
            boxed(cfg, WithErrors::new(counting, e), seed, chunk, shards)
        }
    }
}

impl Game for Blackjack {
    const NAME: &'static str = "blackjack";
    type Config = BjConfig;
    type Plan = Plan;
    type Acc = BjAcc;
    type Error = BjError;
    type Baseline = BjBaseline;

    /// The strategy; for a counter also its count, ramp and options and the cut card.
    fn label(cfg: &BjConfig) -> crate::game::Label {
        if !cfg.seats.is_empty() {
            return crate::game::Label {
                name: super::seats::seats_name(&cfg.seats),
                hash: None,
            };
        }
        let i = cfg.strategy.info();
        let name = match &cfg.count {
            None => i.name,
            Some(c) => {
                let cut = cfg.rules.shoe_words();
                if i.name == super::resolve::BASIC_NAME {
                    format!("{}; {cut}", c.describe())
                } else {
                    format!("{}; {}; {cut}", i.name, c.describe())
                }
            }
        };
        let name = match &cfg.errors {
            Some(e) => format!("{name}; with mistakes {}", e.describe()),
            None => name,
        };
        crate::game::Label { name, hash: i.hash }
    }

    fn wagers(cfg: &BjConfig) -> Vec<crate::game::WagerInfo> {
        cfg.sides
            .iter()
            .map(|b| crate::game::WagerInfo {
                name: b.label(),
                exact_rtp: super::sidebets::exact(&b.table, cfg.rules.decks, cfg.rules.h17).rtp,
            })
            .collect()
    }
    fn wager_sums(cfg: &BjConfig, acc: &BjAcc) -> Vec<crate::stats::Ratio> {
        let mut v = acc.sides.clone();
        v.resize(cfg.sides.len(), Default::default());
        v
    }

    const MONITOR: Option<crate::monitor::Reader> = Some(super::MONITOR);
    const RISK: Option<crate::risk::Reader> = Some(super::report::RISK);

    fn chunk_unit(cfg: &BjConfig) -> &'static str {
        if cfg.rules.shuffle == Shuffle::EveryRound {
            "rounds"
        } else {
            "shoes"
        }
    }
    fn rules_line(cfg: &BjConfig) -> String {
        cfg.rules.to_string()
    }

    /// A counter's money per round it plays (insurance and every spot included, with its
    /// SCORE); a fixed strategy's main bet per initial bet (per round, with one seat).
    fn headline_kind(cfg: &BjConfig) -> HeadlineKind {
        let (what, score) = match cfg.count {
            Some(_) => (
                "EV per round played (table minimums; a counter's insurance and every spot included)",
                true,
            ),
            None => ("EV per initial bet", false),
        };
        HeadlineKind {
            what,
            unit: "fraction",
            format: percent4,
            claims: true,
            score,
            scale: cfg.rules.units_per_bet() as f64,
        }
    }

    fn headline(cfg: &BjConfig, acc: &BjAcc) -> Headline {
        let ratio = match cfg.count {
            Some(_) => acc.count.per_round,
            None => acc.main,
        };
        Headline {
            ratio,
            count: acc.counts.rounds,
        }
    }

    fn validate(cfg: &BjConfig) -> Result<(), BjError> {
        cfg.rules.validate()?;
        if cfg.rounds == 0 || cfg.rounds > super::sim::MAX_ROUNDS {
            return Err(BjError::Rounds(cfg.rounds));
        }
        super::seats::check_table(cfg)?;
        if let (Some(c), Some(e)) = (&cfg.count, &cfg.errors) {
            if c.miscount.is_some() && e.miscount > 0.0 {
                return Err(super::count::CountError::Option(format!(
                    "--miscount and --errors {} both set the miscounts: give them in one place",
                    e.name
                ))
                .into());
            }
        }
        if let Some(c) = &cfg.count {
            c.validate()?;
            if let (Some(x), 1) = (c.spots_at, cfg.rules.players) {
                return Err(super::count::CountError::Option(format!(
                    "--spots-at {x} needs a second seat to spread to: add --players 2"
                ))
                .into());
            }
        }
        Ok(())
    }

    /// One `match` picks the concrete strategy type; everything after it is monomorphized.
    fn prepare(
        cfg: &BjConfig,
        seed: u64,
        chunk: Option<u64>,
        shards: u64,
    ) -> Result<(Plan, BoxedSim<BjAcc>), BjError> {
        if !cfg.seats.is_empty() {
            let seats = super::seats::MixedSeats::new(&cfg.seats, &cfg.rules, cfg.errors.as_ref());
            return match &cfg.errors {
                None => boxed(cfg, seats, seed, chunk, shards),
                Some(e) => {
                    let erring = super::mistakes::WithErrors::new(seats, e);
                    boxed(cfg, erring, seed, chunk, shards)
                }
            };
        }
        let mimic = MimicDealer { h17: cfg.rules.h17 };
        let (s, n) = (seed, shards);
        match (&cfg.strategy, cfg.bets.insure) {
            (StrategySpec::Chart(c), false) => seat(cfg, (**c).clone(), s, chunk, n),
            (StrategySpec::Chart(c), true) => seat(cfg, AlwaysInsure((**c).clone()), s, chunk, n),
            (StrategySpec::AutoPlay, false) => seat(cfg, AutoPlay, s, chunk, n),
            (StrategySpec::AutoPlay, true) => seat(cfg, AlwaysInsure(AutoPlay), s, chunk, n),
            (StrategySpec::MimicDealer, false) => seat(cfg, mimic, s, chunk, n),
            (StrategySpec::MimicDealer, true) => seat(cfg, AlwaysInsure(mimic), s, chunk, n),
            (StrategySpec::NeverBust, false) => seat(cfg, NeverBust, s, chunk, n),
            (StrategySpec::NeverBust, true) => seat(cfg, AlwaysInsure(NeverBust), s, chunk, n),
        }
    }

    fn report(run: &Run<Blackjack>, claim: Option<f64>) -> Result<Report, BjError> {
        let cfg = &run.config;
        let mut report = render(&run_model(run, claim)?);
        let off_basic = match cfg.seats.is_empty() {
            true => cells_off_basic(&cfg.strategy, &cfg.rules, &cfg.tables),
            false => None,
        };
        if let Some(n) = off_basic.filter(|&n| n > 0) {
            report.notes.push(format!(
                "This chart differs from the chart derived for these rules (`--strategy basic`) in {n} of {} cells.",
                super::strategy::ROWS * 10
            ));
        }
        Ok(report)
    }

    fn plots(run: &Run<Blackjack>, claim: Option<f64>) -> Result<Vec<(String, String)>, PlotError> {
        let cfg = &run.config;
        let counting = counting_model(&cfg.rules, cfg.count.as_ref(), &run.acc);
        super::report::plots(&cfg.rules, &run.acc, claim, &info(run), counting.as_ref())
            .map_err(PlotError)
    }
}

/// The report model of a run: what its report renders and its JSON serializes, and what
/// other reports (the audit) read a run's figures from.
pub fn run_model(run: &Run<Blackjack>, claim: Option<f64>) -> Result<SimModel, BjError> {
    let cfg = &run.config;
    check_histogram(cfg, &run.acc)?;
    let strategy = match cfg.seats.is_empty() {
        true => cfg.strategy.info(),
        false => super::strategy::StrategyInfo {
            name: super::seats::seats_name(&cfg.seats),
            hash: None,
        },
    };
    let mut m = model(
        &cfg.rules,
        &strategy,
        &cfg.bets,
        &run.acc,
        &info(run),
        claim,
    );
    super::seats::seat_figures(cfg, &run.acc, &mut m);
    m.counting = counting_model(&cfg.rules, cfg.count.as_ref(), &run.acc);
    m.side_wagers = side_wagers(cfg, &run.acc);
    if let Some(c) = m.counting.as_mut() {
        let names: Vec<String> = m.side_wagers.iter().map(|w| w.name.clone()).collect();
        let per_shoe = super::report::per_shoe_factor(&run.acc);
        c.exposure
            .extend(super::report::side_exposure(&names, &run.acc, per_shoe));
    }
    if let (Some(c), Some(spec)) = (m.counting.as_mut(), cfg.count.as_ref()) {
        c.metrics = count_metrics(&cfg.rules, &spec.system, &cfg.tables);
    }
    if m.claim.is_none() {
        m.no_claim = Some(cfg.rules.no_claim_reason(cfg.counts()));
    }
    m.errors = cfg.errors.as_ref().map(|e| errors_line(cfg, e, &m));
    let index_insurance = cfg.count.as_ref().and_then(|c| c.indices.as_ref());
    if let Some(text) = index_insurance.and_then(|ix| ix.insurance_text()) {
        m.strategy.insurance = text;
    }
    let insure = super::mistakes::Kind::Insurance;
    let by_mistake = cfg.errors.as_ref().map_or(0.0, |e| e.rate(insure));
    if by_mistake > 0.0 && m.strategy.insurance == "never" {
        m.strategy.insurance = format!(
            "never, but taken by mistake at {}% of offers",
            crate::report::pct_text(by_mistake)
        );
    }
    Ok(m)
}

/// The mistakes' line of a run's report: the model, and beside the run's RTP the strategy's
/// exact RTP without them where that is at hand (rules the analysis takes, flat bets, a
/// uniform shuffle: a fraction of a second).
fn errors_line(
    cfg: &BjConfig,
    e: &super::mistakes::ErrorModel,
    m: &SimModel,
) -> super::report::ErrorsLine {
    // One strategy at every seat: a mixed table's seats have figures of their own.
    let exact = cfg.count.is_none()
        && cfg.seats.is_empty()
        && cfg.rules.shuffler.is_uniform()
        && super::exact::check_exact(&cfg.rules).is_ok();
    let free = exact.then(|| {
        let t = DealerTable::of(&cfg.rules);
        let ev = crate::with_strategy!(&cfg.strategy, cfg.rules.h17, |s| analyze(
            &cfg.rules,
            &Follow(s),
            t
        )
        .ev);
        1.0 + ev
    });
    let cost = free.map(|f| m.rtp - f);
    // Insurance taken by mistake, per initial bet: its stake is half a bet.
    let ins = &m.side_bets.insurance;
    let share = 0.5 * crate::report::rate(ins.taken, m.seat_rounds);
    let (insurance, insurance_se) = match (cfg.bets.insure, ins.taken) {
        (true, _) => (None, None),
        (false, 0) => (Some(0.0), Some(0.0)),
        (false, _) => (Some((ins.rtp - 1.0) * share), Some(ins.se * share)),
    };
    super::report::ErrorsLine {
        name: e.name.clone(),
        model: e.describe(),
        rtp_error_free: free,
        cost,
        cost_se: cost.map(|_| m.ev_se),
        insurance,
        insurance_se,
    }
}

/// Each side bet from a paytable as the run measured it, beside its exact value.
pub fn side_wagers(cfg: &BjConfig, acc: &BjAcc) -> Vec<crate::sidebet::SideSim> {
    let none = crate::stats::Ratio::default();
    cfg.sides
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let exact = super::sidebets::exact(&b.table, cfg.rules.decks, cfg.rules.h17);
            crate::sidebet::SideSim::of(b, acc.sides.get(i).unwrap_or(&none), &exact)
        })
        .collect()
}

/// The metrics of `system` for `rules` with their basic chart, computed once per rule set in
/// a process (and kept where `kept` keeps them); none where the exact analysis does not reach
/// (more than 4 hands).
fn count_metrics(
    rules: &super::rules::Rules,
    system: &super::count::CountSystem,
    kept: &Kept,
) -> Option<super::metrics::CountMetrics> {
    super::exact::check_exact(rules).ok()?;
    let chart = super::resolve::basic_chart(rules, kept);
    Some(super::metrics::Effects::cached(rules, &chart, kept).metrics(system))
}

fn info(run: &Run<Blackjack>) -> RunInfo {
    RunInfo {
        run: run.meta.clone(),
        rounds_requested: run.config.rounds,
        plan: run.plan,
    }
}

/// The plausibility bounds of a shard's sums come from its histogram's room: it must be the
/// rules' own (every net from −offset to +offset units).
fn check_histogram(cfg: &BjConfig, acc: &BjAcc) -> Result<(), BjError> {
    let off = super::sim::hist_offset(&cfg.rules);
    let room = acc.hist.room();
    if acc.counts.rounds > 0 && room != Some((-off, off)) {
        let (lo, hi) = room.unwrap_or((0, -1));
        return Err(BjError::HistogramRoom { lo, hi, off });
    }
    Ok(())
}

/// A blackjack baseline of `check`: a small fixed run with its exact sums and expected value.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BjBaseline {
    pub rules: Rules,
    /// A strategy name as `--strategy` takes it (chart paths relative to the repository).
    pub strategy: String,
    #[serde(default)]
    pub insure: bool,
    pub rounds: u64,
    pub chunk_shoes: u64,
    /// Side bets every seat that bets places (`--side` values, built-in names), each checked
    /// against its exact RTP.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<crate::game::SideEntry>,
}

impl SideBets {
    /// The main bet alone: no side bets, no insurance.
    pub fn none() -> SideBets {
        SideBets {
            pairs: 0.0,
            behind: 0.0,
            behind_follows: BehindFollows::All,
            insure: false,
        }
    }
}

impl crate::game::Chunks for Plan {
    fn chunks(&self) -> u64 {
        self.chunks
    }
    fn chunk_size(&self) -> u64 {
        self.shoes_per_chunk
    }
}

impl crate::game::Baseline<Blackjack> for BjBaseline {
    fn run(&self) -> Result<(BjConfig, u64), BjError> {
        self.rules.validate()?;
        // A baseline checks the program as built: its chart is derived, never read.
        let strategy = resolve_strategy(&self.strategy, &self.rules, &Kept::Fresh)?;
        let cfg = BjConfig {
            rules: self.rules.clone(),
            strategy,
            bets: SideBets {
                insure: self.insure,
                ..SideBets::none()
            },
            rounds: self.rounds,
            count: None,
            sides: crate::sidebet::baseline_sides(&self.sides, crate::sidebet::Game::Blackjack)?,
            errors: None,
            tables: Kept::Fresh,
            seats: Vec::new(),
            behind_seat: None,
        };
        Ok((cfg, self.chunk_shoes))
    }

    fn side_z(&self) -> Vec<Option<f64>> {
        self.sides.iter().map(|s| s.z).collect()
    }

    fn sums(acc: &BjAcc) -> serde_json::Value {
        serde_json::json!({
            "rounds": acc.counts.rounds,
            "net": acc.main.x,
            "net_squares": acc.main.xx,
            "wagered": acc.wagered.y,
            "pairs": acc.pairs.x,
            "insurance": acc.insurance.x,
            "doubles": acc.counts.doubles,
            "splits": acc.counts.splits,
            "surrenders": acc.counts.surrenders,
            "naturals": acc.counts.naturals,
            "dealer_busts": acc.counts.dealer_busts,
        })
    }

    /// The exact EV per initial bet when the shoe is shuffled every round (the full-shoe
    /// analysis lacks the cut card's effect) and no insurance is taken.
    fn expected(cfg: &BjConfig) -> Result<Option<Expected>, BjError> {
        if cfg.rules.shuffle != Shuffle::EveryRound
            || cfg.bets.insure
            || !cfg.rules.shuffler.is_uniform()
        {
            return Ok(None);
        }
        let t = DealerTable::of(&cfg.rules);
        let ev = crate::with_strategy!(&cfg.strategy, cfg.rules.h17, |s| analyze(
            &cfg.rules,
            &Follow(s),
            t
        )
        .ev);
        Ok(Some(Expected {
            ev,
            source: "exact analysis of this strategy (full shoe, shuffled every round)".into(),
        }))
    }
}
