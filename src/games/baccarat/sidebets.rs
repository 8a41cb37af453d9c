//! The side bets of the baccarat table valued exactly. A bet on the hands' first two cards
//! (pairs) is valued over every ordered deal of the first four cards, by card with its suit;
//! a bet on the coup's result over every coup of the full shoe, by card value, with the
//! cards a coup does not draw counted as dealt (six positions, as published tables count).

use super::coup::{banker_draws, player_draws};
use crate::cards::CardId;
use crate::sidebet::{BacDeal, EventTable, Paytable, Scope};

/// What one combination is, by scope.
const COUNTED_FOUR: &str = "ordered deals of the first four cards (player, banker, player, banker)";
const COUNTED_COUP: &str = "ordered deals of six cards (a coup and the cards it leaves undrawn)";

/// The combinations of each line of `table` (then of the loss) over a full shoe of `decks`.
pub fn weights(table: &Paytable, decks: u32) -> Vec<u128> {
    weights_from(table, &[decks as u128; 52])
}

/// The same over a shoe of `by_card[c]` cards of each card `c` (a [`CardId`]).
pub fn weights_from(table: &Paytable, by_card: &[u128; 52]) -> Vec<u128> {
    match table.scope() {
        Scope::FirstFour => first_four(table, by_card),
        _ => coup(table, by_card),
    }
}

fn first_four(table: &Paytable, by_card: &[u128; 52]) -> Vec<u128> {
    let mut left = *by_card;
    let lose = table.lines.len();
    let mut w = vec![0u128; lose + 1];
    let take = |left: &mut [u128; 52], c: u8| {
        let k = left[c as usize];
        if k > 0 {
            left[c as usize] -= 1;
        }
        k
    };
    for p1 in 0..52u8 {
        let w1 = take(&mut left, p1);
        if w1 == 0 {
            continue;
        }
        for b1 in 0..52u8 {
            let w2 = take(&mut left, b1);
            if w2 == 0 {
                continue;
            }
            for p2 in 0..52u8 {
                let w3 = take(&mut left, p2);
                if w3 == 0 {
                    continue;
                }
                for b2 in 0..52u8 {
                    let w4 = left[b2 as usize];
                    if w4 == 0 {
                        continue;
                    }
                    let deal = pairs_of([p1, p2], [b1, b2]);
                    w[table.bac_paid(&deal).unwrap_or(lose)] += w1 * w2 * w3 * w4;
                }
                left[p2 as usize] += 1;
            }
            left[b1 as usize] += 1;
        }
        left[p1 as usize] += 1;
    }
    w
}

/// The pairs of the first four cards (the totals left at 0: a first-four bet reads none).
fn pairs_of(p: [CardId; 2], b: [CardId; 2]) -> BacDeal {
    let r = crate::cards::rank_of;
    BacDeal {
        player_pair: r(p[0]) == r(p[1]),
        banker_pair: r(b[0]) == r(b[1]),
        player_perfect: p[0] == p[1],
        banker_perfect: b[0] == b[1],
        ..BacDeal::default()
    }
}

fn coup(table: &Paytable, by_card: &[u128; 52]) -> Vec<u128> {
    // Cards of each baccarat value (ten and faces 0).
    let mut left = [0u128; 10];
    for (c, &k) in by_card.iter().enumerate() {
        let r = crate::cards::rank_of(c as CardId);
        left[if r >= 9 { 0 } else { r as usize + 1 }] += k;
    }
    let n: u128 = by_card.iter().sum();
    let lose = table.lines.len();
    let mut w = vec![0u128; lose + 1];
    for p1 in 0..10 {
        let w1 = left[p1];
        if w1 == 0 {
            continue;
        }
        left[p1] -= 1;
        for b1 in 0..10 {
            let w2 = left[b1];
            if w2 == 0 {
                continue;
            }
            left[b1] -= 1;
            for p2 in 0..10 {
                let w3 = left[p2];
                if w3 == 0 {
                    continue;
                }
                left[p2] -= 1;
                for b2 in 0..10 {
                    let w4 = left[b2];
                    if w4 == 0 {
                        continue;
                    }
                    left[b2] -= 1;
                    let w = &mut w;
                    let base = w1 * w2 * w3 * w4;
                    let pt = ((p1 + p2) % 10) as u8;
                    let bt = ((b1 + b2) % 10) as u8;
                    let mut record = |p: u8, b: u8, pc: u8, bc: u8, weight: u128| {
                        let deal = BacDeal {
                            player_two: pt,
                            banker_two: bt,
                            player: p,
                            banker: b,
                            player_cards: pc,
                            banker_cards: bc,
                            ..BacDeal::default()
                        };
                        // The positions the coup left undrawn, counted as dealt.
                        let drawn = 4 + (pc - 2) + (bc - 2);
                        let rest: u128 = (drawn as u128..6).map(|k| n - k).product();
                        w[table.bac_paid(&deal).unwrap_or(lose)] += weight * rest;
                    };
                    if pt >= 8 || bt >= 8 {
                        record(pt, bt, 2, 2, base);
                    } else if player_draws(pt) {
                        for x in 0..10 {
                            let wx = left[x];
                            if wx == 0 {
                                continue;
                            }
                            left[x] -= 1;
                            let p = (pt + x as u8) % 10;
                            if banker_draws(bt, Some(x as u8)) {
                                for (y, &wy) in left.iter().enumerate() {
                                    let b = (bt + y as u8) % 10;
                                    record(p, b, 3, 3, base * wx * wy);
                                }
                            } else {
                                record(p, bt, 3, 2, base * wx);
                            }
                            left[x] += 1;
                        }
                    } else if banker_draws(bt, None) {
                        for (y, &wy) in left.iter().enumerate() {
                            let b = (bt + y as u8) % 10;
                            record(pt, b, 2, 3, base * wy);
                        }
                    } else {
                        record(pt, bt, 2, 2, base);
                    }
                    left[b2] += 1;
                }
                left[p2] += 1;
            }
            left[b1] += 1;
        }
        left[p1] += 1;
    }
    w
}

/// The wager's event table over a full shoe of `decks`.
pub fn exact(table: &Paytable, decks: u32) -> EventTable {
    let counted = match table.scope() {
        Scope::FirstFour => COUNTED_FOUR,
        _ => COUNTED_COUP,
    };
    EventTable::from_weights(table, decks, &weights(table, decks), counted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sidebet::Game;

    fn edge(name: &str, decks: u32) -> f64 {
        let e = exact(&Paytable::built_in(name).unwrap(), decks);
        ((1.0 - e.rtp) * 10_000.0).round() / 100.0
    }

    /// The Wizard of Odds' house edges at 8 decks (baccarat appendix 5, EZ Baccarat, the
    /// Perfect Pairs pages): Dragon Bonus player 2.65%, banker 9.37%; Dragon 7 7.61%; Panda 8
    /// 10.19%; Perfect Pairs (version 2) 6.62%; Lucky 6 (Macau: 12 and 20 to 1) 16.68%; and
    /// Either Pair at 5 to 1, 13.71%.
    #[test]
    fn published_house_edges_are_reproduced() {
        assert_eq!(edge("dragon-bonus:player", 8), 2.65);
        assert_eq!(edge("dragon-bonus:banker", 8), 9.37);
        assert_eq!(edge("dragon-bonus:player", 6), 2.67);
        assert_eq!(edge("dragon-bonus:banker", 6), 9.39);
        assert_eq!(edge("dragon-7", 8), 7.61);
        assert_eq!(edge("panda-8", 8), 10.19);
        assert_eq!(edge("perfect-pair", 8), 6.62);
        assert_eq!(edge("either-pair", 8), 13.71);
        assert_eq!(edge("lucky-6", 8), 16.68);
    }

    /// The shipped paytable file of the Las Vegas Lucky 6 (12 and 23 to 1): 11.70% at 8 decks.
    #[test]
    fn the_shipped_las_vegas_lucky_6_file_reproduces_its_published_edge() {
        let text = include_str!("../../../strategies/side-bets/lucky-6-las-vegas.toml");
        let t = Paytable::parse(text, "lucky-6-las-vegas.toml").unwrap();
        assert_eq!(((1.0 - exact(&t, 8).rtp) * 10_000.0).round() / 100.0, 11.70);
    }

    /// The published combinations at 8 decks: Dragon 7's 112,633,011,329,024 wins and Panda
    /// 8's 172,660,763,262,976 of 4,998,398,275,503,360 six-card deals, and Dragon Bonus
    /// (player)'s natural wins and wins by 9.
    #[test]
    fn published_combinations_are_reproduced() {
        let c = |name: &str| {
            let e = exact(&Paytable::built_in(name).unwrap(), 8);
            let v: Vec<u128> = e
                .rows
                .iter()
                .map(|r| r.combinations.parse().unwrap())
                .collect();
            (v, e.total.parse::<u128>().unwrap())
        };
        let (d7, total) = c("dragon-7");
        assert_eq!(total, 4_998_398_275_503_360);
        assert_eq!(d7[0], 112_633_011_329_024);
        assert_eq!(c("panda-8").0[0], 172_660_763_262_976);
        let (db, _) = c("dragon-bonus:player");
        assert_eq!(db[0], 812_685_054_124_032);
        assert_eq!(db[2], 18_409_431_764_992);
    }

    /// Every built-in baccarat table against coups dealt from every ordered six cards of a
    /// small shoe with repeated cards (each card a distinct object), through the game's own
    /// `coup::deal`.
    #[test]
    fn every_baccarat_table_matches_coups_dealt_by_the_game() {
        // A small shoe with repeated cards: A♣ A♣ A♥ 3♣ 4♥ 4♥ 6♣ 7♥ 8♣ 9♦ T♠ K♠.
        let shoe: Vec<CardId> = vec![0, 0, 2, 8, 14, 14, 20, 26, 28, 33, 39, 51];
        let counts = |table: &Paytable| {
            let n = shoe.len();
            let mut w = vec![0u128; table.lines.len() + 1];
            let mut idx = [0usize; 6];
            fn rec(k: usize, idx: &mut [usize; 6], n: usize, f: &mut dyn FnMut(&[usize; 6])) {
                if k == 6 {
                    return f(idx);
                }
                for i in 0..n {
                    if idx[..k].contains(&i) {
                        continue;
                    }
                    idx[k] = i;
                    rec(k + 1, idx, n, f);
                }
            }
            rec(0, &mut idx, n, &mut |ix| {
                let cards: Vec<CardId> = ix.iter().map(|&i| shoe[i]).collect();
                let mut it = cards.iter().map(|&c| crate::cards::rank_of(c));
                let coup = super::super::coup::deal(|| it.next().unwrap());
                let pc = 2 + coup.player_drew as usize;
                let bc = 2 + coup.banker_drew as usize;
                // Dealing order: P B P B, then the player's third, then the banker's.
                let mut player = vec![cards[0], cards[2]];
                let mut banker = vec![cards[1], cards[3]];
                let mut next = 4;
                if pc == 3 {
                    player.push(cards[next]);
                    next += 1;
                }
                if bc == 3 {
                    banker.push(cards[next]);
                }
                let deal = BacDeal::of(&player, &banker);
                assert_eq!((deal.player, deal.banker), (coup.player, coup.banker));
                w[table.bac_paid(&deal).unwrap_or(table.lines.len())] += 1;
            });
            w
        };
        for t in Paytable::all_built_in() {
            if t.game != Game::Baccarat {
                continue;
            }
            let want = counts(&t);
            let mut got = weights_of_shoe(&t, &shoe);
            if t.scope() == Scope::FirstFour {
                // Four-card deals; the brute force counts the two positions after them too.
                let n = shoe.len() as u128;
                got.iter_mut().for_each(|w| *w *= (n - 4) * (n - 5));
            }
            assert_eq!(got, want, "{}", t.name);
        }
    }

    /// `weights` for an arbitrary shoe (by card counts), for the test above.
    fn weights_of_shoe(table: &Paytable, shoe: &[CardId]) -> Vec<u128> {
        let mut by_card = [0u128; 52];
        for &c in shoe {
            by_card[c as usize] += 1;
        }
        super::weights_from(table, &by_card)
    }
}
