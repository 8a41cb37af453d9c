//! SVG plots (plotters' SVG backend): line charts with an optional band and reference line,
//! and bar charts. Plots render in any browser.

use plotters::prelude::*;

/// A line series with an optional band (lower, upper) around it.
pub struct Line<'a> {
    pub name: &'a str,
    pub points: &'a [(f64, f64)],
    pub band: Option<&'a [(f64, f64, f64)]>,
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(1e-9);
    (lo - pad, hi + pad)
}

/// A line chart; `hline` draws a horizontal reference line (e.g. a claimed RTP).
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    line: &Line,
    hline: Option<(f64, &str)>,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let xs = bounds(line.points.iter().map(|p| p.0));
        let ys = bounds(
            line.points
                .iter()
                .map(|p| p.1)
                .chain(line.band.into_iter().flatten().flat_map(|b| [b.1, b.2]))
                .chain(hline.map(|h| h.0)),
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(xs.0..xs.1, ys.0..ys.1)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .draw()
            .map_err(|e| e.to_string())?;
        if let Some(band) = line.band {
            let mut poly: Vec<(f64, f64)> = band.iter().map(|b| (b.0, b.2)).collect();
            poly.extend(band.iter().rev().map(|b| (b.0, b.1)));
            chart
                .draw_series(std::iter::once(Polygon::new(poly, BLUE.mix(0.15).filled())))
                .map_err(|e| e.to_string())?
                .label("95% band")
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 15, y + 5)], BLUE.mix(0.15).filled())
                });
        }
        chart
            .draw_series(LineSeries::new(
                line.points.iter().copied(),
                BLUE.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label(line.name)
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], BLUE.stroke_width(2)));
        if let Some((y, name)) = hline {
            chart
                .draw_series(LineSeries::new(
                    vec![(xs.0, y), (xs.1, y)],
                    RED.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label(name)
                .legend(|(x, yy)| {
                    PathElement::new(vec![(x, yy), (x + 15, yy)], RED.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// A bar chart of labelled values (e.g. EV by up card, a histogram of results).
pub fn bar_chart(title: &str, y_label: &str, bars: &[(String, f64)]) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let ys = bounds(bars.iter().map(|b| b.1).chain(std::iter::once(0.0)));
        let n = bars.len().max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d((0..n).into_segmented(), ys.0..ys.1)
            .map_err(|e| e.to_string())?;
        let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
        chart
            .configure_mesh()
            .y_desc(y_label)
            .x_labels(n)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let (y0, y1) = if b.1 >= 0.0 { (0.0, b.1) } else { (b.1, 0.0) };
                let mut r = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), y0),
                        (SegmentValue::Exact(i + 1), y1),
                    ],
                    BLUE.mix(0.6).filled(),
                );
                r.set_margin(0, 0, 3, 3);
                r
            }))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_are_svg_documents() {
        let pts = [(1.0, 0.99), (2.0, 0.992), (3.0, 0.991)];
        let band = [(1.0, 0.98, 1.0), (2.0, 0.985, 0.995), (3.0, 0.988, 0.994)];
        let s = line_chart(
            "RTP",
            "rounds",
            "RTP",
            &Line {
                name: "estimate",
                points: &pts,
                band: Some(&band),
            },
            Some((0.9954, "claim 99.54%")),
        )
        .unwrap();
        assert!(
            s.starts_with("<svg") && s.trim_end().ends_with("</svg>"),
            "{}",
            &s[..80.min(s.len())]
        );
        assert!(s.contains("claim 99.54%"));
        let b = bar_chart(
            "EV by up card",
            "EV",
            &[("2".into(), 0.09), ("A".into(), -0.34)],
        )
        .unwrap();
        assert!(b.starts_with("<svg") && b.contains("<rect"));
    }
}
