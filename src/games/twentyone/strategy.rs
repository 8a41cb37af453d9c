//! Twenty One strategies: a writing rule and a re-roll rule per seat.
//!
//! Spec: `WRITE[+REROLL]`. WRITE: `hits-only` (write every exact hit; otherwise the least
//! costly single die, or cross out when that costs less), `slack:K` (write every die within K
//! of its box's printed value; otherwise as hits-only), `greedy` (write every legal die: the
//! most points this roll), `row-optimal:C` (the exact row policy maximizing expected row
//! points minus C per roll). REROLL (active player): `never`, `unless-hit` (re-roll unless the
//! roll has a hit for my row), `unless-usable:N` (re-roll unless N dice are legal for my
//! row), `optimal` (row-optimal only: re-roll when the expected value after re-rolling is
//! higher). Defaults: hits-only+unless-hit, slack:K+unless-usable:3, greedy+unless-usable:3,
//! row-optimal:C+optimal. A path (containing `/` or ending in `.txt`) names a file whose first
//! non-comment line is a spec.

use std::path::Path;
use std::sync::Arc;

use super::row::{hits, leftmost, legal, written, Choice, CROSS};
use super::rules::BONUS;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Write {
    HitsOnly,
    Slack(u8),
    Greedy,
    RowOptimal(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reroll {
    Never,
    UnlessHit,
    UnlessUsable(u8),
    Optimal,
}

#[derive(Clone, Debug)]
pub struct SeatStrategy {
    /// The spec as given (a file's path and spec for a path).
    pub name: String,
    /// The spec itself (a file's spec line for a path).
    pub spec: String,
    pub write: Write,
    pub reroll: Reroll,
    /// The row policy tables (row-optimal only).
    pub table: Option<Arc<RowTable>>,
}

impl PartialEq for SeatStrategy {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name && self.write == o.write && self.reroll == o.reroll
    }
}

impl SeatStrategy {
    /// Parse a spec; `rerolls` is the rules' number of re-rolls (the tables need it).
    pub fn parse(spec: &str, rerolls: u8) -> Result<SeatStrategy, String> {
        let spec = spec.trim();
        if crate::specfile::is_path(spec) {
            return from_file(Path::new(spec), rerolls);
        }
        let (w, r) = match spec.split_once('+') {
            Some((w, r)) => (w, Some(r)),
            None => (spec, None),
        };
        let num = |a: &str, what: &str| -> Result<f64, String> {
            match a.trim().parse::<f64>() {
                Ok(v) if v.is_finite() && (0.0..=100.0).contains(&v) => Ok(v),
                _ => Err(format!(
                    "strategy '{spec}': {what} must be a number from 0 to 100, found '{a}'"
                )),
            }
        };
        let write = match w.split_once(':') {
            None if w == "hits-only" => Write::HitsOnly,
            None if w == "greedy" => Write::Greedy,
            Some(("slack", k)) => {
                let k = num(k, "the slack K")?;
                if k.fract() != 0.0 || k > 5.0 {
                    return Err(format!(
                        "strategy '{spec}': the slack K must be a whole number from 0 to 5"
                    ));
                }
                Write::Slack(k as u8)
            }
            Some(("row-optimal", c)) => Write::RowOptimal(num(c, "the cost per roll C")?),
            None if w == "row-optimal" => {
                return Err(format!(
                    "strategy '{spec}': row-optimal needs its cost per roll, e.g. row-optimal:1.5"
                ))
            }
            _ => {
                return Err(format!(
                    "unknown twenty-one strategy '{}': expected hits-only, slack:K, greedy or \
                     row-optimal:C, optionally +never, +unless-hit, +unless-usable:N or +optimal, \
                     or a strategy file path",
                    crate::door::input::quote(spec)
                ))
            }
        };
        let reroll = match r {
            None => match write {
                Write::HitsOnly => Reroll::UnlessHit,
                Write::Slack(_) | Write::Greedy => Reroll::UnlessUsable(3),
                Write::RowOptimal(_) => Reroll::Optimal,
            },
            Some("never") => Reroll::Never,
            Some("unless-hit") => Reroll::UnlessHit,
            Some("optimal") => {
                if !matches!(write, Write::RowOptimal(_)) {
                    return Err(format!(
                        "strategy '{spec}': +optimal re-rolling needs the row-optimal tables (use row-optimal:C)"
                    ));
                }
                Reroll::Optimal
            }
            Some(x) => match x.split_once(':') {
                Some(("unless-usable", n)) => {
                    let n = num(n, "N")?;
                    if n.fract() != 0.0 || !(1.0..=6.0).contains(&n) {
                        return Err(format!(
                            "strategy '{spec}': unless-usable:N needs N from 1 to 6"
                        ));
                    }
                    Reroll::UnlessUsable(n as u8)
                }
                _ => {
                    return Err(format!(
                        "strategy '{spec}': unknown re-roll rule '+{x}' (expected +never, +unless-hit, +unless-usable:N or +optimal)"
                    ))
                }
            },
        };
        let table = match write {
            Write::RowOptimal(c) => Some(Arc::new(RowTable::new(c, rerolls))),
            _ => None,
        };
        Ok(SeatStrategy {
            name: spec.to_string(),
            spec: spec.to_string(),
            write,
            reroll,
            table,
        })
    }

    /// Which dice to write (or cross) for a row in state (e, h) seeing `vals`.
    pub fn write(&self, e: u8, h: u8, vals: &[u8; 6]) -> Choice {
        let l = legal(e, vals);
        match self.write {
            Write::Greedy => l, // 0 = cross when nothing is legal
            Write::HitsOnly => {
                let hm = hits(e, vals);
                if hm != 0 {
                    hm
                } else {
                    cheapest(e, l, vals)
                }
            }
            Write::Slack(k) => {
                let mut m = 0;
                for (j, &v) in vals.iter().enumerate() {
                    if l >> j & 1 == 1 && 6 - j as u8 - v <= k {
                        m |= 1 << j;
                    }
                }
                if m != 0 {
                    m
                } else {
                    cheapest(e, l, vals)
                }
            }
            Write::RowOptimal(_) => match &self.table {
                Some(t) => t.choice(e, h, vals),
                None => l,
            },
        }
    }

    /// Whether the active player re-rolls, with `left` re-rolls still allowed.
    pub fn reroll(&self, e: u8, h: u8, vals: &[u8; 6], left: u8) -> bool {
        match self.reroll {
            Reroll::Never => false,
            Reroll::UnlessHit => hits(e, vals) == 0,
            Reroll::UnlessUsable(n) => legal(e, vals).count_ones() < n as u32,
            Reroll::Optimal => match &self.table {
                Some(t) => t.wants_reroll(e, h, vals, left),
                None => false,
            },
        }
    }
}

/// The least costly single die (lost points: printed − value), or a cross-out when that
/// costs less (its box's printed value).
fn cheapest(e: u8, l: u8, vals: &[u8; 6]) -> Choice {
    let cross_cost = 6 - leftmost(e).trailing_zeros() as u8;
    let mut best = (cross_cost, CROSS);
    for (j, &v) in vals.iter().enumerate() {
        if l >> j & 1 == 1 {
            let cost = 6 - j as u8 - v;
            if cost <= best.0 {
                best = (cost, 1 << j);
            }
        }
    }
    best.1
}

fn from_file(path: &Path, rerolls: u8) -> Result<SeatStrategy, String> {
    let (n, line) = crate::specfile::read_spec_line(path)?;
    let mut s =
        SeatStrategy::parse(&line, rerolls).map_err(|e| format!("{}:{n}: {e}", path.display()))?;
    s.name = format!("{} ({line})", path.display());
    Ok(s)
}

/// The exact single-row policy: dynamic programming over (empty boxes, hits so far),
/// maximizing expected row points (written values plus bonus) minus `c` per roll, and the
/// re-roll decision from the expected value after re-rolling the non-1 dice.
#[derive(Debug)]
pub struct RowTable {
    pub c: f64,
    pub rerolls: u8,
    /// F(e, h): expected future row points minus c per roll, before the next roll.
    pub f: [[f64; 7]; 64],
    /// Offsets of (e, h) blocks of 6^|e| roll codes.
    off: Vec<usize>,
    /// Value of the best move for a roll, and the move.
    g: Vec<f32>,
    choice: Vec<u8>,
    /// `rr[k-1][(e·7 + h)·64 + locked]`: expected value of re-rolling with k re-rolls left
    /// (this one included), when the boxes in `locked` show 1s (kept).
    rr: Vec<Vec<f32>>,
}

/// The code of a roll seen from the empty boxes `e`: base-6 digits of the values, low box first.
#[inline(always)]
pub fn code(e: u8, vals: &[u8; 6]) -> usize {
    let mut c = 0usize;
    let mut m = 1usize;
    for (j, &v) in vals.iter().enumerate() {
        if e >> j & 1 == 1 {
            c += (v as usize - 1) * m;
            m *= 6;
        }
    }
    c
}

/// The roll of a code (boxes outside `e` show 1).
pub fn decode(e: u8, mut code: usize) -> [u8; 6] {
    let mut vals = [1u8; 6];
    for (j, v) in vals.iter_mut().enumerate() {
        if e >> j & 1 == 1 {
            *v = (code % 6) as u8 + 1;
            code /= 6;
        }
    }
    vals
}

impl RowTable {
    pub fn new(c: f64, rerolls: u8) -> RowTable {
        let mut off = vec![0usize; 64 * 7 + 1];
        let mut total = 0;
        for e in 0..64usize {
            for h in 0..7 {
                off[e * 7 + h] = total;
                total += 6usize.pow((e as u8).count_ones());
            }
        }
        off[64 * 7] = total;
        let mut t = RowTable {
            c,
            rerolls,
            f: [[0.0; 7]; 64],
            off,
            g: vec![0.0; total],
            choice: vec![0; total],
            rr: Vec::new(),
        };
        let mut order: Vec<u8> = (1..64).collect();
        order.sort_by_key(|e| e.count_ones());
        for &e in &order {
            let n = e.count_ones();
            let codes = 6usize.pow(n);
            for h in 0..=(6 - n as usize) {
                let mut sum = 0.0;
                for code in 0..codes {
                    let vals = decode(e, code);
                    let (v, ch) = t.best(e, h as u8, &vals);
                    let i = t.off[e as usize * 7 + h] + code;
                    t.g[i] = v as f32;
                    t.choice[i] = ch;
                    sum += v;
                }
                t.f[e as usize][h] = sum / codes as f64 - c;
            }
        }
        // Re-roll values: rr_k(e, h, locked) = mean over re-rolled outcomes of
        // W_{k-1}(roll) where W_0 = G and W_k = max(G, rr_k(locked(roll))).
        for k in 1..=rerolls as usize {
            let mut rr = vec![0f32; 64 * 7 * 64];
            for &e in &order {
                let n = e.count_ones();
                let codes = 6usize.pow(n);
                for h in 0..=(6 - n as usize) {
                    let base = (e as usize * 7 + h) * 64;
                    let mut acc = [0f64; 64];
                    for code in 0..codes {
                        let vals = decode(e, code);
                        let w = t.w(k - 1, e, h as u8, &vals, code);
                        let ones = ones(e, &vals);
                        // Every locked subset of this roll's 1s is consistent with it.
                        let mut s = ones;
                        loop {
                            acc[s as usize] += w;
                            if s == 0 {
                                break;
                            }
                            s = (s - 1) & ones;
                        }
                    }
                    for locked in 0..64u8 {
                        if locked & !e != 0 {
                            continue;
                        }
                        let free = n - locked.count_ones();
                        rr[base + locked as usize] =
                            (acc[locked as usize] / 6f64.powi(free as i32)) as f32;
                    }
                }
            }
            t.rr.push(rr);
        }
        t
    }

    /// W_k: value of a roll with k re-rolls left (0: the roll must be used).
    fn w(&self, k: usize, e: u8, h: u8, vals: &[u8; 6], code: usize) -> f64 {
        let g = self.g[self.off[e as usize * 7 + h as usize] + code] as f64;
        if k == 0 {
            return g;
        }
        let r = self.rr[k - 1][(e as usize * 7 + h as usize) * 64 + ones(e, vals) as usize] as f64;
        g.max(r)
    }

    /// The best move for a roll and its value (immediate points + F of the next state).
    fn best(&self, e: u8, h: u8, vals: &[u8; 6]) -> (f64, Choice) {
        let rest = e & !leftmost(e);
        let mut best = (self.f[rest as usize][h as usize], CROSS);
        let l = legal(e, vals);
        let hm = hits(e, vals);
        let mut s = l;
        while s != 0 {
            let pts = written(s, vals);
            let nh = (hm & s).count_ones() as usize;
            let h2 = h as usize + nh;
            let v = (pts + BONUS[h2] - BONUS[h as usize]) as f64 + self.f[(e & !s) as usize][h2];
            if v > best.0 {
                best = (v, s);
            }
            s = (s - 1) & l;
        }
        best
    }

    pub fn choice(&self, e: u8, h: u8, vals: &[u8; 6]) -> Choice {
        self.choice[self.off[e as usize * 7 + h as usize] + code(e, vals)]
    }

    /// Value of using this roll now.
    pub fn value_now(&self, e: u8, h: u8, vals: &[u8; 6]) -> f64 {
        self.g[self.off[e as usize * 7 + h as usize] + code(e, vals)] as f64
    }

    /// Expected value of re-rolling (with `left` re-rolls allowed, this one included).
    pub fn reroll_value(&self, e: u8, h: u8, vals: &[u8; 6], left: u8) -> f64 {
        let k = (left as usize).min(self.rr.len());
        if k == 0 {
            return f64::NEG_INFINITY;
        }
        self.rr[k - 1][(e as usize * 7 + h as usize) * 64 + ones(e, vals) as usize] as f64
    }

    pub fn wants_reroll(&self, e: u8, h: u8, vals: &[u8; 6], left: u8) -> bool {
        self.reroll_value(e, h, vals, left) > self.value_now(e, h, vals) + 1e-6
    }
}

/// Empty boxes whose die shows a 1 (kept on a re-roll).
#[inline(always)]
pub fn ones(e: u8, vals: &[u8; 6]) -> u8 {
    let mut m = 0;
    for (j, &v) in vals.iter().enumerate() {
        if e >> j & 1 == 1 && v == 1 {
            m |= 1 << j;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_specs_are_named() {
        let s = SeatStrategy::parse("hits-only", 1).unwrap();
        assert_eq!((s.write, s.reroll), (Write::HitsOnly, Reroll::UnlessHit));
        let s = SeatStrategy::parse("slack:1+unless-usable:2", 1).unwrap();
        assert_eq!(
            (s.write, s.reroll),
            (Write::Slack(1), Reroll::UnlessUsable(2))
        );
        assert!(SeatStrategy::parse("row-optimal:1", 1)
            .unwrap()
            .table
            .is_some());
        for (bad, needle) in [
            ("lucky", "unknown"),
            ("slack:x", "number"),
            ("slack:9", "0 to 5"),
            ("greedy+optimal", "row-optimal tables"),
            ("greedy+sometimes", "unknown re-roll rule"),
            ("hits-only+unless-usable:9", "1 to 6"),
            ("row-optimal", "cost per roll"),
        ] {
            let e = SeatStrategy::parse(bad, 1).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn heuristics_choose_as_documented() {
        let hits_only = SeatStrategy::parse("hits-only", 1).unwrap();
        let greedy = SeatStrategy::parse("greedy", 1).unwrap();
        let slack1 = SeatStrategy::parse("slack:1", 1).unwrap();
        // Boxes printed 6..1; dice: 6 (hit), 3 (2 short), 4 (hit), 6 (too high), 1 (1 short),
        // 1 (hit).
        let vals = [6, 3, 4, 6, 1, 1];
        assert_eq!(hits_only.write(FULL_ROW, 0, &vals), 0b100101);
        assert_eq!(greedy.write(FULL_ROW, 0, &vals), 0b110111);
        assert_eq!(slack1.write(FULL_ROW, 0, &vals), 0b110101);
        // No hit: the least costly die (a 4 in the 5-box costs 1) beats crossing the 6-box.
        let vals = [5, 4, 6, 6, 6, 6];
        assert_eq!(hits_only.write(FULL_ROW, 0, &vals), 0b000010);
        // Nothing legal: cross.
        assert_eq!(greedy.write(0b110000, 0, &[6, 6, 6, 6, 6, 6]), CROSS);
        // Any legal die costs less than crossing: the leftmost empty box has the highest
        // printed value of the row. A 1 in the 6-box (cost 5) beats crossing it (cost 6).
        assert_eq!(hits_only.write(0b111001, 0, &[1, 6, 6, 6, 6, 6]), 0b000001);
        assert_eq!(hits_only.write(0b111000, 0, &[1, 6, 6, 6, 6, 6]), CROSS);
        assert!(hits_only.reroll(FULL_ROW, 0, &[5, 4, 3, 2, 1, 6], 1));
        assert!(!hits_only.reroll(FULL_ROW, 0, &[6, 4, 3, 2, 1, 6], 1));
    }

    const FULL_ROW: u8 = 0x3F;

    #[test]
    fn row_table_is_consistent_with_hand_values() {
        let t = RowTable::new(0.0, 1);
        // One box left, printed 1, no hits yet: any roll of its die... a 1 is a hit (1 point
        // plus bonus 1), anything else is not legal and the box is crossed: F = 2/6 (c = 0).
        let e = 0b100000;
        assert!((t.f[e][0] - 2.0 / 6.0).abs() < 1e-9, "{}", t.f[e][0]);
        // The last box printed 6: every value is legal; a 6 is a hit (6 + 1), others score v.
        let e = 0b000001;
        assert!((t.f[e][0] - (1.0 + 2.0 + 3.0 + 4.0 + 5.0 + 7.0) / 6.0).abs() < 1e-9);
        // With c > 0 each roll costs c.
        let tc = RowTable::new(1.0, 1);
        assert!((tc.f[0b000001][0] - (t.f[0b000001][0] - 1.0)).abs() < 1e-9);
        // Re-rolling a 1 on the last empty box printed 6 is worth it (E = 22/6 > 1).
        // A 1 is locked: re-rolling it changes nothing, so it is not worth it.
        assert!(!t.wants_reroll(0b000001, 0, &[1, 1, 1, 1, 1, 1], 1));
        assert!(t.wants_reroll(0b000001, 0, &[2, 1, 1, 1, 1, 1], 1));
        assert!(!t.wants_reroll(0b000001, 0, &[6, 1, 1, 1, 1, 1], 1));
        // A whole row is worth between 0 and 42.
        assert!(t.f[0x3F][0] > 10.0 && t.f[0x3F][0] < 42.0);
    }
}
