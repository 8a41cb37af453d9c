//! Card counting: count systems as data (tags per rank), true counts, bet ramps, and the
//! counting player (`Counter`), which plays a fixed chart and bets from a ramp on the count,
//! wonging in and out when asked.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::indices::{Deviations, IndexSet};
use super::strategy::{Action, Player, Seats, Situation, Strategy};
use crate::cards::{value, Rank};

/// Tags by value, ace first (A, 2, …, 9, T), in units of `1 / scale`.
pub type Tags = [i8; 10];

/// The built-in systems: (command-line name, report name, tags, scale).
pub const BUILT_IN: [(&str, &str, Tags, u8); 7] = [
    ("hi-lo", "Hi-Lo", [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1], 1),
    ("ko", "KO", [-1, 1, 1, 1, 1, 1, 1, 0, 0, -1], 1),
    ("hi-opt-1", "Hi-Opt I", [0, 0, 1, 1, 1, 1, 0, 0, 0, -1], 1),
    ("hi-opt-2", "Hi-Opt II", [0, 1, 1, 2, 2, 1, 1, 0, 0, -2], 1),
    ("omega-2", "Omega II", [0, 1, 1, 2, 2, 2, 1, 0, -1, -2], 1),
    ("zen", "Zen", [-1, 1, 1, 2, 2, 2, 1, 0, 0, -2], 1),
    (
        "halves",
        "Wong Halves",
        [-2, 1, 2, 2, 3, 2, 1, 0, -1, -2],
        2,
    ),
];

/// A count system: tags per value (×`scale`, so Wong Halves' halves are integers).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountSystem {
    /// Its name in reports (a built-in's name or a tag file's path): not part of a run's
    /// identity.
    pub label: String,
    pub tags: Tags,
    /// The tags are in units of 1/scale (2 for Wong Halves).
    pub scale: u8,
}

/// A bad count system, ramp or counting option.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CountError {
    #[error("unknown count '{0}': expected hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen, halves, or the path of a tag file (lines 'rank,tag', e.g. 'T,-1'; see strategies/counts/)")]
    Unknown(String),
    #[error("{file}{}: {msg}", at_line(.line))]
    File {
        file: String,
        line: usize,
        msg: String,
    },
    /// A count or ramp file that cannot be read (the message names it).
    #[error("{0}")]
    Input(String),
    #[error("--ramp '{0}': {1} (expected e.g. \"0:1,1:2,2:4,3:8,4:12\": true count:units, sorted by true count)")]
    Ramp(String, String),
    #[error("--wong-out {out} is above --wong-in {win}: a seat that enters at {win} would leave at once")]
    WongOrder { win: i32, out: i32 },
    #[error("{0}")]
    Option(String),
}

/// `:line` of a file error, nothing for an error of the file as a whole (line 0).
fn at_line(line: &usize) -> String {
    if *line > 0 {
        format!(":{line}")
    } else {
        String::new()
    }
}

/// The count a strategy file says it was made for: the `# count: NAME (...)` line of a ramp
/// file from `strategies ramp`, or the `# count NAME (...)` line of an index file from
/// `strategies indices`. `None` when its header names none.
pub fn made_for(text: &str) -> Option<&str> {
    text.lines()
        .take_while(|l| l.trim_start().starts_with('#'))
        .find_map(|l| {
            let rest = l
                .trim_start_matches('#')
                .trim_start()
                .strip_prefix("count")?;
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            let name = rest.trim().split(" (").next()?.trim();
            (!name.is_empty() && !rest.starts_with(':')).then_some(name)
        })
}

/// Why a ramp or index set (`arg` of the flag `flag`: a file, a built-in index set, or several
/// joined by '+') does not fit `system`: it was made for another count, whose numbers mean
/// other things here. `None` when it fits or says nothing of its count.
pub fn foreign_to(system: &CountSystem, flag: &str, arg: &str) -> Option<String> {
    let parts: Vec<&str> = match flag {
        "--indices" => arg.split('+').map(str::trim).collect(),
        _ => vec![arg],
    };
    let found = parts.iter().find_map(|part| {
        let count = match *part {
            // The shipped sets are the published Hi-Lo numbers.
            "i18" | "fab4" if flag == "--indices" => "Hi-Lo".to_string(),
            _ => {
                let path = std::path::Path::new(part);
                let text = path
                    .is_file()
                    .then(|| std::fs::read_to_string(path).ok())??;
                made_for(&text)?.to_string()
            }
        };
        (count != system.label).then(|| (part.to_string(), count))
    })?;
    Some(format!(
        "{flag} {} was made for {}, and this run counts with {}: its counts mean other things \
         under this count (`rtplab strategies {}` makes one for it)",
        found.0,
        found.1,
        system.label,
        if flag == "--indices" {
            "indices blackjack --count ..."
        } else {
            "ramp blackjack --count ..."
        }
    ))
}

impl CountSystem {
    /// A built-in system by its command-line name, or a tag file.
    pub fn resolve(name: &str) -> Result<CountSystem, CountError> {
        if let Some(b) = BUILT_IN.iter().find(|b| b.0 == name) {
            return Ok(CountSystem {
                label: b.1.into(),
                tags: b.2,
                scale: b.3,
            });
        }
        let path = std::path::Path::new(name);
        if !path.exists() {
            return Err(CountError::Unknown(name.into()));
        }
        let text =
            crate::door::input::read_text(path, "count file", crate::door::input::MAX_TEXT_BYTES)
                .map_err(|e| CountError::Input(e.to_string()))?;
        CountSystem::parse(&text, name)
    }

    /// A tag file: `rank,tag` lines (ranks A, 2–9, T; tags integers or halves such as 0.5,
    /// -1.5); `#` starts a comment; every rank must be given once.
    pub fn parse(text: &str, file: &str) -> Result<CountSystem, CountError> {
        let err = |line: usize, msg: String| CountError::File {
            file: file.into(),
            line,
            msg,
        };
        let mut halves: [Option<i32>; 10] = [None; 10];
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((r, t)) = line.split_once(',') else {
                return Err(err(
                    i + 1,
                    format!("'{}': expected 'rank,tag'", crate::door::input::quote(line)),
                ));
            };
            let (r, t) = (r.trim(), t.trim());
            if r.eq_ignore_ascii_case("rank") {
                continue; // a header
            }
            let v = match r {
                "A" | "a" | "1" => 1,
                "T" | "t" | "10" | "J" | "Q" | "K" => 10,
                d if d.len() == 1 && ("2"..="9").contains(&d) => d.parse::<usize>().unwrap_or(0),
                _ => return Err(err(i + 1, format!("rank '{r}': expected A, 2–9 or T"))),
            };
            let x: f64 = t
                .parse()
                .map_err(|_| err(i + 1, format!("tag '{t}': not a number")))?;
            let h = x * 2.0;
            if h.fract() != 0.0 || h.abs() > 20.0 {
                return Err(err(
                    i + 1,
                    format!("tag '{t}': expected a whole or half number from -10 to 10"),
                ));
            }
            if halves[v - 1].is_some() {
                return Err(err(i + 1, format!("rank {r} is given twice")));
            }
            halves[v - 1] = Some(h as i32);
        }
        let mut h = [0i32; 10];
        for (i, x) in halves.iter().enumerate() {
            h[i] = x.ok_or_else(|| {
                err(
                    0,
                    format!("no tag for rank {}", crate::cards::value_char(i as u8 + 1)),
                )
            })?;
        }
        let whole = h.iter().all(|x| x % 2 == 0);
        let scale = if whole { 1 } else { 2 };
        let tags = h.map(|x| (if whole { x / 2 } else { x }) as i8);
        Ok(CountSystem {
            label: file.into(),
            tags,
            scale,
        })
    }

    /// The sum of the tags over one deck, in tag units (0 for a balanced count; KO: +4).
    pub fn deck_sum(&self) -> i32 {
        self.tags
            .iter()
            .enumerate()
            .map(|(i, &t)| t as i32 * if i == 9 { 16 } else { 4 })
            .sum()
    }

    pub fn balanced(&self) -> bool {
        self.deck_sum() == 0
    }

    /// The running count at the start of a shoe of `decks`, in tag units: 0 for a balanced
    /// count; an unbalanced one starts at `s − s·decks` (s = its deck sum: KO's 4 − 4·decks),
    /// so that its key count is reached as in the books.
    pub fn initial(&self, decks: u32) -> i32 {
        let s = self.deck_sum();
        s - s * decks as i32
    }

    /// The tag of each rank (0..13), in tag units.
    pub fn by_rank(&self) -> [i8; 13] {
        std::array::from_fn(|r| self.tags[value(r as Rank) as usize - 1])
    }
}

/// How the decks remaining are known for the true count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TcMode {
    /// Cards remaining / 52, exactly.
    Exact,
    /// Estimated to the nearest half deck (at least half a deck).
    HalfDeck,
    /// Estimated to the nearest whole deck (at least one).
    FullDeck,
}

/// How a true count is made an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TcRounding {
    /// Toward −∞ (−0.5 → −1).
    Floor,
    /// Toward 0 (−0.5 → 0).
    Truncate,
    /// To the nearest, halves away from 0.
    Nearest,
}

impl TcRounding {
    /// The rounding's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            TcRounding::Floor => "floor",
            TcRounding::Truncate => "truncate",
            TcRounding::Nearest => "nearest",
        }
    }
}

/// The true count as a fraction rc · a / (scale · b) of the running count: (a, b) by how the
/// decks left are known with `remaining` cards left (at least one card, half deck or deck).
fn tc_fraction(mode: TcMode, remaining: u32) -> (i32, u32) {
    let remaining = remaining.max(1);
    match mode {
        TcMode::Exact => (52, remaining),
        TcMode::HalfDeck => (2, ((remaining + 13) / 26).max(1)),
        TcMode::FullDeck => (1, ((remaining + 26) / 52).max(1)),
    }
}

/// The integer true count of running count `rc` (in tag units of `scale`) with `remaining`
/// cards left, computed exactly in integers (32-bit: with at most 64 decks and tags of at most
/// 20 units, |rc · 52 · 2| < 2^31).
pub fn true_count(rc: i32, scale: u8, remaining: u32, mode: TcMode, rounding: TcRounding) -> i32 {
    // tc = num / den.
    let (per_rc, per_scale) = tc_fraction(mode, remaining);
    let (num, den) = (rc * per_rc, scale as i32 * per_scale as i32);
    match rounding {
        TcRounding::Floor => num.div_euclid(den),
        TcRounding::Truncate => num / den,
        TcRounding::Nearest => (2 * num + num.signum() * den) / (2 * den),
    }
}

/// [`true_count`] for one shoe size, count scale, estimation and rounding, by multiplication
/// instead of division (the counting run computes a true count at every bet and at every
/// index-play decision): for each number of cards seen, the divisor and its reciprocal
/// m = ⌊2^63 / d⌋ + 1. Then ⌊x·m / 2^63⌋ = ⌊x / d⌋ for every x with x·d < 2^63 (write
/// x = qd + r: x·m / 2^63 = q + (r + x·e / 2^63) / d with the error e = m·d − 2^63 ≤ d).
/// Here x < 2^27 and d < 2^21 (at most 64 decks, tags of at most 127, a scale of at most
/// 255), so the product stays below 2^48.
#[derive(Clone, Debug)]
pub struct TrueCounter {
    /// The numerator per running-count unit: 52 (exact), 2 (half decks) or 1 (whole decks).
    per_rc: i32,
    rounding: TcRounding,
    /// By cards seen (0 ..= the shoe's cards): the divisor, and the reciprocal of the divisor
    /// (twice the divisor when rounding to nearest).
    divs: Box<[(u32, u64)]>,
}

impl TrueCounter {
    pub fn new(decks: u32, scale: u8, mode: TcMode, rounding: TcRounding) -> TrueCounter {
        let cards = decks * 52;
        let s = scale.max(1) as u32;
        let (per_rc, _) = tc_fraction(mode, 1);
        let divs = (0..=cards)
            .map(|seen| {
                let d = s * tc_fraction(mode, cards - seen).1;
                let by = if rounding == TcRounding::Nearest {
                    2 * d
                } else {
                    d
                };
                (d, (1u64 << 63) / by as u64 + 1)
            })
            .collect();
        TrueCounter {
            per_rc,
            rounding,
            divs,
        }
    }

    /// ⌊x / d⌋ for the reciprocal `m` of d.
    #[inline(always)]
    fn div(x: u32, m: u64) -> i32 {
        ((x as u128 * m as u128) >> 63) as i32
    }

    /// The true count of running count `rc` after `seen` cards: `true_count(rc, scale,
    /// cards − seen, mode, rounding)`.
    #[inline]
    pub fn get(&self, rc: i32, seen: u32) -> i32 {
        let (d, m) = self.divs[(seen as usize).min(self.divs.len() - 1)];
        let num = rc * self.per_rc;
        let a = num.unsigned_abs();
        match self.rounding {
            TcRounding::Floor if num < 0 => -Self::div(a + d - 1, m),
            TcRounding::Floor => Self::div(a, m),
            TcRounding::Truncate if num < 0 => -Self::div(a, m),
            TcRounding::Truncate => Self::div(a, m),
            TcRounding::Nearest if num < 0 => -Self::div(2 * a + d, m),
            TcRounding::Nearest => Self::div(2 * a + d, m),
        }
    }
}

/// A bet ramp: (count, units) sorted by count; the first entry covers every count at or below
/// it, the last every count above it, each entry the counts from it to the next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ramp(pub Vec<(i32, u32)>);

/// Most units one seat bets.
pub const MAX_UNITS: u32 = 1_000_000;

impl Ramp {
    /// `"TC:units,..."` (also one entry a line, `#` comments, for a ramp file).
    pub fn parse(spec: &str) -> Result<Ramp, CountError> {
        let bad = |m: String| CountError::Ramp(spec.trim().into(), m);
        let mut v: Vec<(i32, u32)> = Vec::new();
        for part in spec
            .lines()
            .map(|l| l.split('#').next().unwrap_or(""))
            .flat_map(|l| l.split(','))
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let Some((c, u)) = part.split_once(':') else {
                return Err(bad(format!(
                    "'{}' is not TC:units",
                    crate::door::input::quote(part)
                )));
            };
            // An integer too large for its type is out of range, not malformed.
            let integer = |t: &str| {
                let d = t.strip_prefix(['-', '+']).unwrap_or(t);
                !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
            };
            let (c, u) = (c.trim(), u.trim());
            let c: i32 = match c.parse() {
                Ok(c) => c,
                Err(_) if integer(c) => {
                    return Err(bad(format!("count {c} is outside -100..100")));
                }
                Err(_) => return Err(bad(format!("count '{c}' is not an integer"))),
            };
            let u: u32 = match u.parse() {
                Ok(u) => u,
                Err(_) if integer(u) => {
                    return Err(bad(format!(
                        "{u} units at {c}: a bet is 1 to {MAX_UNITS} units (sit out with --wong-in)"
                    )));
                }
                Err(_) => return Err(bad(format!("units '{u}' is not a whole number"))),
            };
            if !(-100..=100).contains(&c) {
                return Err(bad(format!("count {c} is outside -100..100")));
            }
            if u == 0 || u > MAX_UNITS {
                return Err(bad(format!(
                    "{u} units at {c}: a bet is 1 to {MAX_UNITS} units (sit out with --wong-in)"
                )));
            }
            if let Some(&(last, _)) = v.last() {
                if c <= last {
                    return Err(bad(format!(
                        "count {c} after {last}: sort by count, each once"
                    )));
                }
            }
            v.push((c, u));
        }
        if v.is_empty() {
            return Err(bad("no entries".into()));
        }
        Ok(Ramp(v))
    }

    /// A ramp from `--ramp`: a spec, or the path of a file holding one.
    pub fn resolve(s: &str) -> Result<Ramp, CountError> {
        let path = std::path::Path::new(s);
        if !s.contains(':') && std::fs::symlink_metadata(path).is_ok() {
            let text = crate::door::input::read_text(
                path,
                "ramp file",
                crate::door::input::MAX_TEXT_BYTES,
            )
            .map_err(|e| CountError::Input(e.to_string()))?;
            // Errors name the file, not its text.
            return Ramp::parse(&text).map_err(|e| match e {
                CountError::Ramp(_, msg) => CountError::Ramp(format!("{s} (a ramp file)"), msg),
                e => e,
            });
        }
        Ramp::parse(s)
    }

    /// The units bet at count `c`.
    #[inline]
    pub fn units(&self, c: i32) -> u32 {
        let mut u = self.0[0].1;
        for &(k, v) in &self.0 {
            if c >= k {
                u = v;
            } else {
                break;
            }
        }
        u
    }

    /// The units at every count from the first entry's to the last's, for a look-up:
    /// `(first count, units)`; counts beyond either end take the end's units.
    pub fn table(&self) -> (i32, Vec<u32>) {
        let lo = self.0.first().map_or(0, |e| e.0);
        let hi = self.0.last().map_or(0, |e| e.0);
        (lo, (lo..=hi).map(|c| self.units(c)).collect())
    }

    pub fn max(&self) -> u32 {
        self.0.iter().map(|e| e.1).max().unwrap_or(1)
    }
}

impl fmt::Display for Ramp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(c, u)| format!("{c}:{u}")).collect();
        write!(f, "{}", parts.join(","))
    }
}

/// SCORE of a game of `ev` and `sd` per round (in table minimums): 10^6 (ev/sd)², signed
/// (below 0 when EV < 0). It is what a Kelly bettor with a bankroll of 10,000 units expects
/// to win per 100 rounds, the measure of Blackjack Attack and CVCX.
pub fn score(ev: f64, sd: f64) -> f64 {
    1e6 * ev * ev.abs() / (sd * sd)
}

/// The bankroll whose lifetime risk of ruin is `ror` for a game of `ev` and `var` per round:
/// the Brownian formula RoR = e^(−2·ev·B/var) inverted, B = −var·ln(RoR)/(2·ev); `None`
/// unless EV > 0 (a losing game is ruined whatever the bankroll) and 0 < `ror` < 1.
pub fn bankroll_for_ror(ev: f64, var: f64, ror: f64) -> Option<f64> {
    (ev > 0.0 && ror > 0.0 && ror < 1.0).then(|| -var * ror.ln() / (2.0 * ev))
}

/// The certainty equivalent of one round, in units: EV less the risk cost var/(2·k·B), for
/// a bettor with bankroll `bankroll` and Kelly multiple `kelly` (the Arrow–Pratt
/// approximation for constant relative risk aversion 1/k: log utility, the full Kelly
/// bettor, at k = 1).
pub fn certainty_equivalent(ev: f64, var: f64, bankroll: f64, kelly: f64) -> f64 {
    ev - var / (2.0 * kelly * bankroll)
}

/// Trips that check [`bankroll_for_ror`]: `TRIP_CHECKS` bankroll paths from `bankroll`, each
/// a random walk of blocks of rounds whose net is normal with the run's EV and variance per
/// round (block SD `bankroll / TRIP_BLOCK_STEPS`), ended by ruin (0 or below) or by reaching
/// `TRIP_CEILING` times the bankroll.
pub const TRIP_CHECKS: u64 = 1000;
pub const TRIP_BLOCK_STEPS: f64 = 50.0;
pub const TRIP_CEILING: f64 = 3.0;

/// The outcome of the check trips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TripCheck {
    pub trips: u64,
    pub ruined: u64,
    /// Rounds in a block (fractional: the walk is a diffusion at that scale).
    pub block_rounds: f64,
    /// The formula's chance of the same event (ruin before the ceiling): (R − R^c)/(1 − R^c)
    /// for R the lifetime ruin of the bankroll and c the ceiling multiple.
    pub formula: f64,
}

/// Plays the check trips for a game of `ev` and `var` per round (EV > 0) from `bankroll`,
/// from a fixed stream of `seed`.
pub fn ror_trips(ev: f64, var: f64, bankroll: f64, seed: u64) -> TripCheck {
    use crate::rng::{RngCore, SeedableRng};
    let mut rng = crate::rng::Rng::seed_from_u64(seed);
    let block_sd = bankroll / TRIP_BLOCK_STEPS;
    let block_rounds = block_sd * block_sd / var;
    let drift = ev * block_rounds;
    let ceiling = TRIP_CEILING * bankroll;
    // Normal draws by Box–Muller, two a time.
    let mut spare: Option<f64> = None;
    let mut normal = move |rng: &mut crate::rng::Rng| -> f64 {
        if let Some(z) = spare.take() {
            return z;
        }
        let u = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let r = (-2.0 * u.ln()).sqrt();
        let a = std::f64::consts::TAU * v;
        spare = Some(r * a.sin());
        r * a.cos()
    };
    let mut ruined = 0;
    for _ in 0..TRIP_CHECKS {
        let mut level = bankroll;
        while level > 0.0 && level < ceiling {
            level += drift + block_sd * normal(&mut rng);
        }
        ruined += u64::from(level <= 0.0);
    }
    let r = (-2.0 * ev * bankroll / var).exp();
    let rc = r.powf(TRIP_CEILING);
    TripCheck {
        trips: TRIP_CHECKS,
        ruined,
        block_rounds,
        formula: (r - rc) / (1.0 - rc),
    }
}

/// N0 of a game of `ev` and `sd` per round: (sd/ev)², the rounds after which the expected
/// win is one SD; NaN unless EV > 0.
pub fn n0(ev: f64, sd: f64) -> f64 {
    if ev > 0.0 {
        (sd / ev).powi(2)
    } else {
        f64::NAN
    }
}

/// Clamp of the true counts reported one row each.
pub const TC_CLAMP: i32 = 10;
/// Rows of the by-true-count sums: −10..=+10.
pub const TC_BINS: usize = 2 * TC_CLAMP as usize + 1;

/// The row of count `c`.
#[inline]
pub fn tc_bin(c: i32) -> u8 {
    (c.clamp(-TC_CLAMP, TC_CLAMP) + TC_CLAMP) as u8
}

/// The bit of a seat-round's class (`Player::class`) that marks a round whose pairs bet has
/// an exact EV of 0 or more (with `pairs_exposure`); the row is the class without it.
pub const PAIRS_PAY: u8 = 0x80;

/// A counting run's request: the system, how it becomes a true count, the ramp, wonging.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountSpec {
    pub system: CountSystem,
    pub ramp: Ramp,
    pub true_count: TcMode,
    pub rounding: TcRounding,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wong_in: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wong_out: Option<i32>,
    /// Index plays: deviations from the chart at counts (absent: the chart as it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indices: Option<IndexSet>,
    /// An ace side count for betting: the bet's running count gains `ace_side` (in count
    /// units) for each ace left beyond one in 13 of the cards left (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ace_side: Option<i32>,
    /// The table maximum, in table minimums (the ramp may not bet more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_max: Option<u32>,
    /// Also watch the pairs bet with perfect knowledge of the ranks left (the operator's
    /// worst case for that bet): rounds where its exact EV is 0 or more, and their outcomes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pairs_exposure: bool,
    /// The counter bets its seats beyond the first only at counts at or above this (absent:
    /// every seat alike).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spots_at: Option<i32>,
    /// Bankroll paths: the ruin of trips starting with this bankroll (absent: none kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bankroll: Option<Bankroll>,
    /// Report-only settings (not part of a run's identity).
    #[serde(default, skip_serializing_if = "CountLabels::is_empty")]
    pub labels: CountLabels,
}

/// Bankroll paths: each trip starts with `units` table minimums and plays `trip_rounds`
/// rounds (rounds the counter bets; wonged-out rounds cost nothing); it is ruined when its
/// bankroll falls to 0 or below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bankroll {
    pub units: u64,
    pub trip_rounds: u64,
}

/// Most bankroll units and trip rounds.
pub const MAX_BANKROLL: u64 = 1_000_000_000;
pub const MAX_TRIP_ROUNDS: u64 = 100_000_000;
/// Rows of the ruin curve (each `trip_rounds / RUIN_BINS` rounds).
pub const RUIN_BINS: usize = 100;

/// Settings that change a counting report, not its sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CountLabels {
    /// Rounds dealt per hour at the table (for hourly figures; `DEFAULT_ROUNDS_PER_HOUR`
    /// without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_per_hour: Option<f64>,
    /// The lifetime risk of ruin to find the bankroll for (`--target-ror`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_ror: Option<f64>,
    /// The Kelly multiple of the certainty equivalent at `--bankroll` (`--kelly`, default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kelly: Option<f64>,
}

/// Rounds dealt per hour when `--rounds-per-hour` is not given.
pub const DEFAULT_ROUNDS_PER_HOUR: f64 = 100.0;

impl CountLabels {
    pub fn is_empty(&self) -> bool {
        self.rounds_per_hour.is_none() && self.target_ror.is_none() && self.kelly.is_none()
    }
}

impl CountSpec {
    pub fn validate(&self) -> Result<(), CountError> {
        if self.ramp.0.is_empty() {
            return Err(CountError::Ramp(String::new(), "no entries".into()));
        }
        if self.ramp.max() > MAX_UNITS || self.ramp.0.iter().any(|e| e.1 == 0) {
            return Err(CountError::Ramp(self.ramp.to_string(), "bad units".into()));
        }
        if self.system.scale == 0 || self.system.tags.iter().all(|&t| t == 0) {
            return Err(CountError::Option(format!(
                "the count {} has no tags",
                self.system.label
            )));
        }
        if let (Some(win), Some(out)) = (self.wong_in, self.wong_out) {
            if out > win {
                return Err(CountError::WongOrder { win, out });
            }
        }
        if let Some(ix) = &self.indices {
            ix.validate()
                .map_err(|e| CountError::Option(e.to_string()))?;
        }
        if let Some(max) = self.table_max {
            if let Some(&(c, u)) = self.ramp.0.iter().find(|e| e.1 > max) {
                return Err(CountError::Option(format!(
                    "--ramp bets {u} units at count {c}, above --table-max {max}: lower the ramp or raise the maximum"
                )));
            }
        }
        if let Some(w) = self.ace_side {
            if !(-10..=10).contains(&w) || w == 0 {
                return Err(CountError::Option(format!(
                    "--ace-side {w}: expected a weight from 1 to 10 (count units per extra ace)"
                )));
            }
            // An ace side count is for counts that leave the ace out of the main count
            // (Hi-Opt I and II, Omega II); one that tags it would count each ace twice.
            let ace = self.system.tags[0];
            if ace != 0 {
                return Err(CountError::Option(format!(
                    "--ace-side: {} already tags the ace ({}), so a side count would count each ace twice; use it with a count that tags the ace 0 (hi-opt-1, hi-opt-2, omega-2)",
                    self.system.label,
                    ace as f64 / self.system.scale as f64
                )));
            }
        }
        if let Some(b) = self.bankroll {
            if b.units == 0 || b.units > MAX_BANKROLL {
                return Err(CountError::Option(format!(
                    "--bankroll {}: expected 1 to {MAX_BANKROLL} table minimums",
                    b.units
                )));
            }
            if b.trip_rounds == 0 || b.trip_rounds > MAX_TRIP_ROUNDS {
                return Err(CountError::Option(format!(
                    "--trip-rounds {}: expected 1 to {MAX_TRIP_ROUNDS} rounds",
                    b.trip_rounds
                )));
            }
        }
        if let Some(r) = self.labels.rounds_per_hour {
            if !(r > 0.0 && r <= 10_000.0) {
                return Err(CountError::Option(format!(
                    "--rounds-per-hour {r}: expected more than 0 and at most 10000"
                )));
            }
        }
        Ok(())
    }

    /// What the bets are keyed on: the true count of a balanced system, the running count of
    /// an unbalanced one.
    pub fn key_name(&self) -> &'static str {
        if self.system.balanced() {
            "true count"
        } else {
            "running count"
        }
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} ({}), ramp {}",
            self.system.label,
            if self.system.balanced() {
                let m = match self.true_count {
                    TcMode::Exact => "exactly",
                    TcMode::HalfDeck => "to the half deck",
                    TcMode::FullDeck => "to the whole deck",
                };
                let r = match self.rounding {
                    TcRounding::Floor => "floor",
                    TcRounding::Truncate => "truncate",
                    TcRounding::Nearest => "nearest",
                };
                format!("true count: decks left {m}, {r}")
            } else {
                "unbalanced: bets on the running count".into()
            },
            self.ramp
        );
        if let Some(w) = self.wong_in {
            s += &format!(", wong in at {w}");
        }
        if let Some(w) = self.wong_out.or(self.wong_in) {
            s += &format!(", wong out below {w} until the shuffle");
        }
        if let Some(ix) = &self.indices {
            s += &format!(", index plays {} ({} entries)", ix.label, ix.entries.len());
        }
        if let Some(x) = self.spots_at {
            s += &format!(", more spots at {x} or above");
        }
        if let Some(w) = self.ace_side {
            s += &format!(", ace side count {w:+} per extra ace for betting");
        }
        s
    }
}

/// `Counter::tally` packs the running count (biased by `TALLY_BIAS`, bits 0–31), the cards
/// seen (bits 32–47) and the aces seen (bits 48–63). Adding a card's step in wrapping 64-bit
/// arithmetic updates all three: a negative tag subtracts from the biased count, which stays
/// within 1..2^32 (a count moves by at most a few thousand), so no borrow reaches the fields
/// above it; at most 64 decks (3,328 cards, 256 aces) fit the upper fields.
const TALLY_BIAS: u64 = 1 << 31;

/// The tally of a shuffled shoe with running count `rc`.
fn tally_start(rc: i32) -> u64 {
    (TALLY_BIAS as i64 + rc as i64) as u64
}

/// The running count of a tally.
#[inline(always)]
fn tally_rc(t: u64) -> i32 {
    ((t & 0xFFFF_FFFF) as i64 - TALLY_BIAS as i64) as i32
}

/// The cards seen of a tally.
#[inline(always)]
fn tally_seen(t: u64) -> u32 {
    ((t >> 32) & 0xFFFF) as u32
}

/// The aces seen of a tally.
#[inline(always)]
fn tally_aces(t: u64) -> u32 {
    (t >> 48) as u32
}

/// The tally's step by rank (16 entries so that a rank masked to 4 bits needs no bounds
/// check; ranks 13–15 never occur).
fn tally_steps(tags: &[i8; 13]) -> [u64; 16] {
    std::array::from_fn(|r| match r {
        0..=12 => (tags[r] as i64 as u64)
            .wrapping_add(1 << 32)
            .wrapping_add(if r == 0 { 1 << 48 } else { 0 }),
        _ => 0,
    })
}

/// What a counting run shares between threads: the chart, the count, the shoe size.
pub struct Counting<S> {
    pub chart: S,
    pub spec: CountSpec,
    pub decks: u32,
    /// `Counter::tally`'s increment by rank (`tally_step`).
    steps: [u64; 16],
    balanced: bool,
    deviations: Option<Deviations>,
    /// The true count by multiplication (balanced counts).
    tc: TrueCounter,
    /// Whether the bet needs `Counter::watch` (a pairs watch or wonging).
    watches: bool,
    /// The ramp as a look-up table (`Ramp::table`).
    ramp_lo: i32,
    ramp_units: Vec<u32>,
}

impl<S> Counting<S> {
    /// The units bet at count `c` (as `Ramp::units`).
    #[inline(always)]
    fn units(&self, c: i32) -> u32 {
        let last = self.ramp_units.len() as i32 - 1;
        self.ramp_units[(c - self.ramp_lo).clamp(0, last) as usize]
    }
}

impl<S: Strategy> Counting<S> {
    pub fn new(chart: S, spec: CountSpec, decks: u32) -> Counting<S> {
        let (ramp_lo, ramp_units) = spec.ramp.table();
        Counting {
            chart,
            steps: tally_steps(&spec.system.by_rank()),
            balanced: spec.system.balanced(),
            deviations: spec.indices.as_ref().map(Deviations::new),
            tc: TrueCounter::new(decks, spec.system.scale, spec.true_count, spec.rounding),
            watches: spec.pairs_exposure || spec.wong_in.is_some() || spec.wong_out.is_some(),
            ramp_lo,
            ramp_units,
            spec,
            decks,
        }
    }
}

impl<S: Strategy> Seats for Counting<S> {
    type Player<'a>
        = Counter<'a, S>
    where
        S: 'a;
    fn player(&self) -> Counter<'_, S> {
        Counter {
            c: self,
            steps: self.steps,
            pairs_exposure: self.spec.pairs_exposure,
            tally: tally_start(self.spec.system.initial(self.decks)),
            left_by_rank: [4 * self.decks as u16; 13],
            pairs_pay: false,
            playing: self.spec.wong_in.is_none(),
            left: false,
            key: 0,
            key_cached: 0,
            key_seen: u32::MAX,
        }
    }
}

/// A card counter: keeps the running count of every card seen, bets from the ramp on the
/// count before each round (0 — sitting out — while wonged out), plays the chart unchanged.
pub struct Counter<'a, S> {
    c: &'a Counting<S>,
    /// Copies of the tally steps by rank and of `pairs_exposure`, at hand for `see`.
    steps: [u64; 16],
    pairs_exposure: bool,
    /// The running count, the cards seen since the shuffle and the aces among them, packed
    /// in one word so that seeing a card is one addition (see `tally_steps`).
    tally: u64,
    /// Cards of each rank not seen since the shuffle (with `pairs_exposure`), and whether
    /// this round's pairs bet has an exact EV of 0 or more.
    left_by_rank: [u16; 13],
    pairs_pay: bool,
    /// Whether the seat is playing (wonged in).
    playing: bool,
    /// Wonged out: stays out until the shuffle.
    left: bool,
    /// The count the last bet was decided on.
    key: i32,
    /// `key_now`'s last answer and the cards seen when it was computed.
    key_cached: i32,
    key_seen: u32,
}

impl<S> Counter<'_, S> {
    /// Running count, in tag units.
    #[inline(always)]
    fn rc(&self) -> i32 {
        tally_rc(self.tally)
    }

    /// Cards seen since the shuffle.
    #[inline(always)]
    fn seen(&self) -> u32 {
        tally_seen(self.tally)
    }

    /// Aces seen since the shuffle.
    #[inline(always)]
    fn aces_seen(&self) -> u32 {
        tally_aces(self.tally)
    }

    /// The count bets are keyed on now: the true count (balanced), else the running count;
    /// computed once per card seen.
    #[inline]
    fn key_now(&mut self) -> i32 {
        if self.key_seen != self.seen() {
            self.key_seen = self.seen();
            self.key_cached = self.key_fresh();
        }
        self.key_cached
    }

    /// The count bets are keyed on: `key_now`, with the ace side count's adjustment if any:
    /// rc + w·(aces left − cards left / 13), exactly (in units of 1/13).
    #[inline]
    fn bet_key(&mut self) -> i32 {
        let Some(w) = self.c.spec.ace_side else {
            return self.key_now();
        };
        let sp = &self.c.spec;
        let s = sp.system.scale as i32;
        let remaining = (self.c.decks * 52).saturating_sub(self.seen());
        let aces_left = (4 * self.c.decks).saturating_sub(self.aces_seen()) as i32;
        let rc13 = 13 * self.rc() + w * s * (13 * aces_left - remaining as i32);
        if self.c.balanced {
            true_count(
                rc13,
                sp.system.scale * 13,
                remaining,
                sp.true_count,
                sp.rounding,
            )
        } else {
            rc13.div_euclid(13 * s)
        }
    }

    /// The pairs watch and wonging, once per round before the bet (`Counting::watches`):
    /// out of line, so that the plain bet stays small.
    #[inline(never)]
    fn watch(&mut self) {
        let sp = &self.c.spec;
        if sp.pairs_exposure {
            // P(a pair of ranks) from the cards left: 11:1 pays when 12 P ≥ 1.
            let n: u64 = self.left_by_rank.iter().map(|&k| k as u64).sum();
            let same: u64 = self
                .left_by_rank
                .iter()
                .map(|&k| k as u64 * (k as u64).saturating_sub(1))
                .sum();
            self.pairs_pay = 12 * same >= n * n.saturating_sub(1);
        }
        if !self.playing && !self.left {
            if let Some(w) = sp.wong_in {
                self.playing = self.key >= w;
            }
        }
        if self.playing {
            // Wonging in alone leaves below the same count.
            if let Some(w) = sp.wong_out.or(sp.wong_in) {
                if self.key < w {
                    self.playing = false;
                    self.left = true;
                }
            }
        }
    }

    fn key_fresh(&self) -> i32 {
        let sp = &self.c.spec;
        if self.c.balanced {
            self.c.tc.get(self.rc(), self.seen())
        } else {
            // An unbalanced count in units of its scale (floored).
            self.rc().div_euclid(sp.system.scale as i32)
        }
    }
}

impl<S: Strategy> Player for Counter<'_, S> {
    const BETS: bool = true;
    const SEES: bool = true;
    const CLASSES: bool = true;

    #[inline]
    fn bet(&mut self, seat: usize) -> u32 {
        if seat == 0 {
            // Decided once per round (every seat bets alike).
            self.key = self.bet_key();
            if self.c.watches {
                self.watch();
            }
        }
        if !self.playing {
            return 0;
        }
        match self.c.spec.spots_at {
            Some(x) if seat > 0 && self.key < x => 0,
            _ => self.c.units(self.key),
        }
    }

    #[inline]
    fn class(&self, _seat: usize) -> u8 {
        tc_bin(self.key) | if self.pairs_pay { PAIRS_PAY } else { 0 }
    }

    #[inline]
    fn decision_class(&mut self) -> u8 {
        tc_bin(self.key_now())
    }

    #[inline(always)]
    fn act(&mut self, _seat: usize, s: &Situation) -> Action {
        if let Some(d) = &self.c.deviations {
            if d.touches(s) {
                // The count at the decision, with every card seen so far.
                return d.act(&self.c.chart, s, self.key_now());
            }
        }
        self.c.chart.act(s)
    }

    #[inline(always)]
    fn insure(&mut self, _seat: usize, total: u8, soft: bool) -> bool {
        match &self.c.deviations {
            Some(d) => d.insure(&self.c.chart, total, soft, || self.key_now()),
            None => self.c.chart.insure(total, soft),
        }
    }

    #[inline(always)]
    fn see(&mut self, card: Rank) {
        self.tally = self.tally.wrapping_add(self.steps[card as usize % 16]);
        if self.pairs_exposure {
            let k = &mut self.left_by_rank[card as usize % 13];
            *k = k.saturating_sub(1);
        }
    }

    #[inline]
    fn shuffled(&mut self) {
        self.tally = tally_start(self.c.spec.system.initial(self.c.decks));
        self.left_by_rank = [4 * self.c.decks as u16; 13];
        self.key_seen = u32::MAX;
        self.left = false;
        self.playing = self.c.spec.wong_in.is_none();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_made_for_another_count_is_told_apart() {
        let ramp = "# rtplab optimal bet ramp\n# count: Hi-Lo (true count: exact, floor), ramp 0:1\n-10:1\n";
        assert_eq!(super::made_for(ramp), Some("Hi-Lo"));
        let ix =
            "# rtplab index plays\n# count Wong Halves (true count, floor rounding), chart basic\n";
        assert_eq!(super::made_for(ix), Some("Wong Halves"));
        assert_eq!(super::made_for("0:1,1:2"), None);
        let halves = CountSystem::resolve("halves").unwrap();
        let hilo = CountSystem::resolve("hi-lo").unwrap();
        let w = super::foreign_to(&halves, "--indices", "i18+fab4").unwrap();
        assert!(
            w.contains("made for Hi-Lo") && w.contains("Wong Halves"),
            "{w}"
        );
        assert_eq!(super::foreign_to(&hilo, "--indices", "i18+fab4"), None);
        assert_eq!(super::foreign_to(&halves, "--ramp", "0:1,2:4"), None);
    }

    use super::*;

    /// A flat Hi-Lo-style request on `system`, every option off.
    fn spec(system: &str) -> CountSpec {
        CountSpec {
            system: CountSystem::resolve(system).unwrap(),
            ramp: Ramp::parse("0:1").unwrap(),
            true_count: TcMode::Exact,
            rounding: TcRounding::Floor,
            wong_in: None,
            wong_out: None,
            indices: None,
            pairs_exposure: false,
            ace_side: None,
            table_max: None,
            spots_at: None,
            bankroll: None,
            labels: CountLabels::default(),
        }
    }

    #[test]
    fn balanced_systems_sum_to_zero_and_ko_to_four() {
        for (name, _, _, _) in BUILT_IN {
            let s = CountSystem::resolve(name).unwrap();
            let want = if name == "ko" { 4 } else { 0 };
            assert_eq!(s.deck_sum(), want, "{name}");
            assert_eq!(s.balanced(), name != "ko");
        }
        let ko = CountSystem::resolve("ko").unwrap();
        assert_eq!(ko.initial(8), 4 - 32);
        assert_eq!(ko.initial(1), 0);
        // Over a whole shoe, KO ends at 4 (its key count's anchor) from 4 − 4·decks.
        assert_eq!(ko.initial(6) + 6 * ko.deck_sum(), 4);
        let halves = CountSystem::resolve("halves").unwrap();
        assert_eq!(halves.scale, 2);
        assert_eq!(halves.by_rank()[4], 3); // a 5 is +1.5
    }

    #[test]
    fn the_packed_tally_keeps_count_cards_and_aces_apart() {
        // Every card of the largest shoe in a low-cards-first order (the running count's
        // extremes, both signs), for every system and a range of starting counts.
        let decks = 64u32;
        for (name, _, _, _) in BUILT_IN {
            let sys = CountSystem::resolve(name).unwrap();
            let tags = sys.by_rank();
            for order in [false, true] {
                let mut ranks: Vec<u8> = (0..decks * 52).map(|i| (i % 13) as u8).collect();
                ranks.sort_by_key(|&r| (tags[r as usize], r));
                if order {
                    ranks.reverse();
                }
                for start in [sys.initial(decks), -5000, 0, 5000] {
                    let steps = tally_steps(&tags);
                    let mut t = tally_start(start);
                    let (mut rc, mut aces) = (start, 0u32);
                    for (i, &r) in ranks.iter().enumerate() {
                        t = t.wrapping_add(steps[r as usize % 16]);
                        rc += tags[r as usize] as i32;
                        aces += (r == 0) as u32;
                        assert_eq!(
                            (tally_rc(t), tally_seen(t), tally_aces(t)),
                            (rc, i as u32 + 1, aces),
                            "{name} card {i}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_shipped_tag_files_are_the_built_ins() {
        for (name, _, tags, scale) in BUILT_IN {
            let path = format!(
                "{}/strategies/counts/{name}.csv",
                env!("CARGO_MANIFEST_DIR")
            );
            let s = CountSystem::resolve(&path).unwrap();
            assert_eq!((s.tags, s.scale), (tags, scale), "{name}");
        }
    }

    #[test]
    fn tag_file_errors() {
        let ok = "# hi-lo\nA,-1\n2,1\n3,1\n4,1\n5,1\n6,1\n7,0\n8,0\n9,0\nT,-1\n";
        assert_eq!(CountSystem::parse(ok, "f").unwrap().tags, BUILT_IN[0].2);
        let e = CountSystem::parse("A,-1\nA,1\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice"), "{e}");
        let e = CountSystem::parse("A,-1\n", "f").unwrap_err().to_string();
        assert!(e.contains("no tag for rank 2"), "{e}");
        let e = CountSystem::parse("X,1\n", "f").unwrap_err().to_string();
        assert!(e.contains("f:1"), "{e}");
        // Errors name their line: the third here (a comment and a good line before it).
        let e = CountSystem::parse("# c\nA,-1\nbogus\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:3: 'bogus'"), "{e}");
        for (text, want) in [("A,-1\nX,1\n", "f:2: rank"), ("A,-1\n2,0.3\n", "f:2: tag")] {
            let e = CountSystem::parse(text, "f").unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
        let e = CountSystem::parse("A,0.3\n", "f").unwrap_err().to_string();
        assert!(e.contains("half"), "{e}");
        assert!(CountSystem::resolve("no-such-count").is_err());
    }

    #[test]
    fn true_count_arithmetic() {
        use TcMode::*;
        use TcRounding::*;
        // RC +6 with 3 decks left: +2.
        assert_eq!(true_count(6, 1, 156, Exact, Floor), 2);
        // −0.5: floor −1, truncate 0, nearest −1 (away from 0).
        assert_eq!(true_count(-1, 1, 104, Exact, Floor), -1);
        assert_eq!(true_count(-1, 1, 104, Exact, Truncate), 0);
        assert_eq!(true_count(-1, 1, 104, Exact, Nearest), -1);
        assert_eq!(true_count(1, 1, 104, Exact, Nearest), 1);
        assert_eq!(true_count(5, 1, 156, Exact, Nearest), 2); // 1.67
        assert_eq!(true_count(4, 1, 156, Exact, Nearest), 1); // 1.33
                                                              // Halves: RC +3 (in halves) with 1.5 decks = +1.
        assert_eq!(true_count(3, 2, 78, Exact, Floor), 1);
        // Estimated decks: 80 cards is 1.5 decks by the half deck, 2 by the deck.
        assert_eq!(true_count(6, 1, 80, HalfDeck, Floor), 4);
        assert_eq!(true_count(6, 1, 80, FullDeck, Floor), 3);
        // Never less than half a deck / one deck.
        assert_eq!(true_count(3, 1, 5, HalfDeck, Floor), 6);
        assert_eq!(true_count(3, 1, 5, FullDeck, Floor), 3);
        assert_eq!(true_count(3, 1, 0, Exact, Floor), 156);
    }

    #[test]
    fn the_true_counter_multiplies_to_the_divisions_answer() {
        use TcMode::*;
        use TcRounding::*;
        // Every number of cards seen, every running count a shoe of these decks can reach
        // with tags of one unit (and a stride beyond), every estimation and rounding and the
        // largest numerators (64 decks of tags of 127 at scale 1 and 255).
        for (decks, scale, reach) in [
            (1, 1, 60),
            (2, 2, 120),
            (8, 1, 420),
            (8, 2, 840),
            (64, 3, 3400),
        ] {
            for mode in [Exact, HalfDeck, FullDeck] {
                for rounding in [Floor, Truncate, Nearest] {
                    let tc = TrueCounter::new(decks, scale, mode, rounding);
                    let step = if decks == 64 { 7 } else { 1 };
                    for seen in (0..=decks * 52).step_by(step) {
                        let rcs = (-reach..=reach).chain([-422_656, -99_999, 99_999, 422_656]);
                        for rc in rcs {
                            let want = true_count(rc, scale, decks * 52 - seen, mode, rounding);
                            assert_eq!(
                                tc.get(rc, seen),
                                want,
                                "{decks} decks /{scale} {mode:?} {rounding:?}: rc {rc} seen {seen}"
                            );
                        }
                    }
                }
            }
        }
        // The largest divisors (64 decks at scales 251 and 255): every residue of the
        // numerator near the largest running counts, at a spread of cards seen. (A reciprocal
        // of too few bits, e.g. 2^40 / d, passes the small scales above but fails here.)
        for scale in [251, 255] {
            for mode in [Exact, HalfDeck, FullDeck] {
                for rounding in [Floor, Truncate, Nearest] {
                    let tc = TrueCounter::new(64, scale, mode, rounding);
                    let top = 422_656;
                    for seen in (0..=3328).step_by(191).chain([1247, 3327, 3328]) {
                        let rcs = (top - 17_000..=top).chain(-top..=-top + 17_000);
                        for rc in rcs.chain(150_000..158_200) {
                            let want = true_count(rc, scale, 3328 - seen, mode, rounding);
                            assert_eq!(
                                tc.get(rc, seen),
                                want,
                                "/{scale} {mode:?} {rounding:?}: rc {rc} seen {seen}"
                            );
                        }
                    }
                    // The exactness condition itself: every reciprocal's error e = m·d − 2^63
                    // is in (0, d], and the largest numerator times d stays below 2^63.
                    for &(d, m) in tc.divs.iter() {
                        let by = if rounding == Nearest { 2 * d } else { d } as u128;
                        let e = m as u128 * by - (1u128 << 63);
                        assert!(e > 0 && e <= by, "d {d}");
                        let x_max = 2 * 52 * top as u128 + by;
                        assert!(x_max * by < 1u128 << 63);
                    }
                }
            }
        }
        for scale in [1, 255] {
            let tc = TrueCounter::new(64, scale, Exact, Nearest);
            for (rc, seen) in [(422_656, 0), (-422_656, 3327), (422_655, 3328), (-1, 3328)] {
                let want = true_count(rc, scale, 3328 - seen, Exact, Nearest);
                assert_eq!(tc.get(rc, seen), want, "scale {scale} rc {rc} seen {seen}");
            }
        }
    }

    #[test]
    fn a_perfect_pairs_counter_knows_when_pairs_pay() {
        let spec = CountSpec {
            pairs_exposure: true,
            ..spec("hi-lo")
        };
        let c = Counting::new(super::super::resolve::seed_chart(), spec, 1);
        let mut p = c.player();
        // A full deck: P(pair) = 3/51 < 1/12.
        p.bet(0);
        assert_eq!(p.class(0) & PAIRS_PAY, 0);
        // Every card seen but the 5s and 6s: 8 left, P(pair) = 24/56 > 1/12.
        for rank in 0..13u8 {
            if value(rank) != 5 && value(rank) != 6 {
                for _ in 0..4 {
                    p.see(rank);
                }
            }
        }
        p.bet(0);
        assert_ne!(p.class(0) & PAIRS_PAY, 0);
        assert_eq!(p.class(0) & !PAIRS_PAY, tc_bin(p.key));
        p.shuffled();
        p.bet(0);
        assert_eq!(p.class(0) & PAIRS_PAY, 0);
    }

    #[test]
    fn an_ace_side_count_moves_the_bet_key_by_the_aces_left() {
        let spec = |ace_side| CountSpec {
            ace_side,
            ..spec("hi-opt-2")
        };
        let chart = super::super::resolve::seed_chart;
        let (plain, side) = (
            Counting::new(chart(), spec(None), 2),
            Counting::new(chart(), spec(Some(2)), 2),
        );
        let (mut a, mut b) = (plain.player(), side.player());
        // 26 cards seen, none an ace: 78 left, 8 aces where 6 are due: +2 aces x 2 = +4.
        for k in 0..26u8 {
            let card = 1 + k % 12; // 2..K, no ace
            a.see(card);
            b.see(card);
        }
        let (ka, kb) = (a.bet_key(), b.bet_key());
        // Hi-Opt II: RC then TC = RC / 1.5 decks; the side count adds 4 / 1.5.
        let rc = a.rc();
        assert_eq!(ka, (rc as f64 / 1.5).floor() as i32);
        assert_eq!(kb, ((rc as f64 + 4.0) / 1.5).floor() as i32);
        // Playing decisions keep the plain count.
        assert_eq!(b.key_now(), ka);
        // After the shuffle the aces seen start over.
        b.shuffled();
        assert_eq!(b.bet_key(), 0);
        // Bad weights and a ramp above the table maximum are refused.
        assert!(spec(Some(0)).validate().is_err());
        let mut s = spec(None);
        s.ramp = Ramp::parse("0:1,3:20").unwrap();
        s.table_max = Some(10);
        let e = s.validate().unwrap_err().to_string();
        assert!(
            e.contains("20 units at count 3, above --table-max 10"),
            "{e}"
        );
        s.table_max = Some(20);
        assert!(s.validate().is_ok());
    }

    #[test]
    fn ramps_parse_and_cover_every_count() {
        let r = Ramp::parse("0:1,1:2,2:4,3:8,4:12").unwrap();
        assert_eq!(r.units(-7), 1);
        assert_eq!(r.units(0), 1);
        assert_eq!(r.units(1), 2);
        assert_eq!(r.units(3), 8);
        assert_eq!(r.units(40), 12);
        assert_eq!(r.to_string(), "0:1,1:2,2:4,3:8,4:12");
        assert_eq!(Ramp::parse("# file\n0:1\n2:5 # big\n").unwrap().units(3), 5);
        // The look-up table a counter bets from gives the same units at every count.
        let spec = CountSpec {
            ramp: r.clone(),
            ..spec("hi-lo")
        };
        let c = Counting::new(super::super::resolve::seed_chart(), spec, 8);
        for k in -120..120 {
            assert_eq!(c.units(k), r.units(k), "{k}");
        }
        for bad in ["", "1:2,0:1", "0:0", "a:1", "0:x", "0-1", "1:1,1:2"] {
            assert!(Ramp::parse(bad).is_err(), "{bad}");
        }
        // Too large is said as such, with the limit (it used to say "not a whole number").
        let msg = |s: &str| Ramp::parse(s).unwrap_err().to_string();
        let e = msg("0:1,1:4294967296");
        assert!(
            e.starts_with(
                "--ramp '0:1,1:4294967296': 4294967296 units at 1: a bet is 1 to 1000000 units"
            ),
            "{e}"
        );
        assert!(msg("0:-1").contains("-1 units at 0: a bet is 1 to 1000000 units"));
        assert!(msg("99999999999:1").contains("count 99999999999 is outside -100..100"));
        assert!(msg("0:1.5").contains("units '1.5' is not a whole number"));
        assert!(msg("x:1").contains("count 'x' is not an integer"));
    }

    #[test]
    fn the_bankroll_for_a_risk_of_ruin_inverts_the_formula() {
        use crate::stats::ruin_probability;
        for (ev, var) in [(0.0014, 10.67), (0.03, 31.0), (0.5, 1.0)] {
            for r in [1e-6, 0.01, 0.05, 0.135, 0.5, 0.9] {
                let b = bankroll_for_ror(ev, var, r).unwrap();
                let back = ruin_probability(ev, var.sqrt(), b, None);
                assert!(
                    (back - r).abs() < 1e-12 * r.max(1e-3),
                    "{ev} {var} {r}: {back}"
                );
            }
        }
        // 5% at EV 0.01 and variance 1: B = ln(20)/0.02.
        let b = bankroll_for_ror(0.01, 1.0, 0.05).unwrap();
        assert!((b - 20f64.ln() / 0.02).abs() < 1e-9, "{b}");
        assert_eq!(bankroll_for_ror(0.0, 1.0, 0.05), None);
        assert_eq!(bankroll_for_ror(-0.01, 1.0, 0.05), None);
        assert_eq!(bankroll_for_ror(0.01, 1.0, 1.0), None);
    }

    #[test]
    fn check_trips_agree_with_the_formula_within_their_se() {
        for (ev, var, r) in [
            (0.0014, 10.67, 0.05),
            (0.03, 31.0, 0.2),
            (0.002, 11.0, 0.01),
        ] {
            let b = bankroll_for_ror(ev, var, r).unwrap();
            let c = ror_trips(ev, var, b, 7);
            assert_eq!(c.trips, TRIP_CHECKS);
            let p = c.ruined as f64 / c.trips as f64;
            let se = (c.formula * (1.0 - c.formula) / c.trips as f64).sqrt();
            // The same event by the formula: ruin before the ceiling, just below the target.
            assert!(c.formula < r && c.formula > r * (1.0 - r.powi(2)), "{c:?}");
            assert!(
                (p - c.formula).abs() < 3.0 * se,
                "{r}: {p} vs {} ± {se}",
                c.formula
            );
            assert!((c.block_rounds * var).sqrt() - b / TRIP_BLOCK_STEPS < 1e-6 * b);
        }
    }

    #[test]
    fn the_certainty_equivalent_is_ev_less_the_risk_cost() {
        // EV 0.01, variance 10, bankroll 1000: full Kelly costs 10/2000 = 0.005 a round.
        assert!((certainty_equivalent(0.01, 10.0, 1000.0, 1.0) - 0.005).abs() < 1e-15);
        // Half Kelly is twice as averse: the cost doubles.
        assert!(certainty_equivalent(0.01, 10.0, 1000.0, 0.5).abs() < 1e-15);
    }
}
