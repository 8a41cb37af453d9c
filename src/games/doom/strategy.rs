//! Dice of Doom strategies: a banking rule and a keep rule, parsed from a short spec or a
//! file in `strategies/doom/`.
//!
//! Spec grammar: `optimal` | `win-optimal` (two-player games: maximizes the probability of
//! winning, see `win.rs`) | `win-leader`, `win-field` (games of 2–6: the two-player table
//! against the most dangerous opponent, or against every opponent as independent racers) | `bank-at:T` | `thresholds:T1,T2,T3,T4,T5,T6` (bank when the turn
//! points reach T_n with n dice left to roll) | `endgame:T` (bank-at:T that also banks as soon
//! as the bank reaches the target, in the last round rolls on until it leads, and raises its
//! threshold by half while more than a tenth of the target behind the leader); any of them
//! may end in `+keep-all` (set aside every scoring die) or `+keep-fewest` (set aside as few
//! dice as possible); the default keep rule picks the set-aside of highest expected value
//! given the banking rule. A path (containing `/` or ending in `.txt`) names a file whose
//! first non-comment line is such a spec.

use std::path::Path;

use super::exact::{BankRule, Keep, Policy, CAP_POINTS};

#[derive(Clone, Debug, PartialEq)]
pub struct DoomStrategy {
    /// The spec as given (a file's path and spec for a path).
    pub name: String,
    /// The spec itself (a file's spec line for a path).
    pub spec: String,
    pub policy: Policy,
    /// The end-game aware variant.
    pub endgame: bool,
    /// `win-optimal`: the two-player win-probability-optimal policy (`win.rs`), solved for
    /// the game's rules and target; `policy` is then the single-turn optimum, used only
    /// where a turn is played outside a game.
    pub win: bool,
    /// For games of three or more: how a win-seeking seat reads the two-player game (None:
    /// `win-optimal`, games of two only).
    pub multi: Option<Multi>,
}

/// How a win-seeking seat plays a game of three or more players from the two-player table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Multi {
    /// `win-leader`: the two-player policy against the most dangerous opponent (the one
    /// against whom the two-player chance of winning is lowest).
    Leader,
    /// `win-field`: every state valued as the product of the two-player chances of finishing
    /// ahead of each opponent (independent racers), one turn's dynamic program per turn.
    Field,
}

impl DoomStrategy {
    pub fn parse(spec: &str) -> Result<DoomStrategy, String> {
        let spec = spec.trim();
        if crate::specfile::is_path(spec) {
            return Self::from_file(Path::new(spec));
        }
        let (body, keep) = match spec.split_once('+') {
            None => (spec, Keep::Best),
            Some((b, "keep-all")) => (b, Keep::Most),
            Some((b, "keep-fewest")) => (b, Keep::Fewest),
            Some((b, "keep-best")) => (b, Keep::Best),
            Some((_, k)) => {
                return Err(format!(
                    "strategy '{spec}': unknown keep rule '+{k}' (expected +keep-all, +keep-fewest or +keep-best)"
                ))
            }
        };
        let (name, arg) = match body.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (body, None),
        };
        let threshold = |a: &str| -> Result<u32, String> {
            let t: u32 = a
                .trim()
                .parse()
                .map_err(|_| format!("strategy '{spec}': '{a}' is not a whole number of points"))?;
            if t > CAP_POINTS {
                return Err(format!(
                    "strategy '{spec}': threshold {t} is above the {CAP_POINTS}-point limit of the analysis"
                ));
            }
            Ok(t)
        };
        let multi = match name {
            "win-leader" => Some(Multi::Leader),
            "win-field" => Some(Multi::Field),
            _ => None,
        };
        if (arg, keep) == (None, Keep::Best) && (name == "win-optimal" || multi.is_some()) {
            return Ok(DoomStrategy {
                name: spec.to_string(),
                spec: spec.to_string(),
                policy: Policy::OPTIMAL,
                endgame: false,
                win: true,
                multi,
            });
        }
        let (bank, endgame) = match (name, arg) {
            ("optimal", None) => (BankRule::Optimal, false),
            ("bank-at", Some(a)) => (BankRule::Thresholds([threshold(a)?; 7]), false),
            ("endgame", Some(a)) => (BankRule::Thresholds([threshold(a)?; 7]), true),
            ("thresholds", Some(a)) => {
                let v = a
                    .split(',')
                    .map(threshold)
                    .collect::<Result<Vec<u32>, String>>()?;
                if v.len() != 6 {
                    return Err(format!(
                        "strategy '{spec}': thresholds needs 6 values (for 1,2,...,6 dice left), got {}",
                        v.len()
                    ));
                }
                let mut t = [0u32; 7];
                t[1..].copy_from_slice(&v);
                t[0] = t[6];
                (BankRule::Thresholds(t), false)
            }
            _ => {
                return Err(format!(
                    "unknown doom strategy '{}': expected optimal, bank-at:T, thresholds:T1,..,T6, \
                     endgame:T (each optionally +keep-all or +keep-fewest), win-optimal, win-leader, \
                     win-field or a strategy file path",
                    crate::door::input::quote(spec)
                ))
            }
        };
        Ok(DoomStrategy {
            name: spec.to_string(),
            spec: spec.to_string(),
            policy: Policy { bank, keep },
            endgame,
            win: false,
            multi: None,
        })
    }

    fn from_file(path: &Path) -> Result<DoomStrategy, String> {
        let (n, line) = crate::specfile::read_spec_line(path)?;
        let mut s = Self::parse(&line).map_err(|e| format!("{}:{n}: {e}", path.display()))?;
        s.name = format!("{} ({line})", path.display());
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let s = DoomStrategy::parse("bank-at:300").unwrap();
        assert_eq!(s.policy, Policy::bank_at(300));
        let s = DoomStrategy::parse("thresholds:1000,600,400,350,300,250+keep-all").unwrap();
        assert_eq!(s.policy.keep, Keep::Most);
        assert_eq!(
            s.policy.bank,
            BankRule::Thresholds([250, 1000, 600, 400, 350, 300, 250])
        );
        let e = DoomStrategy::parse("endgame:400").unwrap();
        // One threshold whatever the dice left (the endgame rule reads it so).
        assert!(e.endgame);
        assert_eq!(e.policy.bank, BankRule::Thresholds([400; 7]));
        let w = DoomStrategy::parse("win-optimal").unwrap();
        assert!(w.win && !w.endgame);
        assert!(!DoomStrategy::parse("optimal").unwrap().win);
        assert!(DoomStrategy::parse("win-optimal+keep-all").is_err());
        let l = DoomStrategy::parse("win-leader").unwrap();
        assert!(l.win && l.multi == Some(Multi::Leader));
        assert_eq!(
            DoomStrategy::parse("win-field").unwrap().multi,
            Some(Multi::Field)
        );
        assert!(DoomStrategy::parse("win-field:3").is_err());
        assert_eq!(
            DoomStrategy::parse("optimal").unwrap().policy,
            Policy::OPTIMAL
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        assert!(DoomStrategy::parse("bank-at:abc")
            .unwrap_err()
            .contains("not a whole number"));
        assert!(DoomStrategy::parse("thresholds:1,2")
            .unwrap_err()
            .contains("needs 6 values"));
        assert!(DoomStrategy::parse("yolo").unwrap_err().contains("unknown"));
        assert!(DoomStrategy::parse("bank-at:300+keep-some")
            .unwrap_err()
            .contains("keep rule"));
        assert!(DoomStrategy::parse("bank-at:99999999")
            .unwrap_err()
            .contains("limit"));
        assert!(DoomStrategy::parse("no/such/file.txt")
            .unwrap_err()
            .contains("no such file"));
    }
}
