//! `check --bless` writes the expected value of a blackjack baseline from the exact analysis
//! only when the exact analysis applies: shuffled every round and no insurance.

mod common;
use common::*;

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
