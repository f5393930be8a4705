//! Each experiment declared once: its name, one line, its presets (as data beside the
//! experiment), its own settings (name, default, meaning) and how it runs on an
//! executor. The command line's `experiment` subcommands, their help and their checks
//! are made from these declarations ([`EXPERIMENTS`]); adding an experiment is its
//! file, with its `DEF`, and one line in that list.

use super::Error;
use crate::exec::Executor;
use crate::settings::{Setting, Values};
use std::path::{Path, PathBuf};

/// A size an experiment runs at: its name and what it means for the experiment (with
/// its time on 2 cores).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Preset {
    pub name: &'static str,
    pub about: &'static str,
}

/// One experiment.
pub(crate) struct ExperimentDef {
    /// The subcommand's name, `experiment NAME`.
    pub name: &'static str,
    /// What it reproduces, in a line.
    pub about: &'static str,
    /// More on what it does and writes, for the long help.
    pub details: &'static str,
    /// Its presets; the first is the default.
    pub presets: fn() -> Vec<Preset>,
    /// Its own settings. A setting whose default is empty takes the preset's value
    /// when not given; a repeatable one is a list of `NAME=VALUE` items.
    pub settings: fn() -> Vec<Setting>,
    /// The setting whose value the default folder name carries after the experiment's
    /// name (`rule-design-rinascimento-full`), if any.
    pub folder_carries: Option<&'static str>,
    /// Runs it.
    pub run: fn(&Request<'_>, &dyn Executor) -> Result<Outcome, Error>,
}

/// The experiments, in the order the command line lists them.
pub(crate) static EXPERIMENTS: &[&ExperimentDef] = &[
    &super::compare_optimizers::SPACE_BATTLE,
    &super::rule_design::DEF,
    &super::rinascimento_tuning::DEF,
    &super::ntbea_defaults::DEF,
    &super::strategy::PORTFOLIO,
    &super::strategy::DIFFICULTY,
    &super::play_styles::DEF,
    &super::learned_eval::DEF,
];

/// The experiment named `name`.
pub(crate) fn find(name: &str) -> Option<&'static ExperimentDef> {
    EXPERIMENTS.iter().copied().find(|d| d.name == name)
}

impl ExperimentDef {
    /// The folder name a run gets when its user names none: `NAME-PRESET`, or
    /// `NAME-VALUE-PRESET` with the value of the setting [`Self::folder_carries`].
    pub(crate) fn folder(&self, values: &Values, preset: &str) -> String {
        match self.folder_carries {
            Some(setting) => format!("{}-{}-{preset}", self.name, values.get(setting)),
            None => format!("{}-{preset}", self.name),
        }
    }

    /// The settings given (`given`, in order; a repeatable setting may come several
    /// times) over the declared defaults, checked by name.
    pub(crate) fn values(&self, given: &[(String, String)]) -> Result<Given, Error> {
        let declared = (self.settings)();
        let owner = format!("experiment `{}`", self.name);
        let mut single = Vec::new();
        let mut lists: Vec<(String, Vec<String>)> = Vec::new();
        for (k, v) in given {
            match declared.iter().find(|s| &s.name == k) {
                Some(s) if s.repeatable => match lists.iter_mut().find(|(n, _)| n == k) {
                    Some((_, items)) => items.push(v.clone()),
                    None => lists.push((k.clone(), vec![v.clone()])),
                },
                _ => single.push((k.clone(), v.clone())),
            }
        }
        Ok(Given {
            values: Values::new(&owner, &declared, &single)?,
            lists,
        })
    }
}

/// An experiment's settings as given: one value each, and the items of the
/// repeatable ones.
#[derive(Clone, Debug)]
pub(crate) struct Given {
    pub values: Values,
    lists: Vec<(String, Vec<String>)>,
}

/// What an experiment is asked to do.
pub(crate) struct Request<'a> {
    /// The preset's name, one of the experiment's.
    pub preset: &'a str,
    pub seed: u64,
    /// The experiment's folder name under `runs_dir` and `plots_dir`.
    pub name: String,
    pub runs_dir: &'a Path,
    pub plots_dir: &'a Path,
    /// Progress bars on a terminal.
    pub progress: bool,
    pub given: Given,
}

impl Request<'_> {
    /// The text of setting `name` (its default where not given).
    pub(crate) fn get(&self, name: &str) -> &str {
        self.given.values.get(name)
    }

    /// The items given for repeatable setting `name`, in order.
    pub(crate) fn list(&self, name: &str) -> &[String] {
        self.given
            .lists
            .iter()
            .find(|(n, _)| n == name)
            .map_or(&[], |(_, items)| items)
    }

    /// The `NAME=VALUE` items of repeatable setting `name` as pairs, split at the first
    /// `=` (values may hold commas and `=`). An item without `=`, or a name given
    /// twice (the last value silently winning would hide a typing mistake), is
    /// refused naming the setting.
    pub(crate) fn pairs(&self, name: &str) -> Result<Vec<(String, String)>, Error> {
        let bad = |item: &str, expected: String| {
            Error::Setting(crate::settings::SettingError::Invalid {
                owner: self.given.values.owner().to_string(),
                name: name.to_string(),
                value: item.to_string(),
                expected,
            })
        };
        let mut out: Vec<(String, String)> = Vec::new();
        for item in self.list(name) {
            let (k, v) = match item.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => (k.trim(), v.trim()),
                _ => return Err(bad(item, "NAME=VALUE".into())),
            };
            if let Some((_, first)) = out.iter().find(|(n, _)| n == k) {
                return Err(bad(
                    item,
                    format!("each NAME once (`{k}` is given twice: {k}={first} and {k}={v})"),
                ));
            }
            out.push((k.to_string(), v.to_string()));
        }
        Ok(out)
    }

    /// A size the preset sets (`preset_value`) unless setting `name` gives one: a
    /// whole number of at least 1.
    pub(crate) fn size(&self, name: &str, preset_value: u64) -> Result<u64, Error> {
        Ok(self.optional_size(name)?.unwrap_or(preset_value))
    }

    /// A size that the preset may leave unset.
    pub(crate) fn optional_size(&self, name: &str) -> Result<Option<u64>, Error> {
        if self.get(name).trim().is_empty() {
            return Ok(None);
        }
        Ok(Some(self.given.values.count(name)? as u64))
    }
}

/// What an experiment hands back: its summary (Markdown, as its `summary.md` holds
/// it) and the files a reader opens first.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub summary: String,
    pub wrote: Vec<PathBuf>,
}

impl Outcome {
    /// The outcome of an experiment that wrote `runs_dir/NAME/summary.md` and its
    /// figures under `plots_dir/NAME`.
    /// Runs a study into the request's folders (`run` is given the runs folder, the
    /// plots folder and whether to show progress), then reads back the summary it wrote:
    /// how every experiment that writes `summary.md` ends.
    pub(crate) fn after<T, E: Into<Error>>(
        request: &Request<'_>,
        run: impl FnOnce(&Path, &Path, bool) -> Result<T, E>,
    ) -> Result<Outcome, Error> {
        run(request.runs_dir, request.plots_dir, request.progress).map_err(Into::into)?;
        Outcome::from_summary(request)
    }

    pub(crate) fn from_summary(request: &Request<'_>) -> Result<Outcome, Error> {
        let path = request.runs_dir.join(&request.name).join("summary.md");
        let summary = std::fs::read_to_string(&path).map_err(|source| Error::File {
            path: path.clone(),
            source,
        })?;
        Ok(Outcome {
            summary,
            wrote: vec![path, request.plots_dir.join(&request.name)],
        })
    }
}

/// The presets of a table of sizes whose rows begin with the preset's name and its
/// meaning, as an [`ExperimentDef::presets`].
macro_rules! presets_from {
    ($table:expr) => {
        || {
            $table
                .iter()
                .map(|row| $crate::experiments::def::Preset {
                    name: row.0,
                    about: row.1,
                })
                .collect()
        }
    };
}
pub(crate) use presets_from;

/// A size setting the preset gives when it is not given: trials, budget and so on.
pub(crate) fn size_setting(name: &str, about: &str) -> Setting {
    Setting::new(name, "", &format!("{about} [default: the preset's]"))
}

/// `set`: settings of what the experiment plays or searches (`owner`: "game",
/// "problem", ...) over its preset's, `NAME=VALUE` each.
pub(crate) fn set_setting(owner: &str, example: &str) -> Setting {
    Setting::new(
        "set",
        "",
        &format!("A {owner} setting over the preset's, NAME=VALUE{example}"),
    )
    .repeatable()
}

/// The NTBEA settings an experiment tunes with: the paper's (so that it reproduces
/// the paper) or playtune's defaults.
pub(crate) fn ntbea_setting() -> Setting {
    Setting::new(
        "ntbea",
        "paper",
        "NTBEA's settings: paper (1-tuples and the N-tuple, k = 0.5 x fitness range, epsilon 0.5) or defaults (playtune's, as optimize uses them)",
    )
    .taking(crate::space::Domain::Categories(vec![
        "paper".into(),
        "defaults".into(),
    ]))
}

/// The NTBEA configuration [`ntbea_setting`] names.
pub(crate) fn ntbea_config(
    request: &Request<'_>,
) -> Result<crate::optim::ntbea::NtbeaConfig, Error> {
    use crate::optim::ntbea::NtbeaConfig;
    Ok(
        match request
            .given
            .values
            .choice("ntbea", &["paper", "defaults"])?
        {
            0 => NtbeaConfig::paper(),
            _ => NtbeaConfig::default(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_presets_and_settings_are_unique_and_described() {
        let mut names: Vec<&str> = EXPERIMENTS.iter().map(|d| d.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), EXPERIMENTS.len());
        for d in EXPERIMENTS {
            let presets = (d.presets)();
            assert!(!presets.is_empty(), "{}", d.name);
            for p in &presets {
                assert!(!p.about.is_empty(), "{} {}", d.name, p.name);
            }
            let mut ps: Vec<&str> = presets.iter().map(|p| p.name).collect();
            ps.sort();
            ps.dedup();
            assert_eq!(ps.len(), presets.len(), "{}", d.name);
            let settings = (d.settings)();
            for s in &settings {
                assert!(!s.about.is_empty(), "{} {}", d.name, s.name);
            }
            if let Some(carried) = d.folder_carries {
                assert!(settings.iter().any(|s| s.name == carried), "{}", d.name);
            }
        }
    }

    #[test]
    fn an_unknown_setting_is_refused_naming_the_experiment_and_its_settings() {
        let d = find("rule-design").unwrap();
        let e = d
            .values(&[("gaem".into(), "strategy".into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("experiment `rule-design`"), "{e}");
        assert!(e.contains("game"), "{e}");
    }

    #[test]
    fn a_size_of_zero_is_refused_naming_it() {
        let d = find("space-battle").unwrap();
        let given = d.values(&[("trials".into(), "0".into())]).unwrap();
        let r = Request {
            preset: "quick",
            seed: 1,
            name: "x".into(),
            runs_dir: Path::new("runs"),
            plots_dir: Path::new("plots"),
            progress: false,
            given,
        };
        let e = r.size("trials", 4).unwrap_err().to_string();
        assert!(e.contains("trials=0"), "{e}");
        assert_eq!(r.size("budget", 20).unwrap(), 20);
    }

    /// An experiment declared once, in one place: a toy that writes its setting, with
    /// two presets. What it needs is its declaration and one line in `EXPERIMENTS`.
    // Its `run` returns the crate's experiment error, whatever its size.
    #[allow(clippy::result_large_err)]
    static TOY: ExperimentDef = ExperimentDef {
        name: "toy",
        about: "writes how many stones it was given",
        details: "A toy experiment declared in a test.",
        presets: || {
            vec![
                Preset {
                    name: "quick",
                    about: "4 rounds",
                },
                Preset {
                    name: "full",
                    about: "40 rounds",
                },
            ]
        },
        settings: || vec![Setting::new("stones", "9", "stones at the start")],
        folder_carries: None,
        run: |request, _exec| {
            let rounds = if request.preset == "full" { 40 } else { 4 };
            let dir = request.runs_dir.join(&request.name);
            std::fs::create_dir_all(&dir)?;
            let summary = format!("{} stones, {rounds} rounds\n", request.get("stones"));
            std::fs::write(dir.join("summary.md"), &summary)?;
            Ok(Outcome {
                summary,
                wrote: vec![dir.join("summary.md")],
            })
        },
    };

    #[test]
    fn an_experiment_declared_once_runs_on_an_executor() {
        let dir = std::env::temp_dir().join(format!("playtune-toy-{}", std::process::id()));
        let def = &TOY;
        let given = def.values(&[("stones".into(), "11".into())]).unwrap();
        let request = Request {
            preset: "full",
            seed: 2,
            name: def.folder(&given.values, "full"),
            runs_dir: &dir,
            plots_dir: &dir,
            progress: false,
            given,
        };
        assert_eq!(request.name, "toy-full");
        let outcome = (def.run)(&request, &crate::exec::Local).unwrap();
        assert_eq!(outcome.summary, "11 stones, 40 rounds\n");
        assert!(outcome.wrote[0].exists());
        std::fs::remove_dir_all(&dir).unwrap();
        // Its settings are checked by name, as the built-in experiments' are.
        let e = def
            .values(&[("stone".into(), "3".into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("experiment `toy`"), "{e}");
    }
}
