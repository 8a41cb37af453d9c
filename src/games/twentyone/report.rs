//! Twenty One reports: games (scores, win rates, re-roll advantage), the row-optimal cost
//! sweep, and the exact pieces.
//!
//! Each report is a model computed from the sums (or the exact enumeration), then rendered:
//! the tables, metadata and notes come from the model only, and the JSON document is the
//! model serialized.

use serde::Serialize;

use super::exact::{evaluate, printed, row_events};
use super::rules::TwentyOneRules;
use super::sim::{score_counts, TwentyOneAcc, MAX_SCORE};
use super::strategy::RowTable;
use crate::histogram::Histogram;
use crate::report::{
    count, count_cell, est, fixed_cell, pct, pct_cell, pct_estimate_cells,
    strategy_win_rate_section, strategy_win_rates, Cell, Report, RunHeader, RunMeta, Section,
    StrategyWinRate,
};
use crate::stats::Estimate;

/// What a run was.
pub struct RunInfo {
    pub seats: Vec<String>,
    pub run: RunMeta,
}

const QUANTILES: [f64; 7] = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0];

/// Quantiles of an integer histogram (the smallest value whose cumulative share reaches q).
pub fn quantiles(hist: &[u64]) -> Vec<u32> {
    let n: u64 = hist.iter().sum();
    QUANTILES
        .iter()
        .map(|&q| {
            if q == 0.0 {
                return hist.iter().position(|&c| c > 0).unwrap_or(0) as u32;
            }
            let need = (q * n as f64).ceil().max(1.0) as u64;
            let mut cum = 0;
            for (v, &c) in hist.iter().enumerate() {
                cum += c;
                if cum >= need {
                    return v as u32;
                }
            }
            MAX_SCORE as u32
        })
        .collect()
}

/// The figures of a simulation of games: the JSON document of `sim twenty-one`.
#[derive(Clone, Debug, Serialize)]
pub struct SimModel {
    /// game, seed, starting_seat, elapsed_s, setup_s, threads, interrupted, games_per_s.
    #[serde(flatten)]
    pub header: RunHeader,
    pub rules: TwentyOneRules,
    pub seats: Vec<Seat>,
    pub games: u64,
    pub score: Vec<SeatScore>,
    pub win_rate: Vec<SeatWinRate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate_by_strategy: Option<Vec<StrategyWinRate>>,
    /// Turns (shared rolls) per game.
    pub turns_per_game: Estimate,
    /// Dice rolls per game, re-rolls included.
    pub rolls_per_game: f64,
    pub hits_per_row: Vec<SeatHits>,
    pub active_advantage: Vec<SeatAdvantage>,
    /// How the run went (chunks, shards): rendered, not serialized beyond the header.
    #[serde(skip)]
    pub run: RunMeta,
}

/// A seat: its strategy and sheet.
#[derive(Clone, Debug, Serialize)]
pub struct Seat {
    pub seat: usize,
    pub strategy: String,
    pub sheet: String,
}

/// A seat's final scores.
#[derive(Clone, Debug, Serialize)]
pub struct SeatScore {
    pub seat: usize,
    pub strategy: String,
    pub sheet: String,
    pub mean: f64,
    pub mean_se: f64,
    pub sd: f64,
    pub quantiles: Vec<Quantile>,
    /// Games by final score 0..=MAX_SCORE.
    pub histogram: Vec<u64>,
}

/// The `q` quantile of the final score (`None` without games).
#[derive(Clone, Debug, Serialize)]
pub struct Quantile {
    pub q: f64,
    pub score: Option<u32>,
}

/// A seat's win rate (ties shared).
#[derive(Clone, Debug, Serialize)]
pub struct SeatWinRate {
    pub seat: usize,
    pub strategy: String,
    pub rate: f64,
    pub se: f64,
    pub ci95: [f64; 2],
}

/// A seat's hits per row and crossings, per game.
#[derive(Clone, Debug, Serialize)]
pub struct SeatHits {
    pub seat: usize,
    pub by_row: Vec<f64>,
    pub crossings_per_game: f64,
}

/// A seat's points per turn as the active player and on others' turns.
#[derive(Clone, Debug, Serialize)]
pub struct SeatAdvantage {
    pub seat: usize,
    pub active: Estimate,
    pub passive: Estimate,
    /// Active minus passive.
    pub advantage: Estimate,
}

/// The model of a simulation of games, from its sums.
pub fn sim_model(rules: &TwentyOneRules, acc: &TwentyOneAcc, info: &RunInfo) -> SimModel {
    let n = info.seats.len();
    // A run stopped before its first chunk has no sums: report every seat as n/a.
    let acc = &*acc.with_seats(n);
    // No games (a run stopped before its first chunk): per-game figures are NaN, shown n/a.
    let games = if acc.games == 0 {
        f64::NAN
    } else {
        acc.games as f64
    };
    let seat = |s: usize| Seat {
        seat: s + 1,
        strategy: info.seats[s].clone(),
        sheet: rules.sheets[s].name.clone(),
    };
    let score = (0..n)
        .map(|s| {
            let sc = est(&acc.score[s], 1.0);
            let counts = score_counts(&acc.score_hist[s]);
            let q = quantiles(&counts);
            let Seat {
                seat,
                strategy,
                sheet,
            } = seat(s);
            SeatScore {
                seat,
                strategy,
                sheet,
                mean: sc.mean,
                mean_se: sc.se,
                sd: acc.score[s].sd_obs(),
                quantiles: QUANTILES
                    .iter()
                    .zip(&q)
                    .map(|(&q, &v)| Quantile {
                        q,
                        score: (acc.games > 0).then_some(v),
                    })
                    .collect(),
                histogram: counts,
            }
        })
        .collect();
    let win_rate = (0..n)
        .map(|s| {
            let w = est(&acc.wins[s], 1.0);
            SeatWinRate {
                seat: s + 1,
                strategy: info.seats[s].clone(),
                rate: w.mean,
                se: w.se,
                ci95: w.ci95,
            }
        })
        .collect();
    let hits_per_row = (0..n)
        .map(|s| SeatHits {
            seat: s + 1,
            by_row: acc.hits_row[s].iter().map(|&h| h as f64 / games).collect(),
            crossings_per_game: acc.crossings[s] as f64 / games,
        })
        .collect();
    let active_advantage = (0..n)
        .map(|s| {
            let a = est(&acc.active[s], 1.0);
            let p = est(&acc.passive[s], 1.0);
            let d = Estimate::new(
                a.mean - p.mean,
                (a.se.powi(2) + p.se.powi(2)).sqrt(),
                acc.active[s].df(),
            );
            SeatAdvantage {
                seat: s + 1,
                active: a,
                passive: p,
                advantage: d,
            }
        })
        .collect();
    SimModel {
        header: RunHeader::of("twenty-one", &info.run, acc.games, "games_per_s")
            .with_seats(&info.run),
        rules: rules.clone(),
        seats: (0..n).map(seat).collect(),
        games: acc.games,
        score,
        win_rate,
        win_rate_by_strategy: strategy_win_rates(&info.seats, &acc.wins),
        turns_per_game: est(&acc.turns, 1.0),
        rolls_per_game: acc.rolls as f64 / games,
        hits_per_row,
        active_advantage,
        run: info.run.clone(),
    }
}

/// The report of a simulation of games: [`sim_model`], rendered.
pub fn sim_report(rules: &TwentyOneRules, acc: &TwentyOneAcc, info: &RunInfo) -> Report {
    render_sim(&sim_model(rules, acc, info))
}

/// The tables, metadata and notes of a simulation's model; its JSON is the model.
pub fn render_sim(sm: &SimModel) -> Report {
    let names: Vec<&str> = sm.seats.iter().map(|s| s.strategy.as_str()).collect();
    let mut r = Report {
        title: "Twenty One simulation".into(),
        meta: vec![
            ("rules".into(), sm.rules.summary()),
            ("seats".into(), names.join(" | ")),
            ("games".into(), count(sm.games)),
            ("seed".into(), sm.header.seed.to_string()),
            ("starting seat".into(), sm.run.starting_seat()),
        ],
        ..Report::default()
    };
    sm.run.annotate(&mut r, sm.games, "games");
    r.sections.push(seats_section(sm));
    if let Some(rows) = &sm.win_rate_by_strategy {
        r.sections.push(strategy_win_rate_section(rows));
    }
    r.sections.extend([
        quantile_section(sm),
        hits_section(sm),
        advantage_section(sm),
        game_length_section(sm),
        score_distribution_section(sm),
    ]);
    r.full_only(&["Final score distribution", "Hits per row"]);
    r.json = serde_json::to_value(sm).unwrap_or_default();
    r
}

/// Each seat's sheet, strategy, win rate, final score and crossings.
fn seats_section(sm: &SimModel) -> Section {
    let mut seats = Section::new(
        "Seats (win rate with ties shared)",
        &[
            "seat",
            "sheet",
            "strategy",
            "win rate",
            "SE",
            "95% CI",
            "mean score",
            "SD",
            "crossings/game",
        ],
    );
    let rows = sm
        .seats
        .iter()
        .zip(&sm.score)
        .zip(&sm.win_rate)
        .zip(&sm.hits_per_row);
    for (((seat, sc), w), h) in rows {
        let [rate, se, ci] = pct_estimate_cells(w.rate, w.se, w.ci95, 2);
        seats.row([
            count_cell(seat.seat as u64),
            seat.sheet.clone().into(),
            seat.strategy.clone().into(),
            rate,
            se,
            ci,
            fixed_cell(sc.mean, 2, "points"),
            fixed_cell(sc.sd, 2, "points"),
            fixed_cell(h.crossings_per_game, 2, "crossings"),
        ]);
    }
    seats
}

fn quantile_section(sm: &SimModel) -> Section {
    let mut qs = Section::new(
        "Final score quantiles",
        &["seat", "min", "5%", "25%", "median", "75%", "95%", "max"],
    );
    for sc in &sm.score {
        let mut row = vec![count_cell(sc.seat as u64)];
        row.extend(sc.quantiles.iter().map(|q| {
            q.score
                .map_or(Cell::from("n/a"), |v| fixed_cell(v as f64, 0, "points"))
        }));
        qs.row(row);
    }
    qs
}

fn hits_section(sm: &SimModel) -> Section {
    let mut hr = Section::new(
        "Hits per row (mean per game)",
        &["seat", "row 1", "row 2", "row 3", "row 4", "row 5", "total"],
    );
    for h in &sm.hits_per_row {
        let mut row = vec![count_cell(h.seat as u64)];
        row.extend(h.by_row.iter().map(|&v| fixed_cell(v, 2, "hits")));
        row.push(fixed_cell(h.by_row.iter().sum(), 2, "hits"));
        hr.row(row);
    }
    hr
}

/// Points per turn as the active player against on others' turns.
fn advantage_section(sm: &SimModel) -> Section {
    let mut adv = Section::new(
        "Re-roll control: points per turn as the active player vs on others' turns",
        &["seat", "active", "SE", "passive", "SE", "advantage"],
    );
    for a in &sm.active_advantage {
        let d = &a.advantage;
        adv.row([
            count_cell(a.seat as u64),
            fixed_cell(a.active.mean, 3, "points"),
            fixed_cell(a.active.se, 3, "points"),
            fixed_cell(a.passive.mean, 3, "points"),
            fixed_cell(a.passive.se, 3, "points"),
            if d.mean.is_finite() {
                Cell::num(format!("{:+.3} ± {:.3}", d.mean, d.se), d.mean, "points")
            } else {
                Cell::from("n/a")
            },
        ]);
    }
    adv
}

fn game_length_section(sm: &SimModel) -> Section {
    let mut gl = Section::new("Game length", &["measure", "value"]);
    gl.row([
        "turns (shared rolls) per game".into(),
        fixed_cell(sm.turns_per_game.mean, 2, "turns"),
    ]);
    gl.row([
        "dice rolls per game, re-rolls included".into(),
        fixed_cell(sm.rolls_per_game, 2, "rolls"),
    ]);
    gl
}

/// Final scores per seat in bins of 10 (empty bins left out).
fn score_distribution_section(sm: &SimModel) -> Section {
    let mut dist = Section::new("Final score distribution (bins of 10)", &["from", "to"]);
    dist.columns
        .extend((1..=sm.score.len()).map(|s| format!("seat {s}")));
    for b in 0..=(MAX_SCORE / 10) {
        let counts: Vec<u64> = sm
            .score
            .iter()
            .map(|s| {
                s.histogram[b * 10..((b + 1) * 10).min(MAX_SCORE + 1)]
                    .iter()
                    .sum()
            })
            .collect();
        if counts.iter().all(|&c| c == 0) {
            continue;
        }
        let mut row = vec![
            count_cell((b * 10) as u64),
            count_cell((b * 10 + 9).min(MAX_SCORE) as u64),
        ];
        row.extend(counts.iter().map(|&c| count_cell(c)));
        dist.row(row);
    }
    dist
}

/// One point of the row-optimal cost sweep: seat 1 plays row-optimal:c.
pub struct SweepPoint {
    pub c: f64,
    pub acc: TwentyOneAcc,
}

/// The row-optimal cost sweep: the JSON document of `sim twenty-one --sweep-c`.
#[derive(Clone, Debug, Serialize)]
pub struct SweepModel {
    pub game: &'static str,
    pub rules: TwentyOneRules,
    /// The strategies of seats 2, 3, ...
    pub others: Vec<String>,
    pub seed: u64,
    /// Games per c.
    pub games: u64,
    pub sweep: Vec<SweepRow>,
    /// The c of the highest win rate (the first of equals).
    pub best_c: Option<f64>,
    /// The other costs whose win rate is within 2 SE of the best.
    pub within_2se_of_best: Vec<f64>,
    pub elapsed_s: f64,
    pub interrupted: bool,
    /// The cost at which the run stopped: it and the costs after it were not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted_at_c: Option<f64>,
}

/// Seat 1's results with row-optimal:c.
#[derive(Clone, Debug, Serialize)]
pub struct SweepRow {
    pub c: f64,
    pub win_rate: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    pub mean_score: f64,
}

/// The model of the sweep: seat 1's win rate per cost, the best cost and those close to it.
pub fn sweep_model(
    rules: &TwentyOneRules,
    others: &[String],
    points: &[SweepPoint],
    seed: u64,
    elapsed_s: f64,
    interrupted_at_c: Option<f64>,
) -> SweepModel {
    let sweep: Vec<SweepRow> = points
        .iter()
        .map(|p| {
            let w = est(&p.acc.wins[0], 1.0);
            SweepRow {
                c: p.c,
                win_rate: w.mean,
                se: w.se,
                ci95: w.ci95,
                mean_score: est(&p.acc.score[0], 1.0).mean,
            }
        })
        .collect();
    let mut best: Option<&SweepRow> = None;
    for p in &sweep {
        if best.is_none_or(|b| p.win_rate > b.win_rate) {
            best = Some(p);
        }
    }
    let close = best.map_or(Vec::new(), |b| {
        sweep
            .iter()
            .filter(|p| {
                p.c != b.c && (b.win_rate - p.win_rate) < 2.0 * (b.se.powi(2) + p.se.powi(2)).sqrt()
            })
            .map(|p| p.c)
            .collect()
    });
    SweepModel {
        game: "twenty-one",
        rules: rules.clone(),
        others: others.to_vec(),
        seed,
        games: points.first().map_or(0, |p| p.acc.games),
        best_c: best.map(|b| b.c),
        within_2se_of_best: close,
        sweep,
        elapsed_s,
        interrupted: interrupted_at_c.is_some(),
        interrupted_at_c,
    }
}

/// The sweep report ([`sweep_model`], rendered): which cost per roll wins most often against
/// the other seats.
pub fn sweep_report(
    rules: &TwentyOneRules,
    others: &[String],
    points: &[SweepPoint],
    seed: u64,
    elapsed_s: f64,
    interrupted_at_c: Option<f64>,
) -> Report {
    render_sweep(&sweep_model(
        rules,
        others,
        points,
        seed,
        elapsed_s,
        interrupted_at_c,
    ))
}

/// The sweep's picture (`sweep-c.svg`): row-optimal:c's win rate against c with its 95%
/// band, and the fair share of a seat.
pub fn sweep_plots(sw: &SweepModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let points: Vec<(f64, f64)> = sw.sweep.iter().map(|p| (p.c, p.win_rate * 100.0)).collect();
    let band: Vec<(f64, f64, f64)> = sw
        .sweep
        .iter()
        .map(|p| (p.c, p.ci95[0] * 100.0, p.ci95[1] * 100.0))
        .collect();
    let fair = 100.0 / (sw.others.len() + 1) as f64;
    let svg = line_chart(
        "Win rate of row-optimal:c (seat 1) against its cost per roll c",
        "c (points per roll)",
        "win rate of seat 1 (%)",
        YUnit::Percent,
        &[Line {
            name: "row-optimal:c",
            points: &points,
            band: Some(&band),
            dots: false,
        }],
        Some((fair, "fair share")),
    )?;
    Ok(vec![("sweep-c.svg".into(), svg)])
}

/// The tables, metadata and notes of the sweep; its JSON is the model.
pub fn render_sweep(sw: &SweepModel) -> Report {
    let mut r = Report {
        title: "Twenty One: row-optimal cost per roll sweep".into(),
        ..Report::default()
    };
    r.meta.push(("rules".into(), sw.rules.summary()));
    r.meta.push((
        "table".into(),
        format!("seat 1 row-optimal:c against {}", sw.others.join(", ")),
    ));
    r.meta.push(("games per c".into(), count(sw.games)));
    r.meta.push((
        "seed".into(),
        format!("{} (the same random streams for every c)", sw.seed),
    ));
    r.meta
        .push(("elapsed".into(), format!("{:.2} s", sw.elapsed_s)));
    let n = sw.others.len() + 1;
    let mut s = Section::new(
        "Win rate of row-optimal:c (seat 1)",
        &["c", "win rate", "SE", "95% CI", "mean score", "fair share"],
    );
    for p in &sw.sweep {
        let [rate, se, ci] = pct_estimate_cells(p.win_rate, p.se, p.ci95, 2);
        s.row([
            Cell::num(format!("{}", p.c), p.c, "points per roll"),
            rate,
            se,
            ci,
            fixed_cell(p.mean_score, 2, "points"),
            pct_cell(1.0 / n as f64, 2),
        ]);
    }
    r.sections.push(s);
    if let Some(c) = sw.interrupted_at_c {
        r.notes.push(format!(
            "INTERRUPTED at c = {c}: the costs before it are complete, the rest not run."
        ));
        r.meta
            .push(("status".into(), format!("INTERRUPTED at c = {c}")));
    }
    if let Some(b) = sw.sweep.iter().find(|p| Some(p.c) == sw.best_c) {
        let close: Vec<String> = sw.within_2se_of_best.iter().map(f64::to_string).collect();
        r.notes.push(format!(
            "Best: c = {}, win rate {} ± {}{}.",
            b.c,
            pct(b.win_rate, 2),
            pct(b.se, 2),
            if close.is_empty() {
                String::new()
            } else {
                format!(
                    " (within 2 SE of the best: c = {}; every c uses the same random streams, so \
                     differences are sharper than the independent SEs suggest)",
                    close.join(", ")
                )
            }
        ));
    }
    r.json = serde_json::to_value(sw).unwrap_or_default();
    r
}

/// The exact pieces: the JSON document of `exact twenty-one`.
#[derive(Clone, Debug, Serialize)]
pub struct ExactModel {
    pub game: &'static str,
    pub rules: TwentyOneRules,
    /// One roll seen from a row, for every set of empty boxes (most empty boxes first).
    pub row_events: Vec<RowEventsRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row_policy: Option<RowPolicy>,
}

/// One roll seen from a row with the `empty` boxes.
#[derive(Clone, Debug, Serialize)]
pub struct RowEventsRow {
    /// The empty boxes as printed.
    pub empty: String,
    pub mask: u8,
    pub p_any_legal: f64,
    pub expected_legal: f64,
    /// P(k hits), k = 0..=6.
    pub p_hits: [f64; 7],
}

/// The row-optimal policy for cost `c` per roll.
#[derive(Clone, Debug, Serialize)]
pub struct RowPolicy {
    pub c: f64,
    /// A whole row: expected points, rolls, and value (points − c·rolls).
    pub row_points: f64,
    pub row_rolls: f64,
    pub row_value: f64,
    pub states: Vec<RowState>,
}

/// A state of a row: its empty boxes and hits so far.
#[derive(Clone, Debug, Serialize)]
pub struct RowState {
    pub empty: String,
    pub hits: usize,
    /// Points − c·rolls to come.
    pub value: f64,
    pub points: f64,
    pub rolls: f64,
}

/// The exact pieces: single-roll events for every set of empty boxes, and (optionally) the
/// row-optimal policy table for cost `c`.
pub fn exact_model(rules: &TwentyOneRules, row_policy: Option<f64>) -> ExactModel {
    let mut masks: Vec<u8> = (1..64).collect();
    masks.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
    let row_events = masks
        .iter()
        .map(|&e| {
            let x = row_events(e);
            RowEventsRow {
                empty: printed(e),
                mask: e,
                p_any_legal: x.p_any_legal,
                expected_legal: x.expected_legal,
                p_hits: x.p_hits,
            }
        })
        .collect();
    let row_policy = row_policy.map(|c| {
        let t = RowTable::new(c, rules.rerolls);
        let (pts, rolls) = evaluate(&t);
        let mut states = Vec::new();
        for &e in &masks {
            for h in 0..=(6 - e.count_ones() as usize) {
                states.push(RowState {
                    empty: printed(e),
                    hits: h,
                    value: t.f[e as usize][h],
                    points: pts[e as usize][h],
                    rolls: rolls[e as usize][h],
                });
            }
        }
        RowPolicy {
            c,
            row_points: pts[63][0],
            row_rolls: rolls[63][0],
            row_value: t.f[63][0],
            states,
        }
    });
    ExactModel {
        game: "twenty-one",
        rules: rules.clone(),
        row_events,
        row_policy,
    }
}

/// The exact pieces report: [`exact_model`], rendered.
pub fn exact_report(rules: &TwentyOneRules, row_policy: Option<f64>) -> Report {
    render_exact(&exact_model(rules, row_policy))
}

/// The tables, metadata and notes of the exact pieces; its JSON is the model.
pub fn render_exact(x: &ExactModel) -> Report {
    let mut r = Report {
        title: "Twenty One exact pieces".into(),
        ..Report::default()
    };
    r.meta.push(("rules".into(), x.rules.summary()));
    r.meta.push((
        "method".into(),
        "exhaustive enumeration of the 6^6 rolls per set of empty boxes; the row policy by \
         dynamic programming over (empty boxes, hits so far)"
            .into(),
    ));
    let mut ev = Section::new(
        "One roll seen from a row, by its empty boxes",
        &[
            "empty boxes (printed)",
            "P(a legal die)",
            "E[legal dice]",
            "P(0 hits)",
            "P(1 hit)",
            "P(2 hits)",
            "P(3+ hits)",
        ],
    );
    for e in &x.row_events {
        let three: f64 = e.p_hits[3..].iter().sum();
        ev.row([
            e.empty.clone().into(),
            pct_cell(e.p_any_legal, 3),
            fixed_cell(e.expected_legal, 4, "dice"),
            pct_cell(e.p_hits[0], 3),
            pct_cell(e.p_hits[1], 3),
            pct_cell(e.p_hits[2], 3),
            pct_cell(three, 3),
        ]);
    }
    r.sections.push(ev);
    if let Some(p) = &x.row_policy {
        let c = p.c;
        let mut ps = Section::new(
            &format!("Row-optimal policy, cost {c} per roll: value of each state"),
            &[
                "empty boxes (printed)",
                "hits so far",
                "value (points − c·rolls)",
                "expected points to come",
                "expected rolls to finish",
            ],
        );
        for s in &p.states {
            ps.row([
                s.empty.clone().into(),
                count_cell(s.hits as u64),
                fixed_cell(s.value, 4, "points"),
                fixed_cell(s.points, 4, "points"),
                fixed_cell(s.rolls, 4, "rolls"),
            ]);
        }
        r.meta.push((
            "a whole row".into(),
            format!(
                "{:.3} expected points in {:.3} rolls (cost {c}: value {:.3})",
                p.row_points, p.row_rolls, p.row_value
            ),
        ));
        r.sections.push(ps);
        r.notes.push(
            "The row policy uses each roll as it comes; as the active player it also re-rolls \
             when the expected value after re-rolling the non-1 dice is higher."
                .into(),
        );
    }
    r.head_only("One roll seen from a row", 8);
    r.full_only(&["Row-optimal policy"]);
    r.json = serde_json::to_value(x).unwrap_or_default();
    r
}

/// SVG plots: win rate by seat (percents with 95% error bars and the fair share
/// 1/players) and the final-score histogram. An interrupted run's plots say so.
pub fn plots(acc: &TwentyOneAcc, info: &RunInfo) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{
        bar_chart, binomial_bar, mark, win_rate_by_seat, Bar, BarChart, YUnit,
    };
    let acc = &*acc.with_seats(info.seats.len());
    let total: u64 = acc.score_hist.iter().map(Histogram::total).sum();
    let seats: Vec<Vec<u64>> = acc.score_hist.iter().map(score_counts).collect();
    let bins: Vec<u64> = (0..=(MAX_SCORE / 10))
        .map(|b| {
            seats
                .iter()
                .map(|h| {
                    h[b * 10..((b + 1) * 10).min(MAX_SCORE + 1)]
                        .iter()
                        .sum::<u64>()
                })
                .sum()
        })
        .collect();
    // Every bin from the first to the last non-empty one, so that the x axis is linear.
    let first = bins.iter().position(|&c| c > 0);
    let last = bins.iter().rposition(|&c| c > 0);
    let hist: Vec<Bar> = match (first, last) {
        (Some(a), Some(b)) => (a..=b)
            .map(|i| binomial_bar((i * 10).to_string(), bins[i], total))
            .collect(),
        _ => Vec::new(),
    };
    let mut out = vec![
        (
            "win-rate-by-seat.svg".into(),
            win_rate_by_seat(&acc.wins, acc.games, &info.seats)?,
        ),
        (
            "final-score-histogram.svg".into(),
            bar_chart(&BarChart {
                title: "Final scores, all seats (bins of 10)",
                x_label: "final score (points, start of bin)",
                y_label: "share of final scores (%)",
                y_unit: YUnit::Percent,
                bars: &hist,
                hline: None,
                histogram: true,
            })?,
        ),
    ];
    if let Some(m) = info.run.marker() {
        for p in &mut out {
            p.1 = mark(&p.1, &m);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_histogram() {
        let mut h = vec![0u64; MAX_SCORE + 1];
        for c in &mut h[1..=100] {
            *c = 1;
        }
        let q = quantiles(&h);
        assert_eq!(q, vec![1, 5, 25, 50, 75, 95, 100]);
    }

    #[test]
    fn an_interrupted_sweep_says_so_in_the_model() {
        let rules = TwentyOneRules::standard();
        let others = vec!["greedy".to_string()];
        let r = sweep_report(&rules, &others, &[], 3, 0.5, Some(2.0));
        assert_eq!(r.json["interrupted"], true);
        assert_eq!(r.json["interrupted_at_c"], 2.0);
        assert!(r.json["best_c"].is_null());
        assert_eq!(r.json["games"], 0);
        assert!(r.notes[0].starts_with("INTERRUPTED at c = 2:"));
        assert_eq!(
            r.meta.last().unwrap(),
            &("status".to_string(), "INTERRUPTED at c = 2".to_string())
        );
        let r = sweep_report(&rules, &others, &[], 3, 0.5, None);
        assert_eq!(r.json["interrupted"], false);
        assert!(r.json.get("interrupted_at_c").is_none());
        assert!(r.notes.is_empty());
    }

    #[test]
    fn the_sim_json_is_the_model() {
        let rules = TwentyOneRules::standard();
        let info = RunInfo {
            seats: vec!["greedy".into(), "greedy".into()],
            run: RunMeta::default(),
        };
        // No games: every per-game figure is n/a (null), the quantiles too.
        let m = sim_model(&rules, &TwentyOneAcc::for_seats(2), &info);
        let r = render_sim(&m);
        assert_eq!(r.json, serde_json::to_value(&m).unwrap());
        assert_eq!(r.json["seats"][1]["sheet"], rules.sheets[1].name);
        // The run's header at the top level; the starting seat rotated: null, not left out.
        assert_eq!(r.json["game"], "twenty-one");
        assert!(r.json.get("starting_seat").is_some_and(|v| v.is_null()));
        assert!(r.json["games_per_s"].is_number());
        assert!(r.json["score"][0]["quantiles"][3]["score"].is_null());
        assert!(r.json["rolls_per_game"].is_null());
        assert_eq!(r.json["win_rate_by_strategy"][0]["seats"], 2);
        assert_eq!(r.sections[2].rows[0][4].text, "n/a");
    }

    #[test]
    fn the_exact_json_is_the_model() {
        let rules = TwentyOneRules::standard();
        let x = exact_model(&rules, Some(1.0));
        let r = render_exact(&x);
        assert_eq!(r.json, serde_json::to_value(&x).unwrap());
        let p = &r.json["row_policy"];
        assert_eq!(p["states"][0]["empty"], r.json["row_events"][0]["empty"]);
        assert_eq!(p["row_value"], p["states"][0]["value"]);
        assert!(render_exact(&exact_model(&rules, None))
            .json
            .get("row_policy")
            .is_none());
    }
}
