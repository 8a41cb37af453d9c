//! A run stopped before its first chunk completes (the stop flag already set when the run
//! starts, as after an early Ctrl-C or SIGTERM) is a valid report: marked INTERRUPTED, 0
//! rounds or games, statistics shown as unavailable; in every format and with plots.

use std::sync::atomic::AtomicBool;

use rtplab::report::{Format, Plots, Report};

const FORMATS: [Format; 4] = [Format::Table, Format::Markdown, Format::Csv, Format::Json];

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("rtplab-interrupted-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every format renders, says INTERRUPTED, shows no NaN, and the JSON says interrupted;
/// the plots render and the out-dir files all carry the marker.
fn check_report(name: &str, report: &Report, plots: Vec<(String, String)>) {
    for f in FORMATS {
        let t = report.render(f);
        assert!(!t.is_empty(), "{name} {f:?}");
        if f != Format::Json {
            assert!(t.contains("INTERRUPTED"), "{name} {f:?}:\n{t}");
            assert!(!has_nan(&t), "{name} {f:?}:\n{t}");
        }
    }
    let j: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
    assert_eq!(j["interrupted"], true, "{name}: {j}");
    let dir = temp_dir(name);
    rtplab::report::write_out_dir(&dir, report, &plots).unwrap();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap() == rtplab::door::MANIFEST {
            continue;
        }
        let t = std::fs::read_to_string(&p).unwrap();
        let ext = p.extension().unwrap().to_string_lossy().into_owned();
        if ext != "json" {
            assert!(t.contains("INTERRUPTED"), "{} has no marker", p.display());
        }
        if ext == "svg" {
            assert!(!has_nan(&t), "{}", p.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A NaN or infinity printed as a number.
fn has_nan(t: &str) -> bool {
    t.split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "NaN" || w == "inf")
}

fn stopped() -> AtomicBool {
    AtomicBool::new(true)
}

fn one_thread() -> rtplab::game::RunSpec {
    rtplab::game::RunSpec {
        seed: 1,
        threads: Some(1),
        ..Default::default()
    }
}

#[test]
fn blackjack_stopped_before_its_first_chunk() {
    use rtplab::game::{report, simulate, Game, RunSpec};
    use rtplab::games::blackjack::report::{BehindFollows, SideBets};
    use rtplab::games::blackjack::resolve::resolve_strategy;
    use rtplab::games::blackjack::rules::Rules;
    use rtplab::games::blackjack::{BjConfig, Blackjack};
    let rules = Rules::seed();
    for (insure, pairs, behind, claim) in [(false, 0.0, 0.0, None), (true, 1.0, 1.0, Some(0.9954))]
    {
        let cfg = BjConfig {
            strategy: resolve_strategy("basic", &rules, &Default::default()).unwrap(),
            rules: rules.clone(),
            bets: SideBets {
                pairs,
                behind,
                behind_follows: BehindFollows::All,
                insure,
            },
            rounds: 100_000,
            count: None,
            sides: Vec::new(),
            errors: None,
            tables: Default::default(),
            seats: Vec::new(),
            behind_seat: None,
        };
        let spec = RunSpec {
            seed: 1,
            threads: Some(1),
            ..RunSpec::default()
        };
        let run = simulate::<Blackjack>(cfg, &spec, &stopped()).unwrap();
        let report = report(&run, claim).unwrap();
        assert!(run.meta.interrupted);
        assert_eq!(run.meta.chunks_done, 0);
        let p = Blackjack::plots(&run, claim).unwrap();
        let j: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
        assert_eq!(j["rounds"], 0, "{j}");
        check_report("blackjack", &report, p);
    }
}

fn doom(mode: rtplab::games::doom::sim::Mode, seats: usize) -> (Report, Plots, bool) {
    use rtplab::games::doom::game::{Doom, DoomConfig};
    use rtplab::games::doom::rules::{DoomPreset, DoomRules};
    let cfg = DoomConfig {
        rules: DoomRules::preset(DoomPreset::Seed),
        seats: vec!["bank-at:300".to_string(); seats],
        mode,
        start_seat: None,
        table: Default::default(),
    };
    let r = rtplab::game::sim_rendered::<Doom>(cfg, &one_thread(), None, &stopped()).unwrap();
    (r.report, r.plots, r.interrupted)
}

#[test]
fn doom_turns_stopped_before_the_first_chunk() {
    let (report, plots, interrupted) = doom(rtplab::games::doom::sim::Mode::Turns(100_000), 1);
    assert!(interrupted);
    let j: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
    assert_eq!(j["turns"], 0, "{j}");
    check_report("doom-turns", &report, plots().unwrap());
}

#[test]
fn doom_games_stopped_before_the_first_chunk() {
    let (report, plots, interrupted) = doom(rtplab::games::doom::sim::Mode::Games(1_000), 3);
    assert!(interrupted);
    let j: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
    assert_eq!(j["games"], 0, "{j}");
    check_report("doom-games", &report, plots().unwrap());
}

#[test]
fn twenty_one_stopped_before_the_first_chunk() {
    use rtplab::games::twentyone::game::{TwentyOne, TwentyOneConfig, DEFAULT_SEATS};
    for seats in [DEFAULT_SEATS.to_vec(), vec!["greedy", "greedy"]] {
        let cfg = TwentyOneConfig::new(&seats, 10_000);
        let r =
            rtplab::game::sim_rendered::<TwentyOne>(cfg, &one_thread(), None, &stopped()).unwrap();
        let (report, plots, interrupted) = (r.report, r.plots, r.interrupted);
        assert!(interrupted);
        let j: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
        assert_eq!(j["games"], 0, "{j}");
        check_report("twenty-one", &report, plots().unwrap());
    }
}

#[test]
fn a_comparison_stopped_before_its_first_chunk() {
    use rtplab::compare::{compare, compare_model, render};
    use rtplab::games::blackjack::resolve::resolve_strategy;
    use rtplab::games::blackjack::rules::Rules;
    use rtplab::games::blackjack::{BjConfig, Blackjack};
    let rules = Rules::seed();
    let configs: Vec<_> = ["basic", "autoplay", "mimic-dealer"]
        .iter()
        .map(|s| {
            BjConfig::new(
                rules.clone(),
                resolve_strategy(s, &rules, &Default::default()).unwrap(),
                100_000,
            )
        })
        .collect();
    let run = compare::<Blackjack>(configs, &one_thread(), &stopped()).unwrap();
    assert!(run.meta.interrupted);
    assert_eq!(run.meta.chunks_done, 0);
    let report = render(&compare_model(&run));
    let j: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
    assert_eq!(j["chunks"]["done"], 0, "{j}");
    assert_eq!(j["strategies"][0]["observations"], 0, "{j}");
    assert_eq!(j["interrupted"], true, "{j}");
    let table = report.render(Format::Table);
    // No pair is "identical" for want of data.
    assert!(!table.contains("identical"), "{table}");
    check_report("compare", &report, Vec::new());
}

#[test]
fn the_exact_game_of_three_stopped_before_its_strategies() {
    use rtplab::games::doom::model::Model;
    use rtplab::games::doom::report::{render_small, small_model};
    use rtplab::games::doom::rules::{DoomPreset, DoomRules, HeldDice};
    use rtplab::games::doom::strategy::DoomStrategy;
    let mut rules = DoomRules::preset(DoomPreset::Seed);
    rules.target = 200;
    rules.held_dice = HeldDice::Separate;
    rules.doom_sixes = Some(1);
    let m = Model::new(&rules);
    let strategies = vec![DoomStrategy::parse("optimal").unwrap()];
    let x = small_model(&m, 3, &strategies, false, &stopped(), None).unwrap();
    assert!(x.interrupted && x.strategies.is_empty());
    assert!((x.p_win.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    check_report("doom-three", &render_small(&x), Vec::new());
}

#[test]
fn a_verification_stopped_before_its_first_round() {
    use rtplab::games::blackjack::verify::{plots, render, verify};
    let log = concat!(
        r#"{"type":"header","format":"rtplab-round-log","version":1,"game":"blackjack","rules":{}}"#,
        "\n",
        r#"{"type":"shoe","shoe":1,"cut":312}"#,
        "\n",
        r#"{"type":"round","shoe":1,"round":1,"cards":["Th","6d","7c","Ks","5h"],"seats":[{"seat":1,"stake":{"main":100},"play":["S"],"paid":{"main":0}}]}"#,
        "\n"
    );
    let lines =
        rtplab::logfile::Lines::new("log", std::io::Cursor::new(log.as_bytes().to_vec())).unwrap();
    let m = verify(
        lines,
        0.99,
        log.len() as u64,
        false,
        &stopped(),
        None,
        &rtplab::games::blackjack::kept::Kept::Fresh,
    )
    .unwrap();
    assert_eq!((m.rounds, m.interrupted_at_line), (0, Some(2)));
    let report = render(&m);
    check_report("verify", &report, plots(&m).unwrap());
}
