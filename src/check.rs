//! The CI regression check of expected return: committed baselines (`reports/baselines/*.json`),
//! each a small fixed run with its exact sums and its expected value. `check` re-runs every
//! baseline: the sums must match bit for bit (any change of behaviour shows) and the estimate
//! must lie within z standard errors of the expected value. `--bless` rewrites the sums after an
//! intended change and says what moved.

use std::path::{Path, PathBuf};

use crate::game::Outcome;
use crate::report::{Report, Section};

/// Errors in baseline files (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("{0}: {1}")]
    Bad(String, String),
    #[error("no baseline files (*.json) in {0}")]
    Empty(String),
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
}

/// Check (or with `bless`, rewrite) every baseline in `dir`; `z` is the tolerance in SE. Each
/// file names its game (`"game"`), and the game's registry entry runs it.
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
        let text = crate::input::read_text(&f, "baseline file", crate::input::MAX_TEXT_BYTES)?;
        let bad = |e: String| CheckError::Bad(fname.clone(), e);
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| bad(format!("not a baseline file ({e}); see reports/README.md")))?;
        let game = v
            .get("game")
            .and_then(|g| g.as_str())
            .ok_or_else(|| bad("not a baseline file (no \"game\"); see reports/README.md".into()))?
            .to_string();
        let entry = crate::game::find(&game)
            .ok_or_else(|| bad(format!("game '{game}' has no baselines in this version")))?;
        out.push((entry.check)(&f, v, z_limit, bless).map_err(|e| bad(e.to_string()))?);
    }
    Ok(out)
}

/// The table `check` prints.
pub fn report(outcomes: &[Outcome], z_limit: f64, bless: bool) -> Report {
    let mut s = Section::new(
        "Baselines",
        &[
            "baseline", "count", "estimate", "SE", "expected", "z", "sums", "verdict",
        ],
    );
    for o in outcomes {
        // Each game prints its own estimate (blackjack: EV per initial bet in percent).
        let fmt = o.format;
        s.row([
            o.name.clone(),
            o.count.to_string(),
            fmt(o.ev),
            fmt(o.se),
            o.expected.map(fmt).unwrap_or_else(|| "-".into()),
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
    let mut games: Vec<String> = Vec::new();
    for o in outcomes {
        let g = format!("{}: {}", o.game, o.estimate);
        if !games.contains(&g) {
            games.push(g);
        }
    }
    r.meta.push(("estimate".into(), games.join("; ")));
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
