//! Which strategy a name means: `basic` (the chart derived for the rules), the table's
//! auto-play, the other fixed strategies, or a chart file.

use std::path::Path;

use super::kept::Kept;
use super::rules::Rules;
use super::strategy::{Chart, StrategySpec};
use super::BjError;

/// The chart for the seed rules, compiled in (the file is `strategies/blackjack/seed.csv`).
pub const SEED_CHART: &str = include_str!("../../../strategies/blackjack/seed.csv");
/// Its name in reports.
pub const SEED_CHART_NAME: &str = "strategies/blackjack/seed.csv";

/// The strategies known by name (every other value is a chart file).
pub const BUILT_IN_STRATEGIES: [&str; 6] = [
    "basic",
    "autoplay",
    "auto-play",
    "mimic-dealer",
    "mimic",
    "never-bust",
];

/// The name `basic` resolves to: the chart derived for the rules given.
pub const BASIC_NAME: &str = "basic (the chart derived for these rules)";

/// Turn a strategy name or chart path into a strategy. `basic` is the best total-dependent
/// chart for `rules` (derived at start-up, or read from where `kept` keeps it; the committed
/// seed chart when the rules are the seed table's, which a test proves equal to the
/// derivation).
pub fn resolve_strategy(name: &str, rules: &Rules, kept: &Kept) -> Result<StrategySpec, BjError> {
    Ok(match name {
        "basic" => StrategySpec::Chart(Box::new(basic_chart(rules, kept))),
        "autoplay" | "auto-play" => StrategySpec::AutoPlay,
        "mimic-dealer" | "mimic" => StrategySpec::MimicDealer,
        "never-bust" => StrategySpec::NeverBust,
        path if crate::door::names_file(std::ffi::OsStr::new(path), false) => {
            let mut chart = Chart::load(Path::new(path))?;
            chart.name = format!("chart {path}");
            StrategySpec::Chart(Box::new(chart))
        }
        other => return Err(BjError::UnknownStrategy(other.to_string())),
    })
}

/// The best total-dependent chart for these rules, named [`BASIC_NAME`]: the compiled seed
/// chart for the seed's rules, else derived once per rule set where `kept` keeps it (the
/// cache folder: milliseconds after the first run) or for this call alone.
pub fn basic_chart(rules: &Rules, kept: &Kept) -> Chart {
    let by = chart_rules(rules);
    let mut chart = if by == chart_rules(&Rules::seed()) {
        seed_chart()
    } else {
        // Derived from what its entry is named by (the same chart: neither the derivation nor
        // the exact analysis reads how the shoe ends or the seats).
        super::kept::chart(&by, kept, || super::derive::derive_chart(&by, false))
    };
    chart.name = BASIC_NAME.to_string();
    chart
}

/// The rules with what cannot change a derived chart (how the shoe ends and is shuffled, the
/// number of seats: the derivation is for a full shoe) set to the seed's.
pub(super) fn chart_rules(r: &Rules) -> Rules {
    let seed = Rules::seed();
    Rules {
        shuffle: seed.shuffle,
        shuffler: seed.shuffler,
        players: seed.players,
        ..r.unlabelled()
    }
}

/// `spec` for other rules: `basic` becomes the chart derived for `rules`; any other strategy
/// is played as it is.
pub fn rederive_basic(spec: &StrategySpec, rules: &Rules, kept: &Kept) -> StrategySpec {
    match spec {
        StrategySpec::Chart(c) if c.name == BASIC_NAME => {
            StrategySpec::Chart(Box::new(basic_chart(rules, kept)))
        }
        other => other.clone(),
    }
}

/// The built-in chart for the seed rules (`strategies/blackjack/seed.csv`, compiled in).
pub fn seed_chart() -> Chart {
    let mut chart =
        Chart::parse(SEED_CHART, SEED_CHART_NAME).expect("the built-in seed chart parses (tested)");
    chart.name = format!("chart {SEED_CHART_NAME}");
    chart
}

/// For a chart that is not `basic`: in how many cells it differs from the chart derived for
/// these rules (`None` for other strategies and for `basic` itself).
pub fn cells_off_basic(spec: &StrategySpec, rules: &Rules, kept: &Kept) -> Option<usize> {
    match spec {
        StrategySpec::Chart(c) if c.name != BASIC_NAME => {
            let basic = basic_chart(rules, kept);
            Some(
                c.codes
                    .iter()
                    .flatten()
                    .zip(basic.codes.iter().flatten())
                    .filter(|(a, b)| a != b)
                    .count(),
            )
        }
        _ => None,
    }
}
