//! Dice of Doom reports: simulation (turns or games) and the exact turn analysis.
//!
//! Each report is a model computed from the sums (or the solver), then rendered: the tables,
//! metadata and notes come from the model only, and the JSON document is the model serialized.

use serde::Serialize;

use super::model::Model;
use super::rules::{DoomRules, DoomWipes};
use super::sim::{
    final_counts, turn_bins, GameAcc, Mode, TurnAcc, FINAL_BINS, HIST_BIN, HIST_MIN, WIN_UNIT,
};
use crate::report::{
    count, count_cell, est, fixed, fixed_cell, pct_cell, pct_estimate_cells, rate,
    strategy_win_rate_section, strategy_win_rates, Cell, Report, RunHeader, RunMeta, Section,
    StrategyWinRate,
};
use crate::stats::Estimate;

mod exact;
mod small;
mod win;

pub use exact::{
    exact_ev, exact_model, exact_plots, exact_report, render_exact, BankAt, BankThreshold,
    BustOdds, ExactModel, ExactOptions, StrategyEv, ValueRow,
};
pub use small::{
    check_strategy, render_small, small_model, SeatLoss, SeatLossCell, SmallError, SmallModel,
    DEFAULT_STRATEGIES,
};
pub use win::{
    render_win, win_model, win_model_kept, win_plots, Handicap, WinCell, WinModel, WinThreshold,
};

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

/// The turn-score bins of a report: (from, to, count) of every non-empty one, `None` for
/// the open ends of what lies below and above the bins.
fn turn_score_bins(t: &TurnAcc) -> Vec<HistBin> {
    let w = turn_bins(&t.hist);
    let top = HIST_MIN + HIST_BIN * w.bins.len() as i64;
    let mut out = vec![HistBin {
        from: None,
        to: Some(HIST_MIN),
        count: w.below,
    }];
    out.extend(w.bins.iter().enumerate().map(|(i, &count)| {
        let lo = HIST_MIN + HIST_BIN * i as i64;
        HistBin {
            from: Some(lo),
            to: Some(lo + HIST_BIN),
            count,
        }
    }));
    out.push(HistBin {
        from: Some(top),
        to: None,
        count: w.above,
    });
    out.retain(|b| b.count > 0);
    out
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
    let turn_score_histogram = turn_score_bins(&pooled);
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
            counts: acc.final_hist.iter().map(final_counts).collect(),
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
    r.full_only(&["Final score distribution", "Turn score distribution"]);
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

/// SVG plots of a simulation: the turn-score distribution and, for games, win rates by seat
/// and by turn order (percents with 95% error bars and the fair share 1/players). An
/// interrupted run's plots say so.
pub fn plots(acc: &GameAcc, info: &SimInfo) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{
        bar_chart, binomial_bar, fair_share, mark, win_rate_by_seat, Bar, BarChart, YUnit,
    };
    let acc = &*acc.with_seats(info.seats.len(), info.mode);
    let mut pooled = TurnAcc::default();
    for t in &acc.turns {
        crate::engine::Merge::merge(&mut pooled, t);
    }
    let n = pooled.turns();
    // Every bin from the first to the last non-empty one, so that the x axis is linear.
    let bins = turn_bins(&pooled.hist).bins;
    let used: Vec<usize> = (0..bins.len()).filter(|&i| bins[i] > 0).collect();
    let hist: Vec<Bar> = match (used.first(), used.last()) {
        (Some(&a), Some(&b)) => (a..=b)
            .map(|i| {
                let lo = HIST_MIN + HIST_BIN * i as i64;
                binomial_bar(lo.to_string(), bins[i], n)
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
        out.push((
            "win-rate-by-seat.svg".into(),
            win_rate_by_seat(&acc.wins, acc.games, &info.seats)?,
        ));
        let (fair, fair_label) = fair_share(acc.wins.len());
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
}
