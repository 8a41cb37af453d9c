//! Exact pieces of Twenty One: single-roll event probabilities of a row by exhaustive
//! enumeration of the 6^6 rolls, and the evaluation of the row-optimal policy.

use super::row::{hits, legal, written};
use super::strategy::{decode, RowTable};

/// Probabilities of one roll's events for a row whose empty boxes are `empty`.
#[derive(Clone, Debug, PartialEq)]
pub struct RowEvents {
    pub empty: u8,
    pub p_any_legal: f64,
    pub expected_legal: f64,
    /// P(k hits), k = 0..=6.
    pub p_hits: [f64; 7],
}

/// Enumerate all 6^6 rolls (dice by colour; a row maps colours to boxes one to one, here
/// colour j to box j: any sheet row gives the same counts).
pub fn row_events(empty: u8) -> RowEvents {
    let mut any = 0u64;
    let mut legal_sum = 0u64;
    let mut h = [0u64; 7];
    let mut vals = [1u8; 6];
    for code in 0..46_656u32 {
        let mut c = code;
        for v in vals.iter_mut() {
            *v = (c % 6) as u8 + 1;
            c /= 6;
        }
        let l = legal(empty, &vals);
        any += (l != 0) as u64;
        legal_sum += l.count_ones() as u64;
        h[hits(empty, &vals).count_ones() as usize] += 1;
    }
    let n = 46_656.0;
    RowEvents {
        empty,
        p_any_legal: any as f64 / n,
        expected_legal: legal_sum as f64 / n,
        p_hits: h.map(|k| k as f64 / n),
    }
}

/// The printed values of a set of boxes, e.g. "6 5 4 3 2 1".
pub fn printed(empty: u8) -> String {
    (0..6)
        .filter(|j| empty >> j & 1 == 1)
        .map(|j| (6 - j).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Expected row points and rolls from each state (e, h) under the table's writing policy
/// (each roll used as it comes; re-rolls are the active player's extra and not counted).
pub fn evaluate(t: &RowTable) -> (Vec<[f64; 7]>, Vec<[f64; 7]>) {
    use super::rules::BONUS;
    let mut pts = vec![[0.0f64; 7]; 64];
    let mut rolls = vec![[0.0f64; 7]; 64];
    let mut order: Vec<u8> = (1..64).collect();
    order.sort_by_key(|e| e.count_ones());
    for &e in &order {
        let n = e.count_ones();
        let codes = 6usize.pow(n);
        for h in 0..=(6 - n as usize) {
            let (mut p, mut r) = (0.0, 0.0);
            for code in 0..codes {
                let vals = decode(e, code);
                let ch = t.choice(e, h as u8, &vals);
                let (e2, h2, gained) = if ch == 0 {
                    (e & !(e & e.wrapping_neg()), h, 0u32)
                } else {
                    let nh = (hits(e, &vals) & ch).count_ones() as usize;
                    let w = written(ch, &vals);
                    (e & !ch, h + nh, w + BONUS[h + nh] - BONUS[h])
                };
                p += gained as f64 + pts[e2 as usize][h2];
                r += rolls[e2 as usize][h2];
            }
            pts[e as usize][h] = p / codes as f64;
            rolls[e as usize][h] = 1.0 + r / codes as f64;
        }
    }
    (pts, rolls)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_row_events_match_closed_forms() {
        let ev = row_events(0x3F);
        // The box printed 6 takes any die: a legal die always exists.
        assert_eq!(ev.p_any_legal, 1.0);
        // Each box is legal with probability printed/6: E = 21/6.
        assert!((ev.expected_legal - 3.5).abs() < 1e-12);
        // Hits are Binomial(6, 1/6).
        for k in 0..=6 {
            let b = (1..=6).product::<u64>() as f64
                / ((1..=k as u64).product::<u64>() * (1..=(6 - k) as u64).product::<u64>()) as f64
                * (1.0f64 / 6.0).powi(k as i32)
                * (5.0f64 / 6.0).powi(6 - k as i32);
            assert!((ev.p_hits[k] - b).abs() < 1e-12, "{k}");
        }
        // Only the boxes printed 2 and 1 left: P(no legal) = (4/6)(5/6).
        let ev = row_events(0b110000);
        assert!((ev.p_any_legal - (1.0 - 4.0 / 6.0 * 5.0 / 6.0)).abs() < 1e-12);
        assert_eq!(printed(0b110000), "2 1");
    }

    #[test]
    fn the_row_value_is_points_minus_c_times_rolls() {
        for c in [0.0, 1.5] {
            let t = RowTable::new(c, 1);
            let (p, r) = evaluate(&t);
            for e in 1..64usize {
                for h in 0..=(6 - e.count_ones() as usize) {
                    let f = p[e][h] - c * r[e][h];
                    assert!(
                        (f - t.f[e][h]).abs() < 1e-6,
                        "e {e} h {h}: {f} vs {}",
                        t.f[e][h]
                    );
                }
            }
            // A higher cost per roll finishes rows in fewer rolls.
            if c > 0.0 {
                let (_, r0) = evaluate(&RowTable::new(0.0, 1));
                assert!(r[0x3F][0] < r0[0x3F][0]);
            }
        }
    }
}
