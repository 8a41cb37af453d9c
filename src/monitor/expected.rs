//! The expected figures a log is held against, read from a report's JSON: an audit dossier's
//! `monitoring` object, a simulation report, or a game's own figures (`Reader`).

use serde::{Deserialize, Serialize};

use super::MonitorError;

/// What the periods are held against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expectation {
    pub rtp: f64,
    pub sd_per_round: f64,
    /// The most a round can pay back per amount wagered under the game's rules (the report's
    /// `max_return_per_wagered`): a period that returned more is a data error.
    pub max_return: f64,
    /// The strategy tier the figures are of (the audit's `monitoring.tier`), when stated.
    pub tier: Option<String>,
    /// Where it came from.
    pub source: String,
}

/// The largest amount (wagered or returned) one period may carry: far above any table's
/// turnover (sums of `MAX_PERIODS` periods stay far inside f64's range; like any f64 amount
/// they are exact to the cent only below about 9e13).
pub const MAX_AMOUNT: f64 = 1e15;

/// What any report says of itself, read before its figures.
#[derive(Deserialize)]
struct Head {
    game: Option<String>,
    interrupted: Option<bool>,
    /// An audit dossier's identity, which says whether its simulation was interrupted.
    identity: Option<IdentityHead>,
    count_key: Option<serde::de::IgnoredAny>,
    monitoring: Option<serde_json::Value>,
    rtp_total_wagered: Option<serde::de::IgnoredAny>,
}

/// What a dossier's `identity` says of its run.
#[derive(Deserialize)]
struct IdentityHead {
    interrupted: Option<bool>,
}

/// A dossier's `monitoring` object (`rtplab audit`).
#[derive(Deserialize)]
struct MonitoringFigures {
    rtp_total_wagered: f64,
    sd_per_round: f64,
    max_return_per_wagered: f64,
    tier: Option<String>,
}

/// A simulation report's figures per amount wagered.
#[derive(Deserialize)]
struct SimFigures {
    rtp_total_wagered: f64,
    rtp_total_wagered_se: f64,
    max_return_per_wagered: f64,
    /// The observations of the SE: seat-rounds (initial bets or rounds in reports without).
    seat_rounds: Option<f64>,
    initial_bets: Option<f64>,
    rounds: Option<f64>,
}

/// How to make a report that `monitor` reads, by its kind.
const HOW_AUDIT: &str = "make the dossier again with this version of rtplab (`rtplab audit blackjack --out-dir DIR` with the options that made it), whose `monitoring` object has every field";
const HOW_SIM: &str = "make the report again with this version of rtplab (`rtplab sim blackjack --out-dir DIR` with the options that made it), which states every field";

/// A game's reading of its own reports for `monitor` (`Game::MONITOR`), where they differ
/// from what every report states. The binary gives `monitor` the readers of its registry.
#[derive(Clone, Copy)]
pub struct Reader {
    /// The game (a report's `game`).
    pub game: &'static str,
    /// The figures of a report without a `monitoring` object, when the game's reports state
    /// them their own way (`None`: a simulation report's RTP per amount wagered and its SE);
    /// called with the report and its file name.
    pub figures: Option<ReadFigures>,
    /// The most a round can return per amount wagered under the rules the report states,
    /// which the report's own statement must equal.
    pub max_return: fn(&serde_json::Value) -> Result<f64, serde_json::Error>,
}

/// A game's reading of a report's figures (the report, its file name).
pub type ReadFigures = fn(&serde_json::Value, &str) -> Result<Figures, MonitorError>;

/// The expected figures a report gives, before they are checked.
pub struct Figures {
    pub rtp: f64,
    pub sd_per_round: f64,
    /// The report's `max_return_per_wagered`.
    pub max_return: f64,
    /// Where they came from (the file and what in it).
    pub source: String,
    /// How to make a report that states them all, for a message when one is missing.
    pub how: &'static str,
}

/// The error for a report `file` whose `what` cannot be read (`how`: how to make one that
/// can), from the reason serde gives.
pub fn incomplete<'a>(
    file: &'a str,
    what: &'static str,
    how: &'static str,
) -> impl Fn(serde_json::Error) -> MonitorError + 'a {
    move |e| MonitorError::Incomplete {
        file: file.into(),
        what,
        why: e.to_string(),
        how,
    }
}

impl Expectation {
    /// From a report's JSON text (`file` names it in errors); `readers` are the games' own
    /// readings of their reports (the registry's).
    pub fn from_json(
        text: &str,
        file: &str,
        readers: &[Reader],
    ) -> Result<Expectation, MonitorError> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| MonitorError::NotJson(file.into(), e.to_string()))?;
        let unsuitable = |why: &str| Err(MonitorError::Unsuitable(file.into(), why.into()));
        let head = Head::deserialize(&v).map_err(incomplete(file, "report", HOW_SIM))?;
        if head.interrupted == Some(true) {
            return unsuitable("the report is of an interrupted (partial) run: hold live results against a complete run's figures");
        }
        if head.identity.and_then(|i| i.interrupted) == Some(true) {
            return unsuitable("the dossier is of an interrupted (partial) audit: its simulation was stopped before the end; make it again and let it finish, or with `--rounds 0` for the exact figures alone");
        }
        if head.count_key.is_some() {
            return unsuitable("the report is of a card counter, whose bets vary with the count: the bands assume rounds of equal stakes; use a flat-betting report (the same strategy without --count)");
        }
        let reader = readers
            .iter()
            .find(|r| Some(r.game) == head.game.as_deref());
        let (f, tier) = if let Some(m) = &head.monitoring {
            let m = MonitoringFigures::deserialize(m).map_err(incomplete(
                file,
                "`monitoring` object",
                HOW_AUDIT,
            ))?;
            let f = Figures {
                rtp: m.rtp_total_wagered,
                sd_per_round: m.sd_per_round,
                max_return: m.max_return_per_wagered,
                source: format!("{file}: monitoring"),
                how: HOW_AUDIT,
            };
            (f, m.tier)
        } else if let Some(read) = reader.and_then(|r| r.figures) {
            (read(&v, file)?, None)
        } else if head.rtp_total_wagered.is_some() {
            (sim_figures(&v, file)?, None)
        } else {
            return Err(MonitorError::NoExpectation(file.into()));
        };
        let Figures {
            rtp,
            sd_per_round: sd,
            max_return: stated,
            source,
            how,
        } = f;
        if !(rtp.is_finite() && rtp > 0.0 && sd.is_finite() && sd > 0.0) {
            return Err(MonitorError::BadExpectation(file.into(), rtp, sd));
        }
        if !(stated.is_finite() && stated >= 1.0) {
            return unsuitable(&format!(
                "max_return_per_wagered {stated} is not a finite number of at least 1"
            ));
        }
        // The bound comes from the game's rules: where the report gives them, its statement
        // must be what they give.
        let ruled = reader
            .map(|r| (r.max_return)(&v))
            .transpose()
            .map_err(incomplete(file, "rules", how))?;
        if let Some(mx) = ruled.filter(|mx| (mx - stated).abs() > 1e-12 * mx) {
            return unsuitable(&format!(
                "max_return_per_wagered {stated} is not what its rules give ({mx}): the report was edited or made by another version; {how}"
            ));
        }
        if rtp > stated {
            return unsuitable(&format!(
                "the expected RTP per amount wagered {rtp} ({:.0}%) is more than a round can return ({stated}): RTPs are fractions (0.9954 for 99.54%)",
                rtp * 100.0
            ));
        }
        Ok(Expectation {
            rtp,
            sd_per_round: sd,
            max_return: stated,
            tier,
            source,
        })
    }
}

/// One wager of a dossier's `wagers` (`rtplab audit`): its exact RTP, SD and distribution of
/// the net result, per unit staked.
#[derive(Deserialize)]
struct WagerFigures {
    wager: String,
    tier: Option<String>,
    rtp_exact: f64,
    sd: f64,
    distribution: Vec<NetP>,
}

#[derive(Deserialize)]
struct NetP {
    net: f64,
}

#[derive(Deserialize)]
struct Wagers {
    wagers: Vec<WagerFigures>,
}

impl Expectation {
    /// The figures of one wager of a dossier (`monitor --wager NAME`): its exact RTP and SD
    /// per unit staked, and the most one stake returns (1 + its largest net result). `name`
    /// is the wager as the dossier names it, or a side bet's name (`21+3` for `side bet
    /// 21+3`).
    pub fn of_wager(text: &str, file: &str, name: &str) -> Result<Expectation, MonitorError> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| MonitorError::NotJson(file.into(), e.to_string()))?;
        let head = Head::deserialize(&v).map_err(incomplete(file, "report", HOW_AUDIT))?;
        if head.identity.and_then(|i| i.interrupted) == Some(true) {
            return Err(MonitorError::Unsuitable(file.into(), "the dossier is of an interrupted (partial) audit: make it again and let it finish, or with `--rounds 0` for the exact figures alone".into()));
        }
        let all = Wagers::deserialize(&v).map_err(|_| {
            MonitorError::Unsuitable(
                file.into(),
                format!("--wager {name} needs a dossier's wagers: make one with `rtplab audit blackjack --side {name} --out-dir DIR` and give its report.json"),
            )
        })?;
        let side = format!("side bet {name}");
        let found: Vec<&WagerFigures> = all
            .wagers
            .iter()
            .filter(|w| {
                w.wager == name || w.wager == side || w.wager.split(" (").next() == Some(name)
            })
            .collect();
        let w = match found[..] {
            [w] => w,
            [] => {
                let names: Vec<&str> = all
                    .wagers
                    .iter()
                    .filter(|w| w.tier.is_none())
                    .map(|w| {
                        let short = w.wager.split(" (").next().unwrap_or(&w.wager);
                        short.strip_prefix("side bet ").unwrap_or(short)
                    })
                    .collect();
                return Err(MonitorError::Unsuitable(
                    file.into(),
                    format!("the dossier has no wager '{name}'; its wagers of every tier, as --wager takes them: {} (a side bet is placed with `audit --side NAME`; the main bet is monitored without --wager)", names.join(", ")),
                ));
            }
            _ => {
                return Err(MonitorError::Unsuitable(
                    file.into(),
                    format!("the dossier has '{name}' once per strategy tier: monitor the main bet without --wager (its tier is the dossier's --monitor-tier)"),
                ))
            }
        };
        let top = w
            .distribution
            .iter()
            .map(|d| d.net)
            .fold(f64::NEG_INFINITY, f64::max);
        let (rtp, sd) = (w.rtp_exact, w.sd);
        if !(rtp.is_finite() && rtp > 0.0 && sd.is_finite() && sd > 0.0) {
            return Err(MonitorError::BadExpectation(file.into(), rtp, sd));
        }
        if !(top.is_finite() && top >= 0.0 && rtp <= 1.0 + top) {
            return Err(MonitorError::Unsuitable(
                file.into(),
                format!(
                    "the wager '{}' has no distribution that bounds what a stake returns",
                    w.wager
                ),
            ));
        }
        Ok(Expectation {
            rtp,
            sd_per_round: sd,
            max_return: 1.0 + top,
            tier: w.tier.clone(),
            source: format!(
                "{file}: {} (exact RTP and SD per unit staked; a round is one stake)",
                w.wager
            ),
        })
    }
}

/// A simulation report's figures: the RTP per amount wagered, and the SD per round from its
/// SE and observation count.
fn sim_figures(v: &serde_json::Value, file: &str) -> Result<Figures, MonitorError> {
    let read = incomplete(file, "simulation figures", HOW_SIM);
    let s = SimFigures::deserialize(v).map_err(&read)?;
    let Some(n) = s.seat_rounds.or(s.initial_bets).or(s.rounds) else {
        return Err(read(serde::de::Error::missing_field("seat_rounds")));
    };
    Ok(Figures {
        rtp: s.rtp_total_wagered,
        sd_per_round: s.rtp_total_wagered_se * n.sqrt(),
        max_return: s.max_return_per_wagered,
        source: format!("{file}: simulated RTP per amount wagered, SD per round from its SE"),
        how: HOW_SIM,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expectation from a report, read with the readers the binary registers.
    fn from_json(text: &str, file: &str) -> Result<Expectation, MonitorError> {
        let readers = [
            crate::games::blackjack::MONITOR,
            crate::games::baccarat::monitor::READER,
        ];
        Expectation::from_json(text, file, &readers)
    }

    /// The report `base` with `changes` made to its top-level keys (null: the key removed).
    fn with(base: &str, changes: serde_json::Value) -> String {
        let mut v: serde_json::Value = serde_json::from_str(base).unwrap();
        let top = v.as_object_mut().unwrap();
        for (k, x) in changes.as_object().unwrap() {
            if x.is_null() {
                top.remove(k);
            } else {
                top.insert(k.clone(), x.clone());
            }
        }
        v.to_string()
    }

    const BANKER: &str = include_str!("../../reports/baccarat-banker/report.json");

    #[test]
    fn expectations_from_a_report() {
        let e = from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.9954, "sd_per_round": 1.15, "max_return_per_wagered": 12}}"#,
            "r.json",
        )
        .unwrap();
        assert_eq!((e.rtp, e.sd_per_round), (0.9954, 1.15));
        // A simulation report: SD per round = SE · √n.
        let e = from_json(
            r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 1000000, "max_return_per_wagered": 12}"#,
            "s.json",
        )
        .unwrap();
        assert!((e.sd_per_round - 1.0).abs() < 1e-12);
        for bad in [
            "{",
            r#"{"rtp": 1}"#,
            r#"{"monitoring": {"rtp_total_wagered": 0.9}}"#,
        ] {
            assert!(from_json(bad, "b.json").is_err(), "{bad}");
        }
        let e = from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": -1, "max_return_per_wagered": 12}}"#,
            "b.json",
        )
        .unwrap_err();
        assert!(matches!(e, MonitorError::BadExpectation(..)));
        // The maximum return is read where stated (the audit's object, a simulation report).
        let e = from_json(
            r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
            "m.json",
        )
        .unwrap();
        assert_eq!(e.max_return, 12.0);
        assert_eq!(e.tier, None);
        let audit = r#"{"monitoring": {"tier": "basic", "rtp_total_wagered": 0.99, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#;
        assert_eq!(
            from_json(audit, "a.json").unwrap().tier.as_deref(),
            Some("basic")
        );
        let sim = r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "max_return_per_wagered": 12}"#;
        assert_eq!(from_json(sim, "s.json").unwrap().max_return, 12.0);
        // A flat baccarat bet: its exact RTP and the simulated SD per coup per unit staked;
        // a banker win pays 1:1 less 5%: at most 1.95 per amount wagered.
        let e = from_json(BANKER, "b.json").unwrap();
        assert_eq!(
            (e.rtp, e.sd_per_round, e.max_return),
            (0.989420942157528, 0.9273582206409534, 1.95)
        );
        let flat = |stake: u64, average: f64, pairs: u64| {
            let j = serde_json::json!({"max_stake": stake, "average_bet": average, "pairs": pairs, "rtp_exact": 0.98, "sd_coup": 4.5});
            with(BANKER, j)
        };
        let e = from_json(&flat(5, 5.0, 0), "b.json").unwrap();
        assert_eq!((e.rtp, e.sd_per_round), (0.98, 0.9));
        // Reports that cannot certify a band are refused, each saying why.
        let martingale = include_str!("../../reports/baccarat-martingale/report.json");
        let several = with(BANKER, serde_json::json!({"rtp_exact": null}));
        for (bad, why) in [
            (martingale, "whose bets vary"),
            (&flat(1, 1.0, 1), "pair bets"),
            (&several, "no exact RTP"),
            (
                r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "interrupted": true}"#,
                "interrupted",
            ),
            // An audit stopped in its simulation (its `monitoring` object is all there).
            (
                r#"{"identity": {"interrupted": true}, "monitoring": {"tier": "basic", "rtp_total_wagered": 0.99, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
                "interrupted (partial) audit",
            ),
            (
                r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "count_key": "true count"}"#,
                "equal stakes",
            ),
            // A percent where a fraction belongs: 9950%.
            (
                r#"{"monitoring": {"rtp_total_wagered": 99.5, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
                "RTPs are fractions",
            ),
            (
                r#"{"monitoring": {"rtp_total_wagered": 13, "sd_per_round": 1.1, "max_return_per_wagered": 12}}"#,
                "more than a round can return (12)",
            ),
            (
                r#"{"monitoring": {"rtp_total_wagered": 0.9, "sd_per_round": 1.1, "max_return_per_wagered": 0.5}}"#,
                "max_return_per_wagered 0.5",
            ),
        ] {
            let e = from_json(bad, "b.json").unwrap_err().to_string();
            assert!(
                e.starts_with("--expected b.json: ") && e.contains(why),
                "{e}"
            );
        }
    }

    #[test]
    fn the_bound_is_required_and_must_be_what_the_rules_give() {
        // Without the bound a period returning 1000 times its stake would get a verdict:
        // every kind of report must state it, and the error says how to make one that does.
        for (text, what, how) in [
            (
                r#"{"rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100}"#,
                "simulation figures",
                "rtplab sim blackjack",
            ),
            (
                r#"{"monitoring": {"rtp_total_wagered": 0.99, "sd_per_round": 1.1}}"#,
                "`monitoring` object",
                "rtplab audit blackjack",
            ),
            (
                &with(BANKER, serde_json::json!({"max_return_per_wagered": null})),
                "baccarat figures",
                "rtplab sim baccarat",
            ),
        ] {
            let e = from_json(text, "r.json").unwrap_err();
            assert!(matches!(e, MonitorError::Incomplete { .. }), "{e}");
            let e = e.to_string();
            assert!(
                e.starts_with(&format!("--expected r.json: cannot read its {what}:"))
                    && e.contains("max_return_per_wagered")
                    && e.contains(how),
                "{e}"
            );
        }
        // A report that gives its rules must state what they give: 1.95 for this banker bet,
        // 12 at any blackjack table (the pairs side bet's 11:1 and its stake).
        let forged = with(BANKER, serde_json::json!({"max_return_per_wagered": 1000}));
        let e = from_json(&forged, "b.json").unwrap_err().to_string();
        assert!(
            e.contains("max_return_per_wagered 1000 is not what its rules give (1.95)"),
            "{e}"
        );
        let rules = serde_json::to_value(crate::games::blackjack::rules::Rules::seed()).unwrap();
        let bj = |mx: f64| {
            serde_json::json!({"game": "blackjack", "rules": rules, "rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "max_return_per_wagered": mx}).to_string()
        };
        assert_eq!(from_json(&bj(12.0), "s.json").unwrap().max_return, 12.0);
        let e = from_json(&bj(1000.0), "s.json").unwrap_err().to_string();
        assert!(e.contains("not what its rules give (12)"), "{e}");
        let no_rules = serde_json::json!({"game": "blackjack", "rtp_total_wagered": 0.99, "rtp_total_wagered_se": 0.001, "seat_rounds": 100, "max_return_per_wagered": 12}).to_string();
        let e = from_json(&no_rules, "s.json").unwrap_err().to_string();
        assert!(
            e.contains("cannot read its rules: missing field `rules`"),
            "{e}"
        );
    }

    #[test]
    fn a_flat_banker_bet_without_an_sd_per_coup_is_refused_for_that() {
        // The exact analysis, a comparison and a baseline of the flat banker bet state no
        // stakes and no SD per coup: the refusal names that, not a staking plan whose bets
        // vary.
        let exact = crate::games::baccarat::exact_report::exact_model(
            &crate::games::baccarat::rules::BacRules::standard(),
            &[],
        );
        let exact = serde_json::to_string(&exact).unwrap();
        let baseline = include_str!("../../reports/baselines/baccarat-banker-cut-card.json");
        let compare = r#"{"game": "baccarat", "strategies": [], "pairs": []}"#;
        for (text, kind) in [
            (exact.as_str(), "the exact analysis"),
            (baseline, "a baseline"),
            (compare, "a comparison"),
        ] {
            let e = from_json(text, "b.json").unwrap_err().to_string();
            assert!(
                e.contains(&format!("the report is {kind}"))
                    && e.contains("no SD per coup")
                    && !e.contains("vary"),
                "{e}"
            );
        }
    }

    /// `--wager`: a side bet by its own name, a dossier's wager by its name before the
    /// brackets; the figures per unit staked and the bound from the largest net result.
    #[test]
    fn a_wager_is_read_from_a_dossiers_wagers() {
        let d = r#"{"game": "blackjack", "wagers": [
            {"wager": "main bet", "tier": "basic", "rtp_exact": 0.99, "sd": 1.1,
             "distribution": [{"net": -1, "p": 0.5}, {"net": 1.5, "p": 0.5}]},
            {"wager": "main bet", "tier": "optimal", "rtp_exact": 0.99, "sd": 1.1,
             "distribution": [{"net": -1, "p": 0.5}, {"net": 1.5, "p": 0.5}]},
            {"wager": "insurance (2:1, per insurance stake)", "tier": null, "rtp_exact": 0.925,
             "sd": 1.3855, "distribution": [{"net": -1, "p": 0.69}, {"net": 2, "p": 0.31}]},
            {"wager": "side bet 21+3", "tier": null, "rtp_exact": 0.963, "sd": 3.983,
             "distribution": [{"net": -1, "p": 0.9}, {"net": 100, "p": 0.1}]}]}"#;
        let e = Expectation::of_wager(d, "d.json", "21+3").unwrap();
        assert_eq!((e.rtp, e.sd_per_round, e.max_return), (0.963, 3.983, 101.0));
        assert!(e.source.contains("side bet 21+3"), "{}", e.source);
        let e = Expectation::of_wager(d, "d.json", "insurance").unwrap();
        assert_eq!((e.rtp, e.max_return), (0.925, 3.0));
        let err = Expectation::of_wager(d, "d.json", "perfect-pairs").unwrap_err();
        assert!(err.to_string().contains("insurance, 21+3"), "{err}");
        let err = Expectation::of_wager(d, "d.json", "main bet").unwrap_err();
        assert!(err.to_string().contains("once per strategy tier"), "{err}");
        let err =
            Expectation::of_wager(r#"{"rtp_total_wagered": 0.9}"#, "s.json", "21+3").unwrap_err();
        assert!(
            err.to_string().contains("audit blackjack --side 21+3"),
            "{err}"
        );
    }
}
