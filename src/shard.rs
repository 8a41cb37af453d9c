//! Shards: a run split into contiguous ranges of its global chunks, executed anywhere (Slurm
//! array tasks, Kubernetes indexed jobs), written as files, and merged exactly.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// File format tag of shard files.
pub const FORMAT: &str = "rtplab-shard-v1";

/// Which shard of how many (1-based `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    pub k: u64,
    pub n: u64,
}

/// Errors about shards, each saying what is wrong and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    #[error("--shard must look like K/N with 1 <= K <= N (e.g. 3/8), found '{0}'")]
    BadSpec(String),
    #[error("environment variable {name}='{value}' is not a whole number")]
    BadEnv { name: String, value: String },
    #[error("{0}")]
    Env(String),
    #[error("cannot read shard file {file}: {why}")]
    Read { file: String, why: String },
    #[error("cannot write shard file {file}: {why}")]
    Write { file: String, why: String },
    #[error("{0}")]
    Mismatch(String),
    #[error("{0}")]
    Input(String),
    #[error("shard key lacks '{0}'")]
    KeyMissing(String),
    #[error("shard key field '{name}': {why}")]
    KeyField { name: String, why: String },
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
}

impl ShardSpec {
    /// Parse `K/N`.
    pub fn parse(s: &str) -> Result<ShardSpec, ShardError> {
        let bad = || ShardError::BadSpec(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(ShardSpec { k, n })
    }

    /// The shard from `--shard`, or else from the scheduler's environment:
    /// Slurm array jobs (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`,
    /// `SLURM_ARRAY_TASK_COUNT`) or a Kubernetes indexed job (`JOB_COMPLETION_INDEX`, 0-based,
    /// with `--shards N`). `env` looks a variable up (tests pass their own).
    pub fn resolve(
        flag: Option<&str>,
        shards: Option<u64>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<ShardSpec>, ShardError> {
        if let Some(s) = flag {
            return ShardSpec::parse(s).map(Some);
        }
        let num = |name: &str| -> Result<Option<u64>, ShardError> {
            match env(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| ShardError::BadEnv {
                    name: name.to_string(),
                    value: v,
                }),
            }
        };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let count = match num("SLURM_ARRAY_TASK_COUNT")? {
                Some(c) => c,
                None => shards.ok_or_else(|| {
                    ShardError::Env("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; pass --shards N".into())
                })?,
            };
            if id < min || id - min >= count {
                return Err(ShardError::Env(format!(
                    "SLURM_ARRAY_TASK_ID={id} is outside the array {min}..{} (SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT); use a contiguous array such as --array=1-{count}",
                    min + count - 1
                )));
            }
            return Ok(Some(ShardSpec {
                k: id - min + 1,
                n: count,
            }));
        }
        if let Some(idx) = num("JOB_COMPLETION_INDEX")? {
            let n = shards.ok_or_else(|| {
                ShardError::Env("JOB_COMPLETION_INDEX is set (Kubernetes indexed job); pass --shards N with the job's completions".into())
            })?;
            if idx >= n {
                return Err(ShardError::Env(format!(
                    "JOB_COMPLETION_INDEX={idx} is not below --shards {n}"
                )));
            }
            return Ok(Some(ShardSpec { k: idx + 1, n }));
        }
        if shards.is_some() {
            return Err(ShardError::Env(
                "--shards N needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID in the environment; or use --shard K/N".into(),
            ));
        }
        Ok(None)
    }

    /// This shard's contiguous range of `chunks` global chunks.
    pub fn range(&self, chunks: u64) -> Range<u64> {
        let at = |i: u64| ((i as u128 * chunks as u128) / self.n as u128) as u64;
        at(self.k - 1)..at(self.k)
    }
}

/// A shard's result file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ShardFile<A> {
    pub format: String,
    /// Everything that defines the run: game, version, rules, strategy (hash), seed, rounds,
    /// chunk size and count. All shards of one run carry the same key.
    pub key: serde_json::Value,
    pub shard: ShardSpec,
    /// Global chunks `[start, end)` this shard covered.
    pub range: [u64; 2],
    pub chunks_done: u64,
    pub elapsed_s: f64,
    pub acc: A,
    /// FNV-1a-64 (hex) of the canonical serialization of key, shard, range, chunks done and
    /// accumulators (see `checksum`): an edited or corrupted file is refused by `merge`.
    #[serde(default)]
    pub checksum: String,
}

/// Accumulators that can say whether their sums are possible at all (counts consistent,
/// sums within what the game can pay per round, Σx² ≥ (Σx)²/n): a shard file whose sums are
/// not is refused by `merge`.
pub trait Plausible {
    /// `Err` says which sum is impossible.
    fn plausible(&self) -> Result<(), String>;
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The checksum of a shard file's content: FNV-1a-64 over the compact JSON of
/// (key, shard, range, chunks_done, acc), as 16 hex digits.
pub fn checksum<A: Serialize>(
    key: &serde_json::Value,
    shard: &ShardSpec,
    range: &[u64; 2],
    chunks_done: u64,
    acc: &A,
) -> String {
    let text = serde_json::to_string(&(key, shard, range, chunks_done, acc)).unwrap_or_default();
    format!("{:016x}", fnv1a64(text.as_bytes()))
}

/// Write `value` as JSON to a temporary file beside `path`, then rename it into place, so a
/// retried or killed task never leaves half a file. If that fails, the shard is not lost: it
/// is saved under the system's temporary folder and the error says where.
pub fn write_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), ShardError> {
    let err = |why: String| ShardError::Write {
        file: path.display().to_string(),
        why,
    };
    let text = serde_json::to_string(value).map_err(|e| err(e.to_string()))?;
    write_text_atomic(path, &text).map_err(|e| {
        let fallback = crate::output::fallback_path(path);
        match std::fs::write(&fallback, &text) {
            Ok(()) => err(format!(
                "{e}; the shard was saved to {} instead: move it into place",
                fallback.display()
            )),
            Err(e2) => err(format!(
                "{e}; saving it to {} failed too ({e2})",
                fallback.display()
            )),
        }
    })
}

fn write_text_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = PathBuf::from(path);
    let name = format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|s| s.to_str()).unwrap_or("shard"),
        std::process::id()
    );
    tmp.set_file_name(name);
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Write the shard file of a run (or shard) of any game.
#[allow(clippy::too_many_arguments)]
pub fn write_shard_file<A: Serialize>(
    path: &Path,
    key: &serde_json::Value,
    shard: Option<ShardSpec>,
    range: &Range<u64>,
    chunks_done: u64,
    elapsed_s: f64,
    acc: &A,
) -> Result<(), ShardError> {
    let shard = shard.unwrap_or(ShardSpec { k: 1, n: 1 });
    let range = [range.start, range.end];
    let file = ShardFile {
        format: FORMAT.to_string(),
        checksum: checksum(key, &shard, &range, chunks_done, acc),
        key: key.clone(),
        shard,
        range,
        chunks_done,
        elapsed_s,
        acc,
    };
    write_atomic(path, &file)
}

/// How to run a (possibly sharded) simulation.
pub struct RunPlan<'a> {
    pub seed: u64,
    pub threads: Option<usize>,
    pub progress: bool,
    pub label: &'a str,
    pub shard: Option<ShardSpec>,
    /// Write the shard file here (with the run key from `key`).
    pub shard_out: Option<&'a Path>,
}

/// Run `sim` over all `total` chunks of the run, or over this shard's range of them, and
/// write the shard file when asked. Returns the outcome and the chunk range run.
pub fn run_sharded<S: crate::engine::Simulation>(
    sim: &S,
    total: u64,
    plan: &RunPlan,
    key: impl FnOnce() -> serde_json::Value,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<(crate::engine::RunOutcome<S::Acc>, Range<u64>), ShardError>
where
    S::Acc: Serialize,
{
    let chunks = plan.shard.map_or(0..total, |s| s.range(total));
    let opts = crate::engine::RunOptions {
        seed: plan.seed,
        chunks: chunks.clone(),
        threads: plan.threads,
        progress: plan.progress,
        label: plan.label.to_string(),
    };
    let out = crate::engine::run(sim, &opts, stop)?;
    if let Some(path) = plan.shard_out {
        write_shard_file(
            path,
            &key(),
            plan.shard,
            &chunks,
            out.chunks_done,
            out.elapsed.as_secs_f64(),
            &out.acc,
        )?;
    }
    Ok((out, chunks))
}

/// The merged sums of one run's shard files.
pub struct Merged<A> {
    pub key: serde_json::Value,
    pub acc: A,
    /// Sum of the shards' elapsed times.
    pub elapsed_s: f64,
    pub chunks_done: u64,
    pub files: usize,
}

/// Field `name` of a shard key, read as a `T`; an error names a missing or malformed field.
pub fn key_field<T: serde::de::DeserializeOwned>(
    key: &serde_json::Value,
    name: &str,
) -> Result<T, ShardError> {
    let v = key
        .get(name)
        .ok_or_else(|| ShardError::KeyMissing(name.to_string()))?;
    T::deserialize(v).map_err(|e| ShardError::KeyField {
        name: name.to_string(),
        why: e.to_string(),
    })
}

impl<A> Merged<A> {
    /// Field `name` of the merged run's key (see `key_field`).
    pub fn field<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<T, ShardError> {
        key_field(&self.key, name)
    }

    /// The meta of the merged run: seed, starting seat and chunks from its key.
    pub fn run_meta(&self) -> Result<crate::report::RunMeta, ShardError> {
        Ok(crate::report::RunMeta {
            seed: self.field("seed")?,
            start_seat: self.field("start_seat")?,
            elapsed_s: self.elapsed_s,
            threads: 0,
            merged_from: self.files,
            interrupted: false,
            chunks_done: self.chunks_done,
            chunks_planned: self.field("chunks")?,
        })
    }

    /// The note a merged report carries.
    pub fn note(&self) -> String {
        format!(
            "Merged from {} shard files; elapsed is the sum of the shards' times.",
            self.files
        )
    }
}

/// Read one run's shard files (checked as by `read_all`) and merge their accumulators.
pub fn merge_files<A: crate::engine::Merge + Plausible + Serialize + for<'de> Deserialize<'de>>(
    paths: &[PathBuf],
) -> Result<Merged<A>, ShardError> {
    let files = read_all::<A>(paths)?;
    let mut m = Merged {
        key: files[0].1.key.clone(),
        acc: A::default(),
        elapsed_s: 0.0,
        chunks_done: 0,
        files: files.len(),
    };
    for (_, f) in &files {
        m.acc.merge(&f.acc);
        m.elapsed_s += f.elapsed_s;
        m.chunks_done += f.chunks_done;
    }
    Ok(m)
}

/// Read shard files and check they form exactly one whole run: same key, ranges that neither
/// overlap nor leave gaps, every shard complete. Returns them sorted by range.
pub fn read_all<A: Plausible + Serialize + for<'de> Deserialize<'de>>(
    paths: &[PathBuf],
) -> Result<Vec<(PathBuf, ShardFile<A>)>, ShardError> {
    if paths.is_empty() {
        return Err(ShardError::Mismatch(
            "merge needs at least one shard file".into(),
        ));
    }
    let mut files = Vec::new();
    for p in paths {
        let name = p.display().to_string();
        let text = crate::input::read_text(p, "shard file", crate::input::MAX_SHARD_BYTES)
            .map_err(|e| ShardError::Input(e.to_string()))?;
        let f: ShardFile<A> = serde_json::from_str(&text).map_err(|e| ShardError::Read {
            file: name.clone(),
            why: format!(
                "not a complete rtplab shard file ({e}); it may be truncated: re-run that shard"
            ),
        })?;
        if f.format != FORMAT {
            return Err(ShardError::Read {
                file: name,
                why: format!("format '{}' is not {FORMAT}", f.format),
            });
        }
        let sum = checksum(&f.key, &f.shard, &f.range, f.chunks_done, &f.acc);
        if f.checksum != sum {
            return Err(ShardError::Read {
                file: name,
                why: if f.checksum.is_empty() {
                    "it carries no checksum (written by an older version or edited); re-run that shard".into()
                } else {
                    format!("its checksum {} does not match its content ({sum}): the file was edited or corrupted; re-run that shard", f.checksum)
                },
            });
        }
        if let Err(why) = f.acc.plausible() {
            return Err(ShardError::Read {
                file: name,
                why: format!("its sums are impossible ({why}); re-run that shard"),
            });
        }
        if f.range[0] > f.range[1] || f.chunks_done > f.range[1] - f.range[0] {
            return Err(ShardError::Read {
                file: name,
                why: format!(
                    "its chunk range {}..{} with {} chunks done is impossible; re-run that shard",
                    f.range[0], f.range[1], f.chunks_done
                ),
            });
        }
        files.push((p.clone(), f));
    }
    let (first_path, first) = &files[0];
    for (p, f) in &files[1..] {
        let game = |f: &ShardFile<A>| f.key.get("game").cloned();
        if game(f) != game(first) {
            return Err(ShardError::Mismatch(format!(
                "{} and {} are shards of a different game ({} and {}); merge shards of one run only",
                first_path.display(),
                p.display(),
                game(first).unwrap_or_default(),
                game(f).unwrap_or_default()
            )));
        }
        let (a, b) = (identity(&first.key), identity(&f.key));
        if a != b {
            return Err(ShardError::Mismatch(format!(
                "{} and {} come from different runs ({}); merge shards of one run only",
                first_path.display(),
                p.display(),
                key_difference(&a, &b)
            )));
        }
    }
    for (p, f) in &files {
        if f.chunks_done != f.range[1] - f.range[0] {
            return Err(ShardError::Mismatch(format!(
                "{} is incomplete ({} of {} chunks; the task was interrupted): re-run shard {}/{}",
                p.display(),
                f.chunks_done,
                f.range[1] - f.range[0],
                f.shard.k,
                f.shard.n
            )));
        }
    }
    let total = first
        .key
        .get("chunks")
        .and_then(|v| v.as_u64())
        .ok_or_else(|| ShardError::Mismatch("shard key lacks the chunk count".into()))?;
    files.sort_by_key(|(_, f)| (f.range[0], f.range[1]));
    let mut at = 0u64;
    let mut prev: Option<&PathBuf> = None;
    for (p, f) in &files {
        let [s, e] = f.range;
        if s < at {
            return Err(ShardError::Mismatch(format!(
                "{} (chunks {s}..{e}) overlaps {} (which ends at chunk {at}); keep one of them",
                p.display(),
                prev.map(|q| q.display().to_string()).unwrap_or_default()
            )));
        }
        if s > at {
            return Err(ShardError::Mismatch(format!(
                "chunks {at}..{s} are missing (no shard covers them, before {}); run the missing shard",
                p.display()
            )));
        }
        at = e;
        prev = Some(p);
    }
    if at != total {
        return Err(ShardError::Mismatch(format!(
            "chunks {at}..{total} are missing (after {}); run the missing shard(s)",
            prev.map(|q| q.display().to_string()).unwrap_or_default()
        )));
    }
    Ok(files)
}

/// What identifies a run: its key without `labels` (names for reports, such as the path a
/// chart was read from, which may differ between shards of one run).
fn identity(key: &serde_json::Value) -> serde_json::Value {
    let mut k = key.clone();
    if let Some(o) = k.as_object_mut() {
        o.remove("labels");
    }
    k
}

fn key_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
        let diff: std::collections::BTreeSet<&str> = a
            .keys()
            .chain(b.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| k.as_str())
            .collect();
        if !diff.is_empty() {
            let d: Vec<&str> = diff.into_iter().collect();
            return format!("they differ in {}", d.join(", "));
        }
    }
    "their run keys differ".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn ranges_tile_the_run() {
        for chunks in [1u64, 7, 100, 4388] {
            for n in 1..=9u64 {
                let mut at = 0;
                for k in 1..=n {
                    let r = ShardSpec { k, n }.range(chunks);
                    assert_eq!(r.start, at);
                    at = r.end;
                }
                assert_eq!(at, chunks);
            }
        }
    }

    #[test]
    fn spec_parsing_and_environment() {
        assert_eq!(ShardSpec::parse("2/4").unwrap(), ShardSpec { k: 2, n: 4 });
        for bad in ["0/4", "5/4", "x/4", "3", "1/0", ""] {
            assert!(ShardSpec::parse(bad).is_err(), "{bad}");
        }
        let none = env(&[]);
        assert_eq!(ShardSpec::resolve(None, None, &none).unwrap(), None);
        assert_eq!(
            ShardSpec::resolve(Some("1/2"), None, &none).unwrap(),
            Some(ShardSpec { k: 1, n: 2 })
        );
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(
            ShardSpec::resolve(None, None, &slurm).unwrap(),
            Some(ShardSpec { k: 3, n: 4 })
        );
        let slurm0 = env(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ]);
        assert_eq!(
            ShardSpec::resolve(None, None, &slurm0).unwrap(),
            Some(ShardSpec { k: 1, n: 2 })
        );
        let out = env(&[
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert!(ShardSpec::resolve(None, None, &out).is_err());
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0")]);
        assert_eq!(
            ShardSpec::resolve(None, Some(3), &k8s).unwrap(),
            Some(ShardSpec { k: 1, n: 3 })
        );
        assert!(ShardSpec::resolve(None, None, &k8s)
            .unwrap_err()
            .to_string()
            .contains("--shards"));
        assert!(ShardSpec::resolve(None, Some(3), env(&[("JOB_COMPLETION_INDEX", "3")])).is_err());
        assert!(ShardSpec::resolve(None, Some(3), env(&[("JOB_COMPLETION_INDEX", "x")])).is_err());
        assert!(ShardSpec::resolve(None, Some(3), &none).is_err());
        // The flag wins over the environment.
        assert_eq!(
            ShardSpec::resolve(Some("2/2"), None, &slurm).unwrap(),
            Some(ShardSpec { k: 2, n: 2 })
        );
    }
}
