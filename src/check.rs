//! The CI regression check of expected return: committed baselines (`reports/baselines/*.json`),
//! each a small fixed run with its exact sums and its expected value. `check` re-runs every
//! baseline: the sums must match bit for bit (any change of behaviour shows) and the estimate
//! must lie within z standard errors of the expected value. `--bless` rewrites the sums after an
//! intended change and says what moved.

use std::path::{Path, PathBuf};

use crate::game::{Entry, Outcome};
use crate::report::{count_cell, Cell, Report, Section};

/// Errors in baseline files (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("{0}: {1}")]
    Bad(String, String),
    #[error(
        "--z {0}: the tolerance must be a positive, finite number of standard errors (e.g. 4)"
    )]
    Z(f64),
    #[error("no baseline files (*.json) in {0}")]
    Empty(String),
    #[error(transparent)]
    Input(#[from] crate::door::input::InputError),
}

crate::job::carried!(CheckError);

/// Check (or with `bless`, rewrite) every baseline in `dir`; `z` is the tolerance in SE. Each
/// file names its game (`"game"`), and that game's entry among `games` runs it.
pub fn check_dir(
    dir: &Path,
    z_limit: f64,
    bless: bool,
    games: &[Entry],
    progress: bool,
) -> Result<Vec<Outcome>, CheckError> {
    let name = dir.display().to_string();
    // The folder as the door holds it: each baseline opened through it, never by a name
    // resolved again (a link among them is not followed).
    let files = crate::door::input::folder_files(dir, ".json", "baseline file").map_err(|e| {
        CheckError::Bad(
            name.clone(),
            format!("cannot read the baseline folder: {e}"),
        )
    })?;
    if files.is_empty() {
        return Err(CheckError::Empty(name));
    }
    if !(z_limit.is_finite() && z_limit > 0.0) {
        return Err(CheckError::Z(z_limit));
    }
    // Every file is read and its run set up before any runs: a bad file costs no work.
    let mut pending = Vec::new();
    for (n, file) in files {
        let f = dir.join(&n);
        let fname = f.display().to_string();
        let text = crate::door::input::read_open(
            file,
            &f,
            "baseline file",
            crate::door::input::MAX_TEXT_BYTES,
        )?;
        let bad = |e: String| CheckError::Bad(fname.clone(), e);
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| bad(format!("not a baseline file ({e}); see reports/README.md")))?;
        let game = v
            .get("game")
            .and_then(|g| g.as_str())
            .ok_or_else(|| bad("not a baseline file (no \"game\"); see reports/README.md".into()))?
            .to_string();
        let entry = crate::game::find(games, &game)
            .ok_or_else(|| bad(format!("game '{game}' has no baselines in this version")))?;
        pending.push((
            fname.clone(),
            (entry.check)(&f, v).map_err(|e| bad(e.to_string()))?,
        ));
    }
    let bar = crate::progress::Progress::new(
        progress,
        pending.len() as u64,
        "checking the baselines",
        "baselines",
    );
    let outcomes = pending
        .into_iter()
        .map(|(fname, check)| {
            let o = check(z_limit, bless).map_err(|e| CheckError::Bad(fname, e.to_string()));
            bar.advance(1);
            o
        })
        .collect::<Result<Vec<Outcome>, CheckError>>()?;
    bar.finish();
    // Blessed files are rewritten only when every baseline has run.
    for o in &outcomes {
        o.write_blessed()
            .map_err(|e| CheckError::Bad(o.file.display().to_string(), e.to_string()))?;
    }
    Ok(outcomes)
}

/// The table `check` prints.
pub fn report(outcomes: &[Outcome], z_limit: f64, bless: bool) -> Report {
    let mut s = Section::new(
        "Baselines",
        &[
            "baseline", "count", "estimate", "SE", "expected", "z", "sums", "verdict",
        ],
    );
    let verdict = |o: &Outcome| {
        if bless {
            "blessed"
        } else if o.ok {
            "ok"
        } else {
            "FAIL"
        }
    };
    let sums = |o: &Outcome| if o.moved.is_empty() { "same" } else { "MOVED" };
    for o in outcomes {
        // Each game prints its own estimate (blackjack: EV per initial bet in percent); CSV
        // carries the raw numbers in the game's unit.
        let fmt = o.kind.format;
        let num = |v: f64| Cell::num(fmt(v), v, o.kind.unit);
        s.row([
            o.name.clone().into(),
            count_cell(o.count),
            num(o.ev),
            num(o.se),
            o.expected.map(num).unwrap_or_else(|| "-".into()),
            o.z.map(|z| Cell::num(format!("{z:+.2}"), z, "SE"))
                .unwrap_or_else(|| "-".into()),
            sums(o).into(),
            verdict(o).into(),
        ]);
    }
    let mut sections = vec![s];
    if outcomes.iter().any(|o| !o.wagers.is_empty()) {
        sections.push(wagers_section(outcomes, bless));
    }
    let mut r = Report {
        title: "rtplab check: regression of expected return".into(),
        sections,
        ..Default::default()
    };
    let mut games: Vec<String> = Vec::new();
    for o in outcomes {
        let g = format!("{}: {}", o.game, o.kind.what);
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
    let baselines: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            serde_json::json!({
                "name": o.name,
                "file": o.file.display().to_string(),
                "game": o.game,
                "estimate": o.kind.what,
                "unit": o.kind.unit,
                "count": o.count,
                "ev": o.ev,
                "se": o.se,
                "expected": o.expected,
                "z": o.z,
                "sums": sums(o),
                "moved": o.moved,
                "side_bets": o.wagers,
                "verdict": verdict(o),
                "ok": o.ok,
            })
        })
        .collect();
    r.json = serde_json::json!({
        "version": crate::VERSION,
        "command": "check",
        "z_limit": z_limit,
        "bless": bless,
        "ok": outcomes.iter().all(|o| o.ok),
        "baselines": baselines,
    });
    r
}

/// Each side bet of every baseline: its RTP per unit staked against the recorded exact RTP,
/// in its own SE, within its tolerance.
fn wagers_section(outcomes: &[Outcome], bless: bool) -> Section {
    use crate::report::pct_cell;
    let mut s = Section::new(
        "Side bets (RTP per unit staked, each within its own tolerance)",
        &[
            "baseline",
            "side bet",
            "RTP",
            "SE",
            "expected",
            "z (limit)",
            "verdict",
        ],
    );
    for o in outcomes {
        for w in &o.wagers {
            let verdict = match (bless, w.ok, w.expected) {
                (true, _, _) => "blessed",
                (_, true, _) => "ok",
                (_, false, None) => "FAIL (no expected RTP: bless)",
                _ => "FAIL",
            };
            s.row([
                o.name.clone().into(),
                w.name.clone().into(),
                pct_cell(w.rtp, 3),
                pct_cell(w.se, 3),
                w.expected
                    .map(|e| pct_cell(e, 4))
                    .unwrap_or_else(|| "-".into()),
                w.z.map(|z| Cell::num(format!("{z:+.2} ({})", w.z_limit), z, "SE"))
                    .unwrap_or_else(|| format!("- ({})", w.z_limit).into()),
                verdict.into(),
            ]);
        }
    }
    s
}

/// `check`: the folder of baselines, the tolerance in SE, whether to rewrite them, where the
/// report goes. It fails when a baseline moved.
pub struct CheckJob {
    /// The games (the registry): a baseline file names its own.
    pub games: Vec<Entry>,
    pub dir: PathBuf,
    pub z: f64,
    pub bless: bool,
    pub outputs: crate::job::Outputs,
}

impl crate::job::Job for CheckJob {
    fn outputs(&self) -> &crate::job::Outputs {
        &self.outputs
    }
    fn run(self, ctx: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        let outcomes = check_dir(&self.dir, self.z, self.bless, &self.games, ctx.progress)?;
        let ok = outcomes.iter().all(|o| o.ok);
        let report = report(&outcomes, self.z, self.bless);
        Ok(crate::job::Outcome::report(
            report,
            crate::job::Status::checked(ok),
        ))
    }
}
