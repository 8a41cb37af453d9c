//! Baccarat and Dice of Doom tables in files (`--table`): a file gives the same run as its
//! flags, a flag given overrides the file and an absent flag takes the file's value, reports
//! name the file and its hash, and a bad file is refused naming its line and field.

use crate::common::{fails_with, json, rtplab, succeeds, temp_dir};

/// Every figure of a report but its timings.
fn figures(mut v: serde_json::Value) -> serde_json::Value {
    for k in [
        "elapsed_s",
        "setup_s",
        "coups_per_s",
        "turns_per_s",
        "rules",
    ] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn a_baccarat_table_is_its_rules_and_flags_override_it() {
    let exact =
        |extra: &[&str]| json(&[&["exact", "baccarat", "--format", "json", "-q"], extra].concat());
    let plain = exact(&[]);
    let filed = exact(&["--table", "tables/punto-banco.toml"]);
    assert_eq!(figures(plain.clone()), figures(filed.clone()));
    assert!(plain["rules"].get("label").is_none());
    let label = &filed["rules"]["label"];
    assert_eq!(label["file"], "tables/punto-banco.toml");
    assert_eq!(label["name"], "punto banco");
    let hash = label["hash"].as_str().unwrap();
    assert!(
        hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()),
        "{hash}"
    );
    // The no-commission table: its banker pays 1:1 but 1:2 on a six, unless a flag says more.
    let nc = exact(&["--table", "tables/no-commission.toml"]);
    assert_eq!(nc["rules"]["banker_pays"], "no-commission");
    assert_ne!(figures(nc.clone()), figures(plain.clone()));
    // A flag given overrides the file; an absent flag keeps the file's value.
    let over = exact(&[
        "--table",
        "tables/no-commission.toml",
        "--commission",
        "4",
        "--tie-pays",
        "9",
    ]);
    assert_eq!(over["rules"]["banker_pays"], "commission");
    assert_eq!(over["rules"]["commission_permille"], 40);
    assert_eq!(over["rules"]["tie_pays"], 9);
    assert_eq!(over["rules"]["pair_pays"], 11);
    // The simulation takes the same path: the file's rules under the flags', in its report.
    let sim = json(&[
        "sim",
        "baccarat",
        "--coups",
        "2000",
        "--format",
        "json",
        "-q",
        "--table",
        "tables/no-commission.toml",
        "--decks",
        "6",
        "--penetration",
        "0.8",
    ]);
    assert_eq!(sim["rules"]["decks"], 6);
    assert_eq!(sim["rules"]["banker_pays"], "no-commission");
    assert_eq!(sim["rules"]["shuffle"]["cut_card"]["penetration"], 0.8);
    assert_eq!(sim["rules"]["label"]["file"], "tables/no-commission.toml");
    // A decks flag equal to the default still overrides a file that says otherwise.
    let d = temp_dir("tables-bac-decks");
    let six = d.join("six.toml");
    std::fs::write(&six, "game = \"baccarat\"\ndecks = 6\n").unwrap();
    let eight = exact(&["--table", six.to_str().unwrap(), "--decks", "8"]);
    assert_eq!(eight["rules"]["decks"], 8);
    assert_eq!(
        exact(&["--table", six.to_str().unwrap()])["rules"]["decks"],
        6
    );
    // The text report names the table and the first 8 digits of its hash.
    let out = succeeds(rtplab().args([
        "exact",
        "baccarat",
        "-q",
        "--table",
        "tables/punto-banco.toml",
    ]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "table punto banco (tables/punto-banco.toml, {}):",
            &hash[..8]
        )),
        "{text}"
    );
}

#[test]
fn a_doom_table_is_its_rules_and_flags_override_it() {
    let sim = |extra: &[&str]| {
        json(
            &[
                &["sim", "doom", "--turns", "3000", "--format", "json", "-q"],
                extra,
            ]
            .concat(),
        )
    };
    let plain = sim(&[]);
    let filed = sim(&["--table", "tables/doom-seed.toml"]);
    assert_eq!(
        figures(plain.clone()),
        figures(filed.clone()),
        "the seed's file is the seed"
    );
    assert_eq!(filed["rules"]["label"]["name"], "Dice of Doom seed rules");
    let hash = filed["rules"]["label"]["hash"]
        .as_str()
        .unwrap()
        .to_string();
    // Flags override the file; what they leave is the file's.
    let over = sim(&[
        "--table",
        "tables/doom-seed.toml",
        "--doom",
        "off",
        "--target",
        "5000",
    ]);
    assert!(over["rules"]["doom_sixes"].is_null());
    assert_eq!(over["rules"]["target"], 5000);
    assert_eq!(over["rules"]["held_dice"], "combine");
    assert_ne!(figures(over.clone()), figures(plain.clone()));
    // A file on another preset, its own ruling over it, and a flag over both.
    let d = temp_dir("tables-doom");
    let f = d.join("zilch-ish.toml");
    std::fs::write(
        &f,
        "game = \"doom\"\nrules = \"zilch\"\nmin-bank = 350\nfarkle-penalty = \"off\"\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let z = sim(&["--table", f, "--single-five", "100"]);
    assert_eq!(z["rules"]["preset"], "zilch");
    assert_eq!(z["rules"]["min_bank"], 350);
    assert!(z["rules"]["farkle_penalty"].is_null());
    assert_eq!(z["rules"]["n_of_kind"], "doubling");
    assert_eq!(z["rules"]["single_five"], 100);
    // The text report names the table and the first 8 digits of its hash.
    let out = succeeds(rtplab().args([
        "sim",
        "doom",
        "--turns",
        "1000",
        "-q",
        "--table",
        "tables/doom-seed.toml",
    ]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "table Dice of Doom seed rules (tables/doom-seed.toml, {}):",
            &hash[..8]
        )),
        "{text}"
    );
}

/// A bad baccarat or Doom table: exit 2, the file, line and field named.
#[test]
fn a_bad_baccarat_or_doom_table_names_line_and_field() {
    let d = temp_dir("tables-bad");
    let cases: [(&str, &str, &str); 8] = [
        (
            "baccarat",
            "game = \"baccarat\"\ndecks = 99\n",
            ":2: decks: expected a whole number from 1 to 16",
        ),
        (
            "baccarat",
            "game = \"baccarat\"\ncomision = 5\n",
            ":2: comision: unknown rule 'comision': the rules are decks, commission",
        ),
        (
            "baccarat",
            "game = \"baccarat\"\ncommission = 2.55\n",
            ":2: commission: expected a percentage",
        ),
        (
            "baccarat",
            "game = \"blackjack\"\n",
            ":1: game = \"blackjack\": this is a baccarat command",
        ),
        (
            "doom",
            "game = \"doom\"\nmin-bank = 100\nrules = \"zilch\"\n",
            ":3: rules: the preset comes before every other rule",
        ),
        (
            "doom",
            "game = \"doom\"\n\nhot-dice = \"maybe\"\n",
            ":3: hot-dice: expected forced, optional, found 'maybe'",
        ),
        (
            "doom",
            "game = \"doom\"\ndoom = 7\n",
            ":2: doom: expected a whole number from 1 to 6",
        ),
        (
            "doom",
            "game = \"doom\"\ntarget = 10\nmin-bank = 300\n",
            "impossible rules: --min-bank 300 exceeds --target 10",
        ),
    ];
    for (i, (game, text, needle)) in cases.iter().enumerate() {
        let f = d.join(format!("t{i}.toml"));
        std::fs::write(&f, text).unwrap();
        fails_with(
            &["exact", game, "-q", "--table", f.to_str().unwrap()],
            needle,
        );
    }
    fails_with(
        &[
            "sim",
            "doom",
            "-q",
            "--table",
            "tables/doom-seed.toml",
            "--rules",
            "zilch",
        ],
        "cannot be used with",
    );
}

/// Every shipped baccarat and Doom table reads and plays.
#[test]
fn the_shipped_baccarat_and_doom_tables_read() {
    let mut n = 0;
    for entry in std::fs::read_dir("tables").unwrap() {
        let p = entry.unwrap().path();
        let p = p.to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&p).unwrap();
        let args: &[&str] = if text.contains("game = \"baccarat\"") {
            &["sim", "baccarat", "--coups", "2000"]
        } else if text.contains("game = \"doom\"") {
            &["sim", "doom", "--turns", "2000"]
        } else {
            continue;
        };
        succeeds(rtplab().args(args).args(["-q", "--table", &p]));
        n += 1;
    }
    assert!(n >= 3, "{n} tables");
}
