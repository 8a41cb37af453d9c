//! Twenty One games: shared rolls, the active player's re-rolls, every player writing on the
//! same dice, to the roll in which someone finishes row 5.

use std::sync::Arc;

use super::row::{hits, legal, Row};
use super::rules::{TwentyOneRules, ROWS};
use super::strategy::SeatStrategy;
use crate::engine::Simulation;
use crate::histogram::Histogram;
use crate::rng::{die, Rng};
use crate::stats::{Batch, Ratio};
use crate::sums::{sums, total};

/// Where dice come from (random, or scripted in tests).
pub trait Dice {
    fn die(&mut self) -> u8;
}

impl Dice for Rng {
    #[inline(always)]
    fn die(&mut self) -> u8 {
        die(self)
    }
}

/// Dice from a list, in order (tests).
pub struct Scripted(pub Vec<u8>, pub usize);

impl Dice for Scripted {
    fn die(&mut self) -> u8 {
        let v = self.0[self.1 % self.0.len()];
        self.1 += 1;
        v
    }
}

/// One player's sheet during a game.
#[derive(Clone, Debug, Default)]
pub struct Sheet {
    pub row_index: usize,
    pub row: Row,
    pub score: u32,
    pub hits_per_row: [u8; ROWS],
    pub crossings: u32,
    pub done: bool,
}

/// What one game produced.
#[derive(Clone, Debug, Default)]
pub struct GameResult {
    pub players: Vec<Sheet>,
    /// Turns (one shared roll each, re-rolls not counted).
    pub turns: u32,
    /// Dice rolls including re-rolls.
    pub rolls: u32,
    /// Per seat: points gained on turns where the seat was active, and those turns.
    pub active: Vec<(u32, u32)>,
    /// Per seat: points gained on other seats' turns, and those turns.
    pub passive: Vec<(u32, u32)>,
}

sums! {
    /// First-roll events seen from each player's current row, keyed by its empty boxes: the
    /// counts that exhaustive enumeration predicts exactly.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct RollEvents {
        pub rolls: Vec<u64> => related,
        pub any_legal: Vec<u64> => related,
        /// `hits[e * 7 + k]`: first rolls with k hits.
        pub hits: Vec<u64> => related,
    }
    relations(RollEvents::relations)
}

impl Default for RollEvents {
    fn default() -> Self {
        RollEvents {
            rolls: vec![0; 64],
            any_legal: vec![0; 64],
            hits: vec![0; 64 * 7],
        }
    }
}

impl RollEvents {
    /// Of the first rolls seen with each row state, at most all had a legal move, and each
    /// had one number of hits. (How many first rolls there were, `TwentyOneAcc` bounds.)
    fn relations(&self) -> Result<(), String> {
        use crate::shard::at_most;
        for (e, &r) in self.rolls.iter().enumerate() {
            let of = format!("first rolls with row state {e}");
            at_most(
                &format!("any_legal[{e}]"),
                self.any_legal.get(e).copied().unwrap_or(0),
                r,
                &of,
            )?;
            let hits = self
                .hits
                .iter()
                .skip(e * 7)
                .take(7)
                .fold(0u64, |a, &h| a.saturating_add(h));
            at_most(&format!("hits[{e}] (all)"), hits, r, &of)?;
        }
        Ok(())
    }
}

/// The dice seen from a row: `vals[j]` = the die of box j's colour.
#[inline(always)]
fn view(dice: &[u8; 6], row_colours: &[u8; 6]) -> [u8; 6] {
    let mut v = [0u8; 6];
    for j in 0..6 {
        v[j] = dice[row_colours[j] as usize];
    }
    v
}

/// The active player's roll: six dice, then up to `rules.rerolls` re-rolls of every non-1 die
/// (1s kept) as the strategy decides for its row. Returns the final dice (by colour), the
/// first roll, and the number of rolls made.
pub fn shared_roll<D: Dice>(
    rules: &TwentyOneRules,
    seat: &SeatStrategy,
    colours: &[u8; 6],
    row: &Row,
    dice: &mut D,
) -> ([u8; 6], [u8; 6], u32) {
    let mut d = [0u8; 6];
    for v in d.iter_mut() {
        *v = dice.die();
    }
    let first = d;
    let mut rolls = 1;
    for left in (1..=rules.rerolls).rev() {
        if !seat.reroll(row.empty, row.hits, &view(&d, colours), left) {
            break;
        }
        for v in d.iter_mut() {
            if *v != 1 {
                *v = dice.die();
            }
        }
        rolls += 1;
    }
    (d, first, rolls)
}

/// Play one game. `start` is the seat of the first active player.
pub fn play_game<D: Dice>(
    rules: &TwentyOneRules,
    seats: &[Arc<SeatStrategy>],
    start: usize,
    dice: &mut D,
    mut events: Option<&mut RollEvents>,
) -> GameResult {
    let n = seats.len();
    let mut g = GameResult {
        players: vec![Sheet::default(); n],
        active: vec![(0, 0); n],
        passive: vec![(0, 0); n],
        ..GameResult::default()
    };
    // At most 30 turns: every player fills or crosses at least one box per turn.
    loop {
        let active = crate::game::Rotation { start, seats: n }.seat(g.turns as usize);
        g.turns += 1;
        let ap = &g.players[active];
        let colours = &rules.sheets[active].rows[ap.row_index];
        let (d, first, rolls) = shared_roll(rules, &seats[active], colours, &ap.row, dice);
        g.rolls += rolls;
        if let Some(ev) = events.as_deref_mut() {
            for (s, p) in g.players.iter().enumerate() {
                let vals = view(&first, &rules.sheets[s].rows[p.row_index]);
                let e = p.row.empty as usize;
                ev.rolls[e] += 1;
                ev.any_legal[e] += (legal(p.row.empty, &vals) != 0) as u64;
                ev.hits[e * 7 + hits(p.row.empty, &vals).count_ones() as usize] += 1;
            }
        }
        // Everyone writes on the final dice.
        let mut someone_done = false;
        for (s, p) in g.players.iter_mut().enumerate() {
            let vals = view(&d, &rules.sheets[s].rows[p.row_index]);
            let c = seats[s].write(p.row.empty, p.row.hits, &vals);
            let gain = match p.row.apply(&vals, c) {
                Ok(gain) => gain,
                // A strategy proposing an illegal move is a bug: cross out instead, so the
                // game stays legal (debug builds stop here).
                Err(e) => {
                    debug_assert!(false, "seat {s} proposed an illegal move: {e}");
                    p.row.apply(&vals, super::row::CROSS).unwrap_or_default()
                }
            };
            p.score += gain.points;
            p.crossings += gain.crossed as u32;
            let slot = if s == active {
                &mut g.active[s]
            } else {
                &mut g.passive[s]
            };
            slot.0 += gain.points;
            slot.1 += 1;
            if p.row.finished() {
                p.hits_per_row[p.row_index] = p.row.hits;
                if p.row_index + 1 == ROWS {
                    p.done = true;
                    someone_done = true;
                } else {
                    p.row_index += 1;
                    p.row = Row::default();
                }
            } else {
                p.hits_per_row[p.row_index] = p.row.hits;
            }
        }
        if someone_done {
            return g;
        }
    }
}

/// Wins in 1/60ths (60 = lcm(1..6)): ties shared exactly.
pub const WIN_UNIT: i64 = 60;
pub const MAX_SCORE: usize = 210;

/// A seat's final scores as reports show them: one count per score from 0 to `MAX_SCORE`
/// (a higher one, which the sheets do not allow, counted at `MAX_SCORE`).
pub fn score_counts(h: &Histogram) -> Vec<u64> {
    h.clamped(0, MAX_SCORE as i64)
}

sums! {
    /// Sums over games, per seat.
    #[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct TwentyOneAcc {
        pub games: u64 => related,
        pub wins: Vec<Ratio> => ratios(|s| format!("seat {} wins", s + 1), w, w, true),
        pub score: Vec<Ratio> => ratios(|s| format!("seat {} scores", s + 1), MAX, 1, true),
        /// Per seat: final scores (key: the score; [`score_counts`] reads it).
        pub score_hist: Vec<Histogram> => each,
        pub hits_row: Vec<[u64; ROWS]> => related,
        pub crossings: Vec<u64> => related,
        /// Points per turn as the active player and as a passive one.
        pub active: Vec<Ratio> =>
            ratios(|s| format!("seat {} active turns", s + 1), MAX, MAX, false),
        pub passive: Vec<Ratio> =>
            ratios(|s| format!("seat {} passive turns", s + 1), MAX, MAX, false),
        pub turns: Ratio => ratio("turns per game", MAX, 1, true),
        // One roll and the re-rolls a turn.
        pub rolls: u64 => at_most(
            turns.saturating_mul(1 + MAX_REROLLS),
            format!("rolls {turns} turns can have"),
        ),
        pub events: RollEvents => sums,
    }
    bounds(acc) {
        // Far above any real score or turn count.
        const MAX: i128 = 1_000_000;
        let w = WIN_UNIT as i128;
        let turns = u64::try_from(acc.turns.x).map_err(|_| "turns per game: a negative sum")?;
    }
    relations(TwentyOneAcc::relations)
}

impl TwentyOneAcc {
    /// Zero sums for `n` seats (no games yet).
    pub fn for_seats(n: usize) -> TwentyOneAcc {
        TwentyOneAcc {
            wins: vec![Ratio::default(); n],
            score: vec![Ratio::default(); n],
            score_hist: vec![Histogram::spanning(0, MAX_SCORE as i64); n],
            hits_row: vec![[0; ROWS]; n],
            crossings: vec![0; n],
            active: vec![Ratio::default(); n],
            passive: vec![Ratio::default(); n],
            ..TwentyOneAcc::default()
        }
    }

    /// These sums, or zero sums for `n` seats when no chunk completed (the identity has no
    /// seats), so that a report of a run stopped before its first chunk has every seat.
    pub fn with_seats(&self, n: usize) -> std::borrow::Cow<'_, TwentyOneAcc> {
        if self.wins.len() < n {
            std::borrow::Cow::Owned(TwentyOneAcc::for_seats(n))
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }
}

/// Re-rolls a turn can have at most (`TwentyOneRules::rerolls`' limit).
const MAX_REROLLS: u64 = 5;

impl TwentyOneAcc {
    /// Every seat's sums count the games: wins and the score histogram one per game; and
    /// every count within what the games allow: at most 30 turns a game (a turn fills or
    /// crosses a box of every row, 5 rows of 6), six hits a row, a box crossed once, one
    /// first roll seen by each seat a turn.
    fn relations(&self) -> Result<(), String> {
        use crate::shard::at_most;
        let games = self.games;
        for s in 0..self.wins.len() {
            let seat = |what: &str| format!("seat {} {what}", s + 1);
            if self.wins[s].n != games {
                return Err(format!(
                    "{} has {} games of {}",
                    seat("wins"),
                    self.wins[s].n,
                    games
                ));
            }
            if self.score.len() <= s {
                return Err(seat("scores are missing"));
            }
            let in_hist: u64 = self.score_hist.get(s).map_or(0, Histogram::total);
            if in_hist != games {
                return Err(format!(
                    "{}: {in_hist} of {games} games",
                    seat("score histogram"),
                ));
            }
            if self.active.len() <= s || self.passive.len() <= s {
                return Err(seat("turns are missing"));
            }
        }
        let boxes = (ROWS * 6) as u64;
        let turns = u64::try_from(self.turns.x).map_err(|_| "turns per game: a negative sum")?;
        at_most(
            "turns (the sum)",
            turns,
            games.saturating_mul(boxes),
            "turns the games can have",
        )?;
        for s in 0..self.wins.len() {
            let field = |f: String| format!("seat {} {f}", s + 1);
            for (r, &h) in self.hits_row.get(s).into_iter().flatten().enumerate() {
                let of = format!("hits of row {} in {games} games", r + 1);
                at_most(
                    &field(format!("hits_row[{r}]")),
                    h,
                    games.saturating_mul(6),
                    &of,
                )?;
            }
            let crossed = self.crossings.get(s).copied().unwrap_or(0);
            let of = format!("boxes of {games} games");
            at_most(
                &field("crossings".into()),
                crossed,
                games.saturating_mul(boxes),
                &of,
            )?;
        }
        let seen = total(&self.events.rolls);
        let seats = self.wins.len() as u64;
        let of = format!("first rolls {seats} seats see in {turns} turns");
        at_most("events.rolls (all)", seen, turns.saturating_mul(seats), &of)
    }
}

pub struct TwentyOneSim {
    pub rules: Arc<TwentyOneRules>,
    pub seats: Vec<Arc<SeatStrategy>>,
    pub games: u64,
    pub per_chunk: u64,
    /// Starting seat, or `None`: game g starts at seat g mod seats.
    pub start_seat: Option<usize>,
    /// Count first-roll events (`TwentyOneAcc::events`, the enumeration cross-check); off
    /// in ordinary runs, which do not report them.
    pub record_events: bool,
}

impl TwentyOneSim {
    pub fn chunks(&self) -> u64 {
        crate::game::chunk_count(self.games, self.per_chunk)
    }
}

impl Simulation for TwentyOneSim {
    type Acc = TwentyOneAcc;

    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut TwentyOneAcc) {
        let n = self.seats.len();
        let count = self
            .per_chunk
            .min(self.games.saturating_sub(chunk * self.per_chunk));
        let seats = TwentyOneAcc::for_seats(n);
        acc.wins = seats.wins;
        acc.score = seats.score;
        acc.score_hist = seats.score_hist;
        acc.hits_row = seats.hits_row;
        acc.crossings = seats.crossings;
        acc.active = seats.active;
        acc.passive = seats.passive;
        // Batches: wins, score, active, passive per seat; turns.
        let mut b = vec![Batch::default(); 4 * n + 1];
        let mut act_n = vec![0u64; n];
        let mut pas_n = vec![0u64; n];
        for i in 0..count {
            let game = chunk * self.per_chunk + i;
            let start = crate::game::Rotation::of_game(self.start_seat, game, n).start;
            let events = self.record_events.then_some(&mut acc.events);
            let g = play_game(&self.rules, &self.seats, start, rng, events);
            let best = g.players.iter().map(|p| p.score).max().unwrap_or(0);
            let winners = g.players.iter().filter(|p| p.score == best).count() as i64;
            for (s, p) in g.players.iter().enumerate() {
                let w = if p.score == best {
                    WIN_UNIT / winners
                } else {
                    0
                };
                b[s].add(w, WIN_UNIT);
                b[n + s].add(p.score as i64, 1);
                acc.score_hist[s].add(p.score as i64);
                for r in 0..ROWS {
                    acc.hits_row[s][r] += p.hits_per_row[r] as u64;
                }
                acc.crossings[s] += p.crossings as u64;
                b[2 * n + s].add_sum(g.active[s].0 as i64, g.active[s].1 as i64);
                b[3 * n + s].add_sum(g.passive[s].0 as i64, g.passive[s].1 as i64);
                act_n[s] += g.active[s].1 as u64;
                pas_n[s] += g.passive[s].1 as u64;
            }
            b[4 * n].add(g.turns as i64, 1);
            acc.rolls += g.rolls as u64;
        }
        for s in 0..n {
            acc.wins[s].close(&b[s], count);
            acc.score[s].close(&b[n + s], count);
            acc.active[s].close(&b[2 * n + s], act_n[s]);
            acc.passive[s].close(&b[3 * n + s], pas_n[s]);
        }
        acc.turns.close(&b[4 * n], count);
        acc.games += count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Merge;

    fn seats(specs: &[&str]) -> Vec<Arc<SeatStrategy>> {
        specs
            .iter()
            .map(|s| Arc::new(SeatStrategy::parse(s, 1).unwrap()))
            .collect()
    }

    /// Sheets where every row is W K R B Y G (box j has colour j), so die j lands in box j.
    fn plain_rules(players: usize) -> TwentyOneRules {
        let mut r = TwentyOneRules::standard();
        for s in r.sheets.iter_mut().take(players) {
            s.rows = [[0, 1, 2, 3, 4, 5]; ROWS];
        }
        r
    }

    #[test]
    fn the_game_ends_on_the_roll_that_finishes_row_5_with_unfinished_rows_counted() {
        // Every roll is 6 5 4 3 2 1: all hits for box j = colour j, so hits-only never
        // re-rolls and fills a row per roll.
        let r = plain_rules(2);
        let s = seats(&["hits-only", "hits-only"]);
        let g = play_game(&r, &s, 0, &mut Scripted(vec![6, 5, 4, 3, 2, 1], 0), None);
        assert_eq!(g.turns, 5, "one row per roll, five rows");
        for p in &g.players {
            assert_eq!(p.score, 5 * 42);
            assert!(p.done);
        }
        let mut r2 = plain_rules(2);
        // Seat 1's rows hold the colours reversed: it sees 1 2 3 4 5 6 in the boxes printed
        // 6 5 4 3 2 1, so only the first three are legal.
        r2.sheets[1].rows = [[5, 4, 3, 2, 1, 0]; ROWS];
        let s = seats(&["hits-only", "greedy+never"]);
        let g = play_game(&r2, &s, 0, &mut Scripted(vec![6, 5, 4, 3, 2, 1], 0), None);
        assert_eq!(g.turns, 5);
        let p1 = &g.players[1];
        // Greedy writes 1, 2, 3 in boxes printed 6, 5, 4 on roll 1; then nothing legal is
        // left (boxes printed 3, 2, 1 see 4, 5, 6): it crosses one box per roll.
        // Rolls 2, 3, 4 cross boxes 3, 4, 5: row 1 finished after roll 4 (6 points, no hits).
        // Roll 5 writes 1, 2, 3 into row 2 (6 points). The game ends after roll 5 (seat 0
        // finished row 5) with seat 1's row 2 unfinished but counted.
        assert_eq!(p1.score, 6 + 6);
        assert_eq!(p1.crossings, 3);
        assert_eq!(p1.row_index, 1);
        assert!(!p1.done);
        assert!(g.players[0].done);
    }

    #[test]
    fn the_active_player_rerolls_the_non_ones_only_and_as_often_as_allowed() {
        let mut r = plain_rules(1);
        let s = SeatStrategy::parse("hits-only", 1).unwrap();
        let colours = [0, 1, 2, 3, 4, 5];
        // Roll 4 4 5 1 6 6 has no hit (box j printed 6 − j sees die j): re-roll the five
        // non-1 dice, which come up 6 5 4 2 1; the 1 of die 3 stays.
        let mut d = Scripted(vec![4, 4, 5, 1, 6, 6, 6, 5, 4, 2, 1], 0);
        let (fin, first, rolls) = shared_roll(&r, &s, &colours, &Row::default(), &mut d);
        assert_eq!(first, [4, 4, 5, 1, 6, 6]);
        assert_eq!(fin, [6, 5, 4, 1, 2, 1]);
        assert_eq!((rolls, d.1), (2, 11));
        // A roll with a hit is kept.
        let mut d = Scripted(vec![6, 1, 1, 1, 1, 1], 0);
        let (_, _, rolls) = shared_roll(&r, &s, &colours, &Row::default(), &mut d);
        assert_eq!(rolls, 1);
        // Two re-rolls allowed (the seed's literal reading): a second miss re-rolls again.
        r.rerolls = 2;
        let mut d = Scripted(vec![4, 4, 5, 1, 6, 6, 5, 4, 5, 6, 6, 6, 5, 4, 3, 2], 0);
        let (fin, _, rolls) = shared_roll(&r, &s, &colours, &Row::default(), &mut d);
        assert_eq!(rolls, 3);
        assert_eq!(fin, [6, 5, 4, 1, 3, 2]);
    }

    /// Turns pass to the left from the start seat (seat (start + t) mod n is active on turn
    /// t), every seat writes on every turn, and the rolls count the re-rolls: at least one a
    /// turn, at most 1 + rerolls.
    #[test]
    fn turns_rotate_from_the_start_seat_and_rolls_count_rerolls() {
        let r = TwentyOneRules::standard();
        let s = seats(&["hits-only", "greedy", "slack:1"]);
        let mut rng = crate::rng::chunk_rng(11, 0);
        let mut lengths = std::collections::BTreeSet::new();
        let mut rerolled = false;
        for game in 0..200u32 {
            let start = (game % 3) as usize;
            let g = play_game(&r, &s, start, &mut rng, None);
            lengths.insert(g.turns % 3);
            for seat in 0..3 {
                let want = (0..g.turns as usize)
                    .filter(|t| (start + t) % 3 == seat)
                    .count() as u32;
                assert_eq!(
                    g.active[seat].1, want,
                    "game {game} start {start} seat {seat}"
                );
                assert_eq!(g.active[seat].1 + g.passive[seat].1, g.turns);
                // The points split the same way.
                let p = &g.players[seat];
                assert_eq!(g.active[seat].0 + g.passive[seat].0, p.score);
            }
            let most = g.turns * (1 + r.rerolls as u32);
            assert!(
                g.turns <= g.rolls && g.rolls <= most,
                "{} rolls in {} turns",
                g.rolls,
                g.turns
            );
            rerolled |= g.rolls > g.turns;
        }
        // Games of every length mod 3, so that a wrong rotation shows.
        assert_eq!(lengths.len(), 3);
        // Some turns re-rolled (hits-only re-rolls a roll with no hit).
        assert!(rerolled);
    }

    /// A run stopped before its first chunk still reports every seat (zero sums); sums
    /// with their seats are used as they are.
    #[test]
    fn with_seats_fills_in_an_empty_run() {
        let empty = TwentyOneAcc::default();
        let filled = empty.with_seats(3);
        assert_eq!(filled.wins.len(), 3);
        assert_eq!(*filled, TwentyOneAcc::for_seats(3));
        let mut some = TwentyOneAcc::for_seats(3);
        some.games = 7;
        assert!(matches!(some.with_seats(3), std::borrow::Cow::Borrowed(_)));
        assert_eq!(some.with_seats(3).games, 7);
    }

    /// A run of two chunks holds the sums of the two chunks run alone (the merge adds every
    /// field), and passes the shard plausibility check, which refuses edited sums.
    #[test]
    fn merged_sums_are_the_chunks_sums_and_plausible() {
        use crate::engine::{run, RunOptions};
        use crate::shard::Plausible;
        use std::sync::atomic::AtomicBool;
        let sim = TwentyOneSim {
            rules: Arc::new(TwentyOneRules::standard()),
            seats: seats(&["hits-only", "greedy"]),
            games: 200,
            per_chunk: 100,
            start_seat: None,
            record_events: true,
        };
        let go = |chunks| {
            let o = RunOptions {
                seed: 5,
                chunks,
                threads: Some(1),
                progress: false,
                label: String::new(),
            };
            run(&sim, &o, &AtomicBool::new(false)).unwrap().acc
        };
        let (a, b, m) = (go(0..1), go(1..2), go(0..2));
        assert_eq!(m.games, a.games + b.games);
        assert_eq!(m.rolls, a.rolls + b.rolls);
        assert!(a.rolls > 0 && b.rolls > 0);
        for s in 0..2 {
            let (ha, hb) = (
                score_counts(&a.score_hist[s]),
                score_counts(&b.score_hist[s]),
            );
            let hist: Vec<u64> = ha.iter().zip(&hb).map(|(x, y)| x + y).collect();
            assert_eq!(score_counts(&m.score_hist[s]), hist);
            let rows: Vec<u64> = (0..ROWS)
                .map(|r| a.hits_row[s][r] + b.hits_row[s][r])
                .collect();
            assert_eq!(m.hits_row[s].to_vec(), rows);
            assert!(rows.iter().sum::<u64>() > 0);
            assert_eq!(m.crossings[s], a.crossings[s] + b.crossings[s]);
        }
        assert_eq!(m.events.rolls, {
            let mut e = a.events.clone();
            e.merge(&b.events);
            e.rolls
        });
        assert!(m.plausible().is_ok());
        // Edited sums are refused: a game more than the wins hold, a histogram off by one.
        let mut bad = m.clone();
        bad.games += 1;
        let e = bad.plausible().unwrap_err();
        assert!(e.contains("seat 1 wins has 200 games of 201"), "{e}");
        let mut bad = m.clone();
        bad.score_hist[1].add(0);
        let e = bad.plausible().unwrap_err();
        assert!(
            e.contains("seat 2 score histogram: 201 of 200 games"),
            "{e}"
        );
        // Counts beyond what the games allow, each named.
        let forged = |edit: &dyn Fn(&mut TwentyOneAcc)| {
            let mut x = m.clone();
            edit(&mut x);
            x.plausible().unwrap_err()
        };
        let turns = m.turns.x as u64;
        assert_eq!(
            forged(&|x| x.rolls = 6 * turns + 1),
            format!(
                "rolls = {} is more than the {} rolls {turns} turns can have",
                6 * turns + 1,
                6 * turns
            )
        );
        assert_eq!(
            forged(&|x| x.hits_row[1][4] = 1201),
            "seat 2 hits_row[4] = 1201 is more than the 1200 hits of row 5 in 200 games"
        );
        assert_eq!(
            forged(&|x| x.crossings[0] = 6001),
            "seat 1 crossings = 6001 is more than the 6000 boxes of 200 games"
        );
        let e = forged(&|x| x.events.any_legal[63] = x.events.rolls[63] + 1);
        assert!(e.starts_with("events.any_legal[63] = "), "{e}");
        let e = forged(&|x| x.events.rolls[0] += 2 * turns + 1);
        assert!(e.starts_with("events.rolls (all) = "), "{e}");
    }

    /// A chunk's sums are those of its games replayed one by one on the same stream: the
    /// chunk's games (the last chunk short), each starting from seat game mod n, every sum
    /// and batch in its seat's place.
    #[test]
    fn a_chunk_sums_its_games() {
        let n = 3;
        let sim = TwentyOneSim {
            rules: Arc::new(TwentyOneRules::standard()),
            seats: seats(&["hits-only", "greedy", "slack:1"]),
            games: 250,
            per_chunk: 100,
            start_seat: None,
            record_events: false,
        };
        let mut acc = TwentyOneAcc::default();
        sim.run_chunk(2, &mut crate::rng::chunk_rng(4, 2), &mut acc);
        let mut rng = crate::rng::chunk_rng(4, 2);
        let mut want = TwentyOneAcc::for_seats(n);
        let (mut wins, mut score) = (vec![0i128; n], vec![0i128; n]);
        let (mut act, mut pas) = (vec![(0i128, 0i128); n], vec![(0i128, 0i128); n]);
        let mut turns = 0i128;
        for game in 200..250u64 {
            let g = play_game(&sim.rules, &sim.seats, (game % 3) as usize, &mut rng, None);
            let best = g.players.iter().map(|p| p.score).max().unwrap();
            let winners = g.players.iter().filter(|p| p.score == best).count() as i64;
            for (s, p) in g.players.iter().enumerate() {
                if p.score == best {
                    wins[s] += (WIN_UNIT / winners) as i128;
                }
                score[s] += p.score as i128;
                want.score_hist[s].add(p.score as i64);
                for r in 0..ROWS {
                    want.hits_row[s][r] += p.hits_per_row[r] as u64;
                }
                want.crossings[s] += p.crossings as u64;
                act[s].0 += g.active[s].0 as i128;
                act[s].1 += g.active[s].1 as i128;
                pas[s].0 += g.passive[s].0 as i128;
                pas[s].1 += g.passive[s].1 as i128;
            }
            turns += g.turns as i128;
            want.rolls += g.rolls as u64;
        }
        assert_eq!(acc.games, 50);
        assert_eq!(acc.rolls, want.rolls);
        assert_eq!((acc.turns.x, acc.turns.y, acc.turns.n), (turns, 50, 50));
        for s in 0..n {
            assert_eq!(
                (acc.wins[s].x, acc.wins[s].y),
                (wins[s], 50 * WIN_UNIT as i128),
                "seat {s}"
            );
            assert_eq!(
                (acc.score[s].x, acc.score[s].y, acc.score[s].n),
                (score[s], 50, 50)
            );
            assert_eq!((acc.active[s].x, acc.active[s].y), act[s], "seat {s}");
            assert_eq!(acc.active[s].n as i128, act[s].1);
            assert_eq!((acc.passive[s].x, acc.passive[s].y), pas[s], "seat {s}");
            assert_eq!(acc.passive[s].n as i128, pas[s].1);
            assert_eq!(acc.score_hist[s], want.score_hist[s]);
            assert_eq!(acc.hits_row[s], want.hits_row[s]);
            assert_eq!(acc.crossings[s], want.crossings[s]);
        }
        // Each seat started some of the games, so the rotation shows in the active turns.
        assert!(act.iter().all(|a| a.1 > 0));
    }

    #[test]
    fn identical_for_any_thread_count() {
        use crate::engine::{run, RunOptions};
        use std::sync::atomic::AtomicBool;
        let sim = TwentyOneSim {
            rules: Arc::new(TwentyOneRules::standard()),
            seats: seats(&["hits-only", "greedy", "row-optimal:1", "slack:1"]),
            games: 3000,
            per_chunk: 100,
            start_seat: None,
            record_events: false,
        };
        let go = |t| {
            let o = RunOptions {
                seed: 3,
                chunks: 0..sim.chunks(),
                threads: Some(t),
                progress: false,
                label: String::new(),
            };
            run(&sim, &o, &AtomicBool::new(false)).unwrap().acc
        };
        let a = go(1);
        assert_eq!(a, go(2));
        assert_eq!(a, go(4));
        assert_eq!(a.games, 3000);
        let w: i128 = a.wins.iter().map(|w| w.x).sum();
        assert_eq!(w, 3000 * WIN_UNIT as i128);
    }

    #[test]
    fn first_roll_events_agree_with_exhaustive_enumeration() {
        use super::super::exact::row_events;
        use crate::engine::{run, RunOptions};
        use std::sync::atomic::AtomicBool;
        let sim = TwentyOneSim {
            rules: Arc::new(TwentyOneRules::standard()),
            seats: seats(&["hits-only", "greedy", "slack:1", "row-optimal:1"]),
            games: 20_000,
            per_chunk: 500,
            start_seat: None,
            record_events: true,
        };
        let o = RunOptions {
            seed: 11,
            chunks: 0..sim.chunks(),
            threads: None,
            progress: false,
            label: String::new(),
        };
        let ev = run(&sim, &o, &AtomicBool::new(false)).unwrap().acc.events;
        let mut checked = 0;
        for e in 1..64usize {
            let n = ev.rolls[e];
            if n < 4000 {
                continue;
            }
            let exact = row_events(e as u8);
            let mut check = |count: u64, p: f64, what: &str| {
                let se = (p * (1.0 - p) / n as f64).sqrt();
                let f = count as f64 / n as f64;
                if se > 0.0 {
                    let z = (f - p) / se;
                    assert!(
                        z.abs() < 4.0,
                        "empty {e:06b} {what}: {f} vs {p} (z {z:.2}, n {n})"
                    );
                } else {
                    assert_eq!(f, p, "empty {e:06b} {what}");
                }
                checked += 1;
            };
            check(ev.any_legal[e], exact.p_any_legal, "P(any legal)");
            for k in 0..3 {
                check(ev.hits[e * 7 + k], exact.p_hits[k], &format!("P({k} hits)"));
            }
        }
        assert!(checked >= 40, "only {checked} comparisons");
    }
}
