//! Strategy comparison with common random numbers: every strategy plays the same shoes (each
//! shoe's cards depend on its own stream only, never on decisions), so the paired difference
//! of two strategies' EVs has a far smaller standard error than two independent runs.

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::rules::Rules;
use super::sim::{plan, BjAcc, BjSim};
use super::strategy::StrategySpec;
use crate::engine::{run, Merge, RunOptions, Simulation};
use crate::report::{ci_cell, count, count_cell, pct, pct_cell, Cell, Report, Section};
use crate::rng::Rng;
use crate::stats::{critical, Estimate, Ratio};

/// Per strategy, the main bet's ratio; per pair (i < j), the cross sums over chunks
/// Σ x_i x_j, Σ x_i y_j, Σ y_i x_j, Σ y_i y_j.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompareAcc {
    pub per: Vec<Ratio>,
    pub cross: Vec<[i128; 4]>,
}

impl Merge for CompareAcc {
    fn merge(&mut self, o: &Self) {
        if self.per.is_empty() {
            *self = o.clone();
            return;
        }
        if o.per.is_empty() {
            return;
        }
        for (a, b) in self.per.iter_mut().zip(&o.per) {
            a.merge(b);
        }
        for (a, b) in self.cross.iter_mut().zip(&o.cross) {
            for k in 0..4 {
                a[k] += b[k];
            }
        }
    }
}

struct CompareSim<'a> {
    rules: &'a Rules,
    specs: &'a [StrategySpec],
    shoes_per_chunk: u64,
}

fn chunk_of(rules: &Rules, spec: &StrategySpec, shoes: u64, chunk: u64, rng: &Rng) -> BjAcc {
    let mut acc = BjAcc::default();
    let mut r = rng.clone();
    crate::with_strategy!(spec, rules.h17, |s| BjSim {
        rules,
        strategy: s,
        shoes_per_chunk: shoes
    }
    .run_chunk(chunk, &mut r, &mut acc));
    acc
}

impl Simulation for CompareSim<'_> {
    type Acc = CompareAcc;
    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut CompareAcc) {
        let accs: Vec<BjAcc> = self
            .specs
            .iter()
            .map(|s| chunk_of(self.rules, s, self.shoes_per_chunk, chunk, rng))
            .collect();
        acc.per = accs.iter().map(|a| a.main).collect();
        let n = accs.len();
        for i in 0..n {
            for j in (i + 1)..n {
                let (xi, yi) = (accs[i].main.x, accs[i].main.y);
                let (xj, yj) = (accs[j].main.x, accs[j].main.y);
                acc.cross.push([xi * xj, xi * yj, yi * xj, yi * yj]);
            }
        }
    }
}

/// The paired difference EV_i − EV_j (per initial bet) with its batch-means SE, and the SE
/// two independent runs of the same size would have (all NaN without two batches).
pub fn paired(acc: &CompareAcc, i: usize, j: usize, k: usize, units: f64) -> (f64, f64, f64) {
    let (a, b) = (&acc.per[i], &acc.per[j]);
    if a.batches < 2 || b.batches < 2 || a.y == 0 || b.y == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
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
    let var = (f * (saa + sbb - 2.0 * sab)).max(0.0);
    (
        (ri - rj) / units,
        var.sqrt() / units,
        (f * (saa + sbb)).max(0.0).sqrt() / units,
    )
}

/// A comparison run: the sums and how the run went.
#[derive(Clone, Debug)]
pub struct CompareRun {
    pub acc: CompareAcc,
    pub shoes_per_chunk: u64,
    pub rounds_requested: u64,
    /// Seed, time, threads, chunks done and planned; `interrupted` when stopped early
    /// (Ctrl-C, SIGTERM): the sums then cover the chunks completed.
    pub meta: crate::report::RunMeta,
}

/// Compare strategies on the same shoes. A stop signal ends the run early: the chunks in
/// progress finish and the result covers the completed chunks (`interrupted`).
pub fn compare(
    rules: &Rules,
    specs: &[StrategySpec],
    seed: u64,
    rounds: u64,
    threads: Option<usize>,
    progress: bool,
    stop: &AtomicBool,
) -> Result<CompareRun, super::BjError> {
    rules.validate()?;
    if specs.len() < 2 {
        return Err(super::BjError::CompareNeedsTwo);
    }
    let p = crate::with_strategy!(&specs[0], rules.h17, |s| plan(rules, s, seed, rounds, None));
    p.check(rounds, None, 1)?;
    let sim = CompareSim {
        rules,
        specs,
        shoes_per_chunk: p.shoes_per_chunk,
    };
    let opts = RunOptions {
        seed,
        chunks: 0..p.chunks,
        threads,
        progress,
        label: "compare".into(),
    };
    let out = run(&sim, &opts, stop)?;
    let meta = crate::report::RunMeta::of(seed, &out);
    Ok(CompareRun {
        acc: out.acc,
        shoes_per_chunk: p.shoes_per_chunk,
        rounds_requested: rounds,
        meta,
    })
}

/// The comparison report: the model, rendered.
pub fn compare_report(
    rules: &Rules,
    specs: &[StrategySpec],
    run: &CompareRun,
    seed: u64,
) -> Report {
    render(&compare_model(rules, specs, run, seed))
}

/// One strategy of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct CompareRow {
    pub strategy: super::strategy::StrategyInfo,
    /// 1 + the number of strategies significantly better.
    pub rank: usize,
    /// Dealer rounds and initial bets it played.
    pub rounds: u64,
    pub bets: u64,
    pub ev: f64,
    pub ev_se: f64,
    pub rtp: f64,
    pub rtp_ci95: [f64; 2],
}

/// One pair of strategies: the paired difference of their EVs.
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
}

#[derive(Clone, Debug, Serialize)]
pub struct CompareChunks {
    pub shoes_per_chunk: u64,
    pub planned: u64,
    pub done: u64,
}

/// Everything a comparison's report says; its JSON is this struct.
#[derive(Clone, Debug, Serialize)]
pub struct CompareModel {
    pub game: &'static str,
    pub version: &'static str,
    pub rules: Rules,
    pub seed: u64,
    pub shoes: u64,
    pub rounds_requested: u64,
    pub chunks: CompareChunks,
    pub interrupted: bool,
    /// Best first.
    pub strategies: Vec<CompareRow>,
    pub pairs: Vec<PairRow>,
    pub elapsed_s: f64,
    #[serde(skip)]
    pub meta: crate::report::RunMeta,
}

/// Compute the comparison's model: estimates, ranks, paired differences.
pub fn compare_model(
    rules: &Rules,
    specs: &[StrategySpec],
    run: &CompareRun,
    seed: u64,
) -> CompareModel {
    let u = rules.units_per_bet() as f64;
    let n = specs.len();
    // A run stopped before its first chunk has no sums: every strategy and pair is n/a.
    let empty;
    let acc = if run.acc.per.len() < n {
        empty = CompareAcc {
            per: vec![Ratio::default(); n],
            cross: vec![[0; 4]; n * (n - 1) / 2],
        };
        &empty
    } else {
        &run.acc
    };
    let players = rules.players.max(1) as u64;
    let est: Vec<Estimate> = acc
        .per
        .iter()
        .map(|a| Estimate::new(a.mean() / u, a.se() / u, a.df()))
        .collect();
    // Rank: 1 + the number of strategies significantly better (paired 95% CI above zero).
    let mut pairs = Vec::new();
    let mut k = 0;
    let mut better = vec![0usize; n];
    let df = acc.per.first().map(|a| a.df()).unwrap_or(0);
    let crit = critical(0.95, df);
    for i in 0..n {
        for j in (i + 1)..n {
            let (d, se, se_ind) = paired(acc, i, j, k, u);
            if d - crit * se > 0.0 {
                better[j] += 1;
            } else if d + crit * se < 0.0 {
                better[i] += 1;
            }
            let vr = if se > 0.0 {
                (se_ind / se).powi(2)
            } else {
                f64::INFINITY
            };
            pairs.push(PairRow {
                a: specs[i].name(),
                b: specs[j].name(),
                diff: d,
                se,
                ci95: [d - crit * se, d + crit * se],
                se_independent: se_ind,
                variance_reduction: vr.is_finite().then_some(vr),
            });
            k += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        est[b]
            .mean
            .partial_cmp(&est[a].mean)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let strategies = order
        .iter()
        .map(|&i| {
            let e = &est[i];
            let rtp = e.affine(1.0, 1.0);
            CompareRow {
                strategy: specs[i].info(),
                rank: better[i] + 1,
                rounds: acc.per[i].n / players,
                bets: acc.per[i].n,
                ev: e.mean,
                ev_se: e.se,
                rtp: rtp.mean,
                rtp_ci95: rtp.ci95,
            }
        })
        .collect();
    CompareModel {
        game: "blackjack",
        version: crate::VERSION,
        rules: rules.clone(),
        seed,
        // Rounds per shoe depend on the strategy (cards used): the strategies played the same
        // shoes, not the same number of rounds.
        shoes: run.meta.chunks_done * run.shoes_per_chunk,
        rounds_requested: run.rounds_requested,
        chunks: CompareChunks {
            shoes_per_chunk: run.shoes_per_chunk,
            planned: run.meta.chunks_planned,
            done: run.meta.chunks_done,
        },
        interrupted: run.meta.interrupted,
        strategies,
        pairs,
        elapsed_s: run.meta.elapsed_s,
        meta: run.meta.clone(),
    }
}

/// The comparison's report, rendered from its model.
pub fn render(m: &CompareModel) -> Report {
    let (lo, hi) = (
        m.strategies.iter().map(|s| s.rounds).min().unwrap_or(0),
        m.strategies.iter().map(|s| s.rounds).max().unwrap_or(0),
    );
    let mut r = Report {
        title: "rtplab blackjack strategy comparison (common random numbers)".into(),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", m.version)));
    r.meta.push(("rules".into(), m.rules.to_string()));
    r.meta.push(("seed".into(), m.seed.to_string()));
    r.meta.push((
        "rounds".into(),
        format!(
            "{} shoes, {} dealer rounds per strategy ({} requested)",
            count(m.shoes),
            if lo == hi {
                count(lo)
            } else {
                format!("{} to {}", count(lo), count(hi))
            },
            count(m.rounds_requested)
        ),
    ));
    r.meta.push((
        "chunks".into(),
        format!(
            "{} of {} done, {} shoes each",
            count(m.chunks.done),
            count(m.chunks.planned),
            m.chunks.shoes_per_chunk
        ),
    ));
    r.meta.push((
        "elapsed".into(),
        format!(
            "{:.2} s {}",
            m.elapsed_s,
            crate::report::where_run(m.meta.threads, 0)
        ),
    ));
    let marker = m.meta.marker();
    if let Some(mk) = &marker {
        r.meta.push(("status".into(), mk.clone()));
    }
    let mut s = Section::new(
        "Strategies (same shoes)",
        &[
            "rank",
            "strategy",
            "bets",
            "EV",
            "SE",
            "RTP",
            "95% CI of RTP",
        ],
    );
    for row in &m.strategies {
        let rtp = Estimate {
            mean: row.rtp,
            se: row.ev_se,
            ci95: row.rtp_ci95,
        };
        s.row([
            count_cell(row.rank as u64),
            Cell::from(row.strategy.name.clone()),
            // Without thousands separators, as this table always showed them.
            Cell::num(row.bets.to_string(), row.bets as f64, "count"),
            pct_cell(row.ev, 4),
            pct_cell(row.ev_se, 4),
            pct_cell(rtp.mean, 4),
            ci_cell(&rtp, 4),
        ]);
    }
    r.sections.push(s);
    let mut s = Section::new(
        "Paired differences (row − column strategy)",
        &[
            "A",
            "B",
            "EV(A) − EV(B)",
            "paired SE",
            "95% CI",
            "independent SE",
            "variance reduction",
        ],
    );
    for p in &m.pairs {
        let [lo, hi] = p.ci95;
        s.row([
            Cell::from(p.a.clone()),
            Cell::from(p.b.clone()),
            pct_cell(p.diff, 4),
            pct_cell(p.se, 4),
            Cell::range(
                format!("[{}, {}]", pct(lo, 4), pct(hi, 4)),
                lo,
                hi,
                "fraction",
            ),
            pct_cell(p.se_independent, 4),
            match p.variance_reduction {
                _ if !p.se.is_finite() => "n/a".into(),
                Some(vr) => Cell::num(format!("{vr:.1}x"), vr, "factor"),
                None => "exact (identical)".into(),
            },
        ]);
    }
    r.sections.push(s);
    r.notes.push("Rank 1 + the number of strategies whose paired 95% CI lies entirely above; equal ranks are ties.".into());
    if let Some(mk) = marker {
        r.notes.push(format!(
            "{mk}; the figures cover the rounds completed only."
        ));
    }
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}
