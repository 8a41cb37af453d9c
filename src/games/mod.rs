//! The games.

pub mod blackjack;
pub mod doom;
pub mod twentyone;

use std::path::PathBuf;

/// Merge shard files of one run (any game) into the run's report.
pub fn merge(paths: &[PathBuf], claim: Option<f64>) -> anyhow::Result<crate::report::Report> {
    let first = paths
        .first()
        .ok_or_else(|| anyhow::anyhow!("merge needs at least one shard file"))?;
    let text = std::fs::read_to_string(first)
        .map_err(|e| anyhow::anyhow!("cannot read shard file {}: {e}", first.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "cannot read shard file {}: not a complete rtplab shard file ({e}); it may be truncated: re-run that shard",
            first.display()
        )
    })?;
    match v.pointer("/key/game").and_then(|g| g.as_str()) {
        Some("blackjack") => blackjack::app::merge_report(paths, claim),
        Some("doom") => doom::app::merge_report(paths),
        Some("twenty-one") => twentyone::app::merge_report(paths),
        Some(g) => anyhow::bail!(
            "{}: shards of game '{g}' cannot be merged by this version",
            first.display()
        ),
        None => anyhow::bail!(
            "{}: not an rtplab shard file (no key.game)",
            first.display()
        ),
    }
}
