//! The small exact game of two or three players played to win (`win::multi`), and what each
//! way of playing a seat loses against it.
//!
//! ```text
//! cargo run --profile ci --example doom_three -- 1000 [seats] [rules] [strategy ...]
//! ```
//!
//! Solves the game at the target (points) for the seats (default 3) under the rules (`seed`,
//! `s2-common` or `zilch`; default seed), prints every seat's chance of winning from the start
//! (seat 0 moves first), then for each strategy (default `win-field`, `win-leader`, `optimal`,
//! `endgame:450`) its exact chance of winning in each seat against exact seats, and the
//! difference from the exact seat's own chance there.

use std::time::Instant;

use rtplab::games::doom::model::Model;
use rtplab::games::doom::rules::{DoomPreset, DoomRules};
use rtplab::games::doom::sim::{SeatPlay, SolvedStrategy};
use rtplab::games::doom::strategy::DoomStrategy;
use rtplab::games::doom::win::multi::SmallGame;
use rtplab::games::doom::win::WinSolution;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target: u64 = args.first().map_or(1000, |s| s.parse().expect("a target"));
    let seats: usize = args.get(1).map_or(3, |s| s.parse().expect("seats"));
    let preset = match args.get(2).map_or("seed", |s| s.as_str()) {
        "s2-common" => DoomPreset::S2Common,
        "zilch" => DoomPreset::Zilch,
        _ => DoomPreset::Seed,
    };
    let mut specs: Vec<String> = args.iter().skip(3).cloned().collect();
    if specs.is_empty() {
        specs = ["win-field", "win-leader", "optimal", "endgame:450"]
            .map(String::from)
            .to_vec();
    }
    let mut r = DoomRules::preset(preset);
    r.target = target;
    let m = Model::new(&r);
    let t = Instant::now();
    let sol = WinSolution::solve(&m).expect("solvable");
    println!(
        "two-player exact solve at {target}: {:.1} s, P(first) {:.6}, tail {} levels, cap {} units",
        t.elapsed().as_secs_f64(),
        sol.p_first(),
        sol.tail_levels,
        sol.cap
    );
    let t = Instant::now();
    let g = SmallGame::solve(&m, &sol, seats, &|_| {}).expect("solvable");
    let start = g.start();
    println!(
        "{seats}-seat exact solve: {:.1} s, passes {} (at most {} a cycle), residual {:.1e}",
        t.elapsed().as_secs_f64(),
        g.passes,
        g.max_passes,
        g.residual
    );
    println!(
        "exact seats' chances from the start: {}",
        start
            .iter()
            .map(|p| format!("{p:.6}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for spec in &specs {
        let st = DoomStrategy::parse(spec).expect("a strategy");
        let pl = SolvedStrategy::new(&m, st);
        let guide = SeatPlay::new(&m, &sol, &pl);
        let t = Instant::now();
        let mut line = format!("{spec:>12}:");
        let mut loss = 0.0;
        for j in 0..seats {
            let v = g.evaluate(j, &guide, &|_| {}).expect("evaluates");
            loss += start[j] - v[j];
            line += &format!("  seat {j} {:.6} ({:+.6})", v[j], v[j] - start[j]);
        }
        println!(
            "{line}  mean loss {:.6}  [{:.1} s]",
            loss / seats as f64,
            t.elapsed().as_secs_f64()
        );
    }
}
