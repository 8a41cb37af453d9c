//! `rtplab serve`: the page's server, started as a user starts it (the binary, port 0), asked
//! over HTTP as the page asks it: every answer is the command line's for the same arguments,
//! bad input is refused with the command line's message, what the page may not do is refused,
//! runs are watched and stopped with their partial report kept; and the page itself, driven in
//! headless Chromium (the DevTools protocol over a pipe), through every panel.

use crate::common::*;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A server of the binary's, ended when dropped.
struct Served {
    child: Child,
    addr: String,
    runs: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.runs);
    }
}

/// `rtplab serve --port 0` in the package's folder (its reports), runs written to a folder of
/// the test's own.
fn serve(name: &str) -> Served {
    serve_with(name, &[], &[])
}

/// [`serve`] with more arguments and environment variables.
fn serve_with(name: &str, args: &[&str], env: &[(&str, &Path)]) -> Served {
    let runs = temp_dir(&format!("web-{name}"));
    let mut child = process()
        .args(["serve", "--port", "0", "--runs"])
        .arg(&runs)
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("no address printed: {line:?}"))
        .to_string();
    Served { child, addr, runs }
}

/// One HTTP/1.1 request (the connection closed after it): status and body.
fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|h| h.0 == "Host") {
        req += &format!("Host: {addr}\r\n");
    }
    for (k, v) in headers {
        req += &format!("{k}: {v}\r\n");
    }
    req += &format!("Content-Length: {}\r\n\r\n", body.len());
    s.write_all(req.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let code = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    (code, body)
}

fn post(addr: &str, path: &str, v: &Value) -> (u16, Value) {
    let (code, body) = http(
        addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        v.to_string().as_bytes(),
    );
    (
        code,
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{body}")),
    )
}

fn get(addr: &str, path: &str) -> (u16, Value) {
    let (code, body) = http(addr, "GET", path, &[], b"");
    (
        code,
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{body}")),
    )
}

/// A quick command's answer (required to succeed).
fn command(addr: &str, args: &[&str]) -> Value {
    let (code, v) = post(addr, "/api/command", &json!({ "args": args }));
    assert_eq!(code, 200, "{args:?}: {v}");
    v
}

/// The command line's JSON report for the same arguments.
fn cli_json(args: &[&str]) -> Value {
    json(&[args, &["--format", "json", "-q"]].concat())
}

#[test]
fn the_page_is_one_offline_file() {
    let s = serve("page");
    let (code, page) = http(&s.addr, "GET", "/", &[], b"");
    assert_eq!(code, 200);
    assert!(page.contains("<script>") && page.contains("<style>"));
    for fetched in ["src=\"http", "href=\"http", "@import", "url(http", "<link"] {
        assert!(
            !page.contains(fetched),
            "the page fetches something: {fetched}"
        );
    }
}

#[test]
fn the_house_edge_is_the_command_lines_and_a_second_asking_is_cached() {
    let s = serve("exact");
    let args = [
        "exact",
        "blackjack",
        "--decks",
        "6",
        "--h17",
        "--sensitivity",
        "--claim",
        "99.5",
    ];
    let a = command(&s.addr, &args);
    assert_eq!(a["json"], cli_json(&args));
    assert_eq!(a["cached"], false);
    assert_eq!(a["status"], "done");
    assert!(a["text"].as_str().unwrap().contains("Sensitivity"));
    assert_eq!(
        a["command"],
        "rtplab exact blackjack --decks 6 --h17 --sensitivity --claim 99.5"
    );
    let b = command(&s.addr, &args);
    assert_eq!(b["cached"], true);
    assert_eq!(b["json"], a["json"]);
    // The seed table: its answer to the advertised 99.54%.
    let seed = command(&s.addr, &["exact", "blackjack"]);
    assert_eq!(seed["json"]["claim"]["claimed"], 0.9954);
    assert_eq!(seed["json"]["claim"]["reachable"], false);
    // The chart derived for the rules, as `strategies derive` writes it.
    let chart = command(
        &s.addr,
        &["strategies", "derive", "blackjack", "--decks", "6"],
    );
    let out = succeeds(rtplab().args(["strategies", "derive", "blackjack", "--decks", "6", "-q"]));
    assert_eq!(chart["text"], String::from_utf8_lossy(&out.stdout).as_ref());
}

#[test]
fn advice_for_every_game_is_the_command_lines() {
    let s = serve("advise");
    for args in [
        &[
            "advise",
            "blackjack",
            "--hand",
            "A,7",
            "--up",
            "9",
            "--removed",
            "T,T,5",
            "--das",
        ][..],
        &["advise", "doom", "--roll", "1,1,5,2,3,4"],
        &[
            "advise",
            "twenty-one",
            "--row",
            "W6 K5 R4 B3 Y2 G1",
            "--filled",
            "W,R",
            "--hits",
            "1",
            "--roll",
            "W3 K5 R1 B6 Y2 G4",
        ],
    ] {
        let a = command(&s.addr, args);
        assert_eq!(a["json"], cli_json(args), "{args:?}");
        assert!(!a["json"]["options"].as_array().unwrap().is_empty());
    }
}

#[test]
fn bets_and_risk_are_the_command_lines() {
    let s = serve("bets");
    let bets = [
        "strategies",
        "bets",
        "blackjack",
        "--from",
        "reports/counting-hilo-wong/report.json",
        "--bankroll",
        "15000",
        "--table-min",
        "25",
        "--table-max",
        "1000",
        "--chip",
        "5",
        "--target-ror",
        "5%",
        "--trip-rounds",
        "50000",
        "--trials",
        "0",
    ];
    let b = command(&s.addr, &bets);
    assert_eq!(b["json"], cli_json(&bets));
    let m = &b["json"];
    // The page's risk panel: the sheet's EV and SD a round, the same bankroll and trip.
    let (ev, sd) = (m["ev_per_round"].to_string(), m["sd_per_round"].to_string());
    let risk = [
        "risk",
        "--ev",
        &ev,
        "--sd",
        &sd,
        "--bankroll",
        "15000",
        "--rounds",
        "50000",
        "--target-ror",
        "5%",
        "--trials",
        "0",
    ];
    let r = command(&s.addr, &risk);
    assert_eq!(r["json"], cli_json(&risk));
    // The two commands agree with each other: the same walk.
    let close = |a: &Value, b: &Value| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} {b}");
    };
    close(&r["json"]["lifetime"]["ror"], &m["ror"]);
    close(&r["json"]["score"], &m["score"]);
    close(&r["json"]["n0"], &m["n0_rounds"]);
    close(&r["json"]["trip"]["ror"], &m["trip"]["ror"]);
}

/// The blackjack table's side bets as the page offers them (its `SIDES`).
fn page_sides() -> Vec<String> {
    let page = include_str!("../../src/web/page.html");
    let list = page
        .split_once("const SIDES = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the page lists its side bets")
        .0;
    list.split(',')
        .map(|n| n.trim().trim_matches('"').to_string())
        .collect()
}

#[test]
fn every_side_bet_of_the_table_is_offered_and_its_figures_are_the_command_lines() {
    // The page offers each blackjack table of the library, and nothing else.
    let library: Vec<String> = rtplab::sidebet::Paytable::all_built_in()
        .into_iter()
        .filter(|t| t.game == rtplab::sidebet::Game::Blackjack)
        .map(|t| t.name)
        .collect();
    let offered = page_sides();
    assert_eq!(offered, library);
    // Each one's exact RTP, edge, SD and event table are the command line's, under rules
    // that move them (6 decks, H17: Buster Blackjack pays on the dealer's busts).
    let s = serve("sides");
    let mut args = vec!["exact", "blackjack", "--decks", "6", "--h17"];
    for n in &offered {
        args.extend(["--side", n.as_str()]);
    }
    let v = command(&s.addr, &args);
    let cli = cli_json(&args);
    assert_eq!(v["json"]["side_bets"], cli["side_bets"]);
    let sides = cli["side_bets"].as_array().unwrap();
    assert_eq!(sides.len(), library.len());
    // Buster Blackjack's edge, 6 decks H17, as published (pay table 1: 6.21%).
    let buster = sides
        .iter()
        .find(|b| b["name"] == "buster-blackjack")
        .unwrap();
    let edge = -buster["exact"]["ev"].as_f64().unwrap();
    assert!((edge - 0.0621).abs() < 0.0005, "{edge}");
    // The text the page shows beside is the command line's too.
    assert_eq!(
        v["text"].as_str().unwrap(),
        String::from_utf8(succeeds(rtplab().args(&args).arg("-q")).stdout).unwrap()
    );
    // The live variants: a Charlie and a dealer blackjack taking the splits.
    let live = [
        "exact",
        "blackjack",
        "--charlie",
        "6",
        "--dealer-bj-takes",
        "splits",
    ];
    assert_eq!(command(&s.addr, &live)["json"], cli_json(&live));
    // Free Bet Blackjack, as its checkbox asks for it.
    let free = ["exact", "blackjack", "--free-bet"];
    assert_eq!(command(&s.addr, &free)["json"], cli_json(&free));
}

#[test]
fn bad_input_is_refused_with_the_command_lines_message() {
    let s = serve("refused");
    let (code, v) = post(
        &s.addr,
        "/api/command",
        &json!({"args": ["exact", "blackjack", "--decks", "99"]}),
    );
    assert_eq!(code, 400);
    let msg = v["error"].as_str().unwrap();
    let out = rtplab()
        .args(["exact", "blackjack", "--decks", "99", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(msg.trim_start_matches("error: ")),
        "{msg}"
    );
    // clap's own refusals too.
    let (code, v) = post(
        &s.addr,
        "/api/command",
        &json!({"args": ["advise", "blackjack", "--hand", "T,6"]}),
    );
    assert_eq!(code, 400);
    assert!(v["error"].as_str().unwrap().contains("--up"), "{v}");
    for (args, needle) in [
        (json!(["sim", "blackjack"]), "not answered here"),
        (json!(["cache", "clear"]), "not answered here"),
        (
            json!(["exact", "blackjack", "--output", "x.txt"]),
            "writes no files",
        ),
        (
            json!(["exact", "blackjack", "--out-dir", "od"]),
            "writes no files",
        ),
        (
            json!(["risk", "--from", "/etc/passwd", "--bankroll", "100"]),
            "folders it shows",
        ),
        (
            json!(["risk", "--from", "-", "--bankroll", "100"]),
            "folders it shows",
        ),
        (json!([1, 2]), "as strings"),
    ] {
        let (code, v) = post(&s.addr, "/api/command", &json!({ "args": args }));
        assert_eq!(code, 400, "{args}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{args}: {v}");
    }
    // A run must be one of the runs; its files are its own.
    let (code, v) = post(
        &s.addr,
        "/api/runs",
        &json!({"args": ["exact", "blackjack"]}),
    );
    assert_eq!(code, 400, "{v}");
    let (code, v) = post(
        &s.addr,
        "/api/runs",
        &json!({"args": ["sim", "blackjack", "--shard-out", "x.json", "--shard", "1/2"]}),
    );
    assert_eq!(code, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("writes no files"),
        "{v}"
    );
    // Not JSON, not sent as JSON, too large, to another host, outside the folders shown.
    let h = [("Content-Type", "application/json")];
    assert_eq!(http(&s.addr, "POST", "/api/command", &h, b"{args").0, 400);
    assert_eq!(
        http(
            &s.addr,
            "POST",
            "/api/command",
            &[("Content-Type", "text/plain")],
            b"{}"
        )
        .0,
        415
    );
    let big = format!("{{\"args\": [\"{}\"]}}", "x".repeat(70_000));
    let (code, body) = http(&s.addr, "POST", "/api/command", &h, big.as_bytes());
    assert_eq!(code, 413, "{body}");
    let (code, body) = http(&s.addr, "GET", "/", &[("Host", "rebound.example:80")], b"");
    assert_eq!(code, 400, "{body}");
    for path in [
        "/files/reports/../Cargo.toml",
        "/files/reports/%2e%2e/Cargo.toml",
        "/files/etc/passwd",
    ] {
        let (code, body) = http(&s.addr, "GET", path, &[], b"");
        assert_eq!(code, 404, "{path}: {body}");
    }
    assert_eq!(http(&s.addr, "DELETE", "/api/command", &[], b"").0, 405);
}

#[test]
fn the_reports_folder_is_listed_and_read() {
    let s = serve("files");
    let (code, v) = get(&s.addr, "/api/files?root=reports&path=");
    assert_eq!(code, 200);
    let names: Vec<&str> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"counting-hilo-wong") && names.contains(&"seed-table-exact.md"),
        "{names:?}"
    );
    let (code, text) = http(
        &s.addr,
        "GET",
        "/files/reports/seed-table-exact.md",
        &[],
        b"",
    );
    assert_eq!(code, 200);
    assert_eq!(
        text,
        std::fs::read_to_string("reports/seed-table-exact.md").unwrap()
    );
}

/// The page's bets from `from`, at a bankroll.
fn bets_args(from: &str, bankroll: &str) -> Vec<String> {
    [
        "strategies",
        "bets",
        "blackjack",
        "--from",
        from,
        "--bankroll",
        bankroll,
        "--table-min",
        "25",
        "--table-max",
        "1000",
        "--chip",
        "5",
        "--target-ror",
        "5%",
        "--trials",
        "0",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn files_are_held_by_handle_and_nothing_planted_at_a_name_is_followed() {
    // A reports folder of the test's own, a counting report in it; another folder beside with
    // a different report at the same name.
    let t = temp_dir("web-handles");
    let (shown, other) = (t.join("reports"), t.join("elsewhere"));
    for (dir, src) in [
        (&shown, "reports/counting-hilo-wong/report.json"),
        (&other, "reports/counting-hilo-75pct/report.json"),
    ] {
        std::fs::create_dir_all(dir.join("counting-x")).unwrap();
        std::fs::copy(src, dir.join("counting-x/report.json")).unwrap();
    }
    let pause = t.join("pause");
    let s = serve_with(
        "held",
        &["--reports", shown.to_str().unwrap()],
        &[
            ("RTPLAB_TEST_PAUSE", &pause),
            ("RTPLAB_TEST_PAUSE_POINTS", Path::new("read")),
        ],
    );
    let from = shown.join("counting-x/report.json");
    let from = from.to_str().unwrap();
    let cli = |dir: &Path, bankroll: &str| {
        let f = dir.join("counting-x/report.json");
        let a = bets_args(f.to_str().unwrap(), bankroll);
        cli_json(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (held, planted) = (cli(&shown, "15000"), cli(&other, "15000"));
    assert_ne!(held["ev_per_round"], planted["ev_per_round"]);

    // Between holding the file and reading it, its folder is swapped for a link to the
    // other folder: the command reads the file it held.
    let addr = s.addr.clone();
    let args = bets_args(from, "15000");
    let asking = std::thread::spawn(move || post(&addr, "/api/command", &json!({ "args": args })));
    let ready = t.join("pause.read.ready");
    let start = Instant::now();
    while !ready.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the server never paused"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::rename(shown.join("counting-x"), shown.join("counting-x-held")).unwrap();
    std::os::unix::fs::symlink(other.join("counting-x"), shown.join("counting-x")).unwrap();
    std::fs::write(t.join("pause.read.go"), b"").unwrap();
    let (code, v) = asking.join().unwrap();
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["json"], held, "the file held is the file read");

    // Asked again now, the link planted at the folder's name is not followed.
    let again = bets_args(from, "15001");
    let (code, v) = post(&s.addr, "/api/command", &json!({ "args": again }));
    assert_eq!(code, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no links"), "{v}");
    // Nor a link at the file's own name.
    std::fs::remove_file(shown.join("counting-x")).unwrap();
    std::fs::rename(shown.join("counting-x-held"), shown.join("counting-x")).unwrap();
    std::fs::rename(
        shown.join("counting-x/report.json"),
        shown.join("counting-x/held.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        other.join("counting-x/report.json"),
        shown.join("counting-x/report.json"),
    )
    .unwrap();
    let (code, v) = post(&s.addr, "/api/command", &json!({ "args": again }));
    assert_eq!(code, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no links"), "{v}");
    // A name with `..`, spelled to lead back in, is refused too.
    let dotted = format!("{}/../reports/counting-x/held.json", shown.display());
    let (code, v) = post(
        &s.addr,
        "/api/command",
        &json!({ "args": bets_args(&dotted, "15000") }),
    );
    assert_eq!(code, 400, "{v}");

    // The whole reports folder swapped for another: the page still lists and reads the
    // folder it opened, not what is at its name now.
    std::fs::rename(&shown, t.join("reports-held")).unwrap();
    std::os::unix::fs::symlink(&other, &shown).unwrap();
    let (code, v) = get(&s.addr, "/api/files?root=reports&path=counting-x");
    assert_eq!(code, 200, "{v}");
    let names: Vec<&str> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"held.json"), "{names:?}");
    let held_from = format!("{}/counting-x/held.json", shown.display());
    let (code, v) = post(
        &s.addr,
        "/api/command",
        &json!({ "args": bets_args(&held_from, "15000") }),
    );
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["json"]["ev_per_round"], held["ev_per_round"]);
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn an_answer_longer_than_the_timeout_is_refused_and_the_server_goes_on() {
    let s = serve_with("timeout", &["--timeout", "1"], &[]);
    // Fourteen exact analyses with splits to four hands: several seconds on any machine.
    let slow = [
        "exact",
        "blackjack",
        "--max-hands",
        "4",
        "--das",
        "--sensitivity",
    ];
    let t = Instant::now();
    let (code, v) = post(&s.addr, "/api/command", &json!({ "args": slow }));
    let took = t.elapsed();
    assert_eq!(code, 503, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("took longer than 1 s"),
        "{v}"
    );
    assert!(took < Duration::from_secs(4), "answered after {took:?}");
    // The work nobody waits for stops (between two analyses): the server is idle after.
    std::thread::sleep(Duration::from_millis(1500));
    let cpu = || {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", s.child.id())).unwrap();
        let f: Vec<u64> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .skip(11)
            .take(2)
            .map(|x| x.parse().unwrap())
            .collect();
        f[0] + f[1]
    };
    let before = cpu();
    std::thread::sleep(Duration::from_secs(2));
    let ticks = cpu() - before;
    assert!(
        ticks < 30,
        "{ticks} ticks of CPU in 2 s after the answer was given up"
    );
    // The server answers the next one.
    command(
        &s.addr,
        &[
            "risk",
            "--ev",
            "0.01",
            "--sd",
            "1.1",
            "--bankroll",
            "100",
            "--trials",
            "0",
        ],
    );
}

#[test]
fn several_clients_are_answered_at_once() {
    let s = serve("clients");
    let addr = s.addr.clone();
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let decks = ["1", "2", "4", "6"][i % 4];
                command(&addr, &["exact", "blackjack", "--decks", decks])["json"]["ev"]
                    .as_f64()
                    .unwrap()
            })
        })
        .collect();
    let evs: Vec<f64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(evs[0], evs[4]);
    assert!(evs[0] > evs[3]);
}

/// Poll `/api/runs` until `done` holds for the run (at most a minute).
fn run_until(addr: &str, id: u64, done: impl Fn(&Value) -> bool) -> Value {
    let t = Instant::now();
    loop {
        let (_, v) = get(addr, "/api/runs");
        let run = v["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .cloned()
            .unwrap();
        if done(&run) {
            return run;
        }
        assert!(t.elapsed() < Duration::from_secs(60), "{run}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_run_is_watched_stopped_and_its_partial_report_kept() {
    let s = serve("runs");
    let (code, v) = post(
        &s.addr,
        "/api/runs",
        &json!({"args": ["sim", "blackjack", "--rounds", "1e11"]}),
    );
    assert_eq!(code, 200, "{v}");
    let id = v["id"].as_u64().unwrap();
    let run = run_until(&s.addr, id, |r| {
        r["progress"]["done"].as_u64().unwrap_or(0) > 0
    });
    assert_eq!(run["state"], "running");
    assert_eq!(run["progress"]["unit"], "chunks");
    let (code, _) = post(&s.addr, "/api/runs/stop", &json!({ "id": id }));
    assert_eq!(code, 200);
    let run = run_until(&s.addr, id, |r| r["state"] != "running");
    assert_eq!(run["state"], "interrupted", "{run}");
    let report = run["report"].as_str().unwrap();
    let (code, html) = http(&s.addr, "GET", &format!("/files/runs/{report}"), &[], b"");
    assert_eq!(code, 200);
    assert!(html.contains("<html"));
    let folder = s.runs.join(run["name"].as_str().unwrap());
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(j["interrupted"], true, "{j}");
    let (code, _) = post(&s.addr, "/api/runs/stop", &json!({ "id": 999 }));
    assert_eq!(code, 404);
}

// ---- the page in a real browser ------------------------------------------------------------

/// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// commands on descriptor 3, answers on 4, each message ended by a NUL).
struct Browser {
    child: Child,
    to: std::fs::File,
    from: std::sync::mpsc::Receiver<Value>,
    next: u64,
    session: String,
    _profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

impl Browser {
    fn start(browser: &str, profile: PathBuf) -> Browser {
        use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
        use std::os::unix::process::CommandExt;
        let (cmd_r, cmd_w) = rustix::pipe::pipe().unwrap();
        let (ans_r, ans_w) = rustix::pipe::pipe().unwrap();
        let (cr, aw) = (cmd_r.as_raw_fd(), ans_w.as_raw_fd());
        let mut c = std::process::Command::new(browser);
        c.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: between fork and exec only dup2 and forget run (async-signal-safe).
        unsafe {
            c.pre_exec(move || {
                for (from, to) in [(cr, 3), (aw, 4)] {
                    let src = std::os::fd::BorrowedFd::borrow_raw(from);
                    let mut dst = OwnedFd::from_raw_fd(to);
                    let r = rustix::io::dup2(src, &mut dst);
                    std::mem::forget(dst);
                    r?;
                }
                Ok(())
            });
        }
        let child = c.spawn().unwrap();
        drop((cmd_r, ans_w));
        let (tx, rx) = std::sync::mpsc::channel();
        let mut reader = BufReader::new(std::fs::File::from(ans_r));
        std::thread::spawn(move || loop {
            let mut msg = Vec::new();
            match reader.read_until(0, &mut msg) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    msg.pop();
                    if let Ok(v) = serde_json::from_slice::<Value>(&msg) {
                        if tx.send(v).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to: std::fs::File::from(cmd_w),
            from: rx,
            next: 0,
            session: String::new(),
            _profile: profile,
        };
        let t = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = t["targetId"].as_str().unwrap().to_string();
        let a = b.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        b.session = a["sessionId"].as_str().unwrap().to_string();
        b.call("Page.enable", json!({}));
        b
    }

    /// One command (of the page's session once attached) and its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        loop {
            let v = self
                .from
                .recv_timeout(Duration::from_secs(120))
                .expect("the browser answers");
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    fn size(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// The value of a script in the page (promises awaited).
    fn eval(&mut self, script: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": script, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{script}: {r}");
        r["result"]["value"].clone()
    }

    /// Wait until the script's value is true (at most two minutes).
    fn until(&mut self, script: &str) {
        let t = Instant::now();
        // False while the page is not there yet (a navigation under way).
        let guarded =
            format!("(() => {{ try {{ return ({script}); }} catch (e) {{ return false; }} }})()");
        while self.eval(&guarded) != json!(true) {
            if t.elapsed() > Duration::from_secs(120) {
                let seen = self.eval("location.hash + ' | shown: ' + [...document.querySelectorAll('.err.on, .cmd')].map(e => e.id + ': ' + e.textContent).join(' | ')");
                panic!("never true: {script}\n{seen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A click of the mouse at the middle of the element `css`.
    fn click(&mut self, css: &str) {
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({css:?}); e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Open a panel by its tab, as a user does (the page shows it on the hash's change).
    fn tab(&mut self, panel: &str) {
        self.click(&format!("nav a[data-p={panel}]"));
        self.until(&format!(
            "document.getElementById('p-{panel}').classList.contains('on')"
        ));
    }

    /// Type `text` into the field `css` in place of what it holds.
    fn type_into(&mut self, css: &str, text: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({css:?}); e.focus(); e.value = ''; }})()"
        ));
        self.call("Input.insertText", json!({ "text": text }));
    }

    /// Choose `value` in the select `css` (as a user's choice: a change event).
    fn choose(&mut self, css: &str, value: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({css:?}); e.value = {value:?}; e.dispatchEvent(new Event('change', {{bubbles: true}})); }})()"
        ));
    }

    fn text(&mut self, css: &str) -> String {
        self.eval(&format!("document.querySelector({css:?}).textContent"))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The whole page (not only the part in the window), as a PNG.
    fn screenshot(&mut self, path: &Path) {
        let size = self
            .eval("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]");
        let r = self.call(
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1},
            }),
        );
        let png = base64(r["data"].as_str().unwrap());
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        std::fs::write(path, &png).unwrap();
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(val)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= (*d as u32) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// A percentage as the page prints it: "+0.1234%" or "−0.7128%".
fn page_pct(x: f64, d: usize) -> String {
    let s = format!("{:.*}%", d, (x * 100.0).abs());
    if x >= 0.0 {
        format!("+{s}")
    } else {
        format!("−{s}")
    }
}

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn every_panel_works_in_a_real_browser() {
    let Some(browser) = chromium() else {
        eprintln!("no headless browser installed: the browser test is skipped");
        return;
    };
    let s = serve("browser");
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let mut b = Browser::start(browser, temp_dir("web-chromium"));
    b.size(1280, 800, false);
    b.call(
        "Page.navigate",
        json!({ "url": format!("http://{}/", s.addr) }),
    );

    // Rules → house edge: the seed table's answer to 99.54% on load.
    b.until("document.getElementById('ev').textContent !== '–' && !!document.querySelector('#chart td')");
    let seed = cli_json(&["exact", "blackjack", "--sensitivity", "--claim", "99.54"]);
    assert_eq!(b.text("#ev"), page_pct(seed["ev"].as_f64().unwrap(), 4));
    assert!(b
        .text("#verdict")
        .contains(seed["claim"]["verdict"].as_str().unwrap()));
    // The rule changes come after the EV, one analysis each.
    b.until(&format!(
        "document.querySelectorAll('#sens tbody tr').length === {}",
        seed["sensitivity"].as_array().unwrap().len()
    ));
    b.screenshot(&shots.join("rules-1280.png"));
    // Change two rules as a user does: the EV becomes what `exact blackjack` prints for them.
    b.type_into("#decks", "6");
    b.choose("#soft17", "h17");
    b.until("document.getElementById('rules-cmd').textContent.includes('--decks 6 --h17')");
    let h17 = cli_json(&["exact", "blackjack", "--decks", "6", "--h17"]);
    b.until(&format!(
        "document.getElementById('ev').textContent === {:?}",
        page_pct(h17["ev"].as_f64().unwrap(), 4)
    ));
    // A bad rule: the library's message shown, the figures kept.
    b.type_into("#decks", "99");
    b.until("document.getElementById('rules-err').classList.contains('on')");
    assert!(b
        .text("#rules-err")
        .contains("--decks must be between 1 and 64"));
    b.type_into("#decks", "6");
    b.until("!document.getElementById('rules-err').classList.contains('on')");

    // Side bets: each of the table's offered; two chosen, their figures and event tables
    // those `exact blackjack --side` prints for the same rules (its Markdown's cells).
    assert_eq!(
        b.eval("[...document.querySelectorAll('#sides input')].map(e => e.value)"),
        json!(page_sides())
    );
    b.click("#sides input[value='21+3']");
    b.click("#sides input[value='buster-blackjack']");
    b.until("document.getElementById('side-cmd').textContent.includes('--side 21+3 --side buster-blackjack')");
    let side_args = [
        "exact",
        "blackjack",
        "--decks",
        "6",
        "--h17",
        "--side",
        "21+3",
        "--side",
        "buster-blackjack",
        "--format",
        "markdown",
        "-q",
    ];
    let md = String::from_utf8(succeeds(rtplab().args(side_args)).stdout).unwrap();
    let cells = |table: &str| -> Vec<Vec<String>> {
        md.split("\n\n")
            .find(|t| t.contains(table))
            .unwrap_or_else(|| panic!("{table} in\n{md}"))
            .lines()
            .filter(|l| l.starts_with('|') && !l.starts_with("|--"))
            .skip(1)
            .map(|l| {
                l.trim_matches('|')
                    .split('|')
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect()
    };
    let page_cells = |b: &mut Browser, css: &str| -> Vec<Vec<String>> {
        let v = b.eval(&format!(
            "[...document.querySelectorAll({css:?})].map(r => [...r.cells].map(c => c.textContent.replace(/\\u2212/g, '-')))"
        ));
        serde_json::from_value(v).unwrap()
    };
    assert_eq!(
        page_cells(&mut b, "#side-sum tbody tr"),
        cells("| side bet | RTP |")
    );
    for name in ["21+3", "buster-blackjack"] {
        let heading = format!("side bet {name}: events");
        let table = md
            .split("\n\n")
            .skip_while(|t| !t.contains(&heading))
            .nth(1)
            .unwrap()
            .to_string();
        let want: Vec<Vec<String>> = table
            .lines()
            .filter(|l| l.starts_with('|') && !l.starts_with("|--"))
            .skip(1)
            .map(|l| {
                l.trim_matches('|')
                    .split('|')
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect();
        assert!(want.len() > 2, "{name}: {table}");
        assert_eq!(
            page_cells(
                &mut b,
                &format!("table.events[data-side='{name}'] tbody tr")
            ),
            want,
            "{name}"
        );
    }
    b.screenshot(&shots.join("sides-1280.png"));
    // The live variants: a six-card Charlie, a dealer blackjack taking the splits.
    b.choose("#charlie", "6");
    b.choose("#holecard", "splits");
    b.until("document.getElementById('rules-cmd').textContent.includes('--dealer-bj-takes splits') && document.getElementById('rules-cmd').textContent.includes('--charlie 6')");
    let live = cli_json(&[
        "exact",
        "blackjack",
        "--decks",
        "6",
        "--h17",
        "--dealer-bj-takes",
        "splits",
        "--charlie",
        "6",
    ]);
    b.until(&format!(
        "document.getElementById('ev').textContent === {:?}",
        page_pct(live["ev"].as_f64().unwrap(), 4)
    ));
    b.choose("#charlie", "");
    b.choose("#holecard", "all");
    b.until("!document.getElementById('rules-cmd').textContent.includes('--charlie')");
    // Free Bet Blackjack: its checkbox, and the EV the command line gives.
    b.click("#freebet");
    b.until("document.getElementById('rules-cmd').textContent.includes('--free-bet')");
    let free = cli_json(&["exact", "blackjack", "--decks", "6", "--h17", "--free-bet"]);
    b.until(&format!(
        "document.getElementById('ev').textContent === {:?}",
        page_pct(free["ev"].as_f64().unwrap(), 4)
    ));
    b.click("#freebet");
    b.until("!document.getElementById('rules-cmd').textContent.includes('--free-bet')");

    // Hand advisor: the rules of the Rules panel, the hand typed.
    b.tab("advise");
    b.type_into("#a-hand", "A,7");
    b.until("document.getElementById('advise-cmd').textContent.includes('--hand A,7')");
    let advice = cli_json(&[
        "advise",
        "blackjack",
        "--decks",
        "6",
        "--h17",
        "--hand",
        "A,7",
        "--up",
        "9",
    ]);
    let best = advice["options"][0]["action"].as_str().unwrap();
    assert_eq!(b.text("#advice tbody tr.best td"), format!("{best} ★"));
    assert_eq!(
        b.eval("document.querySelectorAll('#advice tbody tr').length"),
        json!(advice["options"].as_array().unwrap().len())
    );
    b.screenshot(&shots.join("advise-1280.png"));
    b.choose("#a-game", "doom");
    b.until("document.getElementById('advise-cmd').textContent.includes('advise doom')");
    let doom = cli_json(&["advise", "doom", "--roll", "1,5,2,2,3,4"]);
    assert!(b
        .text("#advice tbody tr.best td")
        .starts_with(doom["options"][0]["action"].as_str().unwrap()));
    b.choose("#a-game", "twenty-one");
    b.until("document.getElementById('advise-cmd').textContent.includes('advise twenty-one')");
    let tw = cli_json(&[
        "advise",
        "twenty-one",
        "--row",
        "W6 K5 R4 B3 Y2 G1",
        "--roll",
        "W3 K5 R1 B6 Y2 G4",
        "--filled",
        "W,R",
        "--hits",
        "1",
    ]);
    assert_eq!(
        b.text("#advice tbody tr.best td"),
        format!("{} ★", tw["options"][0]["action"].as_str().unwrap())
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#advice tbody tr').length"),
        json!(tw["options"].as_array().unwrap().len())
    );

    // Counting calculator: bets recomputed as the bankroll changes, equal to the CLI's.
    b.tab("bets");
    b.until("document.getElementById('risk-cmd').textContent.includes('rtplab risk')");
    b.type_into("#b-bank", "20000");
    b.until("document.getElementById('risk-cmd').textContent.includes('--bankroll 20000')");
    let bets = cli_json(&[
        "strategies",
        "bets",
        "blackjack",
        "--from",
        "reports/counting-hilo-wong/report.json",
        "--bankroll",
        "20000",
        "--table-min",
        "25",
        "--table-max",
        "1000",
        "--chip",
        "5",
        "--rounds-per-hour",
        "100",
        "--trials",
        "0",
        "--target-ror",
        "5%",
        "--trip-rounds",
        "50000",
    ]);
    assert_eq!(
        b.text("#b-rorv"),
        format!("{:.2}%", bets["ror"].as_f64().unwrap() * 100.0)
    );
    assert_eq!(
        b.text("#b-score"),
        format!("{:.2}", bets["score"].as_f64().unwrap())
    );
    b.screenshot(&shots.join("bets-1280.png"));

    // Runs: start one, watch it, stop it, its partial report there to open.
    b.tab("runs");
    b.type_into("#r-n", "1e11");
    b.click("#r-start");
    b.until("!!document.querySelector('#runs tr[data-state=running] .prog div') && parseFloat(document.querySelector('#runs tr[data-state=running] .prog div').style.width) >= 0 && document.querySelector('#runs tr[data-state=running]').textContent.includes('%')");
    b.screenshot(&shots.join("runs-1280.png"));
    b.click("#runs button[data-stop]");
    b.until(
        "!!document.querySelector('#runs tr[data-state=interrupted] a[href$=\"report.html\"]')",
    );
    let href = b.eval("document.querySelector('#runs tr[data-state=interrupted] a[href$=\"report.html\"]').getAttribute('href')");
    let (code, _) = http(&s.addr, "GET", href.as_str().unwrap(), &[], b"");
    assert_eq!(code, 200);

    // Phone width: every panel one column, nothing wider than the screen.
    b.size(390, 844, true);
    for panel in ["rules", "advise", "bets", "runs"] {
        b.tab(panel);
        if panel == "rules" {
            // The rule changes settled: no progress of an earlier rule set left behind.
            b.until("document.getElementById('sens-p').textContent === '' && !document.getElementById('sens-h').classList.contains('busy')");
        }
        std::thread::sleep(Duration::from_millis(300));
        let wide = b.eval("document.documentElement.scrollWidth");
        assert!(
            wide.as_f64().unwrap() <= 390.0,
            "{panel}: {wide} px wide at 390"
        );
        b.screenshot(&shots.join(format!("{panel}-390.png")));
    }
    eprintln!("screenshots in {}", shots.display());
}

#[test]
fn a_slow_answer_shows_its_progress_while_it_works() {
    let s = serve("progress");
    let addr = s.addr.clone();
    let asking = std::thread::spawn(move || {
        let body =
            json!({"args": ["exact", "blackjack", "--decks", "2", "--sensitivity"], "token": "t1"});
        post(&addr, "/api/command", &body)
    });
    let t = Instant::now();
    let mut seen = Value::Null;
    while seen.is_null() && !asking.is_finished() && t.elapsed() < Duration::from_secs(60) {
        seen = get(&s.addr, "/api/progress?token=t1").1["progress"].clone();
        std::thread::sleep(Duration::from_millis(5));
    }
    let (code, v) = asking.join().unwrap();
    assert_eq!(code, 200, "{v}");
    assert!(!seen.is_null(), "no progress seen while it worked");
    assert!(seen["of"].as_u64().unwrap() > 0, "{seen}");
    // Gone once answered.
    assert!(get(&s.addr, "/api/progress?token=t1").1["progress"].is_null());
}
