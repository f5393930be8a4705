//! Space Battle Evolved game maps, the way the NTBEA paper shows evolved games
//! (Figure 3): the torus with its black holes (radius, and the penalty area inside
//! the safe zone), both ships' trails, and the missiles, bombs and packs at chosen
//! ticks, one panel per tick.

use super::SbeState;
use super::geometry::{HEIGHT, WIDTH};
use super::objects::ObjectKind;
use playtune_harness::draw::{
    DrawError, LegendEntry, PlotError, Swatch, draw_legend, frames, legend_height, render, text,
};
use plotters::prelude::*;
use std::path::Path;

/// Draws a played game: `history` holds the state before every tick, then the final
/// one; one panel for each turn in `at`, a turn being a tick (empty: the start, a
/// third, two thirds, the end; a tick at or past the end draws the final state).
/// `agents` names who flies each ship, for the legend (empty: the ships' numbers).
pub fn game_map(
    history: &[SbeState],
    at: &[u32],
    title: &str,
    agents: &[String],
    path: &Path,
) -> Result<(), super::Error> {
    let ticks: Vec<u32> = history.iter().map(SbeState::tick).collect();
    let frames = frames(&ticks, at);
    if frames.is_empty() {
        return Err(super::Error::NothingToDraw);
    }
    let mut trails: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for s in history {
        for (i, t) in trails.iter_mut().enumerate() {
            t.push((s.ship(i).pos.x, s.ship(i).pos.y));
        }
    }
    let snaps: Vec<Snapshot> = frames
        .iter()
        .map(|f| Snapshot {
            caption: if f.end {
                format!("tick {} (end)", f.turn)
            } else {
                format!("tick {}", f.turn)
            },
            state: history[f.index].clone(),
            trails: trails.clone().map(|t| t[..=f.index].to_vec()),
        })
        .collect();
    Ok(panels(path, title, &snaps, &legend(agents))?)
}

/// What a panel shows: the state at a tick and the ships' positions up to it.
struct Snapshot {
    caption: String,
    state: SbeState,
    trails: [Vec<(f64, f64)>; 2],
}

const BOMB: RGBColor = RGBColor(255, 140, 0);
const PACK: RGBColor = RGBColor(44, 160, 44);
const HOLE: RGBColor = RGBColor(60, 60, 60);
const PENALTY: RGBColor = RGBColor(20, 20, 20);

/// The legend of a map: which colour is which ship (and its agent), then every mark.
pub(crate) fn legend(agents: &[String]) -> Vec<LegendEntry> {
    let mut out = vec![LegendEntry::heading("Ships:")];
    for (p, colour) in SHIP_COLOURS.iter().enumerate() {
        let label = match agents.get(p) {
            Some(name) => format!("ship {p}: {name}"),
            None => format!("ship {p}"),
        };
        out.push(LegendEntry::new(Swatch::Disc(*colour, 1.0), label));
    }
    out.extend([
        LegendEntry::new(Swatch::Line(RGBColor(120, 120, 120)), "heading and trail"),
        LegendEntry::heading("Objects:"),
        LegendEntry::new(Swatch::Disc(SHIP_COLOURS[0], 1.0), "missile"),
        LegendEntry::new(Swatch::Disc(BOMB, 0.6), "bomb"),
        LegendEntry::new(Swatch::Disc(PACK, 1.0), "pack (points)"),
        LegendEntry::heading("Black holes:"),
        LegendEntry::new(
            Swatch::Disc(HOLE, 0.15),
            "pull radius, its rim the safe zone",
        ),
        LegendEntry::new(Swatch::Disc(PENALTY, 0.55), "penalty area (loses points)"),
        LegendEntry::heading(
            "A ship's heading (the line from it), trail and missiles are in its colour. \
             Each panel is the map after that many ticks, each ship's points at its top.",
        ),
    ]);
    out
}

const SHIP_COLOURS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];

/// Splits a trail where it wraps around the torus, so no line crosses the map.
fn unwrap_segments(trail: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for w in trail.windows(2) {
        if (w[1].0 - w[0].0).abs() > WIDTH / 2.0 || (w[1].1 - w[0].1).abs() > HEIGHT / 2.0 {
            out.push(Vec::new());
        }
        if let Some(s) = out.last_mut() {
            s.push(w[1]);
        }
    }
    if let (Some(first), Some(p)) = (out.first_mut(), trail.first()) {
        first.insert(0, *p);
    }
    out.into_iter().filter(|s| s.len() > 1).collect()
}

/// Draws one panel per snapshot side by side (up to 3 per row).
fn panels(
    path: &Path,
    title: &str,
    snapshots: &[Snapshot],
    legend: &[LegendEntry],
) -> Result<(), PlotError> {
    let cols = snapshots.len().clamp(1, 3);
    let rows = snapshots.len().div_ceil(cols).max(1);
    let width = cols as u32 * 660;
    let key = legend_height(legend, width as i32) as u32;
    let size = (width, rows as u32 * 540 + 50 + key);
    render!(path, size, |root| (|| -> Result<(), DrawError> {
        root.fill(&WHITE).map_err(text)?;
        let root = root.titled(title, ("sans-serif", 24)).map_err(text)?;
        let (maps, key_area) = root.split_vertically(rows as u32 * 540);
        draw_legend(&key_area, legend)?;
        let panels = maps.split_evenly((rows, cols));
        for (panel, snap) in panels.iter().zip(snapshots) {
            let chart = ChartBuilder::on(panel)
                .caption(&snap.caption, ("sans-serif", 18))
                .margin(8)
                .build_cartesian_2d(0.0..WIDTH, HEIGHT..0.0)
                .map_err(text)?;
            chart
                .plotting_area()
                .fill(&RGBColor(250, 250, 252))
                .map_err(text)?;
            let area = chart.plotting_area();
            for hole in snap.state.black_holes() {
                let c = (hole.centre.x, hole.centre.y);
                // Radii are in map pixels; the panel keeps the map's aspect ratio.
                let scale =
                    |r: f64| area.map_coordinate(&(r, 0.0)).0 - area.map_coordinate(&(0.0, 0.0)).0;
                area.draw(&Circle::new(c, scale(hole.radius), HOLE.mix(0.15).filled()))
                    .map_err(text)?;
                area.draw(&Circle::new(
                    c,
                    scale(hole.penalty_radius().max(0.0)),
                    PENALTY.mix(0.45).filled(),
                ))
                .map_err(text)?;
                area.draw(&Circle::new(c, 2, BLACK.filled()))
                    .map_err(text)?;
            }
            for (p, trail) in snap.trails.iter().enumerate() {
                for seg in unwrap_segments(trail) {
                    area.draw(&PathElement::new(
                        seg,
                        SHIP_COLOURS[p].mix(0.6).stroke_width(1),
                    ))
                    .map_err(text)?;
                }
            }
            for o in snap.state.objects().iter().filter(|o| o.alive) {
                let style = match o.kind {
                    ObjectKind::Missile => SHIP_COLOURS[o.owner.clamp(0, 1) as usize].filled(),
                    ObjectKind::Bomb => BOMB.mix(0.6).filled(),
                    ObjectKind::Pack => PACK.filled(),
                };
                let r = match o.kind {
                    ObjectKind::Pack => 4,
                    _ => (o.radius as i32).clamp(2, 30),
                };
                area.draw(&Circle::new((o.pos.x, o.pos.y), r, style))
                    .map_err(text)?;
            }
            for (p, colour) in SHIP_COLOURS.iter().enumerate() {
                let ship = snap.state.ship(p);
                let (x, y) = (ship.pos.x, ship.pos.y);
                let nose = (x + ship.dir.x * 26.0, y + ship.dir.y * 26.0);
                area.draw(&Circle::new((x, y), 9, colour.filled()))
                    .map_err(text)?;
                area.draw(&PathElement::new(
                    vec![(x, y), nose],
                    colour.stroke_width(3),
                ))
                .map_err(text)?;
                let label = format!("ship {p}: {:.0} points", snap.state.points(p));
                area.draw(&Text::new(
                    label,
                    (8.0 + 320.0 * p as f64, 18.0),
                    ("sans-serif", 15).into_font().color(colour),
                ))
                .map_err(text)?;
            }
        }
        Ok(())
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_names_each_ship_and_every_mark() {
        let legend = legend(&["mcts".to_string(), "ras".to_string()]);
        let find = |label: &str| legend.iter().find(|e| e.label.starts_with(label));
        assert_eq!(
            find("ship 0: mcts").map(|e| &e.swatch),
            Some(&Swatch::Disc(SHIP_COLOURS[0], 1.0))
        );
        assert_eq!(
            find("ship 1: ras").map(|e| &e.swatch),
            Some(&Swatch::Disc(SHIP_COLOURS[1], 1.0))
        );
        for mark in [
            "missile",
            "bomb",
            "pack",
            "pull radius",
            "penalty area",
            "heading",
        ] {
            assert!(find(mark).is_some(), "{mark}");
        }
    }
}
