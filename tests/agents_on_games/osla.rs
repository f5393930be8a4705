use playtune_harness::agents::RandomAgent;
use playtune_harness::agents::osla::*;
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::{derive_seed, rng_from_seed};
use playtune_rinascimento::{self as rinascimento, RinState, Rules};
use playtune_space_battle::{self as space_battle, DoNothing, SbeParams, SbeState};

#[test]
fn osla_outscores_do_nothing_in_space_battle() {
    let (mut osla, mut idle) = (0.0, 0.0);
    for seed in 0..4 {
        let state =
            SbeState::new(SbeParams::default(), derive_seed(seed, &[0])).with_max_ticks(300);
        let record = space_battle::play_from(
            state,
            &mut Osla::new(12),
            &mut DoNothing,
            seed,
            &mut |_, _| {},
        );
        osla += record.scores[0];
        idle += record.scores[1];
    }
    println!("OSLA {osla} vs DoNothing {idle}");
    assert!(osla > idle, "OSLA {osla} vs DoNothing {idle}");
}

#[test]
fn osla_beats_random_in_rinascimento() {
    let rules = Rules::splendor(2);
    let games = 20;
    let mut wins = 0;
    for seed in 0..games {
        let mut osla = Osla::<RinState>::new(100);
        let mut random = RandomAgent;
        let record = rinascimento::play_game(&rules, &mut [&mut osla, &mut random], seed);
        if record.winners[0] && !record.winners[1] {
            wins += 1;
        }
    }
    println!("OSLA(100) vs Random: {wins}/{games} wins");
    assert!(wins * 10 > games * 6, "OSLA won {wins} of {games}");
}

#[test]
fn turn_based_budget_bounds_forward_model_calls() {
    use crate::helpers::{Counted, max_rin_calls};
    // One call per try: the other players' turns are not simulated.
    let most = max_rin_calls(&mut Osla::<Counted<RinState>>::new(40), 30);
    assert!(most <= 40 && most > 0, "{most} calls for a budget of 40");
}

#[test]
fn same_seed_same_actions() {
    let run = |seed| {
        let mut agent = Osla::<RinState>::new(50);
        let mut rng = rng_from_seed(seed);
        let mut s = RinState::new(&Rules::splendor(2), 11).unwrap();
        let mut seq = Vec::new();
        for _ in 0..40 {
            if s.is_over() {
                break;
            }
            let playtune_harness::game::Acting::Player(p) = s.acting() else {
                unreachable!()
            };
            let a = agent.act(&s, p, &mut rng);
            seq.push(a);
            s.advance(&[a]);
        }
        seq
    };
    assert_eq!(run(5), run(5));
}
