//! `playtune check-ladder`, and the flags of the same check before every design run
//! ([`playtune_exec::prepare::ladder`]).

use anyhow::Result;
use clap::Args;
use playtune_exec::prepare::ladder::{
    FULL_CHECK_GAMES, LadderCheckMode, check_games, report, watched,
};

/// The ladder check's options of a design run.
#[derive(Args, Clone)]
pub(crate) struct LadderCheckArgs {
    /// Design runs: check the ladder at the game's own rules before the search (a
    /// round robin of its rungs): warn says where a rung is not shown stronger than
    /// the one below and proposes an ordered ladder; use searches on that proposal;
    /// off skips the check.
    #[arg(long, value_enum, default_value = "warn")]
    pub ladder_check: LadderCheckFlag,
    /// Games each pair of rungs plays in the ladder check [default: 100, fewer where
    /// that would be over a tenth of the search's games, never under 10].
    #[arg(long, value_name = "N")]
    pub ladder_check_games: Option<usize>,
}

impl LadderCheckArgs {
    /// The check as the run takes it, its count checked.
    pub(crate) fn settings(&self) -> Result<playtune_exec::prepare::ladder::LadderCheckSettings> {
        if let Some(n) = self.ladder_check_games {
            check_games("--ladder-check-games ", n)
                .map_err(|e| anyhow::anyhow!("{e} (--ladder-check off skips the check)"))?;
        }
        Ok(playtune_exec::prepare::ladder::LadderCheckSettings {
            mode: self.ladder_check.0,
            games: self.ladder_check_games,
        })
    }
}

/// `--ladder-check`: a mode of the check, its names and help from the mode itself.
#[derive(Clone, Copy)]
pub(crate) struct LadderCheckFlag(LadderCheckMode);

impl clap::ValueEnum for LadderCheckFlag {
    fn value_variants<'a>() -> &'a [Self] {
        const FLAGS: [LadderCheckFlag; 3] = [
            LadderCheckFlag(LadderCheckMode::ALL[0]),
            LadderCheckFlag(LadderCheckMode::ALL[1]),
            LadderCheckFlag(LadderCheckMode::ALL[2]),
        ];
        &FLAGS
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.about()))
    }
}

#[derive(Args)]
pub(super) struct CheckLadderArgs {
    /// The game (see `playtune games`).
    #[arg(long, default_value = playtune::registry::DEFAULT_GAME)]
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

pub(super) fn check_ladder_cmd(a: CheckLadderArgs) -> Result<()> {
    check_games("--games ", a.games)?;
    let game = playtune::registry::game(&a.game).map_err(anyhow::Error::msg)?;
    let given = super::name_value_pairs("--set", &a.settings)?;
    let ladder = match &a.ladder {
        Some(l) => playtune::harness::split_agents(l),
        None => game
            .default_ladder()
            .unwrap_or_else(|| playtune::harness::split_agents("random,osla,mcts")),
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
            "{}: a game of one seat has no rung to beat: nothing to check",
            game.name()
        ),
    }
    Ok(())
}
