//! `advise blackjack`: every legal action for a hand against an up card, with its expected
//! value from the shoe as it stands (the full shoe less the cards shown and removed),
//! composition dependent, the best marked and the chart's action beside it.
//!
//! Values are per initial bet in the world the player decides in: after the dealer's peek in a
//! hole-card game (no dealer blackjack), before it under no hole card (a dealer blackjack still
//! possible, settled by the rules' ruling). Two-card hands get stand, hit, double, split and
//! surrender as the rules allow; hands of three or more cards stand or hit. Play after the
//! first decision is composition-dependent optimal (splits: post-split play as before the
//! split, the exact analysis' convention).

use serde::Serialize;

use super::exact::{full_shoe, DealerTable, Optimal, PostSplit, Up, NV};
use super::rules::Rules;
use super::strategy::{Action, Situation, Strategy};

/// A hand, an up card and the cards known to be out.
pub struct AdviseRequest<'a> {
    pub rules: &'a Rules,
    /// Card values (1 = ace, 10 = ten-valued).
    pub hand: Vec<u8>,
    pub up: u8,
    pub removed: Vec<u8>,
}

/// Why there is no advice.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AdviseError {
    #[error("card '{0}': expected A, 2-9, T, J, Q or K (or 10)")]
    Card(String),
    #[error("--hand needs at least two cards (e.g. --hand T,6)")]
    Short,
    #[error("--hand {0} is {1}: a hand over 21 has nothing to decide")]
    Bust(String, u32),
    #[error("the cards given hold {used} {card}s but a shoe of {} has only {have}: check --hand, --up and --removed", crate::report::plural(*.decks as u64, "deck"))]
    NotInShoe {
        card: char,
        used: u32,
        have: u32,
        decks: u32,
    },
    #[error("more than {0} cards given; the exact analysis tracks at most that many of one value out of the shoe")]
    TooMany(u32),
    #[error("the shoe has {left} cards left, too few to value every action: {needs} (the most cards the hand and the dealer can draw, smallest first); a round the shoe may not finish cannot be valued exactly (the table would reshuffle the discards mid-round): check --removed and --decks")]
    ShortShoe {
        left: u32,
        /// Each action that may need more cards than are left, with that number.
        needs: String,
    },
}

/// One action and its value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviseOption {
    pub action: &'static str,
    /// EV per initial bet.
    pub ev: f64,
    /// EV − the best action's EV (0 for the best).
    pub vs_best: f64,
}

/// The advice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviseModel {
    pub hand: String,
    pub total: u8,
    pub soft: bool,
    pub up: char,
    /// Cards left in the shoe by value (ace first), the decision's shoe.
    pub shoe: [u32; NV],
    /// Best first. Empty for a blackjack (nothing to decide).
    pub options: Vec<AdviseOption>,
    pub best: Option<&'static str>,
    /// What `chart` (the basic chart for the rules, unless told otherwise) does here.
    pub chart_action: Option<&'static str>,
    pub note: String,
}

fn name(a: Action) -> &'static str {
    match a {
        Action::Stand => "stand",
        Action::Hit => "hit",
        Action::Double => "double",
        Action::Split => "split",
        Action::Surrender => "surrender",
    }
}

/// A card value from its name.
pub fn parse_card(s: &str) -> Result<u8, AdviseError> {
    match s.trim().to_ascii_uppercase().as_str() {
        "A" | "1" | "11" => Ok(1),
        "T" | "10" | "J" | "Q" | "K" => Ok(10),
        d if d.len() == 1 && ("2"..="9").contains(&d) => Ok(d.parse().unwrap_or(0)),
        other => Err(AdviseError::Card(other.into())),
    }
}

/// A list of cards, comma separated.
pub fn parse_cards(s: &str) -> Result<Vec<u8>, AdviseError> {
    s.split(',')
        .filter(|c| !c.trim().is_empty())
        .map(parse_card)
        .collect()
}

/// What the advice's hand is: its cards as text, its hard total, whether it holds an ace,
/// whether it is soft, its total, and whether it is a natural.
struct HandFacts {
    text: String,
    hard: u32,
    ace: bool,
    soft: bool,
    total: u32,
    natural: bool,
}

/// The facts of `req`'s hand; an error where it is short or bust.
fn hand_facts(req: &AdviseRequest) -> Result<HandFacts, AdviseError> {
    if req.hand.len() < 2 {
        return Err(AdviseError::Short);
    }
    let hand_text: Vec<String> = req
        .hand
        .iter()
        .map(|&v| crate::cards::value_char(v).to_string())
        .collect();
    let text = hand_text.join(",");
    let hard: u32 = req.hand.iter().map(|&v| v as u32).sum();
    let ace = req.hand.contains(&1);
    let soft = ace && hard <= 11;
    let total = if soft { hard + 10 } else { hard };
    if hard > 21 {
        return Err(AdviseError::Bust(text, hard));
    }
    Ok(HandFacts {
        text,
        hard,
        ace,
        soft,
        total,
        natural: req.hand.len() == 2 && hard == 11 && ace,
    })
}

/// The shoes of an advice, by value (ace first).
struct Shoes {
    /// What `Up` starts from: the shoe holding the hand and the up card, less the removed.
    start: [u32; NV],
    /// What the decision is made from: `start` less the hand and the up card.
    left: [u32; NV],
    /// The hand's cards.
    hand: [u8; NV],
}

/// The shoes of `req`; an error where the cards are more than the shoe holds.
fn advice_shoes(req: &AdviseRequest, natural: bool) -> Result<Shoes, AdviseError> {
    let rules = req.rules;
    let idx = |v: u8| (v - 1) as usize;
    let full = full_shoe(rules.decks);
    let mut used = [0u32; NV];
    for &v in req.hand.iter().chain([&req.up]).chain(&req.removed) {
        used[idx(v)] += 1;
    }
    for v in 0..NV {
        if used[v] > full[v] {
            return Err(AdviseError::NotInShoe {
                card: crate::cards::value_char(v as u8 + 1),
                used: used[v],
                have: full[v],
                decks: rules.decks,
            });
        }
    }
    let mut hand_count = [0u8; NV];
    for &v in &req.hand {
        hand_count[idx(v)] += 1;
    }
    if hand_count.iter().any(|&k| k > 20) {
        return Err(AdviseError::TooMany(20));
    }
    let mut start = full;
    for &v in &req.removed {
        start[idx(v)] -= 1;
    }
    let mut shoe = start;
    for &v in req.hand.iter().chain([&req.up]) {
        shoe[idx(v)] -= 1;
    }
    if !natural {
        check_cards_left(rules, &req.hand, req.up, &shoe)?;
    }
    Ok(Shoes {
        start,
        left: shoe,
        hand: hand_count,
    })
}

/// The situation the chart is asked about, and every legal action's raw value (none for a
/// natural; stand and hit after more than two cards).
fn options_of(
    a: &mut Up<Optimal>,
    req: &AdviseRequest,
    h: &HandFacts,
    removed: [u8; NV],
) -> (Situation, Vec<(Action, f64)>) {
    let idx = |v: u8| (v - 1) as usize;
    if h.natural {
        return (
            Situation {
                total: 21,
                soft: true,
                cards: 2,
                pair: None,
                up: req.up,
                can_double: false,
                can_surrender: false,
                split: false,
            },
            Vec::new(),
        );
    }
    if req.hand.len() == 2 {
        let (c1, c2) = (idx(req.hand[0]), idx(req.hand[1]));
        return a.initial_options(c1.min(c2), c1.max(c2));
    }
    let mut r = removed;
    let (st, hi) = a.stand_hit(&mut r, h.hard, h.ace, req.hand.len() as u8);
    let s = Situation {
        total: h.total as u8,
        soft: h.soft,
        cards: req.hand.len() as u8,
        pair: None,
        up: req.up,
        can_double: false,
        can_surrender: false,
        split: false,
    };
    let mut o = vec![(Action::Stand, st)];
    if h.total < 21 {
        o.push((Action::Hit, hi));
    }
    (s, o)
}

/// Advise on `req`, with `chart` for the chart's action.
pub fn advise<S: Strategy>(req: &AdviseRequest, chart: &S) -> Result<AdviseModel, AdviseError> {
    let rules = req.rules;
    let h = hand_facts(req)?;
    let Shoes {
        start,
        left: shoe,
        hand: removed,
    } = advice_shoes(req, h.natural)?;
    let up = (req.up - 1) as usize;
    let table = DealerTable::of(rules);
    let mut a = Up::with_shoe(rules, &Optimal, table, up, PostSplit::CdzMinus, start);
    // In a hole-card game the player decides after the peek; without one, before it.
    let world = |a: &Up<Optimal>, v: f64| if rules.peek { v } else { a.raw(&removed, v) };
    let (sit, raw) = options_of(&mut a, req, &h, removed);
    let mut options: Vec<(Action, f64)> = raw.iter().map(|&(x, v)| (x, world(&a, v))).collect();
    options.sort_by(|x, y| y.1.total_cmp(&x.1));
    let best = options.first().map(|o| o.1).unwrap_or(0.0);
    let chart_action = (!h.natural).then(|| name(chart.act(&sit)));
    Ok(AdviseModel {
        hand: h.text,
        total: h.total as u8,
        soft: h.soft,
        up: crate::cards::value_char(req.up),
        shoe,
        best: options.first().map(|o| name(o.0)),
        options: options
            .iter()
            .map(|&(x, v)| AdviseOption {
                action: name(x),
                ev: v,
                vs_best: v - best,
            })
            .collect(),
        chart_action,
        note: if h.natural {
            "a blackjack: nothing to decide (it is paid unless the dealer also has one)".into()
        } else if rules.peek {
            "values after the dealer's peek (no dealer blackjack)".into()
        } else {
            "values before the dealer's hole card (no hole card: a dealer blackjack is still possible)".into()
        },
    })
}

/// The most cards of `pool` (by value, ace first) whose values add up to `budget` at most:
/// the smallest first.
pub(super) fn most_cards(pool: &[u32; NV], budget: i64) -> u32 {
    let (mut left, mut n) = (budget, 0u32);
    for (v, &have) in pool.iter().enumerate() {
        let value = v as i64 + 1;
        let take = (left.max(0) / value).min(have as i64);
        n += take as u32;
        left -= take * value;
        if take < have as i64 {
            break;
        }
    }
    n
}

/// Refuse a shoe that may run out before the round ends under one of the actions evaluated:
/// the exact analysis gives such paths no value at all, so an action's EV would be wrong
/// (T,T v T with 2 cards left said "split +1.0 best"). The whole request is refused rather
/// than that action left out: the advice ranks the actions, and a ranking without one of them
/// may name as best an action that is not; a real table reshuffles the discards when the shoe
/// runs out, which no analysis of this shoe can value. `shoe` holds the cards left (the hand,
/// the up card and the removed cards out).
///
/// An action's need is an upper bound of the cards any path of its evaluation draws: every
/// card but the last of a hand that hits keeps its hard total at 20 or less and every card
/// but the last of the dealer's at 16 or less, so those cards, together, add up to at most
/// the sum of the two budgets, and no more of them fit than the smallest cards of the shoe
/// do (`most_cards`); each hand and the dealer then take one last card. A split's evaluation
/// also takes out the pair cards of the resplit hands it values (E. Farmer's algorithm) and
/// counts the other hands' second cards.
fn check_cards_left(
    rules: &Rules,
    hand: &[u8],
    up: u8,
    shoe: &[u32; NV],
) -> Result<(), AdviseError> {
    let left: u32 = shoe.iter().sum();
    let dealer = 16 - up as i64;
    let hard: i64 = hand.iter().map(|&v| v as i64).sum();
    let mut needs: Vec<(&str, u32)> = vec![("stand", most_cards(shoe, dealer) + 1)];
    let soft = hand.contains(&1) && hard <= 11;
    if hard + if soft { 10 } else { 0 } < 21 {
        needs.push(("hit", most_cards(shoe, 20 - hard + dealer) + 2));
    }
    if hand.len() == 2 {
        if rules.double_allowed(hard as u8, soft) {
            needs.push(("double", most_cards(shoe, dealer) + 2));
        }
        let c = hand[0];
        if hand[0] == hand[1] && rules.max_hands >= 2 {
            let cap = if c == 1 && !rules.resplit_aces {
                2
            } else {
                rules.max_hands.clamp(2, 4) as u32
            };
            let pv = c as usize - 1;
            let pairs = (2 * (cap - 2)).min(shoe[pv]);
            let mut rest = *shoe;
            rest[pv] -= pairs;
            let locked = c == 1 && !rules.hit_split_aces;
            let budget = if locked { 0 } else { 20 - c as i64 } + dealer;
            needs.push(("split", pairs + (cap - 2) + most_cards(&rest, budget) + 2));
        }
    }
    let short: Vec<String> = needs
        .iter()
        .filter(|n| n.1 > left)
        .map(|(a, n)| format!("{a} may need up to {n}"))
        .collect();
    if short.is_empty() {
        return Ok(());
    }
    Err(AdviseError::ShortShoe {
        left,
        needs: short.join(", "),
    })
}

/// The advice as a report.
pub fn render(m: &AdviseModel, rules: &Rules, chart_name: &str) -> crate::report::Report {
    use crate::report::{Cell, Report, Section};
    let mut r = Report {
        title: "rtplab blackjack advice".into(),
        ..Default::default()
    };
    r.meta.push(("rules".into(), rules.off_the_top()));
    r.meta.push((
        "hand".into(),
        format!(
            "{} ({} {}) against {}",
            m.hand,
            if m.soft { "soft" } else { "hard" },
            m.total,
            m.up
        ),
    ));
    let left: Vec<String> = (0..NV)
        .map(|v| format!("{}:{}", crate::cards::value_char(v as u8 + 1), m.shoe[v]))
        .collect();
    r.meta.push(("shoe left".into(), left.join(" ")));
    r.meta.push((
        "chart".into(),
        format!("{chart_name}: {}", m.chart_action.unwrap_or("-")),
    ));
    let mut s = Section::new(
        "Each action's EV per initial bet (composition dependent)",
        &["action", "EV", "against the best", ""],
    );
    for o in &m.options {
        let mut mark = Vec::new();
        if Some(o.action) == m.best {
            mark.push("best");
        }
        if Some(o.action) == m.chart_action {
            mark.push("chart");
        }
        s.row([
            Cell::from(o.action),
            Cell::num(format!("{:+.3}%", 100.0 * o.ev), o.ev, "fraction"),
            Cell::num(format!("{:+.3}%", 100.0 * o.vs_best), o.vs_best, "fraction"),
            Cell::from(mark.join(", ")),
        ]);
    }
    r.sections.push(s);
    r.notes.push(format!(
        "{}; play after the first decision is composition-dependent optimal.",
        m.note
    ));
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::resolve::seed_chart;

    fn req(rules: &Rules, hand: &str, up: &str, removed: &str) -> AdviseRequest<'static> {
        AdviseRequest {
            rules: Box::leak(Box::new(rules.clone())),
            hand: parse_cards(hand).unwrap(),
            up: parse_card(up).unwrap(),
            removed: parse_cards(removed).unwrap(),
        }
    }

    #[test]
    fn standing_is_the_dealer_arithmetic_for_that_shoe() {
        // Hard 16 (T,6) v 6 at the seed table: standing wins exactly when the dealer busts;
        // the dealer has no blackjack with a 6 up.
        let rules = Rules::seed();
        let m = advise(&req(&rules, "T,6", "6", "5,5,T"), &seed_chart()).unwrap();
        let mut shoe = full_shoe(8);
        for v in [10usize, 6, 6, 5, 5, 10] {
            shoe[v - 1] -= 1;
        }
        assert_eq!(m.shoe, shoe);
        let d = DealerTable::new(false).dist(5, &shoe);
        let stand = m.options.iter().find(|o| o.action == "stand").unwrap().ev;
        let want = d[5] - (1.0 - d[5]);
        assert!((stand - want).abs() < 1e-12, "{stand} vs {want}");
        assert_eq!(m.best, Some("stand"));
        assert_eq!(m.chart_action, Some("stand"));
        // The options are every one the rules allow, best first, each against the best.
        let names: Vec<_> = m.options.iter().map(|o| o.action).collect();
        assert!(names.contains(&"surrender") && names.contains(&"double"));
        assert!(m.options.windows(2).all(|w| w[0].ev >= w[1].ev));
        assert_eq!(m.options[0].vs_best, 0.0);
    }

    #[test]
    fn a_three_card_hand_and_a_blackjack() {
        let rules = Rules::seed();
        // 12 of three cards v T: stand or hit only.
        let m = advise(&req(&rules, "4,5,3", "T", ""), &seed_chart()).unwrap();
        let names: Vec<_> = m.options.iter().map(|o| o.action).collect();
        assert_eq!(names.len(), 2);
        assert_eq!(m.best, Some("hit"));
        // A blackjack has nothing to decide.
        let m = advise(&req(&rules, "A,T", "9", ""), &seed_chart()).unwrap();
        assert!(m.options.is_empty() && m.best.is_none());
    }

    #[test]
    fn a_ten_up_counts_the_dealer_blackjack_as_the_rules_settle_it() {
        // T,6 v T. No hole card: standing also loses to a dealer blackjack. Hole card: the
        // player decides after the peek, so the values are given no dealer blackjack.
        let mut shoe = full_shoe(8);
        for v in [10usize, 6, 10] {
            shoe[v - 1] -= 1;
        }
        let d = DealerTable::new(false).dist(9, &shoe);
        let stand = |rules: &Rules| {
            let m = advise(&req(rules, "T,6", "T", ""), &seed_chart()).unwrap();
            m.options.iter().find(|o| o.action == "stand").unwrap().ev
        };
        let enhc = stand(&Rules::seed());
        assert!((enhc - (d[5] - (1.0 - d[5]))).abs() < 1e-12);
        let mut peek = Rules::seed();
        peek.peek = true;
        let want = (d[5] - (1.0 - d[5] - d[6])) / (1.0 - d[6]);
        assert!(
            (stand(&peek) - want).abs() < 1e-12,
            "{} vs {want}",
            stand(&peek)
        );
    }

    #[test]
    fn impossible_hands_are_refused() {
        let mut rules = Rules::seed();
        rules.decks = 1;
        let e = advise(&req(&rules, "5,5", "5", "5,5"), &seed_chart()).unwrap_err();
        assert!(
            e.to_string()
                .contains("5 5s but a shoe of 1 deck has only 4"),
            "{e}"
        );
        assert!(matches!(
            advise(&req(&rules, "T,T,5", "6", ""), &seed_chart()),
            Err(AdviseError::Bust(..))
        ));
        assert!(parse_cards("T,X").is_err());
        assert_eq!(
            advise(&req(&rules, "T", "6", ""), &seed_chart()).unwrap_err(),
            AdviseError::Short
        );
    }

    /// A deck less `keep` and the cards named in `out`, as a --removed list.
    fn all_but(keep: &[u8], out: &[u8]) -> String {
        let mut shoe = full_shoe(1);
        for &v in keep.iter().chain(out) {
            shoe[v as usize - 1] -= 1;
        }
        let mut cards = Vec::new();
        for (v, &n) in shoe.iter().enumerate() {
            for _ in 0..n {
                cards.push(crate::cards::value_char(v as u8 + 1).to_string());
            }
        }
        cards.join(",")
    }

    #[test]
    fn a_shoe_that_cannot_finish_the_round_is_refused() {
        let mut rules = Rules::seed();
        rules.decks = 1;
        // T,T v T with 47 cards removed: 2 left (a 5 and a 6). It said "split +1.0 best".
        // Standing is valued (the dealer's two cards make 21 either way).
        let removed = all_but(&[5, 6], &[10, 10, 10]);
        assert_eq!(removed.split(',').count(), 47);
        let e = advise(&req(&rules, "T,T", "T", &removed), &seed_chart()).unwrap_err();
        assert_eq!(
            e,
            AdviseError::ShortShoe {
                left: 2,
                needs: "hit may need up to 3, double may need up to 3, split may need up to 4"
                    .into()
            }
        );
        assert!(
            e.to_string().starts_with(
                "the shoe has 2 cards left, too few to value every action: hit may need up to 3"
            ),
            "{e}"
        );
        // Enough cards for every path of every action: valued as before.
        let removed = all_but(&[5, 6, 7, 8, 9, 10], &[10, 10, 10]);
        let m = advise(&req(&rules, "T,T", "T", &removed), &seed_chart()).unwrap();
        assert!(
            m.options.iter().all(|o| (-2.0..=2.0).contains(&o.ev)),
            "{m:?}"
        );
        // Counted from the smallest cards: a fresh deck, a pair of 8s at the seed table.
        let shoe = {
            let mut s = full_shoe(1);
            for v in [8usize, 8, 6] {
                s[v - 1] -= 1;
            }
            s
        };
        assert!(check_cards_left(&rules, &[8, 8], 6, &shoe).is_ok());
        assert_eq!(most_cards(&shoe, 10), 7);
        assert_eq!(most_cards(&shoe, -3), 0);
        assert_eq!(most_cards(&[0; NV], 100), 0);
    }
}
