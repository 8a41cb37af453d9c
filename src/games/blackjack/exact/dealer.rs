//! The dealer's side of the analysis: every dealer draw sequence from an up card, grouped by
//! the multiset of cards drawn, and the dealer's outcome distribution for any shoe as a sum of
//! products of falling factorials (cached by up card and shoe).

use std::sync::{Mutex, OnceLock};

use super::{HashMap, NV, OUTCOMES};
use crate::games::blackjack::rules::Rules;

/// One multiset of dealer draws from an up card.
#[derive(Clone, Debug)]
struct DealerEntry {
    /// (value index, how many) of the drawn cards.
    cards: Vec<(u8, u8)>,
    /// Cards drawn.
    k: u8,
    /// Number of draw orders of this multiset that the dealer's rule allows.
    ways: f64,
    outcome: u8,
}

/// Most cards a dealer can draw (falling factorial tables are this long).
const KMAX: usize = 24;

/// Most distinct values among a dealer's drawn cards (6, under H17: e.g. A, 2, 3, 4, 5, 6
/// drawn to a 2).
const MAX_FACTORS: usize = 6;

/// The slot of the falling-factorial table that holds 1: a factor that pads an entry's
/// product (multiplying by 1 is exact, so the padded product is the unpadded one, bit for bit).
const ONE: u8 = 255;

/// One multiset of dealer draws, ready for the inner loop: its weight (draw orders), cards
/// drawn, and its factors (each `value · (KMAX + 1) + count`, into the falling-factorial
/// table, in increasing value, padded with `ONE`).
#[derive(Clone, Copy, Debug)]
struct FlatEntry {
    ways: f64,
    k: u8,
    factors: [u8; MAX_FACTORS],
}

/// The entries of one up card, grouped by outcome (`by_outcome[o]..by_outcome[o + 1]`): fixed
/// size, so that the sum over them runs without bounds checks or a loop per entry.
#[derive(Clone, Debug, Default)]
struct Flat {
    entries: Vec<FlatEntry>,
    by_outcome: [usize; OUTCOMES + 1],
}

impl Flat {
    fn new(entries: &[DealerEntry]) -> Flat {
        let mut f = Flat::default();
        for e in entries {
            assert!(
                e.cards.len() <= MAX_FACTORS,
                "a dealer draw of {:?}",
                e.cards
            );
            let mut factors = [ONE; MAX_FACTORS];
            for (slot, &(v, k)) in factors.iter_mut().zip(&e.cards) {
                *slot = v * (KMAX as u8 + 1) + k;
            }
            f.entries.push(FlatEntry {
                ways: e.ways,
                k: e.k,
                factors,
            });
        }
        for o in 0..=OUTCOMES {
            f.by_outcome[o] = entries
                .iter()
                .position(|e| e.outcome as usize >= o)
                .unwrap_or(entries.len());
        }
        f
    }
}

/// Shards of the distribution cache per up card.
const CACHE_SHARDS: usize = 16;

/// Every dealer draw multiset for each up card, and a cache of distributions already
/// computed (by up card and remaining shoe), shared by every analysis that uses the table.
#[derive(Debug)]
pub struct DealerTable {
    per_up: Vec<Flat>,
    cache: Vec<Mutex<HashMap<u128, [f64; OUTCOMES]>>>,
}

impl DealerTable {
    pub fn new(h17: bool) -> DealerTable {
        DealerTable::with_push22(h17, false)
    }

    /// The table for S17 or H17; with `push22`, a dealer's 22 is an outcome of its own
    /// (index 7, out of the busts at index 5), as Free Bet Blackjack pushes it.
    pub fn with_push22(h17: bool, push22: bool) -> DealerTable {
        DealerTable {
            per_up: (0..NV)
                .map(|u| Flat::new(&build_dealer(u, h17, push22)))
                .collect(),
            cache: (0..NV * CACHE_SHARDS)
                .map(|_| Mutex::new(HashMap::default()))
                .collect(),
        }
    }

    /// The table for S17 or H17, built once per process.
    pub fn shared(h17: bool) -> &'static DealerTable {
        static S17: OnceLock<DealerTable> = OnceLock::new();
        static H17: OnceLock<DealerTable> = OnceLock::new();
        if h17 {
            H17.get_or_init(|| DealerTable::new(true))
        } else {
            S17.get_or_init(|| DealerTable::new(false))
        }
    }

    /// The table for these rules (S17 or H17, and a dealer 22 apart under Free Bet), built
    /// once per process.
    pub fn of(rules: &Rules) -> &'static DealerTable {
        if !rules.free_bet {
            return DealerTable::shared(rules.h17);
        }
        static S17: OnceLock<DealerTable> = OnceLock::new();
        static H17: OnceLock<DealerTable> = OnceLock::new();
        if rules.h17 {
            H17.get_or_init(|| DealerTable::with_push22(true, true))
        } else {
            S17.get_or_init(|| DealerTable::with_push22(false, true))
        }
    }

    /// `dist`, remembered.
    pub fn dist_cached(&self, up: usize, shoe: &[u32; NV]) -> [f64; OUTCOMES] {
        let key = shoe.iter().fold(0u128, |k, &n| (k << 12) | n as u128);
        // The cache is split into shards by key so that threads seldom wait for each other
        // (the audit's exact part: 1.03-1.19x slower with one lock per up card, 3 alternating
        // pairs).
        let shard =
            &self.cache[up * CACHE_SHARDS + (key as usize ^ (key >> 60) as usize) % CACHE_SHARDS];
        if let Some(d) = shard.lock().ok().and_then(|m| m.get(&key).copied()) {
            return d;
        }
        let d = self.dist(up, shoe);
        if let Ok(mut m) = shard.lock() {
            m.insert(key, d);
        }
        d
    }

    /// The dealer's outcome distribution with `up` (value index) showing and `shoe` holding
    /// the cards not yet seen.
    pub fn dist(&self, up: usize, shoe: &[u32; NV]) -> [f64; OUTCOMES] {
        let total: u32 = shoe.iter().sum();
        // 256 slots, indexed by a byte: no bounds checks (NV · (KMAX + 1) = 250 are used).
        let mut ff = [0f64; 256];
        for v in 0..NV {
            let row = &mut ff[v * (KMAX + 1)..(v + 1) * (KMAX + 1)];
            row[0] = 1.0;
            for k in 1..=KMAX {
                let n = shoe[v] as f64 - (k as f64 - 1.0);
                row[k] = if n > 0.0 { row[k - 1] * n } else { 0.0 };
            }
        }
        ff[ONE as usize] = 1.0;
        let mut inv = [0f64; 32];
        inv[0] = 1.0;
        for k in 1..=KMAX {
            let n = total as f64 - (k as f64 - 1.0);
            inv[k] = if n > 0.0 { inv[k - 1] / n } else { 0.0 };
        }
        let f = &self.per_up[up];
        let mut out = [0f64; OUTCOMES];
        for (o, slot) in out.iter_mut().enumerate() {
            let mut sum = 0.0;
            for e in &f.entries[f.by_outcome[o]..f.by_outcome[o + 1]] {
                let mut p = e.ways * inv[(e.k & 31) as usize];
                for &j in &e.factors {
                    p *= ff[j as usize];
                }
                sum += p;
            }
            *slot = sum;
        }
        out
    }
}

fn build_dealer(up: usize, h17: bool, push22: bool) -> Vec<DealerEntry> {
    let mut map: HashMap<([u8; NV], u8), f64> = HashMap::default();
    let mut counts = [0u8; NV];
    fn dfs(
        hard: u32,
        ace: bool,
        drawn: u32,
        counts: &mut [u8; NV],
        (h17, push22): (bool, bool),
        map: &mut HashMap<([u8; NV], u8), f64>,
    ) {
        let soft = ace && hard <= 11;
        let total = if soft { hard + 10 } else { hard };
        let outcome = if drawn == 1 && total == 21 && soft {
            Some(6u8)
        } else if push22 && hard == 22 {
            Some(super::DEALER_22 as u8)
        } else if hard > 21 {
            Some(5)
        } else if total > 17 || (total == 17 && !(h17 && soft)) {
            Some((total - 17) as u8)
        } else {
            None
        };
        if let Some(o) = outcome {
            *map.entry((*counts, o)).or_insert(0.0) += 1.0;
            return;
        }
        for v in 0..NV {
            counts[v] += 1;
            dfs(
                hard + v as u32 + 1,
                ace || v == 0,
                drawn + 1,
                counts,
                (h17, push22),
                map,
            );
            counts[v] -= 1;
        }
    }
    dfs(
        up as u32 + 1,
        up == 0,
        0,
        &mut counts,
        (h17, push22),
        &mut map,
    );
    let mut entries: Vec<DealerEntry> = map
        .into_iter()
        .map(|((c, o), ways)| DealerEntry {
            cards: (0..NV)
                .filter(|&v| c[v] > 0)
                .map(|v| (v as u8, c[v]))
                .collect(),
            k: c.iter().sum(),
            ways,
            outcome: o,
        })
        .collect();
    // A fixed order, so sums are reproducible to the last bit.
    entries.sort_by(|a, b| (a.outcome, a.k, &a.cards).cmp(&(b.outcome, b.k, &b.cards)));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(decks: u32) -> [u32; NV] {
        let mut s = [4 * decks; NV];
        s[9] = 16 * decks;
        s
    }

    #[test]
    fn dealer_table_reproduces_reference_totals() {
        // docs/references.md, 8 decks, S17, full shoe with the up card removed; columns bust, 17..21, BJ.
        let t = DealerTable::new(false);
        let cases: [(usize, [f64; 7]); 4] = [
            (
                1,
                [0.35353, 0.13969, 0.13452, 0.12993, 0.12402, 0.11831, 0.0],
            ),
            (
                5,
                [0.42292, 0.16564, 0.10621, 0.10639, 0.10159, 0.09725, 0.0],
            ),
            (
                9,
                [
                    0.21238, 0.11179, 0.11161, 0.11181, 0.34056, 0.03474, 0.07711,
                ],
            ),
            (
                0,
                [
                    0.11543, 0.13021, 0.13081, 0.13064, 0.13088, 0.05359, 0.30843,
                ],
            ),
        ];
        for (up, want) in cases {
            let mut s = full(8);
            s[up] -= 1;
            let d = t.dist(up, &s);
            let ours = [d[5], d[0], d[1], d[2], d[3], d[4], d[6]];
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            for k in 0..7 {
                assert!(
                    (ours[k] - want[k]).abs() < 0.5e-5,
                    "up {up} column {k}: {} vs {}",
                    ours[k],
                    want[k]
                );
            }
        }
    }
}
