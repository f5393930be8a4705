//! `playtune examples`: the examples the docs run, written into a folder, so that a
//! user with only the wheel (no checkout of the repository) runs the docs' commands as
//! written. The files are the repository's own, built into the binary.

use anyhow::{Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(super) struct ExamplesArgs {
    /// The examples to write (see the list with no name and --list); none: every one.
    names: Vec<String>,
    /// The folder to write them under, each at its path in the repository
    /// (examples/NAME/..., spaces/...).
    #[arg(long, default_value = ".", value_name = "DIR")]
    dir: PathBuf,
    /// List the examples and their files; write nothing.
    #[arg(long)]
    list: bool,
}

/// One example: its files as (path in the repository, text).
struct Example {
    name: &'static str,
    about: &'static str,
    files: &'static [(&'static str, &'static str)],
}

const EXAMPLES: &[Example] = &[
    Example {
        name: "duel",
        about: "a two-player duel in Python and JavaScript: a description file, a match program, a Python class, an OpenSpiel version",
        files: &[
            (
                "examples/duel/duel-js.ron",
                include_str!("../../../../examples/duel/duel-js.ron"),
            ),
            (
                "examples/duel/duel.js",
                include_str!("../../../../examples/duel/duel.js"),
            ),
            (
                "examples/duel/duel.py",
                include_str!("../../../../examples/duel/duel.py"),
            ),
            (
                "examples/duel/duel.ron",
                include_str!("../../../../examples/duel/duel.ron"),
            ),
            (
                "examples/duel/duel_class.py",
                include_str!("../../../../examples/duel/duel_class.py"),
            ),
            (
                "examples/duel/duel_openspiel.py",
                include_str!("../../../../examples/duel/duel_openspiel.py"),
            ),
        ],
    },
    Example {
        name: "tictactoe",
        about: "tic-tac-toe's rules only (Python and JavaScript): playtune's bots play it",
        files: &[
            (
                "examples/tictactoe/tictactoe.js",
                include_str!("../../../../examples/tictactoe/tictactoe.js"),
            ),
            (
                "examples/tictactoe/tictactoe.py",
                include_str!("../../../../examples/tictactoe/tictactoe.py"),
            ),
            (
                "examples/tictactoe/tictactoe.ron",
                include_str!("../../../../examples/tictactoe/tictactoe.ron"),
            ),
        ],
    },
    Example {
        name: "nim3",
        about: "Nim for three seats, rules only: a ladder checked against copies of the rung below",
        files: &[(
            "examples/nim3/nim3.py",
            include_str!("../../../../examples/nim3/nim3.py"),
        )],
    },
    Example {
        name: "kuhn",
        about: "Kuhn poker's rules only, with hidden cards and a resampler",
        files: &[(
            "examples/kuhn/kuhn.py",
            include_str!("../../../../examples/kuhn/kuhn.py"),
        )],
    },
    Example {
        name: "openspiel",
        about: "OpenSpiel games made playtune games: dark hex, liar's dice, oware",
        files: &[
            (
                "examples/openspiel/dark_hex.py",
                include_str!("../../../../examples/openspiel/dark_hex.py"),
            ),
            (
                "examples/openspiel/liars_dice.py",
                include_str!("../../../../examples/openspiel/liars_dice.py"),
            ),
            (
                "examples/openspiel/oware.py",
                include_str!("../../../../examples/openspiel/oware.py"),
            ),
        ],
    },
    Example {
        name: "python",
        about: "an evaluator in Python (--problem external) and its space",
        files: &[
            (
                "examples/python/pig_eval.py",
                include_str!("../../../../examples/python/pig_eval.py"),
            ),
            (
                "examples/python/pig_space.ron",
                include_str!("../../../../examples/python/pig_space.ron"),
            ),
        ],
    },
    Example {
        name: "spaces",
        about: "the parameter spaces the docs search (spaces/*.ron)",
        files: &[
            (
                "spaces/example_every_kind.ron",
                include_str!("../../../../spaces/example_every_kind.ron"),
            ),
            (
                "spaces/noisy_onemax_10.ron",
                include_str!("../../../../spaces/noisy_onemax_10.ron"),
            ),
            (
                "spaces/noisy_trap_5x4.ron",
                include_str!("../../../../spaces/noisy_trap_5x4.ron"),
            ),
            (
                "spaces/rinascimento_bmrh.ron",
                include_str!("../../../../spaces/rinascimento_bmrh.ron"),
            ),
            (
                "spaces/rinascimento_mcts.ron",
                include_str!("../../../../spaces/rinascimento_mcts.ron"),
            ),
            (
                "spaces/rinascimento_playable.ron",
                include_str!("../../../../spaces/rinascimento_playable.ron"),
            ),
            (
                "spaces/rinascimento_rules.ron",
                include_str!("../../../../spaces/rinascimento_rules.ron"),
            ),
            (
                "spaces/rinascimento_srh.ron",
                include_str!("../../../../spaces/rinascimento_srh.ron"),
            ),
            (
                "spaces/space_battle_evolved.ron",
                include_str!("../../../../spaces/space_battle_evolved.ron"),
            ),
            (
                "spaces/strategy_hps.ron",
                include_str!("../../../../spaces/strategy_hps.ron"),
            ),
            (
                "spaces/strategy_rules.ron",
                include_str!("../../../../spaces/strategy_rules.ron"),
            ),
            (
                "spaces/strategy_script_weights.ron",
                include_str!("../../../../spaces/strategy_script_weights.ron"),
            ),
        ],
    },
];

pub(super) fn examples_cmd(args: ExamplesArgs) -> Result<()> {
    if args.list {
        for e in EXAMPLES {
            println!("{:10} {}", e.name, e.about);
            for (path, _) in e.files {
                println!("           {path}");
            }
        }
        return Ok(());
    }
    let mut chosen = Vec::new();
    for name in &args.names {
        match EXAMPLES.iter().find(|e| e.name == name) {
            Some(e) => chosen.push(e),
            None => bail!(
                "no example `{name}`: the examples are {}",
                EXAMPLES
                    .iter()
                    .map(|e| e.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    if chosen.is_empty() {
        chosen = EXAMPLES.iter().collect();
    }
    // Every file checked before one is written: a refusal leaves the folder as it was.
    let files: Vec<(PathBuf, &str)> = chosen
        .iter()
        .flat_map(|e| e.files.iter())
        .map(|(path, text)| (args.dir.join(path), *text))
        .collect();
    let mut fresh = Vec::new();
    for (path, text) in &files {
        match std::fs::read(path) {
            Ok(held) if held == text.as_bytes() => {}
            Ok(_) => bail!(
                "{} exists and differs from the example: move it away, or give --dir another folder",
                path.display()
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh.push((path, *text)),
            Err(e) => bail!("{}: {e}", path.display()),
        }
    }
    for (path, text) in &fresh {
        write(path, text)?;
    }
    println!(
        "{} file(s) written, {} already there, under {}: {}",
        fresh.len(),
        files.len() - fresh.len(),
        args.dir.display(),
        chosen.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
    );
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| anyhow::anyhow!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(())
}
