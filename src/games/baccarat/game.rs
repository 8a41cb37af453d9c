//! Baccarat as a [`Game`]: configuration, plan, simulation (one concrete bettor type per
//! run), report, baselines.

use serde::{Deserialize, Serialize};

use super::bet::{BetSpec, Bettor, Flat, Follow, Martingale, Spot};
use super::exact::Exact;
use super::report::{model, plots, render};
use super::rules::BacRules;
use super::sim::{plan, BacAcc, BacSim, Plan, MAX_TABLE};
use super::BacError;
use crate::game::{percent4, BoxedSim, Expected, Game, Headline, HeadlineKind, Run};
use crate::report::{PlotError, Report};

/// Baccarat (punto banco).
pub struct Baccarat;

/// Most coups of one run.
pub const MAX_COUPS: u64 = 1_000_000_000_000_000;

/// A baccarat run request: rules, the bettor and its stakes, the coups.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BacConfig {
    pub rules: BacRules,
    /// The betting strategy of the main bet.
    pub bet: BetSpec,
    /// The base stake of the main bet, in units (the table minimum is 1).
    pub unit: u64,
    /// The table maximum of a bet, in units.
    pub table_max: u64,
    /// Stake on each of the player pair and banker pair bets every coup (0: none).
    pub pairs: u64,
    pub coups: u64,
    /// Side bets from paytables (`--side`), one stake each every coup; absent: none (and the
    /// key is unchanged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<crate::sidebet::SideBet>,
}

impl BacConfig {
    /// `coups` coups of one unit on `bet` under `rules`, table maximum 500, no pair bets.
    pub fn new(rules: BacRules, bet: BetSpec, coups: u64) -> BacConfig {
        BacConfig {
            rules,
            bet,
            unit: 1,
            table_max: 500,
            pairs: 0,
            coups,
            sides: Vec::new(),
        }
    }
}

fn boxed<B: Bettor>(
    cfg: &BacConfig,
    bettor: B,
    chunk: Option<u64>,
) -> Result<(Plan, BoxedSim<BacAcc>), BacError> {
    let exact = Exact::of(cfg.rules.decks);
    let p = plan(&cfg.rules, exact.cards_per_coup, cfg.coups, chunk);
    if let Some(c) = chunk {
        let sessions = p.chunks * p.sessions_per_chunk;
        let needed = ((cfg.coups as f64 / p.coups_per_session).ceil() as u64).max(1);
        if c > needed {
            return Err(BacError::ChunkTooLarge {
                chunk: c,
                sessions: needed.min(sessions),
            });
        }
    }
    let sim = BacSim {
        rules: cfg.rules.clone(),
        bettor,
        pairs: cfg.pairs as i64,
        sessions_per_chunk: p.sessions_per_chunk,
        sides: cfg.sides.clone(),
    };
    Ok((p, Box::new(sim)))
}

impl Game for Baccarat {
    const NAME: &'static str = "baccarat";
    type Config = BacConfig;
    type Plan = Plan;
    type Acc = BacAcc;
    type Error = BacError;
    type Baseline = BacBaseline;

    fn label(cfg: &BacConfig) -> crate::game::Label {
        crate::game::Label {
            name: cfg.bet.to_string(),
            hash: None,
        }
    }

    fn wagers(cfg: &BacConfig) -> Vec<crate::game::WagerInfo> {
        cfg.sides
            .iter()
            .map(|b| crate::game::WagerInfo {
                name: b.label(),
                exact_rtp: super::sidebets::exact(&b.table, cfg.rules.decks).rtp,
            })
            .collect()
    }
    fn wager_sums(cfg: &BacConfig, acc: &BacAcc) -> Vec<crate::stats::Ratio> {
        let mut v = acc.sides.clone();
        v.resize(cfg.sides.len(), Default::default());
        v
    }

    const MONITOR: Option<crate::monitor::Reader> = Some(super::monitor::READER);

    fn chunk_unit(_cfg: &BacConfig) -> &'static str {
        "shoes"
    }
    fn rules_line(cfg: &BacConfig) -> String {
        cfg.rules.describe()
    }

    fn headline_kind(_cfg: &BacConfig) -> HeadlineKind {
        HeadlineKind {
            what: "EV per unit wagered (main bet)",
            unit: "fraction",
            format: percent4,
            claims: true,
            score: false,
            scale: 1.0,
        }
    }

    fn headline(_cfg: &BacConfig, acc: &BacAcc) -> Headline {
        Headline {
            ratio: acc.main,
            count: acc.counts.coups,
        }
    }

    fn validate(cfg: &BacConfig) -> Result<(), BacError> {
        cfg.rules.validate().map_err(BacError::Rules)?;
        if cfg.table_max < 1 || cfg.table_max > MAX_TABLE {
            return Err(BacError::Bet(format!(
                "--table-max {}: the table maximum must be from the table minimum 1 to {MAX_TABLE} units",
                cfg.table_max
            )));
        }
        if cfg.unit < 1 || cfg.unit > cfg.table_max {
            return Err(BacError::Bet(format!(
                "--unit {}: the stake must be from the table minimum 1 to the table maximum {} (--table-max)",
                cfg.unit, cfg.table_max
            )));
        }
        if cfg.pairs > cfg.table_max {
            return Err(BacError::Bet(format!(
                "--pairs {}: a pair bet may not exceed the table maximum {} (--table-max)",
                cfg.pairs, cfg.table_max
            )));
        }
        if cfg.coups == 0 || cfg.coups > MAX_COUPS {
            return Err(BacError::Coups(cfg.coups));
        }
        Ok(())
    }

    /// One `match` picks the concrete bettor type; the coup loop is monomorphized for it.
    fn prepare(
        cfg: &BacConfig,
        _seed: u64,
        chunk: Option<u64>,
        _shards: u64,
    ) -> Result<(Plan, BoxedSim<BacAcc>), BacError> {
        let unit = cfg.unit as i64;
        match cfg.bet {
            BetSpec::Flat(spot) => boxed(cfg, Flat { spot, unit }, chunk),
            BetSpec::Follow => boxed(
                cfg,
                Follow {
                    unit,
                    next: Spot::Banker,
                },
                chunk,
            ),
            BetSpec::Martingale(spot) => boxed(
                cfg,
                Martingale {
                    spot,
                    unit,
                    max: cfg.table_max as i64,
                    stake: unit,
                },
                chunk,
            ),
        }
    }

    fn report(run: &Run<Baccarat>, claim: Option<f64>) -> Result<Report, BacError> {
        Ok(render(&model(run, claim)))
    }

    fn plots(run: &Run<Baccarat>, claim: Option<f64>) -> Result<Vec<(String, String)>, PlotError> {
        plots(run, claim).map_err(PlotError)
    }
}

/// A baccarat baseline of `check`: a small fixed run with its exact sums and expected value.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BacBaseline {
    pub rules: BacRules,
    pub bet: BetSpec,
    pub unit: u64,
    pub table_max: u64,
    #[serde(default)]
    pub pairs: u64,
    pub coups: u64,
    /// Shoes (sessions) per chunk.
    pub chunk_shoes: u64,
    /// Side bets placed every coup (`--side` values, built-in names), each checked against its
    /// exact RTP.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<crate::game::SideEntry>,
}

impl crate::game::Chunks for Plan {
    fn chunks(&self) -> u64 {
        self.chunks
    }
    fn chunk_size(&self) -> u64 {
        self.sessions_per_chunk
    }
}

impl crate::game::Baseline<Baccarat> for BacBaseline {
    fn run(&self) -> Result<(BacConfig, u64), BacError> {
        let cfg = BacConfig {
            rules: self.rules.clone(),
            bet: self.bet,
            unit: self.unit,
            table_max: self.table_max,
            pairs: self.pairs,
            coups: self.coups,
            sides: crate::sidebet::baseline_sides(&self.sides, crate::sidebet::Game::Baccarat)?,
        };
        Baccarat::validate(&cfg)?;
        Ok((cfg, self.chunk_shoes))
    }

    fn side_z(&self) -> Vec<Option<f64>> {
        self.sides.iter().map(|s| s.z).collect()
    }

    fn sums(acc: &BacAcc) -> serde_json::Value {
        let c = &acc.counts;
        let o = |i: usize| acc.outcomes[i].x.to_string();
        serde_json::json!({
            "coups": c.coups,
            "sessions": c.sessions,
            "cards": c.cards,
            "net_milli": acc.main.x.to_string(),
            "wagered_milli": acc.main.y.to_string(),
            "round_net_squares": acc.round.xx.to_string(),
            "pairs_net_milli": (acc.spots[3].x + acc.spots[4].x).to_string(),
            "banker_wins": o(0),
            "player_wins": o(1),
            "ties": o(2),
            "limit_hits": c.limit_hits,
            "max_stake": c.max_stake,
            "worst_session_milli": acc.worst_session,
        })
    }

    /// The exact EV per unit wagered of a strategy that bets one spot (whatever its stakes:
    /// each coup's EV is its stake times the spot's EV). Exact for a shoe shuffled every coup;
    /// with a cut card the full-shoe value differs from the run's by far less than the SE
    /// of any feasible run. None for `follow`, whose mix of spots depends on the results.
    fn expected(cfg: &BacConfig) -> Result<Option<Expected>, BacError> {
        if !cfg.rules.shuffler.is_uniform() {
            return Ok(None);
        }
        Ok(cfg.bet.spot().map(|s| Expected {
            ev: Exact::of(cfg.rules.decks).ev(s, &cfg.rules),
            source: format!(
                "exact EV of the {} bet (complete enumeration of the full shoe)",
                s.name()
            ),
        }))
    }
}
