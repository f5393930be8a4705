//! Every picture playtune draws, as PNG or SVG (chosen by the file extension).
//!
//! Charts take plain data (series, groups, grids), so any module can plot without
//! plotters types. Text uses the bundled DejaVu Sans (plotters is built without
//! font-kit, so nothing depends on the machine's fonts).

mod charts;
mod heatmap;
pub mod run;

pub(crate) use charts::small_error_bars;
pub use charts::{Series, box_plot, category_error_bars, line_chart, sorted_error_bars};
pub use heatmap::{Heatmap, heatmap};
pub(crate) use heatmap::{bucket_labels, heatmaps, short_number};

pub(crate) use playtune_harness::draw::PlotError;
pub(crate) use playtune_harness::draw::{DrawError, render, text};
use plotters::prelude::*;
use std::path::Path;

/// Picture size in pixels.
pub(crate) const SIZE: (u32, u32) = (1000, 640);

/// Colours for series, distinguishable and printable.
pub(crate) fn palette(i: usize) -> RGBColor {
    const COLOURS: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    COLOURS[i % COLOURS.len()]
}

/// Bounds of a set of values, widened by `pad` of the span (and never empty).
pub(crate) fn padded(values: impl Iterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    (lo - pad * span, hi + pad * span)
}

/// Whether a path names a picture format playtune writes.
pub fn is_picture(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("png" | "svg")
    )
}
