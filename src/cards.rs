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
//!
//! That is the uniform shuffle, the default. Two other shuffles model real tables
//! ([`Shuffler`]; docs/shuffle.md): `Riffle(k)`, k Gilbert–Shannon–Reeds riffles of the
//! previous shoe, and `Machine`, a continuous shuffling machine. Each card keeps its suit
//! ([`Shoe::last_card`]), so a shuffle that carries cards over carries them whole.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::rng::{below, below_many, Rng, RngCore};

/// Card ranks: 0 = ace, 1..=8 = two..nine, 9 = ten, 10 = jack, 11 = queen, 12 = king.
pub type Rank = u8;

/// A card with its suit: `rank * 4 + suit` (the rank as [`Rank`]; suit 0 clubs, 1 diamonds,
/// 2 hearts, 3 spades). A shoe of several decks holds each card once per deck.
pub type CardId = u8;

/// The rank of a card.
pub fn rank_of(card: CardId) -> Rank {
    card / 4
}

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

/// How a shoe is shuffled (`--shuffle`; docs/shuffle.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shuffler {
    /// Every order of the whole shoe equally likely, whatever the shoe before it (the
    /// default). The cards a shoe deals depend on its own random stream only.
    #[default]
    Uniform,
    /// This many Gilbert–Shannon–Reeds riffles of the previous shoe as it was dealt: the
    /// first card dealt on top, the last card dealt above the cards that stayed behind the cut
    /// card (in their order). A chunk's first shoe is shuffled uniformly.
    Riffle(u8),
    /// A continuous shuffling machine: the cards of each round go back into the machine, each
    /// at a uniformly random place among the machine's cards, except the [`MACHINE_BUFFER`]
    /// cards it has already dropped for dealing. The shoe is the machine: it returns the
    /// cards after every round, and there is no cut card.
    Machine,
}

/// Cards a continuous shuffling machine has already dropped for dealing when a round's cards
/// go back into it (about one shelf: a One2Six-style machine spreads its cards over 38
/// shelves, 11 of 416 each, and drops a shelf at a time).
pub const MACHINE_BUFFER: usize = 10;

/// Most riffles [`Shuffler::Riffle`] takes (past 12 riffles, 8 decks are as mixed as any
/// test can tell).
pub const MAX_RIFFLES: u8 = 32;

/// A shuffle that cannot be: what `--shuffle` takes.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("expected uniform, riffle:K (K riffles, 1 to {MAX_RIFFLES}) or machine, found '{0}'")]
pub struct ShufflerError(pub String);

impl Shuffler {
    /// Whether this is the uniform shuffle (rules leave it out of their files).
    pub fn is_uniform(&self) -> bool {
        *self == Shuffler::Uniform
    }

    /// Check the number of riffles.
    pub fn validate(&self) -> Result<(), ShufflerError> {
        match *self {
            Shuffler::Riffle(k) if !(1..=MAX_RIFFLES).contains(&k) => {
                Err(ShufflerError(self.to_string()))
            }
            _ => Ok(()),
        }
    }

    /// Words for a rules line: "riffled 4 times", "continuous shuffling machine".
    pub fn describe(&self) -> String {
        match *self {
            Shuffler::Uniform => "uniform shuffle".into(),
            Shuffler::Riffle(1) => "riffled once".into(),
            Shuffler::Riffle(k) => format!("riffled {k} times"),
            Shuffler::Machine => {
                format!("continuous shuffling machine ({MACHINE_BUFFER}-card buffer)")
            }
        }
    }
}

/// As `--shuffle` takes it: `uniform`, `riffle:K`, `machine`.
impl fmt::Display for Shuffler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shuffler::Uniform => f.write_str("uniform"),
            Shuffler::Riffle(k) => write!(f, "riffle:{k}"),
            Shuffler::Machine => f.write_str("machine"),
        }
    }
}

impl FromStr for Shuffler {
    type Err = ShufflerError;
    fn from_str(s: &str) -> Result<Shuffler, ShufflerError> {
        let bad = || ShufflerError(s.to_string());
        let shuffler = match s {
            "uniform" => Shuffler::Uniform,
            "machine" => Shuffler::Machine,
            _ => {
                let k = s.strip_prefix("riffle:").ok_or_else(bad)?;
                Shuffler::Riffle(k.parse().map_err(|_| bad())?)
            }
        };
        shuffler.validate().map_err(|_| bad())?;
        Ok(shuffler)
    }
}

/// Slots of the card buffer: a power of two above the largest shoe (64 decks), so indices
/// masked with `SLOTS - 1` need no bounds check in the shuffle and the deal.
const SLOTS: usize = 4096;
const MASK: usize = SLOTS - 1;

/// Positions shuffled per 64-bit random number (the product of five ranges stays below 2^64
/// up to the largest shoe); batches are whole groups.
const GROUP: usize = 5;

/// A card in the buffer: its rank in the low four bits (what the deal returns, masked), its
/// suit above them.
type Slot = u8;

/// Swap two slots of the card buffer.
#[inline(always)]
fn swap(cards: &mut [Slot; SLOTS], i: usize, j: usize) {
    let (a, b) = (cards[i & MASK], cards[j & MASK]);
    cards[i & MASK] = b;
    cards[j & MASK] = a;
}

#[derive(Clone, Debug)]
pub struct Shoe {
    /// The shoe's cards in slots `..n`.
    cards: Box<[Slot; SLOTS]>,
    n: usize,
    /// The cards in their canonical order, restored at every uniform shuffle: the sequence a
    /// shoe deals then depends on its random stream only, never on how the previous shoe was
    /// played (common random numbers for strategy comparisons).
    fresh: Vec<Slot>,
    pos: usize,
    /// Positions `..ready` are shuffled (`pos <= ready`).
    ready: usize,
    /// Positions shuffled per batch.
    batch: usize,
    cut: usize,
    round_start: usize,
    /// How the shoe is shuffled.
    shuffler: Shuffler,
    /// A shuffle of the `shuffler` (not the uniform one) is due before the next card.
    pending: bool,
    /// Riffles: the cards lie in a shoe's order to riffle (the chunk's first shuffle, before
    /// it, is uniform).
    primed: bool,
    /// Riffles: each position's packet, and the cards in their new order.
    labels: Vec<u8>,
    riffled: Vec<Slot>,
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
    /// shuffle; rounded up to whole groups), uniformly ([`Shoe::shuffled_by`] for another
    /// shuffle).
    pub fn new(decks: u32, cut: usize, batch: usize) -> Shoe {
        let mut fresh = Vec::with_capacity(decks as usize * 52);
        for _ in 0..decks {
            for rank in 0..13u8 {
                for suit in 0..4u8 {
                    fresh.push(rank | suit << 4);
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
            shuffler: Shuffler::Uniform,
            pending: false,
            primed: false,
            labels: Vec::new(),
            riffled: Vec::new(),
            reshuffles_mid_round: 0,
            kept_on_refill: 0,
            #[cfg(test)]
            forced: Vec::new(),
        }
    }

    /// A shoe of the cards `values` counts by value (ace first, ten-valued last: dealt as tens,
    /// jacks, queens and kings in turn), cut after `cut` cards: a depleted or composed shoe, as
    /// an exact analysis of one is checked against its simulation.
    pub fn of_values(values: &[u32; 10], cut: usize, batch: usize) -> Shoe {
        let mut fresh = Vec::new();
        for (v, &k) in values.iter().enumerate() {
            for i in 0..k as usize {
                let (rank, suit) = match v {
                    0..=8 => (v, i % 4),
                    _ => (9 + i % 4, (i / 4) % 4),
                };
                fresh.push(rank as u8 | (suit as u8) << 4);
            }
        }
        let n = fresh.len();
        assert!(n > 0 && n <= SLOTS, "a shoe of 1 to {SLOTS} cards");
        let mut shoe = Shoe::new(1, cut, batch);
        shoe.cards[..n].copy_from_slice(&fresh);
        shoe.n = n;
        shoe.fresh = fresh;
        shoe.cut = cut.clamp(1, n);
        shoe
    }

    /// This shoe, shuffled by `shuffler` from now on.
    pub fn shuffled_by(mut self, shuffler: Shuffler) -> Shoe {
        self.shuffler = shuffler;
        if let Shuffler::Riffle(_) = shuffler {
            self.labels = vec![0; self.n];
            self.riffled = vec![0; self.n];
        }
        self
    }

    /// Gather every card back and shuffle. The lazy shuffle would deal uniformly from any
    /// order; the canonical order is restored so the deal depends on the stream only. The
    /// other shufflers shuffle at the next card dealt (they need the stream).
    #[inline(always)]
    pub fn reshuffle(&mut self) {
        if self.shuffler != Shuffler::Uniform {
            return self.reshuffle_later();
        }
        self.cards[..self.n].copy_from_slice(&self.fresh);
        self.pos = 0;
        self.ready = 0;
        self.round_start = 0;
    }

    /// A riffle or machine shuffle, due before the next card.
    #[cold]
    fn reshuffle_later(&mut self) {
        self.pending = true;
        if self.shuffler == Shuffler::Machine {
            // The cards dealt since the last return (`..pos`) go back at the next card, once
            // the buffer is out; cards shuffled ahead but not dealt are the machine's again.
            self.ready = self.pos;
        } else {
            self.pos = 0;
            self.ready = 0;
        }
        self.round_start = self.pos;
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

    /// The cards of the round in progress (or the one just played) in dealing order, with
    /// their suits: those kept on the table at a reshuffle in its middle first.
    pub fn round_cards(&self) -> impl Iterator<Item = CardId> + '_ {
        self.cards[self.round_start..self.pos]
            .iter()
            .map(|&c| (c & 15) * 4 + (c >> 4))
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

    /// How the shoe is shuffled.
    pub fn shuffler(&self) -> Shuffler {
        self.shuffler
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
        c & 15
    }

    /// The card dealt last, with its suit (a round log's card); only after a card is dealt.
    pub fn last_card(&self) -> CardId {
        debug_assert!(self.pos > 0, "no card dealt since the shuffle");
        let c = self.cards[self.pos.wrapping_sub(1) & MASK];
        (c & 15) * 4 + (c >> 4)
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
        self.cards[self.pos & MASK] & 15
    }

    /// Deal the card [`Shoe::peek`] showed, if `take`.
    #[inline(always)]
    pub fn skip(&mut self, take: bool) {
        debug_assert!(!self.needs_draw(take));
        self.pos += take as usize;
    }

    /// Shuffle the next batch of positions (after the shuffler's own shuffle when one is due,
    /// or refilling a shoe that ran out).
    #[cold]
    #[inline(never)]
    fn shuffle_ahead(&mut self, rng: &mut Rng) {
        if self.pending {
            self.shuffle_model(rng);
            if self.pos < self.ready {
                return;
            }
        }
        let n = self.n;
        if self.pos == n {
            self.refill_mid_round();
        }
        // A riffled shoe that ran out: its discards are shuffled whole (the next riffle takes
        // the shoe as it lies).
        let end = match self.shuffler {
            Shuffler::Riffle(_) => n,
            _ => (self.ready + self.batch).min(n),
        };
        self.fisher_yates(self.ready, end, rng);
        self.ready = end;
    }

    /// Shuffle positions `from..to` (Fisher–Yates: each takes a uniform card among those from
    /// it to the end): a group of positions per 64-bit draw, then one at a time near the end
    /// of the shoe.
    #[inline(always)]
    fn fisher_yates(&mut self, from: usize, to: usize, rng: &mut Rng) {
        let n = self.n;
        let cards = &mut *self.cards;
        let mut p = from;
        while p + GROUP <= to {
            let left = (n - p) as u64;
            let j: [u64; GROUP] = below_many(rng, std::array::from_fn(|k| left - k as u64));
            for (k, &j) in j.iter().enumerate() {
                swap(cards, p + k, p + k + j as usize);
            }
            p += GROUP;
        }
        while p < to {
            let j = p + below(rng, (n - p) as u32) as usize;
            swap(cards, j, p);
            p += 1;
        }
    }

    /// The shuffle of a riffle or a machine, due since [`Shoe::reshuffle`].
    #[cold]
    #[inline(never)]
    fn shuffle_model(&mut self, rng: &mut Rng) {
        self.pending = false;
        let n = self.n;
        match self.shuffler {
            Shuffler::Uniform => unreachable!("the uniform shuffle is lazy"),
            Shuffler::Riffle(k) => {
                if self.primed {
                    self.riffle(k, rng);
                } else {
                    self.fisher_yates(0, n, rng);
                    self.primed = true;
                }
                self.ready = n;
            }
            Shuffler::Machine => {
                // The buffer drops from the machine's cards before the round's go back.
                let dealt = self.pos;
                let buffer = (dealt + MACHINE_BUFFER).min(n);
                self.fisher_yates(dealt, buffer, rng);
                // The machine's cards other than the buffer are in no order until shuffled
                // (the lazy shuffle draws each position uniformly from them): the cards going
                // back join them at the end.
                self.cards[..n].rotate_left(dealt);
                self.pos = 0;
                self.ready = buffer - dealt;
                self.round_start = 0;
            }
        }
    }

    /// `k` Gilbert–Shannon–Reeds riffles of the cards as they lie, as 2^b-shuffles of at
    /// most 8 riffles each (Bayer & Diaconis 1992: an a-shuffle followed by a b-shuffle is an
    /// ab-shuffle, and one riffle is a 2-shuffle). A 2^b-shuffle: every position of the new
    /// order draws a uniform label below 2^b; the cards are cut from the top into packets, the
    /// j-th as large as the count of label j (a multinomial cut), and each position takes the
    /// next card of its label's packet (every interleaving of the packets equally likely).
    fn riffle(&mut self, k: u8, rng: &mut Rng) {
        let n = self.n;
        let mut left = k as u32;
        while left > 0 {
            let b = left.min(8);
            left -= b;
            let mask = (1u64 << b) - 1;
            for chunk in self.labels.chunks_mut((64 / b) as usize) {
                let mut x = rng.next_u64();
                for l in chunk {
                    *l = (x & mask) as u8;
                    x >>= b;
                }
            }
            let mut next = [0u16; 256];
            for &l in &self.labels {
                next[l as usize] += 1;
            }
            let mut top = 0;
            for c in next.iter_mut() {
                let size = *c;
                *c = top;
                top += size;
            }
            for (out, &l) in self.riffled.iter_mut().zip(&self.labels) {
                let from = &mut next[l as usize];
                *out = self.cards[*from as usize];
                *from += 1;
            }
            self.cards[..n].copy_from_slice(&self.riffled);
        }
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
            .find(|&j| self.cards[j] & 15 == rank)
            .expect("the forced rank is still in the shoe");
        self.cards.swap(self.pos, j);
        self.pos += 1;
        self.ready = self.ready.max(self.pos);
        rank
    }

    /// Tests: the ranks dealt since the last shuffle, in dealing order (meaningless once the
    /// shoe was refilled mid-round).
    #[cfg(test)]
    pub fn dealt_cards(&self) -> Vec<Rank> {
        self.cards[..self.pos].iter().map(|c| c & 15).collect()
    }

    /// Tests: the cards dealt since the last shuffle, with their suits.
    #[cfg(test)]
    pub fn dealt_ids(&self) -> Vec<CardId> {
        self.cards[..self.pos]
            .iter()
            .map(|c| (c & 15) * 4 + (c >> 4))
            .collect()
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

    /// `k` cards dealt, with their suits.
    fn deal_ids(shoe: &mut Shoe, rng: &mut Rng, k: usize) -> Vec<CardId> {
        (0..k)
            .map(|_| {
                shoe.draw(rng);
                shoe.last_card()
            })
            .collect()
    }

    /// The whole shoe as it lies, dealt or not, with suits.
    fn order(shoe: &Shoe) -> Vec<CardId> {
        shoe.cards[..shoe.n]
            .iter()
            .map(|c| (c & 15) * 4 + (c >> 4))
            .collect()
    }

    /// Rising sequences of `after` in the order `before` (one deck: every card once): 1 + the
    /// cards of `before` whose successor there comes before them in `after`.
    fn rising(before: &[CardId], after: &[CardId]) -> usize {
        let mut at = [0usize; 52];
        for (i, &c) in after.iter().enumerate() {
            at[c as usize] = i;
        }
        1 + before
            .windows(2)
            .filter(|w| at[w[1] as usize] < at[w[0] as usize])
            .count()
    }

    #[test]
    fn every_card_keeps_its_suit() {
        // Two decks dealt to the end: each card twice, its rank the one dealt.
        let mut rng = chunk_rng(12, 0);
        let mut shoe = Shoe::new(2, 104, 7);
        let mut seen = [0u8; 52];
        for _ in 0..104 {
            let r = shoe.draw(&mut rng);
            let c = shoe.last_card();
            assert_eq!(rank_of(c), r);
            seen[c as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k == 2), "{seen:?}");
    }

    #[test]
    fn shufflers_read_and_write_as_the_flag_takes_them() {
        for s in ["uniform", "riffle:1", "riffle:7", "riffle:32", "machine"] {
            assert_eq!(s.parse::<Shuffler>().unwrap().to_string(), s);
        }
        for bad in ["riffle:0", "riffle:33", "riffle", "riffle:x", "csm", ""] {
            let e = bad.parse::<Shuffler>().unwrap_err().to_string();
            assert!(
                e.contains("riffle:K") && e.contains(&format!("'{bad}'")),
                "{e}"
            );
        }
        let json = |s: Shuffler| serde_json::to_string(&s).unwrap();
        assert_eq!(json(Shuffler::Riffle(4)), r#"{"riffle":4}"#);
        assert_eq!(json(Shuffler::Machine), r#""machine""#);
        assert_eq!(Shuffler::default(), Shuffler::Uniform);
        assert!(Shuffler::Riffle(0).validate().is_err());
        assert_eq!(Shuffler::Riffle(7).describe(), "riffled 7 times");
    }

    #[test]
    fn riffles_shuffle_the_previous_shoe_as_it_lies() {
        // One deck dealt to a cut card after 30 cards: k riffles leave at most 2^k rising
        // sequences of the previous shoe's order (the cards dealt, then those behind the cut).
        for k in 1..=4u8 {
            let mut rng = chunk_rng(13, k as u64);
            let mut shoe = Shoe::new(1, 30, 5).shuffled_by(Shuffler::Riffle(k));
            shoe.reshuffle();
            deal_ids(&mut shoe, &mut rng, 30);
            let first = order(&shoe);
            let mut sorted = first.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..52).collect::<Vec<CardId>>());
            // The chunk's first shoe is shuffled uniformly: far from the fresh order.
            assert!(rising(&(0..52).collect::<Vec<_>>(), &first) > 16);
            let mut before = first;
            for _ in 0..50 {
                shoe.reshuffle();
                let dealt = deal_ids(&mut shoe, &mut rng, 30);
                let after = order(&shoe);
                assert_eq!(dealt, after[..30]);
                assert!(rising(&before, &after) <= 1 << k, "{k} riffles");
                before = after;
            }
        }
    }

    #[test]
    fn k_riffles_are_a_2_to_the_k_shuffle() {
        // After an a-shuffle of n cards, a permutation with r rising sequences has probability
        // C(a + n - r, n) / a^n (Bayer & Diaconis 1992): the number of rising sequences is r
        // with probability A(n, r) C(a + n - r, n) / a^n, A the Eulerian numbers. One deck;
        // 9 riffles are two passes (8, then 1).
        let n = 52usize;
        // eulerian[r]: permutations of n cards with r rising sequences.
        let mut eulerian = vec![0.0f64; n + 2];
        eulerian[1] = 1.0;
        for m in 2..=n {
            let mut next = vec![0.0f64; n + 2];
            for r in 1..=m {
                next[r] = r as f64 * eulerian[r] + (m - r + 1) as f64 * eulerian[r - 1];
            }
            eulerian = next;
        }
        let ln_choose = |a: f64, b: f64| {
            use statrs::function::gamma::ln_gamma;
            ln_gamma(a + 1.0) - ln_gamma(b + 1.0) - ln_gamma(a - b + 1.0)
        };
        for k in [2u8, 3, 4, 9] {
            let a = 2f64.powi(k as i32);
            let mut rng = chunk_rng(15, k as u64);
            let mut shoe = Shoe::new(1, 52, 5).shuffled_by(Shuffler::Riffle(k));
            shoe.reshuffle();
            deal_ids(&mut shoe, &mut rng, 52);
            let mut before = order(&shoe);
            let trials = 20_000u64;
            let mut hist = vec![0u64; n + 1];
            for _ in 0..trials {
                shoe.reshuffle();
                let after = deal_ids(&mut shoe, &mut rng, 52);
                hist[rising(&before, &after)] += 1;
                before = after;
            }
            let bins = (1..=n).map(|r| {
                let r_f = r as f64;
                let p = if eulerian[r] == 0.0 || r_f > a {
                    0.0
                } else {
                    (eulerian[r].ln() + ln_choose(a + n as f64 - r_f, n as f64) - n as f64 * a.ln())
                        .exp()
                };
                (hist[r], p * trials as f64)
            });
            let chi = crate::audit::ChiSquare::of(bins);
            assert!(chi.p > 1e-4, "{k} riffles: {chi:?} {hist:?}");
        }
    }

    #[test]
    fn the_machine_returns_each_rounds_cards_behind_its_buffer() {
        // One deck: a round of 6 cards goes back into the machine; none of the 6 comes out
        // among the next MACHINE_BUFFER cards, and past them each lands anywhere alike.
        let mut rng = chunk_rng(14, 0);
        let mut shoe = Shoe::new(1, 52, 5).shuffled_by(Shuffler::Machine);
        let mut landed = [0u64; 52];
        let trials = 20_000;
        for _ in 0..trials {
            shoe.reshuffle();
            let round = deal_ids(&mut shoe, &mut rng, 6);
            shoe.reshuffle();
            let all = deal_ids(&mut shoe, &mut rng, 52);
            let mut sorted = all.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..52).collect::<Vec<CardId>>(), "every card once");
            for (i, c) in all.iter().enumerate() {
                if round.contains(c) {
                    landed[i] += 1;
                }
            }
        }
        assert!(
            landed[..MACHINE_BUFFER].iter().all(|&k| k == 0),
            "{landed:?}"
        );
        let e = 6.0 * trials as f64 / (52 - MACHINE_BUFFER) as f64;
        let chi = crate::audit::ChiSquare::of(landed[MACHINE_BUFFER..].iter().map(|&k| (k, e)));
        assert!(chi.p > 1e-4, "{chi:?} {landed:?}");
    }

    #[test]
    fn a_machine_round_is_dealt_from_a_buffer_and_the_machine() {
        // Seeded deals of a machine shoe round by round, 8 decks: the composition is whole
        // (every card eight times among the cards in the machine and on the table).
        let mut rng = chunk_rng(16, 0);
        let mut shoe = Shoe::new(8, 416, 23).shuffled_by(Shuffler::Machine);
        for round in 0..2000 {
            shoe.reshuffle();
            shoe.begin_round();
            let k = 4 + round % 9;
            deal_ids(&mut shoe, &mut rng, k);
            let mut count = [0u32; 52];
            for c in order(&shoe) {
                count[c as usize] += 1;
            }
            assert!(count.iter().all(|&c| c == 8), "round {round}");
            assert_eq!(shoe.dealt(), k);
        }
        assert_eq!(shoe.reshuffles_mid_round, 0);
    }
}
