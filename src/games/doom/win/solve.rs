//! The solve itself: the score grid, the turn's dynamic program with its slope, Newton on each
//! 2-cycle, the tail cut-off and the final interpolation of the scores not solved.
//!
//! **Distances.** A score's distance is the target minus the score, in units (1 ..= `tu`). The
//! game's values depend on the two distances only (translation invariance), so the grid is
//! defined on distances: every distance up to `fine` is solved, beyond it every `step`-th and
//! the start (distance `tu`). A pair of scores is solved when both distances are on the grid.
//!
//! **Reading between grid points.** Banking from (a, b) reads the opponent's value at
//! (b, a + t): its first score is on the grid, its second is interpolated (Lagrange, four grid
//! points) when not. Only grid points at or beyond the mover's own score are solved by then;
//! the top one may be the mover's own score, whose value is the 2-cycle partner's (unknown
//! while the pair is solved): a bank there is affine in the partner's value, and the slope
//! the Newton step uses carries it.
//!
//! **Newton.** The mover's win probability is a convex piecewise-linear function of its
//! partner's value (a farkle is worth 1 − that value); its slope is carried through the same
//! pass (minus the chance of a bust, plus the weights of banks that read the partner). The
//! 2-cycle x = f(y), y = g(x) is solved by Newton on G(x) = f(g(x)) − x, kept inside a
//! bracket (bisection when a step leaves it), from the neighbouring solved value.

use rayon::prelude::*;

use super::{other, Fast, WinSolution};

/// Lagrange weights of four nodes at `z`.
fn lagrange(nodes: [usize; 4], z: usize) -> [f64; 4] {
    let z = z as f64;
    let n = nodes.map(|v| v as f64);
    let mut w = [1.0; 4];
    for i in 0..4 {
        for j in 0..4 {
            if i != j {
                w[i] *= (z - n[j]) / (n[i] - n[j]);
            }
        }
    }
    w
}

/// The distances solved (the grid) and, for each distance, the grid points around it.
#[derive(Clone, Debug)]
pub(super) struct Grid {
    pub node: Vec<bool>,
    /// Largest grid distance at or below, smallest at or above (index: distance 0 ..= tu).
    prev: Vec<usize>,
    next: Vec<usize>,
}

impl Grid {
    /// Every distance up to `fine`, every `step`-th beyond it, and `tu`.
    pub fn new(tu: usize, fine: usize, step: usize) -> Grid {
        let fine = fine.max(4);
        let step = step.max(1);
        let node: Vec<bool> = (0..=tu)
            .map(|d| d >= 1 && (d <= fine || (d - fine).is_multiple_of(step) || d == tu))
            .collect();
        let mut prev = vec![0; tu + 1];
        let mut last = 0;
        for d in 0..=tu {
            if node[d] {
                last = d;
            }
            prev[d] = last;
        }
        let mut next = vec![tu; tu + 1];
        let mut last = tu;
        for d in (0..=tu).rev() {
            if node[d] {
                last = d;
            }
            next[d] = last;
        }
        Grid { node, prev, next }
    }

    /// Grid distances (ascending).
    pub fn nodes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.node.len()).filter(|&d| self.node[d])
    }

    /// The four grid points interpolating at distance `z` (not on the grid) using none beyond
    /// `top` (a grid point above `z`), and their weights: two on each side where `top` allows,
    /// else three below and `top`.
    pub fn stencil(&self, z: usize, top: usize) -> ([usize; 4], [f64; 4]) {
        let (lo, hi) = (self.prev[z], self.next[z]);
        let below = self.prev[lo - 1];
        let nodes = if hi < top {
            [below, lo, hi, self.next[hi + 1]]
        } else {
            [self.prev[below - 1], below, lo, hi]
        };
        (nodes, lagrange(nodes, z))
    }
}

/// Work buffers of one thread: the turn's values and slopes, the bank values.
#[derive(Default)]
pub(super) struct Bufs {
    vr: Vec<f64>,
    dv: Vec<f64>,
    banks: Vec<(f64, f64)>,
}

/// A solved 2-cycle: its unit (k, a, b), the two values, the residual (0 when the last
/// Newton step was taken unverified), the turn passes, and the unverified step taken.
pub(super) type PairOut = ((usize, usize, usize), f64, f64, f64, u64, f64);

impl Fast {
    /// The turn's dynamic program with the slope of every value with respect to the
    /// partner's value: `farkle` and every bank given as (value, slope), states at `levels`
    /// and above worth `beyond` ((value, slope) of a state, of rolling there). A bank in state
    /// (p, h) is `banks[p + pts[h]]` where `bankable`. Returns the first roll's (value, slope).
    pub(super) fn turn_d(
        &self,
        levels: usize,
        farkle: (f64, f64),
        banks: &[(f64, f64)],
        beyond: ((f64, f64), (f64, f64)),
        b: &mut Bufs,
    ) -> (f64, f64) {
        let hs = self.holds;
        let total = levels + self.max_gain;
        let (vr, dv) = (&mut b.vr, &mut b.dv);
        vr.clear();
        vr.resize(2 * total * hs, 0.0);
        dv.clear();
        dv.resize(2 * total * hs, 0.0);
        for i in 2 * levels * hs..2 * total * hs {
            let (v, d) = if i % 2 == 0 { beyond.0 } else { beyond.1 };
            vr[i] = v;
            dv[i] = d;
        }
        for p in (0..levels).rev() {
            let base = 2 * p * hs;
            for &h in &self.order {
                // The best set-aside of a roll: its value and slope.
                let best = |s: u32, e: u32| {
                    let mut best = f64::NEG_INFINITY;
                    let mut at = 0;
                    for &k in &self.opts[s as usize..e as usize] {
                        let v = vr[base + k as usize];
                        if v > best {
                            best = v;
                            at = k as usize;
                        }
                    }
                    (best, dv[base + at])
                };
                // Two sums, to halve the chain of dependent additions.
                let mut acc = [
                    (self.bust[h] * farkle.0, self.bust[h] * farkle.1),
                    (0.0, 0.0),
                ];
                let rolls = &self.rolls[h];
                for (i, &(pr, s, e)) in rolls.iter().enumerate() {
                    let (v, d) = best(s, e);
                    let a = &mut acc[i % 2];
                    a.0 += pr * v;
                    a.1 += pr * d;
                }
                let (r, dr) = (acc[0].0 + acc[1].0, acc[0].1 + acc[1].1);
                let (v, d) = match self.bankable(p, h) {
                    Some(tp) if banks[tp].0 >= r => banks[tp],
                    _ => (r, dr),
                };
                vr[base + 2 * h] = v;
                dv[base + 2 * h] = d;
                vr[base + 2 * h + 1] = r;
                dv[base + 2 * h + 1] = dr;
            }
        }
        (vr[1], dv[1])
    }

    /// The largest turn points (units) of any hold.
    pub(super) fn max_pts(&self) -> usize {
        self.pts.iter().copied().max().unwrap_or(0) as usize
    }

    /// The largest chance over all policies that a turn's finished cycles reach `levels`
    /// levels of turn points (never banking, every set-aside chosen to get there).
    pub(super) fn p_reach(&self, levels: usize) -> f64 {
        let mut b = Bufs::default();
        let banks = vec![(0.0, 0.0); levels + self.max_pts() + 1];
        let fast = Fast {
            min_bank: u32::MAX,
            ..self.clone()
        };
        let roll = fast.forced_roll_beyond(0.0, 1.0);
        fast.turn_d(
            levels,
            (0.0, 0.0),
            &banks,
            ((1.0, 0.0), (roll, 0.0)),
            &mut b,
        )
        .0
    }
}

impl WinSolution {
    /// The levels the mover's turn at (k, a, b) follows in the solve: to the target (and the
    /// cap past the opponent's score for a first seat under finish-round), cut at the tail
    /// level. Returns (levels, whether cut).
    pub(super) fn solve_levels(&self, k: usize, a: usize, b: usize) -> (usize, bool) {
        let full = if self.finish_round && k == 0 {
            self.tu.max(b + self.cap) - a
        } else {
            self.tu - a
        }
        .max(self.fast.min_bank as usize);
        if full > self.tail_levels {
            (self.tail_levels, true)
        } else {
            (full, false)
        }
    }

    /// The value of banking to score `s` (units, above `a`) for the mover at (k, a, b) as
    /// (value, slope) in the partner's value `y` (the opponent at (b, a)).
    fn bank_at(&self, k: usize, a: usize, b: usize, s: usize, y: f64) -> (f64, f64) {
        let tu = self.tu;
        if s >= tu {
            return if self.finish_round && k == 0 {
                (1.0 - self.lambda_at(s - b), 0.0)
            } else {
                (1.0, 0.0)
            };
        }
        let o = other(self.finish_round, k);
        let row = &self.w[o][b * tu..(b + 1) * tu];
        let z = tu - s;
        if self.grid.node[z] {
            return (1.0 - row[s], 0.0);
        }
        let (nodes, wts) = self.grid.stencil(z, tu - a);
        let (mut v, mut c) = (0.0, 0.0);
        for (n, wt) in nodes.into_iter().zip(wts) {
            if n == tu - a {
                c += wt;
            } else {
                v += wt * row[tu - n];
            }
        }
        (1.0 - v - c * y, -c)
    }

    /// The mover's turn at (k, a, b) when the partner's value is `y`: (win probability, its
    /// slope in `y`).
    pub(super) fn eval_turn(
        &self,
        k: usize,
        a: usize,
        b: usize,
        y: f64,
        bufs: &mut Bufs,
    ) -> (f64, f64) {
        let fast = &self.fast;
        let (levels, cut) = self.solve_levels(k, a, b);
        let mut banks = std::mem::take(&mut bufs.banks);
        banks.clear();
        let min_bank = fast.min_bank as usize;
        banks.extend((0..levels + fast.max_pts() + 1).map(|tp| {
            if tp < min_bank {
                (f64::NAN, 0.0)
            } else {
                self.bank_at(k, a, b, a + tp, y)
            }
        }));
        let farkle = (1.0 - y, -1.0);
        let at = if cut {
            self.bank_at(k, a, b, a + levels, y)
        } else if self.finish_round && k == 0 {
            (1.0 - self.lambda_at(a + levels - b), 0.0)
        } else {
            (1.0, 0.0)
        };
        let roll = (
            fast.forced_roll_beyond(farkle.0, at.0),
            fast.forced_roll_beyond(farkle.1, at.1),
        );
        let out = fast.turn_d(levels, farkle, &banks, (at, roll), bufs);
        bufs.banks = banks;
        out
    }

    /// The neighbouring solved value to start the 2-cycle of (k, a, b) from: the next grid
    /// score up of the mover's, else of the opponent's, else even.
    fn warm_start(&self, k: usize, a: usize, b: usize) -> f64 {
        let tu = self.tu;
        let up = |s: usize| (tu - s > 1).then(|| tu - self.grid.prev[tu - s - 1]);
        let w = &self.w[k];
        match (up(a), up(b)) {
            // Exact for a sum of a function of each score (both neighbours solved: larger sums).
            (Some(a2), Some(b2)) => {
                (w[a2 * tu + b] + w[a * tu + b2] - w[a2 * tu + b2]).clamp(0.0, 1.0)
            }
            (Some(a2), None) => w[a2 * tu + b],
            (None, Some(b2)) => w[a * tu + b2],
            (None, None) => 0.5,
        }
    }

    /// Solve the 2-cycle of (k, a, b) and its partner (other(k), b, a).
    pub(super) fn solve_pair(&self, k: usize, a: usize, b: usize, bufs: &mut Bufs) -> PairOut {
        let o = other(self.finish_round, k);
        let single = (o, b) == (k, a);
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut x = self.warm_start(k, a, b);
        let mut n = 0u64;
        let mut res = f64::INFINITY;
        let mut y = x;
        for _ in 0..100 {
            let (yv, dy) = if single {
                (x, 1.0)
            } else {
                n += 1;
                self.eval_turn(o, b, a, x, bufs)
            };
            y = yv;
            n += 1;
            let (fx, df) = self.eval_turn(k, a, b, y, bufs);
            let g = fx - x;
            res = g.abs();
            if res < super::TOL {
                break;
            }
            if g > 0.0 {
                lo = lo.max(x);
            } else {
                hi = hi.min(x);
            }
            let slope = df * dy - 1.0;
            let mut next = x - g / slope;
            if !(slope < -1e-12 && next > lo && next < hi) {
                next = 0.5 * (lo + hi);
            }
            let step = (next - x).abs();
            if step < self.accept {
                let y2 = if single { next } else { y + dy * (next - x) };
                return ((k, a, b), next, y2, 0.0, n, step);
            }
            x = next;
        }
        let y = if single { x } else { y };
        ((k, a, b), x, y, res, n, 0.0)
    }

    /// The units (2-cycles) of one sum of scores, each from its member with the smaller (k, a),
    /// both scores on the grid.
    pub(super) fn units(&self, sum: usize, scores: &[usize]) -> Vec<(usize, usize, usize)> {
        let seats = self.w.len();
        let mut out = Vec::new();
        for &a in scores {
            if a > sum || sum - a >= self.tu {
                continue;
            }
            let b = sum - a;
            if !self.grid.node[self.tu - b] {
                continue;
            }
            for k in 0..seats {
                if (k, a) <= (other(self.finish_round, k), b) {
                    out.push((k, a, b));
                }
            }
        }
        out
    }

    /// The largest sum of scores (where the solve starts).
    pub(super) fn top_sum(&self) -> usize {
        2 * (self.tu - 1)
    }

    /// The work of the sums above `from` (solved before it, for the progress of a resumed
    /// solve).
    pub(super) fn work_above(&self, from: usize) -> u64 {
        let tu = self.tu;
        let scores: Vec<usize> = self.grid.nodes().map(|d| tu - d).collect();
        (from + 1..=self.top_sum())
            .flat_map(|sum| self.units(sum, &scores))
            .map(|(k, a, b)| self.work(k, a, b))
            .sum()
    }

    /// Solve every grid pair of the sums from `from` down (the sums above it solved already);
    /// `tick(work)` after each sum. After each sum `go_on(self, next)` (next: the sum to solve
    /// next) says whether to go on: if not, the solve stops and returns that sum.
    pub(super) fn solve_grid(
        &mut self,
        from: usize,
        tick: &dyn Fn(u64),
        go_on: &mut dyn FnMut(&WinSolution, usize) -> bool,
    ) -> Option<usize> {
        let tu = self.tu;
        let mut scores: Vec<usize> = self.grid.nodes().map(|d| tu - d).collect();
        scores.reverse();
        for sum in (0..=from.min(self.top_sum())).rev() {
            let units = self.units(sum, &scores);
            if units.is_empty() {
                continue;
            }
            let work: u64 = units.iter().map(|&(k, a, b)| self.work(k, a, b)).sum();
            let solved: Vec<PairOut> = units
                .par_iter()
                .map_init(Bufs::default, |bufs, &(k, a, b)| {
                    self.solve_pair(k, a, b, bufs)
                })
                .collect();
            for ((k, a, b), x, y, res, n, step) in solved {
                let o = other(self.finish_round, k);
                self.w[k][a * tu + b] = x;
                self.w[o][b * tu + a] = y;
                self.residual = self.residual.max(res);
                self.max_step = self.max_step.max(step);
                self.turn_solves += n;
            }
            tick(work);
            if sum > 0 && !go_on(self, sum - 1) {
                return Some(sum - 1);
            }
        }
        None
    }

    /// The work of a 2-cycle's solve, in turn levels (for progress).
    pub(super) fn work(&self, k: usize, a: usize, b: usize) -> u64 {
        let o = other(self.finish_round, k);
        (self.solve_levels(k, a, b).0 + self.solve_levels(o, b, a).0) as u64
    }

    /// The total work of the solve (for progress).
    pub(super) fn total_work(&self) -> (u64, u64) {
        let tu = self.tu;
        let scores: Vec<usize> = self.grid.nodes().map(|d| tu - d).collect();
        let (mut work, mut units) = (0, 0);
        for &a in &scores {
            for &b in &scores {
                for k in 0..self.w.len() {
                    if (k, a) <= (other(self.finish_round, k), b) {
                        work += self.work(k, a, b);
                        units += 1;
                    }
                }
            }
        }
        (work, units)
    }

    /// Fill the scores off the grid by interpolation (four grid points around, along the
    /// opponent's score on grid rows, then along the mover's).
    pub(super) fn fill(&mut self) {
        let tu = self.tu;
        let grid = self.grid.clone();
        for w in self.w.iter_mut() {
            for a in 0..tu {
                if !grid.node[tu - a] {
                    continue;
                }
                let row = &mut w[a * tu..(a + 1) * tu];
                for b in 0..tu {
                    let z = tu - b;
                    if !grid.node[z] {
                        let (nodes, wts) = grid.stencil(z, tu);
                        row[b] = nodes.iter().zip(wts).map(|(&n, wt)| wt * row[tu - n]).sum();
                    }
                }
            }
            for a in 0..tu {
                let z = tu - a;
                if grid.node[z] {
                    continue;
                }
                let (nodes, wts) = grid.stencil(z, tu);
                for b in 0..tu {
                    w[a * tu + b] = nodes
                        .iter()
                        .zip(wts)
                        .map(|(&n, wt)| wt * w[(tu - n) * tu + b])
                        .sum();
                }
            }
        }
    }
}
