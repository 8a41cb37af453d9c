//! The exact probability distribution of one round's result, splits and doubles included.
//!
//! The round is enumerated as it is dealt, card by card, from a full shoe: the two initial
//! cards and the up card, every card the player draws (each with its exact probability
//! without replacement, conditioned on no dealer blackjack where the analysis is), then the
//! dealer's exact outcome distribution for the shoe that is left. Decisions are those of the
//! exact analysis (`exact::Up`, post-split play CDZ-), so the distribution's mean is the
//! analysis's EV: a split's two hands are played in turn, the second from the shoe the first
//! left, each deciding on its own cards as the analysis does, and the dealer draws from what
//! both left. That makes one split (two hands) exact.
//!
//! Resplits (three or four hands) are not enumerated: a hand whose second card is another
//! pair card is played on as a two-card hand at the cap, as the analysis plays it when no
//! further split is allowed. The probability of the rounds where that differs from the table
//! (`resplit_mass`) bounds the total-variation error, and the distribution's mean is reported
//! beside the analysis's EV.

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::exact::{full_shoe, two_card_p, Ctx, DealerTable, Decider, PostSplit, Up, NV};
use super::hand::{FREE_DOUBLE, FREE_STAKE};
use super::rules::{Rules, Surrender};
use super::strategy::Action;

/// The distribution of one round of one seat, per initial bet of one unit... in `units`
/// (`Rules::units_per_bet` per initial bet, so every payout is a whole number).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundDistribution {
    /// Units per initial bet.
    pub units: i64,
    /// P(net, amount wagered), both in units, by net then amount.
    pub joint: BTreeMap<(i64, i64), f64>,
    /// P(net) of a bet behind of one initial bet that declines doubles and splits (it stays on
    /// the first hand, undoubled).
    pub behind_none: BTreeMap<i64, f64>,
    /// Probability of the rounds played as if resplitting were not allowed (0 when the rules
    /// allow two hands at most): the bound on the total-variation error.
    pub resplit_mass: f64,
    /// Probability of the split rounds (each below `TINY`) whose dealer outcome is taken
    /// from the shoe less the first hand's cards only: the bound on that part's error.
    pub tiny_mass: f64,
    /// The exact analysis's EV per initial bet under the same decisions (what
    /// `exact::analyze` gives): the distribution's mean, up to the approximations above.
    pub ev: f64,
}

/// Split rounds less likely than this draw the dealer from the shoe the first hand left.
pub const TINY: f64 = 1e-13;

/// One finished hand: its total (0 = busted), whether it was doubled, and which of its stakes
/// are the house's free chips (Free Bet: `FREE_STAKE`, `FREE_DOUBLE`; 0 elsewhere).
#[derive(Clone, Copy, Debug, Default)]
struct End {
    total: u8,
    doubled: bool,
    free: u8,
}

impl End {
    /// The hand's stakes in initial bets: the player's own, and the house's free chips.
    fn stakes(&self) -> (i64, i64) {
        let free = (self.free & FREE_STAKE != 0) as i64
            + (self.doubled & (self.free & FREE_DOUBLE != 0)) as i64;
        (1 + self.doubled as i64 - free, free)
    }
}

/// A hand played to its end: the cards out of the shoe then, how it ended, its probability.
struct Term {
    all: [u8; NV],
    end: End,
    p: f64,
}

/// Hands that end with the same cards out and the same end are one: the order the cards came
/// in does not matter to what follows (the next hand and the dealer draw from what is left).
fn merged(terms: Vec<Term>) -> Vec<Term> {
    let mut m: std::collections::HashMap<([u8; NV], u8, bool, u8), f64> =
        std::collections::HashMap::with_capacity(terms.len());
    for t in terms {
        let e = t.end;
        *m.entry((t.all, e.total, e.doubled, e.free)).or_default() += t.p;
    }
    let mut v: Vec<Term> = m
        .into_iter()
        .map(|((all, total, doubled, free), p)| Term {
            all,
            end: End {
                total,
                doubled,
                free,
            },
            p,
        })
        .collect();
    // A fixed order, so that sums come out the same on every run.
    v.sort_by_key(|t| (t.all, t.end.total, t.end.doubled, t.end.free));
    v
}

/// The total of a hand that stopped as an N-card Charlie: above any dealer's but a blackjack.
const CHARLIE: u8 = 30;

/// Net and amount wagered (the player's own money) of a seat's hands against dealer outcome
/// `o` (0..=4 totals 17..=21, 5 bust, 6 blackjack, which takes every wager of the player's,
/// 7 a 22 under Free Bet, which pushes every hand standing). A free chip wins with its hand
/// and goes back to the house otherwise.
#[cfg(test)]
fn settle(ends: &[End], o: usize, u: i64) -> (i64, i64) {
    settle_as(ends, o, u, false)
}

/// `settle`; with `takes_splits` a dealer blackjack takes each hand's bet but returns the
/// doubles (the "Playtech peek" settlement).
fn settle_as(ends: &[End], o: usize, u: i64, takes_splits: bool) -> (i64, i64) {
    let wagered: i64 = ends.iter().map(|e| e.stakes().0 * u).sum();
    if o == 6 {
        let lost = if takes_splits {
            let own = ends.iter().filter(|e| e.free & FREE_STAKE == 0).count();
            u * own as i64
        } else {
            wagered
        };
        return (-lost, wagered);
    }
    let dealer = if o == 5 { 0 } else { 17 + o as i64 };
    let net = ends
        .iter()
        .map(|e| {
            let (real, free) = e.stakes();
            let result = match (e.total, o) {
                (0, _) => -1,
                (_, super::exact::DEALER_22) => 0,
                (t, _) => (t as i64 - dealer).signum(),
            };
            if result > 0 {
                (real + free) * u
            } else {
                result * real * u
            }
        })
        .sum();
    (net, wagered)
}

/// The first hand's result at one undoubled bet (a bet behind that declines).
fn behind(first: &End, o: usize, u: i64) -> i64 {
    settle_as(
        &[End {
            doubled: false,
            free: 0,
            ..*first
        }],
        o,
        u,
        false,
    )
    .0
}

/// Dense sums of probability by (net, amount wagered) and by the bet behind's net.
struct Acc {
    u: i64,
    /// Offset of a net (the largest loss), and the row length.
    off: i64,
    width: usize,
    /// `[wagered / u][net + off]`.
    joint: Vec<f64>,
    behind: Vec<f64>,
    resplit: f64,
    tiny: f64,
    /// The analysis's EV (per initial bet), from the same decisions.
    ev: f64,
}

impl Acc {
    fn new(rules: &Rules) -> Acc {
        let u = rules.units_per_bet();
        let off = super::sim::hist_offset(rules);
        let width = 2 * off as usize + 1;
        let rows = 2 * rules.max_hands.max(1) as usize + 1;
        Acc {
            u,
            off,
            width,
            joint: vec![0.0; rows * width],
            behind: vec![0.0; width],
            resplit: 0.0,
            tiny: 0.0,
            ev: 0.0,
        }
    }
    #[inline]
    fn add(&mut self, net: i64, wagered: i64, behind: i64, p: f64) {
        let i = (wagered / self.u) as usize * self.width + (net + self.off) as usize;
        self.joint[i] += p;
        self.behind[(behind + self.off) as usize] += p;
    }
    fn merge(&mut self, o: &Acc, w: f64) {
        for (a, b) in self.joint.iter_mut().zip(&o.joint) {
            *a += w * b;
        }
        for (a, b) in self.behind.iter_mut().zip(&o.behind) {
            *a += w * b;
        }
        self.resplit += w * o.resplit;
        self.tiny += w * o.tiny;
        self.ev += w * o.ev;
    }
    /// The distribution accumulated: (net, wagered) and the bet behind's net, in units.
    fn finish(&self) -> RoundDistribution {
        let mut joint = BTreeMap::new();
        for (i, &p) in self.joint.iter().enumerate() {
            if p > 0.0 {
                let w = (i / self.width) as i64 * self.u;
                joint.insert(((i % self.width) as i64 - self.off, w), p);
            }
        }
        let behind_none = self
            .behind
            .iter()
            .enumerate()
            .filter(|(_, &p)| p > 0.0)
            .map(|(i, &p)| (i as i64 - self.off, p))
            .collect();
        RoundDistribution {
            units: self.u,
            joint,
            behind_none,
            resplit_mass: self.resplit,
            tiny_mass: self.tiny,
            ev: self.ev,
        }
    }
}

fn total_of(hard: u32, ace: bool) -> u8 {
    if ace && hard <= 11 {
        hard as u8 + 10
    } else {
        hard as u8
    }
}

/// One hand's enumeration inside one up card's analysis.
struct Hands<'u, 'a, P: Decider> {
    up: &'u mut Up<'a, P>,
}

impl<P: Decider> Hands<'_, '_, P> {
    /// Play an unsplit hand on from a hit/stand-only state: `all` holds its cards, the cards
    /// out of the shoe and what the analysis decides on.
    #[allow(clippy::too_many_arguments)]
    fn play(
        &mut self,
        all: &mut [u8; NV],
        hard: u32,
        ace: bool,
        cards: u8,
        ctx: Ctx,
        p: f64,
        out: &mut Vec<Term>,
    ) {
        let (_, act) = self.up.plain_choice(all, hard, ace, cards, ctx);
        if act == Action::Stand {
            out.push(Term {
                all: *all,
                end: End {
                    total: self.stood(hard, ace, cards),
                    ..End::default()
                },
                p,
            });
            return;
        }
        self.hit(all, hard, ace, cards, ctx, p, out);
    }

    /// The total a hand stands on (`CHARLIE` for an N-card Charlie).
    fn stood(&self, hard: u32, ace: bool, cards: u8) -> u8 {
        if cards >= self.up.rules().charlie.unwrap_or(u8::MAX) {
            CHARLIE
        } else {
            total_of(hard, ace)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn hit(
        &mut self,
        all: &mut [u8; NV],
        hard: u32,
        ace: bool,
        cards: u8,
        ctx: Ctx,
        p: f64,
        out: &mut Vec<Term>,
    ) {
        let d = self.up.draw(all);
        for v in 0..NV {
            if d[v] == 0.0 {
                continue;
            }
            all[v] += 1;
            let h = hard + v as u32 + 1;
            if h > 21 {
                out.push(Term {
                    all: *all,
                    end: End::default(),
                    p: p * d[v],
                });
            } else {
                self.play(all, h, ace || v == 0, cards + 1, ctx, p * d[v], out);
            }
            all[v] -= 1;
        }
    }

    fn double(&mut self, all: &mut [u8; NV], hard: u32, ace: bool, p: f64, out: &mut Vec<Term>) {
        let free = self.free_double(hard, ace);
        let d = self.up.draw(all);
        for v in 0..NV {
            if d[v] == 0.0 {
                continue;
            }
            all[v] += 1;
            let h = hard + v as u32 + 1;
            let total = if h > 21 {
                0
            } else {
                total_of(h, ace || v == 0)
            };
            out.push(Term {
                all: *all,
                end: End {
                    total,
                    doubled: true,
                    free,
                },
                p: p * d[v],
            });
            all[v] -= 1;
        }
    }

    /// `FREE_DOUBLE` if a double of a two-card hand of this hard total is free (Free Bet).
    fn free_double(&self, hard: u32, ace: bool) -> u8 {
        self.up.rules().free_double(hard as u8, ace) as u8 * FREE_DOUBLE
    }

    /// Every course a split hand of pair `pv` can take, whatever the shoe: the cards it
    /// draws (its second card included), how it ends, whether its second card is another pair
    /// card, and in how many orders those cards lead there (decisions are made on the hand's
    /// own cards, so the courses do not depend on what other hands took). At most `avail`
    /// cards of each value are drawn.
    fn courses(&mut self, pv: usize, avail: &[u32; NV]) -> Vec<Course> {
        let mut out: std::collections::HashMap<([u8; NV], u8, bool, u8, bool), f64> =
            std::collections::HashMap::new();
        for c in 0..NV {
            if avail[c] == 0 {
                continue;
            }
            let mut drawn = [0u8; NV];
            drawn[c] = 1;
            let hard = (pv + c + 2) as u32;
            let ace = pv == 0 || c == 0;
            let free = self.free_double(hard, ace);
            let mut put = |drawn: &[u8; NV], total: u8, doubled: bool, ways: f64| {
                let free = if doubled { free } else { 0 };
                *out.entry((*drawn, total, doubled, free, c == pv))
                    .or_default() += ways;
            };
            match self.up.split_choice(pv, c, 1).0 {
                Action::Hit => self.walk(pv, &drawn, hard, ace, 2, avail, &mut put),
                Action::Double => {
                    for v in 0..NV {
                        if (drawn[v] as u32) < avail[v] {
                            drawn[v] += 1;
                            let h = hard + v as u32 + 1;
                            let total = if h > 21 {
                                0
                            } else {
                                total_of(h, ace || v == 0)
                            };
                            put(&drawn, total, true, 1.0);
                            drawn[v] -= 1;
                        }
                    }
                }
                _ => put(&drawn, total_of(hard, ace), false, 1.0),
            }
        }
        let mut v: Vec<Course> = out
            .into_iter()
            .map(
                |((drawn, total, doubled, free, pair_second), ways)| Course {
                    drawn,
                    cards: drawn.iter().sum(),
                    end: End {
                        total,
                        doubled,
                        free,
                    },
                    pair_second,
                    ways,
                },
            )
            .collect();
        // A fixed order, so that sums come out the same on every run.
        v.sort_by_key(Course::key);
        v
    }

    /// Hit on from a split hand's state, counting the orders of the cards drawn: level by
    /// level (cards drawn), the hands holding the same cards merged with their counts added.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        pv: usize,
        drawn: &[u8; NV],
        hard: u32,
        ace: bool,
        cards: u8,
        avail: &[u32; NV],
        put: &mut impl FnMut(&[u8; NV], u8, bool, f64),
    ) {
        let mut level: Vec<([u8; NV], u32, bool, f64)> = vec![(*drawn, hard, ace, 1.0)];
        let mut cards = cards;
        while !level.is_empty() {
            let mut next: std::collections::HashMap<[u8; NV], (u32, bool, f64)> =
                std::collections::HashMap::new();
            for (d, hard, ace, ways) in level {
                // The hand's own cards: the pair and what it drew.
                let mut o = d;
                o[pv] += 2;
                for v in 0..NV {
                    if d[v] as u32 >= avail[v] {
                        continue;
                    }
                    let mut nd = d;
                    nd[v] += 1;
                    o[v] += 1;
                    let h = hard + v as u32 + 1;
                    let a = ace || v == 0;
                    if h > 21 {
                        put(&nd, 0, false, ways);
                    } else if self.up.plain_choice(&mut o, h, a, cards + 1, (pv, 1)).1
                        == Action::Stand
                    {
                        put(&nd, self.stood(h, a, cards + 1), false, ways);
                    } else {
                        next.entry(nd).or_insert((h, a, 0.0)).2 += ways;
                    }
                    o[v] -= 1;
                }
            }
            let mut l: Vec<_> = next
                .into_iter()
                .map(|(d, (h, a, w))| (d, h, a, w))
                .collect();
            l.sort_by_key(|x| x.0);
            level = l;
            cards += 1;
        }
    }
}

/// One course of a split hand (see `Hands::courses`).
struct Course {
    drawn: [u8; NV],
    cards: u8,
    end: End,
    pair_second: bool,
    ways: f64,
}

impl Course {
    /// What tells one course from another (their order, and whether two lists are the same).
    fn key(&self) -> ([u8; NV], u8, bool, u8, bool) {
        let e = self.end;
        (self.drawn, e.total, e.doubled, e.free, self.pair_second)
    }
}

/// Most cards one hand draws.
const MAXC: usize = 24;

/// The chances of drawing given multisets, in one given order, from one shoe: falling
/// factorials of each value's count and of the shoe's size.
struct Draws {
    ff: [[f64; 2 * MAXC + 1]; NV],
    inv: [f64; 2 * MAXC + 1],
    rem: [u32; NV],
    /// P(no dealer blackjack) for this shoe, when the analysis's world is conditioned on it.
    no_bj: Option<f64>,
    /// The card that would make the dealer's blackjack.
    hole: usize,
}

impl Draws {
    fn new<P: Decider>(up: &Up<'_, P>, out: &[u8; NV]) -> Draws {
        let rem = up.remaining(out);
        let n: u32 = rem.iter().sum();
        let mut ff = [[0f64; 2 * MAXC + 1]; NV];
        for v in 0..NV {
            ff[v][0] = 1.0;
            for k in 1..=2 * MAXC {
                let x = rem[v] as f64 - (k as f64 - 1.0);
                ff[v][k] = if x > 0.0 { ff[v][k - 1] * x } else { 0.0 };
            }
        }
        let mut inv = [0f64; 2 * MAXC + 1];
        inv[0] = 1.0;
        for k in 1..=2 * MAXC {
            let x = n as f64 - (k as f64 - 1.0);
            inv[k] = if x > 0.0 { inv[k - 1] / x } else { 0.0 };
        }
        let hole = if up.up_index() == 0 { 9 } else { 0 };
        Draws {
            ff,
            inv,
            rem,
            no_bj: up.no_bj().then(|| 1.0 - up.pbj(&rem)),
            hole,
        }
    }

    /// P(the next cards are `a`'s then `b`'s, in one given order), in the analysis's world:
    /// conditioned on no dealer blackjack, drawing a card carries the factor (1 − P(bj)
    /// after) / (1 − P(bj) before), which telescopes along the draws.
    fn pair_p(&self, a: &Course, b: &Course) -> f64 {
        let cards = (a.cards + b.cards) as usize;
        let mut p = self.inv[cards];
        for v in 0..NV {
            let k = (a.drawn[v] + b.drawn[v]) as usize;
            if k > 0 {
                p *= self.ff[v][k];
            }
        }
        match self.no_bj {
            Some(before) if p > 0.0 && before < 1.0 => {
                let n = self.rem.iter().sum::<u32>() - cards as u32;
                // (Saturating: two courses may draw more of the hole card than there are; p is 0 then.)
                let hole = self.rem[self.hole]
                    .saturating_sub((a.drawn[self.hole] + b.drawn[self.hole]) as u32);
                p * (1.0 - hole as f64 / n as f64) / before
            }
            _ => p,
        }
    }
}

/// Two sets of cards out together.
fn plus(a: &[u8; NV], b: &[u8; NV]) -> [u8; NV] {
    std::array::from_fn(|v| a[v] + b[v])
}

/// A busted hand loses whatever the dealer makes: the dealer's outcome does not matter, and
/// is not computed.
fn bust_only() -> [f64; super::exact::OUTCOMES] {
    let mut d = [0.0; super::exact::OUTCOMES];
    d[5] = 1.0;
    d
}

/// The rounds of a split of the pair of `pv`s (probability `w` of being dealt and played):
/// every pair of courses the two hands take, settled against what the dealer makes from the
/// shoe they leave, added to `acc`. `resplits`: the rules allow another split.
fn split_rounds<P: Decider>(
    h: &mut Hands<'_, '_, P>,
    rules: &Rules,
    pv: usize,
    w: f64,
    resplits: bool,
    acc: &mut Acc,
) {
    let u = rules.units_per_bet();
    let takes_splits = takes_splits(rules);
    // Free Bet: the new hand carries the house's chip, the hand split keeps the bet, and
    // the analysis plays the free hand for its chance of winning, so it takes courses of its
    // own.
    let chip = rules.free_split(pv as u8 + 1) as u8 * FREE_STAKE;
    let freed = |e: End| End {
        free: e.free | chip,
        ..e
    };
    // The first hand from the shoe less the pair, the second from what the first
    // left, the dealer from what both left. The chance that the two hands take
    // courses a then b is that of b then a (the cards are exchangeable: both are
    // ways(a)·ways(b)·P(these cards, in one order)), and so is the dealer's shoe;
    // so where both hands play alike each unordered pair is computed once and counted in
    // both orders, and a free split's (the first hand real, the second free) every ordered
    // pair once.
    let mut base = [0u8; NV];
    base[pv] = 2;
    let avail = h.up.remaining(&base);
    let courses = h.courses(pv, &avail);
    let free_courses = if chip != 0 {
        h.up.set_free(true);
        let c = h.courses(pv, &avail);
        h.up.set_free(false);
        // A strategy that plays a free hand as it plays a real one (a chart) takes the same
        // courses with both: then the unordered pairs, settled in both orders, do.
        (!same_courses(&c, &courses)).then_some(c)
    } else {
        None
    };
    let from_base = Draws::new(h.up, &base);
    let up_ref: &Up<'_, P> = h.up;
    // The pairs in as many interleaved stripes as there are threads (balanced:
    // the first course pairs with the most); each keeps the dealer distributions
    // it has met, since the shoes two hands leave recur (the same cards split
    // differently between the hands).
    let stripes = rayon::current_num_threads().max(1);
    let parts: Vec<Acc> = (0..stripes)
        .into_par_iter()
        .map(|stripe| {
            let mut memo = super::exact::HashMap::default();
            let mut acc = Acc::new(rules);
            for i in (stripe..courses.len()).step_by(stripes) {
                let a = &courses[i];
                let seconds = match &free_courses {
                    Some(free) => &free[..],
                    None => &courses[i..],
                };
                for b in seconds {
                    let p = w * a.ways * b.ways * from_base.pair_p(a, b);
                    if p == 0.0 {
                        continue;
                    }
                    let once = free_courses.is_some() || std::ptr::eq(a, b);
                    let orders = if once { 1.0 } else { 2.0 };
                    if resplits && (a.pair_second || b.pair_second) {
                        acc.resplit += orders * p;
                    }
                    let d = if a.end.total == 0 && b.end.total == 0 {
                        bust_only()
                    } else {
                        // Negligible pairs: the dealer draws from the shoe the
                        // first hand left (the second hand's cards not taken out).
                        let out = if p < TINY {
                            acc.tiny += orders * p;
                            plus(&base, &a.drawn)
                        } else {
                            plus(&plus(&base, &a.drawn), &b.drawn)
                        };
                        *memo
                            .entry(super::exact::key_of(&out))
                            .or_insert_with(|| up_ref.dealer_shared(&out))
                    };
                    for (o, &po) in d.iter().enumerate() {
                        if po == 0.0 {
                            continue;
                        }
                        // The bet behind stays on the first hand: a, then b.
                        let (net, wag) = settle_as(&[a.end, freed(b.end)], o, u, takes_splits);
                        acc.add(net, wag, behind(&a.end, o, u), p * po);
                        if orders == 2.0 {
                            let (net, wag) = settle_as(&[b.end, freed(a.end)], o, u, takes_splits);
                            acc.add(net, wag, behind(&b.end, o, u), p * po);
                        }
                    }
                }
            }
            acc
        })
        .collect();
    for part in &parts {
        acc.merge(part, 1.0);
    }
}

/// Whether a split hand's courses are the same whether it is free or not.
fn same_courses(a: &[Course], b: &[Course]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.key() == y.key() && x.ways == y.ways)
}

/// Whether a dealer blackjack takes the split hands' bets but not the doubles.
fn takes_splits(rules: &Rules) -> bool {
    !rules.peek && rules.dealer_bj_takes == super::rules::DealerBjTakes::Splits
}

/// The distribution given one up card (index `up`, ace = 0), per round with that up card.
fn per_up<P: Decider>(rules: &Rules, policy: &P, table: &DealerTable, up: usize) -> Acc {
    let mut a = Up::new(rules, policy, table, up, PostSplit::CdzMinus);
    let u = rules.units_per_bet();
    let bj = rules.bj_win_units();
    let shoe = a.shoe();
    let mut acc = Acc::new(rules);
    let cap = |pv: usize| {
        if pv == 0 && !rules.resplit_aces {
            2
        } else {
            rules.max_hands.max(2)
        }
    };
    for c1 in 0..NV {
        for c2 in c1..NV {
            let p = two_card_p(&shoe, c1, c2);
            if p == 0.0 {
                continue;
            }
            let mut all = [0u8; NV];
            all[c1] += 1;
            all[c2] += 1;
            let pbj = a.pbj(&a.remaining(&all));
            if c1 == 0 && c2 == 9 {
                acc.add(bj, u, bj, p * (1.0 - pbj));
                acc.add(0, u, 0, p * pbj);
                acc.ev += p * (1.0 - pbj) * bj as f64 / u as f64;
                continue;
            }
            let (act, hand_ev) = a.round_choice(c1, c2, pbj);
            acc.ev += p * hand_ev;
            if act == Action::Surrender {
                // Late surrender does not escape a dealer blackjack; the others cost half.
                let lose_all = if rules.surrender == Surrender::Late {
                    pbj
                } else {
                    0.0
                };
                acc.add(-u, u, -u, p * lose_all);
                acc.add(-u / 2, u, -u / 2, p * (1.0 - lose_all));
                continue;
            }
            // In the no-blackjack world a dealer blackjack takes the original bet only (the
            // peek game never plays on); the hand is played in the rest.
            let w = if a.no_bj() {
                acc.add(-u, u, -u, p * pbj);
                p * (1.0 - pbj)
            } else {
                p
            };
            let hard = (c1 + c2 + 2) as u32;
            let ace = c1 == 0;
            let mut h = Hands { up: &mut a };
            if act == Action::Split {
                split_rounds(&mut h, rules, c1, w, cap(c1) > 2, &mut acc);
                continue;
            }
            let mut terms = Vec::new();
            match act {
                Action::Stand => terms.push(Term {
                    all,
                    end: End {
                        total: total_of(hard, ace),
                        ..End::default()
                    },
                    p: w,
                }),
                Action::Double => h.double(&mut all, hard, ace, w, &mut terms),
                _ => h.hit(&mut all, hard, ace, 2, (c1, 0), w, &mut terms),
            }
            for t in merged(terms) {
                let d = if t.end.total == 0 {
                    bust_only()
                } else {
                    h.up.dealer(&t.all)
                };
                for (o, &po) in d.iter().enumerate() {
                    let (net, wag) = settle_as(&[t.end], o, u, takes_splits(rules));
                    acc.add(net, wag, behind(&t.end, o, u), t.p * po);
                }
            }
        }
    }
    acc
}

/// The exact distribution of one round's result under `policy` (post-split play CDZ-).
pub fn round_distribution<P: Decider>(
    rules: &Rules,
    policy: &P,
    table: &DealerTable,
) -> RoundDistribution {
    let full = full_shoe(rules.decks);
    let n: u32 = full.iter().sum();
    let parts: Vec<Acc> = (0..NV)
        .into_par_iter()
        .map(|up| per_up(rules, policy, table, up))
        .collect();
    let mut acc = Acc::new(rules);
    for (up, part) in parts.iter().enumerate() {
        acc.merge(part, full[up] as f64 / n as f64);
    }
    acc.finish()
}

/// Moments and shape of a distribution of nets (in bets).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Shape {
    pub mean: f64,
    pub variance: f64,
    pub sd: f64,
    /// P(net > 0), P(net = 0).
    pub hit_frequency: f64,
    pub push_frequency: f64,
    pub largest_win: f64,
    pub largest_win_p: f64,
    pub largest_loss: f64,
}

impl Shape {
    /// Of `(net in bets, probability)` pairs, one per net (as `RoundDistribution::net` gives).
    pub fn of(dist: &[(f64, f64)]) -> Shape {
        let mean: f64 = dist.iter().map(|(x, p)| x * p).sum();
        let variance: f64 = dist.iter().map(|(x, p)| (x - mean) * (x - mean) * p).sum();
        let (largest_win, largest_win_p) =
            dist.iter()
                .filter(|(_, p)| *p > 0.0)
                .fold(
                    (f64::NEG_INFINITY, 0.0),
                    |b, &(x, p)| if x > b.0 { (x, p) } else { b },
                );
        Shape {
            mean,
            variance,
            sd: variance.sqrt(),
            hit_frequency: dist.iter().filter(|(x, _)| *x > 0.0).map(|(_, p)| p).sum(),
            push_frequency: dist.iter().filter(|(x, _)| *x == 0.0).map(|(_, p)| p).sum(),
            largest_win,
            largest_win_p,
            largest_loss: dist
                .iter()
                .filter(|(_, p)| *p > 0.0)
                .map(|(x, _)| *x)
                .fold(f64::INFINITY, f64::min),
        }
    }
}

impl RoundDistribution {
    /// P(net) with the net in initial bets, ascending.
    pub fn net(&self) -> Vec<(f64, f64)> {
        let mut m: BTreeMap<i64, f64> = BTreeMap::new();
        for (&(net, _), &p) in &self.joint {
            *m.entry(net).or_default() += p;
        }
        m.into_iter()
            .map(|(k, p)| (k as f64 / self.units as f64, p))
            .collect()
    }

    /// The bet behind that declines doubles and splits, per its bet.
    pub fn behind_none(&self) -> Vec<(f64, f64)> {
        self.behind_none
            .iter()
            .map(|(&k, &p)| (k as f64 / self.units as f64, p))
            .collect()
    }

    /// Expected amount wagered per round, in initial bets.
    pub fn mean_wagered(&self) -> f64 {
        self.joint
            .iter()
            .map(|(&(_, w), &p)| w as f64 * p)
            .sum::<f64>()
            / self.units as f64
    }

    /// RTP per amount wagered: (E[wagered] + EV) / E[wagered], with the analysis's EV.
    pub fn rtp_total_wagered(&self) -> f64 {
        1.0 + self.ev / self.mean_wagered()
    }

    /// The SD of one round's return per amount wagered, as a ratio estimator's (the SE of
    /// the RTP per amount wagered after `n` rounds is this over √n):
    /// √Var(net − ρ·wagered) / E[wagered], ρ = E[net] / E[wagered].
    pub fn sd_per_round_total_wagered(&self) -> f64 {
        let u = self.units as f64;
        let ew = self.mean_wagered();
        let rho = Shape::of(&self.net()).mean / ew;
        let lin = |n: i64, w: i64| n as f64 / u - rho * w as f64 / u;
        let m: f64 = self.joint.iter().map(|(&(n, w), &p)| lin(n, w) * p).sum();
        let var: f64 = self
            .joint
            .iter()
            .map(|(&(n, w), &p)| (lin(n, w) - m).powi(2) * p)
            .sum();
        var.sqrt() / ew
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::exact::{analyze, Follow, Optimal};
    use crate::games::blackjack::rules::{BjPays, DealerBjTakes, Double};
    use crate::games::blackjack::strategy::{AutoPlay, Situation};

    fn check<P: Decider>(rules: &Rules, policy: &P, what: &str) -> RoundDistribution {
        let t = DealerTable::of(rules);
        let d = round_distribution(rules, policy, t);
        let total: f64 = d.joint.values().sum();
        assert!((total - 1.0).abs() < 1e-10, "{what}: sums to {total}");
        let behind: f64 = d.behind_none.values().sum();
        assert!(
            (behind - 1.0).abs() < 1e-10,
            "{what}: behind sums to {behind}"
        );
        let ev = analyze(rules, policy, t).ev;
        assert!((d.ev - ev).abs() < 1e-15, "{what}: {} vs {ev}", d.ev);
        let mean = Shape::of(&d.net()).mean;
        assert!(
            (mean - ev).abs() < 1e-9,
            "{what}: mean {mean} vs exact EV {ev}"
        );
        assert_eq!(d.resplit_mass, 0.0, "{what}");
        assert!(
            (0.0..1e-7).contains(&d.tiny_mass),
            "{what}: {}",
            d.tiny_mass
        );
        d
    }

    #[test]
    fn seed_rules_mean_is_the_exact_ev_and_the_support_is_the_table_s() {
        let r = Rules::seed();
        let d = check(&r, &Optimal, "seed optimal");
        let nets: Vec<f64> = d.net().iter().map(|x| x.0).collect();
        // No double after a split, two hands: −2 (a lost double or two lost hands), −1,
        // −½ (surrender), 0, 1, 1½ (blackjack), 2.
        assert_eq!(nets, vec![-2.0, -1.0, -0.5, 0.0, 1.0, 1.5, 2.0]);
        // A blackjack pays 3:2 unless the dealer has one too: P(+1.5) = P(natural) less the
        // dealer-blackjack pushes.
        let p15 = d.net().iter().find(|x| x.0 == 1.5).unwrap().1;
        let shoe = full_shoe(8);
        let n = 416.0;
        let nat = 2.0 * shoe[0] as f64 * shoe[9] as f64 / (n * (n - 1.0));
        assert!(p15 < nat && p15 > 0.95 * nat, "{p15} vs {nat}");
        // Eight decks and splits: some split rounds are below TINY, and their mass is stated.
        assert!(d.tiny_mass > 0.0, "tiny mass {:e}", d.tiny_mass);
        check(&r, &Follow(&AutoPlay), "seed autoplay");
    }

    #[test]
    #[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
    fn the_mean_is_the_exact_ev_under_other_rules() {
        let mut peek = Rules::seed();
        peek.peek = true;
        peek.das = true;
        peek.surrender = Surrender::Late;
        peek.decks = 6;
        check(&peek, &Optimal, "peek DAS late 6 decks");
        let mut obo = Rules::seed();
        obo.dealer_bj_takes = DealerBjTakes::Original;
        obo.surrender = Surrender::Early;
        obo.h17 = true;
        check(&obo, &Optimal, "OBO early H17");
        // Infinite Blackjack's six-card Charlie, and a five-card one (worth 1.5%), split
        // hands included; the "Playtech peek" settlement with a strategy that doubles and
        // splits against tens (the optimal one does, under DAS).
        check(&Rules::infinite(), &Optimal, "six-card Charlie");
        let mut five = Rules::infinite();
        five.charlie = Some(5);
        five.das = false;
        five.decks = 2;
        check(&five, &Optimal, "five-card Charlie");
        let mut splits = Rules::seed();
        splits.dealer_bj_takes = DealerBjTakes::Splits;
        splits.das = true;
        splits.decks = 2;
        check(&splits, &Optimal, "ENHC takes splits, not doubles");
        let mut late = Rules::seed();
        late.surrender = Surrender::Late;
        late.bj_pays = BjPays::SixToFive;
        late.double = Double::NineToEleven;
        late.hit_split_aces = true;
        late.das = true;
        check(&late, &Optimal, "ENHC late 6:5 DAS hit split aces");
        let mut one = Rules::seed();
        one.decks = 1;
        one.max_hands = 1;
        // No splits, no split rounds to approximate.
        assert_eq!(check(&one, &Optimal, "one deck, no splits").tiny_mass, 0.0);
    }

    #[test]
    fn resplits_are_bounded_not_hidden() {
        let mut r = Rules::seed();
        r.max_hands = 4;
        let t = DealerTable::shared(false);
        let d = round_distribution(&r, &Optimal, t);
        assert!((d.joint.values().sum::<f64>() - 1.0).abs() < 1e-10);
        // Optimal play splits in about 2.5% of rounds; a pair card comes as a second card
        // about 1 time in 13 per hand.
        assert!(
            d.resplit_mass > 0.001 && d.resplit_mass < 0.01,
            "{}",
            d.resplit_mass
        );
        let ev = analyze(&r, &Optimal, t).ev;
        let mean = Shape::of(&d.net()).mean;
        assert!((mean - ev).abs() < 4.0 * d.resplit_mass, "{mean} vs {ev}");
        // Aces resplit only where the rules say: allowing it adds the rounds where a split
        // ace draws another ace (optimal play always splits aces) to the bounded mass.
        r.resplit_aces = true;
        let aces = round_distribution(&r, &Optimal, t);
        assert!(
            aces.resplit_mass > d.resplit_mass + 0.0003,
            "{} vs {}",
            aces.resplit_mass,
            d.resplit_mass
        );
    }

    #[test]
    fn settlement_of_hands() {
        let e = |total, doubled| End {
            total,
            doubled,
            free: 0,
        };
        // A dealer blackjack takes every wager: two hands, one doubled.
        assert_eq!(settle(&[e(20, false), e(21, true)], 6, 2), (-6, 6));
        // Dealer bust: a busted hand still loses.
        assert_eq!(settle(&[e(0, false), e(12, true)], 5, 2), (2, 6));
        // Dealer 19 (o = 2): 20 wins, 19 pushes, 18 loses.
        assert_eq!(settle(&[e(20, false)], 2, 2), (2, 2));
        assert_eq!(settle(&[e(19, true)], 2, 2), (0, 4));
        assert_eq!(settle(&[e(18, true)], 2, 2), (-4, 4));
        // The bet behind that declines stays undoubled.
        assert_eq!(behind(&e(21, true), 2, 2), 2);
    }

    /// Free Bet: a free chip wins with its hand and goes back to the house otherwise; a
    /// dealer 22 (o = 7) pushes every hand standing; a dealer blackjack takes the player's
    /// money only, and none of it is a free chip's.
    #[test]
    fn settlement_of_free_hands() {
        let e = |total, doubled, free| End {
            total,
            doubled,
            free,
        };
        // A free double (hard 11) with 20 against 19: the bet and the free chip both win;
        // against 21 (o = 4) the bet alone is lost.
        assert_eq!(settle(&[e(20, true, FREE_DOUBLE)], 2, 2), (4, 2));
        assert_eq!(settle(&[e(20, true, FREE_DOUBLE)], 4, 2), (-2, 2));
        // A free split: the hand split keeps the bet, the new hand's chip is the house's. Both
        // beat a bust: +2 bets; both lose to 21: one bet lost.
        let split = [e(18, false, 0), e(17, false, FREE_STAKE)];
        assert_eq!(settle(&split, 5, 2), (4, 2));
        assert_eq!(settle(&split, 4, 2), (-2, 2));
        // A free hand doubled with its own money (a soft double is not free) loses that money.
        assert_eq!(settle(&[e(0, true, FREE_STAKE)], 5, 2), (-2, 2));
        // A free double on a free hand: nothing of the player's is at stake.
        assert_eq!(
            settle(&[e(21, true, FREE_STAKE | FREE_DOUBLE)], 0, 2),
            (4, 0)
        );
        assert_eq!(
            settle(&[e(0, true, FREE_STAKE | FREE_DOUBLE)], 0, 2),
            (0, 0)
        );
        // A dealer 22 pushes the hands standing; a busted hand still loses.
        let dealer_22 = super::super::exact::DEALER_22;
        assert_eq!(
            settle(
                &[e(20, true, FREE_DOUBLE), e(0, false, FREE_STAKE)],
                dealer_22,
                2
            ),
            (0, 2)
        );
        assert_eq!(
            settle(
                &[e(0, true, FREE_DOUBLE), e(19, false, FREE_STAKE)],
                dealer_22,
                2
            ),
            (-2, 2)
        );
        // A dealer blackjack (no hole card, taking every wager) takes the player's money only.
        assert_eq!(
            settle(&[e(20, true, FREE_DOUBLE), e(18, false, FREE_STAKE)], 6, 2),
            (-2, 2)
        );
        assert_eq!(
            settle_as(&[e(20, false, 0), e(18, true, FREE_STAKE)], 6, 2, true),
            (-2, 4)
        );
        // The bet behind that declines: a dealer 22 pushes it.
        assert_eq!(behind(&e(20, true, FREE_DOUBLE), dealer_22, 2), 0);
    }

    /// Free Bet Blackjack's rounds (two hands at most, so no resplit is approximated): the
    /// distribution's mean is the exact EV, in the hole-card preset and in the no-hole-card
    /// game whose dealer blackjack takes every wager of the player's.
    #[test]
    #[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
    fn free_bet_mean_is_the_exact_ev() {
        // One deck: fewer courses to pair, the same code. The optimal strategy plays a free
        // hand for its chance of winning (courses of its own, every ordered pair of hands);
        // auto-play plays it as a real one (unordered pairs, settled in both orders).
        let mut peek = Rules::free_bet();
        peek.max_hands = 2;
        peek.resplit_aces = false;
        peek.decks = 1;
        let d = check(&peek, &Optimal, "Free Bet, peek, two hands");
        // Free doubles and splits win two bets with one of the player's at stake.
        assert!(
            d.joint.keys().any(|&(net, wagered)| net == 2 * wagered),
            "{:?}",
            d.joint
        );
        check(&peek, &Follow(&AutoPlay), "Free Bet, peek, auto-play");
        let mut enhc = Rules::seed();
        enhc.free_bet = true;
        enhc.decks = 1;
        check(&enhc, &Optimal, "Free Bet, no hole card");
    }

    /// Splits every pair it may, never doubles, and otherwise hits to three cards: its
    /// decisions depend on the number of cards, so the distribution must count them as the
    /// analysis does (in unsplit and split hands) for its mean to be the analysis's EV.
    struct ThreeCards;
    impl Decider for ThreeCards {
        fn choose(&self, s: &Situation, options: &[(Action, f64)]) -> (Action, f64) {
            let pick = |a: Action| options.iter().find(|o| o.0 == a).copied();
            let split = s.pair.and_then(|_| pick(Action::Split));
            let want = if s.cards < 3 && s.total < 21 {
                Action::Hit
            } else {
                Action::Stand
            };
            split
                .or_else(|| pick(want))
                .or_else(|| pick(Action::Stand))
                .unwrap_or(options[0])
        }
    }

    #[test]
    fn decisions_by_the_number_of_cards_are_followed() {
        let d = check(&Rules::seed(), &ThreeCards, "hit to three cards");
        // Every pair is split, so two bets are wagered in the rounds dealt a pair by value
        // (tens count as one value): 25/169 = 0.148 with replacement, a little less from 8 decks.
        let two: f64 = d
            .joint
            .iter()
            .filter(|(k, _)| k.1 == 2 * d.units)
            .map(|(_, p)| p)
            .sum();
        assert!(two > 0.14 && two < 0.148, "{two}");
        // Nothing is doubled: a round wagers one bet, or two after a split.
        assert!(d
            .joint
            .keys()
            .all(|&(_, w)| w == d.units || w == 2 * d.units));
    }

    /// Surrenders wherever it may, never doubles or splits, and otherwise hits below 17: a bet
    /// behind that follows it plays the same single undoubled hand as the main bet.
    struct NeverDoubles;
    impl Decider for NeverDoubles {
        fn choose(&self, s: &Situation, options: &[(Action, f64)]) -> (Action, f64) {
            let pick = |a: Action| options.iter().find(|o| o.0 == a).copied();
            let want = if s.total < 17 {
                Action::Hit
            } else {
                Action::Stand
            };
            pick(Action::Surrender)
                .or_else(|| pick(want))
                .or_else(|| pick(Action::Stand))
                .unwrap_or(options[0])
        }
    }

    #[test]
    fn a_bet_behind_on_a_hand_never_doubled_or_split_nets_what_the_main_bet_nets() {
        // Every surrender rule: late surrender loses the whole bet, behind too, to a dealer
        // blackjack (no hole card: it is known only after the surrender); early and 2-9 lose
        // half; none plays every hand out. And the games where a dealer blackjack takes the
        // original bet only (a hole card with a peek, or no hole card and OBO), where the
        // behind loses one bet to it as the main bet does.
        let seed = Rules::seed();
        let mut peek = Rules::seed();
        peek.peek = true;
        let mut obo = Rules::seed();
        obo.dealer_bj_takes = DealerBjTakes::Original;
        for (table, sur) in [
            (&seed, Surrender::Late),
            (&seed, Surrender::Early),
            (&seed, Surrender::TwoToNine),
            (&seed, Surrender::None),
            (&peek, Surrender::Late),
            (&peek, Surrender::None),
            (&obo, Surrender::TwoToNine),
            (&obo, Surrender::None),
        ] {
            let mut r = table.clone();
            r.surrender = sur;
            let what = format!("{sur:?}, peek {}, {:?}", r.peek, r.dealer_bj_takes);
            let d = check(&r, &NeverDoubles, &format!("never doubles, {what}"));
            assert!(d.joint.keys().all(|&(_, w)| w == d.units), "{what}");
            // Both in bets, as the audit reads them.
            let (main, behind) = (d.net(), d.behind_none());
            assert_eq!(main.len(), behind.len(), "{what}");
            for ((a, p), (b, q)) in main.iter().zip(&behind) {
                assert_eq!(a, b, "{what}");
                assert!((p - q).abs() < 1e-15, "{what} net {a}: {p} vs {q}");
            }
            let half: f64 = main.iter().find(|x| x.0 == -0.5).map_or(0.0, |x| x.1);
            // Surrender is taken where offered (half a bet lost), and never without it.
            match sur {
                Surrender::None => assert_eq!(half, 0.0),
                _ => assert!(half > 0.01, "{what}: surrendered {half}"),
            }
        }
    }

    #[test]
    fn the_accumulator_files_each_result_and_merges_by_weight() {
        let r = Rules::seed();
        let u = r.units_per_bet();
        let mut a = Acc::new(&r);
        a.add(-2 * u, 2 * u, -u, 0.25);
        a.add(u, u, u, 0.5);
        a.add(0, 2 * u, 2 * u, 0.25);
        a.resplit = 0.125;
        a.tiny = 0.0625;
        a.ev = -0.5;
        let mut b = Acc::new(&r);
        b.add(u, u, u, 1.0);
        b.resplit = 1.0;
        b.tiny = 1.0;
        b.ev = 1.0;
        let mut m = Acc::new(&r);
        m.merge(&a, 0.75);
        m.merge(&b, 0.25);
        let d = m.finish();
        assert_eq!(d.units, u);
        let joint: Vec<_> = d.joint.into_iter().collect();
        assert_eq!(
            joint,
            vec![
                ((-2 * u, 2 * u), 0.1875),
                ((0, 2 * u), 0.1875),
                ((u, u), 0.625)
            ]
        );
        let behind: Vec<_> = d.behind_none.into_iter().collect();
        assert_eq!(behind, vec![(-u, 0.1875), (u, 0.625), (2 * u, 0.1875)]);
        assert_eq!(
            (d.resplit_mass, d.tiny_mass, d.ev),
            (0.75 * 0.125 + 0.25, 0.75 * 0.0625 + 0.25, -0.375 + 0.25)
        );
    }

    #[test]
    fn amounts_wagered_and_the_rtp_per_total_wagered_of_a_known_distribution() {
        // Two units a bet. Nets in bets, amount wagered 1 bet: −1 (P 0.5), 0 (0.1), +1 (0.2);
        // 2 bets (a double): −2 (0.1), +2 (0.1). By hand: E[wagered] = 0.8 + 0.4 = 1.2 bets;
        // EV −0.5 + 0.2 − 0.2 + 0.2 = −0.3; RTP per wagered 1 − 0.3/1.2 = 0.75; ρ = −0.25, so
        // net − ρ·wagered is −0.75, 0.25, 1.25, −1.5, 2.5, of mean 0 and variance
        // 0.28125 + 0.00625 + 0.3125 + 0.225 + 0.625 = 1.45.
        let joint: BTreeMap<(i64, i64), f64> = [
            ((-2, 2), 0.5),
            ((0, 2), 0.1),
            ((2, 2), 0.2),
            ((-4, 4), 0.1),
            ((4, 4), 0.1),
        ]
        .into();
        let d = RoundDistribution {
            units: 2,
            joint,
            behind_none: [(-2, 0.7), (2, 0.3)].into(),
            resplit_mass: 0.0,
            tiny_mass: 0.0,
            ev: -0.3,
        };
        assert!(
            (d.mean_wagered() - 1.2).abs() < 1e-15,
            "{}",
            d.mean_wagered()
        );
        assert!((d.rtp_total_wagered() - 0.75).abs() < 1e-15);
        let sd = d.sd_per_round_total_wagered();
        assert!((sd - 1.45f64.sqrt() / 1.2).abs() < 1e-14, "{sd}");
        assert_eq!(d.behind_none(), vec![(-1.0, 0.7), (1.0, 0.3)]);
        let net = d.net();
        assert_eq!(net.len(), 5);
        for ((x, p), (y, q)) in
            net.iter()
                .zip([(-2.0, 0.1), (-1.0, 0.5), (0.0, 0.1), (1.0, 0.2), (2.0, 0.1)])
        {
            assert_eq!(*x, y);
            assert!((p - q).abs() < 1e-15, "{x}: {p}");
        }
    }

    #[test]
    fn shape_of_a_known_distribution() {
        // A mean away from 0 (x − mean is not x + mean), wins and pushes of different
        // probabilities, and nets of probability 0 at both ends, which are neither the largest
        // win nor the largest loss. By hand: mean −0.5 + 1.125 = 0.625; variance
        // 1.625²·0.5 + 0.625²·0.125 + 2.375²·0.375 = 3.484375.
        let s = Shape::of(&[
            (-4.0, 0.0),
            (-1.0, 0.5),
            (0.0, 0.125),
            (3.0, 0.375),
            (5.0, 0.0),
        ]);
        assert!((s.mean - 0.625).abs() < 1e-15, "{}", s.mean);
        assert!((s.variance - 3.484375).abs() < 1e-15, "{}", s.variance);
        assert!((s.sd - 3.484375f64.sqrt()).abs() < 1e-15, "{}", s.sd);
        assert_eq!((s.hit_frequency, s.push_frequency), (0.375, 0.125));
        assert_eq!(
            (s.largest_win, s.largest_win_p, s.largest_loss),
            (3.0, 0.375, -1.0)
        );
        // The variance is taken about the mean (two passes), which stays accurate far from 0,
        // where E[x²] − mean² loses every digit: two nets 0.6 apart near 3·10⁹, P 0.3 and 0.7,
        // have variance 0.6²·0.3·0.7 = 0.0756 (the one-pass form gives about 2000).
        let far = Shape::of(&[(3e9 + 0.1, 0.3), (3e9 + 0.7, 0.7)]);
        assert!((far.variance - 0.0756).abs() < 1e-6, "{}", far.variance);
    }
}
