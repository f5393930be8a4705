//! Settings written NAME=VALUE, for games and agents alike: declared with defaults,
//! overridden by the user, every name and value checked with a message that says
//! whose setting was wrong.

/// A setting: its name, default (as text) and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// Its name, as `NAME=VALUE` writes it.
    pub name: String,
    /// Its default value, as text.
    pub default: String,
    /// What it means, one line for help and docs.
    pub about: String,
    /// The values worth trying when the agent is tuned (`--problem tune-agent`);
    /// `None`: not tuned (budgets, which only buy strength, and switches of no
    /// consequence to play).
    pub tune: Option<crate::space::Domain>,
    /// The numbers the setting takes, both ends included, where it is a number with
    /// limits (Rinascimento's `coins`: 1 to 20): a design space is checked against
    /// them before any game is played, and `playtune games` lists them.
    pub range: Option<(f64, f64)>,
    /// The values the setting takes, where they are a set (a described game's
    /// settings): a design space's dimension must take only these.
    pub values: Option<crate::space::Domain>,
    /// Other names its command-line flag also answers to (the names it had before).
    pub aliases: Vec<&'static str>,
    /// Whether it is a list the command line may give one item at a time (the flag
    /// repeated); its value is the items joined by commas.
    pub repeatable: bool,
}

impl Setting {
    /// A setting called `name` with default `default`, meaning `about`: not tuned, no
    /// range, no set of values, no other names, not repeatable.
    pub fn new(name: &str, default: &str, about: &str) -> Setting {
        Setting {
            name: name.into(),
            default: default.into(),
            about: about.into(),
            tune: None,
            range: None,
            values: None,
            aliases: Vec::new(),
            repeatable: false,
        }
    }

    /// The setting's flag also answers to `--alias`.
    pub fn alias(mut self, alias: &'static str) -> Setting {
        self.aliases.push(alias);
        self
    }

    /// The setting is a comma list whose flag may be repeated.
    pub fn repeatable(mut self) -> Setting {
        self.repeatable = true;
        self
    }

    /// The setting, taking the numbers `min` to `max` (both included).
    pub fn within(mut self, min: f64, max: f64) -> Setting {
        self.range = Some((min, max));
        self
    }

    /// The setting, taking only the values of `domain`.
    pub fn taking(mut self, domain: crate::space::Domain) -> Setting {
        self.values = Some(domain);
        self
    }

    /// The setting, tuned over `domain` (values as the agent spec writes them).
    pub fn tuned(mut self, domain: crate::space::Domain) -> Setting {
        self.tune = Some(domain);
        self
    }
}

/// A setting that was refused: whose it was, which, the value given, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingError {
    /// `owner` declares no setting `name` (its settings: `known`).
    #[error("{name}={value}: {owner} has no setting `{name}` (its settings: {})", if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    Unknown {
        /// Whose settings they are ("game `rinascimento`").
        owner: String,
        /// The name given.
        name: String,
        /// The value given with it.
        value: String,
        /// The names declared.
        known: Vec<String>,
    },
    /// The value is outside what the setting takes (`expected`, in words).
    #[error("{name}={value}: {owner} takes {expected} as {name}")]
    Invalid {
        /// Whose setting it is.
        owner: String,
        /// The setting's name.
        name: String,
        /// The value given.
        value: String,
        /// What it takes, in words.
        expected: String,
    },
}

impl SettingError {
    /// The setting's name.
    pub fn name(&self) -> &str {
        match self {
            SettingError::Unknown { name, .. } | SettingError::Invalid { name, .. } => name,
        }
    }
}

/// Largest count a setting takes (games, iterations, budgets, populations): more would
/// exhaust memory or time. `max` means unlimited where a count allows it.
pub(crate) const MAX_COUNT: usize = 1_000_000;

/// Every declared setting with its value: the user's where given, else the default.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    owner: String,
    values: Vec<(String, String)>,
}

impl Values {
    /// The defaults of `declared` overridden by `given`; a name not declared is an
    /// error naming `owner` (e.g. "game `rinascimento`") and the known names.
    pub fn new(
        owner: &str,
        declared: &[Setting],
        given: &[(String, String)],
    ) -> Result<Values, SettingError> {
        let mut values: Vec<(String, String)> = declared
            .iter()
            .map(|s| (s.name.clone(), s.default.clone()))
            .collect();
        for (k, v) in given {
            match values.iter_mut().find(|(n, _)| n == k) {
                Some(slot) => slot.1 = v.clone(),
                None => {
                    return Err(SettingError::Unknown {
                        owner: owner.into(),
                        name: k.clone(),
                        value: v.clone(),
                        known: declared.iter().map(|s| s.name.clone()).collect(),
                    });
                }
            }
        }
        Ok(Values {
            owner: owner.into(),
            values,
        })
    }

    /// These values with `given` in place of theirs: each name must be one of them,
    /// as [`Values::new`] checks; nothing else is read again. A design evaluation
    /// puts its point's settings over the settings held fixed, read once.
    pub fn with(&self, given: &[(String, String)]) -> Result<Values, SettingError> {
        let mut out = self.clone();
        for (k, v) in given {
            match out.values.iter_mut().find(|(n, _)| n == k) {
                Some(slot) => slot.1 = v.clone(),
                None => {
                    return Err(SettingError::Unknown {
                        owner: self.owner.clone(),
                        name: k.clone(),
                        value: v.clone(),
                        known: self.values.iter().map(|(n, _)| n.clone()).collect(),
                    });
                }
            }
        }
        Ok(out)
    }

    /// The text of setting `name`; panics if it was not declared (a bug in the
    /// caller, not bad input).
    pub fn get(&self, name: &str) -> &str {
        match self.values.iter().find(|(n, _)| n == name) {
            Some((_, v)) => v,
            None => panic!("{}: no declared setting `{name}`", self.owner),
        }
    }

    /// Whose settings these are, e.g. "agent `mcts`".
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// Every setting with its value, in declaration order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.values
    }

    /// The error refusing setting `name`, which should be `what`.
    pub fn bad(&self, name: &str, what: &str) -> SettingError {
        SettingError::Invalid {
            owner: self.owner.clone(),
            name: name.into(),
            value: self.get(name).into(),
            expected: what.into(),
        }
    }

    /// A whole number from 1 to 1,000,000: a size (a depth, a length, a
    /// population), which `max` would make exhaust memory or time.
    pub fn count(&self, name: &str) -> Result<usize, SettingError> {
        match self.get(name).parse::<usize>() {
            Ok(v) if (1..=MAX_COUNT).contains(&v) => Ok(v),
            _ => Err(self.bad(name, &format!("a whole number from 1 to {MAX_COUNT}"))),
        }
    }

    /// A whole number from 1 to `max`, for a count with a tighter bound than
    /// 1,000,000 (levels that exist, turns a log holds, dimensions).
    pub fn count_in(&self, name: &str, max: usize) -> Result<usize, SettingError> {
        match self.get(name).parse::<usize>() {
            Ok(v) if (1..=max).contains(&v) => Ok(v),
            _ => Err(self.bad(name, &format!("a whole number from 1 to {max}"))),
        }
    }

    /// A limit on work (iterations, evaluations, forward-model calls): a whole number
    /// from 1 to 1,000,000, or `max` (`usize::MAX`) for none. An agent with a
    /// limit of `max` needs another limit that is a number (see the agents' builders).
    pub fn limit(&self, name: &str) -> Result<usize, SettingError> {
        let text = self.get(name);
        if text.eq_ignore_ascii_case("max") {
            return Ok(usize::MAX);
        }
        match text.parse::<usize>() {
            Ok(v) if (1..=MAX_COUNT).contains(&v) => Ok(v),
            _ => Err(self.bad(
                name,
                &format!("a whole number from 1 to {MAX_COUNT} (or max)"),
            )),
        }
    }

    /// A whole number from 0 to 1,000,000.
    pub fn whole(&self, name: &str) -> Result<usize, SettingError> {
        match self.get(name).parse::<usize>() {
            Ok(v) if v <= MAX_COUNT => Ok(v),
            _ => Err(self.bad(name, &format!("a whole number from 0 to {MAX_COUNT}"))),
        }
    }

    /// A finite real number.
    pub fn real(&self, name: &str) -> Result<f64, SettingError> {
        match self.get(name).parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.bad(name, "a finite number")),
        }
    }

    /// A finite real number from `low` to `high` (either end may be infinite).
    pub fn real_in(&self, name: &str, low: f64, high: f64) -> Result<f64, SettingError> {
        match self.get(name).parse::<f64>() {
            Ok(v) if v.is_finite() && (low..=high).contains(&v) => Ok(v),
            _ => Err(self.bad(name, &range_text(low, high))),
        }
    }

    /// A finite real number of at least 0 (an exploration constant, a tie-break size).
    pub fn non_negative(&self, name: &str) -> Result<f64, SettingError> {
        self.real_in(name, 0.0, f64::INFINITY)
    }

    /// A probability or a share: a number from 0 to 1.
    pub fn probability(&self, name: &str) -> Result<f64, SettingError> {
        self.real_in(name, 0.0, 1.0)
    }

    /// A finite real number above 0.
    pub fn positive(&self, name: &str) -> Result<f64, SettingError> {
        match self.get(name).parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
            _ => Err(self.bad(name, "a finite number above 0")),
        }
    }

    /// A probability (a number from 0 to 1), or `none`.
    pub fn optional_probability(&self, name: &str) -> Result<Option<f64>, SettingError> {
        if self.get(name).eq_ignore_ascii_case("none") {
            return Ok(None);
        }
        self.probability(name)
            .map(Some)
            .map_err(|_| self.bad(name, "a number from 0 to 1, or none"))
    }

    /// `true` or `false` (also 1 or 0).
    pub fn flag(&self, name: &str) -> Result<bool, SettingError> {
        match self.get(name).to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(self.bad(name, "true or false")),
        }
    }

    /// The index of the value among `options` (case-insensitive).
    pub fn choice(&self, name: &str, options: &[&str]) -> Result<usize, SettingError> {
        let text = self.get(name);
        options
            .iter()
            .position(|o| o.eq_ignore_ascii_case(text))
            .ok_or_else(|| self.bad(name, &format!("one of {}", options.join(", "))))
    }
}

/// What a range of [`Values::real_in`] reads as in a message.
fn range_text(low: f64, high: f64) -> String {
    match (low.is_finite(), high.is_finite()) {
        (true, true) => format!("a number from {low} to {high}"),
        (true, false) => format!("a finite number of at least {low}"),
        (false, true) => format!("a finite number of at most {high}"),
        (false, false) => "a finite number".to_string(),
    }
}

/// A `NAME=VALUE` list that does not read: the item at fault and why. Where the list
/// came from (a flag, a file) is the caller's to add.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{item}: {why}")]
pub struct PairsError {
    /// The item at fault, as given.
    pub item: String,
    /// Why it does not read.
    pub why: String,
}

/// Parses `NAME=VALUE` pairs, from repeated options or a comma-separated list. An
/// empty item (`a=1,,b=2`), an empty name or a name given twice is refused: each is a
/// typing mistake, and the last value silently winning would hide it.
pub fn parse_pairs<'a>(
    items: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<(String, String)>, PairsError> {
    let mut out: Vec<(String, String)> = Vec::new();
    let refuse = |item: &str, why: String| PairsError {
        item: item.to_string(),
        why,
    };
    for item in items {
        for pair in item.split(',') {
            if pair.trim().is_empty() {
                return Err(refuse(
                    item,
                    "an empty item (two commas in a row, or one at an end); expected NAME=VALUE,NAME=VALUE".into(),
                ));
            }
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| refuse(pair, "expected NAME=VALUE".into()))?;
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() {
                return Err(refuse(pair, "the NAME before `=` is missing".into()));
            }
            if let Some((_, first)) = out.iter().find(|(n, _)| n == k) {
                return Err(refuse(
                    pair,
                    format!(
                        "`{k}` is given twice ({k}={first} and {k}={v}); give each setting once"
                    ),
                ));
            }
            out.push((k.to_string(), v.to_string()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refused setting is a value a caller can match on, and its message names the
    /// owner, the setting, the value and what it takes.
    #[test]
    fn refused_settings_are_typed_and_say_why() {
        let declared = [
            Setting::new("games", "10", "games"),
            Setting::new("c", "1", "c"),
        ];
        let given = [("gamez".to_string(), "3".to_string())];
        let e = Values::new("problem `p`", &declared, &given).unwrap_err();
        assert!(matches!(&e, SettingError::Unknown { known, .. } if known == &["games", "c"]));
        assert_eq!(e.name(), "gamez");
        assert_eq!(
            e.to_string(),
            "gamez=3: problem `p` has no setting `gamez` (its settings: games, c)"
        );
        let v = Values::new("problem `p`", &declared, &[("games".into(), "0".into())]).unwrap();
        // Values put over others: the given replace theirs, an unknown name refused.
        let w = v.with(&[("c".into(), "2".into())]).unwrap();
        assert_eq!((w.get("games"), w.get("c")), ("0", "2"));
        assert_eq!(v.get("c"), "1");
        assert!(matches!(
            v.with(&[("x".into(), "1".into())]),
            Err(SettingError::Unknown { known, .. }) if known == ["games", "c"]
        ));
        let e = v.count("games").unwrap_err();
        assert!(matches!(&e, SettingError::Invalid { value, .. } if value == "0"));
        assert_eq!(
            e.to_string(),
            format!("games=0: problem `p` takes a whole number from 1 to {MAX_COUNT} as games")
        );
        assert_eq!(v.real_in("c", 0.0, 2.0), Ok(1.0));
    }
}
