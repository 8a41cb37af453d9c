//! One row of a Twenty One sheet: legality, writing and crossing out, and scoring.
//!
//! A row's state is the mask of empty boxes `e` (bit j = box j, printed 6 − j) and the hits so
//! far `h`. A roll, seen from a row, is the value of the die whose colour each box has:
//! `vals[j]`.

use super::rules::BONUS;

pub const FULL: u8 = 0x3F;

/// Boxes where the die may be written: empty, and value ≤ printed.
#[inline(always)]
pub fn legal(e: u8, vals: &[u8; 6]) -> u8 {
    let mut m = 0;
    for (j, &v) in vals.iter().enumerate() {
        if e >> j & 1 == 1 && v <= 6 - j as u8 {
            m |= 1 << j;
        }
    }
    m
}

/// Empty boxes whose die is an exact hit.
#[inline(always)]
pub fn hits(e: u8, vals: &[u8; 6]) -> u8 {
    let mut m = 0;
    for (j, &v) in vals.iter().enumerate() {
        if e >> j & 1 == 1 && v == 6 - j as u8 {
            m |= 1 << j;
        }
    }
    m
}

/// Sum of the dice written into the boxes of `mask`.
#[inline(always)]
pub fn written(mask: u8, vals: &[u8; 6]) -> u32 {
    vals.iter()
        .enumerate()
        .filter(|(j, _)| mask >> j & 1 == 1)
        .map(|(_, &v)| v as u32)
        .sum()
}

/// Leftmost empty box (the one a cross-out takes).
#[inline(always)]
pub fn leftmost(e: u8) -> u8 {
    e & e.wrapping_neg()
}

/// What a player does with a roll: write the dice of these boxes (non-empty), or cross out
/// (`0`) the leftmost empty box.
pub type Choice = u8;
pub const CROSS: Choice = 0;

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("box {0} (printed {1}) is already filled")]
    Filled(usize, u8),
    #[error("die {2} may not be written in box {0} printed {1} (value above the printed one)")]
    TooHigh(usize, u8, u8),
    #[error("the row is finished")]
    Finished,
}

/// The state of a player's current row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub empty: u8,
    pub hits: u8,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            empty: FULL,
            hits: 0,
        }
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gain {
    /// Written values plus the bonus increase from new hits.
    pub points: u32,
    pub hits: u8,
    pub crossed: bool,
}

impl Row {
    /// Apply a choice, checking legality.
    pub fn apply(&mut self, vals: &[u8; 6], c: Choice) -> Result<Gain, Illegal> {
        if self.empty == 0 {
            return Err(Illegal::Finished);
        }
        if c == CROSS {
            self.empty &= !leftmost(self.empty);
            return Ok(Gain {
                crossed: true,
                ..Gain::default()
            });
        }
        for (j, &v) in vals.iter().enumerate() {
            if c >> j & 1 == 0 {
                continue;
            }
            let p = 6 - j as u8;
            if self.empty >> j & 1 == 0 {
                return Err(Illegal::Filled(j, p));
            }
            if v > p {
                return Err(Illegal::TooHigh(j, p, v));
            }
        }
        let mut g = Gain {
            points: written(c, vals),
            hits: (hits(self.empty, vals) & c).count_ones() as u8,
            crossed: false,
        };
        g.points += BONUS[(self.hits + g.hits) as usize] - BONUS[self.hits as usize];
        self.hits += g.hits;
        self.empty &= !c;
        Ok(g)
    }

    pub fn finished(&self) -> bool {
        self.empty == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legality_of_every_kind_of_move() {
        let mut r = Row::default();
        // Box 0 printed 6 ... box 5 printed 1.
        let vals = [6, 6, 3, 4, 1, 1];
        assert_eq!(legal(FULL, &vals), 0b110101);
        assert_eq!(hits(FULL, &vals), 0b100001);
        // A die above the printed value may not be written.
        assert_eq!(r.apply(&vals, 0b000010), Err(Illegal::TooHigh(1, 5, 6)));
        assert_eq!(r.apply(&vals, 0b001000), Err(Illegal::TooHigh(3, 3, 4)));
        assert_eq!(r, Row::default(), "an illegal move changes nothing");
        // Write the 6 (hit) and the 3 in box printed 4.
        let g = r.apply(&vals, 0b000101).unwrap();
        assert_eq!(
            g,
            Gain {
                points: 6 + 3 + 1,
                hits: 1,
                crossed: false
            }
        );
        // A filled box may not be written again.
        assert_eq!(r.apply(&vals, 0b000001), Err(Illegal::Filled(0, 6)));
        // Crossing out takes the leftmost empty box (printed 5).
        let g = r.apply(&vals, CROSS).unwrap();
        assert!(g.crossed && g.points == 0);
        assert_eq!(r.empty, 0b111000);
        assert_eq!(legal(r.empty, &vals), 0b110000);
    }

    #[test]
    fn row_scoring_with_bonuses() {
        // Six hits: 21 points written + bonus 21 = 42, the maximum of a row.
        let mut r = Row::default();
        let perfect = [6, 5, 4, 3, 2, 1];
        let mut total = 0;
        for j in 0..6 {
            total += r.apply(&perfect, 1 << j).unwrap().points;
        }
        assert_eq!(total, 42);
        assert!(r.finished());
        assert_eq!(r.apply(&perfect, 1), Err(Illegal::Finished));
        // Three hits (6, 4, 1), a 2 in the 5-box, a cross, a 1 in the 2-box: 6+4+1+2+1 = 14
        // written, bonus for 3 hits = 6.
        let mut r = Row::default();
        let mut t = 0;
        t += r.apply(&[6, 2, 4, 0, 0, 1], 0b100111).unwrap().points;
        t += r.apply(&[0, 0, 0, 6, 1, 0], CROSS).unwrap().points;
        t += r.apply(&[0, 0, 0, 0, 1, 0], 0b010000).unwrap().points;
        assert_eq!(t, 14 + 6);
        assert!(r.finished());
    }
}
