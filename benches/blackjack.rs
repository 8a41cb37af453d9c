//! Throughput of the blackjack round loop (criterion).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rtplab::engine::Simulation;
use rtplab::games::blackjack::resolve::seed_chart;
use rtplab::games::blackjack::rules::Rules;
use rtplab::games::blackjack::sim::{BjAcc, BjSim};
use rtplab::games::blackjack::strategy::{AutoPlay, Strategy};
use rtplab::rng::chunk_rng;

/// Benchmark 256 shoes (about 14 000 rounds) per iteration of one strategy. The stream is made
/// once: deriving a chunk's stream (a 2^128-step jump) is paid once per chunk of 4096 shoes
/// in real runs and measured on its own below.
fn bench_strategy<S: Strategy>(c: &mut Criterion, name: &str, rules: &Rules, strategy: &S) {
    let sim = BjSim {
        rules,
        strategy,
        shoes_per_chunk: 256,
    };
    let mut probe = BjAcc::default();
    sim.run_chunk(0, &mut chunk_rng(1, 0), &mut probe);
    let mut g = c.benchmark_group("blackjack");
    g.throughput(Throughput::Elements(probe.counts.rounds));
    g.bench_function(name, |b| {
        let mut rng = chunk_rng(1, 0);
        b.iter(|| {
            let mut acc = BjAcc::default();
            sim.run_chunk(0, &mut rng, &mut acc);
            acc.counts.rounds
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let rules = Rules::seed();
    bench_strategy(
        c,
        "seed rules, basic chart, 256 shoes",
        &rules,
        &seed_chart(),
    );
    bench_strategy(c, "seed rules, autoplay, 256 shoes", &rules, &AutoPlay);
    let mut g = c.benchmark_group("rng");
    g.bench_function("chunk stream derivation (jump_ce)", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            chunk_rng(1, i)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
