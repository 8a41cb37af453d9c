//! SVG plots (plotters' SVG backend): line charts with an optional band and reference line,
//! and bar charts with optional 95% error bars and a reference line. Plots render in any
//! browser. Values are plotted in the unit the axis names (rates as percents, with a `%` on
//! every tick), and tick labels are laid out so that they never overlap: a histogram labels
//! every k-th bin, other bar charts turn long labels upright.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const SIZE: (u32, u32) = (900, 520);
/// Font size of tick labels (plotters writes `font-size` as this / 1.24 in the SVG).
const TICK_FONT: f64 = 13.0;
/// A generous estimate of a character's width in the SVG's `font-size` units.
const CHAR_W: f64 = 0.62;

/// How the y axis reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum YUnit {
    /// Values are percents; every tick carries `%`.
    Percent,
    /// Plain numbers (points, counts).
    Plain,
    /// Percents on a log scale: a bar's value is log10(percent) − the floor, so bars stand on
    /// 10^floor percent ([`log_bars`]); ticks read as percents.
    LogPercent(i32),
}

/// A line series with an optional band (lower, upper) around it; `dots` draws its points
/// unjoined. A series without a name continues the named series before it (its colour, no
/// legend entry, e.g. a funnel's other edge).
pub struct Line<'a> {
    pub name: &'a str,
    pub points: &'a [(f64, f64)],
    pub band: Option<&'a [(f64, f64, f64)]>,
    pub dots: bool,
}

/// One bar: its label, value and optional 95% interval (in the value's unit).
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub ci: Option<(f64, f64)>,
    /// Its colour's meaning.
    pub tone: Tone,
}

/// What a bar's colour says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    /// One of the bars (blue).
    #[default]
    Plain,
    /// The reference the others are read against (grey), e.g. the rules as dealt.
    Reference,
    /// Above the reference (green).
    Better,
    /// Below the reference (red).
    Worse,
}

impl Tone {
    fn colour(self) -> RGBColor {
        match self {
            Tone::Plain => BLUE,
            Tone::Reference => RGBColor(90, 90, 90),
            Tone::Better => RGBColor(30, 150, 60),
            Tone::Worse => RGBColor(210, 50, 40),
        }
    }
}

/// `bars` (percents) on a log scale for [`YUnit::LogPercent`]: each value and interval as
/// log10(percent) above the floor, a power of ten at or below the smallest positive bar, so
/// that bars of 0.001% and of 40% are both seen. A bar of 0 stays 0 (none drawn). Returns
/// the bars and the unit.
pub fn log_bars(bars: &[Bar]) -> (Vec<Bar>, YUnit) {
    let smallest = bars
        .iter()
        .map(|b| b.value)
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold(f64::INFINITY, f64::min);
    let floor = if smallest.is_finite() {
        smallest.log10().floor() as i32
    } else {
        0
    };
    let up = |v: f64| {
        if v > 0.0 {
            (v.log10() - floor as f64).max(0.0)
        } else {
            0.0
        }
    };
    let out = bars
        .iter()
        .map(|b| Bar {
            label: b.label.clone(),
            value: up(b.value),
            ci: b.ci.map(|(lo, hi)| (up(lo), up(hi))),
            tone: b.tone,
        })
        .collect();
    (out, YUnit::LogPercent(floor))
}

impl Bar {
    pub fn new(label: impl Into<String>, value: f64) -> Bar {
        Bar {
            label: label.into(),
            value,
            ci: None,
            tone: Tone::Plain,
        }
    }
    pub fn with_tone(mut self, tone: Tone) -> Bar {
        self.tone = tone;
        self
    }
    pub fn with_ci(mut self, lo: f64, hi: f64) -> Bar {
        if lo.is_finite() && hi.is_finite() {
            self.ci = Some((lo, hi));
        }
        self
    }
}

/// A bar chart: labelled bars, optional error bars and a horizontal reference line.
pub struct BarChart<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub y_unit: YUnit,
    pub bars: &'a [Bar],
    /// A horizontal reference line (value, legend text), e.g. the fair share 1/players.
    pub hline: Option<(f64, &'a str)>,
    /// The bars are bins of a histogram: label every k-th bar instead of turning labels.
    pub histogram: bool,
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

/// Decimals that tell ticks `range / 10` apart.
fn decimals(range: f64) -> usize {
    let step = (range / 10.0).abs();
    if !step.is_finite() || step <= 0.0 {
        return 2;
    }
    (-step.log10().floor()).clamp(0.0, 6.0) as usize
}

fn y_tick(v: f64, d: usize, unit: YUnit) -> String {
    // A tick at zero computed as a tiny negative number reads "0.0", not "-0.0".
    let v = if format!("{:.d$}", v.abs())
        .trim_matches(['0', '.'])
        .is_empty()
    {
        0.0
    } else {
        v
    };
    match unit {
        YUnit::Percent => format!("{v:.d$}%"),
        YUnit::Plain => format!("{v:.d$}"),
        YUnit::LogPercent(floor) => {
            let p = 10f64.powf(v + floor as f64);
            // No probability above 100% (the room left for the legend): no tick there.
            if p > 100.5 {
                return String::new();
            }
            // Two significant figures, no float noise: 0.0012%, 0.35%, 41%.
            let digits = (1 - p.log10().floor() as i32).max(0) as usize;
            format!("{p:.digits$}%")
        }
    }
}

/// A count as a short tick label: 950, 20k, 1.5M, 2G.
pub fn short_count(v: f64) -> String {
    let a = v.abs();
    let (x, s) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let t = format!("{x:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    format!("{t}{s}")
}

fn tick_style() -> TextStyle<'static> {
    ("sans-serif", TICK_FONT).into_font().color(&BLACK)
}

/// Estimated width in pixels of a tick label.
/// Longest upright bar label, in pixels.
const MAX_LABEL_PX: f64 = 240.0;

/// `label`, cut short with an ellipsis to at most [`MAX_LABEL_PX`].
fn fit_label(label: &str) -> String {
    if text_width(label) <= MAX_LABEL_PX {
        return label.to_string();
    }
    let mut out: String = label.chars().collect();
    while !out.is_empty() && text_width(&out) + text_width("…") > MAX_LABEL_PX {
        out.pop();
    }
    out.push('…');
    out
}

fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR_W * TICK_FONT / 1.24
}

type Err = String;

fn err<E: std::fmt::Display>(e: E) -> Err {
    e.to_string()
}

fn blank(root: &DrawingArea<SVGBackend, Shift>) -> Result<(), Err> {
    root.fill(&WHITE).map_err(err)
}

/// Colours of a line chart's series, in order (red is the reference line's).
const SERIES: [RGBColor; 6] = [
    BLUE,
    RGBColor(0, 140, 70),
    RGBColor(200, 120, 0),
    BLACK,
    RGBColor(140, 60, 170),
    RGBColor(0, 160, 190),
];

/// A chart of `f64` on both axes drawn into an SVG string.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The x and y ranges of a line chart: every point, band edge and the reference line.
fn line_bounds(lines: &[Line], hline: Option<(f64, &str)>) -> ((f64, f64), (f64, f64)) {
    let xs = bounds(lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)));
    let ys = bounds(
        lines
            .iter()
            .flat_map(|l| {
                l.points
                    .iter()
                    .map(|p| p.1)
                    .chain(l.band.into_iter().flatten().flat_map(|b| [b.1, b.2]))
            })
            .chain(hline.map(|h| h.0)),
    );
    (xs, ys)
}

/// Draw the series: a named series takes the next colour; an unnamed one continues the named
/// series before it (its colour, no legend entry).
fn draw_lines(chart: &mut Chart, lines: &[Line]) -> Result<(), Err> {
    let mut named = 0;
    let mut c = SERIES[0];
    // One legend entry says what the shaded bands are, not one per line (a study's many
    // lines would double the legend over the data).
    let mut band_named = false;
    for line in lines {
        if !line.name.is_empty() {
            c = SERIES[named % SERIES.len()];
            named += 1;
        }
        if line.dots {
            chart
                .draw_series(line.points.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(err)?
                .label(line.name)
                .legend(move |(x, y)| Circle::new((x + 7, y), 4, c.filled()));
            continue;
        }
        if line.name.is_empty() {
            chart
                .draw_series(LineSeries::new(
                    line.points.iter().copied(),
                    c.stroke_width(2),
                ))
                .map_err(err)?;
            continue;
        }
        if let Some(band) = line.band {
            let mut poly: Vec<(f64, f64)> = band.iter().map(|b| (b.0, b.2)).collect();
            poly.extend(band.iter().rev().map(|b| (b.0, b.1)));
            let drawn = chart
                .draw_series(std::iter::once(Polygon::new(poly, c.mix(0.15).filled())))
                .map_err(err)?;
            if !band_named {
                band_named = true;
                let banded = lines.iter().filter(|l| l.band.is_some()).count();
                let label = if lines.len() == 1 {
                    "95% band".to_string()
                } else if banded == 1 {
                    format!("{}: 95% band", line.name)
                } else {
                    "shaded: each line's 95% band".to_string()
                };
                drawn.label(label).legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 15, y + 5)], c.mix(0.15).filled())
                });
            }
        }
        chart
            .draw_series(LineSeries::new(
                line.points.iter().copied(),
                c.stroke_width(2),
            ))
            .map_err(err)?
            .label(line.name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], c.stroke_width(2)));
    }
    Ok(())
}

/// A horizontal reference line at `y` across `x0..x1`, named `name` in the legend.
fn draw_hline(chart: &mut Chart, (y, name): (f64, &str), (x0, x1): (f64, f64)) -> Result<(), Err> {
    chart
        .draw_series(LineSeries::new(vec![(x0, y), (x1, y)], RED.stroke_width(2)))
        .map_err(err)?
        .label(name)
        .legend(|(x, yy)| PathElement::new(vec![(x, yy), (x + 15, yy)], RED.stroke_width(2)));
    Ok(())
}

/// Where a line chart's legend goes: the first corner (of the plot's ranges `xs`, `ys`) no
/// series passes through.
fn legend_corner(lines: &[Line], xs: (f64, f64), ys: (f64, f64)) -> SeriesLabelPosition {
    let corner = |right: bool, upper: bool| {
        let (fx, fy) = (0.40, 0.30);
        let x_in = |x: f64| {
            let t = (x - xs.0) / (xs.1 - xs.0);
            if right {
                t >= 1.0 - fx
            } else {
                t <= fx
            }
        };
        let y_in = |y: f64| {
            let t = (y - ys.0) / (ys.1 - ys.0);
            if upper {
                t >= 1.0 - fy
            } else {
                t <= fy
            }
        };
        !lines.iter().any(|l| {
            l.points.iter().any(|p| x_in(p.0) && y_in(p.1))
                || l.band
                    .into_iter()
                    .flatten()
                    .any(|b| x_in(b.0) && (y_in(b.1) || y_in(b.2)))
        })
    };
    [
        (true, false, SeriesLabelPosition::LowerRight),
        (true, true, SeriesLabelPosition::UpperRight),
        (false, true, SeriesLabelPosition::UpperLeft),
        (false, false, SeriesLabelPosition::LowerLeft),
    ]
    .into_iter()
    .find(|c| corner(c.0, c.1))
    .map_or(SeriesLabelPosition::LowerRight, |c| c.2)
}

/// The legend at `position`, on a white background of opacity `background`.
fn draw_legend<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    position: SeriesLabelPosition,
    background: f64,
) -> Result<(), Err> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(background))
        .border_style(BLACK)
        .draw()
        .map_err(err)
}

/// A line chart of one or more series (each with an optional 95% band, drawn in its colour);
/// `hline` draws a horizontal reference line (e.g. a claimed RTP). The x axis counts (ticks
/// such as 500k, 1.5M); the y axis reads in `y_unit`.
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    y_unit: YUnit,
    lines: &[Line],
    hline: Option<(f64, &str)>,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        blank(&root)?;
        let (xs, ys) = line_bounds(lines, hline);
        let d = decimals(ys.1 - ys.0);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(xs.0..xs.1, ys.0..ys.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_labels(7)
            .y_labels(10)
            .label_style(tick_style())
            .x_label_formatter(&|v| short_count(*v))
            .y_label_formatter(&|v| y_tick(*v, d, y_unit))
            .draw()
            .map_err(err)?;
        draw_lines(&mut chart, lines)?;
        if let Some(h) = hline {
            draw_hline(&mut chart, h, xs)?;
        }
        draw_legend(&mut chart, legend_corner(lines, xs, ys), 0.8)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// Which bars get a label: every bar, or every `stride`-th (a round stride) when labels
/// would otherwise overlap.
fn label_stride(labels: &[String], slot_px: f64) -> usize {
    let widest = labels.iter().map(|l| text_width(l)).fold(0.0, f64::max) + 6.0;
    [1usize, 2, 4, 5, 10, 20, 40, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|&k| k as f64 * slot_px >= widest)
        .unwrap_or(labels.len().max(1))
}

/// The label lines of a histogram's bins: every `stride`-th bin on the first line; and, where
/// a few bins hold the mass (uneven categories, e.g. a round's net of −1, 0, +1, +1.5: at
/// most a third of the bins taller than a tenth of the tallest), every such tall bin too,
/// tallest first, on the first line its label fits without touching another (up to three
/// lines; the third when none fits).
fn histogram_label_lines(
    labels: &[String],
    bars: &[Bar],
    slot_px: f64,
    stride: usize,
) -> Vec<Option<u8>> {
    let n = labels.len();
    let span = |i: usize| {
        let c = (i as f64 + 0.5) * slot_px;
        let w = text_width(&labels[i]) / 2.0 + 3.0;
        (c - w, c + w)
    };
    let on_stride = |i: usize| i.is_multiple_of(stride.max(1));
    let tallest = bars
        .iter()
        .map(|b| b.value)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let mut tall: Vec<usize> = (0..n)
        .filter(|&i| tallest > 0.0 && bars[i].value >= tallest / 10.0)
        .collect();
    if tall.len() * 3 > n {
        return (0..n).map(|i| on_stride(i).then_some(0)).collect();
    }
    tall.sort_by(|&a, &b| bars[b].value.total_cmp(&bars[a].value));
    let mut lines: Vec<Option<u8>> = vec![None; n];
    let free = |i: usize, line: u8, lines: &[Option<u8>]| {
        let (lo, hi) = span(i);
        (0..n).filter(|&j| j != i).all(|j| {
            lines[j] != Some(line) || {
                let (a, b) = span(j);
                b <= lo || a >= hi
            }
        })
    };
    // The tall bins first, each on the first line where it fits; then the stride's bins where
    // they fit on the first line.
    for i in tall {
        lines[i] = Some((0..3u8).find(|&l| free(i, l, &lines)).unwrap_or(2));
    }
    for i in 0..n {
        if on_stride(i) && lines[i].is_none() && free(i, 0, &lines) {
            lines[i] = Some(0);
        }
    }
    lines
}

/// Where a bar chart's parts go, worked out apart from the drawing (so it can be pinned).
#[derive(Debug, PartialEq)]
struct BarLayout {
    /// Slots on the x axis (at least 1).
    n: usize,
    /// The bars' labels, cut to fit.
    labels: Vec<String>,
    /// Labels written upright (they are wider than a slot).
    upright: bool,
    /// Every `stride`-th bar is labelled.
    stride: usize,
    /// The line of each bar's label under the axis (0 the first), `None`: no label.
    lines: Vec<Option<u8>>,
    /// Height of the x label area in pixels.
    x_area: u32,
    /// The y axis.
    lo: f64,
    hi: f64,
    /// The gap on each side of a bar, in slots.
    gap: f64,
}

fn bar_layout(c: &BarChart) -> BarLayout {
    let n = c.bars.len().max(1);
    // Labels longer than the label area are cut short with an ellipsis (the tables and
    // CSV files carry the whole names).
    let labels: Vec<String> = c.bars.iter().map(|b| fit_label(&b.label)).collect();
    // Plot width: the canvas less margins (15 each side) and the y label area (80).
    let slot_px = (SIZE.0 as f64 - 30.0 - 80.0) / n as f64;
    let widest = labels.iter().map(|l| text_width(l)).fold(0.0, f64::max);
    let upright = !c.histogram && widest + 6.0 > slot_px;
    let stride = if c.histogram {
        label_stride(&labels, slot_px)
    } else {
        1
    };
    let lines = if c.histogram {
        histogram_label_lines(&labels, c.bars, slot_px, stride)
    } else {
        vec![Some(0); c.bars.len()]
    };
    let extra_lines = lines.iter().flatten().max().copied().unwrap_or(0) as u32;
    let x_area = if upright {
        (widest + 20.0).min(260.0) as u32
    } else {
        40 + 16 * extra_lines
    } + if c.x_label.is_empty() { 0 } else { 22 };
    let values = c
        .bars
        .iter()
        .flat_map(|b| [Some(b.value), b.ci.map(|x| x.0), b.ci.map(|x| x.1)])
        .flatten()
        .chain(c.hline.map(|h| h.0))
        .chain(std::iter::once(0.0));
    let (mut lo, mut hi) = bounds(values);
    // The axis starts at 0 only when no bar and no error bar goes below it.
    let all_nonneg = c
        .bars
        .iter()
        .all(|b| (b.value >= 0.0 || b.value.is_nan()) && b.ci.is_none_or(|(lo, _)| lo >= 0.0));
    if all_nonneg {
        lo = 0.0;
    }
    // Room for the legend above the tallest bar: the legend's height as a share of the
    // plot's height (canvas less margins, caption and the x label area).
    let entries = c.hline.is_some() as usize + c.bars.iter().any(|b| b.ci.is_some()) as usize;
    if entries > 0 {
        let plot_px = SIZE.1 as f64 - 30.0 - 40.0 - x_area as f64;
        let legend_px = 30.0 + 20.0 * entries as f64;
        let frac = (legend_px / plot_px).min(0.6);
        hi += (hi - lo) * frac / (1.0 - frac);
    }
    // Leave a gap between bars only where a slot is wide enough to keep the bar visible.
    let gap = if slot_px >= 8.0 { 0.1 } else { 0.0 };
    BarLayout {
        n,
        labels,
        upright,
        stride,
        lines,
        x_area,
        lo,
        hi,
        gap,
    }
}

/// Error bars of the bars that have an interval; whether there were any.
fn draw_error_bars(chart: &mut Chart, bars: &[Bar]) -> Result<bool, Err> {
    let with_ci: Vec<(usize, (f64, f64))> = bars
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.ci.map(|x| (i, x)))
        .collect();
    if with_ci.is_empty() {
        return Ok(false);
    }
    // The error bar's caps, 0.15 of a slot each side: inside the bar (its gap is at most 0.1
    // of a slot).
    let cap = 0.15;
    chart
        .draw_series(with_ci.iter().map(|&(i, (l, h))| {
            let x = i as f64 + 0.5;
            PathElement::new(
                vec![
                    (x - cap, l),
                    (x + cap, l),
                    (x, l),
                    (x, h),
                    (x - cap, h),
                    (x + cap, h),
                ],
                BLACK.stroke_width(2),
            )
        }))
        .map_err(err)?
        .label("95% CI")
        .legend(|(x, y)| {
            PathElement::new(vec![(x + 7, y - 6), (x + 7, y + 6)], BLACK.stroke_width(2))
        });
    Ok(true)
}

/// Tick labels under the bars, drawn at the bars' centres (every `stride`-th, upright where
/// the layout says so).
fn draw_bar_labels(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &Chart,
    layout: &BarLayout,
) -> Result<(), Err> {
    for (i, l) in layout.labels.iter().enumerate() {
        let Some(line) = layout.lines.get(i).copied().flatten() else {
            continue;
        };
        let (px, py) = chart.backend_coord(&(i as f64 + 0.5, layout.lo));
        let py = py + 16 * line as i32;
        if layout.upright {
            let style = tick_style()
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(l.clone(), (px, py + 6), style))
                .map_err(err)?;
        } else {
            let style = tick_style().pos(Pos::new(HPos::Center, VPos::Top));
            root.draw(&Text::new(l.clone(), (px, py + 6), style))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// A bar chart of labelled values (e.g. EV by up card, a histogram, win rates), one slot per
/// bar, with error bars where a bar has an interval.
pub fn bar_chart(c: &BarChart) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        blank(&root)?;
        let layout = bar_layout(c);
        let BarLayout {
            n,
            x_area,
            lo,
            hi,
            gap,
            ..
        } = layout;
        let d = decimals(hi - lo);
        let mut chart = ChartBuilder::on(&root)
            .caption(c.title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(x_area)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..n as f64, lo..hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_desc(c.x_label)
            .y_desc(c.y_label)
            .y_labels(10)
            .label_style(tick_style())
            .y_label_formatter(&|v| y_tick(*v, d, c.y_unit))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(c.bars.iter().enumerate().map(|(i, b)| {
                // From 0 to the value, up or down (a rectangle's corners in any order).
                Rectangle::new(
                    [(i as f64 + gap, 0.0), (i as f64 + 1.0 - gap, b.value)],
                    b.tone.colour().mix(0.6).filled(),
                )
            }))
            .map_err(err)?;
        let error_bars = draw_error_bars(&mut chart, c.bars)?;
        if let Some(h) = c.hline {
            draw_hline(&mut chart, h, (0.0, n as f64))?;
        }
        if c.hline.is_some() || error_bars {
            draw_legend(&mut chart, SeriesLabelPosition::UpperRight, 0.85)?;
        }
        draw_bar_labels(&root, &chart, &layout)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// The fair share of `players` seats in percent (1/players), and its line's label.
pub fn fair_share(players: usize) -> (f64, String) {
    let players = players.max(1);
    let fair = 100.0 / players as f64;
    let label = format!("fair share 1/{players} = {}%", super::fixed(fair, 2));
    (fair, label)
}

/// The win rate by seat of a game in seats (`win-rate-by-seat.svg`): each seat's share of the
/// `games` (ties shared) in percent with its 95% interval, labelled with its number and
/// `names`, against the fair share 1/seats; no bars before a run's first game.
pub fn win_rate_by_seat(
    wins: &[crate::stats::Ratio],
    games: u64,
    names: &[String],
) -> Result<String, String> {
    let (fair, fair_label) = fair_share(wins.len());
    let bars: Vec<Bar> = wins
        .iter()
        .enumerate()
        .filter(|_| games > 0)
        .map(|(s, w)| {
            let e = super::est(w, 1.0);
            Bar::new(format!("{} {}", s + 1, names[s]), 100.0 * e.mean)
                .with_ci(100.0 * e.ci95[0], 100.0 * e.ci95[1])
        })
        .collect();
    bar_chart(&BarChart {
        title: "Win rate by seat (ties shared)",
        x_label: "seat and strategy",
        y_label: "win rate (%)",
        y_unit: YUnit::Percent,
        bars: &bars,
        hline: Some((fair, &fair_label)),
        histogram: false,
    })
}

/// A bar of `k` out of `n` as a percent, with its binomial 95% interval.
pub fn binomial_bar(label: impl Into<String>, k: u64, n: u64) -> Bar {
    if n == 0 {
        return Bar::new(label, 0.0);
    }
    let p = k as f64 / n as f64;
    let h = 1.96 * (p * (1.0 - p) / n as f64).sqrt();
    Bar::new(label, 100.0 * p).with_ci(100.0 * (p - h).max(0.0), 100.0 * (p + h).min(1.0))
}

/// Put a visible marker (e.g. "INTERRUPTED: 3 of 8 chunks") at the top left of a plot: a
/// short text, left of the plot's centred title (about 30 characters at most).
pub fn mark(svg: &str, text: &str) -> String {
    let esc = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let tag = format!(
        "<text x=\"15\" y=\"18\" font-family=\"sans-serif\" font-size=\"13\" font-weight=\"bold\" fill=\"#CC0000\">{esc}</text>\n"
    );
    match svg.rfind("</svg>") {
        Some(i) => format!("{}{}{}", &svg[..i], tag, &svg[i..]),
        None => svg.to_string(),
    }
}

/// A heat map: one cell per (column, row), coloured from light (low) to dark (high) along
/// [`RAMP`] and labelled with its text; `None` cells are left grey. Columns and rows are labelled.
pub struct HeatMap<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub columns: &'a [String],
    pub rows: &'a [String],
    /// `cells[row][column]`: value and its label.
    pub cells: &'a [Vec<Option<(f64, String)>>],
}

/// The heat map's colour scale: ColorBrewer's YlGnBu (9 classes), light yellow through green
/// to dark blue. Its lightness falls steadily from one end to the other and it is saturated
/// throughout, so a higher value always reads darker and no shade looks like an empty cell's
/// grey (a straight mix of yellow and blue passes through grey a third of the way).
const RAMP: [(u8, u8, u8); 9] = [
    (0xFF, 0xFF, 0xD9),
    (0xED, 0xF8, 0xB1),
    (0xC7, 0xE9, 0xB4),
    (0x7F, 0xCD, 0xBB),
    (0x41, 0xB6, 0xC4),
    (0x1D, 0x91, 0xC0),
    (0x22, 0x5E, 0xA8),
    (0x25, 0x34, 0x94),
    (0x08, 0x1D, 0x58),
];

/// A heat map's empty cell.
const EMPTY_CELL: RGBColor = RGBColor(215, 215, 215);

/// The colour at `t` in [0, 1] along [`RAMP`], mixed linearly between its neighbouring stops.
fn ramp(t: f64) -> RGBColor {
    let x = t.clamp(0.0, 1.0) * (RAMP.len() - 1) as f64;
    let i = (x.floor() as usize).min(RAMP.len() - 2);
    let f = x - i as f64;
    let (a, b) = (RAMP[i], RAMP[i + 1]);
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// A colour's relative luminance (WCAG 2: sRGB channels made linear, weighted 0.2126, 0.7152,
/// 0.0722): 0 for black, 1 for white.
fn luminance(c: RGBColor) -> f64 {
    let lin = |u: u8| {
        let s = u as f64 / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// The WCAG contrast ratios, (L1 + 0.05) / (L2 + 0.05), of white and of black on `fill`.
fn contrasts(fill: RGBColor) -> (f64, f64) {
    let l = luminance(fill);
    (1.05 / (l + 0.05), (l + 0.05) / 0.05)
}

/// Black or white, whichever stands out more on `fill` (the higher contrast ratio).
fn label_colour(fill: RGBColor) -> RGBColor {
    let (on_white, on_black) = contrasts(fill);
    if on_white > on_black {
        WHITE
    } else {
        BLACK
    }
}

/// Draw a [`HeatMap`].
pub fn heat_map(h: &HeatMap) -> Result<String, String> {
    let (nx, ny) = (h.columns.len(), h.rows.len());
    if nx == 0 || ny == 0 || h.cells.len() != ny || h.cells.iter().any(|r| r.len() != nx) {
        return Err(format!(
            "heat map '{}': cells do not match its rows and columns",
            h.title
        ));
    }
    let vals: Vec<f64> = h.cells.iter().flatten().flatten().map(|c| c.0).collect();
    let (lo, hi) = vals
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, u), &v| {
            (l.min(v), u.max(v))
        });
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        blank(&root)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(h.title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)
            .map_err(err)?;
        // No tick labels from the mesh (its ticks fall where its own rounding puts them): each
        // column's and row's name is drawn at the middle of its cells, below and to the left.
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(h.x_label)
            .y_desc(h.y_label)
            .x_labels(0)
            .y_labels(0)
            .label_style(tick_style())
            .draw()
            .map_err(err)?;
        for (i, name) in h.columns.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
            root.draw(&Text::new(
                name.clone(),
                (px, py + 8),
                tick_style().pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(err)?;
        }
        for (i, name) in h.rows.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(0.0, i as f64 + 0.5));
            root.draw(&Text::new(
                name.clone(),
                (px - 8, py),
                tick_style().pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(err)?;
        }
        // Where a value lies in the range (all values equal: the middle).
        let at = |v: f64| if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
        for (y, row) in h.cells.iter().enumerate() {
            for (x, c) in row.iter().enumerate() {
                let (x0, y0) = (x as f64, y as f64);
                let fill = match c {
                    Some((v, _)) => ramp(at(*v)),
                    None => EMPTY_CELL,
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                        fill.filled(),
                    )))
                    .map_err(err)?;
                if let Some((_, text)) = c {
                    let colour = label_colour(fill);
                    let style = ("sans-serif", TICK_FONT)
                        .into_font()
                        .color(&colour)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    chart
                        .draw_series(std::iter::once(Text::new(
                            text.clone(),
                            (x0 + 0.5, y0 + 0.5),
                            style,
                        )))
                        .map_err(err)?;
                }
            }
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// A control chart: a statistic of samples in their order, its centre line and its limits;
/// samples outside the limits marked, and those given a name labelled beside their point.
pub struct ControlChart<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    /// Each sample (or run of samples shown as one), in order: its position on x and the
    /// smallest and largest statistic of its samples (equal for one sample: a point; a run is
    /// a line from one to the other). Points thin as there are more of them.
    pub samples: &'a [(f64, f64, f64)],
    /// The names of positions 1, 2, …, written under the axis in place of numbers where they
    /// fit (empty: numbers).
    pub names: &'a [String],
    /// The samples' legend text.
    pub samples_label: &'a str,
    /// The centre line and its legend text.
    pub centre: (f64, &'a str),
    /// The lower and upper limits and their legend text.
    pub limits: (f64, f64, &'a str),
    /// Samples outside the limits: position, statistic and the name written beside it (""
    /// for none), and their legend text.
    pub outside: &'a [(f64, f64, String)],
    pub outside_label: &'a str,
}

/// A label's box in pixels: left, top, right, bottom.
type LabelBox = (i32, i32, i32, i32);

/// Where each label goes (its box; the text is drawn from the box's left, centred on its
/// middle): beside its point `(x, y, text, up)` in pixels, right of it where it fits inside
/// `area` (else left), on the point's line or moved a line at a time (up first when `up`, else
/// down first; then to the other side) to the nearest place inside `area` that overlaps no
/// box placed before it nor `taken` (e.g. the legend). A label that finds no free place
/// keeps its point's line.
fn place_labels(
    points: &[(i32, i32, &str, bool)],
    area: LabelBox,
    taken: &[LabelBox],
) -> Vec<LabelBox> {
    const H: i32 = 15;
    let mut placed: Vec<LabelBox> = taken.to_vec();
    let mut out = Vec::with_capacity(points.len());
    for &(x, y, text, up) in points {
        let w = text_width(text).ceil() as i32 + 4;
        let right = x + 8 + w <= area.2;
        let sides = [right, !right].map(|r| {
            let left = if r { x + 8 } else { x - 8 - w };
            left.clamp(area.0, (area.2 - w).max(area.0))
        });
        let first = if up { -H } else { H };
        let offsets = std::iter::once(0).chain((1..=12).flat_map(|k| [k * first, -k * first]));
        let at = |left: i32, dy: i32| {
            let top = y - H / 2 + dy;
            (left, top, left + w, top + H)
        };
        let inside = |b: &LabelBox| b.1 >= area.1 && b.3 <= area.3;
        let free = |b: &LabelBox| {
            !placed
                .iter()
                .any(|p| b.0 < p.2 && p.0 < b.2 && b.1 < p.3 && p.1 < b.3)
        };
        let b = offsets
            .flat_map(|dy| sides.map(|left| at(left, dy)))
            .find(|b| inside(b) && free(b))
            .unwrap_or_else(|| {
                let top = (y - H / 2).clamp(area.1, (area.3 - H).max(area.1));
                (sides[0], top, sides[0] + w, top + H)
            });
        placed.push(b);
        out.push(b);
    }
    out
}

/// Draw a [`ControlChart`].
pub fn control_chart(c: &ControlChart) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        blank(&root)?;
        let x_lo = c.samples.iter().map(|s| s.0).fold(f64::INFINITY, f64::min);
        let x_hi = c
            .samples
            .iter()
            .map(|s| s.0)
            .fold(f64::NEG_INFINITY, f64::max);
        let (x_lo, x_hi) = if x_lo.is_finite() {
            (x_lo - 0.5, x_hi + 0.5)
        } else {
            (0.5, 1.5)
        };
        let (mut lo, mut hi) = bounds(
            c.samples
                .iter()
                .flat_map(|s| [s.1, s.2])
                .chain(c.outside.iter().map(|o| o.1))
                .chain([c.centre.0, c.limits.0, c.limits.1]),
        );
        // Room above the data for the legend (four entries) and a line of labels below.
        let plot_px = SIZE.1 as f64 - 30.0 - 30.0 - 45.0;
        let frac = 110.0 / plot_px;
        hi += (hi - lo) * frac / (1.0 - frac);
        lo -= (hi - lo) * 18.0 / plot_px;
        let d = decimals(hi - lo);
        let slot_px = (SIZE.0 as f64 - 30.0 - 80.0) / (x_hi - x_lo);
        let named = !c.names.is_empty() && c.names.iter().all(|n| text_width(n) + 8.0 <= slot_px);
        let mut chart = ChartBuilder::on(&root)
            .caption(c.title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(x_lo..x_hi, lo..hi)
            .map_err(err)?;
        let whole = |v: &f64| {
            if (v - v.round()).abs() < 1e-9 {
                short_count(*v)
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_desc(c.x_label)
            .y_desc(c.y_label)
            .x_labels(if named { 0 } else { 8 })
            .y_labels(10)
            .label_style(tick_style())
            .x_label_formatter(&whole)
            .y_label_formatter(&|v| y_tick(*v, d, YUnit::Plain))
            .draw()
            .map_err(err)?;
        if named {
            for (i, name) in c.names.iter().enumerate() {
                let (px, py) = chart.backend_coord(&(i as f64 + 1.0, lo));
                root.draw(&Text::new(
                    name.clone(),
                    (px, py + 6),
                    tick_style().pos(Pos::new(HPos::Center, VPos::Top)),
                ))
                .map_err(err)?;
            }
        }
        let limit = RGBColor(200, 120, 0);
        for (y, name) in [(c.limits.1, c.limits.2), (c.limits.0, "")] {
            let series = chart
                .draw_series(DashedLineSeries::new(
                    [(x_lo, y), (x_hi, y)],
                    8,
                    5,
                    limit.stroke_width(2),
                ))
                .map_err(err)?;
            if !name.is_empty() {
                series.label(name).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 15, y)], limit.stroke_width(2))
                });
            }
        }
        chart
            .draw_series(LineSeries::new(
                [(x_lo, c.centre.0), (x_hi, c.centre.0)],
                BLACK.stroke_width(1),
            ))
            .map_err(err)?
            .label(c.centre.1)
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], BLACK.stroke_width(1)));
        // Thinner marks as there are more of them: about 800 pixels for the samples.
        let n = c.samples.len();
        let r: i32 = match n {
            0..=60 => 4,
            61..=150 => 3,
            _ => 2,
        };
        let dots = c.samples.iter().filter(|s| s.1 == s.2);
        let runs = c.samples.iter().filter(|s| s.1 != s.2);
        let dots = chart
            .draw_series(dots.map(|s| Circle::new((s.0, s.1), r, BLUE.filled())))
            .map_err(err)?;
        // The legend shows a run's line when there are runs, else a point.
        if c.samples.iter().all(|s| s.1 == s.2) {
            dots.label(c.samples_label)
                .legend(move |(x, y)| Circle::new((x + 7, y), r, BLUE.filled()));
        } else {
            chart
                .draw_series(
                    runs.map(|s| {
                        PathElement::new(vec![(s.0, s.1), (s.0, s.2)], BLUE.stroke_width(1))
                    }),
                )
                .map_err(err)?
                .label(c.samples_label)
                .legend(|(x, y)| {
                    PathElement::new(vec![(x + 7, y - 6), (x + 7, y + 6)], BLUE.stroke_width(1))
                });
        }
        if !c.outside.is_empty() {
            let ro = r.max(3);
            chart
                .draw_series(
                    c.outside
                        .iter()
                        .map(|o| Circle::new((o.0, o.1), ro, RED.filled())),
                )
                .map_err(err)?
                .label(c.outside_label)
                .legend(move |(x, y)| Circle::new((x + 7, y), ro, RED.filled()));
        }
        // The legend at the top right, in the room left for it; the names keep clear of it.
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight, 0.9)?;
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        let area = (xr.start, yr.start, xr.end, yr.end);
        let widest = [c.samples_label, c.outside_label, c.limits.2, c.centre.1]
            .iter()
            .map(|t| text_width(t))
            .fold(0.0, f64::max);
        let legend = (
            xr.end - 45 - widest.ceil() as i32,
            yr.start,
            xr.end,
            yr.start + 100,
        );
        let names: Vec<(i32, i32, &str, bool)> = c
            .outside
            .iter()
            .filter(|o| !o.2.is_empty())
            .map(|o| {
                let (px, py) = chart.backend_coord(&(o.0, o.1));
                (px, py, o.2.as_str(), o.1 >= c.centre.0)
            })
            .collect();
        let boxes = place_labels(&names, area, &[legend]);
        let label_style = tick_style().color(&RGBColor(160, 0, 0));
        for (&(px, py, text, _), b) in names.iter().zip(&boxes) {
            let (tx, ty) = (b.0 + 2, (b.1 + b.3) / 2);
            if (ty - py).abs() > 8 {
                // A label moved off its point's line: a thin leader to it.
                let from = if tx > px { (px + 3, py) } else { (px - 3, py) };
                let to = if tx > px { (b.0, ty) } else { (b.2, ty) };
                root.draw(&PathElement::new(
                    vec![from, to],
                    RGBColor(160, 0, 0).mix(0.6).stroke_width(1),
                ))
                .map_err(err)?;
            }
            root.draw(&Text::new(
                text.to_string(),
                (tx, ty),
                label_style.pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line chart of two named series and an unnamed one between them.
    fn three_lines() -> String {
        let a = [(1.0, 99.20), (2.0, 99.30), (3.0, 99.40)];
        let a2 = [(1.0, 99.25), (2.0, 99.35)];
        let b = [(1.0, 99.22), (3.0, 99.38)];
        let line = |name, points| Line {
            name,
            points,
            band: None,
            dots: false,
        };
        line_chart(
            "t",
            "x",
            "y",
            YUnit::Percent,
            &[line("A", &a), line("", &a2), line("B", &b)],
            None,
        )
        .unwrap()
    }

    /// A white background first; named series in the palette's order, an unnamed one in the
    /// colour of the named one before it (series drawn, then the legend's two entries); y ticks
    /// with enough decimals to tell them apart.
    #[test]
    fn line_chart_background_colours_and_ticks() {
        let s = three_lines();
        assert_eq!(
            s.lines().nth(1),
            Some(
                r##"<rect x="0" y="0" width="900" height="520" opacity="1" fill="#FFFFFF" stroke="none"/>"##
            )
        );
        let strokes: Vec<&str> = s
            .lines()
            .filter(|l| l.starts_with("<polyline") && l.contains(r#"stroke-width="2""#))
            .filter_map(|l| l.split("stroke=\"").nth(1)?.split('"').next())
            .collect();
        assert_eq!(
            strokes,
            ["#0000FF", "#0000FF", "#008C46", "#0000FF", "#008C46"]
        );
        let ticks: Vec<&str> = s
            .lines()
            .filter(|l| l.ends_with('%') && l.starts_with("99."))
            .collect();
        assert_eq!(ticks, ["99.20%", "99.25%", "99.30%", "99.35%", "99.40%"]);
    }

    /// A legend row: its label, its text's x and y.
    type Row = (String, i32, i32);

    /// The legend's box (x, y) and its rows.
    fn legend(svg: &str) -> ((i32, i32), Vec<Row>) {
        let num = |l: &str, key: &str| -> i32 {
            let v = l.split(&format!(" {key}=\"")).nth(1).unwrap();
            v.split('"').next().unwrap().parse().unwrap()
        };
        let lines: Vec<&str> = svg.lines().collect();
        let bx = lines
            .iter()
            .find(|l| l.starts_with("<rect") && l.contains(r#"opacity="0.8""#))
            .expect("a legend box");
        let rows = lines
            .windows(2)
            .filter(|w| w[0].starts_with("<text") && w[0].contains(r#"font-size="9.677"#))
            .map(|w| (w[1].to_string(), num(w[0], "x"), num(w[0], "y")))
            .collect();
        ((num(bx, "x"), num(bx, "y")), rows)
    }

    /// Legend markers: each at the rows' left edge, 15 px wide, centred on its label's line
    /// (a band's 15×10 swatch, a line's stroke, a dot's circle in the middle).
    #[test]
    fn legend_markers_sit_beside_their_labels() {
        let pts = [(1000.0, 99.0), (2000.0, 99.2), (3000.0, 99.1)];
        let band = [
            (1000.0, 98.0, 100.0),
            (2000.0, 98.5, 99.5),
            (3000.0, 98.8, 99.4),
        ];
        let dots = [(1500.0, 99.3), (2500.0, 99.6)];
        let line = |name, points, band, dots| Line {
            name,
            points,
            band,
            dots,
        };
        let s = line_chart(
            "RTP",
            "rounds",
            "RTP (%)",
            YUnit::Percent,
            &[
                line("estimate", &pts, Some(&band), false),
                line("points", &dots, None, true),
            ],
            Some((99.54, "claim 99.54%")),
        )
        .unwrap();
        let (_, rows) = legend(&s);
        let labels: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        // With more than one series the band's entry names its series.
        assert_eq!(
            labels,
            ["estimate: 95% band", "estimate", "points", "claim 99.54%"]
        );
        // The markers come after the labels, in the same order.
        let tail: Vec<&str> = s.lines().rev().skip(1).take(4).collect();
        let text_x = rows[0].1;
        let left = text_x - 30;
        let mid = |r: &Row| r.2 + 5;
        assert!(rows.iter().all(|r| r.1 == text_x));
        assert_eq!(
            tail[3],
            format!(
                r##"<rect x="{left}" y="{}" width="15" height="10" opacity="0.15" fill="#0000FF" stroke="none"/>"##,
                mid(&rows[0]) - 5
            )
        );
        assert_eq!(
            tail[2],
            format!(
                r##"<polyline fill="none" opacity="1" stroke="#0000FF" stroke-width="2" points="{left},{y} {},{y} "/>"##,
                left + 15,
                y = mid(&rows[1])
            )
        );
        assert_eq!(
            tail[1],
            format!(
                r##"<circle cx="{}" cy="{}" r="4" opacity="1" fill="#008C46" stroke="none" stroke-width="1"/>"##,
                left + 7,
                mid(&rows[2])
            )
        );
        assert_eq!(
            tail[0],
            format!(
                r##"<polyline fill="none" opacity="1" stroke="#FF0000" stroke-width="2" points="{left},{y} {},{y} "/>"##,
                left + 15,
                y = mid(&rows[3])
            )
        );
        // One series: its band is just "95% band".
        let one = line_chart(
            "RTP",
            "rounds",
            "RTP (%)",
            YUnit::Percent,
            &[line("estimate", &pts, Some(&band), false)],
            None,
        )
        .unwrap();
        let labels: Vec<String> = legend(&one).1.into_iter().map(|r| r.0).collect();
        assert_eq!(labels, ["95% band", "estimate"]);
    }

    /// The legend goes to the first free corner of lower right, upper right, upper left, lower
    /// left (free: no point in its outer 40% of the width and 30% of the height), else lower
    /// right. Data away from 0 on both axes (the corner test works in the axes' ranges).
    #[test]
    fn the_legend_takes_the_first_free_corner() {
        // The legend's corner for a series (dots, or a line with a band), in data
        // coordinates 0..10 on both axes.
        let at_band = |pts: &[(f64, f64)], band: Option<&[(f64, f64, f64)]>| {
            let pts: Vec<(f64, f64)> = pts
                .iter()
                .map(|&(x, y)| (1000.0 + 100.0 * x, 50.0 + y))
                .collect();
            let band: Option<Vec<(f64, f64, f64)>> = band.map(|b| {
                b.iter()
                    .map(|&(x, lo, hi)| (1000.0 + 100.0 * x, 50.0 + lo, 50.0 + hi))
                    .collect()
            });
            let s = line_chart(
                "t",
                "x",
                "y",
                YUnit::Plain,
                &[Line {
                    name: "s",
                    points: &pts,
                    band: band.as_deref(),
                    dots: band.is_none(),
                }],
                None,
            )
            .unwrap();
            let ((x, y), _) = legend(&s);
            (
                if x > 450 { "right" } else { "left" },
                if y > 260 { "lower" } else { "upper" },
            )
        };
        let at = |pts: &[(f64, f64)]| at_band(pts, None);
        let rising: Vec<(f64, f64)> = (0..=10).map(|i| (i as f64, i as f64)).collect();
        let falling: Vec<(f64, f64)> = (0..=10).map(|i| (i as f64, 10.0 - i as f64)).collect();
        assert_eq!(at(&rising), ("right", "lower"));
        assert_eq!(at(&falling), ("right", "upper"));
        // Both right corners taken; the upper left free (its point is mid-height).
        assert_eq!(
            at(&[(10.0, 0.0), (10.0, 10.0), (0.0, 5.0)]),
            ("left", "upper")
        );
        // Only the lower left free (a point just outside it on each axis).
        assert_eq!(
            at(&[
                (10.0, 0.0),
                (10.0, 10.0),
                (0.0, 10.0),
                (4.5, 2.0),
                (2.0, 3.5)
            ]),
            ("left", "lower")
        );
        // Every corner taken: lower right.
        assert_eq!(
            at(&[(0.0, 0.0), (0.0, 10.0), (10.0, 0.0), (10.0, 10.0)]),
            ("right", "lower")
        );
        // The edges (the axes run 8% beyond the data): a point at 63% of the width and 28%
        // of the height is in the lower right.
        assert_eq!(
            at(&[(10.0, 10.0), (6.5, 2.5), (0.0, 10.0), (5.0, 5.0)]),
            ("left", "lower")
        );
        // A band counts as well as the points: its lower edge (at 0 from x = 9) takes the
        // lower right, its upper edge (10 at x = 0) the upper left; the upper right stays free.
        let pts: Vec<(f64, f64)> = (0..=10).map(|i| (i as f64, 5.0)).collect();
        let band: Vec<(f64, f64, f64)> = (0..=10)
            .map(|i| match i {
                0 => (0.0, 4.0, 10.0),
                9 | 10 => (i as f64, 0.0, 6.0),
                _ => (i as f64, 4.0, 6.0),
            })
            .collect();
        assert_eq!(at_band(&pts, Some(&band)), ("right", "upper"));
        // Just outside the lower right (59% of the axis' width, though 60% of the data's; 32%
        // of its height): it stays free.
        assert_eq!(
            at(&[
                (10.0, 10.0),
                (6.0, 2.0),
                (7.0, 2.9),
                (0.0, 10.0),
                (0.0, 0.0)
            ]),
            ("right", "lower")
        );
    }

    #[test]
    fn plots_are_svg_documents() {
        let pts = [(1.0, 99.0), (2.0, 99.2), (3.0, 99.1)];
        let band = [(1.0, 98.0, 100.0), (2.0, 98.5, 99.5), (3.0, 98.8, 99.4)];
        let s = line_chart(
            "RTP",
            "rounds",
            "RTP (%)",
            YUnit::Percent,
            &[Line {
                name: "estimate",
                points: &pts,
                band: Some(&band),
                dots: false,
            }],
            Some((99.54, "claim 99.54%")),
        )
        .unwrap();
        assert!(
            s.starts_with("<svg") && s.trim_end().ends_with("</svg>"),
            "{}",
            &s[..80.min(s.len())]
        );
        assert!(s.contains("claim 99.54%"));
        let bars = [Bar::new("2", 9.0).with_ci(8.0, 10.0), Bar::new("A", -34.0)];
        let b = bar_chart(&BarChart {
            title: "EV by up card",
            x_label: "",
            y_label: "EV (%)",
            y_unit: YUnit::Percent,
            bars: &bars,
            hline: Some((0.0, "zero")),
            histogram: false,
        })
        .unwrap();
        assert!(b.starts_with("<svg") && b.contains("<rect") && b.contains("95% CI"));
        assert!(mark(&b, "INTERRUPTED").contains(">INTERRUPTED</text>\n</svg>"));
        // A positive bar whose interval reaches below 0: the axis goes below 0 too (the
        // lower whisker is not cut off at the axis).
        let bars = [Bar::new("banker", 0.08).with_ci(-0.16, 0.32)];
        let b = bar_chart(&BarChart {
            title: "RTP minus exact",
            x_label: "",
            y_label: "points",
            y_unit: YUnit::Plain,
            bars: &bars,
            hline: None,
            histogram: false,
        })
        .unwrap();
        assert!(b.contains("\n-0.10\n"), "no negative tick");
    }

    #[test]
    fn short_counts() {
        assert_eq!(short_count(0.0), "0");
        assert_eq!(short_count(950.0), "950");
        assert_eq!(short_count(200000.0), "200k");
        assert_eq!(short_count(1_500_000.0), "1.5M");
        assert_eq!(short_count(2e9), "2G");
    }

    #[test]
    fn decimals_follow_the_range() {
        assert_eq!(decimals(0.5), 2);
        assert_eq!(decimals(30.0), 0);
        assert_eq!(y_tick(99.5, 1, YUnit::Percent), "99.5%");
    }

    #[test]
    fn helpers_pin_their_values() {
        assert_eq!(bounds([].into_iter()), (0.0, 1.0));
        assert_eq!(bounds([f64::NAN, f64::INFINITY].into_iter()), (0.0, 1.0));
        let (lo, hi) = bounds([2.0, f64::NAN, 1.0, 1.5].into_iter());
        assert!(
            (lo - 0.92).abs() < 1e-12 && (hi - 2.08).abs() < 1e-12,
            "{lo} {hi}"
        );
        assert_eq!(bounds([5.0].into_iter()), (5.0 - 1e-9, 5.0 + 1e-9));
        for (range, d) in [
            (0.0, 2),
            (f64::NAN, 2),
            (-0.5, 2),
            (0.05, 3),
            (1e-9, 6),
            (1000.0, 0),
        ] {
            assert_eq!(decimals(range), d, "{range}");
        }
        assert_eq!(y_tick(2.345, 2, YUnit::Plain), "2.35");
        assert_eq!(y_tick(-1.0, 0, YUnit::Percent), "-1%");
        assert_eq!(y_tick(-1e-17, 1, YUnit::Plain), "0.0");
        assert_eq!(y_tick(-0.04, 1, YUnit::Percent), "0.0%");
        assert_eq!(y_tick(-0.05001, 1, YUnit::Plain), "-0.1");
        for (v, t) in [
            (999.0, "999"),
            (1000.0, "1k"),
            (-2500.0, "-2.5k"),
            (1e6, "1M"),
            (-1.25e9, "-1.25G"),
            (0.5, "0.5"),
        ] {
            assert_eq!(short_count(v), t, "{v}");
        }
        // One character is 13 * 0.62 / 1.24 = 6.5 px.
        assert!((text_width("abcd") - 26.0).abs() < 1e-9);
        assert_eq!(fit_label("short"), "short");
        let long = "x".repeat(37);
        let cut = fit_label(&long);
        assert_eq!(cut, format!("{}…", "x".repeat(35)));
        assert_eq!(fit_label(&"x".repeat(36)), "x".repeat(36));
        let labels = |n: usize| (0..n).map(|_| "a".to_string()).collect::<Vec<_>>();
        // "a" is 6.5 px, 12.5 with its margin.
        assert_eq!(label_stride(&labels(3), 100.0), 1);
        assert_eq!(label_stride(&labels(3), 12.5), 1);
        assert_eq!(label_stride(&labels(3), 10.0), 2);
        assert_eq!(label_stride(&labels(3), 3.0), 5);
        assert_eq!(label_stride(&labels(3), 1e-6), 3);
        assert_eq!(label_stride(&[], 1e-6), 1);
    }

    /// A histogram of uneven categories (one blackjack round's net, its mass in five bins)
    /// labels every bin taller than a tenth of the tallest, though its stride (2: "0 (push)"
    /// is wider than a slot) would skip three of them; no two labels on a line touch; and the
    /// drawn SVG carries each tall bin's label.
    #[test]
    fn histogram_labels_every_tall_bin() {
        let cats = [
            ("-8", 0.0001),
            ("-6", 0.0005),
            ("-4", 0.02),
            ("-3", 0.1),
            ("-2", 3.9),
            ("-1", 43.8),
            ("-0.5", 0.5),
            ("0 (push)", 8.8),
            ("+1", 33.1),
            ("+1.5", 4.5),
            ("+2", 5.4),
            ("+3", 0.15),
            ("+4", 0.03),
            ("+6", 0.001),
            ("+8", 0.0001),
        ];
        let bars: Vec<Bar> = cats.iter().map(|&(l, v)| Bar::new(l, v)).collect();
        let mut h = chart(&bars, "net", None);
        h.histogram = true;
        let l = bar_layout(&h);
        assert_eq!(l.stride, 2, "the stride alone would skip bins");
        let tall: Vec<usize> = (0..bars.len()).filter(|&i| bars[i].value >= 4.38).collect();
        assert_eq!(tall, [5, 7, 8, 9, 10]);
        for &i in &tall {
            assert!(
                l.lines[i].is_some(),
                "{} unlabelled: {:?}",
                cats[i].0,
                l.lines
            );
        }
        let slot = (SIZE.0 as f64 - 110.0) / bars.len() as f64;
        let span = |i: usize| {
            let c = (i as f64 + 0.5) * slot;
            let w = text_width(&l.labels[i]) / 2.0;
            (c - w, c + w)
        };
        for i in 0..bars.len() {
            for j in i + 1..bars.len() {
                if l.lines[i].is_some() && l.lines[i] == l.lines[j] {
                    assert!(
                        span(i).1 <= span(j).0,
                        "{} and {} touch",
                        cats[i].0,
                        cats[j].0
                    );
                }
            }
        }
        let svg = bar_chart(&h).unwrap();
        for &i in &tall {
            let text = cats[i].0;
            assert!(svg.lines().any(|x| x.trim() == text), "{text} not drawn");
        }
        // A histogram of even bins (all tall) keeps the stride.
        let even: Vec<Bar> = (0..40).map(|i| Bar::new(format!("{i}0"), 1.0)).collect();
        let mut e = chart(&even, "", None);
        e.histogram = true;
        let le = bar_layout(&e);
        let want: Vec<Option<u8>> = (0..40).map(|i| (i % le.stride == 0).then_some(0)).collect();
        assert_eq!(le.lines, want);
        // The log scale's ticks read as percents, its bars stand on a power of ten.
        let (lb, unit) = log_bars(&[
            Bar::new("a", 40.0),
            Bar::new("b", 0.002),
            Bar::new("c", 0.0),
        ]);
        assert_eq!(unit, YUnit::LogPercent(-3));
        assert!((lb[0].value - (40f64.log10() + 3.0)).abs() < 1e-12);
        assert!((lb[1].value - (0.002f64.log10() + 3.0)).abs() < 1e-12);
        assert_eq!(lb[2].value, 0.0);
        assert_eq!(y_tick(2.0, 1, YUnit::LogPercent(-3)), "0.10%");
        assert_eq!(y_tick(4.0, 1, YUnit::LogPercent(-3)), "10%");
        assert_eq!(y_tick(5.5, 1, YUnit::LogPercent(-3)), "");
    }

    fn chart<'a>(bars: &'a [Bar], x_label: &'a str, hline: Option<(f64, &'a str)>) -> BarChart<'a> {
        BarChart {
            title: "t",
            x_label,
            y_label: "y",
            y_unit: YUnit::Plain,
            bars,
            hline,
            histogram: false,
        }
    }

    /// The bar chart's layout, pinned: slots of (900 − 30 − 80)/n px; labels turned upright
    /// when wider than a slot (6 px spare), the label area then their width + 20 px (labels
    /// are cut at 240 px, so at most 260) plus 22 for an axis title; the y axis from 0 when nothing is negative; room above
    /// for the legend's entries.
    #[test]
    fn bar_layout_pinned() {
        let w = text_width("x");
        // Ten one-character labels, positive values: slots of 79 px, labels flat, no legend.
        let ten: Vec<Bar> = (1..=10)
            .map(|i| Bar::new(format!("{}", i % 10), i as f64))
            .collect();
        let l = bar_layout(&chart(&ten, "", None));
        assert_eq!(
            (l.n, l.upright, l.stride, l.x_area, l.gap),
            (10, false, 1, 40, 0.1)
        );
        assert_eq!(l.labels[9], "0");
        // From 0 (not 0 less the 8% pad), to 10 plus the pad.
        assert_eq!(l.lo, 0.0);
        assert!((l.hi - 10.8).abs() < 1e-12, "{}", l.hi);
        // Twelve characters (78 px + 6 > 79): upright, the area 78 + 20 and 22 for the title.
        let long: Vec<Bar> = (0..10)
            .map(|i| Bar::new(format!("label-{i:06}"), 1.0))
            .collect();
        assert!((text_width(&long[0].label) - 12.0 * w).abs() < 1e-9);
        let l = bar_layout(&chart(&long, "x", None));
        assert!(l.upright);
        assert_eq!(l.x_area, 78 + 20 + 22);
        // The area stops at 260 px however long the labels (cut at 240 px anyway).
        let longer = [Bar::new("y".repeat(60), 1.0), Bar::new("z".repeat(60), 2.0)];
        let l = bar_layout(&chart(&longer, "", None));
        assert!(!l.upright, "two slots of 395 px hold them flat");
        let many: Vec<Bar> = (0..40)
            .map(|i| Bar::new(format!("{i}{}", "w".repeat(60)), 1.0))
            .collect();
        let l = bar_layout(&chart(&many, "x", None));
        assert!(l.upright && l.labels[0].ends_with('…'));
        let widest = text_width(&l.labels[0]);
        assert!(widest <= MAX_LABEL_PX && widest + 20.0 <= 260.0);
        assert_eq!(l.x_area, (widest + 20.0) as u32 + 22);
        // Two characters (13 px) in eleven slots of 71.8 px: flat.
        let two: Vec<Bar> = (10..21).map(|i| Bar::new(format!("{i}"), 1.0)).collect();
        assert!(!bar_layout(&chart(&two, "", None)).upright);
        // A negative bar, an interval and a reference line: the axis from the bounds, and
        // room above for two legend entries (70 px of a 410 px plot).
        let mixed = [Bar::new("a", 2.0).with_ci(1.0, 3.0), Bar::new("b", -1.0)];
        let l = bar_layout(&chart(&mixed, "", Some((0.5, "fair"))));
        assert_eq!((l.x_area, l.upright), (40, false));
        let (lo, hi) = (-1.0 - 0.32, 3.0 + 0.32);
        assert!((l.lo - lo).abs() < 1e-12, "{}", l.lo);
        let room = (hi - lo) * (70.0 / 410.0) / (1.0 - 70.0 / 410.0);
        assert!(
            (l.hi - (hi + room)).abs() < 1e-9,
            "{} against {}",
            l.hi,
            hi + room
        );
        // One entry (the reference line only): 50 px.
        let l = bar_layout(&chart(&mixed[1..], "", Some((0.5, "fair"))));
        let (lo, hi) = (-1.0 - 0.12, 0.5 + 0.12);
        let room = (hi - lo) * (50.0 / 410.0) / (1.0 - 50.0 / 410.0);
        assert!((l.hi - (hi + room)).abs() < 1e-9, "{}", l.hi);
        // An interval below 0 under a positive bar also keeps the axis below 0; a bar with no
        // value (NaN) does not.
        let dips = [Bar::new("a", 2.0).with_ci(-0.5, 4.0)];
        let l = bar_layout(&chart(&dips, "", None));
        assert!((l.lo - (-0.5 - 0.36)).abs() < 1e-12, "{}", l.lo);
        let gaps = [Bar::new("a", 2.0), Bar::new("b", f64::NAN)];
        assert_eq!(bar_layout(&chart(&gaps, "", None)).lo, 0.0);
        // A histogram of 200 bins: slots of 3.95 px, no gaps, every 10th bin labelled (three
        // characters need 25.5 px), never upright.
        let bins: Vec<Bar> = (0..200).map(|i| Bar::new(format!("{i}"), 1.0)).collect();
        let mut h = chart(&bins, "", None);
        h.histogram = true;
        let l = bar_layout(&h);
        assert_eq!((l.n, l.upright, l.stride, l.gap), (200, false, 10, 0.0));
        // No bars: one empty slot.
        assert_eq!(bar_layout(&chart(&[], "", None)).n, 1);
    }

    /// The drawn bar chart: bars 0.8 of a slot wide with 0.2 between them, each error bar on
    /// its bar's centre with caps 0.15 of a slot each side, a legend only when there is
    /// something to name, y ticks with the decimals of the axis' range.
    #[test]
    fn bar_chart_geometry() {
        let num = |l: &str, key: &str| -> f64 {
            let v = l.split(&format!(" {key}=\"")).nth(1).unwrap();
            v.split('"').next().unwrap().parse().unwrap()
        };
        let bars: Vec<Bar> = (1..=5)
            .map(|v| Bar::new(format!("b{v}"), v as f64).with_ci(v as f64 - 0.5, v as f64 + 0.5))
            .collect();
        let svg = bar_chart(&chart(&bars, "", None)).unwrap();
        let rects: Vec<(f64, f64)> = svg
            .lines()
            .filter(|l| l.starts_with("<rect") && l.contains(r##"opacity="0.6" fill="#0000FF""##))
            .map(|l| (num(l, "x"), num(l, "width")))
            .collect();
        assert_eq!(rects.len(), 5, "{svg}");
        let slot = (900.0 - 30.0 - 80.0) / 5.0;
        let near =
            |a: f64, b: f64, what: &str| assert!((a - b).abs() <= 2.0, "{what}: {a} against {b}");
        for (i, &(x, w)) in rects.iter().enumerate() {
            near(w, 0.8 * slot, "bar width");
            if i > 0 {
                near(x - rects[i - 1].0, slot, "bar spacing");
            }
        }
        let paths: Vec<Vec<(f64, f64)>> = svg
            .lines()
            .filter(|l| {
                l.starts_with("<polyline") && l.contains(r##"stroke="#000000" stroke-width="2""##)
            })
            .map(|l| {
                let pts = l
                    .split("points=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                pts.split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .filter(|p: &Vec<(f64, f64)>| p.len() == 6)
            .collect();
        assert_eq!(paths.len(), 5, "{svg}");
        for (p, &(x, w)) in paths.iter().zip(&rects) {
            near(p[2].0, x + w / 2.0, "error bar on the bar's centre");
            near(p[1].0 - p[2].0, 0.15 * slot, "cap");
            near(p[2].0 - p[0].0, 0.15 * slot, "cap");
        }
        // Each label centred under its bar, 6 px below the axis (the bars start at 0 here).
        let lines: Vec<&str> = svg.lines().collect();
        let bottom: Vec<f64> = svg
            .lines()
            .filter(|l| l.starts_with("<rect") && l.contains(r##"opacity="0.6" fill="#0000FF""##))
            .map(|l| num(l, "y") + num(l, "height"))
            .collect();
        for (i, &(x, w)) in rects.iter().enumerate() {
            let at = lines
                .iter()
                .position(|l| *l == format!("b{}", i + 1))
                .unwrap();
            near(num(lines[at - 1], "x"), x + w / 2.0, "label under its bar");
            near(
                num(lines[at - 1], "y"),
                bottom[i] + 6.0,
                "label below the axis",
            );
        }
        // Upright labels (wider than a slot) start 6 px below the axis too, under their bars.
        let long: Vec<Bar> = (1..=12)
            .map(|i| Bar::new(format!("long label {i:03}"), 1.0))
            .collect();
        let up = bar_chart(&chart(&long, "", None)).unwrap();
        let ul: Vec<&str> = up.lines().collect();
        let rect = ul
            .iter()
            .find(|l| l.starts_with("<rect") && l.contains(r##"opacity="0.6" fill="#0000FF""##))
            .unwrap();
        let at = ul.iter().position(|l| *l == "long label 001").unwrap();
        assert!(ul[at - 1].contains("rotate"), "{}", ul[at - 1]);
        near(
            num(ul[at - 1], "x"),
            num(rect, "x") + num(rect, "width") / 2.0,
            "upright label x",
        );
        near(
            num(ul[at - 1], "y"),
            num(rect, "y") + num(rect, "height") + 6.0,
            "upright label y",
        );
        // A histogram labels every stride-th bin only: 200 bins, every 10th.
        let bins: Vec<Bar> = (0..200).map(|i| Bar::new(format!("{i}"), 1.0)).collect();
        let mut h = chart(&bins, "", None);
        h.histogram = true;
        let hist = bar_chart(&h).unwrap();
        let hl: Vec<&str> = hist.lines().collect();
        let labelled: Vec<&str> = hl
            .windows(2)
            .filter(|w| {
                w[0].contains(r#"text-anchor="middle""#)
                    && w[0].contains(&format!("font-size=\"{}\"", TICK_FONT / 1.24))
            })
            .map(|w| w[1])
            .filter(|t| t.parse::<u32>().is_ok())
            .collect();
        let want: Vec<String> = (0..200).step_by(10).map(|i| i.to_string()).collect();
        assert_eq!(labelled, want, "{hist}");
        // A legend box (the 95% CI entry); none without an interval or a reference line; one
        // for a reference line alone.
        let legend = |svg: &str| svg.contains(r##"opacity="0.85" fill="#FFFFFF""##);
        assert!(legend(&svg));
        let plain = [Bar::new("a", 9.0), Bar::new("b", -9.0)];
        let svg = bar_chart(&chart(&plain, "", None)).unwrap();
        assert!(!legend(&svg));
        // The two bars, +9 and −9, have the same height, on either side of 0.
        let hs: Vec<(f64, f64)> = svg
            .lines()
            .filter(|l| l.starts_with("<rect") && l.contains(r##"opacity="0.6" fill="#0000FF""##))
            .map(|l| (num(l, "y"), num(l, "height")))
            .collect();
        near(hs[0].1, hs[1].1, "heights");
        near(hs[0].0 + hs[0].1, hs[1].0, "the zero line between them");
        assert!(legend(
            &bar_chart(&chart(&plain, "", Some((1.0, "fair")))).unwrap()
        ));
        // From −10.44 to 10.44: whole-number ticks (a range of 20.9 over 10 ticks).
        let ticks: Vec<&str> = svg.lines().filter(|l| l.parse::<f64>().is_ok()).collect();
        assert!(
            ticks.contains(&"0") && ticks.iter().all(|t| !t.contains('.')),
            "{ticks:?}"
        );
    }

    #[test]
    fn bars_and_marks() {
        assert_eq!(Bar::new("a", 1.0).with_ci(f64::NAN, 2.0).ci, None);
        assert_eq!(Bar::new("a", 1.0).with_ci(0.0, f64::INFINITY).ci, None);
        assert_eq!(Bar::new("a", 1.0).with_ci(0.5, 2.0).ci, Some((0.5, 2.0)));
        assert_eq!(binomial_bar("n", 3, 0), Bar::new("n", 0.0));
        let b = binomial_bar("h", 50, 100);
        let h = 1.96 * (0.25f64 / 100.0).sqrt();
        assert_eq!(b.value, 50.0);
        assert_eq!(b.ci, Some((100.0 * (0.5 - h), 100.0 * (0.5 + h))));
        // The interval is clipped to 0..100%.
        let low = binomial_bar("l", 1, 4).ci.unwrap();
        let high = binomial_bar("h", 3, 4).ci.unwrap();
        assert_eq!((low.0, high.1), (0.0, 100.0));
        assert!(low.1 > 25.0 && high.0 < 75.0);
        assert_eq!(
            mark("<svg>x</svg>", "a<b&c>"),
            "<svg>x<text x=\"15\" y=\"18\" font-family=\"sans-serif\" font-size=\"13\" font-weight=\"bold\" fill=\"#CC0000\">a&lt;b&amp;c&gt;</text>\n</svg>"
        );
        assert_eq!(mark("not svg", "x"), "not svg");
    }

    /// A heat map's cells: column x and row y from the bottom left, shaded along the ramp from
    /// light yellow (the lowest value) to dark blue (the highest) in proportion (half way: the
    /// middle stop; three quarters: the seventh; values from 10, so the lowest is not 0), grey
    /// where empty; each label centred in its cell, white on the dark cells, black on the
    /// light ones; the column names centred under their cells, the row names right of the axis
    /// beside theirs. All values equal: the middle shade.
    #[test]
    fn heat_map_geometry_and_shades() {
        // An attribute of an SVG element's line.
        fn attr<'a>(l: &'a str, key: &str) -> &'a str {
            let v = l.split(&format!(" {key}=\"")).nth(1).unwrap();
            v.split('"').next().unwrap()
        }
        let num = |l: &str, key: &str| -> f64 { attr(l, key).parse().unwrap() };
        let draw = |cols: &[String], rows: &[String], cells: &[Vec<Option<(f64, String)>>]| {
            heat_map(&HeatMap {
                title: "t",
                x_label: "x",
                y_label: "y",
                columns: cols,
                rows,
                cells,
            })
            .unwrap()
        };
        let names = |v: &[&str]| -> Vec<String> { v.iter().map(|s| s.to_string()).collect() };
        let cell = |v: f64, t: &str| Some((v, t.to_string()));
        let cols = names(&["c0", "c1", "c2"]);
        let rows = names(&["r0", "r1"]);
        let cells = vec![
            vec![cell(10.0, "v0"), cell(11.5, "v1"), cell(12.25, "v2")],
            vec![cell(13.0, "v3"), None, cell(13.0, "v5")],
        ];
        let svg = draw(&cols, &rows, &cells);
        let lines: Vec<&str> = svg.lines().collect();
        // (x, y, width, height, fill) of the cells, in drawing order (row by row).
        let rects: Vec<(f64, f64, f64, f64, &str)> = lines
            .iter()
            .filter(|l| l.starts_with("<rect") && !l.contains("width=\"900\""))
            .map(|l| {
                let fill = attr(l, "fill");
                (
                    num(l, "x"),
                    num(l, "y"),
                    num(l, "width"),
                    num(l, "height"),
                    fill,
                )
            })
            .collect();
        let fills: Vec<&str> = rects.iter().map(|r| r.4).collect();
        assert_eq!(
            fills,
            ["#FFFFD9", "#41B6C4", "#225EA8", "#081D58", "#D7D7D7", "#081D58"]
        );
        let near =
            |a: f64, b: f64, what: &str| assert!((a - b).abs() <= 1.0, "{what}: {a} against {b}");
        let (x0, y0, w, h, _) = rects[0];
        for (i, r) in rects.iter().enumerate() {
            let (cx, ry) = (i % 3, i / 3);
            near(r.0, x0 + cx as f64 * w, "cell x");
            near(r.1, y0 - ry as f64 * h, "cell y");
            near(r.2, w, "cell width");
            near(r.3, h, "cell height");
        }
        // The labels: where each text line is, its colour from the line before.
        let text = |t: &str| -> (f64, f64, &str) {
            let at = lines
                .iter()
                .position(|l| *l == t)
                .unwrap_or_else(|| panic!("no {t}"));
            let l = lines[at - 1];
            let fill = attr(l, "fill");
            (num(l, "x"), num(l, "y"), fill)
        };
        for (i, (label, colour)) in [
            ("v0", "#000000"),
            ("v1", "#000000"),
            ("v2", "#FFFFFF"),
            ("v3", "#FFFFFF"),
            ("v5", "#FFFFFF"),
        ]
        .into_iter()
        .enumerate()
        {
            let r = rects[if i < 4 { i } else { 5 }];
            let (x, y, fill) = text(label);
            near(x, r.0 + r.2 / 2.0, label);
            near(y, r.1 + r.3 / 2.0, label);
            assert_eq!(fill, colour, "{label}");
        }
        let bottom = y0 + h;
        for (i, c) in ["c0", "c1", "c2"].into_iter().enumerate() {
            let (x, y, _) = text(c);
            near(x, x0 + (i as f64 + 0.5) * w, c);
            near(y, bottom + 8.0, c);
        }
        for (i, r) in ["r0", "r1"].into_iter().enumerate() {
            let (x, y, _) = text(r);
            near(x, x0 - 8.0, r);
            near(y, y0 + h / 2.0 - i as f64 * h, r);
        }
        // One value throughout: the middle shade, black labels.
        let svg = draw(&names(&["a"]), &names(&["b"]), &[vec![cell(7.0, "seven")]]);
        assert!(svg.contains(r##"fill="#41B6C4""##), "{svg}");
        assert!(
            !svg.contains(
                r##"fill="#FFFFFF">
seven"##
            ),
            "{svg}"
        );
    }

    /// The colour scale at its stops and between them (by hand: an eighth of the way from
    /// #41B6C4 to #1D91C0 at 0.6 is 0.8 of the way, (36.2, 152.4, 192.8)), clamped outside
    /// [0, 1]; WCAG luminance by hand (mid grey #808080: 0.2159) and the label colour either
    /// side of where white and black stand out equally (L = 0.179: #757575 has 0.1779, #767676
    /// 0.1812), and on the ramp (white from about 70% of the way).
    #[test]
    fn heat_map_colours() {
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        let at = |t: f64| hex(ramp(t));
        assert_eq!(at(0.0), "#FFFFD9");
        assert_eq!(at(-1.0), "#FFFFD9");
        assert_eq!(at(0.125), "#EDF8B1");
        assert_eq!(at(0.5), "#41B6C4");
        assert_eq!(at(0.6), "#2498C1");
        assert_eq!(at(0.0625), "#F6FCC5");
        assert_eq!(at(1.0), "#081D58");
        assert_eq!(at(2.0), "#081D58");
        // Each step darker than the one before, and none as grey as an empty cell.
        let shades: Vec<RGBColor> = (0..=64).map(|k| ramp(k as f64 / 64.0)).collect();
        for w in shades.windows(2) {
            assert!(
                luminance(w[1]) < luminance(w[0]),
                "{} {}",
                hex(w[0]),
                hex(w[1])
            );
        }
        for c in &shades {
            let spread =
                [c.0, c.1, c.2].iter().max().unwrap() - [c.0, c.1, c.2].iter().min().unwrap();
            assert!(spread >= 38, "{} is nearly grey", hex(*c));
        }
        let near = |a: f64, b: f64| assert!((a - b).abs() < 5e-5, "{a} against {b}");
        near(luminance(BLACK), 0.0);
        near(luminance(WHITE), 1.0);
        near(luminance(RGBColor(128, 128, 128)), 0.21586);
        near(luminance(RGBColor(255, 0, 0)), 0.2126);
        near(luminance(RGBColor(0, 255, 0)), 0.7152);
        near(luminance(RGBColor(0, 0, 255)), 0.0722);
        near(luminance(RGBColor(0, 0, 10)), 0.0722 * 10.0 / 255.0 / 12.92);
        near(luminance(RGBColor(0x41, 0xB6, 0xC4)), 0.38568);
        assert_eq!(label_colour(RGBColor(0x75, 0x75, 0x75)), WHITE);
        assert_eq!(label_colour(RGBColor(0x76, 0x76, 0x76)), BLACK);
        assert_eq!(label_colour(ramp(0.625)), BLACK);
        assert_eq!(label_colour(ramp(0.7)), WHITE);
        assert_eq!(label_colour(EMPTY_CELL), BLACK);
    }

    /// No colour of 8-bit channels has black and white labels stand out exactly equally, so
    /// `label_colour`'s `>` against `>=` never differs (the reason given for excluding that
    /// mutant in .cargo/mutants.toml): all 2^24 colours checked.
    #[test]
    fn no_colour_ties_the_label_contrast() {
        let mut ties = 0;
        let mut white = 0u32;
        for c in 0..1u32 << 24 {
            let (on_white, on_black) =
                contrasts(RGBColor((c >> 16) as u8, (c >> 8) as u8, c as u8));
            ties += (on_white == on_black) as u32;
            white += (on_white > on_black) as u32;
        }
        assert_eq!(ties, 0);
        // Both label colours are used (about a fifth of all colours take white).
        assert!(white > 1 << 21 && white < 1 << 23, "{white}");
    }

    #[test]
    fn a_heat_map_labels_its_cells_and_refuses_a_ragged_grid() {
        let cols = ["a".to_string(), "b".to_string()];
        let rows = ["r".to_string()];
        let cells = vec![vec![Some((1.0, "one".to_string())), None]];
        let svg = heat_map(&HeatMap {
            title: "t",
            x_label: "x",
            y_label: "y",
            columns: &cols,
            rows: &rows,
            cells: &cells,
        })
        .unwrap();
        // plotters writes each text on a line of its own.
        for text in ["one", "\na\n", "\nb\n", "\nr\n", "\nt\n"] {
            assert!(svg.contains(text), "{text} missing");
        }
        // A row short of its columns, rows without columns, columns without rows, nothing.
        let refused =
            |columns: &[String], rows: &[String], cells: &[Vec<Option<(f64, String)>>]| {
                heat_map(&HeatMap {
                    title: "t",
                    x_label: "x",
                    y_label: "y",
                    columns,
                    rows,
                    cells,
                })
                .unwrap_err()
                .contains("do not match")
            };
        assert!(refused(&cols, &rows, &[vec![None]]));
        assert!(refused(&[], &rows, &[vec![]]));
        assert!(refused(&cols, &[], &[]));
        assert!(refused(&[], &[], &[]));
    }

    #[test]
    fn control_chart_labels_keep_clear_of_each_other_and_the_legend() {
        // Twelve labels at one point, and two beside the legend at the top right.
        let area = (100, 50, 800, 450);
        let legend = (650, 50, 800, 150);
        let mut points: Vec<(i32, i32, &str, bool)> = vec![(400, 250, "2025-03-01", true); 12];
        points.push((790, 60, "day 289", true));
        points.push((795, 70, "day 293", true));
        let boxes = place_labels(&points, area, &[legend]);
        let all: Vec<LabelBox> = boxes.iter().copied().chain([legend]).collect();
        for (i, a) in all.iter().enumerate() {
            assert!(a.0 >= area.0 && a.2 <= area.2 && a.1 >= area.1 && a.3 <= area.3);
            for b in &all[i + 1..] {
                let overlap = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
                assert!(!overlap, "{a:?} and {b:?}");
            }
        }
        // A label that fits is on its point's line, right of it.
        assert_eq!(boxes[0].0, 408);
        assert_eq!((boxes[0].1 + boxes[0].3) / 2, 250);
    }

    #[test]
    fn a_control_chart_names_its_points_outside() {
        let samples: Vec<(f64, f64, f64)> = (1..=500)
            .map(|i| (i as f64, (i as f64).sin(), (i as f64).sin()))
            .collect();
        let outside = [(7.0, 4.5, "day 7".to_string()), (9.0, -3.2, String::new())];
        let svg = control_chart(&ControlChart {
            title: "t",
            x_label: "period",
            y_label: "z",
            samples: &samples,
            names: &[],
            samples_label: "periods",
            centre: (0.0, "expected"),
            limits: (-2.576, 2.576, "99% band"),
            outside: &outside,
            outside_label: "out of band",
        })
        .unwrap();
        assert!(svg.contains("day 7") && svg.contains("out of band"));
        // 500 points: thin marks (radius 2).
        assert!(svg.contains("r=\"2\""));
    }
}
