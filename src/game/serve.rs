//! The chunk server the interleaved timer drives (`benches/interleave/`): a run's chunks
//! played on request, in order, on one thread, each request timed inside the process.
//!
//! Whole runs of two builds on a shared machine move by 5–10% from run to run, more than most
//! changes to the round loop. The timer starts both builds as servers of the same run
//! (`rtplab bench-serve GAME <the arguments of sim GAME>`, a hidden command) and asks each in
//! turn to play the next stretch of rounds: both play the same chunks, seconds apart, so
//! whatever else the machine does falls on both alike, and the pairwise ratio cancels it.
//!
//! The server plays the run's chunks in order from chunk 0, as the engine does (chunk `c`
//! from `rng::chunk_rng(seed, c)`, each chunk's sums merged into the run's), and goes on past
//! the run's last chunk when asked for more: chunks `0..plan.chunks` are exactly the run
//! `sim` makes with the same arguments. Each answer carries a checksum of the sums of every
//! chunk played so far ([`checksum`]), so two builds meant to give the same numbers prove they
//! did the same work, and the work cannot be optimised away.
//!
//! The protocol, one line each way:
//! - the server starts with its hello: `rtplab-serve 2 game=G seed=S chunks=N chunk_size=K`
//!   (the run's planned chunks and their size, in the game's unit);
//! - `play N` plays whole chunks until at least `N` rounds (turns, games, coups: the count
//!   of the game's headline estimate) are played; `chunks N` plays `N` chunks; either
//!   answers `played units=U chunks=C ns=T cpu=P sum=X`: `T` the nanoseconds of the play
//!   alone by the wall clock, `P` the serving thread's CPU time over the same play (time the
//!   thread was not running, with the machine's other work on the core, is not in it), and
//!   `X` the checksum in hex;
//! - `quit`, or the end of the input, ends the server; any other line is answered
//!   `error: ...` and ends it with that error.

use std::io::{BufRead, Write};
use std::time::Instant;

use super::{Chunks, Game, RunSpec};
use crate::engine::Merge;
use crate::rng::ChunkStreams;

/// The protocol's first word and version, the start of every hello.
pub const HELLO: &str = "rtplab-serve 2";

/// Why serving stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A run option the server has no use for.
    #[error("{0}: bench-serve plays chunks on request and writes only its answers on standard output; leave it out")]
    Option(&'static str),
    /// A request that is not one of the protocol's.
    #[error("bad request '{line}': {why} (the requests are `play ROUNDS`, `chunks N` and `quit`)")]
    Request { line: String, why: String },
    /// The run cannot be set up (the game's own error).
    #[error(transparent)]
    Game(Box<dyn std::error::Error + Send + Sync>),
    /// Reading the requests or writing the answers failed.
    #[error("bench-serve: {0}")]
    Io(#[from] std::io::Error),
}

/// How much one request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Whole chunks until at least this many units (rounds) are played.
    Units(u64),
    /// This many chunks.
    Chunks(u64),
}

/// A request line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    Play(Want),
    Quit,
}

impl Request {
    /// The request a line holds.
    pub fn parse(line: &str) -> Result<Request, ServeError> {
        let bad = |why: &str| ServeError::Request {
            line: line.trim().chars().take(80).collect(),
            why: why.into(),
        };
        let mut words = line.split_whitespace();
        let (verb, arg) = (words.next(), words.next());
        if words.next().is_some() {
            return Err(bad("more than two words"));
        }
        let count = || -> Result<u64, ServeError> {
            let n = arg.ok_or_else(|| bad("no count"))?;
            match n.parse::<u64>() {
                Ok(0) | Err(_) => Err(bad("the count must be a whole number from 1")),
                Ok(n) => Ok(n),
            }
        };
        match verb {
            Some("play") => Ok(Request::Play(Want::Units(count()?))),
            Some("chunks") => Ok(Request::Play(Want::Chunks(count()?))),
            Some("quit") if arg.is_none() => Ok(Request::Quit),
            _ => Err(bad("unknown request")),
        }
    }
}

/// The server's first line: what it serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    pub game: String,
    pub seed: u64,
    /// The run's planned chunks (the chunks `sim` plays with the same arguments).
    pub chunks: u64,
    /// Their size, in the game's unit (shoes for blackjack dealt to a cut card).
    pub chunk_size: u64,
}

impl std::fmt::Display for Hello {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{HELLO} game={} seed={} chunks={} chunk_size={}",
            self.game, self.seed, self.chunks, self.chunk_size
        )
    }
}

impl Hello {
    /// The hello a line holds (`None`: not a hello of this protocol).
    pub fn parse(line: &str) -> Option<Hello> {
        let rest = line.trim().strip_prefix(HELLO)?.strip_prefix(' ')?;
        let f = fields(rest, &["game", "seed", "chunks", "chunk_size"])?;
        Some(Hello {
            game: f[0].to_string(),
            seed: f[1].parse().ok()?,
            chunks: f[2].parse().ok()?,
            chunk_size: f[3].parse().ok()?,
        })
    }
}

/// The answer to one `play` or `chunks` request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Units (rounds) played for this request.
    pub units: u64,
    /// Chunks played for this request.
    pub chunks: u64,
    /// Nanoseconds of the play by the wall clock (the chunks alone: not the request's reading
    /// or the answer's writing).
    pub ns: u64,
    /// Nanoseconds of CPU time the serving thread spent on the same play.
    pub cpu_ns: u64,
    /// [`checksum`] of the sums of every chunk played so far.
    pub sum: u64,
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "played units={} chunks={} ns={} cpu={} sum={:016x}",
            self.units, self.chunks, self.ns, self.cpu_ns, self.sum
        )
    }
}

impl Answer {
    /// The answer a line holds (`None`: not an answer).
    pub fn parse(line: &str) -> Option<Answer> {
        let rest = line.trim().strip_prefix("played ")?;
        let f = fields(rest, &["units", "chunks", "ns", "cpu", "sum"])?;
        Some(Answer {
            units: f[0].parse().ok()?,
            chunks: f[1].parse().ok()?,
            ns: f[2].parse().ok()?,
            cpu_ns: f[3].parse().ok()?,
            sum: u64::from_str_radix(f[4], 16).ok()?,
        })
    }

    /// Wall-clock nanoseconds per unit (round).
    pub fn ns_per_unit(&self) -> f64 {
        self.ns as f64 / self.units.max(1) as f64
    }

    /// CPU nanoseconds per unit (round).
    pub fn cpu_ns_per_unit(&self) -> f64 {
        self.cpu_ns as f64 / self.units.max(1) as f64
    }
}

/// The values of `key=value` words, exactly the keys `keys` in that order.
fn fields<'a>(text: &'a str, keys: &[&str]) -> Option<Vec<&'a str>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() != keys.len() {
        return None;
    }
    words
        .iter()
        .zip(keys)
        .map(|(w, k)| w.strip_prefix(k)?.strip_prefix('='))
        .collect()
}

/// A checksum of a run's sums: FNV-1a over the headline estimate's sums (Σx, Σy, Σx², the
/// observations) and its count. Two builds that play the same chunks the same way give the
/// same checksum; it depends on nothing a build may lay out differently (the sums' other
/// fields, their serialization).
pub fn checksum<G: Game>(cfg: &G::Config, acc: &G::Acc) -> u64 {
    let h = G::headline(cfg, acc);
    let r = &h.ratio;
    let mut sum: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = [
        &r.x.to_le_bytes()[..],
        &r.y.to_le_bytes(),
        &r.xx.to_le_bytes(),
        &r.n.to_le_bytes(),
        &h.count.to_le_bytes(),
    ];
    for b in bytes.iter().flat_map(|b| b.iter()) {
        sum ^= *b as u64;
        sum = sum.wrapping_mul(0x0000_0100_0000_01b3);
    }
    sum
}

/// A run served chunk by chunk: the next chunk to play, and the sums of those played.
pub struct Server<G: Game> {
    config: G::Config,
    hello: Hello,
    sim: super::BoxedSim<G::Acc>,
    streams: ChunkStreams,
    next: u64,
    total: G::Acc,
}

impl<G: Game> Server<G> {
    /// Set up the run `sim GAME` would make of `config` and `spec` (a whole run: no shard, no
    /// shard file, no checkpoint; threads and progress are not used, the server plays on the
    /// calling thread).
    pub fn new(config: G::Config, spec: &RunSpec) -> Result<Server<G>, ServeError> {
        let refused = [
            ("--shard", spec.shard.is_some()),
            ("--shard-out", spec.shard_out.is_some()),
            ("--checkpoint", spec.checkpoint.is_some()),
        ];
        if let Some((flag, _)) = refused.iter().find(|r| r.1) {
            return Err(ServeError::Option(flag));
        }
        let game = |e: G::Error| ServeError::Game(Box::new(e));
        G::validate(&config).map_err(game)?;
        let (plan, sim) = G::prepare(&config, spec.seed, spec.chunk, 1).map_err(game)?;
        Ok(Server {
            config,
            hello: Hello {
                game: G::NAME.to_string(),
                seed: spec.seed,
                chunks: plan.chunks(),
                chunk_size: plan.chunk_size(),
            },
            sim,
            streams: ChunkStreams::new(spec.seed),
            next: 0,
            total: G::Acc::default(),
        })
    }

    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// The sums of every chunk played so far.
    pub fn total(&self) -> &G::Acc {
        &self.total
    }

    /// Play the next chunks, as many as `want` asks; time the play alone.
    pub fn play(&mut self, want: Want) -> Answer {
        let (mut units, mut chunks) = (0u64, 0u64);
        let cpu = thread_cpu_ns();
        let start = Instant::now();
        loop {
            let done = match want {
                Want::Units(n) => units >= n,
                Want::Chunks(n) => chunks >= n,
            };
            if done {
                break;
            }
            let c = self.next;
            let mut rng = self.streams.stream(c);
            let mut acc = G::Acc::default();
            self.sim.run_chunk(c, &mut rng, &mut acc);
            units += G::headline(&self.config, &acc).count;
            self.total.merge(&acc);
            self.next += 1;
            chunks += 1;
        }
        let ns = start.elapsed().as_nanos().min(u64::MAX as u128) as u64;
        let cpu_ns = thread_cpu_ns().saturating_sub(cpu);
        Answer {
            units,
            chunks,
            ns,
            cpu_ns,
            sum: checksum::<G>(&self.config, &self.total),
        }
    }
}

/// The CPU time the calling thread has used, in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    (t.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(t.tv_nsec as u64)
}

/// Serve the run of `config` and `spec`: the hello on `output`, then one answer per request
/// read from `input`, until `quit` or the end of the input.
pub fn serve<G: Game>(
    config: G::Config,
    spec: &RunSpec,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), ServeError> {
    let mut server = Server::<G>::new(config, spec)?;
    writeln!(output, "{}", server.hello())?;
    output.flush()?;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let request = match Request::parse(&line) {
            Ok(r) => r,
            Err(e) => {
                // Said on the pipe too, so that the client sees why its server stopped.
                let _ = writeln!(output, "error: {e}");
                let _ = output.flush();
                return Err(e);
            }
        };
        match request {
            Request::Quit => break,
            Request::Play(want) => {
                let answer = server.play(want);
                writeln!(output, "{answer}")?;
                output.flush()?;
            }
        }
    }
    Ok(())
}

/// The median, quartiles and range of a sample (the timer's summary of its pairwise ratios).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub median: f64,
    /// First and third quartiles (linear interpolation between order statistics, as
    /// numpy's default and R's type 7).
    pub q1: f64,
    pub q3: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of `values` (`None` when empty or when one is not a number).
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() || values.iter().any(|v| v.is_nan()) {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        Some(Spread {
            median: quantile(&v, 0.5),
            q1: quantile(&v, 0.25),
            q3: quantile(&v, 0.75),
            min: v[0],
            max: v[v.len() - 1],
        })
    }
}

/// The `p`-quantile of sorted, non-empty `v`, interpolated linearly between order statistics.
pub fn quantile(v: &[f64], p: f64) -> f64 {
    let h = (v.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_and_bad_ones_say_why() {
        assert_eq!(
            Request::parse("play 2000000").unwrap(),
            Request::Play(Want::Units(2_000_000))
        );
        assert_eq!(
            Request::parse(" chunks 3 \n").unwrap(),
            Request::Play(Want::Chunks(3))
        );
        assert_eq!(Request::parse("quit").unwrap(), Request::Quit);
        for (line, why) in [
            ("play", "no count"),
            ("play 0", "from 1"),
            ("play -3", "from 1"),
            ("play 2M", "from 1"),
            ("chunks 1 2", "more than two words"),
            ("run 5", "unknown request"),
            ("quit now", "unknown request"),
        ] {
            let e = Request::parse(line).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains(line), "{line}: {e}");
        }
    }

    #[test]
    fn hello_and_answer_lines_read_back() {
        let h = Hello {
            game: "blackjack".into(),
            seed: 7,
            chunks: 64,
            chunk_size: 2841,
        };
        assert_eq!(
            h.to_string(),
            "rtplab-serve 2 game=blackjack seed=7 chunks=64 chunk_size=2841"
        );
        assert_eq!(Hello::parse(&h.to_string()), Some(h));
        assert_eq!(
            Hello::parse("rtplab-serve 1 game=x seed=1 chunks=1 chunk_size=1"),
            None
        );
        assert_eq!(Hello::parse("error: unrecognized subcommand"), None);
        let a = Answer {
            units: 2_000_123,
            chunks: 13,
            ns: 190_000_000,
            cpu_ns: 180_000_000,
            sum: 0x00ab_cdef_0123_4567,
        };
        assert_eq!(
            a.to_string(),
            "played units=2000123 chunks=13 ns=190000000 cpu=180000000 sum=00abcdef01234567"
        );
        assert_eq!(Answer::parse(&a.to_string()), Some(a));
        assert_eq!(Answer::parse("played units=1 chunks=1 ns=1 cpu=1"), None);
        assert_eq!(
            Answer::parse("played chunks=1 units=1 ns=1 cpu=1 sum=0"),
            None
        );
        assert!((a.ns_per_unit() - 94.994).abs() < 1e-3);
        assert!((a.cpu_ns_per_unit() - 89.994).abs() < 1e-3);
    }

    #[test]
    fn spread_is_the_median_quartiles_and_range() {
        assert_eq!(Spread::of(&[]), None);
        assert_eq!(Spread::of(&[1.0, f64::NAN]), None);
        let one = Spread::of(&[1.5]).unwrap();
        assert_eq!(
            (one.median, one.q1, one.q3, one.min, one.max),
            (1.5, 1.5, 1.5, 1.5, 1.5)
        );
        // numpy.percentile([4, 1, 3, 2], [25, 50, 75]) = 1.75, 2.5, 3.25.
        let s = Spread::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((s.q1, s.median, s.q3), (1.75, 2.5, 3.25));
        assert_eq!((s.min, s.max), (1.0, 4.0));
        // Odd count: the middle value; quartiles on order statistics.
        let s = Spread::of(&[0.9, 1.1, 1.0, 5.0, 0.95]).unwrap();
        assert_eq!((s.q1, s.median, s.q3), (0.95, 1.0, 1.1));
        // An outlier moves the mean, not the median.
        let s = Spread::of(&[1.0, 1.0, 1.0, 1.0, 100.0]).unwrap();
        assert_eq!(s.median, 1.0);
        assert_eq!(quantile(&[1.0, 2.0], 0.0), 1.0);
        assert_eq!(quantile(&[1.0, 2.0], 1.0), 2.0);
    }
}
