//! Simulated trips that play a sheet round by round: each round's count is drawn from the
//! table's shares of rounds played, and its net from a two-point law with the count's EV and
//! variance per unit (Hall's coin: ±b·√(v + e²), won with probability (1 + e/√(v + e²))/2),
//! so that a round has the table's mean b·e and variance b²·v at its count. A trip starts
//! with the bankroll and is ruined when it falls to 0 or below; it ends there, at a ceiling
//! when given, or after its rounds. Unlike the Brownian formula the walk moves in whole bets,
//! so it overshoots 0 when ruined: with bets small against the bankroll the two agree.
//!
//! Trips run in chunks of [`TRIP_CHUNK`]; chunk c draws from `rng::chunk_rng(seed, 2^48 + c)`
//! (streams apart from those of a table run of the same seed, whose chunks count from 0), and
//! the counts add up, so the result is the same for any thread count.

use rayon::prelude::*;
use serde::Serialize;

use super::super::ramp::CountRow;
use crate::rng::{chunk_rng, Rng, RngCore};

/// Trips per chunk.
pub const TRIP_CHUNK: u64 = 100;
/// The first stream of the trips.
const TRIP_STREAMS: u64 = 1 << 48;

/// Where a trip ends: after `rounds` rounds, or (lifetime checks) at `ceiling` times the
/// bankroll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Course {
    pub rounds: Option<u64>,
    pub ceiling: Option<f64>,
}

impl Course {
    pub fn trip(rounds: u64) -> Course {
        Course {
            rounds: Some(rounds),
            ceiling: None,
        }
    }
}

/// What the trips gave, beside the formula for the same event.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TripOutcome {
    pub trips: u64,
    pub ruined: u64,
    /// The share ruined and its binomial SE.
    pub share: f64,
    pub se: f64,
}

/// A uniform in [0, 1) with 53 random bits.
fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// One round's law at each row: the cumulative share, the coin's stake and its chance.
struct Law {
    cdf: Vec<f64>,
    stake: Vec<f64>,
    win: Vec<f64>,
}

impl Law {
    fn new(rows: &[CountRow], bets: &[f64]) -> Law {
        let n: f64 = rows.iter().map(|r| r.played as f64).sum();
        let mut acc = 0.0;
        let mut law = Law {
            cdf: Vec::new(),
            stake: Vec::new(),
            win: Vec::new(),
        };
        for (r, &b) in rows.iter().zip(bets) {
            acc += r.played as f64 / n;
            let a = (r.variance + r.ev * r.ev).sqrt();
            law.cdf.push(acc);
            law.stake.push(b * a);
            law.win
                .push(if a > 0.0 { 0.5 * (1.0 + r.ev / a) } else { 0.5 });
        }
        if let Some(last) = law.cdf.last_mut() {
            *last = f64::INFINITY;
        }
        law
    }

    fn round(&self, rng: &mut Rng) -> f64 {
        let u = uniform(rng);
        let i = self.cdf.partition_point(|&c| c <= u);
        if uniform(rng) < self.win[i] {
            self.stake[i]
        } else {
            -self.stake[i]
        }
    }
}

/// Whether one trip from `bankroll` is ruined.
fn trip(law: &Law, rng: &mut Rng, bankroll: f64, c: &Course) -> bool {
    let top = c.ceiling.map_or(f64::INFINITY, |k| k * bankroll);
    let mut x = bankroll;
    let mut n = 0;
    while c.rounds.is_none_or(|r| n < r) {
        x += law.round(rng);
        if x <= 0.0 {
            return true;
        }
        if x >= top {
            return false;
        }
        n += 1;
    }
    false
}

/// Play `trials` trips of `bets` at `rows` from `bankroll`, along `course`, seeded `seed`;
/// the trips played counted on `bar`.
pub fn play_trips(
    rows: &[CountRow],
    bets: &[f64],
    bankroll: f64,
    course: Course,
    trials: u64,
    seed: u64,
    bar: &crate::progress::Progress,
) -> TripOutcome {
    let law = Law::new(rows, bets);
    // A course without an end would not end: a lifetime at ten times the bankroll.
    let course = match course {
        Course {
            rounds: None,
            ceiling: None,
        } => Course {
            rounds: None,
            ceiling: Some(10.0),
        },
        c => c,
    };
    let chunks = trials.div_ceil(TRIP_CHUNK);
    let ruined: u64 = (0..chunks)
        .into_par_iter()
        .map(|k| {
            let mut rng = chunk_rng(seed, TRIP_STREAMS | k);
            let n = TRIP_CHUNK.min(trials - k * TRIP_CHUNK);
            let r = (0..n)
                .filter(|_| trip(&law, &mut rng, bankroll, &course))
                .count() as u64;
            bar.advance(n);
            r
        })
        .sum();
    let share = ruined as f64 / trials.max(1) as f64;
    TripOutcome {
        trips: trials,
        ruined,
        share,
        se: (share * (1.0 - share) / trials.max(1) as f64).sqrt(),
    }
}
