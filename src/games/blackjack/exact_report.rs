//! `rtplab exact blackjack`: exact EV/RTP for a rule set (optimal play and, if given, a fixed
//! strategy), both settlements of the no-hole-card game, the claim check without noise, and
//! the sensitivity of the EV to each single rule change.

use std::collections::BTreeMap;

use serde::Serialize;

use super::exact::{
    analyze_shoe, analyze_shoe_plays, full_shoe, DealerTable, ExactResult, Follow, Frequencies,
    InitialPlay, Optimal, PostSplit, NV,
};
use super::hand::{up_name, UP_ORDER};
use super::rules::{BjPays, DealerBjTakes, Rules, Surrender};
use super::strategy::Action;
use super::strategy::{StrategyInfo, StrategySpec};
use crate::report::{pct, pct_cell, Cell, Report, Section};

/// What to compute.
#[derive(Clone, Debug)]
pub struct ExactConfig {
    pub rules: Rules,
    /// A fixed strategy to evaluate besides optimal play.
    pub strategy: Option<StrategySpec>,
    /// Show both ENHC settlements (when the settlement was not given explicitly).
    pub both_settlements: bool,
    pub claim: Option<f64>,
    pub sensitivity: bool,
    pub post_split: PostSplit,
    /// Where the charts derived for `basic` are kept.
    pub tables: super::kept::Kept,
    /// Side bets to value (`--side`).
    pub sides: Vec<crate::sidebet::SideBet>,
    /// The shoe the round is dealt from when it is not the rules' full shoe (`--removed`,
    /// `--shoe`): cards left by value, ace first.
    pub shoe: Option<[u32; NV]>,
}

/// A shoe given on the command line that cannot be analysed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ShoeError {
    #[error("--removed: card '{0}': expected A, 2-9, T, J, Q or K (or 10), comma separated, e.g. --removed 5,5,T")]
    Card(String),
    #[error("--shoe {0}: expected 10 whole counts of the cards left by value, A,2,3,4,5,6,7,8,9,T (tens, jacks, queens and kings together), e.g. --shoe 32,32,32,32,0,32,32,32,32,128")]
    Counts(String),
    #[error("--shoe {0}: at most {1} cards of one value (the count of {2} decks)")]
    TooManyOfOne(String, u32, u32),
    #[error("--removed takes out {used} {card}s but {from} holds {have}: remove at most {have}")]
    NotInShoe {
        card: char,
        used: u32,
        have: u32,
        from: String,
    },
    #[error("the shoe has {left} cards left, and a round under these rules may need {needs} (every hand and the dealer drawing its smallest cards): a round the shoe may not finish has no exact value; remove fewer cards")]
    Short { left: u32, needs: u32 },
}

/// Card values' names, ace first (`--shoe`'s order).
const VALUE_NAMES: [char; NV] = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T'];

/// The shoe `--shoe` gives (none: the rules' full shoe) less the cards `--removed` names.
pub fn shoe_of(rules: &Rules, shoe: Option<&str>, removed: &str) -> Result<[u32; NV], ShoeError> {
    /// The most decks `--shoe` may hold of one value.
    const MOST_DECKS: u32 = 8;
    let (mut cards, from) = match shoe {
        None => (
            full_shoe(rules.decks),
            format!(
                "a shoe of {}",
                crate::report::plural(rules.decks as u64, "deck")
            ),
        ),
        Some(text) => {
            let counts: Vec<u32> = text
                .split(',')
                .map(|c| c.trim().parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| ShoeError::Counts(text.into()))?;
            let Ok(cards) = <[u32; NV]>::try_from(counts) else {
                return Err(ShoeError::Counts(text.into()));
            };
            for (v, &k) in cards.iter().enumerate() {
                let most = if v == 9 { 16 } else { 4 } * MOST_DECKS;
                if k > most {
                    return Err(ShoeError::TooManyOfOne(text.into(), most, MOST_DECKS));
                }
            }
            (cards, format!("the shoe --shoe {text}"))
        }
    };
    let mut used = [0u32; NV];
    for c in removed.split(',').filter(|c| !c.trim().is_empty()) {
        let v = super::advise::parse_card(c).map_err(|_| ShoeError::Card(c.trim().into()))?;
        used[v as usize - 1] += 1;
    }
    for ((have, &used), &card) in cards.iter_mut().zip(&used).zip(&VALUE_NAMES) {
        if used > *have {
            return Err(ShoeError::NotInShoe {
                card,
                used,
                have: *have,
                from,
            });
        }
        *have -= used;
    }
    // Every hand draws to a hard total of at most 20 and takes one card more, the dealer to
    // 16 and one more: a round uses at most the most cards summing to that, plus one a hand
    // and one for the dealer.
    let hands = rules.max_hands.max(1) as u32;
    let budget = 20 * hands as i64 + 16;
    let needs = super::advise::most_cards(&cards, budget) + hands + 1;
    let left: u32 = cards.iter().sum();
    if left < needs {
        return Err(ShoeError::Short { left, needs });
    }
    Ok(cards)
}

pub(super) fn run(
    rules: &Rules,
    strategy: Option<&StrategySpec>,
    post_split: PostSplit,
) -> ExactResult {
    run_on(rules, strategy, post_split, None)
}

/// [`run`] from the shoe `shoe` (none: the rules' full shoe).
fn run_on(
    rules: &Rules,
    strategy: Option<&StrategySpec>,
    post_split: PostSplit,
    shoe: Option<[u32; NV]>,
) -> ExactResult {
    let t = DealerTable::of(rules);
    let full = shoe.unwrap_or_else(|| full_shoe(rules.decks));
    match strategy {
        None => analyze_shoe(rules, &Optimal, t, post_split, full),
        Some(spec) => crate::with_strategy!(spec, rules.h17, |s| analyze_shoe(
            rules,
            &Follow(s),
            t,
            post_split,
            full
        )),
    }
}

/// The shoe of an analysis from a depleted (or any given) shoe, and its best play.
#[derive(Clone, Debug, Serialize)]
pub struct ShoeModel {
    /// Cards left by value: A, 2, ..., 9, T.
    pub cards: [u32; NV],
    pub cards_left: u32,
    /// The Hi-Lo true count of the shoe: minus the Hi-Lo tags of the cards left, per deck left
    /// (the running count a counter would have, had the shoe been a full one of balanced decks).
    pub hilo_true_count: f64,
    /// Optimal play's EV from the rules' full shoe, and this shoe's less that.
    pub full_shoe_ev: f64,
    pub delta_ev: f64,
    /// Optimal play on each initial two-card hand by up card (2..9, T, A), from this shoe.
    pub best_play: Vec<BestPlayRow>,
}

/// One two-card hand's best play against each up card.
#[derive(Clone, Debug, Serialize)]
pub struct BestPlayRow {
    /// The hand's cards, e.g. "T,6".
    pub hand: String,
    /// By up card 2..9, T, A: S stand, H hit, D double, P split, R surrender (null where the
    /// shoe holds no such up card or hand); with a `*` where the full shoe's play differs.
    pub plays: Vec<Option<String>>,
    /// This hand's EV under that play by up card (same order), per initial bet.
    pub evs: Vec<Option<f64>>,
}

fn play_letter(a: Action) -> &'static str {
    match a {
        Action::Stand => "S",
        Action::Hit => "H",
        Action::Double => "D",
        Action::Split => "P",
        Action::Surrender => "R",
    }
}

/// The two-card hands (not naturals) in chart order: hard hands by total, soft, pairs.
fn hand_order() -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = (0..NV)
        .flat_map(|a| (a..NV).map(move |b| (a, b)))
        .filter(|&(a, b)| !(a == 0 && b == 9))
        .collect();
    v.sort_by_key(|&(a, b)| (a == b, a == 0, a + b, a));
    v
}

/// The shoe model of `cards`: its best play beside the full shoe's.
fn shoe_model(
    rules: &Rules,
    post_split: PostSplit,
    cards: [u32; NV],
    here: &ExactResult,
    plays: &[InitialPlay],
) -> ShoeModel {
    let t = DealerTable::of(rules);
    let (full, full_plays) =
        analyze_shoe_plays(rules, &Optimal, t, post_split, full_shoe(rules.decks));
    let find = |ps: &[InitialPlay], up: usize, a: usize, b: usize| {
        ps.iter()
            .find(|p| p.up == up && p.c1 == a && p.c2 == b)
            .copied()
    };
    let best_play = hand_order()
        .into_iter()
        .map(|(a, b)| {
            let here: Vec<Option<InitialPlay>> =
                UP_ORDER.iter().map(|&u| find(plays, u, a, b)).collect();
            BestPlayRow {
                hand: format!("{},{}", VALUE_NAMES[a], VALUE_NAMES[b]),
                plays: UP_ORDER
                    .iter()
                    .zip(&here)
                    .map(|(&u, p)| {
                        p.map(|p| {
                            let differs =
                                find(&full_plays, u, a, b).is_some_and(|f| f.action != p.action);
                            format!(
                                "{}{}",
                                play_letter(p.action),
                                if differs { "*" } else { "" }
                            )
                        })
                    })
                    .collect(),
                evs: here.iter().map(|p| p.map(|p| p.ev)).collect(),
            }
        })
        .collect();
    let left: u32 = cards.iter().sum();
    let tags: i64 = cards
        .iter()
        .enumerate()
        .map(|(v, &k)| {
            k as i64
                * match v {
                    1..=5 => 1,
                    0 | 9 => -1,
                    _ => 0,
                }
        })
        .sum();
    ShoeModel {
        cards,
        cards_left: left,
        hilo_true_count: -(tags as f64) / (left as f64 / 52.0),
        full_shoe_ev: full.ev,
        delta_ev: here.ev - full.ev,
        best_play,
    }
}

/// EV given one up card, and the up card's probability.
#[derive(Clone, Debug, Serialize)]
pub struct UpExact {
    pub ev: f64,
    pub p: f64,
}

/// One analysis: EV, RTP, by up card, decision frequencies.
#[derive(Clone, Debug, Serialize)]
pub struct ExactLine {
    pub ev: f64,
    pub rtp: f64,
    /// By up card name (A, 2, ..., T).
    pub ev_by_upcard: BTreeMap<String, UpExact>,
    pub frequencies: Frequencies,
    pub method: String,
}

impl ExactLine {
    fn of(r: &ExactResult) -> ExactLine {
        ExactLine {
            ev: r.ev,
            rtp: 1.0 + r.ev,
            ev_by_upcard: UP_ORDER
                .iter()
                .map(|&i| {
                    let e = UpExact {
                        ev: r.ev_by_up[i],
                        p: r.p_up[i],
                    };
                    (up_name(i), e)
                })
                .collect(),
            frequencies: r.frequencies,
            method: r.method.clone(),
        }
    }
}

/// One settlement and one way to play.
#[derive(Clone, Debug, Serialize)]
pub struct SettlementRow {
    #[serde(flatten)]
    pub result: ExactLine,
    pub settlement: String,
    pub play: String,
    pub rules: Rules,
}

/// The claim against the best exact RTP (no sampling error).
#[derive(Clone, Debug, Serialize)]
pub struct ExactClaim {
    pub claimed: f64,
    pub best_rtp: f64,
    pub reachable: bool,
    pub verdict: String,
}

/// One single-rule change and its exact EV under optimal play.
#[derive(Clone, Debug, Serialize)]
pub struct SensitivityRow {
    pub change: String,
    pub ev: f64,
    pub rtp: f64,
    pub delta_ev: f64,
}

/// Everything the exact report says, computed by `exact_model`; its JSON is this struct.
#[derive(Clone, Debug, Serialize)]
pub struct ExactModel {
    pub game: &'static str,
    pub version: &'static str,
    pub method: String,
    pub rules: Rules,
    pub strategy: Option<StrategyInfo>,
    /// Optimal play under the rules as given.
    pub ev: f64,
    pub rtp: f64,
    pub ev_by_upcard: BTreeMap<String, UpExact>,
    pub frequencies: Frequencies,
    /// The fixed strategy under the rules as given.
    pub strategy_result: Option<ExactLine>,
    pub settlements: Vec<SettlementRow>,
    pub claim: Option<ExactClaim>,
    /// Why no claim is tested, when none is (written only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_claim: Option<String>,
    pub sensitivity: Option<Vec<SensitivityRow>>,
    /// Each side bet's exact event table (`--side`; written only when given).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<crate::sidebet::SideExact>,
    /// The shoe analysed when it is not the rules' full shoe (`--removed`, `--shoe`; written
    /// only then): every figure above is from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shoe: Option<ShoeModel>,
}

/// One rule change: its name, the rule it touches (changes of one rule do not combine), and
/// what it does to a rule set.
pub struct RuleChange {
    pub name: String,
    pub group: &'static str,
    pub apply: Box<dyn Fn(&mut Rules) + Send + Sync>,
}

impl RuleChange {
    fn new(
        name: impl Into<String>,
        group: &'static str,
        apply: impl Fn(&mut Rules) + Send + Sync + 'static,
    ) -> RuleChange {
        RuleChange {
            name: name.into(),
            group,
            apply: Box::new(apply),
        }
    }
}

/// Every single-rule change of the sensitivity table and the audit's "what would make the
/// claim true" (those that change nothing or make impossible rules are left out by
/// `variants`).
pub fn rule_changes(base: &Rules) -> Vec<RuleChange> {
    let mut v = Vec::new();
    for d in [1u32, 2, 4, 6, 8] {
        let name = format!("{d} deck{}", if d == 1 { "" } else { "s" });
        v.push(RuleChange::new(name, "decks", move |r| r.decks = d));
    }
    v.push(RuleChange::new(
        if base.h17 { "S17" } else { "H17" },
        "soft 17",
        |r| r.h17 = !r.h17,
    ));
    v.push(RuleChange::new(
        if base.das { "no DAS" } else { "DAS" },
        "double after split",
        |r| r.das = !r.das,
    ));
    for h in [1u8, 2, 3, 4] {
        let name = if h == 1 {
            "no splitting".to_string()
        } else {
            format!("split to {h} hands")
        };
        v.push(RuleChange::new(name, "hands", move |r| {
            r.max_hands = h;
            if h < 3 {
                r.resplit_aces = false;
            }
            if h == 1 {
                r.das = false;
                r.hit_split_aces = false;
            }
        }));
    }
    for (name, s) in [
        ("no surrender", Surrender::None),
        ("surrender vs 2-9", Surrender::TwoToNine),
        ("late surrender", Surrender::Late),
        ("early surrender", Surrender::Early),
    ] {
        v.push(RuleChange::new(name, "surrender", move |r| r.surrender = s));
    }
    if !base.peek {
        v.push(RuleChange::new(
            "dealer BJ takes all",
            "dealer blackjack",
            |r| r.dealer_bj_takes = DealerBjTakes::All,
        ));
        v.push(RuleChange::new(
            "dealer BJ takes original bet only",
            "dealer blackjack",
            |r| r.dealer_bj_takes = DealerBjTakes::Original,
        ));
        v.push(RuleChange::new(
            "hole card (peek)",
            "dealer blackjack",
            |r| {
                r.peek = true;
                r.dealer_bj_takes = DealerBjTakes::All;
            },
        ));
    }
    for (name, p) in [
        ("BJ pays 3:2", BjPays::ThreeToTwo),
        ("BJ pays 6:5", BjPays::SixToFive),
    ] {
        v.push(RuleChange::new(name, "blackjack pays", move |r| {
            r.bj_pays = p
        }));
    }
    v
}

/// The rule sets of the single changes that change something and are possible.
fn variants(base: &Rules) -> Vec<(String, Rules)> {
    rule_changes(base)
        .into_iter()
        .filter_map(|c| {
            let mut r = base.clone();
            (c.apply)(&mut r);
            (r != *base && r.validate().is_ok()).then_some((c.name, r))
        })
        .collect()
}

/// Run every analysis the exact report needs (the rule changes only until `stop` is raised).
pub fn exact_model(
    cfg: &ExactConfig,
    show_progress: bool,
    stop: &std::sync::atomic::AtomicBool,
) -> ExactModel {
    let rules = &cfg.rules;
    let mut settlements: Vec<(String, Rules)> = vec![(label(rules), rules.clone())];
    if cfg.both_settlements && !rules.peek {
        let mut other = rules.clone();
        other.dealer_bj_takes = match rules.dealer_bj_takes {
            DealerBjTakes::All | DealerBjTakes::Splits => DealerBjTakes::Original,
            DealerBjTakes::Original => DealerBjTakes::All,
        };
        settlements.push((label(&other), other));
    }
    let variants = if cfg.sensitivity {
        variants(rules)
    } else {
        Vec::new()
    };
    let plays_each = 1 + cfg.strategy.is_some() as u64;
    let progress = crate::progress::Progress::new(
        show_progress,
        settlements.len() as u64 * plays_each + plays_each,
        "exact analysis",
        "analyses",
    );
    let mut rows = Vec::new();
    let mut best_rtp: Option<f64> = None;
    let mut method = String::new();
    for (name, rs) in &settlements {
        let mut plays: Vec<(String, ExactResult)> =
            vec![("optimal".into(), run_on(rs, None, cfg.post_split, cfg.shoe))];
        if let Some(st) = &cfg.strategy {
            // `basic` is the chart derived for each settlement's rules.
            let st = super::resolve::rederive_basic(st, rs, &cfg.tables);
            plays.push((st.name(), run_on(rs, Some(&st), cfg.post_split, cfg.shoe)));
        }
        progress.advance(plays_each);
        for (play, res) in &plays {
            rows.push(SettlementRow {
                result: ExactLine::of(res),
                settlement: name.clone(),
                play: play.clone(),
                rules: rs.clone(),
            });
        }
        if best_rtp.is_none() {
            best_rtp = Some(1.0 + plays[0].1.ev);
            method = plays[0].1.method.clone();
        }
    }
    let (opt_result, shoe) = match cfg.shoe {
        None => (run(rules, None, cfg.post_split), None),
        Some(cards) => {
            let t = DealerTable::of(rules);
            let (res, plays) = analyze_shoe_plays(rules, &Optimal, t, cfg.post_split, cards);
            let shoe = shoe_model(rules, cfg.post_split, cards, &res, &plays);
            (res, Some(shoe))
        }
    };
    let opt = ExactLine::of(&opt_result);
    let strategy_result = cfg
        .strategy
        .as_ref()
        .map(|s| ExactLine::of(&run_on(rules, Some(s), cfg.post_split, cfg.shoe)));
    progress.advance(plays_each);
    let claim = cfg.claim.map(|c| {
        let best = best_rtp.unwrap_or(f64::NAN);
        let reachable = best >= c;
        let verdict = claim_verdict(c, best, ["reachable", "not reachable"]);
        ExactClaim {
            claimed: c,
            best_rtp: best,
            reachable,
            verdict,
        }
    });
    let sensitivity = cfg.sensitivity.then(|| {
        progress.stage("sensitivity", variants.len() as u64, "rule changes");
        // A stop (the page's answer past its time: nobody waits for it) ends the rule
        // changes between two analyses.
        variants
            .into_iter()
            .take_while(|_| !stop.load(std::sync::atomic::Ordering::SeqCst))
            .map(|(change, rs)| {
                let e = run(&rs, None, cfg.post_split).ev;
                progress.advance(1);
                SensitivityRow {
                    change,
                    ev: e,
                    rtp: 1.0 + e,
                    delta_ev: e - opt.ev,
                }
            })
            .collect()
    });
    ExactModel {
        game: "blackjack",
        version: crate::VERSION,
        method,
        rules: rules.clone(),
        strategy: cfg.strategy.as_ref().map(|s| s.info()),
        ev: opt.ev,
        rtp: opt.rtp,
        ev_by_upcard: opt.ev_by_upcard,
        frequencies: opt.frequencies,
        strategy_result,
        settlements: rows,
        no_claim: claim.is_none().then(|| rules.no_claim_reason(false)),
        claim,
        sensitivity,
        side_bets: cfg
            .sides
            .iter()
            .map(|b| {
                crate::sidebet::SideExact::of(
                    b,
                    super::sidebets::exact(&b.table, rules.decks, rules.h17),
                )
            })
            .collect(),
        shoe,
    }
}

/// The shoe's section: the best play on every two-card hand by up card.
fn best_play_section(shoe: &ShoeModel) -> Section {
    let ups: Vec<String> = UP_ORDER.iter().map(|&i| up_name(i)).collect();
    let mut cols = vec!["hand"];
    cols.extend(ups.iter().map(String::as_str));
    let mut s = Section::new(
        "Best play from this shoe (two-card hands by up card; * where the full shoe's differs)",
        &cols,
    );
    for row in &shoe.best_play {
        let mut cells = vec![Cell::from(row.hand.clone())];
        cells.extend(
            row.plays
                .iter()
                .map(|p| Cell::from(p.clone().unwrap_or_else(|| "-".into()))),
        );
        s.row(cells);
    }
    s
}

/// The exact report: tables and notes rendered from the model, the JSON the model itself.
pub fn render(m: &ExactModel) -> Report {
    let mut r = Report {
        title: "rtplab blackjack exact analysis".into(),
        ..Default::default()
    };
    r.meta
        .push(("tool".into(), format!("rtplab {}", m.version)));
    r.meta.push(("rules".into(), m.rules.off_the_top()));
    r.meta.push((
        "strategy".into(),
        match &m.strategy {
            Some(s) => format!("optimal composition-dependent play, and {}", s.name),
            None => "optimal composition-dependent play".into(),
        },
    ));
    let mut s = Section::new(
        "EV and RTP per initial bet",
        &[
            "settlement",
            "play",
            "EV",
            "RTP",
            "P(double)",
            "P(split)",
            "P(surrender)",
        ],
    );
    for row in &m.settlements {
        let res = &row.result;
        s.row([
            Cell::from(row.settlement.clone()),
            Cell::from(row.play.clone()),
            pct_cell(res.ev, 4),
            pct_cell(res.rtp, 4),
            pct_cell(res.frequencies.double, 3),
            pct_cell(res.frequencies.split, 3),
            pct_cell(res.frequencies.surrender, 3),
        ]);
    }
    r.sections.push(s);
    // The strategy's column only when a strategy was given.
    let columns: &[&str] = match &m.strategy_result {
        Some(_) => &["up", "P(up)", "optimal EV", "strategy EV"],
        None => &["up", "P(up)", "optimal EV"],
    };
    let mut s = Section::new("EV by dealer up card (rules as given)", columns);
    for i in UP_ORDER {
        let up = up_name(i);
        let opt = &m.ev_by_upcard[&up];
        let mut row = vec![
            Cell::from(up.clone()),
            pct_cell(opt.p, 3),
            pct_cell(opt.ev, 3),
        ];
        if let Some(st) = &m.strategy_result {
            row.push(pct_cell(st.ev_by_upcard[&up].ev, 3));
        }
        s.row(row);
    }
    r.sections.push(s);
    r.notes.push(format!("Method: {}.", m.method));
    if let Some(c) = &m.claim {
        r.notes
            .push(format!("Claim {}: {}", pct(c.claimed, 2), c.verdict));
    }
    r.notes.extend(m.no_claim.clone());
    if let Some(rows) = &m.sensitivity {
        let mut s = Section::new(
            "Sensitivity: one rule changed at a time (optimal play)",
            &["change", "EV", "RTP", "ΔEV", "reaches claim"],
        );
        for row in rows {
            let reach = m
                .claim
                .as_ref()
                .map(|c| if row.rtp >= c.claimed { "yes" } else { "no" })
                .unwrap_or("");
            s.row([
                Cell::from(row.change.clone()),
                pct_cell(row.ev, 4),
                pct_cell(row.rtp, 4),
                Cell::num(
                    format!("{:+.4}%", row.delta_ev * 100.0),
                    row.delta_ev,
                    "fraction",
                ),
                Cell::from(reach),
            ]);
        }
        r.sections.push(s);
    }
    if let Some(shoe) = &m.shoe {
        r.sections.push(best_play_section(shoe));
        r.notes.push(format!(
            "Shoe: {} cards left (A,2..9,T: {}), Hi-Lo true count {:+.2}. Optimal play's EV from it is {:+.4}% against {:+.4}% from the full shoe ({:+.4}%): every figure above is from this shoe. Best play: S stand, H hit, D double, P split, R surrender; a play is the one of the most EV for the hand from this shoe (composition-dependent), as a combinatorial analyser gives it.",
            shoe.cards_left,
            shoe.cards.map(|k| k.to_string()).join(","),
            shoe.hilo_true_count,
            m.ev * 100.0,
            shoe.full_shoe_ev * 100.0,
            shoe.delta_ev * 100.0,
        ));
    }
    r.sections
        .extend(crate::sidebet::exact_sections(&m.side_bets));
    r.notes.extend(crate::sidebet::exact_notes(&m.side_bets));
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The picture of `--sensitivity` (`sensitivity.svg`): the change in optimal play's EV of
/// each single rule change, best first, with the change the claim would need drawn across.
/// None without `--sensitivity`.
pub fn plots(m: &ExactModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let Some(rows) = &m.sensitivity else {
        return Ok(Vec::new());
    };
    let mut rows: Vec<&SensitivityRow> = rows.iter().collect();
    rows.sort_by(|a, b| b.delta_ev.total_cmp(&a.delta_ev));
    let bars: Vec<Bar> = rows
        .iter()
        .map(|r| Bar::new(r.change.clone(), r.delta_ev * 100.0))
        .collect();
    let need = m.claim.as_ref().map(|c| {
        (
            (c.claimed - m.rtp) * 100.0,
            format!("needed for the claimed {}", pct(c.claimed, 2)),
        )
    });
    let svg = bar_chart(&BarChart {
        title: "House edge sensitivity: EV change of each single rule change (optimal play)",
        x_label: "rule change, one at a time from the rules as given (most helpful first)",
        y_label: "ΔEV per initial bet (%)",
        y_unit: YUnit::Percent,
        bars: &bars,
        hline: need.as_ref().map(|(v, l)| (*v, l.as_str())),
        histogram: false,
    })?;
    Ok(vec![("sensitivity.svg".to_string(), svg)])
}

fn label(r: &Rules) -> String {
    if r.peek {
        "hole card (peek)".into()
    } else {
        match r.dealer_bj_takes {
            DealerBjTakes::All => "ENHC, dealer BJ takes all".into(),
            DealerBjTakes::Original => "ENHC, original bet only".into(),
            DealerBjTakes::Splits => "ENHC, dealer BJ takes splits, not doubles".into(),
        }
    }
}
/// The verdict on a claimed RTP `c` against `best`, optimal play's exact RTP: `words[0]` if
/// it is reached, `words[1]` if not, then why.
pub(super) fn claim_verdict(c: f64, best: f64, words: [&str; 2]) -> String {
    if best >= c {
        format!(
            "{}: optimal play returns {} under these rules, at or above the claimed {}",
            words[0],
            pct(best, 4),
            pct(c, 2)
        )
    } else {
        format!(
            "{}: even optimal play returns {} under these rules, {} below the claimed {} (exact, no sampling error)",
            words[1],
            pct(best, 4),
            pct(c - best, 4),
            pct(c, 2)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Shoe;
    use crate::games::blackjack::resolve::seed_chart;
    use crate::games::blackjack::round::Table;
    use crate::games::blackjack::rules::Shuffle;
    use crate::games::blackjack::strategy::StrategySpec;

    /// One deck, S17, a hole card, double on any two, no DAS, no surrender: the rules of
    /// Griffin's single-deck effects of removal.
    fn one_deck() -> Rules {
        let mut r = Rules::seed();
        r.decks = 1;
        r.peek = true;
        r.surrender = Surrender::None;
        r.shuffle = Shuffle::EveryRound;
        r.validate().unwrap();
        r
    }

    fn config(rules: Rules, shoe: Option<[u32; NV]>) -> ExactConfig {
        ExactConfig {
            rules,
            strategy: Some(StrategySpec::Chart(Box::new(seed_chart()))),
            both_settlements: false,
            claim: None,
            sensitivity: false,
            post_split: PostSplit::CdzMinus,
            tables: crate::games::blackjack::kept::Kept::Fresh,
            sides: Vec::new(),
            shoe,
        }
    }

    fn model(cfg: &ExactConfig) -> ExactModel {
        exact_model(cfg, false, &std::sync::atomic::AtomicBool::new(false))
    }

    #[test]
    fn bad_shoes_are_refused_naming_the_fault() {
        let r = Rules::seed();
        let err = |shoe: Option<&str>, removed: &str| shoe_of(&r, shoe, removed).unwrap_err();
        assert_eq!(err(None, "5,X"), ShoeError::Card("X".into()));
        let e = err(None, &["5"; 33].join(",")).to_string();
        assert!(e.contains("33 5s") && e.contains("holds 32"), "{e}");
        assert!(matches!(err(Some("1,2,3"), ""), ShoeError::Counts(_)));
        assert!(matches!(
            err(Some("4,4,4,4,4,4,4,4,4,x"), ""),
            ShoeError::Counts(_)
        ));
        assert!(matches!(
            err(Some("4,4,4,4,4,4,4,4,4,999"), ""),
            ShoeError::TooManyOfOne(..)
        ));
        let e = err(Some("4,4,4,4,4,4,4,4,4,16"), "5,5,5,5,5").to_string();
        assert!(e.contains("--shoe") && e.contains("holds 4"), "{e}");
        // Four aces left: a round may need more.
        assert!(matches!(
            err(Some("4,0,0,0,0,0,0,0,0,0"), ""),
            ShoeError::Short { left: 4, .. }
        ));
        assert!(shoe_of(&r, Some("0,0,0,0,0,0,0,0,0,20"), "").is_ok());
        let got = shoe_of(&r, Some("4,4,4,4,4,4,4,4,4,16"), "5,T,k").unwrap();
        assert_eq!(got, [4, 4, 4, 4, 3, 4, 4, 4, 4, 14]);
        assert_eq!(shoe_of(&r, None, " ").unwrap(), full_shoe(8));
    }

    #[test]
    fn a_full_shoe_given_is_the_plain_analysis() {
        let plain = model(&config(Rules::seed(), None));
        let given = model(&config(Rules::seed(), Some(full_shoe(8))));
        assert_eq!(given.ev, plain.ev);
        assert_eq!(
            given.strategy_result.as_ref().map(|s| s.ev),
            plain.strategy_result.as_ref().map(|s| s.ev)
        );
        assert!(plain.shoe.is_none());
        let shoe = given.shoe.expect("a shoe given");
        assert_eq!(shoe.delta_ev, 0.0);
        assert_eq!(shoe.best_play.len(), 54);
        let all: Vec<&String> = shoe
            .best_play
            .iter()
            .flat_map(|r| r.plays.iter().flatten())
            .collect();
        assert_eq!(all.len(), 540);
        assert!(all.iter().all(|p| !p.contains('*')));
        // Up cards 2..9, T, A: 16 (T,6) hits a ten (no surrender against one), 11 doubles a 6,
        // 8,8 splits a 7.
        let row = |h: &str| shoe.best_play.iter().find(|r| r.hand == h).unwrap();
        assert_eq!(row("6,T").plays[8].as_deref(), Some("H"));
        assert_eq!(row("5,6").plays[4].as_deref(), Some("D"));
        assert_eq!(row("8,8").plays[5].as_deref(), Some("P"));
    }

    /// Griffin's single-deck effect of removal of a five (The Theory of Blackjack), in EV per
    /// card removed; the docs' `strategies metrics` reproduces it (docs/counting.md).
    const GRIFFIN_FIVE: f64 = 0.0069;

    #[test]
    fn removing_the_fives_raises_the_ev_by_their_effect_of_removal() {
        let full = model(&config(one_deck(), None));
        let cards = shoe_of(&one_deck(), None, "5,5,5,5").unwrap();
        let less = model(&config(one_deck(), Some(cards)));
        let chart = |m: &ExactModel| m.strategy_result.as_ref().unwrap().ev;
        let delta = chart(&less) - chart(&full);
        let linear = 4.0 * GRIFFIN_FIVE;
        // The chart's EV rises 2.41%, 13% short of the linear estimate (the effects shrink as
        // a value runs out); removing nothing, or a five less, would be far outside.
        assert!(
            (delta - linear).abs() < 0.2 * linear,
            "{delta} against {linear}"
        );
        // Optimal play gains more from the shoe than the chart does: 3.38%, against the 3.50%
        // of Thorp's deck without fives (a 0.21% house edge turned into a 3.29% player edge,
        // under the rules of his day), and plays some hands differently.
        let optimal = less.ev - full.ev;
        assert!(optimal > delta);
        assert!((optimal - 0.0350).abs() < 0.003, "{optimal}");
        let shoe = less.shoe.unwrap();
        assert!(shoe
            .best_play
            .iter()
            .flat_map(|r| r.plays.iter().flatten())
            .any(|p| p.contains('*')));
        // Low cards out: a shoe rich in tens, Hi-Lo +4 / (48/52).
        assert!((shoe.hilo_true_count - 52.0 / 12.0).abs() < 1e-9);
    }

    #[test]
    fn the_exact_ev_of_a_shoe_is_what_its_rounds_return() {
        // A deck without its fives, every round dealt from all 48 cards, the seed chart played.
        let rules = one_deck();
        let cards = shoe_of(&rules, None, "5,5,5,5").unwrap();
        let exact = model(&config(rules.clone(), Some(cards)));
        let full = model(&config(rules.clone(), None));
        let want = exact.strategy_result.as_ref().unwrap().ev;
        let chart = seed_chart();
        let mut table = Table::new(&rules, &chart);
        table.shoe = Shoe::of_values(&cards, 48, 10);
        let mut rng = crate::rng::chunk_rng(67, 0);
        let u = rules.units_per_bet() as f64;
        let n = 300_000;
        let (mut s1, mut s2) = (0.0, 0.0);
        for _ in 0..n {
            table.play_shoe(&mut rng, |r| {
                let x = r.seats[0].net as f64 / u;
                s1 += x;
                s2 += x * x;
            });
        }
        let mean = s1 / n as f64;
        let se = ((s2 / n as f64 - mean * mean) / n as f64).sqrt();
        let z = (mean - want) / se;
        assert!(z.abs() < 4.0, "{mean} (SE {se}) against {want}: z {z}");
        // Power: the full deck's EV is far outside the band.
        let off = (full.strategy_result.as_ref().unwrap().ev - want).abs() / se;
        assert!(off > 10.0, "{off}");
    }
}
