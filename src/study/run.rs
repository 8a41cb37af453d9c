//! Running a study: every cell parsed before any work, each kept cell read back, the others
//! run one after another (each on every thread), kept as it ends; then the result.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{cell_labels, Cell, CellRun, Reader, StudyError, StudyFile};
use crate::door::Door;
use crate::job::{Ctx, Outcome, Status};
use crate::web::Commands;

/// `rtplab study`: what to run and where.
pub struct StudyJob {
    pub file: PathBuf,
    /// The study folder (cells kept, results written); none for a dry run without one.
    pub out_dir: Option<PathBuf>,
    /// Print the cells and the estimated time (a pilot run times the first cell to run).
    pub dry_run: bool,
    /// Run only this shard's cells, `(k, n)` with k from 1: every n-th cell from the k-th.
    pub shard: Option<(usize, usize)>,
    /// Print the plan of an array of `n` shards.
    pub shards: Option<usize>,
    /// Study folders of shards whose kept cells this run takes (copied into its own).
    pub cells_from: Vec<PathBuf>,
    /// Every cell's rounds replaced (a reduced run), as written (`20k`).
    pub rounds: Option<String>,
}

/// A cell as kept in the study folder: the configuration it ran (its words and key, the
/// rtplab version) and what it reported, its report whole beside its figures.
#[derive(Serialize, Deserialize)]
struct Kept {
    version: String,
    key: String,
    words: Vec<String>,
    run: CellRun,
    report: serde_json::Value,
}

/// Rounds of the pilot that times a dry run.
const PILOT_ROUNDS: u64 = 20_000;

/// A cell's file in the study folder.
fn cell_file(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("cell-{key}.json"))
}

/// The cell's key: the rtplab version, its command words and the bytes of every file its
/// command reads (a table, a chart, a count), hashed.
fn cell_key(words: &[String], plan: &crate::door::Plan) -> Result<String, String> {
    let mut text = format!("rtplab {}\n", crate::VERSION);
    for w in words {
        text.push_str(w);
        text.push('\0');
    }
    for i in &plan.inputs {
        let bytes =
            crate::door::input::read_bytes(&i.path, "input", crate::door::input::MAX_SHARD_BYTES)
                .map_err(|e| format!("{}: {e}", i.flag))?;
        text.push_str(&format!(
            "\n{} {:016x}",
            i.flag,
            crate::shard::fnv1a64(&bytes)
        ));
    }
    Ok(format!("{:016x}", crate::shard::fnv1a64(text.as_bytes())))
}

/// What a cell's parse error says, with the line of the setting it names if any.
fn cell_error(s: &StudyFile, cell: &Cell, label: &str, message: String) -> StudyError {
    // A parser's message: its first line and its tips, not the usage.
    let mut lines = message.lines().filter(|l| !l.trim().is_empty());
    let mut text = lines.next().unwrap_or("").to_string();
    for tip in lines.filter(|l| l.trim_start().starts_with("tip:")) {
        text.push_str(&format!(" ({})", tip.trim()));
    }
    let message = text;
    let line = cell
        .settings
        .iter()
        .find(|t| message.contains(&format!("--{}", t.key)))
        .map(|t| format!(" (line {}: {})", t.line, t.key))
        .unwrap_or_default();
    StudyError::Cell {
        file: s.file.clone(),
        cell: cell.n,
        label: label.to_string(),
        message: format!("{}{line}", message.trim_start_matches("error: ")),
    }
}

/// Run `job`: its study file read with the readers of `readers` (one per game a study can
/// run), each cell parsed by `commands`.
pub fn run_study(
    job: &StudyJob,
    readers: &[Reader],
    commands: &dyn Commands,
    ctx: &Ctx,
) -> Result<Status, StudyError> {
    let shown = job.file.display().to_string();
    let text = crate::door::input::read_text(&job.file, "study file", super::MAX_STUDY_BYTES)
        .map_err(|e| StudyError::File(e.to_string()))?;
    let study = StudyFile::parse(&text, &shown)?;
    let reader = readers
        .iter()
        .find(|r| r.game == study.game)
        .ok_or_else(|| {
            StudyError::File(format!(
                "{shown}: game = \"{}\": studies run {}",
                crate::door::input::quote(&study.game),
                readers
                    .iter()
                    .map(|r| r.game)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    let cells = study.cells(reader.command, job.rounds.as_deref())?;
    let labels = cell_labels(&cells);
    // Every cell parsed and keyed before any work: a bad setting stops the study now.
    let mut parsed = Vec::with_capacity(cells.len());
    for (c, label) in cells.iter().zip(&labels.labels) {
        let p = commands
            .parse(&c.words)
            .map_err(|m| cell_error(&study, c, label, m))?;
        if let Some(o) = p.plan.outputs.first() {
            return Err(cell_error(
                &study,
                c,
                label,
                format!(
                    "{} writes a file: a study keeps its cells' figures itself",
                    o.flag
                ),
            ));
        }
        let key = cell_key(&c.words, &p.plan).map_err(|m| cell_error(&study, c, label, m))?;
        parsed.push((key, Some(p)));
    }
    if let Some(n) = job.shards {
        print_plan(&shown, job.out_dir.as_deref(), n, cells.len());
        return Ok(Status::Done);
    }
    // Each cell kept in the study folder, or else in a shard's folder (copied in below).
    let mut kept: Vec<Option<Kept>> = Vec::with_capacity(cells.len());
    let mut copied = Vec::new();
    for ((key, _), c) in parsed.iter().zip(&cells) {
        let own = job.out_dir.as_deref().and_then(|d| read_kept(d, key, c));
        if own.is_some() {
            kept.push(own);
            continue;
        }
        let other = job.cells_from.iter().find_map(|d| read_kept(d, key, c));
        if other.is_some() {
            copied.push(c.n - 1);
        }
        kept.push(other);
    }
    let mine = |i: usize| job.shard.is_none_or(|(k, n)| i % n == k - 1);
    if job.dry_run {
        return dry_run(&study, &cells, &labels.labels, &kept, &mine, commands, ctx);
    }
    let Some(dir) = job.out_dir.as_deref() else {
        return Err(StudyError::File(
            "--out-dir DIR: a study keeps its cells and writes its results in a folder".into(),
        ));
    };
    for &i in &copied {
        let k = kept[i].as_ref().expect("copied cells are kept");
        write_kept(dir, k, cells[i].n)?;
    }
    let todo: Vec<usize> = (0..cells.len())
        .filter(|&i| mine(i) && kept[i].is_none())
        .collect();
    let done = (0..cells.len()).filter(|&i| mine(i)).count() - todo.len();
    let bar = crate::progress::Progress::new(
        ctx.progress,
        (done + todo.len()) as u64,
        &format!("study {}", study.title),
        "cells",
    );
    bar.resume(done as u64);
    let started = Instant::now();
    for (ran, &i) in todo.iter().enumerate() {
        let c = &cells[i];
        let (key, p) = &mut parsed[i];
        let p = p.take().expect("each cell runs once");
        let door = Door::open(&p.plan)
            .map_err(|e| cell_error(&study, c, &labels.labels[i], e.to_string()))?;
        let cell_ctx = Ctx {
            stop: ctx.stop,
            graceful: || {},
            door: &door,
            progress: false,
        };
        let outcome =
            (p.run)(&cell_ctx).map_err(|m| cell_error(&study, c, &labels.labels[i], m))?;
        let Outcome::Report { report, status, .. } = outcome else {
            return Err(cell_error(
                &study,
                c,
                &labels.labels[i],
                "the command made no report".into(),
            ));
        };
        let run = (reader.read)(&report.json).map_err(|e| {
            cell_error(
                &study,
                c,
                &labels.labels[i],
                format!("its report does not read: {e}"),
            )
        })?;
        if run.interrupted || status == Status::Interrupted || ctx.stop.load(Ordering::SeqCst) {
            bar.finish();
            crate::door::say(&format!(
                "study stopped: {} of {} cells kept in {} ({} this run); the same command resumes",
                done + ran,
                done + todo.len(),
                dir.display(),
                ran
            ));
            return Ok(Status::Interrupted);
        }
        let k = Kept {
            version: crate::VERSION.to_string(),
            key: key.clone(),
            words: c.words.clone(),
            run,
            report: report.json,
        };
        write_kept(dir, &k, c.n)?;
        kept[i] = Some(k);
        bar.advance(1);
    }
    bar.finish();
    if let Some((k, n)) = job.shard {
        crate::door::say(&format!(
            "study shard {k}/{n}: {} cells ran, {done} were kept already ({:.1} s); when every shard is done, `rtplab study {shown} --out-dir DIR` over the cells of all shards writes the result",
            todo.len(),
            started.elapsed().as_secs_f64()
        ));
        return Ok(Status::Done);
    }
    let runs: Vec<CellRun> = kept
        .into_iter()
        .map(|k| k.expect("every cell ran or was kept").run)
        .collect();
    let keys: Vec<String> = parsed.into_iter().map(|(k, _)| k).collect();
    let table = super::result_table(&study, &cells, &runs, &keys);
    super::out::write_results(&study, &table, dir)?;
    let text = super::out::summary(&study, &table, todo.len(), done);
    crate::door::write_stdout(text.as_bytes()).map_err(|e| StudyError::Write(e.to_string()))?;
    Ok(Status::Done)
}

/// Keep cell `n` in the study folder `dir`.
fn write_kept(dir: &Path, k: &Kept, n: usize) -> Result<(), StudyError> {
    let bytes = serde_json::to_vec_pretty(k).expect("a kept cell serializes");
    crate::door::replace(&cell_file(dir, &k.key), &bytes)
        .map_err(|e| StudyError::Write(format!("cannot keep cell {n} in {}: {e}", dir.display())))
}

/// The kept cell of `key` in `dir`, if it is there, reads, and ran this cell's words with this
/// version of rtplab (anything else is run again).
fn read_kept(dir: &Path, key: &str, cell: &Cell) -> Option<Kept> {
    let path = cell_file(dir, key);
    if !crate::door::exists(&path) {
        return None;
    }
    let text =
        crate::door::input::read_text(&path, "kept cell", crate::door::input::MAX_SHARD_BYTES)
            .ok()?;
    let k: Kept = serde_json::from_str(&text).ok()?;
    (k.version == crate::VERSION && k.key == key && k.words == cell.words && !k.run.interrupted)
        .then_some(k)
}

/// `--dry-run`: the cells, which are kept, and the time the rest would take, from a pilot of
/// the first cell to run.
fn dry_run(
    study: &StudyFile,
    cells: &[Cell],
    labels: &[String],
    kept: &[Option<Kept>],
    mine: &dyn Fn(usize) -> bool,
    commands: &dyn Commands,
    ctx: &Ctx,
) -> Result<Status, StudyError> {
    let rounds = |c: &Cell| {
        c.settings
            .iter()
            .find(|s| s.key == "rounds")
            .and_then(|s| crate::numparse::parse_count(&s.value.text()).ok())
            .unwrap_or(0)
    };
    let todo: Vec<usize> = (0..cells.len())
        .filter(|&i| mine(i) && kept[i].is_none())
        .collect();
    let mut out = format!(
        "study {} ({}): {} cells, {} kept, {} to run\n",
        study.title,
        study.file,
        cells.len(),
        cells.len() - todo.len(),
        todo.len()
    );
    for (i, c) in cells.iter().enumerate() {
        let state = if kept[i].is_some() {
            "kept"
        } else if mine(i) {
            "to run"
        } else {
            "another shard"
        };
        out.push_str(&format!(
            "{:>5}  {:<13} {:>12} rounds  {}\n",
            c.n,
            state,
            crate::report::count(rounds(c)),
            labels[i]
        ));
    }
    if let Some(&first) = todo.first() {
        let c = &cells[first];
        let mut words: Vec<String> = vec![];
        let mut skip = false;
        for w in &c.words {
            if skip {
                words.push(PILOT_ROUNDS.to_string());
                skip = false;
                continue;
            }
            skip = w == "--rounds";
            words.push(w.clone());
        }
        let p = commands
            .parse(&words)
            .map_err(|m| cell_error(study, c, &labels[first], m))?;
        let door = Door::open(&p.plan).map_err(|e| StudyError::File(e.to_string()))?;
        let cell_ctx = Ctx {
            stop: ctx.stop,
            graceful: || {},
            door: &door,
            progress: false,
        };
        let t = Instant::now();
        (p.run)(&cell_ctx).map_err(|m| cell_error(study, c, &labels[first], m))?;
        let per_round = t.elapsed().as_secs_f64() / PILOT_ROUNDS as f64;
        let total: u64 = todo.iter().map(|&i| rounds(&cells[i])).sum();
        out.push_str(&format!(
            "estimated time: {} for {} rounds (a pilot of cell {} at {} rounds: {:.2} µs a round)\n",
            duration(per_round * total as f64),
            crate::report::count(total),
            c.n,
            crate::report::count(PILOT_ROUNDS),
            per_round * 1e6
        ));
    } else {
        out.push_str("estimated time: none, every cell is kept\n");
    }
    crate::door::write_stdout(out.as_bytes()).map_err(|e| StudyError::Write(e.to_string()))?;
    Ok(Status::Done)
}

/// Seconds as people read them.
fn duration(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

/// `--shards N`: the array's commands (docs/cluster.md, "A study on a cluster").
fn print_plan(file: &str, dir: Option<&Path>, n: usize, cells: usize) {
    let dir = dir
        .map(|d| d.display().to_string())
        .unwrap_or_else(|| "DIR".into());
    let mut t = format!(
        "study {file}: {cells} cells in {n} shards (shard K runs cells K, K+{n}, K+{}, ...)\n\
         array task K (1 to {n}), each in a folder of its own:\n  \
         rtplab study {file} --out-dir {dir}.shard-K --shard K/{n}\n\
         Slurm: sbatch --array=1-{n}, K=$SLURM_ARRAY_TASK_ID; Kubernetes: an Indexed Job of {n} \
         completions, K=$((JOB_COMPLETION_INDEX + 1))\n\
         then, once all are done (their cells taken, nothing runs again):\n  \
         rtplab study {file} --out-dir {dir} --cells-from {dir}.shard-*\n",
        2 * n
    );
    for k in 1..=n.min(cells) {
        let mine = (k..=cells).step_by(n).count();
        t.push_str(&format!("shard {k}/{n}: {mine} cells\n"));
    }
    let _ = crate::door::write_stdout(t.as_bytes());
}
