//! The small exact game of two or three seats played to win (`exact doom --players 3
//! --objective win`): every seat's chance under exact play, and what one seat loses playing a
//! strategy instead while the others play exactly.

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::super::model::Model;
use super::super::rules::{DoomRules, EndRule};
use super::super::sim::{SeatPlay, SolvedStrategy};
use super::super::strategy::DoomStrategy;
use super::super::win::multi::{SmallGame, SmallGameError};
use super::super::win::{WinError, WinSolution};
use crate::door::cache::{seal, unseal, Cache, Key};
use crate::report::{count, fixed_cell, Report, Section};

/// The small game's report model.
#[derive(Clone, Debug, Serialize)]
pub struct SmallModel {
    pub game: &'static str,
    pub objective: &'static str,
    pub players: u8,
    pub rules: DoomRules,
    pub target: u64,
    pub end: &'static str,
    pub method: &'static str,
    /// Every seat's chance of winning from the start when every seat plays exactly (seat 1
    /// moves first; ties shared).
    pub p_win: Vec<f64>,
    /// Positions before the last round (seat to move × scores).
    pub positions: u64,
    /// Passes of the policy iteration round the cycles, in all and at most in one.
    pub passes: u64,
    pub max_passes: u64,
    pub residual: f64,
    /// Points past the bar a last-round turn is followed, and the error bound it leaves.
    pub cap_points: u64,
    pub cap_bound: f64,
    /// A turn's points are followed this far (the chance of one turn reaching them: `tail_p`).
    pub tail_points: u64,
    pub tail_p: f64,
    pub solve_s: f64,
    /// One seat played by each strategy, the others exactly (complete strategies only).
    pub strategies: Vec<SeatLoss>,
    /// A signal stopped the run before every strategy was evaluated.
    pub interrupted: bool,
}

/// One strategy in each seat in turn.
#[derive(Clone, Debug, Serialize)]
pub struct SeatLoss {
    pub strategy: String,
    pub seats: Vec<SeatLossCell>,
    /// The mean over the seats of the loss (a game whose starting seat rotates).
    pub mean_loss: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatLossCell {
    /// 1-based, in the order of play.
    pub seat: u8,
    /// The seat's chance of winning playing the strategy, and playing exactly.
    pub p_win: f64,
    pub exact: f64,
    pub loss: f64,
}

/// Why the small game cannot be solved or a strategy evaluated in it.
#[derive(Debug, thiserror::Error)]
pub enum SmallError {
    #[error(transparent)]
    Win(#[from] WinError),
    #[error(transparent)]
    Game(#[from] SmallGameError),
    #[error("--strategy {0}: win-optimal plays games of two; in a game of three use win-field or win-leader")]
    WinOptimal(String),
    #[error("--strategy {0}: the exact game plays strategies that take the set-aside of highest value (drop the +keep- suffix)")]
    Keep(String),
    #[error(transparent)]
    Cache(#[from] crate::door::cache::CacheError),
    #[error("interrupted: {0}")]
    Stopped(String),
}

/// The strategies evaluated when none are given.
pub const DEFAULT_STRATEGIES: [&str; 3] = ["win-field", "win-leader", "optimal"];

/// Whether the small game can evaluate `s` (checked before the solve).
pub fn check_strategy(s: &DoomStrategy, players: usize) -> Result<(), SmallError> {
    if s.win && s.multi.is_none() && players > 2 {
        return Err(SmallError::WinOptimal(s.spec.clone()));
    }
    if !s.win && s.policy.keep != super::super::exact::Keep::Best {
        return Err(SmallError::Keep(s.spec.clone()));
    }
    Ok(())
}

/// The version of a stopped small game's saved progress: raised when a change to the solve
/// or the evaluations could change what it holds.
pub const KEPT_VERSION: u32 = 1;

/// The cache entry of a stopped run of the small game of `players` seats under `m`'s rules
/// and target evaluating `strategies`: everything its result depends on.
pub fn partial_key(m: &Model, players: usize, strategies: &[DoomStrategy]) -> Key {
    let specs: Vec<&str> = strategies.iter().map(|s| s.spec.as_str()).collect();
    Key {
        kind: "doom-small-partial".into(),
        version: KEPT_VERSION,
        identity: format!(
            "rtplab {}\nrules {}\nplayers {players}\ntwo-player solve exact\nstrategies {}",
            env!("CARGO_PKG_VERSION"),
            serde_json::to_string(&m.rules.unlabelled()).unwrap_or_default(),
            specs.join("\n")
        ),
    }
}

/// What a stopped run keeps: the solve's game (whole or not), the seats' evaluations done (a
/// seat's chances of every seat, strategy by strategy, seat by seat), and the evaluation in
/// progress, if it had begun.
struct Kept {
    game: SmallGame,
    done: Vec<Vec<f64>>,
    current: Option<SmallGame>,
}

impl Kept {
    /// The bytes of a stopped run's progress (what [`Kept::decode`] reads), sealed for `key`.
    fn encode(
        key: &Key,
        game: &SmallGame,
        done: &[Vec<f64>],
        current: Option<&SmallGame>,
    ) -> Vec<u8> {
        let mut body = Vec::new();
        let mut part = |b: Vec<u8>| {
            body.extend_from_slice(&(b.len() as u64).to_le_bytes());
            body.extend_from_slice(&b);
        };
        part(game.to_bytes());
        part(
            done.iter()
                .flatten()
                .flat_map(|x| x.to_bits().to_le_bytes())
                .collect(),
        );
        if let Some(c) = current {
            part(c.to_bytes());
        }
        seal(key, &body)
    }

    fn decode(
        key: &Key,
        m: &Model,
        sol: &WinSolution,
        players: usize,
        evaluations: usize,
        bytes: &[u8],
    ) -> Result<Kept, String> {
        let mut body = unseal(key, bytes)?;
        let damaged = || "the saved progress is damaged".to_string();
        let mut parts = Vec::new();
        while !body.is_empty() {
            let (n, rest) = body.split_at_checked(8).ok_or_else(damaged)?;
            let n = u64::from_le_bytes(n.try_into().map_err(|_| damaged())?) as usize;
            let (p, rest) = rest.split_at_checked(n).ok_or_else(damaged)?;
            parts.push(p);
            body = rest;
        }
        if !(2..=3).contains(&parts.len()) || parts[1].len() % (8 * players) != 0 {
            return Err(damaged());
        }
        let game = SmallGame::from_bytes(m, sol, players, parts[0])?;
        let done: Vec<Vec<f64>> = parts[1]
            .chunks(8 * players)
            .map(|c| {
                c.chunks(8)
                    .map(|x| f64::from_bits(u64::from_le_bytes(x.try_into().expect("8 bytes"))))
                    .collect()
            })
            .collect();
        let current = match parts.get(2) {
            Some(p) => Some(SmallGame::from_bytes(m, sol, players, p)?),
            None => None,
        };
        if done.len() > evaluations || (!game.is_whole() && (current.is_some() || !done.is_empty()))
        {
            return Err(damaged());
        }
        Ok(Kept {
            game,
            done,
            current,
        })
    }

    /// The work done (of the run's, as [`small_model`] counts it).
    fn work_done(&self, m: &Model, sol: &WinSolution, players: usize) -> u64 {
        let solve = self.game.work_done(m, None);
        if !self.game.is_whole() {
            return solve;
        }
        let seat = |j: usize| SmallGame::work(m, sol, players, Some(j));
        let done: u64 = (0..self.done.len()).map(|k| seat(k % players)).sum();
        let current = self
            .current
            .as_ref()
            .map_or(0, |c| c.work_done(m, Some(self.done.len() % players)));
        solve + done + current
    }
}

/// Solve the game of `players` seats and evaluate each strategy in every seat; progress on
/// a terminal when `progress`. With `cache` (the run's progress kept there), a signal
/// (`stop`) stops the solve or the evaluation in progress at the end of a sum of scores and
/// saves what is done, which the same command resumes; a stop during the solve ends in
/// [`SmallError::Stopped`], one during the evaluations in a report of the strategies done.
/// Without, a signal ends the run after the strategy in progress.
pub fn small_model(
    m: &Model,
    players: usize,
    strategies: &[DoomStrategy],
    progress: bool,
    stop: &AtomicBool,
    cache: Option<&Cache>,
) -> Result<SmallModel, SmallError> {
    for s in strategies {
        check_strategy(s, players)?;
    }
    WinSolution::solvable(m)?;
    SmallGame::check(m, players)?;
    let start = std::time::Instant::now();
    // The two-player solve first, its own stage (its own bar).
    let sol = WinSolution::solve_with(
        m,
        &super::super::win::WinOptions {
            progress,
            ..super::super::win::WinOptions::exact()
        },
    )?;
    let key = partial_key(m, players, strategies);
    let evaluations = strategies.len() * players;
    let kept = cache.and_then(|c| {
        c.load(&key, |b| {
            Kept::decode(&key, m, &sol, players, evaluations, b)
        })
    });
    let work = SmallGame::work(m, &sol, players, None)
        + strategies.len() as u64
            * (0..players)
                .map(|j| SmallGame::work(m, &sol, players, Some(j)))
                .sum::<u64>();
    let the_game = if players == 3 {
        "game of three"
    } else {
        "game of two"
    };
    let bar = crate::progress::Progress::percent(progress, work, the_game, "of the turn levels");
    if let (Some(k), Some(c)) = (&kept, cache) {
        let done = k.work_done(m, &sol, players);
        crate::door::say(&format!(
            "resuming the {the_game} ({:.0}% done) saved at\n  {}",
            100.0 * done as f64 / work.max(1) as f64,
            c.path(&key).display()
        ));
        bar.resume(done);
    } else if let Some(c) = cache.filter(|_| progress) {
        crate::door::say(&format!(
            "Solving the {the_game} to {}; a stopped solve is kept at\n  {}",
            count(m.rules.target),
            c.path(&key).display()
        ));
    }
    let advance = |n: u64| bar.advance(n);
    // Stopped part way only where the progress is kept.
    let halt = cache.map(|_| stop);
    let (from, mut done, mut current) = match kept {
        Some(k) => (Some(k.game), k.done, k.current),
        None => (None, Vec::new(), None),
    };
    let save = |game: &SmallGame, done: &[Vec<f64>], current: Option<&SmallGame>| -> String {
        let Some(c) = cache else {
            return "nothing was saved (no cache)".into();
        };
        match c.save(&key, &Kept::encode(&key, game, done, current)) {
            Ok(p) => format!(
                "the progress is saved at\n  {}\nrun the same command again to resume",
                p.display()
            ),
            Err(e) => format!("the progress could not be saved: {e}"),
        }
    };
    let g = SmallGame::solve_until(m, &sol, players, from, &advance, halt)?;
    if !g.is_whole() {
        bar.finish();
        let said = save(&g, &done, None);
        return Err(SmallError::Stopped(format!(
            "the {the_game} was not solved; {said}"
        )));
    }
    let exact = g.start();
    let mut out = Vec::new();
    let mut interrupted = false;
    'strategies: for (k, s) in strategies.iter().enumerate() {
        if cache.is_none() && stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        let pl = SolvedStrategy::new(m, s.clone());
        let guide = SeatPlay::new(m, &sol, &pl);
        let mut seats = Vec::new();
        for (j, &x) in exact.iter().enumerate() {
            let at = k * players + j;
            if at == done.len() {
                let e = g.evaluate_until(j, &guide, current.take(), &advance, halt)?;
                if !e.is_whole() {
                    interrupted = true;
                    bar.finish();
                    let begun = Some(&e).filter(|e| e.work_done(m, Some(j)) > 0);
                    let said = save(&g, &done, begun);
                    crate::door::say(&format!("interrupted: {said}"));
                    break 'strategies;
                }
                done.push(e.start());
            }
            let v = &done[at];
            seats.push(SeatLossCell {
                seat: j as u8 + 1,
                p_win: v[j],
                exact: x,
                loss: x - v[j],
            });
        }
        let mean_loss = seats.iter().map(|c| c.loss).sum::<f64>() / players as f64;
        out.push(SeatLoss {
            strategy: s.spec.clone(),
            seats,
            mean_loss,
        });
    }
    bar.finish();
    if !interrupted {
        if let Some(c) = cache {
            let _ = c.remove(&key);
        }
    }
    let unit = m.unit as u64;
    Ok(SmallModel {
        game: "doom",
        objective: "win",
        players: players as u8,
        rules: m.rules.clone(),
        target: m.rules.target,
        end: match m.rules.end {
            EndRule::FinishRound => "finish-round",
            EndRule::Immediate => "immediate",
        },
        method: "dynamic programming over (seat to move, every score, turn points, held dice), each seat maximizing its own chance of winning; sums of scores from the largest down, each farkle cycle by policy iteration; the last round exactly",
        p_win: exact,
        positions: (players * sol.tu.pow(players as u32)) as u64,
        passes: g.passes,
        max_passes: g.max_passes as u64,
        residual: g.residual,
        cap_points: sol.cap as u64 * unit,
        cap_bound: sol.cap_bound,
        tail_points: sol.tail_levels as u64 * unit,
        tail_p: sol.tail_p,
        solve_s: start.elapsed().as_secs_f64(),
        strategies: out,
        interrupted,
    })
}

/// The small game's tables and notes; its JSON is the model.
pub fn render_small(x: &SmallModel) -> Report {
    let mut r = Report {
        title: format!("Dice of Doom, {} players, played to win (exact)", x.players),
        ..Report::default()
    };
    let chances: Vec<String> = x
        .p_win
        .iter()
        .enumerate()
        .map(|(j, p)| format!("seat {} {p:.6}", j + 1))
        .collect();
    r.meta = vec![
        ("rules".into(), x.rules.summary()),
        ("method".into(), x.method.into()),
        (
            "exact play".into(),
            format!("{} (seat 1 moves first; ties shared)", chances.join(", ")),
        ),
        (
            "solve".into(),
            format!(
                "{} positions, {} passes round the cycles (at most {} in one), largest change at the end {:.1e}, {:.1} s in all",
                count(x.positions),
                count(x.passes),
                x.max_passes,
                x.residual,
                x.solve_s
            ),
        ),
        (
            "tail".into(),
            format!(
                "a turn's points followed to {} (reached with probability at most {:.1e} a turn)",
                count(x.tail_points),
                x.tail_p
            ),
        ),
    ];
    if x.end == "finish-round" {
        r.meta.push((
            "last round".into(),
            format!(
                "a last-round turn followed to {} points past the bar; error at most {:.1e}",
                count(x.cap_points),
                x.cap_bound
            ),
        ));
    }
    let mut s = Section::new(
        "One seat plays the strategy, the others play exactly",
        &["strategy", "seat", "P(win)", "exact seat", "loss (points)"],
    );
    for sl in &x.strategies {
        for c in &sl.seats {
            s.row([
                sl.strategy.clone().into(),
                c.seat.to_string().into(),
                fixed_cell(c.p_win, 6, ""),
                fixed_cell(c.exact, 6, ""),
                fixed_cell(100.0 * c.loss, 4, ""),
            ]);
        }
        s.row([
            sl.strategy.clone().into(),
            "mean".into(),
            "".into(),
            "".into(),
            fixed_cell(100.0 * sl.mean_loss, 4, ""),
        ]);
    }
    r.sections.push(s);
    r.notes.push(
        "Exact play: every seat, at every choice, maximizes its own chance of winning when every seat plays so from then on. \
         A seat playing a strategy is evaluated exactly, the others keeping their exact choices; the loss is its chance \
         given up, in percentage points, and the mean is over the seats (a game whose starting seat rotates)."
            .into(),
    );
    if x.interrupted {
        let done = format!(
            "INTERRUPTED: stopped by a signal after {} strategies",
            x.strategies.len()
        );
        r.notes.push(format!(
            "{done}; exact play is complete, the strategies not listed were not evaluated."
        ));
        r.meta.push(("status".into(), done));
    }
    r.json = serde_json::to_value(x).unwrap_or_default();
    r
}
