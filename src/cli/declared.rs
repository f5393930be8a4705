//! The optimisers' flags, made from their declarations ([`crate::optim::def`]): one
//! flag per setting name (`selection_budget` is `--selection-budget`), its help the
//! setting's meaning, its default the declared one, a category's values listed, a
//! `Bool` setting a switch. A setting several optimisers declare (`batch`,
//! `resample`) is one flag. No optimiser setting is spelled here.

use crate::optim::def::{OPTIMIZERS, OptimizerDef};
use crate::space::Domain;
use anyhow::{Result, bail};
use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

/// The optimiser settings given on the command line, by setting name.
#[derive(Clone, Debug, Default)]
pub struct OptimizerFlags {
    given: Vec<(String, String)>,
}

/// Every declared setting name, with the optimisers declaring it, in declaration
/// order.
fn settings_by_name() -> Vec<(crate::settings::Setting, Vec<&'static OptimizerDef>)> {
    let mut out: Vec<(crate::settings::Setting, Vec<&'static OptimizerDef>)> = Vec::new();
    for def in OPTIMIZERS {
        for s in (def.settings)() {
            match out.iter_mut().find(|(t, _)| t.name == s.name) {
                Some((_, owners)) => owners.push(def),
                None => out.push((s, vec![def])),
            }
        }
    }
    out
}

fn flag(name: &str) -> String {
    name.replace('_', "-")
}

impl OptimizerFlags {
    /// The given settings for optimiser `def`. A flag only other optimisers take is
    /// refused, naming them: it would do nothing.
    pub fn for_optimizer(&self, def: &OptimizerDef) -> Result<Vec<(String, String)>> {
        let own = (def.settings)();
        for (name, _) in &self.given {
            if !own.iter().any(|s| &s.name == name) {
                let takers: Vec<String> = OPTIMIZERS
                    .iter()
                    .filter(|d| (d.settings)().iter().any(|s| &s.name == name))
                    .map(|d| format!("--algo {}", d.name))
                    .collect();
                bail!(
                    "--{} is a setting of {}, not of --algo {}",
                    flag(name),
                    takers.join(" and "),
                    def.name
                );
            }
        }
        Ok(self.given.clone())
    }
}

impl FromArgMatches for OptimizerFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for (s, _) in settings_by_name() {
            if m.value_source(&s.name) != Some(ValueSource::CommandLine) {
                continue;
            }
            let value = if s.values == Some(Domain::Bool) {
                m.get_flag(&s.name).to_string()
            } else {
                match m.get_one::<String>(&s.name) {
                    Some(v) => v.clone(),
                    None => continue,
                }
            };
            given.push((s.name.clone(), value));
        }
        Ok(OptimizerFlags { given })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = OptimizerFlags::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for OptimizerFlags {
    fn augment_args(mut cmd: Command) -> Command {
        for (s, owners) in settings_by_name() {
            let algos: Vec<String> = owners
                .iter()
                .map(|d| format!("--algo {}", d.name))
                .collect();
            let heading = format!("Options of {}", algos.join(", "));
            let defaults: Vec<(String, &str)> = owners
                .iter()
                .map(|d| {
                    let default = (d.settings)()
                        .into_iter()
                        .find(|t| t.name == s.name)
                        .map_or_else(String::new, |t| t.default);
                    (default, d.name)
                })
                .collect();
            let same_default = defaults.iter().all(|(v, _)| *v == defaults[0].0);
            let mut arg = Arg::new(s.name.clone())
                .long(flag(&s.name))
                .help_heading(heading);
            arg = match &s.values {
                Some(Domain::Bool) => arg.action(ArgAction::SetTrue).help(s.about.clone()),
                values => {
                    let mut a = arg
                        .action(ArgAction::Set)
                        .allow_negative_numbers(true)
                        .value_name(flag(&s.name).to_uppercase());
                    if let Some(Domain::Categories(names)) = values {
                        a = a.value_parser(PossibleValuesParser::new(names.clone()));
                    }
                    if same_default {
                        a.default_value(s.default.clone()).help(s.about.clone())
                    } else {
                        let each: Vec<String> = defaults
                            .iter()
                            .map(|(v, name)| format!("{v} with {name}"))
                            .collect();
                        a.help(format!("{} [default: {}]", s.about, each.join(", ")))
                    }
                }
            };
            cmd = cmd.arg(arg);
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
