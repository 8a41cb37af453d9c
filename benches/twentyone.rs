//! Twenty One speed (criterion): four-player games per second on one thread, and the
//! row-optimal tables.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rtplab::engine::{run, RunOptions};
use rtplab::games::twentyone::rules::TwentyOneRules;
use rtplab::games::twentyone::sim::TwentyOneSim;
use rtplab::games::twentyone::strategy::{RowTable, SeatStrategy};

fn bench(c: &mut Criterion) {
    let seats: Vec<Arc<SeatStrategy>> = ["hits-only", "slack:1", "greedy", "row-optimal:1"]
        .iter()
        .map(|s| Arc::new(SeatStrategy::parse(s, 1).unwrap()))
        .collect();
    let sim = TwentyOneSim {
        rules: Arc::new(TwentyOneRules::standard()),
        seats,
        games: 100_000,
        per_chunk: 10_000,
        start_seat: None,
        record_events: false,
    };
    let opts = RunOptions {
        seed: 1,
        chunks: 0..sim.chunks(),
        threads: Some(1),
        progress: false,
        label: String::new(),
    };
    let mut g = c.benchmark_group("twenty-one");
    g.sample_size(10);
    g.throughput(Throughput::Elements(100_000));
    g.bench_function("100k four-player games, one thread", |b| {
        b.iter(|| run(&sim, &opts, &AtomicBool::new(false)).unwrap().acc.games)
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("row-optimal tables (one re-roll)", |b| {
        b.iter(|| RowTable::new(1.0, 1).f[63][0])
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
