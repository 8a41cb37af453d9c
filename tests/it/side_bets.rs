//! Side bets from paytables (docs/side-bets.md): the simulation against each table's exact
//! value, within standard errors, with fixed seeds; determinism; the command line's
//! refusals.

use std::sync::atomic::AtomicBool;

use crate::common::{fails_with, json, temp_dir};
use rtplab::game::{simulate, RunSpec};
use rtplab::games::blackjack::resolve::seed_chart;
use rtplab::games::blackjack::rules::{Rules, Shuffle};
use rtplab::games::blackjack::strategy::StrategySpec;
use rtplab::games::blackjack::{game::side_wagers, BjConfig, Blackjack};
use rtplab::sidebet::{Game, Paytable, SideBet};

fn bj_tables() -> Vec<SideBet> {
    Paytable::all_built_in()
        .into_iter()
        .filter(|t| t.game == Game::Blackjack)
        .map(|table| SideBet { table, stake: 1 })
        .collect()
}

fn bj_config(rules: Rules, rounds: u64) -> BjConfig {
    let mut cfg = BjConfig::new(rules, StrategySpec::Chart(Box::new(seed_chart())), rounds);
    cfg.sides = bj_tables();
    cfg
}

fn spec(seed: u64, threads: usize) -> RunSpec {
    RunSpec {
        seed,
        threads: Some(threads),
        ..RunSpec::default()
    }
}

/// Every built-in blackjack table, placed by three seats dealt to the seed table's cut card,
/// against its exact RTP over the full shoe: within 4 SE (a wager on the first cards of a
/// round has the full shoe's expectation wherever the round starts).
#[test]
fn blackjack_side_bets_simulated_agree_with_their_exact_rtps() {
    let mut rules = Rules::seed();
    rules.players = 3;
    let cfg = bj_config(rules, 1_500_000);
    let run = simulate::<Blackjack>(cfg.clone(), &spec(64, 2), &AtomicBool::new(false)).unwrap();
    let wagers = side_wagers(&cfg, &run.acc);
    assert_eq!(wagers.len(), cfg.sides.len());
    for w in &wagers {
        assert_eq!(w.bets, run.acc.counts.seat_rounds, "{}", w.name);
        assert!(
            w.z.abs() < 4.0,
            "{}: {:.4} vs exact {:.4}, z {:.2}",
            w.name,
            w.rtp,
            w.exact_rtp,
            w.z
        );
    }
}

/// The same in a hole-card game shuffled every round, with six decks (Lucky Ladies' dealer
/// blackjack is the hole card there).
#[test]
fn side_bets_in_a_six_deck_peek_game_agree_too() {
    let mut rules = Rules::seed();
    rules.decks = 6;
    rules.peek = true;
    rules.dealer_bj_takes = rtplab::games::blackjack::rules::DealerBjTakes::Original;
    rules.shuffle = Shuffle::EveryRound;
    let cfg = bj_config(rules, 1_000_000);
    let run = simulate::<Blackjack>(cfg.clone(), &spec(7, 2), &AtomicBool::new(false)).unwrap();
    for w in side_wagers(&cfg, &run.acc) {
        assert!(
            w.z.abs() < 4.0,
            "{}: {:.4} vs exact {:.4}, z {:.2}",
            w.name,
            w.rtp,
            w.exact_rtp,
            w.z
        );
    }
}

/// The side bets' sums are the same on one thread and on several.
#[test]
fn side_bet_sums_do_not_depend_on_threads() {
    let cfg = bj_config(Rules::seed(), 200_000);
    let one = simulate::<Blackjack>(cfg.clone(), &spec(3, 1), &AtomicBool::new(false)).unwrap();
    let two = simulate::<Blackjack>(cfg, &spec(3, 2), &AtomicBool::new(false)).unwrap();
    assert_eq!(one.acc.sides, two.acc.sides);
    assert!(one.acc.sides.iter().all(|r| r.n > 0));
}

#[test]
fn exact_reports_each_side_bet_with_its_event_table() {
    let v = json(&[
        "exact",
        "blackjack",
        "--side",
        "21+3",
        "--side",
        "perfect-pairs",
        "--format",
        "json",
        "-q",
    ]);
    let sides = v["side_bets"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    let rtp = |i: usize| sides[i]["exact"]["rtp"].as_f64().unwrap();
    assert!((rtp(0) - 0.9630).abs() < 0.00005, "21+3 {}", rtp(0));
    assert!(
        (rtp(1) - 0.9590).abs() < 0.00005,
        "perfect pairs {}",
        rtp(1)
    );
    assert_eq!(sides[0]["exact"]["rows"].as_array().unwrap().len(), 6);
}

#[test]
fn a_paytable_file_is_read_through_the_door() {
    let dir = temp_dir("side-file");
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        "name = \"flush only\"\ngame = \"blackjack\"\n[pays]\nflush = 9\n",
    )
    .unwrap();
    let f = format!("{}:3", file.display());
    let v = json(&["exact", "blackjack", "--side", &f, "--format", "json", "-q"]);
    assert_eq!(v["side_bets"][0]["name"], "flush only");
    assert_eq!(v["side_bets"][0]["stake"], 3);
}

#[test]
fn bad_side_bets_are_refused_with_what_to_change() {
    fails_with(
        &["exact", "blackjack", "--side", "nope", "-q"],
        "unknown side bet 'nope'",
    );
    fails_with(
        &["exact", "baccarat", "--side", "21+3", "-q"],
        "is a blackjack wager",
    );
    fails_with(
        &["sim", "blackjack", "--side", "21+3:0", "-q"],
        "the stake after ':'",
    );
    fails_with(
        &[
            "sim",
            "blackjack",
            "--side",
            "21+3",
            "--side",
            "21+3:2",
            "-q",
        ],
        "given twice",
    );
    fails_with(
        &["exact", "blackjack", "--side", "missing.toml", "-q"],
        "no such file",
    );
    let dir = temp_dir("side-bad");
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "name = \"x\"\ngame = \"blackjack\"\n[pays]\nflsh = 9\n",
    )
    .unwrap();
    fails_with(
        &["exact", "blackjack", "--side", file.to_str().unwrap(), "-q"],
        "bad.toml:4: unknown event 'flsh'",
    );
}

/// Every built-in baccarat table, one stake each coup of shoes dealt to the cut card with
/// the burn, against its exact RTP: within 4 SE.
#[test]
fn baccarat_side_bets_simulated_agree_with_their_exact_rtps() {
    use rtplab::games::baccarat::{bet::BetSpec, report::side_wagers, rules::BacRules};
    use rtplab::games::baccarat::{BacConfig, Baccarat};
    let mut cfg = BacConfig::new(
        BacRules::default(),
        BetSpec::parse("banker").unwrap(),
        1_500_000,
    );
    cfg.sides = Paytable::all_built_in()
        .into_iter()
        .filter(|t| t.game == Game::Baccarat)
        .map(|table| SideBet { table, stake: 1 })
        .collect();
    let run = simulate::<Baccarat>(cfg.clone(), &spec(11, 2), &AtomicBool::new(false)).unwrap();
    let wagers = side_wagers(&cfg, &run.acc);
    assert_eq!(wagers.len(), 7);
    for w in &wagers {
        assert_eq!(w.bets, run.acc.counts.coups, "{}", w.name);
        assert!(
            w.z.abs() < 4.0,
            "{}: {:.4} vs exact {:.4}, z {:.2}",
            w.name,
            w.rtp,
            w.exact_rtp,
            w.z
        );
    }
}

#[test]
fn sim_reports_side_bets_in_its_json() {
    let v = json(&[
        "sim", "baccarat", "--coups", "20k", "--side", "dragon-7", "--format", "json", "-q",
    ]);
    let w = &v["side_wagers"][0];
    assert_eq!(w["name"], "dragon-7");
    assert!(w["z"].as_f64().unwrap().is_finite());
    assert!((w["exact_rtp"].as_f64().unwrap() - 0.923887).abs() < 1e-6);
}

/// The dossier of a table with 21+3 and Perfect Pairs shows all three wagers: each side bet
/// as a wager with its exact RTP, its event table, and its simulation against it.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn the_dossier_of_a_table_with_side_bets_shows_every_wager() {
    use rtplab::games::blackjack::audit::{audit, render, AuditConfig, TierName};
    let sides = ["21+3", "perfect-pairs"]
        .map(|n| SideBet::resolve(n, Game::Blackjack).unwrap())
        .to_vec();
    let cfg = AuditConfig {
        rules: Rules::seed(),
        claim: None,
        rounds: 100_000,
        seed: 5,
        threads: Some(2),
        progress: false,
        monitor_tier: TierName::Basic,
        on_simulation: None,
        tables: Default::default(),
        sides,
    };
    let m = audit(&cfg, &AtomicBool::new(false)).unwrap();
    let names: Vec<&str> = m.wagers.iter().map(|w| w.wager.as_str()).collect();
    for want in ["main bet", "side bet 21+3", "side bet perfect-pairs"] {
        assert!(names.contains(&want), "{want} in {names:?}");
    }
    let rtp = |n: &str| m.wagers.iter().find(|w| w.wager == n).unwrap().rtp_exact;
    assert!((rtp("side bet 21+3") - 0.9630).abs() < 0.00005);
    assert!((rtp("side bet perfect-pairs") - 0.9590).abs() < 0.00005);
    let r = render(&m);
    for name in ["side bet 21+3: events", "side bet perfect-pairs: events"] {
        assert!(
            r.sections.iter().any(|s| s.name.starts_with(name)),
            "{name}"
        );
    }
    for sim in &m.simulation {
        let side: Vec<_> = sim
            .wagers
            .iter()
            .filter(|w| w.wager.starts_with("side bet"))
            .collect();
        assert_eq!(side.len(), 2);
        assert!(side.iter().all(|w| w.z_vs_exact.abs() < 4.0), "{side:?}");
    }
}

/// A run with side bets in three shards merges to the single run's side bets, bit for bit
/// (baccarat: the whole report).
#[test]
fn side_bets_survive_shards_and_merge() {
    let d = temp_dir("side-shards");
    let whole = [
        "sim",
        "blackjack",
        "--rounds",
        "300k",
        "--side",
        "21+3",
        "--side",
        "buster-blackjack",
        "--format",
        "json",
        "-q",
    ];
    let single = json(&whole);
    let mut files = Vec::new();
    for k in 1..=3 {
        let f = d.join(format!("bj-{k}.json"));
        let spec = format!("{k}/3");
        let mut a = whole.to_vec();
        a.extend(["--shard", &spec, "--shard-out", f.to_str().unwrap()]);
        json(&a);
        files.push(f);
    }
    let mut m = vec!["merge", "--format", "json", "-q"];
    m.extend(files.iter().map(|f| f.to_str().unwrap()));
    let merged = json(&m);
    assert_eq!(single["side_wagers"], merged["side_wagers"]);
    assert_eq!(single["side_wagers"].as_array().unwrap().len(), 2);
    let whole = [
        "sim", "baccarat", "--coups", "300k", "--side", "dragon-7", "--format", "json", "-q",
    ];
    crate::common::assert_shards_merge_to_the_single_run(&d, "bac", &whole);
}

/// `compare --side`: every configuration places the side bets; each configuration's wager is
/// measured beside its exact RTP (within 4 SE), the first configuration's equals `sim`'s run
/// of it with the same seed bit for bit, and at baccarat (whose coups do not depend on the
/// main bet) every betting strategy's side bet is the same.
#[test]
fn compare_reports_every_configurations_side_bets() {
    let bj = |cmd: &str| {
        let mut a = vec![cmd, "blackjack", "--rounds", "400k", "--seed", "11"];
        if cmd == "compare" {
            a.extend(["--strategy", "basic", "--strategy", "mimic-dealer"]);
        }
        a.extend([
            "--side",
            "21+3",
            "--side",
            "perfect-pairs:5",
            "--format",
            "json",
            "-q",
        ]);
        json(&a)
    };
    let c = bj("compare");
    let rows = c["side_wagers"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{rows:?}");
    for r in rows {
        let (rtp, se, exact) = (
            r["rtp"].as_f64().unwrap(),
            r["se"].as_f64().unwrap(),
            r["exact_rtp"].as_f64().unwrap(),
        );
        assert!(se > 0.0 && ((rtp - exact) / se).abs() < 4.0, "{r}");
        assert!((r["z"].as_f64().unwrap() - (rtp - exact) / se).abs() < 1e-9);
        assert!(r["bets"].as_u64().unwrap() > 350_000, "{r}");
    }
    let exact = |w: &str| {
        rows.iter()
            .find(|r| r["wager"] == w)
            .unwrap_or_else(|| panic!("{w} in {rows:?}"))["exact_rtp"]
            .as_f64()
            .unwrap()
    };
    assert!((exact("21+3") - 0.962961).abs() < 1e-6);
    assert!((exact("perfect-pairs (stake 5)") - 0.959036).abs() < 1e-6);
    let s = bj("sim");
    let basic = c["strategies"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r["strategy"]["name"].as_str().unwrap().starts_with("basic"))
        .unwrap();
    let mine: Vec<_> = rows
        .iter()
        .filter(|r| r["strategy"] == c["strategies"][basic]["strategy"]["name"])
        .collect();
    assert_eq!(mine.len(), 2);
    for (m, w) in mine.iter().zip(s["side_wagers"].as_array().unwrap()) {
        for k in ["bets", "rtp", "se", "ci95", "exact_rtp"] {
            assert_eq!(m[k], w[k], "{k}: compare {m} against sim {w}");
        }
    }
    let b = json(&[
        "compare", "baccarat", "--bet", "banker", "--bet", "player", "--coups", "300k", "--side",
        "dragon-7", "--side", "panda-8", "--format", "json", "-q",
    ]);
    let rows = b["side_wagers"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for w in ["dragon-7", "panda-8"] {
        let two: Vec<_> = rows.iter().filter(|r| r["wager"] == w).collect();
        assert_eq!(two.len(), 2);
        assert_ne!(two[0]["strategy"], two[1]["strategy"]);
        assert_eq!(two[0]["rtp"], two[1]["rtp"], "{w}: the same coups");
        assert!(two[0]["z"].as_f64().unwrap().abs() < 4.0, "{}", two[0]);
    }
    // Without --side the JSON has no side wagers at all.
    let none = json(&[
        "compare", "baccarat", "--bet", "banker", "--bet", "player", "--coups", "20k", "--format",
        "json", "-q",
    ]);
    assert!(none.get("side_wagers").is_none());
}

/// `check` with side bets: the committed baseline with 21+3 and Perfect Pairs passes, each
/// wager within its tolerance in its own SE; a recorded RTP moved by 8 of its SE fails that
/// wager alone (exit 1, the main bet still ok); the wager's own `z` in the file is its
/// tolerance; a wager with no recorded RTP fails until blessed.
#[test]
fn check_holds_each_side_bet_against_its_recorded_rtp() {
    let d = temp_dir("side-check");
    let src = "reports/baselines/seed-basic-side-bets-cut-card.json";
    let file = d.join("a.json");
    let text = std::fs::read_to_string(src).unwrap();
    let base: serde_json::Value = serde_json::from_str(&text).unwrap();
    let run = |v: &serde_json::Value| {
        std::fs::write(&file, v.to_string()).unwrap();
        let out = crate::common::rtplab()
            .args(["check", d.to_str().unwrap(), "--format", "json", "-q"])
            .output()
            .unwrap();
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), j["baselines"][0].clone())
    };
    let (code, b) = run(&base);
    assert_eq!(code, Some(0), "{b}");
    let sides = b["side_bets"].as_array().unwrap();
    let names: Vec<&str> = sides.iter().map(|w| w["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["21+3", "perfect-pairs"]);
    for w in sides {
        assert!(w["ok"].as_bool().unwrap() && w["z"].as_f64().unwrap().abs() <= 4.0);
        assert!(w["bets"].as_u64().unwrap() > 3_000_000, "{w}");
    }
    assert!((sides[0]["expected"].as_f64().unwrap() - 0.962961).abs() < 1e-6);
    assert!((sides[1]["expected"].as_f64().unwrap() - 0.959036).abs() < 1e-6);
    // The recorded RTP of 21+3 moved by 8 SE: that wager fails, alone.
    let se = sides[0]["se"].as_f64().unwrap();
    let mut moved = base.clone();
    let e = &mut moved["expected_side_bets"][0]["rtp"];
    *e = (e.as_f64().unwrap() + 8.0 * se).into();
    let (code, b) = run(&moved);
    assert_eq!(code, Some(1), "{b}");
    assert_eq!(b["sums"], "same");
    assert!(!b["side_bets"][0]["ok"].as_bool().unwrap());
    assert!(b["side_bets"][1]["ok"].as_bool().unwrap());
    assert!(
        (b["side_bets"][0]["z"].as_f64().unwrap() + 8.0).abs() < 0.6,
        "{b}"
    );
    // Its own tolerance of 10 SE lets it pass; one of 0 is refused as input.
    moved["sides"][0]["z"] = 10.0.into();
    let (code, b) = run(&moved);
    assert_eq!(code, Some(0), "{b}");
    assert_eq!(b["side_bets"][0]["z_limit"], 10.0);
    moved["sides"][0]["z"] = 0.0.into();
    std::fs::write(&file, moved.to_string()).unwrap();
    fails_with(&["check", d.to_str().unwrap()], "positive, finite number");
    // A side bet added without blessing: no recorded RTP and new sums, so it fails.
    let mut added = base.clone();
    added["sides"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "side": "lucky-ladies" }));
    let (code, b) = run(&added);
    assert_eq!(code, Some(1));
    assert_eq!(b["sums"], "MOVED");
    assert!(b["side_bets"][2]["expected"].is_null());
    // A paytable file is not a baseline's side bet: a baseline checks the program as built.
    let mut file_side = base;
    file_side["sides"][0]["side"] = "strategies/side-bets/21+3-wagerworks.toml".into();
    std::fs::write(&file, file_side.to_string()).unwrap();
    fails_with(&["check", d.to_str().unwrap()], "21+3-wagerworks");
}

/// `monitor --wager`: a period log of one wager held against its exact RTP and SD per unit
/// staked from a dossier's wagers (the committed seed-table dossier's pairs side bet, 11:1):
/// a clean log of 20 periods is in band (exit 0); the same log with one period that paid 6 SE
/// too much is out (exit 1, that period named); the main bet's band would be another (its RTP is not the wager's); a wager the dossier lacks is refused
/// with the names it has.
#[test]
fn monitor_holds_a_period_log_of_one_wager() {
    let d = temp_dir("side-monitor");
    let dossier = "reports/audit-seed-table/report.json";
    // P(pair) = 31/415 at 8 decks; a stake of 2 pays 11:1 (24 back).
    let (n, p) = (50_000u64, 31.0 / 415.0);
    let sd_wins = (n as f64 * p * (1.0 - p)).sqrt();
    let period = |k: u64, extra_sd: f64| {
        let wins =
            (n as f64 * p + ((k % 5) as f64 - 2.0) * 0.5 * sd_wins + extra_sd * sd_wins).round();
        format!("day-{k},{n},{},{}\n", 2 * n, 24.0 * wins)
    };
    let mut clean = String::from("period,rounds,wagered,returned\n");
    let mut planted = clean.clone();
    for k in 1..=20 {
        clean.push_str(&period(k, 0.0));
        planted.push_str(&period(k, if k == 13 { 6.0 } else { 0.0 }));
    }
    let clean_f = d.join("clean.csv");
    let planted_f = d.join("planted.csv");
    std::fs::write(&clean_f, clean).unwrap();
    std::fs::write(&planted_f, planted).unwrap();
    let run = |log: &std::path::Path, wager: &str| {
        let out = crate::common::rtplab()
            .args(["monitor", "--expected", dossier, log.to_str().unwrap()])
            .args(["--wager", wager, "--format", "json", "-q"])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), v)
    };
    let (code, v) = run(&clean_f, "pairs side bet");
    assert_eq!(code, Some(0), "{v}");
    assert!((v["expected"]["rtp"].as_f64().unwrap() - 12.0 * p).abs() < 1e-12);
    assert!((v["expected"]["sd_per_round"].as_f64().unwrap() - 3.154856).abs() < 1e-6);
    assert_eq!(v["expected"]["max_return"], 12.0);
    assert_eq!(v["out_of_band"], 0);
    let (code, v) = run(&planted_f, "pairs side bet");
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["out_of_band"], 1, "{v}");
    let day13 = &v["periods"][12];
    assert_eq!(day13["period"], "day-13");
    assert_eq!(day13["in_band"], false);
    // 6 SE planted on a period already 0.5 SE above (day 13's spread).
    let z = day13["z"].as_f64().unwrap();
    assert!((z - 6.5).abs() < 0.01, "{z}");
    // The same clean log against the main bet's band: far out (the wager's RTP is its own).
    let out = crate::common::rtplab()
        .args([
            "monitor",
            "--expected",
            dossier,
            clean_f.to_str().unwrap(),
            "-q",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    fails_with(
        &[
            "monitor",
            "--expected",
            dossier,
            clean_f.to_str().unwrap(),
            "--wager",
            "21+3",
        ],
        "has no wager '21+3'",
    );
    fails_with(
        &[
            "monitor",
            "--expected",
            dossier,
            clean_f.to_str().unwrap(),
            "--wager",
            "main bet",
        ],
        "once per strategy tier",
    );
}

/// `strategies metrics --side`: each countable side bet's effects of removal by rank and its
/// fitted counts in the JSON; a wager on the dealer's finished hand is refused (exit 2).
#[test]
fn metrics_count_the_side_bets() {
    let v = json(&[
        "strategies",
        "metrics",
        "blackjack",
        "--count",
        "hi-lo",
        "--side",
        "lucky-ladies",
        "--format",
        "json",
        "-q",
    ]);
    let s = &v["side_bets"][0];
    assert_eq!(s["name"], "lucky-ladies");
    assert_eq!(s["eor"].as_array().unwrap().len(), 13);
    let eor = |r: usize| s["eor"][r]["eor"].as_f64().unwrap();
    // The queen of hearts pays most: a queen's removal hurts the bet most, a small card's helps.
    assert!((0..13).all(|r| eor(11) <= eor(r)));
    assert!(eor(4) > 0.0);
    let l2 = &s["counts"][1];
    assert_eq!(l2["level"], 2);
    assert!(l2["betting_correlation"].as_f64().unwrap() > 0.95, "{l2}");
    fails_with(
        &[
            "strategies",
            "metrics",
            "blackjack",
            "--count",
            "hi-lo",
            "--side",
            "buster-blackjack",
        ],
        "dealer's finished hand",
    );
}

/// A counter's side bets by its count at the bet: every seat-round is in one row, the rows add
/// up to the wager's own sums, and a wager rich in tens (two-card 20 at 8:1: −4.6% off the top)
/// pays at high Hi-Lo counts and at none below +1. The exposure names those counts and
/// what a spot betting only there wins per shoe; 21+3 (flushes and straights, nothing a count of
/// tens sees) pays at none.
#[test]
fn a_counters_side_bets_are_kept_by_count_and_their_exposure_named() {
    use rtplab::games::blackjack::count::{
        CountSpec, CountSystem, Ramp, TcMode, TcRounding, TC_BINS, TC_CLAMP,
    };
    use rtplab::games::blackjack::report::{per_shoe_factor, side_exposure};
    let tens = "name = \"two-card 20\"\ngame = \"blackjack\"\n[pays]\ntwo-card-20 = 8\n";
    let sides = vec![
        SideBet {
            table: Paytable::parse(tens, "tens.toml").unwrap(),
            stake: 1,
        },
        SideBet {
            table: Paytable::built_in("21+3").unwrap(),
            stake: 1,
        },
    ];
    let mut rules = Rules::seed();
    rules.players = 2;
    let mut cfg = BjConfig::new(
        rules,
        StrategySpec::Chart(Box::new(seed_chart())),
        1_000_000,
    );
    cfg.sides = sides;
    cfg.count = Some(CountSpec {
        system: CountSystem::resolve("hi-lo").unwrap(),
        ramp: Ramp::parse("0:1,2:2").unwrap(),
        true_count: TcMode::Exact,
        rounding: TcRounding::Floor,
        wong_in: None,
        wong_out: None,
        max_entries: None,
        no_mid_shoe_entry: false,
        miscount: None,
        indices: None,
        pairs_exposure: false,
        ace_side: None,
        table_max: None,
        spots_at: None,
        bankroll: None,
        cover: Default::default(),
        labels: Default::default(),
    });
    let acc = simulate::<Blackjack>(cfg, &spec(19, 2), &AtomicBool::new(false))
        .unwrap()
        .acc;
    let rows = &acc.count.side_by_tc;
    assert_eq!(rows.len(), 2 * TC_BINS);
    for (j, whole) in acc.sides.iter().enumerate() {
        let by_tc = &rows[j * TC_BINS..(j + 1) * TC_BINS];
        let n: u64 = by_tc.iter().map(|t| t.n).sum();
        let x: i64 = by_tc.iter().map(|t| t.x).sum();
        let staked: u64 = by_tc.iter().map(|t| t.staked).sum();
        // No seat sits out: every seat-round is one wager, in exactly one row.
        assert_eq!(n, acc.counts.seat_rounds);
        assert_eq!((x as i128, staked as i128), (whole.x, whole.y));
    }
    let names = ["two-card 20".to_string(), "21+3".to_string()];
    let exposure = side_exposure(&names, &acc, per_shoe_factor(&acc));
    let tens = &exposure[0];
    assert!(
        tens.positive_counts.contains(&4) && tens.positive_counts.iter().all(|&t| t >= 1),
        "{:?}",
        tens.positive_counts
    );
    let (ev, per_shoe) = (tens.ev.unwrap(), tens.per_shoe.unwrap());
    assert!(ev > 0.0 && per_shoe > 0.0, "{ev} {per_shoe}");
    // Per shoe: the EV there times the paying seat-rounds of one spot in one shoe.
    let rounds_per_shoe = acc.counts.rounds as f64 / acc.counts.shoes as f64;
    let expect = ev * tens.share * rounds_per_shoe;
    assert!(
        (per_shoe - expect).abs() < 1e-9 * expect.abs().max(1.0),
        "{per_shoe} {expect}"
    );
    // Off the top and below it the wager loses: the rows at counts of 0 or less.
    let low = &rows[..=(TC_CLAMP as usize)];
    let (x, s): (i64, u64) = low.iter().fold((0, 0), |(x, s), t| (x + t.x, s + t.staked));
    assert!((x as f64 / s as f64) < -0.04, "{}", x as f64 / s as f64);
    assert!(exposure[1].positive_counts.is_empty());
}
