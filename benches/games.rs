//! Game and agent speed: Space Battle ticks, forward-model copies, agent decisions and
//! one skill-depth evaluation; Rinascimento random games; the strategy game's games,
//! decisions and HPS leaf evaluations (heuristic, playout, learned). Each figure is per iteration
//! of the named unit, so `cargo bench --bench games` prints them as times; the README
//! turns them into rates next to the Java reference's.

use criterion::{Criterion, criterion_group, criterion_main};
use playtune::agents::{Mcts, MctsConfig, RandomAgent};
use playtune::game::{Acting, Agent, Game};
use playtune::games::rinascimento::{Rules, play_game as play_rinascimento};
use playtune::games::space_battle::{
    OneStepLookAhead, RotateAndShoot, SbeAction, SbeParams, SbeState,
};
use playtune::rng::{Rng, rng_from_seed};
use std::hint::black_box;

fn eight_holes() -> SbeParams {
    let mut p = SbeParams {
        grid_size: 3,
        ..SbeParams::default()
    };
    for c in 0..8 {
        p.blackhole_cells[c] = true;
    }
    p
}

/// Space Battle without [`Game::search_root`]'s plan: the baseline for agents' speed.
struct Unplanned(SbeState);

impl Clone for Unplanned {
    fn clone(&self) -> Self {
        Unplanned(self.0.clone())
    }
    // Search agents reuse their copies: keep the state's allocation-free copy.
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0)
    }
}

impl Game for Unplanned {
    type Action = SbeAction;
    fn num_players(&self) -> usize {
        2
    }
    fn acting(&self) -> Acting {
        self.0.acting()
    }
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    fn step_count(&self) -> u32 {
        self.0.step_count()
    }
    fn random_action(&self, player: usize, rng: &mut Rng) -> Option<SbeAction> {
        self.0.random_action(player, rng)
    }
    fn legal_actions(&self, player: usize, out: &mut Vec<SbeAction>) -> bool {
        self.0.legal_actions(player, out)
    }
    fn advance(&mut self, actions: &[SbeAction]) {
        self.0.advance(actions)
    }
    fn score(&self, player: usize) -> f64 {
        self.0.score(player)
    }
    fn winners(&self) -> Vec<bool> {
        self.0.winners()
    }
}

/// 1000 ticks of RAS vs RAS, no agent cost (LF for both ships).
fn ticks(c: &mut Criterion) {
    let mut g = c.benchmark_group("space_battle");
    for (name, params) in [
        ("1000_ticks_0_holes", SbeParams::default()),
        ("1000_ticks_8_holes", eight_holes()),
    ] {
        let start = SbeState::new(params, 1);
        let lf = playtune::games::space_battle::action::LF;
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut s = start.clone();
                for _ in 0..1000 {
                    s.step([lf, lf]);
                }
                black_box(s.points(0))
            })
        });
    }
    // A forward-model use as agents make it: copy a mid-game state, advance it once.
    let mut mid = SbeState::new(eight_holes(), 2);
    let lf = playtune::games::space_battle::action::LF;
    for _ in 0..300 {
        mid.step([lf, lf]);
    }
    let mut scratch = mid.clone();
    g.bench_function("1000_copy_and_advance", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                scratch.clone_from(&mid);
                scratch.step([lf, lf]);
            }
            black_box(scratch.points(0))
        })
    });
    let mut rng = rng_from_seed(3);
    let mut osla = OneStepLookAhead::new();
    g.bench_function("1sla_decision", |b| {
        b.iter(|| black_box(osla.act(&mid, 0, &mut rng)))
    });
    let mcts_config = MctsConfig {
        iterations: 175,
        rollout_depth: 10,
        macro_action: 5,
        ..MctsConfig::default()
    };
    for (name, state) in [
        (
            "mcts_decision_0_holes",
            SbeState::new(SbeParams::default(), 4),
        ),
        ("mcts_decision_8_holes", mid.clone()),
    ] {
        let mut mcts = Mcts::new(mcts_config.clone());
        g.bench_function(name, |b| {
            b.iter(|| black_box(mcts.act(&state, 0, &mut rng)))
        });
    }
    // The baseline in the same process: the same decision without a search plan.
    let mut mcts = Mcts::new(mcts_config);
    let plain = Unplanned(mid.clone());
    g.bench_function("mcts_decision_8_holes_unplanned", |b| {
        b.iter(|| black_box(mcts.act(&plain, 0, &mut rng)))
    });
    g.sample_size(10);
    let problem = playtune::registry::build_problem(
        &playtune::run::ProblemSpec {
            name: "space-battle".into(),
            settings: Default::default(),
        },
        None,
    )
    .unwrap();
    let x = problem.space().decode(&problem.space().default_indices());
    g.bench_function("skill_depth_evaluation_default", |b| {
        b.iter(|| black_box(problem.evaluate(&x, 5).unwrap().fitness))
    });
    let mut ras = RotateAndShoot;
    let _ = &mut ras;
    g.finish();
}

/// 100 random 4-player Rinascimento games.
fn rinascimento(c: &mut Criterion) {
    let rules = Rules::default();
    let mut seed = 0;
    c.bench_function("rinascimento/100_random_games_4p", |b| {
        b.iter(|| {
            let mut actions = 0u64;
            for _ in 0..100 {
                seed += 1;
                let mut agents = [RandomAgent, RandomAgent, RandomAgent, RandomAgent];
                let mut refs: Vec<&mut dyn Agent<_>> =
                    agents.iter_mut().map(|a| a as &mut dyn Agent<_>).collect();
                actions += play_rinascimento(&rules, &mut refs, seed).length as u64;
            }
            black_box(actions)
        })
    });
}

/// One decision of each Rinascimento agent at the default budget (1000 forward-model
/// actions), from a mid-game 4-player state.
fn rinascimento_agents(c: &mut Criterion) {
    use playtune::games::rinascimento::{RinState, Rinascimento};
    use playtune::harness::agents::{all_agents, build_agent};
    use playtune::harness::{AgentSpec, GameDef, Values};
    let entries = all_agents(Rinascimento.agents());
    let game = Values::new("game", &Rinascimento.settings(), &[]).unwrap();
    let mut state = RinState::new(&Rules::default(), 7).unwrap();
    let mut rng = rng_from_seed(8);
    let mut random = RandomAgent;
    for _ in 0..40 {
        let p = state.current_player();
        let a = random.act(&state, p, &mut rng);
        state.play(&a);
    }
    let mut g = c.benchmark_group("rinascimento_decision_budget_1000");
    g.sample_size(20);
    for name in ["rnd", "osla", "bmrh*", "srh*", "mcts*"] {
        let spec = AgentSpec::parse(name).unwrap();
        let mut agent = build_agent("rinascimento", &entries, &spec, Some(1000), &game).unwrap();
        let p = state.current_player();
        g.bench_function(name, |b| {
            b.iter(|| black_box(agent.act(&state, p, &mut rng)))
        });
    }
    g.finish();
}

/// Random strategy games (both players uniformly random, 30 turns each or a capital
/// taken) on the 20 training levels; the throughput is in turns (one player's turn).
fn strategy(c: &mut Criterion) {
    use criterion::Throughput;
    use playtune::games::strategy::{StrategyState, training_levels};
    let play = |seed: u64| {
        let mut rng = rng_from_seed(seed);
        let mut s = StrategyState::from_seed(seed);
        while !s.is_over() {
            let p = s.current();
            let a = s.random_action(p, &mut rng).expect("a legal action");
            s.advance(&[a]);
        }
        (s.log().turns(0).len() + s.log().turns(1).len()) as u64
    };
    let turns: u64 = training_levels().into_iter().map(play).sum();
    let mut g = c.benchmark_group("strategy");
    g.throughput(Throughput::Elements(turns));
    g.bench_function("random_games_20_training_levels", |b| {
        b.iter(|| black_box(training_levels().into_iter().map(play).sum::<u64>()))
    });
    g.finish();
}

/// A mid-game state of the strategy game: the rule-based bot played both sides for 8
/// rounds.
fn strategy_mid_game() -> playtune::games::strategy::StrategyState {
    use playtune::games::strategy::{RuleBased, StrategyState};
    let mut s = StrategyState::from_seed(3);
    let mut rng = rng_from_seed(1);
    while s.turn() < 8 && !s.is_over() {
        let p = s.current();
        let a = RuleBased.act(&s, p, &mut rng);
        s.advance(&[a]);
    }
    s
}

/// One decision of the strategy game's search agents at their defaults, from a
/// mid-game state (the rule-based bot played both sides for 8 rounds): P-MCTS(PU) and
/// MCTS at 2000 forward-model calls, HPS at 20,000 calls a turn (its first decision
/// plans the whole turn; the bench times that search).
fn strategy_agents(c: &mut Criterion) {
    use playtune::games::strategy::Strategy;
    use playtune::harness::agents::{AgentSpec, all_agents, build_agent};
    use playtune::harness::{GameDef, Values};
    let s = strategy_mid_game();
    let mut rng = rng_from_seed(1);
    let p = s.current();
    let entries = all_agents(Strategy.agents());
    let values = Values::new("game", &Strategy.settings(), &[]).expect("defaults");
    let mut g = c.benchmark_group("strategy_decision");
    g.sample_size(10);
    for name in ["mcts", "p-mcts-pu", "hps"] {
        let spec = AgentSpec::parse(name).expect("a name");
        let mut agent = build_agent("strategy", &entries, &spec, None, &values).expect("agent");
        g.bench_function(name, |b| {
            b.iter(|| {
                agent.reset();
                black_box(agent.act(&s, p, &mut rng))
            })
        });
    }
    g.finish();
}

/// HPS's leaf evaluations in the strategy game, one call each, from the same
/// mid-game state: the heuristic, the symmetric playout (2 turns, then the heuristic)
/// and learned networks of several sizes over the game's encoding, from the paper's
/// 512-512 down to 32-32 (random weights cost what trained ones cost). Read them as
/// ratios to the heuristic and the playout, the shape of the paper's Table II.
fn strategy_leaf_evaluators(c: &mut Criterion) {
    use playtune::agents::{Hps, HpsConfig, LeafEvaluation, StateEvaluator};
    use playtune::games::strategy::encoding::encoding;
    use playtune::games::strategy::{StrategyEncoding, StrategyPhases, StrategyState};
    use playtune::learn::network::Network;
    use playtune::learn::{LearnedEvaluator, StateEncoding};
    use std::sync::Arc;
    let s = strategy_mid_game();
    let mut rng = rng_from_seed(1);
    let learned = |hidden: &[usize]| -> Arc<dyn StateEvaluator<StrategyState>> {
        let network = Arc::new(Network::random(encoding().clone(), hidden, 1));
        Arc::new(
            LearnedEvaluator::new(
                network,
                Arc::new(StrategyEncoding) as Arc<dyn StateEncoding<StrategyState>>,
                "random",
            )
            .expect("same encoding"),
        )
    };
    let agent = |leaf| {
        Hps::new(
            HpsConfig {
                leaf,
                ..HpsConfig::default()
            },
            Arc::new(StrategyPhases),
        )
    };
    let mut g = c.benchmark_group("strategy_leaf_evaluation");
    let mut agents = vec![
        ("heuristic".to_string(), agent(LeafEvaluation::Heuristic)),
        ("playout".to_string(), agent(LeafEvaluation::Playout)),
    ];
    for hidden in [[512, 512], [256, 256], [128, 128], [64, 64], [32, 32]] {
        agents.push((
            format!("learned_{}_{}", hidden[0], hidden[1]),
            agent(LeafEvaluation::Heuristic).with_evaluator(learned(&hidden)),
        ));
    }
    for (name, hps) in &agents {
        g.bench_function(name.as_str(), |b| {
            b.iter(|| black_box(hps.leaf_value(&s, 0, &mut rng)))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    ticks,
    rinascimento,
    rinascimento_agents,
    strategy,
    strategy_agents,
    strategy_leaf_evaluators
);
criterion_main!(benches);
