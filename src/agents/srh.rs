//! Seeded rolling horizon (SRH): a (1+1) evolutionary algorithm over sequences of
//! seeds for the game's random action generator.

use super::common::Budget;
use super::opponents::{OpponentModel, Simulator, opponent_calls};
use super::{any_action, state_value};
use crate::game::{Agent, Game};
use crate::rng::{Rng, rng_from_seed};
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
/// `flip_at_least_one`); a child replaces its parent if its [`state_value`] at the
/// end of the sequence (other players acting by the opponent model) is at least as
/// high. Plays the first gene decoded on the current state.
#[derive(Clone, Debug)]
pub struct Srh<G: Game> {
    pub config: SrhConfig,
    sim: Simulator<G>,
    scratch: Option<G>,
    best: Vec<u64>,
    child: Vec<u64>,
    buf: Vec<G::Action>,
}

impl<G: Game> Srh<G> {
    pub fn new(config: SrhConfig) -> Self {
        let calls = opponent_calls(config.budget, config.opponent_budget);
        Srh {
            sim: Simulator::new(config.opponent, calls),
            config,
            scratch: None,
            best: Vec::new(),
            child: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Value of `self.child` played from `root`, or `None` if the budget ran out.
    fn evaluate(
        &mut self,
        root: &G,
        player: usize,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> Option<f64> {
        let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
        state.clone_from(root);
        let mut ok = self.sim.play_others(&mut state, player, budget, rng);
        for i in 0..self.child.len() {
            if !ok || state.is_over() {
                break;
            }
            let Some(action) = decode(&state, player, self.child[i], &mut self.buf) else {
                break;
            };
            ok = self.sim.step(&mut state, player, &action, 1, budget, rng);
        }
        let value = state_value(&state, player);
        self.scratch = Some(state);
        ok.then_some(value)
    }
}

impl<G: Game> Default for Srh<G> {
    fn default() -> Self {
        Srh::new(SrhConfig::default())
    }
}

impl<G: Game> Agent<G> for Srh<G> {
    fn name(&self) -> String {
        format!(
            "SRH(len {}, {} evals, budget {})",
            self.config.sequence_length, self.config.evaluations, self.config.budget
        )
    }

    /// Panics if the game offers `player` no action at all.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        let mut budget = self.sim.prepare(
            self.config.opponent,
            self.config.budget,
            self.config.opponent_budget,
        );
        let len = self.config.sequence_length.max(1);
        self.child.clear();
        if self.config.shift_buffer {
            self.child.extend(self.best.iter().skip(1).take(len));
        }
        while self.child.len() < len {
            self.child.push(rng.random());
        }
        let mut best_value = self.evaluate(state, player, &mut budget, rng);
        std::mem::swap(&mut self.best, &mut self.child);
        if best_value.is_some() {
            for _ in 1..self.config.evaluations {
                self.child.clone_from(&self.best);
                let mut flipped = false;
                for gene in self.child.iter_mut() {
                    if rng.random::<f64>() < self.config.mutation_rate {
                        *gene = rng.random();
                        flipped = true;
                    }
                }
                if self.config.flip_at_least_one && !flipped {
                    let i = rng.random_range(0..len);
                    self.child[i] = rng.random();
                }
                let Some(v) = self.evaluate(state, player, &mut budget, rng) else {
                    break;
                };
                if best_value.is_none_or(|b| v >= b) {
                    best_value = Some(v);
                    std::mem::swap(&mut self.best, &mut self.child);
                }
            }
        }
        // Gene 0 decodes on `state` itself, whichever evaluation it came from.
        decode(state, player, self.best[0], &mut self.buf)
            .unwrap_or_else(|| panic!("SRH: the game offers player {player} no action"))
    }

    fn reset(&mut self) {
        self.best.clear();
        self.scratch = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;
    use crate::agents::common::testing::{max_rin_calls, rin_actions, rin_wins};
    use crate::games::rinascimento::RinState;

    #[test]
    fn srh_beats_random_in_rinascimento() {
        let wins = rin_wins(&mut Srh::default(), &mut RandomAgent, 20);
        println!("SRH* vs Random: {wins}/20 wins");
        assert!(wins * 10 > 20 * 6, "SRH won {wins} of 20");
    }

    #[test]
    fn srh_respects_its_budget() {
        for opponent in [
            OpponentModel::DoNothing,
            OpponentModel::Random,
            OpponentModel::Osla,
        ] {
            let budget = 150;
            let mut agent = Srh::new(SrhConfig {
                sequence_length: 5,
                evaluations: 10_000,
                flip_at_least_one: true,
                opponent,
                opponent_budget: 0.05,
                budget,
                ..SrhConfig::default()
            });
            let most = max_rin_calls(&mut agent, 30);
            assert!(most <= budget, "{most} calls for a budget of {budget}");
            assert!(most + 30 > budget, "the search stopped early: {most} calls");
        }
    }

    #[test]
    fn same_seed_same_actions() {
        let mut agent = Srh::<RinState>::default();
        let a = rin_actions(&mut agent, 5);
        assert_eq!(a, rin_actions(&mut agent, 5));
        assert!(!a.is_empty());
    }
}
