//! The server's answers: the page, the quick commands (cached), the runs, the folders shown.
//!
//! | request | answer |
//! |---|---|
//! | `GET /` | the page |
//! | `POST /api/command` `{"args": [...], "token": T}` | a quick command's report: `{command, status, json, text, ms, cached}` |
//! | `GET /api/progress?token=T` | the progress of the quick command sent with `"token": T`, while it runs |
//! | `GET /api/runs` | every run: `{runs: [{id, name, command, state, progress, ...}]}` |
//! | `POST /api/runs` `{"args": [...]}` | start a run: `{id, name}` |
//! | `POST /api/runs/stop` `{"id": N}` | stop it (its partial report is written) |
//! | `GET /api/files?root=reports&path=a/b` | a folder's listing |
//! | `GET /files/ROOT/PATH` | a file of a folder shown (`reports` or `runs`) |
//!
//! A refused request is answered 400 (413 for a body too large, 404, 405) with
//! `{"error": message}`, the message the command line prints for the same arguments.

use std::collections::HashMap;
use std::io::Read as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::runs::Runs;
use super::{verb, Commands, Options, WebError, MAX_BODY, MAX_FILE, PAGE, QUICK};
use crate::door::browse::Shown;
use crate::door::input::Held;
use crate::door::{Door, Plan};
use crate::job::{Ctx, Outcome, Status};
use crate::progress::Watch;

/// Most cached answers (the cache is emptied when full).
const CACHE_SIZE: usize = 512;

/// Most arguments in a command, and bytes in one.
const MAX_ARGS: usize = 80;
const MAX_ARG: usize = 2000;

/// What every request thread shares.
pub(super) struct State {
    commands: Arc<dyn Commands>,
    addr: SocketAddr,
    reports: Arc<Shown>,
    /// The reports folder as given (`--reports`).
    reports_path: PathBuf,
    /// The strategies folder, held when it is there (a command may read its files).
    strategies: Option<Arc<Shown>>,
    /// The working folder when the server started: a relative path a command names is below
    /// it (resolved by name once, at the start, as the folders were opened).
    cwd: PathBuf,
    cache: Mutex<HashMap<Vec<String>, Value>>,
    /// The progress of the quick commands under way, by the token the page sent with each.
    watching: Mutex<HashMap<String, Watch>>,
    timeout: Duration,
    pub(super) runs: Runs,
}

/// An answer: status code, content type, body.
struct Answer(u16, &'static str, Vec<u8>);

impl Answer {
    fn json(code: u16, v: &Value) -> Answer {
        Answer(code, "application/json", v.to_string().into_bytes())
    }
    fn error(code: u16, msg: impl Into<String>) -> Answer {
        Answer::json(code, &json!({ "error": msg.into() }))
    }
}

impl State {
    pub(super) fn new(
        opts: &Options,
        addr: SocketAddr,
        commands: Arc<dyn Commands>,
    ) -> Result<State, WebError> {
        let folder = |p: &Path, e: std::io::Error| {
            WebError::Folder(
                p.display().to_string(),
                format!("{e}: give the folder to show with --reports DIR"),
            )
        };
        let reports = Shown::open(&opts.reports).map_err(|e| folder(&opts.reports, e))?;
        let cwd = std::env::current_dir().map_err(|e| folder(Path::new("."), e))?;
        Ok(State {
            runs: Runs::new(opts.runs.clone(), commands.clone()),
            commands,
            addr,
            reports: Arc::new(reports),
            reports_path: opts.reports.clone(),
            strategies: Shown::open(Path::new("strategies")).ok().map(Arc::new),
            cwd,
            cache: Mutex::new(HashMap::new()),
            watching: Mutex::new(HashMap::new()),
            timeout: opts.timeout,
        })
    }

    /// Answer one request (errors writing the answer are the client's: ignored).
    pub(super) fn answer(&self, mut req: tiny_http::Request) {
        let a = self.route(&mut req);
        let mut resp = tiny_http::Response::from_data(a.2).with_status_code(a.0);
        let headers = [
            ("Content-Type", a.1),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ];
        for (k, v) in headers {
            if let Ok(h) = tiny_http::Header::from_bytes(k, v) {
                resp.add_header(h);
            }
        }
        if req.url().starts_with("/files/") {
            // A report's own page runs in a sandbox of its own origin: it cannot call the API.
            if let Ok(h) = tiny_http::Header::from_bytes(
                "Content-Security-Policy",
                "sandbox allow-scripts allow-popups",
            ) {
                resp.add_header(h);
            }
        }
        let _ = req.respond(resp);
    }

    fn route(&self, req: &mut tiny_http::Request) -> Answer {
        use tiny_http::Method::{Get, Post};
        if let Err(a) = self.check_host(req) {
            return a;
        }
        let url = req.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let method = req.method().clone();
        match (&method, path) {
            (Get, "/") | (Get, "/index.html") => {
                Answer(200, "text/html; charset=utf-8", PAGE.as_bytes().to_vec())
            }
            (Get, "/api/files") => self.list(query),
            (Get, p) if p.starts_with("/files/") => self.file(&p["/files/".len()..]),
            (Get, "/api/runs") => Answer::json(200, &self.runs.list()),
            (Get, "/api/progress") => {
                let token = query_map(query).remove("token").unwrap_or_default();
                let seen = self
                    .watching
                    .lock()
                    .ok()
                    .and_then(|w| w.get(&token).and_then(Watch::seen));
                Answer::json(200, &json!({ "progress": seen }))
            }
            (Post, "/api/command" | "/api/runs" | "/api/runs/stop") => {
                let body = match body(req) {
                    Ok(b) => b,
                    Err(a) => return a,
                };
                match path {
                    "/api/command" => match args(&body) {
                        Ok(a) => self.quick(a, body.get("token").and_then(Value::as_str)),
                        Err(e) => e,
                    },
                    "/api/runs" => match args(&body) {
                        Ok(a) => match self.runs.start(a, |p| self.hold_files(p, true)) {
                            Ok(v) => Answer::json(200, &v),
                            Err(e) => Answer::error(400, e),
                        },
                        Err(e) => e,
                    },
                    _ => match body.get("id").and_then(Value::as_u64) {
                        Some(id) => match self.runs.stop(id) {
                            Ok(v) => Answer::json(200, &v),
                            Err(e) => Answer::error(404, e),
                        },
                        None => Answer::error(400, "expected {\"id\": N}, the run to stop"),
                    },
                }
            }
            (_, "/" | "/api/command" | "/api/runs" | "/api/runs/stop" | "/api/files") => {
                Answer::error(405, format!("{method} is not answered at {path}"))
            }
            _ => Answer::error(404, format!("nothing at {path}")),
        }
    }

    /// A request must name the address served (a page of another site that resolves its own
    /// name to this machine cannot use it), unless the server listens beyond loopback.
    fn check_host(&self, req: &tiny_http::Request) -> Result<(), Answer> {
        if !self.addr.ip().is_loopback() {
            return Ok(());
        }
        let host = req
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .map(|h| h.value.as_str().to_string())
            .unwrap_or_default();
        let port = self.addr.port();
        let ok = [
            self.addr.to_string(),
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ];
        match ok.contains(&host) {
            true => Ok(()),
            false => Err(Answer::error(
                400,
                format!(
                    "Host {host:?}: this server answers requests to {} only",
                    self.addr
                ),
            )),
        }
    }

    /// A quick command's answer, from the cache when asked before.
    fn quick(&self, args: Vec<String>, token: Option<&str>) -> Answer {
        let v = verb(&args);
        if !QUICK.contains(&v.as_str()) {
            return Answer::error(
                400,
                format!(
                    "`{v}` is not answered here: the page answers {} at once, and starts {} as runs",
                    QUICK.join(", "),
                    super::RUNS.join(", ")
                ),
            );
        }
        if let Some(hit) = self.cache.lock().ok().and_then(|c| c.get(&args).cloned()) {
            let mut hit = hit;
            hit["cached"] = json!(true);
            hit["ms"] = json!(0.0);
            return Answer::json(200, &hit);
        }
        let t = Instant::now();
        let (tx, rx) = std::sync::mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let (commands, roots, stop2, a) = (
            self.commands.clone(),
            self.roots(),
            stop.clone(),
            args.clone(),
        );
        let watch = Watch::default();
        let token = token.filter(|t| t.len() <= 64).map(str::to_string);
        if let (Some(t), Ok(mut w)) = (&token, self.watching.lock()) {
            w.insert(t.clone(), watch.clone());
        }
        std::thread::spawn(move || {
            let r = watch.during(|| run_quick(&*commands, &a, &roots, &stop2));
            let _ = tx.send(r);
        });
        let r = rx.recv_timeout(self.timeout);
        if let (Some(t), Ok(mut w)) = (&token, self.watching.lock()) {
            w.remove(t);
        }
        let r = match r {
            Ok(r) => r,
            Err(_) => {
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
                return Answer::error(
                    503,
                    format!(
                        "`{}` took longer than {} s: start it as a run, or ask less of it",
                        v,
                        self.timeout.as_secs()
                    ),
                );
            }
        };
        match r {
            Ok(mut v) => {
                v["command"] = json!(command_line(&args));
                v["cached"] = json!(false);
                if let Ok(mut c) = self.cache.lock() {
                    if c.len() >= CACHE_SIZE {
                        c.clear();
                    }
                    c.insert(args, v.clone());
                }
                v["ms"] = json!(t.elapsed().as_secs_f64() * 1e3);
                Answer::json(200, &v)
            }
            Err(e) => Answer::error(400, e),
        }
    }

    /// The files a command names: nothing written (but a run's report folder, `run`), and
    /// every file read held below a folder the server holds: see [`hold_files`].
    fn hold_files(&self, plan: &Plan, run: bool) -> Result<Vec<Held>, String> {
        hold_files(plan, run, &self.roots())
    }

    /// The folders a command may read from, held: the reports, the runs (once there), the
    /// strategies.
    fn roots(&self) -> Roots {
        let mut folders = vec![(self.reports_path.clone(), self.reports.clone())];
        if let Some(runs) = self.runs.shown() {
            folders.push((self.runs.dir().to_path_buf(), runs));
        }
        if let Some(s) = &self.strategies {
            folders.push((PathBuf::from("strategies"), s.clone()));
        }
        Roots {
            cwd: self.cwd.clone(),
            folders,
        }
    }

    /// `GET /api/files?root=reports&path=a/b`.
    fn list(&self, query: &str) -> Answer {
        let q = query_map(query);
        let rel = q.get("path").cloned().unwrap_or_default();
        let root = q.get("root").map(String::as_str).unwrap_or("reports");
        let listed = match root {
            "reports" => self.reports.list(&rel),
            "runs" => match self.runs.shown() {
                Some(s) => s.list(&rel),
                None => Ok(Vec::new()),
            },
            _ => return Answer::error(400, format!("root {root:?}: expected reports or runs")),
        };
        match listed {
            Ok(entries) => Answer::json(
                200,
                &json!({
                    "root": root,
                    "dir": match root {
                        "reports" => self.reports.path().display().to_string(),
                        _ => self.runs.dir().display().to_string(),
                    },
                    "path": rel,
                    "entries": entries
                }),
            ),
            Err(e) => Answer::error(404, e.to_string()),
        }
    }

    /// `GET /files/ROOT/PATH`.
    fn file(&self, rest: &str) -> Answer {
        let rest = percent_decode(rest);
        let (root, rel) = rest.split_once('/').unwrap_or((&rest, ""));
        let read = match root {
            "reports" => self.reports.read(rel, MAX_FILE),
            "runs" => match self.runs.shown() {
                Some(s) => s.read(rel, MAX_FILE),
                None => return Answer::error(404, "no run has been started"),
            },
            _ => return Answer::error(404, format!("nothing at /files/{root}")),
        };
        match read {
            Ok(bytes) => Answer(200, content_type(rel), bytes),
            Err(e) => Answer::error(404, e.to_string()),
        }
    }
}

/// The folders a command may read from, each held since it was first opened, with the path
/// it was given as; and the working folder, against which a relative path is read.
pub(super) struct Roots {
    cwd: PathBuf,
    folders: Vec<(PathBuf, Arc<Shown>)>,
}

impl Roots {
    /// The held folder `path` lies in, and its names below it, read from the path's spelling
    /// alone (nothing at any name is looked at): `None` when it lies in none of them.
    fn place(&self, path: &Path) -> Option<(&Shown, String)> {
        let plain = |p: &Path| -> PathBuf {
            self.cwd
                .join(p)
                .components()
                .filter(|c| !matches!(c, std::path::Component::CurDir))
                .collect()
        };
        let path = plain(path);
        self.folders.iter().find_map(|(root, shown)| {
            let rel = path.strip_prefix(plain(root)).ok()?;
            Some((&**shown, rel.to_str()?.to_string()))
        })
    }
}

/// A plan's files checked and its inputs held: no output but a run's report folder (`run`),
/// and every input a regular file below one of the folders held (`roots`), opened now
/// relative to that folder's handle, one name at a time, no link followed (a name with `..`
/// or a hidden name refused). The command then reads these open files, whatever is put at
/// their names meanwhile.
pub(super) fn hold_files(plan: &Plan, run: bool, roots: &Roots) -> Result<Vec<Held>, String> {
    for o in &plan.outputs {
        if !(run && o.flag == "--out-dir") {
            return Err(format!(
                "{}: the page writes no files (a run's report folder is its own); drop {}",
                o.flag, o.flag
            ));
        }
    }
    let mut held = Vec::new();
    for i in &plan.inputs {
        let Some((shown, rel)) = roots.place(&i.path) else {
            let folders: Vec<String> = roots
                .folders
                .iter()
                .map(|r| r.0.display().to_string())
                .collect();
            return Err(format!(
                "{} {}: the page reads files from the folders it shows only ({})",
                i.flag,
                i.path.display(),
                folders.join(", ")
            ));
        };
        let h = shown
            .hold(&rel, &i.path, i.kind)
            .map_err(|e| format!("{} {}: {e}", i.flag, i.path.display()))?;
        held.push(h);
    }
    Ok(held)
}

/// Parse, check, hold the files and run a quick command: its answer's JSON.
fn run_quick(
    commands: &dyn Commands,
    args: &[String],
    roots: &Roots,
    stop: &AtomicBool,
) -> Result<Value, String> {
    let parsed = commands.parse(args)?;
    let held = hold_files(&parsed.plan, false, roots)?;
    // The test hook between the check (which holds the files) and their use.
    crate::door::pause("read");
    let door = Door::open_holding(&parsed.plan, held).map_err(|e| e.to_string())?;
    let ctx = Ctx {
        stop,
        graceful: || {},
        door: &door,
        progress: false,
    };
    Ok(outcome_json((parsed.run)(&ctx)?))
}

/// A command's outcome as the page reads it.
pub(super) fn outcome_json(o: Outcome) -> Value {
    match o {
        Outcome::Report { report, status, .. } => json!({
            "status": status_name(status),
            "json": report.json,
            "text": report.render(crate::report::Format::Table),
        }),
        Outcome::Text(text) => json!({ "status": "done", "text": text }),
    }
}

pub(super) fn status_name(s: Status) -> &'static str {
    match s {
        Status::Done => "done",
        Status::Failed => "failed",
        Status::Interrupted => "interrupted",
    }
}

/// The command line as typed: `rtplab` and the arguments, quoted where needed.
pub(super) fn command_line(args: &[String]) -> String {
    let mut s = String::from("rtplab");
    for a in args {
        s.push(' ');
        let plain = !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.,:/%+=@".contains(c));
        if plain {
            s.push_str(a);
        } else {
            s.push('\'');
            s.push_str(&a.replace('\'', "'\\''"));
            s.push('\'');
        }
    }
    s
}

/// The body of a POST: JSON, at most [`MAX_BODY`] bytes.
fn body(req: &mut tiny_http::Request) -> Result<Value, Answer> {
    let json_type = req
        .headers()
        .iter()
        .any(|h| h.field.equiv("Content-Type") && h.value.as_str().starts_with("application/json"));
    if !json_type {
        return Err(Answer::error(
            415,
            "send the request as JSON (Content-Type: application/json)",
        ));
    }
    if req.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return Err(Answer::error(
            413,
            format!("the request is larger than {MAX_BODY} bytes"),
        ));
    }
    let mut bytes = Vec::new();
    if let Err(e) = req.as_reader().take(MAX_BODY + 1).read_to_end(&mut bytes) {
        return Err(Answer::error(400, format!("cannot read the request: {e}")));
    }
    if bytes.len() as u64 > MAX_BODY {
        return Err(Answer::error(
            413,
            format!("the request is larger than {MAX_BODY} bytes"),
        ));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| Answer::error(400, format!("the request is not JSON: {e}")))
}

/// `{"args": ["exact", "blackjack", ...]}`: the arguments, bounded.
fn args(body: &Value) -> Result<Vec<String>, Answer> {
    let bad = || {
        Answer::error(400, "expected {\"args\": [\"exact\", \"blackjack\", ...]}: the command line's words, as strings")
    };
    let list = body.get("args").and_then(Value::as_array).ok_or_else(bad)?;
    if list.len() > MAX_ARGS {
        return Err(Answer::error(
            400,
            format!("more than {MAX_ARGS} arguments"),
        ));
    }
    let mut out = Vec::new();
    for a in list {
        let s = a.as_str().ok_or_else(bad)?;
        if s.len() > MAX_ARG || s.contains('\0') {
            return Err(Answer::error(
                400,
                format!("an argument longer than {MAX_ARG} bytes"),
            ));
        }
        out.push(s.to_string());
    }
    Ok(out)
}

fn query_map(q: &str) -> HashMap<String, String> {
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (percent_decode(k), percent_decode(&v.replace('+', " "))))
        .collect()
}

/// `%XX` escapes decoded (a malformed one kept as it is).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "csv" | "md" | "txt" | "log" | "jsonl" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_and_command_lines_quote_what_a_shell_would_split() {
        assert_eq!(percent_decode("a%2Fb%20c"), "a/b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(
            command_line(&[
                "risk".into(),
                "--target-ror".into(),
                "5%".into(),
                "a b".into()
            ]),
            "rtplab risk --target-ror 5% 'a b'"
        );
    }
}
