//! An optimiser's declaration: its name, one line on what it does, and its settings
//! (name, default, meaning, what each takes), written once, beside the optimiser.
//! The command line's flags and help, the Python keyword arguments, the checks of a
//! run's `config.ron`, the report's settings and the docs' tables all come from it,
//! so adding an optimiser's setting is one line in its own file.
//!
//! A setting's name is its command-line flag with `-` for `_` (`selection_budget` is
//! `--selection-budget`), its Python keyword and its name in the report. A setting
//! that takes `Domain::Bool` is a switch (`--k-absolute`), off by default.

use super::{AlgoConfig, Error};
use crate::settings::{Setting, SettingError, Values};
use crate::space::Domain;

/// Settings as (name, value) text pairs, in declaration order.
pub type Pairs = Vec<(String, String)>;

/// What a setting's default may depend on: the space searched and the problem's
/// tie-break feature (MAP-Elites' emitters and acceptance rule). A configuration read
/// back from `config.ron` has every value explicit and needs neither.
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    pub space: Option<&'a crate::space::Space>,
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

/// Every scalar optimiser (`optimize --algo`), in the order help lists them. Adding
/// one is its file, with its `DEF`, and a line here (and its variant of
/// [`AlgoConfig`], which `config.ron` records, with its arms in `def` and `build`).
pub static OPTIMIZERS: &[&OptimizerDef] = &[
    &super::random::DEF,
    &super::rmhc::DEF,
    &super::brmhc::DEF,
    &super::ntbea::DEF,
];

/// The declared optimiser called `name` (or one of its aliases).
pub fn optimizer(name: &str) -> Option<&'static OptimizerDef> {
    OPTIMIZERS
        .iter()
        .copied()
        .find(|d| d.name == name || d.aliases.contains(&name))
}

/// MAP-Elites (`playtune map-elites`), declared.
pub static MAP_ELITES: &OptimizerDef = &super::map_elites::def::DEF;

/// The declared optimiser whose configuration `config` is, and its settings as text.
pub fn declaring(config: &AlgoConfig) -> (&'static OptimizerDef, Pairs) {
    let def = config.def();
    (def, (def.values)(config).unwrap_or_default())
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

/// The declared settings as the markdown table `docs/optimizers.md` shows (a test
/// holds the doc to it): one row per optimiser (MAP-Elites last) and setting.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| optimiser | setting (Python keyword) | flag | default | meaning |\n| --- | --- | --- | --- | --- |\n",
    );
    for def in OPTIMIZERS.iter().chain([&MAP_ELITES]) {
        for s in (def.settings)() {
            let mut flag = format!("--{}", s.name.replace('_', "-"));
            for alias in &s.aliases {
                flag.push_str(&format!("`, `--{alias}"));
            }
            let default = match &s.values {
                Some(Domain::Bool) => "off".to_string(),
                _ if s.default.is_empty() => "none".to_string(),
                _ => format!("`{}`", s.default),
            };
            let takes = match &s.values {
                Some(Domain::Categories(names)) => format!(" (one of {})", names.join(", ")),
                _ => String::new(),
            };
            out.push_str(&format!(
                "| `{}` | `{}` | `{flag}` | {default} | {}{takes} |\n",
                def.name,
                s.name,
                s.about.replace('|', "\\|")
            ));
        }
    }
    out
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
pub fn count(v: &Values, name: &str, max: u64, why: &str) -> Result<u64, Error> {
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
pub fn real(v: &Values, name: &str, ok: impl Fn(f64) -> bool, range: &str) -> Result<f64, Error> {
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
pub fn switch(v: &Values, name: &str) -> Result<bool, Error> {
    v.flag(name).map_err(Error::from_setting)
}

/// One of `options` (case-insensitive), as its index.
pub fn choice(v: &Values, name: &str, options: &[&str]) -> Result<usize, Error> {
    v.choice(name, options).map_err(Error::from_setting)
}

/// A number as a setting's text: as Rust prints it, which reads back the same.
pub fn text(x: impl ToString) -> String {
    x.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/optimizers.md shows the declarations' table as it is: a setting added,
    /// renamed or given another default fails here until the doc says so.
    #[test]
    fn the_docs_table_is_the_declarations() {
        // The workspace's docs, two folders above this crate's.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/optimizers.md");
        let doc = std::fs::read_to_string(path).unwrap();
        let table = markdown_table();
        assert!(
            doc.contains(&table),
            "docs/optimizers.md lacks the declared settings; put this table there:\n{table}"
        );
    }

    /// Every declared optimiser reads its own defaults back into the configuration
    /// its `Default` builds, and its configuration's values are its settings, named
    /// and ordered as declared: one declaration, nothing written twice that could
    /// drift.
    #[test]
    fn every_declaration_round_trips_its_defaults() {
        for def in OPTIMIZERS {
            let settings = (def.settings)();
            let config = def.configure(&[]).unwrap();
            let (back, values) = declaring(&config);
            assert_eq!(back.name, def.name);
            let names: Vec<&str> = values.iter().map(|(n, _)| n.as_str()).collect();
            let declared: Vec<&str> = settings.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(names, declared, "{}", def.name);
            for (s, (_, v)) in settings.iter().zip(&values) {
                assert_eq!(&s.default, v, "{}: {}", def.name, s.name);
                if s.values == Some(Domain::Bool) {
                    assert_eq!(s.default, "false", "{}: a switch is off by default", s.name);
                }
                assert!(
                    s.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                    "{}",
                    s.name
                );
            }
            assert_eq!(def.configure(&values).unwrap(), config);
        }
    }

    /// MAP-Elites' settings read back as they were given, lists and choices included,
    /// and its `auto` defaults resolve from the search's context.
    #[test]
    fn map_elites_round_trips_its_settings() {
        let given: Vec<(String, String)> = [
            ("emitters", "gaussian,iso-line"),
            ("sigma", "0.25"),
            ("axes", "a=0:1:2,b=-1:1:3"),
            ("archive", "cvt"),
            ("centroids", "50"),
            ("better", "lexicographic:x"),
            ("init_one_hot", "true"),
            ("reevaluate", "3"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .to_vec();
        let config = MAP_ELITES.configure(&given).unwrap();
        let (def, values) = declaring(&config);
        assert_eq!(def.name, "map-elites");
        assert_eq!(MAP_ELITES.configure(&values).unwrap(), config);
        for (k, v) in &given {
            assert!(
                values.contains(&(k.clone(), v.clone())),
                "{k}={v} in {values:?}"
            );
        }
        let space = crate::space::parse_space(
            "(name: \"s\", dims: [(name: \"x\", kind: Float(min: 0.0, max: 1.0, levels: 5))])",
            "s.ron",
        )
        .unwrap();
        let context = Context {
            space: Some(&space),
            tie_break: Some("score"),
        };
        let AlgoConfig::MapElites(c) = MAP_ELITES.configure_for(&[], &context).unwrap() else {
            panic!("MAP-Elites configures MAP-Elites");
        };
        assert_eq!(
            c.emitters().map(|m| m.name()).collect::<Vec<_>>(),
            ["gaussian"]
        );
        assert_eq!(
            c.better,
            crate::optim::map_elites::Better::Lexicographic {
                secondary: "score".into()
            }
        );
    }

    /// An unknown setting names the optimiser and its settings; a bad value names the
    /// setting and what it takes.
    #[test]
    fn refusals_name_the_setting() {
        let ntbea = optimizer("ntbea").unwrap();
        let e = ntbea
            .configure(&[("kk".into(), "1".into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("optimiser `ntbea` has no setting `kk`"), "{e}");
        assert!(e.contains("epsilon"), "{e}");
        let e = ntbea
            .configure(&[("neighbours".into(), "0".into())])
            .unwrap_err();
        assert_eq!(
            e.setting().map(|(s, _)| s.to_string()),
            Some("neighbours".into())
        );
        assert!(optimizer("b-rmhc").is_some());
        // Tuples read back as they were written, explicit ones included.
        for t in ["1+2+N", "1", "N", "a,b;c", "auto"] {
            let c = ntbea.configure(&[("tuples".into(), t.into())]).unwrap();
            let (_, values) = declaring(&c);
            assert_eq!(values[0], ("tuples".to_string(), t.to_string()));
        }
    }
}
