//! The Game contract and the one run path every game shares.
//!
//! A game implements [`Game`] once: its validated, serializable configuration (which is also
//! its part of the shard key), its plan (how a run maps onto chunks), its accumulators, how it
//! prepares a simulation, its report and plots, and the sums `check` compares. Everything else
//! — running in parallel, `--shard`, shard files, `merge`, `--out-dir`, `check` — is done here
//! once for every game, and reached by name through [`registry`].

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::engine::{Merge, Simulation};
use crate::job::{Ctx, Error as JobError, Job, Outcome as JobOutcome, Outputs};
use crate::report::{PlotError, Report, RunMeta};
use crate::shard::{Plausible, ShardError, ShardSpec};
use crate::stats::Ratio;

/// A simulation of one game, as the engine runs it (one dynamic call per chunk; the rounds
/// inside a chunk are monomorphized).
pub type BoxedSim<A> = Box<dyn Simulation<Acc = A> + Send>;

/// Most turns or games of one dice-game run (blackjack counts rounds, with its own limits per
/// shard and per run: see `blackjack::sim::MAX_ROUNDS`).
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// A planned run: the plan and the simulation that carries it out.
pub type Prepared<G> = (<G as Game>::Plan, BoxedSim<<G as Game>::Acc>);

/// One game: everything the shared run path needs of it.
pub trait Game: 'static {
    /// The name on the command line, in reports and in shard files (`key.game`).
    const NAME: &'static str;
    /// The validated run request: rules, strategies, how many rounds/turns/games. Serialized
    /// into every shard key; fields named `label` are names for reports (such as the path a
    /// chart was read from) and not part of a run's identity.
    type Config: Serialize + DeserializeOwned + Clone + Send + Sync;
    /// How the run maps onto chunks (and anything a report needs that the game worked out
    /// while planning). Part of the shard key.
    type Plan: Chunks + Serialize + DeserializeOwned + Clone + Send + Sync;
    /// The run's sums: merge exactly, `Default` is the identity.
    type Acc: Merge + Plausible + Serialize + DeserializeOwned + Clone + Send + Sync;
    /// The game's typed error.
    type Error: std::error::Error + From<RunError> + Send + Sync + 'static;
    /// The game's part of a baseline file of `check` (a small fixed run request; the
    /// envelope every game shares — name, seed, recorded sums, expected value — is
    /// [`BaselineFile`]).
    type Baseline: Baseline<Self>;

    /// Check the configuration; every way in (command line, baseline, shard key) passes here.
    fn validate(cfg: &Self::Config) -> Result<(), Self::Error>;
    /// Plan the run (`chunk`: the chunk size asked for, in the game's own unit; `shards`: how
    /// many shards the run is split into) and build the simulation.
    fn prepare(
        cfg: &Self::Config,
        seed: u64,
        chunk: Option<u64>,
        shards: u64,
    ) -> Result<Prepared<Self>, Self::Error>;
    /// The report of a run (complete, interrupted, a shard, or merged).
    fn report(run: &Run<Self>, claim: Option<f64>) -> Result<Report, Self::Error>;
    /// The run's plots as (file name, SVG text).
    fn plots(run: &Run<Self>, claim: Option<f64>) -> Result<Vec<(String, String)>, PlotError>;

    /// What the headline estimate of a run of `cfg` is: the figure `check` tests and
    /// `compare` pairs.
    fn headline_kind(cfg: &Self::Config) -> HeadlineKind;
    /// The headline estimate's sums in a run of `cfg`: a ratio Σx/Σy whose per-chunk sums
    /// pair up across configurations in `compare`.
    fn headline(cfg: &Self::Config, acc: &Self::Acc) -> Headline;

    /// The name (and content hash, if any) of a configuration's strategy.
    fn label(cfg: &Self::Config) -> Label;
    /// The configuration's rules in one line.
    fn rules_line(cfg: &Self::Config) -> String;

    /// How `monitor` reads this game's reports where they differ from what every report
    /// states (`None`: its reports are not held against live play).
    const MONITOR: Option<crate::monitor::Reader> = None;
}

/// How a run maps onto chunks.
pub trait Chunks {
    /// Chunks of the whole run.
    fn chunks(&self) -> u64;
    /// The chunk size in the game's unit (what `RunSpec::chunk` asks for).
    fn chunk_size(&self) -> u64;
}

/// A game's part of a baseline file: the run it asks for, the sums `check` compares bit for
/// bit, and the exact expected value of the headline estimate.
pub trait Baseline<G: Game + ?Sized>: Serialize + DeserializeOwned {
    /// The baseline's run: configuration and chunk size.
    fn run(&self) -> Result<(G::Config, u64), G::Error>;
    /// The sums `check` compares bit for bit.
    fn sums(acc: &G::Acc) -> serde_json::Value;
    /// The exact expected value of the headline estimate, where the game knows it.
    fn expected(cfg: &G::Config) -> Result<Option<Expected>, G::Error>;
}

/// What a headline estimate is: its name, unit and print format, whether it is a return to
/// player (so `--claim` can test it), and whether `compare` pairs SCOREs beside it.
#[derive(Clone, Copy, Debug)]
pub struct HeadlineKind {
    /// What it is, e.g. "EV per initial bet".
    pub what: &'static str,
    /// Its unit in CSV and JSON (`fraction` for a return, `points`, ...).
    pub unit: &'static str,
    /// How `check` and `compare` print a value of it.
    pub format: fn(f64) -> String,
    /// Whether it is a return to player (`--claim` tests it).
    pub claims: bool,
    /// Whether `compare` also pairs SCOREs (10^6 (EV/SD)², SD per observation).
    pub score: bool,
    /// What the headline ratio is divided by to give the estimate (money units per bet).
    pub scale: f64,
}

impl HeadlineKind {
    /// The estimate of a headline ratio and its standard error.
    pub fn estimate(&self, r: &Ratio) -> (f64, f64) {
        (r.mean() / self.scale, r.se() / self.scale)
    }
}

/// Three decimals: how points print.
pub fn three_decimals(v: f64) -> String {
    format!("{v:.3}")
}

/// A percentage with four decimals: how a return prints.
pub fn percent4(v: f64) -> String {
    format!("{:.4}%", v * 100.0)
}

/// A run's headline sums: the ratio Σx/Σy and the observations it counts (rounds, turns,
/// games).
#[derive(Clone, Copy, Debug)]
pub struct Headline {
    pub ratio: Ratio,
    pub count: u64,
}

/// What a comparison calls a configuration's strategy.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Label {
    pub name: String,
    /// A content hash for strategies read from files (charts).
    pub hash: Option<String>,
}

/// Why a comparison is never sharded (said wherever sharding one is refused).
pub const COMPARE_IN_ONE_PROCESS: &str =
    "compare runs every strategy on the same streams in one process: it cannot be sharded or checkpointed";

/// Errors of the shared run path, each saying what to change: the run request's, and the
/// shard files' and the engine's beneath it (a game's error holds them all as one variant).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Shard(#[from] ShardError),
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
    #[error("--claim: {game} has no return to player to test a claim against; leave out --claim")]
    NoClaim { game: &'static str },
    #[error("the chunk size must be positive")]
    ZeroChunk,
    #[error("--shard {k}/{n}: the run has only {chunks} chunks, so {empty} of its {n} shards would select no chunk; run at most {chunks} shards (or more rounds, or a smaller chunk size)")]
    EmptyShards {
        k: u64,
        n: u64,
        chunks: u64,
        empty: u64,
    },
    #[error("compare needs at least two strategies")]
    CompareNeedsTwo,
    #[error("{COMPARE_IN_ONE_PROCESS} (leave out --shard, --shards and --shard-out)")]
    CompareSharded,
    #[error("--checkpoint needs --shard-out FILE: the checkpoint is that file")]
    CheckpointNeedsShardOut,
    #[error("--checkpoint: the interval must be positive (e.g. 60s, 5m, 1h)")]
    ZeroCheckpoint,
    #[error("--shard-out {file} exists and cannot be resumed: {why}. It was left as it is: delete it to start this shard over, or choose another --shard-out")]
    Unresumable { file: String, why: String },
    #[error("--shard-out {file} holds the shard file of {what}. It was left as it is: delete it to start this shard over, or choose another --shard-out")]
    OtherRun { file: String, what: String },
}

crate::job::carried!(RunError);

/// A baseline file of `check`: the envelope every game shares around the game's own run
/// request (`Game::Baseline`, whose fields sit beside these in the file).
#[derive(Serialize, Deserialize)]
pub struct BaselineFile<B> {
    pub name: String,
    pub game: String,
    pub seed: u64,
    #[serde(flatten)]
    pub run: B,
    /// Exact sums of the run (filled by `--bless`).
    #[serde(default)]
    pub sums: Option<serde_json::Value>,
    /// The expected value of the headline estimate and where it comes from (exact analysis).
    #[serde(default)]
    pub expected: Option<Expected>,
}

/// An expected value and where it comes from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Expected {
    pub ev: f64,
    pub source: String,
}

/// How to run: the one run specification of every game.
#[derive(Clone, Debug, Default)]
pub struct RunSpec {
    pub seed: u64,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// Chunk size in the game's unit (`None`: the game's default).
    pub chunk: Option<u64>,
    /// Run only this shard of the run's chunks.
    pub shard: Option<ShardSpec>,
    /// Write the run's (or shard's) sums here for `merge`.
    pub shard_out: Option<PathBuf>,
    /// Show a progress bar on standard error (when it is a terminal).
    pub progress: bool,
    /// Save the shard file (`shard_out`) every this long while the run goes on, so that a
    /// killed run can be resumed from it.
    pub checkpoint: Option<std::time::Duration>,
}

/// A run's result: what was asked, how it was planned, its sums, and how it went.
pub struct Run<G: Game + ?Sized> {
    pub config: G::Config,
    pub plan: G::Plan,
    pub acc: G::Acc,
    pub meta: RunMeta,
    /// The run's `--shard-out` file could not be written at the end (the error says where
    /// its sums were saved instead); the report is still written.
    pub unsaved: Option<crate::shard::ShardError>,
}

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
    if spec.chunk == Some(0) {
        return Err(RunError::ZeroChunk.into());
    }
    if spec.checkpoint.is_some() && spec.shard_out.is_none() {
        return Err(RunError::CheckpointNeedsShardOut.into());
    }
    if spec.checkpoint == Some(std::time::Duration::ZERO) {
        return Err(RunError::ZeroCheckpoint.into());
    }
    let shards = spec.shard.map_or(1, |s| s.n);
    let setup = std::time::Instant::now();
    let (plan, sim) = G::prepare(&cfg, spec.seed, spec.chunk, shards)?;
    let setup_s = setup.elapsed().as_secs_f64();
    let total = plan.chunks();
    if let Some(s) = spec.shard.filter(|s| s.n > total) {
        return Err(RunError::EmptyShards {
            k: s.k,
            n: s.n,
            chunks: total,
            empty: s.n - total,
        }
        .into());
    }
    let chunks = spec.shard.map_or(0..total, |s| s.range(total));
    let opts = crate::engine::RunOptions {
        seed: spec.seed,
        chunks: chunks.clone(),
        threads: spec.threads,
        progress: spec.progress,
        label: G::NAME.to_string(),
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
            seed: spec.seed,
            elapsed_s: elapsed0,
            setup_s,
            threads: spec.threads.unwrap_or_else(rayon::current_num_threads),
            chunks_done: done0,
            chunks_planned: len,
            shard: spec.shard,
            chunk_range: [chunks.start, chunks.end],
            resumed_from_chunk: Some(chunks.end),
            already_complete: true,
            ..RunMeta::default()
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
                eprintln!("warning: checkpoint not saved: {e}");
            }
        }
    };
    let checkpoint = spec.checkpoint.map(|every| crate::engine::Checkpoint {
        every,
        save: &mut save,
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

/// The shard file at `path`, if there is one that this run (key `key`, shard `shard`, chunks
/// `range`) continues: `None` when there is no file; an error, leaving the file as it is,
/// when the file is not of this run and shard or cannot be trusted.
fn resume_point<G: Game>(
    path: &Path,
    key: &serde_json::Value,
    shard: Option<ShardSpec>,
    range: &std::ops::Range<u64>,
) -> Result<Option<crate::shard::ShardFile<G::Acc>>, RunError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
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
    if f.format != crate::shard::FORMAT && f.chunks_done < range.end - range.start {
        return Err(RunError::Unresumable {
            file,
            why: format!(
                "it is an interrupted shard in the older format {}, whose finished chunks are not the first ones of its range",
                f.format
            ),
        });
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

fn rendered<G: Game>(mut run: Run<G>, claim: Option<f64>) -> Result<Rendered, G::Error> {
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

/// An error of a name-keyed command, from whichever game.
pub type AnyError = Box<dyn std::error::Error + Send + Sync>;

/// A baseline file read and its run set up, not yet run (called with the tolerance in SE and
/// whether to bless). `check` loads every baseline before it runs any, so a bad file is refused
/// before the work starts.
pub type PendingCheck = Box<dyn FnOnce(f64, bool) -> Result<Outcome, AnyError>>;

/// What `check` found for one baseline.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub file: PathBuf,
    pub name: String,
    pub game: String,
    /// Rounds, turns or games run.
    pub count: u64,
    /// The headline estimate and its SE, as its kind prints them.
    pub ev: f64,
    pub se: f64,
    pub expected: Option<f64>,
    pub z: Option<f64>,
    pub moved: Vec<String>,
    pub ok: bool,
    /// With `--bless`, the baseline file's new text, written by `write_blessed` once every
    /// baseline has run (so a failure leaves every file as it was).
    pub blessed: Option<String>,
    /// What the estimate is, its unit and format.
    pub kind: HeadlineKind,
}

/// Names and values of the fields of `new` that differ from `old`.
pub fn moved_fields(new: &serde_json::Value, old: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (new.as_object(), old.as_object()) {
        for (k, v) in a {
            if b.get(k) != Some(v) {
                out.push(format!(
                    "{k} {} -> {}",
                    b.get(k).cloned().unwrap_or_default(),
                    v
                ));
            }
        }
    }
    out
}

/// The first key (as a path, `rules.dekcs`) of `given` that `known` (the same file read and
/// written back) does not have, in objects present in both.
fn unknown_key(given: &serde_json::Value, known: &serde_json::Value, at: &str) -> Option<String> {
    let (serde_json::Value::Object(g), serde_json::Value::Object(k)) = (given, known) else {
        return None;
    };
    for (key, v) in g {
        let path = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        match k.get(key) {
            None => return Some(path),
            Some(kv) => {
                if let Some(u) = unknown_key(v, kv, &path) {
                    return Some(u);
                }
            }
        }
    }
    None
}

/// Read one baseline of `G` and set up its run: the file's keys and run settings are checked
/// here, before anything runs. The returned check re-runs it and compares (or, with `bless`,
/// records) its sums.
pub fn load_baseline<G: Game>(
    file: &Path,
    value: serde_json::Value,
) -> Result<PendingCheck, AnyError> {
    let b: BaselineFile<G::Baseline> = serde_json::from_value(value.clone()).map_err(|e| {
        format!(
            "not a {} baseline file ({e}); see reports/README.md",
            G::NAME
        )
    })?;
    // A misspelt key would otherwise be ignored and its default used: every key of the file
    // must be one the baseline writes back (serde's deny_unknown_fields cannot be combined
    // with the flattened game part).
    let back = serde_json::to_value(&b).map_err(|e| e.to_string())?;
    if let Some(key) = unknown_key(&value, &back, "") {
        return Err(format!(
            "unknown key '{key}' in the {} baseline file; see reports/README.md for its keys",
            G::NAME
        )
        .into());
    }
    let (cfg, chunk) = b.run.run()?;
    let file = file.to_path_buf();
    Ok(Box::new(move |z_limit, bless| {
        run_baseline::<G>(&file, b, cfg, chunk, z_limit, bless)
    }))
}

/// Check one baseline file (parsed JSON): load it, run it, compare.
pub fn check_baseline<G: Game>(
    file: &Path,
    value: serde_json::Value,
    z_limit: f64,
    bless: bool,
) -> Result<Outcome, AnyError> {
    let o = load_baseline::<G>(file, value)?(z_limit, bless)?;
    o.write_blessed()?;
    Ok(o)
}

impl Outcome {
    /// Write a blessed baseline's new text (temporary file and rename); nothing without one.
    pub fn write_blessed(&self) -> Result<(), AnyError> {
        if let Some(text) = &self.blessed {
            crate::door::replace(&self.file, text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", self.file.display()))?;
        }
        Ok(())
    }
}

/// Run a loaded baseline and compare its sums and estimate (or, with `bless`, rewrite them).
fn run_baseline<G: Game>(
    file: &Path,
    mut b: BaselineFile<G::Baseline>,
    cfg: G::Config,
    chunk: u64,
    z_limit: f64,
    bless: bool,
) -> Result<Outcome, AnyError> {
    let spec = RunSpec {
        seed: b.seed,
        chunk: Some(chunk),
        ..RunSpec::default()
    };
    let expected_now = if bless {
        G::Baseline::expected(&cfg)?
    } else {
        None
    };
    let kind = G::headline_kind(&cfg);
    let run = simulate::<G>(cfg, &spec, &AtomicBool::new(false))?;
    let sums = G::Baseline::sums(&run.acc);
    let moved = match &b.sums {
        Some(old) => moved_fields(&sums, old),
        None => vec!["(no sums recorded yet)".into()],
    };
    let blessed = if bless {
        b.sums = Some(sums);
        b.expected = expected_now;
        Some(serde_json::to_string_pretty(&b).map_err(|e| e.to_string())? + "\n")
    } else {
        None
    };
    let headline = G::headline(&run.config, &run.acc);
    let (count, (ev, se)) = (headline.count, kind.estimate(&headline.ratio));
    let expected = b.expected.as_ref().map(|e| e.ev);
    let z = expected.map(|e| (ev - e) / se);
    let ok = bless || (moved.is_empty() && z.map(|z| z.abs() <= z_limit).unwrap_or(true));
    Ok(Outcome {
        file: file.to_path_buf(),
        name: b.name.clone(),
        game: G::NAME.to_string(),
        count,
        ev,
        se,
        expected,
        z,
        moved,
        ok,
        blessed,
        kind,
    })
}

/// A game as the name-keyed commands (`merge`, `check`, `monitor`) reach it: the binary keeps
/// the registry (one `Entry::of` a game) and gives it to them.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    /// Merge shard files into the run's report and plots.
    pub merge: fn(&[PathBuf], Option<f64>) -> Result<Rendered, AnyError>,
    /// Load one baseline file (parsed JSON) and set up its run; the check runs later.
    pub check: fn(&Path, serde_json::Value) -> Result<PendingCheck, AnyError>,
    /// How `monitor` reads the game's reports (`Game::MONITOR`).
    pub monitor: Option<crate::monitor::Reader>,
}

impl Entry {
    /// The entry of game `G`.
    pub fn of<G: Game>() -> Entry {
        Entry {
            name: G::NAME,
            merge: |paths, claim| {
                let run = merge::<G>(paths)?;
                Ok(rendered(run, claim)?)
            },
            check: load_baseline::<G>,
            monitor: G::MONITOR,
        }
    }
}

/// The entry of the game named `name` among `games` (the registry, kept by the binary).
pub fn find<'a>(games: &'a [Entry], name: &str) -> Option<&'a Entry> {
    games.iter().find(|e| e.name == name)
}

/// A run's chunk size: `asked` when given, else the run's `units` spread over `spread`
/// chunks (so a run large enough has at least that many, for the threads and the SE's
/// batches), clamped to `range` (chunks small enough to stop promptly).
pub fn chunk_size(
    units: u64,
    asked: Option<u64>,
    spread: u64,
    range: std::ops::RangeInclusive<u64>,
) -> u64 {
    asked.unwrap_or_else(|| (units / spread).clamp(*range.start(), *range.end()))
}

/// The chunks of `size` units that cover a run of `units` (at least one).
pub fn chunk_count(units: u64, size: u64) -> u64 {
    units.div_ceil(size).max(1)
}

/// Who moves when in a game of seats taking turns in order: the starting seat (fixed, or
/// rotating with the game's number so that every seat starts equally often), the seat on
/// each turn, and each seat's position in the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rotation {
    pub start: usize,
    pub seats: usize,
}

impl Rotation {
    /// Game number `game`'s order: seat `fixed` starts, or seat `game mod seats`.
    #[inline]
    pub fn of_game(fixed: Option<usize>, game: u64, seats: usize) -> Rotation {
        Rotation {
            start: fixed.unwrap_or((game % seats as u64) as usize),
            seats,
        }
    }

    /// The seat that moves on turn `turn` (0: the starting seat), round after round.
    #[inline]
    pub fn seat(&self, turn: usize) -> usize {
        (self.start + turn) % self.seats
    }

    /// Where `seat` moves in a round (0: first).
    #[inline]
    pub fn position(&self, seat: usize) -> usize {
        (seat + self.seats - self.start) % self.seats
    }
}

/// `sim GAME`: a configuration, how to run it, a claimed RTP to test, where the report goes.
pub struct SimJob<G: Game> {
    pub config: G::Config,
    pub spec: RunSpec,
    pub claim: Option<f64>,
    pub outputs: Outputs,
}

impl<G: Game> Job for SimJob<G>
where
    JobError: From<G::Error>,
{
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<JobOutcome, JobError> {
        Ok(sim_rendered::<G>(self.config, &self.spec, self.claim, ctx.stop)?.into())
    }
}

/// Simulate and render: what `sim GAME` does.
pub fn sim_rendered<G: Game>(
    cfg: G::Config,
    spec: &RunSpec,
    claim: Option<f64>,
    stop: &AtomicBool,
) -> Result<Rendered, G::Error> {
    let run = simulate::<G>(cfg, spec, stop)?;
    rendered(run, claim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngCore;

    /// A toy game: coin flips, heads count 1.
    struct Coin;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct CoinConfig {
        flips: u64,
        label: String,
    }

    crate::sums::sums! {
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        struct CoinAcc {
            flips: u64 => unbounded("a run flips any number of coins"),
            heads: u64 => at_most(c.flips, "flips"),
            /// The share of heads, one batch per chunk.
            share: Ratio => ratio("share of heads", 1, 1, true),
        }
        bounds(c)
    }

    #[derive(Debug, thiserror::Error)]
    enum CoinError {
        #[error("no flips")]
        NoFlips,
        #[error(transparent)]
        Run(#[from] RunError),
    }

    struct CoinSim {
        flips: u64,
        per_chunk: u64,
    }
    impl Simulation for CoinSim {
        type Acc = CoinAcc;
        fn run_chunk(&self, chunk: u64, rng: &mut crate::rng::Rng, acc: &mut CoinAcc) {
            let n = self
                .per_chunk
                .min(self.flips.saturating_sub(chunk * self.per_chunk));
            let mut heads = 0;
            for _ in 0..n {
                heads += rng.next_u64() >> 63;
            }
            acc.heads += heads;
            acc.flips += n;
            let b = crate::stats::Batch {
                x: heads as i64,
                y: n as i64,
                xx: heads as i64,
            };
            acc.share.close(&b, n);
        }
    }

    #[derive(Serialize, Deserialize)]
    struct CoinBaseline {
        flips: u64,
    }

    impl Game for Coin {
        const NAME: &'static str = "coin";
        type Config = CoinConfig;
        type Plan = CoinPlan;
        type Acc = CoinAcc;
        type Error = CoinError;
        type Baseline = CoinBaseline;

        fn headline_kind(_cfg: &CoinConfig) -> HeadlineKind {
            HeadlineKind {
                what: "share of heads",
                unit: "fraction",
                format: three_decimals,
                claims: false,
                score: false,
                scale: 1.0,
            }
        }
        fn headline(_cfg: &CoinConfig, acc: &CoinAcc) -> Headline {
            Headline {
                ratio: acc.share,
                count: acc.flips,
            }
        }
        fn label(cfg: &CoinConfig) -> Label {
            Label {
                name: format!("coin of {}", cfg.flips),
                hash: None,
            }
        }
        fn rules_line(_cfg: &CoinConfig) -> String {
            "a fair coin".into()
        }

        fn validate(cfg: &CoinConfig) -> Result<(), CoinError> {
            if cfg.flips == 0 {
                return Err(CoinError::NoFlips);
            }
            Ok(())
        }
        fn prepare(
            cfg: &CoinConfig,
            _seed: u64,
            chunk: Option<u64>,
            _shards: u64,
        ) -> Result<Prepared<Coin>, CoinError> {
            let per_chunk = chunk.unwrap_or(100);
            let sim = CoinSim {
                flips: cfg.flips,
                per_chunk,
            };
            let plan = CoinPlan {
                per_chunk,
                chunks: cfg.flips.div_ceil(per_chunk),
            };
            Ok((plan, Box::new(sim)))
        }
        fn report(run: &Run<Coin>, _claim: Option<f64>) -> Result<Report, CoinError> {
            Ok(Report {
                title: format!("{} heads of {}", run.acc.heads, run.acc.flips),
                ..Report::default()
            })
        }
        fn plots(
            _run: &Run<Coin>,
            _claim: Option<f64>,
        ) -> Result<Vec<(String, String)>, PlotError> {
            Ok(Vec::new())
        }
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct CoinPlan {
        per_chunk: u64,
        chunks: u64,
    }

    impl Chunks for CoinPlan {
        fn chunks(&self) -> u64 {
            self.chunks
        }
        fn chunk_size(&self) -> u64 {
            self.per_chunk
        }
    }

    impl Baseline<Coin> for CoinBaseline {
        fn run(&self) -> Result<(CoinConfig, u64), CoinError> {
            let cfg = CoinConfig {
                flips: self.flips,
                label: String::new(),
            };
            Ok((cfg, 50))
        }
        fn sums(acc: &CoinAcc) -> serde_json::Value {
            serde_json::to_value(acc).unwrap()
        }
        fn expected(_cfg: &CoinConfig) -> Result<Option<Expected>, CoinError> {
            Ok(Some(Expected {
                ev: 0.5,
                source: "a fair coin".into(),
            }))
        }
    }

    fn cfg(label: &str) -> CoinConfig {
        CoinConfig {
            flips: 10_000,
            label: label.into(),
        }
    }

    fn spec(threads: usize) -> RunSpec {
        RunSpec {
            seed: 7,
            threads: Some(threads),
            ..RunSpec::default()
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("rtplab-game-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_run_is_the_same_for_any_thread_count_and_says_how_it_went() {
        let go = AtomicBool::new(false);
        let one = simulate::<Coin>(cfg(""), &spec(1), &go).unwrap();
        let two = simulate::<Coin>(cfg(""), &spec(2), &go).unwrap();
        assert_eq!(one.acc, two.acc);
        assert_eq!(one.acc.flips, 10_000);
        assert!((4_800..5_200).contains(&one.acc.heads), "{:?}", one.acc);
        assert_eq!(
            one.plan,
            CoinPlan {
                per_chunk: 100,
                chunks: 100
            }
        );
        assert_eq!(
            (one.meta.seed, one.meta.threads, two.meta.threads),
            (7, 1, 2)
        );
        assert_eq!(
            (
                one.meta.chunks_done,
                one.meta.chunks_planned,
                one.meta.chunk_range
            ),
            (100, 100, [0, 100])
        );
        assert!(!one.meta.interrupted && one.meta.shard.is_none());
        // A stopped run reports what it finished (nothing).
        let stopped = simulate::<Coin>(cfg(""), &spec(1), &AtomicBool::new(true)).unwrap();
        assert!(stopped.meta.interrupted);
        assert_eq!((stopped.acc.flips, stopped.meta.chunks_done), (0, 0));
        // Validation and the shared refusals.
        let e = simulate::<Coin>(
            CoinConfig {
                flips: 0,
                label: String::new(),
            },
            &spec(1),
            &go,
        );
        assert!(matches!(e, Err(CoinError::NoFlips)));
        let zero = RunSpec {
            chunk: Some(0),
            ..spec(1)
        };
        let e = simulate::<Coin>(cfg(""), &zero, &go).err().unwrap();
        assert!(matches!(e, CoinError::Run(RunError::ZeroChunk)));
        let e = report(&one, Some(0.99)).err().unwrap();
        assert_eq!(
            e.to_string(),
            "--claim: coin has no return to player to test a claim against; leave out --claim"
        );
        assert_eq!(
            report(&one, None).unwrap().title,
            format!("{} heads of 10000", one.acc.heads)
        );
    }

    #[test]
    fn shards_merge_to_the_whole_run_whatever_their_labels() {
        let d = scratch("shards");
        let go = AtomicBool::new(false);
        let whole = simulate::<Coin>(cfg("a"), &spec(2), &go).unwrap();
        let mut files = Vec::new();
        for k in 1..=3 {
            let f = d.join(format!("s{k}.json"));
            let s = RunSpec {
                shard: Some(ShardSpec { k, n: 3 }),
                shard_out: Some(f.clone()),
                ..spec(1)
            };
            // A label (a name for reports) may differ between shards of one run.
            let run = simulate::<Coin>(cfg(&format!("label {k}")), &s, &go).unwrap();
            assert_eq!(run.meta.shard, Some(ShardSpec { k, n: 3 }));
            if k == 2 {
                assert_eq!(run.meta.chunk_range, [33, 66]);
                let r = report(&run, None).unwrap();
                assert_eq!(
                    r.notes,
                    ["Shard 2/3: chunks 33..66 of 100; merge the shard files for the run's report."]
                );
            }
            files.push(f);
        }
        files.reverse();
        let merged = merge::<Coin>(&files).unwrap();
        assert_eq!(merged.acc, whole.acc);
        assert_eq!(merged.plan, whole.plan);
        assert_eq!(merged.config.flips, 10_000);
        assert_eq!(
            (
                merged.meta.merged_from,
                merged.meta.chunks_done,
                merged.meta.seed
            ),
            (3, 100, 7)
        );
        let r = report(&merged, None).unwrap();
        assert_eq!(
            r.notes,
            ["Merged from 3 shard files; elapsed is the sum of the shards' times."]
        );
        let mut one = merged;
        one.meta.merged_from = 1;
        assert_eq!(
            report(&one, None).unwrap().notes,
            ["Merged from 1 shard file; elapsed is the sum of the shards' times."]
        );
        // A shard of another run (another flip count) is refused, naming the field.
        let other = d.join("other.json");
        let s = RunSpec {
            shard: Some(ShardSpec { k: 1, n: 3 }),
            shard_out: Some(other.clone()),
            ..spec(1)
        };
        let cfg2 = CoinConfig {
            flips: 10_001,
            ..cfg("a")
        };
        simulate::<Coin>(cfg2, &s, &go).unwrap();
        let e = merge::<Coin>(&[other, files[0].clone(), files[1].clone()])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("config.flips"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_shard_file_resumes_is_read_when_finished_and_is_never_overwritten_by_another_run() {
        let d = scratch("resume");
        let go = AtomicBool::new(false);
        let spec_of = |f: &Path| RunSpec {
            shard: Some(ShardSpec { k: 2, n: 3 }),
            shard_out: Some(f.to_path_buf()),
            ..spec(2)
        };
        let (whole, part) = (d.join("whole.json"), d.join("part.json"));
        let full = simulate::<Coin>(cfg(""), &spec_of(&whole), &go).unwrap();
        // Stopped before any chunk: a file of 0 chunks done, marked resumable.
        let stopped = simulate::<Coin>(cfg(""), &spec_of(&part), &AtomicBool::new(true)).unwrap();
        assert!(stopped.meta.interrupted && stopped.meta.resumable);
        assert!(report(&stopped, None)
            .unwrap()
            .notes
            .iter()
            .any(|n| n.contains("resume from chunk 33")));
        // Resumed: the whole shard's sums and file (but for the time).
        let resumed = simulate::<Coin>(cfg(""), &spec_of(&part), &go).unwrap();
        assert_eq!(resumed.acc, full.acc);
        assert_eq!(resumed.meta.resumed_from_chunk, Some(33));
        assert!(!resumed.meta.interrupted && !resumed.meta.resumable);
        let r = report(&resumed, None).unwrap();
        // (The toy's report has no JSON model; every game's does, and gets `resumed_from_chunk`.)
        assert!(
            r.notes.iter().any(|n| n.starts_with(
                "Resumed from the shard file's checkpoint at chunk 33 (0 of 33 chunks were done)"
            )),
            "{:?}",
            r.notes
        );
        let read = |p: &Path| {
            let mut f: crate::shard::ShardFile<CoinAcc> =
                serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            f.elapsed_s = 0.0;
            f
        };
        assert_eq!(read(&part), read(&whole));
        // Finished: read, not recomputed.
        let again = simulate::<Coin>(cfg(""), &spec_of(&part), &go).unwrap();
        assert!(again.meta.already_complete);
        assert_eq!((again.acc, again.meta.chunks_done), (full.acc, 33));
        // Another run's file is refused and left as it is.
        let before = std::fs::read(&part).unwrap();
        let other = CoinConfig {
            flips: 9_999,
            ..cfg("")
        };
        let e = simulate::<Coin>(other, &spec_of(&part), &go)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("another run: the runs differ in config.flips"),
            "{e}"
        );
        assert_eq!(std::fs::read(&part).unwrap(), before);
        let e = RunSpec {
            checkpoint: Some(std::time::Duration::from_secs(1)),
            ..spec(1)
        };
        assert!(matches!(
            simulate::<Coin>(cfg(""), &e, &go),
            Err(CoinError::Run(RunError::CheckpointNeedsShardOut))
        ));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_baseline_is_blessed_then_checked_bit_for_bit() {
        let d = scratch("baseline");
        let f = d.join("coin.json");
        let b = serde_json::json!({"name": "toss", "game": "coin", "flips": 4000, "seed": 3});
        let first = check_baseline::<Coin>(&f, b.clone(), 4.0, false).unwrap();
        assert_eq!(first.moved, ["(no sums recorded yet)"]);
        assert!(!first.ok);
        let blessed = check_baseline::<Coin>(&f, b, 4.0, true).unwrap();
        assert!(blessed.ok);
        let text: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert_eq!(text["sums"]["flips"], 4000);
        assert_eq!(text["expected"]["ev"], 0.5);
        let again = check_baseline::<Coin>(&f, text.clone(), 4.0, false).unwrap();
        assert!(again.ok && again.moved.is_empty(), "{again:?}");
        assert_eq!(
            (again.count, again.expected, again.kind.what),
            (4000, Some(0.5), "share of heads")
        );
        let z = again.z.unwrap();
        assert!((z - (again.ev - 0.5) / again.se).abs() < 1e-12);
        let mut moved = text;
        moved["sums"]["heads"] = 1.into();
        let m = check_baseline::<Coin>(&f, moved, 4.0, false).unwrap();
        assert!(!m.ok);
        assert_eq!(m.moved.len(), 1);
        assert!(m.moved[0].starts_with("heads 1 -> "), "{:?}", m.moved);
        let _ = std::fs::remove_dir_all(&d);
    }
}
