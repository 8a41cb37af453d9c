//! Side bets as data: a paytable names the events a wager pays on and what each pays; the
//! events themselves (what "a straight", "a perfect pair" or "a natural win" is) are a fixed
//! vocabulary per game, evaluated on the cards with their suits (docs/side-bets.md).
//!
//! A paytable is a built-in name (`21+3`, `perfect-pairs`, `dragon-bonus:player`, ...) or a
//! file ([`Paytable::parse`], the format in docs/side-bets.md). When several of its events
//! hold at once, the one that pays most is paid (the first listed on a tie); when none holds
//! the stake is lost. Each game enumerates its own deals (the finite shoe, ranks and suits)
//! into an [`EventTable`]: every event's combinations, probability and share of the return.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::{rank_of, CardId, Rank};

mod events;
mod table;

pub use events::{BacDeal, BjDeal, Event, Scope};
pub use table::{EventRow, EventTable};

/// The table a paytable is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    Blackjack,
    Baccarat,
}

impl Game {
    pub fn name(self) -> &'static str {
        match self {
            Game::Blackjack => "blackjack",
            Game::Baccarat => "baccarat",
        }
    }
}

/// What an event pays, "to 1" as a fraction `to / per` (5:2 is 5/2); 0 is a push.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pay {
    pub to: i64,
    pub per: i64,
}

impl Pay {
    pub fn value(self) -> f64 {
        self.to as f64 / self.per as f64
    }
}

impl fmt::Display for Pay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.to, self.per) {
            (0, _) => write!(f, "push"),
            (t, 1) => write!(f, "{t} to 1"),
            (t, p) => write!(f, "{t} to {p}"),
        }
    }
}

/// One line of a paytable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub event: Event,
    pub pays: Pay,
}

/// A side bet: its name, its table, and what each of its events pays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paytable {
    pub name: String,
    pub game: Game,
    pub lines: Vec<Line>,
    /// Where the table comes from (a built-in's source, or the file's `source`); not part of
    /// a run's identity in spirit, but kept so a report can say it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// Most side bets placed at once.
pub const MAX_SIDE_BETS: usize = 16;

/// Most lines of a paytable file, and the most a line may pay (to 1).
pub const MAX_LINES: usize = 32;
pub const MAX_PAY: i64 = 1_000_000;

/// A paytable that cannot be read or used, with what to change.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SideBetError {
    #[error("{file}:{line}: {message}")]
    Parse {
        file: String,
        line: usize,
        message: String,
    },
    #[error("unknown side bet '{0}': give one of {names} or a paytable file (docs/side-bets.md)", names = built_in_names())]
    Unknown(String),
    #[error("side bet '{name}' is a {game} wager: it cannot be placed at {table}")]
    WrongGame {
        name: String,
        game: &'static str,
        table: &'static str,
    },
    #[error("side bet '{0}': {1}")]
    Invalid(String, String),
    #[error("--side {0}: the stake after ':' must be a whole number of units from 1 to 1000000 (e.g. 21+3:5)")]
    Stake(String),
}

crate::job::carried!(SideBetError);

/// The built-in tables: name, game, lines (event name, to, per), source.
type BuiltIn = (
    &'static str,
    Game,
    &'static [(&'static str, i64, i64)],
    &'static str,
);

const BUILT_IN: &[BuiltIn] = &[
    (
        "21+3",
        Game::Blackjack,
        &[
            ("suited-trips", 100, 1),
            ("straight-flush", 40, 1),
            ("three-of-a-kind", 30, 1),
            ("straight", 10, 1),
            ("flush", 5, 1),
        ],
        "the 'Vegas' 21+3 of the live tables (advertised RTP 96.30% at 8 decks)",
    ),
    (
        "21+3-classic",
        Game::Blackjack,
        &[
            ("straight-flush", 9, 1),
            ("three-of-a-kind", 9, 1),
            ("straight", 9, 1),
            ("flush", 9, 1),
        ],
        "Wizard of Odds, 21+3 version 1 (house edge 3.24% at 6 decks, 2.74% at 8)",
    ),
    (
        "perfect-pairs",
        Game::Blackjack,
        &[
            ("perfect-pair", 25, 1),
            ("coloured-pair", 12, 1),
            ("mixed-pair", 6, 1),
        ],
        "the 25/12/6 Perfect Pairs of the live tables (advertised RTP 95.90% at 8 decks)",
    ),
    (
        "hot-3",
        Game::Blackjack,
        &[
            ("7-7-7", 100, 1),
            ("three-card-suited-21", 20, 1),
            ("three-card-21", 4, 1),
            ("three-card-20", 2, 1),
            ("three-card-19", 1, 1),
        ],
        "Wizard of Odds, Hot 3 (Infinite Blackjack; house edge 5.49% at 6 decks, 5.40% at 8)",
    ),
    (
        "lucky-lucky",
        Game::Blackjack,
        &[
            ("suited-7-7-7", 200, 1),
            ("suited-6-7-8", 100, 1),
            ("7-7-7", 50, 1),
            ("6-7-8", 30, 1),
            ("three-card-suited-21", 15, 1),
            ("three-card-21", 3, 1),
            ("three-card-20", 2, 1),
            ("three-card-19", 2, 1),
        ],
        "Wizard of Odds, Lucky Lucky pay table 1 (house edge 2.66% at 6 decks)",
    ),
    (
        "lucky-ladies",
        Game::Blackjack,
        &[
            ("queen-hearts-pair-dealer-blackjack", 1000, 1),
            ("queen-hearts-pair", 125, 1),
            ("two-card-matched-20", 19, 1),
            ("two-card-suited-20", 9, 1),
            ("two-card-20", 4, 1),
        ],
        "the common Lucky Ladies table (house edge 24.71% at 6 decks, 24.05% at 8)",
    ),
    (
        "royal-match",
        Game::Blackjack,
        &[("royal-match", 25, 1), ("suited", 5, 2)],
        "Wizard of Odds, Royal Match version 1 (house edge 6.67% at 6 decks, 6.46% at 8)",
    ),
    (
        "buster-blackjack",
        Game::Blackjack,
        &[
            ("dealer-busts-with-8-or-more-cards", 250, 1),
            ("dealer-busts-with-7-cards", 50, 1),
            ("dealer-busts-with-6-cards", 12, 1),
            ("dealer-busts-with-5-cards", 4, 1),
            ("dealer-busts-with-4-cards", 2, 1),
            ("dealer-busts-with-3-cards", 2, 1),
        ],
        "Wizard of Odds, Buster Blackjack pay table 1 as analysed (6 cards 12 to 1; house edge 6.21% at 6 decks H17, 8.25% S17)",
    ),
    (
        "dragon-bonus:player",
        Game::Baccarat,
        &[
            ("player-natural-win", 1, 1),
            ("natural-tie", 0, 1),
            ("player-wins-by-9", 30, 1),
            ("player-wins-by-8", 10, 1),
            ("player-wins-by-7", 6, 1),
            ("player-wins-by-6", 4, 1),
            ("player-wins-by-5", 2, 1),
            ("player-wins-by-4", 1, 1),
        ],
        "Wizard of Odds, Dragon Bonus (baccarat appendix 5; house edge 2.65% at 8 decks)",
    ),
    (
        "dragon-bonus:banker",
        Game::Baccarat,
        &[
            ("banker-natural-win", 1, 1),
            ("natural-tie", 0, 1),
            ("banker-wins-by-9", 30, 1),
            ("banker-wins-by-8", 10, 1),
            ("banker-wins-by-7", 6, 1),
            ("banker-wins-by-6", 4, 1),
            ("banker-wins-by-5", 2, 1),
            ("banker-wins-by-4", 1, 1),
        ],
        "Wizard of Odds, Dragon Bonus (baccarat appendix 5; house edge 9.37% at 8 decks)",
    ),
    (
        "dragon-7",
        Game::Baccarat,
        &[("dragon-7", 40, 1)],
        "Wizard of Odds, EZ Baccarat's Dragon 7 (house edge 7.61% at 8 decks)",
    ),
    (
        "panda-8",
        Game::Baccarat,
        &[("panda-8", 25, 1)],
        "Wizard of Odds, EZ Baccarat's Panda 8 (house edge 10.19% at 8 decks)",
    ),
    (
        "either-pair",
        Game::Baccarat,
        &[("either-pair", 5, 1)],
        "Either Pair: a pair in either hand's first two cards, 5 to 1 (published house edge 13.71% at 8 decks)",
    ),
    (
        "perfect-pair",
        Game::Baccarat,
        &[("two-perfect-pairs", 250, 1), ("perfect-pair", 25, 1)],
        "Wizard of Odds, Perfect Pairs version 2 (house edge 6.62% at 8 decks)",
    ),
    (
        "lucky-6",
        Game::Baccarat,
        &[
            ("banker-wins-three-card-6", 20, 1),
            ("banker-wins-two-card-6", 12, 1),
        ],
        "Wizard of Odds, Lucky 6 (the Macau table; house edge 16.68% at 8 decks)",
    ),
];

/// The built-in names, for messages and help.
pub fn built_in_names() -> String {
    BUILT_IN.iter().map(|b| b.0).collect::<Vec<_>>().join(", ")
}

/// Whether `name` is a built-in side bet (a `--side` value that names no file).
pub fn is_built_in(name: &str) -> bool {
    let name = split_stake(name).map(|(n, _)| n).unwrap_or(name);
    BUILT_IN.iter().any(|b| b.0 == name)
}

/// A `--side` value's name and stake: `NAME:STAKE` when what follows the last ':' is a
/// number (`dragon-bonus:player` has no stake).
pub fn split_stake(value: &str) -> Option<(&str, &str)> {
    let (name, stake) = value.rsplit_once(':')?;
    stake
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == 'e')
        .then_some((name, stake))
        .filter(|(_, s)| s.starts_with(|c: char| c.is_ascii_digit()))
}

impl Paytable {
    /// The built-in table of that name.
    pub fn built_in(name: &str) -> Option<Paytable> {
        let b = BUILT_IN.iter().find(|b| b.0 == name)?;
        let lines =
            b.2.iter()
                .map(|&(e, to, per)| Line {
                    event: Event::for_game(e, b.1).expect("built-in events are known"),
                    pays: Pay { to, per },
                })
                .collect();
        Some(Paytable {
            name: b.0.to_string(),
            game: b.1,
            lines,
            source: b.3.to_string(),
        })
    }

    /// Every built-in table.
    pub fn all_built_in() -> Vec<Paytable> {
        BUILT_IN
            .iter()
            .map(|b| Paytable::built_in(b.0).expect("listed"))
            .collect()
    }

    /// Read a paytable file's text (`file` names it in errors). The format, a small subset
    /// of TOML:
    ///
    /// ```text
    /// name = "21+3"          # the wager's name in reports
    /// game = "blackjack"     # or "baccarat"
    /// source = "..."         # optional: where the table comes from
    /// [pays]
    /// suited-trips = 100     # an event and what it pays to 1: 100, "5/2", or 0 (a push)
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<Paytable, SideBetError> {
        let err = |line: usize, message: String| SideBetError::Parse {
            file: file.to_string(),
            line,
            message,
        };
        let (mut name, mut game, mut source) = (None, None, String::new());
        let mut raw_pays: Vec<(usize, String, Pay)> = Vec::new();
        let mut in_pays = false;
        let items =
            crate::specfile::read_settings(text, file).map_err(|e| err(e.line, e.message))?;
        for item in items {
            let (n, key, value) = match item {
                crate::specfile::Item::Header {
                    name, array: false, ..
                } if name == "pays" => {
                    in_pays = true;
                    continue;
                }
                crate::specfile::Item::Header { line, name, array } => {
                    let (o, c) = if array { ("[[", "]]") } else { ("[", "]") };
                    return Err(err(
                        line,
                        format!("unknown section {o}{name}{c}: the only section is [pays]"),
                    ));
                }
                crate::specfile::Item::Pair { line, key, value } => (line, key, value.text()),
            };
            if in_pays {
                if raw_pays.len() == MAX_LINES {
                    return Err(err(n, format!("more than {MAX_LINES} events")));
                }
                let pays = parse_pay(&value).map_err(|m| err(n, m))?;
                raw_pays.push((n, key, pays));
                continue;
            }
            match key.as_str() {
                "name" if !value.is_empty() && value.len() <= 64 => name = Some(value),
                "name" => return Err(err(n, "name must be 1 to 64 characters".into())),
                "game" => {
                    game = Some(match value.as_str() {
                        "blackjack" => Game::Blackjack,
                        "baccarat" => Game::Baccarat,
                        other => {
                            return Err(err(
                                n,
                                format!(
                                    "game '{}': expected \"blackjack\" or \"baccarat\"",
                                    crate::door::input::quote(other)
                                ),
                            ))
                        }
                    })
                }
                "source" => source = value.chars().take(200).collect(),
                other => {
                    return Err(err(
                        n,
                        format!(
                            "unknown key '{}': expected name, game, source or the [pays] section",
                            crate::door::input::quote(other)
                        ),
                    ))
                }
            }
        }
        let last = text.lines().count().max(1);
        let name = name.ok_or_else(|| err(last, "no name = \"...\" line".into()))?;
        let game =
            game.ok_or_else(|| err(last, "no game = \"blackjack\" or \"baccarat\" line".into()))?;
        let mut lines: Vec<Line> = Vec::new();
        for (n, key, pays) in raw_pays {
            let event = Event::for_game(&key, game).ok_or_else(|| {
                let why = match Event::from_name(&key) {
                    Some(e) => format!(
                        "'{key}' is a {} event, and this is a {} table",
                        e.game().name(),
                        game.name()
                    ),
                    None => format!(
                        "unknown event '{}': the events are listed in docs/side-bets.md ({})",
                        crate::door::input::quote(&key),
                        Event::names_hint()
                    ),
                };
                err(n, why)
            })?;
            if lines.iter().any(|l| l.event == event) {
                return Err(err(n, format!("event '{key}' is listed twice")));
            }
            lines.push(Line { event, pays });
        }
        let table = Paytable {
            name,
            game,
            lines,
            source,
        };
        table.validate().map_err(|e| match e {
            SideBetError::Invalid(_, m) => err(last, m),
            e => e,
        })?;
        Ok(table)
    }

    /// A table that can be played: at least one event, each of this game, each paying
    /// something (a push or a win), and all looking at cards one enumeration covers.
    pub fn validate(&self) -> Result<(), SideBetError> {
        let bad = |m: String| Err(SideBetError::Invalid(self.name.clone(), m));
        if self.lines.is_empty() {
            return bad("no events under [pays]: list at least one event and what it pays".into());
        }
        for l in &self.lines {
            if l.event.game() != self.game {
                return bad(format!(
                    "event '{}' is a {} event, and this is a {} table",
                    l.event.name(),
                    l.event.game().name(),
                    self.game.name()
                ));
            }
            if l.pays.to < 0 || l.pays.per < 1 || l.pays.to > MAX_PAY * l.pays.per {
                return bad(format!(
                    "event '{}' pays {}/{}: a pay is 0 (a push) up to {MAX_PAY} to 1",
                    l.event.name(),
                    l.pays.to,
                    l.pays.per
                ));
            }
        }
        let dealer = self
            .lines
            .iter()
            .filter(|l| l.event.scope() == Scope::DealerHand)
            .count();
        if dealer > 0 && dealer < self.lines.len() {
            return bad(
                "a blackjack table mixes events of the dealer's hand (busts) with events of the \
                 first cards: make them two side bets"
                    .into(),
            );
        }
        if self.game == Game::Baccarat {
            let scopes: Vec<Scope> = self.lines.iter().map(|l| l.event.scope()).collect();
            if scopes.iter().any(|&s| s != scopes[0]) {
                return bad(
                    "a baccarat table mixes events of the first four cards (pairs) with events of \
                     the coup's result: make them two side bets"
                        .into(),
                );
            }
        }
        Ok(())
    }

    /// Units one stake is counted in, so that every pay is a whole number of them (the least
    /// common multiple of the pays' denominators).
    pub fn units(&self) -> i64 {
        self.lines
            .iter()
            .fold(1, |u, l| u / gcd(u, l.pays.per) * l.pays.per)
    }

    /// Each line's pay in [`units`](Self::units) per stake, and the loss (−units).
    pub fn pays_in_units(&self) -> Vec<i64> {
        let u = self.units();
        self.lines
            .iter()
            .map(|l| l.pays.to * (u / l.pays.per))
            .collect()
    }

    /// The line paid, given which events hold: the one that pays most, the first on a tie.
    #[inline]
    pub fn paid(&self, holds: impl Fn(Event) -> bool) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, l) in self.lines.iter().enumerate() {
            if holds(l.event) && best.is_none_or(|(_, v)| l.pays.value() > v) {
                best = Some((i, l.pays.value()));
            }
        }
        best.map(|b| b.0)
    }

    /// The line a blackjack deal is paid on (`None`: the stake is lost).
    pub fn bj_paid(&self, d: &BjDeal) -> Option<usize> {
        self.paid(|e| e.holds_bj(d))
    }

    /// The line a baccarat coup is paid on (`None`: the stake is lost).
    pub fn bac_paid(&self, d: &BacDeal) -> Option<usize> {
        self.paid(|e| e.holds_bac(d))
    }

    /// Whether any event needs the dealer's hole card (whether the dealer has blackjack).
    pub fn needs_hole(&self) -> bool {
        self.lines
            .iter()
            .any(|l| l.event.scope() == Scope::DealerHole)
    }

    /// What the table looks at, for a baccarat table (all its events share one scope).
    pub fn scope(&self) -> Scope {
        self.lines
            .iter()
            .map(|l| l.event.scope())
            .max()
            .unwrap_or(Scope::ThreeCards)
    }

    /// The table in one line: `21+3 (suited-trips 100, straight-flush 40, ...)`.
    pub fn describe(&self) -> String {
        let pays: Vec<String> = self
            .lines
            .iter()
            .map(|l| format!("{} {}", l.event.name(), short_pay(l.pays)))
            .collect();
        format!("{} ({})", self.name, pays.join(", "))
    }
}

fn short_pay(p: Pay) -> String {
    match (p.to, p.per) {
        (0, _) => "push".into(),
        (t, 1) => t.to_string(),
        (t, p) => format!("{t}/{p}"),
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn parse_pay(s: &str) -> Result<Pay, String> {
    let bad = || {
        format!(
            "pay '{}': expected a whole number to 1 (100), a fraction (\"5/2\") or 0 for a push",
            crate::door::input::quote(s)
        )
    };
    let s = s.trim();
    let (to, per) = match s.split_once('/') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s, "1"),
    };
    let to: i64 = to.parse().map_err(|_| bad())?;
    let per: i64 = per.parse().map_err(|_| bad())?;
    if to < 0 || !(1..=1000).contains(&per) || to > MAX_PAY * per {
        return Err(bad());
    }
    let g = gcd(to, per).max(1);
    Ok(Pay {
        to: to / g,
        per: per / g,
    })
}

/// A side bet placed at a table: its paytable and its stake (units of the main bet's unit:
/// the stake a `--side NAME:STAKE` gives, 1 by default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideBet {
    pub table: Paytable,
    pub stake: u32,
}

impl SideBet {
    /// A `--side` value already split into name and stake, with the table resolved: the
    /// built-in of that name, or `file`'s text when the name is a file.
    pub fn new(table: Paytable, stake: Option<&str>, value: &str) -> Result<SideBet, SideBetError> {
        let stake = match stake {
            None => 1,
            Some(s) => match crate::numparse::parse_count(s) {
                Ok(v) if (1..=1_000_000).contains(&v) => v as u32,
                _ => return Err(SideBetError::Stake(value.to_string())),
            },
        };
        Ok(SideBet { table, stake })
    }

    /// A `--side` value at `game`'s table: `NAME[:STAKE]` with a built-in name, or
    /// `FILE[:STAKE]` with a paytable file (read through the door).
    pub fn resolve(value: &str, game: Game) -> Result<SideBet, SideBetError> {
        let (name, stake) = match split_stake(value) {
            Some((n, s)) => (n, Some(s)),
            None => (value, None),
        };
        let table = match Paytable::built_in(name) {
            Some(t) if !name.contains('/') => t,
            _ if crate::door::names_file(std::ffi::OsStr::new(name), false) => {
                let path = std::path::Path::new(name);
                let text = crate::door::input::read_text(
                    path,
                    "paytable file",
                    crate::door::input::MAX_TEXT_BYTES,
                )
                .map_err(|e| SideBetError::Invalid(name.to_string(), e.to_string()))?;
                Paytable::parse(&text, name)?
            }
            _ => return Err(SideBetError::Unknown(name.to_string())),
        };
        let bet = SideBet::new(table, stake, value)?;
        bet.check_game(game)?;
        Ok(bet)
    }

    /// Every `--side` value given, resolved; the same table twice is refused.
    pub fn resolve_all(values: &[String], game: Game) -> Result<Vec<SideBet>, SideBetError> {
        let mut bets: Vec<SideBet> = Vec::with_capacity(values.len());
        if values.len() > MAX_SIDE_BETS {
            return Err(SideBetError::Invalid(
                values[0].clone(),
                format!("at most {MAX_SIDE_BETS} side bets at once"),
            ));
        }
        for v in values {
            let b = SideBet::resolve(v, game)?;
            if bets.iter().any(|o| o.table.name == b.table.name) {
                return Err(SideBetError::Invalid(
                    b.table.name.clone(),
                    "given twice: place each side bet once (its stake after ':')".into(),
                ));
            }
            bets.push(b);
        }
        Ok(bets)
    }

    /// Refuse a wager of another game's table.
    pub fn check_game(&self, game: Game) -> Result<(), SideBetError> {
        if self.table.game != game {
            return Err(SideBetError::WrongGame {
                name: self.table.name.clone(),
                game: self.table.game.name(),
                table: game.name(),
            });
        }
        Ok(())
    }

    /// The wager's label in reports: the name, and the stake when it is not 1.
    pub fn label(&self) -> String {
        if self.stake == 1 {
            self.table.name.clone()
        } else {
            format!("{} (stake {})", self.table.name, self.stake)
        }
    }
}

/// A baseline's side bets resolved at `game`'s table: built-in names only (a baseline checks
/// the program as built, not a file beside it).
pub fn baseline_sides(
    sides: &[crate::game::SideEntry],
    game: Game,
) -> Result<Vec<SideBet>, SideBetError> {
    let values: Vec<String> = sides.iter().map(|s| s.side.clone()).collect();
    for v in &values {
        let name = split_stake(v).map_or(v.as_str(), |(n, _)| n);
        if !is_built_in(name) {
            return Err(SideBetError::Unknown(name.to_string()));
        }
    }
    SideBet::resolve_all(&values, game)
}

/// One wager's exact analysis in a report: its label, stake and event table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideExact {
    pub name: String,
    pub stake: u32,
    pub paytable: String,
    pub exact: EventTable,
}

impl SideExact {
    pub fn of(bet: &SideBet, exact: EventTable) -> SideExact {
        SideExact {
            name: bet.table.name.clone(),
            stake: bet.stake,
            paytable: bet.table.describe(),
            exact,
        }
    }
}

/// The report's sections of the wagers placed: a summary (RTP, edge, SD, hit rate), then each
/// wager's event table.
pub fn exact_sections(sides: &[SideExact]) -> Vec<crate::report::Section> {
    if sides.is_empty() {
        return Vec::new();
    }
    let mut summary = crate::report::Section::new(
        "Side bets: exact RTP per unit staked (full shoe)",
        &EventTable::SUMMARY_COLUMNS,
    );
    for s in sides {
        summary.row(s.exact.summary_cells(&s.name));
    }
    let mut v = vec![summary];
    v.extend(sides.iter().map(|s| s.exact.section(&s.name)));
    v
}

/// The notes of the wagers placed: what a combination counts and where each table is from.
pub fn exact_notes(sides: &[SideExact]) -> Vec<String> {
    sides
        .iter()
        .map(|s| {
            let source = if s.exact.source.is_empty() {
                String::new()
            } else {
                format!("; table: {}", s.exact.source)
            };
            format!(
                "Side bet {}: combinations are {} of a full {}-deck shoe; the event paid is the one that pays most of those that hold{source}.",
                s.paytable, s.exact.counted, s.exact.decks
            )
        })
        .collect()
}

/// Ranks of a card's suit colour: clubs and spades black, diamonds and hearts red.
#[inline]
pub(crate) fn red(card: CardId) -> bool {
    matches!(card % 4, 1 | 2)
}

#[inline]
pub(crate) fn rank(card: CardId) -> Rank {
    rank_of(card)
}

#[cfg(test)]
mod tests;

/// A wager as a simulation settles it: what each line pays in units of the stake, and the
/// units one stake is (so every result is a whole number).
#[derive(Clone, Debug)]
pub struct Settle {
    pub table: Paytable,
    pub pays: Vec<i64>,
    pub units: i64,
}

impl Settle {
    pub fn of(bet: &SideBet) -> Settle {
        Settle {
            pays: bet.table.pays_in_units(),
            units: bet.table.units(),
            table: bet.table.clone(),
        }
    }

    /// The result of one stake on a line paid (`None`: lost), in units.
    #[inline]
    pub fn result(&self, paid: Option<usize>) -> i64 {
        match paid {
            Some(i) => self.pays[i],
            None => -self.units,
        }
    }
}

/// A simulation's sums of one wager, a chunk at a time: Σ result (units), Σ result², units
/// staked, wagers.
#[derive(Clone, Copy, Debug, Default)]
pub struct SideChunk {
    pub x: i64,
    pub xx: i128,
    pub y: i64,
    pub n: u64,
}

impl SideChunk {
    #[inline]
    pub fn add(&mut self, result: i64, units: i64) {
        self.x += result;
        self.xx += (result as i128) * (result as i128);
        self.y += units;
        self.n += 1;
    }

    /// Close the chunk into the run's ratio (x/y is the return per unit staked, minus 1).
    pub fn close(&self, r: &mut crate::stats::Ratio) {
        r.close_wide(self.x as i128, self.y as i128, self.xx, self.n);
    }
}

/// The bound on a wager's sums per observation (a shard file's plausibility): a result is at
/// most [`MAX_PAY`] stakes of at most 1,000 units.
pub const MAX_RESULT_UNITS: i128 = MAX_PAY as i128 * 1000;

/// One wager in a simulation's report: measured beside its exact value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSim {
    pub name: String,
    pub paytable: String,
    pub stake: u32,
    /// Wagers settled.
    pub bets: u64,
    /// Return per unit staked, its SE and 95% CI (batch means).
    pub rtp: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    /// SD of one wager's result, per unit staked.
    pub sd: f64,
    /// The exact RTP over a full shoe, and z = (measured − exact) / SE.
    pub exact_rtp: f64,
    pub z: f64,
}

impl SideSim {
    pub fn of(bet: &SideBet, sums: &crate::stats::Ratio, exact: &EventTable) -> SideSim {
        let e = crate::report::est(sums, 1.0).affine(1.0, 1.0);
        let sd = if sums.y > 0 && sums.n > 0 {
            sums.sd_obs() / (sums.y as f64 / sums.n as f64)
        } else {
            f64::NAN
        };
        SideSim {
            name: bet.table.name.clone(),
            paytable: bet.table.describe(),
            stake: bet.stake,
            bets: sums.n,
            rtp: e.mean,
            se: e.se,
            ci95: e.ci95,
            sd,
            exact_rtp: exact.rtp,
            z: if e.se > 0.0 {
                (e.mean - exact.rtp) / e.se
            } else {
                f64::NAN
            },
        }
    }
}

/// The section of a simulation's wagers: each measured, beside its exact RTP, with z.
pub fn sim_section(sides: &[SideSim]) -> crate::report::Section {
    use crate::report::{count_cell, fixed_cell, pct_cell, pct_estimate_cells, Cell};
    let mut s = crate::report::Section::new(
        "Side bets from paytables (RTP per unit staked): simulated and exact",
        &[
            "side bet",
            "stake",
            "bets",
            "RTP",
            "SE",
            "95% CI",
            "exact RTP",
            "z",
        ],
    );
    for w in sides {
        let mut row = vec![
            Cell::from(w.name.as_str()),
            Cell::num(w.stake.to_string(), w.stake as f64, "units"),
            count_cell(w.bets),
        ];
        row.extend(pct_estimate_cells(w.rtp, w.se, w.ci95, 3));
        row.push(pct_cell(w.exact_rtp, 4));
        row.push(fixed_cell(w.z, 2, "SE"));
        s.row(row);
    }
    s
}
