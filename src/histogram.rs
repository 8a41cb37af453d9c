//! One histogram type for every game: counts of integer keys (a blackjack round's net in
//! units, a baccarat shoe's net in units, a Dice of Doom turn's score in bins of 50 points,
//! a Twenty One score), exact and mergeable in any order, its memory bounded however many
//! keys arrive.
//!
//! The caller decides what a key is (the value itself, or the value divided by a bin width);
//! the histogram counts keys in bins of one key each until the keys it holds span more than
//! [`MAX_BINS`], then in bins of 2, 4, 8, ... keys (a bin of width 2^shift holds the keys `k`
//! with `k >> shift` equal). Every game's keys span far fewer than `MAX_BINS`, so its bins
//! are single keys; the widening keeps a histogram's memory flat for a table maximum in the
//! millions or a forged shard file. The width a histogram ends with depends only on the keys
//! it holds (and the windows it was made [`spanning`](Histogram::spanning)), so merging chunks
//! in any order gives the run's histogram.
//!
//! Reports read a histogram through [`Histogram::bins`] (every bin from the first to the last
//! one that holds a key), [`Histogram::window`] (a fixed range of keys with what lies below
//! and above it apart) or [`Histogram::clamped`] (the same with the tails counted in the
//! end bins).

use serde::{Deserialize, Serialize};

use crate::engine::Merge;
use crate::shard::Plausible;

/// The most bins a histogram holds; beyond, its bins widen.
pub const MAX_BINS: usize = 1 << 16;

/// Counts of integer keys. See the module's documentation.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Histogram {
    /// Bins are 2^`shift` keys wide: key `k` is counted in bin `k >> shift`.
    shift: u32,
    /// The bin of `counts[0]`.
    first: i64,
    counts: Vec<u64>,
}

/// A fixed range of keys of a histogram: the counts of keys `lo..=hi`, and the counts below
/// and above that range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    pub below: u64,
    pub bins: Vec<u64>,
    pub above: u64,
}

impl Histogram {
    /// An empty histogram with room for the keys `lo..=hi` (adding them never allocates; a
    /// key outside still counts).
    pub fn spanning(lo: i64, hi: i64) -> Self {
        let mut h = Self::default();
        if lo <= hi {
            h.cover(lo, hi);
        }
        h
    }

    /// Counts one `key`.
    #[inline]
    pub fn add(&mut self, key: i64) {
        self.add_n(key, 1);
    }

    /// Counts `n` of `key`.
    #[inline]
    pub fn add_n(&mut self, key: i64, n: u64) {
        let b = key >> self.shift;
        let i = b.wrapping_sub(self.first) as u64;
        if i < self.counts.len() as u64 {
            self.counts[i as usize] += n;
        } else {
            self.add_outside(key, n);
        }
    }

    /// [`add_n`](Self::add_n) of a key outside the room made so far.
    #[cold]
    fn add_outside(&mut self, key: i64, n: u64) {
        self.cover(key, key);
        let i = ((key >> self.shift) - self.first) as usize;
        self.counts[i] += n;
    }

    /// The keys the histogram has room for (lowest and highest), empty or not: those it was
    /// made [`spanning`](Self::spanning) and those added since; `None` for an empty default.
    pub fn room(&self) -> Option<(i64, i64)> {
        let last = self.first + self.counts.len() as i64 - 1;
        (!self.counts.is_empty())
            .then(|| (self.first << self.shift, ((last + 1) << self.shift) - 1))
    }

    /// Every count, saturating (a forged file's counts must not overflow a check).
    pub fn total(&self) -> u64 {
        crate::sums::total(&self.counts)
    }

    /// The number of keys a bin holds (1 unless the keys spanned more than [`MAX_BINS`]).
    pub fn width(&self) -> u64 {
        1u64 << self.shift
    }

    /// Every bin from the first to the last that holds a key, as (its lowest key, count),
    /// empty ones between included (so that a plot's axis is linear).
    pub fn bins(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        let (a, b) = self.held();
        (a..b).map(move |i| ((self.first + i as i64) << self.shift, self.counts[i]))
    }

    /// The count of keys below `key` (all of a bin whose lowest key is below it).
    pub fn below(&self, key: i64) -> u64 {
        self.bins()
            .filter(|&(k, _)| k < key)
            .fold(0u64, |a, (_, c)| a.saturating_add(c))
    }

    /// The keys `lo..=hi` one by one and what lies below and above them (a bin wider than
    /// one key counts at its lowest key).
    pub fn window(&self, lo: i64, hi: i64) -> Window {
        let mut w = Window {
            below: 0,
            bins: vec![0; (hi - lo + 1).max(0) as usize],
            above: 0,
        };
        for (k, c) in self.bins() {
            if k < lo {
                w.below += c;
            } else if k > hi {
                w.above += c;
            } else {
                w.bins[(k - lo) as usize] += c;
            }
        }
        w
    }

    /// The keys `lo..=hi`, those below counted at `lo` and those above at `hi`.
    pub fn clamped(&self, lo: i64, hi: i64) -> Vec<u64> {
        let mut w = self.window(lo, hi);
        if let Some(f) = w.bins.first_mut() {
            *f += w.below;
        }
        if let Some(l) = w.bins.last_mut() {
            *l += w.above;
        }
        w.bins
    }

    /// The range of `counts` from the first to the last non-zero one (empty if none).
    fn held(&self) -> (usize, usize) {
        match self.counts.iter().position(|&c| c > 0) {
            Some(a) => (a, self.counts.iter().rposition(|&c| c > 0).unwrap() + 1),
            None => (0, 0),
        }
    }

    /// Makes room for the keys `lo..=hi`, widening the bins while they would span more than
    /// `MAX_BINS`.
    fn cover(&mut self, lo: i64, hi: i64) {
        let (mut a, mut b) = (lo >> self.shift, hi >> self.shift);
        if !self.counts.is_empty() {
            a = a.min(self.first);
            b = b.max(self.first + self.counts.len() as i64 - 1);
        }
        while (b as i128 - a as i128 + 1) > MAX_BINS as i128 {
            self.widen();
            a >>= 1;
            b >>= 1;
        }
        if self.counts.is_empty() {
            self.first = a;
            self.counts = vec![0; (b - a + 1) as usize];
            return;
        }
        let front = (self.first - a) as usize;
        let back = (b - (self.first + self.counts.len() as i64 - 1)) as usize;
        if front > 0 {
            self.counts.splice(0..0, std::iter::repeat_n(0, front));
            self.first = a;
        }
        self.counts.resize(self.counts.len() + back, 0);
    }

    /// Bins twice as wide.
    fn widen(&mut self) {
        let first = self.first >> 1;
        let last = (self.first + self.counts.len() as i64 - 1) >> 1;
        let mut counts = vec![0u64; (last - first + 1).max(0) as usize];
        for (i, &c) in self.counts.iter().enumerate() {
            let b = (self.first + i as i64) >> 1;
            counts[(b - first) as usize] += c;
        }
        self.shift += 1;
        self.first = first;
        self.counts = counts;
    }
}

/// Two histograms are equal when their bins are and they hold the same counts, whatever room
/// each was made with.
impl PartialEq for Histogram {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = self.held();
        let (c, d) = other.held();
        (self.shift == other.shift || (a == b && c == d))
            && self.counts[a..b] == other.counts[c..d]
            && (a == b || self.first + a as i64 == other.first + c as i64)
    }
}

impl Eq for Histogram {}

impl Merge for Histogram {
    fn merge(&mut self, other: &Self) {
        if other.counts.is_empty() {
            return;
        }
        while self.shift < other.shift {
            self.widen();
        }
        let lo = other.first << other.shift;
        let hi = (other.first + other.counts.len() as i64 - 1) << other.shift;
        self.cover(lo, hi);
        // Other's bin b holds the keys of self's bin b >> s (`cover` may have widened).
        let s = self.shift - other.shift;
        for (i, &c) in other.counts.iter().enumerate() {
            if c > 0 {
                let b = (other.first + i as i64) >> s;
                self.counts[(b - self.first) as usize] += c;
            }
        }
    }
}

impl Plausible for Histogram {
    /// At most [`MAX_BINS`] bins, each bin's keys within the 64-bit integers.
    fn plausible(&self) -> Result<(), String> {
        if self.shift > 62 || self.counts.len() > MAX_BINS {
            return Err(format!(
                "a histogram of {} bins of 2^{} keys (at most {MAX_BINS} bins of at most 2^62)",
                self.counts.len(),
                self.shift
            ));
        }
        let last = self.first as i128 + self.counts.len() as i128;
        let (min, max) = (i64::MIN >> self.shift, i64::MAX >> self.shift);
        if (self.first as i128) < min as i128 || last - 1 > max as i128 {
            return Err(format!(
                "a histogram's bins {}..{last} of 2^{} keys lie outside the 64-bit integers",
                self.first, self.shift
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng, RngCore, SeedableRng};

    fn of(keys: &[i64]) -> Histogram {
        let mut h = Histogram::default();
        for &k in keys {
            h.add(k);
        }
        h
    }

    #[test]
    fn counts_each_key_in_its_own_bin() {
        let h = of(&[3, -2, 3, 0, 7]);
        assert_eq!(h.width(), 1);
        assert_eq!(h.total(), 5);
        let bins: Vec<(i64, u64)> = h.bins().collect();
        let want: Vec<(i64, u64)> = (-2..=7)
            .map(|k| {
                (
                    k,
                    [3, -2, 3, 0, 7].iter().filter(|&&x| x == k).count() as u64,
                )
            })
            .collect();
        assert_eq!(bins, want);
        assert_eq!(h.below(0), 1);
        assert_eq!(h.below(4), 4);
        assert_eq!(h.below(-2), 0);
    }

    #[test]
    fn a_window_keeps_the_tails_apart_and_clamping_counts_them_at_the_ends() {
        let h = of(&[-5, -1, 0, 0, 2, 9, 9]);
        assert_eq!(
            h.window(0, 2),
            Window {
                below: 2,
                bins: vec![2, 0, 1],
                above: 2
            }
        );
        assert_eq!(h.clamped(0, 2), vec![4, 0, 3]);
        assert_eq!(h.clamped(-10, 20).iter().sum::<u64>(), 7);
        assert_eq!(Histogram::default().clamped(0, 1), vec![0, 0]);
    }

    #[test]
    fn room_made_in_advance_changes_neither_the_counts_nor_equality() {
        let mut h = Histogram::spanning(-30, 30);
        for k in [-3, 4, 4] {
            h.add(k);
        }
        assert_eq!(h, of(&[-3, 4, 4]));
        assert_eq!(h.bins().next(), Some((-3, 1)));
        assert_ne!(h, of(&[-3, 4]));
        assert_ne!(of(&[1]), of(&[2]));
        assert_eq!(Histogram::spanning(0, 9), Histogram::default());
        assert_eq!(h.room(), Some((-30, 30)));
        h.add(31);
        assert_eq!(h.room(), Some((-30, 31)));
        assert_eq!(Histogram::default().room(), None);
    }

    #[test]
    fn keys_spanning_more_than_max_bins_widen_the_bins_and_keep_every_count() {
        let mut h = of(&[0, 1]);
        h.add(MAX_BINS as i64); // span MAX_BINS + 1: bins of 2 keys
        assert_eq!(h.width(), 2);
        assert_eq!(h.total(), 3);
        assert_eq!(h.bins().next(), Some((0, 2)));
        // Keys at the ends of the integers: memory stays bounded.
        h.add(i64::MAX);
        h.add(i64::MIN);
        assert!(h.counts.len() <= MAX_BINS, "{}", h.counts.len());
        assert_eq!(h.total(), 5);
        assert!(h.plausible().is_ok());
    }

    /// The histogram of keys merged from parts in any order is the histogram of all of them,
    /// widened or not.
    #[test]
    fn merging_parts_in_any_order_gives_the_whole() {
        let mut rng = Rng::seed_from_u64(7);
        for spread in [10u64, 1_000, 3 * MAX_BINS as u64, 1 << 40] {
            let keys: Vec<i64> = (0..3000)
                .map(|_| (rng.next_u64() % spread) as i64 - (spread / 3) as i64)
                .collect();
            let whole = of(&keys);
            let parts: Vec<Histogram> = keys.chunks(700).map(of).collect();
            let mut forward = Histogram::default();
            for p in &parts {
                forward.merge(p);
            }
            let mut backward = Histogram::default();
            for p in parts.iter().rev() {
                backward.merge(p);
            }
            assert_eq!(forward, whole, "spread {spread}");
            assert_eq!(backward, whole, "spread {spread}");
            assert_eq!(whole.total(), 3000);
            assert_eq!(
                whole.width() > 1,
                spread > MAX_BINS as u64,
                "spread {spread}"
            );
        }
    }

    #[test]
    fn plausible_refuses_too_many_bins_and_bins_outside_the_integers() {
        let mut h = of(&[1, 2]);
        assert!(h.plausible().is_ok());
        h.counts = vec![0; MAX_BINS + 1];
        assert!(h.plausible().unwrap_err().contains("65537 bins"));
        let h = Histogram {
            shift: 10,
            first: i64::MAX >> 9,
            counts: vec![1],
        };
        assert!(h.plausible().unwrap_err().contains("outside"));
        let h = Histogram {
            shift: 63,
            first: 0,
            counts: vec![1],
        };
        assert!(h.plausible().is_err());
    }
}
