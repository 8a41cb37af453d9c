//! The baccarat run report and plots.
//!
//! The report is a model computed from the run's sums, then rendered: the tables, metadata
//! and notes come from the model only, and the JSON document is the model serialized. The
//! exact report is in `exact_report`.

use serde::Serialize;

use super::bet::{BetSpec, Spot};
use super::exact::Exact;
use super::game::Baccarat;
use super::rules::{BacRules, SCALE};
use super::sim::{BacAcc, OUTCOMES};
use crate::game::Run;
use crate::report::{
    count, count_cell, est, fixed_cell, pct, pct_cell, pct_estimate_cells, Cell, Report, RunHeader,
    RunMeta, Section,
};
use crate::stats::{check_claim, rounds_for_se, ClaimCheck, Estimate};

/// The exact probability of each counted outcome (`OUTCOMES` order).
pub(super) fn exact_outcomes(e: &Exact) -> [f64; 7] {
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

fn z_cell(z: Option<f64>) -> Cell {
    match z {
        Some(z) if z.is_finite() => Cell::num(format!("{z:+.2}"), z, "z"),
        _ => "n/a".into(),
    }
}

/// The exact RTP of the main bets: the spot's for a strategy that bets one spot; for one
/// that moves between spots (follow), the exact RTPs of banker, player and tie weighted by
/// the amount the run staked on each as its main bet, the mixture of the wagers actually
/// staked (`None` before any stake).
fn exact_main(bet: BetSpec, e: &Exact, rules: &BacRules, acc: &BacAcc) -> Option<f64> {
    if let Some(s) = bet.spot() {
        return Some(e.rtp(s, rules));
    }
    let mains = [Spot::Banker, Spot::Player, Spot::Tie];
    let staked: Vec<(f64, f64)> = mains
        .iter()
        .map(|&s| {
            let i = Spot::ALL.iter().position(|&x| x == s).unwrap_or(0);
            (acc.spots[i].y as f64, e.rtp(s, rules))
        })
        .collect();
    share_weighted(&staked)
}

/// The banker's share of the amount staked on banker, player and tie.
fn banker_share(m: &SimModel) -> f64 {
    let on = |name: &str| {
        m.bets
            .iter()
            .find(|b| b.name == name)
            .map_or(0.0, |b| b.wagered_units)
    };
    let all = on("banker") + on("player") + on("tie");
    if all > 0.0 {
        on("banker") / all
    } else {
        f64::NAN
    }
}

/// The mean of `(weight, value)` pairs by weight (`None` when the weights sum to 0).
fn share_weighted(pairs: &[(f64, f64)]) -> Option<f64> {
    let w: f64 = pairs.iter().map(|p| p.0).sum();
    (w > 0.0).then(|| pairs.iter().map(|(a, x)| a * x).sum::<f64>() / w)
}

/// Session histogram bins: (lower edge, width in units, sessions), about 30 bins of a round
/// width (1, 2, 5 × 10^k units; when the histogram's own bins are wider than a unit, its width
/// times a power of two).
fn session_bins(acc: &BacAcc) -> Vec<(i64, i64, u64)> {
    let h = &acc.session_hist;
    let held: Vec<(i64, u64)> = h.bins().collect();
    let (Some(&(lo, _)), Some(&(last, _))) = (held.first(), held.last()) else {
        return Vec::new();
    };
    let unit = h.width() as i64;
    let span = (last + unit - lo) as f64;
    let mut widths = (0..18).flat_map(|e| [1i64, 2, 5].map(|m| m * 10i64.pow(e)));
    let w = if unit == 1 {
        widths.find(|&c| span / c as f64 <= 30.0).unwrap_or(1)
    } else {
        (0..62)
            .map(|p| unit << p)
            .find(|&c| span / c as f64 <= 30.0)
            .unwrap_or(unit)
    };
    let start = lo.div_euclid(w) * w;
    let n = (last - start).div_euclid(w) + 1;
    let mut bins: Vec<(i64, i64, u64)> = (0..n).map(|i| (start + i * w, w, 0)).collect();
    for (k, v) in held {
        bins[(k - start).div_euclid(w) as usize].2 += v;
    }
    bins
}

/// Everything the report of a baccarat run says, computed once from the sums; the tables, the
/// metadata, the notes and the JSON are all rendered from it (the JSON is this struct,
/// serialized).
#[derive(Clone, Debug, Serialize)]
pub struct SimModel {
    /// game, seed, elapsed_s, setup_s, threads, interrupted, coups_per_s.
    #[serde(flatten)]
    pub header: RunHeader,
    pub version: &'static str,
    pub rules: BacRules,
    pub bet: BetSpec,
    /// Base stake of the main bet, in units.
    pub unit: u64,
    pub table_max: u64,
    /// Stake on each pair bet every coup (0: none).
    pub pairs: u64,
    pub shard: Option<crate::shard::ShardSpec>,
    pub chunk_range: [u64; 2],
    pub coups: u64,
    pub coups_requested: u64,
    pub sessions: u64,
    pub cards: u64,
    pub chunks: SessionChunks,
    /// The main bets' RTP per unit wagered (also as `rtp_estimate`).
    pub rtp: f64,
    pub rtp_se: f64,
    pub rtp_ci95: [f64; 2],
    /// The exact RTP of the main bets' spot (`None`: the strategy bets more than one spot).
    pub rtp_exact: Option<f64>,
    pub rtp_estimate: Estimate,
    /// Each spot bet (`Spot::ALL` order), then the main bets; a map by name in the JSON.
    #[serde(serialize_with = "bets_as_map")]
    pub bets: Vec<BetRow>,
    /// `OUTCOMES` order; a map by name in the JSON.
    #[serde(serialize_with = "outcomes_as_map")]
    pub outcomes: Vec<OutcomeRow>,
    /// Main bet per coup, in units.
    pub average_bet: f64,
    /// The largest main bet, in units.
    pub max_stake: u64,
    /// The most a coup returns per amount wagered (`BetSpec::max_return_per_wagered`), for
    /// `monitor`.
    pub max_return_per_wagered: f64,
    /// Net of every bet of a coup, in units.
    pub net_per_coup: Estimate,
    pub sd_coup: f64,
    pub coups_per_session: f64,
    pub session: SessionLine,
    pub limit_hits: u64,
    pub limit_hits_per_session: f64,
    /// Coups for an SE of 0.01% on the main bets' RTP at this SD.
    pub coups_for_se_0_01pct: f64,
    pub reshuffles_mid_round: u64,
    pub claim: Option<ClaimCheck>,
    /// Why no claim is tested, when none is (written only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_claim: Option<String>,
    /// How the run went (for the metadata lines and notes: shards merged, completeness).
    #[serde(skip)]
    pub run: RunMeta,
    /// Side bets from paytables (`--side`): each measured beside its exact RTP (written only
    /// when placed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_wagers: Vec<crate::sidebet::SideSim>,
}

/// The run's chunks of sessions (shoes): their size, how many were planned and done.
#[derive(Clone, Debug, Serialize)]
pub struct SessionChunks {
    pub sessions_per_chunk: u64,
    pub planned: u64,
    pub done: u64,
}

/// One bet's RTP per unit wagered against its exact RTP.
#[derive(Clone, Debug, Serialize)]
pub struct BetRow {
    #[serde(skip)]
    pub name: String,
    pub bets: u64,
    pub wagered_units: f64,
    /// Whole units wagered (rounded down), as the table shows them.
    #[serde(skip)]
    pub wagered_whole_units: u64,
    pub rtp: Estimate,
    pub exact_rtp: Option<f64>,
    /// (RTP − exact) / SE, when both are finite.
    pub z: Option<f64>,
}

/// One outcome's rate per coup against its exact probability.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeRow {
    #[serde(skip)]
    pub name: &'static str,
    pub rate: Estimate,
    pub exact: f64,
    pub z: Option<f64>,
}

/// The net per session (one shoe), in units.
#[derive(Clone, Debug, Serialize)]
pub struct SessionLine {
    pub net: Estimate,
    pub sd: f64,
    /// Share of sessions ending behind.
    pub behind: f64,
    pub largest_loss: Option<f64>,
    pub largest_win: Option<f64>,
    pub distribution: Vec<SessionBin>,
}

/// Sessions whose net lies in `[from, to)` units.
#[derive(Clone, Debug, Serialize)]
pub struct SessionBin {
    pub from: i64,
    pub to: i64,
    pub sessions: u64,
    /// Share of all sessions.
    pub share: f64,
}

fn bets_as_map<S: serde::Serializer>(rows: &[BetRow], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(rows.iter().map(|r| (&r.name, r)))
}

fn outcomes_as_map<S: serde::Serializer>(rows: &[OutcomeRow], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(rows.iter().map(|r| (r.name, r)))
}

/// A finite z, else `None`.
fn finite(z: f64) -> Option<f64> {
    z.is_finite().then_some(z)
}

/// Every spot bet placed, then the main bets, each against its exact RTP.
fn bet_rows(run: &Run<Baccarat>, ex: &Exact, main_exact: Option<f64>) -> Vec<BetRow> {
    let cfg = &run.config;
    let acc = &run.acc;
    let s = SCALE as f64;
    let bet_row = |name: String, ratio: &crate::stats::Ratio, exact: Option<f64>| {
        let e = est(ratio, 1.0).affine(1.0, 1.0);
        BetRow {
            name,
            bets: ratio.n,
            wagered_units: ratio.y as f64 / s,
            wagered_whole_units: (ratio.y / SCALE as i128) as u64,
            rtp: e,
            exact_rtp: exact,
            z: exact.and_then(|x| finite(z(&e, x))),
        }
    };
    let mut bets: Vec<BetRow> = Spot::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| acc.spots[*i].n > 0)
        .map(|(i, spot)| {
            bet_row(
                spot.name().to_string(),
                &acc.spots[i],
                Some(ex.rtp(*spot, &cfg.rules)),
            )
        })
        .collect();
    bets.push(bet_row(
        format!("main bets ({})", cfg.bet),
        &acc.main,
        main_exact,
    ));
    bets
}

/// Each outcome's rate per coup against its exact probability.
fn outcome_rows(acc: &BacAcc, ex: &Exact) -> Vec<OutcomeRow> {
    OUTCOMES
        .iter()
        .zip(&acc.outcomes)
        .zip(exact_outcomes(ex))
        .map(|((name, ratio), exact)| {
            let e = est(ratio, 1.0);
            OutcomeRow {
                name,
                rate: e,
                exact,
                z: finite(z(&e, exact)),
            }
        })
        .collect()
}

/// The net per session (one shoe) and its distribution.
fn session_line(acc: &BacAcc) -> SessionLine {
    let s = SCALE as f64;
    let sessions = acc.counts.sessions;
    let behind: u64 = acc.session_hist.below(0);
    let distribution = session_bins(acc)
        .into_iter()
        .map(|(lo, w, k)| SessionBin {
            from: lo,
            to: lo + w,
            sessions: k,
            share: crate::report::rate(k, sessions),
        })
        .collect();
    SessionLine {
        net: est(&acc.session, s),
        sd: acc.session.sd_obs() / s,
        behind: crate::report::rate(behind, sessions),
        largest_loss: acc.worst_session.map(|v| -(v as f64 / s)),
        largest_win: acc.best_session.map(|v| v as f64 / s),
        distribution,
    }
}

/// Compute the report model of a baccarat run from its sums.
pub fn model(run: &Run<Baccarat>, claim: Option<f64>) -> SimModel {
    let cfg = &run.config;
    let rules = &cfg.rules;
    let acc = &run.acc;
    let c = &acc.counts;
    let ex = Exact::of(rules.decks);
    let s = SCALE as f64;
    let main = est(&acc.main, 1.0).affine(1.0, 1.0);
    let main_exact = exact_main(cfg.bet, &ex, rules, acc);
    SimModel {
        header: RunHeader::of("baccarat", &run.meta, c.coups, "coups_per_s"),
        version: crate::VERSION,
        rules: rules.clone(),
        bet: cfg.bet,
        unit: cfg.unit,
        table_max: cfg.table_max,
        pairs: cfg.pairs,
        shard: run.meta.shard,
        chunk_range: run.meta.chunk_range,
        coups: c.coups,
        coups_requested: cfg.coups,
        sessions: c.sessions,
        cards: c.cards,
        chunks: SessionChunks {
            sessions_per_chunk: run.plan.sessions_per_chunk,
            planned: run.plan.chunks,
            done: run.meta.chunks_done,
        },
        rtp: main.mean,
        rtp_se: main.se,
        rtp_ci95: main.ci95,
        rtp_exact: main_exact,
        rtp_estimate: main,
        bets: bet_rows(run, &ex, main_exact),
        outcomes: outcome_rows(acc, &ex),
        average_bet: acc.main.y as f64 / s / c.coups.max(1) as f64,
        max_stake: c.max_stake,
        max_return_per_wagered: cfg.bet.max_return_per_wagered(rules, cfg.pairs),
        net_per_coup: est(&acc.round, s),
        sd_coup: acc.round.sd_obs() / s,
        coups_per_session: c.coups as f64 / c.sessions.max(1) as f64,
        session: session_line(acc),
        limit_hits: c.limit_hits,
        limit_hits_per_session: crate::report::rate(c.limit_hits, c.sessions),
        coups_for_se_0_01pct: rounds_for_se(main.se, c.coups, 0.0001),
        reshuffles_mid_round: c.reshuffles_mid_round,
        claim: claim.map(|cl| check_claim(&main, cl, c.coups, acc.main.df(), "RTP")),
        no_claim: claim.is_none().then(|| {
            "No claim tested: baccarat has no advertised RTP to test by default; --claim PCT \
             tests the main bets' RTP against one."
                .to_string()
        }),
        run: run.meta.clone(),
        side_wagers: side_wagers(cfg, acc),
    }
}

/// Each side bet from a paytable as the run measured it, beside its exact value.
pub fn side_wagers(
    cfg: &super::BacConfig,
    acc: &super::sim::BacAcc,
) -> Vec<crate::sidebet::SideSim> {
    let none = crate::stats::Ratio::default();
    cfg.sides
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let exact = super::sidebets::exact(&b.table, cfg.rules.decks);
            crate::sidebet::SideSim::of(b, acc.sides.get(i).unwrap_or(&none), &exact)
        })
        .collect()
}

/// Render the report of a baccarat run from its model.
pub fn render(m: &SimModel) -> Report {
    let mut r = Report {
        title: format!("rtplab baccarat simulation: {}", m.bet),
        meta: meta_lines(m),
        ..Default::default()
    };
    m.run.annotate(&mut r, m.coups, "coups");
    r.sections.extend([
        bets_section(m),
        outcomes_section(m),
        risk_section(m),
        session_section(m),
    ]);
    notes(&mut r, m);
    r.full_only(&["Outcomes per coup", "Distribution of the net per session"]);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The metadata lines before the run's elapsed line: tool, rules, bettor, seed, coups, chunks.
fn meta_lines(m: &SimModel) -> Vec<(String, String)> {
    let pairs = if m.pairs > 0 {
        format!(
            ", {} on each pair bet every coup",
            crate::report::plural(m.pairs, "unit")
        )
    } else {
        String::new()
    };
    let bettor = format!(
        "{} with a base stake of {}, table 1 to {} units{pairs}",
        m.bet,
        crate::report::plural(m.unit, "unit"),
        m.table_max,
    );
    let coups = format!(
        "{} in {} sessions ({} requested)",
        count(m.coups),
        count(m.sessions),
        count(m.coups_requested)
    );
    let chunks = format!(
        "{} of {} done, {} each",
        count(m.chunks.done),
        count(m.chunks.planned),
        crate::report::plural(m.chunks.sessions_per_chunk, "session")
    );
    vec![
        ("tool".into(), format!("rtplab {}", m.version)),
        ("rules".into(), m.rules.describe()),
        ("bettor".into(), bettor),
        ("seed".into(), m.header.seed.to_string()),
        ("coups".into(), coups),
        ("chunks".into(), chunks),
    ]
}

/// Each bet's RTP per unit wagered against its exact RTP.
fn bets_section(m: &SimModel) -> Section {
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
    for b in &m.bets {
        let [rtp, se, ci] = pct_estimate_cells(b.rtp.mean, b.rtp.se, b.rtp.ci95, 4);
        sec.row([
            Cell::from(b.name.clone()),
            count_cell(b.bets),
            Cell::num(count(b.wagered_whole_units), b.wagered_units, "units"),
            rtp,
            se,
            ci,
            b.exact_rtp.map_or("n/a".into(), |x| pct_cell(x, 4)),
            z_cell(b.z),
        ]);
    }
    sec
}

/// Each outcome's rate per coup against its exact probability.
fn outcomes_section(m: &SimModel) -> Section {
    let mut sec = Section::new(
        "Outcomes per coup",
        &["outcome", "rate", "SE", "95% CI", "exact", "z"],
    );
    for o in &m.outcomes {
        let e = &o.rate;
        sec.row([
            Cell::from(o.name),
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
            fixed_cell(o.exact, 6, "fraction"),
            z_cell(o.z),
        ]);
    }
    sec
}

/// Bet sizes, the net per coup and per session, and the table limit.
fn risk_section(m: &SimModel) -> Section {
    let units = |v: Option<f64>| v.map_or(Cell::from("n/a"), |v| fixed_cell(v, 2, "units"));
    let mut sec = Section::new("Betting and risk", &["quantity", "value"]);
    sec.row([
        "average main bet (units)".into(),
        fixed_cell(m.average_bet, 3, "units"),
    ]);
    sec.row(["largest main bet (units)".into(), count_cell(m.max_stake)]);
    sec.row([
        "net per coup, every bet (units)".into(),
        fixed_cell(m.net_per_coup.mean, 4, "units"),
    ]);
    sec.row([
        "SD of one coup's net (units)".into(),
        fixed_cell(m.sd_coup, 3, "units"),
    ]);
    sec.row([
        "coups per session".into(),
        fixed_cell(m.coups_per_session, 1, "coups"),
    ]);
    sec.row([
        "net per session (units)".into(),
        fixed_cell(m.session.net.mean, 3, "units"),
    ]);
    sec.row([
        "SD of a session's net (units)".into(),
        fixed_cell(m.session.sd, 2, "units"),
    ]);
    sec.row([
        "sessions ending behind".into(),
        pct_cell(m.session.behind, 2),
    ]);
    sec.row([
        "largest loss in a session (units)".into(),
        units(m.session.largest_loss),
    ]);
    sec.row([
        "largest win in a session (units)".into(),
        units(m.session.largest_win),
    ]);
    if matches!(m.bet, BetSpec::Martingale(_)) {
        sec.row([
            "table limit hit (progression abandoned)".into(),
            count_cell(m.limit_hits),
        ]);
        sec.row([
            "table limit hit per session".into(),
            fixed_cell(m.limit_hits_per_session, 4, "per session"),
        ]);
    }
    sec
}

/// The distribution of the net per session.
fn session_section(m: &SimModel) -> Section {
    let mut sec = Section::new(
        "Distribution of the net per session (units)",
        &["net from", "net to", "sessions", "share"],
    );
    for b in &m.session.distribution {
        sec.row([
            Cell::num(format!("{:+}", b.from), b.from as f64, "units"),
            Cell::num(format!("{:+}", b.to), b.to as f64, "units"),
            count_cell(b.sessions),
            pct_cell(b.share, 3),
        ]);
    }
    sec
}

/// The notes after the tables (what the RTP says about betting systems, precision, claim,
/// reshuffles) and the claim's table.
fn notes(r: &mut Report, m: &SimModel) {
    let main = &m.rtp_estimate;
    if m.coups == 0 {
        r.notes
            .push("No coups were completed: the statistics are not available (n/a).".into());
    } else {
        match (m.rtp_exact, m.bet.spot()) {
            (Some(x), Some(spot)) => r.notes.push(format!(
                "Betting systems change the distribution of results and the risk, not the RTP: the main bets returned {} per unit wagered (95% CI {}), the exact RTP of the {} bet is {} (z = {:+.2}). Follow and martingale bets only move money between coups.",
                pct(main.mean, 4),
                crate::report::ci_pct(main, 4),
                spot.name(),
                pct(x, 4),
                z(main, x)
            )),
            (Some(x), None) => r.notes.push(format!(
                "Betting systems change the distribution of results and the risk, not the RTP: {} splits its bets between banker and player, so its exact RTP is the two bets' exact RTPs weighted by the amounts staked on each ({} on banker): {}; the main bets returned {} per unit wagered (95% CI {}, z = {:+.2}).",
                m.bet,
                pct(banker_share(m), 2),
                pct(x, 4),
                pct(main.mean, 4),
                crate::report::ci_pct(main, 4),
                z(main, x)
            )),
            _ => r.notes.push(format!(
                "Betting systems change the distribution of results and the risk, not the RTP: {} splits its bets between banker and player, and each spot's RTP per unit wagered above matches its exact value.",
                m.bet
            )),
        }
        r.notes.push(crate::report::precision_note(
            m.coups,
            "coups",
            main.se,
            m.coups_for_se_0_01pct,
            "coups (SE of the main bets' RTP)",
        ));
    }
    if !m.side_wagers.is_empty() {
        r.sections.push(crate::sidebet::sim_section(&m.side_wagers));
    }
    if let Some(cc) = &m.claim {
        r.sections.push(crate::report::claim_section(cc, "RTP"));
        r.notes.extend(crate::report::claim_notes(cc, "coups"));
    }
    r.notes.extend(m.no_claim.clone());
    if m.reshuffles_mid_round > 0 {
        r.notes.push(format!(
            "The shoe ran out mid-coup {} times (discards reshuffled); lower --penetration.",
            m.reshuffles_mid_round
        ));
    }
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
    // Every wager played (each spot, the main bets together, each paytable side bet):
    // simulated minus exact, with its 95% CI.
    let m = model(run, claim);
    let diff = |name: &str, e: &Estimate, x: f64| {
        Bar::new(format!("{name} ({})", pct(x, 2)), (e.mean - x) * 100.0)
            .with_ci((e.ci95[0] - x) * 100.0, (e.ci95[1] - x) * 100.0)
    };
    let mut diffs: Vec<Bar> = m
        .bets
        .iter()
        .filter(|b| b.bets > 0)
        .filter_map(|b| Some(diff(&b.name, &b.rtp, b.exact_rtp?)))
        .collect();
    for w in &m.side_wagers {
        let e = Estimate {
            mean: w.rtp,
            se: w.se,
            ci95: w.ci95,
        };
        diffs.push(diff(&w.name, &e, w.exact_rtp));
    }
    // The x axis counts coups (approximately: staked amount × coups per staked unit).
    let coups_per_staked = acc.counts.coups as f64 / (acc.main.y as f64).max(1.0);
    let (pts, band) = crate::stats::running_rtp(&acc.trace, 1.0, coups_per_staked);
    let exact = exact_main(cfg.bet, &ex, &cfg.rules, acc);
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
                title: "Simulated RTP minus exact RTP of each wager played, with 95% CI",
                x_label: "wager (its exact RTP)",
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
                &[Line {
                    name: "RTP estimate",
                    points: &pts,
                    band: Some(&band),
                    dots: false,
                }],
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{simulate, RunSpec};
    use crate::games::baccarat::BacConfig;
    use std::sync::atomic::AtomicBool;

    fn run(bet: &str, pairs: u64) -> Run<Baccarat> {
        let cfg = BacConfig {
            rules: BacRules::default(),
            bet: BetSpec::parse(bet).unwrap(),
            unit: 1,
            table_max: 100,
            pairs,
            coups: 20_000,
            sides: Vec::new(),
        };
        let spec = RunSpec {
            seed: 7,
            threads: Some(1),
            ..RunSpec::default()
        };
        simulate::<Baccarat>(cfg, &spec, &AtomicBool::new(false)).unwrap()
    }

    /// Follow the winner stakes banker and player by turns: its exact RTP is the two bets'
    /// exact RTPs weighted by the amounts staked on each (not n/a), and the simulation agrees.
    #[test]
    fn follow_exact_rtp_is_the_share_weighted_mixture() {
        let r = run("follow", 0);
        let m = model(&r, None);
        let rules = BacRules::default();
        let ex = Exact::of(rules.decks);
        let (b, p, t) = (
            r.acc.spots[0].y as f64,
            r.acc.spots[1].y as f64,
            r.acc.spots[2].y as f64,
        );
        assert!(b > 0.0 && p > 0.0, "follow stakes both banker and player");
        let (xb, xp, xt) = (
            ex.rtp(Spot::Banker, &rules),
            ex.rtp(Spot::Player, &rules),
            ex.rtp(Spot::Tie, &rules),
        );
        let want = (b * xb + p * xp + t * xt) / (b + p + t);
        let got = m.rtp_exact.expect("follow's exact RTP is computed");
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        // Strictly between the two bets' RTPs when tie is not staked: a real mixture.
        if t == 0.0 {
            assert!(got > xp.min(xb) && got < xp.max(xb), "{got}");
        }
        let main = m.bets.last().unwrap();
        assert_eq!(main.exact_rtp, Some(got));
        let z = main.z.expect("a z against the mixture");
        assert!(z.abs() < 4.0, "z = {z}");
        let text = render(&m).render(crate::report::Format::Table);
        let row = text
            .lines()
            .find(|l| l.starts_with("main bets (follow)"))
            .unwrap();
        assert!(!row.contains("n/a"), "{row}");
        assert!(row.contains(&crate::report::pct(got, 4)), "{row}");
        assert_eq!(share_weighted(&[(0.0, 1.0)]), None);
    }

    /// The JSON document is the model serialized, and the tables show the model's rows.
    #[test]
    fn json_is_the_serialized_model() {
        for (bet, pairs, claim) in [("martingale:player", 0, Some(0.989)), ("follow", 1, None)] {
            let m = model(&run(bet, pairs), claim);
            let r = render(&m);
            assert_eq!(r.json, serde_json::to_value(&m).unwrap(), "{bet}");
            let bets = r.json["bets"].as_object().unwrap();
            assert_eq!(bets.len(), m.bets.len());
            assert_eq!(r.sections[0].rows.len(), m.bets.len());
            for b in &m.bets {
                assert_eq!(bets[&b.name]["bets"], b.bets, "{}", b.name);
            }
            assert_eq!(
                r.json["outcomes"].as_object().unwrap().len(),
                OUTCOMES.len()
            );
            assert_eq!(
                r.sections[3].rows.len(),
                m.session.distribution.len(),
                "{bet}"
            );
            assert_eq!(r.json["claim"].is_null(), claim.is_none());
            assert_eq!(r.json["no_claim"].is_string(), claim.is_none());
        }
    }
}
