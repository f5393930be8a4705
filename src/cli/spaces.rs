//! `playtune spaces check`.

use anyhow::Result;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum SpacesCommand {
    /// Validate space files and print each one's dimensions and size.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

pub fn run(cmd: SpacesCommand) -> Result<()> {
    let SpacesCommand::Check { files } = cmd;
    for f in files {
        let space = crate::space::load_space(&f)?;
        println!(
            "{}: space `{}`, {} dimensions, {:.6e} points",
            f.display(),
            space.name,
            space.len(),
            space.size()
        );
        for d in &space.dims {
            println!(
                "  {:24} {:3} values  {}  (default {})",
                d.name,
                d.domain.len(),
                d.domain.describe(),
                d.domain.render(d.domain.value(d.default))
            );
        }
        for g in &space.groups {
            println!("  group {}: {}", g.name, g.dims.join(", "));
        }
    }
    Ok(())
}
