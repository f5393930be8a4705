//! Microbial genetic algorithm over open-loop plans (Space Battle's enemy 4).

use super::budget::Budget;
use super::common::Rollouts;
use super::opponents::OpponentModel;
use super::{any_action, state_value};
use crate::game::{Agent, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;

/// Settings of [`MicrobialEa`]; defaults from the Space Battle spec.
#[derive(Clone, Debug, PartialEq)]
pub struct MicrobialConfig {
    /// Plans in the population (default 5).
    pub population: usize,
    /// Own steps per plan (default 7).
    pub plan_length: usize,
    /// Probability that the loser of a tournament takes each gene from the winner
    /// (default 0.1).
    pub recombination: f64,
    /// Probability that each gene of the loser is redrawn after recombination
    /// (default 1/7).
    pub mutation: f64,
    /// Discount of later steps in the fitness (default 0.9).
    pub discount: f64,
    /// Ticks each plan step repeats its action for (default 1).
    pub macro_action: usize,
    /// How other players act in simulations (default random).
    pub opponent: OpponentModel,
    /// Share of `budget` an OSLA opponent may spend on each of its choices
    /// (default 0.01).
    pub opponent_budget: f64,
    /// Forward-model calls per decision (default 1750: what MCTS spends at its
    /// default 175 iterations x depth 10 with one tick per step). With random
    /// opponents in Space Battle a plan costs `plan_length x macro_action` calls, a
    /// tournament two plans: 125 tournaments at the defaults.
    pub budget: usize,
}

impl Default for MicrobialConfig {
    fn default() -> Self {
        MicrobialConfig {
            population: 5,
            plan_length: 7,
            recombination: 0.1,
            mutation: 1.0 / 7.0,
            discount: 0.9,
            macro_action: 1,
            opponent: OpponentModel::Random,
            opponent_budget: 0.01,
            budget: 1750,
        }
    }
}

/// Microbial EA: a population of plans (own actions drawn with
/// [`Game::random_action`] on the current state; meant for games like Space Battle in
/// which every action is always legal, in others an illegal gene acts however the
/// game plays illegal actions). Each tournament picks two distinct plans and
/// evaluates both from a copy of the state; the loser takes each gene from the winner
/// with probability `recombination`, then redraws each gene with probability
/// `mutation`. A plan's fitness is `sum_t discount^t (v_me - max_other score)` after
/// each step `t`, `v_me` being `state_value` (win bonus included), with the others
/// acting by the opponent model. Tournaments run until the budget cannot pay for
/// another; the plan with the best last fitness gives the action. Between decisions
/// every plan is shifted by one step and gets a random last gene.
#[derive(Clone, Debug)]
pub struct MicrobialEa<G: Game> {
    /// Its settings.
    pub config: MicrobialConfig,
    rollouts: Rollouts<G>,
    population: Vec<Vec<G::Action>>,
    fitness: Vec<f64>,
    buf: Vec<G::Action>,
}

impl<G: Game> MicrobialEa<G> {
    /// A microbial EA agent with `config`.
    pub fn new(config: MicrobialConfig) -> Self {
        MicrobialEa {
            rollouts: Rollouts::new(config.opponent, config.budget, config.opponent_budget),
            config,
            population: Vec::new(),
            fitness: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Fitness of plan `i` from `root`, or `None` if the budget ran out.
    fn evaluate(
        &mut self,
        root: &G,
        player: usize,
        i: usize,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> Option<f64> {
        let MicrobialEa {
            config,
            rollouts,
            population,
            buf,
            ..
        } = self;
        let plan = &mut population[i];
        let steps = plan.len();
        let choose = |t: usize, state: &G, rng: &mut Rng| {
            // A gene drawn in another state may be illegal here (turn-based games):
            // it is replaced by a random legal action, in the plan too.
            if state.legal_actions(player, buf) && !buf.contains(&plan[t]) {
                if buf.is_empty() {
                    return None;
                }
                let pick = rng.random_range(0..buf.len());
                plan[t] = buf[pick].clone();
            }
            Some(plan[t].clone())
        };
        let mut fitness = 0.0;
        let mut weight = 1.0;
        let stepped = |state: &G| {
            let others = (0..state.num_players())
                .filter(|&q| q != player)
                .map(|q| state.value(q))
                .fold(f64::NEG_INFINITY, f64::max);
            let others = if others.is_finite() { others } else { 0.0 };
            fitness += weight * (state_value(state, player) - others);
            weight *= config.discount;
        };
        let repeat = config.macro_action;
        let (_, played) = rollouts.play(
            root,
            player,
            steps,
            repeat,
            budget,
            rng,
            choose,
            stepped,
            |_| (),
        );
        played.map(|()| fitness)
    }
}

impl<G: Game> Default for MicrobialEa<G> {
    fn default() -> Self {
        MicrobialEa::new(MicrobialConfig::default())
    }
}

impl<G: Game> Agent<G> for MicrobialEa<G> {
    fn name(&self) -> String {
        format!(
            "MicrobialEA(pop {}, len {}, budget {})",
            self.config.population, self.config.plan_length, self.config.budget
        )
    }

    /// Panics if the game offers `player` no action at all.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        let mut budget = self.rollouts.prepare(
            self.config.opponent,
            self.config.budget,
            self.config.opponent_budget,
        );
        let size = self.config.population.max(2);
        let len = self.config.plan_length.max(1);
        let draw = |buf: &mut Vec<G::Action>, rng: &mut Rng| {
            any_action(state, player, rng, buf)
                .unwrap_or_else(|| panic!("MicrobialEA: the game offers player {player} no action"))
        };
        // Shift buffer: drop each plan's first step, top up with random genes.
        self.population.resize_with(size, Vec::new);
        for plan in self.population.iter_mut() {
            if !plan.is_empty() {
                plan.remove(0);
            }
            plan.truncate(len);
            while plan.len() < len {
                plan.push(draw(&mut self.buf, rng));
            }
        }
        self.fitness.clear();
        self.fitness.resize(size, f64::NEG_INFINITY);
        let horizon = len * self.config.macro_action.max(1) + 1;
        let root = state.search_root(u32::try_from(horizon).unwrap_or(u32::MAX));
        let state = &root;
        loop {
            let before = budget.left();
            let a = rng.random_range(0..size);
            let b = (a + rng.random_range(1..size)) % size;
            let Some(fa) = self.evaluate(state, player, a, &mut budget, rng) else {
                break;
            };
            self.fitness[a] = fa;
            let Some(fb) = self.evaluate(state, player, b, &mut budget, rng) else {
                break;
            };
            self.fitness[b] = fb;
            let (winner, loser) = if fa >= fb { (a, b) } else { (b, a) };
            for g in 0..len {
                if rng.random::<f64>() < self.config.recombination {
                    let gene = self.population[winner][g].clone();
                    self.population[loser][g] = gene;
                }
                if rng.random::<f64>() < self.config.mutation {
                    self.population[loser][g] = draw(&mut self.buf, rng);
                }
            }
            self.fitness[loser] = f64::NEG_INFINITY;
            if budget.left() == before {
                break; // nothing to simulate (cannot happen while `player` must act)
            }
        }
        let mut best = 0;
        for i in 1..size {
            if self.fitness[i] > self.fitness[best] {
                best = i;
            }
        }
        let first = self.population[best][0].clone();
        if state.legal_actions(player, &mut self.buf) && !self.buf.contains(&first) {
            // Only when no evaluation reached the plan (budget too small to repair it).
            return draw(&mut self.buf, rng);
        }
        first
    }

    fn reset(&mut self) {
        self.population.clear();
        self.rollouts.reset();
    }
}
