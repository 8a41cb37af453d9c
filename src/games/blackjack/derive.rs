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

use super::exact::{two_card_p, DealerTable, Optimal, PostSplit, Up, NV};
use super::rules::Rules;
use super::strategy::{hard_row, pair_row, soft_row, Action, Chart, Code, ROWS};

/// Weighted EV sums of one up card: `[row][action]`, actions Stand, Hit, Double, Split,
/// Surrender; and the weights of two-card and multi-card hands.
#[derive(Clone)]
struct Sums {
    two: Vec<[f64; 5]>,
    two_w: Vec<f64>,
    multi: Vec<[f64; 2]>,
    multi_w: Vec<f64>,
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

fn sums_for_up(rules: &Rules, table: &DealerTable, up: usize) -> Sums {
    let mut a = Up::new(rules, &Optimal, table, up, PostSplit::CdzMinus);
    let shoe = a.shoe();
    let mut s = Sums {
        two: vec![[0.0; 5]; ROWS],
        two_w: vec![0.0; ROWS],
        multi: vec![[0.0; 2]; ROWS],
        multi_w: vec![0.0; ROWS],
    };
    // Multi-card hands by composition: key -> (weight, hard, ace, cards, removed).
    let mut level: HashMap<u64, (f64, u32, bool, u8, [u8; NV])> = HashMap::new();
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
            }
            s.two_w[row] += p;
            // Seed the hands drawn to from here (a hand of 21 is not hit).
            if hard < 21 && !(ace && hard == 11) {
                let draw = a.raw_draw(&removed);
                for (v, &q) in draw.iter().enumerate() {
                    if q == 0.0 || hard + v as u32 + 1 > 21 {
                        continue;
                    }
                    let mut r = removed;
                    r[v] += 1;
                    let k = key(&r);
                    let e =
                        level
                            .entry(k)
                            .or_insert((0.0, hard + v as u32 + 1, ace || v == 0, 3, r));
                    e.0 += p * q;
                }
            }
        }
    }
    while !level.is_empty() {
        let mut next: HashMap<u64, (f64, u32, bool, u8, [u8; NV])> = HashMap::new();
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
            if total >= 21 {
                continue;
            }
            let draw = a.raw_draw(&removed);
            for (v, &q) in draw.iter().enumerate() {
                if q == 0.0 || hard + v as u32 + 1 > 21 {
                    continue;
                }
                let mut r2 = removed;
                r2[v] += 1;
                let e = next.entry(key(&r2)).or_insert((
                    0.0,
                    hard + v as u32 + 1,
                    ace || v == 0,
                    cards + 1,
                    r2,
                ));
                e.0 += w * q;
            }
        }
        level = next;
    }
    s
}

fn key(c: &[u8; NV]) -> u64 {
    c.iter()
        .enumerate()
        .fold(0u64, |k, (v, &n)| k | (n as u64) << (6 * v))
}

/// The total-dependent chart with the highest expected value for `rules`, as derived above.
pub fn derive_chart(rules: &Rules) -> Chart {
    let table = DealerTable::shared(rules.h17);
    let sums: Vec<Sums> = (0..NV)
        .into_par_iter()
        .map(|u| sums_for_up(rules, table, u))
        .collect();
    let mut codes = [[Code::H; 10]; ROWS];
    for (u, s) in sums.iter().enumerate() {
        for (row, line) in codes.iter_mut().enumerate() {
            line[u] = choose(row, s);
        }
    }
    Chart::new(codes, "derived")
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
