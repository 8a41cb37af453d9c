//! Generated index plays: against the published Illustrious 18 and Fab 4 for the game they
//! were published for, the committed seed-table file against the generator, and the command's
//! errors.

use crate::common::*;

use rtplab::games::blackjack::count::{CountSystem, TcRounding};
use rtplab::games::blackjack::derive::{derive_chart, derive_indices, IndexRequest};
use rtplab::games::blackjack::indices::{IndexSet, Play};
use rtplab::games::blackjack::rules::{Rules, Surrender};

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
