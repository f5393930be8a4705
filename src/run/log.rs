//! The evaluation log: one CSV row per evaluation, appended as batches finish and
//! flushed after each, so an interrupted run keeps every evaluation it did.
//!
//! Columns: `trial,index,phase,seed,<one per dimension>,fitness,<one per feature>`.
//! Values are written as a person reads them (category names, true/false) and floats
//! in their shortest round-trip form, so reading a row back gives the exact point.

use crate::eval::Evaluation;
use crate::optim::Phase;
use crate::space::{Domain, Space};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

pub const LOG_FILE: &str = "evals.csv";

/// One logged evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRow {
    pub trial: u64,
    pub index: u64,
    pub phase: Phase,
    pub seed: u64,
    pub values: Vec<f64>,
    pub eval: Evaluation,
}

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

fn format_row(space: &Space, row: &LogRow, out: &mut String) {
    use std::fmt::Write;
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
    out.push('\n');
}

/// Appends rows to a run's log.
pub struct LogWriter {
    file: BufWriter<File>,
    line: String,
}

impl LogWriter {
    /// Opens the log for appending, writing the header to a new file, and cutting a
    /// final line that an interruption left half written.
    pub fn open(path: &Path, space: &Space, features: &[String]) -> std::io::Result<LogWriter> {
        let exists = path.exists() && std::fs::metadata(path)?.len() > 0;
        if exists {
            let bytes = std::fs::read(path)?;
            if bytes.last() != Some(&b'\n') {
                let keep = bytes
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map(|p| p + 1)
                    .unwrap_or(0);
                OpenOptions::new()
                    .write(true)
                    .open(path)?
                    .set_len(keep as u64)?;
            }
        }
        let mut file = BufWriter::new(OpenOptions::new().create(true).append(true).open(path)?);
        if !exists || std::fs::metadata(path)?.len() == 0 {
            writeln!(file, "{}", header(space, features))?;
            // Flushed at once, not with the first rows: a run killed before its first
            // evaluation finishes must leave a log that `resume` accepts.
            file.flush()?;
        }
        Ok(LogWriter {
            file,
            line: String::new(),
        })
    }

    pub fn append(&mut self, space: &Space, rows: &[LogRow]) -> std::io::Result<()> {
        for r in rows {
            self.line.clear();
            format_row(space, r, &mut self.line);
            self.file.write_all(self.line.as_bytes())?;
        }
        self.file.flush()
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

/// Reads a log back. Rows that do not parse (a half-written last line) are skipped;
/// the count of skipped rows is returned beside the rows.
pub fn read_log(
    path: &Path,
    space: &Space,
    features: usize,
) -> Result<(Vec<LogRow>, usize), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut head = String::new();
    reader
        .read_line(&mut head)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // An empty log, or a header cut short by a kill, holds no evaluations: the writer
    // rewrites the header when it opens the log.
    if !head.ends_with('\n') {
        return Ok((Vec::new(), 0));
    }
    let head = head.trim_end_matches(['\n', '\r']);
    let lines = reader.lines();
    let expected = header(space, &vec![String::new(); features]);
    if split_csv(head).len() != split_csv(&expected).len() {
        return Err(format!(
            "{}: the header does not match the run's space and features",
            path.display()
        ));
    }
    let (mut rows, mut skipped) = (Vec::new(), 0);
    for line in lines {
        let line = line.map_err(|e| e.to_string())?;
        match parse_row(&line, space, features) {
            Some(r) => rows.push(r),
            None => skipped += 1,
        }
    }
    Ok((rows, skipped))
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
    Some(LogRow {
        trial: cols[0].parse().ok()?,
        index: cols[1].parse().ok()?,
        phase: Phase::parse(&cols[2])?,
        seed: cols[3].parse().ok()?,
        values: values?,
        eval: Evaluation {
            fitness: rest[0].parse().ok()?,
            features: rest[1..]
                .iter()
                .map(|c| c.parse().ok())
                .collect::<Option<Vec<f64>>>()?,
        },
    })
}

/// Rewrites the log sorted by (trial, index): rows of parallel trials land in the
/// order they finish, and sorting makes the finished file independent of scheduling.
pub fn canonicalise(path: &Path, space: &Space, features: &[String]) -> Result<(), String> {
    let (mut rows, _) = read_log(path, space, features.len())?;
    rows.sort_by_key(|r| (r.trial, r.index));
    rows.dedup_by_key(|r| (r.trial, r.index));
    let tmp: PathBuf = path.with_extension("csv.tmp");
    {
        let mut w = BufWriter::new(File::create(&tmp).map_err(|e| e.to_string())?);
        writeln!(w, "{}", header(space, features)).map_err(|e| e.to_string())?;
        let mut line = String::new();
        for r in &rows {
            line.clear();
            format_row(space, r, &mut line);
            w.write_all(line.as_bytes()).map_err(|e| e.to_string())?;
        }
        w.flush().map_err(|e| e.to_string())?;
    }
    std::fs::rename(&tmp, path).map_err(|e| e.to_string())
}

/// Logged evaluations by (trial, index), reused when a run resumes.
#[derive(Default)]
pub struct Cache {
    rows: HashMap<(u64, u64), LogRow>,
}

impl Cache {
    pub fn from_rows(rows: Vec<LogRow>) -> Cache {
        Cache {
            rows: rows.into_iter().map(|r| ((r.trial, r.index), r)).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The logged evaluation of this point at this position, if the log has it.
    pub fn get(&self, trial: u64, index: u64, values: &[f64]) -> Option<&Evaluation> {
        self.rows
            .get(&(trial, index))
            .filter(|r| r.values == values)
            .map(|r| &r.eval)
    }
}
