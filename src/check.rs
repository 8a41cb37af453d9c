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
        moved_fields(
            &serde_json::to_value(self).unwrap_or_default(),
            &serde_json::to_value(other).unwrap_or_default(),
        )
    }
}

/// The result of checking one baseline.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub file: PathBuf,
    pub name: String,
    pub game: String,
    /// Rounds, turns or games run.
    pub count: u64,
    /// The estimate (EV per initial bet for blackjack, points for the dice games) and its SE.
    pub ev: f64,
    pub se: f64,
    pub expected: Option<f64>,
    pub z: Option<f64>,
    pub moved: Vec<String>,
    pub ok: bool,
}

/// A dice-game baseline: a small fixed run of Dice of Doom turns (`game: "doom"`, expected
/// value: the exact turn EV of the strategy) or of Twenty One games (`game: "twenty-one"`,
/// sums only).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DiceBaseline {
    pub name: String,
    pub game: String,
    /// Doom: the rule preset (seed, s2-common, zilch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Doom: the strategy of the turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    /// Twenty One: one strategy per seat, and the re-rolls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerolls: Option<u8>,
    pub seed: u64,
    /// Turns (doom) or games (twenty-one).
    pub count: u64,
    pub per_chunk: u64,
    #[serde(default)]
    pub sums: Option<serde_json::Value>,
    #[serde(default)]
    pub expected: Option<Expected>,
}

/// Names and values of the fields of `new` that differ from `old`.
fn moved_fields(new: &serde_json::Value, old: &serde_json::Value) -> Vec<String> {
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
        let text = crate::input::read_text(&f, "baseline file", crate::input::MAX_TEXT_BYTES)?;
        let bad = |e: String| CheckError::Bad(fname.clone(), e);
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| bad(format!("not a baseline file ({e}); see reports/README.md")))?;
        let o = match v.get("game").and_then(|g| g.as_str()) {
            Some("blackjack") => check_blackjack(&f, v, z_limit, bless),
            Some("doom") | Some("twenty-one") => check_dice(&f, v, z_limit, bless),
            Some(g) => Err(format!("game '{g}' has no baselines in this version")),
            None => Err("not a baseline file (no \"game\"); see reports/README.md".into()),
        }
        .map_err(bad)?;
        out.push(o);
    }
    Ok(out)
}

fn write_back<T: Serialize>(f: &Path, b: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(b).map_err(|e| e.to_string())? + "\n";
    std::fs::write(f, text).map_err(|e| e.to_string())
}

fn check_blackjack(
    f: &Path,
    v: serde_json::Value,
    z_limit: f64,
    bless: bool,
) -> Result<Outcome, String> {
    let mut b: Baseline = serde_json::from_value(v)
        .map_err(|e| format!("not a baseline file ({e}); see reports/README.md"))?;
    b.rules.validate().map_err(|e| e.to_string())?;
    let strategy = resolve_strategy(&b.strategy, &b.rules).map_err(|e| e.to_string())?;
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
    let run = simulate(&cfg, &AtomicBool::new(false)).map_err(|e| e.to_string())?;
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
        write_back(f, &b)?;
    }
    let expected = b.expected.as_ref().map(|e| e.ev);
    Ok(outcome(
        f,
        b.name,
        b.game,
        run.acc.counts.rounds,
        ev,
        se,
        expected,
        moved,
        z_limit,
        bless,
    ))
}

#[allow(clippy::too_many_arguments)]
fn outcome(
    f: &Path,
    name: String,
    game: String,
    count: u64,
    ev: f64,
    se: f64,
    expected: Option<f64>,
    moved: Vec<String>,
    z_limit: f64,
    bless: bool,
) -> Outcome {
    let z = expected.map(|e| (ev - e) / se);
    let ok = bless || (moved.is_empty() && z.map(|z| z.abs() <= z_limit).unwrap_or(true));
    Outcome {
        file: f.to_path_buf(),
        name,
        game,
        count,
        ev,
        se,
        expected,
        z,
        moved,
        ok,
    }
}

fn check_dice(
    f: &Path,
    v: serde_json::Value,
    z_limit: f64,
    bless: bool,
) -> Result<Outcome, String> {
    use crate::engine::{run, RunOptions};
    let mut b: DiceBaseline = serde_json::from_value(v)
        .map_err(|e| format!("not a dice baseline file ({e}); see reports/README.md"))?;
    if b.count == 0 || b.per_chunk == 0 {
        return Err("count and per_chunk must be positive".into());
    }
    let stop = AtomicBool::new(false);
    let opts = |chunks: u64| RunOptions {
        seed: b.seed,
        chunks: 0..chunks,
        threads: None,
        progress: false,
        label: String::new(),
    };
    let (ev, se, sums, expected) = if b.game == "doom" {
        use crate::games::doom::{model::Model, rules::*, sim::*, strategy::DoomStrategy};
        use std::sync::Arc;
        let preset = match b.preset.as_deref().unwrap_or("seed") {
            "seed" => DoomPreset::Seed,
            "s2-common" => DoomPreset::S2Common,
            "zilch" => DoomPreset::Zilch,
            p => {
                return Err(format!(
                    "unknown doom preset '{p}' (seed, s2-common, zilch)"
                ))
            }
        };
        let model = Arc::new(Model::new(&DoomRules::preset(preset)));
        let strategy = DoomStrategy::parse(b.strategy.as_deref().unwrap_or("optimal"))?;
        let player = Arc::new(Player::new(&model, strategy));
        let exact = (!player.strategy.endgame).then_some(player.solution.turn_ev);
        let sim = DoomSim {
            model,
            players: vec![player],
            mode: Mode::Turns(b.count),
            start_seat: Some(0),
            per_chunk: b.per_chunk,
        };
        let acc = run(&sim, &opts(sim.chunks()), &stop)
            .map_err(|e| e.to_string())?
            .acc;
        let t = &acc.turns[0];
        let sums = serde_json::json!({
            "turns": t.turns(), "points": t.score.x, "points_squares": t.score.xx,
            "farkles": t.farkles, "dooms": t.dooms, "penalties": t.penalties, "rolls": t.rolls,
        });
        let expected = exact.map(|ev| Expected {
            ev,
            source: "exact turn EV of this strategy (dynamic programming)".into(),
        });
        (t.score.mean(), t.score.se(), sums, expected)
    } else {
        use crate::games::twentyone::{
            rules::TwentyOneRules, sim::TwentyOneSim, strategy::SeatStrategy,
        };
        use std::sync::Arc;
        let mut rules = TwentyOneRules::standard();
        rules.rerolls = b.rerolls.unwrap_or(1);
        rules.validate(b.seats.len())?;
        let seats = b
            .seats
            .iter()
            .map(|s| SeatStrategy::parse(s, rules.rerolls).map(Arc::new))
            .collect::<Result<Vec<_>, String>>()?;
        let sim = TwentyOneSim {
            rules: Arc::new(rules),
            seats,
            games: b.count,
            per_chunk: b.per_chunk,
            start_seat: None,
            record_events: false,
        };
        let acc = run(&sim, &opts(sim.chunks()), &stop)
            .map_err(|e| e.to_string())?
            .acc;
        let sums = serde_json::json!({
            "games": acc.games,
            "scores": acc.score.iter().map(|r| r.x).collect::<Vec<_>>(),
            "score_squares": acc.score.iter().map(|r| r.xx).collect::<Vec<_>>(),
            "wins": acc.wins.iter().map(|r| r.x).collect::<Vec<_>>(),
            "crossings": acc.crossings,
            "rolls": acc.rolls,
        });
        (acc.score[0].mean(), acc.score[0].se(), sums, None)
    };
    let moved = match &b.sums {
        Some(old) => moved_fields(&sums, old),
        None => vec!["(no sums recorded yet)".into()],
    };
    if bless {
        b.sums = Some(sums);
        b.expected = expected;
        write_back(f, &b)?;
    }
    let exp = b.expected.as_ref().map(|e| e.ev);
    Ok(outcome(
        f, b.name, b.game, b.count, ev, se, exp, moved, z_limit, bless,
    ))
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
        // Blackjack: EV per initial bet in percent; dice games: points (turn or seat 1 score).
        let fmt = |x: f64| {
            if o.game == "blackjack" {
                format!("{:.4}%", x * 100.0)
            } else {
                format!("{x:.3}")
            }
        };
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
    r.meta.push((
        "estimate".into(),
        "blackjack: EV per initial bet; doom: mean turn score (points); twenty-one: seat 1's mean final score".into(),
    ));
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
