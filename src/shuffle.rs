//! Tests of a shuffle from the cards a table dealt, one shoe at a time: each shoe's order
//! against a uniform shuffle, and each shoe against the one before it (a poor shuffle carries
//! the previous shoe's order over). docs/shuffle.md describes each test and its power.
//!
//! [`ShuffleTests`] is fed shoe after shoe (it keeps the current and the previous shoe only)
//! and gives a [`ShuffleVerdict`]: seven tests, each with its statistic, its null distribution
//! (exact moments, or for the rising sequences each shoe's own random rearrangements drawn
//! from a stated seed), its p-value and the p-value adjusted by Holm's method for the
//! number of tests. [`power`] measures how many shoes the verdict needs to find a shuffler
//! (k riffles), dealing them with the simulator's own shoe.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

use crate::cards::{rank_of, value, Shoe, Shuffler};
use crate::rng::{below, chunk_rng, Rng, SeedableRng};
use crate::stats::{p_value, p_value_t};

pub use crate::cards::CardId;

/// Buckets of shoe positions in the rank-by-position test (8 decks: 52 positions each).
pub const POSITION_BUCKETS: usize = 8;

/// Least expected count of a cell of the rank-by-position table: a bucket that expects fewer
/// of each rank (too few shoes have reached it) is left out, so the chi-square law holds.
const MIN_EXPECTED: f64 = 5.0;

/// Random rearrangements of each shoe the rising-sequence test compares it with.
pub const REARRANGEMENTS: usize = 15;

/// Ranks in a deck.
const RANKS: usize = 13;

/// Sums of a statistic over shoes that is tested by its exact mean and variance under a
/// uniform shuffle: the standardized sum is normal (the shoes are independent).
#[derive(Clone, Debug, Default)]
struct Pooled {
    n: u64,
    observed: f64,
    expected: f64,
    variance: f64,
}

impl Pooled {
    fn add(&mut self, observed: f64, expected: f64, variance: f64) {
        if variance > 0.0 && variance.is_finite() {
            self.n += 1;
            self.observed += observed;
            self.expected += expected;
            self.variance += variance;
        }
    }

    fn z(&self) -> f64 {
        if self.variance > 0.0 {
            (self.observed - self.expected) / self.variance.sqrt()
        } else {
            0.0
        }
    }
}

/// The rising-sequence test's state: where each card lay in the previous shoe, and the sums
/// over pairs of shoes.
#[derive(Clone, Debug)]
struct Rising {
    /// The places in the previous shoe (from 1) of each card in turn, in dealing order: card
    /// `c`'s are `places[start[c]..start[c + 1]]`.
    places: Vec<u32>,
    start: [u32; 53],
    /// For each place of the previous shoe (from 1; 0 a sentinel), the position (from 1) in
    /// the current shoe of the card matched to it, 0 for none.
    matched: Vec<u32>,
    /// A rearrangement of the current shoe.
    rearranged: Vec<CardId>,
    /// Pairs of shoes tested.
    pairs: u64,
    /// Σ rising sequences of each shoe, Σ the mean of its rearrangements', Σ their variance.
    observed: f64,
    expected: f64,
    variance: f64,
}

impl Rising {
    fn new() -> Rising {
        Rising {
            places: Vec::new(),
            start: [0; 53],
            matched: Vec::new(),
            rearranged: Vec::new(),
            pairs: 0,
            observed: 0.0,
            expected: 0.0,
            variance: 0.0,
        }
    }

    /// Take `prev` as the previous shoe.
    fn set_previous(&mut self, prev: &[CardId]) {
        let mut count = [0u32; 52];
        for &c in prev {
            count[c as usize] += 1;
        }
        for (c, &k) in count.iter().enumerate() {
            self.start[c + 1] = self.start[c] + k;
        }
        let mut next: [u32; 52] = std::array::from_fn(|c| self.start[c]);
        self.places.clear();
        self.places.resize(prev.len(), 0);
        for (x, &c) in prev.iter().enumerate() {
            self.places[next[c as usize] as usize] = x as u32 + 1;
            next[c as usize] += 1;
        }
        self.matched.clear();
        self.matched.resize(prev.len() + 1, 0);
    }

    /// The rising sequences of `cur` in the previous shoe's order, its cards matched to the
    /// previous shoe's by the chain rule (docs/shuffle.md): in dealing order, each card takes
    /// the copy of itself, not yet taken, whose predecessor in the previous shoe was taken
    /// most recently (extending a rising sequence), else its first copy not yet taken, else
    /// none (a card not seen in the previous shoe). Rising sequences: 1 + the places of the
    /// previous shoe whose card came out after the card of the next matched place.
    fn count(&mut self, cur: &[CardId]) -> u64 {
        let matched = &mut self.matched;
        matched.fill(0);
        for (i, &c) in cur.iter().enumerate() {
            let copies =
                &self.places[self.start[c as usize] as usize..self.start[c as usize + 1] as usize];
            // The copy whose predecessor was taken last (positions from 1: 0 is none), and
            // the first copy free.
            let (mut last, mut extend, mut first) = (0u32, usize::MAX, usize::MAX);
            for &x in copies {
                let x = x as usize;
                if matched[x] != 0 {
                    continue;
                }
                first = first.min(x);
                if matched[x - 1] > last {
                    last = matched[x - 1];
                    extend = x;
                }
            }
            let x = if extend != usize::MAX { extend } else { first };
            if x != usize::MAX {
                matched[x] = i as u32 + 1;
            }
        }
        let mut last = 0;
        let mut descents = 0;
        for &at in matched[1..].iter().filter(|&&at| at != 0) {
            if last != 0 && at < last {
                descents += 1;
            }
            last = at;
        }
        1 + descents
    }

    /// Test `cur` against the previous shoe: its rising sequences beside those of
    /// `REARRANGEMENTS` uniform rearrangements of its cards.
    fn add(&mut self, cur: &[CardId], rng: &mut Rng) {
        if self.matched.len() < 2 || cur.len() < 2 {
            return;
        }
        let observed = self.count(cur) as f64;
        let (mut sum, mut sum_sq) = (0.0, 0.0);
        let mut rearranged = std::mem::take(&mut self.rearranged);
        for _ in 0..REARRANGEMENTS {
            rearranged.clear();
            rearranged.extend_from_slice(cur);
            for p in (1..rearranged.len()).rev() {
                let j = below(rng, p as u32 + 1) as usize;
                rearranged.swap(p, j);
            }
            let r = self.count(&rearranged) as f64;
            sum += r;
            sum_sq += r * r;
        }
        self.rearranged = rearranged;
        let k = REARRANGEMENTS as f64;
        let mean = sum / k;
        let variance = ((sum_sq - k * mean * mean) / (k - 1.0)).max(0.0);
        self.pairs += 1;
        self.observed += observed;
        self.expected += mean;
        self.variance += variance;
    }
}

/// The order-kept test's state: how often each card came right after each other in the
/// previous shoe, and the sums over pairs of shoes.
#[derive(Clone, Debug)]
struct Kept {
    /// `follows[u][v]`: the times card `v` came right after card `u` in the previous shoe.
    follows: Vec<[f64; 52]>,
    previous: bool,
    /// `weight[g]`: a pair of cards `g` apart, 1/√g; `cumulative[j]`: Σ weight[1..=j].
    weight: Vec<f64>,
    cumulative: Vec<f64>,
    pooled: Pooled,
    /// The largest standardized Q of a pair of shoes, and the pair (the later shoe's number,
    /// from 1).
    worst: f64,
    worst_shoe: u64,
}

impl Kept {
    fn new() -> Kept {
        Kept {
            follows: vec![[0.0; 52]; 52],
            previous: false,
            weight: vec![0.0],
            cumulative: vec![0.0],
            pooled: Pooled::default(),
            worst: f64::NEG_INFINITY,
            worst_shoe: 0,
        }
    }

    fn set_previous(&mut self, prev: &[CardId]) {
        for row in &mut self.follows {
            row.fill(0.0);
        }
        for w in prev.windows(2) {
            self.follows[w[0] as usize][w[1] as usize] += 1.0;
        }
        self.previous = prev.len() >= 2;
    }

    /// Test `cur` against the previous shoe: Q = Σ over pairs of its cards, the earlier one
    /// `u` and the later `v` g positions on, of `follows[u][v]` / √g.
    fn add(&mut self, cur: &[CardId], shoe: u64) {
        if !self.previous || cur.len() < 4 {
            return;
        }
        while self.weight.len() < cur.len() {
            let g = self.weight.len();
            self.weight.push(1.0 / (g as f64).sqrt());
            self.cumulative
                .push(self.cumulative[g - 1] + self.weight[g]);
        }
        let mut q = 0.0;
        for (i, &u) in cur.iter().enumerate() {
            let row = &self.follows[u as usize];
            q += cur[i + 1..]
                .iter()
                .zip(&self.weight[1..])
                .map(|(&v, w)| w * row[v as usize])
                .sum::<f64>();
        }
        let mut counts = [0f64; 52];
        for &c in cur {
            counts[c as usize] += 1.0;
        }
        let (mean, variance) = kept_moments(&self.follows, &counts, &self.weight, &self.cumulative);
        self.pooled.add(q, mean, variance);
        if variance > 0.0 && mean > 0.0 && q > 0.0 {
            // Q is a sum of counts, skewed to the right; its logarithm is not (skewness 0.05
            // against 0.008 over 10^5 pairs of uniform shoes of 8 decks; the normal's tail to
            // 4 standard deviations): z of ln Q, with E ln Q ≈ ln μ − r/2 and Var ln Q ≈ r,
            // r = σ²/μ².
            let r = variance / (mean * mean);
            let z = ((q / mean).ln() + r / 2.0) / r.sqrt();
            if z > self.worst {
                self.worst = z;
                self.worst_shoe = shoe;
            }
        }
    }
}

/// The tests of a table's shuffle, fed one shoe at a time.
#[derive(Clone, Debug)]
pub struct ShuffleTests {
    decks: u32,
    seed: u64,
    rng: Rng,
    shoes: u64,
    skipped_cards: u64,
    /// The current shoe's cards (the previous one's are kept as `rising` needs them).
    cur: Vec<CardId>,
    /// Rank by position: positions per bucket, the count of each rank in each bucket, and
    /// Σ over shoes of the product of two buckets' cards (their covariance under the null).
    width: usize,
    counts: [[u64; RANKS]; POSITION_BUCKETS],
    cross: [[f64; POSITION_BUCKETS]; POSITION_BUCKETS],
    runs: Pooled,
    neighbours: Pooled,
    serial: Pooled,
    /// Σ over shoes of the lag-1 products and the squares of the centred values.
    serial_products: f64,
    serial_squares: f64,
    rising: Rising,
    kept: Kept,
}

/// The verdict of the shuffle tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShuffleVerdict {
    /// Shoes tested (the rising sequences test the pairs of consecutive shoes).
    pub shoes: u64,
    pub decks: u32,
    /// The confidence level: a test fails when its adjusted p-value is below 1 − level.
    pub level: f64,
    /// The seed of the rising-sequence test's rearrangements: the same shoes and seed give
    /// the same verdict.
    pub seed: u64,
    /// How the p-values are adjusted for the number of tests.
    pub correction: String,
    pub tests: Vec<ShuffleTest>,
    /// Every test passes.
    pub pass: bool,
    /// Cards left out of the tests: ids of 52 or more, and the cards of a shoe past the
    /// shoe's size (the verifier's check of the shoe refuses both first).
    pub skipped_cards: u64,
}

/// One test of the shuffle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShuffleTest {
    /// A short name for files: `position`, `runs`, `neighbours`, `serial`, `rising`.
    pub key: String,
    pub name: String,
    pub what_it_detects: String,
    /// The law of the statistic under a uniform shuffle, as used.
    pub null: String,
    /// Shoes counted (pairs of shoes for the rising sequences).
    pub n: u64,
    /// The statistic's raw measure, observed and expected under a uniform shuffle (per shoe
    /// or pair of shoes; the chi-square's statistic and its mean).
    pub observed: f64,
    pub expected: f64,
    /// The test statistic: a z-score, or the chi-square.
    pub statistic: f64,
    /// Degrees of freedom: the chi-square's (effective), the t's; none for a normal z.
    pub df: Option<f64>,
    pub p_value: f64,
    /// Holm's adjustment for the number of tests.
    pub p_adjusted: f64,
    pub pass: bool,
    /// Why a test could not run yet (too few shoes).
    pub note: Option<String>,
}

impl ShuffleTests {
    /// Tests of shoes of `decks` decks; `seed` draws the rising-sequence test's
    /// rearrangements (stated in the verdict).
    pub fn new(decks: u32, seed: u64) -> ShuffleTests {
        let cards = decks.max(1) as usize * 52;
        ShuffleTests {
            decks,
            seed,
            rng: Rng::seed_from_u64(seed),
            shoes: 0,
            skipped_cards: 0,
            cur: Vec::new(),
            width: cards.div_ceil(POSITION_BUCKETS),
            counts: [[0; RANKS]; POSITION_BUCKETS],
            cross: [[0.0; POSITION_BUCKETS]; POSITION_BUCKETS],
            runs: Pooled::default(),
            neighbours: Pooled::default(),
            serial: Pooled::default(),
            serial_products: 0.0,
            serial_squares: 0.0,
            rising: Rising::new(),
            kept: Kept::new(),
        }
    }

    /// Cards in a full shoe.
    fn full(&self) -> usize {
        self.decks.max(1) as usize * 52
    }

    /// One shoe's cards in dealing order, from the first card after the shuffle to the last
    /// dealt (burns included; the undealt cards behind the cut are not seen).
    pub fn add_shoe(&mut self, cards: &[CardId]) {
        let mut cur = std::mem::take(&mut self.cur);
        cur.clear();
        cur.extend(cards.iter().copied().filter(|&c| c < 52).take(self.full()));
        self.skipped_cards += (cards.len() - cur.len()) as u64;
        self.positions(&cur);
        self.runs_of(&cur);
        self.neighbours_of(&cur);
        self.serial_of(&cur);
        if self.shoes > 0 {
            self.rising.add(&cur, &mut self.rng);
            self.kept.add(&cur, self.shoes + 1);
        }
        self.rising.set_previous(&cur);
        self.kept.set_previous(&cur);
        self.cur = cur;
        self.shoes += 1;
    }

    /// Rank by position: the count of each rank in each bucket of positions.
    fn positions(&mut self, cur: &[CardId]) {
        let mut n = [0u64; POSITION_BUCKETS];
        for (i, &c) in cur.iter().enumerate() {
            let b = (i / self.width).min(POSITION_BUCKETS - 1);
            self.counts[b][rank_of(c) as usize] += 1;
            n[b] += 1;
        }
        for (row, &nb) in self.cross.iter_mut().zip(&n) {
            for (x, &nc) in row.iter_mut().zip(&n) {
                *x += (nb * nc) as f64;
            }
        }
    }

    /// Runs of high cards (tens and aces) and low cards (two to nine): Wald and Wolfowitz's
    /// exact mean and variance given the shoe's counts of each.
    fn runs_of(&mut self, cur: &[CardId]) {
        let high = |c: CardId| {
            let r = rank_of(c);
            r == 0 || value(r) == 10
        };
        let n1 = cur.iter().filter(|&&c| high(c)).count();
        let runs = 1 + cur.windows(2).filter(|w| high(w[0]) != high(w[1])).count();
        let (mean, variance) = runs_moments(n1 as f64, (cur.len() - n1) as f64);
        self.runs.add(runs as f64, mean, variance);
    }

    /// Neighbours of the same rank: the exact mean and variance of their count when the
    /// shoe's cards are in uniform random order.
    fn neighbours_of(&mut self, cur: &[CardId]) {
        let mut counts = [0f64; RANKS];
        for &card in cur {
            counts[rank_of(card) as usize] += 1.0;
        }
        let pairs = cur
            .windows(2)
            .filter(|w| rank_of(w[0]) == rank_of(w[1]))
            .count();
        let (mean, variance) = neighbour_moments(&counts);
        self.neighbours.add(pairs as f64, mean, variance);
    }

    /// Serial correlation at lag 1 of the cards' values (ace 1, tens and faces 10): the sum of
    /// products of neighbours' centred values, with its exact mean and variance when the
    /// shoe's cards are in uniform random order.
    fn serial_of(&mut self, cur: &[CardId]) {
        let x: Vec<f64> = cur.iter().map(|&c| value(rank_of(c)) as f64).collect();
        let Some(m) = serial_moments(&x) else {
            return;
        };
        self.serial.add(m.products, m.mean, m.variance);
        self.serial_products += m.products;
        self.serial_squares += m.squares;
    }

    /// The verdict at confidence `level` (e.g. 0.99): each test's p-value, adjusted by Holm's
    /// method for the number of tests, passes when it is at least 1 − level.
    pub fn finish(&self, level: f64) -> ShuffleVerdict {
        let mut tests = vec![
            self.position_test(),
            self.z_test(
                "runs",
                "Runs of high and low cards",
                "clumps of high cards (tens and aces) or of low cards (two to nine), or their \
                 alternation: a shuffle that leaves runs of the previous deal together",
                &self.runs,
                "Wald–Wolfowitz: exact mean and variance of the runs given each shoe's counts of \
                 high and low cards; the standardized sum over shoes, normal",
            ),
            self.z_test(
                "neighbours",
                "Neighbours of the same rank",
                "cards of one rank kept together (decks added in order, a machine dropping \
                 cards in groups) or kept apart",
                &self.neighbours,
                "exact mean and variance of the count of neighbouring cards of equal rank given \
                 each shoe's ranks; the standardized sum over shoes, normal",
            ),
            self.serial_test(),
            self.rising_test(),
            self.z_test(
                "kept",
                "Order kept from the previous shoe",
                "cards that followed each other in the previous shoe following each other again, \
                 weighted by nearness (1/√ of the distance): riffles, strip and box shuffles, a \
                 clump carried over, any shuffle that moves runs of the previous shoe whole",
                &self.kept.pooled,
                "exact mean and variance under uniform random order of each shoe's cards (a \
                 quadratic assignment statistic: Mantel 1967, Hubert 1987); the standardized sum \
                 over pairs of shoes, normal",
            ),
            self.worst_test(),
        ];
        holm(&mut tests, 1.0 - level);
        ShuffleVerdict {
            shoes: self.shoes,
            decks: self.decks,
            level,
            seed: self.seed,
            correction: format!("Holm over the {} tests", tests.len()),
            pass: tests.iter().all(|t| t.pass),
            tests,
            skipped_cards: self.skipped_cards,
        }
    }

    fn z_test(
        &self,
        key: &str,
        name: &str,
        detects: &str,
        pooled: &Pooled,
        null: &str,
    ) -> ShuffleTest {
        let per = |x: f64| x / pooled.n.max(1) as f64;
        let z = pooled.z();
        ShuffleTest {
            key: key.into(),
            name: name.into(),
            what_it_detects: detects.into(),
            null: null.into(),
            n: pooled.n,
            observed: per(pooled.observed),
            expected: per(pooled.expected),
            statistic: z,
            df: None,
            p_value: if pooled.n > 0 { p_value(z) } else { 1.0 },
            p_adjusted: 1.0,
            pass: true,
            note: (pooled.n == 0).then(|| "no shoe yet".to_string()),
        }
    }

    fn serial_test(&self) -> ShuffleTest {
        let mut t = self.z_test(
            "serial",
            "Serial correlation (lag 1)",
            "a card's value following its neighbour's: high after high or high after low more \
             often than a uniform shuffle deals them",
            &self.serial,
            "exact mean and variance of the sum of neighbours' products of centred values \
             given each shoe's values (a permutation test's moments); the standardized sum over \
             shoes, normal",
        );
        // As a correlation: the products over the squares, pooled over shoes.
        if self.serial_squares > 0.0 {
            t.observed = self.serial_products / self.serial_squares;
            t.expected = self.serial.expected / self.serial_squares;
        }
        t
    }

    /// Rank by position: a chi-square of the ranks' counts in each bucket of positions
    /// against 1/13 each. Within a shoe the positions share its cards (dealt without
    /// replacement), so the statistic is a weighted sum of chi-squares with 12 degrees of
    /// freedom, the weights the eigenvalues of the buckets' covariance; it is taken as a
    /// scaled chi-square of the same mean and variance (Satterthwaite).
    fn position_test(&self) -> ShuffleTest {
        let full = self.full() as f64;
        let n: Vec<f64> = self
            .counts
            .iter()
            .map(|row| row.iter().sum::<u64>() as f64)
            .collect();
        let used: Vec<usize> = (0..POSITION_BUCKETS)
            .filter(|&b| n[b] / RANKS as f64 >= MIN_EXPECTED)
            .collect();
        let mut stat = 0.0;
        for &b in &used {
            let e = n[b] / RANKS as f64;
            for &o in &self.counts[b] {
                stat += (o as f64 - e).powi(2) / e;
            }
        }
        // K = D^-1/2 (Σ_s A_s) D^-1/2, A_s = N/(N-1) diag(n_s) - n_s n_s'/(N-1).
        let (mut trace, mut trace_sq) = (0.0, 0.0);
        for &b in &used {
            for &c in &used {
                let k = if b == c { full / (full - 1.0) } else { 0.0 }
                    - self.cross[b][c] / ((full - 1.0) * (n[b] * n[c]).sqrt());
                if b == c {
                    trace += k;
                }
                trace_sq += k * k;
            }
        }
        let free = (RANKS - 1) as f64;
        let (mean, scale, df) = if trace > 0.0 && trace_sq > 0.0 {
            (
                free * trace,
                trace_sq / trace,
                free * trace * trace / trace_sq,
            )
        } else {
            (0.0, 1.0, 0.0)
        };
        let p = if df > 0.0 {
            ChiSquared::new(df).map_or(f64::NAN, |c| c.sf(stat / scale))
        } else {
            1.0
        };
        ShuffleTest {
            key: "position".into(),
            name: "Rank by position".into(),
            what_it_detects: format!(
                "ranks more common in some part of the shoe than another (a shoe assembled \
                 from ordered or stacked decks, a machine placing some cards low): the 13 \
                 ranks' counts in {POSITION_BUCKETS} buckets of {} positions",
                self.width
            ),
            null: "Pearson's chi-square against 1/13 for each rank; the positions of a shoe \
                   share its cards, so the law is a weighted sum of chi-squares, taken as a \
                   scaled chi-square of equal mean and variance (Satterthwaite)"
                .into(),
            n: self.shoes,
            observed: stat,
            expected: mean,
            statistic: stat,
            df: (df > 0.0).then_some(df),
            p_value: p,
            p_adjusted: 1.0,
            pass: true,
            note: used.is_empty().then(|| {
                format!(
                    "too few shoes: a bucket needs {} cards to expect {MIN_EXPECTED} of each rank",
                    MIN_EXPECTED * RANKS as f64
                )
            }),
        }
    }

    /// The pair of shoes whose order-kept statistic is the most extreme: its z against the
    /// largest of that many independent normal ones (Šidák), one-sided (order kept).
    fn worst_test(&self) -> ShuffleTest {
        let k = &self.kept;
        let n = k.pooled.n;
        let (z, p) = if n > 0 {
            let tail = Normal::standard().sf(k.worst);
            (k.worst, -(n as f64 * (-tail).ln_1p()).exp_m1())
        } else {
            (0.0, 1.0)
        };
        ShuffleTest {
            key: "worst".into(),
            name: "The shoe most like the one before".into(),
            what_it_detects: format!(
                "a single shoe that kept the previous shoe's order (a skipped or token \
                 shuffle, blocks of the previous shoe carried over), which a sum over many \
                 shoes dilutes{}",
                if n > 0 {
                    format!(
                        "; here shoe {} against shoe {}",
                        k.worst_shoe,
                        k.worst_shoe - 1
                    )
                } else {
                    String::new()
                }
            ),
            null: "each pair of shoes' order-kept statistic Q by its logarithm (a sum of \
                   counts, skewed; ln Q is not), standardized with the exact mean μ and variance \
                   σ² of Q (E ln Q ≈ ln μ − σ²/2μ², Var ln Q ≈ σ²/μ²), normal; the largest of n \
                   independent ones (Šidák: 1 − Φ(z)^n)"
                .into(),
            n,
            observed: z,
            expected: 0.0,
            statistic: z,
            df: None,
            p_value: p,
            p_adjusted: 1.0,
            pass: true,
            note: (n == 0).then(|| "needs two shoes".to_string()),
        }
    }

    /// Rising sequences of each shoe in the order of the one before: against its own random
    /// rearrangements, pooled over pairs of shoes (a t statistic).
    fn rising_test(&self) -> ShuffleTest {
        let r = &self.rising;
        let k = REARRANGEMENTS as f64;
        let df = r.pairs * (REARRANGEMENTS as u64 - 1);
        let z = if r.variance > 0.0 {
            (r.observed - r.expected) / (r.variance * (1.0 + 1.0 / k)).sqrt()
        } else {
            0.0
        };
        let per = |x: f64| x / r.pairs.max(1) as f64;
        ShuffleTest {
            key: "rising".into(),
            name: "Rising sequences against the previous shoe".into(),
            what_it_detects: "the previous shoe's order carried over: riffles (k riffles leave \
                              at most 2^k rising sequences; Bayer & Diaconis 1992, the most \
                              powerful test against them), cut-and-stack and other shuffles \
                              that keep runs of cards in order"
                .into(),
            null: format!(
                "each shoe beside {REARRANGEMENTS} uniform random rearrangements of its own \
                 cards (the same matching rule, seeded): the difference from their mean over \
                 their variance, pooled over pairs of shoes, Student's t"
            ),
            n: r.pairs,
            observed: per(r.observed),
            expected: per(r.expected),
            statistic: z,
            df: (df > 0).then_some(df as f64),
            p_value: if df > 0 { p_value_t(z, df) } else { 1.0 },
            p_adjusted: 1.0,
            pass: true,
            note: (r.pairs == 0).then(|| "needs two shoes".to_string()),
        }
    }
}

/// Runs of two kinds of cards, `n1` and `n2` of them in uniform random order: the mean and
/// variance of the number of runs (Wald & Wolfowitz 1940); none of one kind, no variance.
fn runs_moments(n1: f64, n2: f64) -> (f64, f64) {
    let a = n1 + n2;
    if n1 == 0.0 || n2 == 0.0 {
        return (1.0, 0.0);
    }
    let mean = 1.0 + 2.0 * n1 * n2 / a;
    let variance = 2.0 * n1 * n2 * (2.0 * n1 * n2 - a) / (a * a * (a - 1.0));
    (mean, variance)
}

/// Cards of ranks counted `counts` in uniform random order: the mean and variance of the
/// number of neighbours of equal rank. Each of the a − 1 neighbours is equal with probability
/// P2/(a(a−1)), P2 = Σ c(c−1); two overlapping ones with P3/(a)_3, P3 = Σ c(c−1)(c−2); two
/// apart with (P2² − Σ (c(c−1))² + P4)/(a)_4.
fn neighbour_moments(counts: &[f64]) -> (f64, f64) {
    let a: f64 = counts.iter().sum();
    if a < 4.0 {
        return (0.0, 0.0);
    }
    let p2: f64 = counts.iter().map(|&k| k * (k - 1.0)).sum();
    let p3: f64 = counts.iter().map(|&k| k * (k - 1.0) * (k - 2.0)).sum();
    let p4: f64 = counts
        .iter()
        .map(|&k| k * (k - 1.0) * (k - 2.0) * (k - 3.0))
        .sum();
    let q: f64 = counts.iter().map(|&k| (k * (k - 1.0)).powi(2)).sum();
    let mean = p2 / a;
    let second = p2 / a + 2.0 * p3 / (a * (a - 1.0)) + (p2 * p2 - q + p4) / (a * (a - 1.0));
    (mean, second - mean * mean)
}

/// The lag-1 products of a sequence's centred values and their moments when the values are
/// in uniform random order.
struct Serial {
    products: f64,
    squares: f64,
    mean: f64,
    variance: f64,
}

/// T = Σ (x_i − x̄)(x_{i+1} − x̄) over neighbours, with its mean −S2/a and variance
/// (S2² − S4)/a + (S2² − 2 S4)/(a(a−1)) − S2²/a² under uniform random order (S2, S4 the
/// sums of the centred values' squares and fourth powers; the moments of a permutation test).
fn serial_moments(x: &[f64]) -> Option<Serial> {
    if x.len() < 4 {
        return None;
    }
    let a = x.len() as f64;
    let mean_x = x.iter().sum::<f64>() / a;
    let s2: f64 = x.iter().map(|v| (v - mean_x).powi(2)).sum();
    let s4: f64 = x.iter().map(|v| (v - mean_x).powi(4)).sum();
    let products: f64 = x
        .windows(2)
        .map(|w| (w[0] - mean_x) * (w[1] - mean_x))
        .sum();
    let mean = -s2 / a;
    let second = (s2 * s2 - s4) / a + (s2 * s2 - 2.0 * s4) / (a * (a - 1.0));
    Some(Serial {
        products,
        squares: s2,
        mean,
        variance: second - mean * mean,
    })
}

/// The moments of Q = Σ_{i<j} weight[j − i] · follows[c_i][c_j] when a shoe's cards, `counts`
/// of each, are in uniform random order: a quadratic assignment statistic Σ A_ij B_π(i)π(j),
/// A the weights by distance (zero unless i < j), B_pq = follows[card p][card q] for p ≠ q.
/// Its mean is ΣA ΣB / (a)_2; its second moment sums A_ij A_kl over the ways the pairs
/// (i, j) and (k, l) share indices (the same pair; one shared index in each of four places;
/// none), each times the mean of B over as many distinct cards (Hubert 1987).
fn kept_moments(
    follows: &[[f64; 52]],
    counts: &[f64; 52],
    weight: &[f64],
    cumulative: &[f64],
) -> (f64, f64) {
    let a: f64 = counts.iter().sum();
    let n = a as usize;
    if n < 4 {
        return (0.0, 0.0);
    }
    // A: Σ, Σ², the squared row sums (= column sums, reversed), rows times columns.
    let (mut s0, mut a1, mut rows, mut mixed) = (0.0, 0.0, 0.0, 0.0);
    for (g, &w) in weight.iter().enumerate().take(n).skip(1) {
        let pairs = (n - g) as f64;
        s0 += pairs * w;
        a1 += pairs * w * w;
    }
    for j in 0..n {
        rows += cumulative[j] * cumulative[j];
        mixed += cumulative[j] * cumulative[n - 1 - j];
    }
    let a3 = rows - a1;
    let a7 = s0 * s0 - a1 - 2.0 * a3 - 2.0 * mixed;
    // B, by blocks of equal cards.
    let (mut t0, mut t1, mut t2) = (0.0, 0.0, 0.0);
    let mut row = [0.0; 52];
    let mut col = [0.0; 52];
    for u in 0..52 {
        for v in 0..52 {
            let w = follows[u][v];
            let cc = counts[u] * counts[v];
            t0 += w * cc;
            t1 += w * w * cc;
            t2 += w * follows[v][u] * cc;
            row[u] += w * counts[v];
            col[u] += follows[v][u] * counts[v];
        }
    }
    for u in 0..52 {
        let w = follows[u][u];
        t0 -= w * counts[u];
        t1 -= w * w * counts[u];
        t2 -= w * w * counts[u];
        row[u] -= w;
        col[u] -= w;
    }
    let rb: f64 = (0..52).map(|u| counts[u] * row[u] * row[u]).sum();
    let cb: f64 = (0..52).map(|u| counts[u] * col[u] * col[u]).sum();
    let mb: f64 = (0..52).map(|u| counts[u] * row[u] * col[u]).sum();
    let l2 = a * (a - 1.0);
    let l3 = l2 * (a - 2.0);
    let l4 = l3 * (a - 3.0);
    let mean = s0 * t0 / l2;
    let second = a1 * t1 / l2
        + a3 * (rb - t1) / l3
        + a3 * (cb - t1) / l3
        + 2.0 * mixed * (mb - t2) / l3
        + a7 * (t0 * t0 + t1 + t2 - rb - cb - 2.0 * mb) / l4;
    (mean, (second - mean * mean).max(0.0))
}

/// Holm's step-down adjustment of the tests' p-values, each then passing at `alpha`.
fn holm(tests: &mut [ShuffleTest], alpha: f64) {
    let m = tests.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| tests[a].p_value.total_cmp(&tests[b].p_value));
    let mut running: f64 = 0.0;
    for (i, &t) in order.iter().enumerate() {
        let p = tests[t].p_value;
        let adjusted = if p.is_nan() {
            1.0
        } else {
            (p * (m - i) as f64).min(1.0)
        };
        running = running.max(adjusted);
        tests[t].p_adjusted = running;
        tests[t].pass = running >= alpha;
    }
}

/// How the power of the tests is measured: logs of shoes dealt by the simulator's shoe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PowerSpec {
    pub decks: u32,
    /// Each shoe is seen to the cut card: this fraction of it.
    pub penetration: f64,
    /// The tests' confidence level (0.99).
    pub level: f64,
    /// The probability of finding the shuffler asked for (0.9).
    pub target: f64,
    /// Independent logs simulated.
    pub logs: u32,
    /// Give up past this many shoes.
    pub max_shoes: u64,
    pub seed: u64,
}

impl PowerSpec {
    /// The seed table's shoe (8 decks, cut card at 75%), 99%, 90%, 400 logs.
    pub fn seed_table() -> PowerSpec {
        PowerSpec {
            decks: 8,
            penetration: 0.75,
            level: 0.99,
            target: 0.9,
            logs: 400,
            max_shoes: 20_000,
            seed: 63,
        }
    }
}

/// The power measured at the seed table's shoe (`PowerSpec::seed_table`: 8 decks, cut card
/// at 75%, 400 logs): for k riffles, the fewest shoes (on `shoes_grid`) at which the verdict
/// fails at 99% in at least 90% of logs. `examples/shuffle_power.rs` measures it again
/// (docs/shuffle.md); a test checks the rows to 6 riffles.
pub const SEED_TABLE_POWER: [(u8, u64); 10] = [
    (3, 2),
    (4, 2),
    (5, 3),
    (6, 5),
    (7, 14),
    (8, 51),
    (9, 209),
    (10, 928),
    (11, 3626),
    (12, 15_840),
];

/// The shoes a log needs for the tests to find a shuffler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Power {
    pub shuffler: Shuffler,
    /// The fewest shoes (on the grid of `shoes_grid`) at which at least `target` of the logs
    /// fail the verdict; none when `max_shoes` are not enough.
    pub shoes: Option<u64>,
    /// The share of logs failing at that many shoes (at `max_shoes` when none).
    pub rate: f64,
    /// The share failing at the grid's number of shoes before `shoes` (less than `target`).
    pub rate_before: f64,
    /// Each test (by key, in the verdict's order) and the share of logs it fails at `shoes`.
    pub by_test: Vec<(String, f64)>,
}

/// The numbers of shoes at which `power` looks: each from 2 to 12, then steps of about 12%.
pub fn shoes_grid(max: u64) -> Vec<u64> {
    let mut grid: Vec<u64> = (2..=12.min(max)).collect();
    let mut s = 12u64;
    while s < max {
        s = ((s as f64 * 1.12).ceil() as u64).min(max);
        grid.push(s);
    }
    grid
}

/// One simulated log: a shoe dealt by `shuffler`, the tests fed with its shoes.
struct Log {
    shoe: Shoe,
    rng: Rng,
    tests: ShuffleTests,
    cards: Vec<CardId>,
    cut: usize,
}

impl Log {
    fn new(shuffler: Shuffler, spec: &PowerSpec, i: u64) -> Log {
        let full = spec.decks as usize * 52;
        let cut = ((spec.penetration * full as f64).round() as usize).clamp(1, full);
        Log {
            shoe: Shoe::new(spec.decks, cut, 64).shuffled_by(shuffler),
            rng: chunk_rng(spec.seed, i),
            tests: ShuffleTests::new(
                spec.decks,
                spec.seed ^ (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            ),
            cards: Vec::with_capacity(cut),
            cut,
        }
    }

    /// Deal and test shoes until `shoes` are in.
    fn advance_to(&mut self, shoes: u64) {
        while self.tests.shoes < shoes {
            self.shoe.reshuffle();
            self.cards.clear();
            for _ in 0..self.cut {
                self.shoe.draw(&mut self.rng);
                self.cards.push(self.shoe.last_card());
            }
            self.tests.add_shoe(&self.cards);
        }
    }
}

/// The share of `spec.logs` logs of `shoes` shoes dealt by `shuffler` whose verdict fails at
/// `spec.level` (for the uniform shuffle, the false-alarm rate).
pub fn rejection_rate(shuffler: Shuffler, shoes: u64, spec: &PowerSpec) -> f64 {
    let mut logs: Vec<Log> = (0..spec.logs as u64)
        .map(|i| Log::new(shuffler, spec, i))
        .collect();
    logs.par_iter_mut().for_each(|l| l.advance_to(shoes));
    let failed = logs
        .iter()
        .filter(|l| !l.tests.finish(spec.level).pass)
        .count();
    failed as f64 / spec.logs as f64
}

/// How many shoes the verdict needs to find `shuffler` (fail at `spec.level`) in at least
/// `spec.target` of the logs: `spec.logs` independent logs, each a run of shoes dealt by the
/// simulator's shoe (a uniform first shoe, then the shuffler's), each shoe seen to its cut
/// card; the verdict is taken at each number of shoes of `shoes_grid`.
pub fn power(shuffler: Shuffler, spec: &PowerSpec) -> Power {
    let mut logs: Vec<Log> = (0..spec.logs as u64)
        .map(|i| Log::new(shuffler, spec, i))
        .collect();
    let mut before = 0.0;
    let mut rate = 0.0;
    for s in shoes_grid(spec.max_shoes) {
        logs.par_iter_mut().for_each(|l| l.advance_to(s));
        let verdicts: Vec<ShuffleVerdict> = logs
            .par_iter()
            .map(|l| l.tests.finish(spec.level))
            .collect();
        rate = verdicts.iter().filter(|v| !v.pass).count() as f64 / spec.logs as f64;
        if rate >= spec.target {
            let by_test = verdicts[0]
                .tests
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let failed = verdicts.iter().filter(|v| !v.tests[i].pass).count();
                    (t.key.clone(), failed as f64 / spec.logs as f64)
                })
                .collect();
            return Power {
                shuffler,
                shoes: Some(s),
                rate,
                rate_before: before,
                by_test,
            };
        }
        before = rate;
    }
    Power {
        shuffler,
        shoes: None,
        rate,
        rate_before: before,
        by_test: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ordering of `items` (as distinct positions: a multiset's orderings each as often).
    fn orderings<T: Copy>(items: &[T]) -> Vec<Vec<T>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut all = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let first = rest.remove(i);
            for mut tail in orderings(&rest) {
                tail.insert(0, first);
                all.push(tail);
            }
        }
        all
    }

    /// The mean and variance of `stat` over every ordering of `cards`.
    fn enumerate(cards: &[CardId], stat: impl Fn(&[CardId]) -> f64) -> (f64, f64) {
        let xs: Vec<f64> = orderings(cards).iter().map(|o| stat(o)).collect();
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        (mean, xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n)
    }

    fn close(got: (f64, f64), want: (f64, f64)) -> bool {
        (got.0 - want.0).abs() < 1e-9 * (1.0 + want.0.abs())
            && (got.1 - want.1).abs() < 1e-9 * (1.0 + want.1.abs())
    }

    /// Seven cards with repeated ranks, values and cards: an ace and a king of clubs twice, two
    /// sevens, a ten and a deuce.
    const SEVEN: [CardId; 7] = [0, 0, 48, 48, 24, 26, 36];

    #[test]
    fn the_exact_moments_are_those_of_every_ordering() {
        let high = |c: CardId| rank_of(c) == 0 || value(rank_of(c)) == 10;
        let n1 = SEVEN.iter().filter(|&&c| high(c)).count() as f64;
        let runs = enumerate(&SEVEN, |o| {
            1.0 + o.windows(2).filter(|w| high(w[0]) != high(w[1])).count() as f64
        });
        assert!(close(runs_moments(n1, 7.0 - n1), runs), "runs {runs:?}");

        let mut counts = [0f64; RANKS];
        for &c in &SEVEN {
            counts[rank_of(c) as usize] += 1.0;
        }
        let neighbours = enumerate(&SEVEN, |o| {
            o.windows(2)
                .filter(|w| rank_of(w[0]) == rank_of(w[1]))
                .count() as f64
        });
        assert!(
            close(neighbour_moments(&counts), neighbours),
            "{neighbours:?}"
        );

        let values =
            |o: &[CardId]| -> Vec<f64> { o.iter().map(|&c| value(rank_of(c)) as f64).collect() };
        let serial = enumerate(&SEVEN, |o| serial_moments(&values(o)).unwrap().products);
        let m = serial_moments(&values(&SEVEN)).unwrap();
        assert!(close((m.mean, m.variance), serial), "{serial:?}");

        // The order kept from a previous shoe whose successions are uneven, some repeated,
        // one of a card by itself.
        let mut kept = Kept::new();
        kept.set_previous(&[0, 48, 0, 48, 24, 24, 36, 26, 0, 26]);
        kept.add(&SEVEN, 1);
        let q = |o: &[CardId]| {
            let mut q = 0.0;
            for i in 0..o.len() {
                for j in i + 1..o.len() {
                    q += kept.follows[o[i] as usize][o[j] as usize] / ((j - i) as f64).sqrt();
                }
            }
            q
        };
        let want = enumerate(&SEVEN, q);
        let mut counts = [0f64; 52];
        for &c in &SEVEN {
            counts[c as usize] += 1.0;
        }
        let got = kept_moments(&kept.follows, &counts, &kept.weight, &kept.cumulative);
        assert!(close(got, want), "{got:?} {want:?}");
        assert!(close((kept.pooled.observed, 0.0), (q(&SEVEN), 0.0)));
    }

    #[test]
    fn holm_adjusts_step_down() {
        let mut tests: Vec<ShuffleTest> = [0.01, 0.04, 0.03, 0.005]
            .iter()
            .map(|&p| ShuffleTest {
                key: String::new(),
                name: String::new(),
                what_it_detects: String::new(),
                null: String::new(),
                n: 1,
                observed: 0.0,
                expected: 0.0,
                statistic: 0.0,
                df: None,
                p_value: p,
                p_adjusted: 1.0,
                pass: true,
                note: None,
            })
            .collect();
        holm(&mut tests, 0.05);
        let adjusted: Vec<f64> = tests.iter().map(|t| t.p_adjusted).collect();
        let want = [0.03, 0.06, 0.06, 0.02];
        for (a, w) in adjusted.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adjusted:?}");
        }
        let pass: Vec<bool> = tests.iter().map(|t| t.pass).collect();
        // Step down: 0.005 and 0.01 rejected, then 0.03 (times 2) stops it.
        assert_eq!(pass, [false, true, true, false]);
    }

    /// A uniform permutation of `decks` fresh decks' cards.
    fn uniform_order(decks: u32, rng: &mut Rng) -> Vec<CardId> {
        let mut cards: Vec<CardId> = (0..decks).flat_map(|_| 0..52u8).collect();
        for p in (1..cards.len()).rev() {
            let j = below(rng, p as u32 + 1) as usize;
            cards.swap(p, j);
        }
        cards
    }

    #[test]
    fn a_uniform_shuffle_passes_at_the_nominal_rate() {
        // 300 logs of 20 shoes from the simulator's uniform shoe (8 decks, cut card at 75%):
        // each test's p-values spread evenly (a tenth below 0.1, within 4.4 standard
        // errors), and the verdict fails in about 1% of the logs or fewer (Holm is
        // conservative).
        let spec = PowerSpec {
            logs: 300,
            ..PowerSpec::seed_table()
        };
        let mut logs: Vec<Log> = (0..spec.logs as u64)
            .map(|i| Log::new(Shuffler::Uniform, &spec, i))
            .collect();
        logs.par_iter_mut().for_each(|l| l.advance_to(20));
        let verdicts: Vec<ShuffleVerdict> = logs.iter().map(|l| l.tests.finish(0.99)).collect();
        let n = verdicts.len() as f64;
        for (i, t) in verdicts[0].tests.iter().enumerate() {
            let low = verdicts.iter().filter(|v| v.tests[i].p_value < 0.1).count() as f64 / n;
            let se = (0.09 / n).sqrt();
            assert!(
                (low - 0.1).abs() < 4.4 * se,
                "{}: {low} of p below 0.1",
                t.key
            );
            assert!(t.note.is_none(), "{}: {:?}", t.key, t.note);
        }
        let failed = verdicts.iter().filter(|v| !v.pass).count() as f64 / n;
        assert!(
            failed <= 0.01 + 4.4 * (0.0099 / n).sqrt(),
            "false alarms {failed}"
        );
    }

    #[test]
    fn four_riffles_are_caught() {
        // In three shoes by the order kept; in ten by the rising sequences too.
        let spec = PowerSpec::seed_table();
        let mut log = Log::new(Shuffler::Riffle(4), &spec, 7);
        log.advance_to(3);
        let failed = |v: &ShuffleVerdict| -> Vec<String> {
            v.tests
                .iter()
                .filter(|t| !t.pass)
                .map(|t| t.key.clone())
                .collect()
        };
        let v = log.tests.finish(0.99);
        assert!(!v.pass && failed(&v).contains(&"kept".into()), "{v:#?}");
        log.advance_to(10);
        let v = log.tests.finish(0.99);
        assert!(failed(&v).contains(&"rising".into()), "{v:#?}");
        // The tests of a shoe alone know nothing of the shoe before: they pass.
        for key in ["position", "runs", "neighbours", "serial"] {
            let t = v.tests.iter().find(|t| t.key == key).unwrap();
            assert!(t.pass, "{t:#?}");
        }
    }

    #[test]
    fn one_shoe_that_repeats_the_previous_shoe_in_blocks_is_caught() {
        // 200 uniform shoes, then one made of the previous shoe's order cut into 16 blocks of
        // 26 cards put back in random order, then 50 more: the worst pair is that one.
        let mut rng = chunk_rng(21, 0);
        let mut tests = ShuffleTests::new(8, 5);
        let mut clean = ShuffleTests::new(8, 5);
        let mut prev = uniform_order(8, &mut rng);
        for shoe in 1..=251 {
            let order = if shoe == 201 {
                let mut blocks: Vec<&[CardId]> = prev.chunks(26).collect();
                for p in (1..blocks.len()).rev() {
                    let j = below(&mut rng, p as u32 + 1) as usize;
                    blocks.swap(p, j);
                }
                blocks.concat()
            } else {
                uniform_order(8, &mut rng)
            };
            tests.add_shoe(&order[..312]);
            if shoe != 201 {
                clean.add_shoe(&order[..312]);
            }
            prev = order;
        }
        let v = tests.finish(0.99);
        assert!(!v.pass);
        let worst = v.tests.iter().find(|t| t.key == "worst").unwrap();
        assert!(!worst.pass, "{worst:#?}");
        assert!(worst.what_it_detects.contains("shoe 201 against shoe 200"));
        assert!(clean.finish(0.99).pass, "{:#?}", clean.finish(0.99));
    }

    #[test]
    fn each_test_of_a_shoe_alone_finds_its_defect() {
        // 40 shoes of 8 decks seen to 312 cards, each with one defect.
        let defect = |key: &str, f: &dyn Fn(&mut Vec<CardId>)| {
            let mut rng = chunk_rng(22, 0);
            let mut tests = ShuffleTests::new(8, 1);
            for _ in 0..40 {
                let mut order = uniform_order(8, &mut rng);
                f(&mut order);
                tests.add_shoe(&order[..312]);
            }
            let v = tests.finish(0.99);
            let t = v.tests.iter().find(|t| t.key == key).unwrap();
            assert!(!t.pass, "{key}: {t:#?}");
        };
        // No ace among the first 52 cards (they went to the end).
        defect("position", &|o| {
            let (mut front, mut back): (Vec<CardId>, Vec<CardId>) =
                o.iter().partition(|&&c| rank_of(c) != 0);
            let mut head: Vec<CardId> = front.drain(..52).collect();
            head.append(&mut front);
            head.append(&mut back);
            *o = head;
        });
        // Each high card's neighbour pulled next to it: high cards in pairs.
        let pair_up = |o: &mut Vec<CardId>, same: &dyn Fn(CardId, CardId) -> bool| {
            let mut i = 0;
            while i + 2 < o.len() {
                if let Some(j) = (i + 1..o.len()).find(|&j| same(o[i], o[j])) {
                    o.swap(i + 1, j);
                }
                i += 2;
            }
        };
        let high = |c: CardId| rank_of(c) == 0 || value(rank_of(c)) == 10;
        defect("runs", &|o| pair_up(o, &|a, b| high(a) == high(b)));
        defect("neighbours", &|o| {
            pair_up(o, &|a, b| rank_of(a) == rank_of(b))
        });
        // Values sorted within runs of four: neighbours rise together.
        defect("serial", &|o| {
            for block in o.chunks_mut(4) {
                block.sort_by_key(|&c| value(rank_of(c)));
            }
        });
    }

    #[test]
    fn the_verdict_is_the_same_for_the_same_shoes_and_seed() {
        let mut rng = chunk_rng(23, 0);
        let shoes: Vec<Vec<CardId>> = (0..5).map(|_| uniform_order(2, &mut rng)).collect();
        let run = |seed: u64| {
            let mut t = ShuffleTests::new(2, seed);
            for s in &shoes {
                t.add_shoe(&s[..80]);
            }
            t.add_shoe(&[1, 2, 60, 3, 255]);
            // A shoe of 2 decks is 104 cards: the 16 past them are left out.
            t.add_shoe(&[7; 120]);
            t.finish(0.99)
        };
        let v = run(9);
        assert_eq!(v, run(9));
        assert_eq!(v.seed, 9);
        assert_eq!(v.skipped_cards, 2 + 16);
        assert_eq!(v.shoes, 7);
        assert_ne!(
            v.tests.iter().find(|t| t.key == "rising").unwrap().expected,
            run(10)
                .tests
                .iter()
                .find(|t| t.key == "rising")
                .unwrap()
                .expected
        );
        // Into JSON and back (no NaN anywhere).
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<ShuffleVerdict>(&json).unwrap(), v);
        // Before any shoe: every test passes, saying why it has nothing yet.
        let empty = ShuffleTests::new(8, 0).finish(0.99);
        assert!(empty.pass && empty.tests.iter().all(|t| t.note.is_some()));
    }

    #[test]
    fn shoes_of_rounds_played_pass_at_the_nominal_rate() {
        // The shoes of the seed table played round by round with basic strategy (each seen to
        // the end of the round in which the cut card came out, so the cards seen depend a
        // little on their order), 5 shoes a chunk as a short run deals them: 200 logs of 60
        // shoes. Each z-test's z has mean 0 and standard deviation 1 within 4.4 standard
        // errors; the verdict fails about 1% of them.
        use crate::games::blackjack::{resolve::seed_chart, round::Table, rules::Rules};
        let rules = Rules::seed();
        let chart = seed_chart();
        let verdicts: Vec<ShuffleVerdict> = (0..200u64)
            .into_par_iter()
            .map(|log| {
                let mut tests = ShuffleTests::new(8, log);
                for chunk in 0..12 {
                    let mut rng = chunk_rng(log, chunk);
                    let mut table = Table::new(&rules, &chart);
                    for _ in 0..5 {
                        let mut shoe_rng =
                            Rng::seed_from_u64(crate::rng::RngCore::next_u64(&mut rng));
                        table.play_shoe(&mut shoe_rng, |_| ());
                        tests.add_shoe(&table.shoe.dealt_ids());
                    }
                }
                tests.finish(0.99)
            })
            .collect();
        let n = verdicts.len() as f64;
        for (i, t) in verdicts[0].tests.iter().enumerate() {
            // The chi-square and the largest of many z are not standard normal.
            if matches!(t.key.as_str(), "position" | "worst") {
                continue;
            }
            let z: Vec<f64> = verdicts.iter().map(|v| v.tests[i].statistic).collect();
            let mean = z.iter().sum::<f64>() / n;
            let sd = (z.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
            assert!(mean.abs() < 4.4 / n.sqrt(), "{}: mean z {mean}", t.key);
            assert!(
                (sd - 1.0).abs() < 4.4 / (2.0 * n).sqrt(),
                "{}: sd {sd}",
                t.key
            );
        }
        let failed = verdicts.iter().filter(|v| !v.pass).count() as f64 / n;
        assert!(
            failed <= 0.01 + 4.4 * (0.0099 / n).sqrt(),
            "false alarms {failed}"
        );
    }

    #[test]
    fn the_stated_power_is_measured() {
        let spec = PowerSpec::seed_table();
        for &(k, shoes) in &SEED_TABLE_POWER[..4] {
            let p = power(Shuffler::Riffle(k), &spec);
            assert_eq!(p.shoes, Some(shoes), "{k} riffles: {p:?}");
            assert!(p.rate >= 0.9 && p.rate_before < 0.9);
        }
        let grid = shoes_grid(spec.max_shoes);
        assert!(SEED_TABLE_POWER.iter().all(|(_, s)| grid.contains(s)));
    }

    #[test]
    fn the_shoes_grid_steps_by_about_an_eighth() {
        let g = shoes_grid(100);
        assert_eq!(&g[..11], &(2..=12).collect::<Vec<_>>()[..]);
        assert_eq!(*g.last().unwrap(), 100);
        assert!(g
            .windows(2)
            .all(|w| w[1] > w[0] && w[1] as f64 <= w[0] as f64 * 1.13 + 1.0));
    }
}
