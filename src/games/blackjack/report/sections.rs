//! The run report's tables, metadata and notes, rendered from the model.

use super::super::hand::{up_name, UP_ORDER};
use super::counting::count_label;
use super::{
    BehindFollows, CountingModel, Hourly, PerRoundObserved, Ror, RorTarget, SimModel, CE_FORMULA,
    EXPOSURE_MIN_SHARE, ROR_FORMULA,
};
use crate::report::{
    count, count_cell, fixed, fixed_cell, pct_cell, pct_estimate_cells, rate, Cell, Report, Section,
};

/// The report of a blackjack run: tables and notes rendered from the model, the JSON the
/// model itself.
pub fn render(m: &SimModel) -> Report {
    let mut r = Report {
        title: format!("rtplab blackjack simulation: {}", m.strategy.name),
        ..Default::default()
    };
    r.meta = meta_lines(m);
    m.run.annotate(&mut r, m.rounds, "rounds");
    r.sections.push(result_section(m));
    if !m.seats.is_empty() {
        r.sections.push(seat_section(m));
    }
    r.sections.extend([
        up_card_section(m),
        frequency_section(m),
        side_bet_section(m),
        dealer_section(m),
        net_section(m),
    ]);
    if !m.side_wagers.is_empty() {
        r.sections.push(crate::sidebet::sim_section(&m.side_wagers));
    }
    if let Some(c) = &m.counting {
        render_counting(&mut r, c);
    }
    notes(&mut r, m);
    // The answer, side bets, the count's figures and risk first; the rest with --full.
    r.full_only(&[
        "EV by dealer up card",
        "Frequencies",
        "Dealer outcomes by up card",
        "Distribution of one round's net result",
        "EV by true count",
        "Operator exposure",
    ]);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The metadata lines before the run's elapsed line: tool, rules, strategy, seed, rounds,
/// chunks.
fn meta_lines(m: &SimModel) -> Vec<(String, String)> {
    let strategy = format!(
        "{}{}, insurance {}",
        m.strategy.name,
        m.strategy
            .hash
            .as_ref()
            .map(|h| format!(" (fnv1a {h})"))
            .unwrap_or_default(),
        m.strategy.insurance
    );
    let rounds = if m.max_bet > 1 {
        format!(
            "{} dealer rounds; {} seat-rounds played, staking {} initial bets ({} rounds requested)",
            count(m.rounds),
            count(m.seat_rounds),
            count(m.initial_bets),
            count(m.rounds_requested)
        )
    } else {
        format!(
            "{} dealer rounds, {} initial bets ({} requested)",
            count(m.rounds),
            count(m.initial_bets),
            count(m.rounds_requested)
        )
    };
    let chunks = format!(
        "{} of {} done, {} each ({:.1} rounds per shoe in the pilot)",
        count(m.chunks.done),
        count(m.chunks.planned),
        crate::report::plural(m.chunks.shoes_per_chunk, "shoe"),
        m.chunks.pilot_rounds_per_shoe
    );
    vec![
        ("tool".into(), format!("rtplab {}", m.version)),
        ("rules".into(), m.rules.to_string()),
        ("strategy".into(), strategy),
    ]
    .into_iter()
    .chain(
        m.errors
            .as_ref()
            .map(|e| ("mistakes".into(), format!("{} (docs/mistakes.md)", e.model))),
    )
    .chain([
        ("seed".into(), m.header.seed.to_string()),
        ("rounds".into(), rounds),
        ("chunks".into(), chunks),
    ])
    .collect()
}

/// EV, RTP and RTP per total wagered, and the SD of a round.
fn result_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Result (per initial main bet unless stated)",
        &["quantity", "value", "SE", "95% CI"],
    );
    let rtp = &m.rtp_estimate;
    // A counter's EV and SD are its whole action's (insurance included); the main bet's own
    // figures follow, labelled as such.
    let c = m.counting.as_ref();
    let main = if c.is_some() { ", main bet only" } else { "" };
    if let Some(c) = c {
        let a = &c.advantage_est;
        let [mean, se, ci] = pct_estimate_cells(a.mean, a.se, a.ci95, 4);
        s.row([
            "EV (main bets and insurance, per initial bet staked)".into(),
            mean,
            se,
            ci,
        ]);
        s.row([
            "SD of one round played (table minimums, main bets and insurance)".into(),
            fixed_cell(c.sd_per_round, 4, "bets"),
            "".into(),
            "".into(),
        ]);
    }
    for (name, mean, se, ci95) in [
        ("EV", m.ev, m.ev_se, m.ev_ci95),
        ("RTP = 1 + EV", rtp.mean, rtp.se, rtp.ci95),
        (
            "RTP per total wagered",
            m.rtp_total_wagered,
            m.rtp_total_wagered_se,
            m.rtp_total_wagered_ci95,
        ),
    ] {
        let [mean, se, ci] = pct_estimate_cells(mean, se, ci95, 4);
        s.row([format!("{name}{main}").into(), mean, se, ci]);
    }
    if let Some((free, cost)) = m
        .errors
        .as_ref()
        .and_then(|e| Some((e.rtp_error_free?, e.cost?)))
    {
        s.row([
            "RTP without the mistakes (exact, full shoe)".into(),
            pct_cell(free, 4),
            "".into(),
            "".into(),
        ]);
        let ci = [rtp.ci95[0] - free, rtp.ci95[1] - free];
        let [mean, se, ci] = pct_estimate_cells(cost, rtp.se, ci, 4);
        s.row([
            "what the mistakes cost (RTP less that)".into(),
            mean,
            se,
            ci,
        ]);
    }
    let insured = m
        .errors
        .as_ref()
        .and_then(|e| Some((e.insurance?, e.insurance_se?)));
    if let Some((ins, se)) = insured.filter(|i| i.0 != 0.0) {
        let ci = [ins - 1.96 * se, ins + 1.96 * se];
        let [mean, se, ci] = pct_estimate_cells(ins, se, ci, 4);
        s.row([
            "insurance taken by mistake (net per initial bet)".into(),
            mean,
            se,
            ci,
        ]);
    }
    s.row([
        format!("SD of one round (bets){main}").into(),
        fixed_cell(m.sd_round, 4, "bets"),
        "".into(),
        "".into(),
    ]);
    s
}

/// Each seat's own figures at a table of seats playing strategies of their own.
fn seat_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Seats (each seat's own play; the result above is the whole table's)",
        &[
            "seat",
            "plays",
            "rounds",
            "avg bet",
            "EV",
            "SE",
            "95% CI",
            "win/round",
            "SCORE",
        ],
    );
    for l in &m.seats {
        let [ev, se, ci] = pct_estimate_cells(l.ev, l.ev_se, l.ev_ci95, 3);
        s.row([
            Cell::num(l.seat.to_string(), l.seat as f64, "seat"),
            // The spec's first word (the full spec is in the strategy line and the JSON).
            l.play
                .split(' ')
                .next()
                .unwrap_or_default()
                .to_string()
                .into(),
            count_cell(l.rounds_played),
            fixed_cell(l.avg_bet, 3, "bets"),
            ev,
            se,
            ci,
            fixed_cell(l.ev_per_round, 5, "bets"),
            match l.score {
                Some(x) => fixed_cell(x, 2, "SCORE"),
                None => "".into(),
            },
        ]);
    }
    s
}

fn up_card_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "EV by dealer up card",
        &["up", "share", "EV", "SE", "95% CI"],
    );
    for &i in &UP_ORDER {
        let row = &m.ev_by_upcard[&up_name(i)];
        let [ev, se, ci] = pct_estimate_cells(row.ev, row.se, row.ci95, 3);
        s.row([
            up_name(i).into(),
            pct_cell(rate(row.bets, m.seat_rounds), 2),
            ev,
            se,
            ci,
        ]);
    }
    s
}

fn frequency_section(m: &SimModel) -> Section {
    let mut s = Section::new("Frequencies", &["event", "rate", "count", "of"]);
    for f in &m.frequencies {
        s.row([
            f.name.into(),
            pct_cell(f.rate, 3),
            count_cell(f.count),
            f.of.into(),
        ]);
    }
    s
}

/// The pairs bet, insurance and the bet behind: each one's RTP per stake.
fn side_bet_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Side bets and bet behind (RTP per stake of that bet)",
        &["bet", "stake", "bets", "RTP", "SE", "95% CI"],
    );
    let sb = &m.side_bets;
    let b = &m.bet_behind;
    let rows = [
        (
            "pairs (same rank, 11:1)".to_string(),
            Cell::num(format!("{}", sb.pairs.stake), sb.pairs.stake, "bets"),
            sb.pairs.bets,
            [sb.pairs.rtp, sb.pairs.se],
            sb.pairs.ci95,
        ),
        (
            "insurance (2:1)".to_string(),
            if m.strategy.insurance == "never" {
                "never taken".into()
            } else {
                Cell::num("0.5".into(), 0.5, "bets")
            },
            sb.insurance.taken,
            [sb.insurance.rtp, sb.insurance.se],
            sb.insurance.ci95,
        ),
        (
            format!(
                "bet behind{} (follows {})",
                b.seat.map(|n| format!(" seat {n}")).unwrap_or_default(),
                if b.follows == BehindFollows::All {
                    "all"
                } else {
                    "none"
                }
            ),
            Cell::num(format!("{}", b.stake), b.stake, "bets"),
            b.bets,
            [b.rtp, b.se],
            b.ci95,
        ),
    ];
    for (bet, stake, bets, [rtp, se], ci95) in rows {
        let mut row = vec![Cell::from(bet), stake, count_cell(bets)];
        row.extend(pct_estimate_cells(rtp, se, ci95, 3));
        s.row(row);
    }
    s
}

fn dealer_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Dealer outcomes by up card",
        &["up", "17", "18", "19", "20", "21", "bust", "BJ"],
    );
    for &i in &UP_ORDER {
        let d = &m.dealer_outcomes[&up_name(i)];
        let mut cells = vec![Cell::from(up_name(i))];
        cells.extend(
            [d.t17, d.t18, d.t19, d.t20, d.t21, d.bust, d.blackjack]
                .iter()
                .map(|&p| fixed_cell(p, 6, "fraction")),
        );
        s.row(cells);
    }
    s
}

fn net_section(m: &SimModel) -> Section {
    let mut s = Section::new(
        "Distribution of one round's net result (main bet)",
        &["net (bets)", "probability", "count"],
    );
    for d in &m.net_distribution {
        s.row([
            Cell::num(format!("{:+}", d.net), d.net, "bets"),
            fixed_cell(d.p, 6, "fraction"),
            count_cell(d.count),
        ]);
    }
    s
}

/// The notes after the tables (varied bets, precision, claim, reshuffles) and the claim's
/// table.
fn notes(r: &mut Report, m: &SimModel) {
    if m.max_bet > 1 {
        // A counter's average bet, with its SE, is in the counting table.
        let average = match m.counting {
            Some(_) => String::new(),
            None => format!("average {}, ", fixed(m.avg_bet, 3)),
        };
        r.notes.push(format!(
            "Bets varied: {} seat-rounds staked {} initial bets ({average}largest {}); EV and RTP are per initial bet staked.",
            count(m.seat_rounds),
            count(m.initial_bets),
            m.max_bet
        ));
    }
    if m.initial_bets == 0 && m.counting.as_ref().is_some_and(|c| c.rounds_observed > 0) {
        r.notes.push(
            "The counter never bet: it watched every round dealt without entering (its --wong-in count, a ramp of 0 units or --no-mid-shoe-entry kept it out), so the statistics are not available (n/a).".into(),
        );
    } else if m.initial_bets == 0 {
        r.notes
            .push("No rounds were completed: the statistics are not available (n/a).".into());
    } else {
        r.notes.push(crate::report::precision_note(
            m.initial_bets,
            "initial bets",
            m.ev_se,
            m.bets_for_se_0_01pct,
            "bets",
        ));
    }
    if let Some(cc) = &m.claim {
        r.sections.push(crate::report::claim_section(cc, "RTP"));
        r.notes
            .extend(crate::report::claim_notes(cc, "initial bets"));
        if m.rules.advertised_rtp() == Some(cc.claimed) {
            r.notes.push(format!(
                "{} is the table's advertised RTP for these rules (the seed preset), tested by default; --claim PCT tests another.",
                crate::report::pct(cc.claimed, 2)
            ));
        }
    }
    r.notes.extend(m.no_claim.clone());
    if m.reshuffles_mid_round > 0 {
        r.notes.push(format!(
            "The shoe ran out mid-round {} times (discards reshuffled); lower --penetration.",
            m.reshuffles_mid_round
        ));
    }
}

/// The counting sections: the player's figures, the risk of ruin, the operator's exposure and
/// the EV by count.
fn render_counting(r: &mut Report, c: &CountingModel) {
    r.meta.push(("count".into(), c.count.clone()));
    r.sections.push(counting_section(c));
    if let Some(ror) = &c.ror {
        r.sections.push(ruin_section(ror));
        r.notes.push(format!(
            "Risk of ruin: the formula is the Brownian approximation with the run's EV and SD per round played (e^(-2 EV B / SD^2) ever; with the finite-horizon term for a trip). Simulated trips follow the simulated rounds in order: each starts with {} table minimums, plays {} rounds the counter bets (insurance included), and is ruined when the bankroll falls to 0 or below; a chunk's unfinished last trip is not counted{}.",
            ror.bankroll,
            ror.trip_rounds,
            if ror.trips == 0 {
                " — no trip completed: each chunk must hold a whole trip; lower --trip-rounds or raise --chunk-shoes"
            } else {
                ""
            }
        ));
    }
    if let Some(t) = &c.bankroll_for_ror {
        r.sections.extend(ror_target_sections(t));
        r.notes.push(format!(
            "Bankroll for a risk of ruin of {}%: {ROR_FORMULA}, with the run's EV and variance per round played (insurance included), in table minimums. It is checked by {} trips with that bankroll, each a random walk of steps of {} rounds whose net is normal with the run's EV and variance (a step's SD is 1/{} of the bankroll; checking for ruin only at the end of a step lowers the share ruined by about {:.1}% of itself), ended at ruin or at {} times the bankroll; the formula's chance of that event is (R - R^{}) / (1 - R^{}). The trips test the formula's inversion and the diffusion at that scale, not the rounds' own distribution: the trips of --bankroll follow the simulated rounds.",
            crate::report::pct_text(t.target_ror),
            t.trips,
            t.block_rounds.map_or("n/a".into(), |b| format!("{b:.0}")),
            crate::risk::TRIP_BLOCK_STEPS,
            100.0 * (1.0 - t.target_ror.powf(0.5826 / crate::risk::TRIP_BLOCK_STEPS)),
            t.ceiling,
            t.ceiling,
            t.ceiling,
        ));
    }
    r.sections.push(exposure_section(c));
    r.sections.push(by_count_section(c));
    match (c.ramp_jump, c.cover.rise_limit()) {
        // The cover plays climb to the ramp's bet over rounds: no jump of the ramp is made.
        (Some(j), Some(k)) if j.ratio > k as f64 => r.notes.push(format!(
            "The ramp jumps x{:.2} at {:+} ({} to {}), but the cover plays raise the bet at most x{k} from one round to the next: the bets climb to the ramp's over rounds.",
            j.ratio, j.tc, j.from, j.to
        )),
        (Some(_), _) => r
            .notes
            .push(super::super::ramp::jump_words(c.ramp_jump, "the ramp")),
        (None, _) => {}
    }
    r.notes.push(format!(
        "Counting: {}. The counter's figures include its insurance bets. A seat sitting out (wonging) watches its place played the same way by someone else: the cards are as they would be, none of it is the seat's money. The SEs by count take seat-rounds as independent; the insurance and pairs EVs by count (per unit staked, over every seat-round seen) are the operator's exposure to a player who bets them only at that count; insurance is keyed by the count at its decision (after the deal, every card seen so far: where an insurance index applies), every other column by the count at the bet.",
        c.count
    ));
}

/// The counter's figures per round played and per round observed (watched or played), side
/// by side: EV, SD, SCORE, N0, DI and per hour; then the advantage, the average bet and the
/// certainty equivalent (per round played).
fn counting_section(c: &CountingModel) -> Section {
    let mut s = Section::new(
        "Card counting (all spots, in table minimums; per round played and per round observed)",
        &["quantity", "played", "SE", "observed", "SE"],
    );
    let o = &c.per_round_observed;
    let opt = |v: Option<f64>, d: usize, unit: &'static str| {
        v.map_or(Cell::from("n/a"), |v| fixed_cell(v, d, unit))
    };
    let none = || Cell::from("");
    let mut both: Vec<(String, [Cell; 4])> = vec![
        (
            "EV per round (main bets and insurance)".into(),
            [
                fixed_cell(c.ev_per_round, 5, "bets"),
                fixed_cell(c.ev_per_round_se, 5, "bets"),
                fixed_cell(o.ev, 5, "bets"),
                opt(o.ev_se, 5, "bets"),
            ],
        ),
        (
            "SD per round (main bets and insurance)".into(),
            [
                fixed_cell(c.sd_per_round, 4, "bets"),
                none(),
                fixed_cell(o.sd, 4, "bets"),
                none(),
            ],
        ),
        (
            "SCORE = 10^6 (EV/SD)^2, signed as EV".into(),
            [
                fixed_cell(c.score, 2, "score"),
                fixed_cell(c.score_se, 2, "score"),
                fixed_cell(o.score, 2, "score"),
                opt(o.score_se, 2, "score"),
            ],
        ),
        (
            "N0 = (SD/EV)^2, in rounds of its column".into(),
            [
                fixed_cell(c.n0, 0, "rounds"),
                fixed_cell(c.n0_se, 0, "rounds"),
                fixed_cell(o.n0, 0, "rounds"),
                opt(o.n0_se, 0, "rounds"),
            ],
        ),
        (
            "DI = 1000 EV/SD".into(),
            [
                fixed_cell(c.di, 3, "index"),
                fixed_cell(c.di_se, 3, "index"),
                fixed_cell(o.di, 3, "index"),
                opt(o.di_se, 3, "index"),
            ],
        ),
        (
            "rounds".into(),
            [
                count_cell(c.rounds_played),
                none(),
                count_cell(c.rounds_observed),
                none(),
            ],
        ),
    ];
    if let Some(h) = &c.hourly {
        both.extend(hourly_rows(h, o));
    }
    for (label, [a, b, x, y]) in both {
        s.row([Cell::from(label), a, b, x, y]);
    }
    for (label, value, se) in played_only_rows(c) {
        s.row([Cell::from(label), value, se, none(), none()]);
    }
    s
}

/// The hourly rows of the counting table: per round played (the rounds played an hour) and
/// per round observed (the rounds dealt an hour, those sat out netting 0).
fn hourly_rows(h: &Hourly, o: &PerRoundObserved) -> [(String, [Cell; 4]); 3] {
    let none = || Cell::from("");
    [
        (
            format!(
                "EV per hour ({} rounds dealt an hour, {:.1} played)",
                h.rounds_per_hour, h.rounds_played_per_hour
            ),
            [
                fixed_cell(h.ev_per_hour, 3, "bets"),
                none(),
                fixed_cell(o.ev_per_hour, 3, "bets"),
                none(),
            ],
        ),
        (
            "SD per hour".into(),
            [
                fixed_cell(h.sd_per_hour, 2, "bets"),
                none(),
                fixed_cell(o.sd_per_hour, 2, "bets"),
                none(),
            ],
        ),
        (
            "hours to N0".into(),
            [
                fixed_cell(h.hours_to_n0, 0, "hours"),
                none(),
                fixed_cell(o.hours_to_n0, 0, "hours"),
                none(),
            ],
        ),
    ]
}

/// The counting table's rows per round or bet played only: the advantage, the main bet's EV
/// and SD, the average bet and the certainty equivalent.
fn played_only_rows(c: &CountingModel) -> Vec<(String, Cell, Cell)> {
    let mut rows: Vec<(String, Cell, Cell)> = vec![
        (
            "advantage (EV per initial bet staked, main bets and insurance)".into(),
            pct_cell(c.advantage, 4),
            pct_cell(c.advantage_se, 4),
        ),
        (
            "EV per initial bet, main bet only".into(),
            pct_cell(c.main_ev.mean, 4),
            pct_cell(c.main_ev.se, 4),
        ),
        (
            "average bet (initial bets per seat-round played)".into(),
            fixed_cell(c.avg_bet, 3, "bets"),
            fixed_cell(c.avg_bet_se, 3, "bets"),
        ),
        (
            "SD per seat-round, main bet only".into(),
            fixed_cell(c.main_sd, 4, "bets"),
            "".into(),
        ),
    ];
    if let Some(m) = &c.metrics {
        rows.push((
            "count metrics BC / PE / IC (these rules, basic chart; `strategies metrics`)".into(),
            Cell::from(format!(
                "{:.3} / {:.3} / {:.3}",
                m.betting_correlation, m.playing_efficiency, m.insurance_correlation
            )),
            "".into(),
        ));
    }
    if let Some(ce) = &c.certainty_equivalent {
        rows.extend([
            (
                format!(
                    "certainty equivalent per round (bankroll {}, {} Kelly: {})",
                    ce.bankroll, ce.kelly, CE_FORMULA
                ),
                fixed_cell(ce.per_round, 5, "bets"),
                "".into(),
            ),
            (
                "certainty equivalent per hour".into(),
                fixed_cell(ce.per_hour, 3, "bets"),
                "".into(),
            ),
        ]);
    }
    rows
}

/// The bankroll for a target risk of ruin with its check trips, and the risk of ruin by
/// bankroll around it.
fn ror_target_sections(t: &RorTarget) -> [Section; 2] {
    let mut s = Section::new(
        &format!(
            "Bankroll for a risk of ruin of {}% (table minimums)",
            crate::report::pct_text(t.target_ror)
        ),
        &["quantity", "value", "SE"],
    );
    let opt_pct = |x: Option<f64>| x.map_or(Cell::from("n/a"), |x| pct_cell(x, 2));
    s.row([
        Cell::from(format!("bankroll ({ROR_FORMULA})")),
        t.bankroll.map_or(Cell::from("n/a (EV not above 0)"), |b| {
            fixed_cell(b, 0, "bets")
        }),
        "".into(),
    ]);
    s.row([
        Cell::from(format!(
            "ruined before {} times the bankroll (formula)",
            t.ceiling
        )),
        opt_pct(t.formula_same_event),
        "".into(),
    ]);
    s.row([
        Cell::from(format!(
            "ruined before {} times the bankroll (simulated, {} trips)",
            t.ceiling, t.trips
        )),
        opt_pct(t.simulated),
        opt_pct(t.simulated_se),
    ]);
    let mut c = Section::new(
        "Risk of ruin by bankroll (formula, ever)",
        &["bankroll (x the target's)", "bankroll", "risk of ruin"],
    );
    for p in &t.curve {
        c.row([
            fixed_cell(p.multiple, 2, "ratio"),
            fixed_cell(p.bankroll, 0, "bets"),
            pct_cell(p.ror, 3),
        ]);
    }
    [s, c]
}

fn ruin_section(ror: &Ror) -> Section {
    let mut s = Section::new(
        &format!(
            "Risk of ruin of a bankroll of {} table minimums",
            ror.bankroll
        ),
        &["ruin", "probability", "SE"],
    );
    s.row([
        "ever (formula)".into(),
        pct_cell(ror.formula_lifetime, 2),
        "".into(),
    ]);
    s.row([
        format!("within a trip of {} rounds (formula)", ror.trip_rounds).into(),
        pct_cell(ror.formula_trip, 2),
        "".into(),
    ]);
    match (ror.simulated_trip, ror.simulated_trip_se) {
        (Some(p), Some(se)) => s.row([
            format!("within a trip (simulated, {} trips)", ror.trips).into(),
            pct_cell(p, 2),
            pct_cell(se, 2),
        ]),
        _ => s.row([
            Cell::from("within a trip (simulated)"),
            Cell::from("no trip completed"),
            Cell::from(""),
        ]),
    }
    s
}

fn exposure_section(c: &CountingModel) -> Section {
    let mut s = Section::new(
        &format!(
            "Operator exposure: wagers that pay at some {} (EV above 0 by 1.96 SE; counts with at least {}% of rounds)",
            c.count_key,
            EXPOSURE_MIN_SHARE * 100.0
        ),
        &[
            "wager",
            "paying counts",
            "share",
            "EV there",
            "SE",
            "won/shoe",
            "SE",
        ],
    );
    for e in &c.exposure {
        let counts: Vec<String> = e.positive_counts.iter().map(|t| format!("{t:+}")).collect();
        s.row([
            Cell::from(e.wager.as_str()),
            Cell::from(if e.wager.starts_with("pairs, to a player") {
                "exact EV >= 0".to_string()
            } else if counts.is_empty() {
                "none".to_string()
            } else {
                counts.join(" ")
            }),
            pct_cell(e.share, 2),
            e.ev.map_or("".into(), |x| pct_cell(x, 3)),
            e.se.map_or("".into(), |x| pct_cell(x, 3)),
            e.per_shoe.map_or("".into(), |x| fixed_cell(x, 4, "units")),
            e.per_shoe_se
                .map_or("".into(), |x| fixed_cell(x, 4, "units")),
        ]);
    }
    s
}

/// The EV, bet and operator exposure at each count (empty cells where the counter sat out).
fn by_count_section(c: &CountingModel) -> Section {
    let mut s = Section::new(
        &format!(
            "EV by {} (per initial bet of the rounds played)",
            c.count_key
        ),
        &[
            "count",
            "share",
            "played",
            "bet",
            "EV",
            "SE",
            "95% CI",
            "insurance EV",
            "pairs EV",
        ],
    );
    for row in &c.by_true_count {
        let played = row.played > 0;
        let [ev, se, ci] = if played {
            pct_estimate_cells(row.ev, row.se, row.ci95, 3)
        } else {
            Default::default()
        };
        s.row([
            Cell::from(count_label(row.tc, " ")),
            pct_cell(row.share, 2),
            count_cell(row.played),
            if played {
                fixed_cell(row.bet, 2, "bets")
            } else {
                "out".into()
            },
            ev,
            se,
            ci,
            match row.insurance_ev {
                Some(x) => pct_cell(x, 2),
                None => "".into(),
            },
            pct_cell(row.pairs_ev, 2),
        ]);
    }
    s
}
