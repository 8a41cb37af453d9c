//! The power of the shuffle tests (`rtplab::shuffle`) against riffles: how many shoes of the
//! seed table (8 decks, cut card at 75%) a log needs for the verdict to fail at 99% in at
//! least 90% of logs, for k = 3 to 12 Gilbert–Shannon–Reeds riffles; and how often the
//! verdict fails a uniform shuffle (its false alarms). docs/shuffle.md shows the table.
//!
//! ```text
//! cargo run --profile ci --example shuffle_power                # 400 logs a row, k = 3..=12
//! cargo run --profile ci --example shuffle_power -- 100 3 8     # 100 logs a row, k = 3..=8
//! cargo run --profile ci --example shuffle_power -- calibrate 1000 300
//! ```
//!
//! `calibrate LOGS SHOES` deals LOGS logs of SHOES uniformly shuffled shoes and prints how
//! often each test's p-value falls below 0.01, 0.05, 0.1 and 0.5, and the verdict fails at 99%.
//!
//! Each log is a run of shoes dealt by the simulator's shoe (`Shuffler::Riffle(k)`: a uniform
//! first shoe, then k riffles of each shoe as it was dealt), each seen to its cut card.

use std::time::Instant;

use rayon::prelude::*;
use rtplab::cards::{CardId, Shoe, Shuffler};
use rtplab::rng::chunk_rng;
use rtplab::shuffle::{power, rejection_rate, PowerSpec, ShuffleTests, ShuffleVerdict};

/// How often each test's p-value falls below 0.01, 0.05, 0.1 and 0.5 over `logs` logs of
/// `shoes` uniform shoes, and the verdict fails at 99%.
fn calibrate(logs: u64, shoes: u64) {
    let spec = PowerSpec::seed_table();
    let verdicts: Vec<ShuffleVerdict> = (0..logs)
        .into_par_iter()
        .map(|i| {
            let mut shoe = Shoe::new(spec.decks, 312, 64);
            let mut rng = chunk_rng(spec.seed, i);
            let mut tests = ShuffleTests::new(spec.decks, spec.seed + i);
            for _ in 0..shoes {
                shoe.reshuffle();
                let cards: Vec<CardId> = (0..312)
                    .map(|_| {
                        shoe.draw(&mut rng);
                        shoe.last_card()
                    })
                    .collect();
                tests.add_shoe(&cards);
            }
            tests.finish(spec.level)
        })
        .collect();
    let n = verdicts.len() as f64;
    println!("{logs} logs of {shoes} uniform shoes: the share of p-values below");
    println!();
    println!("| test | 0.01 | 0.05 | 0.1 | 0.5 |");
    println!("|---|---:|---:|---:|---:|");
    for (i, t) in verdicts[0].tests.iter().enumerate() {
        let below = |a: f64| {
            let k = verdicts.iter().filter(|v| v.tests[i].p_value < a).count();
            format!("{:.1}%", k as f64 / n * 100.0)
        };
        println!(
            "| {} | {} | {} | {} | {} |",
            t.key,
            below(0.01),
            below(0.05),
            below(0.1),
            below(0.5)
        );
    }
    let failed = verdicts.iter().filter(|v| !v.pass).count() as f64 / n;
    println!();
    println!("verdict failing at 99%: {:.1}% of the logs", failed * 100.0);
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    if words.first().is_some_and(|w| w == "calibrate") {
        let num = |i: usize, d: u64| words.get(i).map_or(d, |w| w.parse().expect("a number"));
        return calibrate(num(1, 1000), num(2, 300));
    }
    let args: Vec<u64> = words
        .iter()
        .map(|a| a.parse().expect("numbers: logs, first k, last k"))
        .collect();
    let spec = PowerSpec {
        logs: args.first().map_or(400, |&n| n as u32),
        ..PowerSpec::seed_table()
    };
    let (first, last) = (
        args.get(1).map_or(3, |&k| k as u8),
        args.get(2).map_or(12, |&k| k as u8),
    );
    let start = Instant::now();
    println!(
        "{} decks, cut card at {:.0}%, {} logs a row, seed {}; verdict at {}%, power {}%",
        spec.decks,
        spec.penetration * 100.0,
        spec.logs,
        spec.seed,
        spec.level * 100.0,
        spec.target * 100.0
    );
    // The verifier's cost: 10,000 shoes of uniform cards fed to one `ShuffleTests`.
    let shoes: Vec<Vec<CardId>> = {
        let mut shoe = Shoe::new(spec.decks, 312, 64);
        let mut rng = chunk_rng(spec.seed, u64::MAX);
        (0..100)
            .map(|_| {
                shoe.reshuffle();
                (0..312)
                    .map(|_| {
                        shoe.draw(&mut rng);
                        shoe.last_card()
                    })
                    .collect()
            })
            .collect()
    };
    let fed = Instant::now();
    let mut tests = ShuffleTests::new(spec.decks, spec.seed);
    for i in 0..10_000 {
        tests.add_shoe(&shoes[i % shoes.len()]);
    }
    let verdict = tests.finish(spec.level);
    println!(
        "10,000 shoes fed to the tests in {:.2} s ({:.0} µs a shoe), {} tests",
        fed.elapsed().as_secs_f64(),
        fed.elapsed().as_secs_f64() * 1e6 / 1e4,
        verdict.tests.len()
    );
    println!();
    println!("| riffles | shoes | logs failing there | at the grid's step before | tests failing (share of logs) |");
    println!("|---:|---:|---:|---:|---|");
    for k in first..=last {
        let p = power(Shuffler::Riffle(k), &spec);
        let shoes = p
            .shoes
            .map_or(format!("more than {}", spec.max_shoes), |s| s.to_string());
        let tests: Vec<String> = p
            .by_test
            .iter()
            .filter(|(_, share)| *share >= 0.05)
            .map(|(key, share)| format!("{key} {:.0}%", share * 100.0))
            .collect();
        println!(
            "| {k} | {shoes} | {:.1}% | {:.1}% | {} |",
            p.rate * 100.0,
            p.rate_before * 100.0,
            tests.join(", ")
        );
        eprintln!("k = {k} done at {:.0} s", start.elapsed().as_secs_f64());
    }
    println!();
    println!("| uniform shuffle: shoes | logs failing |");
    println!("|---:|---:|");
    for shoes in [2, 10, 100, 1000] {
        let rate = rejection_rate(Shuffler::Uniform, shoes, &spec);
        println!("| {shoes} | {:.2}% |", rate * 100.0);
    }
    eprintln!("{:.0} s", start.elapsed().as_secs_f64());
}
