//! `verify blackjack`: logs made by the simulator, each with one planted defect, must be
//! caught at the planted round; the clean log (with a correctly voided round) and a log
//! written by hand in the documented schema must pass.

use crate::common::{rtplab, succeeds, temp_dir};
use rtplab::games::blackjack::log::replay::{replay, Decide};
use rtplab::games::blackjack::log::{LogDecide, RoundRecord};
use rtplab::games::blackjack::rules::Rules;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A simulated log's lines.
fn sim_log(dir: &Path, name: &str, extra: &[&str]) -> Vec<String> {
    sim_log_of(dir, name, "40k", extra)
}

/// [`sim_log`] of about `rounds` rounds.
fn sim_log_of(dir: &Path, name: &str, rounds: &str, extra: &[&str]) -> Vec<String> {
    let log = dir.join(format!("{name}.jsonl"));
    let mut args = vec![
        "sim",
        "blackjack",
        "--rounds",
        rounds,
        "--seed",
        "5",
        "-q",
        "--pairs",
        "1",
        "--log-out",
    ];
    let l = log.to_str().unwrap().to_string();
    args.push(&l);
    args.extend_from_slice(extra);
    succeeds(rtplab().args(&args));
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Verify `lines` (written to `name`): exit code and the report's JSON.
fn verify(dir: &Path, name: &str, lines: &[String]) -> (i32, Value) {
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    let out = rtplab()
        .args(["verify", "blackjack", "-q", "--format", "json"])
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    let code = out.status.code().unwrap();
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    (code, serde_json::from_slice(&out.stdout).unwrap())
}

fn rounds(lines: &[String]) -> Vec<(usize, RoundRecord)> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("{\"type\":\"round\""))
        .map(|(i, l)| (i, serde_json::from_str(l).unwrap()))
        .collect()
}

/// The deviations of `part` listed, as (round, kind of text).
fn listed(v: &Value, part: &str) -> Vec<(u64, String)> {
    v[part]["listed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["round"].as_u64().unwrap_or(0),
                d["what"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn set(lines: &mut [String], i: usize, r: &RoundRecord) {
    lines[i] = serde_json::to_string(r).unwrap();
}

/// A round replayed from its own log: who got what.
fn replayed(r: &RoundRecord) -> rtplab::games::blackjack::log::replay::Replayed {
    let ranks: Vec<u8> = r.cards.iter().map(|c| c.rank()).collect();
    let mut d = LogDecide::new(&r.seats);
    let rp = replay(&Rules::seed(), r.seats.len(), &ranks, &mut d);
    let _ = &mut d as &mut dyn Decide;
    rp
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn every_planted_defect_is_named_at_its_round_and_the_clean_log_passes() {
    let dir = temp_dir("verify-planted");
    // 20k rounds: every defect planted below finds its kind of round many times over, and
    // the clean log's statistics are a pass either way (the 40k logs below test them).
    let clean = sim_log_of(&dir, "clean", "20k", &[]);
    let all = rounds(&clean);
    // The clean log, with its last round of a shoe voided correctly (every bet back, a new
    // shoe next), passes.
    let (vi, mut void) = all
        .iter()
        .find(|(i, _)| clean[i + 1].starts_with("{\"type\":\"shoe\""))
        .cloned()
        .unwrap();
    void.void = Some("system error".into());
    for s in &mut void.seats {
        s.paid = s.stake;
    }
    let mut base = clean.clone();
    set(&mut base, vi, &void);
    let (code, v) = verify(&dir, "clean.jsonl", &base);
    assert_eq!(code, 0, "{:#}", v["failed"]);
    assert_eq!(v["voided"], 1);
    assert_eq!(v["returns"]["pass"], true);
    assert!(v["returns"]["z"].as_f64().unwrap().is_finite());

    // A natural paid even money.
    let (i, mut r) = all
        .iter()
        .find(|(_, r)| r.seats[0].paid.main == 250)
        .cloned()
        .unwrap();
    r.seats[0].paid.main = 200;
    let mut l = base.clone();
    set(&mut l, i, &r);
    let (code, v) = verify(&dir, "natural.jsonl", &l);
    assert_eq!(code, 1);
    assert_eq!(v["settlement"]["count"], 1);
    assert_eq!(listed(&v, "settlement")[0].0, r.round);
    assert!(listed(&v, "settlement")[0]
        .1
        .contains("main paid 200, the rules pay 250"));

    // The dealer hits a soft 17 once (one card more to the dealer).
    let (i, mut r) = all
        .iter()
        .find(|(_, r)| {
            let rp = replayed(r);
            rp.dealer_total == 17 && rp.dealer.contains(&0) && {
                let hard: u8 = rp.dealer.iter().map(|&c| rtplab::cards::value(c)).sum();
                hard == 7
            }
        })
        .cloned()
        .unwrap();
    r.cards.push("4c".parse().unwrap());
    let mut l = base.clone();
    set(&mut l, i, &r);
    let (code, v) = verify(&dir, "soft17.jsonl", &l);
    assert_eq!(code, 1);
    let s = listed(&v, "settlement");
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].0, r.round);
    assert!(s[0].1.contains("drew 1 card(s) on soft 17"), "{s:?}");

    // One card too many in a shoe: a card turned into a copy the shoe has dealt all of.
    let mut l = base.clone();
    let mut planted = None;
    'shoes: for (i, r) in &all {
        let shoe = r.shoe;
        let mut seen = std::collections::HashMap::new();
        for (_, q) in all
            .iter()
            .filter(|(_, q)| q.shoe == shoe && q.round <= r.round)
        {
            for c in &q.cards {
                *seen.entry(*c).or_insert(0) += 1;
            }
        }
        for (c, n) in seen {
            if n == 8 {
                // A later round of the shoe: one of its cards of the same rank gets that suit.
                if let Some((j, q)) = all.iter().find(|(_, q)| {
                    q.shoe == shoe
                        && q.round > r.round
                        && q.cards.iter().any(|x| x.rank() == c.rank())
                }) {
                    let mut q = q.clone();
                    let k = q.cards.iter().position(|x| x.rank() == c.rank()).unwrap();
                    q.cards[k] = c;
                    set(&mut l, *j, &q);
                    planted = Some(q.round);
                    let _ = i;
                    break 'shoes;
                }
            }
        }
    }
    let planted = planted.expect("a shoe dealt every copy of a card");
    let (code, v) = verify(&dir, "excess.jsonl", &l);
    assert_eq!(code, 1);
    let s = listed(&v, "shoe");
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].0, planted);
    assert!(
        s[0].1.contains("more than a shoe of 8 deck(s) holds"),
        "{s:?}"
    );
    assert_eq!(v["settlement"]["count"], 0);

    // A voided round that kept a stake.
    let mut bad = void.clone();
    bad.seats[0].paid.main = 0;
    let mut l = base.clone();
    set(&mut l, vi, &bad);
    let (code, v) = verify(&dir, "void.jsonl", &l);
    assert_eq!(code, 1);
    let s = listed(&v, "settlement");
    assert_eq!((s.len(), s[0].0), (1, void.round), "{s:?}");
    assert!(s[0].1.contains("every bet is returned"));

    // A stake misreported: a main bet that won or pushed, logged at twice its stake.
    let (i, mut r) = all
        .iter()
        .find(|(_, r)| r.seats[0].paid.main == 200 && r.seats[0].play == ["S"])
        .cloned()
        .unwrap();
    r.seats[0].stake.main = 200;
    let mut l = base.clone();
    set(&mut l, i, &r);
    let (code, v) = verify(&dir, "stake.jsonl", &l);
    assert_eq!(code, 1);
    let s = listed(&v, "settlement");
    assert_eq!(s[0].0, r.round, "{s:?}");
    assert!(s[0].1.contains("main paid 200, the rules pay 400"), "{s:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_auto_played_hand_that_hit_a_12_is_named() {
    let dir = temp_dir("verify-auto");
    let clean = sim_log(&dir, "auto", &["--strategy", "autoplay"]);
    let (code, v) = verify(&dir, "auto-clean.jsonl", &clean);
    assert_eq!(code, 0, "{:#}", v["failed"]);
    // The decisions taken, each valued against the chart's play at its round's shoe, add up to
    // what auto-play returns exactly (8% below the best play): within 0.3%, the spread of
    // what 40k rounds' hands and shoes make of it (each decision's value and the shoe's tilt
    // are of the rounds dealt).
    use rtplab::games::blackjack::exact::{analyze, DealerTable, Follow};
    use rtplab::games::blackjack::strategy::AutoPlay;
    let rules = Rules::seed();
    let exact = 1.0 + analyze(&rules, &Follow(&AutoPlay), DealerTable::shared(false)).ev;
    let steps = v["returns"]["steps"].as_array().unwrap();
    let taken = steps
        .iter()
        .find(|s| s["what"] == "the decisions taken")
        .unwrap();
    let rtp = taken["rtp"].as_f64().unwrap();
    assert!(
        (rtp - exact).abs() < 0.003,
        "decisions taken {rtp}, auto-play exactly {exact}"
    );
    let all = rounds(&clean);
    // A hand that stood on a hard 12 as auto-play does: hit it once more.
    let (i, mut r) = all
        .iter()
        .find(|(_, r)| {
            let rp = replayed(r);
            r.seats[0].play == ["S"]
                && rp.seats[0].hands[0].total() == 12
                && !rp.seats[0].hands[0].soft()
        })
        .cloned()
        .unwrap();
    assert!(r.seats[0].auto);
    r.seats[0].play = vec!["HS".into()];
    r.cards.insert(3, "2c".parse().unwrap());
    let mut l = clean.clone();
    set(&mut l, i, &r);
    let (code, v) = verify(&dir, "auto-hit.jsonl", &l);
    assert_eq!(code, 1);
    let s = listed(&v, "settlement");
    assert!(
        s.iter()
            .any(|(round, what)| *round == r.round && what.contains("auto-play hit on hard 12")),
        "{s:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_log_written_by_hand_in_the_schema_is_verified() {
    let dir = temp_dir("verify-hand");
    let lines: Vec<String> = [
        r#"{"type":"header","format":"rtplab-round-log","version":1,"game":"blackjack","rules":{},"currency":"EUR","source":"by hand"}"#,
        r#"{"type":"shoe","shoe":1,"cut":312}"#,
        r#"{"type":"round","shoe":1,"round":1,"cards":["Th","6d","7c","Ks","5h"],"seats":[{"seat":1,"stake":{"main":100},"play":["S"],"paid":{"main":0}}]}"#,
        r#"{"type":"round","shoe":1,"round":2,"cards":["As","9c","Kd","8h"],"seats":[{"seat":1,"stake":{"main":100},"play":[""],"paid":{"main":250}}]}"#,
        r#"{"type":"round","shoe":1,"round":3,"cards":["8c","5h","8d","3s","9h","Tc","Td","7s"],"seats":[{"seat":1,"stake":{"main":100},"play":["PHS","S"],"paid":{"main":400}}]}"#,
        r#"{"type":"end","rounds":3,"complete":true}"#,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (code, v) = verify(&dir, "hand.jsonl", &lines);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["rounds"], 3);
    assert_eq!(v["returns"]["wagers"][0]["staked"], 400);
    assert_eq!(v["returns"]["wagers"][0]["paid"], 650);
    // Doubling after the split is not allowed at this table: named, with its round.
    let mut bad = lines.clone();
    bad[4] = bad[4]
        .replace("\"PHS\"", "\"PD\"")
        .replace("\"main\":400", "\"main\":500");
    let (code, v) = verify(&dir, "hand-das.jsonl", &bad);
    assert_eq!(code, 1);
    let s = listed(&v, "settlement");
    assert!(
        s[0].1
            .contains("double is not allowed (no double after a split)"),
        "{s:?}"
    );
    // A field that is wrong is named with its line (exit 2).
    let mut broken = lines.clone();
    broken[2] = broken[2].replace("\"main\":100", "\"main\":-5");
    let p = dir.join("broken.jsonl");
    std::fs::write(&p, broken.join("\n")).unwrap();
    let out = rtplab()
        .args(["verify", "blackjack"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3, field seats[0].stake.main"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_writes_a_period_log_monitor_holds_with_the_stakes_played() {
    let dir = temp_dir("verify-periods");
    let lines = sim_log(&dir, "periods", &[]);
    let log = dir.join("log.jsonl");
    std::fs::write(&log, lines.join("\n")).unwrap();
    let periods = dir.join("periods.csv");
    let out = succeeds(
        rtplab()
            .args([
                "verify",
                "blackjack",
                "--period-rounds",
                "5000",
                "--periods-out",
            ])
            .arg(&periods)
            .arg(&log),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Period log: 9 periods of 5,000 seat-rounds"),
        "{text}"
    );
    let csv = std::fs::read_to_string(&periods).unwrap();
    assert!(csv.starts_with("period,rounds,wagered,returned,stake_sq\n#1 (round 1 on),5000,"));
    let m = succeeds(
        rtplab()
            .args([
                "monitor",
                "--format",
                "json",
                "--expected",
                "reports/audit-seed-table/report.json",
            ])
            .arg(&periods),
    );
    let v: Value = serde_json::from_slice(&m.stdout).unwrap();
    assert_eq!(v["band_width"], "stakes", "{v:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shoes_from_a_four_riffle_shuffle_fail_the_shuffle_and_nothing_else() {
    let dir = temp_dir("verify-riffle");
    let lines = sim_log(&dir, "riffle", &["--shuffle", "riffle:4"]);
    let (code, v) = verify(&dir, "riffle.jsonl", &lines);
    assert_eq!(code, 1);
    assert_eq!(
        v["failed"],
        serde_json::json!(["shuffle"]),
        "{:#}",
        v["failed"]
    );
    assert_eq!(v["shuffle"]["pass"], false);
    // The same table shuffled uniformly: the shuffle holds.
    let clean = sim_log(&dir, "uniform", &[]);
    let (code, v) = verify(&dir, "uniform.jsonl", &clean);
    assert_eq!((code, &v["shuffle"]["pass"]), (0, &Value::Bool(true)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_counters_log_is_held_to_what_its_bets_should_return_at_the_shoes_dealt() {
    // A Hi-Lo counter betting 1 to 12 units with the I18 and insurance at +3: its stakes
    // follow the shoe, so what its main bet should return is weighed at each round's shoe (the
    // full shoe's 99.28% would fail it), and its insurance at each round's tens.
    let dir = temp_dir("verify-counter");
    let log = dir.join("counter.jsonl");
    succeeds(
        rtplab()
            .args(["sim", "blackjack", "--rounds", "150k", "--seed", "5", "-q"])
            .args([
                "--count",
                "hi-lo",
                "--ramp",
                "0:1,1:2,2:4,3:8,4:12",
                "--indices",
                "i18+fab4",
            ])
            .arg("--log-out")
            .arg(&log),
    );
    let lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let (code, v) = verify(&dir, "counter-read.jsonl", &lines);
    assert_eq!(code, 0, "{:#}", v["failed"]);
    let step = |what: &str| {
        v["returns"]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["what"] == what)
            .unwrap_or_else(|| panic!("no step {what}"))["rtp"]
            .as_f64()
            .unwrap()
    };
    let basic = step("basic strategy (the chart derived for the rules)");
    let at_shoes = step("basic strategy at the shoes the bets were placed on");
    assert!(
        at_shoes > basic + 0.005,
        "basic {basic}, at the shoes bet {at_shoes}"
    );
    let insurance = v["returns"]["wagers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["wager"] == "insurance")
        .unwrap();
    // Insured at +3 and over: more than the 2:1 bet's full-shoe 93%.
    assert!(
        insurance["expected"].as_f64().unwrap() > 1.0,
        "{insurance:#}"
    );
    assert!(
        insurance["z"].as_f64().unwrap().abs() < 3.5,
        "{insurance:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
