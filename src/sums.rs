//! Run sums declared once: [`sums!`] writes a sums struct together with its
//! [`Merge`](crate::engine::Merge) and its [`Plausible`](crate::shard::Plausible), so a field
//! added to a game's sums is merged across chunks and shards and bounded in shard files, or the
//! build fails.
//!
//! The `Merge` of the field types lives here too: integers add, arrays and `Vec`s merge
//! element by element (a shorter `Vec` is first padded with the identity, so an empty one is
//! the identity), maps merge by key, `Ratio` and `Batch` add every sum. No sum is a float:
//! every merge is exact, in any order. The few fields that do not add name a rule from
//! [`rule`].

use std::collections::BTreeMap;

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
/// ```ignore
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

/// Key by key (a key missing on one side is the identity there).
impl<K: Ord + Clone + Send, V: Merge> Merge for BTreeMap<K, V> {
    fn merge(&mut self, other: &Self) {
        for (k, v) in other {
            self.entry(k.clone()).or_default().merge(v);
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
