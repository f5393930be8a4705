//! A reply of the forward-model operations as games usually write it, read straight
//! into its fields: no tree of JSON values, no hashed maps, no copied keys. A search
//! over the protocol reads one of these a request, and reading them through
//! `serde_json::Value` was most of playtune's share of a decision.
//!
//! This is only the fast way in. A reply it does not take whole (any field it does not
//! know, an `error`, a `null` where a value belongs, a number out of place, a seat
//! beyond the game's, a feature the game does not declare) is read again by the general
//! reader in `process.rs`, which accepts exactly what it accepted before and says why it
//! refuses the rest. So what this reader accepts, the general one accepts too, with the
//! same meaning: `wire::tests` holds them to that.

use super::Node;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// One reply, or one of an `expand` reply's items, or an item's `playout`: every field
/// the operations define, each at most once, no other.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire<'a> {
    #[serde(default, deserialize_with = "present")]
    id: Option<u64>,
    #[serde(default, deserialize_with = "present")]
    state: Option<u64>,
    #[serde(default, deserialize_with = "present")]
    player: Option<Player>,
    #[serde(default, deserialize_with = "present")]
    legal: Option<Vec<i64>>,
    #[serde(default, deserialize_with = "present")]
    returns: Option<Vec<f64>>,
    #[serde(default, deserialize_with = "present")]
    outcomes: Option<Vec<(i64, f64)>>,
    #[serde(default, deserialize_with = "present")]
    steps: Option<u32>,
    /// `null` is no heuristic, as the general reader has it.
    #[serde(default)]
    heuristic: Option<Vec<f64>>,
    /// `null` is no features.
    #[serde(default)]
    features: Option<Features>,
    /// `null` is no text.
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "present")]
    items: Option<Vec<Wire<'a>>>,
    /// `null` is no playout.
    #[serde(default, borrow)]
    playout: Option<Box<Wire<'a>>>,
}

/// A field that, when given, holds a value: `null` is not read as its absence (the
/// general reader refuses it, and says so).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// `player`: a seat, `"over"` or `"chance"`.
enum Player {
    Seat(u64),
    Over,
    Chance,
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
        struct Visit;
        impl Visitor<'_> for Visit {
            type Value = Player;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a seat, \"over\" or \"chance\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Player, E> {
                Ok(Player::Seat(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Player, E> {
                match v {
                    "over" => Ok(Player::Over),
                    "chance" => Ok(Player::Chance),
                    _ => Err(E::custom("not a player")),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

/// `features`: each name once, in the order given.
struct Features(Vec<(String, Vec<f64>)>);

impl<'de> Deserialize<'de> for Features {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Features, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = Features;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of per-seat lists")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Features, A::Error> {
                let mut out: Vec<(String, Vec<f64>)> = Vec::new();
                while let Some(name) = a.next_key::<String>()? {
                    if out.iter().any(|(n, _)| *n == name) {
                        return Err(de::Error::custom("a repeated feature"));
                    }
                    out.push((name, a.next_value()?));
                }
                Ok(Features(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// What one reply says, as the general reader gives it.
#[derive(Debug, PartialEq)]
pub(super) struct Read {
    pub(super) state: Option<u64>,
    pub(super) node: Option<Node>,
    pub(super) steps: Option<u32>,
    pub(super) heuristic: Option<Vec<f64>>,
    pub(super) features: Vec<(String, Vec<f64>)>,
    pub(super) text: Option<String>,
    /// An `expand` reply's items, each with its playout's end.
    pub(super) items: Vec<(Read, Option<Read>)>,
}

/// `line` read the fast way, as the reply to request `id` of a game of `players` seats
/// that declares the features `declared`: `None` where the general reader must read it.
pub(super) fn read(line: &str, id: u64, players: usize, declared: &[String]) -> Option<Read> {
    let wire: Wire<'_> = serde_json::from_str(line).ok()?;
    if wire.id != Some(id) || wire.playout.is_some() {
        return None;
    }
    let mut read = fields(&wire, players, declared)?;
    if let Some(items) = &wire.items {
        read.items = items
            .iter()
            .map(|item| {
                // An item carries no items and no id of its own; its playout none either.
                if item.id.is_some() || item.items.is_some() {
                    return None;
                }
                let playout = match &item.playout {
                    None => None,
                    Some(p) if p.id.is_some() || p.items.is_some() || p.playout.is_some() => {
                        return None;
                    }
                    Some(p) => Some(fields(p, players, declared)?),
                };
                Some((fields(item, players, declared)?, playout))
            })
            .collect::<Option<Vec<_>>>()?;
    }
    Some(read)
}

/// One object's fields, checked as the general reader checks them.
fn fields(w: &Wire<'_>, players: usize, declared: &[String]) -> Option<Read> {
    let node = match &w.player {
        None => None,
        Some(Player::Over) => Some(Node::Over(finite(w.returns.clone()?)?)),
        Some(Player::Chance) => {
            let outcomes = w.outcomes.clone()?;
            if outcomes.iter().any(|(_, p)| !p.is_finite() || *p < 0.0) {
                return None;
            }
            Some(Node::Chance(outcomes))
        }
        Some(Player::Seat(s)) => Some(Node::Player {
            player: usize::try_from(*s).ok()?,
            legal: w.legal.clone()?,
        }),
    };
    let node = match node {
        None => None,
        Some(n) => Some(n.checked(players).ok()?),
    };
    let heuristic = match &w.heuristic {
        None => None,
        Some(h) if h.len() == players => Some(finite(h.clone())?),
        Some(_) => return None,
    };
    let features = match &w.features {
        None => Vec::new(),
        Some(Features(f)) => super::declared(f.clone(), declared, players).ok()?,
    };
    Some(Read {
        state: w.state,
        node,
        steps: w.steps,
        heuristic,
        features,
        text: w.text.as_ref().map(|t| t.to_string()),
        items: Vec::new(),
    })
}

fn finite(values: Vec<f64>) -> Option<Vec<f64>> {
    values.iter().all(|v| v.is_finite()).then_some(values)
}

/// A seed as the operations send it: below 2^53, so that every language reads it
/// exactly from JSON's numbers (a JavaScript number is a double).
pub(super) fn seed(seed: u64) -> u64 {
    seed & ((1 << 53) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every reply here is read by both readers; where the fast one reads it, the
    /// general one reads the same.
    #[test]
    fn the_fast_reader_reads_what_the_general_one_reads_and_nothing_else() {
        let declared = vec!["corners".to_string()];
        // Read the fast way.
        let fast = [
            r#"{"id":7,"state":3,"player":1,"legal":[0,4,8]}"#,
            r#"{"id":7,"state":3,"player":"over","returns":[1,-1]}"#,
            r#"{"id":7,"state":3,"player":"over","returns":[1,-1],"features":{"corners":[2,1]}}"#,
            r#"{"id":7,"state":3,"player":"chance","outcomes":[[1,0.5],[2,0.5]]}"#,
            r#"{"id":7,"state":3,"player":0,"legal":[1],"heuristic":[0.5,-0.5],"steps":4}"#,
            r#"{"id":7,"text":"X . .\n. O ."}"#,
            r#"{"id":7,"heuristic":null,"features":null,"text":null}"#,
            r#"{"id":7,"items":[{"state":12,"player":1,"legal":[2,5],"playout":{"player":"over","returns":[0,0],"steps":3}},{"state":13,"player":"over","returns":[-1,1]}]}"#,
            r#"{"id":7}"#,
        ];
        // Left to the general reader, which reads or refuses them as before.
        let general = [
            r#"{"id":8,"state":3,"player":1,"legal":[0]}"#,
            r#"{"id":7,"error":"no"}"#,
            r#"{"id":7,"state":3,"player":1,"legal":[0],"note":"x"}"#,
            r#"{"id":7,"state":null,"player":1,"legal":[0]}"#,
            r#"{"id":7,"state":3,"player":2,"legal":[0]}"#,
            r#"{"id":7,"state":3,"player":"both","legal":[0]}"#,
            r#"{"id":7,"state":3,"player":1}"#,
            r#"{"id":7,"state":3,"player":1,"legal":[0.5]}"#,
            r#"{"id":7,"state":3,"player":"over","returns":[1]}"#,
            r#"{"id":7,"state":3,"player":"over","returns":[1e999,0]}"#,
            r#"{"id":7,"state":3,"player":"chance","outcomes":[[1,-0.5],[2,1.5]]}"#,
            r#"{"id":7,"state":3,"player":1,"legal":[0],"heuristic":[1]}"#,
            r#"{"id":7,"state":3,"player":"over","returns":[0,0],"features":{"edges":[1,1]}}"#,
            r#"{"id":7,"state":3,"player":1,"player":0,"legal":[0]}"#,
            r#"{"id":7,"items":[{"state":1,"player":1,"legal":[0],"items":[]}]}"#,
            r#"{"id":7,"playout":{"player":"over","returns":[0,0],"steps":1}}"#,
            r#"{"id":7,"state":3,"steps":-1}"#,
            r#"[1,2]"#,
            r#"{"id":7,"#,
        ];
        let cases = fast
            .iter()
            .map(|l| (*l, true))
            .chain(general.iter().map(|l| (*l, false)));
        for (line, fast) in cases {
            let got = read(line, 7, 2, &declared);
            assert_eq!(got.is_some(), fast, "{line}");
            let general =
                super::super::process::read_generally(line, 7, 2, &declared).and_then(|r| r);
            if let Some(got) = got {
                assert_eq!(Ok(got), general, "{line}");
            }
        }
    }

    /// Each field the operations define, with values that fit and values that do not.
    const FIELDS: &[(&str, &[&str])] = &[
        ("id", &["7", "8"]),
        ("state", &["3", "null", "-1", "2.5"]),
        (
            "player",
            &["0", "1", "2", r#""over""#, r#""chance""#, r#""x""#, "null"],
        ),
        ("legal", &["[0,4]", "[]", "[0.5]", "null"]),
        ("returns", &["[1,-1]", "[1]", "[0,0]", "null", "[1e999,0]"]),
        (
            "outcomes",
            &["[[1,0.5],[2,0.5]]", "[[1,-1]]", "[]", "[[1,0.5,2]]"],
        ),
        ("steps", &["3", "-1", "null", "4294967296"]),
        ("heuristic", &["[0.5,0.5]", "[1]", "null"]),
        (
            "features",
            &[
                r#"{"corners":[1,2]}"#,
                r#"{"edges":[1,1]}"#,
                "null",
                r#"{"corners":[1]}"#,
                r#"{"corners":[1,1],"corners":[2,2]}"#,
            ],
        ),
        ("text", &[r#""a\nb""#, "null", "3"]),
        (
            "items",
            &[
                "[]",
                r#"[{"state":1,"player":1,"legal":[0],"playout":{"player":"over","returns":[0,0],"steps":1}}]"#,
                r#"[{"state":1,"player":"over","returns":[1,-1]}]"#,
                r#"[{"state":1,"player":1,"legal":[0],"playout":null}]"#,
                r#"[{"id":3}]"#,
                "null",
            ],
        ),
        (
            "playout",
            &[r#"{"player":"over","returns":[0,0],"steps":1}"#, "null"],
        ),
        ("error", &[r#""no""#]),
        ("note", &["1"]),
    ];

    /// Replies as a game would write them, each field once.
    const BASES: &[&[(&str, &str)]] = &[
        &[("state", "3"), ("player", "1"), ("legal", "[0,4]")],
        &[
            ("state", "3"),
            ("player", r#""over""#),
            ("returns", "[1,-1]"),
            ("features", r#"{"corners":[1,2]}"#),
        ],
        &[
            ("state", "3"),
            ("player", r#""chance""#),
            ("outcomes", "[[1,0.5],[2,0.5]]"),
        ],
        &[
            ("state", "3"),
            ("player", "0"),
            ("legal", "[1]"),
            ("steps", "2"),
            ("heuristic", "[0.5,0.5]"),
        ],
        &[(
            "items",
            r#"[{"state":1,"player":1,"legal":[0],"playout":{"player":"over","returns":[0,0],"steps":1}}]"#,
        )],
        &[("text", r#""x""#)],
    ];

    proptest::proptest! {
        /// A game's reply with up to three edits, each a field's value replaced (by
        /// one that fits or one that does not) or a field added, perhaps a second
        /// time: what the fast reader reads, the general one reads the same.
        #[test]
        fn any_reply_the_fast_reader_reads_the_general_one_reads_the_same(
            base in 0..BASES.len(),
            edits in proptest::collection::vec((0..FIELDS.len(), 0..8usize, proptest::bool::ANY), 0..4)
        ) {
            let mut fields: Vec<(&str, &str)> = BASES[base].to_vec();
            for (f, v, again) in edits {
                let (name, values) = FIELDS[f];
                let value = values[v % values.len()];
                match fields.iter_mut().find(|(n, _)| *n == name) {
                    Some(field) if !again => field.1 = value,
                    _ => fields.push((name, value)),
                }
            }
            let mut line = String::from(r#"{"id":7"#);
            for (name, value) in fields {
                line.push_str(&format!(r#","{name}":{value}"#));
            }
            line.push('}');
            let declared = vec!["corners".to_string()];
            if let Some(got) = read(&line, 7, 2, &declared) {
                let general =
                    super::super::process::read_generally(&line, 7, 2, &declared).and_then(|r| r);
                proptest::prop_assert_eq!(Ok(got), general, "{}", line);
            }
        }
    }

    #[test]
    fn a_seed_goes_out_below_2_to_the_53() {
        assert_eq!(seed(u64::MAX), (1 << 53) - 1);
        assert_eq!(seed(12345), 12345);
        assert!((seed(0xdead_beef_cafe_f00d) as f64) as u64 == seed(0xdead_beef_cafe_f00d));
    }
}
