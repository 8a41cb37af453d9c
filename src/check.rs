//! The CI regression check of expected return: committed baselines (`reports/baselines/*.json`),
//! each a small fixed run with its exact sums and its expected value. `check` re-runs every
//! baseline: the sums must match bit for bit (any change of behaviour shows) and the estimate
//! must lie within z standard errors of the expected value. `--bless` rewrites the sums after an
//! intended change and says what moved.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::games::blackjack::app::{resolve_strategy, simulate, BjConfig};
use crate::games::blackjack::exact::{analyze, DealerTable, Follow};
use crate::games::blackjack::report::{BehindFollows, SideBets};
use crate::games::blackjack::rules::{Rules, Shuffle};
use crate::games::blackjack::sim::BjAcc;
use crate::games::blackjack::strategy::StrategySpec;
use crate::report::{Report, Section};

/// One baseline file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Baseline {
    pub name: String,
    pub game: String,
    pub rules: Rules,
    /// A strategy name as `--strategy` takes it (chart paths relative to the repository).
    pub strategy: String,
    #[serde(default)]
    pub insure: bool,
    pub seed: u64,
    pub rounds: u64,
    pub chunk_shoes: u64,
    /// Exact sums of the run (filled by `--bless`).
    #[serde(default)]
    pub sums: Option<Sums>,
    /// Expected EV per initial bet and where it comes from (exact analysis when the shoe is
    /// shuffled every round; none with a cut card, whose effect the full-shoe analysis lacks).
    #[serde(default)]
    pub expected: Option<Expected>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Expected {
    pub ev: f64,
    pub source: String,
}

/// The sums compared bit for bit.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Sums {
    pub rounds: u64,
    pub net: i128,
    pub net_squares: i128,
    pub wagered: i128,
    pub pairs: i128,
    pub insurance: i128,
    pub doubles: u64,
    pub splits: u64,
    pub surrenders: u64,
    pub naturals: u64,
    pub dealer_busts: u64,
}

impl Sums {
    fn of(acc: &BjAcc) -> Sums {
        Sums {
            rounds: acc.counts.rounds,
            net: acc.main.x,
            net_squares: acc.main.xx,
            wagered: acc.wagered.y,
            pairs: acc.pairs.x,
            insurance: acc.insurance.x,
            doubles: acc.counts.doubles,
            splits: acc.counts.splits,
            surrenders: acc.counts.surrenders,
            naturals: acc.counts.naturals,
            dealer_busts: acc.counts.dealer_busts,
        }
    }

    /// Names of the fields that differ.
    fn moved(&self, other: &Sums) -> Vec<String> {
        let a = serde_json::to_value(self).unwrap_or_default();
        let b = serde_json::to_value(other).unwrap_or_default();
        let mut out = Vec::new();
        if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
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
}

/// The result of checking one baseline.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub file: PathBuf,
    pub baseline: Baseline,
    pub ev: f64,
    pub se: f64,
    pub z: Option<f64>,
    pub moved: Vec<String>,
    pub ok: bool,
}

/// Errors in baseline files (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("{0}: {1}")]
    Bad(String, String),
    #[error("no baseline files (*.json) in {0}")]
    Empty(String),
}

fn expected_of(b: &Baseline, strategy: &StrategySpec) -> Option<Expected> {
    if b.rules.shuffle != Shuffle::EveryRound || b.insure {
        return None;
    }
    let t = DealerTable::shared(b.rules.h17);
    let ev = crate::with_strategy!(strategy, b.rules.h17, |s| analyze(&b.rules, &Follow(s), t)
        .ev);
    Some(Expected {
        ev,
        source: "exact analysis of this strategy (full shoe, shuffled every round)".into(),
    })
}

/// Check (or with `bless`, rewrite) every baseline in `dir`; `z` is the tolerance in SE.
pub fn check_dir(dir: &Path, z_limit: f64, bless: bool) -> Result<Vec<Outcome>, CheckError> {
    let name = dir.display().to_string();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| {
            CheckError::Bad(
                name.clone(),
                format!("cannot read the baseline folder: {e}"),
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("json"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(CheckError::Empty(name));
    }
    let mut out = Vec::new();
    for f in files {
        let fname = f.display().to_string();
        let text = std::fs::read_to_string(&f)
            .map_err(|e| CheckError::Bad(fname.clone(), e.to_string()))?;
        let mut b: Baseline = serde_json::from_str(&text).map_err(|e| {
            CheckError::Bad(
                fname.clone(),
                format!("not a baseline file ({e}); see reports/README.md"),
            )
        })?;
        if b.game != "blackjack" {
            return Err(CheckError::Bad(
                fname,
                format!("game '{}' has no baselines in this version", b.game),
            ));
        }
        b.rules
            .validate()
            .map_err(|e| CheckError::Bad(fname.clone(), e.to_string()))?;
        let strategy = resolve_strategy(&b.strategy, &b.rules)
            .map_err(|e| CheckError::Bad(fname.clone(), e.to_string()))?;
        let cfg = BjConfig {
            rules: b.rules.clone(),
            strategy: strategy.clone(),
            bets: SideBets {
                pairs: 0.0,
                behind: 0.0,
                behind_follows: BehindFollows::All,
                insure: b.insure,
            },
            seed: b.seed,
            rounds: b.rounds,
            chunk_shoes: Some(b.chunk_shoes),
            threads: None,
            progress: false,
            shard: None,
        };
        let run = simulate(&cfg, &AtomicBool::new(false))
            .map_err(|e| CheckError::Bad(fname.clone(), e.to_string()))?;
        let u = b.rules.units_per_bet() as f64;
        let (ev, se) = (run.acc.main.mean() / u, run.acc.main.se() / u);
        let sums = Sums::of(&run.acc);
        let moved = match &b.sums {
            Some(old) => sums.moved(old),
            None => vec!["(no sums recorded yet)".into()],
        };
        if bless {
            b.expected = expected_of(&b, &strategy);
            b.sums = Some(sums);
            let text = serde_json::to_string_pretty(&b)
                .map_err(|e| CheckError::Bad(fname.clone(), e.to_string()))?
                + "\n";
            std::fs::write(&f, text).map_err(|e| CheckError::Bad(fname.clone(), e.to_string()))?;
        }
        let z = b.expected.as_ref().map(|e| (ev - e.ev) / se);
        let ok = bless || (moved.is_empty() && z.map(|z| z.abs() <= z_limit).unwrap_or(true));
        out.push(Outcome {
            file: f,
            baseline: b,
            ev,
            se,
            z,
            moved,
            ok,
        });
    }
    Ok(out)
}

/// The table `check` prints.
pub fn report(outcomes: &[Outcome], z_limit: f64, bless: bool) -> Report {
    let mut s = Section::new(
        "Baselines",
        &[
            "baseline", "rounds", "EV", "SE", "expected", "z", "sums", "verdict",
        ],
    );
    for o in outcomes {
        s.row([
            o.baseline.name.clone(),
            o.baseline
                .sums
                .as_ref()
                .map(|x| x.rounds.to_string())
                .unwrap_or_default(),
            format!("{:.4}%", o.ev * 100.0),
            format!("{:.4}%", o.se * 100.0),
            o.baseline
                .expected
                .as_ref()
                .map(|e| format!("{:.4}%", e.ev * 100.0))
                .unwrap_or_else(|| "-".into()),
            o.z.map(|z| format!("{z:+.2}"))
                .unwrap_or_else(|| "-".into()),
            if o.moved.is_empty() {
                "same".into()
            } else {
                "MOVED".into()
            },
            if bless {
                "blessed".into()
            } else if o.ok {
                "ok".into()
            } else {
                "FAIL".into()
            },
        ]);
    }
    let mut r = Report {
        title: "rtplab check: regression of expected return".into(),
        sections: vec![s],
        ..Default::default()
    };
    r.meta.push((
        "tolerance".into(),
        format!("|z| <= {z_limit} against the expected value; sums bit for bit"),
    ));
    for o in outcomes {
        if !o.moved.is_empty() {
            r.notes.push(format!(
                "{}: moved: {}",
                o.file.display(),
                o.moved.join("; ")
            ));
        }
    }
    r
}
