//! Throughput of the blackjack round loop (criterion).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rtplab::cards::{value, Rank};
use rtplab::engine::Simulation;
use rtplab::games::blackjack::resolve::seed_chart;
use rtplab::games::blackjack::rules::Rules;
use rtplab::games::blackjack::sim::{BjAcc, BjSim};
use rtplab::games::blackjack::strategy::{
    Action, AutoPlay, Chart, Player, Seats, Situation, Strategy,
};
use rtplab::rng::chunk_rng;

/// Benchmark 256 shoes (about 14 000 rounds) per iteration of one strategy. The stream is made
/// once: deriving a chunk's stream (a 2^128-step jump) is paid once per chunk of 4096 shoes
/// in real runs and measured on its own below.
fn bench_strategy<S: Seats>(c: &mut Criterion, name: &str, rules: &Rules, strategy: &S) {
    let sim = BjSim {
        rules,
        strategy,
        shoes_per_chunk: 256,
        bankroll: None,
        sides: &[],
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

/// A Hi-Lo counter over a chart: the running count over the cards seen since the shuffle,
/// one bet below a true count of 2, then one more per true count up to 8 (what a stateful
/// seat costs against the fixed chart).
struct HiLo<'a> {
    chart: &'a Chart,
    decks: f64,
    running: i32,
    seen: u32,
}

impl Player for HiLo<'_> {
    const BETS: bool = true;
    const SEES: bool = true;
    fn bet(&mut self, _seat: usize) -> u32 {
        let left = (self.decks - self.seen as f64 / 52.0).max(0.5);
        let true_count = (self.running as f64 / left).floor() as i32;
        (true_count - 1).clamp(1, 8) as u32
    }
    fn act(&mut self, _seat: usize, s: &Situation) -> Action {
        self.chart.act(s)
    }
    fn insure(&mut self, _seat: usize, total: u8, soft: bool) -> bool {
        self.chart.insure(total, soft)
    }
    fn see(&mut self, card: Rank) {
        self.seen += 1;
        self.running += match value(card) {
            2..=6 => 1,
            7..=9 => 0,
            _ => -1,
        };
    }
    fn shuffled(&mut self) {
        self.running = 0;
        self.seen = 0;
    }
}

struct Counter {
    chart: Chart,
    decks: f64,
}

impl Seats for Counter {
    type Player<'a> = HiLo<'a>;
    fn player(&self) -> HiLo<'_> {
        HiLo {
            chart: &self.chart,
            decks: self.decks,
            running: 0,
            seen: 0,
        }
    }
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
    let counter = Counter {
        chart: seed_chart(),
        decks: rules.decks as f64,
    };
    bench_strategy(
        c,
        "seed rules, basic chart, Hi-Lo bet ramp, 256 shoes",
        &rules,
        &counter,
    );
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
