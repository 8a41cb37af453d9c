//! Dice of Doom Monte Carlo: single turns of one strategy, or full games of 2–8 seats, on the
//! game-generic chunked runner.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::exact::{solve_policy, BankRule, Policy, Solution, ValueTable};
use super::model::Model;
use super::rules::{DoomRules, DoomWipes, EndRule};
use super::score::key;
use super::strategy::{DoomStrategy, Multi};
use super::win::multi::{best_of, offset_opt, SeatGuide, TableChoice, TurnChoice, Won};
use super::win::{TurnKind, TurnTable, WinSolution};
use crate::engine::Simulation;
use crate::histogram::{Histogram, Window};
use crate::rng::{die, Rng};
use crate::stats::{Batch, Ratio};
use crate::sums::sums;

/// Turn-score histogram: bins of `HIST_BIN` points from `HIST_MIN`, plus under/overflow.
pub const HIST_BIN: i64 = 50;
pub const HIST_MIN: i64 = -1000;
pub const HIST_BINS: usize = 240;

/// A strategy ready to play: its spec and its solved tables.
pub struct SolvedStrategy {
    pub strategy: DoomStrategy,
    pub solution: Solution,
}

impl SolvedStrategy {
    pub fn new(model: &Model, strategy: DoomStrategy) -> SolvedStrategy {
        let solution = solve_policy(model, &strategy.policy);
        SolvedStrategy { strategy, solution }
    }
}

/// What the end-game variant needs to know about the game.
#[derive(Clone, Copy, Debug)]
pub struct GameView {
    pub bank: i64,
    /// Highest total among the other players.
    pub leader: i64,
    /// Someone reached the target and this is this player's last turn.
    pub last_turn: bool,
}

/// How one turn ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnOutcome {
    pub points: u32,
    pub farkle: bool,
    pub doom: bool,
    pub rolls: u32,
}

/// Roll the dice not held in hold `h`: the roll's index in `m.rolls`, or None for doom (the
/// roll and the doom recorded in `out`).
fn roll_dice(m: &Model, h: usize, rng: &mut Rng, out: &mut TurnOutcome) -> Option<usize> {
    let n = 6 - m.holds[h].dice;
    let mut c = [0u8; 6];
    for _ in 0..n {
        c[die(rng) as usize - 1] += 1;
    }
    out.rolls += 1;
    let i = m.roll_index[key(&c)] as usize;
    out.doom = m.rolls[n as usize][i].doom;
    (!out.doom).then_some(i)
}

/// Play one turn. `z` is the number of farkles in a row before it (selects the table).
pub fn play_turn(
    m: &Model,
    pl: &SolvedStrategy,
    z: usize,
    view: Option<GameView>,
    rng: &mut Rng,
) -> TurnOutcome {
    let t: &ValueTable = &pl.solution.tables[z.min(pl.solution.tables.len() - 1)];
    let pol: &Policy = &pl.solution.policy;
    let mut out = TurnOutcome::default();
    let (mut p, mut h) = (0usize, 0usize);
    loop {
        let Some(i) = roll_dice(m, h, rng, &mut out) else {
            return out;
        };
        let opts = &m.opts[h][i];
        let Some(k) = t.choose(m, pol.keep, p, opts) else {
            out.farkle = true;
            return out;
        };
        let o = opts[k];
        p += o.gain as usize;
        h = o.to as usize;
        let tp = (p as u32 + m.holds[h].pts) * m.unit;
        if o.hot && m.rules.hot_dice_forced() {
            continue;
        }
        if tp < m.rules.min_bank.max(1) {
            continue;
        }
        let bank = strategy_banks(m, pl, t, (p, h), view);
        if bank {
            out.points = tp;
            return out;
        }
    }
}

/// Turn tables kept at most (bytes). A run visits far more positions than it revisits (at a
/// target of 10,000 the game has 80,000, each table about 50 kB), so the tables kept are
/// dropped together when they would pass this and kept afresh from then on: the positions
/// played often (the first turns of a game) are back at once, and memory stays near the
/// solved table's. At 10,000 this keeps the time of keeping every table (1 GB) within a few
/// percent (docs/performance.md).
const WIN_CACHE_BYTES: usize = 32 << 20;

/// The turn tables kept: by turn, and their bytes.
#[derive(Default)]
struct Kept {
    tables: HashMap<TurnKind, Arc<TurnTable>>,
    bytes: usize,
}

/// The win-optimal policy in play: the solved game, and the turn tables built lately (shared
/// by the threads, up to `WIN_CACHE_BYTES`).
pub struct WinPlay {
    pub sol: WinSolution,
    kept: Mutex<Kept>,
    /// The tables' bytes kept at most.
    budget: usize,
}

impl WinPlay {
    pub fn new(sol: WinSolution) -> WinPlay {
        Self::keeping(sol, WIN_CACHE_BYTES)
    }

    /// Keeping at most `budget` bytes of turn tables.
    fn keeping(sol: WinSolution, budget: usize) -> WinPlay {
        WinPlay {
            sol,
            kept: Mutex::new(Kept::default()),
            budget,
        }
    }

    fn table(&self, kind: TurnKind) -> Arc<TurnTable> {
        let lock = || self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = lock().tables.get(&kind) {
            return t.clone();
        }
        let t = Arc::new(match kind {
            TurnKind::Game { k, a, b } => {
                let cut = self.sol.play_levels(PLAY_POINTS);
                self.sol.turn_table_within(k, a, b, 0, cut)
            }
            _ => self.sol.table(kind),
        });
        let size = t.bytes();
        let mut kept = lock();
        if kept.bytes + size > self.budget {
            *kept = Kept::default();
        }
        kept.bytes += size;
        kept.tables.insert(kind, t.clone());
        t
    }

    /// The bytes of the turn tables kept now.
    #[cfg(test)]
    fn kept_bytes(&self) -> usize {
        self.kept.lock().map(|k| k.bytes).unwrap_or(0)
    }
}

/// Play one turn by the win-optimal policy: the set-aside of highest win probability, and
/// bank where banking is worth at least rolling on.
pub fn play_turn_win(m: &Model, w: &WinPlay, kind: TurnKind, rng: &mut Rng) -> TurnOutcome {
    let t = w.table(kind);
    play_table(m, &w.sol, &t, &|| Arc::new(w.sol.table(kind)), rng)
}

/// Turn points (in points) below which a win-seeking seat plays from a table cut a little
/// beyond them (`WinSolution::play_levels`); a turn that gets there is played on from the
/// whole table. The states below are valued as the whole table values them but for the
/// chance of getting past the cut, so only near-ties of a decision can differ.
pub const PLAY_POINTS: u32 = 6000;

/// Play one turn by the table `t` (`whole`: the table not cut, built when a turn gets near
/// the cut): the set-aside of highest value, and bank where banking is worth at least rolling
/// on.
pub fn play_table(
    m: &Model,
    sol: &WinSolution,
    t: &Arc<TurnTable>,
    whole: &dyn Fn() -> Arc<TurnTable>,
    rng: &mut Rng,
) -> TurnOutcome {
    let forced = m.rules.hot_dice_forced();
    let mut out = TurnOutcome::default();
    let (mut p, mut h) = (0usize, 0usize);
    let mut t = t.clone();
    loop {
        let Some(i) = roll_dice(m, h, rng, &mut out) else {
            return out;
        };
        if sol.beyond_cut(&t, p) {
            t = whole();
        }
        let opts = &m.opts[h][i];
        let Some(o) = table_pick(&t, p, opts, forced) else {
            out.farkle = true;
            return out;
        };
        p += o.gain as usize;
        h = o.to as usize;
        if o.hot && forced {
            continue;
        }
        if sol.banks(&t, p, h) {
            out.points = (p as u32 + m.holds[h].pts) * m.unit;
            return out;
        }
    }
}

/// The set-aside a win table `t` takes from level `p` among `opts` (None: a farkle): the one
/// of highest value, ties as `Opt::tie_key` orders them.
pub fn table_pick<'o>(
    t: &TurnTable,
    p: usize,
    opts: &'o [super::model::Opt],
    forced: bool,
) -> Option<&'o super::model::Opt> {
    opts.iter().max_by(|x, y| {
        let by_value = t.after(p, x, forced).total_cmp(&t.after(p, y, forced));
        by_value.then(x.tie_key(forced).cmp(&y.tie_key(forced)))
    })
}

/// Whether `pl` banks in state (p, h) of its turn (where banking is allowed), the game
/// standing as `view` (the end-game rule reads it).
pub fn strategy_banks(
    m: &Model,
    pl: &SolvedStrategy,
    t: &ValueTable,
    (p, h): (usize, usize),
    view: Option<GameView>,
) -> bool {
    let pol: &Policy = &pl.solution.policy;
    let bank = t.banks(m, pol, p, h);
    let (true, Some(v), BankRule::Thresholds(th)) = (pl.strategy.endgame, view, &pol.bank) else {
        return bank;
    };
    let tp = (p as u32 + m.holds[h].pts) * m.unit;
    let total = v.bank + tp as i64;
    let target = m.rules.target as i64;
    if v.last_turn {
        total > v.leader
    } else if total >= target {
        true
    } else if v.leader - v.bank > target / 10 {
        // `endgame:T` has the one threshold T whatever the dice left.
        tp as u64 * 2 >= th[0] as u64 * 3
    } else {
        bank
    }
}

/// A seat of the small exact game (`win::multi`) played as `sim` plays it.
pub struct SeatPlay<'a> {
    model: &'a Model,
    sol: &'a WinSolution,
    seat: &'a SolvedStrategy,
    /// The last-turn tables built so far, by the units behind the leader.
    last: Mutex<HashMap<usize, Arc<TurnTable>>>,
}

/// A single-turn strategy's choices at one position.
struct StrategyChoice<'a> {
    m: &'a Model,
    pl: &'a SolvedStrategy,
    view: GameView,
}

impl TurnChoice for StrategyChoice<'_> {
    fn pick(&self, p: usize, ks: &[u32]) -> u32 {
        let t = &self.pl.solution.tables[0];
        let hs = self.m.holds.len();
        // `ValueTable::choose` under the best keep rule: ties to the largest offset.
        best_of(ks, |k| t.after(self.m, p, &offset_opt(k, hs)))
    }
    fn banks(&self, p: usize, h: usize) -> bool {
        let t = &self.pl.solution.tables[0];
        strategy_banks(self.m, self.pl, t, (p, h), Some(self.view))
    }
}

impl<'a> SeatPlay<'a> {
    /// The seat `seat` plays (a win-seeking one from `sol`, solved for `model`'s rules and
    /// target).
    pub fn new(model: &'a Model, sol: &'a WinSolution, seat: &'a SolvedStrategy) -> Self {
        SeatPlay {
            model,
            sol,
            seat,
            last: Mutex::new(HashMap::new()),
        }
    }

    /// The seat's choices at seat `seat` (the round starting at seat 0), the game standing
    /// as `view` with the scores `total` (points).
    fn choice(&self, seat: usize, view: GameView, total: &[i64]) -> Box<dyn TurnChoice + '_> {
        let st = &self.seat.strategy;
        if !st.win {
            return Box::new(StrategyChoice {
                m: self.model,
                pl: self.seat,
                view,
            });
        }
        let sol = self.sol;
        let at = (seat, seat);
        let table = match win_seat_table(sol, self.model.unit, st.multi, at, view, 0, total) {
            SeatTable::Kind(TurnKind::Last { d }) => {
                let lock = || self.last.lock().unwrap_or_else(|e| e.into_inner());
                let t = lock().get(&d).cloned();
                t.unwrap_or_else(|| {
                    let t = Arc::new(sol.last_turn_table(d));
                    lock().insert(d, t.clone());
                    t
                })
            }
            SeatTable::Kind(kind) => Arc::new(sol.table(kind)),
            SeatTable::Field { a, opps } => Arc::new(sol.field_turn_table(a, &opps, usize::MAX)),
        };
        Box::new(TableChoice { sol, table })
    }
}

impl SeatGuide for SeatPlay<'_> {
    fn turn(&self, seat: usize, scores: &[usize]) -> Box<dyn TurnChoice + '_> {
        let unit = self.model.unit as i64;
        let total: Vec<i64> = scores.iter().map(|&x| x as i64 * unit).collect();
        let leader = (0..total.len())
            .filter(|&j| j != seat)
            .map(|j| total[j])
            .max();
        let view = GameView {
            bank: total[seat],
            leader: leader.unwrap_or(0),
            last_turn: false,
        };
        self.choice(seat, view, &total)
    }
    fn last_turn(&self, seat: usize, d: usize) -> Box<dyn TurnChoice + '_> {
        let view = GameView {
            bank: 0,
            leader: (d as u32 * self.model.unit) as i64,
            last_turn: true,
        };
        self.choice(seat, view, &[])
    }
    fn past(&self) -> Box<dyn TurnChoice + '_> {
        if self.seat.strategy.win {
            // Every bank there is worth 1 in the seat's table, or within the cap's bound of
            // it (a field's table may follow a first seat's turn to the cap past a seat that
            // has moved): it banks at the first chance, the set-aside it may bank after first.
            return Box::new(Won);
        }
        // A single-turn strategy's choices depend on the turn's points alone, `endgame:T`'s
        // banks on the game too: it banks once the target is reached, and on a last turn
        // once ahead, as it is everywhere its turn has won.
        let target = self.model.rules.target as i64;
        let view = GameView {
            bank: target,
            leader: 0,
            last_turn: false,
        };
        Box::new(StrategyChoice {
            m: self.model,
            pl: self.seat,
            view,
        })
    }
}

sums! {
    /// Sums over turns of one seat.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct TurnAcc {
        /// Turn score (after any farkle penalty) per turn.
        pub score: Ratio => ratio("turn scores", PLAUSIBLE_MAX, 1, true),
        /// The chunk's open batch of turn scores and its turns (`close` empties them at the
        /// end of every chunk).
        pub batch: Batch => related,
        pub batch_n: u64 => related,
        pub farkles: u64 => related,
        pub dooms: u64 => related,
        pub penalties: u64 => related,
        pub rolls: u64 => at_most(
            t.score.n.saturating_mul(PLAUSIBLE_ROLLS),
            format!("rolls {} turns can have", t.score.n),
        ),
        /// Turn scores in bins of `HIST_BIN` points (key: the score divided by `HIST_BIN`,
        /// rounded down).
        pub hist: Histogram => sums,
    }
    bounds(t)
    relations(TurnAcc::relations)
}

impl Default for TurnAcc {
    fn default() -> Self {
        TurnAcc {
            score: Ratio::default(),
            batch: Batch::default(),
            batch_n: 0,
            farkles: 0,
            dooms: 0,
            penalties: 0,
            rolls: 0,
            hist: Histogram::spanning(
                HIST_MIN / HIST_BIN,
                HIST_MIN / HIST_BIN + HIST_BINS as i64 - 1,
            ),
        }
    }
}

impl TurnAcc {
    fn add(&mut self, o: &TurnOutcome, score: i64, penalty: bool) {
        self.batch.add(score, 1);
        self.batch_n += 1;
        self.farkles += o.farkle as u64;
        self.dooms += o.doom as u64;
        self.penalties += penalty as u64;
        self.rolls += o.rolls as u64;
        self.hist.add(score.div_euclid(HIST_BIN));
    }
    /// Close the chunk's batch.
    fn close(&mut self) {
        self.score.close(&self.batch, self.batch_n);
        self.batch = Batch::default();
        self.batch_n = 0;
    }
    pub fn turns(&self) -> u64 {
        self.score.n
    }
}

/// Bound of any one turn's score or game's total in the plausibility checks of shard files
/// (far above any real one, far below what an edited sum would need to hide).
const PLAUSIBLE_MAX: i128 = 100_000_000;

impl TurnAcc {
    /// Every turn is in the histogram and has at most one farkle, doom and penalty; no batch
    /// is open between chunks.
    fn relations(&self) -> Result<(), String> {
        let what = "turn scores";
        let n = self.score.n;
        let in_hist: u64 = self.hist.total();
        if in_hist != n || self.farkles > n || self.dooms > n || self.penalties > n {
            return Err(format!(
                "{what}: {n} turns, but {in_hist} in the histogram, {} farkles, {} dooms, {} penalties",
                self.farkles, self.dooms, self.penalties
            ));
        }
        if self.batch_n != 0 || self.batch != Batch::default() {
            return Err(format!(
                "{what}: a batch of {} turns left open (every chunk closes its batch)",
                self.batch_n
            ));
        }
        Ok(())
    }

    /// These sums as those of seat `seat` (0-based): the messages name it ("seat 2 rolls =
    /// ...").
    fn plausible_as_seat(&self, seat: usize) -> Result<(), String> {
        crate::shard::Plausible::plausible(self).map_err(|e| format!("seat {} {e}", seat + 1))
    }
}

/// Bound of the rolls of one turn in the plausibility checks: a turn ends at its first
/// farkle if not banked before, and every roll farkles with a chance of 2.3% at least (six
/// dice), so a turn of this many rolls has a chance below e^-230.
const PLAUSIBLE_ROLLS: u64 = 10_000;

/// Wins are counted in 1/840ths (840 = lcm(1..8)) so shared wins stay integers.
pub const WIN_UNIT: i64 = 840;

sums! {
    /// Sums over games.
    #[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct GameAcc {
        pub turns: Vec<TurnAcc> =>
            check(g.turns.iter().enumerate().try_for_each(|(s, t)| t.plausible_as_seat(s))),
        /// Per seat: win units over games (y = WIN_UNIT per game).
        pub wins: Vec<Ratio> => ratios(|s| format!("seat {} wins", s + 1), w, w, true),
        /// Per position in the turn order (0 = starts): win units.
        pub wins_by_position: Vec<i64> => related,
        /// Per seat: final totals.
        pub final_score: Vec<Ratio> =>
            ratios(|s| format!("seat {} final scores", s + 1), PLAUSIBLE_MAX, 1, true),
        /// Per seat: final totals in bins of a twentieth of the target ([`final_key`]).
        pub final_hist: Vec<Histogram> => each,
        /// Turns per game (all seats).
        pub game_turns: Ratio => ratio("turns per game", PLAUSIBLE_MAX, 1, true),
        pub games: u64 => related,
        /// Games stopped at the round limit without anyone reaching the target, and the games of
        /// the chunk after such a game (not played: the run is no result, see `game::Doom`).
        pub unfinished: u64 => related,
    }
    bounds(g) {
        let w = WIN_UNIT as i128;
    }
    relations(GameAcc::relations)
}

impl GameAcc {
    /// These sums, or zero sums for `seats` seats when no chunk completed (the identity has
    /// no seats), so that the report of a run stopped before its first chunk has every seat.
    pub fn with_seats(&self, seats: usize, mode: Mode) -> std::borrow::Cow<'_, GameAcc> {
        if self.turns.len() >= seats {
            return std::borrow::Cow::Borrowed(self);
        }
        std::borrow::Cow::Owned(GameAcc::zero(seats, mode))
    }

    /// Zero sums for `seats` seats: turn sums, and in games the per-seat game sums.
    fn zero(seats: usize, mode: Mode) -> GameAcc {
        let mut acc = GameAcc {
            turns: vec![TurnAcc::default(); seats],
            ..GameAcc::default()
        };
        if let Mode::Games(_) = mode {
            acc.wins = vec![Ratio::default(); seats];
            acc.wins_by_position = vec![0; seats];
            acc.final_score = vec![Ratio::default(); seats];
            acc.final_hist = vec![Histogram::spanning(0, FINAL_BINS as i64); seats];
        }
        acc
    }
}

impl GameAcc {
    /// Games to the target: every seat's wins over every game given, every seat's final
    /// total counted once per finished game, at most one turn per seat and round, the wins by
    /// position shares of the games' wins.
    fn relations(&self) -> Result<(), String> {
        for (s, r) in self.wins.iter().enumerate() {
            // Batches close over every game a chunk was given, finished or abandoned.
            if r.n != self.games + self.unfinished {
                return Err(format!(
                    "seat {} has {} games of {}",
                    s + 1,
                    r.n,
                    self.games + self.unfinished
                ));
            }
        }
        if self.wins.is_empty() {
            return Ok(());
        }
        use crate::shard::at_most;
        let played = self.games.saturating_add(self.unfinished);
        at_most("game_turns.n", self.game_turns.n, played, "games")?;
        for (s, h) in self.final_hist.iter().enumerate() {
            let counted = h.total();
            if counted != self.games {
                return Err(format!(
                    "seat {} final scores histogram counts {counted} games of {}",
                    s + 1,
                    self.games
                ));
            }
        }
        let rounds = played.saturating_mul(MAX_ROUNDS);
        for (s, t) in self.turns.iter().enumerate() {
            let of = format!("turns {played} games of at most {MAX_ROUNDS} rounds can have");
            at_most(&format!("seat {} turns", s + 1), t.score.n, rounds, &of)?;
        }
        let wins = self.games.saturating_mul(WIN_UNIT as u64);
        let of = format!("win units of {} games", self.games);
        let mut all = 0u64;
        for (p, &w) in self.wins_by_position.iter().enumerate() {
            let w =
                u64::try_from(w).map_err(|_| format!("wins_by_position[{p}] = {w} is negative"))?;
            all = all.saturating_add(w);
        }
        at_most("wins_by_position (all positions)", all, wins, &of)
    }
}

pub const FINAL_BINS: usize = 40;
/// Rounds after which a game is abandoned (a table where no one can reach the target). Such a
/// game has no winner: `game::Doom` refuses targets the seats cannot reach well within it
/// and reports a run with an abandoned game as an error, not as results.
pub const MAX_ROUNDS: u64 = 100_000;

/// What to simulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Turns(u64),
    Games(u64),
}

pub struct DoomSim {
    pub model: Arc<Model>,
    pub players: Vec<Arc<SolvedStrategy>>,
    /// The solved two-player game, when a seat plays `win-optimal`.
    pub win: Option<Arc<WinPlay>>,
    pub mode: Mode,
    /// Seat (0-based) that starts every game, or `None`: game g starts at seat g mod seats
    /// (the fair way to compare strategies).
    pub start_seat: Option<usize>,
    pub per_chunk: u64,
}

/// The turn a win-optimal seat plays, from the game as it stands: on the last turn, how
/// many units it trails the leader by; otherwise which seat of the round it is (when the
/// round is finished after the target is reached, the second seat's table differs), its score
/// and the leader's, in units of `unit` points.
fn win_turn_kind(unit: u32, finish_round: bool, pos: usize, view: GameView) -> TurnKind {
    let unit = unit as i64;
    if view.last_turn {
        TurnKind::Last {
            d: ((view.leader - view.bank) / unit) as usize,
        }
    } else {
        TurnKind::Game {
            k: if finish_round { pos } else { 0 },
            a: (view.bank / unit) as usize,
            b: (view.leader / unit) as usize,
        }
    }
}

/// The two-player view of a game of several for a win-seeking seat at `s` (its position in
/// the round `pos`): each opponent as `(k, b)`, the seat's own two-player seat against it (0:
/// the opponent moves after it in this round, under finish-round) and its score in units.
fn opponents(
    unit: u32,
    finish_round: bool,
    s: usize,
    start: usize,
    total: &[i64],
) -> Vec<(usize, usize)> {
    let seats = total.len();
    let order = crate::game::Rotation { start, seats };
    let pos = |j: usize| order.position(j);
    (0..seats)
        .filter(|&j| j != s)
        .map(|j| {
            let k = if finish_round && pos(j) < pos(s) {
                1
            } else {
                0
            };
            (k, (total[j].max(0) / unit as i64) as usize)
        })
        .collect()
}

/// The turn a `win-leader` seat plays: the two-player game against the opponent against
/// whom its two-player chance of winning is lowest (on the last turn, against the leader).
fn leader_kind(sol: &WinSolution, a: usize, opps: &[(usize, usize)]) -> TurnKind {
    let tu = sol.tu;
    let (k, b) = opps
        .iter()
        .copied()
        .min_by(|x, y| sol.w[x.0][a * tu + x.1].total_cmp(&sol.w[y.0][a * tu + y.1]))
        .unwrap_or((0, 0));
    TurnKind::Game { k, a, b }
}

/// The table a win-seeking seat plays its turn from.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatTable {
    /// A two-player table (`win-optimal`, `win-leader`, every last turn).
    Kind(TurnKind),
    /// A field's table at score `a` against the opponents `opps` (`win-field`; see
    /// [`WinSolution::field_turn_table`]).
    Field { a: usize, opps: Vec<(usize, usize)> },
}

/// The table a win-seeking seat `s` (`multi`: how it plays a game of several; at position
/// `pos` of a round that began at seat `start`) plays its turn from, the scores standing at
/// `total` (points). On the last turn every such seat plays the two-player last turn against
/// the leader.
pub fn win_seat_table(
    sol: &WinSolution,
    unit: u32,
    multi: Option<Multi>,
    (pos, s): (usize, usize),
    view: GameView,
    start: usize,
    total: &[i64],
) -> SeatTable {
    if view.last_turn || multi.is_none() {
        return SeatTable::Kind(win_turn_kind(unit, sol.finish_round, pos, view));
    }
    let opps = opponents(unit, sol.finish_round, s, start, total);
    let a = (total[s] / unit as i64) as usize;
    match multi {
        Some(Multi::Field) => SeatTable::Field { a, opps },
        _ => SeatTable::Kind(leader_kind(sol, a, &opps)),
    }
}

impl DoomSim {
    pub fn chunks(&self) -> u64 {
        let n = match self.mode {
            Mode::Turns(n) | Mode::Games(n) => n,
        };
        crate::game::chunk_count(n, self.per_chunk)
    }

    fn count_in(&self, chunk: u64) -> u64 {
        let n = match self.mode {
            Mode::Turns(n) | Mode::Games(n) => n,
        };
        self.per_chunk.min(n.saturating_sub(chunk * self.per_chunk))
    }

    /// Play one game; false if it was abandoned at `MAX_ROUNDS` (its turns recorded, nothing
    /// else: `run_chunk` counts it unfinished).
    fn play_game(
        &self,
        game: u64,
        rng: &mut Rng,
        acc: &mut GameAcc,
        batches: &mut [Batch],
    ) -> bool {
        let m = &*self.model;
        let seats = self.players.len();
        let order = crate::game::Rotation::of_game(self.start_seat, game, seats);
        let start = order.start;
        let target = m.rules.target as i64;
        let mut total = vec![0i64; seats];
        let mut streak = vec![0usize; seats];
        let mut turns = 0u64;
        // Someone reached the target (the rest of the round then plays its last turns).
        let mut finished = false;
        let mut rounds = 0u64;
        'game: while rounds < MAX_ROUNDS {
            rounds += 1;
            for pos in 0..seats {
                let s = order.seat(pos);
                let last_turn = finished;
                let leader = (0..seats)
                    .filter(|&j| j != s)
                    .map(|j| total[j])
                    .max()
                    .unwrap_or(0);
                let view = GameView {
                    bank: total[s],
                    leader,
                    last_turn,
                };
                let o = self.seat_turn((pos, s), view, start, &total, streak[s], rng);
                turns += 1;
                let (score, penalty) = turn_score(&m.rules, &o, &mut streak[s]);
                if o.doom && m.rules.doom_wipes == DoomWipes::Bank {
                    total[s] = 0;
                }
                total[s] += score;
                acc.turns[s].add(&o, score, penalty);
                if !finished && total[s] >= target {
                    finished = true;
                    if m.rules.end == EndRule::Immediate {
                        break 'game;
                    }
                }
            }
            if finished {
                break;
            }
        }
        if finished {
            self.record_game(&order, &total, turns, acc, batches);
        }
        finished
    }

    /// Seat `s` (at position `pos` in the turn order) plays a turn its way: from the
    /// two-player table, against the leading opponent or the field, or alone.
    pub(crate) fn seat_turn(
        &self,
        (pos, s): (usize, usize),
        view: GameView,
        start: usize,
        total: &[i64],
        streak: usize,
        rng: &mut Rng,
    ) -> TurnOutcome {
        let m = &*self.model;
        let pl = &self.players[s];
        match &self.win {
            Some(w) if pl.strategy.win => {
                match win_seat_table(
                    &w.sol,
                    m.unit,
                    pl.strategy.multi,
                    (pos, s),
                    view,
                    start,
                    total,
                ) {
                    SeatTable::Kind(kind) => play_turn_win(m, w, kind, rng),
                    SeatTable::Field { a, opps } => {
                        let cut = w.sol.play_levels(PLAY_POINTS);
                        let t = Arc::new(w.sol.field_turn_table(a, &opps, cut));
                        let whole = || Arc::new(w.sol.field_turn_table(a, &opps, usize::MAX));
                        play_table(m, &w.sol, &t, &whole, rng)
                    }
                }
            }
            _ => play_turn(m, pl, streak, Some(view), rng),
        }
    }

    /// A finished game's sums: the winner(s), the final totals, the turns it took.
    fn record_game(
        &self,
        order: &crate::game::Rotation,
        total: &[i64],
        turns: u64,
        acc: &mut GameAcc,
        batches: &mut [Batch],
    ) {
        let seats = total.len();
        let target = self.model.rules.target as i64;
        // Winner(s): the highest total, ties shared. With the immediate rule that is the
        // first to reach the target: every other total is still below it.
        let best = *total.iter().max().unwrap_or(&0);
        let winners: Vec<usize> = (0..seats).filter(|&j| total[j] == best).collect();
        let share = WIN_UNIT / winners.len() as i64;
        for s in 0..seats {
            let w = if winners.contains(&s) { share } else { 0 };
            batches[s].add(w, WIN_UNIT);
            let pos = order.position(s);
            acc.wins_by_position[pos] += w;
            batches[seats + s].add(total[s], 1);
            acc.final_hist[s].add(final_key(total[s], target));
        }
        batches[2 * seats].add(turns as i64, 1);
        acc.games += 1;
    }
}

/// A turn's score and whether it is the farkle penalty: its points, or after the rules' run
/// of farkles (`streak`, the seat's farkles and dooms in a row, counted here) minus the
/// penalty, the run starting again.
fn turn_score(rules: &DoomRules, o: &TurnOutcome, streak: &mut usize) -> (i64, bool) {
    if !(o.farkle || o.doom) {
        *streak = 0;
        return (o.points as i64, false);
    }
    *streak += 1;
    match rules.farkle_penalty {
        Some((k, pen)) if *streak >= k as usize => {
            *streak = 0;
            (-(pen as i64), true)
        }
        _ => (o.points as i64, false),
    }
}

/// The key of a final total in `GameAcc::final_hist`: bins of a twentieth of the target (so
/// that twice the target is key `FINAL_BINS`), rounded down. Reports count a negative total
/// in the first bin and twice the target or more in the last.
pub fn final_key(total: i64, target: i64) -> i64 {
    (total * (FINAL_BINS as i64 / 2)).div_euclid(target.max(1))
}

/// A seat's final totals as reports show them: `FINAL_BINS + 1` bins from 0, a negative
/// total counted in the first, twice the target or more in the last.
pub fn final_counts(h: &Histogram) -> Vec<u64> {
    h.clamped(0, FINAL_BINS as i64)
}

/// Turn scores as reports show them: `HIST_BINS` bins of `HIST_BIN` points from `HIST_MIN`,
/// and what lies below and above them.
pub fn turn_bins(h: &Histogram) -> Window {
    let lo = HIST_MIN / HIST_BIN;
    h.window(lo, lo + HIST_BINS as i64 - 1)
}

impl Simulation for DoomSim {
    type Acc = GameAcc;

    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut GameAcc) {
        let seats = self.players.len();
        let count = self.count_in(chunk);
        *acc = GameAcc::zero(seats, self.mode);
        match self.mode {
            Mode::Turns(_) => {
                let m = &*self.model;
                let pl = &self.players[0];
                let mut streak = 0usize;
                for _ in 0..count {
                    let o = play_turn(m, pl, streak, None, rng);
                    let (score, penalty) = turn_score(&m.rules, &o, &mut streak);
                    acc.turns[0].add(&o, score, penalty);
                }
                acc.turns[0].close();
            }
            Mode::Games(_) => {
                let mut batches = vec![Batch::default(); 2 * seats + 1];
                for i in 0..count {
                    if !self.play_game(chunk * self.per_chunk + i, rng, acc, &mut batches) {
                        // The run is no result any more: skip the chunk's other games
                        // (each abandoned game costs MAX_ROUNDS rounds).
                        break;
                    }
                }
                // The abandoned game and those skipped after it.
                acc.unfinished = count - acc.games;
                for s in 0..seats {
                    acc.wins[s].close(&batches[s], count);
                    acc.final_score[s].close(&batches[seats + s], count);
                    acc.turns[s].close();
                }
                acc.game_turns.close(&batches[2 * seats], count);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::{DoomPreset, DoomRules};
    use super::*;
    use crate::engine::{run, Merge, RunOptions};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_single_turn_seat_chooses_in_the_exact_game_as_it_plays() {
        // The exact game of three reads a strategy's set-asides by their offsets; play reads
        // `ValueTable::choose`: the same set-aside, ties included.
        let m = Model::new(&DoomRules::preset(DoomPreset::Seed));
        let forced = m.rules.hot_dice_forced();
        let hs = m.holds.len();
        for spec in ["optimal", "bank-at:300"] {
            let pl = SolvedStrategy::new(&m, DoomStrategy::parse(spec).unwrap());
            let t = &pl.solution.tables[0];
            let c = StrategyChoice {
                m: &m,
                pl: &pl,
                view: GameView {
                    bank: 0,
                    leader: 0,
                    last_turn: false,
                },
            };
            for h in 0..hs {
                for (i, opts) in m.opts[h].iter().enumerate() {
                    let n = 6 - m.holds[h].dice as usize;
                    if m.rolls[n][i].doom || opts.is_empty() {
                        continue;
                    }
                    let code =
                        |o: &super::super::model::Opt| super::super::win::offset(hs, o, forced);
                    let ks = super::super::win::offsets(hs, opts, forced);
                    for p in [0, 3, 8, 30] {
                        let played = t.choose(&m, pl.solution.policy.keep, p, opts).unwrap();
                        assert_eq!(code(&opts[played]), c.pick(p, &ks), "{spec} {h} {i} {p}");
                    }
                }
            }
        }
    }

    /// Turn scores land in bins of 50 points from −1000 (index 1) to 11,000 (index 240),
    /// below and above them the underflow (index 0) and overflow (index 241) of the reports: a turn's
    /// negative score (a farkle penalty such as three farkles in a row costing 500) lands in
    /// a bin of its own, a zero in its own.
    #[test]
    fn turn_scores_land_in_their_histogram_bins() {
        for (score, bin) in [
            (-1001, 0),
            (-1000, 1),
            (-951, 1),
            (-950, 2),
            (-500, 11),
            (-1, 20),
            (0, 21),
            (49, 21),
            (50, 22),
            (450, 30),
            (10_999, 240),
            (11_000, 241),
        ] {
            let mut t = TurnAcc::default();
            t.add(&TurnOutcome::default(), score, false);
            let w = turn_bins(&t.hist);
            let all: Vec<u64> = [vec![w.below], w.bins, vec![w.above]].concat();
            let at: Vec<usize> = (0..all.len()).filter(|&i| all[i] == 1).collect();
            assert_eq!(at, [bin], "score {score}");
            assert_eq!(all.len(), HIST_BINS + 2);
        }
    }

    fn sim(preset: DoomPreset, spec: &str, mode: Mode, seats: usize) -> (DoomSim, f64) {
        let model = Arc::new(Model::new(&DoomRules::preset(preset)));
        let pl = Arc::new(SolvedStrategy::new(
            &model,
            DoomStrategy::parse(spec).unwrap(),
        ));
        let ev = pl.solution.turn_ev;
        let per_chunk = match mode {
            Mode::Turns(_) => 20_000,
            Mode::Games(_) => 50,
        };
        (
            DoomSim {
                win: None,
                model,
                players: vec![pl; seats],
                mode,
                start_seat: None,
                per_chunk,
            },
            ev,
        )
    }

    fn go(s: &DoomSim, threads: usize) -> GameAcc {
        let opts = RunOptions {
            seed: 7,
            chunks: 0..s.chunks(),
            threads: Some(threads),
            progress: false,
            label: String::new(),
        };
        run(s, &opts, &AtomicBool::new(false)).unwrap().acc
    }

    #[test]
    fn simulated_turns_agree_with_the_exact_turn_ev() {
        for (preset, spec) in [
            (DoomPreset::Seed, "optimal"),
            (DoomPreset::Seed, "bank-at:300"),
            (DoomPreset::S2Common, "optimal"),
            (DoomPreset::S2Common, "bank-at:400+keep-all"),
            (DoomPreset::Zilch, "optimal"),
        ] {
            let (s, ev) = sim(preset, spec, Mode::Turns(400_000), 1);
            let a = go(&s, 2);
            let (mean, se) = (a.turns[0].score.mean(), a.turns[0].score.se());
            let z = (mean - ev) / se;
            assert!(
                z.abs() < 4.0,
                "{preset:?} {spec}: sim {mean} ± {se} vs exact {ev} (z = {z:.2})"
            );
        }
    }

    /// The endgame rule (`endgame:450`, at the seed table's target of 100,000): on the last
    /// turn it banks only what passes the leader; it banks as soon as the bank plus the turn
    /// reaches the target; more than a tenth of the target behind the leader it banks from
    /// 1.5 × its threshold (675); otherwise it keeps the threshold of 450.
    #[test]
    fn the_endgame_rule_banks_by_the_game_state() {
        let (s, _) = sim(DoomPreset::Seed, "endgame:450", Mode::Turns(1), 1);
        // The points of the turns banked (farkles and dooms left out), 3,000 turns.
        let banked = |bank: i64, leader: i64, last_turn: bool| -> Vec<u32> {
            let mut rng = crate::rng::chunk_rng(9, 0);
            let view = GameView {
                bank,
                leader,
                last_turn,
            };
            (0..3000)
                .map(|_| play_turn(&s.model, &s.players[0], 0, Some(view), &mut rng).points)
                .filter(|&p| p > 0)
                .collect()
        };
        let some = |v: &[u32], r: std::ops::Range<u32>| v.iter().any(|p| r.contains(p));
        // Near the target: banks from 100 (reaching 100,000), never below.
        let a = banked(99_900, 99_900, false);
        assert!(some(&a, 100..450) && !some(&a, 1..100));
        // Far from it, level with the leader: the threshold.
        for bank in [1_000, 20_000] {
            let b = banked(bank, bank, false);
            assert!(!some(&b, 1..450) && some(&b, 450..675), "bank {bank}");
        }
        // Behind by more than a tenth of the target: from 675; by exactly a tenth: 450.
        let c = banked(0, 50_000, false);
        assert!(!some(&c, 1..675) && some(&c, 675..1000));
        let e = banked(0, 10_000, false);
        assert!(!some(&e, 1..450) && some(&e, 450..675));
        // The last turn: only what passes the leader (4,000 + more than 500).
        let d = banked(4_000, 4_500, true);
        assert!(!some(&d, 1..501) && some(&d, 501..700));
    }

    /// The turn tables a win-seeking seat keeps stay within their budget, whatever the
    /// positions played, and a table read back is the one built afresh.
    #[test]
    fn the_turn_tables_kept_stay_within_their_budget() {
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = 500;
        let m = Model::new(&r);
        let sol = WinSolution::solve(&m).unwrap();
        let one = sol.turn_table_within(0, 0, 0, 0, sol.play_levels(PLAY_POINTS));
        let budget = 3 * one.bytes();
        let w = WinPlay::keeping(sol, budget);
        for round in 0..2 {
            for a in 0..w.sol.tu {
                for b in 0..w.sol.tu {
                    let kind = TurnKind::Game { k: round, a, b };
                    let t = w.table(kind);
                    assert!(w.kept_bytes() <= budget);
                    let again = w.table(kind);
                    let fresh =
                        w.sol
                            .turn_table_within(round, a, b, 0, w.sol.play_levels(PLAY_POINTS));
                    for p in 0..fresh.levels {
                        assert_eq!(again.value(p, 0).to_bits(), fresh.value(p, 0).to_bits());
                        assert_eq!(t.value(p, 0).to_bits(), fresh.value(p, 0).to_bits());
                    }
                }
            }
        }
    }

    /// Hot dice in win-optimal play, on the last turn where any points win (so banking at
    /// once is best wherever it is allowed): with forced hot dice (the seed rules) a first
    /// throw whose every scoring set-aside takes all six dice is rolled on, never banked; with
    /// optional hot dice the same throws are banked at once. The first throw is replayed from
    /// a copy of the stream.
    #[test]
    fn win_optimal_rolls_on_after_hot_dice_only_when_forced() {
        for forced in [true, false] {
            let mut r = DoomRules::preset(DoomPreset::Seed);
            r.target = 500;
            if !forced {
                r.hot_dice = super::super::rules::HotDice::Optional;
            }
            let m = Model::new(&r);
            assert_eq!(m.rules.hot_dice_forced(), forced);
            let w = WinPlay::new(WinSolution::solve(&m).unwrap());
            let mut rng = crate::rng::chunk_rng(3, 0);
            let (mut all_hot, mut one_roll) = (0, 0);
            for _ in 0..50_000 {
                let mut probe = rng.clone();
                let first = roll_dice(&m, 0, &mut probe, &mut TurnOutcome::default());
                let o = play_turn_win(&m, &w, TurnKind::Last { d: 0 }, &mut rng);
                let Some(i) = first else { continue };
                let opts = &m.opts[0][i];
                if opts.is_empty() {
                    continue;
                }
                if opts.iter().all(|x| x.hot) {
                    all_hot += 1;
                    if forced {
                        assert!(o.rolls >= 2, "banked on hot dice: {o:?}");
                    } else {
                        assert!(o.rolls == 1 && o.points > 0, "rolled on: {o:?}");
                    }
                } else {
                    // A set-aside that leaves dice: banked at once, either way.
                    assert!(o.rolls == 1 && o.points > 0, "{o:?}");
                    one_roll += 1;
                }
            }
            // About 0.2% of first throws have only six-dice set-asides (three pairs without a 1 or 5).
            assert!(all_hot > 50 && one_roll > 30_000, "{all_hot} {one_roll}");
        }
    }

    /// A seat's turn sums: every turn's farkle, doom, penalty and rolls counted, and its score
    /// in the batch (sum, count, squares).
    #[test]
    fn turn_sums_count_every_turn() {
        let mut t = TurnAcc::default();
        let o = |points, farkle, doom, rolls| TurnOutcome {
            points,
            farkle,
            doom,
            rolls,
        };
        t.add(&o(0, true, false, 3), -500, true);
        t.add(&o(0, false, true, 2), 0, false);
        t.add(&o(0, true, false, 1), 0, false);
        t.add(&o(450, false, false, 4), 450, false);
        assert_eq!((t.farkles, t.dooms, t.penalties, t.rolls), (2, 1, 1, 10));
        assert_eq!(t.batch_n, 4);
        assert_eq!(
            (t.batch.x, t.batch.y, t.batch.xx),
            (-50, 4, 500 * 500 + 450 * 450)
        );
    }

    /// Two chunks' turn sums merge field by field, and the plausibility check of a shard file
    /// refuses sums that do not fit together (more farkles, dooms or penalties than turns, a
    /// histogram that does not hold every turn).
    #[test]
    fn turn_sums_merge_and_edited_ones_are_refused() {
        let o = |farkle, doom, rolls| TurnOutcome {
            points: 0,
            farkle,
            doom,
            rolls,
        };
        let mut a = TurnAcc::default();
        a.add(&o(true, false, 3), -500, true);
        a.add(&o(false, false, 2), 300, false);
        a.close();
        let mut b = TurnAcc::default();
        b.add(&o(false, true, 4), 0, true);
        b.close();
        let mut m = a.clone();
        m.merge(&b);
        assert_eq!((m.farkles, m.dooms, m.penalties, m.rolls), (1, 1, 2, 9));
        assert_eq!(m.turns(), 3);
        let bins = |t: &TurnAcc| t.hist.bins().collect::<Vec<_>>();
        assert_eq!(
            bins(&a),
            [
                (-10, 1),
                (-9, 0),
                (-8, 0),
                (-7, 0),
                (-6, 0),
                (-5, 0),
                (-4, 0),
                (-3, 0),
                (-2, 0),
                (-1, 0),
                (0, 0),
                (1, 0),
                (2, 0),
                (3, 0),
                (4, 0),
                (5, 0),
                (6, 1)
            ]
        );
        assert_eq!(bins(&b), [(0, 1)]);
        assert_eq!(
            m.hist.window(-10, 6).bins,
            [vec![1], vec![0; 9], vec![1], vec![0; 5], vec![1]].concat()
        );
        assert!(m.plausible_as_seat(0).is_ok());
        // Every turn a farkle, a doom or a penalty is possible (the bound is inclusive).
        let all: [fn(&mut TurnAcc); 3] = [|t| t.farkles = 3, |t| t.dooms = 3, |t| t.penalties = 3];
        for edit in all {
            let mut x = m.clone();
            edit(&mut x);
            assert!(x.plausible_as_seat(0).is_ok());
        }
        type Edit = fn(&mut TurnAcc);
        let edits: [(Edit, &str); 4] = [
            (|t| t.farkles = 4, "4 farkles"),
            (|t| t.dooms = 4, "4 dooms"),
            (|t| t.penalties = 4, "4 penalties"),
            (|t| t.hist.add(3), "4 in the histogram"),
        ];
        for (edit, says) in edits {
            let mut x = m.clone();
            edit(&mut x);
            let e = x.plausible_as_seat(1).unwrap_err();
            assert!(
                e.starts_with("seat 2 turn scores: 3 turns") && e.contains(says),
                "{e}"
            );
        }
    }

    /// A shard file's game sums are checked as a whole: each seat's turn sums, every seat's
    /// wins over the games played, and the games counted.
    #[test]
    fn game_sums_that_do_not_fit_together_are_refused() {
        use crate::shard::Plausible;
        let (s, _) = sim(DoomPreset::Seed, "bank-at:300", Mode::Games(100), 2);
        let g = go(&s, 1);
        assert!(g.plausible().is_ok());
        let mut x = g.clone();
        x.turns[1].farkles = x.turns[1].turns() + 1;
        let e = x.plausible().unwrap_err();
        assert!(e.starts_with("seat 2 turn scores"), "{e}");
        let mut x = g.clone();
        x.games += 1;
        assert_eq!(x.plausible().unwrap_err(), "seat 1 has 100 games of 101");
        // Counts beyond what the games allow, each named.
        let forged = |edit: &dyn Fn(&mut GameAcc)| {
            let mut x = g.clone();
            edit(&mut x);
            x.plausible().unwrap_err()
        };
        let turns = g.turns[0].turns();
        assert_eq!(
            forged(&|x| x.turns[0].rolls = turns * PLAUSIBLE_ROLLS + 1),
            format!(
                "seat 1 rolls = {} is more than the {} rolls {turns} turns can have",
                turns * PLAUSIBLE_ROLLS + 1,
                turns * PLAUSIBLE_ROLLS
            )
        );
        let e = forged(&|x| x.final_hist[1].add(3));
        assert_eq!(e, "seat 2 final scores histogram counts 101 games of 100");
        let e = forged(&|x| x.wins_by_position[0] += WIN_UNIT * 100);
        assert!(e.starts_with("wins_by_position (all positions) = "), "{e}");
        let e = forged(&|x| x.wins_by_position[1] = -1);
        assert_eq!(e, "wins_by_position[1] = -1 is negative");
        let e = forged(&|x| x.game_turns.n += 1);
        assert!(
            e.starts_with("turns per game") || e.starts_with("game_turns.n"),
            "{e}"
        );
    }

    /// Two runs' game sums merge field by field (the engine merges chunks in a fixed order,
    /// so a wrong merge would still agree across thread counts: the sums are checked here).
    #[test]
    fn game_sums_merge_field_by_field() {
        let (s, _) = sim(DoomPreset::Seed, "bank-at:300", Mode::Games(60), 2);
        let a = go(&s, 1);
        let (s2, _) = sim(DoomPreset::Seed, "bank-at:400", Mode::Games(40), 2);
        let b = go(&s2, 1);
        let mut m = a.clone();
        m.merge(&b);
        assert_eq!((m.games, m.unfinished), (100, a.unfinished + b.unfinished));
        let sum =
            |x: &[i64], y: &[i64]| -> Vec<i64> { x.iter().zip(y).map(|(p, q)| p + q).collect() };
        assert_eq!(
            m.wins_by_position,
            sum(&a.wins_by_position, &b.wins_by_position)
        );
        for seat in 0..2 {
            let (fa, fb) = (
                final_counts(&a.final_hist[seat]),
                final_counts(&b.final_hist[seat]),
            );
            let h: Vec<u64> = fa.iter().zip(&fb).map(|(p, q)| p + q).collect();
            assert_eq!(final_counts(&m.final_hist[seat]), h);
            assert_eq!(m.wins[seat].n, 100);
            assert_eq!(m.wins[seat].x, a.wins[seat].x + b.wins[seat].x);
            assert_eq!(
                m.final_score[seat].x,
                a.final_score[seat].x + b.final_score[seat].x
            );
            assert_eq!(
                m.turns[seat].turns(),
                a.turns[seat].turns() + b.turns[seat].turns()
            );
        }
        assert_eq!(m.game_turns.x, a.game_turns.x + b.game_turns.x);
        assert!(a
            .wins_by_position
            .iter()
            .chain(&b.wins_by_position)
            .all(|&w| w > 0));
        // Merging into an empty sum is the other sum.
        let mut e = GameAcc::default();
        e.merge(&a);
        assert_eq!(e, a);
    }

    /// Every turn rolls at least once and its rolls are counted one a throw (a few a turn).
    #[test]
    fn every_turn_counts_its_rolls() {
        let (s, _) = sim(DoomPreset::Seed, "optimal", Mode::Turns(1), 1);
        let mut rng = crate::rng::chunk_rng(5, 0);
        let mut total = 0u64;
        for _ in 0..10_000 {
            let o = play_turn(&s.model, &s.players[0], 0, None, &mut rng);
            assert!((1..=60).contains(&o.rolls), "{o:?}");
            if o.points > 0 {
                // Banking needs a scoring throw before it.
                assert!(!o.farkle && !o.doom);
            }
            total += o.rolls as u64;
        }
        let mean = total as f64 / 10_000.0;
        assert!((1.5..6.0).contains(&mean), "{mean} rolls a turn");
    }

    /// Final totals in bins of a twentieth of the target (500 points at 10,000), from 0 up
    /// to twice the target, beyond it the last bin; a negative total in the first.
    #[test]
    fn final_totals_land_in_their_bins() {
        let final_bin = |total, target| {
            let mut h = Histogram::default();
            h.add(final_key(total, target));
            let c = final_counts(&h);
            assert_eq!((c.len(), c.iter().sum::<u64>()), (FINAL_BINS + 1, 1));
            c.iter().position(|&n| n == 1).unwrap()
        };
        for (total, bin) in [
            (-500, 0),
            (0, 0),
            (499, 0),
            (500, 1),
            (9_999, 19),
            (10_000, 20),
            (10_499, 20),
            (19_999, 39),
            (20_000, 40),
            (1_000_000, 40),
        ] {
            assert_eq!(final_bin(total, 10_000), bin, "total {total}");
        }
        assert_eq!(final_bin(150, 300), 10);
        assert_eq!(final_counts(&Histogram::default()), vec![0; FINAL_BINS + 1]);
    }

    /// Wins by position in the turn order: with every game started by seat 2 (of 3), the
    /// starter's wins are seat 2's, the next position's seat 3's, the last seat 1's. The
    /// other game sums of three seats add up too.
    #[test]
    fn three_seats_game_sums_and_wins_by_position_from_the_starting_seat() {
        let (mut s, _) = sim(DoomPreset::Seed, "bank-at:300", Mode::Games(60), 3);
        s.start_seat = Some(1);
        let a = go(&s, 1);
        for pos in 0..3 {
            let seat = (1 + pos) % 3;
            assert_eq!(
                a.wins_by_position[pos] as i128, a.wins[seat].x,
                "position {pos}"
            );
        }
        assert!(a.wins.iter().all(|w| w.x > 0), "{:?}", a.wins);
        // Each seat's final totals: one a game in the histogram, their sum its turn scores'; the
        // turns a game took, every seat's.
        for seat in 0..3 {
            assert_eq!(a.final_hist[seat].total(), 60, "seat {seat}");
            assert_eq!(a.final_score[seat].x, a.turns[seat].score.x, "seat {seat}");
            assert_eq!(a.final_score[seat].n, 60, "seat {seat}");
        }
        let turns: u64 = a.turns.iter().map(|t| t.turns()).sum();
        assert_eq!((a.game_turns.x, a.game_turns.n), (turns as i128, 60));
    }

    /// A win-optimal seat is handed the game in units: its score and the leader's (and, when
    /// the round is finished, which seat of the round it is), or on the last turn how far it
    /// trails.
    #[test]
    fn a_seat_of_several_sees_each_opponent_as_the_two_player_game_does() {
        // Four seats, seat 2 started the round: seat 0 moves at position 2, after seats 2 and
        // 3 and before seat 1.
        let total = [1000, 2500, 600, 0];
        assert_eq!(
            opponents(50, true, 0, 2, &total),
            [(0, 50), (1, 12), (1, 0)]
        );
        // Under the immediate rule the seats are alike.
        assert_eq!(
            opponents(50, false, 0, 2, &total),
            [(0, 50), (0, 12), (0, 0)]
        );
    }

    #[test]
    fn a_win_optimal_seat_sees_the_scores_in_units() {
        let view = |bank, leader, last_turn| GameView {
            bank,
            leader,
            last_turn,
        };
        assert_eq!(
            win_turn_kind(50, true, 1, view(1250, 3700, false)),
            TurnKind::Game { k: 1, a: 25, b: 74 }
        );
        assert_eq!(
            win_turn_kind(50, true, 0, view(1250, 3700, false)),
            TurnKind::Game { k: 0, a: 25, b: 74 }
        );
        assert_eq!(
            win_turn_kind(50, false, 1, view(3700, 1250, false)),
            TurnKind::Game { k: 0, a: 74, b: 25 }
        );
        assert_eq!(
            win_turn_kind(50, true, 1, view(1250, 3700, true)),
            TurnKind::Last { d: 49 }
        );
        assert_eq!(
            win_turn_kind(25, true, 1, view(0, 100, true)),
            TurnKind::Last { d: 4 }
        );
    }

    /// A game that cannot finish (a target of 10^15 points) is abandoned after exactly
    /// `MAX_ROUNDS` rounds, every seat's turns of them counted, the game itself only as
    /// unfinished; the chunk's other games are skipped as unfinished too.
    #[test]
    fn a_game_is_abandoned_after_max_rounds() {
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = 1_000_000_000_000_000;
        let model = Arc::new(Model::new(&r));
        let pl = Arc::new(SolvedStrategy::new(
            &model,
            DoomStrategy::parse("bank-at:300").unwrap(),
        ));
        let s = DoomSim {
            win: None,
            model,
            players: vec![pl; 2],
            mode: Mode::Games(3),
            start_seat: None,
            per_chunk: 3,
        };
        let a = go(&s, 1);
        assert_eq!((a.games, a.unfinished), (0, 3));
        for seat in 0..2 {
            assert_eq!(a.turns[seat].turns(), MAX_ROUNDS, "seat {seat}");
        }
    }

    /// Single turns in a row keep the farkle penalty too (Zilch: three farkles in a row cost
    /// 500): every penalty a turn of −500, at most one in three farkles.
    #[test]
    fn turns_in_a_row_keep_the_farkle_penalty() {
        let (s, _) = sim(DoomPreset::Zilch, "bank-at:1000", Mode::Turns(20_000), 1);
        let t = &go(&s, 1).turns[0];
        assert!(t.penalties > 100, "{} penalties", t.penalties);
        assert!(3 * t.penalties <= t.farkles + t.dooms, "{t:?}");
        // Every negative score is a −500 (key −10: bins of 50).
        assert_eq!(t.hist.below(0), t.penalties);
        assert_eq!(t.hist.window(-10, -10).bins, [t.penalties], "the -500 bin");
    }

    /// In games, a seat's three farkles in a row cost 500 points (the Zilch rules) and the
    /// streak starts again: every penalty is a turn scoring −500 (the only negative turn
    /// score there), at most one in three farkles is one, and each seat's final totals add
    /// up to its turn scores. The turns a game took are every seat's turns.
    #[test]
    fn games_keep_the_farkle_penalty_and_count_their_turns() {
        let (s, _) = sim(DoomPreset::Zilch, "bank-at:1000", Mode::Games(200), 2);
        let a = go(&s, 1);
        assert_eq!((a.games, a.unfinished), (200, 0));
        let mut all = 0;
        for (seat, t) in a.turns.iter().enumerate() {
            assert!(t.penalties > 10, "seat {seat}: {} penalties", t.penalties);
            assert!(3 * t.penalties <= t.farkles + t.dooms, "seat {seat}: {t:?}");
            assert_eq!(t.hist.window(-10, -10).bins, [t.penalties], "seat {seat}");
            assert_eq!(t.hist.below(0), t.penalties, "seat {seat}");
            assert_eq!(a.final_score[seat].x, t.score.x, "seat {seat}");
            all += t.turns();
        }
        assert_eq!(a.game_turns.x, all as i128);
        assert_eq!(a.game_turns.n, 200);
    }

    /// A chunk's games are the run's games from chunk × per_chunk on, and the seats take turns
    /// to start them across chunks (game g: seat g mod seats): chunk 1 of 5-game chunks is
    /// games 5 to 9, started by seats 1, 0, 1, 0, 1, each played in turn from its starter.
    #[test]
    fn a_chunk_plays_its_games_with_the_starter_turning_across_chunks() {
        let (mut s, _) = sim(DoomPreset::Seed, "bank-at:300", Mode::Games(15), 2);
        s.per_chunk = 5;
        let mut acc = GameAcc::default();
        s.run_chunk(1, &mut crate::rng::chunk_rng(4, 1), &mut acc);
        let fixed: Vec<DoomSim> = (0..2)
            .map(|k| {
                let (mut f, _) = sim(DoomPreset::Seed, "bank-at:300", Mode::Games(15), 2);
                f.start_seat = Some(k);
                f
            })
            .collect();
        let mut want = GameAcc::zero(2, s.mode);
        let mut batches = vec![Batch::default(); 5];
        let mut rng = crate::rng::chunk_rng(4, 1);
        for g in 5..10 {
            assert!(fixed[g % 2].play_game(0, &mut rng, &mut want, &mut batches));
        }
        want.turns.iter_mut().for_each(TurnAcc::close);
        assert_eq!(acc.games, 5);
        assert_eq!(acc.wins_by_position, want.wins_by_position);
        assert_eq!(acc.final_hist, want.final_hist);
        for seat in 0..2 {
            assert_eq!(acc.wins[seat].x, batches[seat].x as i128, "seat {seat}");
            assert_eq!(acc.final_score[seat].x, batches[2 + seat].x as i128);
            assert_eq!(acc.turns[seat].turns(), want.turns[seat].turns());
            assert_eq!(acc.turns[seat].score.x, want.turns[seat].score.x);
        }
        assert_eq!(acc.game_turns.x, batches[4].x as i128);
    }

    #[test]
    fn identical_for_any_thread_count() {
        let (s, _) = sim(DoomPreset::S2Common, "optimal", Mode::Games(200), 3);
        let a = go(&s, 1);
        let b = go(&s, 2);
        let c = go(&s, 4);
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a.games, 200);
        // Every game has exactly one unit of wins.
        let total: i128 = a.wins.iter().map(|w| w.x).sum();
        assert_eq!(total, 200 * WIN_UNIT as i128);
    }
}
