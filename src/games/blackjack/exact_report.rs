//! `rtplab exact blackjack`: exact EV/RTP for a rule set (optimal play and, if given, a fixed
//! strategy), both settlements of the no-hole-card game, the claim check without noise, and
//! the sensitivity of the EV to each single rule change.

use serde_json::json;

use super::exact::{analyze_with, DealerTable, ExactResult, Follow, Optimal, PostSplit};
use super::rules::{BjPays, DealerBjTakes, Rules, Surrender};
use super::shoe::value_char;
use super::strategy::StrategySpec;
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
}

fn run(rules: &Rules, strategy: Option<&StrategySpec>, post_split: PostSplit) -> ExactResult {
    let t = DealerTable::shared(rules.h17);
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

fn result_json(r: &ExactResult) -> serde_json::Value {
    let by_up: serde_json::Map<String, serde_json::Value> = [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 0]
        .iter()
        .map(|&i| {
            (
                value_char(i as u8 + 1).to_string(),
                json!({"ev": r.ev_by_up[i], "p": r.p_up[i]}),
            )
        })
        .collect();
    json!({"ev": r.ev, "rtp": 1.0 + r.ev, "ev_by_upcard": by_up, "frequencies": r.frequencies, "method": r.method})
}

/// One single-rule change for the sensitivity table.
fn variants(base: &Rules) -> Vec<(String, Rules)> {
    let mut v = Vec::new();
    let mut push = |name: String, f: &dyn Fn(&mut Rules)| {
        let mut r = base.clone();
        f(&mut r);
        if r != *base && r.validate().is_ok() {
            v.push((name, r));
        }
    };
    for d in [1u32, 2, 4, 6, 8] {
        push(format!("{d} deck{}", if d == 1 { "" } else { "s" }), &|r| {
            r.decks = d
        });
    }
    push(if base.h17 { "S17".into() } else { "H17".into() }, &|r| {
        r.h17 = !r.h17
    });
    push(
        if base.das {
            "no DAS".into()
        } else {
            "DAS".into()
        },
        &|r| r.das = !r.das,
    );
    for h in [1u8, 2, 3, 4] {
        let hands = if h == 1 {
            "no splitting".to_string()
        } else {
            format!("split to {h} hands")
        };
        push(hands, &|r| {
            r.max_hands = h;
            if h < 3 {
                r.resplit_aces = false;
            }
            if h == 1 {
                r.das = false;
                r.hit_split_aces = false;
            }
        });
    }
    for (name, s) in [
        ("no surrender", Surrender::None),
        ("surrender vs 2-9", Surrender::TwoToNine),
        ("late surrender", Surrender::Late),
        ("early surrender", Surrender::Early),
    ] {
        push(name.into(), &|r| r.surrender = s);
    }
    if !base.peek {
        push("dealer BJ takes all".into(), &|r| {
            r.dealer_bj_takes = DealerBjTakes::All
        });
        push("dealer BJ takes original bet only".into(), &|r| {
            r.dealer_bj_takes = DealerBjTakes::Original
        });
        push("hole card (peek)".into(), &|r| {
            r.peek = true;
            r.dealer_bj_takes = DealerBjTakes::All;
        });
    }
    for (name, p) in [
        ("BJ pays 3:2", BjPays::ThreeToTwo),
        ("BJ pays 6:5", BjPays::SixToFive),
    ] {
        push(name.into(), &|r| r.bj_pays = p);
    }
    v
}

/// Build the exact report.
pub fn exact_report(cfg: &ExactConfig) -> Report {
    let rules = &cfg.rules;
    let mut settlements: Vec<(String, Rules)> = vec![(label(rules), rules.clone())];
    if cfg.both_settlements && !rules.peek {
        let mut other = rules.clone();
        other.dealer_bj_takes = match rules.dealer_bj_takes {
            DealerBjTakes::All => DealerBjTakes::Original,
            DealerBjTakes::Original => DealerBjTakes::All,
        };
        settlements.push((label(&other), other));
    }
    let mut r = Report {
        title: "rtplab blackjack exact analysis".into(),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", crate::VERSION)));
    r.meta.push(("rules".into(), rules.to_string()));
    r.meta.push((
        "strategy".into(),
        match &cfg.strategy {
            Some(s) => format!("optimal composition-dependent play, and {}", s.name()),
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
    let mut rows_json = Vec::new();
    let mut best_rtp: Option<f64> = None;
    let mut method = String::new();
    for (name, rs) in &settlements {
        let mut plays: Vec<(String, ExactResult)> =
            vec![("optimal".into(), run(rs, None, cfg.post_split))];
        if let Some(st) = &cfg.strategy {
            // `basic` is the chart derived for each settlement's rules.
            let st = super::resolve::rederive_basic(st, rs);
            plays.push((st.name(), run(rs, Some(&st), cfg.post_split)));
        }
        for (play, res) in &plays {
            s.row([
                Cell::from(name.clone()),
                Cell::from(play.clone()),
                pct_cell(res.ev, 4),
                pct_cell(1.0 + res.ev, 4),
                pct_cell(res.frequencies.double, 3),
                pct_cell(res.frequencies.split, 3),
                pct_cell(res.frequencies.surrender, 3),
            ]);
            let mut j = result_json(res);
            j["settlement"] = json!(name);
            j["play"] = json!(play);
            j["rules"] = json!(rs);
            rows_json.push(j);
        }
        if best_rtp.is_none() {
            best_rtp = Some(1.0 + plays[0].1.ev);
            method = plays[0].1.method.clone();
        }
    }
    r.sections.push(s);
    // EV by up card for the rules as given.
    let main = run(rules, cfg.strategy.as_ref(), cfg.post_split);
    let opt = run(rules, None, cfg.post_split);
    let mut s = Section::new(
        "EV by dealer up card (rules as given)",
        &["up", "P(up)", "optimal EV", "strategy EV"],
    );
    for i in [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 0] {
        s.row([
            Cell::from(value_char(i as u8 + 1).to_string()),
            pct_cell(opt.p_up[i], 3),
            pct_cell(opt.ev_by_up[i], 3),
            if cfg.strategy.is_some() {
                pct_cell(main.ev_by_up[i], 3)
            } else {
                Cell::default()
            },
        ]);
    }
    r.sections.push(s);
    r.notes.push(format!("Method: {method}."));
    let claim_json = cfg.claim.map(|c| {
        let best = best_rtp.unwrap_or(f64::NAN);
        let reachable = best >= c;
        let verdict = if reachable {
            format!(
                "reachable: optimal play returns {} under these rules, at or above the claimed {}",
                pct(best, 4),
                pct(c, 2)
            )
        } else {
            format!(
                "not reachable: even optimal play returns {} under these rules, {} below the claimed {} (exact, no sampling error)",
                pct(best, 4),
                pct(c - best, 4),
                pct(c, 2)
            )
        };
        r.notes.push(format!("Claim {}: {verdict}", pct(c, 2)));
        json!({"claimed": c, "best_rtp": best, "reachable": reachable, "verdict": verdict})
    });
    let mut sens_json = Vec::new();
    if cfg.sensitivity {
        let mut s = Section::new(
            "Sensitivity: one rule changed at a time (optimal play)",
            &["change", "EV", "RTP", "ΔEV", "reaches claim"],
        );
        let base = opt.ev;
        for (name, rs) in variants(rules) {
            let e = run(&rs, None, cfg.post_split).ev;
            let reach = cfg
                .claim
                .map(|c| if 1.0 + e >= c { "yes" } else { "no" })
                .unwrap_or("");
            s.row([
                Cell::from(name.clone()),
                pct_cell(e, 4),
                pct_cell(1.0 + e, 4),
                Cell::num(format!("{:+.4}%", (e - base) * 100.0), e - base, "fraction"),
                Cell::from(reach),
            ]);
            sens_json.push(json!({"change": name, "ev": e, "rtp": 1.0 + e, "delta_ev": e - base}));
        }
        r.sections.push(s);
    }
    r.json = json!({
        "game": "blackjack",
        "version": crate::VERSION,
        "method": method,
        "rules": rules,
        "strategy": cfg.strategy.as_ref().map(|s| s.info()),
        "ev": opt.ev,
        "rtp": 1.0 + opt.ev,
        "ev_by_upcard": result_json(&opt)["ev_by_upcard"].clone(),
        "frequencies": opt.frequencies,
        "strategy_result": cfg.strategy.as_ref().map(|_| result_json(&main)),
        "settlements": rows_json,
        "claim": claim_json,
        "sensitivity": if cfg.sensitivity { Some(sens_json) } else { None },
    });
    r
}

fn label(r: &Rules) -> String {
    if r.peek {
        "hole card (peek)".into()
    } else {
        match r.dealer_bj_takes {
            DealerBjTakes::All => "ENHC, dealer BJ takes all".into(),
            DealerBjTakes::Original => "ENHC, original bet only".into(),
        }
    }
}
