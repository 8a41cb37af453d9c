//! Two-player Dice of Doom played to win: the policy that maximizes the probability of winning
//! the game (not the expected points of a turn), solved exactly for a rule set and target.
//!
//! **States.** Scores are in the model's point unit (50 for the seed rules); the target is
//! `tu` units. `w[k][a·tu + b]` is the probability that the player to move wins when that
//! player has banked `a`, the opponent `b` (both below the target), and the mover is the first
//! seat (`k` = 0) or the second (`k` = 1). The end rules differ by seat: under `finish-round`
//! the first seat reaching the target gives the second seat one last turn (highest total
//! wins, a tie is shared), while the second seat reaching it ends the game at once; under
//! `immediate` reaching the target wins and the seats are alike (`k` = 0 only). Within a turn
//! the state is (turn points set aside in finished cycles `p`, the cycle's held dice `h`), as
//! in the single-turn analysis (`exact.rs`).
//!
//! **Order of solution.** Banking moves from (a, b) to the opponent's turn at (b, a + t) with
//! t > 0: a larger sum of scores. A farkle or doom moves to the opponent's turn at (b, a): the
//! same sum. So sums are solved from the largest down; within a sum each pair (a, b) couples
//! only with the opponent's state (b, a) (a 2-cycle through farkles), and the pairs of one sum
//! are solved in parallel. For one pair, the turn's dynamic program (a single backward pass
//! over (p, h), as in `exact.rs`) gives the mover's win probability `f(F)` as a function of
//! the value `F` of a farkle (1 − the opponent's win probability at (b, a)); the pair's two
//! values solve x = f(1 − y), y = g(1 − x), found by Newton's method on x with the slope the
//! same pass carries (`solve.rs`; the iteration stops when the residual is below 1e-13).
//!
//! **The last turn.** Under `finish-round` the second seat's last turn, needing more than `d`
//! units to win (`d` exactly to tie), is won with probability `lambda[d]` (the policy that
//! maximizes P(win) + P(tie)/2: its own dynamic program per `d`).
//!
//! **What is not exact.** After reaching the target the first seat (under `finish-round`) may
//! roll on to raise the bar for the last turn; its turn points are followed exactly up to
//! `cap` units past the target, and states beyond are valued as banked there. The error this
//! makes is at most `cap_bound` = `lambda[cap]`, the chance of scoring `cap` units in one turn
//! (below 1e-8 by construction: the reported probabilities are good to
//! that). Everything else is exact up to the iteration's tolerance.

mod bytes;
pub mod kept;
pub mod multi;
mod solve;

pub use bytes::{WinTableError, FORMAT_VERSION};
pub use kept::TableStore;

use super::model::Model;
use super::rules::{DoomWipes, EndRule};

/// The residual at which a pair's Newton iteration stops.
const TOL: f64 = 1e-13;
/// The last-turn probability below which the first seat's play past the target is cut off.
const CAP_EPS: f64 = 1e-8;
/// Largest cap tried, in units past the target.
const CAP_MAX: usize = 4000;

/// Why a rule set cannot be solved for two players.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WinError {
    #[error("a farkle penalty (k farkles in a row cost points) makes the score fall: the win-probability solve needs scores that never fall (use rules without --farkle-penalty)")]
    FarklePenalty,
    #[error("doom that wipes the banked score makes scores fall: the win-probability solve needs --doom-wipes turn")]
    DoomWipesBank,
    #[error("target {0}: the two-player solve needs a target from 1 to {1} points (give --target, e.g. --target 10000; the work grows with the cube of the target)")]
    Target(u64, u64),
    #[error(transparent)]
    Cache(#[from] crate::door::cache::CacheError),
    #[error(transparent)]
    Input(#[from] crate::door::InputError),
    #[error("--win-table {path}: {why}")]
    Table { path: String, why: String },
    #[error("interrupted: {0}")]
    Stopped(String),
}

/// Largest target solved, in points (the table holds every pair of scores: 64 MB at
/// 100,000 under the seed rules).
pub const MAX_SOLVED_TARGET: u64 = 100_000;

/// How the two-player game is solved (`WinSolution::solve_with`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinOptions {
    /// Within this many points of the target every score is solved; beyond, scores every
    /// `step` points (and the start), the others interpolated (module notes of `solve`).
    pub fine: u64,
    pub step: u64,
    /// The turn's points are followed until the chance (over all policies) of reaching them
    /// is below this; states beyond are valued as banked there.
    pub tail_eps: f64,
    /// A 2-cycle's Newton step smaller than this is taken without the evaluation that would
    /// verify it (0: iterate until the residual is below 1e-13).
    pub accept: f64,
    /// A progress bar on standard error (on a terminal only).
    pub progress: bool,
}

impl WinOptions {
    /// The reference: every score solved, Newton iterated to the tolerance, the tail cut where
    /// one turn reaches it with probability below 1e-15.
    pub fn exact() -> WinOptions {
        WinOptions {
            fine: u64::MAX,
            step: 1,
            tail_eps: 1e-15,
            accept: 0.0,
            progress: false,
        }
    }

    /// The fast solve: every score within 20,000 points of the target, every 500 points
    /// beyond; the tail cut at 1e-9 a turn; Newton steps below 1e-3 taken unverified.
    pub fn fast() -> WinOptions {
        WinOptions {
            fine: 20_000,
            step: 500,
            tail_eps: 1e-9,
            accept: 1e-3,
            progress: false,
        }
    }
}

/// What a solve holds and does (`WinSolution::plan`), stated before it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct WinPlan {
    /// States of the table (seats × scores × scores) and those solved (the rest interpolated).
    pub states: u64,
    pub solved: u64,
    /// 2-cycles solved, and their turn levels (one pass over both turns each).
    pub pairs: u64,
    pub turn_levels: u64,
    /// The table's memory.
    pub table_bytes: u64,
    /// The turn levels followed at most (the tail cut-off).
    pub tail_levels: usize,
}

/// The tail cut-off for `eps`: the first level (from the smallest bank on, doubling then
/// bisecting) whose chance of being reached in a turn is below `eps`, and that chance.
fn tail(fast: &Fast, eps: f64) -> (usize, f64) {
    let mut hi = (fast.min_bank as usize).max(16);
    while fast.p_reach(hi) >= eps && hi < 1 << 16 {
        hi *= 2;
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fast.p_reach(mid) < eps {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (hi, fast.p_reach(hi))
}

/// The turn as flat arrays, for a fast dynamic program: per hold, the probability that a
/// roll busts (farkle or doom), and the other rolls, each with its legal set-asides as offsets
/// into the value array.
#[derive(Clone, Debug)]
struct Fast {
    holds: usize,
    /// Holds by decreasing dice held (a set-aside without hot dice holds more dice).
    order: Vec<usize>,
    bust: Vec<f64>,
    /// Per hold: (probability, range in `opts`) of each non-bust roll, rolls with the same
    /// set-asides merged.
    rolls: Vec<Vec<(f64, u32, u32)>>,
    /// A set-aside as an offset from the current level's first value: 2·(gain·holds + to),
    /// plus 1 to read the roll value (hot dice that must be rolled).
    opts: Vec<u32>,
    /// Largest gain of one set-aside, in levels.
    max_gain: usize,
    /// Points of each hold, in units.
    pts: Vec<u32>,
    /// Smallest turn points that may be banked, in units.
    min_bank: u32,
    /// Hot dice must be rolled (no banking with six dice to roll).
    forced: bool,
}

/// A set-aside as an offset from its level's first value (`Fast::opts`).
pub(crate) fn offset(holds: usize, o: &super::model::Opt, forced: bool) -> u32 {
    2 * (o.gain * holds as u32 + o.to as u32) + (o.hot && forced) as u32
}

/// A roll's set-asides as `Fast` holds them: their offsets, ascending, each once.
pub(crate) fn offsets(holds: usize, opts: &[super::model::Opt], forced: bool) -> Vec<u32> {
    let mut ks: Vec<u32> = opts.iter().map(|o| offset(holds, o, forced)).collect();
    ks.sort_unstable();
    ks.dedup();
    ks
}

impl Fast {
    fn new(m: &Model) -> Fast {
        let holds = m.holds.len();
        let forced = m.rules.hot_dice_forced();
        let mut order: Vec<usize> = (0..holds).collect();
        order.sort_by_key(|&h| std::cmp::Reverse(m.holds[h].dice));
        let mut bust = vec![0.0; holds];
        let mut rolls = vec![Vec::new(); holds];
        let mut opts = Vec::new();
        let mut max_gain = 0;
        for h in 0..holds {
            let n = 6 - m.holds[h].dice as usize;
            let mut by_set: Vec<(Vec<u32>, f64)> = Vec::new();
            for (roll, o) in m.rolls[n].iter().zip(&m.opts[h]) {
                if roll.doom || o.is_empty() {
                    bust[h] += roll.p;
                    continue;
                }
                max_gain = o.iter().fold(max_gain, |g, o| g.max(o.gain as usize));
                let ks = offsets(holds, o, forced);
                match by_set.iter_mut().find(|(k, _)| *k == ks) {
                    Some((_, p)) => *p += roll.p,
                    None => by_set.push((ks, roll.p)),
                }
            }
            for (ks, p) in by_set {
                let start = opts.len() as u32;
                opts.extend(ks);
                rolls[h].push((p, start, opts.len() as u32));
            }
        }
        let unit = m.unit;
        Fast {
            holds,
            order,
            bust,
            rolls,
            opts,
            max_gain,
            pts: m.holds.iter().map(|h| h.pts).collect(),
            min_bank: m.rules.min_bank.max(1).div_ceil(unit),
            forced,
        }
    }

    /// The value of rolling six dice (hot dice that must be rolled) where every state reached
    /// is worth `win` when it may be banked: a bust is worth `farkle`, a roll whose every
    /// set-aside is hot dice again starts over.
    fn forced_roll_beyond(&self, farkle: f64, win: f64) -> f64 {
        let (mut onward, mut again) = (0.0, 0.0);
        for &(p, s, e) in &self.rolls[0] {
            if self.opts[s as usize..e as usize].iter().any(|k| k % 2 == 0) {
                onward += p;
            } else {
                again += p;
            }
        }
        (self.bust[0] * farkle + onward * win) / (1.0 - again)
    }

    /// One turn's dynamic program over `levels` levels of turn points: `vr[2·(p·holds + h)]`
    /// the state's value (bank or roll, the better where banking is allowed), `+1` the value
    /// of rolling. `bank(p, h)` is the value of banking (None: not allowed); a bust is worth
    /// `farkle`; states at `levels` and above are worth `beyond` (value, roll value).
    /// Returns the value of the turn's first roll.
    fn turn(
        &self,
        levels: usize,
        farkle: f64,
        bank: impl Fn(usize, usize) -> Option<f64>,
        beyond: (f64, f64),
        vr: &mut Vec<f64>,
    ) -> f64 {
        let hs = self.holds;
        // The highest state read is (levels − 1 + max_gain, the last hold): no level more.
        // TurnTable::value and roll read level `levels` itself, there because max_gain >= 1
        // (the rules refuse a game where single 1s and 5s do not score).
        let total = levels + self.max_gain;
        vr.clear();
        vr.resize(2 * total * hs, 0.0);
        for p in levels..total {
            for h in 0..hs {
                vr[2 * (p * hs + h)] = beyond.0;
                vr[2 * (p * hs + h) + 1] = beyond.1;
            }
        }
        for p in (0..levels).rev() {
            let base = 2 * p * hs;
            for &h in &self.order {
                let mut r = self.bust[h] * farkle;
                for &(pr, s, e) in &self.rolls[h] {
                    let mut best = f64::NEG_INFINITY;
                    for &k in &self.opts[s as usize..e as usize] {
                        best = best.max(vr[base + k as usize]);
                    }
                    r += pr * best;
                }
                let v = match bank(p, h) {
                    Some(b) => b.max(r),
                    None => r,
                };
                vr[base + 2 * h] = v;
                vr[base + 2 * h + 1] = r;
            }
        }
        vr[1]
    }

    /// The turn points of state (p, h), in units, if they may be banked.
    #[inline]
    fn bankable(&self, p: usize, h: usize) -> Option<usize> {
        let tp = p as u32 + self.pts[h];
        (tp >= self.min_bank).then_some(tp as usize)
    }
}

/// The solved game.
#[derive(Clone, Debug)]
pub struct WinSolution {
    /// The target in units, and the unit in points.
    pub tu: usize,
    pub unit: u32,
    pub finish_round: bool,
    /// Win probability of the player to move: `w[k][a·tu + b]` (see the module notes).
    pub w: Vec<Vec<f64>>,
    /// The second seat's last turn: win probability needing more than `d` units (ties half).
    pub lambda: Vec<f64>,
    /// Units past the target the first seat's turn is followed; `lambda[cap]` bounds the error.
    pub cap: usize,
    pub cap_bound: f64,
    /// Largest residual of the pair iterations.
    pub residual: f64,
    /// Turn dynamic programs run.
    pub turn_solves: u64,
    /// The largest Newton step taken without verifying it (0 in the exact mode).
    pub max_step: f64,
    /// Turn levels followed at most in the solve, and the chance per turn of reaching them.
    pub tail_levels: usize,
    pub tail_p: f64,
    /// Points from the target within which every score is solved, and the grid's step beyond.
    pub fine: u64,
    pub step: u64,
    accept: f64,
    grid: solve::Grid,
    fast: Fast,
}

/// One turn's values under the win-optimal policy (`WinSolution::turn_table`).
#[derive(Clone, Debug)]
pub struct TurnTable {
    pub kind: TurnKind,
    pub levels: usize,
    holds: usize,
    vr: Vec<f64>,
    /// A field's table: the value of banking by turn points (units), up to `levels` and
    /// the largest set-aside past it (empty for the other kinds).
    banks: Vec<f64>,
    /// Followed to fewer levels than the solve's (`turn_table_within`).
    pub cut: bool,
}

/// Which table the opponent's state is in.
fn other(finish_round: bool, k: usize) -> usize {
    if finish_round {
        1 - k
    } else {
        0
    }
}

/// Which turn a [`TurnTable`] plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnKind {
    /// A turn of the game: the seat to move (0 first, 1 second), its score and the
    /// opponent's, in units (both below the target).
    Game { k: usize, a: usize, b: usize },
    /// The second seat's last turn, needing more than `d` units to win (`d` to tie).
    Last { d: usize },
    /// A turn against several opponents at score `a` (units), each valued by the two-player
    /// game ([`WinSolution::field_turn_table`]).
    Field { a: usize },
}

impl TurnTable {
    /// The value of state (p, h) (bank or roll, whichever is better).
    pub fn value(&self, p: usize, h: usize) -> f64 {
        self.vr[2 * (p.min(self.levels) * self.holds + h)]
    }

    /// The value of rolling from state (p, h).
    pub fn roll(&self, p: usize, h: usize) -> f64 {
        self.vr[2 * (p.min(self.levels) * self.holds + h) + 1]
    }

    /// Memory held, in bytes.
    pub fn bytes(&self) -> usize {
        self.vr.len() * std::mem::size_of::<f64>() + std::mem::size_of::<Self>()
    }

    /// The value of taking set-aside `o` from level `p` (`forced`: hot dice must be rolled).
    pub fn after(&self, p: usize, o: &super::model::Opt, forced: bool) -> f64 {
        let p2 = p + o.gain as usize;
        if o.hot && forced {
            self.roll(p2, o.to as usize)
        } else {
            self.value(p2, o.to as usize)
        }
    }
}

impl WinSolution {
    /// Whether `solve` takes `m`'s rules and target (checked at once, before the long work).
    pub fn solvable(m: &Model) -> Result<(), WinError> {
        if m.rules.farkle_penalty.is_some() {
            return Err(WinError::FarklePenalty);
        }
        if m.rules.doom_sixes.is_some() && m.rules.doom_wipes == DoomWipes::Bank {
            return Err(WinError::DoomWipesBank);
        }
        let target = m.rules.target;
        if target == 0 || target > MAX_SOLVED_TARGET {
            return Err(WinError::Target(target, MAX_SOLVED_TARGET));
        }
        Ok(())
    }

    /// Solve the two-player game for `m`'s rules and target exactly (the reference:
    /// [`WinOptions::exact`]).
    pub fn solve(m: &Model) -> Result<WinSolution, WinError> {
        Self::solve_with(m, &WinOptions::exact())
    }

    /// What a solve of `m`'s rules and target under `opts` holds: the states solved, the
    /// table's size, the turn levels.
    pub fn plan(m: &Model, opts: &WinOptions) -> Result<WinPlan, WinError> {
        Self::solvable(m)?;
        let sol = Self::empty(m, opts);
        let (work, units) = sol.total_work();
        let states = (sol.tu * sol.tu * sol.w.len()) as u64;
        Ok(WinPlan {
            states,
            solved: sol.grid_states(),
            pairs: units,
            turn_levels: work,
            table_bytes: states * 8,
            tail_levels: sol.tail_levels,
        })
    }

    /// The solution before the solve: options applied, the last turn solved, the table empty.
    fn empty(m: &Model, opts: &WinOptions) -> WinSolution {
        let fast = Fast::new(m);
        let unit = m.unit as u64;
        let tu = m.rules.target.div_ceil(unit) as usize;
        let finish_round = m.rules.end == EndRule::FinishRound;
        let (lambda, cap) = if finish_round {
            last_turn(&fast)
        } else {
            (vec![0.0], 0)
        };
        let cap_bound = if finish_round { lambda[cap] } else { 0.0 };
        let seats = if finish_round { 2 } else { 1 };
        let (tail_levels, tail_p) = tail(&fast, opts.tail_eps);
        let fine = (opts.fine / unit).min(tu as u64) as usize;
        let step = (opts.step / unit).max(1) as usize;
        WinSolution {
            tu,
            unit: m.unit,
            finish_round,
            w: vec![vec![f64::NAN; tu * tu]; seats],
            lambda,
            cap,
            cap_bound,
            residual: 0.0,
            turn_solves: 0,
            max_step: 0.0,
            tail_levels,
            tail_p,
            fine: fine as u64 * unit,
            step: step as u64 * unit,
            accept: opts.accept,
            grid: solve::Grid::new(tu, fine, step),
            fast,
        }
    }

    /// Whether the position with scores (a, b) (units, below the target) was solved (both on
    /// the score grid) rather than interpolated.
    pub fn solved_at(&self, a: usize, b: usize) -> bool {
        self.grid.node[self.tu - a] && self.grid.node[self.tu - b]
    }

    /// Grid states solved (both scores on the grid), over the seats.
    fn grid_states(&self) -> u64 {
        let n = self.grid.nodes().count() as u64;
        n * n * self.w.len() as u64
    }

    /// Solve the two-player game for `m`'s rules and target under `opts`.
    pub fn solve_with(m: &Model, opts: &WinOptions) -> Result<WinSolution, WinError> {
        Self::solvable(m)?;
        let mut sol = Self::empty(m, opts);
        let bar = crate::progress::Progress::percent(
            opts.progress,
            if opts.progress { sol.total_work().0 } else { 0 },
            "solving",
            "of the turn levels",
        );
        let top = sol.top_sum();
        sol.solve_grid(top, &|w| bar.advance(w), &mut |_, _| true);
        bar.finish();
        sol.fill();
        Ok(sol)
    }

    /// The bound on a value's error the tail cut-off leaves: the chance per turn of reaching
    /// the cut-off times `turns`, the turns the game may take.
    pub fn tail_bound(&self, turns: f64) -> f64 {
        self.tail_p * turns
    }

    /// The levels of turn points the mover's turn at (k, a, b) follows (at least `at_least`),
    /// and the values of the states beyond (value, roll value) when a farkle is worth `farkle`.
    fn extent_to(
        &self,
        fast: &Fast,
        k: usize,
        a: usize,
        b: usize,
        farkle: f64,
        (at_least, at_most): (usize, usize),
    ) -> (usize, (f64, f64)) {
        let tu = self.tu;
        let last_turn_follows = self.finish_round && k == 0;
        // Every state at `levels` or above has reached the target and may be banked.
        let full = if last_turn_follows {
            tu.max(b + self.cap) - a
        } else {
            tu - a
        }
        .max(fast.min_bank as usize);
        // Cut at the tail level (unless asked for more): valued as banked there, a lower
        // bound within the chance of getting there (`tail_p`).
        let levels = full
            .min(self.tail_levels.max(fast.min_bank as usize))
            .min(at_most.max(fast.min_bank as usize))
            .max(at_least);
        let v = if levels < full && a + levels < tu {
            1.0 - self.w[other(self.finish_round, k)][b * tu + a + levels]
        } else if last_turn_follows {
            // Banked there (or after the roll hot dice force): a lower bound, within
            // lambda[cap] of the value (module notes).
            1.0 - self.lambda_at(a + levels - b)
        } else {
            1.0
        };
        let beyond = (v, fast.forced_roll_beyond(farkle, v));
        (levels, beyond)
    }

    /// The value of banking in state (p, h) of the mover's turn at (k, a, b) (None: banking
    /// is not allowed there).
    #[inline]
    fn bank_value(
        &self,
        fast: &Fast,
        k: usize,
        a: usize,
        b: usize,
        p: usize,
        h: usize,
    ) -> Option<f64> {
        let tu = self.tu;
        let s = a + fast.bankable(p, h)?;
        Some(if s < tu {
            1.0 - self.w[other(self.finish_round, k)][b * tu + s]
        } else if self.finish_round && k == 0 {
            1.0 - self.lambda_at(s - b)
        } else {
            1.0
        })
    }

    /// The value of a farkle for the mover at (k, a, b): the opponent then moves at (b, a).
    pub fn farkle_value(&self, k: usize, a: usize, b: usize) -> f64 {
        1.0 - self.w[other(self.finish_round, k)][b * self.tu + a]
    }

    /// The mover's turn at (k, a, b) (scores in units, both below the target) as a table.
    pub fn turn_table(&self, k: usize, a: usize, b: usize) -> TurnTable {
        self.turn_table_to(k, a, b, 0)
    }

    /// `turn_table`, following the turn points to at least `levels` levels (every state
    /// below it valued exactly, rolling on included: the table's own extent follows only the
    /// states the policy can reach before banking wins).
    pub fn turn_table_to(&self, k: usize, a: usize, b: usize, levels: usize) -> TurnTable {
        self.turn_table_within(k, a, b, levels, usize::MAX)
    }

    /// `turn_table_to` following the turn points to at most `at_most` levels (unless asked
    /// for more by `at_least`): states beyond are valued as banked there, a lower bound (the
    /// table says it is `cut`). Play reads such a table while its states stay well below the
    /// cut, and the whole table beyond.
    pub fn turn_table_within(
        &self,
        k: usize,
        a: usize,
        b: usize,
        at_least: usize,
        at_most: usize,
    ) -> TurnTable {
        let fast = &self.fast;
        let f = self.farkle_value(k, a, b);
        let mut vr = Vec::new();
        let (levels, beyond) = self.extent_to(fast, k, a, b, f, (at_least, at_most));
        let (whole, _) = self.extent_to(fast, k, a, b, f, (at_least, usize::MAX));
        fast.turn(
            levels,
            f,
            |p, h| self.bank_value(fast, k, a, b, p, h),
            beyond,
            &mut vr,
        );
        TurnTable {
            kind: TurnKind::Game { k, a, b },
            levels,
            holds: fast.holds,
            vr,
            banks: Vec::new(),
            cut: levels < whole,
        }
    }

    /// The second seat's last turn needing more than `d` units, as a table.
    pub fn last_turn_table(&self, d: usize) -> TurnTable {
        let mut vr = Vec::new();
        let (levels, _) = last_turn_dp(&self.fast, d, &mut vr);
        TurnTable {
            kind: TurnKind::Last { d },
            levels,
            holds: self.fast.holds,
            vr,
            banks: Vec::new(),
            cut: false,
        }
    }

    /// The table of `kind` (a field's: of no opponents).
    pub fn table(&self, kind: TurnKind) -> TurnTable {
        match kind {
            TurnKind::Game { k, a, b } => self.turn_table(k, a, b),
            TurnKind::Last { d } => self.last_turn_table(d),
            TurnKind::Field { a } => self.field_turn_table(a, &[], usize::MAX),
        }
    }

    /// The mover's turn at score `a` (units, below the target) against several opponents,
    /// each `(k, b)`: the mover's seat against that opponent as in the two-player game (0:
    /// the opponent moves after the mover in this round) and the opponent's score (units,
    /// below the target). A state is valued as the product over the opponents of the
    /// two-player chance of finishing ahead of each (independent racers: the mover's chance
    /// of beating every opponent when their races do not interact); reaching the target, the
    /// opponents still to move this round take their last turn. The turn points are followed
    /// to at most `max_levels` levels (and the tail cut-off), states beyond valued as banked
    /// there.
    pub fn field_turn_table(
        &self,
        a: usize,
        opps: &[(usize, usize)],
        max_levels: usize,
    ) -> TurnTable {
        let fast = &self.fast;
        let tu = self.tu;
        let value_at = |s: usize| -> f64 {
            opps.iter()
                .map(|&(k, b)| {
                    if s < tu {
                        1.0 - self.w[other(self.finish_round, k)][b * tu + s]
                    } else if self.finish_round && k == 0 {
                        1.0 - self.lambda_at(s - b)
                    } else {
                        1.0
                    }
                })
                .product()
        };
        let farkle: f64 = opps
            .iter()
            .map(|&(k, b)| 1.0 - self.w[other(self.finish_round, k)][b * tu + a])
            .product();
        let behind = opps.iter().map(|&(_, b)| b).max().unwrap_or(0);
        let last_follows = self.finish_round && opps.iter().any(|&(k, _)| k == 0);
        let full = if last_follows {
            tu.max(behind + self.cap) - a
        } else {
            tu - a
        }
        .max(fast.min_bank as usize);
        let whole = full.min(self.tail_levels.max(fast.min_bank as usize));
        let levels = whole.min(max_levels.max(fast.min_bank as usize));
        let banks: Vec<f64> = (0..=levels + fast.max_pts())
            .map(|tp| value_at(a + tp))
            .collect();
        let v = banks[levels];
        let beyond = (v, fast.forced_roll_beyond(farkle, v));
        let mut vr = Vec::new();
        fast.turn(
            levels,
            farkle,
            |p, h| fast.bankable(p, h).map(|tp| banks[tp]),
            beyond,
            &mut vr,
        );
        TurnTable {
            kind: TurnKind::Field { a },
            levels,
            holds: fast.holds,
            vr,
            banks,
            cut: levels < whole,
        }
    }

    /// The value of banking in state (p, h) of `t` (None where banking is not allowed).
    pub fn bank_win(&self, t: &TurnTable, p: usize, h: usize) -> Option<f64> {
        match t.kind {
            TurnKind::Game { k, a, b } => self.bank_value(&self.fast, k, a, b, p, h),
            TurnKind::Last { d } => last_turn_bank(&self.fast, d, p, h),
            TurnKind::Field { .. } => self
                .fast
                .bankable(p, h)
                .map(|tp| t.banks[tp.min(t.banks.len() - 1)]),
        }
    }

    /// Whether the win-optimal mover banks in state (p, h) of `t` (false where it may not).
    pub fn banks(&self, t: &TurnTable, p: usize, h: usize) -> bool {
        if p >= t.levels {
            return true;
        }
        self.bank_win(t, p, h).is_some_and(|v| v >= t.roll(p, h))
    }

    /// For dice left 1..=6, the lowest turn points (in points) at which the mover at
    /// (k, a, b) banks, over all held dice (None: it never banks with that many dice left
    /// below the target's reach, or may not: six dice after hot dice that must be rolled).
    pub fn bank_from(
        &self,
        k: usize,
        a: usize,
        b: usize,
        holds: &[super::model::Hold],
    ) -> [Option<u32>; 6] {
        let t = self.turn_table(k, a, b);
        let mut out = [None; 6];
        for (n, o) in out.iter_mut().enumerate() {
            let mut best: Option<u32> = None;
            for p in 0..t.levels {
                for (h, hold) in holds.iter().enumerate() {
                    if 6 - hold.dice as usize != n + 1
                        || (hold.dice == 0 && (p == 0 || self.fast.forced))
                    {
                        continue;
                    }
                    let tp = (p as u32 + hold.pts) * self.unit;
                    if best.is_some_and(|b| tp >= b) {
                        continue;
                    }
                    if self.banks(&t, p, h) {
                        best = Some(tp);
                    }
                }
            }
            *o = best;
        }
        out
    }

    /// Whether play from level `p` of `t` comes near where `t` is cut: a cut table is read
    /// only while two of the largest set-asides from `p` stay below its cut.
    pub fn beyond_cut(&self, t: &TurnTable, p: usize) -> bool {
        t.cut && p + 2 * self.fast.max_gain + 1 >= t.levels
    }

    /// The levels of a table cut for play from turn points below `points`: those levels and
    /// two of the largest set-asides more (`beyond_cut`).
    pub fn play_levels(&self, points: u32) -> usize {
        points.div_ceil(self.unit) as usize + 2 * self.fast.max_gain + 1
    }

    /// Λ(d), taken as 0 past the cap (where it is below `cap_bound`).
    fn lambda_at(&self, d: usize) -> f64 {
        self.lambda.get(d).copied().unwrap_or(0.0)
    }

    /// P(the first seat wins) with both at 0 (ties shared), and the second seat's.
    pub fn p_first(&self) -> f64 {
        self.w[0][0]
    }
}

/// The value of banking in state (p, h) of the last turn needing more than `d` units.
fn last_turn_bank(fast: &Fast, d: usize, p: usize, h: usize) -> Option<f64> {
    let tp = fast.bankable(p, h)?;
    Some(match tp.cmp(&d) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    })
}

/// The dynamic program of the second seat's last turn needing more than `d` units (into
/// `vr`): its levels (every state from `d + 1` units on wins) and the value of its first roll.
fn last_turn_dp(fast: &Fast, d: usize, vr: &mut Vec<f64>) -> (usize, f64) {
    let levels = (d + 1).max(fast.min_bank as usize);
    let v = fast.turn(
        levels,
        0.0,
        |p, h| last_turn_bank(fast, d, p, h),
        (1.0, fast.forced_roll_beyond(0.0, 1.0)),
        vr,
    );
    (levels, v)
}

/// The second seat's last turn: `lambda[d]` for d = 0 ..= cap, where the cap is the first `d`
/// with Λ(d) below `CAP_EPS` (or `CAP_MAX`).
fn last_turn(fast: &Fast) -> (Vec<f64>, usize) {
    let mut vr = Vec::new();
    let mut lambda: Vec<f64> = Vec::new();
    for d in 0..=CAP_MAX {
        let (_, l) = last_turn_dp(fast, d, &mut vr);
        lambda.push(l);
        if l < CAP_EPS {
            break;
        }
    }
    let cap = lambda.len() - 1;
    (lambda, cap)
}

#[cfg(test)]
mod tests {
    use super::super::rules::{DoomPreset, DoomRules, HotDice};
    use super::*;

    /// The fast solve's largest error allowed at the scaled-down test (measured: see the test).
    const TOL_FAST: f64 = 3e-2;
    const TOL_FAST_SOLVED: f64 = 1e-3;

    fn rules(target: u64, end: EndRule, f: impl Fn(&mut DoomRules)) -> Model {
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = target;
        r.end = end;
        f(&mut r);
        Model::new(&r)
    }

    /// Brute force: value iteration over every state at once — (seat to move, a, b, p, h) and
    /// the last turn's (d, p, h) — straight from the model, in no particular order, until
    /// nothing changes by more than 1e-13. Turn points are followed to `top` units past the
    /// target (states beyond: banked there). Returns w[k][a][b].
    fn brute(m: &Model, top: usize) -> Vec<Vec<Vec<f64>>> {
        let tu = m.rules.target.div_ceil(m.unit as u64) as usize;
        let finish = m.rules.end == EndRule::FinishRound;
        let hs = m.holds.len();
        let forced = m.rules.hot_dice_forced();
        let min_bank = m.rules.min_bank.max(1);
        let seats = if finish { 2 } else { 1 };
        let levels = tu + top + 1;
        let idx = |p: usize, h: usize| p * hs + h;
        // Last turn: lam[d] = (v, r) tables, by plain recursion in p descending (one turn).
        let dmax = tu + top + 60;
        let mut lam = vec![0.0; dmax + 1];
        for (d, l) in lam.iter_mut().enumerate() {
            let lv = d + 70;
            let mut v = vec![0.0; (lv + 60) * hs];
            let mut r = vec![0.0; (lv + 60) * hs];
            for p in (0..lv + 60).rev() {
                for h in (0..hs).rev() {
                    // Holds are listed by dice held, so the same level's successors come later.
                    let n = 6 - m.holds[h].dice as usize;
                    let mut rr = 0.0;
                    for (i, roll) in m.rolls[n].iter().enumerate() {
                        let opts = &m.opts[h][i];
                        if roll.doom || opts.is_empty() {
                            continue;
                        }
                        let mut best: f64 = 0.0;
                        for o in opts {
                            let p2 = p + o.gain as usize;
                            let val = if p2 >= lv + 60 {
                                1.0
                            } else if o.hot && forced {
                                r[idx(p2, o.to as usize)]
                            } else {
                                v[idx(p2, o.to as usize)]
                            };
                            best = best.max(val);
                        }
                        rr += roll.p * best;
                    }
                    let tp = (p as u32 + m.holds[h].pts) * m.unit;
                    let tpu = p + m.holds[h].pts as usize;
                    let bank: f64 = if tp >= min_bank {
                        if tpu > d {
                            1.0
                        } else if tpu == d {
                            0.5
                        } else {
                            0.0
                        }
                    } else {
                        0.0
                    };
                    r[idx(p, h)] = rr;
                    v[idx(p, h)] = bank.max(rr);
                }
            }
            *l = r[0];
        }
        let mut v = vec![vec![vec![vec![0.5; levels * hs]; tu]; tu]; seats];
        let mut r = v.clone();
        let mut sweeps = 0;
        loop {
            let mut change: f64 = 0.0;
            for k in 0..seats {
                let o = if finish { 1 - k } else { 0 };
                for a in 0..tu {
                    for b in 0..tu {
                        for p in (0..levels).rev() {
                            for h in 0..hs {
                                let n = 6 - m.holds[h].dice as usize;
                                let farkle = 1.0 - r[o][b][a][0];
                                let bank_at = |s: usize| -> f64 {
                                    if s < tu {
                                        1.0 - r[o][b][s][0]
                                    } else if finish && k == 0 {
                                        1.0 - lam[(s - b).min(dmax)]
                                    } else {
                                        1.0
                                    }
                                };
                                let mut rr = 0.0;
                                for (i, roll) in m.rolls[n].iter().enumerate() {
                                    let opts = &m.opts[h][i];
                                    if roll.doom || opts.is_empty() {
                                        rr += roll.p * farkle;
                                        continue;
                                    }
                                    let mut best = f64::NEG_INFINITY;
                                    for oo in opts {
                                        let p2 = p + oo.gain as usize;
                                        let val = if p2 >= levels {
                                            bank_at(a + levels)
                                        } else if oo.hot && forced {
                                            r[k][a][b][idx(p2, oo.to as usize)]
                                        } else {
                                            v[k][a][b][idx(p2, oo.to as usize)]
                                        };
                                        best = best.max(val);
                                    }
                                    rr += roll.p * best;
                                }
                                let tp = (p as u32 + m.holds[h].pts) * m.unit;
                                let nv = if tp >= min_bank {
                                    bank_at(a + p + m.holds[h].pts as usize).max(rr)
                                } else {
                                    rr
                                };
                                let i = idx(p, h);
                                change = change
                                    .max((nv - v[k][a][b][i]).abs())
                                    .max((rr - r[k][a][b][i]).abs());
                                v[k][a][b][i] = nv;
                                r[k][a][b][i] = rr;
                            }
                        }
                    }
                }
            }
            sweeps += 1;
            assert!(
                sweeps < 5000,
                "the brute force did not settle: change {change}"
            );
            // Rounding leaves changes of about 1e-14 in some rule sets (sums in another
            // order each sweep); the comparisons allow far more.
            if change < 1e-13 {
                break;
            }
        }
        (0..seats)
            .map(|k| {
                (0..tu)
                    .map(|a| (0..tu).map(|b| r[k][a][b][0]).collect())
                    .collect()
            })
            .collect()
    }

    fn check_against_brute(m: &Model, top: usize, tol: f64) -> WinSolution {
        let sol = WinSolution::solve(m).unwrap();
        let want = brute(m, top);
        let tu = sol.tu;
        for (k, wk) in want.iter().enumerate() {
            for (a, row) in wk.iter().enumerate() {
                for (b, &w) in row.iter().enumerate() {
                    let got = sol.w[k][a * tu + b];
                    assert!(
                        (got - w).abs() < tol,
                        "w[{k}][{a},{b}]: solve {got} brute force {w}"
                    );
                }
            }
        }
        sol
    }

    #[test]
    fn a_forced_roll_beyond_the_target_weighs_its_outcomes() {
        // Six dice rolled where every bankable state is worth `win` and a bust `farkle`; a
        // roll that is all hot dice again starts over. Every outcome worth 1 is worth 1; the
        // value is linear in the two.
        let fast = Fast::new(&rules(300, EndRule::Immediate, |_| {}));
        let (bust, win) = (
            fast.forced_roll_beyond(1.0, 0.0),
            fast.forced_roll_beyond(0.0, 1.0),
        );
        assert!(bust > 0.1 && win > 0.5, "{bust} {win}");
        assert!((bust + win - 1.0).abs() < 1e-12, "{bust} + {win}");
        assert!((fast.forced_roll_beyond(0.0, 0.5) - 0.5 * win).abs() < 1e-15);
        assert!((fast.forced_roll_beyond(0.25, 0.5) - (0.25 * bust + 0.5 * win)).abs() < 1e-15);
    }

    #[test]
    fn the_turn_table_holds_what_a_turn_reads_and_no_more() {
        // A turn of `levels` levels reads states up to levels − 1 + the largest gain, and the
        // states from `levels` on are worth `beyond`: with every bank worth 0 and a bust 0,
        // the first roll's value comes from `beyond` alone, and is below it.
        let m = rules(300, EndRule::Immediate, |_| {});
        let fast = Fast::new(&m);
        let mut vr = Vec::new();
        let levels = 3;
        let v = fast.turn(levels, 0.0, |_, _| Some(0.0), (0.5, 0.25), &mut vr);
        assert_eq!(vr.len(), 2 * (levels + fast.max_gain) * fast.holds);
        assert!(v > 0.0 && v < 0.5, "{v}");
        for p in levels..levels + fast.max_gain {
            for h in 0..fast.holds {
                let i = 2 * (p * fast.holds + h);
                assert_eq!((vr[i], vr[i + 1]), (0.5, 0.25), "level {p} hold {h}");
            }
        }
    }

    #[test]
    fn a_turn_follows_its_points_to_the_target_and_past_it_only_before_a_last_turn() {
        // Finish the round: the first seat's turn is followed to the target or `cap` units past
        // the opponent's score, whichever is further (the second seat still plays), and the
        // states beyond are worth 1 − lambda; the second seat's turn ends at the target, where
        // it wins. Levels count from the mover's score.
        let m = rules(250, EndRule::FinishRound, |r| r.doom_sixes = Some(1));
        let sol = WinSolution::solve(&m).unwrap();
        let (tu, cap, mb) = (sol.tu, sol.cap, sol.fast.min_bank as usize);
        assert!(cap > 0);
        for (a, b) in [(0, 0), (1, 3), (3, 1), (tu - 1, tu - 1)] {
            let t = sol.turn_table(0, a, b);
            assert_eq!(
                t.levels,
                (tu.max(b + cap) - a).max(mb),
                "first seat at ({a}, {b})"
            );
            let v = 1.0 - sol.lambda_at(a + t.levels - b);
            assert_eq!(t.value(t.levels, 0), v, "({a}, {b})");
            let t = sol.turn_table(1, a, b);
            assert_eq!(t.levels, (tu - a).max(mb), "second seat at ({a}, {b})");
            assert_eq!(t.value(t.levels, 0), 1.0);
        }
        // An immediate end: reaching the target wins for either seat.
        let m = rules(250, EndRule::Immediate, |r| r.doom_sixes = Some(1));
        let sol = WinSolution::solve(&m).unwrap();
        for (a, b) in [(0, 0), (1, 3), (4, 0)] {
            let t = sol.turn_table(0, a, b);
            assert_eq!(t.levels, (sol.tu - a).max(mb), "({a}, {b})");
            assert_eq!(t.value(t.levels, 0), 1.0);
        }
    }

    #[test]
    fn immediate_end_agrees_with_brute_force_value_iteration() {
        // Target 300 (6 units): every state of the game, no cap (reaching it wins). The brute
        // force follows turn points 60 units past it and values states beyond as banked even
        // where hot dice force a roll: reaching them takes a run of about seven hot dice, and
        // the two agree to 2e-11.
        let m = rules(300, EndRule::Immediate, |_| {});
        let sol = check_against_brute(&m, 60, 1e-10);
        assert_eq!(sol.cap_bound, 0.0);
        // The first player's edge is real and the table is a probability throughout.
        assert!(
            sol.p_first() > 0.5 && sol.p_first() < 1.0,
            "{}",
            sol.p_first()
        );
        assert!(sol.w[0].iter().all(|&x| (0.0..=1.0).contains(&x)));
        assert!(sol.residual < 1e-12);
        // Every state's value comes from at least one turn's dynamic program (a 2-cycle of
        // states from at least two), so the count reported is at least the states'.
        let states = (sol.tu * sol.tu * sol.w.len()) as u64;
        assert!(sol.turn_solves >= states, "{} < {states}", sol.turn_solves);
        // Solving each 2-cycle again from the finished table (its neighbours read the same
        // values as in the solve) gives its values and its count again: one turn's dynamic
        // program an evaluation for a state that is its own opponent's (equal scores), two for
        // a pair; the counts add up to the total.
        let mut bufs = solve::Bufs::default();
        let mut total = 0;
        let o = other(sol.finish_round, 0);
        for a in 0..sol.tu {
            for b in 0..sol.tu {
                if (0, a) > (o, b) {
                    continue;
                }
                let (_, x, y, _, n, _) = sol.solve_pair(0, a, b, &mut bufs);
                assert_eq!(x, sol.w[0][a * sol.tu + b], "({a}, {b})");
                assert_eq!(y, sol.w[o][b * sol.tu + a], "({a}, {b})");
                if a == b {
                    assert!(n >= 1, "({a}, {a}): {n}");
                } else {
                    assert!(n >= 2 && n % 2 == 0, "({a}, {b}): {n}");
                }
                total += n;
            }
        }
        assert_eq!(total, sol.turn_solves);
        // A turn table counts the memory it holds (the simulator's cache is capped by it).
        let t = sol.turn_table(0, 0, 0);
        assert!(t.vr.len() > 100, "{}", t.vr.len());
        assert_eq!(t.bytes(), 8 * t.vr.len() + std::mem::size_of::<TurnTable>());
    }

    #[test]
    #[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
    fn finish_round_agrees_with_brute_force_value_iteration() {
        // Doom on a single six keeps turns short, so the last turn's tail (the cap) is short
        // enough for the brute force to follow every state to past it.
        let m = rules(250, EndRule::FinishRound, |r| r.doom_sixes = Some(1));
        let sol = WinSolution::solve(&m).unwrap();
        assert!(sol.cap_bound < CAP_EPS && sol.cap < 200, "cap {}", sol.cap);
        // The brute force follows 40 units further: the two differ by the cut-off's error
        // at most, which `cap_bound` bounds.
        check_against_brute(&m, sol.cap + 40, 2.0 * CAP_EPS);
        // The last turn: needing more than 0 is easier than more than 5 units.
        assert!(sol.lambda[0] > sol.lambda[5]);
    }

    #[test]
    fn other_rule_sets_agree_with_brute_force_value_iteration() {
        // Separate scoring, optional hot dice and a minimum bank (banking 100 or more), under
        // both end rules: the paths the seed preset does not take.
        for end in [EndRule::Immediate, EndRule::FinishRound] {
            let m = rules(250, end, |r| {
                r.held_dice = super::super::rules::HeldDice::Separate;
                r.hot_dice = HotDice::Optional;
                r.min_bank = 100;
                r.doom_sixes = Some(1);
            });
            let sol = WinSolution::solve(&m).unwrap();
            check_against_brute(&m, sol.cap + 40, 2.0 * CAP_EPS);
        }
    }

    /// Banking ends the turn as a farkle does, with the turn's points added to the score: the
    /// value of banking `tp` units below the target at (k, a, b) is that of a farkle at
    /// (k, a + tp, b), the opponent moving at (b, a + tp). At a target of 1200 banking before
    /// the target is sometimes best, so the value read decides play (at the small targets the
    /// brute force can check, rolling on always beats banking short of the target).
    #[test]
    fn banking_is_worth_a_farkle_from_the_banked_score() {
        for end in [EndRule::Immediate, EndRule::FinishRound] {
            let m = rules(1200, end, |_| {});
            let sol = WinSolution::solve(&m).unwrap();
            let tu = sol.tu;
            let (mut short, mut early) = (0, 0);
            for k in 0..sol.w.len() {
                for a in 0..tu {
                    for b in 0..tu {
                        let t = sol.turn_table(k, a, b);
                        for p in 0..t.levels {
                            for h in 0..t.holds {
                                let Some(tp) = sol.fast.bankable(p, h) else {
                                    continue;
                                };
                                if a + tp >= tu {
                                    continue;
                                }
                                short += 1;
                                let v = sol.bank_win(&t, p, h).unwrap();
                                assert_eq!(
                                    v,
                                    sol.farkle_value(k, a + tp, b),
                                    "{k} {a} {b} {p} {h}"
                                );
                                if sol.banks(&t, p, h) {
                                    early += 1;
                                }
                            }
                        }
                    }
                }
            }
            // 7,566 of 183,744 (immediate end) and 83,210 of 367,488 (finish the round).
            assert!(early > 5000, "{end:?}: {early} of {short}");
        }
    }

    /// The lowest banking points by dice left (the report's thresholds) are read off the
    /// turn's table: with n dice left, the fewest turn points of any state the mover banks in
    /// (six dice left only after hot dice, and never where they must be rolled). At a target
    /// of 1200 mid-game banks are played, and with 1 or 2 dice left the mover banks at some
    /// points in every state checked.
    #[test]
    fn bank_thresholds_are_the_fewest_points_banked() {
        let m = rules(1200, EndRule::FinishRound, |_| {});
        let sol = WinSolution::solve(&m).unwrap();
        let forced = m.rules.hot_dice_forced();
        for (k, a, b) in [(0, 12, 0), (0, 12, 20), (1, 5, 18), (0, 20, 20)] {
            let got = sol.bank_from(k, a, b, &m.holds);
            let t = sol.turn_table(k, a, b);
            let mut want = [None::<u32>; 6];
            for p in 0..t.levels {
                for (h, hold) in m.holds.iter().enumerate() {
                    let n = 6 - hold.dice as usize;
                    if hold.dice == 0 && (p == 0 || forced) {
                        continue;
                    }
                    let tp = (p as u32 + hold.pts) * m.unit;
                    if sol.banks(&t, p, h) && want[n - 1].is_none_or(|w| tp < w) {
                        want[n - 1] = Some(tp);
                    }
                }
            }
            assert_eq!(got, want, "({k}, {a}, {b})");
            assert!(
                got[0].is_some() && got[1].is_some(),
                "({k}, {a}, {b}): {got:?}"
            );
        }
    }

    /// The last turn's table (which the simulator plays from) is the solver's: its first
    /// roll is worth Λ(d) for every d up to the cap, a tie (exactly d units) is worth half and
    /// one unit more wins.
    #[test]
    fn the_last_turn_table_is_the_solvers() {
        let m = rules(250, EndRule::FinishRound, |r| r.doom_sixes = Some(1));
        let sol = WinSolution::solve(&m).unwrap();
        for d in 0..=sol.cap {
            let t = sol.last_turn_table(d);
            assert_eq!(t.roll(0, 0), sol.lambda[d], "d = {d}");
            assert_eq!(t.kind, TurnKind::Last { d });
            // Six dice set aside for `d` units and for `d + 1`: a tie, a win.
            if d >= 1 {
                let all = (0..t.holds).find(|&h| sol.fast.pts[h] == 0).unwrap();
                assert_eq!(sol.bank_win(&t, d, all), Some(0.5), "d = {d}");
                assert_eq!(sol.bank_win(&t, d + 1, all), Some(1.0), "d = {d}");
            }
        }
    }

    /// The game depends on the distances to the target only: the table at a target is the
    /// corner of the table at a larger target where both scores are at least the difference
    /// (the exact solve; the same turn passes in the same order, so bit for bit).
    #[test]
    fn the_table_is_the_corner_of_a_larger_targets_table() {
        for end in [EndRule::Immediate, EndRule::FinishRound] {
            let small = WinSolution::solve(&rules(600, end, |_| {})).unwrap();
            let big = WinSolution::solve(&rules(1000, end, |_| {})).unwrap();
            let (su, bu) = (small.tu, big.tu);
            let c = bu - su;
            for k in 0..small.w.len() {
                for a in 0..su {
                    for b in 0..su {
                        assert_eq!(
                            big.w[k][(a + c) * bu + b + c],
                            small.w[k][a * su + b],
                            "{end:?} seat {k} ({a}, {b})"
                        );
                    }
                }
            }
            // And the corner is not the whole story: the start differs.
            assert!((big.p_first() - small.p_first()).abs() > 1e-3);
        }
    }

    /// The fast solve (scores on a grid far from the target, the tail cut at 1e-9 a turn,
    /// small Newton steps unverified) against the exact one at a target small enough to
    /// solve both, with the fine zone (250 points) and grid step (100) scaled down so that
    /// most of the table is interpolated.
    #[test]
    #[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
    fn the_fast_solve_is_within_its_tolerance_of_the_exact_one() {
        let m = rules(1000, EndRule::FinishRound, |_| {});
        let exact = WinSolution::solve(&m).unwrap();
        let opts = WinOptions {
            fine: 250,
            step: 100,
            ..WinOptions::fast()
        };
        let plan = WinSolution::plan(&m, &opts).unwrap();
        let sol = WinSolution::solve_with(&m, &opts).unwrap();
        assert!(plan.solved * 2 < plan.states, "{plan:?}");
        assert!(sol.tail_p < 1e-9 && sol.tail_levels < exact.tail_levels);
        let mut max = 0.0f64;
        for k in 0..2 {
            for (x, y) in sol.w[k].iter().zip(&exact.w[k]) {
                max = max.max((x - y).abs());
            }
        }
        assert!(max < TOL_FAST, "max |dW| {max}");
        // The positions solved (both scores on the grid) are closer still; the largest errors
        // are where one score is interpolated next to an opponent about to win.
        let tu = sol.tu;
        let mut max = 0.0f64;
        for k in 0..2 {
            for a in 0..tu {
                for b in (0..tu).filter(|&b| sol.solved_at(a, b)) {
                    max = max.max((sol.w[k][a * tu + b] - exact.w[k][a * tu + b]).abs());
                }
            }
        }
        assert!(max < TOL_FAST_SOLVED, "max |dW| at solved positions {max}");
        // Without interpolation (every score solved) only the Newton steps taken unverified
        // and the tail differ.
        let fine = WinSolution::solve_with(
            &m,
            &WinOptions {
                fine: u64::MAX,
                ..WinOptions::fast()
            },
        )
        .unwrap();
        let mut max = 0.0f64;
        for k in 0..2 {
            for (x, y) in fine.w[k].iter().zip(&exact.w[k]) {
                max = max.max((x - y).abs());
            }
        }
        assert!(max < 1e-5, "max |dW| {max}");
    }

    /// The tail cut-off: the level is the first whose chance of being reached is below the
    /// tolerance, and a solve cut early stays within that chance times the turns a game
    /// takes (a few at this target; 50 allowed) of the exact solve.
    #[test]
    fn the_tail_cut_off_keeps_to_its_bound() {
        let m = rules(1000, EndRule::FinishRound, |_| {});
        let fast = Fast::new(&m);
        let (g, p) = tail(&fast, 1e-3);
        assert!(p < 1e-3 && fast.p_reach(g - 1) >= 1e-3, "{g} {p}");
        assert!(fast.p_reach(10) > fast.p_reach(20));
        let exact = WinSolution::solve(&m).unwrap();
        let cut = WinSolution::solve_with(
            &m,
            &WinOptions {
                tail_eps: 1e-3,
                ..WinOptions::exact()
            },
        )
        .unwrap();
        assert_eq!(cut.tail_levels, g);
        let mut max = 0.0f64;
        for k in 0..2 {
            for (x, y) in cut.w[k].iter().zip(&exact.w[k]) {
                max = max.max((x - y).abs());
            }
        }
        assert!(max > 0.0 && max <= cut.tail_bound(50.0), "{max} {p}");
    }

    #[test]
    fn rules_whose_scores_fall_are_refused() {
        let m = rules(1000, EndRule::FinishRound, |r| {
            r.farkle_penalty = Some((3, 500))
        });
        assert_eq!(WinSolution::solve(&m).unwrap_err(), WinError::FarklePenalty);
        let m = rules(1000, EndRule::FinishRound, |r| {
            r.doom_wipes = DoomWipes::Bank
        });
        assert_eq!(WinSolution::solve(&m).unwrap_err(), WinError::DoomWipesBank);
        let m = rules(MAX_SOLVED_TARGET + 1, EndRule::FinishRound, |_| {});
        assert!(matches!(WinSolution::solve(&m), Err(WinError::Target(..))));
        // The largest target is taken, and so is a target of one point; none is not.
        for (target, ok) in [(MAX_SOLVED_TARGET, true), (1, true), (0, false)] {
            let m = rules(target, EndRule::FinishRound, |_| {});
            assert_eq!(WinSolution::solvable(&m).is_ok(), ok, "target {target}");
        }
    }
}
