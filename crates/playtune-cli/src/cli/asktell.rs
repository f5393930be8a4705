//! `playtune ask` and `playtune tell`: a run evaluated outside playtune. The run
//! folder is the whole state: `ask` replays the optimiser from the logs to the batch
//! it waits for and prints its candidates; `tell` appends results to the logs.

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use playtune::eval::{Problem, Reply, parse_reply, point_json};
use playtune::run::failures::FailureRow;
use playtune::run::log::LogRow;
use playtune::run::{self, Driven, RunConfig, Waiting};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Candidates handed out by `ask` and not yet told: a second `ask` gives others.
const ASKED_FILE: &str = "asked.jsonl";

#[derive(Args)]
pub(super) struct AskArgs {
    /// The run folder (made by `playtune optimize` or `map-elites` with
    /// `--problem manual`).
    run: PathBuf,
    /// Candidates to print at most. The optimiser can give no more than its current
    /// batch (NTBEA: one point per run) before it hears their results.
    #[arg(long, short, default_value_t = 1)]
    n: usize,
    /// Print candidates already handed out by an earlier `ask` too.
    #[arg(long)]
    again: bool,
}

#[derive(Args)]
pub(super) struct TellArgs {
    /// The run folder.
    run: PathBuf,
    /// JSON-lines results (default: standard input), one per candidate, in any order:
    /// {"id": 3, "fitness": 0.5, "features": {"kills": 2}} or {"id": 3, "error": "why"};
    /// add "trial": T for a run of several trials.
    file: Option<PathBuf>,
    /// Print one JSON object as the last line of output.
    #[arg(long)]
    json: bool,
}

fn load(dir: &Path) -> Result<(RunConfig, Box<dyn Problem>)> {
    let config = playtune::registry::read_config(dir).map_err(anyhow::Error::msg)?;
    // `ask` and `tell` play nothing: a game named by a file is the game the run
    // recorded, never the code the folder names.
    let problem = playtune::registry::recorded_problem(dir, &config).map_err(anyhow::Error::msg)?;
    Ok((config, problem))
}

fn read_asked(dir: &Path) -> HashSet<(u64, u64)> {
    std::fs::read_to_string(dir.join(ASKED_FILE))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| Some((v["trial"].as_u64()?, v["id"].as_u64()?)))
        .collect()
}

/// Rewrites `asked.jsonl` whole, never appends: each candidate still waited for that
/// `handed` says was handed out, once, so `--again` and told results do not make it
/// grow.
fn write_asked(dir: &Path, waiting: &[Waiting], handed: impl Fn((u64, u64)) -> bool) -> Result<()> {
    let mut record = String::new();
    for w in waiting {
        if handed((w.trial, w.index)) {
            record.push_str(&serde_json::json!({"trial": w.trial, "id": w.index}).to_string());
            record.push('\n');
        }
    }
    let path = dir.join(ASKED_FILE);
    let unchanged = std::fs::read_to_string(&path).ok().as_deref() == Some(record.as_str());
    if !unchanged && (path.exists() || !record.is_empty()) {
        run::lock::write_whole(&path, record.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

pub(super) fn ask(a: AskArgs) -> Result<()> {
    if a.n == 0 {
        bail!("--n 0: ask for at least one candidate");
    }
    // Replaying writes the logs' header and `asked.jsonl`: one command at a time.
    let _lock = super::optimize::lock_run(&a.run)?;
    let (config, problem) = load(&a.run)?;
    let waiting = match run::replay(&a.run, &config, problem.as_ref())? {
        Driven::Finished(_) => {
            let _ = std::fs::remove_file(a.run.join(ASKED_FILE));
            eprintln!(
                "run {} is finished: its recommendation is in {}",
                a.run.display(),
                a.run.join(run::RESULT_FILE).display()
            );
            return Ok(());
        }
        Driven::Waiting { waiting, .. } => waiting,
    };
    let handed = read_asked(&a.run);
    let asked = if a.again {
        HashSet::new()
    } else {
        handed.clone()
    };
    let fresh: Vec<&Waiting> = waiting
        .iter()
        .filter(|w| !asked.contains(&(w.trial, w.index)))
        .take(a.n)
        .collect();
    let mut out = std::io::stdout().lock();
    for w in &fresh {
        let line = serde_json::json!({
            "id": w.index,
            "trial": w.trial,
            "seed": w.seed,
            "phase": w.phase.as_str(),
            "point": point_json(&config.space, &w.values),
        });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    let printed: HashSet<(u64, u64)> = fresh.iter().map(|w| (w.trial, w.index)).collect();
    write_asked(&a.run, &waiting, |key| {
        handed.contains(&key) || printed.contains(&key)
    })?;
    if fresh.len() < a.n {
        let handed_out = waiting
            .iter()
            .filter(|w| asked.contains(&(w.trial, w.index)))
            .count();
        eprintln!(
            "{} candidate(s) printed, {handed_out} handed out earlier wait for results: the optimiser needs its batch's results before it proposes more (`playtune ask {} --again` prints those again)",
            fresh.len(),
            a.run.display()
        );
    }
    Ok(())
}

/// One result line, checked against what the run waits for.
enum Told {
    Evaluation(playtune::eval::Evaluation),
    Failure(String),
}

fn parse_result(
    text: &str,
    features: &[String],
    trials: u64,
) -> Result<((u64, u64), Told), String> {
    // A line that is no JSON gets the worker protocol's message (it names NaN,
    // infinities and out-of-range numbers).
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        parse_reply(features, 0, text)
            .err()
            .map_or_else(|| format!("not valid JSON ({e})"), |e| e.to_string())
    })?;
    let id = v
        .get("id")
        .and_then(|i| i.as_u64())
        .ok_or("no numeric `id` (the id `playtune ask` printed)")?;
    let trial = match v.get("trial") {
        None if trials == 1 => 0,
        None => return Err(format!("no `trial`: the run has {trials} trials")),
        Some(t) => t.as_u64().ok_or("`trial` is not a whole number")?,
    };
    // Read as a worker's reply is read: the same checks, the same messages.
    let told = match parse_reply(features, id, text).map_err(|e| e.to_string())? {
        Reply::Done(e) => Told::Evaluation(e),
        Reply::Refused(why) => Told::Failure(why),
    };
    Ok(((trial, id), told))
}

/// What a run's logs hold for the results told that it no longer waits for: `tell`
/// of a result already recorded is a no-op, a different one is refused.
struct Recorded {
    rows: BTreeMap<(u64, u64), playtune::eval::Evaluation>,
    failures: BTreeMap<(u64, u64), String>,
}

impl Recorded {
    fn read(dir: &Path, config: &RunConfig, features: &[String]) -> Result<Recorded> {
        let log = dir.join(run::files::LOG_FILE);
        let rows = if log.exists() {
            run::log::read_log(&log, &config.space, features)
                .map_err(anyhow::Error::msg)?
                .rows
                .into_iter()
                .map(|(_, r)| ((r.trial, r.index), r.eval))
                .collect()
        } else {
            BTreeMap::new()
        };
        let failures =
            run::failures::read_failures(&dir.join(run::files::FAILURES_FILE), Some(config))
                .map_err(anyhow::Error::msg)?
                .into_iter()
                .filter(|(k, _)| !rows.contains_key(k))
                .map(|(k, f)| (k, f.reason))
                .collect();
        Ok(Recorded { rows, failures })
    }

    /// Whether `told` is what the logs hold for `key`: Some(true) the same, Some(false)
    /// another result (described), None when nothing is recorded.
    fn same(&self, key: (u64, u64), told: &Told) -> Option<Result<(), String>> {
        let recorded = match (self.rows.get(&key), self.failures.get(&key)) {
            (Some(e), _) => Told::Evaluation(e.clone()),
            (None, Some(r)) => Told::Failure(r.clone()),
            (None, None) => return None,
        };
        let same = match (&recorded, told) {
            (Told::Evaluation(a), Told::Evaluation(b)) => a == b,
            (Told::Failure(a), Told::Failure(b)) => a == b,
            _ => false,
        };
        Some(if same {
            Ok(())
        } else {
            Err(format!(
                "trial {} id {} is recorded already as {}, and this line says {}: a recorded result is never replaced; nothing was recorded",
                key.0,
                key.1,
                describe(&recorded),
                describe(told)
            ))
        })
    }
}

fn describe(t: &Told) -> String {
    match t {
        Told::Evaluation(e) if e.features.is_empty() => format!("fitness {}", e.fitness),
        Told::Evaluation(e) => format!("fitness {} with features {:?}", e.fitness, e.features),
        Told::Failure(why) => format!("failed ({why:?})"),
    }
}

pub(super) fn tell(a: TellArgs) -> Result<()> {
    let source = a
        .file
        .as_ref()
        .map_or_else(|| "standard input".to_string(), |p| p.display().to_string());
    // The results are read before the folder is locked: a slow pipe does not hold it.
    let text = match &a.file {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?
        }
        None => std::io::read_to_string(std::io::stdin().lock())
            .with_context(|| format!("cannot read {source}"))?,
    };
    let _lock = super::optimize::lock_run(&a.run)?;
    let (config, problem) = load(&a.run)?;
    let (waiting, finished) = match run::replay(&a.run, &config, problem.as_ref())? {
        Driven::Finished(_) => (Vec::new(), true),
        Driven::Waiting { waiting, .. } => (waiting, false),
    };
    let by_key: BTreeMap<(u64, u64), &Waiting> =
        waiting.iter().map(|w| ((w.trial, w.index), w)).collect();
    let features = problem.feature_names();
    let mut told: BTreeMap<(u64, u64), Told> = BTreeMap::new();
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut already = 0usize;
    let mut recorded: Option<Recorded> = None;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |m: String| anyhow!("{source}:{}: {m}", n + 1);
        let (key, result) = parse_result(line, &features, config.trials).map_err(at)?;
        if !seen.insert(key) {
            return Err(at(format!(
                "trial {} id {} is told twice; nothing was recorded",
                key.0, key.1
            )));
        }
        if by_key.contains_key(&key) {
            told.insert(key, result);
            continue;
        }
        if recorded.is_none() {
            recorded = Some(Recorded::read(&a.run, &config, &features)?);
        }
        match recorded.as_ref().and_then(|r| r.same(key, &result)) {
            Some(Ok(())) => already += 1,
            Some(Err(conflict)) => return Err(at(conflict)),
            None if finished => bail!(
                "run {} is finished: it waits for no results ({source}:{}: trial {} id {} was never asked)",
                a.run.display(),
                n + 1,
                key.0,
                key.1
            ),
            None => {
                return Err(at(format!(
                    "trial {} id {} is not waiting for a result (not asked yet); nothing was recorded",
                    key.0, key.1
                )));
            }
        }
    }
    if told.is_empty() && (already > 0 || finished) {
        if already == 0 {
            bail!(
                "run {} is finished: it waits for no results",
                a.run.display()
            );
        }
        if finished {
            let _ = std::fs::remove_file(a.run.join(ASKED_FILE));
        }
        println!(
            "nothing to record: the {already} result(s) of {source} are recorded already with the same values; {}",
            if finished {
                format!("run {} is finished", a.run.display())
            } else {
                format!(
                    "{} candidate(s) wait: `playtune ask {}`",
                    waiting.len(),
                    a.run.display()
                )
            }
        );
        return Ok(());
    }
    // Every line checked: now all are recorded, or (an I/O error) none is reused.
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for (key, result) in &told {
        let w = by_key[key];
        match result {
            Told::Evaluation(e) => rows.push(LogRow {
                trial: w.trial,
                index: w.index,
                phase: w.phase,
                seed: w.seed,
                values: w.values.clone(),
                eval: e.clone(),
            }),
            Told::Failure(reason) => failures.push(FailureRow {
                trial: w.trial,
                index: w.index,
                phase: w.phase,
                seed: w.seed,
                point: FailureRow::point_by_name(&config.space, &w.values),
                values: w.values.clone(),
                reason: reason.clone(),
                attempts: 1,
            }),
        }
    }
    run::append_results(&a.run, &config.space, &features, &rows, &failures)
        .map_err(anyhow::Error::msg)?;
    let skipped = if already > 0 {
        format!("; {already} recorded already with the same values, skipped")
    } else {
        String::new()
    };
    match run::replay(&a.run, &config, problem.as_ref())? {
        Driven::Finished(result) => {
            let _ = std::fs::remove_file(a.run.join(ASKED_FILE));
            if already > 0 {
                eprintln!("told {} result(s){skipped}", told.len());
            }
            super::optimize::report(&a.run, &config, problem.as_ref(), &result, 0.0, a.json);
        }
        Driven::Waiting { waiting: w, .. } => {
            let handed = read_asked(&a.run);
            write_asked(&a.run, &w, |key| handed.contains(&key))?;
            println!(
                "told {} result(s) ({} failed){skipped}; {} candidate(s) wait: `playtune ask {}`",
                told.len(),
                failures.len(),
                w.len(),
                a.run.display()
            );
        }
    }
    Ok(())
}
