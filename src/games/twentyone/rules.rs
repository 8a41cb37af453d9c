//! Twenty One (roll-and-write) rules and score sheets (docs/rules.md §2).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::rng::{below, Rng, SeedableRng};

/// The six dice colours, in die order.
pub const COLOURS: [&str; 6] = ["white", "black", "red", "blue", "yellow", "green"];
/// One-letter names (black is K).
pub const LETTERS: [char; 6] = ['W', 'K', 'R', 'B', 'Y', 'G'];
/// Row bonus by number of hits in the row.
pub const BONUS: [u32; 7] = [0, 1, 3, 6, 10, 15, 21];
pub const ROWS: usize = 5;

/// A score sheet: `rows[r][j]` is the colour (0..6) of box j of row r; box j is printed with
/// the value 6 − j.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub name: String,
    pub rows: [[u8; 6]; ROWS],
}

impl Sheet {
    /// Printed value of box j.
    #[inline(always)]
    pub fn printed(j: usize) -> u8 {
        6 - j as u8
    }

    /// `box_of[r][colour]`: the box of that colour in row r.
    pub fn box_of(&self) -> [[u8; 6]; ROWS] {
        let mut b = [[0u8; 6]; ROWS];
        for r in 0..ROWS {
            for j in 0..6 {
                b[r][self.rows[r][j] as usize] = j as u8;
            }
        }
        b
    }
}

/// The six standard sheets A–F. The real arrangements are not public, so they are generated
/// deterministically: every row a permutation of the colours, drawn from a fixed stream.
pub fn standard_sheets() -> Vec<Sheet> {
    let mut rng = Rng::seed_from_u64(0x2101_2017);
    (0..6)
        .map(|s| {
            let mut rows = [[0u8; 6]; ROWS];
            for row in rows.iter_mut() {
                let mut p = [0u8, 1, 2, 3, 4, 5];
                for i in (1..6).rev() {
                    let k = below(&mut rng, i as u32 + 1) as usize;
                    p.swap(i, k);
                }
                *row = p;
            }
            Sheet {
                name: ((b'A' + s as u8) as char).to_string(),
                rows,
            }
        })
        .collect()
}

/// Read sheets from a file: one line per row, `SHEET,ROW,c1,c2,c3,c4,c5,c6` (colours by name
/// or letter W K R B Y G, for the boxes printed 6 5 4 3 2 1), `#` comments, blank lines
/// ignored. Every sheet needs rows 1–5, each a permutation of the six colours.
pub fn read_sheets(path: &Path) -> Result<Vec<Sheet>, String> {
    let text =
        crate::door::input::read_text(path, "sheet file", crate::door::input::MAX_TEXT_BYTES)
            .map_err(|e| e.to_string())?;
    parse_sheets(&text, &path.display().to_string())
}

pub fn parse_sheets(text: &str, name: &str) -> Result<Vec<Sheet>, String> {
    let mut sheets: Vec<(String, [Option<[u8; 6]>; ROWS])> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() || line.to_ascii_lowercase().starts_with("sheet,") {
            continue;
        }
        let at = |col: usize, msg: String| format!("{name}:{}:{col}: {msg}", i + 1);
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 8 {
            return Err(at(
                1,
                format!("expected 8 fields SHEET,ROW,c1..c6, found {}", f.len()),
            ));
        }
        let row: usize = match f[1].parse::<usize>() {
            Ok(r) if (1..=ROWS).contains(&r) => r - 1,
            _ => return Err(at(2, format!("row must be 1 to 5, found '{}'", f[1]))),
        };
        let mut cols = [0u8; 6];
        let mut seen = [false; 6];
        for k in 0..6 {
            let c = colour(f[2 + k]).ok_or_else(|| {
                at(
                    3 + k,
                    format!(
                        "'{}' is not a colour (white/W, black/K, red/R, blue/B, yellow/Y, green/G)",
                        f[2 + k]
                    ),
                )
            })?;
            if seen[c as usize] {
                return Err(at(
                    3 + k,
                    format!(
                        "colour {} appears twice in the row: a row holds each colour once",
                        COLOURS[c as usize]
                    ),
                ));
            }
            seen[c as usize] = true;
            cols[k] = c;
        }
        let idx = match sheets.iter().position(|s| s.0 == f[0]) {
            Some(i) => i,
            None => {
                sheets.push((f[0].to_string(), [None; ROWS]));
                sheets.len() - 1
            }
        };
        if sheets[idx].1[row].is_some() {
            return Err(at(2, format!("sheet {} row {} given twice", f[0], row + 1)));
        }
        sheets[idx].1[row] = Some(cols);
    }
    if sheets.is_empty() {
        return Err(format!("{name}: no sheet rows found"));
    }
    sheets
        .into_iter()
        .map(|(n, rows)| {
            let mut out = [[0u8; 6]; ROWS];
            for (r, row) in rows.iter().enumerate() {
                out[r] = row.ok_or_else(|| format!("{name}: sheet {n} has no row {}", r + 1))?;
            }
            Ok(Sheet { name: n, rows: out })
        })
        .collect()
}

/// A colour by name or letter (white/W, black/K, red/R, blue/B, yellow/Y, green/G).
pub fn colour(s: &str) -> Option<u8> {
    let l = s.to_ascii_lowercase();
    if let Some(i) = COLOURS.iter().position(|c| *c == l) {
        return Some(i as u8);
    }
    let mut chars = l.chars();
    match (chars.next(), chars.next()) {
        (Some(ch), None) => LETTERS
            .iter()
            .position(|&c| c.eq_ignore_ascii_case(&ch))
            .map(|i| i as u8),
        _ => None,
    }
}

/// A validated rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwentyOneRules {
    /// Re-rolls of the non-1 dice the active player may take (1 by the published game).
    pub rerolls: u8,
    pub bonus: [u32; 7],
    /// Sheets dealt to seats in order (seat i gets sheet i).
    pub sheets: Vec<Sheet>,
    /// Where the sheets came from.
    pub sheet_source: String,
}

impl TwentyOneRules {
    pub fn standard() -> TwentyOneRules {
        TwentyOneRules {
            rerolls: 1,
            bonus: BONUS,
            sheets: standard_sheets(),
            sheet_source: "standard A-F (generated)".into(),
        }
    }

    pub fn validate(&self, players: usize) -> Result<(), String> {
        if self.rerolls > 5 {
            return Err(format!(
                "--rerolls {}: at most 5 re-rolls (the game has 1; the seed's literal reading 2)",
                self.rerolls
            ));
        }
        if !(1..=6).contains(&players) {
            return Err(format!(
                "{players} players: Twenty One is for 1 to 6 players (one sheet each)"
            ));
        }
        if self.sheets.len() < players {
            return Err(format!(
                "{players} players need {players} different sheets; {} has {}",
                self.sheet_source,
                self.sheets.len()
            ));
        }
        Ok(())
    }

    pub fn summary(&self) -> String {
        format!(
            "{} re-roll(s) of the non-1 dice, bonus {:?}, sheets: {}",
            self.rerolls, self.bonus, self.sheet_source
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_sheets_are_permutations_and_differ() {
        let s = standard_sheets();
        assert_eq!(s.len(), 6);
        for sh in &s {
            for row in &sh.rows {
                let mut v = row.to_vec();
                v.sort_unstable();
                assert_eq!(v, vec![0, 1, 2, 3, 4, 5]);
            }
        }
        for i in 0..6 {
            for j in i + 1..6 {
                assert_ne!(s[i].rows, s[j].rows);
            }
        }
        assert_eq!(standard_sheets(), s, "deterministic");
        let b = s[0].box_of();
        for r in 0..ROWS {
            for j in 0..6 {
                assert_eq!(b[r][s[0].rows[r][j] as usize] as usize, j);
            }
        }
    }

    #[test]
    fn sheet_files_parse_and_errors_name_line_and_column() {
        let mut text = String::from("sheet,row,c1,c2,c3,c4,c5,c6\n");
        for r in 1..=5 {
            text.push_str(&format!("A,{r},W,K,red,B,Y,G\n"));
        }
        let s = parse_sheets(&text, "f.csv").unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].rows[0], [0, 1, 2, 3, 4, 5]);
        let e = parse_sheets("A,1,W,K,R,B,Y,W\n", "f.csv").unwrap_err();
        assert!(e.starts_with("f.csv:1:8:") && e.contains("twice"), "{e}");
        let e = parse_sheets("A,1,W,K,R,B,Y,purple\n", "f.csv").unwrap_err();
        assert!(e.contains("f.csv:1:8") && e.contains("not a colour"), "{e}");
        let e = parse_sheets("A,6,W,K,R,B,Y,G\n", "f.csv").unwrap_err();
        assert!(
            e.contains("f.csv:1:2") && e.contains("row must be 1 to 5"),
            "{e}"
        );
        let e = parse_sheets("A,1,W,K,R,B,Y,G\n", "f.csv").unwrap_err();
        assert!(e.contains("has no row 2"), "{e}");
        let e = parse_sheets("A,1,W,K\n", "f.csv").unwrap_err();
        assert!(e.contains("expected 8 fields"), "{e}");
    }

    #[test]
    fn player_counts_are_validated() {
        let r = TwentyOneRules::standard();
        assert!(r.validate(0).is_err());
        assert!(r.validate(7).unwrap_err().contains("1 to 6"));
        r.validate(6).unwrap();
        let mut two = r.clone();
        two.sheets.truncate(2);
        assert!(two
            .validate(3)
            .unwrap_err()
            .contains("need 3 different sheets"));
    }
}
