//! MCTS's tests on a toy duel: its tree statistics, a leaf evaluator, portfolio search.
//! Its strength, budgets and pinned decisions on the real games are in
//! `tests/agents_on_games/mcts.rs`.

use super::*;
use crate::agents::duel::Duel;
use playtune_optim::rng::rng_from_seed;
use std::sync::Arc;

#[test]
fn a_finished_game_does_not_flatten_the_other_scores() {
    // Rinascimento's MCTS* settings.
    let mut m = Mcts::<Duel>::new(MctsConfig {
        iterations: usize::MAX,
        rollout_depth: 1,
        c: 0.0,
        epsilon: 1e-6,
        p_exp: Some(0.4),
        progression_width: 1,
        recommendation: Recommendation::SecureChild,
        budget: 100,
        ..MctsConfig::default()
    });
    let root = m.new_node(0, None);
    let (low, high, lost) = (
        m.new_node(root, None),
        m.new_node(root, None),
        m.new_node(root, None),
    );
    m.backup(low, 3.0, 0.0);
    m.backup(high, 5.0, 0.0);
    m.backup(lost, 4.0, -1.0);
    let q = |c: usize| m.normalised_mean(&m.nodes[c]);
    // Two points apart out of a 3-to-5 range: a full unit, not 2e-7.
    assert!(q(high) - q(low) > 0.99, "{} vs {}", q(high), q(low));
    assert!(q(lost) < q(low), "a loss ranks below every unfinished game");
    assert_eq!(m.recommend(), Some(high));
    assert_eq!(Mcts::<Duel>::mean_value(&m.nodes[lost]), 4.0 - WIN_BONUS);
}

#[test]
fn an_evaluator_replaces_the_rollout() {
    use crate::agents::duel::{Duel, DuelEvaluator, wins_against_random};
    use crate::game::Counted;
    let config = MctsConfig {
        iterations: 200,
        rollout_depth: 12,
        ..MctsConfig::default()
    };
    // Forward-model calls of one decision with rollouts and with the evaluator.
    let calls = |evaluator: Option<Arc<DuelEvaluator>>| {
        let mut agent = Mcts::<Counted<Duel>>::new(config.clone());
        if let Some(e) = evaluator {
            struct Wrap(Arc<DuelEvaluator>);
            impl StateEvaluator<Counted<Duel>> for Wrap {
                fn evaluate(&self, s: &Counted<Duel>, p: usize) -> f64 {
                    self.0.evaluate(&s.inner, p)
                }
                fn label(&self) -> String {
                    self.0.label()
                }
            }
            agent = agent.with_evaluator(Arc::new(Wrap(e)));
        }
        let state = Counted::new(Duel::new());
        agent.act(&state, 0, &mut rng_from_seed(4));
        state.take()
    };
    let evaluator = Arc::new(DuelEvaluator::new(false));
    let (rolled, evaluated) = (calls(None), calls(Some(evaluator.clone())));
    assert_eq!(
        evaluator.calls.load(std::sync::atomic::Ordering::Relaxed),
        200,
        "one evaluation per iteration"
    );
    assert!(
        evaluated * 2 < rolled,
        "{evaluated} calls against {rolled} with rollouts"
    );
    let mut agent = Mcts::<Duel>::new(config).with_evaluator(evaluator);
    assert!(agent.name().contains("duel-margin"));
    let wins = wins_against_random(&mut agent, 20);
    assert!(wins >= 18, "{wins}/20");
}

fn p_mcts(
    bias: bool,
    unpruning: bool,
    iterations: usize,
    weights: [f64; 3],
) -> Mcts<crate::agents::duel::Duel> {
    use crate::agents::duel::DuelPortfolio;
    use crate::agents::{PortfolioSearch, ScriptWeights};
    Mcts::with_portfolio(
        MctsConfig {
            iterations,
            rollout_depth: 12,
            ..MctsConfig::default()
        },
        PortfolioSearch {
            portfolio: std::sync::Arc::new(DuelPortfolio),
            weights: ScriptWeights(weights.to_vec()),
            bias,
            unpruning,
        },
    )
}

#[test]
fn every_portfolio_mcts_beats_random_in_a_duel() {
    for (bias, unpruning) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut agent = p_mcts(bias, unpruning, 200, [0.5; 3]);
        let wins = crate::agents::duel::wins_against_random(&mut agent, 10);
        assert!(wins >= 9, "{}: {wins}/10", agent.name());
    }
}

/// With progressive unpruning, untried children are expanded best `w * value`
/// first, so one iteration plays the top-weighted script's action; without it the
/// weights do not matter.
#[test]
fn script_weights_steer_unpruned_expansion() {
    use crate::agents::duel::{Duel, Move};
    let s = Duel::new();
    for (weights, expected) in [([1.0, 0.0, 0.0], Move::Build), ([0.0, 0.0, 1.0], Move::End)] {
        let mut agent = p_mcts(false, true, 1, weights);
        assert_eq!(
            agent.act(&s, 0, &mut rng_from_seed(1)),
            expected,
            "{weights:?}"
        );
    }
    let plays = |weights| {
        let mut agent = p_mcts(false, false, 1, weights);
        (0..20)
            .map(|seed| agent.act(&s, 0, &mut rng_from_seed(seed)))
            .collect::<Vec<_>>()
    };
    assert_eq!(plays([1.0, 0.0, 0.0]), plays([0.0, 0.0, 1.0]));
}
