//! MAP-Elites heatmaps: a grid of cells coloured by any stored statistic, optionally
//! with the value printed in each cell and bucket ranges on the axes (the play-styles
//! paper's Figure 1).

use super::{PlotError, render, text};
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use std::path::Path;

pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Cell edges along x (bins + 1 values) and y.
    pub x_edges: Vec<f64>,
    pub y_edges: Vec<f64>,
    /// values[y][x]; `None` for an empty cell.
    pub values: Vec<Vec<Option<f64>>>,
    /// Colour range; `None` takes the range of the values.
    pub range: Option<(f64, f64)>,
    /// Print each value in its cell (for small grids).
    pub annotate: bool,
}

pub fn heatmap(path: &Path, h: &Heatmap) -> Result<(), PlotError> {
    let (nx, ny) = (
        h.x_edges.len().saturating_sub(1),
        h.y_edges.len().saturating_sub(1),
    );
    let all: Vec<f64> = h
        .values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let (vmin, vmax) = h.range.unwrap_or_else(|| {
        let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if lo.is_finite() {
            (lo, if hi > lo { hi } else { lo + 1.0 })
        } else {
            (0.0, 1.0)
        }
    });
    let colour = |v: f64| ViridisRGB::get_color_normalized(v.clamp(vmin, vmax), vmin, vmax);
    render!(path, (1000, 820), |root| (|| -> Result<(), String> {
        root.fill(&WHITE).map_err(text)?;
        let (main, bar) = root.split_horizontally(880);
        let mut chart = ChartBuilder::on(&main)
            .caption(&h.title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(56)
            .y_label_area_size(72)
            .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)
            .map_err(text)?;
        // Axis ticks sit at cell edges and show the bucket bounds.
        let edge = |edges: &[f64], x: f64| {
            let i = x.round() as usize;
            if (x - i as f64).abs() < 1e-6 {
                edges
                    .get(i)
                    .map(|e| {
                        format!("{e:.3}")
                            .trim_end_matches('0')
                            .trim_end_matches('.')
                            .to_string()
                    })
                    .unwrap_or_default()
            } else {
                String::new()
            }
        };
        let xf = |x: &f64| edge(&h.x_edges, *x);
        let yf = |y: &f64| edge(&h.y_edges, *y);
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels((nx + 1).min(11))
            .y_labels((ny + 1).min(11))
            .x_label_formatter(&xf)
            .y_label_formatter(&yf)
            .x_desc(&h.x_label)
            .y_desc(&h.y_label)
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(text)?;
        for (yi, row) in h.values.iter().enumerate() {
            for (xi, v) in row.iter().enumerate() {
                let cell = [(xi as f64, yi as f64), (xi as f64 + 1.0, yi as f64 + 1.0)];
                let style = match v {
                    Some(v) if v.is_finite() => colour(*v).filled(),
                    _ => RGBColor(235, 235, 235).filled(),
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(cell, style)))
                    .map_err(text)?;
                if let (true, Some(v)) = (h.annotate, v) {
                    let shade = if (v - vmin) / (vmax - vmin) > 0.6 {
                        BLACK
                    } else {
                        WHITE
                    };
                    let label = Text::new(
                        format!("{v:.2}"),
                        (xi as f64 + 0.3, yi as f64 + 0.6),
                        ("sans-serif", 13).into_font().color(&shade),
                    );
                    chart.draw_series(std::iter::once(label)).map_err(text)?;
                }
            }
        }
        // Colour bar.
        let mut scale = ChartBuilder::on(&bar)
            .margin_top(56)
            .margin_bottom(72)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..1.0, vmin..vmax)
            .map_err(text)?;
        scale
            .configure_mesh()
            .disable_mesh()
            .disable_x_axis()
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
    })())
}
