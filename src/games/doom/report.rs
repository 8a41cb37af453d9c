//! Dice of Doom reports: simulation (turns or games) and the exact turn analysis.
//!
//! Each report is a model computed from the sums (or the solver), then rendered: the tables,
//! metadata and notes come from the model only, and the JSON document is the model serialized.

use rayon::prelude::*;
use serde::Serialize;

use super::exact::{solve_policy, Policy, Solution, CAP_POINTS};
use super::model::Model;
use super::rules::{DoomRules, DoomWipes, HeldDice};
use super::sim::{GameAcc, Mode, TurnAcc, FINAL_BINS, HIST_BIN, HIST_BINS, HIST_MIN, WIN_UNIT};
use crate::report::{
    count, count_cell, est, fixed, fixed_cell, pct_cell, pct_estimate_cells, rate,
    strategy_win_rate_section, strategy_win_rates, Cell, Report, RunHeader, RunMeta, Section,
    StrategyWinRate,
};
use crate::stats::Estimate;

/// What a simulation run was.
pub struct SimInfo {
    pub mode: Mode,
    pub seats: Vec<String>,
    /// Exact turn EV of each seat's policy (None for the end-game variant).
    pub exact_ev: Vec<Option<f64>>,
    pub run: RunMeta,
}

fn f1(v: f64) -> String {
    fixed(v, 1)
}

/// Bounds of turn-score histogram bin `i` (`None`: unbounded; bin 0 is the underflow, the
/// last the overflow).
fn bin_range(i: usize) -> (Option<i64>, Option<i64>) {
    match i {
        0 => (None, Some(HIST_MIN)),
        i if i == HIST_BINS + 1 => (Some(HIST_MIN + HIST_BIN * HIST_BINS as i64), None),
        i => {
            let lo = HIST_MIN + HIST_BIN * (i as i64 - 1);
            (Some(lo), Some(lo + HIST_BIN))
        }
    }
}

/// The figures of a simulation: the JSON document of `sim doom`.
#[derive(Clone, Debug, Serialize)]
pub struct SimModel {
    /// game, seed, starting_seat (games only), elapsed_s, setup_s, threads, interrupted,
    /// turns_per_s.
    #[serde(flatten)]
    pub header: RunHeader,
    pub rules: DoomRules,
    /// All seats pooled (one seat in turn mode).
    pub mean_turn_score: f64,
    pub mean_turn_score_se: f64,
    pub mean_turn_score_ci95: [f64; 2],
    pub sd_turn: f64,
    pub p_bust: f64,
    pub p_farkle: f64,
    pub p_doom: f64,
    pub rolls_per_turn: f64,
    /// The non-empty bins of the pooled turn scores.
    pub turn_score_histogram: Vec<HistBin>,
    pub turn_score_histogram_bin: i64,
    pub seat_turns: Vec<SeatTurns>,
    #[serde(flatten)]
    pub mode: SimModeModel,
    /// How the run went (seed, starting seat, chunks, shards): rendered, not serialized
    /// beyond the header.
    #[serde(skip)]
    pub run: RunMeta,
}

/// One bin of the turn-score histogram (`None`: unbounded).
#[derive(Clone, Debug, Serialize)]
pub struct HistBin {
    pub from: Option<i64>,
    pub to: Option<i64>,
    pub count: u64,
}

/// One seat's turns.
#[derive(Clone, Debug, Serialize)]
pub struct SeatTurns {
    pub seat: usize,
    pub strategy: String,
    pub turns: u64,
    pub mean_turn_score: f64,
    pub mean_turn_score_se: f64,
    pub ci95: [f64; 2],
    /// The exact turn EV of the seat's policy (`None` for the end-game variant).
    pub exact_turn_ev: Option<f64>,
    /// (mean − exact) / SE, when there is an exact turn EV.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z_vs_exact: Option<f64>,
    pub p_bust: f64,
    pub p_farkle: f64,
    pub p_doom: f64,
    pub p_penalty: f64,
    pub rolls_per_turn: f64,
    pub sd_turn: f64,
}

/// What a simulation of single turns or of games adds.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SimModeModel {
    Turns(TurnsModel),
    Games(GamesModel),
}

/// Single turns of one strategy.
#[derive(Clone, Debug, Serialize)]
pub struct TurnsModel {
    pub strategy: String,
    pub turns: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_turn_ev: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z_vs_exact: Option<f64>,
}

/// Full games.
#[derive(Clone, Debug, Serialize)]
pub struct GamesModel {
    pub seats: Vec<String>,
    pub games: u64,
    pub win_rate: Vec<SeatWinRate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate_by_strategy: Option<Vec<StrategyWinRate>>,
    /// By position in the turn order (0: the starting player).
    pub win_rate_by_position: Vec<f64>,
    /// The starting player's win rate minus the fair share.
    pub first_player_advantage: Option<f64>,
    pub turns_per_game: Estimate,
    pub unfinished_games: u64,
    pub final_score_histogram: FinalHistogram,
}

/// One seat's win rate (ties shared) and final scores.
#[derive(Clone, Debug, Serialize)]
pub struct SeatWinRate {
    pub seat: usize,
    pub strategy: String,
    pub rate: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    pub final_score: Estimate,
    pub final_score_sd: f64,
}

/// Final totals per seat in bins of `bin` points from 0 (the last bin is the overflow).
#[derive(Clone, Debug, Serialize)]
pub struct FinalHistogram {
    pub bin: f64,
    /// Per seat, per bin.
    pub counts: Vec<Vec<u64>>,
}

/// The turn figures of one seat's sums (or of all seats pooled).
struct TurnFigures {
    score: Estimate,
    p_farkle: f64,
    p_doom: f64,
    p_bust: f64,
    p_penalty: f64,
    rolls: f64,
    sd: f64,
}

fn turn_figures(t: &TurnAcc) -> TurnFigures {
    let n = t.turns();
    TurnFigures {
        score: est(&t.score, 1.0),
        p_farkle: rate(t.farkles, n),
        p_doom: rate(t.dooms, n),
        p_bust: rate(t.farkles + t.dooms, n),
        p_penalty: rate(t.penalties, n),
        rolls: rate(t.rolls, n),
        sd: t.score.sd_obs(),
    }
}

/// The model of a simulation, from its sums.
pub fn sim_model(m: &Model, acc: &GameAcc, info: &SimInfo) -> SimModel {
    // A run stopped before its first chunk has no sums: report every seat as n/a.
    let acc = &*acc.with_seats(info.seats.len(), info.mode);
    let all_turns: u64 = acc.turns.iter().map(|t| t.turns()).sum();
    let seat_turns: Vec<SeatTurns> = acc
        .turns
        .iter()
        .enumerate()
        .map(|(s, t)| {
            let f = turn_figures(t);
            let exact = info.exact_ev.get(s).copied().flatten();
            SeatTurns {
                seat: s + 1,
                strategy: info.seats[s].clone(),
                turns: t.turns(),
                mean_turn_score: f.score.mean,
                mean_turn_score_se: f.score.se,
                ci95: f.score.ci95,
                exact_turn_ev: exact,
                z_vs_exact: exact.map(|x| (f.score.mean - x) / f.score.se),
                p_bust: f.p_bust,
                p_farkle: f.p_farkle,
                p_doom: f.p_doom,
                p_penalty: f.p_penalty,
                rolls_per_turn: f.rolls,
                sd_turn: f.sd,
            }
        })
        .collect();
    // Pool all seats for the top-level turn figures (one seat in turn mode).
    let mut pooled = TurnAcc::default();
    for t in &acc.turns {
        crate::engine::Merge::merge(&mut pooled, t);
    }
    let p = turn_figures(&pooled);
    let turn_score_histogram = pooled
        .hist
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &count)| {
            let (from, to) = bin_range(i);
            HistBin { from, to, count }
        })
        .collect();
    let mode = match info.mode {
        Mode::Turns(_) => {
            let exact = info.exact_ev[0];
            SimModeModel::Turns(TurnsModel {
                strategy: info.seats[0].clone(),
                turns: all_turns,
                exact_turn_ev: exact,
                z_vs_exact: exact.map(|x| (p.score.mean - x) / p.score.se),
            })
        }
        Mode::Games(_) => SimModeModel::Games(games_model(acc, info, m)),
    };
    let header = RunHeader::of("doom", &info.run, all_turns, "turns_per_s");
    SimModel {
        header: match info.mode {
            Mode::Turns(_) => header,
            Mode::Games(_) => header.with_seats(&info.run),
        },
        rules: m.rules.clone(),
        mean_turn_score: p.score.mean,
        mean_turn_score_se: p.score.se,
        mean_turn_score_ci95: p.score.ci95,
        sd_turn: p.sd,
        p_bust: p.p_bust,
        p_farkle: p.p_farkle,
        p_doom: p.p_doom,
        rolls_per_turn: p.rolls,
        turn_score_histogram,
        turn_score_histogram_bin: HIST_BIN,
        seat_turns,
        mode,
        run: info.run.clone(),
    }
}

fn games_model(acc: &GameAcc, info: &SimInfo, m: &Model) -> GamesModel {
    let seats = acc.wins.len();
    let win_rate = (0..seats)
        .map(|s| {
            let e = est(&acc.wins[s], 1.0);
            SeatWinRate {
                seat: s + 1,
                strategy: info.seats[s].clone(),
                rate: e.mean,
                se: e.se,
                ci95: e.ci95,
                final_score: est(&acc.final_score[s], 1.0),
                final_score_sd: acc.final_score[s].sd_obs(),
            }
        })
        .collect();
    let fair = 1.0 / seats as f64;
    // NaN (n/a) without games.
    let by_position: Vec<f64> = acc
        .wins_by_position
        .iter()
        .map(|&w| w as f64 / (WIN_UNIT as f64 * acc.games as f64))
        .collect();
    GamesModel {
        seats: info.seats.clone(),
        games: acc.games,
        win_rate,
        win_rate_by_strategy: strategy_win_rates(&info.seats, &acc.wins),
        first_player_advantage: by_position.first().map(|w| w - fair),
        win_rate_by_position: by_position,
        turns_per_game: est(&acc.game_turns, 1.0),
        unfinished_games: acc.unfinished,
        final_score_histogram: FinalHistogram {
            bin: 2.0 * m.rules.target as f64 / FINAL_BINS as f64,
            counts: acc.final_hist.clone(),
        },
    }
}

/// The report of a simulation: [`sim_model`], rendered.
pub fn sim_report(m: &Model, acc: &GameAcc, info: &SimInfo) -> Report {
    render_sim(&sim_model(m, acc, info))
}

/// The tables, metadata and notes of a simulation's model; its JSON is the model.
pub fn render_sim(sm: &SimModel) -> Report {
    let mut r = Report {
        title: "Dice of Doom simulation".into(),
        ..Report::default()
    };
    r.meta.push(("rules".into(), sm.rules.summary()));
    r.meta.push(("seed".into(), sm.header.seed.to_string()));
    let all_turns: u64 = sm.seat_turns.iter().map(|s| s.turns).sum();
    match &sm.mode {
        SimModeModel::Turns(t) => {
            r.meta.push(("strategy".into(), t.strategy.clone()));
            r.meta.push(("turns".into(), count(t.turns)));
        }
        SimModeModel::Games(g) => {
            r.meta.push(("seats".into(), g.seats.join(" | ")));
            r.meta.push(("games".into(), count(g.games)));
            r.meta
                .push(("starting seat".into(), sm.run.starting_seat()));
        }
    }
    sm.run.annotate(&mut r, all_turns, "turns");
    if let SimModeModel::Games(g) = &sm.mode {
        games_sections(&mut r, g, &sm.run);
    }
    // Per-seat turn statistics.
    let mut ts = Section::new(
        "Turn score by seat",
        &[
            "seat",
            "strategy",
            "turns",
            "mean",
            "SE",
            "95% CI",
            "exact",
            "z",
            "P(farkle)",
            "P(doom)",
            "rolls/turn",
        ],
    );
    for s in &sm.seat_turns {
        let ci = s.ci95;
        ts.row([
            count_cell(s.seat as u64),
            s.strategy.clone().into(),
            count_cell(s.turns),
            fixed_cell(s.mean_turn_score, 1, "points"),
            fixed_cell(s.mean_turn_score_se, 2, "points"),
            Cell::range(
                format!("[{}, {}]", f1(ci[0]), f1(ci[1])),
                ci[0],
                ci[1],
                "points",
            ),
            s.exact_turn_ev
                .map_or("-".into(), |x| fixed_cell(x, 3, "points")),
            match s.z_vs_exact {
                None => "-".into(),
                // No turns (a run stopped before its first chunk), or no SE.
                Some(z) if !z.is_finite() => "n/a".into(),
                Some(z) => Cell::num(format!("{z:+.2}"), z, "z"),
            },
            pct_cell(s.p_farkle, 2),
            pct_cell(s.p_doom, 2),
            fixed_cell(s.rolls_per_turn, 2, "rolls"),
        ]);
    }
    // After the tables of games, if any.
    r.sections.push(ts);
    if let SimModeModel::Games(g) = &sm.mode {
        r.sections.push(final_score_section(g));
    }
    let (hist, small) = turn_score_section(sm, all_turns);
    r.notes.push(format!(
        "Turn score distribution: the busts (farkle or doom, 0 points) on a row of their own, \
         then bins of {TABLE_BIN} points, from (inclusive) to (exclusive); the JSON keeps bins \
         of {HIST_BIN}."
    ));
    if small && matches!(sm.mode, SimModeModel::Games(_)) {
        r.notes.push(format!(
            "Turns of 1–{} points: banks made with what a seat still needs to reach the \
             target (end-game play such as endgame:T), or by a strategy that banks that low.",
            TABLE_BIN - 1
        ));
    }
    r.sections.push(hist);
    if sm.rules.doom_wipes == DoomWipes::Bank {
        r.notes.push(
            "Doom wipes the bank: turn scores count the turn only; the lost bank shows in the \
             final scores and win rates."
                .into(),
        );
    }
    r.json = serde_json::to_value(sm).unwrap_or_default();
    r
}

/// Points per row of the turn-score table (the JSON and the plot keep bins of `HIST_BIN`).
const TABLE_BIN: i64 = 250;

/// The turn-score table: the busts (farkle or doom, 0 points) on a row of their own, then the
/// scores in bins of [`TABLE_BIN`] points (from, inclusive, to, exclusive); and whether some
/// turns scored more than 0 but less than a bin.
fn turn_score_section(sm: &SimModel, all_turns: u64) -> (Section, bool) {
    let mut hist = Section::new(
        "Turn score distribution",
        &["from", "to", "turns", "fraction"],
    );
    // A bust scores 0 unless a farkle penalty makes it negative.
    let busts = match sm.rules.farkle_penalty {
        None => (sm.p_bust * all_turns as f64).round() as u64,
        Some(_) => 0,
    };
    let mut rows: Vec<(Option<i64>, Option<i64>, u64)> = Vec::new();
    let mut busts_left = busts;
    for b in &sm.turn_score_histogram {
        let mut count = b.count;
        if b.from == Some(0) {
            let taken = busts_left.min(count);
            busts_left -= taken;
            count -= taken;
            rows.push((Some(0), Some(0), taken));
        }
        if count == 0 {
            continue;
        }
        let (from, to) = match (b.from, b.to) {
            (Some(f), Some(_)) => {
                let lo = f.div_euclid(TABLE_BIN) * TABLE_BIN;
                (Some(lo), Some(lo + TABLE_BIN))
            }
            other => other,
        };
        match rows.last_mut() {
            Some(last) if last.0 == from && last.1 == to => last.2 += count,
            _ => rows.push((from, to, count)),
        }
    }
    let bound = |v: Option<i64>, none: &str| {
        v.map_or(none.into(), |v| {
            Cell::num(v.to_string(), v as f64, "points")
        })
    };
    let small = rows
        .iter()
        .any(|&(from, to, n)| from == Some(0) && to == Some(TABLE_BIN) && n > 0);
    for (from, to, n) in rows {
        let bust = from == Some(0) && to == Some(0);
        hist.row([
            if bust {
                Cell::num("0 (bust)".into(), 0.0, "points")
            } else {
                bound(from, "-inf")
            },
            bound(to, "inf"),
            count_cell(n),
            pct_cell(rate(n, all_turns), 3),
        ]);
    }
    (hist, small)
}

/// The tables of games before the turn statistics: win rate by seat, by turn order, game
/// length, and win rate by strategy when seats share one.
fn games_sections(r: &mut Report, g: &GamesModel, run: &RunMeta) {
    let seats = g.win_rate.len();
    let mut ws = Section::new(
        "Win rate by seat (ties shared)",
        &[
            "seat",
            "strategy",
            "win rate",
            "SE",
            "95% CI",
            "mean final score",
            "SD",
        ],
    );
    for w in &g.win_rate {
        let [rate, se, ci] = pct_estimate_cells(w.rate, w.se, w.ci95, 2);
        ws.row([
            count_cell(w.seat as u64),
            w.strategy.clone().into(),
            rate,
            se,
            ci,
            fixed_cell(w.final_score.mean, 1, "points"),
            fixed_cell(w.final_score_sd, 1, "points"),
        ]);
    }
    r.sections.push(ws);
    let mut ps = Section::new(
        "Win rate by turn order (first-player advantage)",
        &["position", "seat", "win rate", "fair share", "difference"],
    );
    if run.start_seat.is_none() {
        ps.columns[1] = "seats".into();
    }
    let fair = 1.0 / seats as f64;
    for (pos, &wr) in g.win_rate_by_position.iter().enumerate() {
        ps.row([
            count_cell(pos as u64 + 1),
            run.start_seat.map_or("all, in turn".into(), |st| {
                count_cell(((st + pos) % seats + 1) as u64)
            }),
            pct_cell(wr, 2),
            pct_cell(fair, 2),
            if wr.is_finite() {
                Cell::num(
                    format!("{:+.2} pp", (wr - fair) * 100.0),
                    wr - fair,
                    "fraction",
                )
            } else {
                Cell::from("n/a")
            },
        ]);
    }
    r.sections.push(ps);
    let gt = &g.turns_per_game;
    let mut gs = Section::new("Game length", &["measure", "value"]);
    gs.row(["turns per game".into(), fixed_cell(gt.mean, 1, "turns")]);
    gs.row(["SE".into(), fixed_cell(gt.se, 2, "turns")]);
    gs.row([
        "rounds per game".into(),
        fixed_cell(gt.mean / seats as f64, 1, "rounds"),
    ]);
    gs.row(["games not finished".into(), count_cell(g.unfinished_games)]);
    r.sections.push(gs);
    if let Some(rows) = &g.win_rate_by_strategy {
        r.sections.push(strategy_win_rate_section(rows));
    }
}

fn final_score_section(g: &GamesModel) -> Section {
    let h = &g.final_score_histogram;
    let mut fs = Section::new("Final score distribution", &["from", "to"]);
    fs.columns
        .extend((1..=h.counts.len()).map(|s| format!("seat {s}")));
    for b in 0..=FINAL_BINS {
        if h.counts.iter().all(|c| c[b] == 0) {
            continue;
        }
        let lo = b as f64 * h.bin;
        let hi = if b == FINAL_BINS {
            "inf".into()
        } else {
            fixed_cell(lo + h.bin, 0, "points")
        };
        let mut row = vec![fixed_cell(lo, 0, "points"), hi];
        row.extend(h.counts.iter().map(|c| count_cell(c[b])));
        fs.row(row);
    }
    fs
}

/// Options of `exact doom`.
pub struct ExactOptions {
    /// Also evaluate these strategies' policies.
    pub strategies: Vec<super::strategy::DoomStrategy>,
    /// Largest T of the bank-at sweep.
    pub sweep_max: u32,
}

/// The exact turn analysis: the JSON document of `exact doom`.
#[derive(Clone, Debug, Serialize)]
pub struct ExactModel {
    pub game: &'static str,
    pub rules: DoomRules,
    pub method: &'static str,
    pub cap_points: u32,
    /// The optimal policy's turn EV.
    pub turn_ev: f64,
    /// Relative values by farkles in a row (all 0 without a farkle penalty).
    pub relative_values: Vec<f64>,
    pub bank_thresholds: Vec<BankThreshold>,
    pub p_bust_by_dice: Vec<BustOdds>,
    pub bank_at_sweep: Vec<BankAt>,
    pub best_bank_at: Option<BankAt>,
    pub strategies: Vec<StrategyEv>,
    /// V(turn points, dice left) under optimal play, for separate scoring only.
    pub values: Option<Vec<ValueRow>>,
    pub solve_ms: f64,
}

/// Optimal banking with `dice_left` dice to roll.
#[derive(Clone, Debug, Serialize)]
pub struct BankThreshold {
    pub dice_left: u8,
    /// The lowest turn points at which it banks (`None`: never).
    pub bank_from: Option<u32>,
    /// The highest turn points at which it rolls on.
    pub roll_up_to: Option<u32>,
    /// Whether one threshold splits banking from rolling.
    pub clean: bool,
}

/// Bust odds of a roll of `dice` dice (nothing held).
#[derive(Clone, Debug, Serialize)]
pub struct BustOdds {
    pub dice: u8,
    pub farkle: f64,
    pub doom: f64,
    pub bust: f64,
}

/// The turn EV of bank-at:`t`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BankAt {
    pub t: u32,
    pub turn_ev: f64,
}

/// The turn EV of a strategy's policy.
#[derive(Clone, Debug, Serialize)]
pub struct StrategyEv {
    pub strategy: String,
    pub turn_ev: f64,
    /// The end-game variant (its turn EV is that of its base threshold).
    #[serde(skip)]
    pub endgame: bool,
}

/// V(`points`, n) for n = 1..=6 dice left (`None`: no such state).
#[derive(Clone, Debug, Serialize)]
pub struct ValueRow {
    pub points: u32,
    pub v: Vec<Option<f64>>,
}

/// Solve the optimal policy, the strategies' policies and the bank-at:T sweep.
pub fn exact_model(m: &Model, opts: &ExactOptions) -> ExactModel {
    let t0 = std::time::Instant::now();
    let opt = solve_policy(m, &Policy::OPTIMAL);
    let solve_s = t0.elapsed().as_secs_f64();
    let rules = &m.rules;
    let method = if rules.farkle_penalty.is_some() {
        "dynamic programming over (turn points, held dice) per farkles-in-a-row count; \
         the long-run average per turn by a secant iteration on the average"
    } else {
        "dynamic programming over (turn points, held dice), one backward pass"
    };
    let p_bust_by_dice = (1..=6u8)
        .map(|n| {
            let (farkle, doom) = m.bust_odds(n);
            BustOdds {
                dice: n,
                farkle,
                doom,
                bust: farkle + doom,
            }
        })
        .collect();
    let bank_thresholds = opt
        .bank_thresholds(m)
        .into_iter()
        .map(|(n, bank_from, roll_up_to)| BankThreshold {
            dice_left: n,
            bank_from,
            roll_up_to,
            clean: match (bank_from, roll_up_to) {
                (Some(b), Some(rm)) => rm < b,
                _ => true,
            },
        })
        .collect();
    // With a farkle penalty each policy costs a dozen solves: a coarser sweep.
    let step = m.unit.max(50) * if rules.farkle_penalty.is_some() { 2 } else { 1 };
    let ts: Vec<u32> = (1..)
        .map(|k| k * step)
        .take_while(|&t| t <= opts.sweep_max)
        .collect();
    let sweep: Vec<BankAt> = ts
        .par_iter()
        .map(|&t| BankAt {
            t,
            turn_ev: solve_policy(m, &Policy::bank_at(t)).turn_ev,
        })
        .collect();
    let best = sweep.iter().copied().fold(None::<BankAt>, |b, x| match b {
        Some(bb) if bb.turn_ev >= x.turn_ev => Some(bb),
        _ => Some(x),
    });
    let strategies = opts
        .strategies
        .iter()
        .map(|s| StrategyEv {
            strategy: s.name.clone(),
            turn_ev: solve_policy(m, &s.policy).turn_ev,
            endgame: s.endgame,
        })
        .collect();
    ExactModel {
        game: "doom",
        rules: rules.clone(),
        method,
        cap_points: CAP_POINTS,
        turn_ev: opt.turn_ev,
        relative_values: opt.relative.clone(),
        bank_thresholds,
        p_bust_by_dice,
        bank_at_sweep: sweep,
        best_bank_at: best,
        strategies,
        values: values(m, &opt),
        solve_ms: solve_s * 1e3,
    }
}

/// V(t, n) for separate scoring (the published form); with combining held dice the value
/// depends on the held multiset, so the report lists the turn EV only (`None`).
fn values(m: &Model, opt: &Solution) -> Option<Vec<ValueRow>> {
    if m.rules.held_dice != HeldDice::Separate {
        return None;
    }
    let rows = (0..=1000)
        .step_by(m.unit.max(50) as usize)
        .map(|t| ValueRow {
            points: t,
            v: (1..=6u8).map(|n| opt.value(m, t, n)).collect(),
        })
        .collect();
    Some(rows)
}

/// The exact turn analysis report: [`exact_model`], rendered.
pub fn exact_report(m: &Model, opts: &ExactOptions) -> Report {
    render_exact(&exact_model(m, opts))
}

/// The tables, metadata and notes of the exact analysis; its JSON is the model.
pub fn render_exact(x: &ExactModel) -> Report {
    let rules = &x.rules;
    let mut r = Report {
        title: "Dice of Doom exact turn analysis".into(),
        meta: vec![
            ("rules".into(), rules.summary()),
            ("method".into(), x.method.into()),
            (
                "cap".into(),
                format!(
                    "states above {} turn points are valued as banked",
                    x.cap_points
                ),
            ),
            (
                "optimal turn EV".into(),
                format!("{:.3} points per turn", x.turn_ev),
            ),
            ("solve time".into(), format!("{:.1} ms", x.solve_ms)),
        ],
        ..Report::default()
    };
    for s in x.strategies.iter().filter(|s| s.endgame) {
        r.notes.push(format!(
            "{}: the end-game variant depends on the game score; its turn EV is that of its \
             base threshold",
            s.strategy
        ));
    }
    r.sections
        .extend([turn_ev_section(x), bust_section(x), threshold_section(x)]);
    if let Some(rows) = &x.values {
        r.sections.push(values_section(rows));
    }
    r.sections.push(sweep_section(x));
    if rules.farkle_penalty.is_some() {
        r.notes.push(format!(
            "With the farkle penalty the turn EV is the long-run average per turn of the policy \
             that maximizes it (relative values by farkles in a row: {}).",
            x.relative_values
                .iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if rules.doom_sixes.is_some() && rules.doom_wipes == DoomWipes::Bank {
        r.notes.push(
            "Doom wipes the bank in these rules; the turn analysis counts the turn's points only \
             (the bank is not part of a turn)."
                .into(),
        );
    }
    r.json = serde_json::to_value(x).unwrap_or_default();
    r
}

/// The turn EV of optimal play, of each strategy asked for and of the best bank-at:T.
fn turn_ev_section(x: &ExactModel) -> Section {
    let mut te = Section::new("Turn EV by policy", &["policy", "turn EV", "vs optimal"]);
    te.row([
        "optimal".into(),
        fixed_cell(x.turn_ev, 3, "points"),
        Cell::num("0".into(), 0.0, "points"),
    ]);
    for s in &x.strategies {
        te.row([
            s.strategy.clone().into(),
            fixed_cell(s.turn_ev, 3, "points"),
            signed_cell(s.turn_ev - x.turn_ev),
        ]);
    }
    if let Some(b) = x.best_bank_at {
        te.row([
            format!("best bank-at (T = {})", b.t).into(),
            fixed_cell(b.turn_ev, 3, "points"),
            signed_cell(b.turn_ev - x.turn_ev),
        ]);
    }
    te
}

fn bust_section(x: &ExactModel) -> Section {
    let mut bust = Section::new(
        "Bust odds by dice rolled (nothing held)",
        &["dice", "P(farkle)", "P(doom)", "P(bust)"],
    );
    for b in &x.p_bust_by_dice {
        bust.row([
            count_cell(b.dice as u64),
            pct_cell(b.farkle, 3),
            pct_cell(b.doom, 3),
            pct_cell(b.bust, 3),
        ]);
    }
    bust
}

/// The pictures of `exact doom`: optimal banking by dice left (`bank-thresholds.svg`: the
/// turn points it banks from and those it still rolls on up to; where they overlap, the held
/// dice decide) and the bank-at:T sweep's turn EV against T with optimal play's
/// (`bank-at-sweep.svg`).
pub fn exact_plots(x: &ExactModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let point = |t: &BankThreshold, v: Option<u32>| v.map(|p| (t.dice_left as f64, p as f64));
    let from: Vec<(f64, f64)> = x
        .bank_thresholds
        .iter()
        .filter_map(|t| point(t, t.bank_from))
        .collect();
    let up_to: Vec<(f64, f64)> = x
        .bank_thresholds
        .iter()
        .filter_map(|t| point(t, t.roll_up_to))
        .collect();
    let thresholds = line_chart(
        "Optimal banking by dice left to roll",
        "dice left to roll",
        "turn points",
        YUnit::Plain,
        &[
            Line {
                name: "banks from (lowest turn points it banks at)",
                points: &from,
                band: None,
                dots: false,
            },
            Line {
                name: "rolls on up to (highest turn points it rolls at)",
                points: &up_to,
                band: None,
                dots: false,
            },
        ],
        None,
    )?;
    let sweep: Vec<(f64, f64)> = x
        .bank_at_sweep
        .iter()
        .map(|b| (b.t as f64, b.turn_ev))
        .collect();
    let sweep = line_chart(
        "Turn EV of bank-at:T against T",
        "T (bank at T turn points or more)",
        "turn EV (points)",
        YUnit::Plain,
        &[Line {
            name: "bank-at:T",
            points: &sweep,
            band: None,
            dots: false,
        }],
        Some((x.turn_ev, "optimal play")),
    )?;
    Ok(vec![
        ("bank-thresholds.svg".into(), thresholds),
        ("bank-at-sweep.svg".into(), sweep),
    ])
}

fn threshold_section(x: &ExactModel) -> Section {
    let mut th = Section::new(
        "Optimal banking by dice left to roll",
        &[
            "dice left",
            "banks from",
            "rolls on up to",
            "a clean threshold",
        ],
    );
    for t in &x.bank_thresholds {
        th.row([
            count_cell(t.dice_left as u64),
            t.bank_from.map_or("never".into(), points_cell),
            t.roll_up_to.map_or("-".into(), points_cell),
            if t.clean {
                "yes"
            } else {
                "no (depends on the held dice)"
            }
            .into(),
        ]);
    }
    th
}

fn values_section(rows: &[ValueRow]) -> Section {
    let mut s = Section::new(
        "V(turn points, dice left) under optimal play",
        &["points", "1", "2", "3", "4", "5", "6"],
    );
    for v in rows {
        let mut row = vec![points_cell(v.points)];
        row.extend(
            v.v.iter()
                .map(|v| v.map_or("-".into(), |v| fixed_cell(v, 3, "points"))),
        );
        s.row(row);
    }
    s
}

fn sweep_section(x: &ExactModel) -> Section {
    let mut sw = Section::new(
        "bank-at:T sweep (set-asides chosen optimally given the rule)",
        &["T", "turn EV", "vs optimal"],
    );
    for b in &x.bank_at_sweep {
        sw.row([
            points_cell(b.t),
            fixed_cell(b.turn_ev, 3, "points"),
            signed_cell(b.turn_ev - x.turn_ev),
        ]);
    }
    sw
}

/// Points shown as an integer, carried as a number.
fn points_cell(p: u32) -> Cell {
    Cell::num(p.to_string(), p as f64, "points")
}

/// A difference in points with its sign and 3 decimals.
fn signed_cell(d: f64) -> Cell {
    Cell::num(format!("{d:+.3}"), d, "points")
}

/// Whether a policy has an exact turn EV (every policy but the end-game variant).
pub fn exact_ev(s: &super::strategy::DoomStrategy, sol: &Solution) -> Option<f64> {
    (!s.endgame && !s.win).then_some(sol.turn_ev)
}

/// SVG plots of a simulation: the turn-score distribution and, for games, win rates by seat
/// and by turn order (percents with 95% error bars and the fair share 1/players). An
/// interrupted run's plots say so.
pub fn plots(acc: &GameAcc, info: &SimInfo) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{bar_chart, binomial_bar, mark, Bar, BarChart, YUnit};
    let acc = &*acc.with_seats(info.seats.len(), info.mode);
    let mut pooled = TurnAcc::default();
    for t in &acc.turns {
        crate::engine::Merge::merge(&mut pooled, t);
    }
    let n = pooled.turns();
    // Every bin from the first to the last non-empty one, so that the x axis is linear.
    let used: Vec<usize> = (1..=HIST_BINS).filter(|&i| pooled.hist[i] > 0).collect();
    let hist: Vec<Bar> = match (used.first(), used.last()) {
        (Some(&a), Some(&b)) => (a..=b)
            .map(|i| {
                binomial_bar(
                    bin_range(i).0.unwrap_or(HIST_MIN).to_string(),
                    pooled.hist[i],
                    n,
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut out = vec![(
        "turn-score-histogram.svg".to_string(),
        bar_chart(&BarChart {
            title: &format!("Turn score distribution (bins of {HIST_BIN})"),
            x_label: "turn score (points, start of bin)",
            y_label: "share of turns (%)",
            y_unit: YUnit::Percent,
            bars: &hist,
            hline: None,
            histogram: true,
        })?,
    )];
    if let Mode::Games(_) = info.mode {
        let players = acc.wins.len().max(1);
        let fair = 100.0 / players as f64;
        let fair_label = format!("fair share 1/{players} = {}%", fixed(fair, 2));
        let seats: Vec<Bar> = acc
            .wins
            .iter()
            .enumerate()
            // No bars without games (a run stopped before its first chunk).
            .filter(|_| acc.games > 0)
            .map(|(s, w)| {
                let e = est(w, 1.0);
                Bar::new(format!("{} {}", s + 1, info.seats[s]), 100.0 * e.mean)
                    .with_ci(100.0 * e.ci95[0], 100.0 * e.ci95[1])
            })
            .collect();
        out.push((
            "win-rate-by-seat.svg".into(),
            bar_chart(&BarChart {
                title: "Win rate by seat (ties shared)",
                x_label: "seat and strategy",
                y_label: "win rate (%)",
                y_unit: YUnit::Percent,
                bars: &seats,
                hline: Some((fair, &fair_label)),
                histogram: false,
            })?,
        ));
        // A position's wins count shared ties as fractions (WIN_UNIT): the binomial interval
        // of the rounded win count.
        let pos: Vec<Bar> = acc
            .wins_by_position
            .iter()
            .enumerate()
            .filter(|_| acc.games > 0)
            .map(|(p, &w)| {
                binomial_bar(
                    format!("{}", p + 1),
                    (w as f64 / WIN_UNIT as f64).round() as u64,
                    acc.games,
                )
            })
            .collect();
        out.push((
            "win-rate-by-turn-order.svg".into(),
            bar_chart(&BarChart {
                title: "Win rate by position in the turn order",
                x_label: "position in the turn order",
                y_label: "win rate (%)",
                y_unit: YUnit::Percent,
                bars: &pos,
                hline: Some((fair, &fair_label)),
                histogram: false,
            })?,
        ));
    }
    if let Some(m) = info.run.marker() {
        for p in &mut out {
            p.1 = mark(&p.1, &m);
        }
    }
    Ok(out)
}

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
    opts: &super::win::WinOptions,
) -> Result<WinModel, super::win::WinError> {
    win_model_kept(m, opts, &super::win::TableStore::Fresh, None)
}

/// The first seat's win probability at every head start (points to the first seat negative,
/// to the second positive, in units of `unit`), and the head start nearest an even game.
fn handicaps(sol: &super::win::WinSolution, unit: u64) -> (Vec<Handicap>, Handicap) {
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
    sol: &super::win::WinSolution,
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
    opts: &super::win::WinOptions,
    store: &super::win::TableStore,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<WinModel, super::win::WinError> {
    use super::win::WinSolution;
    let start = std::time::Instant::now();
    let plan = WinSolution::plan(m, opts)?;
    let (sol, _) = super::win::kept::solve_kept(m, opts, store, stop)?;
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
        method: "dynamic programming over (seat to move, my score, opponent's score, turn points, held dice), sums of scores from the largest down, each farkle 2-cycle solved by a secant iteration",
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
        solve: if (super::win::WinOptions {
            progress: false,
            ..*opts
        }) == super::win::WinOptions::exact()
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

#[cfg(test)]
mod tests {
    use super::super::rules::DoomPreset;
    use super::*;

    fn info(mode: Mode, seats: &[&str], exact: Vec<Option<f64>>) -> SimInfo {
        SimInfo {
            mode,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            exact_ev: exact,
            run: RunMeta {
                seed: 7,
                threads: 2,
                ..RunMeta::default()
            },
        }
    }

    #[test]
    fn the_sim_json_is_the_model_and_has_the_keys_of_its_mode() {
        let m = Model::new(&DoomRules::preset(DoomPreset::Seed));
        // No sums: a run stopped before its first chunk.
        let acc = GameAcc::default();
        let turns = sim_model(
            &m,
            &acc,
            &info(Mode::Turns(10), &["optimal"], vec![Some(500.0)]),
        );
        let r = render_sim(&turns);
        assert_eq!(r.json, serde_json::to_value(&turns).unwrap());
        let j = &r.json;
        assert_eq!(j["game"], "doom");
        assert_eq!(j["seed"], 7);
        assert_eq!(j["turns"], 0);
        assert_eq!(j["strategy"], "optimal");
        assert_eq!(j["exact_turn_ev"], 500.0);
        // No turns: the mean, hence z, is n/a (null).
        assert!(j["z_vs_exact"].is_null() && j.get("z_vs_exact").is_some());
        assert_eq!(j["seat_turns"][0]["strategy"], "optimal");
        for k in [
            "games",
            "seats",
            "win_rate",
            "final_score_histogram",
            "starting_seat",
        ] {
            assert!(j.get(k).is_none(), "{k} in turn mode");
        }
        assert_eq!(r.sections.len(), 2);

        let games = sim_model(
            &m,
            &acc,
            &info(Mode::Games(10), &["optimal", "optimal"], vec![None, None]),
        );
        let r = render_sim(&games);
        let j = &r.json;
        assert_eq!(j["games"], 0);
        assert_eq!(j["seats"][1], "optimal");
        assert_eq!(j["win_rate"][1]["seat"], 2);
        // Rotated game by game: null, not left out.
        assert!(j.get("starting_seat").is_some_and(|v| v.is_null()));
        assert_eq!(j["win_rate_by_strategy"][0]["seats"], 2);
        assert_eq!(
            j["final_score_histogram"]["counts"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        for k in ["turns", "strategy", "exact_turn_ev", "z_vs_exact"] {
            assert!(j.get(k).is_none(), "{k} in game mode");
        }
        // No exact EV (end-game variants): no z either.
        assert!(j["seat_turns"][0].get("z_vs_exact").is_none());
        assert!(j["seat_turns"][0]["exact_turn_ev"].is_null());
        let names: Vec<&str> = r.sections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Win rate by seat (ties shared)",
                "Win rate by turn order (first-player advantage)",
                "Game length",
                "Win rate by strategy (per seat, seats pooled; SE treats seats as independent)",
                "Turn score by seat",
                "Final score distribution",
                "Turn score distribution",
            ]
        );
    }

    #[test]
    fn the_exact_report_renders_its_model_only() {
        let x = ExactModel {
            game: "doom",
            rules: DoomRules::preset(DoomPreset::Seed),
            method: "m",
            cap_points: CAP_POINTS,
            turn_ev: 500.0,
            relative_values: vec![0.0],
            bank_thresholds: vec![],
            p_bust_by_dice: vec![],
            bank_at_sweep: vec![BankAt {
                t: 300,
                turn_ev: 450.0,
            }],
            best_bank_at: Some(BankAt {
                t: 300,
                turn_ev: 450.0,
            }),
            strategies: vec![StrategyEv {
                strategy: "endgame:400".into(),
                turn_ev: 400.0,
                endgame: true,
            }],
            values: None,
            solve_ms: 1.5,
        };
        let r = render_exact(&x);
        assert_eq!(r.json, serde_json::to_value(&x).unwrap());
        assert_eq!(r.json["best_bank_at"]["t"], 300);
        assert!(r.json["values"].is_null());
        assert!(r.json["strategies"][0].get("endgame").is_none());
        assert!(r.notes[0].starts_with("endgame:400: the end-game variant"));
        let te = &r.sections[0];
        assert_eq!(te.rows.len(), 3);
        assert_eq!(te.rows[1][2].text, "-100.000");
        assert_eq!(te.rows[2][0].text, "best bank-at (T = 300)");
        // No V table without separate scoring.
        assert!(r.sections.iter().all(|s| !s.name.starts_with("V(")));
    }
}
