//! `rtplab verify blackjack LOG`: a live table's round log checked round by round.
//!
//! One pass over the log, a round at a time (memory: the shoe in play and a bounded list of
//! deviations), each part a section of the report and of the verdict:
//!
//! - **settlement**: every round dealt, played and paid again by the rules ([`replay`]); every
//!   departure counted and the first [`MAX_LISTED`] listed with their round;
//! - **the shoe**: no card more often than the decks hold, the cut card where the rules put
//!   it (within the header's tolerance), the stated burns, no round begun past the cut card, a
//!   new shoe after a voided round;
//! - **outcomes**: dealer results by up card, naturals, pairs and insurance wins against
//!   their exact probabilities given the cards already out of the shoe (each round's own),
//!   Holm-corrected at the level;
//! - **return**: each wager's observed RTP with its standard error from the stakes as logged
//!   (a ratio estimator: no equal-stakes assumption), and the main bet's decomposition: the
//!   claim, what the best play and basic strategy return, what the decisions taken return
//!   (each valued by the exact EV of its action), and what was paid.

use std::path::PathBuf;

use rayon::prelude::*;
use serde::Serialize;

use super::derive::{action_values_shoe, ActionValues};
use super::exact::{analyze, full_shoe, DealerTable, Optimal, NV};
use super::log::replay::{main_wagered, pay, replay, Decision};
use super::log::{EndRecord, Header, LogDecide, RoundRecord, ShoeRecord, Wagers, FORMAT, VERSION};
use super::rules::Rules;
use super::strategy::{Action, AutoPlay, Situation, Strategy};
use crate::audit::ChiSquare;
use crate::cards::{value, Rank};
use crate::logfile::{parse, record_type, Card, Lines, LogError};
use crate::report::{count, count_cell, pct, pct_cell, Cell, Report, Section};

/// Deviations listed one by one (all are counted).
pub const MAX_LISTED: usize = 100;

/// The seed of the shuffle tests' simulated null (stated in the report).
pub const SHUFFLE_SEED: u64 = 1;

/// `verify blackjack`.
pub struct VerifyJob {
    pub log: PathBuf,
    /// Two-sided level of every test (0.99).
    pub level: f64,
    /// A period log for `monitor` (`--periods-out`), of this many seat-rounds a period.
    pub periods_out: Option<PathBuf>,
    pub period_rounds: u64,
    /// Where the basic chart and its effects of removal are kept.
    pub kept: super::kept::Kept,
    pub outputs: crate::job::Outputs,
}

/// One departure from the rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Deviation {
    /// The log's line.
    pub line: u64,
    pub shoe: u64,
    pub round: Option<u64>,
    pub seat: Option<u8>,
    pub wager: Option<&'static str>,
    pub what: String,
    pub paid: Option<u64>,
    pub rules_pay: Option<u64>,
}

/// Deviations of one part: counted by kind, the first listed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Deviations {
    pub count: u64,
    pub by_kind: Vec<(String, u64)>,
    pub listed: Vec<Deviation>,
}

impl Deviations {
    fn add(&mut self, kind: &str, d: Deviation) {
        self.count += 1;
        match self.by_kind.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => self.by_kind.push((kind.to_string(), 1)),
        }
        if self.listed.len() < MAX_LISTED {
            self.listed.push(d);
        }
    }
}

/// One statistical test of outcomes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutcomeTest {
    pub name: String,
    pub observed: f64,
    pub expected: f64,
    pub statistic: f64,
    /// Degrees of freedom of a chi-square; 0 for a z test.
    pub df: u64,
    pub p: f64,
    /// Holm-corrected over the part's tests.
    pub p_holm: f64,
    pub pass: bool,
}

/// One wager's return.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WagerReturn {
    pub wager: &'static str,
    pub staked: u64,
    pub paid: u64,
    pub rtp: f64,
    pub se: f64,
    /// What the stakes should return under the rules, each at its round's shoe (pairs and
    /// insurance: exact), and the z of what was paid against it (its SE from the residuals,
    /// right whatever the stakes).
    pub expected: Option<f64>,
    pub z: Option<f64>,
}

/// One step of the main bet's decomposition, per initial bet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub what: String,
    pub rtp: f64,
    pub se: Option<f64>,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReturnPart {
    pub wagers: Vec<WagerReturn>,
    pub steps: Vec<Step>,
    /// z of the paid main bet against what the decisions taken return (the residuals' own SE:
    /// right whatever the stakes, a counter's or a martingale's).
    pub z: f64,
    /// The |z| each wager's test is held to: the level shared among the wagers tested.
    pub critical: f64,
    pub pass: bool,
    /// The claim against what the best play returns (a finding, not part of the verdict:
    /// `audit blackjack` is the claim's test).
    pub claim_note: Option<String>,
}

/// What `verify blackjack` found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyModel {
    pub log: String,
    pub bytes: u64,
    pub rules: Rules,
    pub source: Option<String>,
    pub shoes: u64,
    pub rounds: u64,
    pub voided: u64,
    pub seat_rounds: u64,
    /// The end record: `Some(true)` written whole, `Some(false)` stopped, `None` absent.
    pub complete: Option<bool>,
    /// Stopped by a signal: the log was read to this line only (every figure is of the rounds
    /// read).
    pub interrupted_at_line: Option<u64>,
    pub interrupted: bool,
    pub level: f64,
    pub settlement: Deviations,
    pub shoe: Deviations,
    pub outcomes: Vec<OutcomeTest>,
    /// Each shoe's order against a uniform shuffle and the shoe before.
    pub shuffle: crate::shuffle::ShuffleVerdict,
    pub returns: ReturnPart,
    pub pass: bool,
    /// The failed parts, by name.
    pub failed: Vec<String>,
    /// The main bet period by period (at most [`MAX_PERIODS`], merged in pairs as the log
    /// grows), each against what the decisions taken return.
    pub periods: Vec<PeriodZ>,
    /// The dealer's results, every up card and outcome: observed and expected counts.
    pub dealer_cells: Vec<DealerCell>,
}

/// Most periods the return-by-period chart keeps.
pub const MAX_PERIODS: usize = 400;

/// One period of the main bet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PeriodZ {
    pub first_round: u64,
    pub seat_rounds: u64,
    /// RTP per initial bet and its SE; what the decisions taken return at the shoes the
    /// period's rounds were dealt from, and the z of the difference.
    pub rtp: f64,
    pub se: f64,
    pub expected: f64,
    pub z: f64,
}

/// One up card and dealer outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealerCell {
    pub up: String,
    pub outcome: String,
    pub observed: u64,
    pub expected: f64,
}

/// Sums of one period: net y = paid − wagered and weight w = the initial stake, per seat-round.
#[derive(Clone, Copy, Debug, Default)]
struct PeriodSums {
    first_round: u64,
    n: u64,
    y: f64,
    w: f64,
    yy: f64,
    yw: f64,
    ww: f64,
    /// Σ what the seat-rounds should return net (each at its round's shoe, with its
    /// decisions), and Σ (y − that)².
    e: f64,
    rr: f64,
}

impl PeriodSums {
    fn add(&mut self, o: &PeriodSums) {
        self.n += o.n;
        self.e += o.e;
        self.rr += o.rr;
        self.y += o.y;
        self.w += o.w;
        self.yy += o.yy;
        self.yw += o.yw;
        self.ww += o.ww;
    }
    /// The period's RTP per initial bet with the ratio estimator's SE, and its z against
    /// what its seat-rounds should return (the residuals' own spread: any staking).
    fn z(&self) -> PeriodZ {
        let m = self.y / self.w;
        let ss = (self.yy - 2.0 * m * self.yw + m * m * self.ww).max(0.0);
        let se = ss.sqrt() / self.w;
        PeriodZ {
            first_round: self.first_round,
            seat_rounds: self.n,
            rtp: 1.0 + m,
            se,
            expected: 1.0 + self.e / self.w,
            z: (self.y - self.e) / self.rr.sqrt(),
        }
    }
}

/// The shoe in play.
struct ShoeState {
    no: u64,
    cut: u32,
    /// Cards left by rank and suit.
    left: [[u32; 4]; 13],
    dealt: u32,
    /// A voided round was the last: only a new shoe may follow.
    voided: bool,
    /// The shoe's cards as dealt (for the shuffle's tests).
    cards: Vec<Card>,
}

impl ShoeState {
    fn by_value(&self) -> [u32; NV] {
        let mut v = [0u32; NV];
        for (r, suits) in self.left.iter().enumerate() {
            v[value(r as Rank) as usize - 1] += suits.iter().sum::<u32>();
        }
        v
    }
    fn by_rank(&self) -> [u32; 13] {
        std::array::from_fn(|r| self.left[r].iter().sum())
    }
}

/// Sums for a z test of a count against a sum of probabilities.
#[derive(Default, Clone, Copy)]
struct Binom {
    observed: u64,
    expected: f64,
    var: f64,
}

impl Binom {
    fn add(&mut self, hit: bool, p: f64) {
        self.observed += hit as u64;
        self.expected += p;
        self.var += p * (1.0 - p);
    }
    fn test(&self, name: &str) -> OutcomeTest {
        let z = if self.var > 0.0 {
            (self.observed as f64 - self.expected) / self.var.sqrt()
        } else {
            0.0
        };
        OutcomeTest {
            name: name.into(),
            observed: self.observed as f64,
            expected: self.expected,
            statistic: z,
            df: 0,
            p: crate::stats::p_value(z),
            p_holm: f64::NAN,
            pass: true,
        }
    }
}

/// Ratio sums of a wager: per seat-round x paid, w staked.
#[derive(Default, Clone, Copy)]
struct RatioSums {
    x: f64,
    w: f64,
    xx: f64,
    xw: f64,
    ww: f64,
    staked: u64,
    paid: u64,
    /// Σ what the stakes should return (each at its round's shoe), and Σ (paid − that)²:
    /// the wager's test, whatever the stakes (their sizes may follow the shoe or the results).
    e: f64,
    rr: f64,
}

impl RatioSums {
    /// A stake and what it paid, against `expected` (what it should return, paid included).
    fn add_held(&mut self, staked: u64, paid: u64, expected: f64) {
        if staked == 0 && paid == 0 {
            return;
        }
        self.e += expected;
        self.rr += (paid as f64 - expected).powi(2);
        self.add(staked, paid);
    }
    /// z of what was paid against what the stakes should return.
    fn z(&self) -> f64 {
        (self.x - self.e) / self.rr.sqrt()
    }
    fn add(&mut self, staked: u64, paid: u64) {
        if staked == 0 && paid == 0 {
            return;
        }
        let (x, w) = (paid as f64, staked as f64);
        self.x += x;
        self.w += w;
        self.xx += x * x;
        self.xw += x * w;
        self.ww += w * w;
        self.staked += staked;
        self.paid += paid;
    }
    fn rtp(&self) -> f64 {
        self.x / self.w
    }
    /// The ratio estimator's SE: √Σ(x − r·w)² / Σw.
    fn se(&self) -> f64 {
        let r = self.rtp();
        let ss = (self.xx - 2.0 * r * self.xw + r * r * self.ww).max(0.0);
        ss.sqrt() / self.w
    }
}

/// What a seat-round's main bet returns per initial bet at the shoe it is dealt from, to first
/// order in the shoe's composition (Griffin's linear model of the effects of removal): the
/// basic chart's EV, and each decision that leaves the chart valued at the same shoe. A
/// counter's bets follow the shoe, so what its rounds should return is weighed at each
/// round's shoe, not at the full one.
struct ShoeModel {
    chart: super::strategy::Chart,
    /// The chart's EV from the full shoe, and its change per unit change of each value's share
    /// of the shoe.
    ev: f64,
    ev_slope: [f64; NV],
    /// κ of `ΔEV = L + κ·L²` along the gradient ([`ShoeModel::fit_curvature`]).
    curvature: f64,
    /// The EV of shoes of the full shoe's composition and fewer cards, less the full shoe's:
    /// `(1/n, ΔEV)` by rising `1/n` (a smaller shoe deals each card's kind less often again).
    size: Vec<(f64, f64)>,
    /// Each value's share of the full shoe, and its cards less one.
    share: [f64; NV],
    /// Action values from the full shoe and from the shoes one card less of each value.
    values: ActionValues,
    less: Vec<ActionValues>,
    less_one: f64,
}

impl ShoeModel {
    fn new(rules: &Rules, kept: &super::kept::Kept) -> ShoeModel {
        let chart = super::resolve::basic_chart(rules, kept);
        let effects = super::kept::effects(rules, &chart, kept, || {
            super::metrics::Effects::compute(rules, &chart)
        });
        let full = full_shoe(rules.decks);
        let n: u32 = full.iter().sum();
        let share: [f64; NV] = std::array::from_fn(|v| full[v] as f64 / n as f64);
        let less_one = n as f64 - 1.0;
        let centre: f64 = (0..NV).map(|v| share[v] * effects.eor[v]).sum();
        let ev_slope = std::array::from_fn(|v| -less_one * (effects.eor[v] - centre));
        let mut shoes: Vec<[u32; NV]> = vec![full];
        for v in 0..NV {
            let mut s = full;
            s[v] -= 1;
            shoes.push(s);
        }
        let mut all: Vec<ActionValues> = shoes
            .into_par_iter()
            .map(|s| action_values_shoe(rules, s))
            .collect();
        let values = all.remove(0);
        let mut linear = ShoeModel {
            chart,
            ev: effects.ev,
            ev_slope,
            curvature: 0.0,
            size: Vec::new(),
            share,
            values,
            less: all,
            less_one,
        };
        linear.size = linear.size_effect(rules);
        linear.curvature = linear.fit_curvature(rules);
        linear
    }

    /// The full shoe's composition in eighths of its cards, each shoe's exact EV less the
    /// full shoe's.
    fn size_effect(&self, rules: &Rules) -> Vec<(f64, f64)> {
        use super::exact::{analyze_shoe, Follow, PostSplit};
        let table = DealerTable::of(rules);
        let full = full_shoe(rules.decks);
        let mut out: Vec<(f64, f64)> = (1..=8u32)
            .into_par_iter()
            .filter_map(|k| {
                let shoe: [u32; NV] = std::array::from_fn(|v| (full[v] * k + 4) / 8);
                let n: u32 = shoe.iter().sum();
                if n < 20 {
                    return None;
                }
                let ev = if k == 8 {
                    self.ev
                } else {
                    analyze_shoe(
                        rules,
                        &Follow(&self.chart),
                        table,
                        PostSplit::CdzMinus,
                        shoe,
                    )
                    .ev
                };
                Some((1.0 / n as f64, ev - self.ev))
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    /// The size effect at a shoe of `n` cards: interpolated in `1/n` between the shoes
    /// measured, the last held beyond them.
    fn size_at(&self, n: u32) -> f64 {
        let x = 1.0 / n.max(1) as f64;
        let Some(&(x0, y0)) = self.size.first() else {
            return 0.0;
        };
        if x <= x0 {
            return y0;
        }
        for w in self.size.windows(2) {
            let ((xa, ya), (xb, yb)) = (w[0], w[1]);
            if x <= xb {
                return ya + (yb - ya) * (x - xa) / (xb - xa);
            }
        }
        self.size.last().map_or(0.0, |p| p.1)
    }

    /// The chart's EV bends as the shoe tilts far: fitted from the exact EV of four shoes a
    /// third dealt, tilted along the EV's gradient to move it by −4%, −2%, +2% and +4% to first
    /// order, as `ΔEV = L + κ·L²` with `L` the first-order change.
    fn fit_curvature(&self, rules: &Rules) -> f64 {
        use super::exact::{analyze_shoe, Follow, PostSplit};
        let table = DealerTable::of(rules);
        let n_full: f64 = full_shoe(rules.decks).iter().sum::<u32>() as f64;
        let n = (n_full * 2.0 / 3.0).round();
        let mean: f64 = (0..NV).map(|v| self.share[v] * self.ev_slope[v]).sum();
        let dir: [f64; NV] = std::array::from_fn(|v| self.share[v] * (self.ev_slope[v] - mean));
        let per_unit: f64 = (0..NV).map(|v| self.ev_slope[v] * dir[v]).sum();
        if per_unit.abs() < 1e-12 {
            return 0.0;
        }
        let points: Vec<(f64, f64)> = [-0.04, -0.02, 0.02, 0.04]
            .into_par_iter()
            .filter_map(|target: f64| {
                let a = target / per_unit;
                let shoe: [u32; NV] = std::array::from_fn(|v| {
                    (n * (self.share[v] + a * dir[v])).round().max(0.0) as u32
                });
                if (0..NV).any(|v| shoe[v] as f64 > n_full * self.share[v]) {
                    return None;
                }
                let l = self.chart_ev(&self.tilt(&shoe)) - self.ev;
                let exact = analyze_shoe(
                    rules,
                    &Follow(&self.chart),
                    table,
                    PostSplit::CdzMinus,
                    shoe,
                )
                .ev;
                Some((l, exact - self.ev - self.size_at(shoe.iter().sum())))
            })
            .collect();
        let (num, den) = points.iter().fold((0.0, 0.0), |(a, b), &(l, d)| {
            (a + (d - l) * l * l, b + l.powi(4))
        });
        if den > 0.0 {
            num / den
        } else {
            0.0
        }
    }

    /// How far each value's share of `shoe` is from the full shoe's.
    fn tilt(&self, shoe: &[u32; NV]) -> [f64; NV] {
        let n: u32 = shoe.iter().sum();
        if n == 0 {
            return [0.0; NV];
        }
        std::array::from_fn(|v| shoe[v] as f64 / n as f64 - self.share[v])
    }

    /// The basic chart's EV per initial bet at a shoe of `tilt`, to first order.
    fn chart_ev(&self, tilt: &[f64; NV]) -> f64 {
        self.ev + (0..NV).map(|v| self.ev_slope[v] * tilt[v]).sum::<f64>()
    }

    /// The basic chart's EV per initial bet at the shoe `shoe` of `tilt`: to first order in
    /// its composition, bent as [`ShoeModel::fit_curvature`] measured, and moved by its size.
    fn chart_ev_at(&self, shoe: &[u32; NV], tilt: &[f64; NV]) -> f64 {
        let l = self.chart_ev(tilt) - self.ev;
        self.ev + l + self.curvature * l * l + self.size_at(shoe.iter().sum())
    }

    /// What `a` is worth in `sit` at a shoe of `tilt`.
    fn value(&self, sit: &Situation, a: Action, tilt: &[f64; NV]) -> Option<f64> {
        let v0 = self.values.value(sit, a)?;
        let eor: [f64; NV] =
            std::array::from_fn(|v| self.less[v].value(sit, a).map_or(0.0, |x| x - v0));
        let centre: f64 = (0..NV).map(|v| self.share[v] * eor[v]).sum();
        Some(v0 - self.less_one * (0..NV).map(|v| (eor[v] - centre) * tilt[v]).sum::<f64>())
    }

    /// What taking `taken` in `sit` gains over the chart's play, per initial bet, at a shoe of
    /// `tilt` (0 where either is not valued).
    fn deviation(&self, sit: &Situation, taken: Action, tilt: &[f64; NV]) -> f64 {
        let chart = self.chart.act(sit);
        if chart == taken {
            return 0.0;
        }
        match (self.value(sit, taken, tilt), self.value(sit, chart, tilt)) {
            (Some(t), Some(c)) => t - c,
            _ => 0.0,
        }
    }
}

/// The period log `verify` writes for `monitor` (`--periods-out`): the main bet of every
/// `every` seat-rounds as one period, with the sum of squared stakes.
pub struct Periods<'w> {
    out: &'w mut dyn std::io::Write,
    every: u64,
    row: crate::monitor::PeriodLogRow,
    pub written: u64,
    error: Option<std::io::Error>,
}

impl<'w> Periods<'w> {
    /// Periods of `every` seat-rounds written to `out` (the header first).
    pub fn new(out: &'w mut dyn std::io::Write, every: u64) -> Periods<'w> {
        let mut p = Periods {
            out,
            every: every.max(1),
            row: crate::monitor::PeriodLogRow::new(""),
            written: 0,
            error: None,
        };
        let header = crate::monitor::PeriodLogRow::HEADER;
        if let Err(e) = writeln!(p.out, "{header}") {
            p.error = Some(e);
        }
        p
    }

    fn add(&mut self, round: u64, wagered: u64, paid: u64) {
        if self.row.rounds == 0 {
            self.row.period = format!("#{} (round {round} on)", self.written + 1);
        }
        self.row.add_round(wagered as f64, paid as f64);
        if self.row.rounds >= self.every {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.row.rounds > 0 && self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{}", self.row.to_csv()) {
                self.error = Some(e);
            }
            self.written += 1;
        }
        self.row = crate::monitor::PeriodLogRow::new("");
    }

    /// The last period (however short) written; the first write error, if any.
    pub fn finish(mut self) -> std::io::Result<u64> {
        self.flush();
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.written),
        }
    }
}

/// Everything the pass accumulates.
struct Pass<'a, 'w> {
    periods: Option<&'a mut Periods<'w>>,
    shuffle: crate::shuffle::ShuffleTests,
    rules: Rules,
    header: Header,
    dealer: &'static DealerTable,
    shoe: Option<ShoeState>,
    last_round: u64,
    shoes: u64,
    rounds: u64,
    voided: u64,
    seat_rounds: u64,
    settlement: Deviations,
    shoe_dev: Deviations,
    dealer_obs: [[u64; 7]; NV],
    dealer_exp: [[f64; 7]; NV],
    naturals: Binom,
    pairs: Binom,
    insurance: Binom,
    main: RatioSums,
    pairs_bet: RatioSums,
    insurance_bet: RatioSums,
    behind: RatioSums,
    all: RatioSums,
    /// The composition model of what a round returns.
    linear: &'a ShoeModel,
    /// Σ initial stake (main bet), and Σ stake × the chart's EV at its round's shoe.
    initial: f64,
    basic_at_shoes: f64,
    /// The periods so far (the last one open), and seat-rounds a period.
    periods_sums: Vec<PeriodSums>,
    period_size: u64,
    complete: Option<bool>,
}

impl Pass<'_, '_> {
    fn dev(&self, line: u64, round: Option<u64>, seat: Option<u8>, what: String) -> Deviation {
        Deviation {
            line,
            shoe: self.shoe.as_ref().map_or(0, |s| s.no),
            round,
            seat,
            wager: None,
            what,
            paid: None,
            rules_pay: None,
        }
    }

    /// A seat-round of the main bet into the periods (a new one when the last is full; the
    /// periods merged in pairs when they are [`MAX_PERIODS`]).
    fn add_to_period(&mut self, round: u64, y: f64, w: f64, e: f64) {
        if self
            .periods_sums
            .last()
            .is_none_or(|p| p.n >= self.period_size)
        {
            if self.periods_sums.len() == MAX_PERIODS {
                let merged: Vec<PeriodSums> = self
                    .periods_sums
                    .chunks(2)
                    .map(|c| {
                        let mut a = c[0];
                        for b in &c[1..] {
                            a.add(b);
                        }
                        a
                    })
                    .collect();
                self.periods_sums = merged;
                self.period_size *= 2;
            }
            if self
                .periods_sums
                .last()
                .is_none_or(|p| p.n >= self.period_size)
            {
                self.periods_sums.push(PeriodSums {
                    first_round: round,
                    ..PeriodSums::default()
                });
            }
        }
        let p = self.periods_sums.last_mut().expect("a period");
        p.n += 1;
        p.y += y;
        p.w += w;
        p.yy += y * y;
        p.yw += y * w;
        p.ww += w * w;
        p.e += e;
        p.rr += (y - e) * (y - e);
    }

    fn shoe_record(&mut self, line: u64, rec: ShoeRecord) {
        let decks = self.rules.decks;
        let want_cut = super::log::write::cut_of(&self.rules);
        if let Some(prev) = &self.shoe {
            if rec.shoe <= prev.no {
                let d = self.dev(
                    line,
                    None,
                    None,
                    format!(
                        "shoe {} follows shoe {}: shoe numbers must rise",
                        rec.shoe, prev.no
                    ),
                );
                self.shoe_dev.add("shoe numbers", d);
            }
        }
        let mut st = ShoeState {
            no: rec.shoe,
            cut: rec.cut,
            left: [[decks; 4]; 13],
            dealt: 0,
            voided: false,
            cards: Vec::with_capacity(self.rules.cards() as usize),
        };
        for &c in &rec.burn {
            let n = &mut st.left[c.rank() as usize][c.suit() as usize];
            *n = n.saturating_sub(1);
            st.dealt += 1;
            st.cards.push(c);
        }
        if rec.cut.abs_diff(want_cut) > self.header.cut_tolerance {
            let what = format!(
                "the cut card after {} cards; the rules put it after {want_cut} (tolerance {})",
                rec.cut, self.header.cut_tolerance
            );
            let d = Deviation {
                shoe: rec.shoe,
                ..self.dev(line, None, None, what)
            };
            self.shoe_dev.add("cut card", d);
        }
        if rec.burn.len() != self.header.burn as usize {
            let what = format!(
                "{} card(s) burned; the table burns {}",
                rec.burn.len(),
                self.header.burn
            );
            let d = Deviation {
                shoe: rec.shoe,
                ..self.dev(line, None, None, what)
            };
            self.shoe_dev.add("burn", d);
        }
        self.shoes += 1;
        self.end_shoe();
        self.shoe = Some(st);
    }

    /// The shoe in play, whole, to the shuffle's tests.
    fn end_shoe(&mut self) {
        if let Some(prev) = &self.shoe {
            let ids: Vec<u8> = prev.cards.iter().map(|c| c.0).collect();
            self.shuffle.add_shoe(&ids);
        }
    }

    fn round_record(&mut self, line: u64, r: RoundRecord) {
        let Some(shoe_no) = self.shoe.as_ref().map(|s| s.no) else {
            let d = self.dev(
                line,
                Some(r.round),
                None,
                "a round before any shoe record".into(),
            );
            self.shoe_dev.add("order", d);
            return;
        };
        if r.shoe != shoe_no {
            let d = self.dev(
                line,
                Some(r.round),
                None,
                format!("round of shoe {} in shoe {shoe_no}", r.shoe),
            );
            self.shoe_dev.add("order", d);
        }
        if self.shoe.as_ref().is_some_and(|s| s.voided) {
            let d = self.dev(
                line,
                Some(r.round),
                None,
                "the shoe went on after a voided round (the rules: a new shoe)".into(),
            );
            self.shoe_dev.add("void", d);
            if let Some(s) = self.shoe.as_mut() {
                s.voided = false;
            }
        }
        if r.round <= self.last_round && self.rounds > 0 {
            let d = self.dev(
                line,
                Some(r.round),
                None,
                format!(
                    "round {} follows round {}: round numbers must rise",
                    r.round, self.last_round
                ),
            );
            self.shoe_dev.add("order", d);
        }
        self.last_round = r.round;
        self.rounds += 1;
        let shoe = self.shoe.as_mut().expect("a shoe");
        if shoe.dealt >= shoe.cut {
            let (dealt, cut) = (shoe.dealt, shoe.cut);
            let d = self.dev(line, Some(r.round), None, format!("a round begun after the cut card came out ({dealt} cards dealt, cut after {cut})"));
            self.shoe_dev.add("past the cut card", d);
        }
        // The shoe's composition before the round (for the outcome probabilities).
        let before_value = self.shoe.as_ref().expect("a shoe").by_value();
        let before_rank = self.shoe.as_ref().expect("a shoe").by_rank();
        // The cards, out of the shoe; a mid-round reshuffle puts the others back.
        for (i, &c) in r.cards.iter().enumerate() {
            let shoe = self.shoe.as_mut().expect("a shoe");
            if r.reshuffled_after == Some(i as u32) {
                let decks = self.rules.decks;
                shoe.left = [[decks; 4]; 13];
                for &k in &r.cards[..i] {
                    let n = &mut shoe.left[k.rank() as usize][k.suit() as usize];
                    *n = n.saturating_sub(1);
                }
                shoe.dealt = i as u32;
                shoe.cards.clear();
            }
            let n = &mut shoe.left[c.rank() as usize][c.suit() as usize];
            let excess = *n == 0;
            *n = n.saturating_sub(1);
            shoe.dealt += 1;
            if shoe.cards.len() < self.rules.cards() as usize * 2 {
                shoe.cards.push(c);
            }
            if excess {
                let decks = self.rules.decks;
                let what = format!("one {c} more than a shoe of {decks} deck(s) holds");
                let d = self.dev(line, Some(r.round), None, what);
                self.shoe_dev.add("too many of a card", d);
            }
        }
        // Seats in order, each once.
        let players = self.rules.players;
        let mut last = 0u8;
        for s in &r.seats {
            if s.seat <= last || s.seat == 0 || s.seat > players {
                let d = self.dev(
                    line,
                    Some(r.round),
                    Some(s.seat),
                    format!(
                        "seat {} out of order or not at a table of {players} seat(s)",
                        s.seat
                    ),
                );
                self.settlement.add("seats", d);
            }
            last = s.seat;
        }
        if let Some(why) = &r.void {
            self.voided += 1;
            if let Some(s) = self.shoe.as_mut() {
                s.voided = true;
            }
            for s in &r.seats {
                for (wager, staked, paid) in wagers(&s.stake, &s.paid) {
                    if staked != paid {
                        let d = Deviation {
                            wager: Some(wager),
                            paid: Some(paid),
                            rules_pay: Some(staked),
                            ..self.dev(
                                line,
                                Some(r.round),
                                Some(s.seat),
                                format!("voided ({why}): every bet is returned"),
                            )
                        };
                        self.settlement.add("voided round paid", d);
                    }
                }
            }
            return;
        }
        self.settle(line, &r, before_value, before_rank);
    }

    fn settle(&mut self, line: u64, r: &RoundRecord, before: [u32; NV], before_rank: [u32; 13]) {
        let rules = self.rules.clone();
        let ranks: Vec<Rank> = r.cards.iter().map(|c| c.rank()).collect();
        let mut decide = LogDecide::new(&r.seats);
        let rp = replay(&rules, r.seats.len(), &ranks, &mut decide);
        let mut clean = true;
        if let Some(issue) = rp.issues.first() {
            let d = self.dev(line, Some(r.round), None, issue.to_string());
            self.settlement.add(issue_kind(issue), d);
            clean = false;
        }
        if let Some((s, h, c)) = decide.bad_letter {
            let d = self.dev(
                line,
                Some(r.round),
                Some(r.seats[s].seat),
                format!("hand {}: '{c}' is not an action (H S D P R)", h + 1),
            );
            self.settlement.add("play", d);
            clean = false;
        }
        let hands: Vec<usize> = rp.seats.iter().map(|s| s.hands.len()).collect();
        if clean {
            if let Some((s, h)) = decide.unused(&hands) {
                let d = self.dev(line, Some(r.round), Some(r.seats[s].seat), format!("hand {}: actions logged after the hand ended (or a hand the rules never dealt)", h + 1));
                self.settlement.add("play", d);
                clean = false;
            }
        }
        // Auto-played seats: hit until over 11, an ace as 11 when that does not bust.
        for dcs in rp.decisions.iter() {
            let Decision {
                seat,
                hand,
                sit,
                action,
            } = *dcs;
            if r.seats[seat].auto && AutoPlay.act(&sit) != action {
                let d = self.dev(line, Some(r.round), Some(r.seats[seat].seat), format!(
                    "hand {}: auto-play {} on {} {} (the table's auto-play hits to more than 11, then stands)",
                    hand + 1,
                    match action { Action::Hit => "hit", Action::Stand => "stood", Action::Double => "doubled", Action::Split => "split", Action::Surrender => "surrendered" },
                    if sit.soft { "soft" } else { "hard" },
                    sit.total
                ));
                self.settlement.add("auto-play", d);
            }
        }
        // Outcomes: each round's probabilities given the cards already out.
        let upv = value(rp.up);
        let up = upv as usize - 1;
        let n_before: u32 = before.iter().sum();
        let tilt = self.linear.tilt(&before);
        // What a pairs stake and an insurance stake should return per unit, at the shoe.
        let mut pairs_rtp = None;
        let mut insurance_rtp = None;
        if clean && n_before >= 2 {
            let nb = n_before as f64;
            let p_pair = before_rank
                .iter()
                .map(|&k| k as f64 * (k as f64 - 1.0))
                .sum::<f64>()
                / (nb * (nb - 1.0));
            let p_nat = 2.0 * before[0] as f64 * before[9] as f64 / (nb * (nb - 1.0));
            for s in &rp.seats {
                self.naturals.add(s.natural, p_nat);
                self.pairs.add(s.pair, p_pair);
            }
            pairs_rtp = Some(12.0 * p_pair);
            // The dealer: from the cards out when the dealer's second card comes.
            let at = ranks.len() - (rp.dealer.len() - 1);
            let at = if rules.peek {
                2 * r.seats.len() + 1
            } else {
                at
            };
            let mut shoe = before;
            for &c in &ranks[..at.min(ranks.len())] {
                let v = value(c) as usize - 1;
                shoe[v] = shoe[v].saturating_sub(1);
            }
            let out = self.dealer.dist(up, &shoe);
            for (e, p) in self.dealer_exp[up].iter_mut().zip(out) {
                *e += p;
            }
            self.dealer_obs[up][rp.dealer_outcome()] += 1;
            if upv == 1 {
                let n: u32 = shoe.iter().sum();
                let p = if n > 0 {
                    shoe[9] as f64 / n as f64
                } else {
                    0.0
                };
                self.insurance.add(rp.dealer_bj, p);
                insurance_rtp = Some(3.0 * p);
            }
        }
        // Money.
        for (i, s) in r.seats.iter().enumerate() {
            self.seat_rounds += 1;
            let seat = &rp.seats[i];
            let wagered = main_wagered(seat, s.stake.main);
            if s.stake.insurance > 0 && (upv != 1 || s.stake.insurance != s.stake.main / 2) {
                let d = Deviation {
                    wager: Some("insurance"),
                    ..self.dev(line, Some(r.round), Some(s.seat), format!(
                        "insurance of {} on a main bet of {} with {} up (the rules: half the main bet, an ace up)",
                        s.stake.insurance,
                        s.stake.main,
                        Card::new(rp.up, 0).to_string().chars().next().unwrap_or('?')
                    ))
                };
                self.settlement.add("insurance stake", d);
            }
            if clean {
                let want = pay(
                    &rules,
                    seat,
                    &rp,
                    &s.stake,
                    self.header.behind,
                    self.header.rounding,
                );
                for ((wager, _, paid), (_, _, rules_pay)) in wagers(&s.stake, &s.paid)
                    .into_iter()
                    .zip(wagers(&s.stake, &want))
                {
                    if paid != rules_pay {
                        let d = Deviation {
                            wager: Some(wager),
                            paid: Some(paid),
                            rules_pay: Some(rules_pay),
                            ..self.dev(
                                line,
                                Some(r.round),
                                Some(s.seat),
                                format!("{wager} paid {paid}, the rules pay {rules_pay}"),
                            )
                        };
                        self.settlement.add("payout", d);
                    }
                }
            }
            // What the seat's main bet should return at this shoe with the decisions taken.
            let mut e_unit = self.linear.chart_ev_at(&before, &tilt);
            self.basic_at_shoes += s.stake.main as f64 * e_unit;
            if clean {
                for dcs in rp.decisions.iter().filter(|d| d.seat == i) {
                    e_unit += self.linear.deviation(&dcs.sit, dcs.action, &tilt);
                }
            }
            let stake = s.stake.main as f64;
            self.initial += stake;
            self.add_to_period(
                r.round,
                s.paid.main as f64 - wagered as f64,
                stake,
                stake * e_unit,
            );
            self.main.add(wagered, s.paid.main);
            if let Some(p) = self.periods.as_mut() {
                p.add(r.round, wagered, s.paid.main);
            }
            // A round whose dealing does not settle (already a deviation) is held to what it
            // paid: it neither helps nor hurts the wager's test.
            let held = |rtp: Option<f64>, staked: u64, paid: u64| {
                rtp.map_or(paid as f64, |r| r * staked as f64)
            };
            let (st, pd) = (s.stake.pairs, s.paid.pairs);
            self.pairs_bet.add_held(st, pd, held(pairs_rtp, st, pd));
            let (st, pd) = (s.stake.insurance, s.paid.insurance);
            self.insurance_bet
                .add_held(st, pd, held(insurance_rtp, st, pd));
            let behind_staked = match self.header.behind {
                super::log::Behind::Decline => s.stake.behind,
                super::log::Behind::Match => main_wagered(seat, s.stake.behind),
            };
            self.behind.add(behind_staked, s.paid.behind);
            let staked = wagered + s.stake.pairs + s.stake.insurance + behind_staked;
            let paid = s.paid.main + s.paid.pairs + s.paid.insurance + s.paid.behind;
            self.all.add(staked, paid);
        }
    }
}

fn issue_kind(i: &super::log::replay::Issue) -> &'static str {
    use super::log::replay::Issue::*;
    match i {
        Illegal { .. } | NoDecision { .. } => "play",
        TooFewCards { .. } => "cards",
        DealerStood { .. } | DealerDrew { .. } => "dealer's draw",
    }
}

/// Each wager's stake and amount paid.
fn wagers(stake: &Wagers, paid: &Wagers) -> [(&'static str, u64, u64); 4] {
    [
        ("main", stake.main, paid.main),
        ("pairs", stake.pairs, paid.pairs),
        ("insurance", stake.insurance, paid.insurance),
        ("behind", stake.behind, paid.behind),
    ]
}

/// Holm's correction of `tests`' p-values (in place) and their verdict at `level`.
fn holm(tests: &mut [OutcomeTest], level: f64) {
    let m = tests.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| tests[a].p.total_cmp(&tests[b].p));
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        let adj = ((m - k) as f64 * tests[i].p).min(1.0);
        running = running.max(adj);
        tests[i].p_holm = running;
        tests[i].pass = running >= 1.0 - level;
    }
}

/// Check the log read from `lines`; `values` values decisions, `progress` shows the bytes read
/// of `size`.
pub fn verify(
    mut lines: Lines,
    level: f64,
    size: u64,
    show: bool,
    stop: &std::sync::atomic::AtomicBool,
    periods: Option<&mut Periods>,
    kept: &super::kept::Kept,
) -> Result<VerifyModel, LogError> {
    let Some(first) = lines.next_line()? else {
        return Err(LogError::Empty {
            log: lines.name().to_string(),
        });
    };
    let first = first.to_string();
    let kind = record_type(&lines, &first)?;
    if kind != "header" {
        return Err(lines.error(
            "type",
            format!("'{kind}': a round log starts with its header record (\"type\":\"header\")"),
        ));
    }
    let header: Header = parse(&lines, &first)?;
    if header.format != FORMAT {
        return Err(lines.error(
            "format",
            format!("'{}': expected \"{FORMAT}\"", header.format),
        ));
    }
    if header.version != VERSION {
        return Err(lines.error(
            "version",
            format!("{}: this rtplab reads version {VERSION}", header.version),
        ));
    }
    if header.game != "blackjack" {
        return Err(lines.error(
            "game",
            format!(
                "'{}': this is `verify blackjack`; a {} log is checked by `rtplab verify {}`",
                header.game, header.game, header.game
            ),
        ));
    }
    let rules = header
        .table_rules()
        .map_err(|(f, why)| lines.error(&f, why))?;
    let linear = ShoeModel::new(&rules, kept);
    let bar = crate::progress::Progress::new(show, size.max(1), "verifying the log", "bytes");
    let read = lines.read.clone();
    let mut pass = Pass {
        periods,
        shuffle: crate::shuffle::ShuffleTests::new(rules.decks, SHUFFLE_SEED),
        rules: rules.clone(),
        header: header.clone(),
        dealer: DealerTable::of(&rules),
        shoe: None,
        last_round: 0,
        shoes: 0,
        rounds: 0,
        voided: 0,
        seat_rounds: 0,
        settlement: Deviations::default(),
        shoe_dev: Deviations::default(),
        dealer_obs: [[0; 7]; NV],
        dealer_exp: [[0.0; 7]; NV],
        naturals: Binom::default(),
        pairs: Binom::default(),
        insurance: Binom::default(),
        main: RatioSums::default(),
        pairs_bet: RatioSums::default(),
        insurance_bet: RatioSums::default(),
        behind: RatioSums::default(),
        all: RatioSums::default(),
        linear: &linear,
        initial: 0.0,
        basic_at_shoes: 0.0,
        periods_sums: Vec::new(),
        period_size: 1000,
        complete: None,
    };
    let mut shown = 0u64;
    let mut interrupted_at_line = None;
    while let Some(l) = lines.next_line()? {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            interrupted_at_line = Some(lines.line());
            break;
        }
        let l = l.to_string();
        let line = lines.line();
        if pass.complete.is_some() {
            return Err(lines.error("", "a record after the end record"));
        }
        match record_type(&lines, &l)?.as_str() {
            "shoe" => {
                let rec: ShoeRecord = parse(&lines, &l)?;
                pass.shoe_record(line, rec);
            }
            "round" => {
                let rec: RoundRecord = parse(&lines, &l)?;
                pass.round_record(line, rec);
            }
            "end" => {
                let rec: EndRecord = parse(&lines, &l)?;
                if rec.rounds != pass.rounds {
                    let d = pass.dev(
                        line,
                        None,
                        None,
                        format!(
                            "the end record counts {} rounds, the log holds {}",
                            rec.rounds, pass.rounds
                        ),
                    );
                    pass.shoe_dev.add("order", d);
                }
                pass.complete = Some(rec.complete);
            }
            "header" => return Err(lines.error("type", "a second header")),
            other => {
                return Err(lines.error(
                    "type",
                    format!("'{other}': the records are header, shoe, round and end"),
                ))
            }
        }
        let now = read.load(std::sync::atomic::Ordering::Relaxed);
        if now > shown {
            bar.advance(now - shown);
            shown = now;
        }
    }
    bar.finish();
    pass.end_shoe();
    pass.shoe = None;
    let mut m = model(pass, lines.name(), size, level, &rules, &header);
    m.interrupted_at_line = interrupted_at_line;
    m.interrupted = interrupted_at_line.is_some();
    Ok(m)
}

fn model(
    p: Pass,
    log: &str,
    bytes: u64,
    level: f64,
    rules: &Rules,
    header: &Header,
) -> VerifyModel {
    // Outcomes.
    let mut outcomes = Vec::new();
    let bins = p
        .dealer_obs
        .iter()
        .zip(&p.dealer_exp)
        .flat_map(|(o, e)| o.iter().zip(e).map(|(&o, &e)| (o, e)).collect::<Vec<_>>());
    // One chi-square per up card (its 7 outcomes), summed: Σ statistics, Σ df.
    let (mut stat, mut df, mut obs, mut exp) = (0.0, 0u64, 0.0, 0.0);
    let all: Vec<(u64, f64)> = bins.collect();
    for up in all.chunks(7) {
        let c = ChiSquare::of(up.iter().copied());
        if c.statistic.is_finite() {
            stat += c.statistic;
            df += c.df;
        } else {
            stat = f64::INFINITY;
        }
        obs += up.iter().map(|b| b.0 as f64).sum::<f64>();
        exp += up.iter().map(|b| b.1).sum::<f64>();
    }
    if df > 0 {
        use statrs::distribution::{ChiSquared, ContinuousCDF};
        let pv = if stat.is_finite() {
            ChiSquared::new(df as f64).map_or(f64::NAN, |c| c.sf(stat))
        } else {
            0.0
        };
        outcomes.push(OutcomeTest {
            name: "dealer's results by up card (17–21, bust, blackjack)".into(),
            observed: obs,
            expected: exp,
            statistic: stat,
            df,
            p: pv,
            p_holm: f64::NAN,
            pass: true,
        });
    }
    outcomes.push(p.naturals.test("naturals (seat-rounds)"));
    outcomes.push(
        p.pairs
            .test("pairs: first two cards of one rank (seat-rounds)"),
    );
    if p.insurance.expected > 0.0 {
        outcomes.push(
            p.insurance
                .test("insurance wins: dealer blackjack under an ace"),
        );
    }
    holm(&mut outcomes, level);
    // Return.
    let table = DealerTable::of(rules);
    let best = analyze(rules, &Optimal, table).ev;
    let basic = p.linear.ev;
    const UPS: [&str; NV] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"];
    const OUTCOMES: [&str; 7] = ["17", "18", "19", "20", "21", "bust", "BJ"];
    let mut dealer_cells = Vec::new();
    for (u, (o, e)) in p.dealer_obs.iter().zip(&p.dealer_exp).enumerate() {
        for k in 0..7 {
            dealer_cells.push(DealerCell {
                up: UPS[u].into(),
                outcome: OUTCOMES[k].into(),
                observed: o[k],
                expected: e[k],
            });
        }
    }
    // The main bet per initial bet: Σ(paid − wagered) over Σ initial stakes (the ratio
    // estimator's SE), against what the decisions taken return at the shoes dealt.
    let mut whole = PeriodSums::default();
    for s in &p.periods_sums {
        whole.add(s);
    }
    let basic_at_shoes = 1.0 + p.basic_at_shoes / p.initial;
    // What the model of a round's EV at its shoe may be off by, per initial bet: measured
    // within 0.02% for a Hi-Lo counter's 1–12 spread, whose bets raise basic strategy's
    // return by 0.86%, and within 0.02% for flat basic strategy (docs/round-log.md); allowed
    // 5% of that rise and 0.02% more.
    let allowance = 0.05 * (basic_at_shoes - (1.0 + basic)).abs() + 0.0002;
    let (main_per_initial, main_se, taken, z) = if whole.w > 0.0 {
        let z = whole.z();
        let se = whole.rr.sqrt() / whole.w;
        let held = (z.rtp - z.expected) / (se * se + allowance * allowance).sqrt();
        (z.rtp, z.se, z.expected, held)
    } else {
        (f64::NAN, f64::NAN, f64::NAN, f64::NAN)
    };
    let claim = header.claim.or(rules.advertised_rtp());
    let mut steps = Vec::new();
    if let Some(c) = claim {
        steps.push(Step {
            what: "claimed".into(),
            rtp: c,
            se: None,
            source: if header.claim.is_some() {
                "the log's header".into()
            } else {
                "the table's advertised RTP".into()
            },
        });
    }
    steps.push(Step {
        what: "best play (composition-dependent)".into(),
        rtp: 1.0 + best,
        se: None,
        source: "exact, full shoe".into(),
    });
    steps.push(Step {
        what: "basic strategy (the chart derived for the rules)".into(),
        rtp: 1.0 + basic,
        se: None,
        source: "exact, full shoe".into(),
    });
    if whole.w > 0.0 {
        steps.push(Step {
            what: "basic strategy at the shoes the bets were placed on".into(),
            rtp: basic_at_shoes,
            se: None,
            source: "the chart's EV at each round's shoe (its effects of removal, bent as exact shoes tilted along them bend, and the shoe's size), weighted by the stakes".into(),
        });
        steps.push(Step {
            what: "the decisions taken".into(),
            rtp: taken,
            se: Some(allowance),
            source: "each decision that leaves the chart valued at its round's shoe (its EV against the chart's play, to first order in the composition); SE: the model's allowance".into(),
        });
    }
    steps.push(Step {
        what: "paid (main bet, per initial bet)".into(),
        rtp: main_per_initial,
        se: Some(main_se),
        source: "the log".into(),
    });
    let claim_note = claim.map(|c| {
        if c > 1.0 + best + 1e-12 {
            format!("The claimed {} is more than the best play returns ({}): no way of playing reaches it.", pct(c, 2), pct(1.0 + best, 4))
        } else {
            format!("The claimed {} is within what the best play returns ({}).", pct(c, 2), pct(1.0 + best, 4))
        }
    });
    let wager = |name: &'static str, s: &RatioSums, held: bool| WagerReturn {
        wager: name,
        staked: s.staked,
        paid: s.paid,
        rtp: s.rtp(),
        se: s.se(),
        expected: held.then(|| s.e / s.w),
        z: held.then(|| s.z()),
    };
    let mut wagers_v = vec![wager("main (per amount wagered)", &p.main, false)];
    if p.pairs_bet.staked > 0 {
        wagers_v.push(wager("pairs", &p.pairs_bet, true));
    }
    if p.insurance_bet.staked > 0 {
        wagers_v.push(wager("insurance", &p.insurance_bet, true));
    }
    if p.behind.staked > 0 {
        wagers_v.push(wager("bet behind", &p.behind, false));
    }
    wagers_v.push(wager("all wagers", &p.all, false));
    // The main bet and each side wager held to what it should return: one test each, the
    // level shared among them (Bonferroni).
    let zs: Vec<f64> = std::iter::once(z)
        .chain(wagers_v.iter().filter_map(|w| w.z))
        .collect();
    let critical = crate::stats::critical(1.0 - (1.0 - level) / zs.len() as f64, u64::MAX);
    let returns = ReturnPart {
        wagers: wagers_v,
        steps,
        z,
        critical,
        pass: zs.iter().all(|z| z.abs() <= critical || z.is_nan()),
        claim_note,
    };
    let mut failed = Vec::new();
    if p.settlement.count > 0 {
        failed.push("settlement".to_string());
    }
    if p.shoe_dev.count > 0 {
        failed.push("shoe".to_string());
    }
    let shuffle = p.shuffle.finish(level);
    if !shuffle.pass {
        failed.push("shuffle".to_string());
    }
    if outcomes.iter().any(|t| !t.pass) {
        failed.push("outcomes".to_string());
    }
    if !returns.pass {
        failed.push("return".to_string());
    }
    VerifyModel {
        log: log.to_string(),
        bytes,
        rules: rules.clone(),
        source: header.source.clone(),
        shoes: p.shoes,
        rounds: p.rounds,
        voided: p.voided,
        seat_rounds: p.seat_rounds,
        complete: p.complete,
        interrupted_at_line: None,
        interrupted: false,
        level,
        settlement: p.settlement,
        shoe: p.shoe_dev,
        outcomes,
        shuffle,
        returns,
        pass: failed.is_empty(),
        periods: p
            .periods_sums
            .iter()
            .filter(|s| s.w > 0.0)
            .map(|s| s.z())
            .collect(),
        dealer_cells,
        failed,
    }
}

fn opt_count(v: Option<u64>) -> Cell {
    v.map_or_else(|| Cell::from(""), count_cell)
}

fn deviation_sections(name: &str, d: &Deviations) -> Vec<Section> {
    let mut kinds = Section::new(&format!("{name}: deviations by kind"), &["kind", "count"]);
    for (k, n) in &d.by_kind {
        kinds.row([Cell::from(k.as_str()), count_cell(*n)]);
    }
    let mut listed = Section::new(
        &format!(
            "{name}: the first {} deviations",
            d.listed.len().min(MAX_LISTED)
        ),
        &[
            "line",
            "shoe",
            "round",
            "seat",
            "wager",
            "what",
            "paid",
            "rules pay",
        ],
    );
    for x in &d.listed {
        listed.row([
            count_cell(x.line),
            count_cell(x.shoe),
            opt_count(x.round),
            opt_count(x.seat.map(u64::from)),
            Cell::from(x.wager.unwrap_or("")),
            Cell::from(x.what.as_str()),
            opt_count(x.paid),
            opt_count(x.rules_pay),
        ]);
    }
    if d.count == 0 {
        return Vec::new();
    }
    vec![kinds, listed]
}

/// The report of a verification.
pub fn render(m: &VerifyModel) -> Report {
    let level = pct(m.level, 0);
    let mut verdict = Section::new("Verdict", &["part", "result", "what was checked"]);
    let mut part = |name: &str, ok: bool, what: String| {
        verdict.row([
            Cell::from(name),
            Cell::from(if ok { "holds" } else { "FAILS" }),
            Cell::from(what),
        ]);
    };
    part(
        "settlement",
        m.settlement.count == 0,
        format!(
            "{} rounds dealt, played and paid again by the rules: {} deviation(s)",
            count(m.rounds),
            count(m.settlement.count)
        ),
    );
    part(
        "shoe",
        m.shoe.count == 0,
        format!(
            "{} shoes: cards, cut card, burns, order: {} deviation(s)",
            count(m.shoes),
            count(m.shoe.count)
        ),
    );
    part(
        "shuffle",
        m.shuffle.pass,
        format!(
            "{} shoes against a uniform shuffle and the shoe before: {} test(s), {} failed",
            count(m.shuffle.shoes),
            m.shuffle.tests.len(),
            crate::audit::shuffle_failures(&m.shuffle).len()
        ),
    );
    part(
        "outcomes",
        m.outcomes.iter().all(|t| t.pass),
        format!(
            "{} tests against the exact probabilities at {level} (Holm)",
            m.outcomes.len()
        ),
    );
    part(
        "return",
        m.returns.pass,
        if m.returns.z.is_finite() {
            let sides: Vec<String> = m
                .returns
                .wagers
                .iter()
                .filter_map(|w| w.z.map(|z| format!("{} z = {z:.2}", w.wager)))
                .collect();
            format!(
                "the main bet paid against what the decisions taken return: z = {:.2}{}; each held to |z| ≤ {:.2}",
                m.returns.z,
                if sides.is_empty() { String::new() } else { format!(", {}", sides.join(", ")) },
                m.returns.critical
            )
        } else {
            "the main bet paid against what the decisions taken return: no rounds to weigh".into()
        },
    );
    let mut sections = vec![verdict];
    sections.extend(deviation_sections("Settlement", &m.settlement));
    sections.extend(deviation_sections("Shoe", &m.shoe));
    sections.push(crate::audit::shuffle_section(&m.shuffle));
    let mut out = Section::new(
        "Outcomes against their exact probabilities (given the cards already out)",
        &[
            "test",
            "observed",
            "expected",
            "statistic",
            "df",
            "p",
            "p (Holm)",
            "result",
        ],
    );
    for t in &m.outcomes {
        out.row([
            Cell::from(t.name.as_str()),
            Cell::num(format!("{:.0}", t.observed), t.observed, "count"),
            Cell::num(format!("{:.1}", t.expected), t.expected, "count"),
            Cell::num(
                if t.df > 0 {
                    format!("χ² {:.1}", t.statistic)
                } else {
                    format!("z {:.2}", t.statistic)
                },
                t.statistic,
                "",
            ),
            count_cell(t.df),
            Cell::num(crate::stats::format_p(t.p), t.p, ""),
            Cell::num(crate::stats::format_p(t.p_holm), t.p_holm, ""),
            Cell::from(if t.pass { "holds" } else { "FAILS" }),
        ]);
    }
    sections.push(out);
    let mut ret = Section::new(
        "Return by wager (SE from the stakes as logged)",
        &[
            "wager",
            "staked",
            "paid",
            "RTP",
            "SE",
            "the rules return",
            "z",
        ],
    );
    for w in &m.returns.wagers {
        ret.row([
            Cell::from(w.wager),
            count_cell(w.staked),
            count_cell(w.paid),
            pct_cell(w.rtp, 4),
            pct_cell(w.se, 4),
            w.expected
                .map_or_else(|| Cell::from(""), |e| pct_cell(e, 4)),
            w.z.map_or_else(|| Cell::from(""), |z| Cell::num(format!("{z:.2}"), z, "")),
        ]);
    }
    sections.push(ret);
    let mut steps = Section::new(
        "The main bet, per initial bet: from the claim to what was paid",
        &["", "RTP", "SE", "source"],
    );
    for s in &m.returns.steps {
        steps.row([
            Cell::from(s.what.as_str()),
            pct_cell(s.rtp, 4),
            s.se.map_or_else(|| Cell::from(""), |e| pct_cell(e, 4)),
            Cell::from(s.source.as_str()),
        ]);
    }
    sections.push(steps);
    let mut notes = Vec::new();
    if let Some(line) = m.interrupted_at_line {
        notes.push(format!(
            "INTERRUPTED: stopped by a signal at line {}; every figure is of the rounds read before it, and the verdict is of them only.",
            count(line)
        ));
    }
    notes.push(if m.pass {
        format!("Verdict: the log holds in every part at {level}.")
    } else {
        format!("Verdict: the log FAILS in {}.", m.failed.join(", "))
    });
    match m.complete {
        Some(true) => {}
        Some(false) => {
            notes.push("The log's end record says its writer was stopped: it ends early.".into())
        }
        None => notes.push("The log has no end record: it may be cut short.".into()),
    }
    if let Some(c) = &m.returns.claim_note {
        notes.push(format!("{c} (The claim itself is tested by `rtplab audit blackjack`; it is not part of this verdict.)"));
    }
    notes.push("Outcome probabilities are exact for each round given every card already out of its shoe (dealer results from the cards out when the dealer's second card comes).".into());
    let mut meta = vec![("tool".to_string(), format!("rtplab {}", crate::VERSION))];
    if let Some(line) = m.interrupted_at_line {
        meta.push((
            "run".into(),
            format!("INTERRUPTED: the log read to line {}", count(line)),
        ));
    }
    meta.push((
        "log".into(),
        format!("{} ({} bytes)", m.log, count(m.bytes)),
    ));
    if let Some(s) = &m.source {
        meta.push(("written by".into(), s.clone()));
    }
    meta.push(("rules".into(), m.rules.to_string()));
    meta.push((
        "read".into(),
        format!(
            "{} shoes, {} rounds ({} voided), {} seat-rounds",
            count(m.shoes),
            count(m.rounds),
            count(m.voided),
            count(m.seat_rounds)
        ),
    ));
    let mut r = Report {
        title: format!(
            "Round log verification: {}{}",
            if m.pass { "holds" } else { "FAILS" },
            if m.interrupted_at_line.is_some() {
                " (INTERRUPTED: part of the log)"
            } else {
                ""
            }
        ),
        meta,
        sections,
        notes,
        json: serde_json::to_value(m).unwrap_or_default(),
        ..Default::default()
    };
    // A shuffle that passes is one line of the verdict; its seven tests with --full.
    if m.shuffle.pass {
        r.full_only(&["The shuffle"]);
    }
    r
}

impl crate::job::Job for VerifyJob {
    fn outputs(&self) -> &crate::job::Outputs {
        &self.outputs
    }
    fn run(self, ctx: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        use crate::door::input::{open_file, STDIN};
        let name = self.log.display().to_string();
        let (lines, size) = if self.log.as_os_str() == "-" {
            (Lines::new(STDIN, std::io::stdin())?, 0)
        } else {
            let (f, size) = open_file(&self.log, "the round log")?;
            (Lines::new(&name, f)?, size)
        };
        let (model, periods_note) = match &self.periods_out {
            None => (
                verify(
                    lines,
                    self.level,
                    size,
                    ctx.progress,
                    ctx.stop,
                    None,
                    &self.kept,
                )?,
                None,
            ),
            Some(path) => {
                // The pass runs inside the period log's stream: its rows go out as they end.
                let mut lines = Some(lines);
                let mut result: Option<Result<(VerifyModel, u64), LogError>> = None;
                let written = ctx.door.write_stream("--periods-out", &mut |w| {
                    let mut periods = Periods::new(w, self.period_rounds);
                    let lines = lines.take().expect("the log is read once");
                    match verify(
                        lines,
                        self.level,
                        size,
                        ctx.progress,
                        ctx.stop,
                        Some(&mut periods),
                        &self.kept,
                    ) {
                        Ok(m) => {
                            let n = periods.finish()?;
                            result = Some(Ok((m, n)));
                            Ok(())
                        }
                        Err(e) => {
                            let why = e.to_string();
                            result = Some(Err(e));
                            Err(std::io::Error::other(why))
                        }
                    }
                });
                let (model, n) = match result {
                    Some(r) => r?,
                    None => {
                        return Err(crate::job::Error::Write(format!(
                            "cannot write the period log {}: {}",
                            path.display(),
                            written.err().map_or_else(String::new, |e| e.to_string())
                        )))
                    }
                };
                let note = match written {
                    Ok(()) => format!(
                        "Period log: {} periods of {} seat-rounds (the main bet, with stake_sq) written to {}; `rtplab monitor` holds them against an expected RTP.",
                        count(n),
                        count(self.period_rounds),
                        path.display()
                    ),
                    Err(e) => format!("The period log {} could not be written: {e}", path.display()),
                };
                (model, Some(note))
            }
        };
        let mut report = render(&model);
        report.notes.extend(periods_note);
        let status = if model.interrupted_at_line.is_some() {
            crate::job::Status::Interrupted
        } else {
            crate::job::Status::checked(model.pass)
        };
        Ok(crate::job::Outcome::Report {
            report,
            plots: Box::new(move || {
                plots(&model).map_err(crate::job::plot_error("the verification's plots"))
            }),
            status,
            unsaved: None,
        })
    }
}

/// The verification's plots: the main bet period by period against what the decisions taken
/// return, and the dealer's results by up card against their exact expectation.
pub fn plots(m: &VerifyModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{control_chart, ControlChart};
    let crit = crate::stats::critical(m.level, u64::MAX);
    let level = pct(m.level, 0);
    let mut out = Vec::new();
    if !m.periods.is_empty() {
        let samples: Vec<(f64, f64, f64)> = m
            .periods
            .iter()
            .enumerate()
            .filter(|(_, p)| p.z.is_finite())
            .map(|(i, p)| (i as f64 + 1.0, p.z, p.z))
            .collect();
        let outside: Vec<(f64, f64, String)> = m
            .periods
            .iter()
            .enumerate()
            .filter(|(_, p)| p.z.abs() > crit)
            .map(|(i, p)| {
                (
                    i as f64 + 1.0,
                    p.z,
                    format!("round {}", count(p.first_round)),
                )
            })
            .collect();
        let per = m.periods.first().map_or(0, |p| p.seat_rounds);
        let title = format!(
            "Main bet by period ({} seat-rounds each) against what the play returns",
            count(per)
        );
        let legend = format!("±{crit:.2}: the {level} band");
        let svg = control_chart(&ControlChart {
            title: &title,
            x_label: "period, in the log's order",
            y_label: "z of the period's RTP",
            samples: &samples,
            names: &[],
            samples_label: "a period",
            centre: (0.0, "what the decisions taken return"),
            limits: (-crit, crit, &legend),
            outside: &outside,
            outside_label: "outside the band",
        })?;
        out.push(("return-by-period.svg".to_string(), svg));
    }
    let cells: Vec<&DealerCell> = m.dealer_cells.iter().filter(|c| c.expected > 0.0).collect();
    if !cells.is_empty() {
        // Each cell's standardized residual, its band corrected for the number of cells.
        let per_cell = 1.0 - (1.0 - m.level) / cells.len() as f64;
        let cell_crit = crate::stats::critical(per_cell, u64::MAX);
        let z = |c: &DealerCell| (c.observed as f64 - c.expected) / c.expected.sqrt();
        let samples: Vec<(f64, f64, f64)> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| (i as f64 + 1.0, z(c), z(c)))
            .collect();
        let names: Vec<String> = cells
            .iter()
            .map(|c| format!("{}:{}", c.up, c.outcome))
            .collect();
        let outside: Vec<(f64, f64, String)> = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| z(c).abs() > cell_crit)
            .map(|(i, c)| (i as f64 + 1.0, z(c), format!("{} up, {}", c.up, c.outcome)))
            .collect();
        let legend = format!("±{cell_crit:.2}: {level} over {} cells", cells.len());
        let svg = control_chart(&ControlChart {
            title: "Dealer's results by up card: observed against exact",
            x_label: "up card A, 2 … T in turn; within each the dealer's 17, 18, 19, 20, 21, bust, blackjack",
            y_label: "(observed − expected) / √expected",
            samples: &samples,
            names: &names,
            samples_label: "an up card and result",
            centre: (0.0, "as the exact probabilities say"),
            limits: (-cell_crit, cell_crit, &legend),
            outside: &outside,
            outside_label: "outside the band",
        })?;
        out.push(("dealer-results.svg".to_string(), svg));
    }
    if let Some(line) = m.interrupted_at_line {
        let text = format!("INTERRUPTED: the log read to line {}", count(line));
        for (_, svg) in &mut out {
            *svg = crate::report::svg::mark(svg, &text);
        }
    }
    Ok(out)
}

crate::job::carried!(LogError);

#[cfg(test)]
mod tests {
    use super::*;

    /// Dealer outcome probabilities (17..=21, bust, blackjack) with the up card `up` (a rank) from
    /// the cards `shoe` (by value, ace first): every way the dealer can draw, a drawn set of
    /// cards valued once (what follows depends on which cards were drawn, not their order).
    pub(super) fn dealer_probs(rules: &Rules, shoe: &[u32; NV], up: Rank) -> [f64; 7] {
        struct Walk<'a> {
            rules: &'a Rules,
            shoe: [u32; NV],
            n: u32,
            memo: std::collections::HashMap<u64, [f64; 7]>,
        }
        impl Walk<'_> {
            /// From the hand (hard total, an ace, cards) having drawn `drawn` (4 bits a value).
            fn from(&mut self, hard: u32, ace: bool, cards: u32, drawn: u64) -> [f64; 7] {
                let soft = ace && hard <= 11;
                let total = hard + if soft { 10 } else { 0 };
                let draws = total < 17 || (self.rules.h17 && soft && total == 17);
                let mut out = [0.0; 7];
                if !draws {
                    let i = if cards == 2 && total == 21 {
                        6
                    } else if total > 21 {
                        5
                    } else {
                        total as usize - 17
                    };
                    out[i] = 1.0;
                    return out;
                }
                if let Some(v) = self.memo.get(&drawn) {
                    return *v;
                }
                let taken: u32 = (0..NV).map(|v| (drawn >> (4 * v) & 15) as u32).sum();
                let left = self.n - taken;
                if left == 0 {
                    return out;
                }
                for v in 0..NV {
                    let k = self.shoe[v].saturating_sub((drawn >> (4 * v) & 15) as u32);
                    if k == 0 {
                        continue;
                    }
                    let q = k as f64 / left as f64;
                    let next = self.from(
                        hard + v as u32 + 1,
                        ace || v == 0,
                        cards + 1,
                        drawn + (1 << (4 * v)),
                    );
                    for (o, x) in out.iter_mut().zip(next) {
                        *o += q * x;
                    }
                }
                self.memo.insert(drawn, out);
                out
            }
        }
        let mut w = Walk {
            rules,
            shoe: *shoe,
            n: shoe.iter().sum(),
            memo: std::collections::HashMap::with_capacity(512),
        };
        let v = value(up) as u32;
        w.from(v, v == 1, 1, 0)
    }

    /// The exact engine's dealer distribution for a depleted shoe is every way the dealer can
    /// draw from it, enumerated here from the rules alone.
    #[test]
    fn the_model_follows_the_exact_ev_of_tilted_and_dealt_shoes() {
        // The basic chart's EV at a shoe, as `verify` models it (first order in the
        // composition, bent along the gradient, moved by the shoe's size), against its exact
        // EV from that shoe: seed-table shoes with 3 of 8 decks dealt, rich or poor in small
        // cards (Hi-Lo true counts −4 to +8), and shoes dealt at random to 25–85%.
        use super::super::exact::{analyze_shoe, Follow, PostSplit};
        let rules = Rules::seed();
        let linear = ShoeModel::new(&rules, &super::super::kept::Kept::Fresh);
        let table = DealerTable::shared(false);
        let mut shoes = Vec::new();
        for tc in [-4i32, -2, 2, 4, 6, 8] {
            // 160 cards dealt: 37 of them 7–9 as a shoe holds them, the rest 2–6 and
            // tens/aces as the running count 5·tc says.
            let small = ((123 + tc * 5) / 2) as u32;
            let mut shoe = full_shoe(8);
            for k in 0..small {
                shoe[1 + (k as usize % 5)] -= 1;
            }
            for k in 0..37u32 {
                shoe[6 + (k as usize % 3)] -= 1;
            }
            for k in 0..123 - small {
                shoe[if k % 5 == 0 { 0 } else { 9 }] -= 1;
            }
            shoes.push((format!("TC {tc:+}"), shoe));
        }
        let mut rng = crate::rng::chunk_rng(7, 0);
        let mut cards: Vec<usize> = (0..NV)
            .flat_map(|v| vec![v; full_shoe(8)[v] as usize])
            .collect();
        for dealt in [104, 208, 312, 354, 312, 312, 312, 354, 354] {
            for i in (1..cards.len()).rev() {
                cards.swap(i, crate::rng::below(&mut rng, i as u32 + 1) as usize);
            }
            let mut shoe = [0u32; NV];
            for &c in &cards[dealt..] {
                shoe[c] += 1;
            }
            shoes.push((format!("{dealt} dealt at random"), shoe));
        }
        shoes.par_iter().for_each(|(what, shoe)| {
            let exact = analyze_shoe(
                &rules,
                &Follow(&linear.chart),
                table,
                PostSplit::CdzMinus,
                *shoe,
            )
            .ev;
            let model = linear.chart_ev_at(shoe, &linear.tilt(shoe));
            // Along the count's direction within 0.04%; a shoe dealt at random tilts
            // every way, and its second order off the gradient is not modelled (0.3%).
            let within = if what.starts_with("TC") {
                0.0004
            } else {
                0.003
            };
            assert!(
                (model - exact).abs() < within,
                "{what}: exact {exact}, modelled {model}"
            );
        });
    }

    #[test]
    fn the_dealer_from_any_shoe_is_every_draw_the_rules_make() {
        for h17 in [false, true] {
            let mut rules = Rules::seed();
            rules.h17 = h17;
            let table = DealerTable::shared(h17);
            let shoes = [
                full_shoe(8),
                [3, 0, 7, 1, 9, 4, 2, 6, 5, 20],
                [1, 1, 1, 1, 1, 1, 1, 1, 1, 4],
            ];
            for shoe in shoes {
                for up in 0..NV {
                    let mut rest = shoe;
                    if rest[up] == 0 {
                        continue;
                    }
                    rest[up] -= 1;
                    let engine = table.dist(up, &rest);
                    let mine = dealer_probs(&rules, &rest, up as Rank);
                    for (a, b) in engine.iter().zip(mine) {
                        assert!(
                            (a - b).abs() < 1e-12,
                            "up {up} {shoe:?}: {engine:?} vs {mine:?}"
                        );
                    }
                }
            }
        }
    }
}
