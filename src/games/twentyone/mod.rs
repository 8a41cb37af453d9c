//! Twenty One: the roll-and-write dice game of docs/rules.md §2.

pub mod app;
pub mod exact;
pub mod report;
pub mod row;
pub mod rules;
pub mod sim;
pub mod strategy;
