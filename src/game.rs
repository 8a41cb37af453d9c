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
use crate::report::{PlotError, Report, RunMeta};
use crate::shard::{Plausible, ShardError, ShardSpec};

/// A simulation of one game, as the engine runs it (one dynamic call per chunk; the rounds
/// inside a chunk are monomorphized).
pub type BoxedSim<A> = Box<dyn Simulation<Acc = A> + Send>;

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
    type Plan: Serialize + DeserializeOwned + Clone + Send + Sync;
    /// The run's sums: merge exactly, `Default` is the identity.
    type Acc: Merge + Plausible + Serialize + DeserializeOwned + Clone + Send + Sync;
    /// The game's typed error.
    type Error: std::error::Error
        + From<RunError>
        + From<ShardError>
        + From<crate::engine::EngineError>
        + Send
        + Sync
        + 'static;
    /// A baseline file of `check`: a small fixed run request with its recorded sums.
    type Baseline: Serialize + DeserializeOwned;

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
    /// Chunks of the whole run.
    fn chunks(plan: &Self::Plan) -> u64;
    /// The report of a run (complete, interrupted, a shard, or merged).
    fn report(run: &Run<Self>, claim: Option<f64>) -> Result<Report, Self::Error>;
    /// The run's plots as (file name, SVG text).
    fn plots(run: &Run<Self>, claim: Option<f64>) -> Result<Vec<(String, String)>, PlotError>;

    /// The baseline's run: configuration, seed and chunk size.
    fn baseline_run(b: &Self::Baseline) -> Result<(Self::Config, u64, u64), Self::Error>;
    /// The baseline's recorded sums and expected value (`None` until blessed).
    fn baseline_sums(b: &Self::Baseline) -> (Option<serde_json::Value>, Option<Expected>);
    /// Record new sums and expected value in the baseline (`check --bless`).
    fn bless(b: &mut Self::Baseline, sums: serde_json::Value, expected: Option<Expected>);
    /// The baseline's name.
    fn baseline_name(b: &Self::Baseline) -> String;
    /// The sums `check` compares bit for bit.
    fn sums(acc: &Self::Acc) -> serde_json::Value;
    /// The headline estimate `check` tests against the expected value: (count, value, SE).
    fn estimate(run: &Run<Self>) -> (u64, f64, f64);
    /// The exact expected value of the headline estimate, where the game knows it.
    fn expected(cfg: &Self::Config) -> Result<Option<Expected>, Self::Error>;
    /// Whether the game's report tests a claimed RTP (`--claim`).
    const CLAIMS: bool = false;
    /// What the headline estimate is, for `check`'s report.
    const ESTIMATE: &'static str;
    /// How `check` prints an estimate of this game.
    fn format_estimate(v: f64) -> String {
        format!("{v:.3}")
    }
}

/// Errors of the shared run path, each saying what to change.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RunError {
    #[error("--claim: {game} has no return to player to test a claim against; leave out --claim")]
    NoClaim { game: &'static str },
    #[error("the chunk size must be positive")]
    ZeroChunk,
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
}

/// A run's result: what was asked, how it was planned, its sums, and how it went.
pub struct Run<G: Game + ?Sized> {
    pub config: G::Config,
    pub plan: G::Plan,
    pub acc: G::Acc,
    pub meta: RunMeta,
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
        chunks: G::chunks(plan),
    })
    .map_err(|e| ShardError::KeyField {
        name: "config".into(),
        why: e.to_string(),
    })
}

/// Run a game (or the shard of it the spec names); write the shard file when asked.
pub fn simulate<G: Game>(
    cfg: G::Config,
    spec: &RunSpec,
    stop: &AtomicBool,
) -> Result<Run<G>, G::Error> {
    G::validate(&cfg)?;
    if spec.chunk == Some(0) {
        return Err(RunError::ZeroChunk.into());
    }
    let shards = spec.shard.map_or(1, |s| s.n);
    let (plan, sim) = G::prepare(&cfg, spec.seed, spec.chunk, shards)?;
    let total = G::chunks(&plan);
    let chunks = spec.shard.map_or(0..total, |s| s.range(total));
    let opts = crate::engine::RunOptions {
        seed: spec.seed,
        chunks: chunks.clone(),
        threads: spec.threads,
        progress: spec.progress,
        label: G::NAME.to_string(),
    };
    let out = crate::engine::run(&*sim, &opts, stop)?;
    let mut meta = RunMeta::of(spec.seed, &out);
    meta.shard = spec.shard;
    meta.chunk_range = [chunks.start, chunks.end];
    if let Some(path) = &spec.shard_out {
        let key = key_of::<G>(&cfg, &plan, spec.seed)?;
        crate::shard::write_shard_file(
            path,
            &key,
            spec.shard,
            &chunks,
            out.chunks_done,
            out.elapsed.as_secs_f64(),
            &out.acc,
        )?;
    }
    Ok(Run {
        config: cfg,
        plan,
        acc: out.acc,
        meta,
    })
}

/// Merge the shard files of one run of `G` (checked: one run, no gaps or overlaps, complete,
/// checksums, plausible sums).
pub fn merge<G: Game>(paths: &[PathBuf]) -> Result<Run<G>, G::Error> {
    let files = crate::shard::read_all::<G::Acc>(paths)?;
    let key: Key<G::Config, G::Plan> = serde_json::from_value(files[0].1.key.clone())
        .map_err(|e| ShardError::Read {
            file: files[0].0.display().to_string(),
            why: format!("its run key does not describe a {} run of this version ({e}); re-run the shards with this version", G::NAME),
        })?;
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
    })
}

/// The report of a run, with the notes every game's report carries (shard, merge).
pub fn report<G: Game>(run: &Run<G>, claim: Option<f64>) -> Result<Report, G::Error> {
    if claim.is_some() && !G::CLAIMS {
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
            G::chunks(&run.plan)
        ));
    }
    if run.meta.merged_from > 0 {
        r.notes.push(format!(
            "Merged from {} shard files; elapsed is the sum of the shards' times.",
            run.meta.merged_from
        ));
    }
    Ok(r)
}

/// A run's report and plots, as the name-keyed commands get them.
pub struct Rendered {
    pub report: Report,
    pub plots: crate::report::Plots,
    pub interrupted: bool,
}

fn rendered<G: Game>(run: Run<G>, claim: Option<f64>) -> Result<Rendered, G::Error> {
    let report = report(&run, claim)?;
    let interrupted = run.meta.interrupted;
    Ok(Rendered {
        report,
        plots: Box::new(move || G::plots(&run, claim)),
        interrupted,
    })
}

/// An error of a name-keyed command, from whichever game.
pub type AnyError = Box<dyn std::error::Error + Send + Sync>;

/// What `check` found for one baseline.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub file: PathBuf,
    pub name: String,
    pub game: String,
    /// Rounds, turns or games run.
    pub count: u64,
    /// The headline estimate and its SE, as `G::format_estimate` prints them.
    pub ev: f64,
    pub se: f64,
    pub expected: Option<f64>,
    pub z: Option<f64>,
    pub moved: Vec<String>,
    pub ok: bool,
    /// The estimate formatter of the game.
    pub format: fn(f64) -> String,
    /// What the estimate is (`Game::ESTIMATE`).
    pub estimate: &'static str,
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

/// Re-run one baseline of `G` and compare (or, with `bless`, record) its sums.
pub fn check_baseline<G: Game>(
    file: &Path,
    value: serde_json::Value,
    z_limit: f64,
    bless: bool,
) -> Result<Outcome, AnyError> {
    let mut b: G::Baseline = serde_json::from_value(value).map_err(|e| {
        format!(
            "not a {} baseline file ({e}); see reports/README.md",
            G::NAME
        )
    })?;
    let (cfg, seed, chunk) = G::baseline_run(&b)?;
    let spec = RunSpec {
        seed,
        chunk: Some(chunk),
        ..RunSpec::default()
    };
    let expected_now = if bless { G::expected(&cfg)? } else { None };
    let run = simulate::<G>(cfg, &spec, &AtomicBool::new(false))?;
    let sums = G::sums(&run.acc);
    let (old, mut expected) = G::baseline_sums(&b);
    let moved = match &old {
        Some(old) => moved_fields(&sums, old),
        None => vec!["(no sums recorded yet)".into()],
    };
    if bless {
        expected = expected_now.clone();
        G::bless(&mut b, sums, expected_now);
        let text = serde_json::to_string_pretty(&b).map_err(|e| e.to_string())? + "\n";
        std::fs::write(file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    let (count, ev, se) = G::estimate(&run);
    let expected = expected.map(|e| e.ev);
    let z = expected.map(|e| (ev - e) / se);
    let ok = bless || (moved.is_empty() && z.map(|z| z.abs() <= z_limit).unwrap_or(true));
    Ok(Outcome {
        file: file.to_path_buf(),
        name: G::baseline_name(&b),
        game: G::NAME.to_string(),
        count,
        ev,
        se,
        expected,
        z,
        moved,
        ok,
        format: G::format_estimate,
        estimate: G::ESTIMATE,
    })
}

/// A game as the name-keyed commands (`merge`, `check`) reach it.
pub struct Entry {
    pub name: &'static str,
    /// Merge shard files into the run's report and plots.
    pub merge: fn(&[PathBuf], Option<f64>) -> Result<Rendered, AnyError>,
    /// Check one baseline file (parsed JSON).
    pub check: fn(&Path, serde_json::Value, f64, bool) -> Result<Outcome, AnyError>,
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
            check: check_baseline::<G>,
        }
    }
}

/// Every game, one line each.
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::of::<crate::games::baccarat::Baccarat>(),
        Entry::of::<crate::games::blackjack::Blackjack>(),
        Entry::of::<crate::games::doom::Doom>(),
        Entry::of::<crate::games::twentyone::TwentyOne>(),
    ]
}

/// The registry entry of a game by name.
pub fn find(name: &str) -> Option<Entry> {
    registry().into_iter().find(|e| e.name == name)
}

/// Simulate and render: what `sim GAME` does after parsing its arguments.
pub fn sim_rendered<G: Game>(
    cfg: G::Config,
    spec: &RunSpec,
    claim: Option<f64>,
    stop: &AtomicBool,
) -> Result<Rendered, G::Error> {
    let run = simulate::<G>(cfg, spec, stop)?;
    rendered(run, claim)
}
