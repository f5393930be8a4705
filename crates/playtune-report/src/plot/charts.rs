//! Line charts, sorted means with error bars, and box plots.

use super::{DrawError, PlotError, SIZE, padded, palette, render, text};
use plotters::prelude::*;
use std::path::Path;

/// One line, optionally with a shaded band (low, high) at each x.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// The legend's name.
    pub name: String,
    /// The line's points (x, y).
    pub points: Vec<(f64, f64)>,
    /// The band: (x, low, high).
    pub band: Vec<(f64, f64, f64)>,
    /// What the band is, for the legend (e.g. "mean ± 1 standard error over 5
    /// trials"); a band should always say.
    pub band_name: String,
}

/// A line chart of several series (convergence curves, archive metrics).
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), PlotError> {
    let (x0, x1) = padded(
        series.iter().flat_map(|s| s.points.iter().map(|p| p.0)),
        0.0,
    );
    let ys = series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(|p| p.1)
            .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
    });
    let (y0, y1) = padded(ys, 0.05);
    render!(path, SIZE, |root| (|| -> Result<(), DrawError> {
        root.fill(&WHITE).map_err(text)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(x0..x1.max(x0 + 1e-9), y0..y1)
            .map_err(text)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .label_style(("sans-serif", 15))
            .draw()
            .map_err(text)?;
        for (i, s) in series.iter().enumerate() {
            let colour = palette(i);
            if !s.band.is_empty() {
                let mut poly: Vec<(f64, f64)> = s.band.iter().map(|b| (b.0, b.2)).collect();
                poly.extend(s.band.iter().rev().map(|b| (b.0, b.1)));
                let drawn = chart
                    .draw_series(std::iter::once(Polygon::new(
                        poly,
                        colour.mix(0.18).filled(),
                    )))
                    .map_err(text)?;
                if !s.band_name.is_empty() {
                    drawn.label(s.band_name.clone()).legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 20, y + 6)], colour.mix(0.18).filled())
                    });
                }
            }
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    colour.stroke_width(2),
                ))
                .map_err(text)?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        if series
            .iter()
            .any(|s| !s.name.is_empty() || !s.band_name.is_empty())
        {
            series_labels(&mut chart, SeriesLabelPosition::MiddleRight)?;
        }
        Ok(())
    })())
}

/// The NTBEA paper's Figure 2: per group, its values sorted in increasing order, each
/// with a standard-error bar. `groups` holds (name, [(mean, se)]).
pub fn sorted_error_bars(
    path: &Path,
    title: &str,
    y_label: &str,
    groups: &[(String, Vec<(f64, f64)>)],
) -> Result<(), PlotError> {
    let n = groups.iter().map(|g| g.1.len()).max().unwrap_or(1).max(1);
    let (y0, y1) = padded(
        groups
            .iter()
            .flat_map(|g| g.1.iter().flat_map(|&(m, s)| [m - s, m + s])),
        0.05,
    );
    render!(path, SIZE, |root| (|| -> Result<(), DrawError> {
        root.fill(&WHITE).map_err(text)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(0.0..(n as f64 + 1.0), y0..y1)
            .map_err(text)?;
        let rank = |x: &f64| {
            if x.fract() == 0.0 {
                format!("{}", *x as i64)
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_label_formatter(&rank)
            .x_desc("trial, sorted by mean fitness")
            .y_desc(y_label)
            .label_style(("sans-serif", 15))
            .draw()
            .map_err(text)?;
        for (i, (name, values)) in groups.iter().enumerate() {
            let colour = palette(i);
            let mut sorted = values.clone();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
            // Groups side by side within each rank, so bars do not hide each other.
            let offset = (i as f64 + 0.5) / groups.len() as f64 - 0.5;
            let pts: Vec<(f64, f64, f64)> = sorted
                .iter()
                .enumerate()
                .map(|(r, &(m, s))| (r as f64 + 1.0 + 0.6 * offset, m, s))
                .collect();
            chart
                .draw_series(pts.iter().map(|&(x, m, s)| {
                    ErrorBar::new_vertical(x, m - s, m, m + s, colour.filled(), 6)
                }))
                .map_err(text)?
                .label(name.clone())
                .legend(dot(colour));
            chart
                .draw_series(
                    pts.iter()
                        .map(|&(x, m, _)| Circle::new((x, m), 3, colour.filled())),
                )
                .map_err(text)?;
        }
        series_labels(&mut chart, SeriesLabelPosition::UpperLeft)?;
        Ok(())
    })())
}

/// One value per category with its standard-error bar, categories named along x, and
/// optionally a reference value per category drawn as a hollow triangle (a paper's
/// figure beside ours) and a horizontal line (0.5 for win rates).
pub fn category_error_bars(
    path: &Path,
    title: &str,
    y_label: &str,
    bars: &[(String, f64, f64)],
    reference: Option<(&str, &[f64])>,
    line: Option<f64>,
) -> Result<(), PlotError> {
    error_bars_at(path, SIZE, title, y_label, bars, reference, line, true)
}

/// A small [`category_error_bars`] without a legend: one of many on a page (a
/// parameter's mean fitness per value in `playtune report`).
pub(crate) fn small_error_bars(
    path: &Path,
    title: &str,
    y_label: &str,
    bars: &[(String, f64, f64)],
) -> Result<(), PlotError> {
    error_bars_at(path, (440, 280), title, y_label, bars, None, None, false)
}

#[allow(clippy::too_many_arguments)]
fn error_bars_at(
    path: &Path,
    size: (u32, u32),
    title: &str,
    y_label: &str,
    bars: &[(String, f64, f64)],
    reference: Option<(&str, &[f64])>,
    line: Option<f64>,
    legend: bool,
) -> Result<(), PlotError> {
    let n = bars.len().max(1);
    let refs: &[f64] = reference.map_or(&[], |r| r.1);
    let (y0, y1) = padded(
        bars.iter()
            .flat_map(|&(_, m, s)| [m - s, m + s])
            .chain(refs.iter().copied())
            .chain(line),
        0.08,
    );
    render!(path, size, |root| (|| -> Result<(), DrawError> {
        root.fill(&WHITE).map_err(text)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(if legend { 90 } else { 40 })
            .y_label_area_size(72)
            .build_cartesian_2d(0.0..n as f64, y0..y1)
            .map_err(text)?;
        let name_of = |x: &f64| {
            let i = (x - 0.5).round();
            if (x - 0.5 - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < bars.len() {
                bars[i as usize].0.clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(2 * n + 1)
            .x_label_formatter(&name_of)
            .y_desc(y_label)
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(text)?;
        if let Some(level) = line {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0.0, level), (n as f64, level)],
                    BLACK.mix(0.4).stroke_width(1),
                )))
                .map_err(text)?;
        }
        let colour = palette(0);
        chart
            .draw_series(bars.iter().enumerate().map(|(i, &(_, m, s))| {
                ErrorBar::new_vertical(i as f64 + 0.5, m - s, m, m + s, colour.filled(), 10)
            }))
            .map_err(text)?
            .label("playtune (mean ± s.e.)")
            .legend(dot(colour));
        chart
            .draw_series(
                bars.iter()
                    .enumerate()
                    .map(|(i, &(_, m, _))| Circle::new((i as f64 + 0.5, m), 4, colour.filled())),
            )
            .map_err(text)?;
        if let Some((name, values)) = reference {
            let other = palette(1);
            let marker =
                move |x: f64, y: f64| TriangleMarker::new((x, y), 6, other.stroke_width(2));
            chart
                .draw_series(
                    values
                        .iter()
                        .enumerate()
                        .take(bars.len())
                        .map(|(i, &v)| marker(i as f64 + 0.5, v)),
                )
                .map_err(text)?
                .label(name)
                .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 6, other.stroke_width(2)));
        }
        if !legend {
            return Ok(());
        }
        series_labels(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    })())
}

/// Box plots (median, quartiles, whiskers at 1.5 IQR, outliers as dots), one per group.
pub fn box_plot(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    groups: &[(String, Vec<f64>)],
) -> Result<(), PlotError> {
    let (y0, y1) = padded(groups.iter().flat_map(|g| g.1.iter().copied()), 0.05);
    let names: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
    render!(path, SIZE, |root| (|| -> Result<(), DrawError> {
        root.fill(&WHITE).map_err(text)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(0.0..groups.len() as f64, y0..y1)
            .map_err(text)?;
        let label = |x: &f64| {
            let i = x.floor() as usize;
            if (x - i as f64 - 0.5).abs() < 0.01 {
                names.get(i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(groups.len() * 2 + 1)
            .x_label_formatter(&label)
            .x_desc(x_label)
            .y_desc(y_label)
            .label_style(("sans-serif", 15))
            .draw()
            .map_err(text)?;
        for (i, (_, values)) in groups.iter().enumerate() {
            let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
            if v.is_empty() {
                continue;
            }
            v.sort_by(f64::total_cmp);
            let q = |p: f64| {
                let pos = p * (v.len() - 1) as f64;
                let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
                v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
            };
            let (q1, med, q3) = (q(0.25), q(0.5), q(0.75));
            let iqr = q3 - q1;
            let lo_whisker = v
                .iter()
                .copied()
                .find(|&x| x >= q1 - 1.5 * iqr)
                .unwrap_or(q1);
            let hi_whisker = v
                .iter()
                .rev()
                .copied()
                .find(|&x| x <= q3 + 1.5 * iqr)
                .unwrap_or(q3);
            let (c, l, r) = (i as f64 + 0.5, i as f64 + 0.25, i as f64 + 0.75);
            let colour = palette(i);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(l, q1), (r, q3)],
                    colour.mix(0.35).filled(),
                )))
                .map_err(text)?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(l, q1), (r, q3)],
                    colour.stroke_width(2),
                )))
                .map_err(text)?;
            let lines = [
                vec![(l, med), (r, med)],
                vec![(c, q3), (c, hi_whisker)],
                vec![(c, q1), (c, lo_whisker)],
                vec![(c - 0.1, hi_whisker), (c + 0.1, hi_whisker)],
                vec![(c - 0.1, lo_whisker), (c + 0.1, lo_whisker)],
            ];
            for line in lines {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        line,
                        BLACK.stroke_width(2),
                    )))
                    .map_err(text)?;
            }
            let outliers = v
                .iter()
                .copied()
                .filter(|&x| x < lo_whisker || x > hi_whisker);
            chart
                .draw_series(outliers.map(|x| Circle::new((c, x), 3, colour.filled())))
                .map_err(text)?;
        }
        Ok(())
    })())
}

/// The chart's legend: each labelled series with its swatch, boxed at `position`.
fn series_labels<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()
        .map_err(text)
}

/// A legend swatch: a filled dot of `colour`, as the series' points are drawn.
fn dot(colour: RGBColor) -> impl Fn((i32, i32)) -> Circle<(i32, i32), i32> {
    move |(x, y)| Circle::new((x + 10, y), 4, colour.filled())
}
