//! Exact (combinatorial) analysis of blackjack from a full shoe.
//!
//! Dealer probabilities are exact for any shoe: every dealer draw sequence from an up card is
//! enumerated once per rule set and grouped by the multiset of cards drawn (the probability of
//! an ordered draw without replacement depends on the multiset only), so the dealer's outcome
//! distribution for a shoe is a sum of products of falling factorials. Player decisions are
//! composition dependent: each hand's expected value uses the shoe minus the up card and every
//! card in the hand. In the hole-card game (and under original-bets-only settlement, which has
//! the same expected value), values are conditioned on the dealer not having blackjack,
//! including the player's draws.
//!
//! Splits: by exchangeability each split hand's cards, and the dealer's, are draws from the shoe
//! less the pair cards and the hand's own cards, so one split (two hands) is exact, with
//! post-split play either as before the split (CDZ-, the default, the convention of E. Farmer's
//! CA, whose published values the tests reproduce) or optimal knowing the pair (CDP).
//! Resplits (up to four hands) follow the number-of-hands decomposition of Farmer's CA; they
//! reproduce its published values to within 0.0004% of a bet (see the tests).

use std::collections::HashMap as StdHashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-and-rotate hasher for the analysis's memo keys (packed card counts): the
/// standard SipHash is made for untrusted keys and costs more than the look-up it serves.
#[derive(Default, Clone, Copy)]
pub(super) struct FastHasher(u64);
impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

/// A hash map with the fast hasher.
pub(super) type HashMap<K, V> = StdHashMap<K, V, BuildHasherDefault<FastHasher>>;

use rayon::prelude::*;

use super::rules::{Rules, Surrender};
use super::strategy::{Action, Situation, Strategy};

mod dealer;

pub use dealer::DealerTable;

/// Index of a card value: 0 = ace, 1..=8 = two..nine, 9 = ten-valued.
pub(super) const NV: usize = 10;

/// Dealer outcomes: 0..=4 totals 17..=21, 5 bust, 6 blackjack, 7 a 22 that pushes (Free Bet
/// Blackjack's tables only, `DealerTable::of`; elsewhere a 22 is a bust and this is 0).
pub const OUTCOMES: usize = 8;
/// The outcome of a dealer's 22 under Free Bet Blackjack (every standing hand pushes).
pub const DEALER_22: usize = 7;

/// How a decision is made in the analysis: the best action, or what a strategy says.
pub trait Decider: Sync {
    /// Pick among `options` (each with its expected value); returns the action and its EV.
    fn choose(&self, s: &Situation, options: &[(Action, f64)]) -> (Action, f64);

    /// The action wanted in `s` whatever the EVs (a fixed strategy's), so that only its value
    /// need be computed; `None` (the default) when the choice depends on the EVs. `choose`
    /// must then pick it when offered, else hit, else stand.
    fn fixed(&self, _s: &Situation) -> Option<Action> {
        None
    }
}

/// Maximize expected value (composition dependent).
pub struct Optimal;
impl Decider for Optimal {
    fn choose(&self, _s: &Situation, options: &[(Action, f64)]) -> (Action, f64) {
        let mut best = options[0];
        for &o in &options[1..] {
            if o.1 > best.1 {
                best = o;
            }
        }
        best
    }
}

/// Play a fixed strategy (falling back as the table does when its answer is not allowed).
pub struct Follow<'a, S: Strategy>(pub &'a S);
impl<S: Strategy> Decider for Follow<'_, S> {
    fn choose(&self, s: &Situation, options: &[(Action, f64)]) -> (Action, f64) {
        let want = self.0.act(s);
        let find = |a: Action| options.iter().find(|o| o.0 == a).copied();
        find(want)
            .or_else(|| find(Action::Hit))
            .or_else(|| find(Action::Stand))
            .unwrap_or(options[0])
    }
    fn fixed(&self, s: &Situation) -> Option<Action> {
        Some(self.0.act(s))
    }
}

/// What a fixed choice `want` comes to on a hand that may only hit or stand.
fn hit_or_stand(want: Action) -> Action {
    if want == Action::Stand {
        Action::Stand
    } else {
        Action::Hit
    }
}

/// Packed counts of the cards removed from the shoe (5 bits per value).
pub(super) type Key = u64;

/// Split context of a hand: (pair value index, pair cards removed beyond the hand's own);
/// `.1 == 0` for an unsplit hand.
pub(super) type Ctx = (usize, u8);

pub(super) fn key_of(c: &[u8; NV]) -> Key {
    c.iter()
        .enumerate()
        .fold(0u64, |k, (v, &n)| k | (n as u64) << (5 * v))
}

/// Per-up-card analysis state.
pub(super) struct Up<'a, P: Decider> {
    rules: &'a Rules,
    policy: &'a P,
    table: &'a DealerTable,
    up: usize,
    /// Shoe after the up card.
    shoe: [u32; NV],
    /// Condition on the dealer not having blackjack (peek game, or OBO settlement).
    no_bj: bool,
    /// A dealer blackjack takes the split hands' bets but not the doubles (in the world
    /// without conditioning, `no_bj` false).
    takes_splits_only: bool,
    /// Post-split play as before the split (CDZ-) rather than optimal after it (CDP).
    cdz: bool,
    /// Free Bet Blackjack: the hand being valued is a free split hand, whose stake wins like
    /// a bet but is never lost (its value is its chance of winning); set while `split_total`
    /// values the free hands.
    free: bool,
    dealer_memo: HashMap<Key, [f64; OUTCOMES]>,
    /// Value of a hit/stand-only hand: (removed cards key, pair value, extra pair cards
    /// removed). The pair value is part of the key: a split-8s hand 8,3,3 and a split-3s hand
    /// 3,8,8 remove the same cards.
    plain_memo: HashMap<(Key, u8, u8, bool), (f64, Action)>,
}

impl<'a, P: Decider> Up<'a, P> {
    pub(super) fn remaining(&self, removed: &[u8; NV]) -> [u32; NV] {
        let mut r = self.shoe;
        for v in 0..NV {
            r[v] = r[v].saturating_sub(removed[v] as u32);
        }
        r
    }

    /// P(dealer blackjack) from a shoe (ace or ten up only).
    pub(super) fn pbj(&self, rem: &[u32; NV]) -> f64 {
        let n: u32 = rem.iter().sum();
        match self.up {
            0 => rem[9] as f64 / n as f64,
            9 => rem[0] as f64 / n as f64,
            _ => 0.0,
        }
    }

    pub(super) fn dealer(&mut self, removed: &[u8; NV]) -> [f64; OUTCOMES] {
        let k = key_of(removed);
        if let Some(d) = self.dealer_memo.get(&k) {
            return *d;
        }
        let d = self.dealer_in_world(self.table.dist_cached(self.up, &self.remaining(removed)));
        self.dealer_memo.insert(k, d);
        d
    }

    /// The dealer's outcome distribution in this world from the table's cache shared by
    /// every analysis (for callers that share the analysis state between threads and keep
    /// their own memo in front of it).
    pub(super) fn dealer_shared(&self, removed: &[u8; NV]) -> [f64; OUTCOMES] {
        self.dealer_in_world(self.table.dist_cached(self.up, &self.remaining(removed)))
    }

    /// A dealer distribution conditioned on no blackjack when this world is.
    fn dealer_in_world(&self, mut d: [f64; OUTCOMES]) -> [f64; OUTCOMES] {
        if self.no_bj && d[6] > 0.0 {
            let keep = 1.0 - d[6];
            d[6] = 0.0;
            for x in d.iter_mut() {
                *x /= keep;
            }
        }
        d
    }

    /// Probability of drawing each value next (conditioned on no dealer blackjack if asked).
    pub(super) fn draw(&self, removed: &[u8; NV]) -> [f64; NV] {
        let rem = self.remaining(removed);
        let n: u32 = rem.iter().sum();
        let mut p = [0f64; NV];
        let cond = self.no_bj && (self.up == 0 || self.up == 9);
        let base = if cond { 1.0 - self.pbj(&rem) } else { 1.0 };
        for v in 0..NV {
            if rem[v] == 0 {
                continue;
            }
            p[v] = rem[v] as f64 / n as f64;
            if cond {
                let mut r2 = rem;
                r2[v] -= 1;
                p[v] *= (1.0 - self.pbj(&r2)) / base;
            }
        }
        p
    }

    /// The chance that standing on `total` wins (a dealer 22 under Free Bet pushes, and a
    /// dealer blackjack beats it in this world).
    fn win(&mut self, removed: &[u8; NV], total: u32) -> f64 {
        let d = self.dealer(removed);
        let mut p = d[5];
        for (i, &q) in d[..5].iter().enumerate() {
            if total > 17 + i as u32 {
                p += q;
            }
        }
        p
    }

    /// The value of standing on `total` for the hand being valued: its EV, or for a free
    /// split hand its chance of winning.
    fn stand_value(&mut self, removed: &[u8; NV], total: u32) -> f64 {
        if self.free {
            self.win(removed, total)
        } else {
            self.stand(removed, total)
        }
    }

    fn stand(&mut self, removed: &[u8; NV], total: u32) -> f64 {
        let d = self.dealer(removed);
        let mut ev = d[5] - d[6];
        for (i, &p) in d[..5].iter().enumerate() {
            let t = 17 + i as u32;
            if total > t {
                ev += p;
            } else if total < t {
                ev -= p;
            }
        }
        ev
    }

    pub(super) fn sit(&self, hard: u32, ace: bool, cards: u8, split: bool) -> Situation {
        let soft = ace && hard <= 11;
        Situation {
            total: if soft { hard as u8 + 10 } else { hard as u8 },
            soft,
            cards,
            pair: None,
            up: self.up as u8 + 1,
            can_double: false,
            can_surrender: false,
            split,
        }
    }

    /// Value of a hand that may only hit or stand; `removed` holds its cards (and the other
    /// pair card of a split).
    fn plain(&mut self, removed: &mut [u8; NV], hard: u32, ace: bool, cards: u8, ctx: Ctx) -> f64 {
        self.plain_choice(removed, hard, ace, cards, ctx).0
    }

    /// The value of a hit/stand-only hand and the action that gets it (stand when busted).
    pub(super) fn plain_choice(
        &mut self,
        removed: &mut [u8; NV],
        hard: u32,
        ace: bool,
        cards: u8,
        ctx: Ctx,
    ) -> (f64, Action) {
        if hard > 21 {
            return (if self.free { 0.0 } else { -1.0 }, Action::Stand);
        }
        if cards >= self.rules.charlie.unwrap_or(u8::MAX) {
            // An N-card Charlie wins, but for a dealer blackjack in this world.
            let d = self.dealer(removed);
            return (1.0 - 2.0 * d[6], Action::Stand);
        }
        let split = ctx.1 > 0;
        let k = (
            key_of(removed),
            if split { ctx.0 as u8 } else { u8::MAX },
            ctx.1,
            self.free,
        );
        if let Some(&v) = self.plain_memo.get(&k) {
            return v;
        }
        let total = if ace && hard <= 11 { hard + 10 } else { hard };
        let s = self.sit(hard, ace, cards, split);
        let fixed = self.policy.fixed(&s).map(hit_or_stand);
        let v = if split && self.cdz || fixed.is_some() {
            // A fixed strategy's choice needs no EVs. CDZ-: decide as the same cards would
            // before a split, then score that choice in the post-split shoe.
            let choice = match fixed {
                Some(a) => a,
                None => {
                    let mut un = *removed;
                    un[ctx.0] -= ctx.1;
                    let st_u = self.stand_value(&un, total);
                    let hit_u = self.hit(&mut un, hard, ace, cards, (ctx.0, 0));
                    self.policy
                        .choose(&s, &[(Action::Stand, st_u), (Action::Hit, hit_u)])
                        .0
                }
            };
            match choice {
                Action::Stand => (self.stand_value(removed, total), Action::Stand),
                _ => (self.hit(removed, hard, ace, cards, ctx), Action::Hit),
            }
        } else {
            let stand = self.stand_value(removed, total);
            let hit = self.hit(removed, hard, ace, cards, ctx);
            let (a, v) = self
                .policy
                .choose(&s, &[(Action::Stand, stand), (Action::Hit, hit)]);
            (v, a)
        };
        self.plain_memo.insert(k, v);
        v
    }

    fn hit(&mut self, removed: &mut [u8; NV], hard: u32, ace: bool, cards: u8, ctx: Ctx) -> f64 {
        let p = self.draw(removed);
        let mut ev = 0.0;
        for v in 0..NV {
            if p[v] == 0.0 {
                continue;
            }
            removed[v] += 1;
            ev += p[v] * self.plain(removed, hard + v as u32 + 1, ace || v == 0, cards + 1, ctx);
            removed[v] -= 1;
        }
        ev
    }

    fn double(&mut self, removed: &mut [u8; NV], hard: u32, ace: bool) -> f64 {
        if self.rules.free_bet {
            return self.double_free_bet(removed, hard, ace);
        }
        let p = self.draw(removed);
        let mut ev = 0.0;
        for v in 0..NV {
            if p[v] == 0.0 {
                continue;
            }
            let h = hard + v as u32 + 1;
            let a = ace || v == 0;
            let x = if h > 21 {
                -1.0
            } else {
                removed[v] += 1;
                let t = if a && h <= 11 { h + 10 } else { h };
                let s = self.stand(removed, t);
                removed[v] -= 1;
                s
            };
            ev += p[v] * x;
            if self.takes_splits_only {
                // A dealer blackjack returns the double: it costs the hand one bet, not two.
                removed[v] += 1;
                ev += p[v] * self.dealer(removed)[6] / 2.0;
                removed[v] -= 1;
            }
        }
        2.0 * ev
    }

    /// A double under Free Bet Blackjack: the hand's stake and the double's are each real or
    /// free (a free split hand; a free double of a hard 9, 10 or 11). A real stake wins or
    /// loses; a free one wins or is returned to the house.
    fn double_free_bet(&mut self, removed: &mut [u8; NV], hard: u32, ace: bool) -> f64 {
        let free_double = self.rules.free_double(hard as u8, ace);
        let real = (!self.free) as u8 as f64 + (!free_double) as u8 as f64;
        let free = 2.0 - real;
        let p = self.draw(removed);
        let mut ev = 0.0;
        for v in 0..NV {
            if p[v] == 0.0 {
                continue;
            }
            let h = hard + v as u32 + 1;
            let a = ace || v == 0;
            let x = if h > 21 {
                -real
            } else {
                removed[v] += 1;
                let t = if a && h <= 11 { h + 10 } else { h };
                let x = real * self.stand(removed, t) + free * self.win(removed, t);
                removed[v] -= 1;
                x
            };
            ev += p[v] * x;
        }
        ev
    }

    /// A split hand of pair value index `pv` holding `c` as its second card, with `extra`
    /// pair cards out of the shoe in other hands (no resplitting here: see `split_total`).
    fn split_hand(&mut self, pv: usize, c: usize, extra: u8) -> f64 {
        self.split_choice(pv, c, extra).1
    }

    /// The first decision of a split hand of pair `pv` holding `c` (see `split_hand`) and its
    /// value.
    pub(super) fn split_choice(&mut self, pv: usize, c: usize, extra: u8) -> (Action, f64) {
        let rules = self.rules;
        let mut removed = [0u8; NV];
        removed[pv] += 1 + extra;
        removed[c] += 1;
        let hard = (pv + 1 + c + 1) as u32;
        let ace = pv == 0 || c == 0;
        let locked = pv == 0 && !rules.hit_split_aces;
        let soft = ace && hard <= 11;
        let total = if soft { hard + 10 } else { hard };
        let ctx = (pv, extra);
        let can_double = !locked && rules.das && rules.double_allowed(hard as u8, soft);
        let mut options = vec![(Action::Stand, self.stand_value(&removed, total))];
        if !locked {
            options.push((Action::Hit, self.hit(&mut removed, hard, ace, 2, ctx)));
            if can_double {
                options.push((Action::Double, self.double(&mut removed, hard, ace)));
            }
        }
        if self.cdz && !locked {
            // CDZ-: the choice the same two cards get before a split, among the actions
            // allowed now.
            let mut un = removed;
            un[pv] -= extra;
            let mut pre = vec![
                (Action::Stand, self.stand_value(&un, total)),
                (Action::Hit, self.hit(&mut un, hard, ace, 2, (pv, 0))),
            ];
            if can_double {
                pre.push((Action::Double, self.double(&mut un, hard, ace)));
            }
            let mut s = self.sit(hard, ace, 2, true);
            s.can_double = can_double;
            let a = self.policy.choose(&s, &pre).0;
            options.retain(|o| o.0 == a);
        }
        // Resplits are accounted for by `split_total` (the number of hands), not here.
        let mut s = self.sit(hard, ace, 2, true);
        s.can_double = options.iter().any(|o| o.0 == Action::Double);
        if locked {
            return options[0];
        }
        self.policy.choose(&s, &options)
    }

    /// Expected value of splitting a pair of value index `pv`, all hands together (in the
    /// world of `self.no_bj`). Split once: twice one hand's value. With resplits to `H` ≤ 4
    /// hands, E. Farmer's algorithm ("Splitting pairs" in his CA): the split is decomposed by
    /// the number of hands and, for `H` hands, by how many hands were completed before the
    /// last pair card came; each hand's value is that of one hand with `2 + a` pair cards
    /// and `b` random non-pair cards (the other hands' second cards) out of the shoe, where
    /// removing a random non-pair card is expressed exactly through values with one more
    /// pair card removed. Assembled in the unconditioned world (where a dealer blackjack
    /// takes only the original bet in the hole-card game) and then conditioned.
    fn split_total(&mut self, pv: usize) -> f64 {
        let rules = self.rules;
        let cap = if pv == 0 && !rules.resplit_aces {
            2
        } else {
            rules.max_hands.max(2)
        };
        if rules.free_split(pv as u8 + 1) {
            return self.free_split_total(pv, cap);
        }
        if cap == 2 {
            return 2.0 * self.split_hand_avg(pv, 1);
        }
        let cap = cap.min(4) as usize;
        let mut removed = [0u8; NV];
        removed[pv] = 2;
        let rem = self.remaining(&removed);
        let (ev_x, ev_p) = self.split_hand_evs(pv, cap, &rem);
        let raw = resplit_total(&ev_x, &ev_p, &rem, pv, cap);
        if !self.no_bj {
            return raw;
        }
        self.split_after_peek(pv, cap, &rem, raw)
    }

    /// `split_total` of a free split (Free Bet Blackjack): the hand that keeps the original
    /// bet is real, every other hand's stake is free (its value its chance of winning). Each
    /// hand of a split to `h` hands is the real one with chance 1/h, as the hands are
    /// exchangeable in the decomposition.
    fn free_split_total(&mut self, pv: usize, cap: u8) -> f64 {
        if cap == 2 {
            let real = self.split_hand_avg(pv, 1);
            self.free = true;
            let free = self.split_hand_avg(pv, 1);
            self.free = false;
            return real + free;
        }
        let cap = cap.min(4) as usize;
        let mut removed = [0u8; NV];
        removed[pv] = 2;
        let rem = self.remaining(&removed);
        let real = self.split_hand_evs(pv, cap, &rem);
        self.free = true;
        let free = self.split_hand_evs(pv, cap, &rem);
        self.free = false;
        let raw = resplit_total_free(real, free, &rem, pv, cap);
        if !self.no_bj {
            return raw;
        }
        // A dealer blackjack takes the real hand's bet only (counted once, in the real
        // hands' values): condition on no blackjack.
        let pbj0 = self.pbj(&rem);
        (raw + pbj0) / (1.0 - pbj0)
    }

    /// EV[X; a]: one split hand of pair `pv` whose second card is any card, with 2 + a pair
    /// cards out (of `rem`, the shoe less the pair); EV[P; a]: the same hand when its second
    /// card is the pair card. Raw (unconditioned) values: a dealer blackjack costs this hand's
    /// bet. `split_total`'s recursion reaches a = 2·(cap − 2) pair cards out.
    fn split_hand_evs(&mut self, pv: usize, cap: usize, rem: &[u32; NV]) -> ([f64; 5], [f64; 5]) {
        let mut ev_x = [0f64; 5];
        let mut ev_p = [0f64; 5];
        for a in 0..=(2 * (cap - 2)).min(rem[pv] as usize) {
            let mut rk = [0u8; NV];
            rk[pv] = 2 + a as u8;
            let remk = self.remaining(&rk);
            let nk = remk.iter().sum::<u32>() as f64;
            for c in 0..NV {
                if remk[c] == 0 {
                    continue;
                }
                let cond = self.split_hand(pv, c, a as u8 + 1);
                let v = if self.no_bj {
                    let mut rc = rk;
                    rc[c] += 1;
                    let pb = self.pbj(&self.remaining(&rc));
                    // A free hand loses nothing to a dealer blackjack.
                    let lost = if self.free { 0.0 } else { pb };
                    -lost + (1.0 - pb) * cond
                } else {
                    cond
                };
                ev_x[a] += remk[c] as f64 / nk * v;
                if c == pv {
                    ev_p[a] = v;
                }
            }
        }
        (ev_x, ev_p)
    }

    /// `raw`, the unconditioned value of splitting pair `pv` up to `cap` hands, conditioned on
    /// no dealer blackjack. In the hole-card game a dealer blackjack takes the original bet
    /// only: the extra hands counted as lost are refunded, their number computed with the
    /// hole card out too.
    fn split_after_peek(&self, pv: usize, cap: usize, rem: &[u32; NV], raw: f64) -> f64 {
        let pbj0 = self.pbj(rem);
        let mut with_hole = *rem;
        let hole = if self.up == 0 { 9 } else { 0 };
        with_hole[hole] = with_hole[hole].saturating_sub(1);
        let nh = with_hole.iter().sum::<u32>() as f64;
        let ph = with_hole[pv] as f64;
        let p2 = (nh - ph) / nh * (nh - ph - 1.0) / (nh - 1.0);
        let (p3, p4) = if cap > 3 {
            let p3 = 2.0 * ph / nh * (nh - ph) / (nh - 1.0) * (nh - ph - 1.0) / (nh - 2.0)
                * (nh - ph - 2.0)
                / (nh - 3.0);
            (p3, 1.0 - p2 - p3)
        } else {
            (1.0 - p2, 0.0)
        };
        let expected_hands = 2.0 * p2 + 3.0 * p3 + 4.0 * p4;
        let raw = raw + (expected_hands - 1.0) * pbj0;
        (raw + pbj0) / (1.0 - pbj0)
    }

    /// Expected value of one split hand of pair `pv` before its second card.
    fn split_hand_avg(&mut self, pv: usize, extra: u8) -> f64 {
        let mut removed = [0u8; NV];
        removed[pv] += 1 + extra;
        let p = self.draw(&removed);
        let mut ev = 0.0;
        for (c, &pc) in p.iter().enumerate() {
            if pc > 0.0 {
                ev += pc * self.split_hand(pv, c, extra);
            }
        }
        ev
    }

    /// The initial decision on two cards (not a natural). Returns the chosen action and its
    /// EV, in the world of `self.no_bj`.
    pub(super) fn initial(&mut self, c1: usize, c2: usize) -> (Action, f64) {
        let (s, offered) = self.initial_situation(c1, c2);
        if let Some(want) = self.policy.fixed(&s) {
            let a = if offered.contains(&want) {
                want
            } else {
                Action::Hit
            };
            return (a, self.initial_value(c1, c2, a));
        }
        let options = offered
            .iter()
            .map(|&a| (a, self.initial_value(c1, c2, a)))
            .collect::<Vec<_>>();
        self.policy.choose(&s, &options)
    }

    /// The decision on two initial cards (not a natural) and the hand's EV in the
    /// unconditioned world, `pbj` being the chance of a dealer blackjack: in the no-blackjack
    /// world a dealer blackjack costs the original bet, and early surrender (half the bet,
    /// before the dealer's blackjack is known) is taken when it beats playing on.
    pub(super) fn round_choice(&mut self, c1: usize, c2: usize, pbj: f64) -> (Action, f64) {
        let (act, v) = self.initial(c1, c2);
        if !self.no_bj {
            return (act, v);
        }
        let early = self.rules.surrender == Surrender::Early && pbj > 0.0;
        let cont = -pbj + (1.0 - pbj) * v;
        if early && -0.5 > cont {
            (Action::Surrender, -0.5)
        } else {
            (act, cont)
        }
    }

    /// The up card's value index (ace = 0).
    pub(super) fn up_index(&self) -> usize {
        self.up
    }

    /// Conditioned on no dealer blackjack (hole-card game, or original-bets-only settlement).
    pub(super) fn no_bj(&self) -> bool {
        self.no_bj
    }

    /// Every action allowed on two initial cards (not a natural) with its EV.
    pub(super) fn initial_options(
        &mut self,
        c1: usize,
        c2: usize,
    ) -> (Situation, Vec<(Action, f64)>) {
        let (s, offered) = self.initial_situation(c1, c2);
        let options = offered
            .iter()
            .map(|&a| (a, self.initial_value(c1, c2, a)))
            .collect();
        (s, options)
    }

    /// The situation of two initial cards (not a natural) and the actions allowed on them.
    pub(super) fn initial_situation(&self, c1: usize, c2: usize) -> (Situation, Vec<Action>) {
        let rules = self.rules;
        let hard = (c1 + c2 + 2) as u32;
        let ace = c1 == 0 || c2 == 0;
        let soft = ace && hard <= 11;
        let mut offered = vec![Action::Stand, Action::Hit];
        if rules.double_allowed(hard as u8, soft) {
            offered.push(Action::Double);
        }
        let pair = c1 == c2 && rules.max_hands >= 2;
        if pair {
            offered.push(Action::Split);
        }
        if rules.surrender_allowed(self.up as u8 + 1) {
            offered.push(Action::Surrender);
        }
        let mut s = self.sit(hard, ace, 2, false);
        s.can_double = offered.contains(&Action::Double);
        s.can_surrender = offered.contains(&Action::Surrender);
        s.pair = if pair { Some(c1 as u8 + 1) } else { None };
        (s, offered)
    }

    /// The EV of action `a` on two initial cards (not a natural).
    fn initial_value(&mut self, c1: usize, c2: usize, a: Action) -> f64 {
        let rules = self.rules;
        let mut removed = [0u8; NV];
        removed[c1] += 1;
        removed[c2] += 1;
        let hard = (c1 + c2 + 2) as u32;
        let ace = c1 == 0 || c2 == 0;
        let total = if ace && hard <= 11 { hard + 10 } else { hard };
        match a {
            Action::Stand => self.stand(&removed, total),
            Action::Hit => self.hit(&mut removed, hard, ace, 2, (c1, 0)),
            Action::Double => self.double(&mut removed, hard, ace),
            Action::Split => self.split_total(c1),
            // Late surrender without a hole card still loses everything to a blackjack.
            Action::Surrender => match rules.surrender {
                Surrender::Late if !rules.peek && !self.no_bj => {
                    let p = self.pbj(&self.remaining(&removed));
                    -p - 0.5 * (1.0 - p)
                }
                _ => -0.5,
            },
        }
    }

    /// The up card's analysis state, from a full shoe.
    pub(super) fn new(
        rules: &'a Rules,
        policy: &'a P,
        table: &'a DealerTable,
        up: usize,
        post_split: PostSplit,
    ) -> Up<'a, P> {
        Up::with_shoe(rules, policy, table, up, post_split, full_shoe(rules.decks))
    }

    /// The up card's analysis state from the shoe `shoe` (cards by value, ace first, before
    /// the up card is taken out; it must hold the up card).
    pub(super) fn with_shoe(
        rules: &'a Rules,
        policy: &'a P,
        table: &'a DealerTable,
        up: usize,
        post_split: PostSplit,
        mut shoe: [u32; NV],
    ) -> Up<'a, P> {
        shoe[up] -= 1;
        Up {
            rules,
            policy,
            table,
            up,
            shoe,
            no_bj: rules.peek || rules.dealer_bj_takes == super::rules::DealerBjTakes::Original,
            takes_splits_only: !rules.peek
                && rules.dealer_bj_takes == super::rules::DealerBjTakes::Splits,
            cdz: post_split == PostSplit::CdzMinus,
            free: false,
            dealer_memo: HashMap::default(),
            plain_memo: HashMap::default(),
        }
    }

    /// Stand and hit EVs of a hand of three or more cards (unsplit).
    pub(super) fn stand_hit(
        &mut self,
        removed: &mut [u8; NV],
        hard: u32,
        ace: bool,
        cards: u8,
    ) -> (f64, f64) {
        let total = if ace && hard <= 11 { hard + 10 } else { hard };
        let st = self.stand(removed, total);
        let hi = self.hit(removed, hard, ace, cards, (0, 0));
        (st, hi)
    }

    /// Convert a value of this world to the unconditioned one (a dealer blackjack taking the
    /// original bet), given the cards out.
    pub(super) fn raw(&self, removed: &[u8; NV], v: f64) -> f64 {
        if self.no_bj {
            let pb = self.pbj(&self.remaining(removed));
            -pb + (1.0 - pb) * v
        } else {
            v
        }
    }

    /// Unconditioned probability of each next card.
    pub(super) fn raw_draw(&self, removed: &[u8; NV]) -> [f64; NV] {
        let rem = self.remaining(removed);
        let n: u32 = rem.iter().sum();
        std::array::from_fn(|v| rem[v] as f64 / n as f64)
    }

    pub(super) fn rules(&self) -> &Rules {
        self.rules
    }

    /// Value the hands that follow as free split hands (Free Bet), or as real ones again.
    pub(super) fn set_free(&mut self, free: bool) {
        self.free = free;
    }

    pub(super) fn shoe(&self) -> [u32; NV] {
        self.shoe
    }
}

/// Removing b further random non-pair cards (the second cards of other hands): the exact
/// identities EV[.; a, b−1] = v·EV[.; a+1, b−1] + (1 − v)·EV[.; a, b], with v the chance that
/// a random unseen card is a pair card (E. Farmer, "Splitting pairs"); `p` pair cards of `n`.
fn ev_x_ab(ev_x: &[f64; 5], p: f64, n: f64, a: usize, b: usize) -> f64 {
    if b == 0 {
        return ev_x[a];
    }
    let v = (p - a as f64) / (n + 1.0 - a as f64 - b as f64);
    (ev_x_ab(ev_x, p, n, a, b - 1) - v * ev_x_ab(ev_x, p, n, a + 1, b - 1)) / (1.0 - v)
}

/// As `ev_x_ab`, for a hand whose second card is not the pair card.
fn ev_n_ab(ev_x: &[f64; 5], ev_p: &[f64; 5], p: f64, n: f64, a: usize, b: usize) -> f64 {
    let v = (p - a as f64) / (n - a as f64 - b as f64);
    if b == 0 {
        return (ev_x[a] - v * ev_p[a]) / (1.0 - v);
    }
    (ev_n_ab(ev_x, ev_p, p, n, a, b - 1) - v * ev_n_ab(ev_x, ev_p, p, n, a + 1, b - 1)) / (1.0 - v)
}

/// The raw value of splitting pair `pv` up to `cap` (3 or 4) hands from `rem` (the shoe less
/// the pair), assembled from one hand's values `ev_x`, `ev_p` (`Up::split_hand_evs`) over the
/// number of hands and, at `cap` hands, the hands completed before the last pair card came.
fn resplit_total(ev_x: &[f64; 5], ev_p: &[f64; 5], rem: &[u32; NV], pv: usize, cap: usize) -> f64 {
    let n = rem.iter().sum::<u32>() as f64;
    let p = rem[pv] as f64;
    // P(exactly h hands), h < cap: h − 2 pair cards and h non-pair second cards, in h − 1
    // orders; P(cap hands with k hands completed before the last pair card): cap − 2 pair
    // cards and k non-pair cards, in 1 or (cap 4, k > 0) 2 orders.
    let prod = |pairs: usize, nonpairs: usize| draw_chance(p, n, pairs, nonpairs);
    let mut raw = 0.0;
    for h in 2..cap {
        let q = (h - 1) as f64 * prod(h - 2, h);
        raw += q * h as f64 * ev_n_ab(ev_x, ev_p, p, n, h - 2, h - 1);
    }
    for k in 0..cap - 1 {
        let m = if cap == 4 && k > 0 { 2.0 } else { 1.0 };
        let r = m * prod(cap - 2, k);
        if k > 0 {
            raw += r * k as f64 * ev_n_ab(ev_x, ev_p, p, n, cap - 2, k - 1);
        }
        raw += r * (cap - k) as f64 * ev_x_ab(ev_x, p, n, cap - 2, k);
    }
    raw
}

/// The chance of drawing `pairs` pair cards and then `nonpairs` others, in one given order,
/// from `n` cards of which `p` are pair cards.
fn draw_chance(p: f64, n: f64, pairs: usize, nonpairs: usize) -> f64 {
    let np = n - p;
    let mut x = 1.0;
    for i in 0..pairs {
        x *= (p - i as f64) / (n - i as f64);
    }
    for i in 0..nonpairs {
        x *= (np - i as f64) / (n - pairs as f64 - i as f64);
    }
    x
}

/// `resplit_total` of a free split: in a term of `h` hands, each hand is the real one with
/// chance 1/h and free otherwise (`real` and `free`: one hand's `ev_x`, `ev_p` of each kind).
fn resplit_total_free(
    real: ([f64; 5], [f64; 5]),
    free: ([f64; 5], [f64; 5]),
    rem: &[u32; NV],
    pv: usize,
    cap: usize,
) -> f64 {
    let n = rem.iter().sum::<u32>() as f64;
    let p = rem[pv] as f64;
    let prod = |pairs: usize, nonpairs: usize| draw_chance(p, n, pairs, nonpairs);
    // One hand of a split to `h` hands: real with chance 1/h.
    let mix = |h: usize, r: f64, f: f64| (r + (h - 1) as f64 * f) / h as f64;
    let n_ab = |a: usize, b: usize, h: usize| {
        mix(
            h,
            ev_n_ab(&real.0, &real.1, p, n, a, b),
            ev_n_ab(&free.0, &free.1, p, n, a, b),
        )
    };
    let x_ab = |a: usize, b: usize, h: usize| {
        mix(
            h,
            ev_x_ab(&real.0, p, n, a, b),
            ev_x_ab(&free.0, p, n, a, b),
        )
    };
    let mut raw = 0.0;
    for h in 2..cap {
        let q = (h - 1) as f64 * prod(h - 2, h);
        raw += q * h as f64 * n_ab(h - 2, h - 1, h);
    }
    for k in 0..cap - 1 {
        let m = if cap == 4 && k > 0 { 2.0 } else { 1.0 };
        let r = m * prod(cap - 2, k);
        if k > 0 {
            raw += r * k as f64 * n_ab(cap - 2, k - 1, cap);
        }
        raw += r * (cap - k) as f64 * x_ab(cap - 2, k, cap);
    }
    raw
}

/// A full shoe of `decks` by value (ace first).
pub fn full_shoe(decks: u32) -> [u32; NV] {
    let mut shoe = [4 * decks; NV];
    shoe[9] = 16 * decks;
    shoe
}

/// The decision and EV of one initial two-card hand (value indices, ace = 0) against one up
/// card (not a natural), in the world of the rules (conditioned on no dealer blackjack in the
/// hole-card game).
pub fn initial_ev<P: Decider>(
    rules: &Rules,
    policy: &P,
    table: &DealerTable,
    up: usize,
    c1: usize,
    c2: usize,
) -> (Action, f64) {
    Up::new(rules, policy, table, up, PostSplit::CdzMinus).initial(c1, c2)
}

/// Probability that the first two cards from `shoe` are values `c1` and `c2` (in either
/// order; `c1 <= c2`).
pub(super) fn two_card_p(shoe: &[u32; NV], c1: usize, c2: usize) -> f64 {
    let m = shoe.iter().sum::<u32>() as f64;
    let (a, b) = (shoe[c1] as f64, shoe[c2] as f64);
    if c1 == c2 {
        a * (a - 1.0) / (m * (m - 1.0))
    } else {
        2.0 * a * b / (m * (m - 1.0))
    }
}

/// Probabilities of the initial decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Frequencies {
    pub blackjack: f64,
    pub double: f64,
    pub split: f64,
    pub surrender: f64,
    pub dealer_blackjack: f64,
}

/// The exact result for one rule set and policy.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExactResult {
    /// EV per initial bet.
    pub ev: f64,
    /// EV given each up card (index value − 1, ace first) and its probability.
    pub ev_by_up: [f64; NV],
    pub p_up: [f64; NV],
    pub frequencies: Frequencies,
    /// How the result was computed.
    pub method: String,
}

/// Post-split play in the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PostSplit {
    /// Each split hand plays as the same cards would before the split (CDZ-), the convention
    /// of published combinatorial analyzers.
    CdzMinus,
    /// Each split hand plays optimally knowing the pair cards removed (CDP).
    Cdp,
}

/// Most hands a split round may reach in the exact analysis (resplits by Farmer's algorithm).
pub const MAX_EXACT_HANDS: u8 = 4;

/// Whether `rules` are within what the exact analysis computes exactly (at most
/// `MAX_EXACT_HANDS` hands): the `exact` and `audit` commands refuse more rather than report a
/// capped value. (Charts for such rules may still be derived from the capped analysis.)
pub fn check_exact(rules: &Rules) -> Result<(), super::BjError> {
    if rules.max_hands > MAX_EXACT_HANDS {
        return Err(super::BjError::ExactHands(rules.max_hands));
    }
    Ok(())
}

/// Analyze `rules` under `policy` from a full shoe (post-split play CDZ-).
pub fn analyze<P: Decider>(rules: &Rules, policy: &P, table: &DealerTable) -> ExactResult {
    analyze_with(rules, policy, table, PostSplit::CdzMinus)
}

/// Analyze `rules` under `policy` from a full shoe.
pub fn analyze_with<P: Decider>(
    rules: &Rules,
    policy: &P,
    table: &DealerTable,
    post_split: PostSplit,
) -> ExactResult {
    analyze_shoe(rules, policy, table, post_split, full_shoe(rules.decks))
}

/// Analyze `rules` under `policy` from the shoe `full` (cards by value, ace first; e.g. a full
/// shoe less or plus some cards, as the effects of removal need). An up card the shoe does not
/// hold has probability 0.
pub fn analyze_shoe<P: Decider>(
    rules: &Rules,
    policy: &P,
    table: &DealerTable,
    post_split: PostSplit,
    full: [u32; NV],
) -> ExactResult {
    analyze_shoe_plays(rules, policy, table, post_split, full).0
}

/// One initial two-card hand's play against one up card, as an analysis chose it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InitialPlay {
    /// Value indices (ace = 0, ten = 9): the up card and the hand's cards, `c1 <= c2`.
    pub up: usize,
    pub c1: usize,
    pub c2: usize,
    pub action: Action,
    /// The hand's EV under that play, per initial bet, unconditioned (a dealer blackjack
    /// counted as the rules settle it).
    pub ev: f64,
}

/// [`analyze_shoe`], with the play chosen for every initial two-card hand (not a natural)
/// against every up card the shoe holds: the composition-dependent strategy of that shoe when
/// `policy` is [`Optimal`].
pub fn analyze_shoe_plays<P: Decider>(
    rules: &Rules,
    policy: &P,
    table: &DealerTable,
    post_split: PostSplit,
    full: [u32; NV],
) -> (ExactResult, Vec<InitialPlay>) {
    let n: u32 = full.iter().sum();
    let no_bj = rules.peek || rules.dealer_bj_takes == super::rules::DealerBjTakes::Original;
    let bj_pay = match rules.bj_pays {
        super::rules::BjPays::ThreeToTwo => 1.5,
        super::rules::BjPays::SixToFive => 1.2,
        super::rules::BjPays::OneToOne => 1.0,
    };
    let per_up: Vec<(f64, Frequencies, Vec<InitialPlay>)> = (0..NV)
        .into_par_iter()
        .map(|u| {
            let mut plays = Vec::new();
            if full[u] == 0 {
                return (0.0, Frequencies::default(), plays);
            }
            let mut a = Up::with_shoe(rules, policy, table, u, post_split, full);
            let shoe = a.shoe;
            let mut ev = 0.0;
            let mut f = Frequencies::default();
            for c1 in 0..NV {
                for c2 in c1..NV {
                    let p = two_card_p(&shoe, c1, c2);
                    if p == 0.0 {
                        continue;
                    }
                    let mut removed = [0u8; NV];
                    removed[c1] += 1;
                    removed[c2] += 1;
                    let pbj = a.pbj(&a.remaining(&removed));
                    f.dealer_blackjack += p * pbj;
                    let natural = (c1 == 0 && c2 == 9) || (c1 == 9 && c2 == 0);
                    if natural {
                        f.blackjack += p;
                        ev += p * (1.0 - pbj) * bj_pay;
                        continue;
                    }
                    let (act, hand_ev) = a.round_choice(c1, c2, pbj);
                    ev += p * hand_ev;
                    plays.push(InitialPlay {
                        up: u,
                        c1,
                        c2,
                        action: act,
                        ev: hand_ev,
                    });
                    // In the peek game a hand is played only when the dealer has no
                    // blackjack; without a hole card (either settlement) every hand is played.
                    let w = if rules.peek { p * (1.0 - pbj) } else { p };
                    match act {
                        Action::Double => f.double += w,
                        Action::Split => f.split += w,
                        Action::Surrender => f.surrender += p,
                        _ => {}
                    }
                }
            }
            (ev, f, plays)
        })
        .collect();
    let mut ev = 0.0;
    let mut ev_by_up = [0.0; NV];
    let mut p_up = [0.0; NV];
    let mut fr = Frequencies::default();
    for (u, (e, f, _)) in per_up.iter().enumerate() {
        let pu = full[u] as f64 / n as f64;
        p_up[u] = pu;
        ev_by_up[u] = *e;
        ev += pu * e;
        fr.blackjack += pu * f.blackjack;
        fr.double += pu * f.double;
        fr.split += pu * f.split;
        fr.surrender += pu * f.surrender;
        fr.dealer_blackjack += pu * f.dealer_blackjack;
    }
    let result = ExactResult {
        ev,
        ev_by_up,
        p_up,
        frequencies: fr,
        method: method_note(rules, post_split, &full, no_bj),
    };
    (result, per_up.into_iter().flat_map(|p| p.2).collect())
}

/// How an analysis of `rules` from the shoe `full` was computed, for its report.
fn method_note(rules: &Rules, post_split: PostSplit, full: &[u32; NV], no_bj: bool) -> String {
    let mut split_note = if rules.max_hands > 2 {
        "resplits to 3 or 4 hands by E. Farmer's algorithm (decomposition by the number of hands; the other hands' cards removed exactly)".to_string()
    } else {
        "one split exact".to_string()
    };
    if rules.max_hands > MAX_EXACT_HANDS {
        split_note.push_str(&format!(
            "; more than {MAX_EXACT_HANDS} hands ({}) counted as {MAX_EXACT_HANDS}",
            rules.max_hands
        ));
    }
    if rules.split_by == super::rules::SplitBy::Rank {
        split_note
            .push_str("; split by rank approximated as by value (cards are tracked by value)");
    }
    format!(
        "combinatorial analysis from {}; composition-dependent play; post-split play {}; {split_note}{}",
        if *full == full_shoe(rules.decks) {
            format!("a full {}-deck shoe", rules.decks)
        } else {
            format!("the shoe {full:?} (A, 2..9, T)")
        },
        match post_split {
            PostSplit::CdzMinus => "as before the split (CDZ-)",
            PostSplit::Cdp => "optimal knowing the pair (CDP)",
        },
        if no_bj { "; conditioned on no dealer blackjack (hole-card / original-bets-only settlement)" } else { "; no hole card, dealer blackjack takes all wagers" }
    )
}

#[cfg(test)]
mod reference {
    use super::*;
    use crate::games::blackjack::rules::Surrender;

    fn peek(decks: u32, hands: u8, sur: Surrender) -> Rules {
        let mut r = Rules::seed();
        r.decks = decks;
        r.peek = true;
        r.das = true;
        r.max_hands = hands;
        r.surrender = sur;
        r
    }

    fn ev_pct(r: &Rules) -> f64 {
        analyze(r, &Optimal, &DealerTable::new(r.h17)).ev * 100.0
    }

    /// docs/references.md, E. Farmer's CA, hole-card games (DAS, S17, 3:2, DOA, split aces once).
    #[test]
    fn split_once_rows_reproduced_to_the_printed_precision() {
        let a = ev_pct(&peek(8, 2, Surrender::None));
        assert!(
            (a - -0.485780).abs() < 0.5e-6,
            "8 decks split once: {a:.6}%"
        );
        let b = ev_pct(&peek(6, 2, Surrender::None));
        assert!(
            (b - -0.456886).abs() < 0.5e-6,
            "6 decks split once: {b:.6}%"
        );
    }

    #[test]
    fn resplit_rows_within_four_millionths_of_a_bet() {
        // The surrender row's difference from the no-surrender row is exact; the resplit
        // decomposition itself lands within 0.0004% (printed values: −0.430581, −0.354763,
        // −0.402870).
        let none = ev_pct(&peek(8, 4, Surrender::None));
        let late = ev_pct(&peek(8, 4, Surrender::Late));
        let six = ev_pct(&peek(6, 4, Surrender::None));
        crate::door::say(&format!("resplit rows: {none:.6} {late:.6} {six:.6}"));
        crate::door::say(&format!("RESPLIT {none:.6} {late:.6} {six:.6}"));
        assert!((none - -0.430581).abs() < 0.0004, "{none:.6}");
        assert!((late - -0.354763).abs() < 0.0004, "{late:.6}");
        assert!((six - -0.402870).abs() < 0.0004, "{six:.6}");
        assert!(
            ((late - none) - (-0.354763 - -0.430581)).abs() < 0.5e-6,
            "surrender effect"
        );
    }

    #[test]
    fn same_result_on_one_thread_and_many() {
        let r = Rules::seed();
        let t = DealerTable::new(false);
        let many = analyze(&r, &Optimal, &t);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let one = pool.install(|| analyze(&r, &Optimal, &t));
        assert_eq!(one, many);
    }

    #[test]
    fn cdp_is_at_least_cdz() {
        let r = peek(8, 2, Surrender::None);
        let t = DealerTable::new(false);
        let cdz = analyze_with(&r, &Optimal, &t, PostSplit::CdzMinus).ev;
        let cdp = analyze_with(&r, &Optimal, &t, PostSplit::Cdp).ev;
        assert!(cdp >= cdz && cdp - cdz < 1e-4, "{cdz} {cdp}");
    }

    #[test]
    fn obo_equals_the_peek_game_and_lose_all_is_worse() {
        let t = DealerTable::new(false);
        let mut obo = Rules::seed();
        obo.dealer_bj_takes = crate::games::blackjack::rules::DealerBjTakes::Original;
        let mut pk = Rules::seed();
        pk.peek = true;
        let a = analyze(&obo, &Optimal, &t).ev;
        let b = analyze(&pk, &Optimal, &t).ev;
        let all = analyze(&Rules::seed(), &Optimal, &t).ev;
        assert!((a - b).abs() < 1e-15, "{a} {b}");
        assert!(all < a - 0.0005, "lose-all {all} vs OBO {a}");
    }

    /// A fixed chart's analysis computes only the values its choices need; choosing among
    /// every value gives the same result, bit for bit.
    #[test]
    fn a_fixed_chart_valued_lazily_is_the_chart_valued_in_full() {
        struct Eager<'a>(Follow<'a, crate::games::blackjack::strategy::Chart>);
        impl Decider for Eager<'_> {
            fn choose(&self, s: &Situation, options: &[(Action, f64)]) -> (Action, f64) {
                self.0.choose(s, options)
            }
        }
        let chart = crate::games::blackjack::resolve::seed_chart();
        let t = DealerTable::new(false);
        for r in [Rules::seed(), peek(6, 4, Surrender::Late)] {
            let lazy = analyze(&r, &Follow(&chart), &t);
            let eager = analyze(&r, &Eager(Follow(&chart)), &t);
            assert_eq!(lazy, eager, "{r}");
        }
    }

    /// Without a hole card every hand is played whatever the settlement: a fixed chart doubles
    /// and splits exactly as often under lose-all and under original-bets-only, and more often
    /// than in the peek game, where a dealer blackjack ends the round first.
    #[test]
    fn decision_frequencies_count_every_hand_played() {
        let t = DealerTable::new(false);
        let chart = crate::games::blackjack::resolve::seed_chart();
        let mut obo = Rules::seed();
        obo.dealer_bj_takes = crate::games::blackjack::rules::DealerBjTakes::Original;
        let mut pk = Rules::seed();
        pk.peek = true;
        let f = |r: &Rules| analyze(r, &Follow(&chart), &t).frequencies;
        let (all, o, p) = (f(&Rules::seed()), f(&obo), f(&pk));
        assert_eq!((o.double, o.split), (all.double, all.split));
        // This chart doubles against 2-9 only (no dealer blackjack possible there), and splits
        // against a ten or an ace too, where the peek game ends some rounds first.
        assert_eq!(p.double, o.double);
        assert!(p.split < o.split, "{p:?} {o:?}");
    }
}
