//! `rtplab advise blackjack` at the command line.

use crate::common::*;

#[test]
fn advice_lists_every_legal_action_best_first() {
    let v = json(&[
        "advise",
        "blackjack",
        "--hand",
        "T,6",
        "--up",
        "T",
        "--format",
        "json",
    ]);
    let options = v["options"].as_array().unwrap();
    let names: Vec<&str> = options
        .iter()
        .map(|o| o["action"].as_str().unwrap())
        .collect();
    // The seed table: no surrender against a ten, no split of a non-pair.
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(!names.contains(&"surrender") && !names.contains(&"split"));
    assert_eq!(v["best"], options[0]["action"]);
    assert_eq!(v["chart_action"], "hit");
    let evs: Vec<f64> = options.iter().map(|o| o["ev"].as_f64().unwrap()).collect();
    assert!(evs.windows(2).all(|w| w[0] >= w[1]));
    // A pair in a game that splits: split is offered and the chart's choice is marked.
    let v = json(&[
        "advise",
        "blackjack",
        "--hand",
        "8,8",
        "--up",
        "6",
        "--peek",
        "--format",
        "json",
    ]);
    assert_eq!(v["best"], "split");
    assert_eq!(v["chart_action"], "split");
}

#[test]
fn impossible_positions_exit_2() {
    let base = [
        "advise",
        "blackjack",
        "--decks",
        "1",
        "--penetration",
        "0.5",
        "--up",
        "5",
    ];
    for (extra, needle) in [
        (&["--hand", "5,5", "--removed", "5,5"][..], "only 4"),
        (&["--hand", "T,X"][..], "card 'X'"),
        (&["--hand", "T"][..], "at least two cards"),
        (&["--hand", "T,T,5"][..], "over 21"),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        fails_with(&args, needle);
    }
}
