//! One game between agents, for every game: the loop, the seeds and the record.

use super::Error;
use crate::game::{Acting, Agent, Game};
use playtune_optim::rng::{derive_seed, rng_from_seed};
use rand::seq::SliceRandom;
use serde::Serialize;

/// The random streams of a game, as paths under its seed, so that a game is a function
/// of (seed, settings, agents): the state from `[STATE]`, shuffled seats from
/// `[SEATS]`, agent `i`'s generator from `[agent stream, i]` (see
/// [`super::GameDef::AGENT_STREAM`]) and the re-sampling of hidden information in what
/// agents observe from `[OBSERVE]`.
pub const STATE: u64 = 0;
/// Shuffled seats' stream (see [`STATE`]).
pub(crate) const SEATS: u64 = 1;
/// The agents' streams, by default (see [`STATE`]).
pub const AGENTS: u64 = 2;
/// The re-sampling of hidden information's stream (see [`STATE`]).
pub(crate) const OBSERVE: u64 = 3;

/// What a game's loop shows its observer: every state and the actions chosen in it.
pub(crate) type Observer<'a, G> = dyn FnMut(&G, &[<G as Game>::Action]) + 'a;

/// Seats drawn at random from `seed` (`[SEATS]`): `seats[i]` is agent `i`'s.
pub fn shuffled_seats(players: usize, seed: u64) -> Vec<usize> {
    let mut seats: Vec<usize> = (0..players).collect();
    seats.shuffle(&mut rng_from_seed(derive_seed(seed, &[SEATS])));
    seats
}

/// Seats rotating with the game number, so that every agent plays every seat:
/// agent `i` takes seat `(i + rotation) % players`.
pub fn rotated_seats(players: usize, rotation: usize) -> Vec<usize> {
    (0..players).map(|i| (i + rotation) % players).collect()
}

/// Plays `state` to its end, agent `i` in seat `seats[i]` (seat 0 first), and returns
/// the final state. Agents that simulate decide on [`Game::observe`] of the state
/// (hidden information re-sampled), the others on the state itself (see
/// [`Agent::simulates`]). `observe` sees every state and the actions chosen in it,
/// before the step. Errors if the agents do not fill the game's seats.
pub fn play<G: Game>(
    mut state: G,
    agents: &mut [&mut dyn Agent<G>],
    seats: &[usize],
    agent_stream: u64,
    seed: u64,
    observe: &mut Observer<G>,
) -> Result<G, Error> {
    let players = state.num_players();
    if agents.len() != players {
        return Err(Error::Seats {
            agents: agents.len(),
            players,
        });
    }
    let mut agent_at_seat = vec![usize::MAX; players];
    for (agent, &seat) in seats.iter().enumerate() {
        if seat < players && agent_at_seat[seat] == usize::MAX {
            agent_at_seat[seat] = agent;
        }
    }
    if seats.len() != players || agent_at_seat.contains(&usize::MAX) {
        return Err(Error::Permutation {
            seats: seats.to_vec(),
            players,
        });
    }
    let mut rngs: Vec<_> = (0..players)
        .map(|i| rng_from_seed(derive_seed(seed, &[agent_stream, i as u64])))
        .collect();
    let mut observe_rng = rng_from_seed(derive_seed(seed, &[OBSERVE]));
    for agent in agents.iter_mut() {
        agent.reset();
    }
    let mut joint = Vec::with_capacity(players);
    while !state.is_over() {
        joint.clear();
        let acting = match state.acting() {
            Acting::All => 0..players,
            Acting::Player(seat) => seat..seat + 1,
        };
        for seat in acting {
            let a = agent_at_seat[seat];
            let action = if agents[a].simulates() {
                let view = state.observe(seat, &mut observe_rng);
                // A view the rules could not make (a failed clone or resample) has
                // no move for any agent to choose: the match fails with the reason.
                if let Some(why) = view.failure() {
                    return Err(Error::Game(why.into()));
                }
                agents[a].act(&view, seat, &mut rngs[a])
            } else {
                agents[a].act(&state, seat, &mut rngs[a])
            };
            joint.push(action);
        }
        observe(&state, &joint);
        state.advance(&joint);
    }
    Ok(state)
}

/// How a finished game went, per agent in the order the agents were given.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Record {
    /// The seat each agent played (seat 0 moves first).
    pub seats: Vec<usize>,
    /// Each agent's final [`Game::score`].
    pub scores: Vec<f64>,
    /// Whether each agent won (a draw marks every tied leader, a stalemate nobody).
    pub winners: Vec<bool>,
    /// Steps played ([`Game::step_count`]).
    pub length: u32,
    /// The game's own statistics by name ([`super::GameDef::summary`]).
    pub extra: Vec<(String, f64)>,
    /// How the lead on score moved ([`super::metrics::LeadTracker`]).
    pub lead: Lead,
    /// Whether the game's rules ended it, not a cap on its length
    /// ([`super::GameDef::ended_by_rules`]).
    pub by_rules: bool,
}

/// How the lead moved in one game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Lead {
    /// Whether the game's path was seen (each seat's score after every step): without
    /// it the lead's figures are unavailable, not 0.
    #[serde(default = "seen")]
    pub traced: bool,
    /// Times the sole leader on score changed.
    pub changes: u32,
    /// With a sole winner: the share of the game (0 to 1) after which the winner led on
    /// score at every step to the end; 1 if it never did. `None` without a sole winner.
    pub decided_at: Option<f64>,
}

fn seen() -> bool {
    true
}

impl Record {
    /// The game's own per-seat figure `name` for `seat` (kept as `NAME_SEAT` in
    /// [`Record::extra`]), if the match reported it.
    pub(crate) fn seat_feature(&self, name: &str, seat: usize) -> Option<f64> {
        let key = format!("{name}_{seat}");
        self.extra.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// Agent `agent`'s score in this game: 1 for a win, 1/k for a win shared by k
    /// players, 0 otherwise.
    pub(crate) fn shared_win(&self, agent: usize) -> f64 {
        let winners = self.winners.iter().filter(|w| **w).count();
        if self.winners[agent] {
            1.0 / winners as f64
        } else {
            0.0
        }
    }

    /// Agent `agent`'s share of this game's win, as a tournament's win rate and the
    /// ladder check count it: 1 for a game won alone, 1/k for a win shared by k
    /// seats (a draw), 1/n for each of n seats where none won.
    pub(crate) fn points(&self, agent: usize) -> f64 {
        if self.winners.iter().any(|w| *w) {
            self.shared_win(agent)
        } else {
            1.0 / self.winners.len().max(1) as f64
        }
    }

    /// The record of a finished `state` whose seats were `seats`, with the game's own
    /// statistics, how its lead moved and whether its rules ended it.
    pub fn new<G: Game>(
        state: &G,
        seats: &[usize],
        extra: Vec<(String, f64)>,
        lead: Lead,
        by_rules: bool,
    ) -> Record {
        let flags = state.winners();
        Record {
            lead,
            by_rules,
            seats: seats.to_vec(),
            scores: seats.iter().map(|&s| state.score(s)).collect(),
            winners: seats
                .iter()
                .map(|&s| flags.get(s).copied().unwrap_or(false))
                .collect(),
            length: state.step_count(),
            extra,
        }
    }

    /// The single winner (an agent index), or `None` on a draw or stalemate.
    pub fn winner(&self) -> Option<usize> {
        let mut won = self.winners.iter().enumerate().filter(|(_, w)| **w);
        match (won.next(), won.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    }
}
