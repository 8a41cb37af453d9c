//! Which turn points a position in a turn can have (`advise doom` refuses the others).
//!
//! A turn's points are those of its completed cycles (each ended by hot dice: all six dice set
//! aside, or the six-dice no-score bonus) plus those the current cycle's held dice have made.
//! Both sets come from the model's own set-asides, followed from nothing held over every roll
//! that is not doom, so each rule set (combined or separate scoring, its doom rule, its bonus,
//! its combinations' values) gives its own: nothing here is a table of the seed rules.

use std::collections::{BTreeMap, BTreeSet};

use super::model::Model;
use super::score::{add, size, FaceCounts};

/// One cycle's set-asides followed from nothing held. `at[H]`: the points (in units) the
/// cycle's set-asides so far have added to the turn's banked-in-turn total when they leave the
/// multiset `H` held (with combined scoring always 0: the held dice's score is the hold's);
/// `hot`: the totals of the cycles that end in hot dice.
struct Cycle {
    at: BTreeMap<FaceCounts, BTreeSet<u32>>,
    hot: BTreeSet<u32>,
}

/// Whether every die of `a` is in `b`.
fn within(a: &FaceCounts, b: &FaceCounts) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// Follows a cycle's legal set-asides over every roll that is not doom, keeping only the held
/// multisets inside `bound` (all of them when `None`).
fn follow(m: &Model, bound: Option<&FaceCounts>) -> Cycle {
    // By the number of dice held, so that each multiset's sums are complete when it is left.
    let mut levels: Vec<BTreeMap<FaceCounts, BTreeSet<u32>>> = vec![BTreeMap::new(); 6];
    levels[0].insert([0; 6], BTreeSet::from([0]));
    let mut hot = BTreeSet::new();
    for n in 0..6 {
        let here = std::mem::take(&mut levels[n]);
        for (held, sums) in &here {
            let Some(h) = m.hold_of(held) else { continue };
            // The distinct set-asides (dice, gain, hot dice) of every roll of the dice left.
            let mut moves = BTreeSet::new();
            for r in m.rolls[6 - n].iter().filter(|r| !r.doom) {
                for (s, o) in m.set_asides(h, &r.counts) {
                    moves.insert((s, o.gain, o.hot));
                }
            }
            for (s, gain, is_hot) in moves {
                if is_hot {
                    hot.extend(sums.iter().map(|v| v + gain));
                    continue;
                }
                let next = add(held, &s);
                if bound.is_some_and(|b| !within(&next, b)) {
                    continue;
                }
                levels[size(&next) as usize]
                    .entry(next)
                    .or_default()
                    .extend(sums.iter().map(|v| v + gain));
            }
        }
        levels[n] = here;
    }
    Cycle {
        at: levels.into_iter().flatten().collect(),
        hot,
    }
}

/// The points (in units) the current cycle can have made with `held` set aside: with
/// combined scoring the held dice's score, with separate scoring the sum of the scores of the
/// set-asides that left them held, for each way the rules allow. Empty: no sequence of
/// set-asides leaves these dice held (e.g. three 6s under a doom rule of two 6s).
pub fn held_points(m: &Model, held: &FaceCounts) -> BTreeSet<u32> {
    let Some(h) = m.hold_of(held) else {
        return BTreeSet::new();
    };
    let pts = m.holds[h].pts;
    follow(m, Some(held))
        .at
        .remove(held)
        .unwrap_or_default()
        .into_iter()
        .map(|v| v + pts)
        .collect()
}

/// The totals (in units) a cycle ended by hot dice can have made.
pub fn cycle_totals(m: &Model) -> BTreeSet<u32> {
    follow(m, None).hot
}

/// `possible[t]`: whether a turn with `held` set aside in its current cycle can have `t` units
/// of turn points, for `t` up to `max`: the points of any number of completed cycles plus the
/// held dice's.
pub fn possible(m: &Model, held: &FaceCounts, max: u32) -> Vec<bool> {
    let max = max as usize;
    // The sums of completed cycles (any number of them, none included).
    let mut done = vec![false; max + 1];
    done[0] = true;
    let totals: Vec<usize> = cycle_totals(m)
        .into_iter()
        .map(|t| t as usize)
        .filter(|&t| t > 0)
        .collect();
    for t in 1..=max {
        done[t] = totals.iter().any(|&c| c <= t && done[t - c]);
    }
    let mut out = vec![false; max + 1];
    for v in held_points(m, held) {
        for t in v as usize..=max {
            out[t] |= done[t - v as usize];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::rules::{DoomPreset, DoomRules, HeldDice};
    use super::*;

    fn model(p: DoomPreset) -> Model {
        Model::new(&DoomRules::preset(p))
    }

    fn points(m: &Model, set: BTreeSet<u32>) -> Vec<u32> {
        set.into_iter().map(|v| v * m.unit).collect()
    }

    /// Turn points (not units) possible with `held`, up to `max` points.
    fn reachable(m: &Model, held: FaceCounts, max: u32) -> Vec<u32> {
        let p = possible(m, &held, max / m.unit);
        (0..=max / m.unit)
            .filter(|&t| p[t as usize])
            .map(|t| t * m.unit)
            .collect()
    }

    #[test]
    fn seed_cycles_score_at_least_six_twos() {
        // Combined scoring: a cycle is worth the score of its six dice. The least is six 2s
        // (one six of a kind, 200, flat), then 2,2,2,2,2,5 (250); a cycle cannot hold two 6s
        // (a roll of two is doom), so six 6s (600) never ends one.
        let m = model(DoomPreset::Seed);
        let c = points(&m, cycle_totals(&m));
        assert_eq!(c[..3], [200, 250, 300], "{c:?}");
        assert_eq!(c.last(), Some(&2500), "{c:?}");
        assert!(c.iter().all(|v| v % 50 == 0));
        // Nothing held: 0 (the first roll), then whole cycles only; 50 to 150 are impossible.
        assert_eq!(reachable(&m, [0; 6], 300), [0, 200, 250, 300]);
        // A held 5: its 50 on top of whole cycles.
        assert_eq!(reachable(&m, [0, 0, 0, 0, 1, 0], 300), [50, 250, 300]);
        assert_eq!(points(&m, held_points(&m, &[0, 0, 0, 0, 1, 0])), [50]);
        // Held dice no roll can set aside: three 6s (a roll of two 6s or more is doom).
        assert!(held_points(&m, &[0, 0, 0, 0, 0, 3]).is_empty());
        assert!(reachable(&m, [0, 0, 0, 0, 0, 3], 2000).is_empty());
    }

    #[test]
    fn separate_scoring_counts_each_set_aside_on_its_own() {
        // S2 common: held 1,1,1 is 1000 set aside at once, or 100 + 100 + 100, or 200 + 100
        // (two 1s then one); a four of a kind is worth twice the three (linear).
        let m = model(DoomPreset::S2Common);
        assert_eq!(
            points(&m, held_points(&m, &[3, 0, 0, 0, 0, 0])),
            [300, 1000]
        );
        assert_eq!(
            points(&m, held_points(&m, &[0, 0, 0, 4, 0, 0])),
            [800],
            "four 4s: only together"
        );
        // Hot dice: six 2s (linear: 4 × 200 = 800), 2,2,2 then 2,2,2 (400); the least is six 5s
        // set aside one at a time (6 × 50), then five of them and a 1.
        let c = points(&m, cycle_totals(&m));
        assert!(c.contains(&400) && c.contains(&800), "{c:?}");
        assert_eq!(c[..2], [300, 350], "{c:?}");
        assert_eq!(reachable(&m, [0; 6], 350), [0, 300, 350]);
        assert!(!reachable(&m, [0; 6], 2000).contains(&50));
    }

    #[test]
    fn the_six_dice_bonus_ends_a_cycle() {
        // Zilch: six dice with no scoring die score 500 and are rolled again.
        let m = model(DoomPreset::Zilch);
        assert!(points(&m, cycle_totals(&m)).contains(&500));
        let mut r = DoomRules::preset(DoomPreset::Zilch);
        r.six_dice_no_score = Some(50);
        let m = Model::new(&r);
        let c = points(&m, cycle_totals(&m));
        assert_eq!(c[0], 50, "{c:?}");
        assert_eq!(reachable(&m, [0; 6], 150), [0, 50, 100, 150]);
    }

    #[test]
    fn other_values_move_the_reachable_set() {
        // The seed with separate scoring and single 5s worth 100 and 1s 200: the unit is 100,
        // a held 5 has made 100, a held 1,5 300 (together or one by one).
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.held_dice = HeldDice::Separate;
        r.single_five = 100;
        r.single_one = 200;
        let m = Model::new(&r);
        assert_eq!(m.unit, 100);
        assert_eq!(points(&m, held_points(&m, &[0, 0, 0, 0, 1, 0])), [100]);
        assert_eq!(points(&m, held_points(&m, &[1, 0, 0, 0, 1, 0])), [300]);
        let seed = model(DoomPreset::Seed);
        assert_ne!(
            points(&m, cycle_totals(&m)),
            points(&seed, cycle_totals(&seed))
        );
    }
}
