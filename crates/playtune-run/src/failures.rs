//! `failures.jsonl`: every evaluation that failed after its retries, one JSON object
//! per line, appended as batches finish. The optimisers were told these evaluations
//! failed; a resumed run tells them so again (the same run, replayed), unless asked to
//! retry them (`playtune resume --retry-failed`).
//!
//! A line: `{"trial": 0, "index": 12, "phase": "search", "seed": 99, "values": [3.0],
//! "point": {"speed": "3"}, "reason": "...", "attempts": 3}`. `reason` holds the last
//! attempt's message, with the tail of the evaluator's error output where it has one.

use super::RunError;
use playtune_optim::optim::Phase;
use playtune_optim::space::Space;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// One failed evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureRow {
    /// The evaluation's trial.
    pub trial: u64,
    /// Its index in the trial.
    pub index: u64,
    /// What the optimiser asked it for.
    pub phase: Phase,
    /// The seed it was evaluated with.
    pub seed: u64,
    /// The point as numbers, in the space's order (what a resumed run matches).
    pub values: Vec<f64>,
    /// The same point by name, as a person reads it.
    pub point: serde_json::Map<String, serde_json::Value>,
    /// Why it failed: the last attempt's message.
    pub reason: String,
    /// Evaluations tried: 1 + the retries.
    pub attempts: u32,
}

impl FailureRow {
    /// A point by dimension name, as `point` records it.
    pub fn point_by_name(
        space: &Space,
        values: &[f64],
    ) -> serde_json::Map<String, serde_json::Value> {
        space
            .render(values)
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect()
    }
}

/// Appends failures to a run's `failures.jsonl`, creating it at the first one.
pub(crate) struct FailureWriter {
    path: std::path::PathBuf,
    file: Option<BufWriter<File>>,
}

impl FailureWriter {
    pub(crate) fn new(path: &Path) -> FailureWriter {
        FailureWriter {
            path: path.to_path_buf(),
            file: None,
        }
    }

    pub(crate) fn append(&mut self, rows: &[FailureRow]) -> std::io::Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        if self.file.is_none() {
            // Never through a link: see `files`.
            cut_half_line(&self.path)?;
            let f = super::files::open_append(&self.path)?;
            self.file = Some(BufWriter::new(f));
        }
        let file = self.file.as_mut().expect("opened above");
        for r in rows {
            serde_json::to_writer(&mut *file, r)?;
            file.write_all(b"\n")?;
        }
        file.flush()
    }
}

/// Cuts a last line that an interruption left half written (any line-based log: the
/// failures, an experiment's re-evaluations, a cluster's task records); a link, or
/// anything but a plain file, is refused rather than followed
/// ([`super::files`]).
pub fn cut_half_line(path: &Path) -> std::io::Result<()> {
    super::files::cut_torn_line(path)
}

/// Reads a run's failures by (trial, index), the later of two copies winning. A line
/// that is not a failure record (garbage, an edit, a record with impossible values,
/// or, given the run's configuration, a trial it does not have or a point outside its
/// space) is named on standard error, by file and line, and left out: it is not
/// counted and its evaluation is not taken as failed. A half-written last line (an
/// interruption) is left out without a word. No file: no failures.
pub fn read_failures(path: &Path, run: Option<&super::RunConfig>) -> Result<Failures, RunError> {
    read_failures_within(path, run.map(|c| (c.trials, &c.space)))
}

/// [`read_failures`] of a run of `(trials, space)`, whatever its optimiser.
pub(crate) fn read_failures_within(
    path: &Path,
    run: Option<(u64, &Space)>,
) -> Result<Failures, RunError> {
    let (rows, damaged) = read_within(path, run)?;
    playtune_optim::damage::warn(path, &damaged, "not counted as failures");
    Ok(rows)
}

/// [`read_failures`] without the warning, for a reader that words its own (the
/// Python binding's export): the failures, and the lines left out as (line number
/// from 1, why).
pub fn read_run_failures(
    path: &Path,
    run: Option<&super::RunConfig>,
) -> Result<(Failures, Vec<(usize, String)>), RunError> {
    read_within(path, run.map(|c| (c.trials, &c.space)))
}

/// [`read_run_failures`] of a run of `(trials, space)`.
fn read_within(
    path: &Path,
    run: Option<(u64, &Space)>,
) -> Result<(Failures, Vec<(usize, String)>), RunError> {
    let (mut rows, mut damaged) = read_failures_numbered(path)?;
    if let Some((trials, space)) = run {
        rows.retain(|_, (number, r)| match not_of_run(r, trials, space) {
            Some(why) => {
                damaged.push((*number, why));
                false
            }
            None => true,
        });
        damaged.sort_by_key(|d| d.0);
    }
    Ok((
        rows.into_iter().map(|(k, (_, r))| (k, r)).collect(),
        damaged,
    ))
}

/// Failures by (trial, index).
pub type Failures = HashMap<(u64, u64), FailureRow>;

/// [`read_failures`] without the warnings: the rows, and the damaged lines as (line
/// number from 1, why).
pub(crate) fn read_failures_checked(
    path: &Path,
) -> Result<(Failures, Vec<(usize, String)>), RunError> {
    let (rows, damaged) = read_failures_numbered(path)?;
    Ok((
        rows.into_iter().map(|(k, (_, r))| (k, r)).collect(),
        damaged,
    ))
}

/// Why a well-formed failure record is not one of the run's evaluations, if it is not.
fn not_of_run(r: &FailureRow, trials: u64, space: &Space) -> Option<String> {
    if r.trial >= trials {
        return Some(format!("trial {}: the run has {trials} trial(s)", r.trial));
    }
    let dims = space.dims.len();
    if r.values.len() != dims {
        return Some(format!(
            "values: {} numbers for the run's {dims} dimensions",
            r.values.len()
        ));
    }
    if !r
        .values
        .iter()
        .zip(&space.dims)
        .all(|(&v, d)| d.domain.admits(v))
    {
        return Some("values: a point outside the run's space".into());
    }
    None
}

/// The failure records with their line numbers, and the damaged lines.
type Numbered = HashMap<(u64, u64), (usize, FailureRow)>;

fn read_failures_numbered(path: &Path) -> Result<(Numbered, Vec<(usize, String)>), RunError> {
    let text = match super::files::read_plain(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((HashMap::new(), Vec::new()));
        }
        Err(e) => return Err(RunError::Io(format!("{}: {e}", path.display()))),
    };
    let mut rows = HashMap::new();
    let mut damaged = Vec::new();
    for (number, line) in playtune_optim::damage::lines(&text) {
        match parse_failure(line) {
            Ok(r) => {
                rows.insert((r.trial, r.index), (number, r));
            }
            Err(why) => damaged.push((number, why.to_string())),
        }
    }
    Ok((rows, damaged))
}

/// Why a line of `failures.jsonl` is damaged (the reader names the line and drops it).
#[derive(Debug, thiserror::Error)]
enum BadLine {
    #[error("not a failure record ({0})")]
    NotARecord(serde_json::Error),
    #[error("values: {0} is not a finite number")]
    NotFinite(f64),
    #[error("attempts: 0 (a failure took at least one attempt)")]
    NoAttempt,
}

/// One line of `failures.jsonl`, checked.
fn parse_failure(line: &[u8]) -> Result<FailureRow, BadLine> {
    let r: FailureRow = serde_json::from_slice(line).map_err(BadLine::NotARecord)?;
    if let Some(&v) = r.values.iter().find(|v| !v.is_finite()) {
        return Err(BadLine::NotFinite(v));
    }
    if r.attempts == 0 {
        return Err(BadLine::NoAttempt);
    }
    Ok(r)
}

/// Rewrites `failures.jsonl` sorted by (trial, index), with only the failures `keep`
/// names (those of the run, not turned into logged evaluations by a later retry);
/// removes the file if none is left.
pub(crate) fn canonicalise(path: &Path, keep: &dyn Fn(u64, u64) -> bool) -> Result<(), RunError> {
    // Damaged lines were named when the run read the file; they go now.
    let (failures, _) = read_failures_checked(path)?;
    let mut rows: Vec<FailureRow> = failures
        .into_values()
        .filter(|r| keep(r.trial, r.index))
        .collect();
    if rows.is_empty() {
        return match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(super::io(e)),
            _ => Ok(()),
        };
    }
    rows.sort_by_key(|r| (r.trial, r.index));
    let tmp = path.with_extension("jsonl.tmp");
    let mut text = String::new();
    for r in &rows {
        text.push_str(&serde_json::to_string(r).map_err(super::io)?);
        text.push('\n');
    }
    super::files::create_temporary(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| super::write_error("write", &tmp, e))?;
    std::fs::rename(&tmp, path).map_err(super::io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::FAILURES_FILE;

    fn row(trial: u64, index: u64, reason: &str) -> FailureRow {
        FailureRow {
            trial,
            index,
            phase: Phase::Search,
            seed: 7,
            values: vec![1.0, 2.5],
            point: serde_json::Map::new(),
            reason: reason.into(),
            attempts: 3,
        }
    }

    #[test]
    fn failures_round_trip_and_canonicalise() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FAILURES_FILE);
        let mut w = FailureWriter::new(&path);
        w.append(&[row(1, 4, "hung"), row(0, 2, "crashed\nstderr: boom")])
            .unwrap();
        drop(w);
        // A kill mid-line leaves half a row: it is skipped, then cut before appending.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"trial\": 9")
            .unwrap();
        let read = read_failures(&path, None).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[&(0, 2)].reason, "crashed\nstderr: boom");
        let mut w = FailureWriter::new(&path);
        w.append(&[row(0, 5, "garbage")]).unwrap();
        drop(w);
        assert_eq!(read_failures(&path, None).unwrap().len(), 3);
        canonicalise(&path, &|t, i| (t, i) != (1, 4)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let order: Vec<(u64, u64)> = text
            .lines()
            .map(|l| {
                let r: FailureRow = serde_json::from_str(l).unwrap();
                (r.trial, r.index)
            })
            .collect();
        assert_eq!(order, vec![(0, 2), (0, 5)]);
        canonicalise(&path, &|_, _| false).unwrap();
        assert!(!path.exists());
    }
}
