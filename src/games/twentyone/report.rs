//! Twenty One reports: games (scores, win rates, re-roll advantage), the row-optimal cost
//! sweep, and the exact pieces.

use serde_json::json;

use super::exact::{evaluate, printed, row_events};
use super::rules::TwentyOneRules;
use super::sim::{TwentyOneAcc, MAX_SCORE};
use super::strategy::RowTable;
use crate::report::{
    ci_cell, count, count_cell, est, estimate_json, fixed, fixed_cell, pct, pct_cell,
    win_rate_by_strategy, Cell, Report, RunMeta, Section,
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

/// The report of a simulation of games.
pub fn sim_report(rules: &TwentyOneRules, acc: &TwentyOneAcc, info: &RunInfo) -> Report {
    let n = info.seats.len();
    // A run stopped before its first chunk has no sums: report every seat as n/a.
    let acc = &*acc.with_seats(n);
    let mut r = Report {
        title: "Twenty One simulation".into(),
        ..Report::default()
    };
    r.meta.push(("Rules".into(), rules.summary()));
    r.meta.push(("Seats".into(), info.seats.join(" | ")));
    r.meta.push(("Games".into(), count(acc.games)));
    r.meta.push(("Seed".into(), info.run.seed.to_string()));
    r.meta
        .push(("Starting seat".into(), info.run.starting_seat()));
    info.run.annotate(&mut r, acc.games, "games");
    // No games (a run stopped before its first chunk): per-game figures are NaN, shown n/a.
    let games = if acc.games == 0 {
        f64::NAN
    } else {
        acc.games as f64
    };
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
    let mut qs = Section::new(
        "Final score quantiles",
        &["seat", "min", "5%", "25%", "median", "75%", "95%", "max"],
    );
    let mut hr = Section::new(
        "Hits per row (mean per game)",
        &["seat", "row 1", "row 2", "row 3", "row 4", "row 5", "total"],
    );
    let mut adv = Section::new(
        "Re-roll control: points per turn as the active player vs on others' turns",
        &["seat", "active", "SE", "passive", "SE", "advantage"],
    );
    let (mut win_json, mut score_json, mut hits_json, mut adv_json) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for s in 0..n {
        let w = est(&acc.wins[s], 1.0);
        let sc = est(&acc.score[s], 1.0);
        let sd = acc.score[s].sd_obs();
        let cross = acc.crossings[s] as f64 / games;
        seats.row([
            count_cell(s as u64 + 1),
            rules.sheets[s].name.clone().into(),
            info.seats[s].clone().into(),
            pct_cell(w.mean, 2),
            pct_cell(w.se, 2),
            ci_cell(&w, 2),
            fixed_cell(sc.mean, 2, "points"),
            fixed_cell(sd, 2, "points"),
            fixed_cell(cross, 2, "crossings"),
        ]);
        let q = quantiles(&acc.score_hist[s]);
        let mut row = vec![count_cell(s as u64 + 1)];
        row.extend(q.iter().map(|&v| {
            if acc.games == 0 {
                Cell::from("n/a")
            } else {
                fixed_cell(v as f64, 0, "points")
            }
        }));
        qs.row(row);
        let per_row: Vec<f64> = acc.hits_row[s].iter().map(|&h| h as f64 / games).collect();
        let mut row = vec![count_cell(s as u64 + 1)];
        row.extend(per_row.iter().map(|&v| fixed_cell(v, 2, "hits")));
        row.push(fixed_cell(per_row.iter().sum(), 2, "hits"));
        hr.row(row);
        let a = est(&acc.active[s], 1.0);
        let p = est(&acc.passive[s], 1.0);
        let d = Estimate::new(
            a.mean - p.mean,
            (a.se.powi(2) + p.se.powi(2)).sqrt(),
            acc.active[s].df(),
        );
        adv.row([
            count_cell(s as u64 + 1),
            fixed_cell(a.mean, 3, "points"),
            fixed_cell(a.se, 3, "points"),
            fixed_cell(p.mean, 3, "points"),
            fixed_cell(p.se, 3, "points"),
            if d.mean.is_finite() {
                Cell::num(format!("{:+.3} ± {:.3}", d.mean, d.se), d.mean, "points")
            } else {
                Cell::from("n/a")
            },
        ]);
        win_json.push(json!({"seat": s + 1, "strategy": info.seats[s], "rate": w.mean, "se": w.se, "ci95": w.ci95}));
        score_json.push(json!({
            "seat": s + 1, "strategy": info.seats[s], "sheet": rules.sheets[s].name,
            "mean": sc.mean, "mean_se": sc.se, "sd": sd,
            "quantiles": QUANTILES.iter().zip(&q).map(|(k, v)| json!({"q": k, "score": (acc.games > 0).then_some(v)})).collect::<Vec<_>>(),
            "histogram": acc.score_hist[s],
        }));
        hits_json.push(json!({"seat": s + 1, "by_row": per_row, "crossings_per_game": cross}));
        adv_json.push(json!({"seat": s + 1, "active": estimate_json(&a), "passive": estimate_json(&p), "advantage": estimate_json(&d)}));
    }
    r.sections.push(seats);
    let by_strategy = win_rate_by_strategy(&info.seats, &acc.wins);
    if let Some((sec, _)) = &by_strategy {
        r.sections.push(sec.clone());
    }
    r.sections.push(qs);
    r.sections.push(hr);
    r.sections.push(adv);
    let turns = est(&acc.turns, 1.0);
    let rolls = acc.rolls as f64 / games;
    let mut gl = Section::new("Game length", &["measure", "value"]);
    gl.row([
        "turns (shared rolls) per game".into(),
        fixed_cell(turns.mean, 2, "turns"),
    ]);
    gl.row([
        "dice rolls per game, re-rolls included".into(),
        fixed_cell(rolls, 2, "rolls"),
    ]);
    r.sections.push(gl);
    let mut dist = Section::new("Final score distribution (bins of 10)", &["from", "to"]);
    dist.columns.extend((1..=n).map(|s| format!("seat {s}")));
    for b in 0..=(MAX_SCORE / 10) {
        let counts: Vec<u64> = acc
            .score_hist
            .iter()
            .map(|h| h[b * 10..((b + 1) * 10).min(MAX_SCORE + 1)].iter().sum())
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
    r.sections.push(dist);
    let mut j = json!({
        "game": "twenty-one",
        "rules": rules,
        "seats": info.seats.iter().enumerate().map(|(s, n)| json!({"seat": s + 1, "strategy": n, "sheet": rules.sheets[s].name})).collect::<Vec<_>>(),
        "seed": info.run.seed,
        "games": acc.games,
        "score": score_json,
        "win_rate": win_json,
        "turns_per_game": estimate_json(&turns),
        "rolls_per_game": rolls,
        "hits_per_row": hits_json,
        "active_advantage": adv_json,
        "starting_seat": info.run.start_seat.map(|s| s + 1),
        "elapsed_s": info.run.elapsed_s,
        "games_per_s": acc.games as f64 / info.run.elapsed_s.max(1e-9),
        "threads": info.run.threads,
        "interrupted": info.run.interrupted,
    });
    if let Some((_, v)) = by_strategy {
        j["win_rate_by_strategy"] = v;
    }
    r.json = j;
    r
}

/// One point of the row-optimal cost sweep: seat 1 plays row-optimal:c.
pub struct SweepPoint {
    pub c: f64,
    pub acc: TwentyOneAcc,
}

/// The sweep report: which cost per roll wins most often against the other seats.
pub fn sweep_report(
    rules: &TwentyOneRules,
    others: &[String],
    points: &[SweepPoint],
    seed: u64,
    elapsed_s: f64,
) -> Report {
    let mut r = Report {
        title: "Twenty One: row-optimal cost per roll sweep".into(),
        ..Report::default()
    };
    r.meta.push(("Rules".into(), rules.summary()));
    r.meta.push((
        "Table".into(),
        format!("seat 1 row-optimal:c against {}", others.join(", ")),
    ));
    r.meta.push((
        "Games per c".into(),
        count(points.first().map_or(0, |p| p.acc.games)),
    ));
    r.meta.push((
        "Seed".into(),
        format!("{seed} (the same random streams for every c)"),
    ));
    r.meta.push(("Elapsed".into(), format!("{elapsed_s:.2} s")));
    let n = others.len() + 1;
    let mut s = Section::new(
        "Win rate of row-optimal:c (seat 1)",
        &["c", "win rate", "SE", "95% CI", "mean score", "fair share"],
    );
    let mut js = Vec::new();
    let mut best: Option<(f64, Estimate)> = None;
    for p in points {
        let w = est(&p.acc.wins[0], 1.0);
        let sc = est(&p.acc.score[0], 1.0);
        s.row([
            Cell::num(format!("{}", p.c), p.c, "points per roll"),
            pct_cell(w.mean, 2),
            pct_cell(w.se, 2),
            ci_cell(&w, 2),
            fixed_cell(sc.mean, 2, "points"),
            pct_cell(1.0 / n as f64, 2),
        ]);
        js.push(json!({"c": p.c, "win_rate": w.mean, "se": w.se, "ci95": w.ci95, "mean_score": sc.mean}));
        if best.is_none_or(|(_, b)| w.mean > b.mean) {
            best = Some((p.c, w));
        }
    }
    r.sections.push(s);
    if let Some((c, w)) = best {
        let close: Vec<String> = points
            .iter()
            .filter(|p| {
                let e = est(&p.acc.wins[0], 1.0);
                p.c != c && (w.mean - e.mean) < 2.0 * (w.se.powi(2) + e.se.powi(2)).sqrt()
            })
            .map(|p| p.c.to_string())
            .collect();
        r.notes.push(format!(
            "Best: c = {c}, win rate {} ± {}{}.",
            pct(w.mean, 2),
            pct(w.se, 2),
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
    r.json = json!({
        "game": "twenty-one",
        "rules": rules,
        "others": others,
        "seed": seed,
        "games": points.first().map_or(0, |p| p.acc.games),
        "sweep": js,
        "best_c": best.map(|b| b.0),
        "elapsed_s": elapsed_s,
    });
    r
}

/// The exact pieces: single-roll events for every set of empty boxes, and (optionally) the
/// row-optimal policy table for cost `c`.
pub fn exact_report(rules: &TwentyOneRules, row_policy: Option<f64>) -> Report {
    let mut r = Report {
        title: "Twenty One exact pieces".into(),
        ..Report::default()
    };
    r.meta.push(("Rules".into(), rules.summary()));
    r.meta.push((
        "Method".into(),
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
    let mut ev_json = Vec::new();
    let mut masks: Vec<u8> = (1..64).collect();
    masks.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
    for &e in &masks {
        let x = row_events(e);
        let three: f64 = x.p_hits[3..].iter().sum();
        ev.row([
            printed(e).into(),
            pct_cell(x.p_any_legal, 3),
            fixed_cell(x.expected_legal, 4, "dice"),
            pct_cell(x.p_hits[0], 3),
            pct_cell(x.p_hits[1], 3),
            pct_cell(x.p_hits[2], 3),
            pct_cell(three, 3),
        ]);
        ev_json.push(json!({"empty": printed(e), "mask": e, "p_any_legal": x.p_any_legal, "expected_legal": x.expected_legal, "p_hits": x.p_hits}));
    }
    r.sections.push(ev);
    let mut j = json!({"game": "twenty-one", "rules": rules, "row_events": ev_json});
    if let Some(c) = row_policy {
        let t = RowTable::new(c, rules.rerolls);
        let (pts, rolls) = evaluate(&t);
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
        let mut sj = Vec::new();
        for &e in &masks {
            for h in 0..=(6 - e.count_ones() as usize) {
                ps.row([
                    printed(e).into(),
                    count_cell(h as u64),
                    fixed_cell(t.f[e as usize][h], 4, "points"),
                    fixed_cell(pts[e as usize][h], 4, "points"),
                    fixed_cell(rolls[e as usize][h], 4, "rolls"),
                ]);
                sj.push(json!({"empty": printed(e), "hits": h, "value": t.f[e as usize][h], "points": pts[e as usize][h], "rolls": rolls[e as usize][h]}));
            }
        }
        r.meta.push((
            "A whole row".into(),
            format!(
                "{:.3} expected points in {:.3} rolls (cost {c}: value {:.3})",
                pts[63][0], rolls[63][0], t.f[63][0]
            ),
        ));
        r.sections.push(ps);
        r.notes.push(
            "The row policy uses each roll as it comes; as the active player it also re-rolls \
             when the expected value after re-rolling the non-1 dice is higher."
                .into(),
        );
        j["row_policy"] =
            json!({"c": c, "row_points": pts[63][0], "row_rolls": rolls[63][0], "states": sj});
    }
    r.json = j;
    r
}

/// SVG plots: win rate by seat (percents with 95% error bars and the fair share
/// 1/players) and the final-score histogram. An interrupted run's plots say so.
pub fn plots(acc: &TwentyOneAcc, info: &RunInfo) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{bar_chart, binomial_bar, mark, Bar, BarChart, YUnit};
    let acc = &*acc.with_seats(info.seats.len());
    let players = acc.wins.len().max(1);
    let fair = 100.0 / players as f64;
    let fair_label = format!("fair share 1/{players} = {}%", fixed(fair, 2));
    let bars: Vec<Bar> = acc
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
    let total: u64 = acc.score_hist.iter().map(|h| h.iter().sum::<u64>()).sum();
    let bins: Vec<u64> = (0..=(MAX_SCORE / 10))
        .map(|b| {
            acc.score_hist
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
            bar_chart(&BarChart {
                title: "Win rate by seat (ties shared)",
                x_label: "seat and strategy",
                y_label: "win rate (%)",
                y_unit: YUnit::Percent,
                bars: &bars,
                hline: Some((fair, &fair_label)),
                histogram: false,
            })?,
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
}
