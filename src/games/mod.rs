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
    // Every file's game first, so that a shard of another game is named as such (and not as a
    // file that does not parse as this game's shard).
    let games = paths
        .iter()
        .map(|p| Ok((p, game_of(p)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let game = games[0].1.clone();
    if let Some((p, g)) = games.iter().find(|(_, g)| *g != game) {
        anyhow::bail!(
            "{} is a shard of a different game ({} is {}, {} is {}); merge the shards of one run only",
            p.display(),
            first.display(),
            game.as_deref().unwrap_or("unknown"),
            p.display(),
            g.as_deref().unwrap_or("unknown")
        );
    }
    match game.as_deref() {
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

/// The game of a shard file (`key.game`), reading nothing else of it.
fn game_of(path: &std::path::Path) -> anyhow::Result<Option<String>> {
    #[derive(serde::Deserialize)]
    struct Key {
        game: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Head {
        key: Option<Key>,
    }
    let text = crate::input::read_text(path, "shard file", crate::input::MAX_SHARD_BYTES)?;
    let head: Head = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "cannot read shard file {}: not a complete rtplab shard file ({e}); it may be truncated: re-run that shard",
            path.display()
        )
    })?;
    Ok(head.key.and_then(|k| k.game))
}
