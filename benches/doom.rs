//! Dice of Doom speed (criterion): the exact turn analysis and simulation throughput.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rtplab::engine::{run, RunOptions};
use rtplab::games::doom::exact::{solve_policy, Policy};
use rtplab::games::doom::model::Model;
use rtplab::games::doom::rules::{DoomPreset, DoomRules};
use rtplab::games::doom::sim::{DoomSim, Mode, SolvedStrategy};
use rtplab::games::doom::strategy::DoomStrategy;

fn sim(preset: DoomPreset, mode: Mode, seats: usize, per_chunk: u64) -> DoomSim {
    let model = Arc::new(Model::new(&DoomRules::preset(preset)));
    let p = Arc::new(SolvedStrategy::new(
        &model,
        DoomStrategy::parse("optimal").unwrap(),
    ));
    DoomSim {
        model,
        players: vec![p; seats],
        mode,
        start_seat: Some(0),
        per_chunk,
        win: None,
    }
}

fn go(s: &DoomSim) -> u64 {
    let opts = RunOptions {
        seed: 1,
        chunks: 0..s.chunks(),
        threads: Some(1),
        progress: false,
        label: String::new(),
    };
    run(s, &opts, &AtomicBool::new(false)).unwrap().acc.turns[0].turns()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("doom exact");
    g.sample_size(10);
    for (name, p) in [
        ("seed rules (combining held dice)", DoomPreset::Seed),
        ("s2-common", DoomPreset::S2Common),
        ("zilch (farkle penalty)", DoomPreset::Zilch),
    ] {
        let m = Model::new(&DoomRules::preset(p));
        g.bench_function(format!("optimal turn, {name}"), |b| {
            b.iter(|| solve_policy(&m, &Policy::OPTIMAL).turn_ev)
        });
    }
    // The two-player win-probability solve (`exact doom --players 2 --objective win`).
    let mut r = DoomRules::preset(DoomPreset::Seed);
    r.target = 1000;
    let m = Model::new(&r);
    g.bench_function("two players to win, seed rules, target 1000", |b| {
        b.iter(|| {
            rtplab::games::doom::win::WinSolution::solve(&m)
                .unwrap()
                .p_first()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("doom sim, one thread");
    g.sample_size(10);
    let turns = sim(DoomPreset::Seed, Mode::Turns(1_000_000), 1, 100_000);
    g.throughput(Throughput::Elements(1_000_000));
    g.bench_function("1M turns, seed rules, optimal", |b| b.iter(|| go(&turns)));
    let games = sim(DoomPreset::Seed, Mode::Games(1_000), 4, 100);
    g.throughput(Throughput::Elements(1_000));
    g.bench_function("1000 four-player games to 100000, optimal", |b| {
        b.iter(|| go(&games))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
