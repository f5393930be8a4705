//! Tests of the reference framework's readings of the rules (issue 15), each against
//! the spec's, with the helpers of `tests.rs`.

use super::action::ActionKind;
use super::state::EndReason;
use super::tests::{RandomAgent, check_invariants, fresh, pick_for, random_game};
use super::*;
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::{Rng, rng_from_seed};

/// The reference framework's readings (issue 15): each against the spec's.
fn with_reference_rules(s: &mut RinState) {
    s.rules = Preset::Reference.rules(s.rules);
}

#[test]
fn reference_end_stops_at_the_points() {
    for trigger in 0..4usize {
        let mut s = fresh();
        with_reference_rules(&mut s);
        s.hands[trigger].points = 15;
        let mut played = 0;
        while !s.is_over() {
            s.play(&pick_for(&s));
            played += 1;
        }
        // The trigger's own action ends the game; later seats lose their turn.
        assert_eq!(played, trigger + 1, "trigger at seat {trigger}");
        assert_eq!(s.end_reason(), Some(EndReason::Points));
        let w = s.winners();
        assert_eq!(w.iter().filter(|&&x| x).count(), 1);
        assert!(w[trigger]);
    }
}

#[test]
fn a_full_hand_reserves_without_a_joker_under_the_reference() {
    let full = |reference: bool| {
        let mut s = fresh();
        if reference {
            with_reference_rules(&mut s);
        }
        s.hands[0].tokens[..5].copy_from_slice(&[2, 2, 2, 2, 2]);
        for c in 0..5 {
            s.bank[c] -= 2;
        }
        s
    };
    let s = full(true);
    let card = s.face_up(0)[0];
    let reserve = |give| Action::ReserveFaceUp {
        deck: 0,
        slot: 0,
        card,
        give,
    };
    let joker_back = Tokens {
        gold: 1,
        ..Tokens::default()
    };
    assert!(s.is_legal(0, &reserve(Tokens::default())));
    assert!(!s.is_legal(0, &reserve(joker_back)));
    // Every enumerated or sampled reserve returns nothing.
    let mut all = Vec::new();
    s.legal_actions(0, &mut all);
    for a in &all {
        if let Action::ReserveFaceUp { give, .. } | Action::ReserveDeck { give, .. } = a {
            assert_eq!(*give, Tokens::default());
        }
    }
    let mut played = s.clone();
    played.play(&reserve(Tokens::default()));
    assert_eq!(
        (
            played.hand(0).gold,
            played.bank_gold(),
            played.hand(0).token_total()
        ),
        (0, 5, 10)
    );
    check_invariants(&played);
    // The spec's reading, for contrast: the joker comes and one token must go back.
    assert!(!full(false).is_legal(0, &reserve(Tokens::default())));
    // Below maxT the reference gives the joker as the spec does.
    let mut s = fresh();
    with_reference_rules(&mut s);
    s.play(&Action::ReserveDeck {
        deck: 0,
        give: Tokens::default(),
    });
    assert_eq!((s.hand(0).gold, s.bank_gold()), (1, 4));
}

#[test]
fn default_random_player_draws_as_the_rag() {
    let rules = Rules::default();
    for seed in 0..20 {
        let mut s = RinState::new(&rules, seed).unwrap();
        let (mut a, mut b) = (rng_from_seed(seed), rng_from_seed(seed));
        while !s.is_over() {
            let p = s.current_player();
            let x = s.sample_action_with(p, &RandomPlayer::default(), &mut a);
            assert_eq!(x, s.sample_action(p, &mut b));
            s.play(&x.unwrap());
        }
    }
    // The agent built for default settings plays the same games as `rnd`.
    let (mut r0, mut r1, mut r2, mut r3) = (
        RinRandom::default(),
        RinRandom::default(),
        RinRandom::default(),
        RinRandom::default(),
    );
    let mut with: Vec<&mut dyn Agent<RinState>> = vec![&mut r0, &mut r1, &mut r2, &mut r3];
    let (mut a, mut b, mut c, mut d) = (RandomAgent, RandomAgent, RandomAgent, RandomAgent);
    let mut plain: Vec<&mut dyn Agent<RinState>> = vec![&mut a, &mut b, &mut c, &mut d];
    for seed in 0..10 {
        assert_eq!(
            play_game(&rules, &mut with, seed),
            play_game(&rules, &mut plain, seed)
        );
    }
}

#[test]
fn reference_random_player_weights_kinds_and_keeps_jokers() {
    // At the start, picks and reserves are legal, buys not: the reference weights give
    // the reserves 10 / 55 of the draws, uniform kinds 1 / 2.
    let s = fresh();
    let mut rng = rng_from_seed(4);
    let draws = 20_000;
    let reserves = |random: RandomPlayer, rng: &mut Rng| {
        (0..draws)
            .filter(|_| {
                let a = s.sample_action_with(0, &random, rng).unwrap();
                matches!(
                    a.kind(),
                    ActionKind::ReserveFaceUp | ActionKind::ReserveDeck
                )
            })
            .count() as f64
            / draws as f64
    };
    // sd of a share near 0.2 over 20,000 draws: 0.003.
    let share = reserves(RandomPlayer::reference(), &mut rng);
    assert!((share - 10.0 / 55.0).abs() < 0.012, "{share}");
    let share = reserves(RandomPlayer::default(), &mut rng);
    assert!((share - 0.5).abs() < 0.015, "{share}");
    // Zero weights everywhere still give an action.
    let none = RandomPlayer {
        kinds: KindChoice::Weighted([0.0; 6]),
        ..RandomPlayer::default()
    };
    assert!(s.sample_action_with(0, &none, &mut rng).is_some());
    // Give-backs: a hand of 9 colours and 3 jokers picking 3 returns 5 colour tokens
    // under the reference, and jokers too (sometimes) under the default.
    let mut s = fresh();
    s.hands[0].tokens[..5].copy_from_slice(&[3, 3, 3, 0, 0]);
    for c in 0..3 {
        s.bank[c] -= 3;
    }
    s.hands[0].gold = 3;
    s.bank_gold -= 3;
    let mut jokers = [0u32; 2];
    for (i, give_back) in [GiveBack::AnyColour, GiveBack::AnyToken]
        .into_iter()
        .enumerate()
    {
        for _ in 0..200 {
            let a = s.random_action_with(0, ActionKind::PickDifferent, give_back, &mut rng);
            let Some(Action::PickDifferent { give, .. }) = a else {
                panic!("{a:?}")
            };
            assert_eq!(give.total(), 5);
            assert!(s.is_legal(0, &a.unwrap()));
            jokers[i] += give.gold as u32;
        }
    }
    assert_eq!(jokers[0], 0);
    assert!(jokers[1] > 0);
}

#[test]
fn invariants_hold_under_the_reference_preset() {
    let rules = Preset::Reference.rules(Rules::default());
    for seed in 0..100 {
        random_game(&rules, seed, seed < 10);
    }
    // The reference random player's actions are legal and enumerated.
    let random = RandomPlayer::reference();
    let mut all = Vec::new();
    for seed in 0..50 {
        let mut s = RinState::new(&rules, seed).unwrap();
        let mut rng = rng_from_seed(seed);
        while !s.is_over() {
            let p = s.current_player();
            let a = s.sample_action_with(p, &random, &mut rng).unwrap();
            assert!(s.is_legal(p, &a), "{a:?}");
            if seed < 10 && s.legal_actions(p, &mut all) {
                assert!(all.contains(&a), "{a:?} not enumerated");
            }
            s.advance(&[a]);
            check_invariants(&s);
        }
    }
}

#[test]
fn weighted_draws_follow_the_weights_and_skip_zeros() {
    let mut rng = rng_from_seed(8);
    let mut counts = [0usize; 4];
    for _ in 0..10_000 {
        counts[super::actions::weighted_index(&[1.0, 0.0, 3.0, 0.0], &mut rng)] += 1;
    }
    assert_eq!((counts[1], counts[3]), (0, 0));
    // sd of the share: 0.0043.
    assert!(
        (counts[2] as f64 / 10_000.0 - 0.75).abs() < 0.02,
        "{counts:?}"
    );
    let mut seen = [false; 3];
    for _ in 0..100 {
        seen[super::actions::weighted_index(&[0.0; 3], &mut rng)] = true;
    }
    assert_eq!(seen, [true; 3]);
}
