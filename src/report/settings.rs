//! An optimiser's settings as the command line spells them (`--recommend
//! neighbourhood`, `--better lexicographic:mean_score`, `--axis attacks=4:16:12`),
//! read from `config.ron`'s record of them, so that a report shows what a user types
//! rather than Rust's names (`Neighbourhood`, `Lexicographic(secondary(...))`).

use crate::eval::FeatureAxis;
use crate::optim::AlgoConfig;
use serde_json::Value;

/// One setting as flag and value (`("--scale", "sd")`); an empty value for a switch
/// that is on (`--overflow-bins`). Switches that are off are left out, as they would
/// be on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Flag {
    pub flag: String,
    pub value: String,
}

impl Flag {
    fn new(flag: &str, value: impl Into<String>) -> Flag {
        Flag {
            flag: flag.into(),
            value: value.into(),
        }
    }

    /// `--flag value`, or `--flag` for a switch.
    pub fn text(&self) -> String {
        if self.value.is_empty() {
            self.flag.clone()
        } else {
            format!("{} {}", self.flag, self.value)
        }
    }
}

/// A Rust variant name as the command line writes it: `HillClimber` is `hill-climber`,
/// `Sd` is `sd`. Other text is left as it is.
pub fn kebab(name: &str) -> String {
    let pascal = name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric());
    if !pascal {
        return name.to_string();
    }
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A grid axis as `--axis` takes it: `FEATURE=LOW:HIGH:BINS`.
pub(crate) fn axis_text(a: &FeatureAxis) -> String {
    format!(
        "{}={}:{}:{}",
        a.name,
        super::num(a.low),
        super::num(a.high),
        a.bins
    )
}

/// A value of `config.ron` as command-line text: numbers as the report writes them,
/// unit variants in kebab case, a variant with settings as `variant:value:...`, lists
/// joined by commas.
fn value_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), super::num),
        Value::String(s) => kebab(s),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(","),
        Value::Object(m) if m.len() == 1 => {
            let (variant, inner) = m.iter().next().expect("one entry");
            let inner = match inner {
                Value::Object(fields) => fields
                    .values()
                    .map(value_text)
                    .collect::<Vec<_>>()
                    .join(":"),
                other => value_text(other),
            };
            if inner.is_empty() {
                kebab(variant)
            } else {
                format!("{}:{inner}", kebab(variant))
            }
        }
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}={}", value_text(v)))
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// MAP-Elites' feature axes in words and flags (HTML): the `--axis` flags given, or
/// "the problem's default axes" and what they are (`default_axes`, the problem's;
/// `None` when the problem cannot say). `None` for other optimisers.
pub fn axes_html(config: &AlgoConfig, default_axes: Option<&[FeatureAxis]>) -> Option<String> {
    let AlgoConfig::MapElites(c) = config else {
        return None;
    };
    let code = |a: &FeatureAxis| format!("<code>{}</code>", super::escape(&axis_text(a)));
    Some(if c.axes.is_empty() {
        let listed = match default_axes {
            Some(axes) if !axes.is_empty() => {
                let each: Vec<String> = axes.iter().map(code).collect();
                format!(": {}", each.join(", "))
            }
            Some(_) => ": none (the problem suggests no grid)".to_string(),
            None => String::new(),
        };
        format!(
            "the problem's default axes{listed} <span class=\"note\">(no <code>--axis</code> given; each FEATURE=LOW:HIGH:BINS)</span>"
        )
    } else {
        let each: Vec<String> = c
            .axes
            .iter()
            .map(|a| format!("<code>--axis {}</code>", super::escape(&axis_text(a))))
            .collect();
        each.join(" ")
    })
}

/// The settings of `config` as flags of `playtune optimize` / `map-elites`, in the
/// order `config.ron` records them; MAP-Elites' axes are [`axes_html`]'s.
pub fn algorithm_flags(config: &AlgoConfig) -> Vec<Flag> {
    if let Some((def, values)) = crate::optim::def::declaring(config) {
        // A declared optimiser's settings are its flags, switches when on.
        let switches: Vec<String> = (def.settings)()
            .into_iter()
            .filter(|s| s.values == Some(crate::space::Domain::Bool))
            .map(|s| s.name)
            .collect();
        return values
            .into_iter()
            .filter_map(|(name, value)| {
                let flag = format!("--{}", name.replace('_', "-"));
                match switches.contains(&name) {
                    true => (value == "true").then(|| Flag::new(&flag, "")),
                    false => Some(Flag::new(&flag, value)),
                }
            })
            .collect();
    }
    let mut out = Vec::new();
    if let AlgoConfig::MapElites(c) = config {
        let emitters: Vec<&str> = c.emitters().map(|m| m.name()).collect();
        out.push(Flag::new("--emitters", emitters.join(",")));
    }
    let Ok(Value::Object(variants)) = serde_json::to_value(config) else {
        return out;
    };
    for (_, settings) in variants {
        let Value::Object(fields) = settings else {
            continue;
        };
        for (key, v) in &fields {
            let map_elites = matches!(config, AlgoConfig::MapElites(_));
            let flag = format!("--{}", key.replace('_', "-"));
            match (key.as_str(), v) {
                // Shown above, from the typed configuration.
                ("axes" | "more_emitters", _) if map_elites => {}
                ("mutation", Value::Object(m)) if map_elites => {
                    // An emitter's own settings.
                    if let Some(Value::Object(s)) = m.values().next() {
                        for (k, x) in s {
                            let f = match k.as_str() {
                                "sigma" | "sigma_iso" => "--sigma".to_string(),
                                "sigma_line" => "--line-sigma".to_string(),
                                other => format!("--{}", other.replace('_', "-")),
                            };
                            out.push(Flag::new(&f, value_text(x)));
                        }
                    }
                }
                ("mutation", _) if map_elites => {}
                ("init_one_hot", Value::Bool(on)) => {
                    if *on {
                        out.push(Flag::new("--one-hot", ""));
                    }
                }
                ("archive", Value::Object(m)) => {
                    if let Some(Value::Object(cvt)) = m.get("Cvt") {
                        out.push(Flag::new("--archive", "cvt"));
                        if let Some(k) = cvt.get("centroids") {
                            out.push(Flag::new("--centroids", value_text(k)));
                        }
                    }
                }
                ("archive", a) => out.push(Flag::new("--archive", value_text(a))),
                (_, Value::Bool(on)) => {
                    if *on {
                        out.push(Flag::new(&flag, ""));
                    }
                }
                _ => out.push(Flag::new(&flag, value_text(v))),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optim::map_elites::{Better, MapElitesConfig, Mutation};
    use crate::optim::ntbea::{FitnessScale, NtbeaConfig, RecommendFrom, TupleSet};

    fn texts(flags: &[Flag]) -> Vec<String> {
        flags.iter().map(Flag::text).collect()
    }

    #[test]
    fn ntbea_settings_read_as_the_command_line() {
        let c = NtbeaConfig {
            tuples: TupleSet::Sizes {
                sizes: vec![1, 2],
                full: true,
            },
            scale: FitnessScale::Sd,
            recommend: RecommendFrom::Neighbourhood,
            k_relative: false,
            ..NtbeaConfig::default()
        };
        let t = texts(&algorithm_flags(&AlgoConfig::Ntbea(c)));
        for want in [
            "--tuples 1+2+N",
            "--scale sd",
            "--recommend neighbourhood",
            "--k-absolute",
        ] {
            assert!(t.contains(&want.to_string()), "{want} in {t:?}");
        }
        let all = t.join(" ");
        assert!(
            !all.contains("Sd") && !all.contains("Neighbourhood"),
            "{all}"
        );
    }

    #[test]
    fn map_elites_settings_read_as_the_command_line() {
        let c = MapElitesConfig {
            better: Better::Lexicographic {
                secondary: "mean_score".into(),
            },
            mutation: Mutation::Gaussian { sigma: 0.25 },
            more_emitters: vec![Mutation::HillClimber],
            overflow_bins: true,
            init_one_hot: true,
            ..MapElitesConfig::default()
        };
        let axes = [FeatureAxis {
            name: "attacks".into(),
            low: 4.0,
            high: 16.0,
            bins: 12,
        }];
        let config = AlgoConfig::MapElites(c);
        let t = texts(&algorithm_flags(&config));
        for want in [
            "--better lexicographic:mean_score",
            "--emitters gaussian,one-weight",
            "--sigma 0.25",
            "--overflow-bins",
            "--one-hot",
        ] {
            assert!(t.contains(&want.to_string()), "{want} in {t:?}");
        }
        let axes_said = axes_html(&config, Some(&axes)).unwrap();
        assert!(
            axes_said.starts_with("the problem's default axes: <code>attacks=4:16:12</code>"),
            "{axes_said}"
        );
        assert!(axes_html(&AlgoConfig::Ntbea(NtbeaConfig::default()), None).is_none());
        let all = t.join(" ");
        for debug in [
            "Lexicographic",
            "secondary",
            "HillClimber",
            "axes: []",
            "Gaussian",
        ] {
            assert!(!all.contains(debug), "{debug} in {all}");
        }
        assert_eq!(kebab("HillClimber"), "hill-climber");
        assert_eq!(kebab("mean_score"), "mean_score");
    }
}
