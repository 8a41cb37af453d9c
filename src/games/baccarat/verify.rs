//! `verify baccarat LOG`: a table's round log checked coup by coup, streaming (memory bounded
//! by one shoe, whatever the log's size), each part a section of the report and of the verdict:
//!
//! - **Settlement**: every coup dealt and paid again by the rules the header states
//!   ([`replay`]: the tableau, the commission, the tie and pair payouts, the rounding); voided
//!   coups refunded and followed by a new shoe. Every deviation is counted, the first
//!   [`LISTED`] listed with their coup, bettor, bet, what was paid and what the rules pay.
//! - **The shoe**: no card more often than the stated decks hold, the cut card where the rules
//!   put it (within the header's tolerance), no coup after it, no shoe replaced before it
//!   without a void, the burn as the rules state it.
//! - **The shuffle**: the place of the shuffle tests ([`ShuffleHook`]).
//! - **Outcomes**: banker/player/tie (chi-square), naturals, third cards, pairs (z) against
//!   their exact probabilities for each coup given the cards already dealt from its shoe
//!   ([`Conditional`], from the exact engine), each at 99%, the p-values Holm-corrected
//!   together.
//! - **Return**: each bet's observed RTP from the logged stakes (a ratio estimator, no
//!   equal-stakes assumption) against its exact RTP, and the table's claim against both. The
//!   coups of one shoe share its cards, so the SE is built from the variation between shoes:
//!   SE = √Σ(x_s − r·w_s)²/Σw_s over the shoes s.

use std::io::Read;
use std::path::PathBuf;

use serde::Serialize;

use super::bet::Spot;
use super::exact::Exact;
use super::log::replay::{self, burn_len, Winner};
use super::log::{
    bet_name, burns, cut_of, Claims, CoupRecord, EndRecord, Header, Rounding, ShoeRecord, FORMAT,
    VERSION,
};
use super::rules::{BacRules, Shuffle};
use super::BacError;
use crate::job::{Ctx, Error, Job, Outcome, Outputs, Status};
use crate::logfile::{parse, record_type, Lines, LogError};
use crate::report::{count, count_cell, fixed_cell, pct, pct_cell, Cell, Report, Section};

/// Deviations listed in the report, of each part (all are counted).
pub const LISTED: usize = 100;
/// The level of every test.
pub const LEVEL: f64 = 0.99;
/// Coups with a stake a bet's return test needs.
pub const MIN_COUPS: u64 = 1000;
/// How far above the exact RTP a claim may be (the rounding of a claim stated to two decimals
/// of a percent).
pub const CLAIM_TOLERANCE: f64 = 0.00005;

/// `verify baccarat`: the log (`-`: standard input) and where the report goes. It fails when
/// any part fails.
pub struct VerifyJob {
    pub log: PathBuf,
    pub outputs: Outputs,
}

impl Job for VerifyJob {
    fn outputs(&self) -> &Outputs {
        &self.outputs
    }
    fn run(self, ctx: &Ctx) -> Result<Outcome, Error> {
        use crate::door::input::{open_file, STDIN};
        let model = if self.log.as_os_str() == "-" {
            verify(STDIN, std::io::stdin(), None, ctx.progress)?
        } else {
            let (file, len) = open_file(&self.log, "the log")?;
            verify(
                &self.log.display().to_string(),
                file,
                Some(len),
                ctx.progress,
            )?
        };
        let ok = model.ok;
        Ok(Outcome::report(render(&model), Status::checked(ok)))
    }
}

/// The log read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogInfo {
    pub name: String,
    /// Bytes read (compressed, if it was).
    pub bytes: u64,
    pub format: String,
    pub version: u32,
    /// Whether the log ends with its end record, and whether that says it is complete
    /// (`None`: no end record; the log may have been cut short).
    pub complete: Option<bool>,
}

/// What kind of rule a settlement deviation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DeviationKind {
    /// A hand drew or stood against the tableau, or cannot be settled.
    Deal,
    /// A bet paid otherwise than the rules pay.
    Pay,
    /// A voided coup whose bets were not returned, or not followed by a new shoe.
    Void,
}

/// One departure of a coup's settlement from the rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Deviation {
    /// The log's line.
    pub line: u64,
    pub shoe: u64,
    pub coup: u64,
    pub kind: DeviationKind,
    pub bettor: Option<u64>,
    pub bet: Option<&'static str>,
    pub staked: Option<u64>,
    pub paid: Option<u64>,
    /// What the rules pay (the stake, for a void).
    pub rules_pay: Option<u64>,
    pub what: String,
}

/// The settlement part.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Settlement {
    /// Coups dealt and paid again (voided ones apart).
    pub coups: u64,
    /// Bets checked: each bettor's bet of each coup with a stake or a payment.
    pub bets: u64,
    pub voided: u64,
    pub deviations: u64,
    /// The first [`LISTED`].
    pub listed: Vec<Deviation>,
    pub ok: bool,
}

/// One departure of a shoe from the rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShoeDeviation {
    pub line: u64,
    pub shoe: u64,
    /// The coup it was seen in (none: the shoe's own record).
    pub coup: Option<u64>,
    pub what: String,
}

/// The shoe part.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ShoeCheck {
    pub shoes: u64,
    /// Cards dealt, burns included.
    pub cards: u64,
    pub deviations: u64,
    pub listed: Vec<ShoeDeviation>,
    pub ok: bool,
}

/// The shuffle part (the tests of the shared shuffle module, when it is there).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShufflePart {
    pub ok: bool,
    /// Each failed test, named.
    pub failures: Vec<String>,
    pub sections: Vec<Section>,
}

/// The shuffle's tests (`crate::shuffle`), fed every shoe's cards in dealing order (the burn
/// first) as ids `rank * 4 + suit`.
pub struct ShuffleHook {
    tests: crate::shuffle::ShuffleTests,
}

/// The seed of the shuffle tests' simulated null (stated in the report).
pub const SHUFFLE_SEED: u64 = 1;

impl ShuffleHook {
    pub fn new(decks: u32) -> ShuffleHook {
        ShuffleHook {
            tests: crate::shuffle::ShuffleTests::new(decks, SHUFFLE_SEED),
        }
    }
    /// A shoe's cards, in dealing order.
    pub fn add_shoe(&mut self, cards: &[u8]) {
        self.tests.add_shoe(cards);
    }
    /// The part.
    pub fn finish(self, level: f64) -> Option<ShufflePart> {
        let v = self.tests.finish(level);
        Some(ShufflePart {
            ok: v.pass,
            failures: crate::audit::shuffle_failures(&v),
            sections: vec![crate::audit::shuffle_section(&v)],
        })
    }
}

/// An outcome counted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub name: &'static str,
    pub count: u64,
    pub rate: f64,
    /// Its exact probability off the top of the full shoe.
    pub exact: f64,
    /// Its expected count: the sum over the coups of its probability given the shoe.
    pub expected: f64,
}

/// A test of outcomes against their exact probabilities.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutcomeTest {
    pub name: &'static str,
    /// `chi-square` (its statistic, on `df` degrees of freedom) or `z`.
    pub test: &'static str,
    pub statistic: f64,
    pub df: u64,
    pub p: f64,
    /// Holm-corrected over the part's tests.
    pub p_holm: f64,
    /// Whether there were enough coups and shoes to test.
    pub tested: bool,
    pub ok: bool,
}

/// The outcome part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcomes {
    /// What the observed rates are held against.
    pub reference: String,
    pub coups: u64,
    pub events: Vec<Event>,
    pub tests: Vec<OutcomeTest>,
    pub ok: bool,
}

/// One bet's return.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BetReturn {
    pub bet: &'static str,
    /// Coups and shoes with a stake on the bet.
    pub coups: u64,
    pub shoes: u64,
    pub staked: u128,
    pub returned: u128,
    /// Returned over staked.
    pub rtp: f64,
    /// Its SE from the log: √Σ(x_s − r·w_s)²/Σw_s over the shoes s (x returned, w staked).
    pub se: f64,
    /// rtp ± z(99%)·SE.
    pub ci99: [f64; 2],
    /// The bet's exact RTP under the rules.
    pub exact: f64,
    /// What the rules return on the stakes logged, over what they stake: the exact RTP less
    /// what the rounding of payments keeps.
    pub expected: f64,
    /// The SD of the return over the stakes logged, from the exact distribution of each
    /// coup's return given its stakes: √Σvar_c/Σw_c.
    pub se_expected: f64,
    /// expected ± z(99%)·se_expected: where the observed RTP falls 99 times in 100.
    pub band99: [f64; 2],
    pub claimed: Option<f64>,
    /// (rtp − expected)/se_expected.
    pub z: f64,
    pub p: f64,
    pub p_holm: f64,
    pub tested: bool,
    /// The claim is not above the exact RTP (by more than [`CLAIM_TOLERANCE`]).
    pub claim_ok: bool,
    pub ok: bool,
}

/// The return part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Returns {
    pub bets: Vec<BetReturn>,
    pub ok: bool,
}

/// Everything `verify baccarat` reports; its JSON is this struct.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyModel {
    pub version: &'static str,
    pub game: &'static str,
    pub log: LogInfo,
    pub rules: BacRules,
    pub rounding: Rounding,
    pub cut_tolerance: u32,
    pub claim: Option<Claims>,
    pub currency: Option<String>,
    pub source: Option<String>,
    /// Coup records (voided ones included).
    pub coups: u64,
    pub level: f64,
    pub settlement: Settlement,
    pub shoe: ShoeCheck,
    pub shuffle: Option<ShufflePart>,
    pub outcomes: Outcomes,
    #[serde(rename = "return")]
    pub returns: Returns,
    /// Every part holds (exit 0).
    pub ok: bool,
    /// Each failure, named.
    pub failures: Vec<String>,
}

/// The outcomes counted, in the order of the sums.
const EVENTS: [&str; 8] = [
    "banker wins",
    "player wins",
    "tie",
    "natural (8 or 9 on two cards)",
    "player draws a third card",
    "banker draws a third card",
    "player pair",
    "banker pair",
];

/// One bet's sums over the shoes.
#[derive(Clone, Copy, Default)]
struct BetSums {
    staked: u128,
    returned: u128,
    coups: u64,
    shoes: u64,
    /// Σx_s², Σx_s·w_s, Σw_s² over the shoes (x returned, w staked).
    xx: f64,
    xw: f64,
    ww: f64,
    /// The sums over the coups of the mean and the variance of the return the rules pay on
    /// the coup's stakes.
    mean: f64,
    var: f64,
}

/// The outcomes a bet's payment depends on, each with its exact probability and a coup of
/// that outcome: banker wins on other than 6, banker wins on 6, player wins, tie; for a pair
/// bet, a pair and none.
type Classes = [[(f64, replay::Coup); 4]; 5];

fn classes(e: &Exact) -> Classes {
    let coup = |player: u8, banker: u8, pair: bool| replay::Coup {
        player,
        banker,
        natural: false,
        player_drew: false,
        banker_drew: false,
        player_pair: pair,
        banker_pair: pair,
    };
    let main = [
        (e.banker - e.banker_six, coup(0, 7, false)),
        (e.banker_six, coup(5, 6, false)),
        (e.player, coup(7, 0, false)),
        (e.tie, coup(5, 5, false)),
    ];
    let pair = [
        (e.pair, coup(0, 7, true)),
        (1.0 - e.pair, coup(0, 7, false)),
        (0.0, coup(0, 7, false)),
        (0.0, coup(0, 7, false)),
    ];
    [main, main, main, pair, pair]
}

/// The shoe being read.
struct ShoeState {
    no: u64,
    cut: u32,
    dealt: u32,
    counts: [u16; 52],
    coups: u32,
    voided: bool,
    /// Its cards in dealing order (for the shuffle tests).
    cards: Vec<u8>,
    /// Cards gone from the shoe by value (0: tens and faces) and by rank.
    gone_values: [u32; 10],
    gone_ranks: [u32; 13],
    /// Returned and staked on each bet, and coups with a stake.
    bets: [(u128, u128, u64); 5],
}

impl ShoeState {
    fn new(no: u64, cut: u32) -> ShoeState {
        ShoeState {
            no,
            cut,
            dealt: 0,
            counts: [0; 52],
            coups: 0,
            voided: false,
            cards: Vec::with_capacity(1024),
            gone_values: [0; 10],
            gone_ranks: [0; 13],
            bets: [(0, 0, 0); 5],
        }
    }
}

/// The probability of each outcome (`EVENTS` order) of a coup dealt from a shoe as it stands:
/// the coups of a shoe dealt to its cut card are not a sample of coups off the top of the full
/// shoe (a shoe that deals short coups deals more of them), which a long log of a small shoe
/// shows (one deck dealt to 75%: banker draws at z = +3.0 over 10^7 coups). Each coup is held
/// against its shoe instead: the pairs exactly by the ranks left; the other outcomes the full
/// shoe's exact probabilities moved by the exact effect of each card gone (each value's, by
/// the enumeration of the full shoe less one card of it), to first order in the cards gone.
/// The differences between outcomes and these probabilities have mean 0 coup after coup,
/// whatever decides which coups are dealt.
struct Conditional {
    full: [f64; 8],
    /// The change of each probability (the first six outcomes) when a card of value `v`
    /// leaves the full shoe.
    effect: [[f64; 6]; 10],
    cards: f64,
    per_rank: f64,
}

impl Conditional {
    fn new(decks: u32) -> Conditional {
        let mut c = [4 * decks as u128; 10];
        c[0] = 16 * decks as u128;
        let six = |k: &super::exact::Counts| {
            let f = |x: u128| x as f64 / k.total as f64;
            [
                f(k.banker),
                f(k.player),
                f(k.tie),
                f(k.natural),
                f(k.player_draws),
                f(k.banker_draws),
            ]
        };
        let full6 = six(&super::exact::enumerate_values(c));
        let mut effect = [[0.0; 6]; 10];
        for (v, e) in effect.iter_mut().enumerate() {
            let mut less = c;
            less[v] -= 1;
            let p = six(&super::exact::enumerate_values(less));
            for i in 0..6 {
                e[i] = p[i] - full6[i];
            }
        }
        let n = decks as f64 * 52.0;
        let r = decks as f64 * 4.0;
        let pair = r * (r - 1.0) * 13.0 / (n * (n - 1.0));
        let mut full = [pair; 8];
        full[..6].copy_from_slice(&full6);
        Conditional {
            full,
            effect,
            cards: n,
            per_rank: r,
        }
    }

    /// The probabilities for a coup from shoe `s` as it stands.
    fn probs(&self, s: &ShoeState) -> [f64; 8] {
        let gone = s.dealt as f64;
        let left = self.cards - gone;
        let mut p = self.full;
        if left < 6.0 {
            return p;
        }
        // Removing R cards moves the shoe's fractions (N − 1)/(N − R) times as far as
        // removing one card of each of them does.
        let scale = (self.cards - 1.0) / left;
        for (&k, effect) in s.gone_values.iter().zip(&self.effect) {
            if k > 0 {
                for (x, d) in p.iter_mut().zip(effect) {
                    *x += scale * k as f64 * d;
                }
            }
        }
        let pair = s
            .gone_ranks
            .iter()
            .map(|&g| {
                let c = (self.per_rank - g as f64).max(0.0);
                c * (c - 1.0).max(0.0)
            })
            .sum::<f64>()
            / (left * (left - 1.0));
        p[6] = pair;
        p[7] = pair;
        for x in &mut p {
            *x = x.clamp(1e-12, 1.0 - 1e-12);
        }
        p
    }
}

/// The verifier's state: the header's table, the shoe being read, the sums.
struct Verifier {
    rules: BacRules,
    rounding: Rounding,
    tolerance: u32,
    cond: Conditional,
    shoe: Option<ShoeState>,
    last_coup: Option<u64>,
    /// A voided coup (line, number) not yet followed by a new shoe.
    void_pending: Option<u64>,
    coups: u64,
    settlement: Settlement,
    shoe_check: ShoeCheck,
    /// Outcome totals and the coups counted; the sums over those coups of each outcome's
    /// probability given its shoe (p), of p(1 − p), and of −p(banker)·p(player).
    events: [u64; 8],
    n: u64,
    expected: [f64; 8],
    var: [f64; 8],
    cov_bp: f64,
    bets: [BetSums; 5],
    classes: Classes,
    shuffle: ShuffleHook,
}

impl Verifier {
    fn settle_dev(&mut self, d: Deviation) {
        self.settlement.deviations += 1;
        if self.settlement.listed.len() < LISTED {
            self.settlement.listed.push(d);
        }
    }

    fn shoe_dev(&mut self, line: u64, shoe: u64, coup: Option<u64>, what: String) {
        self.shoe_check.deviations += 1;
        if self.shoe_check.listed.len() < LISTED {
            self.shoe_check.listed.push(ShoeDeviation {
                line,
                shoe,
                coup,
                what,
            });
        }
    }

    /// A card out of the shoe: counted, and one more than the shoe holds is a deviation.
    fn card(&mut self, card: crate::logfile::Card, line: u64, coup: Option<u64>) {
        let decks = self.rules.decks;
        let Some(s) = self.shoe.as_mut() else {
            return;
        };
        let n = &mut s.counts[card.0 as usize];
        *n += 1;
        let seen = *n;
        s.gone_values[replay::points(card.rank()) as usize] += 1;
        s.gone_ranks[card.rank() as usize] += 1;
        s.dealt += 1;
        s.cards.push(card.0);
        self.shoe_check.cards += 1;
        if seen as u32 > decks {
            let no = s.no;
            self.shoe_dev(
                line,
                no,
                coup,
                format!(
                    "{card} dealt {seen} times: the shoe of {} holds {decks}",
                    crate::report::plural(decks as u64, "deck")
                ),
            );
        }
    }

    /// The shoe being read is done: its checks, its sums into the totals.
    fn close_shoe(&mut self, next_line: Option<u64>) {
        let Some(s) = self.shoe.take() else {
            return;
        };
        let cut_card = matches!(self.rules.shuffle, Shuffle::CutCard { .. });
        if let Some(line) = next_line {
            if cut_card && !s.voided && s.dealt < s.cut {
                self.shoe_dev(
                    line,
                    s.no,
                    None,
                    format!(
                        "the shoe was replaced after {} cards, before its cut card (at {}) came out, with no voided coup",
                        s.dealt, s.cut
                    ),
                );
            }
        }
        self.shuffle.add_shoe(&s.cards);
        for (b, &(x, w, k)) in self.bets.iter_mut().zip(&s.bets) {
            if k == 0 {
                continue;
            }
            b.returned += x;
            b.staked += w;
            b.coups += k;
            b.shoes += 1;
            let (x, w) = (x as f64, w as f64);
            b.xx += x * x;
            b.xw += x * w;
            b.ww += w * w;
        }
    }

    fn shoe_record(&mut self, r: ShoeRecord, line: u64) {
        self.close_shoe(Some(line));
        self.void_pending = None;
        self.shoe_check.shoes += 1;
        self.shoe = Some(ShoeState::new(r.shoe, r.cut));
        let want = cut_of(&self.rules);
        if r.cut.abs_diff(want) > self.tolerance {
            let tol = match self.tolerance {
                0 => String::new(),
                t => format!(" (± {t})"),
            };
            self.shoe_dev(
                line,
                r.shoe,
                None,
                format!(
                    "the cut card after {} cards; the rules put it after {want}{tol}",
                    r.cut
                ),
            );
        }
        match (burns(&self.rules), r.burn.first()) {
            (true, None) => self.shoe_dev(
                line,
                r.shoe,
                None,
                "no burn; the rules burn after each shuffle".into(),
            ),
            (true, Some(first)) => {
                let want = burn_len(first.rank());
                if r.burn.len() != want {
                    self.shoe_dev(
                        line,
                        r.shoe,
                        None,
                        format!(
                            "{} cards burned; the first, {first}, burns {} more ({want} in all)",
                            r.burn.len(),
                            want - 1
                        ),
                    );
                }
            }
            (false, Some(_)) => self.shoe_dev(
                line,
                r.shoe,
                None,
                format!(
                    "{} burned; the rules burn none",
                    crate::report::plural(r.burn.len() as u64, "card")
                ),
            ),
            (false, None) => {}
        }
        for &c in &r.burn {
            self.card(c, line, None);
        }
    }

    fn coup_record(&mut self, r: CoupRecord, line: u64) {
        self.coups += 1;
        let (shoe_no, coup) = (r.shoe, r.coup);
        // The probability of each outcome given the cards gone from the shoe before the coup.
        let probs = self.shoe.as_ref().map(|s| self.cond.probs(s));
        // The shoe: a coup after its cut card, or a second from a shoe shuffled every coup.
        if let Some(s) = &self.shoe {
            let every = self.rules.shuffle == Shuffle::EveryRound;
            let what = if every && s.coups > 0 {
                Some("a second coup from a shoe the rules shuffle every coup".to_string())
            } else if !every && s.dealt >= s.cut && !s.voided {
                Some(format!(
                    "dealt after the cut card came out ({} cards dealt, the cut card after {})",
                    s.dealt, s.cut
                ))
            } else {
                None
            };
            if let Some(what) = what {
                self.shoe_dev(line, shoe_no, Some(coup), what);
            }
        }
        for c in r.dealt() {
            self.card(c, line, Some(coup));
        }
        if let Some(v) = self.void_pending.take() {
            self.settle_dev(Deviation {
                line,
                shoe: shoe_no,
                coup,
                kind: DeviationKind::Void,
                bettor: None,
                bet: None,
                staked: None,
                paid: None,
                rules_pay: None,
                what: format!(
                    "dealt from the shoe of voided coup {v}: a void reshuffles the shoe (a new shoe record follows it)"
                ),
            });
        }
        let Some(s) = self.shoe.as_mut() else {
            return;
        };
        s.coups += 1;
        if let Some(why) = &r.void {
            s.voided = true;
            self.void_pending = Some(coup);
            self.settlement.voided += 1;
            for b in &r.bets {
                for spot in Spot::ALL {
                    let (st, pd) = (b.stake.get(spot), b.paid.get(spot));
                    if st == 0 && pd == 0 {
                        continue;
                    }
                    self.settlement.bets += 1;
                    if st != pd {
                        self.settle_dev(Deviation {
                            line,
                            shoe: shoe_no,
                            coup,
                            kind: DeviationKind::Void,
                            bettor: Some(b.bettor),
                            bet: Some(bet_name(spot)),
                            staked: Some(st),
                            paid: Some(pd),
                            rules_pay: Some(st),
                            what: format!("voided ({why}): every bet is returned"),
                        });
                    }
                }
            }
            return;
        }
        self.settlement.coups += 1;
        let ranks = |h: &[crate::logfile::Card]| h.iter().map(|c| c.rank()).collect::<Vec<_>>();
        let dealt = match replay::deal(&ranks(&r.player), &ranks(&r.banker)) {
            Ok(d) => d,
            Err(issue) => {
                self.settle_dev(Deviation {
                    line,
                    shoe: shoe_no,
                    coup,
                    kind: DeviationKind::Deal,
                    bettor: None,
                    bet: None,
                    staked: None,
                    paid: None,
                    rules_pay: None,
                    what: format!("{issue}: the coup cannot be settled"),
                });
                return;
            }
        };
        for issue in &dealt.issues {
            self.settle_dev(Deviation {
                line,
                shoe: shoe_no,
                coup,
                kind: DeviationKind::Deal,
                bettor: None,
                bet: None,
                staked: None,
                paid: None,
                rules_pay: None,
                what: issue.to_string(),
            });
        }
        let c = dealt.coup;
        let (Some(s), Some(g)) = (self.shoe.as_mut(), probs) else {
            return;
        };
        let w = c.winner();
        let hits = [
            w == Winner::Banker,
            w == Winner::Player,
            w == Winner::Tie,
            c.natural,
            c.player_drew,
            c.banker_drew,
            c.player_pair,
            c.banker_pair,
        ];
        for e in 0..8 {
            self.events[e] += hits[e] as u64;
            self.expected[e] += g[e];
            self.var[e] += g[e] * (1.0 - g[e]);
        }
        self.cov_bp -= g[0] * g[1];
        self.n += 1;
        let mut staked = [false; 5];
        // What each bet's stakes of the coup return in each of its outcomes.
        let mut class_pay = [[0f64; 4]; 5];
        let mut devs = Vec::new();
        for b in &r.bets {
            for (i, spot) in Spot::ALL.into_iter().enumerate() {
                let (st, pd) = (b.stake.get(spot), b.paid.get(spot));
                if st == 0 && pd == 0 {
                    continue;
                }
                self.settlement.bets += 1;
                for (k, (_, o)) in self.classes[i].iter().enumerate() {
                    class_pay[i][k] +=
                        replay::returned(spot, st, o, &self.rules, self.rounding) as f64;
                }
                let due = replay::returned(spot, st, &c, &self.rules, self.rounding);
                let sums = &mut s.bets[i];
                sums.0 += pd as u128;
                sums.1 += st as u128;
                staked[i] |= st > 0;
                if due != pd {
                    devs.push(Deviation {
                        line,
                        shoe: shoe_no,
                        coup,
                        kind: DeviationKind::Pay,
                        bettor: Some(b.bettor),
                        bet: Some(bet_name(spot)),
                        staked: Some(st),
                        paid: Some(pd),
                        rules_pay: Some(due),
                        what: format!(
                            "{} (player {}, banker {})",
                            match w {
                                Winner::Banker => "banker wins",
                                Winner::Player => "player wins",
                                Winner::Tie => "tie",
                            },
                            c.player,
                            c.banker
                        ),
                    });
                }
            }
        }
        for (sums, k) in s.bets.iter_mut().zip(staked) {
            sums.2 += k as u64;
        }
        for i in 0..5 {
            if !staked[i] {
                continue;
            }
            let (mut m, mut m2) = (0.0, 0.0);
            for (k, &(p, _)) in self.classes[i].iter().enumerate() {
                m += p * class_pay[i][k];
                m2 += p * class_pay[i][k] * class_pay[i][k];
            }
            self.bets[i].mean += m;
            self.bets[i].var += (m2 - m * m).max(0.0);
        }
        for d in devs {
            self.settle_dev(d);
        }
    }
}

/// Read and check a log of `name` from `src` (`size` bytes, for the progress bar).
pub fn verify(
    name: &str,
    src: impl Read + 'static,
    size: Option<u64>,
    show: bool,
) -> Result<VerifyModel, BacError> {
    let mut lines = Lines::new(name, src)?;
    let mut buf = String::new();
    let Some(first) = lines.next_line()? else {
        return Err(LogError::Empty { log: name.into() }.into());
    };
    buf.push_str(first);
    if record_type(&lines, &buf)? != "header" {
        return Err(lines
            .error(
                "type",
                "the first record must be the header (type \"header\")",
            )
            .into());
    }
    let header: Header = parse(&lines, &buf)?;
    let rules = check_header(&lines, &header)?;
    let exact = Exact::of(rules.decks);
    let mut v = Verifier {
        cond: Conditional::new(rules.decks),
        rounding: header.rounding,
        tolerance: header.cut_tolerance,
        shoe: None,
        last_coup: None,
        void_pending: None,
        coups: 0,
        settlement: Settlement::default(),
        shoe_check: ShoeCheck::default(),
        events: [0; 8],
        n: 0,
        expected: [0.0; 8],
        var: [0.0; 8],
        cov_bp: 0.0,
        bets: [BetSums::default(); 5],
        classes: classes(&exact),
        shuffle: ShuffleHook::new(rules.decks),
        rules,
    };
    let bar = match size {
        Some(len) => crate::progress::Progress::percent(show, len, "verify baccarat", "of the log"),
        None => crate::progress::Progress::hidden(),
    };
    let mut shown = 0u64;
    let mut end: Option<EndRecord> = None;
    let mut last_shoe: Option<u64> = None;
    while let Some(l) = lines.next_line()? {
        buf.clear();
        buf.push_str(l);
        let line = lines.line();
        if line.is_multiple_of(4096) {
            let read = lines.read.load(std::sync::atomic::Ordering::Relaxed);
            bar.advance(read.saturating_sub(shown));
            shown = read;
        }
        if end.is_some() {
            return Err(lines
                .error(
                    "",
                    "a record after the end record; the end record is the last line",
                )
                .into());
        }
        let kind = if buf.starts_with("{\"type\":\"coup\",") {
            "coup".to_string()
        } else {
            record_type(&lines, &buf)?
        };
        match kind.as_str() {
            "coup" => {
                // The record read at full speed; one that does not read, again for the field
                // that is wrong.
                let r: CoupRecord = match serde_json::from_str(&buf) {
                    Ok(r) => r,
                    Err(_) => parse(&lines, &buf)?,
                };
                match &v.shoe {
                    None => {
                        return Err(lines
                            .error("shoe", "a coup before any shoe record; each shoe's record comes before its coups")
                            .into())
                    }
                    Some(s) if s.no != r.shoe => {
                        return Err(lines
                            .error(
                                "shoe",
                                format!(
                                    "coup of shoe {} in shoe {}: a shoe's coups follow its shoe record",
                                    r.shoe, s.no
                                ),
                            )
                            .into())
                    }
                    _ => {}
                }
                if let Some(prev) = v.last_coup.filter(|&p| r.coup <= p) {
                    return Err(lines
                        .error(
                            "coup",
                            format!("coup {} after coup {prev}: coup numbers rise", r.coup),
                        )
                        .into());
                }
                v.last_coup = Some(r.coup);
                v.coup_record(r, line);
            }
            "shoe" => {
                let r: ShoeRecord = parse(&lines, &buf)?;
                if let Some(prev) = last_shoe.filter(|&p| r.shoe <= p) {
                    return Err(lines
                        .error(
                            "shoe",
                            format!("shoe {} after shoe {prev}: shoe numbers rise", r.shoe),
                        )
                        .into());
                }
                last_shoe = Some(r.shoe);
                v.shoe_record(r, line);
            }
            "end" => {
                let r: EndRecord = parse(&lines, &buf)?;
                if r.coups != v.coups {
                    return Err(lines
                        .error(
                            "coups",
                            format!(
                                "the end record counts {} coups, the log has {}: records were lost or added",
                                r.coups, v.coups
                            ),
                        )
                        .into());
                }
                end = Some(r);
            }
            "header" => {
                return Err(lines
                    .error("type", "a second header; a log has one, on its first line")
                    .into())
            }
            other => {
                return Err(lines
                    .error(
                        "type",
                        format!(
                        "unknown record type '{other}'; the records are header, shoe, coup and end"
                    ),
                    )
                    .into())
            }
        }
    }
    v.close_shoe(None);
    bar.finish();
    let bytes = lines.read.load(std::sync::atomic::Ordering::Relaxed);
    Ok(model(
        v,
        &header,
        &exact,
        LogInfo {
            name: name.to_string(),
            bytes,
            format: header.format.clone(),
            version: header.version,
            complete: end.map(|e| e.complete),
        },
    ))
}

/// The header's table, or the field that is wrong.
fn check_header(lines: &Lines, h: &Header) -> Result<BacRules, LogError> {
    if h.format != FORMAT {
        return Err(lines.error(
            "format",
            format!("'{}': a round log says \"{FORMAT}\"", h.format),
        ));
    }
    if h.version != VERSION {
        return Err(lines.error(
            "version",
            format!("version {}: this rtplab reads version {VERSION}", h.version),
        ));
    }
    if h.game != "baccarat" {
        return Err(lines.error(
            "game",
            format!(
                "a log of '{}': verify it with `rtplab verify {}`",
                h.game, h.game
            ),
        ));
    }
    if let Some(c) = &h.claim {
        for s in Spot::ALL {
            if let Some(x) = c
                .get(s)
                .filter(|x| !(x.is_finite() && *x > 0.0 && *x < 2.0))
            {
                return Err(lines.error(
                    &format!("claim.{}", bet_name(s)),
                    format!("{x}: a claimed RTP is a fraction (0.9894 for 98.94%)"),
                ));
            }
        }
    }
    h.table_rules()
        .map_err(|(field, why)| lines.error(&field, why))
}

/// z of a two-sided level.
fn z_of(level: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::standard().inverse_cdf(1.0 - (1.0 - level) / 2.0)
}

/// Holm's step-down correction of `p` (NaN for tests not made, which take no part).
fn holm(p: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..p.len()).filter(|&i| !p[i].is_nan()).collect();
    idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let m = idx.len();
    let mut out = vec![f64::NAN; p.len()];
    let mut run = 0.0f64;
    for (k, &i) in idx.iter().enumerate() {
        run = run.max(((m - k) as f64 * p[i]).min(1.0));
        out[i] = run;
    }
    out
}

fn model(v: Verifier, h: &Header, exact: &Exact, log: LogInfo) -> VerifyModel {
    let rules = v.rules.clone();
    let mut failures = Vec::new();
    // Settlement.
    let mut settlement = v.settlement.clone();
    settlement.ok = settlement.deviations == 0;
    if !settlement.ok {
        let first = &settlement.listed[0];
        failures.push(format!(
            "Settlement: {} (the first: coup {}, {})",
            crate::report::plural(settlement.deviations, "deviation"),
            first.coup,
            deviation_text(first)
        ));
    }
    let mut shoe = v.shoe_check.clone();
    shoe.ok = shoe.deviations == 0;
    if !shoe.ok {
        let first = &shoe.listed[0];
        failures.push(format!(
            "Shoe: {} (the first: shoe {}{}, {})",
            crate::report::plural(shoe.deviations, "deviation"),
            first.shoe,
            first.coup.map(|c| format!(" coup {c}")).unwrap_or_default(),
            first.what
        ));
    }
    let shuffle = v.shuffle.finish(LEVEL);
    if let Some(s) = &shuffle {
        failures.extend(s.failures.iter().map(|f| format!("Shuffle: {f}")));
    }
    // Outcomes.
    let n = v.n;
    let events: Vec<Event> = (0..8)
        .map(|e| Event {
            name: EVENTS[e],
            count: v.events[e],
            rate: crate::report::rate(v.events[e], n),
            exact: v.cond.full[e],
            expected: v.expected[e],
        })
        .collect();
    // Enough coups for the normal approximation: 5 expected of the outcome and of its
    // complement.
    let enough = |e: usize| v.expected[e] >= 5.0 && n as f64 - v.expected[e] >= 5.0;
    let mut tests = Vec::new();
    {
        // Banker / player / tie: the deviations of the banker and player counts (the tie's
        // follows) against their covariance, chi-square on 2 df.
        let d = [
            v.events[0] as f64 - v.expected[0],
            v.events[1] as f64 - v.expected[1],
        ];
        let c = [[v.var[0], v.cov_bp], [v.cov_bp, v.var[1]]];
        let det = c[0][0] * c[1][1] - c[0][1] * c[1][0];
        let tested = (0..3).all(enough) && det > 0.0;
        let stat = if tested {
            (d[0] * d[0] * c[1][1] - 2.0 * d[0] * d[1] * c[0][1] + d[1] * d[1] * c[0][0]) / det
        } else {
            f64::NAN
        };
        let p = if tested {
            use statrs::distribution::{ChiSquared, ContinuousCDF};
            ChiSquared::new(2.0).map_or(f64::NAN, |x| x.sf(stat))
        } else {
            f64::NAN
        };
        tests.push(OutcomeTest {
            name: "banker / player / tie",
            test: "chi-square",
            statistic: stat,
            df: 2,
            p,
            p_holm: f64::NAN,
            tested,
            ok: true,
        });
    }
    for (e, &name) in EVENTS.iter().enumerate().skip(3) {
        let tested = enough(e) && v.var[e] > 0.0;
        let z = (v.events[e] as f64 - v.expected[e]) / v.var[e].sqrt();
        tests.push(OutcomeTest {
            name,
            test: "z",
            statistic: if tested { z } else { f64::NAN },
            df: 0,
            p: if tested {
                crate::stats::p_value(z)
            } else {
                f64::NAN
            },
            p_holm: f64::NAN,
            tested,
            ok: true,
        });
    }
    let ps: Vec<f64> = tests.iter().map(|t| t.p).collect();
    for (t, ph) in tests.iter_mut().zip(holm(&ps)) {
        t.p_holm = ph;
        t.ok = !t.tested || ph >= 1.0 - LEVEL;
        if !t.ok {
            failures.push(format!(
                "Outcomes: {} off its exact probability ({} = {:.2}, Holm-corrected {})",
                t.name,
                if t.test == "z" { "z" } else { "chi-square" },
                t.statistic,
                crate::stats::format_p(t.p_holm)
            ));
        }
    }
    let outcomes = Outcomes {
        reference: format!(
            "the exact probabilities of each coup given the cards already dealt from its shoe of {} (the full shoe's, by complete enumeration, moved by the exact effect of each card gone; the pairs exactly)",
            crate::report::plural(rules.decks as u64, "deck")
        ),
        coups: n,
        ok: tests.iter().all(|t| t.ok),
        events,
        tests,
    };
    // Return.
    let z99 = z_of(LEVEL);
    let mut bets = Vec::new();
    for (i, spot) in Spot::ALL.into_iter().enumerate() {
        let b = &v.bets[i];
        if b.staked == 0 && h.claim.and_then(|c| c.get(spot)).is_none() {
            continue;
        }
        let (x, w) = (b.returned as f64, b.staked as f64);
        let r = x / w;
        let se = (b.xx - 2.0 * r * b.xw + r * r * b.ww).max(0.0).sqrt() / w;
        let expected = b.mean / w;
        let se0 = b.var.sqrt() / w;
        let z = (r - expected) / se0;
        let tested = b.coups >= MIN_COUPS && b.var > 0.0;
        let ex = exact.rtp(spot, &rules);
        let claimed = h.claim.and_then(|c| c.get(spot));
        bets.push(BetReturn {
            bet: bet_name(spot),
            coups: b.coups,
            shoes: b.shoes,
            staked: b.staked,
            returned: b.returned,
            rtp: r,
            se,
            ci99: [r - z99 * se, r + z99 * se],
            exact: ex,
            expected,
            se_expected: se0,
            band99: [expected - z99 * se0, expected + z99 * se0],
            claimed,
            z,
            p: if tested {
                crate::stats::p_value(z)
            } else {
                f64::NAN
            },
            p_holm: f64::NAN,
            tested,
            claim_ok: claimed.is_none_or(|c| c <= ex + CLAIM_TOLERANCE),
            ok: true,
        });
    }
    let ps: Vec<f64> = bets.iter().map(|b| b.p).collect();
    for (b, ph) in bets.iter_mut().zip(holm(&ps)) {
        b.p_holm = ph;
        let in_band = !b.tested || ph >= 1.0 - LEVEL;
        if !in_band {
            failures.push(format!(
                "Return: {}: observed RTP {} against the {} the rules return on its stakes (z = {:+.2}, Holm-corrected {})",
                b.bet,
                pct(b.rtp, 3),
                pct(b.expected, 3),
                b.z,
                crate::stats::format_p(b.p_holm)
            ));
        }
        if !b.claim_ok {
            failures.push(format!(
                "Return: {}: the claimed RTP {} is above what the rules return ({})",
                b.bet,
                pct(b.claimed.unwrap_or(f64::NAN), 3),
                pct(b.exact, 4)
            ));
        }
        b.ok = in_band && b.claim_ok;
    }
    let returns = Returns {
        ok: bets.iter().all(|b| b.ok),
        bets,
    };
    let ok = settlement.ok
        && shoe.ok
        && outcomes.ok
        && returns.ok
        && shuffle.as_ref().is_none_or(|s| s.ok);
    VerifyModel {
        version: crate::VERSION,
        game: "baccarat",
        log,
        rules,
        rounding: h.rounding,
        cut_tolerance: h.cut_tolerance,
        claim: h.claim,
        currency: h.currency.clone(),
        source: h.source.clone(),
        coups: v.coups,
        level: LEVEL,
        settlement,
        shoe,
        shuffle,
        outcomes,
        returns,
        ok,
        failures,
    }
}

/// A deviation in words: bettor, bet, what was paid and what the rules pay.
fn deviation_text(d: &Deviation) -> String {
    match (d.bettor, d.bet, d.paid, d.rules_pay) {
        (Some(b), Some(bet), Some(paid), Some(due)) => format!(
            "bettor {b}, {bet} staked {}: paid {paid}, the rules pay {due}; {}",
            d.staked.unwrap_or(0),
            d.what
        ),
        _ => d.what.clone(),
    }
}

/// An amount with thousands separators, carried as the number.
fn money_cell(x: u128) -> Cell {
    Cell::num(
        crate::report::group_digits(&x.to_string()),
        x as f64,
        "money",
    )
}

fn opt_count(x: Option<u64>) -> Cell {
    x.map_or_else(|| Cell::from(""), count_cell)
}

fn p_cell(p: f64) -> Cell {
    if p.is_nan() {
        return "n/a".into();
    }
    let t = crate::stats::format_p(p);
    Cell::num(t.trim_start_matches("p = ").to_string(), p, "")
}

/// A range of fractions as percentages.
fn range_cell(r: [f64; 2]) -> Cell {
    Cell::range(
        format!("[{}, {}]", pct(r[0], 3), pct(r[1], 3)),
        r[0],
        r[1],
        "fraction",
    )
}

fn pass(ok: bool) -> &'static str {
    if ok {
        "pass"
    } else {
        "FAIL"
    }
}

/// The report of a verification.
pub fn render(m: &VerifyModel) -> Report {
    let mut meta = vec![("tool".into(), format!("rtplab {}", m.version))];
    meta.push((
        "log".into(),
        format!(
            "{} ({} bytes, {} version {}){}",
            m.log.name,
            count(m.log.bytes),
            m.log.format,
            m.log.version,
            match m.log.complete {
                Some(true) => "",
                Some(false) => ", stopped before the run's end",
                None => ", no end record",
            }
        ),
    ));
    meta.push(("table".into(), m.rules.describe()));
    if let Some(s) = &m.source {
        meta.push(("source".into(), s.clone()));
    }
    if let Some(c) = &m.currency {
        meta.push(("currency".into(), c.clone()));
    }
    meta.push((
        "coups".into(),
        format!(
            "{} in {} ({} voided)",
            count(m.coups),
            crate::report::plural(m.shoe.shoes, "shoe"),
            count(m.settlement.voided)
        ),
    ));
    meta.push((
        "verdict".into(),
        if m.ok {
            "every part holds".into()
        } else {
            format!(
                "FAILED ({})",
                crate::report::plural(m.failures.len() as u64, "failure")
            )
        },
    ));
    let mut r = Report {
        title: "rtplab round-log verification: baccarat".into(),
        meta,
        ..Default::default()
    };
    // The verdict, part by part.
    let mut s = Section::new("Verdict", &["part", "checked", "found", "result"]);
    s.row([
        Cell::from("settlement"),
        Cell::from(format!(
            "{} coups, {} bets, {} voided",
            count(m.settlement.coups),
            count(m.settlement.bets),
            count(m.settlement.voided)
        )),
        Cell::from(crate::report::plural(m.settlement.deviations, "deviation")),
        pass(m.settlement.ok).into(),
    ]);
    s.row([
        Cell::from("shoe"),
        Cell::from(format!(
            "{}, {}",
            crate::report::plural(m.shoe.shoes, "shoe"),
            crate::report::plural(m.shoe.cards, "card")
        )),
        Cell::from(crate::report::plural(m.shoe.deviations, "deviation")),
        pass(m.shoe.ok).into(),
    ]);
    if let Some(sh) = &m.shuffle {
        s.row([
            Cell::from("shuffle"),
            Cell::from(""),
            Cell::from(format!("{} failed", sh.failures.len())),
            pass(sh.ok).into(),
        ]);
    }
    let failed = |n: usize, of: usize| format!("{n} of {of} failed");
    s.row([
        Cell::from("outcomes"),
        Cell::from(format!(
            "{} tests at 99% (Holm), {} coups",
            m.outcomes.tests.len(),
            count(m.outcomes.coups)
        )),
        Cell::from(failed(
            m.outcomes.tests.iter().filter(|t| !t.ok).count(),
            m.outcomes.tests.len(),
        )),
        pass(m.outcomes.ok).into(),
    ]);
    s.row([
        Cell::from("return"),
        Cell::from(format!(
            "{} at 99% (Holm)",
            crate::report::plural(m.returns.bets.len() as u64, "bet")
        )),
        Cell::from(failed(
            m.returns.bets.iter().filter(|b| !b.ok).count(),
            m.returns.bets.len(),
        )),
        pass(m.returns.ok).into(),
    ]);
    r.sections.push(s);
    if !m.settlement.listed.is_empty() {
        let mut s = Section::new(
            &format!(
                "Settlement deviations (the first {} of {})",
                m.settlement.listed.len(),
                count(m.settlement.deviations)
            ),
            &[
                "line",
                "shoe",
                "coup",
                "kind",
                "bettor",
                "bet",
                "staked",
                "paid",
                "rules pay",
                "what",
            ],
        );
        for d in &m.settlement.listed {
            s.row([
                count_cell(d.line),
                count_cell(d.shoe),
                count_cell(d.coup),
                Cell::from(match d.kind {
                    DeviationKind::Deal => "deal",
                    DeviationKind::Pay => "pay",
                    DeviationKind::Void => "void",
                }),
                opt_count(d.bettor),
                Cell::from(d.bet.unwrap_or("")),
                opt_count(d.staked),
                opt_count(d.paid),
                opt_count(d.rules_pay),
                Cell::from(d.what.clone()),
            ]);
        }
        r.sections.push(s);
    }
    if !m.shoe.listed.is_empty() {
        let mut s = Section::new(
            &format!(
                "Shoe deviations (the first {} of {})",
                m.shoe.listed.len(),
                count(m.shoe.deviations)
            ),
            &["line", "shoe", "coup", "what"],
        );
        for d in &m.shoe.listed {
            s.row([
                count_cell(d.line),
                count_cell(d.shoe),
                opt_count(d.coup),
                Cell::from(d.what.clone()),
            ]);
        }
        r.sections.push(s);
    }
    if let Some(sh) = &m.shuffle {
        r.sections.extend(sh.sections.iter().cloned());
    }
    let mut s = Section::new(
        "Outcomes",
        &["outcome", "coups", "rate", "exact", "expected coups"],
    );
    for e in &m.outcomes.events {
        s.row([
            Cell::from(e.name),
            count_cell(e.count),
            pct_cell(e.rate, 3),
            pct_cell(e.exact, 3),
            Cell::num(
                crate::report::group_digits(&format!("{:.0}", e.expected)),
                e.expected,
                "coups",
            ),
        ]);
    }
    r.sections.push(s);
    let mut s = Section::new(
        "Outcome tests (99%, Holm-corrected)",
        &["outcome", "test", "statistic", "p", "p (Holm)", "result"],
    );
    for t in &m.outcomes.tests {
        s.row([
            Cell::from(t.name),
            Cell::from(if t.test == "z" {
                "z".to_string()
            } else {
                format!("chi-square, {} df", t.df)
            }),
            if t.tested {
                fixed_cell(t.statistic, 2, "")
            } else {
                "n/a".into()
            },
            p_cell(t.p),
            p_cell(t.p_holm),
            Cell::from(if t.tested {
                pass(t.ok)
            } else {
                "not tested (too few coups)"
            }),
        ]);
    }
    r.sections.push(s);
    let mut s = Section::new(
        "Return per bet (99%, Holm-corrected)",
        &[
            "bet",
            "coups",
            "staked",
            "returned",
            "observed RTP",
            "SE",
            "99% CI",
            "exact RTP",
            "on the stakes",
            "99% band",
            "claimed",
            "z",
            "p (Holm)",
            "result",
        ],
    );
    for b in &m.returns.bets {
        s.row([
            Cell::from(b.bet),
            count_cell(b.coups),
            money_cell(b.staked),
            money_cell(b.returned),
            pct_cell(b.rtp, 3),
            pct_cell(b.se, 3),
            range_cell(b.ci99),
            pct_cell(b.exact, 4),
            pct_cell(b.expected, 4),
            range_cell(b.band99),
            b.claimed.map_or_else(|| Cell::from(""), |c| pct_cell(c, 4)),
            if b.tested {
                Cell::num(format!("{:+.2}", b.z), b.z, "z")
            } else {
                "n/a".into()
            },
            p_cell(b.p_holm),
            Cell::from(match (b.ok, b.tested, b.claim_ok) {
                (true, true, _) => "pass".to_string(),
                (true, false, _) => "not tested (too few coups)".to_string(),
                (false, _, false) => "FAIL (claim above the exact RTP)".to_string(),
                (false, _, true) => "FAIL".to_string(),
            }),
        ]);
    }
    r.sections.push(s);
    r.notes = notes(m);
    // A shuffle that passes is one line of the verdict; its seven tests with --full.
    if m.shuffle.as_ref().is_some_and(|sh| sh.ok) {
        r.full_only(&["The shuffle"]);
    }
    r.json = serde_json::to_value(m).unwrap_or_default();
    r
}

fn notes(m: &VerifyModel) -> Vec<String> {
    let mut n = Vec::new();
    if m.ok {
        n.push("Verdict: every part holds (exit code 0).".into());
    } else {
        n.push(format!(
            "Verdict: FAILED (exit code 1): {}",
            m.failures.join("; ")
        ));
    }
    n.push(format!(
        "Settlement: every coup dealt again by the tableau and every bet paid again by the header's rules ({}, {} rounding); a voided coup must return every stake and be followed by a new shoe.",
        m.rules.describe(),
        match m.rounding {
            Rounding::Down => "down",
            Rounding::Nearest => "nearest",
        }
    ));
    n.push(format!(
        "Outcomes are held against {}: the expected count is the sum of those probabilities, its variance the sum of p(1 − p), so neither the coups a cut card leaves undealt nor the cards the coups of a shoe share raise false alarms. Each test is at 99%, its p-value Holm-corrected over the {} outcome tests.",
        m.outcomes.reference,
        m.outcomes.tests.len()
    ));
    n.push("Return: each bet's observed RTP (returned over staked, stakes back included, voided coups left out), its SE from the log by the ratio estimator √Σ(x_s − r·w_s)²/Σw_s over the shoes s (x returned, w staked) and its 99% CI. It is held against what the rules return on the stakes logged (\"on the stakes\": the exact RTP less what rounding keeps), within a 99% band from the exact mean and variance of each coup's return given its stakes, so the band is the true one whatever the stakes (no equal-stakes assumption) and a staking plan whose rare large losses a log may not show (a martingale) raises no false alarm; z and its p-value are Holm-corrected over the bets. A claim above the exact RTP fails.".into());
    if m.shuffle.is_none() {
        n.push("The shuffle (each shoe's card order against a uniform shuffle) is not tested by this version.".into());
    }
    if m.log.complete.is_none() {
        n.push("The log has no end record: it may have been cut short (its coups are verified as they are).".into());
    }
    n
}

#[cfg(test)]
mod tests {
    use super::super::log::write::{write_log, LogOptions};
    use super::*;
    use crate::game::{simulate, RunSpec};
    use crate::games::baccarat::bet::BetSpec;
    use crate::games::baccarat::{BacConfig, Baccarat};
    use crate::logfile::Card;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn holm_steps_down() {
        let p = holm(&[0.01, 0.04, f64::NAN, 0.03]);
        assert_eq!(p[0], 0.03);
        assert_eq!(p[3], 0.06);
        assert_eq!(p[1], 0.06);
        assert!(p[2].is_nan());
    }

    /// The round log of a simulated run of `coups` coups on banker with both pairs, as lines.
    fn sim_log(rules: BacRules, coups: u64, seed: u64) -> Vec<String> {
        let mut cfg = BacConfig::new(rules, BetSpec::Flat(Spot::Banker), coups);
        cfg.pairs = 1;
        let go = AtomicBool::new(false);
        let spec = RunSpec {
            seed,
            threads: Some(2),
            ..RunSpec::default()
        };
        let run = simulate::<Baccarat>(cfg.clone(), &spec, &go).unwrap();
        let mut out = Vec::new();
        let opts = LogOptions::default();
        let chunks = 0..run.meta.chunks_done;
        let sum = write_log(&mut out, &cfg, &run.plan, seed, chunks, opts, None, &go).unwrap();
        assert_eq!(sum.disagreements, 0);
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    fn check(lines: &[String]) -> Result<VerifyModel, BacError> {
        let text = lines.join("\n") + "\n";
        verify("log", std::io::Cursor::new(text.into_bytes()), None, false)
    }

    fn coup_of(l: &str) -> Option<CoupRecord> {
        l.starts_with("{\"type\":\"coup\"")
            .then(|| serde_json::from_str(l).unwrap())
    }

    /// The index of the first coup record for which `pick` holds, and the record.
    fn find(lines: &[String], pick: impl Fn(usize, &CoupRecord) -> bool) -> (usize, CoupRecord) {
        lines
            .iter()
            .enumerate()
            .find_map(|(i, l)| coup_of(l).filter(|c| pick(i, c)).map(|c| (i, c)))
            .expect("a coup to plant the defect in")
    }

    fn is_last_of_shoe(lines: &[String], i: usize) -> bool {
        lines[i + 1].starts_with("{\"type\":\"shoe\"")
    }

    fn total(h: &[Card]) -> u8 {
        h.iter().map(|c| replay::points(c.rank())).sum::<u8>() % 10
    }

    /// Every deviation of `m`, of settlement and of the shoe, is at coup `coup` (and there is
    /// one at least); the failures name the part.
    fn only_at(m: &VerifyModel, coup: u64, part: &str) {
        assert!(!m.ok);
        let coups: Vec<u64> = m
            .settlement
            .listed
            .iter()
            .map(|d| d.coup)
            .chain(m.shoe.listed.iter().filter_map(|d| d.coup))
            .collect();
        assert!(!coups.is_empty());
        assert!(coups.iter().all(|&c| c == coup), "{coups:?} for {coup}");
        assert!(
            m.failures.iter().any(|f| f.starts_with(part)),
            "{:?}",
            m.failures
        );
        assert!(
            m.failures
                .iter()
                .all(|f| f.starts_with("Settlement") || f.starts_with("Shoe")),
            "{:?}",
            m.failures
        );
    }

    fn put(lines: &mut [String], i: usize, c: &CoupRecord) {
        lines[i] = serde_json::to_string(c).unwrap();
    }

    /// A clean log passes every part; each defect planted in it is named at its coup, and
    /// nothing else fails.
    #[test]
    fn a_clean_log_passes_and_each_planted_defect_is_named() {
        let clean = sim_log(BacRules::standard(), 200_000, 21);
        let m = check(&clean).unwrap();
        assert!(m.ok, "{:?}", m.failures);
        assert_eq!(m.settlement.deviations + m.shoe.deviations, 0);
        assert!(m.outcomes.tests.iter().all(|t| t.tested));
        assert_eq!(m.returns.bets.len(), 3);
        assert!(m.returns.bets.iter().all(|b| b.tested && b.ok));
        assert_eq!(m.log.complete, Some(true));
        // Each defect is planted in a log a tenth as long (50 shoes): its statistics pass or
        // are not tested, and what is checked is the one part named at the one coup.
        let clean = sim_log(BacRules::standard(), 20_000, 21);
        assert!(check(&clean).unwrap().ok);

        // A banker win paid without commission.
        let mut l = clean.clone();
        let (i, mut c) = find(&l, |_, c| c.bets[0].paid.banker == 1950);
        c.bets[0].paid.banker = 2000;
        put(&mut l, i, &c);
        let m = check(&l).unwrap();
        only_at(&m, c.coup, "Settlement");
        let d = &m.settlement.listed[0];
        assert_eq!(
            (d.kind, d.bet, d.paid, d.rules_pay),
            (DeviationKind::Pay, Some("banker"), Some(2000), Some(1950))
        );
        assert_eq!(m.settlement.deviations, 1);

        // A player third card drawn on 6: the banker's third card dealt to the player.
        let mut l = clean.clone();
        let (i, mut c) = find(&l, |_, c| {
            c.player.len() == 2 && c.banker.len() == 3 && total(&c.player) == 6
        });
        let third = c.banker.pop().unwrap();
        c.player.push(third);
        put(&mut l, i, &c);
        let m = check(&l).unwrap();
        only_at(&m, c.coup, "Settlement");
        assert!(
            m.settlement
                .listed
                .iter()
                .any(|d| d.what == "the player drew a third card on 6 (the rules stand)"),
            "{:?}",
            m.settlement.listed
        );

        // One card too many in a shoe: a card of which the shoe holds 8 dealt a 9th time (in
        // place of a card of the same rank, so the deal is the same).
        // The coup is one after all 8 of that card came out of its shoe.
        let mut l = clean.clone();
        let mut out = [0u32; 52];
        let mut plant = None;
        for (i, x) in l.iter().enumerate() {
            if x.starts_with("{\"type\":\"shoe\"") {
                out = [0; 52];
            }
            if let Some(c) = coup_of(x) {
                let (r, own) = (c.player[0].rank(), c.player[0].suit());
                if let Some(s) = (0..4).find(|&s| s != own && out[(r * 4 + s) as usize] == 8) {
                    plant = Some((i, c, r, s));
                    break;
                }
                for card in c.dealt() {
                    out[card.0 as usize] += 1;
                }
            }
        }
        let (i, mut c, r, suit) = plant.expect("a card dealt 8 times in a shoe");
        c.player[0] = Card::new(r, suit);
        put(&mut l, i, &c);
        let m = check(&l).unwrap();
        only_at(&m, c.coup, "Shoe");
        assert_eq!(m.shoe.deviations, 1);
        assert!(
            m.shoe.listed[0]
                .what
                .ends_with("dealt 9 times: the shoe of 8 decks holds 8"),
            "{}",
            m.shoe.listed[0].what
        );

        // A voided coup paid (the last of its shoe, so a new shoe follows it).
        let mut l = clean.clone();
        let (i, mut c) = find(&l, |i, c| {
            is_last_of_shoe(&l, i) && c.bets[0].paid.banker == 1950
        });
        c.void = Some("the dealer exposed a card".into());
        put(&mut l, i, &c);
        let m = check(&l).unwrap();
        only_at(&m, c.coup, "Settlement");
        assert_eq!(m.settlement.voided, 1);
        assert_eq!(m.settlement.listed[0].kind, DeviationKind::Void);
        // Refunded, it passes; a void in mid-shoe, refunded, is followed by a coup of the
        // same shoe: named.
        for b in &mut c.bets {
            b.paid = b.stake;
        }
        put(&mut l, i, &c);
        assert!(check(&l).unwrap().ok);
        let mut l = clean.clone();
        let (i, mut c) = find(&l, |i, _| !is_last_of_shoe(&l, i) && i > 10);
        c.void = Some("system error".into());
        for b in &mut c.bets {
            b.paid = b.stake;
        }
        put(&mut l, i, &c);
        let m = check(&l).unwrap();
        let next = coup_of(&l[i + 1]).unwrap().coup;
        only_at(&m, next, "Settlement");
        assert!(m.settlement.listed[0]
            .what
            .contains("a void reshuffles the shoe"));

        // A stake misreported: 2000 staked on a banker win paid as 1000's.
        let mut l = clean.clone();
        let (i, mut c) = find(&l, |_, c| c.bets[0].paid.banker == 1950);
        c.bets[0].stake.banker = 2000;
        put(&mut l, i, &c);
        let m = check(&l).unwrap();
        only_at(&m, c.coup, "Settlement");
        let d = &m.settlement.listed[0];
        assert_eq!(
            (d.staked, d.paid, d.rules_pay),
            (Some(2000), Some(1950), Some(3900))
        );
    }

    /// A log written by hand in the schema (docs/round-log.md): a six-deck table with a burn,
    /// two bettors, a push, a natural, a void and a new shoe.
    const BY_HAND: &str = r#"{"type":"header","format":"rtplab-round-log","version":1,"game":"baccarat","rules":{"decks":6,"burn":true,"tie_pays":9},"rounding":"nearest","currency":"EUR cents","source":"written by hand"}
{"type":"shoe","shoe":1,"cut":281,"burn":["3h","Kd","9c","2s"]}
{"type":"coup","shoe":1,"coup":1,"player":["Ah","4c","Kd"],"banker":["7s","Td"],"bets":[{"bettor":7,"stake":{"banker":1010,"tie":100},"paid":{"banker":1970}},{"bettor":9,"stake":{"player":2500,"player_pair":500},"paid":{}}]}
{"type":"coup","shoe":1,"coup":2,"player":["9d","Qs"],"banker":["4c","4d"],"bets":[{"bettor":7,"stake":{"banker":1050,"banker_pair":100},"paid":{"banker_pair":1200}},{"bettor":9,"stake":{"player":2500},"paid":{"player":5000}}]}
{"type":"coup","shoe":1,"coup":3,"player":["6h","Jc"],"banker":["3s","3h"],"bets":[{"bettor":7,"stake":{"player":1000,"tie":50},"paid":{"player":1000,"tie":500}}]}
{"type":"coup","shoe":1,"coup":4,"player":["2h"],"banker":["8c"],"bets":[{"bettor":9,"stake":{"banker":700},"paid":{"banker":700}}],"void":"card dropped on the floor"}
{"type":"shoe","shoe":2,"cut":281,"burn":["Td","2c","3c","4c","5c","6c","7c","8c","9c","Jc","Qc"]}
{"type":"coup","shoe":2,"coup":5,"player":["Th","Ts","4d"],"banker":["5h","Ks","9h"],"bets":[{"bettor":9,"stake":{"banker":1050},"paid":{"banker":1050}}]}
{"type":"end","coups":5,"complete":true}
"#;

    #[test]
    fn a_log_written_by_hand_is_verified() {
        let lines: Vec<String> = BY_HAND.lines().map(String::from).collect();
        let m = check(&lines).unwrap();
        assert!(m.ok, "{:?}", m.failures);
        assert_eq!((m.coups, m.settlement.voided, m.shoe.shoes), (5, 1, 2));
        // 4 + 5 + 4 + 4 + 2 (the void's) + 11 + 6 cards.
        assert_eq!(m.shoe.cards, 36);
        // Too few coups for the statistics: not tested, not failed.
        assert!(m.outcomes.tests.iter().all(|t| !t.tested));
        assert!(m.returns.bets.iter().all(|b| !b.tested));
        let r = render(&m);
        assert_eq!(r.sections[0].name, "Verdict");
        // The same log with coup 1's tie bet paid (it lost) and the second shoe unburned.
        let mut bad = lines.clone();
        bad[2] = bad[2].replace(
            r#""paid":{"banker":1970}"#,
            r#""paid":{"banker":1970,"tie":1000}"#,
        );
        bad[6] = r#"{"type":"shoe","shoe":2,"cut":281}"#.into();
        let m = check(&bad).unwrap();
        assert!(!m.ok);
        let d = &m.settlement.listed[0];
        assert_eq!(
            (d.line, d.coup, d.bettor, d.bet, d.paid, d.rules_pay),
            (3, 1, Some(7), Some("tie"), Some(1000), Some(0))
        );
        assert_eq!(
            (m.shoe.listed[0].line, m.shoe.listed[0].what.as_str()),
            (7, "no burn; the rules burn after each shuffle")
        );
        assert_eq!(m.failures.len(), 2, "{:?}", m.failures);
    }

    /// Bad input names its line and field, and nothing is verified.
    #[test]
    fn bad_input_is_refused_with_its_line_and_field() {
        let lines: Vec<String> = BY_HAND.lines().map(String::from).collect();
        let err = |edit: &dyn Fn(&mut Vec<String>)| {
            let mut l = lines.clone();
            edit(&mut l);
            check(&l).unwrap_err().to_string()
        };
        assert_eq!(
            err(&|l| l[3] = l[3].replace(r#""banker":1050,"#, r#""banker":-5,"#)),
            "log line 4, field bets[0].stake.banker: invalid value: integer `-5`, expected u64"
        );
        assert_eq!(
            err(&|l| l[2] = l[2].replace(r#""Kd""#, r#""Kx""#)),
            "log line 3, field player[2]: 'Kx' is not a card: write the rank (A 2-9 T J Q K) then the suit (c d h s), e.g. Ah or Td"
        );
        assert_eq!(
            err(&|l| l[0] = l[0].replace(r#""decks":6"#, r#""decks":6,"penetration":0.8"#)),
            "log line 1, field rules.penetration: not a rule; the rules are banker_pays, burn, commission_permille, decks, pair_pays, shuffle, shuffler, tie_pays"
        );
        assert_eq!(
            err(&|l| l[0] = l[0].replace("baccarat", "blackjack")),
            "log line 1, field game: a log of 'blackjack': verify it with `rtplab verify blackjack`"
        );
        assert_eq!(
            err(&|l| l[7] = l[7].replace(r#""coup":5"#, r#""coup":3"#)),
            "log line 8, field coup: coup 3 after coup 4: coup numbers rise"
        );
        assert_eq!(
            err(&|l| l[8] = l[8].replace("5", "6")),
            "log line 9, field coups: the end record counts 6 coups, the log has 5: records were lost or added"
        );
        assert_eq!(
            err(&|l| {
                l.remove(1);
            }),
            "log line 2, field shoe: a coup before any shoe record; each shoe's record comes before its coups"
        );
        assert_eq!(
            err(&|l| l[2] = l[2].replace(r#""type":"coup""#, r#""type":"round""#)),
            "log line 3, field type: unknown record type 'round'; the records are header, shoe, coup and end"
        );
        assert!(check(&[]).unwrap_err().to_string().contains("empty"));
    }
}
