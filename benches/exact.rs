//! Speed of the exact blackjack analysis (criterion): the seed table, both settlements.

use criterion::{criterion_group, criterion_main, Criterion};
use rtplab::games::blackjack::exact::{analyze, DealerTable, Optimal};
use rtplab::games::blackjack::rules::{DealerBjTakes, Rules};

fn bench(c: &mut Criterion) {
    let all = Rules::seed();
    let mut obo = Rules::seed();
    obo.dealer_bj_takes = DealerBjTakes::Original;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut g = c.benchmark_group("exact");
    g.sample_size(10);
    g.bench_function("seed table, both settlements, one thread", |b| {
        b.iter(|| {
            pool.install(|| {
                let t = DealerTable::new(false);
                analyze(&all, &Optimal, &t).ev + analyze(&obo, &Optimal, &t).ev
            })
        })
    });
    g.bench_function("dealer table (S17)", |b| b.iter(|| DealerTable::new(false)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
