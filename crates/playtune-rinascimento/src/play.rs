//! Plays one game between agents.

use super::rules::Rules;
use super::state::{EndReason, RinState};
use playtune_harness::game::{Agent, Game};
use playtune_harness::harness;
use playtune_optim::rng::derive_seed;

/// The outcome of one game, per agent in the order the agents were given.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// Whether each agent won (ties: every tied leader; stalemates: nobody).
    pub winners: Vec<bool>,
    /// Prestige points of each agent.
    pub points: Vec<u32>,
    /// Cards each agent bought.
    pub cards: Vec<u32>,
    /// Actions played.
    pub length: u32,
    /// True if the game ended without a winner (no legal action or the action limit).
    pub stalemate: bool,
    /// Why the game ended.
    pub(crate) end: EndReason,
    /// `seats[i]`: the seat agent `i` played (seat 0 moves first).
    pub seats: Vec<usize>,
    /// Actions agents chose that were illegal (each played as a pass).
    pub illegal_actions: u32,
}

/// Plays one game of `rules` between `agents` (one per player) with shuffled seats.
/// Every random choice comes from `seed`: decks and nobles from `derive_seed(seed, [0])`,
/// seats from `[1]`, agent `i`'s generator from `[2, i]`, and the re-sampling of hidden
/// information in what each agent observes from `[3]`. Each agent decides on
/// `state.observe(seat)`, never on the true deck order.
///
/// Panics if the rules are invalid or the number of agents differs from the players
/// (the game's problems report those as errors).
pub fn play_game(rules: &Rules, agents: &mut [&mut dyn Agent<RinState>], seed: u64) -> GameRecord {
    match try_play_game(rules, agents, seed) {
        Ok(record) => record,
        Err(e) => panic!("play_game: {e}"),
    }
}

/// [`play_game`], with invalid rules or a wrong number of agents reported as errors.
pub(crate) fn try_play_game(
    rules: &Rules,
    agents: &mut [&mut dyn Agent<RinState>],
    seed: u64,
) -> Result<GameRecord, harness::Error> {
    let players = rules.players as usize;
    if agents.len() != players {
        return Err(harness::Error::Seats {
            agents: agents.len(),
            players,
        });
    }
    let state = RinState::new(rules, derive_seed(seed, &[harness::play::STATE]))?;
    let seats = harness::play::shuffled_seats(players, seed);
    let mut illegal_actions = 0;
    let state = harness::play::play(
        state,
        agents,
        &seats,
        harness::play::AGENTS,
        seed,
        &mut |state, actions| {
            let seat = state.current_player();
            if !actions.iter().all(|a| state.is_legal(seat, a)) {
                illegal_actions += 1;
            }
        },
    )?;
    let flags = state.winners();
    Ok(GameRecord {
        winners: seats.iter().map(|&s| flags[s]).collect(),
        points: seats.iter().map(|&s| state.hand(s).points as u32).collect(),
        cards: seats.iter().map(|&s| state.hand(s).cards as u32).collect(),
        length: state.step_count(),
        stalemate: state.is_stalemate(),
        end: state.end_reason().unwrap_or(EndReason::Timeout),
        seats,
        illegal_actions,
    })
}
