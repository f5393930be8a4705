//! What playtune writes to an evaluator and how it reads the answers.

use crate::eval::{Evaluation, point_json as point};
use crate::space::Space;
use serde_json::{Map, Value};

/// A one-shot request: `{"seed": 12, "point": {...}}`.
pub(crate) fn once_request(space: &Space, x: &[f64], seed: u64) -> String {
    serde_json::json!({ "seed": seed, "point": point(space, x) }).to_string()
}

/// A worker's request, one line: `{"id": 7, "seed": 12, "point": {...}}`.
pub(crate) fn worker_request(space: &Space, x: &[f64], seed: u64, id: u64) -> String {
    let mut line =
        serde_json::json!({ "id": id, "seed": seed, "point": point(space, x) }).to_string();
    line.push('\n');
    line
}

/// How a worker answered a request.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// An evaluation: the fitness and the features named.
    Done(Evaluation),
    /// The worker could not evaluate this point, and said so: `{"id": 7, "error": ...}`.
    Refused(String),
}

/// Why an evaluator's answer cannot be read. `shown` is the answer as [`show`] quotes
/// it; `what` names the line read ("its last line", "its reply").
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplyError {
    /// Nothing on standard output.
    #[error("it printed nothing on its standard output")]
    Silent,
    /// A bare number that is not finite.
    #[error("it printed {shown}, which is not a finite number")]
    NotFinite {
        /// The answer, quoted.
        shown: String,
    },
    /// A bare number where features are declared.
    #[error(
        "it printed the bare number {shown}, but features are declared ({features}): print {{\"fitness\": ..., \"features\": {{...}}}}"
    )]
    BareNumber {
        /// The answer, quoted.
        shown: String,
        /// The declared features, comma-separated.
        features: String,
    },
    /// The evaluator's own `{"error": ...}`.
    #[error("it reported an error: {0}")]
    Reported(String),
    /// A reply to another request.
    #[error("it replied {shown} with id {got} to the request with id {id}")]
    WrongId {
        /// The reply, quoted.
        shown: String,
        /// The id it carried.
        got: String,
        /// The request's id.
        id: u64,
    },
    /// A worker's reply without an id.
    #[error("its reply {shown} has no \"id\" (the request's was {id})")]
    NoId {
        /// The reply, quoted.
        shown: String,
        /// The request's id.
        id: u64,
    },
    /// JSON that is not an object.
    #[error("{what} {shown} is neither a number nor a JSON object")]
    NotAnObject {
        /// The line read.
        what: &'static str,
        /// The answer, quoted.
        shown: String,
    },
    /// A number beyond a 64-bit float.
    #[error(
        "{what} {shown} holds a number out of range of a 64-bit float (it would be infinite): fitness and features must be finite"
    )]
    OutOfRange {
        /// The line read.
        what: &'static str,
        /// The answer, quoted.
        shown: String,
    },
    /// NaN or an infinity spelled out.
    #[error("{what} {shown} holds NaN or an infinity, which are not finite numbers")]
    NanOrInfinity {
        /// The line read.
        what: &'static str,
        /// The answer, quoted.
        shown: String,
    },
    /// Neither a number nor JSON.
    #[error("{what} {shown} is neither a number nor JSON ({source})")]
    NotJson {
        /// The line read.
        what: &'static str,
        /// The answer, quoted.
        shown: String,
        /// What the JSON reader said.
        source: serde_json::Error,
    },
    /// A key given twice.
    #[error("{what} {shown} names the key \"{key}\" twice: give each key once")]
    Duplicate {
        /// The line read.
        what: &'static str,
        /// The answer, quoted.
        shown: String,
        /// The key given twice.
        key: String,
    },
    /// No numeric fitness.
    #[error("{shown} has no numeric \"fitness\"")]
    NoFitness {
        /// The answer, quoted.
        shown: String,
    },
    /// A fitness that is not finite.
    #[error("the fitness in {shown} is not finite")]
    FitnessNotFinite {
        /// The answer, quoted.
        shown: String,
    },
    /// A declared feature missing.
    #[error("{shown} lacks the numeric feature `{name}`")]
    NoFeature {
        /// The answer, quoted.
        shown: String,
        /// The feature's name.
        name: String,
    },
    /// A feature that is not finite.
    #[error("feature `{name}` in {shown} is not finite")]
    FeatureNotFinite {
        /// The answer, quoted.
        shown: String,
        /// The feature's name.
        name: String,
    },
}

/// `text` with every control character (a line break, a terminal's escape and
/// bell, the C1 codes) shown as a space: what an evaluator or a game wrote must not
/// drive the reader's terminal, nor split a message or a log's line.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Quotes what an evaluator printed, cut to a readable length.
pub fn show(text: &str) -> String {
    const MAX: usize = 200;
    let text = printable(text);
    let text = text.trim();
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("`{}...`", &text[..cut]),
        None => format!("`{text}`"),
    }
}

/// A one-shot evaluator's standard output: its last non-empty line is a number (the
/// fitness) or `{"fitness": f, "features": {...}}`.
pub(crate) fn parse_output(features: &[String], stdout: &str) -> Result<Evaluation, ReplyError> {
    let line = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or(ReplyError::Silent)?
        .trim();
    if let Ok(f) = line.parse::<f64>() {
        // Rust reads `NaN`, `inf`, `infinity` and `1e999` (as infinity) as numbers too.
        if !f.is_finite() {
            return Err(ReplyError::NotFinite { shown: show(line) });
        }
        if !features.is_empty() {
            return Err(ReplyError::BareNumber {
                shown: show(line),
                features: features.join(", "),
            });
        }
        return Ok(Evaluation::fitness(f));
    }
    let v = json(line, "its last line")?;
    if let Some(e) = v.get("error") {
        return Err(ReplyError::Reported(error_text(e)));
    }
    evaluation(features, &v, line)
}

/// A worker's reply line to request `id`.
pub fn parse_reply(features: &[String], id: u64, line: &str) -> Result<Reply, ReplyError> {
    let line = line.trim();
    let v = json(line, "its reply")?;
    match v.get("id") {
        Some(got) if got.as_u64() == Some(id) => {}
        Some(got) => {
            return Err(ReplyError::WrongId {
                shown: show(line),
                got: got.to_string(),
                id,
            });
        }
        None => {
            return Err(ReplyError::NoId {
                shown: show(line),
                id,
            });
        }
    }
    if let Some(e) = v.get("error") {
        return Ok(Reply::Refused(error_text(e)));
    }
    evaluation(features, &v, line).map(Reply::Done)
}

fn error_text(e: &Value) -> String {
    let text = match e {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    show(&text).trim_matches('`').to_string()
}

/// Reads `line` as a JSON object, saying plainly why not when it is none: above all
/// for the non-finite numbers JSON has no spelling for (`NaN`, `Infinity`, which
/// Python's json module writes, and `1e999`, which overflows a 64-bit float).
pub fn json(line: &str, what: &'static str) -> Result<Map<String, Value>, ReplyError> {
    let shown = show(line);
    match serde_json::from_str::<Strict>(line).map(|s| s.0) {
        Ok(Value::Object(m)) => Ok(m),
        Err(e) if e.to_string().starts_with(DUPLICATE) => Err(ReplyError::Duplicate {
            what,
            shown,
            key: e.to_string()[DUPLICATE.len()..]
                .split('`')
                .next()
                .unwrap_or("")
                .to_string(),
        }),
        Ok(_) => Err(ReplyError::NotAnObject { what, shown }),
        Err(e) if e.to_string().contains("number out of range") => {
            Err(ReplyError::OutOfRange { what, shown })
        }
        Err(e) if names_non_finite(line, e.column()) => {
            Err(ReplyError::NanOrInfinity { what, shown })
        }
        Err(source) => Err(ReplyError::NotJson {
            what,
            shown,
            source,
        }),
    }
}

const DUPLICATE: &str = "a repeated key `";

/// A JSON value whose objects hold each key once: a reply that names a key twice is
/// ambiguous (which copy is meant?), never read as its last copy.
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Strict;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Strict, E> {
                Ok(Strict(Value::Bool(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Strict, E> {
                Ok(Strict(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Strict, E> {
                Ok(Strict(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Strict, E> {
                Ok(Strict(
                    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
                ))
            }
            fn visit_str<E>(self, v: &str) -> Result<Strict, E> {
                Ok(Strict(Value::String(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Strict, E> {
                Ok(Strict(Value::String(v)))
            }
            fn visit_unit<E>(self) -> Result<Strict, E> {
                Ok(Strict(Value::Null))
            }
            fn visit_none<E>(self) -> Result<Strict, E> {
                Ok(Strict(Value::Null))
            }
            fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Strict, D::Error> {
                serde::Deserialize::deserialize(d)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Strict, A::Error> {
                let mut out = Vec::new();
                while let Some(Strict(v)) = a.next_element()? {
                    out.push(v);
                }
                Ok(Strict(Value::Array(out)))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Strict, A::Error> {
                let mut out = Map::new();
                while let Some(key) = a.next_key::<String>()? {
                    let Strict(v) = a.next_value()?;
                    if out.insert(key.clone(), v).is_some() {
                        return Err(serde::de::Error::custom(format!("{DUPLICATE}{key}`")));
                    }
                }
                Ok(Strict(Value::Object(out)))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// Whether the JSON error at `column` (1-based, on the line's one line) is at a
/// spelling of NaN or infinity.
fn names_non_finite(line: &str, column: usize) -> bool {
    let mut at = column.saturating_sub(1).min(line.len());
    // serde_json counts columns in bytes: one may fall inside a character.
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    // The parser stops on the offending character or just past it.
    let from = line[..at]
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_ascii_alphabetic())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = line[from..]
        .trim_start_matches(['-', '+'])
        .to_ascii_lowercase();
    word.starts_with("nan") || word.starts_with("inf")
}

fn evaluation(
    features: &[String],
    v: &Map<String, Value>,
    line: &str,
) -> Result<Evaluation, ReplyError> {
    let fitness = v
        .get("fitness")
        .and_then(Value::as_f64)
        .ok_or_else(|| ReplyError::NoFitness { shown: show(line) })?;
    if !fitness.is_finite() {
        return Err(ReplyError::FitnessNotFinite { shown: show(line) });
    }
    let features = features
        .iter()
        .map(|n| {
            let f = v
                .get("features")
                .and_then(|f| f.get(n))
                .and_then(Value::as_f64)
                .ok_or_else(|| ReplyError::NoFeature {
                    shown: show(line),
                    name: n.clone(),
                })?;
            if f.is_finite() {
                Ok(f)
            } else {
                Err(ReplyError::FeatureNotFinite {
                    shown: show(line),
                    name: n.clone(),
                })
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(Evaluation { fitness, features })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kills() -> Vec<String> {
        vec!["kills".to_string()]
    }

    #[test]
    fn non_finite_numbers_are_refused_in_every_spelling() {
        for bare in [
            "NaN",
            "nan",
            "inf",
            "-inf",
            "1e999",
            "infinity",
            "-Infinity",
        ] {
            let e = parse_output(&[], &format!("{bare}\n"))
                .unwrap_err()
                .to_string();
            assert!(e.contains("not a finite number") && e.contains(bare), "{e}");
            for json in [
                format!("{{\"fitness\": {bare}, \"features\": {{\"kills\": 1}}}}"),
                format!("{{\"fitness\": 1, \"features\": {{\"kills\": {bare}}}}}"),
            ] {
                let e = parse_output(&kills(), &json).unwrap_err().to_string();
                assert!(
                    e.contains("NaN or an infinity") || e.contains("out of range"),
                    "{json}: {e}"
                );
                let reply = json.replacen('{', "{\"id\": 3, ", 1);
                let e = parse_reply(&kills(), 3, &reply).unwrap_err().to_string();
                assert!(
                    e.contains("NaN or an infinity") || e.contains("out of range"),
                    "{reply}: {e}"
                );
            }
        }
        let e = parse_output(&[], "{\"fitness\": 1e999}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("out of range"), "{e}");
    }

    #[test]
    fn replies_are_read_by_id() {
        let ok = parse_reply(
            &kills(),
            7,
            "{\"id\": 7, \"fitness\": 0.5, \"features\": {\"kills\": 3}}",
        );
        assert_eq!(
            ok.unwrap(),
            Reply::Done(Evaluation {
                fitness: 0.5,
                features: vec![3.0]
            })
        );
        let e = parse_reply(&[], 7, "{\"id\": 8, \"fitness\": 0.5}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("id 8") && e.contains("id 7"), "{e}");
        let e = parse_reply(&[], 7, "{\"fitness\": 0.5}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no \"id\""), "{e}");
        assert_eq!(
            parse_reply(&[], 7, "{\"id\": 7, \"error\": \"board too small\"}").unwrap(),
            Reply::Refused("board too small".into())
        );
        let e = parse_reply(&kills(), 7, "{\"id\": 7, \"fitness\": 1}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("lacks the numeric feature `kills`"), "{e}");
        let e = parse_reply(&[], 7, "{\"id\": 7}").unwrap_err().to_string();
        assert!(e.contains("no numeric \"fitness\""), "{e}");
        let e = parse_reply(&[], 7, "0.5").unwrap_err().to_string();
        assert!(e.contains("neither a number nor a JSON object"), "{e}");
    }

    #[test]
    fn what_was_printed_is_quoted_but_cut_short() {
        let e = parse_output(&[], &"x".repeat(10_000))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 400 && e.contains("xxx...`"), "{e}");
        for odd in ["\"¡", "{\"fitness\": ¡nf}", "{\"fitness\": \u{83280}}"] {
            assert!(parse_output(&[], odd).is_err());
        }
        let e = parse_output(&[], "").unwrap_err().to_string();
        assert!(e.contains("printed nothing"), "{e}");
        let e = parse_output(&[], "{\"error\": \"no licence\"}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no licence"), "{e}");
    }
}
