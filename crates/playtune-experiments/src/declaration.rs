//! What declares an experiment: its name, one line, its presets (as data beside the
//! experiment), its own settings (name, default, meaning) and how it runs on an
//! executor ([`ExperimentDef`]), and what running one is given and gives back. Each
//! experiment's file declares its `DEF` with these; the list of them is `def.rs`.

use super::Error;
use playtune::settings::{Setting, Values};
use playtune_exec::Executor;
use std::path::{Path, PathBuf};

/// A size an experiment runs at: its name and what it means for the experiment (with
/// its time on 2 cores).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// The preset's name.
    pub name: &'static str,
    /// What it runs, and its time.
    pub about: &'static str,
}

/// One experiment.
pub struct ExperimentDef {
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
    pub(crate) folder_carries: Option<&'static str>,
    /// Runs it.
    pub run: fn(&Request<'_>, &dyn Executor) -> Result<Outcome, Error>,
}

impl ExperimentDef {
    /// The folder name a run gets when its user names none: `NAME-PRESET`, or
    /// `NAME-VALUE-PRESET` with the value of the setting `folder_carries`.
    pub fn folder(&self, values: &Values, preset: &str) -> String {
        match self.folder_carries {
            Some(setting) => format!("{}-{}-{preset}", self.name, values.get(setting)),
            None => format!("{}-{preset}", self.name),
        }
    }

    /// The settings given (`given`, in order; a repeatable setting may come several
    /// times) over the declared defaults, checked by name.
    pub fn values(&self, given: &[(String, String)]) -> Result<Given, Error> {
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
pub struct Given {
    /// One value per setting.
    pub values: Values,
    lists: Vec<(String, Vec<String>)>,
}

/// What an experiment is asked to do.
pub struct Request<'a> {
    /// The preset's name, one of the experiment's.
    pub preset: &'a str,
    /// The experiment's seed.
    pub seed: u64,
    /// The experiment's folder name under `runs_dir` and `plots_dir`.
    pub name: String,
    /// Where run folders go.
    pub runs_dir: &'a Path,
    /// Where pictures go.
    pub plots_dir: &'a Path,
    /// Progress bars on a terminal.
    pub progress: bool,
    /// The experiment's settings as given.
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
            Error::Setting(playtune::settings::SettingError::Invalid {
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
pub struct Outcome {
    /// The summary, in Markdown.
    pub summary: String,
    /// The files to open first.
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
                .map(|row| $crate::declaration::Preset {
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
    .taking(playtune::space::Domain::Categories(vec![
        "paper".into(),
        "defaults".into(),
    ]))
}

/// The NTBEA configuration [`ntbea_setting`] names.
pub(crate) fn ntbea_config(
    request: &Request<'_>,
) -> Result<playtune::optim::ntbea::NtbeaConfig, Error> {
    use playtune::optim::ntbea::NtbeaConfig;
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
