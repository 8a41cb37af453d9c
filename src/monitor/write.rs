//! Writing a log of periods that `monitor` reads, with each period's sum of squared stakes.

/// One period of a log of periods as a tool that sees every round writes it: the rounds, the
/// amounts, and `stake_sq`, the sum of the rounds' squared stakes (a round's stake is what it
/// wagered), so that `monitor` builds each band from the stakes played.
#[derive(Clone, Debug, PartialEq)]
pub struct PeriodLogRow {
    pub period: String,
    pub rounds: u64,
    pub wagered: f64,
    pub returned: f64,
    pub stake_sq: f64,
}

impl PeriodLogRow {
    /// The log's header line (no line end).
    pub const HEADER: &'static str = "period,rounds,wagered,returned,stake_sq";

    /// A period named `period` with no rounds yet.
    pub fn new(period: impl Into<String>) -> PeriodLogRow {
        PeriodLogRow {
            period: period.into(),
            rounds: 0,
            wagered: 0.0,
            returned: 0.0,
            stake_sq: 0.0,
        }
    }

    /// Add a round that wagered `stake` in all and returned `returned` (stakes back included).
    pub fn add_round(&mut self, stake: f64, returned: f64) {
        self.rounds += 1;
        self.wagered += stake;
        self.returned += returned;
        self.stake_sq += stake * stake;
    }

    /// The row as a line of the log (no line end): the period quoted where CSV needs it, the
    /// amounts in full (the shortest decimals that read back as the same number).
    pub fn to_csv(&self) -> String {
        let period = if self.period.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", self.period.replace('"', "\"\""))
        } else {
            self.period.clone()
        };
        format!(
            "{period},{},{},{},{}",
            self.rounds, self.wagered, self.returned, self.stake_sq
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::{monitor, BandWidth, Expectation};
    use super::*;

    #[test]
    fn rows_written_read_back_the_same() {
        let e = Expectation {
            rtp: 0.99,
            sd_per_round: 1.0,
            max_return: 12.0,
            tier: None,
            source: "t".into(),
        };
        let mut a = PeriodLogRow::new("day 1, \"early\"");
        for (stake, ret) in [(1.0, 2.0), (100.0, 0.0), (0.1, 0.25), (25.5, 51.0)] {
            a.add_round(stake, ret);
        }
        let mut b = PeriodLogRow::new("day 2");
        b.add_round(3.3, 3.3);
        assert_eq!(
            (a.rounds, a.wagered, a.stake_sq),
            (
                4,
                1.0 + 100.0 + 0.1 + 25.5,
                1.0 + 10000.0 + 0.1 * 0.1 + 650.25
            )
        );
        assert_eq!(PeriodLogRow::HEADER, super::super::read::COLUMNS.join(","));
        let log = format!("{}\n{}\n{}\n", PeriodLogRow::HEADER, a.to_csv(), b.to_csv());
        assert!(log.starts_with("period,rounds,wagered,returned,stake_sq\n"));
        let m = monitor(&e, 99.0, "l.csv", log.as_bytes()).unwrap();
        assert_eq!(m.band_width, BandWidth::Stakes);
        for (r, w) in m.periods.iter().zip([&a, &b]) {
            assert_eq!(
                (&r.period, r.rounds, r.wagered, r.returned, r.stake_sq),
                (&w.period, w.rounds, w.wagered, w.returned, Some(w.stake_sq))
            );
        }
    }
}
