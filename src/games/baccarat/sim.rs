//! The baccarat simulation: accumulators, the chunk plan and the coup loop.

use serde::{Deserialize, Serialize};

use super::bet::{settle, Bettor, Spot};
use super::coup::{deal, Coup, Winner};
use super::rules::{BacRules, Shuffle, SCALE};
use crate::cards::{value, Shoe};
use crate::engine::Simulation;
use crate::histogram::Histogram;
use crate::rng::{Rng, RngCore, SeedableRng};
use crate::stats::{Batch, Ratio};
use crate::sums::sums;

/// Coups of a session when the shoe is shuffled every coup (about a shoe's worth).
pub const SESSION_COUPS: u64 = 80;

/// The outcomes counted, in the order of `BacAcc::outcomes`.
pub const OUTCOMES: [&str; 7] = [
    "banker wins",
    "player wins",
    "tie",
    "banker wins with 6",
    "natural (8 or 9 on two cards)",
    "player pair",
    "banker pair",
];

sums! {
    /// Counts of a run.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Counts {
        pub coups: u64 => related,
        /// Sessions: shoes (or `SESSION_COUPS` coups when shuffling every coup).
        pub sessions: u64 => related,
        pub cards: u64 => related,
        /// Times a martingale's doubled stake would have passed the table maximum.
        pub limit_hits: u64 => at_most(c.coups, "coups"),
        /// The largest stake of a main bet, in units.
        pub max_stake: u64 =>
            merge(max) at_most(MAX_TABLE, "units of the largest table maximum"),
        // At most one mid-coup reshuffle per coup (a coup deals at most six cards, a shoe
        // holds 52 or more).
        pub reshuffles_mid_round: u64 => at_most(c.coups, "coups"),
    }
    bounds(c)
}

sums! {
    /// Everything a baccarat run accumulates; merges exactly.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct BacAcc {
        /// Per spot (`Spot::ALL` order): x = net, y = amount staked (thousandths of a unit).
        pub spots: [Ratio; 5] => ratios(|i| Spot::ALL[i].name(), most, stake, false),
        /// The main bets together: x = net, y = amount staked.
        pub main: Ratio => ratio("main bets", most, stake, false),
        /// Per coup, every bet of the coup: x = net (thousandths), y = 1.
        pub round: Ratio => ratio("net per coup", most, 1, true),
        /// Outcome rates (`OUTCOMES` order): x = occurrences, y = coups.
        pub outcomes: [Ratio; 7] => ratios(|i| OUTCOMES[i], 1, 1, true),
        /// Per session: x = net (thousandths), y = 1.
        pub session: Ratio => related,
        /// Sessions by net result, in whole units rounded down.
        pub session_hist: Histogram => sums,
        /// The worst and best session nets (thousandths).
        pub worst_session: Option<i64> =>
            merge(min) unbounded("not checked: a session's net, reported as it is"),
        pub best_session: Option<i64> =>
            merge(max) unbounded("not checked: a session's net, reported as it is"),
        pub counts: Counts => sums,
        /// Per chunk (chunk index, main net, main staked), sorted by chunk: the running estimate.
        pub trace: Vec<[i64; 3]> =>
            merge(trace) unbounded("the main bets chunk by chunk, for the convergence plot"),
        /// Side bets from paytables (`--side`), in the config's order, one stake each coup:
        /// x = the result in the table's units, y = the units staked.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub sides: Vec<Ratio> => ratios(
            |i| format!("side bet {}", i + 1),
            crate::sidebet::MAX_RESULT_UNITS,
            1000,
            true,
        ),
    }
    bounds(acc) {
        // The most one coup's bets can win or lose, in thousandths of a unit: three bets of
        // the largest table maximum paying at most 100 to one; the most one bet stakes.
        let stake = MAX_TABLE as i128 * SCALE as i128;
        let most = 3 * 100 * stake;
    }
    relations(BacAcc::relations)
}

fn min_opt(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

fn max_opt(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Largest table maximum (units).
pub const MAX_TABLE: u64 = 1_000_000;

impl BacAcc {
    /// Every outcome, main bet and coup sum counts the run's coups; the sessions, their
    /// histogram, the coups and the cards fit together.
    fn relations(&self) -> Result<(), String> {
        let c = &self.counts;
        for (name, r) in OUTCOMES.iter().zip(&self.outcomes) {
            if r.n != c.coups {
                return Err(format!("{name}: {} coups, the run {}", r.n, c.coups));
            }
        }
        if self.main.n != c.coups || self.round.n != c.coups {
            return Err(format!("{} main bets and {} coups", self.main.n, c.coups));
        }
        let in_hist: u64 = self.session_hist.total();
        if in_hist != c.sessions || self.session.n != c.sessions {
            return Err(format!(
                "the session histogram counts {in_hist} sessions, the run {}",
                c.sessions
            ));
        }
        if c.sessions > c.coups || c.cards < 4 * c.coups || c.cards > 6 * c.coups + 11 * c.sessions
        {
            return Err(format!(
                "{} sessions, {} coups and {} cards do not fit",
                c.sessions, c.coups, c.cards
            ));
        }
        Ok(())
    }
}

/// One chunk's running sums.
#[derive(Default)]
struct ChunkSums {
    spot_net: [i64; 5],
    spot_staked: [i64; 5],
    spot_bets: [u64; 5],
    main_net: i64,
    main_staked: i64,
    round_xx: i128,
    outcomes: [u64; 7],
    session_xx: i128,
    session_x: i64,
    /// Side bets from paytables: how each settles, and its sums.
    settle: Vec<crate::sidebet::Settle>,
    sides: Vec<crate::sidebet::SideChunk>,
}

/// A baccarat simulation with the bettor `B` (monomorphized in the coup loop).
pub struct BacSim<B: Bettor> {
    pub rules: BacRules,
    pub bettor: B,
    /// Stake on each of the pair bets, units (0: not placed).
    pub pairs: i64,
    pub sessions_per_chunk: u64,
    /// Side bets from paytables, one stake each every coup.
    pub sides: Vec<crate::sidebet::SideBet>,
}

impl<B: Bettor> BacSim<B> {
    /// Play one coup and add it into the chunk's sums; returns the coup's net.
    #[inline(always)]
    fn coup(&self, c: &Coup, bettor: &mut B, s: &mut ChunkSums, acc: &mut BacAcc) -> i64 {
        let (spot, stake) = bettor.bet();
        let net = settle(spot, stake, c, &self.rules);
        acc.counts.limit_hits += bettor.settle(c, net) as u64;
        acc.counts.max_stake = acc.counts.max_stake.max(stake as u64);
        let i = spot as usize;
        s.spot_net[i] += net;
        s.spot_staked[i] += stake * SCALE;
        s.spot_bets[i] += 1;
        s.main_net += net;
        s.main_staked += stake * SCALE;
        let mut total = net;
        if self.pairs > 0 {
            for sp in [Spot::PlayerPair, Spot::BankerPair] {
                let v = settle(sp, self.pairs, c, &self.rules);
                let j = sp as usize;
                s.spot_net[j] += v;
                s.spot_staked[j] += self.pairs * SCALE;
                s.spot_bets[j] += 1;
                total += v;
            }
        }
        s.round_xx += total as i128 * total as i128;
        let w = match c.winner() {
            Winner::Banker => 0,
            Winner::Player => 1,
            Winner::Tie => 2,
        };
        s.outcomes[w] += 1;
        s.outcomes[3] += (w == 0 && c.banker == 6) as u64;
        s.outcomes[4] += c.natural as u64;
        s.outcomes[5] += c.player_pair as u64;
        s.outcomes[6] += c.banker_pair as u64;
        acc.counts.coups += 1;
        acc.counts.cards += c.cards() as u64;
        total
    }

    fn end_session(&self, net: i64, s: &mut ChunkSums, acc: &mut BacAcc) {
        s.session_x += net;
        s.session_xx += net as i128 * net as i128;
        acc.counts.sessions += 1;
        acc.session_hist.add(net.div_euclid(SCALE));
        acc.worst_session = min_opt(acc.worst_session, Some(net));
        acc.best_session = max_opt(acc.best_session, Some(net));
    }

    fn close(&self, chunk: u64, s: &ChunkSums, acc: &mut BacAcc) {
        for i in 0..5 {
            let b = Batch {
                x: s.spot_net[i],
                y: s.spot_staked[i],
                xx: 0,
            };
            acc.spots[i].close(&b, s.spot_bets[i]);
        }
        let n = acc.counts.coups;
        acc.main.close(
            &Batch {
                x: s.main_net,
                y: s.main_staked,
                xx: 0,
            },
            n,
        );
        let round_x: i64 = s.spot_net.iter().sum();
        acc.round
            .close_wide(round_x as i128, n as i128, s.round_xx, n);
        for (r, &k) in acc.outcomes.iter_mut().zip(&s.outcomes) {
            let k = k as i64;
            r.close(
                &Batch {
                    x: k,
                    y: n as i64,
                    xx: k,
                },
                n,
            );
        }
        let m = acc.counts.sessions;
        acc.session
            .close_wide(s.session_x as i128, m as i128, s.session_xx, m);
        acc.trace.push([chunk as i64, s.main_net, s.main_staked]);
        acc.sides = vec![Ratio::default(); s.sides.len()];
        for (sums, ratio) in s.sides.iter().zip(&mut acc.sides) {
            sums.close(ratio);
        }
    }

    /// The side bets from paytables on the coup just dealt (`cards`: the coup's cards with
    /// their suits, in dealing order).
    #[cold]
    fn record_sides(c: &Coup, cards: &[crate::cards::CardId], s: &mut ChunkSums) {
        if cards.len() < c.cards() as usize {
            return;
        }
        // Dealing order: player, banker, player, banker, then the player's third card and
        // the banker's.
        let mut player = [cards[0], cards[2], 0];
        let mut banker = [cards[1], cards[3], 0];
        let mut next = 4;
        if c.player_drew {
            player[2] = cards[next];
            next += 1;
        }
        if c.banker_drew {
            banker[2] = cards[next];
        }
        let deal = crate::sidebet::BacDeal::of(
            &player[..2 + c.player_drew as usize],
            &banker[..2 + c.banker_drew as usize],
        );
        for (settle, sums) in s.settle.iter().zip(&mut s.sides) {
            sums.add(settle.result(settle.table.bac_paid(&deal)), settle.units);
        }
    }
}

/// Burn cards after a shuffle: the first card turned over says how many follow it unseen.
#[inline]
fn burn(shoe: &mut Shoe, rng: &mut Rng) -> u64 {
    let first = shoe.draw(rng);
    let k = value(first);
    for _ in 0..k {
        shoe.draw(rng);
    }
    1 + k as u64
}

impl<B: Bettor> Simulation for BacSim<B> {
    type Acc = BacAcc;

    fn run_chunk(&self, chunk: u64, rng: &mut Rng, acc: &mut BacAcc) {
        let rules = &self.rules;
        let mut bettor = self.bettor.clone();
        let mut s = ChunkSums {
            settle: self.sides.iter().map(crate::sidebet::Settle::of).collect(),
            sides: vec![Default::default(); self.sides.len()],
            ..ChunkSums::default()
        };
        let sides = !self.sides.is_empty();
        let mut ids: Vec<crate::cards::CardId> = Vec::with_capacity(8);
        let every = rules.shuffle == Shuffle::EveryRound;
        let batch = if every { 10 } else { rules.cut() };
        let mut shoe = Shoe::new(rules.decks, rules.cut(), batch).shuffled_by(rules.shuffler);
        for _ in 0..self.sessions_per_chunk {
            // Each session has a stream of its own: the cards it deals depend on the seed
            // and its position only, not on how the bets went before it.
            let mut srng = Rng::seed_from_u64(rng.next_u64());
            bettor.new_session();
            let mut net = 0i64;
            if every {
                for _ in 0..SESSION_COUPS {
                    shoe.reshuffle();
                    shoe.begin_round();
                    let c = deal(|| shoe.draw(&mut srng));
                    net += self.coup(&c, &mut bettor, &mut s, acc);
                    if sides {
                        ids.clear();
                        ids.extend(shoe.round_cards());
                        Self::record_sides(&c, &ids, &mut s);
                    }
                }
            } else {
                shoe.reshuffle();
                if rules.burn {
                    acc.counts.cards += burn(&mut shoe, &mut srng);
                }
                loop {
                    shoe.begin_round();
                    let refills = shoe.reshuffles_mid_round;
                    let c = deal(|| shoe.draw(&mut srng));
                    net += self.coup(&c, &mut bettor, &mut s, acc);
                    if sides {
                        ids.clear();
                        ids.extend(shoe.round_cards());
                        Self::record_sides(&c, &ids, &mut s);
                    }
                    // A shoe that ran out mid-coup was reshuffled: that ends the session (a
                    // session is one shoe) as the cut card does.
                    if shoe.past_cut() || shoe.reshuffles_mid_round != refills {
                        break;
                    }
                }
            }
            self.end_session(net, &mut s, acc);
        }
        acc.counts.reshuffles_mid_round += shoe.reshuffles_mid_round;
        self.close(chunk, &s, acc);
    }
}

/// How a run maps onto chunks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub sessions_per_chunk: u64,
    pub chunks: u64,
    /// Coups per session expected from the exact cards per coup (for planning only).
    pub coups_per_session: f64,
}

/// Default sessions per chunk at most.
pub const DEFAULT_CHUNK_SESSIONS: u64 = 2048;
const MIN_CHUNKS: u64 = 64;

/// Plan about `coups` coups: sessions from the expected coups per shoe (exact cards per coup,
/// the cut card and the average burn), `chunk` sessions per chunk if given.
pub fn plan(rules: &BacRules, cards_per_coup: f64, coups: u64, chunk: Option<u64>) -> Plan {
    let per_session = match rules.shuffle {
        Shuffle::EveryRound => SESSION_COUPS as f64,
        Shuffle::CutCard { .. } => {
            // The average burn: the card turned over (1) and its value, 85/13 on average.
            let burned = if rules.burn { 1.0 + 85.0 / 13.0 } else { 0.0 };
            ((rules.cut() as f64 - burned) / cards_per_coup).max(0.0) + 0.5
        }
    }
    .max(1.0);
    let sessions = ((coups as f64 / per_session).ceil() as u64).max(1);
    let per_chunk =
        crate::game::chunk_size(sessions, chunk, MIN_CHUNKS, 1..=DEFAULT_CHUNK_SESSIONS);
    Plan {
        sessions_per_chunk: per_chunk,
        chunks: crate::game::chunk_count(sessions, per_chunk),
        coups_per_session: per_session,
    }
}

#[cfg(test)]
mod tests {
    use super::super::bet::Flat;
    use super::*;
    use crate::rng::chunk_rng;

    fn sim(rules: BacRules) -> BacSim<Flat> {
        BacSim {
            rules,
            bettor: Flat {
                spot: Spot::Banker,
                unit: 1,
            },
            pairs: 1,
            sessions_per_chunk: 20,
            sides: Vec::new(),
        }
    }

    #[test]
    fn a_chunk_is_consistent() {
        for burn in [false, true] {
            let s = sim(BacRules {
                burn,
                ..BacRules::standard()
            });
            let mut acc = BacAcc::default();
            s.run_chunk(3, &mut chunk_rng(1, 3), &mut acc);
            use crate::shard::Plausible;
            acc.plausible().unwrap();
            let c = acc.counts;
            // Counts beyond what the coups allow are refused, each named.
            for (field, edit) in [
                (
                    "counts.limit_hits",
                    &(|a: &mut BacAcc| a.counts.limit_hits = a.counts.coups + 1)
                        as &dyn Fn(&mut BacAcc),
                ),
                ("counts.reshuffles_mid_round", &|a: &mut BacAcc| {
                    a.counts.reshuffles_mid_round = a.counts.coups + 1
                }),
                ("counts.max_stake", &|a: &mut BacAcc| {
                    a.counts.max_stake = MAX_TABLE + 1
                }),
            ] {
                let mut x = acc.clone();
                edit(&mut x);
                let e = x.plausible().unwrap_err();
                assert!(e.starts_with(&format!("{field} = ")), "{e}");
            }
            assert_eq!(c.sessions, 20);
            // 374 cards to the cut at about 4.94 cards a coup.
            let per = c.coups as f64 / 20.0;
            assert!((70.0..80.0).contains(&per), "{per} coups per shoe");
            assert_eq!(
                acc.outcomes[0].x + acc.outcomes[1].x + acc.outcomes[2].x,
                c.coups as i128
            );
            assert_eq!(acc.spots[0].n, c.coups);
            assert_eq!(acc.spots[3].n, c.coups);
            assert_eq!(acc.session.x, acc.round.x);
            assert_eq!(acc.trace.len(), 1);
            assert_eq!(c.reshuffles_mid_round, 0);
        }
    }

    #[test]
    fn shuffling_every_coup_plays_sessions_of_80() {
        let s = sim(BacRules {
            shuffle: Shuffle::EveryRound,
            ..BacRules::standard()
        });
        let mut acc = BacAcc::default();
        s.run_chunk(0, &mut chunk_rng(2, 0), &mut acc);
        assert_eq!(acc.counts.coups, 20 * SESSION_COUPS);
    }

    #[test]
    fn plans() {
        let r = BacRules::standard();
        let p = plan(&r, 4.94, 1_000_000, None);
        assert!((p.coups_per_session - 76.2).abs() < 0.1, "{p:?}");
        assert_eq!(p.sessions_per_chunk, 13124 / 64);
        assert_eq!(p.chunks, 13124u64.div_ceil(205));
        let p = plan(&r, 4.94, 10, None);
        assert_eq!((p.sessions_per_chunk, p.chunks), (1, 1));
        let p = plan(&r, 4.94, 1_000_000, Some(100));
        assert_eq!(p.chunks, 132);
    }
}
