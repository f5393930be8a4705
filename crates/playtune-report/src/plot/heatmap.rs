//! MAP-Elites heatmaps: a grid of cells coloured by any stored statistic, with the
//! value printed in each cell, bucket ranges on the axes and a colour bar (the
//! play-styles paper's Figure 1). Empty cells are white with a grey border and grey
//! hatching, so that "no elite here" cannot be read as a low value.

use super::{DrawError, PlotError, render, text};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

#[derive(Clone, Debug, Default)]
/// One heatmap (or a row of slices): its cells' values over two bucketed axes.
pub struct Heatmap {
    /// The title.
    pub title: String,
    /// Lines of small type under the pictures: how to read them (e.g. what a cell's
    /// id is); empty for none.
    pub note: String,
    /// The x axis's name.
    pub x_label: String,
    /// The y axis's name.
    pub y_label: String,
    /// One label per column, left to right (bucket ranges: `bucket_labels`).
    pub x_buckets: Vec<String>,
    /// One label per row, bottom to top.
    pub y_buckets: Vec<String>,
    /// `values[y][x]`; `None` for an empty cell.
    pub values: Vec<Vec<Option<f64>>>,
    /// What the colours mean, written along the colour bar.
    pub value_label: String,
    /// The range the values are known to lie in (a win rate: 0 to 1), which the
    /// colours then span; `None` takes the range of the values (`colour_range`).
    pub range: Option<(f64, f64)>,
    /// Print each value in its cell (skipped where cells are too small to read).
    pub annotate: bool,
    /// `labels[y][x]`: a name written small at the top of the cell (the cell's id, as
    /// `playtune validate` names it); empty for none.
    pub labels: Vec<Vec<Option<String>>>,
    /// Number the buckets from 0 along both axes (the parts of a cell's id): in a row
    /// of their own under the x axis's labels, in front of the y axis's.
    pub numbered: bool,
}

/// A number as short as it can be without losing what a reader needs: at most three
/// decimals, trailing zeros dropped.
pub(crate) fn short_number(v: f64) -> String {
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Labels of the buckets between consecutive `edges`: `[a, b)`, and `< b` or `>= a`
/// for an underflow or overflow bucket (an infinite edge).
pub(crate) fn bucket_labels(edges: &[f64]) -> Vec<String> {
    edges
        .windows(2)
        .map(|w| match (w[0].is_finite(), w[1].is_finite()) {
            (false, _) => format!("< {}", short_number(w[1])),
            (_, false) => format!(">= {}", short_number(w[0])),
            _ => format!("[{}, {})", short_number(w[0]), short_number(w[1])),
        })
        .collect()
}

/// A cell's value for printing: fewer decimals for larger numbers, so it fits.
fn cell_text(v: f64) -> String {
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Width in pixels of `s` at font size `size`, about (DejaVu Sans averages 0.6 em).
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.6
}

/// Whether bucket `i` of `n` gets its label when only every `every`-th fits: the
/// first and the last always do (they are the under- and overflow buckets when
/// there are any), the last taking the place of the one before it.
fn shown(i: usize, every: usize, n: usize) -> bool {
    let last = n.saturating_sub(1);
    let last_regular = last / every * every;
    if i == last {
        return true;
    }
    i % every == 0 && (i != last_regular || last_regular == 0)
}

/// Draws one heatmap into `path` (.png or .svg).
pub fn heatmap(path: &Path, h: &Heatmap) -> Result<(), PlotError> {
    heatmaps(path, std::slice::from_ref(h))
}

/// The colour scale of a heatmap: the values' `known` range where there is one (a win
/// rate's 0 to 1, whatever the elites reached), widened to take in any value beyond
/// it; else the lowest to the highest value (a unit around a single value; 0 to 1 with
/// none).
pub(super) fn colour_range(
    known: Option<(f64, f64)>,
    values: impl Iterator<Item = f64>,
) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if let Some((a, b)) = known.filter(|(a, b)| a.is_finite() && b.is_finite() && b > a) {
        return (a.min(lo), b.max(hi));
    }
    if !lo.is_finite() {
        (0.0, 1.0)
    } else if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, lo + 0.5)
    }
}

/// The colour range of `panels`: [`colour_range`] of the first panel's `range` over
/// every panel's values.
fn value_range(panels: &[Heatmap]) -> (f64, f64) {
    colour_range(
        panels.first().and_then(|h| h.range),
        panels
            .iter()
            .flat_map(|h| h.values.iter().flatten().flatten().copied()),
    )
}

/// What the colour bar says beside the values' name: where its scale comes from.
fn scale_label(h: Option<&Heatmap>, vmin: f64, vmax: f64) -> String {
    let Some(h) = h else {
        return String::new();
    };
    let from = if h.range.is_some() {
        "colour scale: its full range"
    } else {
        "colour scale: lowest to highest value"
    };
    format!(
        "{} ({from}, {} to {})",
        h.value_label,
        short_number(vmin),
        short_number(vmax)
    )
}

/// Draws heatmaps side by side on one colour scale with one colour bar: the slices of
/// a three-feature archive along its third feature, say. Each panel keeps its own
/// title and axes.
pub(crate) fn heatmaps(path: &Path, panels: &[Heatmap]) -> Result<(), PlotError> {
    let (vmin, vmax) = value_range(panels);
    let k = panels.len().max(1);
    let width = u32::try_from(950 * k + 150).unwrap_or(u32::MAX);
    let note: Vec<&str> = panels
        .first()
        .map(|h| h.note.lines().filter(|l| !l.trim().is_empty()).collect())
        .unwrap_or_default();
    let height = 860 + 22 * note.len() as u32 + if note.is_empty() { 0 } else { 8 };
    render!(path, (width, height), |root| {
        (|| -> Result<(), DrawError> {
            root.fill(&WHITE).map_err(text)?;
            let (root, foot) = root.split_vertically(860);
            for (i, line) in note.iter().enumerate() {
                foot.draw(&Text::new(
                    *line,
                    (16, 2 + 22 * i as i32),
                    ("sans-serif", 15).into_font().color(&RGBColor(70, 70, 70)),
                ))
                .map_err(text)?;
            }
            let (mains, bar) = root.split_horizontally(width - 150);
            for (area, h) in mains.split_evenly((1, k)).iter().zip(panels) {
                panel(area, h, vmin, vmax)?;
            }
            let colour = |v: f64| ViridisRGB::get_color_normalized(v.clamp(vmin, vmax), vmin, vmax);
            let value_label = scale_label(panels.first(), vmin, vmax);
            // Colour bar with its scale and what it measures.
            let mut scale = ChartBuilder::on(&bar)
                .margin_top(60)
                .margin_bottom(80)
                .margin_right(8)
                .y_label_area_size(70)
                .build_cartesian_2d(0.0..1.0, vmin..vmax)
                .map_err(text)?;
            scale
                .configure_mesh()
                .disable_mesh()
                .disable_x_axis()
                .y_labels(8)
                .y_label_formatter(&|v: &f64| short_number(*v))
                .y_desc(&value_label)
                .axis_desc_style(("sans-serif", 15))
                .label_style(("sans-serif", 13))
                .draw()
                .map_err(text)?;
            let steps = 100;
            scale
                .draw_series((0..steps).map(|i| {
                    let a = vmin + (vmax - vmin) * i as f64 / steps as f64;
                    let b = vmin + (vmax - vmin) * (i + 1) as f64 / steps as f64;
                    Rectangle::new([(0.0, a), (1.0, b)], colour(a).filled())
                }))
                .map_err(text)?;
            Ok(())
        })()
    })
}

/// One heatmap panel on `main`, coloured on the scale `vmin..vmax`.
fn panel<DB: DrawingBackend>(
    main: &DrawingArea<DB, Shift>,
    h: &Heatmap,
    vmin: f64,
    vmax: f64,
) -> Result<(), DrawError> {
    let ny = h.values.len();
    let nx = h.values.first().map_or(0, Vec::len);
    let colour = |v: f64| ViridisRGB::get_color_normalized(v.clamp(vmin, vmax), vmin, vmax);
    let (grey, hatch) = (RGBColor(170, 170, 170), RGBColor(205, 205, 205));
    let (nxf, nyf) = (nx.max(1) as f64, ny.max(1) as f64);
    let y_buckets: Vec<String> = if h.numbered {
        h.y_buckets
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{i}: {l}"))
            .collect()
    } else {
        h.y_buckets.clone()
    };
    let y_label_width = y_buckets
        .iter()
        .map(|s| text_width(s, 13.0))
        .fold(0.0, f64::max);
    let mut chart = ChartBuilder::on(main)
        .caption(&h.title, ("sans-serif", 22))
        .margin(16)
        .margin_right(24)
        .x_label_area_size(if h.numbered { 84 } else { 64 })
        .y_label_area_size((y_label_width + 40.0).clamp(60.0, 220.0) as u32)
        .build_cartesian_2d(0.0..nxf, 0.0..nyf)
        .map_err(text)?;
    // The mesh only draws the axis titles: bucket labels sit at cell centres,
    // where plotters' own tick placement would not put them.
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_desc(&h.x_label)
        .y_desc(&h.y_label)
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(text)?;
    let (x0, y0) = chart.backend_coord(&(0.0, 0.0));
    let (x1, y1) = chart.backend_coord(&(nxf, nyf));
    let (cell_w, cell_h) = ((x1 - x0) as f64 / nxf, (y0 - y1) as f64 / nyf);
    // The chart's coordinates are the backend's; `main.draw` takes the area's own
    // (they differ for every panel but the first).
    let (ox, oy) = main.get_base_pixel();
    // Pixels of a point in cell units (the chart's own mapping, linear).
    let px = |x: f64, y: f64| {
        (
            x0 + (x * cell_w).round() as i32,
            y0 - (y * cell_h).round() as i32,
        )
    };
    for (yi, row) in h.values.iter().enumerate() {
        for (xi, v) in row.iter().enumerate() {
            let (x, y) = (xi as f64, yi as f64);
            let cell = [(x, y), (x + 1.0, y + 1.0)];
            match v {
                Some(v) if v.is_finite() => {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(cell, colour(*v).filled())))
                        .map_err(text)?;
                }
                _ => {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(cell, WHITE.filled())))
                        .map_err(text)?;
                    // Hatching: diagonals at a quarter, half and three quarters.
                    let lines = [0.25, 0.5, 0.75, 1.0].into_iter().flat_map(|t| {
                        [
                            vec![(x + t, y), (x, y + t)],
                            vec![(x + 1.0, y + t), (x + t, y + 1.0)],
                        ]
                    });
                    chart
                        .draw_series(lines.map(|l| PathElement::new(l, hatch.stroke_width(1))))
                        .map_err(text)?;
                    chart
                        .draw_series(std::iter::once(Rectangle::new(cell, grey.stroke_width(1))))
                        .map_err(text)?;
                }
            }
        }
    }
    // Cell labels (ids) at the top of each cell, where they fit.
    let shade_of = |v: Option<f64>| match v {
        Some(v) if v.is_finite() && (v - vmin) / (vmax - vmin) <= 0.55 => WHITE,
        _ => BLACK,
    };
    let mut labelled = false;
    for (yi, row) in h.labels.iter().enumerate().take(ny) {
        for (xi, label) in row.iter().enumerate().take(nx) {
            let Some(label) = label else { continue };
            let size = (cell_h * 0.22)
                .min(cell_w / (0.6 * label.chars().count() as f64 + 0.4))
                .min(12.0);
            if size < 8.0 {
                continue;
            }
            labelled = true;
            let v = h.values.get(yi).and_then(|r| r.get(xi)).copied().flatten();
            let style = ("sans-serif", size)
                .into_font()
                .color(&shade_of(v))
                .pos(Pos::new(HPos::Center, VPos::Top));
            let (cx, top) = px(xi as f64 + 0.5, yi as f64 + 1.0);
            main.draw(&Text::new(label.clone(), (cx - ox, top + 3 - oy), style))
                .map_err(text)?;
        }
    }
    // Printed values, sized to the cells (none where even small text won't fit),
    // a little low where the cell also has its label.
    if h.annotate {
        for (yi, row) in h.values.iter().enumerate() {
            for (xi, v) in row.iter().enumerate() {
                let Some(v) = v.filter(|v| v.is_finite()) else {
                    continue;
                };
                let label = cell_text(v);
                let size = (cell_h * if labelled { 0.3 } else { 0.35 })
                    .min(cell_w / (0.6 * label.chars().count() as f64 + 0.4))
                    .min(16.0);
                if size < 8.0 {
                    continue;
                }
                let style = ("sans-serif", size)
                    .into_font()
                    .color(&shade_of(Some(v)))
                    .pos(Pos::new(HPos::Center, VPos::Center));
                let y = if labelled { 0.4 } else { 0.5 };
                chart
                    .draw_series(std::iter::once(Text::new(
                        label,
                        (xi as f64 + 0.5, yi as f64 + y),
                        style,
                    )))
                    .map_err(text)?;
            }
        }
    }
    // Bucket labels: smaller type where they are long, and every k-th one where
    // even that would overlap.
    let longest = h
        .x_buckets
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(1);
    let x_size = ((cell_w - 8.0) / (0.6 * longest as f64)).clamp(10.0, 13.0);
    let label_style = |size: f64, h: HPos, v: VPos| {
        ("sans-serif", size)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(h, v))
    };
    let widest = text_width(&"0".repeat(longest), x_size);
    let every_x = ((widest + 4.0) / cell_w).ceil().max(1.0) as usize;
    for (i, s) in h.x_buckets.iter().enumerate().take(nx) {
        if shown(i, every_x, nx) {
            let (cx, _) = px(i as f64 + 0.5, 0.0);
            main.draw(&Text::new(
                s.as_str(),
                (cx - ox, y0 + 6 - oy),
                label_style(x_size, HPos::Center, VPos::Top),
            ))
            .map_err(text)?;
        }
    }
    if h.numbered {
        // The buckets' numbers, in a row under their ranges.
        let digits = nx.saturating_sub(1).to_string().len();
        let every = ((text_width(&"0".repeat(digits), 12.0) + 6.0) / cell_w)
            .ceil()
            .max(1.0) as usize;
        for i in (0..nx).filter(|&i| shown(i, every, nx)) {
            let (cx, _) = px(i as f64 + 0.5, 0.0);
            main.draw(&Text::new(
                i.to_string(),
                (cx - ox, y0 + 26 - oy),
                ("sans-serif", 12.0)
                    .into_font()
                    .color(&RGBColor(90, 90, 90))
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(text)?;
        }
    }
    let every_y = (18.0 / cell_h).ceil().max(1.0) as usize;
    for (i, s) in y_buckets.iter().enumerate().take(ny) {
        if shown(i, every_y, ny) {
            let (_, cy) = px(0.0, i as f64 + 0.5);
            main.draw(&Text::new(
                s.as_str(),
                (x0 - 6 - ox, cy - oy),
                label_style(13.0, HPos::Right, VPos::Center),
            ))
            .map_err(text)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_name_their_ranges_and_overflow() {
        let e = [f64::NEG_INFINITY, 0.0, 2.5, 10.0, f64::INFINITY];
        assert_eq!(bucket_labels(&e), ["< 0", "[0, 2.5)", "[2.5, 10)", ">= 10"]);
        assert_eq!(short_number(-0.0001), "0");
        assert_eq!(short_number(1.0 / 3.0), "0.333");
        let labelled = |every, n| (0..n).filter(|&i| shown(i, every, n)).collect::<Vec<_>>();
        assert_eq!(labelled(2, 12), [0, 2, 4, 6, 8, 11]);
        assert_eq!(labelled(2, 11), [0, 2, 4, 6, 8, 10]);
        assert_eq!(labelled(1, 3), [0, 1, 2]);
        assert_eq!(labelled(5, 3), [0, 2]);
    }

    #[test]
    fn a_known_range_sets_the_colour_scale() {
        // Win rates of 0.3 to 0.6: coloured on 0 to 1, not on the data's 0.3 to 0.6.
        let rates = [0.3, 0.45, 0.6, f64::NAN];
        assert_eq!(
            colour_range(Some((0.0, 1.0)), rates.into_iter()),
            (0.0, 1.0)
        );
        assert_eq!(colour_range(None, rates.into_iter()), (0.3, 0.6));
        // A value beyond the known range widens it rather than being clipped.
        assert_eq!(
            colour_range(Some((0.0, 100.0)), [-5.0, 50.0].into_iter()),
            (-5.0, 100.0)
        );
        assert_eq!(colour_range(None, std::iter::empty()), (0.0, 1.0));
        assert_eq!(colour_range(None, [2.0].into_iter()), (1.5, 2.5));
        let h = Heatmap {
            value_label: "fitness".into(),
            range: Some((0.0, 1.0)),
            values: vec![vec![Some(0.4), None]],
            ..Heatmap::default()
        };
        assert_eq!(value_range(std::slice::from_ref(&h)), (0.0, 1.0));
        let label = scale_label(Some(&h), 0.0, 1.0);
        assert!(
            label.contains("full range") && label.contains("0 to 1"),
            "{label}"
        );
    }
}
