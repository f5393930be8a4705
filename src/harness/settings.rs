//! Settings written NAME=VALUE, for games and agents alike: declared with defaults,
//! overridden by the user, every name and value checked with a message that says
//! whose setting was wrong.

/// A setting: its name, default (as text) and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub name: String,
    pub default: String,
    pub about: String,
}

impl Setting {
    pub fn new(name: &str, default: &str, about: &str) -> Setting {
        Setting {
            name: name.into(),
            default: default.into(),
            about: about.into(),
        }
    }
}

/// Largest count a setting takes (games, iterations, budgets, populations): more would
/// exhaust memory or time. `max` means unlimited where a count allows it.
pub const MAX_COUNT: usize = 1_000_000;

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
    ) -> Result<Values, String> {
        let mut values: Vec<(String, String)> = declared
            .iter()
            .map(|s| (s.name.clone(), s.default.clone()))
            .collect();
        for (k, v) in given {
            match values.iter_mut().find(|(n, _)| n == k) {
                Some(slot) => slot.1 = v.clone(),
                None => {
                    let known: Vec<&str> = declared.iter().map(|s| s.name.as_str()).collect();
                    return Err(format!(
                        "{k}={v}: {owner} has no setting `{k}` (its settings: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ));
                }
            }
        }
        Ok(Values {
            owner: owner.into(),
            values,
        })
    }

    /// The text of setting `name`; panics if it was not declared (a bug in the
    /// caller, not bad input).
    pub fn get(&self, name: &str) -> &str {
        match self.values.iter().find(|(n, _)| n == name) {
            Some((_, v)) => v,
            None => panic!("{}: no declared setting `{name}`", self.owner),
        }
    }

    /// Every setting with its value, in declaration order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.values
    }

    fn bad(&self, name: &str, what: &str) -> String {
        format!(
            "{name}={}: {} takes {what} as {name}",
            self.get(name),
            self.owner
        )
    }

    /// A whole number from 1 to [`MAX_COUNT`], or `max` for no limit.
    pub fn count(&self, name: &str) -> Result<usize, String> {
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

    /// A whole number from 0 to [`MAX_COUNT`].
    pub fn whole(&self, name: &str) -> Result<usize, String> {
        match self.get(name).parse::<usize>() {
            Ok(v) if v <= MAX_COUNT => Ok(v),
            _ => Err(self.bad(name, &format!("a whole number from 0 to {MAX_COUNT}"))),
        }
    }

    /// A finite real number.
    pub fn real(&self, name: &str) -> Result<f64, String> {
        match self.get(name).parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.bad(name, "a finite number")),
        }
    }

    /// A finite real number, or `none`.
    pub fn optional_real(&self, name: &str) -> Result<Option<f64>, String> {
        if self.get(name).eq_ignore_ascii_case("none") {
            return Ok(None);
        }
        self.real(name)
            .map(Some)
            .map_err(|_| self.bad(name, "a finite number or none"))
    }

    /// `true` or `false` (also 1 or 0).
    pub fn flag(&self, name: &str) -> Result<bool, String> {
        match self.get(name).to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(self.bad(name, "true or false")),
        }
    }

    /// The index of the value among `options` (case-insensitive).
    pub fn choice(&self, name: &str, options: &[&str]) -> Result<usize, String> {
        let text = self.get(name);
        options
            .iter()
            .position(|o| o.eq_ignore_ascii_case(text))
            .ok_or_else(|| self.bad(name, &format!("one of {}", options.join(", "))))
    }
}

/// Parses `NAME=VALUE` pairs, from repeated options or a comma-separated list.
pub fn parse_pairs<'a>(
    items: impl IntoIterator<Item = &'a str>,
    option: &str,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for item in items {
        for pair in item.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| format!("{option} {pair}: expected NAME=VALUE"))?;
            out.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    Ok(out)
}
