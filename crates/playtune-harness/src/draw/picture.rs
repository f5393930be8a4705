//! Drawing with plotters (the `draw` feature): the bundled font, writing a picture to
//! PNG or SVG, and legends.

use super::{DrawError, text, text_width};
use plotters::prelude::*;
use std::sync::Once;

static FONT: Once = Once::new();

#[doc(hidden)]
pub fn register_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("font/DejaVuSans.ttf");
        // The bundled font is valid; if registering failed, text would be missing and
        // drawing would report it.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, bytes);
    });
}

/// Draws into a PNG or SVG file at `path` with `draw`, which receives the root area.
/// `draw` is written once, generically, by each chart through this macro.
#[macro_export]
#[doc(hidden)]
macro_rules! render {
    ($path:expr, $size:expr, |$root:ident| $body:expr) => {{
        let path: &std::path::Path = $path;
        $crate::draw::register_font();
        let fail = |m: &dyn std::fmt::Display| $crate::draw::PlotError {
            path: path.display().to_string(),
            message: m.to_string(),
        };
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|e| fail(&e))?;
            }
        }
        // Drawn under a temporary name beside it, then renamed into place: a reader
        // (a report page) never sees half a picture, and a failed drawing leaves the
        // picture that was there.
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let tmp = path.with_file_name(format!(
            ".{}.{}.tmp.{ext}",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            std::process::id()
        ));
        let drawn = (|| -> Result<(), $crate::draw::PlotError> {
            match ext {
                "svg" => {
                    let $root = $crate::draw::plotters::prelude::SVGBackend::new(&tmp, $size)
                        .into_drawing_area();
                    $body.map_err(|e| fail(&e))?;
                    $root.present().map_err(|e| fail(&e))?;
                }
                "png" => {
                    let $root = $crate::draw::plotters::prelude::BitMapBackend::new(&tmp, $size)
                        .into_drawing_area();
                    $body.map_err(|e| fail(&e))?;
                    $root.present().map_err(|e| fail(&e))?;
                }
                _ => return Err(fail(&"the file name must end in .png or .svg")),
            }
            std::fs::rename(&tmp, path).map_err(|e| fail(&e))
        })();
        if drawn.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        drawn
    }};
}
pub use crate::render;
/// The drawing library, for the [`render`] macro.
#[doc(hidden)]
pub use plotters;

/// What a legend entry shows beside its label.
#[derive(Clone, Debug, PartialEq)]
pub enum Swatch {
    /// No mark: the label is a group's heading and starts a new row.
    Heading,
    /// A filled square (terrain, a territory's tint).
    Square(RGBColor),
    /// A filled square with a black border of this width (a city, its walls).
    Framed(RGBColor, u32),
    /// A filled disc, with its opacity (a ship, a pack, a black hole's zones).
    Disc(RGBColor, f64),
    /// A short line (a trail, a heading).
    Line(RGBColor),
    /// Text in a colour on a disc of another (a unit's letter), or on nothing.
    Glyph {
        /// The text.
        text: String,
        /// The text's colour.
        colour: RGBColor,
        /// The disc's colour, if it has one.
        disc: Option<RGBColor>,
    },
}

/// One entry of a picture's legend.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// What the entry shows.
    pub swatch: Swatch,
    /// Its text.
    pub label: String,
}

impl LegendEntry {
    /// An entry showing `swatch`, labelled `label`.
    pub fn new(swatch: Swatch, label: impl Into<String>) -> LegendEntry {
        LegendEntry {
            swatch,
            label: label.into(),
        }
    }

    /// A heading: the entries after it, up to the next, are its group.
    pub fn heading(label: impl Into<String>) -> LegendEntry {
        LegendEntry::new(Swatch::Heading, label)
    }

    /// The entry's width in pixels at [`LEGEND_FONT`], its gap to the next included.
    fn width(&self) -> i32 {
        let mark = if self.swatch == Swatch::Heading {
            0.0
        } else {
            f64::from(LEGEND_ROW)
        };
        (mark + text_width(&self.label, LEGEND_FONT) + 18.0).ceil() as i32
    }
}

/// Legend text size and row height, in pixels.
pub(crate) const LEGEND_FONT: f64 = 14.0;
pub(crate) const LEGEND_ROW: i32 = 22;
/// Legend margin on every side, in pixels.
const LEGEND_MARGIN: i32 = 10;

/// Where a legend's entries go in a band `width` pixels wide.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LegendLayout {
    /// Each entry's top-left corner, in the order of the entries.
    pub at: Vec<(i32, i32)>,
    /// Each entry's text, in lines (more than one only for a long note).
    pub lines: Vec<Vec<String>>,
    /// Its height in pixels.
    pub height: i32,
}

/// Whether entry `i` is a note: a heading with no entries of its own (the next entry
/// is a heading too, or there is none). A note takes whole rows, wrapped.
fn is_note(entries: &[LegendEntry], i: usize) -> bool {
    entries[i].swatch == Swatch::Heading
        && entries
            .get(i + 1)
            .is_none_or(|e| e.swatch == Swatch::Heading)
}

/// `text` in lines of at most `width` pixels at [`LEGEND_FONT`], broken between words.
fn wrap(text: &str, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, LEGEND_FONT) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Where each entry of a legend goes in a band `width` pixels wide. Each group's
/// heading sits in a left column as wide as the widest heading, and its entries flow
/// left to right beside it, wrapping back to the column's edge; where the headings
/// would take more than a third of the band, each heading has a row of its own and
/// its entries follow, indented. Notes (headings without entries) take whole rows.
pub(crate) fn legend_layout(entries: &[LegendEntry], width: i32) -> LegendLayout {
    let right = width - LEGEND_MARGIN;
    let heads = (0..entries.len())
        .filter(|&i| entries[i].swatch == Swatch::Heading && !is_note(entries, i))
        .map(|i| entries[i].width())
        .max()
        .unwrap_or(0);
    let column = heads <= (width - 2 * LEGEND_MARGIN) / 3;
    let indent = LEGEND_MARGIN + if column { heads } else { 16 };
    let mut at = Vec::with_capacity(entries.len());
    let mut lines = Vec::with_capacity(entries.len());
    // The next free spot; `None` at the start of a row.
    let (mut x, mut y) = (None::<i32>, LEGEND_MARGIN);
    let new_row = |x: &mut Option<i32>, y: &mut i32| {
        if x.is_some() {
            *x = None;
            *y += LEGEND_ROW;
        }
    };
    for (i, e) in entries.iter().enumerate() {
        if is_note(entries, i) {
            new_row(&mut x, &mut y);
            let text = wrap(&e.label, f64::from(right - LEGEND_MARGIN));
            at.push((LEGEND_MARGIN, y));
            y += LEGEND_ROW * text.len() as i32;
            lines.push(text);
            continue;
        }
        lines.push(vec![e.label.clone()]);
        if e.swatch == Swatch::Heading {
            new_row(&mut x, &mut y);
            at.push((LEGEND_MARGIN, y));
            if column {
                x = Some(indent);
            } else {
                y += LEGEND_ROW;
            }
            continue;
        }
        let w = e.width();
        let start = x.unwrap_or(indent);
        let (ex, ey) = if start > indent && start + w > right {
            (indent, y + LEGEND_ROW)
        } else {
            (start, y)
        };
        y = ey;
        at.push((ex, ey));
        x = Some(ex + w);
    }
    let height = if entries.is_empty() {
        0
    } else {
        y + if x.is_some() { LEGEND_ROW } else { 0 } + LEGEND_MARGIN
    };
    LegendLayout { at, lines, height }
}

/// The height in pixels a legend of `entries` takes in a band `width` pixels wide.
pub fn legend_height(entries: &[LegendEntry], width: i32) -> i32 {
    legend_layout(entries, width).height
}

/// Draws a legend of `entries` into `area` (laid out as [`legend_height`] measures it), with a thin
/// rule above it.
pub fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[LegendEntry],
) -> Result<(), DrawError> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let width = area.dim_in_pixel().0 as i32;
    let layout = legend_layout(entries, width);
    area.draw(&PathElement::new(
        vec![(LEGEND_MARGIN, 2), (width - LEGEND_MARGIN, 2)],
        RGBColor(200, 200, 200).stroke_width(1),
    ))
    .map_err(text)?;
    let font = |colour: &RGBColor, h: HPos| {
        ("sans-serif", LEGEND_FONT)
            .into_font()
            .color(colour)
            .pos(Pos::new(h, VPos::Center))
    };
    for ((e, &(x, y)), lines) in entries.iter().zip(&layout.at).zip(&layout.lines) {
        let cy = y + LEGEND_ROW / 2;
        let (sx, sy, s) = (x + 1, y + 3, LEGEND_ROW - 6);
        let c = (x + LEGEND_ROW / 2 - 1, cy);
        match &e.swatch {
            Swatch::Heading => {}
            Swatch::Square(colour) | Swatch::Framed(colour, _) => {
                // A plain square gets a thin grey outline so pale colours show; a framed
                // one its own black border.
                let border = match &e.swatch {
                    Swatch::Framed(_, width) => BLACK.stroke_width(*width),
                    _ => RGBColor(160, 160, 160).stroke_width(1),
                };
                let square = [(sx, sy), (sx + s, sy + s)];
                area.draw(&Rectangle::new(square, colour.filled()))
                    .map_err(text)?;
                area.draw(&Rectangle::new(square, border)).map_err(text)?;
            }
            Swatch::Disc(colour, alpha) => {
                area.draw(&Circle::new(c, s / 2, colour.mix(*alpha).filled()))
                    .map_err(text)?;
            }
            Swatch::Line(colour) => {
                area.draw(&PathElement::new(
                    vec![(sx, cy), (sx + s, cy)],
                    colour.stroke_width(3),
                ))
                .map_err(text)?;
            }
            Swatch::Glyph {
                text: t,
                colour,
                disc,
            } => {
                if let Some(d) = disc {
                    area.draw(&Circle::new(c, s / 2 + 1, d.filled()))
                        .map_err(text)?;
                }
                area.draw(&Text::new(t.clone(), c, font(colour, HPos::Center)))
                    .map_err(text)?;
            }
        }
        let tx = if e.swatch == Swatch::Heading {
            x
        } else {
            x + LEGEND_ROW + 4
        };
        let colour = if e.swatch == Swatch::Heading {
            RGBColor(90, 90, 90)
        } else {
            BLACK
        };
        for (k, line) in lines.iter().enumerate() {
            area.draw(&Text::new(
                line.clone(),
                (tx, cy + LEGEND_ROW * k as i32),
                font(&colour, HPos::Left),
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
    fn legends_wrap_within_their_band_and_start_groups_on_new_rows() {
        let mut entries = vec![LegendEntry::heading("Terrain:")];
        for name in ["plain", "forest", "mountain", "water"] {
            entries.push(LegendEntry::new(Swatch::Square(BLACK), name));
        }
        entries.push(LegendEntry::heading("Units:"));
        for i in 0..12 {
            entries.push(LegendEntry::new(
                Swatch::Disc(BLACK, 1.0),
                format!("a long unit name {i}"),
            ));
        }
        entries.push(LegendEntry::heading(
            "A note long enough to be wrapped over more than one row of the band, word by word, so that none of it is cut off at the right edge.",
        ));
        let width = 500;
        let l = legend_layout(&entries, width);
        assert_eq!(l.at.len(), entries.len());
        let note = entries.len() - 1;
        assert!(l.lines[note].len() > 1, "the note is wrapped");
        for (i, (e, &(x, y))) in entries.iter().zip(&l.at).enumerate() {
            let w = if i == note {
                l.lines[i]
                    .iter()
                    .map(|t| text_width(t, LEGEND_FONT) as i32)
                    .max()
                    .unwrap()
            } else {
                e.width()
            };
            assert!(x >= 0 && x + w <= width, "{} fits: x {x}", e.label);
            let rows = l.lines[i].len() as i32;
            assert!(
                y + rows * LEGEND_ROW <= l.height,
                "{} inside the band",
                e.label
            );
        }
        // Headings in a column; the terrain entries on the heading's row beside it,
        // the units' heading on a new row, wrapped entries back at the column's edge.
        let column = l.at[1].0;
        assert!(l.at[1..5].iter().all(|p| p.1 == l.at[0].1));
        assert!(l.at[5].1 > l.at[4].1 && l.at[5].0 == l.at[0].0);
        assert!(
            l.at[6..note]
                .iter()
                .any(|p| p.1 > l.at[5].1 && p.0 == column)
        );
        // Entries of a row never overlap.
        for (w, e) in l.at.windows(2).zip(&entries) {
            if w[0].1 == w[1].1 {
                assert!(w[0].0 + e.width() <= w[1].0);
            }
        }
        assert!(legend_height(&entries, width) > legend_height(&entries, 2000));
        assert_eq!(legend_height(&[], width), 0);
        assert_eq!(wrap("a b", 1000.0), ["a b"]);
    }
}
