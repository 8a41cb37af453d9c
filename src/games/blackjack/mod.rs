//! Blackjack: the live table "廿一點" and every variation of its rules.

pub mod app;
pub mod compare;
pub mod derive;
pub mod exact;
pub mod exact_report;
pub mod hand;
pub mod report;
pub mod round;
pub mod rules;
pub mod shoe;
pub mod sim;
pub mod strategy;
