//! Mistakes as a model (`sim blackjack --errors`): no mistakes is the strategy bit for bit, a
//! preset costs what it costs, the mistakes are the same at any thread count, bad files exit
//! 2, and the dossier's typical-player tiers.

use crate::common::{fails_with, json, temp_dir, RUN_ONLY_KEYS};
use serde_json::Value;

/// A run's JSON without what differs between equal runs (timings, threads) and the labels
/// of its strategy and its mistakes.
fn sums(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    for k in RUN_ONLY_KEYS
        .iter()
        .chain(&["strategy", "errors", "rounds_per_s"])
    {
        o.remove(*k);
    }
    v
}

fn sim(extra: &[&str]) -> Value {
    sim_of("200k", extra)
}

fn sim_of(rounds: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "sim",
        "blackjack",
        "--rounds",
        rounds,
        "--seed",
        "3",
        "-q",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn a_model_of_no_mistakes_plays_the_strategy_bit_for_bit() {
    // The wrapper is in place (every rate 0): the sums are the plain strategy's (a counter's
    // too: the slow test below).
    let dir = temp_dir("mistakes-zero");
    let zero = dir.join("zero.toml");
    std::fs::write(&zero, "game = \"blackjack\"\n[hit-stand]\nrate = 0\n").unwrap();
    let plain = sim(&[]);
    let none = sim(&["--errors", "none"]);
    assert_eq!(none["errors"]["model"], "none: no mistakes");
    assert_eq!(sums(none), sums(plain.clone()));
    assert_eq!(
        sums(sim(&["--errors", zero.to_str().unwrap()])),
        sums(plain)
    );
}

#[test]
fn a_preset_costs_what_its_mistakes_cost() {
    // Basic strategy with each preset's mistakes against its exact RTP, 200k rounds from a
    // fresh shoe each (SE 0.25%); what each preset cost over 20M rounds (seed 1, SE 0.025%):
    // careful 0.239%, casual 1.429%, novice 3.152%. Within 4 SE of that, and the casual and
    // novice players' loss is over 4 SE from none.
    for (preset, cost_20m) in [
        ("careful", -0.00239),
        ("casual", -0.01429),
        ("novice", -0.03152),
    ] {
        let j = sim(&["--shuffle-every-round", "--errors", preset]);
        let e = &j["errors"];
        let (cost, se) = (e["cost"].as_f64().unwrap(), e["cost_se"].as_f64().unwrap());
        assert!(se > 0.0015 && se < 0.0035, "{preset}: se {se}");
        let tol = 4.0 * (se * se + 0.00025f64.powi(2)).sqrt();
        assert!(
            (cost - cost_20m).abs() < tol,
            "{preset}: cost {cost} ± {se}"
        );
        if preset != "careful" {
            assert!(cost < -4.0 * se, "{preset}: cost {cost} ± {se}");
        }
        let free = e["rtp_error_free"].as_f64().unwrap();
        assert!((j["rtp"].as_f64().unwrap() - free - cost).abs() < 1e-12);
        // Insurance taken by mistake loses (its RTP is about 92.5%), counted apart.
        assert!(e["insurance"].as_f64().unwrap() < 0.0, "{preset}");
    }
}

#[test]
fn mistakes_are_the_same_at_one_and_two_threads() {
    // The novice's play, insurance and payout errors, at three seats.
    let run = |threads: &str| {
        sums(sim_of(
            "60k",
            &["--players", "3", "--errors", "novice", "--threads", threads],
        ))
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    // And they are mistakes: the same cards without them end elsewhere.
    assert_ne!(one["ev"], sums(sim_of("60k", &["--players", "3"]))["ev"]);
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn a_counters_mistakes_are_reproducible_and_none_is_the_counter() {
    // Slow for the count's metrics, solved once per process (a second).
    let counter = ["--count", "hi-lo", "--ramp", "0:1,2:4,4:8"];
    let plain = sums(sim(&counter));
    assert_eq!(
        sums(sim(&[&counter[..], &["--errors", "none"]].concat())),
        plain
    );
    // The novice errs in every way here: play, bets, miscounts, the discard tray, payouts.
    let run = |threads: &str| {
        sums(sim(&[
            &counter[..],
            &["--errors", "novice", "--threads", threads],
        ]
        .concat()))
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_ne!(one["ev"], plain["ev"]);
}

#[test]
fn bad_errors_input_exits_2_naming_what_to_change() {
    let dir = temp_dir("mistakes-bad");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "game = \"blackjack\"\n\n[double]\nrate = 1.5\n").unwrap();
    let b = bad.to_str().unwrap();
    let sim = |extra: &[&str]| {
        let mut a = vec!["sim", "blackjack", "--rounds", "1000", "-q"];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let fails = |args: Vec<String>, needle: &str| {
        fails_with(&args.iter().map(String::as_str).collect::<Vec<_>>(), needle)
    };
    fails(
        sim(&["--errors", b]),
        "bad.toml:4: [double] rate: expected a chance from 0 to 1",
    );
    fails(
        sim(&["--errors", "sloppy"]),
        "not a preset (none, careful, casual, novice)",
    );
    fails(sim(&["--errors", dir.to_str().unwrap()]), "--errors");
    std::fs::write(
        &bad,
        "game = \"blackjack\"\n[split]\nmisplays = [\"split-nines\"]\n",
    )
    .unwrap();
    fails(
        sim(&["--errors", b]),
        "bad.toml:3: [split] misplays: 'split-nines'",
    );
    fails(
        sim(&[
            "--errors",
            "casual",
            "--count",
            "hi-lo",
            "--miscount",
            "0.01",
        ]),
        "--miscount and --errors casual both set the miscounts",
    );
    let log = dir.join("log.jsonl");
    fails(
        sim(&["--errors", "casual", "--log-out", log.to_str().unwrap()]),
        "--errors: the round log replays the strategy without its mistakes",
    );
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn the_dossier_states_what_typical_players_get() {
    // 2M rounds a tier, so 100k a preset (SE about 0.35%); each preset's gap to basic
    // strategy's exact RTP within 4 SE of its 20M-round figure (see above), the novice's
    // over 4 SE below it, and the sentence that states the gap to the advertised maximum.
    let dir = temp_dir("mistakes-audit");
    let out = dir.join("dossier");
    crate::common::succeeds(crate::common::rtplab().args([
        "audit",
        "blackjack",
        "--claim",
        "99.54",
        "--rounds",
        "2M",
        "-q",
        "--out-dir",
        out.to_str().unwrap(),
    ]));
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let players = j["typical_players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["preset"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["careful", "casual", "novice"]);
    for (p, cost_20m) in players.iter().zip([-0.00239, -0.01429, -0.03152]) {
        assert_eq!(p["rounds"].as_u64(), Some(100_000));
        let (gap, se) = (p["vs_basic"].as_f64().unwrap(), p["se"].as_f64().unwrap());
        assert!((gap - cost_20m).abs() < 4.0 * se, "{p}");
    }
    let novice = &players[2];
    assert!(novice["vs_basic"].as_f64().unwrap() < -4.0 * novice["se"].as_f64().unwrap());
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("Typical players: basic strategy with mistakes"),
        "{md}"
    );
    assert!(
        md.contains("What a table returns: the advertised maximum is 99.54%"),
        "{md}"
    );
}
