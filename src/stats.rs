//! Mergeable exact accumulators and the statistics drawn from them.
//!
//! Every accumulator here is a sum of integers, so merging chunk, thread and shard results in
//! any order gives bit-identical totals. Standard errors use batch means over chunks (rounds
//! within a shoe are correlated): each chunk closes one batch.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Running sums of one batch (one chunk): a numerator `x` (e.g. money won, in the smallest
/// unit of the paytable) over a denominator `y` (e.g. bets placed), plus `Σx²` per observation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Batch {
    pub x: i64,
    pub y: i64,
    pub xx: i64,
}

impl Batch {
    /// One observation of value `x` on denominator `y`, with its square.
    #[inline(always)]
    pub fn add(&mut self, x: i64, y: i64) {
        self.x += x;
        self.y += y;
        self.xx += x * x;
    }

    /// One observation without its square (when no per-observation SD is wanted).
    #[inline(always)]
    pub fn add_sum(&mut self, x: i64, y: i64) {
        self.x += x;
        self.y += y;
    }
}

/// A ratio estimate `Σx / Σy` over many batches, with what batch means need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratio {
    /// Σx over all observations.
    pub x: i128,
    /// Σy over all observations.
    pub y: i128,
    /// Σx² over all observations (for the SD of one observation).
    pub xx: i128,
    /// Number of observations.
    pub n: u64,
    /// Number of batches.
    pub batches: u64,
    /// Σ over batches of x_b², x_b·y_b and y_b².
    pub bxx: i128,
    pub bxy: i128,
    pub byy: i128,
}

impl Ratio {
    /// Close a batch: fold its sums in (a batch with no observations is skipped).
    pub fn close(&mut self, b: &Batch, n: u64) {
        if n == 0 {
            return;
        }
        let (x, y) = (b.x as i128, b.y as i128);
        self.x += x;
        self.y += y;
        self.xx += b.xx as i128;
        self.n += n;
        self.batches += 1;
        self.bxx += x * x;
        self.bxy += x * y;
        self.byy += y * y;
    }

    pub fn merge(&mut self, o: &Ratio) {
        self.x += o.x;
        self.y += o.y;
        self.xx += o.xx;
        self.n += o.n;
        self.batches += o.batches;
        self.bxx += o.bxx;
        self.bxy += o.bxy;
        self.byy += o.byy;
    }

    /// The ratio Σx/Σy (NaN when nothing was observed).
    pub fn mean(&self) -> f64 {
        if self.y == 0 {
            return f64::NAN;
        }
        self.x as f64 / self.y as f64
    }

    /// Batch-means standard error of the ratio (delta method for a ratio estimator):
    /// `sqrt(K/(K-1) · Σ_b (x_b − R·y_b)²) / Σy`. NaN with fewer than two batches.
    pub fn se(&self) -> f64 {
        if self.batches < 2 || self.y == 0 {
            return f64::NAN;
        }
        let r = self.mean();
        let k = self.batches as f64;
        // Σ (x_b − r y_b)² expanded; the terms are exact integers converted once.
        let ss = self.bxx as f64 - 2.0 * r * self.bxy as f64 + r * r * self.byy as f64;
        let ss = ss.max(0.0);
        (k / (k - 1.0) * ss).sqrt() / self.y as f64
    }

    /// Standard deviation of one observation's `x` (population form).
    pub fn sd_obs(&self) -> f64 {
        if self.n == 0 {
            return f64::NAN;
        }
        let n = self.n as f64;
        let m = self.x as f64 / n;
        (self.xx as f64 / n - m * m).max(0.0).sqrt()
    }

    /// Whether these sums are possible for observations with |x| ≤ `max_x` and
    /// 0 ≤ y ≤ `max_y` each (`what` names the sums in the message): counts consistent, sums
    /// within their bounds, and Σx² ≥ (Σx)²/n, Σ_b x_b² ≥ (Σx)²/K, (Σ x_b y_b)² ≤ Σx_b²·Σy_b².
    /// `squares`: whether Σx² over observations is kept (batches filled by `add_sum` keep
    /// none).
    pub fn plausible(
        &self,
        what: &str,
        max_x: i128,
        max_y: i128,
        squares: bool,
    ) -> Result<(), String> {
        let bad = |m: String| Err(format!("{what}: {m}"));
        let n = self.n as i128;
        let k = self.batches as i128;
        if self.batches > self.n {
            return bad(format!(
                "{} batches but {} observations",
                self.batches, self.n
            ));
        }
        if self.n == 0 && *self != Ratio::default() {
            return bad("sums without observations".into());
        }
        if self.x.unsigned_abs() > (max_x * n) as u128 || self.y < 0 || self.y > max_y * n {
            return bad(format!(
                "sums {} and {} over {} observations are out of range",
                self.x, self.y, self.n
            ));
        }
        if self.xx < 0 || self.bxx < 0 || self.byy < 0 {
            return bad("a sum of squares is negative".into());
        }
        // Products in f64 (with a relative margin far above its rounding): the sums of a
        // long run overflow i128 when squared.
        let f = |v: i128| v as f64;
        let ge = |a: f64, b: f64| a >= b * (1.0 - 1e-9) - 1.0;
        let obs_squares = !squares
            || (self.xx as f64 <= f(max_x) * f(max_x) * f(n) * (1.0 + 1e-9)
                && ge(f(self.xx) * f(n), f(self.x) * f(self.x)));
        if !obs_squares
            || !ge(f(self.bxx) * f(k), f(self.x) * f(self.x))
            || !ge(f(self.byy) * f(k), f(self.y) * f(self.y))
            || !ge(f(self.bxx) * f(self.byy), f(self.bxy) * f(self.bxy))
        {
            return bad("the sums of squares do not fit the sums".into());
        }
        Ok(())
    }

    /// Degrees of freedom of the batch-means estimate.
    pub fn df(&self) -> u64 {
        self.batches.saturating_sub(1)
    }
}

/// Two-sided critical value for confidence `level` (e.g. 0.95) with `df` degrees of freedom:
/// Student-t for small df, the normal above 10^4 (statrs' t inverse is unreliable there).
pub fn critical(level: f64, df: u64) -> f64 {
    let p = 0.5 + level / 2.0;
    if df == 0 {
        return f64::NAN;
    }
    if df > 10_000 {
        Normal::standard().inverse_cdf(p)
    } else {
        StudentsT::new(0.0, 1.0, df as f64)
            .map(|t| t.inverse_cdf(p))
            .unwrap_or(f64::NAN)
    }
}

/// A mean with its standard error and a 95% confidence interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub se: f64,
    pub ci95: [f64; 2],
}

impl Estimate {
    pub fn new(mean: f64, se: f64, df: u64) -> Estimate {
        let c = critical(0.95, df);
        Estimate {
            mean,
            se,
            ci95: [mean - c * se, mean + c * se],
        }
    }

    /// The same estimate shifted by `offset` and scaled by `scale` (e.g. EV → RTP, units → bets).
    pub fn affine(&self, scale: f64, offset: f64) -> Estimate {
        let a = self.mean * scale + offset;
        let b = [self.ci95[0] * scale + offset, self.ci95[1] * scale + offset];
        Estimate {
            mean: a,
            se: self.se * scale.abs(),
            ci95: [b[0].min(b[1]), b[0].max(b[1])],
        }
    }
}

/// Two-sided p-value of a z-score under the standard normal.
/// Computed from the upper tail (`sf`), so it stays accurate far below 1e-16 and reaches 0
/// only when it underflows the f64 range (|z| > about 38).
pub fn p_value(z: f64) -> f64 {
    (2.0 * Normal::standard().sf(z.abs())).min(1.0)
}

/// A p-value for a sentence: `p = 0.412`, `p = 3.1e-12`, or `p < 1e-300` when it is too
/// small for an f64 to hold (never `p = 0.00e0`).
pub fn format_p(p: f64) -> String {
    if p.is_nan() {
        "p = n/a".into()
    } else if p < 1e-300 {
        "p < 1e-300".into()
    } else if p < 0.001 {
        format!("p = {p:.2e}")
    } else {
        format!("p = {p:.3}")
    }
}

/// The test of a claimed value against an estimate.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClaimCheck {
    /// The claimed value, as a fraction (0.9954).
    pub claimed: f64,
    /// (estimate − claim) / SE.
    pub z: f64,
    /// Two-sided p-value of the z-score.
    pub p_value: f64,
    /// Whether the claim lies inside the 95% CI.
    pub consistent: bool,
    /// A plain sentence.
    pub verdict: String,
    /// Observations needed so that |estimate − claim| = 5 SE (at the current SD), if the
    /// estimate and the claim differ.
    pub rounds_to_separate_at_5se: Option<f64>,
}

/// Compare an estimate from `n` observations with a claimed value.
pub fn check_claim(est: &Estimate, claimed: f64, n: u64, what: &str) -> ClaimCheck {
    let diff = est.mean - claimed;
    let z = diff / est.se;
    let p = p_value(z);
    let consistent = est.ci95[0] <= claimed && claimed <= est.ci95[1];
    let needed = if diff != 0.0 && est.se.is_finite() {
        Some(n as f64 * (5.0 * est.se / diff).powi(2))
    } else {
        None
    };
    let pct = |v: f64| format!("{:.4}%", v * 100.0);
    let verdict = if !est.mean.is_finite() {
        format!("not checked: there is no estimate of the {what} (no rounds completed)")
    } else if !est.se.is_finite() {
        format!(
            "not checked: the estimate {} has no standard error (too few chunks completed)",
            pct(est.mean)
        )
    } else if consistent {
        format!(
            "consistent: the claimed {what} {} lies inside the 95% CI [{}, {}] (z = {z:+.2}, {})",
            pct(claimed),
            pct(est.ci95[0]),
            pct(est.ci95[1]),
            format_p(p)
        )
    } else {
        let side = if diff < 0.0 { "below" } else { "above" };
        format!(
            "not supported: the estimate {} is {:.1} standard errors {side} the claimed {what} {} ({})",
            pct(est.mean),
            z.abs(),
            pct(claimed),
            format_p(p)
        )
    };
    ClaimCheck {
        claimed,
        z,
        p_value: p,
        consistent,
        verdict,
        rounds_to_separate_at_5se: needed,
    }
}

/// Observations needed for a standard error of `target` given the SE `se` after `n`.
pub fn rounds_for_se(se: f64, n: u64, target: f64) -> f64 {
    n as f64 * (se / target).powi(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_merge_is_order_independent() {
        let mut a = Ratio::default();
        let mut b = Ratio::default();
        let batches: Vec<(Batch, u64)> = (0..10)
            .map(|i| {
                let mut bt = Batch::default();
                for j in 0..(5 + i) {
                    bt.add((j * 7 % 5) as i64 - 2, 1);
                }
                (bt, 5 + i as u64)
            })
            .collect();
        for (bt, n) in &batches {
            a.close(bt, *n);
        }
        for (bt, n) in batches.iter().rev() {
            let mut one = Ratio::default();
            one.close(bt, *n);
            b.merge(&one);
        }
        assert_eq!(a, b);
    }

    #[test]
    fn ratio_se_matches_iid_formula_for_equal_batches() {
        // Batches of equal size with known means: SE = sd(batch means)/sqrt(K).
        let means = [1.0, 3.0, 2.0, 4.0, 0.0];
        let mut r = Ratio::default();
        for m in means {
            let mut b = Batch::default();
            for _ in 0..10 {
                b.add(m as i64, 1);
            }
            r.close(&b, 10);
        }
        let k = means.len() as f64;
        let mu = means.iter().sum::<f64>() / k;
        let var = means.iter().map(|m| (m - mu).powi(2)).sum::<f64>() / (k - 1.0);
        assert!((r.mean() - mu).abs() < 1e-12);
        assert!((r.se() - (var / k).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn critical_values() {
        assert!((critical(0.95, 1_000_000) - 1.959964).abs() < 1e-5);
        assert!((critical(0.95, 10) - 2.228139).abs() < 1e-5);
    }

    #[test]
    fn tiny_p_values_are_printed_as_bounds() {
        // Before: 1 - cdf(z) was 0 from z = 8.3 on and printed "p = 0.00e0".
        assert!(p_value(10.0) > 0.0 && p_value(10.0) < 1e-22);
        assert_eq!(p_value(77.0), 0.0);
        assert_eq!(format_p(0.0), "p < 1e-300");
        assert_eq!(format_p(0.4123), "p = 0.412");
        assert_eq!(format_p(3.14e-12), "p = 3.14e-12");
        let e = Estimate::new(0.9927, 0.00003, 1_000_000);
        let c = check_claim(&e, 0.9954, 1_000_000_000, "RTP");
        assert!(c.verdict.contains("(p < 1e-300)"), "{}", c.verdict);
        assert!(!c.verdict.contains("0.00e0"), "{}", c.verdict);
    }

    #[test]
    fn claim_inside_and_outside_ci() {
        let e = Estimate::new(0.995, 0.0001, 100_000);
        assert!(check_claim(&e, 0.9951, 1000, "RTP").consistent);
        let c = check_claim(&e, 0.9954, 1000, "RTP");
        assert!(!c.consistent);
        assert!((c.z + 4.0).abs() < 1e-9);
        assert!(c.verdict.contains("below"));
        // 5 SE separation needs (5·se/diff)² = (5/4)² times the rounds.
        assert!((c.rounds_to_separate_at_5se.unwrap() - 1562.5).abs() < 1e-6);
    }
}
