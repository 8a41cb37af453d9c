//! The run path: simulate a game (or one shard of it, resuming its file), merge shard files,
//! and the report every game's run carries.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::{Chunks, Game, Run, RunError, RunSpec};
use crate::engine::Merge;
use crate::job::Outcome as JobOutcome;
use crate::report::{Report, RunMeta};
use crate::shard::{ShardError, ShardSpec};

/// The run key written into shard files: what determines the numbers of a run.
#[derive(Serialize, Deserialize)]
struct Key<C, P> {
    game: String,
    version: String,
    config: C,
    plan: P,
    seed: u64,
    chunks: u64,
}

fn key_of<G: Game>(
    cfg: &G::Config,
    plan: &G::Plan,
    seed: u64,
) -> Result<serde_json::Value, ShardError> {
    serde_json::to_value(Key {
        game: G::NAME.to_string(),
        version: crate::VERSION.to_string(),
        config: cfg,
        plan,
        seed,
        chunks: plan.chunks(),
    })
    .map_err(|e| ShardError::KeyField {
        name: "config".into(),
        why: e.to_string(),
    })
}

/// Run a game (or the shard of it the spec names); write the shard file when asked.
///
/// With a shard file (`spec.shard_out`) that already exists:
/// - an incomplete file of this very run and shard (a checkpoint, or a shard stopped by a
///   signal) is resumed from its first chunk not done; the finished file is the file of an
///   uninterrupted run (its `elapsed_s` the sum of the sessions' times);
/// - a complete file of this run and shard is read, not recomputed;
/// - anything else (another run's or shard's file, an edited, truncated or unreadable file)
///   is refused and left as it is.
///
/// With `spec.checkpoint`, the shard file is also saved every that long while the run goes on.
pub fn simulate<G: Game>(
    cfg: G::Config,
    spec: &RunSpec,
    stop: &AtomicBool,
) -> Result<Run<G>, G::Error> {
    G::validate(&cfg)?;
    check_spec(spec)?;
    let shards = spec.shard.map_or(1, |s| s.n);
    let setup = std::time::Instant::now();
    let (plan, sim) = G::prepare_until(&cfg, spec.seed, spec.chunk, shards, stop)?;
    let setup_s = setup.elapsed().as_secs_f64();
    let chunks = chunk_range(spec, plan.chunks())?;
    let opts = crate::engine::RunOptions {
        seed: spec.seed,
        chunks: chunks.clone(),
        threads: spec.threads,
        progress: spec.progress,
        label: spec.label.clone().unwrap_or_else(|| G::NAME.to_string()),
    };
    let out_file = match &spec.shard_out {
        Some(path) => {
            let key = key_of::<G>(&cfg, &plan, spec.seed).map_err(RunError::from)?;
            let prior = resume_point::<G>(path, &key, spec.shard, &chunks)?;
            Some((path, key, prior))
        }
        None => None,
    };
    let prior = out_file.as_ref().and_then(|(_, _, p)| p.as_ref());
    let (acc0, done0, elapsed0) = match prior {
        Some(f) => (f.acc.clone(), f.chunks_done, f.elapsed_s),
        None => (G::Acc::default(), 0, 0.0),
    };
    let len = chunks.end - chunks.start;
    if prior.is_some() && done0 == len {
        // Already complete: its report, from the file; nothing is recomputed or rewritten.
        let meta = RunMeta {
            elapsed_s: elapsed0,
            setup_s,
            ..complete_meta(spec, &chunks)
        };
        return Ok(Run {
            config: cfg,
            plan,
            acc: acc0,
            meta,
            unsaved: None,
        });
    }
    let started = std::time::Instant::now();
    let mut saved = done0;
    let mut save = |acc: &G::Acc, done: u64| {
        if done == saved {
            return; // nothing new since the last checkpoint
        }
        saved = done;
        if let Some((path, key, _)) = &out_file {
            let elapsed = elapsed0 + started.elapsed().as_secs_f64();
            let w =
                crate::shard::write_shard_file(path, key, spec.shard, &chunks, done, elapsed, acc);
            if let Err(e) = w {
                crate::door::say(&format!("warning: checkpoint not saved: {e}"));
            }
        }
    };
    let checkpoint = spec.checkpoint.map(|every| crate::engine::Checkpoint {
        every,
        save: &mut save,
    });
    // What a signal does to a run of chunks (unless the work around it says its own).
    let _stopping = crate::job::stopping_now().is_none().then(|| {
        crate::job::stopping(
            "finishing the chunks in progress, then reporting",
            "the partial report was not written",
        )
    });
    let out = crate::engine::run_from(&*sim, &opts, acc0, done0, stop, checkpoint)
        .map_err(RunError::from)?;
    let mut meta = RunMeta::of(spec.seed, &out);
    meta.elapsed_s += elapsed0;
    meta.setup_s = setup_s;
    meta.shard = spec.shard;
    meta.chunk_range = [chunks.start, chunks.end];
    meta.resumed_from_chunk = prior.map(|_| chunks.start + done0);
    meta.resumable = out_file.is_some() && out.interrupted;
    let unsaved = out_file.as_ref().and_then(|(path, key, _)| {
        crate::shard::write_shard_file(
            path,
            key,
            spec.shard,
            &chunks,
            out.chunks_done,
            meta.elapsed_s,
            &out.acc,
        )
        .err()
    });
    Ok(Run {
        config: cfg,
        plan,
        acc: out.acc,
        meta,
        unsaved,
    })
}

/// The run specification's own checks, before the game plans anything.
fn check_spec(spec: &RunSpec) -> Result<(), RunError> {
    if spec.chunk == Some(0) {
        return Err(RunError::ZeroChunk);
    }
    if spec.checkpoint.is_some() && spec.shard_out.is_none() {
        return Err(RunError::CheckpointNeedsShardOut);
    }
    if spec.checkpoint == Some(std::time::Duration::ZERO) {
        return Err(RunError::ZeroCheckpoint);
    }
    Ok(())
}

/// The chunks this run (or its shard) plays of the run's `total`; a shard that would select
/// none is refused.
fn chunk_range(spec: &RunSpec, total: u64) -> Result<std::ops::Range<u64>, RunError> {
    if let Some(s) = spec.shard.filter(|s| s.n > total) {
        return Err(RunError::EmptyShards {
            k: s.k,
            n: s.n,
            chunks: total,
            empty: s.n - total,
        });
    }
    Ok(spec.shard.map_or(0..total, |s| s.range(total)))
}

/// The metadata of a shard whose file was already complete (read, not run; its times the
/// caller's).
fn complete_meta(spec: &RunSpec, chunks: &std::ops::Range<u64>) -> RunMeta {
    RunMeta {
        seed: spec.seed,
        threads: spec.threads.unwrap_or_else(rayon::current_num_threads),
        chunks_done: chunks.end - chunks.start,
        chunks_planned: chunks.end - chunks.start,
        shard: spec.shard,
        chunk_range: [chunks.start, chunks.end],
        resumed_from_chunk: Some(chunks.end),
        already_complete: true,
        ..RunMeta::default()
    }
}

/// The shard file at `path`, if there is one that this run (key `key`, shard `shard`, chunks
/// `range`) continues: `None` when there is no file; an error, leaving the file as it is,
/// when the file is not of this run and shard or cannot be trusted.
fn resume_point<G: Game>(
    path: &Path,
    key: &serde_json::Value,
    shard: Option<ShardSpec>,
    range: &std::ops::Range<u64>,
) -> Result<Option<crate::shard::ShardFile<G::Acc>>, RunError> {
    if !crate::door::exists(path) {
        return Ok(None);
    }
    let file = path.display().to_string();
    let other = |what: String| RunError::OtherRun {
        file: file.clone(),
        what,
    };
    // Another game's file has other sums: say so before reading them as this game's.
    let game =
        crate::door::input::read_text(path, "shard file", crate::door::input::MAX_SHARD_BYTES)
            .ok()
            .and_then(|t| {
                serde_json::from_str::<serde_json::Value>(t.trim_start_matches('\u{feff}')).ok()
            })
            .and_then(|v| v.get("key")?.get("game")?.as_str().map(String::from));
    if let (Some(a), Some(b)) = (game, key.get("game").and_then(|g| g.as_str())) {
        if a != b {
            return Err(other(format!("a {a} run, and this is a {b} run")));
        }
    }
    let f = crate::shard::read_one::<G::Acc>(path).map_err(|e| {
        let why = e.to_string();
        let why = why
            .strip_suffix("; re-run that shard")
            .or_else(|| why.strip_suffix(": re-run that shard"))
            .unwrap_or(&why)
            .to_string();
        RunError::Unresumable {
            file: file.clone(),
            why,
        }
    })?;
    let (mine, theirs) = (crate::shard::identity(key), crate::shard::identity(&f.key));
    if mine != theirs {
        return Err(other(format!(
            "another run: {}",
            crate::shard::key_difference(&theirs, &mine).replacen("they", "the runs", 1)
        )));
    }
    let shard = shard.unwrap_or(ShardSpec { k: 1, n: 1 });
    if f.shard != shard || f.range != [range.start, range.end] {
        return Err(other(format!(
            "shard {}/{} (chunks {}..{}) of this run, and this is shard {}/{} (chunks {}..{})",
            f.shard.k, f.shard.n, f.range[0], f.range[1], shard.k, shard.n, range.start, range.end
        )));
    }
    Ok(Some(f))
}

/// Merge the shard files of one run of `G` (checked: one run, no gaps or overlaps, complete,
/// checksums, plausible sums).
pub fn merge<G: Game>(paths: &[PathBuf]) -> Result<Run<G>, G::Error> {
    let files = crate::shard::read_all::<G::Acc>(paths).map_err(RunError::from)?;
    let key: Key<G::Config, G::Plan> = serde_json::from_value(files[0].1.key.clone())
        .map_err(|e| ShardError::Read {
            file: files[0].0.display().to_string(),
            why: format!("its run key does not describe a {} run of this version ({e}); re-run the shards with this version", G::NAME),
        })
        .map_err(RunError::from)?;
    G::validate(&key.config)?;
    let mut acc = G::Acc::default();
    let mut meta = RunMeta {
        seed: key.seed,
        merged_from: files.len(),
        chunks_planned: key.chunks,
        chunk_range: [0, key.chunks],
        ..RunMeta::default()
    };
    for (_, f) in &files {
        acc.merge(&f.acc);
        meta.elapsed_s += f.elapsed_s;
        meta.chunks_done += f.chunks_done;
    }
    Ok(Run {
        config: key.config,
        plan: key.plan,
        acc,
        meta,
        unsaved: None,
    })
}

/// The report of a run, with the notes every game's report carries (shard, merge).
pub fn report<G: Game>(run: &Run<G>, claim: Option<f64>) -> Result<Report, G::Error> {
    if claim.is_some() && !G::headline_kind(&run.config).claims {
        return Err(RunError::NoClaim { game: G::NAME }.into());
    }
    let mut r = G::report(run, claim)?;
    if let Some(sh) = run.meta.shard {
        r.notes.push(format!(
            "Shard {}/{}: chunks {}..{} of {}; merge the shard files for the run's report.",
            sh.k,
            sh.n,
            run.meta.chunk_range[0],
            run.meta.chunk_range[1],
            run.plan.chunks()
        ));
    }
    if let Some(at) = run.meta.resumed_from_chunk {
        let [s, e] = run.meta.chunk_range;
        r.notes.push(if run.meta.already_complete {
            format!("Already complete: the shard file holds chunks {s}..{e} of this run, read from it and not recomputed (delete it to run again); elapsed is the time recorded in it.")
        } else {
            format!("Resumed from the shard file's checkpoint at chunk {at} ({} of {} chunks were done); elapsed is the total of every session.", at - s, e - s)
        });
        if let Some(o) = r.json.as_object_mut() {
            o.insert("resumed_from_chunk".into(), at.into());
            o.insert("already_complete".into(), run.meta.already_complete.into());
        }
    }
    if run.meta.resumable {
        let [s, e] = run.meta.chunk_range;
        let at = s + run.meta.chunks_done;
        r.notes.push(format!(
            "The shard file holds chunks {s}..{at} of {s}..{e}: run the same command again (same --shard-out) to resume from chunk {at}."
        ));
    }
    if run.meta.merged_from > 0 {
        r.notes.push(format!(
            "Merged from {}; elapsed is the sum of the shards' times.",
            crate::report::plural(run.meta.merged_from as u64, "shard file")
        ));
    }
    // Every game's JSON says whether it is a shard or a merge of shards.
    if let Some(o) = r.json.as_object_mut() {
        if run.meta.merged_from > 0 {
            o.insert("merged_from".into(), run.meta.merged_from.into());
        }
        if let Some(sh) = run.meta.shard {
            o.entry("shard")
                .or_insert_with(|| serde_json::json!({"k": sh.k, "n": sh.n}));
        }
    }
    Ok(r)
}

/// A run's report and plots, as the name-keyed commands get them.
pub struct Rendered {
    pub report: Report,
    pub plots: crate::report::Plots,
    pub interrupted: bool,
    /// An output of the run that could not be written (see `Run::unsaved`).
    pub unsaved: Option<String>,
}

impl From<Rendered> for JobOutcome {
    fn from(r: Rendered) -> JobOutcome {
        JobOutcome::Report {
            report: r.report,
            plots: r.plots,
            status: crate::job::Status::ran(r.interrupted),
            unsaved: r.unsaved,
        }
    }
}

pub fn rendered<G: Game>(mut run: Run<G>, claim: Option<f64>) -> Result<Rendered, G::Error> {
    let report = report(&run, claim)?;
    let interrupted = run.meta.interrupted;
    let unsaved = run.unsaved.take().map(|e| e.to_string());
    Ok(Rendered {
        report,
        plots: Box::new(move || G::plots(&run, claim)),
        interrupted,
        unsaved,
    })
}
