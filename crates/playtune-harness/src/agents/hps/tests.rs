//! Tests of Hierarchical Portfolio Search.

use super::*;
use crate::agents::duel::{Duel, DuelPlayers, Move};
use playtune_optim::rng::rng_from_seed;

fn hps(search: HpsSearch, leaf: LeafEvaluation, budget: usize) -> Hps<Duel> {
    Hps::new(
        HpsConfig {
            search,
            leaf,
            budget,
            ..HpsConfig::default()
        },
        Arc::new(DuelPlayers),
    )
}

#[test]
fn both_searches_build_twice_then_strike() {
    for search in [HpsSearch::AlphaBeta, HpsSearch::Uct] {
        let mut agent = hps(search, LeafEvaluation::Heuristic, 5000);
        let mut s = Duel::new();
        let mut rng = rng_from_seed(1);
        let mut turn = Vec::new();
        while s.mover == 0 {
            let a = agent.act(&s, 0, &mut rng);
            turn.push(a);
            s.advance(&[a]);
        }
        assert_eq!(
            turn,
            [Move::Build, Move::Build, Move::Strike, Move::End],
            "{search:?}"
        );
    }
}

#[test]
fn hps_beats_random_with_every_setting() {
    for search in [HpsSearch::AlphaBeta, HpsSearch::Uct] {
        for leaf in [LeafEvaluation::Heuristic, LeafEvaluation::Playout] {
            let mut agent = hps(search, leaf, 2000);
            let wins = crate::agents::duel::wins_against_random(&mut agent, 10);
            assert!(wins >= 9, "{search:?} {leaf:?}: {wins}/10");
        }
    }
}

#[test]
fn a_learned_leaf_is_called_and_steers_the_search() {
    use crate::agents::duel::DuelEvaluator;
    for search in [HpsSearch::AlphaBeta, HpsSearch::Uct] {
        let right = Arc::new(DuelEvaluator::new(false));
        let mut agent = hps(search, LeafEvaluation::Heuristic, 2000).with_evaluator(right.clone());
        assert!(agent.name().contains("duel-margin"), "{}", agent.name());
        let wins = crate::agents::duel::wins_against_random(&mut agent, 20);
        assert!(wins >= 18, "{search:?}: {wins}/20 with a right evaluator");
        let calls = right.calls.load(std::sync::atomic::Ordering::Relaxed);
        assert!(calls > 0 && agent.work().leaves >= calls as u64, "{calls}");
        // The same search misled by the opposite evaluator plays to lose.
        let wrong = Arc::new(DuelEvaluator::new(true));
        let mut agent = hps(search, LeafEvaluation::Heuristic, 2000).with_evaluator(wrong);
        let wins = crate::agents::duel::wins_against_random(&mut agent, 20);
        assert!(
            wins <= 12,
            "{search:?}: {wins}/20 with a misleading evaluator"
        );
    }
}

#[test]
fn a_learned_evaluator_at_the_end_of_the_playout_steers_the_search() {
    use crate::agents::duel::DuelEvaluator;
    let right = Arc::new(DuelEvaluator::new(false));
    let mut agent = hps(HpsSearch::AlphaBeta, LeafEvaluation::PlayoutLearned, 2000)
        .with_evaluator(right.clone());
    assert!(
        agent.name().contains("playout, then duel-margin"),
        "{}",
        agent.name()
    );
    let wins = crate::agents::duel::wins_against_random(&mut agent, 20);
    assert!(wins >= 18, "{wins}/20 with a right evaluator");
    assert!(right.calls.load(std::sync::atomic::Ordering::Relaxed) > 0);
    let wrong = Arc::new(DuelEvaluator::new(true));
    let mut agent =
        hps(HpsSearch::AlphaBeta, LeafEvaluation::PlayoutLearned, 2000).with_evaluator(wrong);
    let wins = crate::agents::duel::wins_against_random(&mut agent, 20);
    assert!(wins <= 12, "{wins}/20 with a misleading evaluator");
}

#[test]
fn a_time_limit_ends_the_search() {
    // No call limit and a deep search: only the 2 ms limit can stop it. The bound
    // checked is far above the limit, so a loaded machine does not fail it; a
    // limit that is ignored searches to depth 30 and never returns in time.
    let mut agent = Hps::new(
        HpsConfig {
            depth: 30,
            budget: usize::MAX,
            time: Some(Duration::from_millis(2)),
            ..HpsConfig::default()
        },
        Arc::new(DuelPlayers),
    );
    let mut rng = rng_from_seed(3);
    agent.act(&Duel::new(), 0, &mut rng);
    let work = agent.work();
    assert!(work.leaves > 0);
    assert!(
        work.thinking < Duration::from_secs(2),
        "{:?}",
        work.thinking
    );
    assert!(agent.name().contains("2 ms"), "{}", agent.name());
}

#[test]
fn the_budget_bounds_forward_model_calls() {
    use crate::game::Counted;

    struct Wrapped(DuelPlayers);
    impl PhasePlayers<Counted<Duel>> for Wrapped {
        fn phases(&self) -> &[(&'static str, &'static [&'static str])] {
            self.0.phases()
        }
        fn next_action(
            &self,
            s: &Counted<Duel>,
            p: usize,
            ph: usize,
            o: usize,
            r: &mut Rng,
        ) -> Option<Move> {
            self.0.next_action(&s.inner, p, ph, o, r)
        }
        fn end_turn(&self, s: &Counted<Duel>, p: usize) -> Move {
            self.0.end_turn(&s.inner, p)
        }
        fn heuristic(&self, s: &Counted<Duel>, p: usize) -> f64 {
            self.0.heuristic(&s.inner, p)
        }
    }
    for search in [HpsSearch::AlphaBeta, HpsSearch::Uct] {
        for leaf in [LeafEvaluation::Heuristic, LeafEvaluation::Playout] {
            let config = HpsConfig {
                search,
                leaf,
                depth: 6,
                budget: 300,
                ..HpsConfig::default()
            };
            let mut agent = Hps::new(config, Arc::new(Wrapped(DuelPlayers)));
            let state = Counted::new(Duel::new());
            let mut rng = rng_from_seed(2);
            agent.act(&state, 0, &mut rng);
            let calls = state.take();
            assert!(
                calls <= 300 && calls > 200,
                "{search:?} {leaf:?}: {calls} calls"
            );
        }
    }
}
