//! MCTS on the real games: its strength, its budgets, its pinned decisions.

use crate::helpers::sbe_scores;
use playtune_harness::agents::mcts::*;
use playtune_harness::agents::*;
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::{Rng, rng_from_seed};
use playtune_rinascimento::{self as rinascimento, RinState, Rules};
use playtune_space_battle::{DoNothing, SbeParams, SbeState};

fn sbe_config() -> MctsConfig {
    MctsConfig {
        iterations: 60,
        rollout_depth: 10,
        macro_action: 5,
        ..MctsConfig::default()
    }
}

#[test]
fn mcts_outscores_random_in_space_battle() {
    let (m, r) = sbe_scores(&mut Mcts::new(sbe_config()), &mut RandomAgent);
    println!("MCTS {m} vs Random {r}");
    assert!(m > r, "MCTS {m} vs Random {r}");
}

#[test]
fn mcts_outscores_do_nothing_in_space_battle() {
    let (m, d) = sbe_scores(&mut Mcts::new(sbe_config()), &mut DoNothing);
    println!("MCTS {m} vs DoNothing {d}");
    assert!(m > d, "MCTS {m} vs DoNothing {d}");
}

#[test]
fn mcts_beats_random_in_rinascimento() {
    let rules = Rules::splendor(2);
    let games = 20;
    let mut wins = 0;
    for seed in 0..games {
        let mut mcts = Mcts::<RinState>::new(MctsConfig {
            iterations: 100,
            ..MctsConfig::default()
        });
        let mut random = RandomAgent;
        let record = rinascimento::play_game(&rules, &mut [&mut mcts, &mut random], seed);
        if record.winners[0] && !record.winners[1] {
            wins += 1;
        }
    }
    println!("MCTS(100) vs Random: {wins}/{games} wins");
    assert!(wins * 10 > games * 6, "MCTS won {wins} of {games}");
}

#[test]
fn mcts_star_beats_random_in_two_player_rinascimento() {
    let rules = Rules::splendor(2);
    let games = 20;
    let mut wins = 0;
    for seed in 0..games {
        let mut mcts = Mcts::<RinState>::new(playtune_rinascimento::mcts_star(1000));
        let mut random = RandomAgent;
        let record = rinascimento::play_game(&rules, &mut [&mut mcts, &mut random], seed);
        if record.winners[0] && !record.winners[1] {
            wins += 1;
        }
    }
    println!("MCTS* vs Random: {wins}/{games} wins");
    assert!(wins * 10 > games * 6, "MCTS* won {wins} of {games}");
}

#[test]
fn budget_bounds_forward_model_calls_for_every_setting() {
    use crate::helpers::Counted;
    let state = Counted::new(RinState::new(&Rules::splendor(4), 5).unwrap());
    let mut rng = rng_from_seed(3);
    for (i, rec) in [
        Recommendation::MaxChild,
        Recommendation::RobustChild,
        Recommendation::SecureChild,
    ]
    .into_iter()
    .enumerate()
    {
        assert_eq!(Recommendation::from_index(rec.index()), Some(rec));
        let config = MctsConfig {
            c: 1.41,
            rollout_depth: 5,
            progression_width: 3,
            opponent: OpponentModel::from_index(i).unwrap(),
            opponent_budget: 0.05,
            roll_with_opponents: i != 1,
            recommendation: rec,
            ..playtune_rinascimento::mcts_star(300)
        };
        let mut agent = Mcts::<Counted<RinState>>::new(config);
        state.take();
        let a = agent.act(&state, 0, &mut rng);
        assert!(state.inner.is_legal(0, &a));
        let calls = state.take();
        assert!(calls <= 300 && calls > 250, "{calls} calls");
    }
}

#[test]
fn same_seed_same_actions() {
    let run = |seed| {
        let mut agent = Mcts::<SbeState>::new(MctsConfig {
            iterations: 30,
            macro_action: 5,
            ..MctsConfig::default()
        });
        crate::helpers::sbe_actions(&mut agent, seed, 5)
    };
    let a = run(9);
    assert_eq!(a, run(9));
    assert_ne!(a, run(10), "different seeds should explore differently");
}

/// Pins the decisions MCTS makes: a hash of every action it chooses over a
/// fixed-seed Space Battle game (8 black holes, twin missiles, vs RotateAndShoot)
/// and a 2-player Rinascimento game (MCTS* vs random). Any speed-up of the search
/// or of the forward model must keep these hashes.
#[test]
fn decisions_are_pinned_by_hash() {
    use playtune_optim::rng::mix64;
    use playtune_space_battle::RotateAndShoot;
    use playtune_space_battle::params::MissileType;

    fn feed(h: &mut u64, s: &str) {
        for b in s.bytes() {
            *h = mix64(*h ^ u64::from(b));
        }
        *h = mix64(*h ^ 0xFF);
    }

    /// Hashes the actions of the agent it wraps.
    struct Recorder<G: Game> {
        inner: Mcts<G>,
        hash: u64,
        count: usize,
    }
    impl<G: Game> Agent<G> for Recorder<G> {
        fn name(&self) -> String {
            self.inner.name()
        }
        fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
            let a = self.inner.act(state, player, rng);
            feed(&mut self.hash, &format!("{a:?}"));
            self.count += 1;
            a
        }
        fn reset(&mut self) {
            self.inner.reset();
        }
    }

    // Space Battle: 150 ticks, 8 holes, twin missiles.
    let mut params = SbeParams {
        grid_size: 3,
        missile_type: MissileType::Twin,
        ..SbeParams::default()
    };
    for c in 0..8 {
        params.blackhole_cells[c] = true;
    }
    let mut s = SbeState::new(params, 11);
    let mut mcts = Recorder {
        inner: Mcts::<SbeState>::new(MctsConfig {
            iterations: 175,
            rollout_depth: 10,
            macro_action: 5,
            ..MctsConfig::default()
        }),
        hash: 0,
        count: 0,
    };
    let mut ras = RotateAndShoot;
    let mut rng = rng_from_seed(5);
    let mut ras_rng = rng_from_seed(6);
    for _ in 0..150 {
        let a = mcts.act(&s, 0, &mut rng);
        let b = ras.act(&s, 1, &mut ras_rng);
        s.step([a, b]);
    }
    let sbe = (mcts.hash, mcts.count);

    // Rinascimento: MCTS* (1000 calls) vs random, 2 players.
    let mut star = Recorder {
        inner: Mcts::<RinState>::new(playtune_rinascimento::mcts_star(1000)),
        hash: 0,
        count: 0,
    };
    let mut random = RandomAgent;
    rinascimento::play_game(&Rules::splendor(2), &mut [&mut star, &mut random], 7);
    let rin = (star.hash, star.count);

    assert_eq!((sbe, rin), (SBE_EXPECTED, RIN_EXPECTED), "{sbe:?} {rin:?}");
}

const SBE_EXPECTED: (u64, usize) = (10459151759792873778, 150);

const RIN_EXPECTED: (u64, usize) = (7880834537887682175, 40);

/// MCTS decisions per second on Space Battle at the default 175 iterations, depth
/// 10, macro 5. Run with `cargo test --release --test agents_on_games mcts_speed -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn mcts_speed() {
    let mut agent = Mcts::<SbeState>::new(MctsConfig {
        macro_action: 5,
        ..MctsConfig::default()
    });
    let mut rng = rng_from_seed(1);
    let mut s = SbeState::new(SbeParams::default(), 1);
    let start = std::time::Instant::now();
    let decisions = 200;
    for _ in 0..decisions {
        let a = agent.act(&s, 0, &mut rng);
        s.advance(&[a, 5]);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "MCTS 175 it / depth 10 / macro 5: {:.1} decisions/s",
        decisions as f64 / secs
    );
}
