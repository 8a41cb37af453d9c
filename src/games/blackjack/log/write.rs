//! Writing the round log of a simulation (`sim blackjack --log-out FILE`).
//!
//! The log is the run's own rounds: its chunks are played again in order, from the same
//! streams, by the same players, each wrapped so its decisions are recorded ([`Logged`]).
//! A round's cards are the shoe's (in dealing order), its money the table's result; who got
//! which card and each hand's actions come from [`replay`] of those cards and decisions.
//! Each card keeps its suit in the shoe (`cards::CardId`), so a shuffle that carries cards over
//! from one shoe to the next (`--shuffle riffle:K`) carries them whole into the log.
//!
//! Memory is one round at a time; the log streams to the door's writer.

use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::replay::{pay, replay, Decide};
use super::{EndRecord, Header, RoundRecord, SeatRecord, ShoeRecord, Wagers, FORMAT, VERSION};
use crate::cards::Rank;
use crate::games::blackjack::count::Counting;
use crate::games::blackjack::game::BjConfig;
use crate::games::blackjack::hand::DrawTable;
use crate::games::blackjack::round::{RoundResult, Table};
use crate::games::blackjack::rules::{Rules, Shuffle};
use crate::games::blackjack::sim::Plan;
use crate::games::blackjack::strategy::{Action, AlwaysInsure, Player, Seats, Situation};
use crate::logfile::Card;
use crate::rng::{Rng, RngCore, SeedableRng};

/// Money units per initial bet in a simulated log: every payout of every rule set (3:2, 6:5,
/// a half for insurance and surrender) is a whole number of them.
pub const STAKE: u64 = 100;

/// Which rounds go into the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogOptions {
    /// Every shoe (1), or every n-th shoe (whole shoes, so each logged shoe can be checked).
    pub every_shoe: u64,
}

impl Default for LogOptions {
    fn default() -> Self {
        LogOptions { every_shoe: 1 }
    }
}

/// What the writer wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogSummary {
    pub shoes: u64,
    pub rounds: u64,
    /// Rounds whose money the replay of the rules settles otherwise than the simulator (0
    /// unless the two disagree: a bug, which `verify` then lists).
    pub disagreements: u64,
    pub complete: bool,
}

/// A player whose decisions are recorded for the log, seat by seat.
pub struct Logged<P> {
    inner: P,
    answers: Vec<std::collections::VecDeque<Action>>,
    insured: Vec<bool>,
}

impl<P: Player> Player for Logged<P> {
    const BETS: bool = P::BETS;
    const SEES: bool = P::SEES;
    const CLASSES: bool = P::CLASSES;
    #[inline]
    fn bet(&mut self, seat: usize) -> u32 {
        self.inner.bet(seat)
    }
    #[inline]
    fn class(&self, seat: usize) -> u8 {
        self.inner.class(seat)
    }
    #[inline]
    fn decision_class(&mut self) -> u8 {
        self.inner.decision_class()
    }
    fn act(&mut self, seat: usize, s: &Situation) -> Action {
        let a = self.inner.act(seat, s);
        self.answers[seat].push_back(a);
        a
    }
    fn insure(&mut self, seat: usize, total: u8, soft: bool) -> bool {
        let i = self.inner.insure(seat, total, soft);
        self.insured[seat] = i;
        i
    }
    #[inline]
    fn see(&mut self, card: Rank) {
        self.inner.see(card)
    }
    #[inline]
    fn see_if(&mut self, card: Rank, dealt: bool) {
        self.inner.see_if(card, dealt)
    }
    /// None: every decision is asked, so every one is recorded.
    fn draw_tables(&self) -> Option<&[DrawTable; 10]> {
        None
    }
    fn shuffled(&mut self) {
        self.inner.shuffled()
    }
    fn side_stream(&mut self, rng: &Rng) {
        self.inner.side_stream(rng)
    }
    // The round's result, to a counter whose cover plays follow it.
    const PAYS: bool = P::PAYS;
    fn paid(&mut self, seat: usize, net: i64, natural: bool, unit: i64) -> i64 {
        self.inner.paid(seat, net, natural, unit)
    }
}

/// The recorded answers, seat by seat, as the replay asks for them.
struct Answers<'a>(&'a mut [std::collections::VecDeque<Action>]);

impl Decide for Answers<'_> {
    fn decide(&mut self, seat: usize, _hand: usize, _sit: &Situation) -> Option<Action> {
        self.0[seat].pop_front()
    }
}

/// The header of a simulated log of `cfg`.
pub fn header(cfg: &BjConfig, seed: u64, claim: Option<f64>) -> Header {
    Header {
        kind: "header".into(),
        format: FORMAT.into(),
        version: VERSION,
        game: "blackjack".into(),
        rules: Header::rules_map(&cfg.rules),
        behind: behind_of(cfg),
        burn: 0,
        cut_tolerance: 0,
        rounding: super::Rounding::Down,
        claim,
        currency: None,
        source: Some(format!(
            "rtplab {} sim blackjack --seed {seed} (strategy: {}{})",
            crate::VERSION,
            cfg.strategy.info().name,
            cfg.count.as_ref().map_or_else(String::new, |c| format!(
                "; counting {}, ramp {}{}",
                c.system.label,
                c.ramp,
                c.indices
                    .as_ref()
                    .map_or_else(String::new, |i| format!(", indices {}", i.label))
            ))
        )),
    }
}

/// How the run's bets behind follow their seat.
fn behind_of(cfg: &BjConfig) -> super::Behind {
    match cfg.bets.behind_follows {
        crate::games::blackjack::report::BehindFollows::All => super::Behind::Match,
        crate::games::blackjack::report::BehindFollows::None => super::Behind::Decline,
    }
}

/// Cards before the cut card under `rules` (every card when the shoe is shuffled every round).
pub fn cut_of(rules: &Rules) -> u32 {
    match rules.shuffle {
        Shuffle::CutCard { penetration } => {
            ((penetration * rules.cards() as f64).round() as u32).clamp(1, rules.cards())
        }
        Shuffle::EveryRound => rules.cards(),
    }
}

use crate::logfile::write_record as line;

/// Write the log of chunks `chunks` of the run of `cfg` seeded `seed` planned as `plan`, the
/// header (with `claim`) first. Stops at the end of a shoe when `stop` is set (the end
/// record then says the log is not complete).
#[allow(clippy::too_many_arguments)]
pub fn write_log(
    out: &mut dyn Write,
    cfg: &BjConfig,
    plan: &Plan,
    seed: u64,
    chunks: Range<u64>,
    opts: LogOptions,
    claim: Option<f64>,
    stop: &AtomicBool,
) -> std::io::Result<LogSummary> {
    line(out, &header(cfg, seed, claim))?;
    let mut sink = Lines(out);
    let sum = play_again(
        &mut sink,
        cfg,
        plan,
        seed,
        chunks,
        opts,
        stop,
        "writing the round log",
    )?;
    let end = EndRecord {
        kind: "end".into(),
        rounds: sum.rounds,
        complete: sum.complete,
    };
    line(sink.0, &end)?;
    Ok(sum)
}

/// Where the records of the rounds played again go: a round log's lines, or the rows of
/// `--rounds-out`.
pub trait Sink {
    fn shoe(&mut self, rec: &ShoeRecord) -> std::io::Result<()>;
    fn round(&mut self, rec: &RoundRecord, at: &At) -> std::io::Result<()>;
    /// Whether the sink takes no more rounds (the rounds played again stop).
    fn full(&self) -> bool {
        false
    }
}

/// A round as the table played it, beside its record: the chunk, the count before the round
/// (with a count), and the table's results.
pub struct At<'a> {
    pub chunk: u64,
    /// The running count before the round, in the count's tag units, and the true count
    /// (a balanced count's); `None` without a count.
    pub count: Option<(i32, Option<i32>)>,
    /// The count's tag unit (2 for Halves' half points).
    pub scale: u8,
    pub result: &'a RoundResult,
    /// Units per initial bet of `result`'s nets.
    pub units_per_bet: i64,
}

/// A round log's lines.
struct Lines<'a>(&'a mut dyn Write);

impl Sink for Lines<'_> {
    fn shoe(&mut self, rec: &ShoeRecord) -> std::io::Result<()> {
        line(self.0, rec)
    }
    fn round(&mut self, rec: &RoundRecord, _: &At) -> std::io::Result<()> {
        line(self.0, rec)
    }
}

/// Play chunks `chunks` of the run of `cfg` seeded `seed` planned as `plan` again, giving
/// `sink` every shoe and round of the shoes `opts` takes, until the chunks end, `sink` is full
/// or `stop` is set (at the end of a shoe). `what` labels the progress bar.
#[allow(clippy::too_many_arguments)]
pub fn play_again(
    sink: &mut dyn Sink,
    cfg: &BjConfig,
    plan: &Plan,
    seed: u64,
    chunks: Range<u64>,
    opts: LogOptions,
    stop: &AtomicBool,
    what: &str,
) -> std::io::Result<LogSummary> {
    let mut w = Writer {
        sink,
        cfg,
        plan,
        seed,
        opts,
        stop,
        sum: LogSummary::default(),
        shoe_no: 0,
        round_no: 0,
        count: cfg.count.as_ref().map(|c| Tally::new(c, cfg.rules.decks)),
        what,
    };
    let insure = cfg.bets.insure;
    crate::with_strategy!(&cfg.strategy, cfg.rules.h17, |s| {
        #[allow(clippy::clone_on_copy)]
        let s = s.clone();
        match (insure, &cfg.count) {
            (false, None) => w.chunks(&s, chunks.clone())?,
            (true, None) => w.chunks(&AlwaysInsure(s), chunks.clone())?,
            (false, Some(c)) => w.chunks(
                &Counting::new(s, c.clone(), cfg.rules.decks),
                chunks.clone(),
            )?,
            (true, Some(c)) => w.chunks(
                &Counting::new(AlwaysInsure(s), c.clone(), cfg.rules.decks),
                chunks.clone(),
            )?,
        }
    });
    let mut sum = w.sum;
    sum.complete = !stop.load(Ordering::Relaxed);
    Ok(sum)
}

/// The perfect count of the cards dealt since the shuffle, kept beside the rounds played
/// again: every card dealt counted as it comes out.
struct Tally {
    tags: [i8; 13],
    initial: i32,
    balanced: bool,
    scale: u8,
    tc: crate::games::blackjack::count::TrueCounter,
    rc: i32,
    seen: u32,
}

impl Tally {
    fn new(c: &crate::games::blackjack::count::CountSpec, decks: u32) -> Tally {
        let initial = c.system.initial(decks);
        Tally {
            tags: c.system.by_rank(),
            initial,
            balanced: c.system.balanced(),
            scale: c.system.scale,
            tc: crate::games::blackjack::count::TrueCounter::new(
                decks,
                c.system.scale,
                c.true_count,
                c.rounding,
            ),
            rc: initial,
            seen: 0,
        }
    }
    fn shuffled(&mut self) {
        self.rc = self.initial;
        self.seen = 0;
    }
    fn now(&self) -> (i32, Option<i32>) {
        (
            self.rc,
            self.balanced.then(|| self.tc.get(self.rc, self.seen)),
        )
    }
    fn count(&mut self, ranks: &[Rank]) {
        for &r in ranks {
            self.rc += self.tags[r as usize] as i32;
            self.seen += 1;
        }
    }
}

struct Writer<'a> {
    sink: &'a mut dyn Sink,
    cfg: &'a BjConfig,
    plan: &'a Plan,
    seed: u64,
    opts: LogOptions,
    stop: &'a AtomicBool,
    sum: LogSummary,
    shoe_no: u64,
    round_no: u64,
    count: Option<Tally>,
    what: &'a str,
}

impl Writer<'_> {
    fn chunks<S: Seats>(&mut self, seats: &S, chunks: Range<u64>) -> std::io::Result<()> {
        let bar =
            crate::progress::Progress::new(true, chunks.end - chunks.start, self.what, "chunks");
        for c in chunks {
            if self.stop.load(Ordering::Relaxed) || self.sink.full() {
                break;
            }
            self.chunk(seats, c)?;
            bar.advance(1);
        }
        bar.finish();
        Ok(())
    }

    /// Chunk `c` again, as `BjSim::run_chunk` plays it, logged.
    fn chunk<S: Seats>(&mut self, seats: &S, c: u64) -> std::io::Result<()> {
        let rules = &self.cfg.rules;
        let players = rules.players as usize;
        let mut rng = crate::rng::chunk_rng(self.seed, c);
        let player = Logged {
            inner: seats.player(),
            answers: vec![Default::default(); players],
            insured: vec![false; players],
        };
        let mut table = Table::with_player(rules, player);
        table.player.side_stream(&crate::rng::side_rng(&rng));
        let every_round = matches!(rules.shuffle, Shuffle::EveryRound);
        for _ in 0..self.plan.shoes_per_chunk {
            let mut shoe_rng = Rng::seed_from_u64(rng.next_u64());
            let logged = self.shoe_no.is_multiple_of(self.opts.every_shoe);
            self.shoe_no += 1;
            table.shoe.reshuffle();
            table.player.shuffled();
            if let Some(t) = &mut self.count {
                t.shuffled();
            }
            if logged {
                let rec = ShoeRecord {
                    kind: "shoe".into(),
                    shoe: self.shoe_no,
                    cut: cut_of(rules),
                    burn: Vec::new(),
                };
                self.sink.shoe(&rec)?;
                self.sum.shoes += 1;
            }
            loop {
                let before = table.shoe.reshuffles_mid_round;
                let count = self.count.as_ref().map(Tally::now);
                let r: RoundResult = *table.play_round(&mut shoe_rng);
                let mid = table.shoe.reshuffles_mid_round != before;
                self.round_no += 1;
                let cards: Vec<Card> = table.shoe.round_cards().map(Card).collect();
                let ranks: Vec<Rank> = cards.iter().map(|c| c.rank()).collect();
                let reshuffled_after = mid.then_some(table.shoe.kept_on_refill as u32);
                if let Some(t) = &mut self.count {
                    // A shoe reshuffled mid-round: the count starts again with the next round.
                    if mid {
                        t.shuffled();
                    } else {
                        t.count(&ranks);
                    }
                }
                if logged {
                    let rec = self.round(&r, &ranks, cards, &mut table.player, reshuffled_after);
                    let at = At {
                        chunk: c,
                        count,
                        scale: self.count.as_ref().map_or(1, |t| t.scale),
                        result: &r,
                        units_per_bet: rules.units_per_bet(),
                    };
                    self.sink.round(&rec, &at)?;
                    self.sum.rounds += 1;
                    if self.sink.full() {
                        return Ok(());
                    }
                } else {
                    for q in &mut table.player.answers {
                        q.clear();
                    }
                }
                if every_round || table.shoe.past_cut() {
                    break;
                }
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        Ok(())
    }

    /// The record of a round the table played (`r`) from `ranks` (suited as `cards`).
    fn round<P: Player>(
        &mut self,
        r: &RoundResult,
        ranks: &[Rank],
        cards: Vec<Card>,
        player: &mut Logged<P>,
        reshuffled_after: Option<u32>,
    ) -> RoundRecord {
        let rules = &self.cfg.rules;
        let players = rules.players as usize;
        let replayed = replay(rules, players, ranks, &mut Answers(&mut player.answers));
        for q in &mut player.answers {
            q.clear();
        }
        let u = rules.units_per_bet();
        let bets = &self.cfg.bets;
        let mut seats = Vec::with_capacity(players);
        let mut disagree = !replayed.issues.is_empty();
        for (s, res) in r.seats[..players].iter().enumerate() {
            let b = res.bet as u64;
            let main = STAKE * b;
            let stake = Wagers {
                main,
                pairs: (bets.pairs * main as f64).round() as u64,
                insurance: if player.insured[s] && r.up == 1 && b > 0 {
                    main / 2
                } else {
                    0
                },
                behind: if b > 0 {
                    (bets.behind * STAKE as f64).round() as u64
                } else {
                    0
                },
            };
            // The money as the table settled it.
            let back = |stake: u64, wagered: i64, net: i64| {
                (stake as i64 * (wagered + net) / u).max(0) as u64
            };
            let paid = Wagers {
                main: back(main, res.wagered, res.net),
                pairs: if res.pairs > 0 { 12 * stake.pairs } else { 0 },
                insurance: if r.dealer_bj() {
                    3 * stake.insurance
                } else {
                    0
                },
                behind: match behind_of(self.cfg) {
                    super::Behind::Match => back(stake.behind, res.wagered, res.net),
                    super::Behind::Decline => back(stake.behind, u, res.behind_none),
                },
            };
            let seat = &replayed.seats[s];
            let by_rules = pay(
                rules,
                seat,
                &replayed,
                &stake,
                behind_of(self.cfg),
                super::Rounding::Down,
            );
            disagree |= by_rules != paid;
            seats.push(SeatRecord {
                seat: s as u8 + 1,
                stake,
                play: seat.hands.iter().map(|h| h.actions.clone()).collect(),
                auto: self.cfg.strategy
                    == crate::games::blackjack::strategy::StrategySpec::AutoPlay,
                paid,
            });
            player.insured[s] = false;
        }
        self.sum.disagreements += disagree as u64;
        RoundRecord {
            kind: "round".into(),
            shoe: self.shoe_no,
            round: self.round_no,
            cards,
            seats,
            void: None,
            reshuffled_after,
        }
    }
}

/// `sim blackjack --log-out FILE` and `--rounds-out FILE`: the run, then its round log and
/// its per-round records.
pub struct LoggedSimJob {
    pub sim: crate::game::SimJob<super::super::Blackjack>,
    /// The log's path (its name says how it is compressed), and which shoes it takes.
    pub log: Option<(std::path::PathBuf, LogOptions)>,
    /// The per-round records' path (Parquet) and how many rounds they take at most.
    pub rounds_out: Option<(std::path::PathBuf, u64)>,
}

impl crate::job::Job for LoggedSimJob {
    fn outputs(&self) -> &crate::job::Outputs {
        &self.sim.outputs
    }
    fn run(self, ctx: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        use crate::logfile::{Compression, Encoder};
        let LoggedSimJob {
            sim,
            log,
            rounds_out,
        } = self;
        let run =
            crate::game::simulate::<super::super::Blackjack>(sim.config, &sim.spec, ctx.stop)?;
        let start = run.meta.chunk_range[0];
        let chunks = start..start + run.meta.chunks_done;
        let mut notes = Vec::new();
        let mut unsaved = Vec::new();
        if let Some((log, options)) = log {
            let compression = Compression::of_name(log.file_name().unwrap_or_default());
            let mut summary = LogSummary::default();
            let written = ctx.door.write_stream("--log-out", &mut |w| {
                let mut enc = Encoder::new(compression, w);
                summary = write_log(
                    &mut enc,
                    &run.config,
                    &run.plan,
                    run.meta.seed,
                    chunks.clone(),
                    options,
                    sim.claim,
                    ctx.stop,
                )?;
                enc.finish()
            });
            if let Err(e) = written {
                // The report is still written; the exit code says something was not.
                unsaved.push(format!("cannot write the round log {}: {e}", log.display()));
            }
            let every = match options.every_shoe {
                1 => String::new(),
                n => format!(" (every {n}th shoe)"),
            };
            let partial = if summary.complete {
                ""
            } else {
                "; stopped by a signal: the log ends early, its end record says so"
            };
            notes.push(format!(
                "Round log: {} rounds of {} shoes{every} written to {}{partial}.",
                summary.rounds,
                summary.shoes,
                log.display()
            ));
            if summary.disagreements > 0 {
                notes.push(format!(
                    "{} logged rounds are settled otherwise by the rules' replay than by the simulator: a defect; `rtplab verify blackjack` lists them.",
                    summary.disagreements
                ));
            }
        }
        if let Some((path, limit)) = rounds_out {
            let mut rounds = 0;
            let written = ctx.door.write_stream("--rounds-out", &mut |w| {
                let mut sink = super::rounds::RoundsOut::new(w, limit)?;
                play_again(
                    &mut sink,
                    &run.config,
                    &run.plan,
                    run.meta.seed,
                    chunks.clone(),
                    LogOptions::default(),
                    ctx.stop,
                    "writing the rounds",
                )?;
                rounds = sink.rounds;
                sink.finish()
            });
            match written {
                Ok(()) => notes.push(format!(
                    "Per-round records: the run's first {} rounds (of at most {}), a row per seat, written to {}.",
                    crate::report::count(rounds),
                    crate::report::count(limit),
                    path.display()
                )),
                Err(e) => unsaved.push(format!(
                    "cannot write the per-round records {}: {e}",
                    path.display()
                )),
            }
        }
        let mut rendered = crate::game::rendered(run, sim.claim)?;
        if !unsaved.is_empty() {
            let what = unsaved.join("; ");
            rendered.unsaved = Some(match rendered.unsaved.take() {
                Some(other) => format!("{other}; {what}"),
                None => what,
            });
        }
        rendered.report.notes.extend(notes);
        Ok(rendered.into())
    }
}
