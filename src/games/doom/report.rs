//! Dice of Doom reports: simulation (turns or games) and the exact turn analysis.

use rayon::prelude::*;
use serde_json::json;

use super::exact::{solve_policy, Policy, Solution, CAP_POINTS};
use super::model::Model;
use super::rules::{DoomWipes, HeldDice};
use super::sim::{GameAcc, Mode, TurnAcc, FINAL_BINS, HIST_BIN, HIST_BINS, HIST_MIN, WIN_UNIT};
use crate::report::{
    ci_cell, count, count_cell, est, estimate_json, fixed, fixed_cell, pct_cell, rate, Cell,
    Report, RunMeta, Section,
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

fn histogram_json(t: &TurnAcc) -> serde_json::Value {
    let mut bins = Vec::new();
    for (i, &n) in t.hist.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let (from, to) = bin_range(i);
        bins.push(json!({"from": from, "to": to, "count": n}));
    }
    json!(bins)
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

fn turn_summary(t: &TurnAcc) -> (Estimate, f64, f64, f64) {
    let n = t.turns();
    let e = est(&t.score, 1.0);
    (e, rate(t.farkles, n), rate(t.dooms, n), rate(t.rolls, n))
}

/// The report of a simulation.
pub fn sim_report(m: &Model, acc: &GameAcc, info: &SimInfo) -> Report {
    // A run stopped before its first chunk has no sums: report every seat as n/a.
    let acc = &*acc.with_seats(info.seats.len(), info.mode);
    let mut r = Report {
        title: "Dice of Doom simulation".into(),
        ..Report::default()
    };
    let rules = &m.rules;
    r.meta.push(("Rules".into(), rules.summary()));
    r.meta.push(("Seed".into(), info.run.seed.to_string()));
    let all_turns: u64 = acc.turns.iter().map(|t| t.turns()).sum();
    match info.mode {
        Mode::Turns(_) => {
            r.meta.push(("Strategy".into(), info.seats[0].clone()));
            r.meta.push(("Turns".into(), count(all_turns)));
        }
        Mode::Games(_) => {
            r.meta.push(("Seats".into(), info.seats.join(" | ")));
            r.meta.push(("Games".into(), count(acc.games)));
            r.meta
                .push(("Starting seat".into(), info.run.starting_seat()));
        }
    }
    info.run.annotate(&mut r, all_turns, "turns");
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
    let mut seats_json = Vec::new();
    for (s, t) in acc.turns.iter().enumerate() {
        let (e, pf, pd, rolls) = turn_summary(t);
        let exact = info.exact_ev.get(s).copied().flatten();
        let z = exact.map(|x| (e.mean - x) / e.se);
        ts.row([
            count_cell(s as u64 + 1),
            info.seats[s].clone().into(),
            count_cell(t.turns()),
            fixed_cell(e.mean, 1, "points"),
            fixed_cell(e.se, 2, "points"),
            Cell::range(
                format!("[{}, {}]", f1(e.ci95[0]), f1(e.ci95[1])),
                e.ci95[0],
                e.ci95[1],
                "points",
            ),
            exact.map_or("-".into(), |x| fixed_cell(x, 3, "points")),
            match z {
                None => "-".into(),
                // No turns (a run stopped before its first chunk), or no SE.
                Some(z) if !z.is_finite() => "n/a".into(),
                Some(z) => Cell::num(format!("{z:+.2}"), z, "z"),
            },
            pct_cell(pf, 2),
            pct_cell(pd, 2),
            fixed_cell(rolls, 2, "rolls"),
        ]);
        seats_json.push(json!({
            "seat": s + 1, "strategy": info.seats[s], "turns": t.turns(),
            "mean_turn_score": e.mean, "mean_turn_score_se": e.se, "ci95": e.ci95,
            "exact_turn_ev": exact, "p_bust": rate(t.farkles + t.dooms, t.turns()),
            "p_farkle": pf, "p_doom": pd, "p_penalty": rate(t.penalties, t.turns()),
            "rolls_per_turn": rolls, "sd_turn": t.score.sd_obs(),
        }));
    }
    r.sections.push(ts);
    // Pool all seats for the top-level turn figures (one seat in turn mode).
    let mut pooled = TurnAcc::default();
    for t in &acc.turns {
        crate::engine::Merge::merge(&mut pooled, t);
    }
    let (pe, pf, pd, prolls) = turn_summary(&pooled);
    let mut hist = Section::new(
        "Turn score distribution",
        &["from", "to", "turns", "fraction"],
    );
    for (i, &n) in pooled.hist.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let (a, b) = bin_range(i);
        hist.row([
            a.map_or("-inf".into(), |v| {
                Cell::num(v.to_string(), v as f64, "points")
            }),
            b.map_or("inf".into(), |v| {
                Cell::num(v.to_string(), v as f64, "points")
            }),
            count_cell(n),
            pct_cell(rate(n, pooled.turns()), 3),
        ]);
    }
    let mut j = json!({
        "game": "doom",
        "rules": rules,
        "seed": info.run.seed,
        "mean_turn_score": pe.mean,
        "mean_turn_score_se": pe.se,
        "mean_turn_score_ci95": pe.ci95,
        "sd_turn": pooled.score.sd_obs(),
        "p_bust": rate(pooled.farkles + pooled.dooms, pooled.turns()),
        "p_farkle": pf,
        "p_doom": pd,
        "rolls_per_turn": prolls,
        "turn_score_histogram": histogram_json(&pooled),
        "turn_score_histogram_bin": HIST_BIN,
        "elapsed_s": info.run.elapsed_s,
        "threads": info.run.threads,
        "interrupted": info.run.interrupted,
        "turns_per_s": all_turns as f64 / info.run.elapsed_s.max(1e-9),
        "seat_turns": seats_json,
    });
    match info.mode {
        Mode::Turns(_) => {
            j["strategy"] = json!(info.seats[0]);
            j["turns"] = json!(all_turns);
            if let Some(x) = info.exact_ev[0] {
                j["exact_turn_ev"] = json!(x);
                j["z_vs_exact"] = json!((pe.mean - x) / pe.se);
            }
        }
        Mode::Games(_) => {
            games_sections(&mut r, &mut j, acc, info, m);
        }
    }
    r.sections.push(hist);
    if rules.doom_wipes == DoomWipes::Bank {
        r.notes.push(
            "Doom wipes the bank: turn scores count the turn only; the lost bank shows in the \
             final scores and win rates."
                .into(),
        );
    }
    r.json = j;
    r
}

fn games_sections(
    r: &mut Report,
    j: &mut serde_json::Value,
    acc: &GameAcc,
    info: &SimInfo,
    m: &Model,
) {
    let seats = acc.wins.len();
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
    let mut win_json = Vec::new();
    for s in 0..seats {
        let e = est(&acc.wins[s], 1.0);
        let fsc = est(&acc.final_score[s], 1.0);
        ws.row([
            count_cell(s as u64 + 1),
            info.seats[s].clone().into(),
            pct_cell(e.mean, 2),
            pct_cell(e.se, 2),
            ci_cell(&e, 2),
            fixed_cell(fsc.mean, 1, "points"),
            fixed_cell(acc.final_score[s].sd_obs(), 1, "points"),
        ]);
        win_json.push(json!({
            "seat": s + 1, "strategy": info.seats[s], "rate": e.mean, "se": e.se,
            "ci95": e.ci95, "final_score": estimate_json(&fsc),
            "final_score_sd": acc.final_score[s].sd_obs(),
        }));
    }
    r.sections.insert(0, ws);
    if let Some((sec, v)) = crate::report::win_rate_by_strategy(&info.seats, &acc.wins) {
        r.sections.insert(1, sec);
        j["win_rate_by_strategy"] = v;
    }
    let mut ps = Section::new(
        "Win rate by turn order (first-player advantage)",
        &["position", "seat", "win rate", "fair share", "difference"],
    );
    if info.run.start_seat.is_none() {
        ps.columns[1] = "seats".into();
    }
    let fair = 1.0 / seats as f64;
    let mut pos_json = Vec::new();
    for (pos, &w) in acc.wins_by_position.iter().enumerate() {
        // NaN (n/a) without games.
        let wr = w as f64 / (WIN_UNIT as f64 * acc.games as f64);
        ps.row([
            count_cell(pos as u64 + 1),
            info.run.start_seat.map_or("all, in turn".into(), |st| {
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
        pos_json.push(wr);
    }
    r.sections.insert(1, ps);
    let gt = est(&acc.game_turns, 1.0);
    let mut gs = Section::new("Game length", &["measure", "value"]);
    gs.row(["turns per game".into(), fixed_cell(gt.mean, 1, "turns")]);
    gs.row(["SE".into(), fixed_cell(gt.se, 2, "turns")]);
    gs.row([
        "rounds per game".into(),
        fixed_cell(gt.mean / seats as f64, 1, "rounds"),
    ]);
    gs.row(["games not finished".into(), count_cell(acc.unfinished)]);
    r.sections.insert(2, gs);
    let mut fs = Section::new("Final score distribution", &["from", "to"]);
    fs.columns.extend((1..=seats).map(|s| format!("seat {s}")));
    let target = m.rules.target as f64;
    let bin = 2.0 * target / FINAL_BINS as f64;
    for b in 0..=FINAL_BINS {
        if acc.final_hist.iter().all(|h| h[b] == 0) {
            continue;
        }
        let lo = b as f64 * bin;
        let hi = if b == FINAL_BINS {
            "inf".into()
        } else {
            fixed_cell(lo + bin, 0, "points")
        };
        let mut row = vec![fixed_cell(lo, 0, "points"), hi];
        row.extend(acc.final_hist.iter().map(|h| count_cell(h[b])));
        fs.row(row);
    }
    r.sections.push(fs);
    j["seats"] = json!(info.seats);
    j["games"] = json!(acc.games);
    j["win_rate"] = json!(win_json);
    j["win_rate_by_position"] = json!(pos_json);
    j["first_player_advantage"] = json!(pos_json.first().map(|w| w - fair));
    j["turns_per_game"] = estimate_json(&gt);
    j["unfinished_games"] = json!(acc.unfinished);
    j["starting_seat"] = json!(info.run.start_seat.map(|s| s + 1));
    j["final_score_histogram"] = json!({
        "bin": bin,
        "counts": acc.final_hist,
    });
}

/// Options of `exact doom`.
pub struct ExactOptions {
    /// Also evaluate these strategies' policies.
    pub strategies: Vec<super::strategy::DoomStrategy>,
    /// Largest T of the bank-at sweep.
    pub sweep_max: u32,
}

/// The exact turn analysis report.
pub fn exact_report(m: &Model, opts: &ExactOptions) -> Report {
    let t0 = std::time::Instant::now();
    let opt = solve_policy(m, &Policy::OPTIMAL);
    let solve_s = t0.elapsed().as_secs_f64();
    let rules = &m.rules;
    let mut r = Report {
        title: "Dice of Doom exact turn analysis".into(),
        ..Report::default()
    };
    r.meta.push(("Rules".into(), rules.summary()));
    let method = if rules.farkle_penalty.is_some() {
        "dynamic programming over (turn points, held dice) per farkles-in-a-row count; \
         the long-run average per turn by a secant iteration on the average"
    } else {
        "dynamic programming over (turn points, held dice), one backward pass"
    };
    r.meta.push(("Method".into(), method.into()));
    r.meta.push((
        "Cap".into(),
        format!("states above {CAP_POINTS} turn points are valued as banked"),
    ));
    r.meta.push((
        "Optimal turn EV".into(),
        format!("{:.3} points per turn", opt.turn_ev),
    ));
    r.meta
        .push(("Solve time".into(), format!("{:.1} ms", solve_s * 1e3)));

    let mut bust = Section::new(
        "Bust odds by dice rolled (nothing held)",
        &["dice", "P(farkle)", "P(doom)", "P(bust)"],
    );
    let mut bust_json = Vec::new();
    for n in 1..=6u8 {
        let (f, d) = m.bust_odds(n);
        bust.row([
            count_cell(n as u64),
            pct_cell(f, 3),
            pct_cell(d, 3),
            pct_cell(f + d, 3),
        ]);
        bust_json.push(json!({"dice": n, "farkle": f, "doom": d, "bust": f + d}));
    }

    let mut th = Section::new(
        "Optimal banking by dice left to roll",
        &[
            "dice left",
            "banks from",
            "rolls on up to",
            "a clean threshold",
        ],
    );
    let mut th_json = Vec::new();
    for (n, bank_min, roll_max) in opt.bank_thresholds(m) {
        let clean = match (bank_min, roll_max) {
            (Some(b), Some(rm)) => rm < b,
            _ => true,
        };
        th.row([
            count_cell(n as u64),
            bank_min.map_or("never".into(), points_cell),
            roll_max.map_or("-".into(), points_cell),
            if clean {
                "yes"
            } else {
                "no (depends on the held dice)"
            }
            .into(),
        ]);
        th_json.push(
            json!({"dice_left": n, "bank_from": bank_min, "roll_up_to": roll_max, "clean": clean}),
        );
    }

    // With a farkle penalty each policy costs a dozen solves: a coarser sweep.
    let step = m.unit.max(50) * if rules.farkle_penalty.is_some() { 2 } else { 1 };
    let ts: Vec<u32> = (1..)
        .map(|k| k * step)
        .take_while(|&t| t <= opts.sweep_max)
        .collect();
    let sweep: Vec<(u32, f64)> = ts
        .par_iter()
        .map(|&t| (t, solve_policy(m, &Policy::bank_at(t)).turn_ev))
        .collect();
    let best = sweep
        .iter()
        .copied()
        .fold(None::<(u32, f64)>, |b, x| match b {
            Some(bb) if bb.1 >= x.1 => Some(bb),
            _ => Some(x),
        });
    let mut sw = Section::new(
        "bank-at:T sweep (set-asides chosen optimally given the rule)",
        &["T", "turn EV", "vs optimal"],
    );
    for &(t, ev) in &sweep {
        sw.row([
            points_cell(t),
            fixed_cell(ev, 3, "points"),
            signed_cell(ev - opt.turn_ev),
        ]);
    }

    let mut te = Section::new("Turn EV by policy", &["policy", "turn EV", "vs optimal"]);
    te.row([
        "optimal".into(),
        fixed_cell(opt.turn_ev, 3, "points"),
        Cell::num("0".into(), 0.0, "points"),
    ]);
    let mut strat_json = Vec::new();
    for s in &opts.strategies {
        if s.endgame {
            r.notes.push(format!(
                "{}: the end-game variant depends on the game score; its turn EV is that of its \
                 base threshold",
                s.name
            ));
        }
        let sol = solve_policy(m, &s.policy);
        te.row([
            s.name.clone().into(),
            fixed_cell(sol.turn_ev, 3, "points"),
            signed_cell(sol.turn_ev - opt.turn_ev),
        ]);
        strat_json.push(json!({"strategy": s.name, "turn_ev": sol.turn_ev}));
    }
    if let Some((t, ev)) = best {
        te.row([
            format!("best bank-at (T = {t})").into(),
            fixed_cell(ev, 3, "points"),
            signed_cell(ev - opt.turn_ev),
        ]);
    }
    r.sections.push(te);
    r.sections.push(bust);
    r.sections.push(th);
    let values_json = values_section(&mut r, m, &opt);
    r.sections.push(sw);
    if rules.farkle_penalty.is_some() {
        r.notes.push(format!(
            "With the farkle penalty the turn EV is the long-run average per turn of the policy \
             that maximizes it (relative values by farkles in a row: {}).",
            opt.relative
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
    r.json = json!({
        "game": "doom",
        "rules": rules,
        "method": method,
        "cap_points": CAP_POINTS,
        "turn_ev": opt.turn_ev,
        "relative_values": opt.relative,
        "bank_thresholds": th_json,
        "p_bust_by_dice": bust_json,
        "bank_at_sweep": sweep.iter().map(|(t, ev)| json!({"t": t, "turn_ev": ev})).collect::<Vec<_>>(),
        "best_bank_at": best.map(|(t, ev)| json!({"t": t, "turn_ev": ev})),
        "strategies": strat_json,
        "values": values_json,
        "solve_ms": solve_s * 1e3,
    });
    r
}

/// V(t, n) for separate scoring (the published form); with combining held dice the value
/// depends on the held multiset, so the table lists the turn EV only.
fn values_section(r: &mut Report, m: &Model, opt: &Solution) -> serde_json::Value {
    if m.rules.held_dice != HeldDice::Separate {
        return serde_json::Value::Null;
    }
    let mut s = Section::new(
        "V(turn points, dice left) under optimal play",
        &["points", "1", "2", "3", "4", "5", "6"],
    );
    let mut rows = Vec::new();
    for t in (0..=1000).step_by(m.unit.max(50) as usize) {
        let vals: Vec<Option<f64>> = (1..=6u8).map(|n| opt.value(m, t, n)).collect();
        let mut row = vec![points_cell(t)];
        row.extend(
            vals.iter()
                .map(|v| v.map_or("-".into(), |v| fixed_cell(v, 3, "points"))),
        );
        s.row(row);
        rows.push(json!({"points": t, "v": vals}));
    }
    r.sections.push(s);
    json!(rows)
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
    (!s.endgame).then_some(sol.turn_ev)
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
