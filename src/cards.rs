//! Cards: ranks, their values, and the shoe they are dealt from (blackjack and baccarat deal
//! from it alike).
//!
//! The shoe: cards dealt by a Fisher–Yates shuffle done a batch of positions ahead.
//!
//! Position `p` receives a uniform card among those not yet placed (swapped into place), so
//! the sequence dealt is a uniform random permutation. Positions are shuffled in order, a
//! batch at a time, just ahead of the deal: the shoe's stream is used by the shoe alone, so
//! the cards dealt are exactly those of a card-by-card (lazy) shuffle, while the shuffle runs
//! in a tight loop away from the branchy play, and costs little for cards never dealt.

use crate::rng::{below, below_many, Rng};

/// Card ranks: 0 = ace, 1..=8 = two..nine, 9 = ten, 10 = jack, 11 = queen, 12 = king.
pub type Rank = u8;

/// Blackjack value of a rank: ace = 1, faces = 10.
#[inline(always)]
pub fn value(rank: Rank) -> u8 {
    // A table, not a comparison: LLVM turns `min` or a select back into a branch here, and
    // the branch mispredicts on every few cards.
    const VALUES: [u8; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10, 10, 10];
    VALUES[(rank & 15) as usize]
}

/// Display character of a value (1..=10).
pub fn value_char(v: u8) -> char {
    match v {
        1 => 'A',
        10 => 'T',
        v => (b'0' + v) as char,
    }
}

/// Slots of the card buffer: a power of two above the largest shoe (64 decks), so indices
/// masked with `SLOTS - 1` need no bounds check in the shuffle and the deal.
const SLOTS: usize = 4096;
const MASK: usize = SLOTS - 1;

/// Positions shuffled per 64-bit random number (the product of five ranges stays below 2^64
/// up to the largest shoe); batches are whole groups.
const GROUP: usize = 5;

/// Swap two slots of the card buffer.
#[inline(always)]
fn swap(cards: &mut [Rank; SLOTS], i: usize, j: usize) {
    let (a, b) = (cards[i & MASK], cards[j & MASK]);
    cards[i & MASK] = b;
    cards[j & MASK] = a;
}

#[derive(Clone, Debug)]
pub struct Shoe {
    /// The shoe's cards in slots `..n`.
    cards: Box<[Rank; SLOTS]>,
    n: usize,
    /// The cards in their canonical order, restored at every shuffle: the sequence a shoe
    /// deals then depends on its random stream only, never on how the previous shoe was
    /// played (common random numbers for strategy comparisons).
    fresh: Vec<Rank>,
    pos: usize,
    /// Positions `..ready` are shuffled (`pos <= ready`).
    ready: usize,
    /// Positions shuffled per batch.
    batch: usize,
    cut: usize,
    round_start: usize,
    /// How often the shoe ran out in the middle of a round and the discards were reshuffled.
    pub reshuffles_mid_round: u64,
    /// At the last such reshuffle, the cards of the round on the table (kept out of it).
    pub kept_on_refill: usize,
    /// Tests only: cards dealt before any random card (last element first).
    #[cfg(test)]
    pub forced: Vec<Rank>,
}

impl Shoe {
    /// A fresh shoe of `decks` decks with the cut card after `cut` cards, shuffled at least
    /// `batch` positions at a time ahead of the deal (small when few cards are dealt per
    /// shuffle; rounded up to whole groups).
    pub fn new(decks: u32, cut: usize, batch: usize) -> Shoe {
        let mut fresh = Vec::with_capacity(decks as usize * 52);
        for _ in 0..decks {
            for rank in 0..13u8 {
                for _ in 0..4 {
                    fresh.push(rank);
                }
            }
        }
        let n = fresh.len();
        assert!(n <= SLOTS, "at most {} decks", SLOTS / 52);
        let mut cards = Box::new([0; SLOTS]);
        cards[..n].copy_from_slice(&fresh);
        let cut = cut.clamp(1, n);
        Shoe {
            fresh,
            cards,
            n,
            pos: 0,
            ready: 0,
            batch: batch.max(1).next_multiple_of(GROUP),
            cut,
            round_start: 0,
            reshuffles_mid_round: 0,
            kept_on_refill: 0,
            #[cfg(test)]
            forced: Vec::new(),
        }
    }

    /// Gather every card back and shuffle. The lazy shuffle would deal uniformly from any
    /// order; the canonical order is restored so the deal depends on the stream only.
    #[inline(always)]
    pub fn reshuffle(&mut self) {
        self.cards[..self.n].copy_from_slice(&self.fresh);
        self.pos = 0;
        self.ready = 0;
        self.round_start = 0;
    }

    /// Whether the cut card has come out (time to shuffle before the next round).
    #[inline(always)]
    pub fn past_cut(&self) -> bool {
        self.pos >= self.cut
    }

    /// Mark the start of a round (the cards on the table are those dealt from here on).
    #[inline(always)]
    pub fn begin_round(&mut self) {
        self.round_start = self.pos;
    }

    /// The cards of the round in progress (or the one just played) in dealing order: those
    /// kept on the table at a reshuffle in its middle first.
    pub fn round_cards(&self) -> &[Rank] {
        &self.cards[self.round_start..self.pos]
    }

    /// Cards dealt since the last shuffle.
    pub fn dealt(&self) -> usize {
        self.pos
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Deal one card.
    #[inline(always)]
    pub fn draw(&mut self, rng: &mut Rng) -> Rank {
        #[cfg(test)]
        if let Some(c) = self.forced.pop() {
            return self.take(c);
        }
        if self.pos == self.ready {
            self.shuffle_ahead(rng);
        }
        let c = self.cards[self.pos & MASK];
        self.pos += 1;
        c
    }

    /// Whether the next card, if taken, must be dealt by [`Shoe::draw`]: it is not shuffled
    /// yet (or, in tests, a card is forced). Otherwise [`Shoe::peek`] shows it. One
    /// comparison of a sum, so that LLVM cannot split it into a test of `take` (which the
    /// branch predictor cannot learn) and a test of the position.
    #[inline(always)]
    pub fn needs_draw(&self, take: bool) -> bool {
        #[cfg(test)]
        if take && !self.forced.is_empty() {
            return true;
        }
        self.pos + take as usize > self.ready
    }

    /// The next card, not dealt: only when `!needs_draw(true)` is it the card [`Shoe::draw`]
    /// would deal (otherwise it is not shuffled yet). With [`Shoe::skip`], a draw without a
    /// branch, for a hand that may or may not hit.
    #[inline(always)]
    pub fn peek(&self) -> Rank {
        self.cards[self.pos & MASK]
    }

    /// Deal the card [`Shoe::peek`] showed, if `take`.
    #[inline(always)]
    pub fn skip(&mut self, take: bool) {
        debug_assert!(!self.needs_draw(take));
        self.pos += take as usize;
    }

    /// Shuffle the next batch of positions (after refilling a shoe that ran out).
    #[cold]
    #[inline(never)]
    fn shuffle_ahead(&mut self, rng: &mut Rng) {
        let n = self.n;
        if self.pos == n {
            self.refill_mid_round();
        }
        let end = (self.ready + self.batch).min(n);
        let cards = &mut *self.cards;
        let mut p = self.ready;
        // A group of positions per 64-bit draw, then one at a time near the end of the shoe.
        while p + GROUP <= end {
            let left = (n - p) as u64;
            let j: [u64; GROUP] = below_many(rng, std::array::from_fn(|k| left - k as u64));
            for (k, &j) in j.iter().enumerate() {
                swap(cards, p + k, p + k + j as usize);
            }
            p += GROUP;
        }
        while p < end {
            let j = p + below(rng, (n - p) as u32) as usize;
            swap(cards, j, p);
            p += 1;
        }
        self.ready = end;
    }

    /// The shoe ran out during a round: the cards on the table stay out, every other card
    /// (the discards) is reshuffled and dealing goes on.
    fn refill_mid_round(&mut self) {
        let on_table = self.pos - self.round_start;
        self.kept_on_refill = on_table;
        if on_table >= self.n {
            // A single round used the whole shoe (absurd rules): start it over.
            self.pos = 0;
            self.ready = 0;
            self.reshuffles_mid_round += 1;
            return;
        }
        for i in 0..on_table {
            self.cards.swap(i, self.round_start + i);
        }
        self.pos = on_table;
        self.ready = on_table;
        self.round_start = 0;
        self.reshuffles_mid_round += 1;
    }

    /// Tests: deal a card of this rank from the cards not yet dealt (so the shoe's
    /// composition stays right).
    #[cfg(test)]
    fn take(&mut self, rank: Rank) -> Rank {
        let j = (self.pos..self.n)
            .find(|&j| self.cards[j] == rank)
            .expect("the forced rank is still in the shoe");
        self.cards.swap(self.pos, j);
        self.pos += 1;
        self.ready = self.ready.max(self.pos);
        rank
    }

    /// Tests: the cards dealt since the last shuffle, in dealing order (meaningless once the
    /// shoe was refilled mid-round).
    #[cfg(test)]
    pub fn dealt_cards(&self) -> &[Rank] {
        &self.cards[..self.pos]
    }

    /// Tests: deal exactly these ranks next, in order.
    #[cfg(test)]
    pub fn force(&mut self, ranks: &[Rank]) {
        self.forced = ranks.iter().rev().copied().collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::chunk_rng;

    #[test]
    fn values() {
        assert_eq!(value(0), 1);
        assert_eq!(value(1), 2);
        assert_eq!(value(8), 9);
        for r in 9..13 {
            assert_eq!(value(r), 10);
        }
    }

    #[test]
    fn value_chars() {
        let s: String = (1..=10).map(value_char).collect();
        assert_eq!(s, "A23456789T");
    }

    /// A card-by-card Fisher–Yates shuffle of `decks` fresh decks from `rng`: positions in
    /// groups of five per random number from the first, then one at a time.
    fn reference_deal(decks: u32, rng: &mut Rng) -> Vec<Rank> {
        let mut cards: Vec<Rank> = (0..decks)
            .flat_map(|_| (0..13u8).flat_map(|r| [r; 4]))
            .collect();
        let n = cards.len();
        let mut p = 0;
        while p + 5 <= n {
            let left = (n - p) as u64;
            let j: [u64; 5] = below_many(rng, std::array::from_fn(|k| left - k as u64));
            for (k, &j) in j.iter().enumerate() {
                cards.swap(p + k, p + k + j as usize);
            }
            p += 5;
        }
        while p < n {
            let j = p + below(rng, (n - p) as u32) as usize;
            cards.swap(p, j);
            p += 1;
        }
        cards
    }

    #[test]
    fn the_deal_is_the_reference_shuffle_whatever_the_batch() {
        // Two shoes in a row from one stream: the batch size changes neither the cards dealt
        // nor how much of the stream a shoe uses.
        for decks in [1, 2] {
            let mut rng = chunk_rng(5, 1);
            let want: Vec<Rank> = (0..2)
                .flat_map(|_| reference_deal(decks, &mut rng))
                .collect();
            let n = decks as usize * 52;
            for batch in [1, 5, 7, 10, 65, 1000] {
                let mut rng = chunk_rng(5, 1);
                let mut shoe = Shoe::new(decks, n, batch);
                let mut got = Vec::new();
                for _ in 0..2 {
                    shoe.reshuffle();
                    got.extend((0..n).map(|_| shoe.draw(&mut rng)));
                }
                assert_eq!(got, want, "{decks} decks, batch {batch}");
                assert_eq!(shoe.reshuffles_mid_round, 0);
            }
        }
    }

    #[test]
    fn reshuffle_restores_the_fresh_shoe() {
        // The deal after a reshuffle depends on the stream only, not on the previous shoe.
        let mut shoe = Shoe::new(1, 52, 5);
        let mut rng = chunk_rng(1, 0);
        for _ in 0..23 {
            shoe.draw(&mut rng);
        }
        assert_eq!(shoe.dealt(), 23);
        shoe.reshuffle();
        assert_eq!(shoe.dealt(), 0);
        let mut rng = chunk_rng(2, 0);
        let got: Vec<Rank> = (0..52).map(|_| shoe.draw(&mut rng)).collect();
        assert_eq!(got, reference_deal(1, &mut chunk_rng(2, 0)));
    }

    #[test]
    fn cut_card_size_and_count() {
        let mut rng = chunk_rng(4, 0);
        let mut shoe = Shoe::new(6, 10, 5);
        assert_eq!((shoe.len(), shoe.is_empty()), (312, false));
        for k in 0..10 {
            assert_eq!(shoe.dealt(), k);
            assert!(!shoe.past_cut(), "{k} dealt");
            shoe.draw(&mut rng);
        }
        assert_eq!(shoe.dealt(), 10);
        assert!(shoe.past_cut());
        // The cut is clamped to the shoe.
        assert_eq!(Shoe::new(1, 0, 5).cut, 1);
        assert_eq!(Shoe::new(1, 99, 5).cut, 52);
    }

    #[test]
    fn a_round_using_the_whole_shoe_starts_it_over() {
        let mut rng = chunk_rng(6, 0);
        let mut shoe = Shoe::new(1, 52, 5);
        shoe.begin_round();
        let first: Vec<Rank> = (0..52).map(|_| shoe.draw(&mut rng)).collect();
        assert_eq!(shoe.reshuffles_mid_round, 0);
        // The 53rd card: the whole shoe (the cards on the table included) reshuffled.
        let mut next: Vec<Rank> = (0..52).map(|_| shoe.draw(&mut rng)).collect();
        assert_eq!(shoe.reshuffles_mid_round, 1);
        assert_eq!(shoe.dealt(), 52);
        assert_ne!(next, first);
        next.sort_unstable();
        let mut fresh = first.clone();
        fresh.sort_unstable();
        assert_eq!(next, fresh);
    }

    #[test]
    fn the_discards_are_reshuffled_after_running_out() {
        // A round starts 10 cards before the end (more than a batch): those 10 stay out, the
        // other 42 are shuffled again (not dealt in their previous order).
        let mut rng = chunk_rng(8, 0);
        let mut shoe = Shoe::new(1, 52, 5);
        let before: Vec<Rank> = (0..42).map(|_| shoe.draw(&mut rng)).collect();
        shoe.begin_round();
        let table: Vec<Rank> = (0..10).map(|_| shoe.draw(&mut rng)).collect();
        let after: Vec<Rank> = (0..42).map(|_| shoe.draw(&mut rng)).collect();
        assert_eq!(shoe.reshuffles_mid_round, 1);
        assert_eq!(shoe.dealt(), 52);
        // Not dealt again in a previous order: no five cards in a row come out as before.
        for w in after.windows(5) {
            assert!(!before.windows(5).any(|v| v == w), "{w:?} again");
        }
        let (mut a, mut b) = (after.clone(), before.clone());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "the discards are the cards dealt before the round");
        let mut all = [table, after].concat();
        all.sort_unstable();
        assert_eq!(all, (0..13u8).flat_map(|r| [r; 4]).collect::<Vec<_>>());
    }

    #[test]
    fn a_full_deal_is_a_permutation_of_the_shoe() {
        let mut rng = chunk_rng(3, 0);
        let mut shoe = Shoe::new(2, 104, 7);
        let mut counts = [0u32; 13];
        for _ in 0..104 {
            counts[shoe.draw(&mut rng) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| c == 8), "{counts:?}");
        assert!(shoe.past_cut());
    }

    #[test]
    fn running_out_mid_round_keeps_table_cards_out() {
        let mut rng = chunk_rng(3, 0);
        let mut shoe = Shoe::new(1, 52, 5);
        for _ in 0..50 {
            shoe.draw(&mut rng);
        }
        shoe.begin_round();
        let mut table = vec![shoe.draw(&mut rng), shoe.draw(&mut rng)];
        // The shoe is empty now: the next 50 cards are the discards, reshuffled.
        let mut counts = [4u32; 13];
        for &c in &table {
            counts[c as usize] -= 1;
        }
        for _ in 0..50 {
            let c = shoe.draw(&mut rng);
            table.push(c);
            counts[c as usize] -= 1;
        }
        assert_eq!(shoe.reshuffles_mid_round, 1);
        assert!(counts.iter().all(|&c| c == 0), "{counts:?}");
    }

    #[test]
    fn first_card_is_uniform() {
        let mut counts = [0u32; 13];
        let mut rng = chunk_rng(9, 0);
        let mut shoe = Shoe::new(8, 300, 1);
        let n = 130_000;
        for _ in 0..n {
            shoe.reshuffle();
            counts[shoe.draw(&mut rng) as usize] += 1;
        }
        // Binomial(n, 1/13): sd ≈ 96.1; 5 sd.
        for c in counts {
            assert!((c as f64 - 10_000.0).abs() < 5.0 * 96.1, "{counts:?}");
        }
    }

    #[test]
    fn batched_draws_deal_uniform_independent_pairs() {
        // Five positions share a random number: each of the first five cards is uniform, and
        // the first two together are distributed as two draws without replacement.
        let mut rng = chunk_rng(11, 0);
        let mut shoe = Shoe::new(1, 52, 65);
        let n = 169_000;
        let mut at = [[0u32; 13]; 5];
        let mut pairs = [[0u32; 13]; 13];
        for _ in 0..n {
            shoe.reshuffle();
            let five: Vec<Rank> = (0..5).map(|_| shoe.draw(&mut rng)).collect();
            for (k, &c) in five.iter().enumerate() {
                at[k][c as usize] += 1;
            }
            pairs[five[0] as usize][five[1] as usize] += 1;
        }
        // Binomial(n, 1/13): mean 13,000, sd ≈ 109.5; 5 sd.
        for c in at.iter().flatten() {
            assert!((*c as f64 - 13_000.0).abs() < 5.0 * 109.5, "{at:?}");
        }
        // Same rank twice: 4/52 · 3/51; different ranks: 4/52 · 4/51.
        for (a, row) in pairs.iter().enumerate() {
            for (b, &c) in row.iter().enumerate() {
                let p = if a == b { 12.0 / 2652.0 } else { 16.0 / 2652.0 };
                let (mean, sd) = (n as f64 * p, (n as f64 * p * (1.0 - p)).sqrt());
                assert!(
                    (c as f64 - mean).abs() < 5.0 * sd,
                    "{a} {b}: {c} vs {mean:.0}"
                );
            }
        }
    }
}
