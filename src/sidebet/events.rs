//! The events a paytable can pay on: at blackjack the seat's first two cards and the dealer's
//! up card (and, for one event, whether the dealer has blackjack); at baccarat the coup's
//! result or the hands' first two cards.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{rank, red, Game};
use crate::cards::CardId;

/// What an event looks at (the enumeration that values it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    /// Blackjack: the seat's first two cards and the dealer's up card, with suits.
    ThreeCards,
    /// Blackjack: those and whether the dealer's hole card makes a blackjack.
    DealerHole,
    /// Blackjack: the dealer's whole hand (whether it busts, and with how many cards).
    DealerHand,
    /// Baccarat: the two hands' first two cards, with suits.
    FirstFour,
    /// Baccarat: the coup played out (totals and cards drawn; suits do not matter).
    Coup,
}

/// A blackjack deal as a side bet sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BjDeal {
    /// The seat's first two cards.
    pub two: [CardId; 2],
    pub up: CardId,
    /// The dealer has blackjack (up card and hole card).
    pub dealer_bj: bool,
    /// The dealer's finished hand: its cards, and whether it busted.
    pub dealer_cards: u8,
    pub dealer_bust: bool,
}

/// A baccarat coup as a side bet sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BacDeal {
    /// Two-card totals, final totals and cards of each hand.
    pub player_two: u8,
    pub banker_two: u8,
    pub player: u8,
    pub banker: u8,
    pub player_cards: u8,
    pub banker_cards: u8,
    /// The first two cards of a hand are of one rank (a pair), or the same card (perfect).
    pub player_pair: bool,
    pub banker_pair: bool,
    pub player_perfect: bool,
    pub banker_perfect: bool,
}

/// Baccarat value of a card.
fn bac_value(c: CardId) -> u8 {
    let r = rank(c);
    if r >= 9 {
        0
    } else {
        r + 1
    }
}

impl BacDeal {
    /// The coup of these hands (cards in dealing order, two or three each).
    pub fn of(player: &[CardId], banker: &[CardId]) -> BacDeal {
        let total = |h: &[CardId]| h.iter().map(|&c| bac_value(c)).sum::<u8>() % 10;
        BacDeal {
            player_two: total(&player[..2]),
            banker_two: total(&banker[..2]),
            player: total(player),
            banker: total(banker),
            player_cards: player.len() as u8,
            banker_cards: banker.len() as u8,
            player_pair: rank(player[0]) == rank(player[1]),
            banker_pair: rank(banker[0]) == rank(banker[1]),
            player_perfect: player[0] == player[1],
            banker_perfect: banker[0] == banker[1],
        }
    }

    fn natural(&self) -> bool {
        self.player_two >= 8 || self.banker_two >= 8
    }
}

/// Which hand a baccarat event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Player,
    Banker,
}

/// An event a paytable pays on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    // Blackjack, the first two cards.
    PerfectPair,
    ColouredPair,
    MixedPair,
    Pair,
    RoyalMatch,
    Suited,
    QueenHeartsPairDealerBj,
    QueenHeartsPair,
    Matched20,
    Suited20,
    Twenty,
    // Blackjack, the first two cards and the up card.
    SuitedTrips,
    StraightFlush,
    ThreeOfAKind,
    Straight,
    Flush,
    Suited777,
    Suited678,
    Sevens,
    SixSevenEight,
    ThreeCard(u8),
    ThreeCardSuited(u8),
    // Blackjack, the dealer's hand: a bust with this many cards (8: eight or more; 0: any).
    DealerBusts(u8),
    // Baccarat, the coup.
    NaturalWin(Side),
    NaturalTie,
    WinsBy(Side, u8),
    Dragon7,
    Panda8,
    BankerWinsSix(u8),
    // Baccarat, the first four cards.
    PlayerPair,
    BankerPair,
    EitherPair,
    PerfectPairBac,
    TwoPerfectPairs,
}

/// Every event with its name and what it means (docs/side-bets.md lists the same).
pub fn all() -> Vec<(Event, &'static str)> {
    use Event::*;
    let mut v = vec![
        (
            PerfectPair,
            "the first two cards are the same card (rank and suit)",
        ),
        (ColouredPair, "a pair of one colour, not the same suit"),
        (MixedPair, "a pair of a red and a black card"),
        (Pair, "the first two cards are of one rank"),
        (
            RoyalMatch,
            "the first two cards are a king and queen of one suit",
        ),
        (Suited, "the first two cards are of one suit"),
        (
            QueenHeartsPairDealerBj,
            "two queens of hearts, and the dealer has blackjack",
        ),
        (QueenHeartsPair, "two queens of hearts"),
        (
            Matched20,
            "two identical cards (rank and suit) totalling 20",
        ),
        (Suited20, "two cards of one suit totalling 20"),
        (Twenty, "two cards totalling 20 (an ace and a nine too)"),
        (
            SuitedTrips,
            "the two cards and the up card are the same card",
        ),
        (StraightFlush, "three cards in sequence of one suit"),
        (ThreeOfAKind, "three cards of one rank"),
        (
            Straight,
            "three ranks in sequence (A-2-3 and Q-K-A run; K-A-2 does not)",
        ),
        (Flush, "three cards of one suit"),
        (Suited777, "three sevens of one suit"),
        (Suited678, "a six, seven and eight of one suit"),
        (Sevens, "three sevens"),
        (SixSevenEight, "a six, a seven and an eight"),
    ];
    v.push((DealerBusts(0), "the dealer busts"));
    for n in 3..=8 {
        v.push((
            DealerBusts(n),
            "the dealer busts with this many cards (8: eight or more)",
        ));
    }
    for t in [19, 20, 21] {
        v.push((ThreeCard(t), "the three cards total this (an ace 1 or 11)"));
        v.push((
            ThreeCardSuited(t),
            "the three cards are of one suit and total this",
        ));
    }
    for s in [Side::Player, Side::Banker] {
        v.push((
            NaturalWin(s),
            "the hand wins with a natural (8 or 9 on two cards)",
        ));
        for m in 1..=9 {
            v.push((
                WinsBy(s, m),
                "the hand wins by this many points, no natural on the table",
            ));
        }
    }
    v.extend([
        (NaturalTie, "both hands tie with naturals"),
        (Dragon7, "the banker wins with a three-card 7"),
        (Panda8, "the player wins with a three-card 8"),
        (BankerWinsSix(2), "the banker wins with a two-card 6"),
        (BankerWinsSix(3), "the banker wins with a three-card 6"),
        (PlayerPair, "the player's first two cards are of one rank"),
        (BankerPair, "the banker's first two cards are of one rank"),
        (EitherPair, "either hand's first two cards are of one rank"),
        (
            PerfectPairBac,
            "either hand's first two cards are the same card",
        ),
        (
            TwoPerfectPairs,
            "both hands' first two cards are the same card each",
        ),
    ]);
    v
}

impl Event {
    /// The event's name in paytable files and reports.
    pub fn name(self) -> String {
        use Event::*;
        let side = |s: Side| match s {
            Side::Player => "player",
            Side::Banker => "banker",
        };
        match self {
            PerfectPair => "perfect-pair".into(),
            ColouredPair => "coloured-pair".into(),
            MixedPair => "mixed-pair".into(),
            Pair => "pair".into(),
            RoyalMatch => "royal-match".into(),
            Suited => "suited".into(),
            QueenHeartsPairDealerBj => "queen-hearts-pair-dealer-blackjack".into(),
            QueenHeartsPair => "queen-hearts-pair".into(),
            Matched20 => "two-card-matched-20".into(),
            Suited20 => "two-card-suited-20".into(),
            Twenty => "two-card-20".into(),
            SuitedTrips => "suited-trips".into(),
            StraightFlush => "straight-flush".into(),
            ThreeOfAKind => "three-of-a-kind".into(),
            Straight => "straight".into(),
            Flush => "flush".into(),
            Suited777 => "suited-7-7-7".into(),
            Suited678 => "suited-6-7-8".into(),
            Sevens => "7-7-7".into(),
            SixSevenEight => "6-7-8".into(),
            ThreeCard(t) => format!("three-card-{t}"),
            ThreeCardSuited(t) => format!("three-card-suited-{t}"),
            DealerBusts(0) => "dealer-busts".into(),
            DealerBusts(8) => "dealer-busts-with-8-or-more-cards".into(),
            DealerBusts(n) => format!("dealer-busts-with-{n}-cards"),
            NaturalWin(s) => format!("{}-natural-win", side(s)),
            NaturalTie => "natural-tie".into(),
            WinsBy(s, m) => format!("{}-wins-by-{m}", side(s)),
            Dragon7 => "dragon-7".into(),
            Panda8 => "panda-8".into(),
            BankerWinsSix(n) => format!(
                "banker-wins-{}-card-6",
                if n == 2 { "two" } else { "three" }
            ),
            PlayerPair => "player-pair".into(),
            BankerPair => "banker-pair".into(),
            EitherPair => "either-pair".into(),
            PerfectPairBac => "perfect-pair".into(),
            TwoPerfectPairs => "two-perfect-pairs".into(),
        }
    }

    /// The event of that name (blackjack's `perfect-pair` and baccarat's share a name: the
    /// game's table decides, see [`Event::for_game`]).
    pub fn from_name(name: &str) -> Option<Event> {
        all().into_iter().map(|e| e.0).find(|e| e.name() == name)
    }

    /// The event of that name at that game's table.
    pub fn for_game(name: &str, game: Game) -> Option<Event> {
        all()
            .into_iter()
            .map(|e| e.0)
            .find(|e| e.name() == name && e.game() == game)
    }

    /// A hint at the names, for an error message.
    pub fn names_hint() -> String {
        "e.g. flush, straight, three-of-a-kind, perfect-pair, three-card-21, player-wins-by-9"
            .into()
    }

    pub fn game(self) -> Game {
        match self.scope() {
            Scope::ThreeCards | Scope::DealerHole | Scope::DealerHand => Game::Blackjack,
            Scope::FirstFour | Scope::Coup => Game::Baccarat,
        }
    }

    pub fn scope(self) -> Scope {
        use Event::*;
        match self {
            QueenHeartsPairDealerBj => Scope::DealerHole,
            DealerBusts(_) => Scope::DealerHand,
            NaturalWin(_) | NaturalTie | WinsBy(..) | Dragon7 | Panda8 | BankerWinsSix(_) => {
                Scope::Coup
            }
            PlayerPair | BankerPair | EitherPair | PerfectPairBac | TwoPerfectPairs => {
                Scope::FirstFour
            }
            _ => Scope::ThreeCards,
        }
    }

    /// Whether the event holds on a blackjack deal.
    #[inline]
    pub fn holds_bj(self, d: &BjDeal) -> bool {
        use Event::*;
        let [a, b] = d.two;
        let c = d.up;
        let (ra, rb, rc) = (rank(a), rank(b), rank(c));
        let same_suit2 = a % 4 == b % 4;
        let suited3 = same_suit2 && b % 4 == c % 4;
        match self {
            PerfectPair => a == b,
            ColouredPair => ra == rb && a != b && red(a) == red(b),
            MixedPair => ra == rb && red(a) != red(b),
            Pair => ra == rb,
            RoyalMatch => same_suit2 && ra.min(rb) == 11 && ra.max(rb) == 12,
            Suited => same_suit2,
            QueenHeartsPairDealerBj => a == QH && b == QH && d.dealer_bj,
            QueenHeartsPair => a == QH && b == QH,
            Matched20 => a == b && total(&[a, b]) == 20,
            Suited20 => same_suit2 && total(&[a, b]) == 20,
            Twenty => total(&[a, b]) == 20,
            SuitedTrips => a == b && b == c,
            StraightFlush => suited3 && straight(ra, rb, rc),
            ThreeOfAKind => ra == rb && rb == rc,
            Straight => straight(ra, rb, rc),
            Flush => suited3,
            Suited777 => suited3 && ra == 6 && rb == 6 && rc == 6,
            Suited678 => suited3 && six_seven_eight(ra, rb, rc),
            Sevens => ra == 6 && rb == 6 && rc == 6,
            SixSevenEight => six_seven_eight(ra, rb, rc),
            ThreeCard(t) => total(&[a, b, c]) == t,
            ThreeCardSuited(t) => suited3 && total(&[a, b, c]) == t,
            DealerBusts(0) => d.dealer_bust,
            DealerBusts(8) => d.dealer_bust && d.dealer_cards >= 8,
            DealerBusts(n) => d.dealer_bust && d.dealer_cards == n,
            _ => false,
        }
    }

    /// Whether the event holds on a baccarat coup.
    #[inline]
    pub fn holds_bac(self, d: &BacDeal) -> bool {
        use Event::*;
        let (p, b) = (d.player, d.banker);
        let natural = d.natural();
        match self {
            NaturalWin(Side::Player) => natural && d.player_two >= 8 && p > b,
            NaturalWin(Side::Banker) => natural && d.banker_two >= 8 && b > p,
            NaturalTie => natural && p == b,
            WinsBy(Side::Player, m) => !natural && p > b && p - b == m,
            WinsBy(Side::Banker, m) => !natural && b > p && b - p == m,
            Dragon7 => b > p && b == 7 && d.banker_cards == 3,
            Panda8 => p > b && p == 8 && d.player_cards == 3,
            BankerWinsSix(n) => b > p && b == 6 && d.banker_cards == n,
            PlayerPair => d.player_pair,
            BankerPair => d.banker_pair,
            EitherPair => d.player_pair || d.banker_pair,
            PerfectPairBac => d.player_perfect || d.banker_perfect,
            TwoPerfectPairs => d.player_perfect && d.banker_perfect,
            _ => false,
        }
    }
}

/// The queen of hearts.
const QH: CardId = 11 * 4 + 2;

/// Blackjack total of cards (an ace counts 11 when that does not pass 21).
fn total(cards: &[CardId]) -> u8 {
    let mut t = 0;
    let mut ace = false;
    for &c in cards {
        let r = rank(c);
        t += crate::cards::value(r);
        ace |= r == 0;
    }
    if ace && t + 10 <= 21 {
        t + 10
    } else {
        t
    }
}

/// Three ranks in sequence (ace low or high: A-2-3 and Q-K-A, not K-A-2).
fn straight(a: u8, b: u8, c: u8) -> bool {
    let mut r = [a, b, c];
    r.sort_unstable();
    (r[1] == r[0] + 1 && r[2] == r[1] + 1) || r == [0, 11, 12]
}

fn six_seven_eight(a: u8, b: u8, c: u8) -> bool {
    let mut r = [a, b, c];
    r.sort_unstable();
    r == [5, 6, 7]
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let name = self.name();
        // The two `perfect-pair`s are told apart by the game's prefix.
        if *self == Event::PerfectPairBac {
            return s.serialize_str("baccarat:perfect-pair");
        }
        s.serialize_str(&name)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Event, D::Error> {
        let name = String::deserialize(d)?;
        if name == "baccarat:perfect-pair" {
            return Ok(Event::PerfectPairBac);
        }
        Event::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown side-bet event '{name}'")))
    }
}
