//! The funnel plot.

use super::MonitorModel;

/// The funnel plot: the band at every round count, the running total's path and each period
/// (at its own round count) as points.
pub fn plot(m: &MonitorModel) -> Result<String, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let max = m
        .cumulative
        .last()
        .map_or(1, |c| c.rounds)
        .max(m.periods.iter().map(|p| p.rounds).max().unwrap_or(1));
    let lo_n = m.periods.iter().map(|p| p.rounds).min().unwrap_or(1).max(1) as f64;
    let grid: Vec<f64> = (0..=100)
        .map(|i| lo_n * (max as f64 / lo_n).powf(i as f64 / 100.0))
        .collect();
    let e = &m.expected;
    let edge = |sign: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .map(|&n| {
                (
                    n,
                    100.0 * (e.rtp + sign * m.z_level * e.sd_per_round / n.sqrt()),
                )
            })
            .collect()
    };
    let (upper, lower) = (edge(1.0), edge(-1.0));
    let path: Vec<(f64, f64)> = m
        .cumulative
        .iter()
        .map(|c| (c.rounds as f64, 100.0 * c.rtp))
        .collect();
    let dots: Vec<(f64, f64)> = m
        .periods
        .iter()
        .map(|p| (p.rounds as f64, 100.0 * p.rtp))
        .collect();
    let band_name = format!("{}% band", m.level);
    let title = format!(
        "Observed RTP against the expected {:.3}% ({}% acceptance funnel)",
        e.rtp * 100.0,
        m.level
    );
    line_chart(
        &title,
        "rounds",
        "RTP per amount wagered (%)",
        YUnit::Percent,
        &[
            Line {
                name: &band_name,
                points: &upper,
                band: None,
                dots: false,
            },
            Line {
                name: "",
                points: &lower,
                band: None,
                dots: false,
            },
            Line {
                name: "running total",
                points: &path,
                band: None,
                dots: false,
            },
            Line {
                name: "periods",
                points: &dots,
                band: None,
                dots: true,
            },
        ],
        Some((e.rtp * 100.0, "expected")),
    )
}
