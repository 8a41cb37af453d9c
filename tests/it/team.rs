//! `strategies team blackjack`: a team's big player against a lone wonger on the same rounds,
//! its time busy as the tables are added, the same numbers on any thread count, bad input.

use crate::common::*;

use serde_json::Value;

fn team(extra: &[&str]) -> Value {
    let mut args = vec![
        "strategies",
        "team",
        "blackjack",
        "--count",
        "hi-lo",
        "--format",
        "json",
        "-q",
    ];
    args.extend(extra);
    json(&args)
}

/// With one table the big player is a lone wonger: he enters at the call, leaves below the exit
/// or at the shuffle, and bets the same bets. `sim blackjack` with `--wong-in`/`--wong-out` on the
/// same seed deals the same cards (table 1 is the run's own stream), so the rounds played are
/// equal and the EV per round played is equal bit for bit: the same integer sum of results over
/// the same integer count. A schedule that entered a round late, left at the exit count itself,
/// kept a call over a shuffle, or dealt table 1 from another stream, would differ.
#[test]
fn one_table_team_is_the_lone_wonger_bit_for_bit() {
    for (call, exit, ramp, seed) in [
        ("2", "0", "2:4,3:8,4:12", "3"),
        ("1", "-1", "1:2,2:4,3:8,5:12", "8"),
    ] {
        let t = team(&[
            "--indices",
            "i18",
            "--tables",
            "1",
            "--call-at",
            call,
            "--exit-below",
            exit,
            "--ramp",
            ramp,
            "--rounds",
            "150k",
            "--seed",
            seed,
        ]);
        let s = json(&[
            "sim",
            "blackjack",
            "--count",
            "hi-lo",
            "--indices",
            "i18",
            "--wong-in",
            call,
            "--wong-out",
            exit,
            "--ramp",
            ramp,
            "--rounds",
            "150k",
            "--seed",
            seed,
            "--format",
            "json",
            "-q",
        ]);
        let b = &t["big_player"];
        assert_eq!(t["rounds"], s["rounds"], "{call}/{exit}");
        assert_eq!(b["rounds_played"], s["rounds_played"], "{call}/{exit}");
        assert_eq!(
            b["ev_per_round_played"].as_f64().unwrap().to_bits(),
            s["ev_per_round"].as_f64().unwrap().to_bits(),
            "{call}/{exit}: {} against {}",
            b["ev_per_round_played"],
            s["ev_per_round"]
        );
        // The lone wonger is the big player, and no call is missed.
        let mut w = t["lone_wonger"].clone();
        w["name"] = b["name"].clone();
        assert_eq!(&w, b);
        assert_eq!(t["calls_missed"], 0);
        assert_eq!(t["big_over_lone"], 1.0);
    }
}

/// The big player moves at once to a called table, so he is busy whenever any table is called:
/// with tables whose calls are independent and each called a share p of the time (one table's
/// busy share), N tables keep him busy 1 − (1 − p)^N of the time. His rounds rise about N-fold
/// while that is near N·p and saturate towards every round. At 100k rounds a table (about
/// 1,750 shoes) p ≈ 0.19 is known to about ±0.01 (a shoe's calls come together); a tolerance of
/// 0.03 holds that, while a big player who waited a round to move, or who could answer two
/// calls at once (N·p: 0.38 and 1.5), fails it.
#[test]
fn the_big_players_time_busy_saturates_as_tables_are_added() {
    let busy = |n: &str| {
        let t = team(&[
            "--tables",
            n,
            "--call-at",
            "2",
            "--exit-below",
            "0",
            "--bet",
            "10",
            "--rounds",
            "100k",
        ]);
        (
            t["busy"].as_f64().unwrap(),
            t["big_player"]["rounds_played"].as_u64().unwrap(),
        )
    };
    let (p, r1) = busy("1");
    assert!((0.14..0.24).contains(&p), "{p}");
    for n in [2, 8] {
        let (b, r) = busy(&n.to_string());
        let expect = 1.0 - (1.0 - p).powi(n);
        assert!(
            (b - expect).abs() < 0.03,
            "{n} tables: busy {b}, expected {expect}"
        );
        assert!(
            r as f64 > 0.8 * r1 as f64 * expect / p,
            "{n}: {r} rounds against {r1}"
        );
    }
}

/// Each table deals from a stream of the run's seed: the same report for any thread count.
#[test]
fn a_team_is_the_same_on_one_thread_and_two() {
    let args = [
        "--tables",
        "3",
        "--spotter-bet",
        "1",
        "--rounds",
        "50k",
        "--seed",
        "11",
    ];
    let one = team(&[&args[..], &["--threads", "1"]].concat());
    let two = team(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    // The team is the big player and the spotters, round by round.
    let sum = one["big_player"]["ev_per_round"].as_f64().unwrap()
        + one["spotters"]["ev_per_round"].as_f64().unwrap();
    let team = one["team"]["ev_per_round"].as_f64().unwrap();
    assert!((sum - team).abs() < 1e-12, "{sum} against {team}");
    assert_eq!(
        one["spotters"]["rounds_played"].as_u64().unwrap(),
        one["rounds"].as_u64().unwrap()
    );
}

#[test]
fn bad_team_requests_are_refused_naming_the_flag() {
    let base = ["strategies", "team", "blackjack", "--count", "hi-lo", "-q"];
    for (extra, needle) in [
        (&["--tables", "0"][..], "--tables 0"),
        (
            &["--call-at", "1", "--exit-below", "2"][..],
            "--exit-below 2 is above",
        ),
        (&["--call-at", "12"][..], "--call-at 12"),
        (&["--ramp", "1:0,2:4"][..], "sitting out"),
        (&["--bet", "0"][..], "sitting out"),
        (&["--strategy", "autoplay"][..], "a team plays a chart"),
        (&["--players", "2"][..], "--players 2"),
        (&["--rounds-per-hour", "0"][..], "--rounds-per-hour"),
    ] {
        fails_with(&[&base[..], extra].concat(), needle);
    }
}
