//! `rtplab audit blackjack`: the dossier's numbers against the exact analysis, closed forms
//! and the simulation; its files, its HTML (self-contained, and rendered by a real headless
//! browser when one is installed); `monitor` reading its `monitoring` object; bad input.

use crate::common::*;

use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Sum of p and of net·p of a `[{net, p}]` list.
fn moments(d: &Value) -> (f64, f64) {
    let rows = d.as_array().unwrap();
    (
        rows.iter().map(|r| f(&r["p"])).sum(),
        rows.iter().map(|r| f(&r["net"]) * f(&r["p"])).sum(),
    )
}

/// One dossier of the seed table with a short simulation, checked from every side.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn the_seed_table_dossier() {
    let dir = temp_dir("audit-seed");
    let out = dir.join("dossier");
    let shown = succeeds(rtplab().args([
        "audit",
        "blackjack",
        "--claim",
        "99.54",
        "--rounds",
        "300k",
        "--seed",
        "7",
        "-q",
        "--out-dir",
        out.to_str().unwrap(),
    ]));
    // The terminal shows the answer at a glance (over 300 lines in full): the claim's verdict,
    // the tiers, every wager, the cross-check, typical players, the first rule changes, and a
    // note naming the rest.
    let shown = String::from_utf8(shown.stdout).unwrap();
    assert!(shown.lines().count() <= 115, "{shown}");
    let words = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "does not hold",
        "Strategy tiers (exact)",
        "Every wager (exact)",
        "Simulation cross-check",
        "What would make the claim true (first 6 of",
        "Shorter on the terminal: 9 tables left out (Rules as dealt; Definitions;",
        "Typical players",
        "7 notes left out (Assumption)",
    ] {
        assert!(words.contains(part), "{part} not shown:\n{shown}");
    }
    assert!(!shown.lines().any(|l| l.starts_with("Acceptance bands")));
    assert!(!shown.contains("Assumption: "));
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();

    // Tiers: each distribution sums to 1, its mean is the tier's exact EV, its moments are
    // the reported ones; the EVs are the exact analysis's.
    let exact = json(&[
        "exact",
        "blackjack",
        "--strategy",
        "basic",
        "--format",
        "json",
    ]);
    let auto = json(&[
        "exact",
        "blackjack",
        "--strategy",
        "autoplay",
        "--format",
        "json",
    ]);
    let want = [
        ("optimal", f(&exact["ev"])),
        ("basic", f(&exact["strategy_result"]["ev"])),
        ("autoplay", f(&auto["strategy_result"]["ev"])),
    ];
    let tiers = j["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 3);
    for (t, (name, ev)) in tiers.iter().zip(want) {
        assert_eq!(t["tier"], name);
        assert!((f(&t["ev_exact"]) - ev).abs() < 1e-12, "{name}");
        let (sum, mean) = moments(&t["distribution"]);
        assert!((sum - 1.0).abs() < 1e-10, "{name}: sums to {sum}");
        assert!((mean - ev).abs() < 1e-9, "{name}: mean {mean} vs EV {ev}");
        let rows = t["distribution"].as_array().unwrap();
        let var: f64 = rows
            .iter()
            .map(|r| (f(&r["net"]) - mean).powi(2) * f(&r["p"]))
            .sum();
        assert!((f(&t["variance"]) - var).abs() < 1e-12);
        assert!((f(&t["sd"]) - var.sqrt()).abs() < 1e-12);
        assert!((f(&t["volatility_index"]["p95"]) - 1.959963984540054 * var.sqrt()).abs() < 1e-9);
        let hit: f64 = rows
            .iter()
            .filter(|r| f(&r["net"]) > 0.0)
            .map(|r| f(&r["p"]))
            .sum();
        assert!((f(&t["hit_frequency"]) - hit).abs() < 1e-12);
        assert_eq!(
            f(&t["approximation"]["resplit_mass"]),
            0.0,
            "two hands at most"
        );
        assert!(f(&t["approximation"]["tiny_mass"]) < 1e-7);
        // RTP per total wagered from the mean amount wagered.
        let w = f(&t["wagered_per_round"]);
        assert!(w > 1.0 - 1e-12 && w < 1.2, "{name}: {w}");
        assert!((f(&t["rtp_total_wagered_exact"]) - (1.0 + ev / w)).abs() < 1e-12);
    }
    // Auto-play never doubles or splits: one bet per round, nothing below −1 or above +1.5.
    let autoplay = &tiers[2];
    assert!((f(&autoplay["wagered_per_round"]) - 1.0).abs() < 1e-12);
    assert_eq!(f(&autoplay["largest_loss"]), -1.0);

    // Wagers: pairs and insurance are the closed forms for 8 decks; a bet behind that matches
    // is the main bet; one that declines has its own distribution, with its own mean.
    let wager = |name: &str, tier: Option<&str>| -> Value {
        j["wagers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| {
                w["wager"].as_str().unwrap().starts_with(name)
                    && tier.is_none_or(|t| w["tier"] == t)
            })
            .unwrap_or_else(|| panic!("no wager {name}"))
            .clone()
    };
    assert!((f(&wager("pairs", None)["rtp_exact"]) - 12.0 * 31.0 / 415.0).abs() < 1e-15);
    assert!((f(&wager("insurance", None)["rtp_exact"]) - 3.0 * 128.0 / 415.0).abs() < 1e-15);
    for t in ["optimal", "basic", "autoplay"] {
        let w = wager("bet behind, declining", Some(t));
        let (sum, mean) = moments(&w["distribution"]);
        assert!((sum - 1.0).abs() < 1e-10);
        assert!((f(&w["rtp_exact"]) - (1.0 + mean)).abs() < 1e-12);
        let m = wager("bet behind, matching", Some(t));
        assert_eq!(m["rtp_exact"], wager("main bet", Some(t))["rtp_exact"]);
        // Declining the doubles and splits the player takes for their value costs the bettor
        // behind; auto-play never doubles or splits, so there is nothing to decline.
        let (declining, matching) = (f(&w["rtp_exact"]), f(&m["rtp_exact"]));
        if t == "autoplay" {
            assert!((declining - matching).abs() < 1e-12);
        } else {
            assert!(
                declining < matching - 0.01,
                "{t}: {declining} vs {matching}"
            );
        }
    }

    // The simulation: basic and auto-play agree with the exact values (EV within 4 SE, the
    // histogram by chi-square, each side bet within 4 SE).
    let sims = j["simulation"].as_array().unwrap();
    assert_eq!(sims.len(), 2);
    for s in sims {
        let name = s["tier"].as_str().unwrap();
        assert!(f(&s["z_vs_exact"]).abs() < 4.0, "{name}: {s}");
        assert!(
            f(&s["chi_square"]["p"]) > 1e-4,
            "{name}: {}",
            s["chi_square"]
        );
        let n: u64 = s["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["count"].as_u64().unwrap())
            .sum();
        assert_eq!(n, s["rounds"].as_u64().unwrap());
        for w in s["wagers"].as_array().unwrap() {
            assert!(f(&w["z_vs_exact"]).abs() < 4.0, "{name}: {w}");
        }
        // About 4,096 batches (chunks of 74 rounds), so the batch-means SE is within a few
        // percent of the independent rounds' SD/√n (the exact SD: 1.11), and the interval is
        // ±t(0.975, batches − 1)·SE.
        let batches = s["batches"].as_u64().unwrap();
        assert!((4000..=4096).contains(&batches), "{name}: {batches}");
        let tier = j["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["tier"] == s["tier"])
            .unwrap();
        let iid = f(&tier["sd"]) / (s["rounds"].as_u64().unwrap() as f64).sqrt();
        assert!(
            (f(&s["se"]) / iid - 1.0).abs() < 0.08,
            "{name}: {} vs {iid}",
            s["se"]
        );
        let ci = s["ci95"].as_array().unwrap();
        assert!(f(&ci[0]) < f(&s["ev"]) && f(&s["ev"]) < f(&ci[1]));
        let t = rtplab::stats::critical(0.95, batches - 1);
        assert!((t - 1.96).abs() < 0.005 && t > 1.96, "{t}");
        assert!(((f(&ci[1]) - f(&ci[0])) - 2.0 * t * f(&s["se"])).abs() < 1e-12);
    }

    // The claim: out of reach by 0.25%; early surrender alone would reach it, with basic play.
    assert_eq!(j["claim"]["reachable"], false);
    assert_eq!(j["claim"]["tier"], "optimal");
    assert!(j["claim"]["verdict"]
        .as_str()
        .unwrap()
        .starts_with("does not hold"));
    // Power: a 95% test rejects the claim with probability 95% after ((1.96 + 1.645)·SD/Δ)².
    let sep = j["separation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["tier"] == "basic" && f(&r["level"]) == 0.95)
        .unwrap();
    let gap = 0.9954 - f(&tiers[1]["rtp_exact"]);
    let want = ((1.959963984540054 + 1.6448536269514722) * f(&tiers[1]["sd"]) / gap).powi(2);
    assert_eq!(f(&sep["rounds"]), want.ceil());
    let changes = j["what_would_make_claim_true"].as_array().unwrap();
    // One deck cannot hold a cut card at 75% for one seat: analysed from a fresh shoe, said so.
    let one = changes
        .iter()
        .find(|c| c["changes"] == serde_json::json!(["1 deck"]))
        .unwrap();
    assert!(
        one["note"].as_str().unwrap().contains("fresh shoe"),
        "{one}"
    );
    assert_eq!(one["reaches_claim"], true);
    let early = changes
        .iter()
        .find(|c| c["changes"] == serde_json::json!(["early surrender"]))
        .unwrap();
    assert_eq!(early["reaches_claim"], true);
    assert_eq!(early["tier"], "basic");
    // Pairs are made of changes that each fall short alone.
    let alone: Vec<&str> = changes
        .iter()
        .filter(|c| c["changes"].as_array().unwrap().len() == 1 && c["reaches_claim"] == true)
        .map(|c| c["changes"][0].as_str().unwrap())
        .collect();
    for c in changes
        .iter()
        .filter(|c| c["changes"].as_array().unwrap().len() == 2)
    {
        for part in c["changes"].as_array().unwrap() {
            assert!(!alone.contains(&part.as_str().unwrap()), "{c}");
        }
    }

    // Rounds needed and bands follow from the SDs.
    let basic_sd = f(&tiers[1]["sd"]);
    let r = j["rounds_needed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["tier"] == "basic" && f(&r["precision"]) == 0.001 && f(&r["level"]) == 0.95)
        .unwrap();
    assert_eq!(
        f(&r["n"]),
        (1.959963984540054 * basic_sd / 0.001).powi(2).ceil()
    );
    let band = |n: u64| {
        let b = j["acceptance_bands"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["rounds"].as_u64() == Some(n) && f(&b["level"]) == 0.99)
            .unwrap()
            .clone();
        (f(&b["lo"]), f(&b["hi"]))
    };
    let (lo6, hi6) = band(1_000_000);
    let (lo8, hi8) = band(100_000_000);
    assert!(((hi6 - lo6) / (hi8 - lo8) - 10.0).abs() < 1e-9);
    let m = &j["monitoring"];
    assert_eq!(m["tier"], "basic");
    assert!(((lo8 + hi8) / 2.0 - f(&m["rtp_total_wagered"])).abs() < 1e-12);

    // Identity.
    assert_eq!(j["identity"]["seed"], 7);
    assert_eq!(j["identity"]["interrupted"], false);
    assert!(j["identity"]["rules_hash"].as_str().unwrap().len() == 16);

    // monitor reads the dossier: a period at the expected RTP is in band (exit 0), one far
    // off is out (exit 1).
    let rtp = f(&m["rtp_total_wagered"]);
    let log = dir.join("log.csv");
    std::fs::write(
        &log,
        format!(
            "period,rounds,wagered,returned\nday 1,100000,110000,{:.2}\n",
            110000.0 * rtp
        ),
    )
    .unwrap();
    let report = out.join("report.json");
    let args = [
        "monitor",
        "--expected",
        report.to_str().unwrap(),
        log.to_str().unwrap(),
    ];
    succeeds(rtplab().args(args));
    std::fs::write(
        &log,
        "period,rounds,wagered,returned\nday 1,100000,110000,120000\n",
    )
    .unwrap();
    assert_eq!(rtplab().args(args).output().unwrap().status.code(), Some(1));

    // The files: every format, a CSV per table, the plots; the HTML is one self-contained
    // page with every table and every plot inline.
    for name in [
        "report.md",
        "report.html",
        "strategy-tiers-exact.csv",
        "distribution-of-one-round-s-net-result-exact.csv",
        "simulation-cross-check.csv",
        "acceptance-bands-of-the-observed-rtp-per-total-wagered.csv",
        "what-would-make-the-claim-true.csv",
        "distribution-optimal.svg",
        "distribution-basic.svg",
        "distribution-autoplay.svg",
        "acceptance-funnel.svg",
        "rule-changes.svg",
    ] {
        assert!(out.join(name).is_file(), "{name} missing");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("<img"));
    let without_ns = html.replace("http://www.w3.org/2000/svg", "");
    assert!(!without_ns.contains("http://") && !without_ns.contains("https://"));
    assert_eq!(html.matches("<svg").count(), 5, "every plot inline");
    for section in [
        "Rules as dealt",
        "Definitions",
        "Strategy tiers (exact)",
        "Every wager (exact)",
        "How each wager is valued",
        "Simulation cross-check",
        "Rounds needed to resolve the RTP",
        "Acceptance bands of the observed RTP per total wagered",
        "What would make the claim true",
    ] {
        assert!(html.contains(&format!(">{section}</h2>")), "{section}");
    }
    screenshot(&out.join("report.html"), &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Render the page in headless Chromium when it is installed (`.ci/run` installs Debian's
/// package): it must load and paint (a PNG of plausible size). Without a browser this says
/// so and passes.
fn screenshot(page: &std::path::Path, dir: &std::path::Path) {
    let Some(browser) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    else {
        eprintln!("no headless browser installed: the screenshot check is skipped");
        return;
    };
    let png = dir.join("page.png");
    let status = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1200,3000",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .output()
        .unwrap();
    assert!(status.status.success(), "{browser}: {status:?}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // A blank page compresses to a few kilobytes; the dossier's tables and plots do not.
    assert!(bytes.len() > 50_000, "{} bytes", bytes.len());
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn dossier_of_other_rules_with_resplits() {
    let j = json(&[
        "audit",
        "blackjack",
        "--peek",
        "--das",
        "--decks",
        "6",
        "--max-hands",
        "4",
        "--players",
        "3",
        "--rounds",
        "100k",
        "-q",
        "--monitor-tier",
        "optimal",
        "--format",
        "json",
    ]);
    // Resplit rounds are approximated: no goodness-of-fit test, but the EV's z stands (the EV
    // is exact); one seat is simulated whatever the table's seats.
    let sims = j["simulation"].as_array().unwrap();
    assert_eq!(sims.len(), 2);
    for s in sims {
        // Auto-play never splits, so its distribution is exact and tested.
        if s["tier"] == "autoplay" {
            assert!(f(&s["chi_square"]["p"]) > 1e-4, "{s}");
        } else {
            assert!(s["chi_square"].is_null(), "{s}");
        }
        assert!(f(&s["z_vs_exact"]).abs() < 4.0, "{s}");
        assert!(s["shuffle"].as_str().unwrap().contains("one seat"));
    }
    assert!(j["claim"].is_null());
    assert_eq!(j["monitoring"]["tier"], "optimal");
    let exact = json(&[
        "exact",
        "blackjack",
        "--peek",
        "--das",
        "--decks",
        "6",
        "--max-hands",
        "4",
        "--format",
        "json",
    ]);
    let t = &j["tiers"][0];
    assert!((f(&t["ev_exact"]) - f(&exact["ev"])).abs() < 1e-12);
    // Resplits are not enumerated: the mass of those rounds bounds the difference.
    let a = &t["approximation"];
    let mass = f(&a["resplit_mass"]);
    assert!(mass > 0.0 && mass < 0.01, "{a}");
    assert!(f(&a["mean_minus_ev"]).abs() < 4.0 * mass, "{a}");
    let (sum, _) = moments(&t["distribution"]);
    assert!((sum - 1.0).abs() < 1e-10);
    assert!(j["rules_as_dealt"]
        .to_string()
        .contains("hole card: the dealer checks for blackjack"));
}

static SIMULATION_STARTED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn a_stopped_audit_is_marked_and_keeps_the_exact_part() {
    use rtplab::games::blackjack::audit::{audit, render, AuditConfig, TierName};
    use std::sync::atomic::Ordering;
    let cfg = AuditConfig {
        rules: rtplab::games::blackjack::rules::Rules::seed(),
        claim: Some(0.9954),
        rounds: 1_000_000,
        seed: 1,
        threads: Some(1),
        progress: false,
        monitor_tier: TierName::Basic,
        on_simulation: Some(|| SIMULATION_STARTED.store(true, Ordering::SeqCst)),
        tables: Default::default(),
        sides: Vec::new(),
    };
    let stop = std::sync::atomic::AtomicBool::new(true);
    let m = audit(&cfg, &stop).unwrap();
    // The CLI is told when the exact part ends (before it, a signal ends the command at once).
    assert!(SIMULATION_STARTED.load(Ordering::SeqCst));
    assert!(m.identity.interrupted);
    assert!(m.simulation.is_empty());
    let table = render(&m).render(rtplab::report::Format::Table);
    assert!(
        table.contains("INTERRUPTED: 0 of 2 tiers simulated")
            && table.contains("1,000,000 requested; interrupted: 0 of 2 tiers simulated"),
        "{table}"
    );
    assert_eq!(m.tiers.len(), 3);
    let r = render(&m);
    for f in [
        rtplab::report::Format::Table,
        rtplab::report::Format::Markdown,
        rtplab::report::Format::Html,
    ] {
        let t = r.render(f);
        assert!(t.contains("INTERRUPTED"), "{f:?}");
        assert!(!t.contains("NaN"), "{f:?}");
    }
}

#[test]
fn bad_audit_input_exits_2() {
    let dir = temp_dir("audit-bad");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    for (args, needle) in [
        (
            vec!["audit", "blackjack", "--claim", "0.9954"],
            "looks like a fraction",
        ),
        (vec!["audit", "blackjack", "--rounds", "lots"], "--rounds"),
        (
            vec!["audit", "blackjack", "--claim", "151"],
            "from 50 to 150",
        ),
        (
            vec!["audit", "blackjack", "--claim", "1.5"],
            "from 50 to 150",
        ),
        // The exact analysis resplits to 4 hands at most: more is refused, not capped.
        (
            vec!["audit", "blackjack", "--max-hands", "8", "--rounds", "0"],
            "--max-hands 8: the exact analysis resplits to at most 4 hands",
        ),
        (vec!["audit", "blackjack", "--resplit-aces"], "resplit"),
        (
            vec!["audit", "blackjack", "--out-dir", file.to_str().unwrap()],
            "--out-dir",
        ),
        (
            vec!["audit", "blackjack", "--monitor-tier", "best"],
            "--monitor-tier",
        ),
    ] {
        fails_with(&args, needle);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_doom_dossier() {
    let dir = temp_dir("audit-doom");
    let out = dir.join("dossier");
    succeeds(rtplab().args([
        "audit",
        "doom",
        "--bank-at",
        "300,450",
        "--turns",
        "200k",
        "--games",
        "300",
        "--target",
        "3000",
        "-q",
        "--out-dir",
        out.to_str().unwrap(),
    ]));
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let exact = json(&[
        "exact",
        "doom",
        "--strategy",
        "bank-at:300",
        "--strategy",
        "bank-at:450",
        "--format",
        "json",
    ]);
    let tiers = j["tiers"].as_array().unwrap();
    let names: Vec<&str> = tiers.iter().map(|t| t["tier"].as_str().unwrap()).collect();
    assert_eq!(names, ["optimal", "bank-at:300", "bank-at:450"]);
    let want = [
        f(&exact["turn_ev"]),
        f(&exact["strategies"][0]["turn_ev"]),
        f(&exact["strategies"][1]["turn_ev"]),
    ];
    for (t, ev) in tiers.iter().zip(want) {
        let d = t["distribution"].as_array().unwrap();
        let sum: f64 = d.iter().map(|r| f(&r["p"])).sum();
        let mean: f64 = d.iter().map(|r| f(&r["points"]) * f(&r["p"])).sum();
        assert!((sum - 1.0).abs() < 1e-12, "{t}");
        assert!((mean - ev).abs() < 1e-9, "{}: {mean} vs {ev}", t["tier"]);
        assert!((f(&t["turn_ev"]) - ev).abs() < 1e-9);
        // Farkles and dooms are the turns at 0 (with nothing banked at 0).
        assert!((f(&d[0]["p"]) - f(&t["p_farkle"]) - f(&t["p_doom"])).abs() < 1e-12);
    }
    let sims = j["simulation"].as_array().unwrap();
    assert_eq!(sims.len(), 3);
    for s in sims {
        assert!(f(&s["z_vs_exact"]).abs() < 4.0, "{s}");
        assert!(f(&s["chi_square"]["p"]) > 1e-4, "{}", s["chi_square"]);
        let n: u64 = s["bins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b[2].as_u64().unwrap())
            .sum();
        assert_eq!(n, s["turns"].as_u64().unwrap());
        let batches = s["batches"].as_u64().unwrap();
        assert!((4000..=4096).contains(&batches), "{batches}");
        let ci = s["ci95"].as_array().unwrap();
        let t = rtplab::stats::critical(0.95, batches - 1);
        assert!(((f(&ci[1]) - f(&ci[0])) - 2.0 * t * f(&s["se"])).abs() < 1e-9);
    }
    let games = j["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert!(games[0]["win_rate_vs_optimal"].is_null());
    for g in games {
        assert_eq!(g["games"], 300);
        let p = f(&g["p_first_seat_wins"]);
        assert!((0.3..0.7).contains(&p), "{g}");
    }
    for name in [
        "report.html",
        "turn-score-optimal.svg",
        "turn-score-bank-at-450.svg",
    ] {
        assert!(out.join(name).is_file(), "{name} missing");
    }
    fails_with(
        &["audit", "doom", "--farkle-penalty", "3:500", "--turns", "0"],
        "farkle-penalty",
    );
    fails_with(&["audit", "doom", "--bank-at", "0"], "--bank-at");
    fails_with(&["audit", "doom", "--bank-at", "50000"], "--bank-at 50000");
    fails_with(
        &["audit", "doom", "--min-bank", "45000"],
        "--min-bank 45000",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_claim_that_holds_as_dealt_lists_the_changes_that_keep_it() {
    // 99% is below the seed table's optimal 99.29%: no "what would make it true", but each
    // single change and whether the claim still holds under it.
    let out = succeeds(rtplab().args([
        "audit",
        "blackjack",
        "--claim",
        "99",
        "--rounds",
        "0",
        "-q",
        "--format",
        "markdown",
    ]));
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(!md.contains("What would make the claim true"), "{md}");
    assert!(md.contains("## Rule changes against the claim (it holds as dealt)"));
    assert!(md.contains("still reaches the claim"));
    assert!(md.contains("holds under the rules as dealt; 13 of 15 single rule changes keep it"));
    // BJ pays 6:5 takes it below 99%.
    assert!(
        md.lines()
            .any(|l| l.starts_with("| BJ pays 6:5") && l.contains("| no |")),
        "{md}"
    );
}
