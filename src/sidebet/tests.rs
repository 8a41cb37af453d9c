use super::*;

#[test]
fn every_built_in_table_validates_and_its_events_are_of_its_game() {
    for t in Paytable::all_built_in() {
        t.validate().unwrap();
        assert!(
            t.lines.iter().all(|l| l.event.game() == t.game),
            "{}",
            t.name
        );
    }
}

#[test]
fn a_paytable_file_reads_as_the_built_in_it_copies() {
    let text = r#"
# the Vegas table
name = "21+3"
game = "blackjack"
source = "the 'Vegas' 21+3 of the live tables (advertised RTP 96.30% at 8 decks)"
[pays]
suited-trips = 100
straight-flush = 40   # a comment
three-of-a-kind = 30
straight = 10
flush = "5"
"#;
    assert_eq!(
        Paytable::parse(text, "t.toml").unwrap(),
        Paytable::built_in("21+3").unwrap()
    );
}

#[test]
fn fractions_and_pushes_read_and_units_make_every_pay_whole() {
    let t = Paytable::parse(
        "name = \"x\"\ngame = \"blackjack\"\n[pays]\nroyal-match = 25\nsuited = \"5/2\"\n",
        "x",
    )
    .unwrap();
    assert_eq!(t.units(), 2);
    assert_eq!(t.pays_in_units(), vec![50, 5]);
    let b = Paytable::parse(
        "name = \"d\"\ngame = \"baccarat\"\n[pays]\nnatural-tie = 0\nperfect-pair = 3\n",
        "d",
    );
    // A coup event and a first-four event in one table are refused.
    assert!(b.unwrap_err().to_string().contains("two side bets"));
}

#[test]
fn bad_files_name_the_line_and_what_to_change() {
    let e = |text: &str| Paytable::parse(text, "f.toml").unwrap_err().to_string();
    assert!(e("name = \"x\"\ngame = \"blackjack\"\n[pays]\nflsh = 5\n")
        .starts_with("f.toml:4: unknown event 'flsh'"));
    assert!(
        e("name = \"x\"\ngame = \"poker\"\n").contains("expected \"blackjack\" or \"baccarat\"")
    );
    assert!(
        e("name = \"x\"\ngame = \"blackjack\"\n[pays]\nflush = -2\n")
            .contains("f.toml:4: pay '-2'")
    );
    assert!(
        e("name = \"x\"\ngame = \"blackjack\"\n[pays]\nflush = 5\nflush = 6\n")
            .contains("listed twice")
    );
    assert!(
        e("name = \"x\"\ngame = \"blackjack\"\n[pays]\ndragon-7 = 40\n")
            .contains("is a baccarat event")
    );
    assert!(e("game = \"blackjack\"\n").contains("no name"));
    assert!(e("name = \"x\"\ngame = \"blackjack\"\n").contains("no events"));
    assert!(e("name = \"x\"\ngame = \"blackjack\"\n[odds]\n").contains("only section is [pays]"));
}

#[test]
fn the_line_paid_is_the_one_that_pays_most() {
    let t = Paytable::built_in("21+3").unwrap();
    let card = |r: u8, s: u8| r * 4 + s;
    let deal = |a, b, c| BjDeal {
        two: [a, b],
        up: c,
        dealer_bj: false,
        ..BjDeal::default()
    };
    let name = |d: BjDeal| t.bj_paid(&d).map(|i| t.lines[i].event.name());
    // 7♣ 7♣ 7♣: suited trips (also three of a kind and a flush).
    assert_eq!(
        name(deal(card(6, 0), card(6, 0), card(6, 0))).as_deref(),
        Some("suited-trips")
    );
    // 5♥ 6♥ 7♥: a straight flush.
    assert_eq!(
        name(deal(card(4, 2), card(5, 2), card(6, 2))).as_deref(),
        Some("straight-flush")
    );
    // Q K A runs, K A 2 does not.
    assert_eq!(
        name(deal(card(11, 0), card(12, 1), card(0, 2))).as_deref(),
        Some("straight")
    );
    assert_eq!(name(deal(card(12, 0), card(0, 1), card(1, 2))), None);
    // A pair with an off-suit card loses.
    assert_eq!(name(deal(card(3, 0), card(3, 1), card(8, 2))), None);
}

#[test]
fn perfect_coloured_and_mixed_pairs() {
    let t = Paytable::built_in("perfect-pairs").unwrap();
    let paid = |a: u8, b: u8| {
        let d = BjDeal {
            two: [a, b],
            up: 0,
            dealer_bj: false,
            ..BjDeal::default()
        };
        t.bj_paid(&d).map(|i| t.lines[i].pays.to)
    };
    // Suits: 0 clubs, 1 diamonds, 2 hearts, 3 spades.
    assert_eq!(paid(40, 40), Some(25)); // K♣ K♣
    assert_eq!(paid(40, 43), Some(12)); // K♣ K♠: both black
    assert_eq!(paid(41, 42), Some(12)); // K♦ K♥: both red
    assert_eq!(paid(40, 42), Some(6)); // K♣ K♥
    assert_eq!(paid(40, 44), None); // K♣ and an ace: no pair
}

#[test]
fn baccarat_events_on_coups() {
    let c = |r: u8| r * 4;
    // Player 4+5 = 9 natural against banker 3+4 = 7.
    let d = BacDeal::of(&[c(3), c(4)], &[c(2), c(3)]);
    let t = Paytable::built_in("dragon-bonus:player").unwrap();
    assert_eq!(
        t.bac_paid(&d).map(|i| t.lines[i].event.name()).as_deref(),
        Some("player-natural-win")
    );
    // Player 10+2+7 = 9 (non-natural) against banker 10+10+... = 0: wins by 9.
    let d = BacDeal::of(&[c(9), c(1), c(6)], &[c(10), c(11), c(12)]);
    assert_eq!(t.bac_paid(&d).map(|i| t.lines[i].pays.to), Some(30));
    // Banker three-card 7 beats player 6: a Dragon 7.
    let d = BacDeal::of(&[c(2), c(2)], &[c(9), c(1), c(4)]);
    let dragon = Paytable::built_in("dragon-7").unwrap();
    assert_eq!(dragon.bac_paid(&d), Some(0));
}

#[test]
fn side_values_split_into_name_and_stake() {
    assert_eq!(split_stake("21+3:5"), Some(("21+3", "5")));
    assert_eq!(split_stake("dragon-bonus:player"), None);
    assert_eq!(
        split_stake("dragon-bonus:player:2"),
        Some(("dragon-bonus:player", "2"))
    );
    assert_eq!(split_stake("perfect-pairs"), None);
    assert!(is_built_in("dragon-bonus:banker:10"));
    assert!(!is_built_in("mine.toml"));
}
