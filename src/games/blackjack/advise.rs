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

/// Advise on `req`, with `chart` for the chart's action.
pub fn advise<S: Strategy>(req: &AdviseRequest, chart: &S) -> Result<AdviseModel, AdviseError> {
    let rules = req.rules;
    if req.hand.len() < 2 {
        return Err(AdviseError::Short);
    }
    let idx = |v: u8| (v - 1) as usize;
    let hand_text: Vec<String> = req
        .hand
        .iter()
        .map(|&v| super::shoe::value_char(v).to_string())
        .collect();
    let hand_text = hand_text.join(",");
    let hard: u32 = req.hand.iter().map(|&v| v as u32).sum();
    let ace = req.hand.contains(&1);
    let soft = ace && hard <= 11;
    let total = if soft { hard + 10 } else { hard };
    if hard > 21 {
        return Err(AdviseError::Bust(hand_text, hard));
    }
    // The shoe the decision is made from: full, less the hand, the up card and the removed.
    let full = full_shoe(rules.decks);
    let mut used = [0u32; NV];
    for &v in req.hand.iter().chain([&req.up]).chain(&req.removed) {
        used[idx(v)] += 1;
    }
    for v in 0..NV {
        if used[v] > full[v] {
            return Err(AdviseError::NotInShoe {
                card: super::shoe::value_char(v as u8 + 1),
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
    // What `Up` starts from: the shoe holding the hand and the up card, less the removed.
    let mut start = full;
    for &v in &req.removed {
        start[idx(v)] -= 1;
    }
    let mut shoe = start;
    for &v in req.hand.iter().chain([&req.up]) {
        shoe[idx(v)] -= 1;
    }
    let up = idx(req.up);
    let table = DealerTable::shared(rules.h17);
    let mut a = Up::with_shoe(rules, &Optimal, table, up, PostSplit::CdzMinus, start);
    let natural = req.hand.len() == 2 && hard == 11 && ace;
    let removed = hand_count;
    // In a hole-card game the player decides after the peek; without one, before it.
    let world = |a: &Up<Optimal>, v: f64| if rules.peek { v } else { a.raw(&removed, v) };
    let (sit, raw): (Situation, Vec<(Action, f64)>) = if natural {
        (
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
        )
    } else if req.hand.len() == 2 {
        let (c1, c2) = (idx(req.hand[0]), idx(req.hand[1]));
        a.initial_options(c1.min(c2), c1.max(c2))
    } else {
        let mut r = removed;
        let (st, hi) = a.stand_hit(&mut r, hard, ace, req.hand.len() as u8);
        let s = Situation {
            total: total as u8,
            soft,
            cards: req.hand.len() as u8,
            pair: None,
            up: req.up,
            can_double: false,
            can_surrender: false,
            split: false,
        };
        let mut o = vec![(Action::Stand, st)];
        if total < 21 {
            o.push((Action::Hit, hi));
        }
        (s, o)
    };
    let mut options: Vec<(Action, f64)> = raw.iter().map(|&(x, v)| (x, world(&a, v))).collect();
    options.sort_by(|x, y| y.1.total_cmp(&x.1));
    let best = options.first().map(|o| o.1).unwrap_or(0.0);
    let chart_action = (!natural).then(|| name(chart.act(&sit)));
    Ok(AdviseModel {
        hand: hand_text,
        total: total as u8,
        soft,
        up: super::shoe::value_char(req.up),
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
        note: if natural {
            "a blackjack: nothing to decide (it is paid unless the dealer also has one)".into()
        } else if rules.peek {
            "values after the dealer's peek (no dealer blackjack)".into()
        } else {
            "values before the dealer's hole card (no hole card: a dealer blackjack is still possible)".into()
        },
    })
}

/// The advice as a report.
pub fn render(m: &AdviseModel, rules: &Rules, chart_name: &str) -> crate::report::Report {
    use crate::report::{Cell, Report, Section};
    let mut r = Report {
        title: "rtplab blackjack advice".into(),
        ..Default::default()
    };
    r.meta.push(("rules".into(), rules.to_string()));
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
        .map(|v| format!("{}:{}", super::shoe::value_char(v as u8 + 1), m.shoe[v]))
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
            Cell::num(format!("{:+.5}", o.ev), o.ev, "bets"),
            Cell::num(format!("{:+.5}", o.vs_best), o.vs_best, "bets"),
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
}
