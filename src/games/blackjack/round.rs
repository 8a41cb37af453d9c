//! One round at the table: deal, side bets, players' play, the dealer's play, settlement.
//!
//! Money is counted in units: `Rules::units_per_bet()` units make one initial bet, so every
//! payout (3:2, 6:5, surrender's half) is an exact integer.

use super::hand::Hand;
use super::rules::{DealerBjTakes, Rules, Shuffle, SplitBy, Surrender, MAX_HANDS, MAX_PLAYERS};
use super::shoe::{value, Rank, Shoe};
use super::strategy::{Action, Situation, Strategy};
use crate::rng::Rng;

/// Dealer outcome index: 0..=4 are totals 17..=21, 5 is a bust, 6 a blackjack.
pub const DEALER_BUST: usize = 5;
pub const DEALER_BJ: usize = 6;

/// What happened to one seat in a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatResult {
    /// Net result of the main bet (all hands, doubles and splits), in units.
    pub net: i64,
    /// Units wagered on the main bet (initial, doubles, splits).
    pub wagered: i64,
    /// Net of a bet behind of one bet that declines doubles and splits (stays on the first
    /// hand, settled as undoubled), in units.
    pub behind_none: i64,
    /// The pairs side bet: +11 or -1 side stakes.
    pub pairs: i64,
    /// Insurance taken (half a bet).
    pub insured: bool,
    pub natural: bool,
    pub surrendered: bool,
    pub doubles: u8,
    pub splits: u8,
    /// Hands played (1 + splits) and how many of them busted.
    pub hands: u8,
    pub busts: u8,
}

/// What happened in a round.
#[derive(Clone, Copy, Debug, Default)]
pub struct RoundResult {
    pub seats: [SeatResult; MAX_PLAYERS as usize],
    pub players: usize,
    /// Dealer up card value, 1 = ace.
    pub up: u8,
    /// Dealer outcome index (see `DEALER_BUST`, `DEALER_BJ`).
    pub dealer: usize,
}

impl RoundResult {
    pub fn dealer_bj(&self) -> bool {
        self.dealer == DEALER_BJ
    }
}

/// Rules, strategy and derived constants: everything a round reads but never changes.
struct Ctx<'a, S: Strategy> {
    rules: &'a Rules,
    strategy: &'a S,
    u: i64,
    bj: i64,
}

/// A table: rules, the strategy every seat plays, the shoe, and the round's working state
/// (kept here, so a round copies nothing).
pub struct Table<'a, S: Strategy> {
    ctx: Ctx<'a, S>,
    pub shoe: Shoe,
    every_round: bool,
    res: RoundResult,
    hands: [[Hand; MAX_HANDS as usize]; MAX_PLAYERS as usize],
}

impl<'a, S: Strategy> Table<'a, S> {
    pub fn new(rules: &'a Rules, strategy: &'a S) -> Table<'a, S> {
        let (cut, every_round) = match rules.shuffle {
            Shuffle::CutCard { penetration } => {
                ((penetration * rules.cards() as f64).round() as usize, false)
            }
            Shuffle::EveryRound => (rules.cards() as usize, true),
        };
        Table {
            ctx: Ctx {
                rules,
                strategy,
                u: rules.units_per_bet(),
                bj: rules.bj_win_units(),
            },
            shoe: Shoe::new(rules.decks, cut),
            every_round,
            res: RoundResult {
                players: rules.players as usize,
                ..Default::default()
            },
            hands: [[Hand::new(); MAX_HANDS as usize]; MAX_PLAYERS as usize],
        }
    }

    /// Play one shoe: shuffle, then rounds until the cut card is out (one round when the
    /// shoe is shuffled every round). `f` receives each round's result.
    #[inline]
    pub fn play_shoe(&mut self, rng: &mut Rng, mut f: impl FnMut(&RoundResult)) {
        self.shoe.reshuffle();
        loop {
            f(self.play_round(rng));
            if self.every_round || self.shoe.past_cut() {
                break;
            }
        }
    }

    /// Play one round from the shoe as it is.
    #[inline]
    pub fn play_round(&mut self, rng: &mut Rng) -> &RoundResult {
        let Table {
            ctx,
            shoe,
            res,
            hands,
            ..
        } = self;
        ctx.play_round(shoe, rng, res, hands);
        &self.res
    }
}

impl<S: Strategy> Ctx<'_, S> {
    #[inline(always)]
    fn is_pair(&self, a: Rank, b: Rank) -> bool {
        match self.rules.split_by {
            SplitBy::Value => value(a) == value(b),
            SplitBy::Rank => a == b,
        }
    }

    /// Play one round from the shoe as it is.
    #[inline]
    fn play_round(
        &self,
        shoe: &mut Shoe,
        rng: &mut Rng,
        res: &mut RoundResult,
        hands: &mut [[Hand; MAX_HANDS as usize]; MAX_PLAYERS as usize],
    ) {
        let rules = self.rules;
        let players = rules.players as usize;
        for seat in &mut res.seats[..players] {
            *seat = SeatResult::default();
        }
        shoe.begin_round();
        let mut first = [0u8; MAX_PLAYERS as usize];
        let mut second = [0u8; MAX_PLAYERS as usize];
        for c in first.iter_mut().take(players) {
            *c = shoe.draw(rng);
        }
        let up = shoe.draw(rng);
        for c in second.iter_mut().take(players) {
            *c = shoe.draw(rng);
        }
        let upv = value(up);
        res.up = upv;

        // Side bets and insurance, decided on the first two cards.
        let mut pre_surrender = [false; MAX_PLAYERS as usize];
        let early_before_peek = rules.peek && rules.surrender == Surrender::Early;
        for s in 0..players {
            let seat = &mut res.seats[s];
            seat.pairs = if first[s] == second[s] { 11 } else { -1 };
            let h = Hand::two(first[s], second[s]);
            seat.natural = h.natural();
            if upv == 1 {
                seat.insured = self.strategy.insure(h.total(), h.soft());
            }
            if early_before_peek && !seat.natural {
                let sit = Situation {
                    total: h.total(),
                    soft: h.soft(),
                    cards: 2,
                    pair: None,
                    up: upv,
                    can_double: false,
                    can_surrender: true,
                    split: false,
                };
                pre_surrender[s] = self.strategy.act(&sit) == Action::Surrender;
            }
        }

        // The hole card: dealt now in a peek game, after the players in ENHC.
        let mut dealer = Hand::new();
        dealer.add(up);
        if rules.peek {
            dealer.add(shoe.draw(rng));
        }
        let peeked_bj = rules.peek && dealer.natural();

        let mut counts = [1usize; MAX_PLAYERS as usize];
        for s in 0..players {
            let seat = &mut res.seats[s];
            seat.hands = 1;
            seat.wagered = self.u;
            hands[s][0] = Hand::two(first[s], second[s]);
            if pre_surrender[s] {
                seat.surrendered = true;
                continue;
            }
            if peeked_bj || seat.natural {
                continue;
            }
            let n = self.play_seat(shoe, rng, upv, !early_before_peek, &mut hands[s], seat);
            let mut wagered = 0;
            for h in &hands[s][..n] {
                wagered += if h.doubled { 2 * self.u } else { self.u };
                seat.busts += h.busted() as u8;
            }
            seat.wagered = wagered;
            seat.hands = n as u8;
            counts[s] = n;
        }

        // The dealer completes the hand (always, so dealer statistics are unconditional).
        if !rules.peek {
            dealer.add(shoe.draw(rng));
        }
        let dealer_bj = dealer.natural();
        if !dealer_bj {
            while dealer.total() < 17 || (rules.h17 && dealer.total() == 17 && dealer.soft()) {
                dealer.add(shoe.draw(rng));
            }
        }
        res.dealer = if dealer_bj {
            DEALER_BJ
        } else if dealer.busted() {
            DEALER_BUST
        } else {
            (dealer.total() - 17) as usize
        };
        let dtotal = dealer.total();
        for s in 0..players {
            self.settle(
                &mut res.seats[s],
                &hands[s][..counts[s]],
                dealer_bj,
                dtotal,
                dealer.busted(),
            );
        }
    }

    /// Play one seat's hand(s); returns how many hands it ended with (in `hands`).
    #[inline]
    fn play_seat(
        &self,
        shoe: &mut Shoe,
        rng: &mut Rng,
        up: u8,
        surrender_now: bool,
        hands: &mut [Hand; MAX_HANDS as usize],
        seat: &mut SeatResult,
    ) -> usize {
        let rules = self.rules;
        let mut n = 1usize;
        let max = rules.max_hands as usize;
        let mut i = 0;
        while i < n {
            if hands[i].cards == 1 {
                let c = shoe.draw(rng);
                hands[i].add(c);
            }
            loop {
                let h = hands[i];
                if h.busted() {
                    break;
                }
                let two = h.cards == 2;
                let pair_ok = two
                    && n < max
                    && self.is_pair(h.first, h.second)
                    && (!h.split_aces || rules.resplit_aces);
                let locked = h.split_aces && !rules.hit_split_aces;
                let sit = Situation {
                    total: h.total(),
                    soft: h.soft(),
                    cards: h.cards,
                    pair: if pair_ok { Some(value(h.first)) } else { None },
                    up,
                    can_double: two
                        && !locked
                        && (!h.split || rules.das)
                        && rules.double_allowed(h.hard, h.soft()),
                    can_surrender: surrender_now
                        && two
                        && n == 1
                        && !h.split
                        && rules.surrender_allowed(up),
                    split: h.split,
                };
                if locked && !pair_ok {
                    break; // split aces take one card only
                }
                let action = self.strategy.act(&sit);
                match action {
                    Action::Stand => break,
                    Action::Split if pair_ok => {
                        let (a, b) = (h.first, h.second);
                        hands[i] = Hand::from_split(a);
                        hands[n] = Hand::from_split(b);
                        n += 1;
                        seat.splits += 1;
                        let c = shoe.draw(rng);
                        hands[i].add(c);
                    }
                    Action::Double if sit.can_double => {
                        seat.doubles += 1;
                        hands[i].doubled = true;
                        let c = shoe.draw(rng);
                        hands[i].add(c);
                        break;
                    }
                    Action::Surrender if sit.can_surrender => {
                        seat.surrendered = true;
                        break;
                    }
                    _ if locked => break,
                    _ => {
                        let c = shoe.draw(rng);
                        hands[i].add(c);
                    }
                }
            }
            i += 1;
        }
        n
    }

    /// Settle one seat once the dealer's hand is complete.
    #[inline(always)]
    fn settle(
        &self,
        seat: &mut SeatResult,
        hands: &[Hand],
        dealer_bj: bool,
        dtotal: u8,
        dbust: bool,
    ) {
        let u = self.u;
        let rules = self.rules;
        if seat.natural {
            seat.net = if dealer_bj { 0 } else { self.bj };
            seat.behind_none = seat.net;
            return;
        }
        if seat.surrendered {
            // Late surrender in the no-hole-card game does not escape a dealer blackjack.
            seat.net = if dealer_bj && rules.surrender == Surrender::Late {
                -u
            } else {
                -u / 2
            };
            seat.behind_none = seat.net;
            return;
        }
        if dealer_bj {
            // A peek game never got to play; ENHC takes all wagers or the original bet only.
            seat.net = if !rules.peek && rules.dealer_bj_takes == DealerBjTakes::All {
                -seat.wagered
            } else {
                -u
            };
            seat.behind_none = -u;
            return;
        }
        let outcome = |h: &Hand| -> i64 {
            if h.busted() {
                -1
            } else if dbust {
                1
            } else {
                (h.total() as i64 - dtotal as i64).signum()
            }
        };
        let mut net = 0;
        for h in hands {
            net += outcome(h) * if h.doubled { 2 * u } else { u };
        }
        seat.net = net;
        seat.behind_none = outcome(&hands[0]) * u;
    }
}
