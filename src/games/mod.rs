//! The games.

pub mod baccarat;
pub mod blackjack;
pub mod doom;
pub mod twentyone;

/// Whether `value`, given to the flag `flag` (clap's id) of a command of `game`, is one of
/// that command's built-in names rather than a file: what each resolver takes as built-in
/// before it looks for a file ([`crate::door::names_file`] is the one rule around it). A file
/// of that name in the working folder does not shadow it; `./NAME` names the file.
pub fn builtin_name(game: &str, flag: &str, value: &str) -> bool {
    match (game, flag) {
        ("blackjack", "strategy" | "strategies") => {
            blackjack::resolve::BUILT_IN_STRATEGIES.contains(&value)
        }
        // The dice games' strategies are specs unless they look like a path.
        (_, "strategy" | "strategies" | "seats") => !crate::door::is_path(value),
        (_, "count" | "counts") => blackjack::count::is_built_in(value),
        (_, "indices") => blackjack::indices::BUILT_IN.iter().any(|b| b.0 == value),
        _ => false,
    }
}
