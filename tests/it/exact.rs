//! The exact analysis against the simulator, the committed chart against the derivation,
//! and the exact command's contract.

use crate::common::*;

use std::sync::atomic::AtomicBool;

use rtplab::game::{simulate, RunSpec};
use rtplab::games::blackjack::derive::{chart_header, derive_chart};
use rtplab::games::blackjack::exact::{analyze, DealerTable, Follow};
use rtplab::games::blackjack::resolve::{basic_chart, resolve_strategy, seed_chart, BASIC_NAME};
use rtplab::games::blackjack::rules::{DealerBjTakes, Double, Rules, Shuffle, Surrender};
use rtplab::games::blackjack::strategy::{AutoPlay, StrategySpec};
use rtplab::games::blackjack::{BjConfig, Blackjack};

#[test]
fn committed_seed_chart_is_the_derived_chart() {
    let rules = Rules::seed();
    let derived = derive_chart(&rules, false).to_csv(&chart_header(&rules));
    let file = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    assert_eq!(
        file, derived,
        "regenerate with: rtplab strategies derive blackjack -o strategies/blackjack/seed.csv"
    );
}

#[test]
fn committed_us_shoe_chart_is_the_derived_chart() {
    let mut rules = Rules::seed();
    rules.decks = 6;
    rules.h17 = true;
    rules.peek = true;
    rules.das = true;
    rules.max_hands = 4;
    rules.surrender = Surrender::Late;
    let derived = derive_chart(&rules, false).to_csv(&chart_header(&rules));
    let file = std::fs::read_to_string("strategies/blackjack/6d-h17-peek-das-4hands.csv").unwrap();
    assert_eq!(
        file, derived,
        "regenerate with: rtplab strategies derive blackjack --decks 6 --h17 --peek --das --max-hands 4 --surrender late -o strategies/blackjack/6d-h17-peek-das-4hands.csv"
    );
}

/// Five rule sets off the seed table's, each shuffled every round (the exact value is for a
/// full shoe).
fn off_seed_rule_sets() -> Vec<(&'static str, Rules)> {
    let base = every_round();
    let early = Rules {
        surrender: Surrender::Early,
        ..base.clone()
    };
    let us_shoe = Rules {
        decks: 6,
        h17: true,
        peek: true,
        das: true,
        ..base.clone()
    };
    let obo_resplit = Rules {
        decks: 2,
        dealer_bj_takes: DealerBjTakes::Original,
        max_hands: 4,
        resplit_aces: true,
        das: true,
        ..base.clone()
    };
    let restricted = Rules {
        decks: 1,
        double: Double::TenToEleven,
        surrender: Surrender::None,
        h17: true,
        ..base.clone()
    };
    let late_4 = Rules {
        decks: 4,
        peek: true,
        surrender: Surrender::Late,
        max_hands: 4,
        ..base
    };
    vec![
        ("early surrender", early),
        ("6 decks H17 peek DAS", us_shoe),
        ("2 decks OBO resplit aces DAS", obo_resplit),
        ("1 deck, double 10-11 only, no surrender, H17", restricted),
        ("4 decks peek late surrender 4 hands", late_4),
    ]
}

/// `basic` is the chart derived for the rules in force, not the seed table's chart: under
/// each rule set the simulation of `--strategy basic` agrees with the exact EV of the
/// derived chart within 4 SE (the seed chart is 0.1-0.6% off under these rules).
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn basic_is_derived_for_the_rules_and_simulation_agrees_with_its_exact_ev() {
    let table = |r: &Rules| DealerTable::new(r.h17);
    let seed = seed_chart();
    for (i, (name, rules)) in off_seed_rule_sets().into_iter().enumerate() {
        let spec = resolve_strategy("basic", &rules, &Default::default()).unwrap();
        let StrategySpec::Chart(chart) = &spec else {
            panic!("{name}: basic is not a chart")
        };
        let derived = derive_chart(&rules, false);
        assert_eq!(
            chart.codes, derived.codes,
            "{name}: basic is not the derived chart"
        );
        assert_eq!(chart.name, BASIC_NAME);
        assert_ne!(
            chart.codes, seed.codes,
            "{name}: the rule set does not move the chart"
        );
        let exact = analyze(&rules, &Follow(&derived), &table(&rules)).ev;
        let seed_exact = analyze(&rules, &Follow(&seed), &table(&rules)).ev;
        assert!(
            exact >= seed_exact,
            "{name}: derived {exact:.6} is worse than the seed chart {seed_exact:.6}"
        );
        if i == 0 {
            // Early surrender is worth far more with the chart that uses it.
            assert!(
                exact - seed_exact > 0.004,
                "{name}: {exact} vs {seed_exact}"
            );
        }
        let u = rules.units_per_bet() as f64;
        let acc = sim(rules, spec, 4_000_000, 700 + i as u64);
        let (ev, se) = (acc.main.mean() / u, acc.main.se() / u);
        let z = (ev - exact) / se;
        assert!(
            z.abs() < 4.0,
            "{name}: sim {ev:.5} ± {se:.5} vs exact {exact:.5} ({z:+.2} SE)"
        );
    }
}

#[test]
fn basic_under_the_seed_rules_is_the_committed_seed_chart() {
    let rules = Rules::seed();
    assert_eq!(
        basic_chart(&rules, &Default::default()).codes,
        seed_chart().codes
    );
    assert_eq!(
        basic_chart(&rules, &Default::default()).codes,
        derive_chart(&rules, false).codes
    );
}

fn sim(
    rules: Rules,
    strategy: StrategySpec,
    rounds: u64,
    seed: u64,
) -> rtplab::games::blackjack::sim::BjAcc {
    let spec = RunSpec {
        seed,
        ..RunSpec::default()
    };
    simulate::<Blackjack>(
        BjConfig::new(rules, strategy, rounds),
        &spec,
        &AtomicBool::new(false),
    )
    .unwrap()
    .acc
}

fn every_round() -> Rules {
    let mut r = Rules::seed();
    r.shuffle = Shuffle::EveryRound;
    r
}

#[test]
fn simulation_of_the_derived_chart_agrees_with_its_exact_ev() {
    for peek in [false, true] {
        let mut rules = every_round();
        rules.peek = peek;
        let chart = seed_chart();
        let exact = analyze(&rules, &Follow(&chart), &DealerTable::new(false)).ev;
        let acc = sim(
            rules,
            StrategySpec::Chart(Box::new(chart)),
            12_000_000,
            31 + peek as u64,
        );
        let (ev, se) = (acc.main.mean() / 2.0, acc.main.se() / 2.0);
        let z = (ev - exact) / se;
        assert!(
            z.abs() < 4.0,
            "peek {peek}: sim {ev:.5} ± {se:.5} vs exact {exact:.5} ({z:+.2} SE)"
        );
    }
}

#[test]
fn autoplay_ev_by_up_card_agrees_with_the_exact_values() {
    let rules = every_round();
    let exact = analyze(&rules, &Follow(&AutoPlay), &DealerTable::new(false));
    let acc = sim(rules, StrategySpec::AutoPlay, 8_000_000, 5);
    for u in 0..10 {
        let r = &acc.by_up[u];
        let (ev, se) = (r.mean() / 2.0, r.se() / 2.0);
        let z = (ev - exact.ev_by_up[u]) / se;
        assert!(
            z.abs() < 4.0,
            "up {}: sim {ev:.5} ± {se:.5} vs exact {:.5}",
            u + 1,
            exact.ev_by_up[u]
        );
    }
    let z = (acc.main.mean() / 2.0 - exact.ev) / (acc.main.se() / 2.0);
    assert!(z.abs() < 4.0, "overall autoplay: {z:+.2} SE");
}

#[test]
fn exact_command_contract() {
    let v = json(&[
        "exact",
        "blackjack",
        "--format",
        "json",
        "--claim",
        "99.54",
        "--strategy",
        "autoplay",
    ]);
    for k in [
        "ev",
        "rtp",
        "ev_by_upcard",
        "frequencies",
        "rules",
        "strategy",
        "method",
        "settlements",
        "claim",
    ] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert_eq!(
        v["settlements"].as_array().unwrap().len(),
        4,
        "both settlements, optimal and autoplay"
    );
    assert_eq!(v["claim"]["reachable"], false);
    let rtp = v["rtp"].as_f64().unwrap();
    assert!((rtp - (1.0 + v["ev"].as_f64().unwrap())).abs() < 1e-12);
    // A settlement given explicitly shows that one only.
    let v = json(&[
        "exact",
        "blackjack",
        "--dealer-bj-takes",
        "original",
        "--format",
        "json",
    ]);
    assert_eq!(v["settlements"].as_array().unwrap().len(), 1);
    // Sensitivity lists single changes.
    let v = json(&[
        "exact",
        "blackjack",
        "--sensitivity",
        "--decks",
        "2",
        "--format",
        "json",
    ]);
    let names: Vec<String> = v["sensitivity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["change"].as_str().unwrap().to_string())
        .collect();
    for want in [
        "8 decks",
        "H17",
        "DAS",
        "late surrender",
        "hole card (peek)",
        "BJ pays 6:5",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} missing from {names:?}"
        );
    }
    // Bad input; more hands than the analysis resplits to is refused, not capped.
    let out = rtplab()
        .args(["exact", "blackjack", "--max-hands", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = rtplab()
        .args(["exact", "blackjack", "--max-hands", "8"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--max-hands 8: the exact analysis resplits to at most 4 hands"),
        "{err}"
    );
}

#[test]
fn derive_writes_a_chart_the_simulator_reads() {
    let dir = std::env::temp_dir().join(format!("rtplab-derive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("6d-das.csv");
    succeeds(rtplab().args([
        "strategies",
        "derive",
        "blackjack",
        "--decks",
        "6",
        "--das",
        "--peek",
        "-o",
        path.to_str().unwrap(),
    ]));
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--strategy",
        path.to_str().unwrap(),
        "--rounds",
        "20k",
        "--decks",
        "6",
        "--das",
        "--peek",
    ]));
}

/// With both settlements shown, `basic` is derived for each: the original-bet-only row plays
/// the chart derived for OBO (what `--dealer-bj-takes original --strategy basic` plays), not
/// the lose-all chart.
#[test]
fn exact_basic_is_derived_for_each_settlement() {
    let both = json(&[
        "exact",
        "blackjack",
        "--strategy",
        "basic",
        "--format",
        "json",
    ]);
    let obo = json(&[
        "exact",
        "blackjack",
        "--strategy",
        "basic",
        "--dealer-bj-takes",
        "original",
        "--format",
        "json",
    ]);
    let row = |v: &serde_json::Value, settlement: &str| -> f64 {
        v["settlements"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["settlement"].as_str().unwrap().contains(settlement)
                    && r["play"].as_str().unwrap().starts_with("basic")
            })
            .unwrap_or_else(|| panic!("no basic row for {settlement}"))["ev"]
            .as_f64()
            .unwrap()
    };
    let both_obo = row(&both, "original bet only");
    assert_eq!(both_obo, row(&obo, "original bet only"));
    let mut rules = Rules::seed();
    rules.dealer_bj_takes = DealerBjTakes::Original;
    let lose_all_chart = analyze(&rules, &Follow(&seed_chart()), &DealerTable::new(false)).ev;
    assert!(
        both_obo > lose_all_chart + 1e-4,
        "OBO basic {both_obo} vs the lose-all chart under OBO {lose_all_chart}"
    );
}

#[test]
fn the_exact_ev_of_a_depleted_shoe_and_its_faults() {
    // A deck without its fives (S17, hole card, no surrender): the shoe's EV and best play,
    // the full deck's EV beside; --shoe gives the same shoe by value.
    let base = [
        "exact",
        "blackjack",
        "--decks",
        "1",
        "--peek",
        "--surrender",
        "none",
        "--format",
        "json",
        "-q",
    ];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        json(&a)
    };
    let plain = with(&[]);
    assert!(plain.get("shoe").is_none());
    let v = with(&["--removed", "5,5,5,5"]);
    let shoe = &v["shoe"];
    assert_eq!(
        shoe["cards"],
        serde_json::json!([4, 4, 4, 4, 0, 4, 4, 4, 4, 16])
    );
    assert_eq!(shoe["full_shoe_ev"], plain["ev"]);
    let delta = shoe["delta_ev"].as_f64().unwrap();
    assert!((0.03..0.04).contains(&delta), "{delta}");
    assert_eq!(shoe["best_play"].as_array().unwrap().len(), 54);
    let w = with(&["--shoe", "4,4,4,4,0,4,4,4,4,16"]);
    assert_eq!(w["ev"], v["ev"]);
    fails_with(&["exact", "blackjack", "--removed", "5,Z"], "card 'Z'");
    fails_with(
        &[
            "exact",
            "blackjack",
            "--decks",
            "1",
            "--removed",
            "5,5,5,5,5",
        ],
        "takes out 5 5s but a shoe of 1 deck holds 4",
    );
    fails_with(
        &["exact", "blackjack", "--shoe", "1,2,3"],
        "10 whole counts",
    );
    fails_with(
        &["exact", "blackjack", "--shoe", "4,0,0,0,0,0,0,0,0,0"],
        "4 cards left",
    );
    fails_with(
        &["exact", "blackjack", "--removed", "5", "--sensitivity"],
        "--sensitivity",
    );
}
