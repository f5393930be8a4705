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

/// Why talking to Slurm failed. The messages name no command-line flag: the command
/// line says which of its flags the extra sbatch options and the executor came from.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    #[error(
        "`{0}` is not on the PATH: running on Slurm needs its command-line tools (sbatch, squeue, scancel) on this machine, the cluster's login node"
    )]
    /// A Slurm tool not on the PATH.
    Missing(&'static str),
    /// A Slurm tool that failed.
    #[error("`{command}` failed ({status}): {stderr}")]
    Failed {
        /// The command run.
        command: String,
        /// Its exit status.
        status: String,
        /// What it printed on standard error.
        stderr: String,
    },
    /// `sbatch` printed no job id.
    #[error("`{command}` printed `{output}`, not a job id")]
    NoJobId {
        /// The command run.
        command: String,
        /// What it printed.
        output: String,
    },
    /// The caller stopped the wait ([`super::SlurmOptions::stop`]).
    #[error(
        "stopped while waiting for the cluster: the tasks submitted go on, and the same call again collects them"
    )]
    Stopped,
    /// Extra sbatch options that do not split into words.
    #[error("sbatch options `{0}`: unbalanced quotes")]
    BadArgs(String),
    /// An extra sbatch option that playtune sets itself.
    #[error(
        "the sbatch options set {0}, which playtune sets itself for each array (the work items, the job's name, where task logs go, the job script)"
    )]
    Reserved(String),
    /// A word of the extra sbatch options that is none.
    #[error("`{0}` is not an sbatch option: {1}")]
    NotAnOption(String, &'static str),
}

/// Whether a program is on the PATH.
pub(crate) fn on_path(program: &str) -> bool {
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

/// How an sbatch option takes its argument (getopt's `has_arg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arg {
    No,
    Required,
    Optional,
}

/// sbatch's options (Slurm 25.x, `src/common/slurm_opt.c`: every option with a
/// common or an sbatch setter): long name, argument, short letter. sbatch reads them
/// with `getopt_long`, so a long option may be abbreviated to any prefix that no other
/// option shares, and a short one may carry its argument attached (`-a1-3`) or follow
/// other short flags (`-Ha1-3`). A cluster's plugins may add options; they can only
/// make a prefix ambiguous (which sbatch then refuses), never make one reach another
/// option.
const SBATCH_OPTIONS: &[(&str, Arg, Option<char>)] = {
    use Arg::{No as N, Optional as O, Required as R};
    &[
        ("account", R, Some('A')),
        ("acctg-freq", R, None),
        ("array", R, Some('a')),
        ("autocomplete", R, None),
        ("batch", R, None),
        ("bb", R, None),
        ("bbf", R, None),
        ("begin", R, Some('b')),
        ("chdir", R, Some('D')),
        ("cluster", R, None),
        ("cluster-constraint", R, None),
        ("clusters", R, Some('M')),
        ("comment", R, None),
        ("consolidate-segments", N, None),
        ("constraint", R, Some('C')),
        ("container", R, None),
        ("container-id", R, None),
        ("context", R, None),
        ("contiguous", N, None),
        ("core-spec", R, Some('S')),
        ("cores-per-socket", R, None),
        ("cpu-freq", R, None),
        ("cpus-per-gpu", R, None),
        ("cpus-per-task", R, Some('c')),
        ("deadline", R, None),
        ("delay-boot", R, None),
        ("dependency", R, Some('d')),
        ("distribution", R, Some('m')),
        ("error", R, Some('e')),
        ("exclude", R, Some('x')),
        ("exclusive", O, None),
        ("export", R, None),
        ("export-file", R, None),
        ("external", N, None),
        ("extra", R, None),
        ("extra-node-info", R, Some('B')),
        ("get-user-env", N, None),
        ("gid", R, None),
        ("gpu-bind", R, None),
        ("gpu-freq", R, None),
        ("gpus", R, Some('G')),
        ("gpus-per-node", R, None),
        ("gpus-per-socket", R, None),
        ("gpus-per-task", R, None),
        ("gres", R, None),
        ("gres-flags", R, None),
        ("help", N, Some('h')),
        ("hint", R, None),
        ("hold", N, Some('H')),
        ("ignore-pbs", N, None),
        ("input", R, Some('i')),
        ("job-name", R, Some('J')),
        ("kill-on-invalid-dep", R, None),
        ("licenses", R, Some('L')),
        ("mail-type", R, None),
        ("mail-user", R, None),
        ("mcs-label", R, None),
        ("mem", R, None),
        ("mem-bind", R, None),
        ("mem-per-cpu", R, None),
        ("mem-per-gpu", R, None),
        ("mem-update", R, None),
        ("mincpus", R, None),
        ("network", R, None),
        ("nice", O, None),
        ("no-kill", O, Some('k')),
        ("no-requeue", N, None),
        ("nodefile", R, Some('F')),
        ("nodelist", R, Some('w')),
        ("nodes", R, Some('N')),
        ("ntasks", R, Some('n')),
        ("ntasks-per-core", R, None),
        ("ntasks-per-gpu", R, None),
        ("ntasks-per-node", R, None),
        ("ntasks-per-socket", R, None),
        ("ntasks-per-tres", R, None),
        ("oom-kill-step", O, None),
        ("open-mode", R, None),
        ("output", R, Some('o')),
        ("overcommit", N, Some('O')),
        ("oversubscribe", N, Some('s')),
        ("parsable", N, None),
        ("partition", R, Some('p')),
        ("prefer", R, None),
        ("priority", R, None),
        ("profile", R, None),
        ("propagate", O, None),
        ("qos", R, Some('q')),
        ("quiet", N, Some('Q')),
        ("reboot", N, None),
        ("requeue", O, None),
        ("reservation", R, None),
        ("resources", R, None),
        ("resv-ports", O, None),
        ("runtime", R, None),
        ("segment", R, None),
        ("signal", R, None),
        ("sockets-per-node", R, None),
        ("spread-job", N, None),
        ("spread-segments", N, None),
        ("stepmgr", N, None),
        ("switches", R, None),
        ("tasks-per-node", R, None),
        ("test-only", N, None),
        ("thread-spec", R, None),
        ("threads-per-core", R, None),
        ("time", R, Some('t')),
        ("time-min", R, None),
        ("tmp", R, None),
        ("tres-bind", R, None),
        ("tres-per-task", R, None),
        ("uid", R, None),
        ("usage", N, None),
        ("use-min-nodes", N, None),
        ("verbose", N, Some('v')),
        ("version", N, Some('V')),
        ("wait", N, Some('W')),
        ("wait-all-nodes", R, None),
        ("wckey", R, None),
        ("wrap", R, None),
    ]
};

/// The options playtune sets itself for each array: the work items, the job's name,
/// where task logs go, and the job script (`--wrap` would replace it).
const RESERVED: [&str; 5] = ["array", "job-name", "output", "error", "wrap"];

/// The sbatch option a long option's name (without `--` and `=...`) stands for, as
/// `getopt_long` resolves it: the option of that exact name, else the only one it is a
/// prefix of (options sharing a short letter count as one). None: unknown or
/// ambiguous, which sbatch reports itself.
fn long_option(name: &str) -> Option<&'static (&'static str, Arg, Option<char>)> {
    if let Some(exact) = SBATCH_OPTIONS.iter().find(|o| o.0 == name) {
        return Some(exact);
    }
    if name.is_empty() {
        return None;
    }
    let mut found: Option<&(&str, Arg, Option<char>)> = None;
    for o in SBATCH_OPTIONS.iter().filter(|o| o.0.starts_with(name)) {
        match found {
            None => found = Some(o),
            Some(f) if f.1 == o.1 && f.2.is_some() && f.2 == o.2 => {}
            Some(_) => return None,
        }
    }
    found
}

fn short_option(c: char) -> Option<&'static (&'static str, Arg, Option<char>)> {
    SBATCH_OPTIONS.iter().find(|o| o.2 == Some(c))
}

/// Extra sbatch options split as a shell would, less the options playtune sets itself:
/// `--array`, `--job-name`, `--output`, `--error` and `--wrap` are refused in every spelling
/// sbatch accepts (`--output=x`, `--out x`, `-ox`, `-o x`, `-Hox`, ...). The words are
/// read as sbatch reads them, so an option's argument is never taken for an option
/// (`--comment --array` sets a comment). A word that is no option would end sbatch's
/// options there and be taken for the job script, so it is refused too.
pub fn split_args(args: &str) -> Result<Vec<String>, SlurmError> {
    let words = shlex::split(args).ok_or_else(|| SlurmError::BadArgs(args.to_string()))?;
    let reserved = |o: &(&str, Arg, Option<char>), word: &str| -> Result<(), SlurmError> {
        if RESERVED.contains(&o.0) {
            let spelling = if word.starts_with("--") || word.len() <= 2 {
                word.split('=').next().unwrap_or(word).to_string()
            } else {
                word.to_string()
            };
            let name = if spelling == format!("--{}", o.0) {
                format!("`{spelling}`")
            } else {
                format!("`--{}` (written `{spelling}`)", o.0)
            };
            return Err(SlurmError::Reserved(name));
        }
        Ok(())
    };
    // Whether the next word is the argument of the option before it (then it is never
    // read as an option); `maybe` when that option is unknown here and might take one.
    let mut argument_next = false;
    let mut maybe_argument_next = false;
    for w in &words {
        if std::mem::take(&mut argument_next) {
            continue;
        }
        let maybe = std::mem::take(&mut maybe_argument_next);
        if w == "--" {
            return Err(SlurmError::NotAnOption(
                w.clone(),
                "it ends sbatch's options, and the next word would be taken for the job script",
            ));
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            match long_option(name) {
                Some(o) => {
                    reserved(o, w)?;
                    argument_next = o.1 == Arg::Required && value.is_none();
                }
                // An option of a plugin, or a newer Slurm: its argument may follow.
                None => maybe_argument_next = value.is_none(),
            }
            continue;
        }
        if let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) {
            for (i, c) in flags.char_indices() {
                let Some(o) = short_option(c) else {
                    // sbatch refuses an unknown short option itself.
                    break;
                };
                reserved(o, w)?;
                match o.1 {
                    Arg::No => {}
                    // The rest of the word is the argument; a required one with
                    // nothing attached is the next word.
                    Arg::Required => {
                        argument_next = i + c.len_utf8() == flags.len();
                        break;
                    }
                    Arg::Optional => break,
                }
            }
            continue;
        }
        if !maybe {
            return Err(SlurmError::NotAnOption(
                w.clone(),
                "sbatch stops reading options at the first word that is none, and would take it for the job script",
            ));
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
pub(crate) fn submit(
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
pub(crate) fn parse_job_id(out: &str) -> Option<String> {
    let id = out.trim().split(';').next()?.trim();
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then(|| id.to_string())
}

/// One array task Slurm still knows about: pending, running or completing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Queued {
    /// Slurm's job id.
    pub job: String,
    /// The array task's index.
    pub task: usize,
    /// Slurm's state: PENDING, RUNNING, COMPLETING, ...
    pub state: String,
    /// Why it waits, or where it runs.
    pub reason: String,
}

impl Queued {
    pub(crate) fn is_running(&self) -> bool {
        !matches!(self.state.as_str(), "PENDING" | "CONFIGURING" | "REQUEUED")
    }
}

/// The array tasks of the jobs named `job_name` that are still in the queue.
pub(crate) fn queue(job_name: &str) -> Result<Vec<Queued>, SlurmError> {
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
pub(crate) fn parse_queue(text: &str) -> Vec<Queued> {
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
pub(crate) fn expand_indices(text: &str) -> Vec<usize> {
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
pub(crate) fn accounting(job: &str) -> Option<std::collections::BTreeMap<usize, String>> {
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
pub(crate) fn parse_accounting(text: &str) -> std::collections::BTreeMap<usize, String> {
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
pub(crate) fn job_name(folder_name: &str) -> String {
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
pub(crate) fn cancel(jobs: &[String]) -> Result<(), SlurmError> {
    if jobs.is_empty() {
        return Ok(());
    }
    run("scancel", jobs).map(|_| ())
}

#[cfg(test)]
mod fuzz;

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

    #[test]
    fn reserved_options_are_refused_in_every_spelling() {
        for args in [
            "--array=1-3",
            "--array 1-3",
            "-a1-3",
            "-a 1-3",
            "--ar=1",
            "--arr 1",
            "--arra=1",
            "--job-name=x",
            "-Jx",
            "-J x",
            "--j=x",
            "--jo x",
            "--job=x",
            "--job-n=x",
            "--output=x",
            "-ox",
            "--ou=x",
            "--out x",
            "--outp=x",
            "--error=x",
            "-ex",
            "--er=x",
            "--err x",
            "--erro=x",
            "-Ha1",
            "-vvJx",
            "-HQox",
            "--hold -a1",
            "--partition=cpu -oX",
            "--time 5 --err=x",
            "--wrap=true",
            "--wrap true",
            "--wr=true",
            "--wra true",
            "--partition=cpu --wrap='sleep 1'",
        ] {
            let e = split_args(args).expect_err(args);
            assert!(matches!(e, SlurmError::Reserved(_)), "{args}: {e}");
            assert!(e.to_string().contains("sets itself"), "{args}: {e}");
        }
    }

    #[test]
    fn arguments_and_other_options_pass_as_sbatch_reads_them() {
        for args in [
            "--partition=cpu --time=02:00:00",
            "-p cpu -t 5",
            "-pJ",
            "--comment --array=1",
            "--comment -Jx",
            "-p -o",
            "--exclusive --qos=low",
            "--exclusive=user",
            "-N2 -n 4 --mem 4G",
            "--a=1",
            "--o=1",
            "--e=1",
            "--my-plugin-option value",
        ] {
            assert!(split_args(args).is_ok(), "{args}: {:?}", split_args(args));
        }
        for args in [
            "script.sh",
            "--",
            "-- x",
            "--exclusive user",
            "-p cpu extra",
            "-",
        ] {
            let e = split_args(args).expect_err(args);
            assert!(matches!(e, SlurmError::NotAnOption(..)), "{args}: {e}");
        }
    }
}
