//! A team at blackjack (`strategies team blackjack`): spotters at several tables count, a big
//! player comes in when a table's count reaches the call, and the team is set beside a lone
//! counter who wongs at the same counts with the same bets.
//!
//! Every table deals its own shoes, round after round, on a stream of its own: table 0 the
//! run's streams as `sim blackjack` draws them (chunk `c` from `rng::chunk_rng(seed, c)`), table
//! `k` the same chunk's stream advanced by k·2^193 steps, beyond every chunk's stream and its
//! side stream (below 2^193). At each table one seat is played by the counter's chart and
//! indices, one unit a round, and each round keeps its count at the bet and its result per unit
//! (main bet and insurance). The cards never depend on who bets, so the team's play is a
//! schedule over those rounds: the tables deal in step, round `t` of every table at the same
//! time, and the big player's bet at a round is his bet at its count times the round's result
//! per unit.
//!
//! The schedule, at each round: a table's spotter calls when its count is at the call or more
//! and the table is not called already; the call stands until the count falls below the exit
//! or the shoe ends (a back-counter's entry and exit, `sim blackjack --wong-in X --wong-out Y`).
//! The big player stays at his table while its call stands; when it ends (or he has none) he
//! goes, at once, to the called table of the highest count (the lowest-numbered of equals) and
//! plays its round. A call the big player never plays a round of is missed. With one table,
//! the big player is exactly a lone wonger with the same bets (a test checks it against `sim
//! blackjack` bit for bit).

use std::collections::VecDeque;

use rayon::prelude::*;
use serde::Serialize;

use super::count::{CountError, CountSpec, Counting, Ramp, TC_CLAMP};
use super::round::Table;
use super::rules::Rules;
use super::sim::plan;
use super::strategy::{Chart, Player};
use super::BjError;
use crate::job::{Ctx, Error, Job, Outcome, Outputs, Status};
use crate::report::{count_cell, fixed_cell, pct_cell, Cell, Report, Section};
use crate::risk::{n0, ruin_probability};
use crate::rng::{chunk_rng, side_rng, Rng, RngCore, SeedableRng};

/// Most tables a team covers.
pub const MAX_TABLES: u32 = 64;

/// What the team plays.
#[derive(Clone, Debug)]
pub struct TeamRequest {
    /// Tables, each with a spotter.
    pub tables: u32,
    /// A spotter calls the big player when the count is at this or more.
    pub call_at: i32,
    /// The big player leaves when the count falls below this (at most the call).
    pub exit_below: i32,
    /// The big player's bet by count, in table minimums (a flat big bet is one entry).
    pub bets: Ramp,
    /// Each spotter's bet every round (0: the spotters watch without betting).
    pub spotter_bet: u32,
    /// Rounds dealt an hour at every table.
    pub rounds_per_hour: f64,
    /// The bankroll of the risk of ruin, in table minimums.
    pub bankroll: f64,
}

impl TeamRequest {
    /// Refuse what the schedule cannot play, each message saying what to change.
    pub fn validate(&self) -> Result<(), CountError> {
        let bad = |m: String| Err(CountError::Option(m));
        if !(1..=MAX_TABLES).contains(&self.tables) {
            return bad(format!(
                "--tables {}: expected 1 to {MAX_TABLES}",
                self.tables
            ));
        }
        // Counts at the bet are kept within ±TC_CLAMP; decisions within it are exact.
        let lo = -TC_CLAMP + 1;
        for (flag, v) in [
            ("--call-at", self.call_at),
            ("--exit-below", self.exit_below),
        ] {
            if !(lo..=TC_CLAMP).contains(&v) {
                return bad(format!(
                    "{flag} {v}: expected a count from {lo} to {TC_CLAMP}"
                ));
            }
        }
        if self.exit_below > self.call_at {
            return bad(format!(
                "--exit-below {} is above --call-at {}: the big player would leave at once; give an exit at or below the call",
                self.exit_below, self.call_at
            ));
        }
        if self.bets.0.iter().any(|&(c, _)| c.abs() > TC_CLAMP) {
            return bad(format!(
                "--ramp {}: the big player's ramp counts must lie from -{TC_CLAMP} to {TC_CLAMP}",
                self.bets
            ));
        }
        if self.bets.0.iter().any(|&(_, u)| u == 0) {
            return bad(format!(
                "--ramp {}: the big player bets at every count he plays (0 units is sitting out; he leaves below --exit-below)",
                self.bets
            ));
        }
        if !(self.rounds_per_hour.is_finite() && self.rounds_per_hour > 0.0) {
            return bad(format!(
                "--rounds-per-hour {}: expected a pace above 0",
                self.rounds_per_hour
            ));
        }
        if !(self.bankroll.is_finite() && self.bankroll > 0.0) {
            return bad(format!(
                "--bankroll {}: expected more than 0 units",
                self.bankroll
            ));
        }
        Ok(())
    }
}

/// One round at one table: the count at the bet (within ±`TC_CLAMP`), the result of one unit
/// bet (main bet and insurance, in the rules' units), and whether it is the shoe's first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableRound {
    pub key: i8,
    pub money: i32,
    pub first: bool,
}

/// Table `table`'s stream of chunk `chunk`: table 0's is `sim`'s, table k's beyond it by
/// k·2^193 steps.
pub fn table_rng(seed: u64, table: u32, chunk: u64) -> Rng {
    let mut rng = chunk_rng(seed, chunk);
    if table > 0 {
        rng.jump_ce(table as u64, 193);
    }
    rng
}

/// The rounds of a chunk at a table from the chunk's stream `rng` (`table_rng`): `shoes` shoes
/// dealt as `sim blackjack` deals a chunk (a fresh table, each shoe from a seed drawn from the
/// chunk's stream), the counter's seat betting one unit every round.
pub fn chunk_rounds(
    rules: &Rules,
    counting: &Counting<Chart>,
    mut rng: Rng,
    shoes: u64,
) -> Vec<TableRound> {
    let mut t = Table::new(rules, counting);
    t.player.side_stream(&side_rng(&rng));
    let units = rules.units_per_bet();
    let mut out = Vec::new();
    for _ in 0..shoes {
        let mut shoe_rng = Rng::seed_from_u64(rng.next_u64());
        let mut first = true;
        t.play_shoe(&mut shoe_rng, |r| {
            let s = &r.seats[0];
            let ins = match (s.insured, r.dealer_bj()) {
                (false, _) => 0,
                (true, true) => units,
                (true, false) => -(units / 2),
            };
            let key = (s.class & !super::count::PAIRS_PAY) as i32 - TC_CLAMP;
            out.push(TableRound {
                key: key as i8,
                money: (s.net + ins) as i32,
                first,
            });
            first = false;
        });
    }
    out
}

/// The sums of one player's results, a round of time at a time (0 where it did not play).
#[derive(Clone, Debug, Default)]
struct Line {
    played: u64,
    sum: i128,
    sum_sq: i128,
    /// Closed blocks of time: (sum, rounds of time).
    blocks: Vec<(i128, u64)>,
    block_sum: i128,
    block_len: u64,
}

impl Line {
    #[inline]
    fn add(&mut self, money: Option<i64>) {
        self.block_len += 1;
        if let Some(m) = money {
            self.played += 1;
            self.sum += m as i128;
            self.sum_sq += (m as i128) * (m as i128);
            self.block_sum += m as i128;
        }
    }

    fn close_block(&mut self) {
        if self.block_len > 0 {
            self.blocks.push((self.block_sum, self.block_len));
        }
        (self.block_sum, self.block_len) = (0, 0);
    }

    /// The figures of `time` rounds of time, in table minimums (`u` units each).
    fn figures(&self, name: &str, time: u64, u: f64, req: &TeamRequest) -> LineFigures {
        let n = time.max(1) as f64;
        let mean = self.sum as f64 / n;
        let var = (self.sum_sq as f64 / n - mean * mean).max(0.0);
        // Batch means over the blocks of time, a ratio estimator (blocks differ in length).
        let b = self.blocks.len() as f64;
        let se = if self.blocks.len() >= 2 {
            let ss: f64 = self
                .blocks
                .iter()
                .map(|&(s, l)| (s as f64 - mean * l as f64).powi(2))
                .sum();
            (b / (b - 1.0) * ss).sqrt() / n
        } else {
            (var / n).sqrt()
        };
        let (ev, sd, se) = (mean / u, var.sqrt() / u, se / u);
        let rph = req.rounds_per_hour;
        LineFigures {
            name: name.into(),
            rounds_played: self.played,
            ev_per_round_played: if self.played > 0 {
                self.sum as f64 / self.played as f64 / u
            } else {
                f64::NAN
            },
            ev_per_round: ev,
            ev_per_round_se: se,
            sd_per_round: sd,
            ev_per_hour: ev * rph,
            ev_per_hour_se: se * rph,
            ci95_per_hour: [(ev - 1.96 * se) * rph, (ev + 1.96 * se) * rph],
            sd_per_hour: sd * rph.sqrt(),
            n0_hours: n0(ev, sd) / rph,
            ror: ruin_probability(ev, sd, req.bankroll, None),
        }
    }
}

/// One player's (or the team's) figures. "Per round" is per round of time (dealt at each
/// table), 0 where it did not play; "per round played" over the rounds it bet.
#[derive(Clone, Debug, Serialize)]
pub struct LineFigures {
    pub name: String,
    pub rounds_played: u64,
    pub ev_per_round_played: f64,
    pub ev_per_round: f64,
    pub ev_per_round_se: f64,
    pub sd_per_round: f64,
    pub ev_per_hour: f64,
    pub ev_per_hour_se: f64,
    pub ci95_per_hour: [f64; 2],
    pub sd_per_hour: f64,
    /// Hours to N0, (SD/EV)² rounds of time at the pace; null unless EV > 0.
    pub n0_hours: f64,
    /// Brownian risk of ruin, ever, of `bankroll` table minimums.
    pub ror: f64,
}

/// The schedule of the big player over the tables' rounds, and every line's sums.
pub struct Schedule<'a> {
    req: &'a TeamRequest,
    ramp_lo: i32,
    ramp_units: Vec<u32>,
    /// Whether each table's call stands, and whether the big player played in it.
    called: Vec<bool>,
    answered: Vec<bool>,
    /// The table the big player is at.
    at: Option<usize>,
    time: u64,
    calls: u64,
    missed: u64,
    called_rounds: u64,
    called_rounds_missed: u64,
    moves: u64,
    big: Line,
    spotters: Line,
    team: Line,
    wonger: Line,
    every_round: Line,
}

impl<'a> Schedule<'a> {
    pub fn new(req: &'a TeamRequest) -> Schedule<'a> {
        let (ramp_lo, ramp_units) = req.bets.table();
        let n = req.tables as usize;
        Schedule {
            req,
            ramp_lo,
            ramp_units,
            called: vec![false; n],
            answered: vec![false; n],
            at: None,
            time: 0,
            calls: 0,
            missed: 0,
            called_rounds: 0,
            called_rounds_missed: 0,
            moves: 0,
            big: Line::default(),
            spotters: Line::default(),
            team: Line::default(),
            wonger: Line::default(),
            every_round: Line::default(),
        }
    }

    /// The big player's bet at count `c`, in table minimums.
    fn bet(&self, c: i8) -> i64 {
        let last = self.ramp_units.len() as i32 - 1;
        self.ramp_units[(c as i32 - self.ramp_lo).clamp(0, last) as usize] as i64
    }

    /// The end of table `k`'s call.
    fn end_call(&mut self, k: usize) {
        if self.called[k] {
            self.called[k] = false;
            self.missed += !self.answered[k] as u64;
        }
    }

    /// One round of time: `rounds[k]` is table k's.
    pub fn step(&mut self, rounds: &[TableRound]) {
        let (call, exit) = (self.req.call_at, self.req.exit_below);
        for (k, r) in rounds.iter().enumerate() {
            let key = r.key as i32;
            if r.first || key < exit {
                self.end_call(k);
            }
            if !self.called[k] && key >= call {
                self.called[k] = true;
                self.answered[k] = false;
                self.calls += 1;
            }
        }
        if self.at.is_some_and(|j| !self.called[j]) {
            self.at = None;
        }
        if self.at.is_none() {
            // The called table of the highest count, the first of equals.
            let mut best: Option<usize> = None;
            for k in 0..rounds.len() {
                if self.called[k] && best.is_none_or(|b| rounds[k].key > rounds[b].key) {
                    best = Some(k);
                }
            }
            if best.is_some() {
                self.moves += 1;
            }
            self.at = best;
        }
        let mut big = None;
        if let Some(j) = self.at {
            self.answered[j] = true;
            big = Some(self.bet(rounds[j].key) * rounds[j].money as i64);
        }
        for k in 0..rounds.len() {
            if self.called[k] {
                self.called_rounds += 1;
                self.called_rounds_missed += (self.at != Some(k)) as u64;
            }
        }
        let spot = self.req.spotter_bet as i64;
        let spotters = (spot > 0).then(|| rounds.iter().map(|r| spot * r.money as i64).sum());
        self.big.add(big);
        self.spotters.add(spotters);
        let team = match (big, spotters) {
            (None, None) => None,
            (b, s) => Some(b.unwrap_or(0) + s.unwrap_or(0)),
        };
        self.team.add(team);
        // The lone counter at table 0: wonging at the call (table 0's call is his entry), or
        // playing every round at one unit outside it.
        let r0 = rounds[0];
        let wong = self.called[0].then(|| self.bet(r0.key) * r0.money as i64);
        self.wonger.add(wong);
        self.every_round.add(Some(wong.unwrap_or(r0.money as i64)));
        self.time += 1;
    }

    /// The end of a block of time (for the batch-means SEs).
    pub fn close_block(&mut self) {
        for l in [
            &mut self.big,
            &mut self.spotters,
            &mut self.team,
            &mut self.wonger,
            &mut self.every_round,
        ] {
            l.close_block();
        }
    }

    /// The big player's rounds played and the sum of his results (in the rules' units).
    pub fn big_sums(&self) -> (u64, i128) {
        (self.big.played, self.big.sum)
    }

    /// The lone wonger's rounds played and the sum of his results (in the rules' units).
    pub fn wonger_sums(&self) -> (u64, i128) {
        (self.wonger.played, self.wonger.sum)
    }

    /// Calls made and calls missed (the calls still standing at the end counted as they are).
    pub fn calls(&self) -> (u64, u64) {
        let open_missed = (0..self.called.len())
            .filter(|&k| self.called[k] && !self.answered[k])
            .count() as u64;
        (self.calls, self.missed + open_missed)
    }
}

/// The team report's model (its JSON).
#[derive(Clone, Debug, Serialize)]
pub struct TeamModel {
    pub rules: String,
    pub count: String,
    pub tables: u32,
    pub call_at: i32,
    pub exit_below: i32,
    pub big_player_ramp: String,
    pub spotter_bet: u32,
    pub seed: u64,
    /// Rounds dealt at each table (rounds of time).
    pub rounds: u64,
    pub rounds_per_hour: f64,
    pub hours: f64,
    pub bankroll: f64,
    pub interrupted: bool,
    pub calls: u64,
    pub calls_missed: u64,
    /// Table-rounds under a standing call, and those the big player was elsewhere for.
    pub called_rounds: u64,
    pub called_rounds_missed: u64,
    /// Times the big player sat down at a called table.
    pub moves: u64,
    /// The share of the time the big player played.
    pub busy: f64,
    pub big_player: LineFigures,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spotters: Option<LineFigures>,
    pub team: LineFigures,
    pub lone_wonger: LineFigures,
    pub lone_every_round: LineFigures,
    /// The big player's win an hour over the lone wonger's.
    pub big_over_lone: f64,
}

/// `strategies team blackjack`.
pub struct TeamJob {
    pub rules: Rules,
    pub chart: Chart,
    /// The count the spotters and the big player keep (its ramp and wonging unused).
    pub count: CountSpec,
    pub request: TeamRequest,
    /// Rounds dealt at each table (about: whole chunks of shoes, as `sim` plans them).
    pub rounds: u64,
    pub seed: u64,
    pub outputs: Outputs,
}

impl Job for TeamJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }

    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        let model = simulate(&self, ctx)?;
        let status = Status::ran(model.interrupted);
        Ok(Outcome::report(render(&model), status))
    }
}

/// Deal every table's rounds and play the schedule over them.
pub fn simulate(job: &TeamJob, ctx: &Ctx) -> Result<TeamModel, Error> {
    let req = &job.request;
    req.validate().map_err(BjError::from)?;
    if job.rules.players != 1 {
        return Err(BjError::from(CountError::Option(format!(
            "--players {}: a team's tables seat one counting spot each; leave out --players",
            job.rules.players
        )))
        .into());
    }
    let mut spec = job.count.clone();
    // One unit every round: the ramp and the wonging are the schedule's.
    spec.ramp = Ramp(vec![(0, 1)]);
    spec.wong_in = None;
    spec.wong_out = None;
    spec.max_entries = Some(1);
    spec.no_mid_shoe_entry = false;
    spec.spots_at = None;
    spec.pairs_exposure = false;
    spec.bankroll = None;
    let counting = Counting::new(job.chart.clone(), spec, job.rules.decks);
    let p = plan(&job.rules, &counting, job.seed, job.rounds, None);
    p.check(job.rounds, None, 1).map_err(BjError::from)?;
    let n = req.tables as usize;
    let progress = crate::progress::Progress::new(
        ctx.progress,
        p.chunks * n as u64,
        "team",
        "chunks of shoes",
    );
    let mut bufs: Vec<VecDeque<TableRound>> = vec![VecDeque::new(); n];
    let mut sched = Schedule::new(req);
    let mut next = 0u64;
    // Each table's stream of the next chunk: chunk 0's, then one 2^128-step jump a chunk
    // (`table_rng`, without its polynomial jumps at every chunk).
    let mut streams: Vec<Rng> = (0..req.tables).map(|k| table_rng(job.seed, k, 0)).collect();
    let mut interrupted = false;
    let mut step = vec![TableRound::default(); n];
    loop {
        if bufs.iter().any(|b| b.is_empty()) {
            if next == p.chunks {
                break;
            }
            if ctx.stop.load(std::sync::atomic::Ordering::SeqCst) {
                interrupted = true;
                break;
            }
            // Every table's next chunk, on as many threads as there are tables.
            let fresh: Vec<Vec<TableRound>> = streams
                .par_iter()
                .map(|rng| chunk_rounds(&job.rules, &counting, rng.clone(), p.shoes_per_chunk))
                .collect();
            for rng in &mut streams {
                rng.jump();
            }
            for (b, f) in bufs.iter_mut().zip(fresh) {
                b.extend(f);
            }
            next += 1;
            progress.advance(n as u64);
        }
        let m = bufs.iter().map(|b| b.len()).min().unwrap_or(0);
        for _ in 0..m {
            for (s, b) in step.iter_mut().zip(bufs.iter_mut()) {
                *s = b.pop_front().expect("a round");
            }
            sched.step(&step);
        }
        sched.close_block();
    }
    progress.finish();
    Ok(model_of(job, &counting, &sched, interrupted))
}

/// The model of a schedule played.
fn model_of(
    job: &TeamJob,
    counting: &Counting<Chart>,
    s: &Schedule,
    interrupted: bool,
) -> TeamModel {
    let req = &job.request;
    let u = job.rules.units_per_bet() as f64;
    let t = s.time;
    let f = |l: &Line, name: &str| l.figures(name, t, u, req);
    let big = f(&s.big, "big player");
    let wonger = f(&s.wonger, "lone wonger (table 1)");
    let (calls, calls_missed) = s.calls();
    TeamModel {
        rules: job.rules.to_string(),
        count: counting.spec.describe().replacen(", ramp 0:1", "", 1),
        tables: req.tables,
        call_at: req.call_at,
        exit_below: req.exit_below,
        big_player_ramp: req.bets.to_string(),
        spotter_bet: req.spotter_bet,
        seed: job.seed,
        rounds: t,
        rounds_per_hour: req.rounds_per_hour,
        hours: t as f64 / req.rounds_per_hour,
        bankroll: req.bankroll,
        interrupted,
        calls,
        calls_missed,
        called_rounds: s.called_rounds,
        called_rounds_missed: s.called_rounds_missed,
        moves: s.moves,
        busy: s.big.played as f64 / t.max(1) as f64,
        big_over_lone: big.ev_per_hour / wonger.ev_per_hour,
        big_player: big,
        spotters: (req.spotter_bet > 0).then(|| f(&s.spotters, "spotters")),
        team: f(&s.team, "team (big player and spotters)"),
        lone_wonger: wonger,
        lone_every_round: f(&s.every_round, "lone counter, every round (table 1)"),
    }
}

/// The report of a team's run.
pub fn render(m: &TeamModel) -> Report {
    let mut r = Report {
        title: "rtplab blackjack: a team against a lone counter".into(),
        ..Default::default()
    };
    r.meta = vec![
        ("rules".into(), m.rules.clone()),
        ("count".into(), m.count.clone()),
        (
            "team".into(),
            format!(
                "{} spotted (calls at {:+}, the big player leaves below {:+}); spotters {}",
                crate::report::plural(m.tables as u64, "table"),
                m.call_at,
                m.exit_below,
                match m.spotter_bet {
                    0 => "watch without betting".to_string(),
                    b => format!("bet {b} every round"),
                }
            ),
        ),
        ("big player's bets".into(), m.big_player_ramp.clone()),
        (
            "rounds".into(),
            format!(
                "{} dealt at each table ({:.0} hours at {} rounds an hour), seed {}",
                crate::report::count(m.rounds),
                m.hours,
                m.rounds_per_hour,
                m.seed
            ),
        ),
    ];
    if m.interrupted {
        r.meta.push((
            "status".into(),
            "INTERRUPTED: stopped by a signal; the figures cover the rounds dealt before it".into(),
        ));
    }
    let mut s = Section::new(
        &format!(
            "Win rate (table minimums; risk of ruin of {} units)",
            m.bankroll
        ),
        &[
            "player",
            "rounds played",
            "EV per round played",
            "EV per hour",
            "SE",
            "95% CI per hour",
            "SD per hour",
            "N0 (hours)",
            "RoR",
        ],
    );
    let lines = [
        Some(&m.big_player),
        m.spotters.as_ref(),
        m.spotters.as_ref().map(|_| &m.team),
        Some(&m.lone_wonger),
        Some(&m.lone_every_round),
    ];
    for l in lines.into_iter().flatten() {
        s.row(vec![
            Cell::from(l.name.as_str()),
            count_cell(l.rounds_played),
            fixed_cell(l.ev_per_round_played, 5, "units"),
            fixed_cell(l.ev_per_hour, 3, "units"),
            fixed_cell(l.ev_per_hour_se, 3, "units"),
            Cell::from(format!(
                "[{:.3}, {:.3}]",
                l.ci95_per_hour[0], l.ci95_per_hour[1]
            )),
            fixed_cell(l.sd_per_hour, 2, "units"),
            fixed_cell(l.n0_hours, 0, "hours"),
            pct_cell(l.ror, 2),
        ]);
    }
    r.sections.push(s);
    let mut c = Section::new("Calls", &["figure", "value"]);
    let row = |c: &mut Section, k: &str, v: Cell| c.row(vec![Cell::from(k), v]);
    row(&mut c, "calls", count_cell(m.calls));
    row(
        &mut c,
        "calls missed (never played)",
        count_cell(m.calls_missed),
    );
    row(
        &mut c,
        "called table-rounds missed",
        pct_cell(
            m.called_rounds_missed as f64 / m.called_rounds.max(1) as f64,
            1,
        ),
    );
    row(&mut c, "big player's moves", count_cell(m.moves));
    row(&mut c, "big player busy", pct_cell(m.busy, 1));
    row(
        &mut c,
        "big player's win an hour over the lone wonger's",
        fixed_cell(m.big_over_lone, 2, "ratio"),
    );
    r.sections.push(c);
    r.notes = vec![
        format!(
            "The tables deal in step, {} rounds an hour each: an hour is that many rounds of time, whoever plays them. Per round and per hour count every round of time (0 where the player did not bet); EV per round played is over the rounds he bet.",
            m.rounds_per_hour
        ),
        format!(
            "A spotter calls when the count is {:+} or more; the call stands until the count falls below {:+} or the shoe ends. The big player stays while his table's call stands, then goes at once to the called table of the highest count and plays its round (no walking time); a call he never plays a round of is missed.",
            m.call_at, m.exit_below
        ),
        "The lone wonger is table 1's counter alone: he enters at the call, leaves below the exit and bets the big player's bets, on the same rounds; with one table he is the big player. The lone counter of every round bets 1 unit where the wonger sits out.".into(),
        "SE: batch means over blocks of time (about one chunk of shoes each). RoR: the Brownian risk of ruin, ever, e^(-2 EV B / SD^2), per round of time.".into(),
    ];
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(tables: u32, call_at: i32, exit_below: i32) -> TeamRequest {
        TeamRequest {
            tables,
            call_at,
            exit_below,
            bets: Ramp::parse("2:4,3:8,4:12").unwrap(),
            spotter_bet: 0,
            rounds_per_hour: 100.0,
            bankroll: 1000.0,
        }
    }

    fn r(key: i8, money: i32, first: bool) -> TableRound {
        TableRound { key, money, first }
    }

    /// Two tables, hand-made: the big player answers table 0's call, table 1's call comes
    /// while he is busy and ends before he is free (missed), and he moves to table 1's second
    /// call when table 0's count falls below the exit.
    #[test]
    fn the_big_player_answers_one_call_at_a_time() {
        let q = req(2, 2, 0);
        let mut s = Schedule::new(&q);
        let rounds = [
            [r(2, 2, true), r(0, 2, true)],     // call at 0, played (4 units)
            [r(3, -2, false), r(2, 2, false)],  // call at 1, busy (8 units at 0)
            [r(1, 2, false), r(-1, 2, false)],  // 0 still called (4 units); 1's call ends: missed
            [r(-1, 2, false), r(4, -2, false)], // 0 ends; to 1 (12 units)
            [r(5, 2, true), r(4, 2, false)],    // new shoe at 0: a call while busy at 1
        ];
        for x in &rounds {
            s.step(x);
        }
        assert_eq!(s.big_sums(), (5, 4 * 2 - 8 * 2 + 4 * 2 - 12 * 2 + 12 * 2));
        assert_eq!(s.calls(), (4, 2));
        assert_eq!(s.moves, 2);
        // The lone wonger at table 0: rounds 0-2 and 4 (12 units at +5).
        assert_eq!(s.wonger_sums(), (4, 24)); // 8 - 16 + 8 + 24
        assert_eq!((s.called_rounds, s.called_rounds_missed), (7, 2));
    }

    #[test]
    fn requests_outside_the_schedule_are_refused() {
        let mut q = req(1, 2, 0);
        assert!(q.validate().is_ok());
        q.exit_below = 3;
        assert!(q
            .validate()
            .unwrap_err()
            .to_string()
            .contains("above --call-at"));
        q = req(0, 2, 0);
        assert!(q.validate().is_err());
        q = req(1, 11, 0);
        assert!(q.validate().is_err());
        q = req(1, 2, 0);
        q.bets = Ramp::parse("1:0,2:4").unwrap();
        assert!(q
            .validate()
            .unwrap_err()
            .to_string()
            .contains("sitting out"));
    }

    #[test]
    fn table_streams_are_distinct_and_table_zero_is_the_runs() {
        let mut a = table_rng(5, 0, 3);
        let mut b = chunk_rng(5, 3);
        assert_eq!(a.next_u64(), b.next_u64());
        let mut c = table_rng(5, 1, 3);
        let mut d = table_rng(5, 2, 3);
        let mut e = side_rng(&chunk_rng(5, 3));
        let x = [c.next_u64(), d.next_u64(), e.next_u64(), a.next_u64()];
        // A table's chunk c is its chunk 0 jumped c times (as the run steps them).
        let mut f = table_rng(5, 2, 0);
        for _ in 0..3 {
            f.jump();
        }
        assert_eq!(f, table_rng(5, 2, 3));
        let mut y = x.to_vec();
        y.sort();
        y.dedup();
        assert_eq!(y.len(), 4);
    }
}
