//! A player's or the dealer's hand.

use crate::cards::{value, value_char, Rank};

/// Dealer up cards by value index (0 = ace, 9 = ten) in the reports' table order: 2..9, T, A.
pub const UP_ORDER: [usize; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0];

/// The name of value index `i` (0 = ace): "A", "2", ..., "T".
pub fn up_name(i: usize) -> String {
    value_char(i as u8 + 1).to_string()
}

/// A hand, kept as its hard total (aces as 1) and whether it holds an ace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand {
    /// Sum with every ace counted as 1.
    pub hard: u8,
    pub has_ace: bool,
    pub cards: u8,
    /// Ranks of the first two cards (for pairs).
    pub first: Rank,
    pub second: Rank,
    /// Came from a split (so two cards totalling 21 are not a blackjack).
    pub split: bool,
    pub doubled: bool,
    /// Free Bet Blackjack: which of the hand's stakes are the house's free chips, which win
    /// like a bet but are never lost (`FREE_STAKE`: a free split, `FREE_DOUBLE`: a free
    /// double of a hard 9, 10 or 11). Eight bytes in all: a hand moves as one word.
    pub free: u8,
}

/// [`Hand::free`]: the hand's own stake is free.
pub const FREE_STAKE: u8 = 1;
/// [`Hand::free`]: its double is free.
pub const FREE_DOUBLE: u8 = 2;

impl Hand {
    /// An empty hand.
    pub fn new() -> Hand {
        Hand::default()
    }

    /// A two-card hand.
    pub fn two(a: Rank, b: Rank) -> Hand {
        let mut h = Hand::new();
        h.add(a);
        h.add(b);
        h.first = a;
        h.second = b;
        h
    }

    /// One card of a split pair, waiting for its second card.
    pub fn from_split(card: Rank) -> Hand {
        let mut h = Hand::new();
        h.add(card);
        h.first = card;
        h.split = true;
        h
    }

    /// Came from splitting aces.
    #[inline(always)]
    pub fn split_aces(&self) -> bool {
        self.split & (self.first == 0)
    }

    /// The hand's stakes in bets: (real, free), a double counted as a second stake.
    #[inline(always)]
    pub fn stakes(&self) -> (i64, i64) {
        let free = (self.free & FREE_STAKE != 0) as i64
            + (self.doubled & (self.free & FREE_DOUBLE != 0)) as i64;
        (1 + self.doubled as i64 - free, free)
    }

    /// Add a card (the first two ranks are recorded by `two`, `from_split` and
    /// `add_second`).
    #[inline(always)]
    pub fn add(&mut self, card: Rank) {
        self.cards += 1;
        self.hard += value(card);
        self.has_ace |= card == 0;
    }

    /// Add `card` if `take` (without a branch).
    #[inline(always)]
    pub fn add_if(&mut self, card: Rank, take: bool) {
        self.cards += take as u8;
        self.hard += value(card) * take as u8;
        self.has_ace |= (card == 0) & take;
    }

    /// The second card of a split hand.
    #[inline(always)]
    pub fn add_second(&mut self, card: Rank) {
        self.second = card;
        self.add(card);
    }

    /// An ace counts 11 when that does not bust.
    #[inline(always)]
    pub fn soft(&self) -> bool {
        self.has_ace & (self.hard <= 11)
    }

    #[inline(always)]
    pub fn total(&self) -> u8 {
        // A table: LLVM turns the arithmetic back into a branch on `soft`.
        static TOTALS: [[u8; 32]; 2] = {
            let mut t = [[0u8; 32]; 2];
            let mut hard = 0;
            while hard < 32 {
                t[0][hard] = hard as u8;
                t[1][hard] = hard as u8 + if hard <= 11 { 10 } else { 0 };
                hard += 1;
            }
            t
        };
        TOTALS[self.has_ace as usize][(self.hard & 31) as usize]
    }

    #[inline(always)]
    pub fn busted(&self) -> bool {
        self.hard > 21
    }

    /// A blackjack: ace and ten-value as the first two cards of an unsplit hand.
    #[inline(always)]
    pub fn natural(&self) -> bool {
        // `&`, not `&&`: one test of data the predictor cannot learn, not four.
        (self.cards == 2) & !self.split & self.has_ace & (self.hard == 11)
    }
}

impl Hand {
    /// The hand as a state of a [`DrawTable`]: its hard total and whether it holds an ace.
    #[inline(always)]
    pub fn state(&self) -> u8 {
        (self.hard & 31) | (self.has_ace as u8) << 5
    }

    /// The hand after a [`DrawTable`] took it to `state` by `drawn` more cards.
    #[inline(always)]
    pub fn set_state(&mut self, state: u8, drawn: u8) {
        self.hard = state & 31;
        self.has_ace = state & 32 != 0;
        self.cards += drawn;
    }
}

/// How a hand draws when no decision but hit-or-stand is left (the dealer's, or a fixed
/// chart's after its first hit against one up card): from each state (`Hand::state`: the hard
/// total and whether an ace is in), the state after drawing each rank, which is the same
/// state where the hand stands (or has busted). Drawing by table turns the loop "hit while
/// the rule says so", whose exit the branch predictor cannot learn, into steps of arithmetic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawTable {
    next: [[u8; 16]; 64],
}

impl DrawTable {
    /// The table of a hand that hits where `hits(hard, has_ace)` says (asked only of hands
    /// that have not busted).
    pub fn new(hits: impl Fn(u8, bool) -> bool) -> DrawTable {
        let mut next = [[0u8; 16]; 64];
        for (state, row) in next.iter_mut().enumerate() {
            let (hard, ace) = (state as u8 & 31, state as u8 & 32 != 0);
            let draws = hard <= 21 && hits(hard, ace);
            for (rank, cell) in row.iter_mut().enumerate() {
                *cell = state as u8;
                if draws {
                    let mut h = Hand {
                        hard,
                        has_ace: ace,
                        ..Hand::new()
                    };
                    h.add((rank as u8).min(12));
                    assert!(h.hard <= 31, "a hand that hits {hard} could pass 31");
                    *cell = h.state();
                }
            }
        }
        DrawTable { next }
    }

    /// Whether a hand in `state` draws.
    #[inline(always)]
    pub fn draws(&self, state: u8) -> bool {
        // Any card changes the hard total, so the state after an ace differs iff it draws.
        self.after(state, 0) != state
    }

    /// The state after `rank` is drawn in `state` (the same state when it stands).
    #[inline(always)]
    pub fn after(&self, state: u8, rank: Rank) -> u8 {
        self.next[(state & 63) as usize][(rank & 15) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Rank = 0;
    const T: Rank = 9;
    const K: Rank = 12;
    fn r(v: u8) -> Rank {
        v - 1
    }

    #[test]
    fn a_draw_table_draws_as_the_rule_and_hand_do() {
        // The dealer's rule, standing on all 17s: every hand of two cards drawn to the end
        // by the table ends as drawing card by card with `Hand::add` does.
        let s17 = |hard: u8, ace: bool| {
            let total = if ace && hard <= 11 { hard + 10 } else { hard };
            total < 17
        };
        let t = DrawTable::new(s17);
        let deck: Vec<Rank> = (0..13).collect();
        for &a in &deck {
            for &b in &deck {
                for start in 0..13u8 {
                    let (mut by_hand, mut state) = (Hand::two(a, b), Hand::two(a, b).state());
                    let mut i = start as usize;
                    while by_hand.total() < 17 {
                        let c = deck[i % 13];
                        assert!(t.draws(state));
                        by_hand.add(c);
                        state = t.after(state, c);
                        i += 5;
                    }
                    assert!(!t.draws(state), "{a} {b}");
                    assert_eq!(state, by_hand.state(), "{a} {b} from {start}");
                    // A hand that stands keeps its state whatever the card.
                    for &c in &deck {
                        assert_eq!(t.after(state, c), state);
                    }
                }
            }
        }
        // A rule that never hits leaves every state as it is, whatever the card.
        let never = DrawTable::new(|_, _| false);
        for state in 0..64u8 {
            assert!(!never.draws(state));
            for &c in &deck {
                assert_eq!(never.after(state, c), state);
            }
        }
        // Hitting soft 17: soft 17 draws, hard 17 stands.
        let h17 = DrawTable::new(|hard, ace| {
            let total = if ace && hard <= 11 { hard + 10 } else { hard };
            total < 17 || (total == 17 && ace && hard == 7)
        });
        assert!(h17.draws(Hand::two(A, r(6)).state()));
        assert!(!h17.draws(Hand::two(T, r(7)).state()));
        assert!(!t.draws(Hand::two(A, r(6)).state()));
    }

    #[test]
    fn totals_soft_and_hard() {
        let h = Hand::two(A, r(6));
        assert!(h.soft());
        assert_eq!(h.total(), 17);
        let mut h = h;
        h.add(r(9));
        assert!(!h.soft());
        assert_eq!(h.total(), 16);
        let mut aa = Hand::two(A, A);
        assert_eq!(aa.total(), 12);
        aa.add(A);
        assert_eq!(aa.total(), 13);
        aa.add(T);
        assert_eq!(aa.total(), 13);
        assert!(!aa.busted());
        aa.add(T);
        assert!(aa.busted());
    }

    #[test]
    fn naturals_only_unsplit() {
        assert!(Hand::two(A, K).natural());
        assert!(Hand::two(T, A).natural());
        let mut s = Hand::from_split(A);
        s.add(K);
        assert_eq!(s.total(), 21);
        assert!(!s.natural(), "A+ten after a split is 21, not blackjack");
        let mut three = Hand::two(r(5), r(6));
        three.add(T);
        assert_eq!(three.total(), 21);
        assert!(!three.natural());
    }

    #[test]
    fn split_aces_flag() {
        assert!(Hand::from_split(A).split_aces());
        assert!(!Hand::from_split(r(8)).split_aces());
        assert!(!Hand::two(A, A).split_aces());
        assert_eq!(std::mem::size_of::<Hand>(), 8);
    }
}
