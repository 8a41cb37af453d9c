//! The table's rules on the command line: a preset and a flag per rule.

use clap::Args;

use super::super::heading;
use super::super::ArgError;
use rtplab::games::blackjack::rules::{
    parse_bj_pays, parse_double, parse_split_by, parse_surrender, parse_takes, BjPays,
    DealerBjTakes, Double, Rules, Shuffle, Shuffler, SplitBy, Surrender,
};

/// Every rule of the blackjack table; unset flags keep the preset's value.
#[derive(Args, Debug)]
#[command(next_help_heading = heading::RULES)]
pub struct BjRulesArgs {
    /// Rule preset to start from.
    #[arg(long, value_enum, default_value_t = Preset::Seed)]
    pub rules: Preset,
    /// A table file to start from instead (its rules over the seed table's; the flags below
    /// change them). Shipped: tables/seed.toml, 6d-h17.toml, double-deck.toml,
    /// single-deck.toml (docs/tables.md).
    #[arg(long, value_name = "FILE", conflicts_with = "rules")]
    pub table: Option<std::path::PathBuf>,
    /// Decks in the shoe (1 to 64; the seed table: 8).
    #[arg(long, value_name = "N")]
    pub decks: Option<u32>,
    /// Dealer hits soft 17 (default: stands on all 17s).
    #[arg(long)]
    pub h17: bool,
    /// Blackjack payout (the seed table: 3:2).
    #[arg(long, value_name = "3:2|6:5|1:1", value_parser = parse_bj_pays)]
    pub bj_pays: Option<BjPays>,
    /// Hole-card game: the dealer peeks for blackjack (instead of European no-hole-card).
    #[arg(long)]
    pub peek: bool,
    /// No-hole-card game: what a dealer blackjack takes (all wagers, or the original bet only).
    ///
    /// all (the seed table, the European convention): doubled and split bets are lost too.
    /// original (also obo): only the original bet is lost, which has the EV of a hole-card
    /// game. splits (also playtech, the "Playtech peek" settlement): the original bet and
    /// every split hand's bet are lost, doubles are returned. Without --peek only; `exact
    /// blackjack` without this flag reports both all and original.
    #[arg(long, value_name = "all|original|splits", value_parser = parse_takes)]
    pub dealer_bj_takes: Option<DealerBjTakes>,
    /// When surrender is allowed.
    ///
    /// 2-9 (the seed table): against a dealer 2 to 9 only; late: against any up card, after
    /// the peek in a hole-card game (without a hole card, late surrender does not escape a
    /// dealer blackjack: the whole bet is lost); early: against any up card, before the peek
    /// (half the bet even against a blackjack); none (also no). Surrender gives up half the
    /// main bet, on the first two cards only.
    #[arg(long, value_name = "none|2-9|late|early", value_parser = parse_surrender)]
    pub surrender: Option<Surrender>,
    /// Which first two cards may be doubled (the seed table: any).
    ///
    /// 9-11 and 10-11 are hard totals; a double takes exactly one more card.
    #[arg(long, value_name = "any|9-11|10-11", value_parser = parse_double)]
    pub double: Option<Double>,
    /// Double after split allowed.
    #[arg(long)]
    pub das: bool,
    /// Most hands after splitting (1 = no splitting).
    ///
    /// 2 at the seed table (split once); up to 8 in simulation, 4 in the exact analysis.
    #[arg(long, value_name = "N")]
    pub max_hands: Option<u8>,
    /// Aces may be resplit (needs --max-hands 3 or more).
    #[arg(long)]
    pub resplit_aces: bool,
    /// Split aces may be hit (default: one card each).
    #[arg(long)]
    pub hit_split_aces: bool,
    /// What makes a splittable pair.
    ///
    /// value (the seed table): any two ten-valued cards (K-Q) are a pair; rank: only the same
    /// rank (K-K). The exact analysis approximates rank by value and says so.
    #[arg(long, value_name = "value|rank", value_parser = parse_split_by)]
    pub split_by: Option<SplitBy>,
    /// Cut card position as the fraction of the shoe dealt (e.g. 0.75).
    ///
    /// 0.75 at the seed table. A round begun before the cut card is dealt from the same
    /// shoe, so at least 8 cards per hand at the table must lie behind it. Not with
    /// --shuffle-every-round.
    #[arg(long, value_name = "F")]
    pub penetration: Option<f64>,
    /// Shuffle the whole shoe before every round (continuous shuffler).
    #[arg(long)]
    pub shuffle_every_round: bool,
    /// How the shoe is shuffled (the seed table: uniform).
    ///
    /// uniform: every order of the whole shoe equally likely. riffle:K: K
    /// Gilbert–Shannon–Reeds riffles (1 to 32) of the previous shoe as it was dealt; each
    /// chunk's first shoe is shuffled uniformly. machine: a continuous shuffling machine, each
    /// round's cards going back at random places among its cards except the 10 already
    /// dropped for dealing; it has no cut card (not with --penetration or
    /// --shuffle-every-round). For the commands that deal shoes (sim, compare, strategies
    /// ramp and bets); docs/shuffle.md.
    #[arg(long, value_name = "uniform|riffle:K|machine", value_parser = parse_shuffler)]
    pub shuffle: Option<Shuffler>,
    /// Seated players, all playing the chosen strategy (1 to 7; default 1).
    ///
    /// They are dealt from the same shoe. With --spots-at, a counter bets its seats beyond
    /// the first only at high counts.
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
    /// N-card Charlie: a hand of N cards (4 to 9) that has not busted stands and wins 1:1,
    /// unless the dealer has blackjack (Infinite Blackjack's six-card Charlie: --charlie 6).
    #[arg(long, value_name = "N")]
    pub charlie: Option<u8>,
    /// Free Bet Blackjack: doubles on a hard 9, 10 or 11 and splits of any pair but tens are
    /// free, and a dealer's 22 pushes every hand still standing (--rules free-bet: the whole
    /// table).
    ///
    /// A free chip is paid like a bet when its hand wins and is never lost. Doubles and
    /// splits that are not free are paid for as usual.
    #[arg(long)]
    pub free_bet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// The live table: 8 decks, S17, 3:2, ENHC (lose all), surrender 2-9, no DAS, 2 hands.
    Seed,
    /// Free Bet Blackjack: 6 decks, H17, peek, 3:2, DAS, resplit to 4 (aces too), no
    /// surrender, free doubles and splits, a dealer 22 pushes.
    FreeBet,
    /// Infinite Blackjack: the seed table without surrender, with DAS and a six-card Charlie.
    Infinite,
}

impl BjRulesArgs {
    /// Whether the no-hole-card settlement was chosen explicitly.
    pub fn settlement_given(&self) -> bool {
        self.dealer_bj_takes.is_some()
    }

    /// The validated rule set these flags describe.
    pub fn to_rules(&self) -> Result<Rules, ArgError> {
        self.build(true)
    }

    /// The rule set for an analysis that deals no shoe to its cut card (advise, exact,
    /// derive, indices): the cut card's place is not checked (`Rules::validate_undealt`).
    pub fn to_rules_undealt(&self) -> Result<Rules, ArgError> {
        self.build(false)
    }

    /// Refuse a shuffle other than uniform for `what` (an analysis that deals every round from
    /// a full, uniformly shuffled shoe: exact, advise, derive, indices, count metrics, the audit).
    pub fn uniform_shuffle(&self, what: &str) -> Result<(), ArgError> {
        match self.shuffle {
            Some(s) if !s.is_uniform() => Err(format!(
                "--shuffle {s} changes how a dealt shoe is shuffled, and {what} takes every round from a full, uniformly shuffled shoe: drop --shuffle"
            )
            .into()),
            _ => Ok(()),
        }
    }

    fn build(&self, dealt: bool) -> Result<Rules, ArgError> {
        let mut r = match (&self.table, self.rules) {
            (Some(path), _) => {
                let (text, file) = rtplab::specfile::table_text(path).map_err(|e| e.to_string())?;
                rtplab::games::blackjack::rules::read_table(&text, &file, dealt)
                    .map_err(|e| format!("--table {e}"))?
            }
            (None, Preset::Seed) => Rules::seed(),
            (None, Preset::FreeBet) => Rules::free_bet(),
            (None, Preset::Infinite) => Rules::infinite(),
        };
        if self.peek && self.dealer_bj_takes.is_some() {
            return Err(
                "--dealer-bj-takes applies to the no-hole-card game only; drop it or drop --peek"
                    .into(),
            );
        }
        if self.shuffle_every_round && self.penetration.is_some() {
            return Err("--penetration places a cut card, which --shuffle-every-round does not use; give one of them".into());
        }
        let shuffler = self.shuffle.unwrap_or(r.shuffler);
        if self.shuffle == Some(Shuffler::Machine) {
            if self.penetration.is_some() {
                return Err("--shuffle machine deals from a continuous shuffling machine, which has no cut card: drop --penetration".into());
            }
            if self.shuffle_every_round {
                return Err("--shuffle machine already returns the cards to the machine after every round: drop --shuffle-every-round".into());
            }
        }
        if !dealt {
            self.uniform_shuffle("this analysis")?;
        }
        if let Some(d) = self.decks {
            r.decks = d;
        }
        r.h17 |= self.h17;
        if let Some(p) = self.bj_pays {
            r.bj_pays = p;
        }
        r.peek |= self.peek;
        if let Some(t) = self.dealer_bj_takes {
            r.dealer_bj_takes = t;
        }
        if let Some(s) = self.surrender {
            r.surrender = s;
        }
        if let Some(d) = self.double {
            r.double = d;
        }
        r.das |= self.das;
        if let Some(m) = self.max_hands {
            r.max_hands = m;
        }
        r.resplit_aces |= self.resplit_aces;
        r.hit_split_aces |= self.hit_split_aces;
        if let Some(s) = self.split_by {
            r.split_by = s;
        }
        if let Some(p) = self.penetration {
            r.shuffle = Shuffle::CutCard { penetration: p };
        }
        if self.shuffle.is_some_and(|s| s != Shuffler::Machine) && r.shuffler == Shuffler::Machine {
            // A table's machine replaced by another shuffler: the cut card of the seed table.
            r.shuffle = Rules::seed().shuffle;
        }
        if self.shuffle_every_round || shuffler == Shuffler::Machine {
            r.shuffle = Shuffle::EveryRound;
        }
        r.shuffler = shuffler;
        if let Some(p) = self.players {
            r.players = p;
        }
        if self.charlie.is_some() {
            r.charlie = self.charlie;
        }
        r.free_bet |= self.free_bet;
        if r.peek && self.dealer_bj_takes.is_some() {
            return Err(
                "--dealer-bj-takes applies to the no-hole-card game only, and these rules peek; drop it"
                    .into(),
            );
        }
        let checked = if dealt {
            r.validate()
        } else {
            r.validate_undealt()
        };
        checked.map_err(|e| e.to_string())?;
        Ok(r)
    }
}

fn parse_shuffler(s: &str) -> Result<Shuffler, String> {
    s.parse()
        .map_err(|e: rtplab::cards::ShufflerError| e.to_string())
}
