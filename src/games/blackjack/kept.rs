//! Blackjack's solved tables kept between runs in the cache folder ([`crate::door::cache`]):
//! the chart derived for a rule set (`bj-chart`) and the effects of removal and playing
//! decisions the count metrics are computed from (`bj-effects`). Each entry is sealed
//! ([`crate::door::cache::seal`]: kind, version, identity in full, checksum) and checked when
//! read; one that fails is said in one line on standard error, computed again and replaced.
//! What is read is what would have been computed, bit for bit: the chart's codes (its CSV
//! form, as run keys hold it) and every number's bits.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::door::cache::{seal, unseal, Cache, Key};

use super::derive::DERIVE_VERSION;
use super::exact::NV;
use super::metrics::{Decision, Effects, EFFECTS_VERSION};
use super::rules::Rules;
use super::strategy::{Action, Chart};

/// Where the solved tables of a rule set are kept. Every value compares equal: where a table
/// is kept does not change what is computed.
#[derive(Clone, Debug, Default)]
pub enum Kept {
    /// Nowhere: computed for this run only (`--no-cache`; the library's default).
    #[default]
    Fresh,
    /// In this cache folder: read when there, else computed and saved. A folder that cannot
    /// be used (why, as `Err`) is said once in a one-line warning when a table is first
    /// needed, and the tables are computed for the run: they take under a second, so a run
    /// that can go on does (a container without a home folder, a seed-rules run that needs
    /// none).
    Cache(Result<Cache, String>),
}

impl PartialEq for Kept {
    fn eq(&self, _: &Kept) -> bool {
        true
    }
}

impl Kept {
    /// The cache folder of this process's environment ([`Cache::open`]).
    pub fn cache_folder() -> Kept {
        Kept::Cache(Cache::open().map_err(|e| e.to_string()))
    }

    /// `key`'s value: from the cache when kept there and good, else `compute`d (and saved
    /// when kept).
    fn get<T>(
        &self,
        key: &Key,
        compute: impl FnOnce() -> T,
        encode: impl FnOnce(&T) -> Vec<u8>,
        decode: impl FnOnce(&[u8]) -> Result<T, String>,
    ) -> T {
        match self {
            Kept::Fresh => compute(),
            Kept::Cache(Err(why)) => {
                static SAID: AtomicBool = AtomicBool::new(false);
                if !SAID.swap(true, Ordering::Relaxed) {
                    crate::door::say(&format!(
                        "warning: {why}; the tables of the rules are computed for this run"
                    ));
                }
                compute()
            }
            Kept::Cache(Ok(c)) => {
                let sealed = |v: &T| seal(key, &encode(v));
                let opened = |b: &[u8]| unseal(key, b).and_then(decode);
                match c.get_or_compute(key, |_| Ok::<T, ()>(compute()), sealed, opened) {
                    Ok((v, _)) => v,
                    Err(()) => unreachable!("computing cannot fail"),
                }
            }
        }
    }
}

/// What every entry's identity starts with: the program's version (an entry of another
/// build is computed again, whatever changed in it).
fn program() -> String {
    format!("rtplab {}", env!("CARGO_PKG_VERSION"))
}

/// The cache entry of the chart derived for `rules` (the rules as the derivation reads them:
/// `resolve::chart_rules`).
pub fn chart_key(chart_rules: &Rules) -> Key {
    Key {
        kind: "bj-chart".into(),
        version: DERIVE_VERSION,
        identity: format!(
            "{}\nrules {}",
            program(),
            serde_json::to_string(&chart_rules.unlabelled()).expect("rules serialize")
        ),
    }
}

/// The chart derived for `chart_rules` (by `derive`), from `kept`. A chart read back is
/// checked against what it claims to be before it is used: one up card's column, chosen
/// afresh each time, derived again and compared (a tenth of the derivation), so an entry that
/// is not the derivation's (forged and sealed again, or of a changed derivation) is found and
/// derived again.
pub fn chart(chart_rules: &Rules, kept: &Kept, derive: impl FnOnce() -> Chart) -> Chart {
    kept.get(
        &chart_key(chart_rules),
        derive,
        |c| c.to_csv("").into_bytes(),
        |b| {
            let c = decode_chart(b)?;
            let u = column_to_check();
            if super::derive::column_matches(chart_rules, &c, u) {
                Ok(c)
            } else {
                Err(format!(
                    "its column for the up card {} is not the one derived for these rules",
                    if u == 0 {
                        "A".to_string()
                    } else {
                        (u + 1).to_string()
                    }
                ))
            }
        },
    )
}

/// Which up card's column a chart read back is checked on: a different one each time (the
/// clock's nanoseconds), so every column is checked over a few runs.
fn column_to_check() -> usize {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    (n as usize / 7) % super::exact::NV
}

fn decode_chart(body: &[u8]) -> Result<Chart, String> {
    let text = std::str::from_utf8(body).map_err(|_| "its chart is not text".to_string())?;
    Chart::parse(text, "cached chart").map_err(|e| e.to_string())
}

/// The cache entry of the effects of `rules` with `chart` played.
pub fn effects_key(rules: &Rules, chart: &Chart) -> Key {
    Key {
        kind: "bj-effects".into(),
        version: EFFECTS_VERSION,
        identity: format!(
            "{}\nrules {}\nchart\n{}",
            program(),
            serde_json::to_string(&rules.unlabelled()).expect("rules serialize"),
            chart.to_csv("")
        ),
    }
}

/// The effects of `rules` with `chart` played (by `compute`), from `kept`. The chart's name
/// is the one given (it is a label, not part of what is computed).
pub fn effects(
    rules: &Rules,
    chart: &Chart,
    kept: &Kept,
    compute: impl FnOnce() -> Effects,
) -> Effects {
    let mut e = kept.get(&effects_key(rules, chart), compute, encode_effects, |b| {
        decode_effects(b)
    });
    e.chart = chart.name.clone();
    e
}

fn action_code(a: Action) -> u8 {
    match a {
        Action::Hit => 0,
        Action::Stand => 1,
        Action::Double => 2,
        Action::Split => 3,
        Action::Surrender => 4,
    }
}

fn action_of(c: u8) -> Option<Action> {
    Some(match c {
        0 => Action::Hit,
        1 => Action::Stand,
        2 => Action::Double,
        3 => Action::Split,
        4 => Action::Surrender,
        _ => return None,
    })
}

/// The effects as bytes: every number's bits (little-endian), the decisions in order.
fn encode_effects(e: &Effects) -> Vec<u8> {
    let mut out = Vec::new();
    let f = |out: &mut Vec<u8>, x: f64| out.extend_from_slice(&x.to_bits().to_le_bytes());
    out.extend_from_slice(&e.decks.to_le_bytes());
    f(&mut out, e.ev);
    e.eor.iter().for_each(|&x| f(&mut out, x));
    f(&mut out, e.penetration);
    out.extend_from_slice(&(e.decisions.len() as u64).to_le_bytes());
    for d in &e.decisions {
        out.push(d.hand.len() as u8);
        out.extend_from_slice(d.hand.as_bytes());
        out.extend_from_slice(&(d.up as u32).to_le_bytes());
        out.push(action_code(d.chart));
        out.push(action_code(d.other));
        f(&mut out, d.frequency);
        f(&mut out, d.m);
        d.eor.iter().for_each(|&x| f(&mut out, x));
    }
    out
}

/// A reader of the bytes [`encode_effects`] writes.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if self.0.len() < n {
            return Err("its effects are cut short".into());
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_bits(self.u64()?))
    }
    fn values(&mut self) -> Result<[f64; NV], String> {
        let mut v = [0.0; NV];
        for x in &mut v {
            *x = self.f64()?;
        }
        Ok(v)
    }
    fn action(&mut self) -> Result<Action, String> {
        action_of(self.u8()?).ok_or_else(|| "its effects hold an unknown play".to_string())
    }
}

fn decode_effects(body: &[u8]) -> Result<Effects, String> {
    let mut r = Reader(body);
    let decks = r.u32()?;
    let ev = r.f64()?;
    let eor = r.values()?;
    let penetration = r.f64()?;
    let n = r.u64()?;
    // Each decision takes at least 103 bytes: a count beyond the bytes left is damage.
    if n > (r.0.len() / 103) as u64 {
        return Err("its effects are cut short".into());
    }
    let mut decisions = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let len = r.u8()? as usize;
        let hand = String::from_utf8(r.take(len)?.to_vec())
            .map_err(|_| "its effects hold a hand that is not text".to_string())?;
        let up = char::from_u32(r.u32()?).ok_or("its effects hold an unknown up card")?;
        decisions.push(Decision {
            hand,
            up,
            chart: r.action()?,
            other: r.action()?,
            frequency: r.f64()?,
            m: r.f64()?,
            eor: r.values()?,
        });
    }
    if !r.0.is_empty() {
        return Err("its effects are followed by other bytes".into());
    }
    Ok(Effects {
        decks,
        chart: String::new(),
        ev,
        eor,
        penetration,
        decisions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::resolve::basic_chart;

    fn scratch(name: &str) -> Cache {
        let d = std::env::temp_dir().join(format!("rtplab-bj-kept-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        Cache::at(d).unwrap()
    }

    fn h17() -> Rules {
        Rules {
            h17: true,
            ..Rules::seed()
        }
    }

    #[test]
    fn a_kept_chart_is_the_derived_chart() {
        let c = scratch("chart");
        let kept = Kept::Cache(Ok(c.clone()));
        let fresh = basic_chart(&h17(), &Kept::Fresh);
        let first = basic_chart(&h17(), &kept);
        assert_eq!(c.entries().unwrap().len(), 1);
        let read = basic_chart(&h17(), &kept);
        for ch in [&first, &read] {
            assert_eq!(
                (ch.codes, ch.hash, &ch.name),
                (fresh.codes, fresh.hash, &fresh.name)
            );
        }
        // Other rules, another entry.
        let das = Rules {
            das: !h17().das,
            ..h17()
        };
        basic_chart(&das, &kept);
        assert_eq!(c.entries().unwrap().len(), 2);
        let _ = std::fs::remove_dir_all(c.dir());
    }

    #[test]
    fn kept_effects_are_the_computed_effects_bit_for_bit() {
        let rules = Rules { decks: 1, ..h17() };
        let chart = basic_chart(&rules, &Kept::Fresh);
        let e = Effects::compute(&rules, &chart);
        let back = decode_effects(&encode_effects(&e)).unwrap();
        assert_eq!(encode_effects(&back), encode_effects(&e));
        assert_eq!(
            Effects {
                chart: e.chart.clone(),
                ..back
            },
            e
        );
        // Cut anywhere: refused, never a panic.
        let bytes = encode_effects(&e);
        for n in [0, 3, 50, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode_effects(&bytes[..n]).is_err(), "{n}");
        }
    }

    #[test]
    fn a_damaged_entry_is_computed_again() {
        let c = scratch("damaged");
        let kept = Kept::Cache(Ok(c.clone()));
        let rules = h17();
        let good = basic_chart(&rules, &kept);
        let key = chart_key(&super::super::resolve::chart_rules(&rules));
        let path = c.path(&key);
        let bytes = std::fs::read(&path).unwrap();
        let mut flipped = bytes.clone();
        let n = flipped.len();
        flipped[n / 2] ^= 1;
        for bad in [flipped, bytes[..n / 2].to_vec(), b"junk".to_vec()] {
            std::fs::write(&path, &bad).unwrap();
            let again = basic_chart(&rules, &kept);
            assert_eq!(again.codes, good.codes);
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "not replaced");
        }
        // An entry of another identity under this name (a hash collision) is refused.
        let other = Key {
            identity: "something else".into(),
            ..key.clone()
        };
        let e = unseal(&key, &seal(&other, b"x")).unwrap_err();
        assert!(e.contains("identity"), "{e}");
        let _ = std::fs::remove_dir_all(c.dir());
    }

    #[test]
    fn a_forged_entry_sealed_again_is_not_taken_for_the_derivation() {
        use super::super::strategy::Code;
        let c = scratch("forged");
        let kept = Kept::Cache(Ok(c.clone()));
        let rules = h17();
        let good = basic_chart(&rules, &kept);
        let key = chart_key(&super::super::resolve::chart_rules(&rules));
        // One cell changed in every up card's column (hard 16: hit <-> stand), then sealed
        // again as a well-formed entry of this key: whichever column is checked, it differs.
        let mut codes = good.codes;
        let row = super::super::strategy::hard_row(16);
        for cell in codes[row].iter_mut() {
            *cell = if *cell == Code::S { Code::H } else { Code::S };
        }
        let forged = Chart::new(codes, "forged");
        c.save(&key, &seal(&key, forged.to_csv("").as_bytes()))
            .unwrap();
        let read = basic_chart(&rules, &kept);
        assert_eq!(read.codes, good.codes, "the forged chart was used");
        let _ = std::fs::remove_dir_all(c.dir());
    }
}
