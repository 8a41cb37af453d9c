//! A wager's event table, as a lab files it: each event, what it pays, its combinations over
//! the finite shoe, probability, 1 in N and contribution to the return; the RTP and SD per
//! unit staked.

use serde::Serialize;

use super::Paytable;
use crate::report::{count, fixed_cell, pct, pct_cell, Cell, Num, Section};

/// One event of the table (or the loss).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventRow {
    pub event: String,
    /// What it pays, as printed ("25 to 1", "push", "loss"), and as a number (−1 for a loss).
    pub pays: String,
    pub pays_value: f64,
    /// Deals on which this event is the one paid (ordered deals of the cards the wager looks
    /// at; see `EventTable::counted`). A decimal string: the counts pass 2^64 at baccarat.
    pub combinations: String,
    pub probability: f64,
    /// 1 in N deals (infinite when it cannot happen).
    pub one_in: f64,
    /// Its share of the return: probability × pays.
    pub contribution: f64,
}

/// The exact analysis of one wager over a full shoe.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventTable {
    pub name: String,
    pub decks: u32,
    /// What one combination is (which cards, in dealing order).
    pub counted: String,
    pub source: String,
    pub rows: Vec<EventRow>,
    pub total: String,
    /// Return per unit staked (1 + EV), its EV, and the SD of one wager's result.
    pub rtp: f64,
    pub ev: f64,
    pub sd: f64,
    /// Probability that the wager wins something.
    pub hit_rate: f64,
}

impl EventTable {
    /// The table from the combinations of each line of `table` (as paid: the line that pays
    /// most of those that hold) and, last, of the deals on which none holds.
    pub fn from_weights(
        table: &Paytable,
        decks: u32,
        weights: &[u128],
        counted: &str,
    ) -> EventTable {
        assert_eq!(
            weights.len(),
            table.lines.len() + 1,
            "a weight per line and the loss"
        );
        let total: u128 = weights.iter().sum();
        let tf = total as f64;
        let mut rows = Vec::with_capacity(weights.len());
        let (mut ev, mut ex2, mut hit) = (0.0, 0.0, 0.0);
        for (i, &w) in weights.iter().enumerate() {
            let (name, pays, v) = match table.lines.get(i) {
                Some(l) => (l.event.name(), l.pays.to_string(), l.pays.value()),
                None => ("loss (none of these)".to_string(), "loss".to_string(), -1.0),
            };
            let p = w as f64 / tf;
            ev += p * v;
            ex2 += p * v * v;
            if v > 0.0 {
                hit += p;
            }
            rows.push(EventRow {
                event: name,
                pays,
                pays_value: v,
                combinations: w.to_string(),
                probability: p,
                one_in: if w == 0 { f64::INFINITY } else { 1.0 / p },
                contribution: p * v,
            });
        }
        EventTable {
            name: table.name.clone(),
            decks,
            counted: counted.to_string(),
            source: table.source.clone(),
            rows,
            total: total.to_string(),
            rtp: 1.0 + ev,
            ev,
            sd: (ex2 - ev * ev).max(0.0).sqrt(),
            hit_rate: hit,
        }
    }

    /// The table from each line's probability (then the loss's), where the deals are not
    /// counted (a dealer's hand has no fixed number of cards): combinations are left empty.
    pub fn from_probabilities(
        table: &Paytable,
        decks: u32,
        probs: &[f64],
        counted: &str,
    ) -> EventTable {
        // Weights of 2^60 per unit of probability: the rows' figures as the probabilities.
        let scale = (1u128 << 60) as f64;
        let w: Vec<u128> = probs.iter().map(|p| (p * scale).round() as u128).collect();
        let mut t = EventTable::from_weights(table, decks, &w, counted);
        for (r, &p) in t.rows.iter_mut().zip(probs) {
            r.combinations = String::new();
            r.probability = p;
            r.one_in = if p > 0.0 { 1.0 / p } else { f64::INFINITY };
            r.contribution = p * r.pays_value;
        }
        t.total = String::new();
        let ev: f64 = t.rows.iter().map(|r| r.contribution).sum();
        let ex2: f64 = t
            .rows
            .iter()
            .map(|r| r.probability * r.pays_value * r.pays_value)
            .sum();
        t.ev = ev;
        t.rtp = 1.0 + ev;
        t.sd = (ex2 - ev * ev).max(0.0).sqrt();
        t.hit_rate = t
            .rows
            .iter()
            .filter(|r| r.pays_value > 0.0)
            .map(|r| r.probability)
            .sum();
        t
    }

    /// The report's section: one row per event, then the total.
    pub fn section(&self, label: &str) -> Section {
        let mut s = Section::new(
            &format!("side bet {label}: events, {} decks", self.decks),
            &[
                "event",
                "pays",
                "combinations",
                "probability",
                "1 in",
                "contribution to RTP",
            ],
        );
        for r in &self.rows {
            let one_in = if r.one_in.is_finite() {
                fixed_cell(r.one_in, 1, "deals")
            } else {
                Cell::from("never")
            };
            s.row([
                Cell::from(r.event.as_str()),
                Cell::from(r.pays.as_str()),
                combinations_cell(&r.combinations),
                Cell::num(format!("{:.6}", r.probability), r.probability, "fraction"),
                one_in,
                Cell::num(format!("{:+.6}", r.contribution), r.contribution, "stakes"),
            ]);
        }
        s.row([
            Cell::from("total"),
            Cell::from(""),
            combinations_cell(&self.total),
            Cell::num("1.000000".into(), 1.0, "fraction"),
            Cell::from(""),
            Cell::num(format!("{:+.6}", self.ev), self.ev, "stakes"),
        ]);
        s
    }

    /// The summary row of this wager: RTP, house edge, SD, hit rate.
    pub fn summary_cells(&self, label: &str) -> Vec<Cell> {
        vec![
            Cell::from(label),
            pct_cell(self.rtp, 4),
            pct_cell(-self.ev, 4),
            fixed_cell(self.sd, 4, "stakes"),
            pct_cell(self.hit_rate, 3),
        ]
    }

    /// The summary section's columns.
    pub const SUMMARY_COLUMNS: [&'static str; 5] =
        ["side bet", "RTP", "house edge", "SD per stake", "hit rate"];

    /// One line: `21+3: RTP 96.2993% (edge 3.7007%), SD 3.3 per stake`.
    pub fn line(&self) -> String {
        format!(
            "{}: RTP {} (house edge {}), SD {:.3} per stake",
            self.name,
            pct(self.rtp, 4),
            pct(-self.ev, 4),
            self.sd
        )
    }
}

fn combinations_cell(c: &str) -> Cell {
    if c.is_empty() {
        return Cell::from("-");
    }
    let text = crate::report::group_digits(c);
    match c.parse::<u64>() {
        Ok(n) => Cell {
            text: count(n),
            value: Some(Num::Count(n)),
        },
        Err(_) => Cell::from(text),
    }
}
