//! `playtune check-ladder`, and the same check before every design run: a round robin
//! of the ladder's rungs at the game's own rules says whether each rung beats the one
//! below by more than two standard errors, and proposes the largest ordered set of
//! them where the ladder as given is not ordered.

use crate::harness::DynGame;
use crate::harness::ladder_check::{LadderCheck, check_ladder};
use crate::run::ProblemSpec;
use anyhow::Result;
use clap::{Args, ValueEnum};

/// The ladder check's stream under the run's seed: its games are none of the search's.
const LADDER_CHECK_STREAM: u64 = 0x1add_e4c4;

/// What a design run does with its ladder before the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum LadderCheckMode {
    /// Check it; where a rung is not shown stronger than the one below, say so with
    /// the results and an ordered ladder to use, and search on the ladder as given.
    #[default]
    Warn,
    /// Check it, and search on the proposed ordered ladder where it is not ordered.
    Use,
    /// Do not check it.
    Off,
}

/// The ladder check's options of a design run.
#[derive(Args, Clone)]
pub(crate) struct LadderCheckArgs {
    /// Design runs: check the ladder at the game's own rules before the search (a
    /// round robin of its rungs): warn says where a rung is not shown stronger than
    /// the one below and proposes an ordered ladder; use searches on that proposal;
    /// off skips the check.
    #[arg(long, value_enum, default_value = "warn")]
    pub ladder_check: LadderCheckMode,
    /// Games each pair of rungs plays in the ladder check [default: 100, fewer where
    /// that would be over a tenth of the search's games, never under 10].
    #[arg(long, value_name = "N")]
    pub ladder_check_games: Option<usize>,
}

#[derive(Args)]
pub(super) struct CheckLadderArgs {
    /// The game (see `playtune games`).
    #[arg(long, default_value = crate::registry::DEFAULT_GAME)]
    game: String,
    /// The rungs, weakest first, comma-separated (NAME or NAME(KEY=VALUE,...))
    /// [default: the game's design ladder].
    #[arg(long)]
    ladder: Option<String>,
    /// A game setting, NAME=VALUE (repeatable) [default: the game's own rules].
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Games each pair of rungs plays.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seed of the round robin.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Plays the check with a progress bar on a terminal.
fn watched(
    game: &dyn DynGame,
    settings: &[(String, String)],
    ladder: &[String],
    budget: Option<usize>,
    games: usize,
    seed: u64,
) -> Result<Option<LadderCheck>> {
    let pairs = ladder.len() * ladder.len().saturating_sub(1) / 2;
    super::games::with_games_bar(pairs.saturating_mul(games) as u64, |watch| {
        check_ladder(game, settings, ladder, budget, games, seed, watch)
    })
}

/// The check's report: a line a step, then the verdict and the proposal.
fn report(game: &str, check: &LadderCheck) -> String {
    let mut out = format!(
        "ladder check of {game} at its own rules ({} games a pair of rungs):\n",
        check.games
    );
    for line in check.lines() {
        out += &format!("  {line}\n");
    }
    if check.ordered() {
        out += "  the ladder is ordered: every rung beats the one below by more than 2 standard errors\n";
    } else {
        out += "  the ladder is NOT shown ordered: skill depth measured on it measures a step that may not exist\n";
        match &check.proposal {
            Some(p) => {
                out += &format!(
                    "  an ordered ladder of these rungs: {} (--set ladder=\"{}\", or --ladder-check use)\n",
                    p.join(", "),
                    p.join(",")
                );
            }
            None => {
                out += "  no two of its rungs are separated: give stronger rungs (more iterations), or more games\n"
            }
        }
    }
    out
}

pub(super) fn check_ladder_cmd(a: CheckLadderArgs) -> Result<()> {
    if a.games == 0 {
        anyhow::bail!("--games 0: give the games each pair of rungs plays (at least 1)");
    }
    let game = crate::registry::game(&a.game).map_err(anyhow::Error::msg)?;
    let given = super::name_value_pairs("--set", &a.settings)?;
    let settings = game
        .settings_values(&given)
        .and_then(|v| game.own_rules(&v))
        .map_err(anyhow::Error::msg)?;
    let ladder = match &a.ladder {
        Some(l) => crate::harness::split_agents(l),
        None => game
            .default_ladder()
            .unwrap_or_else(|| crate::harness::split_agents("random,osla,mcts")),
    };
    if ladder.len() < 2 {
        anyhow::bail!("--ladder: give at least two rungs, weakest first");
    }
    match watched(game, &settings, &ladder, None, a.games, a.seed)? {
        Some(check) => print!("{}", report(game.name(), &check)),
        None => println!(
            "{}: its tournaments seat every rung in every game, so no pair of rungs meets alone: nothing to check",
            game.name()
        ),
    }
    Ok(())
}

/// Before a design run: checks `spec`'s ladder as `args` says, reports on standard
/// error (unless `quiet`), and under [`LadderCheckMode::Use`] puts the proposed
/// ladder in `spec`. Returns whether `spec` changed.
pub(super) fn before_design(
    spec: &mut ProblemSpec,
    args: &LadderCheckArgs,
    budget: u64,
    seed: u64,
    quiet: bool,
) -> Result<bool> {
    if args.ladder_check == LadderCheckMode::Off {
        return Ok(false);
    }
    let Some(design) = crate::registry::design_ladder(spec).map_err(anyhow::Error::msg)? else {
        return Ok(false);
    };
    let rungs = design.ladder.len();
    let pairs = (rungs * rungs.saturating_sub(1) / 2).max(1) as u64;
    let games = match args.ladder_check_games {
        Some(0) => anyhow::bail!(
            "--ladder-check-games 0: give at least 1 (--ladder-check off skips the check)"
        ),
        Some(n) => n,
        None => {
            let search = budget
                .saturating_mul(rungs as u64)
                .saturating_mul(design.games as u64);
            (search / 10 / pairs).clamp(10, 100) as usize
        }
    };
    let seed = crate::rng::derive_seed(seed, &[LADDER_CHECK_STREAM]);
    let Some(check) = watched(
        design.game,
        &design.own_rules,
        &design.ladder,
        design.budget,
        games,
        seed,
    )?
    else {
        return Ok(false);
    };
    if !quiet {
        if check.ordered() {
            eprintln!(
                "ladder check: {} is ordered at {}'s own rules ({} games a pair)",
                design.ladder.join(", "),
                design.game.name(),
                check.games
            );
        } else {
            eprint!("{}", report(design.game.name(), &check));
        }
    }
    if args.ladder_check == LadderCheckMode::Use
        && !check.ordered()
        && let Some(p) = check.proposal
    {
        if !quiet {
            eprintln!("  searching on the ordered ladder: {}", p.join(", "));
        }
        spec.settings.insert("ladder".into(), p.join(","));
        return Ok(true);
    }
    Ok(false)
}
