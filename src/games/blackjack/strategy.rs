//! Blackjack strategies: the trait, the table's fixed rules, and charts read from CSV files.

use std::fmt;
use std::path::Path;

use super::hand::DrawTable;
use crate::cards::Rank;

/// A player's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Action {
    Hit,
    Stand,
    Double,
    Split,
    Surrender,
}

/// What a strategy sees when it must act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// Best total (an ace counts 11 when that does not bust).
    pub total: u8,
    pub soft: bool,
    pub cards: u8,
    /// Value of the pair (1 = aces) when the hand is a pair that may be split now.
    pub pair: Option<u8>,
    /// Dealer up card value, 1 = ace.
    pub up: u8,
    pub can_double: bool,
    pub can_surrender: bool,
    /// The hand came from a split.
    pub split: bool,
}

/// A way to play. Implementations must return an action the situation allows; the table
/// treats any other answer as a hit (or a stand on a one-card split ace).
pub trait Strategy: Sync {
    fn act(&self, s: &Situation) -> Action;
    /// Take insurance (offered with an ace up) holding this hand?
    fn insure(&self, _total: u8, _soft: bool) -> bool {
        false
    }
    /// How a hand draws by up card − 1 once only hitting and standing are left, if `act`
    /// decides that by the total alone (see [`Player::draw_tables`]).
    fn draw_tables(&self) -> Option<&[DrawTable; 10]> {
        None
    }
}

/// Who sits at the table: decides each seat's bet before the deal, plays and insures its
/// hands, and sees every card exposed at the table and every shuffle. One `Player` plays all
/// of a table's seats (the seat index is given) and may keep state across rounds: a card
/// counter, a bet ramp, a betting system. A fixed [`Strategy`] is a `Player` through
/// [`Fixed`], at no cost: the associated constants tell the table which work it can skip.
///
/// What the table guarantees (with `SEES`):
/// - `shuffled` when the shoe is shuffled: at the start of each shoe, and when the shoe runs
///   out in the middle of a round (the cards on the table stay out, every other card is
///   shuffled back; `shuffled` comes before the first card dealt from the refilled shoe);
/// - `see` for every card at the moment it is exposed, in dealing order: each seat's first
///   card, the dealer's up card, each seat's second card, every card drawn to a hand (hits,
///   doubles, the cards of split hands), then the dealer's hole card and hits. In a peek game
///   the hole card is dealt before the players act but seen only when turned: at once when
///   the dealer has a blackjack, otherwise after every seat has acted. Cards never dealt are
///   never seen.
///
/// Bets are in initial bets, decided per seat before the deal. A bet of 0 sits the seat out
/// (a back-counter watching): its place is still dealt and played the player's way, as by
/// someone else at the table, so the cards are as they would be; none of it is the seat's
/// money or counted as its play (only the table's rounds and dealer outcomes count it).
/// Doubles, splits, surrender, the pairs side bet and insurance stake in proportion to the
/// seat's bet; the bet behind stays one initial bet (someone else's money).
pub trait Player {
    /// Whether bets can differ from one initial bet (false: the table and the accumulators
    /// keep their one-bet fast path and `bet` is never called).
    const BETS: bool = false;
    /// Whether `see` and `shuffled` do anything (false: the table never calls them).
    const SEES: bool = false;
    /// Whether `class` sorts seat-rounds into the by-true-count sums (a counter; only with
    /// `BETS`).
    const CLASSES: bool = false;
    /// Whether each seat's figures are kept apart (seats playing strategies of their own; only
    /// with `BETS`).
    const PER_SEAT: bool = false;
    /// The bet of `seat` for the next round, in initial bets (only called when `BETS`).
    #[inline(always)]
    fn bet(&mut self, _seat: usize) -> u32 {
        1
    }
    /// The row (0..`count::TC_BINS`) of the by-true-count sums of `seat`'s round, asked after
    /// `bet` (only called when `BETS`).
    #[inline(always)]
    fn class(&self, _seat: usize) -> u8 {
        0
    }
    /// The row of the by-true-count sums at the insurance decision (the count with every
    /// card seen so far, as the decision is made), asked when an ace is up (only called
    /// with `CLASSES`).
    #[inline(always)]
    fn decision_class(&mut self) -> u8 {
        0
    }
    /// The action of `seat` in `s` (same contract as [`Strategy::act`]).
    fn act(&mut self, seat: usize, s: &Situation) -> Action;
    /// Whether `seat` takes insurance (offered with an ace up) holding this hand.
    fn insure(&mut self, seat: usize, total: u8, soft: bool) -> bool;
    /// A card exposed at the table (only called when `SEES`).
    #[inline(always)]
    fn see(&mut self, _card: Rank) {}
    /// `see(card)` if `dealt`: the table's branch-free steps read the next card whether or
    /// not the hand takes it (only called when `SEES`).
    #[inline(always)]
    fn see_if(&mut self, card: Rank, dealt: bool) {
        if dealt {
            self.see(card);
        }
    }
    /// How every seat draws once only hitting and standing are left, by dealer up card − 1,
    /// if that depends on the hand's total alone (a fixed chart): the table (asked once, as
    /// it is made) plays those hands without asking `act`.
    fn draw_tables(&self) -> Option<&[DrawTable; 10]> {
        None
    }
    /// The shoe was shuffled (only called when `SEES`).
    #[inline(always)]
    fn shuffled(&mut self) {}
    /// A stream of its own for the chunk about to be played (`rng::side_rng`), given before
    /// its first shoe: for a player's own chance (a counter's miscounts), never the cards'.
    #[inline(always)]
    fn side_stream(&mut self, _rng: &crate::rng::Rng) {}
    /// Whether `paid` does anything (false: the table never calls it).
    const PAYS: bool = false;
    /// The main bet's net of `seat`'s round as the dealer pays it (`net` as the rules settle
    /// it, in units; `natural`: the seat's hand was a natural; `unit`: units per initial bet):
    /// a dealer's payout errors (only called when `PAYS`, for seats that bet).
    #[inline(always)]
    fn paid(&mut self, _seat: usize, net: i64, _natural: bool, _unit: i64) -> i64 {
        net
    }
}

/// What a run shares between its threads: a prototype that makes a fresh [`Player`] for
/// each chunk (so a chunk's result depends on its stream only, whatever thread plays it).
/// Every [`Strategy`] is `Seats`, its player being [`Fixed`].
pub trait Seats: Sync {
    type Player<'a>: Player
    where
        Self: 'a;
    /// A fresh player, as at the start of a run.
    fn player(&self) -> Self::Player<'_>;
}

/// A fixed strategy seated at the table: one initial bet, sees nothing, plays every seat
/// alike.
#[derive(Debug)]
pub struct Fixed<'a, S: ?Sized>(pub &'a S);

impl<S: Strategy + ?Sized> Player for Fixed<'_, S> {
    #[inline(always)]
    fn act(&mut self, _seat: usize, s: &Situation) -> Action {
        self.0.act(s)
    }
    #[inline(always)]
    fn insure(&mut self, _seat: usize, total: u8, soft: bool) -> bool {
        self.0.insure(total, soft)
    }
    fn draw_tables(&self) -> Option<&[DrawTable; 10]> {
        self.0.draw_tables()
    }
}

impl<S: Strategy> Seats for S {
    type Player<'a>
        = Fixed<'a, S>
    where
        S: 'a;
    #[inline(always)]
    fn player(&self) -> Fixed<'_, S> {
        Fixed(self)
    }
}

/// A chart entry, with its fall-back when the first choice is not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    H,
    S,
    /// Double, else hit.
    Dh,
    /// Double, else stand.
    Ds,
    /// Split.
    P,
    /// Surrender, else hit.
    Rh,
    /// Surrender, else stand.
    Rs,
    /// Surrender, else split.
    Rp,
}

impl Code {
    pub fn parse(s: &str) -> Option<Code> {
        Some(match s.trim() {
            "H" | "h" => Code::H,
            "S" | "s" => Code::S,
            "D" | "Dh" | "DH" | "d" => Code::Dh,
            "Ds" | "DS" => Code::Ds,
            "P" | "p" | "SP" => Code::P,
            "R" | "Rh" | "RH" | "r" => Code::Rh,
            "Rs" | "RS" => Code::Rs,
            "Rp" | "RP" => Code::Rp,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Code::H => "H",
            Code::S => "S",
            Code::Dh => "Dh",
            Code::Ds => "Ds",
            Code::P => "P",
            Code::Rh => "Rh",
            Code::Rs => "Rs",
            Code::Rp => "Rp",
        }
    }

    fn splits(self) -> bool {
        matches!(self, Code::P | Code::Rp)
    }

    /// The action this code means in `s`.
    #[inline(always)]
    pub fn resolve(self, s: &Situation) -> Action {
        match self {
            Code::H => Action::Hit,
            Code::S => Action::Stand,
            Code::Dh if s.can_double => Action::Double,
            Code::Dh => Action::Hit,
            Code::Ds if s.can_double => Action::Double,
            Code::Ds => Action::Stand,
            Code::P if s.pair.is_some() => Action::Split,
            Code::P => Action::Hit,
            Code::Rh | Code::Rs | Code::Rp if s.can_surrender => Action::Surrender,
            Code::Rh => Action::Hit,
            Code::Rs => Action::Stand,
            Code::Rp if s.pair.is_some() => Action::Split,
            Code::Rp => Action::Hit,
        }
    }
}

/// Rows of a chart: hard 4–21, soft 12–21, pairs 2–10 and aces.
pub const ROWS: usize = 18 + 10 + 10;

/// Row index of a hard total (4..=21).
#[inline(always)]
pub const fn hard_row(total: u8) -> usize {
    (clamp(total, 4, 21) - 4) as usize
}

const fn clamp(x: u8, lo: u8, hi: u8) -> u8 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}
/// Row index of a soft total (12..=21).
#[inline(always)]
pub const fn soft_row(total: u8) -> usize {
    18 + (clamp(total, 12, 21) - 12) as usize
}
/// Row index of a pair of value `v` (1 = aces).
#[inline(always)]
pub const fn pair_row(v: u8) -> usize {
    if v == 1 {
        37
    } else {
        28 + (v - 2) as usize
    }
}

/// The chart row of every situation by `[pair value (0: not a pair to split)][soft][total]`,
/// so that the row is one load, not three tests of data the predictor cannot learn.
static ROW_OF: [[[u8; 32]; 2]; 16] = {
    let mut t = [[[0u8; 32]; 2]; 16];
    let mut v = 0;
    while v < 16 {
        let mut soft = 0;
        while soft < 2 {
            let mut total = 0;
            while total < 32 {
                t[v][soft][total] = if v >= 1 && v <= 10 {
                    pair_row(v as u8)
                } else if soft == 1 {
                    soft_row(total as u8)
                } else {
                    hard_row(total as u8)
                } as u8;
                total += 1;
            }
            soft += 1;
        }
        v += 1;
    }
    t
};

/// The chart row of `s`: its pair's row if it may split, else its soft or hard total's.
#[inline(always)]
pub fn situation_row(s: &Situation) -> usize {
    let v = s.pair.unwrap_or(0);
    ROW_OF[(v & 15) as usize][s.soft as usize][(s.total & 31) as usize] as usize
}

/// Name of a row as written in chart files (`H12`, `S18`, `P8`, `PT`, `PA`).
pub fn row_name(row: usize) -> String {
    match row {
        0..=17 => format!("H{}", row + 4),
        18..=27 => format!("S{}", row - 18 + 12),
        28..=35 => format!("P{}", row - 28 + 2),
        36 => "PT".into(),
        _ => "PA".into(),
    }
}

pub(crate) fn parse_row_name(s: &str) -> Option<usize> {
    let s = s.trim().to_ascii_uppercase();
    (0..ROWS).find(|&r| row_name(r) == s).or(match s.as_str() {
        "P10" => Some(36),
        "P1" | "P11" => Some(37),
        _ => None,
    })
}

/// A total-dependent chart: one code per (row, dealer up card).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// `codes[row][up - 1]`, up = 1 (ace) ..= 10.
    pub codes: [[Code; 10]; ROWS],
    pub name: String,
    /// FNV-1a hash of the chart's content (its codes in canonical CSV form), so that the same
    /// chart has the same hash whatever its file's comments, spacing, row order or line
    /// endings.
    pub hash: u64,
    /// Every code resolved in advance: `[row][up − 1][can_double + 2·can_surrender]`, padded
    /// to powers of two so that masked indices need no bounds checks.
    resolved: Box<[[[Action; 4]; 16]; 64]>,
    /// By up card − 1: how a hand draws once only hitting and standing are left.
    draws: Box<[DrawTable; 10]>,
}

impl Chart {
    /// A chart from its codes.
    pub fn new(codes: [[Code; 10]; ROWS], name: &str) -> Chart {
        let mut resolved = Box::new([[[Action::Stand; 4]; 16]; 64]);
        for (row, line) in codes.iter().enumerate() {
            for (col, code) in line.iter().enumerate() {
                for (k, slot) in resolved[row][col].iter_mut().enumerate() {
                    let s = Situation {
                        total: 0,
                        soft: false,
                        cards: 2,
                        pair: if row >= 28 { Some(1) } else { None },
                        up: col as u8 + 1,
                        can_double: k & 1 != 0,
                        can_surrender: k & 2 != 0,
                        split: false,
                    };
                    *slot = code.resolve(&s);
                }
            }
        }
        // Past two cards `act` sees no pair, no double and no surrender: the code resolved
        // so, and any answer but a stand is a hit.
        let draws = Box::new(std::array::from_fn(|col| {
            DrawTable::new(|hard, ace| {
                let soft = ace && hard <= 11;
                let row = if soft {
                    soft_row(hard + 10)
                } else {
                    hard_row(hard)
                };
                resolved[row][col][0] != Action::Stand
            })
        }));
        let mut chart = Chart {
            codes,
            name: name.to_string(),
            hash: 0,
            resolved,
            draws,
        };
        chart.hash = fnv1a(chart.to_csv("").as_bytes());
        chart
    }
}

impl Strategy for Chart {
    #[inline(always)]
    fn act(&self, s: &Situation) -> Action {
        let col = (s.up - 1) as usize;
        let row = situation_row(s);
        let k = s.can_double as usize | (s.can_surrender as usize) << 1;
        self.resolved[row & 63][col & 15][k & 3]
    }

    fn draw_tables(&self) -> Option<&[DrawTable; 10]> {
        Some(&self.draws)
    }
}

/// What is wrong with a chart file, and where (line 0: the file as a whole, e.g. unreadable).
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{}", self.located())]
pub struct ChartError {
    pub file: String,
    pub line: u64,
    pub column: u64,
    pub message: String,
}

impl ChartError {
    fn located(&self) -> String {
        if self.line == 0 {
            self.message.clone()
        } else {
            format!(
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

const EXPECTED_CODES: &str =
    "one of H (hit), S (stand), Dh (double else hit), Ds (double else stand), P (split), Rh/Rs/Rp (surrender else hit/stand/split)";

impl Chart {
    /// Read a chart file.
    pub fn load(path: &Path) -> Result<Chart, ChartError> {
        let name = path.display().to_string();
        let text =
            crate::door::input::read_text(path, "chart file", crate::door::input::MAX_TEXT_BYTES)
                .map_err(|e| ChartError {
                file: name.clone(),
                line: 0,
                column: 0,
                message: e.to_string(),
            })?;
        Chart::parse(&text, &name)
    }

    /// Parse chart text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Chart, ChartError> {
        let err = |line: u64, column: u64, message: String| ChartError {
            file: file.to_string(),
            line,
            column,
            message,
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut cols: Option<Vec<u8>> = None;
        let mut codes = [[Code::H; 10]; ROWS];
        let mut seen = [0u64; ROWS];
        // One record per line, numbered here: the csv reader's own positions count a record
        // from the comment lines before it.
        for (i, raw) in text.lines().enumerate() {
            let line = i as u64 + 1;
            if raw.trim_start().starts_with('#') {
                continue;
            }
            let rec = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .trim(csv::Trim::All)
                .from_reader(raw.as_bytes())
                .records()
                .next()
                .transpose()
                .map_err(|e| err(line, 1, format!("not valid CSV: {e}")))?;
            let Some(rec) = rec else { continue };
            if rec.iter().all(|f| f.is_empty()) {
                continue;
            }
            let Some(cols) = &cols else {
                cols = Some(parse_header(&rec).map_err(|(c, m)| err(line, c, m))?);
                continue;
            };
            read_row(&rec, cols, line, &err, &mut seen, &mut codes)?;
        }
        if cols.is_none() {
            return Err(err(
                1,
                1,
                "empty chart: expected the header hand,2,3,4,5,6,7,8,9,T,A".into(),
            ));
        }
        let missing: Vec<String> = (0..ROWS).filter(|&r| seen[r] == 0).map(row_name).collect();
        if !missing.is_empty() {
            let last = text.lines().count() as u64;
            return Err(err(
                last,
                1,
                format!(
                    "missing rows: {} (every chart needs H4..H21, S12..S21, P2..P9, PT, PA)",
                    missing.join(", ")
                ),
            ));
        }
        Ok(Chart::new(codes, file))
    }

    /// The chart as CSV text, in the format `parse` reads.
    pub fn to_csv(&self, header_comment: &str) -> String {
        let mut out = String::new();
        for l in header_comment.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        out.push_str("hand,2,3,4,5,6,7,8,9,T,A\n");
        let order = [2u8, 3, 4, 5, 6, 7, 8, 9, 10, 1];
        for row in 0..ROWS {
            out.push_str(&row_name(row));
            for up in order {
                out.push(',');
                out.push_str(self.codes[row][(up - 1) as usize].as_str());
            }
            out.push('\n');
        }
        out
    }
}

/// Read one row of a chart (`rec`, on `line`) under the header's up cards `cols`: its name,
/// not `seen` before, and a code per up card into `codes`.
fn read_row(
    rec: &csv::StringRecord,
    cols: &[u8],
    line: u64,
    err: &impl Fn(u64, u64, String) -> ChartError,
    seen: &mut [u64; ROWS],
    codes: &mut [[Code; 10]; ROWS],
) -> Result<(), ChartError> {
    if rec.len() != cols.len() + 1 {
        return Err(err(
            line,
            rec.len().min(cols.len() + 1) as u64 + 1,
            format!(
                "expected {} fields (a row name and one code per dealer up card), found {}",
                cols.len() + 1,
                rec.len()
            ),
        ));
    }
    let row = parse_row_name(&rec[0]).ok_or_else(|| {
        err(
            line,
            1,
            format!(
                "expected a row name H4..H21, S12..S21, P2..P9, PT or PA, found '{}'",
                &rec[0]
            ),
        )
    })?;
    if seen[row] != 0 {
        return Err(err(
            line,
            1,
            format!(
                "row {} appears twice (first on line {})",
                row_name(row),
                seen[row]
            ),
        ));
    }
    seen[row] = line;
    for (i, &up) in cols.iter().enumerate() {
        let field = &rec[i + 1];
        let code = Code::parse(field).ok_or_else(|| {
            err(
                line,
                i as u64 + 2,
                format!("expected {EXPECTED_CODES}, found '{field}'"),
            )
        })?;
        if code.splits() && row < 28 {
            return Err(err(
                line,
                i as u64 + 2,
                format!("'{field}' splits, but {} is not a pair row", row_name(row)),
            ));
        }
        codes[row][(up - 1) as usize] = code;
    }
    Ok(())
}

fn parse_header(rec: &csv::StringRecord) -> Result<Vec<u8>, (u64, String)> {
    let expected = "expected the header hand,2,3,4,5,6,7,8,9,T,A";
    if !rec[0].eq_ignore_ascii_case("hand") {
        return Err((
            1,
            format!("{expected}, found '{}'", crate::door::input::quote(&rec[0])),
        ));
    }
    let mut cols = Vec::new();
    for (i, f) in rec.iter().enumerate().skip(1) {
        let up = match f.to_ascii_uppercase().as_str() {
            "A" | "11" | "1" => 1,
            "T" | "10" => 10,
            s => match s.parse::<u8>() {
                Ok(v) if (2..=9).contains(&v) => v,
                _ => {
                    return Err((
                        i as u64 + 1,
                        format!(
                            "{expected}: '{}' is not a dealer up card",
                            crate::door::input::quote(f)
                        ),
                    ))
                }
            },
        };
        if cols.contains(&up) {
            return Err((
                i as u64 + 1,
                format!("{expected}: up card '{f}' appears twice"),
            ));
        }
        cols.push(up);
    }
    if cols.len() != 10 {
        return Err((
            rec.len() as u64,
            format!("{expected}: found {} up cards", cols.len()),
        ));
    }
    Ok(cols)
}

/// FNV-1a 64-bit hash (charts are identified by it in reports and shard keys).
pub use crate::shard::fnv1a64 as fnv1a;

/// The table's auto-play: hit until the total is over 11, then stand.
#[derive(Clone, Copy, Debug, Default)]
pub struct AutoPlay;
impl Strategy for AutoPlay {
    #[inline(always)]
    fn act(&self, s: &Situation) -> Action {
        if s.total > 11 {
            Action::Stand
        } else {
            Action::Hit
        }
    }
}

/// Play like the dealer: hit to 17 (and soft 17 too when the dealer hits it).
#[derive(Clone, Copy, Debug, Default)]
pub struct MimicDealer {
    pub h17: bool,
}
impl Strategy for MimicDealer {
    #[inline(always)]
    fn act(&self, s: &Situation) -> Action {
        if s.total < 17 || (self.h17 && s.total == 17 && s.soft) {
            Action::Hit
        } else {
            Action::Stand
        }
    }
}

/// Never risk a bust: hit only hard totals up to 11 (which cannot bust) and soft totals up
/// to 17; stand otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeverBust;
impl Strategy for NeverBust {
    #[inline(always)]
    fn act(&self, s: &Situation) -> Action {
        let hit = if s.soft { s.total <= 17 } else { s.total <= 11 };
        if hit {
            Action::Hit
        } else {
            Action::Stand
        }
    }
}

/// Any strategy, taking insurance whenever it is offered.
#[derive(Clone, Debug)]
pub struct AlwaysInsure<S>(pub S);
impl<S: Strategy> Strategy for AlwaysInsure<S> {
    #[inline(always)]
    fn act(&self, s: &Situation) -> Action {
        self.0.act(s)
    }
    fn insure(&self, _total: u8, _soft: bool) -> bool {
        true
    }
}

/// Evaluate `$body` with `$s` bound to a reference to the concrete strategy of `$spec` (a
/// `&StrategySpec`): one `match` at the boundary, then generic (monomorphized) code.
#[macro_export]
macro_rules! with_strategy {
    ($spec:expr, $h17:expr, |$s:ident| $body:expr) => {{
        use $crate::games::blackjack::strategy::{AutoPlay, MimicDealer, NeverBust, StrategySpec};
        match $spec {
            StrategySpec::Chart(c) => {
                let $s = &**c;
                $body
            }
            StrategySpec::AutoPlay => {
                let $s = &AutoPlay;
                $body
            }
            StrategySpec::MimicDealer => {
                let $s = &MimicDealer { h17: $h17 };
                $body
            }
            StrategySpec::NeverBust => {
                let $s = &NeverBust;
                $body
            }
        }
    }};
}

/// The strategies a user can name.
#[derive(Clone, Debug, PartialEq)]
pub enum StrategySpec {
    Chart(Box<Chart>),
    AutoPlay,
    MimicDealer,
    NeverBust,
}

/// What reports and shard keys say of a strategy: its name and, for a file, its hash.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StrategyInfo {
    pub name: String,
    pub hash: Option<String>,
}

impl StrategySpec {
    pub fn info(&self) -> StrategyInfo {
        StrategyInfo {
            name: self.name(),
            hash: self.hash().map(|h| format!("{h:016x}")),
        }
    }

    pub fn name(&self) -> String {
        match self {
            StrategySpec::Chart(c) => c.name.clone(),
            StrategySpec::AutoPlay => "autoplay".into(),
            StrategySpec::MimicDealer => "mimic-dealer".into(),
            StrategySpec::NeverBust => "never-bust".into(),
        }
    }
    pub fn hash(&self) -> Option<u64> {
        match self {
            StrategySpec::Chart(c) => Some(c.hash),
            _ => None,
        }
    }
}

impl fmt::Display for StrategySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_table_is_the_rows_by_their_rules() {
        for total in 0..32u8 {
            for soft in [false, true] {
                for pair in [None, Some(1), Some(2), Some(5), Some(10)] {
                    let s = Situation {
                        pair,
                        ..sit(total, soft, 5)
                    };
                    let want = match pair {
                        Some(v) => pair_row(v),
                        None if soft => soft_row(total),
                        None => hard_row(total),
                    };
                    assert_eq!(situation_row(&s), want, "{s:?}");
                }
            }
        }
        assert_eq!((hard_row(3), hard_row(22), soft_row(11)), (0, 17, 18));
        assert_eq!((pair_row(1), pair_row(2), pair_row(10)), (37, 28, 36));
    }

    fn sit(total: u8, soft: bool, up: u8) -> Situation {
        Situation {
            total,
            soft,
            cards: 2,
            pair: None,
            up,
            can_double: true,
            can_surrender: true,
            split: false,
        }
    }

    fn chart_text() -> String {
        let mut c = Chart::new([[Code::H; 10]; ROWS], "");
        c.codes[hard_row(11)] = [Code::Dh; 10];
        c.codes[hard_row(16)][9 - 1] = Code::Rh;
        c.codes[pair_row(8)] = [Code::P; 10];
        c.codes[soft_row(18)] = [Code::Ds; 10];
        c.to_csv("test chart")
    }

    #[test]
    fn chart_round_trips_and_resolves_fallbacks() {
        let c = Chart::parse(&chart_text(), "t.csv").unwrap();
        assert_eq!(c.act(&sit(11, false, 5)), Action::Double);
        let mut s = sit(11, false, 5);
        s.can_double = false;
        assert_eq!(c.act(&s), Action::Hit);
        let mut s = sit(18, true, 5);
        assert_eq!(c.act(&s), Action::Double);
        s.can_double = false;
        assert_eq!(
            c.act(&s),
            Action::Stand,
            "Ds stands where doubling is not allowed"
        );
        let mut s = sit(16, false, 9);
        assert_eq!(c.act(&s), Action::Surrender);
        s.can_surrender = false;
        assert_eq!(c.act(&s), Action::Hit);
        let mut s = sit(16, false, 9);
        s.pair = Some(8);
        assert_eq!(c.act(&s), Action::Split);
        let again = Chart::parse(&c.to_csv("x"), "u.csv").unwrap();
        assert_eq!(again.codes, c.codes);
    }

    #[test]
    fn chart_errors_name_line_and_column() {
        let text = chart_text().replace("H12,H,H,H", "H12,H,X,H");
        let e = Chart::parse(&text, "bad.csv").unwrap_err();
        assert_eq!(e.file, "bad.csv");
        assert_eq!(e.line, 11, "{e}"); // comment, header, H4 on line 3 … H12 on line 11
        assert_eq!(e.column, 3, "{e}");
        assert!(e.message.contains("found 'X'"), "{e}");

        let text = chart_text().replace("H13,", "Q13,");
        let e = Chart::parse(&text, "bad.csv").unwrap_err();
        assert!(e.message.contains("row name"), "{e}");

        // A comment line above the bad row: the error names the row's line, not the comment's.
        let text = chart_text().replace("H12,H,H,H", "# hard 12\nH12,H,X,H");
        let e = Chart::parse(&text, "bad.csv").unwrap_err();
        assert_eq!((e.line, e.column), (12, 3), "{e}");
        // A byte-order mark is accepted.
        assert!(Chart::parse(&format!("\u{feff}{}", chart_text()), "bom.csv").is_ok());

        let text: String = chart_text()
            .lines()
            .filter(|l| !l.starts_with("S15"))
            .map(|l| format!("{l}\n"))
            .collect();
        let e = Chart::parse(&text, "bad.csv").unwrap_err();
        assert!(e.message.contains("missing rows: S15"), "{e}");

        let text = chart_text().replace("H9,H,H,H,H,H,H,H,H,H,H", "H9,H,H");
        let e = Chart::parse(&text, "bad.csv").unwrap_err();
        assert!(e.message.contains("expected 11 fields"), "{e}");

        let text = chart_text().replace("H10,H", "H10,P");
        let e = Chart::parse(&text, "bad.csv").unwrap_err();
        assert!(e.message.contains("not a pair row"), "{e}");

        let e = Chart::parse("# nothing\n", "empty.csv").unwrap_err();
        assert!(e.message.contains("empty chart"), "{e}");

        let text = chart_text().replace("hand,2,3", "hand,2,2");
        let e = Chart::parse(&text, "bad.csv").unwrap_err();
        assert!(e.message.contains("appears twice"), "{e}");
    }

    #[test]
    fn fixed_rules() {
        assert_eq!(AutoPlay.act(&sit(11, false, 10)), Action::Hit);
        assert_eq!(AutoPlay.act(&sit(12, false, 10)), Action::Stand);
        assert_eq!(
            AutoPlay.act(&sit(12, true, 10)),
            Action::Stand,
            "A,A counts 12"
        );
        let m = MimicDealer { h17: false };
        assert_eq!(m.act(&sit(16, false, 10)), Action::Hit);
        assert_eq!(m.act(&sit(17, true, 10)), Action::Stand);
        assert_eq!(
            MimicDealer { h17: true }.act(&sit(17, true, 10)),
            Action::Hit
        );
        assert_eq!(NeverBust.act(&sit(12, false, 2)), Action::Stand);
        assert_eq!(NeverBust.act(&sit(11, false, 2)), Action::Hit);
        assert_eq!(NeverBust.act(&sit(17, true, 2)), Action::Hit);
        assert_eq!(NeverBust.act(&sit(18, true, 2)), Action::Stand);
        assert!(!AutoPlay.insure(20, false));
        assert!(AlwaysInsure(AutoPlay).insure(20, false));
    }
}
