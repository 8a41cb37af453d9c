//! A strategy per seat at blackjack (`sim blackjack --seat`): a mixed table's seats against the
//! same seats alone, the card flow a counter seat sees, the bet behind on one seat, bad specs,
//! threads and shards.

use super::common::{fails_with, json, temp_dir, RUN_ONLY_KEYS};
use serde_json::Value;

fn sim(args: &[&str]) -> Value {
    let mut a = vec!["sim", "blackjack", "--format", "json", "-q"];
    a.extend(args);
    json(&a)
}

fn f(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"))
}

/// The table's figures that do not name the strategy.
const TABLE_KEYS: [&str; 14] = [
    "ev",
    "ev_se",
    "ev_ci95",
    "rtp",
    "rtp_total_wagered",
    "rounds",
    "seat_rounds",
    "initial_bets",
    "max_bet",
    "frequencies",
    "dealer_outcomes",
    "net_distribution",
    "ev_by_upcard",
    "side_bets",
];

/// Where seats cannot differ, a mixed table is the table of one strategy: two basic seats are
/// `--players 2` bit for bit (the same shoes, the same play), and the two seats' sums add up
/// to the table's.
#[test]
fn two_basic_seats_are_two_players_of_basic_bit_for_bit() {
    let run = ["--rounds", "30k", "--seed", "5"];
    let players = sim(&[&run[..], &["--players", "2"]].concat());
    let seats = sim(&[&run[..], &["--seat", "basic", "--seat", "basic"]].concat());
    for k in TABLE_KEYS {
        assert_eq!(players[k], seats[k], "{k}");
    }
    let s = seats["seats"].as_array().unwrap();
    assert_eq!(s.len(), 2);
    let played: u64 = s.iter().map(|x| x["rounds_played"].as_u64().unwrap()).sum();
    assert_eq!(played, seats["seat_rounds"].as_u64().unwrap());
    let bets: u64 = s.iter().map(|x| x["initial_bets"].as_u64().unwrap()).sum();
    assert_eq!(bets, seats["initial_bets"].as_u64().unwrap());
    // The two seats' EVs weigh into the table's (equal seat-rounds: their mean).
    let mean = (f(&s[0], "ev") + f(&s[1], "ev")) / 2.0;
    assert!(
        (mean - f(&seats, "ev")).abs() < 1e-12,
        "{mean} {}",
        seats["ev"]
    );
    assert!(players.get("seats").is_none(), "one strategy: no seats key");
}

/// Fixed strategies on a table shuffled every round do not interact (each seat's cards are a
/// random draw from a fresh shoe whatever the other seat plays): basic beside auto-play plays
/// each as alone, within 4 SEs of the difference (independent seeds). 300k rounds give each
/// seat an SE of about 0.21%, the difference 0.3%: basic and auto-play differ by about 7%
/// of a bet (over 20 SEs), so seats swapped, or both playing one strategy, fail.
#[test]
fn fixed_seats_of_a_mixed_table_play_as_they_do_alone() {
    let run = [
        "--rounds",
        "300k",
        "--shuffle-every-round",
        "--claim",
        "99.5",
    ];
    let mixed = sim(&[
        &run[..],
        &["--seed", "1", "--seat", "basic", "--seat", "autoplay"],
    ]
    .concat());
    let seats = mixed["seats"].as_array().unwrap();
    for (i, (strategy, seed)) in [("basic", "2"), ("autoplay", "3")].iter().enumerate() {
        let alone = sim(&[&run[..], &["--seed", seed, "--strategy", strategy]].concat());
        let (a, b) = (f(&seats[i], "ev"), f(&alone, "ev"));
        let se = f(&seats[i], "ev_se").hypot(f(&alone, "ev_se"));
        assert!(
            (a - b).abs() < 4.0 * se,
            "seat {} ({strategy}): {a} at the mixed table, {b} alone (SE {se})",
            i + 1
        );
        assert_eq!(seats[i]["rounds_played"], mixed["rounds"]);
        assert_eq!(seats[i]["play"], *strategy);
    }
    assert!(f(&seats[0], "ev") - f(&seats[1], "ev") > 0.05, "{seats:?}");
}

/// A counter seat sees every card at the table: two counter seats are the table of one
/// counter betting both spots (`--players 2 --count`) bit for bit, and a counter beside a
/// basic seat has, seat for seat, the very figures of the counter beside another counter (the
/// neighbour's bets change no card and no count). A counter that saw only its own seat's cards
/// (or not the dealer's) would bet otherwise: its initial bets and money would differ.
#[test]
fn a_counter_seat_sees_every_card_at_the_table() {
    let run = ["--rounds", "40k", "--seed", "9"];
    let ramp = "0:1,1:2,2:4,3:8";
    let counter = format!("hi-lo ramp={ramp}");
    let one = sim(&[
        &run[..],
        &["--players", "2", "--count", "hi-lo", "--ramp", ramp],
    ]
    .concat());
    let two = sim(&[&run[..], &["--seat", &counter, "--seat", &counter]].concat());
    for k in [
        "ev",
        "ev_se",
        "rounds",
        "seat_rounds",
        "initial_bets",
        "max_bet",
    ] {
        assert_eq!(one[k], two[k], "{k}");
    }
    let mixed = sim(&[&run[..], &["--seat", "basic", "--seat", &counter]].concat());
    let (c2, m2) = (&two["seats"][1], &mixed["seats"][1]);
    for k in [
        "ev",
        "ev_se",
        "initial_bets",
        "max_bet",
        "ev_per_round",
        "score",
    ] {
        assert_eq!(c2[k], m2[k], "{k}");
    }
    assert!(f(m2, "avg_bet") > 1.2, "the counter ramps: {m2}");
    assert_eq!(
        mixed["seats"][0]["avg_bet"], 1.0,
        "the basic seat bets flat"
    );
    assert!(mixed["seats"][0].get("score").is_none());
    // The seats' EVs are the table's, weighed by their bets.
    let s = mixed["seats"].as_array().unwrap();
    let money: f64 = s.iter().map(|x| f(x, "ev") * f(x, "initial_bets")).sum();
    let bets: f64 = s.iter().map(|x| f(x, "initial_bets")).sum();
    assert!((money / bets - f(&mixed, "ev")).abs() < 1e-12);
}

/// The bet behind on one seat is that seat's play: behind an auto-play seat (which never
/// doubles or splits) it is the seat's RTP whether it follows doubles and splits or not; behind
/// a basic seat, declining them returns less than following.
#[test]
fn the_bet_behind_on_a_seat_is_that_seats_play() {
    let run = [
        "--rounds", "30k", "--seed", "4", "--seat", "basic", "--seat", "autoplay",
    ];
    let behind = |seat: &str, follows: &str| {
        let extra = [
            "--bet-behind",
            "1",
            "--behind-seat",
            seat,
            "--behind-follows",
            follows,
        ];
        sim(&[&run[..], &extra].concat())
    };
    for follows in ["all", "none"] {
        let r = behind("2", follows);
        let b = &r["bet_behind"];
        assert_eq!(b["seat"], 2);
        assert!(
            (f(b, "rtp") - f(&r["seats"][1], "rtp")).abs() < 1e-12,
            "{follows}: {r}"
        );
    }
    let all = behind("1", "all");
    let none = behind("1", "none");
    assert!((f(&all["bet_behind"], "rtp") - f(&all["seats"][0], "rtp")).abs() < 1e-12);
    assert!(f(&none["bet_behind"], "rtp") < f(&all["bet_behind"], "rtp"));
}

/// Bad seats and seat counts exit 2 naming the fault.
#[test]
fn bad_seats_exit_2_naming_the_fault() {
    let bj = |extra: &[&str]| -> Vec<String> {
        let mut a = vec!["sim", "blackjack", "--rounds", "1k", "-q"];
        a.extend(extra);
        a.into_iter().map(String::from).collect()
    };
    let cases: [(&[&str], &str); 12] = [
        (
            &["--seat", "nosuch"],
            "--seat 'nosuch': unknown strategy 'nosuch'",
        ),
        (&["--seat", ""], "--seat '' is empty"),
        (&["--seat", "basic ramp=0:1"], "ramp= needs a count"),
        (&["--seat", "hi-lo foo=1"], "unknown key 'foo'"),
        (
            &["--seat", "hi-lo ramp=1:x"],
            "--seat 'hi-lo ramp=1:x': --ramp '1:x'",
        ),
        (
            &["--seat", "hi-lo wong-in=abc"],
            "wong-in=abc: expected a count",
        ),
        (
            &["--seat", "hi-lo ramp=0:1 ramp=0:2"],
            "'ramp' is given twice",
        ),
        (
            &["--seat", "basic", "--behind-seat", "2"],
            "--behind-seat 2: expected a seat from 1 to 1",
        ),
        (
            &["--behind-seat", "1"],
            "--behind-seat 1 needs the seats' strategies",
        ),
        (
            &["--seat", "basic", "--count", "hi-lo"],
            "give each counter's count in its own --seat",
        ),
        (
            &["--seat", "basic", "--seat", "basic", "--players", "3"],
            "--players 3 disagrees",
        ),
        (
            &["--seat", "basic", "--log-out", "x.jsonl"],
            "the round log",
        ),
    ];
    for (extra, needle) in cases {
        let args = bj(extra);
        fails_with(&args.iter().map(String::as_str).collect::<Vec<_>>(), needle);
    }
    let eight: Vec<&str> = (0..8).flat_map(|_| ["--seat", "basic"]).collect();
    let args = bj(&eight);
    fails_with(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        "8 --seat given: the table has 7 seats at most",
    );
}

/// A mixed table with a wonging counter gives the same bytes at 1 and 2 threads, and its
/// shards merge to the single run; shards of another seat list are refused.
#[test]
fn a_mixed_table_is_the_same_at_any_thread_count_and_in_shards() {
    let strip = |mut j: Value| {
        for k in RUN_ONLY_KEYS.iter().chain(&["rounds_per_s"]) {
            j[*k] = Value::Null;
        }
        j
    };
    let run = [
        "sim",
        "blackjack",
        "--format",
        "json",
        "-q",
        "--rounds",
        "20k",
        "--seed",
        "3",
        "--seat",
        "autoplay",
        "--seat",
        "hi-lo ramp=-1:0,1:2,2:4 wong-out=0",
    ];
    let one = strip(json(&[&run[..], &["--threads", "1"]].concat()));
    let two = strip(json(&[&run[..], &["--threads", "2"]].concat()));
    assert_eq!(one, two);
    assert!(
        one["seats"][1]["rounds_out"].as_u64().unwrap() > 0,
        "the wonger sits out"
    );
    let dir = temp_dir("seats-shards");
    let shard = |k: u32, run: &[&str], name: &str| {
        let f = dir.join(format!("{name}-{k}.json"));
        let spec = format!("{k}/3");
        json(&[run, &["--shard", &spec, "--shard-out", f.to_str().unwrap()]].concat());
        f.to_str().unwrap().to_string()
    };
    let files: Vec<String> = (1..=3).map(|k| shard(k, &run, "mixed")).collect();
    let mut m = vec!["merge", "--format", "json"];
    m.extend(files.iter().map(String::as_str));
    assert_eq!(strip(json(&m)), one, "the merged shards are the single run");
    // Shard 2 of a table whose second seat is another counter does not merge with the rest.
    let mut a = run.to_vec();
    a[run.len() - 1] = "hi-lo ramp=-1:0,1:2,2:8 wong-out=0";
    let other = shard(2, &a, "other");
    fails_with(&["merge", &files[0], &other, &files[2]], "config.seats");
}

/// Mistakes at a mixed table: every seat errs. A model of no mistakes is the table without
/// them bit for bit; two basic seats with a model equal `--players 2` with it; a counting
/// seat takes the model's miscounts (its own `miscount=` beside them is refused).
#[test]
fn every_seat_of_a_mixed_table_plays_with_the_mistakes() {
    let run = ["--rounds", "20k", "--seed", "3"];
    let seats = ["--seat", "basic", "--seat", "autoplay"];
    let plain = sim(&[&run[..], &seats[..]].concat());
    let none = sim(&[&run[..], &seats[..], &["--errors", "none"]].concat());
    for k in TABLE_KEYS {
        assert_eq!(plain[k], none[k], "{k}");
    }
    let casual = ["--errors", "casual"];
    let players = sim(&[&run[..], &["--players", "2"], &casual[..]].concat());
    let two = sim(&[
        &run[..],
        &["--seat", "basic", "--seat", "basic"],
        &casual[..],
    ]
    .concat());
    for k in TABLE_KEYS {
        assert_eq!(players[k], two[k], "{k}");
    }
    assert_ne!(
        players["ev"],
        sim(&[&run[..], &["--players", "2"]].concat())["ev"]
    );
    let counting = ["--seat", "basic", "--seat", "hi-lo ramp=0:1,2:4"];
    let c = sim(&[&run[..], &counting[..], &casual[..]].concat());
    assert_eq!(c["seats"].as_array().unwrap().len(), 2);
    assert!(c["errors"]["rtp_error_free"].is_null(), "{}", c["errors"]);
    fails_with(
        &[
            "sim",
            "blackjack",
            "--rounds",
            "1000",
            "--seat",
            "hi-lo miscount=0.01",
            "--errors",
            "casual",
        ],
        "both set the miscounts",
    );
}
