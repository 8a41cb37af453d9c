//! `rtplab serve`: one page on this machine that answers as its controls change (the house
//! edge of a rule set, advice on a hand, bets for a bankroll, runs started and stopped), with
//! the JSON API it calls.
//!
//! The page asks for command lines, and the server runs them as the command line does: the
//! binary hands it the command line's own parser ([`Commands`]: the same arguments, the same
//! argument rules, the same library jobs and errors), and every figure on the page is the one
//! the command prints. What it may run is fixed here: quick commands answered at once
//! ([`QUICK`]) and runs in the background ([`RUNS`]); no command may write a file but a run's
//! report folder, and every file read is below a folder the server shows.
//!
//! Safe by design: bound to loopback unless told otherwise; a request's body is at most
//! [`MAX_BODY`] bytes and a quick command's time at most `Options::timeout`; a request must
//! come to the address served (its `Host`) and a command as JSON (which a page of another site
//! cannot send without the server's leave, which it never gives); files through the door
//! ([`crate::door::browse`]).

mod api;
mod runs;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::door::Plan;
use crate::job::{Ctx, Outcome};

/// The page: HTML, CSS and script in one file, nothing fetched.
pub const PAGE: &str = include_str!("page.html");

/// The most bytes a request's body may have.
pub const MAX_BODY: u64 = 64 * 1024;

/// The most bytes of a file shown from a served folder.
pub const MAX_FILE: u64 = 64 * 1024 * 1024;

/// The commands answered at once (the words before the first option).
pub const QUICK: &[&str] = &[
    "exact blackjack",
    "strategies derive blackjack",
    "advise blackjack",
    "advise doom",
    "advise twenty-one",
    "strategies bets blackjack",
    "risk",
];

/// The commands started as runs (watched, stopped, their report folder kept).
pub const RUNS: &[&str] = &[
    "sim blackjack",
    "sim doom",
    "sim twenty-one",
    "sim baccarat",
    "audit blackjack",
    "audit doom",
];

/// A command line parsed as the binary parses it.
pub struct Parsed {
    /// The files it reads and writes.
    pub plan: Plan,
    /// Build the job from the arguments (their rules checked, names resolved) and run it;
    /// called once the door holds the plan's files.
    pub run: Run,
}

/// A parsed command's work: build the job and run it with the server's context.
pub type Run = Box<dyn FnOnce(&Ctx) -> Result<Outcome, String>>;

/// The command line's parser, handed down by the binary (the library has no command-line
/// types).
pub trait Commands: Send + Sync + 'static {
    /// Parse `args` (without the program's name) as the command line would be parsed: an
    /// error is the message the command line prints.
    fn parse(&self, args: &[String]) -> Result<Parsed, String>;
}

/// How the server is started.
pub struct Options {
    /// The address to listen on (port 0: one the system picks).
    pub bind: SocketAddr,
    /// The reports folder shown read-only (and read from: `--from` reports).
    pub reports: PathBuf,
    /// Where runs started from the page write their report folders (made when needed).
    pub runs: PathBuf,
    /// Threads answering requests (each request on one).
    pub threads: usize,
    /// The longest a quick command may take.
    pub timeout: Duration,
}

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, String),
    #[error("{0}: {1}")]
    Folder(String, String),
}
crate::job::carried!(WebError);

/// A started server: its address, and the threads serving it until [`Server::stop`] or the
/// stop flag.
pub struct Server {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    http: Arc<tiny_http::Server>,
    workers: Vec<std::thread::JoinHandle<()>>,
    state: Arc<api::State>,
}

impl Server {
    /// Listen on `opts.bind` and serve on `opts.threads` threads until `stop` is raised.
    pub fn start(
        opts: Options,
        commands: Arc<dyn Commands>,
        stop: Arc<AtomicBool>,
    ) -> Result<Server, WebError> {
        let http = tiny_http::Server::http(opts.bind)
            .map_err(|e| WebError::Bind(opts.bind, e.to_string()))?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| WebError::Bind(opts.bind, "not an IP address".into()))?;
        let state = Arc::new(api::State::new(&opts, addr, commands)?);
        let http = Arc::new(http);
        let workers = (0..opts.threads.max(1))
            .map(|_| {
                let (http, state, stop) = (http.clone(), state.clone(), stop.clone());
                std::thread::spawn(move || {
                    while !stop.load(Ordering::SeqCst) {
                        match http.recv_timeout(Duration::from_millis(200)) {
                            Ok(Some(req)) => state.answer(req),
                            Ok(None) => {}
                            Err(_) => break,
                        }
                    }
                })
            })
            .collect();
        Ok(Server {
            addr,
            stop,
            http,
            workers,
            state,
        })
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serve until the stop flag is raised (Ctrl-C): then stop every run (each writes its
    /// partial report) and return.
    pub fn wait(self) {
        while !self.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
        }
        self.shut();
    }

    /// Stop serving now (runs stopped, their partial reports written).
    pub fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        self.shut();
    }

    fn shut(self) {
        self.http.unblock();
        for w in self.workers {
            let _ = w.join();
        }
        self.state.runs.stop_all();
    }
}

/// `rtplab serve`: start the server, say where it is, serve until `stop`.
pub fn serve(
    opts: Options,
    commands: Arc<dyn Commands>,
    stop: Arc<AtomicBool>,
) -> Result<(), WebError> {
    let reports = opts.reports.display().to_string();
    let runs = opts.runs.display().to_string();
    let loopback = opts.bind.ip().is_loopback();
    let server = Server::start(opts, commands, stop)?;
    crate::door::say(&format!(
        "rtplab serve: {} (reports from {reports}, runs written to {runs}{}); Ctrl-C stops",
        server.url(),
        if loopback {
            ""
        } else {
            "; open to the network: anyone who reaches this address can run commands"
        }
    ));
    // The address on standard output too, alone on its line, for a script that started it.
    let _ = crate::door::write_stdout(format!("{}\n", server.url()).as_bytes());
    server.wait();
    Ok(())
}

/// The words of a command line before its first option ("exact blackjack").
pub fn verb(args: &[String]) -> String {
    args.iter()
        .take_while(|a| !a.starts_with('-'))
        .take(3)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}
