//! Which tuples NTBEA's model keeps: the tuple sets by name (`1`, `1+2`, `1+2+N`,
//! `auto`, ...) and their expansion into the dimensions' index lists of a space.

use super::Error;
use crate::space::Space;
use serde::{Deserialize, Serialize};

/// Which tuples the model keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TupleSet {
    /// 1+2+N when the run's budget can sample the 2-tuples' patterns (at least 10
    /// evaluations per pattern of an average 2-tuple) and they are affordable (at most
    /// 1000 2-tuples, and 2^21 patterns over them all); else 1+N. The 2-tuples are what lets
    /// NTBEA see interactions and they win wherever they are well sampled, but a
    /// pattern seen once or twice only adds noise to the model's means: with eight
    /// values per dimension, win-or-lose evaluations and a budget of 100, 1+N does
    /// better (runs/published/ntbea-defaults).
    Auto,
    /// Sizes of tuples to include over the free dimensions: 1, 2 and 3 mean all tuples
    /// of that size; `full` adds the single tuple of every free dimension (the N-tuple).
    Sizes {
        /// The tuple sizes: 1, 2 or 3.
        sizes: Vec<usize>,
        /// Whether the N-tuple is added.
        full: bool,
    },
    /// Explicit tuples, by dimension name.
    Explicit(Vec<Vec<String>>),
}

/// As the `tuples` setting takes them (`auto`, `1+2+N`, `a,b;c`): parsing the text
/// gives the same set back.
impl std::fmt::Display for TupleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TupleSet::Auto => f.write_str("auto"),
            TupleSet::Sizes { sizes, full } => {
                let mut terms: Vec<String> = sizes.iter().map(usize::to_string).collect();
                if *full {
                    terms.push("N".into());
                }
                f.write_str(&terms.join("+"))
            }
            TupleSet::Explicit(tuples) => f.write_str(
                &tuples
                    .iter()
                    .map(|t| t.join(","))
                    .collect::<Vec<_>>()
                    .join(";"),
            ),
        }
    }
}

impl std::str::FromStr for TupleSet {
    type Err = Error;

    /// As [`TupleSet::parse`], with the typed error.
    fn from_str(text: &str) -> Result<TupleSet, Error> {
        TupleSet::read(text)
    }
}

impl TupleSet {
    /// Auto: at most this many 2-tuples (45 free dimensions); scoring a neighbour costs
    /// time in proportion to the tuples that hold a changed dimension.
    pub(crate) const AUTO_MAX_PAIRS: usize = 1000;
    /// Auto: at most this many patterns over all 2-tuples together (each a dense table
    /// of 24-byte statistics: 48 MiB at most).
    pub(crate) const AUTO_MAX_PAIR_PATTERNS: u64 = 1 << 21;
    /// Auto: evaluations per pattern of an average 2-tuple below which 1+N is used.
    pub(crate) const AUTO_MIN_SAMPLES: f64 = 10.0;

    /// Parses `auto`, `1+N`, `1+2+N`, `1,2`, ... or an explicit list `a,b;c;a,c`. A
    /// term given twice (`1+1+N`, `N+D`, `a,a`, `a,b;b,a`) or an empty one (`1++N`,
    /// `a,;b`) is refused: each is a typing mistake that would otherwise be dropped
    /// without a word.
    ///
    /// Kept for callers that report errors as text; `text.parse::<TupleSet>()` gives
    /// the typed error.
    pub fn parse(text: &str) -> Result<TupleSet, String> {
        text.parse().map_err(|e: Error| e.to_string())
    }

    fn read(text: &str) -> Result<TupleSet, Error> {
        let refuse = |problem: String| Error::Tuples {
            text: text.to_string(),
            problem,
        };
        let t = text.trim();
        if t.eq_ignore_ascii_case("auto") {
            return Ok(TupleSet::Auto);
        }
        let parts: Vec<&str> = t.split(['+', ',']).map(str::trim).collect();
        let size_term = |p: &str| matches!(p, "1" | "2" | "3" | "N" | "n" | "D" | "d");
        if !t.contains(';')
            && parts.iter().any(|p| size_term(p))
            && parts.iter().all(|p| size_term(p) || p.is_empty())
        {
            if parts.iter().any(|p| p.is_empty()) {
                return Err(refuse(
                    "an empty term (two separators in a row, or one at an end): use 1+N, 1+2+N, 1+2 or an explicit list like `a,b;c`".into(),
                ));
            }
            let mut sizes: Vec<usize> = Vec::new();
            let mut full = false;
            for p in &parts {
                let repeated = match p.parse::<usize>() {
                    Ok(s) if sizes.contains(&s) => true,
                    Ok(s) => {
                        sizes.push(s);
                        false
                    }
                    Err(_) if full => true,
                    Err(_) => {
                        full = true;
                        false
                    }
                };
                if repeated {
                    return Err(refuse(format!(
                        "`{p}` is given twice (N and D both mean the tuple of all free dimensions); give each term once"
                    )));
                }
            }
            sizes.sort_unstable();
            return Ok(TupleSet::Sizes { sizes, full });
        }
        let mut tuples: Vec<Vec<String>> = Vec::new();
        for tuple in t.split(';') {
            let mut names: Vec<String> = Vec::new();
            for n in tuple.split(',').map(str::trim) {
                if n.is_empty() {
                    return Err(refuse(format!(
                        "an empty dimension name in `{}` (two separators in a row, or one at an end)",
                        tuple.trim()
                    )));
                }
                if names.iter().any(|m| m == n) {
                    return Err(refuse(format!(
                        "`{n}` appears twice in the tuple `{}`; name each dimension once",
                        tuple.trim()
                    )));
                }
                names.push(n.to_string());
            }
            let mut key = names.clone();
            key.sort();
            if tuples.iter().any(|other| {
                let mut o = other.clone();
                o.sort();
                o == key
            }) {
                return Err(refuse(format!(
                    "the tuple `{}` is given twice; give each tuple once",
                    tuple.trim()
                )));
            }
            tuples.push(names);
        }
        if tuples.is_empty() {
            return Err(refuse(
                "names no tuples: use 1+N, 1+2+N, 1+2 or an explicit list like `a,b;c`".into(),
            ));
        }
        Ok(TupleSet::Explicit(tuples))
    }

    /// The tuples as lists of dimension positions, for a run of `budget` evaluations.
    pub fn expand(&self, space: &Space, budget: u64) -> Result<Vec<Vec<usize>>, Error> {
        let free = space.free_dims();
        let mut out: Vec<Vec<usize>> = Vec::new();
        match self {
            TupleSet::Auto => {
                return TupleSet::Sizes {
                    sizes: if Self::pairs_pay(space, &free, budget) {
                        vec![1, 2]
                    } else {
                        vec![1]
                    },
                    full: true,
                }
                .expand(space, budget);
            }
            TupleSet::Sizes { sizes, full } => {
                for &s in sizes {
                    combinations(&free, s, &mut Vec::new(), 0, &mut out);
                }
                if *full && !out.iter().any(|t| t.len() == free.len()) {
                    out.push(free.clone());
                }
            }
            TupleSet::Explicit(tuples) => {
                for names in tuples {
                    let mut t = Vec::new();
                    for n in names {
                        let d = space
                            .position(n)
                            .ok_or_else(|| Error::UnknownTupleDimension(n.clone()))?;
                        if !t.contains(&d) {
                            t.push(d);
                        }
                    }
                    out.push(t);
                }
            }
        }
        if out.is_empty() {
            return Err(Error::NoTuples);
        }
        Ok(out)
    }

    fn pairs_pay(space: &Space, free: &[usize], budget: u64) -> bool {
        let d = free.len();
        let pairs = d * d.saturating_sub(1) / 2;
        if pairs == 0 || pairs > Self::AUTO_MAX_PAIRS {
            return false;
        }
        let arity: Vec<u64> = free.iter().map(|&i| space.dims[i].arity() as u64).collect();
        let mut patterns: u64 = 0;
        for (i, a) in arity.iter().enumerate() {
            for b in &arity[i + 1..] {
                patterns = patterns.saturating_add(a.saturating_mul(*b));
            }
        }
        patterns <= Self::AUTO_MAX_PAIR_PATTERNS
            && budget as f64 >= Self::AUTO_MIN_SAMPLES * patterns as f64 / pairs as f64
    }
}

fn combinations(
    items: &[usize],
    k: usize,
    cur: &mut Vec<usize>,
    from: usize,
    out: &mut Vec<Vec<usize>>,
) {
    if cur.len() == k {
        if k > 0 {
            out.push(cur.clone());
        }
        return;
    }
    for i in from..items.len() {
        cur.push(items[i]);
        combinations(items, k, cur, i + 1, out);
        cur.pop();
    }
}
