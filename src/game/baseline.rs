//! A baseline of `check`: its file (the envelope every game shares around its own run
//! request), loading it, running it and comparing its sums and estimate.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use std::sync::atomic::AtomicBool;

use super::{simulate, Baseline, Game, HeadlineKind, RunSpec};

/// A baseline file of `check`: the envelope every game shares around the game's own run
/// request (`Game::Baseline`, whose fields sit beside these in the file).
#[derive(Serialize, Deserialize)]
pub struct BaselineFile<B> {
    pub name: String,
    pub game: String,
    pub seed: u64,
    #[serde(flatten)]
    pub run: B,
    /// Exact sums of the run (filled by `--bless`).
    #[serde(default)]
    pub sums: Option<serde_json::Value>,
    /// The expected value of the headline estimate and where it comes from (exact analysis).
    #[serde(default)]
    pub expected: Option<Expected>,
    /// The exact RTP of each side bet the run places (filled by `--bless`; absent without side
    /// bets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected_side_bets: Vec<ExpectedWager>,
}

/// A side bet of a baseline's run (`sides` in the game's part): a `--side` value (a built-in
/// name, with its stake after ':') and, optionally, the tolerance of its check in its own SE
/// (default: `check --z`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SideEntry {
    pub side: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
}

/// A side bet's exact RTP per unit staked, as a baseline records it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ExpectedWager {
    pub name: String,
    pub rtp: f64,
}

/// What `check` found for one side bet of a baseline: its RTP per unit staked against the
/// recorded exact one, in its own SE, within its tolerance.
#[derive(Clone, Debug, Serialize)]
pub struct WagerOutcome {
    pub name: String,
    /// Wagers settled.
    pub bets: u64,
    pub rtp: f64,
    pub se: f64,
    pub expected: Option<f64>,
    pub z: Option<f64>,
    /// The tolerance in SE (the baseline's own for this wager, or `--z`).
    pub z_limit: f64,
    pub ok: bool,
}

/// An expected value and where it comes from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Expected {
    pub ev: f64,
    pub source: String,
}

/// An error of a name-keyed command, from whichever game.
pub type AnyError = Box<dyn std::error::Error + Send + Sync>;

/// A baseline file read and its run set up, not yet run (called with the tolerance in SE and
/// whether to bless). `check` loads every baseline before it runs any, so a bad file is refused
/// before the work starts.
pub type PendingCheck = Box<dyn FnOnce(f64, bool) -> Result<Outcome, AnyError>>;

/// What `check` found for one baseline.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub file: PathBuf,
    pub name: String,
    pub game: String,
    /// Rounds, turns or games run.
    pub count: u64,
    /// The headline estimate and its SE, as its kind prints them.
    pub ev: f64,
    pub se: f64,
    pub expected: Option<f64>,
    pub z: Option<f64>,
    pub moved: Vec<String>,
    /// Each side bet of the run, checked on its own (`ok` includes them).
    pub wagers: Vec<WagerOutcome>,
    pub ok: bool,
    /// With `--bless`, the baseline file's new text, written by `write_blessed` once every
    /// baseline has run (so a failure leaves every file as it was).
    pub blessed: Option<String>,
    /// What the estimate is, its unit and format.
    pub kind: HeadlineKind,
}

/// Names and values of the fields of `new` that differ from `old`.
pub fn moved_fields(new: &serde_json::Value, old: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (new.as_object(), old.as_object()) {
        for (k, v) in a {
            if b.get(k) != Some(v) {
                out.push(format!(
                    "{k} {} -> {}",
                    b.get(k).cloned().unwrap_or_default(),
                    v
                ));
            }
        }
    }
    out
}

/// The first key (as a path, `rules.dekcs`) of `given` that `known` (the same file read and
/// written back) does not have, in objects present in both.
fn unknown_key(given: &serde_json::Value, known: &serde_json::Value, at: &str) -> Option<String> {
    let (serde_json::Value::Object(g), serde_json::Value::Object(k)) = (given, known) else {
        return None;
    };
    for (key, v) in g {
        let path = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        match k.get(key) {
            None => return Some(path),
            Some(kv) => {
                if let Some(u) = unknown_key(v, kv, &path) {
                    return Some(u);
                }
            }
        }
    }
    None
}

/// Read one baseline of `G` and set up its run: the file's keys and run settings are checked
/// here, before anything runs. The returned check re-runs it and compares (or, with `bless`,
/// records) its sums.
pub fn load_baseline<G: Game>(
    file: &Path,
    value: serde_json::Value,
) -> Result<PendingCheck, AnyError> {
    let b: BaselineFile<G::Baseline> = serde_json::from_value(value.clone()).map_err(|e| {
        format!(
            "not a {} baseline file ({e}); see reports/README.md",
            G::NAME
        )
    })?;
    // A misspelt key would otherwise be ignored and its default used: every key of the file
    // must be one the baseline writes back (serde's deny_unknown_fields cannot be combined
    // with the flattened game part).
    let back = serde_json::to_value(&b).map_err(|e| e.to_string())?;
    if let Some(key) = unknown_key(&value, &back, "") {
        return Err(format!(
            "unknown key '{key}' in the {} baseline file; see reports/README.md for its keys",
            G::NAME
        )
        .into());
    }
    let (cfg, chunk) = b.run.run()?;
    for e in b.run.side_z().into_iter().flatten() {
        if !(e.is_finite() && e > 0.0) {
            return Err(format!(
                "a side bet's \"z\": {e}: the tolerance must be a positive, finite number of standard errors (e.g. 4)"
            )
            .into());
        }
    }
    let file = file.to_path_buf();
    Ok(Box::new(move |z_limit, bless| {
        run_baseline::<G>(&file, b, cfg, chunk, z_limit, bless)
    }))
}

/// Check one baseline file (parsed JSON): load it, run it, compare.
pub fn check_baseline<G: Game>(
    file: &Path,
    value: serde_json::Value,
    z_limit: f64,
    bless: bool,
) -> Result<Outcome, AnyError> {
    let o = load_baseline::<G>(file, value)?(z_limit, bless)?;
    o.write_blessed()?;
    Ok(o)
}

impl Outcome {
    /// Write a blessed baseline's new text (temporary file and rename); nothing without one.
    pub fn write_blessed(&self) -> Result<(), AnyError> {
        if let Some(text) = &self.blessed {
            crate::door::replace(&self.file, text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", self.file.display()))?;
        }
        Ok(())
    }
}

/// Run a loaded baseline and compare its sums and estimate (or, with `bless`, rewrite them).
fn run_baseline<G: Game>(
    file: &Path,
    mut b: BaselineFile<G::Baseline>,
    cfg: G::Config,
    chunk: u64,
    z_limit: f64,
    bless: bool,
) -> Result<Outcome, AnyError> {
    let spec = RunSpec {
        seed: b.seed,
        chunk: Some(chunk),
        ..RunSpec::default()
    };
    let expected_now = if bless {
        G::Baseline::expected(&cfg)?
    } else {
        None
    };
    let wager_info = G::wagers(&cfg);
    let side_z = b.run.side_z();
    let kind = G::headline_kind(&cfg);
    let run = simulate::<G>(cfg, &spec, &AtomicBool::new(false))?;
    let mut sums = G::Baseline::sums(&run.acc);
    let wager_sums = G::wager_sums(&run.config, &run.acc);
    if let (Some(o), false) = (sums.as_object_mut(), wager_sums.is_empty()) {
        // Each side bet's sums, in units of its paytable (a stake is a whole number of them).
        let sides: Vec<serde_json::Value> = wager_info
            .iter()
            .zip(&wager_sums)
            .map(|(w, r)| {
                serde_json::json!({
                    "name": w.name,
                    "bets": r.n,
                    "net": r.x.to_string(),
                    "staked": r.y.to_string(),
                    "net_squares": r.xx.to_string(),
                })
            })
            .collect();
        o.insert("side_bets".into(), sides.into());
    }
    let moved = match &b.sums {
        Some(old) => moved_fields(&sums, old),
        None => vec!["(no sums recorded yet)".into()],
    };
    let blessed = if bless {
        b.sums = Some(sums);
        b.expected = expected_now;
        b.expected_side_bets = wager_info
            .iter()
            .map(|w| ExpectedWager {
                name: w.name.clone(),
                rtp: w.exact_rtp,
            })
            .collect();
        Some(serde_json::to_string_pretty(&b).map_err(|e| e.to_string())? + "\n")
    } else {
        None
    };
    let headline = G::headline(&run.config, &run.acc);
    let (count, (ev, se)) = (headline.count, kind.estimate(&headline.ratio));
    let expected = b.expected.as_ref().map(|e| e.ev);
    let z = expected.map(|e| (ev - e) / se);
    let wagers: Vec<WagerOutcome> = wager_info
        .iter()
        .zip(&wager_sums)
        .enumerate()
        .map(|(i, (w, r))| {
            let (rtp, se) = (1.0 + r.mean(), r.se());
            // The recorded RTP of the same wager (a baseline blessed before it was placed, or
            // with another, has none: bless it again).
            let expected = b
                .expected_side_bets
                .get(i)
                .filter(|e| e.name == w.name)
                .map(|e| e.rtp);
            let z = expected.map(|e| (rtp - e) / se);
            let limit = side_z.get(i).copied().flatten().unwrap_or(z_limit);
            WagerOutcome {
                name: w.name.clone(),
                bets: r.n,
                rtp,
                se,
                expected,
                z,
                z_limit: limit,
                ok: bless || z.is_some_and(|z| z.abs() <= limit),
            }
        })
        .collect();
    let ok = bless
        || (moved.is_empty()
            && z.map(|z| z.abs() <= z_limit).unwrap_or(true)
            && wagers.iter().all(|w| w.ok));
    Ok(Outcome {
        file: file.to_path_buf(),
        name: b.name.clone(),
        game: G::NAME.to_string(),
        count,
        ev,
        se,
        expected,
        z,
        moved,
        wagers,
        ok,
        blessed,
        kind,
    })
}
