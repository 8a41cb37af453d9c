//! Deriving a total-dependent chart (the CSV format the simulator reads) from the exact
//! analysis.
//!
//! For each dealer up card and chart row, every composition of cards with that total is
//! weighted by its probability of being held (two-card hands by their deal probability, hands
//! of three or more cards by the probability of drawing to them), and the chart takes the action
//! with the highest weighted expected value (composition-dependent play afterwards), all in the
//! unconditioned world (in a hole-card game a dealer blackjack takes the original bet).
//! Two-card decisions (double, surrender, split) come from two-card hands; hit or stand from
//! all hands of the row.

use std::collections::HashMap;

use rayon::prelude::*;

use super::count::{CountSystem, Ramp, TcRounding};
use super::exact::{full_shoe, two_card_p, DealerTable, Optimal, PostSplit, Up, DEALER_22, NV};
use super::indices::{Deviation, Play, When};
use super::rules::Rules;
use super::strategy::{hard_row, pair_row, soft_row, Action, Chart, Code, Situation, ROWS};

/// Weighted EV sums of one up card: `[row][action]`, actions Stand, Hit, Double, Split,
/// Surrender; and the weights of two-card and multi-card hands. With moments, the same sums
/// of each action's second moment E[X²] (NaN for a split, whose two hands' results are not
/// followed jointly); empty without.
#[derive(Clone)]
struct Sums {
    two: Vec<[f64; 5]>,
    two_w: Vec<f64>,
    multi: Vec<[f64; 2]>,
    multi_w: Vec<f64>,
    two_m2: Vec<[f64; 5]>,
    multi_m2: Vec<[f64; 2]>,
}

fn idx(a: Action) -> usize {
    match a {
        Action::Stand => 0,
        Action::Hit => 1,
        Action::Double => 2,
        Action::Split => 3,
        Action::Surrender => 4,
    }
}

fn row_of(hard: u32, ace: bool) -> usize {
    if ace && hard <= 11 {
        soft_row(hard as u8 + 10)
    } else {
        hard_row(hard as u8)
    }
}

/// The sums of up card `up` from shoe `full`; with `moments`, the second moments too.
fn sums_for_up(
    rules: &Rules,
    table: &DealerTable,
    up: usize,
    full: [u32; NV],
    moments: bool,
) -> Sums {
    let mut a = Up::with_shoe(rules, &Optimal, table, up, PostSplit::CdzMinus, full);
    let shoe = a.shoe();
    let rows_of = |n: usize| if moments { n } else { 0 };
    let mut s = Sums {
        two: vec![[0.0; 5]; ROWS],
        two_w: vec![0.0; ROWS],
        multi: vec![[0.0; 2]; ROWS],
        multi_w: vec![0.0; ROWS],
        two_m2: vec![[0.0; 5]; rows_of(ROWS)],
        multi_m2: vec![[0.0; 2]; rows_of(ROWS)],
    };
    let mut pushes = Pushes::default();
    // The hands of three cards, for `multi_card_sums`.
    let mut level = Level::new();
    for c1 in 0..NV {
        for c2 in c1..NV {
            let p = two_card_p(&shoe, c1, c2);
            if p == 0.0 || (c1 == 0 && c2 == 9) {
                continue;
            }
            let mut removed = [0u8; NV];
            removed[c1] += 1;
            removed[c2] += 1;
            let (_, options) = a.initial_options(c1, c2);
            let hard = (c1 + c2 + 2) as u32;
            let ace = c1 == 0;
            let row = if c1 == c2 && rules.max_hands >= 2 {
                pair_row(c1 as u8 + 1)
            } else {
                row_of(hard, ace)
            };
            for (act, v) in options {
                s.two[row][idx(act)] += p * a.raw(&removed, v);
                if moments {
                    let m2 = pushes.initial_m2(&mut a, &removed, act, v);
                    s.two_m2[row][idx(act)] += p * m2;
                }
            }
            s.two_w[row] += p;
            // Seed the hands drawn to from here (a hand of 21 is not hit).
            if hard < 21 && !(ace && hard == 11) {
                draw_into(&mut level, &a, &removed, (hard, ace, 2), p);
            }
        }
    }
    multi_card_sums(&mut a, &mut s, &mut pushes, level, moments);
    s
}

/// Hands of three or more cards by composition: key → (weight, hard total, ace, cards,
/// cards out).
type Level = HashMap<u64, (f64, u32, bool, u8, [u8; NV])>;

/// Add to `level` the hands drawn to from the hand `removed` of (hard total, ace, cards)
/// held with weight `w` (a draw past 21 ends it).
fn draw_into(
    level: &mut Level,
    a: &Up<Optimal>,
    removed: &[u8; NV],
    (hard, ace, cards): (u32, bool, u8),
    w: f64,
) {
    let draw = a.raw_draw(removed);
    for (v, &q) in draw.iter().enumerate() {
        if q == 0.0 || hard + v as u32 + 1 > 21 {
            continue;
        }
        let mut r = *removed;
        r[v] += 1;
        let e =
            level
                .entry(key(&r))
                .or_insert((0.0, hard + v as u32 + 1, ace || v == 0, cards + 1, r));
        e.0 += w * q;
    }
}

/// The hit and stand sums (and second moments, with `moments`) of the hands of three or more
/// cards, level by level from those of three cards in `level`.
fn multi_card_sums(
    a: &mut Up<Optimal>,
    s: &mut Sums,
    pushes: &mut Pushes,
    mut level: Level,
    moments: bool,
) {
    while !level.is_empty() {
        let mut next = Level::new();
        let mut keys: Vec<u64> = level.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            let (w, hard, ace, cards, removed) = level[&k];
            let mut r = removed;
            let (st, hi) = a.stand_hit(&mut r, hard, ace, cards);
            let row = row_of(hard, ace);
            s.multi[row][0] += w * a.raw(&removed, st);
            s.multi[row][1] += w * a.raw(&removed, hi);
            s.multi_w[row] += w;
            let total = if ace && hard <= 11 { hard + 10 } else { hard };
            if moments {
                let stand = 1.0 - Pushes::stand(a, &removed, total);
                let hit = 1.0 - pushes.hit(a, &mut r, hard, ace, cards);
                s.multi_m2[row][0] += w * raw_m2(a, &removed, stand);
                s.multi_m2[row][1] += w * raw_m2(a, &removed, hit);
            }
            if total < 21 {
                draw_into(&mut next, a, &removed, (hard, ace, cards), w);
            }
        }
        level = next;
    }
}

/// Push probabilities of hands played on as the analysis plays them (optimally, after the
/// first decision), in the analysis's world: a hand's result is ± its stake or 0, so its
/// second moment is the stake squared times P(no push).
#[derive(Default)]
struct Pushes {
    /// P(push) of a hit/stand hand by its cards out.
    plain: HashMap<u64, f64>,
}

impl Pushes {
    /// P(push) standing on `total` (the dealer makes 17 to 21 or busts).
    fn stand(a: &mut Up<Optimal>, removed: &[u8; NV], total: u32) -> f64 {
        let d = a.dealer(removed);
        // A dealer 22 pushes every standing hand under Free Bet (0 elsewhere).
        let push22 = if total <= 21 { d[DEALER_22] } else { 0.0 };
        if (17..=21).contains(&total) {
            d[(total - 17) as usize] + push22
        } else {
            push22
        }
    }

    /// P(push) of a hit/stand hand played on (stand when busted: no push).
    fn plain(
        &mut self,
        a: &mut Up<Optimal>,
        removed: &mut [u8; NV],
        hard: u32,
        ace: bool,
        cards: u8,
    ) -> f64 {
        if hard > 21 {
            return 0.0;
        }
        let k = key(removed);
        if let Some(&p) = self.plain.get(&k) {
            return p;
        }
        let total = if ace && hard <= 11 { hard + 10 } else { hard };
        let p = match a.plain_choice(removed, hard, ace, cards, (0, 0)).1 {
            Action::Stand => Self::stand(a, removed, total),
            _ => self.hit(a, removed, hard, ace, cards),
        };
        self.plain.insert(k, p);
        p
    }

    /// P(push) hitting once and playing on.
    fn hit(
        &mut self,
        a: &mut Up<Optimal>,
        removed: &mut [u8; NV],
        hard: u32,
        ace: bool,
        cards: u8,
    ) -> f64 {
        let draw = a.draw(removed);
        let mut p = 0.0;
        for (v, &q) in draw.iter().enumerate() {
            if q == 0.0 {
                continue;
            }
            removed[v] += 1;
            p += q * self.plain(a, removed, hard + v as u32 + 1, ace || v == 0, cards + 1);
            removed[v] -= 1;
        }
        p
    }

    /// P(push) doubling: one card, then stand.
    fn double(a: &mut Up<Optimal>, removed: &mut [u8; NV], hard: u32, ace: bool) -> f64 {
        let draw = a.draw(removed);
        let mut p = 0.0;
        for (v, &q) in draw.iter().enumerate() {
            let h = hard + v as u32 + 1;
            if q == 0.0 || h > 21 {
                continue;
            }
            let soft = (ace || v == 0) && h <= 11;
            removed[v] += 1;
            p += q * Self::stand(a, removed, if soft { h + 10 } else { h });
            removed[v] -= 1;
        }
        p
    }

    /// The unconditioned second moment of initial action `act` (of EV `v` in the analysis's
    /// world) on the two cards `removed`; NaN for a split.
    fn initial_m2(&mut self, a: &mut Up<Optimal>, removed: &[u8; NV], act: Action, v: f64) -> f64 {
        let mut r = *removed;
        let hard: u32 = (0..NV).map(|i| r[i] as u32 * (i as u32 + 1)).sum();
        let ace = r[0] > 0;
        let total = if ace && hard <= 11 { hard + 10 } else { hard };
        let m2 = match act {
            Action::Stand => 1.0 - Self::stand(a, &r, total),
            Action::Hit => 1.0 - self.hit(a, &mut r, hard, ace, 2),
            // A double that may be free (Free Bet) is not ± its stake: compared on EV alone,
            // as a split is.
            Action::Double if a.rules().free_bet => f64::NAN,
            Action::Double => 4.0 * (1.0 - Self::double(a, &mut r, hard, ace)),
            // −1 with probability p (a blackjack before a late surrender without a hole
            // card), −1/2 otherwise: EV −(1 + p)/2, E[X²] = (1 + 3p)/4.
            Action::Surrender => (1.0 + 3.0 * (-2.0 * v - 1.0)) / 4.0,
            Action::Split => f64::NAN,
        };
        raw_m2(a, removed, m2)
    }
}

/// A second moment of the analysis's world made unconditioned: where the world is the
/// dealer's not having blackjack, a dealer blackjack takes the original bet (X² = 1).
fn raw_m2(a: &Up<Optimal>, removed: &[u8; NV], m2: f64) -> f64 {
    if a.no_bj() {
        let pb = a.pbj(&a.remaining(removed));
        pb + (1.0 - pb) * m2
    } else {
        m2
    }
}

fn key(c: &[u8; NV]) -> u64 {
    c.iter()
        .enumerate()
        .fold(0u64, |k, (v, &n)| k | (n as u64) << (6 * v))
}

/// The version of [`derive_chart`]'s meaning, part of every kept chart's identity
/// (`kept::chart_key`): bump it when a change here (or in the exact analysis it reads) can
/// change a derived chart, so that the charts kept in the cache folder are derived again.
pub const DERIVE_VERSION: u32 = 1;

/// The total-dependent chart with the highest expected value for `rules`, as derived above;
/// progress on standard error when `show_progress` (and the work lasts).
pub fn derive_chart(rules: &Rules, show_progress: bool) -> Chart {
    let table = DealerTable::of(rules);
    let progress =
        crate::progress::Progress::new(show_progress, NV as u64, "deriving the chart", "up cards");
    let sums: Vec<Sums> = (0..NV)
        .into_par_iter()
        .map(|u| {
            let s = sums_for_up(rules, table, u, full_shoe(rules.decks), false);
            progress.advance(1);
            s
        })
        .collect();
    progress.finish();
    let mut codes = [[Code::H; 10]; ROWS];
    for (u, s) in sums.iter().enumerate() {
        for (row, line) in codes.iter_mut().enumerate() {
            line[u] = choose(row, s);
        }
    }
    Chart::new(codes, "derived")
}

/// Whether `chart` holds, for the up card `u` (0 = ace ..= 9 = ten), the column
/// [`derive_chart`] derives for `rules`: a tenth of the derivation, to check a chart read back
/// from the cache against what it claims to be.
pub fn column_matches(rules: &Rules, chart: &Chart, u: usize) -> bool {
    let table = DealerTable::of(rules);
    let s = sums_for_up(rules, table, u, full_shoe(rules.decks), false);
    (0..ROWS).all(|row| chart.codes[row][u] == choose(row, &s))
}

/// The EV per initial bet of each action in each chart row against each up card, as the
/// chart is derived (the hands of the row weighted by how often they are held; composition-
/// dependent play after the decision): what a decision taken is worth beside the best one.
pub struct ActionValues {
    /// `[up − 1][row]`: Stand, Hit, Double, Split, Surrender of two-card hands (NaN: not offered).
    two: Vec<[[f64; 5]; ROWS]>,
    /// `[up − 1][row]`: Stand, Hit of hands of three cards or more.
    multi: Vec<[[f64; 2]; ROWS]>,
}

/// [`ActionValues`] of `rules` from the shoe `shoe` (cards by value, ace first).
pub fn action_values_shoe(rules: &Rules, shoe: [u32; NV]) -> ActionValues {
    let table = DealerTable::of(rules);
    let sums: Vec<Sums> = (0..NV)
        .into_par_iter()
        .map(|u| sums_for_up(rules, table, u, shoe, false))
        .collect();
    let mut two = vec![[[f64::NAN; 5]; ROWS]; NV];
    let mut multi = vec![[[f64::NAN; 2]; ROWS]; NV];
    for (u, s) in sums.iter().enumerate() {
        for row in 0..ROWS {
            if s.two_w[row] > 0.0 {
                for (t, &x) in two[u][row].iter_mut().zip(&s.two[row]) {
                    if x != 0.0 {
                        *t = x / s.two_w[row];
                    }
                }
            }
            if s.multi_w[row] > 0.0 {
                for (m, &x) in multi[u][row].iter_mut().zip(&s.multi[row]) {
                    *m = x / s.multi_w[row];
                }
            }
        }
    }
    ActionValues { two, multi }
}

impl ActionValues {
    /// What `a` is worth in `sit`, per initial bet (`None`: not offered, or a hand no hand of
    /// its row resembles).
    pub fn value(&self, sit: &Situation, a: Action) -> Option<f64> {
        let u = (sit.up as usize + 9) % 10;
        let row = match sit.pair {
            Some(v) => pair_row(v),
            None if sit.soft => soft_row(sit.total),
            None => hard_row(sit.total),
        };
        let x = if sit.cards == 2 {
            let offered = match a {
                Action::Stand | Action::Hit => true,
                Action::Double => sit.can_double,
                Action::Split => sit.pair.is_some(),
                Action::Surrender => sit.can_surrender,
            };
            if !offered {
                return None;
            }
            self.two[u][row][idx(a)]
        } else {
            match a {
                Action::Stand => self.multi[u][row][0],
                Action::Hit => self.multi[u][row][1],
                _ => return None,
            }
        };
        x.is_finite().then_some(x)
    }
}

fn choose(row: usize, s: &Sums) -> Code {
    let two = &s.two[row];
    let has_two = s.two_w[row] > 0.0;
    // Hit or stand for the row: all hands of the row (pair rows: their two-card hands).
    let (st, hi) = if row >= 28 {
        (two[0], two[1])
    } else {
        (two[0] + s.multi[row][0], two[1] + s.multi[row][1])
    };
    let base_hit = if has_two || s.multi_w[row] > 0.0 {
        hi > st
    } else {
        // A row no hand reaches under these rules (e.g. S12, A-A that may not be split):
        // hit totals that cannot bust or are soft and low, stand otherwise.
        match row {
            0..=17 => row + 4 <= 11,
            18..=27 => row - 18 + 12 <= 17,
            _ => false,
        }
    };
    if !has_two {
        return if base_hit { Code::H } else { Code::S };
    }
    // Two-card choice among the allowed actions (an action never offered has weight 0).
    let offered = |a: usize| two[a] != 0.0;
    let mut best = if base_hit { 1 } else { 0 };
    for a in [2usize, 3, 4] {
        if offered(a) && two[a] > two[best] {
            best = a;
        }
    }
    match best {
        2 => {
            if base_hit {
                Code::Dh
            } else {
                Code::Ds
            }
        }
        3 => Code::P,
        4 => {
            if offered(3) && two[3] > two[if base_hit { 1 } else { 0 }] {
                Code::Rp
            } else if base_hit {
                Code::Rh
            } else {
                Code::Rs
            }
        }
        1 => Code::H,
        _ => Code::S,
    }
}

/// The comment heading a derived chart file.
pub fn chart_header(rules: &Rules) -> String {
    format!(
        "rtplab blackjack chart (format: strategies/README.md)\n\
         Derived by `rtplab strategies derive blackjack` from the exact analysis for:\n\
         {rules}\n\
         Each code maximizes the probability-weighted expected value of the hands of its row\n\
         (composition-dependent play afterwards); regenerate instead of editing by hand."
    )
}

// ---------------------------------------------------------------------------------------------
// Index plays for a count: where the best action of a chart cell changes with the count.

/// The decks left at which indices are computed when none are asked for: half the shoe, and
/// never fewer than 0.75 decks (39 cards), since the counts are evaluated on more than half a
/// deck (`IndexGenError::DecksLeft`): a single deck's default is 0.75, not the 0.5 it could
/// not take.
pub fn default_decks_left(decks: u32) -> f64 {
    (decks as f64 / 2.0).max(0.75)
}

/// What `derive_indices` computes indices for.
pub struct IndexRequest<'a> {
    pub rules: &'a Rules,
    pub system: &'a CountSystem,
    /// The chart the indices deviate from (normally the rules' basic chart).
    pub chart: &'a Chart,
    /// Decks left in the shoe at which the counts are evaluated.
    pub decks_left: f64,
    /// How the counter makes its true count an integer (the index is the first integer count
    /// whose span lies mostly beyond the crossing).
    pub rounding: TcRounding,
    /// Counts evaluated: `lo..=hi` (true counts of a balanced system; for an unbalanced one,
    /// steps of one running count per deck left around the neutral running count).
    pub lo: i32,
    pub hi: i32,
    /// Show progress on standard error (on a terminal).
    pub progress: bool,
    /// Risk-averse indices: the plays that maximise SCORE under a ramp (`None`: EV).
    pub risk_averse: Option<RiskAverse<'a>>,
}

/// What risk-averse (SCORE-maximising) indices weigh: a deviation at a count raises the EV per
/// round by q·b·Δe and the second moment by q·b²·Δm (q its frequency, b the ramp's bet there,
/// Δe and Δm per unit bet); SCORE ∝ E²/V rises when 2·b·Δe/E > b²·Δm/V, that is when
/// Δe > b·Δm·E/(2V), with E and V the EV and variance per round of the whole game under the
/// ramp (Schlesinger's risk-averse indices).
#[derive(Clone, Copy, Debug)]
pub struct RiskAverse<'a> {
    pub ramp: &'a Ramp,
    /// E/(2V) per round, in units of the table minimum.
    pub per_unit: f64,
}

/// One generated index: the entry and the real-valued count where the two actions' EVs
/// cross, with the EV gain per hand one count past it.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedIndex {
    pub entry: Deviation,
    pub crossing: f64,
}

/// Why indices cannot be computed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum IndexGenError {
    #[error("--decks-left {0}: expected more than 0.5 and at most the shoe's {1} decks")]
    DecksLeft(f64, u32),
    #[error("a count of {key} with {decks} decks left is beyond what the shoe can hold; narrow the range")]
    Unreachable { key: i32, decks: f64 },
    #[error("--range {0}..{1}: expected lo < hi, both within -20..20")]
    Range(i32, i32),
}

/// The composition (by value, ace first) of `cards` cards whose tags sum to `sum` (tag
/// units), the most likely way: each value's share of a full shoe tilted by `e^(−θ·tag)` with
/// θ solved for the sum (the conditional composition of a random remainder, to first order),
/// rounded to whole cards by largest remainders. None when no tilt reaches the sum.
pub fn shoe_with_tag_sum(tags: &[i8; 10], cards: u32, sum: f64) -> Option<[u32; NV]> {
    let base: [f64; NV] = std::array::from_fn(|v| if v == 9 { 16.0 } else { 4.0 } / 52.0);
    let mean = |theta: f64| {
        let w: Vec<f64> = (0..NV)
            .map(|v| base[v] * (-theta * tags[v] as f64).exp())
            .collect();
        let z: f64 = w.iter().sum();
        let m: f64 = (0..NV).map(|v| w[v] * tags[v] as f64).sum::<f64>() / z;
        (m, w.iter().map(|x| x / z).collect::<Vec<f64>>())
    };
    let target = sum / cards as f64;
    let (mut lo, mut hi) = (-30.0f64, 30.0f64);
    if !(mean(hi).0 < target && target < mean(lo).0) {
        return None;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mean(mid).0 > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (_, w) = mean(0.5 * (lo + hi));
    let real: Vec<f64> = w.iter().map(|x| x * cards as f64).collect();
    let mut shoe: [u32; NV] = std::array::from_fn(|v| real[v].floor() as u32);
    let mut short = cards - shoe.iter().sum::<u32>();
    let mut order: Vec<usize> = (0..NV).collect();
    order.sort_by(|&a, &b| (real[b] - real[b].floor()).total_cmp(&(real[a] - real[a].floor())));
    for &v in order.iter().cycle() {
        if short == 0 {
            break;
        }
        shoe[v] += 1;
        short -= 1;
    }
    Some(shoe)
}

/// The primary action of a code, without its surrender.
fn primary(c: Code) -> Action {
    match c {
        Code::H | Code::Rh => Action::Hit,
        Code::S | Code::Rs => Action::Stand,
        Code::Dh | Code::Ds => Action::Double,
        Code::P | Code::Rp => Action::Split,
    }
}

/// EV of `a` minus EV of `b` per hand of `row`, as `choose` compares them: hit against stand
/// over every hand of the row, anything else over its two-card hands; less `lambda` times the
/// difference of their second moments where the sums hold them (a split's is not followed:
/// it is compared on EV alone). None when either is not offered or the row has no hands.
fn gain(row: usize, s: &Sums, a: Action, b: Action, lambda: f64) -> Option<f64> {
    let plain = |x: Action| matches!(x, Action::Hit | Action::Stand);
    let (ev, m2) = if plain(a) && plain(b) && row < 28 {
        let w = s.two_w[row] + s.multi_w[row];
        if w <= 0.0 {
            return None;
        }
        let v = |x: Action| s.two[row][idx(x)] + s.multi[row][idx(x)];
        let m = |x: Action| s.two_m2[row][idx(x)] + s.multi_m2[row][idx(x)];
        (
            (v(a) - v(b)) / w,
            (lambda != 0.0).then(|| (m(a) - m(b)) / w),
        )
    } else {
        let w = s.two_w[row];
        let two = &s.two[row];
        let offered = |x: Action| plain(x) || two[idx(x)] != 0.0;
        if !(w > 0.0 && offered(a) && offered(b)) {
            return None;
        }
        let m = |x: Action| s.two_m2[row][idx(x)];
        (
            (two[idx(a)] - two[idx(b)]) / w,
            (lambda != 0.0).then(|| (m(a) - m(b)) / w),
        )
    };
    Some(match m2 {
        Some(m2) if m2.is_finite() => ev - lambda * m2,
        _ => ev,
    })
}

/// The first integer count, under `rounding`, whose span lies mostly at or above `x`.
fn first_count_at_or_above(x: f64, rounding: TcRounding, unbalanced_scale: Option<u8>) -> i32 {
    // The middle of the real counts that round to k.
    let centre = |k: i32| -> f64 {
        if let Some(s) = unbalanced_scale {
            return k as f64 + (s as f64 - 1.0) / (2.0 * s as f64);
        }
        match rounding {
            TcRounding::Floor => k as f64 + 0.5,
            TcRounding::Nearest => k as f64,
            TcRounding::Truncate => k as f64 + 0.5 * (k.signum() as f64),
        }
    };
    let mut k = x.floor() as i32 - 2;
    while centre(k) < x {
        k += 1;
    }
    k
}

/// How a crossing becomes an integer index under `rounding` (for a balanced `system`; an
/// unbalanced one's running count is exact), with a worked example, as comment lines for the
/// head of an indices file: what `derive_indices` does with each crossing.
pub fn index_rounding_note(system: &CountSystem, rounding: TcRounding) -> Vec<String> {
    let balanced = system.balanced();
    let unbalanced_scale = (!balanced).then_some(system.scale);
    let at = |x: f64| first_count_at_or_above(x, rounding, unbalanced_scale);
    let span = match (balanced, rounding) {
        (false, _) if system.scale == 1 => "running count k is exactly k".to_string(),
        (false, _) => format!(
            "running count k is every count from k up to k + 1 (tags in 1/{})",
            system.scale
        ),
        (true, TcRounding::Floor) => "true count k is every real count from k up to k + 1".into(),
        (true, TcRounding::Nearest) => {
            "true count k is every real count from k - 0.5 to k + 0.5".into()
        }
        (true, TcRounding::Truncate) => {
            "true count k > 0 is every real count from k up to k + 1, k < 0 from k - 1 to k, 0 from -1 to 1"
                .into()
        }
    };
    let (up, down) = (2.55, -1.86);
    let (n_up, n_down) = (at(up), at(down));
    vec![
        format!(
            "Index rounding: an index is the first integer count whose span of real counts lies mostly at or above the crossing (its middle at or above it; under {} rounding {span}).",
            rounding.name()
        ),
        format!(
            "'>=N' plays at N and above, '<N' below N. E.g. a crossing at {up:+.2} gives N = {n_up} (>={n_up} or <{n_up}, as the play pays above or below it); one at {down:+.2} gives N = {n_down}."
        ),
    ]
}

/// Crossings of `d` (values at counts `xs`) through zero: (x, rising).
fn crossings(xs: &[f64], d: &[Option<f64>]) -> Vec<(f64, bool)> {
    let mut out = Vec::new();
    for i in 1..xs.len() {
        let (Some(a), Some(b)) = (d[i - 1], d[i]) else {
            continue;
        };
        if (a < 0.0) != (b < 0.0) {
            let x = xs[i - 1] + (xs[i] - xs[i - 1]) * (-a) / (b - a);
            out.push((x, b > a));
        }
    }
    out
}

/// The counts at which the index plays are sought: each point's key (true count of a
/// balanced system, running count of an unbalanced one), the shoe depleted to it, and the
/// neutral key the nearest crossing is measured from.
struct CountPoints {
    xs: Vec<f64>,
    shoes: Vec<[u32; NV]>,
    neutral: f64,
}

/// The shoes of `req`'s counts `lo..=hi` at `decks_left` (`shoe_with_tag_sum`), each with the
/// key its cards actually give.
fn count_points(req: &IndexRequest) -> Result<CountPoints, IndexGenError> {
    let decks = req.rules.decks;
    let sys = req.system;
    let cards = (req.decks_left * 52.0).round() as u32;
    let d = cards as f64 / 52.0;
    let scale = sys.scale as f64;
    let tags = sys.tags;
    let balanced = sys.balanced();
    // Running count (tag units) once the cards not left are seen: initial + (full − left).
    let full_sum = (sys.deck_sum() * decks as i32) as f64;
    let initial = sys.initial(decks) as f64;
    let neutral_rc = if balanced {
        0.0
    } else {
        (initial + full_sum - sys.deck_sum() as f64 * d) / scale
    };
    let step = if balanced { 1.0 } else { d.round().max(1.0) };
    // The key at a remaining tag sum, and the sum at a key.
    let key_of = |sum: f64| {
        if balanced {
            -sum / (scale * d)
        } else {
            (initial + full_sum - sum) / scale
        }
    };
    let sum_at = |key: f64| {
        if balanced {
            -key * scale * d
        } else {
            initial + full_sum - key * scale
        }
    };
    let mut xs = Vec::new();
    let mut shoes = Vec::new();
    for j in req.lo..=req.hi {
        let key = neutral_rc + j as f64 * step;
        let shoe =
            shoe_with_tag_sum(&tags, cards, sum_at(key)).ok_or(IndexGenError::Unreachable {
                key: key as i32,
                decks: req.decks_left,
            })?;
        let full = super::exact::full_shoe(decks);
        if (0..NV).any(|v| shoe[v] > full[v] || shoe[v] < 2) {
            return Err(IndexGenError::Unreachable {
                key: key as i32,
                decks: req.decks_left,
            });
        }
        let sum: f64 = (0..NV).map(|v| shoe[v] as f64 * tags[v] as f64).sum();
        xs.push(key_of(sum));
        shoes.push(shoe);
    }
    Ok(CountPoints {
        xs,
        shoes,
        neutral: neutral_rc,
    })
}

/// The weighted EV sums of every shoe and up card: `[point][up]`.
fn sums_at_points(req: &IndexRequest, shoes: &[[u32; NV]]) -> Vec<Vec<Sums>> {
    let table = DealerTable::of(req.rules);
    let progress = crate::progress::Progress::new(
        req.progress,
        (shoes.len() * NV) as u64,
        "index plays",
        "(count, up card) analyses",
    );
    let sums: Vec<Vec<Sums>> = shoes
        .par_iter()
        .map(|shoe| {
            (0..NV)
                .into_par_iter()
                .map(|u| {
                    let s = sums_for_up(req.rules, table, u, *shoe, req.risk_averse.is_some());
                    progress.advance(1);
                    s
                })
                .collect()
        })
        .collect();
    progress.finish();
    sums
}

/// Crossings made index plays: the one nearest the neutral count, at the integer count it
/// plays from.
struct Indexer<'a> {
    xs: &'a [f64],
    /// At each count point, the weight of the second moment against the EV (0: EV indices).
    lambdas: Vec<f64>,
    neutral: f64,
    rounding: TcRounding,
    unbalanced_scale: Option<u8>,
}

impl Indexer<'_> {
    /// The crossings of the differences `d` (one per count point) through zero.
    fn crossings(&self, d: &[Option<f64>]) -> Vec<(f64, bool)> {
        crossings(self.xs, d)
    }

    /// The candidate (crossing first) nearest the neutral count; the first of equals.
    fn nearest<T: Copy>(&self, mut c: Vec<(f64, T)>) -> Option<(f64, T)> {
        c.sort_by(|a, b| {
            (a.0 - self.neutral)
                .abs()
                .total_cmp(&(b.0 - self.neutral).abs())
        });
        c.first().copied()
    }

    /// The index play `play` of `row` against `up`, from the crossing at `x`.
    fn index(&self, row: u8, up: u8, play: Play, x: f64, at_least: bool) -> GeneratedIndex {
        GeneratedIndex {
            entry: Deviation {
                row,
                up,
                play,
                when: When {
                    at_least,
                    index: first_count_at_or_above(x, self.rounding, self.unbalanced_scale),
                },
            },
            crossing: x,
        }
    }
}

/// Insurance: 2:1 on a ten in the shoe less the ace up.
fn insurance_index(ix: &Indexer, shoes: &[[u32; NV]]) -> Option<GeneratedIndex> {
    let ins: Vec<Option<f64>> = shoes
        .iter()
        .map(|s| {
            let n: u32 = s.iter().sum();
            Some(3.0 * s[9] as f64 / (n - 1) as f64 - 1.0)
        })
        .collect();
    match ix.nearest(ix.crossings(&ins)) {
        Some((x, true)) => Some(ix.index(super::indices::INSURANCE, 1, Play::Insure, x, true)),
        _ => None,
    }
}

/// The play of chart cell (`row`, up card index `u`) coded `code` changes to another (hit,
/// stand, double, split) at the crossing nearest the neutral count; `col` holds the cell's
/// sums at each count point.
fn play_index(
    ix: &Indexer,
    row: usize,
    u: usize,
    code: Code,
    col: &[&Sums],
) -> Option<GeneratedIndex> {
    let cp = primary(code);
    // Plays: the alternatives that are best somewhere in the range.
    let mut cands = Vec::new();
    let alts: std::collections::BTreeSet<usize> = col
        .iter()
        .map(|s| idx(primary(choose(row, s))))
        .filter(|&a| a != idx(cp))
        .collect();
    for a in alts {
        let a = [
            Action::Stand,
            Action::Hit,
            Action::Double,
            Action::Split,
            Action::Surrender,
        ][a];
        let d: Vec<Option<f64>> = col
            .iter()
            .zip(&ix.lambdas)
            .map(|(s, &l)| gain(row, s, a, cp, l))
            .collect();
        for (x, rising) in ix.crossings(&d) {
            cands.push((x, (rising, a)));
        }
    }
    let (x, (rising, a)) = ix.nearest(cands)?;
    let c = match a {
        Action::Hit => Code::H,
        Action::Stand => Code::S,
        Action::Split => Code::P,
        _ => {
            // Double, else what the row does without it.
            let base = gain(row, col[col.len() / 2], Action::Hit, Action::Stand, 0.0);
            if base.unwrap_or(1.0) > 0.0 {
                Code::Dh
            } else {
                Code::Ds
            }
        }
    };
    Some(ix.index(row as u8, u as u8 + 1, Play::Code(c), x, rising))
}

/// Surrender in chart cell (`row`, up card index `u`), against the best other play: the
/// crossing nearest the neutral count.
fn surrender_index(ix: &Indexer, row: usize, u: usize, col: &[&Sums]) -> Option<GeneratedIndex> {
    let d: Vec<Option<f64>> = col
        .iter()
        .zip(&ix.lambdas)
        .map(|(s, &l)| {
            let others = [Action::Stand, Action::Hit, Action::Double, Action::Split];
            let best = others
                .iter()
                .filter_map(|&o| gain(row, s, Action::Surrender, o, l))
                .min_by(f64::total_cmp)?;
            Some(best)
        })
        .collect();
    let (x, rising) = ix.nearest(ix.crossings(&d))?;
    Some(ix.index(row as u8, u as u8 + 1, Play::Surrender, x, rising))
}

/// Index plays for `req`: for each chart cell, the count nearest the neutral one at which the
/// best play (hit, stand, double, split) changes from the chart's, the count at which
/// surrender starts or stops paying where the rules allow it, and the insurance count; each
/// from the exact analysis of shoes depleted to that count (`shoe_with_tag_sum`) at
/// `decks_left`, with composition-dependent play after the first decision.
pub fn derive_indices(req: &IndexRequest) -> Result<Vec<GeneratedIndex>, IndexGenError> {
    Ok(derive_indices_and_ev(req)?.0)
}

/// `derive_indices`, and beside them the EV indices from the same analyses (what
/// `derive_indices` gives without `risk_averse`; the same indices twice without it).
pub fn derive_indices_and_ev(
    req: &IndexRequest,
) -> Result<(Vec<GeneratedIndex>, Vec<GeneratedIndex>), IndexGenError> {
    let rules = req.rules;
    if !(req.decks_left > 0.5 && req.decks_left <= rules.decks as f64) {
        return Err(IndexGenError::DecksLeft(req.decks_left, rules.decks));
    }
    if !(req.lo < req.hi && req.lo >= -20 && req.hi <= 20) {
        return Err(IndexGenError::Range(req.lo, req.hi));
    }
    let points = count_points(req)?;
    let sums = sums_at_points(req, &points.shoes);
    let index_all = |lambdas: Vec<f64>| {
        let ix = Indexer {
            xs: &points.xs,
            lambdas,
            neutral: points.neutral,
            rounding: req.rounding,
            unbalanced_scale: (!req.system.balanced()).then_some(req.system.scale),
        };
        let mut out: Vec<GeneratedIndex> =
            insurance_index(&ix, &points.shoes).into_iter().collect();
        for row in 0..ROWS {
            for u in 0..NV {
                let col: Vec<&Sums> = sums.iter().map(|p| &p[u]).collect();
                out.extend(play_index(&ix, row, u, req.chart.codes[row][u], &col));
                if rules.surrender_allowed(u as u8 + 1) {
                    out.extend(surrender_index(&ix, row, u, &col));
                }
            }
        }
        out
    };
    let ev = index_all(vec![0.0; points.xs.len()]);
    let found = match req.risk_averse {
        None => ev.clone(),
        Some(r) => index_all(
            points
                .xs
                .iter()
                .map(|&x| r.per_unit * r.ramp.units(x.round() as i32) as f64)
                .collect(),
        ),
    };
    Ok((found, ev))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tilted_shoe_has_its_cards_and_its_count() {
        let hilo = CountSystem::resolve("hi-lo").unwrap();
        // Neutral: the full shoe's proportions.
        let s = shoe_with_tag_sum(&hilo.tags, 208, 0.0).unwrap();
        assert_eq!(s, [16, 16, 16, 16, 16, 16, 16, 16, 16, 64]);
        // True count +3 with 4 decks left: the remaining tags sum to -12.
        for (tc, decks) in [(3.0, 4.0), (-5.0, 2.0), (8.0, 1.5)] {
            let cards = (decks * 52.0) as u32;
            let s = shoe_with_tag_sum(&hilo.tags, cards, -tc * decks).unwrap();
            assert_eq!(s.iter().sum::<u32>(), cards);
            let sum: i32 = (0..NV).map(|v| s[v] as i32 * hilo.tags[v] as i32).sum();
            assert!((sum as f64 + tc * decks).abs() <= 1.0, "{tc}: {sum}");
            // Tags 0 (7, 8, 9) keep equal shares; high counts are rich in tens and aces.
            assert!(s[6].abs_diff(s[8]) <= 1);
            if tc > 0.0 {
                assert!(s[9] > (cards * 4 / 13) && s[0] > cards / 13);
            }
        }
        // Beyond what any shoe holds.
        assert!(shoe_with_tag_sum(&hilo.tags, 52, -60.0).is_none());
    }

    /// A hand's result is ± its stake or 0: standing below 17 never pushes (E[X²] = 1 per hand
    /// exactly), standing on 17 to 20 pushes sometimes, a double's E[X²] is four times a
    /// non-pushing share, a surrender's (1 + 3p)/4 with p the blackjacks it cannot escape, and a
    /// split's is not followed (NaN). Both worlds: the seed table (no hole card) and a peek game.
    #[test]
    fn second_moments_are_the_stakes_squared_where_no_push() {
        let mut peek = Rules::seed();
        peek.peek = true;
        peek.surrender = crate::games::blackjack::rules::Surrender::Late;
        for rules in [Rules::seed(), peek] {
            let table = DealerTable::of(&rules);
            for up in [1usize, 5, 9] {
                let s = sums_for_up(&rules, table, up, full_shoe(rules.decks), true);
                let per = |row: usize, a: usize| s.two_m2[row][a] / s.two_w[row];
                let all = |row: usize, a: usize| {
                    (s.two_m2[row][a] + s.multi_m2[row][a]) / (s.two_w[row] + s.multi_w[row])
                };
                for total in 5u8..=16 {
                    let row = hard_row(total);
                    if s.two_w[row] + s.multi_w[row] > 0.0 {
                        assert!(
                            (all(row, 0) - 1.0).abs() < 1e-12,
                            "stand {total}: {}",
                            all(row, 0)
                        );
                    }
                }
                for total in 17u8..=20 {
                    let m = all(hard_row(total), 0);
                    assert!((0.5..1.0 - 1e-3).contains(&m), "stand {total} v {up}: {m}");
                }
                let d11 = per(hard_row(11), 2);
                assert!((3.0..4.0).contains(&d11), "double 11 v {up}: {d11}");
                let h12 = all(hard_row(12), 1);
                assert!((0.8..1.0).contains(&h12), "hit 12 v {up}: {h12}");
                assert!(per(pair_row(8), 3).is_nan());
                if rules.surrender_allowed(up as u8 + 1) {
                    let sur = per(hard_row(16), 4);
                    assert!(
                        (0.25 - 1e-12..0.4).contains(&sur),
                        "surrender 16 v {up}: {sur}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_rounding_note_states_the_rule_with_its_example() {
        let hilo = CountSystem::resolve("hi-lo").unwrap();
        let floor = index_rounding_note(&hilo, TcRounding::Floor).join(" ");
        assert!(
            floor.contains(
                "under floor rounding true count k is every real count from k up to k + 1"
            ),
            "{floor}"
        );
        assert!(
            floor.contains("+2.55 gives N = 3") && floor.contains("-1.86 gives N = -2"),
            "{floor}"
        );
        let nearest = index_rounding_note(&hilo, TcRounding::Nearest).join(" ");
        assert!(nearest.contains("-1.86 gives N = -1"), "{nearest}");
        let ko = CountSystem::resolve("ko").unwrap();
        let rc = index_rounding_note(&ko, TcRounding::Floor).join(" ");
        assert!(
            rc.contains("running count k is exactly k") && rc.contains("gives N = 3"),
            "{rc}"
        );
    }

    #[test]
    fn the_index_is_the_first_count_mostly_past_the_crossing() {
        use TcRounding::*;
        // Floor: count k covers [k, k+1), centred at k + 0.5.
        assert_eq!(first_count_at_or_above(0.3, Floor, None), 0);
        assert_eq!(first_count_at_or_above(0.6, Floor, None), 1);
        assert_eq!(first_count_at_or_above(-1.4, Floor, None), -1);
        assert_eq!(first_count_at_or_above(-1.6, Floor, None), -2);
        // Nearest: centred at k.
        assert_eq!(first_count_at_or_above(0.3, Nearest, None), 1);
        assert_eq!(first_count_at_or_above(-0.3, Nearest, None), 0);
        // Truncate: 0 covers (-1, 1).
        assert_eq!(first_count_at_or_above(0.2, Truncate, None), 1);
        assert_eq!(first_count_at_or_above(-0.2, Truncate, None), 0);
        assert_eq!(first_count_at_or_above(-0.7, Truncate, None), 0);
        assert_eq!(first_count_at_or_above(-1.7, Truncate, None), -1);
        // A running count (scale 1) is exact.
        assert_eq!(first_count_at_or_above(2.2, Floor, Some(1)), 3);
        assert_eq!(
            crossings(&[0.0, 1.0, 2.0], &[Some(-1.0), Some(1.0), None]),
            vec![(0.5, true)]
        );
    }
}
