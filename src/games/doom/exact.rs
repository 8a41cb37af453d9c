//! Exact turn analysis: dynamic programming over (points set aside in earlier cycles, hold)
//! for the optimal expected-score policy and for any threshold policy.
//!
//! The turn points of a state are `P + points(hold)`. A set-aside either holds more dice in
//! the same cycle (same `P`; it may add no points, e.g. a fourth 5 to three held 5s when the
//! extras of a kind score nothing) or ends the cycle with hot dice, which adds the cycle's
//! points (positive) to `P`; so states with more `P`, or the same `P` and more dice held, are
//! solved first and the recursion is a single backward pass. States beyond a cap of
//! `CAP_POINTS` turn points are valued as banked (reaching them has probability far below
//! the printed precision; the report states the cap).
//!
//! A run of `k` farkles in a row costing banked points (Zilch) couples turns: the best policy
//! then maximizes the long-run average score per turn, with relative values by the number of
//! farkles in a row (M. Busche's formulation), found by a secant iteration on the average.

use super::model::{Model, Opt};

/// States up to this many turn points are solved exactly.
pub const CAP_POINTS: u32 = 40_000;

/// When to bank.
#[derive(Clone, Debug, PartialEq)]
pub enum BankRule {
    /// Bank exactly when it is worth more than rolling on.
    Optimal,
    /// Bank as soon as the turn points reach `t[n]` with `n` dice to roll next (1..=6).
    Thresholds([u32; 7]),
}

/// Which set-aside to choose after a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The one with the highest expected value given the banking rule (exact lookahead).
    Best,
    /// Set aside as many scoring dice as possible (ties: the best).
    Most,
    /// Set aside as few dice as possible, keeping the most dice to roll (ties: the best).
    Fewest,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub bank: BankRule,
    pub keep: Keep,
}

impl Policy {
    pub const OPTIMAL: Policy = Policy {
        bank: BankRule::Optimal,
        keep: Keep::Best,
    };
    pub fn bank_at(t: u32) -> Policy {
        Policy {
            bank: BankRule::Thresholds([t; 7]),
            keep: Keep::Best,
        }
    }
}

/// Values of one policy for one farkle value. Index `p * holds + h`, `p` in point units.
#[derive(Clone, Debug)]
pub struct ValueTable {
    pub levels: usize,
    pub holds: usize,
    /// Value of the state when the player may bank (bank or roll per the policy).
    pub v: Vec<f64>,
    /// Value of rolling from the state.
    pub r: Vec<f64>,
}

impl ValueTable {
    /// Value of taking set-aside `o` from level `p` (beyond the cap: banked).
    #[inline]
    pub fn after(&self, m: &Model, p: usize, o: &Opt) -> f64 {
        let p2 = p + o.gain as usize;
        if p2 >= self.levels {
            return ((p2 as u32 + m.holds[o.to as usize].pts) * m.unit) as f64;
        }
        let i = p2 * self.holds + o.to as usize;
        if o.hot && m.rules.hot_dice_forced() {
            self.r[i]
        } else {
            self.v[i]
        }
    }

    /// The set-aside the policy's keep rule picks.
    ///
    /// Among set-asides alike under the rule, the one that scores the most points (then the
    /// larger hold, then hot dice rolled: `Opt::tie_key`), as the win tables' play does.
    pub fn choose(&self, m: &Model, keep: Keep, p: usize, opts: &[Opt]) -> Option<usize> {
        let forced = m.rules.hot_dice_forced();
        let mut best: Option<(usize, (i32, f64))> = None;
        for (i, o) in opts.iter().enumerate() {
            let w = self.after(m, p, o);
            let key = match keep {
                Keep::Best => (0, w),
                Keep::Most => (o.dice as i32, w),
                Keep::Fewest => (-(o.dice as i32), w),
            };
            let better = |(j, b): (usize, (i32, f64))| {
                key > b || (key == b && o.tie_key(forced) > opts[j].tie_key(forced))
            };
            if best.is_none_or(better) {
                best = Some((i, key));
            }
        }
        best.map(|b| b.0)
    }

    /// Whether the policy banks in state (p, h) (false where banking is not allowed).
    pub fn banks(&self, m: &Model, pol: &Policy, p: usize, h: usize) -> bool {
        if p >= self.levels {
            return true;
        }
        let tp = (p as u32 + m.holds[h].pts) * m.unit;
        let n = 6 - m.holds[h].dice as usize;
        if tp < m.rules.min_bank.max(1) {
            return false;
        }
        match &pol.bank {
            BankRule::Optimal => tp as f64 >= self.r[p * self.holds + h],
            BankRule::Thresholds(t) => tp >= t[n],
        }
    }
}

/// Solve one policy with fixed values for a farkle and for doom.
pub fn solve(m: &Model, pol: &Policy, farkle: f64, doom: f64) -> ValueTable {
    let levels = (CAP_POINTS / m.unit) as usize + 1;
    let nh = m.holds.len();
    let mut t = ValueTable {
        levels,
        holds: nh,
        v: vec![0.0; levels * nh],
        r: vec![0.0; levels * nh],
    };
    let mut order: Vec<usize> = (0..nh).collect();
    order.sort_by_key(|&h| std::cmp::Reverse(m.holds[h].dice));
    for p in (0..levels).rev() {
        for &h in &order {
            let n = 6 - m.holds[h].dice as usize;
            let mut r = 0.0;
            for (roll, opts) in m.rolls[n].iter().zip(&m.opts[h]) {
                let val = if roll.doom {
                    doom
                } else if opts.is_empty() {
                    farkle
                } else {
                    let i = t.choose(m, pol.keep, p, opts).unwrap_or(0);
                    t.after(m, p, &opts[i])
                };
                r += roll.p * val;
            }
            let i = p * nh + h;
            t.r[i] = r;
            let tp = ((p as u32 + m.holds[h].pts) * m.unit) as f64;
            t.v[i] = if t.banks(m, pol, p, h) {
                match pol.bank {
                    BankRule::Optimal => tp.max(r),
                    BankRule::Thresholds(_) => tp,
                }
            } else {
                r
            };
        }
    }
    t
}

/// A solved policy: one table per number of farkles in a row (one table without a penalty).
#[derive(Clone, Debug)]
pub struct Solution {
    pub policy: Policy,
    pub tables: Vec<ValueTable>,
    /// Expected points per turn (the long-run average per turn with a farkle penalty).
    pub turn_ev: f64,
    /// Relative values by farkles in a row (all 0 without a penalty).
    pub relative: Vec<f64>,
}

/// Solve a policy for the rules of `m`.
pub fn solve_policy(m: &Model, pol: &Policy) -> Solution {
    let Some((k, pen)) = m.rules.farkle_penalty else {
        let t = solve(m, pol, 0.0, 0.0);
        let ev = t.r[0];
        return Solution {
            policy: pol.clone(),
            tables: vec![t],
            turn_ev: ev,
            relative: vec![0.0],
        };
    };
    // Average reward: g + h(z) = T_z(farkle value), h(0) = 0, where a farkle moves z → z+1
    // and the k-th in a row costs `pen` and resets z (farkle value h(z+1), or h(0) − pen for
    // the last). Doom counts as a farkle. The last equation is fixed: g + h(k−1) =
    // T_{k−1}(−pen); given g, the others give h(k−2), ..., h(1) backwards and the first must
    // hold: φ(g) = T_0(h(1)) − g = 0. φ is decreasing in g (each T has slope < 1 in its
    // farkle value), so a secant iteration on g converges in a few steps.
    let k = k as usize;
    let pen = pen as f64;
    let last = solve(m, pol, -pen, -pen);
    let eval = |g: f64| -> (f64, Vec<f64>, Vec<ValueTable>) {
        let mut h = vec![0.0; k];
        let mut tables: Vec<Option<ValueTable>> = vec![None; k];
        if k == 1 {
            let v = last.r[0];
            tables[0] = Some(last.clone());
            return (v - g, h, tables.into_iter().flatten().collect());
        }
        h[k - 1] = last.r[0] - g;
        tables[k - 1] = Some(last.clone());
        for z in (1..k - 1).rev() {
            let t = solve(m, pol, h[z + 1], h[z + 1]);
            h[z] = t.r[0] - g;
            tables[z] = Some(t);
        }
        let t0 = solve(m, pol, h[1], h[1]);
        let phi = t0.r[0] - g;
        tables[0] = Some(t0);
        (phi, h, tables.into_iter().flatten().collect())
    };
    let mut g0 = solve(m, pol, 0.0, 0.0).r[0];
    let (mut f0, mut h, mut tables) = eval(g0);
    let mut g1 = g0 + f0;
    let mut g = g0;
    for _ in 0..100 {
        let (f1, h1, t1) = eval(g1);
        g = g1;
        h = h1;
        tables = t1;
        if f1.abs() < 1e-10 || f1 == f0 {
            break;
        }
        let next = g1 - f1 * (g1 - g0) / (f1 - f0);
        (g0, f0, g1) = (g1, f1, next);
    }
    Solution {
        policy: pol.clone(),
        tables,
        turn_ev: g,
        relative: h,
    }
}

/// The exact distribution of one turn's banked points under a solved policy (rules without a
/// farkle penalty, where one table is the policy).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnDistribution {
    /// P(banked points), by points, farkles and dooms (0 points) excluded.
    pub banked: std::collections::BTreeMap<u32, f64>,
    pub p_farkle: f64,
    pub p_doom: f64,
    /// Probability of turns that passed the `CAP_POINTS` cap (valued as banked there).
    pub p_capped: f64,
}

impl TurnDistribution {
    /// P(points) with farkles and dooms at 0, ascending.
    pub fn points(&self) -> Vec<(u32, f64)> {
        let zero = self.p_farkle + self.p_doom + self.banked.get(&0).copied().unwrap_or(0.0);
        std::iter::once((0, zero))
            .chain(
                self.banked
                    .iter()
                    .filter(|(&k, _)| k > 0)
                    .map(|(&k, &p)| (k, p)),
            )
            .collect()
    }
}

/// Follow the probability of every state of one turn forwards under the policy of `sol`
/// (its first table): from six dice and no points, each roll's outcome, the policy's
/// set-aside, then bank or roll on as it says. States are met in the order the backward
/// solution leaves them (more points, or as many with more dice held, come later), so one
/// pass gives every terminal probability.
pub fn turn_distribution(m: &Model, sol: &Solution) -> TurnDistribution {
    let t = &sol.tables[0];
    let pol = &sol.policy;
    let nh = m.holds.len();
    let mut dec = vec![0.0; t.levels * nh];
    let mut roll = vec![0.0; t.levels * nh];
    roll[0] = 1.0;
    let mut order: Vec<usize> = (0..nh).collect();
    order.sort_by_key(|&h| m.holds[h].dice);
    let mut d = TurnDistribution {
        banked: std::collections::BTreeMap::new(),
        p_farkle: 0.0,
        p_doom: 0.0,
        p_capped: 0.0,
    };
    for p in 0..t.levels {
        for &h in &order {
            let i = p * nh + h;
            if dec[i] > 0.0 {
                if t.banks(m, pol, p, h) {
                    let tp = (p as u32 + m.holds[h].pts) * m.unit;
                    *d.banked.entry(tp).or_default() += dec[i];
                } else {
                    roll[i] += dec[i];
                }
            }
            if roll[i] == 0.0 {
                continue;
            }
            let n = 6 - m.holds[h].dice as usize;
            for (r, opts) in m.rolls[n].iter().zip(&m.opts[h]) {
                let q = roll[i] * r.p;
                if r.doom {
                    d.p_doom += q;
                } else if opts.is_empty() {
                    d.p_farkle += q;
                } else {
                    let o = &opts[t.choose(m, pol.keep, p, opts).unwrap_or(0)];
                    let p2 = p + o.gain as usize;
                    let j = p2 * nh + o.to as usize;
                    if p2 >= t.levels {
                        let tp = (p2 as u32 + m.holds[o.to as usize].pts) * m.unit;
                        *d.banked.entry(tp).or_default() += q;
                        d.p_capped += q;
                    } else if o.hot && m.rules.hot_dice_forced() {
                        roll[j] += q;
                    } else {
                        dec[j] += q;
                    }
                }
            }
        }
    }
    d
}

impl Solution {
    /// V(turn points, dice left) for separate scoring (the published form); `None` when the
    /// state does not exist for these rules or lies beyond the cap.
    pub fn value(&self, m: &Model, points: u32, dice_left: u8) -> Option<f64> {
        if m.rules.held_dice != super::rules::HeldDice::Separate
            || !points.is_multiple_of(m.unit)
            || !(1..=6).contains(&dice_left)
        {
            return None;
        }
        let t = &self.tables[0];
        let p = (points / m.unit) as usize;
        if p >= t.levels {
            return None;
        }
        let h = (6 - dice_left as usize) % 6;
        if points == 0 && dice_left == 6 {
            return Some(t.r[0]);
        }
        Some(t.v[p * t.holds + h])
    }

    /// For each number of dice to roll (1..=6): the lowest turn points at which the policy
    /// banks and the highest at which it rolls on where banking is allowed (states up to a
    /// quarter of the cap). A clean threshold has `roll_max < bank_min`.
    pub fn bank_thresholds(&self, m: &Model) -> Vec<(u8, Option<u32>, Option<u32>)> {
        let t = &self.tables[0];
        let mut out = Vec::new();
        for n in 1..=6u8 {
            let (mut bank_min, mut roll_max) = (None::<u32>, None::<u32>);
            for (h, hold) in m.holds.iter().enumerate() {
                if 6 - hold.dice != n {
                    continue;
                }
                for p in 0..t.levels / 4 {
                    if n == 6 && p == 0 {
                        continue; // the turn's first roll: nothing to bank
                    }
                    if n == 6 && m.rules.hot_dice_forced() {
                        continue;
                    }
                    let tp = (p as u32 + hold.pts) * m.unit;
                    if tp < m.rules.min_bank.max(1) {
                        continue;
                    }
                    if t.banks(m, &self.policy, p, h) {
                        bank_min = Some(bank_min.map_or(tp, |b| b.min(tp)));
                    } else {
                        roll_max = Some(roll_max.map_or(tp, |b| b.max(tp)));
                    }
                }
            }
            out.push((n, bank_min, roll_max));
        }
        out
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_turn_distribution_sums_to_one_and_its_mean_is_the_turn_ev() {
        for preset in [DoomPreset::Seed, DoomPreset::S2Common] {
            let m = Model::new(&DoomRules::preset(preset));
            for pol in [Policy::OPTIMAL, Policy::bank_at(300), Policy::bank_at(1000)] {
                let sol = solve_policy(&m, &pol);
                let d = turn_distribution(&m, &sol);
                let pts = d.points();
                let total: f64 = pts.iter().map(|x| x.1).sum();
                assert!((total - 1.0).abs() < 1e-12, "{preset:?} {pol:?}: {total}");
                let mean: f64 = pts.iter().map(|x| x.0 as f64 * x.1).sum();
                assert!(
                    (mean - sol.turn_ev).abs() < 1e-9,
                    "{preset:?} {pol:?}: {mean} vs {}",
                    sol.turn_ev
                );
                // A threshold policy banks nothing below its threshold.
                if let BankRule::Thresholds(t) = pol.bank {
                    assert!(d.banked.keys().all(|&k| k >= t[6].min(t[1])));
                }
                assert!(d.p_capped < 1e-12);
            }
        }
        // With no doom, a turn either banks or farkles.
        let mut r = DoomRules::preset(DoomPreset::S2Common);
        r.doom_sixes = None;
        let m = Model::new(&r);
        let d = turn_distribution(&m, &solve_policy(&m, &Policy::bank_at(350)));
        assert_eq!(d.p_doom, 0.0);
        // The chance of farkling the first roll of six dice is a lower bound.
        assert!(d.p_farkle > m.bust_odds(6).0);
    }

    use super::super::rules::{DoomPreset, DoomRules};
    use super::*;

    fn round3(x: f64) -> f64 {
        (x * 1000.0).round() / 1000.0
    }

    #[test]
    fn s2_common_reproduces_the_published_table() {
        let m = Model::new(&DoomRules::preset(DoomPreset::S2Common));
        let s = solve_policy(&m, &Policy::OPTIMAL);
        let v = |p, n| round3(s.value(&m, p, n).unwrap());
        assert_eq!(round3(s.turn_ev), 548.858);
        assert_eq!(v(0, 6), 548.858);
        assert_eq!(v(50, 5), 363.834);
        assert_eq!(v(100, 5), 399.911);
        assert_eq!(v(150, 4), 307.673);
        assert_eq!(v(200, 3), 257.584);
        assert_eq!((s.value(&m, 250, 3).unwrap() * 10.0).round() / 10.0, 293.4);
    }

    #[test]
    fn zilch_reproduces_busche() {
        let m = Model::new(&DoomRules::preset(DoomPreset::Zilch));
        let s = solve_policy(&m, &Policy::OPTIMAL);
        assert_eq!(round3(s.turn_ev), 620.855, "got {}", s.turn_ev);
        // More conservative play after each zilch: the relative values fall.
        assert!(s.relative[0] > s.relative[1] && s.relative[1] > s.relative[2]);
    }

    #[test]
    fn combining_held_dice_is_worth_at_least_separate_scoring() {
        // Every separate set-aside is also legal when combining. It need not score as much
        // (a held 5 and three rolled 5s: 500 combined, 50 + 500 separately, since the extras
        // of a kind score nothing), but combining still wins on the whole turn.
        let comb = DoomRules::preset(DoomPreset::Seed);
        let mut sep = comb.clone();
        sep.held_dice = super::super::rules::HeldDice::Separate;
        let (mc, ms) = (Model::new(&comb), Model::new(&sep));
        let (c, s) = (
            solve_policy(&mc, &Policy::OPTIMAL).turn_ev,
            solve_policy(&ms, &Policy::OPTIMAL).turn_ev,
        );
        assert!(c > s && s > 0.0, "combine {c} separate {s}");
        // A threshold policy can never beat the optimal one.
        for t in [100, 300, 1000] {
            let b = solve_policy(&mc, &Policy::bank_at(t)).turn_ev;
            assert!(b <= c + 1e-9 && b > 0.0, "bank-at {t}: {b} vs {c}");
        }
    }

    #[test]
    fn seed_turn_ev_under_each_kind_extras_reading() {
        // Extras of a kind add nothing (the seed): 555.583; as single 1s and 5s (the reading
        // used before): 561.470, the figure published then.
        let kind = DoomRules::preset(DoomPreset::Seed);
        let mut singles = kind.clone();
        singles.kind_extras = super::super::rules::KindExtras::Singles;
        let ev = |r: &DoomRules| round3(solve_policy(&Model::new(r), &Policy::OPTIMAL).turn_ev);
        assert_eq!(ev(&kind), 555.583);
        assert_eq!(ev(&singles), 561.470);
    }

    #[test]
    fn a_set_aside_is_valued_banked_beyond_the_cap_and_rolled_on_when_hot_dice_are_forced() {
        for preset in [DoomPreset::Seed, DoomPreset::S2Common] {
            let m = Model::new(&DoomRules::preset(preset));
            let forced = m.rules.hot_dice_forced();
            let t = solve(&m, &Policy::OPTIMAL, 0.0, 0.0);
            let (mut beyond, mut rolled_on, mut differ) = (0, 0, 0);
            // From beyond the cap too: a simulated turn goes on there after forced hot dice.
            let (l, mut held) = (t.levels, 0);
            for p in [0, 1, 7, l / 2, l - 2, l - 1, l, l + 3] {
                for o in m.opts.iter().flatten().flatten() {
                    let p2 = p + o.gain as usize;
                    let want = if p2 >= t.levels {
                        beyond += 1;
                        held += (m.holds[o.to as usize].pts > 0) as u32;
                        ((p2 as u32 + m.holds[o.to as usize].pts) * m.unit) as f64
                    } else {
                        let i = p2 * t.holds + o.to as usize;
                        differ += (t.r[i] != t.v[i]) as u32;
                        if o.hot && forced {
                            rolled_on += 1;
                            t.r[i]
                        } else {
                            t.v[i]
                        }
                    };
                    assert_eq!(t.after(&m, p, o), want, "{preset:?} p {p} {o:?}");
                }
            }
            assert!(beyond > 0 && differ > 0 && (rolled_on > 0) == forced);
            assert_eq!(
                held > 0,
                forced,
                "{preset:?}: set-asides to holds with points"
            );
        }
    }

    #[test]
    fn choose_follows_the_keep_rule_and_keeps_the_first_of_equals() {
        let m = Model::new(&DoomRules::preset(DoomPreset::S2Common));
        let t = solve(&m, &Policy::OPTIMAL, 0.0, 0.0);
        let p = 4;
        assert_eq!(t.choose(&m, Keep::Best, p, &[]), None);
        // Every state and roll with set-asides of several sizes.
        let mut checked = 0;
        for opts in m.opts.iter().flatten().filter(|o| o.len() > 1) {
            let w: Vec<f64> = opts.iter().map(|o| t.after(&m, p, o)).collect();
            let argmax = |ok: &dyn Fn(&Opt) -> bool| {
                let mut best: Option<usize> = None;
                for i in (0..opts.len()).filter(|&i| ok(&opts[i])) {
                    if best.is_none_or(|b| w[i] > w[b]) {
                        best = Some(i);
                    }
                }
                best
            };
            let most = opts.iter().map(|o| o.dice).max().unwrap();
            let fewest = opts.iter().map(|o| o.dice).min().unwrap();
            assert_eq!(t.choose(&m, Keep::Best, p, opts), argmax(&|_| true));
            assert_eq!(
                t.choose(&m, Keep::Most, p, opts),
                argmax(&|o| o.dice == most)
            );
            assert_eq!(
                t.choose(&m, Keep::Fewest, p, opts),
                argmax(&|o| o.dice == fewest)
            );
            checked += (most != fewest) as u32;
        }
        assert!(checked > 10);
        // Equal keys: the first wins.
        let o = m.opts[0].iter().flatten().next().copied().unwrap();
        for keep in [Keep::Best, Keep::Most, Keep::Fewest] {
            assert_eq!(t.choose(&m, keep, p, &[o, o, o]), Some(0));
        }
    }

    #[test]
    fn bank_thresholds_of_threshold_policies() {
        // Separate scoring (turn points = P): every multiple of 50 is a state for each number
        // of dice, so the thresholds are exactly the policy's, cut by the minimum to bank.
        let mut r = DoomRules::preset(DoomPreset::S2Common);
        r.min_bank = 1100;
        let m = Model::new(&r);
        let pol = Policy {
            bank: BankRule::Thresholds([0, 1000, 1100, 1200, 1300, 1400, 1500]),
            keep: Keep::Best,
        };
        let s = solve_policy(&m, &pol);
        assert_eq!(
            s.bank_thresholds(&m),
            vec![
                (1, Some(1100), None),
                (2, Some(1100), None),
                (3, Some(1200), Some(1150)),
                (4, Some(1300), Some(1250)),
                (5, Some(1400), Some(1350)),
                (6, Some(1500), Some(1450)),
            ]
        );
        let t = &s.tables[0];
        assert!(t.banks(&m, &pol, t.levels, 0), "beyond the cap");
        assert!(
            !t.banks(&m, &pol, 21, 5) && t.banks(&m, &pol, 22, 5),
            "1 die: 1100"
        );
        // Banking at a state never rolls; rolling values the state as its roll.
        assert_eq!(t.v[22 * t.holds + 5], 1100.0);
        assert_eq!(t.v[21 * t.holds + 5], t.r[21 * t.holds + 5]);
        // Forced hot dice: six dice to roll is never a banking state.
        let m = Model::new(&DoomRules::preset(DoomPreset::Seed));
        let s = solve_policy(&m, &Policy::bank_at(1000));
        let th = s.bank_thresholds(&m);
        assert_eq!(th[5], (6, None, None));
        // Banking at any points: the lowest is a hold's own points with nothing before (P = 0).
        let any = solve_policy(&m, &Policy::bank_at(1)).bank_thresholds(&m);
        for &(n, bank, _) in &any[..5] {
            let h = m.holds.iter().filter(|h| 6 - h.dice == n);
            assert_eq!(bank, h.map(|h| h.pts * m.unit).min(), "{n} dice");
        }
        for &(n, bank, roll) in &th[..5] {
            assert_eq!((bank, roll), (Some(1000), Some(950)), "{n} dice");
        }
    }

    #[test]
    fn the_optimal_s2_policy_banks_above_a_clean_threshold() {
        // Clean thresholds (rolls below, banks from); with six dice to roll it always rolls
        // up to a quarter of the cap (10,000 points).
        let m = Model::new(&DoomRules::preset(DoomPreset::S2Common));
        let s = solve_policy(&m, &Policy::OPTIMAL);
        assert_eq!(
            s.bank_thresholds(&m),
            vec![
                (1, Some(300), Some(250)),
                (2, Some(250), Some(200)),
                (3, Some(450), Some(400)),
                (4, Some(1050), Some(1000)),
                (5, Some(3050), Some(3000)),
                (6, None, Some(9950)),
            ]
        );
    }

    #[test]
    fn value_is_none_outside_the_states() {
        let m = Model::new(&DoomRules::preset(DoomPreset::S2Common));
        let s = solve_policy(&m, &Policy::OPTIMAL);
        let levels = s.tables[0].levels as u32;
        assert_eq!(s.value(&m, 0, 6), Some(s.turn_ev));
        assert_eq!(s.value(&m, 25, 3), None, "not a multiple of the unit");
        assert_eq!(s.value(&m, 100, 0), None);
        assert_eq!(s.value(&m, 100, 7), None);
        assert_eq!(
            s.value(&m, (levels - 1) * 50, 2),
            Some(((levels - 1) * 50) as f64)
        );
        assert_eq!(s.value(&m, levels * 50, 2), None, "beyond the cap");
        assert_eq!(s.value(&m, CAP_POINTS, 2), Some(CAP_POINTS as f64));
        assert_eq!(s.value(&m, CAP_POINTS + 50, 2), None);
        // Six dice to roll with points (hot dice): the state with no dice held.
        assert_eq!(
            s.value(&m, 500, 6),
            Some(s.tables[0].v[10 * s.tables[0].holds])
        );
        // One die from nothing (the report's first row): a 1 or a 5 gives hot dice with 100
        // or 50 points, anything else farkles.
        let v = |p, n| s.value(&m, p, n).unwrap();
        assert!(
            (v(0, 1) - (v(100, 6) + v(50, 6)) / 6.0).abs() < 1e-9,
            "{}",
            v(0, 1)
        );
        let comb = Model::new(&DoomRules::preset(DoomPreset::Seed));
        let sc = solve_policy(&comb, &Policy::OPTIMAL);
        assert_eq!(sc.value(&comb, 0, 6), None, "only for separate scoring");
    }

    /// The average-reward equations of a farkle penalty: g + h(z) = T_z(h(z+1)) with h(0) = 0,
    /// the k-th farkle costing `pen` (T_{k-1}(-pen)). The seed rules have doom, which counts
    /// as a farkle.
    fn check_penalty_equations(k: u8, pen: u32) -> Solution {
        let mut r = DoomRules::preset(DoomPreset::Seed);
        assert!(r.doom_sixes.is_some());
        r.farkle_penalty = Some((k, pen));
        let m = Model::new(&r);
        let s = solve_policy(&m, &Policy::OPTIMAL);
        let (k, g, h) = (k as usize, s.turn_ev, &s.relative);
        assert_eq!((h.len(), s.tables.len(), h[0]), (k, k, 0.0));
        for z in 0..k {
            let f = if z + 1 < k { h[z + 1] } else { -(pen as f64) };
            let t = solve(&m, &Policy::OPTIMAL, f, f);
            assert!(
                (g + h[z] - t.r[0]).abs() < 1e-7,
                "k {k} z {z}: {g} + {}",
                h[z]
            );
            assert_eq!(s.tables[z].r, t.r, "k {k} z {z}");
        }
        s
    }

    #[test]
    fn farkle_penalties_solve_the_average_reward_equations() {
        let free = solve_policy(
            &Model::new(&DoomRules::preset(DoomPreset::Seed)),
            &Policy::OPTIMAL,
        );
        let one = check_penalty_equations(1, 500);
        let two = check_penalty_equations(2, 500);
        let three = check_penalty_equations(3, 500);
        // A penalty costs; the rarer it is, the less.
        assert!(one.turn_ev < two.turn_ev && two.turn_ev < three.turn_ev);
        assert!(three.turn_ev < free.turn_ev);
        assert!(two.relative[1] < 0.0 && three.relative[2] < three.relative[1]);
    }

    #[test]
    fn one_die_left_is_a_closed_form_under_separate_scoring() {
        // S2 rules, 1 die left at t points, banking at every later state: rolling gives
        // (t + 100)/6 + (t + 50)/6 = (2t + 150)/6, which beats banking only for t < 37.5.
        let m = Model::new(&DoomRules::preset(DoomPreset::S2Common));
        let s = solve_policy(&m, &Policy::bank_at(1));
        let t = 1000.0;
        let v = s.value(&m, 1000, 1).unwrap();
        assert_eq!(v, t);
        let r = s.tables[0].r[(1000 / 50) * 6 + 5];
        assert!((r - (2.0 * t + 150.0) / 6.0).abs() < 1e-9, "{r}");
    }
}
