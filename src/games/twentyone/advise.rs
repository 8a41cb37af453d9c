//! `advise twenty-one`: for a roll seen from one row, every legal write, the cross-out and (for
//! the active player with a re-roll left) the re-roll, valued under the row-optimal policy:
//! the expected points the row still gives (written values plus bonus) minus C per roll.

use serde::Serialize;

use super::row::{hits, leftmost, legal, written};
use super::rules::{colour, BONUS, LETTERS};
use super::strategy::RowTable;

/// A row, what is filled, and a roll.
#[derive(Clone, Debug)]
pub struct TwentyOneAdviseRequest {
    /// `row[j]`: the colour (0..6, die order) of box j, printed 6 − j.
    pub row: [u8; 6],
    /// Boxes already written or crossed out (bit j = box j).
    pub filled: u8,
    /// Exact hits so far in this row.
    pub hits: u8,
    /// `roll[c]`: the value of the die of colour c.
    pub roll: [u8; 6],
    /// Re-rolls of the non-1 dice still allowed (0 for a player who is not active).
    pub rerolls_left: u8,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TwentyOneAdviseError {
    #[error("--row {0}: expected six boxes left to right, one of each colour (e.g. \"W6 K5 R4 B3 Y2 G1\")")]
    Row(String),
    #[error("--row box '{0}': printed values run 6, 5, 4, 3, 2, 1 from the left")]
    Printed(String),
    #[error("--filled {0}: expected colours of the row (W, K, R, B, Y, G), each at most once, not all six (a full row has nothing to decide)")]
    Filled(String),
    #[error("--hits {hits}: at most the number of boxes filled ({filled})")]
    Hits { hits: u8, filled: u32 },
    #[error("--hits 0: box {0} (printed 1) is filled, so it was written with a 1, an exact hit (a cross-out takes the leftmost empty box, and the row has an empty box left of it)")]
    OneWritten(String),
    #[error("--roll {0}: expected six dice, one of each colour, as colour and value (e.g. \"W3 K5 R1 B6 Y2 G4\")")]
    Roll(String),
    #[error("--rerolls-left {0}: at most the rules' {1}")]
    Rerolls(u8, u8),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TwentyOneOption {
    /// "write W6=6 R4=4", "cross out K5" or "re-roll the non-1 dice".
    pub action: String,
    /// Points written now (with the bonus they add).
    pub points_now: u32,
    /// Expected row points from here (now included) minus C per roll.
    pub ev: f64,
    pub vs_best: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TwentyOneAdvice {
    pub c: f64,
    pub options: Vec<TwentyOneOption>,
    /// Index of the best option (sorted best first: 0).
    pub best: usize,
}

fn tokens(s: &str) -> Vec<&str> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect()
}

/// A token "W6" or "white6" or "W": its colour and the digit after it, if any.
fn colour_value(t: &str) -> Option<(u8, Option<u8>)> {
    let split = t.find(|c: char| c.is_ascii_digit()).unwrap_or(t.len());
    let (name, digits) = t.split_at(split);
    let c = colour(name)?;
    match digits {
        "" => Some((c, None)),
        d => d.parse::<u8>().ok().map(|v| (c, Some(v))),
    }
}

/// Parse `--row`, `--filled` and `--roll` (with the hits and re-rolls as given).
pub fn parse(
    row: &str,
    filled: &str,
    hits_so_far: u8,
    roll: &str,
    rerolls_left: u8,
) -> Result<TwentyOneAdviseRequest, TwentyOneAdviseError> {
    let bad_row = || TwentyOneAdviseError::Row(row.to_string());
    let boxes = tokens(row);
    if boxes.len() != 6 {
        return Err(bad_row());
    }
    let mut r = [0u8; 6];
    for (j, t) in boxes.iter().enumerate() {
        let (c, v) = colour_value(t).ok_or_else(bad_row)?;
        if v.is_some_and(|v| v != 6 - j as u8) {
            return Err(TwentyOneAdviseError::Printed(t.to_string()));
        }
        if r[..j].contains(&c) {
            return Err(bad_row());
        }
        r[j] = c;
    }
    let bad_filled = || TwentyOneAdviseError::Filled(filled.to_string());
    let mut mask = 0u8;
    for t in tokens(filled) {
        let (c, _) = colour_value(t).ok_or_else(bad_filled)?;
        let j = r
            .iter()
            .position(|&x| x == c)
            .expect("every colour is in the row");
        if mask >> j & 1 == 1 {
            return Err(bad_filled());
        }
        mask |= 1 << j;
    }
    if mask == 0x3F {
        return Err(bad_filled());
    }
    if hits_so_far as u32 > mask.count_ones() {
        return Err(TwentyOneAdviseError::Hits {
            hits: hits_so_far,
            filled: mask.count_ones(),
        });
    }
    // A cross-out takes the leftmost empty box, so the box printed 1 (the rightmost) is
    // crossed out only as a row's last box: filled in a row that is not full, it was written,
    // and the only die it takes is a 1, an exact hit.
    if mask >> 5 & 1 == 1 && hits_so_far == 0 {
        return Err(TwentyOneAdviseError::OneWritten(format!(
            "{}1",
            LETTERS[r[5] as usize]
        )));
    }
    let bad_roll = || TwentyOneAdviseError::Roll(roll.to_string());
    let dice = tokens(roll);
    if dice.len() != 6 {
        return Err(bad_roll());
    }
    let mut values = [0u8; 6];
    for t in dice {
        match colour_value(t) {
            Some((c, Some(v @ 1..=6))) if values[c as usize] == 0 => values[c as usize] = v,
            _ => return Err(bad_roll()),
        }
    }
    Ok(TwentyOneAdviseRequest {
        row: r,
        filled: mask,
        hits: hits_so_far,
        roll: values,
        rerolls_left,
    })
}

fn box_name(req: &TwentyOneAdviseRequest, j: usize) -> String {
    format!("{}{}", LETTERS[req.row[j] as usize], 6 - j)
}

/// The advice from the row-optimal table `t` (its C and re-roll count).
pub fn advise(
    t: &RowTable,
    req: &TwentyOneAdviseRequest,
) -> Result<TwentyOneAdvice, TwentyOneAdviseError> {
    if req.rerolls_left > t.rerolls {
        return Err(TwentyOneAdviseError::Rerolls(req.rerolls_left, t.rerolls));
    }
    let e = 0x3F & !req.filled;
    let h = req.hits as usize;
    // The roll seen from the row: the value of each box's colour.
    let vals: [u8; 6] = std::array::from_fn(|j| req.roll[req.row[j] as usize]);
    let mut options = Vec::new();
    let (l, hm) = (legal(e, &vals), hits(e, &vals));
    let mut s = l;
    while s != 0 {
        let pts = written(s, &vals);
        let h2 = h + (hm & s).count_ones() as usize;
        let now = pts + BONUS[h2] - BONUS[h];
        let boxes: Vec<String> = (0..6)
            .filter(|j| s >> j & 1 == 1)
            .map(|j| format!("{}={}", box_name(req, j), vals[j]))
            .collect();
        options.push(TwentyOneOption {
            action: format!("write {}", boxes.join(" ")),
            points_now: now,
            ev: now as f64 + t.f[(e & !s) as usize][h2],
            vs_best: 0.0,
        });
        s = (s - 1) & l;
    }
    let cross = leftmost(e);
    options.push(TwentyOneOption {
        action: format!(
            "cross out {}",
            box_name(req, cross.trailing_zeros() as usize)
        ),
        points_now: 0,
        ev: t.f[(e & !cross) as usize][h],
        vs_best: 0.0,
    });
    // A re-roll keeps the 1s: when every empty box of the row shows a 1 it changes nothing
    // here, so it is no option (its value, that of writing now, used to tie the best write
    // and be named best by float rounding).
    if req.rerolls_left > 0 && super::strategy::ones(e, &vals) != e {
        options.push(TwentyOneOption {
            action: "re-roll the non-1 dice".into(),
            points_now: 0,
            ev: t.reroll_value(e, h as u8, &vals, req.rerolls_left),
            vs_best: 0.0,
        });
    }
    options.sort_by(|a, b| b.ev.total_cmp(&a.ev));
    let best = options[0].ev;
    for o in &mut options {
        o.vs_best = o.ev - best;
    }
    Ok(TwentyOneAdvice {
        c: t.c,
        options,
        best: 0,
    })
}

/// The advice as a report.
pub fn render(a: &TwentyOneAdvice, req: &TwentyOneAdviseRequest) -> crate::report::Report {
    use crate::report::{Cell, Report, Section};
    let mut r = Report {
        title: "rtplab Twenty One advice".into(),
        ..Default::default()
    };
    let row: Vec<String> = (0..6)
        .map(|j| {
            let mut b = box_name(req, j);
            if req.filled >> j & 1 == 1 {
                b.push_str("(filled)");
            }
            b
        })
        .collect();
    r.meta.push(("row".into(), row.join(" ")));
    r.meta.push(("hits so far".into(), req.hits.to_string()));
    let roll: Vec<String> = (0..6)
        .map(|c| format!("{}{}", LETTERS[c], req.roll[c]))
        .collect();
    r.meta.push(("roll".into(), roll.join(" ")));
    r.meta.push((
        "value".into(),
        format!(
            "expected points the row still gives (written values and bonus) minus {} per roll, row-optimal play",
            a.c
        ),
    ));
    let mut s = Section::new(
        "Each choice",
        &["action", "points now", "value", "against the best", ""],
    );
    for (i, o) in a.options.iter().enumerate() {
        s.row([
            Cell::from(o.action.clone()),
            Cell::num(o.points_now.to_string(), o.points_now as f64, "points"),
            Cell::num(format!("{:.3}", o.ev), o.ev, "points"),
            Cell::num(format!("{:+.3}", o.vs_best), o.vs_best, "points"),
            Cell::from(if i == a.best { "best" } else { "" }),
        ]);
    }
    r.sections.push(s);
    r.json = serde_json::to_value(a).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: &str = "W6 K5 R4 B3 Y2 G1";

    #[test]
    fn the_values_are_the_row_optimal_policys() {
        let t = RowTable::new(1.0, 1);
        // Every roll for a half-filled row: the best write or cross-out is the table's value
        // of using the roll, and the re-roll its re-roll value.
        let req0 = parse(ROW, "W K", 1, "W1 K1 R1 B1 Y1 G1", 1).unwrap();
        let e = 0x3F & !req0.filled;
        for code in 0..6usize.pow(6) {
            let mut roll = [0u8; 6];
            let mut c = code;
            for v in roll.iter_mut() {
                *v = (c % 6) as u8 + 1;
                c /= 6;
            }
            let req = TwentyOneAdviseRequest {
                roll,
                ..req0.clone()
            };
            let a = advise(&t, &req).unwrap();
            let vals: [u8; 6] = std::array::from_fn(|j| roll[req.row[j] as usize]);
            let use_now = a
                .options
                .iter()
                .filter(|o| !o.action.starts_with("re-roll"))
                .map(|o| o.ev)
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                (use_now - t.value_now(e, 1, &vals)).abs() < 1e-4,
                "{roll:?}"
            );
            let rr = a.options.iter().find(|o| o.action.starts_with("re-roll"));
            // Offered unless every empty box shows a 1 (then it would change nothing).
            match rr {
                Some(rr) => assert_eq!(rr.ev, t.reroll_value(e, 1, &vals, 1)),
                None => assert_eq!(crate::games::twentyone::strategy::ones(e, &vals), e),
            }
        }
    }

    #[test]
    fn a_last_box_by_hand() {
        // Only G1 (printed 1) is empty, five hits so far: a 1 there is one point and the
        // sixth hit's bonus (21 − 15): 7, and the row is done; crossing out is worth 0.
        let t = RowTable::new(0.0, 1);
        let req = parse(ROW, "W K R B Y", 5, "W6 K6 R6 B6 Y6 G1", 0).unwrap();
        let a = advise(&t, &req).unwrap();
        assert_eq!(a.options[0].action, "write G1=1");
        assert_eq!(a.options[0].points_now, 7);
        assert_eq!(a.options[0].ev, 7.0);
        assert_eq!(a.options[1].action, "cross out G1");
        assert_eq!(a.options[1].ev, 0.0);
        assert_eq!(a.options[1].vs_best, -7.0);
    }

    #[test]
    fn no_reroll_when_every_empty_box_shows_a_one() {
        // Every die a 1, or the row's only empty box showing one: a re-roll changes nothing in
        // this row. It was offered and named best (18.70145 against writing's 18.70144).
        let t = RowTable::new(1.0, 1);
        for (filled, roll) in [
            ("", "W1 K1 R1 B1 Y1 G1"),
            ("W K R B Y", "W3 K5 R2 B6 Y2 G1"),
        ] {
            let req = parse(ROW, filled, 0, roll, 1).unwrap();
            let a = advise(&t, &req).unwrap();
            assert!(
                a.options.iter().all(|o| !o.action.starts_with("re-roll")),
                "{a:?}"
            );
            assert!(a.options[0].action.starts_with("write"), "{a:?}");
        }
        // One empty box not showing a 1: the re-roll is offered.
        let req = parse(ROW, "W K R B", 0, "W3 K5 R2 B6 Y2 G1", 1).unwrap();
        let a = advise(&t, &req).unwrap();
        assert!(
            a.options.iter().any(|o| o.action.starts_with("re-roll")),
            "{a:?}"
        );
    }

    #[test]
    fn impossible_positions_are_refused() {
        let roll = "W1 K2 R3 B4 Y5 G6";
        assert!(matches!(
            parse("W6 K5 R4", "", 0, roll, 0),
            Err(TwentyOneAdviseError::Row(_))
        ));
        assert!(matches!(
            parse("W5 K6 R4 B3 Y2 G1", "", 0, roll, 0),
            Err(TwentyOneAdviseError::Printed(_))
        ));
        assert!(matches!(
            parse(ROW, "W W", 0, roll, 0),
            Err(TwentyOneAdviseError::Filled(_))
        ));
        assert!(matches!(
            parse(ROW, "W K R B Y G", 0, roll, 0),
            Err(TwentyOneAdviseError::Filled(_))
        ));
        assert!(matches!(
            parse(ROW, "W", 2, roll, 0),
            Err(TwentyOneAdviseError::Hits { .. })
        ));
        // G1 filled in a row that is not full: written with a 1, a hit.
        assert_eq!(
            parse(ROW, "W G", 0, roll, 0).unwrap_err(),
            TwentyOneAdviseError::OneWritten("G1".into())
        );
        assert_eq!(parse(ROW, "W G", 1, roll, 0).unwrap().hits, 1);
        assert!(parse(ROW, "W K", 0, roll, 0).is_ok());
        assert!(matches!(
            parse(ROW, "", 0, "W1 K2 R3 B4 Y5 W6", 0),
            Err(TwentyOneAdviseError::Roll(_))
        ));
        assert!(matches!(
            parse(ROW, "", 0, "W1 K2 R3 B4 Y5 G7", 0),
            Err(TwentyOneAdviseError::Roll(_))
        ));
        let t = RowTable::new(1.0, 1);
        let req = parse(ROW, "", 0, roll, 2).unwrap();
        assert_eq!(
            advise(&t, &req).unwrap_err(),
            TwentyOneAdviseError::Rerolls(2, 1)
        );
    }
}
