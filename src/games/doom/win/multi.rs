//! The game of two or three players played to win, solved exactly at small targets: the
//! yardstick for the two-player reductions a seat of a larger game plays (`win-leader`,
//! `win-field`).
//!
//! **Play to win with several players.** With more than two players "the probability of
//! winning" is each seat's own, so optimal play is a profile: every seat, at every decision,
//! takes the choice that maximizes its own chance of winning when every seat plays so from
//! then on (the max^n rule, the multi-player form of the two-player solve in `win.rs`). A tie
//! in the mover's own value is broken by a fixed rule, since it may matter to the other seats:
//! banking before rolling on, and the set-aside that gains the most points (`best_of`, the
//! rule `sim` plays by too).
//!
//! **States.** The seats move in the order 0, 1, …, n − 1 (the starting seat is seat 0).
//! Before anyone reaches the target a position is (the seat to move, every score), scores in
//! units below the target `tu`, and its value is the vector of every seat's chance of winning
//! (ties shared). Banking raises the sum of the scores; a farkle or doom passes the turn at the
//! same scores. So sums are solved from the largest down, and within a sum each tuple of
//! scores is an n-cycle through farkles: the mover's value is affine in the next seat's
//! (the weight is the chance of a bust under the mover's policy), so for fixed policies the
//! cycle is solved in closed form, and the policies are iterated until no value moves by more
//! than `TOL` (policy iteration; two to four passes round the cycle).
//!
//! **The last round** (`--end finish-round`). When a seat reaches the target, the seats after
//! it in the round each play one last turn. The last seat's turn needs more than `d` units to
//! win outright, exactly `d` to tie with the `c` seats at the top: its chances of each,
//! playing for P(more) + P(tie)/(c + 1), are `last[c − 1][d]`. With three seats, seat 1's last
//! turn after seat 0 reached the bar depends on how far it and seat 2 are behind the bar
//! (`mid[(d1, d2)]`): it may roll on past the bar to raise it for seat 2. Both are followed to
//! the two-player solve's cap past the bar (the chance of scoring that much in one turn is
//! below 1e-8, [`WinSolution::cap_bound`]).
//!
//! **What it is for.** [`SmallGame::evaluate`] plays one seat by another policy (a reduction's
//! turn tables, [`SeatGuide`]) while every other seat keeps the exact profile's choices, and
//! gives every seat's exact chance of winning: what the reduction's decisions lose over a game,
//! without sampling error.
//!
//! The cost is n · tu^n positions, each a few vector-valued turn passes of up to the tail
//! cut-off (`tail_levels`), and the last round's turns: about half a minute for the solve at a
//! target of 500 under the seed rules and a few minutes at 1,000; larger games are refused.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::super::model::{Model, Opt};
use super::super::rules::EndRule;
use super::{Fast, WinSolution};

/// Values per state: the win shares of up to three seats, and (last) the weight of the
/// farkle value, the chance of a bust under the policy.
pub type Vals = [f64; SLOTS];
const SLOTS: usize = 4;
const BUST: usize = SLOTS - 1;

/// Largest number of seats.
pub const MAX_SEATS: usize = 3;
/// Largest number of positions before the last round (`n · tu^n`) solved.
pub const MAX_POSITIONS: usize = 30_000;
/// The change of a value at which the policy iteration of a cycle stops.
const TOL: f64 = 1e-13;
/// Passes round a cycle at most: policy iteration that has not settled by then is an error.
const MAX_PASSES: usize = 60;

/// Why a small game cannot be solved.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SmallGameError {
    #[error("{0} seats: the exact small game takes 2 or 3 seats")]
    Seats(usize),
    #[error("--target {target}: a game of {seats} seats has {positions} positions before the last round, more than the {max} the exact small game solves (minutes); the largest target is {largest} points")]
    Size {
        target: u64,
        seats: usize,
        positions: usize,
        max: usize,
        largest: u64,
    },
    #[error(
        "the policy iteration of the cycle at scores {0:?} did not settle in {MAX_PASSES} passes"
    )]
    Unsettled(Vec<usize>),
}

/// How a seat chooses within one turn, given as the choices themselves.
pub trait TurnChoice {
    /// Of the set-asides `ks` at level `p` (offsets from the level's first value, as `Fast`
    /// codes them), the one taken.
    fn pick(&self, p: usize, ks: &[u32]) -> u32;
    /// Whether the seat banks in state (p, h), where banking is allowed.
    fn banks(&self, p: usize, h: usize) -> bool;
}

/// What a seat plays, position by position.
pub trait SeatGuide: Sync {
    /// The seat's turn at `scores` (units, every score below the target), when it is seat
    /// `seat` to move.
    fn turn(&self, seat: usize, scores: &[usize]) -> Box<dyn TurnChoice + '_>;
    /// The seat's last turn, the leader `d` units ahead.
    fn last_turn(&self, seat: usize, d: usize) -> Box<dyn TurnChoice + '_>;
    /// The seat's choices once its turn has won whatever follows but a farkle or doom: its
    /// points have reached the target (the last seat of the round, or any seat where reaching
    /// it ends the game), passed the bar on a last turn, or gone past the cap beyond the
    /// seats still to play. They must be the same at every such state of every turn (the
    /// level `p` the turn's points, as in [`TurnChoice`]); [`Won`] where the seat banks at
    /// the first chance there, as an exact seat does.
    fn past(&self) -> Box<dyn TurnChoice + '_>;
}

/// A seat whose turn has won banks at the first chance, taking a set-aside it may bank after
/// (not hot dice that must be rolled) where there is one, the most points first: an exact
/// seat's play there (`Fast::forced_roll_beyond` values it).
pub struct Won;

impl TurnChoice for Won {
    fn pick(&self, _: usize, ks: &[u32]) -> u32 {
        best_of(ks, |k| if k % 2 == 0 { 1.0 } else { 0.0 })
    }
    fn banks(&self, _: usize, _: usize) -> bool {
        true
    }
}

/// How the turn's dynamic program chooses.
enum Pick<'a> {
    /// The choice of highest weighted value (`w · v`; ties as `best_of` breaks them).
    Own(Vals),
    /// Another policy's choices.
    By(&'a dyn TurnChoice),
}

/// The values of the states a turn pass does not follow (at its `levels` and above).
#[derive(Clone, Copy)]
enum Beyond<'a> {
    /// Every state worth the first (the turn banked there), every roll the second.
    Same(Vals, Vals),
    /// The turn has won there (a bank is worth `win`, a bust `farkle`) and plays on as the
    /// pass `past` chose ([`SmallGame::past_pass`]: its slot 0 the chance of banking, 1 of a
    /// bust, from each state).
    Past {
        win: Vals,
        farkle: Vals,
        past: &'a Pass,
    },
}

/// A turn pass's work and result: values and roll values per state, and where it banked.
#[derive(Default, Clone)]
struct Pass {
    vr: Vec<Vals>,
    bk: Vec<bool>,
    levels: usize,
    holds: usize,
}

/// A thread's work buffers: the pass of the turn played, and the exact profile's pass whose
/// choices an exact seat reads (`Seat::Exact`).
#[derive(Default)]
struct Bufs {
    pass: Pass,
    star: Pass,
}

/// The exact profile's choices read from one of its turn passes.
struct PassChoice<'a> {
    pass: &'a Pass,
    w: Vals,
}

impl TurnChoice for PassChoice<'_> {
    fn pick(&self, p: usize, ks: &[u32]) -> u32 {
        if p >= self.pass.levels {
            // Every state there is valued as banked at the cut.
            return ks[0];
        }
        let base = 2 * p * self.pass.holds;
        best_of(ks, |k| dot(&self.w, &self.pass.vr[base + k as usize]))
    }
    fn banks(&self, p: usize, h: usize) -> bool {
        p >= self.pass.levels || self.pass.bk[p * self.pass.holds + h]
    }
}

/// The set-aside a `Fast` offset codes (its gain, the hold it leads to, and whether it is hot
/// dice that must be rolled: `hot` set only then).
pub fn offset_opt(k: u32, holds: usize) -> Opt {
    let s = (k / 2) as usize;
    Opt {
        gain: (s / holds) as u32,
        to: (s % holds) as u16,
        hot: k % 2 == 1,
        dice: 0,
    }
}

/// A two-player table's choices, as play reads it (`sim::play_table`).
pub struct TableChoice<'a> {
    pub sol: &'a WinSolution,
    pub table: std::sync::Arc<super::TurnTable>,
}

impl TurnChoice for TableChoice<'_> {
    fn pick(&self, p: usize, ks: &[u32]) -> u32 {
        let hs = self.sol.fast.holds;
        best_of(ks, |k| self.table.after(p, &offset_opt(k, hs), true))
    }
    fn banks(&self, p: usize, h: usize) -> bool {
        self.sol.banks(&self.table, p, h)
    }
}

#[inline]
fn dot(w: &Vals, v: &Vals) -> f64 {
    w[0] * v[0] + w[1] * v[1] + w[2] * v[2] + w[3] * v[3]
}

/// The set-aside of `ks` (ascending offsets) with the highest `f`, ties to the largest
/// offset: the most points gained (`Opt::tie_key`, the rule every player of a turn uses).
#[inline]
pub fn best_of(ks: &[u32], f: impl Fn(u32) -> f64) -> u32 {
    let mut best = (f(ks[0]), ks[0]);
    for &k in &ks[1..] {
        let v = f(k);
        if v >= best.0 {
            best = (v, k);
        }
    }
    best.1
}

fn unit(i: usize) -> Vals {
    let mut v = [0.0; SLOTS];
    v[i] = 1.0;
    v
}

fn axpy(a: f64, x: &Vals, y: &Vals) -> Vals {
    std::array::from_fn(|i| a * x[i] + y[i])
}

impl Fast {
    /// One turn's dynamic program over vectors, as `Fast::turn`: `farkle` the value of a bust
    /// (put 1 in its `BUST` slot to carry the chance of a bust), `banks[tp]` the value of
    /// banking `tp` turn points (None below the least bank), states at `levels` and above
    /// valued by `beyond`. Returns the first roll's value.
    fn turn_vec(
        &self,
        levels: usize,
        farkle: Vals,
        banks: &[Option<Vals>],
        beyond: Beyond,
        pick: &Pick,
        pass: &mut Pass,
    ) -> Vals {
        let hs = self.holds;
        let total = levels + self.max_gain;
        pass.levels = levels;
        pass.holds = hs;
        pass.vr.clear();
        pass.vr.resize(2 * total * hs, [0.0; SLOTS]);
        pass.bk.clear();
        pass.bk.resize(levels * hs, false);
        for p in levels..total {
            for h in 0..hs {
                let i = 2 * (p * hs + h);
                match beyond {
                    Beyond::Same(v, r) => {
                        pass.vr[i] = v;
                        pass.vr[i + 1] = r;
                    }
                    Beyond::Past { win, farkle, past } => {
                        for j in [i, i + 1] {
                            let [bank, bust, ..] = past.vr[j];
                            pass.vr[j] = std::array::from_fn(|c| bank * win[c] + bust * farkle[c]);
                        }
                    }
                }
            }
        }
        for p in (0..levels).rev() {
            let base = 2 * p * hs;
            for &h in &self.order {
                let mut r = farkle.map(|f| self.bust[h] * f);
                for &(pr, s, e) in &self.rolls[h] {
                    let ks = &self.opts[s as usize..e as usize];
                    let k = match pick {
                        Pick::Own(w) => best_of(ks, |k| dot(w, &pass.vr[base + k as usize])),
                        Pick::By(c) => c.pick(p, ks),
                    };
                    r = axpy(pr, &pass.vr[base + k as usize], &r);
                }
                let bank = self.bankable(p, h).and_then(|tp| banks[tp]);
                let banked = bank.filter(|b| match pick {
                    Pick::Own(w) => dot(w, b) >= dot(w, &r),
                    Pick::By(c) => c.banks(p, h),
                });
                pass.bk[p * hs + h] = banked.is_some();
                pass.vr[base + 2 * h] = banked.unwrap_or(r);
                pass.vr[base + 2 * h + 1] = r;
            }
        }
        pass.vr[1]
    }

    /// `forced_roll_beyond` for vectors.
    fn roll_beyond(&self, farkle: &Vals, win: &Vals) -> Vals {
        let a = self.forced_roll_beyond(1.0, 0.0);
        let b = self.forced_roll_beyond(0.0, 1.0);
        std::array::from_fn(|i| a * farkle[i] + b * win[i])
    }
}

/// The game of `seats` seats at a small target, solved.
pub struct SmallGame {
    pub seats: usize,
    /// Every seat's win shares (and 0 in `BUST`) with seat `i` to move at scores `s`:
    /// `w[i · tu^n + index(s)]`.
    w: Vec<Vals>,
    /// The last seat's last turn: `last[c − 1][d]` = (P(more than d), P(exactly d)) playing
    /// for P(more) + P(tie)/(c + 1), for d up to `cap` (beyond: nothing).
    last: [Vec<(f64, f64)>; 2],
    /// Three seats: seat 1's last turn after seat 0 reached the bar, seat 1 `d1` units
    /// behind it and seat 2 `d2`: the win shares of seats 0, 1, 2.
    mid: HashMap<(usize, usize), Vals>,
    /// The two-player solve of the same rules and target: the turn's model (`fast`), the
    /// tail cut-off, and the cap past the bar to which a last turn is followed.
    sol: WinSolution,
    /// Largest change of a value in the last pass of a cycle.
    pub residual: f64,
    /// Passes round a cycle, summed and at most.
    pub passes: u64,
    pub max_passes: usize,
    /// Sums of scores solved, from the largest down (all of them: the game is whole).
    sums_done: usize,
}

/// Who plays a seat in [`SmallGame::fill`]: the exact profile as it solves itself, the
/// exact profile's choices read from a solved game, or a guide.
#[derive(Clone, Copy)]
enum Seat<'a> {
    Solve,
    Exact(&'a SmallGame),
    /// A guide, and its play once its turn has won ([`SmallGame::past_pass`]).
    Guide(&'a dyn SeatGuide, &'a Pass),
}

impl SmallGame {
    /// Solve the game of `seats` seats for `sol`'s rules and target (`sol`: the two-player
    /// solve of the same rules and target, whose turn model, tail cut-off and cap it uses).
    /// `advance` is told the work done as it is done (of [`SmallGame::work`]).
    pub fn solve(
        m: &Model,
        sol: &WinSolution,
        seats: usize,
        advance: &(dyn Fn(u64) + Sync),
    ) -> Result<SmallGame, SmallGameError> {
        Self::solve_until(m, sol, seats, None, advance, None)
    }

    /// [`SmallGame::solve`] from `from` (a stopped solve's game, if any), stopping at the end
    /// of a sum of scores once `stop` is raised: the game, whole or not ([`SmallGame::is_whole`]).
    pub fn solve_until(
        m: &Model,
        sol: &WinSolution,
        seats: usize,
        from: Option<SmallGame>,
        advance: &(dyn Fn(u64) + Sync),
        stop: Option<&AtomicBool>,
    ) -> Result<SmallGame, SmallGameError> {
        let mut g = match from {
            Some(g) => g,
            None => Self::empty(m, sol, seats)?,
        };
        let play = vec![Seat::Solve; seats];
        g.fill(&play, advance, stop)?;
        Ok(g)
    }

    /// Whether every table is solved (not a stopped solve's or evaluation's game).
    pub fn is_whole(&self) -> bool {
        !self.w.is_empty() && self.sums_done == self.sums()
    }

    /// How many sums of scores the positions before the last round have.
    fn sums(&self) -> usize {
        self.seats * (self.sol.tu - 1) + 1
    }

    /// The work of the solve (`seat` None) or of evaluating seat `seat`, in turn levels (the
    /// cost of a turn's pass is its levels; an exact seat played against a guide makes two
    /// passes, its own choices' and the game's): the turns of the last round solved and
    /// the cycles before it (a cycle one and a half times: it is gone round two to four times).
    pub fn work(m: &Model, sol: &WinSolution, seats: usize, seat: Option<usize>) -> u64 {
        let c = Costs::new(m, sol, seats, seat);
        c.last + c.mid + c.sums.iter().sum::<u64>()
    }

    /// The work of `self` (a stopped solve's or evaluation's game, `seat` as in
    /// [`SmallGame::work`]) already done.
    pub fn work_done(&self, m: &Model, seat: Option<usize>) -> u64 {
        if self.w.is_empty() {
            return 0;
        }
        let c = Costs::new(m, &self.sol, self.seats, seat);
        c.last + c.mid + c.sums.iter().rev().take(self.sums_done).sum::<u64>()
    }

    /// The game with seat `j` played by `guide` and every other seat by this solution's
    /// choices (they do not adapt to the guide): every seat's exact chance of winning.
    pub fn evaluate(
        &self,
        j: usize,
        guide: &dyn SeatGuide,
        advance: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<f64>, SmallGameError> {
        let g = self.evaluate_until(j, guide, None, advance, None)?;
        Ok(g.start())
    }

    /// [`SmallGame::evaluate`] from `from` (a stopped evaluation's game of the same seat and
    /// guide, if any), stopping at the end of a sum of scores once `stop` is raised: the
    /// evaluation's game, whole (its [`SmallGame::start`] the chances) or not.
    pub fn evaluate_until(
        &self,
        j: usize,
        guide: &dyn SeatGuide,
        from: Option<SmallGame>,
        advance: &(dyn Fn(u64) + Sync),
        stop: Option<&AtomicBool>,
    ) -> Result<SmallGame, SmallGameError> {
        let mut g = from.unwrap_or_else(|| Self {
            w: Vec::new(),
            last: [Vec::new(), Vec::new()],
            mid: HashMap::new(),
            sol: self.sol.clone(),
            residual: 0.0,
            passes: 0,
            max_passes: 0,
            sums_done: 0,
            ..*self
        });
        let past = self.past_pass(&*guide.past());
        let play: Vec<Seat> = (0..self.seats)
            .map(|i| {
                if i == j {
                    Seat::Guide(guide, &past)
                } else {
                    Seat::Exact(self)
                }
            })
            .collect();
        // The last round's tables are this game's where the seats playing them play as it
        // does.
        let (last, mid) = redone(self.seats, Some(j));
        if !last && g.last[0].is_empty() {
            g.last = self.last.clone();
        }
        if !mid && g.mid.is_empty() {
            g.mid = self.mid.clone();
        }
        g.fill(&play, advance, stop)?;
        Ok(g)
    }

    /// The game's tables and the sums solved, as bytes (the two-player solve it reads is not
    /// in them: it is solved again), for a stopped solve's progress
    /// ([`SmallGame::from_bytes`]). Every value is kept to the bit.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let put = |out: &mut Vec<u8>, x: u64| out.extend_from_slice(&x.to_le_bytes());
        let vals = |out: &mut Vec<u8>, v: &Vals| {
            for x in v {
                out.extend_from_slice(&x.to_bits().to_le_bytes());
            }
        };
        for x in [
            self.seats as u64,
            self.sol.tu as u64,
            self.sums_done as u64,
            self.passes,
            self.max_passes as u64,
            self.residual.to_bits(),
            self.w.len() as u64,
        ] {
            put(&mut out, x);
        }
        for v in &self.w {
            vals(&mut out, v);
        }
        for l in &self.last {
            put(&mut out, l.len() as u64);
            for &(a, b) in l {
                put(&mut out, a.to_bits());
                put(&mut out, b.to_bits());
            }
        }
        let mut mid: Vec<_> = self.mid.iter().collect();
        mid.sort_by_key(|(k, _)| **k);
        put(&mut out, mid.len() as u64);
        for (&(d1, d2), v) in mid {
            put(&mut out, d1 as u64);
            put(&mut out, d2 as u64);
            vals(&mut out, v);
        }
        out
    }

    /// A game from [`SmallGame::to_bytes`], for `sol` (the two-player solve of the same rules
    /// and target) and `seats`, checked for its shape.
    pub fn from_bytes(
        m: &Model,
        sol: &WinSolution,
        seats: usize,
        bytes: &[u8],
    ) -> Result<SmallGame, String> {
        let mut g = Self::empty(m, sol, seats).map_err(|e| e.to_string())?;
        let mut r = Bytes(bytes);
        let bad = |what: &str| format!("the saved game is damaged ({what})");
        if r.u()? != seats as u64 || r.u()? != sol.tu as u64 {
            return Err(bad("another game"));
        }
        g.sums_done = r.u()? as usize;
        g.passes = r.u()?;
        g.max_passes = r.u()? as usize;
        g.residual = r.f()?;
        let n = r.len(4 * 8)?;
        if n != 0 && n != seats * sol.tu.pow(seats as u32) || g.sums_done > g.sums() {
            return Err(bad("its size"));
        }
        g.w = (0..n).map(|_| r.vals()).collect::<Result<_, _>>()?;
        for l in g.last.iter_mut() {
            let n = r.len(16)?;
            *l = (0..n)
                .map(|_| Ok((r.f()?, r.f()?)))
                .collect::<Result<_, String>>()?;
        }
        let n = r.len(6 * 8)?;
        for _ in 0..n {
            let k = (r.u()? as usize, r.u()? as usize);
            let v = r.vals()?;
            g.mid.insert(k, v);
        }
        if !r.0.is_empty() {
            return Err(bad("bytes left over"));
        }
        Ok(g)
    }

    /// Whether a game of `seats` seats under `m`'s rules and target is small enough to solve
    /// (checked before the two-player solve it needs).
    pub fn check(m: &Model, seats: usize) -> Result<(), SmallGameError> {
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(SmallGameError::Seats(seats));
        }
        let tu = m.rules.target.div_ceil(m.unit as u64) as usize;
        let positions = tu
            .checked_pow(seats as u32)
            .map(|x| x * seats)
            .unwrap_or(usize::MAX);
        if positions > MAX_POSITIONS {
            let largest = (1..tu)
                .rev()
                .find(|&t| seats * t.pow(seats as u32) <= MAX_POSITIONS)
                .unwrap_or(1);
            return Err(SmallGameError::Size {
                target: m.rules.target,
                seats,
                positions,
                max: MAX_POSITIONS,
                largest: largest as u64 * m.unit as u64,
            });
        }
        Ok(())
    }

    fn empty(m: &Model, sol: &WinSolution, seats: usize) -> Result<SmallGame, SmallGameError> {
        Self::check(m, seats)?;
        Ok(SmallGame {
            seats,
            w: Vec::new(),
            last: [Vec::new(), Vec::new()],
            mid: HashMap::new(),
            sol: sol.clone(),
            residual: 0.0,
            passes: 0,
            max_passes: 0,
            sums_done: 0,
        })
    }

    /// Every seat's chance of winning from the start (seat 0 to move, every score 0).
    pub fn start(&self) -> Vec<f64> {
        self.w[0][..self.seats].to_vec()
    }

    /// Every seat's chance of winning with `seat` to move at `scores` (units).
    pub fn value(&self, seat: usize, scores: &[usize]) -> Vec<f64> {
        self.w[seat * self.sol.tu.pow(self.seats as u32) + self.index(scores)][..self.seats]
            .to_vec()
    }

    fn index(&self, s: &[usize]) -> usize {
        s.iter().rev().fold(0, |acc, &x| acc * self.sol.tu + x)
    }

    fn scores(&self, mut idx: usize) -> Vec<usize> {
        (0..self.seats)
            .map(|_| {
                let x = idx % self.sol.tu;
                idx /= self.sol.tu;
                x
            })
            .collect()
    }

    /// Solve every table in order: the last turns, seat 1's last turns (unless given), then
    /// the positions before the last round by decreasing sum of scores, from the first sum
    /// not done; stops at the end of a sum once `stop` is raised.
    fn fill(
        &mut self,
        play: &[Seat],
        advance: &(dyn Fn(u64) + Sync),
        stop: Option<&AtomicBool>,
    ) -> Result<(), SmallGameError> {
        let stopped = || stop.is_some_and(|f| f.load(Ordering::SeqCst));
        if self.w.is_empty() && stopped() {
            // Stopped before it began: nothing is done.
            return Ok(());
        }
        if self.sol.finish_round {
            if self.last[0].is_empty() {
                self.fill_last(play[self.seats - 1], advance);
            }
            if self.seats == 3 && self.mid.is_empty() {
                self.fill_mid(play[1], advance);
            }
        }
        let n = self.seats;
        let per = self.sol.tu.pow(n as u32);
        if self.w.is_empty() {
            self.w = vec![[0.0; SLOTS]; n * per];
            self.sums_done = 0;
        }
        let mut by_sum: Vec<Vec<usize>> = vec![Vec::new(); self.sums()];
        for idx in 0..per {
            by_sum[self.scores(idx).iter().sum::<usize>()].push(idx);
        }
        let mult = Costs::mults(play);
        for (k, tuples) in by_sum.iter().enumerate().rev() {
            if by_sum.len() - 1 - k < self.sums_done {
                continue;
            }
            if stopped() {
                return Ok(());
            }
            let out: Vec<Result<(usize, CycleOut), SmallGameError>> = tuples
                .par_iter()
                .map_init(Bufs::default, |bufs, &idx| {
                    let s = self.scores(idx);
                    self.cycle(&s, play, bufs).map(|c| (idx, c))
                })
                .collect();
            for o in out {
                let (idx, (vals, r, k)) = o?;
                for (i, v) in vals.into_iter().enumerate() {
                    self.w[i * per + idx] = v;
                }
                self.residual = self.residual.max(r);
                self.passes += k as u64;
                self.max_passes = self.max_passes.max(k);
            }
            self.sums_done += 1;
            let cost: u64 = tuples
                .iter()
                .map(|&idx| Costs::cycle(&self.sol, &self.scores(idx), &mult))
                .sum();
            advance(cost);
        }
        Ok(())
    }

    /// The last seat's last turns, for every distance to the bar up to the cap.
    fn fill_last(&mut self, seat: Seat, advance: &(dyn Fn(u64) + Sync)) {
        let ties = if self.seats == 3 { 2 } else { 1 };
        let mult = Costs::mult(seat);
        let mut last = [Vec::new(), Vec::new()];
        for (c, out) in last.iter_mut().enumerate().take(ties) {
            *out = (0..=self.sol.cap)
                .into_par_iter()
                .map_init(Bufs::default, |bufs, d| {
                    let at = At::Last { c: c + 1, d };
                    let v = self.play(at, None, seat, bufs);
                    advance(mult * levels(&self.sol, at) as u64);
                    (v[0], v[1])
                })
                .collect();
        }
        self.last = last;
    }

    /// Three seats: seat 1's last turns after seat 0 reached the bar, for every pair of
    /// distances the game can reach.
    fn fill_mid(&mut self, seat: Seat, advance: &(dyn Fn(u64) + Sync)) {
        let pairs = mid_pairs(self.sol.tu, self.sol.cap, self.sol.fast.max_pts());
        let mult = Costs::mult(seat);
        // Seat 1's turn depends on the distance to the bar only through where it starts: a
        // turn starting d1 units behind is the one starting the most units behind, from its
        // state that far past its start (the same banks, farkle and end, seat 2 at the same
        // distance). So one pass per d2 serves every d1, unless the least bank (more than one
        // unit) or a guide's tables (one per d1) tell the turns apart.
        if !mid_shortcut(&self.sol, matches!(seat, Seat::Guide(..))) {
            self.mid = pairs
                .into_par_iter()
                .map_init(Bufs::default, |bufs, (d1, d2)| {
                    let at = At::Mid { d1, d2 };
                    let v = self.play(at, None, seat, bufs);
                    advance(mult * levels(&self.sol, at) as u64);
                    ((d1, d2), v)
                })
                .collect();
            return;
        }
        let hs = self.sol.fast.holds;
        self.mid = by_d2(pairs)
            .into_par_iter()
            .map_init(Bufs::default, |bufs, (d2, d1s)| {
                let top = d1s.iter().copied().max().unwrap_or(1);
                let at = At::Mid { d1: top, d2 };
                self.play(at, None, seat, bufs);
                advance(mult * levels(&self.sol, at) as u64);
                d1s.into_iter()
                    .map(|d1| ((d1, d2), bufs.pass.vr[2 * (top - d1) * hs + 1]))
                    .collect::<Vec<_>>()
            })
            .flatten()
            .collect();
    }

    /// The last seat's last turn as the win shares of every seat: `bar` the seats at the bar,
    /// `d` units ahead of the last seat.
    fn last_shares(&self, d: usize, bar: &[usize]) -> Vals {
        let me = self.seats - 1;
        let c = bar.len();
        let (more, tie) = self.last[c - 1].get(d).copied().unwrap_or((0.0, 0.0));
        let mut v = [0.0; SLOTS];
        v[me] = more + tie / (c + 1) as f64;
        for &b in bar {
            v[b] = (1.0 - more - tie) / c as f64 + tie / (c + 1) as f64;
        }
        v
    }

    /// The value of seat `i` banking to `to` units at scores `s` (at or past the target: the
    /// last round, or the win).
    fn bank_to(&self, i: usize, s: &[usize], to: usize) -> Vals {
        let n = self.seats;
        let tu = self.sol.tu;
        if to < tu {
            let mut s2 = s.to_vec();
            s2[i] = to;
            return self.w[self.at((i + 1) % n, &s2)];
        }
        if !self.sol.finish_round || i == n - 1 {
            return unit(i);
        }
        if n == 3 && i == 0 {
            return self.mid[&(to - s[1], to - s[2])];
        }
        self.last_shares(to - s[n - 1], &[i])
    }

    fn at(&self, seat: usize, s: &[usize]) -> usize {
        seat * self.sol.tu.pow(self.seats as u32) + self.index(s)
    }

    /// The n-cycle at scores `s`: every seat's values when it moves there, the last pass's
    /// largest change, and the passes taken.
    fn cycle(
        &self,
        s: &[usize],
        play: &[Seat],
        bufs: &mut Bufs,
    ) -> Result<CycleOut, SmallGameError> {
        let n = self.seats;
        let mut x0 = [1.0 / n as f64; SLOTS];
        x0[BUST] = 0.0;
        for k in 1..=MAX_PASSES {
            // Round the cycle backwards: seat n − 1's farkle is worth seat 0's value (x0).
            let mut vals = vec![[0.0; SLOTS]; n];
            let mut beta = vec![0.0; n];
            let mut consts = vec![[0.0; SLOTS]; n];
            let mut next = x0;
            for i in (0..n).rev() {
                let mut f = next;
                f[BUST] = 1.0;
                let mut v = self.play(At::Game { i, s }, Some(f), play[i], bufs);
                beta[i] = v[BUST];
                consts[i] = axpy(-v[BUST], &next, &v);
                consts[i][BUST] = 0.0;
                v[BUST] = 0.0;
                vals[i] = v;
                next = v;
            }
            // For these policies: x0 = c0 + b0 (c1 + b1 (c2 + b2 x0)).
            let mut acc = [0.0; SLOTS];
            let mut prod = 1.0;
            for i in (0..n).rev() {
                acc = axpy(beta[i], &acc, &consts[i]);
                prod *= beta[i];
            }
            let change = (0..n)
                .map(|c| (vals[0][c] - x0[c]).abs())
                .fold(0.0, f64::max);
            if change < TOL {
                return Ok((vals, change, k));
            }
            x0 = acc.map(|a| a / (1.0 - prod));
        }
        Err(SmallGameError::Unsettled(s.to_vec()))
    }

    /// What a turn at `at` reads in this game: levels, the farkle's value (`farkle`, or this
    /// game's own), the banks by turn points, the states beyond, and the mover's objective.
    fn spec(&self, at: At, farkle: Option<Vals>) -> Spec {
        let fast = &self.sol.fast;
        let least = fast.min_bank as usize;
        let bank_row = |levels: usize, f: &dyn Fn(usize) -> Vals| -> Vec<Option<Vals>> {
            (0..=levels + fast.max_pts())
                .map(|tp| (tp >= least).then(|| f(tp)))
                .collect()
        };
        match at {
            At::Game { i, s } => {
                // As the two-player mover's turn: to the target, or to the cap past the
                // highest score still to move this round when reaching it gives last turns.
                let levels = levels(&self.sol, at);
                let farkle = farkle.unwrap_or_else(|| {
                    let mut f = self.w[self.at((i + 1) % self.seats, s)];
                    f[BUST] = 1.0;
                    f
                });
                let banks = bank_row(levels, &|tp| self.bank_to(i, s, s[i] + tp));
                let win = self.bank_to(i, s, s[i] + levels);
                Spec {
                    levels,
                    beyond: (win, fast.roll_beyond(&farkle, &win)),
                    farkle,
                    banks,
                    w: unit(i),
                }
            }
            At::Last { c, d } => {
                let levels = levels(&self.sol, at);
                let banks = bank_row(levels, &|tp| match tp.cmp(&d) {
                    std::cmp::Ordering::Greater => unit(0),
                    std::cmp::Ordering::Equal => unit(1),
                    std::cmp::Ordering::Less => [0.0; SLOTS],
                });
                let zero = [0.0; SLOTS];
                Spec {
                    levels,
                    farkle: zero,
                    banks,
                    beyond: (unit(0), fast.roll_beyond(&zero, &unit(0))),
                    w: [1.0, 1.0 / (c + 1) as f64, 0.0, 0.0],
                }
            }
            At::Mid { d1, d2 } => {
                let levels = levels(&self.sol, at);
                let shares = |tp: usize| match tp.cmp(&d1) {
                    std::cmp::Ordering::Less => self.last_shares(d2, &[0]),
                    std::cmp::Ordering::Equal => self.last_shares(d2, &[0, 1]),
                    std::cmp::Ordering::Greater => self.last_shares(d2 + tp - d1, &[1]),
                };
                let farkle = shares(0);
                let win = shares(levels);
                Spec {
                    levels,
                    banks: bank_row(levels, &shares),
                    beyond: (win, fast.roll_beyond(&farkle, &win)),
                    farkle,
                    w: unit(1),
                }
            }
        }
    }

    /// The turn at `at` played by `seat`: its value (its pass left in `bufs.pass`).
    ///
    /// A turn is followed to where it has won whatever follows but a farkle or doom (the
    /// target reached where that ends the game, the bar passed on a last turn, the cap past
    /// the seats still to play); an exact seat banks there at the first chance. A guide may
    /// play on (hot dice that must be rolled, a bank it does not take) and can still farkle
    /// or doom: its states there are valued by its own choices (`Seat::Guide`'s pass).
    fn play(&self, at: At, farkle: Option<Vals>, seat: Seat, bufs: &mut Bufs) -> Vals {
        let fast = &self.sol.fast;
        let sp = self.spec(at, farkle);
        let Bufs {
            pass,
            star: star_pass,
        } = bufs;
        let same = Beyond::Same(sp.beyond.0, sp.beyond.1);
        let run = |pick: &Pick, beyond: Beyond, pass: &mut Pass| {
            fast.turn_vec(sp.levels, sp.farkle, &sp.banks, beyond, pick, pass)
        };
        match seat {
            Seat::Solve => run(&Pick::Own(sp.w), same, pass),
            Seat::Guide(g, past) => {
                let c = match at {
                    At::Game { i, s } => g.turn(i, s),
                    At::Last { d, .. } => g.last_turn(self.seats - 1, d),
                    At::Mid { d1, .. } => g.last_turn(1, d1),
                };
                let beyond = Beyond::Past {
                    win: sp.beyond.0,
                    farkle: sp.farkle,
                    past,
                };
                run(&Pick::By(&*c), beyond, pass)
            }
            Seat::Exact(star) => {
                // The exact profile's own pass at this position gives the choices.
                let ss = star.spec(at, None);
                let own = Pick::Own(ss.w);
                let star_beyond = Beyond::Same(ss.beyond.0, ss.beyond.1);
                fast.turn_vec(
                    ss.levels,
                    ss.farkle,
                    &ss.banks,
                    star_beyond,
                    &own,
                    star_pass,
                );
                let choice = PassChoice {
                    pass: star_pass,
                    w: ss.w,
                };
                run(&Pick::By(&choice), same, pass)
            }
        }
    }

    /// A guide's play once its turn has won (`past`, the same at every position), from every
    /// state of a turn: slot 0 the chance that it banks, slot 1 that it farkles or dooms.
    /// Followed as far as any turn of the game is and to the tail cut-off beyond (states
    /// further valued as banked: the chance of a turn getting there is below `tail_p`).
    fn past_pass(&self, past: &dyn TurnChoice) -> Pass {
        let fast = &self.sol.fast;
        // A turn follows at most a target and the cap and a bank past it (seat 1's last turn
        // behind a bar seat 0 set that far up: `mid_pairs`); the guide's own play from there
        // is followed a tail further.
        let levels = self.sol.tu + self.sol.cap + fast.max_pts() + 1 + self.sol.tail_levels;
        let (bank, bust) = (unit(0), unit(1));
        let banks = vec![Some(bank); levels + fast.max_pts() + 1];
        let beyond = Beyond::Same(bank, fast.roll_beyond(&bust, &bank));
        let mut pass = Pass::default();
        fast.turn_vec(levels, bust, &banks, beyond, &Pick::By(past), &mut pass);
        pass
    }
}

/// Which tables of the last round are made (again) when `seat` is played by a guide (None:
/// the solve): the last seat's last turns when the last seat is the guide's, and seat 1's
/// (three seats) when seat 1 or the seat after it is (its turn reads the last seat's).
fn redone(seats: usize, seat: Option<usize>) -> (bool, bool) {
    match seat {
        None => (true, seats == 3),
        Some(j) => (j == seats - 1, seats == 3 && j >= 1),
    }
}

/// The distances (d1, d2) behind the bar of seats 1 and 2 that seat 1's last turn can be
/// played at: seat 0 banks at most `max_pts` past the levels of its turn, which end at the
/// cap past the later scores; seat 2 is within the target of seat 1.
fn mid_pairs(tu: usize, cap: usize, max_pts: usize) -> Vec<(usize, usize)> {
    (1..=tu + cap + max_pts)
        .flat_map(|d1| (d1.saturating_sub(tu - 1).max(1)..d1 + tu).map(move |d2| (d1, d2)))
        .collect()
}

/// Bytes read in order ([`SmallGame::from_bytes`]).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u(&mut self) -> Result<u64, String> {
        if self.0.len() < 8 {
            return Err("the saved game is damaged (cut short)".into());
        }
        let (h, t) = self.0.split_at(8);
        self.0 = t;
        Ok(u64::from_le_bytes(h.try_into().expect("8 bytes")))
    }
    fn f(&mut self) -> Result<f64, String> {
        Ok(f64::from_bits(self.u()?))
    }
    fn vals(&mut self) -> Result<Vals, String> {
        Ok([self.f()?, self.f()?, self.f()?, self.f()?])
    }
    /// A count of items of `size` bytes each, no more than the bytes left hold.
    fn len(&mut self, size: usize) -> Result<usize, String> {
        let n = self.u()?;
        if n > (self.0.len() / size) as u64 {
            return Err("the saved game is damaged (a count too large)".into());
        }
        Ok(n as usize)
    }
}

/// The levels a turn at `at` is followed to (its pass's cost).
fn levels(sol: &WinSolution, at: At) -> usize {
    let least = sol.fast.min_bank as usize;
    match at {
        At::Game { i, s } => {
            // As the two-player mover's turn: to the target, or to the cap past the highest
            // score still to move this round when reaching it gives last turns.
            let later = s[i + 1..].iter().copied().max();
            let k = if later.is_some() { 0 } else { 1 };
            sol.solve_levels(k, s[i], later.unwrap_or(0)).0
        }
        At::Last { d, .. } => (d + 1).max(least),
        // Past the bar seat 1 rolls on to raise it for seat 2, to the cap past seat 2.
        At::Mid { d1, d2 } => (d1 + 1)
            .max((d1 + 1 + sol.cap).saturating_sub(d2))
            .max(least),
    }
}

/// Whether seat 1's last turns are made one pass per distance of seat 2 (`fill_mid`): not
/// where the least bank or a guide's tables tell the turns apart.
fn mid_shortcut(sol: &WinSolution, guide: bool) -> bool {
    sol.fast.min_bank <= 1 && !guide
}

/// Seat 1's last turns' distances grouped by seat 2's.
fn by_d2(pairs: Vec<(usize, usize)>) -> std::collections::BTreeMap<usize, Vec<usize>> {
    let mut by: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (d1, d2) in pairs {
        by.entry(d2).or_default().push(d1);
    }
    by
}

/// The work of a solve or an evaluation in turn levels, by part: the last seat's last turns,
/// seat 1's, and the cycles of each sum of scores (from the smallest sum).
struct Costs {
    last: u64,
    mid: u64,
    sums: Vec<u64>,
}

impl Costs {
    fn new(m: &Model, sol: &WinSolution, seats: usize, seat: Option<usize>) -> Costs {
        // An exact seat against a guide makes two passes a turn (its choices' and the game's).
        let mult: Vec<u64> = (0..seats)
            .map(|i| match seat {
                Some(j) if j != i => 2,
                _ => 1,
            })
            .collect();
        let tu = sol.tu;
        let per = tu.pow(seats as u32);
        let mut sums = vec![0u64; seats * (tu - 1) + 1];
        let mut s = vec![0usize; seats];
        for idx in 0..per {
            let mut x = idx;
            for v in s.iter_mut() {
                *v = x % tu;
                x /= tu;
            }
            sums[s.iter().sum::<usize>()] += Self::cycle(sol, &s, &mult);
        }
        let (mut last, mut mid) = (0, 0);
        if m.rules.end == EndRule::FinishRound {
            let (redo_last, redo_mid) = redone(seats, seat);
            if redo_last {
                let ties = if seats == 3 { 2 } else { 1 };
                for c in 1..=ties {
                    for d in 0..=sol.cap {
                        last += mult[seats - 1] * levels(sol, At::Last { c, d }) as u64;
                    }
                }
            }
            if redo_mid {
                let pairs = mid_pairs(tu, sol.cap, sol.fast.max_pts());
                let turns: Vec<(usize, usize)> = if mid_shortcut(sol, seat == Some(1)) {
                    by_d2(pairs)
                        .into_iter()
                        .map(|(d2, d1s)| (d1s.into_iter().max().unwrap_or(1), d2))
                        .collect()
                } else {
                    pairs
                };
                mid = turns
                    .into_iter()
                    .map(|(d1, d2)| mult[1] * levels(sol, At::Mid { d1, d2 }) as u64)
                    .sum();
            }
        }
        Costs { last, mid, sums }
    }

    /// Each seat's passes a turn as `play` plays it.
    fn mults(play: &[Seat]) -> Vec<u64> {
        play.iter().map(|&p| Self::mult(p)).collect()
    }

    fn mult(seat: Seat) -> u64 {
        match seat {
            Seat::Exact(_) => 2,
            _ => 1,
        }
    }

    /// The cycle at scores `s`: every seat's turn, one and a half times. The policy iteration
    /// goes round a cycle two to four times, not known ahead; counted so, the work of each
    /// part of a solve or an evaluation at a target of 300 is its share of the time to a few
    /// percent (a cycle counted once, the evaluations made mostly of cycles ran a third
    /// slower than their count).
    fn cycle(sol: &WinSolution, s: &[usize], mult: &[u64]) -> u64 {
        let once: u64 = (0..s.len())
            .map(|i| mult[i] * levels(sol, At::Game { i, s }) as u64)
            .sum();
        (3 * once).div_ceil(2)
    }
}

/// Where a turn is played: seat `i` before the last round at scores `s`; the last seat's
/// last turn `d` units behind the `c` seats at the bar; seat 1's last turn (three seats) `d1`
/// behind the bar that seat 0 set, seat 2 `d2` behind it.
#[derive(Clone, Copy)]
enum At<'s> {
    Game { i: usize, s: &'s [usize] },
    Last { c: usize, d: usize },
    Mid { d1: usize, d2: usize },
}

/// A cycle's values (one per seat to move), its last change and its passes.
type CycleOut = (Vec<Vals>, f64, usize);

/// A turn's inputs (`SmallGame::spec`).
struct Spec {
    levels: usize,
    farkle: Vals,
    banks: Vec<Option<Vals>>,
    beyond: (Vals, Vals),
    w: Vals,
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use super::super::super::rules::{DoomPreset, DoomRules, EndRule, HeldDice};
    use super::super::super::score::key;
    use super::*;
    use crate::games::doom::report::check_strategy;
    use crate::games::doom::sim::{DoomSim, GameView, Mode, SeatPlay, SolvedStrategy, WinPlay};
    use crate::games::doom::strategy::DoomStrategy;
    use crate::rng::{chunk_rng, die, Rng};

    fn model(preset: DoomPreset, target: u64, f: impl Fn(&mut DoomRules)) -> Model {
        let mut r = DoomRules::preset(preset);
        r.target = target;
        f(&mut r);
        Model::new(&r)
    }

    /// Separate scoring and doom on one six: few holds and short turns, for games played out.
    fn quick(target: u64) -> Model {
        quick_ending(target, EndRule::FinishRound)
    }

    fn quick_ending(target: u64, end: EndRule) -> Model {
        model(DoomPreset::Seed, target, |r| {
            r.held_dice = HeldDice::Separate;
            r.doom_sixes = Some(1);
            r.end = end;
        })
    }

    /// The three-seat game of `quick(300)`, solved once for the tests that read it (each
    /// test that checks a solve itself makes its own).
    fn solved300() -> &'static (Model, WinSolution, SmallGame) {
        static GAME: std::sync::OnceLock<(Model, WinSolution, SmallGame)> =
            std::sync::OnceLock::new();
        GAME.get_or_init(|| {
            let m = quick(300);
            let sol = WinSolution::solve(&m).unwrap();
            let g = SmallGame::solve(&m, &sol, 3, &|_| {}).unwrap();
            (m, sol, g)
        })
    }

    /// The exact profile's choices as a guide (it must reproduce the solved values).
    struct Same<'a>(&'a SmallGame);

    impl SeatGuide for Same<'_> {
        fn turn(&self, seat: usize, scores: &[usize]) -> Box<dyn TurnChoice + '_> {
            self.0.choice(At::Game { i: seat, s: scores })
        }
        fn last_turn(&self, seat: usize, d: usize) -> Box<dyn TurnChoice + '_> {
            unreachable!("seat {seat} at {d}: `Same` is used where the last turns are the game's")
        }
        fn past(&self) -> Box<dyn TurnChoice + '_> {
            Box::new(Won)
        }
    }

    /// The exact profile's pass at `at`, as choices.
    struct Owned {
        pass: Pass,
        w: Vals,
    }

    impl TurnChoice for Owned {
        fn pick(&self, p: usize, ks: &[u32]) -> u32 {
            PassChoice {
                pass: &self.pass,
                w: self.w,
            }
            .pick(p, ks)
        }
        fn banks(&self, p: usize, h: usize) -> bool {
            PassChoice {
                pass: &self.pass,
                w: self.w,
            }
            .banks(p, h)
        }
    }

    impl SmallGame {
        fn choice(&self, at: At) -> Box<dyn TurnChoice + '_> {
            let sp = self.spec(at, None);
            let mut pass = Pass::default();
            let pick = Pick::Own(sp.w);
            self.sol.fast.turn_vec(
                sp.levels,
                sp.farkle,
                &sp.banks,
                Beyond::Same(sp.beyond.0, sp.beyond.1),
                &pick,
                &mut pass,
            );
            Box::new(Owned { pass, w: sp.w })
        }
    }

    #[test]
    fn two_seats_are_the_two_player_solve() {
        // The two-player solve (Newton on 2-cycles, scalar values) and this one (policy
        // iteration on n-cycles, vectors, the last turn as two chances) agree everywhere.
        let cases = [
            model(DoomPreset::Seed, 300, |_| {}),
            model(DoomPreset::Seed, 300, |r| r.end = EndRule::Immediate),
            model(DoomPreset::S2Common, 250, |r| r.end = EndRule::FinishRound),
        ];
        for m in &cases {
            let sol = WinSolution::solve(m).unwrap();
            let g = SmallGame::solve(m, &sol, 2, &|_| {}).unwrap();
            let tu = sol.tu;
            let k1 = if sol.finish_round { 1 } else { 0 };
            for a in 0..tu {
                for b in 0..tu {
                    let first = g.value(0, &[a, b]);
                    let second = g.value(1, &[a, b]);
                    assert!((first[0] - sol.w[0][a * tu + b]).abs() < 1e-12, "{a},{b}");
                    assert!((second[1] - sol.w[k1][b * tu + a]).abs() < 1e-12, "{a},{b}");
                    assert!((first[0] + first[1] - 1.0).abs() < 1e-12);
                }
            }
            assert!(g.residual < TOL && g.max_passes <= 6, "{}", g.max_passes);
            // The two-player policy as a seat loses nothing, in either seat.
            let pl = crate::games::doom::sim::SolvedStrategy::new(
                m,
                crate::games::doom::strategy::DoomStrategy::parse("win-optimal").unwrap(),
            );
            let guide = crate::games::doom::sim::SeatPlay::new(m, &sol, &pl);
            for j in 0..2 {
                let v = g.evaluate(j, &guide, &|_| {}).unwrap();
                assert!((v[j] - g.start()[j]).abs() < 1e-12, "seat {j}: {v:?}");
            }
        }
    }

    #[test]
    fn the_solved_choices_as_a_guide_reproduce_the_game() {
        let (_, _, g) = solved300();
        let start = g.start();
        assert!((start.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{start:?}");
        // Seat 0's turns before the last round given as choices: the same game.
        let v = g.evaluate(0, &Same(g), &|_| {}).unwrap();
        for (x, y) in v.iter().zip(&start) {
            assert!((x - y).abs() < 1e-12, "{v:?} {start:?}");
        }
    }

    #[test]
    #[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
    fn no_seat_gains_by_playing_otherwise() {
        // The exact profile is an equilibrium: one seat playing anything else, the others as
        // before, cannot win more. The single-turn optimum loses clearly.
        // (The solve's own progress is checked by the stopped-and-resumed test.)
        let (m, sol, g) = solved300();
        // The progress told is the work announced.
        let done = std::sync::atomic::AtomicU64::new(0);
        let count = |n: u64| {
            done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        };
        let take = || done.swap(0, std::sync::atomic::Ordering::Relaxed);
        let start = g.start();
        // Each seat deviates twice: by the single-turn optimum (every seat), and by one of the
        // other kinds of strategy (each kind in one seat; an evaluation is seconds of work, and
        // the code that values a deviation is the same for every seat and strategy).
        for (spec, seats) in [
            ("optimal", &[0, 1, 2][..]),
            ("win-field", &[0][..]),
            ("win-leader", &[1][..]),
            ("bank-at:300", &[2][..]),
        ] {
            let pl = crate::games::doom::sim::SolvedStrategy::new(
                m,
                crate::games::doom::strategy::DoomStrategy::parse(spec).unwrap(),
            );
            let guide = crate::games::doom::sim::SeatPlay::new(m, sol, &pl);
            for &j in seats {
                let v = g.evaluate(j, &guide, &count).unwrap();
                assert_eq!(take(), SmallGame::work(m, sol, 3, Some(j)), "seat {j}");
                assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{spec}: {v:?}");
                assert!(v[j] <= start[j] + 1e-12, "{spec} seat {j}: {v:?} {start:?}");
                if spec == "optimal" && j == 2 {
                    assert!(v[j] < start[j] - 0.01, "{spec} seat {j}: {v:?} {start:?}");
                }
            }
        }
    }

    /// Play one game of three seats by the exact profile from the rules alone: seats in turn
    /// from seat 0, the last round after the first to reach the target, the highest total
    /// winning and ties shared; seat `j` of `sim` (if given) plays its turns as `sim doom`
    /// plays them instead. Returns each seat's share.
    fn play_out<'g>(
        m: &Model,
        g: &'g SmallGame,
        rng: &mut Rng,
        passes: &mut HashMap<String, Box<dyn TurnChoice + 'g>>,
        sim: Option<(usize, &DoomSim)>,
    ) -> [f64; 3] {
        let tu = g.sol.tu;
        let mut s = [0usize; 3];
        let mut finished: Option<usize> = None;
        let mut seat = 0;
        loop {
            if let Some((j, sim)) = sim.filter(|&(j, _)| j == seat) {
                // The game as `DoomSim::play_game` shows it to the seat (in points).
                let total: Vec<i64> = s.iter().map(|&x| (x as u32 * m.unit) as i64).collect();
                let leader = (0..3).filter(|&k| k != j).map(|k| total[k]).max();
                let view = GameView {
                    bank: total[j],
                    leader: leader.unwrap_or(0),
                    last_turn: finished.is_some(),
                };
                let o = sim.seat_turn((j, j), view, 0, &total, 0, rng);
                s[seat] += (o.points / m.unit) as usize;
            } else {
                s[seat] += exact_turn(m, g, rng, passes, &s, seat, finished);
            }
            if finished.is_none() && s[seat] >= tu {
                if !g.sol.finish_round {
                    break;
                }
                finished = Some(seat);
            }
            seat += 1;
            if seat == 3 {
                if finished.is_some() {
                    break;
                }
                seat = 0;
            }
            if finished == Some(2) {
                break;
            }
        }
        let best = *s.iter().max().unwrap();
        let winners = s.iter().filter(|&&x| x == best).count() as f64;
        s.map(|x| if x == best { 1.0 / winners } else { 0.0 })
    }

    /// One turn of `seat` at scores `s` played from the rules, choosing as the exact profile
    /// does (`finished`: the seat that reached the target, if any): the units banked.
    fn exact_turn<'g>(
        m: &Model,
        g: &'g SmallGame,
        rng: &mut Rng,
        passes: &mut HashMap<String, Box<dyn TurnChoice + 'g>>,
        s: &[usize; 3],
        seat: usize,
        finished: Option<usize>,
    ) -> usize {
        let forced = m.rules.hot_dice_forced();
        let hs = m.holds.len();
        // Where this turn is, as the solve names it.
        let at = match finished {
            None => At::Game { i: seat, s },
            Some(0) if seat == 1 => At::Mid {
                d1: s[0] - s[1],
                d2: s[0] - s[2],
            },
            Some(_) => {
                let bar = s[..2].iter().copied().max().unwrap();
                let c = s[..2].iter().filter(|&&x| x == bar).count();
                At::Last { c, d: bar - s[2] }
            }
        };
        let name = match at {
            At::Game { i, s } => format!("g{i}{s:?}"),
            At::Mid { d1, d2 } => format!("m{d1},{d2}"),
            At::Last { c, d } => format!("l{c},{d}"),
        };
        let choice = passes.entry(name).or_insert_with(|| g.choice(at));
        // The turn.
        let (mut p, mut h) = (0usize, 0usize);
        loop {
            let n = 6 - m.holds[h].dice as usize;
            let mut c = [0u8; 6];
            for _ in 0..n {
                c[die(rng) as usize - 1] += 1;
            }
            let i = m.roll_index[key(&c)] as usize;
            let opts = &m.opts[h][i];
            if m.rolls[n][i].doom || opts.is_empty() {
                return 0;
            }
            let code = |o: &Opt| super::super::offset(hs, o, forced);
            let ks = super::super::offsets(hs, opts, forced);
            let k = choice.pick(p, &ks);
            let o = opts.iter().find(|o| code(o) == k).unwrap();
            p += o.gain as usize;
            h = o.to as usize;
            if o.hot && forced {
                continue;
            }
            let tp = p + m.holds[h].pts as usize;
            if tp as u32 * m.unit >= m.rules.min_bank.max(1) && choice.banks(p, h) {
                return tp;
            }
        }
    }

    /// Games of `m` played out by the exact profile: every seat's win rate within 4 SE of the
    /// solve's; the solve's chances.
    fn played_out_as_solved(m: &Model, g: &SmallGame, games: u64) -> Vec<f64> {
        let want = g.start();
        let mut rng = chunk_rng(7, 0);
        let mut passes = HashMap::new();
        let mut wins = [0.0; 3];
        for _ in 0..games {
            let w = play_out(m, g, &mut rng, &mut passes, None);
            for j in 0..3 {
                wins[j] += w[j];
            }
        }
        for j in 0..3 {
            let p = wins[j] / games as f64;
            let se = (want[j] * (1.0 - want[j]) / games as f64).sqrt();
            assert!(
                (p - want[j]).abs() < 4.0 * se,
                "seat {j}: played {p:.4}, solved {:.4} (SE {se:.4})",
                want[j]
            );
        }
        want
    }

    #[test]
    fn three_seats_played_out_win_as_solved() {
        // Games played by the rules themselves (not the solve's tables of the last round),
        // each turn choosing as the exact profile does.
        let (m, _, g) = solved300();
        let want = played_out_as_solved(m, g, 40_000);
        // The seats' chances differ: the last seat of the round sees the others' totals.
        assert!(want[2] > want[0] + 0.02, "{want:?}");
        // Where reaching the target wins at once, moving first is the advantage.
        let m = quick_ending(300, EndRule::Immediate);
        let sol = WinSolution::solve(&m).unwrap();
        let g = SmallGame::solve(&m, &sol, 3, &|_| {}).unwrap();
        let want = played_out_as_solved(&m, &g, 20_000);
        assert!(want[0] > want[2] + 0.02, "{want:?}");
    }

    /// One seat played by a strategy, the others by the exact profile: the evaluation's
    /// chances are those of games played out from the rules (quick rules, target 50), the
    /// strategy's turns played by `sim doom`'s own seat (`DoomSim::seat_turn`), every seat's
    /// within 4 SE (20,000 games), for every kind of strategy the game of three takes, in
    /// every seat. With a target of one unit every scoring set-aside reaches it (separate
    /// scoring adds each to the turn's points), so a strategy that rolls on past the target
    /// or the bar, where an exact seat has won, does so in most turns.
    fn strategies_win_as_sim_doom_plays_them(end: EndRule) {
        const GAMES: u64 = 20_000;
        let specs = [
            "win-field",
            "win-leader",
            "optimal",
            "bank-at:400",
            "thresholds:50,100,150,200,250,300",
            "endgame:150",
        ];
        let m = quick_ending(50, end);
        let sol = WinSolution::solve(&m).unwrap();
        let g = SmallGame::solve(&m, &sol, 3, &|_| {}).unwrap();
        let win = Arc::new(WinPlay::new(sol.clone()));
        let mut passes = HashMap::new();
        for (n, spec) in specs.iter().enumerate() {
            let st = DoomStrategy::parse(spec).unwrap();
            check_strategy(&st, 3).unwrap();
            let pl = Arc::new(SolvedStrategy::new(&m, st));
            let guide = SeatPlay::new(&m, &sol, &pl);
            let sim = DoomSim {
                model: Arc::new(Model::new(&m.rules)),
                players: vec![pl.clone(); 3],
                win: Some(win.clone()),
                mode: Mode::Games(GAMES),
                start_seat: Some(0),
                per_chunk: GAMES,
            };
            for j in 0..3 {
                let want = g.evaluate(j, &guide, &|_| {}).unwrap();
                let mut rng = chunk_rng(11, (n * 3 + j) as u64);
                let mut wins = [0.0; 3];
                for _ in 0..GAMES {
                    let w = play_out(&m, &g, &mut rng, &mut passes, Some((j, &sim)));
                    for k in 0..3 {
                        wins[k] += w[k];
                    }
                }
                for k in 0..3 {
                    let p = wins[k] / GAMES as f64;
                    let se = (want[k] * (1.0 - want[k]) / GAMES as f64).sqrt();
                    assert!(
                        (p - want[k]).abs() < 4.0 * se,
                        "{end:?}, {spec} in seat {j}: seat {k} played {p:.4}, evaluated {:.4} \
                         (SE {se:.4})",
                        want[k]
                    );
                }
            }
        }
    }

    #[test]
    fn each_strategy_in_each_seat_wins_as_sim_doom_plays_it_when_the_target_ends_the_game() {
        strategies_win_as_sim_doom_plays_them(EndRule::Immediate);
    }

    #[test]
    #[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
    fn each_strategy_in_each_seat_wins_as_sim_doom_plays_it_when_the_round_is_finished() {
        // Slow for the last round's turns, each made again for the strategy's seat and
        // followed to the tail cut-off, and for `win-field`'s tables, one a turn.
        strategies_win_as_sim_doom_plays_them(EndRule::FinishRound);
    }

    #[test]
    fn the_work_of_a_turn_is_its_levels_and_an_exact_seat_against_a_guide_counts_twice() {
        let m = quick(300);
        let sol = WinSolution::solve(&m).unwrap();
        let least = sol.fast.min_bank as usize;
        let last: u64 = (1..=2)
            .flat_map(|_| 0..=sol.cap)
            .map(|d| (d + 1).max(least) as u64)
            .sum();
        assert_eq!(Costs::new(&m, &sol, 3, None).last, last);
        // Seat 2 played by a guide: its last turns once each; seat 0: none made again.
        assert_eq!(Costs::new(&m, &sol, 3, Some(2)).last, last);
        let first = Costs::new(&m, &sol, 3, Some(0));
        assert_eq!((first.last, first.mid), (0, 0));
        // A cycle: one and a half times its turns' levels, an exact seat's twice.
        let s = [1, 2, 0];
        let lv: Vec<u64> = (0..3)
            .map(|i| levels(&sol, At::Game { i, s: &s }) as u64)
            .collect();
        let sum: u64 = lv.iter().sum();
        assert_eq!(Costs::cycle(&sol, &s, &[1, 1, 1]), (3 * sum).div_ceil(2));
        assert_eq!(
            Costs::cycle(&sol, &s, &[1, 2, 2]),
            (3 * (sum + lv[1] + lv[2])).div_ceil(2)
        );
        // Units of very different cost: a last turn far behind the bar against one at it.
        let far = levels(&sol, At::Last { c: 1, d: sol.cap });
        assert!(far > 10 * levels(&sol, At::Last { c: 1, d: 0 }), "{far}");
    }

    /// A solve or an evaluation from a stopped game, telling its work, stopped by a flag.
    type Run<'a> =
        dyn Fn(Option<SmallGame>, &(dyn Fn(u64) + Sync), Option<&AtomicBool>) -> SmallGame + 'a;

    /// `run` stopped once half of the work of the positions before the last round is told,
    /// its game saved as bytes and read back, and resumed: the game of a run without a stop,
    /// to the bit, and the work told in the two runs the work announced.
    fn stopped_and_resumed(m: &Model, sol: &WinSolution, seat: Option<usize>, run: &Run) {
        use std::sync::atomic::AtomicU64;
        let whole = run(None, &|_| {}, None);
        assert!(whole.is_whole());
        let c = Costs::new(m, sol, 3, seat);
        let half = c.last + c.mid + c.sums.iter().sum::<u64>() / 2;
        let stop = AtomicBool::new(false);
        let told = AtomicU64::new(0);
        let count = |n: u64| {
            if told.fetch_add(n, Ordering::SeqCst) + n >= half {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let part = run(None, &count, Some(&stop));
        assert!(!part.is_whole() && part.sums_done > 0, "{}", part.sums_done);
        assert_eq!(part.work_done(m, seat), told.load(Ordering::SeqCst));
        let back = SmallGame::from_bytes(m, sol, 3, &part.to_bytes()).unwrap();
        assert_eq!(back.to_bytes(), part.to_bytes());
        stop.store(false, Ordering::SeqCst);
        let tell = |n: u64| {
            told.fetch_add(n, Ordering::SeqCst);
        };
        let resumed = run(Some(back), &tell, Some(&stop));
        assert!(resumed.is_whole());
        assert_eq!(resumed.to_bytes(), whole.to_bytes());
        assert_eq!(
            told.load(Ordering::SeqCst),
            SmallGame::work(m, sol, 3, seat)
        );
        // A damaged or cut copy is refused.
        let bytes = part.to_bytes();
        assert!(SmallGame::from_bytes(m, sol, 3, &bytes[..bytes.len() - 3]).is_err());
        assert!(SmallGame::from_bytes(m, sol, 2, &bytes).is_err());
    }

    #[test]
    #[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
    fn a_stopped_solve_or_evaluation_resumes_to_the_same_game_bit_for_bit() {
        let m = quick(300);
        let sol = WinSolution::solve(&m).unwrap();
        stopped_and_resumed(&m, &sol, None, &|from, advance, stop| {
            SmallGame::solve_until(&m, &sol, 3, from, advance, stop).unwrap()
        });
        let g = &solved300().2;
        let pl = SolvedStrategy::new(&m, DoomStrategy::parse("optimal").unwrap());
        let guide = SeatPlay::new(&m, &sol, &pl);
        for j in [0, 1] {
            stopped_and_resumed(&m, &sol, Some(j), &|from, advance, stop| {
                g.evaluate_until(j, &guide, from, advance, stop).unwrap()
            });
        }
    }

    #[test]
    fn seat_one_s_last_turns_from_one_pass_per_distance_are_those_played_one_by_one() {
        let (_, _, g) = solved300();
        let mut bufs = Bufs::default();
        let mut checked = 0;
        for (&(d1, d2), v) in &g.mid {
            if (d1 + 3 * d2) % 17 == 0 {
                let one = g.play(At::Mid { d1, d2 }, None, Seat::Solve, &mut bufs);
                assert_eq!(v, &one, "({d1}, {d2})");
                checked += 1;
            }
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn too_many_seats_or_positions_are_refused() {
        let m = quick(300);
        assert_eq!(SmallGame::check(&m, 4), Err(SmallGameError::Seats(4)));
        assert_eq!(SmallGame::check(&m, 1), Err(SmallGameError::Seats(1)));
        assert!(matches!(
            SmallGame::check(&quick(1100), 3),
            Err(SmallGameError::Size { largest: 1050, .. })
        ));
        assert_eq!(SmallGame::check(&quick(1050), 3), Ok(()));
    }

    #[test]
    fn exact_seats_given_as_choices_make_the_same_game() {
        // Every table made again with every seat playing the solved choices (the last
        // round's shortcut included): the solved game, to rounding.
        let (m, sol, g) = solved300();
        let mut e = SmallGame::empty(m, sol, 3).unwrap();
        e.fill(&[Seat::Exact(g); 3], &|_| {}, None).unwrap();
        let close = |a: &Vals, b: &Vals| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-13);
        assert!(g.w.iter().zip(&e.w).all(|(a, b)| close(a, b)));
        assert_eq!(g.mid.len(), e.mid.len());
        assert!(g.mid.iter().all(|(k, v)| close(v, &e.mid[k])));
        for c in 0..2 {
            for (a, b) in g.last[c].iter().zip(&e.last[c]) {
                assert!((a.0 - b.0).abs() < 1e-13 && (a.1 - b.1).abs() < 1e-13);
            }
        }
    }

    #[test]
    fn a_table_seat_chooses_here_as_it_plays() {
        // For every hold and roll, at several levels: the set-aside play takes from a win
        // table (`sim::table_pick`) is the one the exact game's guide takes, ties included
        // (a last turn's table values every set-aside that clears the bar at 1).
        use crate::games::doom::sim::table_pick;
        let m = model(DoomPreset::Seed, 1000, |_| {});
        let sol = WinSolution::solve(&m).unwrap();
        let forced = m.rules.hot_dice_forced();
        let hs = m.holds.len();
        let tables = [
            sol.last_turn_table(3),
            sol.field_turn_table(5, &[(0, 8), (1, 12)], usize::MAX),
            sol.turn_table(1, 10, 4),
        ];
        let mut ties = 0;
        for t in tables {
            let c = TableChoice {
                sol: &sol,
                table: std::sync::Arc::new(t),
            };
            for h in 0..hs {
                for (i, opts) in m.opts[h].iter().enumerate() {
                    let n = 6 - m.holds[h].dice as usize;
                    if m.rolls[n][i].doom || opts.is_empty() {
                        continue;
                    }
                    let ks = super::super::offsets(hs, opts, forced);
                    for p in [0, 2, 5, 9] {
                        let played = table_pick(&c.table, p, opts, forced).unwrap();
                        let k = c.pick(p, &ks);
                        assert_eq!(super::super::offset(hs, played, forced), k, "{h} {i} {p}");
                        let v = |k: u32| c.table.after(p, &offset_opt(k, hs), true);
                        ties += ks.iter().filter(|&&x| x != k && v(x) == v(k)).count();
                    }
                }
            }
        }
        assert!(ties > 0, "the test must meet ties");
    }
}
