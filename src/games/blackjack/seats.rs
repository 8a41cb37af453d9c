//! A strategy per seat: each seat of the table plays a strategy of its own (a chart, the
//! auto-play, a card counter with its own count, ramp, indices and wonging), written as one
//! `--seat` value each; the player that seats them ([`MixedSeats`]) dispatches by seat.
//!
//! A seat's spec is words separated by spaces: first the strategy (basic, autoplay,
//! mimic-dealer, never-bust or a chart file) or a built-in count's name (a counter playing
//! `basic`), then `key=value` words: `count=`, `ramp=`, `indices=`, `wong-in=`, `wong-out=`,
//! `max-entries=`, `true-count=`, `tc-rounding=`, `miscount=`, `insurance=` (always or never),
//! `strategy=`. Example: `hi-lo ramp=0:1,1:2,2:4,3:8 indices=i18`.

use serde::{Deserialize, Serialize};

use super::count::{CountSpec, CountSystem, Counter, Counting, Ramp, TcMode, TcRounding};
use super::hand::DrawTable;
use super::indices::IndexSet;
use super::kept::Kept;
use super::resolve::resolve_strategy;
use super::rules::{Rules, MAX_PLAYERS};
use super::strategy::{
    Action, AutoPlay, Chart, MimicDealer, NeverBust, Player, Seats, Situation, Strategy,
    StrategySpec,
};
use crate::cards::Rank;

/// One seat's play: its strategy, insurance and (a counter) its count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatSpec {
    /// The spec as written (a label: not part of the run's identity).
    pub label: String,
    #[serde(with = "super::game::spec_serde")]
    pub strategy: StrategySpec,
    /// Takes insurance whenever offered (a counter's index set may decide it instead).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub insure: bool,
    /// A card counter's count, ramp, indices and wonging (absent: one initial bet, sees
    /// nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<CountSpec>,
}

/// A `--seat` value that cannot be seated (`spec`; empty: the table's seats as a whole), and
/// why.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{}{why}", if spec.is_empty() { String::new() } else { format!("--seat '{spec}': ") })]
pub struct SeatError {
    pub spec: String,
    pub why: String,
}

/// The keys a seat's spec takes after its strategy.
pub const SEAT_KEYS: [&str; 11] = [
    "strategy",
    "count",
    "ramp",
    "indices",
    "wong-in",
    "wong-out",
    "max-entries",
    "true-count",
    "tc-rounding",
    "miscount",
    "insurance",
];

/// Most seats at a table.
pub const MAX_SEATS: usize = MAX_PLAYERS as usize;

impl SeatSpec {
    /// Read one `--seat` value (`insure`: the table's `--insurance always`, which a seat's
    /// `insurance=` overrides). Files named in it (a chart, a tag file, a ramp, indices) are
    /// read here.
    pub fn parse(
        text: &str,
        rules: &Rules,
        tables: &Kept,
        insure: bool,
    ) -> Result<SeatSpec, SeatError> {
        let fail = |why: String| SeatError {
            spec: text.to_string(),
            why,
        };
        let mut words = text.split_whitespace();
        let Some(first) = words.next() else {
            return Err(SeatError {
                spec: String::new(),
                why: format!("--seat '{text}' is empty: expected a strategy (basic, autoplay, mimic-dealer, never-bust, a chart file) or a count (hi-lo ...), then key=value words"),
            });
        };
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let (mut strategy, mut count) = (None, None);
        if first.contains('=') {
            return Err(fail(format!(
                "'{first}': the first word is the seat's strategy or count (e.g. basic, autoplay, hi-lo), not a key"
            )));
        } else if super::count::is_built_in(first) {
            count = Some(first);
        } else {
            strategy = Some(first);
        }
        for w in words {
            let Some((k, v)) = w.split_once('=') else {
                return Err(fail(format!(
                    "'{w}': expected key=value after the first word (keys: {})",
                    SEAT_KEYS.join(", ")
                )));
            };
            if !SEAT_KEYS.contains(&k) {
                return Err(fail(format!(
                    "unknown key '{k}': expected one of {}",
                    SEAT_KEYS.join(", ")
                )));
            }
            if v.is_empty() {
                return Err(fail(format!("'{k}=' has no value")));
            }
            if keys.iter().any(|(x, _)| *x == k) {
                return Err(fail(format!("'{k}' is given twice")));
            }
            keys.push((k, v));
        }
        let get = |k: &str| keys.iter().find(|(x, _)| *x == k).map(|(_, v)| *v);
        if let Some(s) = get("strategy") {
            if strategy.is_some() {
                return Err(fail(format!(
                    "the strategy is given twice ('{}' and strategy={s})",
                    first
                )));
            }
            strategy = Some(s);
        }
        if let Some(c) = get("count") {
            if count.is_some() {
                return Err(fail(format!(
                    "the count is given twice ('{first}' and count={c})"
                )));
            }
            count = Some(c);
        }
        let strategy = resolve_strategy(strategy.unwrap_or("basic"), rules, tables)
            .map_err(|e| fail(e.to_string()))?;
        let insure = match get("insurance") {
            None => insure,
            Some("always") => true,
            Some("never") => false,
            Some(v) => return Err(fail(format!("insurance={v}: expected always or never"))),
        };
        let count = match count {
            Some(system) => Some(count_spec(system, &get).map_err(fail)?),
            None => {
                let counting = SEAT_KEYS[2..10].iter().find(|k| get(k).is_some());
                if let Some(k) = counting {
                    return Err(fail(format!(
                        "{k}= needs a count: start the seat with one (e.g. 'hi-lo {k}=...') or add count=SYSTEM"
                    )));
                }
                None
            }
        };
        Ok(SeatSpec {
            label: text.split_whitespace().collect::<Vec<_>>().join(" "),
            strategy,
            insure,
            count,
        })
    }
}

/// A seat's count request from its keys (`get`), as `--count` and its flags make one.
fn count_spec<'a>(
    system: &str,
    get: &impl Fn(&str) -> Option<&'a str>,
) -> Result<CountSpec, String> {
    let int = |k: &str| -> Result<Option<i32>, String> {
        get(k)
            .map(|v| {
                v.parse::<i32>()
                    .ok()
                    .filter(|x| (-100..=100).contains(x))
                    .ok_or_else(|| format!("{k}={v}: expected a count from -100 to 100"))
            })
            .transpose()
    };
    let system = CountSystem::resolve(system).map_err(|e| e.to_string())?;
    let ramp = Ramp::resolve(get("ramp").unwrap_or("0:1")).map_err(|e| e.to_string())?;
    let (wong_in, wong_out) = (int("wong-in")?, int("wong-out")?);
    let back = wong_in.is_some() || wong_out.is_some() || ramp.sits_out();
    let max_entries = match get("max-entries") {
        Some(v) if !back => {
            return Err(format!(
                "max-entries={v} needs back-counting: wong-in=TC, wong-out=TC or a ramp with 0 units at some counts"
            ))
        }
        Some(v) => Some(
            v.parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("max-entries={v}: expected a whole number of entries, 1 or more"))?,
        ),
        None if back => None,
        None => Some(1),
    };
    let balanced = system.balanced();
    let true_count = match get("true-count") {
        None | Some("exact") => TcMode::Exact,
        Some("half-deck") => TcMode::HalfDeck,
        Some("full-deck") => TcMode::FullDeck,
        Some(v) => {
            return Err(format!(
                "true-count={v}: expected exact, half-deck or full-deck"
            ))
        }
    };
    let rounding = match get("tc-rounding") {
        None | Some("floor") => TcRounding::Floor,
        Some("truncate") => TcRounding::Truncate,
        Some("nearest") => TcRounding::Nearest,
        Some(v) => {
            return Err(format!(
                "tc-rounding={v}: expected floor, truncate or nearest"
            ))
        }
    };
    if !balanced && (get("true-count").is_some() || get("tc-rounding").is_some()) {
        return Err(format!(
            "the count {} is unbalanced: it bets on the running count, so true-count and tc-rounding do not apply",
            system.label
        ));
    }
    let miscount = match get("miscount") {
        None => None,
        Some(v) => match v.parse::<f64>() {
            Ok(p) if (0.0..=1.0).contains(&p) => Some(p).filter(|&p| p != 0.0),
            _ => return Err(format!("miscount={v}: expected a chance from 0 to 1")),
        },
    };
    let indices = match get("indices") {
        Some(s) => Some(IndexSet::resolve(s).map_err(|e| e.to_string())?),
        None => None,
    };
    let spec = CountSpec {
        system,
        ramp,
        true_count,
        rounding,
        wong_in,
        wong_out,
        max_entries,
        no_mid_shoe_entry: false,
        miscount,
        indices,
        ace_side: None,
        table_max: None,
        pairs_exposure: false,
        spots_at: None,
        bankroll: None,
        cover: Default::default(),
        labels: Default::default(),
    };
    spec.validate().map_err(|e| e.to_string())?;
    Ok(spec)
}

/// Check a table's seats: one to `MAX_SEATS`, as many as the rules' players.
pub fn check_seats(seats: &[SeatSpec], rules: &Rules) -> Result<(), SeatError> {
    let fail = |why: String| SeatError {
        spec: String::new(),
        why,
    };
    if seats.len() > MAX_SEATS {
        return Err(fail(format!(
            "{} seats: the table has {MAX_SEATS} at most (give at most {MAX_SEATS} --seat)",
            seats.len()
        )));
    }
    if seats.len() != rules.players as usize {
        return Err(fail(format!(
            "{} seats at a table of {} players: give one --seat per player",
            seats.len(),
            rules.players
        )));
    }
    for s in seats {
        if let Some(c) = &s.count {
            c.validate().map_err(|e| SeatError {
                spec: s.label.clone(),
                why: e.to_string(),
            })?;
        }
    }
    Ok(())
}

/// Any fixed strategy a seat plays, with its insurance: one type for every seat, so that a
/// counter of any chart is one `Counting` type.
#[derive(Clone, Debug)]
pub struct AnyStrategy {
    kind: Kind,
    insure: bool,
}

#[derive(Clone, Debug)]
enum Kind {
    Chart(Box<Chart>),
    AutoPlay,
    Mimic(MimicDealer),
    NeverBust,
}

impl AnyStrategy {
    pub fn new(spec: &StrategySpec, insure: bool, h17: bool) -> AnyStrategy {
        let kind = match spec {
            StrategySpec::Chart(c) => Kind::Chart(c.clone()),
            StrategySpec::AutoPlay => Kind::AutoPlay,
            StrategySpec::MimicDealer => Kind::Mimic(MimicDealer { h17 }),
            StrategySpec::NeverBust => Kind::NeverBust,
        };
        AnyStrategy { kind, insure }
    }
}

impl Strategy for AnyStrategy {
    #[inline]
    fn act(&self, s: &Situation) -> Action {
        match &self.kind {
            Kind::Chart(c) => c.act(s),
            Kind::AutoPlay => AutoPlay.act(s),
            Kind::Mimic(m) => m.act(s),
            Kind::NeverBust => NeverBust.act(s),
        }
    }
    fn insure(&self, _total: u8, _soft: bool) -> bool {
        self.insure
    }
    fn draw_tables(&self) -> Option<&[DrawTable; 10]> {
        match &self.kind {
            Kind::Chart(c) => c.draw_tables(),
            _ => None,
        }
    }
}

/// One seat as a run shares it between threads.
enum SeatPlay {
    Fixed(AnyStrategy),
    Count(Box<Counting<AnyStrategy>>),
}

/// A table whose seats play strategies of their own (`--seat`): the [`Seats`] of a mixed run.
pub struct MixedSeats {
    seats: Vec<SeatPlay>,
}

impl MixedSeats {
    /// The seats; with mistakes (`errors`), a counting seat also miscounts and estimates the
    /// decks left as the model says (its play, bets and payouts err through the table's
    /// wrapper, as every seat's do).
    pub fn new(
        seats: &[SeatSpec],
        rules: &Rules,
        errors: Option<&super::mistakes::ErrorModel>,
    ) -> MixedSeats {
        let seats = seats
            .iter()
            .map(|s| {
                let strategy = AnyStrategy::new(&s.strategy, s.insure, rules.h17);
                match &s.count {
                    None => SeatPlay::Fixed(strategy),
                    Some(c) => {
                        let mut c = c.clone();
                        if let Some(e) = errors.filter(|e| e.miscount > 0.0) {
                            c.miscount = Some(e.miscount);
                        }
                        let mut counting = Counting::new(strategy, c, rules.decks);
                        if let Some(e) = errors.filter(|e| e.discard_bias != 0.0) {
                            counting = counting.with_discard_estimate(e.discard_bias);
                        }
                        SeatPlay::Count(Box::new(counting))
                    }
                }
            })
            .collect();
        MixedSeats { seats }
    }
}

/// One seat at play: a fixed strategy, or a counter of its own (its count, its bets).
pub enum SeatPlayer<'a> {
    Fixed(&'a AnyStrategy),
    Count(Box<Counter<'a, AnyStrategy>>),
}

/// The player of a mixed table: each seat's decisions from its own strategy; every counter
/// sees every card exposed at the table (every seat's and the dealer's) and every shuffle.
pub struct MixedPlayer<'a> {
    seats: Vec<SeatPlayer<'a>>,
}

impl Seats for MixedSeats {
    type Player<'a> = MixedPlayer<'a>;
    fn player(&self) -> MixedPlayer<'_> {
        MixedPlayer {
            seats: self
                .seats
                .iter()
                .map(|s| match s {
                    SeatPlay::Fixed(f) => SeatPlayer::Fixed(f),
                    SeatPlay::Count(c) => SeatPlayer::Count(Box::new(c.player())),
                })
                .collect(),
        }
    }
}

impl<'a> MixedPlayer<'a> {
    /// Every counter at the table.
    #[inline]
    fn counters(&mut self) -> impl Iterator<Item = &mut Counter<'a, AnyStrategy>> + '_ {
        self.seats.iter_mut().filter_map(|s| match s {
            SeatPlayer::Count(c) => Some(&mut **c),
            SeatPlayer::Fixed(_) => None,
        })
    }
}

impl Player for MixedPlayer<'_> {
    const BETS: bool = true;
    const SEES: bool = true;
    const PER_SEAT: bool = true;

    #[inline]
    fn bet(&mut self, seat: usize) -> u32 {
        match &mut self.seats[seat] {
            SeatPlayer::Fixed(_) => 1,
            // A counter decides its bet on its own seat (the table's first for its own count).
            SeatPlayer::Count(c) => c.bet(0),
        }
    }

    #[inline]
    fn act(&mut self, seat: usize, s: &Situation) -> Action {
        match &mut self.seats[seat] {
            SeatPlayer::Fixed(f) => f.act(s),
            SeatPlayer::Count(c) => c.act(0, s),
        }
    }

    #[inline]
    fn insure(&mut self, seat: usize, total: u8, soft: bool) -> bool {
        match &mut self.seats[seat] {
            SeatPlayer::Fixed(f) => f.insure(total, soft),
            SeatPlayer::Count(c) => c.insure(0, total, soft),
        }
    }

    #[inline]
    fn see(&mut self, card: Rank) {
        for c in self.counters() {
            c.see(card);
        }
    }

    #[inline]
    fn see_if(&mut self, card: Rank, dealt: bool) {
        for c in self.counters() {
            c.see_if(card, dealt);
        }
    }

    fn shuffled(&mut self) {
        for c in self.counters() {
            c.shuffled();
        }
    }

    /// Each counter's miscounts from a stream of its own: the chunk's side stream, jumped
    /// 2^128 steps once per seat before it.
    fn side_stream(&mut self, rng: &crate::rng::Rng) {
        let mut own = rng.clone();
        for s in &mut self.seats {
            if let SeatPlayer::Count(c) = s {
                c.side_stream(&own);
            }
            own.jump();
        }
    }
}

/// What reports call a mixed table: each seat's spec, in seat order.
pub fn seats_name(seats: &[SeatSpec]) -> String {
    let each: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| format!("seat {}: {}", i + 1, s.label))
        .collect();
    each.join("; ")
}

/// Check what a run with seats asks: its seats (`check_seats`), no table-wide count beside
/// them, and the bet behind on one of them.
pub fn check_table(cfg: &super::BjConfig) -> Result<(), SeatError> {
    let fail = |why: String| SeatError {
        spec: String::new(),
        why,
    };
    if let Some(n) = cfg.behind_seat {
        if cfg.seats.is_empty() {
            return Err(SeatError {
                spec: String::new(),
                why: format!(
                    "--behind-seat {n} needs the seats' strategies: give one --seat per player"
                ),
            });
        }
        if n == 0 || n as usize > cfg.seats.len() {
            return Err(fail(format!(
                "--behind-seat {n}: expected a seat from 1 to {} (1 is the first dealt)",
                cfg.seats.len()
            )));
        }
    }
    if cfg.seats.is_empty() {
        return Ok(());
    }
    if cfg.count.is_some() {
        return Err(fail(
            "--count counts for every seat: give each counter's count in its own --seat (e.g. --seat 'hi-lo ramp=0:1,2:4')".into(),
        ));
    }
    // Every seat plays with the mistakes, a counting seat miscounting as the model says.
    if let Some(e) = &cfg.errors {
        let own = cfg
            .seats
            .iter()
            .any(|s| s.count.as_ref().is_some_and(|c| c.miscount.is_some()));
        if e.miscount > 0.0 && own {
            return Err(fail(format!(
                "a seat's miscount= and --errors {} both set the miscounts: give them in one place",
                e.name
            )));
        }
    }
    check_seats(&cfg.seats, &cfg.rules)
}

/// A mixed table's per-seat figures into the report model `m`, and the bet behind on the
/// chosen seat (`BjConfig::behind_seat`) as that seat's play.
pub fn seat_figures(
    cfg: &super::BjConfig,
    acc: &super::sim::BjAcc,
    m: &mut super::report::SimModel,
) {
    use super::report::{BehindFollows, SeatLine};
    use crate::report::{est, rate};
    if cfg.seats.is_empty() {
        return;
    }
    let u = cfg.rules.units_per_bet() as f64;
    let none = super::sim::SeatAcc::default();
    m.strategy.insurance = "each seat's own".into();
    m.seats = cfg
        .seats
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let a = acc.seats.get(i).unwrap_or(&none);
            let ev = est(&a.main, u);
            let rtp = ev.affine(1.0, 1.0);
            let n = a.per_round.n;
            let ev_round = a.per_round.x as f64 / n as f64 / u;
            let sd_round = a.per_round.sd_obs() / u;
            SeatLine {
                seat: i + 1,
                play: spec.label.clone(),
                strategy: spec.strategy.name(),
                count: spec.count.as_ref().map(|c| c.describe()),
                rounds_played: a.main.n,
                rounds_out: a.out,
                initial_bets: a.main.y.max(0) as u64,
                avg_bet: rate(a.main.y.max(0) as u64, a.main.n),
                max_bet: a.max_bet,
                ev: ev.mean,
                ev_se: ev.se,
                ev_ci95: ev.ci95,
                rtp: rtp.mean,
                rtp_ci95: rtp.ci95,
                ev_per_round: ev_round,
                ev_per_round_se: a.per_round.se() / u,
                sd_per_round: sd_round,
                score: spec
                    .count
                    .as_ref()
                    .map(|_| crate::risk::score(ev_round, sd_round)),
            }
        })
        .collect();
    if let Some(seat) = cfg.behind_seat.map(|s| s as usize) {
        let a = acc.seats.get(seat - 1).unwrap_or(&none);
        let r = match cfg.bets.behind_follows {
            BehindFollows::All => &a.behind,
            BehindFollows::None => &a.behind_none,
        };
        let e = est(r, u).affine(1.0, 1.0);
        let b = &mut m.bet_behind;
        (b.rtp, b.se, b.ci95, b.bets, b.seat) = (e.mean, e.se, e.ci95, r.n, Some(seat));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SeatSpec, SeatError> {
        SeatSpec::parse(text, &Rules::seed(), &Kept::Fresh, false)
    }

    #[test]
    fn a_seat_is_a_strategy_or_a_count_then_keys() {
        let s = parse("autoplay").unwrap();
        assert_eq!(
            (s.strategy.clone(), s.count.is_none()),
            (StrategySpec::AutoPlay, true)
        );
        let c = parse("hi-lo  ramp=0:1,2:4 wong-out=0 insurance=always").unwrap();
        assert_eq!(c.label, "hi-lo ramp=0:1,2:4 wong-out=0 insurance=always");
        assert_eq!(c.strategy.name(), super::super::resolve::BASIC_NAME);
        assert!(c.insure);
        let count = c.count.unwrap();
        assert_eq!(count.ramp.to_string(), "0:1,2:4");
        assert_eq!((count.wong_out, count.max_entries), (Some(0), None));
        // The long form: the same counter.
        let long = parse("basic count=hi-lo ramp=0:1,2:4 wong-out=0 insurance=always").unwrap();
        assert_eq!(long.count, parse(&c.label).unwrap().count);
        let ap = parse("never-bust count=ko").unwrap();
        assert_eq!(ap.strategy, StrategySpec::NeverBust);
        assert!(!ap.count.unwrap().system.balanced());
    }

    #[test]
    fn bad_seats_name_the_fault() {
        for (text, needle) in [
            ("hi-lo count=ko", "the count is given twice"),
            ("basic strategy=autoplay", "the strategy is given twice"),
            ("ramp=0:1", "the first word is the seat's strategy or count"),
            ("hi-lo ramp", "'ramp': expected key=value"),
            ("hi-lo ramp=", "'ramp=' has no value"),
            ("basic insurance=sometimes", "expected always or never"),
            ("basic wong-in=1", "wong-in= needs a count"),
            ("ko true-count=exact", "unbalanced"),
            ("hi-lo max-entries=2", "needs back-counting"),
            ("hi-lo miscount=2", "expected a chance from 0 to 1"),
            ("hi-lo wong-in=0 wong-out=2", "above --wong-in"),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.spec, text);
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn seats_must_fill_the_table() {
        let mut rules = Rules::seed();
        let seat = parse("basic").unwrap();
        rules.players = 2;
        let e = check_seats(std::slice::from_ref(&seat), &rules).unwrap_err();
        assert!(
            e.to_string().contains("1 seats at a table of 2 players"),
            "{e}"
        );
        rules.players = 1;
        assert_eq!(check_seats(&[seat], &rules), Ok(()));
    }
}
