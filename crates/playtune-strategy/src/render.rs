//! Strategy game maps: terrain, territory, resources, buildings, cities (owner, level,
//! capital) and units (type letter and hit points), one panel per snapshot side by
//! side, like the Space Battle maps, over a legend of every mark.

use crate::level::Level;
use crate::rules::{BUILDING_INFO, Resource, Terrain, UNITS};
use crate::state::{GameConfig, NONE, StrategyState};
use playtune_harness::draw::{
    DrawError, LegendEntry, PlotError, Swatch, draw_legend, legend_height, render, text,
};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// What a panel shows: a state, under a caption (e.g. "turn 12").
pub struct Snapshot {
    /// The panel's caption.
    pub caption: String,
    /// The state drawn.
    pub state: StrategyState,
}

/// Tribe colours: blue and red; neutral villages grey.
pub(crate) const TRIBE_COLOURS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];
const NEUTRAL: RGBColor = RGBColor(150, 150, 150);

fn terrain_colour(t: Terrain) -> RGBColor {
    match t {
        Terrain::Plain => RGBColor(214, 230, 160),
        Terrain::Forest => RGBColor(84, 150, 80),
        Terrain::Mountain => RGBColor(150, 138, 125),
        Terrain::Water => RGBColor(120, 170, 220),
    }
}

fn resource_colour(r: Resource) -> Option<RGBColor> {
    match r {
        Resource::None => None,
        Resource::Fruit => Some(RGBColor(230, 60, 140)),
        Resource::Animal => Some(RGBColor(140, 90, 40)),
        Resource::Crop => Some(RGBColor(240, 200, 30)),
        Resource::Ore => Some(RGBColor(40, 40, 60)),
    }
}

fn owner_colour(owner: u8) -> RGBColor {
    if owner == NONE {
        NEUTRAL
    } else {
        TRIBE_COLOURS[owner as usize & 1]
    }
}

/// Draws one panel per snapshot side by side (up to 3 per row), the tribes named by
/// their numbers in the legend.
pub fn game_map(path: &Path, title: &str, snapshots: &[Snapshot]) -> Result<(), PlotError> {
    game_map_of(path, title, snapshots, &[])
}

/// [`game_map`] with the agent playing each tribe named in the legend.
pub(crate) fn game_map_of(
    path: &Path,
    title: &str,
    snapshots: &[Snapshot],
    agents: &[String],
) -> Result<(), PlotError> {
    let cols = snapshots.len().clamp(1, 3);
    let rows = snapshots.len().div_ceil(cols).max(1);
    let legend = legend(agents);
    let width = cols as u32 * 560;
    let key = legend_height(&legend, width as i32) as u32;
    let size = (width, rows as u32 * 620 + 50 + key);
    render!(path, size, |root| (|| -> Result<(), DrawError> {
        root.fill(&WHITE).map_err(text)?;
        let root = root.titled(title, ("sans-serif", 24)).map_err(text)?;
        let (maps, key_area) = root.split_vertically(rows as u32 * 620);
        draw_legend(&key_area, &legend)?;
        let panels = maps.split_evenly((rows, cols));
        for (panel, snap) in panels.iter().zip(snapshots) {
            draw_panel(panel, snap)?;
        }
        Ok(())
    })())
}

const TERRAINS: [(Terrain, &str); 4] = [
    (Terrain::Plain, "plain"),
    (Terrain::Forest, "forest"),
    (Terrain::Mountain, "mountain"),
    (Terrain::Water, "water (impassable)"),
];

const RESOURCES: [(Resource, &str); 4] = [
    (Resource::Fruit, "fruit"),
    (Resource::Animal, "animal"),
    (Resource::Crop, "crop"),
    (Resource::Ore, "ore"),
];

/// The legend of a map: which colour is which tribe (and its agent), then terrain,
/// resources, buildings, cities and units, as they are drawn.
pub(crate) fn legend(agents: &[String]) -> Vec<LegendEntry> {
    let mut out = vec![LegendEntry::heading("Tribes:")];
    for (p, colour) in TRIBE_COLOURS.iter().enumerate() {
        let label = match agents.get(p) {
            Some(name) => format!("tribe {p}: {name}"),
            None => format!("tribe {p}"),
        };
        out.push(LegendEntry::new(Swatch::Square(*colour), label));
    }
    for (p, colour) in TRIBE_COLOURS.iter().enumerate() {
        out.push(LegendEntry::new(
            Swatch::Square(mix(terrain_colour(Terrain::Plain), *colour, 0.35)),
            format!("tribe {p}'s territory"),
        ));
    }
    out.push(LegendEntry::heading("Terrain:"));
    for (t, name) in TERRAINS {
        out.push(LegendEntry::new(Swatch::Square(terrain_colour(t)), name));
    }
    out.push(LegendEntry::heading("Resources:"));
    for (r, name) in RESOURCES {
        if let Some(c) = resource_colour(r) {
            out.push(LegendEntry::new(Swatch::Disc(c, 1.0), name));
        }
    }
    out.push(LegendEntry::heading("Buildings:"));
    for b in &BUILDING_INFO {
        out.push(LegendEntry::new(
            Swatch::Glyph {
                text: b.letter.to_string(),
                colour: BLACK,
                disc: None,
            },
            b.name.replace('_', " "),
        ));
    }
    out.extend([
        LegendEntry::heading("Cities:"),
        LegendEntry::new(
            Swatch::Glyph {
                text: "2".into(),
                colour: WHITE,
                disc: Some(TRIBE_COLOURS[0]),
            },
            "level",
        ),
        LegendEntry::new(
            Swatch::Glyph {
                text: "\u{2605}".into(),
                colour: WHITE,
                disc: Some(TRIBE_COLOURS[0]),
            },
            "capital (thin border)",
        ),
        LegendEntry::new(Swatch::Framed(TRIBE_COLOURS[0], 4), "city walls"),
        LegendEntry::new(Swatch::Square(NEUTRAL), "neutral village"),
        LegendEntry::heading("Units:"),
    ]);
    for u in &UNITS {
        out.push(LegendEntry::new(
            Swatch::Glyph {
                text: u.letter.to_string(),
                colour: WHITE,
                disc: Some(NEUTRAL),
            },
            u.name,
        ));
    }
    out.push(LegendEntry::heading(
        "A resource is the dot at a tile's top right, a building the letter at its bottom left; \
         cities and units (hit points under the letter) take their owner's colour. \
         Each panel is the map after that many turns (each tribe plays once a turn), \
         the tribes' standing under it.",
    ));
    out
}

/// `a` blended towards `b` by `t` (what `b.mix(t)` drawn over `a` looks like).
fn mix(a: RGBColor, b: RGBColor, t: f64) -> RGBColor {
    let m = |x: u8, y: u8| (f64::from(x) * (1.0 - t) + f64::from(y) * t).round() as u8;
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// Draws the start of a game on `level` (one panel).
pub fn level_map(path: &Path, title: &str, level: &Level) -> Result<(), PlotError> {
    let state = StrategyState::new(level, &GameConfig::default()).map_err(|e| PlotError {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let caption = format!("level {} ({}x{})", level.seed, level.size, level.size);
    game_map(path, title, &[Snapshot { caption, state }])
}

fn draw_panel<DB: DrawingBackend>(
    panel: &DrawingArea<DB, plotters::coord::Shift>,
    snap: &Snapshot,
) -> Result<(), DrawError> {
    let s = &snap.state;
    let n = s.size() as f64;
    let (panel, footer) = panel.split_vertically(panel.dim_in_pixel().1 as i32 - 40);
    let chart = ChartBuilder::on(&panel)
        .caption(&snap.caption, ("sans-serif", 18))
        .margin(8)
        .build_cartesian_2d(0.0..n, n..0.0)
        .map_err(text)?;
    let area = chart.plotting_area();
    let centred = |size: i32, colour: RGBColor| {
        ("sans-serif", size)
            .into_font()
            .color(&colour)
            .pos(Pos::new(HPos::Center, VPos::Center))
    };
    let cell = area.map_coordinate(&(1.0, 0.0)).0 - area.map_coordinate(&(0.0, 0.0)).0;
    let px = |f: f64| ((cell as f64) * f).round().max(1.0) as i32;
    for t in 0..s.size() * s.size() {
        let (x, y) = ((t % s.size()) as f64, (t / s.size()) as f64);
        let tile = s.tile(t);
        area.draw(&Rectangle::new(
            [(x, y), (x + 1.0, y + 1.0)],
            terrain_colour(tile.terrain).filled(),
        ))
        .map_err(text)?;
        if tile.city != NONE {
            let owner = s.cities()[tile.city as usize].owner;
            if owner != NONE {
                area.draw(&Rectangle::new(
                    [(x, y), (x + 1.0, y + 1.0)],
                    owner_colour(owner).mix(0.35).filled(),
                ))
                .map_err(text)?;
            }
        }
        area.draw(&Rectangle::new(
            [(x, y), (x + 1.0, y + 1.0)],
            RGBColor(255, 255, 255).mix(0.5).stroke_width(1),
        ))
        .map_err(text)?;
        if let Some(c) = resource_colour(tile.resource) {
            area.draw(&Circle::new((x + 0.82, y + 0.18), px(0.09), c.filled()))
                .map_err(text)?;
        }
        if let Some(b) = tile.building {
            let label = b.info().letter.to_string();
            area.draw(&Text::new(
                label,
                (x + 0.2, y + 0.8),
                centred(px(0.32), BLACK),
            ))
            .map_err(text)?;
        }
    }
    for c in s.cities() {
        let t = c.pos as usize;
        let (x, y) = ((t % s.size()) as f64, (t / s.size()) as f64);
        let colour = owner_colour(c.owner);
        area.draw(&Rectangle::new(
            [(x + 0.1, y + 0.1), (x + 0.9, y + 0.9)],
            colour.filled(),
        ))
        .map_err(text)?;
        if c.walls || c.capital_of != NONE {
            area.draw(&Rectangle::new(
                [(x + 0.1, y + 0.1), (x + 0.9, y + 0.9)],
                BLACK.stroke_width(if c.walls { 4 } else { 2 }),
            ))
            .map_err(text)?;
        }
        let label = if c.capital_of != NONE {
            format!("\u{2605}{}", c.level)
        } else {
            c.level.to_string()
        };
        area.draw(&Text::new(
            label,
            (x + 0.5, y + 0.22),
            centred(px(0.22), WHITE),
        ))
        .map_err(text)?;
    }
    for (_, u) in s.units() {
        let t = u.pos as usize;
        let (x, y) = ((t % s.size()) as f64 + 0.5, (t / s.size()) as f64 + 0.62);
        let colour = TRIBE_COLOURS[u.owner as usize & 1];
        area.draw(&Circle::new((x, y), px(0.27), colour.filled()))
            .map_err(text)?;
        area.draw(&Circle::new((x, y), px(0.27), WHITE.stroke_width(2)))
            .map_err(text)?;
        let stats = u.kind.stats();
        area.draw(&Text::new(
            stats.letter.to_string(),
            (x, y - 0.07),
            centred(px(0.26), WHITE),
        ))
        .map_err(text)?;
        area.draw(&Text::new(
            u.hp.to_string(),
            (x, y + 0.15),
            centred(px(0.16), WHITE),
        ))
        .map_err(text)?;
    }
    for (p, colour) in TRIBE_COLOURS.iter().enumerate() {
        let line = format!(
            "tribe {p}: score {}  stars {} (+{})  cities {}  techs {}  units {}",
            s.score_of(p),
            s.stars(p),
            s.production(p),
            s.city_count(p),
            s.tech_count(p),
            s.unit_count(p)
        );
        footer
            .draw(&Text::new(
                line,
                (12, 2 + 18 * p as i32),
                ("sans-serif", 14).into_font().color(colour),
            ))
            .map_err(text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use playtune_harness::draw::legend_height;

    /// The legend names each tribe's colour and agent, every terrain, resource,
    /// building and unit type the map can show, and the city marks.
    #[test]
    fn the_legend_explains_every_mark() {
        let agents = ["rule".to_string(), "hps(depth=2)".to_string()];
        let legend = legend(&agents);
        let has = |label: &str, swatch: Option<&Swatch>| {
            legend
                .iter()
                .any(|e| e.label == label && swatch.is_none_or(|s| &e.swatch == s))
        };
        assert!(has(
            "tribe 0: rule",
            Some(&Swatch::Square(TRIBE_COLOURS[0]))
        ));
        assert!(has(
            "tribe 1: hps(depth=2)",
            Some(&Swatch::Square(TRIBE_COLOURS[1]))
        ));
        assert!(has("neutral village", Some(&Swatch::Square(NEUTRAL))));
        for (t, name) in TERRAINS {
            assert!(
                has(name, Some(&Swatch::Square(terrain_colour(t)))),
                "{name}"
            );
        }
        for (r, name) in RESOURCES {
            let colour = resource_colour(r).unwrap();
            assert!(has(name, Some(&Swatch::Disc(colour, 1.0))), "{name}");
        }
        for b in &BUILDING_INFO {
            let letter = b.letter.to_string();
            assert!(
                legend.iter().any(
                    |e| matches!(&e.swatch, Swatch::Glyph { text, .. } if *text == letter)
                        && e.label == b.name.replace('_', " ")
                ),
                "{}",
                b.name
            );
        }
        for u in &UNITS {
            assert!(has(u.name, None), "{}", u.name);
        }
        for city in ["level", "capital", "walls", "hit points"] {
            assert!(legend.iter().any(|e| e.label.contains(city)), "{city}");
        }
        // Without agents the tribes are numbered; the legend fits under one panel.
        assert!(super::legend(&[]).iter().any(|e| e.label == "tribe 1"));
        let height = legend_height(&legend, 560);
        assert!(height > 0 && height < 620, "{height}");
    }
}
