//! The one generator type and the derivation of per-chunk streams.
//!
//! Chunk `c` of a run seeded with `seed` uses `Xoshiro256PlusPlus::seed_from_u64(seed)`
//! advanced by `c · 2^128` steps (`jump_ce(c, 128)`), so streams never overlap and a chunk's
//! numbers depend on `(seed, c)` only: never on the thread or shard that runs it.

pub use rand_core::{Rng as RngCore, SeedableRng};
pub use rand_xoshiro::Xoshiro256PlusPlus as Rng;

/// The random stream of chunk `chunk` of a run seeded with `seed`.
pub fn chunk_rng(seed: u64, chunk: u64) -> Rng {
    let mut rng = Rng::seed_from_u64(seed);
    if chunk > 0 {
        rng.jump_ce(chunk, 128);
    }
    rng
}

/// A stream beside chunk `chunk_stream`'s (as it starts), for randomness that must not touch
/// the cards (a counter's miscounts): the chunk's stream advanced by 2^192 steps
/// (`long_jump`). Chunk c's stream starts c·2^128 steps into the seed's and chunks are below
/// 2^64, so every chunk stream lies below 2^192 steps and no side stream overlaps one; the
/// side stream depends on (seed, chunk) only, and drawing from it leaves the chunk's cards as
/// they are.
pub fn side_rng(chunk_stream: &Rng) -> Rng {
    let mut rng = chunk_stream.clone();
    rng.long_jump();
    rng
}

/// The streams of the chunks one worker runs, in increasing chunk order: the same streams as
/// [`chunk_rng`], each derived from the worker's previous one by whole 2^128-step jumps when
/// the chunk is at most `MAX_STEPS` beyond it (a `jump` costs about a thousandth of the
/// polynomial jump `jump_ce`, which took 3-7% of a blackjack run's time).
pub struct ChunkStreams {
    seed: u64,
    /// The last chunk given and its stream as it started.
    last: Option<(u64, Rng)>,
}

impl ChunkStreams {
    /// Chunks further than this beyond the last one take the polynomial jump.
    const MAX_STEPS: u64 = 1024;

    pub fn new(seed: u64) -> ChunkStreams {
        ChunkStreams { seed, last: None }
    }

    /// The stream of chunk `chunk` (equal to `chunk_rng(seed, chunk)`).
    pub fn stream(&mut self, chunk: u64) -> Rng {
        let rng = match &self.last {
            Some((last, rng)) if *last < chunk && chunk - last <= Self::MAX_STEPS => {
                let mut rng = rng.clone();
                for _ in *last..chunk {
                    rng.jump();
                }
                rng
            }
            _ => chunk_rng(self.seed, chunk),
        };
        self.last = Some((chunk, rng.clone()));
        rng
    }
}

/// A uniform integer in `0..range` (Lemire's multiply-shift with rejection: exactly
/// unbiased). `range` must be non-zero.
#[inline(always)]
pub fn below(rng: &mut Rng, range: u32) -> u32 {
    debug_assert!(range > 0);
    let mut m = (rng.next_u64() >> 32) * range as u64;
    let mut lo = m as u32;
    if lo < range {
        let threshold = range.wrapping_neg() % range;
        while lo < threshold {
            m = (rng.next_u64() >> 32) * range as u64;
            lo = m as u32;
        }
    }
    (m >> 32) as u32
}

/// `K` independent uniform integers in `0..r[0]`, …, `0..r[K-1]` from one 64-bit draw
/// (Brackett-Rozinsky & Lemire, "Batched ranged random integer generation", 2024): the chain
/// of multiply-high steps is Lemire's method for the range `r[0]·…·r[K-1]` written in mixed
/// radix, with its rejection step, so the result is exactly unbiased. The product of the
/// ranges must be non-zero and below 2^64.
#[inline(always)]
pub fn below_many<const K: usize>(rng: &mut Rng, r: [u64; K]) -> [u64; K] {
    debug_assert!(r.iter().all(|&x| x > 0));
    let product = r.iter().product::<u64>();
    loop {
        let mut lo = rng.next_u64();
        let mut out = [0u64; K];
        for (o, &n) in out.iter_mut().zip(&r) {
            let m = lo as u128 * n as u128;
            *o = (m >> 64) as u64;
            lo = m as u64;
        }
        // `lo` is x·product mod 2^64: reject the few x that would favour some results.
        if lo >= product || lo >= product.wrapping_neg() % product {
            return out;
        }
    }
}

/// A uniform die face in `1..=6`.
#[inline(always)]
pub fn die(rng: &mut Rng) -> u8 {
    below(rng, 6) as u8 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_streams_are_jumps_of_the_base_stream() {
        let mut a = chunk_rng(7, 0);
        a.jump();
        a.jump();
        a.jump();
        let b = chunk_rng(7, 3);
        assert_eq!(a, b);
        assert_ne!(chunk_rng(7, 1), chunk_rng(8, 1));
    }

    #[test]
    fn chunk_streams_in_any_increasing_order_are_the_chunk_rngs() {
        // Steps of 1, of a few (a worker among several threads), exactly MAX_STEPS and one
        // more (the polynomial jump again), a repeated and a smaller chunk (taken afresh).
        let steps = [0u64, 1, 1, 2, 5, 3, 1024, 1025, 1, 0, 7];
        let mut streams = ChunkStreams::new(11);
        let mut c = 0u64;
        for (k, &d) in steps.iter().enumerate() {
            c += d;
            assert_eq!(streams.stream(c), chunk_rng(11, c), "step {k}: chunk {c}");
        }
        assert_eq!(streams.stream(3), chunk_rng(11, 3));
        let mut from_far = ChunkStreams::new(11);
        assert_eq!(from_far.stream(1 << 40), chunk_rng(11, 1 << 40));
        assert_eq!(from_far.stream((1 << 40) + 2), chunk_rng(11, (1 << 40) + 2));
        // The stream handed out is fresh even after it was used.
        let mut s = ChunkStreams::new(4);
        let mut first = s.stream(0);
        first.next_u64();
        assert_eq!(s.stream(1), chunk_rng(4, 1));
    }

    #[test]
    fn below_is_uniform_on_a_small_range() {
        let mut rng = chunk_rng(1, 0);
        let mut counts = [0u32; 6];
        let n = 600_000;
        for _ in 0..n {
            counts[below(&mut rng, 6) as usize] += 1;
        }
        // Each count is Binomial(n, 1/6): sd = sqrt(n * 1/6 * 5/6) ≈ 288.7; allow 5 sd.
        for c in counts {
            assert!((c as f64 - 100_000.0).abs() < 5.0 * 288.7, "{counts:?}");
        }
    }

    #[test]
    fn below_many_is_lemire_for_the_product_in_mixed_radix() {
        // floor(x·P / 2^64) = j0·r1·r2 + j1·r2 + j2 for every draw x that is not rejected.
        let r = [416u64, 415, 414, 413, 412];
        let p: u64 = r.iter().product();
        let mut a = chunk_rng(5, 0);
        let mut b = a.clone();
        for _ in 0..10_000 {
            let x = b.next_u64();
            let j = below_many(&mut a, r);
            assert!(j.iter().zip(&r).all(|(j, r)| j < r));
            let whole = ((x as u128 * p as u128) >> 64) as u64;
            let mixed = j.iter().zip(&r).fold(0, |acc, (j, r)| acc * r + j);
            assert_eq!(whole, mixed);
        }
    }

    #[test]
    fn below_many_is_uniform_and_independent_on_small_ranges() {
        let mut rng = chunk_rng(2, 0);
        let mut counts = [[[0u32; 4]; 3]; 2];
        let n = 240_000;
        for _ in 0..n {
            let [a, b, c] = below_many(&mut rng, [2, 3, 4]);
            counts[a as usize][b as usize][c as usize] += 1;
        }
        // Each of the 24 cells is Binomial(n, 1/24): sd ≈ 97.9; allow 5 sd.
        for c in counts.iter().flatten().flatten() {
            assert!((*c as f64 - 10_000.0).abs() < 5.0 * 97.9, "{counts:?}");
        }
    }

    #[test]
    fn below_range_one_is_zero() {
        let mut rng = chunk_rng(1, 0);
        for _ in 0..100 {
            assert_eq!(below(&mut rng, 1), 0);
        }
    }
}
