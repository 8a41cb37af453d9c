//! Index plays checked by simulation (`strategies indices --verify`), by the method of
//! CVIndex: for each play, hands of its situation dealt from real shoes at each true count
//! around its index, both plays played out from the same cards (the chart's play after the
//! first decision), the difference of their results and its SE per count, and the count where
//! a weighted line through those differences crosses zero, beside the analytic crossing.
//!
//! Shoes are dealt card by card to the cut card; every six cards (about a round) each play is
//! offered the shoe as it stands: its hand and the dealer's up card are drawn from the cards
//! left (a hard total among the two-card hands that make it, weighed by how many the shoe
//! holds), the true count is taken with them seen, and where that count lies within four of
//! the index and its count has fewer than the cap of hands, both plays are played out. The
//! count is the real-valued one (running count per deck left), binned by whole counts: a bin
//! `[k, k+1)` stands at its middle, as the analytic crossings are real-valued too.
//!
//! Rounds are played out with the dealer's hole card drawn first (the same for both plays; in
//! a hole-card game a hand is not played when the dealer has blackjack), doubles, splits (each
//! hand played by the chart, no resplit) and surrender as the rules allow; a dealer blackjack
//! without a hole card takes what the rules say.

use serde::Serialize;

use super::count::{CountSystem, Ramp};
use super::indices::{Deviation, Play, INSURANCE};
use super::rules::{DealerBjTakes, Rules, Shuffle, Surrender};
use super::strategy::{situation_row, Action, Chart, Situation, Strategy};
use crate::rng::{below, ChunkStreams, Rng};

/// Counts either side of an index that are simulated.
pub const WINDOW: i32 = 4;
/// Cards dealt between two offers of the shoe.
const STEP: usize = 6;
/// Fewest hands a count needs to enter the fit.
const MIN_HANDS: u64 = 50;

/// Why a set cannot be checked.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CheckError {
    #[error("--verify: {0}")]
    Rules(String),
}

crate::job::carried!(CheckError);

/// What to check and how much to simulate.
pub struct CheckRequest<'a> {
    pub rules: &'a Rules,
    pub system: &'a CountSystem,
    pub chart: &'a Chart,
    /// The plays and their analytic crossings.
    pub plays: Vec<(Deviation, f64)>,
    /// Risk-averse indices: the ramp and E/(2V) per unit (the plays are then weighed as
    /// `strategies indices --objective score` weighs them).
    pub risk_averse: Option<(&'a Ramp, f64)>,
    pub shoes: u64,
    /// Most hands of a play at one count.
    pub hands: u64,
    pub seed: u64,
    pub progress: bool,
}

/// One count of one play: hands, the mean difference of the objective and its SE.
#[derive(Clone, Debug, Serialize)]
pub struct CountCell {
    /// The bin's lower end: true counts from `tc` to `tc + 1`.
    pub tc: i32,
    pub hands: u64,
    /// The play's result less the chart's, per initial bet (risk-averse: less the ramp's
    /// charge for the rise in the second moment), and its SE.
    pub diff: f64,
    pub se: f64,
}

/// One play checked.
#[derive(Clone, Debug, Serialize)]
pub struct PlayCheck {
    pub play: String,
    pub analytic: f64,
    /// The simulated crossing and its SE (none where the line has no clear slope).
    pub simulated: Option<f64>,
    pub simulated_se: Option<f64>,
    pub hands: u64,
    pub by_count: Vec<CountCell>,
    pub verdict: String,
    /// More than one count from the analytic crossing, beyond twice its SE.
    pub real_gap: bool,
}

/// The whole check.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub seed: u64,
    pub shoes: u64,
    pub hands_cap: u64,
    pub plays: Vec<PlayCheck>,
}

/// Sums of one count of one play.
#[derive(Clone, Copy, Default)]
struct Sums {
    n: u64,
    s1: f64,
    s2: f64,
}

/// A play as simulated: its situation's hands, the two actions and how it is weighed.
struct Target {
    dev: Deviation,
    /// The two-card hands (values) of its row, with the situation of each.
    hands: Vec<(u8, u8, Situation)>,
    /// Weighed by the ramp (risk-averse, not splits or insurance).
    weighed: bool,
    lo: i32,
    sums: Vec<Sums>,
}

/// The situation of two initial cards against `up` under `rules`.
fn initial(rules: &Rules, a: u8, b: u8, up: u8) -> Situation {
    let hard = a + b;
    let soft = (a == 1 || b == 1) && hard <= 11;
    Situation {
        total: if soft { hard + 10 } else { hard },
        soft,
        cards: 2,
        pair: (a == b && rules.max_hands >= 2).then_some(a),
        up,
        can_double: rules.double_allowed(hard, soft),
        can_surrender: rules.surrender_allowed(up),
        split: false,
    }
}

/// A shoe's cards left, drawn at random without replacement.
#[derive(Clone)]
struct Cards(Vec<u8>);

impl Cards {
    fn draw(&mut self, rng: &mut Rng) -> u8 {
        let i = below(rng, self.0.len() as u32) as usize;
        self.0.swap_remove(i)
    }
    fn take(&mut self, v: u8) -> bool {
        match self.0.iter().position(|&c| c == v) {
            Some(i) => {
                self.0.swap_remove(i);
                true
            }
            None => false,
        }
    }
}

/// The cards of one play-out: drawn in advance from the shoe, the player's and the dealer's
/// apart (the player's from one end, the dealer's from the other: the same law as dealing
/// them in turn), so that both plays of a pair meet the same dealer's cards; the rest of the
/// shoe for a hand that needs more.
#[derive(Clone)]
struct Deal {
    player: Vec<u8>,
    dealer: Vec<u8>,
    rest: Cards,
    rng: Rng,
}

impl Deal {
    /// Cards drawn ahead for the player and for the dealer.
    const AHEAD: usize = 12;

    fn new(mut cards: Cards, rng: &mut Rng) -> Deal {
        let mut ahead = |k: usize, cards: &mut Cards| -> Vec<u8> {
            let mut v: Vec<u8> = (0..k.min(cards.0.len())).map(|_| cards.draw(rng)).collect();
            v.reverse();
            v
        };
        let player = ahead(Self::AHEAD, &mut cards);
        let dealer = ahead(Self::AHEAD, &mut cards);
        Deal {
            player,
            dealer,
            rest: cards,
            rng: rng.clone(),
        }
    }
    fn for_player(&mut self) -> u8 {
        match self.player.pop() {
            Some(c) => c,
            None => self.rest.draw(&mut self.rng),
        }
    }
    fn for_dealer(&mut self) -> u8 {
        match self.dealer.pop() {
            Some(c) => c,
            None => self.rest.draw(&mut self.rng),
        }
    }
}

/// A hand's total: (hard, has an ace).
fn total(hard: u8, ace: bool) -> u8 {
    if ace && hard <= 11 {
        hard + 10
    } else {
        hard
    }
}

/// One player hand being played: hard total, ace, cards, stake; bust when over 21.
#[derive(Clone, Copy)]
struct Hand {
    hard: u8,
    ace: bool,
    cards: u8,
    stake: f64,
}

impl Hand {
    fn add(&mut self, v: u8) {
        self.hard += v;
        self.ace |= v == 1;
        self.cards += 1;
    }
    fn total(&self) -> u8 {
        total(self.hard, self.ace)
    }
}

/// A round played out from `cards` (the hand and up card out, the hole card drawn): `first` on
/// the two cards, the chart after. The player's result per initial bet, and in the hole-card
/// game none when the dealer has blackjack (the hand is then not played).
fn play_out<S: Strategy>(
    rules: &Rules,
    chart: &S,
    s: &Situation,
    (a, b): (u8, u8),
    first: Action,
    mut deal: Deal,
) -> Option<f64> {
    let up = s.up;
    let hole = deal.for_dealer();
    let dealer_bj = (up == 1 && hole == 10) || (up == 10 && hole == 1);
    if dealer_bj && rules.peek {
        return None;
    }
    // Play on by the chart: hit or stand only.
    let play_on = |h: &mut Hand, deal: &mut Deal, split: bool| {
        while h.total() < 21 {
            let t = h.total();
            let sit = Situation {
                total: t,
                soft: h.ace && h.hard <= 11,
                cards: h.cards,
                pair: None,
                up,
                can_double: false,
                can_surrender: false,
                split,
            };
            match chart.act(&sit) {
                Action::Stand => break,
                _ => h.add(deal.for_player()),
            }
        }
    };
    let mut hands: Vec<Hand> = Vec::with_capacity(2);
    let start = Hand {
        hard: a + b,
        ace: a == 1 || b == 1,
        cards: 2,
        stake: 1.0,
    };
    match first {
        Action::Surrender => {
            let lose_all = dealer_bj && rules.surrender != Surrender::Early;
            return Some(if lose_all { -1.0 } else { -0.5 });
        }
        Action::Stand => hands.push(start),
        Action::Hit => {
            let mut h = start;
            h.add(deal.for_player());
            play_on(&mut h, &mut deal, false);
            hands.push(h);
        }
        Action::Double => {
            let mut h = Hand {
                stake: 2.0,
                ..start
            };
            h.add(deal.for_player());
            hands.push(h);
        }
        Action::Split => {
            for _ in 0..2 {
                let mut h = Hand {
                    hard: a,
                    ace: a == 1,
                    cards: 1,
                    stake: 1.0,
                };
                h.add(deal.for_player());
                let locked = a == 1 && !rules.hit_split_aces;
                if !locked {
                    let soft = h.ace && h.hard <= 11;
                    let sit = Situation {
                        total: h.total(),
                        soft,
                        cards: 2,
                        pair: None,
                        up,
                        can_double: rules.das && rules.double_allowed(h.hard, soft),
                        can_surrender: false,
                        split: true,
                    };
                    if h.total() < 21 && chart.act(&sit) == Action::Double && sit.can_double {
                        h.stake = 2.0;
                        h.add(deal.for_player());
                    } else {
                        play_on(&mut h, &mut deal, true);
                    }
                }
                hands.push(h);
            }
        }
    }
    if dealer_bj {
        // No hole card: the dealer's blackjack takes what the rules say.
        return Some(match rules.dealer_bj_takes {
            DealerBjTakes::All => -hands.iter().map(|h| h.stake).sum::<f64>(),
            DealerBjTakes::Splits => -(hands.len() as f64),
            DealerBjTakes::Original => -1.0,
        });
    }
    let mut net = 0.0;
    let live = hands.iter().any(|h| h.total() <= 21);
    let mut dealer = Hand {
        hard: up + hole,
        ace: up == 1 || hole == 1,
        cards: 2,
        stake: 0.0,
    };
    if live {
        loop {
            let t = dealer.total();
            let soft17 = t == 17 && dealer.ace && dealer.hard <= 11;
            if t < 17 || (rules.h17 && soft17) {
                dealer.add(deal.for_dealer());
            } else {
                break;
            }
        }
    }
    let d = dealer.total();
    for h in &hands {
        let t = h.total();
        net += if t > 21 {
            -h.stake
        } else if d > 21 || t > d {
            h.stake
        } else if t < d {
            -h.stake
        } else {
            0.0
        };
    }
    Some(net)
}

/// The real-valued true count of running count `rc` (tag units) with `left` cards left.
fn real_tc(system: &CountSystem, rc: i32, left: usize) -> f64 {
    rc as f64 / system.scale.max(1) as f64 / (left.max(1) as f64 / 52.0)
}

/// The targets of `req`'s plays; an error for rules the play-out does not know.
fn targets(req: &CheckRequest) -> Result<Vec<Target>, CheckError> {
    let r = req.rules;
    if r.free_bet || r.charlie.is_some() {
        return Err(CheckError::Rules(
            "the simulated play-out knows neither Free Bet Blackjack nor a Charlie; check the indices of the rules without them".into(),
        ));
    }
    if matches!(r.shuffle, Shuffle::EveryRound) {
        return Err(CheckError::Rules(
            "a shoe shuffled every round is always at a true count of about 0: give a cut card (--penetration)".into(),
        ));
    }
    if !req.system.balanced() {
        return Err(CheckError::Rules(format!(
            "{} is unbalanced: its indices are running counts, which the check (true counts) does not take",
            req.system.label
        )));
    }
    Ok(req
        .plays
        .iter()
        .map(|&(dev, crossing)| {
            let hands = if dev.row == INSURANCE {
                Vec::new()
            } else {
                (1..=10u8)
                    .flat_map(|a| (a..=10u8).map(move |b| (a, b)))
                    .filter(|&(a, b)| !(a == 1 && b == 10))
                    .map(|(a, b)| (a, b, initial(r, a, b, dev.up)))
                    .filter(|(_, _, s)| situation_row(s) == dev.row as usize)
                    .collect()
            };
            let split = matches!(dev.play, Play::Code(super::strategy::Code::P));
            let lo = crossing.floor() as i32 - WINDOW;
            Target {
                dev,
                hands,
                weighed: req.risk_averse.is_some() && !split && dev.row != INSURANCE,
                lo,
                sums: vec![Sums::default(); 2 * WINDOW as usize + 1],
            }
        })
        .collect())
}

/// Check `req`'s plays by simulation; `stop` ends it early (the shoes done are reported).
pub fn check(
    req: &CheckRequest,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Check, CheckError> {
    let r = req.rules;
    let mut targets = targets(req)?;
    let tags = req.system.tags;
    let n_cards = r.cards() as usize;
    let cut = match r.shuffle {
        Shuffle::CutCard { penetration } => (penetration * n_cards as f64).round() as usize,
        Shuffle::EveryRound => n_cards,
    };
    let full: Vec<u8> = (1..=10u8)
        .flat_map(|v| std::iter::repeat_n(v, if v == 10 { 16 } else { 4 } * r.decks as usize))
        .collect();
    let bar = crate::progress::Progress::new(req.progress, req.shoes, "index check", "shoes");
    let mut done = 0;
    let mut streams = ChunkStreams::new(req.seed);
    for shoe in 0..req.shoes {
        if stop.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let mut rng = streams.stream(shoe);
        let mut left = Cards(full.clone());
        let mut rc = req.system.initial(r.decks);
        let mut held = super::exact::full_shoe(r.decks);
        let mut dealt = 0;
        while dealt + STEP <= cut {
            for _ in 0..STEP {
                let v = left.draw(&mut rng);
                rc += tags[v as usize - 1] as i32;
                held[v as usize - 1] -= 1;
            }
            dealt += STEP;
            if targets
                .iter()
                .all(|t| t.sums.iter().all(|s| s.n >= req.hands))
            {
                break;
            }
            for t in targets.iter_mut() {
                offer(req, t, (&left, &held), rc, &tags, &mut rng);
            }
        }
        done += 1;
        bar.advance(1);
    }
    bar.finish();
    Ok(Check {
        seed: req.seed,
        shoes: done,
        hands_cap: req.hands,
        plays: targets.iter().map(|t| judge(req, t)).collect(),
    })
}

/// Offer the shoe `left` (running count `rc`) to one play: deal its hand and up card, and play
/// both plays out where the count needs hands.
fn offer(
    req: &CheckRequest,
    t: &mut Target,
    (left, held): (&Cards, &[u32; 10]),
    rc: i32,
    tags: &[i8; 10],
    rng: &mut Rng,
) {
    let up = t.dev.up;
    // The hand: one of the row's, weighed by how many ways the shoe holds it.
    let (a, b, sit) = if t.dev.row == INSURANCE {
        let a = left.0[below(rng, left.0.len() as u32) as usize];
        let b = left.0[below(rng, left.0.len() as u32) as usize];
        (a, b, initial(req.rules, a, b, up))
    } else {
        let ways = |&(a, b, _): &(u8, u8, Situation)| -> f64 {
            let (x, y) = (held[a as usize - 1] as f64, held[b as usize - 1] as f64);
            if a == b {
                x * (x - 1.0) / 2.0
            } else {
                x * y
            }
        };
        let total: f64 = t.hands.iter().map(ways).sum();
        if total <= 0.0 {
            return;
        }
        let mut pick = below(rng, 1 << 30) as f64 / (1u64 << 30) as f64 * total;
        let mut chosen = t.hands[0];
        for h in &t.hands {
            pick -= ways(h);
            chosen = *h;
            if pick < 0.0 {
                break;
            }
        }
        chosen
    };
    // The count with the hand and up card seen, before any card is moved.
    let mut need = [0u32; 10];
    for v in [a, b, up] {
        need[v as usize - 1] += 1;
    }
    if need.iter().zip(held).any(|(n, h)| n > h) {
        return;
    }
    let seen = rc
        + [a, b, up]
            .iter()
            .map(|&v| tags[v as usize - 1] as i32)
            .sum::<i32>();
    let tc = real_tc(req.system, seen, left.0.len() - 3);
    let k = tc.floor() as i32 - t.lo;
    if !(0..t.sums.len() as i32).contains(&k) || t.sums[k as usize].n >= req.hands {
        return;
    }
    let mut cards = left.clone();
    if !(cards.take(a) && cards.take(b) && cards.take(up)) {
        return;
    }
    let x = if t.dev.row == INSURANCE {
        // Insurance: half a bet at 2:1 on a ten in the hole.
        let hole = cards.draw(rng);
        if hole == 10 {
            1.0
        } else {
            -0.5
        }
    } else {
        let plain = Situation {
            can_surrender: false,
            ..sit
        };
        let chart_play = req.chart.act(&plain);
        let play = match t.dev.play {
            Play::Surrender if sit.can_surrender => Action::Surrender,
            Play::Code(c) => c.resolve(&plain),
            _ => return,
        };
        if play == chart_play {
            return;
        }
        // Both plays from the same cards: the player's and the dealer's drawn apart.
        let deal = Deal::new(cards, rng);
        let one = play_out(req.rules, req.chart, &sit, (a, b), play, deal.clone());
        let two = play_out(req.rules, req.chart, &sit, (a, b), chart_play, deal);
        let (Some(one), Some(two)) = (one, two) else {
            return;
        };
        let mut d = one - two;
        if let (true, Some((ramp, per_unit))) = (t.weighed, req.risk_averse) {
            let bet = ramp.units(tc.floor() as i32) as f64;
            d -= bet * per_unit * (one * one - two * two);
        }
        d
    };
    let s = &mut t.sums[k as usize];
    s.n += 1;
    s.s1 += x;
    s.s2 += x * x;
}

/// A play's cells, fitted line, crossing and verdict.
fn judge(req: &CheckRequest, t: &Target) -> PlayCheck {
    let analytic = req
        .plays
        .iter()
        .find(|p| p.0 == t.dev)
        .map_or(f64::NAN, |p| p.1);
    let cells: Vec<CountCell> = t
        .sums
        .iter()
        .enumerate()
        .filter(|(_, s)| s.n > 0)
        .map(|(i, s)| {
            let n = s.n as f64;
            let mean = s.s1 / n;
            let var = (s.s2 / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
            CountCell {
                tc: t.lo + i as i32,
                hands: s.n,
                diff: mean,
                se: (var / n).sqrt(),
            }
        })
        .collect();
    // Weighted least squares of the difference on the bins' middles.
    let (mut sw, mut sx, mut sxx, mut sy, mut sxy, mut k) = (0.0, 0.0, 0.0, 0.0, 0.0, 0);
    for c in cells.iter().filter(|c| c.hands >= MIN_HANDS && c.se > 0.0) {
        let (x, w) = (c.tc as f64 + 0.5, 1.0 / (c.se * c.se));
        sw += w;
        sx += w * x;
        sxx += w * x * x;
        sy += w * c.diff;
        sxy += w * x * c.diff;
        k += 1;
    }
    let det = sw * sxx - sx * sx;
    let fit = (k >= 3 && det > 0.0).then(|| {
        let slope = (sw * sxy - sx * sy) / det;
        let icpt = (sxx * sy - sx * sxy) / det;
        let (va, vb, cab) = (sxx / det, sw / det, -sx / det);
        (slope, icpt, va, vb, cab)
    });
    let crossing = fit.and_then(|(b, a, va, vb, cab)| {
        if b.abs() < 2.0 * vb.sqrt() {
            return None;
        }
        let c = -a / b;
        let var = (va + c * c * vb + 2.0 * c * cab) / (b * b);
        Some((c, var.max(0.0).sqrt()))
    });
    let (verdict, real_gap) = match crossing {
        None => (
            "no clear crossing: the difference has no slope beyond 2 SE in the counts simulated"
                .to_string(),
            false,
        ),
        Some((c, se)) => {
            let gap = c - analytic;
            if gap.abs() <= 1.0 {
                ("agrees: within one count".to_string(), false)
            } else if gap.abs() - 1.0 > 2.0 * se {
                (
                    format!(
                        "differs: {:+.1} counts, {:.1} SE beyond one count",
                        gap,
                        (gap.abs() - 1.0) / se.max(1e-12)
                    ),
                    true,
                )
            } else {
                (
                    format!("{gap:+.1} counts, within 2 SE of one count: noise, not a gap"),
                    false,
                )
            }
        }
    };
    PlayCheck {
        play: t.dev.to_string(),
        analytic,
        simulated: crossing.map(|c| c.0),
        simulated_se: crossing.map(|c| c.1),
        hands: cells.iter().map(|c| c.hands).sum(),
        by_count: cells,
        verdict,
        real_gap,
    }
}

/// The check as comment lines of an index file.
pub fn comments(c: &Check, key: &str) -> String {
    let mut s = format!(
        "#\n# Checked by simulation (--verify, CVIndex's method): {} shoes dealt to the cut card from seed {}, the shoe\n\
         # offered to each play every {STEP} cards; its hand and up card drawn from the cards left, the {key} taken with them\n\
         # seen (real-valued, binned by whole counts); up to {} hands of each play a count, {WINDOW} counts either side of the\n\
         # analytic crossing; both plays played out from the same cards, the chart after the first decision.\n\
         # The difference (the play's result less the chart's, per initial bet) is fitted by a line weighted by its SEs;\n\
         # it crosses zero at the simulated crossing. A play is flagged where the two crossings differ by more than one\n\
         # count and by more than twice the simulated crossing's SE beyond it.\n",
        crate::report::count(c.shoes),
        c.seed,
        crate::report::count(c.hands_cap),
    );
    s += "# play                 analytic  simulated (SE)     hands  verdict\n";
    for p in &c.plays {
        let sim = match (p.simulated, p.simulated_se) {
            (Some(x), Some(se)) => format!("{x:+7.2} ({se:.2})"),
            _ => "      - (-)  ".into(),
        };
        s += &format!(
            "# {:<20} {:+8.2}  {:<16} {:>7}  {}\n",
            p.play,
            p.analytic,
            sim,
            crate::report::count(p.hands),
            p.verdict
        );
    }
    s += "# By count (bin from the count shown; difference in % of the bet, its SE in brackets):\n";
    for p in &c.plays {
        let cells: Vec<String> = p
            .by_count
            .iter()
            .map(|c| format!("{:+}: {:+.1} ({:.1})", c.tc, c.diff * 100.0, c.se * 100.0))
            .collect();
        s += &format!("# {}  {}\n", p.play, cells.join(", "));
    }
    let flagged: Vec<&str> = c
        .plays
        .iter()
        .filter(|p| p.real_gap)
        .map(|p| p.play.as_str())
        .collect();
    s += &format!(
        "# Plays whose simulated crossing is more than one count from the analytic one: {}\n",
        if flagged.is_empty() {
            "none".to_string()
        } else {
            flagged.join(", ")
        }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blackjack::resolve::seed_chart;

    #[test]
    fn the_play_out_settles_as_the_table_does() {
        // A hand against a 6 from a shoe of tens only: the dealer's hole card is a ten (16),
        // and it draws a ten and busts.
        let rules = Rules::seed();
        let chart = seed_chart();
        let sit = initial(&rules, 10, 6, 6);
        let mut rng = crate::rng::chunk_rng(1, 0);
        let mut tens = || Deal::new(Cards(vec![10; 40]), &mut rng);
        let stand = play_out(&rules, &chart, &sit, (10, 6), Action::Stand, tens());
        assert_eq!(stand, Some(1.0));
        // Hitting 16 with a ten busts; doubling busts twice the bet.
        let hit = play_out(&rules, &chart, &sit, (10, 6), Action::Hit, tens());
        assert_eq!(hit, Some(-1.0));
        let dbl = play_out(&rules, &chart, &sit, (10, 6), Action::Double, tens());
        assert_eq!(dbl, Some(-2.0));
        // Split tens against a 6: each hand 20, the dealer busts: +2.
        let sit = initial(&rules, 10, 10, 6);
        let split = play_out(&rules, &chart, &sit, (10, 10), Action::Split, tens());
        assert_eq!(split, Some(2.0));
        // Against an ace with a ten in the hole and no hole card, the blackjack takes the
        // doubled bet whole; with a hole card the hand is not played.
        let sit = initial(&rules, 5, 6, 1);
        let dbl = play_out(&rules, &chart, &sit, (5, 6), Action::Double, tens());
        assert_eq!(dbl, Some(-2.0));
        let peek = Rules {
            peek: true,
            ..Rules::seed()
        };
        let none = play_out(&peek, &chart, &sit, (5, 6), Action::Double, tens());
        assert_eq!(none, None);
    }

    #[test]
    fn a_play_whose_index_is_wrong_is_flagged() {
        // Insurance pays 2:1 on a ten in the hole: it gains where a third of the cards left
        // are tens, Hi-Lo about +3. Checked against a crossing said to be +3 the simulation
        // agrees; against one said to be +8 (its counts +4..+12) it finds the crossing well
        // below and flags the play.
        let mut rules = Rules::seed();
        rules.decks = 2;
        rules.validate().unwrap();
        let system = CountSystem::resolve("hi-lo").unwrap();
        let chart = seed_chart();
        let dev = Deviation::parse("insurance,A,I,>=3").unwrap();
        let run = |crossing: f64| {
            let req = CheckRequest {
                rules: &rules,
                system: &system,
                chart: &chart,
                plays: vec![(dev, crossing)],
                risk_averse: None,
                shoes: 4000,
                hands: 4000,
                seed: 7,
                progress: false,
            };
            check(&req, &std::sync::atomic::AtomicBool::new(false)).unwrap()
        };
        let right = run(3.0);
        let p = &right.plays[0];
        let (c, se) = (p.simulated.unwrap(), p.simulated_se.unwrap());
        assert!(
            (c - 3.0).abs() < 1.0 + 2.0 * se && se < 0.5,
            "{c} ({se}) {}",
            p.verdict
        );
        assert!(!p.real_gap, "{}", p.verdict);
        // Each count's difference is the insurance bet's result: +1 or -1/2.
        assert!(p.by_count.iter().all(|c| (-0.5..=1.0).contains(&c.diff)));
        let wrong = run(8.0);
        assert!(wrong.plays[0].real_gap, "{:?}", wrong.plays[0]);
        let text = comments(&wrong, "true count");
        assert!(text.contains("analytic one: insurance,A,I,>=3"), "{text}");
    }
}
