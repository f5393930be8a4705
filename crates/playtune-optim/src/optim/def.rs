//! Every optimiser's declaration, listed: its name, one line on what it does, and its
//! settings (name, default, meaning, what each takes), written once, beside the
//! optimiser. The command line's flags and help, the Python keyword arguments, the
//! checks of a run's `config.ron`, the report's settings and the docs' tables all come
//! from it, so adding an optimiser's setting is one line in its own file.
//!
//! A setting's name is its command-line flag with `-` for `_` (`selection_budget` is
//! `--selection-budget`), its Python keyword and its name in the report. A setting
//! that takes `Domain::Bool` is a switch (`--k-absolute`), off by default.
//!
//! What a declaration is ([`OptimizerDef`]) and the readers its settings' checks share
//! live in `optim/declaration.rs`, which the optimisers import; this list imports the
//! optimisers, so the imports run one way.

use super::AlgoConfig;
pub use super::declaration::{Context, OptimizerDef, Pairs};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Domain;

    /// The declared settings as the markdown table `docs/optimizers.md` shows (a test
    /// holds the doc to it): one row per optimiser (MAP-Elites last) and setting.
    fn markdown_table() -> String {
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
