//! The baccarat exact report: outcome probabilities and every bet's RTP and house edge, with
//! the other payouts of each bet beside the chosen ones.
//!
//! The report is a model computed by the enumeration, then rendered: the tables, metadata and
//! notes come from the model only, and the JSON document is the model serialized.

use serde::Serialize;

use super::bet::Spot;
use super::exact::Exact;
use super::report::exact_outcomes;
use super::rules::{pct1, BacRules, BankerPays};
use super::sim::OUTCOMES;
use crate::report::{fixed_cell, pct_cell, Cell, Report, Section};

/// Everything the exact report says: the JSON document of `exact baccarat`.
#[derive(Clone, Debug, Serialize)]
pub struct ExactModel {
    pub game: &'static str,
    pub version: &'static str,
    pub rules: BacRules,
    /// `OUTCOMES` order, then the third-card draws; a map by name in the JSON.
    #[serde(serialize_with = "outcomes_as_map")]
    pub outcomes: Vec<ExactOutcome>,
    pub cards_per_coup: f64,
    pub bets: Vec<ExactBet>,
    pub counts: ExactCounts,
    /// Each side bet's exact event table (`--side`; written only when given).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<crate::sidebet::SideExact>,
}

/// The probability of an outcome of one coup.
#[derive(Clone, Debug, Serialize)]
pub struct ExactOutcome {
    pub name: &'static str,
    pub probability: f64,
}

/// A bet at one payout: the chosen rules' or another rule's.
#[derive(Clone, Debug, Serialize)]
pub struct ExactBet {
    pub bet: &'static str,
    pub pays: String,
    /// The payout of the chosen rules (false: another rule, shown for comparison).
    pub rules_chosen: bool,
    pub rtp: f64,
    pub house_edge: f64,
}

/// The enumeration's counts of ordered six-card deals (decimal strings: they pass 2^64).
#[derive(Clone, Debug, Serialize)]
pub struct ExactCounts {
    pub total: String,
    pub banker: String,
    pub player: String,
    pub tie: String,
    pub banker_six: String,
    pub pair: String,
    pub pair_of: String,
}

fn outcomes_as_map<S: serde::Serializer>(rows: &[ExactOutcome], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(rows.iter().map(|o| (o.name, o.probability)))
}

/// Enumerate the shoe of `rules` and compute the exact report's model.
pub fn exact_model(rules: &BacRules, sides: &[crate::sidebet::SideBet]) -> ExactModel {
    let e = Exact::of(rules.decks);
    let outcomes = OUTCOMES
        .iter()
        .zip(exact_outcomes(&e))
        .map(|(name, p)| (*name, p))
        .chain([
            ("player draws a third card", e.player_draws),
            ("banker draws a third card", e.banker_draws),
        ])
        .map(|(name, probability)| ExactOutcome { name, probability })
        .collect();
    let mut bets = Vec::new();
    let mut bet = |name: &'static str, pays: String, rules: &BacRules, spot: Spot, chosen: bool| {
        let rtp = e.rtp(spot, rules);
        bets.push(ExactBet {
            bet: name,
            pays,
            rules_chosen: chosen,
            rtp,
            house_edge: 1.0 - rtp,
        });
    };
    let commission = |c: u32| BacRules {
        banker_pays: BankerPays::Commission,
        commission: c,
        ..rules.clone()
    };
    let no_commission = BacRules {
        banker_pays: BankerPays::NoCommission,
        ..rules.clone()
    };
    let chosen_nc = rules.banker_pays == BankerPays::NoCommission;
    let c = if chosen_nc { 50 } else { rules.commission };
    bet(
        "banker",
        format!("1:1 less {}% commission", pct1(c)),
        &commission(c),
        Spot::Banker,
        !chosen_nc,
    );
    bet(
        "banker",
        "1:1, a win on 6 pays 1:2 (no commission)".into(),
        &no_commission,
        Spot::Banker,
        chosen_nc,
    );
    bet("player", "1:1".into(), rules, Spot::Player, true);
    for t in [8, 9] {
        let tr = BacRules {
            tie_pays: t,
            ..rules.clone()
        };
        bet("tie", format!("{t}:1"), &tr, Spot::Tie, t == rules.tie_pays);
    }
    if rules.tie_pays != 8 && rules.tie_pays != 9 {
        bet(
            "tie",
            format!("{}:1", rules.tie_pays),
            rules,
            Spot::Tie,
            true,
        );
    }
    let pays = format!("{}:1", rules.pair_pays);
    bet("player pair", pays.clone(), rules, Spot::PlayerPair, true);
    bet("banker pair", pays, rules, Spot::BankerPair, true);
    let k = &e.counts;
    ExactModel {
        game: "baccarat",
        version: crate::VERSION,
        rules: rules.clone(),
        outcomes,
        cards_per_coup: e.cards_per_coup,
        bets,
        counts: ExactCounts {
            total: k.total.to_string(),
            banker: k.banker.to_string(),
            player: k.player.to_string(),
            tie: k.tie.to_string(),
            banker_six: k.banker_six.to_string(),
            pair: k.pair.to_string(),
            pair_of: k.pair_of.to_string(),
        },
        side_bets: sides
            .iter()
            .map(|b| {
                crate::sidebet::SideExact::of(b, super::sidebets::exact(&b.table, rules.decks))
            })
            .collect(),
    }
}

/// Render the exact report from its model.
pub fn render(m: &ExactModel) -> Report {
    let mut r = Report {
        title: "rtplab baccarat exact analysis".into(),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", m.version)));
    r.meta.push(("rules".into(), m.rules.describe()));
    r.meta.push((
        "method".into(),
        format!(
            "complete enumeration of the coups of a full {}-deck shoe: {} ordered six-card deals",
            m.rules.decks,
            crate::report::group_digits(&m.counts.total)
        ),
    ));
    let mut sec = Section::new("Outcomes per coup", &["outcome", "probability"]);
    for o in &m.outcomes {
        sec.row([Cell::from(o.name), fixed_cell(o.probability, 6, "fraction")]);
    }
    sec.row([
        "cards per coup".into(),
        fixed_cell(m.cards_per_coup, 4, "cards"),
    ]);
    r.sections.push(sec);

    let mut sec = Section::new(
        "Bets: RTP and house edge per unit staked",
        &["bet", "pays", "RTP", "house edge"],
    );
    for b in &m.bets {
        sec.row([
            Cell::from(format!(
                "{}{}",
                b.bet,
                if b.rules_chosen { "" } else { " (other rule)" }
            )),
            Cell::from(b.pays.clone()),
            pct_cell(b.rtp, 4),
            pct_cell(b.house_edge, 4),
        ]);
    }
    r.sections.push(sec);
    r.notes.push(
        "Banker and player bets push on a tie. The figures are for the first coup of a full shoe, which is also the average over every coup of a shoe shuffled every coup.".into(),
    );
    r.sections
        .extend(crate::sidebet::exact_sections(&m.side_bets));
    r.notes.extend(crate::sidebet::exact_notes(&m.side_bets));
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON document is the model serialized, and the tables show the model's rows.
    #[test]
    fn json_is_the_serialized_model() {
        let rules = BacRules {
            decks: 1,
            tie_pays: 9,
            ..BacRules::default()
        };
        let m = exact_model(&rules, &[]);
        let r = render(&m);
        assert_eq!(r.json, serde_json::to_value(&m).unwrap());
        let outcomes = r.json["outcomes"].as_object().unwrap();
        assert_eq!(outcomes.len(), m.outcomes.len());
        for o in &m.outcomes {
            assert_eq!(outcomes[o.name], o.probability, "{}", o.name);
        }
        assert_eq!(r.sections[0].rows.len(), m.outcomes.len() + 1);
        assert_eq!(r.sections[1].rows.len(), m.bets.len());
        assert_eq!(r.json["counts"]["total"], m.counts.total.as_str());
    }
}
