//! Reading and validating space files (RON).
//!
//! ```ron
//! (
//!     name: "example",
//!     dims: [
//!         (name: "speed", kind: Int(min: 1, max: 10), default: 5),
//!         (name: "radius", kind: List([2, 4, 6, 8, 10]), default: 4),
//!         (name: "missile", kind: Categories(["normal", "twin", "bomb"]), default: "twin"),
//!         (name: "cell_0", kind: Bool, default: false),
//!         (name: "c", kind: Float(min: 0.0, max: 2.0, levels: 5)),
//!     ],
//!     groups: [(name: "layout", dims: ["cell_0"])],
//!     constraints: ["stalemate_rate <= 0.05", "mean_length in 60..200"],
//! )
//! ```
//! Every error names the file, the line and column, and the field at fault.

use super::{Dimension, Domain, Group, Space};
use serde::Deserialize;
use std::collections::HashSet;
use std::path::Path;

/// The columns a run's log (`evals.csv`) has besides the dimensions and features: no
/// dimension may take one of their names.
pub(super) const RESERVED: [&str; 6] = ["trial", "index", "phase", "seed", "fitness", "check"];

/// A problem with a space file, located at a line and column.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct SpaceError {
    /// The file, as its reader names it.
    pub file: String,
    /// The line at fault, from 1; 0 when the error is about the whole file.
    pub line: usize,
    /// The column at fault, from 1.
    pub column: usize,
    /// The field at fault, e.g. `dims[3].kind` or `dims[3] (speed).default`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SpaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Line 0: the error is about the file as a whole (it cannot be read).
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}: {}",
                self.file, self.line, self.column, self.field, self.message
            )
        }
    }
}

impl SpaceError {
    /// The error of a text a program wrote (a Python game's description): its lines
    /// are none the reader wrote, so it names the field alone.
    pub fn of_generated(self) -> SpaceError {
        SpaceError {
            line: 0,
            column: 0,
            message: format!("{}: {}", self.field, self.message),
            ..self
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpace {
    name: String,
    dims: Vec<RawDim>,
    #[serde(default)]
    groups: Vec<Group>,
    /// `["stalemate_rate <= 0.05", "mean_length in 60..200"]`.
    #[serde(default)]
    constraints: Vec<String>,
}

/// A dimension as a file writes it, `(name: "speed", kind: Int(min: 1, max: 10),
/// default: 5)`, inside another kind of file (a game description's settings, which
/// are its design space): read with [`embedded_space`].
#[derive(Deserialize)]
#[serde(transparent)]
pub struct DimText(RawDim);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDim {
    name: String,
    kind: RawKind,
    #[serde(default, deserialize_with = "present")]
    default: Option<ron::Value>,
}

/// `default: 5` rather than RON's `default: Some(5)`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<ron::Value>, D::Error> {
    ron::Value::deserialize(d).map(Some)
}

fn one() -> i64 {
    1
}

#[derive(Deserialize)]
enum RawKind {
    Int {
        min: i64,
        max: i64,
        #[serde(default = "one")]
        step: i64,
    },
    List(Vec<f64>),
    Categories(Vec<String>),
    Bool,
    Float {
        min: f64,
        max: f64,
        levels: u32,
    },
}

/// The largest space file read: a space of the most dimensions a run takes is far
/// smaller, and more is a mistake (a log, an image) that would be read into memory.
pub(crate) const MAX_SPACE_FILE: u64 = 16 << 20;

/// Reads and validates a space file.
pub fn load_space(path: &Path) -> Result<Space, SpaceError> {
    let text = read_space_text(path)?;
    parse_space(&text, &path.display().to_string())
}

/// The text of a space file, checked before it is read: a regular file (not a folder,
/// a pipe that could block forever or a device such as /dev/zero that never ends) of
/// at most 16 MiB, in UTF-8.
pub fn read_space_text(path: &Path) -> Result<String, SpaceError> {
    use std::io::Read;
    let file = path.display().to_string();
    let refuse = |message: String| SpaceError {
        file: file.clone(),
        line: 0,
        column: 0,
        field: "file".into(),
        message,
    };
    let check = |meta: &std::fs::Metadata| -> Result<(), SpaceError> {
        if meta.is_dir() {
            return Err(refuse("it is a folder, not a space file".into()));
        }
        if !meta.is_file() {
            return Err(refuse(
                "it is not a regular file (a pipe, a socket or a device): give a space file (RON)"
                    .into(),
            ));
        }
        if meta.len() > MAX_SPACE_FILE {
            return Err(refuse(format!(
                "it holds {} bytes, more than a space file's limit of {} MiB: is it the right file?",
                meta.len(),
                MAX_SPACE_FILE >> 20
            )));
        }
        Ok(())
    };
    let cannot = |e: std::io::Error| refuse(format!("cannot read the space file: {e}"));
    check(&std::fs::metadata(path).map_err(cannot)?)?;
    // Opened without blocking (a pipe put in its place meanwhile must not hang the
    // open), and checked again: the file read is the one checked.
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let f = options.open(path).map_err(cannot)?;
    check(&f.metadata().map_err(cannot)?)?;
    let mut bytes = Vec::new();
    f.take(MAX_SPACE_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_SPACE_FILE {
        return Err(refuse(format!(
            "it holds more than a space file's limit of {} MiB",
            MAX_SPACE_FILE >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        refuse(format!(
            "it is not UTF-8 text (byte {}): is it the right file?",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Parses and validates the text of a space file; `file` names it in errors.
pub fn parse_space(text: &str, file: &str) -> Result<Space, SpaceError> {
    // Editors on some systems start UTF-8 files with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let raw: RawSpace = ron::from_str(text).map_err(|e| ron_error(text, file, &e))?;
    Validator::new(text, file).space(raw)
}

/// A space from dimensions written in another kind of file (`text`, named `file` in
/// errors): the list is the field `list` (`settings`), its constraints the field
/// `constraints_field`. Checked as a space file is, errors located in `text`.
pub fn embedded_space(
    text: &str,
    file: &str,
    name: &str,
    list: &str,
    dims: Vec<DimText>,
    constraints_field: &str,
    constraints: Vec<String>,
) -> Result<Space, SpaceError> {
    Validator {
        text,
        file,
        list,
        constraints_field,
    }
    .space(RawSpace {
        name: name.to_string(),
        dims: dims.into_iter().map(|d| d.0).collect(),
        groups: Vec::new(),
        constraints,
    })
}

/// A RON error in `text` (the file `file`), located at its line, column and field.
pub fn ron_error(text: &str, file: &str, e: &ron::error::SpannedError) -> SpaceError {
    let message = readable(&e.code.to_string());
    // A missing, unknown or repeated field is the field the error is about, not the
    // last one read before it.
    let named = message
        .split_once("field named `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(name, _)| name.to_string());
    SpaceError {
        file: file.into(),
        line: e.span.start.line,
        column: e.span.start.col,
        field: named.unwrap_or_else(|| field_at(text, e.span.start.line, e.span.start.col)),
        message,
    }
}

/// A RON message in the words of the file's format: the reader's own type names
/// (`RawDim`) say nothing to the person who wrote the file.
pub(super) fn readable(message: &str) -> String {
    const NAMES: [(&str, &str); 6] = [
        ("in enum `RawKind`", "for a dimension's kind"),
        ("`RawSpace`", "the space"),
        ("`RawDim`", "a dimension"),
        ("`RawKind`", "a dimension's kind"),
        ("`RawDescription`", "the game description"),
        ("`RawBot`", "a bot"),
    ];
    NAMES
        .iter()
        .fold(message.to_string(), |out, (from, to)| out.replace(from, to))
}

/// Writes a space in the file format (what [`parse_space`] reads back unchanged).
pub fn to_space_file(space: &Space) -> String {
    let mut out = format!("(\n    name: {:?},\n    dims: [\n", space.name);
    for d in &space.dims {
        let kind = match &d.domain {
            Domain::Int { min, max, step } => format!("Int(min: {min}, max: {max}, step: {step})"),
            Domain::List(v) => format!(
                "List([{}])",
                v.iter()
                    .map(|x| format!("{x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Domain::Categories(n) => format!(
                "Categories([{}])",
                n.iter()
                    .map(|x| format!("{x:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Domain::Bool => "Bool".into(),
            Domain::Float { min, max, levels } => {
                format!("Float(min: {min:?}, max: {max:?}, levels: {levels})")
            }
        };
        let default = match &d.domain {
            Domain::Categories(n) => format!("{:?}", n[d.default]),
            Domain::Bool => (d.default == 1).to_string(),
            Domain::Float { .. } => format!("{:?}", d.domain.value(d.default)),
            dom => format!("{}", dom.value(d.default)),
        };
        out += &format!(
            "        (name: {:?}, kind: {kind}, default: {default}),\n",
            d.name
        );
    }
    out += "    ],\n";
    if !space.groups.is_empty() {
        out += "    groups: [\n";
        for g in &space.groups {
            let dims: Vec<String> = g.dims.iter().map(|n| format!("{n:?}")).collect();
            out += &format!(
                "        (name: {:?}, dims: [{}]),\n",
                g.name,
                dims.join(", ")
            );
        }
        out += "    ],\n";
    }
    if !space.constraints.is_empty() {
        let all: Vec<String> = space
            .constraints
            .iter()
            .map(|c| format!("{:?}", c.to_string()))
            .collect();
        out += &format!("    constraints: [{}],\n", all.join(", "));
    }
    out + ")\n"
}

/// An error about constraint `i` (its text `text`) of an already parsed space file,
/// at its line, as `constraints[i]` (for checks that need the problem, such as whether
/// it reports the feature).
pub fn constraint_error(
    text: &str,
    file: &str,
    i: usize,
    constraint: &str,
    message: String,
) -> SpaceError {
    Validator::new(text, file).constraint_error(i, constraint, message)
}

/// An error about field `key` of dimension `dim` of an already parsed space file (for
/// checks that need more than the file, such as whether a problem knows the name).
pub fn dim_error(text: &str, file: &str, dim: &str, key: &str, message: String) -> SpaceError {
    let v = Validator::new(text, file);
    v.dim_error(v.dim_offset(dim, 0), dim, key, message)
}

/// Best effort at naming the field an error position falls in: the last `key:`
/// before the position, with the dimension's name when inside one.
fn field_at(text: &str, line: usize, col: usize) -> String {
    let offset = offset_of(text, line, col).min(text.len());
    let before = &text[..offset];
    let key = last_key(before).unwrap_or_else(|| "space".into());
    match before.rfind("name:") {
        Some(p) if key != "name" && before[..p].contains("dims") => {
            let dim = before[p + 5..].trim_start().trim_start_matches('"');
            let dim: String = dim.chars().take_while(|c| *c != '"').collect();
            format!("dimension `{dim}`.{key}")
        }
        _ => key,
    }
}

fn last_key(before: &str) -> Option<String> {
    let bytes = before.as_bytes();
    let mut i = before.len();
    while i > 0 {
        i -= 1;
        if bytes[i] == b':' {
            let head = before[..i].trim_end();
            let key: String = head
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if !key.is_empty() && !head[..head.len() - key.len()].ends_with('"') {
                return Some(key);
            }
        }
    }
    None
}

fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return offset
                + l.char_indices()
                    .nth(col.saturating_sub(1))
                    .map(|(b, _)| b)
                    .unwrap_or(l.len());
        }
        offset += l.len();
    }
    offset
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

struct Validator<'a> {
    text: &'a str,
    file: &'a str,
    /// The field holding the dimensions (`dims` in a space file).
    list: &'a str,
    /// The field holding the constraints (`constraints` in a space file).
    constraints_field: &'a str,
}

impl<'a> Validator<'a> {
    fn new(text: &'a str, file: &'a str) -> Validator<'a> {
        Validator {
            text,
            file,
            list: "dims",
            constraints_field: "constraints",
        }
    }

    /// Constraint `i` (its text `constraint`) refused, located at its string.
    fn constraint_error(&self, i: usize, constraint: &str, message: String) -> SpaceError {
        let at = self.text.find(self.constraints_field).unwrap_or(0);
        let at = self.text[at..]
            .find(&format!("{constraint:?}"))
            .map(|p| at + p)
            .unwrap_or(at);
        self.error_at(at, format!("{}[{i}]", self.constraints_field), message)
    }

    /// Where dimension `index` (named `name`) starts in the text: the `occurrence`-th
    /// appearance of its quoted name after `dims`, so duplicates point at the second one.
    fn dim_offset(&self, name: &str, occurrence: usize) -> usize {
        let start = self.text.find(self.list).unwrap_or(0);
        // Quoted and escaped as RON writes it, so that a name holding a newline or a
        // quote is still found.
        let needle = format!("{name:?}");
        self.text[start..]
            .match_indices(&needle)
            .nth(occurrence)
            .map(|(p, _)| start + p)
            .unwrap_or(start)
    }

    fn error_at(&self, offset: usize, field: String, message: String) -> SpaceError {
        let (line, column) = line_col(self.text, offset);
        SpaceError {
            file: self.file.into(),
            line,
            column,
            field,
            message,
        }
    }

    /// An error about `key` of the dimension starting at `dim_at`.
    fn dim_error(&self, dim_at: usize, dim: &str, key: &str, message: String) -> SpaceError {
        let rest = &self.text[dim_at..];
        let end = rest[1..].find("name").map(|e| e + 1).unwrap_or(rest.len());
        let at = rest[..end]
            .find(&format!("{key}:"))
            .or_else(|| rest[..end].find(key))
            .map(|p| dim_at + p)
            .unwrap_or(dim_at);
        self.error_at(at, format!("dimension `{dim}`.{key}"), message)
    }

    fn space(&self, raw: RawSpace) -> Result<Space, SpaceError> {
        if raw.dims.is_empty() {
            let at = self.text.find(self.list).unwrap_or(0);
            return Err(self.error_at(
                at,
                self.list.into(),
                if self.list == "dims" {
                    "the space has no dimensions".into()
                } else {
                    format!("{} is empty: declare at least one", self.list)
                },
            ));
        }
        if let Err(m) = super::check_name("space", &raw.name) {
            let at = self.text.find("name").unwrap_or(0);
            return Err(self.error_at(at, "name".into(), m.to_string()));
        }
        // Names seen so far, for duplicates. A dimension's place in the text is looked
        // up only for an error: a search per dimension would make validation quadratic.
        let mut seen: HashSet<String> = HashSet::with_capacity(raw.dims.len());
        let mut dims = Vec::with_capacity(raw.dims.len());
        for d in raw.dims {
            if let Err(m) = super::check_name("dimension", &d.name) {
                let at = self.dim_offset(&d.name, 0);
                return Err(self.dim_error(at, &d.name, "name", m.to_string()));
            }
            // A run logs every dimension as a column of `evals.csv` beside its own.
            if RESERVED.contains(&d.name.as_str()) {
                let at = self.dim_offset(&d.name, 0);
                return Err(self.dim_error(
                    at,
                    &d.name,
                    "name",
                    format!(
                        "`{}` is a column of every run's log ({}): give the dimension another name",
                        d.name,
                        RESERVED.join(", ")
                    ),
                ));
            }
            if seen.contains(&d.name) {
                let at = self.dim_offset(&d.name, 1);
                let (first_line, _) = line_col(self.text, self.dim_offset(&d.name, 0));
                return Err(self.dim_error(
                    at,
                    &d.name,
                    "name",
                    format!(
                        "duplicate dimension name `{}` (first defined on line {first_line})",
                        d.name
                    ),
                ));
            }
            seen.insert(d.name.clone());
            dims.push(self.dim(d)?);
        }
        let mut constraints = Vec::with_capacity(raw.constraints.len());
        for (i, text) in raw.constraints.iter().enumerate() {
            let c = text
                .parse()
                .map_err(|m: super::Error| self.constraint_error(i, text, m.to_string()))?;
            constraints.push(c);
        }
        let space = Space {
            name: raw.name,
            dims,
            groups: raw.groups,
            constraints,
        };
        self.groups(&space)?;
        Ok(space)
    }

    fn dim(&self, d: RawDim) -> Result<Dimension, SpaceError> {
        let domain = match d.kind {
            RawKind::Int { min, max, step } => Domain::Int { min, max, step },
            RawKind::List(values) => Domain::List(values),
            RawKind::Categories(names) => Domain::Categories(names),
            RawKind::Bool => Domain::Bool,
            RawKind::Float { min, max, levels } => Domain::Float { min, max, levels },
        };
        // The same checks as for a run's config.ron, located here in the file.
        domain.check().map_err(|m| {
            self.dim_error(self.dim_offset(&d.name, 0), &d.name, "kind", m.to_string())
        })?;
        let default = match &d.default {
            None => 0,
            Some(v) => default_index(&domain, v).ok_or_else(|| {
                self.dim_error(
                    self.dim_offset(&d.name, 0),
                    &d.name,
                    "default",
                    format!(
                        "default {} is outside the domain ({})",
                        show(v),
                        domain.describe()
                    ),
                )
            })?,
        };
        Ok(Dimension {
            name: d.name,
            domain,
            default,
            fixed: false,
        })
    }

    fn groups(&self, space: &Space) -> Result<(), SpaceError> {
        space.check_groups().map_err(|(gi, message)| {
            let g = &space.groups[gi];
            let at = self.text.find("groups").unwrap_or(0);
            let at = self.text[at..]
                .find(&format!("{:?}", g.name))
                .map(|p| at + p)
                .unwrap_or(at);
            self.error_at(at, format!("groups[{gi}] (`{}`).dims", g.name), message)
        })
    }
}

fn show(v: &ron::Value) -> String {
    ron::to_string(v).unwrap_or_else(|_| format!("{v:?}"))
}

fn default_index(domain: &Domain, v: &ron::Value) -> Option<usize> {
    match v {
        ron::Value::Bool(b) => matches!(domain, Domain::Bool).then_some(*b as usize),
        ron::Value::String(s) => domain.parse_value(s),
        ron::Value::Number(n) => {
            let x = n.into_f64();
            match domain {
                Domain::Categories(_) | Domain::Bool => None,
                _ => domain.index_of(x),
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
