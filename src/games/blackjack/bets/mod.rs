//! Bets in money (`strategies bets blackjack`): CVCX's optimal bets. From a count table
//! (share, EV and variance per unit at each count, `ramp::CountRow`), a bankroll, the table's
//! minimum and maximum and a chip: the bet at each count in money, and what the sheet gives
//! (EV and SD per round and per hour, lifetime and trip risk of ruin, N0, SCORE).
//!
//! The bets follow Kelly's shape: at each count a bet proportional to e/v (the EV over the
//! variance per unit bet there), the table minimum where the EV is not above 0 (the player
//! plays every round he is dealt). The shape is made non-decreasing first (a weighted
//! monotone fit: a noisy row whose e/v falls below the row before it is pooled with it), so
//! that bets never fall as the count rises. One factor, the scale, multiplies the shape; the
//! result is clipped to the table's limits and rounded to the nearest allowed bet (the
//! minimum plus whole chips, up to the maximum). With `Sizing::Kelly(k)` the scale is k times
//! the bankroll (bets k·B·e/v); with `Sizing::TargetRor(r)` it is searched: every scale at
//! which some bet changes is tried, and the sheet kept is the one of the largest scale whose
//! lifetime risk of ruin, e^(−2·EV·B/Var) with EV and Var per round from the rows, is not above
//! the target. The next sheet up (one chip more at some count) is then above the target.
//! As the scale rises only bets at counts of positive EV grow, so the EV never falls: the
//! sheet kept is the one of the largest EV among these sheets within the target.

mod render;
mod trips;

use serde::Serialize;

use crate::numparse::written;

use super::ramp::{isotonic, stats, CountRow, TableSource};
pub use render::render;
pub use trips::{play_trips, TripOutcome, TRIP_CHUNK};

/// Errors of `strategies bets` (exit code 2), each naming its flag and what to give.
#[derive(Debug, thiserror::Error)]
pub enum BetsError {
    #[error("--bankroll {}: the bankroll must be an amount of money from the table minimum to {MAX_MONEY:e}, e.g. --bankroll 10000", written(*.0))]
    Bankroll(f64),
    #[error("--table-min {}: the table minimum must be a positive amount of money of at most {MAX_MONEY:e}, e.g. --table-min 25", written(*.0))]
    TableMin(f64),
    #[error("--table-max {}: the table maximum must be from the table minimum ({}) to {MAX_MONEY:e}, e.g. --table-max 1000", written(*.max), written(*.min))]
    TableMax { min: f64, max: f64 },
    #[error("--chip {}: the chip must be a positive amount of money of at most {MAX_MONEY:e}, e.g. --chip 5 (bets are the table minimum plus whole chips)", written(*.0))]
    Chip(f64),
    #[error("--chip {}: {} chips between the table minimum and maximum; give a chip of at least (max - min)/{MAX_STEPS}", written(*.chip), written(*.steps))]
    TooManySteps { chip: f64, steps: f64 },
    #[error("--kelly {}: expected a fraction of Kelly above 0 and at most 10, e.g. 0.5", written(*.0))]
    Kelly(f64),
    #[error("--rounds-per-hour {}: expected more than 0 and at most 10000", written(*.0))]
    RoundsPerHour(f64),
    #[error("--trip-rounds {0}: expected 1 to {MAX_TRIP_ROUNDS} rounds")]
    TripRounds(u64),
    #[error("--bets-out: the chip ({0}) does not divide the table minimum ({1}), so the bets are no whole number of one unit a ramp could bet; give a chip that divides the minimum")]
    NoRamp(f64, f64),
    #[error("--trials {0}: give 0 (no simulated check) or from 100 to {MAX_TRIALS} trips")]
    Trials(u64),
}

/// The most money of any amount of a sheet (bankroll, limits, chip): far beyond any table,
/// and where an amount is still exact to the cent.
pub const MAX_MONEY: f64 = 1e15;
/// Most bets between the table minimum and maximum (chips steps).
pub const MAX_STEPS: f64 = 100_000.0;
/// Most rounds of a trip and most simulated trips.
pub const MAX_TRIP_ROUNDS: u64 = 10_000_000;
pub const MAX_TRIALS: u64 = 10_000_000;

/// The money of a sheet, in the player's currency.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Money {
    pub bankroll: f64,
    pub table_min: f64,
    pub table_max: f64,
    /// Bets are the table minimum plus whole chips (up to the maximum).
    pub chip: f64,
}

impl Money {
    pub fn validate(&self) -> Result<(), BetsError> {
        let ok = |x: f64| x.is_finite() && x > 0.0 && x <= MAX_MONEY;
        if !ok(self.table_min) {
            return Err(BetsError::TableMin(self.table_min));
        }
        if !(self.table_max.is_finite()
            && self.table_max >= self.table_min
            && self.table_max <= MAX_MONEY)
        {
            return Err(BetsError::TableMax {
                min: self.table_min,
                max: self.table_max,
            });
        }
        if !ok(self.chip) {
            return Err(BetsError::Chip(self.chip));
        }
        let steps = (self.table_max - self.table_min) / self.chip;
        if steps > MAX_STEPS {
            return Err(BetsError::TooManySteps {
                chip: self.chip,
                steps: steps.floor(),
            });
        }
        if !ok(self.bankroll) || self.bankroll < self.table_min {
            return Err(BetsError::Bankroll(self.bankroll));
        }
        Ok(())
    }

    /// The number of chips the largest bet is above the minimum.
    pub fn top_step(&self) -> u64 {
        ((self.table_max - self.table_min) / self.chip * (1.0 + 1e-12)).floor() as u64
    }

    /// The bet of `k` chips above the minimum.
    pub fn bet(&self, k: u64) -> f64 {
        self.table_min + k as f64 * self.chip
    }

    /// The allowed bet nearest `x` (halves up): x clipped to the table, rounded to chips.
    pub fn round(&self, x: f64) -> f64 {
        let k = ((x - self.table_min) / self.chip + 0.5).floor();
        self.bet(k.clamp(0.0, self.top_step() as f64) as u64)
    }

    /// Whether every chip divides the minimum (the bets are then whole chips).
    pub fn chip_divides_min(&self) -> bool {
        let r = self.table_min / self.chip;
        (r - r.round()).abs() < 1e-9
    }

    /// Whether the bets are whole numbers of chips a ramp can bet (the chip divides the
    /// minimum, and the maximum is at most `MAX_UNITS` chips).
    pub fn as_units(&self) -> bool {
        self.chip_divides_min() && self.table_max / self.chip <= super::count::MAX_UNITS as f64
    }
}

/// How the bets are sized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sizing {
    /// The sheet of the largest scale whose lifetime risk of ruin is not above this.
    TargetRor(f64),
    /// k·B·e/v.
    Kelly(f64),
}

/// What the bets command was asked.
#[derive(Clone, Debug)]
pub struct BetsRequest {
    pub money: Money,
    pub sizing: Sizing,
    /// Rounds dealt per hour at the table.
    pub rounds_per_hour: f64,
    /// A trip of this many rounds played: its risk of ruin, and the simulated check.
    pub trip_rounds: Option<u64>,
    /// Simulated trips of the check (0: none).
    pub trials: u64,
    pub seed: u64,
}

impl BetsRequest {
    pub fn validate(&self) -> Result<(), BetsError> {
        self.money.validate()?;
        if let Sizing::Kelly(k) = self.sizing {
            if !(k.is_finite() && k > 0.0 && k <= 10.0) {
                return Err(BetsError::Kelly(k));
            }
        }
        let r = self.rounds_per_hour;
        if !(r.is_finite() && r > 0.0 && r <= 10_000.0) {
            return Err(BetsError::RoundsPerHour(r));
        }
        if let Some(n) = self.trip_rounds {
            if n == 0 || n > MAX_TRIP_ROUNDS {
                return Err(BetsError::TripRounds(n));
            }
        }
        if self.trials != 0 && !(100..=MAX_TRIALS).contains(&self.trials) {
            return Err(BetsError::Trials(self.trials));
        }
        Ok(())
    }
}

/// Kelly's shape at every row: e/v where the EV is above 0 (else 0) over the rows played,
/// made non-decreasing by a monotone fit weighted by each row's rounds times its variance; a
/// row not played takes the shape of the played row below it (0 below every played row).
pub fn kelly_shape(rows: &[CountRow]) -> Vec<f64> {
    let played: Vec<&CountRow> = rows.iter().filter(|r| r.played > 0).collect();
    let raw: Vec<f64> = played
        .iter()
        .map(|r| {
            if r.ev > 0.0 && r.variance > 0.0 {
                r.ev / r.variance
            } else {
                0.0
            }
        })
        .collect();
    let w: Vec<f64> = played
        .iter()
        .map(|r| r.played as f64 * r.variance.max(1e-12))
        .collect();
    let fit = isotonic(&raw, &w);
    let (mut j, mut last) = (0, 0.0);
    rows.iter()
        .map(|r| {
            if r.played > 0 {
                last = fit[j];
                j += 1;
            }
            last
        })
        .collect()
}

/// The bets of `scale` times the shape, clipped and rounded (the minimum where the shape is
/// 0).
pub fn sheet_at(money: &Money, shape: &[f64], scale: f64) -> Vec<f64> {
    shape.iter().map(|&w| money.round(scale * w)).collect()
}

/// A sheet's figures per round played, in money: EV, variance, and the lifetime risk of ruin
/// of the bankroll.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PerRound {
    pub ev: f64,
    pub sd: f64,
    pub ror: f64,
}

pub fn per_round(rows: &[CountRow], bets: &[f64], bankroll: f64) -> PerRound {
    let s = stats(rows, bets, bankroll);
    PerRound {
        ev: s.ev_per_round,
        sd: s.sd_per_round,
        ror: s.ror,
    }
}

/// The scales at which some bet changes, ascending: where scale × shape crosses the middle
/// between two allowed bets at a row of positive shape; with 0 (every bet the minimum) first.
pub fn breakpoints(money: &Money, shape: &[f64]) -> Vec<f64> {
    let mut w: Vec<f64> = shape.iter().copied().filter(|&w| w > 0.0).collect();
    w.sort_by(f64::total_cmp);
    w.dedup();
    let mut s = vec![0.0];
    for &x in &w {
        for k in 0..money.top_step() {
            let mid = money.bet(k) + money.chip / 2.0;
            // Just above the middle: the bet there rounds up.
            s.push(mid / x * (1.0 + 1e-12));
        }
    }
    s.sort_by(f64::total_cmp);
    s.dedup();
    s
}

/// The result of the search for a target risk of ruin.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub scale: f64,
    pub bets: Vec<f64>,
    /// Whether the sheet's risk is within the target (else it is the sheet of least risk).
    pub met: bool,
    /// The next sheet up (the first larger scale that changes a bet), whose risk is above the
    /// target; none when every bet at a positive count is the table maximum, or when the
    /// target is not met.
    pub next: Option<(f64, Vec<f64>)>,
    /// Sheets evaluated.
    pub tried: usize,
}

/// The sheet of the largest scale whose lifetime risk of ruin is at most `target`; when no
/// sheet reaches it, the sheet of least risk (the first of them).
pub fn search(rows: &[CountRow], money: &Money, shape: &[f64], target: f64) -> Found {
    let scales = breakpoints(money, shape);
    let mut sheets: Vec<(f64, Vec<f64>, f64)> = Vec::new();
    for &s in &scales {
        let b = sheet_at(money, shape, s);
        if sheets.last().is_some_and(|l| l.1 == b) {
            continue;
        }
        let r = per_round(rows, &b, money.bankroll).ror;
        sheets.push((s, b, r));
    }
    let within = sheets.iter().rposition(|x| x.2 <= target);
    let least = (0..sheets.len())
        .min_by(|&a, &b| sheets[a].2.total_cmp(&sheets[b].2))
        .unwrap_or(0);
    let i = within.unwrap_or(least);
    Found {
        scale: sheets[i].0,
        bets: sheets[i].1.clone(),
        met: within.is_some(),
        next: within
            .and_then(|i| sheets.get(i + 1))
            .map(|x| (x.0, x.1.clone())),
        tried: sheets.len(),
    }
}

/// One count of the sheet.
#[derive(Clone, Debug, Serialize)]
pub struct SheetRow {
    pub tc: i32,
    /// Share of the rounds played at this count (0 for a count not played).
    pub share: f64,
    pub played: u64,
    /// EV and variance per unit bet here (the table's).
    pub ev: f64,
    /// The SE of `ev`, √(variance / played) (infinite where not played).
    pub se: f64,
    pub variance: f64,
    /// The scale times Kelly's shape: the bet before the table's limits and the chips.
    pub kelly_bet: f64,
    /// The bet, in money, and in table minimums.
    pub bet: f64,
    pub bet_units: f64,
}

/// The sheet's figures, in money.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    pub ev_per_round: f64,
    /// The SE of the EV from the table's rows (each row's EV SE √(v/n), rounds taken as
    /// independent), and the lifetime risk of ruin at the EV 2 SE below and above.
    pub ev_per_round_se: f64,
    pub ror_range: [f64; 2],
    pub sd_per_round: f64,
    /// Average bet of a round played.
    pub avg_bet: f64,
    /// Rounds played per hour (rounds dealt less those sat out, per the table's rounds).
    pub rounds_played_per_hour: f64,
    pub ev_per_hour: f64,
    pub sd_per_hour: f64,
    /// e^(−2·EV·B/Var), 1 when EV ≤ 0.
    pub ror: f64,
    /// 10^6 (EV/SD)², signed.
    pub score: f64,
    /// (SD/EV)² rounds and its hours (null unless EV > 0).
    pub n0_rounds: f64,
    pub n0_hours: f64,
    /// The bankroll whose lifetime risk is the target with these bets (target mode, EV > 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bankroll_for_target: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trip: Option<TripRisk>,
}

/// The risk of ruin within a trip.
#[derive(Clone, Debug, Serialize)]
pub struct TripRisk {
    pub rounds: u64,
    pub hours: f64,
    /// The Brownian formula with the finite-horizon term.
    pub ror: f64,
    /// Simulated trips (with `trials` above 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated: Option<TripOutcome>,
}

/// The bets report's model (its JSON).
#[derive(Clone, Debug, Serialize)]
pub struct BetsModel {
    #[serde(flatten)]
    pub table: TableSource,
    #[serde(flatten)]
    pub money: Money,
    pub rounds_per_hour: f64,
    /// "target-ror" or "kelly".
    pub sizing: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ror: Option<f64>,
    /// The scale over the bankroll: the multiple of Kelly the bets are before the limits.
    pub kelly_fraction: f64,
    /// Target mode: the lifetime risk is within the target (else the sheet is the one of
    /// least risk and this is false).
    pub target_met: bool,
    /// Target mode: the next sheet up and its risk (above the target), absent when the table
    /// maximum binds at every positive count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_sheet: Option<NextSheet>,
    pub sheets_tried: usize,
    pub sheet: Vec<SheetRow>,
    #[serde(flatten)]
    pub figures: Figures,
    /// The bets as a ramp in units of `ramp_unit` (money), when each bet is a whole number of
    /// them (every chip divides the minimum).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ramp_unit: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ramp: Option<String>,
    /// Rows whose EV's SE was above `pool_se` merged into their neighbour toward the middle.
    pub pool_se: f64,
    pub rows_pooled: usize,
    /// The sheet's SCORE on an independent table from this seed (a simulated table only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_second_seed: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NextSheet {
    pub kelly_fraction: f64,
    pub bets: Vec<f64>,
    pub ev_per_round: f64,
    pub ror: f64,
}

/// The sheet's bets and how they were found: (scale, bets, met, next, tried).
type Sized = (f64, Vec<f64>, bool, Option<(f64, Vec<f64>)>, usize);

fn size(rows: &[CountRow], req: &BetsRequest, shape: &[f64]) -> Sized {
    let m = &req.money;
    match req.sizing {
        Sizing::Kelly(k) => {
            let s = k * m.bankroll;
            (s, sheet_at(m, shape, s), true, None, 1)
        }
        Sizing::TargetRor(r) => {
            let f = search(rows, m, shape, r);
            (f.scale, f.bets, f.met, f.next, f.tried)
        }
    }
}

/// The figures of `bets` at `rows` for the request, with the rounds played per round dealt.
fn figures(rows: &[CountRow], bets: &[f64], req: &BetsRequest, played_share: f64) -> Figures {
    use crate::risk::{bankroll_for_ror, n0, ruin_probability, score};
    let pr = per_round(rows, bets, req.money.bankroll);
    let n: f64 = rows.iter().map(|r| r.played as f64).sum::<f64>().max(1.0);
    let avg_bet = rows
        .iter()
        .zip(bets)
        .map(|(r, b)| r.played as f64 / n * b)
        .sum();
    let se = rows
        .iter()
        .zip(bets)
        .filter(|(r, _)| r.played > 0)
        .map(|(r, b)| (r.played as f64 / n * b).powi(2) * r.variance / r.played as f64)
        .sum::<f64>()
        .sqrt();
    let ror_at = |ev: f64| ruin_probability(ev, pr.sd, req.money.bankroll, None);
    let pph = req.rounds_per_hour * played_share;
    let n0r = n0(pr.ev, pr.sd);
    let target = match req.sizing {
        Sizing::TargetRor(t) => Some(t),
        Sizing::Kelly(_) => None,
    };
    Figures {
        ev_per_round: pr.ev,
        ev_per_round_se: se,
        ror_range: [ror_at(pr.ev + 2.0 * se), ror_at(pr.ev - 2.0 * se)],
        sd_per_round: pr.sd,
        avg_bet,
        rounds_played_per_hour: pph,
        ev_per_hour: pr.ev * pph,
        sd_per_hour: pr.sd * pph.sqrt(),
        ror: pr.ror,
        score: score(pr.ev, pr.sd),
        n0_rounds: n0r,
        n0_hours: n0r / pph,
        bankroll_for_target: target.and_then(|t| bankroll_for_ror(pr.ev, pr.sd * pr.sd, t)),
        trip: req.trip_rounds.map(|t| TripRisk {
            rounds: t,
            hours: t as f64 / pph,
            ror: ruin_probability(pr.ev, pr.sd, req.money.bankroll, Some(t as f64)),
            simulated: None,
        }),
    }
}

/// The ramp of whole units that plays `bets` (a unit of the chip, when it divides the
/// minimum): the unit and the ramp `--ramp` reads.
pub fn as_ramp(rows: &[CountRow], bets: &[f64], money: &Money) -> Option<(f64, String)> {
    if !money.as_units() {
        return None;
    }
    let unit = money.chip;
    let units: Vec<u32> = bets
        .iter()
        .map(|b| {
            (b / unit)
                .round()
                .clamp(1.0, super::count::MAX_UNITS as f64) as u32
        })
        .collect();
    let ramp = super::ramp::ramp_of(rows, &units);
    Some((unit, ramp.to_string()))
}

/// The bets model of a count table (`rows` sorted by count); `played_share` is the share of
/// the rounds dealt that the table's player played (1 without wonging).
/// The simulated trips show progress on a terminal when `show` (and they last).
pub fn bets_model(
    table: TableSource,
    rows: Vec<CountRow>,
    played_share: f64,
    req: &BetsRequest,
    show: bool,
    fit: &super::ramp::FitTable,
) -> BetsModel {
    let (rows, rows_pooled) = super::ramp::pool_tails(rows, fit.max_se);
    // A count not played (sat out) has no EV or variance: it weighs nothing.
    let rows: Vec<CountRow> = rows
        .into_iter()
        .map(|r| match r.played {
            0 => CountRow {
                ev: 0.0,
                variance: 0.0,
                ..r
            },
            _ => r,
        })
        .collect();
    let shape = kelly_shape(&rows);
    let (scale, bets, met, next, tried) = size(&rows, req, &shape);
    let mut figures = figures(&rows, &bets, req, played_share);
    if let (Some(trip), true) = (figures.trip.as_mut(), req.trials > 0) {
        let bar = crate::progress::Progress::new(show, req.trials, "bankroll trips", "trips");
        trip.simulated = Some(play_trips(
            &rows,
            &bets,
            req.money.bankroll,
            trips::Course::trip(trip.rounds),
            req.trials,
            req.seed,
            &bar,
        ));
        bar.finish();
    }
    let n: f64 = rows.iter().map(|r| r.played as f64).sum::<f64>().max(1.0);
    let m = &req.money;
    let sheet = rows
        .iter()
        .zip(&shape)
        .zip(&bets)
        .map(|((r, &w), &b)| SheetRow {
            tc: r.tc,
            share: r.played as f64 / n,
            played: r.played,
            ev: r.ev,
            se: r.se(),
            variance: r.variance,
            kelly_bet: scale * w,
            bet: b,
            bet_units: b / m.table_min,
        })
        .collect();
    let next_sheet = next.map(|(s, b)| {
        let pr = per_round(&rows, &b, m.bankroll);
        NextSheet {
            kelly_fraction: s / m.bankroll,
            bets: b,
            ev_per_round: pr.ev,
            ror: pr.ror,
        }
    });
    let ramp = as_ramp(&rows, &bets, m);
    let score_second_seed = fit.holdout.as_ref().map(|h| {
        let on = super::ramp::bets_on(&rows, &bets, &h.rows);
        self::figures(&h.rows, &on, req, played_share).score
    });
    BetsModel {
        pool_se: fit.max_se,
        rows_pooled,
        second_seed: fit.holdout.as_ref().map(|h| h.seed),
        score_second_seed,
        table,
        money: *m,
        rounds_per_hour: req.rounds_per_hour,
        sizing: match req.sizing {
            Sizing::TargetRor(_) => "target-ror",
            Sizing::Kelly(_) => "kelly",
        },
        target_ror: match req.sizing {
            Sizing::TargetRor(t) => Some(t),
            Sizing::Kelly(_) => None,
        },
        kelly_fraction: scale / m.bankroll,
        target_met: met,
        next_sheet,
        sheets_tried: tried,
        sheet,
        figures,
        ramp_unit: ramp.as_ref().map(|r| r.0),
        ramp: ramp.map(|r| r.1),
    }
}

/// The sheet as the ramp file `sim blackjack --ramp` reads (units of the chip), with a
/// header saying how units map to money; none unless the bets are whole chips.
pub fn ramp_file(m: &BetsModel) -> Option<String> {
    let (unit, ramp) = (m.ramp_unit?, m.ramp.as_ref()?);
    let mo = &m.money;
    let mut s = format!(
        "# rtplab bets in money (`rtplab strategies bets blackjack`): bankroll {}, table {} to {}, chips of {}\n# 1 unit = {} (the chip): the table minimum is {} units, the bankroll {} units\n# from {}\n# count: {}\n",
        render::money(mo.bankroll),
        render::money(mo.table_min),
        render::money(mo.table_max),
        render::money(mo.chip),
        render::money(unit),
        (mo.table_min / unit).round(),
        (mo.bankroll / unit).floor(),
        m.table.source,
        m.table.count,
    );
    if let Some(r) = &m.table.rules {
        s += &format!("# rules: {r}\n");
    }
    s += &m.table.file_marker();
    s += "# count:units (the first entry covers every count at or below it, the last every count above it)\n";
    for e in ramp.split(',') {
        s += e;
        s += "\n";
    }
    Some(s)
}

#[cfg(test)]
mod tests;
