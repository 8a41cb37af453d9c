//! The solved table as bytes, to keep it between runs: `WinSolution::to_bytes` and
//! `WinSolution::from_bytes`. Where the bytes are kept is the caller's business.
//!
//! Layout (little-endian): the magic `rtplab-doom-win\0`, the format version (u32), the
//! rules as JSON (u32 length, then the text: the rules and the target are the table's
//! identity), the solve's figures, the last-turn values, the seats' tables, and a checksum
//! (u64) of everything before it.

use super::super::model::Model;
use super::{solve::Grid, Fast, WinSolution};

const MAGIC: &[u8; 16] = b"rtplab-doom-win\0";
/// The format version: a table of another version is refused (solve it again).
pub const FORMAT_VERSION: u32 = 1;

/// Why bytes are not a solved table for the rules asked.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WinTableError {
    #[error("not a solved Dice of Doom table (no rtplab-doom-win header)")]
    NotATable,
    #[error("a solved table of format version {found}; this build reads version {want} (solve the game again)")]
    Version { found: u32, want: u32 },
    #[error("the solved table is damaged (its checksum does not match; solve the game again)")]
    Corrupt,
    #[error("the solved table is for other rules or another target ({found}); asked for {want}")]
    Rules { found: String, want: String },
}

/// A checksum of 64-bit words (a bijective step per word: any one changed word changes it).
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(23) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h
}

/// Reads the fields in order; any shortfall is a damaged table.
struct Reader<'a> {
    b: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WinTableError> {
        if self.b.len() < n {
            return Err(WinTableError::Corrupt);
        }
        let (x, rest) = self.b.split_at(n);
        self.b = rest;
        Ok(x)
    }
    fn u64(&mut self) -> Result<u64, WinTableError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("eight bytes"),
        ))
    }
    fn f64(&mut self) -> Result<f64, WinTableError> {
        Ok(f64::from_bits(self.u64()?))
    }
    fn usize(&mut self) -> Result<usize, WinTableError> {
        usize::try_from(self.u64()?).map_err(|_| WinTableError::Corrupt)
    }
    fn f64s(&mut self, n: usize) -> Result<Vec<f64>, WinTableError> {
        let len = n.checked_mul(8).ok_or(WinTableError::Corrupt)?;
        Ok(self
            .take(len)?
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("eight bytes")))
            .collect())
    }
}

pub(super) fn rules_json(m: &Model) -> String {
    serde_json::to_string(&m.rules.unlabelled()).unwrap_or_default()
}

impl WinSolution {
    /// The solved table as bytes (for `from_bytes`), with the rules of `m` it was solved for.
    pub fn to_bytes(&self, m: &Model) -> Vec<u8> {
        let rules = rules_json(m);
        let cells: usize = self.w.iter().map(Vec::len).sum();
        let mut out = Vec::with_capacity(8 * (cells + self.lambda.len()) + rules.len() + 256);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(rules.len() as u32).to_le_bytes());
        out.extend_from_slice(rules.as_bytes());
        let mut put = |x: u64| out.extend_from_slice(&x.to_le_bytes());
        put(self.tu as u64);
        put(self.unit as u64);
        put(self.finish_round as u64);
        put(self.cap as u64);
        put(self.cap_bound.to_bits());
        put(self.residual.to_bits());
        put(self.turn_solves);
        put(self.max_step.to_bits());
        put(self.tail_levels as u64);
        put(self.tail_p.to_bits());
        put(self.fine);
        put(self.step);
        put(self.accept.to_bits());
        put(self.lambda.len() as u64);
        put(self.w.len() as u64);
        for &x in self.lambda.iter().chain(self.w.iter().flatten()) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The table `to_bytes` wrote, checked to be whole and solved for the rules and target of
    /// `m`.
    pub fn from_bytes(m: &Model, bytes: &[u8]) -> Result<WinSolution, WinTableError> {
        if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(WinTableError::NotATable);
        }
        let version = u32::from_le_bytes(bytes[16..20].try_into().expect("four bytes"));
        if version != FORMAT_VERSION {
            return Err(WinTableError::Version {
                found: version,
                want: FORMAT_VERSION,
            });
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("eight bytes")) {
            return Err(WinTableError::Corrupt);
        }
        let mut r = Reader { b: &body[20..] };
        let n = u32::from_le_bytes(r.take(4)?.try_into().expect("four bytes")) as usize;
        let rules = std::str::from_utf8(r.take(n)?).map_err(|_| WinTableError::Corrupt)?;
        if rules != rules_json(m) {
            let found = serde_json::from_str::<super::super::rules::DoomRules>(rules)
                .map(|r| format!("{}, target {}", r.summary(), r.target))
                .unwrap_or_else(|_| "unreadable rules".into());
            return Err(WinTableError::Rules {
                found,
                want: format!("{}, target {}", m.rules.summary(), m.rules.target),
            });
        }
        let tu = r.usize()?;
        let unit = r.u64()? as u32;
        let finish_round = r.u64()? != 0;
        let cap = r.usize()?;
        let (cap_bound, residual, turn_solves) = (r.f64()?, r.f64()?, r.u64()?);
        let (max_step, tail_levels, tail_p) = (r.f64()?, r.usize()?, r.f64()?);
        let (fine, step, accept) = (r.u64()?, r.u64()?, r.f64()?);
        let (lambda_len, seats) = (r.usize()?, r.usize()?);
        let lambda = r.f64s(lambda_len)?;
        let cells = tu.checked_mul(tu).ok_or(WinTableError::Corrupt)?;
        let w = (0..seats.min(2))
            .map(|_| r.f64s(cells))
            .collect::<Result<Vec<_>, _>>()?;
        let want_tu = m.rules.target.div_ceil(m.unit as u64) as usize;
        if !r.b.is_empty() || unit != m.unit || seats != w.len() || tu != want_tu {
            return Err(WinTableError::Corrupt);
        }
        let fine_units = (fine / unit as u64).min(tu as u64) as usize;
        Ok(WinSolution {
            tu,
            unit,
            finish_round,
            w,
            lambda,
            cap,
            cap_bound,
            residual,
            turn_solves,
            max_step,
            tail_levels,
            tail_p,
            fine,
            step,
            accept,
            grid: Grid::new(tu, fine_units, (step / unit as u64) as usize),
            fast: Fast::new(m),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::rules::{DoomPreset, DoomRules};
    use super::super::WinOptions;
    use super::*;

    fn model(target: u64) -> Model {
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = target;
        Model::new(&r)
    }

    #[test]
    fn a_table_round_trips_and_refuses_damage_other_rules_and_versions() {
        let m = model(600);
        let opts = WinOptions {
            fine: 200,
            step: 100,
            ..WinOptions::fast()
        };
        let sol = WinSolution::solve_with(&m, &opts).unwrap();
        let bytes = sol.to_bytes(&m);
        let back = WinSolution::from_bytes(&m, &bytes).unwrap();
        assert_eq!(back.w, sol.w);
        assert_eq!(back.lambda, sol.lambda);
        assert_eq!(
            (back.tu, back.cap, back.tail_levels, back.fine, back.step),
            (sol.tu, sol.cap, sol.tail_levels, sol.fine, sol.step)
        );
        assert_eq!(back.to_bytes(&m), bytes);
        // The loaded table plays as the solved one: the same turn table at a position.
        assert_eq!(
            back.turn_table(0, 3, 5).roll(0, 0),
            sol.turn_table(0, 3, 5).roll(0, 0)
        );
        // Any one byte changed, anywhere, is caught; so is a cut.
        for i in (0..bytes.len())
            .step_by(97)
            .chain([bytes.len() - 1, 20, 30])
        {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            let e = WinSolution::from_bytes(&m, &bad).unwrap_err();
            assert!(
                matches!(
                    e,
                    WinTableError::Corrupt
                        | WinTableError::NotATable
                        | WinTableError::Version { .. }
                ),
                "byte {i}: {e:?}"
            );
        }
        let cut = &bytes[..bytes.len() - 9];
        assert_eq!(
            WinSolution::from_bytes(&m, cut).unwrap_err(),
            WinTableError::Corrupt
        );
        assert_eq!(
            WinSolution::from_bytes(&m, b"hello").unwrap_err(),
            WinTableError::NotATable
        );
        // Another target or other rules: refused, naming both.
        let e = WinSolution::from_bytes(&model(650), &bytes).unwrap_err();
        assert!(
            matches!(&e, WinTableError::Rules { found, want } if found.contains("target 600") && want.contains("target 650")),
            "{e}"
        );
        let mut other = DoomRules::preset(DoomPreset::Seed);
        other.target = 600;
        other.end = super::super::super::rules::EndRule::Immediate;
        let e = WinSolution::from_bytes(&Model::new(&other), &bytes).unwrap_err();
        assert!(matches!(e, WinTableError::Rules { .. }), "{e}");
        // Another version.
        let mut v2 = bytes.clone();
        v2[16..20].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        assert_eq!(
            WinSolution::from_bytes(&m, &v2).unwrap_err(),
            WinTableError::Version {
                found: FORMAT_VERSION + 1,
                want: FORMAT_VERSION
            }
        );
    }
}
