//! Seeded rolling horizon (SRH): a (1+1) evolutionary algorithm over sequences of
//! seeds for the game's random action generator.

use super::common::{Rollouts, horizon_name, one_plus_one, start_from_best};
use super::opponents::OpponentModel;
use super::{any_action, state_value};
use crate::game::{Agent, Game};
use playtune_optim::rng::{Rng, rng_from_seed};
use rand::RngExt;

/// Settings of [`Srh`]. The defaults are the spec's tuned SRH*.
#[derive(Clone, Debug, PartialEq)]
pub struct SrhConfig {
    /// Seeds (own actions) per sequence (default 2).
    pub sequence_length: usize,
    /// Sequences evaluated per decision, the first included (default 200).
    pub evaluations: usize,
    /// Probability that a mutation redraws each seed (default 0.9).
    pub mutation_rate: f64,
    /// Every mutation redraws at least one seed (default off: SRH* does not set it).
    pub flip_at_least_one: bool,
    /// Keep the rest of the last decision's best seeds (default on).
    pub shift_buffer: bool,
    /// How other players act in simulations (default random).
    pub opponent: OpponentModel,
    /// Share of `budget` an OSLA opponent may spend on each of its choices
    /// (default 0.01).
    pub opponent_budget: f64,
    /// Forward-model calls ([`Game::advance`], opponents' included) per decision
    /// (default 1000). The search stops early when it runs out; a sequence cut short
    /// by it is discarded.
    pub budget: usize,
}

impl Default for SrhConfig {
    fn default() -> Self {
        SrhConfig {
            sequence_length: 2,
            evaluations: 200,
            mutation_rate: 0.9,
            flip_at_least_one: false,
            shift_buffer: true,
            opponent: OpponentModel::Random,
            opponent_budget: 0.01,
            budget: 1000,
        }
    }
}

/// The action a seed stands for in `state`: [`Game::random_action`] with a generator
/// seeded by it (so it is always legal), else the game's first listed action.
fn decode<G: Game>(
    state: &G,
    player: usize,
    seed: u64,
    buf: &mut Vec<G::Action>,
) -> Option<G::Action> {
    any_action(state, player, &mut rng_from_seed(seed), buf)
}

/// Rolling-horizon (1+1) EA whose genome is a sequence of `u64` seeds: gene `i` is
/// decoded into an action by the game's random action generator seeded with it, on
/// the state reached after the actions before it, so every decoded action is legal.
/// Mutation redraws each seed with probability `mutation_rate` (at least one with
/// `flip_at_least_one`); a child replaces its parent if its `state_value` at the
/// end of the sequence (other players acting by the opponent model) is at least as
/// high. Plays the first gene decoded on the current state.
#[derive(Clone, Debug)]
pub struct Srh<G: Game> {
    /// Its settings.
    pub config: SrhConfig,
    rollouts: Rollouts<G>,
    best: Vec<u64>,
    child: Vec<u64>,
    buf: Vec<G::Action>,
}

impl<G: Game> Srh<G> {
    /// An SRH agent with `config`.
    pub fn new(config: SrhConfig) -> Self {
        Srh {
            rollouts: Rollouts::new(config.opponent, config.budget, config.opponent_budget),
            config,
            best: Vec::new(),
            child: Vec::new(),
            buf: Vec::new(),
        }
    }
}

impl<G: Game> Default for Srh<G> {
    fn default() -> Self {
        Srh::new(SrhConfig::default())
    }
}

impl<G: Game> Agent<G> for Srh<G> {
    fn name(&self) -> String {
        let c = &self.config;
        horizon_name("SRH", c.sequence_length, c.evaluations, c.budget)
    }

    /// Panics if the game offers `player` no action at all.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        let Srh {
            config,
            rollouts,
            best,
            child,
            buf,
        } = self;
        let mut budget = rollouts.prepare(config.opponent, config.budget, config.opponent_budget);
        let len = config.sequence_length.max(1);
        start_from_best(best, child, config.shift_buffer, len);
        while child.len() < len {
            child.push(rng.random());
        }
        one_plus_one(
            best,
            child,
            config.evaluations,
            rng,
            (),
            |child, rng| {
                let mut flipped = false;
                for gene in child.iter_mut() {
                    if rng.random::<f64>() < config.mutation_rate {
                        *gene = rng.random();
                        flipped = true;
                    }
                }
                if config.flip_at_least_one && !flipped {
                    let i = rng.random_range(0..len);
                    child[i] = rng.random();
                }
            },
            // The value of the child's seeds played from `state`.
            |child, (), rng| {
                let decoded = |i: usize, at: &G, _: &mut Rng| decode(at, player, child[i], buf);
                let end = |at: &G| state_value(at, player);
                let steps = child.len();
                let (_, value) = rollouts.play(
                    state,
                    player,
                    steps,
                    1,
                    &mut budget,
                    rng,
                    decoded,
                    |_| {},
                    end,
                );
                value
            },
        );
        // Gene 0 decodes on `state` itself, whichever evaluation it came from.
        decode(state, player, best[0], buf)
            .unwrap_or_else(|| panic!("SRH: the game offers player {player} no action"))
    }

    fn reset(&mut self) {
        self.best.clear();
        self.rollouts.reset();
    }
}
