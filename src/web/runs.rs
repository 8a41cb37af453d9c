//! Runs started from the page: a simulation or an audit on a thread of its own, its progress
//! watched, stopped as Ctrl-C stops it (the chunks in progress finish and the partial report
//! is written), its report folder written in the runs folder through the door.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{json, Value};

use super::api::{command_line, status_name};
use super::{verb, Commands, RUNS};
use crate::door::browse::{make_folder, Shown};
use crate::door::input::Held;
use crate::door::{Door, Plan};
use crate::job::{Ctx, Outcome};
use crate::progress::Watch;

/// Most runs at once.
const MAX_RUNNING: usize = 4;

/// How a run stands.
#[derive(Clone, Debug)]
enum State {
    Running,
    /// Ended: done or interrupted (its report written), seconds taken.
    Ended(&'static str, f64),
    Failed(String),
}

struct Run {
    id: u64,
    name: String,
    args: Vec<String>,
    started: Instant,
    stop: Arc<AtomicBool>,
    watch: Watch,
    state: Mutex<State>,
}

/// Every run of this server.
pub(super) struct Runs {
    dir: PathBuf,
    commands: Arc<dyn Commands>,
    list: Mutex<Vec<Arc<Run>>>,
    next: AtomicU64,
    shown: Mutex<Option<Arc<Shown>>>,
}

impl Runs {
    pub(super) fn new(dir: PathBuf, commands: Arc<dyn Commands>) -> Runs {
        let shown = Shown::open(&dir).ok().map(Arc::new);
        // Numbered after the runs already in the folder.
        let next = shown
            .as_ref()
            .and_then(|s| s.list("").ok())
            .into_iter()
            .flatten()
            .filter_map(|e| e.name.split('-').next()?.parse::<u64>().ok())
            .max()
            .unwrap_or(0)
            + 1;
        Runs {
            dir,
            commands,
            list: Mutex::new(Vec::new()),
            next: AtomicU64::new(next),
            shown: Mutex::new(shown),
        }
    }

    /// The runs folder.
    pub(super) fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// The runs folder, shown read-only (None until it exists).
    pub(super) fn shown(&self) -> Option<Arc<Shown>> {
        let mut s = self.shown.lock().ok()?;
        if s.is_none() {
            *s = Shown::open(&self.dir).ok().map(Arc::new);
        }
        s.clone()
    }

    /// Start the command `args` (one of [`RUNS`]) with its report folder in the runs folder;
    /// `check` refuses a plan whose files the page may not touch.
    pub(super) fn start(
        &self,
        mut args: Vec<String>,
        check: impl Fn(&Plan) -> Result<Vec<Held>, String>,
    ) -> Result<Value, String> {
        let v = verb(&args);
        if !RUNS.contains(&v.as_str()) {
            return Err(format!(
                "`{v}` is not started here: the page starts {} as runs",
                RUNS.join(", ")
            ));
        }
        let running = self.running();
        if running >= MAX_RUNNING {
            return Err(format!(
                "{running} runs are going: stop one, or wait for one to end"
            ));
        }
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let name = format!("{id}-{}", v.replace(' ', "-"));
        make_folder(&self.dir)
            .map_err(|e| format!("cannot make the runs folder {}: {e}", self.dir.display()))?;
        let out = self.dir.join(&name);
        args.extend(["--out-dir".to_string(), out.display().to_string()]);
        // Checked here (the answer says what is wrong), its inputs held, and parsed again on
        // the run's thread, which reads the inputs held here.
        let parsed = self.commands.parse(&args)?;
        let held = check(&parsed.plan)?;
        let run = Arc::new(Run {
            id,
            name: name.clone(),
            args: args.clone(),
            started: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            watch: Watch::default(),
            state: Mutex::new(State::Running),
        });
        if let Ok(mut l) = self.list.lock() {
            l.push(run.clone());
        }
        let commands = self.commands.clone();
        std::thread::spawn(move || {
            let end = run.watch.during(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    play(&*commands, &run.args, &run.stop, held)
                }))
                .unwrap_or_else(|_| Err("the run ended on an internal error".into()))
            });
            let secs = run.started.elapsed().as_secs_f64();
            if let Ok(mut s) = run.state.lock() {
                *s = match end {
                    Ok(status) => State::Ended(status, secs),
                    Err(e) => State::Failed(e),
                };
            }
        });
        Ok(json!({ "id": id, "name": name, "command": command_line(&args) }))
    }

    fn running(&self) -> usize {
        self.list.lock().map_or(0, |l| {
            l.iter()
                .filter(|r| matches!(r.state.lock().as_deref(), Ok(State::Running)))
                .count()
        })
    }

    /// Stop run `id`: it ends as Ctrl-C ends it, with its partial report.
    pub(super) fn stop(&self, id: u64) -> Result<Value, String> {
        let l = self.list.lock().map_err(|_| "the runs are not readable")?;
        let r = l
            .iter()
            .find(|r| r.id == id)
            .ok_or_else(|| format!("no run {id}"))?;
        r.stop.store(true, Ordering::SeqCst);
        Ok(json!({ "id": id, "stopping": true }))
    }

    /// Stop every run and wait for each to write its report.
    pub(super) fn stop_all(&self) {
        let list: Vec<Arc<Run>> = self.list.lock().map(|l| l.clone()).unwrap_or_default();
        for r in &list {
            r.stop.store(true, Ordering::SeqCst);
        }
        for r in &list {
            while matches!(r.state.lock().as_deref(), Ok(State::Running)) {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
    }

    /// Every run, the newest first.
    pub(super) fn list(&self) -> Value {
        let list: Vec<Arc<Run>> = self.list.lock().map(|l| l.clone()).unwrap_or_default();
        let runs: Vec<Value> = list
            .iter()
            .rev()
            .map(|r| {
                let state = r.state.lock().map(|s| s.clone()).unwrap_or(State::Running);
                let (name, secs, error) = match &state {
                    State::Running => ("running", r.started.elapsed().as_secs_f64(), None),
                    State::Ended(s, t) => (*s, *t, None),
                    State::Failed(e) => ("failed", r.started.elapsed().as_secs_f64(), Some(e)),
                };
                json!({
                    "id": r.id,
                    "name": r.name,
                    "command": command_line(&r.args),
                    "state": name,
                    "stopping": r.stop.load(Ordering::SeqCst),
                    "seconds": secs,
                    "error": error,
                    "progress": r.watch.seen(),
                    "report": matches!(state, State::Ended(..)).then(|| format!("{}/report.html", r.name)),
                })
            })
            .collect();
        json!({ "runs": runs })
    }
}

/// Run the command `args` as the binary runs it, with `stop` as its Ctrl-C, its inputs those
/// `held` when it was started, and write its report folder (`--out-dir`, which the door
/// holds): how it ended.
fn play(
    commands: &dyn Commands,
    args: &[String],
    stop: &AtomicBool,
    held: Vec<Held>,
) -> Result<&'static str, String> {
    let parsed = commands.parse(args)?;
    // The test hook between the check (which held the files) and their use.
    crate::door::pause("read");
    let door = Door::open_holding(&parsed.plan, held).map_err(|e| e.to_string())?;
    let ctx = Ctx {
        stop,
        graceful: || {},
        door: &door,
        progress: false,
    };
    match (parsed.run)(&ctx)? {
        Outcome::Report {
            report,
            plots,
            status,
            unsaved,
        } => {
            let plots = plots().map_err(|e| e.0)?;
            door.write_dir("--out-dir", |tmp| {
                crate::report::fill_out_dir(tmp, &report, &plots)
            })
            .map_err(|e| format!("cannot write the report folder: {e}"))?;
            match unsaved {
                Some(lost) => Err(lost),
                None => Ok(status_name(status)),
            }
        }
        Outcome::Text(_) => Err("the command made no report".into()),
    }
}
