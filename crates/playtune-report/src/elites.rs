//! A MAP-Elites run's elites as a table (cell id, fitness, features, point), and the
//! run's `validation.md` when `playtune validate` wrote one.

use super::html::{Section, escape, markdown, num, table};
use playtune::eval::Problem;
use playtune::optim::map_elites::{AnyArchive, Archive};
use playtune::run::{RunConfig, RunResult};
use std::fmt::Write;
use std::path::Path;

/// The most elites the table lists (the best ones); `result.ron` holds them all.
pub(crate) const SHOWN: usize = 500;

/// The name of each feature: the problem's, else numbered.
fn feature_names(problem: Option<&dyn Problem>, n: usize) -> Vec<String> {
    problem
        .map(|p| p.feature_names())
        .filter(|names| names.len() == n)
        .unwrap_or_else(|| (0..n).map(|i| format!("feature_{i}")).collect())
}

/// The feature index of each of the archive's axes.
fn axis_features(archive: &AnyArchive) -> Vec<usize> {
    match archive {
        AnyArchive::Grid(a) => a.axis_features.clone(),
        AnyArchive::Cvt(a) => a.axis_features.clone(),
    }
}

/// Trial 0's elites, best first: each one's cell id (as `playtune validate --cells`
/// takes it and the heatmap writes it), fitness, features (the archive's axes first),
/// point and when it was found. `None` for a run without an archive.
pub(crate) fn elites_section(
    config: &RunConfig,
    result: &RunResult,
    problem: Option<&dyn Problem>,
) -> Option<Section> {
    let trial = result.trials.iter().find(|t| t.archive.is_some())?;
    let archive = trial.archive.as_ref()?;
    let elites = archive.elites();
    let n_features = elites.first().map_or(0, |e| e.features.len());
    let names = feature_names(problem, n_features);
    let axes = axis_features(archive);
    let mut order: Vec<usize> = axes.iter().copied().filter(|&f| f < n_features).collect();
    order.extend((0..n_features).filter(|f| !axes.contains(f)));
    let replayed = elites.iter().any(|e| e.replay.is_some());
    let mut header: Vec<String> = vec!["cell".into(), "fitness".into()];
    if replayed {
        header.push("replayed fitness (mean ± se)".into());
    }
    for &f in &order {
        header.push(if axes.contains(&f) {
            format!("{} (axis)", names[f])
        } else {
            names[f].clone()
        });
    }
    header.extend(["point".into(), "found at evaluation".into()]);
    let mut sorted: Vec<usize> = (0..elites.len()).collect();
    sorted.sort_by(|&a, &b| {
        elites[b]
            .fitness
            .total_cmp(&elites[a].fitness)
            .then_with(|| elites[a].cell.cmp(&elites[b].cell))
    });
    let rows: Vec<Vec<String>> = sorted
        .iter()
        .take(SHOWN)
        .map(|&i| {
            let e = &elites[i];
            let mut row = vec![
                format!(
                    "<code>{}</code>",
                    escape(&crate::plot::run::cell_id(&e.cell))
                ),
                format!("<strong>{}</strong>", num(e.fitness)),
            ];
            if replayed {
                row.push(
                    e.replay
                        .as_ref()
                        .map(|r| format!("{} ± {}", num(r.fitness.mean), num(r.fitness.se())))
                        .unwrap_or_default(),
                );
            }
            for &f in &order {
                row.push(e.features.get(f).copied().map(num).unwrap_or_default());
            }
            let point: Vec<String> = config
                .space
                .render(&e.values)
                .into_iter()
                .map(|(k, v)| match v.parse::<f64>() {
                    // Numbers as everywhere on the page; result.ron keeps them whole.
                    Ok(x) => format!("{k}={}", num(x)),
                    Err(_) => format!("{k}={v}"),
                })
                .collect();
            row.push(format!("<code>{}</code>", escape(&point.join(", "))));
            row.push(e.found_at.to_string());
            row
        })
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut body = format!(
        "<p>Trial {}'s {} elites, the fittest first. A cell's id is what the heatmap writes in the cell and what <code>playtune validate RUN --cells ID</code> takes and prints (a grid cell's bucket on each axis, from 0; a CVT cell's centroid). Numbers are rounded; <code>result.ron</code> holds them whole.</p>\n",
        trial.trial,
        elites.len()
    );
    let _ = write!(body, "<div class=\"wide\">{}</div>", table(&header, &rows));
    if elites.len() > SHOWN {
        let _ = writeln!(
            body,
            "<p class=\"note\">The {SHOWN} fittest of {} elites; every one is in <code>result.ron</code>.</p>",
            elites.len()
        );
    }
    Some(Section::new("elites", "Elites", body))
}

/// The run's `validation.md` (`playtune validate`), if it has one.
pub(crate) fn validation_section(dir: &Path) -> Option<Section> {
    let text = playtune::run::files::read_plain_text(&dir.join("validation.md")).ok()?;
    if text.trim().is_empty() {
        return None;
    }
    let body = format!(
        "<p class=\"note\">From <code>validation.md</code>, written by <code>playtune validate</code>: chosen elites evaluated again; the cell ids are the heatmap's and the elites table's.</p>\n{}",
        markdown(&text)
    );
    Some(Section::new("validation", "Validation", body))
}
