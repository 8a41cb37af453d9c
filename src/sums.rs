//! Run sums declared once: [`sums!`] writes a sums struct together with its
//! [`Merge`](crate::engine::Merge) and its [`Plausible`](crate::shard::Plausible), so a field
//! added to a game's sums is merged across chunks and shards and bounded in shard files, or the
//! build fails.
//!
//! The `Merge` of the field types lives here too: integers add, arrays and `Vec`s merge
//! element by element (a shorter `Vec` is first padded with the identity, so an empty one is
//! the identity), `Ratio` and `Batch` add every sum (a histogram
//! merges in its own module, `histogram`). No sum is a float:
//! every merge is exact, in any order. The few fields that do not add name a rule from
//! [`rule`].

use crate::engine::Merge;
use crate::stats::{Batch, Ratio};

/// Declares a run's sums: the struct as written, its `Merge` (each field by its type's
/// `Merge`, or by a named [`rule`]) and its `Plausible` (each field's bound, in the order of
/// the fields, then the relations between fields).
///
/// Every field carries a clause after `=>` that says how it is bounded, optionally preceded by
/// `merge(RULE)`:
///
/// | clause | the field's bound |
/// |---|---|
/// | `at_most(BOUND, OF)` | a count (`u64`) of at most `BOUND`; `OF` says what `BOUND` counts: "counts.doubles = 9 is more than the 8 hands played" |
/// | `ratio(WHAT, MAX_X, MAX_Y, SQUARES)` | a `Ratio` of observations with \|x\| ≤ `MAX_X`, 0 ≤ y ≤ `MAX_Y` (`Ratio::plausible`; `WHAT` names it) |
/// | `ratios(NAME, MAX_X, MAX_Y, SQUARES)` | every `Ratio` of an array or `Vec`, the i-th named `NAME(i)` (a closure) |
/// | `sums` | a nested sums struct: its own `Plausible` (its messages prefixed `field.`) |
/// | `each` | every element of an array or `Vec` of sums (messages prefixed `field[i].`) |
/// | `check(EXPR)` | any `Result<(), String>` expression |
/// | `related` | a relation to other fields bounds it: checked in `relations` (this struct's, or the enclosing sums' for a nested struct) |
/// | `unbounded("why")` | nothing can bound it; the string says why |
///
/// After the struct, `bounds(NAME) { ... }` names the struct for the clauses (`NAME.field`)
/// and may hold `let` statements the clauses share (they may return early with `?`);
/// `relations(PATH)` names a `fn(&Self) -> Result<(), String>` checked after every field
/// (sums that relate fields: a histogram counting the rounds, hands at most the rounds).
///
/// ```text
/// sums! {
///     /// A coin game's sums.
///     #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
///     pub struct CoinAcc {
///         pub flips: u64 => unbounded("any number of flips"),
///         pub heads: u64 => at_most(c.flips, "flips"),
///         /// The longest run of heads.
///         pub longest: u64 => merge(max) at_most(c.heads, "heads"),
///         pub share: Ratio => ratio("share of heads", 1, 1, true),
///     }
///     bounds(c)
/// }
/// ```
///
/// To add a field: write it in the struct with its clause. A field without a clause, a
/// clause or rule this macro does not know, a type without `Merge` (or, for `sums` and
/// `each`, without `Plausible`) does not compile. Serde attributes and doc comments are kept
/// as written, and the fields serialize in the order written (shard files and baselines
/// depend on it).
macro_rules! sums {
    // One field's merge: a named rule, or its type's `Merge`.
    (@merge $me:tt, $other:tt, $f:ident; merge($rule:ident) $($bound:tt)*) => {
        $crate::sums::rule::$rule(&mut $me.$f, &$other.$f);
    };
    (@merge $me:tt, $other:tt, $f:ident; $($bound:tt)*) => {
        $crate::engine::Merge::merge(&mut $me.$f, &$other.$f);
    };
    // One field's bound.
    (@bound $me:tt, $f:ident; merge($rule:ident) $($bound:tt)*) => {
        $crate::sums::sums!(@bound $me, $f; $($bound)*)
    };
    (@bound $me:tt, $f:ident; at_most($bound:expr, $of:expr $(,)?)) => {
        $crate::shard::at_most(stringify!($f), $me.$f, $bound, &$of)?;
    };
    (@bound $me:tt, $f:ident; ratio($what:expr, $max_x:expr, $max_y:expr, $squares:expr $(,)?)) => {
        $crate::stats::Ratio::plausible(&$me.$f, &$what, $max_x, $max_y, $squares)?;
    };
    (@bound $me:tt, $f:ident; ratios($name:expr, $max_x:expr, $max_y:expr, $squares:expr $(,)?)) => {
        let name = $crate::sums::names($name);
        for (i, r) in $me.$f.iter().enumerate() {
            $crate::stats::Ratio::plausible(r, &name(i), $max_x, $max_y, $squares)?;
        }
    };
    (@bound $me:tt, $f:ident; sums) => {
        $crate::shard::Plausible::plausible(&$me.$f)
            .map_err(|e| format!("{}.{e}", stringify!($f)))?;
    };
    (@bound $me:tt, $f:ident; each) => {
        for (i, x) in $me.$f.iter().enumerate() {
            $crate::shard::Plausible::plausible(x)
                .map_err(|e| format!("{}[{i}].{e}", stringify!($f)))?;
        }
    };
    (@bound $me:tt, $f:ident; check($check:expr $(,)?)) => {
        $check?;
    };
    (@bound $me:tt, $f:ident; related) => {};
    (@bound $me:tt, $f:ident; unbounded($why:literal)) => {};
    // The declaration.
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$fattr:meta])*
                $fvis:vis $field:ident : $ty:ty => $($word:ident $(($($arg:tt)*))?)+
            ),+ $(,)?
        }
        $(bounds($s:ident) $({ $($local:tt)* })?)?
        $(relations($relations:path))?
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $(
                $(#[$fattr])*
                $fvis $field: $ty,
            )+
        }

        impl $crate::engine::Merge for $name {
            fn merge(&mut self, other: &Self) {
                $( $crate::sums::sums!(@merge self, other, $field; $($word $(($($arg)*))?)+); )+
            }
        }

        impl $crate::shard::Plausible for $name {
            fn plausible(&self) -> ::std::result::Result<(), ::std::string::String> {
                $(
                    #[allow(unused_variables)]
                    let $s = self;
                    $( $($local)* )?
                )?
                $( $crate::sums::sums!(@bound self, $field; $($word $(($($arg)*))?)+); )+
                $( $relations(self)?; )?
                Ok(())
            }
        }
    };
}
pub(crate) use sums;

/// The merges of fields that do not add (`merge(RULE)` in [`sums!`]). Each has the field's
/// default as its identity, and none depends on the order of merging.
pub mod rule {
    /// The larger: a largest bet, the best session (for an `Option`, `None` is below every
    /// value, so the larger of those present).
    pub fn max<T: Ord + Copy>(mine: &mut T, other: &T) {
        *mine = (*mine).max(*other);
    }

    /// The smaller of those present: the worst session (`None`: nothing seen yet).
    pub fn min<T: Ord + Copy>(mine: &mut Option<T>, other: &Option<T>) {
        *mine = match (*mine, *other) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, None) => a,
            (None, b) => b,
        };
    }

    /// A trace, per chunk (chunk index, Σx, Σy) sorted by chunk: the two merged in chunk
    /// order (`stats::merge_trace`).
    pub fn trace(mine: &mut crate::stats::Trace, other: &crate::stats::Trace) {
        crate::stats::merge_trace(mine, other);
    }
}

/// `ratios`' naming closure, its argument typed (the i-th element).
#[doc(hidden)]
pub fn names<R, F: Fn(usize) -> R>(name: F) -> F {
    name
}

/// The sum of counts, saturating (a forged file's counts must not overflow its check).
pub fn total(counts: &[u64]) -> u64 {
    counts.iter().fold(0u64, |a, &c| a.saturating_add(c))
}

macro_rules! merge_by_adding {
    ($($t:ty),*) => {
        $(
            impl Merge for $t {
                fn merge(&mut self, other: &Self) {
                    *self += *other;
                }
            }
        )*
    };
}
merge_by_adding!(u64, i64, i128);

impl<T: Merge, const N: usize> Merge for [T; N]
where
    [T; N]: Default,
{
    fn merge(&mut self, other: &Self) {
        for (a, b) in self.iter_mut().zip(other) {
            a.merge(b);
        }
    }
}

/// Element by element; the shorter is first padded with the identity (the sums of a run
/// all have the same length, and an empty `Vec` is the identity).
impl<T: Merge> Merge for Vec<T> {
    fn merge(&mut self, other: &Self) {
        if self.len() < other.len() {
            self.resize_with(other.len(), T::default);
        }
        for (a, b) in self.iter_mut().zip(other) {
            a.merge(b);
        }
    }
}

impl Merge for Ratio {
    fn merge(&mut self, other: &Self) {
        Ratio::merge(self, other);
    }
}

impl Merge for Batch {
    fn merge(&mut self, other: &Self) {
        self.x += other.x;
        self.y += other.y;
        self.xx += other.xx;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::Histogram;
    use crate::shard::Plausible;
    use serde::{Deserialize, Serialize};

    sums! {
        /// A toy's nested sums.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        struct Inner {
            seen: u64 => unbounded("a test's sums"),
            won: u64 => at_most(i.seen, "seen"),
        }
        bounds(i)
    }

    sums! {
        /// Every clause and every merge rule.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        struct Toy {
            rounds: u64 => related,
            wins: u64 => at_most(t.rounds, "rounds"),
            /// The largest win of a round.
            #[serde(default)]
            most: u64 => merge(max) at_most(limit, "units of the table limit"),
            worst: Option<i64> => merge(min) unbounded("a test's sums"),
            net: Ratio => ratio("net", 1, 1, true),
            by_seat: [Ratio; 2] => ratios(|s| format!("seat {}", s + 1), 1, 1, true),
            hist: Histogram => sums,
            inner: Inner => sums,
            rows: Vec<Inner> => each,
            cells: Vec<[u64; 2]> => check(cells_fit(&t.cells, t.rounds)),
            trace: Vec<[i64; 3]> => merge(trace) unbounded("a test's sums"),
        }
        bounds(t) {
            let limit = 5;
        }
        relations(Toy::relations)
    }

    fn cells_fit(cells: &[[u64; 2]], rounds: u64) -> Result<(), String> {
        let all = total(&cells.iter().flatten().copied().collect::<Vec<u64>>());
        crate::shard::at_most("cells", all, rounds, "rounds")
    }

    impl Toy {
        fn relations(&self) -> Result<(), String> {
            let in_hist = self.hist.total();
            if in_hist != self.rounds {
                return Err(format!(
                    "{in_hist} rounds in the histogram of {}",
                    self.rounds
                ));
            }
            Ok(())
        }
    }

    fn hist(keys: &[(i64, u64)]) -> Histogram {
        let mut h = Histogram::default();
        for &(k, n) in keys {
            h.add_n(k, n);
        }
        h
    }

    /// A toy of `rounds` rounds in chunk `chunk`, each round winning 1 (`net` and the seats'
    /// ratios one observation per round, one batch).
    fn toy(chunk: i64, rounds: u64, most: u64, worst: i64) -> Toy {
        let mut one = Ratio::default();
        one.close(
            &Batch {
                x: rounds as i64,
                y: rounds as i64,
                xx: rounds as i64,
            },
            rounds,
        );
        Toy {
            rounds,
            wins: rounds,
            most,
            worst: Some(worst),
            net: one,
            by_seat: [one, Ratio::default()],
            hist: hist(&[(chunk, rounds)]),
            inner: Inner {
                seen: rounds,
                won: 1,
            },
            rows: vec![Inner::default(), Inner { seen: 2, won: 1 }],
            cells: vec![[1, 0]],
            trace: vec![[chunk, rounds as i64, rounds as i64]],
        }
    }

    #[test]
    fn every_field_merges_by_its_type_or_its_rule() {
        let (a, b) = (toy(0, 3, 4, -2), toy(1, 5, 2, 7));
        let mut m = a.clone();
        m.merge(&b);
        let mut two = Ratio::default();
        two.merge(&a.net);
        two.merge(&b.net);
        let want = Toy {
            rounds: 8,
            wins: 8,
            most: 4,
            worst: Some(-2),
            net: two,
            by_seat: [two, Ratio::default()],
            hist: hist(&[(0, 3), (1, 5)]),
            inner: Inner { seen: 8, won: 2 },
            rows: vec![Inner::default(), Inner { seen: 4, won: 2 }],
            cells: vec![[2, 0]],
            trace: vec![[0, 3, 3], [1, 5, 5]],
        };
        assert_eq!(m, want);
        // In either order, and the default is the identity on either side.
        let mut r = b.clone();
        r.merge(&a);
        assert_eq!(r, want);
        let mut e = Toy::default();
        e.merge(&a);
        assert_eq!(e, a);
        let mut x = a.clone();
        x.merge(&Toy::default());
        assert_eq!(x, a);
        m.plausible().unwrap();
    }

    #[test]
    fn the_fields_serialize_as_written() {
        let text = serde_json::to_string(&Toy::default()).unwrap();
        let keys = [
            "rounds", "wins", "most", "worst", "net", "by_seat", "hist", "inner", "rows", "cells",
            "trace",
        ];
        let mut at = 0;
        for k in keys {
            let i = text[at..]
                .find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("{k}"));
            at += i;
        }
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v.as_object().unwrap().len(), keys.len());
        // A field's serde attributes are kept: `most` may be missing.
        let mut v = v;
        v.as_object_mut().unwrap().remove("most");
        let back: Toy = serde_json::from_value(v).unwrap();
        assert_eq!(back, Toy::default());
    }

    #[test]
    fn every_bound_is_checked_and_names_its_field() {
        let ok = toy(0, 3, 4, -2);
        ok.plausible().unwrap();
        type Edit = fn(&mut Toy);
        let cases: [(Edit, &str); 8] = [
            (|t| t.wins = 4, "wins = 4 is more than the 3 rounds"),
            (
                |t| t.most = 6,
                "most = 6 is more than the 5 units of the table limit",
            ),
            (
                |t| t.net.x = 4,
                "net: sums 4 and 3 over 3 observations are out of range",
            ),
            (|t| t.by_seat[1].x = 1, "seat 2: sums without observations"),
            (|t| t.inner.won = 4, "inner.won = 4 is more than the 3 seen"),
            (
                |t| t.rows[1].won = 3,
                "rows[1].won = 3 is more than the 2 seen",
            ),
            (|t| t.cells[0][1] = 3, "cells = 4 is more than the 3 rounds"),
            (|t| t.rounds = 4, "3 rounds in the histogram of 4"),
        ];
        for (edit, want) in cases {
            let mut t = ok.clone();
            edit(&mut t);
            assert_eq!(t.plausible(), Err(want.to_string()));
        }
    }

    /// Merging a run's chunks gives the run, for every game.
    mod chunks_merge_to_the_run {
        use std::fmt::Debug;
        use std::ops::Range;
        use std::sync::atomic::AtomicBool;

        use crate::engine::{run, Merge, RunOptions, Simulation};
        use crate::game::{Chunks, Game};
        use crate::shard::Plausible;

        fn go<A: Merge>(sim: &dyn Simulation<Acc = A>, seed: u64, chunks: Range<u64>) -> A {
            let o = RunOptions {
                seed,
                chunks,
                threads: Some(1),
                progress: false,
                label: String::new(),
            };
            run(sim, &o, &AtomicBool::new(false)).unwrap().acc
        }

        /// A run of `cfg` (chunks of `chunk`) as a whole, chunk by chunk and as three shards
        /// read back from their JSON, merged in reverse order: the same sums field for field,
        /// possible sums throughout. Returns the run's sums.
        fn same<G: Game>(cfg: G::Config, chunk: u64) -> G::Acc
        where
            G::Acc: PartialEq + Debug,
        {
            let seed = 2026;
            let (plan, sim) = G::prepare(&cfg, seed, Some(chunk), 1).unwrap();
            let n = plan.chunks();
            assert!(n >= 3, "{}: {n} chunks", G::NAME);
            let whole = go(&*sim, seed, 0..n);
            whole.plausible().unwrap();
            let mut chunks = G::Acc::default();
            for c in (0..n).rev() {
                chunks.merge(&go(&*sim, seed, c..c + 1));
            }
            assert_eq!(chunks, whole, "{}: the chunks merged", G::NAME);
            let cuts = [0, n / 3, 2 * n / 3, n];
            let mut shards = G::Acc::default();
            for k in (0..3).rev() {
                let acc = go(&*sim, seed, cuts[k]..cuts[k + 1]);
                let back: G::Acc =
                    serde_json::from_str(&serde_json::to_string(&acc).unwrap()).unwrap();
                assert_eq!(back, acc, "{}: shard {} read back", G::NAME, k + 1);
                back.plausible().unwrap();
                shards.merge(&back);
            }
            assert_eq!(shards, whole, "{}: the shards merged", G::NAME);
            let json = |a: &G::Acc| serde_json::to_value(a).unwrap();
            assert_eq!(json(&shards), json(&whole));
            whole
        }

        #[test]
        fn blackjack_flat_with_side_bets() {
            use crate::games::blackjack::resolve::resolve_strategy;
            use crate::games::blackjack::rules::Rules;
            use crate::games::blackjack::{BjConfig, Blackjack};
            let rules = Rules::seed();
            let strategy = resolve_strategy("basic", &rules, &Default::default()).unwrap();
            let mut cfg = BjConfig::new(rules, strategy, 20_000);
            cfg.bets.pairs = 1.0;
            cfg.bets.behind = 1.0;
            cfg.bets.insure = true;
            let acc = same::<Blackjack>(cfg, 20);
            assert!(acc.insurance.n > 0 && acc.pairs.n > 0 && acc.behind_none.n > 0);
            assert!(acc.counts.doubles > 0 && acc.counts.splits > 0 && acc.trace.len() >= 3);
        }

        #[test]
        fn blackjack_counting_with_bankroll_paths() {
            use crate::games::blackjack::resolve::resolve_strategy;
            use crate::games::blackjack::rules::Rules;
            use crate::games::blackjack::{BjConfig, Blackjack};
            let rules = Rules {
                players: 2,
                ..Rules::seed()
            };
            let strategy = resolve_strategy("basic", &rules, &Default::default()).unwrap();
            let mut cfg = BjConfig::new(rules, strategy, 30_000);
            cfg.bets.pairs = 1.0;
            cfg.count = Some(
                serde_json::from_value(serde_json::json!({
                    "system": {"label": "Hi-Lo", "scale": 1,
                               "tags": [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]},
                    "ramp": [[0, 1], [1, 2], [2, 4], [3, 8], [4, 12]],
                    "true_count": "exact",
                    "rounding": "floor",
                    "wong_in": 1,
                    "wong_out": 0,
                    "pairs_exposure": true,
                    "bankroll": {"units": 100, "trip_rounds": 100},
                }))
                .unwrap(),
            );
            let acc = same::<Blackjack>(cfg, 20);
            let c = &acc.count;
            assert!(c.seat_rounds_out > 0 && c.money.n > 0 && c.pairs_paying > 0);
            assert!(c.ruin.trips > 0 && c.ruin.ruined_by.iter().sum::<u64>() > 0);
            assert!(c.by_tc.len() > 10 && acc.counts.max_bet > 1);
        }

        #[test]
        fn dice_of_doom_turns_and_games() {
            use crate::games::doom::game::DoomConfig;
            use crate::games::doom::rules::{DoomPreset, DoomRules};
            use crate::games::doom::sim::Mode;
            use crate::games::doom::Doom;
            let rules = DoomRules::preset(DoomPreset::Seed);
            let cfg = |seats: &[&str], mode| DoomConfig {
                rules: DoomRules {
                    target: 3000,
                    ..rules.clone()
                },
                seats: seats.iter().map(|s| s.to_string()).collect(),
                mode,
                start_seat: None,
                table: Default::default(),
            };
            let turns = same::<Doom>(cfg(&["bank-at:300"], Mode::Turns(30_000)), 5_000);
            assert!(turns.turns[0].farkles > 0 && turns.turns[0].rolls > 0);
            let seats = ["bank-at:300", "bank-at:400", "bank-at:350"];
            let games = same::<Doom>(cfg(&seats, Mode::Games(60)), 10);
            assert_eq!(games.games, 60);
            assert!(games.wins.iter().all(|w| w.x > 0) && games.final_hist.len() == 3);
        }

        #[test]
        fn twenty_one() {
            use crate::games::twentyone::game::{TwentyOne, TwentyOneConfig};
            let cfg = TwentyOneConfig::new(&["hits-only", "greedy", "slack:1"], 600);
            let acc = same::<TwentyOne>(cfg, 100);
            assert_eq!(acc.games, 600);
            assert!(acc.crossings.iter().all(|&c| c > 0) && acc.rolls > 0);
        }

        #[test]
        fn baccarat_martingale_with_pair_bets() {
            use crate::games::baccarat::bet::BetSpec;
            use crate::games::baccarat::game::{BacConfig, Baccarat};
            use crate::games::baccarat::rules::BacRules;
            let bet = BetSpec::parse("martingale:player").unwrap();
            let mut cfg = BacConfig::new(BacRules::standard(), bet, 20_000);
            cfg.pairs = 1;
            cfg.table_max = 64;
            let acc = same::<Baccarat>(cfg, 10);
            assert!(acc.counts.limit_hits > 0 && acc.counts.max_stake == 64);
            assert!(acc.worst_session < acc.best_session && acc.session_hist.bins().count() > 3);
        }
    }
}
