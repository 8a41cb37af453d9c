//! Invariants every report's statistics must keep, checked on the real binary's JSON with
//! small runs: each interval contains its estimate and is about ±1.96..2.0 standard errors
//! wide (Student t with at least 40 degrees of freedom), the batch-means SE agrees with the
//! SD of one observation over √n (the observations are nearly independent), derived fields
//! agree with the fields they come from, and a claim's z and p-value agree with each other.

use crate::common::*;

use serde_json::Value;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!((a - b).abs() <= tol, "{what}: {a} vs {b} (tolerance {tol})");
}

/// `ci` contains `mean`, is centred on it, and is 2·c·`se` wide with 1.959 ≤ c ≤ 2.01
/// (t quantile for df ≥ 40, down to the normal's 1.96).
fn interval(mean: f64, se: f64, ci: &Value, what: &str) {
    let (lo, hi) = (f(&ci[0]), f(&ci[1]));
    assert!(se > 0.0 && se.is_finite(), "{what}: SE {se}");
    assert!(
        lo < mean && mean < hi,
        "{what}: {mean} outside [{lo}, {hi}]"
    );
    close((lo + hi) / 2.0, mean, 1e-9 * (1.0 + mean.abs()), what);
    let c = (hi - lo) / 2.0 / se;
    assert!((1.959..=2.01).contains(&c), "{what}: half-width is {c} SE");
}

/// The batch-means SE of a mean of `n` observations is within 20% of `sd`/√n.
fn se_like_iid(se: f64, sd: f64, n: f64, what: &str) {
    let r = se / (sd / n.sqrt());
    assert!((0.8..=1.25).contains(&r), "{what}: SE {se} is {r} × SD/√n");
}

#[test]
fn blackjack_report_statistics() {
    let j = json(&[
        "sim",
        "blackjack",
        "--rounds",
        "200k",
        "--pairs",
        "1",
        "--seed",
        "3",
        "--format",
        "json",
        "--quiet",
    ]);
    let (ev, se, rtp) = (f(&j["ev"]), f(&j["ev_se"]), f(&j["rtp"]));
    close(rtp, 1.0 + ev, 1e-12, "rtp = 1 + ev");
    interval(ev, se, &j["ev_ci95"], "ev");
    interval(rtp, se, &j["rtp_ci95"], "rtp");
    for k in 0..2 {
        close(
            f(&j["rtp_ci95"][k]),
            1.0 + f(&j["ev_ci95"][k]),
            1e-12,
            "rtp_ci95 = 1 + ev_ci95",
        );
    }
    assert_eq!(j["rtp_estimate"]["ci95"], j["rtp_ci95"]);
    assert_eq!(j["rtp_estimate"]["se"], j["ev_se"]);
    // One seat, one initial bet per round.
    let rounds = f(&j["rounds"]);
    assert_eq!(j["initial_bets"], j["rounds"]);
    let sd = f(&j["sd_round"]);
    // The SD of one round's result is about 1.1 bets under these rules.
    assert!((1.0..1.3).contains(&sd), "sd_round {sd}");
    se_like_iid(se, sd, rounds, "ev_se");
    // Per unit wagered (doubles and splits add to the denominator) the SE is smaller.
    let se_w = f(&j["rtp_total_wagered_se"]);
    assert!(se_w > 0.5 * se && se_w < se, "rtp_total_wagered_se {se_w}");
    let pairs = &j["side_bets"]["pairs"];
    interval(f(&pairs["rtp"]), f(&pairs["se"]), &pairs["ci95"], "pairs");
    for (up, e) in j["ev_by_upcard"].as_object().unwrap() {
        interval(
            f(&e["ev"]),
            f(&e["se"]),
            &e["ci95"],
            &format!("up card {up}"),
        );
    }
}

/// The claim's z is (RTP − claim)/SE, its p-value two-sided from the CI's distribution
/// (Student-t on the batches' df, the normal above 10^4 df), and it is consistent exactly when
/// the claim lies in the interval, which is exactly when p >= 0.05.
#[test]
fn blackjack_claim_z_and_p_agree() {
    let mut seen = (false, false);
    for claim in ["99.54", "99.2", "90"] {
        let args = |format| {
            [
                "sim",
                "blackjack",
                "--rounds",
                "200k",
                "--seed",
                "5",
                "--claim",
                claim,
                "--format",
                format,
                "--quiet",
            ]
        };
        let j = json(&args("json"));
        let c = &j["claim"];
        let claimed = f(&c["claimed"]);
        close(
            claimed,
            claim.parse::<f64>().unwrap() / 100.0,
            1e-12,
            "claimed",
        );
        let (rtp, se) = (f(&j["rtp"]), f(&j["ev_se"]));
        let z = f(&c["z"]);
        close(z, (rtp - claimed) / se, 1e-9 * (1.0 + z.abs()), "z");
        let p = f(&c["p_value"]);
        assert!((0.0..=1.0).contains(&p), "p = {p}");
        let df = c["df"].as_u64().unwrap();
        assert_eq!(
            df + 1,
            j["chunks"]["done"].as_u64().unwrap(),
            "df = batches - 1"
        );
        let tail = if df > 10_000 {
            Normal::standard().sf(z.abs())
        } else {
            StudentsT::new(0.0, 1.0, df as f64).unwrap().sf(z.abs())
        };
        close(p, 2.0 * tail, 1e-12, "p from z");
        let inside = f(&j["rtp_ci95"][0]) <= claimed && claimed <= f(&j["rtp_ci95"][1]);
        assert_eq!(c["consistent"].as_bool().unwrap(), inside, "claim {claim}");
        let verdict = c["verdict"].as_str().unwrap();
        assert_eq!(verdict.starts_with("consistent"), inside, "{verdict}");
        assert_eq!(p >= 0.05, inside, "p = {p} against the CI");
        if inside {
            seen.0 = true;
        } else {
            seen.1 = true;
        }
        // The CSV carries the same z, p-value and df as numbers (the Claim table).
        let csv = String::from_utf8(succeeds(rtplab().args(args("csv"))).stdout).unwrap();
        let cell = |col: &str| -> String {
            let want = format!("Claim,RTP,{col},");
            let line = csv
                .lines()
                .find(|l| l.starts_with(&want))
                .unwrap_or_else(|| panic!("no {want} in the CSV:\n{csv}"));
            line[want.len()..].split(',').next().unwrap().to_string()
        };
        let num = |col: &str| cell(col).parse::<f64>().unwrap();
        close(num("claimed"), claimed, 1e-12, "CSV claimed");
        close(num("z"), z, 1e-9 * (1.0 + z.abs()), "CSV z");
        if p > 0.0 {
            close(num("p-value"), p, 1e-9 * p, "CSV p-value");
        }
        assert_eq!(num("df") as u64, df, "CSV df");
        assert_eq!(cell("verdict").starts_with("consistent"), inside);
        // Rounds for 5 SE of separation: n·(5·SE/(RTP − claim))².
        let need = f(&c["rounds_to_separate_at_5se"]);
        let want = f(&j["rounds"]) * (5.0 / z).powi(2);
        close(need, want, 1e-6 * want, "rounds_to_separate_at_5se");
    }
    // A claim 10 points off is far outside; 99.2% is inside at 200k rounds.
    assert_eq!(seen, (true, true));
}

#[test]
fn doom_turn_report_statistics() {
    let j = json(&[
        "sim",
        "doom",
        "--turns",
        "100k",
        "--strategy",
        "bank-at:350",
        "--format",
        "json",
        "--quiet",
    ]);
    let (m, se) = (f(&j["mean_turn_score"]), f(&j["mean_turn_score_se"]));
    interval(m, se, &j["mean_turn_score_ci95"], "mean_turn_score");
    se_like_iid(se, f(&j["sd_turn"]), f(&j["turns"]), "mean_turn_score_se");
    let exact = f(&j["exact_turn_ev"]);
    close(f(&j["z_vs_exact"]), (m - exact) / se, 1e-9, "z_vs_exact");
    // The exact EV of banking at 350 is within 4 SE of the estimate.
    assert!(((m - exact) / se).abs() < 4.0);
    // The one seat's row repeats the pooled numbers.
    let s = &j["seat_turns"][0];
    assert_eq!(s["mean_turn_score"], j["mean_turn_score"]);
    assert_eq!(s["ci95"], j["mean_turn_score_ci95"]);
    assert_eq!(s["sd_turn"], j["sd_turn"]);
    // A bust is a farkle or a doom.
    close(
        f(&j["p_bust"]),
        f(&j["p_farkle"]) + f(&j["p_doom"]),
        1e-12,
        "p_bust",
    );
}

#[test]
fn doom_game_report_statistics() {
    let games = 400.0;
    let j = json(&[
        "sim",
        "doom",
        "--games",
        "400",
        "--target",
        "5000",
        "--players",
        "3",
        "--format",
        "json",
        "--quiet",
    ]);
    interval(
        f(&j["mean_turn_score"]),
        f(&j["mean_turn_score_se"]),
        &j["mean_turn_score_ci95"],
        "mean_turn_score",
    );
    let t = &j["turns_per_game"];
    interval(f(&t["mean"]), f(&t["se"]), &t["ci95"], "turns_per_game");
    let mut total = 0.0;
    for w in j["win_rate"].as_array().unwrap() {
        let (p, se) = (f(&w["rate"]), f(&w["se"]));
        interval(p, se, &w["ci95"], "win_rate");
        // Wins are Bernoulli per game: SE about √(p(1−p)/games).
        se_like_iid(se, (p * (1.0 - p)).sqrt(), games, "win_rate se");
        let fs = &w["final_score"];
        interval(f(&fs["mean"]), f(&fs["se"]), &fs["ci95"], "final_score");
        se_like_iid(
            f(&fs["se"]),
            f(&w["final_score_sd"]),
            games,
            "final_score se",
        );
        total += p;
    }
    close(total, 1.0, 1e-9, "win rates add up to 1");
    let by_strategy = &j["win_rate_by_strategy"][0];
    close(
        f(&by_strategy["rate"]),
        1.0 / 3.0,
        1e-12,
        "three equal seats",
    );
}

#[test]
fn twentyone_report_statistics() {
    let games = 5000.0;
    let j = json(&[
        "sim",
        "twenty-one",
        "--games",
        "5k",
        "--format",
        "json",
        "--quiet",
    ]);
    let mut total = 0.0;
    for w in j["win_rate"].as_array().unwrap() {
        let (p, se) = (f(&w["rate"]), f(&w["se"]));
        interval(p, se, &w["ci95"], "win_rate");
        se_like_iid(se, (p * (1.0 - p)).sqrt(), games, "win_rate se");
        total += p;
    }
    close(total, 1.0, 1e-9, "win rates add up to 1");
    for s in j["score"].as_array().unwrap() {
        let (m, sd) = (f(&s["mean"]), f(&s["sd"]));
        se_like_iid(f(&s["mean_se"]), sd, games, "score mean_se");
        let q = s["quantiles"].as_array().unwrap();
        let (lo, hi) = (f(&q[0]["score"]), f(&q[q.len() - 1]["score"]));
        assert!(lo <= m && m <= hi && sd > 0.0 && sd < hi - lo);
    }
    for a in j["active_advantage"].as_array().unwrap() {
        let (act, pas, adv) = (&a["active"], &a["passive"], &a["advantage"]);
        for (e, what) in [(act, "active"), (pas, "passive"), (adv, "advantage")] {
            interval(f(&e["mean"]), f(&e["se"]), &e["ci95"], what);
        }
        // Points per turn are positive; the advantage is their difference.
        assert!(f(&act["mean"]) > 0.0 && f(&pas["mean"]) > 0.0, "{a}");
        close(
            f(&adv["mean"]),
            f(&act["mean"]) - f(&pas["mean"]),
            1e-9,
            "advantage = active − passive",
        );
    }
    let t = &j["turns_per_game"];
    interval(f(&t["mean"]), f(&t["se"]), &t["ci95"], "turns_per_game");
}
