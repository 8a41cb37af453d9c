//! Index plays: deviations from the chart at given counts ("16 v T: stand at TC ≥ 0",
//! "insurance at TC ≥ +3"), read from files (`strategies/blackjack/indices-*.csv`) and played
//! by the counter.
//!
//! A file holds `hand,up,play,when` lines:
//! - `hand`: a chart row (`H16`, `S18`, `PT`, …) or `insurance` (with up card `A`);
//! - `up`: the dealer's up card (`2`..`9`, `T`, `A`);
//! - `play`: a chart code without surrender (`H`, `S`, `Dh`, `Ds`, `P`), `R` (surrender) or,
//!   for insurance, `I` (take it);
//! - `when`: `>=N` (at a count of N or more) or `<N` (below N), N an integer: the true count
//!   of a balanced system, the running count of an unbalanced one, at the moment of the
//!   decision (every card seen so far counted).
//!
//! How entries combine with the chart, for one hand and up card:
//! - a **play** entry (`H`, `S`, `Dh`, `Ds`, `P`) replaces the chart's play when its condition
//!   holds; otherwise the chart's play stands (its play without surrender);
//! - a **surrender** entry (`R`) decides surrender both ways: surrender (where the rules
//!   allow it) exactly when the condition holds, whatever the chart says; without one, a
//!   chart that surrenders still surrenders;
//! - an **insurance** entry decides insurance both ways: take it exactly when the condition
//!   holds.
//!
//! Each hand and up card has at most one play entry and one surrender entry in a set (also
//! when sets are combined, `i18+fab4`).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::strategy::{
    parse_row_name, row_name, situation_row, Action, Code, Situation, Strategy, ROWS,
};

/// The built-in sets: (name, file text). The files are in `strategies/blackjack/`.
pub const BUILT_IN: [(&str, &str); 2] = [
    (
        "i18",
        include_str!("../../../strategies/blackjack/indices-i18.csv"),
    ),
    (
        "fab4",
        include_str!("../../../strategies/blackjack/indices-fab4.csv"),
    ),
];

/// What an entry does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Play this code (never a surrender code).
    Code(Code),
    Surrender,
    Insure,
}

/// When an entry applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct When {
    /// `>=` (true) or `<` (false).
    pub at_least: bool,
    pub index: i32,
}

impl When {
    #[inline(always)]
    pub fn holds(self, count: i32) -> bool {
        (count >= self.index) == self.at_least
    }
}

/// The row of the insurance entry (not a chart row).
pub(crate) const INSURANCE: u8 = u8::MAX;

/// One deviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Deviation {
    /// Chart row, or `INSURANCE`.
    pub row: u8,
    /// Dealer up card value, 1 = ace.
    pub up: u8,
    pub play: Play,
    pub when: When,
}

impl fmt::Display for Deviation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hand = if self.row == INSURANCE {
            "insurance".to_string()
        } else {
            row_name(self.row as usize)
        };
        let play = match self.play {
            Play::Code(c) => c.as_str(),
            Play::Surrender => "R",
            Play::Insure => "I",
        };
        let op = if self.when.at_least { ">=" } else { "<" };
        write!(
            f,
            "{hand},{},{play},{op}{}",
            crate::cards::value_char(self.up),
            self.when.index
        )
    }
}

impl From<Deviation> for String {
    fn from(d: Deviation) -> String {
        d.to_string()
    }
}

impl TryFrom<String> for Deviation {
    type Error = String;
    fn try_from(s: String) -> Result<Deviation, String> {
        Deviation::parse(&s)
    }
}

fn parse_up(s: &str) -> Option<u8> {
    match s.trim().to_ascii_uppercase().as_str() {
        "A" | "1" | "11" => Some(1),
        "T" | "10" => Some(10),
        d if d.len() == 1 && ("2"..="9").contains(&d) => d.parse().ok(),
        _ => None,
    }
}

impl Deviation {
    /// One `hand,up,play,when` line.
    pub fn parse(line: &str) -> Result<Deviation, String> {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let [hand, up, play, when] = f[..] else {
            return Err(format!(
                "'{}': expected 4 fields 'hand,up,play,when' (e.g. 'H16,T,S,>=0')",
                crate::door::input::quote(line)
            ));
        };
        let insurance = hand.eq_ignore_ascii_case("insurance");
        let row = if insurance {
            INSURANCE
        } else {
            parse_row_name(hand).ok_or_else(|| {
                format!("hand '{hand}': expected a chart row (H4..H21, S12..S21, P2..P9, PT, PA) or 'insurance'")
            })? as u8
        };
        let up = parse_up(up).ok_or_else(|| format!("up card '{up}': expected 2..9, T or A"))?;
        if insurance && up != 1 {
            return Err(format!(
                "insurance is offered against an ace only, not up card '{}'",
                crate::cards::value_char(up)
            ));
        }
        let play = match (insurance, play.to_ascii_uppercase().as_str()) {
            (true, "I" | "Y") => Play::Insure,
            (true, _) => {
                return Err(format!(
                    "play '{play}': an insurance entry's play is I (take insurance)"
                ))
            }
            (false, "R") => Play::Surrender,
            (false, _) => match Code::parse(play) {
                Some(c @ (Code::H | Code::S | Code::Dh | Code::Ds)) => Play::Code(c),
                Some(Code::P) if (row as usize) >= 28 => Play::Code(Code::P),
                Some(Code::P) => return Err(format!("play P (split) on {hand}: not a pair row")),
                _ => {
                    return Err(format!(
                        "play '{play}': expected H, S, Dh, Ds, P or R (surrender)"
                    ))
                }
            },
        };
        let (at_least, n) = if let Some(n) = when.strip_prefix(">=") {
            (true, n)
        } else if let Some(n) = when.strip_prefix('<') {
            (false, n)
        } else {
            return Err(format!(
                "when '{when}': expected '>=N' (at N or more) or '<N' (below N)"
            ));
        };
        let index: i32 = n
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| format!("when '{when}': '{n}' is not an integer count"))?;
        if !(-1000..=1000).contains(&index) {
            return Err(format!("when '{when}': the count is outside -1000..1000"));
        }
        Ok(Deviation {
            row,
            up,
            play,
            when: When { at_least, index },
        })
    }

    fn surrender_kind(&self) -> bool {
        matches!(self.play, Play::Surrender)
    }
}

/// A bad index file or set.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum IndexError {
    #[error("{file}:{line}: {msg} (format: strategies/README.md, 'Index plays')")]
    File {
        file: String,
        line: usize,
        msg: String,
    },
    #[error("cannot read the index file {0}: {1}")]
    Read(String, String),
    /// An index file that cannot be read (the message names it).
    #[error("{0}")]
    Input(String),
    #[error("the index file {0} has no entries (lines 'hand,up,play,when', e.g. 'H16,T,S,>=0'; see strategies/README.md)")]
    Empty(String),
    #[error("unknown index set '{0}': expected i18, fab4, a file of 'hand,up,play,when' lines, or several joined by '+' (e.g. i18+fab4)")]
    Unknown(String),
    #[error("--indices {0}: {1} (a hand and up card take one play entry and one surrender entry)")]
    Twice(String, String),
}

/// A set of deviations (one or more files joined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexSet {
    /// What the user named (`i18+fab4`, a path): not part of a run's identity.
    pub label: String,
    pub entries: Vec<Deviation>,
}

impl IndexSet {
    /// When the set takes insurance, if it has an insurance entry (it then decides insurance
    /// instead of `--insurance`), in words: "at true count >= 3".
    pub fn insurance_text(&self) -> Option<String> {
        self.entries
            .iter()
            .find(|e| e.play == Play::Insure)
            .map(|e| {
                let op = if e.when.at_least { ">=" } else { "<" };
                format!("at true count {op} {} (index play)", e.when.index)
            })
    }

    /// The text of one file.
    pub fn parse(text: &str, file: &str) -> Result<Vec<Deviation>, IndexError> {
        let mut v = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() || line.to_ascii_lowercase().starts_with("hand,") {
                continue;
            }
            let d = Deviation::parse(line).map_err(|msg| IndexError::File {
                file: file.into(),
                line: i + 1,
                msg,
            })?;
            v.push(d);
        }
        Ok(v)
    }

    /// `i18`, `fab4`, a file, or several joined by `+`.
    pub fn resolve(spec: &str) -> Result<IndexSet, IndexError> {
        let mut entries = Vec::new();
        for part in spec.split('+').map(str::trim) {
            let mut add = if let Some(b) = BUILT_IN.iter().find(|b| b.0 == part) {
                IndexSet::parse(b.1, &format!("strategies/blackjack/indices-{}.csv", b.0))?
            } else if std::fs::symlink_metadata(part).is_ok() {
                let text = crate::door::input::read_text(
                    std::path::Path::new(part),
                    "index file",
                    crate::door::input::MAX_TEXT_BYTES,
                )
                .map_err(|e| IndexError::Input(e.to_string()))?;
                let add = IndexSet::parse(&text, part)?;
                if add.is_empty() {
                    return Err(IndexError::Empty(part.into()));
                }
                add
            } else if part.contains(['/', '\\', '.']) {
                // A path, not a built-in name.
                return Err(IndexError::Read(part.into(), "no such file".into()));
            } else {
                return Err(IndexError::Unknown(part.into()));
            };
            entries.append(&mut add);
        }
        let set = IndexSet {
            label: spec.into(),
            entries,
        };
        set.validate()?;
        Ok(set)
    }

    /// Each hand and up card once per kind (play, surrender, insurance).
    pub fn validate(&self) -> Result<(), IndexError> {
        for (i, a) in self.entries.iter().enumerate() {
            for b in &self.entries[..i] {
                if a.row == b.row && a.up == b.up && a.surrender_kind() == b.surrender_kind() {
                    return Err(IndexError::Twice(
                        self.label.clone(),
                        format!("'{b}' and '{a}' are for the same hand"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// One cell per chart row and up card.
type Cells<T> = Box<[[Option<T>; 10]; ROWS]>;

/// An index set laid out for play: one cell per chart row and up card.
#[derive(Clone, Debug)]
pub struct Deviations {
    /// Whether a cell has any entry (`touches`), one byte per cell.
    any: [[bool; 10]; ROWS],
    play: Cells<(When, Code)>,
    surrender: Cells<When>,
    insurance: Option<When>,
}

impl Deviations {
    pub fn new(set: &IndexSet) -> Deviations {
        let mut d = Deviations {
            any: [[false; 10]; ROWS],
            play: Box::new([[None; 10]; ROWS]),
            surrender: Box::new([[None; 10]; ROWS]),
            insurance: None,
        };
        for e in &set.entries {
            let (r, c) = (e.row as usize, e.up as usize - 1);
            if r < ROWS {
                d.any[r][c] = true;
            }
            match e.play {
                Play::Insure => d.insurance = Some(e.when),
                Play::Surrender => d.surrender[r][c] = Some(e.when),
                Play::Code(code) => d.play[r][c] = Some((e.when, code)),
            }
        }
        d
    }

    /// Whether any entry may change the action in `s` (then [`Self::act`] needs the count).
    #[inline(always)]
    pub fn touches(&self, s: &Situation) -> bool {
        let (r, c) = (situation_row(s), (s.up - 1) as usize);
        self.any[r % ROWS][c % 10]
    }

    /// The action in `s` at `count`, deviating from `chart` where an entry says so.
    #[inline]
    pub fn act<S: Strategy + ?Sized>(&self, chart: &S, s: &Situation, count: i32) -> Action {
        let (r, c) = (situation_row(s), (s.up - 1) as usize);
        let surrender = match self.surrender[r][c] {
            Some(w) => s.can_surrender && w.holds(count),
            None => s.can_surrender && chart.act(s) == Action::Surrender,
        };
        if surrender {
            return Action::Surrender;
        }
        let plain = Situation {
            can_surrender: false,
            ..*s
        };
        match self.play[r][c] {
            Some((w, code)) if w.holds(count) => code.resolve(&plain),
            _ => chart.act(&plain),
        }
    }

    /// Whether to take insurance at `count`: the entry's answer, else `chart`'s.
    #[inline]
    pub fn insure<S: Strategy + ?Sized>(
        &self,
        chart: &S,
        total: u8,
        soft: bool,
        count: impl FnOnce() -> i32,
    ) -> bool {
        match self.insurance {
            Some(w) => w.holds(count()),
            None => chart.insure(total, soft),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::resolve::seed_chart;

    fn sit(total: u8, up: u8) -> Situation {
        Situation {
            total,
            soft: false,
            cards: 2,
            pair: None,
            up,
            can_double: true,
            can_surrender: true,
            split: false,
        }
    }

    #[test]
    fn entries_parse_and_print_back() {
        for line in [
            "H16,T,S,>=0",
            "H13,2,H,<-1",
            "PT,5,P,>=5",
            "insurance,A,I,>=3",
            "H15,9,R,>=2",
            "S18,2,Ds,>=1",
        ] {
            assert_eq!(Deviation::parse(line).unwrap().to_string(), line);
        }
        assert_eq!(
            Deviation::parse("H10, 10, D, >=+4").unwrap().to_string(),
            "H10,T,Dh,>=4"
        );
        // In a run's key an entry is its line.
        let d = Deviation::parse("H16,T,S,>=0").unwrap();
        assert_eq!(serde_json::to_string(&d).unwrap(), "\"H16,T,S,>=0\"");
        assert_eq!(
            serde_json::from_str::<Deviation>("\"H16,T,S,>=0\"").unwrap(),
            d
        );
        assert!(serde_json::from_str::<Deviation>("\"H16,T\"").is_err());
        for (bad, want) in [
            ("H16,0,S,>=0", "up card '0'"),
            ("H16,12,S,>=0", "up card '12'"),
            ("H16,1A,S,>=0", "up card '1A'"),
            ("H16,T,S", "4 fields"),
            ("X16,T,S,>=0", "hand 'X16'"),
            ("H16,Q,S,>=0", "up card 'Q'"),
            ("H16,T,Rh,>=0", "play 'Rh'"),
            ("H16,T,P,>=0", "not a pair row"),
            ("H16,T,S,=0", "when '=0'"),
            ("H16,T,S,>=x", "not an integer"),
            ("H16,T,S,>=1001", "outside"),
            ("insurance,T,I,>=3", "ace only"),
            ("insurance,A,S,>=3", "insurance entry"),
        ] {
            let e = Deviation::parse(bad).unwrap_err();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn the_built_in_sets_parse_and_join() {
        // The 18, and 10 v T and 10 v A again for a splittable 5,5 (P5).
        let i18 = IndexSet::resolve("i18").unwrap();
        assert_eq!(i18.entries.len(), 20);
        let fab4 = IndexSet::resolve("fab4").unwrap();
        assert_eq!(fab4.entries.len(), 4);
        assert!(fab4.entries.iter().all(|e| e.play == Play::Surrender));
        let both = IndexSet::resolve("i18+fab4").unwrap();
        assert_eq!(both.entries.len(), 24);
        let e = IndexSet::resolve("i18+i18").unwrap_err().to_string();
        assert!(e.contains("same hand"), "{e}");
        assert!(IndexSet::resolve("i19").is_err());
        let e = IndexSet::parse("H16,T,S,>=0\nH16,T,Q,>=0\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:2:"), "{e}");
    }

    #[test]
    fn play_entries_replace_the_play_when_they_hold() {
        let chart = seed_chart();
        let d = Deviations::new(&IndexSet {
            label: "t".into(),
            entries: vec![
                Deviation::parse("H16,T,S,>=0").unwrap(),
                Deviation::parse("H13,2,H,<-1").unwrap(),
                Deviation::parse("H16,9,S,>=5").unwrap(),
            ],
        });
        let s = sit(16, 10);
        assert_eq!(chart.act(&s), Action::Hit);
        assert!(d.touches(&s));
        assert_eq!(d.act(&chart, &s, 0), Action::Stand);
        assert_eq!(d.act(&chart, &s, 3), Action::Stand);
        assert_eq!(d.act(&chart, &s, -1), Action::Hit);
        let s = sit(13, 2);
        assert_eq!(d.act(&chart, &s, -2), Action::Hit);
        assert_eq!(d.act(&chart, &s, -1), Action::Stand);
        // The chart surrenders 16 v 9; a play entry does not stop that, but plays where
        // surrender is not allowed.
        let s = sit(16, 9);
        assert_eq!(d.act(&chart, &s, 6), Action::Surrender);
        let no_sur = Situation {
            can_surrender: false,
            ..s
        };
        assert_eq!(d.act(&chart, &no_sur, 6), Action::Stand);
        assert_eq!(d.act(&chart, &no_sur, 4), Action::Hit);
        assert!(!d.touches(&sit(12, 7)));
    }

    #[test]
    fn surrender_entries_decide_surrender_both_ways() {
        let chart = seed_chart();
        let d = Deviations::new(&IndexSet {
            label: "t".into(),
            entries: vec![
                Deviation::parse("H15,9,R,>=2").unwrap(),
                Deviation::parse("H16,9,R,>=0").unwrap(),
            ],
        });
        let s = sit(15, 9);
        assert_eq!(chart.act(&s), Action::Hit);
        assert_eq!(d.act(&chart, &s, 2), Action::Surrender);
        assert_eq!(d.act(&chart, &s, 1), Action::Hit);
        // Where the chart surrenders (16 v 9), below the index the chart's play is used.
        let s = sit(16, 9);
        assert_eq!(d.act(&chart, &s, -1), Action::Hit);
        assert_eq!(d.act(&chart, &s, 0), Action::Surrender);
        // Not allowed: never.
        let no = Situation {
            can_surrender: false,
            ..sit(15, 9)
        };
        assert_eq!(d.act(&chart, &no, 9), Action::Hit);
    }

    #[test]
    fn insurance_entries_decide_insurance() {
        let chart = seed_chart();
        let d = Deviations::new(&IndexSet::resolve("i18").unwrap());
        assert!(d.insure(&chart, 12, false, || 3));
        assert!(!d.insure(&chart, 12, false, || 2));
        let none = Deviations::new(&IndexSet {
            label: "t".into(),
            entries: vec![],
        });
        assert!(!none.insure(&chart, 12, false, || 9));
    }

    #[test]
    fn a_five_five_follows_the_ten_indices() {
        // A splittable 5,5 reads the P5 row: I18 gives it the 10 v T and 10 v A doubles.
        let chart = seed_chart();
        let d = Deviations::new(&IndexSet::resolve("i18").unwrap());
        for up in 1..=10 {
            let ten = sit(10, up);
            let fives = Situation {
                pair: Some(5),
                ..ten
            };
            for count in -10..=10 {
                let (a, b) = (d.act(&chart, &ten, count), d.act(&chart, &fives, count));
                assert_eq!(a, b, "5,5 against {up} at {count}");
            }
        }
        let fives_v_ten = Situation {
            pair: Some(5),
            ..sit(10, 10)
        };
        assert_eq!(d.act(&chart, &fives_v_ten, 3), Action::Hit);
        assert_eq!(d.act(&chart, &fives_v_ten, 4), Action::Double);
    }

    #[test]
    fn pair_entries_apply_to_splittable_pairs() {
        let chart = seed_chart();
        let d = Deviations::new(&IndexSet::resolve("i18").unwrap());
        let tt = Situation {
            total: 20,
            pair: Some(10),
            ..sit(20, 6)
        };
        assert_eq!(d.act(&chart, &tt, 3), Action::Stand);
        assert_eq!(d.act(&chart, &tt, 4), Action::Split);
        // Without a split allowed, T-T is hard 20 and stands.
        let hard20 = Situation { pair: None, ..tt };
        assert_eq!(d.act(&chart, &hard20, 9), Action::Stand);
    }
}
