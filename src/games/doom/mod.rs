//! Dice of Doom: the Farkle variant of docs/rules.md §3, and the public Farkle rule sets.

pub mod app;
pub mod exact;
pub mod model;
pub mod report;
pub mod rules;
pub mod score;
pub mod sim;
pub mod strategy;
