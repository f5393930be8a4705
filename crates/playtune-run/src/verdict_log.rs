//! `verdict.jsonl`: every evaluation a run's verdict played, one JSON object per line,
//! appended as each finishes. A verdict interrupted (Ctrl-C, a kill, a full disk) is
//! finished by `resume` from where it stopped, and a finished run whose `result.ron` is
//! rebuilt gets its verdict back without playing a game: the verdict is a measurement
//! the run paid for, kept like the search's evaluations.
//!
//! A line: `{"trial":0,"k":3,"seed":1,"point":[2.0,1.0],"fitness":0.12,
//! "features":[0.4,null],"failure":null,"check":"8c0f4c2b6a4e1d07"}`. `point` is the
//! full point played, `null` for the problem's own baseline; `seed` the run seed the
//! verdict's seeds derive from; a feature that is not a number (unavailable) is `null`.
//!
//! `check` is the line's check, as `evals.csv` rows have one: 64-bit FNV-1a of the
//! line's text without it (up to the `,"check":...` before the closing brace, then the
//! brace), 16 hex digits. A line whose check does not match (a fitness, a feature or a
//! failure edited), that does not read, that holds a number beyond
//! ±[`MAX_MAGNITUDE`](playtune_optim::stats::MAX_MAGNITUDE), or an earlier, different
//! copy of a line logged again, is left out, named on standard error by line, and its
//! evaluation played again; the file is then rewritten without it.
//!
//! A log written before lines had checks (issue 58's verdicts) has none on any line:
//! it is read as it is, trusted, and extended in its form, as a log of `evals.csv`
//! without its `check` column is. In a log where any line has a check, a line without
//! one is damaged: taking the check off is no way around it.

use super::RunError;
use playtune_optim::damage;
use playtune_optim::eval::Evaluation;
use playtune_optim::stats::{MAX_MAGNITUDE, in_range};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::files::VERDICT_LOG_FILE;

/// What comes before a line's check, and the check's length: the line ends in
/// `,"check":"` 16 hex digits `"}`.
const CHECK_KEY: &str = ",\"check\":\"";
const CHECK_TAIL: usize = CHECK_KEY.len() + 16 + 2;

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
    /// Absent in a log written before lines had checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    check: Option<String>,
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

/// Why a line of the log is damaged (it is named, left out and played again).
#[derive(Debug, thiserror::Error)]
enum BadLine {
    #[error("not a verdict record ({0})")]
    NotARecord(String),
    #[error("its check does not match: the line was changed")]
    Changed,
    #[error("no check, where the file's other lines have one")]
    NoCheck,
    #[error("neither a fitness nor a failure")]
    NoOutcome,
    #[error("both a fitness and a failure")]
    TwoOutcomes,
    #[error(
        "{0}: {1:e} is beyond ±{max:e}, the largest magnitude playtune takes in",
        max = MAX_MAGNITUDE
    )]
    TooLarge(&'static str, f64),
    #[error("superseded by line {0}, a later copy")]
    Superseded(usize),
}

/// The check of a line's text without its check (`{...}`).
fn check_of(body: &str) -> String {
    format!("{:016x}", damage::fnv1a(body.as_bytes()))
}

/// `line`'s check matches the line: the text before `,"check":"...` closed with the
/// brace hashes to it.
fn check_matches(line: &str, check: &str) -> bool {
    let Some(cut) = line.len().checked_sub(CHECK_TAIL) else {
        return false;
    };
    let (Some(body), Some(tail)) = (line.get(..cut), line.get(cut..)) else {
        return false;
    };
    tail == format!("{CHECK_KEY}{check}\"}}") && check_of(&format!("{body}}}")) == check
}

/// One line read: the record, whether it carries a check, and its outcome.
fn parse_line(line: &[u8]) -> Result<(Row, Result<Evaluation, String>), BadLine> {
    let text = std::str::from_utf8(line).map_err(|e| BadLine::NotARecord(e.to_string()))?;
    let row: Row = serde_json::from_str(text).map_err(|e| BadLine::NotARecord(e.to_string()))?;
    if let Some(check) = &row.check
        && !check_matches(text, check)
    {
        return Err(BadLine::Changed);
    }
    let outcome = match (row.fitness, &row.failure) {
        (Some(_), Some(_)) => return Err(BadLine::TwoOutcomes),
        (None, None) => return Err(BadLine::NoOutcome),
        (None, Some(why)) => Err(why.clone()),
        (Some(fitness), None) => {
            if !in_range(fitness) {
                return Err(BadLine::TooLarge("fitness", fitness));
            }
            if let Some(&f) = row.features.iter().flatten().find(|f| !in_range(**f)) {
                return Err(BadLine::TooLarge("features", f));
            }
            Ok(Evaluation {
                fitness,
                features: row.features.iter().map(|f| f.unwrap_or(f64::NAN)).collect(),
            })
        }
    };
    Ok((row, outcome))
}

/// A run's verdict log: what it holds, and a writer appending to it.
pub(crate) struct VerdictLog {
    path: PathBuf,
    done: HashMap<Key, Result<Evaluation, String>>,
    /// Whether lines get a check: always, but in a log written before checks.
    checked: bool,
    file: Mutex<Option<File>>,
}

impl VerdictLog {
    /// Opens the log of the run in `dir`, reading what it holds. A last line cut short
    /// (the writer was killed) is cut off without a word; a damaged line is named on
    /// standard error and left out (its evaluation is played again), and the file is
    /// rewritten without it. The log must be a plain file of the run folder: a link is
    /// refused, never followed (see [`super::files`]).
    pub(crate) fn open(dir: &Path) -> Result<VerdictLog, RunError> {
        let path = dir.join(VERDICT_LOG_FILE);
        let repair = |e| super::write_error("repair", &path, e);
        let bytes = super::files::read(&path)
            .map_err(|e| super::write_error("read", &path, e))?
            .unwrap_or_default();
        let mut parsed = Vec::new();
        let mut damaged: Vec<(usize, String)> = Vec::new();
        for (number, line) in damage::lines(&bytes) {
            match parse_line(line) {
                Ok((row, outcome)) => parsed.push((number, line, row, outcome)),
                Err(why) => damaged.push((number, why.to_string())),
            }
        }
        // A log with no check on any line was written before lines had checks.
        let checked = parsed.is_empty() || parsed.iter().any(|(_, _, r, _)| r.check.is_some());
        let mut done = HashMap::new();
        // The lines kept, as they were; `None` where a later copy replaced one.
        let mut kept: Vec<Option<&[u8]>> = Vec::new();
        let mut at: HashMap<Key, (usize, usize, Result<Evaluation, String>)> = HashMap::new();
        for (number, line, row, outcome) in parsed {
            if checked && row.check.is_none() {
                damaged.push((number, BadLine::NoCheck.to_string()));
                continue;
            }
            let k = key(row.trial, row.k, row.seed, row.point.as_deref());
            // Of two copies the later is kept; an identical one is no damage.
            if let Some((earlier, slot, old)) = at.get(&k)
                && !same(old, &outcome)
            {
                damaged.push((*earlier, BadLine::Superseded(number).to_string()));
                kept[*slot] = None;
            }
            at.insert(k.clone(), (number, kept.len(), outcome.clone()));
            kept.push(Some(line));
            done.insert(k, outcome);
        }
        damaged.sort_by_key(|d| d.0);
        if !damaged.is_empty() {
            damage::warn(&path, &damaged, "played again");
            // Rewritten whole without them, so they are named once, not at every
            // resume: the kept lines as they were, in their order.
            let mut text = Vec::new();
            for line in kept.iter().flatten() {
                text.extend_from_slice(line);
                text.push(b'\n');
            }
            super::lock::write_whole(&path, &text).map_err(repair)?;
        } else {
            // A torn last line is cut off, so that the next line appended starts a
            // line of its own.
            super::files::cut_torn(&path, &bytes).map_err(repair)?;
        }
        // Created at once: a verdict begun is a verdict `resume` finishes, even one
        // stopped before its first evaluation ended.
        let file =
            super::files::open_append(&path).map_err(|e| super::write_error("write", &path, e))?;
        Ok(VerdictLog {
            path,
            done,
            checked,
            file: Mutex::new(Some(file)),
        })
    }

    /// The outcome recorded for this evaluation, if any.
    pub(crate) fn get(
        &self,
        trial: u64,
        k: u64,
        seed: u64,
        point: Option<&[f64]>,
    ) -> Option<Result<Evaluation, String>> {
        self.done.get(&key(trial, k, seed, point)).cloned()
    }

    /// Appends one evaluation's outcome and flushes it: a kill after this keeps it.
    pub(crate) fn append(
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
            check: None,
        };
        let mut line = serde_json::to_string(&row).map_err(super::io)?;
        if self.checked {
            let check = check_of(&line);
            line.pop();
            line += &format!("{CHECK_KEY}{check}\"}}");
        }
        line.push('\n');
        let fail = |e| super::write_error("write", &self.path, e);
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if file.is_none() {
            *file = Some(super::files::open_append(&self.path).map_err(fail)?);
        }
        let f = file.as_mut().expect("opened above");
        f.write_all(line.as_bytes())
            .and_then(|()| f.flush())
            .map_err(fail)
    }
}

/// Whether two outcomes of one evaluation are the same (bit for bit: a copy).
fn same(a: &Result<Evaluation, String>, b: &Result<Evaluation, String>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            a.fitness.to_bits() == b.fitness.to_bits()
                && a.features.len() == b.features.len()
                && a.features
                    .iter()
                    .zip(&b.features)
                    .all(|(x, y)| x.to_bits() == y.to_bits())
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
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
        // Lines that do not read are left out (played again), and go from the file.
        std::fs::write(&path, "garbage\n{}\n").unwrap();
        let log = VerdictLog::open(dir.path()).unwrap();
        assert!(log.done.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
    }

    /// The lines a log holds, as written.
    fn lines_of(dir: &Path) -> Vec<String> {
        std::fs::read_to_string(dir.join(VERDICT_LOG_FILE))
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    fn evaluation(fitness: f64) -> Result<Evaluation, String> {
        Ok(Evaluation {
            fitness,
            features: vec![0.5],
        })
    }

    /// A line edited (its fitness, a feature, made a failure), stripped of its check
    /// among checked lines, or holding a number beyond the bound with its check written
    /// again, is left out and dropped from the file; the others are kept as written.
    #[test]
    fn edited_lines_fail_their_check_and_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let log = VerdictLog::open(dir.path()).unwrap();
        for k in 0..6 {
            log.append(0, k, 1, Some(&[2.0]), &evaluation(0.25 + k as f64))
                .unwrap();
        }
        drop(log);
        let clean = lines_of(dir.path());
        assert!(clean[0].ends_with("\"}") && clean[0].contains(",\"check\":\""));
        let mut edited = clean.clone();
        edited[0] = edited[0].replace("\"fitness\":0.25", "\"fitness\":0.9");
        edited[1] = edited[1].replace("\"features\":[0.5]", "\"features\":[0.7]");
        edited[2] = edited[2]
            .replace("\"fitness\":2.25", "\"fitness\":null")
            .replace("\"failure\":null", "\"failure\":\"x\"");
        let cut = edited[3].len() - CHECK_TAIL;
        edited[3] = format!("{}}}", &edited[3][..cut]);
        let body = edited[4][..edited[4].len() - CHECK_TAIL].replace("4.25", "1e308") + "}";
        edited[4] = format!(
            "{}{CHECK_KEY}{}\"}}",
            &body[..body.len() - 1],
            check_of(&body)
        );
        for (a, b) in edited.iter().zip(&clean).take(5) {
            assert_ne!(a, b);
        }
        let path = dir.path().join(VERDICT_LOG_FILE);
        std::fs::write(&path, edited.join("\n") + "\n").unwrap();
        let log = VerdictLog::open(dir.path()).unwrap();
        for k in 0..5 {
            assert_eq!(log.get(0, k, 1, Some(&[2.0])), None, "line {}", k + 1);
        }
        assert_eq!(log.get(0, 5, 1, Some(&[2.0])), Some(evaluation(5.25)));
        assert_eq!(lines_of(dir.path()), clean[5..]);
    }

    /// A log written before lines had checks is read as it is and extended in its
    /// form; a copy of a line with another outcome supersedes the earlier one.
    #[test]
    fn a_log_without_checks_is_trusted_and_kept_in_its_form() {
        let dir = tempfile::tempdir().unwrap();
        let old = [
            r#"{"trial":0,"k":0,"seed":1,"point":null,"fitness":0.5,"features":[0.5],"failure":null}"#,
            r#"{"trial":0,"k":1,"seed":1,"point":null,"fitness":0.75,"features":[0.5],"failure":null}"#,
            r#"{"trial":0,"k":1,"seed":1,"point":null,"fitness":1.75,"features":[0.5],"failure":null}"#,
        ];
        let path = dir.path().join(VERDICT_LOG_FILE);
        std::fs::write(&path, old.join("\n") + "\n").unwrap();
        let log = VerdictLog::open(dir.path()).unwrap();
        assert_eq!(log.get(0, 0, 1, None), Some(evaluation(0.5)));
        assert_eq!(log.get(0, 1, 1, None), Some(evaluation(1.75)));
        log.append(0, 2, 1, None, &evaluation(3.0)).unwrap();
        drop(log);
        let lines = lines_of(dir.path());
        assert_eq!(lines[..2], [old[0], old[2]]);
        assert!(!lines[2].contains("check"), "{}", lines[2]);
    }
}
