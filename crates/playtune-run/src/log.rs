//! The evaluation log: one CSV row per evaluation, appended as batches finish and
//! flushed after each, so an interrupted run keeps every evaluation it did.
//!
//! Columns: `trial,index,phase,seed,<one per dimension>,fitness,<one per feature>,check`.
//! Values are written as a person reads them (category names, true/false) and floats
//! in their shortest round-trip form, so reading a row back gives the exact point.
//!
//! `check` is a 64-bit FNV-1a hash of the row's text before it, in hex: a row that an
//! edit, a disk or a copy changed into other valid numbers fails its check and is
//! evaluated again rather than reused. Logs written before the column existed (the
//! published runs) are read as they are, trusted, and kept in their format.

use super::RunError;
use playtune_optim::eval::Evaluation;
use playtune_optim::optim::Phase;
use playtune_optim::space::{Domain, Space};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// One logged evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRow {
    /// The evaluation's trial.
    pub trial: u64,
    /// Its index in the trial.
    pub index: u64,
    /// What the optimiser asked it for.
    pub phase: Phase,
    /// The seed it was evaluated with.
    pub seed: u64,
    /// The point, in the space's order.
    pub values: Vec<f64>,
    /// What it gave.
    pub eval: Evaluation,
}

/// The last column of a checked log.
const CHECK: &str = "check";

/// FNV-1a, 64 bits: a few instructions a byte, no dependency, and any change of a
/// digit changes it.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The header of a log; `checked` adds the `check` column (every new log has it).
pub(crate) fn header_of(space: &Space, features: &[String], checked: bool) -> String {
    let mut h = header(space, features);
    if checked {
        h.push(',');
        h.push_str(CHECK);
    }
    h
}

/// The features a log's header `head` names for a run over `space`: the columns after
/// `fitness`, less the `check` column where the log has one. Read by position and
/// confirmed by writing the header back, so any feature name (`check`, one holding a
/// comma or a quote) reads as it was written. `None`: not a header of this space.
pub fn features_in_header(head: &str, space: &Space) -> Option<Vec<String>> {
    let fields = csv_fields(head);
    let first = 4 + space.len() + 1;
    if fields.len() < first {
        return None;
    }
    let all = fields[first..].to_vec();
    if all.last().is_some_and(|c| c == CHECK) {
        let features = all[..all.len() - 1].to_vec();
        if header_of(space, &features, true) == head {
            return Some(features);
        }
    }
    (header(space, &all) == head).then_some(all)
}

/// A CSV line's fields, quotes as [`header`] writes them (`"a,b"`, `""` for a quote).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// The header of a log without the `check` column (the legacy format).
pub fn header(space: &Space, features: &[String]) -> String {
    let mut cols: Vec<String> = ["trial", "index", "phase", "seed"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    cols.extend(space.names().map(String::from));
    cols.push("fitness".into());
    cols.extend(features.iter().cloned());
    cols.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",")
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn format_row(space: &Space, row: &LogRow, out: &mut String, checked: bool) {
    use std::fmt::Write;
    let start = out.len();
    let _ = write!(
        out,
        "{},{},{},{}",
        row.trial,
        row.index,
        row.phase.as_str(),
        row.seed
    );
    for (d, &v) in space.dims.iter().zip(&row.values) {
        out.push(',');
        match d.domain {
            // Numbers need no quoting and no intermediate string: this loop writes
            // every value of every evaluation.
            Domain::Categories(_) | Domain::Bool => out.push_str(&quote(&d.domain.render(v))),
            _ => {
                let _ = write!(out, "{v}");
            }
        }
    }
    let _ = write!(out, ",{}", row.eval.fitness);
    for f in &row.eval.features {
        let _ = write!(out, ",{f}");
    }
    if checked {
        let check = fnv1a(&out[start..]);
        let _ = write!(out, ",{check:016x}");
    }
    out.push('\n');
}

/// Appends rows to a run's log.
pub struct LogWriter {
    file: BufWriter<File>,
    /// Named in errors.
    path: PathBuf,
    line: String,
    /// Whether rows get the `check` column: always, but in a legacy log.
    checked: bool,
}

impl LogWriter {
    /// Opens the log for appending, writing the header to a new file, and cutting a
    /// final line that an interruption left half written. The log must be a plain file
    /// of the run folder: a link is refused, never followed (see [`super::files`]).
    pub fn open(path: &Path, space: &Space, features: &[String]) -> std::io::Result<LogWriter> {
        let bytes = super::files::read(path)?.unwrap_or_default();
        let exists = !bytes.is_empty();
        let mut checked = true;
        if exists {
            let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
            checked = first != header(space, features).as_bytes();
            super::files::cut_torn(path, &bytes)?;
        }
        let file = super::files::open_append(path)?;
        let empty = file.metadata()?.len() == 0;
        let mut file = BufWriter::new(file);
        if empty {
            checked = true;
            writeln!(file, "{}", header_of(space, features, true))?;
            // Flushed at once, not with the first rows: a run killed before its first
            // evaluation finishes must leave a log that `resume` accepts.
            file.flush()?;
        }
        Ok(LogWriter {
            file,
            path: path.to_path_buf(),
            line: String::new(),
            checked,
        })
    }

    /// Appends `rows`; an error names the log (a full disk must say which file).
    pub fn append(&mut self, space: &Space, rows: &[LogRow]) -> std::io::Result<()> {
        let written = (|| {
            for r in rows {
                self.line.clear();
                format_row(space, r, &mut self.line, self.checked);
                self.file.write_all(self.line.as_bytes())?;
            }
            self.file.flush()
        })();
        written.map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("cannot write {}: {e}", self.path.display()),
            )
        })
    }
}

/// Splits a CSV line, honouring double quotes.
fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// A log read back: its rows (with their line numbers) and what was left out.
#[derive(Debug, Default)]
pub struct LogContents {
    /// Rows in file order, each with its line number (the header is line 1).
    pub rows: Vec<(usize, LogRow)>,
    /// Rows left out, with their line number and why: a failed check, a row that does
    /// not parse or holds a value outside the space, a half-written last line, or an
    /// earlier, different copy of a row logged again.
    pub dropped: Vec<(usize, String)>,
    /// Whether the log has the `check` column (false: a legacy log).
    pub checked: bool,
}

impl LogContents {
    /// A message naming the rows left out, or None when none was.
    pub(crate) fn repair_message(&self, path: &Path) -> Option<String> {
        if self.dropped.is_empty() {
            return None;
        }
        let lines: Vec<String> = self
            .dropped
            .iter()
            .take(20)
            .map(|(line, why)| format!("line {line}: {why}"))
            .collect();
        let more = if self.dropped.len() > 20 { "; ..." } else { "" };
        Some(format!(
            "{}: left out {} damaged or superseded row(s), evaluated again instead ({}{more})",
            path.display(),
            self.dropped.len(),
            lines.join("; ")
        ))
    }
}

/// Reads a log back, never misreading it: the header must be exactly the run's, and a
/// row is used only if it parses into a point of the space with finite results and,
/// in a checked log, its check matches. Other rows are left out and named in
/// [`LogContents::dropped`]. Of two copies of one (trial, index), the later is kept:
/// a resumed run appends the rows it evaluated again.
pub fn read_log(path: &Path, space: &Space, features: &[String]) -> Result<LogContents, RunError> {
    let text = super::files::read_plain(path)
        .map_err(|e| RunError::Io(format!("{}: {e}", path.display())))?;
    let text = String::from_utf8_lossy(&text);
    read_log_text(&text, space, features)
        .map_err(|(line, m)| RunError::Io(format!("{}:{line}: {m}", path.display())))
}

/// [`read_log`] on the text of a log; an error names its line.
pub fn read_log_text(
    text: &str,
    space: &Space,
    features: &[String],
) -> Result<LogContents, (usize, String)> {
    let mut out = LogContents::default();
    // An empty log, or a header cut short by a kill, holds no evaluations: the writer
    // rewrites the header when it opens the log.
    let Some((head, body)) = text.split_once('\n') else {
        return Ok(out);
    };
    let head = head.trim_end_matches('\r');
    out.checked = if head == header_of(space, features, true) {
        true
    } else if head == header(space, features) {
        false
    } else {
        return Err((
            1,
            format!(
                "the header does not match the run's space and features; expected `{}`",
                header_of(space, features, true)
            ),
        ));
    };
    let mut latest: HashMap<(u64, u64), usize> = HashMap::new();
    let mut lines = body.split('\n').peekable();
    let mut number = 1;
    while let Some(line) = lines.next() {
        number += 1;
        let last = lines.peek().is_none();
        if last && line.is_empty() {
            break;
        }
        let row = if last {
            Err(BadRow::HalfWritten)
        } else {
            parse_checked(
                line.trim_end_matches('\r'),
                space,
                features.len(),
                out.checked,
            )
        };
        match row {
            Err(why) => out.dropped.push((number, why.to_string())),
            Ok(row) => {
                let key = (row.trial, row.index);
                if let Some(&earlier) = latest.get(&key) {
                    let (at, old) = &out.rows[earlier];
                    if *old != row {
                        out.dropped
                            .push((*at, format!("superseded by line {number}, a later copy")));
                    }
                }
                latest.insert(key, out.rows.len());
                out.rows.push((number, row));
            }
        }
    }
    // Keep only the latest copy of each row, in file order.
    let keep: std::collections::HashSet<usize> = latest.into_values().collect();
    let mut i = 0;
    out.rows.retain(|_| {
        i += 1;
        keep.contains(&(i - 1))
    });
    out.dropped.sort_by_key(|d| d.0);
    Ok(out)
}

/// Why a row of the log is damaged (the reader names the row and drops it).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
enum BadRow {
    #[error("half written (no end of line)")]
    HalfWritten,
    #[error("no check column")]
    NoCheck,
    #[error("its check does not match: the row was changed")]
    Changed,
    #[error("does not parse into a point of the run's space with finite results")]
    Unreadable,
    #[error(
        "a result of {0:e}, beyond ±{max:e}, the largest magnitude playtune takes in",
        max = playtune_optim::stats::MAX_MAGNITUDE
    )]
    TooLarge(f64),
}

/// Parses one row, verifying its check in a checked log.
fn parse_checked(
    line: &str,
    space: &Space,
    features: usize,
    checked: bool,
) -> Result<LogRow, BadRow> {
    let line = if checked {
        let (body, check) = line.rsplit_once(',').ok_or(BadRow::NoCheck)?;
        if u64::from_str_radix(check, 16).ok() != Some(fnv1a(body)) || check.len() != 16 {
            return Err(BadRow::Changed);
        }
        body
    } else {
        line
    };
    let row = parse_row(line, space, features).ok_or(BadRow::Unreadable)?;
    // What the run would never have logged (its evaluations are refused beyond the
    // bound, see `run::finite`), and what would overflow its statistics.
    match std::iter::once(&row.eval.fitness)
        .chain(&row.eval.features)
        .find(|v| !playtune_optim::stats::in_range(**v))
    {
        Some(&v) => Err(BadRow::TooLarge(v)),
        None => Ok(row),
    }
}
fn parse_row(line: &str, space: &Space, features: usize) -> Option<LogRow> {
    let cols = split_csv(line);
    if cols.len() != 5 + space.len() + features {
        return None;
    }
    let values: Option<Vec<f64>> = space
        .dims
        .iter()
        .zip(&cols[4..])
        .map(|(d, c)| d.domain.parse_number(c))
        .collect();
    let rest = &cols[4 + space.len()..];
    // A NaN or infinite result is never a valid evaluation (see `run::execute`).
    let finite = |c: &String| c.parse::<f64>().ok().filter(|v| v.is_finite());
    Some(LogRow {
        trial: cols[0].parse().ok()?,
        index: cols[1].parse().ok()?,
        phase: Phase::parse(&cols[2])?,
        seed: cols[3].parse().ok()?,
        values: values?,
        eval: Evaluation {
            fitness: finite(&rest[0])?,
            features: rest[1..].iter().map(finite).collect::<Option<Vec<f64>>>()?,
        },
    })
}

/// Rewrites the log sorted by (trial, index), without the rows [`read_log`] leaves
/// out: rows of parallel trials land in the order they finish, and sorting makes the
/// finished file independent of scheduling. A legacy log keeps its format.
pub(crate) fn canonicalise(
    path: &Path,
    space: &Space,
    features: &[String],
) -> Result<(), RunError> {
    let log = read_log(path, space, features)?;
    let mut rows: Vec<LogRow> = log.rows.into_iter().map(|(_, r)| r).collect();
    rows.sort_by_key(|r| (r.trial, r.index));
    let tmp: PathBuf = path.with_extension("csv.tmp");
    let written = (|| -> std::io::Result<()> {
        let mut w = BufWriter::new(super::files::create_temporary(&tmp)?);
        writeln!(w, "{}", header_of(space, features, log.checked))?;
        let mut line = String::new();
        for r in &rows {
            line.clear();
            format_row(space, r, &mut line, log.checked);
            w.write_all(line.as_bytes())?;
        }
        w.flush()?;
        drop(w);
        std::fs::rename(&tmp, path)
    })();
    // The log itself is whole either way; a half copy must not stay behind.
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        RunError::Io(format!(
            "cannot rewrite {} (a sorted copy, {}): {e}",
            path.display(),
            tmp.display()
        ))
    })
}

/// Logged evaluations by (trial, index), reused when a run resumes, and logged
/// failures, replayed as failures.
#[derive(Default)]
pub(crate) struct Cache {
    rows: HashMap<(u64, u64), LogRow>,
    failures: HashMap<(u64, u64), super::failures::FailureRow>,
}

/// What the logs of an interrupted run say about one evaluation.
pub(crate) enum Logged<'a> {
    Evaluation(&'a Evaluation),
    Failure(&'a super::failures::FailureRow),
}

impl Cache {
    pub(crate) fn from_rows(rows: Vec<LogRow>) -> Cache {
        Cache {
            rows: rows.into_iter().map(|r| ((r.trial, r.index), r)).collect(),
            failures: HashMap::new(),
        }
    }

    /// Adds the failures of `failures.jsonl`; a logged evaluation of the same (trial,
    /// index) wins over a failure (a retry that succeeded).
    pub(crate) fn add_failures(
        &mut self,
        failures: HashMap<(u64, u64), super::failures::FailureRow>,
    ) {
        self.failures = failures;
    }

    /// The logged evaluation of this point at this position, if the log has it.
    /// The seed must match too: a row of a run with another seed is not this run's.
    pub(crate) fn get(
        &self,
        trial: u64,
        index: u64,
        seed: u64,
        values: &[f64],
    ) -> Option<Logged<'_>> {
        if let Some(r) = self
            .rows
            .get(&(trial, index))
            .filter(|r| r.seed == seed && r.values == values)
        {
            return Some(Logged::Evaluation(&r.eval));
        }
        self.failures
            .get(&(trial, index))
            .filter(|r| r.seed == seed && r.values == values)
            .map(Logged::Failure)
    }
}
