//! A problem by name: its settings with defaults and how to build it from them, as
//! `crate::harness::GameDef` is a game. Each problem declares its [`ProblemDef`]
//! beside its code, and `registry::PROBLEMS` lists them, one line each.

use super::Problem;
use crate::BoxError;
use crate::settings::{Setting, SettingError, Values};
use crate::space::Space;

/// A problem's settings that cannot build it (what the helpers below report; each
/// problem's own build reports its layer's error, [`ProblemDef::build`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProblemError {
    /// A setting missing, unknown or out of range.
    #[error(transparent)]
    Setting(#[from] SettingError),
    /// A game setting of setting `name` that is not `NAME=VALUE`.
    #[error(
        "{name}: `{pair}` is not NAME=VALUE ({owner} takes game settings as NAME=VALUE NAME=VALUE)"
    )]
    GameSetting {
        /// The setting.
        name: String,
        /// The item that is not `NAME=VALUE`.
        pair: String,
        /// Whose setting it is ("problem `rinascimento-design`").
        owner: String,
    },
    /// A budget setting that is neither empty nor a count.
    #[error("{0}, or leave it empty for each agent's own")]
    Budget(SettingError),
    /// A feature list with an empty name in it.
    #[error(
        "{name}={text}: an empty feature name (two commas in a row, or one at an end); give names separated by single commas"
    )]
    EmptyFeature {
        /// The setting.
        name: String,
        /// Its value, as given.
        text: String,
    },
    /// A feature name that cannot head a column of the log.
    #[error("{name}: {problem}")]
    FeatureName {
        /// The setting.
        name: String,
        /// What is wrong with the name.
        problem: Box<crate::space::Error>,
    },
    /// A feature list that names a feature twice.
    #[error(
        "{name}={text}: `{feature}` is given twice; each feature heads a column of the log, so give each name once"
    )]
    FeatureTwice {
        /// The setting.
        name: String,
        /// Its value, as given.
        text: String,
        /// The feature given twice.
        feature: String,
    },
    /// A benchmark's space or constraint that cannot be made from its settings.
    #[error(transparent)]
    Space(Box<crate::space::Error>),
    /// A share that must lie in `0..1`.
    #[error("{setting}={value}: {expected}")]
    Share {
        /// The setting.
        setting: &'static str,
        /// Its value.
        value: f64,
        /// What it takes, in words.
        expected: &'static str,
    },
}

impl From<crate::space::Error> for ProblemError {
    fn from(e: crate::space::Error) -> ProblemError {
        ProblemError::Space(Box::new(e))
    }
}

/// Builds a problem from its settings (every one present: defaults filled in) and
/// the user's search space, which some problems require and the others bind to by
/// name. The error is the layer's own that refused ([`ProblemError`],
/// `crate::harness::Error`, [`crate::space::Error`], ...), boxed: match it with
/// `downcast_ref`.
pub(crate) type BuildProblem = fn(&Values, Option<&Space>) -> Result<Box<dyn Problem>, BoxError>;

/// A built-in problem.
#[derive(Debug)]
pub struct ProblemDef {
    /// What `--problem` takes.
    pub name: &'static str,
    /// One line: what its fitness is.
    pub about: &'static str,
    /// Its settings as (name, default, what it means).
    pub settings: &'static [(&'static str, &'static str, &'static str)],
    /// Builds the problem from its settings and the user's space (see
    /// `BuildProblem`).
    pub build: BuildProblem,
}

impl ProblemDef {
    /// The settings as the settings type games and agents share.
    pub fn declared(&self) -> Vec<Setting> {
        self.settings
            .iter()
            .map(|(name, default, about)| Setting::new(name, default, about))
            .collect()
    }

    /// The settings: the defaults overridden by `given`, every name checked.
    pub fn values(&self, given: &[(String, String)]) -> Result<Values, SettingError> {
        Values::new(&format!("problem `{}`", self.name), &self.declared(), given)
    }

    /// The problem with `given` settings over `space` (if any).
    pub fn build(
        &self,
        given: &[(String, String)],
        space: Option<&Space>,
    ) -> Result<Box<dyn Problem>, BoxError> {
        (self.build)(&self.values(given)?, space)
    }
}

/// Game settings written as `NAME=VALUE NAME=VALUE` (spaces between, since agent
/// lists take the commas), e.g. `players=2 rules=reference`: setting `name` of `v`.
pub fn game_settings(v: &Values, name: &str) -> Result<Vec<(String, String)>, ProblemError> {
    v.get(name)
        .split_whitespace()
        .map(|pair| {
            pair.split_once('=')
                .filter(|(k, _)| !k.is_empty())
                .map(|(k, val)| (k.to_string(), val.to_string()))
                .ok_or_else(|| ProblemError::GameSetting {
                    name: name.to_string(),
                    pair: pair.to_string(),
                    owner: v.owner().to_string(),
                })
        })
        .collect()
}

/// Every agent's default forward-model budget from setting `name`: empty for each
/// agent's own.
pub fn agents_budget(v: &Values, name: &str) -> Result<Option<usize>, ProblemError> {
    if v.get(name).trim().is_empty() {
        return Ok(None);
    }
    v.count(name).map(Some).map_err(ProblemError::Budget)
}

/// A list of feature names from setting `name` (`a,b`): names that head columns of
/// the log, so checked as names; an empty name (`a,,b`, a comma at an end) or one
/// given twice is refused.
pub(crate) fn feature_list(v: &Values, name: &str) -> Result<Vec<String>, ProblemError> {
    let text = v.get(name);
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut features: Vec<String> = Vec::new();
    for f in text.split(',').map(str::trim) {
        if f.is_empty() {
            return Err(ProblemError::EmptyFeature {
                name: name.to_string(),
                text: text.to_string(),
            });
        }
        crate::space::check_name("feature", f).map_err(|problem| ProblemError::FeatureName {
            name: name.to_string(),
            problem: Box::new(problem),
        })?;
        if features.iter().any(|g| g == f) {
            return Err(ProblemError::FeatureTwice {
                name: name.to_string(),
                text: text.to_string(),
                feature: f.to_string(),
            });
        }
        features.push(f.to_string());
    }
    Ok(features)
}
