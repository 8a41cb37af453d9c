//! Mistakes as a model: a player who means to play a strategy and sometimes does not.
//!
//! Per decision kind (hit or stand, double, split, surrender, insurance) a rate, and the
//! mistakes of that kind the player makes, from a table of common misplays ([`MISPLAYS`]).
//! At a decision where one of the player's misplays applies (the strategy's play is the one
//! the misplay departs from), the player makes it with the kind's rate; elsewhere it plays
//! the strategy. At most one misplay applies to a decision, so the rate is the chance per
//! decision where the mistake is possible. Beside the play: betting errors (a bet left at
//! the last round's), a counter's miscounts and a discard-tray estimate of the decks left
//! (both through the count's own settings), and the dealer's payout errors, both ways.
//!
//! The player's chance comes from a stream of its own beside the cards'
//! ([`Player::side_stream`]), so the same seed deals the same cards with and without
//! mistakes, at any thread count. The model's files and presets: docs/mistakes.md.

use serde::{Deserialize, Serialize};

use super::hand::DrawTable;
use super::strategy::{Action, Player, Seats, Situation};
use crate::cards::Rank;
use crate::rng::{Rng, RngCore, SeedableRng};

/// A decision kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    HitStand,
    Double,
    Split,
    Surrender,
    Insurance,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::HitStand,
        Kind::Double,
        Kind::Split,
        Kind::Surrender,
        Kind::Insurance,
    ];

    /// The kind's section in an errors file.
    pub fn key(self) -> &'static str {
        match self {
            Kind::HitStand => "hit-stand",
            Kind::Double => "double",
            Kind::Split => "split",
            Kind::Surrender => "surrender",
            Kind::Insurance => "insurance",
        }
    }
}

/// One common misplay: where it happens, what the strategy does there, what the player does.
#[derive(Clone, Copy, Debug)]
pub struct Misplay {
    pub name: &'static str,
    pub kind: Kind,
    /// The hands, as the docs' table says them.
    pub hands: &'static str,
    /// The strategy's play the misplay departs from.
    pub right: &'static str,
    /// What the player does instead.
    pub wrong: &'static str,
}

/// The table of common misplays (docs/mistakes.md cites where each comes from).
pub const MISPLAYS: [Misplay; 11] = [
    Misplay {
        name: "stand-stiff",
        kind: Kind::HitStand,
        hands: "hard 12-16 v 7-A",
        right: "hit",
        wrong: "stand",
    },
    Misplay {
        name: "hit-stiff",
        kind: Kind::HitStand,
        hands: "hard 12-16 v 2-6",
        right: "stand",
        wrong: "hit",
    },
    Misplay {
        name: "stand-soft",
        kind: Kind::HitStand,
        hands: "soft 17-18",
        right: "hit",
        wrong: "stand",
    },
    Misplay {
        name: "no-double-soft",
        kind: Kind::Double,
        hands: "soft totals",
        right: "double",
        wrong: "the strategy's play without doubling",
    },
    Misplay {
        name: "no-double-hard",
        kind: Kind::Double,
        hands: "hard totals (9-11)",
        right: "double",
        wrong: "the strategy's play without doubling",
    },
    Misplay {
        name: "no-split-8s",
        kind: Kind::Split,
        hands: "8,8",
        right: "split",
        wrong: "play the 16 (the strategy's play unsplit)",
    },
    Misplay {
        name: "no-split-9s",
        kind: Kind::Split,
        hands: "9,9",
        right: "split",
        wrong: "play the 18 (stand)",
    },
    Misplay {
        name: "no-split-small",
        kind: Kind::Split,
        hands: "2,2 3,3 4,4 6,6 7,7",
        right: "split",
        wrong: "play the total unsplit",
    },
    Misplay {
        name: "split-tens",
        kind: Kind::Split,
        hands: "T,T v 4-6",
        right: "stand",
        wrong: "split",
    },
    Misplay {
        name: "no-surrender",
        kind: Kind::Surrender,
        hands: "every surrender",
        right: "surrender",
        wrong: "the strategy's play without surrender",
    },
    Misplay {
        name: "insure",
        kind: Kind::Insurance,
        hands: "every hand against an ace (even money on a natural)",
        right: "no insurance",
        wrong: "take insurance",
    },
];

/// What a misplay does instead of the strategy's play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrong {
    Do(Action),
    /// Ask the strategy again with the option taken away.
    NoDouble,
    NoSplit,
    NoSurrender,
}

/// The misplay (index into [`MISPLAYS`]) that applies where the strategy plays `right` in
/// `s`, and what it does: at most one applies.
fn misplay_at(s: &Situation, right: Action) -> Option<(usize, Wrong)> {
    let (hard, soft) = (!s.soft, s.soft);
    let high = s.up >= 7 || s.up == 1;
    match right {
        Action::Hit if hard && (12..=16).contains(&s.total) && high => {
            Some((0, Wrong::Do(Action::Stand)))
        }
        Action::Stand if hard && (12..=16).contains(&s.total) && !high && s.pair.is_none() => {
            Some((1, Wrong::Do(Action::Hit)))
        }
        Action::Hit if soft && (17..=18).contains(&s.total) => Some((2, Wrong::Do(Action::Stand))),
        Action::Double if soft => Some((3, Wrong::NoDouble)),
        Action::Double => Some((4, Wrong::NoDouble)),
        Action::Split => match s.pair {
            Some(8) => Some((5, Wrong::NoSplit)),
            Some(9) => Some((6, Wrong::NoSplit)),
            Some(2..=4 | 6 | 7) => Some((7, Wrong::NoSplit)),
            _ => None,
        },
        Action::Hit | Action::Stand if s.pair == Some(10) && (4..=6).contains(&s.up) => {
            Some((8, Wrong::Do(Action::Split)))
        }
        Action::Surrender => Some((9, Wrong::NoSurrender)),
        _ => None,
    }
}

/// Index of the insurance misplay in [`MISPLAYS`].
const INSURE: usize = 10;

/// The errors of one decision kind: its rate and which of its misplays the player makes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindErrors {
    /// The chance of a mistake at a decision of this kind where one of `misplays` applies.
    pub rate: f64,
    /// Names from [`MISPLAYS`] of this kind (every one of the kind unless the file says).
    pub misplays: Vec<String>,
}

/// The dealer's payout errors, each the chance per seat-round of that outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PayoutErrors {
    /// A won hand (not a natural) paid as a push: against the player.
    pub win_as_push: f64,
    /// A natural paid even money instead of the table's payout: against the player.
    pub natural_even_money: f64,
    /// A lost hand taken as a push: for the player.
    pub loss_as_push: f64,
    /// A push paid as a win of one bet: for the player.
    pub push_as_win: f64,
}

impl PayoutErrors {
    fn any(&self) -> bool {
        self.win_as_push + self.natural_even_money + self.loss_as_push + self.push_as_win > 0.0
    }
}

/// A player's mistakes: what `--errors` names (a preset or a file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorModel {
    /// The preset's or the file's name (a label).
    pub name: String,
    /// By [`Kind::ALL`]: each decision kind's errors.
    pub kinds: Vec<KindErrors>,
    /// The chance that a round's bet is left at the seat's last bet (a counter who forgets to
    /// change it; no effect on a flat bettor).
    pub stale_bet: f64,
    /// A counter's miscounts: the chance a card seen is counted one unit off (the count's own
    /// `--miscount`).
    pub miscount: f64,
    /// The discard-tray estimate of the decks played: the player sees `1 + bias` times the
    /// decks in the tray, to the nearest half deck (0: the count's own estimate).
    pub discard_bias: f64,
    pub payout: PayoutErrors,
}

/// The presets, as shipped in `strategies/blackjack/errors/` (the files are the presets).
pub const PRESETS: [(&str, &str); 4] = [
    (
        "none",
        include_str!("../../../strategies/blackjack/errors/none.toml"),
    ),
    (
        "careful",
        include_str!("../../../strategies/blackjack/errors/careful.toml"),
    ),
    (
        "casual",
        include_str!("../../../strategies/blackjack/errors/casual.toml"),
    ),
    (
        "novice",
        include_str!("../../../strategies/blackjack/errors/novice.toml"),
    ),
];

/// The presets the dossier simulates, beside optimal, basic and auto-play.
pub const AUDIT_PRESETS: [&str; 3] = ["careful", "casual", "novice"];

/// An errors file that cannot be read: the file, the line and the field, and what to change.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{0}")]
pub struct ErrorsError(pub String);

/// The most bytes of an errors file.
pub const MAX_ERRORS_FILE_BYTES: u64 = 64 * 1024;

impl ErrorModel {
    /// No mistakes at all.
    pub fn none(name: &str) -> ErrorModel {
        ErrorModel {
            name: name.into(),
            kinds: Kind::ALL
                .iter()
                .map(|&k| KindErrors {
                    rate: 0.0,
                    misplays: misplays_of(k),
                })
                .collect(),
            stale_bet: 0.0,
            miscount: 0.0,
            discard_bias: 0.0,
            payout: PayoutErrors::default(),
        }
    }

    /// A preset by name.
    pub fn preset(name: &str) -> Option<ErrorModel> {
        let (_, text) = PRESETS.iter().find(|p| p.0 == name)?;
        let file = format!("strategies/blackjack/errors/{name}.toml");
        Some(ErrorModel::parse(text, &file).expect("the shipped presets parse"))
    }

    /// A preset's name, else the errors file at that path (read through the door).
    pub fn resolve(spec: &str) -> Result<ErrorModel, ErrorsError> {
        if !crate::door::is_path(spec) {
            if let Some(m) = ErrorModel::preset(spec) {
                return Ok(m);
            }
            if !std::path::Path::new(spec).exists() {
                return Err(ErrorsError(format!(
                    "--errors {spec}: not a preset ({}) nor a file: name a preset or the path of an errors file (docs/mistakes.md)",
                    preset_names()
                )));
            }
        }
        let path = std::path::Path::new(spec);
        let text = crate::door::input::read_text(path, "errors file", MAX_ERRORS_FILE_BYTES)
            .map_err(|e| ErrorsError(format!("--errors {e}")))?;
        ErrorModel::parse(&text, spec).map_err(|e| ErrorsError(format!("--errors {e}")))
    }

    /// The rate of `kind` (0 when none of its misplays is made).
    pub fn rate(&self, kind: Kind) -> f64 {
        let k = &self.kinds[kind as usize];
        if k.misplays.is_empty() {
            0.0
        } else {
            k.rate
        }
    }

    /// Read an errors file's text (`file` names it in errors): `game = "blackjack"`, an
    /// optional `name`, and a section per decision kind (`rate`, `misplays`), `[bet]`
    /// (`stale`), `[count]` (`miscount`, `discard-bias`) and `[payout]`.
    pub fn parse(text: &str, file: &str) -> Result<ErrorModel, ErrorsError> {
        use crate::specfile::{read_settings, Item};
        let err = |line: usize, m: String| ErrorsError(format!("{file}:{line}: {m}"));
        let stem = std::path::Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| file.to_string());
        let mut m = ErrorModel::none(&stem);
        let items = read_settings(text, file).map_err(|e| ErrorsError(e.to_string()))?;
        let (mut section, mut seen, mut game) = (String::new(), Vec::<String>::new(), None);
        for item in items {
            match item {
                Item::Header { line, name, array } => {
                    if array || !SECTIONS.contains(&name.as_str()) {
                        return Err(err(
                            line,
                            format!(
                                "unknown section [{name}]: the sections are {}",
                                SECTIONS.map(|s| format!("[{s}]")).join(", ")
                            ),
                        ));
                    }
                    if seen.contains(&format!("[{name}]")) {
                        return Err(err(line, format!("[{name}] appears twice")));
                    }
                    seen.push(format!("[{name}]"));
                    section = name;
                }
                Item::Pair { line, key, value } => {
                    let field = if section.is_empty() {
                        key.clone()
                    } else {
                        format!("[{section}] {key}")
                    };
                    if seen.contains(&field) {
                        return Err(err(line, format!("{field} is set twice")));
                    }
                    seen.push(field.clone());
                    if section.is_empty() && key == "game" {
                        game = Some((line, value.text()));
                        continue;
                    }
                    set(&mut m, &section, &key, &value)
                        .map_err(|e| err(line, format!("{field}: {e}")))?;
                }
            }
        }
        match game {
            Some((_, g)) if g == "blackjack" => Ok(m),
            Some((line, g)) => Err(err(
                line,
                format!(
                    "game = \"{}\": an errors file is for blackjack: game = \"blackjack\"",
                    crate::door::input::quote(&g)
                ),
            )),
            None => Err(err(1, "no game = \"blackjack\" line".into())),
        }
    }

    /// Whether the model plays exactly as the strategy (every rate 0).
    pub fn is_none(&self) -> bool {
        self.kinds
            .iter()
            .all(|k| k.rate == 0.0 || k.misplays.is_empty())
            && self.stale_bet == 0.0
            && self.miscount == 0.0
            && self.discard_bias == 0.0
            && !self.payout.any()
    }

    /// One line for reports: the name and every rate that is not 0.
    pub fn describe(&self) -> String {
        let pct = |x: f64| format!("{}%", crate::report::pct_text(x));
        let mut parts: Vec<String> = Kind::ALL
            .iter()
            .zip(&self.kinds)
            .filter(|(_, k)| k.rate > 0.0 && !k.misplays.is_empty())
            .map(|(kind, k)| format!("{} {}", kind.key(), pct(k.rate)))
            .collect();
        let more = [
            ("stale bet", self.stale_bet),
            ("miscount", self.miscount),
            ("discard-tray bias", self.discard_bias),
            ("win paid as push", self.payout.win_as_push),
            ("natural paid even money", self.payout.natural_even_money),
            ("loss taken as push", self.payout.loss_as_push),
            ("push paid as win", self.payout.push_as_win),
        ];
        parts.extend(
            more.iter()
                .filter(|m| m.1 != 0.0)
                .map(|(n, x)| format!("{n} {}", pct(*x))),
        );
        if parts.is_empty() {
            format!("{}: no mistakes", self.name)
        } else {
            format!("{}: {}", self.name, parts.join(", "))
        }
    }
}

/// The names of the presets, for messages.
pub fn preset_names() -> String {
    PRESETS.map(|p| p.0).join(", ")
}

/// Whether `name` is a preset's name (else `--errors` names a file).
pub fn is_preset(name: &str) -> bool {
    PRESETS.iter().any(|p| p.0 == name)
}

const SECTIONS: [&str; 8] = [
    "hit-stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "bet",
    "count",
    "payout",
];

fn misplays_of(kind: Kind) -> Vec<String> {
    MISPLAYS
        .iter()
        .filter(|m| m.kind == kind)
        .map(|m| m.name.to_string())
        .collect()
}

/// A chance from 0 to 1.
fn chance(v: &crate::specfile::Value) -> Result<f64, String> {
    match v {
        crate::specfile::Value::Num(x, _) if (0.0..=1.0).contains(x) => Ok(*x),
        _ => Err(format!(
            "expected a chance from 0 to 1 (0.05: one time in twenty), found '{}'",
            v.text()
        )),
    }
}

/// Set `key` of `section` (empty: the top) from `value`.
fn set(
    m: &mut ErrorModel,
    section: &str,
    key: &str,
    value: &crate::specfile::Value,
) -> Result<(), String> {
    let unknown = |keys: &str| format!("unknown key: the keys here are {keys}");
    if let Some(kind) = Kind::ALL.iter().find(|k| k.key() == section) {
        let k = &mut m.kinds[*kind as usize];
        return match key {
            "rate" => {
                k.rate = chance(value)?;
                Ok(())
            }
            "misplays" => {
                let of_kind = misplays_of(*kind);
                let crate::specfile::Value::List(items) = value else {
                    return Err(format!(
                        "expected a list [\"name\", ...], found {}",
                        value.kind()
                    ));
                };
                let mut names = Vec::new();
                for item in items {
                    let n = item.text();
                    if !of_kind.contains(&n) {
                        return Err(format!(
                            "'{}' is not a {section} misplay: they are {}",
                            crate::door::input::quote(&n),
                            of_kind.join(", ")
                        ));
                    }
                    names.push(n);
                }
                k.misplays = names;
                Ok(())
            }
            _ => Err(unknown("rate, misplays")),
        };
    }
    match (section, key) {
        ("", "name") => {
            let v = value.text();
            if v.is_empty() || v.chars().count() > 64 {
                return Err("1 to 64 characters".into());
            }
            m.name = v;
        }
        ("", "source") => {}
        ("", _) => return Err(unknown("game, name, source, then the [sections]")),
        ("bet", "stale") => m.stale_bet = chance(value)?,
        ("bet", _) => return Err(unknown("stale")),
        ("count", "miscount") => m.miscount = chance(value)?,
        ("count", "discard-bias") => match value {
            crate::specfile::Value::Num(x, _) if (-0.5..=0.5).contains(x) => m.discard_bias = *x,
            _ => {
                return Err(format!(
                    "expected a relative error from -0.5 to 0.5 (0.1: sees 10% more decks in the tray), found '{}'",
                    value.text()
                ))
            }
        },
        ("count", _) => return Err(unknown("miscount, discard-bias")),
        ("payout", k) => {
            let p = &mut m.payout;
            let slot = match k {
                "win-as-push" => &mut p.win_as_push,
                "natural-even-money" => &mut p.natural_even_money,
                "loss-as-push" => &mut p.loss_as_push,
                "push-as-win" => &mut p.push_as_win,
                _ => {
                    return Err(unknown(
                        "win-as-push, natural-even-money, loss-as-push, push-as-win",
                    ))
                }
            };
            *slot = chance(value)?;
        }
        _ => unreachable!("sections are checked before their keys"),
    }
    Ok(())
}

/// A chance as a threshold on a 64-bit draw: `draw < below` happens with that chance (a
/// chance of 1 is `u64::MAX`, taken as always).
fn threshold(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else {
        (p * 2f64.powi(64)) as u64
    }
}

/// The model as the table uses it: by misplay, the threshold of its draw (0: never).
#[derive(Clone, Debug)]
struct Compiled {
    misplay: [u64; MISPLAYS.len()],
    stale_bet: u64,
    /// win as push, natural even money, loss as push, push as win.
    payout: [u64; 4],
    pays: bool,
    /// Whether any hit-or-stand misplay can happen (the table then asks every decision).
    hit_stand: bool,
}

impl Compiled {
    fn of(m: &ErrorModel) -> Compiled {
        let misplay = std::array::from_fn(|i| {
            let mp = &MISPLAYS[i];
            let k = &m.kinds[mp.kind as usize];
            if k.misplays.iter().any(|n| n == mp.name) {
                threshold(k.rate)
            } else {
                0
            }
        });
        let p = &m.payout;
        let payout = [
            p.win_as_push,
            p.natural_even_money,
            p.loss_as_push,
            p.push_as_win,
        ]
        .map(threshold);
        Compiled {
            hit_stand: (0..3).any(|i| misplay[i] > 0),
            misplay,
            stale_bet: threshold(m.stale_bet),
            pays: payout.iter().any(|&t| t > 0),
            payout,
        }
    }
}

/// Any seats played with mistakes: every seat the inner player plays makes them.
pub struct WithErrors<S> {
    pub inner: S,
    model: Compiled,
}

impl<S> WithErrors<S> {
    pub fn new(inner: S, model: &ErrorModel) -> WithErrors<S> {
        WithErrors {
            inner,
            model: Compiled::of(model),
        }
    }
}

impl<S: Seats> Seats for WithErrors<S> {
    type Player<'a>
        = Erring<'a, S::Player<'a>>
    where
        S: 'a;
    fn player(&self) -> Erring<'_, S::Player<'_>> {
        Erring {
            inner: self.inner.player(),
            m: &self.model,
            rng: Rng::seed_from_u64(0),
            last_bet: [0; super::rules::MAX_PLAYERS as usize],
            #[cfg(test)]
            tally: Default::default(),
        }
    }
}

/// A player who makes mistakes (see the module's notes).
pub struct Erring<'a, P> {
    inner: P,
    m: &'a Compiled,
    /// The player's own chance (from the chunk's side stream, apart from the inner player's).
    rng: Rng,
    /// Each seat's last bet (for the stale-bet error).
    last_bet: [u32; super::rules::MAX_PLAYERS as usize],
    /// By misplay: decisions where it applied, and mistakes made (tests count them).
    #[cfg(test)]
    tally: [(u64, u64); MISPLAYS.len()],
}

impl<P> Erring<'_, P> {
    /// Whether a mistake of chance `below` (a threshold) happens now.
    #[inline]
    fn draw(&mut self, below: u64) -> bool {
        below != 0 && (below == u64::MAX || self.rng.next_u64() < below)
    }

    /// Whether misplay `i` happens now (counted in tests).
    #[inline]
    fn errs(&mut self, i: usize) -> bool {
        let e = self.draw(self.m.misplay[i]);
        #[cfg(test)]
        {
            self.tally[i].0 += 1;
            self.tally[i].1 += e as u64;
        }
        e
    }
}

impl<P: Player> Player for Erring<'_, P> {
    const BETS: bool = P::BETS;
    const SEES: bool = P::SEES;
    const CLASSES: bool = P::CLASSES;
    const PAYS: bool = true;

    #[inline]
    fn bet(&mut self, seat: usize) -> u32 {
        let b = self.inner.bet(seat);
        let last = self.last_bet[seat];
        // A bet left as it was: only between rounds the seat plays (a stale bet never sits
        // a seat out, nor makes it play).
        let b = if b != 0 && last != 0 && b != last && self.draw(self.m.stale_bet) {
            last
        } else {
            b
        };
        self.last_bet[seat] = b;
        b
    }
    #[inline]
    fn class(&self, seat: usize) -> u8 {
        self.inner.class(seat)
    }
    #[inline]
    fn decision_class(&mut self) -> u8 {
        self.inner.decision_class()
    }

    #[inline]
    fn act(&mut self, seat: usize, s: &Situation) -> Action {
        let right = self.inner.act(seat, s);
        let Some((i, wrong)) = misplay_at(s, right) else {
            return right;
        };
        if self.m.misplay[i] == 0 || !self.errs(i) {
            return right;
        }
        match wrong {
            Wrong::Do(a) => a,
            Wrong::NoDouble => self.inner.act(
                seat,
                &Situation {
                    can_double: false,
                    ..*s
                },
            ),
            Wrong::NoSplit => self.inner.act(seat, &Situation { pair: None, ..*s }),
            Wrong::NoSurrender => self.inner.act(
                seat,
                &Situation {
                    can_surrender: false,
                    ..*s
                },
            ),
        }
    }

    #[inline]
    fn insure(&mut self, seat: usize, total: u8, soft: bool) -> bool {
        let right = self.inner.insure(seat, total, soft);
        if right || self.m.misplay[INSURE] == 0 {
            return right;
        }
        self.errs(INSURE)
    }

    #[inline(always)]
    fn see(&mut self, card: Rank) {
        self.inner.see(card)
    }
    #[inline(always)]
    fn see_if(&mut self, card: Rank, dealt: bool) {
        self.inner.see_if(card, dealt)
    }

    fn draw_tables(&self) -> Option<&[DrawTable; 10]> {
        // Hit-or-stand mistakes happen past two cards too: the table must ask.
        if self.m.hit_stand {
            None
        } else {
            self.inner.draw_tables()
        }
    }

    #[inline(always)]
    fn shuffled(&mut self) {
        self.inner.shuffled()
    }

    fn side_stream(&mut self, rng: &Rng) {
        self.inner.side_stream(rng);
        // 2^128 steps into the side stream: apart from the inner player's draws (a counter's
        // miscounts start at its beginning).
        let mut own = rng.clone();
        own.jump();
        self.rng = own;
    }

    #[inline]
    fn paid(&mut self, seat: usize, net: i64, natural: bool, unit: i64) -> i64 {
        let net = self.misjudged(net, natural, unit);
        // The player it wraps sees what it was paid (a counter's cover keeps the result).
        if P::PAYS {
            self.inner.paid(seat, net, natural, unit)
        } else {
            net
        }
    }
}

impl<P> Erring<'_, P> {
    /// The dealer's payout errors on a main-bet net of `net` (`unit` units a bet).
    #[inline]
    fn misjudged(&mut self, net: i64, natural: bool, unit: i64) -> i64 {
        if !self.m.pays {
            return net;
        }
        let [win, natural_even, loss, push] = self.m.payout;
        match net.signum() {
            1 if natural => {
                if self.draw(natural_even) {
                    unit
                } else {
                    net
                }
            }
            1 if self.draw(win) => 0,
            -1 if self.draw(loss) => 0,
            0 if self.draw(push) => unit,
            _ => net,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::resolve::seed_chart;
    use super::super::strategy::{Chart, Fixed};
    use super::*;

    fn sit(total: u8, soft: bool, pair: Option<u8>, up: u8) -> Situation {
        Situation {
            total,
            soft,
            cards: 2,
            pair,
            up,
            can_double: true,
            can_surrender: true,
            split: false,
        }
    }

    #[test]
    fn the_presets_parse_and_none_is_no_mistakes() {
        for (name, _) in PRESETS {
            let m = ErrorModel::preset(name).unwrap();
            assert_eq!(m.name, name);
            assert_eq!(m.is_none(), name == "none", "{name}");
        }
        assert!(ErrorModel::none("x").is_none());
    }

    #[test]
    fn each_misplay_applies_where_its_table_says_and_nowhere_else() {
        use Action::*;
        let cases = [
            (sit(16, false, None, 10), Hit, Some((0, Wrong::Do(Stand)))),
            (sit(12, false, None, 1), Hit, Some((0, Wrong::Do(Stand)))),
            (sit(12, false, None, 4), Stand, Some((1, Wrong::Do(Hit)))),
            (sit(18, true, None, 9), Hit, Some((2, Wrong::Do(Stand)))),
            (sit(17, true, None, 5), Double, Some((3, Wrong::NoDouble))),
            (sit(11, false, None, 10), Double, Some((4, Wrong::NoDouble))),
            (
                sit(16, false, Some(8), 10),
                Split,
                Some((5, Wrong::NoSplit)),
            ),
            (sit(18, false, Some(9), 5), Split, Some((6, Wrong::NoSplit))),
            (sit(14, false, Some(7), 5), Split, Some((7, Wrong::NoSplit))),
            (
                sit(20, false, Some(10), 6),
                Stand,
                Some((8, Wrong::Do(Split))),
            ),
            (
                sit(16, false, None, 10),
                Surrender,
                Some((9, Wrong::NoSurrender)),
            ),
            // Where the strategy already plays as the misplay would, or no misplay is listed.
            (sit(16, false, None, 10), Stand, None),
            (sit(17, false, None, 10), Stand, None),
            (sit(12, true, Some(1), 6), Split, None),
            (sit(19, true, None, 6), Stand, None),
            (sit(10, false, Some(5), 6), Hit, None),
            (sit(20, false, Some(10), 7), Stand, None),
        ];
        for (s, right, want) in cases {
            assert_eq!(misplay_at(&s, right), want, "{s:?} {right:?}");
        }
    }

    /// `n` decisions at `s` by a player of `model` over the seed chart: how many differ from
    /// the chart, and the answers given.
    fn decide(model: &ErrorModel, s: &Situation, n: u64) -> (u64, Vec<Action>, [(u64, u64); 11]) {
        let chart: Chart = seed_chart();
        let w = WithErrors::new(chart.clone(), model);
        let mut p = w.player();
        p.side_stream(&Rng::seed_from_u64(7));
        let right = Fixed(&chart).act(0, s);
        let mut wrong = 0;
        let mut seen = Vec::new();
        for _ in 0..n {
            let a = p.act(0, s);
            if a != right {
                wrong += 1;
                if !seen.contains(&a) {
                    seen.push(a);
                }
            }
        }
        (wrong, seen, p.tally)
    }

    /// A model with every misplay of every kind at `rate`.
    fn at(rate: f64) -> ErrorModel {
        let mut m = ErrorModel::none("test");
        for k in &mut m.kinds {
            k.rate = rate;
        }
        m
    }

    #[test]
    fn each_mistake_fires_at_its_rate_and_does_what_its_table_says() {
        // 20,000 decisions at a rate of 0.2: SE = sqrt(0.2·0.8/20000) = 0.28%; within 4 SE.
        use Action::*;
        let (n, rate) = (20_000u64, 0.2);
        let se = (rate * (1.0 - rate) / n as f64).sqrt();
        let m = at(rate);
        // The seed chart (8 decks, ENHC, surrender v 2-9): a situation for each misplay, the
        // misplay's index, and the one wrong answer its table gives there.
        let cases = [
            (sit(16, false, None, 10), 0, Stand),
            (sit(13, false, None, 2), 1, Hit),
            (sit(18, true, None, 10), 2, Stand),
            (sit(17, true, None, 5), 3, Hit),
            (sit(11, false, None, 6), 4, Hit),
            (sit(16, false, Some(8), 8), 5, Hit),
            (sit(18, false, Some(9), 5), 6, Stand),
            (sit(14, false, Some(7), 5), 7, Stand),
            (sit(20, false, Some(10), 6), 8, Split),
            (sit(16, false, None, 9), 9, Hit),
        ];
        for (s, i, want) in cases {
            let (wrong, seen, tally) = decide(&m, &s, n);
            let f = wrong as f64 / n as f64;
            assert!((f - rate).abs() < 4.0 * se, "{}: {f}", MISPLAYS[i].name);
            assert_eq!(seen, [want], "{}", MISPLAYS[i].name);
            assert_eq!(tally[i], (n, wrong), "{}", MISPLAYS[i].name);
        }
        // Insurance: taken at its rate with an ace up.
        let chart = seed_chart();
        let w = WithErrors::new(chart, &m);
        let mut p = w.player();
        let taken = (0..n).filter(|_| p.insure(0, 20, false)).count() as f64 / n as f64;
        assert!((taken - rate).abs() < 4.0 * se, "insure: {taken}");
    }

    #[test]
    fn a_misplay_left_out_never_happens_and_rate_zero_is_the_chart() {
        let mut m = at(1.0);
        m.kinds[Kind::HitStand as usize].misplays = vec!["hit-stiff".into()];
        // stand-stiff is left out: 16 v T is hit as the chart says.
        assert_eq!(decide(&m, &sit(16, false, None, 10), 100).0, 0);
        assert_eq!(decide(&m, &sit(13, false, None, 2), 100).0, 100);
        let (wrong, _, _) = decide(&at(0.0), &sit(16, false, None, 10), 1000);
        assert_eq!(wrong, 0);
    }

    #[test]
    fn payout_errors_go_both_ways_at_their_rates() {
        let mut m = ErrorModel::none("pay");
        m.payout = PayoutErrors {
            win_as_push: 0.25,
            natural_even_money: 0.5,
            loss_as_push: 0.1,
            push_as_win: 1.0,
        };
        let chart = seed_chart();
        let w = WithErrors::new(chart, &m);
        let mut p = w.player();
        let n = 20_000;
        let share = |p: &mut Erring<'_, _>, net: i64, natural: bool, to: i64| {
            (0..n).filter(|_| p.paid(0, net, natural, 2) == to).count() as f64 / n as f64
        };
        for (net, natural, to, rate) in [
            (2, false, 0, 0.25),
            (3, true, 2, 0.5),
            (-2, false, 0, 0.1),
            (-4, false, 0, 0.1),
            (0, false, 2, 1.0),
        ] {
            let f = share(&mut p, net, natural, to);
            let se = (rate * (1.0 - rate) / n as f64).sqrt().max(1e-9);
            assert!((f - rate).abs() <= 4.0 * se, "{net} {natural}: {f}");
        }
    }

    /// A bettor who alternates 1 and 4 units, for the stale-bet error.
    struct Alternating(u32);
    impl Player for Alternating {
        const BETS: bool = true;
        fn bet(&mut self, _seat: usize) -> u32 {
            self.0 += 1;
            if self.0.is_multiple_of(2) {
                1
            } else {
                4
            }
        }
        fn act(&mut self, _seat: usize, _s: &Situation) -> Action {
            Action::Stand
        }
        fn insure(&mut self, _seat: usize, _total: u8, _soft: bool) -> bool {
            false
        }
    }

    #[test]
    fn a_stale_bet_keeps_the_last_bet_at_its_rate() {
        let mut m = ErrorModel::none("stale");
        m.stale_bet = 0.3;
        let c = Compiled::of(&m);
        let mut p = Erring {
            inner: Alternating(0),
            m: &c,
            rng: Rng::seed_from_u64(3),
            last_bet: [0; 7],
            tally: Default::default(),
        };
        // Every round the inner bettor changes its bet; the player keeps the last one with
        // chance 0.3 (then the inner bet differs again next round, or equals the kept one).
        let n = 20_000;
        let mut last = p.bet(0);
        let (mut asked, mut kept) = (0u64, 0u64);
        for _ in 0..n {
            let inner_next = if (p.inner.0 + 1).is_multiple_of(2) {
                1
            } else {
                4
            };
            let b = p.bet(0);
            if inner_next != last {
                asked += 1;
                kept += (b == last) as u64;
            }
            last = b;
        }
        let f = kept as f64 / asked as f64;
        let se = (0.3f64 * 0.7 / asked as f64).sqrt();
        assert!((f - 0.3).abs() < 4.0 * se, "{f} of {asked}");
    }

    #[test]
    fn the_discard_tray_estimate_is_half_decks_with_its_bias() {
        use super::super::count::{true_count, TcMode, TcRounding, TrueCounter};
        let (decks, rc) = (8u32, 20);
        let plain = TrueCounter::discard_tray(decks, 1, TcRounding::Floor, 0.0);
        let over = TrueCounter::discard_tray(decks, 1, TcRounding::Floor, 0.2);
        for seen in (0..=decks * 52).step_by(7) {
            // Without bias: the half-deck estimate of the decks left (but at the halfway
            // points, which the two round from either side).
            if seen % 26 != 13 {
                let want = true_count(
                    rc,
                    1,
                    decks * 52 - seen,
                    TcMode::HalfDeck,
                    TcRounding::Floor,
                );
                assert_eq!(plain.get(rc, seen), want, "seen {seen}");
            }
            // Seeing more in the tray: fewer decks left, a count as large or larger.
            assert!(over.get(rc, seen) >= plain.get(rc, seen), "seen {seen}");
        }
        // Half the shoe played, seen as 0.6 of it: 3.2 decks left, to the half deck 3.0.
        assert_eq!(over.get(30, 208), 10);
        assert_eq!(plain.get(30, 208), 7);
    }

    #[test]
    fn errors_files_name_line_and_field() {
        let good = "game = \"blackjack\"\nname = \"mine\"\n[split]\nrate = 0.1\nmisplays = [\"no-split-8s\"]\n[payout]\nwin-as-push = 0.01\n";
        let m = ErrorModel::parse(good, "mine.toml").unwrap();
        assert_eq!(m.name, "mine");
        assert_eq!(m.kinds[Kind::Split as usize].misplays, ["no-split-8s"]);
        assert_eq!(m.payout.win_as_push, 0.01);
        let bad = |text: &str, want: &str| {
            let e = ErrorModel::parse(text, "e.toml").unwrap_err().0;
            assert!(e.contains(want), "{e}");
        };
        bad(
            "game = \"blackjack\"\n[split]\nrate = 2\n",
            "e.toml:3: [split] rate: expected a chance",
        );
        bad(
            "game = \"blackjack\"\n[split]\nrat = 0.1\n",
            "e.toml:3: [split] rat: unknown key",
        );
        bad(
            "game = \"blackjack\"\n[spit]\n",
            "e.toml:2: unknown section [spit]",
        );
        bad(
            "game = \"blackjack\"\n[double]\nmisplays = [\"no-split-8s\"]\n",
            "e.toml:3: [double] misplays: 'no-split-8s' is not a double misplay",
        );
        bad(
            "[split]\nrate = 0.1\n",
            "e.toml:1: no game = \"blackjack\" line",
        );
        bad("game = \"doom\"\n", "e.toml:1: game = \"doom\"");
        bad(
            "game = \"blackjack\"\n[bet]\nstale = 0.1\nstale = 0.2\n",
            "e.toml:4: [bet] stale is set twice",
        );
        bad(
            "game = \"blackjack\"\n[count]\ndiscard-bias = 0.9\n",
            "e.toml:3: [count] discard-bias",
        );
    }
}
