//! `playtune build-ladder`: a ladder built to be ordered (`random`, then each rung
//! shown by a sequential test to score at least the target against the one below),
//! printed as the design problem takes it, and kept in a cache so that it is built
//! once ([`playtune::harness::ladder_build`]).

use anyhow::{Result, anyhow};
use clap::Args;
use playtune::harness::ladder_build::{self, BuildConfig, BuildError, BuiltLadder, LadderBuilder};
use playtune_exec::prepare::ladder::{Source, built_or_cached};

#[derive(Args)]
pub(super) struct BuildLadderArgs {
    /// The game (see `playtune games`): a built-in name, or a game description
    /// PATH.ron. Two-seat games only.
    #[arg(long)]
    game: String,
    /// Rungs to build, `random` counted (fewer where more search of every kind buys no
    /// strength).
    #[arg(long, default_value_t = ladder_build::DEFAULT_RUNGS)]
    rungs: usize,
    /// The most games a candidate plays against the rung below; the sequential test
    /// usually decides long before.
    #[arg(long, value_name = "CAP", default_value_t = ladder_build::DEFAULT_GAMES)]
    games: usize,
    /// The score (a win 1, a draw 1/2) a candidate must be shown to reach against the
    /// rung below to be a rung.
    #[arg(long, default_value_t = ladder_build::DEFAULT_TARGET)]
    target: f64,
    /// How much more search (iterations, evaluations, budget) each next candidate of a
    /// kind gets.
    #[arg(long, default_value_t = ladder_build::DEFAULT_FACTOR)]
    factor: f64,
    /// The kinds of bot to climb, weakest first, each at its starting settings
    /// (NAME or NAME(KEY=VALUE,...), comma-separated) [default: osla,mcts,ismcts,
    /// those the game offers].
    #[arg(long)]
    kinds: Option<String>,
    /// A game setting, NAME=VALUE (repeatable), or game_settings="NAME=VALUE ..." as
    /// the design problem takes them [default: the game's own rules].
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Build the ladder again even where the cache holds it (the cache keeps the new
    /// one).
    #[arg(long)]
    rebuild: bool,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
}

/// The game settings of `--set`: `NAME=VALUE` items, `game_settings` split into its
/// `NAME=VALUE` words.
fn game_settings(items: &[String]) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (k, v) in super::name_value_pairs("--set", items)? {
        if k != "game_settings" {
            out.push((k, v));
            continue;
        }
        for word in v.split_whitespace() {
            match word.split_once('=') {
                Some((name, value)) if !name.is_empty() => {
                    out.push((name.to_string(), value.to_string()));
                }
                _ => anyhow::bail!(
                    "--set game_settings=\"{v}\": `{word}` is not NAME=VALUE (settings go NAME=VALUE NAME=VALUE, spaces between)"
                ),
            }
        }
    }
    Ok(out)
}

/// A refusal of the build, naming the flag it came from.
fn flagged(e: BuildError, game: &str) -> anyhow::Error {
    match e {
        BuildError::NoGames | BuildError::TooManyGames { .. } => anyhow!("--{e}"),
        BuildError::Rungs { .. } | BuildError::Target { .. } | BuildError::Factor { .. } => {
            anyhow!("--{e}")
        }
        BuildError::Seats { .. } => anyhow!(
            "--game {game}: {e}; a game with a player-count setting may take --set players=2"
        ),
        BuildError::NoKinds | BuildError::Kind { .. } => anyhow!("--kinds: {e}"),
        BuildError::Weakest(_) => anyhow!("--game {game}: {e}"),
        BuildError::Game(e) => anyhow!("--set: {e}"),
        e => anyhow!(e),
    }
}

/// The report: the steps, the verdict, the cost, then the ladder as `--set ladder=`.
fn report(built: &BuiltLadder, given: &[(String, String)], source: &Source) -> String {
    let rules = if given.is_empty() {
        "at its own rules".to_string()
    } else {
        let given: Vec<String> = given.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("at its own rules with {}", given.join(" "))
    };
    let mut out = format!(
        "ladder of {} {rules}: each rung shown to score at least {} against the one below (up to {} games a candidate):\n",
        built.game, built.target, built.cap
    );
    for line in built.lines() {
        out += &format!("  {line}\n");
    }
    for note in &built.notes {
        out += &format!("  note: {note}\n");
    }
    out += &format!("  {}\n", built.verdict());
    let cost = format!(
        "{} games in {}",
        built.games_played,
        playtune::run::duration_text(built.seconds)
    );
    match source {
        Source::Played { kept: Some(file) } => {
            out += &format!(
                "  cost: {cost}; kept in {} (the same command reads it without playing; --rebuild builds it again)\n",
                file.display()
            );
        }
        Source::Played { kept: None } => out += &format!("  cost: {cost}\n"),
        Source::Cached { file } => {
            out += &format!(
                "  read from the cache, no games played: {} (it cost {cost} to build; --rebuild builds it again)\n",
                file.display()
            );
        }
    }
    if built.ordered() {
        out += &format!("--set ladder=\"{}\"\n", built.spec());
    }
    out
}

/// The build as one JSON object.
fn json(built: &BuiltLadder, source: &Source) -> serde_json::Value {
    let steps: Vec<serde_json::Value> = built
        .steps
        .iter()
        .map(|s| {
            serde_json::json!({
                "rung": s.rung,
                "candidate": s.candidate,
                "below": s.below,
                "more_search": s.more_search,
                "score": s.score,
                "se": s.se,
                "games": s.games,
                "decision": format!("{:?}", s.decision).to_lowercase(),
                "kept": s.kept(),
            })
        })
        .collect();
    let (from_cache, played_now, file) = match source {
        Source::Played { kept } => (false, built.games_played, kept.as_ref()),
        Source::Cached { file } => (true, 0, Some(file)),
    };
    let rules: serde_json::Map<String, serde_json::Value> = built
        .rules
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    serde_json::json!({
        "game": built.game,
        "rules": rules,
        "ladder": built.ladder,
        "spec": built.spec(),
        "ordered": built.ordered(),
        "complete": built.complete(),
        "rungs_asked": built.asked,
        "target": built.target,
        "cap": built.cap,
        "steps": steps,
        "verdict": built.verdict(),
        "notes": built.notes,
        "games_played": built.games_played,
        "seconds": built.seconds,
        "from_cache": from_cache,
        "games_played_now": played_now,
        "cache_file": file.map(|f| f.display().to_string()),
    })
}

pub(super) fn build_ladder_cmd(a: BuildLadderArgs) -> Result<()> {
    let given = game_settings(&a.settings)?;
    let kinds = match &a.kinds {
        Some(k) => {
            let list = playtune::harness::split_agents(k);
            if list.is_empty() {
                anyhow::bail!("--kinds \"{k}\": give agent specs, weakest first");
            }
            Some(list)
        }
        None => None,
    };
    let config = BuildConfig {
        settings: given.clone(),
        rungs: a.rungs,
        games: a.games,
        target: a.target,
        factor: a.factor,
        kinds,
        seed: a.seed,
    };
    // The numbers first: a bad one is refused before a game is loaded or started.
    ladder_build::check_config(&config).map_err(|e| flagged(e, &a.game))?;
    let game = playtune::registry::game(&a.game).map_err(|e| anyhow!("--game {}: {e}", a.game))?;
    let builder = LadderBuilder::new(game, config).map_err(|e| flagged(e, &a.game))?;
    super::interrupt::on_interrupt(
        "the ladder was not finished, and nothing was kept: run the command again",
    );
    let (built, source) = built_or_cached(game, &builder, a.games, a.rebuild)?;
    if a.json {
        println!("{}", json(&built, &source));
    } else {
        print!("{}", report(&built, &given, &source));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_settings_come_one_by_one_or_as_the_design_problem_writes_them() {
        let items = vec![
            "players=2".to_string(),
            "game_settings=turns=10 size=9".to_string(),
        ];
        let s = game_settings(&items).unwrap();
        assert_eq!(
            s,
            [
                ("players".to_string(), "2".to_string()),
                ("turns".to_string(), "10".to_string()),
                ("size".to_string(), "9".to_string())
            ]
        );
        let e = game_settings(&["game_settings=turns".to_string()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("`turns` is not NAME=VALUE"), "{e}");
    }
}
