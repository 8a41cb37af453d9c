//! `advise doom`: after a roll, every legal set-aside followed by banking or rolling on, with
//! its value: the expected points the turn banks under the single-turn optimal policy, or,
//! given the game's scores, the probability of winning a two-player game under the
//! win-optimal policy (`win.rs`). Says farkle or doom when the roll is one.

use serde::Serialize;

use super::exact::{solve_policy, Policy, ValueTable, CAP_POINTS};
use super::model::{Model, Opt};
use super::reach;
use super::score::{size, FaceCounts};
use super::win::{WinError, WinOptions, WinSolution};

/// The game's scores (points) and the seat to move, for the win objective.
#[derive(Clone, Copy, Debug)]
pub struct GameScores {
    pub score: u64,
    pub opponent: u64,
    /// 0: the first seat (moves first each round), 1: the second.
    pub seat: usize,
}

/// A position in a turn.
#[derive(Clone, Debug)]
pub struct DoomAdviseRequest {
    /// The dice rolled (faces 1-6).
    pub roll: Vec<u8>,
    /// Dice set aside earlier in this cycle (since the turn's start or the last hot dice).
    pub held: Vec<u8>,
    /// The turn's points so far (the held dice's included).
    pub turn_points: u32,
    pub game: Option<GameScores>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DoomAdviseError {
    #[error("die '{0}': expected a face from 1 to 6")]
    Face(String),
    #[error("{held} held and {rolled} rolled: the dice rolled are the {want} not held (six dice in all)", held = dice(*.held), rolled = dice(*.rolled), want = dice(*.want))]
    Dice {
        held: usize,
        rolled: usize,
        want: usize,
    },
    #[error("--held {0}: dice set aside must all score together (e.g. 1,5 or 2,2,2)")]
    Held(String),
    #[error("--turn-points {points}: must be a multiple of {unit} and at least the held dice's {held} points")]
    TurnPoints { points: u32, unit: u32, held: u32 },
    #[error(
        "--held {0}: no sequence of set-asides from rolls that are not doom leaves these dice held"
    )]
    HeldUnreachable(String),
    #[error("--turn-points {points} with {held}: no sequence of set-asides makes it (the smallest possible: {smallest}; the nearest: {nearest})")]
    Unreachable {
        points: u32,
        held: String,
        smallest: u32,
        nearest: String,
    },
    #[error("--turn-points {0}: at most {CAP_POINTS} (the exact analysis' cap)")]
    Cap(u32),
    #[error("--score {score} --opponent {opponent}: scores are multiples of {unit} below the target {target}")]
    Scores {
        score: u64,
        opponent: u64,
        unit: u32,
        target: u64,
    },
    #[error(transparent)]
    Win(#[from] WinError),
}

/// "1 die", "3 dice".
fn dice(n: usize) -> String {
    if n == 1 {
        "1 die".into()
    } else {
        format!("{n} dice")
    }
}

/// One choice: set these dice aside, then bank or roll on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DoomOption {
    /// "set aside 1,5 then roll".
    pub action: String,
    pub set_aside: String,
    /// "bank", "roll" or "roll (hot dice)".
    pub then: &'static str,
    /// Expected points the turn banks (objective points; JSON `ev`) or the probability of
    /// winning (objective win; JSON `win_probability`).
    #[serde(skip)]
    pub value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ev: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability: Option<f64>,
    pub vs_best: f64,
}

impl DoomOption {
    fn new(set_aside: String, then: &'static str, value: f64) -> DoomOption {
        DoomOption {
            action: format!("set aside {set_aside} then {then}"),
            set_aside,
            then,
            value,
            ev: None,
            win_probability: None,
            vs_best: 0.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DoomAdvice {
    pub roll: String,
    pub held: String,
    pub turn_points: u32,
    /// "points" (single-turn expected points) or "win" (probability of winning).
    pub objective: &'static str,
    /// "choose", "farkle" (no legal set-aside) or "doom".
    pub outcome: &'static str,
    pub options: Vec<DoomOption>,
    /// The best option's index in `options` (they are sorted best first).
    pub best: Option<usize>,
    /// The game the win probabilities are for (objective win).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<AdviceGame>,
}

/// The game position advised (objective win), restated in the advice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviceGame {
    pub score: u64,
    pub opponent: u64,
    /// "first" or "second" (the seat that moves first each round, or the other); under an
    /// immediate end the seats are alike and this is the seat given.
    pub seat: &'static str,
    pub target: u64,
}

/// Faces "1,1,5,2" (or "1152").
pub fn parse_dice(s: &str) -> Result<Vec<u8>, DoomAdviseError> {
    let s = s.trim();
    let parts: Vec<String> = if s.contains(',') {
        s.split(',').map(|p| p.trim().to_string()).collect()
    } else {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .map(String::from)
            .collect()
    };
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| match p.parse::<u8>() {
            Ok(v @ 1..=6) => Ok(v),
            _ => Err(DoomAdviseError::Face(p)),
        })
        .collect()
}

fn counts(dice: &[u8]) -> FaceCounts {
    let mut c = [0u8; 6];
    for &d in dice {
        c[d as usize - 1] += 1;
    }
    c
}

fn dice_text(c: &FaceCounts) -> String {
    let mut v = Vec::new();
    for (f, &n) in c.iter().enumerate() {
        for _ in 0..n {
            v.push((f + 1).to_string());
        }
    }
    if v.is_empty() {
        "-".into()
    } else {
        v.join(",")
    }
}

/// Refuses turn points that no sequence of set-asides makes with `held` set aside in the
/// current cycle (`reach.rs`), naming the smallest and the nearest possible ones. `points` is
/// a multiple of the unit, at most `CAP_POINTS`.
fn reachable(m: &Model, held: &FaceCounts, points: u32) -> Result<(), DoomAdviseError> {
    let unit = m.unit;
    let now = reach::held_points(m, held);
    if now.is_empty() {
        return Err(DoomAdviseError::HeldUnreachable(dice_text(held)));
    }
    // The usual case (nothing from earlier cycles) needs no search over whole cycles.
    if now.contains(&(points / unit)) {
        return Ok(());
    }
    let possible = reach::possible(m, held, CAP_POINTS / unit);
    let t = (points / unit) as usize;
    if possible[t] {
        return Ok(());
    }
    let pts = |i: usize| i as u32 * unit;
    let below = (0..t).rev().find(|&i| possible[i]).map(pts);
    let above = (t + 1..possible.len()).find(|&i| possible[i]).map(pts);
    let nearest = match (below, above) {
        (Some(b), Some(a)) => format!("{b} and {a}"),
        (Some(v), None) | (None, Some(v)) => v.to_string(),
        (None, None) => "none".into(),
    };
    let smallest = possible.iter().position(|&x| x).map_or(0, pts);
    Err(DoomAdviseError::Unreachable {
        points,
        held: if size(held) == 0 {
            "nothing held".into()
        } else {
            format!("{} held", dice_text(held))
        },
        smallest,
        nearest,
    })
}

/// What is already solved for the rules, so that many positions can be advised at the cost of
/// one solve (the advice solves what it needs and is not given).
#[derive(Clone, Copy, Default)]
pub struct Solved<'a> {
    /// The single-turn optimal policy's table (`solve_policy(m, OPTIMAL).tables[0]`).
    pub turn: Option<&'a ValueTable>,
    /// The two-player game.
    pub win: Option<&'a WinSolution>,
    /// How the advice gets the two-player game when `win` is not given, once the position
    /// and rules have been found solvable (reading a kept table, or solving: minutes at large
    /// targets). None: solved with `WinOptions::fast()`.
    pub get_win: Option<&'a WinSource<'a>>,
}

/// A way to get the two-player game for the advice (`Solved::get_win`).
pub type WinSource<'a> = dyn Fn() -> Result<WinSolution, WinError> + Sync + 'a;

/// The position `req` checked against `m`'s rules: its dice and held hold (index into
/// `m.holds`), and the turn's points beyond the held dice's in units.
fn position(
    m: &Model,
    req: &DoomAdviseRequest,
) -> Result<(FaceCounts, usize, usize), DoomAdviseError> {
    let held = counts(&req.held);
    let want = 6 - req.held.len().min(6);
    if req.held.len() >= 6 || req.roll.len() != want {
        return Err(DoomAdviseError::Dice {
            held: req.held.len(),
            rolled: req.roll.len(),
            want,
        });
    }
    let h = m
        .hold_of(&held)
        .ok_or_else(|| DoomAdviseError::Held(dice_text(&held)))?;
    let unit = m.unit;
    let held_pts = m.holds[h].pts * unit;
    if !req.turn_points.is_multiple_of(unit) || req.turn_points < held_pts {
        return Err(DoomAdviseError::TurnPoints {
            points: req.turn_points,
            unit,
            held: held_pts,
        });
    }
    if req.turn_points > CAP_POINTS {
        return Err(DoomAdviseError::Cap(req.turn_points));
    }
    reachable(m, &held, req.turn_points)?;
    Ok((held, h, ((req.turn_points - held_pts) / unit) as usize))
}

/// For the points objective, the value at each of `states` (points in units, hold) of
/// banking (None: not allowed) and of rolling on: expected turn points under optimal play.
fn points_values(m: &Model, solved: &Solved, states: &[(usize, usize)]) -> Vec<(Option<f64>, f64)> {
    let owned;
    let t = match solved.turn {
        Some(t) => t,
        None => {
            owned = solve_policy(m, &Policy::OPTIMAL).tables.swap_remove(0);
            &owned
        }
    };
    let min_bank = m.rules.min_bank.max(1);
    states
        .iter()
        .map(|&(p2, h2)| {
            let tp = (p2 as u32 + m.holds[h2].pts) * m.unit;
            let i = p2.min(t.levels - 1) * t.holds + h2;
            ((tp >= min_bank).then_some(tp as f64), t.r[i])
        })
        .collect()
}

/// For the win objective in game `g`, the value at each of `states` of banking and of rolling
/// on: the probability of winning the two-player game.
fn win_values(
    m: &Model,
    g: GameScores,
    solved: &Solved,
    states: &[(usize, usize)],
) -> Result<Vec<(Option<f64>, f64)>, DoomAdviseError> {
    // The scores are checked before the game is solved (minutes at large targets).
    let unit = m.unit;
    let target = m.rules.target;
    let ok = |x: u64| x.is_multiple_of(unit as u64) && x < target;
    if !ok(g.score) || !ok(g.opponent) {
        return Err(DoomAdviseError::Scores {
            score: g.score,
            opponent: g.opponent,
            unit,
            target,
        });
    }
    let owned;
    let sol = match solved.win {
        Some(s) => s,
        None => {
            WinSolution::solvable(m)?;
            owned = match solved.get_win {
                Some(get) => get()?,
                None => WinSolution::solve_with(m, &WinOptions::fast())?,
            };
            &owned
        }
    };
    let k = if sol.finish_round { g.seat } else { 0 };
    let (a, b) = (
        (g.score / unit as u64) as usize,
        (g.opponent / unit as u64) as usize,
    );
    // Followed past every state a choice reaches, so that rolling on from a position
    // past the target is valued from its own dice too.
    let reach = states.iter().map(|&(p2, _)| p2 + 1).max().unwrap_or(0);
    let t = sol.turn_table_to(k, a, b, reach);
    Ok(states
        .iter()
        .map(|&(p2, h2)| (sol.bank_win(&t, p2, h2), t.roll(p2, h2)))
        .collect())
}

/// Every choice's options (bank where allowed, roll on; hot dice only roll where the rules
/// force it), best first, each with its gap to the best and its value as a win probability
/// (`win`) or an expected turn score.
fn ranked_options(
    choices: &[(FaceCounts, Opt)],
    values: &[(Option<f64>, f64)],
    forced: bool,
    win: bool,
) -> Vec<DoomOption> {
    let mut options = Vec::new();
    for ((s, o), &(bank, roll_on)) in choices.iter().zip(values) {
        let set_aside = if size(s) == 0 {
            "none (six dice, no score: the bonus)".to_string()
        } else {
            dice_text(s)
        };
        if o.hot && forced {
            options.push(DoomOption::new(set_aside, "roll (hot dice)", roll_on));
            continue;
        }
        if let Some(b) = bank {
            options.push(DoomOption::new(set_aside.clone(), "bank", b));
        }
        options.push(DoomOption::new(set_aside, "roll", roll_on));
    }
    options.sort_by(|x, y| y.value.total_cmp(&x.value));
    let best = options[0].value;
    for o in &mut options {
        o.vs_best = o.value - best;
        if win {
            o.win_probability = Some(o.value);
        } else {
            o.ev = Some(o.value);
        }
    }
    options
}

/// The advice for `req` under `m`'s rules (the target is the rules').
pub fn advise(
    m: &Model,
    req: &DoomAdviseRequest,
    solved: Solved,
) -> Result<DoomAdvice, DoomAdviseError> {
    let (held, h, p) = position(m, req)?;
    let roll = counts(&req.roll);
    let mut advice = DoomAdvice {
        roll: dice_text(&roll),
        held: dice_text(&held),
        turn_points: req.turn_points,
        objective: if req.game.is_some() { "win" } else { "points" },
        outcome: "choose",
        options: Vec::new(),
        best: None,
        game: req.game.map(|g| AdviceGame {
            score: g.score,
            opponent: g.opponent,
            seat: if g.seat == 0 { "first" } else { "second" },
            target: m.rules.target,
        }),
    };
    if m.rules.doom_sixes.is_some_and(|d| roll[5] >= d) {
        advice.outcome = "doom";
        return Ok(advice);
    }
    let choices = m.set_asides(h, &roll);
    if choices.is_empty() {
        advice.outcome = "farkle";
        return Ok(advice);
    }
    // The state each choice leads to, and there the value of banking (None: not allowed)
    // and of rolling on.
    let states: Vec<(usize, usize)> = choices
        .iter()
        .map(|(_, o)| (p + o.gain as usize, o.to as usize))
        .collect();
    let values = match req.game {
        None => points_values(m, &solved, &states),
        Some(g) => win_values(m, g, &solved, &states)?,
    };
    let forced = m.rules.hot_dice_forced();
    advice.options = ranked_options(&choices, &values, forced, req.game.is_some());
    advice.best = Some(0);
    Ok(advice)
}
/// The advice as a report.
pub fn render(a: &DoomAdvice, rules: &str) -> crate::report::Report {
    use crate::report::{Cell, Report, Section};
    let mut r = Report {
        title: "rtplab Dice of Doom advice".into(),
        ..Default::default()
    };
    r.meta.push(("rules".into(), rules.to_string()));
    r.meta.push((
        "position".into(),
        format!(
            "rolled {}, held {}, {} turn points",
            a.roll, a.held, a.turn_points
        ),
    ));
    if let Some(g) = &a.game {
        use crate::report::count;
        r.meta.push((
            "game".into(),
            format!(
                "your score {}, the opponent's {}, you are the {} seat, target {}",
                count(g.score),
                count(g.opponent),
                g.seat,
                count(g.target)
            ),
        ));
    }
    let (what, d) = match a.objective {
        "win" => ("P(win), win-optimal play by both", 6),
        _ => ("expected points the turn banks, optimal play", 2),
    };
    r.meta.push(("value".into(), what.into()));
    match a.outcome {
        "doom" => r
            .notes
            .push("Doom: the roll ends the turn and its points are lost.".into()),
        "farkle" => r
            .notes
            .push("Farkle: no die scores; the turn ends and its points are lost.".into()),
        _ => {}
    }
    let mut s = Section::new(
        "Each choice",
        &["set aside", "then", "value", "against the best", ""],
    );
    for (i, o) in a.options.iter().enumerate() {
        s.row([
            Cell::from(o.set_aside.clone()),
            Cell::from(o.then),
            Cell::num(format!("{:.d$}", o.value), o.value, ""),
            Cell::num(format!("{:+.d$}", o.vs_best), o.vs_best, ""),
            Cell::from(if Some(i) == a.best { "best" } else { "" }),
        ]);
    }
    if !a.options.is_empty() {
        r.sections.push(s);
    }
    r.json = serde_json::to_value(a).unwrap_or_default();
    r
}

#[cfg(test)]
mod tests {
    use super::super::rules::{DoomPreset, DoomRules};
    use super::*;

    fn seed() -> Model {
        Model::new(&DoomRules::preset(DoomPreset::Seed))
    }

    fn advise_pts(m: &Model, r: &DoomAdviseRequest) -> Result<DoomAdvice, DoomAdviseError> {
        advise(m, r, Solved::default())
    }

    fn req(roll: &str, held: &str, tp: u32) -> DoomAdviseRequest {
        DoomAdviseRequest {
            roll: parse_dice(roll).unwrap(),
            held: parse_dice(held).unwrap(),
            turn_points: tp,
            game: None,
        }
    }

    /// The best choice's value averaged over every six-dice roll at the start of a turn
    /// (doom and farkle worth `bust`).
    fn first_roll_average(m: &Model, game: Option<GameScores>, solved: Solved, bust: f64) -> f64 {
        let mut avg = 0.0;
        for (c, p) in super::super::score::rolls(6) {
            let roll: Vec<u8> = (0..6)
                .flat_map(|f| std::iter::repeat_n(f as u8 + 1, c[f] as usize))
                .collect();
            let req = DoomAdviseRequest {
                roll,
                held: vec![],
                turn_points: 0,
                game,
            };
            let a = advise(m, &req, solved).unwrap();
            avg += p * a.options.first().map_or(bust, |o| o.value);
        }
        avg
    }

    #[test]
    fn the_first_roll_of_a_turn_is_valued_as_the_exact_turn_ev() {
        let m = seed();
        let opt = solve_policy(&m, &Policy::OPTIMAL);
        let solved = Solved {
            turn: Some(&opt.tables[0]),
            ..Default::default()
        };
        let avg = first_roll_average(&m, None, solved, 0.0);
        assert!((avg - opt.turn_ev).abs() < 1e-9, "{avg} vs {}", opt.turn_ev);
    }

    /// The advice announces its own solve of the two-player game (with the target) just
    /// before it, and only then: not when the game is given solved, nor for a target the
    /// solve refuses.
    #[test]
    fn the_solve_is_announced_only_when_it_happens() {
        let calls = std::sync::Mutex::new(Vec::new());
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = 500;
        let fast = Model::new(&r);
        let note = || {
            calls.lock().unwrap().push(500);
            WinSolution::solve_with(&fast, &WinOptions::fast())
        };
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = 500;
        let m = Model::new(&r);
        let req = DoomAdviseRequest {
            roll: parse_dice("1,2,3,3,4,5").unwrap(),
            held: vec![],
            turn_points: 0,
            game: Some(GameScores {
                score: 100,
                opponent: 200,
                seat: 0,
            }),
        };
        let announced = Solved {
            get_win: Some(&note),
            ..Default::default()
        };
        let a = advise(&m, &req, announced).unwrap();
        assert_eq!(*calls.lock().unwrap(), [500]);
        // The advice solves with the fast options unless told otherwise.
        let sol = WinSolution::solve_with(&m, &WinOptions::fast()).unwrap();
        let given = Solved {
            win: Some(&sol),
            ..announced
        };
        assert_eq!(advise(&m, &req, given).unwrap(), a);
        r.target = 200_000;
        assert!(advise(&Model::new(&r), &req, announced).is_err());
        assert_eq!(calls.lock().unwrap().len(), 1);
    }

    #[test]
    fn the_first_roll_of_a_game_turn_is_valued_as_the_solved_win_probability() {
        // Target 1000, the second seat at 300 against 450: the opponent moves at 450-300
        // after doom or a farkle.
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = 1000;
        let m = Model::new(&r);
        let sol = WinSolution::solve(&m).unwrap();
        let (a, b) = (6, 9);
        let game = GameScores {
            score: 300,
            opponent: 450,
            seat: 1,
        };
        let solved = Solved {
            win: Some(&sol),
            ..Default::default()
        };
        let avg = first_roll_average(&m, Some(game), solved, sol.farkle_value(1, a, b));
        let want = sol.w[1][a * sol.tu + b];
        assert!((avg - want).abs() < 1e-12, "{avg} vs {want}");
    }

    #[test]
    fn outcomes_and_choices() {
        let m = seed();
        assert_eq!(
            advise_pts(&m, &req("6,6,1,5,2,3", "", 0)).unwrap().outcome,
            "doom"
        );
        assert_eq!(
            advise_pts(&m, &req("2,2,3,6", "1,5", 150)).unwrap().outcome,
            "farkle"
        );
        // Held 1,1 and a roll of 3,3,4,4: all four make three pairs with the 1s (hot dice).
        let a = advise_pts(&m, &req("3,3,4,4", "1,1", 200)).unwrap();
        assert!(a
            .options
            .iter()
            .any(|o| o.set_aside == "3,3,4,4" && o.then == "roll (hot dice)"));
        // Banking is worth the turn points exactly.
        let a = advise_pts(&m, &req("1,2,3", "5,5,5", 500)).unwrap();
        let bank = a.options.iter().find(|o| o.then == "bank").unwrap();
        assert_eq!(bank.value, 600.0);
        assert_eq!(a.options[0].vs_best, 0.0);
        assert!(a.options.iter().all(|o| o.vs_best <= 0.0));
    }

    #[test]
    fn past_the_target_rolling_on_is_valued_from_its_own_dice() {
        // The second seat at 0 against 0, target 500, 1000 turn points: banking wins. Rolling
        // one die on (after setting 2,3,4 aside with the held 1,5) is a gamble, worth less
        // than rolling the six of hot dice would be, and less than certain victory.
        let mut r = DoomRules::preset(DoomPreset::Seed);
        r.target = 500;
        let m = Model::new(&r);
        let mut q = req("1,2,3,4", "1,5", 1000);
        q.game = Some(GameScores {
            score: 0,
            opponent: 0,
            seat: 1,
        });
        let a = advise(&m, &q, Solved::default()).unwrap();
        let find = |act: &str| a.options.iter().find(|o| o.action == act).unwrap().value;
        assert_eq!(find("set aside 2,3,4 then bank"), 1.0);
        let one_die = find("set aside 2,3,4 then roll");
        let hot = find("set aside 1,2,3,4 then roll (hot dice)");
        assert!(one_die < hot && hot < 1.0, "{one_die} {hot}");
    }

    #[test]
    fn impossible_positions_are_refused() {
        let m = seed();
        assert!(matches!(
            advise_pts(&m, &req("1,2,3,4,5,6,1", "", 0)),
            Err(DoomAdviseError::Dice { .. })
        ));
        assert!(matches!(
            advise_pts(&m, &req("1,2,3", "2,3,4", 0)),
            Err(DoomAdviseError::Held(_))
        ));
        assert!(matches!(
            advise_pts(&m, &req("1,2,3", "5,5,5", 20)),
            Err(DoomAdviseError::TurnPoints { .. })
        ));
        // Six dice rolled again after hot dice: at least a whole cycle's 200 (six 2s).
        let e = advise_pts(&m, &req("1,2,3,3,4,6", "", 50)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--turn-points 50 with nothing held: no sequence of set-asides makes it (the \
             smallest possible: 0; the nearest: 0 and 200)"
        );
        assert!(advise_pts(&m, &req("1,2,3,3,4,6", "", 200)).is_ok());
        // A held 5 has made 50: 100 is not a whole cycle past it.
        assert!(matches!(
            advise_pts(&m, &req("1,2,3,3,4", "5", 100)),
            Err(DoomAdviseError::Unreachable { smallest: 50, .. })
        ));
        // Three 6s are doom when rolled: never held.
        assert_eq!(
            advise_pts(&m, &req("1,2,3", "6,6,6", 600)).unwrap_err(),
            DoomAdviseError::HeldUnreachable("6,6,6".into())
        );
        // Separate scoring (S2 common): a held 1,1,1 made 300 (one at a time) or 1000 (at
        // once), never 0; after hot dice at least 300 (six 5s one at a time).
        let s2 = Model::new(&DoomRules::preset(DoomPreset::S2Common));
        for (held, tp, ok) in [
            ("1,1,1", 0, false),
            ("1,1,1", 300, true),
            ("1,1,1", 1000, true),
            ("1,1,1", 400, false),
            ("", 250, false),
            ("", 300, true),
        ] {
            let roll = &"2,3,4,6,6,2"[..2 * (6 - parse_dice(held).unwrap().len()) - 1];
            let r = advise_pts(&s2, &req(roll, held, tp));
            assert_eq!(r.is_ok(), ok, "{held} {tp}: {r:?}");
        }
        assert_eq!(
            parse_dice("1,7").unwrap_err(),
            DoomAdviseError::Face("7".into())
        );
    }
}
