//! Optimal bet ramps (`strategies ramp blackjack`): from a counting run's share, EV and
//! variance per count, the ramp that maximises SCORE within a bet spread, beside common
//! linear ramps, and Kelly-proportional bets for a bankroll.
//!
//! A ramp bets `b` units at count `i`. Over the rounds played, with `p` the share of rounds
//! played at each count and `e`, `v` the EV and variance per unit there, a round's EV is
//! `Σ p b e`, its second moment `Σ p b² (v + e²)`, its variance the difference of the second
//! moment and the EV squared, and SCORE is 10^6 EV² / variance (`risk::score`). SCORE does not
//! change when every bet is scaled, so only the spread bounds it: bets run from the minimum
//! (1 unit) to the spread's maximum, never fall as the count rises, and are whole chips.
//!
//! Unconstrained, SCORE is largest for bets proportional to `e / (v + e²)` (Cauchy–Schwarz on
//! the ratio EV² / second moment, which rises with SCORE), the Kelly bet. Within the
//! constraints, for a scale μ the bets closest to μ·e/(v + e²) in the metric the second
//! moment defines are the weighted monotone (isotonic) fit of e/(v + e²), scaled and clipped to
//! the spread; the scale is searched, the result rounded to chips, and then improved by moves
//! of 2^k chip steps, ending with single steps (a step up pushes the counts above it up with
//! it, a step down those below it down) until no step raises SCORE: the ramp written is at
//! least as good as each of its neighbours, and at least as good as each listed ramp within
//! the spread, from which the same search also starts.

use serde::Serialize;

use super::count::{CountError, Ramp};
use crate::report::{count_cell, fixed_cell, pct_cell, Cell, Report, Section};
use crate::risk::{n0, ruin_probability, score};

/// One count of the table a ramp is optimised on (a row of a counting run's
/// `by_true_count`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountRow {
    pub tc: i32,
    /// Share of the rounds observed (dealt) at this count.
    pub share: f64,
    /// Rounds played at this count: its weight among the rounds played.
    pub played: u64,
    /// EV and variance of the net per initial bet (main bet) of the rounds played here.
    pub ev: f64,
    pub variance: f64,
}

impl CountRow {
    /// The SE of `ev` (rounds taken as independent): √(variance / played); infinite for a
    /// count never played.
    pub fn se(&self) -> f64 {
        if self.played == 0 {
            f64::INFINITY
        } else {
            (self.variance / self.played as f64).sqrt()
        }
    }

    /// This row and `other` as one: shares and rounds added, the EV and variance of the
    /// rounds of both; the count `other`'s.
    fn merged_into(&self, other: &CountRow) -> CountRow {
        let played = self.played + other.played;
        // A row never played has no EV (NaN): it adds its share, nothing to the moments.
        let moments = |r: &CountRow| {
            if r.played == 0 {
                return (0.0, 0.0);
            }
            let w = r.played as f64 / played as f64;
            (w * r.ev, w * (r.variance + r.ev * r.ev))
        };
        let ((e1, s1), (e2, s2)) = (moments(self), moments(other));
        let ev = if played == 0 { f64::NAN } else { e1 + e2 };
        let m2 = s1 + s2;
        CountRow {
            tc: other.tc,
            share: self.share + other.share,
            played,
            ev,
            variance: (m2 - ev * ev).max(0.0),
        }
    }
}

/// The table with its noisy tails pooled: while the first (last) row's EV has an SE above
/// `max_se` (a count never played has an infinite one), it is merged into its neighbour toward
/// the middle, which then holds every count beyond it. `max_se` 0 pools nothing. Returns the
/// rows and how many were merged away.
pub fn pool_tails(mut rows: Vec<CountRow>, max_se: f64) -> (Vec<CountRow>, usize) {
    let before = rows.len();
    if max_se > 0.0 {
        while rows.len() > 1 && rows[rows.len() - 1].se() > max_se {
            let last = rows.pop().expect("two rows");
            let inner = rows.last_mut().expect("a row");
            *inner = last.merged_into(inner);
        }
        while rows.len() > 1 && rows[0].se() > max_se {
            let first = rows.remove(0);
            rows[0] = first.merged_into(&rows[0]);
        }
    }
    let merged = before - rows.len();
    (rows, merged)
}

/// The bets at each row of `rows` of the ramp whose bets at `fit`'s rows are `bets` (the
/// first bet below `fit`'s first count, each bet up to the next row's count): a ramp fitted on
/// one table, placed on another of the same count.
pub fn bets_on(fit: &[CountRow], bets: &[f64], rows: &[CountRow]) -> Vec<f64> {
    rows.iter()
        .map(|r| {
            let k = fit.iter().take_while(|f| f.tc <= r.tc).count();
            bets.get(k.saturating_sub(1)).copied().unwrap_or(1.0)
        })
        .collect()
}

/// A second table of the same count from a simulation on another seed: what a fit made on
/// the first is scored on, so that a SCORE that comes from the first table's noise shows.
#[derive(Clone, Debug)]
pub struct Holdout {
    pub seed: u64,
    pub rows: Vec<CountRow>,
    pub rounds_played: u64,
}

/// A ramp's figures per round played, in table minimums (units), from the count table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RampStats {
    pub ev_per_round: f64,
    pub sd_per_round: f64,
    /// 10^6 (EV/SD)², signed (`risk::score`).
    pub score: f64,
    /// (SD/EV)², null unless EV > 0.
    pub n0: f64,
    /// Brownian risk of ruin, ever, of the report's bankroll.
    pub ror: f64,
}

/// The figures of betting `bets[i]` units at `rows[i]`, with `bankroll` units for the risk of
/// ruin.
pub fn stats(rows: &[CountRow], bets: &[f64], bankroll: f64) -> RampStats {
    let n: f64 = rows.iter().map(|r| r.played as f64).sum();
    let (mut m1, mut m2) = (0.0, 0.0);
    for (r, &b) in rows.iter().zip(bets) {
        let p = r.played as f64 / n.max(1.0);
        m1 += p * b * r.ev;
        m2 += p * b * b * (r.variance + r.ev * r.ev);
    }
    let sd = (m2 - m1 * m1).max(0.0).sqrt();
    RampStats {
        ev_per_round: m1,
        sd_per_round: sd,
        score: score(m1, sd),
        n0: n0(m1, sd),
        ror: ruin_probability(m1, sd, bankroll, None),
    }
}

/// The bets (units) a ramp places at each row.
pub fn bets_of(rows: &[CountRow], ramp: &Ramp) -> Vec<f64> {
    rows.iter().map(|r| ramp.units(r.tc) as f64).collect()
}

/// The common linear ramp 1–`max`: 1 unit up to count 0, then equal steps from count +1 to
/// `max` units at +4 (rounded to whole units, halves up).
pub fn linear(max: u32) -> Ramp {
    let step = |k: u32| (1.0 + (max as f64 - 1.0) * k as f64 / 4.0 + 0.5).floor() as u32;
    Ramp((0..=4).map(|k| (k as i32, step(k))).collect())
}

/// The maxima of the common linear ramps listed beside the optimal one.
pub const COMMON_MAXIMA: [u32; 4] = [4, 8, 12, 16];

/// The bet spread and chip of an optimisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spread {
    /// The largest bet, in units (the smallest is 1).
    pub max: u32,
    /// Bets above the minimum are whole multiples of this many units (the maximum is allowed
    /// whatever it is).
    pub chip: u32,
}

impl Spread {
    pub fn validate(&self) -> Result<(), CountError> {
        if self.max < 1 || self.max > super::count::MAX_UNITS {
            return Err(CountError::Option(format!(
                "--spread 1-{}: the largest bet is 1 to {} units",
                self.max,
                super::count::MAX_UNITS
            )));
        }
        if self.chip < 1 || self.chip > self.max.max(1) {
            return Err(CountError::Option(format!(
                "--chip {}: expected 1 to the spread's maximum ({})",
                self.chip, self.max
            )));
        }
        Ok(())
    }

    /// The bets allowed, ascending: 1, the multiples of the chip between, and the maximum.
    fn allowed(&self) -> Vec<u32> {
        let mut v = vec![1];
        let mut k = self.chip;
        while k < self.max {
            if k > 1 {
                v.push(k);
            }
            k += self.chip;
        }
        if self.max > 1 {
            v.push(self.max);
        }
        v
    }
}

/// The optimal ramp and how it was checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Optimum {
    /// Units at each row (rows not played take the bet of the played count below them).
    pub bets: Vec<u32>,
    /// Neighbouring ramps (one chip step at one count) evaluated in the final check, none
    /// better.
    pub neighbours_checked: usize,
}

/// Weighted isotonic (non-decreasing) regression by pooling adjacent violators.
pub(super) fn isotonic(y: &[f64], w: &[f64]) -> Vec<f64> {
    // Blocks of (mean, weight, length).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for (&y, &w) in y.iter().zip(w) {
        blocks.push((y, w.max(1e-300), 1));
        while blocks.len() > 1 {
            let (b, a) = (blocks[blocks.len() - 1], blocks[blocks.len() - 2]);
            if a.0 <= b.0 {
                break;
            }
            blocks.pop();
            let w = a.1 + b.1;
            *blocks.last_mut().expect("two blocks") = ((a.0 * a.1 + b.0 * b.1) / w, w, a.2 + b.2);
        }
    }
    blocks
        .iter()
        .flat_map(|&(m, _, n)| std::iter::repeat_n(m, n))
        .collect()
}

/// SCORE of integer bets on the played rows.
fn score_of(rows: &[CountRow], bets: &[u32]) -> f64 {
    let b: Vec<f64> = bets.iter().map(|&x| x as f64).collect();
    stats(rows, &b, 1.0).score
}

/// The ramp that maximises SCORE on `rows` (sorted by count) within `spread`, starting the
/// final search also from each of `starts` (ramps whose bets lie within the spread).
pub fn optimise(rows: &[CountRow], spread: Spread, starts: &[Ramp]) -> Optimum {
    optimise_within(rows, spread, starts, None)
}

/// `optimise` with every bet at most `max_jump` times the bet at the count below it (none: no
/// limit). Each start is cut to the limit from the bottom up, and the search refuses a move
/// that breaks it.
pub fn optimise_within(
    rows: &[CountRow],
    spread: Spread,
    starts: &[Ramp],
    max_jump: Option<f64>,
) -> Optimum {
    let played: Vec<CountRow> = rows.iter().filter(|r| r.played > 0).cloned().collect();
    let allowed = spread.allowed();
    let max = spread.max as f64;
    // Kelly targets e / (v + e²), made non-decreasing (weights: the second moment's).
    let second: Vec<f64> = played.iter().map(|r| r.variance + r.ev * r.ev).collect();
    let target: Vec<f64> = played
        .iter()
        .zip(&second)
        .map(|(r, &s)| if s > 0.0 { r.ev / s } else { 0.0 })
        .collect();
    let weight: Vec<f64> = played
        .iter()
        .zip(&second)
        .map(|(r, &s)| r.played as f64 * s)
        .collect();
    let fit = isotonic(&target, &weight);
    let top = fit.iter().cloned().fold(0.0, f64::max);
    let flat = vec![1.0; played.len()];
    let mut best = (stats(&played, &flat, 1.0).score, flat);
    if top > 0.0 {
        // The scale: the largest target bet from a thousandth of the maximum to a thousand
        // times it, on a logarithmic grid.
        for k in -600..=600 {
            let mu = max / top * 10f64.powf(k as f64 / 200.0);
            let b: Vec<f64> = fit.iter().map(|&t| (mu * t).clamp(1.0, max)).collect();
            let s = stats(&played, &b, 1.0).score;
            if s > best.0 {
                best = (s, b);
            }
        }
    }
    // The nearest allowed bet (the list is sorted).
    let round = |x: f64| -> u32 {
        let k = allowed.partition_point(|&a| (a as f64) < x);
        let near = [k.saturating_sub(1), k.min(allowed.len() - 1)];
        let pick = near.into_iter().min_by(|&a, &b| {
            (allowed[a] as f64 - x)
                .abs()
                .total_cmp(&(allowed[b] as f64 - x).abs())
        });
        allowed[pick.unwrap_or(0)]
    };
    let mut candidates: Vec<Vec<u32>> = vec![best.1.iter().map(|&x| round(x)).collect()];
    for r in starts {
        candidates.push(played.iter().map(|p| round(r.units(p.tc) as f64)).collect());
    }
    let (mut top_bets, mut top_score, mut checked) = (Vec::new(), f64::NEG_INFINITY, 0);
    if let Some(k) = max_jump {
        // From the bottom too: the minimum to some count, there a first raise, then the
        // largest steps the limit allows, for every count and first raise within the limit.
        let steepest = |from: usize, first: u32| -> Vec<u32> {
            let mut c = vec![1; played.len()];
            for j in from..c.len() {
                c[j] = if j == from {
                    first
                } else {
                    let cap = k * c[j - 1] as f64 + 1e-9;
                    allowed[allowed
                        .partition_point(|&a| a as f64 <= cap)
                        .saturating_sub(1)]
                };
            }
            c
        };
        for from in 0..played.len() {
            for &first in allowed.iter().filter(|&&a| a as f64 <= k + 1e-9) {
                candidates.push(steepest(from, first));
            }
        }
    }
    for c in candidates {
        let c = cut_to_jump(&allowed, c, max_jump);
        let (b, n) = climb(&played, &allowed, c, max_jump);
        let s = score_of(&played, &b);
        if s > top_score {
            (top_bets, top_score, checked) = (b, s, n);
        }
    }
    // Every row: a count not played takes the bet of the played count below it.
    let mut bets = Vec::with_capacity(rows.len());
    let (mut j, mut last) = (0, 1);
    for r in rows {
        if r.played > 0 {
            last = top_bets[j];
            j += 1;
        }
        bets.push(last);
    }
    Optimum {
        bets,
        neighbours_checked: checked,
    }
}

/// Hill-climb from `bets` (each one of `allowed`, sorted) until no move raises SCORE: moves of
/// a count's bet by a number of allowed steps, from the largest power of two down to one step
/// (a move up pushes the counts above it up with it, a move down those below it down, so the
/// ramp keeps rising); the bets and the single-step neighbours evaluated in the last pass.
fn climb(
    rows: &[CountRow],
    allowed: &[u32],
    mut bets: Vec<u32>,
    max_jump: Option<f64>,
) -> (Vec<u32>, usize) {
    let pos = |x: u32| allowed.binary_search(&x).unwrap_or(0);
    let mut current = score_of(rows, &bets);
    let mut stride = allowed.len().next_power_of_two();
    loop {
        let mut checked = 0;
        let mut improved = false;
        for i in 0..bets.len() {
            for up in [true, false] {
                let k = pos(bets[i]);
                let to = match up {
                    true if k + stride < allowed.len() => allowed[k + stride],
                    false if k >= stride => allowed[k - stride],
                    _ => continue,
                };
                let mut next = bets.clone();
                next[i] = to;
                for (j, b) in next.iter_mut().enumerate() {
                    if (up && j > i && *b < to) || (!up && j < i && *b > to) {
                        *b = to;
                    }
                }
                // Within a jump limit a raise pulls the counts below it up as far as the limit
                // needs, and a cut pulls those above it down.
                next = pulled_to_jump(allowed, next, i, up, max_jump);
                if next == bets || !within_jump(&next, max_jump) {
                    continue;
                }
                checked += 1;
                let s = score_of(rows, &next);
                // Relative to |SCORE|: a negative SCORE scaled by 1 + 1e-12 would make a move
                // that only rescales every bet (the same SCORE) look like a gain, for ever.
                if s > current + current.abs() * 1e-12 + 1e-15 {
                    (bets, current, improved) = (next, s, true);
                }
            }
        }
        match (improved, stride) {
            (false, 1) => return (bets, checked),
            (false, _) => stride /= 2,
            (true, _) => {}
        }
    }
}

/// Whether no bet is more than `max_jump` times the one before it.
fn within_jump(bets: &[u32], max_jump: Option<f64>) -> bool {
    max_jump.is_none_or(|k| {
        bets.windows(2)
            .all(|w| w[1] as f64 <= k * w[0] as f64 + 1e-9)
    })
}

/// `bets` cut to the jump limit from the bottom up: each bet at most `max_jump` times the one
/// before it (the largest allowed bet within that), so the ramp still rises.
fn cut_to_jump(allowed: &[u32], mut bets: Vec<u32>, max_jump: Option<f64>) -> Vec<u32> {
    let Some(k) = max_jump else {
        return bets;
    };
    for i in 1..bets.len() {
        let cap = k * bets[i - 1] as f64 + 1e-9;
        if bets[i] as f64 > cap {
            let fit = allowed.partition_point(|&a| a as f64 <= cap);
            bets[i] = allowed[fit.saturating_sub(1)].max(bets[i - 1]);
        }
    }
    bets
}

/// `bets` after a move at row `i` (`up`: a raise) made to keep within the jump limit: below a
/// raise each bet at least the smallest allowed one the limit lets the next reach; above a cut
/// each bet at most the largest the limit lets it reach from the one before.
fn pulled_to_jump(
    allowed: &[u32],
    mut bets: Vec<u32>,
    i: usize,
    up: bool,
    max_jump: Option<f64>,
) -> Vec<u32> {
    let Some(k) = max_jump else {
        return bets;
    };
    if up {
        for j in (0..i).rev() {
            let need = bets[j + 1] as f64 / k - 1e-9;
            if (bets[j] as f64) < need {
                let at = allowed.partition_point(|&a| (a as f64) < need);
                bets[j] = allowed[at.min(allowed.len() - 1)].min(bets[j + 1]);
            }
        }
    } else {
        for j in i + 1..bets.len() {
            let cap = k * bets[j - 1] as f64 + 1e-9;
            if bets[j] as f64 > cap {
                let fit = allowed.partition_point(|&a| a as f64 <= cap);
                bets[j] = allowed[fit.saturating_sub(1)].max(bets[j - 1]);
            }
        }
    }
    bets
}

/// A ramp's largest jump: the largest ratio of the bets at two neighbouring counts, the first
/// of the largest (counts where it bets 0, sitting out, are left out: entering is no raise).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Jump {
    pub ratio: f64,
    /// The count the raise is made at, and the bets below and at it.
    pub tc: i32,
    pub from: f64,
    pub to: f64,
}

/// The jump a casino is taken to notice: a raise of more than double from one bet to the next.
/// A judgement, not a measured figure: the counting books' cover advice is to raise at most
/// to double, as a player who lets a won bet ride (a parlay) does, and a raise beyond it is
/// the pattern a pit watches for.
pub const NOTICED_JUMP: f64 = 2.0;

/// The largest jump of the bets `points` (count, bet) in the order of the counts.
pub fn largest_jump(points: &[(i32, f64)]) -> Option<Jump> {
    let bets: Vec<(i32, f64)> = points.iter().copied().filter(|p| p.1 > 0.0).collect();
    let mut best: Option<Jump> = None;
    for w in bets.windows(2) {
        let ratio = w[1].1 / w[0].1;
        if ratio > 1.0 && best.is_none_or(|b| ratio > b.ratio + 1e-12) {
            best = Some(Jump {
                ratio,
                tc: w[1].0,
                from: w[0].1,
                to: w[1].1,
            });
        }
    }
    best
}

/// The largest jump of a ramp (between its entries).
pub fn ramp_jump(ramp: &Ramp) -> Option<Jump> {
    let points: Vec<(i32, f64)> = ramp.0.iter().map(|&(c, u)| (c, u as f64)).collect();
    largest_jump(&points)
}

/// The words on a ramp's largest jump, with the warning where a casino notices it.
pub fn jump_words(j: Option<Jump>, what: &str) -> String {
    let mut c = what.chars();
    let what_up: String = c
        .next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default();
    match j {
        None => format!("{what_up} never raises its bet: no jump."),
        Some(j) if j.ratio > NOTICED_JUMP + 1e-9 => format!(
            "Warning: {what} jumps x{:.2} at {:+} ({} to {}); a casino notices a raise above x{} (a judgement: cover raises at most to double, as a parlay does), and may back the player off. --max-jump {} fits a ramp within it.",
            j.ratio, j.tc, j.from, j.to, NOTICED_JUMP, NOTICED_JUMP
        ),
        Some(j) => format!(
            "{what_up}'s largest jump: x{:.2} at {:+} ({} to {}), within x{} (a judgement of what casinos let pass).",
            j.ratio, j.tc, j.from, j.to, NOTICED_JUMP
        ),
    }
}

/// The ramp of `bets` at `rows`' counts: an entry at the first count and at each change.
pub fn ramp_of(rows: &[CountRow], bets: &[u32]) -> Ramp {
    let mut v: Vec<(i32, u32)> = Vec::new();
    for (r, &b) in rows.iter().zip(bets) {
        if v.last().is_none_or(|&(_, last)| last != b) {
            v.push((r.tc, b));
        }
    }
    if v.is_empty() {
        v.push((0, 1));
    }
    Ramp(v)
}

/// The Kelly bet at a count for `fraction` of Kelly with `bankroll` units: k·B·ev/var where
/// the EV is above 0, else 0 (Kelly bets nothing on a losing count).
pub fn kelly_bet(row: &CountRow, bankroll: f64, fraction: f64) -> f64 {
    if row.ev > 0.0 && row.variance > 0.0 {
        fraction * bankroll * row.ev / row.variance
    } else {
        0.0
    }
}

/// What the ramp command was asked.
#[derive(Clone, Debug)]
pub struct RampRequest {
    pub spread: Spread,
    /// For the Kelly bets: (bankroll in units, fraction of Kelly).
    pub kelly: Option<(f64, f64)>,
    /// The bankroll the risk of ruin is computed for, in units.
    pub ror_bankroll: f64,
    /// Cover: no bet more than this many times the bet at the count below (none: no limit).
    pub max_jump: Option<f64>,
}

/// How a count table is read for a fit: its tails pooled where their EV's SE exceeds
/// `max_se` (0: never), and, when given, a second table to score the fit on.
#[derive(Clone, Debug, Default)]
pub struct FitTable {
    pub max_se: f64,
    pub holdout: Option<Holdout>,
}

/// Where the count table came from, and what it describes.
#[derive(Clone, Debug, Serialize)]
pub struct TableSource {
    /// "a flat-bet simulation of N rounds (seed S)" or "the report FILE".
    pub source: String,
    /// The count line of the run (system, true count, wonging, index plays).
    pub count: String,
    /// "true count" or "running count".
    pub count_key: String,
    /// The rules of the run, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    pub rounds_played: u64,
    /// The simulation was stopped by a signal: the table covers the rounds done.
    pub interrupted: bool,
}

impl TableSource {
    /// The head lines of a report on this table: where it came from, the rules, the count,
    /// and the table's run stopped by a signal.
    pub fn meta(&self) -> Vec<(String, String)> {
        let mut meta = vec![("table from".to_string(), self.source.clone())];
        if let Some(rules) = &self.rules {
            meta.push(("rules".into(), rules.clone()));
        }
        meta.push(("count (table run)".into(), self.count.clone()));
        if let Some(m) = self.marker() {
            meta.push(("status".into(), m));
        }
        meta
    }

    /// "INTERRUPTED: ..." when the table's run was stopped by a signal (this command's
    /// simulation, or the run of the report read): the table, and what is made from it (a
    /// ramp, a sheet of bets), cover only the rounds done before it.
    pub fn marker(&self) -> Option<String> {
        self.interrupted.then(|| {
            format!(
                "INTERRUPTED: the table's run was stopped by a signal; it covers the {} rounds played before it, not the whole run asked for",
                crate::report::count(self.rounds_played)
            )
        })
    }

    /// The marker a plot made from a partial table carries: short, as `svg::mark` expects
    /// (the title beside it), the rest being in the report's status and notes.
    pub fn plot_marker(&self) -> Option<String> {
        self.interrupted.then(|| {
            format!(
                "INTERRUPTED: {} rounds",
                crate::report::count(self.rounds_played)
            )
        })
    }

    /// The header lines a ramp file made from this table carries when the table is partial
    /// (`marker`), so that whoever plays the file later is told (empty otherwise).
    pub fn file_marker(&self) -> String {
        self.marker()
            .map(|m| {
                format!(
                    "# {m}; a whole run's ramp may differ: make it again from a run that ends\n"
                )
            })
            .unwrap_or_default()
    }
}

/// The ramp report's model (its JSON).
#[derive(Clone, Debug, Serialize)]
pub struct RampModel {
    #[serde(flatten)]
    pub table: TableSource,
    /// The spread: [1, max], and the chip.
    pub spread: [u32; 2],
    pub chip: u32,
    pub ror_bankroll: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kelly_bankroll: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kelly_fraction: Option<f64>,
    /// The optimal ramp: its bet at every count of the table, and as `--ramp` reads it.
    pub ramp_optimal: Vec<TcBet>,
    pub ramp_optimal_spec: String,
    /// The optimal ramp's largest jump (null: it never raises).
    pub optimal_jump: Option<Jump>,
    /// The jump limit the optimal ramp was fitted within (`--max-jump`), and the SCORE it
    /// costs: the optimum without it less the optimum within it, on the same table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_jump: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jump_cost: Option<f64>,
    pub neighbours_checked: usize,
    /// The optimal ramp (first) and the common ones, each with its figures.
    pub ramps: Vec<RampLine>,
    pub by_true_count: Vec<RampRow>,
    /// Rows whose EV's SE was above `pool_se` merged into their neighbour toward the middle
    /// (0: none pooled, or pooling off).
    pub pool_se: f64,
    pub rows_pooled: usize,
    /// The seed of the second table each ramp is scored on (`score_second_seed`), and its
    /// rounds played; absent for a table read from a report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_seed_rounds_played: Option<u64>,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct TcBet {
    pub tc: i32,
    pub bet: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct RampLine {
    pub name: String,
    pub ramp: String,
    /// Its largest jump (null: it never raises).
    pub largest_jump: Option<Jump>,
    /// Whether every bet lies within the spread (only those are guaranteed below the
    /// optimal ramp's SCORE).
    pub within_spread: bool,
    #[serde(flatten)]
    pub stats: RampStats,
    /// SCORE of the same ramp on the second seed's table (with one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_second_seed: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RampRow {
    #[serde(flatten)]
    pub row: CountRow,
    /// The SE of `ev` (√(variance / played)).
    pub se: f64,
    pub optimal_bet: u32,
    /// k·B·ev/var units (0 where the EV is not above 0); with a bankroll only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kelly_bet: Option<f64>,
}

/// The ramp model of a count table (`rows` sorted by count).
pub fn ramp_model(
    table: TableSource,
    rows: Vec<CountRow>,
    req: &RampRequest,
    fit: &FitTable,
) -> RampModel {
    let (rows, rows_pooled) = pool_tails(rows, fit.max_se);
    let spread = req.spread;
    let common: Vec<(String, Ramp)> = COMMON_MAXIMA
        .iter()
        .map(|&m| (format!("linear 1-{m}"), linear(m)))
        .collect();
    let within = |r: &Ramp| r.max() <= spread.max;
    let starts: Vec<Ramp> = common.iter().map(|c| c.1.clone()).filter(within).collect();
    let opt = optimise_within(&rows, spread, &starts, req.max_jump);
    let optimal = ramp_of(&rows, &opt.bets);
    let line = |name: String, ramp: &Ramp| RampLine {
        name,
        ramp: ramp.to_string(),
        largest_jump: ramp_jump(ramp),
        within_spread: within(ramp),
        stats: stats(&rows, &bets_of(&rows, ramp), req.ror_bankroll),
        score_second_seed: fit
            .holdout
            .as_ref()
            .map(|h| stats(&h.rows, &bets_of(&h.rows, ramp), req.ror_bankroll).score),
    };
    let mut ramps = vec![match req.max_jump {
        Some(k) => line(
            format!("optimal 1-{}, jumps at most x{k}", spread.max),
            &optimal,
        ),
        None => line(format!("optimal 1-{}", spread.max), &optimal),
    }];
    // Beside a ramp fitted within a jump limit, the optimum without it: the limit's cost.
    let free = req.max_jump.map(|_| {
        let free = optimise(&rows, spread, &starts);
        line(
            format!("optimal 1-{}, no jump limit", spread.max),
            &ramp_of(&rows, &free.bets),
        )
    });
    let jump_cost = free.as_ref().map(|f| f.stats.score - ramps[0].stats.score);
    ramps.extend(free);
    ramps.extend(common.iter().map(|(n, r)| line(n.clone(), r)));
    let by_true_count = rows
        .iter()
        .zip(&opt.bets)
        .map(|(r, &b)| RampRow {
            row: r.clone(),
            se: r.se(),
            optimal_bet: b,
            kelly_bet: req.kelly.map(|(bank, k)| kelly_bet(r, bank, k)),
        })
        .collect();
    RampModel {
        table,
        spread: [1, spread.max],
        chip: spread.chip,
        ror_bankroll: req.ror_bankroll,
        kelly_bankroll: req.kelly.map(|k| k.0),
        kelly_fraction: req.kelly.map(|k| k.1),
        ramp_optimal: rows
            .iter()
            .zip(&opt.bets)
            .map(|(r, &bet)| TcBet { tc: r.tc, bet })
            .collect(),
        ramp_optimal_spec: optimal.to_string(),
        optimal_jump: ramp_jump(&optimal),
        max_jump: req.max_jump,
        jump_cost,
        neighbours_checked: opt.neighbours_checked,
        ramps,
        by_true_count,
        pool_se: fit.max_se,
        rows_pooled,
        second_seed: fit.holdout.as_ref().map(|h| h.seed),
        second_seed_rounds_played: fit.holdout.as_ref().map(|h| h.rounds_played),
    }
}

/// The ramp file `sim blackjack --ramp FILE` reads: a comment header, then one `count:units`
/// entry a line.
pub fn ramp_file(m: &RampModel) -> String {
    let mut s = format!(
        "# rtplab optimal bet ramp (`rtplab strategies ramp blackjack`): SCORE-maximal within a spread of 1-{} units{}\n# from {}\n# count: {}\n",
        m.spread[1],
        if m.chip > 1 {
            format!(", bets in chips of {}", m.chip)
        } else {
            String::new()
        },
        m.table.source,
        m.table.count,
    );
    if let Some(r) = &m.table.rules {
        s += &format!("# rules: {r}\n");
    }
    s += &m.table.file_marker();
    s += "# count:units (the first entry covers every count at or below it, the last every count above it)\n";
    for e in m.ramp_optimal_spec.split(',') {
        s += e;
        s += "\n";
    }
    s
}

/// The ramp's picture (`ramp.svg`): the bet at each count of the optimal ramp and of the
/// listed ramps, each named with its SCORE, with the count's EV per unit beside as a second
/// picture (`ev-by-count.svg`: where the edge turns positive the optimal ramp rises).
pub fn plots(m: &RampModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{bar_chart, line_chart, Bar, BarChart, Line, YUnit};
    let rows: Vec<CountRow> = m.by_true_count.iter().map(|r| r.row.clone()).collect();
    let series: Vec<(String, Vec<(f64, f64)>)> = m
        .ramps
        .iter()
        .filter_map(|l| {
            let ramp = Ramp::parse(&l.ramp).ok()?;
            // A step at each count: the bet holds from half a count below to half above.
            let points = rows
                .iter()
                .zip(bets_of(&rows, &ramp))
                .flat_map(|(r, b)| [(r.tc as f64 - 0.5, b), (r.tc as f64 + 0.5, b)])
                .collect();
            Some((format!("{} (SCORE {:.2})", l.name, l.stats.score), points))
        })
        .collect();
    // The optimal ramp (the first) drawn last, over the listed ramps it crosses.
    let lines: Vec<Line> = series
        .iter()
        .skip(1)
        .chain(series.first())
        .map(|(name, points)| Line {
            name,
            points,
            band: None,
            dots: false,
        })
        .collect();
    let ramp = line_chart(
        &format!("Bet ramps against the count ({})", m.table.count_key),
        "count (the first and last rows hold every count beyond)",
        "bet (units)",
        YUnit::Plain,
        &lines,
        None,
    )?;
    let last = rows.len().saturating_sub(1);
    let bars: Vec<Bar> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            // 95% intervals: ±1.96 SE.
            let half = 1.96 * r.se() * 100.0;
            let label = match i {
                0 if last > 0 => format!("<={:+}", r.tc),
                i if i == last && last > 0 => format!(">={:+}", r.tc),
                _ => format!("{:+}", r.tc),
            };
            Bar::new(label, r.ev * 100.0).with_ci(r.ev * 100.0 - half, r.ev * 100.0 + half)
        })
        .collect();
    let ev = bar_chart(&BarChart {
        title: "EV per unit bet at each count, with 95% intervals (flat-bet table)",
        x_label: "count",
        y_label: "EV per unit (%)",
        y_unit: YUnit::Percent,
        bars: &bars,
        hline: None,
        histogram: false,
    })?;
    let mut out = vec![("ramp.svg".into(), ramp), ("ev-by-count.svg".into(), ev)];
    if let Some(mark) = m.table.plot_marker() {
        for p in &mut out {
            p.1 = crate::report::svg::mark(&p.1, &mark);
        }
    }
    Ok(out)
}

/// The ramps compared on the table: the optimum, its neighbours and the listed ones.
fn ramps_section(m: &RampModel) -> Section {
    let mut s = Section::new(
        &format!(
            "Ramps on the same table (per round played, in units; risk of ruin of {} units)",
            m.ror_bankroll
        ),
        &[
            "ramp",
            "bets (count:units)",
            "EV per round",
            "SD per round",
            "SCORE (signed as EV)",
            "N0",
            "RoR",
            "largest jump",
        ],
    );
    if let Some(seed) = m.second_seed {
        s.columns
            .insert(5, format!("SCORE on seed {seed} (not fitted)"));
    }
    for l in &m.ramps {
        let name = if l.within_spread {
            l.name.clone()
        } else {
            format!("{} (beyond the spread)", l.name)
        };
        let mut cells = vec![
            Cell::from(name),
            Cell::from(l.ramp.as_str()),
            fixed_cell(l.stats.ev_per_round, 5, "units"),
            fixed_cell(l.stats.sd_per_round, 3, "units"),
            fixed_cell(l.stats.score, 2, "score"),
            fixed_cell(l.stats.n0, 0, "rounds"),
            pct_cell(l.stats.ror, 2),
            Cell::from(match l.largest_jump {
                Some(j) => format!("x{:.2} at {:+}", j.ratio, j.tc),
                None => "none".into(),
            }),
        ];
        if let Some(sc) = l.score_second_seed {
            cells.insert(5, fixed_cell(sc, 2, "score"));
        }
        s.row(cells);
    }
    s
}

/// The table by count: each count's share, EV and variance per unit, and the bets.
fn by_count_section(m: &RampModel) -> Section {
    let mut cols = vec![
        "count",
        "share",
        "played",
        "EV per unit",
        "SE",
        "variance per unit",
        "optimal bet",
    ];
    if m.kelly_bankroll.is_some() {
        cols.push("Kelly bet");
    }
    let mut s = Section::new(&format!("By {}", m.table.count_key), &cols);
    let last = m.by_true_count.len().saturating_sub(1);
    for (i, row) in m.by_true_count.iter().enumerate() {
        let c = &row.row;
        // The first and last rows hold every count beyond them.
        let label = match (i, c.tc) {
            (0, k) if last > 0 => format!("<= {k:+}"),
            (i, k) if i == last && last > 0 => format!(">= {k:+}"),
            (_, k) => format!("{k:+}"),
        };
        let mut cells = vec![
            Cell::from(label),
            pct_cell(c.share, 2),
            count_cell(c.played),
            pct_cell(c.ev, 3),
            if row.se.is_finite() {
                pct_cell(row.se, 3)
            } else {
                Cell::from("")
            },
            fixed_cell(c.variance, 3, "units^2"),
            fixed_cell(row.optimal_bet as f64, 0, "units"),
        ];
        if let Some(k) = row.kelly_bet {
            cells.push(fixed_cell(k, 2, "units"));
        }
        s.row(cells);
    }
    s
}

/// How the ramp is optimised, what the figures mean and how to play it.
fn ramp_notes(m: &RampModel) -> Vec<String> {
    let mut notes = vec![format!(
        "Optimisation: the ramp maximises SCORE = 10^6 (EV/SD)^2 per round played, computed from this table (the main bet's EV and variance per unit at each count; insurance not included). SCORE is what a Kelly bettor with a bankroll of 10,000 units expects to win per 100 rounds (Blackjack Attack, CVCX). Constraint: bets from 1 unit to {} units, never falling as the count rises, in chips of {} (the maximum allowed whatever it is). The unconstrained optimum bets in proportion to ev/(var + ev^2) (Kelly); within the constraint that target is made non-decreasing (weighted isotonic fit), scaled and clipped to the spread, the scale searched, the bets rounded to chips, then moved while SCORE rises by 2^k chip steps, k from the largest down to 0 (a move carries the counts beyond it along, so the ramp keeps rising): no single-step neighbour ({} checked) is better, nor is any listed ramp within the spread.",
        m.spread[1], m.chip, m.neighbours_checked
    )];
    notes.push(match m.pool_se {
        p if p > 0.0 => format!(
            "Tails pooled: a first or last count whose EV has an SE above {} (the table's noise there is as large as the EV's rise over about one Hi-Lo count) is merged into its neighbour toward the middle, again until it is not; {} merged here. The first and last rows hold every count beyond them. --pool-se sets the threshold (0: none pooled).",
            crate::report::pct(p, 2),
            crate::report::plural(m.rows_pooled as u64, "row")
        ),
        _ => "Tails not pooled (--pool-se 0): every count of the table is fitted, however few its rounds.".into(),
    });
    notes.push(match m.second_seed {
        Some(seed) => format!(
            "Fit and test: the ramps are fitted on the table of the run's seed and each is scored again on an independent table of the same size from seed {seed} ({} rounds played), which the fit never saw: a SCORE that falls there is the first table's noise fitted.",
            crate::report::count(m.second_seed_rounds_played.unwrap_or(0))
        ),
        None => "A table read from a report (--from) is not scored on a second seed: simulate the table (without --from) to see the fit scored on a table it was not made from.".into(),
    });
    notes.push(jump_words(m.optimal_jump, "the optimal ramp"));
    if let (Some(k), Some(cost)) = (m.max_jump, m.jump_cost) {
        notes.push(format!(
            "Cover (--max-jump {k}): the optimal ramp is fitted with no bet more than {k} times the bet at the count below it (the same search, moves that break the limit refused, also started from the minimum and from the top bet at the first count of positive EV); it costs {cost:.2} in SCORE against the optimum without the limit on this table ({}).",
            match m.ramps.get(1) {
                Some(f) if f.stats.score > 0.0 => format!("{:.1}% of its SCORE", 100.0 * cost / f.stats.score),
                _ => "whose SCORE is not positive".into(),
            }
        ));
    }
    notes.push(
        "Linear 1-M: 1 unit up to count 0, then equal steps from +1 to M units at +4 (whole units). RoR: the Brownian risk of ruin, ever, e^(-2 EV B / SD^2).".into(),
    );
    if let Some((b, k)) = m.kelly_bankroll.zip(m.kelly_fraction) {
        notes.push(format!(
            "Kelly bet = {k} x {b} units x ev/var at each count (0 where the EV is not above 0): the bets that maximise the bankroll's growth at that fraction of Kelly, unconstrained by the spread."
        ));
    }
    notes.push(
        "Play it with `rtplab sim blackjack --ramp FILE` (--ramp-out writes FILE) and the table run's rules and counting options: everything on the count line above but its flat ramp. The table's rows are seat-rounds; wonged-out rounds are not played and weigh nothing.".into(),
    );
    if let Some(mark) = m.table.marker() {
        notes.push(format!(
            "{mark}: the ramp is the optimum for this table, and a whole run's may differ."
        ));
    }
    notes
}

/// The report of a ramp model.
pub fn render(m: &RampModel) -> Report {
    let mut r = Report {
        title: "rtplab blackjack: optimal bet ramp".into(),
        ..Default::default()
    };
    r.meta = m.table.meta();
    r.meta.push((
        "spread".into(),
        format!("1-{} units, chips of {}", m.spread[1], m.chip),
    ));
    r.meta
        .push(("optimal ramp".into(), m.ramp_optimal_spec.clone()));
    r.sections.push(ramps_section(m));
    r.sections.push(by_count_section(m));
    r.notes = ramp_notes(m);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// A Hi-Lo-like table for tests: EV rising 0.5% per count from -0.5% at 0, variance 1.3,
/// shares falling away from 0.
#[cfg(test)]
pub(super) fn hilo_like_table() -> Vec<CountRow> {
    (-10..=10)
        .map(|tc: i32| CountRow {
            tc,
            share: 0.0,
            played: (1e6 * (-0.12 * (tc * tc) as f64).exp()) as u64 + 10,
            ev: -0.005 + 0.005 * tc as f64,
            variance: 1.3,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<CountRow> {
        hilo_like_table()
    }

    #[test]
    fn the_optimal_ramp_beats_every_listed_ramp_and_its_neighbours() {
        let rows = table();
        for (max, chip) in [(12, 1), (8, 1), (16, 1), (20, 5), (1, 1), (1_000_000, 1)] {
            let spread = Spread { max, chip };
            let commons: Vec<Ramp> = COMMON_MAXIMA.iter().map(|&m| linear(m)).collect();
            let within: Vec<Ramp> = commons.iter().filter(|r| r.max() <= max).cloned().collect();
            let opt = optimise(&rows, spread, &within);
            let s = score_of(&rows, &opt.bets);
            for r in &within {
                let c = stats(&rows, &bets_of(&rows, r), 1.0).score;
                assert!(s >= c, "1-{max}: optimal {s} < {r}'s {c}");
            }
            // Non-decreasing, within the spread, in chips.
            assert!(opt.bets.windows(2).all(|w| w[0] <= w[1]), "{:?}", opt.bets);
            assert!(opt.bets.iter().all(|&b| b >= 1 && b <= max));
            assert!(opt
                .bets
                .iter()
                .all(|&b| b == 1 || b == max || b % chip == 0));
            // Flat below the first positive count.
            assert!(opt.bets.iter().take(11).all(|&b| b == 1), "{:?}", opt.bets);
            // The ramp written reads back to the same bets.
            let ramp = Ramp::parse(&ramp_of(&rows, &opt.bets).to_string()).unwrap();
            assert_eq!(
                rows.iter().map(|r| ramp.units(r.tc)).collect::<Vec<_>>(),
                opt.bets
            );
        }
    }

    #[test]
    fn the_search_finds_the_best_ramp_of_a_small_table() {
        // Three counts and a spread of 1-6: every non-decreasing ramp, by brute force.
        let rows = vec![
            CountRow {
                tc: 0,
                share: 0.0,
                played: 700,
                ev: -0.01,
                variance: 1.3,
            },
            CountRow {
                tc: 1,
                share: 0.0,
                played: 200,
                ev: 0.004,
                variance: 1.3,
            },
            CountRow {
                tc: 2,
                share: 0.0,
                played: 100,
                ev: 0.012,
                variance: 1.4,
            },
        ];
        let spread = Spread { max: 6, chip: 1 };
        let opt = optimise(&rows, spread, &[]);
        let mut best = f64::NEG_INFINITY;
        for a in 1..=6u32 {
            for b in a..=6 {
                for c in b..=6 {
                    best = best.max(score_of(&rows, &[a, b, c]));
                }
            }
        }
        let s = score_of(&rows, &opt.bets);
        assert!(
            (s - best).abs() <= 1e-9 * best.abs(),
            "{s} vs {best}: {:?}",
            opt.bets
        );
    }

    /// Within a jump limit, the search finds the best ramp of a small table (every rising
    /// ramp of 1-12 over five counts, by brute force), and the limit binds: the optimum
    /// without it jumps further and scores more.
    #[test]
    fn the_jump_limited_search_finds_the_best_ramp_within_the_limit() {
        let rows: Vec<CountRow> = table()
            .into_iter()
            .filter(|r| (0..=4).contains(&r.tc))
            .collect();
        let spread = Spread { max: 12, chip: 1 };
        for k in [1.5, 2.0, 3.0] {
            let opt = optimise_within(&rows, spread, &[linear(12)], Some(k));
            assert!(within_jump(&opt.bets, Some(k)), "x{k}: {:?}", opt.bets);
            let mut best = f64::NEG_INFINITY;
            let mut b = [1u32; 5];
            loop {
                if b.windows(2).all(|w| w[0] <= w[1]) && within_jump(&b, Some(k)) {
                    best = best.max(score_of(&rows, &b));
                }
                // The next of the 12^5 bet vectors.
                let mut i = 0;
                while i < 5 && b[i] == 12 {
                    b[i] = 1;
                    i += 1;
                }
                if i == 5 {
                    break;
                }
                b[i] += 1;
            }
            let s = score_of(&rows, &opt.bets);
            assert!(
                (s - best).abs() <= 1e-9 * best.abs(),
                "x{k}: {s} vs {best}: {:?}",
                opt.bets
            );
            let free = optimise(&rows, spread, &[linear(12)]);
            assert!(score_of(&rows, &free.bets) > s && !within_jump(&free.bets, Some(k)));
        }
    }

    #[test]
    fn a_ramps_largest_jump_and_its_warning() {
        let j = ramp_jump(&Ramp::parse("0:1,1:2,2:4,3:8,4:12").unwrap()).unwrap();
        assert_eq!((j.ratio, j.tc, j.from, j.to), (2.0, 1, 1.0, 2.0));
        let j = ramp_jump(&Ramp::parse("1:1,2:12").unwrap()).unwrap();
        assert_eq!((j.ratio, j.tc), (12.0, 2));
        assert!(jump_words(Some(j), "the ramp").starts_with("Warning: the ramp jumps x12.00 at +2"));
        let within = jump_words(ramp_jump(&Ramp::parse("0:1,1:2").unwrap()), "the ramp");
        assert!(
            within.starts_with("The ramp's largest jump: x2.00 at +1"),
            "{within}"
        );
        // Sitting out is no raise; a flat ramp has none.
        let j = ramp_jump(&Ramp::parse("0:0,1:4,2:6").unwrap()).unwrap();
        assert_eq!((j.ratio, j.tc), (1.5, 2));
        assert_eq!(ramp_jump(&Ramp::parse("0:1").unwrap()), None);
        assert_eq!(
            cut_to_jump(&[1, 2, 3, 4, 5, 6], vec![1, 6, 6], Some(2.0)),
            vec![1, 2, 4]
        );
    }

    #[test]
    fn kelly_bets_are_the_fraction_of_bankroll_times_ev_over_variance() {
        let rows = table();
        for r in &rows {
            let k = kelly_bet(r, 10_000.0, 0.5);
            if r.ev > 0.0 {
                assert!((k - 0.5 * 10_000.0 * r.ev / r.variance).abs() < 1e-9);
            } else {
                assert_eq!(k, 0.0);
            }
        }
    }

    #[test]
    fn the_linear_ramps_and_the_isotonic_fit() {
        assert_eq!(linear(12).to_string(), "0:1,1:4,2:7,3:9,4:12");
        assert_eq!(linear(4).to_string(), "0:1,1:2,2:3,3:3,4:4");
        let fit = isotonic(&[1.0, 3.0, 2.0, 4.0], &[1.0, 1.0, 1.0, 1.0]);
        assert_eq!(fit, vec![1.0, 2.5, 2.5, 4.0]);
        // Stats of a flat bet: the table's pooled EV and SD.
        let rows = table();
        let s = stats(&rows, &vec![1.0; rows.len()], 1000.0);
        let n: f64 = rows.iter().map(|r| r.played as f64).sum();
        let ev: f64 = rows.iter().map(|r| r.played as f64 * r.ev).sum::<f64>() / n;
        assert!((s.ev_per_round - ev).abs() < 1e-12);
        assert!((s.score - score(ev, s.sd_per_round)).abs() < 1e-9);
    }

    #[test]
    fn noisy_tails_are_pooled_into_their_neighbours() {
        // SEs √(1.3/played): +6 holds 13,533 rounds (1.0%), +5 49,797 (0.51%): +10 down to +6
        // are merged in turn, and +5 with them holds 62,000 rounds, an SE of 0.46%.
        let rows = table();
        let (pooled, merged) = pool_tails(rows.clone(), 0.005);
        assert_eq!(merged, 10);
        let tcs: Vec<i32> = pooled.iter().map(|r| r.tc).collect();
        assert_eq!(tcs, (-5..=5).collect::<Vec<_>>());
        // The rounds, and the sums of the net and of its square, are the table's.
        let sums = |rs: &[CountRow]| {
            rs.iter().fold((0u64, 0.0, 0.0), |(n, s1, s2), r| {
                let k = r.played as f64;
                (
                    n + r.played,
                    s1 + k * r.ev,
                    s2 + k * (r.variance + r.ev * r.ev),
                )
            })
        };
        let (a, b) = (sums(&rows), sums(&pooled));
        assert_eq!(a.0, b.0);
        assert!((a.1 - b.1).abs() < 1e-6 * a.1.abs() && (a.2 - b.2).abs() < 1e-9 * a.2);
        // The top row holds +5 and up: its EV above +5's alone.
        assert!(pooled[10].ev > rows[15].ev && pooled[10].se() < 0.005);
        assert!(rows[15].se() > 0.005);
        assert_eq!(pool_tails(rows.clone(), 0.0), (rows.clone(), 0));
        // A ramp fitted on the pooled table bets its top row's bet on every count above it.
        let bets = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 4.0, 8.0, 12.0, 12.0];
        let on = bets_on(&pooled, &bets, &rows);
        assert_eq!(on[..6], [1.0; 6]);
        assert_eq!(on[13..], [8.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0]);
    }

    /// A wonger's table: the counts it sits out are never played and have no EV (NaN). Pooled
    /// into a played neighbour they add their share and nothing else, so the EVs stay numbers
    /// (a NaN here once zeroed every bet of a sheet).
    #[test]
    fn counts_never_played_pool_without_their_missing_ev() {
        let mut rows = table();
        for r in rows.iter_mut().filter(|r| r.tc < 1) {
            r.played = 0;
            r.ev = f64::NAN;
        }
        let (pooled, _) = pool_tails(rows.clone(), 0.005);
        assert!(pooled.iter().all(|r| r.ev.is_finite()), "{pooled:?}");
        let share: f64 = rows.iter().map(|r| r.share).sum();
        let pooled_share: f64 = pooled.iter().map(|r| r.share).sum();
        assert!((share - pooled_share).abs() < 1e-12);
        assert_eq!(pooled[0].ev, rows.iter().find(|r| r.tc == 1).unwrap().ev);
    }

    #[test]
    fn a_losing_table_pooled_to_one_row_ends() {
        // Pooled to one losing row, every move only rescales the bets: no gain, and the
        // search ends with the minimum bet.
        let rows = vec![CountRow {
            tc: 0,
            share: 1.0,
            played: 20_000,
            ev: -0.005,
            variance: 1.3,
        }];
        let opt = optimise(&rows, Spread { max: 12, chip: 1 }, &[linear(12)]);
        assert_eq!(opt.bets.len(), 1);
    }
}
