//! The chunked, seeded, parallel runner: game-generic.
//!
//! A run is a range of global chunk indices. Chunk `c` draws from `rng::chunk_rng(seed, c)`
//! only, and every accumulator merges by integer addition, so the result is bit-identical for
//! any thread count, any scheduling and any split of the range into shards.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::rng::{ChunkStreams, Rng};

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
    /// Chunks completed: always the prefix `start..start + chunks_done` of the range (all of
    /// them unless interrupted), counting those done before a resume.
    pub chunks_done: u64,
    pub chunks_planned: u64,
    pub interrupted: bool,
    pub elapsed: Duration,
    pub threads: usize,
}

/// Errors from setting up a run.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("could start only {started} of {asked} worker threads ({why}); use --threads {started} or fewer")]
    Threads {
        asked: usize,
        started: usize,
        why: String,
    },
    #[error("--threads {asked}: the system could start threads for only --threads {could} (each thread of the simulation has one of the exact analysis beside it; a limit on memory or processes); use --threads {could} or fewer")]
    TooManyThreads { asked: usize, could: usize },
}

/// Set up the process's threads before any work: rayon's pool (the exact analysis, the chart
/// derived for the rules) gets `threads` (default: one per core), so `--threads` bounds the
/// whole process; when the system cannot start that many, the error says how many it could.
pub fn start_threads(threads: Option<usize>) -> Result<(), EngineError> {
    let asked =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // The simulation's workers and rayon's pool, both at their largest.
    let could = startable(2 * asked) / 2;
    let err = EngineError::TooManyThreads { asked, could };
    if could < asked {
        return Err(err);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(asked)
        .build_global()
        .map_err(|_| err)
}

/// How many threads of rayon's stack size the system can start at once, up to `n`: each
/// started one waits until all are counted.
fn startable(n: usize) -> usize {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
    let mut started = Vec::new();
    for _ in 0..n {
        let rx = rx.clone();
        match std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let _ = rx.lock().map(|r| r.recv());
            }) {
            Ok(h) => started.push(h),
            Err(_) => break,
        }
    }
    let could = started.len();
    drop(tx);
    for h in started {
        let _ = h.join();
    }
    could
}

/// Periodic saving of a run's progress: every `every`, `save` is called (on the calling
/// thread, while the workers go on) with the sums of the chunks done so far — always a prefix
/// of the range — and how many they are.
pub struct Checkpoint<'a, A> {
    pub every: Duration,
    pub save: &'a mut dyn FnMut(&A, u64),
}

/// Run `sim` over `opts.chunks` in parallel. When `stop` becomes true, chunks not yet started
/// are skipped and the outcome says so; finished chunks are kept.
pub fn run<S: Simulation + ?Sized>(
    sim: &S,
    opts: &RunOptions,
    stop: &AtomicBool,
) -> Result<RunOutcome<S::Acc>, EngineError> {
    run_from(sim, opts, S::Acc::default(), 0, stop, None)
}

/// What the workers share: the next chunk to hand out is an atomic counter; finished chunks
/// are folded, in order, into the sums of the done prefix.
struct Shared<A> {
    /// Sums of chunks `start..start + done`.
    acc: A,
    /// Chunks of the range done (a prefix).
    done: u64,
    /// Finished chunks beyond the prefix, waiting for the ones before them.
    pending: BTreeMap<u64, A>,
    /// Workers still running.
    running: usize,
}

impl<A: Merge> Shared<A> {
    /// Chunk `i`'s sums: merged now if it is the next of the prefix (with those waiting
    /// behind it), held until then otherwise.
    fn finish_chunk(&mut self, i: u64, a: A) {
        if i != self.done {
            self.pending.insert(i, a);
            return;
        }
        self.acc.merge(&a);
        self.done += 1;
        while let Some(a) = self.pending.remove(&self.done) {
            self.acc.merge(&a);
            self.done += 1;
        }
    }

    /// `n` workers fewer; when none is left, the caller's wait ends.
    fn leave(&mut self, n: usize, finished: &Condvar) {
        self.running -= n;
        if self.running == 0 {
            finished.notify_all();
        }
    }
}

/// Saves `cp` every interval until the workers are done: a copy of the prefix's sums, taken
/// under the lock and saved without it. Once `stop` is set, no more (the run's final file
/// follows).
fn save_checkpoints<A: Merge>(
    cp: &mut Checkpoint<'_, A>,
    shared: &Mutex<Shared<A>>,
    finished: &Condvar,
    stop: &AtomicBool,
) {
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    let every = cp.every.max(Duration::from_millis(1));
    let mut due = Instant::now() + every;
    let mut sh = lock();
    while sh.running > 0 {
        let now = Instant::now();
        if now < due {
            sh = finished
                .wait_timeout(sh, due - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            continue;
        }
        if stop.load(Ordering::Relaxed) {
            due = now + every;
            continue;
        }
        let mut snap = A::default();
        snap.merge(&sh.acc);
        let n = sh.done;
        drop(sh);
        (cp.save)(&snap, n);
        due = Instant::now() + every;
        sh = lock();
    }
}

/// Run `sim` over `opts.chunks`, of which the first `done` are already done with sums `acc`
/// (a resumed run; `0` and the default for a fresh one).
///
/// Chunks are handed out in order from a counter and every chunk handed out is finished, so
/// the chunks done are always a prefix of the range — whether the run completes, is stopped
/// (`stop`: chunks not yet handed out are skipped) or is checkpointed. There is no barrier:
/// a worker takes the next chunk as soon as it is free, as the work-stealing runner did.
/// Accumulators merge by integer addition, so the sums are the same whatever the order.
pub fn run_from<S: Simulation + ?Sized>(
    sim: &S,
    opts: &RunOptions,
    acc: S::Acc,
    done: u64,
    stop: &AtomicBool,
    mut checkpoint: Option<Checkpoint<'_, S::Acc>>,
) -> Result<RunOutcome<S::Acc>, EngineError> {
    let threads = opts
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let planned = opts.chunks.end.saturating_sub(opts.chunks.start);
    let done = done.min(planned);
    let bar = crate::progress::Progress::new(opts.progress, planned, &opts.label, "chunks");
    bar.resume(done);
    let start = Instant::now();
    let seed = opts.seed;
    let first = opts.chunks.start;
    let next = AtomicU64::new(done);
    let shared = Mutex::new(Shared {
        acc,
        done,
        pending: BTreeMap::new(),
        running: threads,
    });
    let finished = Condvar::new();
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    let worker = || {
        let mut streams = ChunkStreams::new(seed);
        loop {
            // Check the flag before taking a chunk: every chunk taken is finished.
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= planned {
                break;
            }
            let c = first + i;
            let mut rng = streams.stream(c);
            let mut a = S::Acc::default();
            sim.run_chunk(c, &mut rng, &mut a);
            bar.advance(1);
            lock().finish_chunk(i, a);
        }
        lock().leave(1, &finished);
    };
    let spawned = std::thread::scope(|scope| -> Result<(), EngineError> {
        let mut handles = Vec::with_capacity(threads);
        for t in 0..threads {
            let h = std::thread::Builder::new()
                .name(format!("{}-{t}", opts.label))
                .spawn_scoped(scope, worker);
            match h {
                Ok(h) => handles.push(h),
                Err(e) => {
                    // Stop the ones started; they finish the chunks they took.
                    stop.store(true, Ordering::SeqCst);
                    lock().leave(threads - t, &finished);
                    return Err(EngineError::Threads {
                        asked: threads,
                        started: t,
                        why: e.to_string(),
                    });
                }
            }
        }
        if let Some(cp) = checkpoint.as_mut() {
            save_checkpoints(cp, &shared, &finished, stop);
        }
        Ok(())
    });
    bar.finish();
    let stopped_by_error = spawned.is_err();
    spawned?;
    let sh = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    debug_assert!(sh.pending.is_empty() || stopped_by_error);
    Ok(RunOutcome {
        acc: sh.acc,
        chunks_done: sh.done,
        chunks_planned: planned,
        interrupted: sh.done < planned,
        elapsed: start.elapsed(),
        threads,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngCore;

    crate::sums::sums! {
        /// Σ of the draws (each below 2^44) and their number.
        #[derive(Default)]
        struct Sum {
            draws: u64 => unbounded("a test's sums"),
            n: u64 => unbounded("a test's sums"),
        }
    }
    struct Toy;
    impl Simulation for Toy {
        type Acc = Sum;
        fn run_chunk(&self, _c: u64, rng: &mut Rng, acc: &mut Sum) {
            for _ in 0..1000 {
                acc.draws += rng.next_u64() >> 20;
                acc.n += 1;
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
        assert_eq!((one.acc.draws, one.acc.n), (two.acc.draws, two.acc.n));
        assert_eq!((one.acc.draws, one.acc.n), (four.acc.draws, four.acc.n));
        let mut a = run(&Toy, &opts(2, 0..20), &stop).unwrap().acc;
        let b = run(&Toy, &opts(2, 20..64), &stop).unwrap().acc;
        a.merge(&b);
        assert_eq!((a.draws, a.n), (one.acc.draws, one.acc.n));
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

    /// Which chunks were run (a bit each) and their draws: a run's exact footprint. A probe
    /// of the engine rather than a run's sums (it merges by bits and refuses a chunk merged
    /// twice), so its `Merge` is written out.
    #[derive(Default, Debug, Clone, PartialEq)]
    struct Mask {
        bits: u128,
        sum: u64,
    }
    impl Merge for Mask {
        fn merge(&mut self, o: &Self) {
            assert_eq!(self.bits & o.bits, 0, "a chunk merged twice");
            self.bits |= o.bits;
            self.sum = self.sum.wrapping_add(o.sum);
        }
    }
    /// Chunks that take a moment each, raising `stop` once chunk `stop_at` has run.
    struct Slow<'a> {
        stop: &'a AtomicBool,
        stop_at: u64,
    }
    impl Simulation for Slow<'_> {
        type Acc = Mask;
        fn run_chunk(&self, c: u64, rng: &mut Rng, acc: &mut Mask) {
            std::thread::sleep(Duration::from_millis(2));
            acc.bits |= 1 << c;
            acc.sum = acc.sum.wrapping_add(rng.next_u64());
            if c == self.stop_at {
                self.stop.store(true, Ordering::SeqCst);
            }
        }
    }
    /// The bits of chunks `a..b`.
    fn bits(a: u64, b: u64) -> u128 {
        (a..b).fold(0, |m, c| m | 1 << c)
    }

    #[test]
    fn stopped_runs_and_checkpoints_hold_a_prefix_and_resume_to_the_whole_run() {
        let go = AtomicBool::new(false);
        let whole = run(
            &Slow {
                stop: &go,
                stop_at: u64::MAX,
            },
            &opts(3, 10..100),
            &go,
        )
        .unwrap();
        assert_eq!(whole.acc.bits, bits(10, 100));
        for (threads, stop_at) in [(1, 20), (2, 37), (3, 55), (4, 80)] {
            let stop = AtomicBool::new(false);
            let sim = Slow {
                stop: &stop,
                stop_at,
            };
            let mut saved: Vec<(Mask, u64)> = Vec::new();
            let mut save = |a: &Mask, n: u64| saved.push((a.clone(), n));
            let cp = Checkpoint {
                every: Duration::from_millis(3),
                save: &mut save,
            };
            let o = opts(threads, 10..100);
            let part = run_from(&sim, &o, Mask::default(), 0, &stop, Some(cp)).unwrap();
            // Every chunk handed out finished: the chunks done are 10..10 + done.
            assert!(
                part.interrupted && part.chunks_done < 90,
                "{threads}: {part:?}"
            );
            assert!(part.chunks_done > stop_at - 10);
            assert_eq!(part.acc.bits, bits(10, 10 + part.chunks_done));
            // So is every checkpoint, growing.
            assert!(!saved.is_empty());
            let mut last = 0;
            for (a, n) in &saved {
                assert_eq!(a.bits, bits(10, 10 + n));
                assert!(*n >= last && *n <= part.chunks_done);
                last = *n;
            }
            // Resuming from the stop, or from any checkpoint, gives the whole run's sums.
            let (a, n) = saved[saved.len() / 2].clone();
            for (acc, done) in [(part.acc, part.chunks_done), (a, n)] {
                let sim = Slow {
                    stop: &go,
                    stop_at: u64::MAX,
                };
                let rest = run_from(&sim, &opts(threads, 10..100), acc, done, &go, None).unwrap();
                assert_eq!(rest.acc, whole.acc);
                assert_eq!((rest.chunks_done, rest.interrupted), (90, false));
            }
        }
        // A resume of a finished run does nothing more.
        let done = run_from(
            &Slow {
                stop: &go,
                stop_at: u64::MAX,
            },
            &opts(2, 10..100),
            whole.acc.clone(),
            90,
            &go,
            None,
        )
        .unwrap();
        assert_eq!(done.acc, whole.acc);
    }

    /// A run with a long checkpoint interval ends when its last chunk does (the last worker
    /// wakes the checkpoint loop), not at the next checkpoint; and saves nothing it did not
    /// reach.
    #[test]
    fn a_long_checkpoint_interval_does_not_hold_the_end_of_the_run() {
        let go = AtomicBool::new(false);
        let sim = Slow {
            stop: &go,
            stop_at: u64::MAX,
        };
        let mut saves = 0;
        let mut save = |_: &Mask, _: u64| saves += 1;
        let cp = Checkpoint {
            every: Duration::from_secs(3600),
            save: &mut save,
        };
        let t = std::time::Instant::now();
        let out = run_from(&sim, &opts(2, 0..20), Mask::default(), 0, &go, Some(cp)).unwrap();
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
        assert_eq!((out.chunks_done, out.acc.bits), (20, bits(0, 20)));
        assert_eq!(saves, 0);
    }

    /// Checkpoints come once per interval, not continuously: after a save the next is due an
    /// interval later.
    #[test]
    fn checkpoints_are_saved_once_per_interval() {
        let go = AtomicBool::new(false);
        let sim = Slow {
            stop: &go,
            stop_at: u64::MAX,
        };
        let mut saves = 0u64;
        let mut save = |_: &Mask, _: u64| saves += 1;
        let every = Duration::from_millis(20);
        let cp = Checkpoint {
            every,
            save: &mut save,
        };
        let t = std::time::Instant::now();
        let out = run_from(&sim, &opts(2, 0..120), Mask::default(), 0, &go, Some(cp)).unwrap();
        let elapsed = t.elapsed();
        assert_eq!(out.chunks_done, 120);
        // 120 chunks of 2 ms on 2 threads: at least 120 ms, so at least a few saves, and at
        // most one per 20 ms.
        let most = (elapsed.as_millis() / every.as_millis()) as u64 + 1;
        assert!(saves >= 1 && saves <= most, "{saves} saves in {elapsed:?}");
    }
}
