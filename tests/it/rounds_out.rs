//! `sim blackjack --rounds-out FILE.parquet`: per-round records, the same file whatever the
//! thread count, with the documented columns, the round log's rounds, and bankrolls that are
//! the running sums of the nets.

use crate::common::{fails_with, rtplab, succeeds, temp_dir};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use std::path::Path;

/// The documented columns, in order (docs/round-log.md).
const COLUMNS: [&str; 12] = [
    "round",
    "chunk",
    "shoe",
    "seat",
    "cards",
    "play",
    "running_count",
    "true_count",
    "bet",
    "wagered",
    "net",
    "bankroll",
];

/// The file's rows as (column, value) lists, and its row groups.
fn rows(p: &Path) -> (Vec<Vec<(String, Field)>>, usize) {
    let r = SerializedFileReader::new(std::fs::File::open(p).unwrap()).unwrap();
    let groups = r.metadata().num_row_groups();
    let rows = r
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            row.unwrap()
                .get_column_iter()
                .map(|(n, f)| (n.clone(), f.clone()))
                .collect()
        })
        .collect();
    (rows, groups)
}

fn get<'a>(row: &'a [(String, Field)], name: &str) -> &'a Field {
    &row.iter().find(|(n, _)| n == name).unwrap().1
}

fn num(f: &Field) -> f64 {
    match f {
        Field::Long(v) => *v as f64,
        Field::Double(v) => *v,
        other => panic!("not a number: {other:?}"),
    }
}

/// A counting run of two seats: the same bytes at 1 and 2 threads, over two row groups; the
/// documented columns; each seat's bankroll the running sum of its nets; KO has no true count.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn the_same_records_at_one_and_two_threads_with_the_documented_columns() {
    let d = temp_dir("rounds-out");
    let file = |t: &str| {
        let f = d.join(format!("t{t}.parquet"));
        succeeds(rtplab().args([
            "sim",
            "blackjack",
            "--rounds",
            "30k",
            "--count",
            "ko",
            "--ramp",
            "-4:1,-2:4,0:8",
            "--players",
            "2",
            "--rounds-out-limit",
            "20000",
            "-q",
            "--threads",
            t,
            "--rounds-out",
            f.to_str().unwrap(),
        ]));
        f
    };
    let (one, two) = (file("1"), file("2"));
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    let (rows, groups) = rows(&one);
    assert_eq!(
        groups, 2,
        "66,000 rounds are two row groups of at most 65,536"
    );
    assert_eq!(rows.len(), 2 * 20_000, "a row per seat and round");
    let names: Vec<&str> = rows[0].iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, COLUMNS);
    let mut bankroll = [0.0f64; 2];
    let mut last_round = 0.0;
    let mut counts = std::collections::BTreeSet::new();
    for row in &rows {
        let seat = num(get(row, "seat")) as usize;
        let round = num(get(row, "round"));
        assert!(round >= last_round && round <= last_round + 1.0);
        last_round = round;
        bankroll[seat - 1] += num(get(row, "net"));
        assert!((num(get(row, "bankroll")) - bankroll[seat - 1]).abs() < 1e-6);
        assert!(
            matches!(get(row, "true_count"), Field::Null),
            "KO has no true count"
        );
        counts.insert(num(get(row, "running_count")) as i64);
        let cards = match get(row, "cards") {
            Field::Str(s) => s.clone(),
            other => panic!("{other:?}"),
        };
        assert!(cards.len() >= 2 * 6 && cards.len() % 2 == 0, "{cards}");
    }
    // KO's running count on 8 decks starts at 4 - 4 x 8 = -28 and moves.
    assert!(counts.contains(&-28) && counts.len() > 20, "{counts:?}");
}

/// The records are the round log's rounds: the same cards, play and money.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn the_records_are_the_round_logs_rounds() {
    let d = temp_dir("rounds-out-log");
    let (log, pq) = (d.join("log.jsonl"), d.join("r.parquet"));
    succeeds(rtplab().args([
        "sim",
        "blackjack",
        "--rounds",
        "3000",
        "--count",
        "hi-lo",
        "--ramp",
        "0:1,2:4",
        "-q",
        "--log-out",
        log.to_str().unwrap(),
        "--rounds-out",
        pq.to_str().unwrap(),
    ]));
    let logged: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v["type"] == "round")
        .collect();
    let (rows, _) = rows(&pq);
    assert_eq!(rows.len(), logged.len());
    let mut tc_seen = false;
    for (row, rec) in rows.iter().zip(&logged) {
        assert_eq!(num(get(row, "round")), rec["round"].as_f64().unwrap());
        assert_eq!(num(get(row, "shoe")), rec["shoe"].as_f64().unwrap());
        let cards: String = rec["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(get(row, "cards"), &Field::Str(cards));
        let seat = &rec["seats"][0];
        let play: Vec<&str> = seat["play"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(get(row, "play"), &Field::Str(play.join(",")));
        // The log's money is 100 to a bet, stake included.
        let (stake, paid) = (
            seat["stake"]["main"].as_f64().unwrap(),
            seat["paid"]["main"].as_f64().unwrap(),
        );
        let (wagered, net) = (num(get(row, "wagered")), num(get(row, "net")));
        assert!(
            ((paid - 100.0 * wagered) / 100.0 - net).abs() < 0.011,
            "{rec}"
        );
        assert_eq!(num(get(row, "bet")) * 100.0, stake);
        tc_seen |= !matches!(get(row, "true_count"), Field::Null);
    }
    assert!(tc_seen, "Hi-Lo has a true count");
}

#[test]
fn a_bad_limit_is_refused() {
    fails_with(
        &["sim", "blackjack", "-q", "--rounds-out-limit", "5"],
        "--rounds-out",
    );
    fails_with(
        &[
            "sim",
            "blackjack",
            "-q",
            "--rounds-out",
            "x.parquet",
            "--rounds-out-limit",
            "0",
        ],
        "at least 1",
    );
}
