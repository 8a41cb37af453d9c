//! The solved table kept between runs: in the cache folder ([`crate::door::cache`]), keyed by
//! the rules, the target and the solve's options, or in a file the user names; and a long
//! solve's progress kept there too, so that a stopped solve resumes where it stopped.
//!
//! **Resuming.** Sums of scores are solved from the largest down, each from the larger ones
//! only (module notes of `win.rs`): the table with every sum above some `s` solved is a
//! complete state of the solve. On a stop (Ctrl-C, SIGTERM) and every [`CHECKPOINT_EVERY`]
//! the solve saves that table with `s` as a partial entry in the cache; the next solve of the
//! same rules, target and options starts from it, and the entry is removed when the table is
//! whole. A partial entry is checked as a whole table is (version, checksum, rules, options).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::super::model::Model;
use super::{WinError, WinOptions, WinSolution, FORMAT_VERSION};
use crate::door::cache::{Cache, Key, Origin};
use crate::door::input::{read_bytes, MAX_TABLE_BYTES};

/// Where the solved table is kept. Every store compares equal: where the table is kept does
/// not change what is computed (a run's configuration, read back from a shard file that does
/// not record it, is the same run).
#[derive(Clone, Debug, Default)]
pub enum TableStore {
    /// Nowhere: solved for this run only (`--no-cache`; the library's default).
    #[default]
    Fresh,
    /// In the cache folder (`door::cache::folder`): read when there, else solved and saved.
    Cache,
    /// In this file: read when it exists, else solved and written there.
    File(PathBuf),
}

impl PartialEq for TableStore {
    fn eq(&self, _: &TableStore) -> bool {
        true
    }
}

/// How often a solve saves its progress into the cache (besides on a stop).
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// What the table of `m`'s rules and target under `opts` is computed from, as text.
fn identity(m: &Model, opts: &WinOptions) -> String {
    format!(
        "rtplab {}\nrules {}\nfine {}\nstep {}\ntail_eps {:e}\naccept {:e}",
        env!("CARGO_PKG_VERSION"),
        super::bytes::rules_json(m),
        opts.fine,
        opts.step,
        opts.tail_eps,
        opts.accept
    )
}

/// The cache entry of the table of `m`'s rules and target solved under `opts`.
pub fn cache_key(m: &Model, opts: &WinOptions) -> Key {
    Key {
        kind: "doom-win".into(),
        version: FORMAT_VERSION,
        identity: identity(m, opts),
    }
}

/// The cache entry of a stopped solve of that table.
pub fn partial_key(m: &Model, opts: &WinOptions) -> Key {
    Key {
        kind: "doom-win-partial".into(),
        ..cache_key(m, opts)
    }
}

/// Whether the table was solved under `opts` (the grid, the Newton acceptance, the tail).
fn check_options(sol: &WinSolution, m: &Model, opts: &WinOptions) -> Result<(), String> {
    let unit = m.unit as u64;
    let fine = (opts.fine / unit).min(sol.tu as u64) * unit;
    let step = (opts.step / unit).max(1) * unit;
    let tail_ok = sol.tail_p < opts.tail_eps || sol.tail_levels >= 1 << 16;
    if sol.fine != fine || sol.step != step || sol.accept != opts.accept || !tail_ok {
        return Err(format!(
            "solved with other options (grid {} / {} points, accept {:e}, tail {:e}); asked for {} / {}, {:e}, {:e}",
            sol.fine, sol.step, sol.accept, sol.tail_p, fine, step, opts.accept, opts.tail_eps
        ));
    }
    Ok(())
}

/// A whole table from bytes, checked against the rules and the options.
fn decode(m: &Model, opts: &WinOptions, bytes: &[u8]) -> Result<WinSolution, String> {
    let sol = WinSolution::from_bytes(m, bytes).map_err(|e| e.to_string())?;
    check_options(&sol, m, opts)?;
    Ok(sol)
}

/// A stopped solve as bytes: the table (unsolved states NaN), the next sum to solve, and a
/// checksum of both.
fn encode_partial(sol: &WinSolution, m: &Model, next: usize) -> Vec<u8> {
    let mut out = sol.to_bytes(m);
    out.extend_from_slice(&(next as u64).to_le_bytes());
    let sum = super::bytes::checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A stopped solve from bytes, checked: the table and the next sum to solve.
fn decode_partial(
    m: &Model,
    opts: &WinOptions,
    bytes: &[u8],
) -> Result<(WinSolution, usize), String> {
    let damaged = || "the saved progress is damaged".to_string();
    if bytes.len() < 16 {
        return Err(damaged());
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if super::bytes::checksum(body) != u64::from_le_bytes(sum.try_into().map_err(|_| damaged())?) {
        return Err(damaged());
    }
    let (table, next) = body.split_at(body.len() - 8);
    let next = u64::from_le_bytes(next.try_into().map_err(|_| damaged())?) as usize;
    let sol = decode(m, opts, table)?;
    if next >= sol.top_sum() {
        return Err(damaged());
    }
    Ok((sol, next))
}

/// How many sums of scores a table has (for messages).
fn sums(sol: &WinSolution) -> usize {
    sol.top_sum() + 1
}

/// "1,234 of 4,001 sums of scores left", when `next` is the next sum to solve.
fn left(sol: &WinSolution, next: usize) -> String {
    use crate::report::count;
    format!(
        "{} of {} sums of scores left",
        count(next as u64 + 1),
        count(sums(sol) as u64)
    )
}

/// Solve, resuming from the progress saved in `partial` (a cache and the entry) if any, and
/// saving progress there on a stop (`stop` raised) and every [`CHECKPOINT_EVERY`]. A stop
/// ends in [`WinError::Stopped`], saying where the progress is. The progress bar's ETA is the
/// pace of this solve's own work (the part restored is not timed).
pub fn solve_resumable(
    m: &Model,
    opts: &WinOptions,
    partial: Option<(&Cache, &Key)>,
    stop: Option<&AtomicBool>,
) -> Result<WinSolution, WinError> {
    WinSolution::solvable(m)?;
    let loaded = partial.and_then(|(c, k)| c.load(k, |b| decode_partial(m, opts, b)));
    let (mut sol, from) = match loaded {
        Some((sol, next)) => {
            if let Some((c, k)) = partial {
                crate::door::say(&format!(
                    "resuming the solve ({}) saved at\n  {}",
                    left(&sol, next),
                    c.path(k).display()
                ));
            }
            (sol, next)
        }
        None => {
            let sol = WinSolution::empty(m, opts);
            let top = sol.top_sum();
            (sol, top)
        }
    };
    let bar = crate::progress::Progress::percent(
        opts.progress,
        if opts.progress { sol.total_work().0 } else { 0 },
        "solving",
        "of the turn levels",
    );
    if opts.progress && from < sol.top_sum() {
        bar.resume(sol.work_above(from));
    }
    let mut last = Instant::now();
    let mut saved: Option<Result<PathBuf, String>> = None;
    let stopped = sol.solve_grid(from, &|w| bar.advance(w), &mut |s, next| {
        let now = stop.is_some_and(|f| f.load(Ordering::SeqCst));
        if let Some((c, k)) = partial {
            if now || last.elapsed() >= CHECKPOINT_EVERY {
                saved = Some(
                    c.save(k, &encode_partial(s, m, next))
                        .map_err(|e| e.to_string()),
                );
                last = Instant::now();
            }
        }
        !now
    });
    bar.finish();
    if let Some(next) = stopped {
        let left = left(&sol, next);
        return Err(WinError::Stopped(match saved {
            Some(Ok(p)) => format!(
                "the solve's progress ({left}) is saved at\n  {}\nrun the same command again to resume",
                p.display()
            ),
            Some(Err(e)) => format!("the solve's progress ({left}) could not be saved: {e}"),
            None => format!("the solve stopped ({left}); nothing was saved (no cache)"),
        }));
    }
    sol.fill();
    if let Some((c, k)) = partial {
        let _ = c.remove(k);
    }
    Ok(sol)
}

/// Say, for the binary's message on a signal, what a signal does to a solve that `stop`
/// stops (`kept`: its progress is saved), until the guard is dropped.
fn stopping(stop: Option<&AtomicBool>, kept: bool) -> Option<crate::job::StoppingGuard> {
    stop.map(|_| match kept {
        true => crate::job::stopping(
            "saving the solve's progress",
            "the solve's progress since its last save (if any) is lost",
        ),
        false => crate::job::stopping(
            "stopping the solve (nothing is kept: no cache)",
            "the solve was not finished",
        ),
    })
}

/// The table of `m`'s rules and target under `opts`, from `store`: read (milliseconds) when
/// it is there, else solved (saying so on standard error, and where it will be kept, unless
/// `opts.progress` is off) and kept. `stop` (a signal) stops a solve, its progress kept in the cache to resume from.
pub fn solve_kept(
    m: &Model,
    opts: &WinOptions,
    store: &TableStore,
    stop: Option<&AtomicBool>,
) -> Result<(WinSolution, Origin), WinError> {
    WinSolution::solvable(m)?;
    let solving = |path: Option<&Path>| {
        if !opts.progress {
            return;
        }
        if let Ok(plan) = WinSolution::plan(m, opts) {
            crate::door::say(&plan_line(&plan, m.rules.target));
        }
        if let Some(p) = path {
            crate::door::say(&format!(
                "the solved table will be kept at\n  {}",
                p.display()
            ));
        }
    };
    match store {
        TableStore::Fresh => {
            let _stopping = stopping(stop, false);
            solving(None);
            let sol = solve_resumable(m, opts, None, stop)?;
            Ok((sol, Origin::Computed(None)))
        }
        TableStore::Cache => {
            let cache = Cache::open()?;
            let key = cache_key(m, opts);
            let partial = partial_key(m, opts);
            cache.get_or_compute(
                &key,
                |path| {
                    let _stopping = stopping(stop, true);
                    solving(Some(path));
                    solve_resumable(m, opts, Some((&cache, &partial)), stop)
                },
                |sol| sol.to_bytes(m),
                |b| decode(m, opts, b),
            )
        }
        TableStore::File(path) => {
            let shown = path.display().to_string();
            if crate::door::exists(path) {
                let bytes = read_bytes(path, "solved table", MAX_TABLE_BYTES)?;
                let sol = WinSolution::from_bytes(m, &bytes).map_err(|e| WinError::Table {
                    path: shown.clone(),
                    why: e.to_string(),
                })?;
                return Ok((sol, Origin::Loaded(path.clone())));
            }
            let cache = Cache::open().ok();
            let _stopping = stopping(stop, cache.is_some());
            solving(Some(path));
            let partial = partial_key(m, opts);
            let sol = solve_resumable(m, opts, cache.as_ref().map(|c| (c, &partial)), stop)?;
            crate::door::replace(path, &sol.to_bytes(m)).map_err(|e| WinError::Table {
                path: shown,
                why: format!("cannot write the solved table: {e}"),
            })?;
            Ok((sol, Origin::Computed(Some(path.clone()))))
        }
    }
}

/// The solve's size and memory, in two lines (at most 100 columns) for standard error before
/// it starts.
pub fn plan_line(plan: &super::WinPlan, target: u64) -> String {
    use crate::report::count;
    let bytes = plan.table_bytes as f64;
    let table = if bytes < 1e6 {
        format!("{:.0} kB", bytes / 1e3)
    } else {
        format!("{:.0} MB", bytes / 1e6)
    };
    format!(
        "Solving the two-player game to {}: {} of {} states, table {table}\n  ({} pairs of scores, {} turn levels)",
        count(target),
        count(plan.solved),
        count(plan.states),
        count(plan.pairs),
        count(plan.turn_levels),
    )
}

#[cfg(test)]
mod tests {
    use super::super::super::rules::{DoomPreset, DoomRules};
    use super::*;

    fn model(target: u64) -> Model {
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = target;
        Model::new(&r)
    }

    fn small() -> WinOptions {
        WinOptions {
            fine: 300,
            step: 100,
            ..WinOptions::fast()
        }
    }

    fn scratch(name: &str) -> Cache {
        let d = std::env::temp_dir().join(format!("rtplab-kept-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        Cache::at(d).unwrap()
    }

    #[test]
    fn the_key_changes_with_rules_target_and_options() {
        let m = model(1000);
        let k = cache_key(&m, &small()).file_name();
        assert_ne!(k, cache_key(&model(1050), &small()).file_name());
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = 1000;
        r.min_bank = 300;
        assert_ne!(k, cache_key(&Model::new(&r), &small()).file_name());
        for o in [
            WinOptions {
                step: 150,
                ..small()
            },
            WinOptions {
                fine: 400,
                ..small()
            },
            WinOptions {
                tail_eps: 1e-10,
                ..small()
            },
            WinOptions {
                accept: 0.0,
                ..small()
            },
        ] {
            assert_ne!(k, cache_key(&m, &o).file_name(), "{o:?}");
        }
        // The progress bar is not part of what is solved.
        let shown = WinOptions {
            progress: true,
            ..small()
        };
        assert_eq!(k, cache_key(&m, &shown).file_name());
        assert_ne!(k, partial_key(&m, &small()).file_name());
    }

    #[test]
    fn a_table_under_other_options_is_refused() {
        let m = model(800);
        let sol = WinSolution::solve_with(&m, &small()).unwrap();
        let bytes = sol.to_bytes(&m);
        assert!(decode(&m, &small(), &bytes).is_ok());
        let e = decode(
            &m,
            &WinOptions {
                step: 150,
                ..small()
            },
            &bytes,
        )
        .unwrap_err();
        assert!(e.contains("other options"), "{e}");
        assert!(decode(&m, &WinOptions::exact(), &bytes).is_err());
    }

    /// Against one opponent the field's turn is the two-player turn: the same values at
    /// every state, cut or not.
    #[test]
    fn a_field_of_one_is_the_two_player_game() {
        let m = model(1200);
        let sol = WinSolution::solve_with(&m, &small()).unwrap();
        for (k, a, b) in [(0, 3, 10), (1, 10, 3), (0, 20, 22)] {
            let two = sol.turn_table(k, a, b);
            let field = sol.field_turn_table(a, &[(k, b)], usize::MAX);
            assert_eq!(two.levels, field.levels);
            for p in 0..two.levels {
                for h in 0..m.holds.len() {
                    assert!((two.value(p, h) - field.value(p, h)).abs() < 1e-15);
                }
            }
            let cut = sol.field_turn_table(a, &[(k, b)], 5);
            assert!(cut.cut && cut.levels < two.levels);
        }
    }

    /// A solve stopped part way saves its progress; the next solve resumes from it and ends
    /// with the table a solve without a stop makes, bit for bit; the progress is then removed.
    #[test]
    fn a_stopped_solve_resumes_to_the_same_table() {
        let m = model(800);
        let opts = WinOptions::exact();
        let whole = WinSolution::solve_with(&m, &opts).unwrap();
        let cache = scratch("resume");
        let key = partial_key(&m, &opts);
        // Stop after a few sums: the flag is raised from the start, so the first sum solved
        // is the last.
        let stop = AtomicBool::new(true);
        let e = solve_resumable(&m, &opts, Some((&cache, &key)), Some(&stop)).unwrap_err();
        assert!(
            matches!(&e, WinError::Stopped(s) if s.contains("saved at")),
            "{e}"
        );
        assert!(cache.path(&key).exists());
        let (part, next) =
            decode_partial(&m, &opts, &std::fs::read(cache.path(&key)).unwrap()).unwrap();
        assert!(next < part.top_sum());
        // A damaged progress file is not trusted: the solve starts over.
        let mut bad = std::fs::read(cache.path(&key)).unwrap();
        let n = bad.len();
        bad[n / 2] ^= 1;
        assert!(decode_partial(&m, &opts, &bad).is_err());
        stop.store(false, Ordering::SeqCst);
        let resumed = solve_resumable(&m, &opts, Some((&cache, &key)), Some(&stop)).unwrap();
        assert_eq!(resumed.w, whole.w);
        assert!(!cache.path(&key).exists());
        let _ = std::fs::remove_dir_all(cache.dir());
    }
}
