//! Slurm through its own command-line tools: `sbatch --array` submits, `squeue` says
//! what is pending or running, `scancel` cancels. No daemon of ours and no ssh: what
//! the cluster knows, it says through these, and what a task did, its own output says.
//!
//! What a task did is read from its output folder, written complete or not at all.
//! `sacct`, where the cluster keeps accounting, only adds the state Slurm ended a
//! failed task with (TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, ...) to the report; a
//! cluster without accounting (the test cluster) works the same without it.

use std::path::Path;
use std::process::Command;

/// Why talking to Slurm failed.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    #[error(
        "`{0}` is not on the PATH: --executor slurm needs Slurm's command-line tools (sbatch, squeue, scancel) on this machine, the cluster's login node; without a cluster, leave --executor at its default (local), or start the test cluster with scripts/slurm-test-cluster.sh"
    )]
    Missing(&'static str),
    #[error("`{command}` failed ({status}): {stderr}")]
    Failed {
        command: String,
        status: String,
        stderr: String,
    },
    #[error("`{command}` printed `{output}`, not a job id")]
    NoJobId { command: String, output: String },
    #[error("--slurm-args `{0}`: unbalanced quotes")]
    BadArgs(String),
    #[error(
        "--slurm-args sets `{0}`, which playtune sets itself for each array (the work items, the job's name, where task logs go)"
    )]
    Reserved(String),
}

/// Whether a program is on the PATH.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            let p = dir.join(program);
            std::fs::metadata(&p).is_ok_and(|m| m.is_file())
        })
    })
}

/// Checks that the tools playtune calls are there.
pub fn check_tools() -> Result<(), SlurmError> {
    for tool in ["sbatch", "squeue", "scancel"] {
        if !on_path(tool) {
            return Err(SlurmError::Missing(tool));
        }
    }
    Ok(())
}

/// `--slurm-args` split as a shell would, less the options playtune sets itself.
pub fn split_args(args: &str) -> Result<Vec<String>, SlurmError> {
    let words = shlex::split(args).ok_or_else(|| SlurmError::BadArgs(args.to_string()))?;
    for w in &words {
        let name = w.split('=').next().unwrap_or_default();
        if matches!(
            name,
            "--array" | "-a" | "--job-name" | "-J" | "--output" | "-o" | "--error" | "-e"
        ) {
            return Err(SlurmError::Reserved(name.to_string()));
        }
    }
    Ok(words)
}

fn run(program: &'static str, args: &[String]) -> Result<String, SlurmError> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SlurmError::Missing(program),
            _ => SlurmError::Failed {
                command: program.into(),
                status: "not started".into(),
                stderr: e.to_string(),
            },
        })?;
    if !out.status.success() {
        return Err(SlurmError::Failed {
            command: format!("{program} {}", args.join(" ")),
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Submits `script` as an array of `tasks` tasks (indices 0..tasks) named
/// `job_name`, each writing its output to `output` (`%A` the job, `%a` the task), and
/// returns the job id. These go on the command line, not in the script, so that no
/// path is split at a space. `extra` (the user's `--slurm-args`) comes before the
/// script, so it wins over the script's `#SBATCH` lines, as on any `sbatch` command
/// line.
pub fn submit(
    script: &Path,
    tasks: usize,
    job_name: &str,
    output: &Path,
    extra: &[String],
) -> Result<String, SlurmError> {
    let mut args = vec![
        "--parsable".to_string(),
        format!("--array=0-{}", tasks.saturating_sub(1)),
        format!("--job-name={job_name}"),
        format!("--output={}", output.display()),
    ];
    args.extend(extra.iter().cloned());
    args.push(script.display().to_string());
    let out = run("sbatch", &args)?;
    parse_job_id(&out).ok_or_else(|| SlurmError::NoJobId {
        command: format!("sbatch {}", args.join(" ")),
        output: out.trim().to_string(),
    })
}

/// `sbatch --parsable` prints `JOBID` or `JOBID;CLUSTER`.
pub fn parse_job_id(out: &str) -> Option<String> {
    let id = out.trim().split(';').next()?.trim();
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then(|| id.to_string())
}

/// One array task Slurm still knows about: pending, running or completing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    pub job: String,
    pub task: usize,
    /// Slurm's state: PENDING, RUNNING, COMPLETING, ...
    pub state: String,
    /// Why it waits, or where it runs.
    pub reason: String,
}

impl Queued {
    pub fn is_running(&self) -> bool {
        !matches!(self.state.as_str(), "PENDING" | "CONFIGURING" | "REQUEUED")
    }
}

/// The array tasks of the jobs named `job_name` that are still in the queue.
pub fn queue(job_name: &str) -> Result<Vec<Queued>, SlurmError> {
    let user = std::env::var("USER")
        .ok()
        .or_else(|| {
            run("id", &["-un".into()])
                .ok()
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_default();
    let mut args = vec![
        "--noheader".to_string(),
        "--array".into(),
        format!("--name={job_name}"),
        "--format=%F|%K|%T|%R".into(),
    ];
    if !user.is_empty() {
        args.push(format!("--user={user}"));
    }
    Ok(parse_queue(&run("squeue", &args)?))
}

/// Lines of `squeue --format=%F|%K|%T|%R`: array job id, task index (a range such as
/// `[4-7%2]` when tasks are not listed one by one), state, reason or node.
pub fn parse_queue(text: &str) -> Vec<Queued> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut f = line.trim().splitn(4, '|');
        let (Some(job), Some(tasks), Some(state)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        let reason = f.next().unwrap_or_default().to_string();
        for task in expand_indices(tasks) {
            out.push(Queued {
                job: job.trim().to_string(),
                task,
                state: state.trim().to_string(),
                reason: reason.clone(),
            });
        }
    }
    out
}

/// Expands an array index list such as `3`, `[0-3,7]` or `4-9%2` (the `%` part is a
/// throttle, not an index); what does not parse gives nothing.
pub fn expand_indices(text: &str) -> Vec<usize> {
    let text = text.trim().trim_start_matches('[').trim_end_matches(']');
    let text = text.split('%').next().unwrap_or_default();
    let mut out = Vec::new();
    for part in text.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                if let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) {
                    out.extend(a..=b);
                }
            }
            None => {
                if let Ok(a) = part.parse() {
                    out.push(a);
                }
            }
        }
    }
    out
}

/// How Slurm's accounting says each task of an array ended (`sacct`), by task index;
/// None where the cluster keeps no accounting or `sacct` is missing.
pub fn accounting(job: &str) -> Option<std::collections::BTreeMap<usize, String>> {
    if !on_path("sacct") {
        return None;
    }
    let out = run(
        "sacct",
        &[
            "--noheader".into(),
            "--parsable2".into(),
            format!("--jobs={job}"),
            "--format=JobID,State,ExitCode".into(),
        ],
    )
    .ok()?;
    Some(parse_accounting(&out))
}

/// Lines of `sacct --parsable2 --format=JobID,State,ExitCode`: `12_3|TIMEOUT|0:0`;
/// the job steps (`12_3.batch`) are left out.
pub fn parse_accounting(text: &str) -> std::collections::BTreeMap<usize, String> {
    let mut out = std::collections::BTreeMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.trim().split('|').collect();
        let [id, state, exit] = f[..] else { continue };
        let Some((_, task)) = id.split_once('_') else {
            continue;
        };
        if let Ok(task) = task.parse::<usize>() {
            out.insert(task, format!("{state} (exit {exit})"));
        }
    }
    out
}

/// A job name Slurm and people read easily: `playtune-` and the folder's name, with
/// anything but letters, digits, `.`, `_` and `-` made `_`.
pub fn job_name(folder_name: &str) -> String {
    let clean: String = folder_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("playtune-{clean}")
}

/// Cancels whole jobs (every task of each array).
pub fn cancel(jobs: &[String]) -> Result<(), SlurmError> {
    if jobs.is_empty() {
        return Ok(());
    }
    run("scancel", jobs).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_ids() {
        assert_eq!(parse_job_id("1234\n").as_deref(), Some("1234"));
        assert_eq!(parse_job_id("77;cluster\n").as_deref(), Some("77"));
        assert_eq!(parse_job_id("Submitted batch job 5"), None);
        assert_eq!(parse_job_id(""), None);
    }

    #[test]
    fn indices() {
        assert_eq!(expand_indices("3"), vec![3]);
        assert_eq!(expand_indices("[4-7]"), vec![4, 5, 6, 7]);
        assert_eq!(expand_indices("[0-1,5,8-9%2]"), vec![0, 1, 5, 8, 9]);
        assert_eq!(expand_indices("N/A"), Vec::<usize>::new());
    }

    #[test]
    fn queue_lines() {
        let q = parse_queue("12|4-5|PENDING|(Resources)\n12|0|RUNNING|node1\nbroken\n");
        assert_eq!(q.len(), 3);
        assert_eq!(q[0].task, 4);
        assert!(!q[1].is_running());
        assert!(q[2].is_running());
        assert_eq!(q[2].reason, "node1");
    }

    #[test]
    fn job_names() {
        assert_eq!(
            job_name("space-battle-paper"),
            "playtune-space-battle-paper"
        );
        assert_eq!(job_name("my run/é"), "playtune-my_run__");
    }

    #[test]
    fn accounting_lines() {
        let a = parse_accounting(
            "12_0|COMPLETED|0:0\n12_0.batch|COMPLETED|0:0\n12_1|TIMEOUT|0:0\n12_[2-3]|PENDING|0:0\n",
        );
        assert_eq!(a.len(), 2);
        assert_eq!(a[&1], "TIMEOUT (exit 0:0)");
    }

    #[test]
    fn user_args() {
        assert_eq!(
            split_args("--partition=cpu --time=02:00:00 --comment='two words'").unwrap(),
            vec!["--partition=cpu", "--time=02:00:00", "--comment=two words"]
        );
        assert!(matches!(
            split_args("--comment='open"),
            Err(SlurmError::BadArgs(_))
        ));
        assert!(matches!(
            split_args("--array=0-3"),
            Err(SlurmError::Reserved(_))
        ));
        assert!(matches!(
            split_args("-o x.out"),
            Err(SlurmError::Reserved(_))
        ));
        assert!(split_args("").unwrap().is_empty());
    }
}
