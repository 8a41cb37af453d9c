//! The games.

pub mod blackjack;
