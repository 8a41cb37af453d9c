//! Baccarat: the simulation agrees with the exact enumeration; runs are reproducible for any
//! thread count and shard split; --out-dir writes every file; bad input is refused (exit 2).

use crate::common::*;

use std::sync::atomic::AtomicBool;

use rtplab::game::{simulate, RunSpec};
use rtplab::games::baccarat::bet::{BetSpec, Spot};
use rtplab::games::baccarat::exact::Exact;
use rtplab::games::baccarat::rules::{BacRules, BankerPays, Shuffle};
use rtplab::games::baccarat::{BacConfig, Baccarat};
use rtplab::report::est;

fn run(cfg: BacConfig, seed: u64, threads: usize) -> rtplab::game::Run<Baccarat> {
    let spec = RunSpec {
        seed,
        threads: Some(threads),
        ..RunSpec::default()
    };
    simulate::<Baccarat>(cfg, &spec, &AtomicBool::new(false)).unwrap()
}

/// Every spot's RTP per unit wagered and every outcome rate within 4 SE of the exact value.
fn agrees_with_exact(cfg: BacConfig, seed: u64) -> Vec<String> {
    let rules = cfg.rules.clone();
    let r = run(cfg, seed, 2);
    let ex = Exact::of(rules.decks);
    let mut zs = Vec::new();
    for (i, spot) in Spot::ALL.iter().enumerate() {
        let ratio = &r.acc.spots[i];
        if ratio.n == 0 {
            continue;
        }
        let e = est(ratio, 1.0);
        let z = (e.mean - ex.ev(*spot, &rules)) / e.se;
        assert!(z.abs() < 4.0, "{}: z = {z}", spot.name());
        zs.push(format!("{} {z:+.2}", spot.name()));
    }
    let exact = [
        ex.banker,
        ex.player,
        ex.tie,
        ex.banker_six,
        ex.natural,
        ex.pair,
        ex.pair,
    ];
    for (k, ratio) in r.acc.outcomes.iter().enumerate() {
        let e = est(ratio, 1.0);
        let z = (e.mean - exact[k]) / e.se;
        assert!(z.abs() < 4.0, "outcome {k}: z = {z}");
    }
    zs
}

#[test]
fn the_simulation_agrees_with_the_exact_values() {
    let mut cfg = BacConfig::new(BacRules::standard(), BetSpec::Flat(Spot::Banker), 3_000_000);
    cfg.pairs = 1;
    let mut zs = agrees_with_exact(cfg.clone(), 7);
    cfg.bet = BetSpec::Flat(Spot::Player);
    cfg.rules = BacRules {
        shuffle: Shuffle::EveryRound,
        tie_pays: 9,
        ..BacRules::standard()
    };
    zs.extend(agrees_with_exact(cfg.clone(), 8));
    cfg.bet = BetSpec::Flat(Spot::Tie);
    cfg.pairs = 0;
    cfg.rules = BacRules {
        decks: 6,
        burn: true,
        ..BacRules::standard()
    };
    zs.extend(agrees_with_exact(cfg.clone(), 9));
    cfg.bet = BetSpec::Martingale(Spot::Banker);
    cfg.table_max = 100;
    cfg.rules = BacRules {
        banker_pays: BankerPays::NoCommission,
        ..BacRules::standard()
    };
    zs.extend(agrees_with_exact(cfg.clone(), 10));
    cfg.bet = BetSpec::Follow;
    zs.extend(agrees_with_exact(cfg, 11));
    eprintln!("z: {}", zs.join(", "));
}

#[test]
fn same_seed_same_result_for_one_and_two_threads() {
    let mut cfg = BacConfig::new(
        BacRules::standard(),
        BetSpec::Martingale(Spot::Player),
        300_000,
    );
    cfg.pairs = 2;
    let a = run(cfg.clone(), 5, 1);
    let b = run(cfg.clone(), 5, 2);
    assert_eq!(a.acc, b.acc);
    assert!(a.plan.chunks > 1);
    let c = run(cfg, 6, 2);
    assert_ne!(a.acc, c.acc);
}

#[test]
fn shards_merge_to_the_single_run() {
    let d = temp_dir("baccarat-shards");
    for extra in [
        vec!["--coups", "300k", "--pairs", "1"],
        vec![
            "--coups",
            "200k",
            "--bet",
            "martingale:tie",
            "--table-max",
            "64",
        ],
    ] {
        let mut whole = vec!["sim", "baccarat", "--format", "json", "-q"];
        whole.extend(&extra);
        let files = assert_shards_merge_to_the_single_run(&d, "b", &whole);
        // A claim is tested on the merged run as on the single one.
        let mut m = vec!["merge", "--format", "json", "--claim", "98.94"];
        m.extend(files.iter().map(|f| f.to_str().unwrap()));
        assert!(json(&m)["claim"]["verdict"].is_string());
    }
}

#[test]
fn out_dir_writes_every_file() {
    let d = temp_dir("baccarat-out");
    let out = d.join("run");
    succeeds(rtplab().args([
        "sim",
        "baccarat",
        "--coups",
        "100k",
        "--bet",
        "martingale:banker",
        "--pairs",
        "1",
        "--claim",
        "98.94",
        "-q",
        "--out-dir",
        out.to_str().unwrap(),
    ]));
    for f in [
        "report.json",
        "report.md",
        "session-net-histogram.svg",
        "rtp-vs-exact.svg",
        "convergence.svg",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let csvs = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "csv")
        })
        .count();
    assert!(csvs >= 4, "{csvs} CSV files");
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(j["game"], "baccarat");
    assert!(j["claim"]["consistent"].is_boolean());
    assert!(j["limit_hits"].as_u64().is_some());
}

#[test]
fn bad_input_is_refused_with_exit_code_2() {
    let cases: [(&[&str], &str); 12] = [
        (
            &["--bet", "banker-twice"],
            "unknown bet strategy 'banker-twice'",
        ),
        (&["--bet", "martingale:pairs"], "unknown bet strategy"),
        (&["--table-max", "0"], "--table-max 0"),
        (&["--unit", "10", "--table-max", "5"], "--unit 10"),
        (&["--commission", "11"], "--commission 11"),
        (&["--commission", "-1"], "--commission -1"),
        (&["--decks", "0"], "--decks 0"),
        (&["--penetration", "1.2"], "--penetration 1.2"),
        (&["--penetration", "0"], "--penetration 0"),
        (&["--tie-pays", "0"], "--tie-pays 0"),
        (&["--coups", "0"], "--coups"),
        // A cut card that leaves too few cards behind it to finish a coup.
        (
            &["--decks", "1", "--penetration", "0.99"],
            "with 1 deck the cut card leaves 1 card behind it, and the coup it interrupts may need 5 more; use --penetration 0.9 or less",
        ),
    ];
    for (extra, needle) in cases {
        let mut a = vec!["sim", "baccarat", "-q"];
        a.extend(extra);
        fails_with(&a, needle);
    }
    fails_with(&["exact", "baccarat", "--decks", "17"], "--decks 17");
    // The deepest cut card allowed plays one shoe per session, and about the coups asked for.
    let j = json(&[
        "sim",
        "baccarat",
        "--decks",
        "1",
        "--penetration",
        "0.9",
        "--coups",
        "50k",
        "--format",
        "json",
        "-q",
    ]);
    let coups = j["coups"].as_f64().unwrap();
    assert!((48_000.0..52_000.0).contains(&coups), "{coups}");
    let per = j["coups_per_session"].as_f64().unwrap();
    assert!((9.0..10.5).contains(&per), "47 cards at 4.9 a coup: {per}");
    fails_with(
        &["sim", "baccarat", "--no-commission", "--commission", "4"],
        "cannot be used with",
    );
}

#[test]
fn exact_reports_the_published_figures() {
    let j = json(&["exact", "baccarat", "--format", "json"]);
    let bets = j["bets"].as_array().unwrap();
    let rtp = |name: &str, pays: &str| {
        bets.iter()
            .find(|b| b["bet"] == name && b["pays"].as_str().unwrap().starts_with(pays))
            .unwrap()["rtp"]
            .as_f64()
            .unwrap()
    };
    let r4 = |v: f64| format!("{:.4}", v * 100.0);
    assert_eq!(r4(rtp("banker", "1:1 less")), "98.9421");
    assert_eq!(r4(rtp("banker", "1:1, a win")), "98.5419");
    assert_eq!(r4(rtp("player", "1:1")), "98.7649");
    assert_eq!(r4(rtp("tie", "8:1")), "85.6404");
    assert_eq!(r4(rtp("tie", "9:1")), "95.1560");
    assert_eq!(r4(rtp("player pair", "11:1")), "89.6386");
    assert_eq!(
        format!("{:.6}", j["outcomes"]["tie"].as_f64().unwrap()),
        "0.095156"
    );
}
