//! The closed forms of a bankroll's walk: a game of EV `ev` (μ) and variance `var` (σ², the
//! SD about the mean squared) per round, played from a bankroll of B units, taken as Brownian
//! motion with drift μ and variance σ² per round (the diffusion limit of many rounds). Each
//! is held to a published example in the tests, and `walk.rs` checks each by simulating the
//! same walk.

use statrs::distribution::{ContinuousCDF, Normal};

/// Probability that a random walk with drift `mu` and SD `sd` per step, starting at `bank`,
/// falls to 0 within `n` steps (`n` = ∞: ever), by the Brownian approximation:
/// Φ((−b − μn)/(σ√n)) + e^(−2μb/σ²) Φ((−b + μn)/(σ√n)); ever: e^(−2μb/σ²) for μ > 0, else 1.
pub fn ruin_probability(mu: f64, sd: f64, bank: f64, n: Option<f64>) -> f64 {
    let k = (-2.0 * mu * bank / (sd * sd)).exp();
    let Some(n) = n else {
        return if mu > 0.0 { k } else { 1.0 };
    };
    if n <= 0.0 {
        return 0.0;
    }
    let s = sd * n.sqrt();
    let x = (-bank + mu * n) / s;
    let tail = if k.is_finite() {
        k * phi(x)
    } else {
        // A strong negative drift: e^(2|μ|b/σ²) overflows while Φ(x) underflows; their
        // product, taken in logarithms, does neither.
        (-2.0 * mu * bank / (sd * sd) + ln_phi(x)).exp()
    };
    (phi((-bank - mu * n) / s) + tail).min(1.0)
}

/// The standard normal CDF.
fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// ln Φ(x), also far in the lower tail, where Φ(x) underflows: there by the asymptotic
/// series of Mills's ratio, Φ(x) ≈ φ(x)/|x| · (1 − 1/x² + 3/x⁴ − 15/x⁶).
fn ln_phi(x: f64) -> f64 {
    if x > -30.0 {
        return phi(x).ln();
    }
    let z = x * x;
    let series = 1.0 - 1.0 / z + 3.0 / (z * z) - 15.0 / (z * z * z);
    -z / 2.0 - (-x * (2.0 * std::f64::consts::PI).sqrt()).ln() + series.ln()
}

/// 2μ/σ²: the walk's drift against its variance, the rate of every exponential here.
fn rate(ev: f64, var: f64) -> f64 {
    2.0 * ev / var
}

/// P(the walk from `bank` reaches `bank + goal` before 0): the double barrier,
/// (1 − e^(−2μB/σ²)) / (1 − e^(−2μ(B+G)/σ²)), and B/(B+G) when μ = 0.
pub fn goal_probability(ev: f64, var: f64, bank: f64, goal: f64) -> f64 {
    let c = rate(ev, var);
    let whole = bank + goal;
    if c == 0.0 {
        bank / whole
    } else if c > 0.0 {
        (-c * bank).exp_m1() / (-c * whole).exp_m1()
    } else {
        // The same, multiplied through by e^(c(B+G)) so that nothing overflows.
        (c * goal).exp() * (c * bank).exp_m1() / (c * whole).exp_m1()
    }
}

/// P(the walk from `bank` falls to 0 before it reaches `bank + goal`): 1 − the goal's
/// probability, computed directly so that a small risk keeps its digits.
pub fn ruin_before_goal(ev: f64, var: f64, bank: f64, goal: f64) -> f64 {
    let c = rate(ev, var);
    let whole = bank + goal;
    if c == 0.0 {
        goal / whole
    } else if c > 0.0 {
        (-c * bank).exp() * (-c * goal).exp_m1() / (-c * whole).exp_m1()
    } else {
        (c * goal).exp_m1() / (c * whole).exp_m1()
    }
}

/// The bankroll whose lifetime risk of ruin is `ror` for a game of `ev` and `var` per round:
/// the Brownian formula RoR = e^(−2·ev·B/var) inverted, B = −var·ln(RoR)/(2·ev); `None`
/// unless EV > 0 (a losing game is ruined whatever the bankroll) and 0 < `ror` < 1.
pub fn bankroll_for_ror(ev: f64, var: f64, ror: f64) -> Option<f64> {
    (ev > 0.0 && ror > 0.0 && ror < 1.0).then(|| -var * ror.ln() / (2.0 * ev))
}

/// The bankroll whose risk of ruin before doubling is `ror`: with the goal equal to the
/// bankroll the double barrier is R/(1 + R) for R the lifetime risk, so
/// B = var·ln(1/ror − 1)/(2·ev); `None` unless EV > 0 and 0 < `ror` < 1/2 (a winning game
/// doubles first more often than not, whatever the bankroll).
pub fn bankroll_to_double_for_ror(ev: f64, var: f64, ror: f64) -> Option<f64> {
    (ev > 0.0 && ror > 0.0 && ror < 0.5).then(|| var * (1.0 / ror - 1.0).ln() / (2.0 * ev))
}

/// SCORE of a game of `ev` and `sd` per round (in table minimums): 10^6 (ev/sd)², signed
/// (below 0 when EV < 0). It is what a Kelly bettor with a bankroll of 10,000 units expects
/// to win per 100 rounds, the measure of Blackjack Attack and CVCX.
pub fn score(ev: f64, sd: f64) -> f64 {
    1e6 * ev * ev.abs() / (sd * sd)
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

/// The standard errors of SCORE, N0 and DI = 1000·ev/sd for an EV per round `ev` with SE
/// `ev_se` and an SD per round `sd`, by the delta method: each figure's slope in the EV times
/// the EV's SE (SCORE 2·10^6·|ev|/sd², N0 2·sd²/ev³, DI 1000/sd). The SD's own sampling error
/// is left out: its relative error, about √((κ − 1)/n) for a kurtosis κ, is far below the
/// EV's, sd/(|ev|·√n), when |ev| is a small fraction of sd (a counter's 0.01–0.05). N0's SE is
/// NaN unless EV > 0, as N0 is.
pub fn edge_ses(ev: f64, sd: f64, ev_se: f64) -> EdgeSes {
    let var = sd * sd;
    EdgeSes {
        score: score_slope(ev, sd) * ev_se,
        n0: if ev > 0.0 {
            2.0 * var / (ev * ev * ev) * ev_se
        } else {
            f64::NAN
        },
        di: 1000.0 * ev_se / sd,
    }
}

/// The slope of SCORE in the EV per round: 2·10^6·|ev|/sd² (what turns an SE of the EV into
/// one of SCORE).
pub fn score_slope(ev: f64, sd: f64) -> f64 {
    2e6 * ev.abs() / (sd * sd)
}

/// The SEs of SCORE, N0 and DI ([`edge_ses`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeSes {
    pub score: f64,
    pub n0: f64,
    pub di: f64,
}

/// The certainty equivalent of one round, in units: EV less the risk cost var/(2·k·B), for
/// a bettor with bankroll `bankroll` and Kelly multiple `kelly` (the Arrow–Pratt
/// approximation for constant relative risk aversion 1/k: log utility, the full Kelly
/// bettor, at k = 1).
pub fn certainty_equivalent(ev: f64, var: f64, bankroll: f64, kelly: f64) -> f64 {
    ev - var / (2.0 * kelly * bankroll)
}

/// P(the walk, with no floor, is ever `bank` above its start): 1 for EV ≥ 0, e^(2μB/σ²) below.
pub fn double_probability(ev: f64, var: f64, bank: f64) -> f64 {
    ruin_probability(-ev, var.sqrt(), bank, None)
}

/// P(the walk, with no floor, has been `bank` above its start within `rounds`): the first
/// passage to +B, which is the ruin of the mirrored walk (drift −μ) from B.
pub fn doubled_by(ev: f64, var: f64, bank: f64, rounds: f64) -> f64 {
    ruin_probability(-ev, var.sqrt(), bank, Some(rounds))
}

/// The mean rounds until the walk (no floor) first stands `bank` above its start: B/ev, which
/// is also the rounds after which the expected win equals the bankroll (Wald's identity);
/// `None` unless EV > 0 (the mean is infinite).
pub fn rounds_to_double_mean(ev: f64, bank: f64) -> Option<f64> {
    (ev > 0.0).then(|| bank / ev)
}

/// The median rounds until the walk (no floor) first stands `bank` above its start: the t
/// with `doubled_by` = 1/2 (the inverse Gaussian's median, found by bisection); `None`
/// when the walk doubles at all with probability 1/2 or less.
pub fn rounds_to_double_median(ev: f64, var: f64, bank: f64) -> Option<f64> {
    if double_probability(ev, var, bank) <= 0.5 {
        return None;
    }
    let f = |t: f64| doubled_by(ev, var, bank, t) - 0.5;
    // Bracket in powers of two from one round, then bisect on the logarithm.
    let (mut lo, mut hi) = (1.0f64, 1.0f64);
    while f(lo) > 0.0 && lo > 1e-12 {
        lo /= 2.0;
    }
    while f(hi) < 0.0 {
        hi *= 2.0;
        if hi > 1e300 {
            return None;
        }
    }
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi / lo - 1.0 < 1e-13 {
            break;
        }
    }
    Some((lo * hi).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Michael Hall's "Risk of Ruin", section I, after Griffin's Theory of
    /// Blackjack: win per hand wph = 0.0151 units, average squared win asw = s² + wph² =
    /// 3.887, a bankroll of 300 units and the goal of doubling it. Hall plays a biased coin of
    /// stake √asw, P(heads) = 0.5 + wph/(2√asw), whose steps have the game's mean and its
    /// variance s² = asw − wph², and prints R = 9.0%.
    const WPH: f64 = 0.0151;
    const ASW: f64 = 3.887;

    /// Hall's coin walk, in his notation: R = (1 − S^b)/(1 − S^(a+b)), S = P/(1 − P), a and b
    /// the bankroll and goal over √asw.
    fn hall_coin(wph: f64, asw: f64, bank: f64, goal: f64) -> f64 {
        let p = 0.5 + wph / (2.0 * asw.sqrt());
        let s = p / (1.0 - p);
        let (a, b) = (bank / asw.sqrt(), goal / asw.sqrt());
        (1.0 - s.powf(b)) / (1.0 - s.powf(a + b))
    }

    #[test]
    fn edge_ses_are_each_figures_slope_in_the_ev_times_its_se() {
        // Central differences of SCORE, N0 and DI in the EV against the closed slopes.
        let (sd, se) = (3.1, 0.0004);
        for ev in [0.012, 0.05, -0.02] {
            let h = 1e-7;
            let slope = |f: &dyn Fn(f64) -> f64| (f(ev + h) - f(ev - h)) / (2.0 * h);
            let got = edge_ses(ev, sd, se);
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1e-12);
            assert!(
                close(got.score, slope(&|e| score(e, sd)).abs() * se),
                "{ev}"
            );
            assert!(
                close(got.di, slope(&|e| 1000.0 * e / sd).abs() * se),
                "{ev}"
            );
            if ev > 0.0 {
                assert!(close(got.n0, slope(&|e| n0(e, sd)).abs() * se), "{ev}");
            } else {
                assert!(got.n0.is_nan());
            }
        }
        // Hi-Lo's 1-12 ramp scale: EV 0.03 units a round, SD 3, SE 0.001 gives SCORE 100 ± 6.7.
        let g = edge_ses(0.03, 3.0, 0.001);
        assert!((score(0.03, 3.0) - 100.0).abs() < 1e-9);
        assert!((g.score - 6.6667).abs() < 1e-4, "{}", g.score);
    }

    #[test]
    fn halls_example_ruin_before_doubling_300_units_is_8_86_percent() {
        // The variance is asw − wph² (asw is the second moment about zero): 8.8589%.
        let var = ASW - WPH * WPH;
        let r = ruin_before_goal(WPH, var, 300.0, 300.0);
        assert!((100.0 * r - 8.86).abs() < 0.01, "{}", 100.0 * r);
        assert!((100.0 * r - 8.8589).abs() < 0.0001, "{}", 100.0 * r);
        // Taking asw itself for the variance moves it by a thousandth of a point (8.8600%):
        // the convention does not show at Hall's precision.
        let r_asw = ruin_before_goal(WPH, ASW, 300.0, 300.0);
        assert!((100.0 * r_asw - 8.8600).abs() < 0.0001, "{}", 100.0 * r_asw);
        // Hall's own coin walk, unrounded, gives 8.8597%, between the two.
        let coin = hall_coin(WPH, ASW, 300.0, 300.0);
        assert!((100.0 * coin - 8.8597).abs() < 0.0001, "{}", 100.0 * coin);
        // His printed 9.0%: S rounded to 1.0153 and a = b = 152.16 give 9.03%.
        let s: f64 = 1.0153;
        let printed = (1.0 - s.powf(152.16)) / (1.0 - s.powf(2.0 * 152.16));
        assert!(
            (100.0 * printed - 9.03).abs() < 0.005,
            "{}",
            100.0 * printed
        );
        // Doubling: the double barrier is R/(1 + R) of the lifetime risk R.
        let life = ruin_probability(WPH, var.sqrt(), 300.0, None);
        assert!((r - life / (1.0 + life)).abs() < 1e-15);
        assert!((goal_probability(WPH, var, 300.0, 300.0) + r - 1.0).abs() < 1e-15);
    }

    /// Hall's section II: the bankroll for a risk of ruin before doubling,
    /// n = log(1/R − 1)/log(S) coin stakes, "a' ≈ 300" for R = 0.09.
    #[test]
    fn halls_bankroll_for_9_percent_before_doubling_is_about_300() {
        let var = ASW - WPH * WPH;
        let b = bankroll_to_double_for_ror(WPH, var, 0.09).unwrap();
        assert!((b - 297.8).abs() < 0.1, "{b}");
        // It inverts the double barrier exactly.
        let r = ruin_before_goal(WPH, var, 300.0, 300.0);
        let back = bankroll_to_double_for_ror(WPH, var, r).unwrap();
        assert!((back - 300.0).abs() < 1e-9, "{back}");
        assert_eq!(bankroll_to_double_for_ror(WPH, var, 0.5), None);
        assert_eq!(bankroll_to_double_for_ror(-WPH, var, 0.1), None);
    }

    /// Schlesinger's trip risk of ruin (Blackjack Attack) as Kim Lee applied it on Stanford
    /// Wong's BJ21 (reproduced on bjmath.com): a 36-hour double-deck trip of
    /// μ = 2.5 and σ = 27 units an hour, a trip bankroll of 200 units: "a 10% risk of ruin";
    /// and the Kelly bankroll σ²/μ = 291.6 units.
    #[test]
    fn schlesingers_trip_example_is_a_10_percent_risk() {
        let r = ruin_probability(2.5, 27.0, 200.0, Some(36.0));
        assert!((100.0 * r - 10.0).abs() < 0.05, "{}", 100.0 * r);
        let kelly = 27.0f64.powi(2) / 2.5;
        assert!((kelly - 291.6).abs() < 1e-9);
    }

    /// SCORE is a Kelly bettor's win per 100 rounds with 10,000 units (Blackjack Attack):
    /// bets scaled by k = 10,000·ev/var win 100·k·ev = 10^6 (ev/sd)², and the Kelly bettor's
    /// lifetime risk at a fixed bet is e^(−2) = 13.5% (the bankroll var/ev for unit bets).
    #[test]
    fn score_is_the_kelly_win_per_100_rounds_at_a_13_5_percent_risk() {
        for (ev, sd) in [(0.0151, 1.97), (0.00139, 3.266), (0.03, 5.56)] {
            let var: f64 = sd * sd;
            let k = 10_000.0 * ev / var;
            assert!((100.0 * k * ev - score(ev, sd)).abs() < 1e-9 * score(ev, sd));
            let kelly_bank = var / ev;
            let r = ruin_probability(ev, sd, kelly_bank, None);
            assert!((r - (-2.0f64).exp()).abs() < 1e-12, "{r}");
            assert!((100.0 * r - 13.53).abs() < 0.005);
            let b = bankroll_for_ror(ev, var, (-2.0f64).exp()).unwrap();
            assert!((b - kelly_bank).abs() < 1e-9 * b);
            // N0: the rounds at which EV is one SD; N0 = 10^6 / SCORE.
            assert!((n0(ev, sd) * score(ev, sd) - 1e6).abs() < 1e-6);
        }
        assert!(score(-0.01, 1.0) < 0.0);
        assert!(n0(0.0, 1.0).is_nan());
    }

    #[test]
    fn the_goal_without_end_is_the_lifetime_risk() {
        for (ev, var, b) in [
            (0.0151, 3.887, 300.0),
            (0.00139, 10.67, 1000.0),
            (0.2, 1.0, 5.0),
        ] {
            let life = ruin_probability(ev, f64::sqrt(var), b, None);
            for g in [1e6, 1e9, f64::INFINITY] {
                let r = ruin_before_goal(ev, var, b, g);
                assert!((r - life).abs() < 1e-12, "{ev} {b} {g}: {r} vs {life}");
            }
            // A nearer goal is reached first more often: less ruin.
            assert!(ruin_before_goal(ev, var, b, b) < life);
        }
        // A losing game is ruined before an endless goal for sure.
        assert_eq!(ruin_before_goal(-0.01, 1.0, 10.0, f64::INFINITY), 1.0);
    }

    #[test]
    fn no_drift_is_the_limit_b_over_b_plus_g() {
        let (b, g, var) = (300.0, 200.0, 3.887);
        assert_eq!(goal_probability(0.0, var, b, g), b / (b + g));
        assert_eq!(ruin_before_goal(0.0, var, b, g), g / (b + g));
        for ev in [1e-9, -1e-9, 1e-12, -1e-12] {
            let p = goal_probability(ev, var, b, g);
            assert!((p - b / (b + g)).abs() < 1e-6, "{ev}: {p}");
            let r = ruin_before_goal(ev, var, b, g);
            assert!((p + r - 1.0).abs() < 1e-12, "{ev}: {p} + {r}");
        }
        // A strong drift either way: no overflow, the sure outcome.
        assert!((goal_probability(-5.0, 1.0, 300.0, 300.0)).abs() < 1e-300);
        assert_eq!(ruin_before_goal(-5.0, 1.0, 300.0, 300.0), 1.0);
        assert_eq!(goal_probability(5.0, 1.0, 300.0, 300.0), 1.0);
    }

    #[test]
    fn the_bankroll_for_a_risk_of_ruin_inverts_the_formula() {
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
    fn ruin_probability_reflects_and_has_its_limit() {
        // No drift: the reflection principle, 2 Φ(−b / (σ √n)).
        let p = ruin_probability(0.0, 2.0, 100.0, Some(2500.0));
        let want = 2.0 * Normal::standard().cdf(-100.0 / (2.0 * 50.0));
        assert!((p - want).abs() < 1e-12, "{p} vs {want}");
        // A positive drift: a long trip tends to the lifetime e^(−2μb/σ²).
        let (mu, sd, b) = (0.01, 3.0, 200.0);
        let ever = ruin_probability(mu, sd, b, None);
        assert!((ever - (-2.0 * mu * b / (sd * sd)).exp()).abs() < 1e-15);
        let long = ruin_probability(mu, sd, b, Some(1e9));
        assert!((long - ever).abs() < 1e-9, "{long} vs {ever}");
        // Grows with the trip, falls with the bankroll; a negative drift is ruined for sure.
        let f = |n: f64| ruin_probability(mu, sd, b, Some(n));
        let trips: Vec<f64> = [1e2, 1e3, 1e4, 1e5, 1e6, 1e7]
            .iter()
            .map(|&n| f(n))
            .collect();
        assert!(trips.windows(2).all(|w| w[0] < w[1]), "{trips:?}");
        // ... and tends to the lifetime risk from below.
        assert!(trips.iter().all(|&t| t <= ever + 1e-15), "{trips:?} {ever}");
        assert!(
            ever - trips[5] < 1e-12 && ever - trips[2] > 0.1,
            "{trips:?} {ever}"
        );
        assert!(ruin_probability(mu, sd, 2.0 * b, Some(1000.0)) < f(1000.0));
        assert_eq!(ruin_probability(-0.01, sd, b, None), 1.0);
        assert!(ruin_probability(-0.01, sd, b, Some(1e8)) > 0.999);
        assert_eq!(ruin_probability(mu, sd, b, Some(0.0)), 0.0);
        // A drift so strongly negative that e^(2|μ|b/σ²) overflows: still a probability.
        let p = ruin_probability(-5.0, 1.0, 300.0, Some(50.0));
        assert!(p > 0.0 && p <= 1.0, "{p}");
        let q = ruin_probability(-5.0, 1.0, 300.0, Some(70.0));
        assert!(q > 0.999 && q <= 1.0, "{q}");
    }

    #[test]
    fn ln_phi_is_continuous_into_the_far_tail() {
        let a = ln_phi(-30.0 + 1e-9);
        let b = ln_phi(-30.0 - 1e-9);
        assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        assert!(ln_phi(-1000.0).is_finite());
        assert!((ln_phi(0.0) - 0.5f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn rounds_to_double_mean_and_median() {
        // EV 0.0151, var 3.887, 300 units: the mean B/ev = 19,868 rounds; the median lies
        // below it (the inverse Gaussian leans right) and doubles half the walks.
        let (ev, var, b) = (WPH, ASW - WPH * WPH, 300.0);
        let mean = rounds_to_double_mean(ev, b).unwrap();
        assert!((mean - 300.0 / 0.0151).abs() < 1e-9);
        let median = rounds_to_double_median(ev, var, b).unwrap();
        assert!(median < mean && median > 0.5 * mean, "{median}");
        assert!((doubled_by(ev, var, b, median) - 0.5).abs() < 1e-10);
        // No drift: P(doubled by t) = 2Φ(−B/(σ√t)), so the median is (B/(σ z_0.75))².
        let m0 = rounds_to_double_median(0.0, 4.0, 100.0).unwrap();
        let z = Normal::standard().inverse_cdf(0.75);
        assert!((m0 - (100.0 / (2.0 * z)).powi(2)).abs() < 1e-6 * m0, "{m0}");
        assert_eq!(rounds_to_double_mean(0.0, 100.0), None);
        // A losing game doubles at all with probability e^(2μB/σ²).
        let p = double_probability(-0.001, 1.0, 100.0);
        assert!((p - (-0.2f64).exp()).abs() < 1e-15);
        assert!(rounds_to_double_median(-0.001, 1.0, 100.0).is_some());
        assert_eq!(rounds_to_double_median(-0.01, 1.0, 100.0), None);
        // A walk so strongly drifting that 2μB/σ² overflows e^x: the median is near B/ev.
        let big = rounds_to_double_median(0.5, 1.0, 1000.0).unwrap();
        assert!((big - 2000.0).abs() < 5.0, "{big}");
    }

    #[test]
    fn the_certainty_equivalent_is_ev_less_the_risk_cost() {
        // EV 0.01, variance 10, bankroll 1000: full Kelly costs 10/2000 = 0.005 a round.
        assert!((certainty_equivalent(0.01, 10.0, 1000.0, 1.0) - 0.005).abs() < 1e-15);
        // Half Kelly is twice as averse: the cost doubles.
        assert!(certainty_equivalent(0.01, 10.0, 1000.0, 0.5).abs() < 1e-15);
    }
}
