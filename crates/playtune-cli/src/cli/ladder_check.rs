//! `playtune check-ladder`, and the same check before every design run: a round robin
//! of the ladder's rungs at the game's own rules says whether each rung beats the one
//! below by more than two standard errors, and proposes the largest ordered set of
//! them where the ladder as given is not ordered.

use crate::harness::DynGame;
use crate::harness::ladder_check::{LadderCheck, MIN_GAMES, check_ladder};
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
    /// Games each pair of rungs plays (10 to 1,000,000).
    #[arg(long, default_value_t = FULL_CHECK_GAMES)]
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
    } else if check.games < FULL_CHECK_GAMES {
        out += &format!(
            "  the ladder is not shown ordered at {} games a pair, which is inconclusive: `playtune check-ladder --game {game} --games {FULL_CHECK_GAMES}` plays enough to tell\n",
            check.games
        );
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
                out += "  no two of its rungs are separated: give stronger rungs (more search: their iterations, simulations or budget), or more games\n"
            }
        }
    }
    out
}

/// Games a pair of rungs plays in a check that can tell (`check-ladder`'s default):
/// fewer leave a step that is there unshown too often to call the ladder unordered.
const FULL_CHECK_GAMES: usize = 100;

/// The games a pair of rungs plays, given as `flag`: enough to show a step, and no
/// more than a tournament's lineup plays.
fn check_games(flag: &str, games: usize) -> Result<()> {
    let max = crate::harness::tournament::MAX_GAMES;
    if !(MIN_GAMES..=max).contains(&games) {
        anyhow::bail!(
            "{flag} {games}: give {MIN_GAMES} to {max} games a pair of rungs (fewer than {MIN_GAMES} cannot show a step)"
        );
    }
    Ok(())
}

pub(super) fn check_ladder_cmd(a: CheckLadderArgs) -> Result<()> {
    check_games("--games", a.games)?;
    let game = crate::registry::game(&a.game).map_err(anyhow::Error::msg)?;
    let given = super::name_value_pairs("--set", &a.settings)?;
    let ladder = match &a.ladder {
        Some(l) => crate::harness::split_agents(l),
        None => game
            .default_ladder()
            .unwrap_or_else(|| crate::harness::split_agents("random,osla,mcts")),
    };
    if ladder.len() < 2 {
        match &a.ladder {
            Some(_) => anyhow::bail!("--ladder: give at least two rungs, weakest first"),
            // No ladder given: the game's own has one rung, and the user did nothing
            // wrong.
            None => anyhow::bail!(
                "{}: its ladder is only `{}`, and a check needs two rungs; a game that hides information and gives no resampler (`resample_from_infostate`, or the `resample` operation) is played by `random` alone, since a search bot would read the true state (`playtune games {}` lists its bots)",
                game.name(),
                ladder.join(","),
                a.game
            ),
        }
    }
    // The ladder is refused before the game's rules are asked for (a game process
    // started for nothing).
    let settings = game
        .settings_values(&given)
        .and_then(|v| game.own_rules(&v))
        .map_err(anyhow::Error::msg)?;
    match watched(game, &settings, &ladder, None, a.games, a.seed)? {
        Some(check) => print!("{}", report(game.name(), &check)),
        None => println!(
            "{}: its tournaments seat every rung in every game, so no pair of rungs meets alone: nothing to check",
            game.name()
        ),
    }
    Ok(())
}

/// The ladder built for `design`'s game at its own rules (with the settings the run
/// holds), from the cache or played now, as `--set ladder=` takes it; `None`, with
/// the reason on standard error, where no rung beats `random`.
fn built_ladder(design: &crate::registry::DesignLadder, quiet: bool) -> Result<Option<String>> {
    use crate::harness::ladder_build::{BuildConfig, LadderBuilder};
    let config = BuildConfig {
        settings: design.own_rules.clone(),
        ..BuildConfig::default()
    };
    let cap = config.games;
    let builder = LadderBuilder::new(design.game, config).map_err(anyhow::Error::msg)?;
    let (built, source) = super::build_ladder::built_or_cached(design.game, &builder, cap, false)?;
    let cost = match &source {
        super::build_ladder::Source::Cached { file } => {
            format!("read from the cache {}", file.display())
        }
        super::build_ladder::Source::Played { .. } => format!(
            "built now: {} games in {}",
            built.games_played,
            crate::run::duration_text(built.seconds)
        ),
    };
    if !built.ordered() {
        if !quiet {
            eprintln!(
                "ladder: {} declares no ladder, and none could be built at its own rules ({}; {cost}): the run plays the generic ladder {}, whose steps are not shown, so its skill depth may measure noise",
                design.game.name(),
                built.verdict(),
                design.ladder.join(",")
            );
        }
        return Ok(None);
    }
    if !quiet {
        eprintln!(
            "ladder: {} declares no ladder; the run plays one built to be ordered at its own rules, each rung shown to score at least {} against the one below: {} ({cost}; `playtune build-ladder` shows the steps)",
            design.game.name(),
            built.target,
            built.spec()
        );
    }
    Ok(Some(built.spec()))
}

/// Before a design run: where the user names no ladder and the game declares none,
/// puts a ladder built to be ordered in `spec`; otherwise checks `spec`'s ladder as
/// `args` says, reports on standard error (unless `quiet`), and under
/// [`LadderCheckMode::Use`] puts the proposed ladder in `spec`. Returns whether
/// `spec` changed.
pub(super) fn before_design(
    spec: &mut ProblemSpec,
    args: &LadderCheckArgs,
    budget: u64,
    seed: u64,
    quiet: bool,
) -> Result<bool> {
    let Some(design) = crate::registry::design_ladder(spec).map_err(anyhow::Error::msg)? else {
        return Ok(false);
    };
    // A game that declares no ladder of its own plays one built to be ordered, each
    // step shown by the builder's sequential test (and kept, so built once).
    if !spec.settings.contains_key("ladder") && design.game.generic_ladder() {
        if let Some(built) = built_ladder(&design, quiet)? {
            spec.settings.insert("ladder".into(), built);
            return Ok(true);
        }
    }
    if args.ladder_check == LadderCheckMode::Off {
        return Ok(false);
    }
    let rungs = design.ladder.len();
    let pairs = (rungs * rungs.saturating_sub(1) / 2).max(1) as u64;
    let games = match args.ladder_check_games {
        Some(n) => {
            check_games("--ladder-check-games", n)
                .map_err(|e| anyhow::anyhow!("{e} (--ladder-check off skips the check)"))?;
            n
        }
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
