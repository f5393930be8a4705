//! An external evaluator: any program that reads a point and prints a fitness.
//!
//! One-shot mode (the default) runs `sh -c CMD` for each evaluation, writes one JSON
//! object to its standard input, `{"seed": 12, "point": {"speed": 5, "missile":
//! "twin"}}`, and reads its standard output: the last non-empty line is either a
//! number (the fitness) or a JSON object `{"fitness": 1.5, "features": {"kills": 3}}`.
//!
//! Worker mode starts up to N long-lived `sh -c CMD` processes (with
//! `PLAYTUNE_WORKER=1` in their environment) and sends each request as one line,
//! `{"id": 7, "seed": 12, "point": {...}}`, to a free one; it answers with one line,
//! `{"id": 7, "fitness": 1.5, "features": {...}}` or `{"id": 7, "error": "why"}`.
//!
//! Either way every evaluation has a deadline, and anything else (a crash, a hang,
//! output that is not a finite reply) fails the evaluation with the reason and the
//! tail of the evaluator's error output. A worker that fails so is killed and replaced
//! on the next evaluation. Every evaluator runs in a process group of its own, killed
//! whole, so nothing it starts outlives it.

pub mod groups;
mod guard;
mod once;
mod pipe;
mod process;
pub use once::{ProcessEnded, run_to_end};
pub use process::{exit_text, tail as process_tail};
pub(super) mod reply;
pub(super) mod worker;

use super::{EvalError, Evaluation, Problem};
use crate::space::Space;
use std::time::Duration;

/// The deadline of an evaluation unless the `timeout` setting says otherwise.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// An external evaluator as a problem: a program run per evaluation (one-shot mode)
/// or kept running (worker mode), speaking JSON (the module's description).
pub struct CommandProblem {
    command: String,
    space: Space,
    features: Vec<String>,
    timeout: Duration,
    /// Worker mode's processes; one-shot mode has none.
    pool: Option<worker::WorkerPool>,
}

impl CommandProblem {
    /// A one-shot evaluator with the default deadline.
    pub fn new(command: String, space: Space, features: Vec<String>) -> CommandProblem {
        CommandProblem {
            command,
            space,
            features,
            timeout: DEFAULT_TIMEOUT,
            pool: None,
        }
    }

    /// The most one evaluation may take before the evaluator is killed.
    pub(crate) fn with_timeout(mut self, timeout: Duration) -> CommandProblem {
        self.timeout = timeout;
        self
    }

    /// Worker mode, with up to `workers` (at least 1) persistent processes.
    pub(crate) fn with_workers(mut self, workers: usize) -> CommandProblem {
        assert!(workers >= 1, "worker mode needs at least one worker");
        self.pool = Some(worker::WorkerPool::new(self.command.clone(), workers));
        self
    }

    /// Reads a one-shot evaluator's reply (its standard output).
    pub fn parse(&self, stdout: &str) -> Result<Evaluation, reply::ReplyError> {
        reply::parse_output(&self.features, stdout)
    }

    fn fail(&self, why: String) -> EvalError {
        EvalError(format!(
            "external evaluator {} failed: {why}",
            reply::show(&self.command)
        ))
    }
}

impl Problem for CommandProblem {
    fn space(&self) -> &Space {
        &self.space
    }
    fn feature_names(&self) -> Vec<String> {
        self.features.clone()
    }
    fn concurrency(&self) -> Option<usize> {
        self.pool.as_ref().map(worker::WorkerPool::size)
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        if let Some(pool) = &self.pool {
            return pool
                .evaluate(
                    |id| reply::worker_request(&self.space, x, seed, id),
                    &self.features,
                    self.timeout,
                )
                .map_err(|why| self.fail(why.to_string()));
        }
        let request = reply::once_request(&self.space, x, seed);
        match once::run(&self.command, &request, seed, self.timeout) {
            Ok(out) => self
                .parse(&out.stdout)
                .map_err(|why| self.fail(format!("{why}{}", process::with_stderr(&out.stderr)))),
            Err(f) => {
                let stderr = f
                    .stderr
                    .as_deref()
                    .map_or(String::new(), process::with_stderr);
                Err(self.fail(format!("{}{stderr}", f.reason)))
            }
        }
    }
}

/// Most persistent evaluator processes: each is a process, with three threads here.
const MAX_WORKERS: usize = 1024;

/// Problem `command`: an external program ([`CommandProblem`]).
pub const COMMAND: super::def::ProblemDef = super::def::ProblemDef {
    name: "command",
    about: "an external program (needs a space file): mode=once runs it per evaluation, {\"seed\", \"point\"} JSON on stdin, fitness out; mode=worker keeps `workers` of them, one JSON line each way; each evaluation killed after `timeout` seconds",
    settings: &[
        ("cmd", "", "the program and its arguments"),
        (
            "features",
            "",
            "names of the features each reply reports, a,b,c",
        ),
        (
            "mode",
            "once",
            "once (a process per evaluation) or worker (persistent processes)",
        ),
        (
            "workers",
            "cores",
            "persistent processes with mode=worker (cores: one per core)",
        ),
        ("timeout", "600", "seconds before an evaluation is killed"),
    ],
    build: |v, space| {
        let cmd = v.get("cmd");
        if cmd.trim().is_empty() {
            return Err("problem `command` needs cmd=\"PROGRAM ARGS\"".into());
        }
        let space = space.ok_or(
            "problem `command` needs a space file: playtune cannot guess an external program's parameters",
        )?;
        let features = super::def::feature_list(v, "features")?;
        let timeout = v
            .positive("timeout")
            .map_err(|_| v.bad("timeout", "a timeout in seconds, a finite number above 0"))?;
        let timeout = Duration::try_from_secs_f64(timeout)
            .map_err(|_| v.bad("timeout", "a timeout it can count (that one is too long)"))?;
        let problem =
            CommandProblem::new(cmd.to_string(), space.clone(), features).with_timeout(timeout);
        let workers = v.get("workers");
        Ok(match v.choice("mode", &["once", "worker"])? {
            0 if workers != "cores" => {
                return Err(format!(
                    "workers={workers}: workers serve mode=worker; mode once starts a process per evaluation"
                )
                .into());
            }
            0 => Box::new(problem),
            _ => Box::new(problem.with_workers(if workers == "cores" {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            } else {
                v.count_in("workers", MAX_WORKERS)?
            })),
        })
    },
};

#[cfg(test)]
mod tests;
