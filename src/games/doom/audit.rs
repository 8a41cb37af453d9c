//! `rtplab audit doom`: the verification dossier of Dice of Doom in the blackjack dossier's
//! frame, with points instead of money: the identity of the run, the rules, definitions, each
//! policy tier's exact turn-score distribution, the simulation cross-check (mean and
//! chi-square), the turns needed, and games of two played to the target (length and win
//! rates, simulated).

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::exact::{solve_policy, turn_distribution, Policy};
use super::game::DoomConfig;
use super::model::Model;
use super::report::{GamesModel, SimModeModel, SimModel};
use super::rules::DoomRules;
use super::sim::Mode;
use super::{Doom, DoomError};
use crate::audit::{
    interval, interval_cell, needed, needed_section, sim_chunk, text_section, ChiSquare, Identity,
    Needed, Z95,
};
use crate::report::{count_cell, fixed, pct_cell, Cell, Report, Section};
use crate::stats::format_p;

/// What to audit.
#[derive(Clone, Debug)]
pub struct DoomAuditConfig {
    pub rules: DoomRules,
    /// The bank-at thresholds audited beside optimal play.
    pub bank_at: Vec<u32>,
    /// Simulated turns per tier (0: no turn simulation).
    pub turns: u64,
    /// Simulated two-player games per tier (0: none).
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub progress: bool,
}

/// Points and probability.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PointsP {
    pub points: u32,
    pub p: f64,
}

/// One policy, exact.
#[derive(Clone, Debug, Serialize)]
pub struct DoomTier {
    pub tier: String,
    pub turn_ev: f64,
    pub sd: f64,
    pub p_bank: f64,
    pub p_farkle: f64,
    pub p_doom: f64,
    pub median_banked: u32,
    pub p_at_least_1000: f64,
    pub p_at_least_2000: f64,
    /// The distribution of one turn's points (farkle and doom at 0).
    pub distribution: Vec<PointsP>,
    /// Turns past the solver's point cap, valued as banked there.
    pub p_capped: f64,
}

/// One simulated tier's turns beside the exact figures.
#[derive(Clone, Debug, Serialize)]
pub struct TurnSim {
    pub tier: String,
    pub turns: u64,
    pub mean: f64,
    /// Batch-means standard error over `batches` chunks; the intervals use Student's t with
    /// `batches − 1` degrees of freedom.
    pub se: f64,
    pub batches: u64,
    pub ci95: [f64; 2],
    pub ci99: [f64; 2],
    pub z_vs_exact: f64,
    pub p_doom: f64,
    pub p_farkle: f64,
    pub chi_square: ChiSquare,
    /// Bins merged so that each expects at least 5 turns: (from, to, count, expected).
    pub bins: Vec<(u32, u32, u64, f64)>,
}

/// Two-player games of one tier.
#[derive(Clone, Debug, Serialize)]
pub struct GameRow {
    pub tier: String,
    pub games: u64,
    /// Both seats play the tier.
    pub turns_per_game: f64,
    pub turns_per_game_se: f64,
    pub p_first_seat_wins: f64,
    pub p_first_seat_wins_se: f64,
    /// The tier against optimal play, seats alternating game by game (none for optimal).
    pub win_rate_vs_optimal: Option<f64>,
    pub win_rate_vs_optimal_se: Option<f64>,
}

/// The dossier; its JSON is this struct.
#[derive(Clone, Debug, Serialize)]
pub struct DoomAuditModel {
    pub game: &'static str,
    pub identity: Identity,
    pub rules: DoomRules,
    pub rules_as_dealt: Vec<(String, String)>,
    pub definitions: Vec<(String, String)>,
    pub tiers: Vec<DoomTier>,
    pub simulation: Vec<TurnSim>,
    /// Turns needed to resolve each tier's turn EV to ±1/5/10 points.
    pub turns_needed: Vec<Needed>,
    pub games: Vec<GameRow>,
    pub assumptions: Vec<String>,
}

fn tier_names(cfg: &DoomAuditConfig) -> Vec<(String, Policy)> {
    std::iter::once(("optimal".to_string(), Policy::OPTIMAL))
        .chain(
            cfg.bank_at
                .iter()
                .map(|&t| (format!("bank-at:{t}"), Policy::bank_at(t))),
        )
        .collect()
}

fn exact_tier(m: &Model, name: &str, pol: &Policy) -> DoomTier {
    let sol = solve_policy(m, pol);
    let d = turn_distribution(m, &sol);
    let pts = d.points();
    let mean: f64 = pts.iter().map(|x| x.0 as f64 * x.1).sum();
    let var: f64 = pts.iter().map(|x| (x.0 as f64 - mean).powi(2) * x.1).sum();
    let tail = |t: u32| pts.iter().filter(|x| x.0 >= t).map(|x| x.1).sum::<f64>();
    let p_bank: f64 = d.banked.values().sum();
    // The median of the banked points, among turns that bank.
    let mut acc = 0.0;
    let median_banked = d
        .banked
        .iter()
        .find(|(_, &p)| {
            acc += p;
            acc >= p_bank / 2.0
        })
        .map_or(0, |(&k, _)| k);
    DoomTier {
        tier: name.into(),
        turn_ev: sol.turn_ev,
        sd: var.sqrt(),
        p_bank,
        p_farkle: d.p_farkle,
        p_doom: d.p_doom,
        median_banked,
        p_at_least_1000: tail(1000),
        p_at_least_2000: tail(2000),
        distribution: pts
            .iter()
            .map(|&(points, p)| PointsP { points, p })
            .collect(),
        p_capped: d.p_capped,
    }
}

/// The run of `seats` in `mode` under the audit's rules and seed.
fn simulation_run(
    cfg: &DoomAuditConfig,
    seats: Vec<String>,
    mode: Mode,
) -> (DoomConfig, crate::game::RunSpec) {
    let c = DoomConfig {
        rules: cfg.rules.clone(),
        seats,
        mode,
        start_seat: None,
        table: Default::default(),
    };
    let total = match mode {
        Mode::Turns(n) | Mode::Games(n) => n,
    };
    let spec = crate::game::RunSpec {
        seed: cfg.seed,
        threads: cfg.threads,
        // The audit's own bar counts its runs: each is short.
        progress: false,
        chunk: Some(sim_chunk(total)),
        ..Default::default()
    };
    (c, spec)
}

/// A run's report model and the chunks it ran (its batches); None if stopped before any.
fn run_model(
    cfg: &DoomAuditConfig,
    seats: Vec<String>,
    mode: Mode,
    stop: &AtomicBool,
) -> Result<Option<(SimModel, u64)>, DoomError> {
    let (c, spec) = simulation_run(cfg, seats, mode);
    let run = crate::game::simulate::<Doom>(c, &spec, stop)?;
    if run.meta.chunks_done == 0 {
        return Ok(None);
    }
    Ok(Some((super::game::run_model(&run)?, run.meta.chunks_done)))
}

/// The games of a run of games (none for a run of turns).
fn games_of(m: SimModel) -> Option<GamesModel> {
    match m.mode {
        SimModeModel::Games(g) => Some(g),
        SimModeModel::Turns(_) => None,
    }
}

/// A histogram bin's bound as the audit's bins count points from 0: an unbounded or negative
/// bound is 0.
fn bound(b: Option<i64>) -> u32 {
    b.and_then(|x| u32::try_from(x).ok()).unwrap_or(0)
}

/// The turn simulation of one tier against its exact distribution.
fn turn_sim(t: &DoomTier, sm: &SimModel, batches: u64) -> TurnSim {
    let mean = sm.mean_turn_score;
    let se = sm.mean_turn_score_se;
    let turns = match &sm.mode {
        SimModeModel::Turns(x) => x.turns,
        SimModeModel::Games(_) => 0,
    };
    let hist: Vec<(u32, u32, u64)> = sm
        .turn_score_histogram
        .iter()
        .map(|b| (bound(b.from), bound(b.to), b.count))
        .collect();
    let width = u32::try_from(sm.turn_score_histogram_bin)
        .unwrap_or(50)
        .max(1);
    // Exact probability per simulated bin [from, to), then bins merged from the low end until
    // each expects at least 5 turns (the last absorbs the tail).
    let top = t.distribution.last().map_or(0, |d| d.points);
    let mut raw: Vec<(u32, u32, u64, f64)> = Vec::new();
    let mut from = 0;
    while from <= top || hist.iter().any(|h| h.0 >= from) {
        let to = from + width;
        let count = hist
            .iter()
            .filter(|h| h.0 >= from && h.0 < to)
            .map(|h| h.2)
            .sum();
        let p: f64 = t
            .distribution
            .iter()
            .filter(|d| d.points >= from && d.points < to)
            .map(|d| d.p)
            .sum();
        if count > 0 || p > 0.0 {
            raw.push((from, to, count, p * turns as f64));
        }
        from = to;
    }
    let mut bins: Vec<(u32, u32, u64, f64)> = Vec::new();
    for b in raw {
        match bins.last_mut() {
            Some(last) if last.3 < 5.0 => {
                last.1 = b.1;
                last.2 += b.2;
                last.3 += b.3;
            }
            _ => bins.push(b),
        }
    }
    if bins.len() > 1 && bins.last().is_some_and(|b| b.3 < 5.0) {
        let b = bins.pop().unwrap_or_default();
        if let Some(last) = bins.last_mut() {
            last.1 = b.1;
            last.2 += b.2;
            last.3 += b.3;
        }
    }
    let chi_square = ChiSquare::of(bins.iter().map(|b| (b.2, b.3)));
    TurnSim {
        tier: t.tier.clone(),
        turns,
        mean,
        se,
        batches,
        ci95: interval(mean, se, batches.saturating_sub(1), 0.95),
        ci99: interval(mean, se, batches.saturating_sub(1), 0.99),
        z_vs_exact: (mean - t.turn_ev) / se,
        p_doom: sm.p_doom,
        p_farkle: sm.p_farkle,
        chi_square,
        bins,
    }
}

/// Every rule in words: what it is, and its setting as a player would say it (a rule not in
/// play says so), one row a rule of the rules' JSON.
pub fn rules_as_dealt(r: &DoomRules) -> Vec<(String, String)> {
    use super::rules::{DoomWipes, EndRule, HeldDice, HotDice, KindExtras, NOfKind};
    // The rules taken apart whole, so that a rule added to `DoomRules` must be said here too.
    let DoomRules {
        preset,
        single_one,
        single_five,
        kind_unit,
        three_ones,
        n_of_kind,
        kind_extras,
        straight5,
        straight6,
        three_pairs,
        four_and_pair_is_three_pairs,
        two_triplets,
        specials_add_singles,
        held_dice,
        hot_dice,
        doom_sixes,
        doom_wipes,
        six_dice_no_score,
        min_bank,
        farkle_penalty,
        target,
        end,
        // The file the rules were read from is not a rule: the report's rules line names it.
        label: _,
    } = r;
    let points = |p: &Option<u32>| match p {
        Some(p) => format!("{p} points"),
        None => "does not score".into(),
    };
    let rows: [(&str, String); 22] = [
        ("Preset", serde_json::to_value(preset).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()),
        ("A single 1", format!("{single_one} points")),
        ("A single 5", format!("{single_five} points")),
        ("Three 1s", format!("{three_ones} points")),
        ("Three of a kind of 2s to 6s", format!("the face × {kind_unit} points (three 4s: {})", 4 * kind_unit)),
        ("Four, five and six of a kind", match n_of_kind {
            NOfKind::Flat => "the same as three of a kind".into(),
            NOfKind::Linear => "2×, 3× and 4× three of a kind".into(),
            NOfKind::Doubling => "2×, 4× and 8× three of a kind".into(),
        }),
        ("Dice of a face beyond its three of a kind", match kind_extras {
            KindExtras::Kind => "part of the kind (never single 1s or 5s beside a triple)".into(),
            KindExtras::Singles => "1s and 5s may score as singles beside the triple".into(),
        }),
        ("A five-dice straight", points(straight5)),
        ("A six-dice straight", points(straight6)),
        ("Three pairs", points(three_pairs)),
        ("Four of a kind and a pair", if *four_and_pair_is_three_pairs {
            "also counts as three pairs".into()
        } else {
            "does not count as three pairs".into()
        }),
        ("Two triplets", points(two_triplets)),
        ("The 1s and 5s in straights, pairs and triplets", if *specials_add_singles {
            "add their points too".into()
        } else {
            "add nothing".into()
        }),
        ("Held dice", match held_dice {
            HeldDice::Combine => "combine with the cycle's later rolls (a held 5 and three rolled 5s are four 5s)".into(),
            HeldDice::Separate => "score with their own roll only".into(),
        }),
        ("Hot dice (all six set aside)", match hot_dice {
            HotDice::Forced => "must roll all six again".into(),
            HotDice::Optional => "may bank or roll all six again".into(),
        }),
        ("Doom", match doom_sixes {
            Some(n) => format!("a roll with {n} or more sixes ends the turn with nothing"),
            None => "none: sixes are ordinary dice".into(),
        }),
        ("What doom takes", match doom_wipes {
            DoomWipes::Turn => "the turn's points".into(),
            DoomWipes::Bank => "the turn's points and the whole bank".into(),
        }),
        ("Six dice scoring nothing", match six_dice_no_score {
            Some(p) => format!("score {p} points and roll again"),
            None => "a farkle like any other".into(),
        }),
        ("Least turn points to bank", match min_bank {
            0 => "no minimum".into(),
            m => format!("{m} points"),
        }),
        ("Farkle penalty", match farkle_penalty {
            Some((k, p)) => format!("farkle number {k} in a row costs {p} banked points"),
            None => "none".into(),
        }),
        ("Target", format!("{} points", crate::report::count(*target))),
        ("When a player reaches the target", match end {
            EndRule::FinishRound => "the round is finished; the highest total wins".into(),
            EndRule::Immediate => "that player wins at once".into(),
        }),
    ];
    rows.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The audit's configuration within what the exact analysis follows.
fn check_config(cfg: &DoomAuditConfig) -> Result<(), DoomError> {
    cfg.rules.validate().map_err(DoomError::Rules)?;
    if cfg.rules.farkle_penalty.is_some() {
        return Err(DoomError::Rules(
            "audit doom: with --farkle-penalty a turn's play depends on the farkles before it, so one turn has no single distribution; audit the rules without it (exact doom and sim doom handle the penalty)".into(),
        ));
    }
    let cap = super::exact::CAP_POINTS;
    if let Some(&t) = cfg.bank_at.iter().find(|&&t| t == 0 || t > cap) {
        return Err(DoomError::Rules(format!(
            "--bank-at {t}: thresholds run from 1 to {cap} points (the exact analysis follows a turn to {cap} points)"
        )));
    }
    if cfg.rules.min_bank > cap {
        return Err(DoomError::Rules(format!(
            "--min-bank {}: the exact analysis follows a turn to {cap} points; a minimum above that leaves nothing to bank",
            cfg.rules.min_bank
        )));
    }
    Ok(())
}

/// Each tier's turns simulated against its exact distribution; whether a stop cut them short.
fn turn_sims(
    cfg: &DoomAuditConfig,
    tiers: &[DoomTier],
    stop: &AtomicBool,
    bar: &crate::progress::Progress,
) -> Result<(Vec<TurnSim>, bool), DoomError> {
    let mut simulation = Vec::new();
    let mut interrupted = false;
    for t in tiers {
        if cfg.turns > 0 && !stop.load(Ordering::SeqCst) {
            match run_model(cfg, vec![t.tier.clone()], Mode::Turns(cfg.turns), stop)? {
                Some((sm, batches)) => simulation.push(turn_sim(t, &sm, batches)),
                None => interrupted = true,
            }
            bar.advance(1);
        }
    }
    Ok((simulation, interrupted))
}

/// Each tier's games of two seats, both the tier and the tier against optimal play; whether
/// a stop cut them short.
fn game_rows(
    cfg: &DoomAuditConfig,
    tiers: &[DoomTier],
    stop: &AtomicBool,
    bar: &crate::progress::Progress,
) -> Result<(Vec<GameRow>, bool), DoomError> {
    let mut games = Vec::new();
    // Two seats' games: none if stopped before the first chunk.
    let games_run = |seats: [&str; 2]| -> Result<Option<GamesModel>, DoomError> {
        let seats = seats.map(String::from).to_vec();
        let run = run_model(cfg, seats, Mode::Games(cfg.games), stop)?;
        bar.advance(1);
        Ok(run.and_then(|(sm, _)| games_of(sm)))
    };
    for t in tiers {
        if cfg.games == 0 || stop.load(Ordering::SeqCst) {
            break;
        }
        let Some(own) = games_run([&t.tier, &t.tier])? else {
            return Ok((games, true));
        };
        let vs = if t.tier == "optimal" {
            None
        } else {
            games_run([&t.tier, "optimal"])?
        };
        // The tier's seat (the first) against optimal play.
        let vs = vs.as_ref().and_then(|g| g.win_rate.first());
        let n = own.games;
        let p1 = own
            .win_rate_by_position
            .first()
            .copied()
            .unwrap_or(f64::NAN);
        games.push(GameRow {
            tier: t.tier.clone(),
            games: n,
            turns_per_game: own.turns_per_game.mean,
            turns_per_game_se: own.turns_per_game.se,
            p_first_seat_wins: p1,
            p_first_seat_wins_se: (p1 * (1.0 - p1) / n as f64).sqrt(),
            win_rate_vs_optimal: vs.map(|w| w.rate),
            win_rate_vs_optimal_se: vs.map(|w| w.se),
        });
    }
    Ok((games, false))
}

/// The dossier's terms.
fn definitions() -> Vec<(String, String)> {
    [
        ("turn score", "the points a turn banks; a farkle (no scoring dice) or doom ends the turn with 0"),
        ("turn EV", "the expected turn score under a policy (exact: dynamic programming over every state of the turn)"),
        ("optimal", "the policy that maximizes the expected turn score (bank exactly when banking is worth more than rolling on)"),
        ("bank-at:T", "bank as soon as the turn holds at least T points; set aside whatever maximizes the expected score under that rule"),
        ("SD", "standard deviation of one turn's score, in points"),
        ("game", "two players, both playing the tier, to the rules' target; the starting seat alternates game by game"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .chain([(
        "SE".to_string(),
        format!("standard error of a simulated mean: batch means over the run's chunks ({} of them, or one per turn or game in shorter runs); intervals use Student's t with chunks − 1 degrees of freedom", crate::audit::SIM_BATCHES),
    )])
    .collect()
}

/// What the dossier assumes.
fn assumptions() -> Vec<String> {
    vec![
        format!("States past {} turn points are valued as banked there (the probability of reaching them is reported as p_capped).", crate::report::count(super::exact::CAP_POINTS as u64)),
        "A doom ends the turn with 0 points; what else it wipes follows the rules (see doom wipes). The single-turn policies ignore the game score; games are simulated with those policies (exact two-player play to win: `rtplab exact doom --players 2 --objective win`).".into(),
        "Game lengths and win rates are simulated (two seats, alternating the starting seat), not exact.".into(),
    ]
}

/// Run the exact part and the simulations; the dossier.
pub fn audit(cfg: &DoomAuditConfig, stop: &AtomicBool) -> Result<DoomAuditModel, DoomError> {
    check_config(cfg)?;
    let t0 = std::time::Instant::now();
    let names = tier_names(cfg);
    // One bar for the whole audit (each of its runs is short): the exact tiers, then the
    // simulated runs (a turn run per tier, and per tier its games and its games against
    // optimal play).
    let bar = crate::progress::Progress::new(
        cfg.progress,
        names.len() as u64,
        "audit doom: exact tiers",
        "tiers",
    );
    let m = Model::new(&cfg.rules);
    let tiers: Vec<DoomTier> = names
        .iter()
        .map(|(n, p)| {
            let t = exact_tier(&m, n, p);
            bar.advance(1);
            t
        })
        .collect();
    let exact_seconds = t0.elapsed().as_secs_f64();
    let t1 = std::time::Instant::now();
    let runs = if cfg.turns > 0 { tiers.len() } else { 0 }
        + if cfg.games > 0 {
            tiers
                .iter()
                .map(|t| if t.tier == "optimal" { 1 } else { 2 })
                .sum()
        } else {
            0
        };
    bar.stage("audit doom: simulations", runs as u64, "runs");
    let (simulation, turns_cut) = turn_sims(cfg, &tiers, stop, &bar)?;
    let (games, games_cut) = game_rows(cfg, &tiers, stop, &bar)?;
    bar.finish();
    let mut interrupted = turns_cut || games_cut;
    interrupted |= (cfg.turns > 0 || cfg.games > 0) && stop.load(Ordering::SeqCst);
    let simulation_seconds = t1.elapsed().as_secs_f64();
    let mut turns_needed = Vec::new();
    for t in &tiers {
        turns_needed.extend(needed(&t.tier, t.sd, &[1.0, 5.0, 10.0]));
    }
    Ok(DoomAuditModel {
        game: "doom",
        identity: Identity {
            interrupted,
            exact_seconds,
            tiers_seconds: exact_seconds,
            simulation_seconds,
            ..Identity::new(&cfg.rules, cfg.seed, cfg.turns)
        },
        rules: cfg.rules.clone(),
        rules_as_dealt: rules_as_dealt(&cfg.rules),
        definitions: definitions(),
        assumptions: assumptions(),
        tiers,
        simulation,
        turns_needed,
        games,
    })
}

/// The dossier as tables and notes; the JSON is the model.
pub fn render(m: &DoomAuditModel) -> Report {
    let mut r = Report {
        title: if m.identity.interrupted {
            "rtplab verification dossier: Dice of Doom (INTERRUPTED: simulation partial)".into()
        } else {
            "rtplab verification dossier: Dice of Doom".into()
        },
        meta: meta_lines(m),
        ..Default::default()
    };
    r.sections.extend([
        text_section("Rules as dealt", ["rule", "setting"], &m.rules_as_dealt),
        text_section("Definitions", ["term", "meaning"], &m.definitions),
        tiers_section(m),
        distribution_section(m),
    ]);
    if !m.simulation.is_empty() {
        r.sections.push(cross_check_section(m));
    }
    r.sections.push(needed_section(
        "Turns needed to resolve the turn EV",
        "± points",
        "turns",
        &m.turns_needed,
        |p| Cell::num(format!("{p}"), p, "points"),
    ));
    if !m.games.is_empty() {
        r.sections.push(games_section(m));
    }
    r.notes = m
        .assumptions
        .iter()
        .map(|a| format!("Assumption: {a}"))
        .collect();
    r.notes.push("There is no money in Dice of Doom, so there is no RTP, claim or acceptance band: the frame of the blackjack dossier holds with the turn score in their place.".into());
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

/// The identity of the run: tool, rules, seed, turns, time.
fn meta_lines(m: &DoomAuditModel) -> Vec<(String, String)> {
    let id = &m.identity;
    vec![
        ("tool".into(), format!("{} {}", id.tool, id.version)),
        ("git commit".into(), id.git_commit.into()),
        ("build profile".into(), id.build_profile.into()),
        ("rules".into(), m.rules.summary()),
        (
            "rules hash (FNV-1a of the rules' JSON)".into(),
            id.rules_hash.clone(),
        ),
        ("seed".into(), id.seed.to_string()),
        ("RNG".into(), id.rng.into()),
        (
            "simulated turns per tier".into(),
            if id.rounds_per_tier == 0 {
                "none".into()
            } else {
                crate::report::count(id.rounds_per_tier)
            },
        ),
        (
            "time".into(),
            format!(
                "exact {:.2} s, simulation {:.1} s",
                id.exact_seconds, id.simulation_seconds
            ),
        ),
    ]
}

/// Each policy's exact turn EV, SD, chances of banking, farkle and doom, and score quantiles.
fn tiers_section(m: &DoomAuditModel) -> Section {
    let mut s = Section::new(
        "Policy tiers (exact, one turn)",
        &[
            "tier",
            "turn EV",
            "SD",
            "P(bank)",
            "P(farkle)",
            "P(doom)",
            "median banked",
            "P(≥ 1000)",
            "P(≥ 2000)",
        ],
    );
    for t in &m.tiers {
        s.row([
            Cell::from(t.tier.clone()),
            Cell::num(fixed(t.turn_ev, 3), t.turn_ev, "points"),
            Cell::num(fixed(t.sd, 1), t.sd, "points"),
            pct_cell(t.p_bank, 3),
            pct_cell(t.p_farkle, 3),
            pct_cell(t.p_doom, 3),
            Cell::num(
                t.median_banked.to_string(),
                t.median_banked as f64,
                "points",
            ),
            pct_cell(t.p_at_least_1000, 3),
            pct_cell(t.p_at_least_2000, 3),
        ]);
    }
    s
}

/// One turn's score: each tier's exact probability of every score up to 3000 points any
/// tier can make, then of the tail.
fn distribution_section(m: &DoomAuditModel) -> Section {
    let cols: Vec<String> = std::iter::once("points".to_string())
        .chain(m.tiers.iter().map(|t| format!("P, {}", t.tier)))
        .collect();
    let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
    let mut s = Section::new("Distribution of one turn's score (exact)", &cols);
    let mut points: Vec<u32> = m
        .tiers
        .iter()
        .flat_map(|t| t.distribution.iter().map(|d| d.points))
        .filter(|&p| p <= 3000)
        .collect();
    points.sort_unstable();
    points.dedup();
    for &x in &points {
        let mut row = vec![Cell::num(x.to_string(), x as f64, "points")];
        row.extend(m.tiers.iter().map(|t| {
            p_cell(
                t.distribution
                    .iter()
                    .find(|d| d.points == x)
                    .map_or(0.0, |d| d.p),
            )
        }));
        s.row(row);
    }
    let mut row = vec![Cell::from("more than 3000".to_string())];
    row.extend(m.tiers.iter().map(|t| {
        p_cell(
            t.distribution
                .iter()
                .filter(|d| d.points > 3000)
                .map(|d| d.p)
                .sum(),
        )
    }));
    s.row(row);
    s
}

/// A probability to six places.
fn p_cell(p: f64) -> Cell {
    Cell::num(format!("{p:.6}"), p, "probability")
}

/// Each simulated tier's mean turn score with its intervals, against the exact EV.
fn cross_check_section(m: &DoomAuditModel) -> Section {
    let mut s = Section::new(
        "Simulation cross-check (turns)",
        &[
            "tier",
            "turns",
            "mean",
            "SE",
            "95% CI",
            "99% CI",
            "z vs exact",
            "chi-square (df, p)",
        ],
    );
    for x in &m.simulation {
        s.row([
            Cell::from(x.tier.clone()),
            count_cell(x.turns),
            Cell::num(fixed(x.mean, 2), x.mean, "points"),
            Cell::num(fixed(x.se, 2), x.se, "points"),
            interval_cell(x.ci95, |v| fixed(v, 2), "points"),
            interval_cell(x.ci99, |v| fixed(v, 2), "points"),
            Cell::num(format!("{:+.2}", x.z_vs_exact), x.z_vs_exact, "z"),
            Cell::num(
                format!(
                    "{:.1} ({}, {})",
                    x.chi_square.statistic,
                    x.chi_square.df,
                    format_p(x.chi_square.p)
                ),
                x.chi_square.statistic,
                "chi-square",
            ),
        ]);
    }
    s
}

/// Simulated games of two to the target: their length, the first seat's edge, and each
/// tier's win rate against optimal play.
fn games_section(m: &DoomAuditModel) -> Section {
    let mut s = Section::new(
        "Games of two to the target (simulated)",
        &[
            "tier",
            "games",
            "turns per game",
            "P(first seat wins), both seats the tier",
            "win rate against optimal",
        ],
    );
    let pct = |x: f64| crate::report::pct(x, 2);
    for g in &m.games {
        s.row([
            Cell::from(g.tier.clone()),
            count_cell(g.games),
            Cell::num(
                format!(
                    "{} ± {}",
                    fixed(g.turns_per_game, 1),
                    fixed(g.turns_per_game_se, 1)
                ),
                g.turns_per_game,
                "turns",
            ),
            Cell::num(
                format!(
                    "{} ± {}",
                    pct(g.p_first_seat_wins),
                    pct(g.p_first_seat_wins_se)
                ),
                g.p_first_seat_wins,
                "fraction",
            ),
            match (g.win_rate_vs_optimal, g.win_rate_vs_optimal_se) {
                (Some(w), Some(se)) => {
                    Cell::num(format!("{} ± {}", pct(w), pct(se)), w, "fraction")
                }
                _ => Cell::from("-".to_string()),
            },
        ]);
    }
    s
}

/// Each tier's exact turn-score distribution (bars, up to 3000 points and the tail), with the
/// simulation's 95% intervals where simulated.
pub fn plots(m: &DoomAuditModel) -> Result<Vec<(String, String)>, String> {
    use crate::report::svg::{bar_chart, Bar, BarChart, YUnit};
    let mut out = Vec::new();
    for t in &m.tiers {
        let sim = m.simulation.iter().find(|s| s.tier == t.tier);
        // One bar per possible score (every multiple of the scores' common divisor), so that
        // the axis is even.
        let step = t
            .distribution
            .iter()
            .map(|d| d.points)
            .filter(|&p| p > 0)
            .fold(0, gcd)
            .max(1);
        let mut bars: Vec<Bar> = (0..=3000 / step)
            .map(|k| {
                let points = k * step;
                let p = t
                    .distribution
                    .iter()
                    .find(|d| d.points == points)
                    .map_or(0.0, |d| d.p);
                let b = Bar::new(points.to_string(), 100.0 * p);
                match sim.and_then(|s| {
                    s.bins
                        .iter()
                        .find(|x| x.0 <= points && points < x.1 && x.1 - x.0 <= step)
                }) {
                    Some(x) => {
                        let n = sim.map_or(0, |s| s.turns) as f64;
                        let ps = x.2 as f64 / n;
                        let se = (ps * (1.0 - ps) / n).sqrt();
                        b.with_ci(100.0 * (ps - Z95 * se), 100.0 * (ps + Z95 * se))
                    }
                    None => b,
                }
            })
            .collect();
        let tail: f64 = t
            .distribution
            .iter()
            .filter(|d| d.points > 3000)
            .map(|d| d.p)
            .sum();
        bars.push(Bar::new(">3000", 100.0 * tail));
        let title = format!(
            "One turn's score, {}: exact P{}",
            t.tier,
            if sim.is_some() {
                " (bars), simulated 95% CI (error bars)"
            } else {
                ""
            }
        );
        out.push((
            format!("turn-score-{}.svg", crate::report::slug(&t.tier)),
            bar_chart(&BarChart {
                title: &title,
                x_label: "turn score (points); the last bar: every score over 3000",
                y_label: "probability (%)",
                y_unit: YUnit::Percent,
                bars: &bars,
                histogram: true,
                hline: None,
            })?,
        ));
    }
    Ok(out)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::doom::rules::DoomPreset;

    /// The simulated figures of a small dossier are its runs' report models' (and so the
    /// runs' reports' own figures), bit for bit; none is NaN.
    #[test]
    fn simulated_figures_are_the_run_models() {
        let mut rules = DoomRules::preset(DoomPreset::Seed);
        rules.target = 3000;
        let cfg = DoomAuditConfig {
            rules,
            bank_at: vec![300],
            turns: 20_000,
            games: 200,
            seed: 1,
            threads: Some(1),
            progress: false,
        };
        let go = AtomicBool::new(false);
        let m = audit(&cfg, &go).unwrap();
        let model = |seats: &[&str], mode: Mode| {
            let seats = seats.iter().map(|s| s.to_string()).collect();
            let (c, spec) = simulation_run(&cfg, seats, mode);
            let run = crate::game::simulate::<Doom>(c, &spec, &go).unwrap();
            let json = crate::game::report::<Doom>(&run, None).unwrap().json;
            let sm = super::super::game::run_model(&run).unwrap();
            assert_eq!(json["mean_turn_score"].as_f64(), Some(sm.mean_turn_score));
            sm
        };
        assert_eq!(m.simulation.len(), 2);
        for sim in &m.simulation {
            let sm = model(&[sim.tier.as_str()], Mode::Turns(cfg.turns));
            assert_eq!(
                (sim.mean, sim.se, sim.p_doom, sim.p_farkle),
                (
                    sm.mean_turn_score,
                    sm.mean_turn_score_se,
                    sm.p_doom,
                    sm.p_farkle
                )
            );
            assert_eq!(sim.turns, cfg.turns);
            let counted: u64 = sim.bins.iter().map(|b| b.2).sum();
            let histogram: u64 = sm.turn_score_histogram.iter().map(|b| b.count).sum();
            assert_eq!((counted, histogram), (cfg.turns, cfg.turns));
            let figures = [sim.mean, sim.se, sim.z_vs_exact, sim.chi_square.p];
            assert!(figures.into_iter().all(f64::is_finite), "{sim:?}");
        }
        assert_eq!(m.games.len(), 2);
        for g in &m.games {
            let sm = model(&[g.tier.as_str(), g.tier.as_str()], Mode::Games(cfg.games));
            let own = games_of(sm).unwrap();
            assert_eq!(g.games, own.games);
            assert_eq!(g.turns_per_game, own.turns_per_game.mean);
            assert_eq!(g.turns_per_game_se, own.turns_per_game.se);
            assert_eq!(g.p_first_seat_wins, own.win_rate_by_position[0]);
            if g.tier != "optimal" {
                let sm = model(&[g.tier.as_str(), "optimal"], Mode::Games(cfg.games));
                let vs = &games_of(sm).unwrap().win_rate[0];
                assert_eq!(g.win_rate_vs_optimal, Some(vs.rate));
                assert_eq!(g.win_rate_vs_optimal_se, Some(vs.se));
            }
            let figures = [
                g.turns_per_game,
                g.turns_per_game_se,
                g.p_first_seat_wins_se,
            ];
            assert!(figures.into_iter().all(f64::is_finite), "{g:?}");
        }
        // Rules not in play, and optimal play against itself (not played).
        let optional =
            |p: &str| p.starts_with("rules.") || p.starts_with("games.0.win_rate_vs_optimal");
        let json = serde_json::to_value(&m).unwrap();
        let nulls = crate::audit::unexpected_nulls(&json, optional);
        assert!(nulls.is_empty(), "not computed: {nulls:?}");
    }

    /// The rules as dealt say every rule in words, one row a rule of the rules' JSON.
    #[test]
    fn rules_as_dealt_say_every_rule_in_words() {
        let mut penalty = DoomRules::preset(DoomPreset::Zilch);
        penalty.farkle_penalty = Some((3, 500));
        penalty.doom_sixes = None;
        let presets = [DoomPreset::Seed, DoomPreset::S2Common, DoomPreset::Zilch];
        for r in presets
            .map(DoomRules::preset)
            .into_iter()
            .chain([penalty.clone()])
        {
            let json = serde_json::to_value(&r).unwrap();
            let rows = rules_as_dealt(&r);
            assert_eq!(rows.len(), json.as_object().unwrap().len());
            for (k, v) in &rows {
                assert!(!v.is_empty() && !k.contains('_'), "{k}: {v}");
            }
        }
        let seed = rules_as_dealt(&DoomRules::preset(DoomPreset::Seed));
        let said = |k: &str| seed.iter().find(|r| r.0 == k).unwrap().1.clone();
        assert_eq!(
            said("Doom"),
            "a roll with 2 or more sixes ends the turn with nothing"
        );
        assert_eq!(said("Target"), "100,000 points");
        let z = rules_as_dealt(&penalty);
        assert!(z
            .iter()
            .any(|r| r.1 == "farkle number 3 in a row costs 500 banked points"));
    }
}
