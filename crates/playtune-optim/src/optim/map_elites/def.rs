//! MAP-Elites, declared ([`crate::optim::def`]): its settings, emitters and archive
//! once, for `playtune map-elites`, Python's `optimizer(space, "map-elites", ...)`,
//! the checks of `config.ron` and the report.

use super::{ArchiveConfig, Better, MapElitesConfig, Mutation, default_emitters};
use crate::eval::FeatureAxis;
use crate::optim::declaration::{self, Context, OptimizerDef};
use crate::optim::{AlgoConfig, Error, MAX_BATCH};
use crate::settings::{Setting, Values};
use crate::space::Domain;

/// CVT cells when `centroids` is `auto` (pyribs' CVT-MAP-Elites tutorial: 10,000 for
/// long runs; 1,000 suits the default 10,000 evaluations).
pub(crate) const DEFAULT_CENTROIDS: usize = 1000;

/// The emitters' names, as `emitters` takes them.
const EMITTERS: &str = "gaussian, iso-line or one-weight (also hill-climber)";

/// MAP-Elites, declared (what [`crate::optim::def::MAP_ELITES`] is).
pub static DEF: OptimizerDef = OptimizerDef {
    name: "map-elites",
    aliases: &["map_elites", "mapelites"],
    about: "MAP-Elites: an archive of the best point in each cell of a grid of behaviour features",
    settings: || {
        let defaults = MapElitesConfig::default();
        vec![
            Setting::new(
                "batch",
                &defaults.batch.to_string(),
                "Candidates per batch, evaluated in parallel",
            ),
            Setting::new(
                "emitters",
                "auto",
                "Emitters, batches going to each in turn: gaussian, iso-line (Vassiliades & Mouret's iso+line), one-weight (one dimension to another value; also hill-climber), or a comma list such as gaussian,iso-line. auto: gaussian for a space of Floats, one-weight for one without, and both in turn for a mixed space, so every dimension moves",
            )
            .alias("mutation"),
            Setting::new(
                "sigma",
                "0.5",
                "Standard deviation of Gaussian mutation, and the isotropic one of iso-line",
            ),
            Setting::new(
                "line_sigma",
                "0.2",
                "Iso-line: standard deviation of the step along the line between two elites",
            ),
            Setting::new(
                "archive",
                "grid",
                "Archive: grid (the axes' bins) or cvt (centroids Voronoi cells over the axes' box, for many features; the axes' bins are not used)",
            )
            .taking(Domain::Categories(vec!["grid".into(), "cvt".into()])),
            Setting::new(
                "centroids",
                "auto",
                "CVT archive: number of cells (auto: 1000)",
            ),
            Setting::new(
                "axes",
                "",
                "Grid axes, FEATURE=LOW:HIGH:BINS each (the flag repeated, or a comma list; none: the problem's grid)",
            )
            .alias("axis")
            .repeatable(),
            Setting::new(
                "overflow_bins",
                "false",
                "Put values outside an axis's bounds in under/overflow bins instead of clipping",
            )
            .taking(Domain::Bool),
            Setting::new(
                "better",
                "auto",
                "When a newcomer replaces an elite: greater fitness, or lexicographic:FEATURE (fitness, then the feature; ties to the newcomer). auto: the problem's tie-break feature if it names one (strategy-styles: mean_score), else greater",
            ),
            Setting::new(
                "init_one_hot",
                "false",
                "Start with the one-hot points of a weight vector",
            )
            .alias("one-hot")
            .taking(Domain::Bool),
            Setting::new(
                "init_random",
                &defaults.init_random.to_string(),
                "Random points evaluated before mutation starts",
            ),
            Setting::new(
                "qd_offset",
                "0",
                "Subtracted from each elite's fitness in the QD score",
            ),
            Setting::new(
                "reevaluate",
                &defaults.reevaluate.to_string(),
                "Re-evaluate every elite this many times after the search",
            ),
        ]
    },
    configure,
    values,
};

fn bad(v: &Values, name: &str, expected: String) -> Error {
    Error::Setting {
        setting: name.to_string(),
        value: v.get(name).to_string(),
        expected,
    }
}

fn whole(v: &Values, name: &str) -> Result<u64, Error> {
    v.get(name)
        .parse::<u64>()
        .map_err(|_| bad(v, name, "give a whole number".into()))
}

fn configure(v: &Values, context: &Context) -> Result<AlgoConfig, Error> {
    let sigma = declaration::real(v, "sigma", |s| s > 0.0, "above 0")?;
    let line_sigma = declaration::real(v, "line_sigma", |s| s > 0.0, "above 0")?;
    let mut emitters = match v.get("emitters").trim() {
        "auto" => match context.space {
            Some(space) => default_emitters(space, sigma),
            None => vec![Mutation::HillClimber],
        },
        list => list
            .split(',')
            .map(|name| match name.trim() {
                "gaussian" => Ok(Mutation::Gaussian { sigma }),
                "iso-line" | "iso_line" => Ok(Mutation::IsoLine {
                    sigma_iso: sigma,
                    sigma_line: line_sigma,
                }),
                "one-weight" | "hill-climber" | "hill_climber" => Ok(Mutation::HillClimber),
                other => Err(bad(
                    v,
                    "emitters",
                    format!("unknown emitter `{other}` (use {EMITTERS}, comma-separated)"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let archive = match (
        declaration::choice(v, "archive", &["grid", "cvt"])?,
        v.get("centroids"),
    ) {
        (0, "auto") => ArchiveConfig::Grid,
        (0, _) => {
            return Err(bad(
                v,
                "centroids",
                "needs archive cvt (a grid has no centroids)".into(),
            ));
        }
        (_, "auto") => ArchiveConfig::cvt(DEFAULT_CENTROIDS),
        (_, _) => ArchiveConfig::cvt(declaration::count(
            v,
            "centroids",
            crate::optim::MAX_COUNT,
            "CVT cells",
        )? as usize),
    };
    let axes = match v.get("axes").trim() {
        "" => Vec::new(),
        list => list
            .split(',')
            .map(|a| {
                a.parse::<FeatureAxis>().map_err(|e| {
                    let why = e.to_string();
                    let why = why.strip_prefix(&format!("axis {a}: ")).unwrap_or(&why);
                    Error::Setting {
                        setting: "axes".into(),
                        value: a.to_string(),
                        expected: why.to_string(),
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    // Resolved here and stored in the run's config, so a resumed run keeps it even if
    // the problem's suggestion changes.
    let better = match v.get("better").trim() {
        "auto" => match context.tie_break {
            Some(f) => Better::Lexicographic {
                secondary: f.to_string(),
            },
            None => Better::Greater,
        },
        "greater" => Better::Greater,
        text => match text.split_once(':') {
            Some(("lexicographic", f)) if !f.is_empty() => Better::Lexicographic {
                secondary: f.to_string(),
            },
            _ => {
                return Err(bad(
                    v,
                    "better",
                    "use `greater` or `lexicographic:FEATURE`".into(),
                ));
            }
        },
    };
    if emitters.is_empty() {
        return Err(bad(v, "emitters", "give at least one".into()));
    }
    let mutation = emitters.remove(0);
    let config = MapElitesConfig {
        axes,
        overflow_bins: declaration::switch(v, "overflow_bins")?,
        better,
        mutation,
        more_emitters: emitters,
        archive,
        batch: declaration::count(v, "batch", MAX_BATCH, "candidates per batch")? as usize,
        init_one_hot: declaration::switch(v, "init_one_hot")?,
        init_random: whole(v, "init_random")? as usize,
        qd_offset: declaration::real(v, "qd_offset", |_| true, "")?,
        reevaluate: u32::try_from(whole(v, "reevaluate")?)
            .map_err(|_| bad(v, "reevaluate", "give a whole number".into()))?,
    };
    config.check()?;
    Ok(AlgoConfig::MapElites(config))
}

fn values(config: &AlgoConfig) -> Option<declaration::Pairs> {
    let AlgoConfig::MapElites(c) = config else {
        return None;
    };
    let emitters: Vec<&Mutation> = c.emitters().collect();
    let sigma = emitters.iter().find_map(|m| match m {
        Mutation::Gaussian { sigma } => Some(*sigma),
        Mutation::IsoLine { sigma_iso, .. } => Some(*sigma_iso),
        Mutation::HillClimber => None,
    });
    let line_sigma = emitters.iter().find_map(|m| match m {
        Mutation::IsoLine { sigma_line, .. } => Some(*sigma_line),
        _ => None,
    });
    let (archive, centroids) = match &c.archive {
        ArchiveConfig::Grid => ("grid", "auto".to_string()),
        ArchiveConfig::Cvt { centroids, .. } => ("cvt", centroids.to_string()),
    };
    let better = match &c.better {
        Better::Greater => "greater".to_string(),
        Better::Lexicographic { secondary } => format!("lexicographic:{secondary}"),
    };
    let pairs: [(&str, String); 13] = [
        ("batch", c.batch.to_string()),
        (
            "emitters",
            emitters
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(","),
        ),
        ("sigma", sigma.unwrap_or(0.5).to_string()),
        ("line_sigma", line_sigma.unwrap_or(0.2).to_string()),
        ("archive", archive.into()),
        ("centroids", centroids),
        (
            "axes",
            c.axes
                .iter()
                .map(FeatureAxis::to_string)
                .collect::<Vec<_>>()
                .join(","),
        ),
        ("overflow_bins", c.overflow_bins.to_string()),
        ("better", better),
        ("init_one_hot", c.init_one_hot.to_string()),
        ("init_random", c.init_random.to_string()),
        ("qd_offset", c.qd_offset.to_string()),
        ("reevaluate", c.reevaluate.to_string()),
    ];
    Some(pairs.map(|(k, v)| (k.to_string(), v)).to_vec())
}
