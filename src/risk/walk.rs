//! The simulations that check the closed forms: the same walk, Brownian motion with the
//! game's drift and variance per round, followed in steps of Δ rounds (each step's net is
//! normal with mean ev·Δ and variance var·Δ). Between two steps the path is a Brownian bridge
//! whatever the drift, and a bridge from x to y (both above a barrier at distance x and y)
//! touches it with probability e^(−2xy/(var·Δ)): each step draws that chance, so the walk
//! crosses a barrier exactly as the continuous one does, however long its steps. The
//! probabilities simulated are those of the formulas, without the bias of looking at the
//! barrier only at the steps' ends; a time (rounds to double) is the middle of the step in
//! which the barrier was crossed, off by at most half a step, and the steps are sized to
//! keep that under a quarter of the mean's SE.
//!
//! Trials run in chunks of [`CHUNK`], chunk c of check k drawing from the stream
//! `rng::chunk_rng(seed, k·2^32 + c)`: the numbers depend on the seed and the trials only,
//! not on the thread count.

use rayon::prelude::*;

use crate::rng::{chunk_rng, Rng, RngCore};

/// Trials of one check per chunk (the unit of work and of progress).
pub const CHUNK: u64 = 1000;

/// A uniform in [0, 1) with 53 random bits.
fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Standard normal draws by Box–Muller, two at a time.
#[derive(Default)]
struct Gauss {
    spare: Option<f64>,
}

impl Gauss {
    fn draw(&mut self, rng: &mut Rng) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        let u = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let v = uniform(rng);
        let r = (-2.0 * u.ln()).sqrt();
        let a = std::f64::consts::TAU * v;
        self.spare = Some(r * a.sin());
        r * a.cos()
    }
}

/// One walk's course: from `start` (the bankroll), a floor at 0 when `floor`, a ceiling when
/// given, for at most `horizon` rounds when given (else until a barrier), in steps of `step`
/// rounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Course {
    pub start: f64,
    pub floor: bool,
    pub ceiling: Option<f64>,
    pub horizon: Option<f64>,
    pub step: f64,
}

/// How a walk ended, and when (rounds: for a barrier, the middle of the step that crossed it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum End {
    Floor(f64),
    Ceiling(f64),
    /// The horizon reached between the barriers, at this level.
    Horizon(f64),
}

/// Walk `c` once, for a game of `ev` and `sd` per round.
fn walk(rng: &mut Rng, gauss: &mut Gauss, ev: f64, sd: f64, c: &Course) -> End {
    let var = sd * sd;
    let (mut t, mut x) = (0.0, c.start);
    loop {
        let dt = match c.horizon {
            Some(h) if h - t <= 0.0 => return End::Horizon(x),
            Some(h) => c.step.min(h - t),
            None => c.step,
        };
        let y = x + ev * dt + sd * dt.sqrt() * gauss.draw(rng);
        let mid = t + dt / 2.0;
        if c.floor {
            // The bridge from x to y touches 0 with probability e^(−2xy/(var·dt)).
            if y <= 0.0 {
                return End::Floor(mid);
            }
            let p = (-2.0 * x * y / (var * dt)).exp();
            if p > 0.0 && uniform(rng) < p {
                return End::Floor(mid);
            }
        }
        if let Some(top) = c.ceiling {
            if y >= top {
                return End::Ceiling(mid);
            }
            let p = (-2.0 * (top - x) * (top - y) / (var * dt)).exp();
            if p > 0.0 && uniform(rng) < p {
                return End::Ceiling(mid);
            }
        }
        x = y;
        t += dt;
        // A horizon reached to rounding: the walk ends here.
        if c.horizon.is_some_and(|h| t >= h * (1.0 - 1e-12)) {
            return End::Horizon(x);
        }
    }
}

/// What a check counts of each walk: a share (an indicator of the walk's end) or a mean (a
/// time or a level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    /// Ended on the floor.
    Ruined,
    /// Ended on the ceiling.
    Reached,
    /// Ended at the horizon above its start.
    Ahead,
    /// The rounds until the ceiling (a walk still short of it at the horizon, a cap far in
    /// the tail, counts the horizon).
    RoundsToCeiling,
}

impl Tally {
    fn value(self, end: End, c: &Course) -> f64 {
        let yes = |b: bool| if b { 1.0 } else { 0.0 };
        match (self, end) {
            (Tally::Ruined, e) => yes(matches!(e, End::Floor(_))),
            (Tally::Reached, e) => yes(matches!(e, End::Ceiling(_))),
            (Tally::Ahead, End::Horizon(x)) => yes(x > c.start),
            (Tally::Ahead, _) => 0.0,
            (Tally::RoundsToCeiling, End::Ceiling(t)) => t,
            (Tally::RoundsToCeiling, _) => c.horizon.unwrap_or(f64::NAN),
        }
    }
}

/// The sums of a check's trials: count, Σv, Σv², and the steps walked (chunks add up in
/// order, so the totals are the same for any thread count).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sums {
    pub n: u64,
    pub sum: f64,
    pub sum_sq: f64,
}

impl Sums {
    pub fn mean(&self) -> f64 {
        self.sum / self.n as f64
    }

    /// The SE of the mean from the trials' own spread.
    pub fn se(&self) -> f64 {
        let n = self.n as f64;
        let m = self.mean();
        ((self.sum_sq / n - m * m).max(0.0) / n).sqrt()
    }
}

/// Walk `trials` walks of course `c` for check number `check` of a run seeded `seed`;
/// `tick` is called after each chunk.
pub fn run(
    ev: f64,
    sd: f64,
    c: &Course,
    tally: Tally,
    trials: u64,
    (seed, check): (u64, u64),
    tick: &(dyn Fn() + Sync),
) -> Sums {
    let chunks = trials.div_ceil(CHUNK);
    let parts: Vec<Sums> = (0..chunks)
        .into_par_iter()
        .map(|k| {
            let mut rng = chunk_rng(seed, (check << 32) | k);
            let mut gauss = Gauss::default();
            let n = CHUNK.min(trials - k * CHUNK);
            let mut s = Sums {
                n,
                ..Sums::default()
            };
            for _ in 0..n {
                let v = tally.value(walk(&mut rng, &mut gauss, ev, sd, c), c);
                s.sum += v;
                s.sum_sq += v * v;
            }
            tick();
            s
        })
        .collect();
    parts.iter().fold(Sums::default(), |a, p| Sums {
        n: a.n + p.n,
        sum: a.sum + p.sum,
        sum_sq: a.sum_sq + p.sum_sq,
    })
}

/// Trips that check [`super::bankroll_for_ror`] in a counting run's report: `TRIP_CHECKS`
/// bankroll paths from `bankroll`, each a random walk of blocks of rounds whose net is normal
/// with the run's EV and variance per round (block SD `bankroll / TRIP_BLOCK_STEPS`), ended
/// by ruin (0 or below, looked at the blocks' ends only) or by reaching `TRIP_CEILING` times
/// the bankroll.
pub const TRIP_CHECKS: u64 = 1000;
pub const TRIP_BLOCK_STEPS: f64 = 50.0;
pub const TRIP_CEILING: f64 = 3.0;

/// The outcome of the check trips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TripCheck {
    pub trips: u64,
    pub ruined: u64,
    /// Rounds in a block (fractional: the walk is a diffusion at that scale).
    pub block_rounds: f64,
    /// The formula's chance of the same event (ruin before the ceiling): (R − R^c)/(1 − R^c)
    /// for R the lifetime ruin of the bankroll and c the ceiling multiple.
    pub formula: f64,
}

/// Plays the check trips for a game of `ev` and `var` per round (EV > 0) from `bankroll`,
/// from a fixed stream of `seed`.
pub fn ror_trips(ev: f64, var: f64, bankroll: f64, seed: u64) -> TripCheck {
    use crate::rng::SeedableRng;
    let mut rng = Rng::seed_from_u64(seed);
    let block_sd = bankroll / TRIP_BLOCK_STEPS;
    let block_rounds = block_sd * block_sd / var;
    let drift = ev * block_rounds;
    let ceiling = TRIP_CEILING * bankroll;
    let mut gauss = Gauss::default();
    let mut ruined = 0;
    for _ in 0..TRIP_CHECKS {
        let mut level = bankroll;
        while level > 0.0 && level < ceiling {
            level += drift + block_sd * gauss.draw(&mut rng);
        }
        ruined += u64::from(level <= 0.0);
    }
    let r = (-2.0 * ev * bankroll / var).exp();
    let rc = r.powf(TRIP_CEILING);
    TripCheck {
        trips: TRIP_CHECKS,
        ruined,
        block_rounds,
        formula: (r - rc) / (1.0 - rc),
    }
}

#[cfg(test)]
mod tests {
    use super::super::formulas::*;
    use super::*;

    /// The share of `n` walks and its z against `p` (the binomial SE at `p`).
    fn share_z(s: &Sums, p: f64) -> f64 {
        (s.mean() - p) / (p * (1.0 - p) / s.n as f64).sqrt()
    }

    fn walks(ev: f64, sd: f64, c: Course, tally: Tally, n: u64, check: u64) -> Sums {
        run(ev, sd, &c, tally, n, (11, check), &|| {})
    }

    #[test]
    fn the_double_barrier_walk_agrees_with_the_formula() {
        // Hall's game and two others: ruin before the goal, within 4 SE of 10,000 walks.
        for (i, (ev, var, b, g)) in [
            (0.0151, 3.887, 300.0, 300.0),
            (0.0014, 10.67, 1000.0, 2000.0),
            (-0.01, 1.3, 50.0, 100.0),
        ]
        .into_iter()
        .enumerate()
        {
            let c = Course {
                start: b,
                floor: true,
                ceiling: Some(b + g),
                horizon: None,
                step: ((b + g) / 50.0).powi(2) / var,
            };
            let s = walks(ev, f64::sqrt(var), c, Tally::Ruined, 10_000, i as u64);
            let p = ruin_before_goal(ev, var, b, g);
            let z = share_z(&s, p);
            assert!(
                z.abs() < 4.0,
                "{ev} {b} {g}: {} vs {p} (z {z:+.2})",
                s.mean()
            );
        }
    }

    #[test]
    fn the_trip_walk_agrees_with_the_reflection_formula() {
        for (i, (ev, sd, b, n)) in [
            (0.0014, 3.27, 1000.0, 20_000.0),
            (0.0, 1.1, 30.0, 1000.0),
            (-0.005, 1.1, 100.0, 5000.0),
        ]
        .into_iter()
        .enumerate()
        {
            let c = Course {
                start: b,
                floor: true,
                ceiling: None,
                horizon: Some(n),
                step: n / 100.0,
            };
            let s = walks(ev, sd, c, Tally::Ruined, 20_000, 10 + i as u64);
            let p = ruin_probability(ev, sd, b, Some(n));
            let z = share_z(&s, p);
            assert!(
                z.abs() < 4.0,
                "{ev} {b} {n}: {} vs {p} (z {z:+.2})",
                s.mean()
            );
        }
    }

    /// Without the bridge's chance of touching the floor between steps, long steps would
    /// miss most ruins: the bridge makes even 5 steps a trip exact.
    #[test]
    fn long_steps_lose_no_ruin() {
        let (ev, sd, b, n) = (0.0, 1.0, 20.0, 1000.0);
        let c = Course {
            start: b,
            floor: true,
            ceiling: None,
            horizon: Some(n),
            step: n / 5.0,
        };
        let s = walks(ev, sd, c, Tally::Ruined, 20_000, 20);
        let p = ruin_probability(ev, sd, b, Some(n));
        assert!(share_z(&s, p).abs() < 4.0, "{} vs {p}", s.mean());
    }

    #[test]
    fn the_time_to_double_agrees_with_wald_and_the_median() {
        let (ev, var, b) = (0.0151, 3.887, 300.0);
        let sd = f64::sqrt(var);
        let median = rounds_to_double_median(ev, var, b).unwrap();
        let by_median = Course {
            start: 0.0,
            floor: false,
            ceiling: Some(b),
            horizon: Some(median),
            step: median / 100.0,
        };
        let s = walks(ev, sd, by_median, Tally::Reached, 20_000, 30);
        assert!(share_z(&s, 0.5).abs() < 4.0, "{}", s.mean());
        let mean = rounds_to_double_mean(ev, b).unwrap();
        let c = Course {
            start: 0.0,
            floor: false,
            ceiling: Some(b),
            horizon: Some(1e4 * mean),
            step: mean / 400.0,
        };
        let s = walks(ev, sd, c, Tally::RoundsToCeiling, 10_000, 31);
        let z = (s.mean() - mean) / s.se();
        assert!(z.abs() < 4.0, "{} ± {} vs {mean}", s.mean(), s.se());
    }

    #[test]
    fn walks_are_the_same_for_any_thread_count() {
        let c = Course {
            start: 10.0,
            floor: true,
            ceiling: Some(30.0),
            horizon: None,
            step: 1.0,
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| walks(0.01, 1.0, c, Tally::Ruined, 3500, 0));
        let many = walks(0.01, 1.0, c, Tally::Ruined, 3500, 0);
        assert_eq!(one, many);
        assert_eq!(one.n, 3500);
    }

    #[test]
    fn check_trips_agree_with_the_formula_within_their_se() {
        for (ev, var, r) in [
            (0.0014, 10.67, 0.05),
            (0.03, 31.0, 0.2),
            (0.002, 11.0, 0.01),
        ] {
            let b = bankroll_for_ror(ev, var, r).unwrap();
            let c = ror_trips(ev, var, b, 7);
            assert_eq!(c.trips, TRIP_CHECKS);
            let p = c.ruined as f64 / c.trips as f64;
            let se = (c.formula * (1.0 - c.formula) / c.trips as f64).sqrt();
            // The same event by the formula: ruin before the ceiling, just below the target.
            assert!(c.formula < r && c.formula > r * (1.0 - r.powi(2)), "{c:?}");
            assert!(
                (p - c.formula).abs() < 3.0 * se,
                "{r}: {p} vs {} ± {se}",
                c.formula
            );
            assert!((c.block_rounds * var).sqrt() - b / TRIP_BLOCK_STEPS < 1e-6 * b);
        }
    }
}
