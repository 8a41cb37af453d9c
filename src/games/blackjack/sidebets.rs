//! The side bets of the blackjack table valued exactly: every ordered deal of the seat's first
//! two cards and the dealer's up card (and, where a bet needs it, the hole card) from a full
//! shoe, by card with its suit.

use crate::cards::{rank_of, value, CardId};
use crate::sidebet::{BjDeal, EventTable, Paytable};

/// What one combination is, in the event table.
pub const COUNTED: &str = "ordered deals of the seat's two cards and the up card";
const COUNTED_HOLE: &str = "ordered deals of the seat's two cards, the up card and the hole card";

/// The combinations of each line of `table` (then of the loss) over a full shoe of `decks`.
pub fn weights(table: &Paytable, decks: u32) -> Vec<u128> {
    weights_from(table, &[decks as u128; 52])
}

/// The same over a shoe of `by_card[c]` cards of each card `c` (a [`CardId`]).
pub fn weights_from(table: &Paytable, by_card: &[u128; 52]) -> Vec<u128> {
    let n: u128 = by_card.iter().sum();
    let mut left = *by_card;
    let mut w = vec![0u128; table.lines.len() + 1];
    let lose = table.lines.len();
    let hole = table.needs_hole();
    for a in 0..52u8 {
        let wa = left[a as usize];
        if wa == 0 {
            continue;
        }
        left[a as usize] -= 1;
        for b in 0..52u8 {
            let wb = left[b as usize];
            if wb == 0 {
                continue;
            }
            left[b as usize] -= 1;
            for c in 0..52u8 {
                let wc = left[c as usize];
                if wc == 0 {
                    continue;
                }
                let base = wa * wb * wc;
                let deal = |dealer_bj| BjDeal {
                    two: [a, b],
                    up: c,
                    dealer_bj,
                    ..BjDeal::default()
                };
                if !hole {
                    let i = table.bj_paid(&deal(false)).unwrap_or(lose);
                    w[i] += base;
                    continue;
                }
                left[c as usize] -= 1;
                // The hole cards that make a blackjack with this up card.
                let completes = |h: CardId| match value(rank_of(c)) {
                    1 => value(rank_of(h)) == 10,
                    10 => rank_of(h) == 0,
                    _ => false,
                };
                let bj: u128 = (0..52u8)
                    .filter(|&h| completes(h))
                    .map(|h| left[h as usize])
                    .sum();
                let i = table.bj_paid(&deal(true)).unwrap_or(lose);
                w[i] += base * bj;
                let i = table.bj_paid(&deal(false)).unwrap_or(lose);
                w[i] += base * (n - 3 - bj);
                left[c as usize] += 1;
            }
            left[b as usize] += 1;
        }
        left[a as usize] += 1;
    }
    w
}

/// The wager's event table over a full shoe of `decks` (`h17`: the dealer hits soft 17,
/// for a wager on the dealer's hand).
pub fn exact(table: &Paytable, decks: u32, h17: bool) -> EventTable {
    if table.scope() == crate::sidebet::Scope::DealerHand {
        return EventTable::from_probabilities(
            table,
            decks,
            &dealer_probabilities(table, decks, h17),
            COUNTED_DEALER,
        );
    }
    let counted = if table.needs_hole() {
        COUNTED_HOLE
    } else {
        COUNTED
    };
    EventTable::from_weights(table, decks, &weights(table, decks), counted)
}

const COUNTED_DEALER: &str =
    "the dealer's hands (not counted: probabilities of every draw sequence)";

/// Each line's probability (then the loss's) for a wager on the dealer's finished hand: every
/// draw sequence of the dealer from a full shoe. The dealer's cards come after the seats'
/// (a stopping time of the deal), so their law is the full shoe's whatever the seats hold.
pub fn dealer_probabilities(table: &Paytable, decks: u32, h17: bool) -> Vec<f64> {
    let mut left = [4 * decks as u64; 10];
    left[9] = 16 * decks as u64;
    // Bust by number of cards (index 8: eight or more), and no bust.
    let mut busts = [0f64; 9];
    let mut stands = 0f64;
    let n: u64 = left.iter().sum();
    for up in 0..10 {
        let p = left[up] as f64 / n as f64;
        left[up] -= 1;
        let mut out = (&mut busts, &mut stands);
        draw(
            &mut left,
            n - 1,
            (up as u32 + 1, up == 0, 1),
            p,
            h17,
            &mut out,
        );
        left[up] += 1;
    }
    let lose = table.lines.len();
    let mut probs = vec![0f64; lose + 1];
    for (k, &p) in busts.iter().enumerate().skip(2) {
        let d = BjDeal {
            dealer_cards: k as u8,
            dealer_bust: true,
            ..BjDeal::default()
        };
        probs[table.bj_paid(&d).unwrap_or(lose)] += p;
    }
    let d = BjDeal::default();
    probs[table.bj_paid(&d).unwrap_or(lose)] += stands;
    probs
}

/// The dealer draws from `left` (`n` cards) to a hand of (`hard` with aces as 1, an ace
/// held, cards dealt), reached with probability `p`; into (busts by cards, stands).
fn draw(
    left: &mut [u64; 10],
    n: u64,
    (hard, ace, cards): (u32, bool, usize),
    p: f64,
    h17: bool,
    out: &mut (&mut [f64; 9], &mut f64),
) {
    if hard > 21 {
        out.0[cards.min(8)] += p;
        return;
    }
    let soft = ace && hard + 10 <= 21;
    let total = if soft { hard + 10 } else { hard };
    if cards >= 2 && (total > 17 || (total == 17 && !(h17 && soft))) {
        *out.1 += p;
        return;
    }
    for v in 0..10 {
        if left[v] == 0 {
            continue;
        }
        let q = p * left[v] as f64 / n as f64;
        left[v] -= 1;
        let next = (hard + v as u32 + 1, ace || v == 0, cards + 1);
        draw(left, n - 1, next, q, h17, out);
        left[v] += 1;
    }
}

/// A countable side bet's effects of removal and the best linear counts for it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SideCount {
    pub name: String,
    /// The wager's RTP per unit staked over the full shoe.
    pub rtp: f64,
    /// Per rank, ace to king: the RTP change when one card of that rank leaves the full shoe
    /// (averaged over its four suits).
    pub eor: Vec<RankEor>,
    /// Integer tags fitted to the effects, at levels 1, 2 and 3.
    pub counts: Vec<LevelCount>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RankEor {
    pub rank: char,
    pub eor: f64,
}

/// A count's tags (ace to king) at one level, and its betting correlation with the wager.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LevelCount {
    pub level: i32,
    pub tags: Vec<i32>,
    pub betting_correlation: f64,
}

/// How the side bets' counts are computed, in one paragraph.
pub const COUNT_METHOD: &str = "Side bets: effects of removal from the exact event tables, each the RTP of the shoe less one card of a rank minus the full shoe's, averaged over the four suits (a flush or suited event depends on which suit leaves; the average is the effect of a card of that rank whose suit is not seen, as a count that tags ranks sees it). Tags: round(L e_r / max|e|) of the effects centred over the 13 ranks, at levels L = 1, 2, 3; a card whose removal raises the RTP adds its tag, so a high count favours the bet. BC: the correlation over the 13 ranks of the tags with the effects. What a counter wins per shoe betting the wager only where it pays: `sim blackjack --count FILE --side NAME` with the tags in a tag file (by value: A, 2-9, T; a count that tells one ten from another is approximated by its ten's tag), in its operator-exposure table.";

/// The effects of removal and fitted counts of `table` (a wager on the round's first cards)
/// over a full shoe of `decks`.
pub fn side_count(table: &Paytable, decks: u32) -> SideCount {
    let full = [decks as u128; 52];
    let rtp_of = |by: &[u128; 52]| {
        EventTable::from_weights(table, decks, &weights_from(table, by), COUNTED).rtp
    };
    let base = rtp_of(&full);
    let eor: Vec<f64> = (0..13u8)
        .map(|r| {
            (0..4u8)
                .map(|s| {
                    let mut by = full;
                    by[(r * 4 + s) as usize] -= 1;
                    rtp_of(&by) - base
                })
                .sum::<f64>()
                / 4.0
        })
        .collect();
    let mean = eor.iter().sum::<f64>() / 13.0;
    let centred: Vec<f64> = eor.iter().map(|e| e - mean).collect();
    let top = centred.iter().fold(0f64, |m, e| m.max(e.abs()));
    let counts = (1..=3)
        .map(|level| {
            let tags: Vec<i32> = centred
                .iter()
                .map(|e| {
                    if top > 0.0 {
                        (level as f64 * e / top).round() as i32
                    } else {
                        0
                    }
                })
                .collect();
            LevelCount {
                level,
                betting_correlation: correlation(&tags, &eor),
                tags,
            }
        })
        .collect();
    SideCount {
        name: table.name.clone(),
        rtp: base,
        eor: (0..13)
            .map(|r| RankEor {
                rank: "A23456789TJQK".as_bytes()[r] as char,
                eor: eor[r],
            })
            .collect(),
        counts,
    }
}

/// The correlation over the 13 ranks of integer tags with effects (NaN when either is flat).
pub fn correlation(tags: &[i32], eor: &[f64]) -> f64 {
    let n = tags.len() as f64;
    let mt = tags.iter().map(|&t| t as f64).sum::<f64>() / n;
    let me = eor.iter().sum::<f64>() / n;
    let (mut st, mut se, mut c) = (0.0, 0.0, 0.0);
    for (&t, &e) in tags.iter().zip(eor) {
        let (a, b) = (t as f64 - mt, e - me);
        st += a * a;
        se += b * b;
        c += a * b;
    }
    c / (st * se).sqrt()
}

/// The report's sections of side bets' counts: each one's effects and tags by rank, then each
/// level's betting correlation.
pub fn count_sections(counts: &[SideCount]) -> Vec<crate::report::Section> {
    use crate::report::{fixed_cell, Cell, Section};
    let mut out = Vec::new();
    for c in counts {
        let mut s = Section::new(
            &format!("Side bet {}: effects of removal and counts", c.name),
            &["rank", "EoR (% of RTP)", "level 1", "level 2", "level 3"],
        );
        for (r, e) in c.eor.iter().enumerate() {
            let mut row = vec![
                Cell::from(e.rank.to_string()),
                fixed_cell(e.eor * 100.0, 4, "percent"),
            ];
            row.extend(
                c.counts
                    .iter()
                    .map(|l| Cell::num(format!("{:+}", l.tags[r]), l.tags[r] as f64, "tag")),
            );
            s.row(row);
        }
        let mut row = vec![Cell::from("BC"), Cell::from("")];
        row.extend(
            c.counts
                .iter()
                .map(|l| fixed_cell(l.betting_correlation, 3, "correlation")),
        );
        s.row(row);
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sidebet::{Game, Paytable};

    fn rtp(name: &str, decks: u32) -> f64 {
        exact(&Paytable::built_in(name).unwrap(), decks, false).rtp
    }

    /// Buster Blackjack against the Wizard of Odds' house edges: 6.21% at 6 decks and 6.17%
    /// at 8 when the dealer hits soft 17, 8.25% and 8.22% when it stands.
    #[test]
    fn buster_blackjack_reproduces_the_published_edges() {
        let t = Paytable::built_in("buster-blackjack").unwrap();
        let edge = |d: u32, h17: bool| round(1.0 - exact(&t, d, h17).rtp, 2);
        assert_eq!(edge(6, true), 6.21);
        assert_eq!(edge(8, true), 6.17);
        assert_eq!(edge(6, false), 8.25);
        assert_eq!(edge(8, false), 8.22);
    }

    /// The dealer's bust probability by up card, from this enumeration, against the exact
    /// analysis's dealer table (other code): the same to 1e-12, S17 and H17.
    #[test]
    fn dealer_busts_agree_with_the_exact_dealer_table() {
        use crate::games::blackjack::exact::{full_shoe, DealerTable};
        let any = Paytable::parse(
            "name = \"bust\"\ngame = \"blackjack\"\n[pays]\ndealer-busts = 1\n",
            "t",
        )
        .unwrap();
        for h17 in [false, true] {
            let shoe = full_shoe(8);
            let n: u32 = shoe.iter().sum();
            let t = DealerTable::shared(h17);
            let mut bust = 0.0;
            for up in 0..10 {
                let mut rest = shoe;
                rest[up] -= 1;
                bust += shoe[up] as f64 / n as f64 * t.dist(up, &rest)[5];
            }
            let p = dealer_probabilities(&any, 8, h17)[0];
            assert!((p - bust).abs() < 1e-12, "h17 {h17}: {p} vs {bust}");
        }
    }

    fn round(v: f64, d: i32) -> f64 {
        let k = 10f64.powi(d);
        (v * 100.0 * k).round() / k
    }

    /// The live tables' advertised figures (8 decks): 21+3 96.30%, Perfect Pairs 95.90%.
    #[test]
    fn the_live_tables_advertised_rtps_are_reproduced() {
        assert_eq!(round(rtp("21+3", 8), 2), 96.30);
        assert_eq!(round(rtp("perfect-pairs", 8), 2), 95.90);
    }

    /// The Wizard of Odds' house edges: 21+3 version 1 (9:1) 3.24% at 6 decks and 2.74% at 8;
    /// Hot 3 5.49% and 5.40%; Lucky Lucky pay table 1 2.66% at 6 decks; Lucky Ladies
    /// 24.71% at 6 decks and 24.05% at 8; Royal Match (25 and 5 to 2) 6.67% and 6.46%.
    #[test]
    fn published_house_edges_are_reproduced() {
        let edge = |n: &str, d: u32| round(1.0 - rtp(n, d), 2);
        assert_eq!(edge("21+3-classic", 6), 3.24);
        assert_eq!(edge("21+3-classic", 8), 2.74);
        assert_eq!(edge("hot-3", 6), 5.49);
        assert_eq!(edge("hot-3", 8), 5.40);
        assert_eq!(edge("lucky-lucky", 6), 2.66);
        assert_eq!(edge("lucky-ladies", 6), 24.71);
        assert_eq!(edge("lucky-ladies", 8), 24.05);
        assert_eq!(edge("royal-match", 6), 6.67);
        assert_eq!(edge("royal-match", 8), 6.46);
    }

    /// The shipped paytable file of 21+3 version 3 (Wagerworks): the Wizard of Odds' 4.14% at
    /// 6 decks.
    #[test]
    fn the_shipped_21_3_version_3_file_reproduces_its_published_edge() {
        let text = include_str!("../../../strategies/side-bets/21+3-wagerworks.toml");
        let t = Paytable::parse(text, "21+3-wagerworks.toml").unwrap();
        assert_eq!(round(1.0 - exact(&t, 6, false).rtp, 2), 4.14);
    }

    /// The Wizard of Odds' six-deck combinations of Hot 3 (unordered three-card deals): the
    /// ordered counts are six times them.
    #[test]
    fn hot_3_combinations_match_the_published_table() {
        let t = exact(&Paytable::built_in("hot-3").unwrap(), 6, false);
        let c: Vec<u128> = t
            .rows
            .iter()
            .map(|r| r.combinations.parse().unwrap())
            .collect();
        assert_eq!(
            c,
            [2_024, 27_432, 419_256, 377_568, 364_320, 3_822_720].map(|x| 6 * x)
        );
    }

    /// Every built-in blackjack table against a brute force over the card positions of a
    /// small shoe with repeated cards (ace, 2, 3, 6, 7, 8, 9, queen and king of clubs and
    /// hearts, twice each, of spades once, and a third seven of clubs): each card a distinct object, every
    /// ordered deal of three (four with the hole) counted once.
    #[test]
    fn every_blackjack_table_matches_a_brute_force_over_card_positions() {
        let mut shoe: Vec<CardId> = Vec::new();
        for r in [0u8, 1, 2, 5, 6, 7, 8, 11, 12] {
            for suit in [0u8, 2] {
                shoe.extend([r * 4 + suit, r * 4 + suit]);
            }
            shoe.push(r * 4 + 3);
        }
        shoe.push(6 * 4);
        let mut by_card = [0u128; 52];
        for &c in &shoe {
            by_card[c as usize] += 1;
        }
        let n = shoe.len();
        for t in Paytable::all_built_in() {
            if t.game != Game::Blackjack || t.scope() == crate::sidebet::Scope::DealerHand {
                continue;
            }
            let mut w = vec![0u128; t.lines.len() + 1];
            for i in 0..n {
                for j in (0..n).filter(|&j| j != i) {
                    for k in (0..n).filter(|&k| k != i && k != j) {
                        let (a, b, c) = (shoe[i], shoe[j], shoe[k]);
                        let holes: Vec<Option<CardId>> = if t.needs_hole() {
                            (0..n)
                                .filter(|&h| h != i && h != j && h != k)
                                .map(|h| Some(shoe[h]))
                                .collect()
                        } else {
                            vec![None]
                        };
                        for h in holes {
                            let bj = h.is_some_and(|h| {
                                let (u, h) = (value(rank_of(c)), value(rank_of(h)));
                                (u == 1 && h == 10) || (u == 10 && h == 1)
                            });
                            let d = BjDeal {
                                two: [a, b],
                                up: c,
                                dealer_bj: bj,
                                ..BjDeal::default()
                            };
                            w[t.bj_paid(&d).unwrap_or(t.lines.len())] += 1;
                        }
                    }
                }
            }
            assert!(
                w[..t.lines.len()].iter().all(|&x| x > 0),
                "{}: every event happens in the small shoe: {w:?}",
                t.name
            );
            assert_eq!(weights_from(&t, &by_card), w, "{}", t.name);
        }
    }

    /// The effects of removal of an any-pair bet (11:1) against the closed form: P(pair) =
    /// Σ n_r (n_r − 1) / (N (N − 1)) over the ranks' counts, RTP 12·P; one card of any rank
    /// removed changes it alike, so the centred effects vanish and no count is correlated.
    #[test]
    fn a_pair_bets_effects_of_removal_are_the_closed_forms() {
        let t = Paytable::parse(
            "name = \"pair\"\ngame = \"blackjack\"\n[pays]\npair = 11\n",
            "t",
        )
        .unwrap();
        let c = side_count(&t, 8);
        let p = |one_less: bool| {
            let n = |r: usize| 32.0 - if one_less && r == 0 { 1.0 } else { 0.0 };
            let total: f64 = (0..13).map(n).sum();
            (0..13).map(|r| n(r) * (n(r) - 1.0)).sum::<f64>() / (total * (total - 1.0))
        };
        assert!((c.rtp - 12.0 * p(false)).abs() < 1e-14);
        let want = 12.0 * (p(true) - p(false));
        for e in &c.eor {
            assert!(
                (e.eor - want).abs() < 1e-14,
                "{}: {} vs {want}",
                e.rank,
                e.eor
            );
        }
        assert!(c.counts.iter().all(|l| l.tags.iter().all(|&t| t == 0)));
        assert!(c.counts[0].betting_correlation.is_nan());
    }

    /// 21+3: an ace, a two or a king is in two of the straights (A-2-3, Q-K-A), every other
    /// rank in three, so their removal helps the bet alike and more than any other's; by suit
    /// symmetry flushes move every rank alike. The level-1 count tags exactly those three.
    #[test]
    fn twenty_one_plus_threes_count_tags_the_ends_of_the_straights() {
        let c = side_count(&Paytable::built_in("21+3").unwrap(), 8);
        let e: Vec<f64> = c.eor.iter().map(|r| r.eor).collect();
        for (r, &x) in e.iter().enumerate() {
            let end = [0, 1, 12].contains(&r);
            let same = if end { e[0] } else { e[2] };
            assert!((x - same).abs() < 1e-12, "{r}: {x}");
        }
        assert!(e[0] > e[2]);
        assert_eq!(c.counts[0].tags, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert!((c.counts[0].betting_correlation - 1.0).abs() < 1e-12);
        // A correlation of tags with effects by hand: two ranks of four.
        assert!((correlation(&[1, 0, 0, 1], &[2.0, 0.0, 0.0, 2.0]) - 1.0).abs() < 1e-12);
        assert!((correlation(&[1, 0, 0, -1], &[2.0, 0.0, 0.0, 2.0])).abs() < 1e-12);
    }
}
