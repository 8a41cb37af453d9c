//! The Game contract and the one run path every game shares.
//!
//! A game implements [`Game`] once: its validated, serializable configuration (which is also
//! its part of the shard key), its plan (how a run maps onto chunks), its accumulators, how it
//! prepares a simulation, its report and plots, and the sums `check` compares. Everything else
//! — running in parallel, `--shard`, shard files, `merge`, `--out-dir`, `check` — is done here
//! once for every game (`run.rs`: simulate, resume, merge, report; `baseline.rs`: a baseline's
//! check), and reached by name through an [`Entry`] of the registry the binary keeps.
//! `coin.rs` (compiled with the tests) is a whole game in one file: the worked example of
//! adding one.

mod baseline;
#[cfg(test)]
pub(crate) mod coin;
mod run;
pub mod serve;

pub use baseline::{
    check_baseline, load_baseline, moved_fields, AnyError, BaselineFile, Expected, ExpectedWager,
    Outcome, PendingCheck, SideEntry, WagerOutcome,
};
pub use run::{merge, rendered, report, simulate, Rendered};

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::de::DeserializeOwned;
use serde::Serialize;

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
    /// `prepare` where the set-up is long work that a signal stops (Dice of Doom's two-player
    /// solve, its progress kept to resume from): `stop` raised ends it with the game's error,
    /// which says where the work is kept. The run path calls this; by default `prepare`.
    fn prepare_until(
        cfg: &Self::Config,
        seed: u64,
        chunk: Option<u64>,
        shards: u64,
        _stop: &AtomicBool,
    ) -> Result<Prepared<Self>, Self::Error> {
        Self::prepare(cfg, seed, chunk, shards)
    }
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
    /// What a chunk of `cfg`'s run counts ("shoes", "turns").
    fn chunk_unit(cfg: &Self::Config) -> &'static str;

    /// The side wagers a run of `cfg` places beside its headline (`--side`), in order: each
    /// one's name and exact RTP per unit staked. `compare` reports every configuration's
    /// measured RTP of each beside it; none by default.
    fn wagers(_cfg: &Self::Config) -> Vec<WagerInfo> {
        Vec::new()
    }
    /// Those wagers' sums in `acc`, in the same order: each a ratio of net result to units
    /// staked (x/y is the RTP less 1), one batch a chunk.
    fn wager_sums(_cfg: &Self::Config, _acc: &Self::Acc) -> Vec<Ratio> {
        Vec::new()
    }

    /// How `monitor` reads this game's reports where they differ from what every report
    /// states (`None`: its reports are not held against live play).
    const MONITOR: Option<crate::monitor::Reader> = None;

    /// How `risk` reads the EV and SD per round of this game's reports (`None`: its reports
    /// state none in units of money; `risk` takes them from `--ev` and `--sd`).
    const RISK: Option<crate::risk::Reader> = None;
}

/// A side wager of a configuration: its name in reports and its exact RTP per unit staked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WagerInfo {
    pub name: String,
    pub exact_rtp: f64,
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
    /// Each side bet's own tolerance in SE, where the baseline gives one (in the order of
    /// `Game::wagers`); none by default.
    fn side_z(&self) -> Vec<Option<f64>> {
        Vec::new()
    }
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
    /// The progress bar's label (`None`: the game's name), for a run that is a stage of
    /// larger work ("audit: simulating auto-play").
    pub label: Option<String>,
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

/// A game as the name-keyed commands (`merge`, `check`, `monitor`, `risk`) reach it: the binary keeps
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
    /// How `risk` reads the game's reports (`Game::RISK`).
    pub risk: Option<crate::risk::Reader>,
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
            risk: G::RISK,
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

    use super::coin::*;

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
