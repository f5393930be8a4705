//! The page of one run folder: its configuration, the run's summary, the
//! recommendation and its verdict, parameter importance, and the pictures `plot::run`
//! draws.

use super::*;

/// The estimate with its 95% interval (estimate ± 1.96 se) and samples, as HTML.
pub(super) fn estimate_html(t: &TrialResult) -> String {
    if t.estimate_samples >= 2 && t.estimate_se > 0.0 {
        let half = 1.96 * t.estimate_se;
        format!(
            "{} ± {} <span class=\"note\">(95% interval {} to {}; {} samples)</span>",
            num(t.estimate),
            num(half),
            num(t.estimate - half),
            num(t.estimate + half),
            t.estimate_samples
        )
    } else {
        let why = match t.estimate_samples {
            0 => "no evaluation of exactly this point: the model's estimate, no interval".into(),
            1 => "1 sample: no interval".to_string(),
            n => format!("{n} samples"),
        };
        format!("{} <span class=\"note\">({why})</span>", num(t.estimate))
    }
}

pub(super) fn point_text(t: &TrialResult) -> String {
    t.recommendation
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn configuration(dir: &Path, config: &RunConfig, problem: Option<&dyn Problem>) -> Section {
    let settings = if config.problem.settings.is_empty() {
        "its defaults".to_string()
    } else {
        config
            .problem
            .settings
            .iter()
            .map(|(k, v)| format!("<code>{}={}</code>", escape(k), escape(v)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let default_axes = problem.map(|p| p.default_axes());
    let axes = settings::axes_html(&config.algorithm, default_axes.as_deref());
    let algo: Vec<String> = algorithm_flags(&config.algorithm)
        .iter()
        .map(|f| format!("<code>{}</code>", escape(&f.text())))
        .collect();
    let searched = config.space.dims.iter().filter(|d| !d.fixed).count();
    let mut rows = vec![
        (
            "run folder",
            format!("<code>{}</code>", escape(&folder_name(dir))),
        ),
        (
            "problem",
            format!("<strong>{}</strong>", escape(&config.problem.name)),
        ),
        ("problem settings", settings),
        (
            "algorithm",
            format!("<strong>{}</strong>", escape(config.algorithm.name())),
        ),
        (
            "algorithm settings",
            format!(
                "{} <span class=\"note\">(as on the command line; switches not shown are off)</span>",
                algo.join(" ")
            ),
        ),
        ("budget", format!("{} evaluations per trial", config.budget)),
        ("trials", config.trials.to_string()),
        ("seed", config.seed.to_string()),
        (
            "space",
            format!(
                "<code>{}</code>{}: {} dimensions, {} searched, {} points",
                escape(&config.space.name),
                config
                    .space_file
                    .as_ref()
                    .map(|f| format!(" (from <code>{}</code>)", escape(f)))
                    .unwrap_or_default(),
                config.space.dims.len(),
                searched,
                num(config.space.size())
            ),
        ),
        (
            "constraints",
            if config.space.constraints.is_empty() {
                "none".to_string()
            } else {
                config
                    .space
                    .constraints
                    .iter()
                    .map(|c| format!("<code>{}</code>", escape(&c.to_string())))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        ),
        (
            "failed evaluations",
            format!(
                "retried {} time(s); the run stops past {}% failed",
                config.faults.retries,
                num(100.0 * config.faults.max_failures)
            ),
        ),
        (
            "playtune version",
            escape(&config.playtune_version).to_string(),
        ),
    ];
    if let Some(axes) = axes {
        rows.insert(5, ("feature axes", axes));
    }
    let dims: Vec<Vec<String>> = config
        .space
        .dims
        .iter()
        .map(|d| {
            let default = d.domain.render(d.domain.value(d.default));
            vec![
                format!("<code>{}</code>", escape(&d.name)),
                escape(&d.domain.describe()),
                d.domain.len().to_string(),
                if d.fixed {
                    format!("fixed at {}", escape(&default))
                } else {
                    format!("searched (default {})", escape(&default))
                },
            ]
        })
        .collect();
    let mut body = key_values(&rows);
    body.push_str("<h3>The space</h3>\n<div class=\"wide\">");
    body.push_str(&table(
        &["dimension", "domain", "values", "searched"],
        &dims,
    ));
    body.push_str("</div>");
    Section::new("configuration", "Configuration", body)
}

fn run_summary(dir: &Path, config: &RunConfig, result: &RunResult) -> Result<Section> {
    let s = &result.spent;
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (phase, n, what) in [
        ("search", s.search, "the search itself"),
        ("preprocess", s.preprocess, "B-RMHC's importance estimation"),
        (
            "select",
            s.select,
            "re-evaluating each NTBEA run's recommendation",
        ),
        (
            "race",
            s.race,
            "racing the strongest candidates on common fresh seeds",
        ),
        ("reevaluate", s.reevaluate, "re-playing MAP-Elites' elites"),
        (
            "reused",
            s.reused,
            "taken from the log of an interrupted run",
        ),
    ] {
        if n > 0 || phase == "search" {
            rows.push(vec![
                phase.into(),
                format!("<span class=\"num\">{n}</span>"),
                what.into(),
            ]);
        }
    }
    rows.push(vec![
        "<strong>total</strong>".into(),
        format!("<strong>{}</strong>", s.total()),
        format!("over {} trial(s)", result.trials.len()),
    ]);
    rows.push(vec![
        "failed".into(),
        s.failed.to_string(),
        "failed after their retries (see failures.jsonl)".into(),
    ]);
    let mut body = table(&["evaluations", "count", "what for"], &rows);
    let fv = &result.final_value;
    // What the final value is for this run, in one phrase: a reader must not take a
    // fresh measurement for a model value, or the reverse.
    let what = if result.trials.iter().any(|t| !t.history.is_empty()) {
        "each trial's QD score"
    } else if result.trials.iter().all(|t| t.true_fitness.is_some()) {
        "the recommendation's true fitness, known for this benchmark"
    } else if result.trials.iter().all(|t| t.final_value_measured()) {
        "the recommendation's mean on the verdict's fresh seeds"
    } else if result.trials.iter().any(|t| t.final_value_measured()) {
        "the verdict's fresh mean where a trial was judged, else the optimiser's estimate"
    } else if result.trials.iter().all(|t| t.spent.race > 0) {
        "the recommendation's mean over its race, on the race's common seeds (the best of the race's entrants, so lucky by a little)"
    } else if config.intensify.is_some() {
        "the best point's mean over its search evaluations, on the run's common seeds (the best so far, so lucky by a little)"
    } else {
        "the optimiser's estimate of its recommendation, a model value, not a measurement"
    };
    // One trial has no spread across trials: "± 0" would read as certainty.
    let mut line = if fv.n < 2 {
        format!(
            "<p>Final value ({what}): <strong>{}</strong> (one trial, so no standard error across trials)",
            num(fv.mean)
        )
    } else {
        format!(
            "<p>Final value over trials ({what}): <strong>{}</strong> ± {} (standard error, {} trials)",
            num(fv.mean),
            num(fv.se()),
            fv.n
        )
    };
    if let Some(rate) = result.success_rate {
        let _ = write!(
            line,
            "; share of trials whose recommendation is optimal: {}%",
            num(100.0 * rate)
        );
    }
    line.push_str(".</p>\n");
    body.push_str(&line);
    let failures = read_failures(&dir.join(FAILURES_FILE), Some(config))?;
    if !failures.is_empty() {
        let mut f: Vec<_> = failures.into_values().collect();
        f.sort_by_key(|r| (r.trial, r.index));
        const SHOWN: usize = 200;
        let rows: Vec<Vec<String>> = f
            .iter()
            .take(SHOWN)
            .map(|r| {
                vec![
                    r.trial.to_string(),
                    r.index.to_string(),
                    r.phase.as_str().into(),
                    r.attempts.to_string(),
                    format!("<code>{}</code>", escape(&r.reason)),
                ]
            })
            .collect();
        let _ = write!(
            body,
            "<h3>Failed evaluations ({})</h3>\n<div class=\"wide\">{}</div>",
            f.len(),
            table(&["trial", "index", "phase", "attempts", "reason"], &rows)
        );
        if f.len() > SHOWN {
            let _ = writeln!(
                body,
                "<p class=\"note\">The first {SHOWN} of {}; every one is in <code>failures.jsonl</code>.</p>",
                f.len()
            );
        }
    }
    Ok(Section::new("summary", "Run summary", body))
}

fn recommendation(result: &RunResult) -> Option<Section> {
    let best = result
        .trials
        .iter()
        .max_by(|a, b| a.final_value().total_cmp(&b.final_value()))?;
    let mut body = String::new();
    let several = result.trials.len() > 1;
    if several {
        let _ = writeln!(
            body,
            "<p>Of {} trials, trial {} has the highest final value; its recommendation (each trial's is below; picking the best of several estimates favours lucky ones):</p>",
            result.trials.len(),
            best.trial
        );
    }
    let mut rows: Vec<(&str, String)> = vec![("estimated fitness", estimate_html(best))];
    if let Some(tf) = best.true_fitness {
        let optimal = match best.optimal {
            Some(true) => " (a global optimum)",
            Some(false) => " (not a global optimum)",
            None => "",
        };
        rows.push(("true fitness", format!("{}{optimal}", num(tf))));
    }
    if let Some(f) = best.feasibility {
        let verdict = match f.recommendation {
            Some(true) => "feasible".to_string(),
            Some(false) => {
                "<strong>infeasible</strong>: no evaluated point met every constraint".into()
            }
            None => "never evaluated".into(),
        };
        rows.push((
            "constraints",
            format!(
                "{verdict}; {} feasible and {} infeasible evaluations over the run's trials",
                result
                    .trials
                    .iter()
                    .filter_map(|t| t.feasibility)
                    .map(|f| f.feasible)
                    .sum::<u64>(),
                result
                    .trials
                    .iter()
                    .filter_map(|t| t.feasibility)
                    .map(|f| f.infeasible)
                    .sum::<u64>()
            ),
        ));
    }
    body.push_str(&format!("<div class=\"big\">{}</div>", key_values(&rows)));
    let point: Vec<Vec<String>> = best
        .recommendation
        .iter()
        .map(|(k, v)| {
            vec![
                format!("<code>{}</code>", escape(k)),
                format!("<strong>{}</strong>", escape(v)),
            ]
        })
        .collect();
    body.push_str("<div class=\"wide\">");
    body.push_str(&table(&["parameter", "recommended value"], &point));
    body.push_str("</div>");
    if several {
        let has_true = result.trials.iter().any(|t| t.true_fitness.is_some());
        let rows: Vec<Vec<String>> = result
            .trials
            .iter()
            .map(|t| {
                let mut r = vec![t.trial.to_string(), estimate_html(t)];
                if has_true {
                    r.push(t.true_fitness.map(num).unwrap_or_default());
                }
                r.push(format!("<code>{}</code>", escape(&point_text(t))));
                r
            })
            .collect();
        let mut header = vec!["trial", "estimate ± 1.96 se"];
        if has_true {
            header.push("true fitness");
        }
        header.push("recommendation");
        let _ = write!(
            body,
            "<h3>Each trial's recommendation</h3>\n<div class=\"wide\">{}</div>",
            table(&header, &rows)
        );
    }
    Some(Section::new("recommendation", "Recommendation", body))
}

/// The verdict of the first judged trial: the recommendation against the baseline on
/// fresh common seeds, side by side, and its sentence.
fn verdict(result: &RunResult) -> Option<Section> {
    let (trial, v) = result
        .trials
        .iter()
        .find_map(|t| t.verdict.as_ref().map(|v| (t.trial, v)))?;
    let cell = |mean: f64, se: f64| {
        if mean.is_nan() {
            "-".to_string()
        } else {
            format!("{} ± {}", num(mean), num(se))
        }
    };
    let mut rows = vec![vec![
        format!("<strong>{}</strong>", escape(&v.fitness)),
        cell(v.recommendation.mean, v.recommendation.se),
        cell(v.baseline.mean, v.baseline.se),
    ]];
    for (r, b) in v.recommendation.features.iter().zip(&v.baseline.features) {
        rows.push(vec![
            format!("<code>{}</code>", escape(&r.name)),
            cell(r.mean, r.se),
            cell(b.mean, b.se),
        ]);
    }
    let broken = |b: &[String]| {
        if b.is_empty() {
            "met".to_string()
        } else {
            format!("<strong>breaks</strong> {}", escape(&b.join(", ")))
        }
    };
    rows.push(vec![
        "constraints".into(),
        broken(&v.recommendation.broken),
        broken(&v.baseline.broken),
    ]);
    let baseline = format!("baseline: {}", v.baseline.label);
    let body = format!(
        "<p class=\"big\">{}</p>\n<p>Trial {trial}'s recommendation and {} each evaluated {} times on seeds the search never used, the same seeds for both; mean ± standard error.</p>\n<div class=\"wide\">{}</div>",
        escape(&v.sentence),
        escape(&v.baseline.label),
        v.evaluations,
        table(&["", "recommendation", &baseline], &rows)
    );
    Some(Section::new("verdict", "Verdict", body))
}

fn importance(dir: &Path, config: &RunConfig, pictures: &Path) -> Result<Option<Section>> {
    let log = dir.join(LOG_FILE);
    let text = match playtune::run::files::read_plain_text(&log) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        // Named, not dropped: a page without the section would not say why.
        Err(e) => {
            return Ok(Some(Section::new(
                "importance",
                "Parameter importance",
                format!(
                    "<p class=\"note\">{} was not read ({}): no parameter importance.</p>\n",
                    escape(&log.display().to_string()),
                    escape(&e.to_string())
                ),
            )));
        }
    };
    // The features as the log's header names them (any name: `check`, a quote).
    let head = text.lines().next().unwrap_or("");
    let Some(features) = playtune::run::log::features_in_header(head, &config.space) else {
        return Ok(None);
    };
    let contents = read_log(&log, &config.space, &features)?;
    let rows: Vec<_> = contents.rows.into_iter().map(|(_, r)| r).collect();
    let used = rows
        .iter()
        .filter(|r| importance::is_search(r.phase) && r.eval.fitness.is_finite())
        .count();
    let stats = one_tuple_stats(&config.space, &rows);
    if stats.is_empty() {
        return Ok(None);
    }
    let mut body = format!(
        "<p>How much each parameter matters, computed from the {used} logged search evaluations \
         (pooled over trials) as NTBEA's 1-tuple statistics: for each value of a parameter, the \
         mean fitness of the evaluations that had it, with its standard error and count. A \
         parameter's <strong>importance</strong> is the spread of those means (highest mean − \
         lowest mean); parameters are listed from the most to the least important. A numeric \
         parameter with more than {} values is read in {} ranges of values. These are \
         averages over whatever the other parameters were, and a search that homed in on good \
         regions tried some values far more often than others: overlapping error bars mean the \
         evaluations cannot tell those values apart.</p>\n",
        importance::MAX_VALUES,
        importance::RANGES
    );
    if config.problem.name == "design" {
        body.push_str(
            "<p>Each evaluation's skill depth is the smallest of its rungs' noisy gaps,              which lies below the rules' true depth (a minimum of noisy values is biased              low), so these means can all be below 0 where the verdict, which pools the              rungs' games before taking the smallest gap, finds the recommendation deeper.              Compare the means with one another, not with the verdict.</p>\n",
        );
    }
    let rows: Vec<Vec<String>> = stats
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let (best, worst) = d.best_and_worst().expect("a value at least");
            let value = |v: &ValueStats| {
                format!(
                    "<strong>{}</strong>: {} ± {} (n = {})",
                    escape(&v.label),
                    num(v.fitness.mean),
                    num(v.fitness.se()),
                    v.fitness.n
                )
            };
            vec![
                (i + 1).to_string(),
                format!("<code>{}</code>", escape(&d.name)),
                num(d.spread),
                value(best),
                value(worst),
                d.values.len().to_string(),
            ]
        })
        .collect();
    body.push_str("<div class=\"wide\">");
    body.push_str(&table(
        &[
            "rank",
            "parameter",
            "importance (spread of means)",
            "best value: mean ± se",
            "worst value: mean ± se",
            "values tried",
        ],
        &rows,
    ));
    body.push_str("</div>\n<h3>Mean fitness per value (± one standard error)</h3>\n");
    const CHARTS: usize = 60;
    body.push_str("<div class=\"grid\">\n");
    for (i, d) in stats.iter().take(CHARTS).enumerate() {
        let bars: Vec<(String, f64, f64)> = d
            .values
            .iter()
            .map(|v| (v.label.clone(), v.fitness.mean, v.fitness.se()))
            .collect();
        let path = pictures.join(format!("importance_{i}.png"));
        crate::plot::small_error_bars(&path, &d.name, "mean fitness", &bars)?;
        let mut details = String::new();
        for v in &d.values {
            let _ = write!(
                details,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                escape(&v.label),
                num(v.fitness.mean),
                num(v.fitness.se()),
                v.fitness.n
            );
        }
        let caption = format!(
            "{}. <code>{}</code>: spread {}<details><summary>values</summary><table><thead><tr><th>value</th><th>mean</th><th>se</th><th>n</th></tr></thead><tbody>{details}</tbody></table></details>",
            i + 1,
            escape(&d.name),
            num(d.spread)
        );
        body.push_str(&figure(
            &path,
            &format!("mean fitness per value of {}", d.name),
            &caption,
        )?);
    }
    body.push_str("</div>\n");
    if stats.len() > CHARTS {
        let _ = writeln!(
            body,
            "<p class=\"note\">Charts for the {CHARTS} most important of {} parameters; the table lists all.</p>",
            stats.len()
        );
    }
    Ok(Some(Section::new(
        "importance",
        "Parameter importance",
        body,
    )))
}

/// The page of one run folder.
pub(super) fn run_report(dir: &Path) -> Result<String> {
    let config = playtune::registry::read_config(dir)?;
    if !dir.join(RESULT_FILE).is_file() {
        return Err(Error::NotFinished {
            dir: dir.to_path_buf(),
            how: playtune::run::how_to_finish(dir),
        });
    }
    let result = playtune::registry::read_result(dir)?;
    let name = folder_name(dir);
    let tmp = TempDir::new()?;
    let drawn = crate::plot::run::run_pictures(&crate::plot::run::RunPictures {
        run: dir.to_path_buf(),
        out: tmp.0.clone(),
        format: crate::plot::run::Format::Png,
        heatmaps: Vec::new(),
    });
    let picture = |stem: &str| -> Option<PathBuf> {
        let p = tmp.0.join(format!("{stem}.png"));
        p.is_file().then_some(p)
    };
    // The problem names features, default axes and known ranges; a run whose problem
    // no longer builds is still reported.
    // Built from what the folder records: a report runs none of its game's code.
    let problem = playtune::registry::recorded_problem(dir, &config).ok();
    let problem = problem.as_deref();
    let mut sections = vec![
        configuration(dir, &config, problem),
        run_summary(dir, &config, &result)?,
    ];
    sections.extend(recommendation(&result));
    sections.extend(verdict(&result));
    let map_elites = result.trials.iter().any(|t| t.archive.is_some());
    if !map_elites {
        let body = match picture("convergence") {
            Some(p) => figure(
                &p,
                "convergence",
                &format!(
                    "The recommendation after each twentieth of the budget: the optimiser's estimate of its fitness{}, mean over {} trial(s), shaded ± one standard error.",
                    if result
                        .trials
                        .iter()
                        .any(|t| t.trace.iter().any(|c| c.true_fitness.is_some()))
                    {
                        " and its true fitness"
                    } else {
                        ""
                    },
                    result.trials.len()
                ),
            )?,
            None => format!(
                "<p class=\"note\">No convergence plot: {}</p>\n",
                escape(&drawn.as_ref().err().map_or_else(
                    || "the run has no recommendation trace".to_string(),
                    |e| format!("{e:#}")
                ))
            ),
        };
        sections.push(Section::new("convergence", "Convergence", body));
    }
    sections.extend(importance(dir, &config, &tmp.0)?);
    if map_elites {
        let mut body = String::new();
        let rows: Vec<Vec<String>> = result
            .trials
            .iter()
            .filter_map(|t| {
                let m = t.history.last()?;
                Some(vec![
                    t.trial.to_string(),
                    m.filled.to_string(),
                    format!("{}%", num(100.0 * m.coverage)),
                    num(m.qd_score),
                    num(m.max_fitness),
                    num(m.mean_fitness),
                ])
            })
            .collect();
        body.push_str(&table(
            &[
                "trial",
                "cells filled",
                "coverage",
                "QD score",
                "best fitness",
                "mean fitness",
            ],
            &rows,
        ));
        let mut heatmaps: Vec<PathBuf> = drawn
            .as_ref()
            .map(|w| {
                w.iter()
                    .filter(|p| {
                        p.file_stem()
                            .is_some_and(|s| s.to_string_lossy().starts_with("heatmap"))
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        heatmaps.sort();
        if heatmaps.is_empty() {
            body.push_str("<p class=\"note\">No heatmap: the archive is not a grid of one to three axes (a CVT archive's cells are not rectangles).</p>\n");
        }
        for h in &heatmaps {
            body.push_str(&figure(
                h,
                "archive heatmap",
                "Trial 0's archive: each cell's elite coloured by its fitness (hatched cells hold no elite), on the fitness's full range where the problem knows it (a win rate: 0 to 1). The id written in each cell is the one the elites table below, <code>playtune validate --cells</code> and <code>validation.md</code> use.",
            )?);
        }
        sections.push(Section::new("archive", "Archive", body));
        sections.extend(elites::elites_section(&config, &result, problem));
        let mut body = String::new();
        for (stem, caption) in [
            (
                "coverage",
                "Coverage: the share of the archive's cells holding an elite, per trial.",
            ),
            (
                "qd_score",
                "QD score: the sum of the elites' fitness (offset so that every elite counts positively), per trial.",
            ),
        ] {
            if let Some(p) = picture(stem) {
                body.push_str(&figure(&p, stem, caption)?);
            }
        }
        if !body.is_empty() {
            sections.push(Section::new("metrics", "Metric history", body));
        }
    }
    sections.extend(elites::validation_section(dir));
    let subtitle = format!(
        "{} on {} · {} trial(s) of {} evaluations · seed {} · playtune {}",
        escape(config.algorithm.name()),
        escape(&config.problem.name),
        config.trials,
        config.budget,
        config.seed,
        escape(&result.playtune_version)
    );
    Ok(html::page(
        &format!("playtune report: {name}"),
        &subtitle,
        &sections,
    ))
}
