//! Shards: a run split into contiguous ranges of its global chunks, executed anywhere (Slurm
//! array tasks, Kubernetes indexed jobs), written as files, and merged exactly.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// File format tag of shard files. An incomplete file (a checkpoint, or a shard stopped by a
/// signal) holds exactly the chunks `range[0]..range[0] + chunks_done`, so it can be resumed.
/// v3 keeps histograms as the `histogram` module's type; files of an older
/// format are refused (their sums are laid out differently).
pub const FORMAT: &str = "rtplab-shard-v3";

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
    /// `SLURM_ARRAY_TASK_COUNT`, `SLURM_ARRAY_TASK_MAX`) or a Kubernetes indexed job
    /// (`JOB_COMPLETION_INDEX`, 0-based, with `--shards N`). `env` looks a variable up (tests
    /// pass their own).
    ///
    /// An explicit `--shard` or `--shards` must agree with the scheduler's variables (and
    /// with each other): one that disagrees is refused, saying both, rather than one of them
    /// silently overruling the other (a whole run, or another task's shard, in every task).
    /// In a Slurm array `--shard K/N` agrees when K is the task's index and the array's
    /// indices lie in 1..N (the numbering of `deploy/slurm/rtplab-array.sbatch`, which lets a
    /// single shard be resubmitted as `--array=K`), or when it is what the variables give
    /// without flags (shard index − min + 1 of the array's task count); in a Kubernetes
    /// indexed job when K = JOB_COMPLETION_INDEX + 1.
    pub fn resolve(
        flag: Option<&str>,
        shards: Option<u64>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<ShardSpec>, ShardError> {
        let explicit = flag.map(ShardSpec::parse).transpose()?;
        if let (Some(s), Some(n)) = (explicit, shards) {
            if s.n != n {
                return Err(ShardError::Env(format!(
                    "--shard {}/{} and --shards {n} disagree on the number of shards; give one of them",
                    s.k, s.n
                )));
            }
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
            let array = SlurmArray {
                id,
                min: num("SLURM_ARRAY_TASK_MIN")?,
                max: num("SLURM_ARRAY_TASK_MAX")?,
                count: num("SLURM_ARRAY_TASK_COUNT")?,
            };
            return match explicit {
                Some(s) => array.agrees(s).map(Some),
                None => array.shard(shards).map(Some),
            };
        }
        if let Some(idx) = num("JOB_COMPLETION_INDEX")? {
            if let Some(s) = explicit {
                if s.k != idx + 1 {
                    return Err(ShardError::Env(format!(
                        "--shard {}/{} disagrees with JOB_COMPLETION_INDEX={idx} (Kubernetes indexed job), whose shard is {}: pass --shard {}/{} (K = JOB_COMPLETION_INDEX + 1, as deploy/k8s/indexed-job.yaml does), or leave out --shard",
                        s.k,
                        s.n,
                        idx + 1,
                        idx + 1,
                        s.n
                    )));
                }
                return Ok(Some(s));
            }
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
        if explicit.is_some() {
            return Ok(explicit);
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

/// The variables of a Slurm array task (MIN, MAX and COUNT as far as they are set).
struct SlurmArray {
    id: u64,
    min: Option<u64>,
    max: Option<u64>,
    count: Option<u64>,
}

impl SlurmArray {
    /// The variables as they were given, for messages.
    fn vars(&self) -> String {
        let mut v = vec![format!("SLURM_ARRAY_TASK_ID={}", self.id)];
        for (name, x) in [("MIN", self.min), ("MAX", self.max), ("COUNT", self.count)] {
            if let Some(x) = x {
                v.push(format!("SLURM_ARRAY_TASK_{name}={x}"));
            }
        }
        v.join(", ")
    }

    /// The shard without `--shard`: the task's place in the array (index − min + 1) of the
    /// array's task count (`--shards` where Slurm gives no count; given with a count, it must
    /// be the same).
    fn shard(&self, shards: Option<u64>) -> Result<ShardSpec, ShardError> {
        let (id, min) = (self.id, self.min.unwrap_or(0));
        let count = match (self.count, shards) {
            (Some(c), Some(n)) if c != n => {
                return Err(ShardError::Env(format!(
                    "--shards {n} disagrees with this Slurm array task ({}): without --shard a task runs shard (index - min + 1) of the array's task count, here {}/{c}; to run shard {id} of {n}, pass --shard {id}/{n} (as deploy/slurm/rtplab-array.sbatch does), or leave out --shards",
                    self.vars(),
                    (id + 1).saturating_sub(min),
                )));
            }
            (Some(c), _) => c,
            (None, Some(n)) => n,
            (None, None) => {
                return Err(ShardError::Env(
                    "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; pass --shards N"
                        .into(),
                ))
            }
        };
        if count == 0 {
            return Err(ShardError::Env(format!(
                "SLURM_ARRAY_TASK_ID={id} is set but the array has no tasks (SLURM_ARRAY_TASK_COUNT or --shards is 0); use a contiguous array such as --array=1-8"
            )));
        }
        if let Some(max) = self.max {
            if max < min || max - min + 1 != count {
                let given = if self.count.is_some() {
                    String::new()
                } else {
                    format!("--shards {count} disagrees with the array: ")
                };
                return Err(ShardError::Env(format!(
                    "{given}the Slurm array {min}..{max} is not {count} contiguous tasks ({}): numbered by their place in the array, shards would be missed or run twice; use a contiguous array such as --array=1-{count}, or pass --shard $SLURM_ARRAY_TASK_ID/N (as deploy/slurm/rtplab-array.sbatch does)",
                    self.vars()
                )));
            }
        }
        if id < min || id - min >= count {
            return Err(ShardError::Env(format!(
                "SLURM_ARRAY_TASK_ID={id} is outside the array {min}..{} (SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT); use a contiguous array such as --array=1-{count}",
                min + count - 1
            )));
        }
        Ok(ShardSpec {
            k: id - min + 1,
            n: count,
        })
    }

    /// `--shard` given in this task: `s` if it agrees with the variables (see
    /// `ShardSpec::resolve`), else an error saying both.
    fn agrees(&self, s: ShardSpec) -> Result<ShardSpec, ShardError> {
        let by_index = s.k == self.id && self.max.is_none_or(|m| m <= s.n);
        let place = (self.id + 1).checked_sub(self.min.unwrap_or(0));
        let by_place = place == Some(s.k) && self.count.is_none_or(|c| c == s.n);
        if by_index || by_place {
            return Ok(s);
        }
        let n = s.n.max(self.max.unwrap_or(0)).max(self.id);
        let here = if self.id == 0 {
            "index 0 names no shard: number the array from 1 (--array=1-N)".to_string()
        } else {
            format!("here --shard {}/{n}", self.id)
        };
        let without = match (place, self.count) {
            (Some(p), Some(c)) if p >= 1 && p <= c => {
                format!(", or leave out --shard to run shard {p}/{c} (its place in the array)")
            }
            _ => String::new(),
        };
        Err(ShardError::Env(format!(
            "--shard {}/{} disagrees with this Slurm array task ({}): a task runs the shard of its array index (--shard $SLURM_ARRAY_TASK_ID/N with every index of the array within 1..N, as deploy/slurm/rtplab-array.sbatch does): {here}{without}",
            s.k,
            s.n,
            self.vars(),
        )))
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

/// A count of a shard's sums against what its rounds allow: `Err` naming the field when
/// `count` is above `bound` (`of` says what the bound counts, e.g. "hands played").
pub fn at_most(field: &str, count: u64, bound: u64, of: &str) -> Result<(), String> {
    if count > bound {
        return Err(format!("{field} = {count} is more than the {bound} {of}"));
    }
    Ok(())
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
    crate::door::replace(path, text.as_bytes()).map_err(|e| {
        if crate::door::output::is_kept(&e) {
            return err(e.to_string());
        }
        match crate::door::output::save_fallback(path, text.as_bytes()) {
            Ok(fallback) => err(format!(
                "{e}; the shard was saved to {} instead: move it into place",
                fallback.display()
            )),
            Err(e2) => err(format!(
                "{e}; saving it under {} failed too ({e2})",
                std::env::temp_dir().display()
            )),
        }
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

/// Read one shard file and check it on its own: complete JSON of a shard file, a known
/// format, its checksum, plausible sums and a possible chunk range (it may be incomplete).
pub fn read_one<A: Plausible + Serialize + for<'de> Deserialize<'de>>(
    p: &Path,
) -> Result<ShardFile<A>, ShardError> {
    let name = p.display().to_string();
    let text = crate::door::input::read_text(p, "shard file", crate::door::input::MAX_SHARD_BYTES)
        .map_err(|e| ShardError::Input(e.to_string()))?;
    /// The format alone, read first: an older format's sums would not parse.
    #[derive(Deserialize)]
    struct Head {
        format: Option<String>,
    }
    if let Ok(Head {
        format: Some(format),
    }) = serde_json::from_str::<Head>(&text)
    {
        if format != FORMAT {
            return Err(ShardError::Read {
                file: name,
                why: if format.starts_with("rtplab-shard-") {
                    format!("format '{format}' is an older rtplab's, not {FORMAT}; re-run that shard with this version")
                } else {
                    format!("format '{format}' is not {FORMAT}")
                },
            });
        }
    }
    let f: ShardFile<A> = serde_json::from_str(&text).map_err(|e| ShardError::Read {
        file: name.clone(),
        why: format!(
            "not a complete rtplab shard file ({e}); it may be truncated: re-run that shard"
        ),
    })?;
    let sum = checksum(&f.key, &f.shard, &f.range, f.chunks_done, &f.acc);
    if f.checksum != sum {
        return Err(ShardError::Read {
            file: name,
            why: if f.checksum.is_empty() {
                "it carries no checksum (written by an older version or edited); re-run that shard"
                    .into()
            } else {
                format!("its checksum {} does not match its content ({sum}): the file was edited or corrupted; re-run that shard", f.checksum)
            },
        });
    }
    if !(f.elapsed_s >= 0.0 && f.elapsed_s.is_finite()) {
        return Err(ShardError::Read {
            file: name,
            why: format!(
                "its elapsed_s = {} is impossible (a time is not negative); re-run that shard",
                f.elapsed_s
            ),
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
    Ok(f)
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
        files.push((p.clone(), read_one(p)?));
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
                "{} is incomplete ({} of {} chunks; the task was interrupted): resume shard {}/{} by re-running the same command (same --shard-out {}), which continues from chunk {}",
                p.display(),
                f.chunks_done,
                f.range[1] - f.range[0],
                f.shard.k,
                f.shard.n,
                p.display(),
                f.range[0] + f.chunks_done
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

/// What identifies a run: its key without `labels` and without any field named `label`
/// (names for reports, such as the path a chart was read from, which may differ between
/// shards of one run).
pub fn identity(key: &serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(o) => {
                o.remove("labels");
                o.remove("label");
                o.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut k = key.clone();
    strip(&mut k);
    k
}

pub fn key_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    /// The dotted paths of the fields that differ (objects compared field by field).
    fn diff(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
        match (a.as_object(), b.as_object()) {
            (Some(x), Some(y)) if !path.is_empty() || !x.is_empty() => {
                let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
                for k in keys {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    let null = serde_json::Value::Null;
                    diff(
                        &p,
                        x.get(k).unwrap_or(&null),
                        y.get(k).unwrap_or(&null),
                        out,
                    );
                }
            }
            _ if a != b => out.push(path.to_string()),
            _ => {}
        }
    }
    let mut d = Vec::new();
    diff("", a, b, &mut d);
    d.retain(|p| !p.is_empty());
    match d.len() {
        0 => "their run keys differ".into(),
        1..=6 => format!("they differ in {}", d.join(", ")),
        n => format!(
            "they differ in {} and {} more fields",
            d[..6].join(", "),
            n - 6
        ),
    }
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
        // A flag that agrees with the environment is taken; one that disagrees is refused.
        assert_eq!(
            ShardSpec::resolve(Some("3/4"), None, &slurm).unwrap(),
            Some(ShardSpec { k: 3, n: 4 })
        );
        assert_eq!(
            ShardSpec::resolve(Some("7/64"), None, &slurm).unwrap(),
            Some(ShardSpec { k: 7, n: 64 })
        );
        assert!(ShardSpec::resolve(Some("2/2"), None, &slurm).is_err());
    }

    #[test]
    fn explicit_flags_agree_with_the_scheduler_or_are_refused() {
        let resolve = |flag: Option<&str>, shards: Option<u64>, vars: &[(&str, &str)]| {
            ShardSpec::resolve(flag, shards, env(vars))
        };
        let msg = |flag: Option<&str>, shards: Option<u64>, vars: &[(&str, &str)]| {
            let e = resolve(flag, shards, vars).unwrap_err();
            assert!(matches!(e, ShardError::Env(_)), "{e}");
            e.to_string()
        };
        let spec = |k, n| Some(ShardSpec { k, n });
        // An array of tasks 5..8 (4 tasks), this one 7.
        let tail = [
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_MAX", "8"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        let vars = "SLURM_ARRAY_TASK_ID=7, SLURM_ARRAY_TASK_MIN=5, SLURM_ARRAY_TASK_MAX=8, SLURM_ARRAY_TASK_COUNT=4";
        // --shards 64 used to be overruled by the array's count: shard 3/4 of another run.
        assert_eq!(
            msg(None, Some(64), &tail),
            format!("--shards 64 disagrees with this Slurm array task ({vars}): without --shard a task runs shard (index - min + 1) of the array's task count, here 3/4; to run shard 7 of 64, pass --shard 7/64 (as deploy/slurm/rtplab-array.sbatch does), or leave out --shards")
        );
        assert_eq!(resolve(None, Some(4), &tail).unwrap(), spec(3, 4));
        assert_eq!(resolve(None, None, &tail).unwrap(), spec(3, 4));
        // --shard numbered by the array index (the deploy script's way, the array within
        // 1..N), or by the place in the array: both agree.
        assert_eq!(resolve(Some("7/64"), None, &tail).unwrap(), spec(7, 64));
        assert_eq!(resolve(Some("7/8"), Some(8), &tail).unwrap(), spec(7, 8));
        assert_eq!(resolve(Some("3/4"), None, &tail).unwrap(), spec(3, 4));
        for (flag, here) in [
            ("3/64", "7/64"),
            ("7/7", "7/8"),
            ("3/5", "7/8"),
            ("1/1", "7/8"),
        ] {
            assert_eq!(
                msg(Some(flag), None, &tail),
                format!("--shard {flag} disagrees with this Slurm array task ({vars}): a task runs the shard of its array index (--shard $SLURM_ARRAY_TASK_ID/N with every index of the array within 1..N, as deploy/slurm/rtplab-array.sbatch does): here --shard {here}, or leave out --shard to run shard 3/4 (its place in the array)"),
                "{flag}"
            );
        }
        // A single task resubmitted (sbatch --array=3) runs shard 3 of 64 with --shard; with
        // --shards 64 it used to run the whole run as shard 1/1.
        let single = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "1"),
        ];
        assert_eq!(
            resolve(Some("3/64"), Some(64), &single).unwrap(),
            spec(3, 64)
        );
        assert!(msg(None, Some(64), &single).starts_with("--shards 64 disagrees with this Slurm array task (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=3, SLURM_ARRAY_TASK_MAX=3, SLURM_ARRAY_TASK_COUNT=1): without --shard a task runs shard (index - min + 1) of the array's task count, here 1/1; to run shard 3 of 64, pass --shard 3/64"));
        // The missing shards resubmitted as one array (--array=3,7-9,12).
        let sparse = [
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_MAX", "12"),
            ("SLURM_ARRAY_TASK_COUNT", "5"),
        ];
        assert_eq!(resolve(Some("8/64"), None, &sparse).unwrap(), spec(8, 64));
        // ... whose indices are not its places: refused without --shard (shards 2/5, 5/5 and
        // more would be missed or run twice).
        assert!(msg(None, None, &sparse).starts_with(
            "the Slurm array 3..12 is not 5 contiguous tasks (SLURM_ARRAY_TASK_ID=8, "
        ));
        // An array reaching past N: task 5 of --array=1-64 given --shard 5/32.
        let wide = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "64"),
            ("SLURM_ARRAY_TASK_COUNT", "64"),
        ];
        assert!(msg(Some("5/32"), None, &wide)
            .contains("here --shard 5/64, or leave out --shard to run shard 5/64"));
        // Only the task id known (the deploy script's test sets no more): the index agrees.
        assert_eq!(
            resolve(Some("5/8"), None, &[("SLURM_ARRAY_TASK_ID", "5")]).unwrap(),
            spec(5, 8)
        );
        assert!(
            msg(Some("4/8"), None, &[("SLURM_ARRAY_TASK_ID", "5")]).contains("here --shard 5/8")
        );
        // A 0-based array: its place agrees, index 0 names no shard.
        let zero = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(resolve(Some("1/4"), None, &zero).unwrap(), spec(1, 4));
        assert!(msg(Some("2/4"), None, &zero).contains("index 0 names no shard"));
        // Kubernetes: K = JOB_COMPLETION_INDEX + 1.
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert_eq!(resolve(Some("3/8"), None, &k8s).unwrap(), spec(3, 8));
        assert_eq!(resolve(Some("3/8"), Some(8), &k8s).unwrap(), spec(3, 8));
        assert_eq!(
            msg(Some("1/8"), None, &k8s),
            "--shard 1/8 disagrees with JOB_COMPLETION_INDEX=2 (Kubernetes indexed job), whose shard is 3: pass --shard 3/8 (K = JOB_COMPLETION_INDEX + 1, as deploy/k8s/indexed-job.yaml does), or leave out --shard"
        );
        // --shard and --shards together must name one count, with or without a scheduler.
        for vars in [&[][..], &k8s[..]] {
            assert_eq!(
                msg(Some("3/8"), Some(64), vars),
                "--shard 3/8 and --shards 64 disagree on the number of shards; give one of them"
            );
        }
        assert_eq!(resolve(Some("3/8"), Some(8), &[]).unwrap(), spec(3, 8));
    }

    #[test]
    fn spec_exact_ranges_and_messages() {
        let r = |k, n, chunks| ShardSpec { k, n }.range(chunks);
        assert_eq!((r(1, 3, 10), r(2, 3, 10), r(3, 3, 10)), (0..3, 3..6, 6..10));
        // More shards than chunks: some shards are empty, none is skipped.
        assert_eq!((r(1, 2, 1), r(2, 2, 1)), (0..0, 0..1));
        // No overflow for huge chunk counts (the product is taken in 128 bits).
        assert_eq!(
            r(2, 3, u64::MAX),
            6_148_914_691_236_517_205..12_297_829_382_473_034_410
        );
        assert_eq!(ShardSpec::parse("4/4").unwrap(), ShardSpec { k: 4, n: 4 });
        assert_eq!(
            ShardSpec::parse(" 1 / 1 ").unwrap(),
            ShardSpec { k: 1, n: 1 }
        );
        for bad in ["5/4", "0/0", "0/1", "1/0", "2/1"] {
            let e = ShardSpec::parse(bad).unwrap_err();
            assert!(matches!(e, ShardError::BadSpec(ref s) if s == bad), "{bad}");
            assert_eq!(
                e.to_string(),
                format!("--shard must look like K/N with 1 <= K <= N (e.g. 3/8), found '{bad}'")
            );
        }
    }

    #[test]
    fn environment_exact_shards_and_errors() {
        let msg = |flag: Option<u64>, vars: &[(&str, &str)]| {
            ShardSpec::resolve(None, flag, env(vars))
                .unwrap_err()
                .to_string()
        };
        let ok = |flag: Option<u64>, vars: &[(&str, &str)]| {
            ShardSpec::resolve(None, flag, env(vars)).unwrap()
        };
        let spec = |k, n| Some(ShardSpec { k, n });
        // The last task of the array; the minimum defaults to 0; the count may come from --shards.
        let last = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(ok(None, &last), spec(4, 4));
        assert!(
            msg(Some(9), &last).starts_with("--shards 9 disagrees with this Slurm array task"),
            "the array's count and --shards disagree"
        );
        assert_eq!(ok(Some(4), &last), spec(4, 4));
        assert_eq!(ok(Some(3), &[("SLURM_ARRAY_TASK_ID", "2")]), spec(3, 3));
        assert_eq!(
            msg(None, &[("SLURM_ARRAY_TASK_ID", "2")]),
            "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; pass --shards N"
        );
        let outside = "is outside the array 1..4 (SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT); use a contiguous array such as --array=1-4";
        for id in ["0", "5"] {
            assert_eq!(
                msg(
                    None,
                    &[
                        ("SLURM_ARRAY_TASK_ID", id),
                        ("SLURM_ARRAY_TASK_MIN", "1"),
                        ("SLURM_ARRAY_TASK_COUNT", "4"),
                    ]
                ),
                format!("SLURM_ARRAY_TASK_ID={id} {outside}")
            );
        }
        // An array of no tasks is refused (it used to print the array 0..18446744073709551615).
        for (count, shards) in [(Some("0"), None), (None, Some(0))] {
            let mut vars = vec![("SLURM_ARRAY_TASK_ID", "0")];
            if let Some(c) = count {
                vars.push(("SLURM_ARRAY_TASK_COUNT", c));
            }
            let e = ShardSpec::resolve(None, shards, env(&vars)).unwrap_err();
            assert!(matches!(e, ShardError::Env(_)));
            assert!(e.to_string().contains("the array has no tasks"), "{e}");
        }
        let e = ShardSpec::resolve(None, None, env(&[("SLURM_ARRAY_TASK_MIN", " x ")]));
        assert!(matches!(e, Ok(None)), "the minimum alone is not read");
        for name in [
            "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN",
            "SLURM_ARRAY_TASK_COUNT",
            "JOB_COMPLETION_INDEX",
        ] {
            let mut vars = vec![
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "2"),
            ];
            if name == "JOB_COMPLETION_INDEX" {
                vars.clear();
            }
            vars.retain(|(n, _)| *n != name);
            vars.push((name, "-1"));
            let e = ShardSpec::resolve(None, Some(2), env(&vars)).unwrap_err();
            assert!(
                matches!(&e, ShardError::BadEnv { name: n, value } if n == name && value == "-1"),
                "{name}: {e}"
            );
            assert_eq!(
                e.to_string(),
                format!("environment variable {name}='-1' is not a whole number")
            );
        }
        assert_eq!(ok(Some(3), &[("JOB_COMPLETION_INDEX", " 2 ")]), spec(3, 3));
        assert_eq!(
            msg(Some(3), &[("JOB_COMPLETION_INDEX", "3")]),
            "JOB_COMPLETION_INDEX=3 is not below --shards 3"
        );
        assert_eq!(
            msg(None, &[("JOB_COMPLETION_INDEX", "0")]),
            "JOB_COMPLETION_INDEX is set (Kubernetes indexed job); pass --shards N with the job's completions"
        );
        assert_eq!(
            msg(Some(2), &[]),
            "--shards N needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID in the environment; or use --shard K/N"
        );
        // Slurm wins over Kubernetes.
        assert_eq!(
            ok(
                Some(5),
                &[("SLURM_ARRAY_TASK_ID", "0"), ("JOB_COMPLETION_INDEX", "4")]
            ),
            spec(1, 5)
        );
    }

    crate::sums::sums! {
        /// A toy accumulator: `sum` is a sum of `n` values in -1..=1.
        #[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
        struct Acc {
            n: u64 => unbounded("any number of values"),
            sum: i64 => check(values_in_range(a)),
        }
        bounds(a)
    }

    fn values_in_range(a: &Acc) -> Result<(), String> {
        if a.sum.unsigned_abs() > a.n {
            return Err(format!("sum {} of {} values in -1..=1", a.sum, a.n));
        }
        Ok(())
    }

    /// An empty scratch folder of this test.
    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("rtplab-shard-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn key(chunks: u64, seed: u64, game: &str, label: &str) -> serde_json::Value {
        serde_json::json!({
            "game": game, "seed": seed, "chunks": chunks, "start_seat": 2,
            "labels": {"chart": label},
        })
    }

    /// Write a shard file of `range` (all chunks done, one value per chunk) and return its path.
    fn put(dir: &Path, name: &str, key: &serde_json::Value, range: Range<u64>) -> PathBuf {
        let n = range.end.saturating_sub(range.start);
        let acc = Acc { n, sum: 0 };
        let path = dir.join(name);
        let shard = ShardSpec { k: 1, n: 1 };
        write_shard_file(&path, key, Some(shard), &range, n, 0.5, &acc).unwrap();
        path
    }

    fn read_err(paths: &[PathBuf]) -> ShardError {
        match read_all::<Acc>(paths) {
            Ok(_) => panic!("{paths:?} were accepted"),
            Err(e) => e,
        }
    }

    #[test]
    fn checksum_is_fnv1a_of_the_content_and_changes_with_every_field() {
        // Published FNV-1a-64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        let k = serde_json::json!({"a": 1});
        let spec = ShardSpec { k: 1, n: 2 };
        let acc = Acc { n: 3, sum: 1 };
        let sum = checksum(&k, &spec, &[0, 3], 3, &acc);
        let text = r#"[{"a":1},{"k":1,"n":2},[0,3],3,{"n":3,"sum":1}]"#;
        assert_eq!(sum, format!("{:016x}", fnv1a64(text.as_bytes())));
        assert_eq!(sum.len(), 16);
        let other = [
            checksum(&serde_json::json!({"a": 2}), &spec, &[0, 3], 3, &acc),
            checksum(&k, &ShardSpec { k: 2, n: 2 }, &[0, 3], 3, &acc),
            checksum(&k, &spec, &[1, 3], 3, &acc),
            checksum(&k, &spec, &[0, 3], 2, &acc),
            checksum(&k, &spec, &[0, 3], 3, &Acc { n: 3, sum: 0 }),
        ];
        for o in &other {
            assert_ne!(*o, sum);
        }
    }

    #[test]
    fn shard_files_round_trip_atomically() {
        let d = scratch("roundtrip");
        let k = key(4, 7, "dice", "a.json");
        let acc = Acc { n: 2, sum: 2 };
        let path = d.join("s.json");
        write_shard_file(
            &path,
            &k,
            Some(ShardSpec { k: 2, n: 2 }),
            &(2..4),
            2,
            1.25,
            &acc,
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let f: ShardFile<Acc> = serde_json::from_str(&text).unwrap();
        let expect = ShardFile {
            format: FORMAT.to_string(),
            key: k.clone(),
            shard: ShardSpec { k: 2, n: 2 },
            range: [2, 4],
            chunks_done: 2,
            elapsed_s: 1.25,
            acc: acc.clone(),
            checksum: checksum(&k, &ShardSpec { k: 2, n: 2 }, &[2, 4], 2, &acc),
        };
        assert_eq!(f, expect);
        // No shard given: the file says 1/1.
        write_shard_file(&path, &k, None, &(0..4), 4, 0.0, &acc).unwrap();
        let f: ShardFile<Acc> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(f.shard, ShardSpec { k: 1, n: 1 });
        // Only the file itself is left in the folder (no temporary file).
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["s.json"]);
        // A folder that does not exist: the error says where the shard was saved instead.
        let missing = d.join("no/such/dir/t.json");
        let e = write_shard_file(&missing, &k, None, &(0..4), 4, 0.0, &acc).unwrap_err();
        assert!(
            matches!(&e, ShardError::Write { file, .. } if *file == missing.display().to_string())
        );
        let m = e.to_string();
        assert!(
            m.starts_with(&format!("cannot write shard file {}: ", missing.display())),
            "{m}"
        );
        let fallback = std::path::PathBuf::from(
            m.split("the shard was saved to ")
                .nth(1)
                .and_then(|r| r.split(" instead").next())
                .unwrap_or_else(|| panic!("{m}")),
        );
        assert!(fallback.starts_with(std::env::temp_dir()), "{m}");
        let saved: ShardFile<Acc> =
            serde_json::from_str(&std::fs::read_to_string(&fallback).unwrap()).unwrap();
        assert_eq!(saved.range, [0, 4]);
        let _ = std::fs::remove_file(&fallback);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn read_all_accepts_one_whole_run_and_merges_it() {
        let d = scratch("merge");
        let k = key(5, 7, "dice", "a.json");
        // Given out of order, with an empty shard and a different label: still one run.
        let c = put(&d, "c", &key(5, 7, "dice", "b.json"), 3..5);
        let a = put(&d, "a", &k, 0..0);
        let b = put(&d, "b", &k, 0..3);
        let files = read_all::<Acc>(&[c.clone(), a.clone(), b.clone()]).unwrap();
        let order: Vec<_> = files.iter().map(|(p, f)| (p.clone(), f.range)).collect();
        assert_eq!(
            order,
            [
                (a.clone(), [0, 0]),
                (b.clone(), [0, 3]),
                (c.clone(), [3, 5])
            ]
        );
        let e = key_field::<u64>(&k, "rounds").unwrap_err();
        assert!(matches!(&e, ShardError::KeyMissing(n) if n == "rounds"));
        assert_eq!(e.to_string(), "shard key lacks 'rounds'");
        let e = key_field::<u64>(&k, "game").unwrap_err();
        assert!(matches!(&e, ShardError::KeyField { name, .. } if name == "game"));
        assert!(
            e.to_string()
                .starts_with("shard key field 'game': invalid type"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn read_all_refuses_each_broken_set_with_its_reason() {
        let d = scratch("refuse");
        let k = key(3, 7, "dice", "a.json");
        let show = |p: &PathBuf| p.display().to_string();
        let e = read_err(&[]);
        assert!(matches!(e, ShardError::Mismatch(_)));
        assert_eq!(e.to_string(), "merge needs at least one shard file");
        assert!(matches!(read_err(&[d.join("none")]), ShardError::Input(_)));
        // Not JSON of a shard file.
        let junk = d.join("junk");
        std::fs::write(&junk, "{\"format\":").unwrap();
        let e = read_err(std::slice::from_ref(&junk));
        assert!(
            matches!(&e, ShardError::Read { file, why } if *file == show(&junk)
            && why.starts_with("not a complete rtplab shard file ("))
        );
        // Edits of a good file.
        let good = put(&d, "good", &k, 0..3);
        let text = std::fs::read_to_string(&good).unwrap();
        let f: ShardFile<Acc> = serde_json::from_str(&text).unwrap();
        let edited = |name: &str, f: &ShardFile<Acc>| {
            let p = d.join(name);
            std::fs::write(&p, serde_json::to_string(f).unwrap()).unwrap();
            p
        };
        let why = |e: ShardError| match e {
            ShardError::Read { why, .. } => why,
            e => panic!("not a Read error: {e}"),
        };
        let p = edited(
            "format",
            &ShardFile {
                format: "v0".into(),
                ..f.clone()
            },
        );
        assert_eq!(why(read_err(&[p])), "format 'v0' is not rtplab-shard-v3");
        // An older format is named as such, before its sums fail to parse.
        let old = text
            .replace(FORMAT, "rtplab-shard-v2")
            .replace("\"x\"", "\"x_old\"");
        let p = d.join("older");
        std::fs::write(&p, old).unwrap();
        assert_eq!(
            why(read_err(&[p])),
            "format 'rtplab-shard-v2' is an older rtplab's, not rtplab-shard-v3; re-run that shard with this version"
        );
        let p = edited(
            "nosum",
            &ShardFile {
                checksum: String::new(),
                ..f.clone()
            },
        );
        assert_eq!(
            why(read_err(&[p])),
            "it carries no checksum (written by an older version or edited); re-run that shard"
        );
        let bad = "0123456789abcdef".to_string();
        let p = edited(
            "badsum",
            &ShardFile {
                checksum: bad,
                ..f.clone()
            },
        );
        assert_eq!(
            why(read_err(&[p])),
            format!("its checksum 0123456789abcdef does not match its content ({}): the file was edited or corrupted; re-run that shard", f.checksum)
        );
        let p = edited(
            "acc",
            &ShardFile {
                acc: Acc { n: 3, sum: 2 },
                ..f.clone()
            },
        );
        assert!(why(read_err(&[p])).starts_with("its checksum"));
        // Impossible content under a valid checksum.
        let write = |name: &str, range: Range<u64>, done: u64, acc: Acc| {
            let p = d.join(name);
            write_shard_file(&p, &k, None, &range, done, 0.0, &acc).unwrap();
            p
        };
        let p = write("implausible", 0..3, 3, Acc { n: 3, sum: 4 });
        assert_eq!(
            why(read_err(&[p])),
            "its sums are impossible (sum 4 of 3 values in -1..=1); re-run that shard"
        );
        // A negative time (not in the checksum, so an edit keeps it valid).
        let p = d.join("time");
        let acc = Acc { n: 3, sum: 0 };
        write_shard_file(&p, &k, None, &(0..3), 3, -1.0, &acc).unwrap();
        assert_eq!(
            why(read_err(&[p])),
            "its elapsed_s = -1 is impossible (a time is not negative); re-run that shard"
        );
        assert_eq!(at_most("counts.x", 3, 3, "rounds"), Ok(()));
        assert_eq!(
            at_most("counts.x", 4, 3, "rounds"),
            Err("counts.x = 4 is more than the 3 rounds".to_string())
        );
        let impossible = |s: u64, e: u64, done: u64| {
            format!(
                "its chunk range {s}..{e} with {done} chunks done is impossible; re-run that shard"
            )
        };
        let p = write("backwards", Range { start: 3, end: 1 }, 0, Acc::default());
        assert_eq!(why(read_err(&[p])), impossible(3, 1, 0));
        let p = write("toomany", 1..4, 4, Acc::default());
        assert_eq!(why(read_err(&[p])), impossible(1, 4, 4));
        // Incomplete.
        let p = write("partial", 0..3, 2, Acc::default());
        let e = read_err(std::slice::from_ref(&p));
        assert!(matches!(e, ShardError::Mismatch(_)));
        assert_eq!(
            e.to_string(),
            format!(
                "{} is incomplete (2 of 3 chunks; the task was interrupted): resume shard 1/1 by re-running the same command (same --shard-out {}), which continues from chunk 2",
                p.display(),
                p.display()
            )
        );
        // Shards of another game or run.
        let a = put(&d, "a", &k, 0..2);
        let doom = put(&d, "doom", &key(3, 7, "doom", "a.json"), 2..3);
        let e = read_err(&[a.clone(), doom.clone()]);
        assert!(matches!(e, ShardError::Mismatch(_)));
        assert_eq!(
            e.to_string(),
            format!("{} and {} are shards of a different game (\"dice\" and \"doom\"); merge shards of one run only", a.display(), doom.display())
        );
        let seed = put(&d, "seed", &key(4, 8, "dice", "a.json"), 2..3);
        assert_eq!(
            read_err(&[a.clone(), seed.clone()]).to_string(),
            format!("{} and {} come from different runs (they differ in chunks, seed); merge shards of one run only", a.display(), seed.display())
        );
        // A key without the chunk count.
        let nochunks = serde_json::json!({"game": "dice"});
        let p = d.join("nochunks");
        write_shard_file(&p, &nochunks, None, &(0..1), 1, 0.0, &Acc { n: 1, sum: 1 }).unwrap();
        assert_eq!(
            read_err(&[p]).to_string(),
            "shard key lacks the chunk count"
        );
        // Overlaps and gaps.
        let b = put(&d, "b", &k, 1..3);
        let c = put(&d, "c", &k, 2..3);
        let early = put(&d, "early", &k, 0..1);
        assert_eq!(
            read_err(&[b.clone(), a.clone()]).to_string(),
            format!(
                "{} (chunks 1..3) overlaps {} (which ends at chunk 2); keep one of them",
                b.display(),
                a.display()
            )
        );
        assert_eq!(
            read_err(&[a.clone(), c.clone(), c.clone()]).to_string(),
            format!(
                "{} (chunks 2..3) overlaps {} (which ends at chunk 3); keep one of them",
                c.display(),
                c.display()
            )
        );
        assert_eq!(
            read_err(&[c.clone(), early.clone()]).to_string(),
            format!(
                "chunks 1..2 are missing (no shard covers them, before {}); run the missing shard",
                c.display()
            )
        );
        assert_eq!(
            read_err(std::slice::from_ref(&b)).to_string(),
            format!(
                "chunks 0..1 are missing (no shard covers them, before {}); run the missing shard",
                b.display()
            )
        );
        assert_eq!(
            read_err(std::slice::from_ref(&a)).to_string(),
            format!(
                "chunks 2..3 are missing (after {}); run the missing shard(s)",
                a.display()
            )
        );
        assert!(read_all::<Acc>(&[a, c]).is_ok());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn key_difference_names_the_fields() {
        let a = serde_json::json!({"seed": 1, "rounds": 5, "game": "dice"});
        let b = serde_json::json!({"seed": 2, "game": "dice", "rules": {}});
        assert_eq!(key_difference(&a, &b), "they differ in rounds, rules, seed");
        let same = key_difference(&a, &a);
        assert_eq!(same, "their run keys differ");
        assert_eq!(
            key_difference(&a, &serde_json::json!(3)),
            "their run keys differ"
        );
        let nested_a =
            serde_json::json!({"config": {"rules": {"decks": 8}, "strategy": {"hash": "1"}}});
        let nested_b =
            serde_json::json!({"config": {"rules": {"decks": 6}, "strategy": {"hash": "2"}}});
        assert_eq!(
            key_difference(&nested_a, &nested_b),
            "they differ in config.rules.decks, config.strategy.hash"
        );
        let many_a =
            serde_json::json!({"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1, "h": 1});
        assert_eq!(
            key_difference(&many_a, &serde_json::json!({})),
            "they differ in a, b, c, d, e, f and 2 more fields"
        );
        let labelled = serde_json::json!({"seed": 1, "labels": {"chart": "x"}});
        assert_eq!(identity(&labelled), serde_json::json!({"seed": 1}));
        let inner =
            serde_json::json!({"seed": 1, "config": {"strategy": {"label": "a.csv", "hash": "7"}}});
        assert_eq!(
            identity(&inner),
            serde_json::json!({"seed": 1, "config": {"strategy": {"hash": "7"}}})
        );
        assert_eq!(identity(&serde_json::json!([1])), serde_json::json!([1]));
    }
}
