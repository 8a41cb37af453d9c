//! A round as the rules deal, play and pay it, from its cards in dealing order and each
//! seat's decisions: the reference the simulator's logs are written with and every log is
//! verified against.
//!
//! Dealing order: a first card to each seat in turn, the dealer's up card, a second card to
//! each seat; in a hole-card (peek) game the dealer's second card now, otherwise (ENHC) after
//! every seat has played. Each seat then plays its hands in order (a split hand after the
//! hand it came from, each taking its second card when its turn comes); the dealer draws to 17
//! (and on soft 17 when the rules say so) and always completes the hand.

use super::{Behind, Rounding, Wagers};
use crate::cards::{value, Rank};
use crate::games::blackjack::rules::{DealerBjTakes, Rules, SplitBy, Surrender};
use crate::games::blackjack::strategy::{Action, Situation};

/// Where a round's decisions come from.
pub trait Decide {
    /// The action of `seat`'s hand `hand` in `sit`; `None` when there is none to give (a log
    /// whose hand ends too soon).
    fn decide(&mut self, seat: usize, hand: usize, sit: &Situation) -> Option<Action>;
    /// Whether `seat` surrenders early (before the peek, where the rules offer it so); by
    /// default its answer to `sit` is a surrender.
    fn surrender_early(&mut self, seat: usize, sit: &Situation) -> Option<bool> {
        self.decide(seat, 0, sit).map(|a| a == Action::Surrender)
    }
}

/// A hand as dealt and played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HandPlay {
    pub cards: Vec<Rank>,
    /// The actions taken, as the log writes them.
    pub actions: String,
    pub doubled: bool,
    pub split: bool,
    pub split_aces: bool,
}

impl HandPlay {
    pub fn hard(&self) -> u8 {
        self.cards.iter().map(|&c| value(c)).sum()
    }
    pub fn soft(&self) -> bool {
        self.cards.contains(&0) && self.hard() <= 11
    }
    pub fn total(&self) -> u8 {
        self.hard() + if self.soft() { 10 } else { 0 }
    }
    pub fn busted(&self) -> bool {
        self.hard() > 21
    }
}

/// A seat as dealt and played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatPlay {
    pub hands: Vec<HandPlay>,
    pub natural: bool,
    pub surrendered: bool,
    /// The first two cards are the same rank (the pairs bet).
    pub pair: bool,
}

/// One decision taken: whose, where, what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub seat: usize,
    pub hand: usize,
    pub sit: Situation,
    pub action: Action,
}

/// What in a round departs from the rules' dealing and play.
#[derive(Clone, Debug, PartialEq)]
pub enum Issue {
    /// An action the rules do not allow there (it is played as the table would: a hit, or a
    /// stand on split aces).
    Illegal {
        seat: usize,
        hand: usize,
        action: Action,
        why: &'static str,
    },
    /// The log gives no action where the rules ask for one.
    NoDecision { seat: usize, hand: usize },
    /// The round's cards ran out before the rules' dealing was done.
    TooFewCards { needed_for: String },
    /// The dealer stood below what the rules draw to.
    DealerStood { total: u8, soft: bool },
    /// Cards left after the dealer stood: the dealer drew on a total the rules stand on.
    DealerDrew { total: u8, soft: bool, extra: usize },
}

impl std::fmt::Display for Issue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = |soft: bool| if soft { "soft" } else { "hard" };
        match self {
            Issue::Illegal {
                seat,
                hand,
                action,
                why,
            } => write!(
                f,
                "seat {} hand {}: {} is not allowed ({why})",
                seat + 1,
                hand + 1,
                action_name(*action)
            ),
            Issue::NoDecision { seat, hand } => write!(
                f,
                "seat {} hand {}: the play ends where the rules ask for a decision",
                seat + 1,
                hand + 1
            ),
            Issue::TooFewCards { needed_for } => {
                write!(f, "the round's cards end before {needed_for}")
            }
            Issue::DealerStood { total, soft } => write!(
                f,
                "the dealer stood on {} {total} (the rules draw to 17)",
                kind(*soft)
            ),
            Issue::DealerDrew { total, soft, extra } => write!(
                f,
                "the dealer drew {extra} card(s) on {} {total}, which the rules stand on",
                kind(*soft)
            ),
        }
    }
}

/// The letter of an action in a log.
pub fn action_char(a: Action) -> char {
    match a {
        Action::Hit => 'H',
        Action::Stand => 'S',
        Action::Double => 'D',
        Action::Split => 'P',
        Action::Surrender => 'R',
    }
}

/// The action of a letter in a log.
pub fn action_of(c: char) -> Option<Action> {
    Some(match c {
        'H' => Action::Hit,
        'S' => Action::Stand,
        'D' => Action::Double,
        'P' => Action::Split,
        'R' => Action::Surrender,
        _ => return None,
    })
}

fn action_name(a: Action) -> &'static str {
    match a {
        Action::Hit => "hit",
        Action::Stand => "stand",
        Action::Double => "double",
        Action::Split => "split",
        Action::Surrender => "surrender",
    }
}

/// A round as the rules make it of its cards and decisions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replayed {
    pub seats: Vec<SeatPlay>,
    pub up: Rank,
    pub dealer: Vec<Rank>,
    pub dealer_bj: bool,
    pub decisions: Vec<Decision>,
    /// The first departure from the rules' dealing and play (the rest of the round follows
    /// from it and is not listed).
    pub issues: Vec<Issue>,
    /// Cards of the dealer's hand when it stood (for the outcome tables); the dealer's final
    /// total is `dealer_total`.
    pub dealer_total: u8,
}

impl Replayed {
    /// Dealer outcome index as the simulator counts it: 0..=4 totals 17..=21, 5 bust, 6 blackjack
    /// (a dealer who stood short, in a faulty log, counts by the total it stood on, 17 at least).
    pub fn dealer_outcome(&self) -> usize {
        if self.dealer_bj {
            6
        } else if self.dealer_total > 21 {
            5
        } else {
            self.dealer_total.clamp(17, 21) as usize - 17
        }
    }
}

struct Deck<'a> {
    cards: &'a [Rank],
    next: usize,
}

impl Deck<'_> {
    fn deal(&mut self, what: impl FnOnce() -> String, issues: &mut Vec<Issue>) -> Option<Rank> {
        let c = self.cards.get(self.next).copied();
        match c {
            Some(_) => self.next += 1,
            None => {
                if issues.is_empty() {
                    issues.push(Issue::TooFewCards { needed_for: what() });
                }
            }
        }
        c
    }
}

fn total_of(cards: &[Rank]) -> (u8, bool) {
    let hard: u8 = cards.iter().map(|&c| value(c)).sum();
    let soft = cards.contains(&0) && hard <= 11;
    (hard + if soft { 10 } else { 0 }, soft)
}

/// Whether the dealer draws on `cards` under `rules`.
pub fn dealer_draws(rules: &Rules, cards: &[Rank]) -> bool {
    let (t, soft) = total_of(cards);
    t < 17 || (rules.h17 && soft && t == 17)
}

fn is_pair(rules: &Rules, a: Rank, b: Rank) -> bool {
    match rules.split_by {
        SplitBy::Value => value(a) == value(b),
        SplitBy::Rank => a == b,
    }
}

/// Deal and play a round of `seats` seats from `cards` with the decisions of `decide`.
pub fn replay(rules: &Rules, seats: usize, cards: &[Rank], decide: &mut impl Decide) -> Replayed {
    let mut r = Replayed::default();
    let mut deck = Deck { cards, next: 0 };
    let mut issues = Vec::new();
    let mut first = vec![0; seats];
    let mut second = vec![0; seats];
    for (s, c) in first.iter_mut().enumerate() {
        *c = deck
            .deal(|| format!("seat {}'s first card", s + 1), &mut issues)
            .unwrap_or(0);
    }
    let up = deck
        .deal(|| "the dealer's up card".into(), &mut issues)
        .unwrap_or(0);
    for (s, c) in second.iter_mut().enumerate() {
        *c = deck
            .deal(|| format!("seat {}'s second card", s + 1), &mut issues)
            .unwrap_or(0);
    }
    r.up = up;
    let upv = value(up);
    let mut dealer = vec![up];
    if rules.peek {
        if let Some(c) = deck.deal(|| "the dealer's hole card".into(), &mut issues) {
            dealer.push(c);
        }
    }
    let peeked_bj = rules.peek && dealer.len() == 2 && total_of(&dealer).0 == 21;
    let early_before_peek = rules.peek && rules.surrender == Surrender::Early;
    r.seats = (0..seats)
        .map(|s| {
            let h = HandPlay {
                cards: vec![first[s], second[s]],
                ..HandPlay::default()
            };
            SeatPlay {
                natural: h.total() == 21,
                pair: first[s] == second[s],
                hands: vec![h],
                surrendered: false,
            }
        })
        .collect();
    // Early surrender before the peek.
    if early_before_peek {
        for s in 0..seats {
            let seat = &mut r.seats[s];
            if seat.natural {
                continue;
            }
            let h = &seat.hands[0];
            let sit = Situation {
                total: h.total(),
                soft: h.soft(),
                cards: 2,
                pair: None,
                up: upv,
                can_double: false,
                can_surrender: true,
                split: false,
            };
            match decide.surrender_early(s, &sit) {
                Some(true) => {
                    seat.surrendered = true;
                    seat.hands[0].actions.push('R');
                    r.decisions.push(Decision {
                        seat: s,
                        hand: 0,
                        sit,
                        action: Action::Surrender,
                    });
                }
                Some(false) => {}
                None => issues.push(Issue::NoDecision { seat: s, hand: 0 }),
            }
        }
    }
    for s in 0..seats {
        if peeked_bj || r.seats[s].natural || r.seats[s].surrendered {
            continue;
        }
        play_seat(
            rules,
            s,
            upv,
            !early_before_peek,
            &mut r,
            &mut deck,
            decide,
            &mut issues,
        );
    }
    if !rules.peek {
        if let Some(c) = deck.deal(|| "the dealer's second card".into(), &mut issues) {
            dealer.push(c);
        }
    }
    r.dealer_bj = dealer.len() == 2 && total_of(&dealer).0 == 21;
    while dealer_draws(rules, &dealer) {
        if deck.next >= cards.len() {
            if issues.is_empty() && dealer.len() >= 2 {
                let (total, soft) = total_of(&dealer);
                issues.push(Issue::DealerStood { total, soft });
            }
            break;
        }
        dealer.push(cards[deck.next]);
        deck.next += 1;
    }
    r.dealer_total = total_of(&dealer).0;
    if deck.next < cards.len() && issues.is_empty() {
        let (total, soft) = total_of(&dealer);
        issues.push(Issue::DealerDrew {
            total,
            soft,
            extra: cards.len() - deck.next,
        });
    }
    r.dealer = dealer;
    issues.truncate(1);
    r.issues = issues;
    r
}

/// Play seat `s`'s hands.
#[allow(clippy::too_many_arguments)]
fn play_seat(
    rules: &Rules,
    s: usize,
    upv: u8,
    surrender_now: bool,
    r: &mut Replayed,
    deck: &mut Deck,
    decide: &mut impl Decide,
    issues: &mut Vec<Issue>,
) {
    let max = rules.max_hands as usize;
    let mut i = 0;
    while i < r.seats[s].hands.len() {
        let n = r.seats[s].hands.len();
        let mut h = std::mem::take(&mut r.seats[s].hands[i]);
        if h.cards.len() == 1 {
            match deck.deal(
                || format!("seat {} hand {}'s second card", s + 1, i + 1),
                issues,
            ) {
                Some(c) => h.cards.push(c),
                None => {
                    r.seats[s].hands[i] = h;
                    return;
                }
            }
        }
        let mut n_now = n;
        // Two cards: every option the rules allow.
        let hit = loop {
            let pair_ok = n_now < max
                && is_pair(rules, h.cards[0], h.cards[1])
                && (!h.split_aces || rules.resplit_aces);
            let locked = h.split_aces && !rules.hit_split_aces;
            if locked && !pair_ok {
                break false;
            }
            let sit = Situation {
                total: h.total(),
                soft: h.soft(),
                cards: 2,
                pair: pair_ok.then(|| value(h.cards[0])),
                up: upv,
                can_double: !locked
                    && (!h.split || rules.das)
                    && rules.double_allowed(h.hard(), h.soft()),
                can_surrender: surrender_now
                    && n_now == 1
                    && !h.split
                    && rules.surrender_allowed(upv),
                split: h.split,
            };
            let Some(want) = decide.decide(s, i, &sit) else {
                issues.push(Issue::NoDecision { seat: s, hand: i });
                break false;
            };
            let illegal = |why| Issue::Illegal {
                seat: s,
                hand: i,
                action: want,
                why,
            };
            let action = match want {
                Action::Split if pair_ok => Action::Split,
                Action::Split => {
                    issues.push(illegal(if n_now >= max {
                        "no more split hands"
                    } else {
                        "not a pair the rules split"
                    }));
                    fallback(locked)
                }
                Action::Double if sit.can_double => Action::Double,
                Action::Double => {
                    issues.push(illegal(if h.split && !rules.das {
                        "no double after a split"
                    } else {
                        "not a hand the rules double on"
                    }));
                    fallback(locked)
                }
                Action::Surrender if sit.can_surrender => Action::Surrender,
                Action::Surrender => {
                    issues.push(illegal("surrender is not offered here"));
                    fallback(locked)
                }
                Action::Hit if locked => {
                    issues.push(illegal("split aces take one card"));
                    Action::Stand
                }
                a => a,
            };
            r.decisions.push(Decision {
                seat: s,
                hand: i,
                sit,
                action,
            });
            h.actions.push(action_char(action));
            match action {
                Action::Split => {
                    let aces = h.cards[0] == 0;
                    let moved = h.cards.pop().expect("two cards");
                    r.seats[s].hands.push(HandPlay {
                        cards: vec![moved],
                        split: true,
                        split_aces: aces,
                        ..HandPlay::default()
                    });
                    n_now += 1;
                    h.split = true;
                    h.split_aces = aces;
                    match deck.deal(
                        || format!("seat {} hand {}'s card after the split", s + 1, i + 1),
                        issues,
                    ) {
                        Some(c) => h.cards.push(c),
                        None => break false,
                    }
                    continue;
                }
                Action::Stand => break false,
                Action::Surrender => {
                    r.seats[s].surrendered = true;
                    break false;
                }
                Action::Double => {
                    h.doubled = true;
                    if let Some(c) = deck.deal(
                        || format!("seat {} hand {}'s double card", s + 1, i + 1),
                        issues,
                    ) {
                        h.cards.push(c);
                    }
                    break false;
                }
                Action::Hit => {
                    match deck.deal(|| format!("seat {} hand {}'s hit", s + 1, i + 1), issues) {
                        Some(c) => h.cards.push(c),
                        None => break false,
                    }
                    break true;
                }
            }
        };
        if hit {
            // Three cards or more: hit or stand (any other answer is a hit).
            while !h.busted() {
                let sit = Situation {
                    total: h.total(),
                    soft: h.soft(),
                    cards: h.cards.len() as u8,
                    pair: None,
                    up: upv,
                    can_double: false,
                    can_surrender: false,
                    split: h.split,
                };
                let Some(want) = decide.decide(s, i, &sit) else {
                    issues.push(Issue::NoDecision { seat: s, hand: i });
                    break;
                };
                let action = match want {
                    Action::Stand | Action::Hit => want,
                    a => {
                        issues.push(Issue::Illegal {
                            seat: s,
                            hand: i,
                            action: a,
                            why: "only hit or stand after the third card",
                        });
                        Action::Hit
                    }
                };
                r.decisions.push(Decision {
                    seat: s,
                    hand: i,
                    sit,
                    action,
                });
                h.actions.push(action_char(action));
                if action == Action::Stand {
                    break;
                }
                match deck.deal(|| format!("seat {} hand {}'s hit", s + 1, i + 1), issues) {
                    Some(c) => h.cards.push(c),
                    None => break,
                }
            }
        }
        r.seats[s].hands[i] = h;
        i += 1;
    }
}

/// What the table does with an answer it does not allow: a hit, or a stand on split aces.
fn fallback(locked: bool) -> Action {
    if locked {
        Action::Stand
    } else {
        Action::Hit
    }
}

/// What the rules pay a seat (stake included) for its `stake` in a replayed round.
pub fn pay(
    rules: &Rules,
    seat: &SeatPlay,
    r: &Replayed,
    stake: &Wagers,
    behind: Behind,
    rounding: Rounding,
) -> Wagers {
    // Every amount as a fraction of `den`: a stake times a payout in units per initial bet.
    let u = rules.units_per_bet();
    let bj = rules.bj_win_units();
    let (main_units, behind_none) = net_units(rules, seat, r, u, bj);
    let behind_units = match behind {
        Behind::Decline => behind_none,
        Behind::Match => main_units,
    };
    let back = |stake: u64, wagered: u64, net: i64| -> u64 {
        // Every amount wagered back, and the stake times the net per initial bet; never below 0.
        let num = wagered as i128 * u as i128 + stake as i128 * net as i128;
        let v = match rounding {
            Rounding::Down => num.div_euclid(u as i128),
            Rounding::Nearest => (2 * num + u as i128).div_euclid(2 * u as i128),
        };
        v.max(0) as u64
    };
    let insurance = if r.dealer_bj { 3 * stake.insurance } else { 0 };
    Wagers {
        main: back(stake.main, main_wagered(seat, stake.main), main_units),
        pairs: if seat.pair { 12 * stake.pairs } else { 0 },
        insurance,
        behind: match behind {
            Behind::Decline => back(stake.behind, stake.behind, behind_units),
            Behind::Match => back(stake.behind, main_wagered(seat, stake.behind), behind_units),
        },
    }
}

/// The seat's net in units per initial bet: all its hands, and a bet behind that declines
/// doubles and splits.
fn net_units(rules: &Rules, seat: &SeatPlay, r: &Replayed, u: i64, bj: i64) -> (i64, i64) {
    let dealer_bj = r.dealer_bj;
    if seat.natural {
        let v = if dealer_bj { 0 } else { bj };
        return (v, v);
    }
    if seat.surrendered {
        let v = if dealer_bj && rules.surrender == Surrender::Late && !rules.peek {
            -u
        } else {
            -u / 2
        };
        return (v, v);
    }
    if dealer_bj {
        let wagered: i64 = seat
            .hands
            .iter()
            .map(|h| if h.doubled { 2 * u } else { u })
            .sum();
        let takes = if rules.peek {
            DealerBjTakes::Original
        } else {
            rules.dealer_bj_takes
        };
        let net = match takes {
            DealerBjTakes::All => -wagered,
            DealerBjTakes::Original => -u,
            DealerBjTakes::Splits => -u * seat.hands.len() as i64,
        };
        return (net, -u);
    }
    let dealer = if r.dealer_total > 21 {
        0
    } else {
        r.dealer_total as i64
    };
    let outcome = |h: &HandPlay| -> i64 {
        if h.busted() {
            -1
        } else {
            (h.total() as i64 - dealer).signum()
        }
    };
    let main = seat
        .hands
        .iter()
        .map(|h| outcome(h) * if h.doubled { 2 * u } else { u })
        .sum();
    (main, outcome(&seat.hands[0]) * u)
}

/// The main bet's total stake: the initial stake on every hand, twice on a doubled one (a
/// surrender, a natural or a peeked dealer blackjack: the initial stake).
pub fn main_wagered(seat: &SeatPlay, stake: u64) -> u64 {
    seat.hands
        .iter()
        .map(|h| if h.doubled { 2 * stake } else { stake })
        .sum()
}
