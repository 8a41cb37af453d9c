//! Card counting: count systems as data (tags per rank), true counts, bet ramps, and the
//! counting player (`Counter`), which plays a fixed chart and bets from a ramp on the count,
//! wonging in and out when asked.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::indices::Deviations;
use super::strategy::{Action, Player, Seats, Situation, Strategy};
use crate::cards::Rank;
use crate::rng::RngCore;

mod cover;
mod spec;
mod system;

pub use cover::Cover;

pub use spec::{
    Bankroll, CountLabels, CountSpec, DEFAULT_ROUNDS_PER_HOUR, MAX_BANKROLL, MAX_TRIP_ROUNDS,
    RUIN_BINS,
};
pub use system::{foreign_to, made_for, CountError, CountSystem, Tags, BUILT_IN};

/// Whether `name` is a built-in count's name (else it names a tag file).
pub fn is_built_in(name: &str) -> bool {
    BUILT_IN.iter().any(|b| b.0 == name)
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
        TrueCounter {
            per_rc,
            rounding,
            divs: Self::divisors(cards, rounding, |seen| {
                s * tc_fraction(mode, cards - seen).1
            }),
        }
    }

    /// By cards seen (0 ..= `cards`): the divisor `divisor(seen)` and its reciprocal (of
    /// twice it when rounding to nearest).
    fn divisors(
        cards: u32,
        rounding: TcRounding,
        divisor: impl Fn(u32) -> u32,
    ) -> Box<[(u32, u64)]> {
        (0..=cards)
            .map(|seen| {
                let d = divisor(seen);
                let by = if rounding == TcRounding::Nearest {
                    2 * d
                } else {
                    d
                };
                (d, (1u64 << 63) / by as u64 + 1)
            })
            .collect()
    }

    /// The true count of a player who estimates the decks played from the discard tray, to
    /// the nearest half deck, seeing `1 + bias` times the cards there (a bias of 0.1 sees 10%
    /// more): the decks left are the shoe less that estimate, at least half a deck.
    pub fn discard_tray(decks: u32, scale: u8, rounding: TcRounding, bias: f64) -> TrueCounter {
        let cards = decks * 52;
        let s = scale.max(1) as u32;
        let divs = Self::divisors(cards, rounding, |seen| {
            let seen_as = (seen as f64 * (1.0 + bias)).max(0.0);
            let half_decks_played = (seen_as / 26.0).round() as u32;
            s * (2 * decks).saturating_sub(half_decks_played).max(1)
        });
        TrueCounter {
            per_rc: 2,
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
        // The quotient of |num|, its sign put back by arithmetic (the count's sign is data
        // the branch predictor cannot learn): `sign` is 0 or −1, and (q ^ −1) − (−1) = −q.
        let (a, sign) = (num.unsigned_abs(), num >> 31);
        let x = match self.rounding {
            // Floor of a negative: the quotient of |num| rounded up.
            TcRounding::Floor => a + ((d - 1) & sign as u32),
            TcRounding::Truncate => a,
            TcRounding::Nearest => 2 * a + d,
        };
        (Self::div(x, m) ^ sign) - sign
    }
}

/// A bet ramp: (count, units) sorted by count; the first entry covers every count at or below
/// it, the last every count above it, each entry the counts from it to the next. An entry of
/// 0 units sits out at its counts (a back-counter's exit point, see `Counter::back_count`).
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
                        "{u} units at {c}: a bet is 0 (sit out) to {MAX_UNITS} units"
                    )));
                }
                Err(_) => return Err(bad(format!("units '{u}' is not a whole number"))),
            };
            if !(-100..=100).contains(&c) {
                return Err(bad(format!("count {c} is outside -100..100")));
            }
            if u > MAX_UNITS {
                return Err(bad(format!(
                    "{u} units at {c}: a bet is 0 (sit out) to {MAX_UNITS} units"
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
        if v.iter().all(|e| e.1 == 0) {
            return Err(bad(
                "it bets 0 at every count, so it never plays: give some count 1 unit or more"
                    .into(),
            ));
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

    /// Whether the ramp bets 0 (sits out) at some count.
    pub fn sits_out(&self) -> bool {
        self.0.iter().any(|e| e.1 == 0)
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

/// The tally steps indexed by `16·dealt + rank`: 0 for a card read but not dealt, the step
/// (`tally_steps`) for one dealt.
fn steps_if(steps: &[u64; 16]) -> [u64; 32] {
    std::array::from_fn(|i| if i < 16 { 0 } else { steps[i - 16] })
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
    /// Whether the bet needs `Counter::watch` (a pairs watch or back-counting).
    watches: bool,
    /// Whether the counter back-counts (`CountSpec::back_counts`), and its entries a shoe at
    /// most (`u32::MAX`: no limit).
    wongs: bool,
    max_entries: u32,
    /// The ramp as a look-up table (`Ramp::table`).
    ramp_lo: i32,
    ramp_units: Vec<u32>,
    /// Whether the counter makes a cover play (`Counter::covered`), and the bet from which
    /// it declines insurance (`u32::MAX`: none).
    covers: bool,
    insure_below: u32,
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
    /// The counter estimates the decks left from the discard tray with a relative `bias`
    /// ([`TrueCounter::discard_tray`]) instead of the spec's estimate.
    pub fn with_discard_estimate(mut self, bias: f64) -> Counting<S> {
        let sp = &self.spec;
        self.tc = TrueCounter::discard_tray(self.decks, sp.system.scale, sp.rounding, bias);
        self
    }

    pub fn new(chart: S, spec: CountSpec, decks: u32) -> Counting<S> {
        let (ramp_lo, ramp_units) = spec.ramp.table();
        let top = ramp_units.iter().copied().max().unwrap_or(1);
        let insure_below = match spec.cover.no_big_insurance {
            None => u32::MAX,
            Some(0) => top,
            Some(u) => u,
        };
        // The cover's dropped index plays: those that split tens.
        let indices = spec.indices.clone().map(|mut ix| {
            if spec.cover.no_ten_split {
                ix.entries.retain(|e| !cover_drops(e));
            }
            ix
        });
        Counting {
            chart,
            steps: tally_steps(&spec.system.by_rank()),
            balanced: spec.system.balanced(),
            deviations: indices.as_ref().map(Deviations::new),
            tc: TrueCounter::new(decks, spec.system.scale, spec.true_count, spec.rounding),
            watches: spec.pairs_exposure || spec.back_counts(),
            wongs: spec.back_counts(),
            max_entries: spec.max_entries.unwrap_or(u32::MAX),
            ramp_lo,
            ramp_units,
            covers: !spec.cover.is_none(),
            insure_below,
            spec,
            decks,
        }
    }
}

/// Whether `--cover no-ten-split` drops index entry `e` (a split of tens).
pub(super) fn cover_drops(e: &super::indices::Deviation) -> bool {
    e.row as usize == super::strategy::pair_row(10)
        && e.play == super::indices::Play::Code(super::strategy::Code::P)
}

impl<S: Strategy> Seats for Counting<S> {
    type Player<'a>
        = Counter<'a, S>
    where
        S: 'a;
    fn player(&self) -> Counter<'_, S> {
        Counter {
            c: self,
            steps: steps_if(&self.steps),
            extra: self.spec.pairs_exposure,
            miscount: None,
            tally: tally_start(self.spec.system.initial(self.decks)),
            left_by_rank: [4 * self.decks as u16; 13],
            pairs_pay: false,
            playing: !self.wongs,
            entries: 0,
            first_round: true,
            key: 0,
            key_cached: 0,
            key_seen: u32::MAX,
            last_bet: 0,
            won: 0,
            shoe_rounds: 0,
            round_bet: 0,
        }
    }
}

/// A counter's miscounts: a draw below `below` (the chance times 2^64) miscounts the card by
/// `step` (one count unit in the tally's running count) up or down.
struct Miscount {
    below: u64,
    step: u64,
    rng: crate::rng::Rng,
}

impl Miscount {
    fn new(p: f64, scale: u8, side: &crate::rng::Rng) -> Miscount {
        Miscount {
            // Saturating: a chance of 1 is every card.
            below: (p * 2f64.powi(64)) as u64,
            step: scale.max(1) as u64,
            rng: side.clone(),
        }
    }
}

/// A card counter: keeps the running count of every card seen, bets from the ramp on the
/// count before each round (0 — sitting out — while wonged out or where the ramp bets 0),
/// plays the chart unchanged.
pub struct Counter<'a, S> {
    c: &'a Counting<S>,
    /// The tally steps at hand for `see`: entry `16·dealt + rank` (`steps_if`), and whether
    /// seeing a card does more than count it (`see_more`: a pairs watch or miscounts).
    steps: [u64; 32],
    extra: bool,
    /// Miscounts (`CountSpec::miscount`), from the chunk's side stream.
    miscount: Option<Miscount>,
    /// The running count, the cards seen since the shuffle and the aces among them, packed
    /// in one word so that seeing a card is one addition (see `tally_steps`).
    tally: u64,
    /// Cards of each rank not seen since the shuffle (with `pairs_exposure`), and whether
    /// this round's pairs bet has an exact EV of 0 or more.
    left_by_rank: [u16; 13],
    pairs_pay: bool,
    /// Whether the seat is playing (wonged in).
    playing: bool,
    /// Entries made since the shuffle, and whether the next round is the shoe's first.
    entries: u32,
    first_round: bool,
    /// The count the last bet was decided on.
    key: i32,
    /// `key_now`'s last answer and the cards seen when it was computed.
    key_cached: i32,
    key_seen: u32,
    /// With a cover (`Counting::covers`): the last bet made (0: none yet), the sign of the
    /// last round's main-bet result, the rounds bet since the shuffle, and this round's bet.
    last_bet: u32,
    won: i8,
    shoe_rounds: u32,
    round_bet: u32,
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
        if self.c.wongs {
            self.back_count();
        }
    }

    /// Back-counting, once per round: enter (if entries are left, and mid-shoe or at the
    /// shoe's first round) when the count reaches --wong-in and the ramp bets; leave below
    /// --wong-out (or --wong-in) or where the ramp bets 0. Without --wong-in a seat enters
    /// wherever it would not leave at once: at a shoe's first round when the count is at
    /// --wong-out or above (a balanced count starts at 0), and again whenever it gets back there.
    fn back_count(&mut self) {
        let (c, sp, key) = (self.c, &self.c.spec, self.key);
        let bets = c.units(key) > 0;
        // Wonging in alone leaves below the same count.
        let below = sp.wong_out.or(sp.wong_in).is_some_and(|w| key < w);
        let may_enter = self.entries < c.max_entries && (self.first_round || !sp.no_mid_shoe_entry);
        // An entry is one that plays: a round below the exit count is not entered (and does
        // not use up an entry).
        let enter = sp.wong_in.is_none_or(|w| key >= w) && bets && !below;
        if !self.playing && may_enter && enter {
            self.playing = true;
            self.entries += 1;
        }
        if self.playing && (below || !bets) {
            self.playing = false;
        }
        self.first_round = false;
    }

    /// What seeing a card does beyond counting it: the ranks left for the pairs watch, and
    /// a miscount: with the chance asked, the card's tag ± one count unit (each half the
    /// time). Out of line, so that the plain `see` stays one addition.
    #[inline(never)]
    fn see_more(&mut self, card: Rank) {
        if self.c.spec.pairs_exposure {
            let k = &mut self.left_by_rank[card as usize % 13];
            *k = k.saturating_sub(1);
        }
        if let Some(m) = &mut self.miscount {
            let x = m.rng.next_u64();
            if x < m.below {
                // The low bit of a draw below the threshold: + or − alike.
                let step = if x & 1 == 0 {
                    m.step
                } else {
                    m.step.wrapping_neg()
                };
                self.tally = self.tally.wrapping_add(step);
            }
        }
    }

    /// `see_more` for a card that was dealt (out of line, as `see_more`).
    #[inline(never)]
    fn see_more_if(&mut self, card: Rank, dealt: bool) {
        if dealt {
            self.see_more(card);
        }
    }

    /// The cover's bet for `seat` where the ramp bets `b` (out of line: the plain bet stays
    /// small). Seat 0 decides the round's bet; the other spots the counter bets follow it.
    #[inline(never)]
    fn covered(&mut self, seat: usize, b: u32) -> u32 {
        if seat > 0 {
            return if b == 0 { 0 } else { self.round_bet };
        }
        let x = cover::covered_bet(
            &self.c.spec.cover,
            b,
            self.last_bet,
            self.won,
            self.shoe_rounds,
        );
        self.round_bet = x;
        if x > 0 {
            self.last_bet = x;
            self.shoe_rounds += 1;
        }
        x
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
        let b = match self.c.spec.spots_at {
            Some(x) if seat > 0 && self.key < x => 0,
            _ => self.c.units(self.key),
        };
        if self.c.covers {
            return self.covered(seat, b);
        }
        b
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
        let yes = match &self.c.deviations {
            Some(d) => d.insure(&self.c.chart, total, soft, || self.key_now()),
            None => self.c.chart.insure(total, soft),
        };
        // The cover declines insurance on a big bet (`insure_below` is u32::MAX without it).
        yes && self.round_bet < self.c.insure_below
    }

    #[inline(always)]
    fn see(&mut self, card: Rank) {
        self.tally = self.tally.wrapping_add(self.steps[16 + card as usize % 16]);
        if self.extra {
            self.see_more(card);
        }
    }

    #[inline(always)]
    fn see_if(&mut self, card: Rank, dealt: bool) {
        // The step looked up with `dealt` in its index (0 for a card not dealt): a mask or a
        // select here compiles to a branch on `dealt`, which the predictor cannot learn.
        self.tally = self
            .tally
            .wrapping_add(self.steps[16 * dealt as usize + card as usize % 16]);
        // `extra` alone first (false in a plain count, a branch always guessed right); `dealt`
        // is tested only beyond it, so that no branch on it is left in the plain count's path.
        if self.extra {
            self.see_more_if(card, dealt);
        }
    }

    fn side_stream(&mut self, rng: &crate::rng::Rng) {
        if let Some(p) = self.c.spec.miscount.filter(|&p| p > 0.0) {
            self.miscount = Some(Miscount::new(p, self.c.spec.system.scale, rng));
            self.extra = true;
        }
    }

    #[inline]
    fn shuffled(&mut self) {
        self.tally = tally_start(self.c.spec.system.initial(self.c.decks));
        self.left_by_rank = [4 * self.c.decks as u16; 13];
        self.key_seen = u32::MAX;
        self.entries = 0;
        self.first_round = true;
        self.playing = !self.c.wongs;
        self.shoe_rounds = 0;
    }

    /// The result of the round, kept for a cover's parlay (seat 0's).
    const PAYS: bool = true;
    #[inline(always)]
    fn paid(&mut self, seat: usize, net: i64, _natural: bool, _unit: i64) -> i64 {
        if seat == 0 {
            self.won = net.signum() as i8;
        }
        net
    }
}

/// A request on `system` with `ramp`, every other option off (for tests).
#[cfg(test)]
impl CountSpec {
    pub(crate) fn plain(system: &str, ramp: &str) -> CountSpec {
        CountSpec {
            system: CountSystem::resolve(system).unwrap(),
            ramp: Ramp::parse(ramp).unwrap(),
            true_count: TcMode::Exact,
            rounding: TcRounding::Floor,
            wong_in: None,
            wong_out: None,
            max_entries: Some(1),
            no_mid_shoe_entry: false,
            miscount: None,
            indices: None,
            pairs_exposure: false,
            ace_side: None,
            table_max: None,
            spots_at: None,
            bankroll: None,
            cover: Cover::default(),
            labels: CountLabels::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::value;

    /// A flat Hi-Lo-style request on `system`, every option off.
    fn spec(system: &str) -> CountSpec {
        CountSpec::plain(system, "0:1")
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

    /// 2,000 cards, every third read but not dealt: (rank, dealt).
    fn read_and_dealt() -> impl Iterator<Item = (Rank, bool)> {
        (0..2000u32).map(|i| ((i * 7 % 13) as Rank, i % 3 != 0))
    }

    /// `a` reads every card (`see_if`), `b` sees only those dealt: their tallies and ranks
    /// left stay equal card by card.
    fn read_beside_dealt<S: Strategy>(a: &mut Counter<'_, S>, b: &mut Counter<'_, S>) {
        for (i, (card, dealt)) in read_and_dealt().enumerate() {
            a.see_if(card, dealt);
            if dealt {
                b.see(card);
            }
            assert_eq!(a.tally, b.tally, "card {i}");
            assert_eq!(a.left_by_rank, b.left_by_rank, "card {i}");
        }
    }

    #[test]
    fn a_card_read_but_not_dealt_is_not_counted() {
        let c = Counting::new(super::super::resolve::seed_chart(), spec("hi-lo"), 8);
        let (mut a, mut b) = (c.player(), c.player());
        read_beside_dealt(&mut a, &mut b);
        assert_eq!(a.seen(), 1333);
        // The running count is the Hi-Lo tags of the cards dealt.
        let tags = CountSystem::resolve("hi-lo").unwrap().by_rank();
        let rc: i32 = read_and_dealt()
            .filter(|&(_, dealt)| dealt)
            .map(|(card, _)| tags[card as usize] as i32)
            .sum();
        assert_eq!(a.rc(), rc);
    }

    #[test]
    fn a_card_read_but_not_dealt_leaves_a_pairs_watch_and_miscounts_alone() {
        // A counter with a pairs watch and miscounts: cards read but not dealt change
        // nothing, not even the miscounts' random stream.
        let mut sp = spec("hi-lo");
        sp.pairs_exposure = true;
        sp.miscount = Some(0.3);
        let c = Counting::new(super::super::resolve::seed_chart(), sp, 8);
        let (mut a, mut b) = (c.player(), c.player());
        let side = <crate::rng::Rng as crate::rng::SeedableRng>::seed_from_u64(5);
        a.side_stream(&side);
        b.side_stream(&side);
        read_beside_dealt(&mut a, &mut b);
        // The miscounts happened: the same cards counted without them end elsewhere.
        let mut honest = c.player();
        read_and_dealt()
            .filter(|&(_, dealt)| dealt)
            .for_each(|(card, _)| honest.see(card));
        assert_eq!(honest.seen(), a.seen());
        assert_ne!(honest.rc(), a.rc());
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

    /// Whether a back-counter of `spec` plays each round of a shoe at these bet counts.
    fn plays(spec: &CountSpec, keys: &[i32]) -> Vec<bool> {
        let c = Counting::new(super::super::resolve::seed_chart(), spec.clone(), 6);
        let mut p = c.player();
        p.shuffled();
        keys.iter()
            .map(|&k| {
                p.key = k;
                p.watch();
                p.playing
            })
            .collect()
    }

    #[test]
    fn a_back_counter_enters_leaves_and_re_enters_within_its_limit() {
        let (t, f) = (true, false);
        let wong = |max_entries| CountSpec {
            wong_in: Some(2),
            wong_out: Some(0),
            max_entries,
            ..spec("hi-lo")
        };
        let keys = [0, 2, 1, 0, -1, 1, 2, 3, -1, 2];
        // In at +2, out below 0, in at +2 again, and again.
        let every = [f, t, t, t, f, f, t, t, f, t];
        assert_eq!(plays(&wong(None), &keys), every);
        assert_eq!(plays(&wong(Some(3)), &keys), every);
        // Two entries: the third is refused; one: out until the shuffle.
        let two = [f, t, t, t, f, f, t, t, f, f];
        assert_eq!(plays(&wong(Some(2)), &keys), two);
        let one = [f, t, t, t, f, f, f, f, f, f];
        assert_eq!(plays(&wong(Some(1)), &keys), one);
        // The shuffle gives the entries back.
        let c = Counting::new(super::super::resolve::seed_chart(), wong(Some(1)), 6);
        let mut p = c.player();
        for k in [2, -1, 2] {
            p.key = k;
            p.watch();
        }
        assert!(!p.playing);
        p.shuffled();
        p.key = 2;
        p.watch();
        assert!(p.playing);
        // No mid-shoe entry: in only at a shoe's first round, and out for the shoe once out.
        let first = CountSpec {
            no_mid_shoe_entry: true,
            ..wong(Some(1))
        };
        assert_eq!(plays(&first, &[2, 1, -1, 3]), [t, t, f, f]);
        assert_eq!(plays(&first, &[1, 2, 3]), [f, f, f]);
        // Wonging out alone plays from the shoe's first round (whatever the count), and
        // re-enters at the --wong-out count when it may.
        let out = |max_entries| CountSpec {
            wong_out: Some(0),
            max_entries,
            ..spec("hi-lo")
        };
        let keys = [-2, -1, 0, 1, -1, 0];
        assert_eq!(plays(&out(None), &keys), [f, f, t, t, f, t]);
        // A first round below the exit count is not an entry: the one entry comes at 0.
        assert_eq!(plays(&out(Some(1)), &keys), [f, f, t, t, f, f]);
        assert_eq!(plays(&out(Some(1)), &[3, 0, -1, 0]), [t, t, f, f]);
    }

    #[test]
    fn a_ramp_of_0_units_sits_out_and_is_an_exit_point() {
        let (t, f) = (true, false);
        let sits = |max_entries| CountSpec {
            max_entries,
            ..CountSpec::plain("hi-lo", "-1:0,1:1,2:4")
        };
        let keys = [0, 1, 2, 0, 1, -3, 5];
        assert_eq!(plays(&sits(None), &keys), [f, t, t, f, t, f, t]);
        assert_eq!(plays(&sits(Some(1)), &keys), [f, t, t, f, f, f, f]);
        // With --wong-in the ramp's 0 still keeps the seat out.
        let both = CountSpec {
            wong_in: Some(0),
            max_entries: None,
            ..CountSpec::plain("hi-lo", "-5:1,1:0,2:3")
        };
        assert_eq!(plays(&both, &[0, 1, 2, -1, 0]), [t, f, t, f, t]);
        let c = Counting::new(super::super::resolve::seed_chart(), sits(None), 6);
        assert_eq!((c.units(0), c.units(1), c.units(9)), (0, 1, 4));
        assert!(sits(None).back_counts() && !spec("hi-lo").back_counts());
    }

    #[test]
    fn a_miscounting_counter_errs_on_the_chance_asked_by_one_unit_either_way() {
        for (system, p) in [("hi-lo", 0.1), ("halves", 0.03)] {
            let spec = CountSpec {
                miscount: Some(p),
                ..spec(system)
            };
            let c = Counting::new(super::super::resolve::seed_chart(), spec, 8);
            let mut a = c.player();
            a.side_stream(&crate::rng::side_rng(&crate::rng::chunk_rng(3, 7)));
            let unit = c.spec.system.scale as i32;
            let (mut up, mut down, n) = (0u64, 0u64, 200_000u64);
            for i in 0..n {
                if i % 300 == 0 {
                    a.shuffled();
                }
                // A 7 is tagged 0 by Hi-Lo; by Halves +1/2: what moves beyond it is an error.
                let before = a.rc();
                a.see(6);
                let err = a.rc() - before - c.spec.system.by_rank()[6] as i32;
                match err {
                    0 => {}
                    e if e == unit => up += 1,
                    e if e == -unit => down += 1,
                    e => panic!("{system}: an error of {e} tag units"),
                }
            }
            // Binomial counts within 5 SE of n·p, and the two signs within 5 SE of a half.
            let (k, nf) = ((up + down) as f64, n as f64);
            let se = (nf * p * (1.0 - p)).sqrt();
            assert!((k - nf * p).abs() < 5.0 * se, "{system}: {k} of {n}");
            assert!((up as f64 - k / 2.0).abs() < 2.5 * k.sqrt(), "{up} {down}");
            // The error stays until the shuffle: the shuffle starts the count over.
            a.shuffled();
            assert_eq!(a.rc(), c.spec.system.initial(8));
        }
        // Without a side stream (or at a chance of 0) a counter never errs.
        let c = Counting::new(super::super::resolve::seed_chart(), spec("hi-lo"), 8);
        let mut b = c.player();
        b.side_stream(&crate::rng::chunk_rng(1, 1));
        for _ in 0..1000 {
            b.see(6);
        }
        assert_eq!(b.rc(), 0);
    }

    /// A one-deck Hi-Lo counter betting 1 / 4 / 12 at 0 / +2 / +4, with the cover plays
    /// `cover`, an insurance index at +3 and a split of tens against a 5 at +5.
    fn covered(cover: &str) -> Counting<crate::games::blackjack::strategy::Chart> {
        use super::super::indices::IndexSet;
        let spec = CountSpec {
            cover: Cover::parse(cover).unwrap(),
            indices: Some(IndexSet {
                label: "t".into(),
                entries: IndexSet::parse("insurance,A,I,>=3\nPT,5,P,>=5\n", "t").unwrap(),
            }),
            ..CountSpec::plain("hi-lo", "0:1,2:4,4:12")
        };
        Counting::new(super::super::resolve::seed_chart(), spec, 1)
    }

    /// Seeing `n` twos: a running count of +n.
    fn twos(p: &mut Counter<'_, crate::games::blackjack::strategy::Chart>, n: u32) {
        for _ in 0..n {
            p.see(1);
        }
    }

    #[test]
    fn each_cover_play_changes_the_counters_bet_or_play_as_it_says() {
        // No cover: the ramp's bets, 12 at +12, back to 1 after the shuffle.
        let c = covered("none");
        let mut p = c.player();
        assert_eq!(p.bet(0), 1);
        twos(&mut p, 10);
        assert_eq!(p.bet(0), 12);
        p.shuffled();
        assert_eq!(p.bet(0), 1);
        // Off the top: the last bet for the shoe's first round, then the ramp.
        let c = covered("top");
        let mut p = c.player();
        assert_eq!(p.bet(0), 1);
        twos(&mut p, 10);
        assert_eq!(p.bet(0), 12);
        p.shuffled();
        assert_eq!((p.bet(0), p.bet(0)), (12, 1));
        // A parlay: no rise after a loss or a push; a rise after each win, doubling to the
        // ramp's bet; no fall after a win or a push; a fall at the shuffle.
        let c = covered("parlay");
        let mut p = c.player();
        assert_eq!(p.bet(0), 1);
        twos(&mut p, 10);
        let mut bets = Vec::new();
        for net in [-1, 0, 1, 1, 1, 1, 1] {
            p.paid(0, net, false, 2);
            bets.push(p.bet(0));
        }
        assert_eq!(bets, [1, 1, 2, 4, 8, 12, 12]);
        p.shuffled();
        assert_eq!(p.bet(0), 1);
        twos(&mut p, 10);
        p.paid(0, 1, false, 2);
        assert_eq!(p.bet(0), 2);
        p.shuffled();
        p.paid(0, 1, false, 2);
        assert_eq!(p.bet(0), 1, "a shuffle lowers the bet");
        // A rise of at most twice the last bet, whatever the result.
        let c = covered("max-rise=2");
        let mut p = c.player();
        assert_eq!(p.bet(0), 1);
        twos(&mut p, 10);
        let bets: Vec<u32> = (0..5).map(|_| p.bet(0)).collect();
        assert_eq!(bets, [2, 4, 8, 12, 12]);
        // Insurance at +3 is declined on a top bet, taken on a smaller one.
        for (cover, top_insured) in [("none", true), ("no-big-insurance", false)] {
            let c = covered(cover);
            let mut p = c.player();
            twos(&mut p, 3);
            assert_eq!(p.bet(0), 4);
            assert!(p.insure(0, 20, false), "{cover}: at a bet of 4");
            twos(&mut p, 7);
            assert_eq!(p.bet(0), 12);
            assert_eq!(p.insure(0, 20, false), top_insured, "{cover}: at 12");
        }
        let c = covered("no-big-insurance=4");
        let mut p = c.player();
        twos(&mut p, 3);
        assert_eq!(p.bet(0), 4);
        assert!(!p.insure(0, 20, false));
        // Tens split against a 5 at +5 by the index, never under the cover.
        let tens = Situation {
            total: 20,
            soft: false,
            cards: 2,
            pair: Some(10),
            up: 5,
            can_double: true,
            can_surrender: false,
            split: false,
        };
        for (cover, play) in [("none", Action::Split), ("no-ten-split", Action::Stand)] {
            let c = covered(cover);
            let mut p = c.player();
            twos(&mut p, 10);
            p.bet(0);
            assert_eq!(p.act(0, &tens), play, "{cover}");
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
                "--ramp '0:1,1:4294967296': 4294967296 units at 1: a bet is 0 (sit out) to 1000000 units"
            ),
            "{e}"
        );
        assert!(msg("0:-1").contains("-1 units at 0: a bet is 0 (sit out) to 1000000 units"));
        assert!(msg("99999999999:1").contains("count 99999999999 is outside -100..100"));
        assert!(msg("0:1.5").contains("units '1.5' is not a whole number"));
        assert!(msg("x:1").contains("count 'x' is not an integer"));
    }
}
