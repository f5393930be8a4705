//! `playtune experiment`: the papers' experiments as presets. Every subcommand, its
//! presets and its own flags come from the experiments' declarations
//! ([`playtune_experiments::def::EXPERIMENTS`]); the flags every experiment shares
//! (preset, seed, folders, where the work runs) are here.

use super::declared::flag;
use anyhow::{Context, Result, anyhow, bail};
use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use playtune::space::Domain;
use playtune_experiments::declaration::{ExperimentDef, Request};
use playtune_experiments::def::{EXPERIMENTS, find};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(super) struct ExperimentArgs {
    #[command(subcommand)]
    which: Which,
}

/// One experiment as the command line gave it: which, the shared flags and its own
/// settings by name (a repeated flag once per item).
pub(super) struct Which {
    def: Option<&'static ExperimentDef>,
    /// The name typed, for the refusal of one that is no experiment.
    typed: String,
    common: Option<Common>,
    given: Vec<(String, String)>,
}

/// What every experiment takes.
#[derive(Args)]
struct Common {
    /// How large a run: the presets this experiment has, and what each means for it,
    /// are listed above.
    #[arg(long, default_value = "quick")]
    preset: String,
    /// Experiment seed: every run, game and re-evaluation derives its seed from it, so
    /// the same seed gives the same files with any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder name under --runs-dir and --plots-dir [default: EXPERIMENT-PRESET].
    #[arg(long)]
    name: Option<String>,
    /// Where the experiment's folder goes; an existing folder is resumed from its logs.
    #[arg(long, default_value = "runs")]
    runs_dir: PathBuf,
    /// Where its figures go.
    #[arg(long, default_value = "plots")]
    plots_dir: PathBuf,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    cluster: super::ClusterArgs,
    /// With --executor slurm: submit the next step and return without waiting
    /// (`playtune status RUN` shows the tasks; the same command again collects or
    /// resubmits).
    #[arg(long)]
    detach: bool,
}

/// The long help: what it does, then each preset.
fn long_about(def: &ExperimentDef) -> String {
    let mut text = format!("{}.\n\n{}\n\nPresets:", def.about, def.details);
    for p in (def.presets)() {
        text.push_str(&format!("\n  {}: {}", p.name, p.about));
    }
    text
}

/// One experiment's subcommand: the shared flags, its presets, its own settings.
fn subcommand(def: &ExperimentDef) -> Command {
    let presets: Vec<&str> = (def.presets)().iter().map(|p| p.name).collect();
    // The shared flags first: their struct's doc would otherwise be the about.
    let mut cmd = Common::augment_args(Command::new(def.name))
        .about(def.about)
        .long_about(long_about(def))
        .mut_arg("preset", |a| {
            a.value_parser(PossibleValuesParser::new(presets.clone()))
                .default_value(presets[0])
        });
    for s in (def.settings)() {
        let mut arg = super::declared::setting_arg(&s).help(s.about.clone());
        if s.repeatable {
            arg = arg.value_name("NAME=VALUE");
        } else if !s.default.is_empty() && s.values != Some(Domain::Bool) {
            arg = arg.default_value(s.default.clone());
        }
        cmd = cmd.arg(arg);
    }
    cmd
}

impl FromArgMatches for Which {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, sub)) = m.subcommand() else {
            return Err(clap::Error::new(clap::error::ErrorKind::MissingSubcommand));
        };
        let Some(def) = find(name) else {
            return Ok(Which {
                def: None,
                typed: name.to_string(),
                common: None,
                given: Vec::new(),
            });
        };
        let mut given = Vec::new();
        for s in (def.settings)() {
            if sub.value_source(&s.name) != Some(ValueSource::CommandLine) {
                continue;
            }
            if s.values == Some(Domain::Bool) {
                given.push((s.name.clone(), sub.get_flag(&s.name).to_string()));
            } else if let Some(items) = sub.get_many::<String>(&s.name) {
                given.extend(items.map(|v| (s.name.clone(), v.clone())));
            }
        }
        Ok(Which {
            def: Some(def),
            typed: name.to_string(),
            common: Some(Common::from_arg_matches(sub)?),
            given,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Which::from_arg_matches(m)?;
        Ok(())
    }
}

impl Subcommand for Which {
    fn augment_subcommands(mut cmd: Command) -> Command {
        for def in EXPERIMENTS {
            cmd = cmd.subcommand(subcommand(def));
        }
        // Any other name is refused with the list of experiments, not clap's guess.
        cmd.allow_external_subcommands(true)
            .subcommand_required(true)
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        Which::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        find(name).is_some()
    }
}

pub(super) fn experiment(a: ExperimentArgs) -> Result<()> {
    let Which {
        def,
        typed,
        common,
        given,
    } = a.which;
    let (Some(def), Some(c)) = (def, common) else {
        let known: Vec<&str> = EXPERIMENTS.iter().map(|d| d.name).collect();
        bail!("unknown experiment `{typed}` (known: {})", known.join(", "));
    };
    c.cluster.check()?;
    if let Some(name) = &c.name {
        super::folder_name(name)?;
    }
    if c.cluster.executor == super::ExecutorKind::Local && c.detach {
        bail!("--detach goes with --executor slurm");
    }
    let given = def.values(&given).map_err(flag_error)?;
    let name = c
        .name
        .clone()
        .unwrap_or_else(|| def.folder(&given.values, &c.preset));
    let folder = c.runs_dir.join(&name);
    // Where the work runs, picked once: every experiment is handed it and never asks
    // which it is. Slurm's tools are checked before any folder is made.
    let exec = c.cluster.executor(
        &folder,
        playtune_exec::SearchUnit::Trials,
        super::Following {
            wait: !c.detach,
            progress: !c.quiet,
            report: true,
        },
    )?;
    super::interrupt::on_interrupt(&format!(
        "what finished is in {}; the same command again goes on from there",
        folder.display()
    ));
    // One command at a time in an experiment's folder: locked before its first write.
    // A folder made here for a command refused before it wrote anything is removed.
    let made: Vec<PathBuf> = folder
        .ancestors()
        .filter(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let _lock = playtune::run::lock::lock_experiment(&folder).map_err(anyhow::Error::msg)?;
    let exec = exec.as_ref();
    let request = Request {
        preset: &c.preset,
        seed: c.seed,
        name,
        runs_dir: &c.runs_dir,
        plots_dir: &c.plots_dir,
        progress: !c.quiet,
        given,
    };
    let started = std::time::Instant::now();
    let outcome = (def.run)(&request, exec).map_err(flag_error);
    // Work handed to the cluster without waiting for it: where it went.
    let submitted = exec.submitted();
    if outcome.is_err() && !submitted.is_empty() {
        for (dir, tasks, job) in submitted {
            match job {
                Some(job) => println!(
                    "submitted {tasks} task(s) as Slurm job {job} ({}); `playtune status {}` shows them, the same command again collects them",
                    dir.display(),
                    folder.display()
                ),
                None => println!(
                    "nothing new to submit; `playtune status {}` shows where the tasks stand",
                    folder.display()
                ),
            }
        }
        return Ok(());
    }
    match outcome {
        Ok(o) => {
            println!("{}", o.summary);
            let wrote: Vec<String> = o.wrote.iter().map(|p| p.display().to_string()).collect();
            println!(
                "wrote {} in {:.0} s",
                wrote.join(" and "),
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Err(e) => {
            if !made.is_empty() {
                let _ = std::fs::remove_file(folder.join(playtune::run::files::LOCK_FILE));
                // Only folders left empty go (remove_dir refuses any other).
                for d in &made {
                    let _ = std::fs::remove_dir(d);
                }
            }
            Err(e)
        }
    }
}

/// An experiment's error as the command line says it: a setting refused names its
/// flag, and a game with no study preset says what designs it instead.
fn flag_error(e: playtune_experiments::Error) -> anyhow::Error {
    use playtune_experiments::Error;
    match &e {
        Error::Setting(s) => anyhow!("--{}: {e}", flag(s.name())),
        Error::NoStudyPreset(game) => {
            anyhow!("{e}; `playtune optimize --problem design --set game={game}` designs any game")
        }
        _ => anyhow::Error::msg(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every experiment's help is its declaration: its line, each preset with what it
    /// means, each of its own flags.
    #[test]
    fn each_experiments_help_comes_from_its_declaration() {
        for def in EXPERIMENTS {
            let help = subcommand(def).render_long_help().to_string();
            assert!(help.contains(def.about), "{}: {help}", def.name);
            for p in (def.presets)() {
                assert!(
                    help.contains(&format!("{}: {}", p.name, p.about)),
                    "{}: preset {} missing from {help}",
                    def.name,
                    p.name
                );
            }
            for s in (def.settings)() {
                let flag = format!("--{}", s.name.replace('_', "-"));
                assert!(help.contains(&flag), "{}: {flag} missing", def.name);
            }
        }
    }
}
