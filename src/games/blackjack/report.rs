//! The blackjack run report: statistics from the accumulators, as tables and JSON.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::rules::Rules;
use super::shoe::value_char;
use super::sim::{hist_offset, BjAcc, Plan};
use super::strategy::StrategyInfo;
use crate::report::{
    ci_cell, count, count_cell, est, estimate_json, fixed_cell, pct, pct_cell, rate, Cell, Report,
    Section,
};
use crate::stats::{check_claim, rounds_for_se};

/// How the bettor behind follows the seated player's doubles and splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BehindFollows {
    /// Match every double and split (same result as the seat).
    All,
    /// Decline: the bet stays on the first hand, settled as undoubled.
    None,
}

/// Wagers beside the main bet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideBets {
    /// Pairs side bet stake, in main bets (0 = not placed).
    pub pairs: f64,
    /// Bet behind stake, in main bets (0 = not placed).
    pub behind: f64,
    pub behind_follows: BehindFollows,
    /// The strategy takes insurance.
    pub insure: bool,
}

/// Facts about the run itself.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// What every game's run records: seed, time, threads, chunks done and planned, whether
    /// it was interrupted, shards merged.
    pub meta: crate::report::RunMeta,
    pub rounds_requested: u64,
    pub plan: Plan,
}

fn up_name(i: usize) -> String {
    value_char(i as u8 + 1).to_string()
}

/// Build the report of a blackjack run.
pub fn build(
    rules: &Rules,
    strategy: &StrategyInfo,
    bets: &SideBets,
    acc: &BjAcc,
    run: &RunInfo,
    claim: Option<f64>,
) -> Report {
    let u = rules.units_per_bet() as f64;
    let c = &acc.counts;
    let ev = est(&acc.main, u);
    let rtp = ev.affine(1.0, 1.0);
    let per_wagered = est(&acc.wagered, 1.0).affine(1.0, 1.0);
    let sd_round = acc.main.sd_obs() / u;
    let pairs = est(&acc.pairs, 1.0).affine(1.0, 1.0);
    let insurance = est(&acc.insurance, 1.0).affine(1.0, 1.0);
    let behind = match bets.behind_follows {
        BehindFollows::All => rtp,
        BehindFollows::None => est(&acc.behind_none, u).affine(1.0, 1.0),
    };
    let rounds_per_s = c.rounds as f64 / run.meta.elapsed_s.max(1e-9);
    let claim_check = claim.map(|cl| check_claim(&rtp, cl, c.seat_rounds, "RTP"));

    let mut r = Report {
        title: format!("rtplab blackjack simulation: {}", strategy.name),
        ..Default::default()
    };
    let m = &mut r.meta;
    m.push(("tool".into(), format!("rtplab {}", crate::VERSION)));
    m.push(("rules".into(), rules.to_string()));
    m.push((
        "strategy".into(),
        format!(
            "{}{}{}",
            strategy.name,
            strategy
                .hash
                .as_ref()
                .map(|h| format!(" (fnv1a {h})"))
                .unwrap_or_default(),
            if bets.insure {
                ", always insures"
            } else {
                ", never insures"
            }
        ),
    ));
    m.push(("seed".into(), run.meta.seed.to_string()));
    m.push((
        "rounds".into(),
        format!(
            "{} dealer rounds, {} initial bets ({} requested)",
            count(c.rounds),
            count(c.seat_rounds),
            count(run.rounds_requested)
        ),
    ));
    m.push((
        "chunks".into(),
        format!(
            "{} of {} done, {} each ({:.1} rounds per shoe in the pilot)",
            count(run.meta.chunks_done),
            count(run.plan.chunks),
            crate::report::plural(run.plan.shoes_per_chunk, "shoe"),
            run.plan.pilot_rounds_per_shoe
        ),
    ));
    m.push((
        "elapsed".into(),
        format!(
            "{:.2} s {}, {} rounds/s",
            run.meta.elapsed_s,
            crate::report::where_run(run.meta.threads, run.meta.merged_from),
            count(rounds_per_s as u64)
        ),
    ));
    if let Some(marker) = run.meta.marker() {
        // In the metadata too, so that every file of --out-dir (CSV, SVG) carries it.
        m.push(("status".into(), marker));
    }

    let mut s = Section::new(
        "Result (per initial main bet unless stated)",
        &["quantity", "value", "SE", "95% CI"],
    );
    s.row([
        "EV".into(),
        pct_cell(ev.mean, 4),
        pct_cell(ev.se, 4),
        ci_cell(&ev, 4),
    ]);
    s.row([
        "RTP = 1 + EV".into(),
        pct_cell(rtp.mean, 4),
        pct_cell(rtp.se, 4),
        ci_cell(&rtp, 4),
    ]);
    s.row([
        "RTP per total wagered".into(),
        pct_cell(per_wagered.mean, 4),
        pct_cell(per_wagered.se, 4),
        ci_cell(&per_wagered, 4),
    ]);
    s.row([
        "SD of one round (bets)".into(),
        fixed_cell(sd_round, 4, "bets"),
        "".into(),
        "".into(),
    ]);
    r.sections.push(s);

    let mut s = Section::new(
        "EV by dealer up card",
        &["up", "share", "EV", "SE", "95% CI"],
    );
    let order = [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 0];
    let mut by_up_json = serde_json::Map::new();
    for &i in &order {
        let ratio = &acc.by_up[i];
        let e = est(ratio, u);
        s.row([
            up_name(i).into(),
            pct_cell(rate(ratio.n, c.seat_rounds), 2),
            pct_cell(e.mean, 3),
            pct_cell(e.se, 3),
            ci_cell(&e, 3),
        ]);
        by_up_json.insert(
            up_name(i),
            json!({"ev": e.mean, "se": e.se, "ci95": e.ci95, "bets": ratio.n}),
        );
    }
    r.sections.push(s);

    let freqs = [
        ("blackjack", "per initial bet", c.naturals, c.seat_rounds),
        (
            "dealer_blackjack",
            "per round",
            c.dealer_blackjacks,
            c.rounds,
        ),
        ("double", "per initial bet", c.doubles, c.seat_rounds),
        ("split", "per initial bet", c.splits, c.seat_rounds),
        ("surrender", "per initial bet", c.surrenders, c.seat_rounds),
        (
            "insurance_taken",
            "per offer (ace up)",
            c.insurance_taken,
            c.insurance_offered,
        ),
        (
            "player_bust",
            "per hand played",
            c.player_busts,
            c.hands_played,
        ),
        ("dealer_bust", "per round", c.dealer_busts, c.rounds),
    ];
    let mut s = Section::new("Frequencies", &["event", "rate", "count", "of"]);
    let mut freq_json = serde_json::Map::new();
    for (name, of, n, d) in freqs {
        s.row([
            name.into(),
            pct_cell(rate(n, d), 3),
            count_cell(n),
            of.into(),
        ]);
        freq_json.insert(name.into(), json!(rate(n, d)));
    }
    r.sections.push(s);

    let mut s = Section::new(
        "Side bets and bet behind (RTP per stake of that bet)",
        &["bet", "stake", "bets", "RTP", "SE", "95% CI"],
    );
    s.row([
        "pairs (same rank, 11:1)".into(),
        Cell::num(format!("{}", bets.pairs), bets.pairs, "bets"),
        count_cell(acc.pairs.n),
        pct_cell(pairs.mean, 3),
        pct_cell(pairs.se, 3),
        ci_cell(&pairs, 3),
    ]);
    s.row([
        "insurance (2:1)".into(),
        if bets.insure {
            Cell::num("0.5".into(), 0.5, "bets")
        } else {
            "never taken".into()
        },
        count_cell(acc.insurance.n),
        pct_cell(insurance.mean, 3),
        pct_cell(insurance.se, 3),
        ci_cell(&insurance, 3),
    ]);
    s.row([
        Cell::from(format!(
            "bet behind (follows {})",
            if bets.behind_follows == BehindFollows::All {
                "all"
            } else {
                "none"
            }
        )),
        Cell::num(format!("{}", bets.behind), bets.behind, "bets"),
        count_cell(acc.main.n),
        pct_cell(behind.mean, 3),
        pct_cell(behind.se, 3),
        ci_cell(&behind, 3),
    ]);
    r.sections.push(s);

    let mut s = Section::new(
        "Dealer outcomes by up card",
        &["up", "17", "18", "19", "20", "21", "bust", "BJ"],
    );
    let mut dealer_json = serde_json::Map::new();
    for &i in &order {
        let row = &acc.dealer[i];
        let n: u64 = row.iter().sum();
        let mut cells = vec![Cell::from(up_name(i))];
        cells.extend(row.iter().map(|&k| fixed_cell(rate(k, n), 6, "fraction")));
        s.row(cells);
        dealer_json.insert(
            up_name(i),
            json!({"rounds": n, "17": rate(row[0], n), "18": rate(row[1], n), "19": rate(row[2], n),
                   "20": rate(row[3], n), "21": rate(row[4], n), "bust": rate(row[5], n), "blackjack": rate(row[6], n)}),
        );
    }
    r.sections.push(s);

    let mut s = Section::new(
        "Distribution of one round's net result (main bet)",
        &["net (bets)", "probability", "count"],
    );
    let off = hist_offset(rules);
    let mut dist_json = Vec::new();
    for (i, &k) in acc.hist.iter().enumerate() {
        if k == 0 {
            continue;
        }
        let net = (i as i64 - off) as f64 / u;
        s.row([
            Cell::num(format!("{net:+}"), net, "bets"),
            fixed_cell(rate(k, c.seat_rounds), 6, "fraction"),
            count_cell(k),
        ]);
        dist_json.push(json!({"net": net, "count": k, "p": rate(k, c.seat_rounds)}));
    }
    r.sections.push(s);

    if let Some(marker) = run.meta.marker() {
        r.notes.push(format!(
            "{marker}; the figures cover the rounds completed only."
        ));
    }
    if c.seat_rounds == 0 {
        r.notes
            .push("No rounds were completed: the statistics are not available (n/a).".into());
    } else {
        r.notes.push(format!(
            "Precision: {} initial bets give SE {}; SE 0.01% would take about {} bets.",
            count(c.seat_rounds),
            pct(ev.se, 4),
            count(rounds_for_se(ev.se, c.seat_rounds, 0.0001) as u64)
        ));
    }
    if let Some(cc) = &claim_check {
        r.notes
            .push(format!("Claim {}: {}", pct(cc.claimed, 2), cc.verdict));
        if let Some(n) = cc.rounds_to_separate_at_5se {
            r.notes.push(format!(
                "Separating the estimate from the claim at 5 SE would take about {} initial bets.",
                count(n.min(1.8e19) as u64)
            ));
        }
    }
    if c.reshuffles_mid_round > 0 {
        r.notes.push(format!(
            "The shoe ran out mid-round {} times (discards reshuffled); lower --penetration.",
            c.reshuffles_mid_round
        ));
    }

    r.json = json!({
        "game": "blackjack",
        "version": crate::VERSION,
        "rules": rules,
        "strategy": {"name": strategy.name, "hash": strategy.hash, "insurance": if bets.insure {"always"} else {"never"}},
        "shard": run.meta.shard,
        "chunk_range": run.meta.chunk_range,
        "seed": run.meta.seed,
        "rounds": c.rounds,
        "rounds_requested": run.rounds_requested,
        "initial_bets": c.seat_rounds,
        "shoes": c.shoes,
        "chunks": {"shoes_per_chunk": run.plan.shoes_per_chunk, "planned": run.plan.chunks, "done": run.meta.chunks_done,
                   "pilot_rounds_per_shoe": run.plan.pilot_rounds_per_shoe},
        "interrupted": run.meta.interrupted,
        "ev": ev.mean,
        "ev_se": ev.se,
        "ev_ci95": ev.ci95,
        "rtp": rtp.mean,
        "rtp_ci95": rtp.ci95,
        "rtp_total_wagered": per_wagered.mean,
        "rtp_total_wagered_se": per_wagered.se,
        "sd_round": sd_round,
        "ev_by_upcard": by_up_json,
        "frequencies": freq_json,
        "dealer_outcomes": dealer_json,
        "net_distribution": dist_json,
        "side_bets": {
            "pairs": {"stake": bets.pairs, "bets": acc.pairs.n, "rtp": pairs.mean, "se": pairs.se, "ci95": pairs.ci95},
            "insurance": {"taken": acc.insurance.n, "rtp": insurance.mean, "se": insurance.se, "ci95": insurance.ci95},
        },
        "bet_behind": {"stake": bets.behind, "follows": bets.behind_follows, "rtp": behind.mean, "se": behind.se, "ci95": behind.ci95},
        "claim": claim_check,
        "rtp_estimate": estimate_json(&rtp),
        "elapsed_s": run.meta.elapsed_s,
        "rounds_per_s": rounds_per_s,
        "threads": run.meta.threads,
    });
    r
}

/// The plots of a run: result histogram, EV by up card, and the running RTP with its 95%
/// band (and the claimed RTP as a line). Rates and RTPs are plotted in percent; an
/// interrupted run's plots say so.
pub fn plots(
    rules: &Rules,
    acc: &BjAcc,
    claim: Option<f64>,
    run: &RunInfo,
) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{
        bar_chart, binomial_bar, line_chart, mark, Bar, BarChart, Line, YUnit,
    };
    let u = rules.units_per_bet() as f64;
    let off = hist_offset(rules);
    let total = acc.counts.seat_rounds;
    let hist: Vec<Bar> = acc
        .hist
        .iter()
        .enumerate()
        .filter(|(_, &k)| k > 0)
        .map(|(i, &k)| {
            let net = (i as i64 - off) as f64 / u;
            let label = if net == 0.0 {
                "0 (push)".to_string()
            } else {
                format!("{net:+}")
            };
            binomial_bar(label, k, total)
        })
        .collect();
    let by_up: Vec<Bar> = [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 0]
        .iter()
        .map(|&i| {
            let e = est(&acc.by_up[i], u);
            Bar::new(up_name(i), e.mean * 100.0).with_ci(e.ci95[0] * 100.0, e.ci95[1] * 100.0)
        })
        .collect();
    // Running estimate over chunks in order, with a 95% band from the per-chunk spread so far.
    let mut pts = Vec::new();
    let mut band = Vec::new();
    let (mut sx, mut sy, mut sxx, mut sxy, mut syy) = (0f64, 0f64, 0f64, 0f64, 0f64);
    let step = (acc.trace.len() / 400).max(1);
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
        let rtp = 100.0 * (1.0 + r / u);
        pts.push((sy, rtp));
        if k >= 1 {
            let ss = (sxx - 2.0 * r * sxy + r * r * syy).max(0.0);
            let se = 100.0 * (kk / (kk - 1.0) * ss).sqrt() / sy / u;
            band.push((sy, rtp - 1.96 * se, rtp + 1.96 * se));
        }
    }
    let claim_label = claim.map(|c| format!("claimed RTP {}%", crate::report::pct_text(c)));
    let mut out = vec![
        (
            "results-histogram.svg".into(),
            bar_chart(&BarChart {
                title: "Distribution of one round's net result",
                x_label: "net result (initial bets)",
                y_label: "share of initial bets (%)",
                y_unit: YUnit::Percent,
                bars: &hist,
                hline: None,
                histogram: true,
            })?,
        ),
        (
            "ev-by-upcard.svg".into(),
            bar_chart(&BarChart {
                title: "EV by dealer up card",
                x_label: "dealer up card",
                y_label: "EV (% of the initial bet)",
                y_unit: YUnit::Percent,
                bars: &by_up,
                hline: None,
                histogram: false,
            })?,
        ),
        (
            "convergence.svg".into(),
            line_chart(
                "Running RTP estimate with its 95% band",
                "initial bets",
                "RTP (%)",
                YUnit::Percent,
                &Line {
                    name: "RTP estimate",
                    points: &pts,
                    band: Some(&band),
                },
                claim.map(|c| (c * 100.0, claim_label.as_deref().unwrap_or("claim"))),
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
