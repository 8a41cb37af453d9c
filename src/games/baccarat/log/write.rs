//! Writing the round log of a simulation (`sim baccarat --log-out FILE`).
//!
//! The log is the run's own coups: its chunks are played again in order, from the same
//! streams, by the same bettor, as `BacSim::run_chunk` plays them. A coup's cards are the
//! shoe's, split into the hands as the simulator dealt them; its money is the simulator's
//! settlement. Each coup is also replayed by the rules ([`replay`]): a coup they settle
//! otherwise is counted ([`LogSummary::disagreements`], 0 unless the two disagree). Suits are
//! dealt to the ranks at random from a stream of the log's own ([`Suits`]): a uniform shoe of
//! ranks suited so is a uniform shoe of cards.
//!
//! Memory is one coup at a time; the log streams to the door's writer.

use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::replay;
use super::{
    burns, cut_of, Bets, BettorRecord, Claims, CoupRecord, EndRecord, Header, Rounding, ShoeRecord,
    FORMAT, VERSION,
};
use crate::cards::{value, Rank, Shoe};
use crate::games::baccarat::bet::{settle, BetSpec, Bettor, Flat, Follow, Martingale, Spot};
use crate::games::baccarat::coup::deal;
use crate::games::baccarat::rules::{Shuffle, SCALE};
use crate::games::baccarat::sim::{Plan, SESSION_COUPS};
use crate::games::baccarat::BacConfig;
use crate::logfile::{Card, Suits};
use crate::rng::{Rng, RngCore, SeedableRng};

/// Money units per betting unit in a simulated log: every payout of every rule set (a
/// commission in thousandths of the win, a banker six paying 1:2) is a whole number of them.
/// The simulator counts thousandths of a unit, so the log's money is the run's, unit for unit.
pub const STAKE: u64 = 1000;
const _: () = assert!(STAKE as i64 == SCALE);

/// Salt of the suits' stream (chunk by chunk, apart from the cards' own).
const SUITS_SALT: u64 = 0x6261_635f_7375_6974;

/// Which coups go into the log.
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
    pub coups: u64,
    /// Coups the replay of the rules deals or settles otherwise than the simulator (0 unless
    /// the two disagree: a bug, which `verify` then lists).
    pub disagreements: u64,
    pub complete: bool,
}

/// The header of a simulated log of `cfg` (with the claim `claim` for the bet's spot).
pub fn header(cfg: &BacConfig, seed: u64, claim: Option<f64>) -> Header {
    Header {
        kind: "header".into(),
        format: FORMAT.into(),
        version: VERSION,
        game: "baccarat".into(),
        rules: Header::rules_map(&cfg.rules),
        cut_tolerance: 0,
        rounding: Rounding::Down,
        claim: claim.and_then(|c| cfg.bet.spot().map(|s| Claims::of(s, c))),
        currency: None,
        source: Some(format!(
            "rtplab {} sim baccarat --seed {seed} --bet {} (amounts: {STAKE} to a betting unit)",
            crate::VERSION,
            cfg.bet
        )),
    }
}

use crate::logfile::write_record as line;

/// Write the log of chunks `chunks` of the run of `cfg` seeded `seed` planned as `plan`, the
/// header (with `claim`) first. Stops at the end of a shoe when `stop` is set (the end record
/// then says the log is not complete).
#[allow(clippy::too_many_arguments)]
pub fn write_log(
    out: &mut dyn Write,
    cfg: &BacConfig,
    plan: &Plan,
    seed: u64,
    chunks: Range<u64>,
    opts: LogOptions,
    claim: Option<f64>,
    stop: &AtomicBool,
) -> std::io::Result<LogSummary> {
    line(out, &header(cfg, seed, claim))?;
    let mut w = Writer {
        out,
        cfg,
        plan,
        seed,
        opts,
        stop,
        sum: LogSummary::default(),
        shoe_no: 0,
        coup_no: 0,
    };
    // The bettor of the run, as `Baccarat::prepare` makes it.
    let unit = cfg.unit as i64;
    match cfg.bet {
        BetSpec::Flat(spot) => w.chunks(&Flat { spot, unit }, chunks)?,
        BetSpec::Follow => w.chunks(
            &Follow {
                unit,
                next: Spot::Banker,
            },
            chunks,
        )?,
        BetSpec::Martingale(spot) => w.chunks(
            &Martingale {
                spot,
                unit,
                max: cfg.table_max as i64,
                stake: unit,
            },
            chunks,
        )?,
    }
    let complete = !w.stop.load(Ordering::Relaxed);
    w.sum.complete = complete;
    let end = EndRecord {
        kind: "end".into(),
        coups: w.sum.coups,
        complete,
    };
    line(w.out, &end)?;
    Ok(w.sum)
}

struct Writer<'a> {
    out: &'a mut dyn Write,
    cfg: &'a BacConfig,
    plan: &'a Plan,
    seed: u64,
    opts: LogOptions,
    stop: &'a AtomicBool,
    sum: LogSummary,
    shoe_no: u64,
    coup_no: u64,
}

/// A shoe being dealt: its cards' suits, and whether it goes into the log.
struct Dealing<'a> {
    suits: &'a mut Suits,
    logged: bool,
}

impl Writer<'_> {
    fn chunks<B: Bettor>(&mut self, bettor: &B, chunks: Range<u64>) -> std::io::Result<()> {
        let bar = crate::progress::Progress::new(
            true,
            chunks.end - chunks.start,
            "writing the round log",
            "chunks",
        );
        for c in chunks {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            self.chunk(bettor.clone(), c)?;
            bar.advance(1);
        }
        bar.finish();
        Ok(())
    }

    /// Chunk `c` again, as `BacSim::run_chunk` plays it, logged.
    fn chunk<B: Bettor>(&mut self, mut bettor: B, c: u64) -> std::io::Result<()> {
        let rules = &self.cfg.rules;
        let mut rng = crate::rng::chunk_rng(self.seed, c);
        let mut suits = Suits::new(
            rules.decks,
            crate::rng::chunk_rng(self.seed ^ SUITS_SALT, c),
        );
        let every = rules.shuffle == Shuffle::EveryRound;
        let batch = if every { 10 } else { rules.cut() };
        let mut shoe = Shoe::new(rules.decks, rules.cut(), batch);
        for _ in 0..self.plan.sessions_per_chunk {
            let mut srng = Rng::seed_from_u64(rng.next_u64());
            bettor.new_session();
            if every {
                for _ in 0..SESSION_COUPS {
                    shoe.reshuffle();
                    let mut d = self.new_shoe(&mut suits, &[])?;
                    self.coup(&mut shoe, &mut srng, &mut bettor, &mut d)?;
                }
            } else {
                shoe.reshuffle();
                // The burn as `sim::burn` deals it: the first card turned over, then its value.
                let mut burned = Vec::new();
                if rules.burn {
                    let first = shoe.draw(&mut srng);
                    burned.push(first);
                    for _ in 0..value(first) {
                        burned.push(shoe.draw(&mut srng));
                    }
                }
                let mut d = self.new_shoe(&mut suits, &burned)?;
                loop {
                    shoe.begin_round();
                    let refills = shoe.reshuffles_mid_round;
                    self.coup(&mut shoe, &mut srng, &mut bettor, &mut d)?;
                    if shoe.past_cut() || shoe.reshuffles_mid_round != refills {
                        break;
                    }
                }
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        Ok(())
    }

    /// A shuffled shoe, `burned` its burn: its record if it is logged.
    fn new_shoe<'s>(
        &mut self,
        suits: &'s mut Suits,
        burned: &[Rank],
    ) -> std::io::Result<Dealing<'s>> {
        let logged = self.shoe_no.is_multiple_of(self.opts.every_shoe);
        self.shoe_no += 1;
        suits.reshuffle();
        let burn: Vec<Card> = burned.iter().map(|&r| suits.deal(r)).collect();
        if logged {
            debug_assert_eq!(burns(&self.cfg.rules), !burn.is_empty());
            let rec = ShoeRecord {
                kind: "shoe".into(),
                shoe: self.shoe_no,
                cut: cut_of(&self.cfg.rules),
                burn,
            };
            line(self.out, &rec)?;
            self.sum.shoes += 1;
        }
        Ok(Dealing { suits, logged })
    }

    /// One coup, as `BacSim::coup` plays and settles it; its record if its shoe is logged.
    fn coup<B: Bettor>(
        &mut self,
        shoe: &mut Shoe,
        srng: &mut Rng,
        bettor: &mut B,
        d: &mut Dealing,
    ) -> std::io::Result<()> {
        let rules = &self.cfg.rules;
        let mut ranks: Vec<Rank> = Vec::with_capacity(6);
        let c = deal(|| {
            let r = shoe.draw(srng);
            ranks.push(r);
            r
        });
        // The bets and the simulator's settlement of them (thousandths of a unit).
        let (spot, units) = bettor.bet();
        let net = settle(spot, units, &c, rules);
        bettor.settle(&c, net);
        let mut stake = Bets::default();
        let mut paid = Bets::default();
        let mut add = |s: Spot, units: i64, net: i64| {
            *stake.get_mut(s) += units as u64 * STAKE;
            *paid.get_mut(s) += (units * SCALE + net) as u64;
        };
        add(spot, units, net);
        let pairs = self.cfg.pairs as i64;
        if pairs > 0 {
            for s in [Spot::PlayerPair, Spot::BankerPair] {
                add(s, pairs, settle(s, pairs, &c, rules));
            }
        }
        self.coup_no += 1;
        // The cards suited in dealing order, then into the hands as the simulator dealt them.
        let cards: Vec<Card> = ranks.iter().map(|&r| d.suits.deal(r)).collect();
        if !d.logged {
            return Ok(());
        }
        let mut player = vec![cards[0], cards[2]];
        let mut banker = vec![cards[1], cards[3]];
        let mut next = 4;
        if c.player_drew {
            player.push(cards[next]);
            next += 1;
        }
        if c.banker_drew {
            banker.push(cards[next]);
        }
        let rank = |h: &[Card]| h.iter().map(|c| c.rank()).collect::<Vec<_>>();
        let agrees = match replay::deal(&rank(&player), &rank(&banker)) {
            Ok(r) => {
                r.issues.is_empty() && replay::pay(rules, Rounding::Down, &r.coup, &stake) == paid
            }
            Err(_) => false,
        };
        self.sum.disagreements += !agrees as u64;
        let rec = CoupRecord {
            kind: "coup".into(),
            shoe: self.shoe_no,
            coup: self.coup_no,
            player,
            banker,
            bets: vec![BettorRecord {
                bettor: 1,
                stake,
                paid,
            }],
            void: None,
        };
        line(self.out, &rec)?;
        self.sum.coups += 1;
        Ok(())
    }
}
