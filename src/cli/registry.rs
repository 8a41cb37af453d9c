//! The registry: every game, one line each. `merge`, `check`, `monitor` and `risk` reach a
//! game by the name in a file (a shard's `key.game`, a baseline's or a report's `game`)
//! through it; the library's commands are given it and name no game themselves.

use rtplab::game::Entry;
use rtplab::games::{baccarat, blackjack, doom, twentyone};

/// Every game.
pub fn games() -> Vec<Entry> {
    vec![
        Entry::of::<baccarat::Baccarat>(),
        Entry::of::<blackjack::Blackjack>(),
        Entry::of::<doom::Doom>(),
        Entry::of::<twentyone::TwentyOne>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_has_a_unique_name() {
        let games = games();
        let names: Vec<&str> = games.iter().map(|e| e.name).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert!(rtplab::game::find(&games, "blackjack").is_some());
        assert!(rtplab::game::find(&games, "no-such-game").is_none());
    }

    /// The games whose reports `monitor` reads in their own way: blackjack (the rules' bound
    /// on a round's return) and baccarat (the bet's exact RTP and SD per coup).
    #[test]
    fn monitor_reads_blackjack_and_baccarat_reports_their_own_way() {
        let mut read: Vec<&str> = games()
            .iter()
            .filter_map(|e| e.monitor.map(|r| r.game))
            .collect();
        read.sort();
        assert_eq!(read, ["baccarat", "blackjack"]);
    }

    /// The games whose reports `risk` reads EV and SD per round from: blackjack's.
    #[test]
    fn risk_reads_blackjack_reports() {
        let read: Vec<&str> = games()
            .iter()
            .filter_map(|e| e.risk.map(|r| r.game))
            .collect();
        assert_eq!(read, ["blackjack"]);
    }
}
