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
//! Splits: one split (two hands) is exact for post-split play that knows the split cards
//! (CDP: each hand is played optimally given its own cards, the pair and the up card; by
//! exchangeability the other hand's cards are unseen). Resplits (more than two hands) are
//! approximated: a hand that receives another pair card may resplit into two hands valued as
//! split hands with one more pair card removed, the hand limit tracked per branch. The report
//! says which.

use std::collections::HashMap;

use rayon::prelude::*;

use super::rules::{Rules, Surrender};
use super::strategy::{Action, Situation, Strategy};

/// Index of a card value: 0 = ace, 1..=8 = two..nine, 9 = ten-valued.
const NV: usize = 10;

/// Dealer outcomes: 0..=4 totals 17..=21, 5 bust, 6 blackjack.
pub const OUTCOMES: usize = 7;

/// One multiset of dealer draws from an up card.
#[derive(Clone, Debug)]
struct DealerEntry {
    /// (value index, how many) of the drawn cards.
    cards: Vec<(u8, u8)>,
    /// Cards drawn.
    k: u8,
    /// Number of draw orders of this multiset that the dealer's rule allows.
    ways: f64,
    outcome: u8,
}

/// Every dealer draw multiset for each up card.
#[derive(Clone, Debug)]
pub struct DealerTable {
    per_up: Vec<Vec<DealerEntry>>,
}

impl DealerTable {
    pub fn new(h17: bool) -> DealerTable {
        DealerTable {
            per_up: (0..NV).map(|u| build_dealer(u, h17)).collect(),
        }
    }

    /// The dealer's outcome distribution with `up` (value index) showing and `shoe` holding
    /// the cards not yet seen.
    pub fn dist(&self, up: usize, shoe: &[u32; NV]) -> [f64; OUTCOMES] {
        let total: u32 = shoe.iter().sum();
        let kmax = 24usize;
        let mut ff = [[0f64; 25]; NV];
        for v in 0..NV {
            ff[v][0] = 1.0;
            for k in 1..=kmax {
                let n = shoe[v] as f64 - (k as f64 - 1.0);
                ff[v][k] = if n > 0.0 { ff[v][k - 1] * n } else { 0.0 };
            }
        }
        let mut inv = [0f64; 25];
        inv[0] = 1.0;
        for k in 1..=kmax {
            let n = total as f64 - (k as f64 - 1.0);
            inv[k] = if n > 0.0 { inv[k - 1] / n } else { 0.0 };
        }
        let mut out = [0f64; OUTCOMES];
        for e in &self.per_up[up] {
            let mut p = e.ways * inv[e.k as usize];
            for &(v, k) in &e.cards {
                p *= ff[v as usize][k as usize];
            }
            out[e.outcome as usize] += p;
        }
        out
    }
}

fn build_dealer(up: usize, h17: bool) -> Vec<DealerEntry> {
    let mut map: HashMap<([u8; NV], u8), f64> = HashMap::new();
    let mut counts = [0u8; NV];
    fn dfs(hard: u32, ace: bool, drawn: u32, counts: &mut [u8; NV], h17: bool, map: &mut HashMap<([u8; NV], u8), f64>) {
        let soft = ace && hard <= 11;
        let total = if soft { hard + 10 } else { hard };
        let outcome = if drawn == 1 && total == 21 && soft {
            Some(6u8)
        } else if hard > 21 {
            Some(5)
        } else if total > 17 || (total == 17 && !(h17 && soft)) {
            Some((total - 17) as u8)
        } else {
            None
        };
        if let Some(o) = outcome {
            *map.entry((*counts, o)).or_insert(0.0) += 1.0;
            return;
        }
        for v in 0..NV {
            counts[v] += 1;
            dfs(hard + v as u32 + 1, ace || v == 0, drawn + 1, counts, h17, map);
            counts[v] -= 1;
        }
    }
    dfs(up as u32 + 1, up == 0, 0, &mut counts, h17, &mut map);
    let mut entries: Vec<DealerEntry> = map
        .into_iter()
        .map(|((c, o), ways)| DealerEntry {
            cards: (0..NV).filter(|&v| c[v] > 0).map(|v| (v as u8, c[v])).collect(),
            k: c.iter().sum(),
            ways,
            outcome: o,
        })
        .collect();
    // A fixed order, so sums are reproducible to the last bit.
    entries.sort_by(|a, b| (a.outcome, a.k, &a.cards).cmp(&(b.outcome, b.k, &b.cards)));
    entries
}

/// How a decision is made in the analysis: the best action, or what a strategy says.
pub trait Policy: Sync {
    /// Pick among `options` (each with its expected value); returns the action and its EV.
    fn choose(&self, s: &Situation, options: &[(Action, f64)]) -> (Action, f64);
}

/// Maximize expected value (composition dependent).
pub struct Optimal;
impl Policy for Optimal {
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
impl<S: Strategy> Policy for Follow<'_, S> {
    fn choose(&self, s: &Situation, options: &[(Action, f64)]) -> (Action, f64) {
        let want = self.0.act(s);
        let find = |a: Action| options.iter().find(|o| o.0 == a).copied();
        find(want)
            .or_else(|| find(Action::Hit))
            .or_else(|| find(Action::Stand))
            .unwrap_or(options[0])
    }
}

/// Packed counts of the cards removed from the shoe (5 bits per value).
type Key = u64;

/// Split context of a hand: (pair value index, pair cards removed beyond the hand's own);
/// `.1 == 0` for an unsplit hand.
type Ctx = (usize, u8);

fn key_of(c: &[u8; NV]) -> Key {
    c.iter().enumerate().fold(0u64, |k, (v, &n)| k | (n as u64) << (5 * v))
}

/// Per-up-card analysis state.
struct Up<'a, P: Policy> {
    rules: &'a Rules,
    policy: &'a P,
    table: &'a DealerTable,
    up: usize,
    /// Shoe after the up card.
    shoe: [u32; NV],
    /// Condition on the dealer not having blackjack (peek game, or OBO settlement).
    no_bj: bool,
    /// Post-split play as before the split (CDZ-) rather than optimal after it (CDP).
    cdz: bool,
    dealer_memo: HashMap<Key, [f64; OUTCOMES]>,
    /// Value of a hit/stand-only hand: (removed cards key, pair value, extra pair cards
    /// removed). The pair value is part of the key: a split-8s hand 8,3,3 and a split-3s hand
    /// 3,8,8 remove the same cards.
    plain_memo: HashMap<(Key, u8, u8), f64>,
}

impl<P: Policy> Up<'_, P> {
    fn remaining(&self, removed: &[u8; NV]) -> [u32; NV] {
        let mut r = self.shoe;
        for v in 0..NV {
            r[v] = r[v].saturating_sub(removed[v] as u32);
        }
        r
    }

    /// P(dealer blackjack) from a shoe (ace or ten up only).
    fn pbj(&self, rem: &[u32; NV]) -> f64 {
        let n: u32 = rem.iter().sum();
        match self.up {
            0 => rem[9] as f64 / n as f64,
            9 => rem[0] as f64 / n as f64,
            _ => 0.0,
        }
    }

    fn dealer(&mut self, removed: &[u8; NV]) -> [f64; OUTCOMES] {
        let k = key_of(removed);
        if let Some(d) = self.dealer_memo.get(&k) {
            return *d;
        }
        let rem = self.remaining(removed);
        let mut d = self.table.dist(self.up, &rem);
        if self.no_bj && d[6] > 0.0 {
            let keep = 1.0 - d[6];
            d[6] = 0.0;
            for x in d.iter_mut() {
                *x /= keep;
            }
        }
        self.dealer_memo.insert(k, d);
        d
    }

    /// Probability of drawing each value next (conditioned on no dealer blackjack if asked).
    fn draw(&self, removed: &[u8; NV]) -> [f64; NV] {
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

    fn sit(&self, hard: u32, ace: bool, cards: u8, split: bool) -> Situation {
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
        if hard > 21 {
            return -1.0;
        }
        let split = ctx.1 > 0;
        let k = (key_of(removed), if split { ctx.0 as u8 } else { u8::MAX }, ctx.1);
        if let Some(&v) = self.plain_memo.get(&k) {
            return v;
        }
        let total = if ace && hard <= 11 { hard + 10 } else { hard };
        let s = self.sit(hard, ace, cards, split);
        let v = if split && self.cdz {
            // CDZ-: decide as the same cards would before a split, then score that choice in
            // the post-split shoe.
            let mut un = *removed;
            un[ctx.0] -= ctx.1;
            let st_u = self.stand(&un, total);
            let hit_u = self.hit(&mut un, hard, ace, cards, (ctx.0, 0));
            match self.policy.choose(&s, &[(Action::Stand, st_u), (Action::Hit, hit_u)]).0 {
                Action::Stand => self.stand(removed, total),
                _ => self.hit(removed, hard, ace, cards, ctx),
            }
        } else {
            let stand = self.stand(removed, total);
            let hit = self.hit(removed, hard, ace, cards, ctx);
            self.policy.choose(&s, &[(Action::Stand, stand), (Action::Hit, hit)]).1
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
        }
        2.0 * ev
    }

    /// A split hand of pair value index `pv` holding `c` as its second card, with `extra`
    /// pair cards out of the shoe in other hands and `hands` hands on the table.
    fn split_hand(&mut self, pv: usize, c: usize, extra: u8, hands: u8) -> f64 {
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
        let mut options = vec![(Action::Stand, self.stand(&removed, total))];
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
                (Action::Stand, self.stand(&un, total)),
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
        let can_resplit = c == pv && hands < rules.max_hands && (pv != 0 || rules.resplit_aces);
        if can_resplit {
            let v = 2.0 * self.split_hand_avg(pv, extra + 1, hands + 1);
            options.push((Action::Split, v));
        }
        let mut s = self.sit(hard, ace, 2, true);
        s.can_double = options.iter().any(|o| o.0 == Action::Double);
        s.pair = if can_resplit { Some(pv as u8 + 1) } else { None };
        if locked && !can_resplit {
            return options[0].1;
        }
        self.policy.choose(&s, &options).1
    }

    /// Expected value of one split hand of pair `pv` before its second card.
    fn split_hand_avg(&mut self, pv: usize, extra: u8, hands: u8) -> f64 {
        let mut removed = [0u8; NV];
        removed[pv] += 1 + extra;
        let p = self.draw(&removed);
        let mut ev = 0.0;
        for c in 0..NV {
            if p[c] > 0.0 {
                ev += p[c] * self.split_hand(pv, c, extra, hands);
            }
        }
        ev
    }

    /// The initial decision on two cards (not a natural). Returns the chosen action and its
    /// EV, in the world of `self.no_bj`.
    fn initial(&mut self, c1: usize, c2: usize) -> (Action, f64) {
        let rules = self.rules;
        let mut removed = [0u8; NV];
        removed[c1] += 1;
        removed[c2] += 1;
        let hard = (c1 + c2 + 2) as u32;
        let ace = c1 == 0 || c2 == 0;
        let soft = ace && hard <= 11;
        let total = if soft { hard + 10 } else { hard };
        let mut options = vec![
            (Action::Stand, self.stand(&removed, total)),
            (Action::Hit, self.hit(&mut removed, hard, ace, 2, (c1, 0))),
        ];
        if rules.double_allowed(hard as u8, soft) {
            options.push((Action::Double, self.double(&mut removed, hard, ace)));
        }
        let pair = c1 == c2 && rules.max_hands >= 2;
        if pair {
            options.push((Action::Split, 2.0 * self.split_hand_avg(c1, 1, 2)));
        }
        let up = self.up as u8 + 1;
        if rules.surrender_allowed(up) {
            let sur = match rules.surrender {
                // Late surrender without a hole card still loses everything to a blackjack.
                Surrender::Late if !rules.peek && !self.no_bj => {
                    let p = self.pbj(&self.remaining(&removed));
                    -p - 0.5 * (1.0 - p)
                }
                _ => -0.5,
            };
            options.push((Action::Surrender, sur));
        }
        let mut s = self.sit(hard, ace, 2, false);
        s.can_double = options.iter().any(|o| o.0 == Action::Double);
        s.can_surrender = options.iter().any(|o| o.0 == Action::Surrender);
        s.pair = if pair { Some(c1 as u8 + 1) } else { None };
        self.policy.choose(&s, &options)
    }
}

/// The decision and EV of one initial two-card hand (value indices, ace = 0) against one up
/// card (not a natural), in the world of the rules (conditioned on no dealer blackjack in the
/// hole-card game).
pub fn initial_ev<P: Policy>(rules: &Rules, policy: &P, table: &DealerTable, up: usize, c1: usize, c2: usize) -> (Action, f64) {
    let mut shoe = [4 * rules.decks; NV];
    shoe[9] = 16 * rules.decks;
    shoe[up] -= 1;
    let no_bj = rules.peek || rules.dealer_bj_takes == super::rules::DealerBjTakes::Original;
    let mut a = Up {
        rules,
        policy,
        table,
        up,
        shoe,
        no_bj,
        cdz: false,
        dealer_memo: HashMap::new(),
        plain_memo: HashMap::new(),
    };
    a.initial(c1, c2)
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

/// Analyze `rules` under `policy` from a full shoe.
pub fn analyze<P: Policy>(rules: &Rules, policy: &P, table: &DealerTable) -> ExactResult {
    let mut full = [4 * rules.decks; NV];
    full[9] = 16 * rules.decks;
    let n: u32 = full.iter().sum();
    let no_bj = rules.peek || rules.dealer_bj_takes == super::rules::DealerBjTakes::Original;
    let bj_pay = match rules.bj_pays {
        super::rules::BjPays::ThreeToTwo => 1.5,
        super::rules::BjPays::SixToFive => 1.2,
        super::rules::BjPays::OneToOne => 1.0,
    };
    let per_up: Vec<(f64, Frequencies)> = (0..NV)
        .into_par_iter()
        .map(|u| {
            let mut shoe = full;
            shoe[u] -= 1;
            let mut a = Up {
                rules,
                policy,
                table,
                up: u,
                shoe,
                no_bj,
                cdz: std::env::var("CDZ").is_ok(),
                dealer_memo: HashMap::new(),
                plain_memo: HashMap::new(),
            };
            let m = (n - 1) as f64;
            let mut ev = 0.0;
            let mut f = Frequencies::default();
            for c1 in 0..NV {
                for c2 in c1..NV {
                    let p = if c1 == c2 {
                        shoe[c1] as f64 * (shoe[c1] as f64 - 1.0) / (m * (m - 1.0))
                    } else {
                        2.0 * shoe[c1] as f64 * shoe[c2] as f64 / (m * (m - 1.0))
                    };
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
                    let (act, v) = a.initial(c1, c2);
                    let (act, hand_ev) = if no_bj {
                        let early = rules.surrender == Surrender::Early && pbj > 0.0;
                        let cont = -pbj + (1.0 - pbj) * v;
                        if early && -0.5 > cont {
                            (Action::Surrender, -0.5)
                        } else {
                            (act, cont)
                        }
                    } else {
                        (act, v)
                    };
                    ev += p * hand_ev;
                    let w = if no_bj { p * (1.0 - pbj) } else { p };
                    match act {
                        Action::Double => f.double += w,
                        Action::Split => f.split += w,
                        Action::Surrender => f.surrender += p,
                        _ => {}
                    }
                }
            }
            (ev, f)
        })
        .collect();
    let mut ev = 0.0;
    let mut ev_by_up = [0.0; NV];
    let mut p_up = [0.0; NV];
    let mut fr = Frequencies::default();
    for (u, (e, f)) in per_up.iter().enumerate() {
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
    let split_note = if rules.max_hands > 2 {
        "resplits approximated (a split hand receiving another pair card values a resplit as two split hands with that card removed)"
    } else {
        "one split exact"
    };
    ExactResult {
        ev,
        ev_by_up,
        p_up,
        frequencies: fr,
        method: format!(
            "combinatorial analysis from a full {}-deck shoe; composition-dependent play; post-split play knows the pair (CDP); {split_note}{}",
            rules.decks,
            if no_bj { "; conditioned on no dealer blackjack (hole-card / original-bets-only settlement)" } else { "; no hole card, dealer blackjack takes all wagers" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(decks: u32) -> [u32; NV] {
        let mut s = [4 * decks; NV];
        s[9] = 16 * decks;
        s
    }

    #[test]
    fn dealer_table_reproduces_reference_totals() {
        // REFERENCE.md, 8 decks, S17, full shoe with the up card removed; columns bust, 17..21, BJ.
        let t = DealerTable::new(false);
        let cases: [(usize, [f64; 7]); 4] = [
            (1, [0.35353, 0.13969, 0.13452, 0.12993, 0.12402, 0.11831, 0.0]),
            (5, [0.42292, 0.16564, 0.10621, 0.10639, 0.10159, 0.09725, 0.0]),
            (9, [0.21238, 0.11179, 0.11161, 0.11181, 0.34056, 0.03474, 0.07711]),
            (0, [0.11543, 0.13021, 0.13081, 0.13064, 0.13088, 0.05359, 0.30843]),
        ];
        for (up, want) in cases {
            let mut s = full(8);
            s[up] -= 1;
            let d = t.dist(up, &s);
            let ours = [d[5], d[0], d[1], d[2], d[3], d[4], d[6]];
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            for k in 0..7 {
                assert!((ours[k] - want[k]).abs() < 0.5e-5, "up {up} column {k}: {} vs {}", ours[k], want[k]);
            }
        }
    }
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

    #[test]
    fn print_reference_rows() {
        for (d, h, s, das, h17) in [(8, 2, Surrender::None, true, false), (8, 2, Surrender::None, false, false), (8, 2, Surrender::None, true, true), (8, 1, Surrender::None, false, false), (6, 2, Surrender::None, true, false)] {
            let mut r = peek(d, h, s);
            r.das = das;
            r.h17 = h17;
            let t = DealerTable::new(h17);
            let start = std::time::Instant::now();
            let res = analyze(&r, &Optimal, &t);
            eprintln!("{d} decks {h} hands {s:?} das {das} h17 {h17}: {:.6}% in {:?}", res.ev * 100.0, start.elapsed());
        }
    }
}

#[cfg(test)]
mod vs_sim {
    use super::*;
    use crate::games::blackjack::app::seed_chart;

    #[test]
    fn print_fixed_evs() {
        use crate::games::blackjack::strategy::{AutoPlay, MimicDealer};
        let mut r = Rules::seed();
        r.peek = true;
        let t = DealerTable::new(false);
        let res = analyze(&r, &Follow(&MimicDealer { h17: false }), &t);
        eprintln!("mimic exact {:.6}% by up {:?}", res.ev * 100.0, res.ev_by_up.map(|x| (x * 1e4).round() / 1e2));
        let res = analyze(&r, &Follow(&AutoPlay), &t);
        eprintln!("autoplay exact {:.6}% by up {:?}", res.ev * 100.0, res.ev_by_up.map(|x| (x * 1e4).round() / 1e2));
    }

    #[test]
    fn print_chart_evs() {
        let chart = match std::env::var("CHART") {
            Ok(p) => crate::games::blackjack::strategy::Chart::load(std::path::Path::new(&p)).unwrap(),
            Err(_) => seed_chart(),
        };
        for peek in [false, true] {
            let mut r = Rules::seed();
            r.peek = peek;
            if std::env::var("NOSPLIT").is_ok() {
                r.max_hands = 1;
            }
            let t = DealerTable::new(false);
            let res = analyze(&r, &Follow(&chart), &t);
            eprintln!("peek {peek}: chart exact {:.6}% by up {:?} freq {:?}", res.ev * 100.0, res.ev_by_up.map(|x| (x * 1e4).round() / 1e2), res.frequencies);
            let res = analyze(&r, &Optimal, &t);
            eprintln!("peek {peek}: optimal exact {:.6}%", res.ev * 100.0);
        }
    }
}
