//! A counter's measures of a game: SCORE, N0, the certainty equivalent, and the bankroll for a
//! risk of ruin with the trips that check it.

/// SCORE of a game of `ev` and `sd` per round (in table minimums): 10^6 (ev/sd)², signed
/// (below 0 when EV < 0). It is what a Kelly bettor with a bankroll of 10,000 units expects
/// to win per 100 rounds, the measure of Blackjack Attack and CVCX.
pub fn score(ev: f64, sd: f64) -> f64 {
    1e6 * ev * ev.abs() / (sd * sd)
}

/// The bankroll whose lifetime risk of ruin is `ror` for a game of `ev` and `var` per round:
/// the Brownian formula RoR = e^(−2·ev·B/var) inverted, B = −var·ln(RoR)/(2·ev); `None`
/// unless EV > 0 (a losing game is ruined whatever the bankroll) and 0 < `ror` < 1.
pub fn bankroll_for_ror(ev: f64, var: f64, ror: f64) -> Option<f64> {
    (ev > 0.0 && ror > 0.0 && ror < 1.0).then(|| -var * ror.ln() / (2.0 * ev))
}

/// The certainty equivalent of one round, in units: EV less the risk cost var/(2·k·B), for
/// a bettor with bankroll `bankroll` and Kelly multiple `kelly` (the Arrow–Pratt
/// approximation for constant relative risk aversion 1/k: log utility, the full Kelly
/// bettor, at k = 1).
pub fn certainty_equivalent(ev: f64, var: f64, bankroll: f64, kelly: f64) -> f64 {
    ev - var / (2.0 * kelly * bankroll)
}

/// Trips that check [`bankroll_for_ror`]: `TRIP_CHECKS` bankroll paths from `bankroll`, each
/// a random walk of blocks of rounds whose net is normal with the run's EV and variance per
/// round (block SD `bankroll / TRIP_BLOCK_STEPS`), ended by ruin (0 or below) or by reaching
/// `TRIP_CEILING` times the bankroll.
pub const TRIP_CHECKS: u64 = 1000;
pub const TRIP_BLOCK_STEPS: f64 = 50.0;
pub const TRIP_CEILING: f64 = 3.0;

/// The outcome of the check trips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TripCheck {
    pub trips: u64,
    pub ruined: u64,
    /// Rounds in a block (fractional: the walk is a diffusion at that scale).
    pub block_rounds: f64,
    /// The formula's chance of the same event (ruin before the ceiling): (R − R^c)/(1 − R^c)
    /// for R the lifetime ruin of the bankroll and c the ceiling multiple.
    pub formula: f64,
}

/// Plays the check trips for a game of `ev` and `var` per round (EV > 0) from `bankroll`,
/// from a fixed stream of `seed`.
pub fn ror_trips(ev: f64, var: f64, bankroll: f64, seed: u64) -> TripCheck {
    use crate::rng::{RngCore, SeedableRng};
    let mut rng = crate::rng::Rng::seed_from_u64(seed);
    let block_sd = bankroll / TRIP_BLOCK_STEPS;
    let block_rounds = block_sd * block_sd / var;
    let drift = ev * block_rounds;
    let ceiling = TRIP_CEILING * bankroll;
    // Normal draws by Box–Muller, two a time.
    let mut spare: Option<f64> = None;
    let mut normal = move |rng: &mut crate::rng::Rng| -> f64 {
        if let Some(z) = spare.take() {
            return z;
        }
        let u = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let r = (-2.0 * u.ln()).sqrt();
        let a = std::f64::consts::TAU * v;
        spare = Some(r * a.sin());
        r * a.cos()
    };
    let mut ruined = 0;
    for _ in 0..TRIP_CHECKS {
        let mut level = bankroll;
        while level > 0.0 && level < ceiling {
            level += drift + block_sd * normal(&mut rng);
        }
        ruined += u64::from(level <= 0.0);
    }
    let r = (-2.0 * ev * bankroll / var).exp();
    let rc = r.powf(TRIP_CEILING);
    TripCheck {
        trips: TRIP_CHECKS,
        ruined,
        block_rounds,
        formula: (r - rc) / (1.0 - rc),
    }
}

/// N0 of a game of `ev` and `sd` per round: (sd/ev)², the rounds after which the expected
/// win is one SD; NaN unless EV > 0.
pub fn n0(ev: f64, sd: f64) -> f64 {
    if ev > 0.0 {
        (sd / ev).powi(2)
    } else {
        f64::NAN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bankroll_for_a_risk_of_ruin_inverts_the_formula() {
        use crate::stats::ruin_probability;
        for (ev, var) in [(0.0014, 10.67), (0.03, 31.0), (0.5, 1.0)] {
            for r in [1e-6, 0.01, 0.05, 0.135, 0.5, 0.9] {
                let b = bankroll_for_ror(ev, var, r).unwrap();
                let back = ruin_probability(ev, var.sqrt(), b, None);
                assert!(
                    (back - r).abs() < 1e-12 * r.max(1e-3),
                    "{ev} {var} {r}: {back}"
                );
            }
        }
        // 5% at EV 0.01 and variance 1: B = ln(20)/0.02.
        let b = bankroll_for_ror(0.01, 1.0, 0.05).unwrap();
        assert!((b - 20f64.ln() / 0.02).abs() < 1e-9, "{b}");
        assert_eq!(bankroll_for_ror(0.0, 1.0, 0.05), None);
        assert_eq!(bankroll_for_ror(-0.01, 1.0, 0.05), None);
        assert_eq!(bankroll_for_ror(0.01, 1.0, 1.0), None);
    }

    #[test]
    fn check_trips_agree_with_the_formula_within_their_se() {
        for (ev, var, r) in [
            (0.0014, 10.67, 0.05),
            (0.03, 31.0, 0.2),
            (0.002, 11.0, 0.01),
        ] {
            let b = bankroll_for_ror(ev, var, r).unwrap();
            let c = ror_trips(ev, var, b, 7);
            assert_eq!(c.trips, TRIP_CHECKS);
            let p = c.ruined as f64 / c.trips as f64;
            let se = (c.formula * (1.0 - c.formula) / c.trips as f64).sqrt();
            // The same event by the formula: ruin before the ceiling, just below the target.
            assert!(c.formula < r && c.formula > r * (1.0 - r.powi(2)), "{c:?}");
            assert!(
                (p - c.formula).abs() < 3.0 * se,
                "{r}: {p} vs {} ± {se}",
                c.formula
            );
            assert!((c.block_rounds * var).sqrt() - b / TRIP_BLOCK_STEPS < 1e-6 * b);
        }
    }

    #[test]
    fn the_certainty_equivalent_is_ev_less_the_risk_cost() {
        // EV 0.01, variance 10, bankroll 1000: full Kelly costs 10/2000 = 0.005 a round.
        assert!((certainty_equivalent(0.01, 10.0, 1000.0, 1.0) - 0.005).abs() < 1e-15);
        // Half Kelly is twice as averse: the cost doubles.
        assert!(certainty_equivalent(0.01, 10.0, 1000.0, 0.5).abs() < 1e-15);
    }
}
