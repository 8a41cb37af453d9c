//! Tables in files (`--table`) and studies (`rtplab study`): a table file gives the same run
//! as its flags, flags override it, reports name it; a study's cells are the command line's
//! runs, cached, resumed, sharded and merged to the same table.

use crate::common::{fails_with, json, rtplab, succeeds, temp_dir};

/// The seed table's file is the seed table: the same figures bit for bit as no file, and the
/// report names the file and its hash.
#[test]
fn a_table_file_is_its_rules_and_the_report_names_it() {
    let base = [
        "sim",
        "blackjack",
        "--rounds",
        "20000",
        "--format",
        "json",
        "-q",
    ];
    let plain = json(&base);
    let with = |extra: &[&str]| json(&[&base[..], extra].concat());
    let filed = with(&["--table", "tables/seed.toml"]);
    assert_eq!(plain["rtp"], filed["rtp"]);
    assert_eq!(plain["ev_se"], filed["ev_se"]);
    let label = &filed["rules"]["label"];
    assert_eq!(label["file"], "tables/seed.toml");
    assert_eq!(label["name"], "seed table");
    assert_eq!(label["hash"].as_str().unwrap().len(), 16);
    assert!(plain["rules"].get("label").is_none());
    // A 6-deck H17 shoe by its file and by its flags: the same run.
    let by_file = with(&["--table", "tables/6d-h17.toml"]);
    let by_flags = with(&[
        "--decks",
        "6",
        "--h17",
        "--peek",
        "--surrender",
        "late",
        "--das",
        "--max-hands",
        "4",
    ]);
    assert_eq!(by_file["rtp"], by_flags["rtp"]);
    assert_ne!(by_file["rtp"], plain["rtp"], "the file's rules are played");
    // A flag overrides the file.
    let over = with(&["--table", "tables/6d-h17.toml", "--decks", "2"]);
    assert_eq!(over["rules"]["decks"], 2);
    assert_eq!(over["rules"]["h17"], true);
    // The text report names the table.
    let out = succeeds(rtplab().args([
        "exact",
        "blackjack",
        "-q",
        "--table",
        "tables/single-deck.toml",
    ]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("table single deck (tables/single-deck.toml, "),
        "{text}"
    );
}

/// Every shipped table reads and plays.
#[test]
fn the_shipped_tables_read() {
    for entry in std::fs::read_dir("tables").unwrap() {
        let p = entry.unwrap().path();
        let p = p.to_str().unwrap();
        if p.ends_with(".toml")
            && std::fs::read_to_string(p)
                .unwrap()
                .contains("\"blackjack\"")
        {
            succeeds(rtplab().args(["sim", "blackjack", "--rounds", "2000", "-q", "--table", p]));
        }
    }
}

/// A bad table file: exit 2, the file, line and field named, what to write instead.
#[test]
fn a_bad_table_names_line_and_field() {
    let d = temp_dir("study-bad-table");
    let cases: [(&str, &str); 6] = [
        (
            "game = \"blackjack\"\ndecks = 99\n",
            ":2: decks: expected a whole number from 1 to 64",
        ),
        (
            "game = \"blackjack\"\nsurender = \"late\"\n",
            ":2: surender: unknown rule 'surender'",
        ),
        (
            "game = \"blackjack\"\nh17 = \"yes\"\n",
            ":2: h17: expected true or false",
        ),
        ("decks = 6\n", ":1: no game = \"blackjack\" line"),
        (
            "game = \"baccarat\"\n",
            ":1: game = \"baccarat\": this is a blackjack command",
        ),
        (
            "game = \"blackjack\"\n[rules]\n",
            ":2: a table file has no sections",
        ),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let f = d.join(format!("t{i}.toml"));
        std::fs::write(&f, text).unwrap();
        fails_with(
            &["sim", "blackjack", "-q", "--table", f.to_str().unwrap()],
            needle,
        );
    }
    fails_with(
        &[
            "sim",
            "blackjack",
            "-q",
            "--table",
            "tables/seed.toml",
            "--rules",
            "seed",
        ],
        "cannot be used with",
    );
}
