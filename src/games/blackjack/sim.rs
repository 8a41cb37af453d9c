//! The blackjack simulation: accumulators, chunk plan and the run.

use serde::{Deserialize, Serialize};

use super::count::{Bankroll, PAIRS_PAY, RUIN_BINS};
use super::round::{RoundResult, SeatResult, Table};
use super::rules::{Rules, Shuffle, MAX_HANDS, MAX_PLAYERS};
use super::strategy::{Player, Seats};
use crate::engine::Simulation;
use crate::histogram::Histogram;
use crate::rng::{Rng, RngCore, SeedableRng};
use crate::shard::at_most;
use crate::stats::{Batch, Ratio};
use crate::sums::{sums, total};

sums! {
    /// Event counts of a run.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Counts {
        // Every count within what the rounds allow: at least one round per shoe, one natural,
        // surrender and insurance offer per seat-round, at most `MAX_HANDS` hands per
        // seat-round, one double and one bust per hand, and so on.
        pub shoes: u64 => at_most(c.rounds, "rounds (a shoe deals one at least)"),
        pub rounds: u64 => related,
        /// Seat-rounds: initial main bets.
        pub seat_rounds: u64 =>
            at_most(c.rounds.saturating_mul(MAX_PLAYERS as u64), "seats of the rounds"),
        pub naturals: u64 => at_most(c.seat_rounds, "seat-rounds"),
        pub dealer_blackjacks: u64 => at_most(c.rounds, "rounds"),
        pub doubles: u64 => at_most(c.hands_played, "hands played"),
        pub splits: u64 => at_most(c.hands_played, "hands played"),
        pub surrenders: u64 => at_most(c.seat_rounds, "seat-rounds"),
        pub insurance_offered: u64 => at_most(c.seat_rounds, "seat-rounds"),
        pub insurance_taken: u64 => at_most(c.insurance_offered, "insurance offers"),
        pub hands_played: u64 => at_most(
            c.seat_rounds.saturating_mul(MAX_HANDS as u64),
            format!("hands {} seat-rounds can have", c.seat_rounds),
        ),
        pub player_busts: u64 => at_most(c.hands_played, "hands played"),
        pub dealer_busts: u64 => at_most(c.rounds, "rounds"),
        pub reshuffles_mid_round: u64 =>
            at_most(c.rounds.saturating_mul(MAX_CARDS_PER_ROUND), "cards the rounds can deal"),
        /// Initial bets staked, in initial bets (a seat betting 3 stakes 3; equal to `seat_rounds`
        /// for flat betting). 0 in files written before bets were counted.
        #[serde(default)]
        pub initial_bets: u64 => related,
        /// The largest bet of one seat-round, in initial bets (1 for flat betting; 0 when nothing
        /// was played, and in files written before bets were counted).
        #[serde(default)]
        pub max_bet: u64 => merge(max) at_most(c.initial_bets.max(1), "initial bets staked"),
    }
    bounds(c)
}

sums! {
    /// Everything a blackjack run accumulates; merges exactly.
    ///
    /// Money is the seat's: a seat betting `b` initial bets counts `b` times its per-bet result
    /// (see `round::SeatResult`); with flat betting (`b` = 1) every sum is as before bets existed.
    /// One observation is one seat-round.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct BjAcc {
        /// Main bet: x = net money in units, y = initial bets staked (1 per seat-round betting
        /// flat, `b` for a bet of `b`); x/y is the EV per initial bet staked, in units.
        pub main: Ratio => ratio("main bet", m * b, b, true),
        /// Main bet per amount wagered: x = net money in units, y = units wagered.
        pub wagered: Ratio => ratio("amount wagered", m * b, m * b, false),
        /// Main bet by dealer up card (index value − 1, ace first), x and y as in `main`.
        pub by_up: [Ratio; 10] => ratios(|i| format!("up card {}", i + 1), m * b, b, false),
        /// Pairs side bet (staked in proportion to the seat's bet): x = +11/−1 side stakes times
        /// the bet, y = the bet.
        pub pairs: Ratio => ratio("pairs bet", 11 * b, b, true),
        /// Insurance taken (in proportion to the seat's bet): x = +2/−1 insurance stakes times
        /// the bet, y = the bet.
        pub insurance: Ratio => ratio("insurance", 2 * b, b, true),
        /// Side bets from paytables (`--side`), in the config's order, one stake per seat-round
        /// played: x = the result in the table's units, y = the units staked.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub sides: Vec<Ratio> => ratios(
            |i| format!("side bet {}", i + 1),
            crate::sidebet::MAX_RESULT_UNITS,
            1000,
            true,
        ),
        /// Bet behind declining doubles and splits, always one initial bet: x = net units, y = 1.
        pub behind_none: Ratio => ratio("bet behind", m, 1, false),
        /// Histogram of one seat-round's main net *per its own bet* (the net of one initial bet
        /// played the seat's way, whatever the seat bet) in units, with room for every net
        /// the rules allow (±[`hist_offset`]).
        pub hist: Histogram => sums,
        pub counts: Counts => sums,
        /// Dealer outcomes by up card: `[up − 1][17, 18, 19, 20, 21, bust, blackjack]`.
        pub dealer: [[u64; 7]; 10] => related,
        /// Per chunk (chunk index, Σ net units, initial bets), sorted by chunk: the running
        /// estimate for convergence plots.
        #[serde(default)]
        pub trace: Vec<[i64; 3]> =>
            merge(trace) unbounded("the main bet chunk by chunk, for the convergence plot"),
        /// A counting run's sums (empty otherwise, and then not written).
        #[serde(default, skip_serializing_if = "CountAcc::is_empty")]
        pub count: CountAcc => sums,
        /// Each seat's sums, in seat order, at a table whose seats play strategies of their own
        /// (`--seat`; empty otherwise, and then not written).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub seats: Vec<SeatAcc> => each,
    }
    bounds(acc) {
        let (m, b) = acc.money_bounds();
    }
    relations(BjAcc::relations)
}

sums! {
    /// A counting run's sums: seat-rounds sat out, the counter's whole result, and every
    /// seat-round by its true count.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct CountAcc {
        /// Seat-rounds the counter watched without betting (wonging).
        pub seat_rounds_out: u64 => related,
        /// The counter's money per round it plays (every spot it bets, insurance included):
        /// x = net units, y = initial bets, xx = Σ of squares per round, n = rounds played.
        #[serde(default)]
        pub money: Ratio => related,
        /// The same money per round played: x = net units, y = rounds played (compare pairs it).
        #[serde(default)]
        pub per_round: Ratio => related,
        /// The same money per round observed (every round dealt, a round sat out nets 0):
        /// x = net units, y = n = rounds dealt. Empty in files written before it was kept.
        #[serde(default)]
        pub per_round_observed: Ratio => related,
        /// With `pairs_exposure`: seat-rounds seen whose pairs bet had an exact EV of 0 or more
        /// (from the ranks left), and how many of them the pairs bet won.
        #[serde(default)]
        pub pairs_paying: u64 => related,
        #[serde(default)]
        pub pairs_paying_won: u64 =>
            at_most(c.pairs_paying, "seat-rounds of a paying pairs bet"),
        /// Bankroll paths (with `--bankroll`): trips completed, and how many were ruined in each
        /// `RUIN_BINS`-th of the trip.
        #[serde(default, skip_serializing_if = "RuinAcc::is_empty")]
        pub ruin: RuinAcc => sums,
        /// By true count (row `tc + 10`, clamped to −10..+10; `count::tc_bin`).
        pub by_tc: Vec<TcSums> => each,
        /// The side bets from paytables (`--side`) by the count at the bet, every seat-round
        /// seen (played or not): side `j`'s row for count bin `b` is `j * TC_BINS + b`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub side_by_tc: Vec<SideTc> => each,
    }
    bounds(c)
    relations(CountAcc::relations)
}

sums! {
    /// One seat's sums at a table whose seats play strategies of their own; the table's
    /// relations bound them (`BjAcc::relations`: the seats add up to the table's main bet).
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SeatAcc {
        /// Seat-rounds sat out (a bet of 0: a counter wonged out, or where its ramp bets 0).
        pub out: u64 => related,
        /// The main bet: x = net money in units, y = initial bets staked, n = seat-rounds
        /// played.
        pub main: Ratio => related,
        /// The seat's money per round it played, insurance included: x = net units, y = n =
        /// rounds played (a counter's EV per round, its SD and SCORE).
        pub per_round: Ratio => related,
        /// A bet behind of one initial bet that follows the seat's doubles and splits (the
        /// seat's result per initial bet): x = net units, y = n = rounds the seat played.
        pub behind: Ratio => related,
        /// The same bet behind declining doubles and splits.
        pub behind_none: Ratio => related,
        /// The largest bet, in initial bets.
        pub max_bet: u64 => merge(max) related,
    }
}

/// A seat's running sums within a chunk (closed into a [`SeatAcc`]).
#[derive(Clone, Default)]
struct SeatChunk {
    out: u64,
    n: u64,
    money: i64,
    money_xx: i128,
    bets: i64,
    round: i64,
    round_xx: i128,
    behind: i64,
    behind_xx: i128,
    behind_none: i64,
    behind_none_xx: i128,
    max_bet: u32,
}

impl SeatChunk {
    fn close(&self) -> SeatAcc {
        let mut a = SeatAcc {
            out: self.out,
            max_bet: self.max_bet as u64,
            ..SeatAcc::default()
        };
        let n = self.n as i128;
        a.main
            .close_wide(self.money as i128, self.bets as i128, self.money_xx, self.n);
        a.per_round
            .close_wide(self.round as i128, n, self.round_xx, self.n);
        a.behind
            .close_wide(self.behind as i128, n, self.behind_xx, self.n);
        a.behind_none
            .close_wide(self.behind_none as i128, n, self.behind_none_xx, self.n);
        a
    }
}

sums! {
    /// The seat-rounds of one true count.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct TcSums {
        /// Seat-rounds seen at this count (played or sat out).
        pub observed: u64 => related,
        /// Seat-rounds played.
        pub played: u64 => at_most(t.observed, "seat-rounds seen at that count"),
        /// Σ net per initial bet (units) and its squares, of the rounds played.
        pub net: i64 => unbounded("not checked: the main bet's share at this count"),
        pub net_xx: i64 => unbounded("not checked: the main bet's share at this count"),
        /// Σ bets (initial bets) and Σ money (net × bet, units), of the rounds played.
        pub bets: u64 => related,
        pub money: i128 => unbounded("not checked: the main bet's share at this count"),
        /// Seat-rounds with an ace up whose insurance decision was at this count (the count
        /// after the deal, every card seen so far: the count an insurance index is applied at)
        /// and how many of them a dealer blackjack followed (an insurance bet's outcome); of the
        /// seat-rounds seen at this count at the bet (played or not): pairs side bets won (first
        /// two cards a pair) and Σ net of a flat bet behind that declines doubles and splits
        /// (units).
        #[serde(default)]
        pub aces_up: u64 => at_most(t.observed, "seat-rounds seen at that count"),
        #[serde(default)]
        pub insurance_won: u64 => at_most(t.aces_up, "aces up at that count"),
        #[serde(default)]
        pub pairs_won: u64 => at_most(t.observed, "seat-rounds seen at that count"),
        #[serde(default)]
        pub behind_none: i64 => unbounded("not checked: the bet behind's share at this count"),
    }
    bounds(t)
}

sums! {
    /// One side bet's wagers at one true count: how many, and Σ result (what it paid back less
    /// the stake, in units), its squares and Σ units staked.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SideTc {
        pub n: u64 => related,
        pub x: i64 => unbounded("not checked: the wager's share at this count"),
        pub xx: i128 => unbounded("not checked: the wager's share at this count"),
        pub staked: u64 => related,
    }
    bounds(t)
}

sums! {
    /// The sums of the bankroll paths.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct RuinAcc {
        /// Trips played to their end (a chunk's last, unfinished trip is dropped).
        pub trips: u64 => related,
        /// Trips ruined, by the part of the trip it happened in (`count::RUIN_BINS` rows).
        pub ruined_by: Vec<u64> =>
            check(at_most("ruined_by", total(&r.ruined_by), r.trips, "trips")),
    }
    bounds(r)
}

impl RuinAcc {
    pub fn is_empty(&self) -> bool {
        self.trips == 0 && self.ruined_by.is_empty()
    }
}

/// A chunk's bankroll path: consecutive trips along the rounds the counter plays.
struct Path {
    /// The bankroll at a trip's start, in units.
    start: i64,
    trip: u64,
    level: i64,
    /// Rounds played in this trip, and the row it was ruined in (if it was).
    t: u64,
    ruined_in: Option<usize>,
    sums: RuinAcc,
}

impl Path {
    fn new(b: Bankroll, units: i64) -> Path {
        Path {
            start: b.units as i64 * units,
            trip: b.trip_rounds,
            level: b.units as i64 * units,
            t: 0,
            ruined_in: None,
            sums: RuinAcc {
                trips: 0,
                ruined_by: vec![0; RUIN_BINS],
            },
        }
    }

    /// One round played, with the counter's net money `m` (units).
    #[inline]
    fn step(&mut self, m: i64) {
        if self.ruined_in.is_none() {
            self.level += m;
            if self.level <= 0 {
                self.ruined_in = Some((self.t * RUIN_BINS as u64 / self.trip) as usize);
            }
        }
        self.t += 1;
        if self.t == self.trip {
            self.sums.trips += 1;
            if let Some(i) = self.ruined_in {
                self.sums.ruined_by[i] += 1;
            }
            self.level = self.start;
            self.t = 0;
            self.ruined_in = None;
        }
    }
}

impl CountAcc {
    pub fn is_empty(&self) -> bool {
        self.seat_rounds_out == 0 && self.by_tc.is_empty()
    }

    /// Trips end in rounds the counter played.
    fn relations(&self) -> Result<(), String> {
        let played = self.money.n;
        at_most(
            "ruin.trips",
            self.ruin.trips,
            played,
            "rounds the counter played",
        )
    }
}

impl BjAcc {
    /// A mixed table's seats: each one's sums within what one seat-round can hold, and
    /// together the table's main bet.
    fn seat_relations(&self, m: i128, b: i128) -> Result<(), String> {
        if self.seats.is_empty() {
            return Ok(());
        }
        if self.seats.len() > MAX_PLAYERS as usize {
            return Err(format!(
                "{} seats: a table has {MAX_PLAYERS} at most",
                self.seats.len()
            ));
        }
        let mut sum = (0i128, 0i128, 0u64);
        for (i, s) in self.seats.iter().enumerate() {
            s.main
                .plausible(&format!("seats[{i}].main"), m * b, b, true)?;
            s.per_round
                .plausible(&format!("seats[{i}].per_round"), 2 * m * b, 1, true)?;
            s.behind
                .plausible(&format!("seats[{i}].behind"), m, 1, true)?;
            s.behind_none
                .plausible(&format!("seats[{i}].behind_none"), m, 1, true)?;
            at_most(
                "seats.max_bet",
                s.max_bet,
                self.counts.max_bet,
                "the table's largest bet",
            )?;
            let n = s.main.n;
            if s.out.saturating_add(n) != self.counts.rounds {
                return Err(format!(
                    "seat {} played {n} and sat out {} of {} rounds",
                    i + 1,
                    s.out,
                    self.counts.rounds
                ));
            }
            if [s.per_round.n, s.behind.n, s.behind_none.n] != [n; 3] {
                return Err(format!("seat {} counts its rounds played unequally", i + 1));
            }
            sum = (sum.0 + s.main.x, sum.1 + s.main.y, sum.2 + n);
        }
        if sum != (self.main.x, self.main.y, self.main.n) {
            return Err(format!(
                "the seats' main bets (net {}, bets {}, seat-rounds {}) do not add up to the table's ({}, {}, {})",
                sum.0, sum.1, sum.2, self.main.x, self.main.y, self.main.n
            ));
        }
        Ok(())
    }

    /// The histogram has room for every net result of a seat-round per initial bet: its
    /// length (`m`) bounds one round's win, loss and wager in units, times the largest bet
    /// (`b`) in money.
    fn money_bounds(&self) -> (i128, i128) {
        let m = self
            .hist
            .room()
            .map_or(1, |(lo, hi)| hi as i128 - lo as i128 + 1);
        let b = self.counts.max_bet.max(1) as i128;
        (m, b)
    }

    /// The sums that bound one another: the histogram, the counts, the bets and the sums by
    /// up card and by true count all count the main bet's seat-rounds; a counter's money per
    /// round is bounded by the seats' results.
    fn relations(&self) -> Result<(), String> {
        let (m, b) = self.money_bounds();
        // A counter's money per round: every seat's net and insurance.
        let seats = MAX_PLAYERS as i128;
        let money = &self.count.money;
        money.plausible("count.money", 2 * seats * m * b, seats * b, true)?;
        let per_round = &self.count.per_round;
        per_round.plausible("count.per_round", 2 * seats * m * b, 1, true)?;
        let observed = &self.count.per_round_observed;
        observed.plausible("count.per_round_observed", 2 * seats * m * b, 1, true)?;
        at_most(
            "count.per_round_observed.n",
            observed.n,
            self.counts.rounds,
            "rounds",
        )?;
        at_most("count.money.n", money.n, self.counts.rounds, "rounds")?;
        let in_hist: u64 = self.hist.total();
        if in_hist != self.main.n {
            return Err(format!(
                "the result histogram counts {in_hist} seat-rounds, the main bet {}",
                self.main.n
            ));
        }
        let c = &self.counts;
        let out = self.count.seat_rounds_out
            + total(&self.seats.iter().map(|s| s.out).collect::<Vec<_>>());
        if c.seat_rounds != self.main.n || c.rounds > c.seat_rounds.saturating_add(out) {
            return Err(format!(
                "{} rounds and {} seat-rounds do not fit the main bet's {}",
                c.rounds, c.seat_rounds, self.main.n
            ));
        }
        if c.initial_bets != 0 && c.initial_bets as i128 != self.main.y {
            return Err(format!(
                "{} initial bets counted, the main bet staked {}",
                c.initial_bets, self.main.y
            ));
        }
        if !self.count.by_tc.is_empty() {
            let played: u64 = self.count.by_tc.iter().map(|t| t.played).sum();
            let seen: u64 = self.count.by_tc.iter().map(|t| t.observed).sum();
            if played != c.seat_rounds || seen != c.seat_rounds + out {
                return Err(format!(
                    "the true counts hold {played} seat-rounds played of {seen}, the run {} of {}",
                    c.seat_rounds,
                    c.seat_rounds + out
                ));
            }
            let bets: u64 = self.count.by_tc.iter().map(|t| t.bets).sum();
            if bets as i128 != self.main.y {
                return Err(format!(
                    "the true counts hold {bets} initial bets, the main bet {}",
                    self.main.y
                ));
            }
        }
        self.seat_relations(m, b)?;
        // Every seat-round has an up card: the sums by up card add up to the main bet's.
        let up = self.by_up.iter().fold((0i128, 0i128, 0u64), |s, r| {
            (s.0 + r.x, s.1 + r.y, s.2 + r.n)
        });
        if up != (self.main.x, self.main.y, self.main.n) {
            return Err(format!(
                "the sums by up card (net {}, bets {}, seat-rounds {}) do not add up to the main bet's ({}, {}, {})",
                up.0, up.1, up.2, self.main.x, self.main.y, self.main.n
            ));
        }
        // Betting flat (one unit bet), the result histogram holds every seat-round's net: its
        // sum and sum of squares are the main bet's.
        if c.max_bet <= 1 && self.count.is_empty() {
            let (sx, sxx) = self.hist.bins().fold((0i128, 0i128), |s, (v, h)| {
                let v = v as i128;
                (s.0 + v * h as i128, s.1 + v * v * h as i128)
            });
            if (sx, sxx) != (self.main.x, self.main.xx) {
                return Err(format!(
                    "the result histogram's net {sx} and sum of squares {sxx} are not the main bet's {} and {}",
                    self.main.x, self.main.xx
                ));
            }
        }
        let dealt: u64 = self.dealer.iter().flatten().sum();
        if dealt > c.rounds {
            return Err(format!("{dealt} dealer outcomes in {} rounds", c.rounds));
        }
        let seen = c.seat_rounds.saturating_add(self.count.seat_rounds_out);
        let paying = self.count.pairs_paying;
        at_most("count.pairs_paying", paying, seen, "seat-rounds seen")
    }
}

/// The most cards one round can deal: every hand of every seat and the dealer's, none
/// taking more than 22 (a total of 21 or less before its last card).
const MAX_CARDS_PER_ROUND: u64 = (MAX_PLAYERS as u64 * MAX_HANDS as u64 + 1) * 22;

/// Offset of the histogram: the largest possible loss in units.
pub fn hist_offset(rules: &Rules) -> i64 {
    2 * rules.max_hands as i64 * rules.units_per_bet()
}

/// One chunk's running sums, kept to the fewest additions per seat-round: with flat betting
/// the main bet's Σx and Σx² come from the chunk's histogram of net results, the denominators
/// from the counts, and the side bets from counts of wins; with bets (`Player::BETS`) the
/// money's sums and squares are added up directly. `close` turns them into the batches.
#[derive(Default)]
struct ChunkSums {
    /// Units per initial bet (`Rules::units_per_bet`).
    units: i64,
    /// The bankroll path (a counter with `--bankroll` only).
    path: Option<Path>,
    wagered: i64,
    by_up_net: [i64; 10],
    pairs_won: u64,
    insurance_won: u64,
    insurance_lost: u64,
    behind_none: i64,
    /// With bets only.
    bets: BetSums,
    /// Side bets from paytables: how each settles, and its sums.
    settle: Vec<crate::sidebet::Settle>,
    sides: Vec<crate::sidebet::SideChunk>,
    /// A counter's side bets by the count at the bet (`CountAcc::side_by_tc`).
    side_tc: Vec<SideTc>,
    /// Each seat's sums (`Player::PER_SEAT` only).
    seats: Vec<SeatChunk>,
}

/// Sums of money kept only when bets vary (squares in i128: a large bet squared overflows).
#[derive(Default)]
struct BetSums {
    net: i64,
    net_xx: i128,
    bets: i64,
    max_bet: u32,
    by_up_bets: [i64; 10],
    pairs: i64,
    pairs_xx: i128,
    insurance: i64,
    insurance_staked: i64,
    insurance_xx: i128,
    /// Seat-rounds sat out (bet 0), in all and by up card.
    out: u64,
    by_up_out: [u64; 10],
    /// By true count (with `Player::CLASSES` only).
    tc: [TcSums; crate::games::blackjack::count::TC_BINS],
    /// The counter's money (main bets and insurance, all its spots) and its squares per round
    /// it plays, and those rounds (with `Player::CLASSES` only).
    money: i64,
    money_xx: i128,
    rounds_played: u64,
    pairs_paying: u64,
    pairs_paying_won: u64,
}

impl ChunkSums {
    #[inline(always)]
    /// Add one round (`bets`: whether bets can differ from one initial bet; a constant, so
    /// the flat path compiles without the money sums). Rounds, seat-rounds, dealer blackjacks
    /// and busts, and rounds by up card are not counted here: `close` reads them off the
    /// chunk's dealer outcomes.
    fn record(
        &mut self,
        (bets, classes, per_seat): (bool, bool, bool),
        r: &RoundResult,
        acc: &mut BjAcc,
    ) {
        let c = &mut acc.counts;
        let up = (r.up - 1) as usize;
        acc.dealer[up][r.dealer] += 1;
        let seats = &r.seats[..r.players];
        let mut net = 0;
        // The counter's money this round (main bets and insurance), and whether it played.
        let (mut round_money, mut played) = (0i64, false);
        for s in seats {
            if bets {
                if classes {
                    if let Some(money) = self.record_class(s, r) {
                        round_money += money;
                        played = true;
                    }
                }
                if s.bet == 0 {
                    self.bets.out += 1;
                    self.bets.by_up_out[up] += 1;
                    continue;
                }
            }
            c.naturals += s.natural as u64;
            c.doubles += s.doubles as u64;
            c.splits += s.splits as u64;
            c.surrenders += s.surrendered as u64;
            c.hands_played += s.hands as u64;
            c.player_busts += s.busts as u64;
            if bets {
                let b = s.bet as i64;
                let money = s.net * b;
                net += money;
                self.wagered += s.wagered * b;
                let m = &mut self.bets;
                m.net_xx += (money as i128) * (money as i128);
                m.bets += b;
                m.by_up_bets[up] += b;
                m.max_bet = m.max_bet.max(s.bet);
                let pairs = s.pairs * b;
                m.pairs += pairs;
                m.pairs_xx += (pairs as i128) * (pairs as i128);
            } else {
                net += s.net;
                self.wagered += s.wagered;
                self.pairs_won += (s.pairs > 0) as u64;
            }
            self.behind_none += s.behind_none;
            acc.hist.add(s.net);
        }
        if !self.settle.is_empty() {
            self.record_sides(bets, classes, r);
        }
        self.by_up_net[up] += net;
        if bets {
            self.bets.net += net;
        }
        if played {
            let m = &mut self.bets;
            m.money += round_money;
            m.money_xx += (round_money as i128) * (round_money as i128);
            m.rounds_played += 1;
            if let Some(p) = &mut self.path {
                p.step(round_money);
            }
        }
        if r.up == 1 {
            self.record_insurance(bets, r, c);
        }
        if per_seat {
            self.record_seats(r);
        }
    }

    /// Each seat's own sums (a mixed table): its main bet, its money per round played with
    /// insurance, and a bet behind it.
    #[inline(never)]
    fn record_seats(&mut self, r: &RoundResult) {
        let bj = r.dealer_bj();
        for (s, k) in r.seats[..r.players].iter().zip(&mut self.seats) {
            if s.bet == 0 {
                k.out += 1;
                continue;
            }
            let b = s.bet as i64;
            let money = s.net * b;
            // Insurance costs half the bet and pays 2:1.
            let ins = match (s.insured, bj) {
                (false, _) => 0,
                (true, true) => self.units * b,
                (true, false) => -(self.units / 2) * b,
            };
            let round = money + ins;
            k.n += 1;
            k.money += money;
            k.money_xx += (money as i128) * (money as i128);
            k.bets += b;
            k.max_bet = k.max_bet.max(s.bet);
            k.round += round;
            k.round_xx += (round as i128) * (round as i128);
            k.behind += s.net;
            k.behind_xx += (s.net as i128) * (s.net as i128);
            k.behind_none += s.behind_none;
            k.behind_none_xx += (s.behind_none as i128) * (s.behind_none as i128);
        }
    }

    /// The side bets from paytables of every seat that bet, on the round's first cards; a
    /// counter's (`classes`) by its count at the bet too, whether it bet or sat out.
    #[cold]
    fn record_sides(&mut self, bets: bool, classes: bool, r: &RoundResult) {
        let p = r.players;
        let bins = crate::games::blackjack::count::TC_BINS;
        for (i, seat) in r.seats[..p].iter().enumerate() {
            let placed = !(bets && seat.bet == 0);
            if !placed && !classes {
                continue;
            }
            let row = (seat.class & !PAIRS_PAY) as usize;
            let deal = crate::sidebet::BjDeal {
                two: [r.ids[i], r.ids[p + 1 + i]],
                up: r.ids[p],
                dealer_bj: r.dealer_bj(),
                dealer_cards: r.dealer_cards,
                dealer_bust: r.dealer == super::round::DEALER_BUST,
            };
            for (j, (settle, sums)) in self.settle.iter().zip(&mut self.sides).enumerate() {
                let result = settle.result(settle.table.bj_paid(&deal));
                if placed {
                    sums.add(result, settle.units);
                }
                if classes {
                    let t = &mut self.side_tc[j * bins + row];
                    t.n += 1;
                    t.x += result;
                    t.xx += (result as i128) * (result as i128);
                    t.staked += settle.units as u64;
                }
            }
        }
    }

    /// A counter's seat by its true count class: observed, played, its money and insurance.
    /// The seat's money this round (main bet and insurance) if it played.
    #[inline(always)]
    fn record_class(&mut self, s: &SeatResult, r: &RoundResult) -> Option<i64> {
        if s.class & PAIRS_PAY != 0 {
            self.bets.pairs_paying += 1;
            self.bets.pairs_paying_won += (s.pairs > 0) as u64;
        }
        let t = &mut self.bets.tc[(s.class & !PAIRS_PAY) as usize];
        t.observed += 1;
        t.pairs_won += (s.pairs > 0) as u64;
        t.behind_none += s.behind_none;
        let mut money = None;
        if s.bet > 0 {
            let b = s.bet as i64;
            t.played += 1;
            t.net += s.net;
            t.net_xx += s.net * s.net;
            t.bets += s.bet as u64;
            t.money += (s.net * b) as i128;
            // Insurance costs half the bet and pays 2:1.
            let ins = match (s.insured, r.dealer_bj()) {
                (false, _) => 0,
                (true, true) => self.units * b,
                (true, false) => -(self.units / 2) * b,
            };
            money = Some(s.net * b + ins);
        }
        if r.up == 1 {
            // Insurance by the count at its decision, not at the bet.
            let t = &mut self.bets.tc[s.insurance_class as usize];
            t.aces_up += 1;
            t.insurance_won += r.dealer_bj() as u64;
        }
        money
    }

    /// Insurance offered to every seat that bet (an ace up), taken, won or lost.
    #[inline(always)]
    fn record_insurance(&mut self, bets: bool, r: &RoundResult, c: &mut Counts) {
        for s in &r.seats[..r.players] {
            if bets && s.bet == 0 {
                continue;
            }
            c.insurance_offered += 1;
            if s.insured {
                c.insurance_taken += 1;
                let won = r.dealer_bj();
                if won {
                    self.insurance_won += 1;
                } else {
                    self.insurance_lost += 1;
                }
                if bets {
                    let b = s.bet as i64;
                    let x = if won { 2 * b } else { -b };
                    let m = &mut self.bets;
                    m.insurance += x;
                    m.insurance_staked += b;
                    m.insurance_xx += (x as i128) * (x as i128);
                }
            }
        }
    }

    /// Close the chunk: the counts read off the dealer outcomes, then the batches. `acc` holds
    /// this chunk only.
    fn close(&self, bets: bool, classes: bool, acc: &mut BjAcc, players: u64) {
        let mut by_up_rounds = [0u64; 10];
        for (up, outcomes) in acc.dealer.iter().enumerate() {
            by_up_rounds[up] = outcomes.iter().sum();
            acc.counts.rounds += by_up_rounds[up];
            acc.counts.dealer_blackjacks += outcomes[super::round::DEALER_BJ];
            acc.counts.dealer_busts += outcomes[super::round::DEALER_BUST];
        }
        let out = if bets { self.bets.out } else { 0 };
        let n = acc.counts.rounds * players - out;
        acc.counts.seat_rounds += n;
        let behind = Batch {
            x: self.behind_none,
            y: n as i64,
            xx: 0,
        };
        acc.behind_none.close(&behind, n);
        acc.sides = vec![Ratio::default(); self.sides.len()];
        for (sums, ratio) in self.sides.iter().zip(&mut acc.sides) {
            sums.close(ratio);
        }
        if bets {
            self.close_bets(classes, acc, n, &by_up_rounds, players);
        } else {
            self.close_flat(acc, n, &by_up_rounds, players);
        }
    }

    /// [`close`](Self::close) of a run with bets: the money's sums as added up.
    fn close_bets(
        &self,
        classes: bool,
        acc: &mut BjAcc,
        n: u64,
        by_up_rounds: &[u64; 10],
        players: u64,
    ) {
        let (iw, il) = (self.insurance_won as i64, self.insurance_lost as i64);
        {
            let m = &self.bets;
            acc.counts.initial_bets += m.bets as u64;
            acc.counts.max_bet = acc.counts.max_bet.max(m.max_bet as u64);
            if classes {
                acc.count.seat_rounds_out += m.out;
                acc.count.pairs_paying += m.pairs_paying;
                acc.count.pairs_paying_won += m.pairs_paying_won;
                acc.count.by_tc = m.tc.to_vec();
                acc.count.side_by_tc = self.side_tc.clone();
                let (x, y) = (m.money as i128, m.bets as i128);
                acc.count
                    .money
                    .close_wide(x, y, m.money_xx, m.rounds_played);
                let rounds = m.rounds_played as i128;
                acc.count
                    .per_round
                    .close_wide(x, rounds, m.money_xx, m.rounds_played);
                // `acc` holds this chunk only: its rounds are the rounds it dealt.
                let dealt = acc.counts.rounds;
                acc.count
                    .per_round_observed
                    .close_wide(x, dealt as i128, m.money_xx, dealt);
                if let Some(p) = &self.path {
                    acc.count.ruin = p.sums.clone();
                }
            }
            acc.main
                .close_wide(m.net as i128, m.bets as i128, m.net_xx, n);
            let wagered = Batch {
                x: m.net,
                y: self.wagered,
                xx: 0,
            };
            acc.wagered.close(&wagered, n);
            let by_up = self.by_up_net.iter().zip(&m.by_up_bets).zip(by_up_rounds);
            let by_up = by_up.zip(&m.by_up_out);
            for (ratio, (((&net, &staked), &rounds), &out)) in acc.by_up.iter_mut().zip(by_up) {
                let b = Batch {
                    x: net,
                    y: staked,
                    xx: 0,
                };
                ratio.close(&b, rounds * players - out);
            }
            let (px, py) = (m.pairs as i128, m.bets as i128);
            acc.pairs.close_wide(px, py, m.pairs_xx, n);
            let (ix, iy) = (m.insurance as i128, m.insurance_staked as i128);
            acc.insurance
                .close_wide(ix, iy, m.insurance_xx, (iw + il) as u64);
        }
    }

    /// [`close`](Self::close) of a flat run: the main bet's sums from the histogram, the side
    /// bets' from counts of wins.
    fn close_flat(&self, acc: &mut BjAcc, n: u64, by_up_rounds: &[u64; 10], players: u64) {
        let ni = n as i64;
        let (iw, il) = (self.insurance_won as i64, self.insurance_lost as i64);
        acc.counts.initial_bets += n;
        if n > 0 {
            acc.counts.max_bet = acc.counts.max_bet.max(1);
        }
        let (mut x, mut xx) = (0i64, 0i64);
        for (v, k) in acc.hist.bins() {
            x += v * k as i64;
            xx += v * v * k as i64;
        }
        acc.main.close(&Batch { x, y: ni, xx }, n);
        acc.wagered.close(
            &Batch {
                x,
                y: self.wagered,
                xx: 0,
            },
            n,
        );
        for ((ratio, &net), &rounds) in acc.by_up.iter_mut().zip(&self.by_up_net).zip(by_up_rounds)
        {
            let m = rounds * players;
            let b = Batch {
                x: net,
                y: m as i64,
                xx: 0,
            };
            ratio.close(&b, m);
        }
        let w = self.pairs_won as i64;
        let pairs = Batch {
            x: 12 * w - ni,
            y: ni,
            xx: 121 * w + (ni - w),
        };
        acc.pairs.close(&pairs, n);
        let insurance = Batch {
            x: 2 * iw - il,
            y: iw + il,
            xx: 4 * iw + il,
        };
        acc.insurance.close(&insurance, (iw + il) as u64);
    }
}

/// A blackjack simulation: rules, who plays (any [`Seats`], e.g. a fixed
/// [`Strategy`](super::strategy::Strategy)), and shoes per chunk. Each chunk gets a fresh
/// player.
pub struct BjSim<'a, S: Seats> {
    pub rules: &'a Rules,
    pub strategy: &'a S,
    /// Shoes per chunk (with shuffle-every-round, a shoe is one round).
    pub shoes_per_chunk: u64,
    /// Bankroll paths of a counter (`CountSpec::bankroll`).
    pub bankroll: Option<Bankroll>,
    /// Side bets from paytables, placed by every seat that bets.
    pub sides: &'a [crate::sidebet::SideBet],
}

impl<S: Seats> Simulation for BjSim<'_, S> {
    type Acc = BjAcc;

    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut BjAcc) {
        debug_assert_eq!(
            acc.counts.rounds, 0,
            "run_chunk starts from a fresh accumulator"
        );
        let offset = hist_offset(self.rules);
        acc.hist = Histogram::spanning(-offset, offset);
        let mut table = Table::new(self.rules, self.strategy);
        table.side_cards = !self.sides.is_empty();
        // Before any draw from the chunk's stream: the side stream is (seed, chunk)'s alone.
        table.player.side_stream(&crate::rng::side_rng(rng));
        let players = self.rules.players as u64;
        let units = self.rules.units_per_bet();
        let sums = ChunkSums {
            units,
            path: self.bankroll.map(|b| Path::new(b, units)),
            settle: self.sides.iter().map(crate::sidebet::Settle::of).collect(),
            sides: vec![Default::default(); self.sides.len()],
            ..ChunkSums::default()
        };
        run_shoes(table, sums, self.shoes_per_chunk, players, rng, acc);
        let main = &acc.main;
        acc.trace.push([chunk as i64, main.x as i64, main.y as i64]);
    }
}

/// Play a chunk's shoes at `table` into `acc` (fresh, its histogram sized), with `sums` fresh.
#[inline(always)]
fn run_shoes<P: Player>(
    mut table: Table<'_, P>,
    mut sums: ChunkSums,
    shoes: u64,
    players: u64,
    rng: &mut Rng,
    acc: &mut BjAcc,
) {
    if P::BETS && P::CLASSES {
        let bins = crate::games::blackjack::count::TC_BINS;
        sums.side_tc = vec![SideTc::default(); sums.settle.len() * bins];
    }
    let per_seat = P::BETS && P::PER_SEAT;
    if per_seat {
        sums.seats = vec![SeatChunk::default(); players as usize];
    }
    for _ in 0..shoes {
        // Each shoe has a stream of its own, so the cards it deals do not depend on how
        // earlier shoes were played (common random numbers across strategies).
        let mut shoe_rng = Rng::seed_from_u64(rng.next_u64());
        let kinds = (P::BETS, P::BETS && P::CLASSES, per_seat);
        table.play_shoe(&mut shoe_rng, |r| sums.record(kinds, r, acc));
    }
    acc.counts.shoes += shoes;
    acc.counts.reshuffles_mid_round += table.shoe.reshuffles_mid_round;
    sums.close(P::BETS, P::BETS && P::CLASSES, acc, players);
    if per_seat {
        acc.seats = sums.seats.iter().map(SeatChunk::close).collect();
    }
}

/// How a requested round count maps onto chunks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub shoes_per_chunk: u64,
    pub chunks: u64,
    /// Rounds per shoe measured by the pilot (1 with shuffle-every-round).
    pub pilot_rounds_per_shoe: f64,
}

/// Default shoes per chunk for dealing to a cut card (about 230 000 rounds at 8 decks).
pub const DEFAULT_CHUNK_SHOES: u64 = 4096;
/// Default rounds per chunk when shuffling every round.
pub const DEFAULT_CHUNK_ROUNDS: u64 = 262_144;
/// Chunks wanted at least, for batch-means standard errors.
const MIN_CHUNKS: u64 = 64;

/// Most rounds of one run, all its shards together.
pub const MAX_ROUNDS: u64 = 10_000_000_000_000_000;
/// Most rounds one process (one shard) is asked to play: about four months at 10^7 rounds/s.
pub const MAX_ROUNDS_PER_SHARD: u64 = 100_000_000_000_000;

/// A run whose size cannot be honoured, with what to change.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RunSizeError {
    #[error("--chunk-shoes {chunk_shoes} makes one chunk about {chunk_rounds:.0} rounds, more than --rounds {rounds}: use --chunk-shoes {max} or less (or leave it out)")]
    ChunkTooLarge {
        chunk_shoes: u64,
        chunk_rounds: f64,
        rounds: u64,
        max: u64,
    },
    #[error("--rounds {rounds} in {shards} shard(s) is {per_shard} rounds per shard, more than one process plays (1e14): use --shard K/N with N at least {needed}")]
    ShardTooLarge {
        rounds: u64,
        shards: u64,
        per_shard: u64,
        needed: u64,
    },
}

impl Plan {
    /// Refuse a plan that would run far more than asked (a chunk larger than the run) or more
    /// than one process should (`shards` = the number of shards the run is split into).
    pub fn check(
        &self,
        rounds: u64,
        chunk_shoes: Option<u64>,
        shards: u64,
    ) -> Result<(), RunSizeError> {
        if let Some(cs) = chunk_shoes {
            let max = ((rounds as f64 / self.pilot_rounds_per_shoe).floor() as u64).max(1);
            if cs > max {
                return Err(RunSizeError::ChunkTooLarge {
                    chunk_shoes: cs,
                    chunk_rounds: cs as f64 * self.pilot_rounds_per_shoe,
                    rounds,
                    max,
                });
            }
        }
        let per_shard = rounds.div_ceil(shards.max(1));
        if per_shard > MAX_ROUNDS_PER_SHARD {
            return Err(RunSizeError::ShardTooLarge {
                rounds,
                shards,
                per_shard,
                needed: rounds.div_ceil(MAX_ROUNDS_PER_SHARD),
            });
        }
        Ok(())
    }
}

/// Plan a run of about `rounds` rounds. With a cut card, rounds per shoe depend on rules and
/// strategy, so a pilot of 64 shoes from a stream of its own (seed, chunk u64::MAX) measures
/// them; the plan is a function of (rules, strategy, seed, rounds) only, so every thread
/// count and every shard computes the same one. `chunk_shoes` overrides the chunk size.
pub fn plan<S: Seats>(
    rules: &Rules,
    strategy: &S,
    seed: u64,
    rounds: u64,
    chunk_shoes: Option<u64>,
) -> Plan {
    let per_shoe = match rules.shuffle {
        Shuffle::EveryRound => 1.0,
        Shuffle::CutCard { .. } => {
            let mut rng = crate::rng::chunk_rng(seed, u64::MAX);
            let mut table = Table::new(rules, strategy);
            let mut n = 0u64;
            let pilot = 64;
            for _ in 0..pilot {
                table.play_shoe(&mut rng, |_| n += 1);
            }
            n as f64 / pilot as f64
        }
    };
    let default = match rules.shuffle {
        Shuffle::EveryRound => DEFAULT_CHUNK_ROUNDS,
        Shuffle::CutCard { .. } => DEFAULT_CHUNK_SHOES,
    };
    let shoes_per_chunk = chunk_shoes.unwrap_or_else(|| {
        let shoes = rounds as f64 / per_shoe;
        ((shoes / MIN_CHUNKS as f64).floor() as u64).clamp(1, default)
    });
    let chunks = ((rounds as f64 / (per_shoe * shoes_per_chunk as f64)).ceil() as u64).max(1);
    Plan {
        shoes_per_chunk,
        chunks,
        pilot_rounds_per_shoe: per_shoe,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Merge;
    use crate::games::blackjack::resolve::seed_chart;
    use crate::games::blackjack::strategy::{Action, AlwaysInsure, Chart, Situation, Strategy};
    use crate::rng::chunk_rng;

    /// A bettor over a chart: seat 0 ramps (1 after a shuffle, 4 from the 20th card seen
    /// on), seat 1 bets `k` every round. `B`: whether the table is told bets vary (false: the
    /// table plays flat and a test asks the bets itself).
    struct Ramp<'a, S, const B: bool> {
        s: &'a S,
        k: u32,
        seen: u32,
        ramp: bool,
    }

    impl<S: Strategy, const B: bool> Player for Ramp<'_, S, B> {
        const BETS: bool = B;
        const SEES: bool = true;
        fn bet(&mut self, seat: usize) -> u32 {
            match seat {
                0 if self.ramp && self.seen >= 20 => 4,
                0 if self.ramp => 1,
                _ => self.k,
            }
        }
        fn act(&mut self, _seat: usize, s: &Situation) -> Action {
            self.s.act(s)
        }
        fn insure(&mut self, _seat: usize, total: u8, soft: bool) -> bool {
            self.s.insure(total, soft)
        }
        fn see(&mut self, _card: crate::cards::Rank) {
            self.seen += 1;
        }
        fn shuffled(&mut self) {
            self.seen = 0;
        }
    }

    /// The prototype of `Ramp` players (seat 0 ramping when `ramp`, else betting `k` too).
    struct Bettor<S> {
        s: S,
        k: u32,
        ramp: bool,
    }

    impl<S: Strategy> Seats for Bettor<S> {
        type Player<'a>
            = Ramp<'a, S, true>
        where
            S: 'a;
        fn player(&self) -> Ramp<'_, S, true> {
            Ramp {
                s: &self.s,
                k: self.k,
                seen: 0,
                ramp: self.ramp,
            }
        }
    }

    fn insured_chart() -> AlwaysInsure<Chart> {
        AlwaysInsure(seed_chart())
    }

    fn two_seats() -> Rules {
        let mut rules = Rules::seed();
        rules.players = 2;
        rules
    }

    /// Chunk 3 of a run of seed 11.
    fn chunk<S: Seats>(rules: &Rules, s: &S, shoes: u64) -> BjAcc {
        chunks(rules, s, shoes, 3..4)
    }

    /// Chunks of a run of seed 11, merged.
    fn chunks<S: Seats>(rules: &Rules, s: &S, shoes: u64, range: std::ops::Range<u64>) -> BjAcc {
        let sim = BjSim {
            rules,
            strategy: s,
            shoes_per_chunk: shoes,
            bankroll: None,
            sides: &[],
        };
        let mut all = BjAcc::default();
        for c in range {
            let mut acc = BjAcc::default();
            sim.run_chunk(c, &mut chunk_rng(11, c), &mut acc);
            all.merge(&acc);
        }
        all
    }

    /// `r` with every money sum times `k` (x, y) or `k²` (squares).
    fn scaled(r: &Ratio, k: i128) -> Ratio {
        Ratio {
            x: r.x * k,
            y: r.y * k,
            xx: r.xx * k * k,
            bxx: r.bxx * k * k,
            bxy: r.bxy * k * k,
            byy: r.byy * k * k,
            ..*r
        }
    }

    #[test]
    fn a_constant_bet_of_k_scales_every_money_sum_by_k() {
        let rules = two_seats();
        let chart = insured_chart();
        let flat = chunks(&rules, &chart, 100, 0..4);
        assert!(flat.insurance.n > 0 && flat.counts.doubles > 0 && flat.counts.splits > 0);
        assert_eq!(flat.counts.initial_bets, flat.counts.seat_rounds);
        assert_eq!(flat.counts.max_bet, 1);
        // Betting 1 through the bettor's path (money summed per round) is the flat run
        // exactly (its sums come from the histogram).
        let one = Bettor {
            s: insured_chart(),
            k: 1,
            ramp: false,
        };
        assert_eq!(chunks(&rules, &one, 100, 0..4), flat);
        for k in [3u32, 1000] {
            let bettor = Bettor {
                s: insured_chart(),
                k,
                ramp: false,
            };
            let acc = chunks(&rules, &bettor, 100, 0..4);
            let ki = k as i128;
            let mut want = flat.clone();
            want.main = scaled(&flat.main, ki);
            want.wagered = scaled(&flat.wagered, ki);
            for (w, f) in want.by_up.iter_mut().zip(&flat.by_up) {
                *w = scaled(f, ki);
            }
            want.pairs = scaled(&flat.pairs, ki);
            want.insurance = scaled(&flat.insurance, ki);
            // The bet behind stays one initial bet, the histogram is per the seat's own bet.
            want.counts.initial_bets = flat.counts.seat_rounds * k as u64;
            want.counts.max_bet = k as u64;
            let k64 = k as i64;
            want.trace = flat
                .trace
                .iter()
                .map(|&[c, x, y]| [c, x * k64, y * k64])
                .collect();
            assert_eq!(acc, want, "k = {k}");
            crate::shard::Plausible::plausible(&acc).unwrap();
            // Per initial unit staked: the same EV and SE.
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
            for (a, f) in [
                (&acc.main, &flat.main),
                (&acc.pairs, &flat.pairs),
                (&acc.insurance, &flat.insurance),
            ] {
                assert!(close(a.mean(), f.mean()), "{} {}", a.mean(), f.mean());
                assert!(close(a.se(), f.se()), "{} {}", a.se(), f.se());
            }
        }
    }

    /// A count forged beyond what the rounds allow (10^12 player busts printed "player bust
    /// 1957123%") is refused, naming the field.
    #[test]
    fn counts_beyond_what_the_rounds_allow_are_refused() {
        use crate::shard::Plausible;
        let acc = chunk(&two_seats(), &insured_chart(), 50);
        acc.plausible().unwrap();
        let v = serde_json::to_value(&acc).unwrap();
        for field in [
            "shoes",
            "naturals",
            "surrenders",
            "insurance_offered",
            "insurance_taken",
            "hands_played",
            "doubles",
            "splits",
            "player_busts",
            "dealer_blackjacks",
            "dealer_busts",
            "reshuffles_mid_round",
            "max_bet",
        ] {
            let mut f = v.clone();
            f["counts"][field] = 1_000_000_000_000_000u64.into();
            let forged: BjAcc = serde_json::from_value(f).unwrap();
            let e = forged.plausible().unwrap_err();
            let want = format!("counts.{field} = 1000000000000000 is more than the ");
            assert!(e.starts_with(&want), "{field}: {e}");
        }
    }

    #[test]
    fn a_bet_ramp_stakes_each_round_at_its_own_bet() {
        let rules = two_seats();
        let shoes = 200;
        let bettor = Bettor {
            s: insured_chart(),
            k: 2,
            ramp: true,
        };
        let acc = chunk(&rules, &bettor, shoes);
        crate::shard::Plausible::plausible(&acc).unwrap();

        // Replay: the same shoes (same streams, same decisions) at a flat table; the test
        // asks the ramp's bet before each round and weighs the per-bet results itself.
        let mut t = Table::with_player(
            &rules,
            Ramp::<_, false> {
                s: &bettor.s,
                k: 2,
                seen: 0,
                ramp: true,
            },
        );
        let mut rng = chunk_rng(11, 3); // as `chunk`
        let (mut net, mut net_xx, mut staked, mut wagered) = (0i128, 0i128, 0i128, 0i128);
        let (mut pairs, mut pairs_xx, mut behind) = (0i128, 0i128, 0i128);
        let (mut ins, mut ins_staked, mut ins_xx, mut ins_n) = (0i128, 0i128, 0i128, 0u64);
        let mut by_up = [(0i128, 0i128); 10];
        let mut ramped = [0u64; 5];
        for _ in 0..shoes {
            let mut shoe_rng = Rng::seed_from_u64(rng.next_u64());
            t.shoe.reshuffle();
            t.player.shuffled();
            loop {
                let bets = [t.player.bet(0), t.player.bet(1)];
                ramped[bets[0] as usize] += 1;
                let r = t.play_round(&mut shoe_rng);
                for (s, &b) in r.seats[..2].iter().zip(&bets) {
                    assert_eq!(s.bet, 1, "the replay table plays flat");
                    let b = b as i128;
                    let money = s.net as i128 * b;
                    net += money;
                    net_xx += money * money;
                    staked += b;
                    wagered += s.wagered as i128 * b;
                    pairs += s.pairs as i128 * b;
                    pairs_xx += (s.pairs as i128 * b).pow(2);
                    behind += s.behind_none as i128;
                    by_up[r.up as usize - 1].0 += money;
                    by_up[r.up as usize - 1].1 += b;
                    if r.up == 1 && s.insured {
                        let x = if r.dealer_bj() { 2 * b } else { -b };
                        ins += x;
                        ins_staked += b;
                        ins_xx += x * x;
                        ins_n += 1;
                    }
                }
                if t.shoe.past_cut() {
                    break;
                }
            }
        }
        assert!(ramped[1] > 300 && ramped[4] > 3000, "{ramped:?}");
        assert_eq!((acc.main.x, acc.main.y, acc.main.xx), (net, staked, net_xx));
        assert_eq!((acc.wagered.x, acc.wagered.y), (net, wagered));
        assert_eq!(
            (acc.pairs.x, acc.pairs.y, acc.pairs.xx),
            (pairs, staked, pairs_xx)
        );
        let insurance = (acc.insurance.x, acc.insurance.y, acc.insurance.xx);
        assert_eq!(insurance, (ins, ins_staked, ins_xx));
        assert_eq!(acc.insurance.n, ins_n);
        assert_eq!(acc.behind_none.x, behind);
        for (r, &(x, y)) in acc.by_up.iter().zip(&by_up) {
            assert_eq!((r.x, r.y), (x, y));
        }
        assert_eq!(acc.counts.initial_bets as i128, staked);
        assert_eq!(acc.counts.max_bet, 4);
        // Everything but money is as for the flat chart: counts, dealer outcomes and the
        // histogram of results per initial bet.
        let flat = chunk(&rules, &bettor.s, shoes);
        assert_eq!(acc.hist, flat.hist);
        let counts = Counts {
            initial_bets: flat.counts.initial_bets,
            max_bet: 1,
            ..acc.counts
        };
        assert_eq!(counts, flat.counts);
        assert_eq!(acc.dealer, flat.dealer);
        assert_eq!(acc.main.n, flat.main.n);
    }

    #[test]
    fn plans_larger_than_asked_are_refused() {
        let p = Plan {
            shoes_per_chunk: 10,
            chunks: 1,
            pilot_rounds_per_shoe: 50.0,
        };
        // 1,000 rounds hold 20 shoes of 50: 20 shoes per chunk is fine, 21 is not.
        assert_eq!(p.check(1000, Some(20), 1), Ok(()));
        assert!(matches!(
            p.check(1000, Some(21), 1),
            Err(RunSizeError::ChunkTooLarge { max: 20, .. })
        ));
        // A run smaller than one shoe still plays one shoe.
        assert_eq!(p.check(10, Some(1), 1), Ok(()));
        assert!(p.check(10, Some(2), 1).is_err());
        // 1e14 rounds per shard at most.
        assert_eq!(p.check(MAX_ROUNDS_PER_SHARD, None, 1), Ok(()));
        assert_eq!(
            p.check(MAX_ROUNDS_PER_SHARD + 1, None, 1),
            Err(RunSizeError::ShardTooLarge {
                rounds: MAX_ROUNDS_PER_SHARD + 1,
                shards: 1,
                per_shard: MAX_ROUNDS_PER_SHARD + 1,
                needed: 2
            })
        );
        assert_eq!(p.check(2 * MAX_ROUNDS_PER_SHARD, None, 2), Ok(()));
    }
}
