//! Throughput of the blackjack round loop (criterion).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rtplab::engine::{Merge, Simulation};
use rtplab::games::blackjack::app::seed_chart;
use rtplab::games::blackjack::rules::Rules;
use rtplab::games::blackjack::sim::{BjAcc, BjSim};
use rtplab::games::blackjack::strategy::AutoPlay;
use rtplab::rng::chunk_rng;

fn bench(c: &mut Criterion) {
    let rules = Rules::seed();
    let chart = seed_chart();
    let mut g = c.benchmark_group("blackjack");
    // One chunk of 256 shoes (about 14 000 rounds) per iteration.
    let shoes = 256;
    let rounds_per_iter = {
        let sim = BjSim {
            rules: &rules,
            strategy: &chart,
            shoes_per_chunk: shoes,
        };
        let mut acc = BjAcc::default();
        sim.run_chunk(0, &mut chunk_rng(1, 0), &mut acc);
        acc.counts.rounds
    };
    g.throughput(Throughput::Elements(rounds_per_iter));
    g.bench_function("seed rules, basic chart, 256 shoes", |b| {
        let sim = BjSim {
            rules: &rules,
            strategy: &chart,
            shoes_per_chunk: shoes,
        };
        let mut total = BjAcc::default();
        let mut i = 0;
        b.iter(|| {
            let mut acc = BjAcc::default();
            sim.run_chunk(i, &mut chunk_rng(1, i), &mut acc);
            total.merge(&acc);
            i += 1;
        })
    });
    g.throughput(Throughput::Elements(rounds_per_iter(&|a| {
        auto_sim.run_chunk(0, &mut chunk_rng(1, 0), a)
    })));
    g.bench_function("seed rules, autoplay, 256 shoes", |b| {
        let sim = BjSim {
            rules: &rules,
            strategy: &AutoPlay,
            shoes_per_chunk: shoes,
        };
        let mut i = 0;
        b.iter(|| {
            let mut acc = BjAcc::default();
            sim.run_chunk(i, &mut chunk_rng(1, i), &mut acc);
            i += 1;
            acc.counts.rounds
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
