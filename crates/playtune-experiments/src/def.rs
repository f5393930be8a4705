//! The experiments, each declared once in its own file ([`super::declaration`]): the
//! command line's `experiment` subcommands, their help and their checks are made from
//! this list; adding an experiment is its file, with its `DEF`, and one line here.

use super::declaration::ExperimentDef;

/// The experiments, in the order the command line lists them.
pub static EXPERIMENTS: &[&ExperimentDef] = &[
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
pub fn find(name: &str) -> Option<&'static ExperimentDef> {
    EXPERIMENTS.iter().copied().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declaration::{Outcome, Preset, Request};
    use playtune::settings::Setting;
    use std::path::Path;

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
        let outcome = (def.run)(&request, &playtune_exec::Local).unwrap();
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
