//! Every picture playtune draws, as PNG or SVG (chosen by the file extension).
//!
//! Charts take plain data (series, groups, grids), so any module can plot without
//! plotters types. Text uses the bundled DejaVu Sans (plotters is built without
//! font-kit, so nothing depends on the machine's fonts).

mod charts;
mod heatmap;
pub mod space_battle;
pub mod strategy;

pub use charts::{Series, box_plot, line_chart, sorted_error_bars};
pub use heatmap::{Heatmap, heatmap};

use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// An error while drawing or writing a picture.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {path}: {message}")]
pub struct PlotError {
    pub path: String,
    pub message: String,
}

static FONT: Once = Once::new();

fn register_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("font/DejaVuSans.ttf");
        // The bundled font is valid; if registering failed, text would be missing and
        // drawing would report it.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, bytes);
    });
}

/// Picture size in pixels.
pub const SIZE: (u32, u32) = (1000, 640);

/// Colours for series, distinguishable and printable.
pub fn palette(i: usize) -> RGBColor {
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

/// Draws into a PNG or SVG file at `path` with `draw`, which receives the root area.
/// `draw` is written once, generically, by each chart through this macro.
macro_rules! render {
    ($path:expr, $size:expr, |$root:ident| $body:expr) => {{
        let path: &std::path::Path = $path;
        crate::plot::register_font();
        let fail = |m: String| crate::plot::PlotError {
            path: path.display().to_string(),
            message: m,
        };
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
            }
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => {
                let $root = plotters::prelude::SVGBackend::new(path, $size).into_drawing_area();
                $body.map_err(fail)?;
                $root.present().map_err(|e| fail(e.to_string()))?;
            }
            Some("png") => {
                let $root = plotters::prelude::BitMapBackend::new(path, $size).into_drawing_area();
                $body.map_err(fail)?;
                $root.present().map_err(|e| fail(e.to_string()))?;
            }
            _ => return Err(fail("the file name must end in .png or .svg".into())),
        }
        Ok(())
    }};
}
pub(crate) use render;

/// Turns any drawing error into text.
pub(crate) fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
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
