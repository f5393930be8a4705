//! The play-styles paper's Section IV in the strategy game: three MAP-Elites archives
//! over P-MCTS(PU)'s 11 research and spawn script weights, one per feature pair
//! (attacks x ranged-minus-melee support units, the paper's; defender spawns x rider
//! spawns and economy research x buildings, which replace the paper's two pairs whose
//! features do not separate bots here), each initialised with the one-hot weight
//! vectors and random ones, then grown by the one-weight mutation; then the elites
//! nearest the corners of each archive are validated on levels the search never used
//! (the paper's Table II). Every archive is an ordinary run folder, so an interrupted
//! experiment resumes from the runs' logs.

use super::Error;
use crate::validation::{CellChoice, choose, markdown, validate};
use playtune::eval::FeatureAxis;
use playtune::optim::AlgoConfig;
use playtune::optim::map_elites::{Archive, Better, MapElitesConfig, Mutation};
use playtune::registry::build_problem;
use playtune::run::{self, ProblemSpec, RunConfig};
use playtune_exec::{Executor, Search, SearchOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One archive: its folder name and its two axes.
#[derive(Clone, Debug)]
pub(crate) struct Pair {
    pub(crate) name: &'static str,
    pub(crate) axes: [FeatureAxis; 2],
}

fn axis(name: &str, low: f64, high: f64, bins: usize) -> FeatureAxis {
    FeatureAxis {
        name: name.into(),
        low,
        high,
        bins,
    }
}

/// Three feature pairs: the paper's first (attacks x ranged-minus-melee support units)
/// and two that replace pairs whose features do not separate bots in this game.
///
/// The paper's second and third pairs were defender spawns x winning turn and
/// research progress x tile dominance. Here most games run to the turn limit, so the
/// winning turn hardly varies, and research speed and tile dominance move with the
/// opponent and the level more than with the weights. A pilot of 40 random weight
/// vectors (10 games each, 2026-11-25; `playtune optimize --problem strategy-styles
/// --algo random --budget 40 --seed 6`) measured each feature's spread between vectors
/// against its noise within one (the standard error of its 10 games): winning turn
/// 0.57, research slope 0.21, tile dominance 0, against ranged minus melee 1.9,
/// economy research 1.8, rider spawns 1.8, builds 1.1 and defender spawns 1.0. So the
/// second pair keeps defender spawns and sets rider spawns beside them (a defensive
/// army or a fast one), and the third asks what the research serves (the economy
/// share of the first five technologies) against the buildings built. Bounds from the
/// pilot and the 11 one-hot vectors; under/overflow buckets take the rest.
pub(crate) fn paper_pairs() -> Vec<Pair> {
    vec![
        Pair {
            name: "attacks-support",
            axes: [
                axis("attacks", 4.0, 16.0, 6),
                axis("ranged_minus_melee", -3.0, 6.0, 6),
            ],
        },
        Pair {
            name: "defenders-riders",
            axes: [
                axis("defender_spawns", 0.0, 6.0, 6),
                axis("rider_spawns", 0.0, 4.0, 8),
            ],
        },
        Pair {
            name: "economy-builds",
            axes: [
                axis("economy_research", 0.15, 0.5, 7),
                axis("builds", 12.0, 22.0, 5),
            ],
        },
    ]
}

/// The experiment's settings.
#[derive(Clone, Debug)]
pub(crate) struct PlayStyles {
    pub(crate) name: String,
    pub(crate) pairs: Vec<Pair>,
    /// The strategy-styles problem's settings for the search (levels, games, budget,
    /// opponent, turns).
    pub(crate) search: BTreeMap<String, String>,
    /// Evaluations per archive, initialisation included.
    pub(crate) evaluations: u64,
    /// Random weight vectors after the 11 one-hot ones.
    pub(crate) init_random: usize,
    pub(crate) batch: usize,
    /// Validation: problem settings over the search's (validation levels, games) and
    /// evaluations per corner elite.
    pub(crate) validation: BTreeMap<String, String>,
    pub(crate) validation_evaluations: usize,
    pub(crate) seed: u64,
}

/// One archive's outcome.
pub(crate) struct ArchiveOutcome {
    pub(crate) pair: Pair,
    pub(crate) dir: PathBuf,
    pub(crate) elites: usize,
    pub(crate) coverage: f64,
    pub(crate) best_win_rate: f64,
    pub(crate) table: String,
}

/// Runs (or resumes) every archive and validates its corners. `progress` shows bars.
pub(crate) fn run(
    x: &PlayStyles,
    exec: &dyn Executor,
    runs_dir: &Path,
    progress: bool,
) -> Result<Vec<ArchiveOutcome>, Error> {
    let spec = ProblemSpec {
        name: "strategy-styles".into(),
        settings: x.search.clone(),
    };
    // Bad settings fail before any folder is made.
    let problem = build_problem(&spec, None)?;
    let mut vspec = spec.clone();
    vspec.settings.extend(x.validation.clone());
    let vproblem = build_problem(&vspec, None)?;
    let root = runs_dir.join(&x.name);
    std::fs::create_dir_all(&root).map_err(|e| Error::file(&root, e))?;
    let space = problem.space().clone();
    // Every archive first (on a cluster: their searches in one array), then the
    // validation of their corners.
    let mut searches = Vec::new();
    for (i, pair) in x.pairs.iter().enumerate() {
        let config = MapElitesConfig {
            axes: pair.axes.to_vec(),
            overflow_bins: true,
            better: Better::Lexicographic {
                secondary: "mean_score".into(),
            },
            mutation: Mutation::HillClimber,
            batch: x.batch,
            init_one_hot: true,
            init_random: x.init_random,
            ..MapElitesConfig::default()
        };
        let rc = RunConfig {
            space_file: Some("spaces/strategy_script_weights.ron".into()),
            ..RunConfig::plain(
                spec.clone(),
                space.clone(),
                AlgoConfig::MapElites(config),
                x.evaluations,
                1,
                playtune::rng::derive_seed(x.seed, &[i as u64]),
            )
        };
        let dir = root.join(pair.name);
        run::reuse_or_create_run_dir(&dir, &rc)?;
        searches.push(Search {
            name: pair.name.to_string(),
            dir,
            config: rc,
            problem: problem.as_ref(),
        });
    }
    let results = exec.search(
        &searches,
        SearchOptions {
            progress,
            retry_failed: false,
        },
    )?;
    let mut out = Vec::new();
    for ((i, pair), (result, search)) in
        x.pairs.iter().enumerate().zip(results.iter().zip(searches))
    {
        let dir = search.dir;
        let archive = result.trials[0].archive.as_ref().ok_or(Error::NoArchive)?;
        // Validation: the corner elites on levels the search never saw.
        let picked = choose(archive, &CellChoice::Corners)?;
        let elites: Vec<_> = picked.iter().map(|&k| &archive.elites()[k]).collect();
        let rows = validate(
            exec,
            &format!("validation-{}", pair.name),
            &vspec,
            None,
            &elites,
            x.validation_evaluations,
            playtune::rng::derive_seed(x.seed, &[100 + i as u64]),
        )?;
        let names = vproblem.feature_names();
        let shown: Vec<usize> = pair
            .axes
            .iter()
            .filter_map(|a| names.iter().position(|n| *n == a.name))
            .collect();
        let table = markdown(&rows, &names, &shown);
        playtune::run::lock::write_whole(dir.join("validation.md"), &table)
            .map_err(|e| Error::file(&dir, e))?;
        out.push(ArchiveOutcome {
            pair: pair.clone(),
            dir,
            elites: archive.elites().len(),
            coverage: archive.coverage(),
            best_win_rate: archive.best().map_or(f64::NAN, |e| e.fitness),
            table,
        });
    }
    let md = summary(x, &out);
    playtune::run::lock::write_whole(root.join("summary.md"), &md)
        .map_err(|e| Error::file("summary.md", e))?;
    Ok(out)
}

/// The experiment's summary: per archive its coverage and best win rate, then the
/// validation table of its corner elites.
pub(crate) fn summary(x: &PlayStyles, outcomes: &[ArchiveOutcome]) -> String {
    let settings = |m: &BTreeMap<String, String>| -> String {
        if m.is_empty() {
            return "its default settings".into();
        }
        m.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut md = format!(
        "# {}\n\nSearch: strategy-styles with {} ({} evaluations per archive: 11 one-hot, {} random, then one-weight mutations; batches of {}). Validation: corner elites, {} evaluations each with {}.\n\n",
        x.name,
        settings(&x.search),
        x.evaluations,
        x.init_random,
        x.batch,
        x.validation_evaluations,
        settings(&x.validation)
    );
    for o in outcomes {
        md.push_str(&format!(
            "## {} x {}\n\n{} elites, coverage {:.1}%, best archive win rate {:.2}. Archive value against validation mean ± s.e.:\n\n{}\n",
            o.pair.axes[0].name,
            o.pair.axes[1].name,
            o.elites,
            100.0 * o.coverage,
            o.best_win_rate,
            o.table
        ));
    }
    md
}

/// Each preset: name, meaning, the search's settings, evaluations an archive, random
/// initial evaluations, batch, the validation's settings and its evaluations a corner.
#[allow(clippy::type_complexity)]
const SIZES: [(
    &str,
    &str,
    &[(&str, &str)],
    u64,
    usize,
    usize,
    &[(&str, &str)],
    usize,
); 4] = [
    (
        "quick",
        "short games at 100 calls a decision, 40 evaluations an archive (about 2 seconds on 2 cores)",
        &[
            ("levels", "1"),
            ("games", "2"),
            ("budget", "100"),
            ("turns", "20"),
        ],
        40,
        5,
        6,
        &[("level_set", "validation"), ("levels", "4"), ("games", "2")],
        2,
    ),
    (
        "medium",
        "500 calls a decision, 100 evaluations an archive",
        &[("budget", "500")],
        100,
        10,
        12,
        &[
            ("level_set", "validation"),
            ("levels", "10"),
            ("games", "2"),
        ],
        3,
    ),
    (
        "paper",
        "the problem's defaults (2 levels x 5 games against MCTS at 2000 calls), 300 evaluations an archive, corners validated over 200 games each on validation levels (about an hour on 2 cores, resumable)",
        &[],
        300,
        20,
        12,
        &[
            ("level_set", "validation"),
            ("levels", "20"),
            ("games", "2"),
        ],
        5,
    ),
    (
        "full",
        "the same as paper (the published run)",
        &[],
        300,
        20,
        12,
        &[
            ("level_set", "validation"),
            ("levels", "20"),
            ("games", "2"),
        ],
        5,
    ),
];

/// The play-styles paper's archives, declared for the command line.
pub(crate) static DEF: super::declaration::ExperimentDef = super::declaration::ExperimentDef {
    name: "play-styles",
    about: "MAP-Elites archives of P-MCTS(PU) script weights, their corners validated",
    details: "Three archives over pairs of behaviour features, their heatmaps (PNG and SVG) and the validation of their corner elites.",
    presets: super::declaration::presets_from!(SIZES),
    settings: || {
        vec![
            super::declaration::size_setting("budget", "Evaluations per archive"),
            super::declaration::set_setting("strategy-styles search", ""),
        ]
    },
    folder_carries: None,
    run: |request, exec| {
        let &(_, _, search, evaluations, init_random, batch, validation, validation_evaluations) =
            SIZES
                .iter()
                .find(|p| p.0 == request.preset)
                .unwrap_or(&SIZES[0]);
        let pairs = |v: &[(&str, &str)]| -> BTreeMap<String, String> {
            v.iter()
                .map(|(k, w)| (k.to_string(), w.to_string()))
                .collect()
        };
        let mut search = pairs(search);
        search.extend(request.pairs("set")?);
        let x = PlayStyles {
            name: request.name.clone(),
            pairs: paper_pairs(),
            search,
            evaluations: request.size("budget", evaluations)?,
            init_random,
            batch,
            validation: pairs(validation),
            validation_evaluations,
            seed: request.seed,
        };
        let outcomes = run(&x, exec, request.runs_dir, request.progress)?;
        let mut wrote = Vec::new();
        for o in &outcomes {
            let heatmaps = vec![
                "fitness".to_string(),
                o.pair.axes[0].name.clone(),
                o.pair.axes[1].name.clone(),
            ];
            for format in [
                playtune_report::plot::run::Format::Png,
                playtune_report::plot::run::Format::Svg,
            ] {
                wrote.extend(playtune_report::plot::run::run_pictures(
                    &playtune_report::plot::run::RunPictures {
                        run: o.dir.clone(),
                        out: request.plots_dir.join(&x.name).join(o.pair.name),
                        format,
                        heatmaps: heatmaps.clone(),
                    },
                )?);
            }
        }
        let mut outcome = super::declaration::Outcome::from_summary(request)?;
        outcome.wrote.extend(wrote);
        Ok(outcome)
    },
};
