//! Measure the two-player win solve: time, size, and errors against the exact solve.
//!
//! ```text
//! cargo run --profile ci --example doom_win -- solve 100000 [fine step tail_eps accept]
//! cargo run --profile ci --example doom_win -- compare 20000 [fine step tail_eps accept]
//! cargo run --profile ci --example doom_win -- corner 100000 20000 [fine step tail_eps accept]
//! ```
//!
//! `solve` prints the solve's time, P(first seat wins), the fair head start and a sampled
//! Bellman residual; `compare` solves the target exactly and with the options and prints the
//! largest |ΔW| (over all states, over the grid states, and by distance band); `corner` checks
//! the big table's corner where both scores are within the small target of the end against
//! the small target's exact table (translation invariance). Points throughout.

use std::time::Instant;

use rtplab::games::doom::model::Model;
use rtplab::games::doom::rules::{DoomPreset, DoomRules};
use rtplab::games::doom::win::{WinOptions, WinSolution};

fn model(target: u64) -> Model {
    let mut r = DoomRules::preset(DoomPreset::Seed);
    r.target = target;
    Model::new(&r)
}

fn options(args: &[String]) -> WinOptions {
    let mut o = WinOptions::fast();
    let num = |i: usize| args.get(i).map(|s| s.parse::<f64>().expect("a number"));
    if let Some(v) = num(0) {
        o.fine = v as u64;
    }
    if let Some(v) = num(1) {
        o.step = v as u64;
    }
    if let Some(v) = num(2) {
        o.tail_eps = v;
    }
    if let Some(v) = num(3) {
        o.accept = v;
    }
    o.progress = true;
    o
}

fn solve(m: &Model, o: &WinOptions, label: &str) -> WinSolution {
    let plan = WinSolution::plan(m, o).expect("solvable");
    eprintln!("{label}: {plan:?}");
    let t = Instant::now();
    let sol = WinSolution::solve_with(m, o).expect("solvable");
    let fair = fair(&sol);
    println!(
        "{label}: target {} solved in {:.1} s: P(first) = {:.9}, fair head start {} (P {:.6}); turn passes {}, max unverified step {:.2e}, residual {:.2e}, tail {} levels (P reach {:.2e} a turn), cap bound {:.2e}",
        m.rules.target,
        t.elapsed().as_secs_f64(),
        sol.p_first(),
        fair.0,
        fair.1,
        sol.turn_solves,
        sol.max_step,
        sol.residual,
        sol.tail_levels,
        sol.tail_p,
        sol.cap_bound,
    );
    sol
}

/// The head start (points to the second seat; negative: to the first) closest to even.
fn fair(sol: &WinSolution) -> (i64, f64) {
    let tu = sol.tu;
    let unit = sol.unit as i64;
    (1..tu)
        .map(|a| (-(a as i64) * unit, sol.w[0][a * tu]))
        .chain((0..tu).map(|b| (b as i64 * unit, sol.w[0][b])))
        .min_by(|x, y| (x.1 - 0.5).abs().total_cmp(&(y.1 - 0.5).abs()))
        .unwrap()
}

/// The Bellman residual at `n` states spread over the table: each state's value against its
/// turn's dynamic program over the table (the full turn, no cut-off).
fn residual(sol: &WinSolution, n: usize) -> (f64, f64) {
    let tu = sol.tu;
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let (mut max, mut sum) = (0.0f64, 0.0);
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = (x % sol.w.len() as u64) as usize;
        let a = ((x >> 8) % tu as u64) as usize;
        let b = ((x >> 32) % tu as u64) as usize;
        let t = sol.turn_table(k, a, b);
        let d = (t.roll(0, 0) - sol.w[k][a * tu + b]).abs();
        max = max.max(d);
        sum += d;
    }
    (max, sum / n as f64)
}

/// The exact table of `m`, kept in the temporary folder between runs (the measurement's own
/// cache, not the product's).
fn exact_table(m: &Model) -> WinSolution {
    let path = std::env::temp_dir().join(format!("doom-win-exact-{}.bin", m.rules.target));
    if let Ok(bytes) = std::fs::read(&path) {
        let t = Instant::now();
        if let Ok(sol) = WinSolution::from_bytes(m, &bytes) {
            println!(
                "exact: loaded {} ({} bytes) in {:.3} s: P(first) = {:.9}",
                path.display(),
                bytes.len(),
                t.elapsed().as_secs_f64(),
                sol.p_first()
            );
            return sol;
        }
    }
    let sol = solve(
        m,
        &WinOptions {
            progress: true,
            ..WinOptions::exact()
        },
        "exact",
    );
    std::fs::write(&path, sol.to_bytes(m)).expect("the temporary folder is writable");
    sol
}

/// `solve`: the options' solve, its bytes written and read back, the Bellman residual.
fn cmd_solve(target: u64, args: &[String]) {
    let m = model(target);
    let sol = solve(&m, &options(args), "options");
    let t = Instant::now();
    let bytes = sol.to_bytes(&m);
    let path = std::env::temp_dir().join(format!("doom-win-fast-{target}.bin"));
    std::fs::write(&path, &bytes).expect("the temporary folder is writable");
    let t2 = Instant::now();
    let back = WinSolution::from_bytes(&m, &bytes).expect("its own bytes");
    println!(
        "to_bytes {:.3} s, from_bytes {:.3} s ({} bytes, {}); P(first) again {:.9}",
        t.elapsed().as_secs_f64() - t2.elapsed().as_secs_f64(),
        t2.elapsed().as_secs_f64(),
        bytes.len(),
        path.display(),
        back.p_first()
    );
    let (max, mean) = residual(&sol, 200);
    println!("Bellman residual at 200 states: max {max:.2e}, mean {mean:.2e}");
}

/// `compare`: the options' solve against the exact table.
fn cmd_compare(target: u64, args: &[String]) {
    let m = model(target);
    let o = options(args);
    let exact = exact_table(&m);
    let sol = solve(&m, &o, "options");
    let tu = sol.tu;
    let band = |a: usize, b: usize| ((tu - a).min(tu - b) * sol.unit as usize) / 2500;
    let mut by_band = vec![0.0f64; 100];
    let (mut max, mut sum) = (0.0f64, 0.0);
    let mut at = (0, 0, 0);
    let mut grid_max = 0.0f64;
    for k in 0..sol.w.len() {
        for a in 0..tu {
            for b in 0..tu {
                let d = (sol.w[k][a * tu + b] - exact.w[k][a * tu + b]).abs();
                if d > max {
                    at = (k, a, b);
                }
                if sol.solved_at(a, b) {
                    grid_max = grid_max.max(d);
                }
                max = max.max(d);
                sum += d;
                let i = band(a, b).min(99);
                by_band[i] = by_band[i].max(d);
            }
        }
    }
    let n = (sol.w.len() * tu * tu) as f64;
    println!("max |dW| at the positions solved (both scores on the grid): {grid_max:.3e}");
    println!(
        "largest at seat {} scores ({}, {}) points",
        at.0,
        at.1 * sol.unit as usize,
        at.2 * sol.unit as usize
    );
    println!(
        "max |dW| {max:.3e}, mean {:.3e}; P(first) exact {:.9} options {:.9}",
        sum / n,
        exact.p_first(),
        sol.p_first()
    );
    for (i, v) in by_band.iter().enumerate().filter(|(_, v)| **v > 0.0) {
        println!(
            "  nearer distance {}..{} points: max |dW| {v:.3e}",
            i * 2500,
            (i + 1) * 2500
        );
    }
    let (max, mean) = residual(&sol, 200);
    println!("Bellman residual at 200 states: max {max:.2e}, mean {mean:.2e}");
}

/// `corner`: the large table's corner against the small target's exact table.
fn cmd_corner(target: u64, small: u64, args: &[String]) {
    let m = model(target);
    let path = std::env::temp_dir().join(format!("doom-win-fast-{target}.bin"));
    let sol = match std::fs::read(&path)
        .ok()
        .and_then(|b| WinSolution::from_bytes(&m, &b).ok())
    {
        Some(s) => s,
        None => solve(&m, &options(args), "options"),
    };
    let exact = exact_table(&model(small));
    let (tu, su) = (sol.tu, exact.tu);
    let c = tu - su;
    let mut max = 0.0f64;
    for k in 0..sol.w.len() {
        for a in 0..su {
            for b in 0..su {
                let d = (sol.w[k][(a + c) * tu + b + c] - exact.w[k][a * su + b]).abs();
                max = max.max(d);
            }
        }
    }
    println!("corner (both within {small} of the end) against the exact {small} table: max |dW| {max:.3e}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target: u64 = args[1].parse().expect("a target");
    match args[0].as_str() {
        "solve" => cmd_solve(target, &args[2..]),
        "plan" => {
            let m = model(target);
            println!(
                "{:?}",
                WinSolution::plan(&m, &options(&args[2..])).expect("solvable")
            );
        }
        "exact" => {
            exact_table(&model(target));
        }
        "compare" => cmd_compare(target, &args[2..]),
        "corner" => {
            let small: u64 = args[2].parse().expect("the small target");
            cmd_corner(target, small, &args[3..]);
        }
        _ => panic!("plan | solve | exact | compare | corner"),
    }
}
