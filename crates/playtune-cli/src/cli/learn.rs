//! `playtune selfplay` and `playtune train-eval`: the data and the network of a learned
//! state evaluator.

use anyhow::{Result, bail};
use clap::Args;
use playtune::harness::settings::parse_pairs;
use playtune::harness::{AgentSpec, GameRequest, split_agents};
use playtune::learn::TrainConfig;
use playtune_experiments::learned_eval::{TrainOutput, selfplay, train_eval};
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct SelfplayArgs {
    /// The game; it must have a state encoding (the strategy game has).
    #[arg(long, default_value = "strategy")]
    game: String,
    /// The agents, one per seat, comma-separated (NAME or NAME(KEY=VALUE,...)); seats
    /// rotate with the game number.
    #[arg(long, default_value = "hps(leaf=playout),hps(leaf=playout)")]
    agents: String,
    /// Games to have in the file (games already there are kept, not replayed).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// A game setting, NAME=VALUE (repeatable), e.g. --set level=any.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Seed: game g is seeded by (seed, g), whatever the number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The state encoding to record, by name [default: the game's default; the
    /// strategy game's are strategy-counts-v1 and strategy-positions-v1].
    #[arg(long)]
    encoding: Option<String>,
    /// Folder of the sample file (samples.bin); an existing one is added to.
    #[arg(long)]
    out: PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub(super) fn selfplay_cmd(a: SelfplayArgs) -> Result<()> {
    if a.games == 0 {
        anyhow::bail!("--games 0: play at least one game");
    }
    if u32::try_from(a.games).is_err() {
        anyhow::bail!("--games {}: too many", a.games);
    }
    let game = playtune::registry::game(&a.game).map_err(anyhow::Error::msg)?;
    let settings = parse_pairs(a.settings.iter().map(String::as_str))
        .map_err(|e| anyhow::anyhow!("--set {e}"))?;
    // The settings and the bots read once, here where they enter.
    let req = GameRequest {
        agents: AgentSpec::parse_all(&split_agents(&a.agents)).map_err(anyhow::Error::msg)?,
        settings: game
            .settings_values(&settings)
            .map_err(anyhow::Error::msg)?,
        budget: None,
        seed: a.seed,
    };
    let started = std::time::Instant::now();
    // One command at a time adds to a sample file.
    std::fs::create_dir_all(&a.out)
        .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", a.out.display()))?;
    let _lock = playtune::run::lock::lock(&a.out).map_err(anyhow::Error::msg)?;
    super::interrupt::on_interrupt(&format!(
        "the games finished are in {}; the same command again goes on from there",
        a.out.display()
    ));
    let r = selfplay(game, &req, a.encoding.as_deref(), a.games, &a.out, !a.quiet)
        .map_err(anyhow::Error::msg)?;
    if r.torn > 0 {
        println!(
            "cut off a game cut short at the end of the file ({} bytes)",
            r.torn
        );
    }
    println!(
        "{}: {} games ({} played now, {} kept), {} samples, {:.1} s",
        r.path.display(),
        r.games_before + r.games_played,
        r.games_played,
        r.games_before,
        r.samples,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[derive(Args)]
pub(super) struct TrainEvalArgs {
    /// Self-play folders (or their samples.bin) from `playtune selfplay`, one or more
    /// (of one encoding: the games of the same game with other agents, say).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where to write the network.
    #[arg(long)]
    out: PathBuf,
    /// Hidden layer sizes, comma-separated. The default is as accurate as the paper's
    /// 512,512 on strategy self-play and about 15 times cheaper a leaf.
    #[arg(long, value_delimiter = ',', default_value = "64,64")]
    hidden: Vec<usize>,
    /// Most epochs.
    #[arg(long, default_value_t = TrainConfig::default().epochs)]
    epochs: usize,
    /// Stop after this many epochs without a lower validation loss.
    #[arg(long, default_value_t = TrainConfig::default().patience)]
    patience: usize,
    /// Samples per gradient step (mini-batch size).
    #[arg(long, default_value_t = TrainConfig::default().batch)]
    batch: usize,
    /// Adam's learning rate (the paper's: 0.00001; the default was measured best of
    /// 0.001, 0.0001 and 0.00001 on strategy self-play).
    #[arg(long, default_value_t = TrainConfig::default().learning_rate)]
    learning_rate: f64,
    /// Share of the games held out for validation.
    #[arg(long, default_value_t = TrainConfig::default().validation)]
    validation: f64,
    /// Seed of the split, the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also train on each training sample with the two seats exchanged (features
    /// p0_X and p1_X swapped, the player to move flipped).
    #[arg(long)]
    mirror: bool,
    #[command(flatten)]
    output: super::OutputArgs,
}

/// Training's hints in the words of the command line: the setting a hint names
/// (`lower the learning rate`) as the flag that sets it. `train_eval` reports its
/// errors as text; once it passes [`playtune::learn::Error`] through, this matches on
/// the variants instead.
fn training_hints(message: &str) -> String {
    message
        .replace("lower the learning rate", "lower --learning-rate")
        .replace("raise the validation share", "raise --validation")
}

pub(super) fn train_eval_cmd(a: TrainEvalArgs) -> Result<()> {
    if let Some(missing) = a.data.iter().find(|d| !d.exists()) {
        bail!(
            "{}: no such self-play folder or sample file (make one with `playtune selfplay`)",
            missing.display()
        );
    }
    let config = TrainConfig {
        hidden: a.hidden.clone(),
        epochs: a.epochs,
        patience: a.patience,
        batch: a.batch,
        learning_rate: a.learning_rate,
        validation: a.validation,
        seed: a.seed,
        mirror: a.mirror,
    };
    if let Err(playtune::learn::Error::Setting {
        setting,
        value,
        expected,
    }) = config.check()
    {
        bail!("--{} {value}: {expected}", setting.replace('_', "-"));
    }
    let stem = a
        .out
        .file_stem()
        .map_or_else(|| "network".into(), |s| s.to_string_lossy().into_owned());
    let name = a
        .output
        .name
        .clone()
        .unwrap_or_else(|| format!("train-{stem}"));
    super::folder_name(&name)?;
    let out = TrainOutput {
        model: a.out.clone(),
        run_dir: a.output.runs_dir.join(&name),
        plot_dir: a.output.plots_dir.join(&name),
    };
    // One command at a time writes the training folder and the network.
    std::fs::create_dir_all(&out.run_dir)
        .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", out.run_dir.display()))?;
    let _lock = playtune::run::lock::lock(&out.run_dir).map_err(anyhow::Error::msg)?;
    let _model_lock = playtune::run::lock::lock_beside(&out.model).map_err(anyhow::Error::msg)?;
    let data: Vec<&std::path::Path> = a.data.iter().map(PathBuf::as_path).collect();
    let trained = train_eval(&data, &config, &out, !a.output.quiet)
        .map_err(|e| anyhow::anyhow!(training_hints(&e.to_string())))?;
    let t = &trained.network.header.training;
    println!(
        "{}: kept epoch {} of {}, validation loss {:.4}, accuracy {:.3} ({} training and {} validation samples)",
        a.out.display(),
        t.epoch,
        t.epochs_run,
        t.validation_loss,
        t.validation_accuracy,
        t.train_samples,
        t.validation_samples
    );
    println!(
        "wrote {} and {}; use it as hps(leaf=learned:{}) or mcts(leaf=learned:{})",
        out.run_dir.join("training.csv").display(),
        out.plot_dir.join("training.png").display(),
        a.out.display(),
        a.out.display()
    );
    Ok(())
}
