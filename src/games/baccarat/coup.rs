//! One coup: the deal and the third-card tableau.

use crate::cards::Rank;

/// Baccarat value of a rank (0 = ace … 12 = king): ace 1, two to nine as marked, ten and
/// faces 0.
#[inline(always)]
pub fn bac_value(rank: Rank) -> u8 {
    if rank >= 9 {
        0
    } else {
        rank + 1
    }
}

/// Whether the player draws a third card on a two-card total (no natural on the table).
#[inline(always)]
pub fn player_draws(total: u8) -> bool {
    total <= 5
}

/// Whether the banker draws a third card on its two-card total `banker`, given the player's
/// third card's value (`None`: the player stood). No natural on the table.
#[inline(always)]
pub fn banker_draws(banker: u8, player_third: Option<u8>) -> bool {
    match player_third {
        None => banker <= 5,
        Some(x) => match banker {
            0..=2 => true,
            3 => x != 8,
            4 => (2..=7).contains(&x),
            5 => (4..=7).contains(&x),
            6 => x == 6 || x == 7,
            _ => false,
        },
    }
}

/// Who won a coup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Banker,
    Player,
    Tie,
}

/// A coup's cards and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coup {
    pub player: u8,
    pub banker: u8,
    /// The player's (banker's) first two cards are of the same rank.
    pub player_pair: bool,
    pub banker_pair: bool,
    /// Either hand had 8 or 9 on its first two cards.
    pub natural: bool,
    pub player_drew: bool,
    pub banker_drew: bool,
}

impl Coup {
    #[inline(always)]
    pub fn winner(&self) -> Winner {
        match self.banker.cmp(&self.player) {
            std::cmp::Ordering::Greater => Winner::Banker,
            std::cmp::Ordering::Less => Winner::Player,
            std::cmp::Ordering::Equal => Winner::Tie,
        }
    }

    /// Cards dealt.
    pub fn cards(&self) -> u8 {
        4 + self.player_drew as u8 + self.banker_drew as u8
    }
}

/// Deal a coup from `next` (ranks in dealing order: player, banker, player, banker, then
/// the third cards as the tableau calls for them).
#[inline(always)]
pub fn deal(mut next: impl FnMut() -> Rank) -> Coup {
    let (p1, b1, p2, b2) = (next(), next(), next(), next());
    let mut p = (bac_value(p1) + bac_value(p2)) % 10;
    let mut b = (bac_value(b1) + bac_value(b2)) % 10;
    let natural = p >= 8 || b >= 8;
    let (mut pd, mut bd) = (false, false);
    if !natural {
        let mut third = None;
        if player_draws(p) {
            let x = bac_value(next());
            p = (p + x) % 10;
            third = Some(x);
            pd = true;
        }
        if banker_draws(b, third) {
            b = (b + bac_value(next())) % 10;
            bd = true;
        }
    }
    Coup {
        player: p,
        banker: b,
        player_pair: p1 == p2,
        banker_pair: b1 == b2,
        natural,
        player_drew: pd,
        banker_drew: bd,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks from values for forced deals (a value 0 is a king).
    fn ranks(values: &[u8]) -> Vec<Rank> {
        values
            .iter()
            .map(|&v| if v == 0 { 12 } else { v - 1 })
            .collect()
    }

    fn coup(values: &[u8]) -> (Coup, usize) {
        let cards = ranks(values);
        let mut i = 0;
        let c = deal(|| {
            let r = cards[i];
            i += 1;
            r
        });
        (c, i)
    }

    #[test]
    fn values_of_ranks() {
        let v: Vec<u8> = (0..13).map(bac_value).collect();
        assert_eq!(v, [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]);
    }

    #[test]
    fn naturals_end_the_coup() {
        // Player 8 (3+5) against banker 0 (K+K): no third cards, player wins.
        let (c, n) = coup(&[3, 0, 5, 0, 1, 1]);
        assert_eq!((n, c.player, c.banker, c.natural), (4, 8, 0, true));
        assert_eq!(c.winner(), Winner::Player);
        // Banker natural 9 against player 2: the player does not draw.
        let (c, n) = coup(&[1, 4, 1, 5, 9, 9]);
        assert_eq!((n, c.player, c.banker), (4, 2, 9));
        assert_eq!(c.winner(), Winner::Banker);
        // Natural 8 against natural 8: tie.
        let (c, _) = coup(&[4, 6, 4, 2]);
        assert_eq!((c.player, c.banker, c.winner()), (8, 8, Winner::Tie));
    }

    #[test]
    fn player_draws_on_0_to_5_and_stands_on_6_and_7() {
        for p in 0..=7u8 {
            // Player cards 0 and p; banker 7 (0+7), who stands on 7 whatever happens.
            let (c, n) = coup(&[0, 0, p, 7, 2, 2]);
            let drew = p <= 5;
            assert_eq!(c.player_drew, drew, "player {p}");
            assert_eq!(n, 4 + drew as usize, "player {p}");
            assert!(!c.banker_drew);
        }
    }

    #[test]
    fn banker_after_a_player_who_stood_draws_on_0_to_5() {
        for b in 0..=7u8 {
            // Player 6 stands.
            let (c, n) = coup(&[0, 0, 6, b, 1]);
            assert!(!c.player_drew);
            assert_eq!(c.banker_drew, b <= 5, "banker {b}");
            assert_eq!(n, 4 + (b <= 5) as usize);
        }
    }

    #[test]
    fn banker_tableau_against_the_players_third_card() {
        // Rows: banker total 0..=7; columns: the player's third card 0..=9; D = draws.
        let table = [
            "DDDDDDDDDD", // 0
            "DDDDDDDDDD", // 1
            "DDDDDDDDDD", // 2
            "DDDDDDDDSD", // 3: stands on an 8
            "SSDDDDDDSS", // 4: draws on 2-7
            "SSSSDDDDSS", // 5: draws on 4-7
            "SSSSSSDDSS", // 6: draws on 6-7
            "SSSSSSSSSS", // 7
        ];
        for (b, row) in table.iter().enumerate() {
            for (x, want) in row.chars().enumerate() {
                let want = want == 'D';
                assert_eq!(banker_draws(b as u8, Some(x as u8)), want, "{b} vs {x}");
                // The same through a forced deal: player 0+1 = 1 draws x; banker 0 + b.
                let (c, n) = coup(&[0, 0, 1, b as u8, x as u8, 3]);
                assert!(c.player_drew);
                assert_eq!(c.banker_drew, want, "dealt {b} vs {x}");
                assert_eq!(n, 5 + want as usize);
                assert_eq!(c.player, (1 + x as u8) % 10);
                assert_eq!(c.banker, (b as u8 + if want { 3 } else { 0 }) % 10);
            }
        }
    }

    #[test]
    fn pairs_are_the_first_two_cards_of_a_hand_by_rank() {
        // Player 7♣ 7♦ (pair), banker 10 and king (same value, different ranks: no pair).
        let cards: Vec<Rank> = vec![6, 9, 6, 12, 1, 1];
        let mut i = 0;
        let c = deal(|| {
            i += 1;
            cards[i - 1]
        });
        assert!(c.player_pair && !c.banker_pair);
        // A third card matching the first two does not make a pair.
        let (c, _) = coup(&[2, 4, 3, 1, 2, 3]);
        assert!(!c.player_pair && !c.banker_pair);
        // Banker pair of kings.
        let (c, _) = coup(&[2, 0, 3, 0, 1, 1]);
        assert!(c.banker_pair);
    }

    #[test]
    fn totals_wrap_modulo_ten() {
        // Player 9+6 = 5 draws 9 → 4; banker 5+5 = 0 draws (on 9? 0 always draws) 7 → 7.
        let (c, _) = coup(&[9, 5, 6, 5, 9, 7]);
        assert_eq!((c.player, c.banker, c.winner()), (4, 7, Winner::Banker));
        assert_eq!(c.cards(), 6);
    }
}
