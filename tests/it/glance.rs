//! Reports read at a glance: the terminal's default report of each main command within a
//! line budget, `--full` bringing back every table it left out; the strategy card written
//! through the door.

use crate::common::{rtplab, succeeds};

/// Run `args` with `-q`, once as it is and once with `--full`; the two outputs.
fn both(args: &[&str]) -> (String, String) {
    let run = |full: bool| {
        let mut a: Vec<&str> = args.to_vec();
        a.push("-q");
        if full {
            a.push("--full");
        }
        String::from_utf8(succeeds(rtplab().args(&a)).stdout).unwrap()
    };
    (run(false), run(true))
}

/// The default report is within `budget` lines and names what it left out; `--full` prints
/// more, every table the default names as left out among them, and the default's tables are
/// all in the full one.
fn holds(args: &[&str], budget: usize) {
    let (short, full) = both(args);
    let n = short.lines().count();
    assert!(n <= budget, "{args:?}: {n} lines, budget {budget}\n{short}");
    assert!(
        full.lines().count() > n + 10,
        "{args:?}: --full adds little\n{full}"
    );
    assert!(short.contains("--full prints every table whole"), "{short}");
    // Each table of the default report is in the full one, under the same name.
    let heads = |t: &str| -> Vec<String> {
        let lines: Vec<&str> = t.lines().collect();
        lines
            .windows(3)
            .filter(|w| w[2].starts_with("---") && !w[0].is_empty())
            .map(|w| w[0].to_string())
            .collect()
    };
    let full_heads = heads(&full);
    let short_heads: Vec<String> = heads(&short)
        .iter()
        .map(|h| {
            let h = h.split(" (first ").next().unwrap();
            h.split(" (part ").next().unwrap().to_string()
        })
        .collect();
    for h in &short_heads {
        assert!(
            full_heads.iter().any(|f| f.starts_with(h.as_str())),
            "{args:?}: {h} not in --full"
        );
    }
    // The note (wrapped over lines) names every table the default leaves out.
    let lines: Vec<&str> = short.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("* Shorter on the terminal"))
        .unwrap();
    let mut note = lines[at].to_string();
    for l in lines[at + 1..].iter().take_while(|l| l.starts_with("  ")) {
        note = format!("{note} {}", l.trim());
    }
    for f in &full_heads {
        let name = f.split(" (part ").next().unwrap();
        if !short_heads.iter().any(|h| name.starts_with(h.as_str())) {
            assert!(
                note.contains(name),
                "{args:?}: {name} left out unnamed: {note}"
            );
        }
    }
    assert!(!full.contains("Shorter on the terminal"));
}

/// Line budgets of the default terminal reports (small runs; the lines do not grow with the
/// rounds): a flat blackjack run 45 (87 in full), baccarat's follow 50, a game of Dice of
/// Doom 60, Twenty One 50, the row-optimal policy 30 (583 in full).
#[test]
fn terminal_reports_hold_their_line_budgets() {
    let cases: Vec<(Vec<&str>, usize)> = vec![
        (vec!["sim", "blackjack", "--rounds", "20000"], 45),
        (
            vec!["sim", "baccarat", "--bet", "follow", "--coups", "20000"],
            50,
        ),
        (vec!["sim", "doom", "--games", "200"], 60),
        (vec!["sim", "twenty-one", "--games", "500"], 50),
        (vec!["exact", "twenty-one", "--row-policy", "--c", "5"], 30),
    ];
    std::thread::scope(|s| {
        for (args, budget) in &cases {
            s.spawn(move || holds(args, *budget));
        }
    });
}

/// The counter's report (170 lines in full), the exact Dice of Doom turn (98) and the
/// verification of a round log whose shuffle passes (130) within theirs: 95, 55 and 85 lines.
#[test]
#[ignore = "slow: in the full run, cargo test --profile ci -- --include-ignored"]
fn counting_and_exact_doom_hold_their_line_budgets() {
    holds(
        &[
            "sim",
            "blackjack",
            "--rounds",
            "20000",
            "--count",
            "hi-lo",
            "--ramp",
            "0:1,1:2,2:4,3:8,4:12",
            "--indices",
            "i18+fab4",
            "--bankroll",
            "1000",
        ],
        95,
    );
    holds(&["exact", "doom"], 55);
    holds(
        &[
            "verify",
            "blackjack",
            "docs/examples/seed-table-log.jsonl.gz",
        ],
        85,
    );
}

/// `strategies derive --card` writes the chart it prints as a card: every cell, its code the
/// chart file's; an HTML name gives a page; the card on the chart's own path is refused.
#[test]
fn the_strategy_card_is_the_chart() {
    let d = tempfile::tempdir().unwrap();
    let csv = d.path().join("6d.csv");
    let card = d.path().join("6d.svg");
    succeeds(rtplab().args([
        "strategies",
        "derive",
        "blackjack",
        "--decks",
        "6",
        "--das",
        "-q",
        "-o",
        csv.to_str().unwrap(),
        "--card",
        card.to_str().unwrap(),
    ]));
    let chart = std::fs::read_to_string(&csv).unwrap();
    let svg = std::fs::read_to_string(&card).unwrap();
    let ups = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];
    let mut cells = 0;
    for line in chart
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("hand"))
    {
        let f: Vec<&str> = line.split(',').collect();
        for (up, code) in ups.iter().zip(&f[1..]) {
            let want = format!(r#"data-hand="{}" data-up="{up}" data-code="{code}""#, f[0]);
            assert_eq!(svg.matches(&want).count(), 1, "{want}");
            cells += 1;
        }
    }
    assert_eq!(cells, 380);
    assert_eq!(svg.matches(r#"<g class="cell""#).count(), 380);
    assert!(svg.contains("6 decks") && svg.contains("Basic strategy"));
    // The card on the chart's own path: refused before any work, nothing written.
    let out = rtplab()
        .args([
            "strategies",
            "derive",
            "blackjack",
            "-q",
            "-o",
            csv.to_str().unwrap(),
            "--card",
            csv.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--card"));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), chart);
}
