//! An optimiser's settings as the command line spells them (`--recommend
//! neighbourhood`, `--better lexicographic:mean_score`, `--axes attacks=4:16:12`),
//! from its declaration ([`playtune::optim::def`]), so that a report shows what a user
//! types rather than Rust's names (`Neighbourhood`, `Lexicographic(secondary(...))`).

use playtune::eval::FeatureAxis;
use playtune::optim::AlgoConfig;

/// One setting as flag and value (`("--scale", "sd")`); an empty value for a switch
/// that is on (`--overflow-bins`). Switches that are off are left out, as they would
/// be on the command line.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Flag {
    pub(crate) flag: String,
    pub(crate) value: String,
}

impl Flag {
    fn new(flag: &str, value: impl Into<String>) -> Flag {
        Flag {
            flag: flag.into(),
            value: value.into(),
        }
    }

    /// `--flag value`, or `--flag` for a switch.
    pub(crate) fn text(&self) -> String {
        if self.value.is_empty() {
            self.flag.clone()
        } else {
            format!("{} {}", self.flag, self.value)
        }
    }
}

/// A grid axis as `--axes` takes it: `FEATURE=LOW:HIGH:BINS`.
pub(crate) fn axis_text(a: &FeatureAxis) -> String {
    format!(
        "{}={}:{}:{}",
        a.name,
        super::num(a.low),
        super::num(a.high),
        a.bins
    )
}

/// MAP-Elites' feature axes in words and flags (HTML): the `--axes` flags given, or
/// "the problem's default axes" and what they are (`default_axes`, the problem's;
/// `None` when the problem cannot say). `None` for other optimisers.
pub(super) fn axes_html(
    config: &AlgoConfig,
    default_axes: Option<&[FeatureAxis]>,
) -> Option<String> {
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
            "the problem's default axes{listed} <span class=\"note\">(no <code>--axes</code> given; each FEATURE=LOW:HIGH:BINS)</span>"
        )
    } else {
        let each: Vec<String> = c
            .axes
            .iter()
            .map(|a| format!("<code>--axes {}</code>", super::escape(&axis_text(a))))
            .collect();
        each.join(" ")
    })
}

/// The settings of `config` as flags of `playtune optimize` / `map-elites`, in the
/// order `config.ron` records them; MAP-Elites' axes are [`axes_html`]'s.
pub(crate) fn algorithm_flags(config: &AlgoConfig) -> Vec<Flag> {
    // A declared optimiser's settings are its flags, switches when on.
    let (def, values) = playtune::optim::def::declaring(config);
    let switches: Vec<String> = (def.settings)()
        .into_iter()
        .filter(|s| s.values == Some(playtune::space::Domain::Bool))
        .map(|s| s.name)
        .collect();
    values
        .into_iter()
        // MAP-Elites' axes are [`axes_html`]'s, with the problem's default named.
        .filter(|(name, _)| name != "axes")
        .filter_map(|(name, value)| {
            let flag = format!("--{}", name.replace('_', "-"));
            match switches.contains(&name) {
                true => (value == "true").then(|| Flag::new(&flag, "")),
                false => Some(Flag::new(&flag, value)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use playtune::optim::map_elites::{Better, MapElitesConfig, Mutation};
    use playtune::optim::ntbea::{FitnessScale, NtbeaConfig, RecommendFrom, TupleSet};

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
            "--init-one-hot",
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
    }
}
