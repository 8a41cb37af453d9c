//! Scoring: the best partition of a multiset of dice into combinations, precomputed once per
//! rule set for every multiset of up to six dice.

use super::rules::{DoomRules, KindExtras, NOfKind};

/// A multiset of dice: `c[f - 1]` dice show face `f`.
pub type FaceCounts = [u8; 6];

/// Number of keys of the base-7 multiset code (counts 0..=6 per face).
pub const KEYS: usize = 117_649;

/// The base-7 code of a multiset.
#[inline(always)]
pub fn key(c: &FaceCounts) -> usize {
    let mut k = 0usize;
    for &n in c.iter().rev() {
        k = k * 7 + n as usize;
    }
    k
}

pub fn size(c: &FaceCounts) -> u8 {
    c.iter().sum()
}

pub fn add(a: &FaceCounts, b: &FaceCounts) -> FaceCounts {
    let mut r = *a;
    for i in 0..6 {
        r[i] += b[i];
    }
    r
}

/// Every multiset of exactly `n` dice, in a fixed order, with its probability of being rolled.
pub fn rolls(n: u8) -> Vec<(FaceCounts, f64)> {
    let mut out = Vec::new();
    let mut c = [0u8; 6];
    fn rec(face: usize, left: u8, c: &mut FaceCounts, out: &mut Vec<FaceCounts>) {
        if face == 5 {
            c[5] = left;
            out.push(*c);
            return;
        }
        for k in (0..=left).rev() {
            c[face] = k;
            rec(face + 1, left - k, c, out);
        }
        c[face] = 0;
    }
    let mut all = Vec::new();
    rec(0, n, &mut c, &mut all);
    let total = 6f64.powi(n as i32);
    for m in all {
        out.push((m, multinomial(&m) as f64 / total));
    }
    out
}

/// Number of ordered rolls giving the multiset.
pub fn multinomial(c: &FaceCounts) -> u64 {
    let fact = |n: u8| (1..=n as u64).product::<u64>();
    fact(size(c)) / c.iter().map(|&k| fact(k)).product::<u64>()
}

/// Every non-empty sub-multiset of `c`.
pub fn submultisets(c: &FaceCounts) -> Vec<FaceCounts> {
    let mut out = vec![[0u8; 6]];
    for f in 0..6 {
        let mut next = Vec::with_capacity(out.len() * (c[f] as usize + 1));
        for s in &out {
            for k in 0..=c[f] {
                let mut t = *s;
                t[f] = k;
                next.push(t);
            }
        }
        out = next;
    }
    out.retain(|s| size(s) > 0);
    out
}

/// The scoring table of one rule set.
pub struct Scorer {
    /// `full[key]`: best score using every die of the multiset, or −1 if some die cannot score.
    full: Vec<i32>,
}

impl Scorer {
    pub fn new(r: &DoomRules) -> Scorer {
        let mut full = vec![-1i32; KEYS];
        // Multisets in order of size, so every proper part is known before the whole.
        for n in 0..=6u8 {
            for (c, _) in rolls(n) {
                let v = if n == 0 {
                    0
                } else {
                    let mut best = -1i32;
                    for (part, value) in combinations(r, &c) {
                        let mut rest = c;
                        for i in 0..6 {
                            rest[i] -= part[i];
                        }
                        let rv = full[key(&rest)];
                        if rv >= 0 {
                            best = best.max(rv + value as i32);
                        }
                    }
                    best
                };
                full[key(&c)] = v;
            }
        }
        Scorer { full }
    }

    /// The best score of the multiset when every die must be part of a combination.
    #[inline(always)]
    pub fn full(&self, c: &FaceCounts) -> Option<u32> {
        let v = self.full[key(c)];
        (v >= 0).then_some(v as u32)
    }

    /// Whether any die of the roll scores (some non-empty part scores on its own).
    pub fn any_scoring(&self, c: &FaceCounts) -> bool {
        submultisets(c).iter().any(|s| self.full(s).is_some())
    }
}

/// The combinations (as multisets, with their values) that fit inside `c`.
fn combinations(r: &DoomRules, c: &FaceCounts) -> Vec<(FaceCounts, u32)> {
    let mut out = Vec::new();
    let singles = |m: &FaceCounts| m[0] as u32 * r.single_one + m[4] as u32 * r.single_five;
    // With `KindExtras::Kind`, three or more dice of a face are one n-of-a-kind of all of them:
    // no single 1 or 5 is offered beside it and no smaller kind of that face. The rest of the
    // partition never changes a face's count except through combinations that cannot hold
    // three of a face (a five-dice straight) or that take every die (three pairs, two
    // triplets), so this is the same as "never a triple plus singles of its face".
    let extras_single = r.kind_extras == KindExtras::Singles;
    if c[0] >= 1 && (extras_single || c[0] < 3) {
        out.push(([1, 0, 0, 0, 0, 0], r.single_one));
    }
    if c[4] >= 1 && (extras_single || c[4] < 3) {
        out.push(([0, 0, 0, 0, 1, 0], r.single_five));
    }
    for f in 0..6 {
        let base = if f == 0 {
            r.three_ones
        } else {
            (f as u32 + 1) * r.kind_unit
        };
        // At most one n-of-a-kind per face: the rest of that face may not form another one
        // (six 6s are one six-of-a-kind, not two triples); with `Kind` extras the kind takes
        // every die of its face.
        for n in 3..=c[f] {
            if c[f] - n >= 3 || (!extras_single && n < c[f]) {
                continue;
            }
            let mult = match r.n_of_kind {
                NOfKind::Flat => 1,
                NOfKind::Linear => n as u32 - 2,
                NOfKind::Doubling => 1 << (n - 3),
            };
            let mut m = [0u8; 6];
            m[f] = n;
            out.push((m, base * mult));
        }
    }
    if let Some(v) = r.straight5 {
        for m in [[1, 1, 1, 1, 1, 0], [0, 1, 1, 1, 1, 1]] {
            if (0..6).all(|i| c[i] >= m[i]) {
                let add = if r.specials_add_singles {
                    singles(&m)
                } else {
                    0
                };
                out.push((m, v + add));
            }
        }
    }
    if let Some(v) = r.straight6 {
        if c.iter().all(|&k| k >= 1) {
            out.push(([1; 6], v));
        }
    }
    if size(c) == 6 {
        let add = if r.specials_add_singles {
            singles(c)
        } else {
            0
        };
        let mut shape: Vec<u8> = c.iter().copied().filter(|&k| k > 0).collect();
        shape.sort_unstable();
        if let Some(v) = r.three_pairs {
            if shape == [2, 2, 2] || (r.four_and_pair_is_three_pairs && shape == [2, 4]) {
                out.push((*c, v + add));
            }
        }
        if let Some(v) = r.two_triplets {
            if shape == [3, 3] {
                out.push((*c, v + add));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::rules::{DoomPreset, DoomRules, KindExtras};
    use super::*;

    fn counts(dice: &[u8]) -> FaceCounts {
        let mut c = [0u8; 6];
        for &d in dice {
            c[d as usize - 1] += 1;
        }
        c
    }

    fn seed() -> Scorer {
        Scorer::new(&DoomRules::preset(DoomPreset::Seed))
    }

    #[test]
    fn rules_md_examples_under_the_seed_rules() {
        let s = seed();
        let f = |d: &[u8]| s.full(&counts(d));
        assert_eq!(f(&[1]), Some(100));
        assert_eq!(f(&[5]), Some(50));
        assert_eq!(f(&[2]), None);
        assert_eq!(f(&[1, 1, 1]), Some(1000));
        assert_eq!(f(&[3, 3, 3]), Some(300));
        // Four or more of a kind score the same as three, all of the dice used: the extras
        // add nothing and are not single 1s or 5s ("een rol van vier vijven is ook 500").
        assert_eq!(f(&[4, 4, 4, 4]), Some(400));
        assert_eq!(f(&[6, 6, 6, 6, 6, 6]), Some(600));
        assert_eq!(f(&[4, 4, 4]), Some(400));
        assert_eq!(f(&[5, 5, 5]), Some(500));
        assert_eq!(f(&[5, 5, 5, 5]), Some(500));
        assert_eq!(f(&[1, 1, 1, 1]), Some(1000));
        assert_eq!(f(&[5, 5, 5, 5, 5]), Some(500));
        assert_eq!(f(&[1, 1, 1, 1, 1, 1]), Some(1000));
        assert_eq!(f(&[5, 5, 5, 5, 5, 5]), Some(500));
        // The best partition still chooses among combinations of different faces.
        assert_eq!(f(&[1, 1, 1, 5]), Some(1050));
        assert_eq!(f(&[1, 1, 5, 5]), Some(300));
        assert_eq!(f(&[1, 1, 1, 1, 5]), Some(1050));
        assert_eq!(f(&[5, 5, 5, 5, 1, 1]), Some(700));
        assert_eq!(f(&[5, 5, 5, 5, 2]), None);
        assert_eq!(f(&[1, 2, 3, 4, 5]), Some(1150));
        assert_eq!(f(&[2, 3, 4, 5, 6]), Some(1050));
        assert_eq!(f(&[1, 2, 3, 4, 5, 6]), Some(2500));
        // Held 1,1 then 3,3,4,4 set aside: three pairs plus the 1s.
        assert_eq!(f(&[1, 1, 3, 3, 4, 4]), Some(1200));
        assert_eq!(f(&[2, 2, 3, 3, 6, 6]), Some(1000));
        // Two triplets: 1000 plus 1s/5s, or the triplets' own value if higher.
        assert_eq!(f(&[2, 2, 2, 3, 3, 3]), Some(1000));
        assert_eq!(f(&[1, 1, 1, 5, 5, 5]), Some(1500));
        assert_eq!(f(&[6, 6, 6, 4, 4, 4]), Some(1000));
        assert_eq!(f(&[1, 1, 1, 6, 6, 6]), Some(1600));
        // Mixed: a triple and singles.
        assert_eq!(f(&[2, 2, 2, 1, 5]), Some(350));
        assert_eq!(f(&[2, 2, 2, 3]), None);
    }

    #[test]
    fn kind_extras_singles_keeps_the_old_partition() {
        // `--kind-extras singles`: a face's extra 1s and 5s may be single 1s and 5s beside its
        // triple (the previous seed behaviour).
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.kind_extras = KindExtras::Singles;
        let s = Scorer::new(&r);
        let f = |d: &[u8]| s.full(&counts(d));
        assert_eq!(f(&[5, 5, 5, 5]), Some(550));
        assert_eq!(f(&[1, 1, 1, 1]), Some(1100));
        assert_eq!(f(&[5, 5, 5, 5, 5]), Some(600));
        assert_eq!(f(&[1, 1, 1, 1, 1, 1]), Some(1300));
        assert_eq!(f(&[1, 1, 1, 1, 5]), Some(1150));
        // Faces without singles are unchanged; combinations of different faces too.
        assert_eq!(f(&[4, 4, 4, 4]), Some(400));
        assert_eq!(f(&[6, 6, 6, 6, 6, 6]), Some(600));
        assert_eq!(f(&[1, 1, 1, 5]), Some(1050));
        assert_eq!(f(&[1, 1, 5, 5]), Some(300));
        // The two settings differ only on multisets with four or more 1s or 5s, where the
        // singles reading scores more, and a multiset scores under both or under neither.
        let k = seed();
        let mut differ = 0;
        for n in 0..=6u8 {
            for (c, _) in rolls(n) {
                let (a, b) = (k.full(&c), s.full(&c));
                assert_eq!(a.is_some(), b.is_some(), "{c:?}");
                if a != b {
                    differ += 1;
                    assert!(c[0] >= 4 || c[4] >= 4, "{c:?}");
                    assert!(b > a, "{c:?}");
                }
            }
        }
        assert!(differ > 0);
    }

    #[test]
    fn six_dice_combinations_are_not_kinds_so_extras_do_not_apply() {
        // Three pairs with four of a kind plus a pair (when that setting is on): the four 1s
        // are two pairs, and the 1s and 5s in three pairs add their value.
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.four_and_pair_is_three_pairs = true;
        let s = Scorer::new(&r);
        assert_eq!(s.full(&counts(&[1, 1, 1, 1, 5, 5])), Some(1500));
        assert_eq!(s.full(&counts(&[3, 3, 3, 3, 2, 2])), Some(1000));
        let seed = seed();
        // Off (the seed): four 3s and a pair of 2s do not all score.
        assert_eq!(seed.full(&counts(&[3, 3, 3, 3, 2, 2])), None);
        // Two triplets have no extras; a straight cannot hold three of a face.
        assert_eq!(seed.full(&counts(&[5, 5, 5, 2, 2, 2])), Some(1150));
        assert_eq!(seed.full(&counts(&[1, 2, 3, 4, 5, 5])), Some(1200));
    }

    #[test]
    fn linear_and_doubling_kinds_score_the_same_with_either_extras_setting() {
        // With linear or doubling kinds an extra die is worth at least a triple's face value,
        // more than a single 1 or 5: the presets' tables do not depend on the setting.
        for p in [DoomPreset::S2Common, DoomPreset::Zilch] {
            let a = DoomRules::preset(p);
            let mut b = a.clone();
            b.kind_extras = KindExtras::Singles;
            let (sa, sb) = (Scorer::new(&a), Scorer::new(&b));
            for n in 0..=6u8 {
                for (c, _) in rolls(n) {
                    assert_eq!(sa.full(&c), sb.full(&c), "{p:?} {c:?}");
                }
            }
        }
    }

    #[test]
    fn kinds_scale_per_preset() {
        let s2 = Scorer::new(&DoomRules::preset(DoomPreset::S2Common));
        assert_eq!(s2.full(&counts(&[4, 4, 4, 4])), Some(800));
        assert_eq!(s2.full(&counts(&[4, 4, 4, 4, 4, 4])), Some(1600));
        assert_eq!(s2.full(&counts(&[1, 1, 1, 1])), Some(2000));
        assert_eq!(s2.full(&counts(&[2, 2, 3, 3, 4, 4])), Some(750));
        assert_eq!(s2.full(&counts(&[1, 2, 3, 4, 5])), None);
        let z = Scorer::new(&DoomRules::preset(DoomPreset::Zilch));
        assert_eq!(z.full(&counts(&[2, 2, 2, 2, 2])), Some(800));
        assert_eq!(z.full(&counts(&[2, 2, 2, 2, 2, 2])), Some(1600));
        assert_eq!(z.full(&counts(&[1, 2, 3, 4, 5, 6])), Some(1500));
    }

    #[test]
    fn exhaustive_counts_over_all_rolls() {
        // P(no scoring die) for n dice, counted over all 6^n ordered rolls, seed rules
        // (straights, three pairs and two triplets only matter at 5–6 dice). With 1–4 dice a
        // roll scores iff it has a 1, a 5 or a triple: 1 die 4/6, 2 dice 16/36, 3 dice
        // (64 − 4 triples)/216 = 60/216, 4 dice 204/1296 (4^4 minus the 4·... with a triple).
        let s = seed();
        let mut zero = [0u64; 7];
        let mut doom = [0u64; 7];
        for n in 1..=6u8 {
            let total = 6u64.pow(n as u32);
            for code in 0..total {
                let mut c = [0u8; 6];
                let mut x = code;
                for _ in 0..n {
                    c[(x % 6) as usize] += 1;
                    x /= 6;
                }
                if !s.any_scoring(&c) {
                    zero[n as usize] += 1;
                }
                if c[5] >= 2 {
                    doom[n as usize] += 1;
                }
            }
        }
        assert_eq!(&zero[1..5], &[4, 16, 60, 204]);
        // 5 dice: 4^5 = 1024 rolls of 2,3,4,6 minus those with a triple (4·C(5,3)·3² +
        // 4·C(5,4)·3 + 4 = 360 + 60 + 4 = 424), minus 2-3-4-6 straights (none) = 600; the
        // 2–6 straight needs a 5. Six dice: 2-3-4-6 only, no triple, no three pairs.
        assert_eq!(zero[5], 600);
        // Six dice over faces {2,3,4,6} with every count ≤ 2 and not three pairs:
        // shapes (2,2,1,1): 6·... counted independently below.
        let mut six = 0u64;
        for code in 0..4u64.pow(6) {
            let mut c = [0u8; 6];
            let mut x = code;
            for _ in 0..6 {
                c[[1, 2, 3, 5][(x % 4) as usize]] += 1;
                x /= 4;
            }
            let mut shape: Vec<u8> = c.iter().copied().filter(|&k| k > 0).collect();
            shape.sort_unstable();
            if c.iter().all(|&k| k <= 2) && shape != [2, 2, 2] {
                six += 1;
            }
        }
        assert_eq!(zero[6], six);
        // Doom (two or more sixes): 6^n − 5^n − n·5^(n−1).
        for n in 1..=6u32 {
            assert_eq!(
                doom[n as usize],
                6u64.pow(n) - 5u64.pow(n) - n as u64 * 5u64.pow(n - 1)
            );
        }
    }

    #[test]
    fn roll_probabilities_sum_to_one() {
        for n in 0..=6 {
            let t: f64 = rolls(n).iter().map(|r| r.1).sum();
            assert!((t - 1.0).abs() < 1e-12);
        }
        assert_eq!(rolls(6).len(), 462);
        assert_eq!(submultisets(&counts(&[1, 1, 2])).len(), 5);
    }
}
