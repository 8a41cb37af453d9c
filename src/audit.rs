//! What every verification dossier (`rtplab audit GAME`) shares: the run's identity, the
//! chi-square test of a simulated histogram against an exact distribution, the normal
//! quantiles of its intervals, and its plain text tables.

use serde::Serialize;

use crate::report::{Cell, Section};
use crate::stats::critical;

/// Two-sided normal quantiles for 90%, 95%, 99% and 99.9%.
pub const Z90: f64 = 1.6448536269514722;
pub const Z95: f64 = 1.959963984540054;
/// One-sided 99% (two-sided 98%).
pub const Z98: f64 = 2.3263478740408408;
pub const Z99: f64 = 2.5758293035489004;
pub const Z999: f64 = 3.2905267314918945;

/// Batches (chunks) a dossier's simulation is split into. Its standard errors are batch means,
/// so with this many their own relative error is about 1/√(2·4096) ≈ 1.1% (with the default
/// chunks, a few dozen, it was ±10-20%), and its intervals use Student's t with batches − 1
/// degrees of freedom.
pub const SIM_BATCHES: u64 = 4096;

/// A confidence interval `[lo, hi]` as a range cell, each end written by `text`.
pub fn interval_cell(ci: [f64; 2], text: impl Fn(f64) -> String, unit: &'static str) -> Cell {
    Cell::range(
        format!("[{}, {}]", text(ci[0]), text(ci[1])),
        ci[0],
        ci[1],
        unit,
    )
}

/// The chunk size that splits a simulation of `total` units (rounds, turns, games) into
/// `SIM_BATCHES` chunks (fewer when there are fewer units).
pub fn sim_chunk(total: u64) -> u64 {
    total.div_ceil(SIM_BATCHES).max(1)
}

/// The two-sided interval at `level` of a batch-means estimate with `df` degrees of freedom.
pub fn interval(mean: f64, se: f64, df: u64, level: f64) -> [f64; 2] {
    let t = critical(level, df);
    [mean - t * se, mean + t * se]
}

/// The git commit the binary was built from (`unknown` outside a git checkout).
pub const GIT_COMMIT: &str = match option_env!("RTPLAB_GIT_COMMIT") {
    Some(c) => c,
    None => "unknown",
};

/// How the random numbers of a run are made (the same for every game).
pub const RNG: &str = "Xoshiro256++ seeded from the seed; chunk c of a run uses the stream advanced by c·2^128 steps (jump), so results do not depend on the thread count";

/// Run identity.
#[derive(Clone, Debug, Serialize)]
pub struct Identity {
    pub tool: &'static str,
    pub version: &'static str,
    pub git_commit: &'static str,
    pub build_profile: &'static str,
    /// FNV-1a of the rules' JSON.
    pub rules_hash: String,
    /// (tier, strategy, chart hash) where the tiers are strategies.
    pub strategies: Vec<(String, String, Option<String>)>,
    pub seed: u64,
    pub rng: &'static str,
    /// Simulated rounds (or turns) per tier.
    pub rounds_per_tier: u64,
    pub shards_merged: u64,
    pub interrupted: bool,
    /// The exact part in all, and its strategy tiers alone.
    pub exact_seconds: f64,
    pub tiers_seconds: f64,
    pub simulation_seconds: f64,
}

impl Identity {
    /// The identity of a dossier of rules `rules` (hashed through their JSON).
    pub fn new<R: Serialize>(rules: &R, seed: u64, rounds_per_tier: u64) -> Identity {
        let text = serde_json::to_string(rules).unwrap_or_default();
        Identity {
            tool: "rtplab",
            version: crate::VERSION,
            git_commit: GIT_COMMIT,
            build_profile: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            },
            rules_hash: format!("{:016x}", crate::shard::fnv1a64(text.as_bytes())),
            strategies: Vec::new(),
            seed,
            rng: RNG,
            rounds_per_tier,
            shards_merged: 0,
            interrupted: false,
            exact_seconds: 0.0,
            tiers_seconds: 0.0,
            simulation_seconds: 0.0,
        }
    }
}

/// A chi-square goodness-of-fit test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChiSquare {
    pub statistic: f64,
    pub df: u64,
    pub p: f64,
}

impl ChiSquare {
    /// Of (observed count, expected count) bins in order: adjacent bins are merged until each
    /// expects at least 5 (the last short one joins the one before), then Σ (O − E)²/E, df =
    /// bins − 1. A count where nothing is expected makes the statistic infinite (p = 0); a
    /// single bin cannot disagree (df 0, p = 1).
    pub fn of(bins: impl IntoIterator<Item = (u64, f64)>) -> ChiSquare {
        let mut merged: Vec<(u64, f64)> = Vec::new();
        let mut open: Option<(u64, f64)> = None;
        let mut impossible = false;
        for (o, e) in bins {
            impossible |= o > 0 && e <= 0.0;
            let b = open.take().map_or((o, e), |(o0, e0)| (o0 + o, e0 + e));
            if b.1 >= 5.0 {
                merged.push(b);
            } else {
                open = Some(b);
            }
        }
        if let Some(b) = open {
            match merged.last_mut() {
                Some(last) => {
                    last.0 += b.0;
                    last.1 += b.1;
                }
                None => merged.push(b),
            }
        }
        let mut stat = if impossible { f64::INFINITY } else { 0.0 };
        for &(o, e) in &merged {
            if e > 0.0 {
                stat += (o as f64 - e).powi(2) / e;
            }
        }
        let df = merged.len().saturating_sub(1) as u64;
        let p = if !stat.is_finite() {
            0.0
        } else if df == 0 {
            1.0
        } else {
            use statrs::distribution::{ChiSquared, ContinuousCDF};
            ChiSquared::new(df as f64).map_or(f64::NAN, |c| c.sf(stat))
        };
        ChiSquare {
            statistic: stat,
            df,
            p,
        }
    }
}

/// How many rounds (or turns) resolve a tier's mean to ± `precision` at `level`:
/// (z·SD/precision)².
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Needed {
    pub tier: String,
    pub precision: f64,
    pub level: f64,
    pub n: f64,
}

/// The rounds needed for one tier of SD `sd`, at 95% and 99%, for each precision.
pub fn needed(tier: &str, sd: f64, precisions: &[f64]) -> Vec<Needed> {
    let mut v = Vec::new();
    for &precision in precisions {
        for (level, z) in [(0.95, Z95), (0.99, Z99)] {
            v.push(Needed {
                tier: tier.to_string(),
                precision,
                level,
                n: (z * sd / precision).powi(2).ceil(),
            });
        }
    }
    v
}

/// The table of `needed` rows: one row per tier and precision, the 95% and 99% counts;
/// `precision` writes a precision (a percent, points).
pub fn needed_section(
    name: &str,
    precision_column: &str,
    unit: &'static str,
    rows: &[Needed],
    precision: impl Fn(f64) -> crate::report::Cell,
) -> Section {
    let mut s = Section::new(name, &["tier", precision_column, "95%", "99%"]);
    for r in rows.iter().filter(|r| r.level == 0.95) {
        let at99 = rows
            .iter()
            .find(|x| x.tier == r.tier && x.precision == r.precision && x.level == 0.99)
            .map_or(f64::NAN, |x| x.n);
        let count = |n: f64| crate::report::Cell::num(count_text(n), n, unit);
        s.row([
            crate::report::Cell::from(r.tier.clone()),
            precision(r.precision),
            count(r.n),
            count(at99),
        ]);
    }
    s
}

/// A count of rounds for a table: `1,234,567`, or `never` when it is not finite.
pub fn count_text(n: f64) -> String {
    if n.is_finite() {
        crate::report::count(n as u64)
    } else {
        "never".into()
    }
}

/// A table of text pairs (rules as dealt, definitions).
pub fn text_section(name: &str, columns: [&str; 2], rows: &[(String, String)]) -> Section {
    let mut s = Section::new(name, &columns);
    for (k, v) in rows {
        s.row([k.clone(), v.clone()]);
    }
    s
}

/// The paths (`simulation.0.se`) of the nulls in a dossier's JSON. A NaN or infinite figure
/// is written as null, so a null where `optional` does not allow one (an optional field left
/// empty) is a figure that was not computed.
#[cfg(test)]
pub(crate) fn unexpected_nulls(v: &serde_json::Value, optional: fn(&str) -> bool) -> Vec<String> {
    fn walk(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
        let path = |k: &dyn std::fmt::Display| {
            if at.is_empty() {
                k.to_string()
            } else {
                format!("{at}.{k}")
            }
        };
        match v {
            serde_json::Value::Null => out.push(at),
            serde_json::Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(x, path(&i), out);
                }
            }
            serde_json::Value::Object(o) => {
                for (k, x) in o {
                    walk(x, path(k), out);
                }
            }
            _ => {}
        }
    }
    let mut nulls = Vec::new();
    walk(v, String::new(), &mut nulls);
    nulls.retain(|p| !optional(p));
    nulls
}

/// The shuffle's tests as a report section (`verify blackjack` and `verify baccarat` alike).
pub fn shuffle_section(v: &crate::shuffle::ShuffleVerdict) -> Section {
    let mut s = Section::new(
        &format!(
            "The shuffle: {} shoes against a uniform shuffle and the shoe before ({}, seed {})",
            crate::report::count(v.shoes),
            v.correction,
            v.seed
        ),
        &[
            "test",
            "what it detects",
            "n",
            "observed",
            "expected",
            "statistic",
            "p",
            "p (adjusted)",
            "result",
        ],
    );
    for t in &v.tests {
        let p = |x: f64| Cell::num(crate::stats::format_p(x), x, "");
        s.row([
            Cell::from(t.name.as_str()),
            Cell::from(t.what_it_detects.as_str()),
            crate::report::count_cell(t.n),
            Cell::num(format!("{:.4}", t.observed), t.observed, ""),
            Cell::num(format!("{:.4}", t.expected), t.expected, ""),
            Cell::num(format!("{:.2}", t.statistic), t.statistic, ""),
            p(t.p_value),
            p(t.p_adjusted),
            Cell::from(match (&t.note, t.pass) {
                (Some(n), _) => n.as_str(),
                (None, true) => "holds",
                (None, false) => "FAILS",
            }),
        ]);
    }
    s
}

/// The names of the shuffle's failed tests.
pub fn shuffle_failures(v: &crate::shuffle::ShuffleVerdict) -> Vec<String> {
    v.tests
        .iter()
        .filter(|t| !t.pass)
        .map(|t| t.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulations_split_into_4096_chunks_and_use_t_intervals() {
        assert_eq!(sim_chunk(0), 1);
        assert_eq!(sim_chunk(1), 1);
        assert_eq!(sim_chunk(4096), 1);
        assert_eq!(sim_chunk(4097), 2);
        assert_eq!(sim_chunk(100_000_000), 24_415);
        // t(0.975, 10) = 2.2281, t(0.995, 4095) = 2.5771 (tables).
        let [lo, hi] = interval(1.0, 0.5, 10, 0.95);
        assert!((lo - (1.0 - 0.5 * 2.228139)).abs() < 1e-5, "{lo}");
        assert!((hi - (1.0 + 0.5 * 2.228139)).abs() < 1e-5, "{hi}");
        let [lo, hi] = interval(0.0, 1.0, 4095, 0.99);
        assert!(
            (hi - 2.5771).abs() < 1e-3 && (lo + 2.5771).abs() < 1e-3,
            "{hi}"
        );
    }

    #[test]
    fn chi_square_by_hand() {
        // (10 − 8)²/8 + (6 − 8)²/8 = 1, df 1: p = P(χ²₁ > 1) = 0.3173.
        let c = ChiSquare::of([(10, 8.0), (6, 8.0)]);
        assert!((c.statistic - 1.0).abs() < 1e-12);
        assert_eq!(c.df, 1);
        assert!((c.p - 0.317_310_507_862_914).abs() < 1e-9, "{}", c.p);
        // A count where none is expected is impossible under the exact distribution.
        let c = ChiSquare::of([(10, 10.0), (1, 0.0), (7, 6.0)]);
        assert!(c.statistic.is_infinite() && c.p == 0.0);
        // Bins expecting fewer than 5 are merged with the next: (1 + 9, 2 + 8) then (10, 10):
        // (10 − 10)²/10 + 0 = 0 with df 1.
        let c = ChiSquare::of([(1, 2.0), (9, 8.0), (10, 10.0)]);
        assert_eq!((c.statistic, c.df, c.p), (0.0, 1, 1.0));
        // A short last bin joins the one before: (6 + 3, 6 + 2) and (8, 8).
        let c = ChiSquare::of([(8, 8.0), (6, 6.0), (3, 2.0)]);
        assert_eq!(c.df, 1);
        assert!((c.statistic - 1.0 / 8.0).abs() < 1e-12);
        // One bin in all: nothing to disagree with.
        let c = ChiSquare::of([(100, 100.0)]);
        assert_eq!((c.df, c.p), (0, 1.0));
        // An outcome that is impossible and did not happen changes nothing, alone too.
        let c = ChiSquare::of([(10, 10.0), (0, 0.0), (10, 10.0)]);
        assert_eq!((c.statistic, c.df, c.p), (0.0, 1, 1.0));
        let c = ChiSquare::of([(0, 0.0)]);
        assert_eq!((c.statistic, c.df, c.p), (0.0, 0, 1.0));
    }

    #[test]
    fn text_sections_hold_their_rows() {
        let rows = vec![("a".to_string(), "b".to_string()), ("c".into(), "d".into())];
        let s = text_section("T", ["k", "v"], &rows);
        assert_eq!(s.name, "T");
        assert_eq!(s.columns, ["k", "v"]);
        let texts: Vec<Vec<&str>> = s
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.text.as_str()).collect())
            .collect();
        assert_eq!(texts, [["a", "b"], ["c", "d"]]);
    }

    #[test]
    fn rounds_needed_by_hand() {
        // SD 1, ±0.1: (1.96/0.1)² = 384.1 → 385; (2.576/0.1)² = 663.5 → 664.
        let v = needed("t", 1.0, &[0.1]);
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].level, v[0].n), (0.95, 385.0));
        assert_eq!((v[1].level, v[1].n), (0.99, 664.0));
        let s = needed_section("N", "±", "rounds", &v, |p| {
            crate::report::Cell::from(p.to_string())
        });
        assert_eq!(s.rows.len(), 1);
        let texts: Vec<&str> = s.rows[0].iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["t", "0.1", "385", "664"]);
    }

    #[test]
    fn identity_hashes_the_rules() {
        let a = Identity::new(&serde_json::json!({"decks": 8}), 1, 10);
        let b = Identity::new(&serde_json::json!({"decks": 6}), 1, 10);
        assert_eq!(a.rules_hash.len(), 16);
        assert_ne!(a.rules_hash, b.rules_hash);
        assert_eq!(a.rng, RNG);
    }
}
