//! The bets report: the sheet by count, the sheet's figures, and how it was found.

use super::{BetsModel, Figures};
use crate::report::{count_cell, fixed, fixed_cell, pct, pct_cell, Cell, Report, Section};

/// An amount of money with two decimals when it has cents, grouped by thousands.
pub fn money(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    let cents = (v * 100.0).round();
    let whole = (cents.abs() / 100.0).floor();
    let sign = if cents < 0.0 { "-" } else { "" };
    let grouped = crate::report::group_digits(&format!("{whole:.0}"));
    if cents.abs() % 100.0 == 0.0 {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{:02}", (cents.abs() % 100.0) as u64)
    }
}

fn money_cell(v: f64) -> Cell {
    Cell::num(money(v), v, "money")
}

/// The sheet: each count's share of the rounds played, EV per unit, the Kelly-shaped bet
/// before the limits, and the bet in money and in table minimums.
fn sheet_section(m: &BetsModel) -> Section {
    let mut s = Section::new(
        &format!("Bet sheet by {}", m.table.count_key),
        &[
            "count",
            "share of rounds played",
            "EV per unit",
            "SE",
            "before limits and chips",
            "bet",
            "bet (table minimums)",
        ],
    );
    let last = m.sheet.len().saturating_sub(1);
    for (i, r) in m.sheet.iter().enumerate() {
        // The first and last rows hold every count beyond them.
        let label = match (i, r.tc) {
            (0, k) if last > 0 => format!("<= {k:+}"),
            (i, k) if i == last && last > 0 => format!(">= {k:+}"),
            (_, k) => format!("{k:+}"),
        };
        let (ev, se) = if r.played > 0 {
            (pct_cell(r.ev, 3), pct_cell(r.se, 3))
        } else {
            (Cell::from("not played"), Cell::from(""))
        };
        s.row([
            Cell::from(label),
            pct_cell(r.share, 2),
            ev,
            se,
            fixed_cell(r.kelly_bet, 2, "money"),
            money_cell(r.bet),
            fixed_cell(r.bet_units, 2, "table minimums"),
        ]);
    }
    s
}

/// The sheet's figures: per round and per hour, the risks, N0, SCORE.
fn figures_section(m: &BetsModel) -> Section {
    let f: &Figures = &m.figures;
    let mut s = Section::new("What the sheet gives", &["figure", "value"]);
    let mut add = |name: String, c: Cell| s.row([Cell::from(name), c]);
    add(
        "EV per round played".into(),
        fixed_cell(f.ev_per_round, 3, "money"),
    );
    add(
        "SE of the EV (the table's)".into(),
        fixed_cell(f.ev_per_round_se, 3, "money"),
    );
    add("SD per round played".into(), money_cell(f.sd_per_round));
    add("average bet".into(), money_cell(f.avg_bet));
    add(
        format!(
            "EV per hour ({} rounds played)",
            fixed(f.rounds_played_per_hour, 1)
        ),
        money_cell(f.ev_per_hour),
    );
    add("SD per hour".into(), money_cell(f.sd_per_hour));
    add(
        format!("risk of ruin, ever, of {}", money(m.money.bankroll)),
        pct_cell(f.ror, 3),
    );
    add(
        "the same at the EV 2 SE above and below".into(),
        Cell::range(
            format!("[{}, {}]", pct(f.ror_range[0], 2), pct(f.ror_range[1], 2)),
            f.ror_range[0],
            f.ror_range[1],
            "fraction",
        ),
    );
    if let Some(t) = &f.trip {
        add(
            format!(
                "risk of ruin within a trip of {} rounds ({} hours), formula",
                crate::report::count(t.rounds),
                fixed(t.hours, 1)
            ),
            pct_cell(t.ror, 2),
        );
        if let Some(sim) = &t.simulated {
            add(
                format!(
                    "the same, simulated ({} trips; SE {})",
                    crate::report::count(sim.trips),
                    pct(sim.se, 2)
                ),
                pct_cell(sim.share, 2),
            );
        }
    }
    add("N0 (rounds)".into(), fixed_cell(f.n0_rounds, 0, "rounds"));
    add("N0 (hours)".into(), fixed_cell(f.n0_hours, 1, "hours"));
    add(
        "SCORE (signed as EV)".into(),
        fixed_cell(f.score, 2, "score"),
    );
    if let (Some(seed), Some(sc)) = (m.second_seed, m.score_second_seed) {
        add(
            format!("SCORE of the same bets on seed {seed}'s table (not fitted)"),
            fixed_cell(sc, 2, "score"),
        );
    }
    add(
        "multiple of Kelly (before limits and chips)".into(),
        fixed_cell(m.kelly_fraction, 3, "Kelly"),
    );
    if let Some(t) = m.target_ror {
        let b = f
            .bankroll_for_target
            .map_or(Cell::from("n/a (EV not above 0)"), money_cell);
        add(format!("bankroll for {} with these bets", pct(t, 2)), b);
    }
    if let Some(n) = &m.next_sheet {
        add(
            "risk of ruin of the next sheet up (one chip more)".into(),
            pct_cell(n.ror, 3),
        );
    }
    add("sheets tried".into(), count_cell(m.sheets_tried as u64));
    s
}

/// How the sheet was found and what the figures mean.
pub(super) fn notes(m: &BetsModel) -> Vec<String> {
    let mo = &m.money;
    let mut v = vec![format!(
        "Bets: Kelly's shape, the EV over the variance per unit at each count (0 where the EV is not above 0: the table minimum, playing every round dealt), made non-decreasing by a weighted monotone fit so that no bet falls as the count rises; times one scale; clipped to the table ({} to {}); rounded to the nearest bet of the table minimum plus whole chips of {}{}.",
        money(mo.table_min),
        money(mo.table_max),
        money(mo.chip),
        if mo.chip_divides_min() {
            String::new()
        } else {
            " (the chip does not divide the minimum: bets are the minimum plus chips, not multiples of the chip)".into()
        }
    )];
    match (m.target_ror, m.target_met) {
        (Some(t), true) => v.push(format!(
            "Scale: every scale at which a bet changes was tried ({} sheets); the sheet is the one of the largest scale whose lifetime risk of ruin e^(-2 EV B / Var), with EV and Var per round from the table, is not above {}: it has {}.{}",
            m.sheets_tried,
            pct(t, 2),
            pct(m.figures.ror, 3),
            match &m.next_sheet {
                Some(n) => format!(" The next sheet up has {}.", pct(n.ror, 3)),
                None => " Every bet at a count of positive EV is the table maximum: the maximum, not the target, binds.".into(),
            }
        )),
        (Some(t), false) => v.push(format!(
            "Target not reached: no sheet of these bets has a lifetime risk of ruin of {} or less with {}; this is the sheet of least risk ({}). Raise the bankroll (these bets need {}), lower the table minimum's cost by sitting out negative counts (--wong-out; with a table from --from, a run made with it), or accept more risk.",
            pct(t, 2),
            money(mo.bankroll),
            pct(m.figures.ror, 2),
            m.figures.bankroll_for_target.map_or("more: their EV is not above 0".into(), money)
        )),
        (None, _) => v.push(format!(
            "Kelly: the bets are {} x the bankroll x EV/variance at each count before the table's limits and chips.",
            fixed(m.kelly_fraction, 3)
        )),
    }
    if m.figures.ev_per_round < 0.0 {
        v.push(format!(
            "This sheet loses: its EV is {} a round played, so ruin is certain in the long run (lifetime risk 100%) whatever the bankroll. Bets that gain need a wider spread, or sitting out the negative counts (--wong-out; with a table from --from, a run made with it).",
            money(m.figures.ev_per_round)
        ));
    }
    if m.pool_se > 0.0 {
        v.push(format!(
            "Tails pooled: a first or last count whose EV has an SE above {} is merged into its neighbour toward the middle ({} merged), as in `strategies ramp`; --pool-se 0 pools none.",
            pct(m.pool_se, 2),
            crate::report::plural(m.rows_pooled as u64, "row")
        ));
    }
    if let Some(seed) = m.second_seed {
        v.push(format!(
            "Fit and test: the sheet is sized on the table of the run's seed; the same bets are scored again on an independent table from seed {seed}, which the sizing never saw: a SCORE that falls there is the first table's noise fitted."
        ));
    }
    v.push("The risk of ruin is a steep function of the EV, which the table knows only to its SE (each row's SE from its variance and rounds, the rows taken as independent): the range is the risk at the EV 2 SE above and below. A longer table run (--rounds) narrows it.".into());
    let points: Vec<(i32, f64)> = m.sheet.iter().map(|r| (r.tc, r.bet)).collect();
    v.push(crate::games::blackjack::ramp::jump_words(
        crate::games::blackjack::ramp::largest_jump(&points),
        "the sheet",
    ));
    v.push("Figures per round played, insurance not included (the main bet's EV and variance per unit at each count of the table). Hourly figures: the rounds dealt per hour times the share of them played. N0 = (SD/EV)^2 rounds; SCORE = 10^6 (EV/SD)^2, signed as EV. A trip's risk adds the finite-horizon term; simulated trips draw each round's count from the table's shares and its net from a two-point law with the count's EV and variance.".into());
    if let (Some(u), Some(r)) = (m.ramp_unit, &m.ramp) {
        v.push(format!(
            "As a ramp of units of {} (--bets-out writes it): {r}. Play it with `rtplab sim blackjack --ramp FILE --bankroll {}` and the table run's rules and counting options; sim's table minimums are then units of {}.",
            money(u),
            (mo.bankroll / u).floor(),
            money(u)
        ));
    }
    if let Some(mark) = m.table.marker() {
        v.push(format!(
            "{mark}: the bets are sized on this table, and a whole run's may differ."
        ));
    }
    v
}

/// The report of a bets model.
pub fn render(m: &BetsModel) -> Report {
    let mut r = Report {
        title: "rtplab blackjack: bets in money".into(),
        ..Default::default()
    };
    r.meta = m.table.meta();
    let mo = &m.money;
    r.meta.push((
        "money".into(),
        format!(
            "bankroll {}, table {} to {}, chips of {}",
            money(mo.bankroll),
            money(mo.table_min),
            money(mo.table_max),
            money(mo.chip)
        ),
    ));
    r.meta.push((
        "sizing".into(),
        match m.target_ror {
            Some(t) => format!("lifetime risk of ruin at most {}", pct(t, 2)),
            None => format!("{} Kelly", fixed(m.kelly_fraction, 3)),
        },
    ));
    r.sections.push(sheet_section(m));
    r.sections.push(figures_section(m));
    r.notes = notes(m);
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}
