//! `merge`: shard files of one run, any game, into the run's report (the game named by the
//! files, found among the games the binary registers).

use std::path::PathBuf;

use crate::game::Entry;

/// Errors of `merge`: which files cannot be merged and why, or the game's own error.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("merge needs at least one shard file")]
    NoFiles,
    #[error("{file} is a shard of a different game ({first} is {first_game}, {file} is {game}); merge the shards of one run only")]
    OtherGame {
        file: String,
        first: String,
        first_game: String,
        game: String,
    },
    #[error("{file}: shards of game '{game}' cannot be merged by this version")]
    UnknownGame { file: String, game: String },
    #[error("{0}: not an rtplab shard file (no key.game)")]
    NoGame(String),
    #[error("{file}: not an rtplab shard file ({why}); merge the files that `sim ... --shard-out FILE` wrote")]
    NotShard { file: String, why: String },
    #[error("cannot read shard file {file}: not a complete rtplab shard file ({why}); it may be truncated: re-run that shard")]
    Incomplete { file: String, why: String },
    #[error(transparent)]
    Input(#[from] crate::door::input::InputError),
    /// The game's own error (a shard that does not belong, impossible sums, ...).
    #[error(transparent)]
    Game(crate::game::AnyError),
}

crate::job::carried!(MergeError);

/// Merge shard files of one run (any game of `games`) into the run's report and plots.
pub fn merge(
    paths: &[PathBuf],
    claim: Option<f64>,
    games: &[Entry],
) -> Result<crate::game::Rendered, MergeError> {
    let first = paths.first().ok_or(MergeError::NoFiles)?;
    // Every file's game first, so that a shard of another game is named as such (and not as a
    // file that does not parse as this game's shard).
    let named = paths
        .iter()
        .map(|p| Ok((p, game_of(p)?)))
        .collect::<Result<Vec<_>, MergeError>>()?;
    let game = named[0].1.clone();
    if let Some((p, g)) = named.iter().find(|(_, g)| *g != game) {
        return Err(MergeError::OtherGame {
            file: p.display().to_string(),
            first: first.display().to_string(),
            first_game: game.as_deref().unwrap_or("unknown").to_string(),
            game: g.as_deref().unwrap_or("unknown").to_string(),
        });
    }
    let game = game.ok_or_else(|| MergeError::NoGame(first.display().to_string()))?;
    let entry = crate::game::find(games, &game).ok_or_else(|| MergeError::UnknownGame {
        file: first.display().to_string(),
        game: game.clone(),
    })?;
    (entry.merge)(paths, claim).map_err(MergeError::Game)
}

/// The game of a shard file (`key.game`), reading nothing else of it.
fn game_of(path: &std::path::Path) -> Result<Option<String>, MergeError> {
    #[derive(serde::Deserialize)]
    struct Key {
        game: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Head {
        format: Option<String>,
        key: Option<Key>,
    }
    let file = path.display().to_string();
    let text =
        crate::door::input::read_text(path, "shard file", crate::door::input::MAX_SHARD_BYTES)?;
    // A file cut short is a truncated shard; anything else that is not JSON is not a shard.
    let head: Head = serde_json::from_str(&text).map_err(|e| {
        if e.is_eof() {
            MergeError::Incomplete {
                file: file.clone(),
                why: e.to_string(),
            }
        } else {
            MergeError::NotShard {
                file: file.clone(),
                why: format!("not JSON: {e}"),
            }
        }
    })?;
    if !head
        .format
        .as_deref()
        .is_some_and(|f| f.starts_with("rtplab-shard-"))
    {
        return Err(MergeError::NotShard {
            file,
            why: format!(
                "it has no \"format\": \"{}\" (a report or other JSON file?)",
                crate::shard::FORMAT
            ),
        });
    }
    Ok(head.key.and_then(|k| k.game))
}

/// `merge`: shard files of one run, a claimed RTP to test, where the report goes.
pub struct MergeJob {
    /// The games (the registry): a shard file names its own.
    pub games: Vec<Entry>,
    pub files: Vec<PathBuf>,
    pub claim: Option<f64>,
    pub outputs: crate::job::Outputs,
}

impl crate::job::Job for MergeJob {
    fn outputs(&self) -> &crate::job::Outputs {
        &self.outputs
    }
    fn run(self, _: &crate::job::Ctx) -> Result<crate::job::Outcome, crate::job::Error> {
        Ok(merge(&self.files, self.claim, &self.games)?.into())
    }
}
