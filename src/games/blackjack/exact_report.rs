//! `rtplab exact blackjack`: exact EV/RTP for a rule set (optimal play and, if given, a fixed
//! strategy), both settlements of the no-hole-card game, the claim check without noise, and
//! the sensitivity of the EV to each single rule change.

use std::collections::BTreeMap;

use serde::Serialize;

use super::exact::{
    analyze_with, DealerTable, ExactResult, Follow, Frequencies, Optimal, PostSplit,
};
use super::hand::{up_name, UP_ORDER};
use super::rules::{BjPays, DealerBjTakes, Rules, Surrender};
use super::strategy::{StrategyInfo, StrategySpec};
use crate::report::{pct, pct_cell, Cell, Report, Section};

/// What to compute.
#[derive(Clone, Debug)]
pub struct ExactConfig {
    pub rules: Rules,
    /// A fixed strategy to evaluate besides optimal play.
    pub strategy: Option<StrategySpec>,
    /// Show both ENHC settlements (when the settlement was not given explicitly).
    pub both_settlements: bool,
    pub claim: Option<f64>,
    pub sensitivity: bool,
    pub post_split: PostSplit,
    /// Where the charts derived for `basic` are kept.
    pub tables: super::kept::Kept,
    /// Side bets to value (`--side`).
    pub sides: Vec<crate::sidebet::SideBet>,
}

pub(super) fn run(
    rules: &Rules,
    strategy: Option<&StrategySpec>,
    post_split: PostSplit,
) -> ExactResult {
    let t = DealerTable::of(rules);
    match strategy {
        None => analyze_with(rules, &Optimal, t, post_split),
        Some(spec) => crate::with_strategy!(spec, rules.h17, |s| analyze_with(
            rules,
            &Follow(s),
            t,
            post_split
        )),
    }
}

/// EV given one up card, and the up card's probability.
#[derive(Clone, Debug, Serialize)]
pub struct UpExact {
    pub ev: f64,
    pub p: f64,
}

/// One analysis: EV, RTP, by up card, decision frequencies.
#[derive(Clone, Debug, Serialize)]
pub struct ExactLine {
    pub ev: f64,
    pub rtp: f64,
    /// By up card name (A, 2, ..., T).
    pub ev_by_upcard: BTreeMap<String, UpExact>,
    pub frequencies: Frequencies,
    pub method: String,
}

impl ExactLine {
    fn of(r: &ExactResult) -> ExactLine {
        ExactLine {
            ev: r.ev,
            rtp: 1.0 + r.ev,
            ev_by_upcard: UP_ORDER
                .iter()
                .map(|&i| {
                    let e = UpExact {
                        ev: r.ev_by_up[i],
                        p: r.p_up[i],
                    };
                    (up_name(i), e)
                })
                .collect(),
            frequencies: r.frequencies,
            method: r.method.clone(),
        }
    }
}

/// One settlement and one way to play.
#[derive(Clone, Debug, Serialize)]
pub struct SettlementRow {
    #[serde(flatten)]
    pub result: ExactLine,
    pub settlement: String,
    pub play: String,
    pub rules: Rules,
}

/// The claim against the best exact RTP (no sampling error).
#[derive(Clone, Debug, Serialize)]
pub struct ExactClaim {
    pub claimed: f64,
    pub best_rtp: f64,
    pub reachable: bool,
    pub verdict: String,
}

/// One single-rule change and its exact EV under optimal play.
#[derive(Clone, Debug, Serialize)]
pub struct SensitivityRow {
    pub change: String,
    pub ev: f64,
    pub rtp: f64,
    pub delta_ev: f64,
}

/// Everything the exact report says, computed by `exact_model`; its JSON is this struct.
#[derive(Clone, Debug, Serialize)]
pub struct ExactModel {
    pub game: &'static str,
    pub version: &'static str,
    pub method: String,
    pub rules: Rules,
    pub strategy: Option<StrategyInfo>,
    /// Optimal play under the rules as given.
    pub ev: f64,
    pub rtp: f64,
    pub ev_by_upcard: BTreeMap<String, UpExact>,
    pub frequencies: Frequencies,
    /// The fixed strategy under the rules as given.
    pub strategy_result: Option<ExactLine>,
    pub settlements: Vec<SettlementRow>,
    pub claim: Option<ExactClaim>,
    /// Why no claim is tested, when none is (written only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_claim: Option<String>,
    pub sensitivity: Option<Vec<SensitivityRow>>,
    /// Each side bet's exact event table (`--side`; written only when given).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<crate::sidebet::SideExact>,
}

/// One rule change: its name, the rule it touches (changes of one rule do not combine), and
/// what it does to a rule set.
pub struct RuleChange {
    pub name: String,
    pub group: &'static str,
    pub apply: Box<dyn Fn(&mut Rules) + Send + Sync>,
}

impl RuleChange {
    fn new(
        name: impl Into<String>,
        group: &'static str,
        apply: impl Fn(&mut Rules) + Send + Sync + 'static,
    ) -> RuleChange {
        RuleChange {
            name: name.into(),
            group,
            apply: Box::new(apply),
        }
    }
}

/// Every single-rule change of the sensitivity table and the audit's "what would make the
/// claim true" (those that change nothing or make impossible rules are left out by
/// `variants`).
pub fn rule_changes(base: &Rules) -> Vec<RuleChange> {
    let mut v = Vec::new();
    for d in [1u32, 2, 4, 6, 8] {
        let name = format!("{d} deck{}", if d == 1 { "" } else { "s" });
        v.push(RuleChange::new(name, "decks", move |r| r.decks = d));
    }
    v.push(RuleChange::new(
        if base.h17 { "S17" } else { "H17" },
        "soft 17",
        |r| r.h17 = !r.h17,
    ));
    v.push(RuleChange::new(
        if base.das { "no DAS" } else { "DAS" },
        "double after split",
        |r| r.das = !r.das,
    ));
    for h in [1u8, 2, 3, 4] {
        let name = if h == 1 {
            "no splitting".to_string()
        } else {
            format!("split to {h} hands")
        };
        v.push(RuleChange::new(name, "hands", move |r| {
            r.max_hands = h;
            if h < 3 {
                r.resplit_aces = false;
            }
            if h == 1 {
                r.das = false;
                r.hit_split_aces = false;
            }
        }));
    }
    for (name, s) in [
        ("no surrender", Surrender::None),
        ("surrender vs 2-9", Surrender::TwoToNine),
        ("late surrender", Surrender::Late),
        ("early surrender", Surrender::Early),
    ] {
        v.push(RuleChange::new(name, "surrender", move |r| r.surrender = s));
    }
    if !base.peek {
        v.push(RuleChange::new(
            "dealer BJ takes all",
            "dealer blackjack",
            |r| r.dealer_bj_takes = DealerBjTakes::All,
        ));
        v.push(RuleChange::new(
            "dealer BJ takes original bet only",
            "dealer blackjack",
            |r| r.dealer_bj_takes = DealerBjTakes::Original,
        ));
        v.push(RuleChange::new(
            "hole card (peek)",
            "dealer blackjack",
            |r| {
                r.peek = true;
                r.dealer_bj_takes = DealerBjTakes::All;
            },
        ));
    }
    for (name, p) in [
        ("BJ pays 3:2", BjPays::ThreeToTwo),
        ("BJ pays 6:5", BjPays::SixToFive),
    ] {
        v.push(RuleChange::new(name, "blackjack pays", move |r| {
            r.bj_pays = p
        }));
    }
    v
}

/// The rule sets of the single changes that change something and are possible.
fn variants(base: &Rules) -> Vec<(String, Rules)> {
    rule_changes(base)
        .into_iter()
        .filter_map(|c| {
            let mut r = base.clone();
            (c.apply)(&mut r);
            (r != *base && r.validate().is_ok()).then_some((c.name, r))
        })
        .collect()
}

/// Run every analysis the exact report needs (the rule changes only until `stop` is raised).
pub fn exact_model(
    cfg: &ExactConfig,
    show_progress: bool,
    stop: &std::sync::atomic::AtomicBool,
) -> ExactModel {
    let rules = &cfg.rules;
    let mut settlements: Vec<(String, Rules)> = vec![(label(rules), rules.clone())];
    if cfg.both_settlements && !rules.peek {
        let mut other = rules.clone();
        other.dealer_bj_takes = match rules.dealer_bj_takes {
            DealerBjTakes::All | DealerBjTakes::Splits => DealerBjTakes::Original,
            DealerBjTakes::Original => DealerBjTakes::All,
        };
        settlements.push((label(&other), other));
    }
    let variants = if cfg.sensitivity {
        variants(rules)
    } else {
        Vec::new()
    };
    let plays_each = 1 + cfg.strategy.is_some() as u64;
    let progress = crate::progress::Progress::new(
        show_progress,
        settlements.len() as u64 * plays_each + plays_each,
        "exact analysis",
        "analyses",
    );
    let mut rows = Vec::new();
    let mut best_rtp: Option<f64> = None;
    let mut method = String::new();
    for (name, rs) in &settlements {
        let mut plays: Vec<(String, ExactResult)> =
            vec![("optimal".into(), run(rs, None, cfg.post_split))];
        if let Some(st) = &cfg.strategy {
            // `basic` is the chart derived for each settlement's rules.
            let st = super::resolve::rederive_basic(st, rs, &cfg.tables);
            plays.push((st.name(), run(rs, Some(&st), cfg.post_split)));
        }
        progress.advance(plays_each);
        for (play, res) in &plays {
            rows.push(SettlementRow {
                result: ExactLine::of(res),
                settlement: name.clone(),
                play: play.clone(),
                rules: rs.clone(),
            });
        }
        if best_rtp.is_none() {
            best_rtp = Some(1.0 + plays[0].1.ev);
            method = plays[0].1.method.clone();
        }
    }
    let opt = ExactLine::of(&run(rules, None, cfg.post_split));
    let strategy_result = cfg
        .strategy
        .as_ref()
        .map(|s| ExactLine::of(&run(rules, Some(s), cfg.post_split)));
    progress.advance(plays_each);
    let claim = cfg.claim.map(|c| {
        let best = best_rtp.unwrap_or(f64::NAN);
        let reachable = best >= c;
        let verdict = claim_verdict(c, best, ["reachable", "not reachable"]);
        ExactClaim {
            claimed: c,
            best_rtp: best,
            reachable,
            verdict,
        }
    });
    let sensitivity = cfg.sensitivity.then(|| {
        progress.stage("sensitivity", variants.len() as u64, "rule changes");
        // A stop (the page's answer past its time: nobody waits for it) ends the rule
        // changes between two analyses.
        variants
            .into_iter()
            .take_while(|_| !stop.load(std::sync::atomic::Ordering::SeqCst))
            .map(|(change, rs)| {
                let e = run(&rs, None, cfg.post_split).ev;
                progress.advance(1);
                SensitivityRow {
                    change,
                    ev: e,
                    rtp: 1.0 + e,
                    delta_ev: e - opt.ev,
                }
            })
            .collect()
    });
    ExactModel {
        game: "blackjack",
        version: crate::VERSION,
        method,
        rules: rules.clone(),
        strategy: cfg.strategy.as_ref().map(|s| s.info()),
        ev: opt.ev,
        rtp: opt.rtp,
        ev_by_upcard: opt.ev_by_upcard,
        frequencies: opt.frequencies,
        strategy_result,
        settlements: rows,
        no_claim: claim.is_none().then(|| rules.no_claim_reason(false)),
        claim,
        sensitivity,
        side_bets: cfg
            .sides
            .iter()
            .map(|b| {
                crate::sidebet::SideExact::of(
                    b,
                    super::sidebets::exact(&b.table, rules.decks, rules.h17),
                )
            })
            .collect(),
    }
}

/// The exact report: tables and notes rendered from the model, the JSON the model itself.
pub fn render(m: &ExactModel) -> Report {
    let mut r = Report {
        title: "rtplab blackjack exact analysis".into(),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", m.version)));
    r.meta.push(("rules".into(), m.rules.off_the_top()));
    r.meta.push((
        "strategy".into(),
        match &m.strategy {
            Some(s) => format!("optimal composition-dependent play, and {}", s.name),
            None => "optimal composition-dependent play".into(),
        },
    ));
    let mut s = Section::new(
        "EV and RTP per initial bet",
        &[
            "settlement",
            "play",
            "EV",
            "RTP",
            "P(double)",
            "P(split)",
            "P(surrender)",
        ],
    );
    for row in &m.settlements {
        let res = &row.result;
        s.row([
            Cell::from(row.settlement.clone()),
            Cell::from(row.play.clone()),
            pct_cell(res.ev, 4),
            pct_cell(res.rtp, 4),
            pct_cell(res.frequencies.double, 3),
            pct_cell(res.frequencies.split, 3),
            pct_cell(res.frequencies.surrender, 3),
        ]);
    }
    r.sections.push(s);
    // The strategy's column only when a strategy was given.
    let columns: &[&str] = match &m.strategy_result {
        Some(_) => &["up", "P(up)", "optimal EV", "strategy EV"],
        None => &["up", "P(up)", "optimal EV"],
    };
    let mut s = Section::new("EV by dealer up card (rules as given)", columns);
    for i in UP_ORDER {
        let up = up_name(i);
        let opt = &m.ev_by_upcard[&up];
        let mut row = vec![
            Cell::from(up.clone()),
            pct_cell(opt.p, 3),
            pct_cell(opt.ev, 3),
        ];
        if let Some(st) = &m.strategy_result {
            row.push(pct_cell(st.ev_by_upcard[&up].ev, 3));
        }
        s.row(row);
    }
    r.sections.push(s);
    r.notes.push(format!("Method: {}.", m.method));
    if let Some(c) = &m.claim {
        r.notes
            .push(format!("Claim {}: {}", pct(c.claimed, 2), c.verdict));
    }
    r.notes.extend(m.no_claim.clone());
    if let Some(rows) = &m.sensitivity {
        let mut s = Section::new(
            "Sensitivity: one rule changed at a time (optimal play)",
            &["change", "EV", "RTP", "ΔEV", "reaches claim"],
        );
        for row in rows {
            let reach = m
                .claim
                .as_ref()
                .map(|c| if row.rtp >= c.claimed { "yes" } else { "no" })
                .unwrap_or("");
            s.row([
                Cell::from(row.change.clone()),
                pct_cell(row.ev, 4),
                pct_cell(row.rtp, 4),
                Cell::num(
                    format!("{:+.4}%", row.delta_ev * 100.0),
                    row.delta_ev,
                    "fraction",
                ),
                Cell::from(reach),
            ]);
        }
        r.sections.push(s);
    }
    r.sections
        .extend(crate::sidebet::exact_sections(&m.side_bets));
    r.notes.extend(crate::sidebet::exact_notes(&m.side_bets));
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The picture of `--sensitivity` (`sensitivity.svg`): the change in optimal play's EV of
/// each single rule change, best first, with the change the claim would need drawn across.
/// None without `--sensitivity`.
pub fn plots(m: &ExactModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let Some(rows) = &m.sensitivity else {
        return Ok(Vec::new());
    };
    let mut rows: Vec<&SensitivityRow> = rows.iter().collect();
    rows.sort_by(|a, b| b.delta_ev.total_cmp(&a.delta_ev));
    let bars: Vec<Bar> = rows
        .iter()
        .map(|r| Bar::new(r.change.clone(), r.delta_ev * 100.0))
        .collect();
    let need = m.claim.as_ref().map(|c| {
        (
            (c.claimed - m.rtp) * 100.0,
            format!("needed for the claimed {}", pct(c.claimed, 2)),
        )
    });
    let svg = bar_chart(&BarChart {
        title: "House edge sensitivity: EV change of each single rule change (optimal play)",
        x_label: "rule change, one at a time from the rules as given (most helpful first)",
        y_label: "ΔEV per initial bet (%)",
        y_unit: YUnit::Percent,
        bars: &bars,
        hline: need.as_ref().map(|(v, l)| (*v, l.as_str())),
        histogram: false,
    })?;
    Ok(vec![("sensitivity.svg".to_string(), svg)])
}

fn label(r: &Rules) -> String {
    if r.peek {
        "hole card (peek)".into()
    } else {
        match r.dealer_bj_takes {
            DealerBjTakes::All => "ENHC, dealer BJ takes all".into(),
            DealerBjTakes::Original => "ENHC, original bet only".into(),
            DealerBjTakes::Splits => "ENHC, dealer BJ takes splits, not doubles".into(),
        }
    }
}
/// The verdict on a claimed RTP `c` against `best`, optimal play's exact RTP: `words[0]` if
/// it is reached, `words[1]` if not, then why.
pub(super) fn claim_verdict(c: f64, best: f64, words: [&str; 2]) -> String {
    if best >= c {
        format!(
            "{}: optimal play returns {} under these rules, at or above the claimed {}",
            words[0],
            pct(best, 4),
            pct(c, 2)
        )
    } else {
        format!(
            "{}: even optimal play returns {} under these rules, {} below the claimed {} (exact, no sampling error)",
            words[1],
            pct(best, 4),
            pct(c - best, 4),
            pct(c, 2)
        )
    }
}
