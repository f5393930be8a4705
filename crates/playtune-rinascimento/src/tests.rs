//! Tests across the module: invariants over random games, observation, whole games,
//! and the random-game statistics against the paper; each rule on its own is in
//! `rules`.

mod rules;

use std::collections::HashSet;

use super::action::ActionKind;
use super::rules::MAX_COLOURS;
use super::state::EMPTY;
use super::state::EndReason;
use super::*;
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::{Rng, rng_from_seed};
use rand::RngExt;

/// Checks every conservation law and limit; panics with the state on a violation.
pub(super) fn check_invariants(s: &RinState) {
    let r = s.rules();
    let n = s.colours();
    let p = s.players();
    for c in 0..MAX_COLOURS {
        let total: u32 = s.bank[c] as u32 + (0..p).map(|q| s.hand(q).tokens[c] as u32).sum::<u32>();
        let expected = if c < n { r.coins } else { 0 };
        assert_eq!(total, expected, "colour {c} not conserved: {s:?}");
    }
    let gold: u32 = s.bank_gold() as u32 + (0..p).map(|q| s.hand(q).gold as u32).sum::<u32>();
    assert_eq!(gold, r.jokers, "jokers not conserved");
    let mut seen = HashSet::new();
    let mut placed = 0usize;
    for d in 0..s.decks() {
        for &id in s.deck(d) {
            assert!(seen.insert(id), "card {id} twice");
            assert_eq!(s.card(id).level as usize, d);
            placed += 1;
        }
        for &id in s.face_up(d) {
            if id == EMPTY {
                assert_eq!(s.deck_len(d), 0, "empty slot with cards left in deck {d}");
            } else {
                assert!(seen.insert(id), "card {id} twice");
                assert_eq!(s.card(id).level as usize, d);
                placed += 1;
            }
        }
    }
    let mut bought = 0usize;
    let mut nobles = s.nobles().len();
    for q in 0..p {
        let h = s.hand(q);
        assert!(h.token_total() <= r.max_tokens, "hand {q} over max tokens");
        assert!(
            h.reserved().len() as u32 <= r.max_reserved,
            "hand {q} over max reserved"
        );
        for &id in h.reserved() {
            assert!(seen.insert(id), "card {id} twice");
            placed += 1;
        }
        assert_eq!(
            h.bonuses.iter().map(|&b| b as usize).sum::<usize>(),
            h.cards as usize
        );
        assert!(h.bonuses[n..].iter().all(|&b| b == 0));
        assert!(h.points as u32 >= 3 * h.nobles as u32);
        bought += h.cards as usize;
        nobles += h.nobles as usize;
    }
    assert_eq!(
        placed + bought,
        s.content().cards.len(),
        "cards not conserved"
    );
    assert_eq!(nobles, r.nobles_on_table(), "nobles not conserved");
    let table: HashSet<u8> = s.nobles().iter().copied().collect();
    assert_eq!(table.len(), s.nobles().len());
}

/// Plays one random game checking invariants after every action; returns the state.
pub(super) fn random_game(rules: &Rules, seed: u64, check_enumeration: bool) -> RinState {
    let mut s = RinState::new(rules, seed).unwrap();
    let mut rng = rng_from_seed(seed ^ 0xABCD);
    let mut all = Vec::new();
    check_invariants(&s);
    while !s.is_over() {
        let p = s.current_player();
        let a = s
            .random_action(p, &mut rng)
            .expect("a legal action while the game runs");
        assert!(s.is_legal(p, &a), "RAG gave an illegal action {a:?}");
        if check_enumeration && s.legal_actions(p, &mut all) {
            assert!(all.contains(&a), "{a:?} not enumerated");
        }
        s.advance(&[a]);
        check_invariants(&s);
    }
    match s.end_reason() {
        Some(EndReason::Stalemate) => assert!(!s.has_legal_action(s.current_player())),
        Some(EndReason::Timeout) => assert_eq!(s.step_count(), rules.max_actions),
        Some(EndReason::Points) => {
            assert!((0..s.players()).any(|q| s.hand(q).points as u32 >= rules.end_points))
        }
        None => unreachable!(),
    }
    s
}

#[test]
fn invariants_hold_in_random_four_player_games() {
    for seed in 0..200 {
        random_game(&Rules::default(), seed, seed < 20);
    }
}

#[test]
fn invariants_hold_with_two_and_three_players() {
    for players in [2, 3] {
        for seed in 0..40 {
            random_game(&Rules::splendor(players), 1000 + seed, seed < 5);
        }
    }
}

#[test]
fn invariants_hold_under_other_rule_vectors() {
    let base = Rules::default();
    let variants = [
        Rules {
            token_types: 3,
            pick_diff_types: 2,
            ..base
        },
        Rules {
            token_types: 4,
            decks: 2,
            ..base
        },
        Rules {
            token_types: 6,
            decks: 4,
            content_seed: 3,
            ..base
        },
        Rules {
            token_types: 8,
            decks: 5,
            face_up: 6,
            ..base
        },
        Rules {
            decks: 1,
            face_up: 2,
            ..base
        },
        Rules {
            players: 2,
            token_types: 7,
            coins: 3,
            jokers: 0,
            ..base
        },
        Rules {
            max_tokens: 4,
            pick_diff_each: 2,
            ..base
        },
        Rules {
            max_reserved: 0,
            extra_nobles: 6,
            ..base
        },
        Rules {
            max_reserved: 5,
            pick_same: 4,
            pick_same_min: 4,
            end_points: 25,
            ..base
        },
        Rules {
            players: 3,
            coins: 12,
            max_tokens: 15,
            pick_diff_types: 5,
            pick_diff_each: 3,
            ..base
        },
    ];
    for (i, rules) in variants.iter().enumerate() {
        rules.validate().unwrap();
        for seed in 0..15 {
            random_game(rules, 5000 + 100 * i as u64 + seed, seed < 3);
        }
    }
}

pub(super) fn fresh() -> RinState {
    RinState::new(&Rules::default(), 42).unwrap()
}

pub(super) fn take(colours: &[usize], amount: u8) -> [u8; MAX_COLOURS] {
    let mut t = [0u8; MAX_COLOURS];
    for &c in colours {
        t[c] = amount;
    }
    t
}

pub(super) fn pick_for(s: &RinState) -> Action {
    s.random_action_of(
        s.current_player(),
        ActionKind::PickDifferent,
        &mut rng_from_seed(s.step_count() as u64),
    )
    .unwrap()
}

#[test]
fn observe_hides_opponents_hidden_cards_and_deck_order() {
    let mut s = fresh();
    s.play(&Action::ReserveDeck {
        deck: 2,
        give: Tokens::default(),
    }); // seat 0, hidden
    s.play(&Action::ReserveDeck {
        deck: 2,
        give: Tokens::default(),
    }); // seat 1, hidden
    let card = s.face_up(1)[0];
    s.play(&Action::ReserveFaceUp {
        deck: 1,
        slot: 0,
        card,
        give: Tokens::default(),
    }); // seat 2, visible
    let mut rng = rng_from_seed(11);
    let mut changed_hidden = 0;
    let mut changed_order = 0;
    for _ in 0..50 {
        let o = s.observe(0, &mut rng);
        check_invariants(&o);
        // Kept: what seat 0 can see.
        assert_eq!(o.hand(0).reserved(), s.hand(0).reserved());
        assert_eq!(o.hand(2).reserved(), s.hand(2).reserved());
        for d in 0..3 {
            assert_eq!(o.face_up(d), s.face_up(d));
            assert_eq!(o.deck_len(d), s.deck_len(d));
        }
        assert_eq!(o.bank(), s.bank());
        for q in 0..4 {
            assert_eq!(o.hand(q).tokens, s.hand(q).tokens);
            assert_eq!(o.hand(q).points, s.hand(q).points);
            assert_eq!(o.hand(q).is_hidden(0), s.hand(q).is_hidden(0));
        }
        assert_eq!(o.current_player(), s.current_player());
        assert_eq!(o.step_count(), s.step_count());
        // Re-sampled: seat 1's hidden card comes from the unseen level-3 cards.
        let hidden = o.hand(1).reserved()[0];
        assert_eq!(o.card(hidden).level, 2);
        let mut unseen: Vec<u8> = s.deck(2).to_vec();
        unseen.push(s.hand(1).reserved()[0]);
        assert!(unseen.contains(&hidden));
        let mut pool: Vec<u8> = o.deck(2).to_vec();
        pool.push(hidden);
        pool.sort();
        unseen.sort();
        assert_eq!(pool, unseen);
        changed_hidden += usize::from(hidden != s.hand(1).reserved()[0]);
        changed_order += usize::from(o.deck(0) != s.deck(0));
    }
    assert!(changed_hidden > 40 && changed_order > 45);
    // Seat 1 sees its own card but not seat 0's.
    let o = s.observe(1, &mut rng);
    assert_eq!(o.hand(1).reserved(), s.hand(1).reserved());
}

pub(super) struct RandomAgent;

impl Agent<RinState> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }
    fn act(&mut self, state: &RinState, player: usize, rng: &mut Rng) -> Action {
        // A finished or stuck state is never handed to an agent; the fallback is a pass.
        state
            .random_action(player, rng)
            .unwrap_or(Action::BuyReserved { card: EMPTY })
    }
}

#[test]
fn play_game_is_reproducible_and_reports_per_agent() {
    let rules = Rules::default();
    let (mut a, mut b, mut c, mut d) = (RandomAgent, RandomAgent, RandomAgent, RandomAgent);
    let mut agents: Vec<&mut dyn Agent<RinState>> = vec![&mut a, &mut b, &mut c, &mut d];
    let r1 = play_game(&rules, &mut agents, 77);
    let r2 = play_game(&rules, &mut agents, 77);
    assert_eq!(r1, r2);
    let mut seats = r1.seats.clone();
    seats.sort();
    assert_eq!(seats, vec![0, 1, 2, 3]);
    assert_eq!(
        (r1.winners.len(), r1.points.len(), r1.cards.len()),
        (4, 4, 4)
    );
    assert_eq!(r1.illegal_actions, 0);
    let mut seat_orders = HashSet::new();
    let mut decided = 0;
    for seed in 0..40 {
        let r = play_game(&rules, &mut agents, seed);
        seat_orders.insert(r.seats.clone());
        assert!(r.length > 0 && r.length <= 300);
        if r.stalemate {
            assert!(r.winners.iter().all(|&w| !w));
        } else {
            decided += 1;
            let best = *r.points.iter().max().unwrap();
            assert!(best >= 15);
            for i in 0..4 {
                if r.winners[i] {
                    assert_eq!(r.points[i], best);
                }
            }
        }
    }
    assert!(seat_orders.len() > 5);
    assert!(decided > 20);
    let mut two: Vec<&mut dyn Agent<RinState>> = vec![&mut a, &mut b];
    assert!(super::play::try_play_game(&rules, &mut two, 1).is_err());
    assert!(super::play::try_play_game(&Rules::splendor(2), &mut two, 1).is_ok());
}

/// 1000 random 4-player games, compared with the paper (mean 140.86, sd 21.35, min 29,
/// max 183, 14.1% stalemates). Run with
/// `cargo test --release -p playtune-rinascimento --lib random_game_statistics -- --ignored --nocapture`.
#[test]
#[ignore]
fn random_game_statistics() {
    let rules = Rules::default();
    let games = 1000;
    let mut lengths = Vec::with_capacity(games);
    let (mut stalemates, mut timeouts) = (0, 0);
    let mut total_actions = 0u64;
    let start = std::time::Instant::now();
    for g in 0..games as u64 {
        let mut s = RinState::new(&rules, playtune_optim::rng::derive_seed(2019, &[g])).unwrap();
        let mut rng = rng_from_seed(playtune_optim::rng::derive_seed(2019, &[g, 1]));
        while !s.is_over() {
            match s.random_action(s.current_player(), &mut rng) {
                Some(a) => s.advance(&[a]),
                None => break,
            }
        }
        total_actions += s.step_count() as u64;
        lengths.push(s.step_count() as f64);
        match s.end_reason() {
            Some(EndReason::Stalemate) => stalemates += 1,
            Some(EndReason::Timeout) => timeouts += 1,
            _ => {}
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = lengths.len() as f64;
    let mean = lengths.iter().sum::<f64>() / n;
    let sd = (lengths.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let min = lengths.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = lengths.iter().cloned().fold(0.0, f64::max);
    println!(
        "{games} random 4-player games: mean length {mean:.2}, sd {sd:.2}, min {min}, max {max}, \
         stalemates {:.1}% (no legal action {:.1}%, action limit {:.1}%), {:.2} M states/s, {:.3} ms/game",
        100.0 * (stalemates + timeouts) as f64 / n,
        100.0 * stalemates as f64 / n,
        100.0 * timeouts as f64 / n,
        total_actions as f64 / secs / 1e6,
        1000.0 * secs / n,
    );
    // Search-agent pattern: clone a mid-game state and roll 10 random actions.
    let mut mid = RinState::new(&rules, 5).unwrap();
    let mut rng = rng_from_seed(5);
    for _ in 0..40 {
        let a = mid.random_action(mid.current_player(), &mut rng).unwrap();
        mid.advance(&[a]);
    }
    let start = std::time::Instant::now();
    let mut rolled = 0u64;
    for _ in 0..100_000 {
        let mut s = mid.clone();
        for _ in 0..10 {
            match s.random_action(s.current_player(), &mut rng) {
                Some(a) => s.advance(&[a]),
                None => break,
            }
            rolled += 1;
        }
    }
    println!(
        "clone + 10-action rollouts: {:.2} M actions/s",
        rolled as f64 / start.elapsed().as_secs_f64() / 1e6
    );
    println!("paper: mean 140.86, sd 21.35, min 29, max 183, stalemates 14.1%, 1.74 M states/s");
    assert!((100.0..=200.0).contains(&mean), "mean length {mean}");
}

#[test]
fn states_and_actions_stay_small() {
    // Cloning a state is the search agents' hot path: one flat copy, no heap.
    println!("RinState: {} bytes", std::mem::size_of::<RinState>());
    assert!(
        std::mem::size_of::<RinState>() <= 512,
        "{}",
        std::mem::size_of::<RinState>()
    );
    assert!(
        std::mem::size_of::<Action>() <= 24,
        "{}",
        std::mem::size_of::<Action>()
    );
}
