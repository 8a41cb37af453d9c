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
        self.close_wide(b.x as i128, b.y as i128, b.xx as i128, n);
    }

    /// Close a batch of `n` observations whose sums `x`, `y` and `Σx²` may pass an i64 (large
    /// stakes, money in small units); a batch with no observations is skipped.
    pub fn close_wide(&mut self, x: i128, y: i128, xx: i128, n: u64) {
        if n == 0 {
            return;
        }
        self.x += x;
        self.y += y;
        self.xx += xx;
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

/// Degrees of freedom above which intervals and p-values use the normal distribution
/// (statrs' t inverse is unreliable there, and the two differ by under 1e-4 SE).
pub const NORMAL_ABOVE_DF: u64 = 10_000;

/// Two-sided critical value for confidence `level` (e.g. 0.95) with `df` degrees of freedom:
/// Student-t for small df, the normal above 10^4 (statrs' t inverse is unreliable there).
pub fn critical(level: f64, df: u64) -> f64 {
    let p = 0.5 + level / 2.0;
    if df == 0 {
        return f64::NAN;
    }
    if df > NORMAL_ABOVE_DF {
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

/// Two-sided p-value of a standardized difference with `df` degrees of freedom, from the same
/// distribution as `critical` (Student-t, the normal above `NORMAL_ABOVE_DF`), so that p >= 0.05
/// when the value lies inside the 95% CI (to the last digits of the two computations: the CI's
/// ends come from the distribution's inverse, p from its tail). NaN for 0 df (no SE).
pub fn p_value_t(z: f64, df: u64) -> f64 {
    if df == 0 || z.is_nan() {
        f64::NAN
    } else if df > NORMAL_ABOVE_DF {
        p_value(z)
    } else {
        StudentsT::new(0.0, 1.0, df as f64)
            .map(|t| (2.0 * t.sf(z.abs())).min(1.0))
            .unwrap_or(f64::NAN)
    }
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
    /// Two-sided p-value of the z-score, from the distribution of the CI (`p_value_t`).
    pub p_value: f64,
    /// The degrees of freedom of the CI and p-value (batches − 1).
    pub df: u64,
    /// Whether the claim lies inside the 95% CI (p >= 0.05); none when it could not be
    /// checked (no estimate or no SE).
    pub consistent: Option<bool>,
    /// A plain sentence.
    pub verdict: String,
    /// Observations needed so that |estimate − claim| = 5 SE (at the current SD), if the
    /// estimate and the claim differ.
    pub rounds_to_separate_at_5se: Option<f64>,
}

/// Compare an estimate from `n` observations, its CI on `df` degrees of freedom, with a
/// claimed value.
pub fn check_claim(est: &Estimate, claimed: f64, n: u64, df: u64, what: &str) -> ClaimCheck {
    let diff = est.mean - claimed;
    let checked = est.mean.is_finite() && est.se.is_finite() && df > 0;
    let z = diff / est.se;
    let p = if checked { p_value_t(z, df) } else { f64::NAN };
    let consistent = checked.then(|| est.ci95[0] <= claimed && claimed <= est.ci95[1]);
    let dist = if df <= NORMAL_ABOVE_DF {
        format!(", Student's t with {df} df")
    } else {
        String::new()
    };
    let needed = if diff != 0.0 && checked {
        Some(n as f64 * (5.0 * est.se / diff).powi(2))
    } else {
        None
    };
    let pct = |v: f64| format!("{:.4}%", v * 100.0);
    let verdict = if !est.mean.is_finite() {
        format!("not checked: there is no estimate of the {what} (no rounds completed)")
    } else if !checked {
        format!(
            "not checked: the estimate {} has no standard error (too few chunks completed)",
            pct(est.mean)
        )
    } else if consistent == Some(true) {
        format!(
            "consistent: the claimed {what} {} lies inside the 95% CI [{}, {}] (z = {z:+.2}, {}{dist})",
            pct(claimed),
            pct(est.ci95[0]),
            pct(est.ci95[1]),
            format_p(p)
        )
    } else {
        // Which way the claim is wrong matters: one that overstates the return misleads players.
        let (side, states) = if diff < 0.0 {
            ("below", "overstates")
        } else {
            ("above", "understates")
        };
        format!(
            "not supported: the estimate {} is {:.1} standard errors {side} the claimed {what} {}, outside the 95% CI [{}, {}] ({}{dist}): the claim {states} the {what}",
            pct(est.mean),
            z.abs(),
            pct(claimed),
            pct(est.ci95[0]),
            pct(est.ci95[1]),
            format_p(p)
        )
    };
    ClaimCheck {
        claimed,
        z,
        p_value: p,
        df,
        consistent,
        verdict,
        rounds_to_separate_at_5se: needed,
    }
}

/// Observations needed for a standard error of `target` given the SE `se` after `n`.
pub fn rounds_for_se(se: f64, n: u64, target: f64) -> f64 {
    n as f64 * (se / target).powi(2)
}

/// A run's trace: per chunk (chunk index, Σx, Σy), sorted by chunk — the running estimate
/// of convergence plots.
pub type Trace = Vec<[i64; 3]>;

/// Merge two traces sorted by chunk into one, in linear time.
pub fn merge_trace(mine: &mut Trace, other: &[[i64; 3]]) {
    let a = std::mem::take(mine);
    let mut out = Vec::with_capacity(a.len() + other.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < other.len() {
        if j == other.len() || (i < a.len() && a[i][0] <= other[j][0]) {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(other[j]);
            j += 1;
        }
    }
    *mine = out;
}

/// The running RTP over a trace, in percent: points (Σy · `x_per_y`, 100 · (1 + r / `scale`))
/// with r = Σx/Σy over the chunks so far, and a 95% band from the per-chunk spread so far
/// (batch means); at most about 400 points.
#[allow(clippy::type_complexity)]
pub fn running_rtp(
    trace: &[[i64; 3]],
    scale: f64,
    x_per_y: f64,
) -> (Vec<(f64, f64)>, Vec<(f64, f64, f64)>) {
    let mut pts = Vec::new();
    let mut band = Vec::new();
    let (mut sx, mut sy, mut sxx, mut sxy, mut syy) = (0f64, 0f64, 0f64, 0f64, 0f64);
    let step = (trace.len() / 400).max(1);
    for (k, t) in trace.iter().enumerate() {
        let (x, y) = (t[1] as f64, t[2] as f64);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        let kk = (k + 1) as f64;
        if sy == 0.0 || (k % step != 0 && k + 1 != trace.len()) {
            continue;
        }
        let r = sx / sy;
        let rtp = 100.0 * (1.0 + r / scale);
        let at = sy * x_per_y;
        pts.push((at, rtp));
        if k >= 1 {
            let ss = (sxx - 2.0 * r * sxy + r * r * syy).max(0.0);
            let se = 100.0 * (kk / (kk - 1.0) * ss).sqrt() / sy / scale;
            band.push((at, rtp - 1.96 * se, rtp + 1.96 * se));
        }
    }
    (pts, band)
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

    /// Sums of `batches` (each a list of (x, y) observations), closed with their squares.
    fn sums(batches: &[&[(i64, i64)]]) -> Ratio {
        let mut r = Ratio::default();
        for obs in batches {
            let mut b = Batch::default();
            for &(x, y) in *obs {
                b.add(x, y);
            }
            r.close(&b, obs.len() as u64);
        }
        r
    }

    #[test]
    fn plausible_accepts_real_sums_and_names_each_impossible_one() {
        let ok = |r: &Ratio, squares: bool| r.plausible("t", 2, 1, squares);
        let err = |r: &Ratio, squares: bool| ok(r, squares).unwrap_err();
        let real = sums(&[&[(1, 1), (-2, 1)], &[(0, 1), (2, 1), (1, 0)]]);
        assert_eq!(ok(&real, true), Ok(()));
        assert_eq!(ok(&Ratio::default(), true), Ok(()));
        // Every observation zero (x and y): every sum of squares is 0, which is possible.
        let zeros = sums(&[&[(0, 0), (0, 0)], &[(0, 0)]]);
        assert_eq!((zeros.xx, zeros.bxx, zeros.byy), (0, 0, 0));
        assert_eq!(ok(&zeros, true), Ok(()));
        assert_eq!(ok(&zeros, false), Ok(()));
        // A negative sum of squares, each on its own, where the later checks would let it
        // through (x = y = 0, so (Σx)² = 0 and the margin of one admits −1).
        let negative = "t: a sum of squares is negative";
        for (xx, bxx, byy) in [(-1, 0, 0), (0, -1, 0), (0, 0, -1)] {
            let r = Ratio {
                xx,
                bxx,
                byy,
                ..zeros
            };
            assert_eq!(err(&r, false), negative, "{xx} {bxx} {byy}");
            assert_eq!(err(&r, true), negative, "{xx} {bxx} {byy}");
        }
        // Observations' squares kept (`squares`): Σx² below (Σx)²/n or above n·max² is
        // refused; not kept (sums filled by `add_sum`, Σx² = 0), the same Σx² is fine.
        let mut no_squares = Ratio::default();
        let mut b = Batch::default();
        b.add_sum(2, 1);
        b.add_sum(2, 1);
        no_squares.close(&b, 2);
        assert_eq!(no_squares.xx, 0);
        assert_eq!(ok(&no_squares, false), Ok(()));
        let fit = "t: the sums of squares do not fit the sums";
        assert_eq!(err(&no_squares, true), fit);
        let too_big = Ratio {
            xx: real.xx + 2 * 2 * real.n as i128,
            ..real
        };
        assert_eq!(err(&too_big, true), fit);
        // The bound n·max² itself, exceeded by one (within n + 1 observations' bound).
        let just_over = Ratio {
            xx: 2 * 2 * real.n as i128 + 1,
            ..real
        };
        assert_eq!(err(&just_over, true), fit);
        // The comparisons' margin (relative 1e-9, then one): Σx²·n one short of (Σx)² is let
        // through (one observation x = 1 with Σx² = 0), two short is not.
        let one = Ratio {
            n: 1,
            batches: 1,
            x: 1,
            y: 1,
            xx: 0,
            bxx: 1,
            byy: 1,
            bxy: 1,
        };
        assert_eq!(ok(&one, true), Ok(()));
        assert_eq!(
            err(
                &Ratio {
                    x: 2,
                    bxx: 4,
                    bxy: 2,
                    ..one
                },
                true
            ),
            fit
        );
        assert_eq!(ok(&too_big, false), Ok(()));
        // The batch sums' squares, each bound on its own: one batch of four observations
        // with Σx = Σy = 4 needs Σ(batch x)² ≥ 16 and Σ(batch y)² ≥ 16 (10 is refused, though
        // it exceeds 2·4), and Σ(batch xy)² at most their product (Σxy = 5 with both at 4:
        // 25 > 16, though 2·5 is not).
        let batch = Ratio {
            n: 4,
            batches: 1,
            x: 4,
            y: 4,
            xx: 0,
            bxx: 16,
            byy: 16,
            bxy: 16,
        };
        assert_eq!(ok(&batch, false), Ok(()));
        let two = Ratio {
            x: 2,
            y: 2,
            bxx: 4,
            byy: 4,
            bxy: 4,
            ..batch
        };
        assert_eq!(ok(&two, false), Ok(()));
        for r in [
            Ratio {
                bxx: 10,
                bxy: 0,
                ..batch
            },
            Ratio {
                byy: 10,
                bxy: 0,
                ..batch
            },
            Ratio { bxy: 5, ..two },
            Ratio { bxx: 0, ..real },
            Ratio { byy: 0, ..real },
            Ratio {
                bxy: real.bxy + 100,
                ..real
            },
        ] {
            assert_eq!(err(&r, false), fit);
        }
        // Counts and ranges.
        assert_eq!(
            err(&Ratio { batches: 6, ..real }, true),
            "t: 6 batches but 5 observations"
        );
        assert_eq!(
            err(
                &Ratio {
                    x: 1,
                    ..Ratio::default()
                },
                true
            ),
            "t: sums without observations"
        );
        for r in [
            Ratio { x: 11, ..real },
            Ratio { x: -11, ..real },
            Ratio { y: -1, ..real },
            Ratio { y: 6, ..real },
        ] {
            assert_eq!(
                err(&r, false),
                format!(
                    "t: sums {} and {} over 5 observations are out of range",
                    r.x, r.y
                )
            );
        }
        // At the bounds: |Σx| = n·max_x and Σy = n·max_y are possible.
        let edge = sums(&[&[(2, 1), (2, 1)], &[(2, 1)]]);
        assert_eq!(ok(&edge, true), Ok(()));
        let low = sums(&[&[(-2, 1), (-2, 1)], &[(-2, 1)]]);
        assert_eq!(ok(&low, true), Ok(()));
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
        // The boundaries are numbers still: 1e-300 in full, 0.001 to three places.
        assert_eq!(format_p(1e-300), "p = 1.00e-300");
        assert_eq!(format_p(0.001), "p = 0.001");
        let e = Estimate::new(0.9927, 0.00003, 1_000_000);
        let c = check_claim(&e, 0.9954, 1_000_000_000, 1_000_000, "RTP");
        assert!(c.verdict.contains("(p < 1e-300)"), "{}", c.verdict);
        assert!(!c.verdict.contains("0.00e0"), "{}", c.verdict);
    }

    #[test]
    fn claim_inside_and_outside_ci() {
        let e = Estimate::new(0.995, 0.0001, 100_000);
        assert_eq!(
            check_claim(&e, 0.9951, 1000, 1_000_000, "RTP").consistent,
            Some(true)
        );
        let c = check_claim(&e, 0.9954, 1000, 1_000_000, "RTP");
        assert_eq!(c.consistent, Some(false));
        assert!((c.z + 4.0).abs() < 1e-9);
        assert!(c.verdict.contains("below"));
        // 5 SE separation needs (5·se/diff)² = (5/4)² times the rounds.
        assert!((c.rounds_to_separate_at_5se.unwrap() - 1562.5).abs() < 1e-6);
    }

    /// A batch with two observations and one with a single observation, closed in turn.
    fn two_batches() -> Ratio {
        let mut b1 = Batch::default();
        b1.add(3, 2);
        b1.add(-5, 1);
        let mut b2 = Batch::default();
        b2.add(5, 1);
        let mut r = Ratio::default();
        r.close(&b1, 2);
        r.close(&b2, 1);
        r
    }

    #[test]
    fn batch_sums_pinned() {
        let mut b = Batch::default();
        b.add(3, 2);
        b.add(-5, 1);
        assert_eq!(
            b,
            Batch {
                x: -2,
                y: 3,
                xx: 34
            }
        );
        let mut s = Batch::default();
        s.add_sum(3, 2);
        s.add_sum(-5, 1);
        assert_eq!(s, Batch { x: -2, y: 3, xx: 0 });
    }

    #[test]
    fn ratio_close_and_merge_pinned() {
        let want = Ratio {
            x: 3,
            y: 4,
            xx: 34 + 25,
            n: 3,
            batches: 2,
            bxx: 4 + 25,
            bxy: -6 + 5,
            byy: 9 + 1,
        };
        assert_eq!(two_batches(), want);
        // An empty batch is skipped: it neither counts as a batch nor adds anything.
        let mut r = two_batches();
        r.close(&Batch::default(), 0);
        assert_eq!(r, want);
        // Merging the two halves gives the same sums.
        let (mut b1, mut b2) = (Batch::default(), Batch::default());
        b1.add(3, 2);
        b1.add(-5, 1);
        b2.add(5, 1);
        let (mut r1, mut r2) = (Ratio::default(), Ratio::default());
        r1.close(&b1, 2);
        r2.close(&b2, 1);
        r2.merge(&r1);
        assert_eq!(r2, want);
        assert_eq!(want.mean(), 0.75);
        assert!(Ratio::default().mean().is_nan());
        assert_eq!(want.df(), 1);
        assert_eq!(Ratio::default().df(), 0);
    }

    #[test]
    fn sd_obs_is_the_population_sd() {
        // 1, 2, 2, 3, 7: mean 3, squared deviations 4+1+1+0+16 = 22, variance 22/5 = 4.4.
        let mut b = Batch::default();
        for v in [1, 2, 2, 3, 7] {
            b.add(v, 1);
        }
        let mut r = Ratio::default();
        r.close(&b, 5);
        assert!((r.sd_obs() - 4.4f64.sqrt()).abs() < 1e-12, "{}", r.sd_obs());
        // Constant observations have SD 0.
        let mut c = Batch::default();
        for _ in 0..4 {
            c.add(-3, 1);
        }
        let mut rc = Ratio::default();
        rc.close(&c, 4);
        assert_eq!(rc.sd_obs(), 0.0);
        assert!(Ratio::default().sd_obs().is_nan());
    }

    /// A ratio from batches `(x_b, y_b)`, one observation per batch.
    fn ratio_of(batches: &[(i64, i64)]) -> Ratio {
        let mut r = Ratio::default();
        for &(x, y) in batches {
            let mut b = Batch::default();
            b.add(x, y);
            r.close(&b, 1);
        }
        r
    }

    #[test]
    fn se_at_zero_one_two_and_many_batches() {
        assert!(Ratio::default().se().is_nan());
        assert!(ratio_of(&[(1, 3)]).se().is_nan());
        // One batch whose rounded Σ(x_b − R·y_b)² is 3.6e-15, not 0: K/(K−1) would make it ∞.
        assert!(ratio_of(&[(5, 3)]).se().is_nan());
        // Batches with y summing to 0: no ratio, no SE.
        assert!(ratio_of(&[(1, 1), (2, -1)]).se().is_nan());
        // Two batches (4,1), (2,3): R = 6/4 = 1.5, residuals x_b − R·y_b = ±2.5,
        // Σ² = 12.5, K/(K−1) = 2, sqrt(25)/Σy = 5/4.
        assert!((ratio_of(&[(4, 1), (2, 3)]).se() - 1.25).abs() < 1e-12);
        // Four batches (4,1), (2,3), (0,2), (6,2): R = 12/8 = 1.5, residuals 2.5, −2.5, −3, 3,
        // Σ² = 30.5, K/(K−1) = 4/3: SE = sqrt(4/3 · 30.5)/8.
        let se = ratio_of(&[(4, 1), (2, 3), (0, 2), (6, 2)]).se();
        assert!((se - (122.0f64 / 3.0).sqrt() / 8.0).abs() < 1e-12, "{se}");
    }

    #[test]
    fn critical_values_at_the_edges() {
        assert!(critical(0.95, 0).is_nan());
        assert!((critical(0.95, 1) - 12.706205).abs() < 1e-5);
        assert!((critical(0.95, 2) - 4.302653).abs() < 1e-5);
        // At df = 10^4 still Student t: z + (z³ + z)/(4·df) = 1.959964 + 0.000237.
        assert!((critical(0.95, 10_000) - 1.960201).abs() < 2e-6);
        assert!((critical(0.95, 10_001) - 1.959964).abs() < 1e-6);
        assert!((critical(0.90, 1_000_000) - 1.644854).abs() < 1e-6);
    }

    #[test]
    fn estimate_interval_is_mean_plus_minus_c_se() {
        let e = Estimate::new(1.0, 0.5, 1_000_000);
        assert_eq!((e.mean, e.se), (1.0, 0.5));
        assert!((e.ci95[0] - (1.0 - 0.979982)).abs() < 1e-6, "{:?}", e.ci95);
        assert!((e.ci95[1] - (1.0 + 0.979982)).abs() < 1e-6, "{:?}", e.ci95);
        // Two degrees of freedom: ±4.302653·0.5.
        let e = Estimate::new(-1.0, 0.5, 2);
        assert!(
            (e.ci95[0] - (-1.0 - 2.1513265)).abs() < 1e-5,
            "{:?}",
            e.ci95
        );
        assert!(
            (e.ci95[1] - (-1.0 + 2.1513265)).abs() < 1e-5,
            "{:?}",
            e.ci95
        );
    }

    #[test]
    fn affine_maps_mean_se_and_interval() {
        let e = Estimate {
            mean: 0.5,
            se: 0.125,
            ci95: [0.25, 0.75],
        };
        // x → 2x + 1: all exact in binary.
        let a = e.affine(2.0, 1.0);
        assert_eq!(a.mean, 2.0);
        assert_eq!(a.se, 0.25);
        assert_eq!(a.ci95, [1.5, 2.5]);
        // x → −4x + 3: the interval's ends swap, the SE stays positive.
        let b = e.affine(-4.0, 3.0);
        assert_eq!(b.mean, 1.0);
        assert_eq!(b.se, 0.5);
        assert_eq!(b.ci95, [0.0, 2.0]);
        // EV → RTP as the blackjack report does it.
        let c = e.affine(1.0, 1.0);
        assert_eq!((c.mean, c.se, c.ci95), (1.5, 0.125, [1.25, 1.75]));
    }

    #[test]
    fn p_values_pinned() {
        assert_eq!(p_value(0.0), 1.0);
        // 2·(1 − Φ(1.96)) = 2·0.0249979
        assert!(
            (p_value(1.96) - 0.0499958).abs() < 1e-6,
            "{}",
            p_value(1.96)
        );
        assert!((p_value(-1.96) - 0.0499958).abs() < 1e-6);
        // 2·Φ(−3) = 2·0.0013499
        assert!((p_value(3.0) - 0.0026998).abs() < 1e-6, "{}", p_value(3.0));
        // 2·Φ(−40) ≈ 7e-350 underflows: 0 in f64.
        assert_eq!(p_value(40.0), 0.0);
        assert_eq!(p_value(-40.0), 0.0);
    }

    #[test]
    fn claim_verdicts_pinned() {
        let e = Estimate {
            mean: 0.5,
            se: 0.125,
            ci95: [0.25, 0.75],
        };
        let c = check_claim(&e, 0.5, 1000, 1_000_000, "RTP");
        assert_eq!((c.z, c.p_value, c.consistent), (0.0, 1.0, Some(true)));
        assert_eq!(c.rounds_to_separate_at_5se, None);
        assert_eq!(
            c.verdict,
            "consistent: the claimed RTP 50.0000% lies inside the 95% CI [25.0000%, 75.0000%] (z = +0.00, p = 1.000)"
        );
        // The ends of the interval are inside it.
        assert_eq!(
            check_claim(&e, 0.25, 1000, 1_000_000, "RTP").consistent,
            Some(true)
        );
        assert_eq!(
            check_claim(&e, 0.75, 1000, 1_000_000, "RTP").consistent,
            Some(true)
        );
        // Claim above: z = (0.5 − 1)/0.125 = −4, p = 2·Φ(−4) = 6.334e-5;
        // (5·0.125/0.5)² = 1.5625 times the rounds.
        let c = check_claim(&e, 1.0, 1000, 1_000_000, "RTP");
        assert_eq!(c.z, -4.0);
        assert!((c.p_value - 6.334248e-5).abs() < 1e-10, "{}", c.p_value);
        assert_eq!(c.consistent, Some(false));
        assert_eq!(c.rounds_to_separate_at_5se, Some(1562.5));
        assert_eq!(
            c.verdict,
            "not supported: the estimate 50.0000% is 4.0 standard errors below the claimed RTP 100.0000%, outside the 95% CI [25.0000%, 75.0000%] (p = 6.33e-5): the claim overstates the RTP"
        );
        // Claim below: z = +2.4, outside [0.25, 0.75].
        let c = check_claim(&e, 0.2, 10, 1_000_000, "RTP");
        assert!((c.z - 2.4).abs() < 1e-12);
        assert_eq!(c.consistent, Some(false));
        assert!(
            c.verdict.contains("2.4 standard errors above")
                && c.verdict.ends_with("the claim understates the RTP"),
            "{}",
            c.verdict
        );
        // No SE: no number of rounds.
        let n = Estimate { se: f64::NAN, ..e };
        assert_eq!(
            check_claim(&n, 0.9, 10, 1_000_000, "RTP").rounds_to_separate_at_5se,
            None
        );
        // One batch: no SE and no interval. The claim is never "consistent", and an estimate
        // equal to the claim is not said to lie below it.
        let one = Estimate::new(0.5, f64::NAN, 0);
        let c = check_claim(&one, 0.5, 10, 0, "RTP");
        assert!(c.consistent.is_none() && c.p_value.is_nan());
        // A standard error on no degrees of freedom is no test either.
        let c = check_claim(&Estimate::new(0.5, 0.1, 0), 0.5, 10, 0, "RTP");
        assert!(c.consistent.is_none() && c.p_value.is_nan(), "{c:?}");
        assert!(c.verdict.starts_with("not checked"), "{}", c.verdict);
        assert!(c.verdict.starts_with("not checked"), "{}", c.verdict);
        assert!(!c.verdict.contains("below"), "{}", c.verdict);
        assert_eq!(c.rounds_to_separate_at_5se, None);
        // Few batches: the CI is Student-t's and so is the p-value, so a claim inside the CI
        // never has p < 0.05. t(0.975, 5) = 2.570582: a claim 2.2 SE away is inside, with
        // p = 0.0791 (the normal's would be 0.0278, "significant" beside "consistent").
        let few = Estimate::new(0.5, 0.1, 5);
        let c = check_claim(&few, 0.28, 1000, 5, "RTP");
        assert!((c.z - 2.2).abs() < 1e-12 && c.consistent == Some(true));
        assert!((c.p_value - 0.079_06).abs() < 1e-4, "{}", c.p_value);
        assert!(c.verdict.contains("Student's t with 5 df"), "{}", c.verdict);
        let c = check_claim(&few, 0.22, 1000, 5, "RTP");
        assert!(c.consistent == Some(false) && c.p_value < 0.05, "{c:?}");
        // At the CI's end p is exactly 0.05.
        let edge = 0.5 - critical(0.95, 5) * 0.1;
        assert!((check_claim(&few, edge, 1000, 5, "RTP").p_value - 0.05).abs() < 1e-9);
    }

    #[test]
    fn t_p_values_pinned() {
        // Table values: t(0.975, 10) = 2.228139, t(0.995, 5) = 4.032143.
        assert!((p_value_t(2.228139, 10) - 0.05).abs() < 1e-6);
        assert!((p_value_t(-4.032143, 5) - 0.01).abs() < 1e-6);
        assert_eq!(p_value_t(0.0, 3), 1.0);
        // No SE (0 df) or no z: no p-value; above 10^4 df the normal's.
        assert!(p_value_t(1.0, 0).is_nan() && p_value_t(f64::NAN, 9).is_nan());
        assert_eq!(p_value_t(1.96, 20_000), p_value(1.96));
        assert!(p_value_t(1.96, 10_000) > p_value(1.96));
    }

    #[test]
    fn rounds_for_se_pinned() {
        // SE 0.5 after 1000 rounds; SE 0.25 needs (0.5/0.25)² = 4 times as many.
        assert_eq!(rounds_for_se(0.5, 1000, 0.25), 4000.0);
        assert_eq!(rounds_for_se(0.3, 1000, 0.6), 250.0);
    }

    #[test]
    fn traces_merge_in_chunk_order_and_give_the_running_rtp() {
        let mut a = vec![[0, 1, 10], [4, 0, 10]];
        merge_trace(&mut a, &[[1, 3, 10], [2, 0, 0], [9, 1, 1]]);
        assert_eq!(
            a,
            vec![[0, 1, 10], [1, 3, 10], [2, 0, 0], [4, 0, 10], [9, 1, 1]]
        );
        let mut e: Trace = Vec::new();
        merge_trace(&mut e, &[]);
        assert!(e.is_empty());
        merge_trace(&mut e, &[[3, 1, 2]]);
        assert_eq!(e, vec![[3, 1, 2]]);
        // Mine outlasts the other: its chunks after the other's last are kept.
        merge_trace(&mut e, &[[1, 0, 1]]);
        assert_eq!(e, vec![[1, 0, 1], [3, 1, 2]]);
        // A long trace is thinned to about 400 points: 1,000 chunks, every second one (a
        // step of 1000 / 400 = 2) and the last.
        let long: Trace = (0..1000).map(|c| [c, c % 3 - 1, 1]).collect();
        let (pts, band) = running_rtp(&long, 1.0, 1.0);
        assert_eq!((pts.len(), band.len()), (501, 500));
        // r = 1/10, then 4/20; the band from the two chunks' spread (batch means).
        let (pts, band) = running_rtp(&[[0, 1, 10], [1, 3, 10]], 1.0, 1.0);
        let close = |p: &[(f64, f64)], q: &[(f64, f64)]| {
            p.len() == q.len()
                && p.iter()
                    .zip(q)
                    .all(|(a, b)| (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9)
        };
        assert!(close(&pts, &[(10.0, 110.0), (20.0, 120.0)]), "{pts:?}");
        // Σx² − 2rΣxy + r²Σy² = 10 − 16 + 8 = 2; SE = 100·√(2·2)/20 = 10.
        assert_eq!(band.len(), 1);
        let (at, lo, hi) = band[0];
        assert_eq!(at, 20.0);
        assert!((lo - (120.0 - 19.6)).abs() < 1e-9 && (hi - (120.0 + 19.6)).abs() < 1e-9);
        // A scale divides the ratio (money units per bet), x_per_y stretches the x axis, and
        // chunks with nothing staked yet are skipped.
        let (pts, _) = running_rtp(&[[0, 0, 0], [1, -2, 10]], 2.0, 3.0);
        assert!(close(&pts, &[(30.0, 90.0)]), "{pts:?}");
        // Three chunks, scale 2: r = 3/30, RTP 105; Σx² − 2rΣxy + r²Σy² = 11 − 6 + 3 = 8;
        // SE = 100·√(3/2·8)/30/2 = 5.7735.
        let (_, band) = running_rtp(&[[0, 1, 10], [1, 3, 10], [2, -1, 10]], 2.0, 1.0);
        let (at, lo, hi) = band[band.len() - 1];
        let se = 100.0 * 12f64.sqrt() / 30.0 / 2.0;
        assert_eq!(at, 30.0);
        assert!((lo - (105.0 - 1.96 * se)).abs() < 1e-9, "{lo}");
        assert!((hi - (105.0 + 1.96 * se)).abs() < 1e-9, "{hi}");
    }
}
