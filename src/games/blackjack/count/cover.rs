//! Cover plays: what a counter gives up to look like any other player (`--cover`).
//!
//! Each play costs some of the count's edge; `compare blackjack --cover` measures the cost of
//! each on the same shoes, paired with the counter who plays none (docs/counting.md, "Cover
//! plays"). The plays:
//!
//! - `top[=N]`: off the top, the first N rounds a counter bets in a shoe (default 1; for a
//!   wonger, his first bets after entering) bet what his last round of the shoe before bet,
//!   instead of dropping to the ramp's bet at the shuffle;
//! - `parlay`: the bet rises only after a won round, and then to at most twice the last bet
//!   (a parlay of the win); it falls only after a lost round or at a shuffle (a push holds it);
//! - `max-rise=K`: no bet more than K times the last round's bet;
//! - `no-big-insurance[=U]`: no insurance on a bet of U units or more (default the ramp's top
//!   bet), whatever the index says;
//! - `no-ten-split`: the index plays that split tens are dropped (the giveaway play).
//!
//! A seat sitting out (a ramp's 0 units, wonging) sits out whatever the cover; the rounds
//! around it count from the last round bet. Each chunk of shoes starts with a fresh counter
//! (a chunk's result depends on its stream alone): its first shoe has no last bet to carry
//! off the top nor a last result to parlay.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::CountError;

/// The cover plays a counter makes (every one off: none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cover {
    /// Rounds at a shoe's start that bet the last bet of the shoe before (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub top: u32,
    /// Rises only after a win (at most doubling), falls only after a loss or a shuffle.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub parlay: bool,
    /// No bet above this many times the last round's (absent: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rise: Option<u32>,
    /// No insurance on a bet of at least this many units (absent: insurance as the count
    /// says; 0: the ramp's top bet, resolved when the counter is seated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_big_insurance: Option<u32>,
    /// The index plays that split tens are dropped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_ten_split: bool,
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// Most rounds off the top and the largest rise factor.
const MAX_TOP: u32 = 1000;
const MAX_RISE: u32 = 1000;

impl Cover {
    /// Whether no cover play is made.
    pub fn is_none(&self) -> bool {
        *self == Cover::default()
    }

    /// Whether a play changes the bet (the counter then keeps the last round's bet and
    /// result).
    pub fn bets(&self) -> bool {
        self.top > 0 || self.parlay || self.max_rise.is_some()
    }

    /// The most a bet rises from one round to the next under these plays (the parlay at most
    /// doubles; `max-rise=K`), if they limit it.
    pub fn rise_limit(&self) -> Option<u32> {
        let parlay = self.parlay.then_some(2);
        match (parlay, self.max_rise) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The plays that can change nothing for a counter betting `ramp` with the index plays
    /// `indices`, each with why: the bet plays on a ramp of one bet, the insurance play
    /// without an insurance index, the ten split without an index that splits tens.
    pub fn idle_plays(
        &self,
        ramp: &super::Ramp,
        indices: Option<&super::super::indices::IndexSet>,
    ) -> Vec<String> {
        let mut v = Vec::new();
        let bets: std::collections::BTreeSet<u32> =
            ramp.0.iter().map(|e| e.1).filter(|&u| u > 0).collect();
        if self.bets() && bets.len() < 2 {
            v.push("the bet plays (top, parlay, max-rise) change nothing on a ramp of one bet: give --ramp".to_string());
        }
        let entries = indices.map_or(&[][..], |ix| &ix.entries[..]);
        let insures = entries
            .iter()
            .any(|e| e.play == super::super::indices::Play::Insure);
        if self.no_big_insurance.is_some() && !insures {
            v.push(
                "no-big-insurance changes nothing without an insurance index (--indices)".into(),
            );
        }
        if self.no_ten_split && !entries.iter().any(super::cover_drops) {
            v.push(
                "no-ten-split changes nothing without an index play that splits tens (--indices)"
                    .into(),
            );
        }
        v
    }

    /// Parse `none` or plays joined by '+': `top`, `top=N`, `parlay`, `max-rise=K`,
    /// `no-big-insurance`, `no-big-insurance=U`, `no-ten-split`.
    pub fn parse(text: &str) -> Result<Cover, CountError> {
        let bad = |m: String| CountError::Option(format!("--cover {text}: {m}"));
        let mut c = Cover::default();
        let text_t = text.trim();
        if text_t.is_empty() {
            return Err(bad(
                "no play named: give plays joined by '+' (top, parlay, max-rise=K, no-big-insurance, no-ten-split) or none".into(),
            ));
        }
        if text_t == "none" {
            return Ok(c);
        }
        let mut seen: Vec<&str> = Vec::new();
        for word in text_t.split('+') {
            let word = word.trim();
            let (name, value) = match word.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim())),
                None => (word, None),
            };
            if seen.contains(&name) {
                return Err(bad(format!("{name} is given twice: give each play once")));
            }
            seen.push(name);
            let number = |max: u32, min: u32| -> Result<u32, CountError> {
                let v = value.ok_or_else(|| bad(format!("{name} needs a number: {name}=N")))?;
                match v.parse::<u32>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(n),
                    _ => Err(bad(format!(
                        "{name}={v}: expected a whole number from {min} to {max}"
                    ))),
                }
            };
            match name {
                "top" => c.top = if value.is_some() { number(MAX_TOP, 1)? } else { 1 },
                "parlay" | "no-ten-split" if value.is_some() => {
                    return Err(bad(format!("{name} takes no value: write {name}")));
                }
                "parlay" => c.parlay = true,
                "no-ten-split" => c.no_ten_split = true,
                "max-rise" => c.max_rise = Some(number(MAX_RISE, 1)?),
                "no-big-insurance" => {
                    c.no_big_insurance = Some(if value.is_some() {
                        number(super::MAX_UNITS, 1)?
                    } else {
                        0
                    })
                }
                "none" => return Err(bad("none stands alone: drop it or the other plays".into())),
                "each" => {
                    return Err(bad(
                        "each is `compare blackjack --cover each` (every play, priced): here give the plays".into(),
                    ))
                }
                _ => {
                    return Err(bad(format!(
                        "unknown play {name:?}: expected top[=N], parlay, max-rise=K, no-big-insurance[=U], no-ten-split or none"
                    )))
                }
            }
        }
        Ok(c)
    }

    /// Each play made: as `--cover` spells it, and in words.
    fn plays(&self) -> Vec<(String, String)> {
        let mut v = Vec::new();
        match self.top {
            0 => {}
            1 => v.push(("top".into(), "the last bet off the top".into())),
            n => v.push((
                format!("top={n}"),
                format!("the last bet for {n} rounds off the top"),
            )),
        }
        if self.parlay {
            v.push((
                "parlay".into(),
                "raising only after a win (at most doubling), lowering only after a loss".into(),
            ));
        }
        if let Some(k) = self.max_rise {
            v.push((
                format!("max-rise={k}"),
                format!("no bet over {k}x the last"),
            ));
        }
        match self.no_big_insurance {
            None => {}
            Some(0) => v.push((
                "no-big-insurance".into(),
                "no insurance on a top bet".into(),
            )),
            Some(u) => v.push((
                format!("no-big-insurance={u}"),
                format!("no insurance on a bet of {u} or more"),
            )),
        }
        if self.no_ten_split {
            v.push(("no-ten-split".into(), "never splitting tens".into()));
        }
        v
    }

    /// The plays in words, for a report's label ("" for none).
    pub fn describe(&self) -> String {
        let words: Vec<String> = self.plays().into_iter().map(|p| p.1).collect();
        words.join(", ")
    }
}

impl fmt::Display for Cover {
    /// The plays as `--cover` spells them (`none` for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spelled: Vec<String> = self.plays().into_iter().map(|p| p.0).collect();
        if spelled.is_empty() {
            return f.write_str("none");
        }
        f.write_str(&spelled.join("+"))
    }
}

/// The bet-changing plays at run time: what the counter bets at a round whose ramp bet is
/// `want`, given its last bet `last` (0: none yet), the last round's main-bet result `won`
/// (> 0 won, < 0 lost, 0 pushed) and `round`, the rounds bet since the shuffle before this
/// one (0: the shoe's first).
pub fn covered_bet(c: &Cover, want: u32, last: u32, won: i8, round: u32) -> u32 {
    if want == 0 || last == 0 {
        return want;
    }
    if round < c.top {
        return last;
    }
    let mut b = want;
    if c.parlay {
        if b > last {
            b = if won > 0 {
                b.min(last.saturating_mul(2))
            } else {
                last
            };
        } else if b < last && !(won < 0 || round == 0) {
            b = last;
        }
    }
    if let Some(k) = c.max_rise {
        b = b.min(last.saturating_mul(k));
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_parse_and_print_as_given() {
        for (text, shown) in [
            ("none", "none"),
            ("top", "top"),
            ("top=3", "top=3"),
            ("parlay", "parlay"),
            ("max-rise=2", "max-rise=2"),
            ("no-big-insurance", "no-big-insurance"),
            ("no-big-insurance=8", "no-big-insurance=8"),
            ("no-ten-split", "no-ten-split"),
            (
                " no-ten-split + top + parlay+max-rise=3+no-big-insurance ",
                "top+parlay+max-rise=3+no-big-insurance+no-ten-split",
            ),
        ] {
            let c = Cover::parse(text).unwrap();
            assert_eq!(c.to_string(), shown, "{text}");
            assert_eq!(Cover::parse(shown).unwrap(), c);
        }
        assert_eq!(
            Cover::parse("top=2+no-big-insurance=8").unwrap().describe(),
            "the last bet for 2 rounds off the top, no insurance on a bet of 8 or more"
        );
        assert_eq!(Cover::parse("none").unwrap().describe(), "");
        assert!(Cover::parse("none").unwrap().is_none());
        for (text, limit) in [
            ("none", None),
            ("top", None),
            ("parlay", Some(2)),
            ("max-rise=3", Some(3)),
            ("parlay+max-rise=3", Some(2)),
            ("parlay+max-rise=1", Some(1)),
        ] {
            assert_eq!(Cover::parse(text).unwrap().rise_limit(), limit, "{text}");
        }
        assert!(!Cover::parse("no-ten-split").unwrap().bets());
        assert!(Cover::parse("max-rise=2").unwrap().bets());
    }

    #[test]
    fn bad_plays_say_what_to_write() {
        for (text, says) in [
            ("", "no play named"),
            ("topp", "unknown play \"topp\""),
            ("top=0", "top=0: expected a whole number from 1"),
            ("max-rise", "max-rise needs a number"),
            ("max-rise=x", "max-rise=x: expected"),
            ("parlay=2", "parlay takes no value"),
            ("each", "each is `compare blackjack --cover each`"),
            ("top+top=2", "top is given twice"),
            ("none+top", "none stands alone"),
        ] {
            let e = Cover::parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
            assert!(e.contains("--cover"), "{e}");
        }
    }

    #[test]
    fn each_bet_play_does_what_it_says() {
        let c = |s: &str| Cover::parse(s).unwrap();
        // No cover: the ramp's bet.
        assert_eq!(covered_bet(&c("none"), 8, 1, -1, 5), 8);
        // Off the top: the last bet for the first N rounds of a shoe, then the ramp.
        let top = c("top=2");
        assert_eq!(covered_bet(&top, 1, 12, 1, 0), 12);
        assert_eq!(covered_bet(&top, 1, 12, -1, 1), 12);
        assert_eq!(covered_bet(&top, 1, 12, -1, 2), 1);
        // Parlay: a rise waits for a win and at most doubles; a fall waits for a loss or the
        // shuffle; a push holds.
        let p = c("parlay");
        assert_eq!(covered_bet(&p, 8, 2, 1, 3), 4);
        assert_eq!(covered_bet(&p, 3, 2, 1, 3), 3);
        assert_eq!(covered_bet(&p, 8, 2, -1, 3), 2);
        assert_eq!(covered_bet(&p, 8, 2, 0, 3), 2);
        assert_eq!(covered_bet(&p, 1, 8, 1, 3), 8);
        assert_eq!(covered_bet(&p, 1, 8, 0, 3), 8);
        assert_eq!(covered_bet(&p, 1, 8, -1, 3), 1);
        assert_eq!(covered_bet(&p, 1, 8, 1, 0), 1);
        // A rise of at most K times.
        let m = c("max-rise=2");
        assert_eq!(covered_bet(&m, 12, 1, 1, 3), 2);
        assert_eq!(covered_bet(&m, 12, 4, -1, 3), 8);
        assert_eq!(covered_bet(&m, 1, 12, -1, 3), 1);
        // Sitting out stays sitting out; the first bet of a run is the ramp's.
        for cov in [&top, &p, &m] {
            assert_eq!(covered_bet(cov, 0, 12, 1, 0), 0);
            assert_eq!(covered_bet(cov, 8, 0, 1, 0), 8);
        }
    }
}
