//! The games.

pub mod baccarat;
pub mod blackjack;
pub mod doom;
pub mod twentyone;
