//! Twenty One: the roll-and-write dice game of RULES.md §2.

pub mod row;
pub mod rules;
pub mod strategy;
