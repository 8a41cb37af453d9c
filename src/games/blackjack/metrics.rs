//! Count metrics by the standard methods (after P. Griffin, "The Theory of Blackjack"): the
//! effects of removal of each card value for a rule set with its chart played, and from them
//! a count's betting correlation (BC), playing efficiency (PE) and insurance correlation (IC).
//!
//! - Effect of removal (EoR) of value v: the change in the chart's EV per initial bet when one
//!   card of v leaves the shoe, taken symmetrically, (EV(shoe − v) − EV(shoe + v)) / 2, so that
//!   the curvature cancels; each EV is the exact analysis of that shoe (`exact::analyze_shoe`).
//! - BC: the correlation, over the 13 ranks (the four ten-valued ranks each once), of the tags
//!   with the EoRs (mean-centred, so an unbalanced count is measured as a balanced one).
//! - IC: the same correlation with the insurance bet's EoRs (non-ten +4, ten −9 up to scale):
//!   exact from the tags alone.
//! - PE: every playing decision d (two-card hand × up card × each other play) has its own EoR
//!   vector (the change, per card removed from the shoe, in the EV difference between the
//!   other play and the chart's, the chart played afterwards), its full-shoe difference m_d
//!   and its frequency w_d. After n of the shoe's N cards are dealt, the best
//!   linear estimate of the difference has SD σ_d = s_d·√((N − 1)·n / (N − n)) (s_d: the SD of
//!   the EoRs over the shoe's cards), and a count that correlates ρ_d with the EoRs estimates
//!   it with SD ρ_d·σ_d. Under the normal approximation, varying the play on an estimate of SD
//!   σ gains G(σ, m) = σ·φ(m/σ) − |m|·Φ(−|m|/σ) per decision; PE is Σ w_d·G(ρ_d·σ_d, m_d)
//!   over Σ w_d·G(σ_d, m_d), both summed over depths n spread evenly over the cards dealt
//!   before the cut card.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;
use serde::Serialize;

use super::count::{CountSystem, BUILT_IN};
use super::exact::{analyze_shoe, full_shoe, DealerTable, Follow, PostSplit, NV};
use super::kept::Kept;
use super::rules::{Rules, Shuffle};
use super::strategy::{Action, Chart};

/// The published metrics of the built-in counts (command-line name, BC, PE, IC): the
/// multi-deck figures of the counting literature after Griffin's methods (sources differ by
/// about ±0.01–0.02 with decks and rules).
pub const PUBLISHED: [(&str, f64, f64, f64); 7] = [
    ("hi-lo", 0.97, 0.51, 0.76),
    ("ko", 0.98, 0.55, 0.78),
    ("hi-opt-1", 0.88, 0.61, 0.85),
    ("hi-opt-2", 0.91, 0.67, 0.91),
    ("omega-2", 0.92, 0.67, 0.85),
    ("zen", 0.96, 0.63, 0.85),
    ("halves", 0.99, 0.56, 0.72),
];

/// Depths at which the playing gains are summed (evenly spread over the cards dealt before
/// the cut card).
const DEPTH_STEPS: usize = 40;

/// The shoe fraction dealt before a shuffle that PE is averaged over when the rules shuffle
/// every round (a continuous shuffler): none, so PE is that of the first round of a shoe.
const CSM_PENETRATION: f64 = 1.0 / 52.0;

/// One playing decision: the chart's play against another on one two-card hand and up card.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The hand's two cards (`T6`, `A7`, `88`), the up card (`A`, `2`..`9`, `T`).
    pub hand: String,
    pub up: char,
    /// The chart's play and the other play.
    pub chart: Action,
    pub other: Action,
    /// How often the decision arises per round (the chance of the up card and the hand).
    pub frequency: f64,
    /// EV of the other play minus the chart's (the chart played afterwards), from the full
    /// shoe, per initial bet.
    pub m: f64,
    /// The change in `m` per card of each value removed from the shoe (ace first).
    pub eor: [f64; NV],
}

/// The effects of removal of a rule set with its chart played, and its playing decisions:
/// what every count's metrics are computed from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Effects {
    pub decks: u32,
    /// The chart played (its name).
    pub chart: String,
    /// The chart's EV per initial bet from the full shoe.
    pub ev: f64,
    /// Effect on that EV of removing one card of each value (ace first), per initial bet.
    pub eor: [f64; NV],
    /// The fraction of the shoe dealt before the shuffle, over which PE is averaged.
    pub penetration: f64,
    #[serde(skip)]
    pub decisions: Vec<Decision>,
}

/// One count's metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountMetrics {
    pub count: String,
    /// Tags by value (ace first), in counting units (Wong Halves' halves as 0.5).
    pub tags: [f64; NV],
    pub betting_correlation: f64,
    pub playing_efficiency: f64,
    pub insurance_correlation: f64,
    /// The published BC, PE and IC of a built-in count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<Published>,
}

/// A built-in count's metrics as the counting literature publishes them (`PUBLISHED`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Published {
    pub betting_correlation: f64,
    pub playing_efficiency: f64,
    pub insurance_correlation: f64,
}

/// The shoes analysed: the full shoe, then less one card of each value, then plus one.
fn shoes(decks: u32) -> Vec<[u32; NV]> {
    let full = full_shoe(decks);
    let mut out = vec![full];
    for sign in [-1i32, 1] {
        for v in 0..NV {
            let mut s = full;
            s[v] = (s[v] as i32 + sign) as u32;
            out.push(s);
        }
    }
    out
}

/// The symmetric effect of removal of each value from values at `shoes(decks)`.
fn symmetric(at: &[f64]) -> [f64; NV] {
    std::array::from_fn(|v| (at[1 + v] - at[1 + NV + v]) / 2.0)
}

/// The one-sided effect of removal of each value from values at the full shoe and the shoes
/// one card less (the first `1 + NV` of `shoes(decks)`).
fn one_sided(at: &[f64]) -> [f64; NV] {
    std::array::from_fn(|v| at[1 + v] - at[0])
}

/// Per two-card hand (c1 <= c2, not a natural) of up card `u`: the hand's chance, the chart's
/// play, and every offered play with its EV (unconditioned world).
type HandPlays = Vec<(usize, usize, f64, Action, Vec<(Action, f64)>)>;

fn hand_plays(
    rules: &Rules,
    chart: &Chart,
    table: &DealerTable,
    u: usize,
    shoe: [u32; NV],
) -> HandPlays {
    use super::exact::Decider;
    let policy = Follow(chart);
    let mut a = super::exact::Up::with_shoe(rules, &policy, table, u, PostSplit::CdzMinus, shoe);
    let after = a.shoe();
    let mut out = Vec::new();
    for c1 in 0..NV {
        for c2 in c1..NV {
            if c1 == 0 && c2 == 9 {
                continue;
            }
            let p = super::exact::two_card_p(&after, c1, c2);
            let mut removed = [0u8; NV];
            removed[c1] += 1;
            removed[c2] += 1;
            let (sit, options) = a.initial_options(c1, c2);
            let want = policy.fixed(&sit).unwrap_or(Action::Hit);
            let play = if options.iter().any(|o| o.0 == want) {
                want
            } else {
                Action::Hit
            };
            let options = options
                .iter()
                .map(|&(x, v)| (x, a.raw(&removed, v)))
                .collect();
            out.push((c1, c2, p, play, options));
        }
    }
    out
}

/// Every decision of the chart on a fixed two-card hand, from each shoe's hand plays.
fn hand_decisions(full: [u32; NV], plays: &[Vec<HandPlays>]) -> Vec<Decision> {
    let n: u32 = full.iter().sum();
    let mut out = Vec::new();
    for u in 0..NV {
        let p_up = full[u] as f64 / n as f64;
        for (i, &(c1, c2, p, play, ref options)) in plays[0][u].iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            let ev =
                |s: &Vec<HandPlays>, x: Action| s[u][i].4.iter().find(|o| o.0 == x).map(|o| o.1);
            for &(other, _) in options.iter().filter(|o| o.0 != play) {
                let d: Option<Vec<f64>> = plays
                    .iter()
                    .map(|s| Some(ev(s, other)? - ev(s, play)?))
                    .collect();
                let Some(d) = d else { continue };
                out.push(Decision {
                    hand: format!(
                        "{}{}",
                        crate::cards::value_char(c1 as u8 + 1),
                        crate::cards::value_char(c2 as u8 + 1)
                    ),
                    up: crate::cards::value_char(u as u8 + 1),
                    chart: play,
                    other,
                    frequency: p_up * p,
                    m: d[0],
                    eor: one_sided(&d),
                });
            }
        }
    }
    out
}

/// The version of [`Effects::compute`]'s meaning, part of every kept table's identity
/// (`kept::effects_key`): bump it when a change here (or in the exact analysis it reads) can
/// change the effects, so that those kept in the cache folder are computed again.
pub const EFFECTS_VERSION: u32 = 1;

impl Effects {
    /// The effects of removal of `rules` with `chart` played, and its decisions: the exact
    /// analysis of the full shoe and of the shoes one card less and one card more of each
    /// value (21 shoes), in parallel.
    pub fn compute(rules: &Rules, chart: &Chart) -> Effects {
        let table = DealerTable::of(rules);
        let shoes = shoes(rules.decks);
        let evs: Vec<f64> = shoes
            .par_iter()
            .map(|&s| analyze_shoe(rules, &Follow(chart), table, PostSplit::CdzMinus, s).ev)
            .collect();
        // The decisions' EoRs from removal only: their curvature does not reach PE at first
        // order, and these shoes' dealer distributions are mostly known from the analyses.
        let plays: Vec<Vec<HandPlays>> = shoes[..=NV]
            .par_iter()
            .map(|&s| {
                (0..NV)
                    .into_par_iter()
                    .map(|u| hand_plays(rules, chart, table, u, s))
                    .collect()
            })
            .collect();
        Effects {
            decks: rules.decks,
            chart: chart.name.clone(),
            ev: evs[0],
            eor: symmetric(&evs),
            penetration: match rules.shuffle {
                Shuffle::CutCard { penetration } => penetration,
                Shuffle::EveryRound => CSM_PENETRATION,
            },
            decisions: hand_decisions(full_shoe(rules.decks), &plays),
        }
    }

    /// `compute`, remembered for the process (a comparison's configurations share it) and
    /// kept where `kept` keeps it (the cache folder: read in milliseconds by later runs).
    pub fn cached(rules: &Rules, chart: &Chart, kept: &Kept) -> Arc<Effects> {
        type Memo = Mutex<HashMap<String, Arc<Effects>>>;
        static MEMO: OnceLock<Memo> = OnceLock::new();
        let key = format!(
            "{}|{:?}",
            serde_json::to_string(&rules.unlabelled()).unwrap_or_default(),
            chart.codes
        );
        let memo = MEMO.get_or_init(Default::default);
        if let Some(e) = memo.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return e;
        }
        let e = Arc::new(super::kept::effects(rules, chart, kept, || {
            Effects::compute(rules, chart)
        }));
        if let Ok(mut m) = memo.lock() {
            m.insert(key, e.clone());
        }
        e
    }

    /// The cards of the full shoe by value.
    fn shoe(&self) -> [u32; NV] {
        full_shoe(self.decks)
    }

    /// `system`'s metrics for these rules, with its published ones when it is a built-in.
    pub fn metrics(&self, system: &CountSystem) -> CountMetrics {
        let tags = tags_of(system);
        let published = BUILT_IN
            .iter()
            .find(|b| b.1 == system.label)
            .and_then(|b| PUBLISHED.iter().find(|p| p.0 == b.0))
            .map(|p| Published {
                betting_correlation: p.1,
                playing_efficiency: p.2,
                insurance_correlation: p.3,
            });
        CountMetrics {
            count: system.label.clone(),
            tags,
            betting_correlation: betting_correlation(&tags, &self.eor),
            playing_efficiency: self.playing_efficiency(&tags, self.penetration),
            insurance_correlation: insurance_correlation(&tags),
            published,
        }
    }

    /// PE of `tags` with the gains summed over depths up to `penetration` of the shoe.
    pub fn playing_efficiency(&self, tags: &[f64; NV], penetration: f64) -> f64 {
        let w = self.shoe().map(|n| n as f64);
        let cards: f64 = w.iter().sum();
        let per: Vec<(f64, f64, f64, f64)> = self
            .decisions
            .iter()
            .filter(|d| d.frequency > 0.0)
            .map(|d| {
                let rho = correlation(&w, tags, &d.eor);
                (d.frequency, d.m, spread(&w, &d.eor), rho)
            })
            .collect();
        let (mut count, mut perfect) = (0.0, 0.0);
        for i in 0..DEPTH_STEPS {
            let dealt = cards * penetration * (i as f64 + 0.5) / DEPTH_STEPS as f64;
            let depth = ((cards - 1.0) * dealt / (cards - dealt)).sqrt();
            for &(f, m, s, rho) in &per {
                let sigma = s * depth;
                count += f * normal_gain(rho.abs() * sigma, m);
                perfect += f * normal_gain(sigma, m);
            }
        }
        if perfect > 0.0 {
            count / perfect
        } else {
            0.0
        }
    }
}

/// A count's tags by value (ace first) in counting units.
pub fn tags_of(system: &CountSystem) -> [f64; NV] {
    std::array::from_fn(|v| system.tags[v] as f64 / system.scale as f64)
}

/// One deck's cards by value: the weights of the correlations (the 13 ranks, tens 4x).
const DECK: [f64; NV] = [4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 16.0];

/// BC: the correlation of `tags` with the effects of removal `eor` over the ranks.
pub fn betting_correlation(tags: &[f64; NV], eor: &[f64; NV]) -> f64 {
    correlation(&DECK, tags, eor)
}

/// IC: the correlation of `tags` with the insurance bet's effects of removal (each non-ten
/// removed raises its EV, each ten lowers it: +4 and −9 up to scale).
pub fn insurance_correlation(tags: &[f64; NV]) -> f64 {
    let ins: [f64; NV] = std::array::from_fn(|v| if v == 9 { -9.0 } else { 4.0 });
    correlation(&DECK, tags, &ins)
}

/// The SD of `x` over the cards (weights `w`: cards of each value).
fn spread(w: &[f64; NV], x: &[f64; NV]) -> f64 {
    let n: f64 = w.iter().sum();
    let mean = (0..NV).map(|v| w[v] * x[v]).sum::<f64>() / n;
    ((0..NV).map(|v| w[v] * (x[v] - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The correlation of `a` and `b` over the cards (weights `w`), 0 when either is constant.
pub fn correlation(w: &[f64; NV], a: &[f64; NV], b: &[f64; NV]) -> f64 {
    let n: f64 = w.iter().sum();
    let ma = (0..NV).map(|v| w[v] * a[v]).sum::<f64>() / n;
    let mb = (0..NV).map(|v| w[v] * b[v]).sum::<f64>() / n;
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for v in 0..NV {
        let (x, y) = (a[v] - ma, b[v] - mb);
        ab += w[v] * x * y;
        aa += w[v] * x * x;
        bb += w[v] * y * y;
    }
    if aa > 0.0 && bb > 0.0 {
        ab / (aa * bb).sqrt()
    } else {
        0.0
    }
}

/// E[max(0, X)] for X normal with mean −|m| and SD `sigma`: the gain of varying a play whose
/// EV difference is estimated with that SD (`σ·φ(m/σ) − |m|·Φ(−|m|/σ)`).
pub fn normal_gain(sigma: f64, m: f64) -> f64 {
    if sigma <= 0.0 {
        return 0.0;
    }
    let z = m.abs() / sigma;
    let phi = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let tail = 0.5 * statrs::function::erf::erfc(z / std::f64::consts::SQRT_2);
    sigma * phi - m.abs() * tail
}

/// One value's effect of removal, for the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EorRow {
    pub card: char,
    /// Per card removed from this shoe, per initial bet.
    pub eor: f64,
    /// Scaled to a single deck (× decks): the figure the books print.
    pub single_deck: f64,
}

/// The report of `strategies metrics blackjack`: the effects of removal of the rules with
/// their chart, and each count's metrics beside the published ones.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricsModel {
    pub rules: Rules,
    pub chart: String,
    pub ev: f64,
    pub penetration: f64,
    pub method: String,
    pub effects_of_removal: Vec<EorRow>,
    pub counts: Vec<CountMetrics>,
    /// Each countable side bet's effects of removal and counts (`--side`); absent without.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<super::sidebets::SideCount>,
}

/// How the metrics are computed, in one paragraph (reports and docs/counting.md).
pub const METHOD: &str = "Effects of removal: the exact analysis of the chart's EV from the full shoe less and plus one card of each value, (EV(shoe - v) - EV(shoe + v)) / 2. BC and IC: correlations over the 13 ranks (tens 4x) of the tags with the EoRs and with the insurance EoRs (non-ten +4, ten -9). PE after Griffin: every decision (two-card hand x up card x each other play, the chart played afterwards) with its own EoRs (from the shoe less one card), full-shoe EV difference m and frequency w; PE = sum w G(|rho| s, m) / sum w G(s, m), G(s, m) = s phi(m/s) - |m| Phi(-|m|/s), s the SD of the perfect linear estimate after n cards dealt, summed over depths spread evenly up to the cut card, rho the correlation of the tags with the decision's EoRs.";

/// The model of `effects` for `systems`.
pub fn metrics_model(rules: &Rules, effects: &Effects, systems: &[CountSystem]) -> MetricsModel {
    MetricsModel {
        rules: rules.clone(),
        chart: effects.chart.clone(),
        ev: effects.ev,
        penetration: effects.penetration,
        method: METHOD.into(),
        effects_of_removal: (0..NV)
            .map(|v| EorRow {
                card: crate::cards::value_char(v as u8 + 1),
                eor: effects.eor[v],
                single_deck: effects.eor[v] * effects.decks as f64,
            })
            .collect(),
        counts: systems.iter().map(|s| effects.metrics(s)).collect(),
        side_bets: Vec::new(),
    }
}

/// A count's tags as text, ace first: `-1 +1 +1 +1 +1 +1 0 0 0 -1`.
pub fn tags_text(tags: &[f64; NV]) -> String {
    tags.iter()
        .map(|&t| match t {
            0.0 => "0".to_string(),
            t if t.fract() == 0.0 => format!("{t:+}"),
            t => format!("{t:+.1}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The report of a metrics model.
pub fn render(m: &MetricsModel) -> crate::report::Report {
    use crate::report::{fixed_cell, pct, pct_cell, Cell, Report, Section};
    let mut r = Report {
        title: "rtplab blackjack: count metrics".into(),
        ..Default::default()
    };
    r.meta.push(("rules".into(), m.rules.to_string()));
    r.meta.push(("chart".into(), m.chart.clone()));
    r.meta
        .push(("EV of the chart (full shoe)".into(), pct(m.ev, 3)));
    r.meta.push((
        "PE averaged over".into(),
        format!("the first {:.0}% of the shoe", m.penetration * 100.0),
    ));
    let mut eor = Section::new(
        "Effects of removal",
        &["card", "per card removed", "single-deck equivalent"],
    );
    for e in &m.effects_of_removal {
        eor.row([
            Cell::from(e.card.to_string()),
            pct_cell(e.eor, 4),
            pct_cell(e.single_deck, 3),
        ]);
    }
    r.sections.push(eor);
    let mut counts = Section::new(
        "Count metrics",
        &[
            "count",
            "tags A 2-9 T",
            "BC",
            "PE",
            "IC",
            "BC pub.",
            "PE pub.",
            "IC pub.",
        ],
    );
    for c in &m.counts {
        let mut row = vec![
            Cell::from(c.count.clone()),
            Cell::from(tags_text(&c.tags)),
            fixed_cell(c.betting_correlation, 3, ""),
            fixed_cell(c.playing_efficiency, 3, ""),
            fixed_cell(c.insurance_correlation, 3, ""),
        ];
        let p = c.published;
        for v in [
            p.map(|p| p.betting_correlation),
            p.map(|p| p.playing_efficiency),
            p.map(|p| p.insurance_correlation),
        ] {
            row.push(v.map_or(Cell::from("-".to_string()), |v| fixed_cell(v, 2, "")));
        }
        counts.row(row);
    }
    r.sections.push(counts);
    if !m.side_bets.is_empty() {
        r.sections
            .extend(super::sidebets::count_sections(&m.side_bets));
        r.notes.push(super::sidebets::COUNT_METHOD.into());
    }
    r.notes.push(format!("Method: {}", m.method));
    r.notes.push("Published: the multi-deck figures of the counting literature after Griffin's methods (sources differ by about 0.01-0.02 with decks and rules). PE here runs 0.00-0.03 below them in a 6-deck hole-card game, in the same order across counts, and lower still without a hole card (docs/counting.md).".into());
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(name: &str) -> [f64; NV] {
        tags_of(&CountSystem::resolve(name).unwrap())
    }

    #[test]
    fn griffins_single_deck_eors_give_hi_lo_a_betting_correlation_of_0_968() {
        let griffin = [-0.61, 0.38, 0.44, 0.55, 0.69, 0.46, 0.28, 0.0, -0.18, -0.51];
        let bc = betting_correlation(&tags("hi-lo"), &griffin);
        assert!((bc - 0.968).abs() < 0.0005, "{bc}");
        // Mean-centred: a constant added to every tag (an unbalanced count) changes nothing.
        let shifted = tags("hi-lo").map(|t| t + 0.25);
        assert!((betting_correlation(&shifted, &griffin) - bc).abs() < 1e-12);
    }

    #[test]
    fn insurance_correlation_is_exact_from_the_tags() {
        for (name, want) in [
            ("hi-lo", 0.760),
            ("ko", 0.783),
            ("hi-opt-2", 0.909),
            ("halves", 0.725),
        ] {
            let ic = insurance_correlation(&tags(name));
            assert!((ic - want).abs() < 0.0005, "{name}: {ic}");
        }
        // A ten-only count is perfect for insurance.
        let mut tens = [0.0; NV];
        tens[9] = -1.0;
        assert!((insurance_correlation(&tens) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_normal_gain_is_the_expected_positive_part() {
        // E[max(0, X)], X ~ N(-|m|, s^2), by the midpoint rule.
        for (s, m) in [(1.0f64, 0.0f64), (0.5, -0.3), (0.02, 0.05), (2.0, 1.0)] {
            let steps = 200_000;
            let (lo, hi) = (-m.abs() - 12.0 * s, -m.abs() + 12.0 * s);
            let h = (hi - lo) / steps as f64;
            let brute: f64 = (0..steps)
                .map(|i| {
                    let x: f64 = lo + (i as f64 + 0.5) * h;
                    let z = (x + m.abs()) / s;
                    x.max(0.0) * (-0.5 * z * z).exp() / (s * (2.0 * std::f64::consts::PI).sqrt())
                        * h
                })
                .sum();
            let g = normal_gain(s, m);
            assert!(
                (g - brute).abs() < 1e-9 * s.max(1e-3) + 1e-12,
                "{s} {m}: {g} vs {brute}"
            );
        }
        assert_eq!(normal_gain(0.0, 0.1), 0.0);
    }

    #[test]
    fn tags_read_ace_first_with_halves() {
        assert_eq!(tags_text(&tags("hi-lo")), "-1 +1 +1 +1 +1 +1 0 0 0 -1");
        assert_eq!(
            tags_text(&tags("halves")),
            "-1 +0.5 +1 +1 +1.5 +1 +0.5 0 -0.5 -1"
        );
    }
}
