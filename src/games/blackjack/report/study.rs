//! What a study reads of a blackjack simulation report (`rtplab study`): the figures of one
//! cell, by the names of the report model's fields (`SimModel`, its `CountingModel` flattened
//! into it); the test below ties each to the model's figure.

use serde::Deserialize;

use crate::study::{CellRun, Figure, Reader};

/// Blackjack's reading of its reports for studies: a cell is `sim blackjack` and its flags.
pub const STUDY: Reader = Reader {
    game: "blackjack",
    command: &["sim", "blackjack"],
    read,
};

#[derive(Deserialize)]
struct Fields {
    seed: u64,
    rounds: u64,
    elapsed_s: f64,
    interrupted: bool,
    rtp: f64,
    rtp_ci95: [f64; 2],
    ev: f64,
    ev_se: f64,
    ev_ci95: [f64; 2],
    sd_round: f64,
    avg_bet: f64,
    ev_per_round: Option<f64>,
    ev_per_round_se: Option<f64>,
    sd_per_round: Option<f64>,
    score: Option<f64>,
    score_se: Option<f64>,
    n0: Option<f64>,
    n0_se: Option<f64>,
}

/// The z of a two-sided 95% interval, for the counting figures whose report states an SE but
/// no interval (SCORE and N0 from the delta method, EV per round from batch means).
const Z95: f64 = 1.959_963_984_540_054;

fn read(v: &serde_json::Value) -> Result<CellRun, serde_json::Error> {
    let f = Fields::deserialize(v)?;
    let fig = |name: &str, value: f64, se: Option<f64>, ci95: Option<[f64; 2]>| Figure {
        name: name.into(),
        value,
        se,
        ci95,
    };
    let around = |value: f64, se: Option<f64>| se.map(|s| [value - Z95 * s, value + Z95 * s]);
    let mut figures = vec![
        fig("rtp", f.rtp, Some(f.ev_se), Some(f.rtp_ci95)),
        fig("ev", f.ev, Some(f.ev_se), Some(f.ev_ci95)),
        fig("sd_round", f.sd_round, None, None),
        fig("avg_bet", f.avg_bet, None, None),
    ];
    if let Some(ev) = f.ev_per_round {
        figures.push(fig(
            "ev_per_round",
            ev,
            f.ev_per_round_se,
            around(ev, f.ev_per_round_se),
        ));
    }
    if let Some(sd) = f.sd_per_round {
        figures.push(fig("sd_per_round", sd, None, None));
    }
    if let Some(score) = f.score {
        figures.push(fig("score", score, f.score_se, around(score, f.score_se)));
    }
    if let Some(n0) = f.n0.filter(|n| n.is_finite()) {
        figures.push(fig("n0", n0, f.n0_se, around(n0, f.n0_se)));
    }
    Ok(CellRun {
        seed: f.seed,
        rounds: f.rounds,
        elapsed_s: f.elapsed_s,
        interrupted: f.interrupted,
        figures,
    })
}

#[cfg(test)]
mod tests {
    use super::super::risk::tests::model;
    use super::*;
    use crate::games::blackjack::count::CountSpec;

    fn get<'a>(r: &'a CellRun, name: &str) -> Option<&'a Figure> {
        r.figures.iter().find(|f| f.name == name)
    }

    #[test]
    fn a_study_reads_the_figures_the_models_state() {
        let flat = model(None);
        let r = read(&serde_json::to_value(&flat).unwrap()).unwrap();
        assert_eq!((r.seed, r.rounds, r.interrupted), (3, flat.rounds, false));
        let rtp = get(&r, "rtp").unwrap();
        assert_eq!(rtp.value, flat.rtp);
        assert_eq!(rtp.ci95, Some(flat.rtp_ci95));
        assert_eq!(get(&r, "ev").unwrap().se, Some(flat.ev_se));
        assert!(get(&r, "score").is_none(), "a flat run has no SCORE");
        let m = model(Some(CountSpec::plain("hi-lo", "0:1,2:4,4:8")));
        let c = m.counting.clone().unwrap();
        let r = read(&serde_json::to_value(&m).unwrap()).unwrap();
        let score = get(&r, "score").unwrap();
        assert_eq!((score.value, score.se), (c.score, Some(c.score_se)));
        let [lo, hi] = score.ci95.unwrap();
        assert!((hi - lo - 2.0 * Z95 * c.score_se).abs() < 1e-9);
        assert_eq!(get(&r, "ev_per_round").unwrap().value, c.ev_per_round);
        assert_eq!(get(&r, "sd_per_round").unwrap().value, c.sd_per_round);
    }
}
