//! The funnel plot and the control chart.

use super::{BandWidth, MonitorModel};

/// The rounds of equal stakes whose band is as wide as this row's: its rounds, or with logged
/// stakes (Σb)²/Σb² (the band is the expected SD per round over √ of it).
fn effective_rounds(m: &MonitorModel, se: f64) -> f64 {
    (m.expected.sd_per_round / se).powi(2)
}

/// The funnel plot: the band at every round count, the running total's path and each period
/// (at its own round count) as points. With logged stakes the x axis counts effective rounds,
/// (Σb)²/Σb², for which the band is that of rounds of equal stakes.
pub fn funnel(m: &MonitorModel) -> Result<String, String> {
    use crate::report::svg::{line_chart, Line, YUnit};
    let n_of = |se: f64| effective_rounds(m, se);
    let ns = || {
        m.periods
            .iter()
            .chain(&m.cumulative)
            .map(|p| n_of(p.se))
            .filter(|n| n.is_finite() && *n > 0.0)
    };
    let max = ns().fold(1.0, f64::max);
    let lo_n = ns().fold(max, f64::min).max(1.0);
    let grid: Vec<f64> = (0..=100)
        .map(|i| lo_n * (max / lo_n).powf(i as f64 / 100.0))
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
        .map(|c| (n_of(c.se), 100.0 * c.rtp))
        .collect();
    let dots: Vec<(f64, f64)> = m
        .periods
        .iter()
        .map(|p| (n_of(p.se), 100.0 * p.rtp))
        .collect();
    let band_name = format!("{}% band", m.level);
    let title = format!(
        "Observed RTP against the expected {:.3}% ({}% acceptance funnel)",
        e.rtp * 100.0,
        m.level
    );
    let x_label = match m.band_width {
        BandWidth::Stakes => "effective rounds: (Σ stakes)² / Σ stakes²",
        BandWidth::LowerBound => "rounds (stakes taken as equal: the band is a lower bound)",
    };
    line_chart(
        &title,
        x_label,
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

/// Longest period name written on the control chart.
const NAME_CHARS: usize = 24;

/// `name` cut to `NAME_CHARS` characters.
fn short_name(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        name.to_string()
    } else {
        name.chars().take(NAME_CHARS - 1).collect::<String>() + "…"
    }
}

/// The control chart: each period's z in log order against the band's ±z at the level, the
/// periods out of band in red and the `MAX_NAMED` farthest out named. Where rows merge
/// periods, a row is a line from its periods' smallest z to their largest, and the periods
/// out of band that are listed or named are marked one by one.
pub fn control_chart(m: &MonitorModel) -> Result<String, String> {
    use crate::report::svg::{control_chart, ControlChart};
    // A row's position: the middle of its periods in the log.
    let at = |p: &super::PeriodRow| p.first_period as f64 + (p.periods as f64 - 1.0) / 2.0;
    let samples: Vec<(f64, f64, f64)> = m
        .periods
        .iter()
        .map(|p| (at(p), p.z_range[0], p.z_range[1]))
        .collect();
    let merged = m.periods_per_row > 1;
    let out: Vec<&super::PeriodRow> = if merged {
        let mut out: Vec<&super::PeriodRow> = m
            .out_of_band_periods
            .iter()
            .chain(&m.farthest_out_of_band)
            .collect();
        out.sort_by_key(|p| p.first_period);
        out.dedup_by_key(|p| p.first_period);
        out
    } else {
        m.periods.iter().filter(|p| !p.in_band).collect()
    };
    let named = |p: &super::PeriodRow| {
        m.farthest_out_of_band
            .iter()
            .any(|f| f.first_period == p.first_period)
    };
    let outside: Vec<(f64, f64, String)> = out
        .into_iter()
        .map(|p| {
            let name = if named(p) {
                short_name(&p.period)
            } else {
                String::new()
            };
            (at(p), p.z, name)
        })
        .collect();
    let names: Vec<String> = if merged {
        Vec::new()
    } else {
        m.periods.iter().map(|p| short_name(&p.period)).collect()
    };
    let zl = m.z_level;
    let title = format!(
        "z of each period against its {}% band, in log order ({} of {} out)",
        m.level,
        crate::report::count(m.out_of_band),
        crate::report::count(m.log_periods)
    );
    let x_label = if merged {
        format!(
            "period in the log (a line: the z of {} periods, smallest to largest)",
            crate::report::count(m.periods_per_row)
        )
    } else {
        "period in the log".to_string()
    };
    let y_label = match m.band_width {
        BandWidth::Stakes => "z = (RTP − expected) / SE",
        BandWidth::LowerBound => "z = (RTP − expected) / SE, stakes taken as equal",
    };
    let band = format!("{}% band: |z| ≤ {:.3}", m.level, zl);
    control_chart(&ControlChart {
        title: &title,
        x_label: &x_label,
        y_label,
        samples: &samples,
        names: &names,
        samples_label: if merged { "rows of periods" } else { "periods" },
        centre: (0.0, "expected (z = 0)"),
        limits: (-zl, zl, &band),
        outside: &outside,
        outside_label: "out of band",
    })
}
