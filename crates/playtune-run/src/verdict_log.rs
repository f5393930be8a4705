//! `verdict.jsonl`: every evaluation a run's verdict played, one JSON object per line,
//! appended as each finishes. A verdict interrupted (Ctrl-C, a kill, a full disk) is
//! finished by `resume` from where it stopped, and a finished run whose `result.ron` is
//! rebuilt gets its verdict back without playing a game: the verdict is a measurement
//! the run paid for, kept like the search's evaluations.
//!
//! A line: `{"trial": 0, "k": 3, "seed": 1, "point": [2.0, 1.0], "fitness": 0.12,
//! "features": [0.4, null], "failure": null}`. `point` is the full point played, `null`
//! for the problem's own baseline; `seed` the run seed the verdict's seeds derive from;
//! a feature that is not a number (unavailable) is `null`.

use super::RunError;
use playtune_optim::eval::Evaluation;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub(crate) const VERDICT_LOG_FILE: &str = "verdict.jsonl";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    trial: u64,
    k: u64,
    seed: u64,
    point: Option<Vec<f64>>,
    fitness: Option<f64>,
    features: Vec<Option<f64>>,
    failure: Option<String>,
}

/// What identifies one verdict evaluation: the trial, its index, the run seed and the
/// point played (`None`: the problem's own baseline), the point by its bits.
type Key = (u64, u64, u64, Option<Vec<u64>>);

fn key(trial: u64, k: u64, seed: u64, point: Option<&[f64]>) -> Key {
    (
        trial,
        k,
        seed,
        point.map(|p| p.iter().map(|x| x.to_bits()).collect()),
    )
}

/// A run's verdict log: what it holds, and a writer appending to it.
pub(crate) struct VerdictLog {
    path: PathBuf,
    done: HashMap<Key, Result<Evaluation, String>>,
    file: Mutex<Option<File>>,
}

impl VerdictLog {
    /// Opens the log of the run in `dir`, reading what it holds. A last line cut short
    /// (the writer was killed) is left out; any other line that does not read is named.
    pub fn open(dir: &Path) -> Result<VerdictLog, RunError> {
        let path = dir.join(VERDICT_LOG_FILE);
        let mut done = HashMap::new();
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let complete = match text.rfind('\n') {
                    Some(end) => &text[..end],
                    None => "",
                };
                // A torn last line is cut off, so that the next line appended starts
                // a line of its own.
                if !text.ends_with('\n') && !text.is_empty() {
                    let kept = if complete.is_empty() {
                        0
                    } else {
                        complete.len() + 1
                    };
                    OpenOptions::new()
                        .write(true)
                        .open(&path)
                        .and_then(|f| f.set_len(kept as u64))
                        .map_err(|e| {
                            RunError::Io(format!("cannot repair {}: {e}", path.display()))
                        })?;
                }
                for (i, line) in complete.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let row: Row = serde_json::from_str(line).map_err(|e| {
                        RunError::Io(format!(
                            "{}:{}: {e} (remove the line, and `playtune resume` plays that evaluation again)",
                            path.display(),
                            i + 1
                        ))
                    })?;
                    let outcome = match (row.fitness, row.failure) {
                        (_, Some(why)) => Err(why),
                        (Some(fitness), None) => Ok(Evaluation {
                            fitness,
                            features: row.features.iter().map(|f| f.unwrap_or(f64::NAN)).collect(),
                        }),
                        (None, None) => Err(format!(
                            "{}:{}: neither a fitness nor a failure",
                            path.display(),
                            i + 1
                        )),
                    };
                    done.insert(
                        key(row.trial, row.k, row.seed, row.point.as_deref()),
                        outcome,
                    );
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(RunError::Io(format!("{}: {e}", path.display()))),
        }
        // Created at once: a verdict begun is a verdict `resume` finishes, even one
        // stopped before its first evaluation ended.
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| RunError::Io(format!("cannot write {}: {e}", path.display())))?;
        Ok(VerdictLog {
            path,
            done,
            file: Mutex::new(Some(file)),
        })
    }

    /// The outcome recorded for this evaluation, if any.
    pub fn get(
        &self,
        trial: u64,
        k: u64,
        seed: u64,
        point: Option<&[f64]>,
    ) -> Option<Result<Evaluation, String>> {
        self.done.get(&key(trial, k, seed, point)).cloned()
    }

    /// Appends one evaluation's outcome and flushes it: a kill after this keeps it.
    pub fn append(
        &self,
        trial: u64,
        k: u64,
        seed: u64,
        point: Option<&[f64]>,
        outcome: &Result<Evaluation, String>,
    ) -> Result<(), RunError> {
        let row = Row {
            trial,
            k,
            seed,
            point: point.map(<[f64]>::to_vec),
            fitness: outcome.as_ref().ok().map(|e| e.fitness),
            features: outcome.as_ref().map_or_else(
                |_| Vec::new(),
                |e| {
                    e.features
                        .iter()
                        .map(|f| f.is_finite().then_some(*f))
                        .collect()
                },
            ),
            failure: outcome.as_ref().err().cloned(),
        };
        let line = serde_json::to_string(&row).map_err(super::io)? + "\n";
        let fail =
            |e: std::io::Error| RunError::Io(format!("cannot write {}: {e}", self.path.display()));
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if file.is_none() {
            *file = Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)
                    .map_err(fail)?,
            );
        }
        let f = file.as_mut().expect("opened above");
        f.write_all(line.as_bytes())
            .and_then(|()| f.flush())
            .map_err(fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_keeps_outcomes_and_leaves_out_a_torn_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let log = VerdictLog::open(dir.path()).unwrap();
        let good = Ok(Evaluation {
            fitness: 0.1 + 0.2,
            features: vec![1.0 / 3.0, f64::NAN],
        });
        log.append(0, 3, 7, Some(&[1.0, 2.5]), &good).unwrap();
        log.append(0, 3, 7, None, &Err("crashed".into())).unwrap();
        drop(log);
        let path = dir.path().join(VERDICT_LOG_FILE);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text += "{\"trial\": 0, \"k\"";
        std::fs::write(&path, &text).unwrap();
        let log = VerdictLog::open(dir.path()).unwrap();
        let back = log.get(0, 3, 7, Some(&[1.0, 2.5])).unwrap().unwrap();
        assert_eq!(back.fitness.to_bits(), (0.1f64 + 0.2).to_bits());
        assert_eq!(back.features[0].to_bits(), (1.0f64 / 3.0).to_bits());
        assert!(back.features[1].is_nan());
        assert_eq!(log.get(0, 3, 7, None), Some(Err("crashed".into())));
        assert_eq!(log.get(0, 3, 8, None), None, "another seed");
        assert_eq!(log.get(1, 3, 7, None), None, "another trial");
        assert_eq!(log.get(0, 3, 7, Some(&[1.0, 2.0])), None, "another point");
        std::fs::write(&path, "garbage\n{}\n").unwrap();
        let e = VerdictLog::open(dir.path()).err().unwrap().to_string();
        assert!(e.contains("verdict.jsonl:1:"), "{e}");
    }
}
