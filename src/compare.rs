//! Strategy comparison with common random numbers, for every game: each configuration plays
//! chunk *c* from the same stream, so where a game's random draws do not depend on decisions
//! (blackjack and baccarat shoes: each shoe has a stream of its own) every strategy meets the
//! same cards, and the paired difference of two estimates has a far smaller standard error
//! than two independent runs. Where draws do depend on decisions (dice games: a re-roll uses
//! up numbers) the pairing still holds per chunk and the paired SE is simply less reduced.

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use crate::engine::{Merge, Simulation};
use crate::game::{BoxedSim, Chunks, Game, RunError, RunSpec};
use crate::report::{count, count_cell, Cell, Report, RunMeta, Section};
use crate::rng::Rng;
use crate::stats::{critical, Estimate, Ratio};
use crate::sums::sums;

sums! {
    /// Per configuration, the headline ratio; per pair (i < j), the cross sums over chunks
    /// Σ x_i x_j, Σ x_i y_j, Σ y_i x_j, Σ y_i y_j. `Default` (empty) is the identity of `merge`.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct CompareAcc {
        pub per: Vec<Ratio> => unbounded("compare writes no shard files: never read back"),
        pub cross: Vec<[i128; 4]> => unbounded("compare writes no shard files: never read back"),
        /// Each configuration's side wagers (`Game::wager_sums`), the configurations' in turn.
        pub wagers: Vec<Ratio> => unbounded("compare writes no shard files: never read back"),
    }
}

struct CompareSim<'a, G: Game> {
    sims: Vec<BoxedSim<G::Acc>>,
    configs: &'a [G::Config],
    /// How many side wagers each configuration places.
    wagers: Vec<usize>,
}

impl<G: Game> Simulation for CompareSim<'_, G> {
    type Acc = CompareAcc;
    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut CompareAcc) {
        let mut wagers = Vec::new();
        let heads: Vec<Ratio> = self
            .sims
            .iter()
            .zip(self.configs)
            .zip(&self.wagers)
            .map(|((sim, cfg), &k)| {
                let mut a = G::Acc::default();
                sim.run_chunk(chunk, &mut rng.clone(), &mut a);
                let mut w = G::wager_sums(cfg, &a);
                w.resize(k, Ratio::default());
                wagers.extend(w);
                G::headline(cfg, &a).ratio
            })
            .collect();
        let n = heads.len();
        for i in 0..n {
            for j in (i + 1)..n {
                let (xi, yi) = (heads[i].x, heads[i].y);
                let (xj, yj) = (heads[j].x, heads[j].y);
                acc.cross.push([xi * xj, xi * yj, yi * xj, yi * yj]);
            }
        }
        acc.per = heads;
        acc.wagers = wagers;
    }
}

/// The batch-means variances of r_i and r_j and their covariance (unscaled); None without two
/// batches. `k` is the pair's index in `cross`.
fn covariance(acc: &CompareAcc, i: usize, j: usize, k: usize) -> Option<(f64, f64, f64)> {
    let (a, b) = (&acc.per[i], &acc.per[j]);
    if a.batches < 2 || b.batches < 2 || a.y == 0 || b.y == 0 {
        return None;
    }
    let c = acc.cross[k];
    let (ri, rj) = (a.mean(), b.mean());
    let (yi, yj) = (a.y as f64, b.y as f64);
    let saa = (a.bxx as f64 - 2.0 * ri * a.bxy as f64 + ri * ri * a.byy as f64) / (yi * yi);
    let sbb = (b.bxx as f64 - 2.0 * rj * b.bxy as f64 + rj * rj * b.byy as f64) / (yj * yj);
    let sab =
        (c[0] as f64 - rj * c[1] as f64 - ri * c[2] as f64 + ri * rj * c[3] as f64) / (yi * yj);
    let kk = a.batches as f64;
    let f = kk / (kk - 1.0);
    Some((f * saa, f * sbb, f * sab))
}

/// Whether configurations i and j played identically in every chunk.
fn identical(acc: &CompareAcc, i: usize, j: usize, k: usize) -> bool {
    let (a, b) = (&acc.per[i], &acc.per[j]);
    a == b && acc.cross[k] == [a.bxx, a.bxy, a.bxy, a.byy]
}

/// The paired difference r_i − r_j (divided by `scale`) with its batch-means SE, and the SE
/// two independent runs of the same size would have (all NaN without two batches).
pub fn paired(acc: &CompareAcc, i: usize, j: usize, k: usize, scale: f64) -> (f64, f64, f64) {
    let Some((vi, vj, cov)) = covariance(acc, i, j, k) else {
        return (f64::NAN, f64::NAN, f64::NAN);
    };
    // Two configurations that played identically in every chunk differ by exactly zero (the
    // floating-point sums would leave a rounding residue).
    let var = if identical(acc, i, j, k) {
        0.0
    } else {
        (vi + vj - 2.0 * cov).max(0.0)
    };
    (
        (acc.per[i].mean() - acc.per[j].mean()) / scale,
        var.sqrt() / scale,
        (vi + vj).max(0.0).sqrt() / scale,
    )
}

/// SCORE = 10^6 μ|μ|/σ² of ratio `r` (μ its mean, σ the SD of one observation's x, both in
/// the same unit) and the factor `c` = 2·10^6 |μ|/σ² that turns an SE of μ into one of SCORE
/// (the delta method; σ's own error, far smaller, is left out).
fn score_of(r: &Ratio) -> (f64, f64) {
    let (mu, sd) = (r.x as f64 / r.n.max(1) as f64, r.sd_obs());
    (crate::risk::score(mu, sd), crate::risk::score_slope(mu, sd))
}

/// The paired difference of two SCOREs and its SE (delta method over the paired means).
/// Ratios whose y counts observations (x/y is the mean of one observation) only.
pub fn paired_score(acc: &CompareAcc, i: usize, j: usize, k: usize) -> (f64, f64) {
    let ((si, ci), (sj, cj)) = (score_of(&acc.per[i]), score_of(&acc.per[j]));
    let Some((vi, vj, cov)) = covariance(acc, i, j, k) else {
        return (f64::NAN, f64::NAN);
    };
    let var = if identical(acc, i, j, k) {
        0.0
    } else {
        (ci * ci * vi + cj * cj * vj - 2.0 * ci * cj * cov).max(0.0)
    };
    (si - sj, var.sqrt())
}

/// A comparison run: what was compared, the sums, and how the run went.
pub struct Comparison<G: Game> {
    pub configs: Vec<G::Config>,
    /// The plan of the first configuration, whose chunking every configuration follows.
    pub plan: G::Plan,
    pub acc: CompareAcc,
    pub meta: RunMeta,
    /// Each configuration's side wagers with their exact RTPs (`acc.wagers` in turn).
    pub wagers: Vec<Vec<crate::game::WagerInfo>>,
}

/// Compare `configs` (two or more runs of one game that differ in strategy) on the same
/// streams. A stop signal ends the run early: the result covers the completed chunks.
pub fn compare<G: Game>(
    configs: Vec<G::Config>,
    spec: &RunSpec,
    stop: &AtomicBool,
) -> Result<Comparison<G>, G::Error> {
    if configs.len() < 2 {
        return Err(RunError::CompareNeedsTwo.into());
    }
    if spec.shard.is_some() || spec.shard_out.is_some() {
        return Err(RunError::CompareSharded.into());
    }
    for c in &configs {
        G::validate(c)?;
    }
    if spec.chunk == Some(0) {
        return Err(RunError::ZeroChunk.into());
    }
    let setup = std::time::Instant::now();
    let (plan, first) = G::prepare_until(&configs[0], spec.seed, spec.chunk, 1, stop)?;
    // Every configuration plays chunks of the first one's size.
    let chunk = Some(plan.chunk_size());
    let mut sims = vec![first];
    for c in &configs[1..] {
        sims.push(G::prepare_until(c, spec.seed, chunk, 1, stop)?.1);
    }
    let wagers: Vec<Vec<crate::game::WagerInfo>> = configs.iter().map(G::wagers).collect();
    let setup_s = setup.elapsed().as_secs_f64();
    let total = plan.chunks();
    let opts = crate::engine::RunOptions {
        seed: spec.seed,
        chunks: 0..total,
        threads: spec.threads,
        progress: spec.progress,
        label: format!("compare {}", G::NAME),
    };
    let sim = CompareSim::<G> {
        sims,
        configs: &configs,
        wagers: wagers.iter().map(Vec::len).collect(),
    };
    let out = crate::engine::run(&sim, &opts, stop).map_err(RunError::from)?;
    Ok(Comparison {
        meta: RunMeta {
            setup_s,
            ..RunMeta::of(spec.seed, &out)
        },
        configs,
        plan,
        acc: out.acc,
        wagers,
    })
}

/// One configuration of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct CompareRow {
    pub strategy: crate::game::Label,
    /// 1 + the number of configurations significantly better.
    pub rank: usize,
    /// Observations of the headline ratio (initial bets, bets, turns, games).
    pub observations: u64,
    pub ev: f64,
    pub ev_se: f64,
    /// 1 + EV, for games with a return to player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rtp: Option<f64>,
    pub ci95: [f64; 2],
    /// SCORE = 10^6 (EV/SD)² (signed) and its SE, where the game pairs SCOREs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_se: Option<f64>,
}

/// One pair of configurations: the paired difference of their estimates.
#[derive(Clone, Debug, Serialize)]
pub struct PairRow {
    pub a: String,
    pub b: String,
    pub diff: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    pub se_independent: f64,
    /// (independent SE / paired SE)²; `None` when the two played identically.
    pub variance_reduction: Option<f64>,
    /// SCORE(A) − SCORE(B) and its paired SE, where the game pairs SCOREs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_diff: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_se: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CompareChunks {
    /// Chunk size in `unit`.
    pub size: u64,
    /// What a chunk counts (shoes, rounds, turns, games).
    pub unit: &'static str,
    pub planned: u64,
    pub done: u64,
}

/// One side wager of one configuration: its measured RTP per unit staked beside its exact one.
#[derive(Clone, Debug, Serialize)]
pub struct WagerRow {
    /// The configuration (as in `strategies`).
    pub strategy: String,
    /// The wager (its name, and its stake when not 1).
    pub wager: String,
    /// Wagers settled.
    pub bets: u64,
    /// RTP per unit staked, its SE and 95% CI (batch means over the chunks).
    pub rtp: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    /// The exact RTP over a full shoe, and z = (measured − exact) / SE.
    pub exact_rtp: f64,
    pub z: f64,
}

/// Everything a comparison's report says; its JSON is this struct.
#[derive(Clone, Debug, Serialize)]
pub struct CompareModel {
    pub game: &'static str,
    pub version: &'static str,
    /// What is compared (the headline estimate of the game).
    pub estimate: &'static str,
    /// The rules the configurations share.
    pub rules: String,
    pub seed: u64,
    pub chunks: CompareChunks,
    pub interrupted: bool,
    /// Best first.
    pub strategies: Vec<CompareRow>,
    pub pairs: Vec<PairRow>,
    /// Every configuration's side wagers (`--side`), in the order of `strategies`; absent
    /// without side bets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_wagers: Vec<WagerRow>,
    /// Why no claim is tested (for a game whose estimate is a return to player; absent
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_claim: Option<String>,
    pub elapsed_s: f64,
    /// The set-up of every configuration before the run, not in `elapsed_s`.
    pub setup_s: f64,
    /// How the run went (for the metadata lines and notes).
    #[serde(skip)]
    pub run: RunMeta,
    #[serde(skip)]
    pub format: fn(f64) -> String,
    /// The unit of the estimate in CSV output.
    #[serde(skip)]
    pub unit: &'static str,
}

/// Why a comparison tests no claimed RTP.
pub const NO_CLAIM: &str = "No claim tested: a comparison ranks its configurations against each \
other; `sim` tests one configuration against a claim (--claim PCT).";

/// Compute the comparison's model: estimates, ranks, paired differences.
pub fn compare_model<G: Game>(c: &Comparison<G>) -> CompareModel {
    let n = c.configs.len();
    // A counter's figure (with its SCOREs) when any configuration counts.
    let first = G::headline_kind(&c.configs[0]);
    let kind = c
        .configs
        .iter()
        .map(G::headline_kind)
        .find(|k| k.score)
        .unwrap_or(first);
    let (scores, scale) = (kind.score, first.scale);
    let mut acc = c.acc.clone();
    // A run stopped before its first chunk has no sums: every row and pair is n/a.
    acc.merge(&CompareAcc {
        per: vec![Ratio::default(); n],
        cross: vec![[0; 4]; n * (n - 1) / 2],
        wagers: vec![Ratio::default(); c.wagers.iter().map(Vec::len).sum()],
    });
    let est: Vec<Estimate> = acc
        .per
        .iter()
        .map(|a| Estimate::new(a.mean() / scale, a.se() / scale, a.df()))
        .collect();
    let labels = distinct_labels(c.configs.iter().map(G::label).collect());
    let (pairs, better) = pair_rows(&acc, &labels, scale, scores);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        est[b]
            .mean
            .partial_cmp(&est[a].mean)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let strategies = order
        .iter()
        .map(|&i| CompareRow {
            strategy: labels[i].clone(),
            rank: better[i] + 1,
            observations: acc.per[i].n,
            ev: est[i].mean,
            ev_se: est[i].se,
            // A counter's EV per round is in table minimums, not per amount bet: no RTP then.
            rtp: (kind.claims && !scores).then_some(1.0 + est[i].mean),
            ci95: est[i].ci95,
            score: scores.then(|| score_of(&acc.per[i]).0),
            score_se: scores.then(|| {
                let (_, c) = score_of(&acc.per[i]);
                c * acc.per[i].se()
            }),
        })
        .collect();
    let side_wagers = wager_rows(c, &acc, &labels, &order);
    CompareModel {
        game: G::NAME,
        version: crate::VERSION,
        estimate: kind.what,
        rules: rules_line::<G>(&c.configs),
        seed: c.meta.seed,
        chunks: CompareChunks {
            size: c.plan.chunk_size(),
            unit: G::chunk_unit(&c.configs[0]),
            planned: c.meta.chunks_planned,
            done: c.meta.chunks_done,
        },
        interrupted: c.meta.interrupted,
        strategies,
        pairs,
        side_wagers,
        no_claim: first.claims.then(|| NO_CLAIM.to_string()),
        elapsed_s: c.meta.elapsed_s,
        setup_s: c.meta.setup_s,
        run: c.meta.clone(),
        format: kind.format,
        unit: kind.unit,
    }
}

/// Every configuration's side wagers, in `order`, each against its exact RTP.
fn wager_rows<G: Game>(
    c: &Comparison<G>,
    acc: &CompareAcc,
    labels: &[crate::game::Label],
    order: &[usize],
) -> Vec<WagerRow> {
    let starts: Vec<usize> = c
        .wagers
        .iter()
        .scan(0, |at, w| {
            let s = *at;
            *at += w.len();
            Some(s)
        })
        .collect();
    let mut rows = Vec::new();
    for &i in order {
        for (k, info) in c.wagers[i].iter().enumerate() {
            let r = acc.wagers[starts[i] + k];
            let e = Estimate::new(r.mean(), r.se(), r.df()).affine(1.0, 1.0);
            rows.push(WagerRow {
                strategy: labels[i].name.clone(),
                wager: info.name.clone(),
                bets: r.n,
                rtp: e.mean,
                se: e.se,
                ci95: e.ci95,
                exact_rtp: info.exact_rtp,
                z: if e.se > 0.0 {
                    (e.mean - info.exact_rtp) / e.se
                } else {
                    f64::NAN
                },
            });
        }
    }
    rows
}

/// The configurations' labels, the same strategy given twice (a useful self-check: it must
/// differ by exactly 0) told apart by its position in the command line.
fn distinct_labels(mut labels: Vec<crate::game::Label>) -> Vec<crate::game::Label> {
    let names: Vec<String> = labels.iter().map(|l| l.name.clone()).collect();
    for (i, l) in labels.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == l.name).count() > 1 {
            l.name = format!("{} (#{})", l.name, i + 1);
        }
    }
    labels
}

/// Every pair's paired difference (and SCOREs' when `scores`), and for each configuration how
/// many others are significantly better (paired 95% CI above zero): its rank less one.
fn pair_rows(
    acc: &CompareAcc,
    labels: &[crate::game::Label],
    scale: f64,
    scores: bool,
) -> (Vec<PairRow>, Vec<usize>) {
    let n = labels.len();
    let df = acc.per.first().map(|a| a.df()).unwrap_or(0);
    let crit = critical(0.95, df);
    let mut better = vec![0usize; n];
    let mut pairs = Vec::new();
    let mut k = 0;
    for i in 0..n {
        for j in (i + 1)..n {
            let (d, se, se_ind) = paired(acc, i, j, k, scale);
            if d - crit * se > 0.0 {
                better[j] += 1;
            } else if d + crit * se < 0.0 {
                better[i] += 1;
            }
            let score = scores.then(|| paired_score(acc, i, j, k));
            let vr = if se > 0.0 {
                (se_ind / se).powi(2)
            } else {
                f64::INFINITY
            };
            pairs.push(PairRow {
                a: labels[i].name.clone(),
                b: labels[j].name.clone(),
                diff: d,
                se,
                ci95: [d - crit * se, d + crit * se],
                se_independent: se_ind,
                variance_reduction: vr.is_finite().then_some(vr),
                score_diff: score.map(|x| x.0),
                score_se: score.map(|x| x.1),
            });
            k += 1;
        }
    }
    (pairs, better)
}

/// The configurations' rules in one line: the first's, said to differ when the rows do (a
/// penetration sweep, whose rows' labels give each one's cut card).
fn rules_line<G: Game>(configs: &[G::Config]) -> String {
    let first = G::rules_line(&configs[0]);
    if configs.iter().all(|x| G::rules_line(x) == first) {
        first
    } else {
        format!("{first} (the first configuration's; the rows differ, see their labels; all play the same shoes, so a deeper cut deals more rounds)")
    }
}

/// The comparison's report, rendered from its model.
pub fn render(m: &CompareModel) -> Report {
    let mut r = Report {
        title: format!(
            "rtplab {} strategy comparison (common random numbers)",
            m.game
        ),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", m.version)));
    r.meta.push(("rules".into(), m.rules.clone()));
    r.meta.push(("estimate".into(), m.estimate.to_string()));
    r.meta.push(("seed".into(), m.seed.to_string()));
    r.meta.push((
        "chunks".into(),
        format!(
            "{} of {} done, {} {} each",
            count(m.chunks.done),
            count(m.chunks.planned),
            count(m.chunks.size),
            m.chunks.unit
        ),
    ));
    m.run.annotate_without_pace(&mut r);
    let names: Vec<&str> = m
        .strategies
        .iter()
        .map(|s| s.strategy.name.as_str())
        .collect();
    let (_, shared) = differing(&names);
    if !shared.is_empty() {
        r.meta
            .push(("every configuration".into(), shared.join(", ")));
    }
    let score_cols = m.strategies.iter().any(|s| s.score.is_some());
    r.sections.push(strategies_section(m, score_cols));
    r.sections.push(pairs_section(m, score_cols));
    if !m.side_wagers.is_empty() {
        r.sections.push(wagers_section(m));
        r.notes.push("Side bets: every configuration places each on every round it bets; RTP per unit staked, its SE and 95% CI by batch means over the chunks, z against the exact RTP over a full shoe.".into());
    }
    if score_cols {
        r.notes.push("SCORE = 10^6 (EV/SD)^2 per round played, signed as EV; its SEs come from the paired EV SEs by the delta method (the SD's own sampling error, far smaller, is left out).".into());
    }
    r.notes.push("Rank 1 + the number of strategies whose paired 95% CI lies entirely above; equal ranks are ties.".into());
    r.notes.extend(m.no_claim.clone());
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// An estimate in the comparison's print format ("n/a" when not finite).
fn shown(m: &CompareModel, v: f64) -> String {
    if v.is_finite() {
        (m.format)(v)
    } else {
        "n/a".to_string()
    }
}

/// An estimate's cell, in the comparison's unit.
fn value_cell(m: &CompareModel, v: f64) -> Cell {
    Cell::num(shown(m, v), v, m.unit)
}

/// A 95% interval's cell.
fn interval_cell(m: &CompareModel, [lo, hi]: [f64; 2]) -> Cell {
    Cell::range(
        format!("[{}, {}]", shown(m, lo), shown(m, hi)),
        lo,
        hi,
        m.unit,
    )
}

/// A SCORE's cell (two decimals; "n/a" when there is none).
fn score_cell(v: Option<f64>) -> Cell {
    match v {
        Some(x) if x.is_finite() => Cell::num(format!("{x:.2}"), x, "score"),
        _ => Cell::from("n/a"),
    }
}

/// Each configuration's estimate, best first, with its rank.
fn strategies_section(m: &CompareModel, score_cols: bool) -> Section {
    let rtp_cols = m.strategies.iter().any(|s| s.rtp.is_some());
    let mut cols = vec![
        "rank",
        "strategy",
        "observations",
        "estimate",
        "SE",
        "95% CI",
    ];
    if rtp_cols {
        cols.push("RTP");
    }
    if score_cols {
        cols.extend(["SCORE", "SCORE SE"]);
    }
    let mut s = Section::new("Strategies (same random streams)", &cols);
    let names: Vec<&str> = m
        .strategies
        .iter()
        .map(|s| s.strategy.name.as_str())
        .collect();
    let (own, _) = differing(&names);
    for (row, name) in m.strategies.iter().zip(own) {
        let mut cells = vec![
            count_cell(row.rank as u64),
            Cell::from(name),
            count_cell(row.observations),
            value_cell(m, row.ev),
            value_cell(m, row.ev_se),
            interval_cell(m, row.ci95),
        ];
        if rtp_cols {
            cells.push(row.rtp.map_or("".into(), |v| value_cell(m, v)));
        }
        if score_cols {
            cells.extend([score_cell(row.score), score_cell(row.score_se)]);
        }
        s.row(cells);
    }
    s
}

/// Each configuration's side wagers, measured beside their exact RTPs.
fn wagers_section(m: &CompareModel) -> Section {
    use crate::report::{fixed_cell, pct_cell, pct_estimate_cells};
    let mut s = Section::new(
        "Side bets (RTP per unit staked): each configuration's, beside the exact RTP",
        &[
            "strategy",
            "side bet",
            "bets",
            "RTP",
            "SE",
            "95% CI",
            "exact RTP",
            "z",
        ],
    );
    for w in &m.side_wagers {
        let mut row = vec![
            Cell::from(w.strategy.clone()),
            Cell::from(w.wager.clone()),
            count_cell(w.bets),
        ];
        row.extend(pct_estimate_cells(w.rtp, w.se, w.ci95, 3));
        row.push(pct_cell(w.exact_rtp, 4));
        row.push(fixed_cell(w.z, 2, "SE"));
        s.row(row);
    }
    s
}

/// Every pair's paired difference, its SE and interval, and what pairing saved.
fn pairs_section(m: &CompareModel, score_cols: bool) -> Section {
    let mut cols = vec![
        "A",
        "B",
        "A − B",
        "paired SE",
        "95% CI",
        "independent SE",
        "variance reduction",
    ];
    if score_cols {
        cols.extend(["SCORE A − B", "SCORE paired SE"]);
    }
    let mut s = Section::new("Paired differences (row − column strategy)", &cols);
    let names: Vec<&str> = m
        .strategies
        .iter()
        .map(|s| s.strategy.name.as_str())
        .collect();
    let (own, _) = differing(&names);
    let own_of = |name: &str| {
        names
            .iter()
            .position(|n| *n == name)
            .map_or_else(|| name.to_string(), |i| own[i].clone())
    };
    for p in &m.pairs {
        let mut cells = vec![
            Cell::from(own_of(&p.a)),
            Cell::from(own_of(&p.b)),
            value_cell(m, p.diff),
            value_cell(m, p.se),
            interval_cell(m, p.ci95),
            value_cell(m, p.se_independent),
            match p.variance_reduction {
                _ if !p.se.is_finite() => "n/a".into(),
                Some(vr) => Cell::num(format!("{vr:.1}x"), vr, "factor"),
                None => "exact (identical)".into(),
            },
        ];
        if score_cols {
            cells.extend([score_cell(p.score_diff), score_cell(p.score_se)]);
        }
        s.row(cells);
    }
    s
}

/// The comparison's pictures: each configuration's estimate with its 95% interval
/// (`estimates.svg`, best first, numbered as the table's rows) and every paired difference
/// with its paired 95% interval (`paired-differences.svg`: a difference whose interval misses
/// zero is a real one). Names too long for a label become the row numbers.
pub fn plots(m: &CompareModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let (scale, unit) = match m.unit {
        "fraction" => (100.0, YUnit::Percent),
        _ => (1.0, YUnit::Plain),
    };
    let bar = |label: String, v: f64, ci: [f64; 2]| {
        Bar::new(label, v * scale).with_ci(ci[0] * scale, ci[1] * scale)
    };
    let names: Vec<&str> = m
        .strategies
        .iter()
        .map(|r| r.strategy.name.as_str())
        .collect();
    let short = short_names(&names);
    let row = |name: &str| names.iter().position(|n| *n == name).unwrap_or(0);
    let estimates: Vec<Bar> = m
        .strategies
        .iter()
        .enumerate()
        .map(|(i, r)| bar(format!("{}. {}", i + 1, short[i]), r.ev, r.ci95))
        .collect();
    let diffs: Vec<Bar> = m
        .pairs
        .iter()
        .map(|p| {
            let (a, b) = (row(&p.a), row(&p.b));
            let mut label = format!("{} − {}", short[a], short[b]);
            if label.chars().count() > PLOT_LABEL_CHARS {
                label = format!("{} − {}", a + 1, b + 1);
            }
            bar(label, p.diff, p.ci95)
        })
        .collect();
    let what = m.estimate.split(" (").next().unwrap_or(m.estimate);
    let what = format!("{what} ({})", if scale > 1.0 { "%" } else { m.unit });
    let chart = |title: &'static str, bars: &[Bar], zero: bool| {
        bar_chart(&BarChart {
            title,
            x_label: "",
            y_label: &what,
            y_unit: unit,
            bars,
            hline: zero.then_some((0.0, "no difference")),
            histogram: false,
        })
    };
    let mut out = vec![(
        "estimates.svg".to_string(),
        chart(
            "Each configuration's estimate (95% CI), best first",
            &estimates,
            false,
        )?,
    )];
    if !diffs.is_empty() {
        out.push((
            "paired-differences.svg".to_string(),
            chart(
                "Paired differences A − B (95% CI, on the same streams)",
                &diffs,
                true,
            )?,
        ));
    }
    Ok(out)
}

/// The most characters of a plot's bar label before it is cut short.
const PLOT_LABEL_CHARS: usize = 36;

/// Configuration names made short for a plot: explanations in brackets left out (a position
/// such as `(#2)` kept), and a last `; ...` part that every name shares dropped.
fn short_names(names: &[&str]) -> Vec<String> {
    let strip = |name: &str| {
        let mut out = String::new();
        let mut depth = 0;
        let mut rest = name;
        while let Some(c) = rest.chars().next() {
            if c == '(' && (depth > 0 || !rest.starts_with("(#")) {
                depth += 1;
                out = out.trim_end().to_string();
            } else if c == ')' && depth > 0 {
                depth -= 1;
            } else if depth == 0 {
                out.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
        out
    };
    let stripped: Vec<String> = names.iter().map(|n| strip(n)).collect();
    let refs: Vec<&str> = stripped.iter().map(String::as_str).collect();
    differing(&refs).0
}

/// A name's parts: split at "; " and ", " outside brackets (a ramp's "0:1,2:4" is one part).
fn parts(name: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    let bytes = name.as_bytes();
    for (i, c) in name.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ';' | ',' if depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                out.push(&name[start..i]);
                start = i + 2;
            }
            _ => {}
        }
    }
    out.push(&name[start..]);
    out
}

/// What differs between the configurations' names, and what they share: each name less the
/// parts every name has (its parts joined by ", "), and those shared parts, stated once. A
/// name with nothing of its own, or when nothing is shared, is kept whole.
pub fn differing(names: &[&str]) -> (Vec<String>, Vec<String>) {
    let split: Vec<Vec<&str>> = names.iter().map(|n| parts(n)).collect();
    let shared: Vec<String> = match split.first() {
        Some(first) if split.len() > 1 => first
            .iter()
            .filter(|p| split.iter().all(|s| s.contains(p)))
            .map(|p| p.to_string())
            .collect(),
        _ => Vec::new(),
    };
    let own = split
        .iter()
        .zip(names)
        .map(|(s, whole)| {
            let mine: Vec<&str> = s
                .iter()
                .copied()
                .filter(|p| !shared.iter().any(|x| x == p))
                .collect();
            if mine.is_empty() || shared.is_empty() {
                whole.to_string()
            } else {
                mine.join(", ")
            }
        })
        .collect();
    (own, shared)
}

/// `compare GAME`: the configurations compared, how to run them, where the report goes.
pub struct CompareJob<G: Game> {
    pub configs: Vec<G::Config>,
    pub spec: RunSpec,
    pub outputs: crate::job::Outputs,
}

impl<G: Game> crate::job::Job for CompareJob<G>
where
    crate::job::Error: From<G::Error>,
{
    fn outputs(&self) -> &crate::job::Outputs {
        &self.outputs
    }
    fn run(self, ctx: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        let c = compare::<G>(self.configs, &self.spec, ctx.stop)?;
        let status = crate::job::Status::ran(c.meta.interrupted);
        let model = compare_model(&c);
        let report = render(&model);
        Ok(crate::job::Outcome::Report {
            report,
            plots: Box::new(move || {
                plots(&model).map_err(crate::job::plot_error("the comparison's plots"))
            }),
            status,
            unsaved: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Batch;

    #[test]
    fn plot_names_leave_out_explanations_and_the_shared_tail() {
        let names = [
            "Hi-Lo (true count: exact, floor), ramp 0:1,2:4; cut card at 75%",
            "Halves (true count: exact, floor), ramp 0:1; cut card at 75%",
        ];
        assert_eq!(
            short_names(&names),
            ["Hi-Lo, ramp 0:1,2:4", "Halves, ramp 0:1"]
        );
        assert_eq!(
            short_names(&["basic (the chart derived (for) these rules)", "basic (#2)"]),
            ["basic", "basic (#2)"]
        );
        assert_eq!(short_names(&["a; cut card at 50%"]), ["a; cut card at 50%"]);
        // A penetration sweep: only the cut card differs, and the labels say only it.
        let sweep = [
            "Hi-Lo (true count: exact, floor), ramp 0:1,1:2,2:4,3:8,4:12; cut card at 50%",
            "Hi-Lo (true count: exact, floor), ramp 0:1,1:2,2:4,3:8,4:12; cut card at 85%",
        ];
        assert_eq!(short_names(&sweep), ["cut card at 50%", "cut card at 85%"]);
        let (own, shared) = differing(&sweep);
        assert_eq!(own, ["cut card at 50%", "cut card at 85%"]);
        assert_eq!(
            shared,
            [
                "Hi-Lo (true count: exact, floor)",
                "ramp 0:1,1:2,2:4,3:8,4:12"
            ]
        );
    }

    #[test]
    fn score_and_its_paired_se_by_hand() {
        // Two configurations over 4 chunks of 100 observations: Σx, Σx² per chunk.
        let chunks = [
            [(6, 500), (2, 480)],
            [(2, 520), (1, 470)],
            [(5, 490), (0, 530)],
            [(3, 510), (2, 500)],
        ];
        let mut acc = CompareAcc::default();
        for c in &chunks {
            let mut one = CompareAcc::default();
            for &(x, xx) in c {
                let mut r = Ratio::default();
                r.close(&Batch { x, y: 100, xx }, 100);
                one.per.push(r);
            }
            let (a, b) = (c[0], c[1]);
            one.cross.push([
                (a.0 * b.0) as i128,
                (a.0 * 100) as i128,
                (100 * b.0) as i128,
                10_000,
            ]);
            acc.merge(&one);
        }
        // A: μ = 16/400 = 0.04, σ² = 2020/400 − 0.04² = 5.0484; SCORE = 10^6 μ²/σ².
        let (s, c) = score_of(&acc.per[0]);
        let (mu, var) = (0.04f64, 2020.0 / 400.0 - 0.0016);
        assert!((s - 1e6 * mu * mu / var).abs() < 1e-9, "{s}");
        assert!((c - 2e6 * mu / var).abs() < 1e-9);
        // The SCORE difference's SE is the delta method over the paired means' covariance.
        let (d, se) = paired_score(&acc, 0, 1, 0);
        let (sb, cb) = score_of(&acc.per[1]);
        assert!((d - (s - sb)).abs() < 1e-12);
        let means_a = [0.06, 0.02, 0.05, 0.03];
        let means_b = [0.02, 0.01, 0.0, 0.02];
        let m = |v: &[f64]| v.iter().sum::<f64>() / 4.0;
        let (ma, mb) = (m(&means_a), m(&means_b));
        let cov = |u: &[f64], mu: f64, v: &[f64], mv: f64| {
            u.iter()
                .zip(v)
                .map(|(x, y)| (x - mu) * (y - mv))
                .sum::<f64>()
                / 3.0
                / 4.0
        };
        let var = c * c * cov(&means_a, ma, &means_a, ma)
            + cb * cb * cov(&means_b, mb, &means_b, mb)
            - 2.0 * c * cb * cov(&means_a, ma, &means_b, mb);
        assert!(
            (se - var.sqrt()).abs() < 1e-9 * var.sqrt().max(1.0),
            "{se} vs {}",
            var.sqrt()
        );
        // Against itself: exactly zero.
        let mut twin = acc.clone();
        twin.per[1] = twin.per[0];
        let a = &twin.per[0];
        twin.cross[0] = [a.bxx, a.bxy, a.bxy, a.byy];
        assert_eq!(paired_score(&twin, 0, 1, 0), (0.0, 0.0));
    }

    /// The comparison sums of chunks given as (x, y) per configuration.
    fn acc_of(chunks: &[Vec<(i64, i64)>]) -> CompareAcc {
        let mut acc = CompareAcc::default();
        for c in chunks {
            let mut one = CompareAcc::default();
            for &(x, y) in c {
                let mut r = Ratio::default();
                r.close(&Batch { x, y, xx: x * x }, y as u64);
                one.per.push(r);
            }
            for i in 0..c.len() {
                for j in (i + 1)..c.len() {
                    let (xi, yi) = (c[i].0 as i128, c[i].1 as i128);
                    let (xj, yj) = (c[j].0 as i128, c[j].1 as i128);
                    one.cross.push([xi * xj, xi * yj, yi * xj, yi * yj]);
                }
            }
            acc.merge(&one);
        }
        acc
    }

    #[test]
    fn merging_starts_from_the_empty_identity() {
        let a = acc_of(&[vec![(1, 10), (2, 10)], vec![(3, 10), (-1, 10)]]);
        let mut e = CompareAcc::default();
        e.merge(&a);
        assert_eq!(e, a);
        let mut b = a.clone();
        b.merge(&CompareAcc::default());
        assert_eq!(b, a);
        assert_eq!((a.per[0].x, a.per[0].y, a.per[0].batches), (4, 20, 2));
        // Σ x_i x_j = 1·2 + 3·(−1), Σ x_i y_j = 1·10 + 3·10, Σ y_i x_j = 10·2 + 10·(−1), Σ y_i y_j.
        assert_eq!(a.cross, vec![[-1, 40, 10, 200]]);
    }

    #[test]
    fn paired_differences_against_a_hand_computation() {
        let chunks = vec![
            vec![(3, 10), (1, 10)],
            vec![(-2, 10), (-1, 12)],
            vec![(5, 10), (4, 8)],
        ];
        let acc = acc_of(&chunks);
        let (d, se, se_ind) = paired(&acc, 0, 1, 0, 2.0);
        // By hand: r_i = Σx/Σy, e_b = (x_b − r·y_b)/Σy, var = k/(k−1)·Σ(e_ib − e_jb)².
        let (ri, rj) = (6.0 / 30.0, 4.0 / 30.0);
        let e = |x: i64, y: i64, r: f64| (x as f64 - r * y as f64) / 30.0;
        let k = 3.0;
        let f = k / (k - 1.0);
        let var: f64 = chunks
            .iter()
            .map(|c| (e(c[0].0, c[0].1, ri) - e(c[1].0, c[1].1, rj)).powi(2))
            .sum();
        let ind: f64 = chunks
            .iter()
            .map(|c| e(c[0].0, c[0].1, ri).powi(2) + e(c[1].0, c[1].1, rj).powi(2))
            .sum();
        assert!((d - (ri - rj) / 2.0).abs() < 1e-15, "{d}");
        assert!((se - (f * var).sqrt() / 2.0).abs() < 1e-12, "{se}");
        assert!((se_ind - (f * ind).sqrt() / 2.0).abs() < 1e-12, "{se_ind}");
        assert!(se < se_ind, "the chunks move together: pairing helps");
        // One batch is not enough for an SE; nothing staked gives no ratio.
        let one = acc_of(&chunks[..1]);
        assert!(paired(&one, 0, 1, 0, 1.0).1.is_nan());
        let none = acc_of(&[vec![(0, 0), (0, 0)], vec![(0, 0), (0, 0)]]);
        assert!(paired(&none, 0, 1, 0, 1.0).0.is_nan());
    }

    #[test]
    fn identical_configurations_differ_by_exactly_zero() {
        // Large sums, where the floating-point formula leaves a rounding residue.
        let chunks: Vec<Vec<(i64, i64)>> = (0..50)
            .map(|k| {
                let x = 987_654_321 * (k % 7 - 3) + 12_345;
                vec![(x, 1_000_000_007), (x, 1_000_000_007)]
            })
            .collect();
        let acc = acc_of(&chunks);
        let (d, se, se_ind) = paired(&acc, 0, 1, 0, 1.0);
        assert_eq!((d, se), (0.0, 0.0));
        assert!(se_ind > 0.0);
        // One chunk different: no longer identical, and the SE is positive.
        let mut other = chunks.clone();
        other[3][1].0 += 10_000_000;
        let (_, se, _) = paired(&acc_of(&other), 0, 1, 0, 1.0);
        assert!(se > 0.0);
    }
}
