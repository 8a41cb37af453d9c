//! The dossier as tables, metadata and notes.

use super::super::distribution::TINY;
use super::{AuditModel, ClaimLine, Tier, SIMULATED_TIERS};
use crate::audit::{interval_cell, needed_section, text_section};
use crate::report::{fixed, pct, pct_cell, Cell, Report, Section};
use crate::stats::format_p;

pub(super) fn net_label(x: f64) -> String {
    if x == x.round() {
        format!("{x:+.0}")
    } else {
        format!("{x:+}")
    }
}

/// How far an interrupted dossier's simulation got: "1 of 2 tiers simulated, 1 in part".
fn tiers_simulated(m: &AuditModel) -> String {
    let whole = m.simulation.iter().filter(|s| !s.interrupted).count();
    let part = m.simulation.len() - whole;
    let mut t = format!("{whole} of {SIMULATED_TIERS} tiers simulated");
    if part > 0 {
        t += &format!(", {part} in part");
    }
    t
}

/// The dossier as tables and notes (Markdown, table, CSV, HTML); the JSON is the model.
pub fn render(m: &AuditModel) -> Report {
    let mut r = Report {
        title: title(m),
        meta: meta_lines(m),
        ..Default::default()
    };
    r.sections.extend([
        text_section("Rules as dealt", ["rule", "as dealt"], &m.rules_as_dealt),
        text_section("Definitions", ["term", "meaning"], &m.definitions),
        tiers_section(m),
        distribution_section(m),
        wagers_section(m),
        methods_section(m),
    ]);
    r.sections
        .extend(crate::sidebet::exact_sections(&m.side_bets));
    if !m.simulation.is_empty() {
        r.sections.extend([
            cross_check_section(m),
            simulated_wagers_section(m),
            histogram_section(m),
        ]);
    }
    if !m.typical_players.is_empty() {
        r.sections.push(players_section(m));
    }
    r.sections.push(needed_section(
        "Rounds needed to resolve the RTP",
        "± precision",
        "rounds",
        &m.rounds_needed,
        |p| Cell::num(pct(p, 2), p, "fraction"),
    ));
    if let Some(c) = &m.claim {
        r.sections.push(separation_section(m, c));
    }
    r.sections.push(bands_section(m));
    if m.claim.is_some() {
        r.sections.push(changes_section(m));
    }
    r.notes = notes(m);
    // The terminal shows the answer first: the claim, the tiers, every wager, the simulation
    // against exact, typical players and what would change the verdict; the rest in full and
    // in the files.
    r.full_only(&[
        "Rules as dealt",
        "Definitions",
        "Distribution of one round",
        "How each wager is valued",
        "Simulated wagers against",
        "Simulated histogram",
        "Rounds needed",
        "Rounds to tell the claim",
        "Acceptance bands",
    ]);
    r.head_only("What would make the claim true", 6);
    r.head_only("Rule changes against the claim", 6);
    r.notes_full_only("Assumption:");
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The title; an interrupted dossier says how far its simulation got.
fn title(m: &AuditModel) -> String {
    if m.identity.interrupted {
        format!(
            "rtplab RTP verification dossier: blackjack (INTERRUPTED: {})",
            tiers_simulated(m)
        )
    } else {
        "rtplab RTP verification dossier: blackjack".into()
    }
}

/// The identity of the run: tool, rules, strategies, seed, rounds, time, the claim's verdict.
fn meta_lines(m: &AuditModel) -> Vec<(String, String)> {
    let id = &m.identity;
    let mut meta = vec![
        ("tool".into(), format!("{} {}", id.tool, id.version)),
        ("git commit".into(), id.git_commit.into()),
        ("build profile".into(), id.build_profile.into()),
        ("rules".into(), m.rules.to_string()),
        (
            "rules hash (FNV-1a of the rules' JSON)".into(),
            id.rules_hash.clone(),
        ),
    ];
    meta.extend(id.strategies.iter().map(|(t, name, hash)| {
        (
            format!("strategy, {t} tier"),
            match hash {
                Some(h) => format!("{name} (chart hash {h})"),
                None => name.clone(),
            },
        )
    }));
    meta.extend([
        ("seed".into(), id.seed.to_string()),
        ("RNG".into(), id.rng.into()),
        ("simulated rounds per tier".into(), rounds_line(m)),
        ("shards merged".into(), id.shards_merged.to_string()),
        (
            "time".into(),
            format!(
                "exact {:.2} s (strategy tiers {:.2} s, rule changes {:.2} s), simulation {:.1} s",
                id.exact_seconds,
                id.tiers_seconds,
                id.exact_seconds - id.tiers_seconds,
                id.simulation_seconds
            ),
        ),
    ]);
    meta.extend(m.claim.as_ref().map(|c| ("claim".into(), claim_line(c))));
    meta.extend(m.no_claim.clone().map(|n| ("claim".into(), n)));
    meta
}

/// The simulated rounds per tier, or none, or how far an interrupted simulation got.
fn rounds_line(m: &AuditModel) -> String {
    let id = &m.identity;
    if id.rounds_per_tier == 0 {
        "none (exact analysis only)".into()
    } else if id.interrupted {
        format!(
            "{} requested; interrupted: {} (see Simulation cross-check)",
            crate::report::count(id.rounds_per_tier),
            tiers_simulated(m)
        )
    } else {
        crate::report::count(id.rounds_per_tier)
    }
}

/// The claim, what it is per, and its verdict.
fn claim_line(c: &ClaimLine) -> String {
    format!(
        "{} RTP per {} on the {} ({} tier): {}",
        pct(c.claimed, 2),
        c.per,
        c.wager,
        c.tier.as_str(),
        c.verdict
    )
}

/// Each tier's exact EV, RTPs, SD, volatility indices, frequencies and largest win.
fn tiers_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Strategy tiers (exact)",
        &[
            "tier",
            "strategy",
            "EV",
            "RTP per initial bet",
            "RTP per total wagered",
            "SD",
            "VI 90%",
            "VI 95%",
            "VI 99%",
            "hit freq.",
            "push freq.",
            "largest win (P)",
        ],
    );
    for t in &m.tiers {
        let vi = &t.volatility_index;
        let mut row = vec![
            Cell::from(t.tier.as_str().to_string()),
            t.strategy.clone().into(),
            pct_cell(t.ev_exact, 4),
            pct_cell(t.rtp_exact, 4),
            pct_cell(t.rtp_total_wagered_exact, 4),
            Cell::num(fixed(t.sd, 4), t.sd, "bets"),
        ];
        row.extend([vi.p90, vi.p95, vi.p99].map(|v| Cell::num(fixed(v, 3), v, "bets")));
        row.extend([
            pct_cell(t.hit_frequency, 3),
            pct_cell(t.push_frequency, 3),
            Cell::num(
                format!("{} ({:.3e})", net_label(t.largest_win), t.largest_win_p),
                t.largest_win,
                "bets",
            ),
        ]);
        s.row(row);
    }
    s
}

/// One round's net result: each tier's exact probability of every value any tier can take.
fn distribution_section(m: &AuditModel) -> Section {
    let mut nets: Vec<f64> = m
        .tiers
        .iter()
        .flat_map(|t| t.distribution.iter().map(|d| d.net))
        .collect();
    nets.sort_by(f64::total_cmp);
    nets.dedup();
    let cols: Vec<String> = std::iter::once("net (bets)".to_string())
        .chain(m.tiers.iter().map(|t| format!("P, {}", t.tier.as_str())))
        .collect();
    let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
    let mut s = Section::new("Distribution of one round's net result (exact)", &cols);
    for &x in &nets {
        let mut row = vec![Cell::num(net_label(x), x, "bets")];
        for t in &m.tiers {
            let p = t
                .distribution
                .iter()
                .find(|d| d.net == x)
                .map_or(0.0, |d| d.p);
            row.push(Cell::num(format!("{p:.8}"), p, "probability"));
        }
        s.row(row);
    }
    s
}

/// Every wager's exact RTP and SD, and how it was found.
fn wagers_section(m: &AuditModel) -> Section {
    let mut s = Section::new("Every wager (exact)", &["wager", "tier", "RTP", "SD"]);
    for w in &m.wagers {
        s.row([
            Cell::from(w.wager.clone()),
            w.tier
                .map_or("any".to_string(), |t| t.as_str().into())
                .into(),
            pct_cell(w.rtp_exact, 4),
            Cell::num(fixed(w.sd, 4), w.sd, "bets"),
        ]);
    }
    s
}

/// How each wager's exact RTP is found, once per wager (the tiers share the method).
fn methods_section(m: &AuditModel) -> Section {
    let mut s = Section::new("How each wager is valued", &["wager", "method"]);
    let mut seen = std::collections::HashSet::new();
    for w in m.wagers.iter().filter(|w| seen.insert(&w.wager)) {
        s.row([Cell::from(w.wager.clone()), w.method.clone().into()]);
    }
    s
}

/// Each simulated tier's EV with its intervals, against the exact EV and the claim.
fn cross_check_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Simulation cross-check",
        &[
            "tier",
            "rounds",
            "EV",
            "SE",
            "95% CI",
            "99% CI",
            "z vs exact",
            "chi-square (df, p)",
            "z vs claim",
        ],
    );
    for x in &m.simulation {
        s.row([
            Cell::from(x.tier.as_str().to_string()),
            crate::report::count_cell(x.rounds),
            pct_cell(x.ev, 4),
            pct_cell(x.se, 4),
            interval_cell(x.ci95, |v| pct(v, 4), "fraction"),
            interval_cell(x.ci99, |v| pct(v, 4), "fraction"),
            Cell::num(format!("{:+.2}", x.z_vs_exact), x.z_vs_exact, "z"),
            match &x.chi_square {
                Some(c) => Cell::num(
                    format!("{:.2} ({}, {})", c.statistic, c.df, format_p(c.p)),
                    c.statistic,
                    "chi-square",
                ),
                None => Cell::from("n/a (resplits approximated)".to_string()),
            },
            x.z_vs_claim.map_or(Cell::from("-".to_string()), |z| {
                Cell::num(format!("{z:+.1}"), z, "z")
            }),
        ]);
    }
    s
}

/// The side wagers and the bet behind as simulated, against their exact RTP.
fn simulated_wagers_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Simulated wagers against their exact RTP",
        &[
            "tier",
            "wager",
            "bets",
            "RTP simulated",
            "SE",
            "RTP exact",
            "z",
        ],
    );
    for x in &m.simulation {
        for w in &x.wagers {
            s.row([
                Cell::from(x.tier.as_str().to_string()),
                w.wager.clone().into(),
                crate::report::count_cell(w.bets),
                pct_cell(w.rtp, 3),
                pct_cell(w.se, 3),
                pct_cell(w.rtp_exact, 4),
                Cell::num(format!("{:+.2}", w.z_vs_exact), w.z_vs_exact, "z"),
            ]);
        }
    }
    s
}

/// Each simulated tier's histogram of one round's net beside the exact probabilities.
fn histogram_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Simulated histogram beside the exact distribution",
        &["tier", "net (bets)", "rounds", "P simulated", "P exact"],
    );
    for x in &m.simulation {
        for h in &x.histogram {
            s.row([
                Cell::from(x.tier.as_str().to_string()),
                Cell::num(net_label(h.net), h.net, "bets"),
                crate::report::count_cell(h.count),
                Cell::num(format!("{:.6}", h.p_sim), h.p_sim, "probability"),
                Cell::num(format!("{:.6}", h.p_exact), h.p_exact, "probability"),
            ]);
        }
    }
    s
}

/// The rounds a test needs to tell the claim from each tier's exact RTP.
fn separation_section(m: &AuditModel, c: &ClaimLine) -> Section {
    let mut s = Section::new(
        "Rounds to tell the claim from the exact RTP (a test at level L rejecting it with probability L)",
        &["tier", "exact RTP", "claim − exact", "95%", "99%"],
    );
    for t in &m.tiers {
        let at = |level: f64| {
            m.separation
                .iter()
                .find(|x| x.tier == t.tier && x.level == level)
                .map_or(f64::NAN, |x| x.rounds)
        };
        s.row([
            Cell::from(t.tier.as_str().to_string()),
            pct_cell(t.rtp_exact, 4),
            pct_cell(c.claimed - t.rtp_exact, 4),
            Cell::num(crate::audit::count_text(at(0.95)), at(0.95), "rounds"),
            Cell::num(crate::audit::count_text(at(0.99)), at(0.99), "rounds"),
        ]);
    }
    s
}

/// Where the observed RTP per total wagered of a fair game lies after 10³ to 10⁹ rounds.
fn bands_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Acceptance bands of the observed RTP per total wagered",
        &["rounds", "expected", "95%", "99%", "99.9%"],
    );
    for k in 3..=9u32 {
        let n = 10u64.pow(k);
        let mut row = vec![
            crate::report::count_cell(n),
            Cell::from(format!(
                "{} ({} tier)",
                pct(m.monitoring.rtp_total_wagered, 4),
                m.monitoring.tier.as_str()
            )),
        ];
        for level in [0.95, 0.99, 0.999] {
            if let Some(b) = m
                .acceptance_bands
                .iter()
                .find(|b| b.rounds == n && b.level == level)
            {
                row.push(Cell::range(
                    format!("[{}, {}]", pct(b.lo, 3), pct(b.hi, 3)),
                    b.lo,
                    b.hi,
                    "fraction",
                ));
            }
        }
        s.row(row);
    }
    s
}

/// The rule changes that would make the claim true, and the single changes that would not;
/// for a claim that already holds as dealt, each single change and whether the claim still
/// holds under it.
fn changes_section(m: &AuditModel) -> Section {
    let holds = m.claim.as_ref().is_some_and(|c| c.reachable);
    let mut s = Section::new(
        if holds {
            "Rule changes against the claim (it holds as dealt)"
        } else {
            "What would make the claim true"
        },
        &[
            "rule change(s)",
            "RTP optimal",
            "RTP basic",
            if holds {
                "still reaches the claim"
            } else {
                "reaches the claim"
            },
            "tier",
        ],
    );
    // Every change that reaches the claim, and the single changes that do not (the pairs
    // that do not are in the JSON).
    for x in m
        .what_would_make_claim_true
        .iter()
        .filter(|x| x.reaches_claim || x.changes.len() == 1)
    {
        s.row([
            Cell::from(match &x.note {
                Some(n) => format!("{} ({n})", x.changes.join(" + ")),
                None => x.changes.join(" + "),
            }),
            pct_cell(x.rtp_optimal, 4),
            x.rtp_basic
                .map_or(Cell::from("-".to_string()), |b| pct_cell(b, 4)),
            Cell::from(if x.reaches_claim { "yes" } else { "no" }.to_string()),
            Cell::from(x.tier.map_or("-".to_string(), |t| t.as_str().into())),
        ]);
    }
    s
}

/// The notes: each tier's approximation, the assumptions, the rule changes, monitoring.
fn notes(m: &AuditModel) -> Vec<String> {
    let mut notes: Vec<String> = m.tiers.iter().filter_map(approximation_note).collect();
    notes.extend(m.assumptions.iter().map(|a| format!("Assumption: {a}")));
    if let Some(c) = &m.claim {
        let n = m
            .what_would_make_claim_true
            .iter()
            .filter(|x| x.reaches_claim)
            .count();
        notes.push(if c.reachable {
            format!(
                "The claimed {} holds under the rules as dealt; {n} of {} single rule changes keep it under optimal play, and the others take the RTP below it (exact analysis of each changed rule set).",
                pct(c.claimed, 2),
                m.what_would_make_claim_true.len()
            )
        } else {
            format!(
                "What would make the claimed {} true: {n} of {} rule changes reach it under optimal play: single changes, and pairs of changes that each raise the RTP but fall short alone (exact analysis of each changed rule set; the basic chart derived for the changed rules where optimal play reaches it).",
                pct(c.claimed, 2),
                m.what_would_make_claim_true.len()
            )
        });
    }
    notes.extend(players_note(m));
    notes.push(format!(
        "Monitoring: {}; `rtplab monitor --expected report.json LOG.csv` checks live periods against it.",
        m.monitoring.note
    ));
    notes
}

/// Basic strategy with each preset's mistakes, simulated, beside the exact tiers.
fn players_section(m: &AuditModel) -> Section {
    let mut s = Section::new(
        "Typical players: basic strategy with mistakes (simulated)",
        &[
            "preset",
            "rounds",
            "RTP",
            "SE",
            "95% CI",
            "vs optimal",
            "vs basic",
            "insurance",
        ],
    );
    for p in &m.typical_players {
        s.row([
            Cell::from(p.preset.clone()),
            crate::report::count_cell(p.rounds),
            pct_cell(p.rtp, 3),
            pct_cell(p.se, 3),
            interval_cell(p.ci95, |v| pct(v, 3), "fraction"),
            pct_cell(p.vs_optimal, 3),
            pct_cell(p.vs_basic, 3),
            pct_cell(p.insurance, 3),
        ]);
    }
    s
}

/// The gap between the advertised maximum and what typical players get, in a sentence.
fn players_note(m: &AuditModel) -> Option<String> {
    let players = &m.typical_players;
    let (first, last) = (players.first()?, players.last()?);
    let optimal = m.tiers.first()?;
    let basic = m.tiers.iter().find(|t| t.tier == super::TierName::Basic)?;
    let (top, what) = match &m.claim {
        Some(c) => (
            c.claimed,
            format!("the advertised maximum is {}", pct(c.claimed, 2)),
        ),
        None => (optimal.rtp_exact, "no maximum is claimed".to_string()),
    };
    let names: Vec<&str> = players.iter().map(|p| p.preset.as_str()).collect();
    let rtps: Vec<String> = players.iter().map(|p| pct(p.rtp, 2)).collect();
    Some(format!(
        "What a table returns: {what}; optimal play returns {} and basic strategy {}; basic strategy with the mistakes of the {} presets (docs/mistakes.md) returns {} (SE about {}; {} rounds each, seed {}, the main bet per initial bet, insurance taken by mistake apart): {} to {} below {}.",
        pct(optimal.rtp_exact, 4),
        pct(basic.rtp_exact, 4),
        names.join(", "),
        rtps.join(", "),
        pct(first.se, 2),
        crate::report::count(first.rounds),
        first.seed,
        pct(top - first.rtp, 2),
        pct(top - last.rtp, 2),
        if m.claim.is_some() { "the advertised maximum" } else { "optimal play" },
    ))
}

/// How far a tier's distribution is from its exact EV, and why; none if it is not.
fn approximation_note(t: &Tier) -> Option<String> {
    let a = &t.approximation;
    let mut parts = Vec::new();
    if a.resplit_mass > 0.0 {
        parts.push(format!(
            "resplit rounds not enumerated: P ≤ {:.2e}",
            a.resplit_mass
        ));
    }
    if a.tiny_mass > 0.0 {
        parts.push(format!(
            "split rounds below {TINY:e} with the dealer approximated: P ≤ {:.2e}",
            a.tiny_mass
        ));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "{} tier: the distribution's mean differs from the exact EV by {:.1e} ({}).",
            t.tier.as_str(),
            a.mean_minus_ev,
            parts.join("; ")
        )
    })
}
