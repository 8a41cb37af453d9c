//! The two-player game played to win: the solve's model, its report and its plot.

use serde::Serialize;

use super::super::exact::{solve_policy, Policy};
use super::super::model::Model;
use super::super::rules::DoomRules;
use crate::report::{count, count_cell, fixed_cell, Cell, Report, Section};

/// The two-player win-probability solve as a report (`exact doom --players 2 --objective
/// win`): who wins, the fair handicap, and how the win-optimal policy banks.
#[derive(Clone, Debug, Serialize)]
pub struct WinModel {
    pub game: &'static str,
    pub objective: &'static str,
    pub players: u8,
    pub rules: DoomRules,
    pub method: &'static str,
    pub target: u64,
    pub end: &'static str,
    /// P(win) of the first and second seat from 0-0 under optimal play by both (ties shared).
    pub p_first: f64,
    pub p_second: f64,
    /// The head start that brings the game closest to even.
    pub fair_handicap: Handicap,
    /// P(first seat wins) by head start: points given to the second seat (positive) or to
    /// the first (negative) at the start.
    pub handicaps: Vec<Handicap>,
    /// Points past the target the first seat's turn is followed; the error bound it leaves.
    pub cap_points: u64,
    pub cap_bound: f64,
    pub residual: f64,
    pub turn_solves: u64,
    pub solve_s: f64,
    /// "exact" or "fast"; within `fine_points` of the target every score is solved, beyond
    /// it scores every `step_points` (the others interpolated).
    pub solve: &'static str,
    pub fine_points: u64,
    pub step_points: u64,
    /// States of the table and those solved.
    pub states: u64,
    pub states_solved: u64,
    /// The turn's points are followed `tail_points` (the chance of one turn reaching them:
    /// `tail_p`); `tail_bound` = `tail_p` × `game_turns`, a bound on the games' turns.
    pub tail_points: u64,
    pub tail_p: f64,
    pub game_turns: f64,
    pub tail_bound: f64,
    /// The largest Newton step taken without verifying it (0: every step verified).
    pub max_unverified_step: f64,
    /// The single-turn `optimal` policy's lowest banking points by dice left (1..=6).
    pub single_turn_bank_from: Vec<Option<u32>>,
    /// The win-optimal first seat's lowest banking points at `my_score`, by opponent score.
    pub thresholds: Vec<WinThreshold>,
    /// P(the player to move wins) on a grid of scores.
    pub win_table: Vec<WinCell>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Handicap {
    /// Points given to the second seat (negative: to the first seat).
    pub points: i64,
    pub p_first: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct WinThreshold {
    pub my_score: u64,
    pub opponent: u64,
    /// Lowest turn points at which it banks, by dice left 1..=6 (None: it does not bank).
    pub bank_from: Vec<Option<u32>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct WinCell {
    /// 0: the first seat to move, 1: the second.
    pub seat: u8,
    pub my_score: u64,
    pub opponent: u64,
    pub p_win: f64,
}

/// Solve and describe; `Err` when the rules cannot be solved for two players.
pub fn win_model(
    m: &Model,
    opts: &super::super::win::WinOptions,
) -> Result<WinModel, super::super::win::WinError> {
    win_model_kept(m, opts, &super::super::win::TableStore::Fresh, None)
}

/// The first seat's win probability at every head start (points to the first seat negative,
/// to the second positive, in units of `unit`), and the head start nearest an even game.
fn handicaps(sol: &super::super::win::WinSolution, unit: u64) -> (Vec<Handicap>, Handicap) {
    let tu = sol.tu;
    let handicaps: Vec<Handicap> = (1..tu)
        .rev()
        .map(|a| Handicap {
            points: -(a as i64) * unit as i64,
            p_first: sol.w[0][a * tu],
        })
        .chain((0..tu).map(|b| Handicap {
            points: b as i64 * unit as i64,
            p_first: sol.w[0][b],
        }))
        .collect();
    let fair_handicap = handicaps
        .iter()
        .min_by(|x, y| (x.p_first - 0.5).abs().total_cmp(&(y.p_first - 0.5).abs()))
        .cloned()
        .expect("a target of at least one unit");
    (handicaps, fair_handicap)
}

/// The banking thresholds at mid-game for the first seat to move, and the win probability of
/// each seat, both against the opponent's score on a grid of 20 steps.
fn win_grid(
    m: &Model,
    sol: &super::super::win::WinSolution,
    unit: u64,
) -> (Vec<WinThreshold>, Vec<WinCell>) {
    let tu = sol.tu;
    let my = tu / 2;
    let step = (tu / 20).max(1);
    let thresholds = (0..tu)
        .step_by(step)
        .map(|b| WinThreshold {
            my_score: my as u64 * unit,
            opponent: b as u64 * unit,
            bank_from: sol.bank_from(0, my, b, &m.holds).to_vec(),
        })
        .collect();
    let mut win_table = Vec::new();
    for seat in 0..sol.w.len() {
        for a in (0..tu).step_by(step) {
            for b in (0..tu).step_by(step) {
                win_table.push(WinCell {
                    seat: seat as u8,
                    my_score: a as u64 * unit,
                    opponent: b as u64 * unit,
                    p_win: sol.w[seat][a * tu + b],
                });
            }
        }
    }
    (thresholds, win_table)
}

/// `win_model` with the table from `store` (read when kept there, else solved and kept);
/// `stop` stops a solve, its progress kept to resume from.
pub fn win_model_kept(
    m: &Model,
    opts: &super::super::win::WinOptions,
    store: &super::super::win::TableStore,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<WinModel, super::super::win::WinError> {
    use super::super::win::WinSolution;
    let start = std::time::Instant::now();
    let plan = WinSolution::plan(m, opts)?;
    let (sol, _) = super::super::win::kept::solve_kept(m, opts, store, stop)?;
    let solve_s = start.elapsed().as_secs_f64();
    let unit = m.unit as u64;
    let single = solve_policy(m, &Policy::OPTIMAL);
    // A game's turns, both seats: four times the target over the optimal turn's expected
    // points (a bound with room: win-optimal play banks about as much a turn).
    let game_turns = (4.0 * m.rules.target as f64 / single.turn_ev.max(1.0)).ceil();
    let single_turn_bank_from = single
        .bank_thresholds(m)
        .into_iter()
        .map(|(_, b, _)| b)
        .collect();
    let (handicaps, fair_handicap) = handicaps(&sol, unit);
    let (thresholds, win_table) = win_grid(m, &sol, unit);
    Ok(WinModel {
        game: "doom",
        objective: "win",
        players: 2,
        rules: m.rules.clone(),
        method: "dynamic programming over (seat to move, my score, opponent's score, turn points, held dice), sums of scores from the largest down, each farkle 2-cycle solved by Newton's method",
        target: m.rules.target,
        end: if sol.finish_round {
            "finish-round"
        } else {
            "immediate"
        },
        p_first: sol.p_first(),
        p_second: 1.0 - sol.p_first(),
        fair_handicap,
        handicaps,
        cap_points: sol.cap as u64 * unit,
        cap_bound: sol.cap_bound,
        residual: sol.residual,
        turn_solves: sol.turn_solves,
        solve_s,
        solve: if (super::super::win::WinOptions {
            progress: false,
            ..*opts
        }) == super::super::win::WinOptions::exact()
        {
            "exact"
        } else {
            "fast"
        },
        fine_points: sol.fine.min(m.rules.target),
        step_points: sol.step,
        states: plan.states,
        states_solved: plan.solved,
        tail_points: sol.tail_levels as u64 * unit,
        tail_p: sol.tail_p,
        game_turns,
        tail_bound: sol.tail_bound(game_turns),
        max_unverified_step: sol.max_step,
        single_turn_bank_from,
        thresholds,
        win_table,
    })
}

/// A head start in words: "none", "500 points to the second seat", "250 points to the first".
fn head_start(points: i64) -> String {
    match points.cmp(&0) {
        std::cmp::Ordering::Equal => "none".into(),
        std::cmp::Ordering::Greater => format!("{points} points to the second seat"),
        std::cmp::Ordering::Less => format!("{} points to the first seat", -points),
    }
}

fn opt_points(v: Option<u32>) -> Cell {
    match v {
        Some(p) => count_cell(p as u64),
        None => "never".into(),
    }
}

/// The win solve's metadata: the rules, the method, the first seat's chances and the solve's
/// accuracy.
fn win_meta(x: &WinModel) -> Vec<(String, String)> {
    let mut meta = vec![
        ("rules".into(), x.rules.summary()),
        ("method".into(), x.method.into()),
    ];
    meta.push((
        "first seat wins".into(),
        format!(
            "{:.6} (second seat {:.6}; ties shared)",
            x.p_first, x.p_second
        ),
    ));
    meta.push((
        "fair handicap".into(),
        format!(
            "{}: first seat wins {:.6}",
            head_start(x.fair_handicap.points),
            x.fair_handicap.p_first
        ),
    ));
    if x.end == "finish-round" {
        meta.push((
            "past the target".into(),
            format!(
                "the first seat's turn followed to {} points past the target; error at most {:.1e}",
                x.cap_points, x.cap_bound
            ),
        ));
    }
    meta.push((
        "solve".into(),
        format!(
            "{} ({} of {} states solved), {:.1} s, {} turn dynamic programs, largest residual {:.1e}, largest unverified Newton step {:.1e}",
            x.solve,
            count(x.states_solved),
            count(x.states),
            x.solve_s,
            x.turn_solves,
            x.residual,
            x.max_unverified_step
        ),
    ));
    if x.fine_points < x.target {
        meta.push((
            "score grid".into(),
            format!(
                "every score within {} points of the target, every {} points beyond (the others interpolated; error measured, not bounded: docs/doom.md)",
                count(x.fine_points),
                count(x.step_points)
            ),
        ));
    }
    meta.push((
        "tail".into(),
        format!(
            "a turn's points followed to {} (reached with probability at most {:.1e} a turn); error at most {:.1e} over {} turns",
            count(x.tail_points),
            x.tail_p,
            x.tail_bound,
            x.game_turns
        ),
    ));
    meta
}

/// The first seat's win probability around the fair head start (ten steps either side).
fn handicap_section(x: &WinModel) -> Section {
    let mut hc = Section::new(
        "First seat's win probability by head start",
        &["head start", "P(first seat wins)"],
    );
    let fair = x
        .handicaps
        .iter()
        .position(|h| h.points == x.fair_handicap.points)
        .unwrap_or(0);
    for h in &x.handicaps[fair.saturating_sub(10)..(fair + 11).min(x.handicaps.len())] {
        hc.row([head_start(h.points).into(), fixed_cell(h.p_first, 6, "")]);
    }
    hc
}

/// The first seat's banking thresholds by dice left, single-turn optimal play first, then
/// against each opponent's score.
fn thresholds_section(x: &WinModel) -> Section {
    let mut th = Section::new(
        &format!(
            "Lowest turn points at which the first seat banks, with {} points banked, by opponent's score",
            x.thresholds.first().map_or(0, |t| t.my_score)
        ),
        &[
            "opponent",
            "1 die left",
            "2 dice",
            "3 dice",
            "4 dice",
            "5 dice",
            "6 dice",
        ],
    );
    let mut single = vec!["single-turn optimal".into()];
    single.extend(x.single_turn_bank_from.iter().map(|&b| opt_points(b)));
    th.row(single);
    for t in &x.thresholds {
        let mut row = vec![count_cell(t.opponent)];
        row.extend(t.bank_from.iter().map(|&b| opt_points(b)));
        th.row(row);
    }
    th
}

/// The win-probability solve's tables and notes; its JSON is the model.
pub fn render_win(x: &WinModel) -> Report {
    let mut r = Report {
        title: "Dice of Doom, two players, played to win".into(),
        meta: win_meta(x),
        ..Report::default()
    };
    r.sections.push(handicap_section(x));
    r.sections.push(thresholds_section(x));
    r.notes.push(
        "Thresholds are the lowest turn points at which the policy banks with that many dice left, \
         over all held dice; 'never' with 6 dice where hot dice must be rolled."
            .into(),
    );
    r.json = serde_json::to_value(x).unwrap_or_default();
    r
}

/// The heat map of the win-optimal first seat's banking thresholds.
pub fn win_plots(x: &WinModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{heat_map, HeatMap};
    let dice: Vec<usize> = (0..6)
        .filter(|&n| x.thresholds.iter().any(|t| t.bank_from[n].is_some()))
        .collect();
    // The first column: the single-turn optimal policy's thresholds, for reference.
    let mut columns = vec!["1-turn".to_string()];
    columns.extend(
        x.thresholds
            .iter()
            .map(|t| crate::report::svg::short_count(t.opponent as f64)),
    );
    let rows: Vec<String> = dice.iter().map(|n| format!("{}", n + 1)).collect();
    let cell = |b: Option<u32>| b.map(|b| (b as f64, b.to_string()));
    let cells: Vec<Vec<Option<(f64, String)>>> = dice
        .iter()
        .map(|&n| {
            std::iter::once(cell(x.single_turn_bank_from[n]))
                .chain(x.thresholds.iter().map(|t| cell(t.bank_from[n])))
                .collect()
        })
        .collect();
    let my = x.thresholds.first().map_or(0, |t| t.my_score);
    let svg = heat_map(&HeatMap {
        title: &format!(
            "First seat at {my} points: lowest turn points it banks at, by dice left (target {})",
            x.target
        ),
        x_label: "opponent's score (first column: the single-turn optimal policy)",
        y_label: "dice left to roll",
        columns: &columns,
        rows: &rows,
        cells: &cells,
    })?;
    Ok(vec![("win-bank-thresholds.svg".into(), svg)])
}
