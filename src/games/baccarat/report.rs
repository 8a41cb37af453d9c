//! The baccarat run report and plots.

use serde_json::json;

use super::bet::{BetSpec, Spot};
use super::exact::Exact;
use super::game::Baccarat;
use super::rules::{BacRules, SCALE};
use super::sim::{BacAcc, OUTCOMES};
use crate::game::Run;
use crate::report::{
    ci_cell, count, count_cell, est, estimate_json, fixed_cell, pct, pct_cell, Cell, Report,
    Section,
};
use crate::stats::{check_claim, rounds_for_se, Estimate};

/// The exact probability of each counted outcome (`OUTCOMES` order).
fn exact_outcomes(e: &Exact) -> [f64; 7] {
    [
        e.banker,
        e.player,
        e.tie,
        e.banker_six,
        e.natural,
        e.pair,
        e.pair,
    ]
}

/// z of an estimate against an exact value (NaN without an SE).
fn z(e: &Estimate, exact: f64) -> f64 {
    (e.mean - exact) / e.se
}

fn z_cell(z: f64) -> Cell {
    if z.is_finite() {
        Cell::num(format!("{z:+.2}"), z, "z")
    } else {
        "n/a".into()
    }
}

/// The exact RTP of the main bets of a strategy that bets one spot.
fn exact_main(bet: BetSpec, e: &Exact, rules: &BacRules) -> Option<f64> {
    bet.spot().map(|s| e.rtp(s, rules))
}

/// Session histogram bins: (lower edge, width in units, sessions), about 30 bins of a round
/// width (1, 2, 5 × 10^k units).
fn session_bins(acc: &BacAcc) -> Vec<(i64, i64, u64)> {
    let (Some((&lo, _)), Some((&hi, _))) = (
        acc.session_hist.iter().next(),
        acc.session_hist.iter().next_back(),
    ) else {
        return Vec::new();
    };
    let span = (hi - lo + 1) as f64;
    let mut w = 1i64;
    'outer: for e in 0..18 {
        for m in [1i64, 2, 5] {
            let c = m * 10i64.pow(e);
            if span / c as f64 <= 30.0 {
                w = c;
                break 'outer;
            }
        }
    }
    let start = lo.div_euclid(w) * w;
    let n = (hi - start).div_euclid(w) + 1;
    let mut bins: Vec<(i64, i64, u64)> = (0..n).map(|i| (start + i * w, w, 0)).collect();
    for (&k, &v) in &acc.session_hist {
        bins[(k - start).div_euclid(w) as usize].2 += v;
    }
    bins
}

/// Build the report of a baccarat run.
pub fn build(run: &Run<Baccarat>, claim: Option<f64>) -> Report {
    let cfg = &run.config;
    let rules = &cfg.rules;
    let acc = &run.acc;
    let c = &acc.counts;
    let ex = Exact::of(rules.decks);
    let s = SCALE as f64;
    let main = est(&acc.main, 1.0).affine(1.0, 1.0);
    let main_exact = exact_main(cfg.bet, &ex, rules);
    let claim_check = claim.map(|cl| check_claim(&main, cl, c.coups, "RTP"));
    let coups_per_s = c.coups as f64 / run.meta.elapsed_s.max(1e-9);

    let mut r = Report {
        title: format!("rtplab baccarat simulation: {}", cfg.bet),
        ..Default::default()
    };
    let m = &mut r.meta;
    m.push(("tool".into(), format!("rtplab {}", crate::VERSION)));
    m.push(("rules".into(), rules.describe()));
    m.push((
        "bettor".into(),
        format!(
            "{} with a base stake of {}, table 1 to {} units{}",
            cfg.bet,
            crate::report::plural(cfg.unit, "unit"),
            cfg.table_max,
            if cfg.pairs > 0 {
                format!(
                    ", {} on each pair bet every coup",
                    crate::report::plural(cfg.pairs, "unit")
                )
            } else {
                String::new()
            }
        ),
    ));
    m.push(("seed".into(), run.meta.seed.to_string()));
    m.push((
        "coups".into(),
        format!(
            "{} in {} sessions ({} requested)",
            count(c.coups),
            count(c.sessions),
            count(cfg.coups)
        ),
    ));
    m.push((
        "chunks".into(),
        format!(
            "{} of {} done, {} each",
            count(run.meta.chunks_done),
            count(run.plan.chunks),
            crate::report::plural(run.plan.sessions_per_chunk, "session")
        ),
    ));
    m.push((
        "elapsed".into(),
        format!(
            "{:.2} s {}, {} coups/s",
            run.meta.elapsed_s,
            crate::report::where_run(run.meta.threads, run.meta.merged_from),
            count(coups_per_s as u64)
        ),
    ));
    if let Some(marker) = run.meta.marker() {
        m.push(("status".into(), marker));
    }

    // Bets.
    let mut sec = Section::new(
        "Bets: RTP per unit wagered",
        &[
            "bet",
            "bets",
            "wagered",
            "RTP",
            "SE",
            "95% CI",
            "exact RTP",
            "z",
        ],
    );
    let mut bets_json = serde_json::Map::new();
    let mut row = |name: String, ratio: &crate::stats::Ratio, exact: Option<f64>| {
        let e = est(ratio, 1.0).affine(1.0, 1.0);
        let zz = exact.map_or(f64::NAN, |x| z(&e, x));
        sec.row([
            Cell::from(name.clone()),
            count_cell(ratio.n),
            Cell::num(
                count((ratio.y / SCALE as i128) as u64),
                ratio.y as f64 / s,
                "units",
            ),
            pct_cell(e.mean, 4),
            pct_cell(e.se, 4),
            ci_cell(&e, 4),
            exact.map_or("n/a".into(), |x| pct_cell(x, 4)),
            z_cell(zz),
        ]);
        bets_json.insert(
            name,
            json!({"bets": ratio.n, "wagered_units": ratio.y as f64 / s, "rtp": estimate_json(&e),
                   "exact_rtp": exact, "z": zz.is_finite().then_some(zz)}),
        );
    };
    for (i, spot) in Spot::ALL.iter().enumerate() {
        if acc.spots[i].n > 0 {
            row(
                spot.name().to_string(),
                &acc.spots[i],
                Some(ex.rtp(*spot, rules)),
            );
        }
    }
    row(format!("main bets ({})", cfg.bet), &acc.main, main_exact);
    r.sections.push(sec);

    // Outcomes.
    let mut sec = Section::new(
        "Outcomes per coup",
        &["outcome", "rate", "SE", "95% CI", "exact", "z"],
    );
    let mut out_json = serde_json::Map::new();
    for ((name, ratio), exact) in OUTCOMES.iter().zip(&acc.outcomes).zip(exact_outcomes(&ex)) {
        let e = est(ratio, 1.0);
        let zz = z(&e, exact);
        sec.row([
            Cell::from(*name),
            fixed_cell(e.mean, 6, "fraction"),
            fixed_cell(e.se, 6, "fraction"),
            Cell::range(
                format!(
                    "[{}, {}]",
                    crate::report::fixed(e.ci95[0], 6),
                    crate::report::fixed(e.ci95[1], 6)
                ),
                e.ci95[0],
                e.ci95[1],
                "fraction",
            ),
            fixed_cell(exact, 6, "fraction"),
            z_cell(zz),
        ]);
        out_json.insert(
            name.to_string(),
            json!({"rate": estimate_json(&e), "exact": exact, "z": zz.is_finite().then_some(zz)}),
        );
    }
    r.sections.push(sec);

    // Betting and risk.
    let per_coup = est(&acc.round, s);
    let avg_bet = acc.main.y as f64 / s / c.coups.max(1) as f64;
    let sd_coup = acc.round.sd_obs() / s;
    let per_session = est(&acc.session, s);
    let sd_session = acc.session.sd_obs() / s;
    let behind: u64 = acc.session_hist.range(..0).map(|(_, v)| v).sum();
    let worst = acc.worst_session.map(|v| v as f64 / s);
    let best = acc.best_session.map(|v| v as f64 / s);
    let units = |v: Option<f64>| v.map_or(Cell::from("n/a"), |v| fixed_cell(v, 2, "units"));
    let mut sec = Section::new("Betting and risk", &["quantity", "value"]);
    sec.row([
        "average main bet (units)".into(),
        fixed_cell(avg_bet, 3, "units"),
    ]);
    sec.row(["largest main bet (units)".into(), count_cell(c.max_stake)]);
    sec.row([
        "net per coup, every bet (units)".into(),
        fixed_cell(per_coup.mean, 4, "units"),
    ]);
    sec.row([
        "SD of one coup's net (units)".into(),
        fixed_cell(sd_coup, 3, "units"),
    ]);
    sec.row([
        "coups per session".into(),
        fixed_cell(c.coups as f64 / c.sessions.max(1) as f64, 1, "coups"),
    ]);
    sec.row([
        "net per session (units)".into(),
        fixed_cell(per_session.mean, 3, "units"),
    ]);
    sec.row([
        "SD of a session's net (units)".into(),
        fixed_cell(sd_session, 2, "units"),
    ]);
    sec.row([
        "sessions ending behind".into(),
        pct_cell(crate::report::rate(behind, c.sessions), 2),
    ]);
    sec.row([
        "largest loss in a session (units)".into(),
        units(worst.map(|w| -w)),
    ]);
    sec.row(["largest win in a session (units)".into(), units(best)]);
    if matches!(cfg.bet, BetSpec::Martingale(_)) {
        sec.row([
            "table limit hit (progression abandoned)".into(),
            count_cell(c.limit_hits),
        ]);
        sec.row([
            "table limit hit per session".into(),
            fixed_cell(
                crate::report::rate(c.limit_hits, c.sessions),
                4,
                "per session",
            ),
        ]);
    }
    r.sections.push(sec);

    // Distribution of the net per session.
    let mut sec = Section::new(
        "Distribution of the net per session (units)",
        &["net from", "net to", "sessions", "share"],
    );
    let bins = session_bins(acc);
    let mut dist_json = Vec::new();
    for &(lo, w, k) in &bins {
        sec.row([
            Cell::num(format!("{lo:+}"), lo as f64, "units"),
            Cell::num(format!("{:+}", lo + w), (lo + w) as f64, "units"),
            count_cell(k),
            pct_cell(crate::report::rate(k, c.sessions), 3),
        ]);
        dist_json.push(json!({"from": lo, "to": lo + w, "sessions": k}));
    }
    r.sections.push(sec);

    // Notes.
    if let Some(marker) = run.meta.marker() {
        r.notes.push(format!(
            "{marker}; the figures cover the coups completed only."
        ));
    }
    if c.coups == 0 {
        r.notes
            .push("No coups were completed: the statistics are not available (n/a).".into());
    } else {
        if let Some(x) = main_exact {
            r.notes.push(format!(
                "Betting systems change the distribution of results and the risk, not the RTP: the main bets returned {} per unit wagered (95% CI {}), the exact RTP of the {} bet is {} (z = {:+.2}). Follow and martingale bets only move money between coups.",
                pct(main.mean, 4),
                crate::report::ci_pct(&main, 4),
                cfg.bet.spot().map_or("", |s| s.name()),
                pct(x, 4),
                z(&main, x)
            ));
        } else {
            r.notes.push(format!(
                "Betting systems change the distribution of results and the risk, not the RTP: {} splits its bets between banker and player, and each spot's RTP per unit wagered above matches its exact value; the main bets' RTP is the mix of the two.",
                cfg.bet
            ));
        }
        r.notes.push(format!(
            "Precision: {} coups give SE {} on the main bets' RTP; SE 0.01% would take about {} coups.",
            count(c.coups),
            pct(main.se, 4),
            count(rounds_for_se(main.se, c.coups, 0.0001).min(1.8e19) as u64)
        ));
    }
    if let Some(cc) = &claim_check {
        r.notes
            .push(format!("Claim {}: {}", pct(cc.claimed, 2), cc.verdict));
        if let Some(n) = cc.rounds_to_separate_at_5se {
            r.notes.push(format!(
                "Separating the estimate from the claim at 5 SE would take about {} coups.",
                count(n.min(1.8e19) as u64)
            ));
        }
    }
    if c.reshuffles_mid_round > 0 {
        r.notes.push(format!(
            "The shoe ran out mid-coup {} times (discards reshuffled); lower --penetration.",
            c.reshuffles_mid_round
        ));
    }

    r.json = json!({
        "game": "baccarat",
        "version": crate::VERSION,
        "rules": rules,
        "bet": cfg.bet,
        "unit": cfg.unit,
        "table_max": cfg.table_max,
        "pairs": cfg.pairs,
        "shard": run.meta.shard,
        "chunk_range": run.meta.chunk_range,
        "seed": run.meta.seed,
        "coups": c.coups,
        "coups_requested": cfg.coups,
        "sessions": c.sessions,
        "cards": c.cards,
        "chunks": {"sessions_per_chunk": run.plan.sessions_per_chunk, "planned": run.plan.chunks, "done": run.meta.chunks_done},
        "interrupted": run.meta.interrupted,
        "rtp": main.mean,
        "rtp_se": main.se,
        "rtp_ci95": main.ci95,
        "rtp_exact": main_exact,
        "rtp_estimate": estimate_json(&main),
        "bets": bets_json,
        "outcomes": out_json,
        "average_bet": avg_bet,
        "max_stake": c.max_stake,
        "net_per_coup": estimate_json(&per_coup),
        "sd_coup": sd_coup,
        "session": {"net": estimate_json(&per_session), "sd": sd_session, "behind": crate::report::rate(behind, c.sessions),
                    "largest_loss": worst.map(|w| -w), "largest_win": best, "distribution": dist_json},
        "limit_hits": c.limit_hits,
        "reshuffles_mid_round": c.reshuffles_mid_round,
        "claim": claim_check,
        "elapsed_s": run.meta.elapsed_s,
        "coups_per_s": coups_per_s,
        "threads": run.meta.threads,
    });
    r
}

/// The plots: the net per session as a histogram, each bet's simulated RTP minus its exact
/// RTP with a 95% CI, and the running RTP of the main bets with its band and the exact RTP
/// (or the claim) as a line.
pub fn plots(run: &Run<Baccarat>, claim: Option<f64>) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{
        bar_chart, binomial_bar, line_chart, mark, Bar, BarChart, Line, YUnit,
    };
    let cfg = &run.config;
    let acc = &run.acc;
    let ex = Exact::of(cfg.rules.decks);
    let hist: Vec<Bar> = session_bins(acc)
        .iter()
        .map(|&(lo, _, k)| binomial_bar(format!("{lo:+}"), k, acc.counts.sessions))
        .collect();
    let width = session_bins(acc).first().map_or(1, |b| b.1);
    let x_label = format!(
        "net result of the session (units; each bar spans {} from its label)",
        crate::report::plural(width as u64, "unit")
    );
    let diffs: Vec<Bar> = Spot::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| acc.spots[*i].n > 0)
        .map(|(i, spot)| {
            let e = est(&acc.spots[i], 1.0);
            let x = ex.ev(*spot, &cfg.rules);
            Bar::new(spot.name(), (e.mean - x) * 100.0)
                .with_ci((e.ci95[0] - x) * 100.0, (e.ci95[1] - x) * 100.0)
        })
        .collect();
    let mut pts = Vec::new();
    let mut band = Vec::new();
    let (mut sx, mut sy, mut sxx, mut sxy, mut syy) = (0f64, 0f64, 0f64, 0f64, 0f64);
    let step = (acc.trace.len() / 400).max(1);
    let coups_per_staked = acc.counts.coups as f64 / (acc.main.y as f64).max(1.0);
    for (k, t) in acc.trace.iter().enumerate() {
        let (x, y) = (t[1] as f64, t[2] as f64);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        let kk = (k + 1) as f64;
        if sy == 0.0 || (k % step != 0 && k + 1 != acc.trace.len()) {
            continue;
        }
        let r = sx / sy;
        let rtp = 100.0 * (1.0 + r);
        // The x axis counts coups (approximately: staked amount × coups per staked unit).
        let at = sy * coups_per_staked;
        pts.push((at, rtp));
        if k >= 1 {
            let ss = (sxx - 2.0 * r * sxy + r * r * syy).max(0.0);
            let se = 100.0 * (kk / (kk - 1.0) * ss).sqrt() / sy;
            band.push((at, rtp - 1.96 * se, rtp + 1.96 * se));
        }
    }
    let exact = exact_main(cfg.bet, &ex, &cfg.rules);
    let hline_label = match (claim, exact) {
        (Some(c), _) => Some((
            c * 100.0,
            format!("claimed RTP {}%", crate::report::pct_text(c)),
        )),
        (None, Some(x)) => Some((x * 100.0, format!("exact RTP {:.4}%", x * 100.0))),
        _ => None,
    };
    let mut out = vec![
        (
            "session-net-histogram.svg".into(),
            bar_chart(&BarChart {
                title: "Net result of a session (one shoe)",
                x_label: &x_label,
                y_label: "share of sessions (%)",
                y_unit: YUnit::Percent,
                bars: &hist,
                hline: None,
                histogram: true,
            })?,
        ),
        (
            "rtp-vs-exact.svg".into(),
            bar_chart(&BarChart {
                title: "Simulated RTP minus exact RTP per bet, with 95% CI",
                x_label: "bet",
                y_label: "simulated − exact RTP (percentage points)",
                y_unit: YUnit::Plain,
                bars: &diffs,
                hline: Some((0.0, "exact")),
                histogram: false,
            })?,
        ),
        (
            "convergence.svg".into(),
            line_chart(
                "Running RTP of the main bets with its 95% band",
                "coups",
                "RTP per unit wagered (%)",
                YUnit::Percent,
                &Line {
                    name: "RTP estimate",
                    points: &pts,
                    band: Some(&band),
                },
                hline_label.as_ref().map(|(v, l)| (*v, l.as_str())),
            )?,
        ),
    ];
    if let Some(m) = run.meta.marker() {
        for p in &mut out {
            p.1 = mark(&p.1, &m);
        }
    }
    Ok(out)
}

/// The exact report of a rule set: outcome probabilities and every bet's RTP and house edge,
/// with the other payouts of each bet beside the chosen ones.
pub fn exact_report(rules: &BacRules) -> Report {
    use super::rules::BankerPays;
    let e = Exact::of(rules.decks);
    let mut r = Report {
        title: "rtplab baccarat exact analysis".into(),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", crate::VERSION)));
    r.meta.push(("rules".into(), rules.describe()));
    r.meta.push((
        "method".into(),
        format!(
            "complete enumeration of the coups of a full {}-deck shoe: {} ordered six-card deals",
            rules.decks, e.counts.total
        ),
    ));
    let mut sec = Section::new("Outcomes per coup", &["outcome", "probability"]);
    let mut out_json = serde_json::Map::new();
    for (name, p) in OUTCOMES.iter().zip(exact_outcomes(&e)).chain([
        (&"player draws a third card", e.player_draws),
        (&"banker draws a third card", e.banker_draws),
    ]) {
        sec.row([Cell::from(*name), fixed_cell(p, 6, "fraction")]);
        out_json.insert(name.to_string(), json!(p));
    }
    sec.row([
        "cards per coup".into(),
        fixed_cell(e.cards_per_coup, 4, "cards"),
    ]);
    r.sections.push(sec);

    let mut sec = Section::new(
        "Bets: RTP and house edge per unit staked",
        &["bet", "pays", "RTP", "house edge"],
    );
    let mut bets_json = Vec::new();
    let mut row = |name: &str, pays: String, rules: &BacRules, spot: Spot, chosen: bool| {
        let rtp = e.rtp(spot, rules);
        sec.row([
            Cell::from(format!(
                "{name}{}",
                if chosen { "" } else { " (other rule)" }
            )),
            Cell::from(pays.clone()),
            pct_cell(rtp, 4),
            pct_cell(1.0 - rtp, 4),
        ]);
        bets_json.push(json!({"bet": name, "pays": pays, "rules_chosen": chosen, "rtp": rtp, "house_edge": 1.0 - rtp}));
    };
    let commission = |c: u32| BacRules {
        banker_pays: BankerPays::Commission,
        commission: c,
        ..rules.clone()
    };
    let no_commission = BacRules {
        banker_pays: BankerPays::NoCommission,
        ..rules.clone()
    };
    let chosen_nc = rules.banker_pays == BankerPays::NoCommission;
    let c = if chosen_nc { 50 } else { rules.commission };
    row(
        "banker",
        format!("1:1 less {}% commission", super::rules::pct1(c)),
        &commission(c),
        Spot::Banker,
        !chosen_nc,
    );
    row(
        "banker",
        "1:1, a win on 6 pays 1:2 (no commission)".into(),
        &no_commission,
        Spot::Banker,
        chosen_nc,
    );
    row("player", "1:1".into(), rules, Spot::Player, true);
    for t in [8, 9] {
        let tr = BacRules {
            tie_pays: t,
            ..rules.clone()
        };
        row("tie", format!("{t}:1"), &tr, Spot::Tie, t == rules.tie_pays);
    }
    if rules.tie_pays != 8 && rules.tie_pays != 9 {
        row(
            "tie",
            format!("{}:1", rules.tie_pays),
            rules,
            Spot::Tie,
            true,
        );
    }
    let pays = format!("{}:1", rules.pair_pays);
    row("player pair", pays.clone(), rules, Spot::PlayerPair, true);
    row("banker pair", pays, rules, Spot::BankerPair, true);
    r.sections.push(sec);
    r.notes.push(
        "Banker and player bets push on a tie. The figures are for the first coup of a full shoe, which is also the average over every coup of a shoe shuffled every coup.".into(),
    );
    r.json = json!({
        "game": "baccarat",
        "version": crate::VERSION,
        "rules": rules,
        "outcomes": out_json,
        "cards_per_coup": e.cards_per_coup,
        "bets": bets_json,
        "counts": {
            "total": e.counts.total.to_string(),
            "banker": e.counts.banker.to_string(),
            "player": e.counts.player.to_string(),
            "tie": e.counts.tie.to_string(),
            "banker_six": e.counts.banker_six.to_string(),
            "pair": e.counts.pair.to_string(),
            "pair_of": e.counts.pair_of.to_string(),
        },
    });
    r
}
