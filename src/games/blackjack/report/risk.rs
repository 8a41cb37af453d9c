//! What `risk` reads of a blackjack simulation report (`Game::RISK`): the EV and SD per round,
//! in table minimums. A counting run states them per round the counter played (all its spots,
//! insurance included); a flat run per seat-round, the main bet only.

use serde::Deserialize;

use crate::risk::{Reader, Stated};

/// Blackjack's reading of its reports for `risk`.
pub const RISK: Reader = Reader {
    game: "blackjack",
    read,
};

/// The fields of a report (`SimModel`, its `CountingModel` flattened into it) that `risk`
/// reads, by their model's names; the test below ties each to the model's figure, so that a
/// renamed field fails it rather than reading nothing.
#[derive(Deserialize)]
struct PerRoundFields {
    sd_round: f64,
    ev: f64,
    ev_se: f64,
    avg_bet: f64,
    interrupted: bool,
    ev_per_round: Option<f64>,
    ev_per_round_se: Option<f64>,
    sd_per_round: Option<f64>,
    hourly: Option<HourlyFields>,
}

#[derive(Deserialize)]
struct HourlyFields {
    rounds_played_per_hour: f64,
}

/// The EV and SD per round a blackjack report states.
fn read(v: &serde_json::Value) -> Result<Stated, serde_json::Error> {
    let f = PerRoundFields::deserialize(v)?;
    Ok(match (f.ev_per_round, f.sd_per_round) {
        (Some(ev), Some(sd)) => Stated {
            ev,
            ev_se: f.ev_per_round_se,
            sd,
            what: "per round the counter played (all its spots, insurance included), in table minimums: ev_per_round, sd_per_round".into(),
            rounds_per_hour: f.hourly.map(|h| h.rounds_played_per_hour),
            interrupted: f.interrupted,
        },
        _ => Stated {
            ev: f.ev * f.avg_bet,
            ev_se: Some(f.ev_se * f.avg_bet),
            sd: f.sd_round,
            what: "per seat-round, the main bet only, in initial bets: ev × avg_bet, sd_round"
                .into(),
            rounds_per_hour: None,
            interrupted: f.interrupted,
        },
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::games::blackjack::count::CountSpec;
    use crate::games::blackjack::resolve::seed_chart;
    use crate::games::blackjack::rules::Rules;
    use crate::games::blackjack::strategy::StrategySpec;
    use crate::games::blackjack::{BjConfig, Blackjack};

    /// The model of a short run of the seed table (counting with `count`), seed 3 (the
    /// report modules' tests share it).
    pub(in crate::games::blackjack::report) fn model(
        count: Option<CountSpec>,
    ) -> super::super::SimModel {
        let mut cfg = BjConfig::new(
            Rules::seed(),
            StrategySpec::Chart(Box::new(seed_chart())),
            20_000,
        );
        cfg.count = count;
        let spec = crate::game::RunSpec {
            seed: 3,
            threads: Some(1),
            chunk: None,
            shard: None,
            shard_out: None,
            progress: false,
            checkpoint: None,
            label: None,
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let run = crate::game::simulate::<Blackjack>(cfg, &spec, &stop).unwrap();
        crate::games::blackjack::game::run_model(&run, None).unwrap()
    }

    #[test]
    fn risk_reads_the_figures_the_models_state() {
        let flat = model(None);
        let s = read(&serde_json::to_value(&flat).unwrap()).unwrap();
        assert_eq!(s.ev, flat.ev * flat.avg_bet);
        assert_eq!(s.ev_se, Some(flat.ev_se * flat.avg_bet));
        assert_eq!(s.sd, flat.sd_round);
        assert!(s.sd > 1.0 && s.sd < 1.3, "{}", s.sd);
        assert_eq!((s.rounds_per_hour, s.interrupted), (None, false));
        let counter = CountSpec::plain("hi-lo", "0:1,2:4,4:8");
        let m = model(Some(counter));
        let c = m.counting.clone().unwrap();
        let s = read(&serde_json::to_value(&m).unwrap()).unwrap();
        assert_eq!(s.ev, c.ev_per_round);
        assert_eq!(s.ev_se, Some(c.ev_per_round_se));
        assert_eq!(s.sd, c.sd_per_round);
        assert_ne!(s.sd, flat.sd_round);
        let pace = c.hourly.map(|h| h.rounds_played_per_hour);
        assert!(pace.is_some());
        assert_eq!(s.rounds_per_hour, pace);
    }

    #[test]
    fn a_report_without_the_figures_is_refused_naming_the_field() {
        let e = read(&serde_json::json!({"game": "blackjack", "ev": -0.006})).unwrap_err();
        assert!(e.to_string().contains("missing field"), "{e}");
    }
}
