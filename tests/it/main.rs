//! The integration tests, as one test binary: each file here is a module (one area of the
//! library or the command line), so the crate and its dependencies are linked once rather
//! than once per file. Run one area with `cargo test --profile ci --test it NAME::`.

mod common;

mod advise;
mod audit;
mod baccarat;
mod bets;
mod blackjack_stats;
mod cache;
mod cache_blackjack;
mod check;
mod check_bless;
mod checkpoint;
mod cli;
mod collisions;
mod compare;
mod counting;
mod deploy;
mod doom;
mod door;
mod door_when;
mod exact;
mod examples;
mod faults;
mod glance;
mod indices;
mod interrupted;
mod invariants;
mod layering;
mod layout;
mod metrics;
mod mistakes;
mod monitor;
mod plots;
mod progress;
mod risk;
mod rounds_out;
mod seats;
mod serve;
mod shards;
mod shards_dice;
mod side_bets;
mod study;
mod tables;
mod team;
mod twentyone;
mod variants;
mod verify;
mod verify_baccarat;
mod web;
