//! One round at the table: deal, side bets, players' play, the dealer's play, settlement.
//!
//! Money is counted in units: `Rules::units_per_bet()` units make one initial bet, so every
//! payout (3:2, 6:5, surrender's half) is an exact integer. A seat's result is counted per
//! initial bet (as if it had bet one); its bet (`SeatResult::bet`, in initial bets) scales it
//! to money.

use super::hand::{DrawTable, Hand, FREE_DOUBLE, FREE_STAKE};
use super::rules::{DealerBjTakes, Rules, Shuffle, SplitBy, Surrender, MAX_HANDS, MAX_PLAYERS};
use super::strategy::{Action, Player, Seats, Situation};
use crate::cards::{value, CardId, Rank, Shoe};
use crate::rng::Rng;

/// Dealer outcome index: 0..=4 are totals 17..=21, 5 is a bust, 6 a blackjack.
pub const DEALER_BUST: usize = 5;
pub const DEALER_BJ: usize = 6;

/// What happened to one seat in a round. Money is per initial bet: the seat's money is
/// `net`, `wagered`, `pairs` (and its insurance) times `bet`; the bet behind is one initial
/// bet whatever the seat bets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatResult {
    /// The seat's bet, in initial bets (1 for a fixed strategy; 0: the seat sat out).
    pub bet: u32,
    /// The seat-round's row of the by-true-count sums (`Player::class`; 0 without bets).
    pub class: u8,
    /// Net result of the main bet (all hands, doubles and splits), in units per initial bet.
    pub net: i64,
    /// Units wagered on the main bet (initial, doubles, splits) per initial bet.
    pub wagered: i64,
    /// Net of a bet behind of one bet that declines doubles and splits (stays on the first
    /// hand, settled as undoubled), in units.
    pub behind_none: i64,
    /// The pairs side bet: +11 or -1 side stakes.
    pub pairs: i64,
    /// Insurance taken (half a bet).
    pub insured: bool,
    /// With an ace up, the row of the by-true-count sums at the insurance decision
    /// (`Player::decision_class`; 0 without `Player::CLASSES`).
    pub insurance_class: u8,
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
    /// Cards in the dealer's finished hand.
    pub dealer_cards: u8,
    /// With `Table::side_cards`: the round's first cards with their suits, in dealing order
    /// (each seat's first card, the up card, each seat's second card).
    pub ids: [CardId; 2 * MAX_PLAYERS as usize + 1],
}

impl RoundResult {
    pub fn dealer_bj(&self) -> bool {
        self.dealer == DEALER_BJ
    }
}

/// Rules and derived constants: everything a round reads but never changes.
struct Ctx<'a> {
    rules: &'a Rules,
    u: i64,
    bj: i64,
    /// Rule look-ups done once: doubling by `[hard][soft]`, surrender by up card.
    double_ok: [[bool; 2]; 32],
    surrender_ok: [bool; 11],
    /// The dealer's hit rule as a table, and by the state of a finished hand (not a
    /// blackjack): its outcome index and the total a player's hand must beat (0: busted).
    dealer: DrawTable,
    dealer_outcome: [u8; 64],
    dealer_beat: [i8; 64],
    /// Whether a dealer blackjack in the no-hole-card game takes doubles and splits too.
    bj_takes_all: bool,
    /// Whether it takes the split hands' bets but not the doubles ("Playtech peek").
    bj_takes_splits: bool,
    /// The player's [`Player::draw_tables`], if it has them.
    player_draws: Option<Box<[DrawTable; 10]>>,
    /// Early surrender decided before the dealer peeks (a peek game with early surrender).
    early_before_peek: bool,
    /// The cards of an N-card Charlie (`u8::MAX` without the rule).
    charlie: u8,
    /// Free Bet Blackjack: free doubles and splits, a dealer 22 pushes.
    free_bet: bool,
}

/// Deal a card the table sees at once (telling the player of a mid-round reshuffle first).
#[inline(always)]
fn deal<P: Player>(shoe: &mut Shoe, rng: &mut Rng, player: &mut P) -> Rank {
    let c = deal_face_down(shoe, rng, player);
    if P::SEES {
        player.see(c);
    }
    c
}

/// A hand state's best total (`Hand::state`).
fn state_total(state: u8) -> u8 {
    let (hard, ace) = (state & 31, state >> 5 != 0);
    if ace && hard <= 11 {
        hard + 10
    } else {
        hard
    }
}

/// The next card, dealt if `take` (read but left in the shoe otherwise): a step without a
/// branch the predictor must guess, for a hand that may or may not draw.
#[inline(always)]
fn deal_if<P: Player>(shoe: &mut Shoe, rng: &mut Rng, player: &mut P, take: bool) -> Rank {
    // One test, rarely true: a card still to shuffle (once a batch), or a forced one in tests.
    if shoe.needs_draw(take) {
        return deal_slowly(shoe, rng, player);
    }
    let c = shoe.peek();
    shoe.skip(take);
    if P::SEES {
        player.see_if(c, take);
    }
    c
}

#[cold]
#[inline(never)]
fn deal_slowly<P: Player>(shoe: &mut Shoe, rng: &mut Rng, player: &mut P) -> Rank {
    deal(shoe, rng, player)
}

/// Draw to a hand in `state` by `table` until it stands or busts: the state it ends in and
/// the cards it drew. The first draw is a step without a branch the predictor must guess (a
/// hand that stands reads the next card but leaves it); a hand that still draws goes on in a
/// loop (a dealer hand that needs a fourth card, a player hand that hits again).
#[inline(always)]
fn draw_by_table<P: Player>(
    table: &DrawTable,
    state: u8,
    shoe: &mut Shoe,
    rng: &mut Rng,
    player: &mut P,
) -> (u8, u8) {
    // Whether the hand draws does not depend on the card (which may not be shuffled yet).
    let take = table.draws(state);
    let mut state = table.after(state, deal_if(shoe, rng, player, take));
    let mut drawn = take as u8;
    while table.draws(state) {
        state = table.after(state, deal(shoe, rng, player));
        drawn += 1;
    }
    (state, drawn)
}

/// Deal a card face down (the peek game's hole card): the player sees it when it is turned.
#[inline(always)]
fn deal_face_down<P: Player>(shoe: &mut Shoe, rng: &mut Rng, player: &mut P) -> Rank {
    if P::SEES {
        let before = shoe.reshuffles_mid_round;
        let c = shoe.draw(rng);
        if shoe.reshuffles_mid_round != before {
            player.shuffled();
        }
        c
    } else {
        shoe.draw(rng)
    }
}

/// A table: rules, the player of every seat, the shoe, and the round's working state (kept
/// here, so a round copies nothing).
pub struct Table<'a, P: Player> {
    ctx: Ctx<'a>,
    /// Who plays the seats (fresh from `Seats::player` in `new`).
    pub player: P,
    pub shoe: Shoe,
    every_round: bool,
    res: RoundResult,
    hands: [[Hand; MAX_HANDS as usize]; MAX_PLAYERS as usize],
    /// Fill [`RoundResult::ids`] after each round (side bets from paytables read them).
    pub side_cards: bool,
}

impl<'a, P: Player> Table<'a, P> {
    /// A table whose seats are played by a fresh player of `seats` (any [`Strategy`] is one).
    ///
    /// [`Strategy`]: super::strategy::Strategy
    pub fn new<S: Seats<Player<'a> = P>>(rules: &'a Rules, seats: &'a S) -> Table<'a, P> {
        Table::with_player(rules, seats.player())
    }

    /// A table whose seats are played by `player`.
    pub fn with_player(rules: &'a Rules, player: P) -> Table<'a, P> {
        let (cut, every_round) = match rules.shuffle {
            Shuffle::CutCard { penetration } => {
                ((penetration * rules.cards() as f64).round() as usize, false)
            }
            Shuffle::EveryRound => (rules.cards() as usize, true),
        };
        // A Charlie ends a hand by its number of cards, which the draw tables do not know.
        let player_draws = player
            .draw_tables()
            .filter(|_| rules.charlie.is_none())
            .map(|t| Box::new(t.clone()));
        Table {
            player,
            ctx: Ctx {
                rules,
                u: rules.units_per_bet(),
                bj: rules.bj_win_units(),
                early_before_peek: rules.peek && rules.surrender == Surrender::Early,
                charlie: rules.charlie.unwrap_or(u8::MAX),
                free_bet: rules.free_bet,
                double_ok: std::array::from_fn(|hard| {
                    [
                        rules.double_allowed(hard as u8, false),
                        rules.double_allowed(hard as u8, true),
                    ]
                }),
                surrender_ok: std::array::from_fn(|up| {
                    up >= 1 && rules.surrender_allowed(up as u8)
                }),
                dealer: DrawTable::new(|hard, ace| {
                    let soft = ace && hard <= 11;
                    let total = if soft { hard + 10 } else { hard };
                    total < 17 || (rules.h17 && soft && total == 17)
                }),
                dealer_outcome: std::array::from_fn(|state| {
                    match state_total(state as u8) {
                        22.. => DEALER_BUST as u8,
                        t @ 17.. => t - 17,
                        _ => 0, // never looked up: the dealer stands on 17 or more only
                    }
                }),
                dealer_beat: std::array::from_fn(|state| match state_total(state as u8) {
                    22.. => 0,
                    t => t as i8,
                }),
                bj_takes_all: !rules.peek && rules.dealer_bj_takes == DealerBjTakes::All,
                bj_takes_splits: !rules.peek && rules.dealer_bj_takes == DealerBjTakes::Splits,
                player_draws,
            },
            // Shuffled ahead in batches: a round's worth when the shoe is shuffled every
            // round (cards shuffled but not dealt cost time), larger to a cut card.
            shoe: Shoe::new(
                rules.decks,
                cut,
                if every_round {
                    2 * rules.players as usize + 7
                } else {
                    64
                },
            )
            .shuffled_by(rules.shuffler),
            every_round,
            res: RoundResult {
                players: rules.players as usize,
                ..Default::default()
            },
            hands: [[Hand::new(); MAX_HANDS as usize]; MAX_PLAYERS as usize],
            side_cards: false,
        }
    }

    /// Play one shoe: shuffle, then rounds until the cut card is out (one round when the
    /// shoe is shuffled every round). `f` receives each round's result.
    #[inline]
    pub fn play_shoe(&mut self, rng: &mut Rng, mut f: impl FnMut(&RoundResult)) {
        self.shoe.reshuffle();
        if P::SEES {
            self.player.shuffled();
        }
        loop {
            self.play_round(rng);
            if self.side_cards {
                let n = 2 * self.res.players + 1;
                for (slot, c) in self.res.ids.iter_mut().zip(self.shoe.round_cards().take(n)) {
                    *slot = c;
                }
            }
            f(&self.res);
            if self.every_round || self.shoe.past_cut() {
                break;
            }
        }
    }

    /// Play one round from the shoe as it is.
    #[inline(always)]
    pub fn play_round(&mut self, rng: &mut Rng) -> &RoundResult {
        let Table {
            ctx,
            player,
            shoe,
            res,
            hands,
            ..
        } = self;
        // One seat (the common case) gets code of its own, compiled for a constant count.
        // Free Bet Blackjack is code of its own too, so that its stakes cost other games nothing.
        if ctx.free_bet {
            ctx.play_round_free_bet(player, shoe, rng, res, hands);
        } else if ctx.rules.players == 1 {
            ctx.play_round::<P, false>(1, player, shoe, rng, res, hands);
        } else {
            ctx.play_round::<P, false>(ctx.rules.players as usize, player, shoe, rng, res, hands);
        }
        &self.res
    }
}

impl Ctx<'_> {
    #[inline(always)]
    fn is_pair(&self, a: Rank, b: Rank) -> bool {
        match self.rules.split_by {
            SplitBy::Value => value(a) == value(b),
            SplitBy::Rank => a == b,
        }
    }

    /// `play_round` under Free Bet Blackjack: out of line, so that the other games' round
    /// code stays as it was.
    #[inline(never)]
    fn play_round_free_bet<P: Player>(
        &self,
        player: &mut P,
        shoe: &mut Shoe,
        rng: &mut Rng,
        res: &mut RoundResult,
        hands: &mut [[Hand; MAX_HANDS as usize]; MAX_PLAYERS as usize],
    ) {
        self.play_round::<P, true>(self.rules.players as usize, player, shoe, rng, res, hands);
    }

    /// Play one round for `players` seats from the shoe as it is.
    #[inline(always)]
    fn play_round<P: Player, const FREE: bool>(
        &self,
        players: usize,
        player: &mut P,
        shoe: &mut Shoe,
        rng: &mut Rng,
        res: &mut RoundResult,
        hands: &mut [[Hand; MAX_HANDS as usize]; MAX_PLAYERS as usize],
    ) {
        let rules = self.rules;
        // Bets before the deal.
        for (i, seat) in res.seats[..players].iter_mut().enumerate() {
            *seat = SeatResult {
                bet: if P::BETS { player.bet(i) } else { 1 },
                class: if P::BETS { player.class(i) } else { 0 },
                ..SeatResult::default()
            };
        }
        shoe.begin_round();
        let mut first = [0u8; MAX_PLAYERS as usize];
        let mut second = [0u8; MAX_PLAYERS as usize];
        for c in first.iter_mut().take(players) {
            *c = deal(shoe, rng, player);
        }
        let up = deal(shoe, rng, player);
        for c in second.iter_mut().take(players) {
            *c = deal(shoe, rng, player);
        }
        let upv = value(up);
        res.up = upv;

        // Side bets and insurance, decided on the first two cards.
        let pre_surrender =
            self.decide_on_two_cards(players, player, res, hands, (&first, &second), upv);
        // The hole card: dealt now in a peek game (face down: turned at once on a dealer
        // blackjack, else after the players), after the players in ENHC.
        let mut dealer = Hand::new();
        dealer.add(up);
        let mut hole = 0;
        if rules.peek {
            hole = deal_face_down(shoe, rng, player);
            dealer.add(hole);
        }
        let peeked_bj = rules.peek && dealer.natural();
        if P::SEES && peeked_bj {
            player.see(hole);
        }

        let counts = self.play_seats::<P, FREE>(
            players,
            player,
            (shoe, rng),
            upv,
            peeked_bj,
            &pre_surrender,
            hands,
            res,
        );

        // The dealer completes the hand (always, so dealer statistics are unconditional).
        if !rules.peek {
            dealer.add(deal(shoe, rng, player));
        } else if P::SEES && !peeked_bj {
            player.see(hole);
        }
        // A blackjack stands (soft 21) like any 17 or more: no test before the draws.
        let dealer_bj = dealer.natural();
        let (end, drawn) = draw_by_table(&self.dealer, dealer.state(), shoe, rng, player);
        res.dealer_cards = 2 + drawn;
        let outcome = [self.dealer_outcome[end as usize & 63], DEALER_BJ as u8];
        res.dealer = outcome[dealer_bj as usize] as usize;
        let beat = self.dealer_beat[end as usize & 63] as i64;
        if FREE {
            let push22 = state_total(end) == 22;
            for s in 0..players {
                self.settle_free_bet(
                    &mut res.seats[s],
                    &hands[s][..counts[s]],
                    dealer_bj,
                    beat,
                    push22,
                );
            }
        } else {
            for s in 0..players {
                self.settle(&mut res.seats[s], &hands[s][..counts[s]], dealer_bj, beat);
            }
        }
        if P::PAYS {
            for (s, seat) in res.seats[..players].iter_mut().enumerate() {
                if seat.bet != 0 {
                    seat.net = player.paid(s, seat.net, seat.natural, self.u);
                }
            }
        }
    }

    /// The decisions on each seat's first two cards: the pairs bet's result, the natural,
    /// insurance (an ace up) and, where early surrender comes before the peek, surrender.
    /// Which seats surrendered so.
    #[inline(always)]
    fn decide_on_two_cards<P: Player>(
        &self,
        players: usize,
        player: &mut P,
        res: &mut RoundResult,
        hands: &mut [[Hand; MAX_HANDS as usize]; MAX_PLAYERS as usize],
        (first, second): (&[u8; MAX_PLAYERS as usize], &[u8; MAX_PLAYERS as usize]),
        upv: u8,
    ) -> [bool; MAX_PLAYERS as usize] {
        let mut pre_surrender = [false; MAX_PLAYERS as usize];
        let early_before_peek = self.early_before_peek;
        for s in 0..players {
            let seat = &mut res.seats[s];
            seat.pairs = if first[s] == second[s] { 11 } else { -1 };
            let h = Hand::two(first[s], second[s]);
            hands[s][0] = h;
            seat.natural = h.natural();
            if upv == 1 {
                if P::BETS && P::CLASSES {
                    seat.insurance_class = player.decision_class();
                }
                seat.insured = player.insure(s, h.total(), h.soft());
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
                pre_surrender[s] = player.act(s, &sit) == Action::Surrender;
            }
        }
        pre_surrender
    }

    /// Every seat plays its hand(s) in turn (none after a peeked dealer blackjack, nor a
    /// natural or a seat that surrendered early); how many hands each ended with.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn play_seats<P: Player, const FREE: bool>(
        &self,
        players: usize,
        player: &mut P,
        (shoe, rng): (&mut Shoe, &mut Rng),
        upv: u8,
        peeked_bj: bool,
        pre_surrender: &[bool; MAX_PLAYERS as usize],
        hands: &mut [[Hand; MAX_HANDS as usize]; MAX_PLAYERS as usize],
        res: &mut RoundResult,
    ) -> [usize; MAX_PLAYERS as usize] {
        let early_before_peek = self.early_before_peek;
        let mut counts = [1usize; MAX_PLAYERS as usize];
        for s in 0..players {
            let seat = &mut res.seats[s];
            seat.hands = 1;
            seat.wagered = self.u;
            if pre_surrender[s] {
                seat.surrendered = true;
                continue;
            }
            if peeked_bj || seat.natural {
                continue;
            }
            let n = self.play_seat::<P, FREE>(
                s,
                player,
                shoe,
                rng,
                upv,
                !early_before_peek,
                &mut hands[s],
                seat,
            );
            let mut wagered = 0;
            for h in &hands[s][..n] {
                // The player's own money: a free chip (Free Bet) is not wagered.
                wagered += if FREE {
                    h.stakes().0 * self.u
                } else if h.doubled {
                    2 * self.u
                } else {
                    self.u
                };
                seat.busts += h.busted() as u8;
            }
            seat.wagered = wagered;
            seat.hands = n as u8;
            counts[s] = n;
        }
        counts
    }

    /// Play one seat's hand(s); returns how many hands it ended with (in `hands`).
    ///
    /// Each hand has a two-card phase (split, double, surrender may be allowed; a split
    /// starts the phase again on the new two cards) and then, once it has hit, a tight loop
    /// in which only hitting and standing remain.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn play_seat<P: Player, const FREE: bool>(
        &self,
        seat_index: usize,
        player: &mut P,
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
            let mut h = hands[i];
            if h.cards == 1 {
                h.add_second(deal(shoe, rng, player));
            }
            // Two cards: every option the rules allow.
            let hit = loop {
                // `&` rather than `&&`: whether a hand is a pair, may double, and so on is
                // data the branch predictor cannot learn, so these are computed, not branched.
                let pair_ok = (n < max)
                    & self.is_pair(h.first, h.second)
                    & (!h.split_aces() | rules.resplit_aces);
                let locked = h.split_aces() & !rules.hit_split_aces;
                if locked && !pair_ok {
                    break false; // split aces take one card only
                }
                let sit = Situation {
                    total: h.total(),
                    soft: h.soft(),
                    cards: 2,
                    // Picked by index: a select here compiles to a branch.
                    pair: [None, Some(value(h.first))][pair_ok as usize],
                    up,
                    can_double: !locked
                        & (!h.split | rules.das)
                        & self.double_ok[h.hard as usize][h.soft() as usize],
                    can_surrender: surrender_now
                        & (n == 1)
                        & !h.split
                        & self.surrender_ok[up as usize],
                    split: h.split,
                };
                let action = player.act(seat_index, &sit);
                // A split is rare (a few hands in a hundred): the one test of the answer.
                if (action == Action::Split) & pair_ok {
                    hands[n] = Hand::from_split(h.second);
                    // Free Bet: a split of any pair but tens puts the house's chip on the
                    // new hand; the hand split keeps its own stake.
                    n += 1;
                    seat.splits += 1;
                    if FREE {
                        hands[n - 1].free = rules.free_split(value(h.first)) as u8 * FREE_STAKE;
                        let free = h.free;
                        h = Hand::from_split(h.first);
                        h.free = free;
                    } else {
                        h = Hand::from_split(h.first);
                    }
                    h.add_second(deal(shoe, rng, player));
                    continue;
                }
                // Every other answer by arithmetic (a `match` or a chain of tests here is a
                // branch that mispredicts about every other round). An answer not allowed
                // here is a hit, or a stand on split aces; a hit or a double takes a card.
                let double = (action == Action::Double) & sit.can_double;
                let surrender = (action == Action::Surrender) & sit.can_surrender;
                let hit = !((action == Action::Stand) | double | surrender | locked);
                seat.doubles += double as u8;
                seat.surrendered |= surrender;
                h.doubled = double;
                if FREE {
                    h.free |= (double & rules.free_double(h.hard, h.has_ace)) as u8 * FREE_DOUBLE;
                }
                let c = deal_if(shoe, rng, player, hit | double);
                h.add_if(c, hit | double);
                break hit;
            };
            if let (Some(tables), true) = (&self.player_draws, hit) {
                let table = &tables[(up as usize + 9) % 10];
                // A fixed chart: the hit loop by table. A hand that hit draws again in about
                // a third of hands, a third time rarely.
                let (state, drawn) = draw_by_table(table, h.state(), shoe, rng, player);
                h.set_state(state, drawn);
            } else if hit {
                // Three cards or more: hit or stand (any other answer is a hit); a Charlie
                // stands.
                while !h.busted() && h.cards < self.charlie {
                    let sit = Situation {
                        total: h.total(),
                        soft: h.soft(),
                        cards: h.cards,
                        pair: None,
                        up,
                        can_double: false,
                        can_surrender: false,
                        split: h.split,
                    };
                    if player.act(seat_index, &sit) == Action::Stand {
                        break;
                    }
                    h.add(deal(shoe, rng, player));
                }
            }
            hands[i] = h;
            i += 1;
        }
        n
    }

    /// Settle one seat once the dealer's hand is complete (`beat`: the total a hand must
    /// beat, 0 when the dealer busted).
    #[inline(always)]
    fn settle(&self, seat: &mut SeatResult, hands: &[Hand], dealer_bj: bool, beat: i64) {
        let u = self.u;
        // A natural, a surrender and a dealer blackjack are rare: one test for the three
        // (`|`, not `||`), taken about one round in ten.
        if seat.natural | seat.surrendered | dealer_bj {
            self.settle_early(seat, dealer_bj);
            return;
        }
        // Win, push or lose as the sign of a difference, without branches: a busted hand
        // counts −1 (it loses even to a dealer bust).
        let charlie = self.charlie;
        let outcome = |h: &Hand| -> i64 {
            let bust = h.busted() as i64;
            let player = (1 - bust) * h.total() as i64 - bust;
            let sign = (player - beat).signum();
            // A Charlie (never busted: the hand stopped at its Nth card) wins; without the
            // rule (`u8::MAX`) the test is never true and predicted so.
            if h.cards >= charlie && bust == 0 {
                1
            } else {
                sign
            }
        };
        let mut net = 0;
        for h in hands {
            net += outcome(h) * (u << h.doubled as u32);
        }
        seat.net = net;
        seat.behind_none = outcome(&hands[0]) * u;
    }

    /// [`Self::settle`] under Free Bet Blackjack: a hand's real stakes win or lose, its free
    /// ones win or go back to the house, and a dealer 22 (`push22`) pushes every hand still
    /// standing.
    #[inline(never)]
    fn settle_free_bet(
        &self,
        seat: &mut SeatResult,
        hands: &[Hand],
        dealer_bj: bool,
        beat: i64,
        push22: bool,
    ) {
        let u = self.u;
        if seat.natural | seat.surrendered | dealer_bj {
            self.settle_early(seat, dealer_bj);
            return;
        }
        let outcome = |h: &Hand| -> i64 {
            if h.busted() {
                -1
            } else if push22 {
                0
            } else {
                (h.total() as i64 - beat).signum()
            }
        };
        let mut net = 0;
        for h in hands {
            let (real, free) = h.stakes();
            let o = outcome(h);
            net += if o > 0 {
                (real + free) * u
            } else {
                o * real * u
            };
        }
        seat.net = net;
        seat.behind_none = outcome(&hands[0]) * u;
    }

    /// [`Self::settle`] of a seat with a natural, a surrender, or facing a dealer blackjack.
    #[inline(never)]
    fn settle_early(&self, seat: &mut SeatResult, dealer_bj: bool) {
        let u = self.u;
        let rules = self.rules;
        if seat.natural {
            seat.net = if dealer_bj { 0 } else { self.bj };
            seat.behind_none = seat.net;
        } else if seat.surrendered {
            // Late surrender in the no-hole-card game does not escape a dealer blackjack.
            seat.net = if dealer_bj && rules.surrender == Surrender::Late {
                -u
            } else {
                -u / 2
            };
            seat.behind_none = seat.net;
        } else {
            // A peek game never got to play; ENHC takes all wagers or the original bet only.
            seat.net = if self.bj_takes_all {
                -seat.wagered
            } else if self.bj_takes_splits {
                -u * seat.hands as i64
            } else {
                -u
            };
            seat.behind_none = -u;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::rules::{BjPays, Double};
    use crate::games::blackjack::strategy::Strategy;
    use crate::rng::chunk_rng;

    /// Ranks by name: A, 2..9, T, J, Q, K.
    fn cards(s: &str) -> Vec<Rank> {
        s.split_whitespace()
            .map(|c| match c {
                "A" => 0,
                "T" => 9,
                "J" => 10,
                "Q" => 11,
                "K" => 12,
                d => d.parse::<u8>().unwrap() - 1,
            })
            .collect()
    }

    /// A strategy given as a closure.
    struct Play<F: Fn(&Situation) -> Action + Sync>(F, bool);
    impl<F: Fn(&Situation) -> Action + Sync> Strategy for Play<F> {
        fn act(&self, s: &Situation) -> Action {
            (self.0)(s)
        }
        fn insure(&self, _: u8, _: bool) -> bool {
            self.1
        }
    }

    /// Play one round dealing `deal` in order (player 1st, up, player 2nd, player's draws,
    /// then the dealer's), and check every forced card was used.
    fn round<F: Fn(&Situation) -> Action + Sync>(rules: &Rules, f: F, deal: &str) -> RoundResult {
        round_insured(rules, f, false, deal)
    }

    fn round_insured<F: Fn(&Situation) -> Action + Sync>(
        rules: &Rules,
        f: F,
        insure: bool,
        deal: &str,
    ) -> RoundResult {
        let strat = Play(f, insure);
        let mut t = Table::new(rules, &strat);
        t.shoe.force(&cards(deal));
        let mut rng = chunk_rng(0, 0);
        let r = *t.play_round(&mut rng);
        assert!(
            t.shoe.forced.is_empty(),
            "unused cards: {:?}",
            t.shoe.forced
        );
        r
    }

    fn stand(_: &Situation) -> Action {
        Action::Stand
    }

    fn seed() -> Rules {
        Rules::seed()
    }

    const U: i64 = 2; // units per bet at 3:2

    #[test]
    fn natural_pays_3_to_2_and_pushes_a_dealer_blackjack() {
        let r = round(&seed(), stand, "A 9 K 8");
        assert!(r.seats[0].natural);
        assert_eq!(r.seats[0].net, 3);
        let r = round(&seed(), stand, "A A K K");
        assert_eq!(r.dealer, DEALER_BJ);
        assert_eq!(r.seats[0].net, 0);
        let mut six5 = seed();
        six5.bj_pays = BjPays::SixToFive;
        let r = round(&six5, stand, "A 9 K 8");
        assert_eq!(r.seats[0].net, 12); // 1.2 bets of 10 units
    }

    #[test]
    fn ordinary_outcomes() {
        // 20 vs dealer 9+8 = 17: win.
        assert_eq!(round(&seed(), stand, "K 9 Q 8").seats[0].net, U);
        // 17 vs 9+T = 19: lose.
        assert_eq!(round(&seed(), stand, "K 9 7 T").seats[0].net, -U);
        // 18 vs 9+9 = 18: push.
        assert_eq!(round(&seed(), stand, "K 9 8 9").seats[0].net, 0);
        // 16 vs 6: dealer draws 6+T=16, then 9: bust.
        let r = round(&seed(), stand, "K 6 6 T 9");
        assert_eq!(r.dealer, DEALER_BUST);
        assert_eq!(r.seats[0].net, U);
        // Player busts and loses even though the dealer busts too.
        let hit_once = |s: &Situation| {
            if s.cards == 2 {
                Action::Hit
            } else {
                Action::Stand
            }
        };
        let r = round(&seed(), hit_once, "K 6 6 T T 9");
        assert_eq!(r.seats[0].busts, 1);
        assert_eq!(r.seats[0].net, -U);
    }

    #[test]
    fn the_playtech_settlement_takes_splits_but_returns_doubles() {
        let mut pt = seed();
        pt.dealer_bj_takes = DealerBjTakes::Splits;
        // Player doubles 11 vs ten up; the dealer's second card is an ace: the double is
        // returned, the original bet lost.
        let dbl = |s: &Situation| {
            if s.can_double {
                Action::Double
            } else {
                Action::Stand
            }
        };
        let r = round(&pt, dbl, "5 T 6 9 A");
        assert_eq!(r.dealer, DEALER_BJ);
        assert_eq!(r.seats[0].net, -U);
        // Split 8s against an ace, dealer blackjack: both hands' bets are lost.
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        let r = round(&pt, split, "8 A 8 T T K");
        assert_eq!(r.seats[0].splits, 1);
        assert_eq!(r.seats[0].net, -2 * U);
    }

    /// Free Bet Blackjack without the peek (the seed table's no-hole-card game with the
    /// rule), so that each round deals exactly the cards listed.
    fn free_bet() -> Rules {
        let mut r = seed();
        r.free_bet = true;
        r.das = true;
        r.max_hands = 4;
        r.surrender = Surrender::None;
        r
    }

    #[test]
    fn free_bet_doubles_hard_9_to_11_for_free_and_pays_them_when_they_win() {
        let fb = free_bet();
        let dbl = |s: &Situation| {
            if s.can_double && s.cards == 2 {
                Action::Double
            } else {
                Action::Stand
            }
        };
        // 6 5 = hard 11, doubled for free: T for 21 against 9 8 (17): the bet and the free
        // chip are paid (+2 bets), and only the bet was wagered.
        let r = round(&fb, dbl, "6 9 5 T 8");
        assert_eq!((r.seats[0].doubles, r.seats[0].net), (1, 2 * U));
        assert_eq!(r.seats[0].wagered, U);
        // The same double losing (2 to 13 against 19): only the bet is lost.
        let r = round(&fb, dbl, "6 9 5 2 T");
        assert_eq!(r.seats[0].net, -U);
        // A push returns the bet; the free chip goes back.
        let r = round(&fb, dbl, "6 9 5 7 9");
        assert_eq!(r.seats[0].net, 0);
        // A soft double (A 7) is paid for: lost, it costs two bets.
        let r = round(&fb, dbl, "A 9 7 T T");
        assert_eq!((r.seats[0].wagered, r.seats[0].net), (2 * U, -2 * U));
        // A hard 12 (7 5) doubled is paid for too: won, two bets.
        let r = round(&fb, dbl, "7 6 5 9 T 9");
        assert_eq!((r.seats[0].wagered, r.seats[0].net), (2 * U, 2 * U));
    }

    #[test]
    fn free_bet_splits_all_pairs_but_tens_for_free() {
        let fb = free_bet();
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        // 8 8 against a 7: hands 8 T (18) and 8 9 (17); the dealer makes 7 T = 17. The real
        // hand wins a bet, the free one pushes.
        let r = round(&fb, split, "8 7 8 T 9 T");
        assert_eq!((r.seats[0].splits, r.seats[0].net), (1, U));
        assert_eq!(r.seats[0].wagered, U);
        // Both lose to 7 Q + 3 = 20: only the real bet is lost.
        let r = round(&fb, split, "8 T 8 T 9 Q");
        assert_eq!(r.seats[0].net, -U);
        // Both win against a bust: the free chip is paid too.
        let r = round(&fb, split, "8 6 8 T 9 T 8");
        assert_eq!(r.seats[0].net, 2 * U);
        // A resplit is free as well: 8 8 8, three hands of 18 against 17.
        let r = round(&fb, split, "8 7 8 8 T T T");
        assert_eq!((r.seats[0].hands, r.seats[0].net), (3, 3 * U));
        assert_eq!(r.seats[0].wagered, U);
        // Tens are split with money: both hands lose two bets.
        let r = round(&fb, split, "K 9 Q 5 6 T");
        assert_eq!((r.seats[0].wagered, r.seats[0].net), (2 * U, -2 * U));
        // A free split hand doubled for free: 5 5 split (against a 6), first hand 5 6 = 11
        // doubled for free with a T (21), second 5 T stands (15); dealer 6 T T busts (26):
        // real hand +1 + free double +1, free hand +1.
        let both = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else if s.can_double && s.total == 11 {
                Action::Double
            } else {
                Action::Stand
            }
        };
        let r = round(&fb, both, "5 6 5 6 T T T T");
        assert_eq!((r.seats[0].doubles, r.seats[0].net), (1, 3 * U));
        assert_eq!(r.seats[0].wagered, U);
    }

    #[test]
    fn free_bet_dealer_22_pushes_hands_standing_but_not_a_blackjack_or_a_bust() {
        let fb = free_bet();
        // 20 against 6 T 6 = 22: a push.
        let r = round(&fb, stand, "K 6 Q T 6");
        assert_eq!((r.dealer, r.seats[0].net), (DEALER_BUST, 0));
        // A blackjack is paid 3:2 before the dealer draws to 22.
        let r = round(&fb, stand, "A 6 K T 6");
        assert_eq!(r.seats[0].net, 3);
        // A player bust loses whatever the dealer makes.
        let hit = |s: &Situation| {
            if s.total < 17 {
                Action::Hit
            } else {
                Action::Stand
            }
        };
        let r = round(&fb, hit, "K 6 6 9 T 6");
        assert_eq!(r.seats[0].net, -U);
        // 23 is a bust as usual: the standing hand wins.
        let r = round(&fb, stand, "K 6 Q T 7");
        assert_eq!(r.seats[0].net, U);
        // Free split hands push against 22 as well, and the bet behind pushes.
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        let r = round(&fb, split, "9 6 9 T T T 6");
        assert_eq!((r.seats[0].net, r.seats[0].behind_none), (0, 0));
    }

    #[test]
    fn free_bet_against_a_dealer_blackjack_loses_the_real_bets_only() {
        // No hole card, dealer blackjack takes all: a free double and a free split lose only
        // the bet.
        let fb = free_bet();
        let dbl = |s: &Situation| {
            if s.can_double {
                Action::Double
            } else {
                Action::Stand
            }
        };
        let r = round(&fb, dbl, "6 T 5 9 A");
        assert_eq!((r.dealer, r.seats[0].net), (DEALER_BJ, -U));
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        let r = round(&fb, split, "8 A 8 T T K");
        assert_eq!(r.seats[0].net, -U);
    }

    #[test]
    fn an_n_card_charlie_stands_and_wins_but_for_a_dealer_blackjack() {
        let mut five = seed();
        five.charlie = Some(5);
        let hit = |_: &Situation| Action::Hit;
        // 2 3, then 2 3 4: five cards, 14, against a ten and a nine (19). It stops at the
        // fifth card and wins.
        let r = round(&five, hit, "2 T 3 2 3 4 9");
        assert_eq!(r.seats[0].net, U);
        assert_eq!(r.seats[0].busts, 0);
        // The same hand against a dealer blackjack loses.
        let r = round(&five, hit, "2 T 3 2 3 4 A");
        assert_eq!(r.dealer, DEALER_BJ);
        assert_eq!(r.seats[0].net, -U);
        // Without the rule the hand draws on (a sixth card, the nine) and stands on 23: bust.
        let r = round(
            &seed(),
            |s: &Situation| {
                if s.cards < 6 {
                    Action::Hit
                } else {
                    Action::Stand
                }
            },
            "2 T 3 2 3 4 9 9",
        );
        assert_eq!(r.seats[0].busts, 1);
    }

    #[test]
    fn enhc_dealer_blackjack_takes_all_or_original_only() {
        // Player doubles 11 vs ten up; the dealer's second card is an ace.
        let dbl = |s: &Situation| {
            if s.can_double {
                Action::Double
            } else {
                Action::Stand
            }
        };
        let r = round(&seed(), dbl, "5 T 6 9 A");
        assert_eq!(r.dealer, DEALER_BJ);
        assert_eq!(r.seats[0].doubles, 1);
        assert_eq!(r.seats[0].net, -2 * U, "lose-all: the double is lost too");
        // A bet behind that declined the double loses its one bet either way.
        assert_eq!(r.seats[0].behind_none, -U);
        let mut obo = seed();
        obo.dealer_bj_takes = DealerBjTakes::Original;
        let r = round(&obo, dbl, "5 T 6 9 A");
        assert_eq!(r.seats[0].net, -U, "original bet only");
        assert_eq!(r.seats[0].behind_none, -U);
        // Split 8s against an ace, dealer has blackjack.
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        let r = round(&seed(), split, "8 A 8 T T K");
        assert_eq!(r.seats[0].splits, 1);
        assert_eq!(r.seats[0].net, -2 * U);
        let r = round(&obo, split, "8 A 8 T T K");
        assert_eq!(r.seats[0].net, -U);
    }

    #[test]
    fn peek_game_ends_at_once_on_dealer_blackjack() {
        let mut peek = seed();
        peek.peek = true;
        // Deal: player 5, up A, player 6, hole K: blackjack, nobody acts.
        let r = round(
            &peek,
            |_| panic!("no decisions after a peeked blackjack"),
            "5 A 6 K",
        );
        assert_eq!(r.dealer, DEALER_BJ);
        assert_eq!(r.seats[0].net, -U);
        // No blackjack: the hole card is dealt before the player acts.
        let dbl = |s: &Situation| {
            if s.can_double {
                Action::Double
            } else {
                Action::Stand
            }
        };
        let r = round(&peek, dbl, "5 T 6 7 9");
        assert_eq!(r.dealer, 0); // 17
        assert_eq!(r.seats[0].net, 2 * U);
    }

    #[test]
    fn split_aces_get_one_card_and_ace_ten_is_21_not_blackjack() {
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Hit
            }
        };
        // A A split; each ace gets one card (K, 5); the strategy would hit, but may not.
        // Dealer 9 + T = 19: the A+K hand (21) wins 1:1, the A+5 (16) loses.
        let r = round(&seed(), split, "A 9 A K 5 T");
        assert_eq!(r.seats[0].splits, 1);
        assert_eq!(r.seats[0].hands, 2);
        assert!(!r.seats[0].natural);
        assert_eq!(r.seats[0].net, 0, "+1 for 21 (not 3:2), -1 for 16");
        let r = round(&seed(), split, "A 9 A K Q T");
        assert_eq!(r.seats[0].net, 2 * U, "two 21s pay even money");
    }

    #[test]
    fn hit_and_resplit_split_aces_when_allowed() {
        let mut r4 = seed();
        r4.max_hands = 4;
        r4.resplit_aces = true;
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        // A A split, first ace draws A: resplit (3 hands), then cards 9, 8, 7.
        let r = round(&r4, split, "A 9 A A 9 8 7 T");
        assert_eq!(r.seats[0].splits, 2);
        assert_eq!(r.seats[0].hands, 3);
        // Without resplitting, the A+A hand stays a soft 12.
        let mut no_rsa = seed();
        no_rsa.max_hands = 4;
        let r = round(&no_rsa, split, "A 9 A A 9 T");
        assert_eq!(r.seats[0].hands, 2);
        // Hitting split aces.
        let mut hsa = seed();
        hsa.hit_split_aces = true;
        let hit_small = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else if s.total < 17 {
                Action::Hit
            } else {
                Action::Stand
            }
        };
        // Hand 1: A 2 (soft 13) hits 3 (soft 16), hits 2 (soft 18); hand 2: A T = 21;
        // dealer 9 + 8 = 17: both win.
        let r = round(&hsa, hit_small, "A 9 A 2 3 2 T 8");
        assert_eq!(r.seats[0].hands, 2);
        assert_eq!(r.seats[0].net, 2 * U);
        // Without the rule the same strategy gets one card per ace: A 2 and A 3 both lose
        // to 17 (cards: A 9 A, 2, 3, hole 8).
        let r = round(&seed(), hit_small, "A 9 A 2 3 8");
        assert_eq!(r.seats[0].net, -2 * U);
    }

    #[test]
    fn surrender_only_where_allowed() {
        let sur = |s: &Situation| {
            if s.can_surrender {
                Action::Surrender
            } else {
                Action::Stand
            }
        };
        // 16 vs 9: allowed at the seed table.
        let r = round(&seed(), sur, "T 9 6 T");
        assert!(r.seats[0].surrendered);
        assert_eq!(r.seats[0].net, -U / 2);
        // 16 vs T and vs A: not allowed (2-9 only): the player stands.
        let r = round(&seed(), sur, "T T 6 7");
        assert!(!r.seats[0].surrendered);
        let r = round(&seed(), sur, "T A 6 7");
        assert!(!r.seats[0].surrendered);
        // Not after a split, and not on three cards.
        let split_then_sur = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else if s.can_surrender {
                Action::Surrender
            } else {
                Action::Stand
            }
        };
        let r = round(&seed(), split_then_sur, "8 9 8 8 8 T");
        assert!(!r.seats[0].surrendered);
        let r = round(
            &seed(),
            |s| {
                if s.cards == 2 {
                    Action::Hit
                } else if s.can_surrender {
                    Action::Surrender
                } else {
                    Action::Stand
                }
            },
            "5 9 6 2 T",
        );
        assert!(!r.seats[0].surrendered);
        // Late surrender (no hole card) does not escape a dealer blackjack; early does.
        let mut late = seed();
        late.surrender = Surrender::Late;
        let r = round(&late, sur, "T A 6 K");
        assert!(r.seats[0].surrendered);
        assert_eq!(r.seats[0].net, -U);
        let mut early = seed();
        early.surrender = Surrender::Early;
        let r = round(&early, sur, "T A 6 K");
        assert_eq!(r.seats[0].net, -U / 2);
        // In a peek game early surrender is offered before the peek (deal: player, up, player,
        // hole): it escapes the dealer blackjack; it is taken only when asked for, and a
        // natural is not offered it (paid 3:2 against the dealer's A 9).
        let mut early_peek = seed();
        early_peek.peek = true;
        early_peek.surrender = Surrender::Early;
        let r = round(&early_peek, sur, "T A 6 K");
        assert!(r.seats[0].surrendered);
        assert_eq!(r.seats[0].net, -U / 2);
        let r = round(&early_peek, stand, "T A 6 K");
        assert!(!r.seats[0].surrendered);
        assert_eq!(r.seats[0].net, -U);
        let r = round(&early_peek, sur, "A A K 9");
        assert!(!r.seats[0].surrendered && r.seats[0].natural);
        assert_eq!(r.seats[0].net, 3 * U / 2);
        // None.
        let mut none = seed();
        none.surrender = Surrender::None;
        assert!(!round(&none, sur, "T 9 6 T").seats[0].surrendered);
    }

    /// A player that bets its seat number plus one and marks each seat with a class of its own
    /// (as a counter marks the true count), standing on everything.
    struct Classed;
    impl Player for Classed {
        const BETS: bool = true;
        const CLASSES: bool = true;
        fn bet(&mut self, seat: usize) -> u32 {
            seat as u32 + 1
        }
        fn class(&self, seat: usize) -> u8 {
            10 + seat as u8
        }
        fn act(&mut self, _: usize, _: &Situation) -> Action {
            Action::Stand
        }
        fn insure(&mut self, _: usize, _: u8, _: bool) -> bool {
            false
        }
    }
    impl crate::games::blackjack::strategy::Seats for Classed {
        type Player<'a> = Classed;
        fn player(&self) -> Classed {
            Classed
        }
    }

    /// Each seat's result carries the bet and the class its player gave before the deal.
    #[test]
    fn seats_carry_their_bets_and_classes() {
        let mut rules = seed();
        rules.players = 3;
        let mut t = Table::new(&rules, &Classed);
        let mut rng = chunk_rng(0, 0);
        let r = *t.play_round(&mut rng);
        let got: Vec<(u32, u8)> = r.seats[..3].iter().map(|s| (s.bet, s.class)).collect();
        assert_eq!(got, [(1, 10), (2, 11), (3, 12)]);
    }

    #[test]
    fn double_once_on_two_cards_only() {
        // Asks to double whenever below 12, allowed or not: a refused double is a hit.
        let always_double = |s: &Situation| {
            if s.total < 12 {
                Action::Double
            } else {
                Action::Stand
            }
        };
        // 2+3 = 5, double: exactly one card (4) -> 9 and done; dealer 9+8.
        let r = round(&seed(), always_double, "2 9 3 4 8");
        assert_eq!(r.seats[0].doubles, 1);
        assert_eq!(r.seats[0].wagered, 2 * U);
        assert_eq!(r.seats[0].net, -2 * U);
        // The amount wagered is twice the bet in the table's units whatever they are (6:5
        // counts in tenths of a bet).
        let mut six5 = seed();
        six5.bj_pays = BjPays::SixToFive;
        let u = six5.units_per_bet();
        assert_ne!(u, 2);
        let r = round(&six5, always_double, "2 9 3 4 8");
        assert_eq!(r.seats[0].wagered, 2 * u);
        assert_eq!(r.seats[0].net, -2 * u);
        // Double restrictions: 9-11 only.
        let mut r911 = seed();
        r911.double = Double::NineToEleven;
        let r = round(&r911, always_double, "2 9 3 4 8 T");
        // 5: no double allowed -> hit (4) 9 -> 3 cards: hit again (8) 17; dealer 9+T = 19.
        assert_eq!(r.seats[0].doubles, 0);
        assert_eq!(r.seats[0].net, -U);
    }

    #[test]
    fn no_double_after_split_unless_das() {
        let p = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else if s.can_double {
                Action::Double
            } else {
                Action::Stand
            }
        };
        // 9 9 split vs 6; hands get 2 (11) and 2 (11); no DAS: both stand on 11.
        let r = round(&seed(), p, "9 6 9 2 2 T 9");
        assert_eq!(r.seats[0].doubles, 0);
        let mut das = seed();
        das.das = true;
        // DAS: 9+2 doubles (gets T), 9+2 doubles (gets T); dealer 6+T+9 busts.
        let r = round(&das, p, "9 6 9 2 T 2 T T 9");
        assert_eq!(r.seats[0].doubles, 2);
        assert_eq!(r.seats[0].net, 4 * U);
    }

    #[test]
    fn split_limits_and_split_by() {
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        // Two hands at most: 8 8 split, the first hand draws another 8: no resplit.
        let r = round(&seed(), split, "8 7 8 8 T 7 T");
        assert_eq!(r.seats[0].hands, 2);
        let mut four = seed();
        four.max_hands = 4;
        let r = round(&four, split, "8 7 8 8 T T T 7 T");
        assert_eq!(r.seats[0].hands, 3);
        // K-Q splits by value, not by rank.
        let r = round(&seed(), split, "K 7 Q 5 6 7 T");
        assert_eq!(r.seats[0].splits, 1);
        let mut by_rank = seed();
        by_rank.split_by = SplitBy::Rank;
        let r = round(&by_rank, split, "K 7 Q 7 T");
        assert_eq!(r.seats[0].splits, 0);
        // No splitting at all.
        let mut one = seed();
        one.max_hands = 1;
        assert_eq!(round(&one, split, "8 7 8 7 T").seats[0].splits, 0);
    }

    #[test]
    fn dealer_s17_and_h17() {
        // Dealer A + 6 = soft 17.
        let r = round(&seed(), stand, "T A 8 6");
        assert_eq!(r.dealer, 0);
        assert_eq!(r.seats[0].net, U);
        let mut h17 = seed();
        h17.h17 = true;
        let r = round(&h17, stand, "T A 8 6 3");
        assert_eq!(r.dealer, 3); // 20
        assert_eq!(r.seats[0].net, -U);
    }

    #[test]
    fn side_bets_pairs_insurance_and_bet_behind() {
        // Pairs: same rank pays 11, K-Q is not a pair for the side bet.
        assert_eq!(round(&seed(), stand, "8 7 8 T").seats[0].pairs, 11);
        assert_eq!(round(&seed(), stand, "K 7 Q T").seats[0].pairs, -1);
        // Insurance taken with an ace up.
        let r = round_insured(&seed(), stand, true, "T A 9 K");
        assert!(r.seats[0].insured);
        assert!(r.dealer_bj());
        let r = round_insured(&seed(), stand, true, "T 9 9 K");
        assert!(!r.seats[0].insured, "insurance only against an ace");
        // Bet behind declining a double: the seat doubles 11 and wins 2 bets, the behind
        // bet stays undoubled and wins 1.
        let dbl = |s: &Situation| {
            if s.can_double {
                Action::Double
            } else {
                Action::Stand
            }
        };
        let r = round(&seed(), dbl, "5 9 6 9 8");
        assert_eq!(r.seats[0].net, 2 * U);
        assert_eq!(r.seats[0].behind_none, U);
        // Declining a split: stays on the first hand only.
        let split = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else {
                Action::Stand
            }
        };
        let r = round(&seed(), split, "8 9 8 T 2 8");
        // Hands 18 and 10 vs dealer 17: +1 and -1.
        assert_eq!(r.seats[0].net, 0);
        assert_eq!(r.seats[0].behind_none, U);
    }

    #[test]
    fn split_eights_against_seven_match_the_exact_value() {
        use crate::games::blackjack::exact::{initial_ev, DealerTable, Follow};
        let mut rules = seed();
        rules.shuffle = Shuffle::EveryRound;
        let chart = crate::games::blackjack::resolve::seed_chart();
        let (act, exact) = initial_ev(&rules, &Follow(&chart), &DealerTable::new(false), 6, 7, 7);
        assert_eq!(act, Action::Split);
        let mut t = Table::new(&rules, &chart);
        let mut rng = chunk_rng(5, 0);
        let n = 2_000_000;
        let (mut sum, mut sq) = (0f64, 0f64);
        for _ in 0..n {
            t.shoe.reshuffle();
            t.shoe.force(&cards("8 7 8"));
            let r = t.play_round(&mut rng);
            let x = r.seats[0].net as f64 / U as f64;
            sum += x;
            sq += x * x;
        }
        let mean = sum / n as f64;
        let se = ((sq / n as f64 - mean * mean) / n as f64).sqrt();
        crate::door::say(&format!(
            "8,8 vs 7: sim {mean:.5} ± {se:.5}, exact {exact:.5}"
        ));
        assert!(
            (mean - exact).abs() < 4.0 * se,
            "sim {mean} ± {se} vs exact {exact}"
        );
    }

    #[test]
    fn several_seats_play_in_order() {
        let mut r3 = seed();
        r3.players = 3;
        // Deal: seats' first cards T 9 5, up 6, second cards 8 9 6; seat 3 hits (11): T.
        // Dealer hole T: 16, draws 9: bust.
        let hit11 = |s: &Situation| {
            if s.total <= 11 {
                Action::Hit
            } else {
                Action::Stand
            }
        };
        let r = round(&r3, hit11, "T 9 5 6 8 9 6 T T 9");
        assert_eq!(r.players, 3);
        assert!(r.seats[..3].iter().all(|s| s.net == U));
    }

    /// What a seeing player was told, in order: `None` is a shuffle.
    struct Recorder<F: Fn(&Situation) -> Action> {
        f: F,
        events: Vec<Option<Rank>>,
        /// A rank the player must not have seen when it acts or insures (the peek game's
        /// hole card, when no other card of its rank is dealt before the players are done).
        hole: Option<Rank>,
        acts: usize,
    }

    impl<F: Fn(&Situation) -> Action> Recorder<F> {
        fn new(f: F, hole: Option<&str>) -> Self {
            Recorder {
                f,
                events: Vec::new(),
                hole: hole.map(|h| cards(h)[0]),
                acts: 0,
            }
        }
        fn seen(&self) -> Vec<Rank> {
            self.events.iter().flatten().copied().collect()
        }
        fn check_hole(&self) {
            if let Some(h) = self.hole {
                assert!(
                    !self.seen().contains(&h),
                    "the hole card was seen before the players were done: {:?}",
                    self.events
                );
            }
        }
    }

    impl<F: Fn(&Situation) -> Action> Player for Recorder<F> {
        const SEES: bool = true;
        fn act(&mut self, _seat: usize, s: &Situation) -> Action {
            self.check_hole();
            self.acts += 1;
            (self.f)(s)
        }
        fn insure(&mut self, _seat: usize, _total: u8, _soft: bool) -> bool {
            self.check_hole();
            true
        }
        fn see(&mut self, card: Rank) {
            self.events.push(Some(card));
        }
        fn shuffled(&mut self) {
            self.events.push(None);
        }
    }

    /// Play one round of `deal` (as `round`) for a recording player: the result, the cards
    /// seen, and how many decisions were asked.
    fn seen_round<F: Fn(&Situation) -> Action>(
        rules: &Rules,
        f: F,
        hole: Option<&str>,
        deal: &str,
    ) -> (RoundResult, Vec<Rank>, usize) {
        let mut t = Table::with_player(rules, Recorder::new(f, hole));
        t.shoe.force(&cards(deal));
        let r = *t.play_round(&mut chunk_rng(0, 0));
        assert!(t.shoe.forced.is_empty(), "unused: {:?}", t.shoe.forced);
        (r, t.player.seen(), t.player.acts)
    }

    #[test]
    fn the_player_sees_each_card_when_it_is_exposed() {
        let split_double = |s: &Situation| {
            if s.pair.is_some() {
                Action::Split
            } else if s.can_double {
                Action::Double
            } else {
                Action::Stand
            }
        };
        let mut das = seed();
        das.das = true;
        // No hole card: 9 9 split against a 6, each hand draws 2 and doubles (T); the dealer's
        // second card (T) and hit (9) come after. Everything is seen as dealt.
        let deal = "9 6 9 2 T 2 T T 9";
        let (r, seen, _) = seen_round(&das, split_double, None, deal);
        assert_eq!((r.seats[0].splits, r.seats[0].doubles), (1, 2));
        assert_eq!(seen, cards(deal));

        // Peek: the hole card (7) is dealt fourth but turned after the player is done, before
        // the dealer's hit (T: 23, a bust).
        let mut peek = das.clone();
        peek.peek = true;
        let (r, seen, acts) = seen_round(&peek, split_double, Some("7"), "9 6 9 7 2 T 2 T T");
        assert_eq!(r.dealer, DEALER_BUST);
        assert_eq!(r.seats[0].net, 4 * U);
        assert_eq!(acts, 3);
        assert_eq!(seen, cards("9 6 9 2 T 2 T 7 T"));

        // Peek, dealer blackjack: the hole card is turned at once; nobody acts (insurance is
        // decided before the hole card is dealt).
        let (r, seen, acts) = seen_round(&peek, |_| panic!("no play"), Some("K"), "5 A 6 K");
        assert!(r.dealer_bj() && r.seats[0].insured);
        assert_eq!(acts, 0);
        assert_eq!(seen, cards("5 A 6 K"));

        // Three seats, peek: first cards, up card, second cards, seat 3's hit (T), then the
        // hole card (7) and the dealer's hit (8: 21).
        let mut r3 = seed();
        r3.players = 3;
        r3.peek = true;
        let hit11 = |s: &Situation| {
            if s.total <= 11 {
                Action::Hit
            } else {
                Action::Stand
            }
        };
        let (r, seen, _) = seen_round(&r3, hit11, Some("7"), "T 9 5 6 8 9 6 7 T 8");
        assert_eq!(r.dealer, 4);
        let nets: Vec<i64> = r.seats[..3].iter().map(|s| s.net).collect();
        assert_eq!(nets, [-U, -U, 0]);
        assert_eq!(seen, cards("T 9 5 6 8 9 6 T 7 8"));

        // No hole card, three seats, a split with a hit: still the order of the deal.
        let mut e3 = seed();
        e3.players = 3;
        let deal = "8 5 T 6 8 4 7 9 T 3 T 9";
        let (_, seen, _) = seen_round(
            &e3,
            |s| {
                if s.pair.is_some() {
                    Action::Split
                } else if s.total <= 11 {
                    Action::Hit
                } else {
                    Action::Stand
                }
            },
            None,
            deal,
        );
        assert_eq!(seen, cards(deal));
    }

    /// Count of each rank in `cards`.
    fn ranks(cards: &[Rank]) -> [u32; 13] {
        let mut k = [0; 13];
        for &c in cards {
            k[c as usize] += 1;
        }
        k
    }

    #[test]
    fn over_whole_shoes_the_player_sees_exactly_the_cards_dealt() {
        let chart = crate::games::blackjack::resolve::seed_chart();
        for peek in [false, true] {
            let mut rules = seed();
            rules.peek = peek;
            rules.players = 3;
            rules.das = true;
            rules.max_hands = 4;
            let mut t = Table::with_player(&rules, Recorder::new(|s| chart.act(s), None));
            let mut rng = chunk_rng(3, 0);
            let mut rounds = 0;
            for _ in 0..50 {
                t.player.events.clear();
                t.play_shoe(&mut rng, |_| rounds += 1);
                let dealt = &t.shoe.dealt_cards()[..];
                assert!(dealt.len() < t.shoe.len(), "cards behind the cut are dealt");
                assert_eq!(t.player.events[0], None, "a shoe starts with a shuffle");
                let seen = t.player.seen();
                assert_eq!(
                    seen.len() + 1,
                    t.player.events.len(),
                    "one shuffle per shoe"
                );
                if peek {
                    // Hole cards are seen late: the same cards, not in the same order.
                    assert_eq!(ranks(&seen), ranks(dealt));
                    assert_ne!(seen, dealt);
                } else {
                    assert_eq!(seen, dealt);
                }
            }
            assert_eq!(t.shoe.reshuffles_mid_round, 0);
            assert!(rounds > 50 * 20);
        }
    }

    #[test]
    fn a_shoe_that_runs_out_mid_round_is_a_shuffle_the_player_sees() {
        // One deck, seven seats, the cut card near the end: rounds run out of cards.
        let mut rules = seed();
        rules.decks = 1;
        rules.players = 7;
        rules.shuffle = Shuffle::CutCard { penetration: 0.9 };
        let hit16 = |s: &Situation| {
            if s.total <= 16 {
                Action::Hit
            } else {
                Action::Stand
            }
        };
        for peek in [false, true] {
            rules.peek = peek;
            let mut t = Table::with_player(&rules, Recorder::new(hit16, None));
            let mut rng = chunk_rng(4, 0);
            let shoes = 300;
            for _ in 0..shoes {
                t.play_shoe(&mut rng, |_| ());
            }
            let mid = t.shoe.reshuffles_mid_round;
            assert!(mid > 10, "{mid} mid-round reshuffles");
            let events = &t.player.events;
            let shuffles = events.iter().filter(|e| e.is_none()).count() as u64;
            assert_eq!(shuffles, shoes + mid);
            // Between two shuffles, distinct cards: at most one deck (a missed shuffle would
            // show the shoe dealt past its end).
            for segment in events.split(|e| e.is_none()) {
                let cards: Vec<Rank> = segment.iter().flatten().copied().collect();
                assert!(cards.len() <= 52);
                assert!(ranks(&cards).iter().all(|&k| k <= 4), "{cards:?}");
            }
        }
    }
}
