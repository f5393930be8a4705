//! `playtune spaces check`.

use anyhow::Result;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub(super) enum SpacesCommand {
    /// Validate space files and print each one's dimensions and size.
    Check {
        /// Space files (RON) to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print a problem's own parameter space as a space file (a template to edit).
    Export {
        /// Problem name (see `playtune problems`).
        problem: String,
        /// A problem setting, NAME=VALUE (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        settings: Vec<String>,
    },
}

pub(super) fn run(cmd: SpacesCommand) -> Result<()> {
    let files = match cmd {
        SpacesCommand::Check { files } => files,
        SpacesCommand::Export { problem, settings } => {
            let mut spec = playtune::run::ProblemSpec {
                name: problem,
                settings: Default::default(),
            };
            spec.settings
                .extend(super::name_value_pairs("--set", &settings)?);
            let p = playtune::registry::build_problem(&spec, None).map_err(anyhow::Error::msg)?;
            print!("{}", playtune::space::to_space_file(p.space()));
            return Ok(());
        }
    };
    for f in files {
        let space = playtune::space::load_space(&f)?;
        println!(
            "{}: space `{}`, {} dimensions, {} points",
            f.display(),
            space.name,
            space.len(),
            count(space.size())
        );
        let width = space
            .dims
            .iter()
            .map(|d| d.domain.len().to_string().len())
            .max()
            .unwrap_or(1);
        for d in &space.dims {
            println!(
                "  {:24} {:>width$} values  {}  (default {})",
                d.name,
                d.domain.len(),
                d.domain.describe(),
                d.domain.render(d.domain.value(d.default))
            );
        }
        for g in &space.groups {
            println!("  group {}: {}", g.name, g.dims.join(", "));
        }
        for c in &space.constraints {
            println!("  constraint {c}");
        }
    }
    Ok(())
}

/// A count as a person reads it: every digit while a float holds it exactly (below
/// 2^53), then three significant digits with an exponent.
fn count(n: f64) -> String {
    if n < 9e15 {
        format!("{n:.0}")
    } else {
        format!("{n:.3e}")
    }
}
