//! Learned state evaluation in the strategy game (Churchill and Buro's Prismata
//! method): self-play of a strong bot records one sample per turn, a network learns to
//! predict the winner, and HPS uses it at its leaves. The experiment reproduces the
//! paper's two tables:
//! - Table II: evaluations per second of the heuristic, the symmetric playout and the
//!   learned evaluator, counted inside HPS players that think for a fixed time per
//!   turn (the paper's protocol), and of the heuristic and the network called alone;
//! - Table III: the learned player's score (wins + draws / 2) against the heuristic
//!   and the playout players at equal thinking time per turn, and at an equal
//!   forward-model budget per turn; the playout player against the heuristic one as
//!   the reference the paper quotes (playout beat the resource heuristic).
//!
//! Each stage writes its file under `runs/NAME/` and is skipped when the file is
//! there, so an interrupted experiment goes on where it stopped; self-play itself
//! resumes game by game.

use super::Error;
use indicatif::ProgressBar;
use playtune::agents::{Hps, HpsConfig, HpsWork, LeafEvaluation, StateEvaluator, thread_cpu_time};
use playtune::game::{Acting, Agent, Game};
use playtune::games::strategy::def::learned_leaf;
use playtune::games::strategy::{Strategy, StrategyPhases, StrategyState};
use playtune::harness::{AgentSpec, DynGame, GameDef, GameRequest, Values};
use playtune::learn::samples::{SampleFile, SampleHeader, SampleWriter};
use playtune::learn::{EpochRecord, TrainConfig, Trained};
use playtune::rng::{derive_seed, rng_from_seed};
use playtune_report::plot::{Series, line_chart};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The sample file in a self-play folder.
pub(crate) const SAMPLES_FILE: &str = "samples.bin";

/// The paper's Table II, evaluations per second: resource heuristic, playout, learned.
pub(crate) const PAPER_TABLE_II: [(&str, f64); 3] = [
    ("heuristic", 8010.0),
    ("playout", 147.0),
    ("learned", 1766.0),
];
/// The paper's Table III: the learned player's score against the resource heuristic
/// and the playout players (6400 games each, 1000 ms a turn).
pub(crate) const PAPER_TABLE_III: [(&str, f64); 2] = [("heuristic", 0.664), ("playout", 0.588)];

fn bar(show: bool, len: u64, what: &str) -> ProgressBar {
    playtune_exec::progress::counting_bar(show, len, what)
}

/// What a self-play call did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfplayReport {
    /// The sample file.
    pub path: PathBuf,
    /// Games already in the file before this call.
    pub games_before: usize,
    /// Games this call played.
    pub games_played: usize,
    /// Samples in the file now.
    pub samples: usize,
    /// Bytes of a torn last record that were cut off.
    pub torn: u64,
}

/// Plays self-play games `0..games` of `req` into `out/samples.bin`, keeping every game
/// already there (same game, settings, agents, seed and encoding) and playing only
/// the missing ones. Games are written whole as they finish, so a run cut off keeps
/// every finished game.
pub fn selfplay(
    game: &dyn DynGame,
    req: &GameRequest,
    encoding: Option<&str>,
    games: usize,
    out: &Path,
    progress: bool,
) -> Result<SelfplayReport, Error> {
    if games == 0 {
        return Err(Error::NoGames);
    }
    let games32 = u32::try_from(games).map_err(|_| Error::TooManyGames(games))?;
    let encoding = game.encoding_named(encoding).map_err(|e| match e {
        playtune::harness::Error::NoEncoding { .. } => Error::NoEncoding(game.name().to_string()),
        other => Error::from(other),
    })?;
    // The settings as read where they were given: the default lineup and the header's
    // settings as played.
    let settings = &req.settings;
    let (agents, texts) = if req.agents.is_empty() {
        let texts = game.default_agents(settings)?;
        (AgentSpec::parse_all(&texts)?, texts)
    } else {
        let texts = req.agents.iter().map(ToString::to_string).collect();
        (req.agents.clone(), texts)
    };
    let header = SampleHeader {
        game: game.name().to_string(),
        settings: settings.pairs().to_vec(),
        agents: texts,
        budget: req.budget,
        seed: req.seed,
        encoding,
    };
    std::fs::create_dir_all(out).map_err(|e| Error::create(out, e))?;
    let path = out.join(SAMPLES_FILE);
    let (writer, done, torn) = if path.exists() {
        let (w, existing) = SampleWriter::resume(&path, &header)?;
        if let Some(m) = existing.damage_message(&path, "their games are played again") {
            eprintln!("{m}");
        }
        let done: HashSet<u32> = existing.games.iter().map(|g| g.game).collect();
        (w, done, existing.torn)
    } else {
        (SampleWriter::create(&path, &header)?, HashSet::new(), 0)
    };
    let todo: Vec<u32> = (0..games32).filter(|g| !done.contains(g)).collect();
    let bar = bar(progress, todo.len() as u64, "self-play games");
    let req = GameRequest {
        agents,
        settings: req.settings.clone(),
        budget: req.budget,
        seed: req.seed,
    };
    let played = game.selfplay(&req, Some(&header.encoding.name), &todo, &|g| {
        writer
            .append(&g)
            .map_err(|e| playtune::harness::Error::Sink(Box::new(e)))?;
        bar.inc(1);
        Ok(())
    });
    bar.finish_and_clear();
    writer.finish()?;
    played?;
    let file = SampleFile::read(&path)?;
    Ok(SelfplayReport {
        path,
        games_before: done.len(),
        games_played: todo.len(),
        samples: file.samples(),
        torn,
    })
}

/// Where a training run writes: the network, the run folder (`training.csv`,
/// `training.ron`) and the plot folder (`training.png`).
#[derive(Clone, Debug)]
pub struct TrainOutput {
    /// The trained network's file.
    pub model: PathBuf,
    /// The run folder.
    pub run_dir: PathBuf,
    /// The plot folder.
    pub plot_dir: PathBuf,
}

/// The sample file of `data`: the file itself, or `samples.bin` in a self-play folder.
pub(crate) fn sample_path(data: &Path) -> PathBuf {
    if data.is_dir() {
        data.join(SAMPLES_FILE)
    } else {
        data.to_path_buf()
    }
}

/// What `training.ron` records.
#[derive(Serialize)]
struct TrainingRecord<'a> {
    data: String,
    config: &'a TrainConfig,
    network: &'a playtune::learn::network::TrainingSummary,
    parameters: usize,
    encoding: &'a str,
    inputs: usize,
}

/// Trains a network on the samples of `data` (one or more self-play folders or sample
/// files, of one encoding) and writes it to `out.model`, with the per-epoch loss and
/// accuracy in `out.run_dir/training.csv` (written as epochs finish) and their curves
/// in `out.plot_dir/training.png`.
pub fn train_eval(
    data: &[&Path],
    config: &TrainConfig,
    out: &TrainOutput,
    progress: bool,
) -> Result<Trained, Error> {
    let mut files = Vec::new();
    for d in data {
        let path = sample_path(d);
        let samples = SampleFile::read(&path)?;
        if let Some(m) = samples.damage_message(
            &path,
            "left out of training (`playtune selfplay` with the file's settings plays them again)",
        ) {
            eprintln!("{m}");
        }
        if samples.torn > 0 && progress {
            eprintln!(
                "note: {}: the last game was cut short ({} bytes) and is left out",
                path.display(),
                samples.torn
            );
        }
        files.push((path.display().to_string(), samples));
    }
    let names: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
    let data_name = names.join(" + ");
    let samples = SampleFile::merge(files)?;
    let mkdir = |d: &Path| std::fs::create_dir_all(d).map_err(|e| Error::create(d, e));
    mkdir(&out.run_dir)?;
    mkdir(&out.plot_dir)?;
    let csv_path = out.run_dir.join("training.csv");
    let mut csv = std::fs::File::create(&csv_path).map_err(|e| Error::create(&csv_path, e))?;
    writeln!(
        csv,
        "epoch,train_loss,train_accuracy,validation_loss,validation_accuracy,seconds"
    )
    .map_err(|e| Error::file(&csv_path, e))?;
    let mut write_error = None;
    let trained = playtune::learn::train::train(
        &samples,
        &data_name,
        config,
        Some(&out.model),
        &mut |r| {
            if let Err(e) = writeln!(
                csv,
                "{},{:.6},{:.6},{:.6},{:.6},{:.2}",
                r.epoch,
                r.train_loss,
                r.train_accuracy,
                r.validation_loss,
                r.validation_accuracy,
                r.seconds
            ) {
                write_error.get_or_insert(Error::file(&csv_path, e));
            }
            if progress {
                eprintln!(
                    "epoch {:>3}: loss {:.4} / {:.4}, accuracy {:.3} / {:.3} (train / validation), {:.0} s",
                    r.epoch,
                    r.train_loss,
                    r.validation_loss,
                    r.train_accuracy,
                    r.validation_accuracy,
                    r.seconds
                );
            }
        },
    )?;
    if let Some(e) = write_error {
        return Err(e);
    }
    trained.network.save(&out.model)?;
    let record = TrainingRecord {
        data: data_name.clone(),
        config,
        network: &trained.network.header.training,
        parameters: trained.network.parameters(),
        encoding: &trained.network.header.encoding.name,
        inputs: trained.network.header.encoding.width(),
    };
    let text = ron::ser::to_string_pretty(&record, ron::ser::PrettyConfig::default())?;
    write_file(&out.run_dir.join("training.ron"), &text)?;
    plot_training(&out.plot_dir.join("training.png"), &trained.epochs)?;
    Ok(trained)
}

/// The training curves: accuracy and loss of both sets by epoch.
pub(crate) fn plot_training(path: &Path, epochs: &[EpochRecord]) -> Result<(), Error> {
    let series = |name: &str, f: fn(&EpochRecord) -> f64| Series {
        name: name.to_string(),
        points: epochs.iter().map(|e| (e.epoch as f64, f(e))).collect(),
        ..Series::default()
    };
    line_chart(
        path,
        "Learning to predict the winner: accuracy and loss by epoch",
        "epoch",
        "accuracy, loss",
        &[
            series("train accuracy", |e| e.train_accuracy),
            series("validation accuracy", |e| e.validation_accuracy),
            series("train loss", |e| e.train_loss),
            series("validation loss", |e| e.validation_loss),
        ],
    )?;
    Ok(())
}

/// The experiment's settings (see [`LearnedEvalConfig::quick`] and
/// [`LearnedEvalConfig::full`]).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct LearnedEvalConfig {
    pub(crate) name: String,
    pub(crate) seed: u64,
    /// Game settings over the strategy game's defaults.
    pub(crate) settings: Vec<(String, String)>,
    /// The bot that plays itself for the samples (the paper's Master Bot: HPS with
    /// playout evaluation).
    pub(crate) selfplay_agent: String,
    pub(crate) selfplay_games: usize,
    pub(crate) train: TrainConfig,
    /// States whose turn each evaluator's HPS plans for Table II.
    pub(crate) speed_states: usize,
    /// Thinking time per turn, ms, of the timed players (Tables II and III).
    pub(crate) time_ms: f64,
    /// Deepest search of the timed players (iterative deepening stops there or when
    /// time runs out).
    pub(crate) timed_depth: usize,
    /// Games per pairing at equal thinking time.
    pub(crate) timed_games: usize,
    /// Forward-model calls per turn at equal budget.
    pub(crate) calls: usize,
    /// Games per pairing at equal forward-model budget.
    pub(crate) budget_games: usize,
}

impl LearnedEvalConfig {
    /// A couple of minutes on 2 cores: 60 self-play games, a small network, 20 games
    /// a pairing at 5 ms a turn.
    pub(crate) fn quick(name: &str, seed: u64) -> Self {
        LearnedEvalConfig {
            name: name.to_string(),
            seed,
            settings: vec![("level".into(), "any".into())],
            selfplay_agent: "hps(leaf=playout,budget=5000)".into(),
            selfplay_games: 60,
            train: TrainConfig {
                hidden: vec![64, 64],
                epochs: 8,
                patience: 3,
                // A small network on little data learns in few epochs only at a
                // larger rate than the default.
                learning_rate: 1e-3,
                seed,
                ..TrainConfig::default()
            },
            speed_states: 20,
            time_ms: 5.0,
            timed_depth: 8,
            timed_games: 20,
            calls: 5000,
            budget_games: 20,
        }
    }

    /// The published run: 8000 self-play games of HPS with playouts (the paper's
    /// Master Bot is HPS with playouts too), the paper's 512-512 network, Table III
    /// from 300 games a pairing at 25 ms a turn and 500 at 20,000 calls a turn (about
    /// 90 minutes on 2 cores).
    pub(crate) fn full(name: &str, seed: u64) -> Self {
        LearnedEvalConfig {
            selfplay_agent: "hps(leaf=playout)".into(),
            selfplay_games: 8000,
            train: TrainConfig {
                // The paper's network; the other defaults, with a cap on epochs so the
                // run keeps to its time.
                hidden: vec![512, 512],
                epochs: 12,
                seed,
                ..TrainConfig::default()
            },
            speed_states: 200,
            time_ms: 25.0,
            timed_games: 300,
            calls: HpsConfig::default().budget,
            budget_games: 500,
            ..LearnedEvalConfig::quick(name, seed)
        }
    }
}

/// One row of Table II.
#[derive(Clone, Debug, Serialize, serde::Deserialize, PartialEq)]
pub(crate) struct SpeedRow {
    pub(crate) evaluator: String,
    /// Leaf evaluations per second of thinking inside HPS.
    pub(crate) in_search: f64,
    /// Evaluations per second of the evaluator called alone on the same states.
    pub(crate) alone: f64,
    pub(crate) leaves: u64,
    pub(crate) seconds: f64,
}

/// One row of Table III.
#[derive(Clone, Debug, Serialize, serde::Deserialize, PartialEq)]
pub(crate) struct MatchRow {
    /// "time" (equal thinking time) or "calls" (equal forward-model budget).
    pub(crate) protocol: String,
    pub(crate) player: String,
    pub(crate) opponent: String,
    pub(crate) games: usize,
    pub(crate) wins: usize,
    pub(crate) draws: usize,
    pub(crate) losses: usize,
    /// (wins + draws / 2) / games, and its standard error.
    pub(crate) score: f64,
    pub(crate) se: f64,
}

impl MatchRow {
    fn new(
        protocol: &str,
        player: &str,
        opponent: &str,
        games: usize,
        wins_a: usize,
        wins_b: usize,
    ) -> Self {
        // A draw counts as a win for both in the tournament's win counts.
        let draws = (wins_a + wins_b).saturating_sub(games);
        let wins = wins_a - draws;
        let losses = wins_b - draws;
        let n = games.max(1) as f64;
        let score = (wins as f64 + draws as f64 / 2.0) / n;
        let second = (wins as f64 + draws as f64 / 4.0) / n;
        let var = (second - score * score).max(0.0) * n / (n - 1.0).max(1.0);
        MatchRow {
            protocol: protocol.into(),
            player: player.into(),
            opponent: opponent.into(),
            games,
            wins,
            draws,
            losses,
            score,
            se: (var / n).sqrt(),
        }
    }
}

/// Turn-start states of games between default HPS players (seeded), `n` of them,
/// spread over the games' lengths.
fn sample_states(x: &LearnedEvalConfig, n: usize) -> Result<Vec<StrategyState>, Error> {
    let values = Values::new(
        "game `strategy`",
        &GameDef::settings(&Strategy),
        &x.settings,
    )?;
    let rules = Strategy.rules(&values)?;
    let mut states = Vec::new();
    let mut game = 0u64;
    while states.len() < n {
        let seed = derive_seed(x.seed, &[0x5350_4545, game]);
        let start = Strategy.new_state(&rules, seed)?;
        let players = Arc::new(StrategyPhases);
        let mut a = Hps::new(HpsConfig::default(), players.clone());
        let mut b = Hps::new(HpsConfig::default(), players);
        let mut agents: [&mut dyn Agent<StrategyState>; 2] = [&mut a, &mut b];
        let mut last = None;
        let mut turn = 0usize;
        playtune::harness::play::play(
            start,
            &mut agents,
            &[0, 1],
            playtune::harness::play::AGENTS,
            seed,
            &mut |s, _| {
                if last != Some(s.acting()) {
                    last = Some(s.acting());
                    // Every third turn start, so that one game does not fill the set.
                    if turn % 3 == 1 && states.len() < n {
                        states.push(s.clone());
                    }
                    turn += 1;
                }
            },
        )?;
        game += 1;
    }
    Ok(states)
}

/// Table II: each evaluator's HPS plans one turn from every state, thinking
/// `x.time_ms`; evaluations per second of thinking. Then the heuristic and the
/// network alone on the same states.
pub(crate) fn speeds(
    x: &LearnedEvalConfig,
    learned: &Arc<dyn StateEvaluator<StrategyState>>,
) -> Result<Vec<SpeedRow>, Error> {
    let states = sample_states(x, x.speed_states)?;
    let timed = |leaf: LeafEvaluation| HpsConfig {
        depth: x.timed_depth,
        leaf,
        budget: usize::MAX,
        time: Some(Duration::from_secs_f64(x.time_ms / 1e3)),
        ..HpsConfig::default()
    };
    let mut rows = Vec::new();
    for (name, leaf) in [
        ("heuristic", LeafEvaluation::Heuristic),
        ("playout", LeafEvaluation::Playout),
        ("learned", LeafEvaluation::Learned),
    ] {
        let work: Vec<HpsWork> = states
            .par_iter()
            .enumerate()
            .map(|(i, s)| {
                let mut agent = Hps::new(timed(leaf), Arc::new(StrategyPhases));
                if leaf == LeafEvaluation::Learned {
                    agent = agent.with_evaluator(learned.clone());
                }
                let Acting::Player(p) = s.acting() else {
                    return HpsWork::default();
                };
                let mut rng = rng_from_seed(derive_seed(x.seed, &[0x5350_4545, 1, i as u64]));
                agent.act(s, p, &mut rng);
                agent.work()
            })
            .collect();
        let leaves: u64 = work.iter().map(|w| w.leaves).sum();
        let seconds: f64 = work.iter().map(|w| w.thinking.as_secs_f64()).sum();
        // Alone: every state valued for both players by the agent's own leaf
        // evaluation, `repeats` times over (a playout is far slower: fewer repeats).
        let alone = {
            let mut agent = Hps::new(timed(leaf), Arc::new(StrategyPhases));
            if leaf == LeafEvaluation::Learned {
                agent = agent.with_evaluator(learned.clone());
            }
            let repeats = if leaf == LeafEvaluation::Playout {
                1
            } else {
                10
            };
            let mut rng = rng_from_seed(derive_seed(x.seed, &[0x5350_4545, 2]));
            let start = thread_cpu_time();
            let mut sink = 0.0;
            let mut calls = 0u64;
            for _ in 0..repeats {
                for s in &states {
                    for p in 0..2 {
                        sink += agent.leaf_value(s, p, &mut rng);
                        calls += 1;
                    }
                }
            }
            std::hint::black_box(sink);
            let t = (thread_cpu_time() - start).as_secs_f64();
            calls as f64 / t.max(1e-9)
        };
        rows.push(SpeedRow {
            evaluator: name.to_string(),
            in_search: leaves as f64 / seconds.max(1e-9),
            alone,
            leaves,
            seconds,
        });
    }
    Ok(rows)
}

/// Table III: the pairings at equal thinking time and at equal forward-model budget.
pub(crate) fn matches(
    x: &LearnedEvalConfig,
    exec: &dyn playtune_exec::Executor,
    model: &Path,
    progress: bool,
) -> Result<Vec<MatchRow>, Error> {
    let model = model.display().to_string();
    let timed = |leaf: &str| {
        format!(
            "hps(leaf={leaf},time={},depth={},budget=max)",
            x.time_ms, x.timed_depth
        )
    };
    let called = |leaf: &str| format!("hps(leaf={leaf},budget={})", x.calls);
    let learned = format!("learned:{model}");
    let mut pairings = Vec::new();
    for (protocol, games, spec) in [
        ("time", x.timed_games, &timed as &dyn Fn(&str) -> String),
        ("calls", x.budget_games, &called),
    ] {
        pairings.push((
            protocol,
            games,
            "learned",
            spec(&learned),
            "heuristic",
            spec("heuristic"),
        ));
        pairings.push((
            protocol,
            games,
            "learned",
            spec(&learned),
            "playout",
            spec("playout"),
        ));
        pairings.push((
            protocol,
            games,
            "playout",
            spec("playout"),
            "heuristic",
            spec("heuristic"),
        ));
    }
    let mut rows = Vec::new();
    for (k, (protocol, games, a, spec_a, b, spec_b)) in pairings.into_iter().enumerate() {
        if progress {
            eprintln!("{protocol}: {a} against {b}, {games} games");
        }
        let req = GameRequest {
            settings: DynGame::settings_values(&Strategy, &x.settings)?,
            agents: AgentSpec::parse_all(&[spec_a, spec_b])?,
            budget: None,
            seed: derive_seed(x.seed, &[0x4d41_5443, k as u64]),
        };
        let r = playtune_exec::tournament(
            exec,
            &format!("matches-{k}"),
            GameDef::name(&Strategy),
            &req,
            games,
        )?;
        rows.push(MatchRow::new(
            protocol,
            a,
            b,
            r.games,
            r.agents[0].wins,
            r.agents[1].wins,
        ));
    }
    Ok(rows)
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    playtune::run::lock::write_whole(path, text).map_err(|e| Error::write(path, e))
}

fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), Error> {
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        let value = serde_json::to_value(r)?;
        let object = value.as_object().ok_or(Error::RowNotAnObject)?;
        if i == 0 {
            out.push_str(&object.keys().cloned().collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        let cells: Vec<String> = object
            .values()
            .map(|v| match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                other => other.to_string(),
            })
            .collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    write_file(path, &out)
}

/// The rows of stage `name`: read from `dir/NAME.ron` unless `stale` or missing, else
/// computed and written there and to `dir/NAME.csv`. A file that does not read, or
/// whose rows `check` refuses (it names the row and field), is named on standard
/// error and its stage run again.
fn stage<T: Serialize + for<'de> serde::Deserialize<'de>>(
    dir: &Path,
    name: &str,
    stale: bool,
    check: impl Fn(&[T]) -> Result<(), String>,
    compute: impl FnOnce() -> Result<Vec<T>, Error>,
) -> Result<Vec<T>, Error> {
    let path = dir.join(format!("{name}.ron"));
    if !stale && let Ok(text) = std::fs::read_to_string(&path) {
        match ron::from_str::<Vec<T>>(&text)
            .map_err(|e| playtune::run::ron_error(&path, &e))
            .and_then(|rows| {
                check(&rows).map_err(|m| format!("{}: {m}", path.display()))?;
                Ok(rows)
            }) {
            Ok(rows) => return Ok(rows),
            Err(m) => eprintln!("warning: {m}; the stage is run again"),
        }
    }
    let rows = compute()?;
    let text = ron::ser::to_string_pretty(&rows, ron::ser::PrettyConfig::default())?;
    write_file(&path, &text)?;
    write_csv(&dir.join(format!("{name}.csv")), &rows)?;
    Ok(rows)
}

/// Table II's rows as [`speeds`] writes them: heuristic, playout, learned, with
/// finite rates of at least 0.
pub(crate) fn check_speed_rows(rows: &[SpeedRow]) -> Result<(), String> {
    let names: Vec<&str> = rows.iter().map(|r| r.evaluator.as_str()).collect();
    if names != ["heuristic", "playout", "learned"] {
        return Err(format!(
            "evaluators {names:?}: the table has heuristic, playout and learned"
        ));
    }
    for (i, r) in rows.iter().enumerate() {
        for (field, v) in [
            ("in_search", r.in_search),
            ("alone", r.alone),
            ("seconds", r.seconds),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "row {i}: {field} {v}: not a finite number of at least 0"
                ));
            }
        }
    }
    Ok(())
}

/// Table III's rows as [`matches()`] writes them for `x`: each pairing's games as the
/// preset plays them, wins, draws and losses adding up to them, and the score and
/// its standard error those counts give.
pub(crate) fn check_match_rows(x: &LearnedEvalConfig, rows: &[MatchRow]) -> Result<(), String> {
    if rows.len() != 6 {
        return Err(format!("{} rows: the table has 6", rows.len()));
    }
    for (i, r) in rows.iter().enumerate() {
        let (protocol, games) = if i < 3 {
            ("time", x.timed_games)
        } else {
            ("calls", x.budget_games)
        };
        if r.protocol != protocol {
            return Err(format!(
                "row {i}: protocol {:?}, not {protocol:?}",
                r.protocol
            ));
        }
        if r.games != games {
            return Err(format!(
                "row {i}: games {}: the preset plays {games}",
                r.games
            ));
        }
        if r.wins
            .checked_add(r.draws)
            .and_then(|n| n.checked_add(r.losses))
            != Some(r.games)
        {
            return Err(format!(
                "row {i}: wins {} + draws {} + losses {} are not its {} games",
                r.wins, r.draws, r.losses, r.games
            ));
        }
        let expected = MatchRow::new(
            protocol,
            &r.player,
            &r.opponent,
            r.games,
            r.wins + r.draws,
            r.losses + r.draws,
        );
        let close = |a: f64, b: f64| a.is_finite() && (a - b).abs() <= 1e-9;
        if !close(r.score, expected.score) || !close(r.se, expected.se) {
            return Err(format!(
                "row {i}: score {} ± {}: its counts give {} ± {}",
                r.score, r.se, expected.score, expected.se
            ));
        }
    }
    Ok(())
}

/// Runs the experiment into `runs_dir/NAME` and `plots_dir/NAME`, skipping stages
/// already done; returns the summary's text.
pub(crate) fn run(
    x: &LearnedEvalConfig,
    exec: &dyn playtune_exec::Executor,
    runs_dir: &Path,
    plots_dir: &Path,
    progress: bool,
) -> Result<String, Error> {
    let dir = runs_dir.join(&x.name);
    let plots = plots_dir.join(&x.name);
    std::fs::create_dir_all(&dir).map_err(|e| Error::create(&dir, e))?;
    let config_text = ron::ser::to_string_pretty(x, ron::ser::PrettyConfig::default())?;
    write_file(&dir.join("experiment.ron"), &config_text)?;

    // 1. Self-play.
    let req = GameRequest {
        settings: DynGame::settings_values(&Strategy, &x.settings)?,
        agents: AgentSpec::parse_all(&[&x.selfplay_agent, &x.selfplay_agent])?,
        budget: None,
        seed: x.seed,
    };
    let data = dir.join("selfplay");
    let started = std::time::Instant::now();
    let report = selfplay(&Strategy, &req, None, x.selfplay_games, &data, progress)?;
    if progress {
        eprintln!(
            "self-play: {} games ({} new) and {} samples in {}, {:.0} s",
            report.games_before + report.games_played,
            report.games_played,
            report.samples,
            report.path.display(),
            started.elapsed().as_secs_f64()
        );
    }

    // 2. Training.
    let model = dir.join("strategy.evalnet");
    let out = TrainOutput {
        model: model.clone(),
        run_dir: dir.clone(),
        plot_dir: plots.clone(),
    };
    // New games retrain the network, and a new network redoes the tables.
    let stale = !model.exists() || report.games_played > 0;
    if stale {
        train_eval(&[data.as_path()], &x.train, &out, progress)?;
    }
    let network = playtune::learn::Network::load(&model)?;
    let learned =
        learned_leaf(&format!("learned:{}", model.display()))?.ok_or(Error::LearnedNotLoaded)?;
    let speed = stage(&dir, "speed", stale, check_speed_rows, || {
        speeds(x, &learned)
    })?;
    let matches = stage(
        &dir,
        "matches",
        stale,
        |rows| check_match_rows(x, rows),
        || matches(x, exec, &model, progress),
    )?;
    let summary = summary(x, &network, &speed, &matches);
    write_file(&dir.join("summary.md"), &summary)?;
    Ok(summary)
}

/// The tables as markdown, beside the paper's figures.
pub(crate) fn summary(
    x: &LearnedEvalConfig,
    network: &playtune::learn::Network,
    speed: &[SpeedRow],
    matches: &[MatchRow],
) -> String {
    let t = &network.header.training;
    let mut s = format!(
        "# Learned state evaluation in the strategy game ({})\n\n\
         Self-play: {} games of `{}` against itself; {} training and {} validation samples \
         ({} and {} games).\n\
         Network: {} inputs (encoding `{}`), hidden {:?}, {} parameters; kept epoch {} of {}, \
         validation loss {:.4}, accuracy {:.3}.\n\n",
        x.name,
        x.selfplay_games,
        x.selfplay_agent,
        t.train_samples,
        t.validation_samples,
        t.train_games,
        t.validation_games,
        network.header.encoding.width(),
        network.header.encoding.name,
        network.header.hidden,
        network.parameters(),
        t.epoch,
        t.epochs_run,
        t.validation_loss,
        t.validation_accuracy,
    );
    let (heuristic, heuristic_alone) = speed.first().map_or((1.0, 1.0), |r| (r.in_search, r.alone));
    s.push_str(&format!(
        "## Table II: evaluations per second\n\nIn search: leaves valued per second of thinking by HPS (alpha-beta, iterative deepening to depth {}) given {} ms of CPU time per turn, from {} states. \
         Alone: the same leaf evaluation called by itself on those states. The paper's figures are Prismata's, on its machine (2019): compare the ratios, not the rates.\n\n\
         | evaluator | in search (evals/s) | / heuristic | alone (evals/s) | / heuristic | paper (evals/s) | paper / heuristic |\n|---|---|---|---|---|---|---|\n",
        x.timed_depth, x.time_ms, x.speed_states
    ));
    for (r, (_, paper)) in speed.iter().zip(PAPER_TABLE_II) {
        s.push_str(&format!(
            "| {} | {:.0} | {:.3} | {:.0} | {:.4} | {:.0} | {:.3} |\n",
            r.evaluator,
            r.in_search,
            r.in_search / heuristic,
            r.alone,
            r.alone / heuristic_alone,
            paper,
            paper / PAPER_TABLE_II[0].1
        ));
    }
    s.push_str(
        "\n## Table III: score of the first player (wins + draws / 2)\n\n\
         Seats alternate; the standard error is of the per-game score. Equal time: every player thinks the same CPU time per turn; \
         equal calls: every player has the same forward-model budget per turn.\n\n\
         | protocol | player | opponent | games | wins | draws | losses | score | se | paper |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in matches {
        let protocol = if r.protocol == "time" {
            format!("{} ms a turn", x.time_ms)
        } else {
            format!("{} calls a turn", x.calls)
        };
        let paper = if r.protocol == "time" && r.player == "learned" {
            PAPER_TABLE_III
                .iter()
                .find(|(o, _)| *o == r.opponent)
                .map_or("-".to_string(), |(_, v)| format!("{v:.3}"))
        } else {
            "-".to_string()
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} | {} |\n",
            protocol,
            r.player,
            r.opponent,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.score,
            r.se,
            paper
        ));
    }
    s
}

/// The Prismata paper's learned evaluation, declared for the command line.
pub(crate) static DEF: super::declaration::ExperimentDef = super::declaration::ExperimentDef {
    name: "learned-eval",
    about: "Self-play, a trained state evaluator and the Prismata paper's Tables II and III",
    details: "Self-play of HPS with playouts, a network trained on its samples, evaluations per second, and the learned HPS player against the heuristic and playout ones at equal thinking time and equal forward-model budget.",
    presets: || {
        vec![
            super::declaration::Preset {
                name: "quick",
                about: "small self-play, a 64-64 network and small tables (a couple of minutes on 2 cores)",
            },
            super::declaration::Preset {
                name: "paper",
                about: "8000 self-play games, the paper's 512-512 network, Table III from 300 games a pairing at 25 ms a turn and 500 at 20,000 calls (about 90 minutes on 2 cores)",
            },
            super::declaration::Preset {
                name: "full",
                about: "the same as paper (the published run)",
            },
        ]
    },
    settings: || vec![super::declaration::set_setting("game", ", e.g. turns=20")],
    folder_carries: None,
    run: |request, exec| {
        let mut x = match request.preset {
            "quick" => LearnedEvalConfig::quick(&request.name, request.seed),
            _ => LearnedEvalConfig::full(&request.name, request.seed),
        };
        for (k, v) in request.pairs("set")? {
            x.settings.retain(|(name, _)| *name != k);
            x.settings.push((k, v));
        }
        super::declaration::Outcome::after(request, |runs, plots, progress| {
            run(&x, exec, runs, plots, progress)
        })
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_draws_as_halves() {
        // 10 games: 5 wins, 2 draws, 3 losses; draws are wins for both in the counts.
        let r = MatchRow::new("time", "a", "b", 10, 7, 5);
        assert_eq!((r.wins, r.draws, r.losses), (5, 2, 3));
        assert!((r.score - 0.6).abs() < 1e-12);
        // Per-game scores 1 x5, 0.5 x2, 0 x3: sample variance 0.2111..., se sqrt(v/10).
        let mean: f64 = 0.6;
        let v =
            (5.0 * (1.0 - mean).powi(2) + 2.0 * (0.5 - mean).powi(2) + 3.0 * mean.powi(2)) / 9.0;
        assert!((r.se - (v / 10.0_f64).sqrt()).abs() < 1e-12);
    }
}

#[cfg(test)]
mod published;
