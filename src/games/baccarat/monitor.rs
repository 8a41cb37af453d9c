//! How `monitor` reads a baccarat report: one flat bet's exact RTP and its simulated SD per
//! coup per unit staked (a tie is a coup wagered whose stake comes back, so the log counts
//! ties as rounds and their stakes as wagered and returned), and the bound on a coup's return
//! from the rules and bets the report states.

use serde::Deserialize;

use crate::monitor::{incomplete, Figures, MonitorError, Reader};

/// Baccarat's reading of its reports.
pub const READER: Reader = Reader {
    game: "baccarat",
    figures: Some(figures),
    max_return,
};

const HOW: &str = "make the report again with this version of rtplab (`rtplab sim baccarat --bet banker --out-dir DIR` with the options that made it), which states every field";

/// A baccarat run report's figures.
#[derive(Deserialize)]
struct RunFigures {
    pairs: u64,
    max_stake: u64,
    average_bet: f64,
    rtp_exact: Option<f64>,
    sd_coup: f64,
    max_return_per_wagered: f64,
}

/// A baccarat run report's rules and bets.
#[derive(Deserialize)]
struct RulesAndBets {
    rules: super::rules::BacRules,
    bet: super::bet::BetSpec,
    pairs: u64,
}

fn figures(v: &serde_json::Value, file: &str) -> Result<Figures, MonitorError> {
    let unsuitable = |why: &str| Err(MonitorError::Unsuitable(file.into(), why.into()));
    if v.get("sd_coup").is_none_or(|x| x.is_null()) {
        let kind = [
            ("cards_per_coup", "the exact analysis (`exact baccarat`)"),
            ("strategies", "a comparison (`compare baccarat`)"),
            ("sums", "a baseline of `check`"),
        ]
        .iter()
        .find(|(key, _)| v.get(key).is_some())
        .map_or("not a simulation report", |(_, kind)| kind);
        return unsuitable(&format!("the report is {kind}, which gives no SD per coup of one bet: hold the log against a simulation report of one flat bet (`rtplab sim baccarat --bet banker --out-dir DIR`: the bet's exact RTP and its SD per coup)"));
    }
    let b = RunFigures::deserialize(v).map_err(incomplete(file, "baccarat figures", HOW))?;
    // A coup's SD is of the net of all its bets; per amount wagered only when the one main
    // bet is the same every coup and nothing else is bet.
    if b.pairs != 0 {
        return unsuitable("the report is of a baccarat run with pair bets beside the main bet: a coup's SD is then not per amount wagered; use a report of the main bet alone (without --pairs)");
    }
    let stake = b.max_stake as f64;
    if !(stake > 0.0 && b.average_bet == stake) {
        return unsuitable("the report is of a baccarat staking plan whose bets vary (the bands assume coups of equal stakes): use a flat-betting report (a plain bet such as banker)");
    }
    let Some(rtp) = b.rtp_exact else {
        return unsuitable("the report gives no exact RTP of one bet (a plan over several spots)");
    };
    Ok(Figures {
        rtp,
        sd_per_round: b.sd_coup / stake,
        max_return: b.max_return_per_wagered,
        source: format!("{file}: the bet's exact RTP, SD per coup from the simulation"),
        how: HOW,
    })
}

fn max_return(v: &serde_json::Value) -> Result<f64, serde_json::Error> {
    let b = RulesAndBets::deserialize(v)?;
    Ok(b.bet.max_return_per_wagered(&b.rules, b.pairs))
}
