//! `sim blackjack --rounds-out FILE.parquet`: per-round records of a run, for people who want
//! paths rather than sums. The run's first rounds in its own order (chunk by chunk, as the
//! round log plays them again from the same streams), a row per seat and round, streamed to an
//! Apache Parquet file a row group at a time (docs/round-log.md, "Per-round records").

use std::io::Write;

use super::write::{At, Sink};
use super::{RoundRecord, ShoeRecord};
use crate::study::parquet::{Column, Writer};

/// Rounds per row group (a group of one seat is about 1.5 MB in memory).
pub const GROUP_ROUNDS: usize = 16_384;
/// The default and the largest number of rounds recorded.
pub const DEFAULT_LIMIT: u64 = 100_000;
pub const MAX_LIMIT: u64 = 100_000_000;

/// The columns of the file, in order (docs/round-log.md).
pub const COLUMNS: [&str; 12] = [
    "round",
    "chunk",
    "shoe",
    "seat",
    "cards",
    "play",
    "running_count",
    "true_count",
    "bet",
    "wagered",
    "net",
    "bankroll",
];

/// The rows of one row group, column by column.
#[derive(Default)]
struct Rows {
    round: Vec<Option<i64>>,
    chunk: Vec<Option<i64>>,
    shoe: Vec<Option<i64>>,
    seat: Vec<Option<i64>>,
    cards: Vec<String>,
    play: Vec<String>,
    running_count: Vec<Option<f64>>,
    true_count: Vec<Option<i64>>,
    bet: Vec<Option<i64>>,
    wagered: Vec<Option<f64>>,
    net: Vec<Option<f64>>,
    bankroll: Vec<Option<f64>>,
}

impl Rows {
    fn take(&mut self) -> Vec<Column> {
        let r = std::mem::take(self);
        let n = |s: &str| s.to_string();
        vec![
            Column::Int(n(COLUMNS[0]), r.round),
            Column::Int(n(COLUMNS[1]), r.chunk),
            Column::Int(n(COLUMNS[2]), r.shoe),
            Column::Int(n(COLUMNS[3]), r.seat),
            Column::Text(n(COLUMNS[4]), r.cards),
            Column::Text(n(COLUMNS[5]), r.play),
            Column::Double(n(COLUMNS[6]), r.running_count),
            Column::Int(n(COLUMNS[7]), r.true_count),
            Column::Int(n(COLUMNS[8]), r.bet),
            Column::Double(n(COLUMNS[9]), r.wagered),
            Column::Double(n(COLUMNS[10]), r.net),
            Column::Double(n(COLUMNS[11]), r.bankroll),
        ]
    }
}

/// The Parquet sink: rows gathered a group at a time, at most `limit` rounds.
pub struct RoundsOut<'a> {
    file: Option<Writer<'a>>,
    rows: Rows,
    rounds_in_group: usize,
    pub rounds: u64,
    limit: u64,
    /// Each seat's net so far, in units.
    bankroll: Vec<f64>,
}

impl<'a> RoundsOut<'a> {
    /// A file to `out` of at most `limit` rounds.
    pub fn new(out: &'a mut dyn Write, limit: u64) -> std::io::Result<RoundsOut<'a>> {
        let like = Rows::default().take();
        // Only the counts are null (a run without a count; an unbalanced count's true count).
        let nullable: Vec<bool> = COLUMNS
            .iter()
            .map(|c| matches!(*c, "running_count" | "true_count"))
            .collect();
        Ok(RoundsOut {
            file: Some(Writer::new(out, "rounds", &like, &nullable)?),
            rows: Rows::default(),
            rounds_in_group: 0,
            rounds: 0,
            limit,
            bankroll: Vec::new(),
        })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.rounds_in_group > 0 {
            let cols = self.rows.take();
            if let Some(f) = &mut self.file {
                f.group(&cols)?;
            }
            self.rounds_in_group = 0;
        }
        Ok(())
    }

    /// Write the last rows and the file's footer.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.flush()?;
        match self.file.take() {
            Some(f) => f.finish(),
            None => Ok(()),
        }
    }
}

impl Sink for RoundsOut<'_> {
    fn shoe(&mut self, _: &ShoeRecord) -> std::io::Result<()> {
        Ok(())
    }

    fn round(&mut self, rec: &RoundRecord, at: &At) -> std::io::Result<()> {
        let cards: String = rec.cards.iter().map(|c| c.to_string()).collect();
        let u = at.units_per_bet as f64;
        for (s, seat) in rec.seats.iter().enumerate() {
            let res = &at.result.seats[s];
            let bet = res.bet as f64;
            let net = bet * res.net as f64 / u;
            if self.bankroll.len() <= s {
                self.bankroll.resize(s + 1, 0.0);
            }
            self.bankroll[s] += net;
            let r = &mut self.rows;
            r.round.push(Some(rec.round as i64));
            r.chunk.push(Some(at.chunk as i64));
            r.shoe.push(Some(rec.shoe as i64));
            r.seat.push(Some(seat.seat as i64));
            r.cards.push(cards.clone());
            r.play.push(seat.play.join(","));
            r.running_count
                .push(at.count.map(|(rc, _)| rc as f64 / at.scale as f64));
            r.true_count
                .push(at.count.and_then(|(_, tc)| tc).map(i64::from));
            r.bet.push(Some(res.bet as i64));
            r.wagered.push(Some(bet * res.wagered as f64 / u));
            r.net.push(Some(net));
            r.bankroll.push(Some(self.bankroll[s]));
        }
        self.rounds += 1;
        self.rounds_in_group += 1;
        if self.rounds_in_group == GROUP_ROUNDS {
            self.flush()?;
        }
        Ok(())
    }

    fn full(&self) -> bool {
        self.rounds >= self.limit
    }
}
