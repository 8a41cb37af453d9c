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
    fn below_range_one_is_zero() {
        let mut rng = chunk_rng(1, 0);
        for _ in 0..100 {
            assert_eq!(below(&mut rng, 1), 0);
        }
    }
}
