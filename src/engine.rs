//! The chunked, seeded, parallel runner: game-generic.
//!
//! A run is a range of global chunk indices. Chunk `c` draws from `rng::chunk_rng(seed, c)`
//! only, and every accumulator merges by integer addition, so the result is bit-identical for
//! any thread count, any scheduling and any split of the range into shards.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::rng::{chunk_rng, Rng};

/// An accumulator that merges exactly; `Default` is the identity.
pub trait Merge: Default + Send {
    fn merge(&mut self, other: &Self);
}

/// A simulation that can run any one of its chunks on its own.
pub trait Simulation: Sync {
    type Acc: Merge;
    /// Play chunk `chunk` with its own stream `rng`, adding into `acc` (a fresh default).
    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut Self::Acc);
}

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub seed: u64,
    /// Global chunk indices to run (a whole run is `0..chunks`, a shard a sub-range).
    pub chunks: Range<u64>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// Show a progress bar on stderr (it is hidden anyway when stderr is not a terminal).
    pub progress: bool,
    /// Label of the progress bar.
    pub label: String,
}

/// What a run produced.
#[derive(Debug)]
pub struct RunOutcome<A> {
    pub acc: A,
    /// Chunks completed (all of them unless interrupted).
    pub chunks_done: u64,
    pub chunks_planned: u64,
    pub interrupted: bool,
    pub elapsed: Duration,
    pub threads: usize,
}

/// Errors from setting up a run.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("could not start {0} worker threads: {1}")]
    Threads(usize, String),
}

/// Run `sim` over `opts.chunks` in parallel. When `stop` becomes true, chunks not yet started
/// are skipped and the outcome says so; finished chunks are kept.
pub fn run<S: Simulation + ?Sized>(
    sim: &S,
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<RunOutcome<S::Acc>, EngineError> {
    let threads = opts.threads.unwrap_or_else(rayon::current_num_threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| EngineError::Threads(threads, e.to_string()))?;
    let planned = opts.chunks.end.saturating_sub(opts.chunks.start);
    let bar = progress_bar(planned, opts.progress, &opts.label);
    let start = Instant::now();
    let seed = opts.seed;
    let (acc, done) = pool.install(|| {
        opts.chunks
            .clone()
            .into_par_iter()
            .map(|c| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let mut rng = chunk_rng(seed, c);
                let mut acc = S::Acc::default();
                sim.run_chunk(c, &mut rng, &mut acc);
                bar.inc(1);
                Some((acc, 1u64))
            })
            .while_some()
            .reduce(
                || (S::Acc::default(), 0),
                |mut a, b| {
                    a.0.merge(&b.0);
                    a.1 += b.1;
                    a
                },
            )
    });
    bar.finish_and_clear();
    Ok(RunOutcome {
        acc,
        chunks_done: done,
        chunks_planned: planned,
        interrupted: done < planned,
        elapsed: start.elapsed(),
        threads,
    })
}

fn progress_bar(len: u64, show: bool, label: &str) -> ProgressBar {
    use std::io::IsTerminal;
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} chunks, eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar.set_prefix(label.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngCore;

    #[derive(Default)]
    struct Sum(u64, u64);
    impl Merge for Sum {
        fn merge(&mut self, o: &Self) {
            self.0 = self.0.wrapping_add(o.0);
            self.1 += o.1;
        }
    }
    struct Toy;
    impl Simulation for Toy {
        type Acc = Sum;
        fn run_chunk(&self, _c: u64, rng: &mut Rng, acc: &mut Sum) {
            for _ in 0..1000 {
                acc.0 = acc.0.wrapping_add(rng.next_u64() >> 20);
                acc.1 += 1;
            }
        }
    }

    fn opts(threads: usize, chunks: Range<u64>) -> RunOptions {
        RunOptions {
            seed: 42,
            chunks,
            threads: Some(threads),
            progress: false,
            label: String::new(),
        }
    }

    #[test]
    fn identical_for_any_thread_count_and_split() {
        let stop = AtomicBool::new(false);
        let one = run(&Toy, &opts(1, 0..64), &stop).unwrap();
        let two = run(&Toy, &opts(2, 0..64), &stop).unwrap();
        let four = run(&Toy, &opts(4, 0..64), &stop).unwrap();
        assert_eq!((one.acc.0, one.acc.1), (two.acc.0, two.acc.1));
        assert_eq!((one.acc.0, one.acc.1), (four.acc.0, four.acc.1));
        let mut a = run(&Toy, &opts(2, 0..20), &stop).unwrap().acc;
        let b = run(&Toy, &opts(2, 20..64), &stop).unwrap().acc;
        a.merge(&b);
        assert_eq!((a.0, a.1), (one.acc.0, one.acc.1));
        assert_eq!(one.chunks_done, 64);
        assert!(!one.interrupted);
    }

    #[test]
    fn a_stopped_run_reports_what_it_finished() {
        let stop = AtomicBool::new(true);
        let out = run(&Toy, &opts(2, 0..10), &stop).unwrap();
        assert_eq!(out.chunks_done, 0);
        assert!(out.interrupted);
    }
}
