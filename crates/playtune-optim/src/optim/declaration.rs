//! What an optimiser's file needs to declare itself: the declaration's type
//! ([`OptimizerDef`]), what its defaults may depend on ([`Context`]), and the readers
//! its settings' checks share. The optimisers import this; the list of every declared
//! optimiser ([`super::def`], where a declaration's uses are described) imports the
//! optimisers in turn, so the imports run one way.

use super::{AlgoConfig, Error};
use crate::settings::{Setting, SettingError, Values};

/// Settings as (name, value) text pairs, in declaration order.
pub type Pairs = Vec<(String, String)>;

/// What a setting's default may depend on: the space searched and the problem's
/// tie-break feature (MAP-Elites' emitters and acceptance rule). A configuration read
/// back from `config.ron` has every value explicit and needs neither.
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    /// The space the run searches, where known.
    pub space: Option<&'a crate::space::Space>,
    /// The problem's tie-break feature, where it has one.
    pub tie_break: Option<&'a str>,
}

/// One optimiser, declared.
pub struct OptimizerDef {
    /// What `--algo` and Python's `optimizer(space, NAME)` take.
    pub name: &'static str,
    /// Other spellings taken for the name (`b-rmhc`).
    pub aliases: &'static [&'static str],
    /// One line: what it does.
    pub about: &'static str,
    /// Its settings, with their defaults.
    pub settings: fn() -> Vec<Setting>,
    /// The configuration `config.ron` records, from every setting's value (the
    /// defaults overridden by the user's) and what the run searches.
    pub configure: fn(&Values, &Context) -> Result<AlgoConfig, Error>,
    /// A configuration's settings as text, in declaration order; `None` for another
    /// optimiser's configuration.
    pub values: fn(&AlgoConfig) -> Option<Pairs>,
}

impl OptimizerDef {
    /// Who the settings are, in messages: "optimiser `ntbea`".
    pub fn owner(&self) -> String {
        format!("optimiser `{}`", self.name)
    }

    /// The configuration with the user's `given` settings over the defaults; an
    /// unknown name is refused naming the known ones.
    pub fn configure(&self, given: &[(String, String)]) -> Result<AlgoConfig, Error> {
        self.configure_for(given, &Context::default())
    }

    /// [`OptimizerDef::configure`] for a search of `context`.
    pub fn configure_for(
        &self,
        given: &[(String, String)],
        context: &Context,
    ) -> Result<AlgoConfig, Error> {
        let values =
            Values::new(&self.owner(), &(self.settings)(), given).map_err(Error::from_setting)?;
        (self.configure)(&values, context)
    }
}

impl Error {
    /// A refused setting as an optimiser's error.
    pub(crate) fn from_setting(e: SettingError) -> Error {
        match e {
            SettingError::Unknown {
                owner, name, known, ..
            } => Error::UnknownSetting {
                owner,
                setting: name,
                known: known.join(", "),
            },
            SettingError::Invalid {
                name,
                value,
                expected,
                ..
            } => Error::Setting {
                setting: name,
                value,
                expected,
            },
        }
    }
}

/// `batch`, which random search and NTBEA both take, with their own defaults.
pub(crate) fn batch_setting(default: usize) -> Setting {
    Setting::new(
        "batch",
        &default.to_string(),
        "Points evaluated at once, in parallel. Random search: points per batch. NTBEA: q walkers per run sharing one model (batch NTBEA, for slow evaluators with several workers)",
    )
}

/// A count from 1 to `max`, described by `why`, as the optimisers' checks write it.
pub(crate) fn count(v: &Values, name: &str, max: u64, why: &str) -> Result<u64, Error> {
    match v.get(name).parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(Error::Setting {
            setting: name.to_string(),
            value: v.get(name).to_string(),
            expected: format!("give 1 to {max} ({why})"),
        }),
    }
}

/// A finite number for which `ok` holds, described by `range` ("above 0").
pub(crate) fn real(
    v: &Values,
    name: &str,
    ok: impl Fn(f64) -> bool,
    range: &str,
) -> Result<f64, Error> {
    match v.get(name).parse::<f64>() {
        Ok(x) if x.is_finite() && ok(x) => Ok(x),
        _ => Err(Error::Setting {
            setting: name.to_string(),
            value: v.get(name).to_string(),
            expected: format!("needs a finite number {range}")
                .trim_end()
                .to_string(),
        }),
    }
}

/// A switch's value.
pub(crate) fn switch(v: &Values, name: &str) -> Result<bool, Error> {
    v.flag(name).map_err(Error::from_setting)
}

/// One of `options` (case-insensitive), as its index.
pub(crate) fn choice(v: &Values, name: &str, options: &[&str]) -> Result<usize, Error> {
    v.choice(name, options).map_err(Error::from_setting)
}

/// A number as a setting's text: as Rust prints it, which reads back the same.
pub(crate) fn text(x: impl ToString) -> String {
    x.to_string()
}
