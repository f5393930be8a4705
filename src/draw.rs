//! Writing a picture to PNG or SVG with the bundled font: the ground floor of every
//! drawing, so that a game (floor 3) can draw its own map and the charts (`plot`,
//! floor 5) share the same file handling.

use plotters::prelude::*;
use std::sync::Once;

/// An error while drawing or writing a picture.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {path}: {message}")]
pub struct PlotError {
    pub path: String,
    pub message: String,
}

static FONT: Once = Once::new();

pub(crate) fn register_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("plot/font/DejaVuSans.ttf");
        // The bundled font is valid; if registering failed, text would be missing and
        // drawing would report it.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, bytes);
    });
}

/// Draws into a PNG or SVG file at `path` with `draw`, which receives the root area.
/// `draw` is written once, generically, by each chart through this macro.
macro_rules! render {
    ($path:expr, $size:expr, |$root:ident| $body:expr) => {{
        let path: &std::path::Path = $path;
        crate::draw::register_font();
        let fail = |m: String| crate::draw::PlotError {
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
