//! The interleaved timer's chunk server (`rtplab bench-serve`, `rtplab::game::serve`): the
//! chunks it serves are the run's own (its checksum after the run's chunks is that of `sim`
//! with the same arguments, however the requests split them), its protocol, and its refusals
//! (exit 2, no panic, no hang).

use crate::common::*;

use std::io::Write;
use std::process::Stdio;
use std::sync::atomic::AtomicBool;

use rtplab::game::serve::{checksum, Answer, Hello, Server, Want};
use rtplab::game::{simulate, Game, RunSpec};
use rtplab::games::blackjack::{
    kept::Kept, resolve::resolve_strategy, rules::Rules, BjConfig, Blackjack,
};

fn spec(seed: u64) -> RunSpec {
    RunSpec {
        seed,
        threads: Some(2),
        ..RunSpec::default()
    }
}

#[test]
fn the_chunks_served_are_the_runs_chunks_however_the_requests_split_them() {
    let rules = Rules::seed();
    let strategy = resolve_strategy("basic", &rules, &Kept::Fresh).unwrap();
    let cfg = BjConfig::new(rules, strategy, 300_000);
    let run = simulate::<Blackjack>(cfg.clone(), &spec(7), &AtomicBool::new(false)).unwrap();
    let want = checksum::<Blackjack>(&cfg, &run.acc);

    let mut one = Server::<Blackjack>::new(cfg.clone(), &spec(7)).unwrap();
    let n = one.hello().chunks;
    assert!(n >= 10, "{n} chunks");
    let all = one.play(Want::Chunks(n));
    assert_eq!((all.chunks, all.units), (n, run.acc.counts.rounds));
    assert_eq!(all.sum, want);
    assert_eq!(one.total(), &run.acc);

    let mut split = Server::<Blackjack>::new(cfg.clone(), &spec(7)).unwrap();
    let a = split.play(Want::Chunks(3));
    let b = split.play(Want::Chunks(n - 3));
    assert_ne!(a.sum, b.sum);
    assert_eq!(b.sum, want);
    assert_eq!(a.units + b.units, all.units);
    assert_eq!(split.total(), &run.acc);

    // `play ROUNDS`: whole chunks until at least that many rounds; past the run's last chunk
    // the stream goes on.
    let mut rounds = Server::<Blackjack>::new(cfg.clone(), &spec(7)).unwrap();
    let r = rounds.play(Want::Units(50_000));
    assert!(r.units >= 50_000 && r.chunks >= 1, "{r:?}");
    let per_chunk = all.units as f64 / n as f64;
    assert!((r.units as f64) < 50_000.0 + 2.0 * per_chunk, "{r:?}");
    let past = rounds.play(Want::Chunks(n));
    assert_ne!(past.sum, want);
    // Another seed, other chunks.
    let mut other = Server::<Blackjack>::new(cfg, &spec(8)).unwrap();
    assert_ne!(other.play(Want::Chunks(n)).sum, want);
}

#[test]
fn a_run_option_the_server_cannot_honour_is_refused() {
    let rules = Rules::seed();
    let cfg = BjConfig::new(
        rules.clone(),
        resolve_strategy("basic", &rules, &Kept::Fresh).unwrap(),
        1000,
    );
    let s = RunSpec {
        shard_out: Some("x.json".into()),
        ..spec(1)
    };
    let e = Server::<Blackjack>::new(cfg.clone(), &s).err().unwrap();
    assert!(e.to_string().starts_with("--shard-out: bench-serve"), "{e}");
    let bad = BjConfig { rounds: 0, ..cfg };
    let e = Server::<Blackjack>::new(bad, &spec(1)).err().unwrap();
    assert!(e.to_string().contains("--rounds 0"), "{e}");
}

/// `bench-serve` with `args` fed `input`: exit code, standard output, standard error.
fn serve(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = process()
        .arg("bench-serve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A server that refuses its arguments may be gone before the input is written.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn the_binary_serves_a_counting_run_whose_chunks_are_sims_own() {
    let d = temp_dir("serve-count");
    let shard = d.join("run.json");
    let run = [
        "blackjack",
        "--rounds",
        "200k",
        "--seed",
        "5",
        "--count",
        "hi-lo",
        "--ramp",
        "1:1,2:4",
    ];
    succeeds(rtplab().arg("sim").args(run).args([
        "--shard-out",
        shard.to_str().unwrap(),
        "--quiet",
        "--format",
        "json",
    ]));
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shard).unwrap()).unwrap();
    let cfg: BjConfig = serde_json::from_value(file["key"]["config"].clone()).unwrap();
    let acc: <Blackjack as Game>::Acc = serde_json::from_value(file["acc"].clone()).unwrap();
    let chunks = file["chunks_done"].as_u64().unwrap();
    assert!(cfg.count.is_some() && chunks > 2);

    let input = format!("chunks 2\n\nchunks {}\nquit\nplay 5\n", chunks - 2);
    let (code, out, err) = serve(&run, &input);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let hello = Hello::parse(lines[0]).unwrap();
    assert_eq!(
        (hello.game.as_str(), hello.seed, hello.chunks),
        ("blackjack", 5, chunks)
    );
    let a = Answer::parse(lines[1]).unwrap();
    let b = Answer::parse(lines[2]).unwrap();
    assert_eq!((a.chunks, b.chunks), (2, chunks - 2));
    assert_eq!(a.units + b.units, acc.counts.rounds);
    assert!(a.ns > 0 && b.ns > a.ns / 100, "{out}");
    // The serving thread's CPU time over the play: some, and not more than the wall clock's
    // (one thread) but for the clocks' granularity.
    assert!(b.cpu_ns > 0 && b.cpu_ns <= b.ns + 10_000_000, "{out}");
    assert_eq!(b.sum, checksum::<Blackjack>(&cfg, &acc));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_requests_and_arguments_end_the_server_with_exit_2() {
    // A request it does not know: said on the pipe and on standard error.
    let (code, out, err) = serve(&["blackjack", "--rounds", "100k"], "play 1000\nplay two\n");
    assert_eq!(code, Some(2), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(Hello::parse(lines[0]).is_some() && Answer::parse(lines[1]).is_some());
    assert!(
        lines[2].starts_with("error: bad request 'play two'"),
        "{out}"
    );
    assert!(
        err.contains("bad request 'play two'") && !err.contains("panicked"),
        "{err}"
    );
    // No input: the hello, then a clean end.
    let (code, out, _) = serve(&["doom", "--turns", "10k"], "");
    assert_eq!(code, Some(0));
    assert!(out.starts_with("rtplab-serve 2 game=doom "), "{out}");
    // Arguments refused before anything is served.
    for (args, needle) in [
        (&["blackjack", "--bogus"][..], "--bogus"),
        (&["blackjack", "-o", "x.txt"], "--output: bench-serve"),
        (&["blackjack", "--out-dir", "x"], "--out-dir: bench-serve"),
        (&["blackjack", "--rounds", "0"], "--rounds"),
        (&["twenty-one", "--sweep-c", "0,1"], "--sweep-c"),
        (&["poker"], "poker"),
    ] {
        let (code, out, err) = serve(args, "play 1000\n");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    assert!(!std::path::Path::new("x.txt").exists());
}
