//! An external evaluator: any program that reads a point and prints a fitness.
//!
//! For each evaluation playtune runs the command with `sh -c`, writes one JSON object
//! to its standard input, `{"seed": 12, "point": {"speed": 5, "missile": "twin"}}`,
//! and reads its standard output: the last non-empty line is either a number (the
//! fitness) or a JSON object `{"fitness": 1.5, "features": {"kills": 3}}`. A non-zero
//! exit status, a crash or unreadable output fails the evaluation with the command's
//! own error output in the message.

use super::{EvalError, Evaluation, Problem};
use crate::space::Space;
use std::io::Write;
use std::process::{Command, Stdio};

pub struct CommandProblem {
    command: String,
    space: Space,
    features: Vec<String>,
}

impl CommandProblem {
    pub fn new(command: String, space: Space, features: Vec<String>) -> CommandProblem {
        CommandProblem {
            command,
            space,
            features,
        }
    }

    fn request(&self, x: &[f64], seed: u64) -> String {
        let point: serde_json::Map<String, serde_json::Value> = self
            .space
            .dims
            .iter()
            .zip(x)
            .map(|(d, &v)| {
                let value = match &d.domain {
                    crate::space::Domain::Categories(_) => {
                        serde_json::Value::String(d.domain.render(v))
                    }
                    crate::space::Domain::Bool => serde_json::Value::Bool(v >= 0.5),
                    _ => serde_json::json!(v),
                };
                (d.name.clone(), value)
            })
            .collect();
        serde_json::json!({ "seed": seed, "point": point }).to_string()
    }

    /// Reads the evaluator's reply (its standard output).
    pub fn parse(&self, stdout: &str) -> Result<Evaluation, String> {
        let line = stdout
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .ok_or("it printed nothing")?
            .trim();
        if let Ok(f) = line.parse::<f64>() {
            if !self.features.is_empty() {
                return Err(format!(
                    "it printed the bare number `{line}`, but features are declared ({}): print {{\"fitness\": ..., \"features\": {{...}}}}",
                    self.features.join(", ")
                ));
            }
            if !f.is_finite() {
                return Err(format!("its fitness `{line}` is not a finite number"));
            }
            return Ok(Evaluation {
                fitness: f,
                features: Vec::new(),
            });
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|_| format!("its last line `{line}` is neither a number nor JSON"))?;
        let fitness = v
            .get("fitness")
            .and_then(|f| f.as_f64())
            .ok_or_else(|| format!("`{line}` has no numeric `fitness`"))?;
        let features = self
            .features
            .iter()
            .map(|n| {
                v.get("features")
                    .and_then(|f| f.get(n))
                    .and_then(|x| x.as_f64())
                    .ok_or_else(|| format!("`{line}` lacks feature `{n}`"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Evaluation { fitness, features })
    }
}

/// The request as an open, already unlinked file for the command's standard input.
/// Not a pipe: a command that exits without reading its input (`echo 1`) would make
/// the write raise SIGPIPE, which kills playtune (it restores the default action so
/// that `playtune ... | head` ends quietly).
fn request_file(request: &str) -> std::io::Result<std::fs::File> {
    use std::io::{Seek, SeekFrom};
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "playtune-request-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    let _ = std::fs::remove_file(&path);
    writeln!(file, "{request}")?;
    file.seek(SeekFrom::Start(0))?;
    Ok(file)
}

impl Problem for CommandProblem {
    fn space(&self) -> &Space {
        &self.space
    }
    fn feature_names(&self) -> Vec<String> {
        self.features.clone()
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let fail = |why: String| {
            EvalError(format!(
                "external evaluator `{}` failed: {why}",
                self.command
            ))
        };
        let request = request_file(&self.request(x, seed))
            .map_err(|e| fail(format!("cannot write its request: {e}")))?;
        let child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .env("PLAYTUNE_SEED", seed.to_string())
            .stdin(request)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| fail(format!("cannot start it: {e}")))?;
        let out = child.wait_with_output().map_err(|e| fail(e.to_string()))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = err
                .lines()
                .rev()
                .take(5)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            return Err(fail(format!(
                "{} ({})",
                out.status,
                if tail.is_empty() {
                    "no error output".into()
                } else {
                    tail.join(" | ")
                }
            )));
        }
        self.parse(&String::from_utf8_lossy(&out.stdout))
            .map_err(fail)
    }
}
