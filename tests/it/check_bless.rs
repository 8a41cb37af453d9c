//! `check --bless` writes the expected value of a blackjack baseline from the exact analysis
//! only when the exact analysis applies: shuffled every round and no insurance.

use crate::common::*;

use serde_json::Value;

fn read(p: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn bless_writes_the_exact_ev_only_where_it_applies() {
    let d = temp_dir("check-bless");
    let every = read("reports/baselines/seed-autoplay-every-round.json".as_ref());
    let cut = read("reports/baselines/seed-basic-cut-card-insured.json".as_ref());
    let variants: [(&str, &Value, bool); 4] = [
        ("every-round", &every, false),
        ("every-round-insured", &every, true),
        ("cut-card", &cut, false),
        ("cut-card-insured", &cut, true),
    ];
    for (name, base, insure) in variants {
        let mut v = base.clone();
        let o = v.as_object_mut().unwrap();
        o.remove("expected");
        o.remove("sums");
        o.insert("name".into(), name.into());
        o.insert("insure".into(), insure.into());
        o.insert("rounds".into(), 20_000.into());
        std::fs::write(d.join(format!("{name}.json")), v.to_string()).unwrap();
    }
    succeeds(rtplab().args(["check", d.to_str().unwrap(), "--bless"]));
    // The auto-play's exact EV (seed rules, full shoe): −8.0239%, as committed.
    let e = &read(&d.join("every-round.json"))["expected"];
    assert!(
        (e["ev"].as_f64().unwrap() - -0.08023930395084801).abs() < 1e-12,
        "{e}"
    );
    assert!(e["source"].as_str().unwrap().contains("exact analysis"));
    for name in ["every-round-insured", "cut-card", "cut-card-insured"] {
        let b = read(&d.join(format!("{name}.json")));
        assert_eq!(b["expected"], Value::Null, "{name}");
        assert!(b["sums"].is_object(), "{name}: sums not written");
    }
    // Blessed files pass as they are.
    succeeds(rtplab().args(["check", d.to_str().unwrap()]));
}

/// The check's SE is per initial bet, like its estimate: the auto-play's SD of one round is
/// about 1.04 bets, so 2,002,944 rounds give 1.04/√2002944 ≈ 0.073%; and z is
/// (estimate − expected)/SE.
#[test]
fn check_reports_the_se_per_bet() {
    let d = temp_dir("check-se");
    std::fs::copy(
        "reports/baselines/seed-autoplay-every-round.json",
        d.join("a.json"),
    )
    .unwrap();
    let out = succeeds(rtplab().args(["check", d.to_str().unwrap()]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("rtplab check: regression of expected return\n"));
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("seed-autoplay-every-round"))
        .unwrap_or_else(|| panic!("no baseline row in {text}"))
        .split_whitespace()
        .collect();
    let pct = |s: &str| s.trim_end_matches('%').parse::<f64>().unwrap() / 100.0;
    let (est, se, exp) = (pct(row[2]), pct(row[3]), pct(row[4]));
    let z: f64 = row[5].parse().unwrap();
    assert!((0.00065..0.00085).contains(&se), "SE {se} in {text}");
    assert!((est - -0.08023930395084801).abs() < 1e-6 + 4.0 * se);
    assert!((exp - -0.080239).abs() < 1e-6);
    // The printed numbers are rounded: z within 0.02 of their ratio.
    assert!((z - (est - exp) / se).abs() < 0.02, "z {z} in {text}");
}

/// A dice baseline with no turns, or no turns per chunk, is an input error (exit 2).
#[test]
fn dice_baseline_counts_must_be_positive() {
    let base = read("reports/baselines/doom-s2-bank-at-350-turns.json".as_ref());
    for (count, per_chunk, why) in [
        (0, 1000, "--turns 0: must be between 1 and 10^12"),
        (1000, 0, "the chunk size must be positive"),
    ] {
        let d = temp_dir(&format!("check-zero-{count}-{per_chunk}"));
        let mut v = base.clone();
        v["count"] = count.into();
        v["per_chunk"] = per_chunk.into();
        std::fs::write(d.join("a.json"), v.to_string()).unwrap();
        fails_with(&["check", d.to_str().unwrap()], why);
    }
}

/// Blessing a Dice of Doom baseline writes the strategy's exact turn EV (S2 rules, bank at
/// 350 keeping every scoring die: 430.38 points, as committed); an end-game strategy has none.
#[test]
fn bless_writes_the_exact_doom_turn_ev() {
    let base = read("reports/baselines/doom-s2-bank-at-350-turns.json".as_ref());
    let d = temp_dir("check-bless-doom");
    for (name, strategy) in [
        ("fixed", "bank-at:350+keep-all"),
        ("endgame", "endgame:350+keep-all"),
    ] {
        let mut v = base.clone();
        let o = v.as_object_mut().unwrap();
        o.remove("expected");
        o.remove("sums");
        o.insert("name".into(), name.into());
        o.insert("strategy".into(), strategy.into());
        o.insert("count".into(), 20_000.into());
        std::fs::write(d.join(format!("{name}.json")), v.to_string()).unwrap();
    }
    succeeds(rtplab().args(["check", d.to_str().unwrap(), "--bless"]));
    let e = &read(&d.join("fixed.json"))["expected"];
    assert!(
        (e["ev"].as_f64().unwrap() - 430.3819121627048).abs() < 1e-9,
        "{e}"
    );
    assert_eq!(read(&d.join("endgame.json"))["expected"], Value::Null);
}
