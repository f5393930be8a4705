//! The match protocol: one JSON line from playtune asks a game to play one match with
//! its own bots, one JSON line from the game answers how it went.
//!
//! Request: `{"id": 7, "settings": {"edge": 0.5, "rounds": 5}, "seats": [{"bot":
//! "expert", "settings": {"depth": 2}}, {"bot": "novice", "settings": {}}], "seed":
//! 12}`; seat 0 moves first.
//!
//! Reply: `{"id": 7, "scores": [3, 1], "winners": [0], "length": 41, "ended_by":
//! "rules", "trace": [[0, 0], [1, 0], ...], "features": {"captures": [2, 0]}}`:
//! per seat, in seat order. `winners` lists the seats that won (several for a shared
//! win or a draw, none for a stalemate). `ended_by` is `"rules"` or `"cap"` (a limit
//! on length ended it; `"rules"` when absent). `trace` (optional) holds every seat's
//! score after 0, 1, 2, ... steps, for the lead figures; `features` (optional) the
//! declared per-seat figures. `{"id": 7, "error": "why"}` refuses the match.

use playtune_optim::eval::{printable, reply_object};
use playtune_optim::space::{Dimension, Domain};
use serde_json::{Map, Value, json};

/// One match to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// Every game setting, in the description's order.
    pub settings: Map<String, Value>,
    /// The bot in each seat, seat 0 first.
    pub seats: Vec<SeatBot>,
    /// The match's seed: the game draws its randomness from it.
    pub seed: u64,
    /// Whether the reply keeps each state and move as text (`"show": true` in the
    /// request, `"frames"` in the reply): a match to watch.
    pub show: bool,
}

/// A bot and its settings (every one, defaults filled in).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatBot {
    /// The bot's name.
    pub bot: String,
    /// Its settings, by name.
    pub settings: Map<String, Value>,
}

/// How a match went, per seat.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// Each seat's final score.
    pub scores: Vec<f64>,
    /// Seats that won.
    pub winners: Vec<usize>,
    /// Steps played.
    pub length: u32,
    /// Whether the rules ended it, not a cap on its length.
    pub by_rules: bool,
    /// Every seat's score after 0, 1, 2, ... steps, if the game gave it.
    pub trace: Option<Vec<Vec<f64>>>,
    /// Declared per-seat figures, by name.
    pub features: Vec<(String, Vec<f64>)>,
    /// Each state and the move made in it, as text, then the final state, where the
    /// match was asked to show them ([`Match::show`]).
    pub frames: Vec<String>,
}

/// A setting's value as the game reads it: a number (a whole number where the domain
/// holds whole numbers), a category's name, or true/false.
pub(crate) fn value_json(domain: &Domain, v: f64) -> Value {
    match domain {
        Domain::Categories(_) => Value::String(domain.render(v)),
        Domain::Bool => Value::Bool(v >= 0.5),
        Domain::Int { .. } => json!(v.round() as i64),
        Domain::List(values) if values.iter().all(|x| x.fract() == 0.0 && x.abs() < 9e15) => {
            json!(v.round() as i64)
        }
        _ => json!(v),
    }
}

/// Settings (text values already checked against `dims`) as a JSON object.
pub(crate) fn settings_json(dims: &[Dimension], values: &[(String, String)]) -> Map<String, Value> {
    dims.iter()
        .filter_map(|d| {
            let text = values.iter().find(|(n, _)| *n == d.name)?.1.as_str();
            let v = d.domain.parse_number(text)?;
            Some((d.name.clone(), value_json(&d.domain, v)))
        })
        .collect()
}

impl Match {
    /// The request line for this match, with id `id`.
    pub fn line(&self, id: u64) -> String {
        let seats: Vec<Value> = self
            .seats
            .iter()
            .map(|s| json!({"bot": s.bot, "settings": s.settings}))
            .collect();
        let mut line = json!({
            "id": id,
            "settings": self.settings,
            "seats": seats,
            "seed": self.seed,
        });
        if self.show {
            line["show"] = json!(true);
        }
        let mut line = line.to_string();
        line.push('\n');
        line
    }
}

/// What a failure to read a reply adds: a game's standard output is the protocol's,
/// and what else a game prints there is taken for a reply.
const STRAY: &str = "; a game's standard output carries its replies alone: it prints anything else to standard error";

/// A reply's `length` as steps: a whole JSON number, written `3` or `3.0` (JSON does
/// not tell them apart, and some languages write every number with a point), at most
/// `u32::MAX`; or why it is none.
fn steps(l: &Value) -> Result<u32, String> {
    let too_many = || format!("more steps than a match may report ({})", u32::MAX);
    if let Some(n) = l.as_u64() {
        return u32::try_from(n).map_err(|_| too_many());
    }
    match l.as_f64() {
        Some(x) if x >= 0.0 && x.fract() == 0.0 => {
            if x <= f64::from(u32::MAX) {
                Ok(x as u32)
            } else {
                Err(too_many())
            }
        }
        _ => Err("not a whole number of steps".to_string()),
    }
}

/// Reads the reply `line` to request `id` of a match of `seats` seats: the report
/// (`Ok(Ok)`), the game's refusal (`Ok(Err)`), or why the reply does not read.
pub fn read_reply(
    line: &str,
    id: u64,
    seats: usize,
    features: &[String],
) -> Result<Result<MatchReport, String>, String> {
    let v = reply_object(line, "its reply").map_err(|e| format!("{e}{STRAY}"))?;
    let shown = playtune_optim::eval::show_reply(line);
    match v.get("id") {
        Some(got) if got.as_u64() == Some(id) => {}
        Some(got) => {
            return Err(format!(
                "it replied {shown} with id {got} to the match with id {id}{STRAY}"
            ));
        }
        None => {
            return Err(format!(
                "its reply {shown} has no \"id\" (the match's was {id}){STRAY}"
            ));
        }
    }
    if let Some(e) = v.get("error") {
        let why = match e {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        // The game's own words, quoted in messages and failures.jsonl and printed.
        return Ok(Err(printable(&why)));
    }
    let numbers = |name: &str, x: &Value| -> Result<Vec<f64>, String> {
        let list = x
            .as_array()
            .ok_or_else(|| format!("\"{name}\" in {shown} is not a list of numbers"))?;
        if list.len() != seats {
            return Err(format!(
                "\"{name}\" in {shown} has {} values for a match of {seats} seats",
                list.len()
            ));
        }
        list.iter()
            .map(|n| {
                n.as_f64()
                    .filter(|f| f.is_finite())
                    .ok_or_else(|| format!("\"{name}\" in {shown} holds {n}, not a finite number"))
            })
            .collect()
    };
    let scores = numbers(
        "scores",
        v.get("scores")
            .ok_or_else(|| format!("its reply {shown} has no \"scores\""))?,
    )?;
    let winners_value = v.get("winners").ok_or_else(|| {
        format!("its reply {shown} has no \"winners\" (a list of seats; [] for none)")
    })?;
    let list = winners_value
        .as_array()
        .ok_or_else(|| format!("\"winners\" in {shown} is not a list of seats"))?;
    let mut winners = Vec::with_capacity(list.len());
    for w in list {
        let seat = w
            .as_u64()
            .filter(|&s| (s as usize) < seats)
            .ok_or_else(|| {
                format!("\"winners\" in {shown} names seat {w}, which a match of {seats} seats (0 to {}) does not have", seats - 1)
            })? as usize;
        if winners.contains(&seat) {
            return Err(format!("\"winners\" in {shown} names seat {seat} twice"));
        }
        winners.push(seat);
    }
    let length = match v.get("length") {
        None => {
            return Err(format!(
                "its reply {shown} has no \"length\" (steps played)"
            ));
        }
        Some(l) => steps(l).map_err(|why| format!("\"length\" in {shown} is {l}, {why}"))?,
    };
    let by_rules = match v.get("ended_by") {
        None => true,
        Some(Value::String(s)) if s == "rules" => true,
        Some(Value::String(s)) if s == "cap" => false,
        Some(other) => {
            return Err(format!(
                "\"ended_by\" in {shown} is {other}: give \"rules\" or \"cap\""
            ));
        }
    };
    let trace = match v.get("trace") {
        None | Some(Value::Null) => None,
        Some(t) => {
            let rows = t
                .as_array()
                .ok_or_else(|| format!("\"trace\" in {shown} is not a list of score lists"))?;
            // A row after each step, with or without the row at the start: any other
            // count is not this match's trace.
            let steps = length as usize;
            if rows.len() != steps && rows.len() != steps + 1 {
                return Err(format!(
                    "\"trace\" in {shown} has {} rows for a match of {steps} steps: give each seat's score after every step ({steps} rows, or {} with the start)",
                    rows.len(),
                    steps + 1
                ));
            }
            Some(
                rows.iter()
                    .map(|r| numbers("trace", r))
                    .collect::<Result<Vec<_>, _>>()?,
            )
        }
    };
    let mut figures = Vec::new();
    match v.get("features") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (name, values) in m {
                if !features.contains(name) {
                    return Err(format!(
                        "its reply {shown} reports the feature `{}`, which the description does not declare (it declares: {})",
                        printable(name),
                        if features.is_empty() {
                            "none".to_string()
                        } else {
                            features.join(", ")
                        }
                    ));
                }
                figures.push((name.clone(), numbers(name, values)?));
            }
        }
        Some(_) => {
            return Err(format!(
                "\"features\" in {shown} is not an object of per-seat lists"
            ));
        }
    }
    let frames = match v.get("frames") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|f| {
                f.as_str().map(printable_lines).ok_or_else(|| {
                    format!("\"frames\" in {shown} holds {f}, not a text: give each state and move as a string")
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(format!("\"frames\" in {shown} is not a list of texts")),
    };
    Ok(Ok(MatchReport {
        scores,
        winners,
        length,
        by_rules,
        trace,
        features: figures,
        frames,
    }))
}

/// A game's text as printed: its lines kept, a terminal's other controls dropped.
pub(crate) fn printable_lines(text: &str) -> String {
    text.lines().map(printable).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<Result<MatchReport, String>, String> {
        read_reply(line, 7, 2, &["captures".to_string()])
    }

    #[test]
    fn reads_a_full_reply() {
        let r = read(r#"{"id": 7, "scores": [3, 1], "winners": [0], "length": 4, "ended_by": "cap", "trace": [[0,0],[1,0],[1,1],[3,1]], "features": {"captures": [2, 0]}}"#)
            .unwrap()
            .unwrap();
        assert_eq!(r.scores, vec![3.0, 1.0]);
        assert_eq!(r.winners, vec![0]);
        assert_eq!(r.length, 4);
        assert!(!r.by_rules);
        assert_eq!(r.trace.unwrap().len(), 4);
        assert_eq!(r.features, vec![("captures".to_string(), vec![2.0, 0.0])]);
        let r = read(r#"{"id": 7, "scores": [1, 1], "winners": [], "length": 0}"#)
            .unwrap()
            .unwrap();
        assert!(r.by_rules && r.winners.is_empty() && r.trace.is_none());
        assert_eq!(
            read(r#"{"id": 7, "error": "no such rule"}"#)
                .unwrap()
                .unwrap_err(),
            "no such rule"
        );
    }

    #[test]
    fn refuses_what_does_not_fit_the_match() {
        for (line, says) in [
            (
                r#"{"id": 8, "scores": [1, 0], "winners": [0], "length": 3}"#,
                "with id 8",
            ),
            (
                r#"{"scores": [1, 0], "winners": [0], "length": 3}"#,
                "no \"id\"",
            ),
            (
                r#"{"id": 7, "scores": [1, 0, 0], "winners": [0], "length": 3}"#,
                "3 values for a match of 2 seats",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "winners": [2], "length": 3}"#,
                "names seat 2",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "winners": [0, 0], "length": 3}"#,
                "twice",
            ),
            (
                r#"{"id": 7, "scores": [1, "x"], "winners": [0], "length": 3}"#,
                "not a finite number",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "length": 3}"#,
                "no \"winners\"",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "winners": [0], "length": -3}"#,
                "not a whole number",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "winners": [0], "length": 3, "ended_by": "time"}"#,
                "\"rules\" or \"cap\"",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "winners": [0], "length": 3, "trace": [[1], [1], [1]]}"#,
                "1 values",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "winners": [0], "length": 100, "trace": [[0, 0], [1, 0]]}"#,
                "has 2 rows for a match of 100 steps",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "scores": [0, 1], "winners": [0], "length": 3}"#,
                "names the key \"scores\" twice",
            ),
            (
                r#"{"id": 7, "scores": [1, 0], "winners": [0], "length": 3, "features": {"kills": [1, 2]}}"#,
                "does not declare",
            ),
            ("garbage", "garbage"),
            ("[1, 2]", "JSON object"),
        ] {
            let e = read(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }

    /// Issue 65: a length is a JSON number of steps: `3.0` is 3 (JSON does not tell
    /// 3 from 3.0, and some languages write every number so); one too large is called
    /// so, with the limit; a fraction or a negative number is no number of steps.
    #[test]
    fn a_length_is_read_as_json_numbers_are() {
        let reply = |length: &str| {
            read(&format!(
                r#"{{"id": 7, "scores": [1, 0], "winners": [0], "length": {length}}}"#
            ))
        };
        assert_eq!(reply("3.0").unwrap().unwrap().length, 3);
        assert_eq!(reply("3e0").unwrap().unwrap().length, 3);
        assert_eq!(reply("4294967295").unwrap().unwrap().length, u32::MAX);
        for too_many in ["1e18", "4294967296", "18446744073709551616"] {
            let e = reply(too_many).unwrap_err();
            assert!(
                e.contains("more steps than a match may report (4294967295)"),
                "{too_many}: {e}"
            );
        }
        for odd in ["3.5", "-3", "-3.0", "\"3\"", "null"] {
            let e = reply(odd).unwrap_err();
            assert!(e.contains("not a whole number of steps"), "{odd}: {e}");
        }
    }

    /// Issue 65: what a game says when it refuses a match reaches messages and the
    /// terminal without its control characters (escape codes, a bell, a title).
    #[test]
    fn a_refusal_reason_loses_its_control_characters() {
        let why = read(r#"{"id": 7, "error": "\u001b]0;title\u0007\u001b[31mred\u009b2J\nnext"}"#)
            .unwrap()
            .unwrap_err();
        assert!(!why.chars().any(char::is_control), "{why:?}");
        assert!(why.contains("red") && why.contains("next"), "{why:?}");
        let e = read(r#"{"id": 7, "scores": [1, 0], "winners": [0], "length": 1, "features": {"\u001b[2J": [1, 2]}}"#)
            .unwrap_err();
        assert!(!e.chars().any(char::is_control), "{e:?}");
    }

    /// Issue 65: a line on the game's standard output that is not its reply fails the
    /// match, saying that standard output carries the replies alone.
    #[test]
    fn a_stray_line_says_what_standard_output_is_for() {
        for stray in [
            "pygame 2.5.2 (SDL 2.28.3, Python 3.11)",
            r#"{"id": 1, "scores": [0, 1], "winners": [1], "length": 99}"#,
            r#"{"banner": "hello"}"#,
        ] {
            let e = read(stray).unwrap_err();
            assert!(e.contains("standard output"), "{stray}: {e}");
        }
    }

    #[test]
    fn whole_numbers_go_out_as_whole_numbers() {
        assert_eq!(
            value_json(
                &Domain::Int {
                    min: 1,
                    max: 9,
                    step: 1
                },
                5.0
            )
            .to_string(),
            "5"
        );
        assert_eq!(
            value_json(&Domain::List(vec![0.0, 0.5]), 0.5).to_string(),
            "0.5"
        );
        assert_eq!(
            value_json(&Domain::List(vec![2.0, 4.0]), 4.0).to_string(),
            "4"
        );
        assert_eq!(value_json(&Domain::Bool, 1.0), Value::Bool(true));
        let cats = Domain::Categories(vec!["a".into(), "b".into()]);
        assert_eq!(value_json(&cats, 1.0), Value::String("b".into()));
    }
}
