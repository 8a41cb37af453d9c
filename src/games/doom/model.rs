//! The turn as a finite model: cycle states ("holds"), roll outcomes and, for each hold and
//! roll, every legal set-aside. Shared by the exact analysis and the simulator.

use std::collections::HashMap;

use super::rules::{DoomRules, HeldDice};
use super::score::{add, key, rolls, size, submultisets, FaceCounts, Scorer, KEYS};

/// What a cycle carries between rolls. With separate scoring only the number of dice set
/// aside matters; with combining held dice the multiset itself does.
#[derive(Clone, Debug)]
pub struct Hold {
    pub counts: FaceCounts,
    pub dice: u8,
    /// Points of the held multiset in point units (0 with separate scoring: they are in P).
    pub pts: u32,
}

/// One legal set-aside after a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opt {
    /// Points added to the banked-in-turn total P, in units.
    pub gain: u32,
    /// The hold after it (0 after hot dice).
    pub to: u16,
    /// All six dice now set aside (or the six-dice no-score bonus): roll six again.
    pub hot: bool,
    /// Dice set aside by this choice.
    pub dice: u8,
}

impl Opt {
    /// The order in which play breaks a tie between set-asides of equal value (the larger
    /// first): points gained, then the hold reached, then hot dice that must be rolled; the
    /// order of the exact programs' set-aside offsets.
    pub fn tie_key(&self, forced: bool) -> (u32, u16, bool) {
        (self.gain, self.to, self.hot && forced)
    }
}

/// One multiset a roll can show.
#[derive(Clone, Debug)]
pub struct RollOut {
    pub counts: FaceCounts,
    pub p: f64,
    pub doom: bool,
}

pub struct Model {
    pub rules: DoomRules,
    /// Point unit (gcd of all values).
    pub unit: u32,
    pub scorer: Scorer,
    pub holds: Vec<Hold>,
    /// `rolls[n]`: the multisets of n dice.
    pub rolls: Vec<Vec<RollOut>>,
    /// `roll_index[key]`: position of a multiset in `rolls[size]`.
    pub roll_index: Vec<u16>,
    /// `opts[h][i]`: legal set-asides from hold `h` after roll `i` of `6 − dice(h)` dice
    /// (empty: a farkle, or doom if the roll is doom).
    pub opts: Vec<Vec<Vec<Opt>>>,
}

/// Every legal set-aside from hold `h` after a roll of `roll` (not doom): the dice set aside
/// and where it leads (`hold_index` finds a held multiset's hold), in the order of
/// `submultisets`; a six-dice roll with no scoring die gives the rules' bonus, if any.
fn set_asides(
    rules: &DoomRules,
    scorer: &Scorer,
    unit: u32,
    h: &Hold,
    roll: &FaceCounts,
    hold_index: impl Fn(&FaceCounts) -> u16,
) -> Vec<(FaceCounts, Opt)> {
    let mut out = Vec::new();
    for s in submultisets(roll) {
        let k = size(&s);
        let opt = match rules.held_dice {
            HeldDice::Separate => scorer.full(&s).map(|v| {
                let dice = h.dice + k;
                Opt {
                    gain: v / unit,
                    to: if dice == 6 { 0 } else { dice as u16 },
                    hot: dice == 6,
                    dice: k,
                }
            }),
            HeldDice::Combine => {
                let all = add(&h.counts, &s);
                scorer.full(&all).map(|v| {
                    if size(&all) == 6 {
                        Opt {
                            gain: v / unit,
                            to: 0,
                            hot: true,
                            dice: k,
                        }
                    } else {
                        Opt {
                            gain: 0,
                            to: hold_index(&all),
                            hot: false,
                            dice: k,
                        }
                    }
                })
            }
        };
        if let Some(opt) = opt {
            out.push((s, opt));
        }
    }
    if out.is_empty() && size(roll) == 6 {
        if let Some(b) = rules.six_dice_no_score {
            out.push((
                [0; 6],
                Opt {
                    gain: b / unit,
                    to: 0,
                    hot: true,
                    dice: 0,
                },
            ));
        }
    }
    out
}

impl Model {
    /// Every legal set-aside from hold `h` after a roll of `roll` (not doom), with the dice
    /// set aside (the same options as `opts`, one per distinct set of dice).
    pub fn set_asides(&self, h: usize, roll: &FaceCounts) -> Vec<(FaceCounts, Opt)> {
        set_asides(
            &self.rules,
            &self.scorer,
            self.unit,
            &self.holds[h],
            roll,
            |c| {
                self.holds
                    .iter()
                    .position(|x| x.counts == *c)
                    .expect("a scoring held multiset is a hold") as u16
            },
        )
    }

    /// The hold of a held multiset (with separate scoring: of its number of dice), if the
    /// multiset scores with every die used.
    pub fn hold_of(&self, held: &FaceCounts) -> Option<usize> {
        match self.rules.held_dice {
            HeldDice::Separate => {
                let n = size(held);
                (n < 6 && (n == 0 || self.scorer.full(held).is_some())).then_some(n as usize)
            }
            HeldDice::Combine => self.holds.iter().position(|x| x.counts == *held),
        }
    }

    pub fn new(rules: &DoomRules) -> Model {
        let unit = rules.unit();
        let scorer = Scorer::new(rules);
        let mut roll_index = vec![u16::MAX; KEYS];
        let rolls: Vec<Vec<RollOut>> = (0..=6u8)
            .map(|n| {
                rolls(n)
                    .into_iter()
                    .enumerate()
                    .map(|(i, (c, p))| {
                        roll_index[key(&c)] = i as u16;
                        RollOut {
                            counts: c,
                            p,
                            doom: rules.doom_sixes.is_some_and(|d| c[5] >= d),
                        }
                    })
                    .collect()
            })
            .collect();
        // Holds.
        let mut holds = Vec::new();
        let mut hold_of: HashMap<FaceCounts, u16> = HashMap::new();
        match rules.held_dice {
            HeldDice::Separate => {
                for d in 0..6u8 {
                    let mut c = [0u8; 6];
                    c[0] = d; // only the count matters; faces are irrelevant here
                    holds.push(Hold {
                        counts: c,
                        dice: d,
                        pts: 0,
                    });
                }
            }
            HeldDice::Combine => {
                for d in 0..6u8 {
                    for (c, _) in super::score::rolls(d) {
                        if let Some(v) = scorer.full(&c) {
                            hold_of.insert(c, holds.len() as u16);
                            holds.push(Hold {
                                counts: c,
                                dice: d,
                                pts: v / unit,
                            });
                        }
                    }
                }
            }
        }
        let mut opts = Vec::with_capacity(holds.len());
        for h in &holds {
            let n = 6 - h.dice;
            let mut per_roll = Vec::with_capacity(rolls[n as usize].len());
            for r in &rolls[n as usize] {
                let mut o: Vec<Opt> = Vec::new();
                if !r.doom {
                    for (_, opt) in set_asides(rules, &scorer, unit, h, &r.counts, |c| hold_of[c]) {
                        if !o.contains(&opt) {
                            o.push(opt);
                        }
                    }
                }
                per_roll.push(o);
            }
            opts.push(per_roll);
        }
        Model {
            rules: rules.clone(),
            unit,
            scorer,
            holds,
            rolls,
            roll_index,
            opts,
        }
    }

    /// Probability that a roll of `n` dice with nothing held is a farkle (no scoring die, not
    /// doom) and that it is doom.
    pub fn bust_odds(&self, n: u8) -> (f64, f64) {
        let mut farkle = 0.0;
        let mut doom = 0.0;
        for r in &self.rolls[n as usize] {
            if r.doom {
                doom += r.p;
            } else if !(self.scorer.any_scoring(&r.counts)
                || n == 6 && self.rules.six_dice_no_score.is_some())
            {
                farkle += r.p;
            }
        }
        (farkle, doom)
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::{DoomPreset, DoomRules};
    use super::*;

    fn opts_after(m: &Model, held: FaceCounts, roll: FaceCounts) -> Vec<(FaceCounts, u32, bool)> {
        let h = m.holds.iter().position(|h| h.counts == held).unwrap();
        let n = size(&roll);
        assert_eq!(n, 6 - m.holds[h].dice);
        let i = m.roll_index[key(&roll)] as usize;
        assert_eq!(m.rolls[n as usize][i].counts, roll);
        m.opts[h][i]
            .iter()
            .map(|o| {
                let to = &m.holds[o.to as usize];
                (to.counts, (o.gain + to.pts) * m.unit, o.hot)
            })
            .collect()
    }

    #[test]
    fn held_dice_combine_with_kind_extras_as_rules_md_defines() {
        // The cycle's points are the best score of everything set aside in it: a held 5 plus
        // three rolled 5s is four 5s = 500 (not 50 + 500); setting aside two of them makes the
        // triple, 500, with one die more to roll.
        let m = Model::new(&DoomRules::preset(DoomPreset::Seed));
        let o = opts_after(&m, [0, 0, 0, 0, 1, 0], [0, 1, 1, 0, 3, 0]);
        assert!(o.contains(&([0, 0, 0, 0, 4, 0], 500, false)));
        assert!(o.contains(&([0, 0, 0, 0, 3, 0], 500, false)));
        assert!(o.iter().all(|x| x.1 <= 500), "{o:?}");
        // A held triple of 5s and one more rolled 5: legal (every die is used), adds nothing.
        let o = opts_after(&m, [0, 0, 0, 0, 3, 0], [0, 1, 1, 0, 1, 0]);
        assert_eq!(o, vec![([0, 0, 0, 0, 4, 0], 500, false)]);
        // Separate scoring: the held 5 scored 50 on its own, the three 5s 500 on theirs.
        let mut sep = DoomRules::preset(DoomPreset::Seed);
        sep.held_dice = HeldDice::Separate;
        let m = Model::new(&sep);
        let h = 1; // one die held
        let roll = [0, 1, 1, 0, 3, 0];
        let i = m.roll_index[key(&roll)] as usize;
        let gains: Vec<u32> = m.opts[h][i].iter().map(|o| o.gain * m.unit).collect();
        assert!(gains.contains(&500) && !gains.contains(&550), "{gains:?}");
    }

    #[test]
    fn six_of_a_kind_is_hot_dice_with_its_extras_used() {
        // Six 1s: 1000, every die used, so all six set aside is hot dice. Four 5s and two 1s
        // too (700).
        let m = Model::new(&DoomRules::preset(DoomPreset::Seed));
        let o = opts_after(&m, [0; 6], [6, 0, 0, 0, 0, 0]);
        assert!(o.contains(&([0; 6], 1000, true)), "{o:?}");
        assert!(o.contains(&([4, 0, 0, 0, 0, 0], 1000, false)));
        let o = opts_after(&m, [0; 6], [2, 0, 0, 0, 4, 0]);
        assert!(o.contains(&([0; 6], 700, true)), "{o:?}");
        assert!(o.iter().all(|x| x.1 <= 700), "{o:?}");
    }
}
