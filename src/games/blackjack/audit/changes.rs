//! The rule changes that would make the claim true: single changes, and pairs of changes that
//! each raise the RTP without reaching the claim alone.

use rayon::prelude::*;

use super::super::exact::{analyze, DealerTable, Follow, Optimal};
use super::super::exact_report::{rule_changes, RuleChange};
use super::super::kept::Kept;
use super::super::resolve::basic_chart;
use super::super::rules::{Rules, Shuffle};
use super::{ChangeRow, TierName};
use crate::progress::Progress;

/// Changes (indices into `rule_changes`), the rules they make, and why those were analysed
/// from a fresh shoe if they were.
type Changed = (Vec<usize>, (Rules, Option<String>));

/// `base` with the changes `ix` (indices into `changes`) applied; None when they change
/// nothing or make rules that cannot be dealt. The exact analysis is of a full shoe: how deep
/// the cut card lies does not enter it, so a change that the cut card alone makes impossible
/// (one deck at 75%) is analysed with the shoe shuffled every round, and the row says so.
fn apply_changes(
    base: &Rules,
    changes: &[RuleChange],
    ix: &[usize],
) -> Option<(Rules, Option<String>)> {
    let mut r = base.clone();
    for &i in ix {
        (changes[i].apply)(&mut r);
    }
    if r == *base {
        return None;
    }
    match r.validate() {
        Ok(()) => Some((r, None)),
        Err(_) => {
            // The cut card leaves too few cards for a round: only a fresh shoe works.
            let mut fresh = r.clone();
            fresh.shuffle = Shuffle::EveryRound;
            fresh.validate().ok()?;
            Some((
                fresh,
                Some("dealt from a fresh shoe: the cut card leaves too few cards".into()),
            ))
        }
    }
}

/// The EV of optimal play under each changed rule set, a stage of `progress` named `stage`.
fn optimal_evs(sets: &[Changed], progress: &Progress, stage: &str) -> Vec<f64> {
    progress.stage(stage, sets.len() as u64, "rule sets");
    sets.par_iter()
        .map(|(_, (r, _))| {
            let ev = analyze(r, &Optimal, DealerTable::of(r)).ev;
            progress.advance(1);
            ev
        })
        .collect()
}

/// Pairs of changes that each raise the RTP above `ev0` but do not reach the claim alone (a
/// pair with a change that reaches it alone reaches it by that change), of different groups.
fn change_pairs(
    base: &Rules,
    changes: &[RuleChange],
    singles: &[Changed],
    single_ev: &[f64],
    ev0: f64,
    claim: f64,
) -> Vec<Changed> {
    let up: Vec<usize> = singles
        .iter()
        .zip(single_ev)
        .filter(|(_, &e)| e > ev0 && 1.0 + e < claim)
        .map(|((ix, _), _)| ix[0])
        .collect();
    let mut pairs: Vec<Changed> = Vec::new();
    for (a, &i) in up.iter().enumerate() {
        for &j in &up[a + 1..] {
            if changes[i].group == changes[j].group {
                continue;
            }
            if let Some(r) = apply_changes(base, changes, &[i, j]) {
                pairs.push((vec![i, j], r));
            }
        }
    }
    pairs
}

/// The row of a change (`ev`: optimal play's EV under it): whether it reaches the claim,
/// and if it does, the RTP of the basic chart derived for the changed rules.
fn change_row(
    changes: &[RuleChange],
    (ix, (r, note)): Changed,
    ev: f64,
    claim: f64,
    kept: &Kept,
) -> ChangeRow {
    let reaches = 1.0 + ev >= claim;
    let rtp_basic = reaches.then(|| {
        let chart = basic_chart(&r, kept);
        1.0 + analyze(&r, &Follow(&chart), DealerTable::of(&r)).ev
    });
    ChangeRow {
        changes: ix.iter().map(|&i| changes[i].name.clone()).collect(),
        note,
        rtp_optimal: 1.0 + ev,
        rtp_basic,
        reaches_claim: reaches,
        tier: match rtp_basic {
            Some(b) if b >= claim => Some(TierName::Basic),
            Some(_) => Some(TierName::Optimal),
            None => None,
        },
    }
}

/// The single rule changes, and the pairs of changes that each raise the RTP without reaching
/// the claim alone, under optimal play; for those that reach the claim, the basic chart
/// derived for the changed rules too (kept where `kept` keeps charts).
/// Sorted: those that reach the claim first, then by RTP.
pub fn claim_changes(base: &Rules, claim: f64, progress: &Progress, kept: &Kept) -> Vec<ChangeRow> {
    let changes = rule_changes(base);
    let ev0 = analyze(base, &Optimal, DealerTable::of(base)).ev;
    let singles: Vec<Changed> = (0..changes.len())
        .filter_map(|i| apply_changes(base, &changes, &[i]).map(|r| (vec![i], r)))
        .collect();
    let single_ev = optimal_evs(&singles, progress, "audit: single rule changes");
    let pairs = change_pairs(base, &changes, &singles, &single_ev, ev0, claim);
    let pair_ev = optimal_evs(&pairs, progress, "audit: pairs of rule changes");
    let mut rows: Vec<ChangeRow> = singles
        .into_iter()
        .zip(single_ev)
        .chain(pairs.into_iter().zip(pair_ev))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(changed, ev)| change_row(&changes, changed, ev, claim, kept))
        .collect();
    rows.sort_by(|a, b| {
        b.reaches_claim
            .cmp(&a.reaches_claim)
            .then(a.changes.len().cmp(&b.changes.len()))
            .then(b.rtp_optimal.total_cmp(&a.rtp_optimal))
    });
    rows
}
