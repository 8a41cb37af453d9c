//! The exact analysis against the simulator, the committed chart against the derivation,
//! and the exact command's contract.

mod common;
use common::*;

use std::sync::atomic::AtomicBool;

use rtplab::games::blackjack::app::{seed_chart, simulate, BjConfig};
use rtplab::games::blackjack::derive::{chart_header, derive_chart};
use rtplab::games::blackjack::exact::{analyze, DealerTable, Follow};
use rtplab::games::blackjack::report::{BehindFollows, SideBets};
use rtplab::games::blackjack::rules::{Rules, Shuffle};
use rtplab::games::blackjack::strategy::{AutoPlay, StrategySpec};

#[test]
fn committed_seed_chart_is_the_derived_chart() {
    let rules = Rules::seed();
    let derived = derive_chart(&rules).to_csv(&chart_header(&rules));
    let file = std::fs::read_to_string("strategies/blackjack/seed.csv").unwrap();
    assert_eq!(
        file, derived,
        "regenerate with: rtplab strategies derive blackjack -o strategies/blackjack/seed.csv"
    );
}

fn sim(
    rules: Rules,
    strategy: StrategySpec,
    rounds: u64,
    seed: u64,
) -> rtplab::games::blackjack::sim::BjAcc {
    let cfg = BjConfig {
        rules,
        strategy,
        bets: SideBets {
            pairs: 0.0,
            behind: 0.0,
            behind_follows: BehindFollows::All,
            insure: false,
        },
        seed,
        rounds,
        chunk_shoes: None,
        threads: None,
        progress: false,
        shard: None,
    };
    simulate(&cfg, &AtomicBool::new(false)).unwrap().acc
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
    // Bad input.
    let out = rtplab()
        .args(["exact", "blackjack", "--max-hands", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
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
