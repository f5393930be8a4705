//! The page of an experiment's folder: its Markdown tables, its figures, and a line for
//! each run folder inside it.

use super::*;

/// Run folders under `dir` (a run folder's own subfolders are not searched), sorted.
fn run_folders(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    subs.sort();
    for s in subs {
        if s.join(CONFIG_FILE).is_file() {
            out.push(s);
        } else if depth > 1 {
            run_folders(&s, depth - 1, out);
        }
    }
}

/// Files in `dir` whose extension is `ext`, sorted by name.
fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Where an experiment's figures are by default: the `plots/` twin of a folder under
/// `runs/` (runs/published/X: plots/published/X), else plots/<name>.
fn default_plots(dir: &Path) -> PathBuf {
    let parts: Vec<_> = dir.components().collect();
    if let Some(i) = parts.iter().position(|c| c.as_os_str() == "runs") {
        let mut p: PathBuf = parts[..i].iter().collect();
        p.push("plots");
        p.extend(&parts[i + 1..]);
        if p.is_dir() {
            return p;
        }
    }
    Path::new("plots").join(folder_name(dir))
}

fn id_of(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// The page of an experiment's folder.
pub(super) fn experiment_report(dir: &Path, plots: Option<&Path>) -> Result<String> {
    let name = folder_name(dir);
    let mut sections = Vec::new();
    let mut md = files_with(dir, "md");
    // The summary first.
    md.sort_by_key(|p| p.file_name().is_none_or(|n| n != "summary.md"));
    for f in &md {
        let text = playtune::run::files::read_plain_text(f).map_err(|source| Error::Io {
            what: format!("cannot read {}", f.display()),
            source,
        })?;
        if text.trim().is_empty() {
            continue;
        }
        let file = f.file_name().unwrap_or_default().to_string_lossy();
        sections.push(Section::new(
            &format!("tables-{}", id_of(&file)),
            &format!("Tables: {file}"),
            markdown(&text),
        ));
    }
    for f in files_with(dir, "txt") {
        let text = playtune::run::files::read_plain_text(&f).unwrap_or_default();
        if text.trim().is_empty() {
            continue;
        }
        let file = f.file_name().unwrap_or_default().to_string_lossy();
        sections.push(Section::new(
            &format!("settings-{}", id_of(&file)),
            &format!("Settings: {file}"),
            format!("<pre>{}</pre>\n", escape(text.trim_end())),
        ));
    }
    let plots = plots.map_or_else(|| default_plots(dir), Path::to_path_buf);
    let pngs = files_with(&plots, "png");
    if !pngs.is_empty() {
        let mut body = format!(
            "<p class=\"note\">The figures in <code>{}</code>.</p>\n",
            escape(&plots.display().to_string())
        );
        for p in &pngs {
            let file = p.file_name().unwrap_or_default().to_string_lossy();
            body.push_str(&figure(
                p,
                &file,
                &format!("<code>{}</code>", escape(&file)),
            )?);
        }
        sections.push(Section::new("figures", "Figures", body));
    }
    let mut runs = Vec::new();
    run_folders(dir, 3, &mut runs);
    if !runs.is_empty() {
        let rows: Vec<Vec<String>> = runs
            .iter()
            .map(|r| {
                let rel = r.strip_prefix(dir).unwrap_or(r).display().to_string();
                let mut row = vec![format!("<code>{}</code>", escape(&rel))];
                match (playtune::registry::read_config(r), playtune::run::read_result(r)) {
                    (Ok(c), Ok(res)) => {
                        let best = res
                            .trials
                            .iter()
                            .max_by(|a, b| a.final_value().total_cmp(&b.final_value()));
                        row.extend([
                            escape(c.algorithm.name()),
                            escape(&c.problem.name),
                            format!("{} × {}", c.trials, c.budget),
                            format!(
                                "{} ± {}",
                                num(res.final_value.mean),
                                num(res.final_value.se())
                            ),
                            best.map(|t| {
                                format!(
                                    "trial {}: {}<br><code>{}</code>",
                                    t.trial,
                                    estimate_html(t),
                                    escape(&shorten(&point_text(t), 240))
                                )
                            })
                            .unwrap_or_default(),
                        ]);
                    }
                    (Ok(c), Err(_)) => row.extend([
                        escape(c.algorithm.name()),
                        escape(&c.problem.name),
                        format!("{} × {}", c.trials, c.budget),
                        "unfinished".into(),
                        if playtune::run::is_manual(&c) {
                            format!(
                                "not finished: <code>playtune ask {0}</code> / <code>playtune tell {0}</code>",
                                escape(&r.display().to_string())
                            )
                        } else {
                            format!(
                                "not finished: <code>playtune resume {}</code>",
                                escape(&r.display().to_string())
                            )
                        },
                    ]),
                    (Err(e), _) => row.extend([
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                        escape(&e.to_string()),
                    ]),
                }
                row
            })
            .collect();
        let body = format!(
            "<p>{} run folder(s); <code>playtune report FOLDER</code> gives any of them its own page. The final value is the trials' mean (true fitness where the problem knows it, else the optimiser's estimate; MAP-Elites: QD score) ± its standard error; the recommendation is the best trial's.</p>\n<div class=\"wide\">{}</div>",
            runs.len(),
            table(
                &[
                    "run",
                    "algorithm",
                    "problem",
                    "trials × budget",
                    "final value",
                    "best trial's recommendation",
                ],
                &rows
            )
        );
        sections.push(Section::new("runs", "Runs", body));
    }
    if sections.is_empty() {
        return Err(Error::NotAReportFolder {
            dir: dir.to_path_buf(),
            plots: plots.to_path_buf(),
        });
    }
    Ok(html::page(
        &format!("playtune report: {name}"),
        &format!(
            "experiment folder <code>{}</code>",
            escape(&dir.display().to_string())
        ),
        &sections,
    ))
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max).collect();
        format!("{cut} …")
    }
}
