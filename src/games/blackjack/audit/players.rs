//! Typical players: basic strategy played with the mistakes of each preset
//! ([`AUDIT_PRESETS`]), simulated, beside the exact tiers, so that the dossier says how far
//! what a table returns is from its advertised maximum.

use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::super::mistakes::{ErrorModel, AUDIT_PRESETS};
use super::super::report::SideBets;
use super::super::rules::Shuffle;
use super::super::strategy::StrategySpec;
use super::super::{BjConfig, BjError, Blackjack};
use super::{AuditConfig, Tier, TierName};
use crate::audit::sim_chunk;

/// Each preset's tier simulates this share of the audit's rounds per tier (a twentieth: an
/// SE of about 0.05% at the default 100M, ample for gaps of tenths of a percent and more).
pub const PLAYER_ROUNDS_SHARE: u64 = 20;

/// One preset's simulated tier.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerTier {
    pub preset: String,
    /// The preset's rates in one line.
    pub mistakes: String,
    pub rounds: u64,
    pub seed: u64,
    pub interrupted: bool,
    /// The main bet's RTP per initial bet, its SE and 95% CI.
    pub rtp: f64,
    pub se: f64,
    pub ci95: [f64; 2],
    /// Insurance taken by mistake, net per initial bet (apart from the main bet), and its SE.
    pub insurance: f64,
    pub insurance_se: f64,
    /// The main bet's RTP less the optimal and the basic tiers' exact RTPs.
    pub vs_optimal: f64,
    pub vs_basic: f64,
}

/// The rounds of each preset's tier (0: none).
pub fn player_rounds(cfg: &AuditConfig) -> u64 {
    cfg.rounds / PLAYER_ROUNDS_SHARE
}

/// The preset tiers: basic (`basic`) with each preset's mistakes, one seat, every round from a
/// fresh shoe (the exact tiers' setting), the main bet alone; until a stop.
pub(super) fn player_tiers(
    cfg: &AuditConfig,
    basic: &StrategySpec,
    tiers: &[Tier],
    stop: &AtomicBool,
) -> Result<Vec<PlayerTier>, BjError> {
    let rounds = player_rounds(cfg);
    let mut out = Vec::new();
    if rounds == 0 {
        return Ok(out);
    }
    let exact = |name: TierName| {
        tiers
            .iter()
            .find(|t| t.tier == name)
            .map_or(f64::NAN, |t| t.rtp_exact)
    };
    for preset in AUDIT_PRESETS {
        if stop.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let errors = ErrorModel::preset(preset).expect("an audit preset is shipped");
        let mut rules = cfg.rules.clone();
        rules.shuffle = Shuffle::EveryRound;
        rules.players = 1;
        let mut bc = BjConfig::new(rules, basic.clone(), rounds);
        bc.tables = cfg.tables.clone();
        bc.bets = SideBets::none();
        bc.errors = Some(errors.clone());
        let spec_run = crate::game::RunSpec {
            seed: cfg.seed,
            threads: cfg.threads,
            progress: cfg.progress,
            chunk: Some(sim_chunk(rounds)),
            label: Some(format!("audit: simulating basic with {preset} mistakes")),
            ..Default::default()
        };
        let run = crate::game::simulate::<Blackjack>(bc, &spec_run, stop)?;
        if run.acc.counts.seat_rounds == 0 {
            break;
        }
        let m = super::super::game::run_model(&run, None)?;
        let line = m.errors.as_ref();
        out.push(PlayerTier {
            preset: preset.to_string(),
            mistakes: errors.describe(),
            rounds: m.seat_rounds,
            seed: cfg.seed,
            interrupted: run.meta.interrupted,
            rtp: m.rtp,
            se: m.ev_se,
            ci95: m.rtp_ci95,
            insurance: line.and_then(|l| l.insurance).unwrap_or(0.0),
            insurance_se: line.and_then(|l| l.insurance_se).unwrap_or(0.0),
            vs_optimal: m.rtp - exact(TierName::Optimal),
            vs_basic: m.rtp - exact(TierName::Basic),
        });
    }
    Ok(out)
}
