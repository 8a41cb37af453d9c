//! Generated index plays: against the published Illustrious 18 and Fab 4 for the game they
//! were published for, the committed seed-table file against the generator, and the command's
//! errors.

use crate::common::*;

use rtplab::games::blackjack::count::{CountSystem, Ramp, TcRounding};
use rtplab::games::blackjack::derive::{
    derive_chart, derive_indices, GeneratedIndex, IndexRequest, RiskAverse,
};
use rtplab::games::blackjack::indices::{IndexSet, Play};
use rtplab::games::blackjack::rules::{Rules, Surrender};
use rtplab::games::blackjack::strategy::Code;

#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn generated_hi_lo_indices_match_the_published_i18_and_fab4_within_one() {
    // The game they are published for: 6 decks, S17, peek, DAS, late surrender.
    let mut rules = Rules::seed();
    rules.decks = 6;
    rules.peek = true;
    rules.das = true;
    rules.max_hands = 4;
    rules.surrender = Surrender::Late;
    let chart = derive_chart(&rules, false);
    let system = CountSystem::resolve("hi-lo").unwrap();
    let found = derive_indices(&IndexRequest {
        rules: &rules,
        system: &system,
        chart: &chart,
        decks_left: 3.0,
        rounding: TcRounding::Floor,
        lo: -10,
        hi: 10,
        progress: false,
        risk_averse: None,
    })
    .unwrap();
    let published = IndexSet::resolve("i18+fab4").unwrap();
    for p in &published.entries {
        let surrender = p.play == Play::Surrender;
        let g = found
            .iter()
            .find(|g| {
                g.entry.row == p.row
                    && g.entry.up == p.up
                    && (g.entry.play == Play::Surrender) == surrender
            })
            .unwrap_or_else(|| panic!("no generated index for {p}"));
        assert_eq!(g.entry.play, p.play, "{p} vs {}", g.entry);
        assert_eq!(g.entry.when.at_least, p.when.at_least, "{p} vs {}", g.entry);
        let d = (g.entry.when.index - p.when.index).abs();
        assert!(
            d <= 1,
            "{p} vs generated {} (crossing {:.2})",
            g.entry,
            g.crossing
        );
    }
}

#[test]
fn committed_seed_indices_are_the_generated_ones() {
    let out = succeeds(rtplab().args(["strategies", "indices", "blackjack", "--count", "hi-lo"]));
    let file = std::fs::read_to_string("strategies/blackjack/indices-hilo-seed.csv").unwrap();
    assert_eq!(
        file,
        String::from_utf8(out.stdout).unwrap(),
        "regenerate with: rtplab strategies indices blackjack --count hi-lo -o strategies/blackjack/indices-hilo-seed.csv"
    );
    // And the simulator reads it.
    let set = IndexSet::resolve("strategies/blackjack/indices-hilo-seed.csv").unwrap();
    assert!(set.entries.len() > 50, "{}", set.entries.len());
}

/// The default depth is one the shoe can take: half of one deck (0.5) is not more than half a
/// deck, so a single deck's default is 0.75 decks left (and an explicit 0.5 is still refused).
#[test]
fn one_deck_indices_default_to_decks_left_the_shoe_can_take() {
    let base = [
        "strategies",
        "indices",
        "blackjack",
        "--count",
        "hi-lo",
        "--decks",
        "1",
    ];
    let out = succeeds(rtplab().args(base));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("with 0.75 decks left"), "{text}");
    let mut half = base.to_vec();
    half.extend(["--decks-left", "0.5"]);
    fails_with(&half, "expected more than 0.5");
}

#[test]
fn bad_index_requests_exit_2() {
    let base = ["strategies", "indices", "blackjack", "--count", "hi-lo"];
    let cases: [(&[&str], &str); 5] = [
        (&["--decks-left", "0"], "--decks-left 0"),
        (&["--decks-left", "9"], "at most the shoe's 8 decks"),
        (&["--range", "5..-5"], "expected lo < hi"),
        (&["--range", "x"], "expected LO..HI"),
        (&["--strategy", "autoplay"], "deviate from a chart"),
    ];
    for (extra, needle) in cases {
        let mut args = base.to_vec();
        args.extend(extra);
        fails_with(&args, needle);
    }
    fails_with(
        &["strategies", "indices", "blackjack", "--count", "no-such"],
        "unknown count",
    );
}

/// Risk-averse indices weigh a play's rise in variance against its EV at the ramp's bet: doubles
/// (four times the variance) come at higher counts, surrenders (a quarter of it) at lower ones,
/// splits stay on EV, and a weight of 0 gives the EV indices exactly. The game of the I18 with a
/// 1-12 ramp and a weight E/(2V) of 0.002 (a strong game, to make the moves plain).
#[test]
fn risk_averse_indices_double_later_and_surrender_sooner() {
    let mut rules = Rules::seed();
    rules.decks = 6;
    rules.peek = true;
    rules.das = true;
    rules.surrender = Surrender::Late;
    let chart = derive_chart(&rules, false);
    let system = CountSystem::resolve("hi-lo").unwrap();
    let ramp = Ramp::resolve("0:1,1:2,2:4,3:8,4:12").unwrap();
    let run = |per_unit: Option<f64>| {
        derive_indices(&IndexRequest {
            rules: &rules,
            system: &system,
            chart: &chart,
            decks_left: 3.0,
            rounding: TcRounding::Floor,
            lo: -4,
            hi: 8,
            progress: false,
            risk_averse: per_unit.map(|per_unit| RiskAverse {
                ramp: &ramp,
                per_unit,
            }),
        })
        .unwrap()
    };
    let ev = run(None);
    assert_eq!(run(Some(0.0)), ev, "a weight of 0 is the EV objective");
    let ra = run(Some(0.002));
    let same = |g: &GeneratedIndex| {
        ev.iter().find(|e| {
            e.entry.row == g.entry.row && e.entry.up == g.entry.up && e.entry.play == g.entry.play
        })
    };
    let (mut doubles, mut surrenders, mut moved) = (0, 0, 0);
    for g in &ra {
        let Some(e) = same(g) else { continue };
        let (x, y) = (g.crossing, e.crossing);
        match g.entry.play {
            Play::Code(Code::Dh | Code::Ds) if g.entry.when.at_least => {
                doubles += 1;
                assert!(
                    x >= y - 1e-9,
                    "{}: risk-averse {x:+.2} below EV {y:+.2}",
                    g.entry
                );
                if x - y >= 0.5 {
                    moved += 1;
                }
            }
            Play::Surrender if g.entry.when.at_least => {
                surrenders += 1;
                assert!(
                    x <= y + 1e-9,
                    "{}: risk-averse {x:+.2} above EV {y:+.2}",
                    g.entry
                );
            }
            Play::Code(Code::P) | Play::Insure => {
                assert_eq!(x, y, "{}: splits and insurance stay on EV", g.entry)
            }
            _ => {}
        }
    }
    assert!(
        doubles >= 5 && surrenders >= 3,
        "{doubles} doubles, {surrenders} surrenders"
    );
    assert!(
        moved >= 3,
        "only {moved} of {doubles} doubles moved half a count or more"
    );
}

#[test]
fn risk_averse_requests_need_a_winning_ramp() {
    let base = ["strategies", "indices", "blackjack", "--count", "hi-lo"];
    let cases: [(&[&str], &str); 3] = [
        (&["--objective", "score"], "--objective score needs --ramp"),
        (&["--ramp", "0:1,2:4"], "--ramp is for --objective score"),
        (
            &["--objective", "score", "--ramp", "0:1", "--rounds", "200k"],
            "loses at these rules",
        ),
    ];
    for (extra, needle) in cases {
        let mut args = base.to_vec();
        args.extend(extra);
        fails_with(&args, needle);
    }
    // An unbalanced count's ramp is on the running count, without true-count rounding.
    let out = succeeds(rtplab().args([
        "strategies",
        "indices",
        "blackjack",
        "--count",
        "ko",
        "--decks",
        "6",
        "--peek",
        "--das",
        "--surrender",
        "late",
        "--objective",
        "score",
        "--ramp",
        "0:1,2:4,4:8,6:12",
        "--rounds",
        "1m",
        "-q",
    ]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("# Objective: SCORE under the ramp 0:1,2:4,4:8,6:12"),
        "{text}"
    );
}
