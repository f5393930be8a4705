//! The optimisers' flags, made from their declarations ([`playtune::optim::def`]): one
//! flag per setting name (`selection_budget` is `--selection-budget`), its help the
//! setting's meaning, its default the declared one, a category's values listed, a
//! `Bool` setting a switch, a repeatable one a flag given as often as needed. A
//! setting several optimisers declare (`batch`, `resample`) is one flag. No
//! optimiser setting is spelled here.

use anyhow::{Result, bail};
use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use playtune::optim::def::{MAP_ELITES, OPTIMIZERS, OptimizerDef};
use playtune::space::Domain;

/// The optimiser settings given on the command line, by setting name: of the
/// scalar optimisers (`optimize`; `MAP` false) or of MAP-Elites (`map-elites`).
#[derive(Clone, Debug, Default)]
pub(super) struct DeclaredFlags<const MAP: bool> {
    given: Vec<(String, String)>,
}

/// `optimize --algo`'s settings.
pub(super) type OptimizerFlags = DeclaredFlags<false>;
/// `map-elites`'s settings.
pub(super) type MapElitesFlags = DeclaredFlags<true>;

fn defs(map: bool) -> Vec<&'static OptimizerDef> {
    match map {
        true => vec![MAP_ELITES],
        false => OPTIMIZERS.to_vec(),
    }
}

/// Every declared setting name, with the optimisers declaring it, in declaration
/// order.
fn settings_by_name(map: bool) -> Vec<(playtune::settings::Setting, Vec<&'static OptimizerDef>)> {
    let mut out: Vec<(playtune::settings::Setting, Vec<&'static OptimizerDef>)> = Vec::new();
    for def in defs(map) {
        for s in (def.settings)() {
            match out.iter_mut().find(|(t, _)| t.name == s.name) {
                Some((_, owners)) => owners.push(def),
                None => out.push((s, vec![def])),
            }
        }
    }
    out
}

/// A setting's flag name: `selection_budget` is `--selection-budget`.
pub(super) fn flag(name: &str) -> String {
    name.replace('_', "-")
}

/// A declared setting's flag, without its help and default (which its owners decide):
/// a `Bool` setting a switch, a repeatable one a flag given as often as needed, a
/// category's values listed, its aliases visible.
pub(super) fn setting_arg(s: &playtune::settings::Setting) -> Arg {
    let arg = Arg::new(s.name.clone())
        .long(flag(&s.name))
        .visible_aliases(s.aliases.clone());
    if s.values == Some(Domain::Bool) {
        return arg.action(ArgAction::SetTrue);
    }
    let arg = arg
        .action(match s.repeatable {
            true => ArgAction::Append,
            false => ArgAction::Set,
        })
        .allow_negative_numbers(true)
        .value_name(flag(&s.name).to_uppercase());
    match &s.values {
        Some(Domain::Categories(names)) => {
            arg.value_parser(PossibleValuesParser::new(names.clone()))
        }
        _ => arg,
    }
}

impl<const MAP: bool> DeclaredFlags<MAP> {
    /// The given settings for optimiser `def`. A flag only other optimisers take is
    /// refused, naming them: it would do nothing.
    pub(super) fn for_optimizer(&self, def: &OptimizerDef) -> Result<Vec<(String, String)>> {
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

impl<const MAP: bool> FromArgMatches for DeclaredFlags<MAP> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for (s, _) in settings_by_name(MAP) {
            if m.value_source(&s.name) != Some(ValueSource::CommandLine) {
                continue;
            }
            let value = if s.values == Some(Domain::Bool) {
                m.get_flag(&s.name).to_string()
            } else if s.repeatable {
                match m.get_many::<String>(&s.name) {
                    Some(items) => items.cloned().collect::<Vec<_>>().join(","),
                    None => continue,
                }
            } else {
                match m.get_one::<String>(&s.name) {
                    Some(v) => v.clone(),
                    None => continue,
                }
            };
            given.push((s.name.clone(), value));
        }
        Ok(DeclaredFlags { given })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = DeclaredFlags::from_arg_matches(m)?;
        Ok(())
    }
}

impl<const MAP: bool> Args for DeclaredFlags<MAP> {
    fn augment_args(mut cmd: Command) -> Command {
        for (s, owners) in settings_by_name(MAP) {
            let algos: Vec<String> = owners
                .iter()
                .map(|d| format!("--algo {}", d.name))
                .collect();
            let heading = match MAP {
                true => "MAP-Elites".to_string(),
                false => format!("Options of {}", algos.join(", ")),
            };
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
            let arg = setting_arg(&s).help_heading(heading);
            let arg = if s.values == Some(Domain::Bool) || s.default.is_empty() {
                arg.help(s.about.clone())
            } else if same_default {
                arg.default_value(s.default.clone()).help(s.about.clone())
            } else {
                let each: Vec<String> = defaults
                    .iter()
                    .map(|(v, name)| format!("{v} with {name}"))
                    .collect();
                arg.help(format!("{} [default: {}]", s.about, each.join(", ")))
            };
            cmd = cmd.arg(arg);
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
