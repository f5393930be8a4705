//! `playtune problems`: the built-in problems, their settings, the features each
//! evaluation reports and the MAP-Elites grid they suggest.

use playtune::registry::{PROBLEMS, build_problem};
use playtune::run::ProblemSpec;

pub(super) fn run() -> anyhow::Result<()> {
    // One column for the names, as wide as the longest.
    let width = PROBLEMS.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for def in PROBLEMS {
        let (name, about) = (def.name, def.about);
        let s: Vec<String> = def
            .settings
            .iter()
            .map(|(k, v, _)| format!("{k}={v}"))
            .collect();
        println!(
            "{name:width$}  {about}\n{:width$}  settings: {}",
            "",
            s.join(" ")
        );
        // At its default settings; a problem that needs a setting or a space (command,
        // manual) declares its features through them.
        let spec = ProblemSpec {
            name: name.to_string(),
            settings: Default::default(),
        };
        let Ok(problem) = build_problem(&spec, None) else {
            println!("{:width$}  features: as declared by its settings", "");
            continue;
        };
        let features = problem.feature_names();
        if features.is_empty() {
            continue;
        }
        println!("{:width$}  features: {}", "", features.join(", "));
        let axes: Vec<String> = problem
            .default_axes()
            .iter()
            .map(|a| format!("{}={}:{}:{}", a.name, a.low, a.high, a.bins))
            .collect();
        if !axes.is_empty() {
            println!("{:width$}  MAP-Elites grid: {}", "", axes.join(" "));
        }
    }
    Ok(())
}
